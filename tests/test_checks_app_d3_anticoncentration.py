"""App. D.3 checks: verdicts, and injected claims that flip them."""

from __future__ import annotations

import math

import pytest

from verify.checks import run_check as run
from verify.paper.packs.dayi_chen.checks import app_d3_anticoncentration as sa
from verify.verdict import Verdict


@pytest.mark.parametrize("check_id, verdict", [
    ("d3.2-h0-display", Verdict.FAILS), ("eq-12", Verdict.HOLDS), ("claim-4-proof", Verdict.FAILS),
    # claim-3 and corollary-27 are searches: finding no counterexample proves nothing
    ("claim-3", Verdict.INCONCLUSIVE), ("corollary-27", Verdict.INCONCLUSIVE),
    ("definition-24", Verdict.HOLDS),
    ("lemma-25", Verdict.CITED), ("lemma-26", Verdict.CITED), ("proposition-30", Verdict.CONSISTENT),
])
def test_verdicts(check_id, verdict):
    outcome = run(check_id)
    assert outcome.verdict is verdict, outcome.evidence
    if verdict is Verdict.FAILS:
        assert outcome.counterexample and outcome.correction and outcome.correction_verified


@pytest.mark.slow
@pytest.mark.parametrize("check_id, verdict", [
    ("claim-4", Verdict.INCONCLUSIVE), ("lemma-28", Verdict.CONSISTENT),
    ("proposition-29", Verdict.CONSISTENT)])
def test_slow_verdicts(check_id, verdict):
    assert run(check_id).verdict is verdict


def test_h0_with_factor_two_holds(monkeypatch):
    original = sa.claimed_d32_h0
    monkeypatch.setattr(sa, "claimed_d32_h0", lambda prefactor=1: original(prefactor=2))
    assert run("d3.2-h0-display").verdict is Verdict.HOLDS


def test_claim_4_proof_corrected_weight_holds(monkeypatch):
    from fractions import Fraction

    monkeypatch.setattr(sa, "claimed_claim_4_weight", lambda s, k: Fraction(1, 2 ** (s + 1)))
    assert run("claim-4-proof").verdict is Verdict.CONSISTENT  # the upper chain is float64


def test_claim_3_tighter_bound_fails(monkeypatch):
    monkeypatch.setattr(sa, "claimed_claim_3_bound", lambda k: 0.3 / math.sqrt(k))
    assert run("claim-3").verdict is Verdict.FAILS


def test_corollary_27_tighter_bound_fails(monkeypatch):
    monkeypatch.setattr(sa, "claimed_corollary_27_bound", lambda k, hi, lo: 0.2 / math.sqrt(k))
    assert run("corollary-27").verdict is Verdict.FAILS


def test_block_family_ratio():
    """J_b ⊕ I: max row norm² b, Frobenius² b² + k − b."""
    for k in (4, 9, 16):
        for b, q in enumerate(sa._block_candidates(k), start=1):
            assert sa.row_influence_ratio(q) == pytest.approx(b / (b * b + k - b))
