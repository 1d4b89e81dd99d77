"""Derivation: the population loss, h(m) and its power series (Prop. 4, App. D.1) in SymPy.

From first principles, per pair of neurons (i, j): the loss is built from
E[σ(⟨v,x⟩)σ(⟨v',x⟩)] = Σ_p μ_p² ⟨v,v'⟩^p (truncated at degree P, with μ_p
symbols), the overlaps ⟨v_i, v̂_j⟩ are computed from the rows, h = −dΦ/dm, and
the coefficient of m^l is read off.  The paper's printed formulas enter only
as claims, compared with "equal" or "differs".
"""

from __future__ import annotations

import sympy

FILENAME = "prop_4.md"
P = 6  # Hermite degree of the truncation: every identity below is checked for p ≤ P


def symbols():
    xi, k = sympy.symbols("xi k", positive=True)
    m, g = sympy.symbols("m G_ij", real=True)
    lam_i, lam_j = sympy.symbols("lambda_i lambda_j", real=True)
    sign = sympy.Symbol("s_ij", real=True)  # c_i ĉ_j = s_ij/k with s_ij = ±1 (Assumption 3)
    mu = sympy.symbols(f"mu_0:{P + 1}", real=True)
    return xi, k, m, g, lam_i, lam_j, sign, mu


TAU = sympy.Symbol("tau", positive=True)  # display only: τ = 1/(1 + ξ²/k)


def derived_pair_h(tau=None):
    """h's contribution of the pair (i, j), derived as −d/dm of the cross term of Φ.

    ``tau`` replaces 1/(1 + ξ²/k) by a symbol, for a readable display only."""
    xi, k, m, g, lam_i, lam_j, sign, mu = symbols()
    norm2 = 1 + xi**2 / k  # ‖w_i + ξ c_i u‖² = 1 + ξ² c_i² with c_i² = 1/k, u ⊥ w_i, ‖u‖ = 1
    inverse = 1 / norm2 if tau is None else tau
    rho = (g + xi**2 * (sign / k) * m) * inverse  # ⟨v_i, v̂_j⟩
    kernel = sum(mu[p] ** 2 * rho**p for p in range(P + 1))
    cross_term = -2 * lam_i * lam_j * kernel  # the only part of Φ that depends on m
    return sympy.expand(-sympy.diff(cross_term, m))


def claimed_pair_h_series():
    """Proposition 4's h_l as printed, restricted to the pair (i, j) and to p = l+s+1 ≤ P."""
    xi, k, m, g, lam_i, lam_j, sign, mu = symbols()
    total = 0
    for l in range(P):
        inner = 0
        for s in range(P - l):
            if l % 2 == 1:
                t = lam_i * lam_j * g**s  # ‖Σ λ_i w_i^{⊗s}‖² restricted to (i, j)
            else:
                t = k * lam_i * lam_j * (sign / k) * g**s  # k⟨Σλ_i c_i w^{⊗s}, Σλ_j ĉ_j w^{⊗s}⟩
            inner += (sympy.binomial(l + s, l) * (l + s + 1) * mu[l + s + 1] ** 2
                      * (1 / (1 + xi**2 / k)) ** (l + s + 1) * t)
        total += 2 * (xi**2 / k) ** (l + 1) * inner * m**l
    return sympy.expand(total)


def claimed_d1_display():
    """App. D.1's display defining h(m), as printed: note (1/(1+ξ²))^p."""
    xi, k, m, g, lam_i, lam_j, sign, mu = symbols()
    return sympy.expand(sum(
        2 * lam_i * lam_j * xi**2 * (sign / k) * p * mu[p] ** 2 * (1 / (1 + xi**2)) ** p
        * (g + xi**2 * (sign / k) * m) ** (p - 1)
        for p in range(1, P + 1)
    ))


def is_zero(expr) -> bool:
    """Exact zero test for a rational function of the symbols: numerator of the
    combined fraction expands to 0 (fast, unlike simplify on these sizes)."""
    return sympy.expand(sympy.numer(sympy.together(expr))) == 0


