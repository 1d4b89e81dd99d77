"""report.json, report.md and the terminal lines for ``verify check``.

Every verdict is shown with the kind of evidence that decided it (:class:`~verify.verdict.Basis`)
and every ``fails`` with what it says about the paper (:class:`~verify.verdict.FailureKind`):
a reader sees at a glance which statements are false, which only have a wrong display or proof
step, and which are printed differently from what the text intends.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from verify.base.errors import clip
from verify.base.fingerprint import suite_identity
from verify.base.markdown import (
    code_block,
    code_span,
    in_table_cell,
    markdown_text,
    math_span,
    paper_lines,
    paper_text,
    plain_text,
)
from verify.checks.ledger_rows import IMPACT_ORDER, entry_verdicts, ledger_rows
from verify.checks.quotes import LEDGER_PREFIXES, is_ledger_check, paper_quote, reading
from verify.checks.runner import Result, basis_counts, counts, failure_counts
from verify.checks.show import code_tolerances
from verify.claims.printing import claim_latex, correction_parts
from verify.paper.latex import without_labels
from verify.paper.ledger import coverage_summary, coverage_table
from verify.paper.macros import expand
from verify.paper.pack import current
from verify.paper.provenance import arxiv_label, paper
from verify.paper.regime import assess
from verify.paper.structure import affected, first_numbered, supports
from verify.verdict import FailureKind, Impact
from verify.verdict.display import value_text

ORDER = {"fails": 0, "crashed": 1, "inconclusive": 2, "consistent": 3, "holds": 4, "cited": 5}

#: Headings of the report's errata groups, by impact, strongest first.
IMPACT_HEADINGS = {
    Impact.FALSE_STATEMENT: "False statements (a counterexample to the numbered statement)",
    Impact.GAP: "Gaps (a step fails and no verified correction restores the proof)",
    Impact.OUTSIDE_REGIME: "False statements outside the main regime (they hold where the main theorems use "
                           "them)",
    Impact.REPAIRED: "Repaired steps (a step fails; a verified correction restores the chain)",
    Impact.TYPO: "Typos (printed differently from what the text intends; the intended reading is verified)",
    Impact.BOUNDARY: "Boundary cases (fails only at a degenerate or excluded point)",
}

def impact_anchor(impact: str) -> str:
    """The anchor of an impact's group: letters, digits and hyphens only ("false statement,
    outside the main regime" -> "impact-false-statement-outside-the-main-regime"), so the link
    resolves in GitHub's Markdown and in report.html alike."""
    return "impact-" + re.sub(r"[^a-z0-9]+", "-", impact.lower()).strip("-")


#: Headings of the report's failure groups, in the order a reader needs them.
FAILURE_HEADINGS = {
    FailureKind.STATEMENT: "The statement is false",
    FailureKind.STEP: "A display or proof step is wrong (the statement stands or is not decided by it)",
    FailureKind.AS_PRINTED: "As printed vs as intended (the intended reading holds)",
}


def _record(r: Result) -> dict[str, Any]:
    """A check's report.json record, with its statement's arXiv v1 number where it differs."""
    return {**r.to_dict(), "arxiv_v1": arxiv_label(r.check.statement),
            "code_tolerances": code_tolerances(r.check)}


def to_json(results: list[Result], seed: int, full: bool) -> dict[str, Any]:
    records = [_record(r) for r in results]
    pack = current()
    # the pack as its rerun commands name it (`verify show` reads its macros); none for the built-in one
    return {"paper": paper(), "pack": None if pack.builtin else pack.given or str(pack.root),
            "suite": suite_identity(), "seed": seed, "full": full,
            "counts": counts(results), "failure_kinds": failure_counts(results),
            "evidence": basis_counts(results),
            "impacts": impact_counts(errata_rows(records)), "checks": records, "ledger": ledger_rows(results)}


