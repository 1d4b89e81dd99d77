"""Every formula the reports render as math means what its source means (issue #39).

The LaTeX that :func:`verify.base.markdown.markdown_text` writes for a formula span is read back
by an independent parser (SymPy's LaTeX parser, Lark backend) and compared with the span as the
whitelist parser reads it, at random points.  Names are matched through placeholders, since the
printer's upright names (``\\mathrm{max}``) are not in the LaTeX parser's grammar.  The same
test runs on random formulas (Hypothesis) and on every formula of a report.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.formula_readback import agree as _agree
from verify.base.markdown import formulas, markdown_text

_NAMES = ["x", "k", "m", "g1", "xi", "rho", "sigma", "lambda_max", "C_sigma", "q_max", "mu_1", "u_hat", "eta"]


def _formula(depth: int):
    leaf = st.one_of(st.sampled_from(_NAMES), st.integers(1, 9).map(str), st.sampled_from(["0.5", "0.30"]))
    if depth == 0:
        return leaf
    inner = _formula(depth - 1)
    return st.one_of(
        leaf,
        st.tuples(inner, st.sampled_from([" + ", " - ", "*", "/"]), inner).map(lambda t: f"({t[0]}{t[1]}{t[2]})"),
        st.tuples(inner, st.integers(2, 4)).map(lambda t: f"({t[0]})**{t[1]}"),
        # exp and Abs are printed too, but the reader's grammar does not take \exp after an
        # operator nor \left| nested in \left(: Abs is read back alone below, exp is not read back
        st.tuples(st.sampled_from(["sqrt", "log"]), inner).map(lambda t: f"{t[0]}({t[1]})"),
    )


@pytest.mark.parametrize("text", ["2*Abs(x - k)", "Abs(rho)*m", "Abs(x*k)/q_max"])
def test_named_functions_read_back(text):
    ((_, source, latex),) = formulas(text)
    _agree(source, latex)


@given(_formula(2))
def test_random_formulas_read_back_as_themselves(text):
    text = f"x*{text}"  # a span with a product (and a name) is one formula, however its terms are joined
    found = formulas(text)
    assert len(found) == 1 and found[0][1] == text, found  # the whole formula, never a piece
    _agree(text, found[0][2])


@pytest.mark.parametrize("text", [
    "Remark 15: mu_{l+1}(sigma)^2",  # the parentheses of the call were dropped
    "delta/(dk^2)",  # dk was one upright symbol
    "C_psigma*k",  # psigma is no name the printer knows
    "|int_g1^g1 sigma'|^p",  # int_{g1}^{g_1}
    "chat_j*2",
    "dl*Cc + Tt^2",  # the ledger's abbreviations
    "exponent within 0.5 of l* - 1 = 3",  # l-star minus one, not l*(-1)
])
def test_notation_the_printer_does_not_know_stays_text(text):
    assert formulas(text) == []
    assert "$`" not in markdown_text(text)


@pytest.mark.extended
def test_every_formula_of_a_report_reads_back_as_its_source():
    from verify.checks import load_all, resolve
    from verify.checks.runner import run_checks

    load_all()
    results = run_checks(resolve(["d1-h-display", "remark-9", "eq-14", "proposition-4", "lemma-6"]))
    texts = []
    for r in results:
        o = r.outcome
        texts += [o.evidence or "", o.correction or "", *(o.notes or [])]
    checked = 0
    for text in texts:
        for _, source, latex in formulas(text):
            _agree(source, latex)
            checked += 1
    assert checked >= 3


def test_a_paper_quote_keeps_its_tex():
    from verify.base.markdown import paper_text

    quote = r"as printed: $S_k = \frac{\gamma \lambda_{\min}^2 \mu_1(\sigma)^2}{1 + \xi^2/k}$ and a*b"
    md = paper_text(quote)
    assert r"$`S_k = \frac{\gamma \lambda_{\min}^2 \mu_1(\sigma)^2}{1 + \xi^2/k}`$" in md
    assert re.search(r"a\\\*b", md)  # prose escaped, not turned into math
