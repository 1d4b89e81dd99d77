"""The ledger of the paper's displayed equations and inline relations (verify/paper): complete,
verbatim, and honest.

- every ``$$`` display of the vendored text has exactly one entry, in order, quoting it verbatim;
- every inline relation of a proof has exactly one entry, in order, quoting it verbatim;
- the vendored text is the project's seed (its SHA-256);
- every entry that names a check names one that exists; every entry that names none either
  gives a reason (definitions, citations, restatements, prose) or counts as missing;
- the coverage table counts each display and each relation once.
"""

from __future__ import annotations

import re

import pytest

from tests.pack_helpers import copy_builtin_data
from verify.checks import load_all
from verify.paper import ledger, pack, source


def test_every_display_has_one_entry_quoted_verbatim():
    text = source.paper_text()
    blocks = re.findall(r"\$\$(.+?)\$\$", text, re.S)
    entries = [e for e in ledger.entries() if e.what == "display"]
    assert len(entries) == len(blocks) == 229
    for entry, block in zip(entries, blocks, strict=True):
        assert entry.quote == block
        assert f"$${entry.quote}$$" in text


def test_every_inline_relation_of_a_proof_has_one_entry_quoted_verbatim():
    text = source.paper_text()
    entries = [e for e in ledger.entries() if e.what == "relation"]
    shown = source.relations()
    assert len(entries) == len(shown) == 198
    assert [e.id for e in entries] == [r.id for r in shown]
    for entry, relation in zip(entries, shown, strict=True):
        assert entry.quote == relation.latex and f"${entry.quote}$" in text
        assert entry.section == relation.section
    # in text order, each inside the proof it names
    lines = [r.line for r in shown]
    assert lines == sorted(lines) and all(r.proof_line <= r.line for r in shown)


def test_what_counts_as_an_inline_relation():
    assert source.states_relation(r"|h(0)| \geq \frac{1}{2}") and source.states_relation("i \\neq j")
    assert source.states_relation(r"\tau = O(k^{-1/2})") and source.states_relation(r"\gamma>0")
    assert not source.states_relation(r"\sum_{i=1}^k \lambda_i c_i")  # '=' in a subscript
    assert not source.states_relation(r"Y_t\mathbb{1}\{Y_t\leq T^\nu\}")  # an indicator's condition
    assert not source.states_relation(r"u \perp w_i") and not source.states_relation(r"c \in \{\pm 1\}^k")
    # proofs: none in §1-3; the proof of Theorem 13 starts inside a line (**Proof**)
    assert {r.section.split(".")[0] for r in source.relations()} <= set("CDEF")
    spans = [(source.paper_text().count("\n", 0, a) + 1, source.paper_text().count("\n", 0, b) + 1)
             for a, b in source.proofs()]
    assert len(spans) == 31 and (684, 692) in spans


def test_ids_are_section_and_ordinal():
    ids = [e.id for e in ledger.entries()]
    assert len(set(ids)) == len(ids)
    displays = [e.id for e in ledger.entries() if e.what == "display"]
    relations = [e.id for e in ledger.entries() if e.what == "relation"]
    assert displays[0] == "1.1-1"
    assert all(re.fullmatch(r"([0-9]+|[A-F])(\.[0-9]+)*-[0-9]+", i) for i in displays)
    assert relations[0] == "C.2-r1" and all(re.fullmatch(r"[A-F](\.[0-9]+)*-r[0-9]+", i) for i in relations)


def test_a_relation_claim_runs_as_its_own_check():
    assert ledger.claim_check_id("D.4-r3", "relation") == "relation-d.4-r3"
    assert ledger.claim_check_id("D.4-3") == "display-d.4-3"
    registry = load_all()
    for entry in ledger.entries():
        if entry.claim is not None:
            assert entry.decided_by == ledger.claim_check_id(entry.id, entry.what) in registry, entry.id


def test_named_checks_exist_and_reasons_only_where_computation_cannot_decide():
    registry = load_all()
    for entry in ledger.entries():
        if entry.check:
            assert entry.check in registry, entry.id
        if entry.reason:
            assert entry.kind in ("definition", "cited", "restatement", "prose"), entry.id


