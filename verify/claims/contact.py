r"""Non-strict inequalities in two variables that are attained along a line: a proof through the
line's Taylor remainder.

The two-variable prover covers the box with cells on which the ball of the gap D (lhs − rhs,
signed so that the claim is D ≥ 0) is ≥ 0.  Where D = 0 along a whole line, as in
log(ab) ≤ log((a² + b²)/2) on a = b, every cell the line crosses has a ball around 0 however small
it is, and the prover stalls.

On a candidate line y = ℓ(x) (y = x, y = −x or y = 0, for either order of the variables), write
t = y − ℓ(x).  When ∂ʲD/∂yʲ is 0 on the line for every j < n (SymPy reduces each to 0: a proof),
Taylor's theorem with the Lagrange remainder gives a Taylor model of D in t whose coefficients are
exact functions of x alone:

    D(x, y) = tⁿ · Q,   Q = cₙ(x) + cₙ₊₁(x) t + … + c_{N−1}(x) t^{N−n−1} + t^{N−n} R(x, s),

with cₖ(x) = ∂ᵏD/∂yᵏ(x, ℓ(x))/k!, N = n + TAYLOR_TERMS, R = ∂ᴺD/∂yᴺ/N! at some s between ℓ(x)
and y.  So D ≥ 0 on a cell as soon as the ball of Q (the cₖ on the cell's x-range, t on the cell's
range of y − ℓ(x), R on the x-range and the hull of the y-range and ℓ's range) is ≥ 0 with n even,
or has the sign of t with n odd (a line that meets the box only at its edge).
The model keeps near the line what plain balls lose to cancellation (a gap of order t⁴ is a
difference of terms of order 1).  Hypotheses, each checked: D is N times differentiable in y along
every such segment (D is built from elementary functions with no switch (Abs, sign, Max, …) and
no opaque kernel, and the balls of D, ∂D/∂y, ∂ⁿD/∂yⁿ and R are finite on the region, which
excludes a boundary point of a function's domain: √ and its derivative's 1/√ at 0).
A cell is covered by the ball of D itself (plain, or its mean-value form) or by the model; a cell
neither covers is halved along its wider side, within a budget of ball evaluations (a count, so
the verdict does not depend on the machine's load).  The step only proves: running out of the
budget, or a cell whose ball of D is < 0, leaves the claim to the other steps.
"""

from __future__ import annotations

from fractions import Fraction

import sympy
from flint import arb
from sympy.core.function import AppliedUndef

from verify.certified.balls import BALLS, interval, working_precision
from verify.certified.pieces import SWITCHES
from verify.claims.decision import Decision
from verify.claims.evaluate import compile_ball
from verify.claims.language import InexactNumberError
from verify.claims.quantifiers import as_fraction
from verify.claims.quantities import BALL_DPS, Quantities, Unavailable
from verify.claims.reduction import factored, reduces_to_zero
from verify.claims.reduction import reduced as _reduced
from verify.claims.relation import signed_symbol
from verify.verdict import Basis

#: Derivatives of D across the line that may vanish on it (contact of order up to MAX_ORDER).
MAX_ORDER = 8
#: Terms of the Taylor model in t = y − ℓ(x) beyond the first nonzero one: D = tⁿ(cₙ(x) + … +
#: c_{n+3}(x)t³ + t⁴ R(x, s)), the remainder R = ∂^{n+4}D/∂y^{n+4}/(n+4)! at a point s between.
TAYLOR_TERMS = 4
#: Ball evaluations one proof may spend (quick / --full), and how deep a cell may be halved.
CONTACT_EVALUATIONS = (20000, 200000)
MAX_CELL_DEPTH = 40
#: Functions whose derivative is not the classical one everywhere, and unevaluated operations.
_NOT_SMOOTH = (*SWITCHES, sympy.floor, sympy.ceiling, sympy.frac, sympy.Piecewise, sympy.Sum,
               sympy.Integral, sympy.Derivative, AppliedUndef)


