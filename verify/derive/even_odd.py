"""Derivation: the even/odd regrouping of h for orthonormal features (§3.2.1, eqs. 7–9).

The derived h at G = I (symbolic k, three neurons written out) is split by
the parity of l and by s = 0 versus s ≥ 1, where s is read off the Hermite
degree p = l + s + 1 of each term; the printed regroupings are compared piece
by piece.
"""

from __future__ import annotations

import sympy

from verify.derive import claims, model, orthonormal

FILENAME = "even_odd.md"


def split(h, st: model.Setting) -> dict:
    """The derived h by (parity of l, s = 0 or s ≥ 1), each a polynomial in m and the μ²."""
    parts = {(parity, s0): 0 for parity in ("even", "odd") for s0 in (True, False)}
    for l in range(st.degree):
        for s in range(st.degree - l):
            term = model.piece(h, st, l, l + s + 1) * st.mu[l + s + 1] ** 2 * st.m**l
            parts["odd" if l % 2 else "even", s == 0] += term
    return parts


def printed_even(st: model.Setting, s_start: int):
    """§3.2.1's first display without Σ b_l m^l: 2[kΣλλcĉ] Σ_{l even}(ξ²/k)^{l+1}(l+1)μ_{l+1}²
    (k/(k+ξ²))^{l+1} m^l + 2[kΣλ²cĉ] Σ_{l even, s ≥ s_start} (ξ²/k)^{l+1} C(l+s,l)(l+s+1)μ²
    (k/(k+ξ²))^{l+s+1} m^l (printed with s > 1, i.e. s_start = 2; eq. (8) has s ≥ 1)."""
    xi, k, m, mu = st.xi, st.k, st.m, st.mu
    b = orthonormal.sums(st)
    big_p = st.degree
    first = 2 * k * b["all_pairs"] * sum(
        (xi**2 / k) ** (l + 1) * (l + 1) * mu[l + 1] ** 2 * (k / (k + xi**2)) ** (l + 1) * m**l
        for l in range(0, big_p, 2))
    return first + eq_8(st, s_start)


def eq_7(st: model.Setting):
    """Eq. (7): 2[kΣ_ij λ_iλ_j c_iĉ_j] μ_1² ξ²/(k + ξ²)."""
    return 2 * st.k * orthonormal.sums(st)["all_pairs"] * st.mu[1] ** 2 * st.xi**2 / (st.k + st.xi**2)


def eq_8(st: model.Setting, s_start: int = 1):
    """Eq. (8): 2[kΣλ_i²c_iĉ_i] Σ_{l even, s ≥ 1} (ξ²/k)^{l+1}C(l+s,l)(l+s+1)μ²(k/(k+ξ²))^{l+s+1}m^l."""
    xi, k, m, mu = st.xi, st.k, st.m, st.mu
    big_p = st.degree
    return 2 * k * orthonormal.sums(st)["diag"] * sum(
        (xi**2 / k) ** (l + 1) * sympy.binomial(l + s, l) * (l + s + 1) * mu[l + s + 1] ** 2
        * (k / (k + xi**2)) ** (l + s + 1) * m**l
        for l in range(0, big_p, 2) for s in range(s_start, big_p - l))


def claim_1_terms(st: model.Setting):
    """Claim 1's bracket: the odd-l, s = 1 terms plus the even l > 0, s = 0 terms of Prop. 4."""

    big_p = st.degree
    odd = sum(claims.prop_4_term(l, 1, st) * st.m**l for l in range(1, big_p - 1, 2))
    even = sum(claims.prop_4_term(l, 0, st) * st.m**l for l in range(2, big_p, 2))
    return odd + even


def comparisons(st: model.Setting, h) -> list:
    parts = split(h, st)
    even = parts["even", True] + parts["even", False]
    l0s0 = model.piece(h, st, 0, 1) * st.mu[1] ** 2
    even_rest = parts["even", True] - l0s0
    h_tilde = h - eq_7(st) - eq_8(st)
    return [
        ("§3.2.1, first display, even part as printed ($s > 1$ in the second sum)",
         model.compare(even, printed_even(st, 2), st)),
        ("§3.2.1, first display with $s \\ge 1$ (as in eq. (8))",
         model.compare(even, printed_even(st, 1), st)),
        ("eq. (7) = the $l = 0$, $s = 0$ term", model.compare(l0s0, eq_7(st), st)),
        ("eq. (8) = the even-$l$, $s \\ge 1$ terms", model.compare(parts["even", False], eq_8(st), st)),
        ("eq. (9): $\\tilde h = h - (7) - (8)$ is the odd-$l$ terms plus the even $l > 0$, $s = 0$ "
         "terms", model.compare(h_tilde, parts["odd", True] + parts["odd", False] + even_rest, st)),
        ("Claim 1's bracket = the odd-$l$ $s = 1$ terms + the even $l>0$ $s = 0$ terms of $h$",
         model.compare(claim_1_terms(st), even_rest + sum(
             model.piece(h, st, l, l + 2) * st.mu[l + 2] ** 2 * st.m**l
             for l in range(1, st.degree - 1, 2)), st)),
    ]


def build() -> str:
    st = orthonormal.setting()
    h = model.h(st)
    rows = model.claim_list(comparisons(st, h), st)
    return rf"""# The even/odd regrouping of $h$ for orthonormal features (§3.2.1, eqs. 7–9)

Setting as in `orthonormal.md`: $G = I$, {orthonormal.NEURONS} neurons written out, symbolic $k$,
$\lambda_i$, $c_i = b_i/\sqrt k$, $\hat c_i = \hat b_i/\sqrt k$; kernel truncated at Hermite degree
$P = {st.degree}$, so every printed series is compared on its terms with $l + s + 1 \le P$.

## Derivation

$h = -d\Phi/dm$ is derived from the network.  Each term $m^l\mu_p^2$ of $h$ belongs to
$s = p - l - 1$; the derived $h$ is split into four parts: $l$ even or odd, $s = 0$ or
$s \ge 1$.  With $G = I$, the $s \ge 1$ terms all carry $T(l,s) = k\sum_i\lambda_i^2c_i\hat c_i$
(even $l$) or $\|\lambda\|^2$ (odd $l$); see `orthonormal.md`.

## Claims compared

{rows}

The first display's second sum, printed $\sum_{{l \ge 0\ \mathrm{{even}},\ s > 1}}$, leaves out the
$s = 1$ terms $2[k\sum_i\lambda_i^2c_i\hat c_i](\xi^2/k)^{{l+1}}(l+1)(l+2)\mu_{{l+2}}^2
(k/(k+\xi^2))^{{l+2}}m^l$ (the witness above is its $l = 0$ term); eq. (8) itself has
$s \ge 1$.  That $\tilde h(m)\,m > 0$ with high probability is Claim 1, an inequality, not
assessed here.
"""
