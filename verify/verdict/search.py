r"""Counterexample search: the numerical step that can refute a claim but never prove it.

A search that finds nothing is not evidence that a claim holds (a verdict built on it is
*inconclusive* with the tolerance it could not resolve); a worst ratio above 1 is a
counterexample to be confirmed exactly or in balls before it refutes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from verify.base.evidence_cache import (canonical, decode_array, decode_number, encode_array, encode_number,
                                        remembered)


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

    The result is kept in the on-disk cache (:mod:`verify.base.evidence_cache`), keyed by the box,
    the options, ``rng``'s state and ``ratio``: its name and its values at three points of the box,
    so two searches of one call site over different functions never share an entry.  A search only
    suggests a counterexample, which its caller confirms afresh.  ``rng`` is left in the state the
    search leaves it in, from the cache too.
    """
    lo = np.array([b[0] for b in bounds], float)
    hi = np.array([b[1] for b in bounds], float)
    try:
        probes = [float(ratio(lo + (hi - lo) * t)) for t in (0.25, 0.5, 0.75)]
    except Exception:  # a function that fails somewhere: searched, not remembered
        return _maximise(ratio, lo, hi, rng, starts, polish)
    key = canonical({"ratio": f"{getattr(ratio, '__module__', '?')}.{getattr(ratio, '__qualname__', '?')}",
                     "probes": probes, "lo": lo, "hi": hi, "starts": starts, "polish": polish,
                     "rng": rng})

    def search() -> tuple[SearchResult, dict]:
        return _maximise(ratio, lo, hi, rng, starts, polish), rng.bit_generator.state

    def encode(value: tuple[SearchResult, dict]) -> dict:
        result, state = value
        return {"worst": encode_number(result.worst), "argmax": encode_array(result.argmax),
                "evaluations": result.evaluations, "rng": canonical(state)}

    def decode(payload: dict) -> tuple[SearchResult, dict]:
        worst, argmax = decode_number(payload["worst"]), decode_array(payload["argmax"])
        evaluations, state = payload["evaluations"], payload["rng"]
        if not (isinstance(worst, float) and isinstance(evaluations, int) and argmax.shape == lo.shape):
            raise ValueError("search result")
        return SearchResult(worst, argmax, evaluations), state

    result, state = remembered("search", key, search, encode, decode)
    if canonical(rng.bit_generator.state) != canonical(state):  # from the cache: as the search leaves it
        rng.bit_generator.state = _state_from(state, rng.bit_generator.state)
    return result


def _state_from(stored: dict, like: dict) -> dict:
    """A bit generator's state from its :func:`canonical` form (floats were written as hex)."""
    if isinstance(like, dict):
        return {name: _state_from(stored[name], value) for name, value in like.items()}
    if isinstance(like, float):
        return float.fromhex(stored["float"])
    if isinstance(like, np.ndarray):
        raise ValueError("array state")
    if not isinstance(stored, type(like)):
        raise ValueError("state")
    return stored


def _maximise(ratio, lo: np.ndarray, hi: np.ndarray, rng: np.random.Generator, starts: int,
              polish: int) -> SearchResult:
    # lazy: scipy.optimize costs 0.35 s at import; only a search needs it
    from scipy.optimize import minimize

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
