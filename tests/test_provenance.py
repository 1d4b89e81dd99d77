"""Provenance: the paper and version every report names, and each checked statement's number in
arXiv v1 (verify/paper/packs/dayi_chen/arxiv_numbers.toml), checked against both texts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from verify.checks import REGISTRY, load_all, resolve
from verify.checks.report import to_json, to_markdown
from verify.checks.runner import run_checks
from verify.paper.provenance import arxiv_label, arxiv_numbers, colt_label, paper
from verify.paper.source import paper_text

ARXIV_TEXT = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "000_83d15a9763fa9a30.txt"


def _heads(text: str, label: str) -> bool:
    """Whether ``label`` opens a line of ``text`` (a statement's heading)."""
    return re.search(rf"^{re.escape(label)}\b", text, re.MULTILINE) is not None


def test_every_numbered_statement_checked_has_an_arxiv_entry():
    load_all()
    labels = {colt_label(c.statement) for c in REGISTRY.values()} - {None}
    missing = sorted(labels - set(arxiv_numbers()))
    assert not missing, f"no arXiv v1 entry for {missing}"


def _tags(label: str) -> list[str]:
    return re.findall(r"\((\d+)\)", label)


def test_colt_labels_head_a_statement_of_the_colt_text():
    """A statement label opens a line of the text; an equation label's numbers occur there (as a
    tag, or as "(12)" where the extraction lost the tag)."""
    text = paper_text()
    for label in arxiv_numbers():
        if label.startswith("Eq"):
            for n in _tags(label):
                assert re.search(rf"\\tag{{{n}}}|\({n}\)", text), f"{label!r}: no equation ({n})"
        else:
            assert _heads(text, label), f"{label!r} heads no line of the COLT text"


@pytest.mark.skipif(not ARXIV_TEXT.exists(), reason="the arXiv text lives in ../shared/seeds, absent here")
def test_arxiv_labels_head_a_statement_of_the_arxiv_text():
    text = ARXIV_TEXT.read_text(encoding="utf-8")
    for number in arxiv_numbers().values():
        # v1's extraction lost its formulas, equation tags included: only statements are checked
        if number.arxiv not in ("none", "unsure") and not number.arxiv.startswith("Eq"):
            assert _heads(text, number.arxiv), f"{number.arxiv!r} ({number.colt}) heads no line of v1"
        assert number.evidence, f"{number.colt}: the entry says no words that matched"


def test_arxiv_label_only_where_the_numbers_differ():
    assert colt_label("Proposition 4 (gradient)") == "Proposition 4"
    assert colt_label("App. D.1 (overlaps)") is None and arxiv_label("App. D.1 (overlaps)") is None
    for label, number in arxiv_numbers().items():
        shown = arxiv_label(label)
        if number.arxiv == label:
            assert shown is None
        elif number.arxiv == "none":
            assert shown == "none in v1"
        else:
            assert shown == number.arxiv


def test_reports_name_the_paper_and_version():
    results = run_checks(resolve(["d1-parity", "lemma-31"]))
    doc = to_json(results, seed=0, full=False)
    assert doc["paper"]["arxiv_id"] == "2411.15385" and doc["paper"]["arxiv_version"] == "v1"
    assert "COLT 2025" in doc["paper"]["venue"]
    lemma = next(c for c in doc["checks"] if c["id"] == "lemma-31")
    assert lemma["section"] and lemma["arxiv_v1"] == arxiv_label("Lemma 31")
    md = to_markdown(results, seed=0, full=False)
    head = md.split("## Coverage")[0]
    assert paper()["title"] in head and "2411.15385v1" in head
