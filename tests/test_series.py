"""The power series of h(m) (Prop. 4 form, derived in verify/model/series.py) against the closed form."""

from __future__ import annotations

import math

import mpmath
import pytest

from verify.model import population
from verify.model.instance import GENERATORS
from verify.model.series import h_series

#: float64 rounding of the closed form: O(1e-16) relative on O(1) sums; 1e-12 is the issue's bar.
FLOAT_TOL = 1e-12
K = 6


def cases():
    for activation in ["relu", "erf", "sigmoid", "he3", "softplus"]:
        for kind in ["orthonormal", "separated", "glm"]:
            for xi in [0.5, 1.0, math.sqrt(K) / 2, 2 * math.sqrt(K)]:
                marks = () if (xi == 1.0 or kind == "glm") else (pytest.mark.slow,)
                yield pytest.param(activation, kind, xi, marks=marks)
        yield pytest.param(activation, "claim2", 1.0)


@pytest.mark.extended
@pytest.mark.parametrize("activation, kind, xi", list(cases()))
def test_series_matches_closed_form_within_its_bound(activation, kind, xi):
    inst = GENERATORS[kind](K, 30, xi, activation, seed=2)
    series = h_series(inst, 25, 30)
    for m in (-0.7, 0.0, 0.3, 0.9):
        value, bound = series.evaluate(m)
        closed = population.h(inst, m)
        assert abs(float(value) - float(closed)) <= float(bound) + FLOAT_TOL, (m, value, closed, bound)


def test_series_converges_to_closed_form_for_smooth_activations():
    """Where the bound is tiny the agreement must be at float64 level, not just 'within bound'."""
    inst = GENERATORS["orthonormal"](K, 30, 1.0, "sigmoid", seed=5)
    series = h_series(inst, 25, 30)
    for m in (-0.5, 0.5):
        value, bound = series.evaluate(m)
        assert bound < 1e-10
        assert abs(float(value) - float(population.h(inst, m))) <= 1e-12


def test_odd_coefficients_are_nonnegative():
    """For odd l and quantized c, A_ij^{l+1} = k^{-(l+1)}/(1+ξ²/k)^{l+1} > 0, so
    T(l,s) = Σ λ_i λ_j A^{l+1} G_ij^s ∝ ‖Σ_i λ_i w_i^{⊗s}‖² ≥ 0 and h_l ≥ 0."""
    for seed in range(5):
        inst = GENERATORS["separated"](K, 30, 1.5, "sigmoid", seed=seed)
        series = h_series(inst, 12, 20)
        for l in range(1, 12, 2):
            assert series.coefficients[l] >= -mpmath.mpf(10) ** -18


@pytest.mark.extended
def test_cli_series_and_h_series(tmp_path):
    from tests.cli_helpers import assert_one_line_usage_error, run_verify
    from verify.model.instance import save

    path = tmp_path / "inst.json"
    save(GENERATORS["orthonormal"](4, 12, 1.0, "erf", seed=0), path)
    result = run_verify("series", str(path), "--terms", "3", "--dps", "20", "--json")
    assert result.returncode == 0, result.stderr
    assert '"s_truncation_bounds"' in result.stdout
    result = run_verify("h", str(path), "--m", "0.2", "--method", "series", "--terms", "10")
    assert result.returncode == 0, result.stderr
    assert_one_line_usage_error(run_verify("series", str(path), "--terms", "0"), "--terms")
    assert_one_line_usage_error(run_verify("series", str(path), "--dps", "10"), "--dps")


@pytest.mark.extended
@pytest.mark.parametrize("activation", ["he3", "erf", "quadratic"])
@pytest.mark.parametrize("kind", ["orthonormal", "separated", "glm"])
def test_series_matches_closed_form_to_30_digits(activation, kind):
    """At 50 digits, where the series converges that far, the two agree to 1e-30."""
    inst = GENERATORS[kind](4, 30, 1.0, activation, seed=4)
    series = h_series(inst, 40, 50, s_terms=60)
    for m in ("-0.6", "0.25"):
        value, bound = series.evaluate(m)
        closed, closed_error = population.h_precise(inst, m, 50)
        if bound < 1e-32:
            assert abs(value - closed) <= mpmath.mpf(10) ** -30, (m, value - closed)
        else:
            assert abs(value - closed) <= bound + closed_error


def test_s_truncation_bound_is_sound_and_nearly_tight():
    """One neuron, small ξ, σ = h_5: the s-tail of h_0 beyond S = 2 is the single term
    s = 4, with B = 1/(1+ξ²) ≈ 1, so the stated bound must cover it and cannot be more
    than ~1/B² ≈ 1.04 times too large (a bound 10× too small is caught)."""
    from verify.model.instance import orthonormal

    inst = orthonormal(1, 3, 0.1, "he5", seed=0)
    short = h_series(inst, 1, dps=30, s_terms=2)
    full = h_series(inst, 1, dps=30, s_terms=20)
    error = abs(full.coefficients[0] - short.coefficients[0])
    assert error <= short.s_bounds[0]
    assert error >= 0.5 * short.s_bounds[0]
