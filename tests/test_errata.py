"""Errata a theorist can cite (issue 36): one evidence rule, one verdict per ledger entry, impact
from the paper's structure, corrections with content, and the report audit CI runs."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from verify.checks.core import Check
from verify.checks.ledger_claims import restatement, vacuous_correction
from verify.checks.ledger_rows import entry_outcome
from verify.checks.runner import Result
from verify.paper.ledger import ClaimSpec, entries
from verify.paper.structure import affected, canonical, cites, named_in, supports, titles
from verify.verdict import Basis, FailureKind, Impact, Outcome, Verdict, default_impact

ROOT = Path(__file__).resolve().parent.parent


def _finish(outcome: Outcome, method: str = "exact") -> Outcome:
    return Check("x", "Lemma 1", "1", method, lambda ctx: outcome).finish(outcome)


@pytest.mark.parametrize("basis", [Basis.STATISTICAL, Basis.NUMERICAL, Basis.HIGH_PRECISION])
def test_holds_on_evidence_that_proves_nothing_is_consistent(basis):
    assert _finish(Outcome(Verdict.HOLDS, "measured", basis=basis)).verdict is Verdict.CONSISTENT


def test_a_search_that_found_nothing_is_inconclusive():
    outcome = _finish(Outcome(Verdict.HOLDS, "worst ratio found = 0.3", basis=Basis.NUMERICAL), "search")
    assert outcome.verdict is Verdict.INCONCLUSIVE


@pytest.mark.parametrize("basis", [Basis.EXACT, Basis.CERTIFIED])
def test_exact_and_certified_evidence_can_hold(basis):
    assert _finish(Outcome(Verdict.HOLDS, "proved", basis=basis)).verdict is Verdict.HOLDS


def test_parts_get_the_same_rules_and_a_fail_gets_an_impact():
    part = Outcome(Verdict.HOLDS, "sampled", basis=Basis.STATISTICAL)
    fail = Outcome(Verdict.FAILS, "wrong", counterexample={"k": 1}, basis=Basis.EXACT,
                   failure_kind=FailureKind.STEP, correction="x", correction_verified=True)
    whole = _finish(Outcome(Verdict.FAILS, "wrong", counterexample={"k": 1}, basis=Basis.EXACT,
                            parts={"A": part, "B": fail}))
    assert part.verdict is Verdict.CONSISTENT
    assert fail.impact is Impact.REPAIRED and whole.impact is Impact.FALSE_STATEMENT


def test_default_impact():
    assert default_impact(FailureKind.STATEMENT, True) is Impact.FALSE_STATEMENT
    assert default_impact(FailureKind.STEP, False) is Impact.GAP
    assert default_impact(FailureKind.STEP, True) is Impact.REPAIRED
    assert default_impact(FailureKind.AS_PRINTED, True) is Impact.TYPO
    assert default_impact(FailureKind.AS_PRINTED, None) is Impact.GAP


def _result(outcome: Outcome) -> Result:
    return Result(Check("shared", "Lemma 1", "1", "exact", lambda ctx: outcome), 0, False, 0.0, outcome)


def test_a_shared_fail_is_never_inherited_but_an_own_part_is_used():
    entry = entries()[0]
    failing = Outcome(Verdict.FAILS, "another display is wrong", counterexample={"k": 1})
    verdict, outcome, how = entry_outcome(entry, _result(failing), sharing=3)
    assert verdict == "inconclusive" and outcome is None and "another" in how
    assert entry_outcome(entry, _result(failing), sharing=1)[0] == "fails"
    failing.parts = {entry.id: Outcome(Verdict.HOLDS, "this display is right", basis=Basis.EXACT)}
    assert entry_outcome(entry, _result(failing), sharing=3)[0] == "holds"
    holding = Outcome(Verdict.HOLDS, "all displays", basis=Basis.EXACT)
    assert entry_outcome(entry, _result(holding), sharing=3)[0] == "holds"


def test_the_structure_of_the_paper():
    where = supports()
    assert where["E.3.3-1"] == "Lemma 33"
    assert where["D.3.2-5"] == "Claim 4"
    assert where["D.4-9"] == "Claim 1"
    assert canonical("Theorem 32") == "Proposition 32" and canonical("Theorem 6") == "Lemma 6"
    assert "Theorem 16" in affected("Lemma 33")
    assert affected("§3.1") == ["§3.1"]


def _spec(entry_id: str) -> ClaimSpec:
    spec = next(e.claim for e in entries() if e.id == entry_id)
    assert spec is not None
    return spec


@pytest.mark.parametrize("correction", [
    # the printed left side rewritten, with nothing of the printed right side in it
    "eta**3*L2*Lu == (L2*eta)*(eta**2*Lu)",
])
def test_a_restated_side_is_not_a_correction(correction):
    spec = _spec("E.3.3-6")
    assert "restate one printed side" in (vacuous_correction(ClaimSpec(spec.text, spec.options, correction)) or "")


def test_one_side_written_twice_is_not_a_correction():
    spec = _spec("E.3.3-6")
    found = vacuous_correction(ClaimSpec(spec.text, spec.options, "eta**3*L2*Lu == eta**3*L2*Lu"))
    assert found == "it writes one side twice"


@pytest.mark.parametrize("entry_id", ["E.3.3-11", "E.1.1-24"])
def test_an_algebra_typo_correction_is_one(entry_id):
    # issue #49: the intended equation of an algebra step is an identity in its symbols, and it is
    # what the authors meant to print (E.3.3-11: the signs of two terms; E.1.1-24: Freedman's 2)
    assert vacuous_correction(_spec(entry_id)) is None


@pytest.mark.parametrize("entry_id", ["E.3.3-r32", "E.3.3-r42"])
def test_todays_corrections_stand(entry_id):
    assert vacuous_correction(_spec(entry_id)) is None


def test_a_correction_with_content_is_one():
    assert vacuous_correction(_spec("E.3.3-6")) is None


def test_the_printed_claim_again_is_not_a_correction():
    spec = _spec("E.3.3-6")
    same = ClaimSpec(spec.text, spec.options, spec.text)
    assert vacuous_correction(same) == "it is the printed claim again"
    mirrored = ClaimSpec(spec.text, spec.options, "eta**3*(Lu + P) >= eta**3*L2*Lu")
    assert vacuous_correction(mirrored) == "it is the printed claim again"


def _audit():
    path = ROOT / "scripts" / "audit_report.py"
    module_spec = importlib.util.spec_from_file_location("audit_report", path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


def test_the_report_audit_flags_each_rule():
    report = {"checks": [
        {"id": "a", "verdict": "holds", "basis": "statistical", "notes": []},
        {"id": "b", "verdict": "consistent", "basis": "statistical", "notes": ["a gap in the proof"]},
        {"id": "c", "verdict": "fails", "basis": "exact", "notes": [], "correction": None, "impact": None},
        {"id": "d", "verdict": "holds", "basis": "exact", "notes": [], "parts": [
            {"entry": "X", "verdict": "holds", "basis": "numerical", "notes": []}]},
        {"id": "e", "verdict": "holds", "basis": "certified", "notes": []}],
        "ledger": [{"id": "Y", "how": "f fails on another of the 2 entries it decides"}]}
    found = _audit().findings(report)
    assert any(f.startswith("a:") for f in found) and any(f.startswith("b:") for f in found)
    assert sum(f.startswith("c:") for f in found) == 2
    assert any(f.startswith("d[X]") for f in found) and any(f.startswith("ledger Y") for f in found)
    assert not any(f.startswith("e:") for f in found)


def test_citations_of_other_works_are_not_the_papers_own():
    # issue #49: Theorem 19's proof cites "(Abbe et al., 2023, Proposition 6)", not Lemma 6, and
    # "(O'Donnell, 2014, Theorem 9.23)" is not Remark 9
    assert "Theorem 19" not in affected("Claim 1")
    assert "Lemma 6" not in cites()["Theorem 19"]
    assert "Remark 9" not in cites().get("Claim 1", frozenset())


def test_named_results_and_ranges_are_citations():
    # Claim 7's proof uses "Freedman's inequality" (Lemma 31's name); Proposition 32's cites
    # "Claims 6 to 8"; the real chain is Lemma 31 -> Claim 7 -> Prop. 32 -> Thm 16 -> Thms 11-13, 19
    assert "Lemma 31" in cites()["Claim 7"]
    assert {"Claim 6", "Claim 7", "Claim 8"} <= cites()["Proposition 32"]
    chain = affected("Lemma 31")
    assert {"Claim 7", "Proposition 32", "Theorem 16", "Theorem 11", "Theorem 12", "Theorem 13",
            "Theorem 19"} <= set(chain)
    assert titles()["Lemma 31"] == "Freedman's inequality"


def test_named_in_reads_lists_ranges_and_skips_other_works():
    # (the paper numbers lemmas with theorems: its "Lemma 3" is canonically Theorem 3)
    assert named_in("by Lemmas 3 and 4, and Claims 6 to 8") == {canonical("Lemma 3"), canonical("Lemma 4"),
                                                                "Claim 6", "Claim 7", "Claim 8"}
    assert not {"Proposition 6", "Lemma 6"} & named_in("The bound in (Abbe et al., 2023, Proposition 6) states")
    assert not named_in("Theorem 2.1 of the invariance principle")
    assert "Lemma 6" not in named_in("Proposition 6 of Abbe et al. shows")


@pytest.mark.parametrize("entry_id", ["E.1.1-16", "E.1.1-18"])
def test_a_claim_that_holds_for_any_values_is_a_restatement(entry_id):
    # issue #49: with their bindings substituted, both sides are equal whatever the symbols are
    assert "holds for any values" in (restatement(_spec(entry_id)) or "")


@pytest.mark.parametrize("entry_id", ["E.3.3-6", "F.2-4", "D.5.2-8"])
def test_a_claim_about_the_model_is_not_a_restatement(entry_id):
    assert restatement(_spec(entry_id)) is None


def test_a_restatement_and_a_partial_scope_are_counted_apart():
    from verify.checks.ledger_rows import entry_verdicts

    rows = [{"id": "a", "verdict": "holds", "basis": "exact", "restatement": "it holds for any values"},
            {"id": "b", "verdict": "holds", "basis": "exact", "declared_scope": "proxy: degree 6"},
            {"id": "c", "verdict": "holds", "basis": "exact"}]
    assert entry_verdicts(rows) == {"a": ("holds (restatement)", "exact"), "b": ("holds (partial)", "exact"),
                                    "c": ("holds", "exact")}


def test_a_computable_relation_given_a_reason_counts_in_the_denominator():
    # issue #49: on a new note, "19 of 19 decided" was 19 of 29 once the computable relations given
    # a reason were counted
    from collections import Counter

    from verify.paper.ledger import Entry, _decided_share, _tally

    row = {"count": 0, "decided": Counter(), "apart": Counter(), "undecided": 0, "reasoned": Counter(),
           "not_decidable": Counter(), "missing": 0}
    notes = [Entry("1-1", "1", "a = b", "identity", check="c1"),
             Entry("1-2", "1", "a <= b", "inequality", reason="too hard for now"),
             Entry("1-3", "1", "x := 1", "definition", reason="a definition")]
    for entry in notes:
        _tally(row, entry, {"1-1": ("holds", "exact")})
    assert row["reasoned"] == Counter({"inequality": 1}) and row["not_decidable"] == Counter({"definition": 1})
    assert _decided_share([row]) == (1, 2)
