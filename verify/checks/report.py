"""report.json, report.md and the terminal lines for ``verify check``.

Every verdict is shown with the kind of evidence that decided it (:class:`~verify.verdict.Basis`)
and every ``fails`` with what it says about the paper (:class:`~verify.verdict.FailureKind`):
a reader sees at a glance which statements are false, which only have a wrong display or proof
step, and which are printed differently from what the text intends.
"""

from __future__ import annotations

import json
from typing import Any

from verify.base.markdown import code_span, markdown_text
from verify.checks.runner import Result, basis_counts, counts, failure_counts
from verify.paper.ledger import coverage_table
from verify.paper.provenance import PAPER, arxiv_label
from verify.verdict import FailureKind

ORDER = {"fails": 0, "crashed": 1, "inconclusive": 2, "consistent": 3, "holds": 4, "cited": 5}

#: Headings of the report's failure groups, in the order a reader needs them.
FAILURE_HEADINGS = {
    FailureKind.STATEMENT: "The statement is false",
    FailureKind.STEP: "A display or proof step is wrong (the statement stands or is not decided by it)",
    FailureKind.AS_PRINTED: "As printed vs as intended (the intended reading holds)",
}


def _record(r: Result) -> dict[str, Any]:
    """A check's report.json record, with its statement's arXiv v1 number where it differs."""
    return {**r.to_dict(), "arxiv_v1": arxiv_label(r.check.statement)}


def to_json(results: list[Result], seed: int, full: bool) -> dict[str, Any]:
    return {"paper": PAPER, "seed": seed, "full": full, "counts": counts(results),
            "failure_kinds": failure_counts(results), "evidence": basis_counts(results),
            "checks": [_record(r) for r in results]}


def provenance_lines() -> list[str]:
    """report.md's opening: which paper and which version its numbers refer to."""
    return [f"**{PAPER['title']}** — {PAPER['authors']}. {PAPER['venue']}.", "",
            f"- Checked text: {PAPER['text']}.",
            f"- arXiv: {PAPER['arxiv_id']}{PAPER['arxiv_version']}, \"{PAPER['arxiv_title']}\": "
            f"{PAPER['arxiv_note']}.", ""]


def _where(r: Result) -> str:
    """§ of the statement, and its arXiv v1 number where that differs."""
    arxiv = arxiv_label(r.check.statement)
    return f"§{r.check.section}" + (f"; arXiv v1: {arxiv}" if arxiv else "")


def to_json_text(results: list[Result], seed: int, full: bool) -> str:
    return json.dumps(to_json(results, seed, full), indent=2, sort_keys=True, default=str) + "\n"


def _cell(text: str) -> str:
    return markdown_text(str(text), table_cell=True)


def _md(text: str) -> str:
    return markdown_text(str(text))


