r"""Real variables over unbounded ranges (``z in R``, ``[a, oo)``, ``(-oo, b]``), decided soundly.

The engine's steps work on finite boxes: balls, sampling and the prover cover a bounded
interval.  A claim "for all real z" is therefore decided in two parts, each sound on its own:

1. **Proof on the whole range** (:func:`identity`, tried first).  lhs − rhs, with every variable a
   real symbol and nothing else assumed, is reduced exactly (the symbolic step's own reduction,
   under the CPU budget).  It is 0: the relation holds at every real point (``==``, ``<=``,
   ``>=``).  Otherwise, for an inequality in one unbounded variable whose lhs − rhs is a rational
   function, SymPy's ``solveset`` over the range (real roots of the numerator and denominator,
   then a sign per interval) finds the set where the relation is violated; empty means it holds on
   the whole range.  Hypotheses: the reduction is an equivalence for real values (it is told they
   are real, nothing more); ``solveset`` on a rational inequality is exact (it is, by root
   isolation); a variable that occurs in no denominator is defined everywhere, and a pole is a
   point where the relation is undefined, which ``solveset`` excludes, so a claim with a real pole
   in its range is not proved this way (it is left to part 2).
   Both need lhs and rhs real and finite at every point of the range, proved by the shared
   helper :func:`verify.base.singular.singular_candidates` (default deny: unknown is no proof).
2. **Counterexample in a window** (:func:`widen`).  The engine decides the claim on the finite
   window [−W, W] (or [a, a + 2W], [b − 2W, b]) of :data:`~verify.claims.quantifiers.LINE_WINDOW`.
   A *fails* there is a counterexample on the range.  Anything else proves nothing beyond the
   window, so it is *inconclusive*, and the evidence says what held where.

Only claims that name no quantity of the model (no Eg, h, mu, ...) may have an unbounded range
(refused in one line otherwise, by :func:`verify.claims.spec.build_spec`): a quantity's argument
has a bounded domain (m, ρ in [−1, 1]) or depends on the instance.
"""

from __future__ import annotations

import sympy

from verify.base.budget import CPUDeadline, remembered
from verify.base.errors import VerifyInputError
from verify.base.singular import ComplexValuedError, singular_candidates
from verify.claims.domains import written_domain
from verify.claims.hypotheses import PROVED
from verify.claims.quantifiers import LINE_WINDOW, Quantifier
from verify.claims.reduction import reduced
from verify.claims.spec import ClaimSpec
from verify.verdict import Basis, Outcome, Verdict

_VIOLATION = {"<=": sympy.Gt, ">=": sympy.Lt, "<": sympy.Ge, ">": sympy.Le}


def lines(spec: ClaimSpec) -> list[Quantifier]:
    """The quantifiers of ``spec`` whose range is unbounded."""
    return [q for q in spec.quantifiers if any(q.unbounded)]


def _range_text(q: Quantifier) -> str:
    below, above = q.unbounded
    low = "(-oo" if below else f"[{q.low}"
    high = "oo)" if above else f"{q.high}]"
    return f"{q.name} in {low}, {high}"


def _interval(q: Quantifier) -> sympy.Interval:
    below, above = q.unbounded
    return sympy.Interval(-sympy.oo if below else q.low, sympy.oo if above else q.high)


def identity(spec: ClaimSpec) -> Outcome | None:
    """*holds* when part 1 of the module docstring proves the relation on the whole range, else None."""
    unbounded = lines(spec)
    if not unbounded:
        return None
    claim = spec.claim
    if not all(_finite_and_real(side, q) for side in (claim.lhs, claim.rhs) for q in unbounded):
        return None
    # the sides as SymPy built them may have lost an operation's domain (exp(log(z)) is z)
    ranges = {q.symbol: _interval(q) for q in unbounded}
    if written_domain(claim.guards, ranges).status != PROVED:
        return None
    try:
        difference = remembered("the claim over an unbounded range", reduced, claim.lhs - claim.rhs)
    except (VerifyInputError, CPUDeadline, ValueError, TypeError, NotImplementedError):
        return None
    how, step = None, "unbounded identity"
    if difference == 0 and claim.op in ("==", "<=", ">="):
        how = "lhs - rhs simplifies to 0 for every real value of the variables"
    elif claim.op in _VIOLATION and len(unbounded) == 1 and difference.free_symbols == {unbounded[0].symbol} \
            and difference.is_rational_function(unbounded[0].symbol):
        q = unbounded[0]
        try:
            violated = remembered("the claim's sign over an unbounded range", _violations,
                                  difference, claim.op, q.symbol, _interval(q))
        except (VerifyInputError, CPUDeadline, ValueError, TypeError, NotImplementedError):
            return None
        if violated is sympy.S.EmptySet:
            step = "unbounded sign"
            how = (f"lhs - rhs = {difference} is a rational function with no point of "
                   f"{_range_text(q).split(' in ', 1)[1]} where the relation fails (exact real roots)")
    if how is None:
        return None
    ranges = ", ".join(_range_text(q) for q in unbounded)
    return Outcome(Verdict.HOLDS, f"holds at every real point of {ranges}: {how}", basis=Basis.EXACT,
                   numbers={"decided_by": step},
                   scope=f"statement: every real point of {ranges}" + _others(spec))


def _finite_and_real(side, q: Quantifier) -> bool:
    """Whether ``side`` is proved real and finite at every point of ``q``'s range
    (:func:`verify.base.singular.singular_candidates`: default deny), so that a proof about
    lhs − rhs is a proof about the relation as typed."""
    if q.symbol not in side.free_symbols:
        return True
    try:
        found = singular_candidates(side, q.symbol)
    except ComplexValuedError:  # complex somewhere on the line, perhaps outside a half-line: no proof
        return False
    if found is None or not found[1]:
        return False
    return not any(point in _interval(q) for point in found[0])


def _violations(difference, op: str, symbol, interval):
    """Where lhs − rhs OP 0 fails on ``interval``, poles included (they are points of no value)."""
    _, denominator = sympy.fraction(sympy.together(difference))
    poles = sympy.solveset(sympy.Eq(denominator, 0), symbol, interval)
    violated = sympy.solveset(_VIOLATION[op](difference, 0), symbol, interval)
    return sympy.Union(violated, poles)


def widen(spec: ClaimSpec, outcome: Outcome) -> Outcome:
    """The window's outcome (part 2) read for the unbounded range: a fail stands, the rest is inconclusive."""
    unbounded = lines(spec)
    if not unbounded:
        return outcome
    windows = ", ".join(f"{q.name} in [{q.low}, {q.high}]" for q in unbounded)
    ranges = ", ".join(_range_text(q) for q in unbounded)
    if outcome.verdict is Verdict.FAILS:
        outcome.evidence += f" (found in the window {windows} of the unbounded range {ranges})"
        return outcome
    return Outcome(
        Verdict.INCONCLUSIVE,
        f"{outcome.verdict.value} ({outcome.basis.value}) on the window {windows} of the unbounded range "
        f"{ranges}, but no proof covers the range beyond it (lhs - rhs is not 0 for every real value, nor "
        f"a rational function of one variable whose sign is proved): {outcome.evidence}",
        basis=Basis.NONE, numbers={"decided_by": "unbounded window", "window": outcome.numbers})


def _others(spec: ClaimSpec) -> str:
    reals = [q.name for q in spec.quantifiers if q.continuous and not any(q.unbounded)]
    return f", at every real point of {', '.join(reals)} in its range" if reals else ""


__all__ = ["LINE_WINDOW", "identity", "lines", "widen"]
