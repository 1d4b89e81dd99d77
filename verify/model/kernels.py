r"""Dual kernels K_σ(ρ) = E[σ(g₁)σ(g₂)] and K'_σ(ρ) = E[σ'(g₁)σ'(g₂)].

Here (g₁, g₂) are standard Gaussians with correlation ρ ∈ [−1, 1].  By the
Hermite expansion (paper §1.4), K_σ(ρ) = Σ_p μ_p² ρ^p and its derivative is
K'_σ(ρ) = Σ_p p μ_p² ρ^{p−1} = E[σ'(g₁)σ'(g₂)] (apply the first identity to σ'
and use μ_{p−1}(σ') = √p μ_p(σ)).

Three independent evaluations, compared with each other by the tests:

``closed``
    SymPy closed forms: the arc-cosine kernel for relu (Cho & Saul),
    (2/π)(√(1−ρ²) + ρ asin ρ) for abs, (2/π) asin(2c²ρ/(1+2c²)) for erf(cx),
    Σ c_j c_l exp((a_j² + a_l²)/2 + a_j a_l ρ) for a sum of exponentials Σ c_j e^{a_j x}
    (sin, cos, sinh, cosh, exp: the Gaussian moment generating function, a_j complex),
    and Σ μ_p² ρ^p with exact μ_p for every polynomial σ (linear, quadratic,
    he_p, polynomial ``expr:``).  K' is the closed form of E[σ'σ'], and a
    test checks K' = dK/dρ symbolically.
``quadrature``
    A 2-D Gaussian integral at high precision: g₂ = ρ g₁ + √(1−ρ²) z, the
    inner integral over z split where the argument crosses a kink.
``series``
    The partial sum Σ_{p<N} μ_p² ρ^p with a rigorous tail bound
    |ρ|^N (E[σ²] − Σ_{p<N} μ_p²) (Parseval), and likewise for K' with E[σ'²].
    Never the reference: for relu Σ p μ_p² converges only like N^{−1/2}.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import mpmath
import sympy
from mpmath.calculus.quadrature import TanhSinh
from tqdm import tqdm

from verify.base.errors import ConvergenceError, InvalidParameterError
from verify.model.activations import Activation, get_activation
from verify.model.hermite import TARGET_EXTRA_DIGITS, hermite_coefficients, validate_dps
from verify.model.hermite_exact import erf_scale, exact_coefficients, is_finite_expansion, polynomial_degree
from verify.model.quadrature import (
    GUARD_DIGITS,
    breakpoints,
    extrapolated_error,
    gaussian_expectation,
)

KERNEL_METHODS = ("auto", "closed", "quadrature", "series")
KERNEL_GUARD_DIGITS = 8


@dataclass(frozen=True)
class KernelValue:
    """K_σ(ρ) (or K'_σ(ρ)) with an error bound and the method that produced it."""

    activation: str
    rho: object
    derivative: bool
    value: object
    error: object
    method: str


def validate_rho(rho) -> object:
    """ρ as an mpf; strings are parsed at 60 digits so '0.37' means 37/100, not its double."""
    try:
        with mpmath.workdps(60):
            r = mpmath.mpf(rho)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"rho must be a real number in [-1, 1], got {rho!r}") from None
    if mpmath.isnan(r) or not -1 <= r <= 1:
        raise InvalidParameterError(
            f"rho must lie in [-1, 1] (it is a correlation), got {rho!r}"
        )
    return r


def kink_at_zero_linear(activation):
    """(c, a, b) with σ(x) = c + a x + b|x| exactly (continuous, linear on each side of 0: leaky
    relu, relu, abs and their affine images), or None."""
    t = sympy.Symbol("t", positive=True)
    x, expr = activation.x, activation.expr
    right, left = (sympy.expand(expr.subs(x, sign * t)) for sign in (1, -1))
    if not (right.is_polynomial(t) and left.is_polynomial(t)):
        return None
    if sympy.degree(right, t) > 1 or sympy.degree(left, t) > 1:
        return None
    (slope_right, c_right), (slope_left, c_left) = (
        (side.coeff(t, 1), side.coeff(t, 0)) for side in (right, left))
    if c_right != c_left or not all(v.is_number for v in (slope_right, slope_left, c_right)):
        return None
    # σ(t) = c + (a + b)t and σ(−t) = c + (b − a)t for t > 0
    a = (slope_right - slope_left) / 2
    b = (slope_right + slope_left) / 2
    return c_right, a, b


