"""App. F checks: verdicts, and injected claims flip them."""

from __future__ import annotations

import pytest
import sympy

from verify.checks import Verdict
from verify.checks import run_check as run
from verify.paper.packs.dayi_chen.checks import app_f_global_optima


def test_example_1_holds():
    assert run("example-1").verdict is Verdict.HOLDS


def test_example_1_fails_with_a_wrong_u_prime(monkeypatch):
    u, u_prime, c, c_prime = app_f_global_optima.claimed_example_1()
    wrong = sympy.Matrix([1 / sympy.sqrt(2), -1 / sympy.sqrt(2)])
    monkeypatch.setattr(app_f_global_optima, "claimed_example_1", lambda: (u, wrong, c, c_prime))
    assert run("example-1").verdict is Verdict.FAILS


def test_definition_35_holds():
    assert run("definition-35").verdict is Verdict.HOLDS


@pytest.mark.extended
def test_theorem_36_is_consistent_on_its_proxy_and_says_so():
    # Checked at the one overlap 1 - |m| = threshold, not at every m the theorem allows: a proof of
    # a proxy does not make the statement hold (verify.verdict.apply_scope_rule).
    outcome = run("theorem-36")
    assert outcome.verdict is Verdict.CONSISTENT
    assert outcome.scope.startswith("proxy: ") and "one overlap" in outcome.scope


def test_theorem_36_fails_with_a_threshold_100_times_too_large(monkeypatch):
    original = app_f_global_optima.claimed_theorem_36_threshold
    monkeypatch.setattr(app_f_global_optima, "claimed_theorem_36_threshold",
                        lambda eps, k, xi, lam, c: 100 * original(eps, k, xi, lam, c))
    assert run("theorem-36").verdict is Verdict.FAILS
