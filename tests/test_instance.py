"""Problem instances: generators satisfy the assumptions, violations are named, JSON round-trips."""

from __future__ import annotations

import dataclasses
import json
import math
import subprocess

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tests.cli_helpers import assert_one_line_usage_error, run_verify
from verify.base.errors import VerifyInputError
from verify.model.instance import (
    GENERATORS,
    NORM_TOL,
    ORTHOGONALITY_TOL,
    QUANTIZATION_TOL,
    AssumptionViolation,
    GramError,
    Instance,
    InstanceError,
    InstanceFileError,
    NonFiniteError,
    NotUnitError,
    ParameterError,
    ShapeError,
    assumption_5_holds,
    claim2,
    claim_2_rows,
    from_json,
    glm,
    load,
    orthonormal,
    save,
    separated,
    to_json,
)

# Named strategies for this module (tests/strategies.py is shared and owned elsewhere;
# these belong there once instances have other users).
#: Widths k ∈ [1, 8] (k = 1 included: Assumption 5 is vacuous there).
widths = st.integers(min_value=1, max_value=8)
#: Random-row kinds: both need d ≥ k + 1.
random_row_kinds = st.sampled_from(["orthonormal", "separated"])
seeds = st.integers(min_value=0, max_value=2**32 - 1)

REQUIRED_KEYS = {"k", "d", "xi", "activation", "lambda", "c", "c_hat", "gram"}
#: Teacher rows of Claim 2 are orthonormal up to rounding of k-term sums of ±1/k.
TEACHER_TOL = 1e-12


def claim_2_min_d(k: int) -> int:
    """Smallest d with d > 1 + k(k+1)/2 (the hypothesis of Claim 2)."""
    return 2 + k * (k + 1) // 2


@st.composite
def instances(draw) -> Instance:
    """Any generator at small sizes (d ≤ 64), each with its own lower bound on d."""
    kind = draw(st.sampled_from(sorted(GENERATORS)))
    k = draw(widths)
    low = {"claim2": claim_2_min_d(k), "glm": 1}.get(kind, k + 1)
    d = draw(st.integers(min_value=low, max_value=64))
    kwargs = {}
    if kind in ("orthonormal", "separated"):
        kwargs["quantized"] = draw(st.booleans())
    return GENERATORS[kind](k, d, 1.0 if kind == "claim2" else draw(st.sampled_from([0.5, 1.0, 3.0])),
                            "relu", draw(seeds), **kwargs)


def base() -> Instance:
    return orthonormal(4, 16, 1.0, "relu", 0)


def assert_one_line(exc: pytest.ExceptionInfo) -> str:
    message = str(exc.value)
    assert "\n" not in message and message.strip() == message and message
    return message


# --- generators ---------------------------------------------------------------------
@pytest.mark.parametrize("kind", sorted(GENERATORS))
def test_every_generator_validates_and_round_trips(kind, tmp_path):
    k, d = 4, 16
    instance = GENERATORS[kind](k, d, 1.0, "relu", 7)
    assert instance.kind == kind and instance.seed == 7
    again = load_saved(instance, tmp_path / f"{kind}.json")
    assert again == instance
    for name in ("lam", "c", "c_hat", "gram", "W", "u", "u_hat"):
        assert np.array_equal(getattr(again, name), getattr(instance, name)), name
    assert GENERATORS[kind](k, d, 1.0, "relu", 7) == instance  # same seed, same instance


def load_saved(instance: Instance, path) -> Instance:
    save(instance, path)
    return load(path)


@given(instances())
def test_generated_instances_round_trip_exactly(instance):
    again = from_json(json.loads(json.dumps(to_json(instance), sort_keys=True, indent=2)))
    for field in dataclasses.fields(Instance):
        a, b = getattr(instance, field.name), getattr(again, field.name)
        assert np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b, field.name


@given(instances())
def test_generated_instances_satisfy_assumptions_1_2_3(instance):
    k = instance.k
    if not instance.scratch:  # Assumption 1
        assert np.allclose(np.linalg.norm(instance.W, axis=1), 1, rtol=0, atol=NORM_TOL)
    assert np.linalg.norm(instance.W @ instance.u) <= ORTHOGONALITY_TOL  # Assumption 2
    assert np.linalg.norm(instance.W @ instance.u_hat) <= ORTHOGONALITY_TOL
    if instance.quantized:  # Assumption 3
        for c in (instance.c, instance.c_hat):
            assert np.allclose(np.abs(c), 1 / math.sqrt(k), rtol=0, atol=QUANTIZATION_TOL)


