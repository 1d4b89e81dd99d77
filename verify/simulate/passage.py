"""First-passage runs: many independent online-SGD chains, each stopped when |m| reaches its
highest level, run on all cores in one call.

A region study (:mod:`verify.regions`) asks only when |m_t| = |⟨û_t, u⟩| first reaches a
few levels, over thousands of (instance, activation, step) chains.  Each chain is one
replica of :class:`~verify.simulate.compiled.CompiledEngine` (the exact reduced chain, its
random numbers from child 0 of ``SeedSequence(seed)`` as in :func:`verify.simulate.simulate`,
so a passage run and a ``simulate`` run with the same seed, start and records see the same
samples), read record by record and stopped at the first record where |m| ≥ max(levels): a
run costs the samples it needs, not its horizon.

:func:`run_passages` runs a list of :class:`Passage` on a thread pool: the compiled kernel
releases the GIL (``nogil``), so the threads use every core, and each chain owns its
generator, so the results do not depend on the number of threads or on the order.
(numba's ``prange`` cannot do this: a ``Generator`` cannot be created inside a compiled
region, and one shared stream would make the samples depend on the schedule.)
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from verify.base.errors import ConvergenceError, InvalidParameterError
from verify.simulate.compiled import CompiledEngine
from verify.simulate.model import closed_form_reason
from verify.simulate.modes import get_mode
from verify.simulate.problem import build_problem
from verify.simulate.sgd import LossRecorder
from verify.simulate.streams import generators, root

#: Records per horizon: a first-passage time is the first record at or past the level, so it
#: is an upper bound on the true time within horizon/RECORDS samples.
RECORDS = 400


@dataclass(frozen=True)
class Passage:
    """One chain: ``instance`` trained in ``mode`` with step ``lr`` (ĉ's step ``c_lr``, default
    ``lr``) from ⟨û_0, u⟩ = ``m0`` for at most ``horizon`` samples, seeded by ``seed``."""

    instance: object
    mode: str
    lr: float
    horizon: int
    levels: tuple[float, ...]
    seed: int
    m0: float | None = None
    c_lr: float | None = None
    #: levels of |⟨ĉ_t, c⟩| whose first recorded passage is timed too (ĉ trained)
    c_levels: tuple[float, ...] = ()
    #: run the whole horizon instead of stopping at max(levels) (the final state's loss is wanted)
    to_horizon: bool = False
    #: > 0: the population loss of the final state, a Monte-Carlo mean of this many fresh samples
    #: with its standard error where there is no closed form (the closed form, SE 0, elsewhere)
    loss_samples: int = 0
    #: records over the horizon: a first-passage time is read to within horizon/records samples
    records: int = RECORDS


def _diverged(step: int, _replica: int, what: str, norm: float) -> None:
    raise ConvergenceError(f"diverged at sample {step}: the {what} iterate's norm became {norm!r}")


def _first_records(levels: tuple[float, ...], times: list[float], value: float, samples: int) -> None:
    for i, level in enumerate(levels):
        if math.isinf(times[i]) and abs(value) >= level:
            times[i] = float(samples)


def first_passage(job: Passage) -> dict:
    """``{"times": [first recorded sample with |m| >= level, inf if not by the horizon],
    "c_times": the same for |⟨ĉ, c⟩| and ``c_levels``, "samples": samples run, "diverged":
    bool, "m_end": last recorded m, "loss"/"loss_se": the final state's population loss and
    its standard error (None unless ``loss_samples``)}``."""
    mode = get_mode(job.mode)
    problem = build_problem(job.instance, mode)
    # the loss's Monte-Carlo samples come from a second child stream, so asking for the loss
    # leaves the chain's own samples unchanged
    rngs = generators(root(job.seed), 2)
    engine = CompiledEngine(problem, mode, rngs[:1], init="random", m0=job.m0)
    every = max(1, job.horizon // job.records)
    records = [0, *([every] * (job.horizon // every))]
    times = [math.inf] * len(job.levels)
    c_times = [math.inf] * len(job.c_levels)
    top = max(job.levels)
    samples, m = 0, float(job.m0 or 0.0)
    out: dict = {"times": times, "c_times": c_times, "loss": None, "loss_se": None}
    snap = None
    keep = job.loss_samples > 0  # the state (a, β, ĉ) of each record, which the loss reads
    try:
        for j, snap in enumerate(engine.records(job.lr, records, keep, _diverged, eta_c=job.c_lr)):
            samples = j * every
            m = float(snap.m[0])
            _first_records(job.levels, times, m, samples)
            _first_records(job.c_levels, c_times, float(snap.c_overlap[0]), samples)
            if abs(m) >= top and not job.to_horizon:
                break
    except ConvergenceError:
        return {**out, "samples": samples, "diverged": True, "m_end": math.nan}
    if keep and snap is not None:
        reason = closed_form_reason(problem, mode.constrained, mode.linearized)
        loss, se = LossRecorder(problem, mode, reason, job.loss_samples, rngs[1])(snap, np.array([m]))
        out["loss"], out["loss_se"] = float(loss[0]), 0.0 if se is None else float(se[0])
    return {**out, "samples": samples, "diverged": False, "m_end": m}


def default_threads() -> int:
    """``$VERIFY_THREADS`` if set, else the cores this process may run on."""
    value = os.environ.get("VERIFY_THREADS")
    if value:
        if not value.strip().isdigit() or int(value) < 1:
            raise InvalidParameterError(f"VERIFY_THREADS must be a whole number >= 1, got {value!r}")
        return int(value)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def run_passages(jobs: list[Passage], threads: int | None = None) -> list[dict]:
    """:func:`first_passage` of every job, in order, on ``threads`` threads (default
    :func:`default_threads`); the results are the same for any number of threads."""
    threads = default_threads() if threads is None else threads
    if threads <= 1 or len(jobs) <= 1:
        return [first_passage(job) for job in jobs]
    # longest first: the pool's tail is then short chains
    order = sorted(range(len(jobs)), key=lambda i: -jobs[i].horizon)
    with ThreadPoolExecutor(max_workers=threads) as pool:
        results = dict(zip(order, pool.map(first_passage, [jobs[i] for i in order]), strict=True))
    return [results[i] for i in range(len(jobs))]


def seeds_for(base: int, n: int) -> np.ndarray:
    """``n`` chain seeds from one base seed (children of ``SeedSequence(base)``, as integers)."""
    return np.array([int(s.generate_state(1, np.uint64)[0] >> np.uint64(1))
                     for s in np.random.SeedSequence(base).spawn(n)], dtype=np.int64)
