"""The on-disk cache never serves a damaged entry: every kind of damage is a miss, recomputed
and rewritten, and the output is byte-identical to a cold run."""

from __future__ import annotations

import json

import pytest

from verify.base import cache
from verify.cli import main

KIND, KEY = "test-kind", {"name": "x", "n": 3}
PAYLOAD = {"values": ["0.125", "0.25"], "note": "ok"}


@pytest.fixture()
def cache_dir(tmp_path, tmp_path_factory, monkeypatch):
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    monkeypatch.setenv(cache.KEY_ENV, str(tmp_path_factory.mktemp("key") / "cache.key"))
    return tmp_path


def _entry_file(root):
    (path,) = list(root.rglob("*.json"))
    return path


def test_round_trip(cache_dir):
    cache.store(KIND, KEY, PAYLOAD)
    assert cache.load(KIND, KEY) == PAYLOAD
    entry = json.loads(_entry_file(cache_dir).read_text())
    assert entry["schema"] == cache.SCHEMA_VERSION
    assert entry["sha256"] == cache.checksum(PAYLOAD)


def _altered_digit(text: str) -> str:
    return text.replace("0.125", "0.126")


def _other_schema(text: str) -> str:
    entry = json.loads(text)
    entry["schema"] = cache.SCHEMA_VERSION - 1
    return json.dumps(entry)


def _other_key(text: str) -> str:
    entry = json.loads(text)
    entry["key"]["n"] = 4
    return json.dumps(entry)


def _payload_not_object(text: str) -> str:
    entry = json.loads(text)
    entry["payload"] = [1, 2, 3]
    entry["sha256"] = cache.checksum({"": [1, 2, 3]})
    entry["hmac"] = cache._signature(cache._key(), entry)
    return json.dumps(entry)


