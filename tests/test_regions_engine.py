"""The region study's engines: ĉ's population gradient, the population flow, first-passage runs.

Tolerances: finite differences of Φ in float64 with step 1e-6 (truncation ~1e-12 · Φ''',
rounding ~1e-16/1e-6 = 1e-10 relative): 1e-8 absolute on gradients of size 1e-3–1e-1.
Monte-Carlo means: Z_CRIT = 5.33 standard errors (a false failure is rarer than 1e-7).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from verify.base.errors import InvalidParameterError
from verify.model import instance as instances
from verify.model.population import population
from verify.simulate import simulate
from verify.simulate.drift import drift_ode, population_flow
from verify.simulate.model import terms
from verify.simulate.modes import MODES
from verify.simulate.passage import Passage, first_passage, run_passages
from verify.simulate.problem import build_problem, student_direction
from verify.simulate.reduced import projections
from verify.verdict.statistics import Z_CRIT

ACTIVATIONS = ("relu", "sigmoid", "he3", "quadratic")


def _instance(activation: str, k: int = 6, d: int = 50, xi: float = 1.3, seed: int = 2):
    return instances.separated(k, d, xi, activation, seed=seed, quantized=False)


@pytest.mark.parametrize("activation", ACTIVATIONS)
@pytest.mark.parametrize("m", [-0.6, 0.0, 0.37, 0.95])
def test_c_gradient_matches_central_differences(activation, m):
    numbers = _instance(activation).numbers()
    grad = population(numbers).c_gradient(m)
    eps = 1e-6
    fd = np.empty(numbers.k)
    for j in range(numbers.k):
        up, down = (np.array(numbers.c_hat, dtype=float) for _ in range(2))
        up[j] += eps
        down[j] -= eps
        fd[j] = (
            population(dataclasses.replace(numbers, c_hat=up)).loss(m)
            - population(dataclasses.replace(numbers, c_hat=down)).loss(m)
        ) / (2 * eps)
    np.testing.assert_allclose(grad, fd, atol=1e-8, rtol=0)


@pytest.mark.parametrize("activation", ["relu", "he3"])
def test_c_gradient_is_the_mean_of_the_per_sample_gradient(activation):
    """E[∂L/∂ĉ] over x ~ N(0, I) (the simulator's per-sample formula) = ∂Φ/∂ĉ."""
    inst, m, n = _instance(activation), 0.4, 400_000
    problem = build_problem(inst, MODES["joint"], False)
    _, a, beta = student_direction(problem, m)
    rng = np.random.default_rng(11)
    z, b = rng.standard_normal((n, problem.p)), rng.standard_normal(n)
    zw, zu, zh, _ = projections(problem, z, b, a, beta, constrained=True)
    gc = terms(problem, zw, zu, zh, None, problem.c_hat).gc
    mean, se = gc.mean(axis=0), gc.std(axis=0, ddof=1) / math.sqrt(n)
    exact = population(inst).c_gradient(m)
    assert np.all(np.abs(mean - exact) <= Z_CRIT * se), (mean, exact, se)


def test_frozen_flow_agrees_with_the_drift_ode():
    """c_rate = 0 is eq. (6): the same weak-recovery time as drift_ode (τ = η t)."""
    inst = _instance("relu", d=200)
    h0 = float(population(inst).h(0.0))
    m0 = math.copysign(1, h0) / math.sqrt(inst.d)
    flow = population_flow(inst, m0, 0.0, (0.5,), rtol=1e-10)
    lr = 1e-2
    path = drift_ode(inst, m0, lr, int(10 * flow.tau[0] / lr), points=2)
    assert flow.tau[0] / lr == pytest.approx(path.weak_step, rel=1e-6)


def test_joint_flow_predicts_sgd_at_a_small_step():
    """Mean SGD time over 16 chains at η d = 0.3 within 10% of τ/η (measured gap ~1%: the
    noise's share shrinks with η; the chains' spread is ~5%, so 10% is ≥ 7 standard errors)."""
    inst = _instance("he3", k=6, d=60, xi=1.0)
    h0 = float(population(inst).h(0.0))
    m0 = math.copysign(1, h0) / math.sqrt(inst.d)
    tau = population_flow(inst, m0, 1.0, (0.5,)).tau[0]
    lr = 0.3 / inst.d
    jobs = [Passage(inst, "joint", lr, math.ceil(4 * tau / lr), (0.5,), seed, m0=m0) for seed in range(16)]
    times = [r["times"][0] for r in run_passages(jobs)]
    assert all(math.isfinite(t) for t in times)
    assert np.mean(times) == pytest.approx(tau / lr, rel=0.10)


def test_flow_rejects_bad_arguments():
    inst = _instance("relu")
    with pytest.raises(InvalidParameterError, match="m0"):
        population_flow(inst, 1.5, 1.0)
    with pytest.raises(InvalidParameterError, match="c_rate"):
        population_flow(inst, 0.1, -1.0)
    with pytest.raises(InvalidParameterError, match="levels"):
        population_flow(inst, 0.1, 1.0, (1.0,))


def test_passages_do_not_depend_on_threads_or_order():
    insts = [_instance(a, d=80) for a in ("relu", "quadratic")]
    jobs = [
        Passage(i, mode, 3 / 80, 20_000, (0.5, 0.9), seed, m0=0.1)
        for i in insts
        for mode in ("joint", "frozen")
        for seed in (1, 2)
    ]
    one = run_passages(jobs, threads=1)
    assert run_passages(jobs, threads=2) == one
    assert run_passages(jobs[::-1], threads=2) == one[::-1]


def test_a_passage_sees_the_samples_of_simulate():
    """Same seed, start and records: the first recorded |m| >= 1/2 is the simulate run's."""
    inst = _instance("relu", d=80)
    job = Passage(inst, "joint", 2 / 80, 40_000, (0.5,), seed=5, m0=0.1)
    res = first_passage(job)
    tr = simulate(
        inst,
        mode="joint",
        steps=40_000,
        lr=2 / 80,
        seed=5,
        m0=0.1,
        record_every=100,
        quiet=True,
        loss_samples=0,
    )
    hit = np.flatnonzero(np.abs(tr.m[:, 0]) >= 0.5)
    assert res["times"][0] == float(tr.steps[hit[0]])
    assert res["samples"] == res["times"][0]  # stopped at the first record past the top level


def test_a_diverging_passage_is_reported_not_raised():
    inst = _instance("quadratic", d=40)
    res = first_passage(Passage(inst, "joint", 1e200, 1000, (0.5,), seed=1, m0=0.1))
    assert res["diverged"] or math.isinf(res["times"][0])


@pytest.mark.parametrize("value", ["abc", "0", "-2", "1.5", " "])
def test_a_bad_thread_count_is_one_named_error(monkeypatch, value):
    # VERIFY_THREADS=abc used to end in a ValueError traceback (issue 38)
    from verify.base.errors import InvalidParameterError
    from verify.simulate.passage import default_threads

    monkeypatch.setenv("VERIFY_THREADS", value)
    with pytest.raises(InvalidParameterError, match="VERIFY_THREADS"):
        default_threads()
    monkeypatch.setenv("VERIFY_THREADS", "3")
    assert default_threads() == 3
