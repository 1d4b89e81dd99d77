"""Population sums in balls over pooled pairs (verify.model.geometry.PooledGeometry), and
entrywise's one call per distinct entry: the same sums, so every ball must meet the k × k one."""

from __future__ import annotations

import random

import numpy as np
import pytest
import sympy
from flint import arb

from verify.certified.balls import BALLS, working_precision
from verify.certified.kernels import certified_kernel
from verify.model.arithmetic import EXACT, MPMATH, entrywise
from verify.model.geometry import PooledGeometry, pair_geometry, pooled_geometry
from verify.model.instance import Numbers
from verify.model.population import Population


def _numbers(k: int, seed: int, gram=None, unequal_lam=False, scratch=False) -> Numbers:
    rs = random.Random(seed)
    root = arb(k).sqrt()
    lam = [arb(rs.choice([1, 2])) / k if unequal_lam else arb(1) / k for _ in range(k)]
    c = [rs.choice([-1, 1]) / root for _ in range(k)]
    c_hat = [rs.choice([-1, 1]) / root for _ in range(k)]
    if gram is None:
        gram = [[arb(0 if scratch else int(i == j)) for j in range(k)] for i in range(k)]
    return Numbers(k, arb(3) / 2, "relu", lam, c, c_hat, gram, scratch)


def _k_by_k(numbers: Numbers, kernel) -> Population:
    """The same population over every pair (the geometry pooling would replace)."""
    population = Population.__new__(Population)
    population.geometry = pair_geometry(numbers, BALLS)
    population.numbers, population.arith, population.kernel = numbers, BALLS, kernel
    return population


@pytest.mark.parametrize("k", [7, 16, 33])
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("variant", ["equal", "unequal_lam", "scratch"])
def test_pooled_sums_meet_the_k_by_k_sums(k, seed, variant):
    with working_precision(30):
        kernel = certified_kernel("relu", 30)
        numbers = _numbers(k, seed, unequal_lam=variant == "unequal_lam", scratch=variant == "scratch")
        pooled, full = Population(numbers, BALLS, kernel), _k_by_k(numbers, kernel)
        # two λ values make up to 4 classes a side and 8 row types, which at k = 7 may be no
        # shorter (then not pooled); the sums must agree either way
        assert isinstance(pooled.geometry, PooledGeometry) or (variant == "unequal_lam" and k == 7)
        for m in (arb(-1), arb("-0.4"), arb(0), arb("0.3"), arb(1)):
            assert pooled.h(m).overlaps(full.h(m)), (m, pooled.h(m), full.h(m))
            assert pooled.loss(m).overlaps(full.loss(m)), (m, pooled.loss(m), full.loss(m))
            # the same sum: the pooled ball is no wider than a few times the k × k one
            assert pooled.h(m).rad() <= 4 * full.h(m).rad() + arb("1e-25")


def test_small_instances_are_not_pooled():
    # k = 1, 2: the pooled sum is no shorter than the k x k one, and its diagonal moves would
    # only widen the ball
    with working_precision(30):
        for k in (1, 2):
            assert pooled_geometry(_numbers(k, 0), BALLS) is None


def test_pooling_needs_off_diagonal_zeros_that_are_exact():
    with working_precision(30):
        k = 4
        # an off-diagonal 10^-20: not G = I, so the pairs are not pooled
        tiny = [[arb(1) if i == j else (arb("1e-20") if (i, j) == (0, 1) else arb(0)) for j in range(k)]
                for i in range(k)]
        assert pooled_geometry(_numbers(k, 0, gram=tiny), BALLS) is None
        # a ball around 0 is not an exact 0 (arb's `!= 0` is False for it: the test must be `== 0`)
        around = [[arb(1) if i == j else (arb(0, 1e-30) if (i, j) == (2, 3) else arb(0)) for j in range(k)]
                  for i in range(k)]
        assert pooled_geometry(_numbers(k, 0, gram=around), BALLS) is None
        # float64 and mpmath never pool: pooled sums would move their last bits
        assert pooled_geometry(_numbers(k, 0), MPMATH) is None


def test_entrywise_calls_a_function_once_per_distinct_entry():
    calls = []

    def square(value):
        calls.append(value)
        return value * value

    values = np.array([[sympy.Rational(1, 3), sympy.Rational(1, 3)], [sympy.Integer(2), sympy.Float(2.0)]],
                      dtype=object)
    out = entrywise(EXACT, square, values)
    # 1/3 once; 2 and 2.0 apart (SymPy calls them equal, but one is exact and one a float)
    assert len(calls) == 3
    assert out[0, 1] == sympy.Rational(1, 9) and isinstance(out[1, 1], sympy.Float)


def test_certified_kernels_remember_their_balls():
    with working_precision(30):
        kernel = certified_kernel("tanh", 30)  # a series kernel
        first = kernel.derivative(arb(1) / 3)
        assert kernel.derivative(arb(1) / 3) is first  # another object, the same ball
        assert kernel.value(arb(1) / 3) is not first  # K and K' apart
        wide = kernel.derivative(arb("0.3", "1e-3"))
        assert wide is not first and wide.rad() > first.rad()
    with working_precision(60):  # another precision: another ball for 1/3, computed again
        finer = kernel.derivative(arb(1) / 3)
        assert finer is not first and finer.overlaps(first)
