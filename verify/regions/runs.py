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
from verify.simulate.modes import get_mode
from verify.simulate.passage import RECORDS, Passage, run_passages, seeds_for

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


def make_instance(k: int, d: int, xi: float, activation: str, seed: int, lam_shape: str,
                  alpha: float | None = None):
    return instances.separated(
        k, d, xi, activation, seed=seed, quantized=False, lam=lam_vector(lam_shape, k, seed), alpha=alpha
    )


def _none_if_inf(x: float) -> float | None:
    return None if math.isinf(x) else float(x)


#: The modes whose small-step limit is the population flow: û projected onto span(W)⊥, the
#: flow's own assumption.  In the others (û free to enter span W) the flow sets the curve's
#: start and horizon only, and never stands in for its SGD times.
FLOW_MODES = ("frozen", "joint")


def _flow_record(curve: Curve, inst, levels: list[float]) -> dict:
    """The curve's population flow: h(0), the start m₀ = sign(h(0))/√d, τ per level, and
    whether the flow describes the curve's runs (``flow``)."""
    pop = population(inst)
    h0 = float(pop.h(0.0))
    m0 = math.copysign(1.0, h0) / math.sqrt(inst.d)
    c_rate = 1.0 if get_mode(curve.mode).train_c else 0.0
    flow = population_flow(inst, m0, c_rate, tuple(levels), TAU_MAX, rtol=1e-6)
    return {
        "h0": h0,
        "m0": m0,
        "tau": [_none_if_inf(x) for x in flow.tau],
        "flow": curve.mode in FLOW_MODES,
        "flow_m_end": flow.m_end,
        "frozen_residual_loss": float(pop.loss(1.0)),
    }


def _yardstick_record(curve: Curve, yardstick: dict, levels: list[float]) -> dict:
    """A curve without a flow of its own: the yardstick's h(0) and m₀, no τ of its own."""
    return {
        "h0": yardstick["h0"],
        "m0": yardstick["m0"],
        "tau": [None] * len(levels),
        "flow": False,
        "yardstick": curve.yardstick,
        "horizon_tau": [
            None if t is None else t * curve.horizon_factor
            for t in yardstick.get("horizon_tau", yardstick["tau"])
        ],
        "flow_m_end": None,
        "frozen_residual_loss": None,
    }


def _setups(curves: list[dict], t: Tier, seed: int, lam_shape: str, xi: float, timed: list[float],
            level: float):
    """Per curve, in order: (curve, instance, its flow record, the horizon's τ at ``level``)."""
    records: dict[str, dict] = {}
    for curve in (Curve(**c) for c in curves):
        own_xi = xi if curve.xi_over_sqrt_k is None else curve.xi_over_sqrt_k * math.sqrt(t.k)
        inst = make_instance(t.k, t.d, own_xi, curve.activation, seed, lam_shape, curve.alpha)
        if curve.yardstick is None:
            record = _flow_record(curve, inst, timed)
        else:
            record = _yardstick_record(curve, records[curve.yardstick], timed)
        records[curve.label] = record
        tau = (record.get("horizon_tau") or record["tau"])[timed.index(level)]
        yield curve, inst, record, math.inf if tau is None else tau


def _passage(curve: Curve, inst, record: dict, t: Tier, g: int, tau: float, chain_seed: int,
             timed: list[float],
             c_timed: tuple, to_horizon: bool, loss_samples: int) -> Passage | None:
    """The SGD run of ``curve`` at grid step ``g`` seeded by ``chain_seed``, or None where its
    horizon HORIZON_OVER_FLOW·τ/η exceeds the tier's ``sgd_cap``."""
    lr = t.grid[g] / t.d
    horizon = HORIZON_OVER_FLOW * tau / lr if math.isfinite(tau) else math.inf
    if horizon > t.sgd_cap:
        return None
    return Passage(
        inst,
        curve.mode,
        lr,
        max(100, math.ceil(horizon)),
        tuple(timed),
        int(chain_seed),
        m0=record["m0"],
        c_levels=c_timed,
        to_horizon=to_horizon,
        loss_samples=loss_samples,
        # the yardstick's record spacing: times of curves with longer horizons are as fine as
        # the yardstick's
        records=math.ceil(RECORDS * curve.horizon_factor),
    )


def _chain_seeds(seed: int, grid_steps: int, replicas: int = 1) -> np.ndarray:
    """Replica r's chain at grid step g is seeded by child r·len(grid) + g of one SeedSequence per
    instance: ``spawn`` is deterministic by index, so replica 0 is the instance's first run
    whatever the number of replicas, and replicas never share a stream."""
    return seeds_for(int(np.random.SeedSequence([seed, SGD_STREAM]).generate_state(1)[0]),
                     grid_steps * replicas)


