"""The ledger of the paper's displayed equations (verify/paper): complete, verbatim, and honest.

- every ``$$`` display of the vendored text has exactly one entry, in order, quoting it verbatim;
- the vendored text is the project's seed (its SHA-256);
- every entry that names a check names one that exists; every entry that names none either
  gives a reason (definitions, citations, restatements, prose) or counts as missing;
- the coverage table counts each display once.
"""

from __future__ import annotations

import re

import pytest

from verify.checks import load_all
from verify.paper import ledger, source


def test_every_display_has_one_entry_quoted_verbatim():
    text = source.paper_text()
    blocks = re.findall(r"\$\$(.+?)\$\$", text, re.S)
    entries = ledger.entries()
    assert len(entries) == len(blocks) == 229
    for entry, block in zip(entries, blocks, strict=True):
        assert entry.quote == block
        assert f"$${entry.quote}$$" in text


def test_ids_are_section_and_ordinal():
    ids = [e.id for e in ledger.entries()]
    assert len(set(ids)) == len(ids)
    assert ids[0] == "1.1-1" and all(re.fullmatch(r"([0-9]+|[A-F])(\.[0-9]+)*-[0-9]+", i) for i in ids)


def test_named_checks_exist_and_reasons_only_where_computation_cannot_decide():
    registry = load_all()
    for entry in ledger.entries():
        if entry.check:
            assert entry.check in registry, entry.id
        if entry.reason:
            assert entry.kind in ("definition", "cited", "restatement", "prose"), entry.id


def test_coverage_counts_each_display_once():
    verdicts = {c: ("holds", "exact") for c in load_all()}
    rows = ledger.coverage(verdicts)
    assert sum(r["displays"] for r in rows) == 229
    for row in rows:
        decided = sum(row["decided"].values())
        rest = row["undecided"] + sum(row["not_decidable"].values()) + row["missing"]
        assert decided + rest == row["displays"]
    table = ledger.coverage_table(verdicts)
    assert "| **all** | 229 |" in table


def test_a_changed_paper_is_refused(monkeypatch, tmp_path):
    copy = tmp_path / "paper.txt"
    copy.write_text(source.SOURCE.read_text(encoding="utf-8").replace("tag{2}", "tag{3}"), encoding="utf-8")
    monkeypatch.setattr(source, "SOURCE", copy)
    source.paper_text.cache_clear()
    try:
        with pytest.raises(RuntimeError, match="SHA-256"):
            source.paper_text()
    finally:
        source.paper_text.cache_clear()


def _broken_ledger(monkeypatch, tmp_path, name: str, old: str, new: str) -> None:
    """A copy of the ledger with ``old`` replaced by ``new`` (once) in its file ``name``."""
    for file in ledger.LEDGER_FILES:
        text = (ledger.LEDGER / file).read_text(encoding="utf-8")
        (tmp_path / file).write_text(text.replace(old, new, 1) if file == name else text, encoding="utf-8")
    monkeypatch.setattr(ledger, "LEDGER", tmp_path)
    ledger.entries.cache_clear()


@pytest.fixture(autouse=True)
def _fresh_ledger():
    yield
    ledger.entries.cache_clear()


def test_a_wrong_quote_is_refused(monkeypatch, tmp_path):
    _broken_ledger(monkeypatch, tmp_path, "1-3.toml", "\\tag{2}", "\\tag{5}")
    with pytest.raises(ledger.LedgerError, match="not the display as printed"):
        ledger.entries()


@pytest.mark.parametrize(("old", "new", "message"), [
    ("reason = 'defines the base model", "claim = 'h(0) > 0'\nreason = 'defines the base model",
     "one of check, claim or reason"),
    ("reason = 'defines the base model", "fails_as = 'step'\nreason = 'defines the base model",
     "without a claim"),
    ("reason = 'defines the base model", "claimz = 'x'\nreason = 'defines the base model",
     "unknown field"),
    ("[[display]]\nid = '1.1-2'", "[[display]]\nid = '1.1-2'\n", "not valid TOML"),
])
def test_a_malformed_entry_is_refused_naming_it(monkeypatch, tmp_path, old, new, message):
    if message == "not valid TOML":
        new = "[[display]\nid = '1.1-2'"
    _broken_ledger(monkeypatch, tmp_path, "1-3.toml", old, new)
    with pytest.raises(ledger.LedgerError, match=message):
        ledger.entries()