#: Terms of a sum of exponentials beyond which its kernel (terms²) is not built.
MAX_EXPONENTIALS = 6


def exponential_sum(activation):
    """[(c_j, a_j)] with σ(x) = Σ c_j e^{a_j x} exactly (c_j, a_j complex numbers; sin, cos,
    sinh, cosh, exp and their combinations), or None."""
    x, expr = activation.x, activation.expr
    if not expr.has(sympy.exp, sympy.sin, sympy.cos, sympy.sinh, sympy.cosh):
        return None
    terms = sympy.Add.make_args(sympy.expand(sympy.powsimp(sympy.expand(expr.rewrite(sympy.exp)))))
    if len(terms) > MAX_EXPONENTIALS:
        return None
    out = []
    for term in terms:
        c, rest = term.as_independent(x, as_Add=False)
        exponent = rest.args[0] if isinstance(rest, sympy.exp) else (0 if rest == 1 else None)
        if exponent is None or not sympy.sympify(exponent).is_polynomial(x) or sympy.degree(exponent, x) > 1:
            return None
        a, b = sympy.Poly(exponent, x).coeff_monomial(x), sympy.Poly(exponent, x).coeff_monomial(1)
        if not (c.is_number and a.is_number and b.is_number):
            return None
        out.append((c * sympy.exp(b), a))
    return out


def closed_form(activation, derivative: bool = False):
    """K_σ or K'_σ as a SymPy expression in ``rho``, or None when none is known."""


    rho = sympy.Symbol("rho", real=True)
    x, expr = activation.x, activation.expr
    pi, sqrt, asin = sympy.pi, sympy.sqrt, sympy.asin
    if expr == sympy.Max(x, 0):
        if derivative:
            return (pi - sympy.acos(rho)) / (2 * pi)
        return (sqrt(1 - rho**2) + (pi - sympy.acos(rho)) * rho) / (2 * pi)
    if expr == sympy.Abs(x):
        if derivative:
            return 2 / pi * asin(rho)
        return 2 / pi * (sqrt(1 - rho**2) + rho * asin(rho))
    linear = kink_at_zero_linear(activation)
    if linear is not None:
        # σ = c + a x + b|x|: E[σ(X)σ(Y)] = c² + 2cb E|X| + a² ρ + b² E|X||Y| (the cross terms
        # E[X|Y|] vanish by symmetry), E|X| = √(2/π), E|X||Y| = (2/π)(√(1 − ρ²) + ρ asin ρ)
        c0, a, b = linear
        if derivative:
            return a**2 + 2 * b**2 / pi * asin(rho)
        return (c0**2 + 2 * c0 * b * sqrt(2 / pi) + a**2 * rho
                + 2 * b**2 / pi * (sqrt(1 - rho**2) + rho * asin(rho)))
    exponentials = exponential_sum(activation)
    if exponentials is not None:
        # E[e^{aX + bY}] = e^{(a² + b² + 2abρ)/2} for correlated standard Gaussians X, Y; σ' has
        # the terms c_j a_j e^{a_j x}
        total = sum(cj * cl * (aj * al if derivative else 1) * sympy.exp((aj**2 + al**2) / 2 + aj * al * rho)
                    for cj, aj in exponentials for cl, al in exponentials)
        return sympy.simplify(sympy.expand(total).rewrite(sympy.cosh))
    c = erf_scale(activation)
    if c is not None:
        a = c**2
        if derivative:
            return 4 * a / pi / sqrt((1 + 2 * a) ** 2 - 4 * a**2 * rho**2)
        return 2 / pi * asin(2 * a * rho / (1 + 2 * a))
    if is_finite_expansion(activation):
        n = polynomial_degree(activation)
        mu = exact_coefficients(activation, n + 1)
        assert mu is not None  # every polynomial is a piecewise polynomial
        if derivative:
            return sympy.expand(sum(p * mu[p] ** 2 * rho ** (p - 1) for p in range(1, n + 1)))
        return sympy.expand(sum(mu[p] ** 2 * rho**p for p in range(n + 1)))
    return None


