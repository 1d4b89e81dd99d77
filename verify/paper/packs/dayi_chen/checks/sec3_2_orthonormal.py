r"""§3.2 (orthonormal and separated features) and Appendices D.4–D.5: Claim 1, Lemmas 6 and 8,
Proposition 7, the orthonormal reductions and the displays of the proofs (eqs. 7–9, 13, 14).

References, never the paper's displays:

- symbolic: h(m) for orthonormal features derived from the per-pair −dΦ/dm of
  :func:`verify.derive.prop_4.derived_pair_h` (Hermite degree ≤ ``P``, symbols ξ, k, m, μ_p).
  With G = I only two pair types exist (G_ij = 0 off the diagonal, 1 on it) and c_iĉ_j = s/k
  with s = b_i b̂_j = ±1, so h depends on c, ĉ, λ only through
  S1 = (Σλ)², S2 = ‖λ‖², A = Σλ_iλ_j b_i b̂_j = k²(Σλc)(Σλĉ)/k, D = Σλ_i² b_i b̂_i;
- numerical: the closed form h(m) = 2ξ² Σ λλ cĉ K'(ρ)/(nn̂) (:mod:`verify.model.population`),
  reduced for λ = 1 and G = I to four multinomial counts of the sign pairs (b_i, b̂_i), so that
  the law of h over c, ĉ is sampled exactly and cheaply.
"""

from __future__ import annotations

import math

import numpy as np
import sympy
from flint import arb
from scipy.special import comb

from verify.base.budget import BudgetExceededError, guarded
from verify.certified import certified_hermite_coefficients
from verify.certified.balls import arithmetic_of
from verify.checks import certify
from verify.checks.certify import attempt
from verify.checks.core import check
from verify.derive import prop_4
from verify.model import population
from verify.model.fast_kernels import fast_kernel
from verify.model.hermite import hermite_coefficients
from verify.model.instance import Instance, Numbers
from verify.model.population import h
from verify.verdict import Basis, FailureKind, Outcome, Verdict, compare_probability, fit_exponent, maximise

P = prop_4.P  # Hermite degree of every symbolic identity below


# --- symbolic reference: h(m) for orthonormal features ------------------------------------
def _symbols():
    s1, s2, a, d = sympy.symbols("S1 S2 A D", real=True)
    return s1, s2, a, d


def derived_orthonormal_h():
    """h(m) for G = I from the per-pair derivation, in the symbols S1, S2, A, D (degree ≤ P).

    Pair contribution H(G_ij, s_ij) with λ_iλ_j factored out, split into its even and odd parts
    in s = ±1: Σ_{i≠j} λλ = S1 − S2, Σ_{i≠j} λλ s = A − D, Σ_i λ_i² = S2, Σ_i λ_i² s_ii = D.
    """
    xi, k, m, g, lam_i, lam_j, sign, mu = prop_4.symbols()
    s1, s2, a, d = _symbols()
    pair = prop_4.derived_pair_h().subs({lam_i: 1, lam_j: 1})
    plus, minus = pair.subs(sign, 1), pair.subs(sign, -1)
    even, odd = (plus + minus) / 2, (plus - minus) / 2
    return sympy.expand((s1 - s2) * even.subs(g, 0) + (a - d) * odd.subs(g, 0)
                        + s2 * even.subs(g, 1) + d * odd.subs(g, 1))


def claimed_orthonormal_t(l: int, s: int):
    """§3.2.1 / D.4: T(l,0) = k Σλλcĉ (l even), (Σλ)² (l odd); T(l,s≥1) = kΣλ²cĉ (even), ‖λ‖² (odd).

    In the symbols: k Σλ_iλ_j c_iĉ_j = A and k Σλ_i² c_iĉ_i = D (c = b/√k)."""
    s1, s2, a, d = _symbols()
    if s == 0:
        return s1 if l % 2 else a
    return s2 if l % 2 else d


def _prop4_weight(l: int, s: int):
    """Prop. 4's coefficient of T(l,s) m^l: 2(ξ²/k)^{l+1} C(l+s,l)(l+s+1) μ²_{l+s+1} (1/(1+ξ²/k))^{l+s+1}."""
    xi, k, m, *_, mu = prop_4.symbols()
    return (2 * (xi**2 / k) ** (l + 1) * sympy.binomial(l + s, l) * (l + s + 1) * mu[l + s + 1] ** 2
            * (1 / (1 + xi**2 / k)) ** (l + s + 1))


def _equal(a, b) -> bool:
    return prop_4.is_zero(a - b)


def _orthonormal_prop4(t=None):
    """Prop. 4's series with the orthonormal T of §3.2.1 plugged in (p = l+s+1 ≤ P)."""
    t = claimed_orthonormal_t if t is None else t
    m = prop_4.symbols()[2]
    return sympy.expand(sum(_prop4_weight(l, s) * t(l, s) * m**l for l in range(P) for s in range(P - l)))


def _tensor_t_numeric(rng) -> float:
    """max relative gap between T(l,s) from explicit tensors w_i^{⊗s} (orthonormal rows, s ≤ 3)
    and the printed orthonormal reduction, on random λ, b, b̂ (k = 3, d = 5)."""
    k, d = 3, 5
    W = np.linalg.qr(rng.standard_normal((d, k)))[0].T
    lam = rng.standard_normal(k)
    b, bh = rng.choice([-1.0, 1.0], k), rng.choice([-1.0, 1.0], k)
    c, ch = b / np.sqrt(k), bh / np.sqrt(k)

    def tensor(weights, s):
        out = 0.0
        for wgt, row in zip(weights, W, strict=True):
            t = np.ones(()) if s == 0 else row
            for _ in range(s - 1):
                t = np.multiply.outer(t, row)
            out = out + wgt * t
        return out

    claimed = {(0, 0): k * lam @ c * (lam @ ch), (1, 0): lam.sum() ** 2,
               (0, 1): k * np.sum(lam**2 * c * ch), (1, 1): lam @ lam}
    worst = 0.0
    for s in range(4):
        odd = float(np.sum(tensor(lam, s) ** 2))
        even = float(k * np.sum(tensor(lam * c, s) * tensor(lam * ch, s)))
        for parity, value in ((1, odd), (0, even)):
            target = claimed[(parity, min(s, 1))]
            worst = max(worst, abs(value - target) / max(1.0, abs(target)))
    return worst


@check("s3.2.1-orthonormal-T", "§3.2.1 (orthonormal T(l,s))", "3.2.1 / D.4", "symbolic + exact")
def s321_orthonormal_t(ctx) -> Outcome:
    """§3.2.1 (and again D.4): "First we assume w_1, …, w_k are orthonormal, so that the form of T(l,s) in Theorem 4 reduces to: T(l,0) = k Σ_ij λ_iλ_j c_i ĉ_j (l even), (Σ_i λ_i)² (l odd), and T(l, s ≥ 1) = k Σ_i λ_i² c_i ĉ_i (l even), ‖λ‖₂² (l odd)".

    Evidence: (i) explicit tensors Σλ_i w_i^{⊗s} for random orthonormal rows (k = 3, d = 5,
    s ≤ 3), float64, relative tolerance 1e-12 (products of O(1) entries); (ii) Prop. 4's series
    with the printed T plugged in equals h(m) derived per pair for G = I (SymPy, Hermite degree
    ≤ 6, symbolic ξ, k, m, μ_p, and λ, c, ĉ through S1, S2, A, D).
    """
    tensor_gap = max(_tensor_t_numeric(ctx.rng("tensor", r)) for r in range(4))
    symbolic = _equal(_orthonormal_prop4(), derived_orthonormal_h())
    numbers = {"tensor_relative_gap": tensor_gap, "symbolic_equal": symbolic, "max_degree": P}
    if tensor_gap > 1e-12 or not symbolic:
        return Outcome(Verdict.FAILS, f"orthonormal T reduction differs (tensor gap {tensor_gap:.2e}, "
                       f"symbolic equal: {symbolic})", numbers=numbers,
                       counterexample={"k": 3, "tensor_relative_gap": tensor_gap},
                       basis=Basis.EXACT if not symbolic else Basis.NUMERICAL)
    return Outcome(Verdict.HOLDS, f"explicit tensors agree to {tensor_gap:.1e}; Prop. 4 with the printed T "
                   f"equals the derived orthonormal h(m) (SymPy, degree <= {P})", numbers=numbers,
                   notes=["Decided by: the SymPy identity (exact, every T(l,s) with l + s < 6); the float64 "
                          "tensor comparison (s <= 3) only corroborates it."])


# --- §3.2.1 even/odd display and eqs. (7)–(9) ----------------------------------------------
def _parts(expr):
    """(even part, odd part) in m of a polynomial in m."""
    m = prop_4.symbols()[2]
    poly = sympy.Poly(expr, m)
    even = sum(cf * m**e[0] for e, cf in poly.terms() if e[0] % 2 == 0)
    odd = sum(cf * m**e[0] for e, cf in poly.terms() if e[0] % 2 == 1)
    return sympy.expand(even), sympy.expand(odd)


def claimed_even_lines(s_start: int = 2):
    """§3.2.1's display, first two lines (the even powers of m), as printed: the second sum
    runs over "s > 1" (``s_start`` = 2); eq. (8) writes s ≥ 1 (``s_start`` = 1)."""
    xi, k, m, *_, mu = prop_4.symbols()
    s1, s2, a, d = _symbols()
    tau = k / (k + xi**2)
    first = 2 * a * sum((xi**2 / k) ** (l + 1) * (l + 1) * mu[l + 1] ** 2 * tau ** (l + 1) * m**l
                        for l in range(0, P, 2))
    second = 2 * d * sum((xi**2 / k) ** (l + 1) * sympy.binomial(l + s, l) * (l + s + 1) * mu[l + s + 1] ** 2
                         * tau ** (l + s + 1) * m**l
                         for l in range(0, P, 2) for s in range(s_start, P - l))
    return sympy.expand(first + second)


ODD_POINTS = 6  # random rational points at which the odd coefficients' signs are tested


