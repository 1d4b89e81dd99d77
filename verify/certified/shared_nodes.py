r"""∫_a^b F(x) h_p(x) φ(x) dx for every p < P at once: one Gauss–Legendre subdivision shared by all p.

:func:`flint.acb.integral`, called once per degree p, subdivides [−R, R] anew for each p and
evaluates F at every node each time.  Here one subdivision of each piece is certified for all
p < P together, F is evaluated once per node, and the sums Σ_k v_k He_p(x_k) are formed for
every p from the moments of the nodes.  The result is a ball around each integral, with a
complete error bound; when no subdivision is found within :data:`MAX_INTERVALS` subintervals
of half-width ≥ :data:`MIN_HALF_WIDTH` (F has a pole or a branch point too close to the real
segment), :func:`shared_integrals` returns None and the caller falls back to one
:func:`flint.acb.integral` per p.

The quadrature error (Gauss–Legendre on an ellipse)
---------------------------------------------------
On a subinterval [c − r, c + r], with f(t) = F(c + rt) h_p(c + rt) φ(c + rt), the n-point rule
Q_n f = Σ_k w_k f(t_k) (nodes t_k ∈ (−1, 1), weights w_k > 0, Σ w_k = 2, exact for degree
≤ 2n − 1, symmetric) satisfies, for n ≥ 2,

    |∫_{−1}^{1} f − Q_n f| ≤ (64/15) M ρ^{2−2n}/(ρ² − 1),                               (GL)

when f is holomorphic on a neighbourhood of the closed Bernstein ellipse E_ρ = {(ρe^{iθ} +
ρ^{−1}e^{−iθ})/2} with its interior (ρ > 1) and |f| ≤ M there.  Proof: f's Chebyshev
coefficients obey |a_k| ≤ 2Mρ^{−k} (Trefethen, *Approximation Theory and Approximation
Practice*, Thm 8.1), so f = Σ a_k T_k converges absolutely and uniformly on [−1, 1] and the
error functional E = ∫ − Q_n passes through the sum; E(T_k) = 0 for k ≤ 2n − 1 (exactness)
and for odd k (both parts vanish on odd functions); for even k ≥ 2n ≥ 4,
|E(T_k)| ≤ |∫T_k| + Σ w_k = 2/(k² − 1) + 2 ≤ 32/15.  Summing 2Mρ^{−k}·32/15 over even
k ≥ 2n gives (GL).  The integral over [c − r, c + r] is r times that over [−1, 1].

The hypotheses, proved for each subinterval and each ρ tried
------------------------------------------------------------
The ellipse c + r·E_ρ (semi-axes a = r(ρ + ρ⁻¹)/2, b = r(ρ − ρ⁻¹)/2, ρ rational) is covered by
a grid of closed rectangles over [c − a, c + a] × [−b, b] (each evaluated as the hull of its
grid lines' balls, so it contains the exact rectangle); a rectangle is left out only when it
misses the ellipse, decided exactly in rationals (the quadratic form ((x − c)/a)² + (y/b)² is
smallest on a rectangle at the coordinate-wise clamp of (c, 0)).

- *Holomorphy*: F's evaluator (:mod:`verify.certified.compile`, with removable singularities
  through :mod:`verify.certified.removable`) is called on every rectangle with
  ``analytic=True``; its contract, the one :func:`flint.acb.integral` relies on, is a
  non-finite ball unless F is holomorphic on the whole rectangle.  One non-finite rectangle
  rejects this ρ (a pole inside the ellipse can never give a false bound).  h_p and φ are entire.
- *The bound M*: for z = x + iy in a column x ∈ [x₀, x₁] of the grid (|y| ≤ b),
  |φ(z)| = e^{−(x² − y²)/2}/√(2π) ≤ e^{(b² − d²)/2}/√(2π) with d = min |x| on the column, and
  |He_p(z)| ≤ He⁺_p(u), u² = max(x₀², x₁²) + b², by the triangle inequality on
  He_p = Σ_k (−1)^k p!/(k!(p − 2k)! 2^k) x^{p−2k}, where He⁺_p (the same coefficients without
  signs, :func:`verify.certified.tails.hermite_weight`) is increasing on [0, ∞) and obeys
  He⁺_{p+1}(u) = u He⁺_p(u) + p He⁺_{p−1}(u).  M is the largest over the rectangles of
  |F(rectangle)|·max_{p<P} He⁺_p(u)/√p!·e^{(b² − d²)/2}/√(2π), all in ball arithmetic (upper
  endpoints), so it bounds |F h_p φ| on the ellipse for every p < P.

Each subinterval is given the error budget ε·r/R_total (ε = the caller's budget, R_total = the
sum of the half-lengths of all pieces); the degree n is the smallest of :data:`DEGREES` whose
(GL) bound, evaluated in balls, meets it.  A subinterval with no ρ of :data:`RHOS` that meets
it with n ≤ max(DEGREES) is bisected.

The sums (rounding)
-------------------
Nodes and weights are Arb's enclosures of the Legendre roots and Gauss weights
(:meth:`flint.arb.legendre_p_root`).  With v_k = w_k F(x_k) e^{−x_k²/2}, x_k = c + r t_k, the
sums S_p = Σ_k v_k He_p(x_k) for all p < P come from He_p's Taylor expansion at c (He_p' = p
He_{p−1}, so He_p(c + y) = Σ_j C(p, j) He_{p−j}(c) y^j, an identity):

    S_p = p! Σ_j (r^j m_j/j!)·(He_{p−j}(c)/(p − j)!),   m_j = Σ_k v_k t_k^j,

the moments m_j as one matrix product (t_k^j cached per n) and the convolution as one
polynomial product.  The shift's terms can be far larger than He_p where F φ is large (a wide
subinterval, high p), and the ball then wider than its share of the budget; that subinterval's
sums are then formed by the recurrence He_{p+1} = x He_p − p He_{p−1} at each node instead.
Every step is ball arithmetic, so the ball contains the rule's exact value; the subinterval's
integral of F h_p φ is r S_p/(√p! √(2π)) ± its (GL) bound.
F(x_k) is taken as the real part of its ball after checking that the imaginary part contains
0 (else None: the caller's own route refuses a non-real F with its message).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction

from flint import acb, arb, arb_mat, arb_poly, ctx

from verify.certified.balls import dyadic, exact, interval

#: Gauss–Legendre sizes n tried on a subinterval, smallest first (nodes cached per precision).
DEGREES = (4, 6, 8, 10, 12, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 112, 128)
#: Ellipse parameters ρ tried on a subinterval, largest first (rationals: the ellipse's
#: semi-axes stay exact, so whether a grid rectangle misses it is decided exactly).
RHOS = tuple(Fraction(v) for v in ("16", "10", "7", "5", "4", "3", "5/2", "2", "7/4", "3/2", "4/3", "6/5"))
#: Subintervals allowed in all before giving up (the caller then integrates p by p).
MAX_INTERVALS = 400
#: Smallest half-width bisected to: a pole within ~1/64 of the segment is the fallback's job.
MIN_HALF_WIDTH = Fraction(1, 64)
#: Rows of the grid of rectangles covering an ellipse; columns follow its aspect ratio.
ROWS = 6
MAX_COLUMNS = 32
#: Working bits for the bounds M: they need a few correct digits, not the result's precision.
BOUND_BITS = 64


@dataclass(frozen=True)
class Interval:
    """A certified subinterval [c − r, c + r]: n nodes, and the (GL) bound ``error`` (valid for
    every p < P) of its n-point rule, proved on the ellipse of parameter ``rho``."""

    center: Fraction
    radius: Fraction
    nodes: int
    rho: Fraction
    error: arb


def shared_integrals(evaluators, bounds, terms: int, budget: arb) -> list[arb] | None:
    """Balls containing ∫ F h_p φ over the union of the pieces, for p < ``terms``.

    ``evaluators[i](z, analytic)`` is F on the piece with exact endpoints ``bounds[i]`` (balls of
    radius 0); ``budget`` bounds the total quadrature error added to every ball.  None when
    some piece has no certified subdivision within :data:`MAX_INTERVALS` or F is not real
    at a node (see the module docstring)."""
    segments = [(dyadic(low), dyadic(high)) for low, high in bounds]
    total_half = sum(((high - low) / 2 for low, high in segments), Fraction(0))
    if total_half <= 0:
        return None
    plans = []
    for evaluator, (low, high) in zip(evaluators, segments, strict=True):
        plan = subdivide(evaluator, low, high, terms, budget, total_half)
        if plan is None:
            return None
        plans.append(plan)
    count = sum(len(plan) for plan in plans)
    allowance = budget / count  # for the rounding of each subinterval's sums (see _rule_sums)
    scales = [1 / (arb.fac_ui(p) * 2 * arb.pi()).sqrt() for p in range(terms)]
    sums = [arb(0)] * terms
    error = arb(0)
    for evaluator, plan in zip(evaluators, plans, strict=True):
        for piece in plan:
            part = _rule_sums(evaluator, piece, scales, allowance)
            if part is None:
                return None
            sums = [s + v for s, v in zip(sums, part, strict=True)]
            error += piece.error
    radius = error.upper()
    return [s + arb(0, radius) for s in sums]


def subdivide(evaluator, low: Fraction, high: Fraction, terms: int, budget: arb,
              total_half: Fraction) -> list[Interval] | None:
    """Certified subintervals of [low, high] (see the module docstring), or None."""
    if high <= low:
        return [] if high == low else None
    pending = [(low, high)]
    done: list[Interval] = []
    tries = 0
    while pending:
        a, b = pending.pop()
        center, radius = (a + b) / 2, (b - a) / 2
        tries += 1
        if tries > 2 * MAX_INTERVALS:
            return None
        piece = _certify(evaluator, center, radius, terms, budget * exact(radius / total_half))
        if piece is not None:
            done.append(piece)
            continue
        if radius / 2 < MIN_HALF_WIDTH or len(done) + len(pending) + 2 > MAX_INTERVALS:
            return None
        pending += [(center, b), (a, center)]
    return done


def _certify(evaluator, center: Fraction, radius: Fraction, terms: int, budget: arb) -> Interval | None:
    """The fewest nodes n on [center ± radius] over the ρ of :data:`RHOS`, or None."""
    best: Interval | None = None
    with ctx.workprec(BOUND_BITS):
        for rho in RHOS:
            bound = ellipse_bound(evaluator, center, radius, rho, terms,
                                  _largest_bound(radius, rho, budget))
            if bound is None:
                if best is not None:
                    break
                continue
            found = _fewest_nodes(radius, rho, bound, budget)
            if found is None:
                if best is not None:
                    break
                continue
            nodes, error = found
            if best is not None and nodes >= best.nodes:
                break
            best = Interval(center, radius, nodes, rho, error)
    return best


def _error_bound(radius: Fraction, rho: Fraction, bound: arb, nodes: int) -> arb:
    """(GL) times the half-width: r (64/15) M ρ^{2−2n}/(ρ² − 1), an upper bound as a ball."""
    q = exact(rho)
    return exact(radius) * 64 * bound * q ** (2 - 2 * nodes) / (15 * (q * q - 1))


def _largest_bound(radius: Fraction, rho: Fraction, budget: arb) -> arb:
    """The M above which even max(DEGREES) nodes miss ``budget`` (to stop evaluating early)."""
    return budget / _error_bound(radius, rho, arb(1), DEGREES[-1]).upper()


def _fewest_nodes(radius: Fraction, rho: Fraction, bound: arb, budget: arb) -> tuple[int, arb] | None:
    if bound == 0:
        return DEGREES[0], arb(0)
    # the first n worth checking, from a float estimate; each candidate is then checked in balls
    excess = float((_error_bound(radius, rho, bound, 1).upper() / budget).log())
    estimate = 1 + excess / (2 * math.log(rho))
    for nodes in DEGREES:
        if nodes < estimate:
            continue
        error = _error_bound(radius, rho, bound, nodes).upper()
        if error <= budget:
            return nodes, arb(error)
    return None


def ellipse_bound(evaluator, center: Fraction, radius: Fraction, rho: Fraction, terms: int,
                  limit: arb | None = None) -> arb | None:
    """An upper bound M of |F h_p φ| for every p < ``terms`` on the ellipse c + r·E_ρ, with F
    proved holomorphic there (see the module docstring); None when some rectangle's value is
    not finite (F may have a singularity inside) or exceeds ``limit``."""
    semi_major = radius * (rho + 1 / rho) / 2
    semi_minor = radius * (rho - 1 / rho) / 2
    columns = min(MAX_COLUMNS, max(2, math.ceil(ROWS * semi_major / semi_minor / 2)))
    # grid lines as balls: a rectangle spanned by two of them (interval) covers the exact one
    c, a, b = exact(center), exact(semi_major), exact(semi_minor)
    unit_xs, unit_ys = _unit_lines(columns)
    xs = [c + a * t for t in unit_xs]
    row_balls = [interval(b * unit_ys[j], b * unit_ys[j + 1]) for j in range(ROWS)]
    largest = arb(0)
    for i, rows in _grid(columns):
        column = interval(xs[i], xs[i + 1])
        weight = None
        for j in rows:
            value = evaluator(acb(column, row_balls[j]), True)
            if not value.is_finite():
                return None
            if weight is None:
                weight = _weight_bound(xs[i], xs[i + 1], b, terms)
            size = (abs(value) * weight).upper()
            if limit is not None and size > limit:
                return None
            largest = largest.max(size)
    return largest


@functools.lru_cache(maxsize=64)
def _unit_lines(columns: int) -> tuple[tuple[arb, ...], tuple[arb, ...]]:
    """The grid lines 2i/columns − 1 and 2j/ROWS − 1 as balls (:data:`BOUND_BITS`)."""
    with ctx.workprec(BOUND_BITS):
        return (tuple(exact(Fraction(2 * i, columns) - 1) for i in range(columns + 1)),
                tuple(exact(Fraction(2 * j, ROWS) - 1) for j in range(ROWS + 1)))


@functools.lru_cache(maxsize=64)
def _inverse_root_factorials(terms: int) -> tuple[arb, ...]:
    """1/√p! for p < ``terms`` (:data:`BOUND_BITS`)."""
    with ctx.workprec(BOUND_BITS):
        return tuple(1 / arb.fac_ui(p).sqrt() for p in range(terms))


@functools.lru_cache(maxsize=64)
def _grid(columns: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(column, rows) of the rectangles of a ``columns`` × :data:`ROWS` grid over the ellipse's
    bounding box that meet the closed ellipse, decided exactly in the unit coordinates
    ((x − c)/a, y/b) where the ellipse is the unit disc: a rectangle misses it when its point
    nearest the origin (the coordinate-wise clamp of 0) lies outside.  Columns from the centre
    out, rows from the top and bottom in (a pole near the ellipse shows there first)."""
    xs = [Fraction(2 * i, columns) - 1 for i in range(columns + 1)]
    ys = [Fraction(2 * j, ROWS) - 1 for j in range(ROWS + 1)]

    def nearest(low, high):
        return min(max(Fraction(0), low), high)

    order = sorted(range(columns), key=lambda i: abs(xs[i] + xs[i + 1]))
    rows = sorted(range(ROWS), key=lambda j: -max(abs(ys[j]), abs(ys[j + 1])))
    return tuple((i, tuple(j for j in rows
                           if nearest(xs[i], xs[i + 1]) ** 2 + nearest(ys[j], ys[j + 1]) ** 2 <= 1))
                 for i in order)


