r"""Monte-Carlo estimates of Φ, the projected spherical gradient and h(m), with standard errors.

At a fixed student (ĉ, û) with û ⊥ span W and m = ⟨û, u⟩, the per-sample gradient of
§2, projected onto span(W)⊥ and the tangent space of the sphere, is (see
:mod:`verify.simulate.model`; constrained, frozen ĉ)

    g(x) = κ_x(x) P x,   P = projector onto span(W)⊥ ∩ û⊥,

and its mean is −h(m)(u − m û) (Appendix D.1).  Per sample we record

    q = ⟨g, u − m û⟩/‖u − m û‖²      (mean −h(m): the component along u − m û),
    ‖g − q (u − m û)‖²                (the orthogonal residual's energy),
    e² = (f* − f̂)²                    (mean Φ(m)).

Means and standard errors come from chunk-wise sums combined with Chan's parallel
update of (count, mean, M2) (Welford), so nothing of size "samples" is ever stored: the
chunk size is chosen so that one chunk's arrays fit ``chunk_bytes`` (default 256 MB).
The residual's norm is reported with its noise scale √(E‖g − q δ‖²/n): a ratio near 1
says the mean of the estimator has no component off u − m û, as the paper's formula says.

Engines: ``full`` draws x ∈ R^d; ``reduced`` draws only the frame coordinates of x, its
component b along û's direction outside the frame, and ‖x_rest‖² ~ χ²_{d−p−1}
(exact in distribution, see :mod:`verify.simulate.reduced`).  For the residual's part in
x_rest, Σ_i κ_i x_rest,i is Gaussian with covariance (Σ κ_i²) I_{d−p−1}, so its norm is
drawn as √(Σ κ_i² · χ²_{d−p−1}): exact in distribution too.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from verify.base.errors import InvalidParameterError
from verify.base.validation import count
from verify.simulate.model import FrozenStudent, closed_form_h, closed_form_loss, closed_form_reason
from verify.simulate.modes import MODES, check_engine
from verify.simulate.problem import Problem, build_problem, perpendicular_dimension, student_direction
from verify.simulate.streams import chi_square, root

#: Default memory budget for one chunk of samples (the issue's "at most 256 MB").
CHUNK_BYTES = 256 * 2**20
#: float64 arrays alive per sample row beyond the sample itself: the terms of
#: model.terms (~12 arrays of width k) plus a few scalars; used to size chunks.
_ARRAYS_PER_ROW = 14


class Running:
    """Count, mean and M2 of a stream of values fed in chunks (Chan et al.'s update)."""

    def __init__(self) -> None:
        self.n, self.mean, self.m2 = 0, 0.0, 0.0

    def add(self, values: np.ndarray) -> None:
        n_b = values.size
        if n_b == 0:
            return
        mean_b = float(values.mean())
        m2_b = float(((values - mean_b) ** 2).sum())
        n = self.n + n_b
        delta = mean_b - self.mean
        self.mean += delta * n_b / n
        self.m2 += m2_b + delta**2 * self.n * n_b / n
        self.n = n

    @property
    def se(self) -> float:
        """Standard error of the mean, √(s²/n) with the unbiased s²."""
        return math.sqrt(self.m2 / (self.n - 1) / self.n) if self.n > 1 else math.inf


@dataclass(frozen=True)
class GradientEstimate:
    """Monte-Carlo estimates at one overlap m (``analytic_*`` are None where no closed form applies)."""

    m: float
    samples: int
    engine: str
    component: float  # ⟨E g, u − m û⟩/‖u − m û‖², estimates −h(m)
    component_se: float
    residual_norm: float
    residual_noise: float
    loss: float
    loss_se: float
    analytic_component: float | None
    analytic_loss: float | None
    note: str | None

    @property
    def h(self) -> float:
        return -self.component

    @property
    def z_component(self) -> float | None:
        if self.analytic_component is None:
            return None
        return (self.component - self.analytic_component) / self.component_se

    @property
    def z_loss(self) -> float | None:
        if self.analytic_loss is None:
            return None
        return (self.loss - self.analytic_loss) / self.loss_se

    def to_dict(self) -> dict:
        out = asdict(self)
        out.update(h=self.h, z_component=self.z_component, z_loss=self.z_loss)
        return out


def chunk_rows(width: int, k: int, chunk_bytes: int) -> int:
    """Samples per chunk so that a chunk's float64 arrays stay within ``chunk_bytes``."""
    per_row = 8 * (width + _ARRAYS_PER_ROW * k + 16)
    rows = chunk_bytes // per_row
    if rows < 1:
        raise InvalidParameterError(f"chunk budget {chunk_bytes} bytes is below one sample "
                                    f"({per_row} bytes)")
    return int(rows)


def _validate(samples: int, m: float, chunk_bytes: int) -> None:
    count("samples", samples, minimum=2, limit="samples")  # two for a standard error
    if not (isinstance(m, int | float | np.floating) and -1 < m < 1):
        raise InvalidParameterError(f"m must lie in (-1, 1): at m = ±1 the direction u - m u_hat "
                                    f"vanishes, got {m!r}")
    count("chunk_bytes", chunk_bytes)


def estimate_gradient(instance, m: float, samples: int, engine: str = "full", seed: int | None = 0,
                      chunk_bytes: int = CHUNK_BYTES, appendix_b_scaling: bool = False,
                      row_scale: float | None = None) -> GradientEstimate:
    """Monte-Carlo Φ(m), the projected gradient's component along u − m û, and the residual.

    û = (m/‖u_⊥‖) q_u + √(…) e with e the instance's û made orthogonal to span(W, u)
    (:func:`verify.simulate.problem.student_direction`); ĉ is the instance's.
    """
    _validate(samples, m, chunk_bytes)
    mode = MODES["frozen"]
    check_engine(mode, engine)
    problem = build_problem(instance, mode, appendix_b_scaling, row_scale)
    vector, a, beta = student_direction(problem, float(m))
    rng = np.random.default_rng(root(seed))
    stats = [Running(), Running(), Running()]  # q, ‖g − qδ‖², e²
    if engine == "full":
        if vector is None:
            raise InvalidParameterError("the full engine needs the instance's W and u; use --engine reduced")
        g_sum = _full(problem, vector, float(m), samples, rng, chunk_bytes, stats)
        residual = g_sum / samples - stats[0].mean * (problem.u - m * vector)
        residual_norm = float(np.linalg.norm(residual))
    else:
        residual_norm = _reduced(problem, a, beta, float(m), samples, rng, chunk_bytes, stats)
    reason = closed_form_reason(problem, constrained=True, linearized=False)
    analytic_c = analytic_l = None
    if reason is None:
        analytic_c = float(-closed_form_h(problem, problem.c_hat, m))
        analytic_l = float(closed_form_loss(problem, problem.c_hat, m))
    q, resid, loss = stats
    return GradientEstimate(
        m=float(m), samples=int(samples), engine=engine, component=q.mean, component_se=q.se,
        residual_norm=residual_norm, residual_noise=math.sqrt(max(resid.mean, 0.0) / samples),
        loss=loss.mean, loss_se=loss.se, analytic_component=analytic_c, analytic_loss=analytic_l,
        note=None if reason is None else f"no closed form: {reason}",
    )


def _record(stats, kx, along, g_sq, delta_sq, e) -> np.ndarray:
    q = kx * along / delta_sq
    stats[0].add(q)
    stats[1].add(g_sq - q**2 * delta_sq)
    stats[2].add(e**2)
    return q


def _full(problem: Problem, u_hat: np.ndarray, m: float, samples: int, rng, chunk_bytes: int,
          stats) -> np.ndarray:
    assert problem.Q is not None and problem.u is not None
    Q, u = problem.Q, problem.u
    M = np.column_stack([Q, u, u_hat])
    uW = Q.T @ u
    delta_sq = 1 - m**2
    g_sum = np.zeros(problem.d)
    student = FrozenStudent(problem, problem.c_hat)
    rows = chunk_rows(problem.d, problem.k, chunk_bytes)
    X = np.empty((min(rows, samples), problem.d))
    done = 0
    while done < samples:
        n = min(rows, samples - done)
        x = X[:n]
        rng.standard_normal(out=x)
        proj = x @ M
        y, zu, zh = proj[:, :problem.r], proj[:, problem.r], proj[:, problem.r + 1]
        e, kx = student.terms(y, zu, zh)
        x_sq = np.einsum("ij,ij->i", x, x)
        px_sq = x_sq - np.einsum("ij,ij->i", y, y) - zh**2  # ‖P x‖², P onto span(W)⊥ ∩ û⊥
        _record(stats, kx, zu - y @ uW - m * zh, kx**2 * px_sq, delta_sq, e)
        # Σ g = Σ κ (x − Q y − zh û), accumulated without forming g
        g_sum += x.T @ kx - Q @ (y.T @ kx) - float(kx @ zh) * u_hat
        done += n
    return g_sum


def _reduced(problem: Problem, a: np.ndarray, beta: float, m: float, samples: int, rng,
             chunk_bytes: int, stats) -> float:
    p, r = problem.p, problem.r
    dim_perp = perpendicular_dimension(problem)
    df_rest = max(dim_perp - 1, 0)
    delta_F, delta_e = problem.uc - m * a, -m * beta
    delta_sq = 1 - m**2
    sums = np.zeros(p - r + 1)  # Σ g over the frame's free coordinates and e
    kx_sq_sum = 0.0
    student = FrozenStudent(problem, problem.c_hat)
    rows = chunk_rows(p + 2, problem.k, chunk_bytes)
    done = 0
    while done < samples:
        n = min(rows, samples - done)
        z = rng.standard_normal((n, p))
        b = rng.standard_normal(n) if dim_perp else np.zeros(n)
        chi2 = chi_square(rng, df_rest, n) if df_rest else np.zeros(n)
        zh = z @ a + beta * b
        e, kx = student.terms(z[:, :r], z @ problem.uc, zh)
        # g = κ (P_W⊥ x − zh û): frame part κ (z_free − zh a_free), e part κ (b − zh β), rest κ x_rest
        gF = kx[:, None] * (z[:, r:] - zh[:, None] * a[r:])
        ge = kx * (b - zh * beta)
        g_sq = np.einsum("ij,ij->i", gF, gF) + ge**2 + kx**2 * chi2
        along = z[:, r:] @ delta_F[r:] + b * delta_e  # ⟨P_W⊥ x − zh û, δ⟩ (⟨û, δ⟩ = 0)
        _record(stats, kx, along, g_sq, delta_sq, e)
        sums[:-1] += gF.sum(axis=0)
        sums[-1] += ge.sum()
        kx_sq_sum += float(kx @ kx)
        done += n
    mean_q = stats[0].mean
    frame = np.concatenate([-mean_q * delta_F[:r], sums[:-1] / samples - mean_q * delta_F[r:]])
    e_part = sums[-1] / samples - mean_q * delta_e
    rest_sq = kx_sq_sum * (chi_square(rng, df_rest) if df_rest else 0.0) / samples**2
    return math.sqrt(float(frame @ frame) + e_part**2 + rest_sq)
