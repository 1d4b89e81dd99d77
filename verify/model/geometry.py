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
from functools import cached_property
from typing import Any

import numpy as np

from verify.base.identity_memo import IdentityMemo
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
    c: np.ndarray  # c_i
    c_hat: np.ndarray  # ĉ_j
    squares: np.ndarray  # s_i = n_i²
    squares_hat: np.ndarray  # ŝ_j = n̂_j²

    # ρ^tt and ρ^ss on first use: only Φ needs them, and in balls each is k² square roots and
    # quotients (a cached_property may write __dict__ on a frozen dataclass)
    @cached_property
    def teacher(self) -> np.ndarray:
        """ρ^tt_ij = (G_ij + ξ² c_i c_j)/(n_i n_j), with ρ^tt_ii = 1 exactly."""
        return _self_overlaps(self.arithmetic, self.gram, self.xi2, self.c, self.squares)

    @cached_property
    def student(self) -> np.ndarray:
        """ρ^ss_ij = (G_ij + ξ² ĉ_i ĉ_j)/(n̂_i n̂_j), with ρ^ss_ii = 1 exactly."""
        return _self_overlaps(self.arithmetic, self.gram, self.xi2, self.c_hat, self.squares_hat)

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


def overlaps(arith: Arithmetic, gram, xi2, left, right, left_squares, right_squares):
    """(G + ξ² c c')/√(s s') entrywise over broadcast arrays: ρ^tt, ρ^ss, and ρ(m) at c' = ĉ m."""
    return (gram + xi2 * (left * right)) / entrywise(arith, arith.sqrt, left_squares * right_squares)


def _self_overlaps(arith: Arithmetic, gram: np.ndarray, xi2, c: np.ndarray, squares: np.ndarray):
    rho = overlaps(arith, gram, xi2, c[:, None], c[None, :], squares[:, None], squares[None, :])
    for i in range(len(c)):
        rho[i, i] = arith.number(1)
    return rho


@dataclass(frozen=True)
class PooledGeometry(PairGeometry):
    """The pairs of an instance with G = D·I (orthonormal rows, or W = 0), pooled: 1-D arrays of
    pair terms whose weighted sums are the k × k sums exactly.

    With G_ij = 0 off the diagonal, ρ_ij depends on i only through (λ_i, c_i) (its teacher class a)
    and on j through (λ_j, ĉ_j) (its student class b), except on the diagonal, where G_ii = D.  So

        Σ_ij w_ij f(ρ_ij) = Σ_ab N_a M_b λ_a λ_b f(ρ_ab|G=0)
                            + Σ_t P_t λ_t² [f(ρ_t|G=D) − f(ρ_t|G=0)],

    N_a, M_b the class sizes and P_t the number of rows of type t = (λ, c, ĉ); likewise ρ^tt and
    ρ^ss over the teacher's and the student's classes, whose diagonal is 1.  For quantized c and
    equal λ that is 12 pair terms in place of k²: in balls, where each of the k² terms costs Python
    ball operations, a certified h of a drawn instance (k = 65) went from 4225 terms to 12."""

    teacher_pairs: tuple = ()  # (weights, ρ^tt) of the pooled teacher pairs
    student_pairs: tuple = ()

    @property
    def teacher(self) -> np.ndarray:
        return self.teacher_pairs[1]

    @property
    def student(self) -> np.ndarray:
        return self.student_pairs[1]