def _weight_bound(x0: arb, x1: arb, height: arb, terms: int) -> arb:
    """A ball whose upper end bounds |h_p(z) φ(z)| for p < ``terms`` on the column
    [x0, x1] × [−b, b]: max_p He⁺_p(u)/√p! · e^{(b² − d²)/2}/√(2π), u² = max(x0², x1²) + b²,
    d ≤ min |x| on the column (d = 0 unless the column certainly lies on one side of 0)."""
    far = abs(x0).max(abs(x1))
    u = (far * far + height * height).sqrt()
    d = x0 if x0 > 0 else -x1 if x1 < 0 else arb(0)
    scales = _inverse_root_factorials(terms)
    previous, current, largest = arb(0), arb(1), arb(1)
    for p in range(1, terms):
        previous, current = current, u * current + (p - 1) * previous  # He⁺_p(u)
        largest = largest.max(current * scales[p])
    return largest * ((height * height - d * d) / 2).exp() / (2 * arb.pi()).sqrt()


@functools.lru_cache(maxsize=64)
def gauss_legendre(nodes: int, prec: int) -> tuple[tuple[arb, ...], tuple[arb, ...]]:
    """Balls containing the n Gauss–Legendre nodes on [−1, 1] and their weights, at ``prec``
    bits (Arb's enclosures; the rule is symmetric, so half of them are computed)."""
    with ctx.workprec(prec):
        half = [arb.legendre_p_root(nodes, k, weight=True) for k in range((nodes + 1) // 2)]
    points = [x for x, _ in half] + [-x for x, _ in reversed(half[: nodes // 2])]
    weights = [w for _, w in half] + [w for _, w in reversed(half[: nodes // 2])]
    return tuple(points), tuple(weights)


@functools.lru_cache(maxsize=24)
def _powers(nodes: int, rows: int, prec: int) -> arb_mat:
    """The matrix (t_k^j), j < ``rows``, of the n-point rule's nodes, at ``prec`` bits."""
    points, _ = gauss_legendre(nodes, prec)
    with ctx.workprec(prec):
        table = [[arb(1)] * nodes]
        for _ in range(1, rows):
            table.append([a * t for a, t in zip(table[-1], points, strict=True)])
        return arb_mat(table)


def _rule_sums(evaluator, piece: Interval, scales: list[arb], allowance: arb) -> list[arb] | None:
    """r Σ_k w_k F(x_k) h_p(x_k) φ(x_k) for p < len(``scales``) = 1/√(p! 2π): the n-point rule on
    one subinterval (module docstring).  Through the Taylor shift of He_p at the centre first;
    where that loses too much (a ball wider than ``allowance``: the shift's terms can be far
    larger than He_p where F φ is large, on a wide subinterval at high p), through the
    recurrence He_{q+1} = x He_q − q He_{q−1} at every node."""
    prec = ctx.prec
    points, weights = gauss_legendre(piece.nodes, prec)
    center, radius = exact(piece.center), exact(piece.radius)
    nodes, values = [], []
    for t, w in zip(points, weights, strict=True):
        x = center + radius * t
        value = evaluator(acb(x), False)
        if not value.is_finite() or not value.imag.contains(0):
            return None
        nodes.append(x)
        values.append(radius * w * value.real * (-(x * x) / 2).exp())
    sums = _shifted_sums(piece, values, scales)
    if all(s.rad() <= allowance for s in sums):
        return sums
    return _node_sums(nodes, values, scales)


def _shifted_sums(piece: Interval, values: list[arb], scales: list[arb]) -> list[arb]:
    """Σ_k v_k He_p(x_k)·scale_p through S_p = p! Σ_j (r^j m_j/j!)(He_{p−j}(c)/(p − j)!),
    m_j = Σ_k v_k t_k^j (one matrix product) and one polynomial product."""
    terms = len(scales)
    center, radius = exact(piece.center), exact(piece.radius)
    # rows rounded up to a multiple of 16: one cached matrix serves nearby numbers of terms
    moments = _powers(piece.nodes, -(-terms // 16) * 16, ctx.prec) * arb_mat([[v] for v in values])
    scaled, taylor = [], []  # r^j m_j / j!  and  He_i(c)/i!
    power, previous, current = arb(1), arb(0), arb(1)
    for j in range(terms):
        scaled.append(moments[j, 0] * power)
        power = power * radius / (j + 1)
        taylor.append(current)
        previous, current = current, (center * current - previous) / (j + 1)
    product = arb_poly(scaled) * arb_poly(taylor)
    return [product[p] * arb.fac_ui(p) * scale for p, scale in enumerate(scales)]


def _node_sums(nodes: list[arb], values: list[arb], scales: list[arb]) -> list[arb]:
    """Σ_k v_k He_p(x_k)·scale_p, He_p(x_k) by its recurrence at each node."""
    sums = [arb(0)] * len(scales)
    for x, v in zip(nodes, values, strict=True):
        previous, current = arb(0), v
        for p in range(len(scales)):
            sums[p] += current
            previous, current = current, x * current - p * previous
    return [s * scale for s, scale in zip(sums, scales, strict=True)]


__all__ = ["DEGREES", "Interval", "RHOS", "ellipse_bound", "gauss_legendre", "shared_integrals", "subdivide"]