def _odd_coefficients_nonnegative(odd, rng) -> bool:
    """The odd part is free of A and D, and each coefficient is ≥ 0 at random positive points."""
    xi, k, m, *_, mu = prop_4.symbols()
    s1, s2, a, d = _symbols()
    if odd.has(a) or odd.has(d):
        return False
    for _ in range(ODD_POINTS):
        point = {xi: sympy.Rational(int(rng.integers(1, 40)), 7), k: int(rng.integers(1, 50)),
                 s1: sympy.Rational(int(rng.integers(0, 30)), 3), **{mu[p]: sympy.Rational(
                     int(rng.integers(-9, 10)), 5) for p in range(P + 1)}}
        point[s2] = sympy.Rational(int(rng.integers(0, 30)), 3)
        poly = sympy.Poly(odd.subs(point), m)
        if any(cf < 0 for cf in poly.coeffs()):
            return False
    return True


def _readable(expr):
    """``expr`` factored for the evidence, unless its rationals are long or the factoring runs past
    the CPU budget: SymPy's multivariate factoring (Wang's Hensel lifting) ran for over 20 minutes on
    the difference a perturbed claim (claimed x (1 + 1e-13)) leaves, so such a difference is shown
    with its common factors only."""
    digits = max((len(str(abs(r.p))) + len(str(r.q)) for r in expr.atoms(sympy.Rational)), default=0)
    if digits > 12:
        return sympy.factor_terms(expr)
    try:
        # under the CPU budget: Wang's algorithm draws random evaluation points, and on the difference
        # that claimed x (1 + 1e-4) leaves it ran past 15 minutes in a calibration run
        return guarded("factoring the missing term for the evidence", sympy.factor, expr)
    except BudgetExceededError:
        return sympy.factor_terms(expr)


@check("s3.2.1-even-odd", "§3.2.1 (even/odd decomposition of h)", "3.2.1", "symbolic")
def s321_even_odd(ctx) -> Outcome:
    """§3.2.1: "h(m) = 2[k Σ_ij λ_iλ_j c_iĉ_j] Σ_{l≥0 even} (ξ²/k)^{l+1}(l+1)μ_{l+1}(σ)²(k/(k+ξ²))^{l+1} m^l + 2[k Σ_i λ_i² c_iĉ_i] Σ_{l≥0 even, s>1} (ξ²/k)^{l+1} C(l+s,l)(l+s+1)μ_{l+s+1}(σ)²(k/(k+ξ²))^{l+s+1} m^l + Σ_{l≥1 odd} b_l m^l, for some non-negative coefficients b_l ≥ 0."

    Reference: the derived orthonormal h(m) (SymPy, degree ≤ 6).  Its even part is compared
    with the first two lines as printed (s > 1); its odd part must be free of c, ĉ (A, D) with
    non-negative coefficients (checked at random rational points).  The correction s ≥ 1 (as in
    eq. (8)) is verified the same way.
    """
    even, odd = _parts(derived_orthonormal_h())
    printed = claimed_even_lines()
    odd_ok = _odd_coefficients_nonnegative(odd, ctx.rng("odd"))
    numbers = {"odd_part_nonnegative_and_free_of_c": odd_ok}
    if _equal(even, printed) and odd_ok:
        # odd coefficients >= 0 is only tested at six random rational points: a search
        return Outcome(Verdict.HOLDS, f"even part equals the two printed lines (SymPy, degree <= {P}); the odd part "
                       f"is free of c, c_hat, and its coefficients are >= 0 at {ODD_POINTS} random rational points "
                       "(exact values, but a sample, not a proof)", numbers=numbers, basis=Basis.NUMERICAL)
    xi, k, m, *_, mu = prop_4.symbols()
    s1, s2, a, d = _symbols()
    missing = _readable(sympy.expand(even - printed).coeff(m, 0))
    corrected = _equal(even, claimed_even_lines(s_start=1)) and odd_ok
    point = {xi: 1, k: 2, a: 4, d: 2, **{mu[p]: (1 if p == 2 else 0) for p in range(P + 1)}}
    return Outcome(
        Verdict.FAILS,
        f"the D-line (s > 1) drops the s = 1 even terms: derived - printed = {sympy.sstr(missing)} at m^0",
        numbers=numbers | {"missing_m0_term": sympy.sstr(missing)},
        counterexample={"sigma": "he2 (mu_2 = 1 only)", "k": 2, "xi": 1, "lambda": [1, 1], "b": [1, 1],
                        "b_hat": [1, 1], "m": 0, "h(0) derived": float(even.subs(point).subs(m, 0)),
                        "h(0) printed": float(printed.subs(point).subs(m, 0))},
        correction="sum over l >= 0 even, s >= 1 in the second line (as in eq. (8))",
        correction_verified=corrected)


def claimed_eq_7():
    """Eq. (7): 2[k Σλ_iλ_jc_iĉ_j] μ_1² ξ²/(k+ξ²)."""
    xi, k, *_, mu = prop_4.symbols()
    return 2 * _symbols()[2] * mu[1] ** 2 * xi**2 / (k + xi**2)


@check("eq-7-9", "Eqs. (7)–(9)", "3.2.1", "symbolic")
def eq_7_9(ctx) -> Outcome:
    """Eqs. (7)–(9): "h(m) = 2[k Σ_ij λ_iλ_j c_iĉ_j] μ_1(σ)²(ξ²/(k+ξ²)) (7) + 2[k Σ_i λ_i² c_iĉ_i] Σ_{l≥0 even, s≥1} (ξ²/k)^{l+1} C(l+s,l)(l+s+1)μ_{l+s+1}(σ)²(k/(k+ξ²))^{l+s+1} m^l (8) + h̃(m) (9), where h̃(m)m > 0, with high probability due to Claim 1."

    Reference: the derived orthonormal h(m) (SymPy, degree ≤ 6).  h̃ := h − (7) − (8) must be
    exactly the odd-l terms plus the even l > 0, s = 0 terms, i.e. the quantity Claim 1 controls
    times sign(m); the probability statement is inherited from Claim 1 (checked there).
    """
    xi, k, m, *_, mu = prop_4.symbols()
    s1, s2, a, d = _symbols()
    h = derived_orthonormal_h()
    tau = k / (k + xi**2)
    eq8 = 2 * d * sum((xi**2 / k) ** (l + 1) * sympy.binomial(l + s, l) * (l + s + 1) * mu[l + s + 1] ** 2
                      * tau ** (l + s + 1) * m**l for l in range(0, P, 2) for s in range(1, P - l))
    rest = sympy.expand(h - claimed_eq_7() - eq8)
    _, odd = _parts(h)
    expected = odd + sympy.expand(sum(_prop4_weight(l, 0) * a * m**l for l in range(2, P, 2)))
    ok = _equal(rest, expected)
    if ok:
        return Outcome(Verdict.HOLDS, "h - (7) - (8) is exactly the odd terms plus the even l > 0, s = 0 terms "
                       f"(the sum of Claim 1); SymPy, degree <= {P}",
                       numbers={"decomposition_exact": True},
                       # issue #49: an identity of the series checked term by term up to degree P
                       scope=f"proxy: the Hermite series truncated at degree {P}",
                       notes=["h~(m)m > 0 w.h.p. is Claim 1's statement (see check claim-1, which fails for "
                              "xi^2 > 2k; the intended regime xi^2 <= k/e is fine). h~(m)m = 0 at m = 0."])
    diff = sympy.factor(sympy.expand(rest - expected).coeff(m, 0))
    return Outcome(Verdict.FAILS, f"h - (7) - (8) is not the Claim 1 sum; m^0 difference {sympy.sstr(diff)}",
                   counterexample={"m0_difference": sympy.sstr(diff)})


# --- the ξ = 1 displays of §3.2.2 and D.5.1 -------------------------------------------------
def claimed_h_xi_1(prefactor=2):
    """h(m) at ξ = 1 as printed, per pair (i, j) and p ≤ P: ``prefactor`` Σ_l (1/k)^{l+1} Σ_s
    C(l+s,l)(l+s+1)μ²(k/(k+1))^{l+s+1} T(l,s) m^l.  §3.2.2 prints prefactor 2, D.5.1 none (1)."""
    xi, k, m, g, lam_i, lam_j, sign, mu = prop_4.symbols()
    total = 0
    for l in range(P):
        for s in range(P - l):
            t = lam_i * lam_j * g**s if l % 2 else k * lam_i * lam_j * (sign / k) * g**s
            total += ((1 / k) ** (l + 1) * sympy.binomial(l + s, l) * (l + s + 1) * mu[l + s + 1] ** 2
                      * (k / (k + 1)) ** (l + s + 1) * t * m**l)
    return sympy.expand(prefactor * total)


def claimed_d51_h():
    """D.5.1: "specializing ξ = 1 in Proposition 4, we get h(m) = Σ_l (1/k)^{l+1} Σ_s …" (no factor 2)."""
    return claimed_h_xi_1(prefactor=1)


def _at_linear_k1(pair_expr):
    """A pair expression at k = 1, G = 1, λ = 1, s = 1, m = 0 and σ linear (μ_1 = 1, others 0)."""
    xi, k, m, g, lam_i, lam_j, sign, mu = prop_4.symbols()
    point = {k: 1, g: 1, lam_i: 1, lam_j: 1, sign: 1, m: 0, **{mu[p]: int(p == 1) for p in range(P + 1)}}
    return pair_expr.subs(point)


