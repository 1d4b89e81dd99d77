"""The full engine: online SGD (eq. (4)) with x drawn in R^d, R replicas in lockstep.

Per step and replica: one fresh x ~ N(0, I_d) from the replica's own generator, the
products ⟨w_j, x⟩ (through Q: W = L Qᵀ), ⟨u, x⟩, ⟨û, x⟩, the per-sample gradient of
:mod:`verify.simulate.model`, its projection onto span(W)⊥ (constrained modes) and onto
the tangent space of the sphere, the step and the renormalisation proj(v) = v/‖v‖.
Buffers are reused: the only R×d arrays are the iterates and the sample block.

``batch`` B > 1: each update draws B samples per replica and steps along the sum of their
projected gradients (the minibatch of :mod:`verify.simulate.reduced`, here in R^d: the
independent check of that engine's minibatch chain).
"""

from __future__ import annotations

import numpy as np

from verify.base.errors import InvalidParameterError
from verify.simulate.model import FrozenStudent, step_c, terms
from verify.simulate.modes import Mode
from verify.simulate.problem import Problem, student_direction


def frame_basis(problem: Problem) -> np.ndarray:
    """B = [Q, q_u] (d×p), the orthonormal frame of span(W, u) as d-vectors."""
    assert problem.Q is not None and problem.u is not None
    if problem.p == problem.r:
        return problem.Q
    u_perp = problem.u - problem.Q @ (problem.Q.T @ problem.u)
    return np.column_stack([problem.Q, u_perp / problem.uc[-1]])


