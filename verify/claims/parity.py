r"""Exact facts from the symmetry of σ, for activations with no closed-form coefficients or kernel.

SymPy proves, as identities, that σ(−x) − σ(x) expands to 0 (σ even), σ(−x) + σ(x) − 2σ(0)
expands to 0 (σ − σ(0) odd: sigmoid), or that σ(x) − a x is even with a = σ'(0) (gelu).  Each
gives exact Hermite coefficients (h_p has the parity of p, and μ_p is linear in σ):

- σ − σ(0) odd: μ₀ = σ(0), μ_p = 0 for even p ≥ 2;
- σ − a x even: μ₁ = a, μ_p = 0 for odd p ≥ 3 (μ₁(x) = 1);
- σ odd or even: the one parity class of μ_p vanishes, and K(−ρ) = ∓K(ρ) for every ρ
  (K(ρ) = Σ μ_p² ρ^p has only the terms of σ's parity), with K(0) = μ₀².

:func:`opaque_kernel` is K of such an activation as a SymPy function that knows only these
facts, so the symbolic step can prove K(−ρ) == −K(ρ) for tanh and nothing else: an expression
that still holds it is never a number, so no inequality is decided through it.
"""

from __future__ import annotations

from functools import lru_cache

import sympy


@lru_cache(maxsize=64)
def symmetry(act) -> tuple[int, sympy.Expr | None, sympy.Expr | None]:
    """(parity, σ(0) when σ − σ(0) is odd, σ'(0) when σ − σ'(0) x is even): parity +1 even, −1 odd, 0."""
    x = act.x
    expr = act.expr
    reflected = expr.subs(x, -x)
    if sympy.expand(reflected - expr) == 0:
        return 1, None, None
    if sympy.expand(reflected + expr) == 0:
        return -1, sympy.Integer(0), None
    at_zero = sympy.simplify(expr.subs(x, 0))
    odd_shift = at_zero if at_zero.is_number and sympy.simplify(reflected + expr - 2 * at_zero) == 0 else None
    slope = sympy.simplify(sympy.diff(expr, x).subs(x, 0))
    even = slope.is_number and sympy.simplify(reflected - expr - 2 * slope * (-x)) == 0
    even_shift = slope if even else None
    return 0, odd_shift, even_shift


def exact_coefficient(act, p: int) -> sympy.Expr | None:
    """μ_p exactly when σ's symmetry alone fixes it, else None."""
    parity, offset, slope = symmetry(act)
    if parity == 1 and p % 2 == 1:
        return sympy.Integer(0)
    if parity == -1 and p % 2 == 0:
        return sympy.Integer(0)
    if offset is not None and (p == 0 or p % 2 == 0):
        return offset if p == 0 else sympy.Integer(0)
    if slope is not None and p % 2 == 1:
        return slope if p == 1 else sympy.Integer(0)
    return None


@lru_cache(maxsize=64)
def opaque_kernel(act):
    """K_σ as a SymPy function with σ's parity, or None when σ has neither parity (one class per
    activation: two calls must give the same function, or K(ρ) − K(ρ) would not cancel)."""
    parity, _, _ = symmetry(act)
    if parity == 0:
        return None
    mu0 = exact_coefficient(act, 0)
    name = f"K_{''.join(ch for ch in act.name if ch.isalnum())}"

    @classmethod
    def eval(cls, rho):
        if rho.is_zero and mu0 is not None:
            return mu0**2
        if rho.could_extract_minus_sign():
            return parity * cls(-rho)
        return None

    return type(name, (sympy.Function,), {"eval": eval, "is_real": True})