def provenance_lines() -> list[str]:
    """report.md's opening: which paper and which version its numbers refer to."""
    # a pack's text is untrusted: escaped; the file names as they are (a path is no formula)
    about = {key: (plain_text if key in ("text", "source") else markdown_text)(value)
             for key, value in paper().items()}
    byline = ". ".join(about[key] for key in ("authors", "venue") if about[key])
    lines = [f"**{about['title']}** — {byline}.", "",
             f"- Checked text: {about['text']}."]
    if "source" in about:
        lines.append(f"- Extracted from: {about['source']}.")
    if "arxiv_id" in about:
        lines.append(f"- arXiv: {about['arxiv_id']}{about['arxiv_version']}, \"{about['arxiv_title']}\": "
                     f"{about['arxiv_note']}.")
    return [*lines, ""]


def ledger_place() -> str:
    """Where the current pack's ledger lives, as the reports name it."""
    pack = current()
    return "verify/paper/packs/dayi_chen/ledger.d/" if pack.builtin else f"{pack.shown(pack.ledger_dir)}/"


def _where(r: Result) -> str:
    """§ of the statement, and its arXiv v1 number where that differs."""
    arxiv = arxiv_label(r.check.statement)
    return f"§{r.check.section}" + (f"; arXiv v1: {arxiv}" if arxiv else "")


def _strict_json(value: Any) -> Any:
    """``value`` with every non-finite float written as text ("inf", "-inf", "nan"): JSON has no
    such numbers, and Python's ``Infinity`` would make report.json unreadable elsewhere."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {k: _strict_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_strict_json(v) for v in value]
    return value


def to_json_text(results: list[Result], seed: int, full: bool) -> str:
    return json.dumps(_strict_json(to_json(results, seed, full)), indent=2, sort_keys=True, default=str,
                      allow_nan=False) + "\n"


def _cell(text: str) -> str:
    return markdown_text(str(text), table_cell=True)


def _md(text: str) -> str:
    return markdown_text(str(text))


def correction_markdown(text: str, table_cell: bool = False) -> str:
    """A correction as Markdown: a claim the suite checked as a formula printed from its syntax
    tree (:mod:`verify.claims.printing`), with a key to the names printed upright; prose as text."""
    parts = correction_parts(str(text))
    if parts is None:
        return markdown_text(str(text), table_cell)
    key = (f" (upright: {', '.join(parts.upright)}, the entry's own variables, as in its claim)"
           if parts.upright else "")
    result = (markdown_text(parts.before) + math_span(parts.latex) + markdown_text(parts.after)
              + markdown_text(key))
    return in_table_cell(result) if table_cell else result


def count_lines(verdicts: dict[str, int], kinds: dict[str, int], evidence: dict[str, int]) -> list[str]:
    """Three lines: verdicts, kinds of failure, kinds of evidence (report.md and the README)."""
    return [
        "Verdicts: " + ", ".join(f"{n} {v}" for v, n in verdicts.items() if n) + ".",
        "Of the fails: " + ", ".join(f"{kinds.get(k.value, 0)} {k.value}" for k in FailureKind)
        + " (statement: the statement is false; step: a display or proof step is wrong; "
        "as-printed: printed differently from what the text intends).",
        "Decided by: " + ", ".join(f"{n} {b}" for b, n in evidence.items() if n) + ".",
    ]


def _supported(record: dict[str, Any], entry: str | None) -> str:
    """The numbered statement a failing row serves: its ledger entry's (:mod:`verify.paper.structure`),
    else the check's own statement when it is a numbered one, else the check's label."""
    if entry is not None:
        return supports()[entry]
    own = _ENTRY_CHECK.match(record["id"])
    if own:
        matches = [key for key in supports() if key.lower() == own.group(2)]
        if matches:
            return supports()[matches[0]]
    return first_numbered(record["statement"]) or record["statement"]


_ENTRY_CHECK = re.compile(r"^(display|relation)-(.+)$")


def errata_rows(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The errata of report.json's ``checks`` records, one row per failing part (a ledger entry a
    check decides) or per failing check without parts, sorted by impact (a false statement first)
    and then in the paper's order.  Each row names the statement it supports and, for a gap or a
    false statement, the numbered results it affects."""
    rows = []
    for record in records:
        failing = [p for p in record.get("parts") or [] if p["verdict"] == "fails"]
        whole = [(None, record)] if record["verdict"] == "fails" else []
        items = [(p["entry"], p) for p in failing] or whole
        for entry, item in items:
            supported = _supported(record, entry)
            impact = item.get("impact") or "gap"
            doubt = impact in DOUBT and supported.split(" ")[0] != supported
            affects = affected(supported) if doubt else []
            rows.append({"check": record["id"], "entry": entry, "statement": record["statement"],
                         "supports": supported, "impact": impact, "failure_kind": item.get("failure_kind"),
                         "basis": item.get("basis"), "evidence": item["evidence"],
                         "correction": item.get("correction"),
                         "correction_verified": item.get("correction_verified"),
                         "affects": affects, "regime": assess(affects, item.get("numbers") or {})})
    # a main theorem in doubt in its stated regime first, then by impact (verify.paper.regime)
    return sorted(rows, key=lambda row: (row["regime"]["rank"], IMPACT_ORDER.get(row["impact"], 9)))


