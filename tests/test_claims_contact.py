"""The contact step (verify/claims/contact.py: two-variable inequalities attained along y = ±x) and
the vanishing-derivative rule's stand-ins: each part against an independent fact (the order of
contact by hand, the sign of the gap by mpmath at 30 digits), and each hypothesis broken once."""

from __future__ import annotations

import mpmath
import pytest
import sympy

from verify.claims import universal
from verify.claims.contact import _contact_order, along_a_line
from verify.claims.domains import inside_stand_in

a, b, x = (sympy.Symbol(name, real=True) for name in "abx")
HALF, ONE, TWO = sympy.Rational(1, 2), sympy.Integer(1), sympy.Integer(2)


class _Relation:
    """The three things along_a_line reads of a claim: its exact sides, operator and box."""

    def __init__(self, lhs, op, rhs, box, full=False):
        self.lhs, self.op, self.rhs, self.box, self.full = lhs, op, rhs, box, full

    def exact_sides(self):
        return self.lhs, self.rhs


@pytest.mark.parametrize("difference, line, order", [
    (sympy.log((a**2 + b**2) / 2) - sympy.log(a * b), a, 2),
    # cosh(d) − 1 − d²/2 with d = (b − a)/2 is d⁴/24 + …: contact of order 4
    ((sympy.exp(a) + sympy.exp(b)) / 2 - sympy.exp((a + b) / 2) * (1 + (a - b)**2 / 8), a, 4),
    ((a - b)**3 * sympy.exp(a), a, 3),
    (sympy.cosh(a + b) - 1 - (a + b)**2 / 2, -a, 4),
    (a**2 + b**2, a, None),  # not 0 on b = a
    # along the axis b = 0: (1 + s)^(-1/2) − 1 + s/2 = 3s²/8 − … with s = b²/a
    ((1 + b**2 / a) ** sympy.Rational(-1, 2) - 1 + b**2 / (2 * a), sympy.Integer(0), 4),
])
def test_the_order_of_contact_is_the_first_derivative_not_zero_on_the_line(difference, line, order):
    stand_in = sympy.Dummy("a", positive=True)
    assert _contact_order(difference, a, b, line, stand_in) == order


@pytest.mark.parametrize("lhs, op, rhs, box", [
    (sympy.log(a * b), "<=", sympy.log((a**2 + b**2) / 2), {a: (HALF, TWO), b: (HALF, TWO)}),
    (sympy.exp((a + b) / 2) * (1 + (a - b)**2 / 8), "<=", (sympy.exp(a) + sympy.exp(b)) / 2,
     {a: (-ONE, ONE), b: (-ONE, ONE)}),
    (sympy.cosh(a + b), ">=", 1 + (a + b)**2 / 2, {a: (-ONE, ONE), b: (-ONE, ONE)}),
    # order 3, the line meets the box at its corner (1, 1) only: t = b − a ≤ 0 on the whole box
    (sympy.log(a) - sympy.log(b), "<=", (a - b) / sympy.sqrt(a * b), {a: (ONE, TWO), b: (HALF, ONE)}),
    # an irrational end: the cover runs on the box rounded outward
    (sympy.log(a * b), "<=", sympy.log((a**2 + b**2) / 2), {a: (HALF, sympy.pi / 2), b: (HALF, TWO)}),
    # along the axis a = 0
    ((1 + a**2 / b) ** sympy.Rational(-1, 2), ">=", 1 - a**2 / (2 * b), {a: (-TWO, ONE), b: (ONE, 10 * ONE)}),
])
def test_an_inequality_attained_along_a_line_holds(lhs, op, rhs, box):
    decided = along_a_line(_Relation(lhs, op, rhs, box))
    assert decided is not None and decided.status == "holds"
    # the claim is true: mpmath at 30 digits on a grid that includes the line (an independent look)
    mpmath.mp.dps = 30
    f = sympy.lambdify((a, b), (lhs - rhs) if op == ">=" else (rhs - lhs), "mpmath")
    (a0, a1), (b0, b1) = ([mpmath.mpf(str(sympy.N(end, 40))) for end in box[v]] for v in (a, b))
    steps = [mpmath.mpf(i) / 8 for i in range(9)]
    for s in steps:
        for t in steps:
            value = f(a0 + (a1 - a0) * s, b0 + (b1 - b0) * t)
            assert value >= -mpmath.mpf(10) ** -25