@given(widths, st.integers(0, 40), seeds)
def test_orthonormal_rows_satisfy_assumption_4(k, extra, seed):
    instance = orthonormal(k, k + 1 + extra, 2.0, "tanh", seed)
    assert np.allclose(instance.W @ instance.W.T, np.eye(k), rtol=0, atol=1e-12)
    assert instance.assumption_5


@given(widths, st.integers(0, 40), seeds)
@example(k=1, extra=0, seed=0)
def test_claim_2_teacher_rows_are_orthonormal(k, extra, seed):
    instance = claim2(k, claim_2_min_d(k) + extra, seed=seed)
    v = instance.teacher_rows()
    assert np.allclose(v @ v.T, np.eye(k), rtol=0, atol=TEACHER_TOL)
    off = instance.gram[~np.eye(k, dtype=bool)]
    assert np.allclose(off, -np.outer(instance.c, instance.c)[~np.eye(k, dtype=bool)], rtol=0, atol=1e-15)
    assert np.array_equal(instance.lam, np.ones(k))


def test_claim_2_teacher_rows_are_not_orthonormal_for_other_scales():
    """⟨w_i + ξc_i u, w_j + ξc_j u⟩ = (ξ² − 1) c_i c_j: orthogonality needs ξ = 1."""
    v = claim2(3, 8, xi=2.0, seed=0).teacher_rows()
    assert np.abs(v @ v.T - np.eye(3)).max() > 0.1


@pytest.mark.parametrize("kind", ["orthonormal", "separated"])
@pytest.mark.parametrize("alpha", [0.0, 0.5, 1.0])
def test_nonorthogonal_u_has_the_requested_projection(kind, alpha):
    """Fig. 5: u = α u_1 + √(1−α²) u_2 with u_1 ∈ span W, u_2 ⊥ span W, so ‖Π_W u‖ = α."""
    instance = GENERATORS[kind](5, 30, 1.0, "relu", 3, alpha=alpha)
    q = np.linalg.qr(instance.W.T)[0]
    assert math.isclose(np.linalg.norm(q.T @ instance.u), alpha, abs_tol=1e-12)
    assert instance.allow_nonorthogonal_u
    assert np.linalg.norm(instance.W @ instance.u_hat) <= ORTHOGONALITY_TOL


def test_continuous_c_is_unit_and_not_quantized():
    instance = separated(6, 40, 1.0, "relu", 1, quantized=False)
    assert not instance.quantized
    assert math.isclose(np.linalg.norm(instance.c), 1.0, abs_tol=NORM_TOL)
    assert np.abs(np.abs(instance.c) - 1 / math.sqrt(6)).max() > 1e-3


def test_glm_is_the_scratch_special_case():
    instance = glm(5, 9, math.sqrt(5), "he3", 0)
    assert instance.scratch and not instance.W.any() and not instance.gram.any()
    assert np.array_equal(instance.c, instance.c_hat)
    assert np.allclose(instance.lam, 1 / 5) and np.allclose(instance.c, 1 / math.sqrt(5))
    assert np.allclose(instance.teacher_rows(), instance.u)  # every teacher row is u: σ(⟨u, x⟩)


def test_default_lambda_is_one_over_k():
    assert np.array_equal(orthonormal(4, 9, 1.0, "relu", 0).lam, np.full(4, 0.25))
    lam = np.array([1.0, 2.0, 3.0, 4.0])
    assert np.array_equal(orthonormal(4, 9, 1.0, "relu", 0, lam=lam).lam, lam)


def test_seed_none_records_entropy_that_reproduces_the_instance():
    instance = separated(3, 10, 1.0, "relu", None)
    assert isinstance(instance.seed, int)
    assert separated(3, 10, 1.0, "relu", instance.seed) == instance


