"""Derivation: the GLM limit ξ = ξ̄√k, ξ̄ → ∞ (Remark 15, §3.1 after Prop. 4).

With ξ² = k/δ the derived h and Φ (:mod:`verify.derive.model`) are rational in
δ and regular at δ = 0; each [m^l μ_p²] piece is continued to δ = 0.  Because
the kernel is truncated at degree P, the limit of every coefficient with
l + s + 1 ≤ P is exact; for the full series the limit passes through the sum
since Σ p μ_p² < ∞ dominates it (|ρ| ≤ 1).
"""

from __future__ import annotations

import sympy

from verify.derive import claims, model

FILENAME = "glm_limit.md"
DELTA = sympy.Symbol("delta", positive=True)  # δ = 1/ξ̄²
GLM_K = 3


def to_limit(expr, st: model.Setting):
    """expr at ξ = ξ̄√k with ξ̄ → ∞: substitute ξ² = k/δ and continue each piece to δ = 0."""
    sub = expr.subs(st.xi, sympy.sqrt(st.k / DELTA))
    return sum(model.at_zero(part, DELTA) * st.m**l * st.mu[p] ** 2
               for (l, p), part in model.pieces(sub, st))


def remark_15_tail(h, st: model.Setting) -> list:
    """Remark 15: Σ_{s≥1} C(l+s,l)(l+s+1)μ²τ^s T(l,s) → 0 for every l, with the derived T(l,s)
    (the s ≥ 1 part of [m^l]h divided by the l-only factor 2(ξ²/k)^{l+1}τ^{l+1})."""
    xi, k = st.xi, st.k
    tau = 1 / (1 + xi**2 / k)
    out = []
    for l in range(st.degree - 1):
        tail = sum(model.piece(h, st, l, l + s + 1) * st.mu[l + s + 1] ** 2
                   for s in range(1, st.degree - l))
        out.append(tail / (2 * (xi**2 / k) ** (l + 1) * tau ** (l + 1)))
    return out


def comparisons() -> tuple:
    st = model.Setting(neurons=2)
    h = model.h(st)
    lam, b, bh, m = st.lam, st.b, st.b_hat, st.m
    h_inf = to_limit(h, st)
    closed = sum(2 * lam[i] * lam[j] * b[i] * bh[j] * model.kernel_derivative(b[i] * bh[j] * m, st)
                 for i in range(2) for j in range(2))
    s0_terms = model.series_claim(
        lambda l, s: (2 * (l + 1) * st.mu[l + 1] ** 2 * claims.prop_4_T(l, 0, st)) if s == 0 else 0,
        st)
    tails = sum(to_limit(t, st) for t in remark_15_tail(h, st))
    general = [
        ("Remark 15: the $s \\ge 1$ sums vanish for every $l$", model.compare(tails, 0, st)),
        ("limit of $h$ = the $s = 0$ terms, $2\\sum_l (l+1)\\mu_{l+1}^2T(l,0)m^l$",
         model.compare(h_inf, s0_terms, st)),
        ("limit of $h$ in closed form, $2\\sum_{ij}\\lambda_i\\lambda_j s_{ij}K'(s_{ij}m)$, "
         "$s_{ij} = kc_i\\hat c_j$ (derived, no printed counterpart)",
         model.compare(h_inf, closed, st)),
    ]
    glm = model.Setting(neurons=GLM_K, k=sympy.Integer(GLM_K))
    point = {**{v: sympy.Rational(1, GLM_K) for v in glm.lam}, **{v: 1 for v in glm.signs}}
    h_glm = to_limit(model.h(glm), glm).subs(point)
    loss_glm = to_limit(model.loss(glm), glm).subs(point)
    mu, mg = glm.mu, glm.m
    big_p = glm.degree
    remark = sum(l * mu[l + 1] ** 2 * mg**l for l in range(big_p))
    information = sum(p * mu[p] ** 2 * mg ** (p - 1) for p in range(1, big_p + 1))
    glm_loss = 2 * sum(mu[p] ** 2 * (1 - mg**p) for p in range(big_p + 1))
    specific = [
        ("Remark 15 as printed, $h(m) \\approx \\sum_l l\\,\\mu_{l+1}^2m^l$",
         model.compare(h_glm, remark, glm)),
        ("Remark 15 up to a constant: $h/2$ against $\\sum_l l\\,\\mu_{l+1}^2m^l$",
         model.compare(h_glm / 2, remark, glm)),
        ("§3.1: GLM $h(m) \\propto \\sum_p p\\,\\mu_p^2m^{p-1}$ (constant 2: $h/2$ compared)",
         model.compare(h_glm / 2, information, glm)),
        ("§3.1: GLM loss $2\\sum_p\\mu_p^2(1-m^p)$", model.compare(loss_glm, glm_loss, glm)),
    ]
    return general, specific, st, glm


def build() -> str:
    general, specific, st, glm = comparisons()
    return rf"""# The GLM limit $\xi = \bar\xi\sqrt k$, $\bar\xi \to \infty$ (Remark 15, §3.1)

## Derivation

1. $h$ and $\Phi$ are derived from the network (`verify/derive/model.py`), kernel truncated at
   Hermite degree $P = {st.degree}$.
2. Put $\xi^2 = k/\delta$ ($\delta = \bar\xi^{{-2}}$).  Then $1/(1+\xi^2/k) = \delta/(1+\delta)$ and
   $\langle v_i, \hat v_j\rangle = (\delta G_{{ij}} + k c_i\hat c_j m)/(1+\delta) \to s_{{ij}}m$
   with $s_{{ij}} = kc_i\hat c_j = b_i\hat b_j = \pm 1$, while $2\xi^2 c_i\hat c_j/(1+\xi^2/k)
   \to 2s_{{ij}}$: every $m^l\mu_p^2$ coefficient is rational in $\delta$ and regular at 0, and
   is continued to $\delta = 0$.  $G$ drops out of the limit.
3. Remark 15's sum is read off the derived $h$: the $s \ge 1$ part of $[m^l]h$ divided by
   $2(\xi^2/k)^{{l+1}}(1+\xi^2/k)^{{-(l+1)}}$, the factor Prop. 4 puts in front of it.

## General instance (two neurons written out, symbolic $k$, $G_{{12}}$, $\lambda$, signs)

{model.claim_list(general, st)}

## The GLM instance of §1.2 ($k = {GLM_K}$, $\lambda_i = 1/k$, $c = \hat c = \mathbf 1/\sqrt k$)

Here $T(l, 0) = 1$ for every $l$ and the limit is $h(m) = 2K'(m) = 2\sum_p p\,\mu_p^2m^{{p-1}}$.

{model.claim_list(specific, glm)}

Remark 15's weight $l$ is off by one: the coefficient of $m^l$ is $(l+1)\mu_{{l+1}}^2$
(times 2), so the printed form gives $h(0) \approx 0$ whatever $\mu_1$ is, whereas the limit has
$h(0) = 2\mu_1^2$; the information-exponent statement that follows it (and §3.1's
$h \propto \sum_p p\,\mu_p^2m^{{p-1}}$) agrees with the derivation.
"""
