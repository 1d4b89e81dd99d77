"""Read back every formula a report renders as math and compare it with its source (issue #39).

    python scripts/roundtrip_report.py report.json

Every text of the report (each check's evidence, correction, notes and counterexample values, each
ledger row's evidence and correction) goes through :func:`verify.base.markdown.formulas`, the spans
report.md, report.html and the README's errata table show as math; each one's LaTeX is parsed back
by SymPy's LaTeX parser and compared with the span at random points (tests/formula_readback.py).
Every correction (:func:`verify.claims.printing.correction_parts`) and every check's claim the
reports print as a formula from the claim language is read back by tests/claim_readback.py and
compared with the claim.  Exit 1 naming the first formula whose rendering changes its meaning.
.ci/run runs it on the fresh report, so the round trip covers the whole report, not a sample.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import claim_readback  # noqa: E402
from tests.formula_readback import agree  # noqa: E402
from verify.base.markdown import formulas  # noqa: E402
from verify.claims.printing import claim_latex, correction_parts  # noqa: E402


def texts(value):
    """Every string inside a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from texts(item)


def claim_texts(value):
    """Every string under a key "claim" inside a JSON value."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "claim" and isinstance(item, str):
                yield item
            else:
                yield from claim_texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from claim_texts(item)


def main(path: str) -> int:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    checked, seen = 0, set()
    for text in texts([data.get("checks", []), data.get("ledger", [])]):
        for _, source, latex in formulas(text):
            if source in seen:
                continue
            seen.add(source)
            try:
                agree(source, latex)
            except Exception as exc:  # noqa: BLE001 - any failure to read back is a finding
                print(f"{path}: {source!r} renders as {latex!r}, which does not read back as it: {exc}")
                return 1
            checked += 1
    claims = 0
    everything = set(texts([data.get("checks", []), data.get("ledger", [])]))
    corrections = (correction_parts(text) for text in everything)
    printed = {(parts.source, parts.latex) for parts in corrections if parts is not None}
    # the claim of a check's parameters, which its details table shows as a formula
    for source in set(claim_texts(data.get("checks", []))):
        latex = claim_latex(source)
        if latex is not None and not latex[1]:
            printed.add((source, latex[0]))
    for source, latex in sorted(printed):
        try:
            claim_readback.agree(source, latex)
        except Exception as exc:  # noqa: BLE001 - any failure to read back is a finding
            print(f"{path}: the claim {source!r} renders as {latex!r}, which does not read back as it: {exc}")
            return 1
        claims += 1
    print(f"{path}: every one of the {checked} distinct formulas rendered as math reads back as its source, "
          f"and so does every one of the {claims} claims and corrections printed from the claim language")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python scripts/roundtrip_report.py report.json")
    sys.exit(main(sys.argv[1]))
