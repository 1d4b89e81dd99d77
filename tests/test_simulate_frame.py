"""The simulation frame does not depend on which basis LAPACK returns.

For orthonormal rows every singular value is 1, so any rotation of the singular vectors is
a valid SVD, and OpenBLAS's kernels (picked by CPU) return different ones.  The engines draw
z ~ N(0, I_r) and use z Lᵀ, so before the frame was settled one seed gave different
Monte-Carlo numbers on different machines (the README's errata table then differed from a
fresh `verify check` on a fresh clone).
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys

import numpy as np
import pytest
from scipy.stats import special_ortho_group

from verify.model.instance import orthonormal
from verify.simulate.modes import MODES
from verify.simulate.problem import _settle_degenerate_subspaces, build_problem


def _rotated_frames(W: np.ndarray, rotations: int):
    """(Q, L) pairs: the SVD's row-space basis of W turned by random rotations, as another
    LAPACK might return it (valid because every singular value of W is 1)."""
    _, s, vt = np.linalg.svd(W, full_matrices=False)
    rng = np.random.default_rng(0)
    for _ in range(rotations):
        Q = vt.T @ special_ortho_group.rvs(len(s), random_state=rng)
        yield s, Q, W @ Q


@pytest.mark.parametrize("k", [1, 2, 4, 7])
def test_orthonormal_rows_get_one_frame_whatever_basis_the_svd_returns(k):
    W = np.asarray(orthonormal(k, 40, 1.0, "relu", seed=3).W, float)
    settled = []
    for s, Q, L in _rotated_frames(W, rotations=5):
        _settle_degenerate_subspaces(s, Q, L)
        # still a frame of the same rows (tolerance: a few QR roundings of O(1) numbers)
        np.testing.assert_allclose(Q.T @ Q, np.eye(k), atol=1e-13)
        np.testing.assert_allclose(L, W @ Q, atol=1e-13)
        np.testing.assert_allclose(L @ L.T, W @ W.T, atol=1e-13)
        settled.append(L)
    for L in settled[1:]:
        np.testing.assert_allclose(L, settled[0], atol=1e-13)
    np.testing.assert_allclose(settled[0], np.tril(settled[0]), atol=1e-13)  # canonical form
    assert np.all(np.diag(settled[0]) > 0)


def test_distinct_singular_values_keep_lapacks_vectors():
    # rows with distinct singular values: the SVD basis is unique up to sign, left as is
    W = np.diag([3.0, 2.0, 1.0]) @ np.eye(3, 10)
    _, s, vt = np.linalg.svd(W, full_matrices=False)
    Q = vt.T.copy()
    L = W @ Q
    before = Q.copy()
    _settle_degenerate_subspaces(s, Q, L)
    np.testing.assert_array_equal(Q, before)


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="OpenBLAS x86 kernels")
def test_the_frame_is_the_same_under_two_blas_kernels():
    # Haswell and Sandybridge kernels gave different bases for this instance before the fix
    code = ("from verify.paper.packs.dayi_chen.checks.app_c1_dynamics import run_instance;"
            "from verify.simulate.problem import build_problem;"
            "from verify.simulate.modes import MODES;"
            "import json;"
            "print(json.dumps(build_problem(run_instance(1000), MODES['frozen']).L.tolist()))")
    frames = []
    for kernel in ("Haswell", "Sandybridge"):
        env = dict(os.environ, OPENBLAS_CORETYPE=kernel)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                             check=True, timeout=120)
        frames.append(np.array(json.loads(out.stdout)))
    np.testing.assert_allclose(frames[0], frames[1], atol=1e-13)


def test_build_problem_frame_is_canonical_for_orthonormal_rows():
    pb = build_problem(orthonormal(4, 30, 1.0, "relu", seed=1), MODES["frozen"])
    np.testing.assert_allclose(pb.L, np.eye(4), atol=1e-13)
