"""The activation registry.

Every activation σ has three twins that must agree (tests check them against
each other over a declared domain):

- a SymPy expression in the real symbol ``x`` (the single source of truth for
  the symbolic side, the exact Hermite coefficients and the kink locations);
- an mpmath evaluator, lambdified from that expression (the high-precision
  reference used by every quadrature);
- a vectorised NumPy function and its derivative (the simulator's fast path).
  For the built-in activations these are written by hand so that they are
  numerically stable where the naive formula overflows (softplus, sigmoid);
  for ``expr:`` activations they are lambdified.

Names: ``relu``, ``abs``, ``sigmoid`` (logistic), ``tanh``, ``erf``,
``softplus``, ``gelu`` (x Φ(x), the exact GELU), ``quadratic`` (x²),
``linear``, ``he1`` ... ``he8`` (normalised Hermite polynomials h_p = He_p/√p!),
and ``expr:<SymPy expression in x>``.

SymPy is imported lazily so that a cached Hermite lookup never pays for it.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

import mpmath
import numpy as np
import sympy
from scipy.special import erf, expit, ndtr
from sympy.calculus.singularities import singularities

from verify.base.budget import guarded, guarded_if_forced
from verify.base.errors import (
    ActivationScaleError,
    MalformedExpressionError,
    NotSquareIntegrableError,
    UnknownActivationError,
    VerifyInputError,
)
from verify.base.expressions import parse_expression
from verify.base.limits import proved_limit
from verify.model.polynomials import normalized_hermite

EXPR_PREFIX = "expr:"
HERMITE_DEGREES = range(1, 9)

ArrayFunction = Callable[[np.ndarray], np.ndarray]


def _symbol():

    return sympy.Symbol("x", real=True)


# --- stable NumPy evaluators for the built-ins --------------------------------
# Each is the NumPy twin of the SymPy source registered below; tests compare
# them with the mpmath evaluator lambdified from that source.


def _relu(x):
    return np.maximum(x, 0.0)


def _relu_prime(x):
    # Convention at the kink: σ'(0) = 0 (a null set under the Gaussian).
    return (x > 0).astype(float)


def _abs_prime(x):
    return np.sign(x)


def _sigmoid(x):

    return expit(x)


def _sigmoid_prime(x):
    # σ(x)σ(−x), not σ(1−σ): 1 − σ cancels for large x.
    return _sigmoid(x) * _sigmoid(-x)


def _tanh_prime(x):
    # sech²x = 4t/(1+t)² with t = e^{−2|x|}: no cancellation, no overflow.
    t = np.exp(-2.0 * np.abs(x))
    return 4.0 * t / (1.0 + t) ** 2


def _erf(x):

    return erf(x)


def _erf_prime(x):
    return 2.0 / math.sqrt(math.pi) * np.exp(-(x**2))


def _softplus(x):
    # log(1 + e^x) without overflow for large x.
    return np.logaddexp(0.0, x)


def _gelu(x):

    return x * ndtr(x)


def _gelu_prime(x):

    return ndtr(x) + x * np.exp(-(x**2) / 2) / math.sqrt(2 * math.pi)


def _square(x):
    return x * x


def _double(x):
    return 2.0 * x


def _identity(x):
    return x + 0.0


def _one(x):
    return np.ones_like(x)


def _normalized_hermite(p: int, x):
    """h_p(x) = He_p(x)/√p! on a NumPy array (:mod:`verify.model.polynomials`)."""
    return normalized_hermite(p, x, np.ones_like(x))


# --- the registry ----------------------------------------------------------------


@dataclass(frozen=True)
class Activation:
    """An activation σ with its SymPy, mpmath and NumPy twins.

    Parameters
    ----------
    name:
        Canonical name: a registry key or ``expr:<canonical SymPy string>``.
    source:
        SymPy source of σ as a function of the real symbol ``x``.
    numpy_function, numpy_derivative:
        Hand-written stable evaluators; ``None`` means "lambdify the source".
    """

    name: str
    source: str
    numpy_function: ArrayFunction | None = field(default=None, repr=False, compare=False)
    numpy_derivative: ArrayFunction | None = field(default=None, repr=False, compare=False)

    # -- symbolic side
    @cached_property
    def x(self):
        return _symbol()

    @cached_property
    def expr(self):
        """σ as a SymPy expression in the real symbol ``x``."""
        return _parse(self.source, self.name)

    @cached_property
    def derivative_expr(self):
        """σ' as a SymPy expression (Heaviside / DiracDelta at kinks and jumps)."""

        return sympy.diff(self.expr, self.x)

    @cached_property
    def kinks(self) -> tuple:
        """Sorted exact real points where σ is not smooth (quadrature splits there)."""
        return kinks_of(self.expr, self.x)

    @property
    def has_jumps(self) -> bool:
        """True when σ is discontinuous, so σ' has a Dirac mass and E[σ'²] = ∞."""

        return self.derivative_expr.has(sympy.DiracDelta)

    # -- NumPy side
    def __call__(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        f = self.numpy_function or self._lambdified_numpy[0]
        return np.broadcast_to(f(x), x.shape).astype(float, copy=False)

    def derivative(self, x) -> np.ndarray:
        """σ'(x), vectorised (the simulator's gradient uses it)."""
        x = np.asarray(x, dtype=float)
        f = self.numpy_derivative or self._lambdified_numpy[1]
        return np.broadcast_to(f(x), x.shape).astype(float, copy=False)

    @cached_property
    def _lambdified_numpy(self):

        modules = [{"Heaviside": lambda t, h0=0.5: np.heaviside(t, h0)}, "scipy", "numpy"]
        return (
            sympy.lambdify(self.x, self.expr, modules=modules),
            sympy.lambdify(self.x, self.derivative_expr, modules=modules),
        )

    # -- mpmath side
    @cached_property
    def mpmath_function(self) -> Callable[[Any], Any]:
        """σ as an mpmath function (evaluates at the caller's working precision)."""
        return _lambdify_mpmath(self.x, self.expr)

    @cached_property
    def mpmath_derivative(self) -> Callable[[Any], Any]:
        """σ' as an mpmath function; the value at a kink is irrelevant (null set)."""
        return _lambdify_mpmath(self.x, self.derivative_expr)


def _lambdify_mpmath(x, expr):

    def heaviside(t, h0=0.5):
        return mpmath.mpf(1) if t > 0 else (mpmath.mpf(0) if t < 0 else mpmath.mpf(h0))

    def dirac(*args):
        # Only reached for jump discontinuities, where E[σ'²] is infinite and
        # callers check ``has_jumps`` first; away from the jump it is 0.
        return mpmath.mpf(0)

    f = sympy.lambdify(
        x, expr, modules=[{"Heaviside": heaviside, "DiracDelta": dirac}, "mpmath"]
    )
    return f


def _parse(source: str, name: str):
    """σ from untrusted text: the whitelist parser of :mod:`verify.base.expressions`, never ``eval``."""

    return parse_expression(source, variables={"x": _symbol()}, what=f"activation {name!r}")


#: Functions that jump wherever their argument crosses an integer.
STEPS = (sympy.floor, sympy.ceiling, sympy.frac)

#: An inverse trigonometric function of its own function, a piecewise-linear wave in u:
#: {inverse: (function, shift)} where the branch changes wherever u/π + shift crosses an integer.
FOLDS = {sympy.acos: (sympy.cos, 0), sympy.asin: (sympy.sin, sympy.Rational(1, 2)),
         sympy.atan: (sympy.tan, sympy.Rational(1, 2))}


def folded_argument(node):
    """u/π + shift for acos(cos u), asin(sin u) or atan(tan u) (:data:`FOLDS`), else None."""
    inner = FOLDS.get(type(node))
    if inner is None or not isinstance(node.args[0], inner[0]):
        return None
    return node.args[0].args[0] / sympy.pi + inner[1]


def unfolded(node, u, n: int):
    """acos(cos u), asin(sin u) or atan(tan u) where n = floor(u/π + shift) (:func:`folded_argument`):
    on that branch it is u − nπ, (−1)ⁿ(u − nπ), or for acos with n odd (n + 1)π − u."""
    if isinstance(node, sympy.acos) and n % 2:
        return (n + 1) * sympy.pi - u
    sign = -1 if isinstance(node, sympy.asin) and n % 2 else 1
    return sign * (u - n * sympy.pi)


def switch_arguments(expr, x) -> tuple[list, list]:
    """(the expressions u of ``x`` where a branch of ``expr`` switches at u = 0: the arguments of
    Abs/sign/Heaviside, the differences of Max/Min arguments, Piecewise conditions' sides; the
    arguments of floor/ceiling/frac, which switch wherever they cross an integer, and of
    acos(cos u), asin(sin u), atan(tan u) the u/π + shift that does: :data:`FOLDS`)."""
    switching, stepping = [], []
    for node in sympy.preorder_traversal(expr):
        if isinstance(node, STEPS):
            stepping.append(node.args[0])
        elif folded_argument(node) is not None:
            stepping.append(folded_argument(node))
        elif isinstance(node, sympy.Abs | sympy.sign | sympy.Heaviside):
            switching.append(node.args[0])
        elif isinstance(node, sympy.Max | sympy.Min):
            args = node.args
            switching.extend(a - b for i, a in enumerate(args) for b in args[i + 1 :])
        elif isinstance(node, sympy.Piecewise):
            for _, cond in node.args:
                if isinstance(cond, sympy.core.relational.Relational):
                    switching.append(cond.lhs - cond.rhs)
    return [u for u in switching if u.has(x)], [u for u in stepping if u.has(x)]


def real_roots_in(g, x, domain=sympy.S.Reals) -> set:
    """The real roots of ``g`` in ``domain``, a finite set found exactly; MalformedExpressionError
    when SymPy's solveset answers anything else (infinitely many roots, or roots it cannot list)."""
    roots = sympy.solveset(g, x, domain)
    if roots is sympy.S.EmptySet:
        return set()
    if not isinstance(roots, sympy.FiniteSet) and g.is_polynomial(x):
        # a cubic's roots come as radicals intersected with the reals; its real roots are exact
        return polynomial_roots_in(g, x, domain)
    if not isinstance(roots, sympy.FiniteSet):
        raise MalformedExpressionError(f"cannot locate the kinks where {g} = 0 (its roots are {roots})")
    return set(roots)


def polynomial_roots_in(g, x, domain=sympy.S.Reals) -> set:
    """The real roots of the polynomial ``g`` in ``domain``, exact (radicals or CRootOf)."""
    return {r for r in sympy.Poly(g, x).real_roots() if domain.contains(r) is sympy.true}


def kinks_of(expr, x) -> tuple:
    """Real points where a Max/Min/Abs/sign/Heaviside/Piecewise switches branch."""

    switching, stepping = switch_arguments(expr, x)
    if stepping:
        # a switch wherever the argument crosses an integer: infinitely many for floor(x) or
        # acos(cos(x)), and none of the readers (SymPy's integrate, the quadrature's pieces) may miss one
        raise MalformedExpressionError(f"cannot locate the switches of {expr} (one at every integer "
                                       f"{stepping[0]} crosses)")
    points = set()
    for g in switching:
        try:
            points.update(real_roots_in(g, x))
        except MalformedExpressionError as exc:
            raise MalformedExpressionError(f"{exc} in {expr}") from None
    return tuple(sorted(points, key=lambda r: float(r)))


def check_square_integrable(activation: Activation) -> None:
    """Raise :class:`NotSquareIntegrableError` unless E[σ(g)²] < ∞ for g ~ N(0,1).

    σ must be real and finite on R, and σ(x)² e^{-x²/2} must decay faster
    than |x|^{-4} at ±∞ (a sufficient condition for integrability that every
    registered activation and every polynomial meets).  The limit is taken by
    SymPy; where SymPy cannot decide, the growth is probed numerically.
    """

    expr, x = activation.expr, activation.x
    sing = _real_singularities(expr, x)
    if sing:
        raise NotSquareIntegrableError(
            f"activation {activation.name!r} is not finite on the real line "
            f"(singular at x = {sing[0]}); σ must be in L2(N(0,1))"
        )
    with mpmath.workdps(30):
        f = activation.mpmath_function
        for t in ("-2.5", "-0.7", "0.3", "1.9"):
            value = mpmath.mpmathify(f(mpmath.mpf(t)))
            if isinstance(value, mpmath.mpc) and abs(value.imag) > 1e-20 * (1 + abs(value)):
                raise MalformedExpressionError(
                    f"activation {activation.name!r} is not real-valued (σ({t}) = {value})"
                )
    weighted = expr**2 * x**4 * sympy.exp(-(x**2) / 2)
    for direction in (sympy.oo, -sympy.oo):
        # None where SymPy cannot decide or its answer is not proved (sin(x)**2 x**4 e^(-x²/2):
        # an oscillating factor); then probe numerically
        lim = proved_limit(weighted, x, direction)
        if lim == 0:
            continue
        if lim is not None and (lim.is_infinite or (lim.is_number and lim.is_nonzero)):
            decays = False
        else:
            decays = _numerically_decays(activation, 1 if direction == sympy.oo else -1)
        if not decays:
            raise NotSquareIntegrableError(
                f"activation {activation.name!r} is not square-integrable under N(0,1): "
                f"σ(x)² e^(-x²/2) does not decay as x → {'+' if direction == sympy.oo else '-'}∞"
            )


#: Largest E[σ(g)²] of an activation: σ's scale enters h, the loss and the gradient squared and
#: times ξ⁴λ² (up to 1e36) in float64, whose range ends near 1e308; exp(400)*x (E[σ²] ≈ 3e347)
#: gave nan from `verify h` with exit 0.
MAX_SECOND_MOMENT = 1e100


def _validated_expression(expr, name: str):
    """(σ, its kinks) once σ is real, finite, square-integrable and of a float64-safe scale."""
    activation = Activation(EXPR_PREFIX + str(expr), str(expr))
    activation.__dict__["expr"] = expr
    try:
        check_square_integrable(activation)
        kinks = activation.kinks
        check_scale(activation)
    except VerifyInputError:
        raise
    except (ArithmeticError, ValueError, TypeError, RecursionError) as exc:
        # e.g. mpmath's OverflowError on exp(exp(exp(x))) at x = 64: an input beyond what can be
        # evaluated, said in one line instead of a traceback.
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise MalformedExpressionError(
            f"activation {name!r} cannot be evaluated on the real line ({type(exc).__name__}: "
            f"{reason[:80]})") from None
    return expr, kinks


def check_scale(activation: Activation) -> None:
    """Raise :class:`ActivationScaleError` unless E[σ(g)²] <= :data:`MAX_SECOND_MOMENT`."""

    f = activation.mpmath_function
    with mpmath.workdps(15):
        points = [-mpmath.inf, *(mpmath.mpf(float(p)) for p in activation.kinks), mpmath.inf]
        try:
            moment = mpmath.quad(lambda t: abs(f(t)) ** 2 * mpmath.npdf(t), points)
            moment = abs(mpmath.mpmathify(moment))
        except (ArithmeticError, ValueError, TypeError):
            moment = mpmath.inf
        if not mpmath.isfinite(moment) or moment > MAX_SECOND_MOMENT:
            raise ActivationScaleError(
                f"activation {activation.name!r}: E[sigma(g)^2] is about {mpmath.nstr(moment, 3)}, beyond "
                f"{MAX_SECOND_MOMENT:g}; its scale would overflow float64 in h, the loss and the gradient "
                "(rescale the activation)")


def _real_singularities(expr, x) -> list:

    try:
        sing = singularities(expr, x, sympy.S.Reals)
    except Exception:  # NotImplementedError for transcendental forms: no poles found
        return []
    if isinstance(sing, sympy.FiniteSet):
        return sorted(sing, key=lambda r: float(r))
    return [] if sing is sympy.S.EmptySet else [sing]


def _numerically_decays(activation: Activation, sign: int) -> bool:

    with mpmath.workdps(30):
        f = activation.mpmath_function
        values = []
        for t in (8, 16, 32, 64):
            xt = mpmath.mpf(sign * t)
            values.append(abs(f(xt)) ** 2 * xt**4 * mpmath.exp(-(xt**2) / 2))
    return values[-1] < 1e-6 and values[-1] <= values[-2]


def _builtin_table() -> dict[str, Activation]:
    table = [
        Activation("relu", "Max(x, 0)", _relu, _relu_prime),
        Activation("abs", "Abs(x)", np.abs, _abs_prime),
        Activation("sigmoid", "1/(1 + exp(-x))", _sigmoid, _sigmoid_prime),
        Activation("tanh", "tanh(x)", np.tanh, _tanh_prime),
        Activation("erf", "erf(x)", _erf, _erf_prime),
        Activation("softplus", "log(1 + exp(x))", _softplus, _sigmoid),
        Activation("gelu", "x*(1 + erf(x/sqrt(2)))/2", _gelu, _gelu_prime),
        Activation("quadratic", "x**2", _square, _double),
        Activation("linear", "x", _identity, _one),
    ]
    for p in HERMITE_DEGREES:
        table.append(
            Activation(
                f"he{p}",
                f"hermite_prob({p}, x)/sqrt(factorial({p}))",
                _HermiteEvaluator(p),
                _HermiteDerivative(p),
            )
        )
    return {a.name: a for a in table}


@dataclass(frozen=True)
class _HermiteEvaluator:
    degree: int

    def __call__(self, x):
        return _normalized_hermite(self.degree, x)


@dataclass(frozen=True)
class _HermiteDerivative:
    degree: int

    def __call__(self, x):
        # h_p' = √p h_{p-1}
        return math.sqrt(self.degree) * _normalized_hermite(self.degree - 1, x)


BUILTINS: dict[str, Activation] = _builtin_table()


def builtin_names() -> list[str]:
    return list(BUILTINS)


@lru_cache(maxsize=64)
def get_activation(name: str) -> Activation:
    """Look up a registered activation or parse an ``expr:`` one.

    ``expr:`` activations are validated: they must parse, use only ``x``,
    be real, and be square-integrable under N(0,1).

    Raises
    ------
    UnknownActivationError, MalformedExpressionError, NotSquareIntegrableError
    """
    if not isinstance(name, str):
        raise UnknownActivationError(f"activation must be a string, got {name!r}")
    key = name.strip()
    if key in BUILTINS:
        return BUILTINS[key]
    if key.startswith(EXPR_PREFIX):
        source = key[len(EXPR_PREFIX) :].strip()
        if not source:
            raise MalformedExpressionError("activation 'expr:' has an empty expression")

        # Parsing is bounded by the static limits; the SymPy limits, solveset and quadrature
        # below are not, so they run in a worker under the time and memory guard.
        expr = guarded_if_forced(f"activation {key!r}", _parse, source, key)
        expr, kinks = guarded(f"activation {key!r}", _validated_expression, expr, key)
        activation = Activation(EXPR_PREFIX + str(expr), str(expr))
        activation.__dict__.update(expr=expr, kinks=kinks)  # the cached properties, already computed
        return activation
    known = ", ".join(builtin_names())
    close = difflib.get_close_matches(str(name), list(builtin_names()), n=2, cutoff=0.6)
    guess = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise UnknownActivationError(
        f"unknown activation {name!r}{guess}; known: {known}, or expr:<SymPy expression in x>"
    )


def is_known_name(name: str) -> bool:
    """Cheap check (no SymPy import) used by the cached command-line path."""
    return name in BUILTINS
