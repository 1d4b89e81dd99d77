"""The full tier's run plan: step size and horizon per curve (paper-size runs, online SGD).

At the paper's d and k online SGD needs 10^5-10^8 samples per run (d V_hat / h(0)^2 is
1e4-1e10), so every full-tier curve gets

- the normalised step of Theorem 16 (:func:`normalised_lr`), measured on its instance;
- a horizon from its own population ODE (:func:`ode_strong_step`, :func:`ode_horizon`),
  with :data:`SAFETY_CAP` as a safety net only (it binds on none of the paper-size runs;
  each figure's JSON says so under ``horizon_cap``);
- online SGD, B = 1, on the compiled reduced chain (:mod:`verify.simulate.compiled`,
  about 1-7 us per sample), so 10^9 samples in all fit in the tier's budget.

``--batch-rule`` (opt-in) brings back the sample-equivalent minibatches of the earlier full
tier (:func:`sample_batch`, :mod:`verify.simulate.reduced`), for comparison with the online
runs only.  :func:`plan_run` puts the pieces together; the figure modules write its output
into their JSON (``params.normalisation``).
"""

from __future__ import annotations

import math

import numpy as np

from verify.base.errors import InvalidParameterError
from verify.figures.instances import make_instance, theorem_start
from verify.simulate import drift_ode, estimate_gradient
from verify.simulate.model import closed_form_h, terms
from verify.simulate.modes import MODES
from verify.simulate.problem import build_problem, student_direction
from verify.simulate.reduced import projections

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
#: the figure's slowest curve, capped at the figure's step_cap (SAFETY_CAP).
HORIZON_OVER_ODE = 2.5
ODE_EPS = 0.01
#: The full tier's step cap, a safety net only: 5.8 x the longest ODE horizon of the paper-size
#: runs (Fig. 3's instance: 2.5 x 6.9e7 = 1.7e8 samples), so no ODE horizon reaches it; every
#: figure's JSON records under ``horizon_cap`` whether it bound (it may not).
SAFETY_CAP = 1_000_000_000
FULL_TIER_NOTE = (
    "online SGD (B = 1) on the compiled reduced chain (params.runs: the engine that ran and B). Step "
    "sizes and horizons follow the normalised rule (params.normalisation: eta = delta/(d V_hat), delta = "
    "|h(0)|/2; each curve runs to 2.5 x its frozen-c_hat ODE strong-recovery step; params.step_cap is a "
    "safety net far above every such horizon, and horizon_cap.binds says whether it bound). At the "
    "paper's d and k the signal-to-noise ratio d V_hat / h(0)^2 is ~1e4-1e10, so the ODE needs 1e5-7e7 "
    "samples per run. A failing claim is marked 'not reproduced at full size'")
BATCH_RULE_NOTE = (
    "--batch-rule: sample-equivalent minibatches (B samples per update, step eta each; B and the "
    "per-update displacement per run in params.normalisation; the x axis counts samples), for "
    "comparison with the online runs of the default full tier")
NORMALISED_RULE = ("eta = delta / (d V_hat), delta = DELTA_OVER_S * |h(0)| (Theorem 16: eta = delta/(d V_k), "
                   "delta proportional to S_k); V_hat = E||g||^2/d of the projected per-sample gradient at "
                   "m = 0 (Monte Carlo, reduced engine, frozen c_hat), h(0) closed form")


def gradient_scale(spec: dict, samples: int = V_SAMPLES) -> dict:
    """V_hat = d^-1 E||g||^2 at m = 0 (Condition 2's V_k, measured) and h(0) for an instance.

    E||g||^2 = E[q^2] ||u - m u_hat||^2 + E||g - q (u - m u_hat)||^2 from
    :func:`verify.simulate.estimate_gradient`'s means and standard errors (at m = 0 the norm is 1).
    """

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
#: noise and drift moves of u_hat over one block; and the same for c_hat when it is trained) of
#: at most MAX_DISPLACEMENT, so the block gradient is taken where the online iterate still is;
#: tests/test_simulate_batch.py checks that B = 1 and such a B give the same laws.
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
             replicas: int = 1, horizon: dict | None = None, trains_c: bool = False,
             batch_rule: bool = False) -> dict:
    """Full tier, one curve: the normalised step (of ``lr_spec`` if given, else of ``spec``), the
    ODE horizon of ``spec`` (HORIZON_OVER_ODE x its strong-recovery step, capped at ``cap``; or
    ``horizon``, e.g. one shared by several curves) and the record spacing; online (B = 1), or
    with ``batch_rule`` the block size of :func:`sample_batch` for ``replicas``.  ``steps`` and
    ``record_every`` are multiples of ``batch``."""
    info = normalised_lr(spec if lr_spec is None else lr_spec)
    info["ode_strong"] = ode_strong_step(spec, info["lr"], 100 * cap)
    horizon = ode_horizon([info["ode_strong"]], cap) if horizon is None else horizon
    if not batch_rule:
        steps = horizon["steps"]
        return {**info, "horizon": horizon, "batch": 1, "steps": steps,
                "record_every": max(1, steps // points)}
    own = info if lr_spec is None else gradient_scale(spec)  # the displacement is this run's
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


def online_run(p: dict, lr: float) -> dict:
    """The quick tier's plan for one curve, in :func:`plan_run`'s keys: a fixed step ``lr``, the
    figure's own horizon and record spacing, online SGD (B = 1)."""
    return {"lr": lr, "steps": p["steps"], "batch": 1, "record_every": p["record_every"]}


def batch_arg(run: dict) -> dict:
    """``{"batch": B}`` for a minibatched run, ``{}`` for an online one (so the sweep-cache keys of
    online runs stay what they were)."""
    return {"batch": run["batch"]} if run.get("batch", 1) > 1 else {}


def normalise_single(p: dict, spec: dict, points: int, role: str, yardstick: str,
                     trains_c: bool) -> None:
    """Full tier, one measured instance: its :func:`plan_run` written into ``p`` (``lr``,
    ``steps``, ``batch``, ``record_every``, and ``normalisation`` with the numbers under ``role``)."""
    plan = plan_run(spec, p["step_cap"], points, replicas=p["replicas"], trains_c=trains_c,
                    batch_rule=p.get("batch_rule", False))
    p.update(lr=plan["lr"], steps=plan["steps"], batch=plan["batch"], record_every=plan["record_every"],
             normalisation={"rule": NORMALISED_RULE, role: plan, "horizon": plan["horizon"],
                            "yardstick": yardstick})


def horizon_capped(value) -> bool:
    """Whether any run's ODE horizon in ``params`` was cut by its step cap (then a failing claim
    may say the budget, not the dynamics, was short)."""
    if isinstance(value, dict):
        return bool(value.get("capped")) or any(horizon_capped(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(horizon_capped(v) for v in value)
    return False