def _json_inline(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def count_lines(verdicts: dict[str, int], kinds: dict[str, int], evidence: dict[str, int]) -> list[str]:
    """Three lines: verdicts, kinds of failure, kinds of evidence (report.md and the README)."""
    return [
        "Verdicts: " + ", ".join(f"{n} {v}" for v, n in verdicts.items() if n) + ".",
        "Of the fails: " + ", ".join(f"{kinds.get(k.value, 0)} {k.value}" for k in FailureKind)
        + " (statement: the statement is false; step: a display or proof step is wrong; "
        "as-printed: printed differently from what the text intends).",
        "Decided by: " + ", ".join(f"{n} {b}" for b, n in evidence.items() if n) + ".",
    ]


def errata_table(records: list[dict[str, Any]]) -> str:
    """Markdown table of the failing statements of report.json's ``checks`` records:
    number, check id (linked to its entry in report.html), kind of failure, evidence,
    correction (the README's errata table)."""
    rows = ["| statement | check | kind | evidence | correction |", "|---|---|---|---|---|"]
    rank = {k.value: i for i, k in enumerate(FailureKind)}
    failing = [c for c in records if c["verdict"] == "fails"]
    for c in sorted(failing, key=lambda c: rank.get(c.get("failure_kind") or "", 9)):
        corr = c.get("correction") or "—"
        if c.get("correction_verified"):
            corr += " (verified)"
        link = f"[`{c['id']}`](report.html#{c['id']})"
        rows.append(f"| {c['statement']} | {link} | {c.get('failure_kind')} ({c.get('basis')}) "
                    f"| {_cell(c['evidence'])} | {_cell(corr)} |")
    return "\n".join(rows) + "\n"


def _rerun(r: Result, seed: int) -> str:
    return f"verify check --only {r.check.id} --seed {seed}" + (" --full" if r.full else "")


def _link(r: Result) -> str:
    """The statement, linked to its details (the anchor is the check id)."""
    return f"[{r.check.statement}](#{r.check.id})"


def _correction(o) -> str:
    verified = {True: " (verified)", False: " (NOT verified)", None: ""}[o.correction_verified]
    return f"{_md(o.correction)}{verified}"


def _failure_item(r: Result, seed: int) -> list[str]:
    """One failing statement in the summary: where, evidence, correction, rerun."""
    o = r.outcome
    assert o is not None
    lines = [f"- {_link(r)} (`{r.check.id}`, {_where(r)}; {o.basis}): {_md(o.evidence)}"]
    if o.correction:
        lines.append(f"  - **Correction:** {_correction(o)}")
    return lines + [f"  - **Rerun:** `{_rerun(r, seed)}`"]


def verdicts(results: list[Result]) -> dict[str, tuple[str, str | None]]:
    """check id -> (verdict, basis) of a run, for the ledger's coverage."""
    return {r.check.id: (r.verdict, str(r.outcome.basis) if r.outcome and r.outcome.basis else None)
            for r in results}


def to_markdown(results: list[Result], seed: int, full: bool) -> str:
    """report.md: a summary first (counts, the failing statements by kind, the coverage of the
    paper's displays and inline relations), then every check's table row and its details, each under an anchor
    named by its id (``report.md#lemma-31``, ``report.html#lemma-31``)."""
    run = f"Seed {seed}, {'full' if full else 'quick'} run."
    lines = ["# verify check report", "", *provenance_lines(), run, ""]
    lines += [f"- {text}" for text in count_lines(counts(results), failure_counts(results),
                                                   basis_counts(results))]
    lines += ["", "## Statements that fail", ""]
    failing = [r for r in results if r.verdict == "fails"]
    if not failing:
        lines += ["None.", ""]
    for kind, heading in FAILURE_HEADINGS.items():
        group = [r for r in failing if r.outcome is not None and r.outcome.failure_kind is kind]
        if group:
            lines += [f"### {heading} ({len(group)})", ""]
            for r in group:
                lines += _failure_item(r, seed)
            lines.append("")
    crashed = [r for r in results if r.crashed]
    if crashed:
        lines += ["## Checks that crashed", ""]
        lines += [f"- [`{r.check.id}`](#{r.check.id}): {_md((r.error or '').strip().splitlines()[-1])}"
                  for r in crashed] + [""]
    lines += ["## Coverage of the paper's displays and relations", "",
              "Each displayed equation of the paper, and each inline relation of its proofs, has a "
              "ledger entry (verify/paper/ledger.d/): decided "
              "by a check of this run (holds, fails or consistent), not decided (its check was "
              "inconclusive, cited or not run), not decidable by computation (a definition, citation, "
              "restatement or prose), or missing (a computable relation not yet checked).", "",
              coverage_table(verdicts(results))]
    lines += ["## All checks", "", "| id | statement | where | verdict | evidence kind | evidence |",
              "|---|---|---|---|---|---|"]
    for r in sorted(results, key=lambda r: ORDER.get(r.verdict, 9)):
        ev = r.outcome.evidence if r.outcome else "crashed (see report.json)"
        basis = r.outcome.basis if r.outcome else "—"
        verdict = r.verdict + (f" ({r.outcome.failure_kind})" if r.outcome and r.outcome.failure_kind else "")
        lines.append(f"| [`{r.check.id}`](#{r.check.id}) | {r.check.statement} | {_where(r)} | **{verdict}** "
                     f"| {basis} | {_cell(ev)} |")
    lines += ["", "## Details", ""]
    for r in results:
        lines += _details(r, seed)
    return "\n".join(lines)


def _details(r: Result, seed: int) -> list[str]:
    """One check in full, under the anchor ``r.check.id``."""
    lines = [f'<a id="{r.check.id}"></a>', "",
             f"### `{r.check.id}` — {r.check.statement} ({_where(r)}): {r.verdict}", "",
             f"> {_md(r.check.quote)}", ""]
    if r.outcome is None:
        return lines + ["```", (r.error or "").rstrip(), "```", f"- Rerun: `{_rerun(r, seed)}`", ""]
    o = r.outcome
    verdict = o.verdict.value + (f" ({o.failure_kind}: {FAILURE_HEADINGS[o.failure_kind].lower()})"
                                 if o.failure_kind else "")
    lines += [f"- Verdict: **{verdict}**; decided by: {o.basis}", f"- Method: {_md(r.check.method)}",
              f"- Evidence: {_md(o.evidence)}"]
    if o.scope:
        lines.append(f"- Scope: {_md(o.scope)}")
    if o.counterexample:
        lines.append(f"- Counterexample: {code_span(_json_inline(o.counterexample))}")
    if o.correction:
        lines.append(f"- Correction: {_correction(o)}")
    if o.parameters:
        lines.append(f"- Parameters: {code_span(_json_inline(o.parameters))}")
    if o.numbers:
        lines.append(f"- Numbers: {code_span(_json_inline(o.numbers))}")
    lines += [f"- Note: {_md(n)}" for n in o.notes]
    return lines + [f"- Rerun: `{_rerun(r, seed)}`", ""]


def line(r: Result, idw: int, width: int = 120) -> str:
    """One terminal line: id, verdict (with the kind of a fail), evidence kind, evidence."""
    if r.outcome is None:
        verdict, basis, ev = "crashed", "—", (r.error or "").strip().splitlines()[-1]
    else:
        o = r.outcome
        verdict = o.verdict.value + (f"/{o.failure_kind}" if o.failure_kind else "")
        basis, ev = str(o.basis), o.evidence
    room = max(20, width - idw - 40)
    return f"{r.check.id:<{idw}}  {verdict:<21} {basis:<15} {ev[:room - 1] + '…' if len(ev) > room else ev}"


def summary(results: list[Result]) -> str:
    """The closing lines of ``verify check``: counts of verdicts, failure kinds, evidence kinds."""
    failing = [r.check.id for r in results if r.verdict == "fails"]
    return "\n".join([f"{len(results)} checks.",
                      *count_lines(counts(results), failure_counts(results), basis_counts(results)),
                      f"Statements that fail: {', '.join(failing) or 'none'}."])
