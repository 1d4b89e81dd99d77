"""Evidence kept between runs (verify.base.evidence_cache): exact round trips, complete keys, and
a warm call that leaves everything as a cold one does."""

import json

import mpmath
import numpy as np
import pytest

from verify.base import cache
from verify.base.evidence_cache import (NotStorable, canonical, decode_array, decode_number, encode_array,
                                        encode_number, remembered)
from verify.model.instance import orthonormal
from verify.model.series import h_series
from verify.verdict.search import maximise


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setenv(cache.KEY_ENV, str(tmp_path / "key"))
    return tmp_path / "cache"


@pytest.mark.parametrize("value", [0, -7, 10**40, 0.1, -2.5e-300, float("inf"), mpmath.mpf(1) / 3,
                                   mpmath.mpf("-1e-500"), mpmath.inf, mpmath.mpf(0)])
def test_numbers_round_trip_exactly(value):
    with mpmath.workdps(50):
        back = decode_number(json.loads(json.dumps(encode_number(value))))
        assert type(back) is type(value)
        assert back == value
        if isinstance(value, mpmath.mpf):
            assert back._mpf_ == value._mpf_


def test_arrays_round_trip_exactly_and_non_finite_ones_are_not_stored():
    a = np.random.default_rng(1).standard_normal((3, 5))
    back = decode_array(json.loads(json.dumps(encode_array(a))))
    assert back.dtype == a.dtype and np.array_equal(back, a)
    with pytest.raises(NotStorable):
        encode_array(np.array([1.0, np.nan]))
    bad = encode_array(a)
    bad["shape"] = [4, 5]
    with pytest.raises(ValueError):
        decode_array(bad)


def test_canonical_tells_apart_what_differs_and_refuses_what_it_does_not_know():
    assert canonical((1, 0.5)) != canonical([1, 0.5])
    assert canonical({"float": (0.5).hex()}) != canonical(0.5)
    assert canonical(np.int64(3)) == canonical(3)
    for unknown in (np.array([mpmath.mpf(1)], dtype=object), np.longdouble(1), {1: 2}):
        with pytest.raises(TypeError):
            canonical(unknown)
    assert canonical(np.arange(3.0)) != canonical(np.arange(3.0) + 1e-16 * np.array([0, 0, 1]) + np.array([0, 0, 2e-15]))
    assert canonical(np.random.SeedSequence(1)) != canonical(np.random.SeedSequence(1, spawn_key=(0,)))
    assert canonical(orthonormal(k=2, d=8, xi=1.0, activation="relu", seed=0)) != \
        canonical(orthonormal(k=2, d=8, xi=1.0, activation="tanh", seed=0))
    with pytest.raises(TypeError):
        canonical(object())


def test_remembered_computes_once_and_serves_the_same_value(fresh_cache):
    calls = []

    def compute():
        calls.append(1)
        return mpmath.mpf(2) / 7

    first = remembered("t", {"x": 1}, compute, encode_number, decode_number)
    second = remembered("t", {"x": 1}, compute, encode_number, decode_number)
    assert len(calls) == 1 and first == second and first._mpf_ == second._mpf_
    remembered("t", {"x": 2}, compute, encode_number, decode_number)
    assert len(calls) == 2


def test_a_tampered_entry_is_recomputed(fresh_cache):
    remembered("t", {"x": 1}, lambda: 0.25, encode_number, decode_number)
    (entry,) = (fresh_cache / "t").iterdir()
    text = entry.read_text().replace(float(0.25).hex(), float(0.5).hex())
    entry.write_text(text)
    assert remembered("t", {"x": 1}, lambda: 0.25, encode_number, decode_number) == 0.25


def _ratio(z):
    return float(np.sin(3 * z[0]) * np.cos(z[1]))


def test_a_search_from_the_cache_gives_the_same_result_and_leaves_the_stream_where_the_search_does(fresh_cache):
    cold_rng, warm_rng = np.random.default_rng(5), np.random.default_rng(5)
    cold = maximise(_ratio, [(0, 2), (-1, 1)], cold_rng, starts=16, polish=2, remember={"test": 1})
    warm = maximise(_ratio, [(0, 2), (-1, 1)], warm_rng, starts=16, polish=2, remember={"test": 1})
    assert (cold.worst, cold.evaluations) == (warm.worst, warm.evaluations)
    assert np.array_equal(cold.argmax, warm.argmax)
    assert cold_rng.random() == warm_rng.random()
    assert len(list((fresh_cache / "search").iterdir())) == 1


