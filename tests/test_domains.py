"""The hypothesis that every operation written in a claim is defined on its range
(verify/claims/domains.py; found missing by red team 5, issue #48)."""

from __future__ import annotations

import sympy

from verify.claims import claim
from verify.claims.domains import _by_balls, interval, written_domain
from verify.claims.hypotheses import PROVED, REFUTED, UNKNOWN
from verify.claims.language import parse_claim

x, y = sympy.symbols("x y", real=True)


def _guards(text: str) -> tuple:
    names = {"x": x, "y": y, "n": sympy.Symbol("n", integer=True)}
    return parse_claim(text, names).guards


def test_the_parser_records_the_operations_before_sympy_rewrites_them():
    guards = _guards("sqrt(x)**2 < 0")
    assert [(condition, str(expr)) for condition, expr, _ in guards] == [("nonnegative", "x")]
    conditions = {(c, str(e)) for c, e, _ in _guards("acos(x) + log(y)/(x - 1) == 0")}
    assert conditions == {("unit", "x"), ("positive", "y"), ("nonzero", "x - 1")}


def test_a_guard_is_refuted_at_a_point_of_the_range():
    proof = written_domain(_guards("sqrt(x)**2 < 0"), {x: interval(-2, -1)})
    assert proof.status == REFUTED and "sqrt(x) is not defined at x = -3/2" in proof.reason


def test_a_guard_is_proved_where_the_range_keeps_to_it():
    (guard,) = _guards("sqrt(x)**2 == x")
    symbol = guard[1]
    assert written_domain((guard,), {symbol: interval(0, 2)}).status == PROVED


def test_integer_ranges_and_sums_are_guarded():
    n = sympy.Symbol("n", integer=True)
    guards = _guards("Sum(1, i, 1, n) == n")
    assert written_domain(guards, {n: interval(-5, 10, integer=True)}).status == REFUTED
    assert written_domain(guards, {n: interval(0, 10, integer=True)}).status == PROVED


def test_several_variables_are_proved_by_shifted_signs_or_balls():
    eps, v = sympy.symbols("eps V", real=True)
    guard = (("nonzero", eps**4 / (32 * sympy.log(8 * v) ** 2), "t"),)
    assert written_domain(guard, {eps: interval(sympy.Rational(1, 100), 1), v: interval(1, 10)}).status == PROVED
    assert _by_balls("positive", x + y, {x: interval(0, 1), y: interval(sympy.Rational(1, 10), 1)})
    assert not _by_balls("nonzero", x - y, {x: interval(0, 1), y: interval(0, 1)})
    unknown = written_domain((("nonzero", x - y, "1/(x - y)"),), {x: interval(0, 1), y: interval(0, 1)})
    assert unknown.status == UNKNOWN


def test_claims_that_lost_their_domain_never_hold():
    assert claim("sqrt(x)**2 < 0", for_=["x in [-2, -1]"]).verdict.value != "holds"
    assert claim("exp(log(z)) == z", for_=["z in (-oo, -1]"]).verdict.value != "holds"
    assert claim("sqrt(x)**2 == x", for_=["x in [0, 2]"]).verdict.value == "holds"


def test_the_sign_rules_on_the_box_write_a_nonnegative_variable_as_a_square():
    """sqrt(ab) >= 2ab/(a + b) (GM >= HM) is st(s - t)^2/(s^2 + t^2) >= 0 with a = s^2, b = t^2; a range
    below 0 gets no square (the same difference over it proves nothing), and a false statement
    stays unproved."""
    from verify.claims.domains import sign_on_box

    a, b = sympy.symbols("a b", real=True)
    positive = {a: sympy.Interval(sympy.Rational(1, 10), 2), b: sympy.Interval(sympy.Rational(1, 10), 2)}
    gm_hm = sympy.sqrt(a * b) - 2 * a * b / (a + b)
    assert sign_on_box("nonnegative", gm_hm, positive)
    assert not sign_on_box("positive", gm_hm, positive)  # 0 on the diagonal
    assert not sign_on_box("nonnegative", gm_hm - sympy.Rational(1, 10**20), positive)
    assert sign_on_box("nonnegative", (a + b) / 2 - sympy.sqrt(a * b),
                       {a: sympy.Interval(0, 2), b: sympy.Interval(0, 2)})


def test_a_variable_exponent_needs_a_nonzero_base_where_it_may_be_nonpositive():
    """0**e is undefined for e <= 0: x**(x - 1) at x = 0 held (red team 7).  The guard carries the
    exponent's range, so x**y with y > 0 on its range needs nothing more than x >= 0."""
    guards = _guards("x**(x - 1) == 1")
    assert written_domain(guards, {x: interval(0, 2)}).status == REFUTED
    assert written_domain(guards, {x: interval(sympy.Rational(1, 2), 2)}).status == PROVED
    positive = _guards("x**y >= 0")
    assert written_domain(positive, {x: interval(0, 1), y: interval(1, 2)}).status == PROVED
    assert written_domain(_guards("0**(x - 1/5) == 0"), {x: interval(0, 1)}).status == REFUTED
    n = sympy.Symbol("n", integer=True)
    assert written_domain(_guards("x**n >= 0"), {x: interval(0, 1), n: interval(0, 3, integer=True)}).status \
        == PROVED  # 0**0 = 1
    assert written_domain(_guards("x**n >= 0"), {x: interval(0, 1), n: interval(-2, 3, integer=True)}).status \
        != PROVED


def test_binomial_of_a_real_n_needs_n_above_minus_one():
    """binomial(x, 1/2) = Γ(x + 1)/(Γ(3/2)Γ(x + 1/2)) has a pole at x = -1 (red team 7)."""
    guards = _guards("binomial(x, 1/2) >= 0")
    assert written_domain(guards, {x: interval(sympy.Rational(-3, 2), sympy.Rational(-1, 2))}).status == REFUTED
    assert written_domain(guards, {x: interval(0, 3)}).status == PROVED
