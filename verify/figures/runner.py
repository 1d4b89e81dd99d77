"""One figure under one or both setups: compute, write the files, judge and compare the claims.

For each setup (:mod:`verify.figures.paper_setup`) the figure's table is written as CSV
(exactly the plotted data) and PNG, and its claims are judged on it:

- ``normalised``: NAME.csv, NAME.png, NAME.json (as before the paper setup existed);
- ``paper``: NAME.paper.csv, NAME.paper.png (the chosen values), NAME.paper.json, and
  NAME.paper.sensitivity.csv (the main run and every sensitivity run: η, and each value the
  figure leaves open, at :data:`~verify.figures.paper_setup.FACTORS`; the data behind the
  sensitivity verdicts; no PNG).

With both setups NAME.json gets ``setups.comparison``: per claim its verdict under each
setup, the setups it holds under, the paper setup's verdicts at every factor of every open
value (η, ĉ's step, ξ), every horizon fraction (and ξ grid where the figure has one), and
for every claim whose verdicts differ the measured per-curve quantities of
:func:`~verify.figures.paper_setup.curve_scale` under both setups.  A figure without
``PAPER_SETUP`` (the scaling experiment, not an Appendix B figure) runs the normalised setup
only and says so.
"""

from __future__ import annotations

import copy
import json

from verify.base.errors import InvalidParameterError
from verify.base.files import one_generation, output_directory, write_atomic
from verify.base.sweep import run_sweep
from verify.figures import full_tier, paper_setup, plotting
from verify.figures.common import (
    COLUMNS,
    NOT_REPRODUCED_AT_FULL_STATUS,
    _columns,
    _plain,
    collecting,
    table_csv,
)
from verify.figures.full_tier import BATCH_RULE_NOTE, FULL_TIER_NOTE, horizon_capped

SETUP_CHOICES = (*paper_setup.SETUPS, "both")


def run_figure(spec, quick: bool, scheduler: str | None, out, progress: bool = False,
               batch_rule: bool = False, setup: str = "both") -> dict:
    """Write the figure's files under ``setup`` (``normalised``, ``paper`` or ``both``); returns
    the normalised table (else the paper one) and every claim, the paper setup's prefixed
    ``[paper]``.  ``batch_rule`` (full tier only): sample-equivalent minibatches instead of
    online SGD in the normalised setup."""
    if setup not in SETUP_CHOICES:
        raise InvalidParameterError(f"setup must be one of {', '.join(SETUP_CHOICES)}, got {setup!r}")
    if batch_rule and quick:
        raise InvalidParameterError("--batch-rule applies to the full tier only (--full)")
    out = output_directory(out)
    # the figure's PNGs, CSVs and JSON appear as one generation, or none of them changes
    with one_generation():
        return _run_figure(spec, quick, scheduler, out, progress, batch_rule, setup)


def _run_figure(spec, quick: bool, scheduler, out, progress: bool, batch_rule: bool, setup: str) -> dict:
    tier = "quick" if quick else "full"
    has_paper = spec.appendix_b
    runs: dict = {}
    if setup in ("normalised", "both"):
        runs["normalised"] = _normalised(spec, tier, scheduler, progress, out, batch_rule)
    if setup in ("paper", "both") and has_paper:
        runs["paper"] = _paper(spec, tier, scheduler, progress, out)
    elif setup == "paper":
        raise InvalidParameterError(f"{spec.name} is not an Appendix B figure: it has no paper setup "
                                    "(use --setup normalised)")
    if setup == "both" and "paper" in runs and spec.setup_rows is not None:
        _draw_setups(spec, {s: runs[s]["table"] for s in paper_setup.SETUPS},
                     {s: runs[s]["claims"] for s in paper_setup.SETUPS}, tier, out)
    if "normalised" in runs:
        meta = runs["normalised"]["meta"]
        if setup == "both":
            meta["setups"] = (_comparison(runs["normalised"], runs["paper"]) if "paper" in runs else
                              {"paper": "not applicable: not an Appendix B figure (normalised setup only)"})
        _write_json(out / f"{spec.name}.json", meta)
    claims = list(runs["normalised"]["claims"]) if "normalised" in runs else []
    if "paper" in runs:
        claims += [(f"[paper] {d}", ok, n) for d, ok, n in runs["paper"]["claims"]]
    first = runs.get("normalised") or runs["paper"]
    return {"table": first["table"], "claims": claims}


def _write_json(path, meta: dict) -> None:
    write_atomic(path, (json.dumps(_plain(meta), indent=2, sort_keys=True) + "\n").encode())


def _write_table(rows: list[tuple], path) -> dict:
    """The CSV (exactly the rows the PNG plots); returns them as columns."""
    write_atomic(path, table_csv(rows).encode())
    return _columns(rows)


def _draw(spec, table, params: dict, claims: list, tier: str, path) -> None:
    """The PNG of ``table`` with the verdicts of ``claims``, listed in its metadata too."""
    setup = params.get("setup", "normalised")
    plotting.save(plotting.render(spec, table, params, claims), path,
                  plotting.metadata(spec, tier, {setup: claims}))


