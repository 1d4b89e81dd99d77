"""The rank-1 fine-tuning model in SymPy, from its definition (shared by the derivations).

Vectors are linear combinations of the basis w_1 … w_n, u, û, and inner
products are expanded bilinearly with the table

    ⟨w_i, w_j⟩ = G_ij (G_ii = 1, Assumption 1),   ⟨w_i, u⟩ = ⟨w_i, û⟩ = 0 (Assumption 2),
    ⟨u, u⟩ = ⟨û, û⟩ = 1,   ⟨u, û⟩ = m.

The teacher and student rows are v_i = (w_i + ξ c_i u)/‖w_i + ξ c_i u‖ and
v̂_j = (w_j + ξ ĉ_j û)/‖·‖ with c_i = b_i/√k, ĉ_j = b̂_j/√k and b_i, b̂_j = ±1
(Assumption 3), enforced by reducing b² → 1 after every expansion.  The
kernel is E[σ(⟨v,x⟩)σ(⟨v',x⟩)] = Σ_{p≤P} μ_p² ⟨v,v'⟩^p, truncated at a
Hermite degree P, with free symbols μ_p: an identity between two
truncations is therefore proved for every Hermite degree p ≤ P at once
(each μ_p² is an independent symbol).  Nothing here uses the paper's result.

``Setting(neurons=2)`` with symbolic ``k`` is the pair (i, j) of Prop. 4's
per-pair check; ``Setting(neurons=k, k=k)`` is the whole Gram matrix.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import sympy

P = 6  # default Hermite degree of the truncation


@dataclass(frozen=True)
class Setting:
    """Symbols of one derivation: ``neurons`` written-out neurons, k neurons in the model."""

    neurons: int
    k: sympy.Expr = field(default_factory=lambda: sympy.Symbol("k", positive=True))
    degree: int = P
    orthonormal: bool = False  # G = I instead of symbolic off-diagonal entries

    @cached_property
    def xi(self) -> sympy.Symbol:
        return sympy.Symbol("xi", positive=True)

    @cached_property
    def m(self) -> sympy.Symbol:
        return sympy.Symbol("m", real=True)

    @cached_property
    def mu(self) -> tuple:
        return sympy.symbols(f"mu_0:{self.degree + 1}", real=True)

    @cached_property
    def lam(self) -> tuple:
        return sympy.symbols(f"lambda_1:{self.neurons + 1}", real=True)

    @cached_property
    def b(self) -> tuple:
        return sympy.symbols(f"b_1:{self.neurons + 1}", real=True)

    @cached_property
    def b_hat(self) -> tuple:
        return sympy.symbols(f"bhat_1:{self.neurons + 1}", real=True)

    @property
    def signs(self) -> tuple:
        return self.b + self.b_hat

    @property
    def c(self) -> tuple:
        return tuple(v / sympy.sqrt(self.k) for v in self.b)

    @property
    def c_hat(self) -> tuple:
        return tuple(v / sympy.sqrt(self.k) for v in self.b_hat)

    @cached_property
    def gram(self) -> sympy.Matrix:
        n = self.neurons

        def entry(i, j):
            if i == j:
                return sympy.Integer(1)
            if self.orthonormal:
                return sympy.Integer(0)
            a, b = min(i, j), max(i, j)
            return sympy.Symbol(f"G_{a + 1}{b + 1}", real=True)

        return sympy.Matrix(n, n, entry)

    @property
    def tau(self) -> sympy.Expr:
        """1/(1 + ξ²/k), written out (not derived: used by the claims and displays)."""
        return 1 / (1 + self.xi**2 / self.k)


def reduce_signs(expr, setting: Setting):
    """Expand and apply b_i² = b̂_j² = 1 (Assumption 3)."""
    signs = set(setting.signs)
    expr = sympy.expand(expr)
    return expr.replace(
        lambda e: e.is_Pow and e.base in signs and e.exp.is_Integer and e.exp > 1,
        lambda e: e.base ** (e.exp % 2),
    )


def inner(x: dict, y: dict, setting: Setting):
    """⟨x, y⟩ for vectors given as {basis name: coefficient}, from the table above."""
    def table(a, b):
        if a[0] == "w" and b[0] == "w":
            return setting.gram[a[1], b[1]]
        if a[0] == "w" or b[0] == "w":
            return 0
        return 1 if a == b else setting.m

    return sum(cx * cy * table(a, b) for a, cx in x.items() for b, cy in y.items())


def raw_row(i: int, setting: Setting, student: bool) -> dict:
    """w_i + ξ c_i u (teacher) or w_i + ξ ĉ_i û (student), unnormalised."""
    coeff = (setting.c_hat if student else setting.c)[i]
    return {("w", i): sympy.Integer(1), ("u_hat" if student else "u", None): setting.xi * coeff}


def row(i: int, setting: Setting, student: bool) -> dict:
    """v_i or v̂_i: the raw row divided by its norm (the norm derived, not typed in)."""
    raw = raw_row(i, setting, student)
    norm = sympy.sqrt(reduce_signs(inner(raw, raw, setting), setting))
    return {key: value / norm for key, value in raw.items()}


def overlap(x: dict, y: dict, setting: Setting):
    return sympy.cancel(reduce_signs(inner(x, y, setting), setting))


def kernel(rho, setting: Setting):
    """K(ρ) = Σ_{p≤P} μ_p² ρ^p."""
    return sum(setting.mu[p] ** 2 * rho**p for p in range(setting.degree + 1))


def kernel_derivative(rho, setting: Setting):
    """K'(ρ) = Σ_{p≤P} p μ_p² ρ^{p−1}."""
    return sum(p * setting.mu[p] ** 2 * rho ** (p - 1) for p in range(1, setting.degree + 1))


