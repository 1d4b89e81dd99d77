"""Certified kernels, second moments, h(m) and Φ(m) (verify.certified.kernels / .population).

References: the mpmath closed forms and 2-D quadratures of :mod:`verify.model.kernels`, and the
mpmath h and Φ of :mod:`verify.model.population` on instances whose Gram matrix is exactly the
identity (so the certified instance and the reference instance are the same numbers).
"""

from __future__ import annotations

import json

import mpmath
import numpy as np
import pytest
from flint import arb

from tests.cli_helpers import run_verify
from verify.base.errors import InvalidParameterError
from verify.certified.balls import working_precision
from verify.certified.kernels import certified_kernel, certified_second_moment
from verify.certified.population import certified_population, enclose_on_interval
from verify.model.instance import Instance, glm, orthonormal, save
from verify.model.kernels import kernel
from verify.model.population import h as h_fast
from verify.model.population import h_precise, loss_precise

DPS = 30
RHOS = ("0", "0.37", "-0.37", "0.9", "-0.9", "1", "-1")


def reference_ball(value, error) -> arb:
    """An mpmath value with its error bound (plus the rounding of printing it) as a ball."""
    return arb(mpmath.nstr(value, DPS + 15), mpmath.nstr(abs(error) + mpmath.mpf(10) ** -(DPS + 10), 5))


@pytest.mark.parametrize("name", ("relu", "abs", "erf", "he3", "quadratic"))
@pytest.mark.parametrize("derivative", (False, True))
def test_closed_form_kernels_contain_the_mpmath_closed_form(name, derivative):
    certified = certified_kernel(name, DPS)
    assert certified.method == "closed"
    with working_precision(DPS):
        for rho in RHOS:
            reference = kernel(name, rho, derivative=derivative, dps=DPS + 10)
            evaluate = certified.derivative if derivative else certified.value
            assert evaluate(arb(rho)).overlaps(reference_ball(reference.value, reference.error)), rho


@pytest.mark.extended
@pytest.mark.parametrize("rho, derivative", [("0.37", False), ("-0.9", True)])
def test_series_kernel_contains_the_2d_quadrature(rho, derivative):
    certified = certified_kernel("tanh", DPS)
    assert certified.method == "series"
    reference = kernel("tanh", rho, derivative=derivative, dps=20)
    with working_precision(DPS):
        value = (certified.derivative if derivative else certified.value)(arb(rho))
        assert value.overlaps(arb(mpmath.nstr(reference.value, 30), mpmath.nstr(reference.error + 1e-19, 5)))
        # tanh's poles at ±iπ/2 make μ_p decay like exp(-c√p): with P = 64 terms the tail mass
        # Σ_{p≥64} μ_p² is ~6e-11, and the tail bound at |ρ| = 0.9 is ~5e-12.
        assert value.rad() < arb("1e-10")


def test_series_kernel_at_one_is_the_second_moment():
    """K(1) = E[σ²] and K'(1) = E[σ'²]: the series balls contain the certified moments."""
    certified = certified_kernel("sigmoid", DPS)
    with working_precision(DPS):
        assert certified.value(arb(1)).overlaps(certified_second_moment("sigmoid", DPS))
        assert certified.value(arb(1)).rad() < arb("1e-30")  # the moment itself, not the tail-wide series
        assert certified.derivative(arb(1)).contains(certified_second_moment("sigmoid", DPS, derivative=True))


def test_second_moments_of_relu_are_exact():
    """E[relu²] = 1/2 and E[relu'²] = P(g > 0) = 1/2."""
    with working_precision(DPS):
        for derivative in (False, True):
            ball = certified_second_moment("relu", DPS, derivative=derivative)
            assert ball.contains(arb(1) / 2) and ball.rad() < arb(10) ** -(DPS + 2)


def test_cached_moment_keeps_its_precision():
    first = certified_second_moment("tanh", DPS)  # computes and stores
    again = certified_second_moment("tanh", DPS)  # parsed back from decimal strings
    assert again.contains(first) and again.rad() < 2 * arb(10) ** -(DPS + 2)


def test_jumps_have_no_derivative_moment():
    from verify.certified.errors import CertificationError

    with pytest.raises(CertificationError, match="not provably continuous"):
        certified_second_moment("expr:Heaviside(x)", 20, derivative=True)


