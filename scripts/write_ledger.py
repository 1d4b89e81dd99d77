#!/usr/bin/env python3
"""Write verify/paper/ledger.toml from a JSON list of entries (id, kind, check, reason, note),
quoting each display from the vendored paper.  Used once to create the ledger; afterwards the
TOML is edited by hand and ``tests/test_paper_ledger.py`` keeps it honest.

    python scripts/write_ledger.py entries.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HEADER = """\
# The ledger of the paper's displayed equations: one [[display]] per $$ ... $$ block of
# verify/paper/dayi_chen_colt.txt, in order (verify/paper/ledger.py reads it; nothing here runs).
#   id      section and ordinal (verify/paper/source.py)
#   quote   the display's LaTeX exactly as printed (tests check it against the text)
#   kind    definition | identity | inequality | asymptotic | probability | cited | restatement | prose
#   check   the `verify check` id that decides it, or
#   reason  why computation does not decide it; neither: the display is missing (not yet checked)
#   note    optional: what a claim for it should state
"""


def toml_string(text: str) -> str:
    """A TOML string for ``text``: a literal string where it can be (LaTeX keeps its backslashes)."""
    if "\n" not in text and "'" not in text and all(ord(ch) >= 32 for ch in text):
        return f"'{text}'"
    if "'''" not in text and not text.startswith("\n") and not text.endswith("'") \
            and all(ord(ch) >= 32 or ch == "\n" for ch in text):
        return f"'''{text}'''"
    return json.dumps(text, ensure_ascii=False)


def main() -> int:
    from verify.paper.source import displays

    entries = {e["id"]: e for e in json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))}
    blocks = [HEADER]
    for display in displays():
        entry = entries[display.id]
        lines = ["[[display]]", f"id = {toml_string(display.id)}", f"kind = {toml_string(entry['kind'])}"]
        for key in ("check", "reason", "note"):
            if entry.get(key):
                lines.append(f"{key} = {toml_string(entry[key])}")
        lines.append(f"quote = {toml_string(display.latex)}")
        blocks.append("\n".join(lines) + "\n")
    (ROOT / "verify" / "paper" / "ledger.toml").write_text("\n".join(blocks), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
