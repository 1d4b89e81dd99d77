r"""The probabilists' Hermite polynomials He_p, for every arithmetic.

He_0 = 1, He_1 = x, He_{q+1} = x He_q − q He_{q−1}; the normalised h_p = He_p/√p! of the paper
(§1.4) are orthonormal under N(0, 1).  The recurrence's constants are integers, so it is exact in
SymPy, and in ball arithmetic every radius shrinks with the working precision.

Written once here, in two forms of the one recurrence: He_p with integer constants (exact in
SymPy; complex Arb balls in :mod:`verify.certified.gaussian`, whose radii then shrink with the
precision) and h_p divided through as it goes (float64 arrays for the Hermite activations: no
overflow, the numba kernel's rounding).  Two engines keep a specialised copy for speed and are
tested against these: the fixed-point integer loop of :mod:`verify.model.hermite` and the numba
kernel of :mod:`verify.simulate.compiled`.
"""

from __future__ import annotations

import math
from typing import Any


def probabilists_hermite(p: int, x: Any, one: Any = 1) -> Any:
    """He_p(x); ``one`` is the arithmetic's 1 (e.g. ``numpy.ones_like(x)``, ``acb(1)``)."""
    previous, current = one * 0, one
    for q in range(p):
        previous, current = current, x * current - q * previous
    return current


def normalized_hermite(p: int, x: Any, one: Any = 1, sqrt=math.sqrt) -> Any:
    """h_p(x) = He_p(x)/√p!, by the same recurrence divided through as it goes:
    h_{q+1} = (x h_q − √q h_{q−1})/√(q+1).  Its terms stay O(1) where He_p overflows (large p),
    and it rounds as the numba kernel does (which keeps this loop, specialised)."""
    previous, current = one * 0, one
    for q in range(p):
        previous, current = current, (x * current - sqrt(q) * previous) / sqrt(q + 1)
    return current
