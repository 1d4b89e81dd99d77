"""Hermite coefficients: quadrature against exact values, Parseval, diagnostics, cache."""

from __future__ import annotations

import mpmath
import pytest
import sympy
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.strategies import kinked_expressions, polynomial_expressions
from verify.base.errors import InvalidParameterError
from verify.model import hermite
from verify.model.activations import get_activation
from verify.model.diagnostics import decay_fit, information_exponent, parseval_check
from verify.model.hermite import hermite_coefficients

EXACT_ACTIVATIONS = ["relu", "abs", "erf", "he3", "quadratic"]
TERMS = 40


@pytest.mark.extended
@pytest.mark.parametrize("dps", [30, 60])
@pytest.mark.parametrize("name", EXACT_ACTIVATIONS)
def test_quadrature_matches_exact_values(name, dps):
    """Quadrature agrees with the closed forms to 10^-(D-5) for p < 40 (the issue's bar).

    The quadrature's own error estimates must also cover the true error:
    an estimate that is too small would certify wrong digits.
    """
    exact = hermite_coefficients(name, TERMS, dps, method="exact", use_cache=False)
    quad = hermite_coefficients(name, TERMS, dps, method="quadrature", use_cache=False)
    with mpmath.workdps(dps + 20):
        for p, (e, q, err) in enumerate(zip(exact.values, quad.values, quad.errors, strict=True)):
            assert abs(e - q) <= mpmath.mpf(10) ** (-(dps - 5)), (name, p)
            assert abs(e - q) <= err + mpmath.mpf(10) ** (-(dps + 10)), (name, p, "estimate")


def test_relu_matches_the_formula_quoted_in_the_issue():
    """The claim (typed in): μ_0 = 1/√(2π), μ_1 = 1/2, odd p ≥ 3 zero,
    even p ≥ 2: (−1)^{p/2−1}(p−3)!!/√(2π p!).  The reference is the derivation."""
    derived = hermite_coefficients("relu", 30, 30, method="exact", use_cache=False).exact
    pi = sympy.pi
    for p, value in enumerate(derived):
        if p == 0:
            claim = 1 / sympy.sqrt(2 * pi)
        elif p == 1:
            claim = sympy.Rational(1, 2)
        elif p % 2:
            claim = sympy.Integer(0)
        else:
            claim = (-1) ** (p // 2 - 1) * sympy.factorial2(p - 3) / sympy.sqrt(
                2 * pi * sympy.factorial(p))
        assert sympy.simplify(value - claim) == 0, p


def test_abs_is_twice_relu_minus_linear():
    relu = hermite_coefficients("relu", 20, 30, method="exact", use_cache=False).exact
    ab = hermite_coefficients("abs", 20, 30, method="exact", use_cache=False).exact
    for p in range(20):
        assert sympy.simplify(ab[p] - 2 * relu[p] + (1 if p == 1 else 0)) == 0


@pytest.mark.extended
@settings(max_examples=12)
@given(st.one_of(polynomial_expressions, kinked_expressions))
@example("expr:(0)*x**0")  # found by Hypothesis: the zero polynomial has degree −∞
def test_expression_activations_exact_vs_quadrature(name):
    """Exact projections of polynomial and kinked ``expr:`` activations match quadrature.

    Tolerance 1e-15 at 20 digits: both are good to ~1e-20, the margin absorbs
    coefficients of size up to ~1e3 from degree-5 polynomials.
    """
    exact = hermite_coefficients(name, 10, 20, method="exact", use_cache=False)
    quad = hermite_coefficients(name, 10, 20, method="quadrature", use_cache=False)
    for e, q in zip(exact.values, quad.values, strict=True):
        assert abs(e - q) <= mpmath.mpf(10) ** -15


@pytest.mark.parametrize("name", ["relu", "abs", "erf", "sigmoid", "tanh", "softplus", "gelu",
                                  "he3"])
def test_parseval_within_the_tail_bound(name):
    """0 ≤ E[σ²] − Σ_{p<N} μ_p² ≤ (E[σ'²] − Σ_{p<N} p μ_p²)/N, all quadrature-independent."""
    act = get_activation(name)
    coeffs = hermite_coefficients(act, 40, 25, use_cache=False)
    check = parseval_check(act, coeffs)
    assert check.holds, check


def test_kernel_at_one_is_second_moment():
    from verify.model.kernels import kernel

    for name in ["relu", "erf", "sigmoid"]:
        act = get_activation(name)
        check = parseval_check(act, hermite_coefficients(act, 5, 20, use_cache=False))
        k = kernel(name, 1, dps=20)
        assert abs(k.value - check.second_moment) <= mpmath.mpf(10) ** -18


@pytest.mark.parametrize("name, expected", [("relu", 1), ("abs", 2), ("quadratic", 2),
                                            ("he3", 3), ("he8", 8), ("sigmoid", 1),
                                            ("expr:x**4 - 6*x**2", 4), ("expr:x**4 - 5*x**2", 2)])
def test_information_exponent(name, expected):
    coeffs = hermite_coefficients(name, 12, 20, use_cache=False)
    assert information_exponent(coeffs) == expected


def test_information_exponent_from_quadrature_ignores_roundoff():
    coeffs = hermite_coefficients("he4", 12, 20, method="quadrature", use_cache=False)
    assert information_exponent(coeffs) == 4


@pytest.mark.extended
def test_relu_decay_exponent_is_one_quarter():
    """|μ_p(relu)| ~ p^{-5/4}, so the fitted ρ tends to 1/4 (Assumption 6.2 holds)."""
    fit = decay_fit(hermite_coefficients("relu", 200, 20, use_cache=False))
    assert abs(fit.rho - 0.25) < 0.03
    assert fit.satisfies_assumption_6


def test_smooth_activation_decays_faster_than_any_small_power():
    fit = decay_fit(hermite_coefficients("sigmoid", 60, 25, use_cache=False))
    assert fit.rho > 2


@pytest.mark.parametrize("terms", [0, -3, 2.5, "7", True])
def test_bad_terms_rejected(terms):
    with pytest.raises(InvalidParameterError, match="terms"):
        hermite_coefficients("relu", terms)


@pytest.mark.parametrize("dps", [14, 0, 20.5])
def test_bad_precision_rejected(dps):
    with pytest.raises(InvalidParameterError, match="dps"):
        hermite_coefficients("relu", 5, dps)


def test_precision_is_scoped():
    before = mpmath.mp.dps
    hermite_coefficients("sigmoid", 10, 40, use_cache=False)
    assert mpmath.mp.dps == before


def test_second_call_is_served_from_the_cache(monkeypatch):
    first = hermite_coefficients("tanh", 15, 25)

    def fail(*args, **kwargs):
        raise AssertionError("recomputed despite the cache")

    monkeypatch.setattr(hermite, "quadrature_coefficients", fail)
    second = hermite_coefficients("tanh", 15, 25)
    # The cache stores dps + 15 significant digits.
    for a, b in zip(first.values, second.values, strict=True):
        assert abs(a - b) <= mpmath.mpf(10) ** -38 * max(1, abs(a))


def test_cache_dir_override(tmp_path, monkeypatch):
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path))
    hermite_coefficients("softplus", 5, 20)
    assert list(tmp_path.rglob("*.json"))


def test_corrupt_cache_entry_is_a_miss(tmp_path, monkeypatch):
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path))
    first = hermite_coefficients("softplus", 5, 20)
    for f in tmp_path.rglob("*.json"):
        f.write_text("{not json")
    again = hermite_coefficients("softplus", 5, 20)
    assert [float(v) for v in again.values] == [float(v) for v in first.values]