def _xi_1_outcome(claim, where: str) -> Outcome:
    xi = prop_4.symbols()[0]
    derived = prop_4.derived_pair_h().subs(xi, 1)
    verdict, witness = prop_4.compare(derived, claim)
    if verdict == "equal":
        return Outcome(Verdict.HOLDS, f"{where}: equals -dPhi/dm derived per pair at xi = 1 (SymPy, general "
                       f"G_ij, Hermite degree <= {P})", numbers={"verdict": "equal"})
    corrected, _ = prop_4.compare(derived, claimed_h_xi_1(prefactor=2))
    ratio = sympy.simplify(derived.subs(xi, 1).coeff(prop_4.symbols()[2], 0) / claim.coeff(prop_4.symbols()[2], 0))
    return Outcome(
        Verdict.FAILS, f"{where}: differs from the derivation at xi = 1 (derived/printed = {sympy.sstr(ratio)}); "
        f"mu_1^2 part of the m^0 difference {sympy.sstr(witness)}",
        numbers={"verdict": "differs", "ratio_derived_to_printed": sympy.sstr(ratio)},
        counterexample={"sigma": "linear (mu_1 = 1)", "k": 1, "xi": 1, "G": [[1]], "lambda": [1], "c": [1],
                        "c_hat": [1], "m": 0, "h(0) derived (= 2 xi^2 mu_1^2/(1+xi^2/k))": 1,
                        "h(0) printed": sympy.sstr(_at_linear_k1(claim))},
        correction="h(m) = 2 Σ_l (1/k)^{l+1} Σ_s C(l+s,l)(l+s+1)μ_{l+s+1}²(k/(k+1))^{l+s+1} T(l,s) m^l "
                   "(the factor 2 of Proposition 4 and of §3.2.2)",
        correction_verified=corrected == "equal")


@check("s3.2.2-h-xi-1", "§3.2.2 (h at ξ = 1)", "3.2.2", "symbolic")
def s322_h_xi_1(ctx) -> Outcome:
    """§3.2.2: "Recall the non-linear function h … which simplifies to: h(m) = 2 Σ_{l≥0} (1/k)^{l+1} Σ_{s≥0} C(l+s,l)(l+s+1)μ_{l+s+1}(σ)²(k/(k+1))^{l+s+1} T(l,s) m^l" (ξ = 1).

    Reference: −dΦ/dm derived per neuron pair (SymPy, general G_ij, degree ≤ 6) at ξ = 1.
    """
    return _xi_1_outcome(claimed_h_xi_1(), "§3.2.2 display")


@check("d5.1-h-display", "App. D.5.1 (h at ξ = 1)", "D.5.1", "symbolic")
def d51_h_display(ctx) -> Outcome:
    """Appendix D.5.1: "Note that specializing ξ = 1 in Proposition 4, we get h(m) = Σ_{l≥0} (1/k)^{l+1} Σ_{s≥0} C(l+s,l)(l+s+1)μ_{l+s+1}(σ)²(k/(k+1))^{l+s+1} T(l,s) m^l".

    Reference: −dΦ/dm derived per pair (SymPy) at ξ = 1; the printed display lacks Prop. 4's
    factor 2, and the correction (factor 2, = the §3.2.2 display) is verified the same way.
    """
    return _xi_1_outcome(claimed_d51_h(), "D.5.1 display")


# --- sums over s and p ---------------------------------------------------------------------
def claimed_binomial_sum_order(l: int) -> int:
    """§3.2.2: Σ_{s≥0} C(l+s,l)(k/(k+1))^{s+1} = Θ(k^l): the claimed exponent of k."""
    return l


@check("s3.2.2-binomial-sum", "§3.2.2 (binomial sum)", "3.2.2", "symbolic")
def s322_binomial_sum(ctx) -> Outcome:
    """§3.2.2: "In fact, one can verify that Σ_{s=0}^∞ C(l+s,l)(k/(k+1))^{s+1} = Θ(k^l) so a naive truncation of the sum over l will not allow to simplify the population gradient."

    Reference: SymPy's closed-form summation for l = 0…5 (symbolic k), checked against
    Σ_s C(l+s,l) x^s = (1−x)^{−(l+1)}: the sum is k(k+1)^l exactly.  The claimed order fails
    when sum/k^l is unbounded in k (here it grows linearly, so no constant can absorb it).
    """
    k = sympy.Symbol("k", positive=True, integer=True)
    s = sympy.Symbol("s", integer=True, nonnegative=True)
    exact, bad = {}, []
    for l in range(6):
        total = sympy.simplify(sympy.summation(sympy.binomial(l + s, l) * (k / (k + 1)) ** (s + 1), (s, 0, sympy.oo)))
        if sympy.simplify(total - k * (k + 1) ** l) != 0:
            return Outcome(Verdict.INCONCLUSIVE, f"SymPy's sum for l={l} is {total}, not k(k+1)^l",
                           numbers={"l": l, "sum": str(total)})
        exact[l] = sympy.sstr(sympy.factor(total))
        order = sympy.limit(total / k ** claimed_binomial_sum_order(l), k, sympy.oo)
        if order in (0, sympy.oo):
            bad.append((l, order))
    if not bad:
        return Outcome(Verdict.HOLDS, "sum = k(k+1)^l = Θ(k^l) as claimed", numbers={"sums": exact})
    l0 = bad[0][0]
    return Outcome(
        Verdict.FAILS, f"sum = k(k+1)^l exactly (SymPy), i.e. Θ(k^(l+1)); for l = {l0}: sum/k^{l0} -> "
        f"{bad[0][1]} (at k = 100, l = 0 the sum is 100, not O(1))",
        numbers={"sums": exact, "claimed_exponent": "l", "derived_exponent": "l+1"},
        counterexample={"l": 0, "k": 100, "sum": 100, "claimed_order": "k^0 = 1"},
        correction="Σ_s C(l+s,l)(k/(k+1))^{s+1} = k(k+1)^l = Θ(k^{l+1}) (the text's point, that the "
                   "sum over l cannot be naively truncated, is unaffected)",
        correction_verified=all(sympy.limit(k * (k + 1) ** l / k ** (l + 1), k, sympy.oo) == 1 for l in range(6)))


def _xi_symbols():
    xi, k = sympy.symbols("xi k", positive=True)
    mu = sympy.symbols(f"mu_0:{P + 2}", real=True)
    return xi, k, mu


def claimed_lemma_6_sum_value():
    """D.4, proof of Lemma 6: Σ_{l,s≥0}(ξ²/k)^l C(l+s,l)(l+s+1)μ²_{l+s+1}(1/(1+ξ²/k))^{l+s}
    = Σ_p (p+1)μ²_{p+1}(k/(k+ξ²))^p(1+ξ²/k)^p  (the last equality before "≤ Σ_p (p+1)μ²_{p+1} ≤ C_σ")."""
    xi, k, mu = _xi_symbols()
    return sum((p + 1) * mu[p + 1] ** 2 * (k / (k + xi**2)) ** p * (1 + xi**2 / k) ** p for p in range(P))


@check("d4-lemma-6-sum", "App. D.4 (proof of Lemma 6, sum)", "D.4", "symbolic")
def d4_lemma_6_sum(ctx) -> Outcome:
    """Appendix D.4, proof of Lemma 6: "the sum in the second term is bounded by Σ_{l,s≥0} (ξ²/k)^l C(l+s,l)(l+s+1)μ_{l+s+1}(σ)²(1/(1+ξ²/k))^{l+s} = Σ_p Σ_{s=0}^p (ξ²/k)^{p−s} C(p,s)(p+1)μ_{p+1}(σ)²(1/(1+ξ²/k))^p = Σ_p (p+1)μ_{p+1}(σ)²(k/(k+ξ²))^p(1+ξ²/k)^p ≤ Σ_p (p+1)μ_{p+1}(σ)² ≤ C_σ".

    Reference: the double sum collected by p = l + s (all p ≤ P − 1) in SymPy with symbolic ξ, k
    and μ_p; each equality is compared exactly, and the inequality is checked as an equality
    (the double sum is exactly Σ(p+1)μ²_{p+1}, so "≤" is tight).
    """
    xi, k, mu = _xi_symbols()
    lhs = sum((xi**2 / k) ** l * sympy.binomial(l + s, l) * (l + s + 1) * mu[l + s + 1] ** 2
              * (1 / (1 + xi**2 / k)) ** (l + s) for l in range(P) for s in range(P - l))
    middle = sum((xi**2 / k) ** (p - s) * sympy.binomial(p, s) * (p + 1) * mu[p + 1] ** 2 * (1 / (1 + xi**2 / k)) ** p
                 for p in range(P) for s in range(p + 1))
    plain = sum((p + 1) * mu[p + 1] ** 2 for p in range(P))
    steps = {"double sum = regrouped by p": _equal(lhs, middle),
             "regrouped = printed closed form": _equal(middle, claimed_lemma_6_sum_value()),
             "closed form = sum (p+1) mu_{p+1}^2 (so <= holds with equality)": _equal(claimed_lemma_6_sum_value(), plain)}
    if all(steps.values()):
        return Outcome(Verdict.HOLDS, f"each equality exact (SymPy, p <= {P - 1}); the sum equals Σ(p+1)μ²_(p+1) "
                       "exactly, so the bound by C_sigma is tight", numbers=steps,
                       scope=f"proxy: the double sum truncated at p <= {P - 1}")
    first = next(name for name, ok in steps.items() if not ok)
    return Outcome(Verdict.FAILS, f"step '{first}' is not an identity", numbers=steps,
                   counterexample={"step": first})


def claimed_eq_14_factor(p, k):
    """Eq. (14), middle line: the weight of p μ_p² is (k/(k+1))^p (1 + 1/k)^{p−1}."""
    return (k / (k + 1)) ** p * (1 + 1 / k) ** (p - 1)


