"""The branches step (verify/claims/branches.py) and the symbolic step's vanishing-derivative rule:
their parts, each against an independent value (mpmath at 30 digits, or the definition)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy

from verify.certified.pieces import free_switches, resolve
from verify.claims import universal
from verify.claims.branches import unsquared
from verify.model.activations import folded_argument

x = sympy.Symbol("x", real=True)
g = sympy.Symbol("g", real=True)
i = sympy.Symbol("i", integer=True)


@pytest.mark.parametrize("fold, reference", [
    (sympy.acos(sympy.cos(x)), lambda t: mpmath.acos(mpmath.cos(t))),
    (sympy.asin(sympy.sin(x)), lambda t: mpmath.asin(mpmath.sin(t))),
    (sympy.acos(sympy.cos(3 * x - 1)), lambda t: mpmath.acos(mpmath.cos(3 * t - 1))),
    (sympy.asin(sympy.sin(x**2)), lambda t: mpmath.asin(mpmath.sin(t**2))),
])
def test_a_fold_resolves_to_its_linear_branch(fold, reference):
    """acos(cos u) and asin(sin u) are piecewise linear in u: the branch read at a point of a piece
    is the function there (tolerance 1e-25: the branch is exact, mpmath runs at 30 digits)."""
    mpmath.mp.dps = 30
    for sample in (Fraction(2, 7), Fraction(-7, 4), Fraction(5, 2), Fraction(-9, 1), Fraction(31, 3)):
        branch = resolve(fold, x, sample)
        assert not branch.has(sympy.acos, sympy.asin)
        value = branch.xreplace({x: sympy.Rational(sample.numerator, sample.denominator)})
        assert abs(sympy.N(value, 30) - reference(mpmath.mpf(sample.numerator) / sample.denominator)) < 1e-25


def test_only_an_inverse_of_its_own_function_is_a_fold():
    assert folded_argument(sympy.acos(sympy.cos(x))) == x / sympy.pi
    assert folded_argument(sympy.asin(sympy.sin(x))) == x / sympy.pi + sympy.Rational(1, 2)
    assert folded_argument(sympy.acos(sympy.sin(x))) is None
    assert folded_argument(sympy.acos(x / 2)) is None


@pytest.mark.parametrize("written, expected", [
    (sympy.sqrt(x**2 - 2 * x + 1), sympy.Abs(x - 1)),
    (sympy.sqrt(4 * x**2 - 4 * x + 1), sympy.Abs(2 * x - 1)),
    (sympy.sqrt(2 * x**4), sympy.sqrt(2) * x**2),
    (sympy.sqrt(x**2 + 1), sympy.sqrt(x**2 + 1)),  # not a square
    (sympy.sqrt(-x**2 + 4), sympy.sqrt(4 - x**2)),  # not c·q² with c > 0
    (sympy.sqrt(x**3), sympy.sqrt(x**3)),  # an odd multiplicity
])
def test_a_square_root_of_a_square_is_an_absolute_value(written, expected):
    assert sympy.simplify(unsquared(written, x) - expected) == 0
    for t in (-3, sympy.Rational(1, 2), 2):  # the rewrite is an identity at every real point
        if (written.base if written.is_Pow else written).xreplace({x: t}) >= 0:
            assert sympy.simplify(unsquared(written, x).xreplace({x: t}) - written.xreplace({x: t})) == 0


def test_switches_of_an_expectations_g_or_a_sums_index_are_not_the_variables():
    """Only a switch in the claim's variable alone is cut at: sign(g - x) inside Eg varies with g,
    Abs(x - i) inside a Sum with its index."""
    eg = sympy.Function("Eg")(sympy.sign(g - x))
    total = sympy.Sum(sympy.Abs(x - i), (i, 1, 3))
    assert free_switches(sympy.Tuple(eg, total), x) == []
    assert free_switches(sympy.Tuple(eg * sympy.Abs(x), total), x) == [sympy.Abs(x)]


@pytest.mark.parametrize("difference, low, high, expected", [
    (sympy.atan(x) + sympy.atan(1 / x) - sympy.pi / 2, sympy.Rational(1, 2), sympy.Integer(2), "holds"),
    (sympy.atan(x) + sympy.atan(1 / x) - sympy.pi / 2, sympy.Integer(-2), sympy.Rational(-1, 2), "fails"),
    (sympy.asin(x) + sympy.acos(x) - sympy.pi / 2 - sympy.Rational(1, 10**40), sympy.Integer(-1),
     sympy.Integer(1), "fails"),
    # a jump function: its derivative is 0 off the jump, which says nothing about the jump
    (sympy.sign(x) - 1, sympy.Integer(-1), sympy.Integer(1), None),
    (sympy.floor(x), sympy.Integer(0), sympy.Integer(2), None),
    # a derivative that is not 0
    (sympy.atan(x) - x, sympy.Integer(0), sympy.Integer(1), None),
])
def test_a_vanishing_derivative_decides_an_equality_by_one_point(difference, low, high, expected):
    decided = universal._by_vanishing_derivative({x: (low, high)}, difference)
    assert (decided and decided.status) == expected
    if expected == "fails":
        (point,) = decided.point.values()
        assert low <= point <= high


@pytest.mark.parametrize("integral, value", [
    ("Integral(Abs(t - 1/3), t, 0, 1)", "5/18"),
    ("Integral(floor(3*t), t, 0, 1)", "1"),
    ("Integral(sign(t - 1/2)*t, t, 0, 1)", "1/4"),
    ("Integral(acos(cos(t)), t, 0, 4)", "-pi**2 + 8*pi - 8"),
])
def test_an_integrand_that_switches_is_integrated_piece_by_piece(integral, value):
    """Exact by pieces between the switch points, and no float or ball NaN across a kink: the value
    (by hand; acos(cos t) is t on [0, π] and 2π − t on [π, 4]) holds, 10^-30 off fails, and the
    sides shown beside a fail agree with mpmath's quadrature split at the same points."""
    from verify.claims import claim

    assert claim(f"{integral} == {value}").verdict.value == "holds"
    off = claim(f"{integral} == {value} + 10**-30")
    assert off.verdict.value == "fails"
    t = mpmath.mpf
    reference = {"5/18": t(5) / 18, "1": t(1), "1/4": t(1) / 4,
                 "-pi**2 + 8*pi - 8": -mpmath.pi**2 + 8 * mpmath.pi - 8}[value]
    # the shown lhs is a double (the ball's midpoint, or quad's): 1e-9 is far above either's error
    assert abs(off.counterexample["lhs"] - float(reference)) < 1e-9


