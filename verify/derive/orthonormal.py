"""Derivation: the orthonormal specialisation G = I of T(l,s) and h (§3.2.1, App. D.4).

Three neurons are written out with G = I and symbolic k, λ_i and signs (c_i = b_i/√k).
T(l,s) is derived twice: from its tensor definition with entrywise powers of G
(G^{∘0} is the all-ones matrix, G^{∘s} = I for s ≥ 1), and from h itself, as
[m^l μ_{l+s+1}²] h divided by Prop. 4's weight (the model's h is derived from
the network, :mod:`verify.derive.model`).  The printed orthonormal forms of
§3.2.1 and D.4, and the D.4 identities used in the proofs, are compared.
"""

from __future__ import annotations

import sympy

from verify.derive import claims, model

FILENAME = "orthonormal.md"
NEURONS = 3


def setting() -> model.Setting:
    return model.Setting(neurons=NEURONS, orthonormal=True)


def sums(st: model.Setting) -> dict:
    """The printed building blocks: Σλ, ‖λ‖², Σλc, Σλĉ, Σλ²cĉ."""
    lam, c, ch = st.lam, st.c, st.c_hat
    n = range(st.neurons)
    return {
        "sum_lam": sum(lam),
        "norm2": sum(v**2 for v in lam),
        "lam_c": sum(lam[i] * c[i] for i in n),
        "lam_c_hat": sum(lam[i] * ch[i] for i in n),
        "diag": sum(lam[i] ** 2 * c[i] * ch[i] for i in n),
        "all_pairs": sum(lam[i] * lam[j] * c[i] * ch[j] for i in n for j in n),
    }


def derived_T_from_h(h, l: int, s: int, st: model.Setting):
    """T(l,s) read off the derived h: [m^l μ_{l+s+1}²] h / (Prop. 4's weight without μ²)."""
    weight = claims.prop_4_weight(l, s, st) / st.mu[l + s + 1] ** 2
    return sympy.cancel(model.piece(h, st, l, l + s + 1) / weight)


def printed_T_forms(st: model.Setting) -> list:
    """(label, l parity, s case, printed expression) for §3.2.1 and D.4."""
    b = sums(st)
    k = st.k
    return [
        ("§3.2.1 $T(l,0)$, $l$ even: $k\\sum_{i,j}\\lambda_i\\lambda_j c_i\\hat c_j$", 0, 0,
         k * b["all_pairs"]),
        ("§3.2.1 $T(l,0)$, $l$ odd: $(\\sum_i\\lambda_i)^2$", 1, 0, b["sum_lam"] ** 2),
        ("§3.2.1 $T(l,s\\ge1)$, $l$ even: $k\\sum_i\\lambda_i^2c_i\\hat c_i$", 0, 1, k * b["diag"]),
        ("§3.2.1 $T(l,s\\ge1)$, $l$ odd: $\\|\\lambda\\|_2^2$", 1, 1, b["norm2"]),
        ("D.4 $T(l,s\\ge1)$, $l$ odd: $\\sum_i\\lambda_i^2$", 1, 1, b["norm2"]),
        ("D.4 $T(l,s\\ge1)$, $l$ even: $k\\sum_i\\lambda_i^2c_i\\hat c_i$", 0, 1, k * b["diag"]),
        ("D.4 $T(l,0)$, $l$ odd: $(\\sum_i\\lambda_i)^2$", 1, 0, b["sum_lam"] ** 2),
        ("D.4 $T(l,0)$, $l$ even: $k(\\sum_i\\lambda_ic_i)(\\sum_i\\lambda_i\\hat c_i)$", 0, 0,
         k * b["lam_c"] * b["lam_c_hat"]),
    ]


def t_comparisons(st: model.Setting, h) -> list:
    """Every printed form against T from h, for every (l, s) with l+s+1 ≤ P of its case."""
    out = []
    for label, parity, s_case, printed in printed_T_forms(st):
        cases = [(l, s) for l in range(st.degree) for s in range(st.degree - l)
                 if l % 2 == parity and (s == 0) == (s_case == 0)]
        result = ("equal", None)
        for l, s in cases:
            from_h = derived_T_from_h(h, l, s, st)
            from_tensors = claims.prop_4_T(l, s, st)
            for reference in (from_h, from_tensors):
                r = model.compare(reference, printed, st)
                if r[0] != "equal":
                    result = r
        out.append((f"{label} (all {len(cases)} cases $l+s+1 \\le P$)", result))
    return out