def _draw_setups(spec, tables: dict, claims: dict, tier: str, out) -> None:
    """NAME.setups.csv (exactly the plotted data) and NAME.setups.png: the figure's summary under
    both setups side by side (``spec.setup_rows``, ``spec.setup_plot``), with each setup's
    ``claims`` and verdicts."""
    table = _write_table(spec.setup_rows(tables), out / f"{spec.name}.setups.csv")
    plotting.save(plotting.render_setups(spec, table, claims), out / f"{spec.name}.setups.png",
                  plotting.metadata(spec, tier, claims))


def _judge(spec, table) -> list[tuple]:
    return [(desc, bool(ok), _plain(nums)) for desc, ok, nums in spec.claims(table)]


def _curve_scales(params: dict) -> dict:
    """:func:`paper_setup.curve_scale` of every SGD curve the figure ran (one per instance, step
    and model: the mode does not enter, the quantities are taken with ĉ frozen at m = 0)."""
    out: dict = {}
    done: dict = {}  # Fig. 2's joint and frozen curves share instance, step and model: one estimate
    for curve in params.get("runs", {}).get("curves", []):
        label = paper_setup.curve_label(curve["instance"], curve["mode"])
        key = (json.dumps(curve["instance"], sort_keys=True, default=str), curve["lr"], curve["model"])
        if key not in done:
            done[key] = paper_setup.curve_scale(curve["instance"], curve["lr"], curve["model"])
        out[label] = dict(done[key])
    return out


def _normalised(spec, tier: str, scheduler, progress, out, batch_rule: bool) -> dict:
    # A copy: the full tier's compute() writes its run plan (step, horizon) into the params it
    # is given, and spec-level PARAMS must stay what the spec declares.
    params = copy.deepcopy(spec.params[tier])
    if batch_rule:
        params["batch_rule"] = True
    rows = spec.compute(params, scheduler, progress)
    table = _write_table(rows, out / f"{spec.name}.csv")
    results = _judge(spec, table)
    extra: dict = {}
    if tier == "full":  # a failing claim stays, marked (the modules' claims() mark the quick tier's)

        capped = horizon_capped(params)
        for _, ok, nums in results:
            if not ok and isinstance(nums, dict):
                nums["status"] = NOT_REPRODUCED_AT_FULL_STATUS
                nums["horizon capped"] = capped
        # The cap is a safety net: a binding one is a failure of the run, not a finding (the scaling
        # experiment has no ODE horizons: its per-family caps are its own claim).
        if "step_cap" in params:
            results.append(("no run's ODE horizon is cut by the step cap (safety net only)", not capped,
                            {"step_cap": params["step_cap"]}))
        extra = {"full_tier": BATCH_RULE_NOTE if batch_rule else FULL_TIER_NOTE,
                 "horizon_cap": {"cap": params.get("step_cap"), "binds": capped}}
    _draw(spec, table, params, results, tier, out / f"{spec.name}.png")
    scales = _curve_scales(params)
    meta = {
        "figure": spec.name, "paper": spec.paper, "tier": tier, "setup": "normalised",
        "params": params, "choices": spec.choices, "csv_columns": list(COLUMNS),
        "claims": [{"claim": d, "holds": ok, "numbers": n} for d, ok, n in results],
        "curve_scales": scales, **extra,
    }
    return {"meta": meta, "claims": results, "table": table, "scales": scales}


