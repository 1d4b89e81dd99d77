"""Appendix A checks: each gives its verdict, and flipping the claim flips the verdict."""

from __future__ import annotations

import pytest
import sympy

from verify.checks import load_all
from verify.checks import run_check as run
from verify.paper.packs.dayi_chen.checks import app_a_activations as a
from verify.verdict import Verdict

load_all()


@pytest.mark.extended
def test_assumption_6_holds_and_rejects_sign():
    out = run("assumption-6")
    assert out.verdict is Verdict.CONSISTENT  # fitted exponents: statistical
    assert out.numbers["control_sign"]["6.2_rho"] < 0


def test_assumption_6_fails_when_sign_is_in_the_registry_list(monkeypatch):
    monkeypatch.setattr(a, "ASSUMPTION_6_ACTIVATIONS", ("relu", "expr:sign(x)"))
    out = run("assumption-6")
    assert out.verdict is Verdict.FAILS and "expr:sign(x)" in out.counterexample["activations"]


def test_sign_moment_ratio_blows_up_near_correlation_one():
    assert a.sign_moment_ratio(0.999999, 2) > 10 * a.sign_moment_ratio(0.9, 2)


def test_remark_9_fails_with_verified_correction():
    out = run("remark-9")
    assert out.verdict is Verdict.FAILS and out.correction_verified
    assert out.counterexample["lhs"] == "11/100" and out.counterexample["rhs"] == "1/25"


def test_remark_9_holds_with_the_corrected_bound(monkeypatch):
    monkeypatch.setattr(a, "claimed_remark_9_bound", a.corrected_remark_9_bound)
    assert run("remark-9").verdict is Verdict.INCONCLUSIVE  # the search finds nothing


@pytest.mark.extended
def test_remark_10_is_inconclusive_with_exact_identity():
    out = run("remark-10")
    assert out.verdict is Verdict.INCONCLUSIVE
    assert max(out.numbers["ibp_max_gap"].values()) < 1e-25


def test_remark_10_display_fails_and_the_corrected_limits_hold(monkeypatch):
    out = run("remark-10-display")
    assert out.verdict is Verdict.FAILS and out.correction_verified
    import mpmath

    monkeypatch.setattr(a, "claimed_remark_10_difference", lambda f, g1, g2: mpmath.quad(f, [g1, g2]))
    assert run("remark-10-display").verdict is Verdict.CONSISTENT  # uncertified quadrature


def test_remark_14_fails_on_the_sign_and_holds_when_corrected(monkeypatch):
    out = run("remark-14")
    assert out.verdict is Verdict.FAILS and out.correction_verified
    assert out.numbers["max_abs_z_vs_correction"] < 5.33
    monkeypatch.setattr(a, "claimed_remark_14", lambda mu1, lam, c, u: -mu1 * sum(
        li * ci for li, ci in zip(lam, c, strict=True)) * u)
    assert run("remark-14").verdict is Verdict.CONSISTENT  # Monte Carlo


def test_theorem_11_holds_and_an_injected_eta_typo_fails(monkeypatch):
    assert run("theorem-11").verdict is Verdict.HOLDS
    original = a.claimed_theorem_11

    def typo(mu1_nonzero):
        s = original(mu1_nonzero)
        return a.Schedule(s.delta, s.alpha, a.LMAX**4 * a.DELTA / (a.D * a.K**2), s.T, s.T_order)

    monkeypatch.setattr(a, "claimed_theorem_11", typo)
    assert run("theorem-11").verdict is Verdict.FAILS


def test_theorem_11_fails_when_the_order_of_T_is_too_small(monkeypatch):
    original = a.claimed_theorem_11

    def too_small(mu1_nonzero):
        s = original(mu1_nonzero)
        return a.Schedule(s.delta, s.alpha, s.eta, s.T, a.D * a.K / a.EPS**4)

    monkeypatch.setattr(a, "claimed_theorem_11", too_small)
    assert run("theorem-11").verdict is Verdict.FAILS


def test_theorem_12_holds_and_a_stronger_probability_fails(monkeypatch):
    assert run("theorem-12").verdict is Verdict.HOLDS
    monkeypatch.setattr(a, "claimed_theorem_12_failure_probability",
                        lambda xibar: sympy.exp(-2 / (sympy.E * xibar**3)))
    assert run("theorem-12").verdict is Verdict.FAILS


def test_theorem_13_fails_with_factor_256_and_the_correction_holds(monkeypatch):
    out = run("theorem-13")
    assert out.verdict is Verdict.FAILS and out.correction_verified
    assert out.counterexample["factor"] == "256"
    original = a.claimed_theorem_13

    def corrected():
        s = original()
        return a.Schedule(s.delta, s.alpha, a.DELTA / (a.LMAX**4 * a.D * a.K**2), s.T, s.T_order)

    monkeypatch.setattr(a, "claimed_theorem_13", corrected)
    assert run("theorem-13").verdict is Verdict.HOLDS


def test_constant_factor_accepts_bounded_k_factors_only():
    assert a.constant_factor((a.K + 1) / a.K)
    assert not a.constant_factor(a.K)
    assert not a.constant_factor(a.LMAX**8)
