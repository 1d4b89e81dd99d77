"""Derivation: the ξ = 1 specialisation (§3.2.2, App. D.3.2 eq. (12), D.5.1, D.5.2 eqs. (13)–(14)).

The derived h (two neurons written out with a symbolic G_12, symbolic k, λ and
signs; :mod:`verify.derive.model`) is evaluated at ξ = 1 and compared with the
printed ξ = 1 forms.
"""

from __future__ import annotations

import sympy

from verify.derive import claims, model

FILENAME = "xi_one.md"


def setting() -> model.Setting:
    return model.Setting(neurons=2)


def derived_h(st: model.Setting):
    return model.reduce_signs(model.h(st).subs(st.xi, 1), st)


def printed_series(st: model.Setting, factor):
    """factor · Σ_l (1/k)^{l+1} Σ_s C(l+s,l)(l+s+1)μ²(k/(k+1))^{l+s+1} T(l,s) m^l
    (§3.2.2 prints factor 2, D.5.1 prints none)."""
    k, mu = st.k, st.mu
    return model.series_claim(
        lambda l, s: factor * (1 / k) ** (l + 1) * sympy.binomial(l + s, l) * (l + s + 1)
        * mu[l + s + 1] ** 2 * (k / (k + 1)) ** (l + s + 1) * claims.prop_4_T(l, s, st), st)


def _pairs(st: model.Setting):
    n = range(st.neurons)
    return [(i, j) for i in n for j in n]


def printed_h0(st: model.Setting, weight):
    """Σ_ij weight_ij Σ_s (s+1)μ_{s+1}²(k/(k+1))^{s+1}G_ij^s for the printed forms of h(0)."""
    k, g, mu = st.k, st.gram, st.mu
    return sum(weight(i, j) * sum((s + 1) * mu[s + 1] ** 2 * (k / (k + 1)) ** (s + 1) * g[i, j] ** s
                                  for s in range(st.degree))
               for i, j in _pairs(st))


def eq_14(st: model.Setting) -> list:
    """Eq. (14): Σ_l (1/k)^l Σ_s C(l+s,l)(l+s+1)μ²(k/(k+1))^{l+s+1}
    = Σ_p (k/(k+1))^p p μ_p² Σ_l (1/k)^l C(p−1,l) = Σ_p (k/(k+1))^p (1+1/k)^{p−1} p μ_p²."""
    k, mu = st.k, st.mu
    big_p = st.degree
    lhs = sum((1 / k) ** l * sympy.binomial(l + s, l) * (l + s + 1) * mu[l + s + 1] ** 2
              * (k / (k + 1)) ** (l + s + 1) for l in range(big_p) for s in range(big_p - l))
    line_2 = sum((k / (k + 1)) ** p * p * mu[p] ** 2
                 * sum((1 / k) ** l * sympy.binomial(p - 1, l) for l in range(p))
                 for p in range(1, big_p + 1))
    line_3 = sum((k / (k + 1)) ** p * (1 + 1 / k) ** (p - 1) * p * mu[p] ** 2
                 for p in range(1, big_p + 1))
    exact = k / (k + 1) * sum(p * mu[p] ** 2 for p in range(1, big_p + 1))
    return [
        ("eq. (14), first equality (regrouping by $p = l+s+1$)", model.compare(lhs, line_2, st)),
        ("eq. (14), second equality (binomial theorem)", model.compare(lhs, line_3, st)),
        ("eq. (14), its exact value $\\frac{k}{k+1}\\sum_p p\\mu_p^2$ (derived; so the printed "
         "bound $\\le \\sum_p p\\mu_p^2$ holds, strictly)", model.compare(lhs, exact, st)),
    ]


