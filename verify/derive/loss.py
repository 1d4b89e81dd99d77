"""Derivation: the population loss Φ(m) and Prop. 4 over the whole Gram matrix (App. D.1).

Where ``prop_4.py`` works per pair of neurons, this writes out all k neurons
for k = 2 and k = 3 with symbolic entries G_ij, λ_i and signs b_i, b̂_i, derives
Φ from the network (:mod:`verify.derive.model`) and compares every display of
App. D.1 on the way from Φ to Prop. 4, at the level of Φ as well as of h.
"""

from __future__ import annotations

import sympy

from verify.derive import claims, model

FILENAME = "loss.md"
SIZES = (2, 3)


def setting(k: int) -> model.Setting:
    return model.Setting(neurons=k, k=sympy.Integer(k))


def _pairs(st: model.Setting):
    n = range(st.neurons)
    return [(i, j) for i in n for j in n]


def claimed_loss(st: model.Setting):
    """D.1: Φ = Σλλ Σμ²⟨v̂_i,v̂_j⟩^p + Σλλ Σμ²⟨v_i,v_j⟩^p − 2Σλλ Σμ²⟨v_i,v̂_j⟩^p with the printed
    ⟨v_i,v_j⟩ = (G_ij + ξ²c_ic_j)/(1+ξ²/k), ⟨v̂_i,v̂_j⟩ likewise, and the cross overlap of the
    gradient display, (G_ij + ξ²c_iĉ_j m)/(1+ξ²/k)."""
    xi, k, m, g, lam, c, ch = st.xi, st.k, st.m, st.gram, st.lam, st.c, st.c_hat
    total = 0
    for i, j in _pairs(st):
        tt = (g[i, j] + xi**2 * c[i] * c[j]) / (1 + xi**2 / k)
        ss = (g[i, j] + xi**2 * ch[i] * ch[j]) / (1 + xi**2 / k)
        ts = (g[i, j] + xi**2 * c[i] * ch[j] * m) / (1 + xi**2 / k)
        total += lam[i] * lam[j] * (model.kernel(ss, st) + model.kernel(tt, st)
                                    - 2 * model.kernel(ts, st))
    return total


def claimed_gradient_line_1(st: model.Setting):
    """D.1, first gradient line, as h: 2Σλλ ξ²/(1+ξ²/k) c_iĉ_j Σ_p p μ_p² ⟨v_i,v̂_j⟩^{p−1}."""
    xi, k, m, g, lam, c, ch = st.xi, st.k, st.m, st.gram, st.lam, st.c, st.c_hat
    return sum(2 * lam[i] * lam[j] * xi**2 / (1 + xi**2 / k) * c[i] * ch[j]
               * model.kernel_derivative((g[i, j] + xi**2 * c[i] * ch[j] * m) / (1 + xi**2 / k), st)
               for i, j in _pairs(st))


def claimed_gradient_line_2(st: model.Setting, tau=None):
    """D.1, second gradient line (and, with τ = 1/(1+ξ²), the display defining h):
    2Σλλ ξ² c_iĉ_j Σ_p p μ_p² τ^p (G_ij + ξ²c_iĉ_j m)^{p−1}."""
    xi, k, m, g, lam, c, ch, mu = st.xi, st.k, st.m, st.gram, st.lam, st.c, st.c_hat, st.mu
    tau = 1 / (1 + xi**2 / k) if tau is None else tau
    return sum(2 * lam[i] * lam[j] * xi**2 * c[i] * ch[j]
               * sum(p * mu[p] ** 2 * tau**p * (g[i, j] + xi**2 * c[i] * ch[j] * m) ** (p - 1)
                     for p in range(1, st.degree + 1))
               for i, j in _pairs(st))


def claimed_d1_power_series(st: model.Setting):
    """D.1: h = 2Σ_ij λλ Σ_l (ξ²)^{l+1}(c_iĉ_j)^{l+1} m^l Σ_s (l+s+1)μ² C(l+s,l) τ^{l+s+1} G_ij^s."""
    xi, k, g, lam, c, ch, mu = st.xi, st.k, st.gram, st.lam, st.c, st.c_hat, st.mu
    return model.series_claim(
        lambda l, s: sum(2 * lam[i] * lam[j] * xi ** (2 * (l + 1)) * (c[i] * ch[j]) ** (l + 1)
                         * (l + s + 1) * mu[l + s + 1] ** 2 * sympy.binomial(l + s, l)
                         * (1 / (1 + xi**2 / k)) ** (l + s + 1) * g[i, j] ** s
                         for i, j in _pairs(st)),
        st)


