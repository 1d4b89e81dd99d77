r"""Monte-Carlo quantities of claims and their error model.

``grad_var(m)`` = E‖∇̂L(û; x)‖² at ⟨u, û⟩ = m, the second moment of the projected sample
gradient (Condition 2, Lemma 17 with p = 1), from the reduced engine of
:func:`verify.simulate.montecarlo.estimate_gradient` (exact in distribution).  That routine
reports, per run, the mean q̄ and standard error of the component q along u − mû and the mean
energy of the residual; since ‖g‖² = resid + q²(1 − m²), one run's mean of ‖g‖² is

    resid̄ + (1 − m²)·(q̄² + (n − 1)·se_q²)       (the mean of q² over the run, exactly).

The standard error comes from :data:`BATCHES` independent runs (batch means): the estimate is
their average, its standard error their standard deviation over √B.

Error model.  A comparison of a claim's two sides fails when the violation exceeds
t·SE, with t the two-sided 10⁻⁷ quantile of Student's t with B − 1 degrees of freedom
(:func:`t_critical`, 6.89 for B = 32), so that a false failure is rarer than one in ten million per
comparison and below 10⁻⁶ over the handful of points a claim compares.  Several Monte-Carlo
values in one claim combine by the delta method with |∂D/∂G_i|·SE_i added (a bound that holds
whatever their correlation).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np

from verify.simulate.montecarlo import estimate_gradient

BATCHES = 32
#: Samples per batch (quick / --full): 32·2000 = 64 000 samples per value in the default run.
BATCH_SAMPLES = (2_000, 20_000)
#: Two-sided tail probability of one comparison (see the module docstring).
TAIL = 1e-7


@cache
def t_critical(batches: int = BATCHES) -> float:
    # lazy: scipy.stats costs 0.6 s at import; only Monte-Carlo claims need the t quantile
    from scipy.stats import t

    return float(t.ppf(1 - TAIL / 2, batches - 1))


@dataclass(frozen=True)
class Estimate:
    """A Monte-Carlo mean with its standard error (batch means) and the total sample count."""

    mean: float
    se: float
    samples: int


_ESTIMATES: dict = {}


def gradient_energy(model, xi: float, m: float, full: bool = False, seed: int = 0) -> Estimate:
    """E‖∇̂L‖² at overlap m for the model at scale ξ (module docstring), cached per process."""

    key = (model, float(xi), float(m), full, seed)
    if key in _ESTIMATES:
        return _ESTIMATES[key]
    n = BATCH_SAMPLES[full]
    instance = model.instance(xi)
    seeds = np.random.SeedSequence([seed, model.seed, model.k, model.d]).generate_state(BATCHES)
    means = []
    for batch_seed in seeds:
        run = estimate_gradient(instance, float(m), n, engine="reduced", seed=int(batch_seed))
        square_q = run.component**2 + (n - 1) * run.component_se**2
        means.append(run.residual_noise**2 * n + (1 - m**2) * square_q)
    values = np.array(means)
    estimate = Estimate(float(values.mean()), float(values.std(ddof=1) / math.sqrt(BATCHES)), n * BATCHES)
    _ESTIMATES[key] = estimate
    return estimate
