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

from verify.model.arithmetic import FLOAT64, Arithmetic, array, entrywise, overlap_axis
from verify.model.instance import Numbers


@dataclass(frozen=True)
class PairGeometry:
    """The k × k arrays of one instance's pair overlaps, in one arithmetic.

    ρ_ij(m) is evaluated as one quotient, (G_ij + ξ²c_iĉ_j m)/√(s_i ŝ_j) with s_i = n_i², rather
    than as B_ij + ξ²A_ij m: where ρ_ij(±1) = ±1 (ĉ_j = ±c_i and G_ij = D) the quotient is ±1 to
    the last bit (√(x·x) = x in IEEE arithmetic), while the rounded sum lands an ulp inside and
    relu's K'(ρ) = (π − acos ρ)/2π turns that ulp into an error of 5·10⁻⁹."""

    arithmetic: Arithmetic
    xi2: Any  # ξ²
    weights: np.ndarray  # λ_i λ_j
    gram: np.ndarray  # G_ij, with G_ii = D exactly
    products: np.ndarray  # c_i ĉ_j
    scaled: np.ndarray  # ξ² c_i ĉ_j
    norms: np.ndarray  # n_i n̂_j = √(s_i ŝ_j)
    teacher: np.ndarray  # ρ^tt_ij
    student: np.ndarray  # ρ^ss_ij

    @property
    def coupling(self) -> np.ndarray:
        """A_ij = c_i ĉ_j/(n_i n̂_j) (the series' coefficients carry ξ² separately)."""
        return self.products / self.norms

    @property
    def base(self) -> np.ndarray:
        """B_ij = G_ij/(n_i n̂_j) = ρ_ij(0)."""
        return self.gram / self.norms

    @property
    def slope(self) -> np.ndarray:
        """ξ² A_ij, the rate at which ρ_ij(m) moves with m."""
        return self.scaled / self.norms

    def cross(self, m) -> np.ndarray:
        """ρ_ij(m) = (G_ij + ξ² c_i ĉ_j m)/(n_i n̂_j); float64 m of any shape gives shape m.shape + (k, k)."""
        return (self.gram + self.scaled * overlap_axis(self.arithmetic, m)) / self.norms


def row_norms2(row_norm2, xi2, c: np.ndarray) -> np.ndarray:
    """s_i = n_i² = D + ξ² c_i²: the one place the norm of a perturbed row is computed."""
    return row_norm2 + xi2 * c * c


def row_norms(arith: Arithmetic, row_norm2, xi2, c: np.ndarray) -> np.ndarray:
    """n_i = √(D + ξ² c_i²)."""
    return entrywise(arith, arith.sqrt, row_norms2(row_norm2, xi2, c))


def _self_overlaps(arith: Arithmetic, gram: np.ndarray, xi2, c: np.ndarray, squares: np.ndarray):
    rho = (gram + xi2 * np.outer(c, c)) / entrywise(arith, arith.sqrt, np.outer(squares, squares))
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
    squares, squares_hat = row_norms2(diag, xi2, c), row_norms2(diag, xi2, c_hat)
    return PairGeometry(
        arithmetic=arith,
        xi2=xi2,
        weights=np.outer(lam, lam),
        gram=gram,
        products=np.outer(c, c_hat),
        scaled=xi2 * np.outer(c, c_hat),
        norms=entrywise(arith, arith.sqrt, np.outer(squares, squares_hat)),
        teacher=_self_overlaps(arith, gram, xi2, c, squares),
        student=_self_overlaps(arith, gram, xi2, c_hat, squares_hat),
    )
