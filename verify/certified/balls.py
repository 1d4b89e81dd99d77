"""Arb balls: scoped precision, exact conversions, endpoints, printing and cache round trips.

A ball ``[m ± r]`` (python-flint's :class:`flint.arb`) stands for every real number in
[m − r, m + r]; Arb's arithmetic guarantees that the result of an operation on balls contains
the result of the exact operation on every choice of points in the inputs.  Everything in
:mod:`verify.certified` is built from such operations, so a printed ball is a proof that the
true value lies inside it.

Precision is always scoped (:func:`working_precision`), never assigned globally: Arb's
working precision lives in ``flint.ctx.prec``, which this module sets only inside ``with``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction

import numpy as np
from flint import acb, arb, ctx, fmpq

from verify.base.budget import deadline_point, deferred_deadlines
from verify.model.arithmetic import FLOAT64

#: Bits carried beyond the requested digits.  The longest chains of rounded operations here
#: (the Hermite recurrence to p = 200, sums over k² = 4096 neuron pairs, Gauss–Legendre sums of a
#: few thousand nodes) lose at most ~20 bits; 64 leaves the requested digits untouched.
GUARD_BITS = 64

#: Extra decimal digits written to the cache beyond the requested ones, so a ball read back
#: is as tight as the one computed (the decimal rounding is folded into the stored radius).
CACHE_EXTRA_DIGITS = 10


#: Certified results this process computed, by key (:func:`computed_here`).
_COMPUTED: dict[tuple, object] = {}
#: Entries kept at most: a run needs a few dozen (activation, terms, precision) at a time.
MAX_COMPUTED = 512


def computed_here(key: tuple, compute):
    """``compute()``, once per ``key`` in this process.  Certified results are kept here and never
    in the disk cache (:mod:`verify.base.cache`): a verdict that says *certified* rests on balls this
    process computed, not on a file, which anyone who can read the cache key could forge."""
    if key not in _COMPUTED:
        if len(_COMPUTED) >= MAX_COMPUTED:
            _COMPUTED.clear()
        _COMPUTED[key] = compute()
    return _COMPUTED[key]


def bits_for(dps: int) -> int:
    """Working precision in bits for ``dps`` decimal digits, guard bits included."""
    return math.ceil(dps * math.log2(10)) + GUARD_BITS


@contextmanager
def working_precision(dps: int) -> Iterator[None]:
    """Arb arithmetic at :func:`bits_for` (``dps``) bits inside the block."""
    with ctx.workprec(bits_for(dps)):
        yield


def exact(value) -> arb:
    """An int, float (its exact binary value), :class:`~fractions.Fraction` or arb as a ball.

    Floats and ints become exact balls (radius 0); a Fraction becomes the tightest ball at the
    working precision (exact when its denominator is a power of two that fits).
    """
    if isinstance(value, arb):
        return value
    if isinstance(value, Fraction):
        return arb(fmpq(value.numerator, value.denominator))
    if isinstance(value, bool) or not isinstance(value, int | float) and not hasattr(value, "__float__"):
        raise TypeError(f"cannot make a ball from {value!r}")
    if isinstance(value, int):
        return arb(value)
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"cannot make a ball from the non-finite number {value!r}")
    numerator, denominator = number.as_integer_ratio()
    # A double is m·2^e with |m| < 2^53: exact in arb at any precision of 53 bits or more.
    return arb(fmpq(numerator, denominator)) if denominator != 1 else arb(numerator)


def dyadic(point: arb) -> Fraction:
    """The exact value of a ball of radius 0 (a dyadic rational) as a Fraction."""
    if point.rad() != 0:
        raise ValueError(f"{point} is not an exact point")
    man, exp = point.mid().man_exp()
    mantissa, exponent = int(man), int(exp)
    return Fraction(mantissa * 2**exponent) if exponent >= 0 else Fraction(mantissa, 2**-exponent)


def upper_fraction(x: arb) -> Fraction:
    """A rational ≥ every point of ``x`` (its upper endpoint, exactly)."""
    return dyadic(x.upper())


def lower_fraction(x: arb) -> Fraction:
    """A rational ≤ every point of ``x`` (its lower endpoint, exactly)."""
    return dyadic(x.lower())


def integer_power(x, n: int):
    """x**n for an arb or acb ball and an integer n, by multiplications.

    python-flint's ``**`` goes through exp(n log x) for arb: NaN for a ball that contains 0 and
    a needlessly wide ball for negative ones.  Here even powers of a real ball start from |x|,
    so x² of [−1, 1] is [0, 1], not [−1, 1]; negative n divide (a ball containing 0 gives a
    non-finite result, as it must)."""
    if n < 0:
        return 1 / integer_power(x, -n)
    base = abs(x) if isinstance(x, arb) and n % 2 == 0 else x
    result = arb(1) if isinstance(x, arb) else acb(1)
    while n:
        if n & 1:
            result = result * base
        n >>= 1
        if n:
            base = base * base
    return result


def interval(lo, hi) -> arb:
    """A ball containing the closed interval [lo, hi] (endpoints given as numbers or balls)."""
    return exact(lo).union(exact(hi))


def clamped_endpoints(x: arb, lo: arb, hi: arb) -> tuple[arb, arb]:
    """The exact endpoints of ``x`` ∩ [lo, hi], for a ball whose *true* value is known to lie in
    [lo, hi] and which sticks out only by rounding.

    Endpoints, not a ball: a ball's radius is rounded up, so no ball can end exactly at 1."""
    low = x.lower() if x.lower() > lo else lo
    high = x.upper() if x.upper() < hi else hi
    if high < low:
        raise ValueError(f"{x} does not meet [{lo}, {hi}]")
    return low, high


