r"""An activation as smooth pieces between its kinks.

The registry locates the kinks of σ exactly (:attr:`verify.model.activations.Activation.kinks`: the
real roots of every Abs/sign/Heaviside argument and of every difference of Max/Min
arguments).  Between two consecutive kinks none of those switches changes branch, so on each
open piece σ equals one smooth expression, found by deciding every switch at one sample point
q of the piece, innermost first:

    Abs(g) → ±g,  sign(g) → ±1,  Heaviside(g) → 1 or 0,  Max/Min(a, b, …) → the largest/smallest
    argument at q,

each sign decided by evaluating the (already resolved) argument at the exact rational q in
ball arithmetic, at rising precision until the ball excludes 0 (it cannot contain 0 forever:
q is not a kink, so no switch argument vanishes there).  The piece expressions extend
analytically to a complex neighbourhood of their piece, which is what
:func:`flint.acb.integral` needs.

Kinks are SymPy numbers; they become balls.  A kink that is not a dyadic number (log 2, √2)
is represented by an exact point inside its ball, and the integrators account for the gap.

Trusted, not proven here: that the kinks are *all* the real roots of the switch arguments.
They come from SymPy's ``solveset`` over the reals, which the registry accepts only when it
returns a finite set (anything else is refused as malformed); a root it missed would put a
branch change inside a piece.  Every other step is ball arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy
from flint import arb, ctx

from verify.certified.balls import exact, lower_fraction, upper_fraction
from verify.certified.compile import RealBackend, compile_expression, constant
from verify.certified.errors import CertificationError
from verify.model.activations import FOLDS, STEPS, folded_argument, unfolded

#: Precisions (bits) tried when deciding the sign of a switch argument at a sample point; a
#: nonzero value needs only enough bits to separate it from 0, 4096 bits covers |g(q)| > 1e-1200.
SIGN_PRECISIONS = (128, 512, 4096)


@dataclass(frozen=True)
class Piece:
    """σ = ``expr`` on the open interval (``low``, ``high``); None stands for ∓∞.

    ``low``/``high`` are balls containing the kinks (radius 0 when the kink is dyadic)."""

    low: arb | None
    high: arb | None
    expr: Any


def kink_balls(activation) -> list[arb]:
    """The kinks of σ as balls at the working precision, in increasing order."""
    return [constant(k) for k in activation.kinks]


def smooth_pieces(activation) -> tuple[Piece, ...]:
    """σ's smooth expression on each open interval between consecutive kinks."""
    return tuple(Piece(low, high, resolve(activation.expr, activation.x, sample))
                 for low, high, sample in between_kinks(kink_balls(activation)))


def derivative_pieces(activation) -> tuple[Piece, ...]:
    """σ' on each piece (the derivative of the piece expression).

    Requires σ continuous, so that σ is absolutely continuous and these pieces are its weak
    derivative (then E[σ'²] = Σ p μ_p², by Gaussian integration by parts).  Continuity at each
    kink is proven symbolically (the two neighbouring expressions agree there, SymPy
    ``simplify`` to 0); otherwise CertificationError.
    """

    pieces = smooth_pieces(activation)
    x = activation.x
    for left, right, kink in zip(pieces[:-1], pieces[1:], activation.kinks, strict=True):
        gap = sympy.simplify(left.expr.subs(x, kink) - right.expr.subs(x, kink))
        if gap != 0:
            raise CertificationError(f"activation {activation.name!r} is not provably continuous at "
                                     f"x = {kink} (jump {gap}), so E[sigma'^2] and K' are not certified")
    return tuple(Piece(p.low, p.high, sympy.diff(p.expr, x)) for p in pieces)


def between_kinks(kinks: list[arb]):
    """(low, high, sample point) for (−∞, k_1), (k_1, k_2), …, (k_n, ∞)."""
    if not kinks:
        yield None, None, Fraction(0)
        return
    yield None, kinks[0], lower_fraction(kinks[0]) - 1
    for low, high in zip(kinks[:-1], kinks[1:], strict=True):
        if not low.upper() < high.lower():
            raise CertificationError(f"kinks {low} and {high} are not separated at the working precision")
        yield low, high, (upper_fraction(low) + lower_fraction(high)) / 2
    yield kinks[-1], None, upper_fraction(kinks[-1]) + 1


#: The functions :func:`resolve` replaces by their branch (and the folds of :data:`FOLDS`).
SWITCHES = (sympy.Abs, sympy.sign, sympy.Heaviside, sympy.Max, sympy.Min, *STEPS)