def pooled_geometry(numbers: Numbers, arith: Arithmetic) -> PooledGeometry | None:
    """:class:`PooledGeometry` of ``numbers`` when ``arith`` pools pairs (``arith.pools_pairs``,
    with ``arith.key`` to tell equal numbers apart) and every off-diagonal G_ij is exactly 0,
    else None."""
    key = getattr(arith, "key", None)
    k = numbers.k
    if not getattr(arith, "pools_pairs", False) or key is None or not _off_diagonal_zero(arith, numbers.gram, k):
        return None
    diag = arith.number(numbers.row_norm2)
    xi = arith.number(numbers.xi)
    xi2 = xi * xi
    lam, c, c_hat = (array(arith, v) for v in (numbers.lam, numbers.c, numbers.c_hat))
    teacher, student, rows = _classes(key, lam, c), _classes(key, lam, c_hat), _classes(key, lam, c, c_hat)
    if 2 * (len(teacher) * len(student) + 2 * len(rows)) > k * k:
        # too few rows share a class (k = 1, or every c_i apart): the pooled sum would be no
        # shorter, and its diagonal moves (+ f(ρ|G=D) − f(ρ|G=0)) only widen the ball
        return None
    zero, one = arith.number(0), arith.number(1)

    # the cross pairs: every (teacher class, student class) at G = 0, then each row type's
    # diagonal pair moved from G = 0 to G = D
    terms = [(na * nb, la, ca, lb, cb, zero) for (la, ca), na in teacher for (lb, cb), nb in student]
    terms += [(sign * n, lt, ct, lt, cht, g) for (lt, ct, cht), n in rows for sign, g in ((1, diag), (-1, zero))]
    count, lam_i, c_i, lam_j, c_j, gram = (np.array(column, dtype=object) for column in zip(*terms))
    squares, squares_hat = row_norms2(diag, xi2, c_i), row_norms2(diag, xi2, c_j)
    products = c_i * c_j
    return PooledGeometry(
        arithmetic=arith, xi2=xi2,
        weights=array(arith, count) * lam_i * lam_j,
        gram=gram, products=products, scaled=xi2 * products,
        norms=entrywise(arith, arith.sqrt, squares * squares_hat),
        c=c, c_hat=c_hat,
        squares=row_norms2(diag, xi2, c), squares_hat=row_norms2(diag, xi2, c_hat),
        teacher_pairs=_pooled_self_pairs(arith, teacher, diag, xi2, zero, one),
        student_pairs=_pooled_self_pairs(arith, student, diag, xi2, zero, one),
    )


#: Whether a gram's off-diagonal is exactly 0, by the gram's identity (its redraws share it).
_ZERO_OFF_DIAGONAL = IdentityMemo()


def _off_diagonal_zero(arith, gram, k: int) -> bool:
    """Whether every G_ij, i ≠ j, is exactly 0 (`== 0` is True for a ball only when it is exactly
    0, while `!= 0` is False for a ball around 0)."""
    return _ZERO_OFF_DIAGONAL(gram, k, lambda: all(arith.number(gram[i][j]) == 0 for i in range(k)
                                                     for j in range(k) if i != j))


def _classes(key, *columns) -> list[tuple[tuple, int]]:
    """The distinct rows of ``columns`` (as ``key`` tells numbers apart) with their counts, in
    order of first appearance."""
    # by identity first (a drawn instance shares one ball per sign and per λ, Model.ball_view),
    # then the identity groups merged by value
    same_objects: dict = {}
    for entries in zip(*columns):
        group = same_objects.setdefault(tuple(map(id, entries)), [entries, 0])
        group[1] += 1
    found: dict = {}
    for entries, n in same_objects.values():
        group = found.setdefault(tuple(key(v) for v in entries), [entries, 0])
        group[1] += n
    return [(entries, n) for entries, n in found.values()]


def _pooled_self_pairs(arith, classes, diag, xi2, zero, one) -> tuple:
    """(weights, ρ) of Σ_ij λ_iλ_j f(ρ_ij) for one side's self-overlaps, pooled: the class pairs
    at G = 0, each class's diagonal pairs moved from ρ|G=0 to ρ_ii = 1."""
    terms = [(na * nb, la, ca, lb, cb) for (la, ca), na in classes for (lb, cb), nb in classes]
    count, lam_i, c_i, lam_j, c_j = (np.array(column, dtype=object) for column in zip(*terms))
    rho = overlaps(arith, zero, xi2, c_i, c_j, row_norms2(diag, xi2, c_i), row_norms2(diag, xi2, c_j))
    weights = array(arith, count) * lam_i * lam_j
    diagonal = np.array([n * la * la for (la, _), n in classes], dtype=object)
    own = np.array([ca for (_, ca), _ in classes], dtype=object)
    squares = row_norms2(diag, xi2, own)
    off = overlaps(arith, zero, xi2, own, own, squares, squares)
    weights = np.concatenate([weights, diagonal, -diagonal])
    rho = np.concatenate([rho, np.array([one] * len(classes), dtype=object), off])
    return weights, rho


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
        c=c,
        c_hat=c_hat,
        squares=squares,
        squares_hat=squares_hat,
    )
