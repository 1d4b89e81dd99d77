r"""Certified h(m) and Φ(m) of an instance, at a point or over an interval of m.

The formulas are those of :mod:`verify.model.population` (Appendix D.1, derived there), evaluated
by that module's :class:`~verify.model.population.Population` in ball arithmetic:

    ρ_ij(m) = (G_ij + ξ² c_i ĉ_j m)/(n_i n̂_j),   n_i = √(D + ξ² c_i²),  n̂_j = √(D + ξ² ĉ_j²),
    h(m) = 2 ξ² Σ_ij λ_i λ_j c_i ĉ_j K'(ρ_ij(m))/(n_i n̂_j),
    Φ(m) = Σ_ij λ_i λ_j [K(ρ^tt_ij) + K(ρ^ss_ij) − 2 K(ρ_ij(m))],

with D = 1 (Assumption 1; D = 0 for the scratch/GLM instances, W = 0).

The certified instance.  λ, c, ĉ, ξ, m and the off-diagonal G_ij are the stored float64
numbers, taken exactly; the diagonal is G_ii = D exactly (the value the row norms already
use), not its float rounding.  Then |ρ_ij(m)| ≤ 1 is a theorem whenever |G_ij| ≤ D and
|m| ≤ 1 (Cauchy–Schwarz in R²: G_ij + ξ²c_iĉ_jm = ⟨(√D, ξc_i), (G_ij/√D, ξĉ_jm)⟩), which is
checked, so the kernels may clamp ρ to [−1, 1] (:mod:`verify.certified.kernels`).

Interval evaluation.  Every function here accepts a ball m and returns a ball containing the
value at every m in it; :func:`enclose_on_interval` takes the union over 2^depth equal
subintervals, which shrinks the overestimation of plain ball evaluation (the sum over pairs
loses the correlation between its terms) linearly with their width.
"""

from __future__ import annotations

import numpy as np
from flint import arb

from verify.base.errors import InvalidParameterError
from verify.base.identity_memo import IdentityMemo
from verify.certified.balls import BALLS, exact, interval, working_precision
from verify.certified.kernels import certified_kernel
from verify.model.instance import Numbers
from verify.model.population import Population


class CertifiedPopulation:
    """h and Φ of one instance in ball arithmetic, at ``dps`` digits.

    ``gram`` replaces the stored Gram matrix (off-diagonal entries, taken exactly): a float64
    array, e.g. ``numpy.eye(k)`` for the exact orthonormal rows of Assumption 4, whose float64
    Gram matrix carries rounding of ~1e-17 off the diagonal, or nested rows of balls, e.g.
    Claim 2's exact ±1/k (:meth:`verify.claims.model.Model.ball_view`), which no double holds.

    Construct, and call :meth:`h` and :meth:`loss`, inside
    :func:`~verify.certified.balls.working_precision` (``dps``) — or use :func:`certified_population`.
    """

    def __init__(self, instance, dps: int = 30, kernel=None, gram=None):
        self.instance, self.dps = instance, dps
        self.kernel = kernel if kernel is not None else certified_kernel(instance.activation, dps)
        k = instance.k
        diag = exact(instance.row_norm2)
        rows = instance.gram if gram is None else gram
        if np.shape(rows) != (k, k) and not (len(rows) == k and all(len(r) == k for r in rows)):
            raise InvalidParameterError(f"gram must be {k} x {k}, got shape {np.shape(rows)}")
        g = _checked_gram(rows, diag, instance.row_norm2, k)
        numbers = Numbers(k, instance.xi, instance.activation, instance.lam, instance.c, instance.c_hat, g,
                          bool(getattr(instance, "scratch", False)))
        self._population = Population(numbers, BALLS, self.kernel)

    @property
    def self_terms(self) -> arb:
        """Σ_ij λ_iλ_j [K(ρ^tt_ij) + K(ρ^ss_ij)]: computed on first use (h never needs it)."""
        return self._population.self_terms

    def h(self, m: arb) -> arb:
        """A ball containing h(m') for every m' in the ball ``m`` ∩ [−1, 1]."""
        return self._population.h(_overlap(m))

    def loss(self, m: arb) -> arb:
        """A ball containing Φ(m') for every m' in the ball ``m`` ∩ [−1, 1]."""
        return self._population.loss(_overlap(m))


#: The grams checked, by identity: every redraw of c and ĉ of one instance shares its G.
_CHECKED = IdentityMemo()


def _checked_gram(rows, diag: arb, row_norm2, k: int) -> tuple:
    """G as balls with G_ii = D exactly, after checking |G_ij| ≤ D off the diagonal."""

    def check() -> tuple:
        g = tuple(tuple(diag if i == j else _entry(rows[i][j]) for j in range(k)) for i in range(k))
        for i in range(k):
            for j in range(k):
                if i != j and not abs(g[i][j]) <= diag:
                    raise InvalidParameterError(
                        f"gram[{i},{j}] = {g[i][j]} exceeds the row norm {row_norm2} in size: not "
                        "the Gram matrix of the instance's rows, so |rho| <= 1 is not guaranteed")
        return g

    return _CHECKED(rows, (diag.mid(), diag.rad(), k), check)


def _entry(value) -> arb:
    """An off-diagonal Gram entry as a ball: a ball, Fraction or int as given, a float64 as its
    exact binary value (the stored instance's number, which the float path reads too)."""
    if isinstance(value, arb):
        return value
    return exact(value if not hasattr(value, "dtype") else float(value))


def _overlap(m) -> arb:
    """m as a ball meeting [−1, 1] (m = ⟨u, û⟩ of unit vectors).

    A ball that sticks out of [−1, 1] stands for its intersection with [−1, 1]: the results
    enclose the values at those m, because the kernels clamp ρ to [−1, 1], which contains
    ρ_ij(m) for every admissible m."""
    ball = exact(m)
    if ball.lower() > 1 or ball.upper() < -1 or abs(ball.mid()) > 1:
        raise InvalidParameterError(f"m must lie in [-1, 1] (it is the overlap <u, u_hat>), got {ball}")
    return ball


def certified_population(instance, dps: int = 30, gram=None) -> CertifiedPopulation:
    """A :class:`CertifiedPopulation` built at ``dps``'s working precision."""
    with working_precision(dps):
        return CertifiedPopulation(instance, dps, gram=gram)


def enclose_on_interval(function, low, high, depth: int = 6) -> arb:
    """A ball containing function(m) for all m in [low, high]: the union of its values on
    2^depth equal subintervals (exact dyadic cut points when low and high are floats)."""
    a, b = exact(low), exact(high)
    if b < a:
        raise InvalidParameterError(f"empty interval [{low}, {high}]")
    parts = 2**depth
    width = (b - a) / parts
    cuts = [a + width * i for i in range(parts)] + [b]
    result = None
    for left, right in zip(cuts[:-1], cuts[1:], strict=True):
        value = function(interval(left, right))
        result = value if result is None else result.union(value)
    assert result is not None
    return result
