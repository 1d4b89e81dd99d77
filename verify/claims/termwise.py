r"""Inequalities between dual kernels proved term by term of their Hermite series, for any activation.

K(x) = Σ_p μ_p² x^p and K′(x) = Σ_p p μ_p² x^{p−1} on [−1, 1], with μ_p² ≥ 0.  A claim whose gap
(lhs − rhs, signed to read ≥ 0) is linear in kernel calls,

    G(ρ) = Σ_j c_j(ρ)·F_j(x_j),   F_j ∈ {K, K′},  x_j ∈ {ρ, −ρ, 0, 1, −1},

with nothing else, is G(ρ) = Σ_p μ_p² φ_p(ρ) where φ_p(ρ) = Σ_j c_j(ρ) e_j(p) and e_j(p) = x_j^p
(K) or p x_j^{p−1} (K′).  It holds on [a, b] ⊂ [−1, 1] for *every* activation when φ_p ≥ 0 there
for every p the activation's symmetry allows (:func:`verify.claims.parity.symmetry`: odd σ has only
odd p, even σ only even p, σ − c odd adds p = 0, σ − a·x even adds p = 1).

- Small p (p ≤ TAIL_START, and the first p of the tail): φ_p is a closed form in ρ, proved ≥ 0
  on [a, b] by :func:`verify.claims.touching.prove_touching` (exact touching points, balls).
- The tail: for p > TAIL_START, K′(ρ) must not appear, so φ_p = α(ρ) u + γ(ρ) + δ(ρ) p with
  u = ρ^p, which lies in [0, 1] (ρ ≥ 0, or p even) or [−1, 1].  Either directly (δ = 0: α u + γ ≥ 0
  at both ends of u's range, an affine function of u) or by induction (φ_{p+s} − φ_p =
  α (ρ^s − 1) u + s δ ≥ 0 at both ends of u's range, s the step of the allowed p).

The exchange of Σ_p and Σ_j is exact: |φ_p| ≤ C (1 + p) and Σ p μ_p² = K′(1) is finite whenever a
δ ≠ 0 term (from K′(1)) is in the claim, Σ μ_p² = K(1) always.  Tangents and chords of K
(K(ρ) ≥ K(1) − K′(1)(1 − ρ); K(ρ) ≤ K(1) ρ for odd σ on [0, 1]) and Taylor remainders
(K(ρ) ≥ K(0) + K′(0) ρ when σ − a x is even) are proved this way.  Only non-strict relations.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from verify.claims.decision import Decision
from verify.claims.parity import symmetry
from verify.claims.touching import prove_touching
from verify.verdict import Basis

#: p up to this are checked one by one; the tail beyond by the affine argument in u = ρ^p.
TAIL_START = 4
STEP = "termwise"


def _undecided(detail: str) -> Decision:
    return Decision("undecided", None, STEP, detail=detail)


def termwise_step(rel) -> Decision:
    """The step of the module docstring."""
    if rel.op not in (">=", "<=") or len(rel.box) != 1 or rel.act is None:
        return _undecided("not a non-strict inequality in one real variable")
    ((rho, (low, high)),) = rel.box.items()
    if not (low.is_Rational and high.is_Rational and -1 <= low <= high <= 1):
        return _undecided(f"{rho} is not in a rational interval of [-1, 1]")
    gap = sympy.expand((rel.lhs - rel.rhs) if rel.op == ">=" else (rel.rhs - rel.lhs))
    calls = sorted((c for c in rel.calls if type(c).__name__ in ("K", "Kp")), key=sympy.default_sort_key)
    if not calls or len(calls) != len(rel.calls):
        return _undecided("lhs - rhs is not made of kernel calls K(x), Kp(x) alone")
    terms = []
    rest = gap
    for call in calls:
        coefficient = gap.coeff(call)
        (x,) = call.args
        if coefficient.has(*calls) or x not in (rho, -rho, 0, 1, -1) or coefficient.free_symbols - {rho}:
            return _undecided(f"{call} does not enter lhs - rhs linearly with a coefficient in {rho}")
        terms.append((coefficient, type(call).__name__ == "Kp", x))
        rest -= coefficient * call
    if sympy.expand(rest) != 0:
        return _undecided("lhs - rhs has a part that is not a kernel call")
    support = _support(rel.act)
    a, b = Fraction(int(low.p), int(low.q)), Fraction(int(high.p), int(high.q))
    first_tail = next(p for p in range(TAIL_START + 1, TAIL_START + 3) if support(p))
    for p in [p for p in range(TAIL_START + 1) if support(p)] + [first_tail]:
        phi = sympy.expand(sympy.Add(*[c * _functional(derivative, x, p) for c, derivative, x in terms]))
        if phi != 0 and not prove_touching(phi, rho, a, b).proved:
            return _undecided(f"the term p = {p} of the series, {phi}, is not proved >= 0")
    tail = _tail(terms, rho, a, b, support, first_tail)
    if tail is None:
        return _undecided(f"the terms p > {TAIL_START} are not proved >= 0 for every p")
    return Decision("holds", Basis.CERTIFIED, STEP,
                    detail=f"lhs - rhs = sum_p mu_p^2 phi_p({rho}) with every phi_p >= 0 on [{low}, {high}] "
                           f"(p <= {first_tail} one by one, the rest {tail}): a series with nonnegative "
                           "coefficients, for every activation of this symmetry")


def _support(act):
    """p -> whether μ_p can be nonzero for this activation (its symmetry; parity module)."""
    parity, offset, slope = symmetry(act)
    if parity == 1:
        return lambda p: p % 2 == 0
    if parity == -1:
        return lambda p: p % 2 == 1
    if offset is not None:
        return lambda p: p == 0 or p % 2 == 1
    if slope is not None:
        return lambda p: p == 1 or p % 2 == 0
    return lambda p: True


def _functional(derivative: bool, x, p: int):
    """e(p): the coefficient of μ_p² in K(x) (x^p) or K′(x) (p x^{p−1})."""
    if derivative:
        return sympy.Integer(0) if p == 0 else p * x ** (p - 1)
    return x**p


def _tail(terms, rho, a: Fraction, b: Fraction, support, first: int) -> str | None:
    """How φ_p ≥ 0 for every allowed p ≥ ``first`` (module docstring), or None."""
    step = 1 if support(first + 1) else 2
    alpha, gamma, delta = sympy.Integer(0), sympy.Integer(0), sympy.Integer(0)
    for c, derivative, x in terms:
        if x in (rho, -rho):
            if derivative:
                return None  # p ρ^{p−1} is not affine in u
            sign = 1 if x == rho else (-1) ** first if step == 2 else None
            if sign is None:
                return None  # (−ρ)^p changes sign with p
            alpha += sign * c
        elif x == 1:
            gamma, delta = (gamma, delta + c) if derivative else (gamma + c, delta)
        elif x == -1:
            if step != 2:
                return None
            parity = (-1) ** first
            gamma, delta = (gamma, delta - parity * c) if derivative else (gamma + parity * c, delta)
        # x = 0: e(p) = 0 for p >= 2
    lower = 0 if a >= 0 or (step == 2 and first % 2 == 0) else -1
    ends = (sympy.Integer(lower), sympy.Integer(1))
    if delta == 0 and all(_nonnegative(alpha * end + gamma, rho, a, b) for end in ends):
        return f"alpha(rho) u + gamma(rho) >= 0 for u = {rho}^p in [{lower}, 1]"
    difference = [alpha * (rho**step - 1) * end + step * delta for end in ends]
    if all(_nonnegative(d, rho, a, b) for d in difference):
        return f"by induction: phi_(p+{step}) - phi_p >= 0 for u = {rho}^p in [{lower}, 1]"
    return None


def _nonnegative(expr, rho, a: Fraction, b: Fraction) -> bool:
    expr = sympy.expand(expr)
    return expr == 0 or prove_touching(expr, rho, a, b).proved
