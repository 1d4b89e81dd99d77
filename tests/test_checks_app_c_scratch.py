"""App. C checks: verdicts, and injected claims flip them."""

from __future__ import annotations

from fractions import Fraction

import pytest

from verify.checks import Verdict
from verify.checks import run_check as run
from verify.paper.packs.dayi_chen.checks import app_c_scratch as scratch


def test_remark_15_fails_and_l_plus_one_holds(monkeypatch):
    outcome = run("remark-15")
    assert outcome.verdict is Verdict.FAILS and outcome.correction_verified
    monkeypatch.setattr(scratch, "claimed_remark_15_coefficient",
                        lambda l, mu: 2 * (l + 1) * mu[l + 1] ** 2)
    assert run("remark-15").verdict is Verdict.HOLDS


def test_lemma_17_consistent():
    assert run("lemma-17").verdict is Verdict.CONSISTENT


def test_claim_2_holds():
    assert run("claim-2").verdict is Verdict.HOLDS


def test_claim_2_example_fails_and_alternating_c_holds(monkeypatch):
    outcome = run("claim-2-example")
    assert outcome.verdict is Verdict.FAILS and outcome.correction_verified
    assert outcome.counterexample["inner_product"] == "1/8"
    monkeypatch.setattr(scratch, "claimed_example_c", lambda: [Fraction((-1) ** i, 2) for i in range(1, 5)])
    assert run("claim-2-example").verdict is Verdict.HOLDS


def test_claim_2_proof_fails_with_verified_index():
    outcome = run("claim-2-proof")
    assert outcome.verdict is Verdict.FAILS and outcome.correction_verified


@pytest.mark.extended
def test_prop_18_consistent_and_counts_h0_zero_as_a_violation():
    outcome = run("proposition-18")
    assert outcome.verdict is Verdict.CONSISTENT
    # h(0) = 0 exactly makes S_k = 0, which Condition 3 (and condition-3's check) count as a
    # violation: at p = 4, k = 10 that is every c_hat with sum c_i c_hat_i = 0, C(10, 5) of 2^10.
    assert outcome.numbers["h0_zero_fraction"]["p=4,k=10"] == "63/256"
    assert outcome.numbers["leading_term_tie_probability"]["p=4,k=10"] == "63/256"
    assert outcome.numbers["violation_rate_condition_3_form"]["p=4,k=10"] == 63 / 256
    assert max(outcome.numbers["violation_rate_with_h0_nonzero"].values()) == 0


def test_prop_18_is_not_consistent_when_h0_vanishes_beyond_the_ties(monkeypatch):
    from fractions import Fraction

    monkeypatch.setattr(scratch, "_tie_probability", lambda k: Fraction(0))
    outcome = run("proposition-18")
    assert outcome.verdict is Verdict.INCONCLUSIVE
    assert "ties" in outcome.evidence


@pytest.mark.extended
def test_prop_18_fails_with_a_wrong_display(monkeypatch):
    original = scratch.claimed_prop_18_h
    monkeypatch.setattr(scratch, "claimed_prop_18_h",
                        lambda lam, c, ch, g, m, p, k: original(lam, c, ch, g, m, p, k) * (k / (k + 1)))
    assert run("proposition-18").verdict is Verdict.FAILS


def test_prop_18_proof_fails_and_the_corrected_chain_holds(monkeypatch):
    outcome = run("proposition-18-proof")
    assert outcome.verdict is Verdict.FAILS and outcome.correction_verified
    monkeypatch.setattr(scratch, "claimed_prop_18_chain",
                        lambda k, p, lam_max=1.0: ((k - 1) * 2 ** (p - 1) / k ** (p - 1),
                                                   2 ** (p - 1) / k ** (p - 2)))
    assert run("proposition-18-proof").verdict is Verdict.CONSISTENT  # float64 on the instances


def test_theorem_19_fails_as_derived_and_k3_is_consistent(monkeypatch):
    outcome = run("theorem-19")
    assert outcome.verdict is Verdict.FAILS and outcome.correction_verified
    monkeypatch.setattr(scratch, "claimed_theorem_19_k_exponent", lambda: 3)
    assert run("theorem-19").verdict is Verdict.CONSISTENT
