r"""The exact reduced engine: online SGD on the overlaps, at a cost independent of d.

Why the overlaps form an exact Markov chain at every finite d.  Fix the frame
B = [Q, q_u] of span(W, u) (:mod:`verify.simulate.problem`, dimension p) and write the
iterate as û_t = B a_t + β_t e_t with a_t ∈ R^p, β_t ≥ 0 and e_t a unit vector ⊥ B.
Given the past, the sample x_t ~ N(0, I_d) is independent of (a_t, β_t, e_t), and by
rotational invariance of the Gaussian its decomposition

    x = B z + b e_t + x_rest,   z ~ N(0, I_p),  b ~ N(0, 1),  x_rest ⊥ span(B, e_t),

has z, b, x_rest independent, x_rest standard Gaussian in a (d − p − 1)-dimensional space,
so ‖x_rest‖² ~ χ²_{d−p−1} and its direction x̂_rest is uniform, independent of its norm.
Every mode's step (:mod:`verify.simulate.model`) is û − η g with

    g = κ_x x + Σ_j κ_{w,j} w_j + κ_h û   (then projected onto span(W)⊥ and/or û⊥),

where the κ's are functions of ⟨w_j, x⟩ = (Wc z)_j, ⟨u, x⟩ = uc·z, ⟨û, x⟩ = a·z + β b and
⟨w_j, û⟩ = (Wc a)_j only.  The projections act on the frame coordinates (onto span(W)⊥:
zero the Q block) and do not touch e_t or x_rest, which are ⊥ span(W, u).  Hence

    û_{t+1} ∝ B (a − η g_F) + (β − η g_e) e_t − η κ_x ‖x_rest‖ x̂_rest,

and the new unit vector e_{t+1} ∝ (β − η g_e) e_t − η κ_x ‖x_rest‖ x̂_rest lies ⊥ B with
β_{t+1} = √((β − η g_e)² + η² κ_x² ‖x_rest‖²)/N.  The law of (a_{t+1}, β_{t+1}) given the
past depends on (a_t, β_t) (and ĉ_t when it is trained) only: e_{t+1} is never needed again,
because the next sample is fresh and rotation invariant around the frame.  So (a_t, β_t, ĉ_t)
is an exact Markov chain, driven per step by p + 1 normals and one χ²_{d−p−1} variable:
O(p k) work per replica-step whatever d is.  The start is exact too: û_0 uniform on the
sphere of span(W)⊥ has frame part (0, g)/N and β = √χ²_{d−p}/N with g ~ N(0, 1).

Minibatches (``batch`` B > 1).  One update uses B fresh samples and the sum of their
gradients, û ← proj(û − η Σ_b g_b): minibatch SGD with step Bη on the mean.  The chain
stays exact for it: given the state, Σ_b κ_{x,b} x_rest,b is Gaussian in the
(d − p − 1)-dimensional complement with covariance (Σ_b κ_{x,b}²) I, so one χ²_{d−p−1}
variable per update and per replica still carries the whole complement, and the frame
parts are sums of the per-sample ones (``tests/test_simulate_batch.py`` checks this chain
against minibatch SGD run in R^d by the full engine).

Why B samples with step η stand in for B online steps (what :mod:`verify.figures` uses to
reach the paper's sizes): both take the gradient sum of B fresh samples; online SGD takes
each at the current iterate, the block at the iterate where the block starts.  The spherical
renormalisation agrees in mean: online B steps shrink m by (η²/2) Σ_b ‖g_b‖², the block by
(η²/2)‖Σ_b g_b‖², whose noise part has the same mean.  What differs is of the order of how far
the iterate (û, and ĉ when it is trained) moves within one block, so the clock is the number
of samples t = B × updates and the approximation is controlled by that per-block
displacement.  This is a heuristic, not a bound: :func:`verify.figures.full_tier.sample_batch`
keeps the displacement under 0.01, and the slow tests compare the figure rule's B with B = 1
on hitting times and overlap laws (where blocks of displacement 0.03–0.06 were tried on joint
training with sigmoid at k = 50, they froze runs that online SGD completes).

Where it is not exact: nowhere among the modes of :mod:`verify.simulate.modes`.  The
argument needs (i) fresh Gaussian samples, (ii) an update that sees x only through the
frame projections and ⟨û, x⟩ times a vector in span(frame, û, x).  Reusing samples
(multi-pass training), non-Gaussian x or coordinate-wise optimisers (Adam, clipping per
coordinate) break it; none of those is in the paper.
"""

