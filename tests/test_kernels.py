"""Dual kernels agree three ways: closed form, 2-D quadrature, and partial sums."""

from __future__ import annotations

import mpmath
import pytest
import sympy
from hypothesis import given, settings

from tests.strategies import correlations
from verify.base.errors import InvalidParameterError
from verify.model.activations import get_activation
from verify.model.kernels import closed_form, kernel

RHOS = ["-0.95", "-0.5", "0", "0.37", "0.9"]
DPS = 20
#: Comparisons are against the sum of the two methods' own error bounds plus
#: 10^-(DPS) for the final rounding: a method whose bound is too small fails.
ROUNDING = mpmath.mpf(10) ** -DPS


def agree(a, b) -> bool:
    return abs(a.value - b.value) <= a.error + b.error + ROUNDING


@pytest.mark.extended
@pytest.mark.parametrize("derivative", [False, True])
@pytest.mark.parametrize("rho", RHOS)
def test_erf_closed_form_matches_quadrature(rho, derivative):
    closed = kernel("erf", rho, derivative, DPS, method="closed")
    quad = kernel("erf", rho, derivative, DPS, method="quadrature")
    assert agree(closed, quad)


@pytest.mark.extended
@pytest.mark.parametrize("derivative", [False, True])
@pytest.mark.parametrize("name, rho", [("relu", "-0.5"), ("relu", "0.37"), ("abs", "0.37")])
def test_kinked_closed_forms_match_quadrature(name, rho, derivative):
    closed = kernel(name, rho, derivative, DPS, method="closed")
    quad = kernel(name, rho, derivative, DPS, method="quadrature")
    assert agree(closed, quad)


@pytest.mark.slow
@pytest.mark.parametrize("derivative", [False, True])
@pytest.mark.parametrize("rho", RHOS)
@pytest.mark.parametrize("name", ["relu", "abs"])
def test_kinked_closed_forms_match_quadrature_full_grid(name, rho, derivative):
    closed = kernel(name, rho, derivative, DPS, method="closed")
    quad = kernel(name, rho, derivative, DPS, method="quadrature")
    assert agree(closed, quad)


@pytest.mark.extended
@pytest.mark.parametrize("derivative", [False, True])
@pytest.mark.parametrize("rho", RHOS)
@pytest.mark.parametrize("name", ["relu", "erf", "abs"])
def test_closed_forms_match_partial_sums(name, rho, derivative):
    """The series bound is rigorous but loose near |ρ| = 1 (relu: Σ p μ_p² ~ N^{-1/2})."""
    closed = kernel(name, rho, derivative, DPS, method="closed")
    series = kernel(name, rho, derivative, DPS, method="series", terms=120)
    assert agree(closed, series)
    if abs(float(rho)) <= 0.5:  # there the series converges geometrically: demand 15 digits
        assert series.error < 1e-15


@pytest.mark.parametrize("derivative", [False, True])
@pytest.mark.parametrize("rho", [
    "-0.5", "0", "0.9",
    pytest.param("-0.95", marks=pytest.mark.slow), pytest.param("0.37", marks=pytest.mark.slow),
])
@pytest.mark.parametrize("name", ["sigmoid", "tanh", pytest.param("gelu", marks=pytest.mark.slow),
                                  pytest.param("softplus", marks=pytest.mark.slow)])
@pytest.mark.extended
def test_quadrature_matches_partial_sums(name, rho, derivative):
    """Activations without a closed form: 2-D quadrature against the series with its bound."""
    quad = kernel(name, rho, derivative, DPS, method="quadrature")
    series = kernel(name, rho, derivative, DPS, method="series", terms=120)
    assert agree(quad, series)


@pytest.mark.parametrize("derivative", [False, True])
@pytest.mark.parametrize("rho", ["0.9", "-0.6"])
def test_series_tail_bound_is_attained_by_hermite_activations(rho, derivative):
    """For σ = h_8 and N = 8 terms the partial sum is 0 and the whole kernel is tail:
    K = ρ^8 and K' = 8ρ^7 meet the bounds |ρ|^N E[σ²] and |ρ|^{N-1} E[σ'²] exactly,
    so any bound that is too small by even a factor |ρ| fails here."""
    closed = kernel("he8", rho, derivative, DPS, method="closed")
    series = kernel("he8", rho, derivative, DPS, method="series", terms=8)
    assert series.value == 0
    assert abs(closed.value) <= series.error + ROUNDING
    assert series.error <= abs(closed.value) * (1 + 1e-15) + ROUNDING


