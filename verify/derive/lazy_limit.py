"""Derivation: the lazy limit ξ → 0 (§1.2: "the teacher model becomes well-approximated by its
linearization around the base model ... the training dynamics degenerate to the lazy regime").

With ε = ξ², the derived Φ and h (:mod:`verify.derive.model`) are expanded to
first order in ε and compared with the loss of the linearised network,
derived separately: f_lin(x) = Σ λ_i [σ(⟨w_i,x⟩) + ξ c_i σ'(⟨w_i,x⟩)⟨u,x⟩].
"""

from __future__ import annotations

import sympy

from verify.derive import model

FILENAME = "lazy_limit.md"
EPS = sympy.Symbol("epsilon", positive=True)  # ε = ξ²


def in_eps(expr, st: model.Setting):
    return expr.subs(st.xi, sympy.sqrt(EPS))


def first_order(expr, st: model.Setting):
    """d/dε at ε = 0, piece by piece (Φ and h vanish at ε = 0)."""
    sub = in_eps(expr, st)
    return sum(model.at_zero(sympy.diff(part, EPS), EPS) * st.m**l * st.mu[p] ** 2
               for (l, p), part in model.pieces(sub, st))


def linearised_loss(st: model.Setting):
    """E[(f*_lin − f̂_lin)²]/ξ² = Σ λ_iλ_j E[σ'(⟨w_i,x⟩)σ'(⟨w_j,x⟩)⟨a_i,x⟩⟨a_j,x⟩],
    a_i = c_i u − ĉ_i û.  As a_i ⊥ span W, ⟨a_i,x⟩ is independent of the ⟨w,x⟩'s,
    so the expectation factorises into K'(G_ij) ⟨a_i, a_j⟩."""
    n = range(st.neurons)
    a = [{("u", None): st.c[i], ("u_hat", None): -st.c_hat[i]} for i in n]
    return model.reduce_signs(sum(
        st.lam[i] * st.lam[j] * model.kernel_derivative(st.gram[i, j], st) * model.inner(a[i], a[j], st)
        for i in n for j in n), st)


def order_of_coefficients(h, st: model.Setting) -> list:
    """For each l: (lowest power of ε in [m^l]h, its coefficient)."""
    sub = in_eps(h, st)
    out = []
    for l in range(st.degree):
        coeff = sympy.expand(sub).coeff(st.m, l)
        power = 0
        while model.is_zero(model.at_zero(coeff / EPS**power, EPS), st):
            power += 1
        out.append((l, power))
    return out


def comparisons(st: model.Setting, h) -> list:
    lin = linearised_loss(st)
    lin_h = model.reduce_signs(-sympy.diff(lin, st.m), st)
    n = range(st.neurons)
    h_first = first_order(h, st)
    return [
        ("$\\Phi$ at $\\xi = 0$ vanishes (teacher = student = base model)",
         model.compare(sum(model.at_zero(part, EPS) for _, part in model.pieces(
             in_eps(model.loss(st), st), st)), 0, st)),
        ("$\\Phi = \\xi^2\\,\\Phi_{\\mathrm{lin}} + O(\\xi^4)$: the leading order is the linearised "
         "network's loss", model.compare(first_order(model.loss(st), st), lin, st)),
        ("$h = \\xi^2\\,h_{\\mathrm{lin}} + O(\\xi^4)$ with $h_{\\mathrm{lin}} = -d\\Phi_{\\mathrm{lin}}/dm$",
         model.compare(h_first, lin_h, st)),
        ("$h_{\\mathrm{lin}} = 2\\sum_{ij}\\lambda_i\\lambda_jc_i\\hat c_jK'(G_{ij})$, independent of $m$",
         model.compare(h_first, sum(2 * st.lam[i] * st.lam[j] * st.c[i] * st.c_hat[j]
                                    * model.kernel_derivative(st.gram[i, j], st)
                                    for i in n for j in n), st)),
    ]


def build() -> str:
    st = model.Setting(neurons=2)
    h = model.h(st)
    rows = model.claim_list(comparisons(st, h), st)
    orders = "\n".join(f"| {l} | $\\xi^{{{2 * power}}}$ |" for l, power in order_of_coefficients(h, st))
    return rf"""# The lazy limit $\xi \to 0$

Setting: two neurons written out with symbolic $G_{{12}}$, $k$, $\lambda_i$ and signs, kernel
truncated at Hermite degree $P = {st.degree}$; $\varepsilon = \xi^2$.

## Derivation

1. $\Phi$ and $h = -d\Phi/dm$ are derived from the network (`verify/derive/model.py`); each
   $m^l\mu_p^2$ coefficient is rational in $\varepsilon$ and regular at 0, and is expanded to
   first order there.
2. The linearised network, $f_{{\mathrm{{lin}}}}(x) = \sum_i\lambda_i[\sigma(\langle w_i,x\rangle)
   + \xi c_i\sigma'(\langle w_i,x\rangle)\langle u,x\rangle]$ (the first-order Taylor expansion of
   $\sigma(\langle v_i,x\rangle)$ with $v_i = w_i + \xi c_iu + O(\xi^2)$), has loss
   $\xi^2\Phi_{{\mathrm{{lin}}}}$ with
   $\Phi_{{\mathrm{{lin}}}} = \sum_{{ij}}\lambda_i\lambda_jK'(G_{{ij}})\langle c_iu - \hat c_i\hat u,
   c_ju - \hat c_j\hat u\rangle$: $\langle c_iu - \hat c_i\hat u, x\rangle$ is independent of the
   $\langle w_j, x\rangle$ (Assumption 2) and $\mathbb E[\sigma'\sigma'] = K'$.  It is linear in
   $m$: the lazy (kernel) model.

## Claims compared

The paper's statement is qualitative (§1.2: at $\xi \to 0$ the teacher "becomes
well-approximated by its linearization around the base model, in which case the training
dynamics degenerate to the lazy training regime"); its quantitative content is checked here.

{rows}

## Order of each coefficient of $h$ in $\xi$

| $l$ | lowest order of $[m^l]\,h$ |
|---|---|
{orders}

So $h_l = O(\xi^{{2(l+1)}})$ (Prop. 4's factor $(\xi^2/k)^{{l+1}}$): as $\xi \to 0$ the
$m$-dependence of $h$, which drives the feature-learning dynamics, is $O(\xi^2)$ relative to
$h(0)$, and the population gradient $-h(m)(u - m\hat u)$ tends to that of the linear model.
"""