# --- Assumption 5 -------------------------------------------------------------------
def test_assumption_5_threshold():
    k = 4
    bound = 1 - math.log(k) / math.sqrt(k)
    gram = np.eye(k)
    gram[0, 1] = gram[1, 0] = bound
    assert assumption_5_holds(gram, k)
    gram[0, 1] = gram[1, 0] = -(bound + 1e-6)
    assert not assumption_5_holds(gram, k)
    assert assumption_5_holds(np.eye(1), 1)


def test_separated_reports_assumption_5_both_ways():
    assert separated(8, 200, 1.0, "relu", 0).assumption_5
    assert not separated(8, 9, 1.0, "relu", 0).assumption_5  # near-parallel rows in d = 9


# --- the paper's k = 4 example ------------------------------------------------------
PAPER_K4 = np.array([
    [1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0],
    [1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0],
    [0, -1, 0, 1, 0, 1, 0, 0, 1, 0, 0],
    [0, 0, 1, 0, -1, 1, 0, 0, 0, 1, 0],
]) / 2


def paper_k4(c: np.ndarray, quantized: bool = True) -> Instance:
    u = np.zeros(11)
    u[10] = 1.0
    return Instance(k=4, d=11, xi=1.0, activation="he3", lam=np.ones(4), c=c, c_hat=c,
                    gram=PAPER_K4 @ PAPER_K4.T, W=PAPER_K4, u=u, u_hat=u, quantized=quantized)


def test_claim_2_paper_example_k4_works_with_alternating_c():
    """Appendix C.3 prints W for k = 4 with "c_i = (−1/2)^i"; read as c_i = (−1)^i/2 it works."""
    instance = paper_k4(np.array([(-1) ** i / 2 for i in range(1, 5)]))
    v = instance.teacher_rows()
    assert np.allclose(v @ v.T, np.eye(4), rtol=0, atol=TEACHER_TOL)


def test_claim_2_paper_example_k4_literal_c_is_not_unit():
    with pytest.raises(NotUnitError):
        paper_k4(np.array([(-0.5) ** i for i in range(1, 5)]), quantized=False)


def test_claim_2_construction_needs_one_coordinate_fewer_than_claimed():
    """d = 1 + k(k+1)/2 suffices (the paper's k = 4 example has d = 11); the claim asks d > that."""
    for k in range(1, 7):
        d = 1 + k * (k + 1) // 2
        c = np.where(np.arange(k) % 2, 1.0, -1.0) / math.sqrt(k)
        W = claim_2_rows(k, d, c)
        u = np.eye(d)[d - 1]
        v = (W + np.outer(c, u)) / math.sqrt(1 + 1 / k)
        assert np.allclose(v @ v.T, np.eye(k), rtol=0, atol=TEACHER_TOL)
        inst = claim2(k, d, seed=k)  # the generator accepts what the construction needs
        assert inst.d == d
        with pytest.raises(ParameterError, match=f"so d >= {d}"):
            claim2(k, d - 1)
    assert np.array_equal(claim_2_rows(4, 11, np.array([-1, 1, -1, 1]) / 2)[:, :4],
                          np.eye(4) / 2)


# --- validation ---------------------------------------------------------------------
def _scale_row(instance: Instance, row: int, factor: float) -> Instance:
    W = instance.W.copy()
    W[row] *= factor
    return dataclasses.replace(instance, W=W)


def _tilted_u(instance: Instance, name: str, **changes) -> Instance:
    tilted = getattr(instance, name) + 0.1 * instance.W[0]
    return dataclasses.replace(instance, **{name: tilted / np.linalg.norm(tilted)}, **changes)


def _gram_diag(instance: Instance) -> Instance:
    gram = instance.gram.copy()
    gram[2, 2] = 1.5
    return dataclasses.replace(instance, gram=gram, W=None)


def _continuous_c(instance: Instance, **changes) -> Instance:
    c = np.array([0.1, 0.2, 0.3, 0.4])
    return dataclasses.replace(instance, c=c / np.linalg.norm(c), **changes)


@pytest.mark.parametrize("mutate, number, fragment", [
    (lambda i: _scale_row(i, 3, 1.2), 1, "row 3 of W has norm 1.2"),
    (_gram_diag, 1, "gram[2,2]"),
    (lambda i: _tilted_u(i, "u"), 2, "‖W u‖"),
    (lambda i: _tilted_u(i, "u_hat"), 2, "‖W u_hat‖"),
    (lambda i: _tilted_u(i, "u_hat", allow_nonorthogonal_u=True), 2, "u_hat"),
    (_continuous_c, 3, "c[0]"),
])
def test_assumption_violations_name_the_assumption(mutate, number, fragment):
    with pytest.raises(AssumptionViolation) as exc:
        mutate(base())
    message = assert_one_line(exc)
    assert exc.value.number == number
    assert message.startswith(f"Assumption {number} ")
    assert fragment in message


