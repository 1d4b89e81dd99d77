"""A study's runs reduced to verdicts: per cell the fraction of instances where each claim holds,
the region where it holds on most, the flow-against-SGD gap, and the quantities that predict
the failures.

Times (in samples) of a curve at grid step η: the SGD first-passage time where SGD ran (inf
when the run did not reach the level within HORIZON_OVER_FLOW × its flow time, or diverged);
below the smallest SGD step the flow's τ/η, but only when the figure's flow gap is within
FLOW_GAP_TOLERANCE, else unknown (NaN).  A per-instance outcome is ``True``/``False``, or
``None`` when an unknown time could decide it; the cell's interval then spans both readings.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from verify.regions.spec import CONFIDENCE, FLOW_GAP_TOLERANCE, REPLICAS, Claim, StudySpec
from verify.verdict.statistics import clopper_pearson

#: z-score that decides a ``loss_above`` comparison of two Monte-Carlo losses on one instance:
#: |z| >= 4.89 is a two-sided normal tail of 1e-6, so a comparison decided the wrong way by
#: sampling noise is rarer than one in a million; a smaller |z| leaves the instance unknown.
LOSS_Z = 4.89


def _level_tau(curve: dict, level: float) -> float:
    tau = curve["tau"][curve["levels"].index(level)]
    return math.inf if tau is None else tau


def _sgd_times(curve: dict, level: float, series: str) -> list[float | None]:
    """The curve's SGD times at ``level`` per grid step (one replica's: its one time), of |m|
    (``series`` "m") or |⟨ĉ, c⟩| ("c")."""
    if series == "c":
        return curve["sgd_c_at"][f"{level:g}"]
    if "sgd_at" in curve:
        return curve["sgd_at"][f"{level:g}"]
    return curve["sgd"]  # a cached run of a study that timed its one level only


def flow_gaps(runs: Iterable[dict], level: float, d: int) -> dict:
    """t_SGD/t_flow − 1 at each curve's two smallest SGD steps that reached the level (the
    overlap with the flow), and the median gap per grid step (it should shrink with η)."""
    overlap: list[float] = []
    per_step: dict[float, list[float]] = {}
    for run in runs:
        for curve in run["curves"].values():
            tau = _level_tau(curve, level)
            sgd = _sgd_times(curve, level, "m")
            reached = [g for g in curve["ran"] if sgd[g] is not None]
            if not curve.get("flow", True) or not math.isfinite(tau) or not reached:
                continue
            for g in reached:
                gap = sgd[g] * (run["grid"][g] / d) / tau - 1
                per_step.setdefault(run["grid"][g], []).append(gap)
                if g in sorted(reached)[-2:]:
                    overlap.append(gap)
    absolute = np.abs(overlap) if overlap else np.array([math.nan])
    median = float(np.median(absolute))
    return {
        "overlap_runs": len(overlap),
        "median_abs_gap": median,
        "p90_abs_gap": float(np.percentile(absolute, 90)),
        "tolerance": FLOW_GAP_TOLERANCE,
        "flow_used": bool(overlap) and median <= FLOW_GAP_TOLERANCE,
        "median_gap_per_eta_d": {f"{k:.4g}": float(np.median(v)) for k, v in sorted(per_step.items())},
        "rule": "the flow stands in for SGD below each curve's smallest SGD step only when the median "
        f"|t_SGD/t_flow - 1| at the two smallest SGD steps is <= {FLOW_GAP_TOLERANCE:g}",
    }


def curve_times(
    curve: dict, grid: list[float], level: float, d: int, flow_used: bool, series: str = "m"
) -> np.ndarray:
    """The curve's time at every grid step (inf: not reached; NaN: unknown).  The flow stands
    in below the SGD steps only for |m| of a curve with a flow of its own."""
    sgd = _sgd_times(curve, level, series)
    has_flow = flow_used and series == "m" and curve.get("flow", True)
    tau = _level_tau(curve, level) if has_flow else math.nan
    out = np.full(len(grid), math.nan)
    for g, eta_d in enumerate(grid):
        if g in curve["ran"]:
            out[g] = math.inf if sgd[g] is None else sgd[g]
        elif has_flow:
            out[g] = tau / (eta_d / d)
    return out


def curve_losses(curve: dict, grid: list[float]) -> np.ndarray:
    """(loss, standard error) at every grid step: NaN where SGD did not run, inf where it
    diverged (it did not reach a small loss at that step)."""
    out = np.full((len(grid), 2), math.nan)
    for g in curve["ran"]:
        if curve["diverged"][g]:
            out[g] = (math.inf, 0.0)
        elif curve["loss"][g] is not None:
            out[g] = (curve["loss"][g], curve["loss_se"][g])
    return out


def series_names(spec: StudySpec, claim: Claim) -> list[str]:
    """The series a claim compares, in order."""
    if claim.kind in ("sooner", "loss_above"):
        return list(claim.pair)
    return list(claim.curves or [c.label for c in spec.curves])


def series_values(run: dict, claim: Claim, spec: StudySpec, d: int, flow_used: bool) -> dict[str, np.ndarray]:
    """Per series of ``claim``, its time at every grid step (``loss_above``: (loss, SE) rows)."""
    level = spec.level if claim.level is None else claim.level
    out = {}
    for name in series_names(spec, claim):
        label, _, series = name.partition(":")
        curve = run["curves"][label]
        if claim.kind == "loss_above":
            out[name] = curve_losses(curve, run["grid"])
        else:
            out[name] = curve_times(curve, run["grid"], level, d, flow_used, series or "m")
    return out


def same_run(claim: Claim) -> bool:
    """Whether the claim compares two series of one run (so one step, and ties are unknown)."""
    if claim.kind != "sooner":
        return False
    first, second = claim.pair
    return first.partition(":")[0] == second.partition(":")[0]


def loss_outcome(claim: Claim, first: np.ndarray, second: np.ndarray) -> bool | None:
    """first loss >= bound × second loss, decided when |z| >= LOSS_Z (each row: loss, SE)."""
    (a, sa), (b, sb) = first, second
    if math.isnan(a) or math.isnan(b) or (math.isinf(a) and math.isinf(b)):
        return None
    if math.isinf(a) or math.isinf(b):
        return bool(math.isinf(a))
    diff, se = a - claim.factor * b, math.hypot(sa, claim.factor * sb)
    if se == 0.0:
        return bool(diff >= 0)
    z = diff / se
    return True if z >= LOSS_Z else (False if z <= -LOSS_Z else None)


def best_time(times: np.ndarray) -> tuple[float, int | None]:
    """The tuned step's time and grid index: the fastest known time; NaN when no known time is
    finite and some are unknown (an unknown step might reach)."""
    finite = np.isfinite(times)
    if finite.any():
        g = int(np.argmin(np.where(finite, times, np.inf)))
        return float(times[g]), g
    return (math.nan, None) if np.isnan(times).any() else (math.inf, None)


def outcome(claim: Claim, times: dict[str, float]) -> bool | None:
    """The claim on one instance from each curve's time (inf: not reached, NaN: unknown)."""
    values = list(times.values())
    if claim.kind in ("reach", "ratio"):
        if any(math.isinf(t) for t in values):
            return False
        if any(math.isnan(t) for t in values):
            return None
        return bool(claim.kind == "reach" or max(values) <= claim.factor * min(values))
    if claim.kind in ("grows", "monotone"):
        return _ordered(claim, values)
    first, second = (times[name] for name in claim.pair)
    if math.isinf(first):
        return False
    if math.isnan(first) or math.isnan(second):
        return None
    if first == second and same_run(claim):
        return None  # both passed within one record of the run: their order was not seen
    return bool(first < second)


