"""The compiled engine (:mod:`verify.simulate.compiled`): the reduced chain's step, law and streams.

- *Same samples, same step.*  With the same seed the compiled and the NumPy reduced engine
  draw the same random numbers in the same order, so their trajectories agree to rounding:
  in every mode, for B = 1 and B > 1, for every compiled activation, and at the frame's
  edges (d = p: no direction outside the frame; d = p + 1: no χ² variable).
- *Same law.*  Two-sample KS (``scipy.stats.ks_2samp``) on m_t and, where ĉ is trained,
  ⟨ĉ_t, c⟩ at several times, against the NumPy reduced engine and the full engine in R^d,
  independent seeds.  Under the null hypothesis (both run the chain of
  :mod:`verify.simulate.reduced`) the p-value is uniform, so the threshold p ≥ 1e-6
  (``assert_same_law``) makes a false failure rarer than one in a million; the seeds are
  fixed, so the tests are deterministic.  A control shows that the comparison rejects a step
  size 25 % off, so a pass is not for want of power.
- Determinism (runs, replicas, chunks, the sweep's process pool), the fallback for an
  activation without a compiled evaluator, divergence reports and bad input, as for the
  NumPy engines; the on-disk kernel cache in a read-only install.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from scipy.special import ndtr
from scipy.stats import ks_2samp

from tests.cli_helpers import assert_one_line_usage_error, run_verify
from tests.test_simulate_batch import runs
from tests.test_simulate_sgd import P_MIN, assert_same_law, rising_instance
from verify.base.errors import ConvergenceError, InvalidParameterError
from verify.model.activations import BUILTINS, get_activation
from verify.model.instance import glm, orthonormal, save, separated
from verify.simulate import MODES, simulate
from verify.simulate import compiled as compiled_module
from verify.simulate.compiled import activation_code, evaluate, unsupported_reason
from verify.simulate.problem import build_problem

#: Compiled and NumPy trajectories from the same samples: both evaluate the same formulas
#: and differ only in the order of their sums (measured ≤ 3e-15 over these runs); a wrong
#: term would be an O(η) error per step.  1e-12 leaves a margin of ~300 over rounding.
SAME_SAMPLES_ATOL = 1e-12
#: The activations against the registry's NumPy twins: the same stable formulas with the C
#: library's exp/erf/erfc/tanh in place of SciPy's, each within ~1 ulp, times the condition
#: number of the argument rounding both twins do (x² for e^{−x²} and for Φ(x) = erfc(−x/√2)/2
#: in the tail): |difference| ≤ ULPS·ε·(1 + x²)·|σ(x)|.  Measured: ≤ 1.9 ε at |x| ≤ 1.
ACTIVATION_ULPS = 4
#: Pre-activations where both twins stay in the normal range: beyond |x| ≈ 37 the Gaussian
#: factor of erf', gelu, gelu' is subnormal (absolute error below 1e-300); the far points
#: check overflow handling (finite where the registry is, to 4 ulp).
ACTIVATION_GRID = np.concatenate([np.linspace(-30.0, 30.0, 6001), [0.0, -0.0, 1e-300, -1e-300]])
FAR_POINTS = np.array([-1e10, -745.0, -700.0, 700.0, 745.0, 1e10])


_JOINT = dict(k=4, d=40, xi=1.0, activation="relu", seed=3, quantized=False)
#: (mode, instance, lr, steps): small runs that move (median |m_T| > 0.5, ĉ moves where
#: trained), so the law comparisons have something to compare.
SMALL_CASES = [
    ("frozen", rising_instance, 0.1, 600),
    ("joint", lambda: orthonormal(**_JOINT), 0.2, 1200),
    ("unconstrained", lambda: orthonormal(**_JOINT), 0.2, 1200),
    ("nonorthogonal", lambda: separated(4, 40, 1.0, "relu", seed=2, alpha=0.5), 0.2, 600),
    ("linearized", lambda: orthonormal(**(_JOINT | {"xi": 0.3})), 2.0, 800),
    ("scratch", lambda: glm(4, 40, 2.0, "relu", seed=1), 0.01, 800),
]
IDS = [case[0] for case in SMALL_CASES]


def assert_same_samples(a, b) -> None:
    """Two runs that saw the same samples: equal records up to rounding."""
    assert a.meta["engine"] != b.meta["engine"]
    np.testing.assert_array_equal(a.steps, b.steps)
    np.testing.assert_allclose(a.m, b.m, rtol=0, atol=SAME_SAMPLES_ATOL)
    np.testing.assert_allclose(a.c_overlap, b.c_overlap, rtol=0, atol=SAME_SAMPLES_ATOL)
    assert (a.loss is None) == (b.loss is None)
    if a.loss is not None:
        # absolute: near its minimum the closed-form Φ is a difference of O(1) terms
        scale = max(1.0, float(np.abs(b.loss).max()))
        np.testing.assert_allclose(a.loss, b.loss, rtol=0, atol=SAME_SAMPLES_ATOL * scale)


@pytest.mark.parametrize("name", list(BUILTINS))
def test_compiled_activations_match_the_registry(name):
    code, degree = activation_code(name)
    act = get_activation(name)
    eps, tiny = np.finfo(float).eps, np.finfo(float).tiny
    x = ACTIVATION_GRID
    values, slopes = evaluate(code, degree, x)
    slope_scale = np.abs(act.derivative(x))
    if name == "gelu":  # Φ(x) + xφ(x) cancels near its root x ≈ −0.75: the scale is its terms'
        slope_scale = ndtr(x) + np.abs(x) * np.exp(-(x**2) / 2) / math.sqrt(2 * math.pi)
    for ours, theirs, scale in ((values, act(x), np.abs(act(x))), (slopes, act.derivative(x), slope_scale)):
        bound = ACTIVATION_ULPS * eps * (1 + x**2) * scale + tiny
        assert np.all(np.abs(ours - theirs) <= bound), x[np.argmax(np.abs(ours - theirs) / bound)]
    values, slopes = evaluate(code, degree, FAR_POINTS)
    with np.errstate(all="ignore"):
        for ours, theirs in ((values, act(FAR_POINTS)), (slopes, act.derivative(FAR_POINTS))):
            np.testing.assert_allclose(ours, theirs, rtol=ACTIVATION_ULPS * eps, atol=1e-300)


def test_every_registry_activation_is_compiled_and_expressions_are_not():
    for name in BUILTINS:
        assert activation_code(name) is not None, name
    assert activation_code("he9") is None and activation_code("expr:x**3") is None


@pytest.mark.parametrize("batch", [1, 4])
@pytest.mark.parametrize("mode,make,lr,steps", SMALL_CASES, ids=IDS)
def test_same_seed_same_samples_as_the_numpy_engine(mode, make, lr, steps, batch):
    kw = dict(mode=mode, steps=steps, lr=lr, replicas=6, seed=5, record_every=batch * (steps // 4 // batch),
              loss_samples=40, batch=batch)
    compiled, reduced = (simulate(make(), engine=e, **kw) for e in ("compiled", "reduced"))
    assert compiled.meta["engine"] == "compiled" and compiled.meta["engine_fallback"] is None
    assert_same_samples(compiled, reduced)


@pytest.mark.extended
@pytest.mark.parametrize("name", [n for n in BUILTINS if n not in ("relu",)])
def test_same_samples_for_every_compiled_activation(name):
    """Joint training (every term of the student's gradient, ĉ included) in each activation."""
    inst = orthonormal(**(_JOINT | {"activation": name}))
    kw = dict(mode="joint", steps=200, lr=0.02, replicas=3, seed=1, record_every=50, loss_samples=0)
    assert_same_samples(*(simulate(inst, engine=e, **kw) for e in ("compiled", "reduced")))


#: Scaled rows (Appendix B as printed, ``row_scale`` r = k/(k+ξ²)): every mode whose gradient the
#: row scale changes, with relu and with sigmoid (non-homogeneous: r changes the pre-activations).
ROW_SCALE_CASES = [(mode, act) for mode in ("frozen", "joint", "unconstrained", "nonorthogonal", "linearized")
                   for act in ("relu", "sigmoid")]


@pytest.mark.parametrize("mode,activation", ROW_SCALE_CASES)
def test_same_samples_as_the_numpy_engine_with_scaled_rows(mode, activation):
    xi, k = 2.0, 4
    inst = (separated(k, 40, xi, activation, seed=2, alpha=0.5) if mode == "nonorthogonal"
            else orthonormal(**(_JOINT | {"xi": xi, "activation": activation})))
    kw = dict(mode=mode, steps=400, lr=0.5, replicas=4, seed=6, record_every=100, loss_samples=40,
              appendix_b_scaling=True, row_scale=k / (k + xi**2))
    compiled, reduced = (simulate(inst, engine=e, **kw) for e in ("compiled", "reduced"))
    assert compiled.meta["row_scale"] == k / (k + xi**2)
    assert np.abs(compiled.m[-1] - compiled.m[0]).max() > 0.05  # the runs move
    assert_same_samples(compiled, reduced)
    plain = simulate(inst, engine="compiled", **(kw | {"row_scale": None}))
    assert np.abs(plain.m[-1] - compiled.m[-1]).max() > 1e-3  # the scale is not ignored


@pytest.mark.parametrize("d", [5, 6])  # k = 4: p = 5, so d = p (no e_t, no χ²) and d = p + 1 (no χ²)
@pytest.mark.parametrize("mode", ["frozen", "unconstrained"])
def test_same_samples_at_the_edges_of_the_frame(d, mode):
    inst = orthonormal(4, d, 1.0, "tanh", seed=2, quantized=False)
    kw = dict(mode=mode, steps=100, lr=0.05, replicas=3, seed=4, record_every=25, loss_samples=0)
    assert_same_samples(*(simulate(inst, engine=e, **kw) for e in ("compiled", "reduced")))


@pytest.mark.extended
@pytest.mark.parametrize("mode,make,lr,steps", SMALL_CASES, ids=IDS)
def test_the_compiled_chain_has_the_law_of_the_reduced_and_full_engines(mode, make, lr, steps):
    full, reduced, compiled = runs(make(), [("full", 1, 1), ("reduced", 1, 2), ("compiled", 1, 3)],
                                   mode=mode, steps=steps, lr=lr, record_every=steps // 4)
    assert np.median(np.abs(compiled.m[-1])) > 0.5  # the runs move: there is something to compare
    for reference in (full, reduced):
        for i in range(1, len(compiled.steps)):
            assert_same_law(reference.m[i], compiled.m[i])
            if MODES[mode].train_c:
                assert_same_law(reference.c_overlap[i], compiled.c_overlap[i])


def test_the_compiled_minibatch_chain_has_the_law_of_minibatch_sgd_in_r_d():
    full, compiled = runs(orthonormal(**_JOINT), [("full", 8, 1), ("compiled", 8, 2)], mode="joint",
                          steps=1200, lr=0.2, record_every=400)
    for i in (1, 2, 3):
        assert_same_law(full.m[i], compiled.m[i])
        assert_same_law(full.c_overlap[i], compiled.c_overlap[i])


def test_the_law_comparison_rejects_a_step_25_percent_off():
    """Control: at these sizes KS resolves a 25 % error in η (p ≈ 1e-9 at the last record)."""
    inst = orthonormal(**_JOINT)
    kw = dict(mode="joint", steps=1200, record_every=300, replicas=256, loss_samples=0, engine="compiled")
    right, wrong = simulate(inst, lr=0.2, seed=1, **kw), simulate(inst, lr=0.25, seed=2, **kw)
    assert ks_2samp(np.abs(right.m[-1]), np.abs(wrong.m[-1])).pvalue < P_MIN


_D2000 = dict(k=50, d=2000, xi=1.0, activation="relu", seed=1, quantized=False)
#: (mode, instance, lr) at the paper's size, from m_0 = 0.3: in 2000 steps the law of m_t
#: (and of ⟨ĉ_t, c⟩ in 0.07 → ~0.2 where trained) moves by many of its standard deviations,
#: the renormalisation term η² d E‖g‖²/2 (the χ²_{d−p−1} variable) as much as the drift.
SLOW_CASES = [
    ("frozen", lambda: separated(**_D2000), 1.0),
    ("joint", lambda: separated(**_D2000), 1.0),
    ("unconstrained", lambda: separated(**_D2000), 1.0),
    ("nonorthogonal", lambda: separated(**_D2000, alpha=0.5), 1.0),
    ("linearized", lambda: separated(**(_D2000 | {"xi": 0.3})), 10.0),
    ("scratch", lambda: glm(50, 2000, math.sqrt(50), "relu", seed=1), 0.001),
]


@pytest.mark.slow
@pytest.mark.parametrize("mode,make,lr", SLOW_CASES, ids=[c[0] for c in SLOW_CASES])
def test_the_compiled_chain_has_the_law_of_the_full_engine_at_d_2000(mode, make, lr):
    """128 replicas per engine, 2000 online steps (10–25 s per mode, nearly all the full engine's)."""
    inst = make()
    trajectories = [simulate(inst, mode=mode, steps=2000, lr=lr, replicas=128, engine=engine, seed=seed,
                             m0=0.3, record_every=1000, loss_samples=0)
                    for engine, seed in (("full", 1), ("reduced", 2), ("compiled", 3))]
    full, reduced, compiled = trajectories
    assert np.all(compiled.m[0] == 0.3)
    assert abs(np.median(compiled.m[-1]) - 0.3) > 5 * np.std(compiled.m[-1]) / math.sqrt(128)
    for reference in (full, reduced):
        for i in (1, 2):
            assert_same_law(reference.m[i], compiled.m[i])
            if MODES[mode].train_c:
                assert_same_law(reference.c_overlap[i], compiled.c_overlap[i])


# --- determinism ---------------------------------------------------------------------
def test_same_seed_same_trajectory_bit_for_bit_and_replicas_do_not_interact():
    inst = orthonormal(**_JOINT)
    kw = dict(mode="unconstrained", steps=300, lr=0.2, engine="compiled", record_every=30, loss_samples=20)
    a, b = simulate(inst, replicas=3, seed=7, **kw), simulate(inst, replicas=3, seed=7, **kw)
    wide = simulate(inst, replicas=5, seed=7, **kw)
    for name in ("m", "c_overlap", "loss", "loss_se"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    # replica r draws from child r of the seed only, and each replica runs its own kernel call
    np.testing.assert_array_equal(a.m, wide.m[:, :3])
    np.testing.assert_array_equal(a.c_overlap, wide.c_overlap[:, :3])
    assert not np.array_equal(a.m, simulate(inst, replicas=3, seed=8, **kw).m)


def test_chunking_does_not_change_the_trajectory(monkeypatch):
    inst = orthonormal(**_JOINT)
    kw = dict(mode="joint", steps=500, lr=0.2, replicas=3, seed=2, engine="compiled", record_every=100,
              loss_samples=20)
    whole = simulate(inst, **kw)
    monkeypatch.setattr(compiled_module, "CHUNK_SAMPLES", 7)  # cuts records apart, mid-block
    monkeypatch.setattr(compiled_module, "STATE_BYTES", 1)  # one record per kernel call
    pieces = simulate(inst, **kw)
    for name in ("m", "c_overlap", "loss", "loss_se"):
        np.testing.assert_array_equal(getattr(whole, name), getattr(pieces, name))


def test_the_sweeps_process_pool_gives_the_same_trajectory():
    from verify.base.sweep import Task, run_sweep
    from verify.figures.common import sgd_task

    spec = {"kind": "orthonormal", **_JOINT}
    params = [dict(instance=spec, mode="joint", steps=400, lr=0.2, replicas=2, seed=seed, record_every=100)
              for seed in (1, 2)]
    pooled = run_sweep([Task(sgd_task, p) for p in params], workers=2, use_cache=False)
    for result, p in zip(pooled, params, strict=True):
        direct = simulate(orthonormal(**_JOINT), mode="joint", steps=400, lr=0.2, replicas=2, seed=p["seed"],
                          record_every=100, loss_samples=0, engine="compiled")
        np.testing.assert_array_equal(result["m"], direct.m)
        np.testing.assert_array_equal(result["c_overlap"], direct.c_overlap)


# --- engine choice, fallback, errors -----------------------------------------------------
def test_auto_is_compiled_online_and_numpy_for_minibatches():
    inst = rising_instance()
    online = simulate(inst, steps=16, lr=0.1, loss_samples=0)
    blocks = simulate(inst, steps=16, lr=0.1, loss_samples=0, batch=4)
    assert online.meta["engine"] == "compiled" and blocks.meta["engine"] == "reduced"
    assert online.meta["engine_fallback"] is None and blocks.meta["engine_fallback"] is None


@pytest.mark.parametrize("engine", ["compiled", "auto"])
def test_an_activation_without_a_compiled_evaluator_falls_back_and_says_so(engine):
    inst = orthonormal(4, 40, 1.0, "expr:x**3/6", seed=3)
    assert "no compiled evaluator" in unsupported_reason(build_problem(inst, MODES["joint"]))
    kw = dict(mode="joint", steps=60, lr=0.05, replicas=2, seed=3, record_every=20, loss_samples=0)
    run, reference = simulate(inst, engine=engine, **kw), simulate(inst, engine="reduced", **kw)
    assert run.meta["engine"] == "reduced"
    assert "expr:" in run.meta["engine_fallback"] and "NumPy reduced engine" in run.meta["engine_fallback"]
    np.testing.assert_array_equal(run.m, reference.m)


def test_the_command_line_reports_the_fallback(tmp_path, capsys):
    from verify.cli import main

    path = tmp_path / "inst.json"
    save(orthonormal(4, 20, 1.0, "expr:x**3/6", seed=3), path)
    out = tmp_path / "run.csv"
    assert main(["simulate", str(path), "--engine", "compiled", "--steps", "10", "--lr", "0.05",
                 "--quiet", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("note: activation 'expr:") and "NumPy reduced engine" in err


def _diverged_at(message: str) -> int:
    return int(re.search(r"diverged at step (\d+) in replica", message).group(1))


def _divergence_messages(inst, lr, monkeypatch, chunk_samples):
    """The ConvergenceError text of the NumPy engine, the compiled one, and the compiled one
    with kernel calls of at most ``chunk_samples`` updates."""
    messages = []
    for engine in ("reduced", "compiled"):
        with pytest.raises(ConvergenceError) as caught:
            simulate(inst, mode="joint", steps=400, lr=lr, replicas=8, engine=engine, loss_samples=0)
        messages.append(str(caught.value))
    with monkeypatch.context() as patch:
        patch.setattr(compiled_module, "CHUNK_SAMPLES", chunk_samples)
        with pytest.raises(ConvergenceError) as caught:
            simulate(inst, mode="joint", steps=400, lr=lr, replicas=8, engine="compiled", loss_samples=0)
    messages.append(str(caught.value))
    return messages


def test_divergence_at_the_first_step_is_reported_as_by_the_numpy_engine(monkeypatch):
    # eta*g overflows ||u_hat - eta*g||^2 in every replica at once: the first replica is named
    inst = orthonormal(4, 20, 1.0, "relu", seed=0, quantized=False)
    messages = _divergence_messages(inst, 1e200, monkeypatch, chunk_samples=1)
    assert "diverged at step 1 in replica 0" in messages[0]
    assert messages[0] == messages[1] == messages[2]


def test_a_later_divergence_is_reported_as_by_the_numpy_engine(monkeypatch):
    """Near the overflow edge (eta ~ sqrt(float max) = 1.3e154) the step at which a large
    sample first overflows depends on the last bits of the samples' arithmetic, which differ
    between machines (eta = 7e153 diverged at step 1 on one and at step 39 on another).  So
    the NumPy engine is the reference for the step, found on a ladder of eta, and the
    compiled engine must name the same step, replica and message, also when that step lies
    in a later kernel call."""
    inst = orthonormal(4, 20, 1.0, "relu", seed=0, quantized=False)
    steps = {}
    for lr in np.geomspace(5e153, 1.3e154, 8):
        try:
            simulate(inst, mode="joint", steps=400, lr=lr, replicas=8, engine="reduced", loss_samples=0)
        except ConvergenceError as error:
            steps[lr] = _diverged_at(str(error))
    later = {lr: step for lr, step in steps.items() if step > 1}
    assert later, f"no eta on the ladder diverged after step 1: {steps}"
    lr = max(later, key=later.get)
    messages = _divergence_messages(inst, lr, monkeypatch, chunk_samples=later[lr] // 2)
    assert _diverged_at(messages[0]) == later[lr]  # so the failing step is in the second call or later
    assert messages[0] == messages[1] == messages[2]


@pytest.mark.parametrize("kwargs", [
    {"lr": 0.0}, {"lr": float("nan")}, {"steps": 0}, {"steps": 2.5}, {"replicas": 0},
    {"mode": "adam"}, {"mode": "nonorthogonal"}, {"init": "zero"}, {"batch": 0},
    {"batch": 2, "steps": 5}, {"m0": 2.0},
])
def test_bad_input_gives_the_numpy_engines_error(kwargs):
    args = {"mode": "frozen", "steps": 5, "lr": 0.1, "replicas": 2} | kwargs
    messages = []
    for engine in ("reduced", "compiled"):
        with pytest.raises(InvalidParameterError) as caught:
            simulate(rising_instance(), engine=engine, **args)
        messages.append(str(caught.value))
    assert messages[0] == messages[1] and "\n" not in messages[0]


def test_an_unknown_engine_names_them_all():
    with pytest.raises(InvalidParameterError,
                       match="unknown engine 'gpu'; the engines are auto, compiled, full, reduced"):
        simulate(rising_instance(), engine="gpu")


@pytest.mark.parametrize("args,fragment", [
    (["--batch", "2"], "steps = 5 must be a multiple of batch = 2"),
    (["--mode", "nonorthogonal"], "needs an instance whose u has a component in span W"),
])
def test_the_command_line_keeps_one_line_errors_on_the_compiled_engine(tmp_path, args, fragment):
    path = tmp_path / "inst.json"
    save(orthonormal(4, 30, 1.0, "relu", seed=3), path)
    result = run_verify("simulate", str(path), "--engine", "compiled", "--steps", "5", "--lr", "0.1",
                        *args, "-o", str(tmp_path / "x.csv"))
    assert_one_line_usage_error(result, fragment)


# --- the kernel cache ------------------------------------------------------------------
_CACHE_PROBE = textwrap.dedent("""
    import json, os
    import numba.core.caching as caching

    # A read-only install: the package directory is not writable, only $ALLOWED is.
    allowed, ensure = os.environ["ALLOWED"], caching._CacheLocator.ensure_cache_path
    def read_only(self):
        if not self.get_cache_path().startswith(allowed):
            raise PermissionError("read-only file system")
        ensure(self)
    caching._CacheLocator.ensure_cache_path = read_only

    from verify.model.instance import orthonormal
    from verify.simulate import compiled, simulate
    run = simulate(orthonormal(4, 20, 1.0, "relu", seed=1), mode="joint", steps=20, lr=0.1,
                   engine="compiled", loss_samples=0)
    print(json.dumps({"dir": compiled._advance.stats.cache_path, "engine": run.meta["engine"],
                      "hits": sum(compiled._advance.stats.cache_hits.values())}))
""")


@pytest.mark.extended
@pytest.mark.parametrize("writable", ["user cache", "temporary directory"])
def test_kernels_are_cached_in_a_read_only_install(tmp_path, writable):
    """Two fresh interpreters: the first compiles into the one writable place, the second loads
    from there.  With a writable home that is numba's user cache ($XDG_CACHE_HOME/numba);
    without one, the temporary directory (:func:`verify.simulate.compiled.cached_jit`)."""
    env = {"TMPDIR": str(tmp_path / "tmp"), "XDG_CACHE_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    env["ALLOWED"] = env["XDG_CACHE_HOME"] if writable == "user cache" else env["TMPDIR"]
    (tmp_path / "tmp").mkdir()
    reports = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", _CACHE_PROBE], capture_output=True, text=True,
                              env=env, cwd=str(tmp_path), timeout=300, check=False)
        assert done.returncode == 0, done.stderr
        reports.append(json.loads(done.stdout))
    assert all(r["dir"].startswith(env["ALLOWED"]) and r["engine"] == "compiled" for r in reports)
    assert reports[0]["hits"] == 0 and reports[1]["hits"] == 1
