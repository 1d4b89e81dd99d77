r"""The number systems in which the model's formulas are evaluated, behind one interface.

A formula of :mod:`verify.model.geometry`, :mod:`verify.model.population` or
:mod:`verify.model.series` is written once, over NumPy arrays, and evaluated in the
arithmetic it is handed: float64 arrays (vectorised over m), or object arrays whose entries
are mpmath numbers, SymPy numbers or Arb balls (:data:`verify.certified.balls.BALLS`).  NumPy
object arrays dispatch ``+ − × ÷`` to the entries, so only what NumPy cannot dispatch goes
through the arithmetic: turning a stored number into one of its own (exactly where it can),
square roots, functions applied entrywise, and sums.  mpmath's contexts serve one formula in
several precisions the same way (``mp``, ``iv``, ``fp``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

import mpmath
import numpy as np
import sympy


class Arithmetic(Protocol):
    """What a formula needs of a number system beyond NumPy's operator dispatch."""

    @property
    def name(self) -> str:
        """What the reports call this arithmetic."""

    @property
    def objects(self) -> bool:
        """True when the entries are Python objects (one m at a time), False for float64 arrays
        (any array of m at once, broadcast over the last two axes)."""

    def number(self, value: Any) -> Any:
        """A stored number (int, float64, Fraction, or already one of this arithmetic's) as a number here."""

    def sqrt(self, value: Any) -> Any:
        """√value for one number."""

    def exp(self, value: Any) -> Any:
        """e^value."""

    def log(self, value: Any) -> Any:
        """The natural logarithm of value."""

    @property
    def e(self) -> Any:
        """Euler's number in this arithmetic (at the working precision where it has one)."""

    @property
    def pi(self) -> Any:
        """π in this arithmetic."""

    def fsum(self, values) -> Any:
        """The sum of an iterable of numbers (an exact or accurately rounded sum where the system has one)."""

    def upper(self, value: Any) -> Any:
        """A number ≥ ``value``: the value itself, or a ball's upper endpoint (for bounds)."""


def array(arith: Arithmetic, values) -> np.ndarray:
    """``values`` (any nesting of numbers) as an array of ``arith``'s numbers."""
    if not arith.objects:
        return np.array(values, dtype=float)  # a copy: callers may set entries (G's diagonal)
    shaped = np.asarray(values, dtype=object)
    out = np.empty(shaped.shape, dtype=object)
    for index, value in np.ndenumerate(shaped):
        out[index] = arith.number(value)
    return out


def entrywise(arith: Arithmetic, function, values: np.ndarray) -> np.ndarray:
    """``function`` applied to each entry; a float64 function is applied to the whole array.

    ``function`` must be pure (the kernels, √): it is called once per distinct entry, as
    ``arith.entry_key`` tells them apart (exact and mpmath numbers: the number itself, with its
    type and precision), where a k × k matrix of overlaps holds a few distinct numbers (three or
    four for quantized c and G = I) and a kernel value is costly.  An arithmetic whose
    ``entry_key`` is None has every entry computed (balls: their kernels remember their values
    themselves, :mod:`verify.certified.kernels`)."""
    if not arith.objects:
        return function(values)
    key = getattr(arith, "entry_key", _itself)
    entries = np.asarray(values, dtype=object)
    if key is None:
        results = [function(value) for value in entries.ravel().tolist()]
        out = np.empty(len(results), dtype=object)
        out[:] = results
        return out.reshape(entries.shape)
    results = []
    seen: dict = {}
    for value in entries.ravel().tolist():
        tag = key(value)
        try:
            result = seen[tag]
        except KeyError:
            result = seen[tag] = function(value)
        except TypeError:  # an unhashable number: computed for itself
            result = function(value)
        results.append(result)
    out = np.empty(len(results), dtype=object)
    out[:] = results
    return out.reshape(entries.shape)


def _itself(value):
    """An mpmath or SymPy number's key: the number with its type and precision, since SymPy calls
    Float(0.5) and Rational(1, 2) equal (one hash), yet a kernel gives a float for one and an exact
    number for the other."""
    return type(value), value, getattr(value, "_prec", None)


def pair_sum(arith: Arithmetic, values) -> Any:
    """Σ_ij of a k × k array: over the last two axes in float64 (one sum per m), all entries otherwise."""
    if not arith.objects:
        return np.sum(values, axis=(-2, -1))
    return arith.fsum(np.asarray(values, dtype=object).ravel())


def overlap_axis(arith: Arithmetic, m) -> Any:
    """m shaped to broadcast against k × k arrays: float64 m gets two trailing axes."""
    if not arith.objects:
        return np.asarray(m, dtype=float)[..., None, None]
    return arith.number(m)


class _Points:
    """An arithmetic of points (not intervals): a value is its own upper bound."""

    def upper(self, value):
        return value


@dataclass(frozen=True)
class Float64(_Points):
    """IEEE doubles, vectorised: the fast path and the simulator's reference."""

    name: str = "float64"
    objects: bool = False

    def number(self, value):
        return float(value)

    sqrt = staticmethod(np.sqrt)
    fsum = staticmethod(math.fsum)
    e, pi = math.e, math.pi

    @staticmethod
    def exp(value):
        # math's for a Python float (the numbers the checks' hooks always printed), NumPy's for arrays
        return math.exp(value) if isinstance(value, float | int) else np.exp(value)

    @staticmethod
    def log(value):
        return math.log(value) if isinstance(value, float | int) else np.log(value)


@dataclass(frozen=True)
class MPMath(_Points):
    """mpmath numbers at the caller's working precision (``mpmath.workdps``): a float64 or a
    Fraction is taken exactly, up to that precision."""

    name: str = "mpmath"
    objects: bool = True

    def number(self, value):
        if isinstance(value, Fraction):
            return mpmath.mpf(value.numerator) / value.denominator
        if isinstance(value, sympy.Basic):
            return mpmath.mpf(sympy.Float(value, mpmath.mp.dps + 5))
        return value if isinstance(value, mpmath.mpf) else mpmath.mpf(value)

    sqrt = staticmethod(mpmath.sqrt)
    fsum = staticmethod(mpmath.fsum)
    exp = staticmethod(mpmath.exp)
    log = staticmethod(mpmath.log)
    e = property(lambda self: +mpmath.e)  # unary plus: evaluated at the working precision
    pi = property(lambda self: +mpmath.pi)


@dataclass(frozen=True)
class Exact(_Points):
    """SymPy numbers and expressions, exact: a float64 stands for its binary value."""

    name: str = "sympy"
    objects: bool = True

    def number(self, value):
        if isinstance(value, sympy.Basic):
            return value
        if isinstance(value, Fraction):
            return sympy.Rational(value.numerator, value.denominator)
        if isinstance(value, int | np.integer):
            return sympy.Integer(int(value))
        return sympy.Rational(float(value))

    sqrt = staticmethod(sympy.sqrt)
    exp = staticmethod(sympy.exp)
    log = staticmethod(sympy.log)
    e, pi = sympy.E, sympy.pi

    def fsum(self, values):
        return sympy.Add(*values)


FLOAT64 = Float64()
MPMATH = MPMath()
EXACT = Exact()
