r"""Integer variables over ranges too long to enumerate, decided for every integer (issue #50).

A universal claim over an integer range of more than
:data:`~verify.claims.quantifiers.MAX_ENUMERATED` values is checked at a spread subset of its
values, which proves nothing about the others: the outcome is *inconclusive*.  When it is, two
general methods try to decide the claim at every integer of the range; each is sound by
construction and neither can make a claim hold that the enumeration would refute.

1. **Identity.**  lhs − rhs, with its finite sums in closed form (SymPy's ``doit``), simplifies
   to 0 with the variable declared an integer: the relation holds at every integer (``==``,
   ``<=``, ``>=``).  Hypothesis: SymPy's simplification is an equivalence for integer values of
   the variable (it is told they are integers, nothing more).
2. **Relaxation.**  The same relation, with each long integer variable read as a real variable
   over the hull [low, high] of its range, is decided by the engine's own steps; only a *holds*
   from exact or certified evidence is used.  A relation that holds at every real point of
   [low, high] holds at its integers.  Hypothesis: the relaxed expression has, at each integer, the
   value of the original.  It does, because it is the same SymPy tree with one symbol's
   assumption changed; what the language defines only at integers (``mu(n)``, ``factorial(n)``,
   a sum's bound) is refused at a real point, and the relaxation then proves nothing.

When the relaxation *fails* at a real point t, the claim is tried at the integers ⌊t⌋ and ⌈t⌉
(the original claim, its variable narrowed to those two values): a fail there is an integer
counterexample the spread subset missed.

Only claims that name no quantity of the model besides the quantified variables are tried (a
quantity depends on the instance, and the relaxation would change what is drawn); the rest keep
the enumeration's verdict.
"""

from __future__ import annotations

import dataclasses
import math

import sympy

from verify.base.budget import CPUDeadline, guarded
from verify.base.errors import VerifyInputError
from verify.claims.domains import interval, written_domain
from verify.claims.hypotheses import PROVED
from verify.claims.quantifiers import Quantifier
from verify.claims.spec import ClaimSpec
from verify.verdict import Basis, Outcome, Verdict

_PROOF_BASES = (Basis.EXACT, Basis.CERTIFIED)


def long_ranges(spec: ClaimSpec) -> list[Quantifier]:
    """The integer quantifiers whose values the enumeration checks only at a spread subset."""
    return [q for q in spec.quantifiers if q.kind == "integer" and not q.exhaustive()]


def applies(spec: ClaimSpec) -> bool:
    """A universal claim with a long integer range, naming no quantity of the model but its variables."""
    if spec.mode != "universal" or not long_ranges(spec):
        return False
    quantified = {q.name for q in spec.quantifiers}
    return not (spec.claim.quantities() - quantified)


def _holds_everywhere(spec: ClaimSpec, how: str, basis: Basis, numbers: dict) -> Outcome:
    """*holds* at every integer of the long ranges, ``how`` saying why."""
    names = ", ".join(f"{q.name} in {q.low}..{q.high}" for q in long_ranges(spec))
    return Outcome(Verdict.HOLDS, f"holds at every integer of {names}: {how}", basis=basis, numbers=numbers,
                   scope=f"statement: every integer of {names}" + _other_reals(spec))


def _defined(spec: ClaimSpec) -> bool:
    """Every operation written in the claim is defined at every integer of the long ranges
    (:mod:`verify.claims.domains`); only then is a proof about lhs − rhs one about the claim
    (``(n**2 - 1)/(n - 1) == n + 1`` held at n = 1, where it has no value)."""
    ranges = {q.symbol: interval(q.low, q.high, integer=True) for q in long_ranges(spec)}
    return written_domain(spec.claim.guards, ranges).status == PROVED


def identity(spec: ClaimSpec) -> Outcome | None:
    """*holds* when lhs − rhs simplifies to 0 at every integer (method 1), else None.  Tried before
    the enumeration: it is cheap, and a sum whose bound is the variable may have too many terms to
    expand at the range's larger values."""
    if not applies(spec) or spec.claim.op not in ("==", "<=", ">=") or not _defined(spec):
        return None
    try:
        difference = guarded("the claim with its finite sums in closed form", _closed_form,
                             spec.claim.difference)
    except (VerifyInputError, CPUDeadline, ValueError, TypeError, NotImplementedError):
        return None
    if difference != 0:
        return None
    return _holds_everywhere(spec, "lhs - rhs simplifies to 0 with the variable an integer (finite sums "
                             "in closed form)", Basis.EXACT, {"decided_by": "integer identity"})


