"""Errata a theorist can cite (issue 36): one evidence rule, one verdict per ledger entry, impact
from the paper's structure, corrections with content, and the report audit CI runs."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from verify.checks.core import Check
from verify.checks.ledger_claims import vacuous_correction
from verify.checks.ledger_rows import entry_outcome
from verify.checks.runner import Result
from verify.paper.ledger import ClaimSpec, entries
from verify.paper.structure import affected, canonical, supports
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


@pytest.mark.parametrize("entry_id, restated", [
    # the corrections these entries had before: alpha dV_k restated with its factors reordered
    ("E.3.3-r32", "(4*log(d*V)/(eps*dl*S))*d*V == 4*d*V*log(d*V)/(eps*dl*S)"),
    ("E.3.3-r42", "(4*log(d*V)/(eps*dl*S))*d*V == 4*d*V*log(d*V)/(dl*S*eps)"),
])
def test_a_reordered_product_is_not_a_correction(entry_id, restated):
    spec = _spec(entry_id)
    assert "identity" in (vacuous_correction(ClaimSpec(spec.text, spec.options, restated)) or "")
    assert vacuous_correction(spec) is None  # today's correction: the chain the proof needs


def test_a_correction_with_content_is_one():
    assert vacuous_correction(_spec("E.3.3-6")) is None


def test_the_printed_claim_again_is_not_a_correction():
    spec = _spec("E.3.3-6")
    same = ClaimSpec(spec.text, spec.options, spec.text)
    assert vacuous_correction(same) == "it is the printed claim again"


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