#: The impacts that put the results built on the entry in doubt.
DOUBT = ("gap", "false statement", "false statement, outside the main regime")


def impact_counts(rows: list[dict[str, Any]]) -> dict[str, int]:
    """How many errata rows have each impact, in the errata's order."""
    return {impact: sum(1 for row in rows if row["impact"] == impact) for impact in IMPACT_ORDER}


#: Most characters of text one README errata row may show (issue #49: no cell holds a prover trace).
ROW_TEXT = 400


def errata_table(records: list[dict[str, Any]]) -> str:
    """The README's errata table (:func:`errata_rows`): one compact row per erratum, at most
    ROW_TEXT characters of text: its impact, the statement (and the main theorems it puts in
    doubt), one sentence of finding, and a link to the details in report.html."""
    rows = ["| impact | statement | finding | details |", "|---|---|---|---|"]
    for row in errata_rows(records):
        main = [label for label in row["regime"]["main"] if label != row["supports"]]
        statement = row["supports"] + (f" → {', '.join(main)}" if main else "")
        where = f"{row['check']}" + (f" ({row['entry']})" if row["entry"] else "")
        room = ROW_TEXT - len(row["impact"]) - len(statement) - len(where) - 10  # the cells' separators
        finding = clip(finding_sentence(row), max(60, room))
        rows.append(f"| {row['impact']} | {plain_text(statement, table_cell=True)} | "
                    f"{plain_text(finding, table_cell=True)} | [`{where}`](report.html#{row['check']}) |")
    return "\n".join(rows) + "\n"


_VALUES = re.compile(r"(?:at (?P<at>[^:]{1,90}): )?lhs = (?P<lhs>\S+) (?P<op>\S+) rhs = (?P<rhs>[^\s(]+)")


def _printed_values(evidence: str) -> str:
    """", where the printed left side is X against Y (at the point)", read off a claim's evidence
    (``fails at k=1: lhs = X > rhs = Y (…)``); "" when the evidence has no such pair."""
    found = _VALUES.search(evidence)
    if not found:
        return ""
    at = f" at {found['at']}" if found["at"] else ""
    return f" (printed: {found['lhs']} against {found['rhs']}{at})"


def finding_sentence(row: dict[str, Any]) -> str:
    """One sentence a referee would write about an erratum: what is wrong, what the correction
    does, and (for a fail that puts results in doubt) what it does in the main theorems' regime."""
    evidence = clip(row["evidence"], 170)
    impact = row["impact"]
    shown = _printed_values(row["evidence"]) or f": {clip(row['evidence'], 150)}"
    if impact == "typo":
        text = f"Printed differently from what the text intends{shown}; the intended reading is verified"
    elif impact == "repaired":
        text = f"A step fails as printed{shown}; the corrected step is verified"
    elif impact == "boundary":
        text = f"Fails only at a degenerate or excluded point: {evidence}"
    elif impact == "gap" and row.get("correction_verified"):
        text = f"The stated result does not follow: {evidence}; the verified correction changes it"
    elif impact == "gap":
        missing = "the correction is not verified" if row.get("correction") else "no correction is known"
        text = f"A step fails and {missing}: {evidence}"
    else:
        text = f"The statement is false: {evidence}"
    regime = row.get("regime", {}).get("text")
    if regime and impact in DOUBT:
        text += f"; {regime}"
    return text + ("." if not text.endswith(".") else "")


