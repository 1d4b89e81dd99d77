"""One verdict per ledger entry, from its own evidence: report.json's ``ledger`` array.

Each ledger entry (:mod:`verify.paper.ledger`) is decided by a check, a one-line claim (itself a
check) or a reason.  A check that decides several entries reports one part per entry
(:attr:`verify.verdict.Outcome.parts`), and an entry takes its own part.  Without a part of its
own an entry takes the check's verdict only where that verdict is about every entry it names:

- a check that decides this entry alone: its verdict;
- a *holds*, *consistent*, *inconclusive* or *cited* of a check that decides several entries:
  that verdict (a conjunction that holds holds in each conjunct the check tests);
- a *fails* of a check that decides several entries: **not** inherited, because the failing part
  may be another display; the entry is *inconclusive* and says so (tests keep this case empty:
  every such check reports its parts).

Each row also names the numbered statement the entry supports and, for a fail, its impact and the
results it puts in doubt (:mod:`verify.paper.structure`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from verify.checks.runner import Result
from verify.paper.ledger import Entry, entries
from verify.paper.regime import assess
from verify.paper.structure import affected, supports
from verify.verdict import Impact, Outcome, Verdict

#: The errata's order: a false statement first, a boundary case last.
IMPACT_ORDER = {impact.value: rank for rank, impact in enumerate(Impact)}


def entry_outcome(entry: Entry, result: Result | None, sharing: int) -> tuple[str, Outcome | None, str]:
    """(verdict, outcome, how) of ``entry`` given its check's ``result`` and the number of
    entries that check decides (``sharing``); ``how`` says where the verdict came from."""
    if result is None:
        return "not run", None, "its check was not run"
    outcome = result.outcome
    if outcome is None:
        return "crashed", None, f"{result.check.id} crashed"
    if entry.id in outcome.parts:
        part = outcome.parts[entry.id]
        return part.verdict.value, part, f"its own part of {result.check.id}"
    if sharing <= 1:
        return outcome.verdict.value, outcome, result.check.id
    if outcome.verdict is Verdict.FAILS:
        return "inconclusive", None, (f"{result.check.id} fails on another of the {sharing} entries it "
                                      "decides and reports no verdict of this entry's own")
    return outcome.verdict.value, outcome, f"{result.check.id} (all {sharing} entries it decides)"


def ledger_rows(results: list[Result]) -> list[dict[str, Any]]:
    """report.json's ``ledger``: one row per ledger entry (see the module docstring)."""
    by_id = {r.check.id: r for r in results}
    sharing = Counter(e.decided_by for e in entries() if e.decided_by)
    where = supports()
    rows = []
    for entry in entries():
        row: dict[str, Any] = {"id": entry.id, "what": entry.what, "kind": entry.kind,
                               "decided_by": entry.decided_by, "supports": where[entry.id]}
        if not entry.decided_by:
            row.update(verdict="not decidable" if entry.reason else "missing", basis=None, how=entry.reason)
            rows.append(row)
            continue
        verdict, outcome, how = entry_outcome(entry, by_id.get(entry.decided_by),
                                              sharing[entry.decided_by])
        row.update(verdict=verdict, how=how, basis=None if outcome is None else str(outcome.basis),
                   note=entry.note, declared_scope=entry.claim.scope if entry.claim else None)
        if outcome is not None and verdict == "holds" and outcome.numbers.get("restatement"):
            row["restatement"] = outcome.numbers["restatement"]
        if outcome is not None:
            row.update(scope=outcome.scope, evidence=outcome.evidence,
                       failure_kind=None if outcome.failure_kind is None else str(outcome.failure_kind),
                       correction=outcome.correction, correction_verified=outcome.correction_verified)
            if outcome.verdict is Verdict.FAILS:
                impact = outcome.impact or Impact.GAP
                doubt = impact in (Impact.GAP, Impact.FALSE_STATEMENT, Impact.OUTSIDE_REGIME)
                affects = affected(where[entry.id]) if doubt else []
                row.update(impact=str(impact), counterexample=outcome.counterexample, affects=affects,
                           regime=assess(affects, outcome.numbers)["text"] if doubt else "")
        rows.append(row)
    return rows


def entry_verdicts(rows: list[dict[str, Any]]) -> dict[str, tuple[str, str | None]]:
    """entry id -> (verdict, basis), for the ledger's coverage (:func:`verify.paper.ledger.coverage`);
    a *holds* whose claim declares a partial scope, or that is a restatement, is counted apart
    (:data:`verify.paper.ledger.APART`)."""
    return {row["id"]: (_counted_as(row), row.get("basis")) for row in rows}


def _counted_as(row: dict[str, Any]) -> str:
    if row["verdict"] == "holds" and row.get("restatement"):
        return "holds (restatement)"
    if row["verdict"] in ("holds", "consistent") and row.get("declared_scope"):
        return "holds (partial)"
    return row["verdict"]