def paper_params(spec, tier: str) -> dict:
    """The figure's params under the paper setup: its ``PARAMS[tier]`` with ``PAPER_SETUP[tier]``
    on top; at full size a step left as None is :func:`paper_setup.reference_lr` of the
    normalised rule's step for ``PAPER_SETUP[tier]["reference"]`` (and the horizon, if left
    as None, that reference's ODE horizon)."""
    params = copy.deepcopy(spec.params[tier])
    params.update(copy.deepcopy(spec.paper_setup[tier]))
    params.update(setup="paper", model="paper", lr_rule="shared")
    if params.get("lr") is None:

        ref = params["reference"]
        plan = full_tier.plan_run(ref, full_tier.SAFETY_CAP)
        params["lr"] = paper_setup.reference_lr(plan["lr"], ref["k"], ref["xi"])
        params["reference_plan"] = plan
        if params.get("steps") is None:
            params["steps"] = plan["steps"]
    params["record_every"] = max(1, params["steps"] // params.get("points", 200))
    return params


def _paper(spec, tier: str, scheduler, progress, out) -> dict:

    main = paper_params(spec, tier)
    variants = _sensitivity_runs(spec, main)
    # One sweep (one process pool) for every run; each compute() below then reads the cache.
    tasks = [t for p in [main, *variants.values()] for t in collecting(spec, p)]
    run_sweep(tasks, scheduler=scheduler, progress=progress)
    rows_main = spec.compute(main, scheduler, progress)
    rows_by_run = {label: spec.compute(p, scheduler, progress) for label, p in variants.items()}
    table = _write_table(rows_main, out / f"{spec.name}.paper.csv")
    labelled = {_run_label("eta", 1.0): rows_main, **rows_by_run}
    everything = [(f"{label}: {row[0]}", *row[1:]) for label, rows in labelled.items() for row in rows]
    write_atomic(out / f"{spec.name}.paper.sensitivity.csv", table_csv(everything).encode())
    results = _judge(spec, table)
    for _, ok, nums in results:
        # replaces a spec's own "not reproduced at quick size", which describes its normalised
        # quick run, not this one
        if not ok and isinstance(nums, dict):
            nums["status"] = paper_setup.NOT_REPRODUCED_PAPER_STATUS
    _draw(spec, table, main, results, tier, out / f"{spec.name}.paper.png")
    # every run-based variant judged once: its verdicts (sensitivity) and its numbers
    judged = {axis: {paper_setup.factor_label(f): results if f == 1.0 else
                     _judge(spec, _columns(rows_by_run[_run_label(axis, f)])) for f in paper_setup.FACTORS}
              for axis in _axes(spec)}
    judged["horizon"] = {f"T x{fr:.3g}": _judge(spec, paper_setup.truncate(table, fr))
                         for fr in paper_setup.HORIZON_FRACTIONS}
    sensitivity: dict = {axis: {label: {d: ok for d, ok, _ in claims} for label, claims in by.items()}
                         for axis, by in judged.items()}
    if spec.paper_variants is not None:
        sensitivity.update(spec.paper_variants(table, lambda t: _verdicts(spec, t)))
    scales = _curve_scales(main)
    meta = {
        "figure": spec.name, "paper": spec.paper, "tier": tier, "setup": "paper",
        "params": main, "choices": {**paper_setup.GENERIC_CHOICES, **spec.paper_choices,
                                    **paper_setup.axis_choices(spec)},
        "csv_columns": list(COLUMNS),
        "claims": [{"claim": d, "holds": ok, "numbers": n} for d, ok, n in results],
        "sensitivity": sensitivity, "curve_scales": scales,
        "sensitivity_numbers": {axis: {label: {d: n for d, _, n in claims} for label, claims in by.items()}
                                for axis, by in judged.items()},
        "sensitivity_runs": {label: {"varied": p["varied"], "lr": p["lr"], "xi": p.get("xi"),
                                     "c_lr_ratio": p.get("c_lr_ratio", 1.0), "runs": p.get("runs")}
                             for label, p in variants.items()},
    }
    _write_json(out / f"{spec.name}.paper.json", meta)
    return {"meta": meta, "claims": results, "table": table, "scales": scales, "sensitivity": sensitivity}


def _axes(spec) -> tuple[str, ...]:
    """η, then the axes the figure leaves open (``paper_axes``)."""
    return ("eta", *(spec.paper_axes or {}))


def _run_label(axis: str, factor: float) -> str:
    return f"{axis} {paper_setup.factor_label(factor)}"


def _sensitivity_runs(spec, main: dict) -> dict:
    """The params of every sensitivity run: each open value (:func:`_axes`) moved on its own to
    each factor other than 1 (factor 1 is the main run)."""
    return {_run_label(axis, f): paper_setup.vary(main, axis, f)
            for axis in _axes(spec) for f in paper_setup.FACTORS if f != 1.0}


def _verdicts(spec, table) -> dict:
    """{claim: holds} of the figure's claims on ``table``."""
    return {desc: bool(ok) for desc, ok, _ in spec.claims(table)}


def _comparison(normalised: dict, paper: dict) -> dict:
    """Per claim: the verdict under each setup, where it holds, the paper setup's sensitivity,
    and for a claim whose verdicts differ the per-curve quantities under both setups."""
    rows = []
    n_claims = {d: (ok, nums) for d, ok, nums in normalised["claims"]}
    p_claims = {d: (ok, nums) for d, ok, nums in paper["claims"]}
    for desc in dict.fromkeys([*n_claims, *p_claims]):
        n_ok = n_claims.get(desc, (None, None))[0]
        p_ok = p_claims.get(desc, (None, None))[0]
        row = {"claim": desc, "normalised": n_ok, "paper": p_ok,
               "holds under": [s for s, ok in (("normalised", n_ok), ("paper", p_ok)) if ok],
               "numbers": {"normalised": n_claims.get(desc, (None, None))[1],
                           "paper": p_claims.get(desc, (None, None))[1]}}
        if desc in p_claims:
            row["paper sensitivity"] = {kind: {label: verdicts.get(desc) for label, verdicts in by.items()}
                                        for kind, by in paper["sensitivity"].items()}
        if n_ok is not None and p_ok is not None and n_ok != p_ok:
            row["explanation"] = {"normalised": normalised["scales"], "paper": paper["scales"]}
        rows.append(row)
    return {"comparison": rows, "paper_json": f"{normalised['meta']['figure']}.paper.json"}