@check("eq-14", "Eq. (14)", "D.5.2", "symbolic")
def eq_14(ctx) -> Outcome:
    """Eq. (14): "Σ_l (1/k)^l Σ_s C(l+s,l)(l+s+1)μ_{l+s+1}(σ)²(k/(k+1))^{l+s+1} = Σ_p (k/(k+1))^p pμ_p(σ)² Σ_{l=0}^{p−1}(1/k)^l C(p−1,l) = Σ_p (k/(k+1))^p (1+1/k)^{p−1} pμ_p(σ)² ≤ Σ_p pμ_p(σ)² = C̃_σ".

    Reference: SymPy with symbolic k and μ_p (p ≤ P): the double sum regrouped by p = l+s+1,
    the binomial theorem, and the weight (k/(k+1))^p(1+1/k)^{p−1} = k/(k+1) ≤ 1.
    """
    xi, k, mu = _xi_symbols()
    lhs = sum((1 / k) ** l * sympy.binomial(l + s, l) * (l + s + 1) * mu[l + s + 1] ** 2 * (k / (k + 1)) ** (l + s + 1)
              for l in range(P) for s in range(P - l))
    regrouped = sum((k / (k + 1)) ** p * p * mu[p] ** 2 * sum((1 / k) ** l * sympy.binomial(p - 1, l) for l in range(p))
                    for p in range(1, P + 1))
    closed = sum(claimed_eq_14_factor(p, k) * p * mu[p] ** 2 for p in range(1, P + 1))
    weights = [sympy.simplify(claimed_eq_14_factor(p, k)) for p in range(1, P + 1)]
    steps = {"first equality": _equal(lhs, regrouped), "second equality": _equal(regrouped, closed),
             "weight = k/(k+1) <= 1": all(sympy.simplify(w - k / (k + 1)) == 0 for w in weights)}
    if all(steps.values()):
        return Outcome(Verdict.HOLDS, f"both equalities exact (SymPy, p <= {P}); the weight is k/(k+1) <= 1, "
                       "so the sum is (k/(k+1)) C~_sigma", numbers=steps,
                       notes=["The inequality is loose only by the factor k/(k+1)."])
    first = next(name for name, ok in steps.items() if not ok)
    return Outcome(Verdict.FAILS, f"eq. (14): step '{first}' fails", numbers=steps, counterexample={"step": first})


# --- Claim 1 -------------------------------------------------------------------------------
M_GRID = np.linspace(-1.0, 1.0, 401)  # includes ±1, where the he3 violation is largest


def _mu_squared(activation: str, terms: int = 24) -> np.ndarray:

    return np.array([float(v) ** 2 for v in hermite_coefficients(activation, terms, 20).values])


def claimed_claim_1_sum(m, xi2_over_k, mu2, norm_lam2, a_values):
    """Claim 1's left side for orthonormal features, as printed, for each A = k(Σλc)(Σλĉ):

    sign(m)(2 Σ_{l odd, s=1} q^{l+1} C(l+1,l)(l+2)μ²_{l+2} τ^{l+2} T(l,1) m^l
            + 2 Σ_{l>0 even, s=0} q^{l+1}(l+1)μ²_{l+1} τ^{l+1} T(l,0) m^l),
    q = ξ²/k, τ = 1/(1+q), T(l,1) = ‖λ‖² (odd l), T(l,0) = A (even l).  Shape (len(A), len(m)).
    Floats give float64; object arrays of balls (and ball q, μ², ‖λ‖²) give balls.
    """
    q, tau = xi2_over_k, 1 / (1 + xi2_over_k)
    m, a_values = np.asarray(m), np.asarray(a_values)
    m = m if m.dtype == object else m.astype(float)
    a_values = (a_values if a_values.dtype == object else a_values.astype(float))[:, None]
    total = np.zeros((a_values.shape[0], m.size), dtype=object if m.dtype == object else float)
    for l in range(1, len(mu2) - 2):
        if l % 2:
            total += 2 * q ** (l + 1) * (l + 1) * (l + 2) * mu2[l + 2] * tau ** (l + 2) * norm_lam2 * m**l
        else:
            total += 2 * q ** (l + 1) * (l + 1) * mu2[l + 1] * tau ** (l + 1) * a_values * m**l
    sign = np.frompyfunc(lambda v: v.sgn(), 1, 1)(m) if m.dtype == object else np.sign(m)
    return sign * total


def claimed_claim_1_failure_bound(xi2_over_k):
    """Claim 1 fails with probability at most exp(−2k/(eξ²)) (a float, or a ball for a ball)."""

    M = arithmetic_of(xi2_over_k)
    return M.exp(-2 / (M.e * xi2_over_k))


def _signed_sums(lam: np.ndarray) -> np.ndarray:
    """λ·b over all b ∈ {±1}^k (each equally likely)."""
    k = lam.size
    signs = 1 - 2 * ((np.arange(2**k)[:, None] >> np.arange(k)) & 1)
    return signs @ lam


def claim_1_failure_probability(lam, xi2_over_k: float, mu2) -> float:
    """Exact P over c, ĉ that Claim 1's sum is < 0 for some m ∈ [−1, 1] (orthonormal features).

    The sum depends on c, ĉ only through A = (λ·b)(λ·b̂); A's law is enumerated exactly."""
    v = _signed_sums(np.asarray(lam, float))
    a_values, counts = np.unique(np.round(np.outer(v, v).ravel(), 12), return_counts=True)
    norm2 = float(np.dot(lam, lam))
    values = claimed_claim_1_sum(M_GRID, xi2_over_k, mu2, norm2, a_values)
    scale = np.abs(values).max(axis=1) + 1e-300
    bad = (values.min(axis=1) < -1e-12 * scale)
    return float(counts[bad].sum() / counts.sum())


def _worst_case_failure(lam, xi2_over_k: float) -> float:
    """P(q|A| > 2‖λ‖²): Claim 1's failure probability for σ = he3, an upper bound for every σ
    (the sum is Σ_{l odd} 2q^{l+1}(l+2)μ²_{l+2}τ^{l+2}|m|^l[(l+1)‖λ‖² + qAm], each bracket ≥ 0
    when q|A| ≤ 2‖λ‖², and he3 keeps only l = 1)."""
    v = _signed_sums(np.asarray(lam, float))
    return float(np.mean(xi2_over_k * np.abs(np.outer(v, v)) > 2 * np.dot(lam, lam) * (1 + 1e-12)))


def _claim_1_correction_search(ctx, q_max: float) -> tuple[float, dict]:
    """max over λ (k ≤ 8, random search) and q ≤ q_max of P_fail(he3)/exp(−2/(eq))."""

    worst, where = 0.0, {}
    for k in ctx.pick((2, 4, 6, 8), (2, 3, 4, 5, 6, 7, 8, 10)):
        def ratio(z, k=k):
            return _worst_case_failure(z[:k], z[k]) / claimed_claim_1_failure_bound(z[k])

        found = maximise(ratio, [(-1.0, 1.0)] * k + [(0.01, q_max)], ctx.rng("search", k, q_max),
                         starts=ctx.pick(150, 1000), polish=0, remember={"check": "claim-1-correction"})
        for lam in (np.ones(k), np.eye(k)[0], np.r_[1.0, np.full(k - 1, 0.01)]):
            for q in np.linspace(0.01, q_max, 40):
                value = _worst_case_failure(lam, q) / claimed_claim_1_failure_bound(q)
                if value > found.worst:
                    found = found.__class__(value, np.r_[lam, q], found.evaluations)
        if found.worst >= worst:
            worst, where = found.worst, {"k": k, "lambda": found.argmax[:k].round(4).tolist(),
                                         "xi2_over_k": float(found.argmax[k])}
    return worst, where


def claim_1_in_the_main_regime(worst_below_2k: float) -> dict:
    """Whether Claim 1 holds where the main theorems use it (verify.paper.regime): at ξ = 1 the
    proof's sufficient condition (ξ²/k)|A| ≤ 2‖λ‖² holds surely, since |λ·b| ≤ √k‖λ‖ gives
    (ξ²/k)|A| ≤ ξ²‖λ‖² (Cauchy–Schwarz); the exact enumeration of A for k ≤ 8 (ones, one neuron,
    a ramp) confirms that the failure probability there is 0.  Theorem 12's ξ = ξ̄√k with small
    ξ̄ has ξ² ≤ 2k, where claim-1's search finds no violation (``worst_below_2k`` ≤ 1)."""
    cases = [lam for k in range(1, 9) for lam in (np.ones(k), np.eye(k)[0], np.linspace(1, 2, k))]
    surely = all(_worst_case_failure(lam, 1 / lam.size) == 0 for lam in cases)
    return {"holds": surely and worst_below_2k <= 1,
            "why": "at xi = 1, (xi^2/k)|A| <= xi^2 ||lambda||^2 <= 2 ||lambda||^2 by Cauchy-Schwarz, so Claim 1 "
                   f"holds surely (failure probability 0 by exact enumeration for k <= 8); the counterexample needs "
                   f"xi^2 > 2k, and the search finds none for xi^2 <= 2k (max P_fail/bound {worst_below_2k:.3g})"}