def theorem_6_identity(st: model.Setting) -> list:
    """D.4, proof of Thm 6: Σ_{l,s}(ξ²/k)^l C(l+s,l)(l+s+1)μ²τ^{l+s}
    = Σ_p (p+1)μ_{p+1}²(k/(k+ξ²))^p(1+ξ²/k)^p ≤ Σ_p (p+1)μ_{p+1}²."""
    xi, k, mu = st.xi, st.k, st.mu
    big_p = st.degree
    tau = 1 / (1 + xi**2 / k)
    double_sum = sum((xi**2 / k) ** l * sympy.binomial(l + s, l) * (l + s + 1) * mu[l + s + 1] ** 2
                     * tau ** (l + s) for l in range(big_p) for s in range(big_p - l))
    line_2 = sum((p + 1) * mu[p + 1] ** 2 * (k / (k + xi**2)) ** p * (1 + xi**2 / k) ** p
                 for p in range(big_p))
    line_3 = sum((p + 1) * mu[p + 1] ** 2 for p in range(big_p))
    return [
        ("D.4 (Thm 6 proof), the double sum regrouped by $p = l+s$",
         model.compare(double_sum, line_2, st)),
        ("D.4 (Thm 6 proof), $(k/(k+\\xi^2))^p(1+\\xi^2/k)^p = 1$, so the bound "
         "$\\le \\sum_p (p+1)\\mu_{p+1}^2$ holds with equality",
         model.compare(double_sum, line_3, st)),
    ]


def theorem_6_constant(st: model.Setting, h) -> tuple:
    """D.4, proof of Thm 6: the constant term printed as ξ²(Σλc)(Σλĉ)μ_1²/(1+ξ²/k)."""
    b = sums(st)
    printed = st.xi**2 * b["lam_c"] * b["lam_c_hat"] * st.mu[1] ** 2 / (1 + st.xi**2 / st.k)
    derived = model.piece(h, st, 0, 1) * st.mu[1] ** 2
    return ("D.4 (Thm 6 proof), the constant term "
            "$\\xi^2(\\sum_i\\lambda_ic_i)(\\sum_i\\lambda_i\\hat c_i)\\mu_1^2/(1+\\xi^2/k)$",
            model.compare(derived, printed, st))


def claim_1_chain(st: model.Setting, h) -> list:
    """D.4, proof of Claim 1: the five printed lines, each against the derived s = 0 terms
    of even l > 0 (the terms Claim 1 is about), and the printed odd s = 1 terms."""
    xi, k, m, mu = st.xi, st.k, st.m, st.mu
    big_p = st.degree
    tau = 1 / (1 + xi**2 / k)
    t00 = k * sums(st)["all_pairs"]
    norm2 = sums(st)["norm2"]
    even_s0 = sum(model.piece(h, st, l, l + 1) * mu[l + 1] ** 2 * m**l
                  for l in range(2, big_p, 2))
    odd_s1 = sum(model.piece(h, st, l, l + 2) * mu[l + 2] ** 2 * m**l
                 for l in range(1, big_p - 1, 2))
    all_l = range(1, big_p)
    odd_l = range(1, big_p - 1, 2)
    lines = [
        sum(2 * (xi**2 / k) ** (l + 1) * (l + 1) * mu[l + 1] ** 2 * tau ** (l + 1) * t00 * m**l
            for l in all_l),
        2 * m * xi**2 / k * t00 * sum((xi**2 / k) ** l * (l + 1) * mu[l + 1] ** 2 * tau ** (l + 1)
                                      * m ** (l - 1) for l in all_l),
        2 * m * xi**2 / k * t00 * sum((xi**2 / k) ** (l + 1) * (l + 2) * mu[l + 2] ** 2
                                      * tau ** (l + 2) * m**l for l in odd_l),
        2 * m * xi**2 / k * t00 * sum(sympy.Rational(1, l + 1) * sympy.binomial(l + 1, l)
                                      * (xi**2 / k) ** (l + 1) * (l + 2) * mu[l + 2] ** 2
                                      * tau ** (l + 2) * m**l for l in odd_l),
        2 * m * xi**2 / k * t00 * sum(sympy.Rational(1, l + 1) * sympy.binomial(l + 1, l)
                                      * (xi**2 / k) ** (l + 1) * (l + 2) * mu[l + 2] ** 2
                                      * tau ** (l + 2) * m**l for l in odd_l),
    ]
    labels = [
        "line 1, $\\sum_{l>0}$ read literally (every $l > 0$)",
        "line 2, $\\frac{2m\\xi^2}{k}(\\dots)\\sum_{l>0}$ (every $l>0$)",
        "line 3, re-indexed to $\\sum_{l\\ \\mathrm{odd}}$",
        "line 4, with $\\frac{1}{l+1}\\binom{l+1}{l}$",
        "line 5, as $s = 1$ terms $\\frac{1}{l+s}\\binom{l+s}{l}$",
    ]
    out = [(f"D.4 (Claim 1 proof) {lab}", model.compare(even_s0, line, st))
           for lab, line in zip(labels, lines, strict=True)]
    printed_odd = 2 * norm2 * sum((xi**2 / k) ** (l + 1) * sympy.binomial(l + 1, l) * (l + 2)
                                  * mu[l + 2] ** 2 * tau ** (l + 2) * m**l for l in odd_l)
    out.append(("D.4 (Claim 1 proof) the odd $s = 1$ terms "
                "$2\\|\\lambda\\|_2^2\\sum_{l\\ \\mathrm{odd}}(\\dots)m^l$",
                model.compare(odd_s1, printed_odd, st)))
    return out


