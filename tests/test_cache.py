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
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
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


# --- hostile entries (issue #26): never block, never exhaust memory, never serve a bad value ---

def _recomputed(entry_path, change) -> None:
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
                        lambda name: "999.0" if name == "verify" else real(name))
    assert cache.load(KIND, KEY) is None  # a fixed formula is never served from an older release
