r"""SymPy expressions to Arb evaluators, node by node (never ``lambdify``, never ``eval``).

The expressions come from the activation registry, from ``expr:`` activations (already parsed
by the whitelist parser of :mod:`verify.base.expressions`), from :mod:`verify.model.hermite_exact` and
from the closed-form kernels of :mod:`verify.model.kernels`.  The compiler walks the tree and admits
only the nodes below; anything else raises :class:`~verify.certified.errors.CertificationError`.

- numbers: integers, rationals, π, e (a SymPy Float is refused: see :func:`number_fraction`);
- the variable, ``+``, ``*``, powers (integer exponents; non-integer numeric exponents;
  ``a**f`` for a positive number a, as exp(f log a));
- exp, log, sin, cos, tanh, sinh, cosh, atan, asinh, erf, erfc, and (for kernels) asin, acos.

Non-smooth functions (Abs, Max, Min, sign, Heaviside) are not compiled: the caller first
splits the real line into smooth pieces (:mod:`verify.certified.pieces`).

Backends
--------
``real``
    Arb real balls.  With ``clamped=False`` a ball that leaves a function's real domain gives
    NaN (the caller refuses it).  With ``clamped=True`` the arguments of √, asin and acos are
    intersected with the domain first: valid only when the *exact* argument is known to lie in
    the domain and the ball sticks out by rounding alone (the kernel closed forms at |ρ| ≤ 1:
    1 − ρ² ≥ 0, |ρ| ≤ 1).
``complex``
    Arb complex balls for :func:`flint.acb.integral`, whose integrand receives a flag
    ``analytic``: when it is set the integrand must return a non-finite ball unless it is
    holomorphic on the whole input ball, or the integrator's error bounds are silently wrong.
    Entire functions (polynomials, exp, sin, cos, sinh, cosh, erf, erfc) need no check;
    meromorphic ones (division, negative powers, tanh) give non-finite balls at poles by
    Arb's own rules; the branch-cut functions are checked here: log, √ and non-integer powers
    (cut (−∞, 0], Arb's own ``analytic`` flag), atan and asinh (cuts i·(−∞, −1] ∪ i·[1, ∞),
    checked explicitly because python-flint's atan/asinh have no such flag).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sympy
from flint import acb, arb, ctx

from verify.certified.balls import clamped_endpoints, exact, integer_power, monotone_image
from verify.certified.errors import CertificationError

Evaluator = Callable[..., Any]  # (ball, analytic=False) -> ball

#: Functions with the same method name on arb and acb that are entire (or meromorphic).
_ENTIRE = ("exp", "sin", "cos", "sinh", "cosh", "erf", "erfc", "tanh")


def number_fraction(expr) -> Fraction | None:
    """The exact value of a SymPy Integer or Rational as a Fraction, else None.

    A SymPy ``Float`` raises :class:`CertificationError`: it is the rounded result of some
    arithmetic whose true value is unknown here, so no radius can be proven to cover it, and
    reading its binary digits as exact (as this function once did) certified a nearby number
    instead of the one meant (``erf(0.7*x)`` was erf of the double nearest 0.7).  The parser
    reads decimals as exact rationals, so a Float reaching a ball is a bug upstream, refused."""

    if isinstance(expr, sympy.Float):
        raise CertificationError(f"the inexact number {expr} cannot be certified (decimals must be "
                                 "exact rationals; a float has no proven radius)")
    if isinstance(expr, sympy.Integer | sympy.Rational):
        return Fraction(int(expr.p), int(expr.q))
    return None


class RealBackend:
    """Arb real balls (see the module docstring for ``clamped``)."""

    def __init__(self, clamped: bool = False):
        self.clamped = clamped

    def lift(self, value: arb):
        return value

    def log(self, v, analytic):
        return v.log()

    def power(self, v, exponent: Fraction, analytic):
        if exponent == Fraction(1, 2):
            if self.clamped:
                low, high = clamped_endpoints(v, arb(0), arb("inf"))
                return monotone_image(lambda t: t.sqrt(), low, high, increasing=True)
            return v.sqrt()
        return v ** exact(exponent)

    def atan(self, v, analytic):
        return v.atan()

    def asinh(self, v, analytic):
        return v.asinh()

    def asin(self, v, analytic):
        return self._inverse_trig(v, "asin", increasing=True)

    def acos(self, v, analytic):
        return self._inverse_trig(v, "acos", increasing=False)

    def _inverse_trig(self, v, name, increasing):
        if not self.clamped:
            return getattr(v, name)()
        low, high = clamped_endpoints(v, arb(-1), arb(1))
        return monotone_image(lambda t: getattr(t, name)(), low, high, increasing)


class ComplexBackend:
    """Arb complex balls honouring :func:`flint.acb.integral`'s ``analytic`` flag."""

    clamped = False

    def lift(self, value: arb):
        return acb(value)

    def log(self, v, analytic):
        return v.log(analytic=analytic)

    def power(self, v, exponent: Fraction, analytic):
        if exponent == Fraction(1, 2):
            return v.sqrt(analytic=analytic)
        return v.pow(acb(exact(exponent)), analytic=analytic)

    def atan(self, v, analytic):
        return v.atan() if not analytic or _off_imaginary_cuts(v) else _not_finite()

    def asinh(self, v, analytic):
        return v.asinh() if not analytic or _off_imaginary_cuts(v) else _not_finite()

    # no asin/acos: their cuts lie on the real axis, so they are compiled for real balls only


def _not_finite():
    return acb(arb("nan"), arb("nan"))