def _timing(tier: dict, level: float, levels: list[float] | None, c_levels: list[float] | None):
    """(the tier, the |m| levels a run times: ``levels`` with 1/2 and ``level``, the |⟨ĉ, c⟩| levels)."""
    return Tier(**tier), sorted(set(levels or ()) | {0.5, level}), tuple(c_levels or ())


def _passage_record(timed: list[float], c_timed: tuple, res: dict) -> dict:
    """What one run contributes: its times per |m| level and |⟨ĉ, c⟩| level, loss and state."""
    return {
        "sgd_at": {f"{x:g}": _none_if_inf(time) for x, time in zip(timed, res["times"], strict=True)},
        "sgd_c_at": {f"{x:g}": _none_if_inf(time) for x, time in zip(c_timed, res["c_times"], strict=True)},
        "loss": res["loss"],
        "loss_se": res["loss_se"],
        "samples": res["samples"],
        "diverged": res["diverged"],
    }


def instance_task(
    curves: list[dict],
    level: float,
    tier: dict,
    seed: int,
    lam_shape: str,
    xi: float,
    levels: list[float] | None = None,
    c_levels: list[float] | None = None,
    to_horizon: bool = False,
    loss_samples: int = 0,
) -> dict:
    """Every curve (``{"label", "activation", "mode", ...}``) on instance ``seed`` with λ
    ``lam_shape`` at ``xi``, timed to every level of ``levels`` (default ``level`` and 1/2) and
    |⟨ĉ, c⟩| to ``c_levels``; each run stops at the highest level unless ``to_horizon``, and
    with ``loss_samples`` it ends with its population loss.  The horizon is
    HORIZON_OVER_FLOW × the flow's τ at ``level``.  Everything that defines the runs is a
    parameter, so the sweep cache's key is the whole task."""
    t, timed, c_timed = _timing(tier, level, levels, c_levels)
    grid = t.grid
    seeds = _chain_seeds(seed, len(grid))
    out_curves: dict[str, dict] = {}
    jobs: list[Passage] = []
    where: list[tuple[str, int]] = []
    for curve, inst, record, tau in _setups(curves, t, seed, lam_shape, xi, timed, level):
        out_curves[curve.label] = {
            **record,
            "levels": timed,
            "sgd_at": {f"{x:g}": [None] * len(grid) for x in timed},
            "sgd_c_at": {f"{x:g}": [None] * len(grid) for x in c_timed},
            "loss": [None] * len(grid),
            "loss_se": [None] * len(grid),
            "samples": [0] * len(grid),
            "diverged": [False] * len(grid),
            "ran": [],
        }
        for g in range(len(grid)):
            job = _passage(curve, inst, record, t, g, tau, seeds[g], timed, c_timed, to_horizon, loss_samples)
            if job is not None:
                jobs.append(job)
                where.append((curve.label, g))
    for (label, g), res in zip(where, run_passages(jobs), strict=True):
        out = out_curves[label]
        run = _passage_record(timed, c_timed, res)
        for x in timed:
            out["sgd_at"][f"{x:g}"][g] = run["sgd_at"][f"{x:g}"]
        for x in c_timed:
            out["sgd_c_at"][f"{x:g}"][g] = run["sgd_c_at"][f"{x:g}"]
        for name in ("loss", "loss_se", "samples", "diverged"):
            out[name][g] = run[name]
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


def replica_task(
    curves: list[dict],
    level: float,
    tier: dict,
    seed: int,
    lam_shape: str,
    xi: float,
    steps: list[list],
    replicas: int,
    levels: list[float] | None = None,
    c_levels: list[float] | None = None,
    to_horizon: bool = False,
    loss_samples: int = 0,
) -> dict:
    """Replicas 1, …, ``replicas`` − 1 of the SGD runs of :func:`instance_task` (same
    arguments) at the ``steps`` [curve label, grid index] its judge tuned: each an independent
    chain (its own seed), so a tuned time is judged from the median of ``replicas`` runs and not
    from the one run that made it the fastest.  Returns {label: {g: [run, …]}} (str keys)."""
    t, timed, c_timed = _timing(tier, level, levels, c_levels)
    grid = t.grid
    seeds = _chain_seeds(seed, len(grid), replicas)
    wanted = {(label, int(g)) for label, g in steps}
    jobs: list[Passage] = []
    where: list[tuple[str, int]] = []
    for curve, inst, record, tau in _setups(curves, t, seed, lam_shape, xi, timed, level):
        for g in sorted(g for label, g in wanted if label == curve.label):
            for r in range(1, replicas):
                job = _passage(curve, inst, record, t, g, tau, seeds[r * len(grid) + g], timed, c_timed,
                               to_horizon, loss_samples)
                if job is not None:
                    jobs.append(job)
                    where.append((curve.label, g))
    out: dict[str, dict[str, list]] = {}
    for (label, g), res in zip(where, run_passages(jobs), strict=True):
        out.setdefault(label, {}).setdefault(str(g), []).append(_passage_record(timed, c_timed, res))
    return out
