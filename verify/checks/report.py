"""report.json, report.md and the terminal table for ``verify check``."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from verify.checks.runner import Result, counts

ORDER = {"fails": 0, "crashed": 1, "inconclusive": 2, "consistent": 3, "holds": 4, "cited": 5}


def to_json(results: list[Result], seed: int, full: bool) -> dict[str, Any]:
    return {"paper": "Dayı & Chen, Low-rank fine-tuning lies between lazy training and feature learning",
            "seed": seed, "full": full, "counts": counts(results),
            "checks": [r.to_dict() for r in results]}


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _json_inline(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def errata_table(records: list[dict[str, Any]]) -> str:
    """Markdown table of the failing statements of report.json's ``checks`` records:
    number, check id, evidence, correction (the README's errata table)."""
    rows = ["| statement | check | evidence | correction |", "|---|---|---|---|"]
    for c in records:
        if c["verdict"] != "fails":
            continue
        corr = c.get("correction") or "—"
        if c.get("correction_verified"):
            corr += " (verified)"
        rows.append(f"| {c['statement']} | `{c['id']}` | {_cell(c['evidence'])} | {_cell(corr)} |")
    return "\n".join(rows) + "\n"


def to_markdown(results: list[Result], seed: int, full: bool) -> str:
    c = counts(results)
    lines = ["# verify check report", "",
             f"Seed {seed}, {'full' if full else 'quick'} run. "
             + ", ".join(f"{v}: {n}" for v, n in c.items() if n) + ".", "",
             "## Statements that fail", ""]
    failing = [r for r in results if r.verdict == "fails"]
    if not failing:
        lines += ["None.", ""]
    for r in failing:
        o = r.outcome
        assert o is not None
        lines += [f"### {r.check.statement} (`{r.check.id}`, §{r.check.section})", "",
                  f"> {r.check.quote}", "", f"- **Evidence:** {o.evidence}",
                  f"- **Counterexample:** `{_json_inline(o.counterexample)}`"]
        if o.correction:
            verified = {True: " — verified", False: " — NOT verified", None: ""}[o.correction_verified]
            lines.append(f"- **Correction:** {o.correction}{verified}")
        lines += [f"- **Rerun:** `verify check --only {r.check.id} --seed {seed}`", ""]
    crashed = [r for r in results if r.crashed]
    if crashed:
        lines += ["## Checks that crashed", ""]
        lines += [f"- `{r.check.id}`: {(r.error or '').strip().splitlines()[-1]}" for r in crashed] + [""]
    lines += ["## All checks", "", "| id | statement | § | method | verdict | evidence |",
              "|---|---|---|---|---|---|"]
    for r in sorted(results, key=lambda r: ORDER.get(r.verdict, 9)):
        ev = r.outcome.evidence if r.outcome else "crashed (see report.json)"
        lines.append(f"| `{r.check.id}` | {r.check.statement} | {r.check.section} | {r.check.method} "
                     f"| **{r.verdict}** | {_cell(ev)} |")
    lines += ["", "## Details", ""]
    for r in results:
        lines += [f"### `{r.check.id}` — {r.check.statement}: {r.verdict}", "", f"> {r.check.quote}", ""]
        if r.outcome is None:
            lines += ["```", (r.error or "").rstrip(), "```", ""]
            continue
        o = r.outcome
        lines += [f"- Method: {r.check.method}", f"- Evidence: {o.evidence}"]
        if o.parameters:
            lines.append(f"- Parameters: `{_json_inline(o.parameters)}`")
        if o.numbers:
            lines.append(f"- Numbers: `{_json_inline(o.numbers)}`")
        lines += [f"- Note: {n}" for n in o.notes] + [""]
    return "\n".join(lines)


def table(results: list[Result], width: int = 100) -> str:
    idw = max([len(r.check.id) for r in results] + [2])
    out = [f"{'id':<{idw}}  {'verdict':<12}  evidence"]
    for r in results:
        ev = r.outcome.evidence if r.outcome else (r.error or "").strip().splitlines()[-1]
        room = max(20, width - idw - 16)
        out.append(f"{r.check.id:<{idw}}  {r.verdict:<12}  {ev[:room - 1] + '…' if len(ev) > room else ev}")
    return "\n".join(out)


def write_atomic(path: Path, text: str) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
    os.replace(tmp, path)
