"""Each check's statement is quoted from the vendored text as its own TeX (verify/checks/quotes.py);
the check's paraphrase is shown beside it, labelled as its own reading, or alone and labelled where
no passage is located."""

from __future__ import annotations

import pytest

from verify.base.markdown import paper_text
from verify.checks import load_all
from verify.checks.quotes import paper_quote, reading
from verify.paper.source import paper_text as vendored_text

CHECKS = load_all()
#: Checks with no passage of their own in the text (a figure's setting, a proof's choice, an
#: object defined twice and compared): their reading is printed alone, labelled.
#: (s3.2.2-binomial-sum and appendix-b-model, -threshold quote the prose relations they decide.)
UNLOCATED = {"appendix-b-correlation", "theorem-16-proof-time", "claim-7-moment-order", "lemma-33-proof",
             "definitions-t",
             "definitions-h", "definitions-gradient", "definitions-loss"}


def test_every_check_but_the_unlocated_quotes_the_text():
    assert {c.id for c in CHECKS.values() if paper_quote(c) is None} == UNLOCATED


@pytest.mark.parametrize("check_id", ["lemma-6", "proposition-4", "theorem-12", "claim-1", "eq-7-9",
                                      "d1-h-display", "display-c.2-3", "assumption-1"])
def test_the_quote_is_the_texts_own_words(check_id):
    quote = paper_quote(CHECKS[check_id])
    text = " ".join(vendored_text().split())
    for paragraph in quote.removesuffix(" …").split("\n"):
        bare = " ".join(paragraph.removeprefix("$$").removesuffix("$$").split())
        assert bare in text, paragraph[:80]


def test_a_statement_ends_where_its_discussion_begins():
    assert paper_quote(CHECKS["lemma-6"]).rstrip().endswith(r"\end{cases}$$")
    assert "The proof of this lower bound" not in paper_quote(CHECKS["lemma-6"])
    proposition = paper_quote(CHECKS["proposition-4"])
    assert "Define $h" in proposition and "Then at any" in proposition and "Notice that" not in proposition


def test_every_located_quote_is_drawn_as_math_not_as_a_code_span():
    for check in CHECKS.values():
        quote = paper_quote(check)
        if quote is not None:
            assert not paper_text(quote).startswith("`"), check.id


def test_the_reading_is_the_docstrings_first_paragraph():
    assert reading(CHECKS["lemma-6"]).startswith("Lemma 6 (Population gradient lower bounds")


@pytest.mark.parametrize("prose", [r"Let \hat{<img src=x onerror=alert(1)>} be",
                                   r"so x^{<script>alert(1)</script>} is",
                                   r"a \mathrm{`<img src=x onerror=alert(1)>`} b"])
def test_tex_drawn_from_prose_reaches_the_page_only_as_escaped_text(prose):
    # the one policy: paper_text's Markdown, then the page rebuilt from the safe_html whitelist
    from verify.checks.html_report import to_html

    page = to_html(f"> {paper_text(prose)}\n")
    assert "<img" not in page and "<script" not in page
