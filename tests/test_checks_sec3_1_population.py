"""Proposition 4 and the App. D.1 displays: pinned verdicts, and each claim hook flips the
verdict when a typo is injected (or the correction applied)."""

from __future__ import annotations

import pytest
import sympy

from verify.checks import FailureKind, Verdict, run_check
from verify.derive import prop_4
from verify.paper.packs.dayi_chen.checks import sec3_1_population as pop


def _with_typo(display):
    """``display`` with its factor 2 dropped (the typo of D.5.1 and D.3.2, injected elsewhere)."""

    def typo():
        return sympy.expand(display() / 2)

    return typo


@pytest.mark.extended
def test_proposition_4_holds():
    outcome = run_check("proposition-4")
    assert outcome.verdict is Verdict.CONSISTENT  # exact to degree 6, beyond it points: a proxy
    assert outcome.scope.startswith("proxy: ")
    assert outcome.numbers["worst_excess_over_tolerance"] <= 0


def test_proposition_4_catches_a_dropped_factor_two(monkeypatch):
    original = pop.claimed_prop_4_series
    monkeypatch.setattr(pop, "claimed_prop_4_series", lambda: sympy.expand(original() / 2))
    outcome = run_check("proposition-4")
    assert outcome.verdict is Verdict.FAILS
    assert outcome.failure_kind is FailureKind.STATEMENT


def test_proposition_4_projection_fails_as_printed_and_the_correction_holds(monkeypatch):
    outcome = run_check("proposition-4-projection")
    assert outcome.verdict is Verdict.FAILS
    assert outcome.failure_kind is FailureKind.AS_PRINTED
    assert outcome.correction_verified
    assert outcome.numbers["literal_residual"] > 1e3 * pop.FD_TOL
    monkeypatch.setattr(pop, "claimed_prop_4_projection", pop.corrected_prop_4_projection)
    assert run_check("proposition-4-projection").verdict is Verdict.HOLDS


def test_proposition_4_projection_catches_a_sign_flip(monkeypatch):
    monkeypatch.setattr(pop, "claimed_prop_4_projection", pop.corrected_prop_4_projection)
    original = pop.claimed_prop_4_gradient
    monkeypatch.setattr(pop, "claimed_prop_4_gradient", lambda h, u, u_hat: -original(h, u, u_hat))
    assert run_check("proposition-4-projection").verdict is Verdict.FAILS


def test_d1_overlaps_holds_and_catches_the_normalisation_typo(monkeypatch):
    assert run_check("d1-overlaps").verdict is Verdict.HOLDS
    monkeypatch.setattr(pop, "claimed_d1_overlap",
                        lambda g, xi, k, ci, cj: (g + xi**2 * ci * cj) / (1 + xi**2))
    outcome = run_check("d1-overlaps")
    assert outcome.verdict is Verdict.FAILS
    assert outcome.failure_kind is FailureKind.STEP


def test_d1_overlaps_catches_a_wrong_row_norm(monkeypatch):
    monkeypatch.setattr(pop, "claimed_d1_row_norm2", lambda xi, k: 1 + xi**2)
    assert run_check("d1-overlaps").verdict is Verdict.FAILS


def test_d1_gradient_displays_hold_and_each_catches_the_typo(monkeypatch):
    assert run_check("d1-gradient-displays").verdict is Verdict.HOLDS
    for name in ("claimed_d1_first_gradient_display", "claimed_d1_second_gradient_display",
                 "claimed_d1_power_series_display"):
        with monkeypatch.context() as patch:
            patch.setattr(pop, name, _with_typo(getattr(pop, name)))
            outcome = run_check("d1-gradient-displays")
            assert outcome.verdict is Verdict.FAILS, name
            assert outcome.failure_kind is FailureKind.STEP


def test_d1_h_display_fails_with_a_verified_correction(monkeypatch):
    outcome = run_check("d1-h-display")
    assert outcome.verdict is Verdict.FAILS
    assert outcome.failure_kind is FailureKind.STEP
    assert outcome.correction_verified
    monkeypatch.setattr(prop_4, "claimed_d1_display", pop.claimed_d1_second_gradient_display)
    assert run_check("d1-h-display").verdict is Verdict.HOLDS
