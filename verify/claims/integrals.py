r"""``Integral(term, t, a, b)`` in the three arithmetics of the claim language.

A theorist writes Φ(m) = 2∫_m^1 K'(t) dt, or a Taylor remainder as an integral; the claim language
spells it ``Integral(2*Kp(t), t, m, 1)`` (:func:`verify.claims.language._integral` builds it: a
real variable bound by this integral alone, finite ends, no Eg inside).  Each arithmetic states the
hypotheses its value needs and proves them, or gives no value (``Unavailable``: the next step
decides, or nothing does):

- **exact** (:func:`exact_integral`): SymPy's ``integrate`` under the CPU budget, used only when
  either the integrand alone (no other variable) is proved finite and real at every point of the
  real line by the shared singular-point helper
  (:func:`verify.base.singular.singular_candidates`; default deny), or has its candidate points
  outside [a, b] when the ends are numbers; or the closed form passes the checks of
  :func:`_closed_form_checked` over the configuration's box (continuity of integrand and closed
  form in ball arithmetic, the fundamental theorem of calculus for moving ends, and agreement with
  the certified enclosure at the box's midpoint).  SymPy returns finite values for some divergent
  integrals (and ``nan`` for ∫_{-1}^{1} dt/t), and an antiderivative with a branch cut can jump
  inside [a, b]; these checks are what make its closed form a value.  A result that still holds an
  ``Integral`` is no closed form.
- **float64** (:func:`float_integral`): adaptive Gauss–Kronrod (``scipy.integrate.quad``) of the
  lambdified integrand: evidence for the search and sampling steps only, never for a proof.
- **balls** (:func:`ball_integral`): the composite midpoint rule with its remainder enclosed,
  ∫ f ∈ Σ_i [h f(t_i) + (h³/24)·f''(I_i)], where I_i is the i-th piece as a ball and f'' is the
  exact second derivative evaluated in ball arithmetic over the piece (Taylor's theorem with the
  Lagrange remainder; it needs f twice continuously differentiable on [a, b], which a finite ball
  of f'' over every piece proves).  Where f'' has no ball, the cruder enclosure h·f(I_i) is used
  (f continuous: a finite ball of f over the piece proves it bounded, and its Riemann integral
  lies in the sum).  An end given as a ball of radius r adds r·|f| over that ball.  A singular
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
from verify.base.singular import ComplexValuedError, singular_candidates
from verify.certified.balls import interval
from verify.claims.quantities import Unavailable
from verify.claims.reduction import reduced

#: Pieces of the composite midpoint rule in balls: with the f'' remainder the enclosure's width
#: falls as (b − a)³/(24·PIECES²)·max|f''| (about 1e-6 for a unit interval and |f''| ≤ 10).
PIECES = 128


def is_integral(node) -> bool:
    return isinstance(node, sympy.Integral)


def _finite_on_the_line(node: sympy.Integral) -> bool:
    """The integrand is finite and real on the whole line, or off [a, b] when the ends are numbers."""
    ((variable, low, high),) = node.limits
    try:
        found = singular_candidates(node.function, variable)
    except ComplexValuedError:
        return False
    if found is None or not found[1] or node.function.free_symbols - {variable}:
        return False
    points = found[0]
    if not points:
        return True
    if not (low.is_number and high.is_number):
        return False
    lo, hi = sorted((low, high), key=lambda v: float(v))
    return not any(bool(sympy.Le(lo, p)) and bool(sympy.Le(p, hi)) for p in points)


def _every_node_finite(expr, env: dict, compile_ball) -> bool:
    """Every subexpression of ``expr`` has a finite real ball over ``env``, and none is a function
    with jumps: then each node is a continuous function of its arguments on their ranges (the
    functions of the language are continuous wherever they are finite and real, except those of
    _JUMPS), so ``expr`` is continuous on the box ``env`` describes."""
    if expr.has(*_JUMPS) or expr.has(sympy.Piecewise):
        return False
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


_JUMPS = (sympy.sign, sympy.Heaviside, sympy.floor, sympy.ceiling)


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


def _box_balls(box: dict) -> dict:
    return {symbol: interval(low, high) for symbol, (low, high) in box.items()}


def _closed_form_checked(node: sympy.Integral, value, backend, compile_ball) -> bool:
    """The hypotheses under which SymPy's antiderivative is the integral, proved over the
    configuration's box (``backend.box``) in ball arithmetic:

    1. the integrand is continuous on the hull of [a, b] over the box (every node finite);
    2. the closed form is continuous on the box (every node finite);
    3. where the ends move with the box and the integrand does not, the closed form's derivative in
       each box variable is f(b)·∂b − f(a)·∂a exactly (the fundamental theorem of calculus);
    4. at the box's midpoint the closed form's ball meets the certified midpoint-rule enclosure.

    1-3 make closed form − integral a constant on the (connected) box, 4 makes it 0 up to the
    enclosure's width: a branch-cut antiderivative that SymPy evaluates across its jump fails 2 or 4."""
    ((variable, low, high),) = node.limits
    box = getattr(backend, "box", {}) or {}
    symbols = (node.free_symbols | value.free_symbols)
    if not symbols <= set(box):
        return False
    env = _box_balls(box)
    hull = _exact_hull(low, high, box)
    if hull is None:
        return False
    # t's range is known exactly, as a box variable's is: acos(t) on [-1, 1] is not NaN for rounding
    backend.box = {**box, variable: hull}
    try:
        continuous = _every_node_finite(node.function, {**env, variable: interval(*hull)}, compile_ball)
    finally:
        backend.box = box
    if not continuous:
        return False
    if not _every_node_finite(value, env, compile_ball):
        return False
    moving = [s for s in symbols if s in low.free_symbols | high.free_symbols]
    if moving and not (node.function.free_symbols <= {variable}):
        return False  # the integrand moves with the box too: no derivative identity to check
    for symbol in moving:
        expected = (node.function.xreplace({variable: high}) * sympy.diff(high, symbol)
                    - node.function.xreplace({variable: low}) * sympy.diff(low, symbol))
        try:
            residual = remembered("the fundamental theorem for the integral", reduced,
                                  sympy.diff(value, symbol) - expected)
        except (VerifyInputError, CPUDeadline, ValueError, TypeError, NotImplementedError):
            return False
        if residual != 0:
            return False
    middle = {symbol: interval(*(2 * [(lo + hi) / 2])) for symbol, (lo, hi) in box.items()}
    try:
        closed = compile_ball(value)(middle)
        enclosed = ball_integral(node, compile_ball)(middle)
    except (Unavailable, ValueError, TypeError, ArithmeticError):
        return False
    return closed.is_finite() and enclosed.is_finite() and closed.overlaps(enclosed)