@pytest.mark.parametrize("lhs, op, rhs, box", [
    # false near the line only: t²/8 − t²/7 < 0 next to a = b = 2
    (sympy.log(a * b), "<=", sympy.log((a**2 + b**2) / 2) - (a - b)**2 / 7, {a: (HALF, TWO), b: (HALF, TWO)}),
    # odd order across the line: (a − b)³ changes sign on a = b inside the box
    ((a - b)**3 * sympy.exp(a), ">=", sympy.Integer(0), {a: (HALF, ONE), b: (HALF, ONE)}),
    # a switch: |a − b| has no derivative on the line
    (sympy.Abs(a - b) ** 3, ">=", sympy.Integer(0), {a: (HALF, ONE), b: (HALF, ONE)}),
    # a strict relation is false on the line itself
    (sympy.log((a**2 + b**2) / 2), ">", sympy.log(a * b), {a: (HALF, TWO), b: (HALF, TWO)}),
    # the segments to the line leave the domain (sqrt at 0 on the corner): not differentiable there
    (sympy.sqrt(a * b), "<=", (a + b) / 2, {a: (sympy.Integer(0), ONE), b: (sympy.Integer(0), ONE)}),
])
def test_the_contact_step_proves_nothing_outside_its_hypotheses(lhs, op, rhs, box):
    decided = along_a_line(_Relation(lhs, op, rhs, box))
    assert decided is None or decided.status != "holds"


def test_the_inside_stand_in_runs_over_the_range_but_its_upper_end():
    w = sympy.Symbol("w", nonnegative=True)
    written = inside_stand_in(x, -HALF, TWO)
    (dummy,) = written.free_symbols
    assert dummy.is_nonnegative
    stand_in = written.xreplace({dummy: w})
    assert stand_in.xreplace({w: 0}) == -HALF
    assert sympy.limit(stand_in, w, sympy.oo) == TWO
    assert sympy.diff(stand_in, w).xreplace({w: 3}) > 0  # increasing: onto [−1/2, 2)


@pytest.mark.parametrize("difference, low, high, expected", [
    # derivative 2/(1 + x²) − 2(1 − x²)/((1 + x²)|1 − x²|): 0 on (−1, 1) only
    (2 * sympy.atan(x) - sympy.asin(2 * x / (1 + x**2)), -ONE, ONE, "holds"),
    (2 * sympy.atan(x) - sympy.asin(2 * x / (1 + x**2)), -HALF, TWO, None),
    # sqrt((1 − x)/(1 + x))(1 + x) = sqrt(1 − x²) once 1 + x > 0
    (sympy.acos(x) - 2 * sympy.atan(sympy.sqrt((1 - x) / (1 + x))), -HALF, ONE, "holds"),
    (sympy.acos(x) - 2 * sympy.atan(sympy.sqrt((1 - x) / (1 + x))) - sympy.Rational(1, 10**30), -HALF, ONE,
     "fails"),
])
def test_the_vanishing_derivative_reads_the_range_through_its_stand_ins(difference, low, high, expected):
    decided = universal._by_vanishing_derivative({x: (low, high)}, difference)
    assert (decided and decided.status) == expected


@pytest.mark.parametrize("difference, low, high, expected", [
    (sympy.Abs(sympy.cos(x)) - sympy.cos(x), -3 * HALF, 3 * HALF, "holds"),  # cos > 0 on the range
    (sympy.Abs(sympy.cos(x)) - sympy.cos(x), -3 * HALF, TWO, None),  # cos 2 < 0
    (sympy.Max(sympy.cos(x), -sympy.cos(x)) - sympy.Abs(sympy.cos(x)), ONE, 3 * ONE, "holds"),
    (sympy.sign(x) * x - sympy.Abs(x), -ONE, ONE, None),  # a jump function: not this rule's
])
def test_an_equality_whose_reduced_difference_switches_is_read_piece_by_piece(difference, low, high, expected):
    decided = universal._by_continuous_branches({x: (low, high)}, difference)
    assert (decided and decided.status) == expected
