r"""Vectorised float64 dual kernels K_σ(ρ) and K'_σ(ρ) for the population formulas.

The high-precision references are in :mod:`verify.model.kernels`; this module is the
fast path that the population loss and h(m) evaluate on k×k×(number of m)
arrays.  Two engines, chosen per activation:

``closed``
    The SymPy closed form of :func:`verify.model.kernels.closed_form`, lambdified with
    NumPy (relu, abs, erf, every polynomial).  Exact up to float64 rounding.
``series``
    Σ_{p<N} μ_p² ρ^p (and Σ p μ_p² ρ^{p−1}) with μ_p from the cached Hermite
    engine.  For |ρ| ≤ 1 the truncation error is at most E[σ²] − Σ_{p<N} μ_p²
    (resp. E[σ'²] − Σ_{p<N} p μ_p²), both from independent quadratures; N grows
    until that bound is below ``tolerance``, else :class:`ConvergenceError`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import mpmath
import numpy as np
import sympy

from verify.base.errors import ConvergenceError
from verify.model.activations import Activation, get_activation
from verify.model.diagnostics import parseval_check
from verify.model.hermite import hermite_coefficients
from verify.model.kernels import closed_form

DEFAULT_TOLERANCE = 1e-14  # absolute, on K and K' (float64 rounding of O(1) values is ~1e-16)
SERIES_DPS = 30
SERIES_TERMS = (64, 128, 256, 512)


@dataclass
class FastKernel:
    """K_σ and K'_σ on NumPy arrays; ``error_bound`` bounds the truncation (0 if closed)."""

    activation: str
    method: str
    error_bound: float
    _k: object = field(repr=False)
    _kprime: object = field(repr=False)

    def value(self, rho) -> np.ndarray:
        return np.asarray(self._k(np.clip(rho, -1.0, 1.0)), dtype=float)  # type: ignore[operator]

    def derivative(self, rho) -> np.ndarray:
        return np.asarray(self._kprime(np.clip(rho, -1.0, 1.0)), dtype=float)  # type: ignore[operator]


_CACHE: dict[tuple[str, float], FastKernel] = {}


def fast_kernel(activation, tolerance: float = DEFAULT_TOLERANCE) -> FastKernel:
    """The float64 kernel pair of ``activation`` (cached per activation and tolerance).

    ρ is clipped to [−1, 1]: correlations computed in float64 can exceed 1 by an ulp,
    where the closed forms (√(1−ρ²), acos ρ) would return NaN.
    """

    act = activation if isinstance(activation, Activation) else get_activation(activation)
    key = (act.name, tolerance)
    if key not in _CACHE:
        _CACHE[key] = _build(act, tolerance)
    return _CACHE[key]


def _build(act, tolerance: float) -> FastKernel:


    k_expr = closed_form(act)
    if k_expr is not None:
        kp_expr = closed_form(act, derivative=True)
        rho = sympy.Symbol("rho", real=True)
        return FastKernel(act.name, "closed", 0.0, _vectorised(rho, k_expr),
                          _vectorised(rho, kp_expr))
    return _series(act, tolerance)


def _vectorised(rho, expr):

    f = sympy.lambdify(rho, expr, modules="numpy")

    def evaluate(r):
        return np.broadcast_to(f(r), np.shape(r)).astype(float)

    return evaluate


def _series(act, tolerance: float) -> FastKernel:

    if act.has_jumps:
        raise ConvergenceError(
            f"activation {act.name!r} is discontinuous: K'(rho) = E[σ'σ'] is infinite"
        )
    bound = np.inf
    for terms in SERIES_TERMS:
        coeffs = hermite_coefficients(act, terms, SERIES_DPS)
        check = parseval_check(act, coeffs)
        with mpmath.workdps(SERIES_DPS):
            tail_k = max(check.second_moment - check.partial_sum, 0) + check.quadrature_error
            tail_kp = (max(check.derivative_moment - check.derivative_partial_sum, 0)
                       + check.quadrature_error)
        bound = float(max(tail_k, tail_kp))
        if bound <= tolerance:
            mu2 = np.array([float(v**2) for v in coeffs.values])
            p = np.arange(terms)
            return FastKernel(act.name, "series", bound, _Polynomial(mu2),
                              _Polynomial((p * mu2)[1:]))
    raise ConvergenceError(
        f"Hermite series of the kernel of {act.name!r} has truncation bound {bound:.2e} "
        f"> {tolerance:.0e} after {SERIES_TERMS[-1]} terms (coefficients decay too slowly)"
    )


@dataclass(frozen=True)
class _Polynomial:
    """Σ_p a_p ρ^p by Horner's rule, vectorised."""

    coefficients: np.ndarray

    def __call__(self, rho):
        rho = np.asarray(rho, dtype=float)
        out = np.zeros_like(rho)
        for a in self.coefficients[::-1]:
            out = out * rho + a
        return out
