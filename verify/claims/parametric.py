r"""``Eg(f(g, a))`` for a quantified real variable a: one closed form over the whole range, or points.

``Eg(exp(-a*g**2)) == 1/sqrt(1 + 2*a)`` with ``--for 'a in [0, 1]'`` is a statement about a
function of a, not about one number.  Every step after this one reads an ``Eg(...)`` as a number
per configuration, so the expectation is first made a function of a:

1. **Existence for every a** (default deny).  E|f(g, a)| < ∞ for each a in the range is proved
   when f(·, a) has no point on the line where it may blow up
   (:func:`verify.base.singular.singular_candidates` finds none, with a's sign known from its
   range; a power whose exponent's sign is unknown is refused there) and both tails have one
   growth majorant below e^{g²/2} valid for every a at once
   (:func:`verify.certified.growth.tail_majorant` with a's range: every subexpression free of g
   is enclosed by interval arithmetic over it, so a coefficient infinite somewhere in the range
   is refused).  Anything else: not proved, and nothing here *holds*.
2. **A closed form F(a)** from the exact rules and SymPy (:func:`verify.claims.gaussian.
   exact_expectation` with a kept symbolic, its sign taken from the range), with no condition,
   piecewise branch or unevaluated integral left.
3. **F checked against certified quadrature** at :data:`CHECKED_POINTS` points of the range
   (both ends, the middle, the quarters): the ball of E[f(g, a_j)] must meet the ball of F(a_j).
   A closed form SymPy derived for a generic a can be wrong at a special value (a branch of a
   Piecewise dropped, a removable 1/a); one that is excluded anywhere is not used, and the
   evidence says so.
4. Eg(f) is replaced by F(a), and the ordinary steps decide the claim as an expression in a: a
   *holds* covers every point of the range (symbolically or by the prover's balls).

Without a closed form the claim is decided at the same points, each an ordinary claim: a
certified or exact *fails* at one of them refutes it; otherwise the verdict is *inconclusive*
and names the points (a grid is never reported as the range).
"""

from __future__ import annotations

from fractions import Fraction

import sympy
from flint import arb

from verify.base.errors import clip
from verify.base.singular import singular_candidates
from verify.certified.balls import working_precision
from verify.certified.compile import constant
from verify.certified.errors import CertificationError
from verify.certified.growth import tail_majorant
from verify.claims.decision import Decision
from verify.claims.gaussian import ball_expectation, exact_expectation
from verify.claims.language import GAUSSIAN, expectation_calls
from verify.claims.quantities import BALL_DPS
from verify.claims.relation import signed_symbol
from verify.verdict import Basis

#: Where a closed form F(a) is checked against certified quadrature, and where a claim without
#: one is decided: fractions of the range [lo, hi].
CHECKED_POINTS = (sympy.Integer(0), sympy.Rational(1, 4), sympy.Rational(1, 2), sympy.Rational(3, 4),
                  sympy.Integer(1))


def parametric_calls(rel) -> list:
    """The Eg(...) calls of the claim whose integrand depends on a variable of the box."""
    box = set(rel.box)
    return [call for call in expectation_calls(rel.lhs, rel.rhs) if call.free_symbols & box]


def grid(low, high) -> list:
    low, high = _rational(low), _rational(high)
    return [low + (high - low) * fraction for fraction in CHECKED_POINTS]


def uniform_existence(body, ranges: dict) -> str:
    """'' when E|body(g, a)| < ∞ is proved for every a in ``ranges`` (module docstring), else why not."""
    signed = {s: signed_symbol(s, *ranges[s]) for s in ranges}
    try:
        found = singular_candidates(body.xreplace(signed), GAUSSIAN)
    except (TypeError, ValueError) as exc:  # ComplexValuedError: the claim's own bad input, said elsewhere
        return f"{clip(body, 40)}: {exc}"
    if found is None or found[0] or not found[1]:
        return f"{clip(body, 40)} may blow up on the line for some {_names(ranges)} in the range"
    # the stand-ins carry a's sign, which clamps the balls' rounding at an end 0 (tail_majorant)
    bounds = {signed[s]: _outer(low, high) for s, (low, high) in ranges.items()}
    for side in (1, -1):
        try:
            tail_majorant(body.xreplace(signed), GAUSSIAN, side, 1, bounds)
        except (CertificationError, ValueError, TypeError) as exc:
            return (f"no growth bound of {clip(body, 40)} as g -> {'+' if side > 0 else '-'}oo valid for "
                    f"every {_names(ranges)} in the range ({clip(exc, 80)})")
    return ""


def closed_form(body, ranges: dict):
    """(F, '') with F = E[body(g)] as a function of the parameters, checked at the grid; or
    (None, why not)."""
    signed = {s: signed_symbol(s, *ranges[s]) for s in ranges}
    back = {v: k for k, v in signed.items()}
    value = exact_expectation(body.xreplace(signed), frozenset(signed.values()))
    if value is None:
        return None, f"no closed form of Eg({clip(body, 40)}) as a function of {_names(ranges)}"
    value = value.xreplace(back)
    (symbol,) = ranges if len(ranges) == 1 else (None,)
    if symbol is None:
        return None, f"Eg({clip(body, 40)}) depends on several variables; its closed form is not checked"
    with working_precision(BALL_DPS):
        for point in grid(*ranges[symbol]):
            try:
                claimed = constant(value.xreplace({symbol: point}))
                measured = ball_expectation(body.xreplace({symbol: point}), BALL_DPS)
            except (CertificationError, ValueError, ZeroDivisionError, TypeError) as exc:
                return None, (f"the closed form {clip(value, 60)} of Eg({clip(body, 40)}) could not be "
                              f"checked at {symbol} = {point} ({clip(exc, 60)})")
            difference = arb(claimed) - arb(measured)
            if not difference.contains(0):
                return None, (f"SymPy's closed form {clip(value, 60)} of Eg({clip(body, 40)}) disagrees with "
                              f"certified quadrature at {symbol} = {point}; not used")
    return value, ""