@pytest.mark.parametrize("name", ("relu", "tanh"))
def test_interval_values_contain_point_values(name):
    certified = certified_kernel(name, DPS)
    with working_precision(DPS):
        for low, high in ((0, 1), (-1, -0.5), (0.25, 0.3)):
            ball = arb(low).union(arb(high))
            for t in np.linspace(low, high, 7):
                for evaluate in (certified.value, certified.derivative):
                    assert evaluate(ball).contains(evaluate(arb(float(t)))), (name, t)


def identity_gram_instance(activation, k=3, xi=1.5, seed=2):
    """An orthonormal-rows instance with gram = I exactly (W omitted), quantized c and ĉ."""
    rng = np.random.default_rng(seed)
    c = rng.choice([-1.0, 1.0], k) / np.sqrt(k)
    c_hat = rng.choice([-1.0, 1.0], k) / np.sqrt(k)
    return Instance(k=k, d=k + 2, xi=xi, activation=activation, lam=np.linspace(0.5, 1.0, k), c=c,
                    c_hat=c_hat, gram=np.eye(k))


@pytest.mark.parametrize("instance", [identity_gram_instance("relu"), identity_gram_instance("erf", xi=0.7),
                                      identity_gram_instance("tanh", k=2, xi=2.0),
                                      glm(3, 5, 1.7, "erf", seed=0)], ids=["relu", "erf", "tanh", "glm"])
@pytest.mark.extended
def test_h_and_loss_contain_the_mpmath_values(instance):
    """Against the mpmath twins at twice the digits: at m = 1 (ρ_ii = 1 when c_i = ĉ_i) their
    stated bound 10^-(dps+5) does not hold at dps = 30 (relu's K' has acos ρ, so a rounding ε of ρ
    costs √ε: h_precise at 30 digits is off by 1.4e-24 here), while the certified ball has the √ε
    in its radius."""
    pop = certified_population(instance, DPS)
    with working_precision(DPS):
        for m in (0.0, 0.3, -0.7, 1.0):
            for certified, precise in ((pop.h, h_precise), (pop.loss, loss_precise)):
                value, error = precise(instance, m, 2 * DPS)
                assert certified(arb(m)).overlaps(reference_ball(value, error)), (certified.__name__, m)


def test_interval_enclosure_contains_the_fast_path():
    instance = orthonormal(4, 20, 1.0, "relu", seed=4, lam=np.ones(4))
    pop = certified_population(instance, DPS, gram=np.eye(4))
    grid = np.linspace(-1, 1, 41)
    with working_precision(DPS):
        ball = enclose_on_interval(pop.h, -1.0, 1.0, depth=5)
        for value in h_fast(instance, grid):  # float64 values: within 1e-12 of the exact ones
            assert ball.overlaps(arb(float(value), 1e-12))


def test_bad_overlap_and_gram_are_refused():
    instance = identity_gram_instance("relu")
    pop = certified_population(instance, 20)
    with working_precision(20), pytest.raises(InvalidParameterError, match="m must lie"):
        pop.h(arb(1.5))
    with pytest.raises(InvalidParameterError, match="exceeds the row norm"):
        certified_population(instance, 20, gram=np.full((3, 3), 1.5))


def test_cli_h_certified(tmp_path):
    path = tmp_path / "inst.json"
    save(identity_gram_instance("relu"), path)
    result = run_verify("h", str(path), "--m", "0", "0.5", "--certified", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    with working_precision(DPS):
        for m, enclosure in zip(report["m"], report["enclosures"], strict=True):
            value, error = h_precise(identity_gram_instance("relu"), m, DPS)
            assert arb(enclosure["mid"], enclosure["rad"]).overlaps(reference_ball(value, error))
    text = run_verify("loss", str(path), "--m", "0.25", "--certified", "--dps", "20")
    assert text.returncode == 0 and "±" in text.stdout


@pytest.mark.slow
@pytest.mark.parametrize("name", ("sigmoid", "softplus", "gelu"))
@pytest.mark.parametrize("rho", ("0.37", "-0.9"))
@pytest.mark.parametrize("derivative", (False, True))
def test_series_kernels_contain_the_2d_quadrature(name, rho, derivative):
    certified = certified_kernel(name, DPS)
    reference = kernel(name, rho, derivative=derivative, dps=20)
    with working_precision(DPS):
        value = (certified.derivative if derivative else certified.value)(arb(rho))
        assert value.overlaps(arb(mpmath.nstr(reference.value, 30), mpmath.nstr(reference.error + 1e-19, 5)))
