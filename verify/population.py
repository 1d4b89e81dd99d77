r"""The population loss Φ(m) and h(m) in closed form through the dual kernel (Appendix D.1).

Model (Appendix D.1, eq. (11)): teacher f*(x) = Σ_i λ_i σ(⟨v_i, x⟩) and student
f̂(x) = Σ_j λ_j σ(⟨v̂_j, x⟩) with normalised rows

    v_i = (w_i + ξ c_i u)/n_i,   v̂_j = (w_j + ξ ĉ_j û)/n̂_j,
    n_i = ‖w_i + ξ c_i u‖ = √(1 + ξ² c_i²),   n̂_j = √(1 + ξ² ĉ_j²),

the norms using u, û ⊥ span W (Assumption 2); for quantized c (Assumption 3)
n_i = √(1 + ξ²/k) as in the paper, for unit-sphere c (the paper's simulations)
they differ per row.  With m = ⟨u, û⟩ and G = W Wᵀ,

    ⟨v_i, v̂_j⟩ = (G_ij + ξ² c_i ĉ_j m)/(n_i n̂_j) =: ρ_ij(m),

and E[σ(⟨v,x⟩)σ(⟨v',x⟩)] = K_σ(⟨v,v'⟩) for unit v, v' gives

    Φ(m) = E[(f* − f̂)²] = Σ_ij λ_i λ_j [K(ρ^tt_ij) + K(ρ^ss_ij) − 2 K(ρ_ij(m))].

Derivation of h: only the cross term depends on û through m once the
gradient is projected onto span(W)⊥ and onto the tangent space of the sphere
(the self-term's gradient lies in span(W, û), which both projections remove).
∂ρ_ij/∂û = ξ ĉ_j (w_i + ξ c_i u)/(n_i n̂_j), whose projected part is
ξ² c_i ĉ_j (u − m û)/(n_i n̂_j), so the projected gradient is −h(m)(u − m û) with

    h(m) = 2 ξ² Σ_ij λ_i λ_j c_i ĉ_j K'(ρ_ij(m)) / (n_i n̂_j).

Equivalently h(m) = −dΦ/dm (the tests check this by finite differences).
Everything is vectorised over m: arrays of shape (…, k, k).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from verify.errors import InvalidParameterError
from verify.fast_kernels import fast_kernel

UNIT_TOL = 1e-10  # as verify.instance.NORM_TOL: d·eps rounding for d up to ~1e5


def validate_overlap(m) -> np.ndarray:
    """m as a float array; every entry finite and in [−1, 1] (m = ⟨u, û⟩ for unit vectors)."""
    try:
        arr = np.asarray(m, dtype=float)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"m must be real numbers in [-1, 1], got {m!r}") from None
    bad = ~np.isfinite(arr) | (np.abs(arr) > 1)
    if bad.any():
        value = arr[bad].flat[0]
        raise InvalidParameterError(
            f"m must lie in [-1, 1] (it is the overlap <u, u_hat> of unit vectors), got {value!r}"
        )
    return arr


@dataclass(frozen=True)
class Overlaps:
    """The m-independent pieces of ρ^tt, ρ^ss and ρ(m) = base + slope·m (all k×k)."""

    teacher: np.ndarray  # ρ^tt_ij = (G_ij + ξ² c_i c_j)/(n_i n_j)
    student: np.ndarray  # ρ^ss_ij = (G_ij + ξ² ĉ_i ĉ_j)/(n̂_i n̂_j)
    cross_base: np.ndarray  # G_ij/(n_i n̂_j)
    cross_slope: np.ndarray  # ξ² c_i ĉ_j/(n_i n̂_j)
    weights: np.ndarray  # λ_i λ_j

    def cross(self, m: np.ndarray) -> np.ndarray:
        """ρ_ij(m), shape m.shape + (k, k)."""
        return self.cross_base + self.cross_slope * m[..., None, None]


def overlaps(instance) -> Overlaps:
    xi2 = instance.xi**2
    c, c_hat, gram, lam = instance.c, instance.c_hat, instance.gram, instance.lam
    n = np.sqrt(1 + xi2 * c**2)
    n_hat = np.sqrt(1 + xi2 * c_hat**2)
    return Overlaps(
        teacher=(gram + xi2 * np.outer(c, c)) / np.outer(n, n),
        student=(gram + xi2 * np.outer(c_hat, c_hat)) / np.outer(n_hat, n_hat),
        cross_base=gram / np.outer(n, n_hat),
        cross_slope=xi2 * np.outer(c, c_hat) / np.outer(n, n_hat),
        weights=np.outer(lam, lam),
    )


def loss(instance, m) -> np.ndarray:
    """Φ(m) = E[(f*(x) − f̂(x))²] for each m (float64, closed form through K_σ)."""
    m = validate_overlap(m)
    ov = overlaps(instance)
    kernel = fast_kernel(instance.activation)
    constant = np.sum(ov.weights * (kernel.value(ov.teacher) + kernel.value(ov.student)))
    cross = np.sum(ov.weights * kernel.value(ov.cross(m)), axis=(-2, -1))
    # Φ is a difference of O(1) terms; it is ≥ 0 exactly, clip the rounding below 0.
    return np.maximum(constant - 2 * cross, 0.0)


def h(instance, m) -> np.ndarray:
    """h(m) = 2 Σ_ij λ_i λ_j ξ² c_i ĉ_j K'(ρ_ij(m))/(n_i n̂_j) for each m."""
    m = validate_overlap(m)
    ov = overlaps(instance)
    kernel = fast_kernel(instance.activation)
    return 2 * np.sum(ov.weights * ov.cross_slope * kernel.derivative(ov.cross(m)), axis=(-2, -1))


