r"""Whether a sum of inverse tangents and sines of algebraic numbers is 0, exactly (Machin's formula).

A constant D = Σ c_i θ_i + r π with rational c_i, r and θ_i = atan(q_i) or asin(q_i) (q_i real
algebraic, |q_i| ≤ 1 for asin; acos is π/2 − asin after the symbolic step's rewrite) is scaled by
the least L making every coefficient an integer n_i.  Then e^{i L D} = (−1)^{L r} Π z_i^{n_i}, where
z_i = cos θ_i + i sin θ_i is known exactly up to a positive factor: 1 + i q for atan q and
√(1 − q²) + i q for asin q.  So L·D is a multiple of 2π exactly when the product z is a positive
real number, which is decided with no rounding (Gaussian integers when every q is rational, SymPy's
minimal polynomial otherwise).  A ball with |L·D| < 2π then gives D = 0; a product that is not a
positive real gives D ≠ 0.  4 atan(1/5) − atan(1/239) = π/4 is decided this way, which a ball of the
difference never could.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import sympy

#: Σ|n_i| beyond which the product is not formed (its integers grow by a few digits per unit).
MAX_TURNS_RATIONAL = 4000
#: The same for algebraic q, whose products SymPy expands (far slower than integers).
MAX_TURNS_ALGEBRAIC = 16
_X = sympy.Dummy("x")


@dataclass(frozen=True)
class AngleSum:
    """D scaled by ``scale`` (L) has e^{i L D} = ``real`` + i ``imaginary`` up to a positive factor."""

    scale: int
    real: sympy.Expr
    imaginary: sympy.Expr
    #: whether e^{i L D} is real, that is L·D ∈ πZ (the caller reads the real part's sign)
    real_axis: bool


def angle_sum(difference) -> AngleSum | None:
    """D as an :class:`AngleSum`, or None when it is not such a sum (module docstring)."""
    terms = []  # (coefficient, atom, cos + i sin of the atom up to a positive factor)
    for term in sympy.Add.make_args(sympy.expand(difference)):
        coefficient, atom = term.as_coeff_Mul()
        factor = (sympy.Integer(-1), sympy.Integer(0)) if atom is sympy.pi else _angle(atom)
        if not coefficient.is_Rational or factor is None:
            return None
        terms.append((coefficient, atom, factor))
    if not any(atom is not sympy.pi for _, atom, _ in terms):
        return None
    scale = math.lcm(*(int(c.q) for c, _, _ in terms))
    turns = sum(abs(int(c * scale)) for c, atom, _ in terms if atom is not sympy.pi)
    rational = all(atom is sympy.pi or atom.args[0].is_Rational for _, atom, _ in terms)
    if turns > (MAX_TURNS_RATIONAL if rational else MAX_TURNS_ALGEBRAIC):
        return None
    z = (sympy.Integer(1), sympy.Integer(0))
    for coefficient, _, factor in terms:
        n = int(coefficient * scale)
        if n < 0:
            factor, n = (factor[0], -factor[1]), -n  # the conjugate turns the other way
        z = _times(z, _power(factor, n))
    try:
        return AngleSum(scale, *z, real_axis=_is_zero(z[1]))
    except (NotImplementedError, sympy.polys.polyerrors.PolynomialError):
        return None  # SymPy could not find the minimal polynomial


def _angle(atom) -> tuple | None:
    """cos θ + i sin θ up to a positive factor, for θ = atan(q) or asin(q) of a real algebraic q."""
    if not isinstance(atom, sympy.atan | sympy.asin):
        return None
    (q,) = atom.args
    if not (q.is_Rational or (q.is_number and q.is_algebraic is True and q.is_real is True)):
        return None
    if isinstance(atom, sympy.atan):
        return sympy.Integer(1), q
    if (sympy.Abs(q) <= 1) is not sympy.true:
        return None
    return sympy.sqrt(1 - q**2), q


def _times(a: tuple, b: tuple) -> tuple:
    return (sympy.expand(a[0] * b[0] - a[1] * b[1]), sympy.expand(a[0] * b[1] + a[1] * b[0]))


def _power(z: tuple, n: int) -> tuple:
    result = (sympy.Integer(1), sympy.Integer(0))
    while n:
        if n & 1:
            result = _times(result, z)
        z = _times(z, z)
        n >>= 1
    return result


def _is_zero(value) -> bool:
    """Whether an algebraic number is 0: exact (an integer, or a minimal polynomial equal to x)."""
    if value.is_Rational:
        return value == 0
    return sympy.minimal_polynomial(value, _X) == _X