def test_a_search_without_a_description_is_never_cached(fresh_cache):
    # two functions that agree at the three probe points of the box: name and probes do not
    # identify a function, so only a caller's description may key a search
    def measure(z):
        return float(z[0])

    first = maximise(measure, [(0, 1)], np.random.default_rng(5), starts=8, polish=1)

    def measure(z):  # noqa: F811 - the same name, as the claim engine's objectives have
        return float(z[0]) + 1e6 * float(np.prod([z[0] - t for t in (0, 0.25, 0.5, 0.75, 1)])) ** 2

    second = maximise(measure, [(0, 1)], np.random.default_rng(5), starts=8, polish=1)
    assert second.worst > first.worst + 1
    assert not (fresh_cache / "search").exists()


def test_other_generators_are_searched_not_cached(fresh_cache):
    for bit_generator in (np.random.MT19937, np.random.SFC64, np.random.Philox):
        for _ in range(2):
            maximise(_ratio, [(0, 2), (-1, 1)], np.random.Generator(bit_generator(3)), starts=8, polish=1,
                     remember={"test": 2})
    assert not (fresh_cache / "search").exists()


def test_perturbed_code_bypasses_the_cache(fresh_cache):
    from verify.base.evidence_cache import bypassed

    calls = []
    with bypassed():
        for _ in range(2):
            remembered("t", {"x": 1}, lambda: calls.append(1) or 0.5, encode_number, decode_number)
    assert len(calls) == 2 and not (fresh_cache / "t").exists()


def test_an_h_series_from_the_cache_is_the_computed_one(fresh_cache):
    inst = orthonormal(k=2, d=8, xi=1.0, activation="tanh", seed=0)
    cold, warm = h_series(inst, 6), h_series(inst, 6)
    assert cold == warm
    assert [c._mpf_ for c in cold.coefficients] == [c._mpf_ for c in warm.coefficients]


def test_only_plain_module_functions_name_an_objective():
    import functools

    from verify.verdict.search import function_name

    assert function_name(_ratio) == f"{__name__}._ratio"
    assert function_name(lambda z: 0.0) is None
    assert function_name(functools.partial(_ratio)) is None
    scale = 2.0

    def closure(z):
        return scale * z[0]

    assert function_name(closure) is None


def test_sampled_draws_are_kept_and_an_enumeration_is_read_afresh(fresh_cache, monkeypatch):
    """verify.claims.probability: a sampled configuration's counts (statistical evidence) are
    kept, and a warm claim equals the cold one; an enumeration's P (certified) is never kept, and
    neither is a failing draw's example changed by the round trip."""
    import verify.claims.probability as probability
    from verify.claims import claim

    reads = []
    original = probability._read_draws
    monkeypatch.setattr(probability, "_read_draws", lambda *a: reads.append(1) or original(*a))
    sampled = dict(family="orthonormal", activation="relu", for_=["k = 12", "xi = 1"],
                   prob=">= 1/2 over c, c_hat", draws=40)
    text = "abs(h(0)) >= 0"
    cold = claim(text, **sampled)
    warm = claim(text, **sampled)
    assert cold.verdict.value == "consistent" and len(reads) == 1
    assert (fresh_cache / "probability-draws").is_dir()
    timeless = ({k: v for k, v in o.numbers.items() if k != "seconds"} for o in (cold, warm))
    assert next(timeless) == next(timeless) and cold.evidence == warm.evidence
    failing = claim("abs(h(0)) >= 1", **sampled)
    again = claim("abs(h(0)) >= 1", **sampled)
    assert failing.verdict.value == "fails" and again.numbers["failing_draw"] == failing.numbers["failing_draw"]
    assert isinstance(again.numbers["failing_draw"]["lhs"], float) and len(reads) == 2
    reads.clear()
    enumerated = dict(family="orthonormal", for_=["k = 3"], prob=">= 1/2 over c, c_hat")
    claim("c(1)*chat(2) + c(2)*chat(1) >= 0", **enumerated)
    claim("c(1)*chat(2) + c(2)*chat(1) >= 0", **enumerated)
    assert len(reads) == 2