from __future__ import annotations

import math

import numpy as np

from verify.simulate.full import frame_basis
from verify.simulate.model import FrozenStudent, step_c, terms
from verify.simulate.modes import Mode
from verify.simulate.problem import Problem, perpendicular_dimension, student_direction
from verify.simulate.streams import BlockNormals, chi_square

#: Steps drawn per refill of the per-replica normal buffers (amortises R generator calls).
BLOCK_STEPS = 128


def projections(problem: Problem, z: np.ndarray, b: np.ndarray, a: np.ndarray, beta: np.ndarray,
                constrained: bool):
    """(⟨w_j, x⟩, ⟨u, x⟩, ⟨û, x⟩, ⟨w_j, û⟩ or None) from frame coordinates."""
    r = problem.r
    zw = z[:, :r] @ problem.L.T
    zu = z @ problem.uc
    zh = np.einsum("ij,ij->i", z, np.broadcast_to(a, z.shape)) + beta * b
    wh = None if constrained else a[..., :r] @ problem.L.T
    return zw, zu, zh, wh


def block_updates(batch: int) -> int:
    """Updates per refill of the normal buffers: ``BLOCK_STEPS`` samples (at least one update)."""
    return max(1, BLOCK_STEPS // batch)


def chi2_df(problem: Problem) -> int:
    """Degrees of freedom of ‖x_rest‖², d − p − 1 (0: no χ² is drawn)."""
    return max(perpendicular_dimension(problem) - 1, 0)


def start_state(problem: Problem, rngs: list[np.random.Generator], init: str = "random",
                m0: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(a, β) of û_0 for each replica (R×p, R): the instance's û, ⟨û_0, u⟩ = m0, or uniform on
    the sphere of span(W)⊥ from ``rngs[i]`` (p − r normals, then one χ²_{d−p}: the start
    of the module docstring)."""
    R, p, r = len(rngs), problem.p, problem.r
    dim_perp = perpendicular_dimension(problem)
    a, beta = np.zeros((R, p)), np.zeros(R)
    if init == "instance":

        u_hat = problem.u_hat
        if u_hat is None or not problem.has_vectors:
            raise ValueError("init='instance' needs the instance's W, u and u_hat")
        B = frame_basis(problem)
        a[:] = B.T @ u_hat
        beta[:] = np.linalg.norm(u_hat - B @ a[0])
    elif m0 is not None:
        _, a0, beta0 = student_direction(problem, m0)
        a[:] = a0
        beta[:] = beta0
    else:
        for i, rng in enumerate(rngs):  # uniform on the sphere of span(W)⊥
            g = rng.standard_normal(p - r)
            rest = chi_square(rng, dim_perp) if dim_perp else 0.0
            norm = math.sqrt(float(g @ g) + rest)
            a[i, r:] = g / norm
            beta[i] = math.sqrt(rest) / norm
    return a, beta


class ReducedEngine:
    """R replicas of the chain (a, β, ĉ) in lockstep; replica i uses ``rngs[i]`` only."""

    def __init__(self, problem: Problem, mode: Mode, rngs: list[np.random.Generator],
                 init: str = "random", m0: float | None = None, batch: int = 1):
        self.problem, self.mode, self.batch = problem, mode, batch
        self.dim_perp = perpendicular_dimension(problem)
        self.active = slice(problem.r, problem.p) if mode.constrained else slice(0, problem.p)
        self.a, self.beta = start_state(problem, rngs, init, m0)
        R = len(rngs)
        self.c_hat = np.tile(problem.c_hat, (R, 1)) if mode.train_c else problem.c_hat.copy()
        fused = not mode.train_c and mode.constrained and not mode.linearized
        self.fused = FrozenStudent(problem, problem.c_hat) if fused else None
        # B = 1 keeps the historical stream (block of 128 steps, one χ² per step).
        self.normals = BlockNormals(rngs, batch * (problem.p + 1), block_updates(batch),
                                    chi2_df(problem))

    def step(self, eta: float, eta_c: float | None = None) -> tuple[np.ndarray, np.ndarray | None]:
        """One update of every replica from ``batch`` fresh samples (the sum of their gradients,
        step ``eta`` for û and ``eta_c`` (default ``eta``) for ĉ); returns the norms divided out
        (û, and ĉ if trained)."""
        pb, B = self.problem, self.batch
        act, a, beta = self.active, self.a, self.beta
        R = len(beta)
        x, chi2 = self.normals.take()
        x = x.reshape(R, B, pb.p + 1)
        z = x[..., :pb.p]
        b = x[..., pb.p] if self.dim_perp else np.zeros((R, B))
        if self.fused is not None:
            zh = np.einsum("rbi,ri->rb", z[..., act], a[:, act]) + beta[:, None] * b
            flat = z.reshape(R * B, pb.p)  # 2-D matmul: the same rounding as the B = 1 chain
            _, kx = self.fused.terms(flat[:, :pb.r], flat @ pb.uc, zh.reshape(-1))
            t = None
        else:
            # One row per sample, each with its replica's state (no copies for online steps).
            rows = (lambda v: np.repeat(v, B, axis=0)) if B > 1 else (lambda v: v)
            zw, zu, zh, wh = projections(pb, z.reshape(R * B, pb.p), b.reshape(-1), rows(a), rows(beta),
                                         self.mode.constrained)
            c_rows = rows(self.c_hat) if self.mode.train_c else self.c_hat
            t = terms(pb, zw, zu, zh, wh, c_rows, self.mode.linearized, self.mode.train_c)
            kx = t.kx
        kx = kx.reshape(R, B)
        gF = np.einsum("rb,rbi->ri", kx, z[..., act])
        ge = np.einsum("rb,rb->r", kx, b)
        if t is not None and t.kw is not None:
            gF += (t.kw.reshape(R, B, -1).sum(axis=1) @ pb.Wc)[:, act]
        if t is not None and t.kh is not None:
            kh = t.kh.reshape(R, B).sum(axis=1)
            gF += kh[:, None] * a[:, act]
            ge += kh * beta
        # √(Σ κ²)·√χ² (not √(Σ κ² χ²)): for B = 1 this is |κ|√χ², bit for bit the online step.
        gr = np.sqrt(np.einsum("rb,rb->r", kx, kx)) * np.sqrt(chi2)
        along = np.einsum("ij,ij->i", gF, a[:, act]) + ge * beta  # tangent projection
        gF -= along[:, None] * a[:, act]
        ge -= along * beta
        a[:, act] -= eta * gF
        beta_new = np.hypot(beta - eta * ge, eta * gr)
        norm = np.sqrt(np.einsum("ij,ij->i", a[:, act], a[:, act]) + beta_new**2)
        a[:, act] /= norm[:, None]
        self.beta = beta_new / norm
        if t is None or not self.mode.train_c:
            return norm, None
        return norm, step_c(self.c_hat, t.gc.reshape(R, B, -1).sum(axis=1), eta if eta_c is None else eta_c)

    def overlaps(self) -> tuple[np.ndarray, np.ndarray]:
        """(m = ⟨û, u⟩, ⟨ĉ, c⟩) per replica."""
        c_overlap = np.broadcast_to(self.c_hat @ self.problem.c, self.beta.shape)
        return self.a @ self.problem.uc, np.array(c_overlap)

    def frame_state(self):
        return self.a, self.beta, np.broadcast_to(self.c_hat, (len(self.beta), self.problem.k))

