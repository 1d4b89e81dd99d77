"""Derivation: dual kernels of relu, abs and erf, tied back to the Hermite coefficients."""

from __future__ import annotations

import sympy

from verify.model.activations import get_activation
from verify.model.hermite_exact import exact_coefficients
from verify.model.kernels import closed_form

FILENAME = "dual_kernels.md"
ORDER = 9  # Taylor coefficients compared: ρ^0 … ρ^8


def _section(name: str) -> str:
    act = get_activation(name)
    k, kp = closed_form(act), closed_form(act, derivative=True)
    rho = sympy.Symbol("rho", real=True)
    derivative_ok = sympy.simplify(sympy.diff(k, rho) - kp) == 0
    series = sympy.series(k, rho, 0, ORDER).removeO()
    mu = exact_coefficients(act, ORDER)
    assert mu is not None
    rows = []
    mismatches = 0
    for p in range(ORDER):
        taylor = sympy.simplify(series.coeff(rho, p))
        square = sympy.simplify(mu[p] ** 2)
        same = sympy.simplify(taylor - square) == 0
        mismatches += not same
        rows.append(f"| {p} | ${sympy.latex(taylor)}$ | ${sympy.latex(square)}$ | "
                    f"{'equal' if same else 'differs'} |")
    verdict = "equal for every p" if mismatches == 0 else f"{mismatches} coefficients differ"
    return "\n".join([
        f"## {name}",
        "",
        f"$$K_{{\\mathrm{{{name}}}}}(\\rho) = {sympy.latex(k)}$$",
        "",
        f"$$K'_{{\\mathrm{{{name}}}}}(\\rho) = {sympy.latex(kp)}$$",
        "",
        f"Symbolic check $\\frac{{d}}{{d\\rho}}K = K'$: **{'equal' if derivative_ok else 'differs'}**.",
        "",
        f"Taylor coefficients of $K$ at $\\rho = 0$ against $\\mu_p^2$: **{verdict}**.",
        "",
        "| $p$ | $[\\rho^p]\\,K(\\rho)$ | $\\mu_p^2$ (derived) | verdict |",
        "|---|---|---|---|",
        *rows,
        "",
    ])


def build() -> str:
    header = r"""# Dual kernels

For $(g_1, g_2)$ standard Gaussians with correlation $\rho$, the dual kernel is
$K_\sigma(\rho) = \mathbb{E}[\sigma(g_1)\sigma(g_2)] = \sum_p \mu_p^2 \rho^p$ and its
derivative is $K'_\sigma(\rho) = \sum_p p\,\mu_p^2 \rho^{p-1} = \mathbb{E}[\sigma'(g_1)\sigma'(g_2)]$.

The closed forms below are the arc-cosine kernel (relu), its abs analogue, and the
arcsine kernel of erf (Gaussian integration by parts gives $K'$ from
$\mathbb{E}[e^{-a(g_1^2+g_2^2)}] = ((1+2a)^2 - 4a^2\rho^2)^{-1/2}$).  Each is tied to
the independently derived Hermite coefficients twice: $K'$ must be the derivative of
$K$, and the Taylor coefficients of $K$ at 0 must be $\mu_p^2$.  The 2-D quadrature
comparison is in `tests/test_kernels.py`.

"""
    return header + "\n".join(_section(name) for name in ("relu", "abs", "erf"))