def _project_out(v: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """v minus its component in span(basis) (twice, so the residue is at rounding level)."""
    for _ in range(2):
        v = v - (v @ basis) @ basis.T
    return v


class FullEngine:
    """R d-dimensional replicas; replica i draws from ``rngs[i]`` only."""

    def __init__(self, problem: Problem, mode: Mode, rngs: list[np.random.Generator],
                 init: str = "random", m0: float | None = None, batch: int = 1):
        if not problem.has_vectors:
            raise InvalidParameterError("the full engine needs the instance's W and u (this "
                                        "instance has only the Gram matrix); use --engine reduced")
        assert problem.Q is not None and problem.W is not None and problem.u is not None
        self.problem, self.mode, self.rngs, self.batch = problem, mode, rngs, batch
        R, d = len(rngs), problem.d
        self.U = np.empty((R, d))
        if init == "instance":
            if problem.u_hat is None:
                raise InvalidParameterError("init='instance' needs the instance's u_hat")
            self.U[:] = problem.u_hat
        else:
            B = frame_basis(problem)
            for i, rng in enumerate(rngs):
                g = rng.standard_normal(d)
                if m0 is None:  # uniform on the sphere of span(W)⊥
                    g = _project_out(g, problem.Q)
                    self.U[i] = g / np.linalg.norm(g)
                else:  # ⟨û, u⟩ = m0, the rest uniform in span(W, u)⊥
                    e = _project_out(g, B)
                    _, a, beta = student_direction(problem, m0)
                    self.U[i] = B @ a + beta * e / np.linalg.norm(e)
        self.M = np.column_stack([problem.Q, problem.u])  # one GEMM gives ⟨Q, x⟩ and ⟨u, x⟩
        self.X = np.empty((R, d))
        self.c_hat = np.tile(problem.c_hat, (R, 1)) if mode.train_c else problem.c_hat.copy()
        fused = not mode.train_c and mode.constrained and not mode.linearized
        self.fused = FrozenStudent(problem, problem.c_hat) if fused else None

    def step(self, eta: float, eta_c: float | None = None) -> tuple[np.ndarray, np.ndarray | None]:
        """One update of every replica: step ``eta`` for û, ``eta_c`` (default ``eta``) for ĉ."""
        if self.batch > 1:  # the online step below reuses its R×d buffers: the benchmarked hot loop
            return self._batch_step(eta, eta_c)
        pb, X, U = self.problem, self.X, self.U
        assert pb.Q is not None and pb.W is not None
        for i, rng in enumerate(self.rngs):
            rng.standard_normal(out=X[i])
        proj = X @ self.M
        y, zu = proj[:, :pb.r], proj[:, pb.r]
        zh = np.einsum("ij,ij->i", X, U)
        t = None
        if self.fused is not None:
            _, kx = self.fused.terms(y, zu, zh)
        else:
            wh = None if self.mode.constrained else (U @ pb.Q) @ pb.L.T
            t = terms(pb, y @ pb.L.T, zu, zh, wh, self.c_hat, self.mode.linearized, self.mode.train_c)
            kx = t.kx
        G = X  # the sample buffer becomes the gradient
        G *= kx[:, None]
        if self.mode.constrained:  # span(W)⊥: every w_j term drops, and so does κ_x Π_W x
            G -= (kx[:, None] * y) @ pb.Q.T
        else:
            assert t is not None
            if t.kw is not None:
                G += t.kw @ pb.W
            if t.kh is not None:
                G += t.kh[:, None] * U
        return self._move(G, eta, t.gc if t is not None and self.mode.train_c else None, eta_c)

    def _move(self, G: np.ndarray, eta: float, gc: np.ndarray | None,
              eta_c: float | None) -> tuple[np.ndarray, np.ndarray | None]:
        """Step along the gradient G (overwritten) projected on the sphere's tangent space, renormalise,
        and step ĉ along ``gc`` when it is trained; the norms divided out."""
        U = self.U
        G -= np.einsum("ij,ij->i", G, U)[:, None] * U  # tangent space of the sphere
        G *= eta
        U -= G
        norm = np.sqrt(np.einsum("ij,ij->i", U, U))
        U /= norm[:, None]
        return norm, None if gc is None else step_c(self.c_hat, gc, eta if eta_c is None else eta_c)

    def _batch_step(self, eta: float, eta_c: float | None) -> tuple[np.ndarray, np.ndarray | None]:
        """One update from B samples per replica (R×B×d block, drawn per replica)."""
        pb, U, B = self.problem, self.U, self.batch
        assert pb.Q is not None and pb.W is not None
        R, d = U.shape
        X = np.stack([rng.standard_normal((B, d)) for rng in self.rngs])
        proj = X @ self.M
        y, zu = proj[..., :pb.r].reshape(R * B, pb.r), proj[..., pb.r].reshape(-1)
        zh = np.einsum("rbd,rd->rb", X, U).reshape(-1)
        rows = np.repeat(U, B, axis=0)
        wh = None if self.mode.constrained else (rows @ pb.Q) @ pb.L.T
        c_rows = np.repeat(self.c_hat, B, axis=0) if self.mode.train_c else self.c_hat
        t = terms(pb, y @ pb.L.T, zu, zh, wh, c_rows, self.mode.linearized, self.mode.train_c)
        kx = t.kx.reshape(R, B)
        G = np.einsum("rb,rbd->rd", kx, X)
        if self.mode.constrained:
            G -= np.einsum("rb,rbj->rj", kx, y.reshape(R, B, pb.r)) @ pb.Q.T
        else:
            if t.kw is not None:
                G += t.kw.reshape(R, B, -1).sum(axis=1) @ pb.W
            if t.kh is not None:
                G += t.kh.reshape(R, B).sum(axis=1)[:, None] * U
        return self._move(G, eta, t.gc.reshape(R, B, -1).sum(axis=1) if self.mode.train_c else None, eta_c)

    def overlaps(self) -> tuple[np.ndarray, np.ndarray]:
        assert self.problem.u is not None
        c_overlap = np.broadcast_to(self.c_hat @ self.problem.c, (len(self.U),))
        return self.U @ self.problem.u, np.array(c_overlap)

    def frame_state(self):
        """(a, β, ĉ): the iterate in the reduced engine's coordinates (for Monte-Carlo losses)."""
        B = frame_basis(self.problem)
        a = self.U @ B
        beta = np.linalg.norm(self.U - a @ B.T, axis=1)
        return a, beta, np.broadcast_to(self.c_hat, (len(self.U), self.problem.k))