def test_quadrature_error_estimate_is_honest_for_tanh_derivative():
    """Pinned: mpmath's tanh-sinh extrapolation once claimed 9e-27 here for a 2.9e-26 error."""
    coarse = kernel("tanh", "0.37", True, 20, method="quadrature")
    fine = kernel("tanh", "0.37", True, 30, method="quadrature")
    assert abs(coarse.value - fine.value) <= coarse.error + fine.error


@pytest.mark.parametrize("derivative", [False, True])
@pytest.mark.parametrize("name, rho", [("expr:sin(x)", "0.37"), ("expr:cos(x) - 2*exp(x/3)", "-0.61"),
                                       ("expr:sinh(2*x)", "0.9")])
@pytest.mark.extended
def test_sums_of_exponentials_closed_forms_match_quadrature(name, rho, derivative):
    # the moment generating function (complex exponents for sin and cos) against the 2-D quadrature
    closed = kernel(name, rho, derivative, DPS, method="closed")
    assert closed.method == "closed"
    assert agree(closed, kernel(name, rho, derivative, DPS, method="quadrature"))


@pytest.mark.parametrize("name", ["relu", "abs", "erf", "quadratic", "he3", "linear",
                                  "expr:sin(x) + cos(2*x)", "expr:exp(x/2) - 1"])
def test_closed_form_derivative_is_the_derivative(name):
    act = get_activation(name)
    k, kp = closed_form(act), closed_form(act, derivative=True)
    (rho,) = k.free_symbols
    assert sympy.simplify(sympy.diff(k, rho) - kp) == 0


@settings(max_examples=10)
@given(correlations)
def test_polynomial_kernel_is_exact_series(rho):
    """quadratic: K(ρ) = 1 + 2ρ² = E[g₁² g₂²] (Isserlis), derived independently."""
    k = kernel("quadratic", rho, dps=20)
    with mpmath.workdps(30):
        assert abs(k.value - (1 + 2 * mpmath.mpf(rho) ** 2)) <= mpmath.mpf(10) ** -20


@pytest.mark.parametrize("rho", ["1", "-1"])
def test_degenerate_correlations(rho):
    quad = kernel("sigmoid", rho, dps=DPS, method="quadrature")
    series = kernel("sigmoid", rho, dps=DPS, method="series", terms=120)
    assert agree(quad, series)


@pytest.mark.parametrize("rho", [1.5, -1.01, float("nan"), "abc"])
def test_bad_rho_rejected(rho):
    with pytest.raises(InvalidParameterError, match="rho"):
        kernel("relu", rho)


def test_derivative_kernel_of_a_discontinuous_activation_is_rejected():
    with pytest.raises(InvalidParameterError, match="discontinuous"):
        kernel("expr:sign(x)", 0.3, derivative=True)


def _gaussian_exponential_kernel(a, rho):
    """K(ρ) of σ = exp(a x²): E[exp(a(g₁² + g₂²))] = det(I − 2aΣ)^(−1/2), Σ = [[1, ρ], [ρ, 1]]."""
    return ((1 - 2 * a * (1 + rho)) * (1 - 2 * a * (1 - rho))) ** -0.5


def test_fast_growing_activation_is_refused_not_truncated_silently():
    """σ = exp(x²/4.01) is in L², but σ(g₁)σ(g₂)φ₂ is 1e-24 where the 2-D quadrature stops: it
    used to run for minutes toward a truncated (wrong) K; now it is one error, at once, and the
    series method, whose tail bound is rigorous, gives the closed form (issue #38)."""
    from verify.model.kernels import KernelReachError

    act = get_activation("expr:exp(x**2/4.01)")
    with pytest.raises(KernelReachError, match="grows too fast"):
        kernel(act, 0.5)
    series = kernel(act, 0.5, method="series")
    # tolerance: the series' own rigorous bound plus float64 rounding of the reference
    assert abs(float(series.value) - _gaussian_exponential_kernel(1 / 4.01, 0.5)) <= 1e-13


@pytest.mark.extended
def test_moderately_growing_activation_keeps_its_quadrature():
    act = get_activation("expr:exp(x**2/8)")
    value = kernel(act, 0.95)
    assert value.method == "quadrature"
    # tolerance: float64 rounding of the closed-form reference (the quadrature's error is 1e-37)
    assert abs(float(value.value) - _gaussian_exponential_kernel(1 / 8, 0.95)) <= 1e-13
