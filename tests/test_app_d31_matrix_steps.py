"""App. D.3.1–D.3.2 matrix steps: each check's verdict on the paper, and printed constants or
exponents perturbed in its ``claimed_*`` hook that flip it."""

from __future__ import annotations

from fractions import Fraction

import pytest

from verify.checks import run_check as run
from verify.paper.packs.dayi_chen.checks import app_d31_matrix_steps as m
from verify.verdict import Basis, FailureKind, Verdict


# 40-digit eigen-data with an error estimate that is not a bound: consistent, not holds (one evidence rule)
@pytest.mark.parametrize("check_id, verdict", [
    ("claim-3-n-split", Verdict.CONSISTENT), ("claim-3-frobenius-lower", Verdict.CONSISTENT),
    ("claim-3-diagonal-eigen-sum", Verdict.FAILS), ("claim-3-eigenvector-entry", Verdict.CONSISTENT),
    ("claim-3-large-part", Verdict.CONSISTENT), ("claim-3-small-part", Verdict.CONSISTENT),
    ("claim-3-row-bound", Verdict.CONSISTENT), ("claim-3-frobenius-k", Verdict.CONSISTENT),
    ("corollary-27-frobenius-lower", Verdict.FAILS), ("corollary-27-row-chain", Verdict.FAILS),
    ("lemma-28-invariance-step", Verdict.CONSISTENT), ("prop-29-diagonal-ratio", Verdict.HOLDS),
])
def test_verdicts(check_id, verdict):
    outcome = run(check_id)
    assert outcome.verdict is verdict, outcome.evidence
    if verdict is Verdict.FAILS:
        assert outcome.counterexample and outcome.correction and outcome.correction_verified
    if verdict is Verdict.CONSISTENT and check_id.startswith("claim-3"):
        assert outcome.basis is Basis.HIGH_PRECISION and outcome.scope.startswith("instances")


def test_misprinted_index_fails_as_printed():
    assert run("claim-3-diagonal-eigen-sum").failure_kind is FailureKind.AS_PRINTED
    assert run("corollary-27-row-chain").failure_kind is FailureKind.STEP


def test_instances_are_exact_psd_with_the_hypotheses():
    for inst in m.claim_3_instances():
        assert all(x == 1 for x in inst.diag), inst.name
        assert min(inst.s) > -Fraction(1, 10**30), inst.name
    for inst in m.corollary_27_instances():
        assert min(inst.s) > -Fraction(1, 10**30), inst.name
    assert any(min(i.diag) < 1 for i in m.corollary_27_instances())



def test_n_split_perturbed_fails(monkeypatch):
    original, tiny = m.claimed_d31_n_split, Fraction(1, 10**13)
    monkeypatch.setattr(m, "claimed_d31_n_split", lambda inst, j: original(inst, j) * (1 + tiny))
    assert run("claim-3-n-split").verdict is Verdict.FAILS


def test_n_split_exponent_fails(monkeypatch):
    monkeypatch.setattr(m, "claimed_d31_n_split",
                        lambda inst, j: sum(inst.s[i] * inst.p[i][j] for i in range(inst.k)))  # s_i for s_i²
    assert run("claim-3-n-split").verdict is Verdict.FAILS


@pytest.mark.parametrize("hook", [lambda k, zeta: max(k * Fraction(11, 10), zeta),
                                  lambda k, zeta: max(k, zeta * Fraction(11, 10))])
def test_frobenius_lower_perturbed_fails(monkeypatch, hook):
    monkeypatch.setattr(m, "claimed_d31_frobenius_lower", hook)
    assert run("claim-3-frobenius-lower").verdict is Verdict.FAILS


