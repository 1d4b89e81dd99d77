"""App. B checks: verdicts, and injected claims flip them."""

from __future__ import annotations

import sympy

from verify.checks import Verdict
from verify.checks import run_check as run
from verify.paper.packs.dayi_chen.checks import app_b_simulations


def test_model_fails_with_verified_relu_rescaling():
    outcome = run("appendix-b-model")
    assert outcome.verdict is Verdict.FAILS
    assert outcome.correction_verified
    assert abs(outcome.counterexample["b_row_norm"] - (50 / 51) ** 0.5) < 1e-12


def test_model_holds_when_rows_are_d1s(monkeypatch):
    monkeypatch.setattr(app_b_simulations, "claimed_b_row_scale", lambda k, xi: 1 / sympy.sqrt(1 + xi**2 / k))
    monkeypatch.setattr(app_b_simulations, "claimed_b_output_scale", lambda xi: 1)
    assert run("appendix-b-model").verdict is Verdict.HOLDS


def test_correlation_fails_and_the_correction_holds(monkeypatch):
    assert run("appendix-b-correlation").verdict is Verdict.FAILS
    monkeypatch.setattr(app_b_simulations, "claimed_b_correlation",
                        lambda g, ci, cj, m, k, xi: k / (k + xi**2) * (g + xi**2 * ci * cj * m))
    assert run("appendix-b-correlation").verdict is Verdict.HOLDS


def test_threshold_consistent():
    assert run("appendix-b-threshold").verdict is Verdict.CONSISTENT
