"""App. D.5.2 series steps (verify/paper/packs/dayi_chen/checks/app_d5_series_steps.py): verdicts, and
the printed constants' power: each claimed_* hook perturbed in its tight direction makes its check fail."""

from __future__ import annotations

import mpmath
import pytest

from verify.paper.packs.dayi_chen.checks import app_d5_series_steps as m
from verify.verdict import Verdict


@pytest.mark.parametrize("function", [m.d52_tail_chain, m.d52_offdiag_tail, m.d52_geometric_steps])
def test_verdict_holds(function):
    assert function(None).verdict is Verdict.HOLDS


def test_smaller_prefactor_fails(monkeypatch):
    original = m.claimed_d52_19_prefactor
    monkeypatch.setattr(m, "claimed_d52_19_prefactor", lambda s, rho: original(s, rho) * mpmath.mpf("0.99"))
    assert m.d52_tail_chain(None).verdict is Verdict.FAILS


def test_smaller_hat_c_fails(monkeypatch):
    monkeypatch.setattr(m, "claimed_hat_c_sigma", lambda rho: mpmath.mpf("0.1"))
    assert m.d52_tail_chain(None).verdict is Verdict.FAILS


def test_larger_exponent_fails(monkeypatch):
    monkeypatch.setattr(m, "claimed_d52_18_exponent", lambda rho: 3 + 2 * rho)
    assert m.d52_tail_chain(None).verdict is Verdict.FAILS


def test_smaller_tilde_c_fails(monkeypatch):
    monkeypatch.setattr(m, "claimed_tilde_c_sigma", lambda: mpmath.mpf("0.001"))
    assert m.d52_offdiag_tail(None).verdict is Verdict.FAILS


def test_wrong_geometric_sum_fails(monkeypatch):
    monkeypatch.setattr(m, "claimed_geometric_sum", lambda r: r**2 / (1 - r))
    assert m.d52_geometric_steps(None).verdict is Verdict.FAILS