def _rerun(r: Result, seed: int) -> str:
    return f"{current().check_command} --only {r.check.id} --seed {seed}" + (" --full" if r.full else "")


def _link(r: Result) -> str:
    """The statement, linked to its details (the anchor is the check id)."""
    return f"[{_cell(r.statement)}](#{r.check.id})"


def _correction(o) -> str:
    verified = {True: " (verified)", False: " (NOT verified)", None: ""}[o.correction_verified]
    return f"{correction_markdown(o.correction)}{verified}"


def _errata_item(row: dict[str, Any], seed: int) -> list[str]:
    """One erratum in the summary: the statement it supports, check and entry, evidence,
    correction, what it affects, rerun."""
    entry = f", {row['entry']}" if row["entry"] else ""
    # a ledger entry's row is named by the line that fails (an align's label) beside what it supports
    named = (f", {_md(row['statement'])}" if row["check"].startswith(LEDGER_PREFIXES)
             and row["statement"] != row["supports"] else "")
    lines = [f"- {_md(row['supports'])}{named}: [`{row['check']}`](#{row['check']}){entry} "
             f"({row['failure_kind']}, {row['basis']}): {_md(row['evidence'])}"]
    if row["correction"]:
        verified = " (verified)" if row["correction_verified"] else " (NOT verified)"
        lines.append(f"  - **Correction:** {correction_markdown(row['correction'])}{verified}")
    else:
        lines.append("  - **Correction:** none verified")
    if len(row["affects"]) > 1:
        lines.append(f"  - **Affects:** {', '.join(row['affects'][1:])}")
    if row["regime"]["text"] and row["impact"] in DOUBT:
        lines.append(f"  - **Main theorems:** {_md(row['regime']['text'])}")
    rerun = f"{current().check_command} --only {row['check']} --seed {seed}"
    return lines + [f"  - **Rerun:** {code_span(rerun)}"]


def verdicts(results: list[Result]) -> dict[str, tuple[str, str | None]]:
    """check id -> (verdict, basis) of a run, for the ledger's coverage."""
    return {r.check.id: (r.verdict, str(r.outcome.basis) if r.outcome and r.outcome.basis else None)
            for r in results}


