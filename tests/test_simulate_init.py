"""The starting point of SGD: û_0 uniform on the unit sphere of span(W)⊥ (§2), in both engines.

For û uniform on S^{n−1} with n = d − rank W and u a unit vector of that subspace,
m_0² = ⟨û_0, u⟩² ~ Beta(1/2, (n−1)/2): mean 1/n, variance 2(n−1)/(n²(n+2)).  The test
compares the replica mean of m_0² with 1/n at |z| ≤ 5.33 (two-sided 1e-7); a dimension
off by one (1/(n+1)) is ≈ 18 standard errors away at n = 6 with 20 000 replicas.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from verify.model.instance import orthonormal
from verify.simulate import simulate

Z_CRIT = 5.33


@pytest.mark.parametrize("engine", ["reduced", "full"])
def test_initial_overlap_is_uniform_on_the_sphere_of_span_w_perp(engine):
    k, d, replicas = 4, 10, 20_000 if engine == "reduced" else 4_000
    inst = orthonormal(k, d, 1.0, "relu", seed=5)
    traj = simulate(inst, "frozen", steps=1, lr=1e-9, replicas=replicas, engine=engine, seed=11,
                    quiet=True, loss_samples=0)
    m0_sq = traj.m[0] ** 2
    n = d - k
    mean, var = 1 / n, 2 * (n - 1) / (n**2 * (n + 2))
    z = (m0_sq.mean() - mean) / math.sqrt(var / replicas)
    assert abs(z) <= Z_CRIT, (engine, m0_sq.mean(), mean, z)
    assert np.all(np.abs(traj.m[0]) <= 1)
