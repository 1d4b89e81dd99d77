"""Exact comparison for the checks (the statistics and the search are in :mod:`verify.verdict`)."""

from __future__ import annotations

import sympy


def sympy_difference(claim, derived):
    """(equal, difference) of two SymPy expressions, simplified."""
    diff = sympy.simplify(sympy.expand(claim - derived))
    return diff == 0, diff
