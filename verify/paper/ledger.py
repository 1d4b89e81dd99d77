r"""The ledger: one entry per displayed equation of the paper, saying what decides it.

The ledger is data, read with :mod:`tomllib`, never executed: one TOML file per part of the
paper in ``ledger.d/`` beside this module (:data:`LEDGER_FILES`, in the paper's order).  Each
``[[display]]`` entry holds

- ``id``: the display's id (:mod:`verify.paper.source`: section and ordinal);
- ``quote``: its LaTeX exactly as printed (checked against the vendored text);
- ``kind``: one of :data:`KINDS`;
- ``check``: the id of the ``verify check`` check that decides it, or
- ``claim``: the display as one relation of the claim language (``docs/claims.md``), with its
  quantifiers in ``for``, ``family``, ``activation``, ``seeds``, ``prob``, ``growth`` and ``lam``
  (the options of :func:`verify.claims.claim`); optionally a ``correction`` (a claim with the same
  quantifiers that the suite verifies where the printed one fails) and ``fails_as`` (what a fail
  means: ``step``, the default for a display, ``statement`` or ``as-printed``).  Each such entry is
  a check of ``verify check`` with the id ``display-<id>`` (:mod:`verify.checks.ledger_claims`);
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

LEDGER = Path(__file__).with_name("ledger.d")
#: The ledger's files, one per part of the paper, in the paper's order.
LEDGER_FILES = ("1-3.toml", "A-C.toml", "D.toml", "E-F.toml")
KINDS = ("definition", "identity", "inequality", "asymptotic", "probability", "cited", "restatement", "prose")
#: The kinds that state a relation computation can decide.
COMPUTABLE = ("identity", "inequality", "asymptotic", "probability")
DECIDED = ("holds", "fails", "consistent")


#: The fields of an entry's claim: the options of :func:`verify.claims.claim`, as TOML keys.
CLAIM_OPTIONS = ("for", "family", "activation", "seeds", "prob", "growth", "lam")
FIELDS = frozenset({"id", "quote", "kind", "check", "claim", "reason", "note", "correction", "fails_as",
                    *CLAIM_OPTIONS})


class LedgerError(VerifyInputError):
    """The ledger does not match the paper or the checks (names the entry and what is wrong)."""


@dataclass(frozen=True)
class ClaimSpec:
    """A ledger entry's claim: its text, the options of :func:`verify.claims.claim`, and an optional
    correction (same options) with what a fail means."""

    text: str
    options: tuple[tuple[str, object], ...]  # (TOML key, value), in CLAIM_OPTIONS order
    correction: str | None = None
    fails_as: str = "step"

    def keywords(self) -> dict:
        """The options as keyword arguments of :func:`verify.claims.claim` (``for`` is ``for_``)."""
        return {("for_" if key == "for" else key): value for key, value in self.options}


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
    claim: ClaimSpec | None = None

    @property
    def decided_by(self) -> str | None:
        """The id of the check whose verdict is this entry's: the named check, or the entry's own
        claim check (``display-<id>``)."""
        if self.check:
            return self.check
        return claim_check_id(self.id) if self.claim else None

    @property
    def status(self) -> str:
        """``check``, ``not decidable`` (a reason) or ``missing``."""
        return "check" if self.decided_by else ("not decidable" if self.reason else "missing")


def claim_check_id(entry_id: str) -> str:
    """The ``verify check`` id of a ledger entry's own claim."""
    return f"display-{entry_id.lower()}"


def _claim_spec(item: dict, where: str) -> ClaimSpec | None:
    if "claim" not in item:
        stray = [key for key in (*CLAIM_OPTIONS, "correction", "fails_as") if key in item]
        if stray:
            raise LedgerError(f"ledger entry {where}: {', '.join(stray)} without a claim")
        return None
    if not isinstance(item["claim"], str) or not item["claim"].strip():
        raise LedgerError(f"ledger entry {where}: claim must be a non-empty string")
    fails_as = item.get("fails_as", "step")
    if fails_as not in ("step", "statement", "as-printed"):
        raise LedgerError(f"ledger entry {where}: fails_as {fails_as!r} is not step, statement or as-printed")
    options = tuple((key, item[key]) for key in CLAIM_OPTIONS if key in item)
    return ClaimSpec(item["claim"], options, item.get("correction"), fails_as)


@cache
def entries() -> tuple[Entry, ...]:
    """The ledger, validated against the paper's displays (one entry each, in order, quoted verbatim)."""
    raw = []
    for name in LEDGER_FILES:
        try:
            raw += tomllib.loads((LEDGER / name).read_text(encoding="utf-8")).get("display", [])
        except tomllib.TOMLDecodeError as exc:
            raise LedgerError(f"{LEDGER / name}: not valid TOML ({exc})") from None
    shown = displays()
    if [e.get("id") for e in raw] != [d.id for d in shown]:
        missing = [d.id for d in shown if d.id not in {e.get("id") for e in raw}]
        raise LedgerError(f"the ledger must have one entry per display, in order; missing or misplaced: "
                          f"{', '.join(missing[:5]) or 'order differs'}")
    text = paper_text()
    out = []
    for item, display in zip(raw, shown, strict=True):
        unknown = set(item) - FIELDS
        if unknown:
            raise LedgerError(f"ledger entry {display.id}: unknown field(s) {', '.join(sorted(unknown))}")
        if item.get("quote") != display.latex or f"$${item.get('quote')}$$" not in text:
            raise LedgerError(f"ledger entry {display.id}: its quote is not the display as printed")
        if item.get("kind") not in KINDS:
            raise LedgerError(f"ledger entry {display.id}: kind {item.get('kind')!r} is not one of "
                              f"{', '.join(KINDS)}")
        if sum(1 for key in ("check", "claim", "reason") if item.get(key)) > 1:
            raise LedgerError(f"ledger entry {display.id}: give one of check, claim or reason")
        out.append(Entry(display.id, display.section, item["quote"], item["kind"], item.get("check"),
                         item.get("reason"), item.get("note"), _claim_spec(item, display.id)))
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
        if entry.decided_by:
            verdict, basis = verdicts.get(entry.decided_by, ("not run", None))
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
