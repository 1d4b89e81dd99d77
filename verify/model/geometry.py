r"""The row geometry of teacher and student, written once for every arithmetic.

Rows (Appendix D.1, with u, û ⊥ span W by Assumption 2):

    v_i = (w_i + ξ c_i u)/n_i,   v̂_j = (w_j + ξ ĉ_j û)/n̂_j,
    n_i = ‖w_i + ξ c_i u‖ = √(D + ξ² c_i²),   n̂_j = √(D + ξ² ĉ_j²),

D = ‖w_i‖² = 1 (Assumption 1), or 0 for the scratch / GLM instances (W = 0, rows ±u).  For
quantized c (Assumption 3) n_i = √(1 + ξ²/k), as in the paper.  With m = ⟨u, û⟩ and G = W Wᵀ:

    ρ^tt_ij = (G_ij + ξ² c_i c_j)/(n_i n_j),   ρ^ss_ij = (G_ij + ξ² ĉ_i ĉ_j)/(n̂_i n̂_j),
    ρ_ij(m) = ⟨v_i, v̂_j⟩ = B_ij + ξ² A_ij m,   A_ij = c_i ĉ_j/(n_i n̂_j),   B_ij = G_ij/(n_i n̂_j).

The diagonal of G is D exactly (:func:`verify.model.instance.nominal_gram`), and ρ^tt_ii =
ρ^ss_ii = 1 exactly: computed, they are 1 ± ε, which costs √ε in kernels with √(1 − ρ²).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from verify.model.arithmetic import FLOAT64, Arithmetic, array, overlap_axis
from verify.model.instance import Numbers


@dataclass(frozen=True)
class PairGeometry:
    """The k × k arrays of one instance's pair overlaps, in one arithmetic."""

    arithmetic: Arithmetic
    xi2: Any  # ξ²
    weights: np.ndarray  # λ_i λ_j
    coupling: np.ndarray  # A_ij = c_i ĉ_j/(n_i n̂_j)
    slope: np.ndarray  # ξ² A_ij, the rate at which ρ_ij(m) moves with m
    base: np.ndarray  # B_ij = G_ij/(n_i n̂_j)
    teacher: np.ndarray  # ρ^tt_ij
    student: np.ndarray  # ρ^ss_ij

    def cross(self, m) -> np.ndarray:
        """ρ_ij(m) = B_ij + ξ² A_ij m; float64 m of any shape gives shape m.shape + (k, k)."""
        return self.base + self.slope * overlap_axis(self.arithmetic, m)


def row_norms(arith: Arithmetic, row_norm2, xi2, c: np.ndarray) -> np.ndarray:
    """n_i = √(D + ξ² c_i²): the one place the norm of a perturbed row is computed."""
    squares = row_norm2 + xi2 * c * c
    if not arith.objects:
        return np.sqrt(squares)
    return np.array([arith.sqrt(v) for v in squares], dtype=object)


def _self_overlaps(arith: Arithmetic, gram: np.ndarray, xi2, c: np.ndarray, n: np.ndarray) -> np.ndarray:
    rho = (gram + xi2 * np.outer(c, c)) / np.outer(n, n)
    for i in range(len(c)):
        rho[i, i] = arith.number(1)
    return rho


def pair_geometry(numbers: Numbers, arith: Arithmetic = FLOAT64) -> PairGeometry:
    """The overlaps of ``numbers`` (λ, c, ĉ, ξ, G, D of an instance) in ``arith``."""
    diag = arith.number(numbers.row_norm2)
    xi = arith.number(numbers.xi)
    xi2 = xi * xi
    lam, c, c_hat = (array(arith, v) for v in (numbers.lam, numbers.c, numbers.c_hat))
    gram = array(arith, numbers.gram)
    for i in range(numbers.k):
        gram[i, i] = diag
    n, n_hat = row_norms(arith, diag, xi2, c), row_norms(arith, diag, xi2, c_hat)
    cross_norms = np.outer(n, n_hat)
    return PairGeometry(
        arithmetic=arith,
        xi2=xi2,
        weights=np.outer(lam, lam),
        coupling=np.outer(c, c_hat) / cross_norms,
        # ξ²c_iĉ_j/(n_i n̂_j) in one quotient: for W = 0 it is ±1 to the last bit (n_i = ξ|c_i|), where
        # ξ² times the rounded A_ij was 1 − 2⁻⁵³ and relu's K' turned that into an error of 5e-9.
        slope=xi2 * np.outer(c, c_hat) / cross_norms,
        base=gram / cross_norms,
        teacher=_self_overlaps(arith, gram, xi2, c, n),
        student=_self_overlaps(arith, gram, xi2, c_hat, n_hat),
    )
