"""What every figure shares: sweep task functions, the plotted table, the three files.

A figure module (see :mod:`verify.figures`) declares ``NAME``, ``PARAMS`` (``"quick"``
and ``"full"``), ``CHOICES`` (the parameters Appendix B leaves out, what was chosen and
why), ``compute(params, scheduler, progress) -> rows``, ``plot(table, fig)`` and
``claims(table)``.  :func:`run_figure` turns that into NAME.csv (exactly the plotted
data), NAME.png and NAME.json.

The table is long format, one row per plotted point: ``panel, series, quantity, step,
value`` (``quantity`` is ``m``, ``c_overlap``, ``loss``, ``ode_m``, ``steps_to_recovery``,
...).  Numbers are written with ``repr`` precision, so a CSV is a pure function of the
parameters and seeds: the same bytes whichever executor of :mod:`verify.sweep` ran the
tasks.

Sweep tasks are the module-level functions below; each takes a JSON-able instance spec
(:func:`make_instance`) and its own seed.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import tempfile
from pathlib import Path

import numpy as np

from verify import instance as instances
from verify.errors import InvalidParameterError

#: Weak recovery (Appendix C.1, drift.WEAK) and the "reaches m ≥ 0.9" level of the claims.
WEAK = 0.5
STRONG = 0.9
#: The JSON status of a claim the --full data do not reproduce (the claim stays, holds: false).
NOT_REPRODUCED_AT_FULL_STATUS = "not reproduced at full size"
COLUMNS = ("panel", "series", "quantity", "step", "value")


# --- sweep tasks --------------------------------------------------------------------------
def make_instance(spec: dict):
    """An instance from ``{"kind", "k", "d", "xi", "activation", "seed", ...}``; ``quantized``
    and ``alpha`` are passed to the generators that take them."""
    spec = dict(spec)
    kind = spec.pop("kind")
    args = (spec.pop("k"), spec.pop("d"), spec.pop("xi"), spec.pop("activation"))
    return instances.GENERATORS[kind](*args, **spec)


def theorem_start(inst, appendix_b_scaling: bool = False) -> float:
    """m_0 = sign(h(0))/√d: Theorems 11–13 start from ⟨u_0, u⟩ sign(h(0)) ≥ β/√d (β = 1)."""
    from verify.simulate.model import closed_form_h
    from verify.simulate.modes import MODES
    from verify.simulate.problem import build_problem

    problem = build_problem(inst, MODES["frozen"], appendix_b_scaling)
    h0 = float(closed_form_h(problem, problem.c_hat, 0.0))
    return math.copysign(1.0, h0) / math.sqrt(inst.d)


def _start(inst, m0) -> float | None:
    if m0 == "theorem":
        return theorem_start(inst)
    if m0 == "typical":  # the typical overlap of a random start, with a fixed sign
        return 1.0 / math.sqrt(inst.d)
    return m0


def sgd_task(instance: dict, mode: str, steps: int, lr: float, replicas: int, seed: int,
             record_every: int, m0=None, loss_samples: int = 0, batch: int = 1) -> dict:
    """One :func:`verify.simulate.simulate` run: overlaps (records × replicas) and the loss.
    ``batch`` > 1: sample-equivalent minibatches (full tier, see :func:`sample_batch`)."""
    from verify.simulate import simulate

    inst = make_instance(instance)
    tr = simulate(inst, mode=mode, steps=steps, lr=lr, replicas=replicas, seed=seed,
                  record_every=record_every, quiet=True, m0=_start(inst, m0),
                  loss_samples=loss_samples, batch=batch)
    out = {"steps": tr.steps, "m": tr.m, "c_overlap": tr.c_overlap}
    if tr.loss is not None:
        out["loss"] = np.broadcast_to(tr.loss, tr.m.shape).copy() if np.ndim(tr.loss) == 1 else tr.loss
    return out


def drift_task(instance: dict, m0, lr: float, steps: int, points: int = 201, eps: float = 0.01) -> dict:
    """The population ODE dm/dτ = h(m)(1 − m²), τ = ηt (eq. (6)) from the run's start."""
    from verify.simulate import drift_ode

    inst = make_instance(instance)
    start = _start(inst, m0)
    path = drift_ode(inst, 0.0 if start is None else start, lr, steps, eps=eps, points=points)
    return {"steps": path.steps, "m": path.m,
            "weak": math.nan if path.weak_step is None else path.weak_step,
            "strong": math.nan if path.strong_step is None else path.strong_step}


