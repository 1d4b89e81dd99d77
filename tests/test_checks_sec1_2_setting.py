"""§1.2 checks (Assumptions 1–5, Theorems 1–3): verdicts, and flips under injected typos."""

from __future__ import annotations

import numpy as np
import sympy

from verify.checks import load_all
from verify.checks import run_check as run
from verify.paper.packs.dayi_chen.checks import sec1_2_setting as s
from verify.verdict import Verdict

load_all()


def test_assumptions_1_to_4_hold_or_are_consistent_on_the_float_generators():
    out = run("assumption-2")
    assert out.verdict is Verdict.HOLDS, out.evidence
    out = run("assumption-3")  # uniform sign patterns by a chi-squared test: statistical
    assert out.verdict is Verdict.CONSISTENT, out.evidence
    for n in (1, 4):  # unit rows / Gram = I within a tolerance of the float64 generators: a proxy
        out = run(f"assumption-{n}")
        assert out.verdict is Verdict.CONSISTENT and out.scope.startswith("proxy: "), (n, out.evidence)


def test_assumption_3_fails_when_the_glm_identity_is_broken(monkeypatch):
    def wrong(k):
        z, sigma = sympy.Symbol("z"), sympy.Function("sigma")
        return sum(sympy.Rational(1, k) * sigma(sympy.sqrt(k) * z) for _ in range(k)) - sigma(z)

    monkeypatch.setattr(s, "glm_teacher_symbolic", wrong)
    assert run("assumption-3").verdict is Verdict.FAILS


def test_relu_rescaling_is_exact_and_tanh_is_not():
    out = run("assumption-1")
    assert out.numbers["relu_rescaling_relative_error"] < 1e-12
    assert out.numbers["tanh_homogeneity_gap"] > 0.1


def test_assumption_5_holds_and_is_not_mild_in_small_d():
    out = run("assumption-5")
    assert out.verdict is Verdict.CONSISTENT  # sampled fractions
    assert out.numbers["fractions"]["k=4,d=16"]["fraction"] < 0.5
    assert abs(out.numbers["min_threshold"] - (1 - 2 / np.e)) < 1e-3


def test_drift_time_is_linear_in_d_for_a_constant_drift():
    times = s.first_hitting_times(lambda m: np.ones_like(m), [100, 400], 1.0, 0.1, 1.0, 10**6)
    assert 3.5 < times[1] / times[0] < 4.5


def test_theorem_1_is_consistent_and_a_wrong_rate_fails(monkeypatch):
    out = run("theorem-1")
    assert out.verdict is Verdict.CONSISTENT
    from verify.paper.packs.dayi_chen.checks.app_a_activations import EPS, D, K

    monkeypatch.setattr(s, "claimed_theorem_1", lambda: {"eta": EPS**3 / (D * K**3), "T": D * K**4 / EPS**4})
    assert run("theorem-1").verdict is Verdict.FAILS


def test_theorem_2_is_consistent():
    assert run("theorem-2").verdict is Verdict.CONSISTENT


def test_theorem_3_is_cited():
    out = run("theorem-3")
    assert out.verdict is Verdict.CITED
    assert out.numbers["claim2_instances"][3]["information_exponent"] == 3