def test_coverage_counts_each_display_and_relation_once():
    verdicts = {e.id: ("holds", "exact") for e in ledger.entries()}
    rows = ledger.coverage(verdicts)
    assert sum(r["count"] for r in rows if r["what"] == "displays") == 229
    assert sum(r["count"] for r in rows if r["what"] == "relations") == 198
    for row in rows:
        decided = sum(row["decided"].values())
        rest = row["undecided"] + sum(row["not_decidable"].values()) + row["missing"]
        assert decided + rest == row["count"]
    table = ledger.coverage_table(verdicts)
    assert "| **all** | displays | 229 |" in table and "| **all** | relations | 198 |" in table
    assert "| **all** | statements | 162 |" in table and "| **all** | prose | 99 |" in table
    assert "| **all** | every kind | 688 |" in table


def _copied_pack(tmp_path, name: str, old: str, new: str):
    """A copy of the Dayı–Chen pack with ``old`` replaced by ``new`` (once) in its file ``name``
    (a path inside the pack), made the current pack until the test ends."""
    root = tmp_path / "pack"
    copy_builtin_data(root)
    path = root / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return pack.using(pack.load(root))


def test_a_changed_paper_is_refused(tmp_path):
    with _copied_pack(tmp_path, "dayi_chen_colt.txt", "tag{2}", "tag{3}"):
        with pytest.raises(pack.PackError, match="SHA-256"):
            source.paper_text()


def _broken_ledger(tmp_path, name: str, old: str, new: str):
    """The Dayı–Chen pack with ``old`` replaced by ``new`` (once) in its ledger file ``name``."""
    return _copied_pack(tmp_path, f"ledger.d/{name}", old, new)


def test_a_wrong_quote_is_refused(tmp_path):
    with _broken_ledger(tmp_path, "1-3.toml", "\\tag{2}", "\\tag{5}"):
        with pytest.raises(ledger.LedgerError, match="not the display as printed"):
            ledger.entries()


@pytest.mark.parametrize(("old", "new", "message"), [
    ("quote = '\\overline{\\xi} \\leq 1'", "quote = '\\overline{\\xi} \\leq 2'",
     "not the relation as printed"),
    ("id = 'C.2-r1'", "id = 'C.2-r9'", "one entry per relation"),
    ("[[relation]]\nid = 'C.2-r1'", "[[display]]\nid = 'C.2-r1'", "only \\[\\[relation\\]\\] entries"),
])
def test_a_wrong_relation_entry_is_refused(tmp_path, old, new, message):
    with _broken_ledger(tmp_path, "relations-A-C.toml", old, new):
        with pytest.raises(ledger.LedgerError, match=message):
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
def test_a_malformed_entry_is_refused_naming_it(tmp_path, old, new, message):
    if message == "not valid TOML":
        new = "[[display]\nid = '1.1-2'"
    with _broken_ledger(tmp_path, "1-3.toml", old, new):
        with pytest.raises(pack.PackError, match=message):
            ledger.entries()


def test_the_pack_corrects_the_citation_graph(tmp_path):
    from verify.paper import structure

    table = '[citations]\nadd = [["Theorem 19", "Claim 1"]]\nremove = [["Claim 7", "Lemma 31"]]\n\n[paper]'
    with _copied_pack(tmp_path, "pack.toml", "[paper]", table):
        assert "Claim 1" in structure.cites()["Theorem 19"]
        assert "Lemma 31" not in structure.cites()["Claim 7"]
        assert "Theorem 19" in structure.affected("Claim 1")


@pytest.mark.parametrize("table", ['[citations]\nadd = [["Claim 7"]]', '[citations]\nadd = [["Claim 7", "lemma"]]',
                                   '[citations]\nkeep = []'])
def test_a_malformed_citations_table_is_refused(tmp_path, table):
    root = tmp_path / "pack"
    copy_builtin_data(root)
    path = root / "pack.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("[paper]", table + "\n\n[paper]", 1), encoding="utf-8")
    with pytest.raises(pack.PackError, match=r"\[citations\]"):
        pack.load(root)
