"""Eg of a function of a quantified real variable (issue #48, item 3; verify/claims/parametric.py).

Truth of each statement, derived by hand: E[e^{-a g²}] = (1 + 2a)^{-1/2} (a > -1/2); E[cos(t g)]
= e^{-t²/2}; E[relu(a g)] = |a|/√(2π); E[relu(g + a)] = a Φ(a) + φ(a) ≥ max(a, 0); E[g² e^{-a g²}] =
(1 + 2a)^{-3/2}; E[tanh(g/2)²] ≈ 0.1735 > 1/8; E[e^{a g²}] = ∞ for a ≥ 1/2.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy

from verify.base.singular import singular_candidates
from verify.certified.errors import CertificationError
from verify.certified.growth import tail_majorant
from verify.claims import claim, parametric
from verify.claims.language import GAUSSIAN as g

A = sympy.Symbol("a", real=True)


@pytest.mark.parametrize(
    ("text", "ranges", "status"),
    [
        # closed form proved over the range, then decided as an expression in a
        ("Eg(exp(-a*g**2)) == 1/sqrt(1 + 2*a)", ["a in [0, 1]"], "holds"),
        ("Eg(cos(t*g)) == exp(-t**2/2)", ["t in [0, 10]"], "holds"),
        ("Eg(g**2*exp(-a*g**2)) <= 1/(1 + 2*a)", ["a in [0, 2]"], "holds"),
        ("Eg(exp(t*g)) >= 1", ["t in [-2, 3]"], "holds"),
        # relu's closed form differs on each side of 0: the range is split there
        ("Eg(sigma(a*g)) == Abs(a)/sqrt(2*pi)", ["a in [-1, 1]", "--activation relu"], "holds"),
        ("Eg(sigma(g + a)) >= a", ["a in [-1, 1]", "--activation relu"], "holds"),
        # barely false: refuted at a point of the range
        ("Eg(exp(-a*g**2)) == 1/sqrt(1 + 2*a) + 10**-9", ["a in [0, 1]"], "fails"),
        ("Eg(sigma(a*g)) == a/sqrt(2*pi)", ["a in [-1, 1]", "--activation relu"], "fails"),
        ("Eg(sigma(g + a)) >= a + 1/10", ["a in [-1, 1]", "--activation relu"], "fails"),
        # no closed form: decided at 5 points only, so never holds
        ("Eg(tanh(a*g)**2) <= a**2", ["a in [0, 2]"], "inconclusive"),
        ("Eg(tanh(a*g)**2) <= a**2/2", ["a in [0, 2]"], "fails"),
        # existence fails on part of the range: E[e^{g²/2}] = oo at a = 1/2
        ("Eg(exp(a*g**2)) == 1/sqrt(1 - 2*a)", ["a in [0, 1]"], "fails"),
        # a singular point that moves with a: not proved for every a, never holds
        ("Eg(Abs(g - a)**(-1/2)) >= 0", ["a in [0, 1]"], "inconclusive"),
        ("Eg(1/(g - a)) == 0", ["a in [1, 2]"], "fails"),
        # |g|^(-a): a power whose exponent's sign the walker cannot see is not integrable by default
        ("Eg(Abs(g)**(-a)) >= 0", ["a in [0, 1/2]"], "inconclusive"),
    ],
)
@pytest.mark.extended
def test_parametric_verdicts(text, ranges, status):
    options = {"for_": [r for r in ranges if not r.startswith("--")]}
    options |= dict(r.split()[:2] for r in ranges if r.startswith("--activation"))
    options = {key.removeprefix("--"): value for key, value in options.items()}
    outcome = claim(text, **options)
    assert outcome.verdict.value == status, outcome.evidence


@pytest.mark.parametrize(("text", "verdict"), [
    ("Eg(cos(t*g)) >= exp(-t**2/2) - 1/10", "holds"),  # E cos(t g) = e^{-t²/2}
    ("Eg(cos(t*g)) >= exp(-t**2/2) + 1/10", "fails"),
])
def test_a_range_with_an_irrational_end_is_decided(text, verdict):
    """``t in [0, pi]``: the certified tail bound took Rational(pi) (a TypeError traceback, exit 1);
    its ends are now enclosed outward by rationals, the grid keeps pi exact."""
    assert claim(text, for_=["t in [0, pi]"]).verdict.value == verdict


def test_inconclusive_names_the_points():
    outcome = claim("Eg(tanh(a*g)**2) <= a**2", for_=["a in [0, 2]"])
    assert "a = 1/2" in outcome.evidence and "not covered" in outcome.evidence


def test_uniform_existence_refuses_what_fails_somewhere():
    # e^{-a g²} with a down to -1/4 exists (a > -1/2) but no majorant of the tail form covers it:
    # not proved, never assumed
    assert parametric.uniform_existence(sympy.exp(-A * g**2), {A: (Fraction(-1, 4), 1)})
    assert not parametric.uniform_existence(sympy.exp(-A * g**2), {A: (0, 1)})
    # a coefficient infinite at a = 0
    assert "not finite" in parametric.uniform_existence(g / A, {A: (-1, 1)})
    # a singular point at g = a
    assert parametric.uniform_existence(1 / sympy.sqrt(sympy.Abs(g - A)), {A: (0, 1)})


def test_a_wrong_closed_form_is_caught(monkeypatch):
    # a closed form right for a > 0 and wrong at a = 0 (SymPy's generic-parameter failure mode)
    monkeypatch.setattr(parametric, "exact_expectation",
                        lambda body, parameters: 1 / sympy.sqrt(1 + 2 * next(iter(parameters))) + 0)
    value, why = parametric.closed_form(sympy.cos(A * g), {A: (0, 1)})
    assert value is None and "disagrees with certified quadrature" in why


def test_tail_majorant_over_a_parameter_range():
    a = sympy.Dummy("a", nonnegative=True)
    # the ball of a over [0, 1] reaches -1e-9; a's sign clamps that, so -a g² <= 0 and e^{-a g²} <= 1
    assert tail_majorant(sympy.exp(-a * g**2), g, 1, 1, {a: (Fraction(0), Fraction(1))}).describe() == "1"
    assert tail_majorant(sympy.Max(0, a * g), g, -1, 1, {a: (Fraction(0), Fraction(1))}).describe() == "1*|x|^1"
    b = sympy.Dummy("b", real=True)
    with pytest.raises(CertificationError):
        tail_majorant(sympy.exp(b * g**2), g, 1, 1, {b: (Fraction(-1), Fraction(1))})


def test_a_power_of_unknown_sign_has_unknown_singular_points():
    a = sympy.Symbol("a", real=True)
    assert singular_candidates(sympy.Abs(g) ** (-a), g) is None
    assert singular_candidates(sympy.Abs(g) ** sympy.Dummy("p", nonnegative=True), g) == (set(), True)
    assert singular_candidates(1 / (1 + sympy.Dummy("q", nonnegative=True) * g**2), g) == (set(), True)


@pytest.mark.parametrize("expr", [
    sympy.Max(0, g), sympy.Max(g, -g), sympy.Min(g, 2), sympy.Min(-g, 3 * g, 1), sympy.Max(2 * g - 5, -g / 2, 1),
    sympy.Max(sympy.sin(g), g / 3), sympy.Min(sympy.exp(g), 4), sympy.exp(sympy.Max(-g, g / 2)),
    sympy.exp(-sympy.Min(g, 2 * g)), sympy.Max(0, g) ** 2 - sympy.Min(0, g),
    # the other rules of verify.certified.growth, through the same check
    sympy.cosh(g / 2), sympy.cosh(g) - 1, sympy.sinh(g / 3), g * sympy.sin(g),
    sympy.erf(g) - 1, 3 * sympy.erf(g / 2), sympy.atan(g) * g, sympy.exp(sympy.cosh(sympy.Rational(1, 2))) * g,
    sympy.asinh(g) ** 2, sympy.tanh(g) + sympy.erfc(g), sympy.log(1 + g**2), sympy.sqrt(1 + g**2),
    # cosh of a bounded argument whose upper and lower lines differ (mutants read the wrong one)
    sympy.cosh(sympy.sin(g) + 3), sympy.cosh(sympy.sin(g) - 3),
])
@pytest.mark.parametrize("side", [1, -1])
def test_max_min_envelopes_bound_the_function(expr, side):
    """The growth rule for Max and Min (verify.certified.growth: |max| <= sum |f_i|, max(a_i + b_i t)
    <= max a + (max b) t, max >= any one lower bound, and the mirror for min) checked against the
    function itself on the tail t in [1, 60]: each bound it proves must hold there."""
    from fractions import Fraction

    from verify.certified.growth import _Rules

    envelope = _Rules(g, side, 1, {}).envelope(expr)
    assert envelope.majorant is not None
    for t in [Fraction(n, 4) for n in range(4, 241, 3)]:
        value = float(expr.subs(g, side * t))
        bound = sum(float(c) * float(t) ** n * math.exp(float(b) * float(t))
                    for (n, b), c in envelope.majorant.terms.items())
        assert abs(value) <= bound * (1 + 1e-12) + 1e-12, (t, value, bound)
        if envelope.upper is not None:
            assert value <= float(envelope.upper[0] + envelope.upper[1] * t) + 1e-12, (t, "upper")
        if envelope.lower is not None:
            assert value >= float(envelope.lower[0] + envelope.lower[1] * t) - 1e-12, (t, "lower")


def test_max_min_envelopes_are_not_trivial():
    """The bounds are tight enough to decide: relu's tail is linear, min(g, 2) is at most 2 on the
    right and e^{max(-g, g/2)} grows like e^{t/2} on the right, e^t on the left."""
    from verify.certified.growth import _Rules

    right, left = (_Rules(g, s, 1, {}) for s in (1, -1))
    assert right.envelope(sympy.Max(0, g)).majorant.describe() == "1*|x|^1"
    assert right.envelope(sympy.Min(g, 2)).upper == (2, 0)
    assert left.envelope(sympy.Max(0, g)).lower == (0, 0)
    assert right.envelope(sympy.exp(sympy.Max(-g, g / 2))).majorant.describe() == "1*exp(0.5|x|)"
    assert left.envelope(sympy.exp(sympy.Max(-g, g / 2))).majorant.describe() == "1*exp(1|x|)"
