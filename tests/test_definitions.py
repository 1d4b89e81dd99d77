"""Objects the paper defines twice (verify/paper/packs/dayi_chen/ledger.d/definitions.toml): linked, and compared.

The check of an object holds only when every pair of its definitions is proved equal, fails naming
the pair that disagrees (and which of the two agrees with the suite's own value), and is
inconclusive when a pair could not be decided.
"""

from __future__ import annotations

import pytest

from tests.pack_helpers import copy_builtin_data
from verify.checks import Context
from verify.checks.definitions import compare
from verify.paper import definitions, ledger, pack
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
    from verify.checks.core import check_id

    registry = load_all()
    known = {e.id for e in ledger.entries()}
    for obj in definitions.objects():
        assert all(d.entry in known for d in obj.definitions)
        assert check_id(f"definitions-{obj.name}") in registry
        for d in obj.definitions:
            assert obj.name in definitions.linked(d.entry)


@pytest.mark.parametrize(("text", "message"), [
    ("[[object]]\nname = 'x'\nreference = 'mu(1)'\n[[object.definition]]\nentry = '9.9-9'\nprinted = '1'\n"
     "[[object.definition]]\nentry = '3.1-3'\nprinted = '1'\n", "not a ledger entry"),
    ("[[object]]\nname = 'x'\nreference = 'mu(1)'\n[[object.definition]]\nentry = '3.1-3'\nprinted = '1'\n",
     "defined once"),
    ("[[object]]\nname = 'x'\n", "needs name, reference and definitions"),
    # issue #51: an object's name became a report heading, raw; every field's type is checked
    ("[[object]]\nname = '<img src=x onerror=alert(1)>'\nreference = 'mu(1)'\n", "must be letters, digits"),
    ("[[object]]\nname = 5\nreference = 'mu(1)'\n", "field 'name' must be text, not int"),
    ("[[object]]\nname = 'x'\nreference = ['mu(1)']\n", "field 'reference' must be text, not list"),
    ("object = 'x'\n", "must be an array of tables"),
    ("object = [1, 2]\n", "must be an array of tables"),
    ("[[object]]\nname = 'x'\nreference = 'mu(1)'\ndefinition = 'y'\n", "must be an array of tables"),
    ("[[object]]\nname = 'x'\nreference = 'mu(1)'\ndefinition = [1, 2]\n", "a definition has the fields"),
    ("[[object]]\nname = 'x'\nreference = 'mu(1)'\n[[object.definition]]\nentry = 3\nprinted = '1'\n"
     "[[object.definition]]\nentry = '3.1-3'\nprinted = '1'\n", "field 'entry' must be text"),
])
def test_a_malformed_object_is_refused(tmp_path, text, message):
    root = tmp_path / "pack"
    copy_builtin_data(root)
    (root / "ledger.d" / "definitions.toml").write_text(text, encoding="utf-8")
    with pack.using(pack.load(root)), pytest.raises(ledger.LedgerError, match=message):
        definitions.objects()


def test_the_same_formula_printed_twice_is_equal_without_a_claim(monkeypatch):
    import verify.checks.definitions as checks

    calls = []
    real = checks.claim

    def counting(text, **kw):
        calls.append(text)
        return real(text, **kw)

    monkeypatch.setattr(checks, "claim", counting)
    outcome = compare(_object("mu(1)**2", "mu(1) ** 2"), Context())
    assert outcome.verdict is Verdict.HOLDS
    assert outcome.numbers["pairs"] == {"3.1-3 vs D.1-7": "holds"}
    assert calls == ["mu(1)**2 == mu(1)**2", "mu(1) ** 2 == mu(1)**2"]  # only the two against the suite


def test_definitions_that_agree_but_miss_the_suites_value_fail():
    # the paper printing the same wrong formula twice must not hold
    outcome = compare(_object("1/3", "1/3"), Context())
    assert outcome.verdict is Verdict.FAILS and outcome.failure_kind is FailureKind.STEP
    assert "no pair of definitions of mu1 disagrees, but 3.1-3, D.1-7 disagree" in outcome.evidence
    assert outcome.counterexample is not None


def test_notes_are_read(tmp_path):
    root = tmp_path / "pack"
    copy_builtin_data(root)
    (root / "ledger.d" / "definitions.toml").write_text(
        "[[object]]\nname = 'x'\nreference = 'mu(1)'\nnote = 'why'\n"
        "[[object.definition]]\nentry = '3.1-3'\nprinted = '1'\nnote = 'read as'\n"
        "[[object.definition]]\nentry = 'D.1-9'\nprinted = '1'\n", encoding="utf-8")
    with pack.using(pack.load(root)):
        (obj,) = definitions.objects()
    assert obj.note == "why" and [d.note for d in obj.definitions] == ["read as", ""]


@pytest.mark.extended
def test_the_papers_known_misprints_are_found():
    """h: D.1-7's (1/(1 + xi^2))^p; the gradient: D.2-18 without -2; the loss: §2's unnormalised rows."""
    from verify.checks import load_all

    registry = load_all()
    h = registry["definitions-h"].function(Context())
    assert h.verdict is Verdict.FAILS and "in 3.1-3 and D.1-7 disagree" in h.evidence
    assert h.numbers["against_suite"] == {"3.1-3": "holds", "D.1-7": "fails", "D.1-8": "holds",
                                          "D.1-9": "holds"}
    gradient = registry["definitions-gradient"].function(Context())
    assert gradient.verdict is Verdict.FAILS and "in D.1-6 and D.2-18 disagree" in gradient.evidence
    assert gradient.numbers["against_suite"]["D.2-18"] == "fails"
    assert {v for e, v in gradient.numbers["against_suite"].items() if e != "D.2-18"} == {"holds"}
    loss = registry["definitions-loss"].function(Context())
    assert loss.verdict is Verdict.FAILS
    assert loss.numbers["against_suite"] == {"2-2": "fails", "D.1-3": "holds"}