def contact_step(rel) -> Decision:
    """The contact step of :data:`verify.claims.steps.STEPS`: *holds* (certified) for a non-strict
    inequality in two variables attained along y = ±x or an axis, else undecided with the reason."""
    return along_a_line(rel) or Decision(
        "undecided", None, "contact",
        detail="no line y = x, y = -x or an axis along which the gap and its first derivatives across "
               "the line reduce to 0 and the Taylor model covers the box")


def applies(rel) -> bool:
    """A non-strict inequality in exactly two variables (the step's scope)."""
    return rel.op in (">=", "<=") and len(rel.box) == 2


def along_a_line(rel) -> Decision | None:
    """*holds* (certified) for a non-strict inequality in two variables attained along y = ±x or
    an axis, or None (the module docstring)."""
    if not applies(rel):
        return None
    try:
        left, right = rel.exact_sides()
    except (Unavailable, InexactNumberError):
        return None
    signed = (left - right) if rel.op == ">=" else (right - left)
    if signed.free_symbols != set(rel.box) or signed.has(*_NOT_SMOOTH):
        return None
    if not all(end.is_number and end.is_finite for ends in rel.box.values() for end in ends):
        return None
    # the cover runs on the box rounded outward to rational ends (a proof there covers the box), and
    # x's sign on the line is read from those ends too
    box = {v: tuple(sympy.Rational(as_fraction(end, side)) for end, side in zip(ends, (-1, 1), strict=True))
           for v, ends in rel.box.items()}
    first, second = sorted(box, key=str)
    for x, y in ((first, second), (second, first)):
        for slope in (1, -1, 0):
            line = slope * x
            order = _contact_order(signed, x, y, line, signed_symbol(x, *box[x]))
            if order is None:
                continue
            with working_precision(BALL_DPS):
                detail = _cover(signed, x, y, slope, order, box, rel.full)
            if detail is not None:
                return Decision("holds", Basis.CERTIFIED, "contact", detail=detail)
    return None


def _contact_order(signed, x, y, line, stand_in) -> int | None:
    """The first n ≤ MAX_ORDER at which ∂ⁿD/∂yⁿ is not reduced to 0 on y = line, when D itself is
    (None when D is not 0 on the line, or every derivative up to MAX_ORDER is).  x is replaced by
    ``stand_in``, signed by its range (√(ab) on b = a is a, not |a|, for a > 0)."""
    derivative = signed
    for n in range(MAX_ORDER + 1):
        if n:
            derivative = sympy.diff(derivative, y)
        on_line = derivative.xreplace({y: line}).xreplace({x: stand_in})
        if not reduces_to_zero("lhs - rhs on a line", [(_reduced, on_line), (factored, on_line)]):
            return n or None
    return None


