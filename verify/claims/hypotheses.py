r"""The hypotheses a decision step's conclusion needs, as predicates: proved, refuted or unknown.

A step of :data:`verify.claims.steps.STEPS` computes the two sides of a claim and compares them.
What it computes is only the claim's value when the claim's objects are what the step takes them
to be: an ``Eg(f)`` is a number only when E|f(g)| < ∞ (SymPy integrates 1/g to its principal
value 0; a Gaussian rule proves any value of an expectation that does not exist).  Such
conditions used to be assumed unless a rule saw a reason to doubt them; here each is a
:class:`Hypothesis` whose predicate answers :data:`PROVED`, :data:`REFUTED` or :data:`UNKNOWN`
with its reason, and each step declares the hypotheses it needs (``Step.hypotheses``).
**Default deny**: :func:`verify.claims.steps.decide` accepts a step's *holds* only when every
one of its hypotheses is proved; *unknown* demotes it to undecided with the reason, and
*refuted* to undecided as well (the existence step, which runs first, already refutes a claim
about an expectation that does not exist).  A *fails* stands either way: a relation about a
number that does not exist is false too.

Hypotheses checked inside a rule (Stein's lemma needs an absolutely continuous factor, the
removable-singularity rule an exponential-type derivative, the certified Taylor models a
holomorphic numerator) are listed in :data:`RULE_HYPOTHESES` with the function that proves each,
so the list of what is proved is one place (docs/soundness.md prints it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from verify.claims.existence import DIVERGES, EXISTS, claim_expectations

PROVED, REFUTED, UNKNOWN = "proved", "refuted", "unknown"


@dataclass(frozen=True)
class Proof:
    status: str
    reason: str = ""


@dataclass(frozen=True)
class Hypothesis:
    """A named condition on a relation and the predicate that decides it."""

    name: str
    check: Callable[..., Proof]

    def on(self, rel) -> Proof:
        """The predicate's answer for ``rel``, computed once per relation."""
        cache = rel._cache.setdefault("hypotheses", {})
        if self.name not in cache:
            cache[self.name] = self.check(rel)
        return cache[self.name]


def _expectations_exist(rel) -> Proof:
    """Every Eg(f) of the claim has E|f(g)| < ∞, proved by :mod:`verify.claims.existence`."""
    found = claim_expectations(rel)
    status = {EXISTS: PROVED, DIVERGES: REFUTED}.get(found.status, UNKNOWN)
    return Proof(status, found.reason)


#: Every Eg(...) of the claim exists (E|f(g)| < ∞): needed by every step that computes a value.
EXPECTATIONS_EXIST = Hypothesis("every Eg(...) of the claim exists", _expectations_exist)

