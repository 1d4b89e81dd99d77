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

#: Hypotheses proved inside a rule before it applies: (rule, hypothesis, where it is proved).
RULE_HYPOTHESES = (
    ("existence", "every point where f may blow up is in a finite list (default deny: an unknown "
                  "function, a non-integer power or log of a base not proved nonnegative, or an "
                  "infinite set of zeros gives unknown)", "verify.base.singular.singular_candidates"),
    ("existence", "growth below exp(g^2/2) on both tails, by a certified majorant or an exact limit",
     "verify.claims.existence._tails"),
    ("existence", "an integrable order alpha > -1 at each singular point (exact limit of log|f|/log t)",
     "verify.claims.existence._finite_points"),
    ("Stein's lemma", "the factor F of E[g F(g)] is absolutely continuous: no kink function and no "
                      "real singular point", "verify.claims.gaussian_rules._continuous"),
    ("linearity", "each term's expectation exists on its own", "verify.claims.gaussian_rules._linear"),
    ("removable singularity (exact)", "N(p) = ... = N^(m-1)(p) = 0 exactly, and N^(m) of exponential "
     "type (Fubini's domination)", "verify.claims.gaussian_rules._taylor_remainder"),
    ("removable singularity (balls)", "N holomorphic on a disc around p (Arb, analytic flag) and "
     "N(p) = ... = N^(m-1)(p) = 0 exactly", "verify.certified.removable._model"),
    ("exact sign rules", "a product, power or function of numbers (no sum, whose sign SymPy "
     "evaluates numerically)", "verify.claims.universal._by_sign_rules"),
    ("search", "a counterexample confirmed in ball arithmetic (float64 alone refutes nothing)",
     "verify.claims.universal.confirm"),
    ("probability over a range", "every point of a continuous range covered (a grid is not a range)",
     "verify.claims.outcome._probability"),
    ("asymptotic order", "a limit, or measurements with randomness (a deterministic log-log fit is no "
     "evidence)", "verify.claims.asymptotic._fit_is_no_evidence"),
    ("Eg of a quantified variable", "E|f(g, a)| < oo for every a of the range: no point where f may blow "
     "up for any a (a's sign known from the range; an exponent of unknown sign denied), one tail majorant "
     "valid over the whole range (interval arithmetic)", "verify.claims.parametric.uniform_existence"),
    ("Eg of a quantified variable", "the closed form F(a) agrees with certified quadrature at 5 points of "
     "the range (else the claim is decided at those points only, never holds)",
     "verify.claims.parametric.closed_form"),
    ("every step", "each argument of h, Phi, K, Kp lies in [-1, 1] on the whole range, proved by the "
     "steps themselves (a ball clamped to [-1, 1] is no proof)", "verify.claims.steps.ARGUMENTS_IN_DOMAIN"),
    ("tail growth (Max, Min)", "|max f_i| <= sum |f_i|; for t >= 0 max(a_i + b_i t) <= max a + (max b) t",
     "verify.certified.growth._Rules.extreme"),
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
