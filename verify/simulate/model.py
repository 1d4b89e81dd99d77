r"""The per-sample loss and its gradients, as functions of the projections of x.

For one sample x the paper's loss (§2) is L = e², e = f*(x) − f̂(x), with (Appendix D.1
normalisation, optional output scale s of Appendix B)

    f*(x) = s Σ_i λ_i σ(t_i),   t_i = (⟨w_i, x⟩ + ξ c_i ⟨u, x⟩)/n_i,
    f̂(x)  = s Σ_j λ_j σ(z_j),   z_j = (⟨w_j, x⟩ + ξ ĉ_j ⟨û, x⟩)/ρ_j,
    ρ_j² = ‖w_j + ξ ĉ_j û‖² = ‖w_j‖² + 2 ξ ĉ_j ⟨w_j, û⟩ + ξ² ĉ_j².

With δ_j = ∂L/∂z_j = −2 e s λ_j σ'(z_j) and ∂z_j/∂r_j = (x − z_j r_j/ρ_j)/ρ_j for the row
r_j = w_j + ξ ĉ_j û, the chain rule gives

    ∇_û L = κ_x x + Σ_j κ_{w,j} w_j + κ_h û,
        κ_x = Σ_j δ_j ξ ĉ_j/ρ_j,  κ_{w,j} = −δ_j ξ ĉ_j z_j/ρ_j²,  κ_h = −Σ_j δ_j ξ² ĉ_j² z_j/ρ_j²,
    ∂L/∂ĉ_j = δ_j ξ (⟨û, x⟩/ρ_j − z_j (⟨w_j, û⟩ + ξ ĉ_j)/ρ_j²).

Linearized student (Fig. 3(a)): the first-order Taylor expansion of f̂ in Δ = ξ ĉ ûᵀ
around the base model (‖w_j‖ = 1, û ⊥ w_j), f̂ = s Σ_j λ_j [σ(⟨w_j, x⟩) +
ξ ĉ_j σ'(⟨w_j, x⟩) ⟨û, x⟩]; then κ_x = −2 e s ξ Σ_j λ_j ĉ_j σ'(⟨w_j, x⟩), κ_w = κ_h = 0
(the normalisation's first-order term, −w_j ⟨w_j, Δ_j⟩, vanishes for û ⊥ W) and
∂L/∂ĉ_j = −2 e s ξ λ_j σ'(⟨w_j, x⟩) ⟨û, x⟩.

Scaled rows (Appendix B as printed, ``Problem.row_scale``):
z_j = r_j (⟨w_j, x⟩ + ξ ĉ_j ⟨û, x⟩) with a constant r_j, i.e. ρ_j = 1/r_j fixed: the
normalisation's terms vanish, κ_w = κ_h = 0 and ∂L/∂ĉ_j = δ_j ξ ⟨û, x⟩/ρ_j; the linearized
student expands σ(r_j⟨w_j, x⟩ + r_j ξ ĉ_j ⟨û, x⟩), so its base pre-activation is r_j ⟨w_j, x⟩
and its slope carries r_j.

Only ⟨w_j, x⟩, ⟨u, x⟩, ⟨û, x⟩ (and ⟨w_j, û⟩) enter: that is what makes the reduced
engine exact (with or without a row scale).  Everything is vectorised over a leading axis
(samples or replicas).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from verify.model import population
from verify.model.instance import Numbers
from verify.simulate.problem import Problem


class Terms(NamedTuple):
    """Per-sample e = f* − f̂ and the gradient coefficients (shapes (n,), (n,), (n,k), (n,), (n,k))."""

    e: np.ndarray
    kx: np.ndarray
    kw: np.ndarray | None
    kh: np.ndarray | None
    gc: np.ndarray


def teacher_output(problem: Problem, zw: np.ndarray, zu: np.ndarray) -> np.ndarray:
    """f*(x) = s Σ_i λ_i σ(t_i) from ⟨w_i, x⟩ (n,k) and ⟨u, x⟩ (n,)."""
    t = (zw + problem.xi * problem.c * zu[:, None]) / problem.teacher_norm
    return problem.scale * (problem.act(t) @ problem.lam)


def terms(problem: Problem, zw: np.ndarray, zu: np.ndarray, zh: np.ndarray, wh: np.ndarray | None,
          c_hat: np.ndarray, linearized: bool = False, need_c: bool = True) -> Terms:
    """e and the gradient coefficients of the module docstring; ``wh`` = ⟨w_j, û⟩ or None (= 0)."""
    xi, s, lam = problem.xi, problem.scale, problem.lam
    target = teacher_output(problem, zw, zu)
    scales = problem.row_scale
    fixed = scales is not None
    if linearized:
        base = zw if scales is None else zw * scales  # r_j ⟨w_j, x⟩ (D.1: unit rows, r_j = 1)
        dbase = problem.act.derivative(base)
        if scales is not None:
            dbase = dbase * scales
        ch = np.broadcast_to(c_hat, zw.shape)
        slope = (dbase * ch) @ lam  # Σ_j λ_j ĉ_j r_j σ'(r_j ⟨w_j, x⟩)
        e = target - s * (problem.act(base) @ lam + xi * zh * slope)
        weight = -2 * s * xi * e
        gc = (weight * zh)[:, None] * dbase * lam if need_c else np.empty(0)
        return Terms(e, weight * slope, None, None, gc)
    if scales is not None:
        rho = 1.0 / scales
    else:
        cross = 0.0 if wh is None else 2 * xi * c_hat * wh
        rho = np.sqrt(problem.row_sq + cross + xi**2 * c_hat**2)
    z = (zw + xi * c_hat * zh[:, None]) / rho
    e = target - s * (problem.act(z) @ lam)
    delta = (-2 * s) * e[:, None] * lam * problem.act.derivative(z)
    dc = delta * (xi * c_hat / rho)
    kx = dc.sum(axis=1)
    kw = kh = None
    if wh is not None and not fixed:  # unconstrained: the W components survive the projections
        kw = -dc * z / rho
        kh = -(kw * xi * c_hat).sum(axis=1)
    gc = np.empty(0)
    if need_c and fixed:
        gc = delta * xi * (zh[:, None] / rho)
    elif need_c:
        wh_term = 0.0 if wh is None else wh
        gc = delta * xi * (zh[:, None] / rho - z * (wh_term + xi * c_hat) / rho**2)
    return Terms(e, kx, kw, kh, gc)


class FrozenStudent:
    """The same e and κ_x as :func:`terms`, fused for a fixed ĉ and û ⊥ span W.

    With x's frame coordinates y = Qᵀx (W = L Qᵀ), both networks' pre-activations come
    from one product [y, ⟨u, x⟩, ⟨û, x⟩] A, A = [[Lᵀ/n, Lᵀ/ρ], [ξc/n, 0], [0, ξĉ/ρ]]
    ((r+2)×2k), then e = σ(·) [sλ; −sλ] and κ_x = −2 s e Σ_j λ_j σ'(z_j) ξ ĉ_j/ρ_j.
    This is the analysed algorithm's hot loop (modes ``frozen`` and ``scratch``, and
    every Monte-Carlo estimate); the tests check it against :func:`terms`.
    """

    def __init__(self, problem: Problem, c_hat: np.ndarray):
        r, k, xi = problem.r, problem.k, problem.xi
        scales = problem.row_scale
        rho = np.sqrt(problem.row_sq + xi**2 * c_hat**2) if scales is None else 1.0 / scales
        A = np.zeros((r + 2, 2 * k))
        A[:r, :k] = problem.L.T / problem.teacher_norm
        A[:r, k:] = problem.L.T / rho
        A[r, :k] = xi * problem.c / problem.teacher_norm
        A[r + 1, k:] = xi * c_hat / rho
        self.A, self.r, self.k, self.act, self.s = A, r, k, problem.act, problem.scale
        self.out = problem.scale * np.concatenate([problem.lam, -problem.lam])
        self.slope = problem.lam * xi * c_hat / rho
        self.buffer = np.empty((0, r + 2))

    def terms(self, y: np.ndarray, zu: np.ndarray, zh: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(e, κ_x) from y = Qᵀx (n, r), ⟨u, x⟩ and ⟨û, x⟩ (n,)."""
        n, r = len(zu), self.r
        if len(self.buffer) != n:
            self.buffer = np.empty((n, r + 2))
        buf = self.buffer
        buf[:, :r] = y
        buf[:, r] = zu
        buf[:, r + 1] = zh
        pre = buf @ self.A
        e = self.act(pre) @ self.out
        kx = (-2 * self.s) * e * (self.act.derivative(pre[:, self.k:]) @ self.slope)
        return e, kx