@check("claim-1", "Claim 1", "3.2.1 / D.4", "exact enumeration + search")
def claim_1(ctx) -> Outcome:
    """Claim 1 (Even l, s = 0 contribution): "Let Assumption 2 hold. With probability 1 − exp{−2k/(eξ²)} over the randomness of c, ĉ, the following holds. sign(m)(2 Σ_{l odd, s=1} (ξ²/k)^{l+1} C(l+s,l)(l+s+1)μ_{l+s+1}(σ)²(1/(1+ξ²/k))^{l+s+1} T(l,s) + 2 Σ_{l>0 even, s=0} (ξ²/k)^{l+1} C(l+s,l)(l+s+1)μ_{l+s+1}(σ)²(1/(1+ξ²/k))^{l+s+1} T(l,s)) ≥ 0."

    Setting of §3.2.1: orthonormal features (T(l,1) = ‖λ‖², T(l,0) = k(Σλc)(Σλĉ)).  The sum
    depends on c, ĉ only through A = (λ·b)(λ·b̂), whose law is enumerated exactly (no sampling),
    and the inequality is tested for all m on a 401-point grid of [−1, 1] containing ±1.
    Evidence: (i) the counterexample k = 1 (every λ is a multiple of e_1), σ = he3, ξ² = 3;
    (ii) the same with all λ_i > 0 (k = 4); (iii) the correction ξ² ≤ k/e (the range t ≥ 2e in
    which O'Donnell's Thm 9.23, used by the proof, applies) by a random search over λ (k ≤ 8)
    and q = ξ²/k, using the activation-free worst case P(q|A| > 2‖λ‖²).
    """
    mu2_he3 = _mu_squared("he3")
    cases: dict[str, dict[str, float | str]] = {}
    for name, lam, act in (("k=1", np.ones(1), "he3"), ("k=4, lambda=(1,.01,.01,.01)", np.r_[1.0, 0.01, 0.01, 0.01], "he3"),
                           ("k=1, erf", np.ones(1), "erf")):
        mu2 = mu2_he3 if act == "he3" else _mu_squared(act)
        k = lam.size
        xi2 = 3.0 * k
        p_fail = claim_1_failure_probability(lam, xi2 / k, mu2)
        cases[name] = {"activation": act, "xi2": xi2, "exact_failure_probability": p_fail,
                       "claimed_failure_bound": claimed_claim_1_failure_bound(xi2 / k)}
    value = float(claimed_claim_1_sum(np.array([-1.0]), 3.0, mu2_he3, 1.0, [1.0])[0, 0])
    worst_fixed, where_fixed = _claim_1_correction_search(ctx, 1 / math.e)
    worst_2, where_2 = _claim_1_correction_search(ctx, 2.0)
    numbers = {"cases": cases, "he3_k1_sum_at_m=-1_A=1": value,
               "correction_search_max_ratio(xi2<=k/e)": worst_fixed, "at": where_fixed,
               "search_max_ratio(xi2<=2k)": worst_2, "at(xi2<=2k)": where_2,
               "regime": claim_1_in_the_main_regime(worst_2)}
    violated = [n for n, c in cases.items()
                if float(c["exact_failure_probability"]) > float(c["claimed_failure_bound"])]
    if not violated:
        return Outcome(Verdict.HOLDS, "no violation in the exact cases; search max ratio "
                       f"{max(worst_fixed, worst_2):.3g}", numbers=numbers)
    first = cases["k=1"]
    outcome = Outcome(
        Verdict.FAILS,
        f"k = 1, sigma = he3, xi^2 = 3: the sum is {value:.4g} < 0 at m = -sign(c ĉ) for EVERY c, ĉ "
        f"(failure probability {first['exact_failure_probability']:.0f} > claimed {first['claimed_failure_bound']:.3f}); "
        f"for xi^2 <= k/e the search finds max P_fail/bound = {worst_fixed:.3g}",
        numbers=numbers,
        counterexample={"k": 1, "lambda": [1.0], "activation": "he3 (mu_3 = 1)", "xi2": 3.0, "c": [1.0],
                        "c_hat": [1.0], "m": -1.0, "claim_1_sum": value,
                        "exact_failure_probability": first["exact_failure_probability"],
                        "claimed_failure_probability": first["claimed_failure_bound"]},
        correction="Claim 1 holds with the stated probability for xi^2 <= k/e (then t = 2k/(xi^2 m) >= 2e, the range of "
                   "O'Donnell Thm 9.23). Without a bound on xi it fails: the proof's sufficient condition "
                   "(xi^2/k)|A| <= 2||lambda||^2 is violated surely when xi^2 > 2k and lambda sits on one neuron",
        correction_verified=worst_fixed <= 1.0,
        notes=["The main theorems take xi = c sqrt(k) with a small constant c (Theorem 1), where the corrected claim "
               "applies; the counterexample needs xi^2 > 2k.",
               "relu never violates it: mu_p = 0 for odd p >= 3, so the sum vanishes.",
               f"Searching xi^2 <= 2k finds max P_fail/bound = {worst_2:.3g} (no violation below xi^2 = 2k).",
               "Decided by: the k = 1 case, whose law is enumerated exactly but whose sum is evaluated in "
               "float64 (-0.84 against a 1e-12 relative threshold); the search only supports the correction."])
    if "k=1" not in violated:
        return outcome

    return attempt(outcome, _certify_claim_1,
                   exact_parts="the law of A = (λ·b)(λ·b̂), uniform on {±1} for k = 1 (enumerated)")


def _certify_claim_1():
    """The k = 1 counterexample in balls: σ = he3 (certified μ_p², p < 24, as in the fast path),
    ξ² = 3, ‖λ‖² = 1.  A = (λ·b)(λ·b̂) is ±1 with probability 1/2 each; Claim 1's sum is < 0 at
    m = −A for both, so the failure probability is exactly 1, and 1 > exp(−2k/(eξ²))."""


    mu2 = [b * b for b in certified_hermite_coefficients("he3", 24, certify.DPS).balls]
    q = certify.ball(3)
    parts = {}
    for a in (1, -1):
        value = certify.call_hook(claimed_claim_1_sum, certify.balls([-a]), q, mu2, arb(1), certify.balls([a]))
        parts[f"A = {a}"] = certify.compare(arb(0), certify.as_ball(np.asarray(value)[0, 0], "claimed_claim_1_sum"),
                                            f"Claim 1's sum >= 0 at A = {a}, m = {-a} (k = 1, he3, xi^2 = 3)")
    if not all(p.status is certify.Status.FAILS for p in parts.values()):
        return certify.all_of(parts)
    bound = certify.as_ball(certify.call_hook(claimed_claim_1_failure_bound, q), "claimed_claim_1_failure_bound")
    probability = certify.compare(arb(1), bound, "P_fail = 1 <= exp(-2k/(e xi^2))")
    sums = "; ".join(p.what for p in parts.values())
    shown = {f"{name}: sum": p.balls["rhs"] for name, p in parts.items()} | {
        "P_fail": probability.balls["lhs"], "claimed bound": probability.balls["rhs"]}
    return certify.Certificate(probability.status, f"{sums}; so {probability.what}", shown)


def _claim_1_chain():
    """The five lines of the chain in the proof of Claim 1 (D.4), read with l > 0 even in the
    first two (the terms Claim 1 is about), for p ≤ P; symbols A = kΣλλcĉ, q = ξ²/k."""
    xi, k, m, *_, mu = prop_4.symbols()
    a = _symbols()[2]
    q, tau = xi**2 / k, 1 / (1 + xi**2 / k)
    even = [l for l in range(2, P) if l % 2 == 0]
    odd = [l for l in range(1, P - 1) if l % 2 == 1]
    pre = 2 * m * xi**2 / k * a
    return [
        2 * sum(q ** (l + 1) * (l + 1) * mu[l + 1] ** 2 * tau ** (l + 1) * a * m**l for l in even),
        pre * sum(q**l * (l + 1) * mu[l + 1] ** 2 * tau ** (l + 1) * m ** (l - 1) for l in even),
        pre * sum(q ** (l + 1) * (l + 2) * mu[l + 2] ** 2 * tau ** (l + 2) * m**l for l in odd),
        pre * sum(sympy.Rational(1, l + 1) * sympy.binomial(l + 1, l) * q ** (l + 1) * (l + 2) * mu[l + 2] ** 2
                  * tau ** (l + 2) * m**l for l in odd),
        pre * sum(sympy.Rational(1, l + 1) * sympy.binomial(l + 1, l) * q ** (l + 1) * (l + 1 + 1) * mu[l + 1 + 1] ** 2
                  * tau ** (l + 1 + 1) * m**l for l in odd),
    ]


def claimed_claim_1_tail(xi2_over_k, m):
    """D.4: Pr[|(mξ²/k)(kΣλλcĉ)| ≥ 2‖λ‖²] ≤ exp{−2k/(emξ²)} (a float, or a ball for balls)."""

    M = arithmetic_of(xi2_over_k, m)
    return M.exp(-2 / (M.e * xi2_over_k * m))


def _second_moment_exact() -> bool:
    """E[(Σλc)²(Σλĉ)²] = ‖λ‖⁴/k², by enumerating b, b̂ ∈ {±1}³ with symbolic λ (k = 3)."""
    lam = sympy.symbols("lambda_1:4", real=True)
    signs = [np.array(s) for s in np.ndindex(2, 2, 2)]
    total = 0
    for b in signs:
        for bh in signs:
            sb = sum(l_ * (1 - 2 * int(x)) for l_, x in zip(lam, b, strict=True)) / sympy.sqrt(3)
            sbh = sum(l_ * (1 - 2 * int(x)) for l_, x in zip(lam, bh, strict=True)) / sympy.sqrt(3)
            total += sb**2 * sbh**2
    return sympy.expand(total / 64 - sum(v**2 for v in lam) ** 2 / 9) == 0