# --- the normalised step size and ODE horizons (full tier) -------------------------------
#: Theorem 16: eta = delta / (d V_k) with delta = min{S_k eps^3 / (4 mu_1 (log d V_k)^2), 1}, i.e.
#: delta proportional to the drift's lower bound S_k.  We take S = |h(0)| (closed form, frozen
#: c_hat, m = 0) and delta = DELTA_OVER_S * S: the literal constant eps^3/(4 mu_1 log^2) makes the
#: step ~1e4 times smaller, and a delta independent of S (e.g. 0.5) makes the spherical
#: normalisation term (eta^2/2) E||g||^2 m = (delta eta / 2) m swamp the drift eta h(m) (1 - m^2)
#: whenever delta >> h, so m never leaves 0.  With delta = S/2 the normalisation term stays
#: below the drift up to m ~ 0.9 when h(0.9) >~ h(0).  Under (lambda -> c lambda) h -> c^2 h,
#: V -> c^4 V, so eta -> eta / c^2: the rule is invariant, as the dynamics are.
DELTA_OVER_S = 0.5
#: Monte-Carlo samples (reduced engine, seed V_SEED) for V_hat = E||g||^2 / d at m = 0.
V_SAMPLES = 2000
V_SEED = 0
#: Horizon = HORIZON_OVER_ODE x the population ODE's strong-recovery step (m >= 1 - ODE_EPS) of
#: the figure's slowest curve, capped by the figure's stated step budget.
HORIZON_OVER_ODE = 2.5
ODE_EPS = 0.01
FULL_TIER_NOTE = (
    "step sizes and horizons follow the normalised rule (params.normalisation: eta = delta/(d V_hat), "
    "delta = |h(0)|/2; each curve runs to 2.5 x its frozen-c_hat ODE strong-recovery step, capped at "
    "params.step_cap). At the paper's d and k the signal-to-noise ratio d V_hat / h(0)^2 is ~1e4-1e10, so "
    "the ODE needs 1e5-7e7 samples per run; the runs use sample-equivalent minibatches (B samples per "
    "update, step eta each; B and the per-update displacement per run in params.normalisation; the x axis "
    "counts samples = online SGD steps). A failing claim is marked 'not reproduced at full size', with "
    "'horizon capped' saying whether any run of the figure hit its cap")
NORMALISED_RULE = ("eta = delta / (d V_hat), delta = DELTA_OVER_S * |h(0)| (Theorem 16: eta = delta/(d V_k), "
                   "delta proportional to S_k); V_hat = E||g||^2/d of the projected per-sample gradient at "
                   "m = 0 (Monte Carlo, reduced engine, frozen c_hat), h(0) closed form")


def gradient_scale(spec: dict, samples: int = V_SAMPLES) -> dict:
    """V_hat = d^-1 E||g||^2 at m = 0 (Condition 2's V_k, measured) and h(0) for an instance.

    E||g||^2 = E[q^2] ||u - m u_hat||^2 + E||g - q (u - m u_hat)||^2 from
    :func:`verify.simulate.estimate_gradient`'s means and standard errors (at m = 0 the norm is 1).
    """
    from verify.simulate import estimate_gradient
    from verify.simulate.model import closed_form_h
    from verify.simulate.modes import MODES
    from verify.simulate.problem import build_problem

    inst = make_instance(spec)
    g = estimate_gradient(inst, 0.0, samples, engine="reduced", seed=V_SEED)
    n = g.samples
    second = g.component**2 + n * g.component_se**2 + n * g.residual_noise**2
    problem = build_problem(inst, MODES["frozen"], False)
    h0 = float(closed_form_h(problem, problem.c_hat, 0.0))
    return {"V_hat": float(second / inst.d), "h0": h0, "samples": samples, "seed": V_SEED}