def _off_imaginary_cuts(v) -> bool:
    """True when the rectangle ``v`` misses i·(−∞, −1] ∪ i·[1, ∞) (the cuts of atan and asinh):
    its real part excludes 0, or its imaginary part lies inside (−1, 1)."""
    re, im = v.real, v.imag
    return bool(re > 0 or re < 0 or (im < 1 and im > -1))


def compile_expression(expr, variable, backend) -> Evaluator:
    """``expr`` as a function ``f(ball, analytic=False)`` on the backend's balls.

    Number subtrees are evaluated once, at the precision in force when this is called; call
    it inside :func:`~verify.certified.balls.working_precision`.
    """

    if variable not in expr.free_symbols:
        value = backend.lift(constant(expr))
        return lambda v, analytic=False: value
    if expr == variable:
        return lambda v, analytic=False: v
    if isinstance(expr, sympy.Add | sympy.Mul):
        parts = [compile_expression(a, variable, backend) for a in expr.args]
        return _fold(parts, sympy.Add if isinstance(expr, sympy.Add) else sympy.Mul)
    if isinstance(expr, sympy.Pow):
        return _compile_power(expr, variable, backend)
    name = type(expr).__name__
    if len(expr.args) != 1:
        raise CertificationError(f"cannot certify {name}(...) with {len(expr.args)} arguments in {expr}")
    inner = compile_expression(expr.args[0], variable, backend)
    if name in _ENTIRE:
        return lambda v, analytic=False: getattr(inner(v, analytic), name)()
    method = getattr(backend, name, None) if name in ("log", "atan", "asinh", "asin", "acos") else None
    if method is not None:
        return lambda v, analytic=False: method(inner(v, analytic), analytic)
    raise CertificationError(f"cannot certify the function {name} in {expr} "
                             f"(supported: {', '.join(_ENTIRE)}, log, atan, asinh, powers)")


def _fold(parts, operation) -> Evaluator:

    add = operation is sympy.Add

    def evaluate(v, analytic=False):
        total = parts[0](v, analytic)
        for part in parts[1:]:
            total = total + part(v, analytic) if add else total * part(v, analytic)
        return total

    return evaluate


def _compile_power(expr, variable, backend) -> Evaluator:
    base, exponent = expr.args
    if variable in exponent.free_symbols:
        # a**f = exp(f log a) for a number a > 0 (SymPy keeps 2**x as a power).
        if variable in base.free_symbols or not constant(base) > 0:
            raise CertificationError(f"cannot certify the power {expr} (variable base and exponent)")
        log_base = backend.lift(constant(base).log())
        power = compile_expression(exponent, variable, backend)
        return lambda v, analytic=False: (power(v, analytic) * log_base).exp()
    inner = compile_expression(base, variable, backend)
    value = number_fraction(exponent)
    if value is None:
        raise CertificationError(f"cannot certify the power {expr} (exponent {exponent} is not a rational "
                                 "number)")
    if value.denominator == 1:
        n = value.numerator
        return lambda v, analytic=False: integer_power(inner(v, analytic), n)
    return lambda v, analytic=False: backend.power(inner(v, analytic), value, analytic)


def constant(expr) -> arb:
    """A real SymPy number (rationals, floats, π, e and functions of them) as a ball at the
    working precision; raises CertificationError for anything else."""

    value = number_fraction(expr)
    if value is not None:
        return exact(value)
    if expr is sympy.pi:
        return arb.pi()
    if expr is sympy.E:
        return arb.const_e()
    if expr is sympy.EulerGamma:
        return arb.const_euler()
    if isinstance(expr, sympy.Expr) and expr.is_number:
        ball = _number_tree(expr)
        if not ball.is_finite():
            raise CertificationError(f"the constant {expr} is not a finite real number")
        return ball
    raise CertificationError(f"cannot certify the constant {expr}")


def _number_tree(expr) -> arb:
    """A compound number (sqrt(2)/pi, erf(1/2), log(2)...) evaluated node by node."""

    if isinstance(expr, sympy.Add | sympy.Mul):
        balls = [constant(a) for a in expr.args]
        total = balls[0]
        for ball in balls[1:]:
            total = total + ball if isinstance(expr, sympy.Add) else total * ball
        return total
    if isinstance(expr, sympy.Pow):
        base, exponent = expr.args
        value = number_fraction(exponent)
        if value is not None and value.denominator == 1:
            return integer_power(constant(base), value.numerator)
        if value is not None:
            return RealBackend().power(constant(base), value, False)
        return (constant(exponent) * constant(base).log()).exp()
    if isinstance(expr, sympy.CRootOf) and expr.is_real:
        # a polynomial's real root (a switch point of x**3 - 3*x + 1): SymPy's eval_rational
        # refines the exact isolating interval to a rational within dx of the root
        dx = sympy.Rational(1, 2 ** (ctx.prec + 8))
        value = number_fraction(expr.eval_rational(dx=dx))
        return exact(value) + arb(0, exact(Fraction(dx.p, dx.q)))
    name = type(expr).__name__
    if name in ("zeta", "dirichlet_eta") and len(expr.args) == 1:
        s = constant(expr.args[0])
        if not s > 1:
            raise CertificationError(f"cannot certify {expr} (only for real arguments > 1)")
        # η(s) = (1 − 2^{1−s}) ζ(s)
        return s.zeta() if name == "zeta" else (1 - (arb(2) ** (1 - s))) * s.zeta()
    if len(expr.args) == 1 and (name in _ENTIRE or name in ("log", "atan", "asinh", "asin", "acos", "gamma")):
        return getattr(constant(expr.args[0]), name)()
    raise CertificationError(f"cannot certify the constant {expr}")
