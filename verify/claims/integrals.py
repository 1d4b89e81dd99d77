r"""``Integral(term, t, a, b)`` in the three arithmetics of the claim language.

A theorist writes Φ(m) = 2∫_m^1 K'(t) dt, or a Taylor remainder as an integral; the claim language
spells it ``Integral(2*Kp(t), t, m, 1)`` (:func:`verify.claims.language._integral` builds it: a
real variable bound by this integral alone, finite ends, no Eg inside).  Each arithmetic states the
hypotheses its value needs and proves them, or gives no value (``Unavailable``: the next step
decides, or nothing does):

- **exact** (:func:`exact_integral`): F(b) − F(a) with F SymPy's indefinite integral (under the
  CPU budget), checked rather than trusted (:func:`_proved_antiderivative`): F′ − f reduces to 0
  exactly, and over the configuration's box f and F are finite real balls at every node (f bounded,
  F continuous: no function with jumps), so the fundamental theorem of calculus applies.  SymPy's
  definite integrals are not used: they return finite values for some divergent integrals (and
  ``nan`` for ∫_{-1}^{1} dt/t), and an antiderivative with a branch cut jumps inside [a, b].
- **float64** (:func:`float_integral`): adaptive Gauss–Kronrod (``scipy.integrate.quad``) of the
  lambdified integrand: evidence for the search and sampling steps only, never for a proof.
- **balls** (:func:`ball_integral`): the composite midpoint rule with its remainder enclosed,
  ∫ f ∈ Σ_i [h f(t_i) + (h³/24)·f''(I_i)], where I_i is the i-th piece as a ball and f'' is the
  exact second derivative evaluated in ball arithmetic over the piece (Taylor's theorem with the
  Lagrange remainder; it needs f twice continuously differentiable on [a, b], which a finite ball
  of f'' over every piece proves).  Where f'' has no ball, the cruder enclosure h·f(I_i) is used
  (f continuous: a finite ball of f over the piece proves it bounded, and its Riemann integral
  lies in the sum), piece by piece: acos(t) near t = 1 has an unbounded f'' but a bounded f.  An
  end given as a ball of radius r adds r·|f| over that ball.  A singular
  integrand has an infinite ball somewhere, so the enclosure is infinite and decides nothing.
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.integrate
import sympy
from flint import arb

from verify.base.budget import CPUDeadline, remembered
from verify.base.errors import VerifyInputError, clip
from verify.certified.balls import interval
from verify.certified.compile import constant
from verify.certified.errors import CertificationError
from verify.certified.pieces import free_switches
from verify.certified.windows import branches_between
from verify.claims.quantities import Unavailable
from verify.claims.reduction import reduced

#: Pieces of the composite midpoint rule in balls: with the f'' remainder the enclosure's width
#: falls as (b − a)³/(24·PIECES²)·max|f''| (about 1e-6 for a unit interval and |f''| ≤ 10).
PIECES = 128


def is_integral(node) -> bool:
    return isinstance(node, sympy.Integral)


def _every_node_finite(expr, env: dict, compile_ball) -> bool:
    """Every subexpression of ``expr`` has a finite real ball over ``env``: then ``expr`` is bounded
    on the box ``env`` describes, and, when it holds no function of _JUMPS, continuous there (each
    function of the language is continuous wherever it is finite and real, except those)."""
    for node in sympy.preorder_traversal(expr):
        if not isinstance(node, sympy.Basic) or node.is_Atom:
            continue
        try:
            value = compile_ball(node)(env)
        except (Unavailable, ValueError, TypeError, ArithmeticError):
            return False
        if not value.is_finite():
            return False
    return True


#: Functions with jumps: an antiderivative holding one is not proved continuous by finite balls.
_JUMPS = (sympy.sign, sympy.Heaviside, sympy.floor, sympy.ceiling, sympy.Piecewise)


def _exact_hull(low, high, box: dict):
    """(lo, hi): exact ends of the range that [a, b] sweeps over the box, when each end is a number
    or a box variable; else None."""
    ranges = []
    for end in (low, high):
        if end.is_number:
            ranges.append((end, end))
        elif end in box:
            ranges.append(box[end])
        else:
            return None
    return min(r[0] for r in ranges), max(r[1] for r in ranges)


def _clamped_roots(expr, variable, hull):
    """``expr`` with the base b of each fractional power that is a rational function of ``variable``
    alone, proved b ≥ 0 on ``hull`` (``solveset`` of b < 0 there is empty), written Max(b, 0): the
    same function on the hull, whose ball stays real where b's ball dips below 0 by rounding alone
    (sqrt(1 − t²) at t = 1)."""

    def clamped(node):
        base, exponent = node.args
        if not (exponent.is_Rational and not exponent.is_Integer and base.free_symbols == {variable}
                and base.is_rational_function(variable)):
            return node
        try:
            negative = sympy.solveset(base < 0, variable, sympy.Interval(*hull))
        except (ValueError, TypeError, NotImplementedError):
            return node
        return sympy.Pow(sympy.Max(base, 0), exponent) if negative is sympy.S.EmptySet else node

    return expr.replace(lambda node: isinstance(node, sympy.Pow), clamped)


def _antiderivative(function, variable):
    return sympy.integrate(function, variable)


def _proved_antiderivative(node: sympy.Integral, backend, compile_ball):
    """F with ∫_a^b f = F(b) − F(a) proved over the configuration's box (``backend.box``), or None.

    SymPy's indefinite integral F is checked, not trusted:

    1. F′ − f reduces exactly to 0 (the symbolic step's reduction): F is an antiderivative;
    2. over the hull of [a, b] (the box's ranges of the ends) and the box's other variables, every
       node of f and of F is a finite real ball (f bounded, F continuous), and F holds no function
       with jumps; a square root whose base is proved ≥ 0 on the hull is evaluated as the root of
       Max(base, 0) (:func:`_clamped_roots`), so rounding at the edge of its domain is no NaN.

    Then F is continuous on [a, b] with F′ = f there, and the fundamental theorem of calculus gives
    the integral.  SymPy's antiderivative 2/√3·atan(tan(t/2)/√3) of 1/(2 + cos t) jumps at t = π,
    where tan's ball is infinite: check 2 refuses it over [0, 2π]."""
    ((variable, low, high),) = node.limits
    box = dict(getattr(backend, "box", {}) or {})
    if node.free_symbols - set(box):  # a variable whose range is not known here
        return None
    hull = _exact_hull(low, high, box)
    if hull is None:
        return None
    try:
        antiderivative = remembered(lambda: f"an antiderivative of {clip(node.function, 60)}",
                                    _antiderivative, node.function, variable)
        if antiderivative.has(sympy.Integral) or antiderivative.has(*_JUMPS):
            return None
        residual = remembered("the antiderivative's derivative", reduced,
                              sympy.diff(antiderivative, variable) - node.function)
    except (VerifyInputError, CPUDeadline, ValueError, TypeError, NotImplementedError):
        return None
    if residual != 0:
        return None
    env = {**{symbol: interval(lo, hi) for symbol, (lo, hi) in box.items()}, variable: interval(*hull)}
    # t's range is known exactly, as a box variable's is: acos(t) on [-1, 1] is not NaN for rounding
    backend.box = {**box, variable: hull}
    try:
        if not (_every_node_finite(_clamped_roots(node.function, variable, hull), env, compile_ball)
                and _every_node_finite(_clamped_roots(antiderivative, variable, hull), env, compile_ball)):
            return None
    finally:
        backend.box = box
    return antiderivative


def exact_integral(node: sympy.Integral, backend, compile_ball) -> sympy.Expr:
    """∫ in closed form, F(b) − F(a) with F proved (:func:`_proved_antiderivative`), or Unavailable;
    ``compile_ball(expr)`` compiles an expression to env -> ball with ``backend``'s quantities.
    An integrand that switches branch in t alone between numeric ends is integrated piece by piece
    (:func:`_by_pieces`)."""
    pieces = _by_pieces(node)
    if pieces is not None:
        return sympy.Add(*(exact_integral(piece, backend, compile_ball) for piece in pieces))
    antiderivative = _proved_antiderivative(node, backend, compile_ball)
    if antiderivative is None:
        raise Unavailable(f"{clip(node, 60)}: no antiderivative proved continuous on the range (its "
                          "derivative checked exactly, its balls finite)")
    ((variable, low, high),) = node.limits
    return antiderivative.xreplace({variable: high}) - antiderivative.xreplace({variable: low})


#: Most pieces an integrand's switch points cut [a, b] into.
MAX_PIECES = 12


def _by_pieces(node: sympy.Integral) -> list | None:
    """∫_a^b f as the integrals of f's branches between its switch points, or None: for f that
    switches (Abs, sign, Heaviside, Max, Min, floor, ceil, a fold) in t alone and a < b numbers.
    Each branch is read at a point inside its piece (:func:`verify.certified.pieces.resolve`), so
    it is f on the open piece, and the value at a switch point changes no integral.  The switch
    points are :func:`verify.certified.windows.switch_points`' (trusted as the activations' kinks)."""
    ((variable, low, high),) = node.limits
    switches = free_switches(node.function, variable)
    if not (switches and low.is_number and high.is_number):
        return None
    try:
        if not constant(high - low) > 0:
            return None
        _, pieces = branches_between(switches, variable, low, high, MAX_PIECES)
        return [sympy.Integral(node.function.xreplace(branches), (variable, a, b))
                for branches, a, b in pieces] or None
    except CertificationError:
        return None


def float_integral(node: sympy.Integral, symbols: list, lambdify_with):
    """A NumPy function of ``symbols`` (elementwise over arrays) whose value is the integral by
    ``scipy.integrate.quad``; ``lambdify_with(expr, arguments)`` compiles an expression with the
    claim's float namespace.  An integrand that switches in t alone is integrated piece by piece
    (:func:`_by_pieces`): quad across a kink reports no convergence."""
    pieces = _by_pieces(node)
    if pieces is not None:
        parts = [float_integral(piece, symbols, lambdify_with) for piece in pieces]
        return lambda *args: sum(part(*args) for part in parts)
    ((variable, low, high),) = node.limits
    integrand = lambdify_with(node.function, [variable, *symbols])
    ends = lambdify_with(sympy.Tuple(low, high), list(symbols))

    def one(*point):
        # nan, never an exception, where the integrand has no float value or quad does not
        # converge (a divergent integral): the step that asked then has no value at this point
        try:
            a, b = (float(v) for v in ends(*point))
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result = scipy.integrate.quad(lambda t: float(integrand(t, *point)), a, b, limit=200,
                                              full_output=1)
        except (ArithmeticError, ValueError, TypeError):
            return float("nan")
        value = result[0]
        converged = len(result) == 3  # quad adds a fourth item, its message, when it did not converge
        return value if converged and np.isfinite(value) else float("nan")

    vectorised = np.vectorize(one, otypes=[float])

    def function(*args):
        value = vectorised(*args)
        return value if np.ndim(value) else float(value)

    return function


def ball_integral(node: sympy.Integral, compile_ball):
    """env -> a ball containing the integral for every point of env's balls (module docstring);
    ``compile_ball(expr)`` compiles an expression of the claim to env -> ball.  An integrand that
    switches in t alone is enclosed piece by piece (:func:`_by_pieces`), each piece smooth."""
    pieces = _by_pieces(node)
    if pieces is not None:
        parts = [ball_integral(piece, compile_ball) for piece in pieces]
        return lambda env: sum((part(env) for part in parts), arb(0))
    ((variable, low, high),) = node.limits
    value = compile_ball(node.function)
    try:
        curvature = compile_ball(sympy.diff(node.function, variable, 2))
    except Unavailable:
        curvature = None
    ends = compile_ball(low), compile_ball(high)

    def enclose(env):
        a, b = (end(env) for end in ends)
        a_mid, b_mid = arb(a.mid()), arb(b.mid())
        width = (b_mid - a_mid) / PIECES
        total = arb(0)
        for i in range(PIECES):
            left, right = a_mid + i * width, a_mid + (i + 1) * width
            piece = interval(*sorted((left, right), key=lambda v: v.mid()))
            remainder = curvature({**env, variable: piece}) if curvature is not None else None
            if remainder is not None and remainder.is_finite():
                middle = {**env, variable: (left + right) / 2}
                total += value(middle) * width + arb(0, (remainder * width ** 3 / 24).abs_upper())
            else:  # f'' unbounded on this piece (acos near 1): the Riemann enclosure, f bounded
                total += value({**env, variable: piece}) * width
        for end in (b, a):
            if end.rad() > 0:  # the piece between the end's midpoint and its true value
                spread = value({**env, variable: end}).abs_upper() * end.rad()
                total += arb(0, spread)
        return total

    return enclose


__all__ = ["PIECES", "ball_integral", "exact_integral", "float_integral", "is_integral"]
