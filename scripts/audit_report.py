#!/usr/bin/env python3
"""Audit a ``verify check`` report.json against the evidence rules (issue 36); exit 1 on a finding.

    python scripts/audit_report.py report.json

- **One evidence rule:** every *holds*, of a check or of a per-entry part, rests on exact or
  certified evidence (a statistical, numerical, high-precision or empty basis never holds).
- **No inherited fail:** no ledger row took a verdict from a check that fails on another entry
  (every failing check that decides several entries reports a part for each).
- **Notes never hide a verdict:** a *holds* or *consistent* whose notes describe a failure of
  the statement or of a step (:data:`FAILURE_WORDS`) is flagged; such a failure is its own check.
- **Every fail has an impact**, and a correction or a note saying why none is given.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

PROOF = ("exact", "certified")
#: Phrases a note uses when it reports a failure that should be a verdict of its own.
FAILURE_WORDS = re.compile(r"a gap in the proof|half the stated|fails below|is wrong\b|does not follow|"
                           r"a failing step", re.I)


def findings(report: dict) -> list[str]:
    out = []
    for record in report["checks"]:
        parts = record.get("parts") or []
        items = [(record["id"], record)] + [(f"{record['id']}[{p['entry']}]", p) for p in parts]
        for name, item in items:
            if item.get("verdict") == "holds" and item.get("basis") not in PROOF:
                out.append(f"{name}: holds on {item.get('basis')} evidence")
            if item.get("verdict") in ("holds", "consistent"):
                for note in item.get("notes") or []:
                    if FAILURE_WORDS.search(note):
                        out.append(f"{name}: {item['verdict']} but a note reports a failure: {note[:100]}")
            if item.get("verdict") == "fails":
                if not item.get("impact"):
                    out.append(f"{name}: a fail without an impact")
                if not item.get("correction") and not item.get("notes"):
                    out.append(f"{name}: a fail with neither a correction nor a note saying why none")
    for row in report.get("ledger", []):
        if "fails on another" in (row.get("how") or ""):
            out.append(f"ledger {row['id']}: {row['how']}")
    return out


def main() -> int:
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "report.json")
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
        problems = findings(report)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError, AttributeError) as exc:
        sys.stderr.write(f"audit_report: {str(path)!r} is not a readable verify check report.json "
                         f"({type(exc).__name__})\n")
        return 2
    for line in problems:
        print(line)
    print(f"audit of {path}: {len(problems)} finding(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
