"""Run a region study: its sweep (one task per instance, λ shape and ξ), the verdicts, and
``regions.NAME.json`` plus one heat map ``NAME.regions.png`` per figure in the output directory."""

from __future__ import annotations

import dataclasses
import json
import os
import time

from verify.base.files import write_atomic
from verify.base.sweep import Task, run_sweep
from verify.base.threads import blas_kernel
from verify.regions.judge import flow_gaps, judge_claim, replicated_steps
from verify.regions.plot import heat_map
from verify.regions.runs import instance_task, replica_task
from verify.regions.spec import (
    CONFIDENCE,
    HORIZON_OVER_FLOW,
    LAMBDA_SHAPES,
    REPLICAS,
    StudySpec,
    curve_params,
)


def tasks(spec: StudySpec, tier_name: str) -> tuple[list[Task], list[tuple[str, str]]]:
    tier = spec.tiers[tier_name]
    out, keys = [], []
    for xi_label, xi in spec.xi_values(tier.k).items():
        for shape in LAMBDA_SHAPES:
            for seed in range(tier.instances):
                out.append(
                    Task(
                        instance_task,
                        {
                            "curves": [curve_params(c) for c in spec.curves],
                            "level": spec.level,
                            "tier": dataclasses.asdict(tier),
                            "seed": seed,
                            "lam_shape": shape,
                            "xi": xi,
                            **spec.task_options(),
                        },
                    )
                )
                keys.append((xi_label, shape))
    return out, keys


def _add_replicas(spec: StudySpec, todo: list[Task], results: list[dict], keys: list[tuple[str, str]],
                  gaps: dict, d: int, scheduler, workers, progress: bool) -> None:
    """The second sweep: REPLICAS − 1 more runs at every step a claim tuned on each instance,
    stored in its result as ``replicas`` (one task per instance, cached like the first)."""
    second, owners = [], []
    for task, result, (xi_label, _) in zip(todo, results, keys, strict=True):
        steps = replicated_steps(spec, result, d, gaps[spec.figure_of(xi_label)]["flow_used"],
                                 spec.figure_of(xi_label))
        if steps:
            second.append(Task(replica_task, {**task.params, "steps": steps, "replicas": REPLICAS}))
            owners.append(result)
    for result, replicas in zip(owners, run_sweep(second, scheduler=scheduler, workers=workers,
                                                  progress=progress), strict=True):
        result["replicas"] = replicas


def run_study(
    spec: StudySpec,
    quick: bool,
    out_dir: str,
    scheduler: str | None = None,
    workers: int | None = None,
    progress: bool = False,
) -> dict:
    tier_name = "quick" if quick else "full"
    tier = spec.tiers[tier_name]
    todo, keys = tasks(spec, tier_name)
    start = time.perf_counter()
    results = run_sweep(todo, scheduler=scheduler, workers=workers, progress=progress)
    runs: dict[tuple[str, str], list[dict]] = {}
    for key, result in zip(keys, results, strict=True):
        runs.setdefault(key, []).append(result)
    figures = sorted(
        {spec.figure_of(xi) for xi, _ in runs},
        key=list(dict.fromkeys(spec.figure_of(x) for x in spec.xis)).index,
    )
    gaps = {
        fig: flow_gaps(
            [r for (xi, _), group in runs.items() if spec.figure_of(xi) == fig for r in group],
            spec.level,
            tier.d,
        )
        for fig in figures
    }
    _add_replicas(spec, todo, results, keys, gaps, tier.d, scheduler, workers, progress)
    claims = [judge_claim(spec, claim, runs, tier.d, gaps) for claim in spec.claims]
    samples = sum(sum(c["samples"]) for group in runs.values() for r in group for c in r["curves"].values())
    samples += sum(run["samples"] for group in runs.values() for r in group
                   for steps in r.get("replicas", {}).values() for step in steps.values() for run in step)
    doc = {
        "study": spec.name,
        "paper": spec.paper,
        "tier": tier_name,
        "sizes": dataclasses.asdict(tier),
        "grid_eta_d": tier.grid,
        "lambda_shapes": list(LAMBDA_SHAPES),
        "confidence": CONFIDENCE,
        "replicas_at_tuned_steps": REPLICAS,
        "horizon_over_flow": HORIZON_OVER_FLOW,
        "choices": spec.choices,
        "curves": [dataclasses.asdict(c) for c in spec.curves],
        "xi": spec.xi_values(tier.k),
        "flow_gap": gaps,
        "claims": claims,
        # the last bits of SGD at large steps follow OpenBLAS's kernel (verify.base.threads); this
        # process's kernel, which local workers inherit (a dask cluster's workers may differ)
        "blas_kernel": blas_kernel(),
        "cost": {"sgd_samples": samples, "tasks": len(todo), "wall_s": round(time.perf_counter() - start, 1)},
    }
    write_atomic(os.path.join(out_dir, f"regions.{spec.name}.json"), json.dumps(doc, indent=1))
    for fig in figures:
        heat_map(
            os.path.join(out_dir, f"{fig}.regions.png"),
            fig,
            [c for c in claims if c["figure"] == fig],
            spec.paper,
        )
    return doc
