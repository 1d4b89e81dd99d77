r"""Exact signs of rational functions of one variable (the symbolic step's decision on an interval).

A rational function with rational coefficients has finitely many real roots, which SymPy
isolates or finds exactly; between them its sign is that of any rational point.  So whether
``f op 0`` holds on [low, high] is decided with no rounding at all: a root of the numerator in
the closed interval refutes a strict relation, a point of the wrong sign refutes any relation,
and a pole in the interval leaves it undecided.
"""

from __future__ import annotations

import sympy

from verify.claims.decision import Decision
from verify.claims.language import MIRROR
from verify.verdict import Basis


def holds(op: str, value) -> bool:
    """Whether ``lhs − rhs = value`` satisfies ``op`` (exact for rationals, plain for floats)."""
    return {"==": value == 0, "<=": value <= 0, ">=": value >= 0, "<": value < 0, ">": value > 0}[op]


def symbolic_sign(expression, op: str, variable, low, high) -> bool:
    """Whether ``expression op 0`` on [low, high] is proved exactly (a rational function of the one
    variable, by :func:`one_variable`; a constant, by SymPy's own sign)."""
    expression = sympy.sympify(expression)
    if not expression.free_symbols:
        # SymPy decided the constant's sign exactly (a relation is sympy.true; == compares the
        # expression with 0 structurally, a Python bool)
        return holds(op, expression) in (True, sympy.true)
    if expression.free_symbols != {variable} or not expression.is_rational_function(variable):
        return False
    return one_variable(sympy.cancel(expression), op, {variable: (low, high)}).status == "holds"


def _constant_times(difference, op: str, box: dict, x) -> Decision:
    """``difference`` = c · r(x) with c a constant whose sign SymPy knows from its factors alone
    (a product of powers of positive numbers such as π, √2, rationals: no sum, so no numerical
    comparison) and r a rational function with rational coefficients: decided on r, the relation
    reversed where c < 0 (μ_8(ReLU)² ρ⁷ ≥ 0 on [0, 1], whose coefficient is (35/2048)²/π-like)."""
    undecided = Decision("undecided", None, "symbolic",
                         detail="not a rational function with rational coefficients")
    squares = _squares_over_the_coefficients(difference, op, x)
    if squares is not None:
        return squares
    constant, rest = sympy.factor_terms(difference).as_independent(x, as_Add=False)
    if constant.free_symbols or constant.has(sympy.Add) or rest == difference:
        return undecided
    if constant.is_positive is True:
        reduced_op = op
    elif constant.is_negative is True:
        reduced_op = MIRROR[op]  # both sides times a negative number
    else:
        return undecided
    decision = one_variable(rest, reduced_op, box)
    if decision.status == "undecided":
        return decision
    sign = "> 0" if reduced_op == op else "< 0"
    if decision.status == "fails":
        value = rest.xreplace(decision.point)
        decision.detail = (f"lhs - rhs = c * r with c = {constant} {sign} (known from its factors) and "
                           f"r = {rest}, which is {value} here")
    else:
        decision.detail = (f"lhs - rhs = c * r with c = {constant} {sign} (known from its factors): exact "
                           f"sign analysis of r = {rest} on [{box[x][0]}, {box[x][1]}] (roots isolated)")
    return decision


def _squares_over_the_coefficients(difference, op: str, x) -> Decision | None:
    """A polynomial with algebraic coefficients factored exactly over the field they generate
    (SymPy's ``factor(..., extension=True)``): c·Π f_i^(2 e_i), with c a constant whose sign SymPy
    knows from its factors alone (no sum), is ≥ 0 everywhere (c > 0) or ≤ 0 (c < 0).
    2m² − 2√2 m + 1 = 2(m − √2/2)² ≥ 0 this way, whose touch at m = √2/2 no rational point finds."""
    if op not in (">=", "<=") or not difference.is_polynomial(x):
        return None
    try:
        factored = sympy.factor(difference, x, extension=True)
    except (sympy.PolynomialError, NotImplementedError, ValueError, TypeError):
        return None
    constant, rest = factored.as_independent(x, as_Add=False)
    if constant.free_symbols or constant.has(sympy.Add) or rest == 1:
        return None
    for factor in sympy.Mul.make_args(rest):
        base, exponent = factor.as_base_exp()
        if not (exponent.is_Integer and exponent % 2 == 0 and base.is_polynomial(x)
                and all(c.is_real for c in sympy.Poly(base, x).all_coeffs())):
            return None
    sign = 1 if constant.is_positive is True else -1 if constant.is_negative is True else 0
    if (sign, op) not in ((1, ">="), (-1, "<=")):
        return None
    return Decision("holds", Basis.EXACT, "symbolic",
                    detail=f"lhs - rhs = {factored}: a constant of known sign times even powers of real "
                           "polynomials (exact factorization over the coefficients' field)")


