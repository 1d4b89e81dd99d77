"""Monte-Carlo estimates of Φ and the projected gradient against the closed forms.

Error model: each estimate is a mean of i.i.d. per-sample values with finite variance;
the test passes when |estimate − closed form| ≤ 5.3 standard errors.  For a Gaussian
mean P(|Z| > 5.3) ≈ 1.2e-7, so a false failure is rarer than 1e-6 even counting the two
quantities per case; the seeds are fixed, so the tests are deterministic.
"""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest

from verify.base.errors import InvalidParameterError
from verify.model.instance import GENERATORS, orthonormal, separated
from verify.simulate.model import FrozenStudent, terms
from verify.simulate.modes import MODES
from verify.simulate.montecarlo import estimate_gradient
from verify.simulate.problem import build_problem

Z = 5.3
ACTIVATIONS = ["relu", "erf", "sigmoid", "he3"]


def make(kind: str, activation: str, seed: int = 2):
    if kind == "claim2":
        return GENERATORS[kind](3, 12, 1.0, activation, seed=seed)
    xi = math.sqrt(5) if kind == "glm" else 1.5
    return GENERATORS[kind](5, 30, xi, activation, seed=seed)


@pytest.mark.parametrize("engine", ["full", "reduced"])
@pytest.mark.parametrize("activation", ACTIVATIONS)
@pytest.mark.parametrize("kind", sorted(GENERATORS))
def test_monte_carlo_matches_closed_form(kind, activation, engine):
    inst = make(kind, activation)
    est = estimate_gradient(inst, 0.4, 60_000, engine=engine, seed=11)
    assert abs(est.z_component) <= Z, est
    assert abs(est.z_loss) <= Z, est
    # the mean has no component off u − m û: the residual is noise-sized (chi, d − k − 2 dof)
    assert est.residual_norm <= 2 * est.residual_noise, est


@pytest.mark.parametrize("engine", ["full", "reduced"])
def test_appendix_b_scaling_divides_by_xi_squared(engine):
    inst = orthonormal(5, 30, 2.0, "relu", seed=4)
    plain = estimate_gradient(inst, -0.2, 20_000, engine=engine, seed=1)
    scaled = estimate_gradient(inst, -0.2, 20_000, engine=engine, seed=1, appendix_b_scaling=True)
    assert scaled.analytic_component == pytest.approx(plain.analytic_component / 4, rel=1e-12)
    assert scaled.component == pytest.approx(plain.component / 4, rel=1e-9)
    assert abs(scaled.z_component) <= Z


def test_nonorthogonal_teacher_has_no_closed_form():
    inst = separated(5, 30, 1.0, "relu", seed=1, alpha=0.5)
    est = estimate_gradient(inst, 0.3, 2_000, engine="reduced")
    assert est.analytic_component is None and est.z_component is None
    assert "Assumption 2" in est.note


def test_fused_kernel_equals_the_generic_terms():
    inst = separated(6, 20, 1.3, "sigmoid", seed=3, quantized=False)
    pb = build_problem(inst, MODES["frozen"])
    rng = np.random.default_rng(0)
    y, zu, zh = rng.standard_normal((50, pb.r)), rng.standard_normal(50), rng.standard_normal(50)
    e, kx = FrozenStudent(pb, pb.c_hat).terms(y, zu, zh)
    t = terms(pb, y @ pb.L.T, zu, zh, None, pb.c_hat)
    np.testing.assert_allclose(e, t.e, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(kx, t.kx, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("linearized,constrained", [(False, True), (False, False), (True, True)])
def test_gradient_coefficients_are_derivatives_of_the_sample_loss(linearized, constrained):
    """κ_x x + κ_w W + κ_h û and ∂L/∂ĉ against central differences of L = e² in (û, ĉ).

    Compared on the tangent space of the sphere at a unit û (and on span(W)⊥ where the
    mode projects onto it), the only part SGD uses: off it the model fixes ‖û‖ = 1."""
    inst = separated(4, 9, 1.2, "erf", seed=5, quantized=False)
    pb = build_problem(inst, MODES["joint"])
    rng = np.random.default_rng(1)
    x = rng.standard_normal(pb.d)
    u_hat = rng.standard_normal(pb.d) * 0.3 + (inst.u_hat if constrained else 0)
    P = np.eye(pb.d)
    if constrained:
        P -= np.linalg.pinv(inst.W) @ inst.W
    u_hat = P @ u_hat
    u_hat /= np.linalg.norm(u_hat)
    P = P - np.outer(u_hat, u_hat)
    c_hat = rng.standard_normal(pb.k)

    def loss(uh, ch):
        wh = None if constrained else (inst.W @ uh)[None]
        t = terms(pb, (inst.W @ x)[None], np.array([inst.u @ x]), np.array([uh @ x]), wh, ch[None],
                  linearized)
        return float(t.e[0] ** 2), t

    _, t = loss(u_hat, c_hat)
    grad_u = t.kx[0] * x
    if t.kw is not None:
        grad_u = grad_u + t.kw[0] @ inst.W + t.kh[0] * u_hat
    step = 1e-6
    fd_u = np.array([(loss(u_hat + step * v, c_hat)[0] - loss(u_hat - step * v, c_hat)[0]) / (2 * step)
                     for v in P])
    fd_c = np.array([(loss(u_hat, c_hat + step * v)[0] - loss(u_hat, c_hat - step * v)[0]) / (2 * step)
                     for v in np.eye(pb.k)])
    grad_u = P @ grad_u
    np.testing.assert_allclose(grad_u, fd_u, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(t.gc[0], fd_c, rtol=1e-6, atol=1e-8)


def test_memory_stays_within_a_small_chunk_budget():
    inst = separated(50, 2000, 1.0, "relu", seed=0, quantized=False)
    budget = 4 * 2**20
    estimate_gradient(inst, 0.3, 10, engine="full", seed=1)  # build the kernel outside the measurement
    tracemalloc.start()
    try:
        estimate_gradient(inst, 0.3, 5_000, engine="full", seed=1, chunk_bytes=budget)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak <= budget + 2 * 2**20, peak  # + 2 MiB: the d-vectors and the frame of the problem


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["reduced", "full"])
def test_ten_million_samples_at_d_2000_stay_within_the_default_budget(engine):
    """The issue's memory check (reduced: ~1 min under tracemalloc; full: 2·10¹⁰ normals, minutes)."""
    inst = separated(50, 2000, 1.0, "relu", seed=0, quantized=False)
    estimate_gradient(inst, 0.3, 10, engine=engine, seed=1)  # build the kernel outside the measurement
    tracemalloc.start()
    try:
        est = estimate_gradient(inst, 0.3, 10**7, engine=engine, seed=1)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak <= 256 * 2**20, peak
    assert abs(est.z_component) <= Z


@pytest.mark.parametrize("kwargs,fragment", [
    ({"m": 1.0}, "m must lie in (-1, 1)"),
    ({"samples": 1}, "samples must be an integer >= 2"),
    ({"engine": "gpu"}, "unknown engine"),
    ({"chunk_bytes": 10}, "chunk budget"),
])
def test_bad_estimator_input(kwargs, fragment):
    args = {"m": 0.1, "samples": 100, "engine": "full", "chunk_bytes": 2**20} | kwargs
    with pytest.raises(InvalidParameterError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        estimate_gradient(orthonormal(3, 10, 1.0, "relu", seed=0), args.pop("m"), args.pop("samples"),
                          **args)