def compare(derived, claimed) -> tuple[str, object]:
    """("equal", 0) or ("differs", the μ_1² part of the m⁰ difference), for s_ij = ±1."""
    xi, k, m, g, lam_i, lam_j, sign, mu = symbols()
    diffs = [(derived - claimed).subs(sign, s) for s in (1, -1)]
    # An exact rational point where the difference is nonzero proves "differs" at once;
    # only apparent zeros pay for the full symbolic test.
    point = {xi: sympy.Rational(3, 2), k: 7, g: sympy.Rational(1, 3), m: sympy.Rational(2, 5),
             lam_i: 1, lam_j: 2, **{mu[p]: p + 2 for p in range(P + 1)}}
    if all(d.subs(point) == 0 and is_zero(d) for d in diffs):
        return "equal", 0
    witness = sympy.expand(diffs[0]).coeff(m, 0).coeff(mu[1], 2)
    return "differs", sympy.factor(sympy.together(witness))


def build() -> str:
    derived = derived_pair_h()
    verdict_series, diff_series = compare(derived, claimed_pair_h_series())
    verdict_d1, diff_d1 = compare(derived, claimed_d1_display())
    xi, k, m, g, lam_i, lam_j, sign, mu = symbols()
    latex = sympy.latex
    shown = derived_pair_h(tau=TAU)
    coeff_rows = "\n".join(
        f"| {l} | ${latex(sympy.collect(shown.coeff(m, l).subs(sign, 1), [lam_i * lam_j]))}$ |"
        for l in range(2)
    )
    diff_note = "" if verdict_d1 == "equal" else (
        "\n\n  A witness: the $\\mu_1^2$ part of the $m^0$ coefficient of (derived − printed),"
        f" for $s_{{ij}} = 1$:\n\n$$\n{latex(diff_d1)}\n$$\n\n  It vanishes only when $k = 1$:"
        " the printed display drops the $/k$ in $(1 + \\xi^2/k)$."
    )
    return rf"""# Proposition 4: h(m) and its power series

Setting (App. D.1): teacher rows $v_i = (w_i + \xi c_i u)/\|w_i + \xi c_i u\|$, student rows
$\hat v_j = (w_j + \xi \hat c_j \hat u)/\|w_j + \xi \hat c_j \hat u\|$, with $u, \hat u \perp
\mathrm{{span}}(W)$, $c, \hat c \in \{{\pm 1/\sqrt k\}}^k$, so $c_i \hat c_j = s_{{ij}}/k$ with
$s_{{ij}} = \pm 1$.  Everything is derived per pair of neurons $(i, j)$ with $G_{{ij}} =
\langle w_i, w_j\rangle$ and the kernel truncated at Hermite degree $P = {P}$ (symbols
$\mu_0, \dots, \mu_{P}$); each identity below is therefore checked for all $p \le {P}$.

## Derivation

1. $\|w_i + \xi c_i u\|^2 = 1 + \xi^2/k$, and
   $\langle v_i, \hat v_j\rangle = \dfrac{{G_{{ij}} + \xi^2 c_i \hat c_j m}}{{1 + \xi^2/k}}$
   with $m = \langle u, \hat u\rangle$.
2. $\Phi(m) = \sum_{{i,j}} \lambda_i\lambda_j\big[K(\langle v_i, v_j\rangle)
   + K(\langle \hat v_i, \hat v_j\rangle) - 2K(\langle v_i, \hat v_j\rangle)\big]$,
   $K(\rho) = \sum_p \mu_p^2 \rho^p$; only the cross term depends on $m$.
3. After projecting onto $\mathrm{{span}}(W)^\perp$ and the tangent space of the sphere, $\hat u$
   enters only through $m$ and $\nabla_{{\hat u}} m = u \mapsto u - m\hat u$, so the population
   gradient is $-h(m)(u - m\hat u)$ with $h = -\,d\Phi/dm$.
4. The coefficient of $m^l$ in the pair's contribution is read off the derived polynomial
   (displayed with $\tau = 1/(1+\xi^2/k)$):

| $l$ | $[m^l]$ of the pair's $h$ (for $s_{{ij}} = 1$) |
|---|---|
{coeff_rows}

## Claims compared

- **Proposition 4** (power series with $T(l,s)$, both parities of $l$), restricted to the pair and
  to $l + s + 1 \le P$: **{verdict_series}**.
- **Appendix D.1, the display that defines $h(m)$** as printed, with $(1/(1+\xi^2))^p$:
  **{verdict_d1}**.{diff_note}

The numeric counterparts (closed form, series with truncation bounds, Monte Carlo) are in
`tests/test_population.py` and `tests/test_series.py`.
"""