DAMAGE = {
    "torn": lambda text: text[: len(text) // 2],
    "not json": lambda text: "{not json",
    "empty": lambda text: "",
    "list": lambda text: "[1, 2, 3]",
    "null": lambda text: "null",
    "number": lambda text: "42",
    "altered digit": _altered_digit,
    "old schema": _other_schema,
    "other key": _other_key,
    "payload not an object": _payload_not_object,
    "deeply nested": lambda text: "[" * 100_000 + "]" * 100_000,
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_damaged_entry_is_a_miss(cache_dir, damage):
    cache.store(KIND, KEY, PAYLOAD)
    path = _entry_file(cache_dir)
    path.write_text(DAMAGE[damage](path.read_text()))
    assert cache.load(KIND, KEY) is None


def test_payload_the_caller_cannot_decode_is_a_miss(cache_dir):
    cache.store(KIND, KEY, {"values": "not a list"})

    def decode(payload):
        return [float(v) for v in payload["values"]]

    assert cache.load(KIND, KEY, decode) is None


def test_miss_is_rewritten(cache_dir):
    cache.store(KIND, KEY, PAYLOAD)
    path = _entry_file(cache_dir)
    path.write_text("null")
    assert cache.load(KIND, KEY) is None
    cache.store(KIND, KEY, PAYLOAD)  # what every caller does after a miss
    assert cache.load(KIND, KEY) == PAYLOAD


def _hermite_json(capsys, *extra) -> str:
    assert main(["hermite", "sigmoid", "--terms", "6", "--dps", "20", "--json", *extra]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("damage", ["torn", "list", "null", "altered digit", "payload not an object"])
def test_cli_output_after_damage_is_byte_identical_to_a_cold_run(cache_dir, capsys, damage):
    """Damage every entry the command wrote (the report and the coefficients), rerun: same bytes."""
    cold = _hermite_json(capsys, "--no-cache")
    assert _hermite_json(capsys) == cold  # fills the cache
    files = list(cache_dir.rglob("*.json"))
    assert len(files) >= 2
    for path in files:
        path.write_text(DAMAGE[damage](path.read_text()))
    assert _hermite_json(capsys) == cold
    assert _hermite_json(capsys) == cold  # and again, from the rewritten entries
    for path in files:
        assert json.loads(path.read_text())["schema"] == cache.SCHEMA_VERSION


def test_wrong_shape_hermite_payload_is_recomputed(cache_dir, capsys):
    """A valid, checksummed entry whose payload has too few values is not served."""
    from verify.model import hermite

    first = hermite.hermite_coefficients("tanh", 6, 20)
    key = {"activation": "tanh", "dps": 20, "terms": 6, "method": "auto"}
    bad = hermite._to_payload(first)
    bad["values"] = bad["values"][:3]
    cache.store("hermite", key, bad)
    again = hermite.hermite_coefficients("tanh", 6, 20)
    assert [float(v) for v in again.values] == [float(v) for v in first.values]


@pytest.mark.parametrize("activation", ["sigmoid", "relu"])  # by quadrature, and exact
def test_cached_hermite_coefficients_are_the_computed_numbers_bit_for_bit(cache_dir, activation):
    """A cache hit returns the very binary numbers a fresh computation gives (decimal text read
    back differed in the last places, and so did a check's numbers between a cold and a warm run)."""
    from verify.model import hermite

    fresh = hermite.hermite_coefficients(activation, 8, 30, use_cache=False)
    hermite.hermite_coefficients(activation, 8, 30)  # stores it
    assert list((cache_dir / "hermite").glob("*.json"))
    cached = hermite.hermite_coefficients(activation, 8, 30)
    assert [v._mpf_ for v in cached.values] == [v._mpf_ for v in fresh.values]
    assert [e._mpf_ for e in cached.errors] == [e._mpf_ for e in fresh.errors]


# --- hostile entries (issue #26): never block, never exhaust memory, never serve a bad value ---

def _recomputed(entry_path, change) -> None:
    """Change the payload and re-sign it *with the user's key*: the worst case, past the
    authentication, where only the payload checks and the decoders stand."""
    entry = json.loads(entry_path.read_text())
    change(entry["payload"])
    entry["sha256"] = cache.checksum(entry["payload"])
    entry["hmac"] = cache._signature(cache._key(), entry)
    entry_path.write_text(json.dumps(entry))


def _forged(entry_path, change) -> None:
    """Change the payload and recompute everything that can be recomputed without the key."""
    entry = json.loads(entry_path.read_text())
    change(entry["payload"])
    entry["sha256"] = cache.checksum(entry["payload"])
    entry_path.write_text(json.dumps(entry))


def test_fifo_entry_is_a_miss_not_a_hang(cache_dir):
    import os

    cache.store(KIND, KEY, PAYLOAD)
    path = _entry_file(cache_dir)
    path.unlink()
    os.mkfifo(path)
    assert cache.load(KIND, KEY) is None  # used to block forever waiting for a writer


def test_link_out_of_the_cache_dir_is_a_miss(cache_dir, tmp_path_factory):
    cache.store(KIND, KEY, PAYLOAD)
    path = _entry_file(cache_dir)
    outside = tmp_path_factory.mktemp("outside") / "entry.json"
    outside.write_text(path.read_text())
    path.unlink()
    path.symlink_to(outside)
    assert cache.load(KIND, KEY) is None  # a valid entry, but outside the cache dir
    path.unlink()
    path.symlink_to("/dev/zero")
    assert cache.load(KIND, KEY) is None  # used to read /dev/zero until memory ran out


def test_oversized_entry_is_a_miss(cache_dir, monkeypatch):
    cache.store(KIND, KEY, PAYLOAD)
    monkeypatch.setattr(cache, "MAX_ENTRY_BYTES", 10)
    assert cache.load(KIND, KEY) is None


@pytest.mark.parametrize("bad", ["nan", "-inf", "Infinity"])
def test_non_finite_value_with_recomputed_checksum_is_a_miss(cache_dir, bad):
    cache.store(KIND, KEY, PAYLOAD)
    _recomputed(_entry_file(cache_dir), lambda payload: payload["values"].__setitem__(0, bad))
    assert cache.load(KIND, KEY) is None


def test_hermite_value_out_of_range_with_recomputed_checksum_is_recomputed(cache_dir, capsys):
    assert main(["hermite", "relu", "--terms", "4"]) == 0
    cold = capsys.readouterr().out
    for path in cache_dir.rglob("*.json"):
        _recomputed(path, lambda payload: [payload[f].__setitem__(0, "1e400")
                                           for f in ("values", "coefficients") if f in payload])
    assert main(["hermite", "relu", "--terms", "4"]) == 0
    assert capsys.readouterr().out == cold


def test_key_includes_the_package_version(cache_dir, monkeypatch):
    cache.store(KIND, KEY, PAYLOAD)
    import importlib.metadata

    real = importlib.metadata.version
    monkeypatch.setattr(importlib.metadata, "version",
                        lambda name: "999.0" if name == cache.DISTRIBUTION else real(name))
    assert cache.load(KIND, KEY) is None  # a fixed formula is never served from an older release


# --- authentication (issue #38): the cache directory alone cannot make an entry the suite serves ---

def test_entry_with_recomputed_checksum_but_no_key_is_a_miss(cache_dir, capsys):
    """relu's mu_1 is 1/2; an entry changed to 0.25 with its SHA-256 recomputed used to be served."""
    assert main(["hermite", "relu", "--terms", "4", "--json"]) == 0
    cold = capsys.readouterr().out
    for path in cache_dir.rglob("*.json"):
        _forged(path, lambda payload: [payload[f].__setitem__(1, "0.25")
                                       for f in ("values", "coefficients") if f in payload
                                       and isinstance(payload[f], list) and len(payload[f]) > 1])
    assert main(["hermite", "relu", "--terms", "4", "--json"]) == 0
    assert capsys.readouterr().out == cold


def _without_timing(text: str) -> str:
    import re

    return re.sub(r"in [0-9.]+ s", "in ? s", text)


def test_no_cache_entry_makes_a_certified_verdict_even_one_signed_with_the_key(cache_dir, capsys):
    """Whoever can read the cache key can sign a forged entry, and the HMAC then passes.  A
    certified verdict must still rest on this process's own balls: every entry of the cache is
    moved below 1/2 and re-signed with the real key, and ``mu(1) <= 1/2`` (tanh, 0.6057) must still
    fail, from recomputed balls (certified results are never read from, nor written to, disk)."""
    argv = ["claim", "mu(1) <= 1/2", "--activation", "tanh"]
    assert main(argv) == 1
    cold = _without_timing(capsys.readouterr().out)
    assert "fails" in cold and "lhs = 0.605706" in cold
    # entries a forger would change: tanh's coefficients (float and certified, as `verify hermite`
    # stores them) and whatever the claim itself stored
    assert main(["hermite", "tanh", "--terms", "8"]) == 0
    assert main(["hermite", "tanh", "--terms", "8", "--certified"]) == 0
    capsys.readouterr()
    assert list(cache_dir.rglob("*.json"))

    def shrink(value):
        if isinstance(value, dict):
            return {k: shrink(v) for k, v in value.items()}
        if isinstance(value, list):
            return [shrink(v) for v in value]
        if isinstance(value, str) and value.startswith("0.6"):
            return "0.25" + value[4:]
        if isinstance(value, float) and 0.6 < value < 0.61:
            return 0.25
        return value

    for path in cache_dir.rglob("*.json"):
        entry = json.loads(path.read_text())
        cache.store(entry["kind"], entry["key"], shrink(entry["payload"]))  # signed with the real key
    assert not any("certified" in json.loads(p.read_text())["kind"] for p in cache_dir.rglob("*.json"))
    assert main(argv) == 1
    assert _without_timing(capsys.readouterr().out) == cold


def test_entry_signed_with_another_key_is_a_miss(cache_dir, monkeypatch, tmp_path_factory):
    cache.store(KIND, KEY, PAYLOAD)
    monkeypatch.setenv(cache.KEY_ENV, str(tmp_path_factory.mktemp("other") / "cache.key"))
    assert cache.load(KIND, KEY) is None  # another machine's, or a deleted key's, entries


def test_key_is_created_private_and_reused(cache_dir):
    import os
    import stat

    cache.store(KIND, KEY, PAYLOAD)
    path = cache.key_path()
    assert stat.S_IMODE(os.lstat(path).st_mode) == 0o600
    first = path.read_bytes()
    cache.store(KIND, KEY, PAYLOAD)
    assert path.read_bytes() == first and cache.load(KIND, KEY) == PAYLOAD


def _key_inside(cache_dir, monkeypatch):
    monkeypatch.setenv(cache.KEY_ENV, str(cache_dir / "cache.key"))


def _key_shared(cache_dir, monkeypatch):
    cache.key_path().chmod(0o644)


def _key_a_link(cache_dir, monkeypatch):
    path = cache.key_path()
    real = path.with_name("real.key")
    path.rename(real)
    path.symlink_to(real)


def _key_garbled(cache_dir, monkeypatch):
    cache.key_path().write_text("not a key\n")


@pytest.mark.parametrize("unsafe", [_key_inside, _key_shared, _key_a_link, _key_garbled])
def test_unsafe_key_turns_the_cache_off(cache_dir, monkeypatch, unsafe):
    """A key the cache directory could hold, others could read, or a link could swap: nothing
    is served and nothing is stored (results are computed afresh, never unauthenticated)."""
    cache.store(KIND, KEY, PAYLOAD)
    assert cache.load(KIND, KEY) == PAYLOAD
    unsafe(cache_dir, monkeypatch)
    assert cache.load(KIND, KEY) is None
    for path in cache_dir.rglob("*.json"):
        path.unlink()
    cache.store(KIND, KEY, PAYLOAD)
    assert not list(cache_dir.rglob("*.json"))


@pytest.mark.parametrize("text", ["\x1b[2J", "title\x1b]0;pwned\x07", "\x9b31m", "a\x00b"])
def test_control_characters_are_never_served_nor_stored(cache_dir, text):
    cache.store(KIND, KEY, {**PAYLOAD, "note": text})
    assert not list(cache_dir.rglob("*.json"))
    cache.store(KIND, KEY, PAYLOAD)
    _recomputed(_entry_file(cache_dir), lambda payload: payload.__setitem__("note", text))
    assert cache.load(KIND, KEY) is None
    _recomputed(_entry_file(cache_dir), lambda payload: payload.__setitem__(text, "key"))
    assert cache.load(KIND, KEY) is None


def test_the_distribution_name_is_pyprojects():
    """The package version in every cache key is read from the installed distribution by name."""
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())
    assert project["project"]["name"] == cache.DISTRIBUTION
    assert cache._package_version() == project["project"]["version"]