def _cover(signed, x, y, slope: int, order: int, box: dict, full: bool) -> str | None:
    """The proof's description when every cell of the box is covered (module docstring), else None."""
    last, line = order + TAYLOR_TERMS, slope * x
    try:
        gap = _centred(signed, x, y)
        # cₖ(x) = ∂ᵏD/∂yᵏ(x, ℓ(x))/k!: functions of x alone, exact, so their balls stay narrow
        coefficients = [_compiled(sympy.diff(signed, y, k).xreplace({y: line}) / sympy.factorial(k))
                        for k in range(order, last)]
        remainder = _compiled(sympy.diff(signed, y, last) / sympy.factorial(last))
        smooth = [_compiled(sympy.diff(signed, y, j)) for j in (1, order)]
    except (Unavailable, ValueError, TypeError):
        return None
    x_low, x_high = as_fraction(box[x][0], -1), as_fraction(box[x][1], +1)
    y_low, y_high = as_fraction(box[y][0], -1), as_fraction(box[y][1], +1)
    widths = (x_high - x_low or Fraction(1), y_high - y_low or Fraction(1))
    queue = [(x_low, x_high, y_low, y_high, 0)]
    spent, by_model = 0, 0
    budget = CONTACT_EVALUATIONS[full]
    while queue:
        a, b, c, d, depth = queue.pop()
        xs, ys = interval(a, b), interval(c, d)
        value = gap({x: xs, y: ys})
        spent += 1
        if value >= 0:
            continue
        if value < 0:
            return None  # a point of the cell breaks the claim: the other steps refute it
        # t = y − ℓ(x) on the cell, exactly: its sign is read from the fractions, not a ball
        t_low, t_high = c - max(slope * a, slope * b), d - min(slope * a, slope * b)
        offsets = interval(t_low, t_high)
        region = {x: xs, y: interval(min(c, slope * a, slope * b), max(d, slope * a, slope * b))}
        quotient = remainder(region)
        for coefficient in reversed(coefficients):  # Horner in t
            quotient = quotient * offsets + coefficient({x: xs})
        spent += len(coefficients) + 1
        if _keeps_sign((t_low, t_high), quotient, order) and _finite_on(region, (gap, *smooth)):
            spent += 1 + len(smooth)
            by_model += 1
            continue
        if spent >= budget or depth >= MAX_CELL_DEPTH:
            return None
        if (b - a) / widths[0] >= (d - c) / widths[1]:
            middle = (a + b) / 2
            queue += [(a, middle, c, d, depth + 1), (middle, b, c, d, depth + 1)]
        else:
            middle = (c + d) / 2
            queue += [(a, b, c, middle, depth + 1), (a, b, middle, d, depth + 1)]
    t = f"({y} - {sympy.sstr(line)})"
    return (f"lhs - rhs and its first {order - 1} derivative(s) in {y} vanish exactly on {y} = "
            f"{sympy.sstr(line)}, so lhs - rhs = {t}^{order} Q with Q its Taylor polynomial in {t} "
            f"to order {last - 1} over {t}^{order} plus the Lagrange remainder; {spent} ball evaluations "
            f"cover the box, {by_model} cell(s) by the ball of Q >= 0, the rest by the ball of lhs - rhs")


def _keeps_sign(offsets: tuple[Fraction, Fraction], quotient, order: int) -> bool:
    """Whether tⁿ·Q ≥ 0 for every t in [``offsets``] and Q in ``quotient``: Q ≥ 0 when n is even;
    when n is odd, t and Q of one sign (a line that meets the box at its edge: log a − log b ≤
    (a − b)/√(ab) for a ≥ b, of order 3 at a = b)."""
    if order % 2 == 0:
        return bool(quotient >= 0)
    low, high = offsets
    return bool((low >= 0 and quotient >= 0) or (high <= 0 and quotient <= 0))


def _finite_on(region: dict, functions) -> bool:
    return all(function(region).is_finite() for function in functions)


def _compiled(expr):
    return compile_ball(expr, Quantities(None, None, BALLS))


def _centred(expr, x, y):
    """cell -> a ball of ``expr`` on the cell: the plain evaluation intersected with the mean-value
    form f(m) + ∂ₓf(cell)(x − mₓ) + ∂ᵧf(cell)(y − mᵧ) (m the cell's centre; the mean value theorem on
    the segment from m, inside the convex cell, where the gradient's balls are finite).  Near the
    line the plain ball loses to cancellation what the centred one keeps: a gap of order t⁴ is the
    difference of terms of order 1."""
    plain = _compiled(expr)
    slopes = [_compiled(sympy.diff(expr, v)) for v in (x, y)]

    def function(cell):
        direct = plain(cell)
        if not direct.is_finite():  # outside the domain somewhere: no model makes it a number
            return direct
        centre = {v: arb(ball.mid()) for v, ball in cell.items()}
        model = plain(centre)
        for v, slope in zip((x, y), slopes, strict=True):
            model += slope(cell) * (cell[v] - centre[v])
        return direct.intersection(model) if model.is_finite() else direct

    return function
