"""Existence before value: Eg(f) is defined only where E|f(g)| < oo (issue 37, item 3).

SymPy integrates 1/g against the Gaussian density to its principal value 0, so before the
existence step ``Eg(1/g) == 0``, ``>= 0`` and ``<= 0`` all *held (exact)*.  Each statement below
has its truth derived by hand (the order of the singularity, the Gaussian tail)."""

from __future__ import annotations

import pytest
import sympy

from verify.base.expressions import _real_power_modulus
from verify.base.singular import rational_nonnegative
from verify.claims import claim
from verify.claims.existence import DIVERGES, EXISTS, UNKNOWN, existence
from verify.claims.gaussian_rules import _split_rational_logs
from verify.claims.language import GAUSSIAN as g


@pytest.mark.parametrize("text", ["Eg(1/g) == 0", "Eg(1/g) >= 0", "Eg(1/g) <= 0", "Eg(1/g**2) >= 0",
                                  "Eg(1/Abs(g)) >= 1", "Eg(g/Abs(g)**3) == 0", "Eg(exp(g**2)) >= 1",
                                  "Eg(exp(g**2/2)/(1 + g)) >= 0"])
def test_a_claim_about_an_expectation_that_does_not_exist_fails(text):
    outcome = claim(text)
    assert outcome.verdict.value == "fails", outcome.evidence
    assert outcome.numbers["decided_by"] == "existence"
    assert "does not exist" in outcome.evidence


def test_an_activation_can_make_the_expectation_diverge():
    # tanh(g)/g**2 ~ 1/|g| at 0 (tanh(g) ~ g): E diverges; relu(g)/g**2 = 1/g on g > 0 likewise
    for act in ("tanh", "relu"):
        outcome = claim("Eg(sigma(g)/g**2) >= 0", activation=act)
        assert outcome.verdict.value == "fails", (act, outcome.evidence)


@pytest.mark.parametrize("body, status", [
    (1 / sympy.sqrt(sympy.Abs(g)), EXISTS),        # order -1/2 at 0
    (sympy.exp(g**2 / 4), EXISTS),                 # e^{-g^2/4} left
    (sympy.log(sympy.Abs(g)), EXISTS),             # log is integrable
    (sympy.sin(g) / g, EXISTS),                    # removable
    (sympy.exp(g**2 / 2) / (1 + g**2), EXISTS),    # 1/(1+g^2) against Lebesgue measure
    (sympy.exp(g**2 / 2), DIVERGES),
    (1 / (g - 1), DIVERGES),
    (1 / (g * sympy.log(sympy.Abs(g))**2), DIVERGES),  # order -2 at g = +-1
    # infinitely many singular points: one non-integrable point is enough to diverge
    (1 / sympy.cos(g), DIVERGES),                  # simple poles at pi/2 + n pi
    (g / sympy.sin(g), DIVERGES),                  # removable at 0, simple poles at n pi, n != 0
    (1 / sympy.sqrt(sympy.Abs(sympy.cos(g))), UNKNOWN),  # every point integrable, but infinitely many
    (1 / (2 + sympy.cos(g)), EXISTS),              # no real singular point
    # order -1 times a slowly varying factor: t = e^-u turns it into an integrand in u
    (1 / (sympy.Abs(g) * (1 + sympy.log(sympy.Abs(g))**2)), EXISTS),      # 1/(1 + u^2)
    (1 / (sympy.Abs(g) * (1 + sympy.Abs(sympy.log(sympy.Abs(g))))), DIVERGES),  # 1/(1 + u)
    (1 / (sympy.Abs(g) * sympy.Abs(sympy.log(sympy.Abs(g)))**3), DIVERGES),  # order -3 at g = +-1
    # a power decay below 1/|g| against the Lebesgue measure, without a majorant of the tail form
    (sympy.exp(g**2 / 2) / (1 + sympy.Abs(g))**(1 + sympy.Rational(1, 10**6)), EXISTS),
    (sympy.exp(g**2 / 2) / (1 + sympy.Abs(g))**(1 - sympy.Rational(1, 10**6)), DIVERGES),
])
def test_existence_classifies_integrands(body, status):
    assert existence(body).status == status


def test_an_expectation_that_exists_is_still_decided():
    # E[g^2/|g|] = E|g| = sqrt(2/pi): the singular-looking integrand is integrable
    outcome = claim("Eg(g**2/Abs(g)) == sqrt(2/pi)")
    assert outcome.verdict.value == "holds", outcome.evidence


@pytest.mark.parametrize("argument, expected", [
    ("g**(1/3)", "Abs(g)**(1/3)"),
    ("-2*(g - 1)**(1/3)*g", "2*Abs(g)*Abs(g - 1)**(1/3)"),
    ("g**(-3/2)", "Abs(g)**(-3/2)"),
    ("exp(I*g)**(1/2)", None),  # a complex base keeps its Abs
])
def test_the_modulus_of_a_real_power_is_the_power_of_the_modulus(argument, expected):
    """|b^p| = |b|^p for a real base and a real exponent (principal branch), so the language
    writes the visibly real form and the existence step can decide Eg(Abs(g**(1/3)))."""
    value = _real_power_modulus(sympy.sympify(argument, locals={"g": g}))
    if expected is None:
        assert isinstance(value, sympy.Abs)
    else:
        assert value == sympy.sympify(expected, locals={"g": g})


@pytest.mark.parametrize("base, proved", [
    ((1 + g + g**2) / (1 - g + g**2), True),   # no real root above or below
    (g**2 / (1 + g**2), True),                  # a root of even multiplicity
    (1 / (g**2 - 1)**2, True),                  # poles of even multiplicity
    (g * (g - 1)**2 * g, True),
    (g**3, False), (-(1 + g**2), False),        # a sign change; negative everywhere
    (sympy.sqrt(2) * g**2, False),              # not rational coefficients: not proved (not refuted)
    (sympy.exp(g), False),                      # not a rational function
])
def test_a_rational_function_is_proved_nonnegative_by_its_roots(base, proved):
    assert rational_nonnegative(base, g) is proved


def test_the_logs_of_a_nonnegative_rational_function_split_over_its_factors():
    """log(N/D) = log|N| - log|D| where N/D >= 0, and the factorization is canonical, so the parity
    rule cancels log r(g) + log r(-g); the moduli are kept (log (g-1)^2 = 2 log|g - 1|)."""
    assert _split_rational_logs(sympy.log((g - 1)**2 / (4 * (g + 1)**2))) == \
        2 * sympy.log(sympy.Abs(g - 1)) - 2 * sympy.log(sympy.Abs(g + 1)) - sympy.log(4)
    f = sympy.log((1 + g + g**2) / (1 - g + g**2))
    assert sympy.expand(_split_rational_logs(f + f.xreplace({g: -g}))) == 0
    assert _split_rational_logs(sympy.log(g**3 + 2)) == sympy.log(g**3 + 2)  # a sign change: kept


def test_an_integrand_sympy_cannot_integrate_is_decided_without_a_traceback():
    # SymPy's heurisch raised PolynomialError on this integrand (a traceback with exit 1)
    assert claim("Eg(log((1+g+g**2)/(1-g+g**2))) == 0").verdict.value == "holds"
