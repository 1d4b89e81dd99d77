"""An :class:`~verify.verdict.Outcome` as a notebook shows it: Markdown and HTML.

Jupyter calls ``Outcome._repr_html_`` (or ``_repr_markdown_``), which land here, so a check's
outcome (``run_check("lemma-31")``) and a claim's (``claim("...")``) display as a small table:
verdict, kind of failure, basis, scope, evidence, counterexample, correction, rerun command and
notes.  Every field is text the suite did not write itself in full (a claim's text, an ``expr:``
activation, a counterexample read back from JSON), so every field is escaped: ``<``, ``&``
and quotes for HTML, and additionally Markdown's punctuation, which would otherwise turn SymPy's
``a*b*c`` into italics or a ``|`` into a table cell.  Formulas stay as the text the suite
prints.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

#: What each kind of evidence proves (the README's table, one line each).
BASIS_MEANING = {
    "exact": "symbolic or exact-rational computation, no rounding anywhere: a proof of what was computed",
    "certified": "ball arithmetic (Arb) with rigorous error bounds: a proof on the instances and ranges "
                 "checked",
    "high-precision": "mpmath at a stated precision with error estimates, which are not bounds",
    "numerical": "double precision, no error bound: evidence, and a search that finds nothing is not a proof",
    "statistical": "Monte Carlo, sampling or fits: evidence at the stated confidence",
    "none": "nothing was computed that decides it",
}

#: What a ``fails`` says about the paper.
FAILURE_MEANING = {
    "statement": "the statement as stated is false",
    "step": "a display, definition or proof step is wrong; the statement stands or is not decided by it",
    "as-printed": "the statement as printed differs from what the text intends; the intended reading holds",
}

_VERDICT_COLOUR = {"holds": "#1a7f37", "consistent": "#1f6feb", "fails": "#cf222e",
                   "inconclusive": "#9a6700", "cited": "#6e7781"}
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]|#~$!])")


def value_text(value: Any) -> str:
    """A field's value as one line of text: strings as they are, anything else as compact JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, default=str, ensure_ascii=False)


def fields(outcome) -> list[tuple[str, str]]:
    """The rows a reader needs, in reading order, as (label, text); absent fields are left out.

    A claim's outcome carries its text in ``parameters["claim"]`` and its rerun command in the
    counterexample (``verify claim ... --for ...`` pinning the failing point)."""
    rows: list[tuple[str, str]] = []
    claim = (outcome.parameters or {}).get("claim")
    if claim is not None:
        rows.append(("claim", value_text(claim)))
    basis = None if outcome.basis is None else str(outcome.basis)
    if outcome.failure_kind is not None:
        kind = str(outcome.failure_kind)
        rows.append(("failure kind", f"{kind}: {FAILURE_MEANING.get(kind, '')}".rstrip(": ")))
    if basis is not None:
        rows.append(("basis", f"{basis}: {BASIS_MEANING.get(basis, '')}".rstrip(": ")))
    decided_by = (outcome.numbers or {}).get("decided_by")
    if decided_by is not None:
        rows.append(("decided by", f"the {value_text(decided_by)} step"))
    if outcome.scope:
        rows.append(("scope", outcome.scope))
    rows.append(("evidence", outcome.evidence))
    counterexample = dict(outcome.counterexample or {})
    rerun = counterexample.pop("rerun", None)
    if counterexample:
        rows.append(("counterexample",
                     ", ".join(f"{k} = {value_text(v)}" for k, v in counterexample.items())))
    if outcome.correction:
        verified = {True: " (verified)", False: " (NOT verified)"}.get(outcome.correction_verified, "")
        rows.append(("correction", outcome.correction + verified))
    if rerun is not None:
        rows.append(("rerun", value_text(rerun)))
    rows += [("note", note) for note in outcome.notes]
    return rows


def _headline(outcome) -> str:
    basis = "" if outcome.basis is None else f" ({outcome.basis})"
    kind = "" if outcome.failure_kind is None else f", {outcome.failure_kind}"
    return f"{outcome.verdict}{basis}{kind}"


def escape_markdown(text: str) -> str:
    """``text`` for Markdown: Markdown's punctuation backslash-escaped (``*``, ``_``, ``|``, ``$``, ...),
    then ``<``, ``>``, ``&`` and quotes as HTML entities, so a ``<b>`` shows as typed."""
    return html.escape(_MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(text.split())), quote=True)


def outcome_markdown(outcome) -> str:
    """The outcome as a Markdown list (``Outcome._repr_markdown_``).  The claim and the rerun
    command are escaped text, not code spans, so that they too carry no raw ``<``; rendered,
    they read exactly as typed."""
    lines = [f"**{escape_markdown(_headline(outcome))}**", ""]
    lines += [f"- **{label}:** {escape_markdown(text)}" for label, text in fields(outcome)]
    return "\n".join(lines) + "\n"


def outcome_html(outcome) -> str:
    """The outcome as an HTML table (``Outcome._repr_html_``); every field HTML-escaped."""
    colour = _VERDICT_COLOUR.get(str(outcome.verdict), "#000000")
    rows = [f'<tr><th style="text-align:left;vertical-align:top;padding-right:1em">{html.escape(label)}</th>'
            f'<td style="text-align:left">{_html_cell(label, text)}</td></tr>'
            for label, text in fields(outcome)]
    return (f'<div class="verify-outcome"><p><strong style="color:{colour}">'
            f"{html.escape(_headline(outcome))}</strong></p>"
            f"<table>{''.join(rows)}</table></div>")


def _html_cell(label: str, text: str) -> str:
    escaped = html.escape(text, quote=True)
    return f"<code>{escaped}</code>" if label in ("rerun", "claim") else escaped