def monotone_image(function, low: arb, high: arb, increasing: bool) -> arb:
    """Enclosure of {f(t): low ≤ t ≤ high} for a monotone f, from its values at the two
    exact endpoints.

    This is how functions with a boundary of their domain in the interval (asin, acos, √ at
    ±1 or 0) are enclosed: Arb returns NaN for a ball that sticks out of the domain, while the
    endpoints themselves are valid points."""
    at_low, at_high = function(low), function(high)
    return at_low.union(at_high) if increasing else at_high.union(at_low)


def quantized(x: arb, decimals: int) -> arb:
    """``x`` reported as a decimal with ``decimals`` places and its rounding interval: the ball
    centred at the multiple m' of 10^-decimals nearest to mid(x), with radius rad(x) + 10^-decimals.

    It contains x (for t ∈ x, |t − m'| ≤ rad + |mid − m'| ≤ rad + ½·10^-decimals) and every
    number within ½·10^-decimals of x.  Certified results are reported this way, at the absolute
    resolution they are certified to, not at whatever extra accuracy an integrator happened to
    reach: the result does not depend on convergence luck, and a reference value correct to that
    resolution lies inside it."""
    unit = arb(10) ** (-decimals)
    steps = (x.mid() / unit + arb(1) / 2).floor()
    return steps.mid() * unit + arb(0, (x.rad() + unit).upper())


def format_ball(x: arb, digits: int) -> str:
    """``[mid ± rad]`` with at most ``digits`` significant digits of the midpoint.

    The printed ball contains ``x``: Arb's decimal enclosure (``mid_rad_10exp``) folds the
    rounding of the midpoint into the radius, and the radius is rounded up to 3 digits."""
    if not x.is_finite():
        return "[nan]"
    if x.rad() != 0 and x.mid() != 0:
        # digits beyond the radius say nothing: keep two past its leading digit
        spread = float((abs(x.mid()).log() - x.rad().log()) / arb(10).log())
        digits = max(1, min(digits, math.floor(spread) + 3))
    mid, rad, exponent = (int(v) for v in x.mid_rad_10exp(digits))
    return f"[{_decimal(mid, exponent)} ± {_rounded_up(rad, exponent)}]"


def _decimal(mantissa: int, exponent: int) -> str:
    """mantissa·10^exponent in fixed notation for moderate sizes, scientific otherwise."""
    if mantissa == 0:
        return "0"
    sign, text = ("-" if mantissa < 0 else ""), str(abs(mantissa))
    magnitude = exponent + len(text) - 1  # power of ten of the leading digit
    if -5 <= magnitude < 5:
        if exponent >= 0:
            return sign + text + "0" * exponent
        point = len(text) + exponent
        body = text[:point] + "." + text[point:] if point > 0 else "0." + "0" * (-point) + text
        return sign + body
    tail = text[1:].rstrip("0")
    return f"{sign}{text[0]}{'.' + tail if tail else ''}e{magnitude:+d}"