def test_allow_nonorthogonal_u_relaxes_u_only():
    relaxed = _tilted_u(base(), "u", allow_nonorthogonal_u=True)
    assert np.linalg.norm(relaxed.W @ relaxed.u) > 0.05


def test_quantized_false_accepts_continuous_c():
    assert not _continuous_c(base(), quantized=False).quantized


def _gram(values) -> np.ndarray:
    return np.array(values, dtype=float)


@pytest.mark.parametrize("changes, error, fragment", [
    ({"k": 0}, ParameterError, "k must be an integer >= 1, got 0"),
    ({"k": True}, ParameterError, "got True"),
    ({"d": 2.5}, ParameterError, "d must be an integer"),
    ({"xi": -1.0}, ParameterError, "xi must be a finite real number in (0, 1e+06]"),
    ({"xi": math.nan}, ParameterError, "xi"),
    ({"c": np.ones(3) / math.sqrt(3)}, ShapeError, "c has shape (3,) but k=4, d=16 need (4,)"),
    ({"W": np.eye(4, 15)}, ShapeError, "W has shape (4, 15)"),
    ({"lam": ["a"] * 4}, ShapeError, "lam is not a numeric array"),
    ({"lam": [1.0, math.nan, 1.0, 1.0]}, NonFiniteError, "lam"),
    ({"gram": _gram([[1, 0.5, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]), "W": None},
     GramError, "not symmetric"),
    ({"gram": _gram([[1, 2, 0, 0], [2, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]), "W": None},
     GramError, "positive semidefinite"),
    ({"gram": _gram([[1, 0.5, 0, 0], [0.5, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])},
     GramError, "disagrees with W Wᵀ"),
    ({"c": np.array([1.0, 1.0, 1.0, 1.0])}, NotUnitError, "c has norm 2"),
    ({"u": np.zeros(16)}, NotUnitError, "u has norm 0"),
    ({"scratch": True}, GramError, "scratch instance"),
    ({"activation": 3}, ParameterError, "activation must be a string"),
    ({"seed": -1}, ParameterError, "seed"),
])
def test_invalid_instances_raise_specific_one_line_errors(changes, error, fragment):
    with pytest.raises(error) as exc:
        dataclasses.replace(base(), **changes)
    assert fragment in assert_one_line(exc)
    assert isinstance(exc.value, InstanceError) and isinstance(exc.value, VerifyInputError)


@pytest.mark.parametrize("call, fragment", [
    (lambda: orthonormal(4, 4, 1.0, "relu", 0), "d >= k + 1"),
    (lambda: separated(0, 4, 1.0, "relu", 0), "k must be an integer >= 1"),
    (lambda: claim2(3, 6), "so d >= 7, got d=6"),
    (lambda: claim2(3, 8, quantized=False), "does not take continuous c"),
    (lambda: glm(3, 8, 1.0, "relu", 0, lam=np.ones(3)), "does not take lam"),
    (lambda: orthonormal(3, 8, 1.0, "relu", 0, alpha=1.5), "alpha"),
    (lambda: glm(3, 8, 1.0, "relu", -2), "seed must be a non-negative integer"),
])
def test_generator_arguments_are_checked(call, fragment):
    with pytest.raises(ParameterError) as exc:
        call()
    assert fragment in assert_one_line(exc)


def test_arrays_are_private_read_only_copies():
    c = np.ones(4) / 2
    instance = dataclasses.replace(base(), c=c)
    c[0] = 5.0
    assert instance.c[0] == 0.5
    with pytest.raises(ValueError):
        instance.c[0] = 1.0


# --- instance files -----------------------------------------------------------------
def _write(path, data) -> None:
    path.write_text(data if isinstance(data, str) else json.dumps(data))


def _without(key: str) -> dict:
    data = to_json(base())
    del data[key]
    return data


def _with(**changes) -> dict:
    return {**to_json(base()), **changes}


@pytest.mark.parametrize("content, fragment", [
    ("{not json", "is not valid JSON"),
    ("[1, 2]", "must be a JSON object, found list"),
    (_without("gram"), "missing key(s) 'gram'"),
    (_with(k="4"), "'k' must be of type int"),
    (_with(k=4.0), "'k' must be of type int"),
    (_with(quantized=1), "'quantized' must be of type bool"),
    (_with(c=[0.5, 0.5, "x", 0.5]), "'c' must hold numbers"),
    (_with(c=[0.5, 0.5, 0.5]), "c has shape (3,) but k=4, d=16 need (4,)"),
    (_with(gram=[[1.0, 0.0], [0.0]]), "rows of different lengths"),
    (_with(lam=[1, 1, 1, 1]), "unknown key(s) 'lam'"),
    (_with(seed=1.5), "'seed' must be an integer or null"),
])
def test_malformed_files_raise_instance_error_naming_the_file(tmp_path, content, fragment):
    path = tmp_path / "bad.json"
    _write(path, content)
    with pytest.raises(InstanceError) as exc:
        load(path)
    message = assert_one_line(exc)
    assert str(path) in message and fragment in message


def test_file_errors_keep_their_class_and_assumption_number(tmp_path):
    path = tmp_path / "bad.json"
    c = np.array([0.1, 0.2, 0.3, 0.9])
    _write(path, _with(c=(c / np.linalg.norm(c)).tolist()))
    with pytest.raises(AssumptionViolation) as exc:
        load(path)
    assert exc.value.number == 3 and str(path) in assert_one_line(exc)


def test_missing_file_and_unwritable_path(tmp_path):
    with pytest.raises(InstanceFileError, match="cannot read"):
        load(tmp_path / "absent.json")
    with pytest.raises(InstanceFileError, match="cannot write"):
        save(base(), tmp_path / "no" / "such" / "dir.json")


def test_optional_arrays_are_omitted_and_file_is_sorted(tmp_path):
    bare = dataclasses.replace(base(), W=None, u=None, u_hat=None)
    path = tmp_path / "bare.json"
    save(bare, path)
    data = json.loads(path.read_text())
    assert not {"W", "u", "u_hat"} & set(data)
    assert list(data) == sorted(data)
    assert load(path) == bare


# --- command line -------------------------------------------------------------------
def run_cli(*args: str) -> subprocess.CompletedProcess:
    return run_verify("instance", *args)


def test_cli_writes_an_instance_file(tmp_path):
    path = tmp_path / "inst.json"
    result = run_cli("orthonormal", "--k", "4", "--d", "16", "--xi", "1", "--activation", "relu",
                     "--seed", "0", "-o", str(path))
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.strip().splitlines()) == 1
    data = json.loads(path.read_text())
    assert REQUIRED_KEYS <= set(data)
    assert load(path) == orthonormal(4, 16, 1.0, "relu", 0)


def test_cli_separated_reports_assumption_5(tmp_path, capsys):
    from verify.cli import main

    assert main(["instance", "separated", "--k", "8", "--d", "200", "--activation", "tanh",
                 "--seed", "0", "-o", str(tmp_path / "s.json")]) == 0
    assert "Assumption 5 holds" in capsys.readouterr().out


@pytest.mark.parametrize("args, fragment", [
    (["orthonormal", "--k", "0"], "--k"),
    (["frobnicate"], "invalid choice"),
    (["orthonormal", "--activation", "swish"], "unknown activation 'swish'"),
    (["orthonormal", "--xi", "-1"], "--xi"),
    (["orthonormal", "-o", "/nonexistent-dir/inst.json"], "does not exist"),
    (["claim2", "--d", "10"], "so d >= 11"),
    (["orthonormal", "--alpha", "0.3"], "--alpha needs --allow-nonorthogonal-u"),
])
@pytest.mark.extended
def test_cli_bad_input_is_one_line_and_exit_2(tmp_path, args, fragment):
    defaults = {"--k": "4", "--d": "16", "--activation": "relu", "-o": str(tmp_path / "x.json")}
    for flag, value in defaults.items():
        if flag not in args:
            args = [*args, flag, value]
    assert_one_line_usage_error(run_cli(*args), fragment)