@check("d4-claim-1-proof", "App. D.4 (proof of Claim 1)", "D.4", "symbolic + exact enumeration")
def d4_claim_1_proof(ctx) -> Outcome:
    """Appendix D.4, proof of Claim 1: "E_{c,ĉ}(Σλ_ic_i)²(Σλ_iĉ_i)² = ‖λ‖₂⁴/k² … 2Σ_{l>0}(ξ²/k)^{l+1}(l+1)μ_{l+1}²(1/(1+ξ²/k))^{l+1}(kΣλλcĉ)m^l = (2mξ²/k)(kΣλλcĉ)Σ_{l>0}(ξ²/k)^l(l+1)μ_{l+1}²(…)^{l+1}m^{l−1} = (2mξ²/k)(…)Σ_{l odd}(ξ²/k)^{l+1}(l+2)μ_{l+2}²(…)^{l+2}m^l = … Σ_{l odd} (1/(l+1))C(l+1,l)… = … Σ_{l odd, s=1} (1/(l+s))C(l+s,l)(ξ²/k)^{l+1}(l+s+1)μ_{l+s+1}²(…)^{l+s+1}m^l … it suffices to show (mξ²/k)(kΣλλcĉ) ≤ 2‖λ‖² … Pr[|(mξ²/k)(kΣλλcĉ)| ≥ 2‖λ‖²] ≤ exp{−2k/(emξ²)} ≤ exp{−2k/(eξ²)}".

    Evidence: the second-moment identity by exact enumeration (k = 3, symbolic λ); the chain
    of equalities in SymPy (p ≤ 6; the first two sums read over even l > 0, as Claim 1 states
    — the printed subscript shows only l > 0); the tail display by exact enumeration of
    A = (λ·b)(λ·b̂) (k = 1 and λ = e_1: |A| = 1), its correction (m ξ² ≤ k/e, where Thm 9.23's
    t ≥ 2e holds) by the search of check claim-1.
    """
    lines = _claim_1_chain()
    chain = {f"line {i + 1} = line {i + 2}": _equal(lines[i], lines[i + 1]) for i in range(4)}
    moment = _second_moment_exact()
    # Tail display at k = 1 (or λ = e_1): A = b b̂ = ±1, ‖λ‖² = 1, m = 1.
    q, m = 3.0, 1.0
    exact_tail = float(np.mean(q * m * np.abs(np.outer(_signed_sums(np.ones(1)), _signed_sums(np.ones(1)))) >= 2))
    bound = claimed_claim_1_tail(q, m)
    numbers = {**chain, "second_moment_identity": moment, "tail_exact_probability(k=1,xi2=3,m=1)": exact_tail,
               "tail_claimed_bound": bound}
    if not (all(chain.values()) and moment):
        bad = next(name for name, ok in chain.items() if not ok) if not all(chain.values()) else "second moment"
        return Outcome(Verdict.FAILS, f"proof of Claim 1: step '{bad}' is not an identity", numbers=numbers,
                       counterexample={"step": bad})
    if exact_tail > bound:
        worst, where = _claim_1_correction_search(ctx, 1 / math.e)
        outcome = Outcome(
            Verdict.FAILS,
            f"equalities and E-identity exact, but the tail display fails: k = 1, xi^2 = 3, m = 1 gives "
            f"Pr = {exact_tail:.0f} > exp(-2k/(e m xi^2)) = {bound:.3f} (Thm 9.23 needs t = 2k/(m xi^2) >= 2e)",
            numbers=numbers | {"correction_search_max_ratio": worst, "at": where,
                               "regime": claim_1_in_the_main_regime(_claim_1_correction_search(ctx, 2.0)[0])},
            counterexample={"k": 1, "lambda": [1.0], "xi2": q, "m": m, "A_values": [-1.0, 1.0],
                            "probability": exact_tail, "claimed_bound": bound},
            correction="the tail bound holds for m xi^2 <= k/e (t >= 2e in O'Donnell Thm 9.23)",
            # a search that finds no violation of the corrected range does not verify it
            correction_verified=False, basis=Basis.NUMERICAL,
            notes=[f"The corrected range m xi^2 <= k/e has worst ratio {worst:.3g} in claim-1's search; a "
                   "search verifies nothing, so the correction is reported unverified.","'It suffices to show (m xi^2/k)(k Σλλcĉ) <= 2||λ||^2' is needed with an absolute value "
                   "(the next display has it): the bracket is (l+1)||λ||^2 + (xi^2/k) A m.",
                   "Decided by: the tail display alone, Pr = 1 (exact enumeration) against exp(-2k/(e m xi^2)) "
                   "evaluated in float64; the chain and the E-identity are exact but hold."])

        def decide():
            tail = certify.as_ball(certify.call_hook(claimed_claim_1_tail, certify.ball(q), certify.ball(m)),
                                   "claimed_claim_1_tail")
            return certify.compare(certify.ball(exact_tail), tail,
                                   "Pr[|(m xi^2/k) A| >= 2||lambda||^2] = 1 <= exp(-2k/(e m xi^2)) at k = 1, xi^2 = 3, m = 1")

        outcome = certify.attempt(outcome, decide, exact_parts="the probability 1 (enumeration of A = ±1), the "
                                  "chain and the E-identity (SymPy)")
        outcome.parts = {
            "D.4-5": Outcome(Verdict.HOLDS, "E(sum lambda c)^2 (sum lambda c_hat)^2 = ||lambda||^4/k^2 by exact "
                             "enumeration of the sign patterns, symbolic lambda, k = 3", basis=Basis.EXACT,
                             scope="instances: k = 3, symbolic lambda"),
            "D.4-6": Outcome(Verdict.HOLDS, "the chain of equalities holds in SymPy for the series up to degree 6 "
                             "(the sums over even l > 0, as Claim 1 states)", basis=Basis.EXACT,
                             scope="instances: series terms up to degree 6"),
            "D.4-8": Outcome(Verdict.INCONCLUSIVE, "not decided: the sufficient event is stated without the "
                             "absolute value the next display (D.4-9) uses; this check does not test it"),
            "D.4-9": outcome.part()}
        return outcome
    return Outcome(Verdict.HOLDS, "chain of equalities exact; E-identity exact; tail display respected",
                   numbers=numbers, basis=Basis.NUMERICAL)  # the tail comparison is float64


# --- Lemma 6: orthonormal features, λ = 1, exact law of h through sign-pair counts ---------
def orthonormal_h_from_counts(activation: str, k: int, xi2: float, counts: np.ndarray, m) -> np.ndarray:
    """h(m) for G = I, λ_i = 1, from the counts (n₊₊, n₊₋, n₋₊, n₋₋) of the pairs (b_i, b̂_i).

    Reduction of h = 2ξ² Σ λλ cĉ K'(ρ)/(1+ξ²/k) (verify.model.population) with c_iĉ_j = s_ij/k:
    off the diagonal ρ = τ q s m (τ = 1/(1+q), q = ξ²/k) and N₊ = n_b₊n_b̂₊ + n_b₋n_b̂₋ − n_z₊ of the
    k(k−1) pairs have s = +1; on it ρ = τ(1 + q z_i m), z_i = b_ib̂_i.  Shape (len(counts), len(m)).
    """

    kernel = fast_kernel(activation)
    q = xi2 / k
    tau = 1 / (1 + q)
    pp, pm, mp, mm = (counts[:, i, None].astype(float) for i in range(4))
    z_plus, z_minus = pp + mm, pm + mp
    n_plus = (pp + pm) * (pp + mp) + (mp + mm) * (pm + mm) - z_plus
    n_minus = k * (k - 1) - n_plus
    m = np.asarray(m, float)[None, :]
    inner = (n_plus * kernel.derivative(tau * q * m) - n_minus * kernel.derivative(-tau * q * m)
             + z_plus * kernel.derivative(tau * (1 + q * m)) - z_minus * kernel.derivative(tau * (1 - q * m)))
    return 2 * xi2 * tau / k * inner


def _first_nonzero_degree(activation: str) -> int:
    mu2 = _mu_squared(activation)
    return next(p for p in range(1, mu2.size) if mu2[p] > 1e-24)


def claimed_lemma_6_scale(k: int, xi2: float, s_star: int, mu1_nonzero: bool) -> float:
    """Lemma 6's lower bound on |h(0)| without the unspecified C_σγ: (k/(k+ξ²))^{s*} ξ² (× 1/√k if μ_1 = 0)."""
    return (k / (k + xi2)) ** s_star * xi2 * (1.0 if mu1_nonzero else 1 / math.sqrt(k))


def _lemma_6_measure(ctx, activation: str, k: int, xi2: float, draws: int, gammas) -> dict:
    counts = ctx.rng("lemma-6", activation, k).multinomial(k, [0.25] * 4, size=draws)
    grid = np.linspace(0.0, 1.0, 101)
    h0 = orthonormal_h_from_counts(activation, k, xi2, counts, [0.0])[:, 0]
    sign = np.where(h0 >= 0, 1.0, -1.0)
    values = np.concatenate([orthonormal_h_from_counts(activation, k, xi2, counts[sign == s], s * grid)
                             for s in (1.0, -1.0)])
    ordered_h0 = np.concatenate([h0[sign == 1.0], h0[sign == -1.0]])
    ordered_sign = np.where(ordered_h0 >= 0, 1.0, -1.0)
    half_fail = int(np.sum(np.any(values * ordered_sign[:, None] < np.abs(ordered_h0)[:, None] / 2, axis=1)))
    s_star = _first_nonzero_degree(activation)
    scale = claimed_lemma_6_scale(k, xi2, s_star, s_star == 1)
    ratio = np.abs(h0) / scale
    return {"half_fail": half_fail, "draws": draws,
            "small": {g: int(np.sum(ratio < g)) for g in gammas}, "median_ratio": float(np.median(ratio))}


@check("lemma-6", "Lemma 6", "3.2.1 / D.4", "sampling (exact law of c, ĉ) + scaling",
       fails_as=FailureKind.AS_PRINTED)
def lemma_6(ctx) -> Outcome:
    """Lemma 6 (Population gradient lower bounds, orthonormal case): "Suppose Assumptions 1 to 3 hold and ⟨w_i, w_j⟩ = 0 for all i ≠ j. Let s* be the smallest s ≥ 1 s.t. μ_s(σ) ≠ 0. With probability 1 − o(1) − exp{−2k/(eξ²)} − O(γ^{1/2}), for mh(0) ≥ 0 we have h(m)sign(h(0)) ≥ |h(0)|/2 and |h(0)| ≥ (k/(k+ξ²))^{s*} C_σ γ ξ² · {1 if μ_1(σ) ≠ 0; 1/√k if μ_1(σ) = 0}."

    Measured, with λ_i = 1 (so λ_min = λ_max = 1, the normalisation under which the bound has
    no λ), ξ² = k/4 (ξ = Θ(√k) with a small constant, Theorem 1's regime), relu (μ_1 ≠ 0) and
    he2 (μ_1 = 0, s* = 2): c, ĉ drawn exactly (multinomial counts of the sign pairs, which
    determine h for G = I), h(m) on 101 points of [0, 1]·sign(h(0)).  Reported: the frequency of
    "h(m)sign(h(0)) < |h(0)|/2 somewhere" against the explicit exp{−2k/(eξ²)}, and
    P[|h(0)| < γ·scale] for several γ (C_σ = 1) against γ^{1/2}.  The o(1) and O(·) have no
    constants, so at λ = 1 the verdict is `consistent` or `inconclusive`.

    The λ-normalisation decides the verdict.  §1.2 says the results "hold uniformly over the
    choice of w_i, u, λ" with the λ-dependence explicit, but the bound has no λ factor while
    the proof (D.4) carries λ_min².  At λ = (1/k)·1, the paper's own GLM example, h scales by
    1/k² and the bound fails as k grows (:func:`_lemma_6_glm_normalisation`): `fails`
    (as printed), with the λ_min² correction verified on the same draws.
    """
    ks = ctx.pick((16, 64, 256), (16, 64, 256, 1024))
    draws = ctx.pick(4000, 40000)
    gammas = (0.01, 0.05, 0.2)
    table, worst_half, worst_small = {}, 0.0, 0.0
    for act in ("relu", "he2"):
        for k in ks:
            xi2 = k / 4
            r = _lemma_6_measure(ctx, act, k, xi2, draws, gammas)
            half = compare_probability(r["half_fail"], draws, claimed_claim_1_failure_bound(xi2 / k))
            table[f"{act}, k={k}"] = {"half_violation": half.describe(), "median |h(0)|/scale": r["median_ratio"],
                                      **{f"P(|h0|<{g} scale)": r["small"][g] / draws for g in gammas}}
            worst_half = max(worst_half, half.rate)
            worst_small = max(worst_small, max(r["small"][g] / draws / math.sqrt(g) for g in gammas))
    params = {"lambda": "ones", "xi2": "k/4", "draws": draws, "ks": list(ks), "gammas": list(gammas)}
    verdict = Verdict.CONSISTENT if worst_small <= 5 and worst_half <= claimed_claim_1_failure_bound(0.25) else \
        Verdict.INCONCLUSIVE
    evidence = (f"lambda = 1: max frequency of h(m)sign(h0) < |h0|/2: {worst_half:.3g} (vs exp(-2k/(e xi^2)) = "
                f"{claimed_claim_1_failure_bound(0.25):.3g}); max P(|h0| < gamma scale)/gamma^(1/2) = {worst_small:.2f}")
    glm = _lemma_6_glm_normalisation(ctx)
    numbers = {"table": table, "lambda_one_over_k": glm["numbers"]}
    if glm["printed_decays"]:
        return Outcome(Verdict.FAILS, f"with the paper's own lambda = (1/k)1 the printed bound fails: {glm['evidence']}",
                       numbers=numbers, parameters=params | {"lambda_one_over_k": glm["parameters"]},
                       counterexample=glm["counterexample"], correction=LEMMA_6_CORRECTION,
                       correction_verified=glm["corrected_holds"], notes=[evidence])
    return Outcome(verdict, evidence, numbers=numbers, parameters=params)


