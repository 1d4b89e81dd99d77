r"""The power series h(m) = Σ_l h_l m^l (Proposition 4), derived and evaluated in mpmath.

Derivation (from :mod:`verify.population`, not from the paper): with
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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import mpmath

from verify.errors import InvalidParameterError
from verify.hermite import GUARD_DIGITS, hermite_coefficients, validate_dps, validate_terms


@dataclass(frozen=True)
class HSeries:
    """h_0 … h_{L−1} with per-coefficient s-truncation bounds, at ``dps`` digits."""

    coefficients: tuple
    s_bounds: tuple
    s_terms: int
    dps: int
    derivative_moment: Any  # E[σ'²]
    captured: tuple  # Σ_{p≤q} p μ_p² for q = 0 … L+S
    weight_abs: Any  # Σ|λλA|
    a_max: Any  # max |A|
    b_max: Any  # r = max |B|
    xi2: Any

    def l_bound(self, m) -> object:
        """Bound on |Σ_{l≥L} h_l m^l| at this m."""
        big_l = len(self.coefficients)
        with mpmath.workdps(self.dps + GUARD_DIGITS):
            r = min(self.b_max + self.xi2 * self.a_max * abs(mpmath.mpf(m)), mpmath.mpf(1))
            rest = max(self.derivative_moment - self.captured[min(big_l, len(self.captured) - 1)], 0)
            return 2 * self.xi2 * self.weight_abs * r**big_l * rest

    def evaluate(self, m) -> tuple:
        """(Σ_{l<L} h_l m^l, total truncation bound) at one m."""
        with mpmath.workdps(self.dps + GUARD_DIGITS):
            mm = mpmath.mpf(m)
            value = mpmath.fsum(h * mm**l for l, h in enumerate(self.coefficients))
            s_part = mpmath.fsum(b * abs(mm) ** l for l, b in enumerate(self.s_bounds))
            return value, s_part + self.l_bound(mm)


def h_series(instance, terms: int, dps: int = 30, s_terms: int | None = None) -> HSeries:
    """The first ``terms`` coefficients h_l, each summed over s < ``s_terms`` (default 4·terms + 40)."""
    from verify.activations import get_activation
    from verify.diagnostics import parseval_check

    terms = validate_terms(terms)
    dps = validate_dps(dps)
    s_terms = validate_terms(4 * terms + 40 if s_terms is None else s_terms)
    act = get_activation(instance.activation)
    if act.has_jumps:
        raise InvalidParameterError(
            f"activation {act.name!r} is discontinuous: K' and the series of h(m) diverge")
    p_max = terms + s_terms
    coeffs = hermite_coefficients(act, p_max + 1, dps)
    check = parseval_check(act, coeffs)
    with mpmath.workdps(dps + GUARD_DIGITS):
        xi2, weight, a, b = pair_terms(instance)
        pairs = list(weight)
        mu2 = [v**2 for v in coeffs.values]
        captured = tuple(mpmath.fsum(q * mu2[q] for q in range(p + 1)) for p in range(p_max + 1))
        # T(l, s) for all l < terms and s < s_terms: grow B^s entrywise once per s.
        a_pow = {ij: [a[ij] ** (l + 1) for l in range(terms)] for ij in pairs}
        sums = [[mpmath.mpf(0)] * terms for _ in range(s_terms)]
        b_pow = {ij: mpmath.mpf(1) for ij in pairs}
        for s in range(s_terms):
            row = sums[s]
            for ij in pairs:
                wb = weight[ij] * b_pow[ij]
                if wb != 0:
                    powers = a_pow[ij]
                    for l in range(terms):
                        row[l] += wb * powers[l]
                b_pow[ij] *= b[ij]
        h_coeffs, s_bounds = [], []
        r = max((abs(v) for v in b.values()), default=mpmath.mpf(0))
        a_max = max(abs(v) for v in a.values())
        weight_abs = mpmath.fsum(abs(weight[ij] * a[ij]) for ij in pairs)
        for l in range(terms):
            total = mpmath.fsum(
                mpmath.binomial(l + s, l) * (l + s + 1) * mu2[l + s + 1] * sums[s][l]
                for s in range(s_terms)
            )
            h_coeffs.append(2 * xi2 ** (l + 1) * total)
            weight_l = mpmath.fsum(abs(weight[ij]) * abs(a[ij]) ** (l + 1) for ij in pairs)
            rest = max(check.derivative_moment - captured[l + s_terms], 0) + check.quadrature_error
            s_bounds.append(2 * xi2 ** (l + 1) * weight_l * _max_binomial_power(l, s_terms, r)
                            * rest)
    return HSeries(tuple(h_coeffs), tuple(s_bounds), s_terms, dps, check.derivative_moment,
                   captured, weight_abs, a_max, r, xi2)


def pair_terms(instance) -> tuple:
    """(ξ², λ_iλ_j, A_ij, B_ij) at the current mpmath precision, keyed by (i, j).

    A_ij = c_i ĉ_j/(n_i n̂_j) and B_ij = G_ij/(n_i n̂_j) with n_i = √(G_ii+ξ²c_i²), so
    ρ_ij(m) = B_ij + ξ² A_ij m (see :mod:`verify.population`).
    """
    k = instance.k
    xi2 = mpmath.mpf(instance.xi) ** 2
    lam = [mpmath.mpf(v) for v in instance.lam]
    c = [mpmath.mpf(v) for v in instance.c]
    c_hat = [mpmath.mpf(v) for v in instance.c_hat]
    from verify.instance import nominal_gram, nominal_row_norm2

    diag = nominal_row_norm2(instance)  # 1 (Assumption 1), or 0 for scratch (W = 0)
    gram = nominal_gram(instance)  # the diagonal is diag exactly, as in every other arithmetic
    n = [mpmath.sqrt(diag + xi2 * v**2) for v in c]
    n_hat = [mpmath.sqrt(diag + xi2 * v**2) for v in c_hat]
    pairs = [(i, j) for i in range(k) for j in range(k)]
    weight = {(i, j): lam[i] * lam[j] for i, j in pairs}
    a = {(i, j): c[i] * c_hat[j] / (n[i] * n_hat[j]) for i, j in pairs}
    b = {(i, j): mpmath.mpf(gram[i, j]) / (n[i] * n_hat[j]) for i, j in pairs}
    return xi2, weight, a, b


def _max_binomial_power(l: int, start: int, r) -> object:
    """max_{s ≥ start} C(l+s, l) r^s (the ratio (l+s+1)r/(s+1) decreases in s)."""
    if r == 0:
        return mpmath.mpf(0) if start > 0 else mpmath.mpf(1)
    if r >= 1:
        return mpmath.inf
    s = start
    while (l + s + 1) * r > (s + 1):
        s += 1
    return mpmath.binomial(l + s, l) * r**s
