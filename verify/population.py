r"""The population loss Φ(m) and h(m) in closed form through the dual kernel (Appendix D.1).

Model (Appendix D.1, eq. (11)): teacher f*(x) = Σ_i λ_i σ(⟨v_i, x⟩) and student
f̂(x) = Σ_j λ_j σ(⟨v̂_j, x⟩) with normalised rows

    v_i = (w_i + ξ c_i u)/n_i,   v̂_j = (w_j + ξ ĉ_j û)/n̂_j,
    n_i = ‖w_i + ξ c_i u‖ = √(G_ii + ξ² c_i²),   n̂_j = √(G_jj + ξ² ĉ_j²),

the norms using u, û ⊥ span W (Assumption 2), G_ii = 1 (Assumption 1) or 0 for the
scratch/GLM instances (W = 0, rows ±u); for quantized c (Assumption 3)
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
from verify.instance import nominal_gram, nominal_row_norm2

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


def row_norms(instance) -> tuple[np.ndarray, np.ndarray]:
    """n_i = ‖w_i + ξ c_i u‖ = √(G_ii + ξ² c_i²) and n̂_j likewise (u, û ⊥ span W, unit).

    G_ii = 1 under Assumption 1 (used exactly, not the rounded diagonal of a float Gram
    matrix, so the mpmath evaluators agree with exact derivations); G_ii = 0 for the
    scratch / GLM instances (W = 0), whose rows are then ±u exactly."""
    diag = nominal_row_norm2(instance)
    xi2 = instance.xi**2
    return np.sqrt(diag + xi2 * instance.c**2), np.sqrt(diag + xi2 * instance.c_hat**2)


def overlaps(instance) -> Overlaps:
    xi2 = instance.xi**2
    c, c_hat, lam = instance.c, instance.c_hat, instance.lam
    gram = nominal_gram(instance)  # G_ii = D exactly, as in the mpmath and ball evaluators
    n, n_hat = row_norms(instance)
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
    # Doubled working digits: closed-form kernels such as relu's (acos ρ, √(1−ρ²)) turn a rounding
    # error ε of ρ near ±1 into √ε, so 2(dps + guard) digits keep that below the stated 10^-(dps+5).
    with mpmath.workdps(2 * (dps + GUARD_DIGITS)):
        f = sympy.lambdify(rho, kprime, modules="mpmath")
        mm = mpmath.mpf(m) if isinstance(m, str) else mpmath.mpf(m_value)
        xi2, weight, a, b = pair_terms(instance)
        total = mpmath.fsum(
            weight[ij] * a[ij] * mpmath.re(f(min(max(b[ij] + xi2 * a[ij] * mm, -1), 1)))
            for ij in weight
        )
        return 2 * xi2 * total, mpmath.mpf(10) ** (-(dps + 5))


def loss_precise(instance, m, dps: int = 50) -> tuple:
    """(Φ(m), error bound) at ``dps`` digits: the mpmath twin of :func:`loss`.

    Φ(m) = Σ_ij λ_iλ_j [K(ρ^tt_ij) + K(ρ^ss_ij) − 2K(ρ_ij(m))] (Appendix D.1).
    Closed-form kernels (relu, abs, erf, polynomials) are evaluated exactly in
    mpmath (error: rounding only).  Otherwise K(ρ) = Σ_{p<N} μ_p² ρ^p with the
    Parseval tail bound |ρ|^N (E[σ²] − Σ_{p<N} μ_p²) of
    :func:`verify.kernels.kernel_series`, N = ``SERIES_TERMS``; at |ρ| = 1 (the
    diagonal of ρ^tt, ρ^ss; ρ is clamped to [−1, 1]) the series is not used: K(±1) = E[σ(g)σ(±g)] by
    1-D quadrature.  The bound is Σ|λλ| (tail_tt + tail_ss + 2 tail_cross)
    plus the quadrature and coefficient errors.
    """
    import mpmath
    import sympy

    from verify.activations import get_activation
    from verify.hermite import GUARD_DIGITS, validate_dps
    from verify.kernels import closed_form
    from verify.series import pair_terms

    dps = validate_dps(dps)
    m_value = float(validate_overlap(m))
    act = get_activation(instance.activation)
    kernel_expr = closed_form(act, derivative=False)
    # Doubled for closed forms, as in h_precise: √ε of ρ's rounding near ±1 must stay below the bound.
    with mpmath.workdps((2 if kernel_expr is not None else 1) * (dps + GUARD_DIGITS)):
        mm = mpmath.mpf(m) if isinstance(m, str) else mpmath.mpf(m_value)
        xi2, weight, a, b = pair_terms(instance)
        teacher, student = _self_overlaps_precise(instance, xi2)
        if kernel_expr is not None:
            rho = sympy.Symbol("rho", real=True)
            f = sympy.lambdify(rho, kernel_expr, modules="mpmath")

            def value(r):
                return mpmath.re(f(min(max(r, -1), 1))), mpmath.mpf(0)
            rounding = mpmath.mpf(10) ** (-(dps + 5))
        else:
            value = _series_kernel(act, dps)
            rounding = mpmath.mpf(0)
        total, bound = [], []
        for ij in weight:
            for r, factor in ((teacher[ij], 1), (student[ij], 1), (b[ij] + xi2 * a[ij] * mm, -2)):
                v, e = value(r)
                total.append(factor * weight[ij] * v)
                bound.append(abs(factor * weight[ij]) * e)
        return mpmath.fsum(total), mpmath.fsum(bound) + rounding


#: Hermite terms of the series kernel in :func:`loss_precise` for activations without a closed form.
SERIES_TERMS = 120


def _self_overlaps_precise(instance, xi2) -> tuple:
    """ρ^tt_ij = (G_ij + ξ²c_ic_j)/(n_in_j) and ρ^ss_ij likewise, in mpmath, keyed by (i, j),
    with the row norms of :func:`verify.series.pair_terms`."""
    import mpmath

    gram = nominal_gram(instance)
    out = []
    for vec in (instance.c, instance.c_hat):
        c = [mpmath.mpf(v) for v in vec]
        n = [mpmath.sqrt(nominal_row_norm2(instance) + xi2 * v**2) for v in c]
        # ρ^tt_ii = (D + ξ²c_i²)/n_i² = 1 exactly (as in the certified population): computed, it is
        # 1 − 1e-60, which sent K(1) through the series with an estimated bound instead of E[σ²].
        out.append({(i, j): mpmath.mpf(1) if i == j
                    else (mpmath.mpf(gram[i, j]) + xi2 * c[i] * c[j]) / (n[i] * n[j])
                    for i in range(instance.k) for j in range(instance.k)})
    return tuple(out)


def _series_kernel(act, dps: int):
    """ρ ↦ (Σ_{p<N} μ_p² ρ^p, tail bound), and (E[σ(g)σ(±g)], quadrature error) at ρ = ±1."""
    import mpmath

    from verify.hermite import hermite_coefficients
    from verify.quadrature import gaussian_expectation

    coeffs = hermite_coefficients(act, SERIES_TERMS, dps)
    s = act.mpmath_function
    mu2 = [v**2 for v in coeffs.values]
    coeff_error = mpmath.fsum(2 * abs(v) * e for v, e in zip(coeffs.values, coeffs.errors, strict=True))
    square, square_error = gaussian_expectation(lambda t: s(t) ** 2, act.kinks, dps)
    rest = max(square - mpmath.fsum(mu2), 0) + square_error + coeff_error

    def value(r):
        # ρ is clamped as in the closed form: a float64 Gram diagonal of 1 + 2e-16 is 1.
        r = min(max(r, -1), 1)
        if abs(r) == 1:
            if r == 1:
                return square, square_error
            kinks = tuple(sorted({*act.kinks, *(-x for x in act.kinks)}))
            return gaussian_expectation(lambda t: s(t) * s(-t), kinks, dps)
        partial = mpmath.fsum(c * r**p for p, c in enumerate(mu2))
        return partial, abs(r) ** SERIES_TERMS * rest + coeff_error

    return value