#: Hypotheses proved inside a rule before it applies: (rule, hypothesis, the functions that prove
#: it), in Markdown; docs/soundness.md prints this table (its ``rule-hypotheses`` block).
RULE_HYPOTHESES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ('every step after existence (its *holds*, and a Monte-Carlo *consistent*)',
     'every `Eg(f)` of the claim has E|f| < ∞',
     ('hypotheses.EXPECTATIONS_EXIST',)),
    ('every step after existence (its *holds*, and a Monte-Carlo *consistent*)',
     'every argument of K, Kp, h and Phi lies in [−1, 1] on the whole range: a value a quantifier '
     'put in is compared exactly (K(3m) at m = 1/2 is K(3/2), refuted), any other argument is proved '
     '≥ −1 and ≤ 1 by the decision steps themselves',
     ('steps.ARGUMENTS_IN_DOMAIN',)),
    ('every step after existence, and the integer and unbounded identities',
     'every operation written in the claim is defined at every point of the range, recorded by the '
     "parser before SymPy rewrites it (`sqrt(x)**2` is x): a divisor ≠ 0, a non-integer power's base "
     "≥ 0, a variable exponent's base ≠ 0 wherever the exponent may be ≤ 0 (|b| + Max(e, 0) > 0: "
     "`x**(x − 1)` at x = 0), a log's argument > 0, asin's and acos's in [−1, 1], factorial's ≥ 0, "
     "Gamma's > 0, binomial's k ≥ 0 and, unless both are integers, n > −1 (Γ(n + 1)'s poles), a "
     "Sum's number of terms ≥ 0; proved by `solveset` on the range (one "
     "variable, its integers for an integer variable) or by SymPy's sign rules (several), default "
     "deny; guards of g (existence's), of a Sum's index or of a model quantity are not checked here",
     ('claims/domains.written_domain', 'steps.OPERATIONS_DEFINED')),
    ("exact expectation by SymPy's integrate",
     'every jump and kink of the integrand (sign, Heaviside, Abs, Max, Min, Piecewise, floor, ceil) '
     "is at a point found exactly, a finite set (SymPy's integrate of sign(cos g) keeps a few of its"
     ' intervals)',
     ('claims/gaussian._jumps_located', 'model/activations.kinks_of')),
    ('certified expectation of a body with infinitely many switches (sign(cos g), floor g)',
     'beyond a window [−W, W], |f| is below a growth majorant that needs no branch (|sign u| ≤ 1, '
     '|floor u| ≤ |u| + 1) whose Gaussian tail is within the error budget; inside, every switch '
     "point is a root of a switch argument (or of u − n for each integer n a ball enclosure of "
     "floor's argument reaches) that `solveset` or a polynomial's real roots list as a finite set; "
     'the branch on each piece is read at a sample point in balls',
     ('certified/windows.windowed_expectation', 'certified/growth._Rules.rule_sign')),
    ('existence',
     'every point where f may blow up is in a finite list (default deny: an unknown function, a '
     'non-integer power or log of a base not proved ≥ 0, infinitely many zeros give *unknown*)',
     ('base/singular.singular_candidates',)),
    ('existence, real powers and logs',
     "a base proved ≥ 0 on the line by SymPy's assumptions or, for a rational function with rational "
     'coefficients, by Sturm counts: every factor of N·D with a real root has even multiplicity, and '
     'the sign is read at one point',
     ('base/singular.rational_nonnegative',)),
    ('existence',
     'growth below e^{g²/2} on both tails (certified majorant or exact limit); order α > −1 at each '
     'singular point',
     ('claims/existence',)),
    ("existence (its limits), the activation validator's L² test",
     "SymPy's limit only in the class where Gruntz's algorithm is proved: no oscillating function "
     '(sin, cos, tan, floor, …) of an argument not proved bounded at the point (the validator then '
     'probes numerically: it guards input, not a verdict)',
     ('base/limits.proved_limit',)),
    ("Stein's lemma, Hermite reduction",
     'F, …, F^(n−1) continuous with no real singular point (absolutely continuous) for E[Heₙ F] = '
     'E[F^(n)]',
     ('gaussian_rules._continuous', '_hermite_reduced')),
    ('parity with logs',
     'log r(g) is split over the canonical factorization of r only where r is a rational function '
     'proved ≥ 0 (log(N/D) = log\u2009|N| − log\u2009|D| off its zeros and poles, a null set)',
     ('gaussian_rules._split_rational_logs',)),
    ('removable singularity (exact)',
     'N(p) = … = N^(m−1)(p) = 0 exactly; N^(m) of exponential type (Fubini)',
     ('gaussian_rules._taylor_remainder',)),
    ('removable singularity (balls)',
     "N holomorphic on a disc around p (Arb's analytic flag), Cauchy's bound used within half the "
     'disc',
     ('certified/removable._model',)),
    ('μ_p = E[σ^(p)]/√p!',
     'σ of exponential type (boundary terms of p integrations by parts vanish)',
     ('quantities.Quantities.mu',)),
    ('exact sign rules',
     'a product, power or function of numbers, never a sum',
     ('universal._by_sign_rules',)),
    ('symbolic step, an inequality in several variables',
     "lhs − rhs (or its factored form) has the claimed sign by SymPy's sign rules once each variable "
     'is an end of its range plus or minus a nonnegative symbol, a symbol with its range\'s sign, or '
     '(a range in [0, ∞)) a square w², factored again after the substitution: '
     'each widens the box to half-lines, so a proof there is one on the box; at most 3 variables '
     'and 60 operations; a pole on the box is the operations guard\'s to refute',
     ('claims/domains.sign_on_box', 'universal.symbolic_step')),
    ('symbolic step, an inequality in one variable the exact root isolation leaves',
     "as in several variables (the same sign rules on the range shifted from its ends): √2 − x ≥ 0 "
     'on [0, √2], whose irrational end no rational isolation reaches',
     ('universal._by_signs_on_the_box',)),
    ('symbolic step, an equality in one variable with a vanishing derivative',
     "SymPy reduces d(lhs − rhs)/dx to 0 with x's sign from its range; lhs − rhs has no jump "
     'function (sign, Heaviside, floor, ceil, Piecewise) and no unevaluated sum, integral or model '
     'quantity, so with every operation defined on the closed range (the operations guard) it is '
     'continuous there; its derivative is 0 off a countable set, so it is constant, and its exact '
     'value (or angle identity, or ball) at the midpoint (a rational near it when an end is '
     'irrational) decides; x may also be run over [a, b) by '
     "(a + bw)/(1 + w), w ≥ 0, or shifted from either end, and the derivative's polynomials factored "
     "(sqrt(1 − x²) = sqrt(1 − x)·sqrt(1 + x) once both are visibly ≥ 0): each covers the range but "
     'at most an end, where the derivative may fail anyway',
     ('universal._by_vanishing_derivative', 'universal._slope_vanishes', 'claims/domains.inside_stand_in')),
    ('symbolic step, an equality in one variable whose reduced difference switches',
     'the reduced lhs − rhs holds only continuous switches (Abs, Max, Min, none nested) of the '
     'variable alone; their switch points are located exactly as for the branches step; on each '
     'piece, every switch replaced by its branch read at a point inside, lhs − rhs reduces to 0; with '
     'every operation defined on the closed range it is continuous, so 0 on the whole range',
     ('universal._by_continuous_branches', 'certified/windows.branches_between')),
    ('touching points (one variable, non-strict)',
     'the touching point is an exact zero of lhs − rhs (SymPy reduces it to 0): a rational point of '
     'the stall, an end of the range (an irrational end read exactly, the prover running on the range '
     "rounded outward within 2^-200), or an irrational root of the derivative that `solveset` lists "
     "in a window around the stall; beside it the derivatives' signs are proved in balls (monotone "
     'to the exact point); an exact negative value at such a root is a counterexample',
     ('claims/touching.prove_touching', 'touching._split_at_an_exact_touch',
      'touching._beside_an_exact_end')),
    ('contact step: a non-strict inequality in two variables attained along y = ±x or an axis',
     'lhs − rhs D and ∂ʲD/∂yʲ for j < n reduce exactly to 0 on the line (x signed by its range); D '
     'holds no switch, jump, unevaluated operation or opaque kernel, and the balls of D, ∂D/∂y, '
     '∂ⁿD/∂yⁿ and the Lagrange remainder ∂ᴺD/∂yᴺ/N! are finite on the region from each cell to the line '
     '(differentiable along every segment); a cell is covered by the ball of D or by the Taylor '
     "model D = tⁿ(cₙ(x) + … + t^(N−n)R) in t = y − ℓ(x) with tⁿQ's sign read exactly (t's range from the"
     " cell's rational ends); an irrational end rounded outward (x's sign read there too); a ball "
     'evaluation budget, not seconds',
     ('claims/contact.contact_step', 'contact.along_a_line', 'contact._cover')),
    ('branches: one variable, piece by piece between switch points',
     'every point of the range where Abs, sign, Heaviside, Max, Min, floor, ceil or a fold '
     'acos(cos u), asin(sin u) may switch is a root of its argument (or of u − n for the integers n '
     "an enclosure of u reaches) in a finite set `solveset` or a polynomial's real roots list; on each "
     'piece the branch is read at a sample point in balls and the piece is decided by every step; a '
     "jump's value at a switch point and at the range's ends is decided on the claim itself there; "
     '*holds* needs exact or certified evidence on every piece',
     ('claims/branches.branches_step', 'certified/windows.switch_points')),
    ('certified step, a strictly monotone difference in one variable',
     "the prover shows the signed difference's derivative > 0 (or < 0) in balls on the whole range, "
     'rounded outward (finite balls: differentiable, with Abs/Max/Min off finitely many points), and '
     'the difference holds no jump function, so it is continuous and smallest at one end; its exact '
     'value there (or the ball, sign rules, angle identity of that constant) decides',
     ('universal._by_monotone',)),
    ('`Integral(f, t, a, b)` of an f that switches in t alone',
     'a < b numbers; the switch points in (a, b) located exactly as for the branches step (at most '
     "11); each piece's branch read at a point inside it, so it is f on the open piece, and a point "
     "changes no integral; each piece's integral proved as any other",
     ('claims/integrals._by_pieces',)),
    ('E[f] of a body with jumps, by its even part almost everywhere',
     'every argument u of Heaviside, sign, floor, ceil in f is switch-free, finite on the whole line '
     '(the singular-point helper lists no point) and not constant (two balls differ), so its level '
     'sets are null; f(g) + f(−g), with Heaviside(−u) = 1 − Heaviside(u), floor(−u) = −floor(u) − 1 '
     'off them, takes one jump-free value for every assignment of 0/1 (±1) to at most 3 jump nodes; '
     'no Abs, Max, Min or Piecewise',
     ('claims/almost_everywhere.even_part',)),
    ('acos/asin of an expression: defined on the range, finite on the line',
     "SymPy's interval arithmetic (AccumBounds) over the variables' ranges bounds the argument within "
     '[−1, 1] (cos(x² − 1) for any x); else the operations guard and the existence step go on as before',
     ('base/singular.within_unit', 'claims/domains.written_domain')),
    ('search',
     'a counterexample confirmed in balls (float64 alone refutes nothing)',
     ('universal.confirm',)),
    ('probability over a range, grad_var over a box',
     'every point covered (a grid is not a range)',
     ('outcome._probability', 'universal.statistical_step')),
    ('probability, one drawn pattern',
     'its float64 reading confirmed in balls at the decisive point (a tie settled exactly); an '
     'enumeration holds only when every pattern is settled',
     ('probability.decide', '_ball_reading')),
    ('asymptotic order',
     'a limit of the ratio proved in the Hardy class (no oscillating function of an unbounded '
     "argument, no (−1)^(k²)); outside it only SymPy's AccumBounds enclosure, read as bounds (O, "
     'Omega) and never as a limit; or measurements with randomness (a deterministic log–log fit is no'
     ' evidence)',
     ('base/limits.limit_or_enclosure', 'asymptotic._symbolic', '_fit_is_no_evidence')),
    ('growing sums (integral and limit comparison, Leibniz)',
     'every limit they take (term → 0, integral → ∞, ratio of terms) proved in the Hardy class',
     ('growing_sums._limit_at_infinity',)),
    ('`Eg` of a quantified variable',
     "E|f(g, a)| < ∞ for every a of the range: no point where f may blow up for any a (a's sign known"
     ' from the range; an exponent of unknown sign denied), one tail majorant valid over the whole '
     'range (interval arithmetic); the closed form F(a) agrees with certified quadrature at 5 points,'
     ' else only those points are decided and the claim never holds',
     ('parametric.uniform_existence', 'parametric.closed_form')),
    ('tail growth of Max, Min',
     '|max fᵢ| ≤ Σ|fᵢ|; for t ≥ 0, max(aᵢ + bᵢt) ≤ max a + (max b)t',
     ('certified/growth._Rules.extreme',)),
    ("a kernel's argument",
     'a ball wholly outside [−1, 1] is bad input (exit 2), never a traceback',
     ('certified/kernels._clamped_rho',)),
    ('asymptotic order with a binding',
     'a binding that depends on the growth variable is kept as its expression in the limit (its value'
     ' at the first configuration made `a == O(1)` hold for a = k)',
     ('asymptotic._symbolic_values',)),
    ('infinite Hermite sum written with its index shifted (Σ (p+1) μ_{p+1}² m^p)',
     'the term holds μ at one index p + s for one integer s, so the sum over q = p + s is the same '
     'sum; r^(q−1) is kept as a power with q − 1 ≥ 0, never as 1/r times a sum (0·∞ at r = 0); the '
     "tail bound is Parseval's with |r|^(P+1+offset)",
     ('language._index_shifted', 'hermite_sums.recognise')),
    ('`Eg` of a quantified variable over a range with an irrational end (`t in [0, pi]`)',
     "the tail majorant's parameter ranges enclose the range outward by rationals (10⁻³⁰); the grid "
     'keeps the end exact',
     ('parametric._outer',)),
    ('integer range too long to enumerate (identity)',
     'lhs − rhs simplifies to 0 with the variable declared an integer, finite sums in closed form, '
     'under the CPU guard',
     ('claims/integers.identity',)),
    ('integer range too long to enumerate (relaxation)',
     'the relaxed claim holds at every real point of [low, high] by an exact or certified step; the '
     "relaxed expression is the same tree with the symbol's assumption changed, and what the language"
     " defines only at integers (μ(n), n!, a sum's bound, (−1)ⁿ) has no value at a real point, so it "
     'proves nothing; a real counterexample only nominates ⌊t⌋, ⌈t⌉, which the original claim then '
     'decides',
     ('claims/integers.relaxation',)),
    ('unbounded range `z in R`, `[a, oo)` (proof)',
     'both sides real and finite at every point of the range (the shared singular-point helper, '
     'default deny); then lhs − rhs reduces exactly to 0, or, for one variable and a rational lhs − '
     'rhs, `solveset` finds no point of the range (poles included) where the relation fails',
     ('claims/unbounded.identity',)),
    ('unbounded range (window)',
     'only a fail on the finite window [−10, 10] (a half-line: 20 units from its end) is used; a '
     'proof on the window is *inconclusive* on the range',
     ('claims/unbounded.widen',)),
    ('`Integral(f, t, a, b)`, exact',
     "f finite and real on the line (singular-point helper), or over the box: f and SymPy's closed "
     "form continuous (every node a finite real ball, no jump function), the closed form's derivative"
     ' in a moving end equal to f there (exactly), and its ball meeting the certified enclosure at '
     "the box's midpoint",
     ('claims/integrals.exact_integral',)),
    ('`Integral(f, t, a, b)`, balls',
     "Taylor's theorem with the remainder h³/24·f''(piece) enclosed over each of 128 pieces (f'' as a"
     " ball), or h·f(piece) (f bounded on the piece); an end's radius adds r·|f| there; an unbounded "
     'f gives an infinite ball',
     ('claims/integrals.ball_integral',)),
)


def unmet(hypotheses: tuple[Hypothesis, ...], rel) -> str:
    """Why the hypotheses are not all proved for ``rel`` ("" when they are)."""
    reasons = []
    for hypothesis in hypotheses:
        proof = hypothesis.on(rel)
        if proof.status != PROVED:
            why = f" ({proof.reason})" if proof.reason else ""
            reasons.append(f"{hypothesis.name}: {proof.status}{why}")
    return "; ".join(reasons)