def comparisons(st: model.Setting) -> list:
    h = derived_h(st)
    h0 = sympy.expand(h).coeff(st.m, 0)
    lam, c, ch, b, bh, k = st.lam, st.c, st.c_hat, st.b, st.b_hat, st.k
    even_l = sum(sympy.expand(h).coeff(st.m, l) for l in range(2, st.degree, 2))
    prop_7 = sum((1 / k) ** (2 * n + 2) * sympy.binomial(2 * n + 2 + s, 2 * n + 2) * (2 * n + s + 3)
                 * st.mu[2 * n + s + 3] ** 2 * (k / (k + 1)) ** (2 * n + s + 3)
                 * model.tensor_inner([lam[i] * c[i] for i in range(st.neurons)],
                                      [lam[i] * ch[i] for i in range(st.neurons)], s, st)
                 for n in range(st.degree) for s in range(st.degree - 2 * n - 2))
    # D.5.2 (ii): the inner product at ξ = 1, derived from the vectors.
    raw_i, raw_j = model.raw_row(0, st, False), model.raw_row(1, st, True)
    inner_ij = model.overlap(raw_i, raw_j, st).subs(st.xi, 1)
    printed_rhs = st.gram[0, 1] + c[0] * ch[1] * st.m
    inner_ii = model.overlap(raw_i, model.raw_row(0, st, True), st).subs(st.xi, 1)
    return [
        ("§3.2.2 display, $h = 2\\sum_l (1/k)^{l+1}\\sum_s\\dots(k/(k+1))^{l+s+1}T(l,s)m^l$",
         model.compare(h, printed_series(st, 2), st)),
        ("D.5.1 display, the same without the factor 2", model.compare(h, printed_series(st, 1), st)),
        ("D.3.2, $h(0) = \\sum_{i,j}\\lambda_i\\lambda_jc_i\\hat c_j\\sum_s(s+1)\\mu_{s+1}^2"
         "(\\frac{k}{k+1})^{s+1}\\langle w_i,w_j\\rangle^s$",
         model.compare(h0, printed_h0(st, lambda i, j: lam[i] * lam[j] * c[i] * ch[j]), st)),
        ("eq. (12), $h(0) = f(b,\\hat b) = \\sum_{i,j} b_i\\hat b_j Q_{ij}$ with "
         "$Q_{ij} = \\frac{\\lambda_i\\lambda_j}{k}\\sum_s\\dots$",
         model.compare(h0, printed_h0(st, lambda i, j: b[i] * bh[j] * lam[i] * lam[j] / k), st)),
        ("Prop. 29 proof, $Q_{ij} = \\lambda_i\\lambda_j\\sum_s\\dots$ (no $1/k$), "
         "as $h(0) = \\sum_{i,j} b_i\\hat b_j Q_{ij}$",
         model.compare(h0, printed_h0(st, lambda i, j: b[i] * bh[j] * lam[i] * lam[j]), st)),
        ("Prop. 7 / eq. (13): the bounded sum is $\\frac12\\sum_{n\\ge0}[m^{2n+2}]h$ at $\\xi = 1$",
         model.compare(even_l / 2, prop_7, st)),
        ("D.5.2 (ii), $\\langle w_i + c_iu, w_j + \\hat c_j\\hat u\\rangle = \\langle w_i,w_j\\rangle"
         " + c_i\\hat c_jm$", model.compare(inner_ij, printed_rhs, st)),
        ("D.5.2 (ii) as printed, with $\\langle w_i + c_iu, w_i + \\hat c_i\\hat u\\rangle$ on the left",
         model.compare(inner_ii, printed_rhs, st)),
        *eq_14(st),
    ]


def build() -> str:
    st = setting()
    rows = model.claim_list(comparisons(st), st)
    return rf"""# The spectral scaling $\xi = 1$ (§3.2.2, Appendix D.3.2, D.5.1, D.5.2)

Setting: two neurons $i \ne j$ written out with symbolic $G_{{12}}$ ($G_{{ii}} = 1$), symbolic $k$,
$\lambda_i$ and $c_i = b_i/\sqrt k$, $\hat c_i = \hat b_i/\sqrt k$ ($b_i^2 = \hat b_i^2 = 1$); the kernel
is truncated at Hermite degree $P = {st.degree}$, so the printed series are compared on their
terms with $l + s + 1 \le P$ (eq. (14): $p \le P$).

## Derivation

$h(m) = -d\Phi/dm$ is derived from the network (`verify/derive/model.py`) for general $\xi$ and
evaluated at $\xi = 1$, where $1/(1+\xi^2/k) = k/(k+1)$ and $(\xi^2/k)^{{l+1}} = k^{{-(l+1)}}$.
$h(0)$ is its $m^0$ coefficient, a bilinear form $\sum_{{ij}} b_i\hat b_j Q_{{ij}}$ in the signs.

## Claims compared

{rows}

The factor-2 witnesses say: with the paper's own Prop. 4 (equal, first line), $h(0)$ at
$\xi = 1$ is $2f(b,\hat b)$, not $f$; D.5.1 drops the same factor 2 that §3.2.2 keeps.  A
constant factor does not change the signs or orders of magnitude used in Claim 4 and
Prop. 29, but Prop. 29's $Q_{{ij}}$ also drops the $1/k$ of eq. (12).
"""