def loss_terms(setting: Setting) -> tuple:
    """(teacher–teacher, student–student, cross) parts of Φ: Σ λ_iλ_j K(⟨·,·⟩) each."""
    n = range(setting.neurons)
    teacher = [row(i, setting, False) for i in n]
    student = [row(i, setting, True) for i in n]
    lam = setting.lam

    def part(left, right):
        return sum(lam[i] * lam[j] * kernel(overlap(left[i], right[j], setting), setting)
                   for i in n for j in n)

    return part(teacher, teacher), part(student, student), part(teacher, student)


def loss(setting: Setting):
    """Φ(m) = E[(f* − f̂)²] = Σ λ_iλ_j [K(⟨v_i,v_j⟩) + K(⟨v̂_i,v̂_j⟩) − 2K(⟨v_i,v̂_j⟩)]."""
    tt, ss, ts = loss_terms(setting)
    return reduce_signs(tt + ss - 2 * ts, setting)


def h(setting: Setting):
    """h(m) = −dΦ/dm (the spherical gradient is −h(m)(u − m û))."""
    return reduce_signs(-sympy.diff(loss(setting), setting.m), setting)


def piece(expr, setting: Setting, l: int, p: int):
    """[m^l][μ_p²] of a polynomial in m and the μ's."""
    return sympy.expand(expr).coeff(setting.m, l).coeff(setting.mu[p], 2)


def tensor_inner(a, b, s: int, setting: Setting):
    """⟨Σ_i a_i w_i^{⊗s}, Σ_j b_j w_j^{⊗s}⟩ = Σ_ij a_i b_j G_ij^s (⟨x^{⊗s}, y^{⊗s}⟩ = ⟨x, y⟩^s)."""
    n = range(setting.neurons)
    return sum(a[i] * b[j] * setting.gram[i, j] ** s for i in n for j in n)


def series_claim(term, setting: Setting):
    """Σ_{l+s+1 ≤ P} term(l, s) m^l: a printed double series truncated like the derivation."""
    big_p = setting.degree
    return reduce_signs(sum(term(l, s) * setting.m**l
                            for l in range(big_p) for s in range(big_p - l)), setting)


def is_zero(expr, setting: Setting) -> bool:
    """Exact: the numerator of the combined fraction expands to 0 (after b² = 1)."""
    return reduce_signs(sympy.numer(sympy.together(expr)), setting) == 0


def pieces(expr, setting: Setting):
    """((l, p), [m^l][μ_p²]) for every l, p ≤ P; Φ and h are linear in the μ_p²."""
    expanded = sympy.expand(expr)
    for l in range(setting.degree + 1):
        by_m = expanded.coeff(setting.m, l)
        for p in range(setting.degree + 1):
            yield (l, p), by_m.coeff(setting.mu[p], 2)


def compare(derived, claimed, setting: Setting) -> tuple:
    """("equal", None) or ("differs", (l, p, the [m^l][μ_p²] part of derived − claimed)).

    The difference is split into its [m^l][μ_p²] pieces (small rational
    functions), each tested exactly; the first nonzero one is the witness.
    A difference outside these pieces (another power of m or μ) is caught by
    testing the remainder too."""
    diff = reduce_signs(derived - claimed, setting)
    covered = 0
    for (l, p), part in pieces(diff, setting):
        covered += part * setting.m**l * setting.mu[p] ** 2
        if not is_zero(part, setting):
            return "differs", (l, p, sympy.factor(sympy.together(reduce_signs(part, setting))))
    rest = sympy.expand(diff - covered)
    if not is_zero(rest, setting):
        return "differs", (None, None, sympy.factor(sympy.together(rest)))
    return "equal", None


def verdict_text(result: tuple, setting: Setting, extra: str = "") -> str:
    """Markdown: the verdict in bold and, for "differs", the witness as display math."""
    verdict, detail = result
    if verdict == "equal":
        return "**equal**."
    l, p, part = detail
    where = "" if l is None else f"the $m^{{{l}}}\\,\\mu_{{{p}}}^2$ part of "
    return (f"**differs**. Witness, {where}(derived − printed):\n\n"
            f"$$\n{sympy.latex(part)}\n$$\n{extra}")


def claim_list(items, setting: Setting) -> str:
    """Markdown bullets "- label: verdict" for (label, compare(...) result) pairs."""
    return "\n".join(f"- {label}: {verdict_text(result, setting)}" for label, result in items)


def at_zero(expr, var):
    """expr at var = 0 for a rational function regular there (cancel, then substitute)."""
    value = sympy.cancel(sympy.together(expr)).subs(var, 0)
    if value.has(sympy.zoo, sympy.nan, sympy.oo):
        raise ValueError(f"{expr} is singular at {var} = 0")
    return value