def kernel(activation, rho, derivative: bool = False, dps: int = 30,
           method: str = "auto", terms: int = 200) -> KernelValue:
    """K_σ(ρ), or K'_σ(ρ) with ``derivative=True``, to ``dps`` digits.

    ``method="auto"`` uses the closed form where one exists and the 2-D
    quadrature otherwise; ``"series"`` uses ``terms`` Hermite coefficients.
    """

    act = activation if isinstance(activation, Activation) else get_activation(activation)
    r = validate_rho(rho)
    dps = validate_dps(dps)
    if method not in KERNEL_METHODS:
        raise InvalidParameterError(f"method must be one of {KERNEL_METHODS}, got {method!r}")
    if derivative and act.has_jumps:
        raise InvalidParameterError(
            f"activation {act.name!r} is discontinuous, so K'(rho) = E[σ'σ'] is infinite"
        )
    if method in ("auto", "closed"):
        expr = closed_form(act, derivative)
        if expr is None and method == "closed":
            raise InvalidParameterError(f"activation {act.name!r} has no closed-form kernel")
        if expr is not None:
            value = _evaluate_closed(expr, r, dps)
            # Evaluated with GUARD_DIGITS extra digits: the stated error is the target
            # precision, not 0 (a floating-point evaluation never proves exactness).
            rounding = mpmath.mpf(10) ** -(dps + TARGET_EXTRA_DIGITS) * max(1, abs(value))
            return KernelValue(act.name, r, derivative, value, rounding, "closed")
    if method == "series":
        value, error = kernel_series(act, r, derivative, dps, terms)
        return KernelValue(act.name, r, derivative, value, error, "series")
    value, error = kernel_quadrature(act, r, derivative, dps)
    return KernelValue(act.name, r, derivative, value, error, "quadrature")


def _evaluate_closed(expr, rho, dps: int):

    (symbol,) = expr.free_symbols or {sympy.Symbol("rho", real=True)}
    with mpmath.workdps(dps + GUARD_DIGITS):
        f = sympy.lambdify(symbol, expr, modules="mpmath")
        return mpmath.mpf(mpmath.re(f(mpmath.mpf(rho))))


