r"""Non-strict inequalities that are attained: a proof through the point where they touch.

The branch-and-bound prover (:func:`verify.certified.prover.prove_geq`) proves g ≥ 0 only
with a strict margin on every piece of its cover, so an inequality attained with equality
(K(ρ) ≤ K(1) at ρ = 1, exp(x) ≥ 1 + x at 0) always stalls at the touching point.  When the
gap g has a closed form in the one box variable (the symbolic step's exact sides), the touch
is settled by monotonicity instead:

1. the stall interval suggests a touching point t₀: a box endpoint in it, or the simplest
   rational in it; g(t₀) = 0 must hold *exactly* (SymPy simplifies it to 0);
2. g' ≥ 0 on [t₀, t₀ + δ] and −g' ≥ 0 on [t₀ − δ, t₀] (inside the box) are proved the same
   way, recursively (g' may touch 0 at t₀ too: exp(x) − 1 − x at 0), at most MAX_ORDER deep;
   then g ≥ g(t₀) = 0 on the neighbourhood by monotonicity;
3. the prover covers the rest of the box strictly (at most MAX_TOUCHES touching points).

Every step is exact or certified, so the result is a proof ("holds", certified).  When any
step fails the claim stays undecided, as before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import sympy
from flint import arb

from verify.certified.balls import exact
from verify.certified.compile import RealBackend, compile_expression
from verify.certified.compile import constant as constant_ball
from verify.certified.errors import CertificationError
from verify.certified.prover import Status, constant, prove_geq
from verify.certified.windows import switch_points
from verify.claims.quantifiers import as_fraction
from verify.claims.signs import symbolic_sign

#: Derivatives deep that monotonicity from an end may go (each level proves the next derivative
#: on the whole stalled interval, and may stall again: the work grows fast with the depth).
MAX_MONOTONE_DEPTH = 4
#: Touching points settled per interval, derivatives deep, and neighbourhood sizes 2^-n.
MAX_TOUCHES = 5
MAX_ORDER = 6
NEIGHBOURHOODS = (1, 2, 3, 4, 6, 8, 12, 16)  # the largest that works: the rest is then easy
PROVER_EVALUATIONS = 400


@dataclass(frozen=True)
class TouchProof:
    proved: bool
    detail: str
    #: exact points where the two sides meet, found on the way (settled or not)
    touches: tuple = ()
    #: exact points where the prover found the gap's ball < 0: candidates for a counterexample,
    #: which the caller confirms with the relation's own ball evaluation (the gap here may be a
    #: derivative or an angle form, not the claim)
    refuted_at: tuple = ()


def prove_touching(difference: sympy.Expr, variable: sympy.Symbol, low: Fraction, high: Fraction,
                   depth: int = 0, exact_ends: dict | None = None) -> TouchProof:
    """Prove ``difference >= 0`` on [low, high] (exact ends), through its touching points.

    ``exact_ends`` maps an end that was rounded outward from an irrational one (π/2 to a dyadic
    2^-200 above it) to its exact value: monotonicity proved on the wider range is read at the
    exact end, so cos(x) ≥ 0 on [0, π/2] holds (cos decreasing, cos(π/2) = 0) although cos is
    negative at the rounded end."""
    if low == high:  # one point: the prover takes intervals only
        proved = _nonnegative_at(difference, variable, low, exact_ends)
        return TouchProof(proved, f"at the one point {variable} = {low}: {'' if proved else 'not '}proved")

    pending = [(low, high)]
    touches: list[str] = []
    while pending:
        a, b = pending.pop()
        result = _prove(difference, variable, a, b)
        if result is None:
            return TouchProof(False, "the gap has no ball evaluation")
        if result.status is Status.PROVED:
            continue
        if result.status is Status.REFUTED:
            witness = result.endpoint if result.endpoint is not None else _exact_midpoint(result.witness)
            return TouchProof(False, f"prover: {result.describe()}",
                              refuted_at=(_rational(Fraction(witness)),))
        if result.stall is None or len(touches) >= MAX_TOUCHES:
            return TouchProof(False, f"prover: {result.describe()}")
        stall = _stalled(result)
        point = _touching_point(difference, variable, a, b, stall)
        if point is None and _monotone_from_an_end(difference, variable, a, b, depth, exact_ends):
            touches.append(f"[{a}, {b}] monotone from an end")
            continue
        rest = None if point is not None else _beside_an_exact_end(difference, variable, a, b, depth,
                                                                   exact_ends, stall)
        if rest is not None:
            end = exact_ends[b if rest[1] < b else a]
            touches.append(f"{variable} = {end} (an exact end, monotone beside it)")
            pending.append(rest)
            continue
        # only on the claim's own gap: solveset on every derivative of a monotonicity proof costs
        # seconds each (acos(ρ) ≤ π√(2(1 − ρ))/2 ran out of its allowance), and a touch of a
        # derivative at an irrational point has not been needed by any corpus statement
        split = _split_at_an_exact_touch(difference, variable, a, b, stall) \
            if point is None and depth == 0 else None
        if isinstance(split, Dip):
            return TouchProof(False, f"g({split.point}) = {split.value} < 0 exactly",
                              refuted_at=(split.point,))
        if split is not None:
            pieces, ends = split
            exact_ends = {**(exact_ends or {}), **ends}
            touches.append(f"{variable} = {next(iter(ends.values()))} (an exact irrational touch)")
            pending += pieces
            continue
        if point is None:
            return TouchProof(False, f"no exact touching point in the stalled interval "
                                     f"{_show(stall)}")
        settled = _settle(difference, variable, point, a, b, depth)
        if settled is None and abs(point) == 1:
            settled = _settle_by_angle(difference, variable, point, a, b, depth)
        if settled is None:
            return TouchProof(False, f"g({point}) = 0 exactly, but no derivative settles the sign near it",
                              (_rational(point),))
        (left, right), order = settled
        touches.append(f"{variable} = {point} (order {order})")
        pending += [(a, left)] if left > a else []
        pending += [(right, b)] if right < b else []
    return TouchProof(True, "proved through the touching point(s) " + ", ".join(touches)
                      + " by monotonicity (exact zeros, certified signs of the derivatives) and "
                        "strictly elsewhere")


def _monotone_from_an_end(expr, variable, a: Fraction, b: Fraction, depth: int,
                          exact_ends: dict | None = None) -> bool:
    """expr ≥ 0 on [a, b] from expr(a) ≥ 0 and expr' ≥ 0 on [a, b] (or expr(b) ≥ 0 and expr' ≤ 0),
    each proved (the derivative through its own touching points, at most MAX_MONOTONE_DEPTH deep): a gap
    that is tiny but not zero (θ − 2 sin(θ/2) − sin³(θ/2)/3 ~ θ⁵/1920 near θ = 1/2) cancels in
    every ball of itself, while its higher derivatives are far from 0."""
    if depth + 1 >= MAX_MONOTONE_DEPTH:
        return False
    derivative = sympy.diff(expr, variable)
    for end, sign in ((a, 1), (b, -1)):
        if not _nonnegative_at(expr, variable, end, exact_ends):
            continue
        if prove_touching(sign * derivative, variable, a, b, depth + 1, exact_ends).proved:
            return True
    return False


#: Half-width, beyond the stall's own, of the window where an irrational touch is looked for.
TOUCH_WINDOW = Fraction(1, 2**20)


def _split_at_an_exact_touch(expr, variable, a: Fraction, b: Fraction, stall):
    """(the two pieces of [a, b] on either side of an irrational point p where expr and expr' are
    both exactly 0, and their ends' exact value p): sin(x) ≤ 1 on [0, π] touches at π/2, which no
    rational point of the stall reaches; or a :class:`Dip` where expr' = 0 and expr is an exact
    negative number.  p is a root of expr' that solveset lists exactly in a
    window around the stall, with expr(p) reduced to 0 by SymPy; each piece ends at p rounded
    outward, read exactly there (:func:`_beside_an_exact_end`).  None when no such p is found."""
    low, high = stall
    margin = max(4 * (high - low), TOUCH_WINDOW)
    window = (max(a, low - margin), min(b, high + margin))
    if not window[0] < window[1]:
        return None
    try:
        roots = switch_points([sympy.diff(expr, variable)], [], variable, *(_rational(end) for end in window))
    except CertificationError:
        return None
    for root in roots:
        if root.is_Rational:
            continue  # a rational touch is _touching_point's
        value = expr.subs(variable, root)
        if not is_zero(value):
            exact = _exact_number(value)
            if exact is not None and exact < 0:
                return Dip(root, exact)  # cos(x) >= -1 + 10^-40 on [0, 4]: -10^-40 at x = pi
            continue
        up, down = as_fraction(root, +1), as_fraction(root, -1)
        if a < down and up < b:
            return [(a, up), (down, b)], {up: root, down: root}
    return None


@dataclass(frozen=True)
class Dip:
    """An exact point where the gap is an exact negative number: a counterexample."""

    point: sympy.Expr
    value: sympy.Rational


def _exact_number(value) -> sympy.Rational | None:
    """``value`` simplified to a rational number, or None."""
    try:
        simplified = sympy.simplify(value)
    except (TypeError, ValueError, RecursionError):
        return None
    return simplified if simplified.is_Rational else None


def _beside_an_exact_end(expr, variable, a: Fraction, b: Fraction, depth: int,
                         exact_ends: dict | None, stall) -> tuple[Fraction, Fraction] | None:
    """The rest of [a, b] once expr ≥ 0 is proved by monotonicity on a neighbourhood [b − δ, b] of
    an end rounded from an irrational one (or [a, a + δ]) where the prover stalled, read at the
    exact end: sin(x) ≥ 2x/π on [0, π/2] touches at π/2, and is monotone only near it.  None when
    no δ in NEIGHBOURHOODS works."""
    low, high = stall
    for end in (b, a):
        if end not in (exact_ends or {}) or not low - TOUCH_WINDOW <= end <= high + TOUCH_WINDOW:
            continue
        for n in NEIGHBOURHOODS:
            delta = Fraction(1, 2**n)
            if delta >= b - a:
                continue
            inner = end - delta if end == b else end + delta
            near = (inner, b) if end == b else (a, inner)
            if _monotone_from_an_end(expr, variable, *near, depth, exact_ends):
                return (a, inner) if end == b else (inner, b)
    return None


def _nonnegative_at(expr, variable, x: Fraction, exact_ends: dict | None = None) -> bool:
    """expr(x) ≥ 0 at one exact point: an exact zero, or a ball whose lower end is ≥ 0 (at the
    exact irrational end that ``exact_ends`` gives for x, when it gives one)."""
    point = (exact_ends or {}).get(x)
    if point is None:
        point = _rational(x)
    if is_zero(expr.subs(variable, point)):
        return True
    function = _ball_function(expr, variable, (x, x))
    if function is None:
        return False
    try:
        return bool(function(exact(x) if point.is_Rational else constant_ball(point)) >= 0)
    except (CertificationError, ValueError, ZeroDivisionError):
        return False


def _prove(expr, variable, a: Fraction, b: Fraction):

    function = _ball_function(expr, variable, (a, b))
    if function is None:
        return None
    return prove_geq(function, constant(0), a, b, max_evaluations=PROVER_EVALUATIONS, strict=False)


def exact_zero_in_stall(expr, variable, low: Fraction, high: Fraction) -> sympy.Rational | None:
    """An exact zero of ``expr`` where the prover of expr ≥ 0 stalls (an end, or the simplest
    rational of the stalled interval), or None: a strict inequality fails there."""
    for point in (low, high):
        if is_zero(expr.subs(variable, _rational(point))):
            return _rational(point)
    result = _prove(expr, variable, low, high)
    if result is None or result.stall is None:
        return None
    zero = _touching_point(expr, variable, low, high, _stalled(result))
    return None if zero is None else _rational(zero)


def _stalled(result) -> tuple[Fraction, Fraction]:
    """The prover's smallest stalled interval, as exact Fractions of its balls' midpoints."""
    low, high = result.stall
    return Fraction(low.mid().str(40, radius=False)), Fraction(high.mid().str(40, radius=False))


def _exact_midpoint(ball: arb) -> Fraction:
    """The midpoint of ``ball``, a dyadic number, exactly."""
    mantissa, exponent = ball.mid().man_exp()
    mantissa, exponent = int(mantissa), int(exponent)
    return Fraction(mantissa * 2**exponent) if exponent >= 0 else Fraction(mantissa, 2**-exponent)


def _rational(value: Fraction) -> sympy.Rational:
    return sympy.Rational(value.numerator, value.denominator)


def _ball_function(expr, variable, box: tuple[Fraction, Fraction]):
    """t -> ball of ``expr``.  √, acos and asin are clamped to their domains when SymPy proves,
    exactly, that their arguments stay in them on ``box`` (1 − ρ² ≥ 0 on [−1, 1]): a ball of ρ near
    ±1 sticks out of the domain by rounding alone, which made every proof near ρ = 1 stall."""

    clamped = _domains_proved(expr, variable, box)
    backend = RealBackend(clamped=clamped)
    try:
        plain = compile_expression(expr, variable, backend)
    except (CertificationError, ValueError, TypeError):
        return None
    try:
        slope = compile_expression(sympy.diff(expr, variable), variable, backend)
        curvature = compile_expression(sympy.diff(expr, variable, 2), variable, backend)
    except (CertificationError, ValueError, TypeError):
        return plain
    return _second_order_form(plain, slope, curvature)


def _second_order_form(f, slope, curvature):
    """t -> a ball of f on the ball t: the plain evaluation intersected with the second-order Taylor
    model f(c) + f'(c) h + f''(t) h^2/2 (h = t - c, c the midpoint; Taylor's theorem with the
    Lagrange remainder, which lies in f''(t)/2 times [0, r^2]).  A gap that nearly cancels (a
    bound tight to sixth order, cos m <= 1 - m^2/2 + m^4/24 - c m^6) loses its dependency there: the
    plain enclosure of such a gap is wider than the gap on every piece the prover makes."""

    def function(t):
        direct = f(t)
        radius = t.rad()
        if radius == 0:
            return direct
        centre = arb(t.mid())
        offset = t - centre
        square = arb(radius * radius / 2, radius * radius / 2)  # [0, r^2]
        model = f(centre) + slope(centre) * offset + curvature(t) * square / 2
        if not model.is_finite():
            return direct
        if not direct.is_finite():
            return model
        return direct.intersection(model)

    return function


def _domains_proved(expr, variable, box) -> bool:

    low, high = (_rational(v) for v in box)
    conditions = []
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, sympy.Pow) and node.exp.is_Rational and not node.exp.is_Integer:
            conditions.append((node.base, ">="))
        elif isinstance(node, sympy.acos | sympy.asin):
            conditions += [(1 - node.args[0], ">="), (node.args[0] + 1, ">=")]
    return all(symbolic_sign(argument, op, variable, low, high) for argument, op in conditions)


def _touching_point(expr, variable, a: Fraction, b: Fraction, stall) -> Fraction | None:
    lo, hi = stall
    candidates = [e for e in (a, b) if lo <= e <= hi]
    # The stall is where the budget ran out, not always at the touch (x**4/24 near 0 costs many
    # evaluations elsewhere), so the simplest rationals of the whole interval are tried too.
    # The prover stalls beside a touch as well as on it ([0.3333333333339, 0.3333333333358] for a
    # double root at 1/3), so the simplest rational of the stall widened by a few widths is tried.
    width = max(hi - lo, Fraction(1, 2**30))
    more = [_simplest_between(lo, hi), _simplest_between(lo - 4 * width, hi + 4 * width), a, b,
            _simplest_between(a, b)]
    candidates += [c for c in dict.fromkeys(more) if c is not None and a <= c <= b]
    for point in candidates[:7]:
        if is_zero(expr.subs(variable, _rational(point))):
            return point
    return None


def _simplest_between(lo: Fraction, hi: Fraction) -> Fraction | None:
    """The fraction with the smallest denominator in [lo, hi] (a few tries of limit_denominator)."""
    middle = (lo + hi) / 2
    for limit in (1, 2, 3, 4, 6, 8, 10, 12, 16, 100, 1000):
        candidate = middle.limit_denominator(limit)
        if lo <= candidate <= hi:
            return candidate
    return None


def is_zero(value: sympy.Expr) -> bool:
    """Exactly zero, as SymPy proves it (no numerical test)."""
    if value.is_zero:
        return True
    try:
        return sympy.simplify(value) == 0
    except (TypeError, ValueError, RecursionError):
        return False


def _settle(expr, variable, point: Fraction, a: Fraction, b: Fraction, depth: int):
    """((left, right), depth): a neighbourhood of the exact zero ``point`` inside [a, b] where
    expr ≥ 0 is proved by monotonicity: expr' ≥ 0 on [point, right] and −expr' ≥ 0 on
    [left, point], each proved by :func:`prove_touching` again (its own touching points through
    expr'', ...; at most MAX_ORDER deep), so a touch of any finite order is settled."""
    if depth >= MAX_ORDER:
        return None
    derivative = sympy.diff(expr, variable)
    for n in NEIGHBOURHOODS:
        delta = Fraction(1, 2**n)
        left, right = max(a, point - delta), min(b, point + delta)
        proofs = []
        if right > point:
            proofs.append(prove_touching(derivative, variable, point, right, depth + 1))
        if left < point:
            proofs.append(prove_touching(-derivative, variable, left, point, depth + 1))
        if all(p.proved for p in proofs):
            return (left, right), depth + 1
    return None


#: Angle neighbourhoods [0, A] of a touch at x = ±1 (x = ±cos θ), the largest first: the rest of
#: the interval is then far from the touch and easy for balls (cos 1 = 0.54, cos(1/4) = 0.969).
ANGLES = (Fraction(1), Fraction(1, 4))


def _angle_width(angle: Fraction) -> Fraction:
    """1 − cos(angle) rounded up: the widest x-neighbourhood of ±1 that angles in [0, angle] cover."""
    return Fraction(1 - math.cos(float(angle))) + Fraction(1, 10**12)


def _settle_by_angle(expr, variable, point: Fraction, a: Fraction, b: Fraction, depth: int):
    """A touch at x = ±1 where the derivative is singular (acos x, √(1 − x²): relu's K' at ρ = 1):
    x = ±cos θ turns acos(±cos θ) into θ or π − θ and √(1 − cos² θ) into sin θ (θ ∈ [0, π]), so the
    gap is analytic in θ at 0 and the monotonicity proof runs in θ on [0, A] (A in ANGLES); the
    x-side neighbourhood is [cos A, 1] (or its mirror), its inner end rounded to overlap the rest."""

    sign = 1 if point == 1 else -1
    theta = sympy.Symbol("theta", positive=True)
    angle = _in_angle(expr.subs(variable, sign * sympy.cos(theta)), theta)
    if angle is None:
        return None
    for largest in ANGLES:
        proof = prove_touching(angle, theta, Fraction(0), largest, depth + 1)
        if not proof.proved:
            continue
        inner = arb(largest.numerator) / largest.denominator
        edge = Fraction(inner.cos().upper().str(40, radius=False)) if sign == 1 else \
            Fraction((-inner.cos()).lower().str(40, radius=False))
        left, right = (max(a, edge), b) if sign == 1 else (a, min(b, edge))
        if not -1 <= left <= right <= 1 or point not in (left, right) or right - left > _angle_width(largest):
            # the neighbourhood must be inside [-1, 1], end at the touching point and be no wider
            # than the angles proved (1 - cos A): a guard against the wrong side or a wrong edge
            return None
        return (left, right), depth + 1
    return None


def _in_angle(expr, theta):
    """``expr`` (of x = sign·cos θ) with the inverse functions and the roots of q(1 − x²), q(1 ∓ x)
    (q > 0) resolved for θ ∈ [0, π];
    None when an inverse function or a root of something else remains."""
    cos = sympy.cos(theta)
    resolved = expr.replace(sympy.acos, lambda u: theta if u == cos else (sympy.pi - theta if u == -cos else
                                                                             sympy.acos(u)))
    resolved = resolved.replace(sympy.asin, lambda u: sympy.pi / 2 - theta if u == cos else
                                (theta - sympy.pi / 2 if u == -cos else sympy.asin(u)))

    half = theta / 2
    # √(q(1 − cos²θ)) = √q sin θ, √(q(1 − cos θ)) = √(2q) sin(θ/2), √(q(1 + cos θ)) = √(2q) cos(θ/2):
    # each sine and cosine is >= 0 for θ in [0, π], so these are the positive roots
    roots = ((1 - cos**2, lambda q: sympy.sqrt(q) * sympy.sin(theta)),
             (1 - cos, lambda q: sympy.sqrt(2 * q) * sympy.sin(half)),
             (1 + cos, lambda q: sympy.sqrt(2 * q) * sympy.cos(half)))

    def root(base, exponent):
        for factor, positive_root in roots:
            q = sympy.cancel(base / factor)
            if q.is_number and q.is_positive:
                return positive_root(q) ** exponent.p
        return base**exponent

    resolved = resolved.replace(lambda e: e.is_Pow and e.exp.is_Rational and e.exp.q == 2,
                                lambda e: root(e.base, e.exp))
    if resolved.has(sympy.acos, sympy.asin) or any(
            e.is_Pow and e.exp.is_Rational and e.exp.q == 2 and e.base.has(theta)
            for e in sympy.preorder_traversal(resolved)):
        return None
    return resolved


def _show(interval) -> str:
    return f"[{float(interval[0]):.17g}, {float(interval[1]):.17g}]"