def one_variable(difference, op: str, box: dict) -> Decision:
    """The sign of a rational function of one variable on its interval, exactly (module docstring)."""
    (x,) = difference.free_symbols
    low, high = box[x]
    numerator, denominator = sympy.fraction(sympy.together(difference))
    try:
        polys = [sympy.Poly(numerator, x, domain="QQ"), sympy.Poly(denominator, x, domain="QQ")]
    except (sympy.PolynomialError, sympy.CoercionFailed, sympy.GeneratorsNeeded):
        return _constant_times(difference, op, box, x)
    if op in ("<", ">") and polys[0].degree() > 0:
        # A strict relation fails wherever the numerator vanishes in the closed interval, at a
        # rational or an irrational root alike (an isolating interval is no proof of either).
        for root in _real_roots(polys[0]):
            if root is None:
                return Decision("undecided", None, "symbolic",
                                detail="roots of the numerator not found exactly")
            if bool(sympy.Le(low, root)) and bool(sympy.Le(root, high)):
                return Decision("fails", Basis.EXACT, "symbolic", point={x: root},
                                detail=f"lhs = rhs at {x} = {root} (an exact root of lhs - rhs)")
    cuts = {low, high}
    if polys[1].degree() > 0 and _pole_within(polys[1], low, high) is not False:
        return Decision("undecided", None, "symbolic", detail="a pole in the interval")
    if polys[0].degree() > 0:
        intervals = _isolating(polys[0])
        if intervals is None:
            return Decision("undecided", None, "symbolic",
                            detail="the numerator's roots could not be separated")
        cuts |= {min(max(t, low), high) for a, b in intervals for t in (a, b)}
    ordered = sorted(cuts)
    tests = ordered + [(u + v) / 2 for u, v in zip(ordered, ordered[1:], strict=False)]
    for t in sorted(tests):
        value = difference.xreplace({x: t})
        if not holds(op, value):
            return Decision(
                "fails", Basis.EXACT, "symbolic", point={x: t}, detail=f"lhs - rhs = {value} here"
            )
    return Decision(
        "holds",
        Basis.EXACT,
        "symbolic",
        detail=f"exact sign analysis of lhs - rhs on [{low}, {high}] (roots isolated)",
    )


#: Refinements of the isolating intervals before the step gives up (each at least halves them).
MAX_REFINEMENTS = 60


def _isolating(poly) -> list | None:
    """Disjoint isolating intervals of the real roots of ``poly``, separated by gaps, none with
    another root at an end: between two consecutive roots there is then an interval end or a gap's
    midpoint, so testing the ends and the midpoints of consecutive cuts samples every piece where
    the sign is constant.  (Isolating intervals as SymPy returns them may touch: x^2(19 - 162x -
    81x^2) has the root 0 as the interval [0, 0] and the root 0.111 in [0, 1]; testing only 0, 1
    and the midpoints missed the positive piece (0, 0.111) and made a false inequality hold.)
    None when MAX_REFINEMENTS do not separate them."""
    square_free = poly.sqf_part()
    intervals = sorted((sympy.Rational(a), sympy.Rational(b)) for (a, b), _ in square_free.intervals())
    for _ in range(MAX_REFINEMENTS):
        separated = all(b1 < a2 for (_, b1), (a2, _) in zip(intervals, intervals[1:], strict=False))
        clean = all(a == b or (square_free.eval(a) != 0 and square_free.eval(b) != 0) for a, b in intervals)
        if separated and clean:
            return intervals
        intervals = sorted((a, b) if a == b else _refined(square_free, a, b) for a, b in intervals)
    return None


def _pole_within(denominator, low, high) -> bool | None:
    """Whether ``denominator`` has a real root in [low, high], exactly: each isolating interval is
    refined until it lies inside or outside (SymPy's first intervals are wide, and one that merely
    overlaps the interval left 1/(x - 1/2) == 0 on [0, 0] undecided).  A root at an end is found by
    evaluation, so refinement ends; None when MAX_REFINEMENTS do not tell."""
    square_free = denominator.sqf_part()
    if square_free.eval(low) == 0 or square_free.eval(high) == 0:
        return True
    for (a, b), _ in square_free.intervals():
        a, b = sympy.Rational(a), sympy.Rational(b)
        for _ in range(MAX_REFINEMENTS):
            if b < low or a > high:
                break
            if low <= a and b <= high:
                return True
            a, b = _refined(square_free, a, b)
        else:
            return None
    return False


def _refined(poly, a, b) -> tuple:
    low, high = poly.refine_root(a, b, eps=(b - a) / 4)
    return sympy.Rational(low), sympy.Rational(high)


#: Numerators beyond this degree are not solved exactly (sympy.real_roots grows too slow).
MAX_ROOT_DEGREE = 24


def _real_roots(poly) -> list:
    """The distinct real roots of a rational polynomial as exact SymPy numbers (rationals,
    radicals or CRootOf); [None] when the degree is beyond MAX_ROOT_DEGREE."""
    if poly.degree() > MAX_ROOT_DEGREE:
        return [None]
    return list(dict.fromkeys(sympy.real_roots(poly)))