def _ordered(claim: Claim, values: list[float]) -> bool | None:
    """``grows``: last >= bound x first; ``monotone``: each time >= the one before; both need
    the first curve to reach (else every curve stuck would read as a lengthening plateau).
    Not reaching (inf) is the longest time; an unknown (NaN) decides only when the
    known times already fail the claim."""
    if claim.kind == "grows":
        first, last = values[0], values[-1]
        if math.isinf(first):
            return False
        if math.isnan(first) or math.isnan(last):
            return None
        return bool(last >= claim.factor * first)
    if math.isinf(values[0]):
        return False  # nothing leaves the plateau at all: not evidence that it lengthens
    known = [v for v in values if not math.isnan(v)]
    if any(later < earlier for i, earlier in enumerate(known) for later in known[i + 1 :]):
        return False  # a known later time below a known earlier one, whatever lies between
    return None if any(math.isnan(v) for v in values) else True


def _ratio(a: float, b: float) -> float:
    """a/b with IEEE semantics (a time of 0, passed at the start, gives inf or NaN)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.float64(a) / np.float64(b))


def statistic(claim: Claim, times: dict[str, float]) -> float:
    """The continuous quantity behind the claim on one instance (for the explanations): the
    spread max/min, or the second curve's time over the first's."""
    values = np.array(list(times.values()))
    if claim.kind == "loss_above":
        return _ratio(times[claim.pair[0]], times[claim.pair[1]])
    if claim.kind == "sooner":
        return _ratio(times[claim.pair[1]], times[claim.pair[0]])
    if claim.kind in ("grows", "monotone"):
        return _ratio(values[-1], values[0])
    return _ratio(np.max(values), np.min(values))


def cell(outcomes: list[bool | None]) -> dict:
    """Counts, the Clopper–Pearson interval (unknowns read both ways) and the status."""
    n = len(outcomes)
    holds = sum(o is True for o in outcomes)
    unknown = sum(o is None for o in outcomes)
    lo = clopper_pearson(holds, n, CONFIDENCE)[0]
    hi = clopper_pearson(holds + unknown, n, CONFIDENCE)[1]
    status = "holds" if lo > 0.5 else ("fails" if hi < 0.5 else "undecided")
    return {
        "holds": holds,
        "fails": n - holds - unknown,
        "unknown": unknown,
        "instances": n,
        "interval": [lo, hi],
        "status": status,
    }


def _spearman(x: list[float], y: list[float]) -> float:
    """Spearman's rank correlation (ties averaged; ±inf rank at the ends)."""
    # lazy: scipy.stats costs 0.6 s at import; only the explanations need it
    from scipy.stats import spearmanr

    if len(set(x)) < 2 or len(set(y)) < 2:  # a constant has no rank correlation
        return math.nan
    value = spearmanr(x, y).statistic
    return float(value) if np.isfinite(value) else math.nan


