r"""Gaussian quadrature building blocks shared by the Hermite and kernel engines.

All integrals here are against the standard normal density φ and are split at
the integrand's kinks, where tanh-sinh keeps its doubly exponential
convergence because kinks become interval endpoints.

Tanh-sinh rules are nested: the level-L rule uses the nodes of levels 1…L,
each with weight w·2^{−L} (mpmath's ``sum_next`` in closed form), so a level-L
evaluation yields the level-(L−1) estimate for free; the differences between
levels drive the error estimate (:func:`extrapolated_error`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import mpmath

GUARD_DIGITS = 15  # working digits beyond the requested ones
ASSUMED_ORDER = 1.5  # digits gained per tanh-sinh level, at least (see extrapolated_error)


def breakpoints(kinks: Sequence) -> list:
    """[-∞, k_1, …, k_n, ∞] as mpf at the current precision (kinks may be SymPy numbers)."""
    digits = mpmath.mp.dps + 5
    inner = [mpmath.mpf(k.evalf(digits)) if hasattr(k, "evalf") else mpmath.mpf(k) for k in kinks]
    return [mpmath.ninf, *inner, mpmath.inf]


def integration_intervals(kinks: Sequence) -> list[tuple]:
    """(-∞, k_1), (k_1, k_2), …, (k_n, ∞)."""
    points = breakpoints(kinks)
    return list(zip(points[:-1], points[1:], strict=True))


def gaussian_expectation(f: Callable, kinks: Sequence, dps: int) -> tuple:
    """(E[f(g)], error estimate) for g ~ N(0,1), split at ``kinks`` (mpmath.quad)."""
    with mpmath.workdps(dps + GUARD_DIGITS):
        c = 1 / mpmath.sqrt(2 * mpmath.pi)
        value, error = mpmath.quad(
            lambda t: f(t) * mpmath.exp(-t * t / 2) * c, breakpoints(kinks), error=True
        )
    return value, error


def extrapolated_error(s0, s1, s2, rounding, digits: int):
    """Error of the newest tanh-sinh estimate s0 given the two before (s1, s2).

    Tanh-sinh roughly squares its error per level; mpmath estimates the error
    of s0 as 10^max(D1²/D2, 2·D1), with D1, D2 the log10 of |s0 − s1| and
    |s0 − s2|.  Measured sequences here gain less: a 2-D kernel integral went
    1.6e-8 → 1.5e-15 → 2.9e-26, where mpmath's rule predicts 1e-28.  So the
    assumed order is capped at 1.5: 10^max(D1²/D2, 1.5·D1), and it is used
    only once half of the wanted ``digits`` agree between consecutive levels
    (|s0 − s1| < 10^(−digits/2)).  Before that the plain difference |s0 − s1|
    is returned.  ``rounding`` is added in every case.
    """
    ctx = mpmath.mp
    d1, d2 = abs(s0 - s1), abs(s0 - s2)
    if d1 == 0:
        return rounding
    if d2 == 0 or d2 <= d1 or d1 > ctx.mpf(10) ** (-digits / 2):
        return d1 + rounding
    e1, e2 = ctx.log10(d1), ctx.log10(d2)
    return ctx.power(10, max(e1 * e1 / e2, ASSUMED_ORDER * e1)) + rounding