def to_markdown(results: list[Result], seed: int, full: bool) -> str:
    """report.md: a summary first (counts, the failing statements by kind, the coverage of the
    paper's displays and inline relations), then every check's table row and its details, each under an anchor
    named by its id (``report.md#lemma-31``, ``report.html#lemma-31``)."""
    run = f"Seed {seed}, {'full' if full else 'quick'} run."
    errata = errata_rows([_record(r) for r in results])
    verdicts = entry_verdicts(ledger_rows(results))
    crashed = [r for r in results if r.crashed]
    # one screen: what was run, what holds and fails, the errata by impact, the coverage, and where
    # each part of the page is (headings carry explicit anchors: report.html has no automatic ones)
    lines = ["# verify check report", "", *provenance_lines(), run, "", '<a id="summary"></a>', "",
             "## Summary", ""]
    lines += [f"- {text}" for text in count_lines(counts(results), failure_counts(results),
                                                   basis_counts(results))]
    main = [row for row in errata if row["regime"]["rank"] == 0]
    rest = [row for row in errata if row not in main]
    by_impact = [(impact, heading, [row for row in rest if row["impact"] == impact.value])
                 for impact, heading in IMPACT_HEADINGS.items()]
    totals = {impact: sum(row["impact"] == impact.value for row in errata) for impact in IMPACT_HEADINGS}
    links = ", ".join(f"[{n} {impact.value}](#{impact_anchor(impact.value)})"
                      for impact, n in totals.items() if n)
    in_regime = (f"; [{len(main)} put a main theorem in doubt in its stated regime](#main-regime)"
                 if main else "")
    lines.append(f"- Errata by impact: {links or 'none'}{in_regime}.")
    lines.append("- Coverage: " + coverage_summary(verdicts).split("\n\n")[0])
    lines += ["", "Contents: [errata](#errata) · " + ("[crashed](#crashed) · " if crashed else "")
              + "[coverage](#coverage) · [all checks](#all-checks) · [details of each check](#details)", ""]
    lines += ['<a id="errata"></a>', "", "## Errata: what fails, by impact", ""]
    if not errata:
        lines += ["None.", ""]
    if main:
        lines += ['<a id="main-regime"></a>', "", f"### In the main theorems' regime ({len(main)})", "",
                  "These put a main theorem in doubt where it is stated; the rest follow by impact.", ""]
        for row in main:
            lines += _errata_item(row, seed)
        lines.append("")
    for impact, heading, group in by_impact:
        if totals[impact]:
            # the anchor the summary links to, even when every row of the impact is listed above
            total = totals[impact]
            more = f"{len(group)} more" if len(group) < total else total
            shown = "all listed above" if not group else more
            lines += [f'<a id="{impact_anchor(impact.value)}"></a>', "", f"### {heading} ({shown})", ""]
            for row in group:
                lines += _errata_item(row, seed)
            lines.append("")
    if crashed:
        lines += ['<a id="crashed"></a>', "", "## Checks that crashed", ""]
        lines += [f"- [`{r.check.id}`](#{r.check.id}): {_md((r.error or '').strip().splitlines()[-1])}"
                  for r in crashed] + [""]
    lines += ['<a id="coverage"></a>', "", "## Coverage of the paper's displays and relations", "",
              "Each displayed equation of the paper, and each inline relation of its proofs, has a "
              f"ledger entry ({code_span(ledger_place())}): decided "
              "by a check of this run (holds, fails or consistent), not decided (its check was "
              "inconclusive, cited or not run), not decidable by computation (a definition, citation, "
              "restatement or prose), or missing (a computable relation not yet checked).", "",
              coverage_table(verdicts)]
    lines += ['<a id="all-checks"></a>', "", "## All checks", "",
              "| id | statement | where | verdict | evidence kind | evidence |", "|---|---|---|---|---|---|"]
    for r in sorted(results, key=lambda r: ORDER.get(r.verdict, 9)):
        ev = r.outcome.evidence if r.outcome else "crashed (see report.json)"
        basis = r.outcome.basis if r.outcome else "—"
        verdict = r.verdict + (f" ({r.outcome.failure_kind})" if r.outcome and r.outcome.failure_kind else "")
        lines.append(f"| [`{r.check.id}`](#{r.check.id}) | {_cell(r.statement)} | {_where(r)} "
                     f"| **{verdict}** | {basis} | {_cell(ev)} |")
    lines += ["", '<a id="details"></a>', "", "## Details", "",
              "In the evidence, *lhs* and *rhs* are the left and right sides of the relation as the "
              "check states it (the quoted display, or the claim of its ledger entry); a counterexample "
              "gives the point, then both sides' values there.", ""]
    for r in results:
        lines += _details(r, seed)
    return "\n".join(lines)


#: Rows of a counterexample or parameters table whose value is a command or claim-language text (a
#: claim, its quantifiers): a reader copies it, so it is shown verbatim as code, never through the
#: prose pass that draws formula spans as math (a rerun command once read ``verify claim 'K(rho) >=
#: $`\frac{4}{3 \cdot \pi} \cdot \rho`$'``).  A claim is drawn whole, from its syntax tree, where it prints.
_CODE_ROWS = frozenset({"rerun", "claim", "correction", "for"})


def _small_table(values: dict[str, Any]) -> list[str]:
    """A name/value table, indented into its list item: values as the terminal shows them
    (:func:`verify.verdict.display.value_text`), never a one-line JSON dump; a claim as the
    formula it is (when it has no names of the entry's own, which need the key); a command or
    claim-language text as code (:data:`_CODE_ROWS`)."""
    rows = ["  | name | value |", "  |---|---|"]
    for key, value in _flattened(values):
        printed = claim_latex(value) if key in ("claim", "correction") and isinstance(value, str) else None
        if printed and not printed[1]:
            shown = in_table_cell(math_span(printed[0]))
        elif key in _CODE_ROWS:
            shown = in_table_cell(code_span(value_text(value)))
        else:
            shown = _cell(value_text(value))
        rows.append(f"  | {_cell(key)} | {shown} |")
    return rows


