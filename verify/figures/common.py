"""What every figure shares: sweep task functions, the plotted table, the three files.

A figure module (see :mod:`verify.figures`) declares ``NAME``, ``PARAMS`` (``"quick"``
and ``"full"``), ``CHOICES`` (the parameters Appendix B leaves out, what was chosen and
why), ``compute(params, scheduler, progress) -> rows``, ``plot(table, fig)`` and
``claims(table)``.  :func:`run_figure` turns that into NAME.csv (exactly the plotted
data), NAME.png and NAME.json.

The table is long format, one row per plotted point: ``panel, series, quantity, step,
value`` (``quantity`` is ``m``, ``c_overlap``, ``loss``, ``ode_m``, ``steps_to_recovery``,
...).  Numbers are written with ``repr`` precision, so a CSV is a pure function of the
parameters and seeds: the same bytes whichever executor of :mod:`verify.base.sweep` ran the
tasks.

Sweep tasks are the module-level functions below; each takes a JSON-able instance spec
(:func:`make_instance`) and its own seed.
"""

from __future__ import annotations

import copy
import csv
import io
import math
import os

import numpy as np

from verify.base.sweep import run_sweep
from verify.figures.instances import make_instance, theorem_start
from verify.figures.paper_setup import simulate_kwargs
from verify.simulate import drift_ode, simulate
from verify.simulate.modes import MODES

#: Weak recovery (Appendix C.1, drift.WEAK) and the "reaches m ≥ 0.9" level of the claims.
WEAK = 0.5
STRONG = 0.9
#: The JSON status of a claim the --full data do not reproduce (the claim stays, holds: false).
NOT_REPRODUCED_AT_FULL_STATUS = "not reproduced at full size"
#: How a caption claim a figure declares not reproduced at the quick size is marked when it fails.
NOT_REPRODUCED_AT_QUICK_STATUS = "not reproduced at quick size"
COLUMNS = ("panel", "series", "quantity", "step", "value")


# --- sweep tasks --------------------------------------------------------------------------
def _start(inst, m0) -> float | None:
    if m0 == "theorem":
        return theorem_start(inst)
    if m0 == "typical":  # the typical overlap of a random start, with a fixed sign
        return 1.0 / math.sqrt(inst.d)
    return m0


def sgd_task(instance: dict, mode: str, steps: int, lr: float, replicas: int, seed: int,
             record_every: int, m0=None, loss_samples: int = 0, batch: int = 1,
             model: str = "normalised", c_lr_ratio: float | None = None) -> dict:
    """One :func:`verify.simulate.simulate` run: overlaps (records × replicas) and the loss.
    ``batch`` > 1: sample-equivalent minibatches (``--batch-rule``, see
    :func:`verify.figures.full_tier.sample_batch`); ``model``: the setup's network
    (:mod:`verify.figures.paper_setup`); ``c_lr_ratio``: ĉ's step over û's (None: the same)."""

    inst = make_instance(instance)
    tr = simulate(inst, mode=mode, steps=steps, lr=lr, replicas=replicas, seed=seed,
                  record_every=record_every, quiet=True, m0=_start(inst, m0),
                  loss_samples=loss_samples, batch=batch, **simulate_kwargs(inst.k, inst.xi, model),
                  c_lr=None if c_lr_ratio is None else lr * c_lr_ratio)
    out = {"steps": tr.steps, "m": tr.m, "c_overlap": tr.c_overlap, "engine": tr.meta["engine"],
           "batch": tr.meta["batch"]}
    if tr.loss is not None:
        out["loss"] = np.broadcast_to(tr.loss, tr.m.shape).copy() if np.ndim(tr.loss) == 1 else tr.loss
    return out


def drift_task(instance: dict, m0, lr: float, steps: int, points: int = 201, eps: float = 0.01) -> dict:
    """The population ODE dm/dτ = h(m)(1 − m²), τ = ηt (eq. (6)) from the run's start."""

    inst = make_instance(instance)
    start = _start(inst, m0)
    path = drift_ode(inst, 0.0 if start is None else start, lr, steps, eps=eps, points=points)
    return {"steps": path.steps, "m": path.m,
            "weak": math.nan if path.weak_step is None else path.weak_step,
            "strong": math.nan if path.strong_step is None else path.strong_step}


def model_arg(p: dict, mode: str) -> dict:
    """The setup's arguments of an :func:`sgd_task` in ``mode``: ``{"model": "paper"}`` in the
    paper setup, and ĉ's step ratio where a sensitivity run changes it and ``mode`` trains ĉ;
    nothing that is at its default (so the sweep-cache keys of the runs that do not vary it stay
    what they were, and a frozen-ĉ run is shared across ĉ step ratios)."""

    out = {"model": p["model"]} if p.get("model", "normalised") != "normalised" else {}
    ratio = p.get("c_lr_ratio")
    if ratio is not None and ratio != 1.0 and MODES[mode].train_c:
        out["c_lr_ratio"] = float(ratio)
    return out


class TasksCollected(Exception):
    """Raised by :func:`sweep` inside :func:`collecting` after recording a figure's tasks."""


#: While :func:`collecting` runs: the (params, tasks) of each sweep the figure asked for.
_COLLECTED: list | None = None