#: The bound with the λ-dependence the proof carries (D.4: S_k = γλ_min²μ_1²/(1 + ξ²/k)).
LEMMA_6_CORRECTION = ("|h(0)| >= lambda_min^2 (k/(k+xi^2))^{s*} C_sigma gamma xi^2 {1 | 1/sqrt(k)}: the lambda_min^2 "
                      "of the proof (App. D.4, S_k = gamma lambda_min^2 mu_1^2/(1+xi^2/k)); §1.2 says the results hold "
                      "uniformly in lambda with its dependence explicit")


def claimed_lemma_6_lambda_factor(lam: np.ndarray) -> float:
    """The λ-dependence of Lemma 6's lower bound on |h(0)| as printed: none."""
    return 1.0


def _lemma_6_glm_normalisation(ctx) -> dict:
    """Lemma 6 at λ = (1/k)·1, the normalisation of the paper's GLM example (and the suite's
    default instances), through the closed-form h of :mod:`verify.model.population` on G = I.

    The bound's unspecified constants (C_σγ, the O(γ^{1/2}) and o(1)) are fixed in k, so the
    printed bound fails if the ratio |h(0)|/(λ-factor × scale) tends to 0 in probability: then
    for every fixed C_σγ the violation probability tends to 1.  Measured: the 90 % quantile of
    the ratio over random c, ĉ at each k, fitted against k (99.9 % interval, the suite's
    convention for exponents).  The printed bound fails when the whole interval is below 0;
    the λ_min² correction is verified when its ratio's interval reaches 0 (no decay).
    """

    ks = ctx.pick((16, 32, 64, 128, 256), (16, 32, 64, 128, 256, 512, 1024))
    draws = ctx.pick(200, 1000)
    numbers, decays, corrected_ok, worst = {}, True, True, None
    for act in ("relu", "he2"):
        s_star = _first_nonzero_degree(act)
        printed, corrected = [], []
        for k in ks:
            rng, xi2, lam = ctx.rng("lemma-6-glm", act, k), k / 4, np.full(k, 1.0 / k)
            signs = rng.choice([-1.0, 1.0], size=(draws, 2, k)) / math.sqrt(k)
            h0 = np.array([h(Instance(k=k, d=k + 2, xi=math.sqrt(xi2), activation=act, lam=lam, c=c, c_hat=c_hat,
                                      gram=np.eye(k)), [0.0])[0] for c, c_hat in signs])
            ratio = np.abs(h0) / claimed_lemma_6_scale(k, xi2, s_star, s_star == 1)
            printed.append(float(np.quantile(ratio / claimed_lemma_6_lambda_factor(lam), 0.9)))
            corrected.append(float(np.quantile(ratio / lam.min() ** 2, 0.9)))
        fit, fit_corrected = fit_exponent(ks, printed), fit_exponent(ks, corrected)
        numbers[act] = {"k": list(ks), "q90_printed_ratio": printed, "exponent_printed": fit.describe(),
                        "q90_corrected_ratio": corrected, "exponent_corrected": fit_corrected.describe()}
        decays &= fit.high < 0
        corrected_ok &= fit_corrected.high >= 0
        if worst is None or printed[-1] < worst["q90_ratio"]:
            worst = {"activation": act, "lambda": "1/k", "xi2": "k/4", "k": ks[-1], "q90_ratio": printed[-1],
                     "exponent": fit.describe()}
    assert worst is not None
    evidence = (f"90% of draws have |h(0)| below {worst['q90_ratio']:.3g} x the bound's scale at k = {worst['k']} "
                f"({worst['activation']}), and that quantile decays like k^{worst['exponent']}, so P[bound fails] -> 1 "
                "for every fixed C_sigma gamma")
    return {"printed_decays": decays, "corrected_holds": corrected_ok, "numbers": numbers, "evidence": evidence,
            "counterexample": worst, "parameters": {"ks": list(ks), "draws": draws, "quantile": 0.9}}


# --- §3.2.2 / D.5: separated features at ξ = 1 (Proposition 7, Lemma 8, eq. (13)) ---------
def separated_h(activation: str, gram: np.ndarray, b: np.ndarray, b_hat: np.ndarray, m) -> np.ndarray:
    """h(m) at ξ = 1, λ_i = 1 and quantized c = b/√k, ĉ = b̂/√k, by :func:`verify.model.population.h`
    (in the paper's form, 2τ Σ_ij (b_i b̂_j/k) K'(τ(G_ij + b_i b̂_j m/k)) with τ = k/(k+1))."""
    k = gram.shape[0]
    root = np.sqrt(k)
    numbers = Numbers(k, 1.0, activation, np.ones(k), np.asarray(b, float) / root, np.asarray(b_hat, float) / root,
                      gram)
    return population.h(numbers, np.asarray(m, float))


def _separated_gram(rng, k: int) -> np.ndarray:
    """Gram matrix of k uniform unit rows in d = 8k dimensions (Assumption 5 holds comfortably)."""
    g = rng.standard_normal((k, 8 * k))
    g /= np.linalg.norm(g, axis=1, keepdims=True)
    return g @ g.T


def claimed_prop_7_exponent(rho: float) -> float:
    """Proposition 7: the even higher-order sum is O(λ_max² k^{−1/2−ε}), ε = min{ρ/4, 1 − 1/(1+2ρ)}."""
    return -0.5 - min(rho / 4, 1 - 1 / (1 + 2 * rho))


RELU_RHO = 0.25  # relu: μ_p² ~ p^{−5/2}, i.e. |μ_p| ≤ C p^{−1−ρ} with ρ = 1/4 (Assumption 6)


def _separated_draws(ctx, k: int, draws: int):
    rng = ctx.rng("separated", k)
    gram = _separated_gram(rng, k)
    for i in range(draws):
        if i and i % 10 == 0:  # a fresh W every ten draws of (c, ĉ)
            gram = _separated_gram(rng, k)
        yield gram, rng.choice([-1.0, 1.0], k), rng.choice([-1.0, 1.0], k)


@check("proposition-7", "Proposition 7", "3.2.2 / D.5.2", "sampling + scaling")
def proposition_7(ctx) -> Outcome:
    """Proposition 7: "Suppose Assumptions 1 to 6 hold. Then, with probability at least 1 − 1/k³ over the randomness of c, ĉ, for ε = min{ρ/4, 1 − 1/(1+2ρ)}, Σ_{n≥0} (1/k)^{2n+2} Σ_{s≥0} C(2n+2+s, 2n+2)(2n+s+3)μ_{2n+s+3}(σ)²(k/(k+1))^{2n+s+3} ⟨Σ_i λ_ic_iw_i^{⊗s}, Σ_i λ_iĉ_iw_i^{⊗s}⟩ is upper bounded by O(λ_max² k^{−1/2−ε})."

    The sum is ½ Σ_{l even ≥ 2} h_l at ξ = 1 (Prop. 4, checked in s3.2.2-h-xi-1) and the series
    converges absolutely at |m| = 1 (eq. (14)), so it equals ½[(h(1) + h(−1))/2 − h(0)] with h in
    closed form (float64).  Measured for relu (ρ = 1/4, claimed exponent −9/16), λ_i = 1, separated
    rows (d = 8k), k = 8…256: the root mean square of the sum over the draws, fitted against k
    (the 1 − 1/k³ quantile itself is out of reach of any feasible sample; the largest |sum|
    seen, fitted too, is reported alongside).  `consistent` when the
    fitted exponent's 99.9 % interval lies below the claimed exponent.
    """
    ks = ctx.pick((8, 16, 32, 64, 128, 256), (8, 16, 32, 64, 128, 256, 512))
    draws = ctx.pick(60, 400)
    worst, rms = [], []
    for k in ks:
        values = [0.5 * (0.5 * (v[0] + v[1]) - v[2]) for v in (separated_h("relu", gram, b, bh, [1.0, -1.0, 0.0])
                                                                 for gram, b, bh in _separated_draws(ctx, k, draws))]
        worst.append(float(np.max(np.abs(values))))
        rms.append(float(np.sqrt(np.mean(np.square(values)))))
    fit = fit_exponent(ks, rms)
    claimed = claimed_prop_7_exponent(RELU_RHO)
    numbers = {"k": list(ks), "rms_sum": rms, "max_abs_sum": worst, "exponent_of_rms": fit.describe(),
               "exponent_of_max": fit_exponent(ks, worst).describe(), "claimed_exponent": claimed}
    params = {"activation": "relu", "lambda": "ones", "d": "8k", "draws_per_k": draws}
    if fit.high < claimed:
        return Outcome(Verdict.CONSISTENT, f"rms of the even higher-order sum ~ k^{fit.describe()}, below the claimed "
                       f"k^{claimed:.4f}", numbers=numbers, parameters=params)
    return Outcome(Verdict.INCONCLUSIVE, f"fitted exponent {fit.describe()} not below the claimed {claimed:.4f}",
                   numbers=numbers, parameters=params)