def _integrated(node: sympy.Integral):
    return node.doit()


def exact_integral(node: sympy.Integral, backend, compile_ball) -> sympy.Expr:
    """∫ in closed form (module docstring), or Unavailable; ``compile_ball(expr)`` compiles an
    expression to env -> ball with ``backend``'s quantities (the closed form's checks use it)."""
    try:
        value = remembered(lambda: f"the integral {clip(node, 60)}", _integrated, node)
    except (VerifyInputError, CPUDeadline, ValueError, TypeError, NotImplementedError) as exc:
        raise Unavailable(f"{clip(node, 60)}: no closed form ({clip(str(exc), 60)})") from None
    if value.has(sympy.Integral) or value.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        raise Unavailable(f"{clip(node, 60)}: no closed form")
    if not (_finite_on_the_line(node) or _closed_form_checked(node, value, backend, compile_ball)):
        raise Unavailable(f"{clip(node, 60)}: the integrand is not proved continuous on the range, or "
                          "SymPy's closed form not proved to be its integral")
    return value


def float_integral(node: sympy.Integral, symbols: list, lambdify_with):
    """A NumPy function of ``symbols`` (elementwise over arrays) whose value is the integral by
    ``scipy.integrate.quad``; ``lambdify_with(expr, arguments)`` compiles an expression with the
    claim's float namespace."""
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
    ``compile_ball(expr)`` compiles an expression of the claim to env -> ball."""
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
            if curvature is not None:
                middle = {**env, variable: (left + right) / 2}
                remainder = curvature({**env, variable: piece}) * width ** 3 / 24
                total += value(middle) * width + arb(0, remainder.abs_upper())
            else:
                total += value({**env, variable: piece}) * width
        for end in (b, a):
            if end.rad() > 0:  # the piece between the end's midpoint and its true value
                spread = value({**env, variable: end}).abs_upper() * end.rad()
                total += arb(0, spread)
        return total

    return enclose


__all__ = ["PIECES", "ball_integral", "exact_integral", "float_integral", "is_integral"]