def collecting(spec, params: dict) -> list:
    """The tasks ``spec.compute(params)`` would sweep, without running them: the runner
    gathers the tasks of several step sizes into one sweep (one process pool), after which
    each ``compute`` finds its results in the sweep cache."""
    global _COLLECTED
    _COLLECTED = []
    try:
        spec.compute(copy.deepcopy(params), None, False)
    except TasksCollected:
        pass
    finally:
        collected, _COLLECTED = _COLLECTED, None
    return [task for _, tasks in collected for task in tasks]


def sweep(p: dict, tasks: list, scheduler, progress) -> list[dict]:
    """:func:`verify.base.sweep.run_sweep`, recording in ``p["runs"]`` the engines that ran the SGD tasks,
    their batch sizes B and each SGD curve's instance, mode, step and model (the JSON's
    ``params.runs``; an ODE task records none of these)."""

    if _COLLECTED is not None:
        _COLLECTED.append((p, list(tasks)))
        raise TasksCollected
    results = run_sweep(tasks, scheduler=scheduler, progress=progress)
    runs = p.setdefault("runs", {"engines": [], "batches": [], "sgd_runs": 0, "curves": []})
    for task in tasks:
        if task.function is sgd_task:
            q = task.params
            curve = {"instance": q["instance"], "mode": q["mode"], "lr": q["lr"],
                     "model": q.get("model", "normalised")}
            if curve not in runs["curves"]:
                runs["curves"].append(curve)
    for res in results:
        if "engine" in res:
            runs["engines"] = sorted({*runs["engines"], str(res["engine"])})
            runs["batches"] = sorted({*runs["batches"], int(res["batch"])})
            runs["sgd_runs"] += 1
    return results


# --- summaries ----------------------------------------------------------------------------
def first_hit(steps: np.ndarray, m: np.ndarray, level: float) -> float:
    """First recorded step with m ≥ level (NaN if never)."""
    hit = np.flatnonzero(np.asarray(m) >= level)
    return float(np.asarray(steps)[hit[0]]) if hit.size else math.nan


#: The JSON key listing the curves that never reached the level within their horizon T.
NOT_REACHED = "not reached within T"


def spread_ratio(times: dict, horizons: dict, key: str) -> tuple[float, dict]:
    """max/min of first-hit times across curves, a curve that never got there counted at its
    horizon T; returns (ratio, JSON numbers).

    A curve that is not reached within T has a time of *at least* T, so with such a curve the
    ratio is only a lower bound, and the JSON key says so (``KEY >=``) and names the curves;
    quoting the spread of the curves that did arrive would understate it (Fig. 4(a) under the
    paper setup read "ratio 1" when one activation of four arrived).  NaN when none arrived.
    """
    reached = [t for t in times.values() if math.isfinite(t)]
    missing = [name for name, t in times.items() if not math.isfinite(t)]
    if not reached:
        return math.nan, {key: math.nan, NOT_REACHED: missing}
    longest = max(reached + [float(horizons[name]) for name in missing])
    ratio = longest / max(min(reached), 1.0)
    if not missing:
        return ratio, {key: ratio}
    return ratio, {f"{key} >=": ratio, NOT_REACHED: missing}


def horizons(table: dict, panel: str, names) -> dict:
    """Each series' last recorded step: the horizon T a curve that never arrived ran to."""
    return {name: float(np.max(select(table, panel, name, "m")[0])) for name in names}


def curve_rows(panel: str, series: str, quantity: str, steps, values) -> list[tuple]:
    return [(panel, series, quantity, int(s), float(v)) for s, v in zip(steps, values, strict=True)]


# --- the table ----------------------------------------------------------------------------
def _fmt(value) -> str:
    if isinstance(value, float):
        return "nan" if math.isnan(value) else repr(value)
    return str(value)


def table_csv(rows: list[tuple]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([_fmt(v) for v in row])
    return buf.getvalue()


def read_table(path: str | os.PathLike[str]) -> dict[str, np.ndarray]:
    """NAME.csv as columns (``step``, ``value`` numeric)."""
    with open(path, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    return _columns([(r["panel"], r["series"], r["quantity"], r["step"], r["value"]) for r in rows])


def _columns(rows: list[tuple]) -> dict[str, np.ndarray]:
    cols: list = list(zip(*rows, strict=True)) if rows else [[] for _ in COLUMNS]
    out = {name: np.asarray(col, dtype=object) for name, col in zip(COLUMNS[:3], cols[:3], strict=True)}
    out["step"] = np.asarray(cols[3], dtype=float)
    out["value"] = np.asarray(cols[4], dtype=float)
    return out


def select(table: dict, panel: str | None = None, series: str | None = None,
           quantity: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(steps, values) of the rows matching every given field."""
    keep = np.ones(len(table["step"]), dtype=bool)
    for field, want in (("panel", panel), ("series", series), ("quantity", quantity)):
        if want is not None:
            keep &= table[field] == want
    return table["step"][keep], table["value"][keep]


def series_names(table: dict, panel: str, quantity: str) -> list[str]:
    keep = (table["panel"] == panel) & (table["quantity"] == quantity)
    return list(dict.fromkeys(table["series"][keep]))


# --- writing ------------------------------------------------------------------------------
def _plain(value):
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


def instance_spec(kind: str, k: int, d: int, xi: float, activation: str, seed: int, **extra) -> dict:
    return {"kind": kind, "k": k, "d": d, "xi": float(xi), "activation": activation, "seed": seed,
            **extra}


def median_curve(m: np.ndarray) -> np.ndarray:
    """The replica median of m_t (records × replicas)."""
    return np.median(np.asarray(m), axis=1)
