"""App. D.2 checks: verdicts, and injected claims flip them."""

from __future__ import annotations

import pytest

from verify.checks import Verdict
from verify.checks import run_check as run
from verify.paper.packs.dayi_chen.checks import app_d2_gradients as d2


def test_sample_gradient_fails_and_the_correction_holds(monkeypatch):
    outcome = run("d2-sample-gradient")
    assert outcome.verdict is Verdict.FAILS and outcome.correction_verified
    monkeypatch.setattr(d2, "claimed_sample_gradient", d2.corrected_sample_gradient)
    assert run("d2-sample-gradient").verdict is Verdict.HOLDS


def test_prop_22_display_fails_and_the_correction_holds(monkeypatch):
    outcome = run("proposition-22-display")
    assert outcome.verdict is Verdict.FAILS and outcome.correction_verified
    monkeypatch.setattr(d2, "claimed_prop_22_display", d2._corrected_prop_22_display)
    assert run("proposition-22-display").verdict is Verdict.HOLDS


@pytest.mark.extended
def test_prop_21_holds_and_fails_with_a_quarter_of_the_bound(monkeypatch):
    assert run("proposition-21").verdict is Verdict.INCONCLUSIVE  # a search
    original = d2.claimed_prop_21_bound
    monkeypatch.setattr(d2, "claimed_prop_21_bound", lambda lam, k, xi: original(lam, k, xi, 0.25))
    assert run("proposition-21").verdict is Verdict.FAILS


def test_prop_22_consistent():
    assert run("proposition-22").verdict is Verdict.CONSISTENT


@pytest.mark.slow
def test_prop_22_not_consistent_with_a_too_fast_rate(monkeypatch):
    monkeypatch.setattr(d2, "claimed_prop_22_rate",
                        lambda lam, k, xi: lam**2 * k * xi**2 / (k + xi**2))
    assert run("proposition-22").verdict is Verdict.INCONCLUSIVE


@pytest.mark.extended
def test_prop_23_fails_by_factor_two_and_doubling_holds(monkeypatch):
    outcome = run("proposition-23")
    # the doubled constant is proved by a certified claim on every instance (issue #49): verified
    assert outcome.verdict is Verdict.FAILS and outcome.correction_verified is True
    assert 1.9 < outcome.numbers["worst_ratio"] <= 2.0
    assert outcome.parts["D.2-17"].verdict is Verdict.INCONCLUSIVE  # C_sigma is left open
    assert outcome.parts["D.2-r8"].verdict is Verdict.FAILS
    monkeypatch.setattr(d2, "claimed_prop_23_constant", lambda weighted: 2 * weighted)
    assert run("proposition-23").verdict is Verdict.INCONCLUSIVE
