"""Objects the paper defines twice (verify/paper/ledger.d/definitions.toml): linked, and compared.

The check of an object holds only when every pair of its definitions is proved equal, fails naming
the pair that disagrees (and which of the two agrees with the suite's own value), and is
inconclusive when a pair could not be decided.
"""

from __future__ import annotations

import pytest

from verify.checks import Context
from verify.checks.definitions import compare
from verify.paper import definitions, ledger
from verify.paper.definitions import DefinedObject, Definition
from verify.verdict import FailureKind, Verdict

RELU = (("activation", "relu"),)


def _object(*printed: str, reference: str = "mu(1)**2") -> DefinedObject:
    entries = ("3.1-3", "D.1-7", "D.1-9")
    return DefinedObject("mu1", reference, RELU,
                         tuple(Definition(e, p) for e, p in zip(entries, printed, strict=False)))


def test_definitions_that_agree_hold():
    outcome = compare(_object("mu(1)**2", "1/4"), Context())
    assert outcome.verdict is Verdict.HOLDS
    assert outcome.numbers["against_suite"] == {"3.1-3": "holds", "D.1-7": "holds"}


def test_definitions_that_disagree_fail_naming_the_pair_and_the_right_one():
    outcome = compare(_object("1/4", "1/4", "1/3"), Context())
    assert outcome.verdict is Verdict.FAILS and outcome.failure_kind is FailureKind.STEP
    assert "D.1-7 and D.1-9 disagree" in outcome.evidence
    assert "the suite agrees with D.1-7" in outcome.evidence
    assert outcome.numbers["pairs"] == {"3.1-3 vs D.1-7": "holds", "D.1-7 vs D.1-9": "fails"}


def test_the_ledgers_objects_link_existing_entries_and_are_checks():
    from verify.checks import load_all

    registry = load_all()
    known = {e.id for e in ledger.entries()}
    for obj in definitions.objects():
        assert all(d.entry in known for d in obj.definitions)
        assert f"definitions-{obj.name}" in registry
        for d in obj.definitions:
            assert obj.name in definitions.linked(d.entry)


@pytest.mark.parametrize(("text", "message"), [
    ("[[object]]\nname = 'x'\nreference = 'mu(1)'\n[[object.definition]]\nentry = '9.9-9'\nprinted = '1'\n"
     "[[object.definition]]\nentry = '3.1-3'\nprinted = '1'\n", "not a ledger entry"),
    ("[[object]]\nname = 'x'\nreference = 'mu(1)'\n[[object.definition]]\nentry = '3.1-3'\nprinted = '1'\n",
     "defined once"),
    ("[[object]]\nname = 'x'\n", "needs name, reference and definitions"),
])
def test_a_malformed_object_is_refused(monkeypatch, tmp_path, text, message):
    path = tmp_path / "definitions.toml"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(definitions, "DEFINITIONS", path)
    definitions.objects.cache_clear()
    try:
        with pytest.raises(ledger.LedgerError, match=message):
            definitions.objects()
    finally:
        definitions.objects.cache_clear()