def build() -> str:
    st = setting()
    h = model.h(st)
    t_rows = model.claim_list(t_comparisons(st, h), st)
    identity_rows = model.claim_list(theorem_6_identity(st) + [theorem_6_constant(st, h)], st)
    chain_rows = model.claim_list(claim_1_chain(st, h), st)
    shown = "\n".join(
        f"| {l} | {s} | ${sympy.latex(sympy.factor(derived_T_from_h(h, l, s, st)))}$ |"
        for l, s in ((0, 0), (1, 0), (0, 1), (1, 1), (2, 2)))
    return rf"""# Orthonormal features: $T(l,s)$ and $h$ at $G = I$ (§3.2.1, Appendix D.4)

Setting: {NEURONS} neurons written out with $\langle w_i, w_j\rangle = \delta_{{ij}}$, symbolic $k$,
$\lambda_i$, $c_i = b_i/\sqrt k$, $\hat c_i = \hat b_i/\sqrt k$ ($b_i^2 = \hat b_i^2 = 1$), kernel
truncated at Hermite degree $P = {st.degree}$ (so $l + s + 1 \le P$).

## Derivation

1. $h(m) = -d\Phi/dm$ is derived from the network (`verify/derive/model.py`, as in `loss.md`).
2. $T(l,s)$ is read off $h$: the $m^l\mu_{{l+s+1}}^2$ coefficient divided by Proposition 4's
   weight $2(\xi^2/k)^{{l+1}}\binom{{l+s}}{{l}}(l+s+1)(1+\xi^2/k)^{{-(l+s+1)}}$.  It is also
   computed from the tensor definition, $\langle \sum_i a_i w_i^{{\otimes s}}, \sum_j b_j
   w_j^{{\otimes s}}\rangle = \sum_{{ij}} a_i b_j G_{{ij}}^s$, where $G^{{\circ 0}}$ is the all-ones
   matrix and $G^{{\circ s}} = I$ for $s \ge 1$: that is why $s = 0$ differs from $s \ge 1$.

| $l$ | $s$ | $T(l,s)$ read off $h$ |
|---|---|---|
{shown}

## The printed orthonormal forms of $T(l,s)$

Each printed form is compared with both derivations of $T$ for every $(l, s)$ of its case.

{t_rows}

Consequently every odd-$l$ coefficient of $h$ is a non-negative combination of $\mu_p^2$ with
coefficients $(\sum_i\lambda_i)^2$ and $\|\lambda\|^2$: the $b_l \ge 0$ of §3.2.1.

## Identities used in the proof of Theorem 6 (Lemma 6)

{identity_rows}

## The chain of displays in the proof of Claim 1

Reference: the derived $s = 0$ terms of even $l > 0$ (the terms Claim 1 bounds), i.e.
$\sum_{{l>0\ \mathrm{{even}}}} [m^l\mu_{{l+1}}^2]h\ \mu_{{l+1}}^2 m^l$.  Claim 1 is about even $l$; the
first two printed lines sum over every $l > 0$, so read literally they also contain the odd-$l$
$s = 0$ terms (with $T(l,0)$ of even $l$), and only from line 3 on is the sum restricted.

{chain_rows}

Inequalities (Claim 1's sign statement, the $\frac{{1}}{{l+1}} \le \frac12$ step, probability
bounds) are outside an "equal/differs" check and are not assessed here.
"""
