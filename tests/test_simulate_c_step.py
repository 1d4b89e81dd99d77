"""ĉ's own step size (``simulate(c_lr=...)``, ``verify simulate --c-lr``) and the λ-scale equivalence.

Appendix B gives no step size for ĉ and does not say whether it is û's, so the paper setup of
the figures judges every claim at ĉ steps of 10^{∓1/2} × η besides the chosen η
(:mod:`verify.figures.paper_setup`).  Here:

- ``c_lr = lr`` is the default run, bit for bit, in every engine;
- ``c_lr`` reaches ĉ's update and nothing else: after one step û is the same whatever
  ``c_lr``, and ĉ's displacement is proportional to ``c_lr`` (to first order);
- the compiled and the NumPy reduced engine take the same ĉ step (same samples);
- λ needs no sensitivity axis of its own: λ → aλ multiplies every gradient of the squared loss
  by a², so SGD at aλ with step η is SGD at λ with step a²η (û and ĉ alike), bit for bit when
  a is a power of 2 (every product is then exact), to rounding otherwise;
- bad values of ``c_lr`` are refused in one line.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.cli_helpers import assert_one_line_usage_error, run_verify
from tests.test_simulate_compiled import SAME_SAMPLES_ATOL, assert_same_samples
from verify.base.errors import InvalidParameterError
from verify.figures import paper_setup
from verify.model.instance import save, separated
from verify.simulate import simulate

ENGINES = ("compiled", "reduced", "full")
TRAINED = ("joint", "unconstrained", "linearized")
#: λ → aλ with a irrational: the same chain up to the rounding of a and a² (a few ulp per step,
#: amplified by the chain's sensitivity over 400 steps; measured ≤ 5.6e-16). 1e-10 leaves a wide
#: margin, while a step that is off by a factor (not a²) moves m by O(1) (the runs move by 0.8).
LAMBDA_ATOL = 1e-10
#: One step of size c_lr moves ĉ by c_lr·v + O(c_lr²) (the renormalisation); at c_lr = 1e-6 and
#: 2e-6 the ratio of displacements is 2 up to O(c_lr |v|) ~ 1e-7, far inside 1e-4.
LINEAR_RTOL = 1e-4


def _instance(**kw):
    spec = dict(k=4, d=40, xi=1.0, activation="relu", seed=3, quantized=False) | kw
    return separated(spec.pop("k"), spec.pop("d"), spec.pop("xi"), spec.pop("activation"), **spec)


def _run(engine, mode="joint", steps=300, lr=0.2, **kw):
    return simulate(_instance(), mode=mode, steps=steps, lr=lr, replicas=3, seed=7, engine=engine,
                    record_every=max(1, steps // 3), loss_samples=0, **kw)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("mode", TRAINED)
def test_c_lr_equal_to_lr_is_the_default_run(engine, mode):
    default, same = _run(engine, mode), _run(engine, mode, c_lr=0.2)
    np.testing.assert_array_equal(default.m, same.m)
    np.testing.assert_array_equal(default.c_overlap, same.c_overlap)
    assert same.meta["c_lr"] == default.meta["c_lr"] == 0.2


@pytest.mark.parametrize("engine", ENGINES)
def test_c_lr_moves_c_hat_only_and_in_proportion(engine):
    start = _run(engine, steps=1, lr=0.2, c_lr=1e-300)  # ĉ as it started, to ~1e-300
    one, two = (_run(engine, steps=1, lr=0.2, c_lr=c) for c in (1e-6, 2e-6))
    # û takes its step before ĉ, from the same state: the same whatever c_lr
    np.testing.assert_array_equal(one.m, start.m)
    np.testing.assert_array_equal(two.m, start.m)
    moved_one = one.c_overlap[-1] - start.c_overlap[-1]
    moved_two = two.c_overlap[-1] - start.c_overlap[-1]
    assert np.all(np.abs(moved_one) > 0)
    np.testing.assert_allclose(moved_two / moved_one, 2.0, rtol=LINEAR_RTOL)


@pytest.mark.parametrize("mode", TRAINED)
def test_the_compiled_engine_takes_the_same_c_step(mode):
    compiled, reduced = (_run(e, mode, steps=400, c_lr=0.6) for e in ("compiled", "reduced"))
    assert_same_samples(compiled, reduced)
    # and the step matters: a third of the ĉ step gives another trajectory
    slower = _run("compiled", mode, steps=400, c_lr=0.2)
    assert np.max(np.abs(slower.c_overlap - compiled.c_overlap)) > 1e3 * SAME_SAMPLES_ATOL


@pytest.mark.parametrize("a, exact", [(2.0, True), (10**0.25, False)])
@pytest.mark.parametrize("mode", ["unconstrained", "joint"])
def test_lambda_scale_is_a_step_size(mode, a, exact):
    k = 4
    kw = dict(mode=mode, steps=400, replicas=3, seed=7, record_every=100, loss_samples=0,
              appendix_b_scaling=True, row_scale=paper_setup.row_scale(k, 1.0))
    base = simulate(_instance(), lr=0.2 * a**2, **kw)
    scaled = simulate(_instance(lam=np.full(k, a / k)), lr=0.2, **kw)
    for ours, theirs in ((scaled.m, base.m), (scaled.c_overlap, base.c_overlap)):
        if exact:
            np.testing.assert_array_equal(ours, theirs)
        else:
            np.testing.assert_allclose(ours, theirs, rtol=0, atol=LAMBDA_ATOL)
    assert np.max(np.abs(base.m[-1] - base.m[0])) > 0.1  # the runs move: the comparison has power


@pytest.mark.parametrize("value, why", [
    (0.0, "c_lr must be a finite number > 0"),
    (float("nan"), "c_lr must be a finite number > 0"),
    (True, "c_lr must be a finite number > 0"),
    (-1e-3, "c_lr must be a finite number > 0"),
])
def test_bad_c_lr_is_refused(value, why):
    with pytest.raises(InvalidParameterError, match=why):
        _run("compiled", c_lr=value)


def test_c_lr_with_a_frozen_c_hat_is_refused():
    with pytest.raises(InvalidParameterError, match="c_lr = 0.1 is given, but mode 'frozen' keeps c_hat"):
        _run("compiled", mode="frozen", c_lr=0.1)


def test_cli_c_lr(tmp_path):
    inst = tmp_path / "inst.json"
    save(_instance(), inst)
    out = tmp_path / "t.npz"
    result = run_verify("simulate", str(inst), "--mode", "joint", "--steps", "40", "--lr", "0.2",
                        "--c-lr", "0.6", "--quiet", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert '"c_lr": 0.6' in str(np.load(out)["meta"])
    assert_one_line_usage_error(run_verify("simulate", str(inst), "--mode", "frozen", "--steps", "40", "--lr",
                                           "0.2", "--c-lr", "0.6", "--quiet", "-o", str(out)), "c_lr = 0.6")
    assert_one_line_usage_error(run_verify("simulate", str(inst), "--mode", "joint", "--steps", "40", "--lr",
                                           "0.2", "--c-lr", "nan", "--quiet", "-o", str(out)), "--c-lr")
