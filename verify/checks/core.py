r"""The vocabulary of ``verify check``: verdicts, outcomes, the check registry, the run context.

A *check* is a function ``(ctx) -> Outcome`` registered with :func:`check`.  Its
docstring opens with the paper's statement, quoted, with its number; the
registry keeps that quote for ``verify check --list`` and the report.  Every check
belongs to one pack (:attr:`Check.pack`): a coded check to the built-in pack whose
package defines it, a ledger claim or definitions check to the pack whose ledger it came from.

Each check compares the paper's printed claim with the suite's own derivation
or measurement.  The verdict is

- ``holds``: verified exactly, or to a stated precision or confidence;
- ``fails``: with a counterexample a reader can rerun (``verify check --only ID``),
  the size of the discrepancy, and a correction where one can be derived;
- ``consistent``: a measured behaviour matches an asymptotic claim;
- ``inconclusive`` or ``cited``, with the reason.
"""

from __future__ import annotations

import difflib
import hashlib
import inspect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from verify.base.errors import VerifyInputError
from verify.paper.pack import builtin_pack_of
from verify.verdict import Basis, FailureKind, Outcome, Verdict, apply_scope_rule, default_impact
from verify.verdict.outcome import apply_evidence_rule, default_failure_kind, method_basis

#: How a ledger entry's claim check opens its reading, by what the entry is (``display``, a
#: relation of a proof, a relation inside a statement): "Display (2-2), as printed: $…$".
LEDGER_READINGS = {"display": "Display", "relation": "Inline relation",
                   "statement": "Relation of a statement", "prose": "Relation of the prose"}
#: How a report names an entry of each kind beside its id ("statement relation (2-s3)"): a relation
#: inside a statement is not the statement, and one of the prose is not an entry of kind "prose".
LEDGER_NAMES = {"display": "display", "relation": "relation", "statement": "statement relation",
                "prose": "prose relation"}


@dataclass(frozen=True)
class Check:
    id: str
    statement: str  # e.g. "Lemma 31", as numbered in the paper
    section: str  # e.g. "E.1.1"
    method: str  # exact | symbolic | high-precision | monte-carlo | search | sampling | scaling | cited
    function: Callable[[Context], Outcome]
    fails_as: FailureKind = FailureKind.STATEMENT  # the kind of a ``fails`` that does not name one
    #: the pack it belongs to (:attr:`verify.paper.pack.Pack.key`: ``dayi_chen``); "" for a check
    #: made by hand outside any pack (a test's)
    pack: str = ""
    #: a name for work this check shares with others through a process-wide cache (the paper's
    #: SGD runs): ``verify check --jobs N`` runs the checks of one name in one process, one after
    #: the other, so the work is done once; "" for none
    shares: str = ""

    def finish(self, outcome: Outcome) -> Outcome:
        """``outcome`` with the check's defaults filled in: its basis, its scope and, for a fail,
        its kind and impact; then the scope rule (:func:`apply_scope_rule`) and the evidence rule
        (:func:`apply_evidence_rule`).  Each per-entry part is finished the same way."""
        for part in outcome.parts.values():
            self.finish(part)
        if outcome.basis is None:
            undecided = outcome.verdict in (Verdict.CITED, Verdict.INCONCLUSIVE)
            outcome.basis = Basis.NONE if undecided else method_basis(self.method)
        if outcome.verdict is Verdict.FAILS and outcome.failure_kind is None:
            outcome.failure_kind = self.fails_as
        if outcome.verdict in (Verdict.HOLDS, Verdict.CONSISTENT) and outcome.scope is None:
            # Unless a check says it proved the statement, its evidence covers what it computed.
            outcome.scope = "instances: the cases and points the evidence names"
        outcome = apply_evidence_rule(apply_scope_rule(outcome), self.method)
        if outcome.verdict is Verdict.FAILS and outcome.impact is None:
            regime = outcome.numbers.get("regime") or {}
            outcome.impact = default_impact(outcome.failure_kind, outcome.correction_verified,
                                            regime.get("holds") is True)
        return outcome

    @property
    def quote(self) -> str:
        """The first paragraph of the docstring: the paper's statement, quoted."""
        doc = inspect.getdoc(self.function) or ""
        return " ".join(doc.split("\n\n")[0].split())