def rewritten(rel):
    """(the relation with each parametric Eg replaced by its checked closed form, ''), or
    (None, why not)."""
    replacements = {}
    for call in parametric_calls(rel):
        ranges = {s: rel.box[s] for s in call.free_symbols & set(rel.box)}
        body = rel.integrand(call.args[0])
        why = uniform_existence(body, ranges)
        if why:
            return None, f"that {call} exists for every {_names(ranges)} in the range is not proved: {why}"
        value, why = closed_form(body, ranges)
        if value is None:
            return None, why
        replacements[call] = value
    return rel.with_sides(rel.lhs.xreplace(replacements), rel.rhs.xreplace(replacements)), ""


def decide_parametric(rel, decide, split: bool = True) -> Decision:
    """Decide a claim with an Eg(...) of a box variable: through closed forms when they are proved
    over the range, else at the grid points (module docstring).  ``decide``: the ordinary steps.
    A range across 0 without a closed form is split there once (``split``): SymPy finds the
    closed form of each half, where the sign of the variable is known."""
    closed, why = rewritten(rel)
    if closed is not None:
        decision = decide(closed)
        if decision.status != "holds":
            return decision
        decision.detail = "; ".join(filter(None, [decision.detail, "each Eg(...) of a quantified variable "
                                                  "replaced by its closed form, checked by certified "
                                                  "quadrature at 5 points of the range"]))
        return decision
    symbols = sorted({s for call in parametric_calls(rel) for s in call.free_symbols & set(rel.box)},
                     key=lambda s: s.name)
    straddling = [s for s in symbols if _rational(rel.box[s][0]) < 0 < _rational(rel.box[s][1])]
    if straddling and split:
        # relu's E[σ(a g)] = |a|/√(2π) has one closed form on each side of 0, none across it
        (s, *_) = straddling
        low, high = rel.box[s]
        halves = [decide_parametric(rel.within(s, low, 0), decide, split=False),
                  decide_parametric(rel.within(s, 0, high), decide, split=False)]
        failed = [d for d in halves if d.status == "fails"]
        if failed:
            return failed[0]
        if all(d.status == "holds" for d in halves):
            split_note = f"decided on {s} <= 0 and on {s} >= 0 separately"
            halves[0].detail = "; ".join(filter(None, [halves[0].detail, split_note]))
            return halves[0]
        return next(d for d in halves if d.status != "holds")
    points = _grid_points(rel.box, symbols)
    seen = []
    for point in points:
        decision = decide(rel.at(point))
        if decision.status == "fails" and decision.basis in (Basis.EXACT, Basis.CERTIFIED):
            decision.point = {**(decision.point or {}), **point}
            decision.detail = f"at {_shown(point)}: {decision.detail}"
            return decision
        seen.append(f"{_shown(point)}: {decision.status}")
    return Decision("inconclusive", Basis.NONE, "parametric",
                    detail=(f"{why}; decided only at the points {'; '.join(seen)} — the values between "
                            "them are not covered"),
                    numbers={"points": [_shown(p) for p in points]})


def _grid_points(box: dict, symbols: list) -> list[dict]:
    if len(symbols) == 1:
        (s,) = symbols
        return [{s: value} for value in grid(*box[s])]
    # several: the corners and the centre of their box
    corners = [{}]
    for s in symbols:
        low, high = box[s]
        corners = [{**c, s: v} for c in corners for v in (_rational(low), _rational(high))]
    centre = {s: (_rational(box[s][0]) + _rational(box[s][1])) / 2 for s in symbols}
    return [*corners, centre]


def _rational(value) -> sympy.Expr:
    """A box end (int, Fraction, SymPy rational, or an exact real number such as pi) as an exact
    SymPy number (a grid point or a corner keeps pi exact: ``Rational(pi)`` was a TypeError)."""
    return sympy.Rational(str(value)) if not isinstance(value, sympy.Basic) else value


def _outer(low, high) -> tuple[Fraction, Fraction]:
    """Rational ends enclosing the box [low, high] (outward to 10^-30 where an end is irrational):
    the ranges a certified tail bound holds for."""
    low, high = _rational(low), _rational(high)
    scale = 10**30
    if not low.is_Rational:
        low = sympy.floor(low * scale) / scale
    if not high.is_Rational:
        high = sympy.ceiling(high * scale) / scale
    return Fraction(str(low)), Fraction(str(high))


def _names(ranges: dict) -> str:
    return ", ".join(sorted(s.name for s in ranges))


def _shown(point: dict) -> str:
    return ", ".join(f"{s} = {v}" for s, v in sorted(point.items(), key=lambda item: item[0].name))
