r"""Certified E[F(g)] of an F that switches branch at infinitely many points.

sign(cos g), Heaviside(sin g) and floor(g) jump on an infinite set, so no finite list of pieces
covers the line, and SymPy's integrate of them is wrong (red team 5). The line is cut at a
window [−W, W] instead:

- beyond it, |∫_{|x|>W} F φ| ≤ ∫_W^∞ (M₋(t) + M₊(t)) φ(t) dt, from growth majorants of |F| on
  each tail (:mod:`verify.certified.growth`, whose switch rules need no branch: |sign u| ≤ 1,
  |floor u| ≤ |u| + 1); W is the smallest integer at which that bound is within τ/4;
- inside, the switches are finitely many: the real roots in [−W, W] of every switch argument
  (SymPy's solveset on the bounded interval, accepted only as a finite set), and, for
  floor/ceiling/frac of u, the roots of u − n for every integer n in a ball enclosure of
  u([−W, W]) (a superset of the integers u crosses: the others have no root there);
- the pieces between consecutive points are smooth (:func:`verify.certified.pieces.resolve`
  at a sample point) and are integrated as those of a finitely-kinked body
  (:class:`verify.certified.gaussian.GaussianIntegrator`, its ``outside`` mode).

Trusted, as for :func:`verify.model.activations.kinks_of`: that solveset's finite set on the
window holds every root there.
"""

from __future__ import annotations

import sympy
from flint import arb

from verify.base.errors import MalformedExpressionError, clip
from verify.certified.compile import RealBackend, compile_expression, constant
from verify.certified.errors import CertificationError
from verify.certified.gaussian import EXTRA_DIGITS, MAX_CUTOFF, GaussianIntegrator, PiecewiseIntegrand
from verify.certified.growth import tail_majorant
from verify.certified.pieces import Piece, between_kinks, closed_pieces, resolve
from verify.certified.tails import TailMoments
from verify.model.activations import polynomial_roots_in, real_roots_in, switch_arguments

#: Most switch points a window may hold: sign(cos(10 g)) has about 80 in [−13, 13]; beyond a few
#: hundred the pieces' quadratures cost more than a claim's budget allows.
MAX_SWITCHES = 400
#: Subintervals of the window over which the argument of floor/ceiling/frac is enclosed.
RANGE_SPLITS = 64


def windowed_expectation(body, x, dps: int) -> arb:
    """A ball containing E[body(g)] at ``dps`` digits, for a body whose switches are located on a
    window only; CertificationError when a tail has no growth bound or a window's switch points
    are not a finite set found exactly."""
    majorants = (tail_majorant(body, x, -1, 1), tail_majorant(body, x, 1, 1))
    window = _window(majorants, dps)
    points = switch_points(*switch_arguments(body, x), x, -window, window)
    balls = [constant(sympy.sympify(p)) for p in (-window, *points, window)]
    # the pieces between the window's ends and the switch points (not the two beyond the window)
    pieces = tuple(Piece(low, high, resolve(body, x, sample))
                   for low, high, sample in list(between_kinks(balls))[1:-1])
    integrator = GaussianIntegrator(PiecewiseIntegrand(pieces, x), dps, 0, hermite=False, outside=majorants)
    return integrator.integral(0)


def _window(majorants, dps: int) -> int:
    """The smallest integer W ≥ 1 at which both tails beyond W are within τ/4 = 10^-(dps+3)/4."""
    budget = arb(10) ** (-(dps + EXTRA_DIGITS)) / 4
    for window in range(1, MAX_CUTOFF + 1):
        moments = TailMoments(window)
        if sum((moments.bound(m) for m in majorants), arb(0)).upper() <= budget:
            return window
    raise CertificationError(f"the growth bounds do not make the Gaussian tails smaller than "
                             f"1e-{dps + EXTRA_DIGITS} for |x| <= {MAX_CUTOFF}")


def switch_points(switching, stepping, x, low, high) -> list:
    """Every point of the open interval (``low``, ``high``) (exact ends) where a branch may
    switch, exact and in order: the roots there of each ``switching`` argument, and of u − n for
    each ``stepping`` argument u and integer n its enclosure over the interval reaches
    (:func:`verify.model.activations.switch_arguments`)."""
    inside = sympy.Interval.open(low, high)
    switching = list(switching)
    for u in stepping:
        switching.extend(u - n for n in _integers_reached(u, x, low, high))
    points = set()
    try:
        for g in switching:
            points.update(_roots_inside(g, x, inside))
            if len(points) > MAX_SWITCHES:
                raise CertificationError(f"more than {MAX_SWITCHES} switch points in ({low}, {high})")
    except (MalformedExpressionError, TypeError, ValueError, NotImplementedError) as exc:
        # solveset giving up inside its own algebra ("Invalid comparison of non-real" for the
        # roots of log(x)**3 - 3*log(x) + 1, red team 6) locates nothing: no piece may be trusted
        raise CertificationError(f"cannot locate the switches in ({low}, {high}): {clip(exc, 80)}") from None
    return sorted(points, key=lambda r: float(r))


def branches_between(switches, x, low, high, max_pieces: int) -> tuple[list, list]:
    """(the switch points of ``switches`` inside (low, high), and for each closed piece between them
    (the branch of each switch there, its low end, its high end)); the pieces are [] when there
    would be more than ``max_pieces`` (their branches are not read then); CertificationError when
    the points are not located.  Shared by the branches step and the integrals split at switches."""
    points = switch_points(*switch_arguments(sympy.Tuple(*switches), x), x, low, high)
    if len(points) + 1 > max_pieces:
        return points, []
    return points, [({n: resolve(n, x, sample) for n in switches}, a, b)
                    for a, b, sample in closed_pieces([low, *points, high])]


def _roots_inside(g, x, inside) -> set:
    """The real roots of g in the open window: a polynomial's through its real roots (radicals or
    CRootOf, exact; solveset takes seconds for each n of floor(g**2) = n), anything else by solveset."""
    if g.is_polynomial(x) and sympy.Poly(g, x).domain in (sympy.ZZ, sympy.QQ):
        return polynomial_roots_in(g, x, inside)
    return real_roots_in(g, x, inside)  # x - sqrt(2): real_roots() takes rational coefficients only


def _integers_reached(u, x, low, high) -> range:
    """The integers between the lower and upper ends of a ball enclosure of u over [low, high]."""
    evaluate = compile_expression(u, x, RealBackend())
    start, end = constant(sympy.sympify(low)), constant(sympy.sympify(high))
    step = (end - start) / RANGE_SPLITS
    low_end = high_end = None
    for i in range(RANGE_SPLITS):
        part = evaluate((start + i * step).union(start + (i + 1) * step))
        if not part.is_finite():
            raise CertificationError(f"{u} is not bounded on [{low}, {high}]")
        low_end = part.lower() if low_end is None else low_end.min(part.lower())
        high_end = part.upper() if high_end is None else high_end.max(part.upper())
    first, last = int(low_end.floor().unique_fmpz()), int(high_end.ceil().unique_fmpz())
    if last - first > MAX_SWITCHES:
        raise CertificationError(f"{u} crosses more than {MAX_SWITCHES} integers on [{low}, {high}]")
    return range(first, last + 1)
