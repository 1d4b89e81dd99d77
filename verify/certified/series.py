r"""Proposition 4's power series h(m) = Σ_l h_l m^l in Arb balls.

The formula and its truncation bounds are :func:`verify.model.series.series_from`, the same code
the mpmath path runs; here it is handed balls: certified μ_p and E[σ'²]
(:mod:`verify.certified.hermite`, :mod:`verify.certified.kernels`), the instance's numbers taken
exactly, and every bound replaced by a ball's upper endpoint.  A divergent s-bound (max |B_ij| ≥ 1)
cannot be certified and raises :class:`~verify.certified.errors.CertificationError`.
"""

from __future__ import annotations

import math

from flint import arb

from verify.certified.balls import BALLS
from verify.certified.errors import CertificationError
from verify.certified.hermite import certified_hermite_coefficients
from verify.certified.kernels import SERIES_TERMS, certified_second_moment
from verify.model.geometry import pair_geometry
from verify.model.instance import as_numbers
from verify.model.series import HSeries, series_from


def h_series_balls(instance, terms: int, dps: int = 30, s_terms: int | None = None) -> HSeries:
    """:func:`verify.model.series.h_series` in ball arithmetic (call inside ``working_precision``).

    μ_p are computed to at least as many terms as the certified series kernels use, so the
    cache entry is shared."""
    numbers = as_numbers(instance)
    s_terms = 4 * terms + 40 if s_terms is None else s_terms
    p_max = terms + s_terms
    mu = certified_hermite_coefficients(numbers.activation, max(p_max + 1, SERIES_TERMS), dps).balls
    mu2 = [v * v for v in mu[:p_max + 1]]
    moment = certified_second_moment(numbers.activation, dps, derivative=True)
    captured, running = [], arb(0)
    for p, v in enumerate(mu2):
        running += p * v
        captured.append(running)

    def rest(q: int) -> arb:
        tail = (moment - captured[min(q, p_max)]).upper()
        return tail if tail > 0 else arb(0)

    return series_from(pair_geometry(numbers, BALLS), mu2, terms, s_terms, rest, rest(terms),
                       _max_binomial_power, dps)


def _max_binomial_power(l: int, start: int, r: arb) -> arb:
    """max_{s ≥ start} C(l+s, l) r^s for an exact 0 ≤ r < 1 (the ratio (l+s+1)r/(s+1) decreases in s)."""
    if r == 0:
        return arb(0) if start > 0 else arb(1)
    if r >= 1:
        raise CertificationError(f"max |B_ij| = {float(r.mid())} >= 1: the s-series bound diverges")
    s = start
    while (l + s + 1) * r > (s + 1):
        s += 1
    return math.comb(l + s, l) * r**s