def _candidates(run: dict, claim: Claim) -> dict[str, float]:
    """The per-instance quantities tested as explanations of ``claim``'s statistic."""
    q, curves = run["quantities"], run["curves"]
    h0 = {label: abs(c["h0"]) for label, c in curves.items()}
    first, second = (
        (None, None) if claim.first is None else (name.partition(":")[0] for name in claim.pair)
    )
    out = {
        "|lambda.c|": q["lam_c"],
        "|lambda.c_hat|": q["lam_c_hat"],
        "|lambda.c| |lambda.c_hat|": q["lam_c"] * q["lam_c_hat"],
        "min |h(0)| over the curves": min(h0.values()),
    }
    # each curve's own flow time (a curve on a yardstick has none): a predictor even where
    # the flow does not describe the runs (û free to enter span W)
    taus = {
        label: c["tau"][-1] if c["tau"][-1] is not None else math.inf
        for label, c in curves.items()
        if "yardstick" not in c
    }
    if claim.kind in ("sooner", "loss_above"):
        out["|<c_hat_0, c>|"] = abs(q["c_overlap"])
    if claim.kind == "sooner" and first != second and first in taus and second in taus:
        out["flow time ratio (second/first)"] = taus[second] / taus[first]
        out["residual loss of the second curve's student at m = 1"] = curves[second]["frozen_residual_loss"]
    elif claim.kind in ("grows", "monotone"):
        ordered = list(taus.values())
        out["flow time ratio last/first"] = ordered[-1] / ordered[0]
    elif claim.kind in ("reach", "ratio") and taus:
        out["flow time ratio max/min"] = max(taus.values()) / min(taus.values())
    return out