def _rounded_up(value: int, exponent: int) -> str:
    """value·10^exponent rounded up to 3 significant digits, in scientific notation."""
    if value == 0:
        return "0"
    text = str(value)
    shift = max(len(text) - 3, 0)
    head = -(-value // 10**shift)  # ceiling
    return _decimal(head, exponent + shift) if head < 1000 else _decimal(head // 10 + 1, exponent + shift + 1)


def to_payload(x: arb, digits: int) -> dict[str, str]:
    """``{"mid", "rad"}`` decimal strings whose ball contains ``x`` (for the cache)."""
    mid, rad, exponent = x.mid_rad_10exp(digits + CACHE_EXTRA_DIGITS)
    return {"mid": f"{int(mid)}e{int(exponent)}", "rad": f"{int(rad)}e{int(exponent)}"}


def from_payload(payload: dict) -> arb:
    """The ball of a :func:`to_payload` dict: Arb parses decimal strings to enclosing balls."""
    mid, rad = payload["mid"], payload["rad"]
    if not (isinstance(mid, str) and isinstance(rad, str)):
        raise ValueError("a cached ball needs decimal strings 'mid' and 'rad'")
    ball = arb(mid, rad)
    if not ball.is_finite():
        raise ValueError(f"cached ball {mid} ± {rad} is not finite")
    return ball


def strictly_positive(x: arb) -> bool:
    """True when every point of ``x`` is > 0 (Arb's comparisons are certain-or-False)."""
    return bool(x > 0)


def strictly_negative(x: arb) -> bool:
    return bool(x < 0)


class Balls:
    """Arb balls as an arithmetic of :mod:`verify.model.arithmetic`: stored numbers taken exactly
    (:func:`exact`), results that contain the exact result for every point of the inputs."""

    name = "balls"
    objects = True
    #: Population sums over pooled pairs (:class:`verify.model.geometry.PooledGeometry`): each of
    #: the k² terms of a ball sum costs Python-level ball operations, and the pooled sum is the
    #: same sum, so its ball encloses the same value
    pools_pairs = True
    #: entrywise computes every entry: the certified kernels remember their balls across calls
    #: (verify.certified.kernels._remembered), and hashing each entry here as well cost more than
    #: the square roots it saved
    entry_key = None

    def number(self, value) -> arb:
        if isinstance(value, arb):
            return value
        if hasattr(value, "dtype"):  # a NumPy scalar: its exact double
            return exact(float(value))
        return exact(value)

    def sqrt(self, value: arb) -> arb:
        return value.sqrt()

    def exp(self, value: arb) -> arb:
        return value.exp()

    def log(self, value: arb) -> arb:
        return value.log()

    e = property(lambda self: arb.const_e())  # at the working precision
    pi = property(lambda self: arb.pi())

    def fsum(self, values) -> arb:
        return sum(values, arb(0))

    def upper(self, value: arb) -> arb:
        return value.upper()

    @staticmethod
    def key(value: arb) -> tuple:
        """A hashable key equal for two balls exactly when they are the same ball (an arb that is
        not exact has no hash): its midpoint and radius, both exact.  A ball with an infinite or
        NaN end gets a key of its own (they have no hash either)."""
        if not value.is_finite():
            return object()
        return value.mid(), value.rad()


BALLS = Balls()


def is_ball(x) -> bool:
    """True for an Arb ball, or an object array whose first entry is one."""
    if isinstance(x, np.ndarray):
        return x.dtype == object and x.size > 0 and isinstance(x.flat[0], arb)
    return isinstance(x, arb)


def arithmetic_of(*values):
    """BALLS when any of ``values`` is a ball (or an object array of balls), else FLOAT64: a claim
    hook written as ``M = arithmetic_of(x); M.exp(-2 / (M.e * x))`` computes the float64 numbers
    it always did on floats and a ball on balls (``math.exp`` would round a ball to a float)."""
    return BALLS if any(is_ball(v) for v in values) else FLOAT64


def safe_integral(integrand, low, high, **options):
    """:func:`flint.acb.integral` of ``integrand(z, analytic)`` that survives an exception inside the
    integrand.  python-flint calls the integrand from C and does not propagate a Python exception
    raised there: a CPU deadline's signal (``CPUDeadline``) arriving during a long certified
    quadrature crashed the whole process with a segmentation fault (a red team's E[F''] of a
    nested tanh).  Here the integrand catches everything, returns NaN from then on, so that the
    integration ends at once, and the exception is raised again once control is back in Python."""
    raised: list[BaseException] = []

    def guarded(z, analytic):
        if raised:
            return acb(arb("nan"), arb("nan"))
        try:
            deadline_point()
            return integrand(z, analytic)
        except BaseException as exc:  # noqa: B902 (a deadline or Ctrl-C too: re-raised below)
            raised.append(exc)
            return acb(arb("nan"), arb("nan"))

    # the deadline's signal is held back while Arb's C code runs (it may land anywhere in
    # python-flint's own wrappers) and raised at the next integrand call, or at the end
    with deferred_deadlines():
        value = acb.integral(guarded, low, high, **options)
    if raised:
        raise raised[0]
    return value
