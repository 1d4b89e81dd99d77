r"""Rigorous bounds on Gaussian tail integrals ∫_{|x|>R} F(x) w(x) φ(x) dx.

With a majorant |F(s·t)| ≤ Σ c tⁿ e^{bt} for t ≥ R (:mod:`verify.certified.growth`) and a
weight bounded by a polynomial with nonnegative coefficients, |w(s·t)| ≤ Σ_j a_j t^j, the
tail on side s is at most Σ c a_j I(n + j, b; R), where

    I(m, b; R) = ∫_R^∞ t^m e^{bt} φ(t) dt = e^{b²/2} Σ_{i≤m} C(m, i) b^{m−i} J_i(R − b)

(substitute t = u + b: e^{bt}φ(t) = e^{b²/2}φ(u)), and J_i(a) = ∫_a^∞ u^i φ(u) du satisfies

    J_0(a) = erfc(a/√2)/2,  J_1(a) = φ(a),  J_i(a) = a^{i−1}φ(a) + (i−1) J_{i−2}(a)

(integration by parts with (−φ)' = uφ).  All of these are identities, evaluated in ball
arithmetic, so the upper endpoint of the resulting ball is a rigorous bound.

The Hermite weight: He_p(x) = Σ_k (−1)^k p!/(k!(p−2k)!2^k) x^{p−2k}, so by the triangle
inequality |h_p(x)| = |He_p(x)|/√p! ≤ He⁺_p(|x|)/√p!, He⁺_p having the absolute values of
those coefficients.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from flint import arb

from verify.certified.balls import exact, integer_power
from verify.certified.growth import Majorant


@lru_cache(maxsize=512)
def hermite_weight(p: int) -> tuple[int, ...]:
    """Coefficients a_j (index j = power of t) of He⁺_p, integers ≥ 0: |He_p(x)| ≤ Σ a_j |x|^j."""

    coefficients = [0] * (p + 1)
    for k in range(p // 2 + 1):
        coefficients[p - 2 * k] = math.factorial(p) // (math.factorial(k) * math.factorial(p - 2 * k) * 2**k)
    return tuple(coefficients)


class TailMoments:
    """I(m, b; R) for one cutoff R, memoised over (m, b) at the working precision."""

    def __init__(self, cutoff: int):
        self.cutoff = cutoff
        self._j: dict[Fraction, list[arb]] = {}
        self._i: dict[tuple[int, Fraction], arb] = {}

    def _j_values(self, b: Fraction, m: int) -> list[arb]:
        values = self._j.setdefault(b, [])
        if len(values) > m:
            return values
        a = exact(self.cutoff) - exact(b)
        phi = (-a * a / 2).exp() / (2 * arb.pi()).sqrt()
        if not values:
            values.extend([(a / arb(2).sqrt()).erfc() / 2, phi])
        while len(values) <= m:
            i = len(values)
            values.append(integer_power(a, i - 1) * phi + (i - 1) * values[i - 2])
        return values

    def moment(self, m: int, b: Fraction) -> arb:
        """I(m, b; R) = ∫_R^∞ t^m e^{bt} φ(t) dt."""
        key = (m, b)
        if key not in self._i:
            j = self._j_values(b, m)
            if b == 0:
                value = j[m]
            else:
                bb = exact(b)
                value = (bb * bb / 2).exp() * sum(
                    (arb.bin_uiui(m, i) * integer_power(bb, m - i) * j[i] for i in range(m + 1)), arb(0))
            self._i[key] = value
        return self._i[key]

    def bound(self, majorant: Majorant, weight: tuple[int, ...] = (1,)) -> arb:
        """A ball whose upper endpoint bounds ∫_R^∞ M(t) Σ_j a_j t^j φ(t) dt."""
        total = arb(0)
        for (n, b), c in majorant.terms.items():
            if c == 0:
                continue
            total += exact(c) * sum((a * self.moment(n + j, b) for j, a in enumerate(weight) if a),
                                    arb(0))
        return total
