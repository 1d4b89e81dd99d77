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

Equivalently h(m) = −dΦ/dm (the tests check this by finite differences, and
:mod:`verify.derive` derives it independently in SymPy).

Written once.  :class:`Population` evaluates these two sums in any arithmetic of
:mod:`verify.model.arithmetic`, with that arithmetic's kernel: float64 (vectorised over m:
arrays of shape (…, k, k); :func:`h`, :func:`loss`), mpmath with error bounds
(:func:`h_precise`, :func:`loss_precise`), SymPy (the claim language's exact step) and Arb
balls (:mod:`verify.certified.population`).
"""

from __future__ import annotations

from functools import cached_property

import mpmath
import numpy as np
import sympy

from verify.base.errors import InvalidParameterError
from verify.model.activations import get_activation
from verify.model.arithmetic import FLOAT64, MPMATH, Arithmetic, entrywise, pair_sum
from verify.model.fast_kernels import fast_kernel
from verify.model.geometry import PairGeometry, PooledGeometry, pair_geometry, pooled_geometry, row_norms2
from verify.model.hermite import GUARD_DIGITS, hermite_coefficients, validate_dps
from verify.model.instance import Numbers, as_numbers
from verify.model.kernels import closed_form
from verify.model.quadrature import gaussian_expectation
from verify.model.series import h_series

UNIT_TOL = 1e-10  # as verify.model.instance.NORM_TOL: d·eps rounding for d up to ~1e5


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


class Population:
    """Φ(m) and h(m) of one instance in one arithmetic (the module docstring derives both).

    ``kernel`` evaluates K_σ and K'_σ in that arithmetic: ``kernel.value(ρ)`` and
    ``kernel.derivative(ρ)`` on an array of ρ for float64, on one number otherwise."""

    def __init__(self, numbers: Numbers, arith: Arithmetic, kernel):
        # pooled pairs where the arithmetic asks for them (balls: the same sums, k²/12 times
        # cheaper); in float64 they would move the last bits of every published number
        pooled = pooled_geometry(numbers, arith)
        self.geometry: PairGeometry = pooled if pooled is not None else pair_geometry(numbers, arith)
        self.numbers, self.arith, self.kernel = numbers, arith, kernel

    def _self_sum(self, function, magnitude: bool = False):
        """Σ_ij w_ij [f(ρ^tt_ij) + f(ρ^ss_ij)] with w_ij = λ_iλ_j, or |λ_iλ_j| for ``magnitude``."""
        geo = self.geometry
        if isinstance(geo, PooledGeometry):  # balls only: each side's pairs carry their own weights
            return sum((pair_sum(self.arith, (np.abs(w) if magnitude else w) * entrywise(self.arith, function, rho))
                        for w, rho in (geo.teacher_pairs, geo.student_pairs)), self.arith.number(0))
        weights = np.abs(geo.weights) if magnitude else geo.weights
        return pair_sum(self.arith, weights * (entrywise(self.arith, function, geo.teacher)
                                               + entrywise(self.arith, function, geo.student)))

    def _cross_sum(self, function, weights, m):
        """Σ_ij w_ij f(ρ_ij(m))."""
        return pair_sum(self.arith, weights * entrywise(self.arith, function, self.geometry.cross(m)))

    @cached_property
    def self_terms(self):
        """Σ_ij λ_iλ_j [K(ρ^tt_ij) + K(ρ^ss_ij)], the part of Φ that does not move with m."""
        return self._self_sum(self.kernel.value)

    def loss(self, m):
        """Φ(m) = Σ_ij λ_iλ_j [K(ρ^tt_ij) + K(ρ^ss_ij) − 2 K(ρ_ij(m))]."""
        return self.self_terms - 2 * self._cross_sum(self.kernel.value, self.geometry.weights, m)

    def h(self, m):
        """h(m) = 2 Σ_ij λ_iλ_j ξ² A_ij K'(ρ_ij(m))."""
        geo = self.geometry
        return 2 * self._cross_sum(self.kernel.derivative, geo.weights * geo.slope, m)

    def c_gradient(self, m: float) -> np.ndarray:
        """∂Φ/∂ĉ at one m (float64; Euclidean, before the projection onto the sphere's tangent).

        With ŝ_l = D + ξ²ĉ_l² and n̂_l = √ŝ_l, only ρ^ss and the cross ρ(m) move with ĉ:

            ∂ρ_il(m)/∂ĉ_l = ξ² c_i m/(n_i n̂_l) − ρ_il(m) ξ² ĉ_l/ŝ_l,
            ∂ρ^ss_lj/∂ĉ_l = ξ² ĉ_j/(n̂_l n̂_j) − ρ^ss_lj ξ² ĉ_l/ŝ_l   (0 for j = l, where ρ^ss_ll = 1),

        so ∂Φ/∂ĉ_l = 2 Σ_j λ_lλ_j K'(ρ^ss_lj) ∂ρ^ss_lj/∂ĉ_l − 2 Σ_i λ_iλ_l K'(ρ_il(m)) ∂ρ_il/∂ĉ_l
        (ρ^ss is symmetric, so the i = l and j = l terms of Σ_ij are equal).  The tests check it
        against central differences of :meth:`loss` and against the Monte-Carlo mean of the
        per-sample gradient of :mod:`verify.simulate.model`."""
        geo, num = self.geometry, self.numbers
        xi2 = geo.xi2
        c, c_hat = np.asarray(num.c, dtype=float), np.asarray(num.c_hat, dtype=float)
        s_hat = row_norms2(num.row_norm2, xi2, c_hat)
        n_hat, n = np.sqrt(s_hat), np.sqrt(row_norms2(num.row_norm2, xi2, c))
        rho = geo.cross(np.asarray(m, dtype=float))
        d_cross = xi2 * np.outer(c / n, m / n_hat) - rho * (xi2 * c_hat / s_hat)[None, :]
        cross = (geo.weights * self.kernel.derivative(rho) * d_cross).sum(axis=0)
        d_self = xi2 * np.outer(1 / n_hat, c_hat / n_hat) - geo.student * (xi2 * c_hat / s_hat)[:, None]
        np.fill_diagonal(d_self, 0.0)
        own = (geo.weights * self.kernel.derivative(geo.student) * d_self).sum(axis=1)
        return 2 * own - 2 * cross

    def loss_error(self, m, error):
        """Σ_ij |λ_iλ_j| [e(ρ^tt_ij) + e(ρ^ss_ij) + 2 e(ρ_ij(m))]: the error of :meth:`loss` when
        each kernel value K(ρ) is within e(ρ) of the truth."""
        weights = np.abs(self.geometry.weights)
        return self._self_sum(error, magnitude=True) + 2 * self._cross_sum(error, weights, m)


def population(instance) -> Population:
    """The float64 :class:`Population` of an instance (or of its :class:`Numbers`)."""
    numbers = as_numbers(instance)
    return Population(numbers, FLOAT64, fast_kernel(numbers.activation))


def loss(instance, m) -> np.ndarray:
    """Φ(m) = E[(f*(x) − f̂(x))²] for each m (float64, closed form through K_σ)."""
    m = validate_overlap(m)
    # Φ is a difference of O(1) terms; it is ≥ 0 exactly, clip the rounding below 0.
    return np.maximum(population(instance).loss(m), 0.0)


def h(instance, m) -> np.ndarray:
    """h(m) = 2 Σ_ij λ_i λ_j ξ² c_i ĉ_j K'(ρ_ij(m))/(n_i n̂_j) for each m."""
    m = validate_overlap(m)
    return population(instance).h(m)


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


class _ClosedKernel:
    """K or K' of a closed form in mpmath, ρ clamped to [−1, 1] (a rounded ρ may pass ±1 by an ulp)."""

    def __init__(self, expr):
        rho = sympy.Symbol("rho", real=True)
        self._f = sympy.lambdify(rho, expr.subs(next(iter(expr.free_symbols), rho), rho), modules="mpmath")

    def __call__(self, r):
        return mpmath.re(self._f(min(max(r, -1), 1)))


class _PreciseKernel:
    """The mpmath kernel of :func:`h_precise` / :func:`loss_precise`: ``value``, ``derivative`` and
    ``error`` (a bound on |value − K| at each ρ)."""

    def __init__(self, value, derivative=None, error=None):
        self.value, self.derivative = value, derivative
        self.error = error if error is not None else (lambda r: mpmath.mpf(0))


def _precise_numbers(instance, m, dps: int):
    dps = validate_dps(dps)
    m_value = float(validate_overlap(m))
    numbers = as_numbers(instance)
    return numbers, dps, m_value


def h_precise(instance, m, dps: int = 50) -> tuple:
    """(h(m), error bound) at ``dps`` digits, for the mpmath comparisons.

    Closed-form kernels (relu, abs, erf, polynomials) are evaluated exactly in
    mpmath (error: rounding only); other activations go through the power
    series of :mod:`verify.model.series` with its rigorous truncation bound.
    """
    numbers, dps, m_value = _precise_numbers(instance, m, dps)
    kprime = closed_form(get_activation(numbers.activation), derivative=True)
    if kprime is None:
        return h_series(numbers, 40, dps).evaluate(m_value)
    # Doubled working digits: closed-form kernels such as relu's (acos ρ, √(1−ρ²)) turn a rounding
    # error ε of ρ near ±1 into √ε, so 2(dps + guard) digits keep that below the stated 10^-(dps+5).
    with mpmath.workdps(2 * (dps + GUARD_DIGITS)):
        mm = mpmath.mpf(m) if isinstance(m, str) else mpmath.mpf(m_value)
        value = Population(numbers, MPMATH, _PreciseKernel(None, _ClosedKernel(kprime))).h(mm)
        return value, mpmath.mpf(10) ** (-(dps + 5))


def loss_precise(instance, m, dps: int = 50) -> tuple:
    """(Φ(m), error bound) at ``dps`` digits: the mpmath twin of :func:`loss`.

    Closed-form kernels (relu, abs, erf, polynomials) are evaluated exactly in
    mpmath (error: rounding only).  Otherwise K(ρ) = Σ_{p<N} μ_p² ρ^p with the
    Parseval tail bound |ρ|^N (E[σ²] − Σ_{p<N} μ_p²) of
    :func:`verify.model.kernels.kernel_series`, N = ``SERIES_TERMS``; at |ρ| = 1 (the
    diagonal of ρ^tt, ρ^ss; ρ is clamped to [−1, 1]) the series is not used: K(±1) = E[σ(g)σ(±g)] by
    1-D quadrature.  The bound is Σ|λλ| (tail_tt + tail_ss + 2 tail_cross)
    plus the quadrature and coefficient errors.
    """
    numbers, dps, m_value = _precise_numbers(instance, m, dps)
    act = get_activation(numbers.activation)
    kernel_expr = closed_form(act, derivative=False)
    # Doubled for closed forms, as in h_precise: √ε of ρ's rounding near ±1 must stay below the bound.
    with mpmath.workdps((2 if kernel_expr is not None else 1) * (dps + GUARD_DIGITS)):
        mm = mpmath.mpf(m) if isinstance(m, str) else mpmath.mpf(m_value)
        if kernel_expr is not None:
            kernel = _PreciseKernel(_ClosedKernel(kernel_expr))
            rounding = mpmath.mpf(10) ** (-(dps + 5))
        else:
            kernel = _series_kernel(act, dps)
            rounding = mpmath.mpf(0)
        pop = Population(numbers, MPMATH, kernel)
        return pop.loss(mm), pop.loss_error(mm, kernel.error) + rounding


#: Hermite terms of the series kernel in :func:`loss_precise` for activations without a closed form.
SERIES_TERMS = 120


def _series_kernel(act, dps: int) -> _PreciseKernel:
    """ρ ↦ Σ_{p<N} μ_p² ρ^p with its tail bound, and E[σ(g)σ(±g)] with its quadrature error at ρ = ±1."""
    coeffs = hermite_coefficients(act, SERIES_TERMS, dps)
    s = act.mpmath_function
    mu2 = [v**2 for v in coeffs.values]
    coeff_error = mpmath.fsum(2 * abs(v) * e for v, e in zip(coeffs.values, coeffs.errors, strict=True))
    square, square_error = gaussian_expectation(lambda t: s(t) ** 2, act.kinks, dps)
    rest = max(square - mpmath.fsum(mu2), 0) + square_error + coeff_error
    kinks = tuple(sorted({*act.kinks, *(-x for x in act.kinks)}))
    ends: dict = {}

    def at_end(r):
        if r not in ends:
            opposite = gaussian_expectation(lambda t: s(t) * s(-t), kinks, dps) if r == -1 else None
            ends[r] = (square, square_error) if r == 1 else opposite
        return ends[r]

    def value(r):
        # ρ is clamped as in the closed form: a float64 Gram diagonal of 1 + 2e-16 is 1.
        r = min(max(r, -1), 1)
        if abs(r) == 1:
            return at_end(r)[0]
        return mpmath.fsum(c * r**p for p, c in enumerate(mu2))

    def error(r):
        r = min(max(r, -1), 1)
        if abs(r) == 1:
            return at_end(r)[1]
        return abs(r) ** SERIES_TERMS * rest + coeff_error

    return _PreciseKernel(value, error=error)
