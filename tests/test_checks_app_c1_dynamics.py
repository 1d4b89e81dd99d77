"""The §3.1 / C.1 / App. E checks: expected verdicts, and injected typos flip them."""

from __future__ import annotations

import numpy as np
import pytest
import sympy

from verify.checks import load_all
from verify.checks import run_check as run
from verify.paper.packs.dayi_chen.checks import app_c1_dynamics as sd
from verify.paper.packs.dayi_chen.checks import app_e_dynamics_proofs as se
from verify.verdict import Verdict

load_all()


def test_lemma_31_printed_freedman_fails_on_one_coin_flip_and_correction_holds():
    out = run("lemma-31")
    assert out.verdict is Verdict.FAILS
    assert out.counterexample["t"] == 1 and out.counterexample["lambda"] == 1
    assert out.correction_verified


def test_lemma_31_with_the_factor_two_is_only_cited(monkeypatch):
    monkeypatch.setattr(se, "claimed_freedman_log_bound", se.corrected_freedman_log_bound)
    assert run("lemma-31").verdict is Verdict.CITED


def test_walk_tails_are_exact_binomial_sums():
    from scipy.stats import binom

    for lam, log_p in se.walk_log_tails(11):
        assert np.isclose(np.exp(log_p), binom.cdf((11 - lam) // 2, 11, 0.5), rtol=1e-12)


def test_c1_drift_recursion_holds_and_a_sign_typo_fails(monkeypatch):
    assert run("c1-drift-recursion").verdict is Verdict.HOLDS
    monkeypatch.setattr(sd, "claimed_c1_ratio", lambda m, eta, hm: sympy.Abs(1 - eta * hm * (1 - m)))
    assert run("c1-drift-recursion").verdict is Verdict.FAILS


def test_theorem_16_constants_hold_and_a_wrong_alpha_fails(monkeypatch):
    assert run("theorem-16-constants").verdict is Verdict.HOLDS
    monkeypatch.setattr(sd, "claimed_t_weak", lambda d, v, delta, s: sympy.ceiling(d * v / (delta * s)))
    monkeypatch.setattr(sd, "claimed_alpha", lambda d, v, delta, s, eps: 4 / (eps * delta * s))
    assert run("theorem-16-constants").verdict is Verdict.FAILS


def test_run_instance_satisfies_condition_3():
    inst = sd.run_instance(50)
    h0 = float(sd.h_values(inst, 0.0))
    grid = np.linspace(0, 1, 201)
    sign = np.sign(h0)
    assert sd.claimed_condition_3(sign * sd.h_values(inst, sign * grid), h0)
    assert abs(h0) > 0.9


def test_condition_3_consistent_and_vanishing_h0_is_not_counted():
    assert not sd.claimed_condition_3(np.ones(3), 0.0)
    assert run("condition-3").verdict is Verdict.CONSISTENT


def test_condition_1_is_consistent():
    assert run("condition-1").verdict is Verdict.CONSISTENT  # a Monte-Carlo non-rejection


def test_claim_5_is_not_refuted_and_a_smaller_right_side_fails(monkeypatch):
    assert run("claim-5").verdict is Verdict.INCONCLUSIVE  # a search on trajectories proves nothing
    monkeypatch.setattr(se, "claimed_claim5_rhs",
                        lambda eta, n2, a: np.cumsum(eta**3 * n2 * np.abs(a), axis=-1))
    assert run("claim-5").verdict is Verdict.FAILS


@pytest.mark.slow
def test_eq_6_sign_fails_and_the_corrected_sign_holds(monkeypatch):
    out = run("eq-6")
    assert out.verdict is Verdict.FAILS and out.correction_verified
    monkeypatch.setattr(sd, "claimed_eq6_noise_sign", lambda: -1)
    assert run("eq-6").verdict is Verdict.HOLDS


@pytest.mark.slow
def test_e1_display_fails_with_verified_correction():
    out = run("e1-update-display")
    assert out.verdict is Verdict.FAILS and out.correction_verified


@pytest.mark.slow
def test_lemma_33_consistent_and_a_too_steep_slope_is_not(monkeypatch):
    assert run("lemma-33").verdict is Verdict.CONSISTENT
    monkeypatch.setattr(se, "claimed_lemma33_slope", lambda s: 20 * s)
    assert run("lemma-33").verdict is Verdict.INCONCLUSIVE


@pytest.mark.slow
@pytest.mark.parametrize("check_id, expected", [
    ("claim-6", Verdict.CONSISTENT), ("claim-7", Verdict.INCONCLUSIVE), ("claim-8", Verdict.CONSISTENT),
    ("claim-9", Verdict.CONSISTENT), ("proposition-32", Verdict.INCONCLUSIVE),
    ("theorem-5", Verdict.CONSISTENT), ("theorem-16", Verdict.CONSISTENT), ("lemma-34", Verdict.CONSISTENT),
    ("condition-2", Verdict.CONSISTENT),
])
def test_simulated_checks_verdicts(check_id, expected):
    assert run(check_id).verdict is expected
