"""Dogfooding: 14 of the paper's statements that ``verify check`` judges, re-expressed as one-line claims.

Each claim gets the same verdict as its hand-written check (:func:`verify.checks.run_check`); the
checks that take more than a few seconds are compared live only in the slow tier, the rest in
every run (and all against the verdicts ``verify check`` reported when this file was written).
Each claim runs through the command line as a user would type it (``--json``), in under 30 s of
CPU, and every counterexample it prints is reproduced by running its ``rerun`` command.

Notes on the translations (the claim is what the statement says; nothing from the check is reused):

- proposition-4: Proposition 4's series with the printed T(l, s), for he3 (a finite expansion, so
  the sums over l and s end at 2) on separated rows; the claim is the identity in m and ξ.
- d1-h-display: App. D.1's definition of h with its (1/(1+ξ²))^p, its (G + ξ²cĉm)^{p−1} expanded
  binomially into the T(l, s) of Proposition 4 (Σ_ij λλ(cĉ)^{l+1}G^s = T(l, s)/k^{l+1} for quantized c).
- d3.2-h0-display: the printed h(0) at ξ = 1, Σ_ij λλcĉ Σ_s (s+1)μ²_{s+1}(k/(k+1))^{s+1}⟨w_i, w_j⟩^s,
  with Σ_ij λλcĉG^s = T(0, s)/k.
- remark-15: the GLM family is the ξ̄ → ∞ limit (T(l, 0) = 1); the printed limit Σ_l l μ²_{l+1} m^l.
- claim-1: for σ = he3 the Claim 1 sum (odd l, s = 1 and even l > 0, s = 0 terms) is h(m) − h(0) exactly
  (μ_1 = 0, and the only other term, l = 0, s = 2, is h(0)); the check's case k = 1, ξ² = 3.
- lemma-6: "with probability 1 − o(1) − …, |h(0)| ≥ C_σγ(k/(k+ξ²))^{s*}ξ²" at the paper's λ = (1/k)·1 and
  ξ = √k/2, read as an order in k with probability 0.9 (s* = lstar for relu).
- proposition-23: ‖∇̂Φ‖ = |h(m)|√(1 − m²) (Proposition 4) against C_σλ²_max kξ²/(1 + ξ²/k).
- remark-9: the display for s = 2 and p(x) = x + x², the check's example polynomial.
- claim-4-proof: the step (Σ_s (s+1)μ²_{s+1}(k/(k+1))^{s+1})² Σλ⁴/k² ≥ (Σ_s (s+1)μ²_{s+1}/2^s)² λ_min⁴/k at
  λ = 1, i.e. the inequality between the two sums.
- proposition-21: p = 1, relu, where E(f* − f̂)² = Φ(m), with C = Lip(relu)² = 1.
- lemma-17: part 1 at p = 1 (E‖∇̂L/√d‖² = grad_var/d) as an order in k, ξ = 1, relu.
- assumption-5: "very mild": Assumption 5 holds with probability ≥ 0.9 for independent unit rows at the
  check's largest d per k (d = max(256, 16k)).
- lemma-8: the half-violation event at ξ = 1 on separated rows; the probability 1 − O(γ^{1/2}) − o(1) has
  no constants, taken as 0.99 (so finitely many draws can only be consistent with it).
"""

from __future__ import annotations

import contextlib
import io
import json
import shlex
import time

import pytest

from verify.cli import main