def is_switch(node) -> bool:
    return isinstance(node, SWITCHES) or folded_argument(node) is not None


def free_switches(expr, x) -> list:
    """The outermost switch nodes of ``expr`` whose only free symbol is ``x`` (a switch of an
    expectation's g, or of a sum's index, is not one of the claim's variable)."""
    found: list = []

    def walk(node):
        if is_switch(node) and node.free_symbols == {x}:
            found.append(node)
            return
        for arg in node.args:
            walk(arg)

    walk(expr)
    return list(dict.fromkeys(found))


def closed_pieces(ends: list) -> list[tuple]:
    """(a, b, sample) for consecutive exact numbers a < b of ``ends``, with a rational sample
    strictly inside each (a point between their balls)."""
    balls = [constant(sympy.sympify(e)) for e in ends]
    samples = [sample for _, _, sample in list(between_kinks(balls))[1:-1]]
    return list(zip(ends[:-1], ends[1:], samples, strict=True))


def resolve(expr, x, sample: Fraction):
    """``expr`` with every Abs/sign/Heaviside/Max/Min replaced by its branch at ``sample``,
    every floor/ceiling/frac by its integer part there (constant up to the next crossing), and
    every acos(cos u), asin(sin u), atan(tan u) by its linear branch there (:data:`FOLDS`)."""

    if not expr.has(*SWITCHES, *FOLDS):
        if expr.has(sympy.Piecewise):
            raise CertificationError(f"cannot certify Piecewise expressions ({expr})")
        return expr
    if folded_argument(expr) is not None:
        u = resolve(expr.args[0].args[0], x, sample)
        return unfolded(expr, u, _floor_at(u / sympy.pi + FOLDS[type(expr)][1], x, sample))
    args = [resolve(a, x, sample) for a in expr.args]
    if isinstance(expr, sympy.Abs):
        return args[0] if _sign_at(args[0], x, sample) > 0 else -args[0]
    if isinstance(expr, sympy.sign):
        return sympy.Integer(_sign_at(args[0], x, sample))
    if isinstance(expr, sympy.Heaviside):
        return sympy.Integer(1 if _sign_at(args[0], x, sample) > 0 else 0)
    if isinstance(expr, sympy.Max | sympy.Min):
        return _extreme_at(args, x, sample, largest=isinstance(expr, sympy.Max))
    if isinstance(expr, STEPS):
        whole = sympy.Integer(_floor_at(args[0], x, sample))
        if isinstance(expr, sympy.floor):
            return whole
        return whole + 1 if isinstance(expr, sympy.ceiling) else args[0] - whole
    return expr.func(*args)


def _floor_at(g, x, sample: Fraction) -> int:
    """floor(g(sample)) for g(sample) not an integer (``sample`` lies between two crossings),
    decided in ball arithmetic: the ball's two ends have the same floor."""
    for bits in SIGN_PRECISIONS:
        with ctx.workprec(bits):
            value = compile_expression(g, x, RealBackend())(exact(sample))
            if value.is_finite() and value.lower().floor() == value.upper().floor():
                return int(value.lower().floor().unique_fmpz())
    raise CertificationError(f"cannot decide the integer part of {g} at x = {sample} "
                             "(a jump the window missed?)")


def _sign_at(g, x, sample: Fraction) -> int:
    """The sign of g(sample) ≠ 0, decided in ball arithmetic."""
    for bits in SIGN_PRECISIONS:
        with ctx.workprec(bits):
            value = compile_expression(g, x, RealBackend())(exact(sample))
            if value > 0:
                return 1
            if value < 0:
                return -1
    raise CertificationError(f"cannot decide the sign of {g} at x = {sample} (a kink the registry missed?)")


def _extreme_at(args, x, sample: Fraction, largest: bool):
    """The argument of Max (largest) or Min at ``sample``: it beats every other one there."""
    best = args[0]
    for other in args[1:]:
        difference = _sign_at(other - best, x, sample)
        if (difference > 0) == largest:
            best = other
    return best


def piece_bounds(piece: Piece, cutoff: int) -> tuple[arb, arb]:
    """The exact integration endpoints of ``piece`` ∩ [−cutoff, cutoff]: ±cutoff for infinite
    ends, the midpoint of a kink's ball otherwise (the gap to the true kink is ≤ its radius)."""
    low = arb(-cutoff) if piece.low is None else arb(piece.low.mid())
    high = arb(cutoff) if piece.high is None else arb(piece.high.mid())
    return low, high
