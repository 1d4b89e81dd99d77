r"""Counterexample search: the numerical step that can refute a claim but never prove it.

A search that finds nothing is not evidence that a claim holds (a verdict built on it is
*inconclusive* with the tolerance it could not resolve); a worst ratio above 1 is a
counterexample to be confirmed exactly or in balls before it refutes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class SearchResult:
    """The largest value of ``ratio`` found, and where."""

    worst: float
    argmax: np.ndarray
    evaluations: int


def maximise(ratio: Callable[[np.ndarray], float], bounds: Sequence[tuple[float, float]],
             rng: np.random.Generator, starts: int = 64, polish: int = 8) -> SearchResult:
    """Counterexample search: random starts in the box, then Nelder–Mead from the best few.

    ``ratio`` maps a point of the box to (claimed left side)/(claimed bound);
    a worst value above 1 is a counterexample.  Points are clipped to the box.
    """
    # lazy: scipy.optimize costs 0.35 s at import; only a search needs it
    from scipy.optimize import minimize

    lo = np.array([b[0] for b in bounds], float)
    hi = np.array([b[1] for b in bounds], float)

    def value(z: np.ndarray) -> float:
        v = ratio(np.clip(z, lo, hi))
        return float(v) if np.isfinite(v) else -np.inf

    points = lo + (hi - lo) * rng.random((starts, lo.size))
    values = np.array([value(p) for p in points])
    count = starts
    best_point, best = points[int(np.argmax(values))], float(values.max())
    for i in np.argsort(values)[::-1][:polish]:
        res = minimize(lambda z: -value(z), points[i], method="Nelder-Mead",
                       options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 400})
        count += int(res.nfev)
        if -res.fun > best:
            best, best_point = float(-res.fun), np.clip(res.x, lo, hi)
    return SearchResult(best, best_point, count)