def test_an_argument_is_kept_in_the_unit_interval_by_interval_arithmetic():
    """acos/asin are defined (and finite, for existence) where SymPy's AccumBounds keep the argument
    in [-1, 1] over the ranges; anything it cannot bound is not proved."""
    from verify.base.singular import within_unit

    two = {x: (-2, 2)}
    assert within_unit(sympy.cos(x**2 - 1), two)
    assert within_unit(x / 2, two)
    assert within_unit(sympy.cos(g) / 2 + sympy.Rational(1, 2), {g: (-sympy.oo, sympy.oo)})
    assert not within_unit(x, two)
    assert not within_unit(sympy.cos(x) + sympy.Rational(1, 100), two)  # 1.01 at x = 0
    assert not within_unit(x * g, two)  # g has no range here


@pytest.mark.parametrize("body, even", [
    (sympy.Heaviside(sympy.sin(g)), sympy.Rational(1, 2)),
    (sympy.floor(g), sympy.Rational(-1, 2)),
    (sympy.floor(sympy.sin(g)), sympy.Rational(-1, 2)),
    (sympy.sign(sympy.cos(g)) ** 2, sympy.Integer(1)),
    (sympy.exp(-sympy.Heaviside(sympy.sin(g))), (1 + sympy.exp(-1)) / 2),
    (sympy.Heaviside(sympy.sin(g)) * sympy.exp(-g**2), sympy.exp(-g**2) / 2),
    # not null level sets, or no constant even part: no value
    (sympy.Heaviside(sympy.sin(g)**2 + sympy.cos(g)**2 - 1), None),
    (sympy.Heaviside(g**2 - 1), None),
    (sympy.floor(g) ** 2, None),
    (sympy.Heaviside(sympy.Max(g, 0)), None),
])
def test_the_even_part_of_a_body_with_jumps_almost_everywhere(body, even):
    """E[f] = E[(f(g) + f(-g))/2], with Heaviside(-u) = 1 - Heaviside(u) and floor(-u) = -floor(u) - 1
    off the null set where u is 0 or an integer (checked against the definition at sample points
    where it is claimed)."""
    from verify.claims.almost_everywhere import even_part

    found = even_part(body)
    if even is None:
        assert found is None
        return
    assert sympy.simplify(found - even) == 0
    for t in (sympy.Rational(1, 3), sympy.Rational(-7, 5), sympy.Rational(13, 4)):  # off the null sets
        doubled = (body + body.xreplace({g: -g})).xreplace({g: t})
        assert abs(sympy.N(doubled - 2 * even.xreplace({g: t}), 30)) < 1e-25


def test_a_long_finite_sum_is_read_from_its_closed_form():
    from verify.claims.evaluate import finite_closed_form

    assert finite_closed_form(sympy.Sum(i, (i, 1, 1094))) == 1094 * 1095 // 2
    assert finite_closed_form(sympy.Sum(i**2, (i, 1, 5000))) == 5000 * 5001 * 10001 // 6
    assert finite_closed_form(sympy.Sum(sympy.sin(i), (i, 1, 5000))) is None  # no closed form: refused


def test_an_inequality_the_root_isolation_and_the_sign_rules_both_leave_is_undecided_not_none():
    """The calibration run of this change found 19 errors (AttributeError on None): a one-variable
    inequality that neither the exact root isolation nor the sign rules decide must come back as
    an undecided Decision, for the next steps to try."""
    difference = (x - sympy.sqrt(2) / 2) ** 2
    box = {x: (sympy.Integer(0), sympy.Integer(1))}
    decided = universal.symbolic_decision(box, difference, 0, ">", difference)
    assert decided is not None and decided.status in ("undecided", "fails")