def test_diagonal_sum_over_i_holds_and_its_perturbation_fails(monkeypatch):
    monkeypatch.setattr(m, "claimed_d31_diagonal_sum", m.corrected_d31_diagonal_sum)
    assert run("claim-3-diagonal-eigen-sum").verdict is Verdict.CONSISTENT
    tiny = Fraction(1, 10**13)
    monkeypatch.setattr(m, "claimed_d31_diagonal_sum",
                        lambda inst, i, j: m.corrected_d31_diagonal_sum(inst, i, j) * (1 + tiny))
    assert run("claim-3-diagonal-eigen-sum").verdict is Verdict.FAILS


@pytest.mark.parametrize("hook", [
    lambda k, like=Fraction(0): m.k_pow(k, Fraction(-6, 10), like),
    lambda k, like=Fraction(0): m.k_pow(k, Fraction(-1, 2), like) * Fraction(99, 100)])
def test_eigenvector_bound_perturbed_fails(monkeypatch, hook):
    monkeypatch.setattr(m, "claimed_d31_eigenvector_bound", hook)
    assert run("claim-3-eigenvector-entry").verdict is Verdict.FAILS


def test_large_part_exponent_fails(monkeypatch):
    def chain(inst, j):
        a, b, c, d = original(inst, j)
        return a, b, m.k_pow(inst.k, Fraction(-6, 10), 0 * inst.frob2) * inst.zeta, d

    original = m.claimed_d31_large_part_chain
    monkeypatch.setattr(m, "claimed_d31_large_part_chain", chain)
    assert run("claim-3-large-part").verdict is Verdict.FAILS


def test_small_part_perturbed_fails(monkeypatch):
    monkeypatch.setattr(m, "claimed_d31_small_part_bound", lambda: Fraction(99, 100))
    assert run("claim-3-small-part").verdict is Verdict.FAILS


def test_row_bound_has_slack_about_two_and_a_third_of_it_fails(monkeypatch):
    """The printed bound is loose (≈ 0.45 at worst): only a large cut makes it fail."""
    assert run("claim-3-row-bound").numbers["largest lhs/rhs found by the search"] < 0.5
    original = m.claimed_d31_row_bound
    monkeypatch.setattr(m, "claimed_d31_row_bound", lambda k, f: original(k, f) * Fraction(35, 100))
    assert run("claim-3-row-bound").verdict is Verdict.FAILS


def test_frobenius_k_perturbed_fails(monkeypatch):
    monkeypatch.setattr(m, "claimed_d31_frobenius_k", lambda k: Fraction(k) * Fraction(101, 100))
    assert run("claim-3-frobenius-k").verdict is Verdict.FAILS


def test_corollary_27_corrections_hold(monkeypatch):
    monkeypatch.setattr(m, "claimed_c27_frobenius_lower", m.corrected_c27_frobenius_lower)
    monkeypatch.setattr(m, "claimed_c27_row_chain", m.corrected_c27_row_chain)
    assert run("corollary-27-frobenius-lower").verdict is Verdict.CONSISTENT
    assert run("corollary-27-row-chain").verdict is Verdict.CONSISTENT


def test_corollary_27_row_chain_fails_in_both_links():
    outcome = run("corollary-27-row-chain")
    assert set(outcome.counterexample) == {"first link", "second link"}
    assert outcome.counterexample["first link"]["claimed smaller side"] == 108.0


def test_diagonal_ratio_exponent_fails_constant_does_not(monkeypatch):
    monkeypatch.setattr(m, "claimed_d32_q_diagonal_ratio", lambda a, b: a / b)
    assert run("prop-29-diagonal-ratio").verdict is Verdict.FAILS
    monkeypatch.setattr(m, "claimed_d32_q_diagonal_ratio", lambda a, b: 3 * a**2 / b**2)  # O(): any constant
    assert run("prop-29-diagonal-ratio").verdict is Verdict.HOLDS


def test_k_pow_is_exact_where_rational():
    assert abs(m.k_pow(9, Fraction(-1, 2)) - Fraction(1, 3)) < Fraction(1, 10**45)
    assert m.k_pow(9, Fraction(1, 2), 0.0) == pytest.approx(3.0)
