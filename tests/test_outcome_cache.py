"""Outcomes of checks decided by measurement, kept between runs (verify.checks.outcome_cache):
exact round trips of every field and value type, nothing proved ever read back, a whitelist on
reading, and a warm run whose report is the cold run's."""

from __future__ import annotations

import dataclasses
import json

import mpmath
import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from tests.cli_helpers import untimed
from tests.pack_helpers import copy_builtin_data
from verify.base import cache
from verify.base.evidence_cache import NotStorable
from verify.checks import load_all, outcome_cache
from verify.checks.outcome_cache import (
    STORABLE,
    decode_outcome,
    decode_value,
    encode_outcome,
    encode_value,
    storable,
)
from verify.checks.runner import run_checks
from verify.paper import pack as pack_module
from verify.verdict import Basis, FailureKind, Impact, Outcome, Verdict

#: quick checks of each kind: high-precision (one that fails), statistical, certified, exact
SAMPLE = ("claim-3-n-split", "claim-3-diagonal-eigen-sum", "appendix-b-threshold", "assumption-2", "eq-14")


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setenv(cache.KEY_ENV, str(tmp_path / "key"))
    return tmp_path / "cache"


def _same(a, b) -> bool:
    """Equal and of the same type, all the way down (1 == 1.0 == np.float64(1) is not enough)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) and type(k) is type(j)
                                          for k, j in zip(a, b, strict=True))
    return a == b


finite = st.floats(allow_nan=False, allow_infinity=False)
scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5), finite,
                    finite.map(np.float64), st.integers(-2**62, 2**62).map(np.int64),
                    st.booleans().map(np.bool_),
                    st.lists(finite, max_size=4).map(np.array))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.lists(inner, max_size=3).map(tuple),
    st.dictionaries(st.one_of(st.text(max_size=4), st.integers()), inner, max_size=3)), max_leaves=12)


@given(values)
def test_every_value_comes_back_equal_and_of_its_type(value):
    back = decode_value(json.loads(json.dumps(encode_value(value))))
    assert _same(back, value)


def test_mpmath_numbers_keep_their_bits():
    with mpmath.workdps(40):
        value = mpmath.mpf(1) / 3
        back = decode_value(json.loads(json.dumps(encode_value(value))))
        assert back._mpf_ == value._mpf_


@pytest.mark.parametrize("value", [sympy.Rational(1, 3), Verdict.HOLDS, float("nan"), np.float32(1.5),
                                   {1.5j: 1}, object(), np.array([np.inf])])
def test_a_value_it_cannot_write_exactly_makes_the_outcome_not_storable(value):
    with pytest.raises(NotStorable):
        encode_value({"x": value})


@pytest.mark.parametrize("payload", [
    {"set": [1, 2]},  # an unknown tag
    {"float": "inf"},  # non-finite
    {"float": "0x1p0", "extra": 1},  # two tags
    [1, 2],  # an untagged list
    {"int64": 1.5},
    {"dict": [[{"list": []}, 1]]},  # an unhashable key
    {"array": {"dtype": "object", "shape": [1], "data": ""}},
])
def test_decoding_accepts_only_what_the_encoder_writes(payload):
    with pytest.raises((ValueError, KeyError, TypeError)):
        decode_value(payload)


def test_decoding_refuses_deep_nesting():
    payload = 1
    for _ in range(40):
        payload = {"list": [payload]}
    with pytest.raises(ValueError):
        decode_value(payload)


def _full_outcome(basis=Basis.STATISTICAL) -> Outcome:
    part = Outcome(Verdict.CONSISTENT, "a part", numbers={"z": np.float64(2.5)}, basis=basis, scope="part: x")
    return Outcome(Verdict.FAILS, "the whole", numbers={"se": 0.1, "n": np.int64(400), "cells": (1, 2.0)},
                   parameters={"k": 4, "xi": 1.0}, counterexample={"seed": 7, "at": [0.5, np.float64(-1.0)]},
                   correction="read 1/2 for 1/4", correction_verified=True, notes=["a note"], basis=basis,
                   failure_kind=FailureKind.STEP, scope=None, impact=Impact.REPAIRED, parts={"E-1": part},
                   statement="display E-1")


def test_every_field_of_an_outcome_round_trips():
    outcome = _full_outcome()
    back = decode_outcome(json.loads(json.dumps(encode_outcome(outcome))))
    for field in dataclasses.fields(Outcome):
        if field.name != "parts":
            assert _same(getattr(back, field.name), getattr(outcome, field.name)), field.name
    assert _same(vars(back.parts["E-1"]), vars(outcome.parts["E-1"]))


def test_an_outcome_with_a_missing_or_extra_field_is_refused():
    payload = encode_outcome(_full_outcome())
    with pytest.raises(ValueError):
        decode_outcome({**payload, "shell": "rm"})
    del payload["scope"]
    with pytest.raises(ValueError):
        decode_outcome(payload)


@pytest.mark.parametrize("basis", list(Basis))
def test_only_measurement_is_storable_and_a_proved_part_keeps_the_whole_out(basis):
    assert storable(_full_outcome(basis)) is (basis in STORABLE)
    whole = _full_outcome()
    whole.parts["E-1"].basis = basis
    assert storable(whole) is (basis in STORABLE)


def test_a_warm_run_reads_measurements_back_and_computes_proofs_again(fresh_cache):
    registry = load_all()
    sample = [registry[i] for i in SAMPLE]
    cold = run_checks(sample, seed=5)
    warm = run_checks(sample, seed=5)
    assert [untimed(r.to_dict()) for r in warm] == [untimed(r.to_dict()) for r in cold]
    assert [r.to_dict()["cached_seconds"] is None for r in warm] == [r.cached_cost is None for r in warm]
    read_back = {r.check.id for r in warm if r.cached_cost is not None}
    assert read_back == {r.check.id for r in cold if storable(r.outcome)} == set(SAMPLE[:3])
    assert all(r.cached_cost is None for r in cold)
    # another seed is another measurement
    assert all(r.cached_cost is None for r in run_checks(sample[:1], seed=6))


def test_verify_show_says_an_outcome_was_read_back(fresh_cache):
    from verify.checks.show import render

    registry = load_all()
    check = [registry["appendix-b-threshold"]]
    run_checks(check, seed=5)
    record = run_checks(check, seed=5)[0].to_dict()
    assert record["cached_seconds"] is not None
    text = render(record, [])
    assert "read back from the last run of this code" in text
    assert "read back" not in render({**record, "cached_seconds": None}, [])


def test_a_directory_packs_files_are_read_once_per_loaded_pack(tmp_path, monkeypatch):
    """pack_fingerprint reads a pack directory's files once per loaded pack (not once per check),
    and the pack a later run loads after an edit of its ledger gets a new fingerprint."""
    root = copy_builtin_data(tmp_path / "pack")
    reads = []
    digest = outcome_cache._pack_files_digest
    monkeypatch.setattr(outcome_cache, "_pack_files_digest",
                        lambda *args: reads.append(args) or digest(*args))
    first = pack_module.load(root)
    before = outcome_cache.pack_fingerprint(first)
    assert outcome_cache.pack_fingerprint(first) == before and len(reads) == 1
    ledger_file = next(path for path in sorted(first.ledger_dir.rglob("*")) if path.is_file())
    ledger_file.write_text(ledger_file.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    pack_module.load.cache_clear()  # what a new run does: load the directory afresh
    assert outcome_cache.pack_fingerprint(pack_module.load(root)) != before and len(reads) == 2