def explanations(claim: Claim, rows: list[tuple[dict, dict[str, float]]]) -> dict:
    """Spearman correlation, across instances (and cells), of each candidate quantity with the
    claim's statistic at the tuned steps; the best predictor first."""
    stats: list[float] = []
    cands: dict[str, list[float]] = {}
    for run, times in rows:
        s = statistic(claim, times)
        if math.isnan(s):
            continue
        stats.append(min(s, 1e300))
        for name, value in _candidates(run, claim).items():
            cands.setdefault(name, []).append(min(value, 1e300))
    table = {name: {"spearman": _spearman(values, stats), "n": len(values)} for name, values in cands.items()}
    # a candidate with no finite correlation (a constant, or too few instances) predicts nothing
    ranked = sorted(
        (name for name in table if math.isfinite(table[name]["spearman"])),
        key=lambda name: -abs(table[name]["spearman"]),
    )
    statistic_names = {"sooner": "second/first time", "grows": "last/first time",
                       "monotone": "last/first time", "loss_above": "first/second final loss"}
    return {
        "statistic": statistic_names.get(claim.kind, "max/min time"),
        "protocol": "tuned steps",
        "best": ranked[0] if ranked else None,
        "correlations": table,
    }


def _eta_ranges(grid: list[float], cells: list[dict]) -> list[list[float]]:
    """Maximal runs of consecutive grid steps whose cell holds, as [smallest, largest] η·d."""
    runs, current = [], []
    for eta_d, c in zip(grid, cells, strict=True):
        if c["status"] == "holds":
            current.append(eta_d)
        elif current:
            runs.append([min(current), max(current)])
            current = []
    if current:
        runs.append([min(current), max(current)])
    return runs


def _outcome_at(claim: Claim, values: dict) -> bool | None:
    if claim.kind == "loss_above":
        return loss_outcome(claim, *(values[name] for name in claim.pair))
    return outcome(claim, values)


def best_loss(rows: np.ndarray) -> tuple[np.ndarray, int | None]:
    """The tuned step's (loss, SE) and grid index: the lowest loss where SGD ran (NaN if none)."""
    known = ~np.isnan(rows[:, 0])
    if not known.any():
        return np.array([math.nan, math.nan]), None
    g = int(np.argmin(np.where(known, rows[:, 0], np.inf)))
    return rows[g], g


def _tuned(claim: Claim, values: dict[str, np.ndarray]) -> tuple[dict[str, Any], dict[str, int | None]]:
    """Each series at its first run's best step: (values, steps).  Two series of one run share
    the step: the first series' best."""
    best: dict[str, Any] = {}
    chosen: dict[str, int | None] = {}
    for name, v in values.items():
        best[name], chosen[name] = best_loss(v) if claim.kind == "loss_above" else best_time(v)
    if same_run(claim):
        first, second = claim.pair
        g = chosen[first]
        chosen[second] = g
        best[second] = float(values[second][g]) if g is not None else math.nan
    return best, chosen


def steps_held(cells: list[dict]) -> tuple[int, int]:
    """(grid steps whose cell holds, grid steps)."""
    return sum(c["status"] == "holds" for c in cells), len(cells)


def cell_words(key: str, tuned: dict, shared: dict) -> str:
    """One (ξ, λ) cell of a claim in words: the tuned protocol's count and interval, then the η·d
    ranges where the shared step holds on most instances and how many of the grid's steps that is
    (a region is not the whole grid: Fig. 2's plateau claim held at one step of 15)."""
    ranges = shared["holds_at_eta_d"]
    held, steps = steps_held(shared["cells"])
    shared_words = (
        "shared step: holds on most instances at η·d in "
        + ", ".join(f"[{lo:.3g}, {hi:.3g}]" for lo, hi in ranges)
        + f" ({held} of {steps} grid steps)"
        if ranges
        else f"shared step: holds on most instances at no grid step (0 of {steps})"
    )
    spread = tuned.get("replica_spread")
    replicas = (f"; median of {REPLICAS} runs per tuned step, whose times spread by "
                f"{spread['median']:.2f} × the median (max − min, median over instances)") if spread else ""
    return (
        f"{key}: tuned steps: holds on {tuned['holds']}/{tuned['instances']} "
        f"[{tuned['interval'][0]:.2f}, {tuned['interval'][1]:.2f}] ({tuned['status']}{replicas}); "
        f"{shared_words}"
    )


