"""The model's formulas are written once and evaluated in four arithmetics: the values agree, each
within the bound its arithmetic reports, on random instances (Hypothesis).

- h(m) and Φ(m): float64 (:func:`verify.model.population.h`), mpmath with its error bound
  (:func:`~verify.model.population.h_precise`), Arb balls (:mod:`verify.certified.population`);
- the series coefficients h_l: mpmath (:func:`verify.model.series.h_series`) against balls
  (:func:`verify.certified.series.h_series_balls`), the same code on other numbers;
- He_p: :mod:`verify.model.polynomials` against NumPy's Hermite_e and against the two engines
  that keep a specialised copy (the numba kernel, and h_p in the activation registry).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from flint import arb
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.certified.balls import exact, working_precision
from verify.certified.population import certified_population
from verify.certified.series import h_series_balls
from verify.model import instance as instances
from verify.model import population
from verify.model.activations import get_activation
from verify.model.polynomials import normalized_hermite, probabilists_hermite
from verify.model.series import h_series

#: float64 sums of k² ≤ 25 terms of size ≤ 1 (ξ ≤ 2 scales h by ≤ 4): rounding ~1e-15, with margin.
FLOAT_TOLERANCE = 1e-12

closed_form_activations = st.sampled_from(["relu", "abs", "erf", "he3", "quadratic"])
cases = st.tuples(st.integers(1, 5), st.integers(0, 10**6), st.sampled_from([0.5, 1.0, 2.0]),
                  st.floats(-1.0, 1.0, allow_nan=False))


def _instance(k, seed, xi, activation, kind="separated"):
    make = instances.separated if kind == "separated" else instances.orthonormal
    return make(k, 4 * k + 4, xi, activation, seed=seed, quantized=kind == "orthonormal")


@settings(max_examples=25, deadline=None)
@given(case=cases, activation=closed_form_activations)
def test_h_and_loss_agree_in_float_mpmath_and_balls(case, activation):
    k, seed, xi, m = case
    inst = _instance(k, seed, xi, activation)
    h_mp, h_err = population.h_precise(inst, m, dps=40)
    loss_mp, loss_err = population.loss_precise(inst, m, dps=40)
    assert abs(float(population.h(inst, m)) - float(h_mp)) <= FLOAT_TOLERANCE + float(h_err)
    assert abs(float(population.loss(inst, m)) - float(loss_mp)) <= FLOAT_TOLERANCE + float(loss_err)
    pop = certified_population(inst, 30)
    with working_precision(30):
        for ball, value, err in ((pop.h(exact(m)), h_mp, h_err), (pop.loss(exact(m)), loss_mp, loss_err)):
            # the ball contains the exact value; the mpmath value is within its bound of it
            gap = abs(ball - arb(mpmath.nstr(value, 45)))
            assert gap.lower() <= float(err) + 1e-38, (activation, k, m, ball, value)


@settings(max_examples=10, deadline=None)
@given(k=st.integers(1, 4), seed=st.integers(0, 10**6), xi=st.sampled_from([0.5, 1.0]),
       activation=st.sampled_from(["tanh", "erf", "relu"]))
@pytest.mark.extended
def test_series_coefficients_are_the_same_code_in_mpmath_and_balls(k, seed, xi, activation):
    inst = _instance(k, seed, xi, activation, kind="orthonormal")
    terms = 4
    floats = h_series(inst, terms, dps=30)
    with working_precision(30):
        balls = h_series_balls(inst, terms, 30)
        for h_mp, h_ball, b_mp, b_ball in zip(floats.coefficients, balls.coefficients, floats.s_bounds,
                                             balls.s_bounds, strict=True):
            # both sum the same s-truncated series; μ_p differ by their own errors (< 1e-25 here)
            assert abs(h_ball - arb(mpmath.nstr(h_mp, 40))).lower() <= 1e-20
            assert abs(float(b_ball) - float(b_mp)) <= 1e-20 + 1e-6 * float(b_mp)


@pytest.mark.parametrize("p", range(12))
def test_hermite_polynomials_once(p):
    x = np.linspace(-4.0, 4.0, 33)
    reference = np.polynomial.hermite_e.hermeval(x, [0] * p + [1])
    computed = probabilists_hermite(p, x, np.ones_like(x))
    np.testing.assert_allclose(computed, reference, rtol=1e-13, atol=1e-12)
    # the exact recurrence: integer constants, so integers in, integers out
    exact = int(round(float(np.polynomial.hermite_e.hermeval(3.0, [0] * p + [1]))))
    assert probabilists_hermite(p, 3) == exact
    if 1 <= p <= 8:
        np.testing.assert_allclose(get_activation(f"he{p}")(x), reference / math.sqrt(math.factorial(p)),
                                   rtol=1e-13, atol=1e-12)


def test_the_numba_kernel_keeps_the_same_hermite():
    from verify.simulate.compiled import _hermite

    for p in range(9):
        for x in (-2.5, -0.3, 0.0, 1.1, 3.0):
            assert _hermite(p, x) == pytest.approx(normalized_hermite(p, x), rel=1e-13, abs=1e-13)
