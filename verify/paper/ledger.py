r"""The ledger: one entry per displayed equation of the paper, saying what decides it.

``ledger.toml`` (beside this module) is data, read with :mod:`tomllib`, never executed.  Each
``[[display]]`` entry holds

- ``id``: the display's id (:mod:`verify.paper.source`: section and ordinal);
- ``quote``: its LaTeX exactly as printed (checked against the vendored text);
- ``kind``: one of :data:`KINDS`;
- ``check``: the id of the ``verify check`` check that decides it, or
- ``reason``: why computation does not decide it (a definition, a citation, a restatement, prose);
- ``note`` (optional): what a future claim should state.

An entry with neither ``check`` nor ``reason`` is **missing**: a computable relation the suite
has not yet checked.  :func:`coverage` turns the ledger and a report's verdicts into the
per-section table of ``verify check --coverage``: decided (holds, fails or consistent, with their
basis), not decided (its check was inconclusive or cited), not decidable (with the reason's kind),
missing.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from verify.base.errors import VerifyInputError
from verify.paper.source import displays, paper_text

LEDGER = Path(__file__).with_name("ledger.toml")
KINDS = ("definition", "identity", "inequality", "asymptotic", "probability", "cited", "restatement", "prose")
#: The kinds that state a relation computation can decide.
COMPUTABLE = ("identity", "inequality", "asymptotic", "probability")
DECIDED = ("holds", "fails", "consistent")


class LedgerError(VerifyInputError):
    """ledger.toml does not match the paper or the checks (names the entry and what is wrong)."""


@dataclass(frozen=True)
class Entry:
    id: str  # section-ordinal, as verify.paper.source numbers the displays
    section: str
    quote: str  # the LaTeX as printed
    kind: str  # one of KINDS
    #: the check that decides it, or the reason computation does not; neither: missing
    check: str | None = None
    reason: str | None = None
    note: str | None = None

    @property
    def status(self) -> str:
        """``check``, ``not decidable`` (a reason) or ``missing``."""
        return "check" if self.check else ("not decidable" if self.reason else "missing")


@cache
def entries() -> tuple[Entry, ...]:
    """The ledger, validated against the paper's displays (one entry each, in order, quoted verbatim)."""
    data = tomllib.loads(LEDGER.read_text(encoding="utf-8"))
    raw = data.get("display", [])
    shown = displays()
    if [e.get("id") for e in raw] != [d.id for d in shown]:
        missing = [d.id for d in shown if d.id not in {e.get("id") for e in raw}]
        raise LedgerError(f"ledger.toml must have one entry per display, in order; missing or misplaced: "
                          f"{', '.join(missing[:5]) or 'order differs'}")
    text = paper_text()
    out = []
    for item, display in zip(raw, shown, strict=True):
        unknown = set(item) - {"id", "quote", "kind", "check", "reason", "note"}
        if unknown:
            raise LedgerError(f"ledger entry {display.id}: unknown field(s) {', '.join(sorted(unknown))}")
        if item.get("quote") != display.latex or f"$${item.get('quote')}$$" not in text:
            raise LedgerError(f"ledger entry {display.id}: its quote is not the display as printed")
        if item.get("kind") not in KINDS:
            raise LedgerError(f"ledger entry {display.id}: kind {item.get('kind')!r} is not one of "
                              f"{', '.join(KINDS)}")
        if item.get("check") and item.get("reason"):
            raise LedgerError(f"ledger entry {display.id}: give a check or a reason, not both")
        out.append(Entry(display.id, display.section, item["quote"], item["kind"], item.get("check"),
                         item.get("reason"), item.get("note")))
    return tuple(out)


def part(section: str) -> str:
    """The part of the paper a section belongs to: §1 … §4, or Appendix A … F."""
    head = section.split(".")[0]
    return f"App. {head}" if head.isalpha() else f"§{head}"


def coverage(verdicts: dict[str, tuple[str, str | None]]) -> list[dict]:
    """Per part of the paper: the displays, and how many are decided (by basis), not decided,
    not decidable (by kind) and missing, given ``verdicts`` (check id -> (verdict, basis))."""
    rows: dict[str, dict] = {}
    for entry in entries():
        row = rows.setdefault(part(entry.section), {"part": part(entry.section), "displays": 0,
                                                     "decided": Counter(), "undecided": 0,
                                                     "not_decidable": Counter(), "missing": 0})
        row["displays"] += 1
        if entry.check:
            verdict, basis = verdicts.get(entry.check, ("not run", None))
            if verdict in DECIDED:
                row["decided"][basis or "none"] += 1
            else:
                row["undecided"] += 1
        elif entry.reason:
            row["not_decidable"][entry.kind] += 1
        else:
            row["missing"] += 1
    return list(rows.values())


def coverage_table(verdicts: dict[str, tuple[str, str | None]]) -> str:
    """The coverage as a Markdown table, with a total row."""
    rows = coverage(verdicts)
    lines = ["| part | displays | decided (basis) | not decided | not decidable (kind) | missing |",
             "|---|---|---|---|---|---|"]

    def counts(counter: Counter) -> str:
        return f"{sum(counter.values())}" + (f" ({', '.join(f'{k} {v}' for k, v in sorted(counter.items()))})"
                                              if counter else "")

    for row in rows:
        lines.append(f"| {row['part']} | {row['displays']} | {counts(row['decided'])} | {row['undecided']} | "
                     f"{counts(row['not_decidable'])} | {row['missing']} |")
    total = {"displays": sum(r["displays"] for r in rows),
             "decided": sum((r["decided"] for r in rows), Counter()),
             "undecided": sum(r["undecided"] for r in rows),
             "not_decidable": sum((r["not_decidable"] for r in rows), Counter()),
             "missing": sum(r["missing"] for r in rows)}
    lines.append(f"| **all** | {total['displays']} | {counts(total['decided'])} | {total['undecided']} | "
                 f"{counts(total['not_decidable'])} | {total['missing']} |")
    return "\n".join(lines) + "\n"