REGISTRY: dict[str, Check] = {}


class UnknownCheckError(VerifyInputError):
    """``--only`` named a check that does not exist."""


def check_id(text: str) -> str:
    """Normalise 'Lemma 31', 'lemma_31', 'LEMMA-31' to the registry key 'lemma-31'."""
    return re.sub(r"[^a-z0-9.]+", "-", text.strip().lower()).strip("-")


def check(id: str, statement: str, section: str, method: str, fails_as: FailureKind | None = None,
          pack: str | None = None, shares: str = ""):
    """Register a check; the decorated function's docstring must quote the statement.

    ``fails_as`` says what a ``fails`` of this check means (:class:`FailureKind`); by default a
    display, proof step or definition fails as a step, a numbered result as the statement.
    The check belongs to the built-in pack whose package defines the function
    (:func:`verify.paper.pack.builtin_pack_of`); ``pack`` names it for a function defined
    elsewhere (a test's), and one defined elsewhere without it is refused.  ``shares``: see
    :attr:`Check.shares`.
    """
    method_basis(method)  # an unknown method word fails here, at import, not in a report

    def register(function: Callable[[Context], Outcome]) -> Callable[[Context], Outcome]:
        key = check_id(id)
        if key in REGISTRY:
            raise ValueError(f"duplicate check id {key!r}")
        if not inspect.getdoc(function):
            raise ValueError(f"check {key!r} must quote its statement in the docstring")
        owner = pack or builtin_pack_of(function.__module__)
        if not owner:
            raise ValueError(f"check {key!r} is defined in {function.__module__}, outside a built-in pack's "
                             "package (verify/paper/packs/<pack>/): say which pack it belongs to with pack=")
        kind = FailureKind(fails_as) if fails_as else default_failure_kind(statement)
        REGISTRY[key] = Check(key, statement, section, method, function, kind, owner, shares)
        return function

    return register


def close_ids(word: str, ids: Iterable[str], n: int = 5) -> str:
    """``"; did you mean a, b?"`` naming the ids most like ``word`` (difflib's ratio ≥ 0.6, then
    ids sharing its first word), or ``""`` when none is close."""
    ids = list(ids)
    key = check_id(word)
    close = difflib.get_close_matches(key, ids, n=n, cutoff=0.6)
    close += [k for k in ids if k.split("-")[0] == key.split("-")[0] and k not in close][: n - len(close)]
    return f"; did you mean {', '.join(close)}?" if close else ""


def resolve(ids: list[str] | None, among: dict[str, Check] | None = None,
            listing: str = "verify check --list") -> list[Check]:
    """The checks named by ``ids`` among ``among`` (the registry by default; a pack's checks for
    ``verify check --paper``), all of them, in order, when ``ids`` is None; ``listing`` is the
    command the error for an unknown id points to."""
    checks = REGISTRY if among is None else among
    if not ids:
        return list(checks.values())
    out = []
    for raw in ids:
        key = check_id(raw)
        if key not in checks:
            raise UnknownCheckError(f"unknown check id {raw!r} (see `{listing}`)" + close_ids(raw, checks))
        if checks[key] not in out:
            out.append(checks[key])
    return out


@dataclass(frozen=True)
class Context:
    """Run settings shared by every check.

    ``full`` asks for more samples and larger sizes.  Randomness comes only from
    :meth:`rng`, which derives an independent stream from (seed, check id, key),
    so a check's numbers do not depend on which other checks ran.
    """

    seed: int = 0
    full: bool = False
    check_id: str = ""

    def seed_sequence(self, *key: object) -> np.random.SeedSequence:
        words = [int.from_bytes(hashlib.sha256(str(part).encode()).digest()[:4], "little")
                 for part in (self.check_id, *key)]
        return np.random.SeedSequence([self.seed, *words])

    def rng(self, *key: object) -> np.random.Generator:
        return np.random.default_rng(self.seed_sequence(*key))

    def pick(self, quick, full):
        """``quick`` in the default run, ``full`` under ``--full``."""
        return full if self.full else quick