def kernel_quadrature(act, rho, derivative: bool = False, dps: int = 30,
                      max_level: int = 10, progress: bool | None = None) -> tuple:
    """(E[s(g₁)s(g₂)], error) for s = σ (or σ'), by a nested 2-D tanh-sinh rule.

    Write g₂ = ρ g₁ + √(1−ρ²) z with z ⊥ g₁, so the integrand is smooth away
    from the kinks even as |ρ| → 1.  The outer integral over g₁ is split at
    the kinks of s; for each outer node the inner integral over z is split
    where ρ g₁ + √(1−ρ²) z crosses a kink (tanh-sinh nodes of [0, ∞) shifted
    there).  Both dimensions use the nested level-L rule, so one pass yields
    the level-L and level-(L−1) estimates; levels increase until the
    extrapolated error (:func:`~verify.model.quadrature.extrapolated_error`) is
    below 10^-(dps+2).  Nodes with |x| beyond 2√(D ln 10) (D working digits)
    are skipped: s ∈ L²(N(0,1)) grows slower than e^{x²/4}, so s·φ there is
    below the working precision.
    """
    s = act.mpmath_derivative if derivative else act.mpmath_function
    # Fewer guard digits than the 1-D engines: the 2-D cost grows with the
    # square of the node count, and 8 digits cover the rounding of ~10⁶ terms.
    with mpmath.workdps(dps + KERNEL_GUARD_DIGITS):
        r = mpmath.mpf(rho)
        scale = mpmath.sqrt(1 - r * r)
        if scale == 0:  # degenerate: g₂ = ±g₁
            return gaussian_expectation(lambda t: s(t) * s(r * t), act.kinks, dps)
        line = _GaussianLine(breakpoints(act.kinks)[1:-1])
        target = mpmath.mpf(10) ** (-(dps + TARGET_EXTRA_DIGITS))
        _check_reach(act, s, r, scale, line.reach, target)
        estimates: list = []
        error = None
        bar = tqdm(total=max_level - 1, desc=f"2-D kernel quadrature ({act.name})", unit="level",
                   disable=not (sys.stderr.isatty() if progress is None else progress), leave=False)
        for level in range(2, max_level + 1):
            bar.update(1)
            inner_coarse: dict = {}
            inner_mass: dict = {}

            def outer(a, level=level, store=inner_coarse, masses=inner_mass):
                value = s(a)
                if value == 0:
                    return value
                fine, coarse, mass = line.sums(lambda z: s(r * a + scale * z), level,
                                               shift=r * a, stretch=scale)
                store[a] = value * coarse
                masses[a] = abs(value) * mass
                return value * fine

            full = line.sums(outer, level)[0]
            # The rounding floor comes from the size of the summands, Σ|s(a)| Σ|s(.)|, not from
            # the outer sums: an inner integral that cancels to exactly 0 (ρ = 1e-400, where ρa
            # is lost against z) must not make the error bound claim exactness.
            mass = line.sums(lambda a, masses=inner_mass: masses.get(a, 0), level)[0]
            coarse = line.sums(lambda a, store=inner_coarse: store.get(a, 0), level - 1)[0]
            estimates.extend([coarse, full] if not estimates else [full])
            if len(estimates) >= 3:
                rounding = mass * mpmath.ldexp(1, -mpmath.mp.prec + 8)
                error = extrapolated_error(
                    estimates[-1], estimates[-2], estimates[-3], rounding, dps + TARGET_EXTRA_DIGITS
                )
                if error < target:
                    bar.close()
                    return full, error
        bar.close()
        raise ConvergenceError(
            f"2-D kernel quadrature for {act.name!r} at rho={mpmath.nstr(r, 5)} did not reach "
            f"1e-{dps + TARGET_EXTRA_DIGITS} after {max_level} tanh-sinh levels "
            f"(error estimate {mpmath.nstr(error, 3)})"
        )


class KernelReachError(InvalidParameterError):
    """σ grows so fast that σ(g₁)σ(g₂) is not negligible where the 2-D quadrature stops."""


def _check_reach(act, s, r, scale, reach, target) -> None:
    """Refuse an activation whose 2-D integrand is not negligible at the quadrature's reach.

    Nodes beyond |x| = reach are skipped, which is safe when σ² grows much slower than
    e^{x²/2}; for σ = exp(x²/4.01) at ρ = 0.5 the integrand at the corner (a, b) = (R, R)
    is still 1e-26, so skipping would silently return a wrong K (and the levels never
    converged: over a minute at any ρ).  Probed where the quadratic form decays slowest, on
    the diagonals b = ±a (in the quadrature's coordinates z = (b − ρa)/√(1−ρ²)) and on the
    axes; any probe above the target accuracy is an error naming the activation, not a
    number."""
    corners = []
    for a in (reach, -reach):
        for b in (a, -a, r * a):
            z = (b - r * a) / scale
            if abs(z) <= reach:
                corners.append((a, z))
        corners.append((0, reach))
        corners.append((0, -reach))
    for a, z in corners:
        weight = mpmath.exp(-(a * a + z * z) / 2) / (2 * mpmath.pi)
        size = abs(s(a) * s(r * a + scale * z)) * weight * reach * reach
        if size > target:
            raise KernelReachError(
                f"activation {act.name!r} grows too fast for the 2-D kernel quadrature at "
                f"rho={mpmath.nstr(r, 5)}: sigma(g1)*sigma(g2) times the Gaussian density is still "
                f"{mpmath.nstr(size, 2)} at |x| = {mpmath.nstr(reach, 3)}, where the quadrature "
                "stops; use --method series, or an activation with sigma^2 well below e^(x^2/2)")