#: The steps around a curve's best first-run step that get replicas: the first run's fastest step
#: is often a fluke at the edge of stability (at Fig. 2's largest ξ a run reached ½ in 233
#: samples where four replicas at that step did not within their horizon), so the tuned step is
#: the best *median* among it and its two neighbours.
TUNED_NEIGHBOURS = (-1, 0, 1)


def replicated_steps(spec: StudySpec, run: dict, d: int, flow_used: bool, figure: str) -> list[list]:
    """[curve label, grid index] of every step where some claim of ``figure`` may tune on this
    instance (the first run's best and its neighbours) and SGD ran, sorted: the replica task's."""
    steps = set()
    for claim in spec.claims:
        if claim.figure != figure:
            continue
        _, chosen = _tuned(claim, series_values(run, claim, spec, d, flow_used))
        for name, g in chosen.items():
            label = name.partition(":")[0]
            if g is not None:
                steps |= {(label, g + i) for i in TUNED_NEIGHBOURS if g + i in run["curves"][label]["ran"]}
    return [list(step) for step in sorted(steps)]


def _replica_value(replica: dict, claim: Claim, spec: StudySpec, name: str):
    """One replica's value of series ``name``: its time (inf: not reached or diverged), or for
    ``loss_above`` its (loss, SE) row, as :func:`series_values` gives the first run's."""
    if claim.kind == "loss_above":
        if replica["diverged"]:
            return np.array([math.inf, 0.0])
        return np.array([math.nan if replica["loss"] is None else replica["loss"],
                         math.nan if replica["loss_se"] is None else replica["loss_se"]])
    level = spec.level if claim.level is None else claim.level
    time = _sgd_times(replica, level, name.partition(":")[2] or "m")
    return math.inf if time is None else float(time)


