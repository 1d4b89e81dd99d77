"""The errata's own checks (issue 36): per-entry parts of shared checks, the failing steps that
notes used to hide, the boundary and typo impacts, and the referee's precision corpus."""

from __future__ import annotations

from fractions import Fraction

import pytest

from verify.checks import load_all, resolve
from verify.checks import run_check as run
from verify.checks.ledger_claims import run_entry_claim
from verify.checks.ledger_rows import ledger_rows
from verify.checks.runner import run_checks
from verify.paper.ledger import entries
from verify.paper.packs.dayi_chen.checks import app_d31_matrix_steps as d31
from verify.paper.packs.dayi_chen.checks import app_e_dynamics_proofs as e
from verify.paper.precision import confusion, load
from verify.verdict import FailureKind, Impact, Verdict


def test_lemma_33_proof_gap_is_a_fail_and_a_proof_of_the_stated_slope_holds(monkeypatch):
    outcome = run("lemma-33-proof")
    assert outcome.verdict is Verdict.FAILS and outcome.impact is Impact.GAP
    assert outcome.basis.value == "exact"
    assert outcome.correction is None and outcome.notes  # says why no correction is given
    monkeypatch.setattr(e, "claimed_lemma33_slope", lambda s: s / 4)
    assert run("lemma-33-proof").verdict is Verdict.HOLDS


def test_lemma_33_parts_are_its_own_entries():
    outcome = run("lemma-33")
    assert set(outcome.parts) == {"E.3.3-1", "E.3.3-15", "E.3.3-r14"}
    assert all(part.verdict is not Verdict.FAILS for part in outcome.parts.values())


def test_theorem_16_proof_time_fails_only_at_small_dv_as_a_boundary():
    outcome = run("theorem-16-proof-time")
    assert outcome.verdict is Verdict.FAILS and outcome.impact is Impact.BOUNDARY
    assert outcome.counterexample["dV_k"] < 8  # below e^2, the exact threshold's largest value


def test_theorem_16_constants_decides_its_two_entries_on_their_own():
    outcome = run("theorem-16-constants")
    assert {key: part.verdict for key, part in outcome.parts.items()} == {
        "E.3.3-r28": Verdict.HOLDS, "E.3.3-r30": Verdict.HOLDS}


def test_claim_7_moment_order_fails_as_printed_and_d_two_holds(monkeypatch):
    outcome = run("claim-7-moment-order")
    assert outcome.verdict is Verdict.FAILS and outcome.failure_kind is FailureKind.AS_PRINTED
    assert outcome.impact is Impact.TYPO and outcome.correction_verified
    monkeypatch.setattr(e, "claimed_claim_7_moment_order", lambda: 2)
    assert run("claim-7-moment-order").verdict is Verdict.HOLDS


def test_the_index_slip_of_corollary_27_fails_exactly(monkeypatch):
    outcome = run("corollary-27-diagonal-index")
    assert outcome.verdict is Verdict.FAILS and outcome.basis.value == "exact"
    assert outcome.impact is Impact.TYPO and outcome.counterexample["printed_sum"] == "6"
    monkeypatch.setattr(d31, "claimed_c27_diagonal_index_sum", lambda s, p: Fraction(3))
    assert run("corollary-27-diagonal-index").verdict is Verdict.INCONCLUSIVE  # one matrix proves nothing


def test_a_typo_in_one_display_leaves_the_other_display_of_its_check_correct():
    load_all()
    results = run_checks(resolve(["theorem-13", "claim-2-example", "e1-update-display"]))
    rows = {row["id"]: row for row in ledger_rows(results)}
    assert rows["A.2.2-1"]["verdict"] == "holds" and rows["A.2.2-2"]["verdict"] == "fails"
    assert rows["A.2.2-2"]["impact"] == "typo"
    assert rows["C.3-1"]["verdict"] == "holds"  # the matrix is right; the text's c_i is the misprint
    assert rows["E.1-2"]["verdict"] != "fails" and rows["E.1-3"]["impact"] == "typo"
    assert rows["D.4-5"]["verdict"] == "not run"


def test_eq_6_measures_its_summed_display_on_its_own():
    outcome = run("eq-6")
    assert outcome.parts["3.1-6"].evidence.startswith("Eq. (6) summed")
    assert all(part.verdict is Verdict.FAILS for part in outcome.parts.values())


def test_a_boundary_entry_is_reported_as_a_boundary():
    spec = next(x.claim for x in entries() if x.id == "E.3.3-10")
    outcome = run_entry_claim(spec)
    assert outcome.verdict is Verdict.FAILS and outcome.impact is Impact.BOUNDARY


def test_the_precision_corpus_is_independent_data_of_at_least_80_ledger_entries():
    truth = load()
    ids = {x.id for x in entries()}
    assert len(truth) >= 80 and set(truth) <= ids
    assert all(note.get("why") for note in truth.values())


def test_the_confusion_matrix_counts_false_alarms_and_understatements():
    truth = {"A": {"correct": True}, "B": {"correct": False, "error": "false-statement"},
             "C": {"correct": False, "error": "typo"}}
    rows = [{"id": "A", "verdict": "fails", "impact": "typo"},
            {"id": "B", "verdict": "fails", "impact": "typo"}, {"id": "C", "verdict": "holds"}]
    summary = confusion(rows, truth)
    assert summary["false_alarms"] == ["A"] and summary["understated"] == ["B"]
    assert summary["matrix"]["typo"] == {"holds": 1}


@pytest.mark.parametrize("check_id", ["theorem-13", "remark-15", "e1-update-display", "claim-2-example"])
def test_typos_are_not_statement_level(check_id):
    outcome = run(check_id)
    assert outcome.verdict is Verdict.FAILS and outcome.failure_kind is FailureKind.AS_PRINTED


def test_remark_9_is_a_repaired_step_not_a_false_statement():
    outcome = run("remark-9")
    assert outcome.failure_kind is FailureKind.STEP and outcome.impact is Impact.REPAIRED


def test_searched_corrections_are_not_verified():
    outcome = run("d4-claim-1-proof")
    assert outcome.verdict is Verdict.FAILS and outcome.correction_verified is False
    assert outcome.impact is Impact.GAP


@pytest.mark.extended
def test_proposition_23_correction_is_proved_not_searched():
    # issue #49: the bound with 2 Σ p μ_p² holds, certified, on every instance (the audit's 36 of
    # 36); the search alone would verify nothing
    outcome = run("proposition-23")
    assert outcome.verdict is Verdict.FAILS and outcome.correction_verified is True
    assert outcome.impact is Impact.REPAIRED
    assert "holds (certified)" in outcome.correction and "36 drawn instance" in outcome.correction