class _GaussianLine:
    """Nested tanh-sinh sums of ∫ f(t) φ(t) dt over R split at fixed kinks.

    ``sums(f, L, shift, stretch)`` integrates over the variable z where the
    kinks sit at (k − shift)/stretch: the standard nodes of (−∞, 0], [0, ∞)
    and [−1, 1] are computed once per level and only translated or scaled.
    """

    def __init__(self, kinks: list):
        self.kinks = kinks
        self.rule = TanhSinh(mpmath.mp)
        self.reach = 2 * mpmath.sqrt(mpmath.log(10) * mpmath.mp.dps)
        self.norm = 1 / mpmath.sqrt(2 * mpmath.pi)
        self._standard: dict = {}

    def _nodes(self, a, b, level):
        key = (a, b, level)
        if key not in self._standard:
            nodes = []
            for lev in range(1, level + 1):
                nodes.extend((x, w, lev) for x, w in
                             self.rule.get_nodes(a, b, lev, mpmath.mp.prec))
            self._standard[key] = nodes
        return self._standard[key]

    def _pieces(self, level, shift, stretch):
        inf, zero, one = mpmath.inf, mpmath.mpf(0), mpmath.mpf(1)
        if not self.kinks:
            yield from self._nodes(-inf, inf, level)
            return
        cuts = sorted((k - shift) / stretch for k in self.kinks)
        yield from ((cuts[0] + x, w, lev) for x, w, lev in self._nodes(-inf, zero, level))
        for lo, hi in zip(cuts[:-1], cuts[1:], strict=True):
            half, mid = (hi - lo) / 2, (hi + lo) / 2
            yield from ((mid + half * x, half * w, lev)
                        for x, w, lev in self._nodes(-one, one, level))
        yield from ((cuts[-1] + x, w, lev) for x, w, lev in self._nodes(zero, inf, level))

    def sums(self, f, level, shift=0, stretch=1):
        """(level-L sum, level-(L−1) sum, Σ|terms|) of ∫ f φ."""
        full = coarse = mass = mpmath.mpf(0)
        for x, w, lev in self._pieces(level, shift, stretch):
            if abs(x) > self.reach:
                continue
            term = w * mpmath.exp(-x * x / 2) * self.norm * f(x)
            full += term
            mass += abs(term)
            if lev < level:
                coarse += term
        step = mpmath.ldexp(1, -level)
        return full * step, coarse * 2 * step, mass * step


def kernel_series(act, rho, derivative: bool = False, dps: int = 30, terms: int = 200) -> tuple:
    """(partial sum, rigorous tail bound) of Σ μ_p² ρ^p or Σ p μ_p² ρ^{p−1}.

    Tail bound: for p ≥ N, μ_p² |ρ|^p ≤ μ_p² |ρ|^N, so the tail is at most
    |ρ|^N (E[σ²] − Σ_{p<N} μ_p²); for K', at most |ρ|^{N−1}(E[σ'²] − Σ_{p<N} p μ_p²).
    E[σ²] and E[σ'²] come from an independent 1-D quadrature; quadrature
    errors of the coefficients are added.
    """

    coeffs = hermite_coefficients(act, terms, dps)
    s = act.mpmath_derivative if derivative else act.mpmath_function
    with mpmath.workdps(dps + GUARD_DIGITS):
        r = mpmath.mpf(rho)
        mu, err = coeffs.values, coeffs.errors
        if derivative:
            partial = mpmath.fsum(p * mu[p] ** 2 * r ** (p - 1) for p in range(1, terms))
            captured = mpmath.fsum(p * mu[p] ** 2 for p in range(1, terms))
            coeff_error = mpmath.fsum(2 * p * abs(mu[p]) * err[p] for p in range(1, terms))
            power = abs(r) ** (terms - 1)
        else:
            partial = mpmath.fsum(mu[p] ** 2 * r**p for p in range(terms))
            captured = mpmath.fsum(m**2 for m in mu)
            coeff_error = mpmath.fsum(2 * abs(m) * e for m, e in zip(mu, err, strict=True))
            power = abs(r) ** terms
        total, total_error = gaussian_expectation(lambda t: s(t) ** 2, act.kinks, dps)
        tail = power * max(total - captured, 0) + power * (total_error + coeff_error)
        return partial, tail + coeff_error
