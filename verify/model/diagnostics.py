r"""Diagnostics of the activation for the paper's Assumption 6.

Assumption 6.2: there exist C_σ, ρ > 0 with |μ_p(σ)| ≤ C_σ p^{−1−ρ}.
Proposition 23 uses C_σ = Σ_p p μ_p² = E[σ'(g)²].  The GLM comparison
(§1.3) uses the information exponent l* = min{p ≥ 1 : μ_p ≠ 0}.

Everything here is computed from a :class:`~verify.model.hermite.HermiteCoefficients`
and independent 1-D quadratures, never from the paper's statements.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import mpmath

from verify.model.quadrature import gaussian_expectation

# A coefficient counts as nonzero when it exceeds this many error estimates
# and 10^-(dps-5): the quadrature is accurate to ~10^-(dps+2) absolutely.
NONZERO_SIGMAS = 10
NONZERO_DIGIT_MARGIN = 5


@dataclass(frozen=True)
class DecayFit:
    """|μ_p| ≤ C p^{−1−ρ} fitted on p in [p_min, p_max]; ρ = inf for finite expansions."""

    rho: float
    constant: float
    p_min: int
    p_max: int

    @property
    def satisfies_assumption_6(self) -> bool:
        return self.rho > 0


@dataclass(frozen=True)
class ParsevalCheck:
    """E[σ²] against Σ_{p<N} μ_p², with the rigorous tail bound (E[σ'²] − Σ p μ_p²)/N."""

    second_moment: Any  # E[σ²] by quadrature
    partial_sum: Any  # Σ_{p<N} μ_p²
    tail_bound: Any  # Σ_{p≥N} μ_p² ≤ (E[σ'²] − Σ_{p<N} p μ_p²)/N  (inf for jumps)
    derivative_moment: Any  # E[σ'²] by quadrature (inf for discontinuous σ)
    derivative_partial_sum: Any  # Σ_{p<N} p μ_p²
    quadrature_error: Any

    @property
    def holds(self) -> bool:
        """0 ≤ E[σ²] − Σ_{p<N} μ_p² ≤ tail bound, up to the quadrature errors."""
        gap = self.second_moment - self.partial_sum
        return -self.quadrature_error <= gap <= self.tail_bound + self.quadrature_error


def is_nonzero(value, error, dps: int) -> bool:
    threshold = max(NONZERO_SIGMAS * error, mpmath.mpf(10) ** (-(dps - NONZERO_DIGIT_MARGIN)))
    return abs(value) > threshold


def nonzero_indices(coeffs) -> list[int]:
    if coeffs.exact is not None:
        return [p for p, e in enumerate(coeffs.exact) if e != 0]
    return [p for p, (v, e) in enumerate(zip(coeffs.values, coeffs.errors, strict=True))
            if is_nonzero(v, e, coeffs.dps)]


def information_exponent(coeffs) -> int | None:
    """First p ≥ 1 with μ_p ≠ 0, or None if none among the computed coefficients."""
    return next((p for p in nonzero_indices(coeffs) if p >= 1), None)


def decay_fit(coeffs, finite_expansion: bool = False) -> DecayFit | None:
    """Fit ρ in |μ_p| ≤ C p^{−1−ρ} on the computed coefficients.

    ρ is fitted by least squares on the upper envelope E_p = max_{q≥p} |μ_q|
    (the quantity the bound constrains) over the nonzero p ≥ 1 in the upper
    half of the computed range, so the fit reflects the tail and not the first
    few coefficients.  C is then the smallest constant that makes the bound
    hold on every computed nonzero coefficient.  Smooth activations decay
    faster than any power, so their fitted ρ grows with the number of terms;
    the returned range says where it was measured.  None when fewer than two
    nonzero coefficients lie in the fitting range.
    """
    nonzero = [p for p in nonzero_indices(coeffs) if p >= 1]
    if finite_expansion:
        constant = max((abs(float(coeffs.values[p])) for p in nonzero), default=0.0)
        return DecayFit(math.inf, constant, 1, len(coeffs) - 1)
    n = len(coeffs)
    fit_points = [p for p in nonzero if p >= max(2, n // 2)]
    if len(fit_points) < 2:
        return None
    magnitudes = [abs(coeffs.values[p]) for p in range(n)]
    envelope = {p: max(magnitudes[p:]) for p in fit_points}
    xs = [math.log(p) for p in fit_points]
    ys = [float(mpmath.log(envelope[p])) for p in fit_points]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mean_x) ** 2 for x in xs
    )
    rho = -1.0 - slope
    constant = max(float(magnitudes[p]) * p ** (1 + rho) for p in nonzero)
    return DecayFit(rho, constant, fit_points[0], fit_points[-1])


def parseval_check(activation, coeffs) -> ParsevalCheck:
    """Compare Σ μ_p² with E[σ²] and Σ p μ_p² with E[σ'²] (independent quadratures)."""
    dps = coeffs.dps
    n = len(coeffs)
    second, err2, deriv, errd = _square_moments(activation, dps)
    with mpmath.workdps(dps + 10):
        mu = coeffs.values
        partial = mpmath.fsum(m**2 for m in mu)
        deriv_partial = mpmath.fsum(p * mu[p] ** 2 for p in range(n))
        coeff_err = mpmath.fsum(2 * (p + 1) * abs(m) * e
                                for p, (m, e) in enumerate(zip(mu, coeffs.errors, strict=True)))
    if activation.has_jumps:
        tail = mpmath.inf
    else:
        with mpmath.workdps(dps + 10):
            tail = max(deriv - deriv_partial, 0) / n
    # Values are carried to dps + 15 digits, so sums of them are good to ~10^-(dps+5).
    rounding = mpmath.mpf(10) ** (-(dps + 5))
    return ParsevalCheck(second, partial, tail, deriv, deriv_partial,
                         err2 + errd + coeff_err + rounding)


def _square_moments(activation, dps: int) -> tuple:
    """(E[σ²], its error, E[σ'²], its error) by quadrature, kept per activation and precision in
    this process: every series of h(m) checks Parseval, and the two quadratures cost 0.7 s, which
    a claim over 69 configurations of one activation paid 69 times."""
    key = (activation.name, str(activation.expr), dps)
    if key not in _SQUARE_MOMENTS:
        second, err2 = gaussian_expectation(lambda t: activation.mpmath_function(t) ** 2,
                                            activation.kinks, dps)
        if activation.has_jumps:
            deriv, errd = mpmath.inf, mpmath.mpf(0)
        else:
            deriv, errd = gaussian_expectation(lambda t: activation.mpmath_derivative(t) ** 2,
                                               activation.kinks, dps)
        if len(_SQUARE_MOMENTS) >= _SQUARE_MOMENTS_LIMIT:
            _SQUARE_MOMENTS.pop(next(iter(_SQUARE_MOMENTS)))
        _SQUARE_MOMENTS[key] = (second, err2, deriv, errd)
    return _SQUARE_MOMENTS[key]


#: E[σ²] and E[σ'²] computed in this process, by (name, expression, digits); the oldest dropped first.
_SQUARE_MOMENTS: dict[tuple, tuple] = {}
_SQUARE_MOMENTS_LIMIT = 64


def forget_square_moments() -> None:
    """Empty the quadratures kept in this process (calibration decides each statement alone)."""
    _SQUARE_MOMENTS.clear()