def _flattened(values: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """(name, value) rows of a nested mapping: a nested key is shown as ``outer[inner]``."""
    rows = []
    for key, value in values.items():
        name = f"{prefix}[{key}]" if prefix else str(key)
        rows += _flattened(value, name) if isinstance(value, dict) and value else [(name, value)]
    return rows


def _quoted(check) -> list[str]:
    """The statement as the paper prints it, then the check's own reading of it, labelled; or the
    reading alone, labelled, where no passage of the text is located (:mod:`verify.checks.quotes`)."""
    quote = paper_quote(check)
    macros = current().macros()
    if quote is None:
        return [f"> The check's own reading (no passage of the text is located for it): "
                f"{paper_text(expand(without_labels(reading(check)), macros))}", ""]
    # an align's lines as a display block, within the block quote (verify.base.markdown.paper_lines)
    lines = [f"> {line}" if line else ">" for line in paper_lines(expand(without_labels(quote), macros))]
    lines.append("")
    if not is_ledger_check(check):  # a ledger check's reading is its entry's quote and claim
        lines += [f"The check's own reading: {paper_text(reading(check))}", ""]
    return lines


def _details(r: Result, seed: int) -> list[str]:
    """One check in full, under the anchor ``r.check.id``."""
    lines = [f'<a id="{r.check.id}"></a>', "",
             f"### {code_span(r.check.id)} — {_md(r.statement)} ({_md(_where(r))}): {r.verdict}", "",
             *_quoted(r.check)]
    if r.outcome is None:
        return lines + code_block((r.error or "").rstrip()) + [f"- Rerun: {code_span(_rerun(r, seed))}", ""]
    o = r.outcome
    verdict = o.verdict.value + (f" ({o.failure_kind}: {FAILURE_HEADINGS[o.failure_kind].lower()}; "
                                 f"impact: {o.impact})" if o.failure_kind else "")
    lines += [f"- Verdict: **{verdict}**; decided by: {o.basis}", f"- Method: {_md(r.check.method)}",
              f"- Evidence: {_md(o.evidence)}"]
    if o.scope:
        lines.append(f"- Scope: {_md(o.scope)}")
    if o.counterexample:
        lines += ["- Counterexample:", "", *_small_table(o.counterexample), ""]
    if o.correction:
        lines.append(f"- Correction: {_correction(o)}")
    if o.parameters:
        lines += ["- Parameters:", "", *_small_table(o.parameters), ""]
    if o.numbers:
        lines += ["- Numbers:", "", *_small_table(o.numbers), ""]
    lines += [f"- Note: {_md(n)}" for n in o.notes]
    for entry, part in o.parts.items():
        kind = f" ({part.failure_kind}; impact: {part.impact})" if part.failure_kind else ""
        lines.append(f"- Entry {entry}: **{part.verdict.value}**{kind}; {part.basis}: {_md(part.evidence)}")
        if part.correction:
            lines.append(f"  - Correction: {_correction(part)}")
    return lines + [f"- Rerun: {code_span(_rerun(r, seed))}", ""]


def line(r: Result, idw: int, width: int | None = 120) -> str:
    """One terminal line: id, verdict (with the kind of a fail), evidence kind, evidence; the
    evidence cut to fit ``width`` columns, or whole when ``width`` is None (a file, a CI log)."""
    if r.outcome is None:
        verdict, basis, ev = "crashed", "—", (r.error or "").strip().splitlines()[-1]
    else:
        o = r.outcome
        verdict = o.verdict.value + (f"/{o.failure_kind}" if o.failure_kind else "")
        basis, ev = str(o.basis), o.evidence
    room = len(ev) if width is None else max(20, width - idw - 40)
    return f"{r.check.id:<{idw}}  {verdict:<21} {basis:<15} {ev[:room - 1] + '…' if len(ev) > room else ev}"


def summary(results: list[Result]) -> str:
    """The closing lines of ``verify check``: counts of verdicts, failure kinds, evidence kinds."""
    failing = [r.check.id for r in results if r.verdict == "fails"]
    return "\n".join([f"{len(results)} checks.",
                      *count_lines(counts(results), failure_counts(results), basis_counts(results)),
                      f"Checks that fail: {', '.join(failing) or 'none'}."])
