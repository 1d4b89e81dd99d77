"""Online SGD: reduced vs full engine, SGD vs the drift of eq. (6), divergence, determinism.

Two-sample tests: ``scipy.stats.ks_2samp`` on m_T (and ⟨ĉ_T, c⟩ where ĉ is trained) over
256 replicas per engine, independent streams.  Under the null hypothesis (the reduced
chain has the law of the full one, as :mod:`verify.simulate.reduced` proves) the p-value
is uniform, so the threshold p ≥ 1e-6 makes a false failure rarer than one in a million;
the seeds are fixed, so the tests are deterministic.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from scipy.stats import ks_2samp

from verify.base.errors import ConvergenceError, InvalidParameterError
from verify.model import population
from verify.model.instance import glm, orthonormal, separated
from verify.simulate import drift_map, drift_ode, load_trajectory, save_trajectory, simulate
from verify.simulate.sgd import _progress

P_MIN = 1e-6
Z = 5.3  # two-sided normal tail ≈ 1.2e-7


def assert_same_law(a: np.ndarray, b: np.ndarray) -> None:
    p = ks_2samp(a, b).pvalue
    assert p >= P_MIN, (p, np.quantile(a, [0.1, 0.5, 0.9]), np.quantile(b, [0.1, 0.5, 0.9]))


def both_engines(inst, **kw):
    return [simulate(inst, engine=engine, replicas=256, seed=seed, loss_samples=0, **kw)
            for engine, seed in (("full", 1), ("reduced", 2))]


def rising_instance():
    """k = 4, d = 40 with h > 0 on [−1, 1] (ĉ flipped from seed 2, where h < 0 throughout)."""
    inst = orthonormal(4, 40, 1.0, "relu", seed=2)
    inst = dataclasses.replace(inst, c_hat=-inst.c_hat, u_hat=-inst.u_hat)
    assert (population.h(inst, np.linspace(-1, 1, 21)) > 0).all()
    return inst


def test_reduced_and_full_engines_agree_cheap():
    full, reduced = both_engines(rising_instance(), mode="frozen", steps=600, lr=0.1, record_every=300)
    for run in (full, reduced):
        assert abs(np.median(run.m[0])) < 0.1 and np.median(run.m[-1]) > 0.8
    for i in range(1, len(full.steps)):
        assert_same_law(full.m[i], reduced.m[i])


_D200 = dict(k=8, d=200, xi=1.0, activation="relu", seed=1)
#: (mode, instance, lr, steps, minimum median |m_T|).  The linearized student learns only
#: at small ξ (Fig. 3(a)'s point is that at ξ = Θ(√k) it does not), hence ξ = 0.3 there;
#: for the tilted teacher (α = 0.5) with frozen, misspecified ĉ the overlap settles near 0.8.
SLOW_CASES = [
    ("frozen", lambda: orthonormal(**_D200), 0.1, 6000, 0.8),
    ("joint", lambda: orthonormal(**_D200), 0.2, 6000, 0.8),
    ("unconstrained", lambda: orthonormal(**_D200), 0.2, 6000, 0.8),
    ("nonorthogonal", lambda: separated(**_D200, alpha=0.5), 0.05, 8000, 0.7),
    ("linearized", lambda: orthonormal(**(_D200 | {"xi": 0.3})), 2.0, 6000, 0.8),
    ("scratch", lambda: glm(8, 200, math.sqrt(8), "relu", seed=1), 0.002, 4000, 0.8),
]


@pytest.mark.slow
@pytest.mark.parametrize("mode,make,lr,steps,progress", SLOW_CASES, ids=[c[0] for c in SLOW_CASES])
def test_reduced_and_full_engines_agree_at_d_200(mode, make, lr, steps, progress):
    full, reduced = both_engines(make(), mode=mode, steps=steps, lr=lr, record_every=steps // 2)
    for run in (full, reduced):
        assert np.median(np.abs(run.m[0])) < 0.15
        assert np.median(np.abs(run.m[-1])) > progress
    assert_same_law(full.m[-1], reduced.m[-1])
    assert_same_law(full.m[1], reduced.m[1])
    if mode in ("joint", "unconstrained", "linearized"):
        assert_same_law(full.c_overlap[-1], reduced.c_overlap[-1])


def test_reduced_and_full_agree_in_joint_mode_cheap():
    inst = rising_instance()
    full, reduced = both_engines(inst, mode="joint", steps=300, lr=0.1, record_every=300)
    assert_same_law(full.m[-1], reduced.m[-1])
    assert_same_law(full.c_overlap[-1], reduced.c_overlap[-1])


def test_sgd_mean_follows_the_drift():
    """Small η: the replica mean of m_t against eq. (6) from the same m_0.

    Error model: the 256 replicas are independent, so the mean has standard error
    s_t/16; the bias of eq. (6) (it drops the O(η² d) normalisation term) is
    ≈ η d E[κ²]/(2h) of the drift, about 1% here, far below 5.3 SE."""
    inst = orthonormal(8, 64, 1.0, "relu", seed=1)
    lr, steps = 0.002, 10_000
    run = simulate(inst, mode="frozen", steps=steps, lr=lr, replicas=256, seed=3, m0=0.1,
                   record_every=steps // 5, loss_samples=0)
    drift = drift_map(inst, 0.1, lr, steps)
    mean, se = run.m.mean(axis=1), run.m.std(axis=1, ddof=1) / math.sqrt(256)
    assert drift.m[-1] - drift.m[0] > 0.05  # the drift moves m by many standard errors
    np.testing.assert_array_less(np.abs(mean - drift.m[run.steps])[1:], Z * se[1:])


@pytest.mark.extended
def test_drift_map_and_ode_agree_and_report_recovery():
    inst = orthonormal(8, 64, 1.0, "relu", seed=1)
    discrete = drift_map(inst, 0.05, 0.01, 40_000, eps=0.05)
    ode = drift_ode(inst, 0.05, 0.01, 40_000, eps=0.05)
    assert discrete.weak_step is not None and discrete.strong_step is not None
    assert ode.weak_step == pytest.approx(discrete.weak_step, rel=0.01)
    assert ode.strong_step == pytest.approx(discrete.strong_step, rel=0.01)
    assert discrete.weak_step < discrete.strong_step
    np.testing.assert_allclose(np.interp(ode.steps, discrete.steps, discrete.m), ode.m, atol=2e-3)


@pytest.mark.parametrize("engine", ["full", "reduced"])
def test_divergence_names_the_step_and_the_replica(engine):
    inst = orthonormal(4, 20, 3.0, "he3", seed=0)
    with pytest.raises(ConvergenceError, match=r"diverged at step 1 in replica 0"):
        simulate(inst, mode="joint", steps=20, lr=1e308, replicas=4, engine=engine)


def test_an_injected_nan_is_reported_not_written(monkeypatch, tmp_path):
    from verify.simulate.reduced import ReducedEngine

    original = ReducedEngine.step
    calls = {"n": 0}

    def poisoned(self, eta, eta_c=None):
        norm, c_norm = original(self, eta, eta_c)
        calls["n"] += 1
        if calls["n"] == 3:
            self.a[2] = np.nan
            norm = norm.copy()
            norm[2] = np.nan
        return norm, c_norm

    monkeypatch.setattr(ReducedEngine, "step", poisoned)
    with pytest.raises(ConvergenceError, match="diverged at step 3 in replica 2"):
        simulate(rising_instance(), steps=10, lr=0.01, replicas=4, engine="reduced")


@pytest.mark.parametrize("engine", ["full", "reduced"])
def test_same_seed_same_run_and_replicas_do_not_interact(engine):
    inst = rising_instance()
    kw = dict(mode="joint", steps=50, lr=0.05, engine=engine, record_every=10)
    a = simulate(inst, replicas=3, seed=7, **kw)
    b = simulate(inst, replicas=3, seed=7, **kw)
    c = simulate(inst, replicas=5, seed=7, **kw)
    np.testing.assert_array_equal(a.m, b.m)
    np.testing.assert_array_equal(a.loss, b.loss)
    # replica r uses child r of the seed only; BLAS sums in an order that depends on the
    # number of rows, so with more replicas the full engine agrees to rounding, not bitwise
    np.testing.assert_allclose(a.m, c.m[:, :3], rtol=0, atol=1e-10)
    assert not np.array_equal(a.m, simulate(inst, replicas=3, seed=8, **kw).m)


def test_records_and_loss_methods():
    inst = rising_instance()
    run = simulate(inst, mode="frozen", steps=25, lr=0.05, replicas=2, record_every=10)
    assert list(run.steps) == [0, 10, 20, 25]
    np.testing.assert_allclose(run.loss, population.loss(inst, run.m), rtol=1e-12)
    assert run.loss_se is None and run.meta["loss_method"].startswith("closed form")
    mc = simulate(inst, mode="unconstrained", steps=5, lr=0.05, replicas=2, loss_samples=50)
    assert mc.loss_se is not None and np.isfinite(mc.loss).all()
    assert "monte carlo" in mc.meta["loss_method"]
    none = simulate(inst, mode="linearized", steps=5, lr=0.05, replicas=2, loss_samples=0)
    assert none.loss is None and "linearized" in none.meta["loss_method"]


@pytest.mark.parametrize("suffix", [".csv", ".npz"])
def test_trajectory_files_round_trip(tmp_path, suffix):
    run = simulate(rising_instance(), mode="unconstrained", steps=20, lr=0.05, replicas=3,
                   record_every=5, loss_samples=20)
    path = tmp_path / f"run{suffix}"
    save_trajectory(run, path)
    back = load_trajectory(path)
    for name in ("steps", "m", "c_overlap", "loss", "loss_se"):
        np.testing.assert_array_equal(getattr(back, name), getattr(run, name))
    assert back.meta == run.meta


@pytest.mark.parametrize("kwargs,fragment", [
    ({"lr": 0.0}, "lr must be a finite number > 0"),
    ({"lr": float("nan")}, "lr must be a finite number > 0"),
    ({"steps": 0}, "steps must be an integer >= 1"),
    ({"steps": 2.5}, "steps must be an integer >= 1, got 2.5 \\(a float is not a count\\)"),
    ({"replicas": 0}, "replicas must be an integer >= 1"),
    ({"mode": "adam"}, "unknown mode"),
    ({"engine": "gpu"}, "unknown engine"),
    ({"mode": "nonorthogonal"}, "needs an instance whose u has a component in span W"),
    ({"init": "zero"}, "init must be one of"),
])
def test_bad_simulation_input(kwargs, fragment):
    args = {"mode": "frozen", "steps": 5, "lr": 0.1, "replicas": 2} | kwargs
    with pytest.raises(InvalidParameterError, match=fragment):
        simulate(rising_instance(), **args)


def test_linearized_mode_needs_a_base_model():
    with pytest.raises(InvalidParameterError, match="expands around the base model"):
        simulate(glm(4, 20, 2.0, "relu", seed=0), mode="linearized", steps=5, lr=0.1)


def test_progress_bar_only_on_a_terminal(monkeypatch):
    import sys

    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    assert _progress(10, quiet=False, label="x") is None
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert _progress(10, quiet=True, label="x") is None
    bar = _progress(10, quiet=False, label="x")
    assert bar is not None
    bar.close()


def test_a_mode_that_is_not_exact_on_the_reduced_engine_is_refused():
    from verify.simulate.modes import Mode, check_engine

    inexact = Mode("multipass", train_c=False, constrained=True, reduced_exact=False)
    check_engine(inexact, "full")
    with pytest.raises(InvalidParameterError, match="not exact on the reduced engine"):
        check_engine(inexact, "reduced")
