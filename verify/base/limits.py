"""Limits whose hypotheses are checked: SymPy's ``limit`` answered only where it is proved.

SymPy's limit (Gruntz's algorithm) is proved for expressions of a Hardy field: built from
rational functions, exp, log and powers, whose sign is eventually constant.  A function that keeps
oscillating as the variable approaches the point (cos g as g → ∞, sin(1/t) as t → 0) leaves that
class, and there SymPy's answer can be wrong, not merely missing:
``limit(g**2*exp(-g**2/2)/(exp(-g**2) + cos(g)**2), g, oo)`` is 0, yet the expression equals
g² e^{g²/2} at every g = π/2 + nπ.  An existence step that trusted it declared a divergent
expectation to exist, and ``Eg(1/(exp(-g**2) + cos(g)**2)) > 0`` held (exact).

Default deny: :func:`proved_limit` returns None (no limit known) when the expression holds an
oscillating function whose argument is not proved to stay bounded near the point (its own limit,
free of oscillating functions, is a finite number), or a power of a negative number whose exponent
grows ((−1)^k, (−2)^k).

Outside the Hardy class one kind of answer is still read, by :func:`limit_or_enclosure`: an
``AccumBounds`` result.  SymPy reaches it by evaluating each oscillating function at the point as
the interval of its values (cos(∞) = [−1, 1]) and the rest in interval arithmetic, which
encloses every limit point (|sin k| → [0, 1]); a caller may read it as bounds, never as a limit.
"""

from __future__ import annotations

import sympy
from sympy.calculus.accumulationbounds import AccumBounds

#: Functions with no limit where their argument is unbounded: periodic ones and integer parts.
OSCILLATING = (sympy.sin, sympy.cos, sympy.tan, sympy.cot, sympy.sec, sympy.csc, sympy.floor,
               sympy.ceiling, sympy.frac, sympy.Mod)

#: What SymPy's limit may raise on expressions it cannot handle (it recursed without end on
#: exp(-1/Max(g, 0))): no limit known, not a crash.
_LIMIT_ERRORS = (NotImplementedError, ValueError, TypeError, RecursionError, ZeroDivisionError)


def proved_limit(expr, variable, point, direction: str = "+-"):
    """``sympy.limit(expr, variable, point, direction)`` where SymPy's algorithm is proved for
    ``expr`` (module docstring), else None; None too where SymPy cannot decide.  ``direction`` is
    ignored at ±oo, as SymPy does."""
    if not in_hardy_class(expr, variable, point, direction):
        return None
    return _sympy_limit(expr, variable, point, direction)


def limit_or_enclosure(expr, variable, point, direction: str = "+-"):
    """:func:`proved_limit` where it answers; else SymPy's answer when it holds ``AccumBounds`` (an
    enclosure of the limit points, module docstring), else None."""
    if in_hardy_class(expr, variable, point, direction):
        return _sympy_limit(expr, variable, point, direction)
    value = _raw_limit(expr, variable, point, direction)
    return value if value is not None and value.has(AccumBounds) else None


def in_hardy_class(expr, variable, point, direction: str = "+-") -> bool:
    """Whether every oscillating function of ``variable`` in ``expr`` has an argument that is
    proved bounded as ``variable`` → ``point`` (a finite limit, the argument itself free of
    oscillating functions), and no negative number is raised to a power that depends on it."""
    for node in sympy.preorder_traversal(expr):
        if (node.is_Pow and node.exp.has(variable) and node.base.is_number
                and node.base.is_extended_real and not node.base.is_nonnegative):
            return False  # (-1)**k: Gruntz's limit(k*(-1)**k/k) is not proved
        if isinstance(node, OSCILLATING) and node.has(variable):
            for argument in node.args:
                if not argument.has(variable):
                    continue
                if argument.has(*OSCILLATING):
                    return False  # cos(cos(g)): bounded, but its limit is no longer proved
                value = _sympy_limit(argument, variable, point, direction)
                if value is None or not (value.is_number and value.is_finite):
                    return False
    return True


def _sympy_limit(expr, variable, point, direction):
    value = _raw_limit(expr, variable, point, direction)
    return value if value is not None and (value.is_number or value in (sympy.oo, -sympy.oo)) else None


def _raw_limit(expr, variable, point, direction):
    try:
        if point in (sympy.oo, -sympy.oo):
            return sympy.limit(expr, variable, point)
        return sympy.limit(expr, variable, point, direction)
    except _LIMIT_ERRORS:
        return None
