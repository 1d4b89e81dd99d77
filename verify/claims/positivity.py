r"""``Eg(f) > c`` for a number c ≤ 0, from the sign of f alone.

When f ≥ 0 wherever it is finite and f > 0 on an interval, E[f(g)] > 0: the Gaussian density is
positive everywhere.  That decides ``Eg(1/sqrt(Abs(log(Abs(g))))) > 0`` and
``Eg(1/(Abs(g)*(1 + log(Abs(g))**2))) > 0``, whose integrands are not analytic at their singular
points, so no certified quadrature encloses them.

The rule's own hypotheses, each proved here (the step's other one, that E|f| < ∞, is proved by
the existence step: :data:`verify.claims.hypotheses.EXPECTATIONS_EXIST`):

- **f ≥ 0 wherever finite**, by structure (:func:`nonnegative`): absolute values, exponentials,
  cosh, erfc, even powers, powers of a nonnegative base, and sums, products, quotients, Max of
  such (never SymPy's numerical sign of a sum);
- **f > 0 near a point p**: f(p) > 0 exactly, at a rational p that is not one of the points
  where f may blow up (:func:`verify.base.singular.singular_candidates`), and f has no
  discontinuous function (sign, Heaviside, floor, ceiling), so f is continuous at p and positive
  on a neighbourhood of it.
"""

from __future__ import annotations

import sympy

from verify.base.singular import singular_candidates
from verify.claims.decision import Decision
from verify.claims.language import GAUSSIAN, expectation_calls
from verify.verdict import Basis

#: Where f is tried for a positive value (rationals away from 0 and ±1, where most singularities sit).
PROBES = (sympy.Rational(1, 3), sympy.Rational(7, 5), sympy.Rational(-1, 2), sympy.Rational(5, 2))
#: Functions whose jumps would break "positive at p, so positive near p".
DISCONTINUOUS = (sympy.sign, sympy.Heaviside, sympy.floor, sympy.ceiling)
_ALWAYS_NONNEGATIVE = (sympy.Abs, sympy.exp, sympy.cosh, sympy.erfc)


def positivity_step(rel) -> Decision:
    """``Eg(f) > c`` or ``>= c`` (or ``c < Eg(f)``) with a number c ≤ 0 and f ≥ 0 holds (module
    docstring); ``Eg(f) < c`` or ``<= c`` with such c fails, for the same reason."""
    oriented = _oriented(rel)
    if oriented is None:
        return Decision("undecided", None, "positivity", detail="not Eg(f) compared with a number c <= 0")
    call, bound, verdict = oriented
    body = rel.integrand(call.args[0])
    if not nonnegative(body):
        return Decision("undecided", None, "positivity", detail=f"{body} is not nonnegative by its structure")
    point = _positive_point(body)
    if point is None:
        return Decision("undecided", None, "positivity",
                        detail=f"no point where {body} is continuous and positive was found")
    return Decision(verdict, Basis.EXACT, "positivity", point={} if verdict == "fails" else None,
                    detail=f"{body} >= 0 wherever it is finite and > 0 near g = {point}, so "
                           f"E[...] > 0 >= {bound}")


def _oriented(rel):
    """(the Eg call, the number c, the verdict) when the claim compares one Eg(f) with a number
    c <= 0: it holds when it says Eg(f) is the larger, and fails when it says Eg(f) is the smaller."""
    for expectation, number, larger in ((rel.lhs, rel.rhs, rel.op in (">", ">=")),
                                       (rel.rhs, rel.lhs, rel.op in ("<", "<="))):
        calls = expectation_calls(expectation)
        if rel.op == "==" or len(calls) != 1 or calls[0] != expectation:
            continue
        if number.is_number and not number.free_symbols and number.is_nonpositive:
            return expectation, number, "holds" if larger else "fails"
    return None


def nonnegative(expr) -> bool:
    """Whether ``expr`` ≥ 0 wherever it is finite, read off its structure (module docstring)."""
    if expr.is_number:
        return bool(expr.is_nonnegative)
    if isinstance(expr, _ALWAYS_NONNEGATIVE):
        return True
    if isinstance(expr, sympy.Pow):
        base, exponent = expr.args
        if exponent.is_integer and exponent.is_even:
            return True
        return nonnegative(base) and exponent.is_real is True
    if isinstance(expr, (sympy.Add, sympy.Mul, sympy.Min)):
        return all(nonnegative(a) for a in expr.args)
    if isinstance(expr, sympy.Max):
        return any(nonnegative(a) for a in expr.args)
    return False


def _positive_point(body):
    if body.has(*DISCONTINUOUS):
        return None
    found = singular_candidates(body, GAUSSIAN)
    if found is None:
        return None
    avoid = set(found[0])
    for point in PROBES:
        if point in avoid:
            continue
        value = sympy.simplify(body.xreplace({GAUSSIAN: point}))
        if value.is_positive and value.is_finite:
            return point
    return None