def c_gradient_scale(spec: dict, samples: int = V_SAMPLES) -> dict:
    """E||g_c||^2 and ||E g_c|| at m = 0 for the trained c_hat (its per-sample gradient projected
    on the tangent space of S^{k-1}; same seed and sample count as :func:`gradient_scale`), for
    the block displacement of the modes that train c_hat."""
    from verify.simulate.model import terms
    from verify.simulate.modes import MODES
    from verify.simulate.problem import build_problem, student_direction
    from verify.simulate.reduced import projections

    problem = build_problem(make_instance(spec), MODES["joint"], False)
    _, a, beta = student_direction(problem, 0.0)
    rng = np.random.default_rng(V_SEED)
    z = rng.standard_normal((samples, problem.p))
    b = rng.standard_normal(samples)
    zw, zu, zh, _ = projections(problem, z, b, a, beta, constrained=True)
    c_hat = problem.c_hat
    gc = terms(problem, zw, zu, zh, None, c_hat).gc
    gc -= np.outer(gc @ c_hat, c_hat)
    return {"second_moment": float(np.mean(np.einsum("ij,ij->i", gc, gc))),
            "mean_norm": float(np.linalg.norm(gc.mean(axis=0))), "samples": samples, "seed": V_SEED}


def normalised_lr(spec: dict, delta_over_s: float = DELTA_OVER_S) -> dict:
    """eta = delta / (d V_hat), delta = delta_over_s |h(0)|, for the instance ``spec``."""
    scale = gradient_scale(spec)
    delta = delta_over_s * abs(scale["h0"])
    if not delta > 0:
        raise InvalidParameterError(f"h(0) = 0 for {spec}: no drift to normalise the step by")
    return {**scale, "delta": delta, "delta_over_S": delta_over_s, "lr": delta / (spec["d"] * scale["V_hat"])}


def ode_strong_step(spec: dict, lr: float, max_steps: int) -> float:
    """Population ODE (eq. (6), frozen c_hat) from the theorem's start sign(h(0))/sqrt(d): first
    step with sign(h(0)) m >= 1 - ODE_EPS, NaN if not within ``max_steps``."""
    from verify.simulate import drift_ode

    inst = make_instance(spec)
    path = drift_ode(inst, theorem_start(inst), lr, int(max_steps), eps=ODE_EPS, points=2)
    return math.nan if path.strong_step is None else path.strong_step


def ode_horizon(ode_steps: list[float], cap: int, factor: float = HORIZON_OVER_ODE) -> dict:
    """``factor`` x the slowest ODE strong-recovery step, capped at ``cap`` (NaN = beyond the ODE's
    own search range, which is 1000 x cap)."""
    slowest = max((math.inf if math.isnan(t) else t) for t in ode_steps)
    wanted = factor * slowest
    steps = int(min(cap, math.ceil(wanted))) if math.isfinite(wanted) else int(cap)
    return {"steps": steps, "ode_strong_slowest": slowest, "wanted": wanted, "cap": int(cap),
            "capped": not wanted <= cap, "factor": factor,
            "rule": f"{factor:g} x the slowest curve's ODE strong-recovery step (m >= 1 - {ODE_EPS:g}), "
                    f"capped at {int(cap)} steps"}


#: Sample-equivalent minibatches (full tier; :mod:`verify.simulate.reduced`): B samples per
#: update with step eta each.  B is the largest power of two that keeps at least MIN_UPDATES
#: updates per run and a per-update displacement sqrt(B) eta sqrt(d V_hat) + B eta |h(0)| (the
#: noise and drift moves of u_hat over one block) of at most MAX_DISPLACEMENT, so the block
#: gradient is taken where the online iterate still is; tests/test_simulate_batch.py checks
#: that B = 1 and such a B give the same hitting-time laws.
MIN_UPDATES = 2000
MAX_DISPLACEMENT = 0.01
#: At most this many sample rows (replicas x B) per update: beyond ~512 rows of k = 50 the
#: temporaries leave the cache and a sample costs ~2x more (measured: 1.55 us at 512 rows,
#: 3.2 us at 1024 and 2048, joint mode, k = 50, one core).
MAX_ROWS = 512


