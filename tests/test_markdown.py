"""Formulas in the reports and the README render as math on GitHub, and nothing turns into
emphasis (GitHub's parser, cmark-gfm; the math through latex2mathml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.markdown_lint import math_spans, problems, render, table_problems, tables
from verify.base.markdown import code_span, formula_latex, markdown_text

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("lambda_max**8", r"$`\lambda_{\mathrm{max}}^{8}`$"),
        ("h = 2*xi**2/(k + xi**2).", r"h = $`\frac{2 \cdot \xi^{2}}{k + \xi^{2}}`$."),
        ("(a + b)**2 and c_hat*m", r"$`\left(a + b\right)^{2}`$ and $`\hat{c} \cdot m`$"),
        ("0.30*x", r"$`0.3 \cdot x`$"),  # the literal as Python reads it, no rational
        ("Let s* be the smallest s", r"Let s\* be the smallest s"),  # not a formula: escaped
        ("lambda*2", r"lambda\*2"),  # a Python keyword: not parsed, escaped
        ("x|y <b> $5 _u_", r"x\|y \<b> \$5 \_u\_"),
        ("keep `a*b` as code", "keep `a*b` as code"),
        ("results/regions-full.json and 1/k", "results/regions-full.json and 1/k"),
        # the paper's notation in prose: a - between words is not a formula's minus
        ("sum a_n g1^n - sum a_n g2^n", r"sum a\_n $`g_{1}^{n}`$ - sum a\_n $`g_{2}^{n}`$"),
        ("(1/(1 + xi^2/k))^p here", r"$`\left(\frac{1}{1 + \frac{\xi^{2}}{k}}\right)^{p}`$ here"),
    ],
)
def test_markdown_text(text, expected):
    assert markdown_text(text) == expected


def test_every_formula_renders_and_nothing_is_emphasis():
    text = "at m = 0.3: derived - printed = 4*D*k*mu_2**2*xi**2/(k + xi**2)**2 and s* is the index"
    out = markdown_text(text)
    assert not problems(out)
    assert problems(text), "the raw SymPy text is what GitHub turns into emphasis"
    (latex,) = math_spans(out)
    assert r"\mu_{2}^{2}" in latex and r"\left(k + \xi^{2}\right)^{2}" in latex
    assert "<em>" not in render(out) and "<strong>" not in render(out)


def test_formula_latex_refuses_what_is_not_a_formula():
    assert formula_latex("__import__('os')") is None
    assert formula_latex("a ^ b") == "a^{b}"  # the paper's ^ is a power
    assert formula_latex("x.real*2") is None


def test_code_span_holds_any_backticks():
    assert render(code_span("a`b")).count("<code>") == 1
    assert "a`b" in render(code_span("a`b"))


def test_the_report_renders_on_github():
    from verify.checks import load_all, resolve
    from verify.checks.report import to_markdown
    from verify.checks.runner import run_checks

    load_all()
    md = to_markdown(run_checks(resolve(["d1-h-display", "d1-parity", "remark-9"])), seed=0, full=False)
    assert not problems(md), problems(md)[:5]
    assert math_spans(md), "the report's formulas are math"


DOCUMENTS = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("path", DOCUMENTS)
def test_every_table_row_keeps_its_columns(path):
    """A `|` in a cell that is not escaped splits the row where GitHub reads it: the errata row of
    corollary-27-frobenius-lower lost its link, evidence and correction at ``||Q||`` (issue #39)."""
    text = (ROOT / path).read_text(encoding="utf-8")
    found = table_problems(text)
    assert not found, f"{path}: " + "; ".join(found[:5])
    if path == "README.md":
        assert len(tables(text)) >= 3


def test_the_reports_tables_keep_their_rows():
    from verify.checks import load_all, resolve
    from verify.checks.report import to_markdown
    from verify.checks.runner import run_checks

    load_all()
    # titles with ||Q||_F (Claim 3, Corollary 27) and a failing check with a correction
    md = to_markdown(run_checks(resolve(["claim-3-frobenius-lower", "corollary-27-frobenius-lower",
                                         "remark-9"])), seed=0, full=False)
    assert not table_problems(md), table_problems(md)[:5]
    assert any("frobenius" in " ".join(row) for _, _, rows in tables(md) for row in rows)


@pytest.mark.parametrize("path", DOCUMENTS)
def test_documents_render_on_github(path):
    found = problems((ROOT / path).read_text(encoding="utf-8"))
    assert not found, f"{path}: " + "; ".join(found[:5])


def test_a_quote_with_tex_outside_its_dollars_is_shown_verbatim():
    # issue #49: 78 of 200 quotes showed "^{l+1}" as half-converted text
    from verify.base.markdown import paper_text

    assert paper_text("Claim 1: the sum over $l$ of (ξ²/k)^{l+1} is ≥ 0") == \
        "`Claim 1: the sum over $l$ of (ξ²/k)^{l+1} is ≥ 0`"
    assert paper_text("Lemma 6: for $m h(0) \\geq 0$ we have") == "Lemma 6: for $`m h(0) \\geq 0`$ we have"


def test_an_align_quote_is_a_math_block_and_the_rest_stays_inline():
    from verify.base.markdown import aligned_display, paper_lines

    quote = (r"For $\sigma$: $$a &= b \label{eq:a}\\[2pt] &= c \nonumber \\ d &\le \begin{cases} 1 & x \\"
             r" 2 \end{cases} \notag \\ $$ and $$e = f$$.")
    assert paper_lines(quote) == [
        r"For $`\sigma`$:", "", "```math", r"\begin{aligned}", r"a &= b \\", r"&= c \\",
        r"d &\le \begin{cases} 1 & x \\", r"2 \end{cases}", r"\end{aligned}", "```", "",
        r"and $`e = f`$."]
    # a display of one line: its & and \\ belong to an environment, or to braces, of their own
    assert aligned_display(r"\begin{cases} 1 & x \\ 2 \end{cases}") is None
    assert aligned_display(r"\sum_{\substack{l \ge 0 \\ s \ge 1}} a_{l,s} = 1") is None
    assert paper_lines(r"$$a = b$$") == [r"$`a = b`$"]
    # TeX outside its dollars that no run covers: the whole quote verbatim, as paper_text shows it
    assert paper_lines(r"(ξ²/k)^{l+1} and $$a &= b$$") == [r"`(ξ²/k)^{l+1} and $$a &= b$$`"]
