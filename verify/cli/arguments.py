"""argparse types that reject bad values with a one-line message naming them.

Each type is one call of :func:`_checked`: convert the text, test the value
against the domain, and on failure say what was required and what was given.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import TypeVar

from verify.hermite import MIN_DPS

T = TypeVar("T")


def _checked(text: str, convert: Callable[[str], T], valid: Callable[[T], bool],
             requirement: str) -> T:
    try:
        value = convert(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be {requirement}, got {text!r}") from None
    if not valid(value):
        raise argparse.ArgumentTypeError(f"must be {requirement}, got {text!r}")
    return value


def positive_int(text: str) -> int:
    """A count: terms, steps, k, d."""
    return _checked(text, int, lambda v: v >= 1, "a positive integer")


def seed(text: str) -> int:
    """A non-negative integer, as ``numpy.random.SeedSequence`` accepts."""
    return _checked(text, int, lambda v: v >= 0, "a non-negative integer")


def precision(text: str) -> int:
    """Decimal digits; double precision is the floor."""
    return _checked(text, int, lambda v: v >= MIN_DPS,
                    f"an integer number of digits >= {MIN_DPS} (double precision is the floor)")


def positive_real(text: str) -> float:
    """A finite real > 0, such as the scale ξ of eq. (3)."""
    return _checked(text, float, lambda v: math.isfinite(v) and v > 0, "a finite real number > 0")


def unit_interval(text: str) -> float:
    """A real in [0, 1], such as α = ‖Π_W u‖ of Fig. 5."""
    return _checked(text, float, lambda v: 0 <= v <= 1, "a real number in [0, 1]")


def correlation(text: str) -> str:
    """A correlation in [−1, 1], kept as text so that '0.37' is parsed at full precision later."""
    _checked(text, float, lambda v: -1 <= v <= 1, "a real number in [-1, 1] (it is a correlation)")
    return text


def overlap(text: str) -> float:
    """m = ⟨u, û⟩ of unit vectors, in [−1, 1]."""
    return _checked(text, float, lambda v: -1 <= v <= 1,
                    "a real number in [-1, 1] (it is the overlap <u, u_hat>)")


def open_overlap(text: str) -> float:
    """m = ⟨u, û⟩ strictly inside (−1, 1), where the direction u − m û is defined."""
    return _checked(text, float, lambda v: -1 < v < 1,
                    "a real number in (-1, 1) (at m = ±1 the direction u - m u_hat vanishes)")


def step_size(text: str) -> float:
    """The SGD step size η of eq. (4): a finite real > 0."""
    return _checked(text, float, lambda v: math.isfinite(v) and v > 0,
                    "a finite real number > 0 (the step size eta of eq. (4))")


def non_negative_int(text: str) -> int:
    """A count that may be zero (e.g. Monte-Carlo samples per record, 0 = none)."""
    return _checked(text, int, lambda v: v >= 0, "a non-negative integer")