def step_c(c_hat: np.ndarray, gc: np.ndarray, eta: float) -> np.ndarray:
    """ĉ ← proj(ĉ − η (I − ĉĉᵀ) ∇_ĉ L) in place (ĉ stays on S^{k−1}, see
    :mod:`verify.simulate.modes`); returns the norms ‖ĉ − η g‖ divided out."""
    gc -= np.einsum("ij,ij->i", gc, c_hat)[:, None] * c_hat
    c_hat -= eta * gc
    norm = np.sqrt(np.einsum("ij,ij->i", c_hat, c_hat))
    c_hat /= norm[:, None]
    return norm


# --- closed forms -----------------------------------------------------------------
def _numbers(problem: Problem, c_hat: np.ndarray) -> Numbers:
    """The instance numbers the population formulas read, for the student ĉ (W = 0 gives rows ±u)."""
    return Numbers(len(problem.c), problem.xi, problem.activation, problem.lam, problem.c, c_hat,
                   problem.L @ problem.L.T, problem.scratch)


def closed_form_reason(problem: Problem, constrained: bool, linearized: bool) -> str | None:
    """Why the closed forms do not describe this run (None when they do)."""
    if linearized:
        return "the linearized student is not the network of Appendix D.1"
    if problem.row_scale is not None:
        return "the rows are scaled (Appendix B as printed), not normalised as in Appendix D.1"
    if not problem.u_orthogonal:
        return "u is not orthogonal to span W (the closed form uses Assumption 2)"
    if not constrained and not problem.scratch:
        return "u_hat leaves span(W)-perp, so the loss is no longer a function of m alone"
    return None


def closed_form_loss(problem: Problem, c_hat: np.ndarray, m) -> np.ndarray:
    """Φ(m) for the student ĉ (times s², the Appendix B scale), by :func:`verify.model.population.loss`
    (which also covers W = 0: rows ±u, ρ_ij = sign(c_i ĉ_j) m)."""
    m = population.validate_overlap(m)
    return problem.scale**2 * population.loss(_numbers(problem, c_hat), m)


def closed_form_h(problem: Problem, c_hat: np.ndarray, m) -> np.ndarray:
    """h(m) = −dΦ/dm (times s²), the scale of the projected gradient −h(m)(u − m û)."""
    m = population.validate_overlap(m)
    return problem.scale**2 * population.h(_numbers(problem, c_hat), m)
