"""The population dynamics (eq. (6)) and the recovery times.

Dropping the noise and the normalisation error from eq. (5) leaves the deterministic map

    m̄_{t+1} = m̄_t + η h(m̄_t)(1 − m̄_t²),                                    (eq. (6))

and for small η its continuous-time limit dm/dτ = h(m)(1 − m²) in τ = η t.  h is the
closed form of :mod:`verify.model.population` (times 1/ξ² under the Appendix B scaling, and for
W = 0 the scratch closed form of :mod:`verify.simulate.model`).  Weak recovery is the
first step with m ≥ 1/2, strong recovery the first with m ≥ 1 − ε.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from verify.base.errors import InvalidParameterError
from verify.base.validation import count
from verify.model.arithmetic import FLOAT64
from verify.model.fast_kernels import fast_kernel
from verify.model.instance import as_numbers
from verify.model.population import Population
from verify.simulate.model import closed_form_h, closed_form_reason
from verify.simulate.modes import MODES
from verify.simulate.problem import build_problem

WEAK = 0.5


@dataclass(frozen=True)
class DriftPath:
    """m̄ at ``steps``; recovery steps (None when not reached within the horizon)."""

    steps: np.ndarray
    m: np.ndarray
    weak_step: float | None
    strong_step: float | None


def _h(instance, appendix_b_scaling: bool):
    problem = build_problem(instance, MODES["frozen"], appendix_b_scaling)
    reason = closed_form_reason(problem, constrained=True, linearized=False)
    if reason is not None:
        raise InvalidParameterError(f"the drift needs the closed form of h: {reason}")
    return lambda m: closed_form_h(problem, problem.c_hat, m)


def _check(m0: float, lr: float, steps: int, eps: float) -> None:
    if not -1 <= m0 <= 1:
        raise InvalidParameterError(f"m0 must lie in [-1, 1], got {m0!r}")
    if not (math.isfinite(lr) and lr > 0):
        raise InvalidParameterError(f"lr must be a finite number > 0, got {lr!r}")
    count("steps", steps)
    if not 0 < eps < 0.5:
        raise InvalidParameterError(f"eps must lie in (0, 1/2) (strong recovery m >= 1 - eps), got {eps!r}")


def recovery_times(steps: np.ndarray, m: np.ndarray, eps: float = 0.01):
    """(first step with m ≥ 1/2, first step with m ≥ 1 − ε), None where never."""
    out = []
    for level in (WEAK, 1 - eps):
        hit = np.flatnonzero(np.asarray(m) >= level)
        out.append(None if hit.size == 0 else float(np.asarray(steps)[hit[0]]))
    return tuple(out)


def drift_map(instance, m0: float, lr: float, steps: int, eps: float = 0.01,
              appendix_b_scaling: bool = False) -> DriftPath:
    """Iterate eq. (6) ``steps`` times from m0 (m clipped to [−1, 1])."""
    _check(m0, lr, steps, eps)
    h = _h(instance, appendix_b_scaling)
    m = np.empty(steps + 1)
    m[0] = m0
    for t in range(steps):
        mt = m[t]
        m[t + 1] = min(1.0, max(-1.0, mt + lr * float(h(mt)) * (1 - mt * mt)))
    grid = np.arange(steps + 1)
    return DriftPath(grid, m, *recovery_times(grid, m, eps))


def drift_ode(instance, m0: float, lr: float, steps: int, eps: float = 0.01,
              appendix_b_scaling: bool = False, points: int = 1001) -> DriftPath:
    """dm/dτ = h(m)(1 − m²), τ = η t, on t ∈ [0, steps] (``scipy.integrate.solve_ivp``, rtol 1e-10);
    recovery steps from the solver's event location, on the side of the start: s·m ≥ 1/2 and
    s·m ≥ 1 − ε with s = sign(m0) (+1 for m0 = 0), so a run from sign(h(0))/√d towards −u
    (frozen ĉ with h(0) < 0) has recovery times too."""
    # lazy: scipy.integrate costs 0.4 s at import; only the ODE integration needs it
    from scipy.integrate import solve_ivp

    _check(m0, lr, steps, eps)
    h = _h(instance, appendix_b_scaling)

    def rhs(_t, y):
        m = min(1.0, max(-1.0, y[0]))
        return [lr * float(h(m)) * (1 - m * m)]

    side = -1.0 if m0 < 0 else 1.0
    events = [lambda _t, y, level=level: side * y[0] - level for level in (WEAK, 1 - eps)]
    grid = np.linspace(0, steps, points)
    sol = solve_ivp(rhs, (0, steps), [m0], t_eval=grid, events=events, rtol=1e-10, atol=1e-12)
    hits = [float(ev[0]) if len(ev) else None for ev in sol.t_events]
    if side * m0 >= WEAK:
        hits[0] = 0.0
    if side * m0 >= 1 - eps:
        hits[1] = 0.0
    return DriftPath(grid, sol.y[0], hits[0], hits[1])


@dataclass(frozen=True)
class FlowTimes:
    """The population flow's first τ = η t at which |m| reaches each level (inf: not by
    ``tau_max``), and the state where it stopped."""

    levels: tuple[float, ...]
    tau: tuple[float, ...]
    tau_max: float
    m_end: float
    c_overlap_end: float
    evaluations: int


def population_flow(instance, m0: float, c_rate: float, levels: tuple[float, ...] = (WEAK,),
                    tau_max: float = 1e9, rtol: float = 1e-8) -> FlowTimes:
    """The small-step limit of eq. (4) with ĉ trained, in τ = η t:

        dm/dτ = h(m; ĉ)(1 − m²),   dĉ/dτ = −r (I − ĉĉᵀ) ∇_ĉ Φ(m; ĉ),   r = η_ĉ/η (``c_rate``),

    the population û-drift of Proposition 4 (û ⊥ span W) and ĉ's projected population gradient
    (:meth:`verify.model.population.Population.c_gradient`); ``c_rate`` = 0 freezes ĉ (eq. (6)).
    The SGD time at step η is τ/η plus the noise's share, which vanishes as η → 0: the region
    study measures that gap where both run.  Times are for |m| (joint training is symmetric
    under (ĉ, û) → (−ĉ, −û)); ``solve_ivp`` (RK45, ``rtol``) with ĉ renormalised in the right-hand side."""
    # lazy: scipy.integrate costs 0.4 s at import; only the ODE integration needs it
    from scipy.integrate import solve_ivp

    if not -1 <= m0 <= 1:
        raise InvalidParameterError(f"m0 must lie in [-1, 1], got {m0!r}")
    if not (math.isfinite(c_rate) and c_rate >= 0):
        raise InvalidParameterError(f"c_rate must be a finite number >= 0 (eta_c / eta), got {c_rate!r}")
    if not all(0 < level < 1 for level in levels):
        raise InvalidParameterError(f"levels must lie in (0, 1), got {levels!r}")
    numbers = as_numbers(instance)
    kernel = fast_kernel(numbers.activation)
    calls = [0]

    def rhs(_tau, y):
        calls[0] += 1
        m = min(1.0, max(-1.0, y[0]))
        c_hat = y[1:] / np.linalg.norm(y[1:])
        pop = Population(dataclasses.replace(numbers, c_hat=c_hat), FLOAT64, kernel)
        out = np.empty_like(y)
        out[0] = float(pop.h(m)) * (1 - m * m)
        if c_rate:
            grad = pop.c_gradient(m)
            out[1:] = -c_rate * (grad - (grad @ c_hat) * c_hat)
        else:
            out[1:] = 0.0
        return out

    events = [lambda _t, y, level=level: abs(y[0]) - level for level in levels]
    events[int(np.argmax(levels))].terminal = True  # type: ignore[attr-defined]  # solve_ivp reads it
    y0 = np.concatenate([[m0], np.asarray(numbers.c_hat, dtype=float)])
    sol = solve_ivp(rhs, (0.0, float(tau_max)), y0, events=events, rtol=rtol, atol=1e-12)
    tau = tuple(0.0 if abs(m0) >= level else (float(ev[0]) if len(ev) else math.inf)
                for level, ev in zip(levels, sol.t_events, strict=True))
    end = sol.y[:, -1]
    c_end = end[1:] / np.linalg.norm(end[1:])
    return FlowTimes(tuple(levels), tau, float(tau_max), float(end[0]),
                     float(c_end @ np.asarray(numbers.c, dtype=float)), calls[0])
