"""The ledger's precision corpus: entries annotated by an independent referee, and the confusion
matrix of the suite's per-entry verdicts and impacts against them (``verify calibrate --ledger``).

The corpus (``tests/calibration/ledger/*.toml``, read by tomllib) holds, per entry, whether the
display or relation is ``correct`` as printed and, if not, the kind of ``error`` (``typo``,
``step``, ``false-statement``, ``boundary``) and the ``intended`` formula.  It was written by a
referee who read only the paper, never the suite's verdicts, and it is not edited to agree with
the suite.  Two targets (issue 36): no entry the referee finds correct is marked *fails*, and no
false statement is labelled below ``gap``.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

from verify.base.errors import VerifyInputError

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "calibration" / "ledger"
ERRORS = ("typo", "step", "false-statement", "boundary")
#: The suite's verdict columns, in the matrix's order.
COLUMNS = ("fails", "holds", "consistent", "inconclusive", "cited", "not decidable", "missing", "other")
#: The impacts a referee's error kind allows without overstating it (a false statement may be
#: reported as a false statement or a gap, never below).
AT_LEAST_GAP = ("false statement", "gap", "false statement, outside the main regime")


class PrecisionCorpusError(VerifyInputError):
    """The precision corpus is malformed (names the file and entry)."""


def load(directory: Path = CORPUS) -> dict[str, dict[str, Any]]:
    """entry id -> its annotation, from every ``*.toml`` in ``directory``."""
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(Path(directory).glob("*.toml")):
        try:
            items = tomllib.loads(path.read_text(encoding="utf-8")).get("entry", [])
        except tomllib.TOMLDecodeError as exc:
            raise PrecisionCorpusError(f"{path}: not valid TOML ({exc})") from None
        for item in items:
            if not isinstance(item.get("id"), str) or not isinstance(item.get("correct"), bool):
                raise PrecisionCorpusError(f"{path}: an entry needs an id and a boolean 'correct': "
                                           f"{item!r:.80}")
            if not item["correct"] and item.get("error") not in ERRORS:
                raise PrecisionCorpusError(f"{path}: entry {item['id']}: error must be one of "
                                           f"{', '.join(ERRORS)}")
            if item["id"] in out:
                raise PrecisionCorpusError(f"{path}: entry {item['id']} annotated twice")
            out[item["id"]] = item
    return out


def confusion(rows: list[dict[str, Any]], truth: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The matrix of referee truth (correct, or the kind of error) against the suite's verdict per
    entry (report.json's ``ledger`` rows), the impact matrix of the entries both call wrong, and
    the two targets' violations."""
    by_id = {row["id"]: row for row in rows}
    matrix: dict[str, Counter] = {}
    impacts: dict[str, Counter] = {}
    false_alarms, understated, unknown = [], [], []
    for entry_id, note in truth.items():
        row = by_id.get(entry_id)
        if row is None:
            unknown.append(entry_id)
            continue
        label = "correct" if note["correct"] else note["error"]
        verdict = row["verdict"] if row["verdict"] in COLUMNS else "other"
        matrix.setdefault(label, Counter())[verdict] += 1
        if verdict == "fails":
            impacts.setdefault(label, Counter())[row.get("impact") or "none"] += 1
            if note["correct"]:
                false_alarms.append(entry_id)
        if label == "false-statement" and verdict == "fails" and row.get("impact") not in AT_LEAST_GAP:
            understated.append(entry_id)
    return {"matrix": {k: dict(v) for k, v in matrix.items()},
            "impacts": {k: dict(v) for k, v in impacts.items()},
            "false_alarms": sorted(false_alarms), "understated": sorted(understated),
            "unknown": sorted(unknown), "annotated": len(truth)}


def matrix_markdown(summary: dict[str, Any]) -> str:
    """The confusion matrix, the impact matrix and the targets, as Markdown."""
    labels = [label for label in ("correct", *ERRORS) if label in summary["matrix"]]
    lines = ["| referee \\ suite | " + " | ".join(COLUMNS) + " |", "|---" * (len(COLUMNS) + 1) + "|"]
    for label in labels:
        row = summary["matrix"][label]
        lines.append(f"| {label} | " + " | ".join(str(row.get(c, 0)) for c in COLUMNS) + " |")
    impact_names = ("false statement", "gap", "false statement, outside the main regime", "repaired", "typo",
                    "boundary")
    lines += ["", "Impacts the suite gives the entries it fails, by the referee's kind of error:", "",
              "| referee \\ impact | " + " | ".join(impact_names) + " |",
              "|---" * (len(impact_names) + 1) + "|"]
    for label, row in summary["impacts"].items():
        lines.append(f"| {label} | " + " | ".join(str(row.get(i, 0)) for i in impact_names) + " |")
    alarms = ", ".join(summary["false_alarms"]) or "none"
    under = ", ".join(summary["understated"]) or "none"
    lines += ["", f"{summary['annotated']} entries annotated. Entries the referee finds correct that the "
              f"suite marks *fails* (target: none): {alarms}. False statements labelled below gap "
              f"(target: none): {under}."]
    return "\n".join(lines) + "\n"
