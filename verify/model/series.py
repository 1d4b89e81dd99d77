r"""The power series h(m) = Σ_l h_l m^l (Proposition 4), derived and evaluated in mpmath.

Derivation (from :mod:`verify.model.population`, not from the paper): with
A_ij = c_i ĉ_j/(n_i n̂_j), B_ij = G_ij/(n_i n̂_j) and K'(ρ) = Σ_p p μ_p² ρ^{p−1},

    h(m) = 2 ξ² Σ_ij λ_i λ_j A_ij K'(B_ij + ξ² A_ij m).

Expanding (B + ξ² A m)^{p−1} binomially and writing p = l + s + 1,

    h_l = 2 ξ^{2(l+1)} Σ_{s≥0} C(l+s, l) (l+s+1) μ_{l+s+1}² T(l, s),
    T(l, s) = Σ_ij λ_i λ_j A_ij^{l+1} B_ij^s,

where tensor inner products ⟨Σ λ_i a_i w_i^{⊗s}, Σ λ_j b_j w_j^{⊗s}⟩ have become
entrywise powers of G.  For quantized c (n_i = n̂_j = √(1+ξ²/k)) this is the
paper's form; the comparison with the printed formula belongs to the checks.

Truncation bounds (both rigorous, with E[σ'²] from an independent quadrature
and r = max_ij |B_ij| ≤ 1):

- in s, for each l:  Σ_{s≥S} … ≤ 2ξ^{2(l+1)} Σ|λλ||A|^{l+1} · max_{s≥S} C(l+s,l) r^s ·
  (E[σ'²] − Σ_{p≤l+S} p μ_p²);
- in l, at a given m:  |Σ_{l≥L} h_l m^l| ≤ 2ξ² Σ|λλA| · R^L (E[σ'²] − Σ_{p≤L} p μ_p²),
  R = max_ij (|B_ij| + ξ²|A_ij||m|) ≤ 1, because only p ≥ L+1 reach m^L and
  Σ_{l≥L} C(p−1,l)|B|^{p−1−l}|ξ²Am|^l ≤ (|B| + ξ²|A m|)^{p−1}.

Written once over an arithmetic (:mod:`verify.model.arithmetic`): :func:`h_series` evaluates
it in mpmath, :func:`verify.certified.series.h_series_balls` in Arb balls (certified μ_p,
every bound an upper endpoint), both through :func:`series_from`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

import mpmath

from verify.base.errors import InvalidParameterError
from verify.base.evidence_cache import NotStorable, canonical, decode_number, encode_number, remembered
from verify.model.activations import get_activation
from verify.model.arithmetic import MPMATH, Arithmetic
from verify.model.diagnostics import parseval_check
from verify.model.geometry import PairGeometry, pair_geometry
from verify.model.hermite import GUARD_DIGITS, hermite_coefficients, validate_dps, validate_terms
from verify.model.instance import as_numbers


@dataclass(frozen=True)
class HSeries:
    """h_0 … h_{L−1} with per-coefficient s-truncation bounds, in one arithmetic."""

    arithmetic: Arithmetic
    coefficients: tuple
    s_bounds: tuple
    s_terms: int
    tail: Any  # E[σ'²] − Σ_{p≤L} p μ_p², the mass the l-truncation leaves out (≥ 0)
    weight_abs: Any  # Σ|λλA|
    a_max: Any  # max |A|
    b_max: Any  # r = max |B|
    xi2: Any
    dps: int = 30

    def l_bound(self, m) -> Any:
        """Bound on |Σ_{l≥L} h_l m^l| at this m (or every m in a ball)."""
        up = self.arithmetic.upper
        with _digits(self):
            reach = up(self.b_max + self.xi2 * self.a_max * up(abs(self.arithmetic.number(m))))
            reach = reach if reach < 1 else self.arithmetic.number(1)
            return up(2 * self.xi2 * self.weight_abs * reach ** len(self.coefficients) * self.tail)

    def evaluate(self, m) -> tuple:
        """(Σ_{l<L} h_l m^l, an upper bound on |h(m) − that sum|) at one m (or a ball of m)."""
        with _digits(self):
            mm = self.arithmetic.number(m)
            value = self.arithmetic.number(0)
            for h in reversed(self.coefficients):  # Horner
                value = value * mm + h
            size = self.arithmetic.upper(abs(mm))
            s_part = self.arithmetic.fsum(b * size**l for l, b in enumerate(self.s_bounds))
            return value, self.arithmetic.upper(s_part + self.l_bound(mm))


def _digits(series: HSeries):
    """The working precision of an mpmath series (balls carry their own)."""
    return mpmath.workdps(series.dps + GUARD_DIGITS) if series.arithmetic is MPMATH else nullcontext()


def series_from(geometry: PairGeometry, mu2: Sequence, terms: int, s_terms: int,
                rest: Callable[[int], Any], tail: Any, max_binomial_power: Callable[[int, int, Any], Any],
                dps: int = 30) -> HSeries:
    """Proposition 4's coefficients h_l (module docstring) from the pair geometry and μ_p².

    ``rest(q)`` bounds E[σ'²] − Σ_{p≤q} p μ_p² from above (≥ 0), for the s-truncation; ``tail`` is
    that mass at q = L, for the l-truncation;
    ``max_binomial_power(l, S, r)`` bounds max_{s≥S} C(l+s, l) r^s.  Everything else is
    arithmetic on the geometry's numbers."""
    arith = geometry.arithmetic
    up = arith.upper
    pairs = [(i, j) for i in range(len(geometry.weights)) for j in range(len(geometry.weights))]
    weight = {ij: geometry.weights[ij] for ij in pairs}
    a = {ij: geometry.coupling[ij] for ij in pairs}
    b = {ij: geometry.base[ij] for ij in pairs}
    xi2 = geometry.xi2
    # T(l, s) = Σ λ_iλ_j A_ij^{l+1} B_ij^s for all l < terms and s < s_terms: B^s grows once per s.
    a_pow = {ij: [a[ij] ** (l + 1) for l in range(terms)] for ij in pairs}
    sums = [[arith.number(0)] * terms for _ in range(s_terms)]
    b_pow = {ij: arith.number(1) for ij in pairs}
    for s in range(s_terms):
        row = sums[s]
        for ij in pairs:
            wb = weight[ij] * b_pow[ij]
            row[:] = [total + wb * power for total, power in zip(row, a_pow[ij], strict=True)]
            b_pow[ij] *= b[ij]
    r = up(max((abs(v) for v in b.values()), default=arith.number(0), key=up))
    a_max = up(max((abs(v) for v in a.values()), key=up))
    weight_abs = up(arith.fsum(abs(weight[ij] * a[ij]) for ij in pairs))
    coefficients, s_bounds = [], []
    for l in range(terms):
        total = arith.fsum(math.comb(l + s, l) * (l + s + 1) * mu2[l + s + 1] * sums[s][l]
                           for s in range(s_terms))
        coefficients.append(2 * xi2 ** (l + 1) * total)
        weight_l = arith.fsum(abs(weight[ij]) * abs(a[ij]) ** (l + 1) for ij in pairs)
        reach = max_binomial_power(l, s_terms, r)
        s_bounds.append(up(2 * xi2 ** (l + 1) * weight_l * reach * rest(l + s_terms)))
    return HSeries(arith, tuple(coefficients), tuple(s_bounds), s_terms, tail, weight_abs, a_max, r,
                   xi2, dps)


def h_series(instance, terms: int, dps: int = 30, s_terms: int | None = None) -> HSeries:
    """The first ``terms`` coefficients h_l in mpmath, each summed over s < ``s_terms``
    (default 4·terms + 40).

    Kept in the on-disk cache (high-precision evidence, :mod:`verify.base.evidence_cache`); the
    certified series is :func:`verify.certified.series.h_series_balls`, never cached."""
    terms = validate_terms(terms)
    dps = validate_dps(dps)
    s_terms = validate_terms(4 * terms + 40 if s_terms is None else s_terms)
    numbers = as_numbers(instance)
    try:
        key = {"numbers": canonical(numbers), "terms": terms, "dps": dps, "s_terms": s_terms,
               "working_precision": mpmath.mp.prec}
    except TypeError:  # numbers of a kind the cache cannot key (a Fraction): computed, not kept
        return _h_series(numbers, terms, dps, s_terms)
    return remembered("h-series", key, lambda: _h_series(numbers, terms, dps, s_terms), _encode_series,
                      _decode_series)


_SERIES_NUMBERS = ("tail", "weight_abs", "a_max", "b_max", "xi2")


def _encode_series(series: HSeries) -> dict:
    if series.arithmetic is not MPMATH:
        raise NotStorable("not an mpmath series")
    return {"coefficients": [encode_number(v) for v in series.coefficients],
            "s_bounds": [encode_number(v) for v in series.s_bounds], "s_terms": series.s_terms,
            "dps": series.dps, **{name: encode_number(getattr(series, name)) for name in _SERIES_NUMBERS}}


def _decode_series(payload: dict) -> HSeries:
    if not (isinstance(payload["s_terms"], int) and isinstance(payload["dps"], int)):
        raise ValueError("series")
    return HSeries(MPMATH, tuple(decode_number(v) for v in payload["coefficients"]),
                   tuple(decode_number(v) for v in payload["s_bounds"]), payload["s_terms"],
                   *(decode_number(payload[name]) for name in _SERIES_NUMBERS), payload["dps"])


def _h_series(numbers, terms: int, dps: int, s_terms: int) -> HSeries:
    act = get_activation(numbers.activation)
    if act.has_jumps:
        raise InvalidParameterError(
            f"activation {act.name!r} is discontinuous: K' and the series of h(m) diverge")
    p_max = terms + s_terms
    coeffs = hermite_coefficients(act, p_max + 1, dps)
    check = parseval_check(act, coeffs)
    with mpmath.workdps(dps + GUARD_DIGITS):
        mu2 = [v**2 for v in coeffs.values]
        captured = [mpmath.fsum(q * mu2[q] for q in range(p + 1)) for p in range(p_max + 1)]
        moment = check.derivative_moment

        def rest(q: int):
            return max(moment - captured[q], 0) + check.quadrature_error

        return series_from(pair_geometry(numbers, MPMATH), mu2, terms, s_terms, rest,
                           max(moment - captured[terms], 0), _max_binomial_power, dps)


def _max_binomial_power(l: int, start: int, r) -> object:
    """max_{s ≥ start} C(l+s, l) r^s (the ratio (l+s+1)r/(s+1) decreases in s)."""
    if r == 0:
        return mpmath.mpf(0) if start > 0 else mpmath.mpf(1)
    if r >= 1:
        return mpmath.inf
    s = start
    while (l + s + 1) * r > (s + 1):
        s += 1
    return math.comb(l + s, l) * r**s