def max_batch(replicas: int) -> int:
    """The largest power of two B with replicas x B <= MAX_ROWS (at least 1)."""
    batch = 1
    while 2 * batch * replicas <= MAX_ROWS:
        batch *= 2
    return batch


def block_displacement(batch: int, lr: float, V_hat: float, h0: float, d: int,
                       c_scale: dict | None = None) -> float:
    """How far u_hat moves over one block of ``batch`` online steps, noise plus drift; with
    ``c_scale`` (:func:`c_gradient_scale`, modes that train c_hat) the larger of that and c_hat's
    move, which can be the larger one (sigmoid at xi = 1, k = 50: B = 256 blocks of u_hat's size
    froze a joint run that online SGD takes to m = 1)."""
    u_move = math.sqrt(batch) * lr * math.sqrt(d * V_hat) + batch * lr * abs(h0)
    if c_scale is None:
        return u_move
    c_move = math.sqrt(batch) * lr * math.sqrt(c_scale["second_moment"]) + batch * lr * c_scale["mean_norm"]
    return max(u_move, c_move)


def sample_batch(lr: float, V_hat: float, h0: float, d: int, steps: int, replicas: int = 1,
                 c_scale: dict | None = None) -> int:
    """The block size B of the rule above (1 when even B = 2 breaks it)."""
    batch, limit = 1, max_batch(replicas)
    while (2 * batch <= limit and steps // (2 * batch) >= MIN_UPDATES
           and block_displacement(2 * batch, lr, V_hat, h0, d, c_scale) <= MAX_DISPLACEMENT):
        batch *= 2
    return batch


def plan_run(spec: dict, cap: int, points: int = 200, lr_spec: dict | None = None,
             replicas: int = 1, horizon: dict | None = None, trains_c: bool = False) -> dict:
    """Full tier, one curve: the normalised step (of ``lr_spec`` if given, else of ``spec``), the
    ODE horizon of ``spec`` (HORIZON_OVER_ODE x its strong-recovery step, capped at ``cap``; or
    ``horizon``, e.g. one shared by several curves), the block size for ``replicas`` and the
    record spacing.  ``steps`` and ``record_every`` are multiples of ``batch``."""
    info = normalised_lr(spec if lr_spec is None else lr_spec)
    own = info if lr_spec is None else gradient_scale(spec)  # the displacement is this run's
    info["ode_strong"] = ode_strong_step(spec, info["lr"], 100 * cap)
    horizon = ode_horizon([info["ode_strong"]], cap) if horizon is None else horizon
    c_scale = c_gradient_scale(spec) if trains_c else None
    batch = sample_batch(info["lr"], own["V_hat"], own["h0"], spec["d"], horizon["steps"], replicas, c_scale)
    updates = -(-horizon["steps"] // batch)
    out = {**info, "horizon": horizon, "batch": batch, "steps": updates * batch,
           "record_every": batch * max(1, updates // points),
           "block_displacement": block_displacement(batch, info["lr"], own["V_hat"], own["h0"], spec["d"],
                                                    c_scale)}
    if c_scale is not None:
        out["c_gradient_scale"] = c_scale
    if lr_spec is not None:
        out["own_scale"] = own
    return out


def batch_arg(run: dict) -> dict:
    """``{"batch": B}`` for a minibatched run, ``{}`` for an online one (so the sweep-cache keys of
    online runs stay what they were)."""
    return {"batch": run["batch"]} if run.get("batch", 1) > 1 else {}


def normalise_single(p: dict, spec: dict, points: int, role: str, yardstick: str,
                     trains_c: bool) -> None:
    """Full tier, one measured instance: its :func:`plan_run` written into ``p`` (``lr``,
    ``steps``, ``batch``, ``record_every``, and ``normalisation`` with the numbers under ``role``)."""
    plan = plan_run(spec, p["step_cap"], points, replicas=p["replicas"], trains_c=trains_c)
    p.update(lr=plan["lr"], steps=plan["steps"], batch=plan["batch"], record_every=plan["record_every"],
             normalisation={"rule": NORMALISED_RULE, role: plan, "horizon": plan["horizon"],
                            "yardstick": yardstick})


# --- summaries ----------------------------------------------------------------------------
def first_hit(steps: np.ndarray, m: np.ndarray, level: float) -> float:
    """First recorded step with m ≥ level (NaN if never)."""
    hit = np.flatnonzero(np.asarray(m) >= level)
    return float(np.asarray(steps)[hit[0]]) if hit.size else math.nan


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
def _atomic_write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)


def check_writable(out: str | os.PathLike[str]) -> Path:
    """The output directory, created if needed; one-line error if it cannot be written."""
    path = Path(out)
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path, suffix=".probe")
        os.close(fd)
        os.remove(tmp)
    except OSError as exc:
        raise OutputDirectoryError(f"output directory {str(out)!r} is not writable "
                                   f"({exc.strerror or type(exc).__name__})") from None
    return path


