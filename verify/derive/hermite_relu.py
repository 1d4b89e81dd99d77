"""Derivation: the Hermite coefficients of relu and abs from half-normal moments."""

from __future__ import annotations

import sympy

from verify.model.activations import get_activation
from verify.model.hermite_exact import exact_coefficients

FILENAME = "hermite_relu.md"
TERMS = 13


def claimed_relu(p: int):
    """The formula as quoted in issue #2 (the claim, typed in)."""
    pi = sympy.pi
    if p == 0:
        return 1 / sympy.sqrt(2 * pi)
    if p == 1:
        return sympy.Rational(1, 2)
    if p % 2:
        return sympy.Integer(0)
    return (-1) ** (p // 2 - 1) * sympy.factorial2(p - 3) / sympy.sqrt(2 * pi * sympy.factorial(p))


def build() -> str:
    relu = exact_coefficients(get_activation("relu"), TERMS)
    ab = exact_coefficients(get_activation("abs"), TERMS)
    assert relu is not None and ab is not None
    rows = []
    for p in range(TERMS):
        claim = claimed_relu(p)
        verdict = "equal" if sympy.simplify(relu[p] - claim) == 0 else (
            f"differs by ${sympy.latex(sympy.simplify(relu[p] - claim))}$")
        rows.append(f"| {p} | ${sympy.latex(relu[p])}$ | ${sympy.latex(claim)}$ | {verdict} | "
                    f"${sympy.latex(ab[p])}$ |")
    table = "\n".join(rows)
    return rf"""# Hermite coefficients of relu and abs

Convention (paper §1.4): $h_p = \mathrm{{He}}_p/\sqrt{{p!}}$ and
$\mu_p(\sigma) = \mathbb{{E}}_{{g\sim N(0,1)}}[\sigma(g) h_p(g)]$.

## Derivation

For an activation that is a polynomial on each half-line,
$\sigma(t) = q_+(t)$ and $\sigma(-t) = q_-(t)$ for $t > 0$,

$$
\sqrt{{p!}}\,\mu_p = \mathbb{{E}}\big[\mathbf 1\{{g>0\}}\, q_+(g)\,\mathrm{{He}}_p(g)\big]
 + (-1)^p\,\mathbb{{E}}\big[\mathbf 1\{{g>0\}}\, q_-(g)\,\mathrm{{He}}_p(g)\big],
$$

because $\mathrm{{He}}_p(-t) = (-1)^p \mathrm{{He}}_p(t)$. Expanding the products
into monomials leaves only half-normal moments,

$$
M_k = \mathbb{{E}}[g^k \mathbf 1\{{g>0\}}] =
\begin{{cases}} (k-1)!!/2 & k \text{{ even}},\\ (k-1)!!/\sqrt{{2\pi}} & k \text{{ odd}}. \end{{cases}}
$$

For relu, $q_+(t) = t$ and $q_- = 0$; for abs, $q_+(t) = q_-(t) = t$, so
$\mu_p(\mathrm{{abs}}) = (1 + (-1)^p)\,\mathbb{{E}}[\mathbf 1\{{g>0\}} g\, h_p(g)]$,
which vanishes for odd $p$ and equals $2\mu_p(\mathrm{{relu}})$ for even $p$.
SymPy carries out the expansion exactly (`verify/model/hermite_exact.py`).

## Derived values against the quoted formula

The claim is the closed form quoted in issue #2:
$\mu_0 = 1/\sqrt{{2\pi}}$, $\mu_1 = 1/2$, $\mu_p = 0$ for odd $p \ge 3$, and
$\mu_p = (-1)^{{p/2-1}}(p-3)!!/\sqrt{{2\pi\, p!}}$ for even $p \ge 2$.

| $p$ | derived $\mu_p(\mathrm{{relu}})$ | claimed | verdict | derived $\mu_p(\mathrm{{abs}})$ |
|---|---|---|---|---|
{table}

The same coefficients are recomputed by tanh-sinh quadrature at 30 and 60 digits
in `tests/test_hermite.py` (agreement to $10^{{-(D-5)}}$ for $p < 40$).
"""
