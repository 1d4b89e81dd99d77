r"""Counterexample search: the numerical step that can refute a claim but never prove it.

A search that finds nothing is not evidence that a claim holds (a verdict built on it is
*inconclusive* with the tolerance it could not resolve); a worst ratio above 1 is a
counterexample to be confirmed exactly or in balls before it refutes.
"""

from __future__ import annotations

import types
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
             rng: np.random.Generator, starts: int = 64, polish: int = 8,
             remember: dict | None = None) -> SearchResult:
    """Counterexample search: random starts in the box, then Nelder–Mead from the best few.

    ``ratio`` maps a point of the box to (claimed left side)/(claimed bound);
    a worst value above 1 is a counterexample.  Points are clipped to the box.

    ``remember``: what ``ratio`` is, completely (the check, its instance, its constants), for the
    on-disk cache (:mod:`verify.base.evidence_cache`).  With it the result is kept, keyed by that,
    the box, the options and ``rng``'s state (and, as a guard against an incomplete description,
    ``ratio``'s values at three points of the box); ``rng`` is left in the state the search leaves
    it in, from the cache too.  Without it, or with a generator other than PCG64, the search runs.
    The name and a few values of a function do not identify it (two claims over one box that agree
    at the probes would share an entry), so nothing is cached without a description.  A search
    only suggests a counterexample, which its caller confirms afresh.
    """
    lo = np.array([b[0] for b in bounds], float)
    hi = np.array([b[1] for b in bounds], float)
    if remember is None or type(rng.bit_generator) is not np.random.PCG64:
        return _maximise(ratio, lo, hi, rng, starts, polish)
    try:
        probes = [float(ratio(lo + (hi - lo) * t)) for t in (0.25, 0.5, 0.75)]
        key = canonical({"remember": remember, "probes": probes, "lo": lo, "hi": hi,
                         "starts": int(starts), "polish": int(polish), "rng": rng})
    except Exception:  # a function that fails somewhere, or a description without a canonical form
        return _maximise(ratio, lo, hi, rng, starts, polish)

    def search() -> tuple[SearchResult, dict]:
        return _maximise(ratio, lo, hi, rng, starts, polish), rng.bit_generator.state

    def encode(value: tuple[SearchResult, dict]) -> dict:
        result, state = value
        return {"worst": encode_number(float(result.worst)), "argmax": encode_array(result.argmax),
                "evaluations": int(result.evaluations), "rng": _pcg64_state(state)}

    def decode(payload: dict) -> tuple[SearchResult, dict]:
        worst, argmax = decode_number(payload["worst"]), decode_array(payload["argmax"])
        evaluations, state = payload["evaluations"], _pcg64_state(payload["rng"])
        if not (isinstance(worst, float) and isinstance(evaluations, int) and argmax.shape == lo.shape):
            raise ValueError("search result")
        return SearchResult(worst, argmax, evaluations), state

    result, state = remembered("search", key, search, encode, decode)
    rng.bit_generator.state = state  # from the cache, as the search leaves it (a no-op otherwise)
    return result


def function_name(function: Callable) -> str | None:
    """``module.qualname`` of a plain module-level function (no closure, not a lambda, a partial
    or a bound method): what its code alone defines, so it may describe a search's objective in
    ``remember``; None for anything else."""
    if not isinstance(function, types.FunctionType) or function.__closure__ is not None \
            or "<" in function.__qualname__:
        return None
    return f"{function.__module__}.{function.__qualname__}"


def _pcg64_state(state: dict) -> dict:
    """A PCG64 state as NumPy reads and writes it, checked field by field (ValueError)."""
    inner = state["state"]
    out = {"bit_generator": state["bit_generator"],
           "state": {"state": inner["state"], "inc": inner["inc"]},
           "has_uint32": state["has_uint32"], "uinteger": state["uinteger"]}
    numbers = (out["state"]["state"], out["state"]["inc"], out["has_uint32"], out["uinteger"])
    if out["bit_generator"] != "PCG64" or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0
                                                  for n in numbers):
        raise ValueError("not a PCG64 state")
    return out


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
