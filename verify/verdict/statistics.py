r"""The statistics behind sampled verdicts: confidence bounds, z-scores and exponent fits.

Error model (used by every sampled check and claim):

- Probabilities are Clopper–Pearson intervals at confidence 1 − 10⁻⁶, so a
  sampled verdict is wrong less than once in a million runs.
- Monte-Carlo means are compared with |z| ≤ Z_CRIT = 5.33, the two-sided
  normal tail 10⁻⁷ (< 10⁻⁶ even after a handful of comparisons per check).
- Exponents are least-squares slopes in log–log with a Student-t interval at
  99.9 % confidence.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

CONFIDENCE = 1 - 1e-6
Z_CRIT = 5.33


def clopper_pearson(successes: int, trials: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Exact binomial interval for a proportion."""
    alpha = 1 - confidence
    # lazy: scipy.stats costs 0.6 s at import; only sampled verdicts need it
    from scipy.stats import beta

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
    lx, ly = np.log(np.asarray(x, float)), np.log(np.asarray(y, float))
    if lx.size < 3:
        raise ValueError("an exponent fit needs at least three points")
    A = np.vstack([lx, np.ones_like(lx)]).T
    coef, *_ = np.linalg.lstsq(A, ly, rcond=None)
    resid = ly - A @ coef
    dof = lx.size - 2
    s2 = float(resid @ resid) / dof
    se = math.sqrt(s2 / float(((lx - lx.mean()) ** 2).sum()))
    # lazy: scipy.stats costs 0.6 s at import; only fitted verdicts need it
    from scipy.stats import t as student_t

    half = float(student_t.ppf(0.5 + confidence / 2, dof)) * se
    slope = float(coef[0])
    return ExponentFit(slope, slope - half, slope + half, float(coef[1]), confidence)


def z_score(estimate: float, standard_error: float, reference: float) -> float:
    if standard_error <= 0:
        return 0.0 if estimate == reference else math.inf
    return (estimate - reference) / standard_error
