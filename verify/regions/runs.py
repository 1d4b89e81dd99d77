"""One sweep task of a region study: every curve of one (instance, λ shape, ξ) on the step grid.

Per curve: the population flow's times τ_level (:func:`verify.simulate.drift.population_flow`;
the SGD time at step η is about τ/η), then a first-passage SGD run at each grid step whose
horizon HORIZON_OVER_FLOW·τ/η fits the tier's ``sgd_cap`` (all run in one
:func:`verify.simulate.passage.run_passages` call), and the per-instance quantities that
:mod:`verify.regions.judge` tests as explanations.  Not reached is ``None`` (the sweep cache
stores finite JSON only).
"""

from __future__ import annotations

import math

import numpy as np

from verify.model import instance as instances
from verify.model.population import population
from verify.regions.spec import HORIZON_OVER_FLOW, Curve, Tier
from verify.simulate.drift import population_flow
from verify.simulate.passage import Passage, run_passages, seeds_for

#: The flow integrates to this τ at most; beyond it a curve is "not reached by the flow".
TAU_MAX = 1e9
#: SGD seeds: child i of SeedSequence([instance seed, SGD_STREAM]) drives grid chain i.
SGD_STREAM = 28


def lam_vector(shape: str, k: int, seed: int) -> np.ndarray:
    """λ of ``shape`` (:data:`~verify.regions.spec.LAMBDA_SHAPES`) for instance ``seed``."""
    if shape == "equal":
        return np.full(k, 1.0 / k)
    if shape == "signed":
        signs = np.random.default_rng(np.random.SeedSequence([seed, 1])).choice([-1.0, 1.0], size=k)
        return signs / k
    raise ValueError(f"unknown lambda shape {shape!r}")


def make_instance(k: int, d: int, xi: float, activation: str, seed: int, lam_shape: str):
    return instances.separated(
        k, d, xi, activation, seed=seed, quantized=False, lam=lam_vector(lam_shape, k, seed)
    )


def _none_if_inf(x: float) -> float | None:
    return None if math.isinf(x) else float(x)


def instance_task(curves: list[dict], level: float, tier: dict, seed: int, lam_shape: str, xi: float) -> dict:
    """Every curve (``{"label", "activation", "mode"}``) on instance ``seed`` with λ ``lam_shape``
    at ``xi``, timed to ``level`` (and to 1/2); everything that defines the runs is a parameter,
    so the sweep cache's key is the whole task."""
    t = Tier(**tier)
    levels = sorted({0.5, level})
    grid = t.grid
    out_curves, jobs, where = {}, [], []
    for curve in (Curve(**c) for c in curves):
        own_xi = xi if curve.xi_over_sqrt_k is None else curve.xi_over_sqrt_k * math.sqrt(t.k)
        inst = make_instance(t.k, t.d, own_xi, curve.activation, seed, lam_shape)
        pop = population(inst)
        h0 = float(pop.h(0.0))
        m0 = math.copysign(1.0, h0) / math.sqrt(t.d)
        flow = population_flow(
            inst, m0, 1.0 if curve.mode == "joint" else 0.0, tuple(levels), TAU_MAX, rtol=1e-6
        )
        tau = flow.tau[levels.index(level)]
        out_curves[curve.label] = {
            "h0": h0,
            "m0": m0,
            "tau": [_none_if_inf(x) for x in flow.tau],
            "levels": levels,
            "flow_m_end": flow.m_end,
            "frozen_residual_loss": float(pop.loss(1.0)),
            "sgd": [None] * len(grid),
            "samples": [0] * len(grid),
            "diverged": [False] * len(grid),
            "ran": [],
        }
        seeds = seeds_for(int(np.random.SeedSequence([seed, SGD_STREAM]).generate_state(1)[0]), len(grid))
        for g, eta_d in enumerate(grid):
            lr = eta_d / t.d
            horizon = HORIZON_OVER_FLOW * tau / lr if math.isfinite(tau) else math.inf
            if horizon <= t.sgd_cap:
                jobs.append(
                    Passage(
                        inst, curve.mode, lr, max(100, math.ceil(horizon)), (level,), int(seeds[g]), m0=m0
                    )
                )
                where.append((curve.label, g))
    for (label, g), res in zip(where, run_passages(jobs), strict=True):
        out = out_curves[label]
        out["sgd"][g] = _none_if_inf(res["times"][0])
        out["samples"][g] = res["samples"]
        out["diverged"][g] = res["diverged"]
        out["ran"].append(g)
    inst = make_instance(t.k, t.d, xi, "relu", seed, lam_shape)
    lam = lam_vector(lam_shape, t.k, seed)
    return {
        "curves": out_curves,
        "grid": grid,
        "quantities": {
            "lam_c": float(abs(lam @ inst.c)),
            "lam_c_hat": float(abs(lam @ inst.c_hat)),
            "c_overlap": float(inst.c @ inst.c_hat),
        },
    }