def claimed_prop_4(st: model.Setting):
    """Prop. 4 with T(l,s) from its tensor definition."""
    return model.series_claim(lambda l, s: claims.prop_4_term(l, s, st), st)


def comparisons(st: model.Setting) -> list:
    """(label, verdict) for every claim at this k."""
    derived_loss = model.loss(st)
    tt, ss, _ = model.loss_terms(st)
    derived_h = model.h(st)
    return [
        ("D.1 display of $\\Phi(m)$ with the printed overlaps",
         model.compare(derived_loss, claimed_loss(st), st)),
        ("D.1: the self terms do not depend on $\\hat u$ (their $m$-derivative is 0)",
         model.compare(sympy.diff(tt + ss, st.m), 0, st)),
        ("D.1 gradient, first line ($\\xi^2/(1+\\xi^2/k)$, $\\langle v_i,\\hat v_j\\rangle^{p-1}$)",
         model.compare(derived_h, claimed_gradient_line_1(st), st)),
        ("D.1 gradient, second line ($(1/(1+\\xi^2/k))^p$)",
         model.compare(derived_h, claimed_gradient_line_2(st), st)),
        ("D.1 display defining $h(m)$ ($(1/(1+\\xi^2))^p$)",
         model.compare(derived_h, claimed_gradient_line_2(st, 1 / (1 + st.xi**2)), st)),
        ("D.1 power series with $(c_i\\hat c_j)^{l+1}$ and $\\langle w_i,w_j\\rangle^s$",
         model.compare(derived_h, claimed_d1_power_series(st), st)),
        ("Proposition 4 with $T(l,s)$ from the tensors",
         model.compare(derived_h, claimed_prop_4(st), st)),
    ]


def build() -> str:
    sections = []
    for k in SIZES:
        st = setting(k)
        sections.append(f"## k = {k}\n\n{model.claim_list(comparisons(st), st)}\n")
    st = setting(2)
    cross = model.overlap(model.row(0, st, False), model.row(1, st, True), st)
    self_overlap = model.overlap(model.row(0, st, False), model.row(1, st, False), st)
    body = "\n".join(sections)
    return rf"""# The population loss $\Phi(m)$ and Proposition 4 over the whole Gram matrix

All $k$ neurons are written out for $k \in \{{{", ".join(map(str, SIZES))}\}}$ with symbolic
$G_{{ij}}$ ($G_{{ii}} = 1$), $\lambda_i$ and $c_i = b_i/\sqrt k$, $\hat c_i = \hat b_i/\sqrt k$ with
$b_i^2 = \hat b_i^2 = 1$ (Assumption 3); the kernel is truncated at Hermite degree $P = {st.degree}$
with free symbols $\mu_0, \dots, \mu_{st.degree}$, so every identity holds for each degree
$p \le {st.degree}$.
Per-pair checks with symbolic $k$ are in `prop_4.md`.

## Derivation

1. Inner products are expanded bilinearly from $\langle w_i, w_j\rangle = G_{{ij}}$,
   $\langle w_i, u\rangle = \langle w_i, \hat u\rangle = 0$, $\|u\| = \|\hat u\| = 1$,
   $\langle u, \hat u\rangle = m$.  The norms come out as $\|w_i + \xi c_i u\|^2 = 1 + \xi^2/k$, and
   for example ($k = 2$)

$$
\langle v_1, v_2\rangle = {sympy.latex(self_overlap)}, \qquad
\langle v_1, \hat v_2\rangle = {sympy.latex(cross)}.
$$

2. $\Phi(m) = \mathbb E[(f^* - \hat f)^2] = \sum_{{i,j}} \lambda_i\lambda_j\big[K(\langle v_i,v_j\rangle)
   + K(\langle \hat v_i,\hat v_j\rangle) - 2K(\langle v_i,\hat v_j\rangle)\big]$ with
   $K(\rho) = \sum_{{p \le P}} \mu_p^2\rho^p$, expanded as a polynomial.
3. $h(m) = -d\Phi/dm$; the $m^l$ coefficients are compared as polynomials in the $\mu_p^2$,
   $\lambda_i$, $b_i$, $\hat b_i$, $G_{{ij}}$ and $\xi$.  The printed series are truncated at
   $l + s + 1 \le P$, exactly the terms the truncated kernel produces.

## Claims compared

{body}
The witness of the $(1/(1+\xi^2))^p$ display vanishes only at $k = 1$ (see `prop_4.md`).
"""
