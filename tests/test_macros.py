r"""A note's own macros (\newcommand, \def, \DeclareMathOperator, \renewcommand) are read from its
source and expanded in the quotes a report prints, so none prints as an identifier (issue 50)."""

from __future__ import annotations

import time

import pytest

from verify.checks.core import Check
from verify.checks.html_report import to_html
from verify.checks.runner import Result
from verify.paper import pack
from verify.paper.macros import MAX_MACROS, expand, read_macros
from verify.paper.skeleton import init_pack
from verify.verdict import Outcome, Verdict

SOURCE = r"""
\newcommand{\E}{\mathbb{E}}
\newcommand\N{\mathcal{N}}
\newcommand{\ip}[2]{\langle #1, #2 \rangle}
\renewcommand{\vec}[1]{\mathbf{#1}}
\DeclareMathOperator{\erf}{erf}
\DeclareMathOperator*{\argmin}{arg\,min}
\def\gelu{\mathrm{GELU}}
\def\pair#1#2{(#1,#2)}
\newcommand{\opt}[2][x]{f_{#1}(#2)}
\newcommand{\Ev}{\E\vec}
"""


@pytest.mark.parametrize(("latex", "expanded"), [
    (r"\E[\ip{v_i}{v_j}] \sim \N(0,1)", r"\mathbb{E}[\langle v_i, v_j \rangle] \sim \mathcal{N}(0,1)"),
    (r"\erf(x) + \gelu x", r"\operatorname{erf}(x) + \mathrm{GELU} x"),
    (r"\argmin_x \vec v", r"\operatorname{arg\,min}_x \mathbf{v}"),
    (r"\pair ab + \opt{y} + \opt[z]{w}", r"(a,b) + f_{x}(y) + f_{z}(w)"),
    (r"\Ev{u}", r"\mathbb{E}\mathbf{u}"),  # nested: a macro whose body uses others
    (r"\Ex + \ip{v}", r"\Ex + \ip{v}"),  # another name, and too few arguments: left as written
])
def test_macros_of_the_source_are_expanded(latex, expanded):
    assert expand(latex, read_macros(SOURCE)) == expanded


def test_the_last_definition_wins_as_in_latex():
    macros = read_macros(r"\newcommand{\x}{a} \renewcommand{\x}{b}")
    assert expand(r"\x", macros) == "b"


@pytest.mark.parametrize("hostile", [
    r"\def\a{\a\a}",  # doubles on every pass
    r"\def\a{\a}",  # never ends
    r"\newcommand{\a}{\b\b\b\b}\newcommand{\b}{\c\c\c\c}\newcommand{\c}{\d\d\d\d}\newcommand{\d}{xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx}",
])
def test_an_expansion_past_its_bounds_leaves_the_quote_as_printed(hostile):
    start = time.process_time()
    assert expand(r"\a + 1", read_macros(hostile)) == r"\a + 1"
    assert time.process_time() - start < 5  # CPU seconds; bounded by the passes and the growth cap


def test_reading_is_bounded_and_never_runs_anything():
    many = "".join(rf"\newcommand{{\m{chr(97 + i % 26)}{i}}}{{x}}" for i in range(3 * MAX_MACROS))
    assert len(read_macros(many)) <= MAX_MACROS
    assert read_macros(r"\newcommand{\x}{" + "{" * 10_000) == {}  # unbalanced: no definition
    assert read_macros(r"\newcommand{\x}{\input{/etc/passwd}}")["x"].body == r"\input{/etc/passwd}"


NOTE = r"""\documentclass{article}
\newcommand{\E}{\mathbb{E}}
\newcommand{\ip}[2]{\langle #1, #2 \rangle}
\DeclareMathOperator{\erf}{erf}
\begin{document}
\section{Setting}
\begin{lemma}\label{lem:one}
For unit $v$ and $w$,
\begin{equation}\label{eq:ip}
\E[\ip{v}{w}] = \erf(0).
\end{equation}
\end{lemma}
\end{document}
"""


def test_a_report_of_a_latex_note_prints_no_macro_as_an_identifier(tmp_path):
    # lazy: the report module loads the checks' registry
    from verify.checks.report import _details

    tex = tmp_path / "note.tex"
    tex.write_text(NOTE, encoding="utf-8")
    directory, _, _ = init_pack(tex, tmp_path / "pack")
    with pack.using(pack.load(directory)):
        quote = r"Display (1-1), as printed: $\E[\ip{v}{w}] = \erf(0). \label{eq:ip}$"

        def function(ctx):
            return Outcome(Verdict.HOLDS, "planted")

        result = Result(Check("display-1-1", "display (1-1)", "1", "claim", function), 0, False, 0.0,
                        Outcome(Verdict.HOLDS, "planted"))
        result.check.function.__doc__ = quote
        markdown = "\n".join(_details(result, 0))
    assert r"\mathbb{E}" in markdown and r"\langle v, w \rangle" in markdown
    assert r"\operatorname{erf}" in markdown and "label" not in markdown.split("Rerun")[0]
    page = to_html(markdown)
    for macro in (r"\E", r"\ip", r"\erf"):
        assert macro + "[" not in page and macro + "(" not in page and macro + "{" not in page
    assert "<math" in page and ">erf<" in page


def test_a_labelled_display_is_named_by_its_label_with_its_ledger_id_beside():
    from verify.checks.ledger_claims import _statement
    from verify.paper.ledger import Entry

    labelled = Entry("2-5", "2", r"\int \erf(x) \, dx = 0 \label{ eq:erfquad }", "identity")
    assert _statement(labelled) == "display eq:erfquad (2-5)"
    assert _statement(Entry("2-6", "2", r"x = 1", "identity")) == "display (2-6)"


def test_a_hostile_macro_body_reaches_the_page_only_as_text():
    """A macro body from an untrusted .tex file (a dollar to leave the math span, a backtick, raw
    HTML) goes through the report's one escaping policy like any quote: no element it names."""
    import re

    macros = read_macros(r"\newcommand{\x}{$<script>alert(1)</script>$} "
                         r"\newcommand{\y}{`<img src=x onerror=alert(1)>`}")
    from verify.base.markdown import paper_text

    page = to_html("> " + paper_text(expand(r"as printed: $\x + \y = 1$", macros)))
    tags = re.findall(r"<[^>]*>", page)
    assert not [t for t in tags if re.match(r"<\s*(script|img)\b", t, re.I) or "onerror" in t.lower()]