def _median_at(run: dict, claim: Claim, spec: StudySpec, name: str, first, g: int):
    """(the median of series ``name`` at step ``g`` over the first run and its replicas, the
    spread (max − min)/median of its times or None): the first run alone where none ran."""
    replicas = run.get("replicas", {}).get(name.partition(":")[0], {}).get(str(g))
    if not replicas:
        return first, None
    values = [first] + [_replica_value(r, claim, spec, name) for r in replicas]
    if claim.kind == "loss_above":
        # the replica whose loss is the median, with its own Monte-Carlo SE
        ordered = sorted(values, key=lambda row: (math.isnan(row[0]), row[0]))
        return ordered[(len(ordered) - 1) // 2], None
    median = float(np.median(values))
    finite = [v for v in values if math.isfinite(v)]
    spread = (max(finite) - min(finite)) / median if len(finite) == len(values) and median > 0 else None
    return median, spread


def _replica_tuned(run: dict, claim: Claim, spec: StudySpec, values: dict, best: dict,
                   chosen: dict) -> tuple[dict, dict, list]:
    """Each series' tuned step and value from the replicas: among the first run's best step and
    its neighbours, the step of the smallest median (two series of one run share the first's
    step); with the spreads of the chosen steps' times."""
    if not run.get("replicas"):
        return best, chosen, []
    best, chosen, spreads = dict(best), dict(chosen), []
    lead = [claim.pair[0]] if same_run(claim) else list(values)
    for name in lead:
        if chosen[name] is None:
            continue
        options = []
        for g in (chosen[name] + i for i in TUNED_NEIGHBOURS):
            if 0 <= g < len(values[name]):
                value, spread = _median_at(run, claim, spec, name, values[name][g], g)
                score = value[0] if claim.kind == "loss_above" else value
                if not math.isnan(score):
                    options.append((score, g, value, spread))
        if options:
            _, chosen[name], best[name], spread = min(options, key=lambda option: option[:2])
            spreads += [] if spread is None else [spread]
    if same_run(claim):
        first, second = claim.pair
        g = chosen[second] = chosen[first]
        if g is not None:
            best[second], spread = _median_at(run, claim, spec, second, values[second][g], g)
            spreads += [] if spread is None else [spread]
    return best, chosen, spreads


def judge_claim(spec: StudySpec, claim: Claim, runs: dict, d: int, gaps: dict) -> dict:
    """``runs[(xi_label, lam_shape)]`` = the instances' task results; one claim's cells and words."""
    out: dict[str, Any] = {
        "figure": claim.figure,
        "claim": claim.text,
        "kind": claim.kind,
        "bound": claim.bound,
        "shared": {},
        "tuned": {},
        "tuned_steps": {},
        "words": [],
    }
    every: list[bool | None] = []
    rows: list[tuple[dict, dict[str, float]]] = []
    for (xi_label, shape), instances in runs.items():
        if spec.figure_of(xi_label) != claim.figure:
            continue
        grid = instances[0]["grid"]
        flow_used = gaps[claim.figure]["flow_used"]
        shared: list[list[bool | None]] = [[] for _ in grid]
        tuned: list[bool | None] = []
        spreads: list[float] = []
        steps: dict[str, list[float | None]] = {name: [] for name in series_names(spec, claim)}
        for run in instances:
            values = series_values(run, claim, spec, d, flow_used)
            for g in range(len(grid)):
                shared[g].append(_outcome_at(claim, {name: v[g] for name, v in values.items()}))
            best, chosen = _tuned(claim, values)
            best, chosen, spread = _replica_tuned(run, claim, spec, values, best, chosen)
            at_top = any(g == 0 for g in chosen.values())
            spreads += spread
            for name, step in chosen.items():
                if name in steps:
                    steps[name].append(None if step is None else grid[step])
            # a best step at the grid's top is only an upper bound on that curve's tuned time:
            # a comparison of times is then unknown (reaching is not)
            tuned.append(None if at_top and claim.kind != "reach" else _outcome_at(claim, best))
            loss = claim.kind == "loss_above"
            rows.append((run, {name: (v[0] if loss else v) for name, v in best.items()}))
        cells = [cell(o) for o in shared]
        key = f"xi={xi_label}, lambda {shape}"
        out["shared"][key] = {"eta_d": grid, "cells": cells, "holds_at_eta_d": _eta_ranges(grid, cells)}
        out["tuned"][key] = cell(tuned)
        if spreads:
            out["tuned"][key]["replica_spread"] = {
                "median": float(np.median(spreads)), "p90": float(np.percentile(spreads, 90)),
                "series": len(spreads),
                "what": "(max - min)/median of a series' times over the replicas at its tuned step"}
        out["tuned_steps"][key] = {
            label: {
                "median_eta_d": float(np.median([s for s in v if s is not None]))
                if any(s is not None for s in v)
                else None,
                "at_grid_top": sum(s == grid[0] for s in v),
                "none": sum(s is None for s in v),
            }
            for label, v in steps.items()
        }
        every += [o for group in shared for o in group] + tuned
        out["shared"][key]["grid_steps_held"] = list(steps_held(cells))
        out["words"].append(cell_words(key, out["tuned"][key], out["shared"][key]))
    statuses = (
        [c["status"] for v in out["shared"].values() for c in v["cells"]],
        [v["status"] for v in out["tuned"].values()],
    )
    protocols = [
        name for name, st in zip(("shared step", "tuned steps"), statuses, strict=True) if "holds" in st
    ]
    if protocols:
        verdict = "holds in a region"
    elif every and all(o is False for o in every):
        verdict = "never (every instance fails at every grid step, both protocols)"
    elif any("fails" in st for st in statuses):
        verdict = "fails on most instances wherever decided"
    else:
        verdict = "undecided"
    out.update(
        verdict=verdict,
        reproduced_by=protocols or ["neither"],
        explanation=explanations(claim, rows) if any(o is False for o in every) else None,
    )
    return out
