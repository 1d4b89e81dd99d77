r"""Certified dual kernels K_σ(ρ) = Σ_p μ_p² ρ^p and K'_σ(ρ) = Σ_p p μ_p² ρ^{p−1}.

Both accept a ball ρ that contains a true correlation (so the exact ρ lies in [−1, 1]) and
return a ball containing K(ρ) (or K'(ρ)) for every ρ in it.

Closed forms (:func:`verify.model.kernels.closed_form`: relu, abs, erf(cx), polynomials) are
evaluated node by node in ball arithmetic, with the arguments of √, asin and acos clamped to
their domains: valid because for |ρ| ≤ 1 the exact arguments are in the domain (1 − ρ² ≥ 0,
|ρ| ≤ 1, |2c²ρ/(1+2c²)| ≤ 1), so a ball can stick out only by rounding.

Otherwise the series, with μ_p from :mod:`verify.certified.hermite` (p < P) and rigorous tails.
With the tail masses (Parseval for σ, and for σ' when σ is continuous, by Gaussian
integration by parts μ_{p−1}(σ') = √p μ_p(σ))

    T₀ = Σ_{p≥P} μ_p² = E[σ²] − Σ_{p<P} μ_p²,   T₁ = Σ_{p≥P} p μ_p² = E[σ'²] − Σ_{p<P} p μ_p²,

and r ≥ |ρ|:

    |Σ_{p≥P} μ_p² ρ^p| ≤ r^P T₀,
    |Σ_{p≥P} p μ_p² ρ^{p−1}| ≤ min( r^{P−1} T₁,  T₀ · max_{p≥P} p r^{p−1} ).

The first bound for K' needs E[σ'²] < ∞ (no jumps) and works up to |ρ| = 1; the second needs
only r < 1 (the sequence p r^{p−1} is unimodal, so its maximum over p ≥ P is at the first p ≥ P
with (p+1) r ≤ p).  E[σ²] and E[σ'²] are certified Gaussian integrals of σ² and σ'²
(:class:`~verify.certified.gaussian.GaussianIntegrator`, cached as ``certified-moment``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

import sympy
from flint import arb, ctx

from verify.base.errors import InvalidParameterError
from verify.certified.balls import (
    clamped_endpoints,
    computed_here,
    integer_power,
    quantized,
    upper_fraction,
    working_precision,
)
from verify.certified.compile import RealBackend, compile_expression
from verify.certified.errors import CertificationError
from verify.certified.gaussian import EXTRA_DIGITS, GaussianIntegrator, PiecewiseIntegrand
from verify.certified.hermite import certified_hermite_coefficients
from verify.certified.pieces import derivative_pieces, smooth_pieces
from verify.model.activations import Activation, get_activation
from verify.model.hermite import validate_dps
from verify.model.kernels import closed_form

#: Hermite terms P of a series kernel: enough that the tail r^P T₀ is negligible for |ρ| ≤ 0.9
#: (0.9^64 ≈ 1e-3 times a tail mass that is itself tiny for smooth σ), and cheap to certify.
SERIES_TERMS = 64


def certified_second_moment(activation, dps: int = 30, derivative: bool = False,
                            use_cache: bool = True) -> arb:
    """A ball containing E[σ(g)²] (or E[σ'(g)²] with ``derivative=True``), g ~ N(0, 1)."""

    dps = validate_dps(dps)
    act = activation if isinstance(activation, Activation) else get_activation(activation)
    def compute() -> arb:
        with working_precision(dps):
            pieces = derivative_pieces(act) if derivative else smooth_pieces(act)
            integrator = GaussianIntegrator(PiecewiseIntegrand(pieces, act.x).squared(), dps, hermite=False)
            return quantized(integrator.integral(), dps + EXTRA_DIGITS)

    # this process's own balls only, never the disk cache's (verify.certified.hermite says why)
    return computed_here(("moment", act.name, dps, derivative), compute) if use_cache else compute()


class KernelDomainError(InvalidParameterError):
    """A dual kernel evaluated at a ball that lies wholly outside [−1, 1] (a claim's argument that
    leaves the domain of a correlation somewhere in its range)."""


#: Kernel values kept per kernel object; cleared past this many (a value is a few hundred bytes).
_MEMO_LIMIT = 100_000


def _remembered(method):
    """K or K' at a ball, kept per kernel, working precision and ball (midpoint and radius, both
    exact): a pure function of these.  A ``--prob`` claim reads each drawn instance in balls, and
    for quantized c the overlaps ρ_ij(0) = G_ij/(n_i n̂_j) are the same balls in every draw (n_i
    does not depend on the sign of c_i), so all but the first draw's k² kernel values are found
    here."""

    @functools.wraps(method)
    def remembered(self, rho: arb) -> arb:
        if not rho.is_finite():
            return method(self, rho)
        memo = self.__dict__.setdefault("_memo", {})  # a frozen dataclass: its __dict__ directly
        key = (method.__name__, ctx.prec, rho.mid(), rho.rad())
        if key not in memo:
            if len(memo) >= _MEMO_LIMIT:
                memo.clear()
            memo[key] = method(self, rho)
        return memo[key]

    return remembered


def _clamped_rho(rho: arb) -> arb:
    """ρ ∩ [−1, 1] as a ball (its radius may re-cross ±1 by rounding; the closed forms clamp again)."""
    if rho.lower() > 1 or rho.upper() < -1:
        raise KernelDomainError(f"claim: a kernel (K, Kp, h or Phi) is evaluated at {rho.mid().str(6)}, "
                                "outside "
                                "its domain [-1, 1] (a correlation); restrict the quantifiers so that its "
                                "argument stays in [-1, 1]")
    low, high = clamped_endpoints(rho, arb(-1), arb(1))
    return low.union(high)


@dataclass(frozen=True)
class ClosedFormKernel:
    """K and K' from their SymPy closed forms, evaluated in ball arithmetic."""

    activation: str
    kernel: object  # ball -> ball
    kernel_derivative: object

    method = "closed"

    @_remembered
    def value(self, rho: arb) -> arb:
        return self.kernel(_clamped_rho(rho))  # type: ignore[operator]

    @_remembered
    def derivative(self, rho: arb) -> arb:
        return self.kernel_derivative(_clamped_rho(rho))  # type: ignore[operator]


@dataclass(frozen=True)
class SeriesKernel:
    """K and K' as Σ_{p<P} plus the rigorous tail bounds of the module docstring."""

    activation: str
    mu: tuple[arb, ...]
    second_moment: arb  # E[σ²]
    derivative_moment: arb | None  # E[σ'²], None for discontinuous σ
    #: +1 for even σ, −1 for odd σ (proven by SymPy: σ(−x) ∓ σ(x) expands to 0), 0 otherwise
    parity: int = 0

    method = "series"

    # The squares and tail masses depend on the kernel only; computed once per kernel (a
    # cached_property is allowed on a frozen dataclass: it writes __dict__, not __setattr__),
    # they made every K, K' evaluation redo ~3P ball products.
    @functools.cached_property
    def _squares(self) -> list[arb]:
        return [m * m for m in self.mu]

    @functools.cached_property
    def _derivative_coefficients(self) -> list[arb]:
        return [p * v for p, v in enumerate(self._squares)][1:]

    @functools.cached_property
    def _tails(self) -> tuple[arb, arb | None]:
        """Upper bounds of Σ_{p≥P} μ_p² and Σ_{p≥P} p μ_p² (exact, so valid at any precision)."""
        t0 = _nonnegative_upper(self.second_moment - sum(self._squares, arb(0)))
        t1 = None
        if self.derivative_moment is not None:
            t1 = _nonnegative_upper(self.derivative_moment - sum(self._derivative_coefficients, arb(0)))
        return t0, t1

    @_remembered
    def value(self, rho: arb) -> arb:
        # At ρ = ±1 exactly K is a second moment: K(1) = E[σ²], K(−1) = ±E[σ²] for even/odd σ.
        # The series there carries the whole tail mass T₀ (5.7e-11 for tanh at P = 64), which
        # hid a violation of 1e-10 at ρ = −1; the moment is certified to the working precision.
        if rho.rad() == 0 and abs(rho.mid()) == 1:
            if rho.mid() == 1:
                return self.second_moment
            if self.parity:
                return self.parity * self.second_moment
        rho = _clamped_rho(rho)
        terms = len(self.mu)
        partial = _horner(self._squares, rho)
        t0, _ = self._tails
        return partial + arb(0, (integer_power(abs(rho).upper(), terms) * t0).upper())

    @_remembered
    def derivative(self, rho: arb) -> arb:
        rho = _clamped_rho(rho)
        terms = len(self.mu)
        partial = _horner(self._derivative_coefficients, rho)
        t0, t1 = self._tails
        r = abs(rho).upper()
        bounds = []
        if t1 is not None:
            bounds.append(integer_power(r, terms - 1) * t1)
        if r < 1:
            bounds.append(t0 * _max_weight(upper_fraction(r), terms))
        if not bounds:
            raise CertificationError(f"K'({rho}) of the discontinuous activation {self.activation!r} is not "
                                     "bounded at |rho| = 1")
        tail = min(b.upper() for b in bounds)
        return partial + arb(0, tail)


def _nonnegative_upper(x: arb) -> arb:
    """An exact upper bound ≥ 0 of a quantity known to be ≥ 0 (a tail mass)."""
    upper = x.upper()
    return upper if upper > 0 else arb(0)


def _horner(coefficients: list[arb], rho: arb) -> arb:
    total = arb(0)
    for c in reversed(coefficients):
        total = total * rho + c
    return total


def _max_weight(r: Fraction, start: int) -> arb:
    """max_{p ≥ start} p r^{p−1} for 0 ≤ r < 1: at the first p ≥ start with (p+1) r ≤ p, i.e.
    p ≥ r/(1 − r), found in closed form (stepping p one at a time took seconds, and never
    finished, for r within 1e-6 of 1)."""
    threshold = r / (1 - r)
    p = max(start, -(-threshold.numerator // threshold.denominator))
    return p * integer_power(arb(r.numerator) / r.denominator, p - 1)


Kernel = ClosedFormKernel | SeriesKernel


def certified_kernel(activation, dps: int = 30, terms: int = SERIES_TERMS, use_cache: bool = True) -> Kernel:
    """The certified K and K' of σ: closed form where :func:`verify.model.kernels.closed_form` has one,
    else the series with P = ``terms`` certified Hermite coefficients.

    Build and evaluate inside :func:`~verify.certified.balls.working_precision` (``dps``)."""

    act = activation if isinstance(activation, Activation) else get_activation(activation)
    return _certified_kernel(act, dps, terms, use_cache)


@functools.lru_cache(maxsize=64)
def _certified_kernel(act: Activation, dps: int, terms: int, use_cache: bool) -> Kernel:
    # one per (σ, digits): a --prob claim reads each drawn instance in balls, and building the
    # kernel (a compiled closed form, or certified coefficients) cost 1.3 ms of each reading
    kernel, derivative = closed_form(act, False), closed_form(act, True)
    if kernel is not None and derivative is not None:
        backend = RealBackend(clamped=True)
        rho = _rho_symbol(kernel, derivative)
        with working_precision(dps):
            return ClosedFormKernel(act.name, compile_expression(kernel, rho, backend),
                                    compile_expression(derivative, rho, backend))
    mu = certified_hermite_coefficients(act, terms, dps, use_cache=use_cache).balls
    second = certified_second_moment(act, dps, use_cache=use_cache)
    try:
        first = certified_second_moment(act, dps, derivative=True, use_cache=use_cache)
    except CertificationError:
        if not act.has_jumps:
            raise
        first = None
    return SeriesKernel(act.name, mu, second, first, _parity(act))


def _parity(act) -> int:
    """+1 when σ is even, −1 when odd, as an exact SymPy identity; 0 when neither is proven."""

    x = act.x
    reflected = act.expr.subs(x, -x)
    if sympy.expand(reflected - act.expr) == 0:
        return 1
    if sympy.expand(reflected + act.expr) == 0:
        return -1
    return 0


def _rho_symbol(*expressions):

    symbols = set().union(*(e.free_symbols for e in expressions))
    return symbols.pop() if symbols else sympy.Symbol("rho", real=True)
