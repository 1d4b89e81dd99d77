"""The branch-and-bound prover (verify.certified.prover) and Condition 3 (verify.certified.conditions).

Injected errors.  Each statement below is a true inequality f ≥ c·g whose best constant c* is
attained at a known point (an endpoint, or m = 0), so it is tight: at c = c*(1 − 0.5 %) it holds
with a margin of 0.5 % and the prover must PROVE it; tightened by 1 % (c·1.01 for a lower bound,
c/1.01 for an upper bound) it is false near that point and the prover must REFUTE it with a
certified counterexample — neither undecided nor proved.  A sign flip must be refuted too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from flint import arb

from verify.certified.balls import clamped_endpoints, exact, integer_power, monotone_image, working_precision
from verify.certified.conditions import condition_3_certified
from verify.certified.kernels import certified_kernel
from verify.certified.population import CertifiedPopulation
from verify.certified.prover import Status, prove_geq
from verify.model.instance import Instance, orthonormal, separated
from verify.model.population import h as h_fast

DPS = 30
SLACK = Fraction(995, 1000)  # the "true constant": 0.5 % below the attained best constant
TIGHTEN = Fraction(101, 100)  # the injected error: 1 % tighter


@cache
def kernel(name: str):
    return certified_kernel(name, DPS)


def run_instance():
    """The simulated checks' instance: orthonormal rows, k = 4, ξ = 1, relu, λ = 1, seed 4
    (c = (1,1,1,1)/2, ĉ = (−1,−1,−1,1)/2), with the exact Gram matrix I."""
    return orthonormal(4, 20, 1.0, "relu", seed=4, lam=np.ones(4))


@cache
def population(which: str) -> CertifiedPopulation:
    with working_precision(DPS):
        if which == "run":
            return CertifiedPopulation(run_instance(), DPS, gram=np.eye(4))
        # Proposition 23's extremal case: k = 1, c = ĉ = 1, ξ = 0.01
        one = Instance(k=1, d=3, xi=0.01, activation="relu", lam=np.ones(1), c=np.ones(1), c_hat=np.ones(1),
                       gram=np.eye(1))
        return CertifiedPopulation(one, DPS)


def nonnegative_sqrt(x: arb) -> arb:
    """√x for a ball whose exact value is ≥ 0 (1 − m² at m = ±1 may dip below 0 by rounding)."""
    low, high = clamped_endpoints(x, arb(0), arb("inf"))
    return monotone_image(lambda t: t.sqrt(), low, high, increasing=True)


@dataclass(frozen=True)
class Inequality:
    """f(m) ≥ g(m) on [a, b] as a function of the constant c; ``lower`` says whether c bounds from
    below (tightening multiplies it by 1.01) or from above (tightening divides)."""

    name: str
    build: Callable[[Fraction], tuple[Callable, Callable, float, float]]
    lower: bool
    true_constant: Fraction | None = None  # default: c* = 1 with 0.5 % slack

    def constants(self) -> tuple[Fraction, Fraction]:
        true = self.true_constant or (SLACK if self.lower else 1 / SLACK)
        return true, true * TIGHTEN if self.lower else true / TIGHTEN


def condition_3(c):
    """Condition 3 on the run instance: s·h(s·m) ≥ c·|h(0)| on [0, 1] (c* = 1, at m = 0)."""
    pop = population("run")
    h0 = pop.h(arb(0))
    s = 1 if h0 > 0 else -1
    return (lambda m: s * pop.h(s * m)), (lambda m: exact(c) * abs(h0)), 0.0, 1.0


def claim_4_step(c):
    """Claim 4's proof, corrected: Σ(s+1)μ²_{s+1} r^{s+1} = r K'(r) ≥ c·K'(1/2)/2 for
    r = k/(k+1) ∈ [1/2, 1] (relu; c* = 1 at r = 1/2, r K'(r) increasing)."""
    k = kernel("relu")
    return (lambda r: r * k.derivative(r)), (lambda r: exact(c) * k.derivative(arb(1) / 2) / 2), 0.5, 1.0


def kernel_bounded_by_one(name):
    def build(c):
        """|K(ρ)| ≤ K(1) = E[σ²]: c·K(1) ≥ K(ρ) on [−1, 1] (c* = 1 at ρ = 1)."""
        k = kernel(name)
        top = k.value(arb(1))
        return (lambda rho: exact(c) * top), k.value, -1.0, 1.0
    return build


def kernel_monotone(c):
    """K' is nondecreasing on [0, 1] (its coefficients p μ_p² are ≥ 0): K'(ρ) ≥ c·K'(0) (tanh,
    series kernel; c* = 1 at ρ = 0)."""
    k = kernel("tanh")
    return k.derivative, (lambda rho: exact(c) * k.derivative(arb(0))), 0.0, 1.0


def loss_minimum(c):
    """Φ(m) ≥ c·Φ(−1) on [−1, 1] for the run instance (h < 0 there, so Φ' = −h > 0: c* = 1 at m = −1)."""
    pop = population("run")
    floor = pop.loss(arb(-1))
    return pop.loss, (lambda m: exact(c) * floor), -1.0, 1.0


def proposition_23(c):
    """Proposition 23 (corrected): ‖∇̂Φ‖ = |h(m)|√(1 − m²) ≤ c·2 C_σ λ²_max k ξ²/(1 + ξ²/k), C_σ = Σ p μ_p²
    = E[relu'²] = 1/2.  The statement's constant is c = 1; at k = 1, c = ĉ = 1, ξ = 0.01 the best
    one is c* = 0.99550 (near m = 0.002), so c = 1/1.01 is false."""
    pop = population("one")
    xi2 = exact(0.01) * exact(0.01)
    bound = exact(c) * 2 * (arb(1) / 2) * xi2 / (1 + xi2)
    return (lambda m: bound), (lambda m: abs(pop.h(m)) * nonnegative_sqrt(1 - integer_power(m, 2))), -1.0, 1.0


INEQUALITIES = [
    Inequality("condition-3", condition_3, lower=True),
    Inequality("claim-4-step", claim_4_step, lower=True),
    Inequality("K<=K(1) relu", kernel_bounded_by_one("relu"), lower=False),
    Inequality("K<=K(1) sigmoid", kernel_bounded_by_one("sigmoid"), lower=False),
    Inequality("K' monotone tanh", kernel_monotone, lower=True),
    Inequality("Phi minimum", loss_minimum, lower=True),
    Inequality("proposition-23", proposition_23, lower=False, true_constant=Fraction(1)),
]


def decide(inequality: Inequality, c: Fraction):
    with working_precision(DPS):
        f, g, a, b = inequality.build(c)
        return prove_geq(f, g, a, b)


@pytest.mark.extended
@pytest.mark.parametrize("inequality", INEQUALITIES, ids=lambda i: i.name)
def test_true_constant_is_proved(inequality):
    true, _ = inequality.constants()
    result = decide(inequality, true)
    assert result.status is Status.PROVED, result.describe()
    assert result.cover_size >= 1 and result.margin is not None and result.margin > 0


@pytest.mark.parametrize("inequality", INEQUALITIES, ids=lambda i: i.name)
def test_constant_tightened_by_one_percent_is_refuted(inequality):
    _, tightened = inequality.constants()
    result = decide(inequality, tightened)
    assert result.status is Status.REFUTED, result.describe()
    with working_precision(DPS):
        f, g, _, _ = inequality.build(tightened)
        assert f(result.witness) - g(result.witness) < 0  # the counterexample re-checks


def relu_kernel_derivative(m):
    return kernel("relu").derivative(m)


def run_loss(m):
    return population("run").loss(m)


@pytest.mark.parametrize("function, a, b", [
    (relu_kernel_derivative, 0.0, 1.0),  # "K' >= 0 on [0, 1]" flipped to "0 >= K'"
    (run_loss, -1.0, 1.0),  # "Phi >= 0" flipped to "0 >= Phi"
], ids=["K'>=0", "Phi>=0"])
def test_flipped_sign_is_refuted(function, a, b):
    with working_precision(DPS):
        flipped = prove_geq(lambda m: arb(0), function, a, b)
        unflipped = prove_geq(function, lambda m: arb(0), a, b)
    assert flipped.status is Status.REFUTED
    assert unflipped.status is Status.PROVED


def test_the_printed_claim_4_step_is_refuted():
    """The paper's Claim 4 step (Σ(s+1)μ² (k/(k+1))^{s+1} ≥ Σ(s+1)μ²/2^s) is false: r K'(r) ≥ K'(1/2)
    fails for relu (the README's claim-4-proof erratum)."""
    with working_precision(DPS):
        k = kernel("relu")
        result = prove_geq(lambda r: r * k.derivative(r), lambda r: k.derivative(arb(1) / 2), 0.5, 1.0)
    assert result.status is Status.REFUTED


def test_equality_at_a_point_is_undecided_with_a_small_stall():
    """m² ≥ 0 holds with equality at 0: no strict cover exists, no counterexample either."""
    with working_precision(DPS):
        result = prove_geq(lambda m: integer_power(m, 2), lambda m: arb(0), -1, 1, max_depth=20)
    assert result.status is Status.UNDECIDED
    low, high = result.stall
    assert low <= 0 <= high and high - low <= arb(2) ** -19


def test_budget_exhaustion_is_undecided():
    with working_precision(DPS):
        k = kernel("relu")
        result = prove_geq(k.derivative, lambda r: arb("0.249999999999") + 0 * r, 0, 1, max_evaluations=5)
    assert result.status is Status.UNDECIDED and result.evaluations <= 8


# --- Condition 3 ------------------------------------------------------------------------------


def test_condition_3_with_the_papers_constant_on_the_run_instance():
    certificate = condition_3_certified(run_instance(), gram=np.eye(4))
    assert certificate.status is Status.PROVED and certificate.sign == -1
    assert abs(certificate.h0).overlaps(arb("0.9180668941203465", "1e-15"))


def test_condition_3_with_vanishing_h0_is_undecided():
    """Exactly orthonormal rows with Σ c_i ĉ_i = 0 (seed 1, k = 4) give h(0) = 0: S_k = 0 fails the
    condition, and the certified answer is 'undecided' (h(0) is not certified nonzero)."""
    instance = orthonormal(4, 8, 1.0, "relu", seed=1)
    certificate = condition_3_certified(instance, gram=np.eye(4))
    assert certificate.status is Status.UNDECIDED and certificate.sign is None


def condition_3_on_grid(instance) -> bool:
    """The float check's procedure: h(0) ≠ 0 and s·h(s·m) ≥ |h(0)|/2 on a 201-point grid."""
    h0 = float(h_fast(instance, 0.0))
    s = 1.0 if h0 >= 0 else -1.0
    return bool(abs(h0) > 1e-12 and np.all(s * h_fast(instance, s * np.linspace(0, 1, 201)) >= abs(h0) / 2))


SETTINGS = {"orthonormal xi=1": (orthonormal, lambda k: 1.0),
            "orthonormal xi=sqrt(k)/2": (orthonormal, lambda k: np.sqrt(k) / 2),
            "separated xi=1": (separated, lambda k: 1.0)}


def certify(generator, instance):
    """Orthonormal rows are certified with their exact Gram matrix I (the float one carries ~1e-17
    off the diagonal, which makes an exactly vanishing h(0) look like a tiny nonzero one)."""
    return condition_3_certified(instance, gram=np.eye(instance.k) if generator is orthonormal else None)


@pytest.mark.parametrize("setting", SETTINGS)
@pytest.mark.parametrize("k", (4, 8))
def test_condition_3_certified_agrees_with_the_grid_check(setting, k):
    """The check's settings (λ = 1/k, relu): wherever the prover decides, it agrees with the grid."""
    generator, xi = SETTINGS[setting]
    for seed in range(3):
        instance = generator(k, k + 4, xi(k), "relu", seed=seed)
        certificate = certify(generator, instance)
        assert certificate.status is not Status.REFUTED or not condition_3_on_grid(instance)
        if certificate.status is Status.PROVED:
            assert condition_3_on_grid(instance), (setting, k, seed)


@pytest.mark.slow
@pytest.mark.parametrize("setting", SETTINGS)
@pytest.mark.parametrize("k", (16, 32, 64))
def test_condition_3_certified_at_larger_k(setting, k):
    generator, xi = SETTINGS[setting]
    for seed in range(5):
        instance = generator(k, k + 4, xi(k), "relu", seed=seed)
        certificate = certify(generator, instance)
        assert certificate.status is not Status.UNDECIDED or certificate.sign is None, certificate.describe()
        assert (certificate.status is Status.PROVED) == condition_3_on_grid(instance)
