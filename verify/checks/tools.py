r"""Shared evidence-making tools for the checks: exact comparison, confidence bounds, searches, fits.

Error model (used by every sampled check):

- Probabilities are Clopper–Pearson intervals at confidence 1 − 10⁻⁶, so a
  sampled verdict is wrong less than once in a million runs.
- Monte-Carlo means are compared with |z| ≤ Z_CRIT = 5.33, the two-sided
  normal tail 10⁻⁷ (< 10⁻⁶ even after a handful of comparisons per check).
- Exponents are least-squares slopes in log–log with a Student-t interval at
  99.9 % confidence.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

CONFIDENCE = 1 - 1e-6
Z_CRIT = 5.33


def clopper_pearson(successes: int, trials: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Exact binomial interval for a proportion."""
    from scipy.stats import beta

    alpha = 1 - confidence
    lo = 0.0 if successes == 0 else float(beta.ppf(alpha / 2, successes, trials - successes + 1))
    hi = 1.0 if successes == trials else float(beta.ppf(1 - alpha / 2, successes + 1, trials - successes))
    return lo, hi


@dataclass(frozen=True)
class ProbabilityComparison:
    """A measured event frequency against a claimed upper bound on its probability."""

    events: int
    trials: int
    claimed_bound: float
    interval: tuple[float, float]

    @property
    def rate(self) -> float:
        return self.events / self.trials

    @property
    def exceeds(self) -> bool:
        """The bound is violated with confidence 1 − 10⁻⁶."""
        return self.interval[0] > self.claimed_bound

    @property
    def respects(self) -> bool:
        """The bound holds with confidence 1 − 10⁻⁶."""
        return self.interval[1] <= self.claimed_bound

    def describe(self) -> str:
        lo, hi = self.interval
        return (f"{self.events}/{self.trials} = {self.rate:.4g} (99.9999% CI [{lo:.3g}, {hi:.3g}]) "
                f"vs claimed <= {self.claimed_bound:.4g}")


def compare_probability(events: int, trials: int, claimed_bound: float) -> ProbabilityComparison:
    return ProbabilityComparison(events, trials, float(claimed_bound), clopper_pearson(events, trials))


@dataclass(frozen=True)
class ExponentFit:
    slope: float
    low: float
    high: float
    intercept: float
    confidence: float = 0.999

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high

    def describe(self) -> str:
        return f"{self.slope:.3f} ({100 * self.confidence:.6g}% CI [{self.low:.3f}, {self.high:.3f}])"


def fit_exponent(x: Sequence[float], y: Sequence[float], confidence: float = 0.999) -> ExponentFit:
    """Slope of log y against log x with a Student-t interval."""
    from scipy.stats import t as student_t

    lx, ly = np.log(np.asarray(x, float)), np.log(np.asarray(y, float))
    if lx.size < 3:
        raise ValueError("an exponent fit needs at least three points")
    A = np.vstack([lx, np.ones_like(lx)]).T
    coef, *_ = np.linalg.lstsq(A, ly, rcond=None)
    resid = ly - A @ coef
    dof = lx.size - 2
    s2 = float(resid @ resid) / dof
    se = math.sqrt(s2 / float(((lx - lx.mean()) ** 2).sum()))
    half = float(student_t.ppf(0.5 + confidence / 2, dof)) * se
    slope = float(coef[0])
    return ExponentFit(slope, slope - half, slope + half, float(coef[1]), confidence)


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


def sympy_difference(claim, derived):
    """(equal, difference) of two SymPy expressions, simplified."""
    import sympy

    diff = sympy.simplify(sympy.expand(claim - derived))
    return diff == 0, diff


def z_score(estimate: float, standard_error: float, reference: float) -> float:
    if standard_error <= 0:
        return 0.0 if estimate == reference else math.inf
    return (estimate - reference) / standard_error