@check("lemma-8", "Lemma 8", "3.2.2 / D.5.3", "sampling")
def lemma_8(ctx) -> Outcome:
    """Lemma 8: "With probability 1 − O(γ^{1/2}) − o(λ_max²/λ_min²), for mh(0) ≥ 0 we have h(m)sign(h(0)) ≥ |h(0)|/2 ≥ γλ_min²/(2√k)."

    Measured at ξ = 1, relu, λ_i = 1, separated rows (d = 8k): the frequency of
    "h(m)sign(h(0)) < |h(0)|/2 for some m ∈ sign(h(0))·[0, 1]" (21-point grid) and of
    |h(0)| < γ/√k for γ ∈ {0.01, 0.05, 0.2}; the O(·), o(·) have no constants, so the verdict is
    `consistent` when the first frequency does not grow with k and the second stays below
    a modest multiple (5) of γ^{1/2}.
    """
    ks = ctx.pick((16, 32, 64, 128), (16, 32, 64, 128, 256))
    draws = ctx.pick(150, 1000)
    grid = np.linspace(0.0, 1.0, 21)
    gammas = (0.01, 0.05, 0.2)
    table, half_rates, small_worst = {}, [], 0.0
    for k in ks:
        half, small = 0, dict.fromkeys(gammas, 0)
        for gram, b, bh in _separated_draws(ctx, k, draws):
            h0 = float(separated_h("relu", gram, b, bh, [0.0])[0])
            sign = 1.0 if h0 >= 0 else -1.0
            values = separated_h("relu", gram, b, bh, sign * grid)
            half += bool(np.any(sign * values < abs(h0) / 2))
            for g in gammas:
                small[g] += abs(h0) < g / math.sqrt(k)
        half_rates.append(half / draws)
        table[f"k={k}"] = {"half_violation": half / draws, **{f"P(|h0|<{g}/sqrt k)": small[g] / draws for g in gammas}}
        small_worst = max(small_worst, max(small[g] / draws / math.sqrt(g) for g in gammas))
    params = {"activation": "relu", "xi": 1, "lambda": "ones", "draws_per_k": draws}
    trend_ok = half_rates[-1] <= half_rates[0] + 5 * math.sqrt(max(half_rates[0], 1 / draws) / draws)
    verdict = Verdict.CONSISTENT if trend_ok and small_worst <= 5 else Verdict.INCONCLUSIVE
    return Outcome(verdict, f"half-violation frequency by k: {', '.join(f'{r:.3g}' for r in half_rates)}; "
                   f"max P(|h0| < gamma/sqrt k)/gamma^(1/2) = {small_worst:.2f}", numbers={"table": table},
                   parameters=params)


def relu_mu_squared(terms: int) -> np.ndarray:
    """μ_p(relu)² in float64: 1/(2π), 1/4, then ((p−3)!!)²/(2π p!) for even p ≥ 2 and 0 for odd p ≥ 3
    (the closed form of verify.model.hermite_exact, in logs so that high p costs nothing; the tests
    compare it with :func:`verify.model.hermite.hermite_coefficients`)."""
    out = np.zeros(terms)
    out[0], out[1] = 1 / (2 * math.pi), 0.25
    for p in range(2, terms, 2):
        log_dfact = sum(math.log(j) for j in range(p - 3, 0, -2))  # (p−3)!!, = 1 for p = 2
        out[p] = math.exp(2 * log_dfact - math.lgamma(p + 1)) / (2 * math.pi)
    return out


def claimed_eq_13_threshold(k: int, gamma: float) -> float:
    """Eq. (13)'s event: max_{s≤s*}|T_s| ≥ γλ_max² log k (λ = 1)."""
    return gamma * math.log(k)


def claimed_eq_13_failure_bound(k: int, gamma: float) -> float:
    """The probability of that event by the proof's union bound over s ≤ s* = ⌊10√k⌋, s*·k^{−γ/e}
    (capped at 1; the printed 1 − k^{−γ/e+1/2} drops the constant 10 of s*)."""
    return min(int(10 * math.sqrt(k)) * k ** (-gamma / math.e), 1.0)


def _eq_13_sides(activation_mu2: np.ndarray, gram: np.ndarray, b: np.ndarray, b_hat: np.ndarray) -> tuple:
    """(|Σ_n Σ_{s≤s*} a_{n,s} T_s|, max_{s≤s*}|T_s|, Σ_n Σ_{s≤s*} a_{n,s}) with s* = ⌊10√k⌋, λ = 1,
    T_s = Σ_ij λλ c_iĉ_j G_ij^s and a_{n,s} = (1/k)^{2n+2}C(2n+2+s,2n+2)(2n+s+3)μ²_{2n+s+3}(k/(k+1))^{2n+s+3}."""

    k = gram.shape[0]
    s_star = int(10 * math.sqrt(k))
    signs = np.outer(b, b_hat) / k
    t = np.array([np.sum(signs * gram**s) for s in range(s_star + 1)])
    coeff = np.zeros(s_star + 1)
    for n in range(12):
        l = 2 * n + 2
        s = np.arange(s_star + 1)
        p = l + s + 1
        ok = p < activation_mu2.size
        coeff[ok] += ((1 / k) ** l * comb(l + s[ok], l) * p[ok] * activation_mu2[p[ok]] * (k / (k + 1)) ** p[ok])
    return abs(float(coeff @ t)), float(np.abs(t).max()), float(coeff.sum())


@check("eq-13", "Eq. (13)", "D.5.2", "exact + sampling")
def eq_13(ctx) -> Outcome:
    """Eq. (13): "with probability at least 1 − k^{−γ/e + 1/2}, we have |Σ_n (1/k)^{2n+2} Σ_{s=0}^{s*} C(2n+2+s, 2n+2)(2n+s+3)μ_{2n+s+3}(σ)²(k/(k+1))^{2n+s+3}⟨Σλ_ic_iw_i^{⊗s}, Σλ_iĉ_iw_i^{⊗s}⟩| ≤ γλ_max² log k Σ_n (1/k)^{2n+2} Σ_{s=0}^{s*} C(2n+2+s, 2n+2)(2n+s+3)μ_{2n+s+3}(σ)²(k/(k+1))^{2n+s+3}" (s* = 10√k).

    The deterministic core: LHS ≤ max_{s≤s*}|T_s| · Σ coefficients (coefficients ≥ 0), checked on
    sampled separated instances (relu, λ = 1, k = 16, 64); the event max_s|T_s| < γλ_max² log k
    is measured for γ = 1 and compared with the union bound s* k^{−γ/e} (γ = 10 in the paper
    makes the event empty at these k).
    """
    mu2 = relu_mu_squared(130)
    gamma = 1.0
    worst_ratio, events, trials, table, comparisons = 0.0, 0, 0, {}, {}
    for k in (16, 64):
        hits = 0
        draws = ctx.pick(40, 200)
        for gram, b, bh in _separated_draws(ctx, k, draws):
            lhs, t_max, coeff_sum = _eq_13_sides(mu2, gram, b, bh)
            worst_ratio = max(worst_ratio, lhs / (t_max * coeff_sum))
            hits += t_max >= claimed_eq_13_threshold(k, gamma)
        comparisons[k] = compare_probability(hits, draws, claimed_eq_13_failure_bound(k, gamma))
        table[k] = comparisons[k].describe()
        events, trials = events + hits, trials + draws
    numbers = {"max LHS/(max_s|T_s| sum coeff)": worst_ratio, "event_gamma=1": table}
    if worst_ratio > 1 + 1e-12:
        return Outcome(Verdict.FAILS, f"LHS exceeds max|T_s| x sum coefficients by {worst_ratio:.3g}",
                       numbers=numbers, counterexample=numbers, basis=Basis.NUMERICAL)
    exceeded = [k for k, c in comparisons.items() if c.exceeds]
    if exceeded:
        k = exceeded[0]
        return Outcome(Verdict.FAILS, f"the tail event max_s|T_s| >= gamma log k is more frequent than the union bound "
                       f"allows at k = {k}: {table[k]}", numbers=numbers,
                       counterexample={"k": k, "gamma": gamma, "event": table[k]}, basis=Basis.STATISTICAL)
    if not all(c.respects for c in comparisons.values()):
        return Outcome(Verdict.INCONCLUSIVE, "the deterministic core holds on every draw, but the tail event's "
                       "frequency is not resolved against the union bound: " + "; ".join(table.values()),
                       numbers=numbers)
    bounds = {k: c.claimed_bound for k, c in comparisons.items()}
    return Outcome(Verdict.HOLDS, f"LHS <= max_s|T_s| x sum of coefficients on every draw (worst ratio "
                   f"{worst_ratio:.3g}); the tail event's frequency is within the union bound at k = 16 and 64 "
                   "(99.9999% Clopper-Pearson upper ends <= the bound)", numbers=numbers,
                   basis=Basis.STATISTICAL,
                   notes=["The union bound gives 1 - s* k^(-gamma/e) = 1 - 10 k^(1/2 - gamma/e); the printed "
                          "1 - k^(-gamma/e + 1/2) drops the constant 10 of s* (immaterial).",
                          "f_s in D.5.2 is printed with b_i b_hat_i; it should read b_i b_hat_j.",
                          f"At gamma = 1 the union bound is capped at 1 for both k ({bounds}), so the event comparison "
                          "cannot fail there: it is what the proof's bound allows, tested as stated.",
                          "Decided by: the deterministic inequality in float64 (1e-12) on every sampled draw (a search "
                          "that found no counterexample) and the event frequencies against the union bound "
                          "(Clopper-Pearson, confidence 1 - 1e-6)."])
