"""An Outcome displays itself in Jupyter (`_repr_markdown_`, `_repr_html_`), every field escaped."""

from __future__ import annotations

import html
from html.parser import HTMLParser

from verify.verdict import Basis, Outcome, Verdict

HOSTILE = "<script>alert(1)</script> a*b*c | x_1 & $y$ `z`"


def _failing() -> Outcome:
    return Outcome(Verdict.FAILS, f"lhs > rhs: {HOSTILE}", basis=Basis.CERTIFIED, failure_kind="statement",
                   counterexample={"k": 1, "m": "0", "label": HOSTILE,
                                   "rerun": "verify claim 'h(m) <= 1' --for 'm = 0' # `x`"},
                   parameters={"claim": f"h(m) <= 1 {HOSTILE}"}, correction=f"use {HOSTILE}",
                   correction_verified=True, notes=[f"note {HOSTILE}"])


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: set[str] = set()
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)

    def handle_data(self, data):
        self.text.append(data)


def test_html_escapes_every_field_and_shows_each():
    parser = _Tags()
    parser.feed(_failing()._repr_html_())
    assert parser.tags <= {"div", "p", "strong", "table", "tr", "th", "td", "code"}
    text = "".join(parser.text)
    assert text.count(HOSTILE) == 5  # evidence, claim, counterexample, correction, note: as typed
    for label in ("claim", "failure kind", "basis", "evidence", "counterexample", "correction", "rerun",
                  "note"):
        assert label in text
    assert "fails (certified), statement" in text and "(verified)" in text


def test_markdown_escapes_markdown_and_html():
    markdown = _failing()._repr_markdown_()
    assert "<script>" not in markdown and "&lt;script&gt;" in markdown
    assert "a\\*b\\*c \\| x\\_1 &amp; \\$y\\$ \\`z\\`" in markdown  # no italics, table cells or math
    assert "**rerun:** verify claim &#x27;h(m) &lt;= 1&#x27; --for &#x27;m = 0&#x27; \\# \\`x\\`" in markdown
    for label in ("claim", "failure kind", "basis", "evidence", "counterexample", "correction", "note"):
        assert f"**{label}:**" in markdown


def test_a_holding_outcome_shows_its_scope_and_no_failure_fields():
    outcome = Outcome(Verdict.HOLDS, "identity", basis=Basis.EXACT, scope="statement")
    shown = html.unescape(outcome._repr_html_())
    assert "holds (exact)" in shown and ">scope<" in shown and "statement" in shown
    assert "counterexample" not in shown and "correction" not in shown
