"""argparse types that reject bad values with a one-line message naming them."""

from __future__ import annotations

import argparse
import math

from verify.hermite import MIN_DPS


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be a positive integer, got {text!r}"
        ) from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def precision(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be an integer number of digits >= {MIN_DPS}, got {text!r}"
        ) from None
    if value < MIN_DPS:
        raise argparse.ArgumentTypeError(
            f"must be >= {MIN_DPS} digits (double precision is the floor), got {text!r}"
        )
    return value


def correlation(text: str) -> str:
    """Kept as text so that '0.37' is parsed at full precision later."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a real number in [-1, 1], got {text!r}") from None
    if math.isnan(value) or not -1 <= value <= 1:
        raise argparse.ArgumentTypeError(
            f"must lie in [-1, 1] (it is a correlation), got {text!r}"
        )
    return text
