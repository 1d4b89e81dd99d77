"""The fixed geometry of one simulation: base rows, teacher, frame, output scale.

The *frame* is an orthonormal basis B = [Q, q_u] of span(w_1, …, w_k, u): Q (d×r)
spans the rows of W (r = rank W) and q_u = u_⊥/‖u_⊥‖ is the part of u outside span W
(absent when u ∈ span W).  Every fixed vector has coordinates in it:

    w_j = B (Wc)_j,   Wc = [L, 0] with L = W Q (k×r, L Lᵀ = W Wᵀ),   u = B uc,   uc = [Qᵀu, ‖u_⊥‖].

Within a degenerate subspace (equal singular values) the basis is made canonical
(:func:`canonical_rotation`), so the same seed draws the same samples on every CPU.  The
reduced engine works in these coordinates only; the full engine uses Q to project onto
span(W)⊥.  For an instance given by its Gram matrix alone (no W, u), the frame is built
from the Gram matrix (L from its eigendecomposition), and u ⊥ span W
(Assumption 2) gives uc = [0, 1].

Row normalisation (Appendix D.1, eq. (11)): every row is divided by its actual norm,
v_i = (w_i + ξ c_i u)/‖w_i + ξ c_i u‖, so with ‖w_i‖ = 1 and u ⊥ W the norm is
√(1 + ξ² c_i²) (= √(1 + ξ²/k) for quantized c) as in :mod:`verify.model.population`.  With
W = 0 (``scratch``) the rows are sign(c_i) u: for λ = 1/k, c = 1/√k the teacher is
exactly σ(⟨u, x⟩), the GLM of §1.2, for every ξ.

Output scale (Appendix B): "We let f(x) = (1/ξ) Σ_i λ_i σ(⟨v_i, x⟩) where
v_i = k/(k+ξ²)(w_i + ξ c_i u) where the 1/ξ is to keep the magnitude of gradients
consistent."  With ``appendix_b_scaling=True`` both networks are multiplied by 1/ξ; the
rows keep the D.1 normalisation.  Then Φ and h are those of D.1 times 1/ξ², and SGD
with step η is SGD on the D.1 loss with step η/ξ².  (Appendix B's factor k/(k+ξ²) is
not a normalisation: ‖w_i + ξ c_i u‖ = √((k+ξ²)/k) for quantized c, so those rows have
norm √(k/(k+ξ²)) ≠ 1; for ReLU that only rescales the output by √(k/(k+ξ²)), i.e. the
step by k/(k+ξ²); for c on S^{k−1} no common factor normalises every row.)

Row scale (Appendix B as printed): with ``row_scale`` = (r_1, …, r_k) the rows are *scaled*,
not normalised: t_i = r_i (⟨w_i, x⟩ + ξ c_i ⟨u, x⟩) and z_j = r_j (⟨w_j, x⟩ + ξ ĉ_j ⟨û, x⟩),
with r_i = k/(k+ξ²) for Appendix B's v_i = (k/(k+ξ²))(w_i + ξ c_i u).  Then ρ_j = 1/r_j is a
constant (no normalisation derivative in the gradients, :mod:`verify.simulate.model`), the
rows are not unit vectors (norm r_i √(1 + ξ² c_i²)), and the closed forms of D.1 do not
describe the network.  For a non-homogeneous σ (sigmoid) this changes the pre-activations
themselves, not only the output's scale.  The reduced chain stays exact: a constant per-row
factor still lets the per-sample update see x only through ⟨w_j, x⟩, ⟨u, x⟩ and ⟨û, x⟩.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from verify.base.errors import InvalidParameterError
from verify.model.activations import Activation, get_activation
from verify.simulate.modes import Mode

#: Singular values of W below this are treated as 0 (rows are unit vectors, so the
#: nonzero singular values of the paper's instances are O(1); rounding leaves ~k·eps).
RANK_TOL = 1e-9


@dataclass(frozen=True)
class Problem:
    """What the engines need, derived once from an instance and a mode."""

    k: int
    d: int
    xi: float
    lam: np.ndarray
    c: np.ndarray
    c_hat: np.ndarray
    act: Activation
    activation: str
    scale: float  # output scale s: 1, or 1/ξ (Appendix B)
    row_scale: np.ndarray | None  # r_j of the scaled rows (Appendix B as printed), None: D.1 normalisation
    row_sq: np.ndarray  # ‖w_j‖² (1, or 0 when scratch)
    teacher_norm: np.ndarray  # n_i = ‖w_i + ξ c_i u‖
    L: np.ndarray  # k×r, W = L Qᵀ
    Wc: np.ndarray  # k×p frame coordinates of the rows
    uc: np.ndarray  # p frame coordinates of u
    r: int
    p: int
    u_orthogonal: bool  # u ⊥ span W (Assumption 2), so the closed forms apply
    W: np.ndarray | None  # k×d (None for a Gram-only instance)
    Q: np.ndarray | None  # d×r
    u: np.ndarray | None
    u_hat: np.ndarray | None
    scratch: bool

    @property
    def has_vectors(self) -> bool:
        return self.W is not None and self.u is not None


#: Singular values (Gram eigenvalues) closer than this, relative to the largest, span a
#: degenerate subspace: LAPACK's basis of it is arbitrary (see canonical_rotation).
DEGENERATE_TOL = 1e-8


def canonical_rotation(L: np.ndarray) -> np.ndarray:
    """The orthogonal O with L O lower-trapezoidal and a positive diagonal.

    Lᵀ = O R (QR); L O = Rᵀ is unique, up to rounding, whenever the first columns' worth of
    rows of L are independent, whatever basis L was expressed in."""
    if L.shape[1] == 0:
        return np.eye(0)
    O, R = np.linalg.qr(L.T, mode="complete")
    signs = np.where(np.diag(R[:, : L.shape[1]]) < 0, -1.0, 1.0)
    return O * signs


def _settle_degenerate_subspaces(values: np.ndarray, Q: np.ndarray, L: np.ndarray) -> None:
    """Replace, in place, the basis of every cluster of equal ``values`` by its canonical one.

    Where singular values coincide (orthonormal rows: all are 1) any rotation of their
    singular vectors is valid, and which one LAPACK returns depends on the BLAS kernel the
    CPU selects (OpenBLAS's Haswell and SkylakeX kernels return different ones).  The
    engines draw z ~ N(0, I_r) and use z Lᵀ: the same law in every basis but not the same
    samples, so one seed gave different Monte-Carlo numbers on different machines (App. E's
    V_k estimate read 11.1 on one and 13.9 on another).  Distinct singular values keep
    LAPACK's vectors, whose sign convention has agreed across the kernels tried, so the
    draws of non-degenerate instances are unchanged."""
    scale = float(np.max(np.abs(values), initial=0.0))
    start = 0
    while start < len(values):
        stop = start + 1
        while stop < len(values) and abs(values[stop] - values[start]) <= DEGENERATE_TOL * scale:
            stop += 1
        if stop - start > 1:
            block = slice(start, stop)
            rotation = canonical_rotation(L[:, block])
            Q[:, block] = Q[:, block] @ rotation
            L[:, block] = L[:, block] @ rotation
        start = stop


def _frame_from_vectors(W: np.ndarray, u: np.ndarray):
    _, s, vt = np.linalg.svd(W, full_matrices=False)
    r = int(np.sum(s > RANK_TOL))
    Q = vt[:r].T.copy()
    L = W @ Q
    _settle_degenerate_subspaces(s[:r], Q, L)
    uW = Q.T @ u
    u_perp = u - Q @ uW
    norm_perp = float(np.linalg.norm(u_perp))
    return Q, L, uW, norm_perp


def _frame_from_gram(gram: np.ndarray):
    vals, vecs = np.linalg.eigh(gram)
    keep = vals > RANK_TOL**2 * max(1.0, float(vals.max(initial=0.0)))
    L = vecs[:, keep] * np.sqrt(vals[keep])
    _settle_degenerate_subspaces(vals[keep], vecs[:, keep].copy(), L)
    return L


def build_problem(instance, mode: Mode, appendix_b_scaling: bool = False,
                  row_scale: float | np.ndarray | None = None) -> Problem:
    """The :class:`Problem` of ``instance`` trained in ``mode`` (``scratch`` drops W); with
    ``row_scale`` (one number, or one per row) the rows are scaled by it instead of normalised."""
    k, d, xi = instance.k, instance.d, float(instance.xi)
    scratch = mode.scratch or instance.scratch
    W = None if instance.W is None else np.asarray(instance.W, dtype=float)
    u = None if instance.u is None else np.asarray(instance.u, dtype=float)
    if scratch and W is not None:
        W = np.zeros((k, d))
    Q = None
    if W is not None and u is not None:
        Q, L, uW, norm_perp = _frame_from_vectors(W, u)
    else:
        if instance.allow_nonorthogonal_u:
            raise InvalidParameterError("an instance with u not orthogonal to span W needs W and u "
                                        "themselves, not only the Gram matrix")
        L = np.zeros((k, 0)) if scratch else _frame_from_gram(np.asarray(instance.gram, dtype=float))
        uW, norm_perp = np.zeros(L.shape[1]), 1.0
    r = L.shape[1]
    has_perp = norm_perp > RANK_TOL
    p = r + int(has_perp)
    Wc = np.zeros((k, p))
    Wc[:, :r] = L
    uc = np.concatenate([uW, [norm_perp] if has_perp else []])
    row_sq = np.zeros(k) if scratch else np.einsum("ij,ij->i", L, L)
    c = np.asarray(instance.c, dtype=float)
    wu = L @ uW
    scales = None
    if row_scale is not None:
        scales = np.broadcast_to(np.asarray(row_scale, dtype=float), (k,)).copy()
        if not (np.all(np.isfinite(scales)) and np.all(scales > 0)):
            raise InvalidParameterError(f"row_scale must be finite and > 0 (it multiplies the rows), "
                                        f"got {row_scale!r}")
    # n_i: what t_i divides by, the row's norm (D.1) or 1/r_i (scaled rows)
    teacher_norm = np.sqrt(row_sq + 2 * xi * c * wu + xi**2 * c**2) if scales is None else 1.0 / scales
    return Problem(
        k=k, d=d, xi=xi, lam=np.asarray(instance.lam, dtype=float), c=c,
        c_hat=np.asarray(instance.c_hat, dtype=float), act=get_activation(instance.activation),
        activation=instance.activation, scale=1.0 / xi if appendix_b_scaling else 1.0, row_scale=scales,
        row_sq=row_sq, teacher_norm=teacher_norm, L=L, Wc=Wc, uc=uc, r=r, p=p,
        u_orthogonal=bool(np.linalg.norm(uW) <= 1e-10), W=W, Q=Q, u=u,
        u_hat=None if instance.u_hat is None else np.asarray(instance.u_hat, dtype=float),
        scratch=scratch,
    )


def perpendicular_dimension(problem: Problem) -> int:
    """dim of span(B)⊥ = d − p: where û's part outside the frame and the noise live."""
    if problem.d < problem.p:
        raise InvalidParameterError(f"d = {problem.d} is smaller than the frame dimension {problem.p}")
    return problem.d - problem.p


def student_direction(problem: Problem, m: float, instance_u_hat: np.ndarray | None = None):
    """A û ⊥ span W with ⟨û, u⟩ = m: û = (m/‖u_⊥‖) q_u + √(1 − m²/‖u_⊥‖²) e.

    e is the instance's û with its frame components removed (a fixed direction of
    span(W, u)⊥), so the full engine sees the same geometry as the reduced one.
    Returns (the d-vector or None, frame coordinates a, β).
    """
    has_perp = problem.p > problem.r
    norm_perp = float(problem.uc[-1]) if has_perp else 0.0
    if abs(m) > norm_perp + 1e-15:
        raise InvalidParameterError(f"m = {m!r} is not reachable by a u_hat orthogonal to span W: "
                                    f"|m| <= ||u_perp|| = {norm_perp:.6g}")
    along = m / norm_perp if has_perp else 0.0
    beta = math.sqrt(max(0.0, 1.0 - along**2))
    a = np.zeros(problem.p)
    if has_perp:
        a[problem.r] = along
    vector = None
    if problem.has_vectors:
        assert problem.Q is not None and problem.u is not None
        q_u = (problem.u - problem.Q @ (problem.Q.T @ problem.u)) / norm_perp if has_perp else None
        basis = problem.Q if q_u is None else np.column_stack([problem.Q, q_u])
        seed_vec = problem.u_hat if problem.u_hat is not None else np.ones(problem.d)
        e = seed_vec - basis @ (basis.T @ seed_vec)
        e = e - basis @ (basis.T @ e)
        e /= np.linalg.norm(e)
        vector = e * beta if q_u is None else along * q_u + beta * e
    return vector, a, beta
