"""The exact sign analysis of a rational function of one variable (verify/claims/signs.py).

Every function here is built from its factors, so its real roots and poles are known exactly by
construction: rational roots with multiplicities, a pair a ± √q, a factor with no real root, and a
constant that is a rational or a product of powers of π and √2.  The reference truth of
``f op 0`` on [low, high] is then the relation at the interval's ends, at every root inside it
and at the midpoints between consecutive such points (between two of them f keeps its sign), each
evaluated exactly factor by factor: no root isolation and no rounding, so it does not share the
code under test.  With a pole inside the interval the step must not say *holds*.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.claims.signs import holds, one_variable, symbolic_sign

x = sympy.Symbol("x", real=True)
OPS = ("==", "<=", ">=", "<", ">")
Q = sympy.Rational


@dataclass
class Built:
    constant: sympy.Expr
    zeros: list  # (exact root, multiplicity) of the numerator, distinct roots
    poles: list  # distinct exact poles
    positive: list  # factors with no real root (always > 0)

    def expression(self, expanded: bool) -> sympy.Expr:
        numerator = sympy.Mul(*[(x - r) ** m for r, m in self.zeros], *self.positive)
        denominator = sympy.Mul(*[x - p for p in self.poles])
        if expanded:
            numerator, denominator = sympy.expand(numerator), sympy.expand(denominator)
        return self.constant * numerator / denominator

    def sign_at(self, t) -> int:
        """The sign of f(t), one exact factor at a time (t not a pole)."""
        sign = int(sympy.sign(self.constant))
        for r, m in self.zeros:
            sign *= int(sympy.sign(sympy.nsimplify(t - r) if t.is_Rational and r.is_Rational else t - r)) ** m
        for p in self.poles:
            sign *= int(sympy.sign(t - p))
        return sign

    def truth(self, op: str, low, high) -> bool:
        points = {low, high} | {r for r, _ in self.zeros if low <= r <= high}
        ordered = sorted(points, key=lambda v: sympy.N(v, 50))
        points |= {(u + v) / 2 for u, v in zip(ordered, ordered[1:], strict=False)}
        return all(holds(op, self.sign_at(t)) for t in points)


fractions = st.builds(Q, st.integers(-24, 24), st.sampled_from([1, 2, 3, 4, 8]))
constants = st.one_of(
    st.builds(Q, st.integers(-5, 5).filter(bool), st.integers(1, 7)),
    st.builds(lambda s, k, n: s * sympy.pi ** k * sympy.sqrt(2) ** n,
              st.sampled_from([-1, 1, Q(3, 2), Q(-2, 7)]), st.integers(-2, 2), st.integers(0, 1)),
)


@st.composite
def built(draw) -> Built:
    roots = draw(st.lists(fractions, max_size=4, unique=True))
    zeros = [(r, draw(st.integers(1, 3))) for r in roots]
    if draw(st.booleans()):  # a pair of conjugate irrational roots a ± √q
        a, q = draw(fractions), draw(st.sampled_from([2, 3, Q(1, 2), 5]))
        zeros += [(a - sympy.sqrt(q), 1), (a + sympy.sqrt(q), 1)]
    positive = []
    if draw(st.booleans()):  # a factor with no real root
        positive = [(x - draw(fractions)) ** 2 + draw(st.sampled_from([Q(1, 9), 1, 3]))]
    poles = draw(st.lists(fractions.filter(lambda p: p not in roots), max_size=2, unique=True))
    return Built(draw(constants), zeros, poles, positive)


@settings(max_examples=120)
@given(built(), st.sampled_from(OPS), fractions, fractions, st.booleans())
def test_the_sign_analysis_agrees_with_the_factors(f, op, a, b, expanded):
    low, high = min(a, b), max(a, b)
    expression = f.expression(expanded)
    if not expression.free_symbols:
        return
    decision = one_variable(expression, op, {x: (low, high)})
    if any(low <= p <= high for p in f.poles):
        # never holds; it may still fail at a point where f is defined (a root, for < or >)
        assert decision.status != "holds", decision.detail
    else:
        assert decision.status == ("holds" if f.truth(op, low, high) else "fails"), decision.detail
    if decision.status == "fails":
        t = decision.point[x]
        assert low <= t <= high and t not in f.poles and not holds(op, f.sign_at(t))


@pytest.mark.parametrize("expression, op, interval, status", [
    # isolating intervals that touch at a root (the docstring's case): the piece (0, 0.111) > 0
    (x**2 * (19 - 162 * x - 81 * x**2), "<=", (0, 1), "fails"),
    (x**2 * (19 - 162 * x - 81 * x**2), ">=", (Q(1, 2), 1), "fails"),
    (-x**2 * (19 - 162 * x - 81 * x**2), ">=", (Q(1, 9), 1), "holds"),
    # a double root inside: >= holds, > fails at the root itself, found exactly
    ((x - Q(1, 3)) ** 2, ">=", (0, 1), "holds"),
    ((x - Q(1, 3)) ** 2, ">", (0, 1), "fails"),
    ((x - Q(1, 3)) ** 2, ">", (Q(1, 2), 1), "holds"),
    # an irrational root at distance < 10^-7 of the interval's end, both sides of it
    (x**2 - 2, "<", (0, Q(14142135, 10**7)), "holds"),
    (x**2 - 2, "<", (0, Q(14142136, 10**7)), "fails"),
    (x**2 - 2, "<=", (0, Q(14142136, 10**7)), "fails"),
    # two roots closer than 10^-9: the negative piece between them is found
    ((x - Q(1, 3)) * (x - Q(1, 3) - Q(1, 10**9)), ">=", (0, 1), "fails"),
    # a pole at an end or inside leaves it undecided; just outside it is decided
    (1 / x - 1, ">=", (0, 1), "undecided"),
    (1 / (x - 1), "<", (0, 1), "undecided"),
    (1 / (x - 1), "<", (0, Q(99, 100)), "holds"),
    (1 / (x - Q(1, 2)), "==", (0, 0), "fails"),  # SymPy's first isolating interval of 1/2 is [0, 1]
    (1 / (x**2 - 2), "<", (0, Q(14142135, 10**7)), "holds"),  # a pole 10^-7 past the end
    (1 / (x**2 - 2), "<", (0, Q(14142136, 10**7)), "undecided"),
    # a constant whose sign follows from its factors, either sign
    (-sympy.pi * (x**2 + 1), "<=", (-1, 1), "holds"),
    (-sympy.pi * (x**2 + 1), ">=", (-1, 1), "fails"),
    (sympy.sqrt(2) / sympy.pi * (x - Q(1, 2)), ">=", (Q(1, 2), 1), "holds"),
    (sympy.sqrt(2) / sympy.pi * (x - Q(1, 2)), ">", (Q(1, 2), 1), "fails"),
    # a sum with irrational coefficients is not c * r: its constant term must not be split off
    # (as_independent with as_Add=None did, and decided pi*x >= sqrt(2)... by pi*x alone)
    (sympy.pi * x - sympy.sqrt(2), ">=", (1, 2), "undecided"),
    (sympy.pi * x - sympy.sqrt(2), "<=", (-2, -1), "undecided"),
    # a denominator equal to 1 at an end of the interval is not a pole there
    (1 / (x + 1), ">", (0, 1), "holds"),
    (1 / x, ">", (Q(1, 2), 1), "holds"),
    # a numerator of degree exactly MAX_ROOT_DEGREE (24) still has its roots found exactly
    (x**24 - Q(1, 2), ">", (0, 1), "fails"),
    # a constant of unknown sign, or one with a sum (its sign needs a numerical comparison)
    (sympy.Function("F")(2) * (x**2 + 1), ">=", (0, 1), "undecided"),
    (sympy.Function("F")(2) * (x**2 + 1), "<=", (0, 1), "undecided"),
    ((sympy.pi - 3) * (x**2 + 1), ">=", (0, 1), "undecided"),
    # a single point
    (x - Q(1, 2), "==", (Q(1, 2), Q(1, 2)), "holds"),
    (x - Q(1, 2), "==", (Q(1, 2), 1), "fails"),
])
def test_edge_cases_of_the_sign_analysis(expression, op, interval, status):
    decision = one_variable(expression, op, {x: tuple(map(Q, interval))})
    assert decision.status == status, decision.detail
    if status == "fails":
        value = expression.xreplace(decision.point)
        assert not holds(op, sympy.nsimplify(value) if value.is_Rational else sympy.sign(value))


def test_a_numerator_beyond_the_root_degree_leaves_a_strict_relation_undecided():
    decision = one_variable(x**25 + x + 3, ">", {x: (Q(-2), Q(2))})
    assert decision.status == "undecided" and "roots" in decision.detail


@pytest.mark.parametrize("expression, op, expected", [
    (sympy.pi - 3, ">", True), (sympy.pi - 3, "<", False), (sympy.Integer(0), "==", True),
    (x**2 + 1, ">", True), (x**2 - 1, ">", False),
    (sympy.sin(x) + 2, ">", False),  # not a rational function: not proved here
    (x * sympy.Symbol("y"), ">=", False),  # a second variable: not proved here
])
def test_symbolic_sign_proves_only_what_it_can(expression, op, expected):
    assert symbolic_sign(expression, op, x, Q(0), Q(1) / 2) is expected