def spherical_gradient(instance, u_hat=None) -> np.ndarray:
    """The projected population gradient −h(m)(u − m û) at û (default: the instance's)."""
    if instance.u is None:
        raise InvalidParameterError("the spherical gradient needs the teacher direction u")
    u_hat = instance.u_hat if u_hat is None else np.asarray(u_hat, dtype=float)
    if u_hat is None:
        raise InvalidParameterError("the spherical gradient needs a student direction u_hat")
    if abs(np.linalg.norm(u_hat) - 1) > UNIT_TOL:
        raise InvalidParameterError(f"u_hat must be a unit vector, its norm is {np.linalg.norm(u_hat)!r}")
    if instance.W is not None and np.linalg.norm(instance.W @ u_hat) > UNIT_TOL:
        raise InvalidParameterError("u_hat must be orthogonal to span W (Assumption 2)")
    m = float(np.clip(np.dot(instance.u, u_hat), -1.0, 1.0))
    return -h(instance, m) * (instance.u - m * u_hat)


def h_precise(instance, m, dps: int = 50) -> tuple:
    """(h(m), error bound) at ``dps`` digits, for the mpmath comparisons.

    Closed-form kernels (relu, abs, erf, polynomials) are evaluated exactly in
    mpmath (error: rounding only); other activations go through the power
    series of :mod:`verify.series` with its rigorous truncation bound.
    """
    import mpmath
    import sympy

    from verify.activations import get_activation
    from verify.hermite import GUARD_DIGITS, validate_dps
    from verify.kernels import closed_form

    dps = validate_dps(dps)
    m_value = float(validate_overlap(m))
    kprime = closed_form(get_activation(instance.activation), derivative=True)
    from verify.series import h_series, pair_terms

    if kprime is None:
        return h_series(instance, 40, dps).evaluate(m_value)
    rho = sympy.Symbol("rho", real=True)
    with mpmath.workdps(dps + GUARD_DIGITS):
        f = sympy.lambdify(rho, kprime, modules="mpmath")
        mm = mpmath.mpf(m) if isinstance(m, str) else mpmath.mpf(m_value)
        xi2, weight, a, b = pair_terms(instance)
        total = mpmath.fsum(
            weight[ij] * a[ij] * mpmath.re(f(min(max(b[ij] + xi2 * a[ij] * mm, -1), 1)))
            for ij in weight
        )
        return 2 * xi2 * total, mpmath.mpf(10) ** (-(dps + 5))