def relaxation(spec: ClaimSpec, run) -> Outcome | None:
    """The claim decided on the real hull of its long ranges (method 2), or None.

    ``run`` decides a spec (:func:`verify.claims.run`): the relaxed claim and the narrowed one go
    through the engine's whole pipeline, budgets and evidence rule included."""
    if not applies(spec) or not _defined(spec):
        return None
    long = long_ranges(spec)
    relaxed = _relaxed(spec, long)
    if relaxed is None:
        return None
    try:
        outcome = run(relaxed)
    except (VerifyInputError, ValueError, TypeError, NotImplementedError):
        return None
    if outcome.verdict is Verdict.HOLDS and outcome.basis in _PROOF_BASES:
        return _holds_everywhere(spec, f"the relation holds at every real point of the range's hull "
                                 f"({outcome.evidence})", outcome.basis,
                                 {"decided_by": "integer relaxation", "relaxed": outcome.numbers})
    if outcome.verdict is Verdict.FAILS and len(long) == 1:
        return _near_the_real_counterexample(spec, long[0], outcome, run)
    return None


def _done(*sides) -> tuple:
    return tuple(side.doit() for side in sides)


def _closed_form(difference):
    """lhs − rhs with its finite sums done and simplified (in a guarded worker)."""
    return sympy.simplify(difference.doit())


def _relaxed(spec: ClaimSpec, long: list[Quantifier]) -> ClaimSpec | None:
    """The spec with each long integer range read as the real interval [low, high]."""
    reals = {q.symbol: sympy.Symbol(q.name, real=True) for q in long}
    claim = spec.claim
    try:
        # a finite sum in closed form, under the CPU guard as in identity(): doit may take long
        lhs, rhs = (side.xreplace(reals) for side in
                    guarded("the claim's finite sums in closed form", _done, claim.lhs, claim.rhs))
    except (VerifyInputError, CPUDeadline, ValueError, TypeError, NotImplementedError):
        return None
    if lhs.has(sympy.Sum) or rhs.has(sympy.Sum):
        return None  # a sum whose bound is the variable has no value at a real point
    quantifiers = tuple(
        dataclasses.replace(q, kind="real", symbol=reals[q.symbol],
                            text=f"{q.name} in [{q.low}, {q.high}]") if q.symbol in reals else q
        for q in spec.quantifiers)
    claim = dataclasses.replace(claim, lhs=lhs, rhs=rhs)
    return dataclasses.replace(spec, claim=claim, quantifiers=quantifiers)


def _near_the_real_counterexample(spec: ClaimSpec, q: Quantifier, relaxed: Outcome, run) -> Outcome | None:
    """The claim at the integers next to the relaxation's counterexample, when one of them fails."""
    point = (relaxed.counterexample or {}).get(q.name)
    try:
        t = float(sympy.Rational(str(point)))
    except (TypeError, ValueError, sympy.SympifyError):
        return None
    candidates = sorted({min(max(v, int(q.low)), int(q.high)) for v in (math.floor(t), math.ceil(t))})
    values = "{" + ", ".join(str(v) for v in candidates) + "}"
    narrowed = dataclasses.replace(q, kind="values", values=tuple(sympy.Integer(v) for v in candidates),
                                   text=f"{q.name} in {values}")
    spec = dataclasses.replace(spec, quantifiers=tuple(narrowed if p is q else p for p in spec.quantifiers))
    try:
        outcome = run(spec)
    except (VerifyInputError, ValueError, TypeError, NotImplementedError):
        return None
    if outcome.verdict is not Verdict.FAILS:
        return None
    outcome.evidence = (f"{outcome.evidence} (an integer next to where the relation fails on the real "
                        f"interval, {q.name} = {point})")
    return outcome


def _other_reals(spec: ClaimSpec) -> str:
    """The scope's words about the claim's own real variables, if any."""
    reals = [q.name for q in spec.quantifiers if q.continuous]
    return f", at every real point of {', '.join(reals)} in its range" if reals else ""
