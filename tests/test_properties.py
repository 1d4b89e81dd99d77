"""Model-level properties over instances from every generator (tests/strategies.py).

References independent of the closed form's derivation:

- symmetries of the network itself (sign flips of (c, u) and (ĉ, û));
- Φ ≥ 0, Φ = 0 exactly when the student is the teacher;
- the lazy limit ξ → 0, against the linearised model derived separately here:
  for u, û ⊥ span(W), ⟨u,x⟩ and ⟨û,x⟩ are independent of Wx, so
  Φ_lin(m) = ξ² Σ_ij λ_iλ_j K'(G_ij) (c_ic_j + ĉ_iĉ_j − m(c_iĉ_j + ĉ_ic_j)) and
  Φ − Φ_lin = O(ξ⁴) for smooth σ;
- the GLM limit ξ = ξ̄√k, ξ̄ → ∞ on the §1.2 instance: h(m) → 2 Σ_p p μ_p² m^{p−1},
  summed from the Hermite coefficients (mpmath), error O(1/ξ̄²).
"""

from __future__ import annotations

import dataclasses

import mpmath
import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from tests.strategies import instances, overlaps
from verify.model import population
from verify.model.fast_kernels import fast_kernel
from verify.model.hermite import hermite_coefficients
from verify.model.instance import glm, orthonormal
from verify.model.series import h_series

#: Φ is a difference of O(Σ|λλ|) kernel values: float64 rounding ~1e-15 of that scale.
ROUNDING = 1e-13


def scale(inst) -> float:
    return float(np.sum(np.abs(np.outer(inst.lam, inst.lam))))


@given(instances(), overlaps)
def test_loss_is_nonnegative(inst, m):
    assert population.loss(inst, m) >= 0.0


@given(instances())
def test_loss_vanishes_when_the_student_is_the_teacher(inst):
    same = dataclasses.replace(inst, c_hat=inst.c.copy(), u_hat=None if inst.u is None else inst.u.copy())
    assert population.loss(same, 1.0) <= ROUNDING * scale(inst)


@given(instances(), overlaps)
def test_flipping_both_signs_leaves_teacher_and_student_unchanged(inst, m):
    """(c, u) → (−c, −u) and (ĉ, û) → (−ĉ, −û) each map m to −m and leave the network as it
    was: Φ(−m) after the flip equals Φ(m), and h, the derivative's negative, changes sign."""
    for flipped in (dataclasses.replace(inst, c=-inst.c, u=None if inst.u is None else -inst.u),
                    dataclasses.replace(inst, c_hat=-inst.c_hat,
                                        u_hat=None if inst.u_hat is None else -inst.u_hat)):
        tol = ROUNDING * scale(inst) * (1 + inst.xi**2)
        assert abs(population.loss(flipped, -m) - population.loss(inst, m)) <= tol
        assert abs(population.h(flipped, -m) + population.h(inst, m)) <= tol


@pytest.mark.extended
@settings(max_examples=10)
@given(instances(activations=st.sampled_from(["erf", "he3", "tanh"]), max_k=6))
def test_odd_coefficients_of_h_are_nonnegative_for_quantized_c(inst):
    """For l odd, T(l, s) = ‖Σ_i λ_i w_i^{⊗s}‖² ≥ 0 (quantized c: (c_iĉ_j)^{l+1} = k^{−l−1})."""
    assume(inst.quantized)
    series = h_series(inst, 6, dps=20)
    for l in (1, 3, 5):
        assert float(series.coefficients[l]) >= -float(series.s_bounds[l])


def linearised_loss(inst, m: float) -> float:
    kp = fast_kernel(inst.activation).derivative(inst.gram)
    c, ch = inst.c, inst.c_hat
    quad = np.outer(c, c) + np.outer(ch, ch) - m * (np.outer(c, ch) + np.outer(ch, c))
    return float(inst.xi**2 * np.sum(np.outer(inst.lam, inst.lam) * kp * quad))


@settings(max_examples=15)
@given(st.sampled_from(["erf", "he3", "tanh", "sigmoid"]), st.integers(1, 8),
       st.integers(0, 2**32 - 1), st.floats(-0.9, 0.9))
@example("he3", 1, 0, 0.0)
def test_lazy_limit_linearised_model_becomes_exact(activation, k, seed, m):
    """|Φ − Φ_lin|/Φ_lin = O(ξ²): below 20ξ² at ξ = 0.02, and it shrinks ~4× when ξ halves."""
    errors = []
    for xi in (0.02, 0.01):
        inst = orthonormal(k, k + 3, xi, activation, seed=seed)
        lin = linearised_loss(inst, m)
        assume(lin > 1e-3 * xi**2)
        errors.append(abs(float(population.loss(inst, m)) - lin) / lin)
    assert errors[0] <= 20 * 0.02**2
    assert errors[1] <= errors[0] / 3 + 1e-7  # 1e-7: rounding floor of Φ ~ 1e-4 at ξ = 0.01


@pytest.mark.parametrize("activation", ["erf", "he3", "sigmoid"])
def test_glm_limit_h_tends_to_the_single_index_derivative(activation):
    """ξ̄ = 10³: h(m) = 2r K'(r m) with r = ξ̄²/(1+ξ̄²) on the §1.2 instance, so
    |h(m) − 2K'(m)| ≤ 2 Σ_p p μ_p² |m|^{p−1}(1 − r^p) ≤ 2(1 − r) Σ_p p² μ_p² |m|^{p−1}."""
    k, xibar = 4, 1e3
    inst = glm(k, 8, xibar * np.sqrt(k), activation, seed=1)
    mu = hermite_coefficients(activation, 80, dps=30).values
    eps = 1 / (1 + xibar**2)
    for m in (-0.8, -0.2, 0.0, 0.5, 0.9):
        with mpmath.workdps(30):
            mm = mpmath.mpf(m)
            reference = 2 * mpmath.fsum(p * mu[p] ** 2 * mm ** (p - 1) for p in range(1, len(mu)))
            bound = 2 * eps * mpmath.fsum(p * p * mu[p] ** 2 * abs(mm) ** (p - 1) for p in range(1, len(mu)))
        assert abs(float(population.h(inst, m)) - float(reference)) <= float(bound) + 1e-12


@pytest.mark.parametrize("activation", ["he3", "erf", "relu"])
@pytest.mark.parametrize("xi", [0.3, 1.0, 2.0])
def test_glm_rows_are_plus_minus_u_at_every_scale(activation, xi):
    """W = 0: the normalised rows ξc_iu/‖ξc_iu‖ are exactly u, so for every ξ the model is the
    single-index σ(⟨u,x⟩) and h(m) = 2K'(m) = 2Σ_p p μ_p² m^{p−1}, Φ(m) = 2(K(1) − K(m)).
    (Regression: the norms once assumed ‖w_i‖ = 1 and gave h(1) = 0.75 for he3 at ξ = 1.)"""
    inst = glm(4, 8, xi, activation, seed=3)
    kernel = fast_kernel(activation)
    m = np.linspace(-1, 1, 9)
    np.testing.assert_allclose(population.h(inst, m), 2 * kernel.derivative(m), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(population.loss(inst, m), 2 * (kernel.value(1.0) - kernel.value(m)),
                               rtol=1e-12, atol=1e-13)
