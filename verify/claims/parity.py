r"""Exact facts from the symmetry of σ, for activations with no closed-form coefficients or kernel.

SymPy proves, as identities, that σ(−x) − σ(x) expands to 0 (σ even), σ(−x) + σ(x) − 2σ(0)
expands to 0 (σ − σ(0) odd: sigmoid), or that σ(x) − a x is even with a = σ'(0) (gelu).  Each
gives exact Hermite coefficients (h_p has the parity of p, and μ_p is linear in σ):

- σ − σ(0) odd: μ₀ = σ(0), μ_p = 0 for even p ≥ 2;
- σ − a x even: μ₁ = a, μ_p = 0 for odd p ≥ 3 (μ₁(x) = 1);
- σ odd or even: the one parity class of μ_p vanishes, and K(−ρ) = ∓K(ρ) for every ρ
  (K(ρ) = Σ μ_p² ρ^p has only the terms of σ's parity), with K(0) = μ₀².

:func:`opaque_kernel` is K (or K′) of an activation without a closed-form kernel as a SymPy
function that knows only these facts and its values at 0 and 1, so the symbolic step can prove
K(−ρ) == −K(ρ) for tanh, K(ρ) + K(−ρ) == 1/2 for the sigmoid or Kp(0) == mu(1)**2, and nothing
else.
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
    odd_shift = at_zero if at_zero.is_number and _identically_zero(reflected + expr - 2 * at_zero) else None
    # the only a with σ(x) − σ(−x) = 2 a x is (σ(1) − σ(−1))/2: no derivative at 0, which a kink
    # there (relu = Max(0, x), whose σ − x/2 = |x|/2 is even) does not have
    slope = sympy.simplify((expr.subs(x, 1) - expr.subs(x, -1)) / 2)
    even = slope.is_number and _identically_zero(reflected - expr + 2 * slope * x)
    even_shift = slope if even else None
    return 0, odd_shift, even_shift


def _identically_zero(expr) -> bool:
    """expr = 0 for every real x, proved by simplification (Max and Min as |.| first, which SymPy
    cancels: Max(0, −x) − Max(0, x) + x)."""
    return sympy.simplify(expr) == 0 or sympy.simplify(expr.rewrite(sympy.Abs)) == 0


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
def opaque_kernel(act, derivative: bool, mu0, mu1, second_moment, derivative_moment):
    """K_σ (or K′_σ) as a SymPy function that knows only exact facts of its series (one class per
    activation and derivative: two calls must give the same function, or K(ρ) − K(ρ) would not
    cancel).

    The facts: K(0) = μ₀², K′(0) = μ₁², K(1) = E σ(g)², K′(1) = E σ′(g)² (the arguments, exact
    values or opaque expectations; None where unknown), and the reflection ρ → −ρ that σ's symmetry
    fixes (:func:`symmetry`; K = Σ μ_p² ρ^p, K′ = Σ p μ_p² ρ^{p−1}):

    ========================  =========================  ==========================
    σ                         K(−r)                      K′(−r)
    ========================  =========================  ==========================
    even                      K(r)                       −K′(r)
    odd                       −K(r)                      K′(r)
    σ − c odd (sigmoid)       2c² − K(r)                 K′(r)
    σ − a x even (gelu)       K(r) − 2a² r               2a² − K′(r)
    ========================  =========================  ==========================

    An expression that still holds the function is never a number, so no inequality is decided
    through it except by the series steps (:mod:`verify.claims.structure`), which read these facts.
    """
    parity, offset, slope = symmetry(act)
    at_zero, at_one = (mu1**2 if mu1 is not None else None, derivative_moment) if derivative else (
        mu0**2 if mu0 is not None else None, second_moment)
    name = f"{'Kp' if derivative else 'K'}_{''.join(ch for ch in act.name if ch.isalnum())}"

    def reflected(cls, r):
        """K(−r) or K′(−r) from K(r) or K′(r) (the table above), or None."""
        if parity == 1:
            return -cls(r) if derivative else cls(r)
        if parity == -1:
            return cls(r) if derivative else -cls(r)
        if offset is not None:
            return cls(r) if derivative else 2 * offset**2 - cls(r)
        if slope is not None:
            return 2 * slope**2 - cls(r) if derivative else cls(r) - 2 * slope**2 * r
        return None

    @classmethod
    def eval(cls, rho):
        if rho.is_zero and at_zero is not None:
            return at_zero
        if rho == 1 and at_one is not None:
            return at_one
        if rho.could_extract_minus_sign():
            return reflected(cls, -rho)
        return None

    return type(name, (sympy.Function,), {"eval": eval, "is_real": True, "activation": act,
                                          "derivative": derivative})