#: check id -> (the verdict ``verify check --seed 0`` gives, the claim as ``verify claim`` arguments)
DOGFOOD = {
    "proposition-4": ("holds", [
        "h(m) == 2*Sum((xi**2/k)**(l+1)*Sum(binomial(l+s, l)*(l+s+1)*mu(l+s+1)**2*(1/(1+xi**2/k))**(l+s+1)"
        "*T(l, s), s, 0, 2)*m**l, l, 0, 2)",
        # k up to 3: with k = 4 the symbolic step used 4.9 to 5.7 of its 6 CPU s on an idle machine, and
        # ran out under load (a fresh-clone CI run went inconclusive at the 15th of 16 configurations)
        "--family", "separated", "--activation", "he3", "--for", "k in 1..3", "--for", "xi in [0.5, 2]",
        "--for", "m in [-1, 1]"]),
    "d1-h-display": ("fails", [
        "h(m) == 2*xi**2*Sum(p*mu(p)**2*(1/(1+xi**2))**p*Sum(binomial(p-1, l)*xi**(2*l)*m**l"
        "*T(l, p-1-l)/k**(l+1), l, 0, p-1), p, 1, 3)",
        "--family", "orthonormal", "--activation", "linear", "he3", "--for", "k in 1..4",
        "--for", "xi in [0.5, 2]", "--for", "m in [-1, 1]"]),
    "d3.2-h0-display": ("fails", [
        "h(0) == Sum((s+1)*mu(s+1)**2*(k/(k+1))**(s+1)*T(0, s)/k, s, 0, 2)",
        "--family", "separated", "--activation", "linear", "he3", "--for", "xi = 1", "--for", "k in 2..4"]),
    "remark-15": ("fails", [
        "h(m) == Sum(l*mu(l+1)**2*m**l, l, 0, 3)",
        "--family", "glm", "--activation", "linear", "he2", "he3", "--for", "k in 1..4",
        "--for", "xi in [1, 100]", "--for", "m in [-1, 1]"]),
    "s3.2.2-binomial-sum": ("fails", [
        "Sum(binomial(l+s, l)*(k/(k+1))**(s+1), s, 0, oo) == Theta(k**l)",
        "--for", "l in 0..3", "--for", "k in 1..1000", "--growth", "k"]),
    "claim-1": ("fails", [
        "sign(m)*(h(m) - h(0)) >= 0",
        "--family", "orthonormal", "--activation", "he3", "--for", "k = 1", "--for", "xi = sqrt(3)",
        "--for", "m in [-1, 1]", "--prob", ">= 1 - exp(-2*k/(E*xi**2)) over c, c_hat"]),
    "lemma-6": ("fails", [
        "abs(h(0)) >= Omega((k/(k + xi**2))**lstar*C_sigma*xi**2)",
        "--family", "orthonormal", "--activation", "relu", "--for", "k in {16, 32, 64, 128, 256}",
        "--for", "xi = sqrt(k)/2", "--for", "d = k + 1", "--prob", ">= 0.9 over c, c_hat", "--draws", "200"]),
    "proposition-23": ("fails", [
        "abs(h(m))*sqrt(1 - m**2) <= C_sigma*lam_max**2*k*xi**2/(1 + xi**2/k)",
        "--family", "orthonormal", "--activation", "relu", "--for", "k in 1..4", "--for", "xi in [0.01, 3]",
        "--for", "m in [-1, 1]"]),
    "remark-9": ("fails", [
        "abs(g1 + g1**2 - g2 - g2**2) <= 2*Max(abs(g1), abs(g2))*2*abs(g1 - g2)",
        "--for", "g1 in [-1, 1]", "--for", "g2 in [-1, 1]"]),
    "claim-4-proof": ("fails", [
        "Sum((s+1)*mu(s+1)**2*(k/(k+1))**(s+1), s, 0, 5) >= Sum((s+1)*mu(s+1)**2/2**s, s, 0, 5)",
        "--activation", "linear", "he2", "he3", "--for", "k in 2..50"]),
    # Tight at m = -1 for small xi: the prover stalls there and a search proves nothing, so the
    # claim is inconclusive where the hand-written check (a search) says holds.
    "proposition-21": ("inconclusive", [
        "Phi(m) <= lam_max**2*Min(k**2, 4*k*xi**2)",
        "--family", "orthonormal", "separated", "--activation", "relu", "--for", "k in {1, 2, 4, 8}",
        "--for", "xi in [0.001, 1000]", "--for", "m in [-1, 1]", "--seeds", "0..1"]),
    # Five k and the worst case over seeds: the upper exponent interval reaches past +1/4, too
    # little power to call an O consistent (claims.asymptotic.judge_exponents).
    "lemma-17": ("inconclusive", [
        "grad_var(m)/d == O(lam_max**4*k**3*xi**2*Min(k, 4*xi**2)/(k + xi**2))",
        "--family", "orthonormal", "--activation", "relu", "--for", "xi = 1",
        "--for", "k in {2, 4, 8, 16, 32}", "--for", "m in {-0.9, 0, 0.9}", "--growth", "k"]),
    "assumption-5": ("consistent", [
        "gamma >= log(k)/sqrt(k)",
        "--family", "separated", "--for", "k in {4, 16, 64}", "--for", "d = Max(256, 16*k)",
        "--prob", ">= 0.9 over W"]),
    # An event over m in [0, 1] decided on a grid proves no event, so P >= 0.99 cannot be shown.
    "lemma-8": ("inconclusive", [
        "sign(h(0))*h(sign(h(0))*m) >= abs(h(0))/2",
        "--family", "separated", "--activation", "relu", "--for", "xi = 1", "--for", "k in {16, 64}",
        "--for", "d = 8*k", "--for", "m in [0, 1]", "--prob", ">= 0.99 over W, c, c_hat"]),
}
#: Checks that take more than a few seconds (``verify check`` timings): compared live only when slow.
SLOW_CHECKS = {"proposition-4", "lemma-6", "assumption-5"}
#: The default mode's budget per claim, in CPU seconds (the issue's "under 30 s on 2 cores").
CPU_SECONDS = 30.0


