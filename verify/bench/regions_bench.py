"""The region study's engine, side by side with its baselines (``verify bench --only regions``).

- ``passage_vs_unavoidable``: a first-passage chain's cost per sample (joint, ReLU, k = 10,
  d = 100, the quick study's size) against the unavoidable work per sample (the normals and
  χ² it draws and ⟨w_j, x⟩, ⟨u, x⟩, ⟨û, x⟩; :func:`verify.bench.simulator_bench.unavoidable_samples`),
  target ≤ 2;
- ``threads``: :func:`verify.simulate.passage.run_passages` on every core against one thread
  (the nogil kernel; target ≥ 0.8 × cores where there are 2 or more);
- ``dask``: one batch of region tasks on a local dask cluster of 2 workers against 1 (one
  thread each; cluster start-up not timed; target ≥ 1.6, near-linear).
"""

from __future__ import annotations

import dataclasses
import os
import time

import numpy as np

from verify.base.sweep import Task, run_sweep
from verify.bench.simulator_bench import unavoidable_samples
from verify.model.instance import separated
from verify.regions.runs import instance_task
from verify.regions.spec import ACTIVATION_STUDY, Tier
from verify.simulate.modes import MODES
from verify.simulate.passage import Passage, default_threads, first_passage, run_passages
from verify.simulate.problem import build_problem


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _dask_ratio(tasks: list[Task]) -> tuple[float, float]:
    """Wall seconds of ``tasks`` on a local cluster of 1 and of 2 single-threaded workers."""
    # lazy: dask is an optional extra, and a cluster costs seconds to start
    from distributed import LocalCluster

    walls = []
    for workers in (1, 2):
        with LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            env={"VERIFY_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"},
        ) as cluster:
            run_sweep(tasks[:1], scheduler=cluster.scheduler_address, use_cache=False)  # warm the workers
            walls.append(
                _timed(lambda: run_sweep(tasks, scheduler=cluster.scheduler_address, use_cache=False))
            )
    return walls[0], walls[1]


def run(quick: bool = False) -> dict:
    k, d = 10, 100
    samples, chains = (20_000, 4) if quick else (400_000, 16)
    inst = separated(k, d, 1.0, "relu", seed=0, quantized=False)
    # a level no chain reaches: every chain runs its whole horizon
    jobs = [Passage(inst, "joint", 0.3 / d, samples, (0.999,), seed, m0=0.0) for seed in range(chains)]
    problem = build_problem(inst, MODES["joint"])
    LT = np.ascontiguousarray(problem.L.T)
    a = np.full(problem.p, 1 / np.sqrt(problem.p))
    rng = np.random.default_rng(1)
    df = problem.d - problem.p - 1
    first_passage(jobs[0])  # compile or load the kernels
    unavoidable_samples(rng, 10, LT, problem.uc, a, df)
    per, floor = [], []
    for job in jobs[:3]:
        per.append(_timed(lambda job=job: first_passage(job)) / samples)
        floor.append(_timed(lambda: unavoidable_samples(rng, samples, LT, problem.uc, a, df)) / samples)
    cores = default_threads()
    one = _timed(lambda: run_passages(jobs, threads=1))
    many = _timed(lambda: run_passages(jobs, threads=cores))
    tier = dataclasses.asdict(
        Tier(
            k=k,
            d=d,
            instances=1,
            grid_top=5.0,
            grid_bottom=-1.0,
            grid_step=0.5,
            sgd_cap=100_000 if quick else 400_000,
        )
    )
    curves = [dataclasses.asdict(c) for c in ACTIVATION_STUDY.curves]
    tasks = [
        Task(
            instance_task,
            {"curves": curves, "level": 0.5, "tier": tier, "seed": seed, "lam_shape": "equal", "xi": 1.0},
        )
        for seed in range(4 if quick else 12)
    ]
    dask_one, dask_two = _dask_ratio(tasks)
    rows = [
        {
            "benchmark": "passage_vs_unavoidable (joint, relu, k=10, d=100, per sample)",
            "ours_us": round(min(per) * 1e6, 3),
            "baseline_us": round(min(floor) * 1e6, 3),
            "ratio": round(min(per) / min(floor), 2),
            "target": "<= 2",
        },
        {
            "benchmark": f"run_passages, {cores} threads vs 1 ({chains} chains, speed-up)",
            "ours_us": round(many / (chains * samples) * 1e6, 3),
            "baseline_us": round(one / (chains * samples) * 1e6, 3),
            "ratio": round(one / many, 2),
            "target": f">= {0.8 * cores:g}" if cores >= 2 else "",
        },
        {
            "benchmark": f"region tasks on dask, 2 local workers vs 1 ({len(tasks)} tasks, speed-up)",
            "ours_us": round(dask_two * 1e6 / len(tasks), 1),
            "baseline_us": round(dask_one * 1e6 / len(tasks), 1),
            "ratio": round(dask_one / dask_two, 2),
            "target": ">= 1.6" if (os.cpu_count() or 1) >= 2 else "",
        },
    ]
    return {
        "name": "regions",
        "k": k,
        "d": d,
        "threads": cores,
        "unit": "seconds per sample (per task for dask), x 1e6",
        "rows": rows,
    }
