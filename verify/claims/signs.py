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
from verify.verdict import Basis


def holds(op: str, value) -> bool:
    """Whether ``lhs − rhs = value`` satisfies ``op`` (exact for rationals, plain for floats)."""
    return {"==": value == 0, "<=": value <= 0, ">=": value >= 0, "<": value < 0, ">": value > 0}[op]


def symbolic_sign(expression, op: str, variable, low, high) -> bool:
    """Whether ``expression op 0`` on [low, high] is proved exactly (a rational function of the one
    variable, by :func:`one_variable`; a constant, by SymPy's own sign)."""
    expression = sympy.sympify(expression)
    if not expression.free_symbols:
        return holds(op, expression) is sympy.true  # SymPy decided the constant's sign exactly
    if expression.free_symbols != {variable} or not expression.is_rational_function(variable):
        return False
    return one_variable(sympy.cancel(expression), op, {variable: (low, high)}).status == "holds"


def one_variable(difference, op: str, box: dict) -> Decision:
    """The sign of a rational function of one variable on its interval, exactly (module docstring)."""
    (x,) = difference.free_symbols
    low, high = box[x]
    numerator, denominator = sympy.fraction(sympy.together(difference))
    try:
        polys = [sympy.Poly(numerator, x, domain="QQ"), sympy.Poly(denominator, x, domain="QQ")]
    except (sympy.PolynomialError, sympy.CoercionFailed, sympy.GeneratorsNeeded):
        return Decision(
            "undecided", None, "symbolic", detail="not a rational function with rational coefficients"
        )
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
    for index, poly in enumerate(polys):
        if poly.degree() <= 0:
            continue
        for (a, b), _ in poly.intervals():
            a, b = sympy.Rational(a), sympy.Rational(b)
            if b < low or a > high:
                continue
            if index == 1:
                return Decision("undecided", None, "symbolic", detail="a pole in the interval")
            cuts |= {min(max(a, low), high), min(max(b, low), high)}
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


#: Numerators beyond this degree are not solved exactly (sympy.real_roots grows too slow).
MAX_ROOT_DEGREE = 24


def _real_roots(poly) -> list:
    """The distinct real roots of a rational polynomial as exact SymPy numbers (rationals,
    radicals or CRootOf); [None] when the degree is beyond MAX_ROOT_DEGREE."""
    if poly.degree() > MAX_ROOT_DEGREE:
        return [None]
    return list(dict.fromkeys(sympy.real_roots(poly)))