class OutputDirectoryError(InvalidParameterError):
    """--out names a directory that cannot be created or written."""


def run_figure(module, quick: bool, scheduler: str | None, out, progress: bool = False) -> dict:
    """Compute, then write NAME.csv, NAME.png, NAME.json; returns the table and claims."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = check_writable(out)
    tier = "quick" if quick else "full"
    params = module.PARAMS[tier]
    rows = module.compute(params, scheduler, progress)
    text = table_csv(rows)
    _atomic_write(out / f"{module.NAME}.csv", text.encode())
    table = _columns(rows)
    fig = plt.figure(figsize=module.FIGSIZE)
    module.plot(table, fig, params)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    _atomic_write(out / f"{module.NAME}.png", buf.getvalue())
    results = [(desc, bool(ok), _plain(nums)) for desc, ok, nums in module.claims(table)]
    if tier == "full":  # a failing claim stays, marked (the modules' claims() mark the quick tier's)
        capped = horizon_capped(params)
        for _, ok, nums in results:
            if not ok and isinstance(nums, dict):
                nums["status"] = NOT_REPRODUCED_AT_FULL_STATUS
                nums["horizon capped"] = capped
    meta = {
        "figure": module.NAME, "paper": module.PAPER, "tier": tier, "params": params,
        "choices": module.CHOICES, "csv_columns": list(COLUMNS),
        "claims": [{"claim": d, "holds": ok, "numbers": n} for d, ok, n in results],
    }
    if tier == "full":
        meta["full_tier"] = FULL_TIER_NOTE
    _atomic_write(out / f"{module.NAME}.json",
                  (json.dumps(_plain(meta), indent=2, sort_keys=True) + "\n").encode())
    return {"table": table, "claims": results}


def horizon_capped(value) -> bool:
    """Whether any run's ODE horizon in ``params`` was cut by its step cap (then a failing claim
    may say the budget, not the dynamics, was short)."""
    if isinstance(value, dict):
        return bool(value.get("capped")) or any(horizon_capped(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(horizon_capped(v) for v in value)
    return False


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


def plot_curves(ax, table: dict, panel: str, quantity: str = "m", ode: str | None = "ode_m",
                ylabel: str = r"$m_t = \langle u_t, u\rangle$", label_prefix: str = "") -> None:
    """Every series of ``panel`` (solid) and its population ODE (dashed, same colour)."""
    for name in series_names(table, panel, quantity):
        s, v = select(table, panel, name, quantity)
        line, = ax.plot(s, v, label=f"{label_prefix}{name}", lw=1.4)
        if ode is not None:
            so, vo = select(table, panel, name, ode)
            if so.size:
                ax.plot(so, vo, ls="--", lw=1.0, color=line.get_color())
    ax.set_xlabel("SGD step t (samples seen)")
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