def run_json(argv: list[str]) -> tuple[int, dict]:
    """``verify ARGV --json`` in-process: (exit status, the printed Outcome)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([*argv, "--json"])
    return code, json.loads(out.getvalue())


@pytest.fixture(scope="module")
def results() -> dict:
    """Every dogfooded claim, run once through the command line: (exit status, outcome, CPU seconds)."""
    out = {}
    for check_id, (_, argv) in DOGFOOD.items():
        start = time.process_time()
        code, outcome = run_json(["claim", *argv])
        out[check_id] = (code, outcome, time.process_time() - start)
    return out


def test_the_dogfood_mixes_the_kinds_of_statement():
    texts = [argv[0] for _, argv in DOGFOOD.values()]
    assert len(DOGFOOD) >= 12
    assert sum(verdict == "fails" for verdict, _ in DOGFOOD.values()) >= 3
    assert any("==" in t and "Theta" not in t and "O(" not in t for t in texts)  # identities
    assert any(("<=" in t or ">=" in t) for t in texts)  # inequalities
    assert any("sign(" in t for t in texts)  # sign conditions
    assert any(order in t for t in texts for order in ("O(", "Theta(", "Omega("))  # orders
    assert sum("--prob" in argv for _, argv in DOGFOOD.values()) >= 3  # probabilities


@pytest.mark.extended
@pytest.mark.parametrize("check_id", sorted(DOGFOOD))
def test_claim_gets_the_verdict_of_its_check_in_under_30_cpu_seconds(check_id, results):
    expected, _ = DOGFOOD[check_id]
    code, outcome, seconds = results[check_id]
    assert outcome["verdict"] == expected, outcome["evidence"]
    assert code == {"fails": 1, "inconclusive": 3}.get(expected, 0)
    assert seconds < CPU_SECONDS, f"{check_id}: {seconds:.1f} s of CPU"


@pytest.mark.parametrize("check_id", [pytest.param(c, marks=pytest.mark.slow) if c in SLOW_CHECKS else c
                                      for c in sorted(DOGFOOD)])
@pytest.mark.extended
def test_claim_agrees_with_the_hand_written_check_run_now(check_id, results):
    """The claim never contradicts the check.  It may be weaker (inconclusive where the check, with
    its own proof or search, decides), and a claim proved on its configurations may hold where the
    check is only consistent because its scope is a proxy (Prop. 4: the series identity proved
    exactly up to a degree, measured beyond it); a fail on one side is a fail on the other."""
    from verify.checks import run_check

    claimed, checked = results[check_id][1]["verdict"], run_check(check_id).verdict.value
    if claimed == "inconclusive":
        assert checked in ("holds", "consistent", "inconclusive")
    elif claimed in ("holds", "consistent"):
        assert checked in ("holds", "consistent")
    else:
        assert claimed == checked


@pytest.mark.extended
@pytest.mark.parametrize("check_id", sorted(c for c, (verdict, _) in DOGFOOD.items() if verdict == "fails"))
def test_every_printed_counterexample_reproduces_with_its_rerun_command(check_id, results):
    _, outcome, _ = results[check_id]
    rerun = outcome["counterexample"]["rerun"]
    argv = shlex.split(rerun)
    assert argv[:2] == ["verify", "claim"]
    code, again = run_json(argv[1:])
    assert code == 1 and again["verdict"] == "fails"
    drop = ("rerun",)
    assert {k: v for k, v in again["counterexample"].items() if k not in drop} == \
        {k: v for k, v in outcome["counterexample"].items() if k not in drop}


def test_the_readme_example_fails_and_its_rerun_reproduces():
    argv = ["claim", "h(0) >= C_sigma*xi**2/(k+xi**2)", "--family", "orthonormal", "--for", "k in 1..32",
            "--activation", "relu"]
    code, outcome = run_json(argv)
    assert code == 1 and outcome["verdict"] == "fails"
    _, again = run_json(shlex.split(outcome["counterexample"]["rerun"])[1:])
    assert again["counterexample"] | {"rerun": None} == outcome["counterexample"] | {"rerun": None}


#: One failing claim per way of failing (each step, each mode), beyond the dogfood's nine.
FAILURES = {
    "symbolic-one-variable": ["Kp(rho) >= 0", "--activation", "he2", "--for", "rho in [-1, 1]"],
    "symbolic-identity": ["h(m) == Kp(m)", "--family", "glm", "--activation", "he2", "--for", "m in [-1, 1]"],
    "certified-point": ["abs(h(0)) >= 1", "--family", "orthonormal", "--for", "k = 2", "--seeds", "0"],
    "certified-interval": ["h(m) >= h(0) + 1/1000", "--family", "glm", "--activation", "relu",
                           "--for", "m in [0, 1]", "--seeds", "0"],
    "search-series": ["hcoef(1) <= 0", "--family", "orthonormal", "--for", "k = 1", "--seeds", "0"],
    "statistical": ["grad_var(m) == 4*(2 - 2*m)*(d - 1)", "--family", "glm", "--activation", "linear",
                    "--for", "d = 8", "--for", "m = 0.3", "--for", "k = 2", "--seeds", "0"],
    "probability-enumeration": ["h(0) > 0", "--family", "orthonormal", "--for", "k = 1", "--prob",
                                "> 1/2 over c, c_hat"],
    "probability-sampling": ["h(0) > 0", "--family", "orthonormal", "--for", "k = 9", "--prob",
                             ">= 0.9 over c, c_hat", "--draws", "100"],
    "order-fit": ["grad_var(0) == O(1)", "--family", "orthonormal", "--for", "d in 16..4096",
                  "--for", "k = 4", "--seeds", "0"],
    "order-limit": ["k*(k + 1) == O(k)", "--for", "k in 1..100"],
}


@pytest.mark.parametrize("name", sorted(FAILURES))
def test_every_way_of_failing_prints_a_counterexample_its_rerun_reproduces(name):
    code, outcome = run_json(["claim", *FAILURES[name]])
    assert code == 1 and outcome["verdict"] == "fails", outcome["evidence"]
    code, again = run_json(shlex.split(outcome["counterexample"]["rerun"])[1:])
    assert code == 1 and again["verdict"] == "fails"
    assert again["counterexample"] | {"rerun": None} == outcome["counterexample"] | {"rerun": None}
