r"""The verdict vocabulary shared by ``verify check``, ``verify claim`` and the figures.

- :class:`Verdict`: holds / fails / consistent / inconclusive / cited;
- :class:`Basis`: the evidence that decided it, strongest first (exact, certified,
  high-precision, numerical, statistical, none);
- :class:`FailureKind`: for a fail, whether the statement, a proof step, or its printing is wrong;
- :class:`Outcome`: one decision with its evidence, numbers, counterexample, correction and
  **scope** (what the evidence covers: the statement, these instances, these points, or a proxy);
  :func:`apply_scope_rule` keeps a proxy from being reported as *holds*.

A verdict may claim only what its evidence proves: when the evidence cannot decide, the
verdict is *inconclusive* and says why.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import Any

from verify.verdict.display import outcome_html, outcome_markdown


class Verdict(enum.StrEnum):
    HOLDS = "holds"
    FAILS = "fails"
    CONSISTENT = "consistent"
    INCONCLUSIVE = "inconclusive"
    CITED = "cited"


class Basis(enum.StrEnum):
    """Which kind of evidence decided a verdict, strongest first.

    - ``exact``: symbolic or exact-rational computation (SymPy, fractions, enumeration): no
      rounding anywhere;
    - ``certified``: ball arithmetic (Arb) whose balls satisfy, or violate, the statement
      strictly: a proof on the instance or range checked, resting on Arb's rigorous error
      bounds (so a verdict with exact and certified parts is certified);
    - ``high-precision``: mpmath at a stated precision with an error estimate that is not a bound;
    - ``numerical``: double precision, e.g. a counterexample search, with no error bound;
    - ``statistical``: Monte Carlo, sampling or fits, at a stated confidence;
    - ``none``: nothing was computed that decides it (cited results, inconclusive checks).
    """

    EXACT = "exact"
    CERTIFIED = "certified"
    HIGH_PRECISION = "high-precision"
    NUMERICAL = "numerical"
    STATISTICAL = "statistical"
    NONE = "none"


class FailureKind(enum.StrEnum):
    """What a ``fails`` verdict says about the paper (the reader's first question).

    - ``statement``: the theorem, lemma or claim as stated is false (a counterexample to it);
    - ``step``: a display, a definition or a proof step is wrong, but the statement stands
      (or the check cannot tell whether it does);
    - ``as-printed``: the statement as printed differs from the statement as the surrounding
      text intends; the intended reading holds.
    """

    STATEMENT = "statement"
    STEP = "step"
    AS_PRINTED = "as-printed"


class Impact(enum.StrEnum):
    """What a ``fails`` does to the results above it (the errata's first column), strongest first.

    - ``false statement``: a counterexample to the numbered statement itself;
    - ``gap``: a step fails and no correction the suite verifies restores the chain (the
      statement may still be true, but the proof does not show it);
    - ``false statement, outside the main regime``: a counterexample to the statement, which
      holds where the main theorems use it (the pack's ``[regime]``: Claim 1 is false for
      ξ² > 2k and holds surely at the main theorems' ξ = 1);
    - ``repaired``: a step fails, and the suite verifies a corrected step under which the chain holds;
    - ``typo``: printed differently from what the surrounding text intends; the intended reading
      is verified;
    - ``boundary``: fails only at a degenerate or excluded point (equality at one point, N = 1
      where the proof has large N, a WLOG index).
    """

    FALSE_STATEMENT = "false statement"
    GAP = "gap"
    OUTSIDE_REGIME = "false statement, outside the main regime"
    REPAIRED = "repaired"
    TYPO = "typo"
    BOUNDARY = "boundary"


def default_impact(failure_kind: FailureKind | None, correction_verified: bool | None,
                   holds_in_regime: bool = False) -> Impact:
    """The impact of a fail its check does not state: a false statement for a counterexample to
    the statement (outside the main regime when it is shown to hold there); for a step or a
    misprint, *repaired* or *typo* only when the suite verified a correction, else a *gap*
    (nothing verified restores the chain)."""
    if failure_kind is FailureKind.STATEMENT:
        return Impact.OUTSIDE_REGIME if holds_in_regime else Impact.FALSE_STATEMENT
    if not correction_verified:
        return Impact.GAP
    return Impact.TYPO if failure_kind is FailureKind.AS_PRINTED else Impact.REPAIRED


#: What each word of a check's ``method`` contributes as evidence.
_METHOD_WORDS = {"exact": Basis.EXACT, "symbolic": Basis.EXACT, "enumeration": Basis.EXACT,
                 "law": Basis.EXACT,
                 "high-precision": Basis.HIGH_PRECISION, "search": Basis.NUMERICAL,
                 "finite": Basis.NUMERICAL, "differences": Basis.NUMERICAL,
                 "monte-carlo": Basis.STATISTICAL, "sampling": Basis.STATISTICAL,
                 "scaling": Basis.STATISTICAL, "simulation": Basis.STATISTICAL, "cited": Basis.NONE,
                 # a ledger claim's outcome names its own basis (the claim step that decided it)
                 "claim": Basis.NONE}
_STRENGTH = list(Basis)  # strongest first


def weakest_basis(bases) -> Basis:
    """The weakest of ``bases`` (None entries skipped); ``none`` when there is nothing."""
    present = [b for b in bases if b is not None]
    return max(present, key=_STRENGTH.index) if present else Basis.NONE


def residual_text(residual: float, tolerance: float) -> str:
    """A float64 residual as evidence text: ``within TOL`` when it passes, else its value.

    A residual at rounding level (1e-11, 1e-17) changes with the CPU, the BLAS build and its
    thread count, so printing its digits made the README's errata block (checked against a
    fresh run in CI) differ between machines (Prop. 4: 3.1e-11 on one, 2.2e-11 on another).
    The digits stay in the outcome's ``numbers``; the text says only what was decided.
    """
    return f"within {tolerance:g}" if residual <= tolerance else f"{residual:.1e} (above {tolerance:g})"


def method_basis(method: str) -> Basis:
    """The evidence a check's ``method`` ("exact + sampling", ...) gives when its outcome does not
    name one: the weakest of its parts, because a verdict is only as strong as its weakest input
    ("cited" parts add nothing and are skipped unless nothing else is there)."""
    plain = re.sub(r"\([^)]*\)", " ", method)  # "(exact law of c)" is a remark, not a method
    parts = [_METHOD_WORDS[word] for part in plain.split("+") for word in part.split()]
    return weakest_basis(b for b in parts if b is not Basis.NONE)


@dataclass
class Outcome:
    """What a check found.  ``evidence`` is one line; ``numbers`` are the values that decide it."""

    verdict: Verdict
    evidence: str
    numbers: dict[str, Any] = field(default_factory=dict)
    parameters: dict[str, Any] = field(default_factory=dict)
    counterexample: dict[str, Any] | None = None
    correction: str | None = None
    correction_verified: bool | None = None
    notes: list[str] = field(default_factory=list)
    #: what decided the verdict; None means the default from the check's method (:func:`method_basis`)
    basis: Basis | None = None
    #: for ``fails`` only: whether the statement itself, a step, or only its printing is wrong
    failure_kind: FailureKind | None = None
    #: what a holds/consistent verdict covers: "statement" (the statement in full generality), or
    #: "instances: ...", "points: ...", "proxy: ..." (what was actually proved or measured); None
    #: until the check or the runner fills it in (:meth:`Check.finish`)
    scope: str | None = None
    #: for ``fails`` only: what the fail does to the results above it; None until the check or
    #: :func:`default_impact` (through :meth:`Check.finish`) fills it in
    impact: Impact | None = None
    #: one sub-outcome per ledger entry (display or proof relation) the check decides, keyed by
    #: the entry's id: an entry takes its own part, never the verdict of evidence about another
    parts: dict[str, Outcome] = field(default_factory=dict)
    #: for ``fails`` only: the name of the part of the check's statement that fails, where it is not
    #: the check's own name (an align that fails on its line ``eq:kp1`` is "display eq:kp1 (2-2)",
    #: not its first line's "display eq:k0 (2-2)"); the reports name the check's row by it
    statement: str | None = None

    def __post_init__(self) -> None:
        self.verdict = Verdict(self.verdict)
        if self.basis is not None:
            self.basis = Basis(self.basis)
        if self.verdict is Verdict.FAILS and self.counterexample is None:
            raise ValueError("a 'fails' outcome needs its counterexample")
        if self.failure_kind is not None:
            if self.verdict is not Verdict.FAILS:
                raise ValueError("failure_kind belongs to 'fails' outcomes only")
            self.failure_kind = FailureKind(self.failure_kind)
        if self.impact is not None:
            if self.verdict is not Verdict.FAILS:
                raise ValueError("impact belongs to 'fails' outcomes only")
            self.impact = Impact(self.impact)
        if self.statement is not None and self.verdict is not Verdict.FAILS:
            raise ValueError("statement belongs to 'fails' outcomes only")
        if "\n" in self.evidence:
            raise ValueError("evidence must be one line")

    def part(self, **changes: Any) -> Outcome:
        """This outcome's evidence as the part of one ledger entry (no parts of its own), with
        ``changes``: for the entry that the check's own counterexample is about."""
        fields = {**vars(self), "parts": {}, "notes": list(self.notes), **changes}
        return Outcome(**fields)

    @property
    def certified(self) -> bool:
        """True when ball arithmetic decided the verdict (a proof on the instances checked)."""
        return self.basis is Basis.CERTIFIED

    def _repr_markdown_(self) -> str:
        """Jupyter's Markdown view (:func:`~verify.verdict.display.outcome_markdown`)."""
        return outcome_markdown(self)

    def _repr_html_(self) -> str:
        """Jupyter's HTML view, every field escaped (:func:`~verify.verdict.display.outcome_html`)."""
        return outcome_html(self)


#: statement (in full generality), instances, points, proxy (a stand-in: its holds is consistent),
#: part (one relation of a display's chain, declared by its ledger claim), restatement (a claim
#: that holds for any values of its symbols, verify.checks.ledger_claims.restatement)
SCOPES = ("statement", "instances", "points", "proxy", "part", "restatement")


def scoped(outcome: Outcome, scope: str) -> Outcome:
    """``outcome`` with what its evidence covers (``"proxy: ..."``, ``"points: ..."``, ...); a
    fail keeps no scope (its counterexample is its scope)."""
    if scope.split(":")[0] not in SCOPES:
        raise ValueError(f"a scope starts with one of {', '.join(SCOPES)}: got {scope!r}")
    if outcome.verdict is not Verdict.FAILS:
        outcome.scope = scope
    return outcome


def apply_scope_rule(outcome: Outcome) -> Outcome:
    """A general statement proved (or measured) only on a named proxy does not *hold*: a
    ``holds`` whose scope is a proxy becomes ``consistent``, with a note saying why.  This is
    what kept Theorem 36 (proved at one m), Prop. 4 beyond degree 6 (40 points within 1e-12)
    and the float generators of Assumptions 1 and 4 labelled "holds (certified)"."""
    if outcome.verdict is Verdict.HOLDS and (outcome.scope or "").startswith("proxy"):
        outcome.verdict = Verdict.CONSISTENT
        outcome.notes.append("Consistent, not holds: the evidence proves a proxy of the statement, "
                             f"not the statement ({outcome.scope}).")
    return outcome


#: The evidence that can prove: a *holds* on anything weaker is reported as *consistent*, or as
#: *inconclusive* when the evidence is a search (:func:`apply_evidence_rule`).
PROOF_BASES = (Basis.EXACT, Basis.CERTIFIED)
_SEARCH = re.compile(r"\bsearch|no counterexample|worst \w+ found", re.I)


def apply_evidence_rule(outcome: Outcome, method: str = "") -> Outcome:
    """One evidence rule for every check and claim: *holds* only from exact or certified evidence.

    - a search that found no counterexample (the method or the evidence says *search*) proves
      nothing: *inconclusive*;
    - a Monte-Carlo or sampled non-rejection, a float64 computation without an error bound, or a
      high-precision value whose error estimate is not a bound: *consistent*.

    The outcome keeps its basis and says in a note why it does not hold."""
    if outcome.verdict is not Verdict.HOLDS or outcome.basis in PROOF_BASES or outcome.basis is None:
        return outcome
    searched = "search" in method.split() or _SEARCH.search(outcome.evidence)
    if searched and outcome.basis is Basis.NUMERICAL:
        outcome.verdict = Verdict.INCONCLUSIVE
        outcome.notes.append("Inconclusive, not holds: a search that finds no counterexample proves "
                             f"nothing ({outcome.basis} evidence); only exact or certified evidence "
                             "can hold.")
    else:
        outcome.verdict = Verdict.CONSISTENT
        outcome.notes.append(f"Consistent, not holds: {outcome.basis} evidence is not a proof; only "
                             "exact or certified evidence can hold.")
    return outcome


#: Statement labels that name a display, a proof step or a definition rather than a result:
#: a failure there is a wrong step (:attr:`FailureKind.STEP`) unless the check says otherwise.
_STEP_LABEL = re.compile(r"proof|display|App\.|Eqs?\.|§|example|chain|constants|parity|overlaps", re.I)


def default_failure_kind(statement: str) -> FailureKind:
    """What a ``fails`` of the statement labelled ``statement`` means when its check does not say."""
    return FailureKind.STEP if _STEP_LABEL.search(statement) else FailureKind.STATEMENT
