"""Fig. 2(a), 2(b): 10 random instances at ξ = 1, joint training vs frozen ĉ.

Appendix B: d = 2000, k = 50, ReLU, rows uniform on S^{d−1}, c on S^{k−1} (not
quantized).  Both variants start at m_0 = sign(h(0))/√d (Theorems 11–13 assume
⟨u_0, u⟩ sign(h(0)) ≥ β/√d); the frozen runs carry the population ODE (eq. (6)).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from verify.base.sweep import Task
from verify.figures import common, full_tier, overlays, paper_setup, plotting
from verify.figures.spec import FigureSpec

NAME = "fig2"
PAPER = "Fig. 2: joint training of c_hat is faster than frozen c_hat; qualitatively similar curves"
FIGSIZE = (10.0, 4.0)
PANELS = (("a", "joint"), ("b", "frozen"))


def _params(k, d, steps, eta0):
    return {"kind": "separated", "k": k, "d": d, "xi": 1.0, "activation": "relu", "quantized": False,
            "instance_seeds": list(range(10)), "steps": steps, "lr": eta0 / d, "eta0": eta0,
            "sgd_seed": 2, "record_every": max(1, steps // 200), "m0": "theorem"}


#: full: the safety-net step cap (far above every instance's ODE horizon): 20 runs at k = 50.
FULL_CAP = full_tier.SAFETY_CAP
PARAMS = {"quick": _params(8, 100, 16000, 4.0),
          "full": {**_params(50, 2000, FULL_CAP, 4.0), "lr": None, "eta0": None, "lr_rule": "normalised",
                   "step_cap": FULL_CAP}}


def _resolve(p, specs: list[dict]) -> list[dict]:
    """Per instance (the same for joint and frozen): ``lr``, ``steps``, ``batch``, ``record_every``.
    Quick: one fixed eta0/d and horizon, online steps.  Full: :func:`full_tier.plan_run` per instance
    (normalised step, 2.5 x that instance's frozen ODE strong-recovery step capped at step_cap,
    online SGD), the numbers in p["normalisation"]."""
    if p.get("lr_rule") != "normalised":
        return [full_tier.online_run(p, p["lr"]) for _ in p["instance_seeds"]]
    # trains_c: the joint panel's c_hat sets the block size for both panels
    plans = {seed: full_tier.plan_run(spec, p["step_cap"], trains_c=True,
                                      batch_rule=p.get("batch_rule", False))
             for seed, spec in zip(p["instance_seeds"], specs, strict=True)}
    p.update(steps=max(v["steps"] for v in plans.values()),
             normalisation={"rule": full_tier.NORMALISED_RULE, "per_instance": plans,
                            "yardstick": "the frozen ODE (eq. (6)); joint training has no closed-form ODE, "
                                         "so the frozen ODE time sets both panels' horizon"})
    return [plans[seed] for seed in p["instance_seeds"]]


def _paper(k, d, steps, full=False):
    """Joint and frozen as in the normalised setup (Appendix B does not say u_hat is left
    unconstrained here), a random start, one eta for both panels and all ten instances: the
    normalised quick step 4/d converted by s(1)^2, or at full size the normalised rule's step for
    instance 0 (the median step of the ten, 0.0235, measured 2026-11-23)."""
    out = {"m0": None, "steps": steps, "lr": paper_setup.reference_lr(4.0 / d, k, 1.0)}
    if full:
        out.update(lr=None, steps=None, reference=common.instance_spec("separated", k, d, 1.0, "relu", 0,
                                                                        quantized=False))
    return out


PAPER_SETUP = {"quick": _paper(8, 100, 16000), "full": _paper(50, 2000, None, full=True)}
PAPER_AXES = {"c_step": paper_setup.C_STEP_OPEN + " (panel (a) only: (b) freezes c_hat)",
              "xi": "Appendix B gives only 'xi = Theta(1)'; chosen 1"}
PAPER_CHOICES = {
    "overlap": "(a) |<u_t, u>| as in the normalised setup; (b) with a random start the sign of <u_T, u> at "
               "the end orients each frozen run (the fixed point it ran to; no closed-form h(0) for these "
               "rows)",
    "reference curve": "quick: the normalised step 4/d; full: instance 0's normalised step; the same eta for "
                       "every instance and both panels",
}

CHOICES = {
    "lr": ("eta = eta0/d = 2/(d E[relu'(g)^2]) (the scaling experiment's rule); the paper gives no step "
           "size. At eta0 = 40 the SGD noise held most runs far from m = 0.9"),
    "start": "m_0 = sign(h(0))/sqrt(d), the start of Theorems 11-13 (a start of the wrong sign "
             "with frozen c_hat heads to the other fixed point); the same start for both panels",
    "overlap": "(a) |<u_t, u>|: with c_hat trained, (c_hat, u_hat) -> (-c_hat, -u_hat) leaves the network "
               "unchanged, so -u is the teacher too; (b) sign(h(0)) <u_t, u>: with c_hat frozen the "
               "population dynamics (eq. (6)) run from the theorem's start to sign(h(0)) u, which is -u for "
               "about half of the random c_hat (the dashed ODE does the same)",
    "full": ("the normalised rule of verify.figures.full_tier per instance (Theorem 16: eta = delta/(d V_k), "
             "delta = |h(0)|/2; V_hat, h(0), eta, each instance's frozen ODE strong-recovery step, its "
             "horizon and block size in params.normalisation.per_instance), the same eta and horizon for "
             "joint and frozen; horizon 2.5 x that instance's ODE step (FULL_CAP is a safety net that does "
             "not bind); online SGD, B = 1. |h(0)| varies 40x across the 10 random "
             "instances (d V_hat / h(0)^2 from 4e4 to 5e7), so one horizon for all would be set by the "
             "hardest instance"),
    "replicas": "one SGD run per instance (seed sgd_seed), as the figure shows one curve per instance",
    "lambda": "1/k (the paper does not say)",
    "ode": "dashed: population ODE of eq. (6) for the frozen runs (closed form, c on the sphere)",
    "quick size": ("k = 8, d = 100, 16000 steps, the same eta = 4/d for both panels, medians over the 10 "
                   "instances (a run that never reaches 0.9 counts as infinitely slow). The claim 'joint "
                   "reaches m >= 0.9 sooner' (the paper: 'roughly twice as efficient', Sec. 4) is NOT "
                   "reproduced at an affordable quick size; it stays in the claims, marked in the JSON. "
                   "Sizes tried (one SGD run per instance and panel, median joint vs median frozen steps): "
                   "k = 8, d = 100, 16000 steps: 8400 vs 8280; k = 8, d = 100, 30000 steps: 8400 vs 8325; "
                   "k = 16, d = 100, 24000 steps: 7 of 10 joint and 6 of 10 frozen runs never reach 0.9; "
                   "k = 8, d = 320 (the paper's k/d = 1/40), 60000 steps: 28200 vs 31350 (ratio 1.11, "
                   "joint faster on 5 instances, frozen on 5; ~4x the quick cost). "
                   "Joint training is slower on the instances where frozen c_hat is easy and faster where "
                   "h(0) is near zero; no size tried gives the paper's factor ~2. At lambda = 1/k the drift "
                   "h shrinks fast with k (h(0) ~ 5e-3 at k = 8, ~2e-4 at k = 50 even with c_hat = c), "
                   "steps to recovery grow like d log d / h and the cost per step like k^2, so the "
                   "paper's k = 50 is out of reach of --quick. At the paper's size (--full, 2026-11-22) "
                   "it is not reproduced either: joint sooner on 6 instances, frozen on 3, medians "
                   "9.2e5 (joint) vs 7.6e5 (frozen) samples, with horizons of 2.5x each instance's ODE "
                   "(two instances capped at 1e7)"),
}

#: Claims this figure's quick data is known not to reproduce (see CHOICES["quick size"]).
#: They stay in claims() and in the JSON (holds: false, status below); the tests require that
#: they are reported and that no other claim fails on --quick.
NOT_REPRODUCED_AT_QUICK = (
    "joint training reaches m >= 0.9 sooner than frozen c_hat (median over instances)",)


def compute(p, scheduler, progress):
    tasks, ode_tasks = [], []
    specs = [common.instance_spec(p["kind"], p["k"], p["d"], p["xi"], p["activation"], seed,
                                  quantized=p["quantized"]) for seed in p["instance_seeds"]]
    for spec, run in zip(specs, _resolve(p, specs), strict=True):
        for _, mode in PANELS:
            tasks.append(Task(common.sgd_task, dict(
                instance=spec, mode=mode, steps=run["steps"], lr=run["lr"], replicas=1, seed=p["sgd_seed"],
                record_every=run["record_every"], m0=p["m0"], **full_tier.batch_arg(run),
                **common.model_arg(p, mode))))
        if p.get("setup") != "paper":  # the ODE is D.1's (unit rows)
            ode_tasks.append(Task(common.drift_task, dict(instance=spec, m0=p["m0"], lr=run["lr"],
                                                          steps=run["steps"])))
    results = common.sweep(p, tasks + ode_tasks, scheduler, progress)
    rows = []
    for i, seed in enumerate(p["instance_seeds"]):
        ode = results[len(tasks) + i] if ode_tasks else None
        for j, (panel, _) in enumerate(PANELS):
            res = results[2 * i + j]
            # frozen: the start sign(h(0))/sqrt(d) sets the sign (paper setup: random start, so the
            # sign of the run's last overlap, the fixed point it ran to)
            sign = math.copysign(1.0, ode["m"][0] if ode is not None else res["m"][-1, 0])
            m = np.abs(res["m"][:, 0]) if panel == "a" else sign * res["m"][:, 0]
            rows += common.curve_rows(panel, f"instance {seed}", "m", res["steps"], m)
        if ode is not None:
            sign = math.copysign(1.0, ode["m"][0])
            rows += common.curve_rows("b", f"instance {seed}", "ode_m", ode["steps"], sign * ode["m"])
    return rows


#: Per panel, the caption's claim (Fig. 2: "though time scales differ ..., trajectories exhibit
#: similar behavior"; Sec. 4: joint "roughly twice as efficient").
PANEL_CLAIMS = {"a": "joint c_hat, faster than frozen", "b": "frozen c_hat, the same S-shape, slower"}


def plot(table, fig, p):
    for i, (panel, _) in enumerate(PANELS):
        ax = fig.add_subplot(1, 2, i + 1, sharey=fig.axes[0] if i else None)
        # one curve per instance, the same colour and marker in both panels: one legend for both
        plotting.plot_curves(ax, table, panel)
        plotting.title(ax, f"Fig. 2({panel})", PANEL_CLAIMS[panel], f"xi = 1, k = {p['k']}, d = {p['d']}")
    plotting.figure_legend(fig, title="SGD, one run per instance")


def _times(table, panel):
    return [common.first_hit(*common.select(table, panel, name, "m"), common.STRONG)
            for name in common.series_names(table, panel, "m")]


def setup_rows(tables: dict) -> list[tuple]:
    """Per instance: steps to m >= 0.9 with joint and with frozen c_hat, under each setup."""
    rows = []
    for panel, mode in PANELS:
        rows += overlays.time_rows(tables, functools.partial(_named_times, panel=panel),
                                   f"{mode}_steps_to_0.9")
    return rows


def _named_times(table, panel: str) -> dict:
    return dict(zip(common.series_names(table, panel, "m"), _times(table, panel), strict=True))


def setup_plot(table, fig) -> None:
    overlays.pairs(table, fig, "frozen_steps_to_0.9", "joint_steps_to_0.9", "per instance, steps to m >= 0.9")


def claims(table):
    joint, frozen = (np.array(_times(table, panel)) for panel, _ in PANELS)
    inf = np.where(np.isnan(joint), np.inf, joint), np.where(np.isnan(frozen), np.inf, frozen)
    med_joint, med_frozen = float(np.median(inf[0])), float(np.median(inf[1]))
    reached = int(np.isfinite(inf[0]).sum())
    sooner = med_joint < med_frozen
    ratio = med_frozen / med_joint if med_joint > 0 else math.inf
    numbers = {"median joint": med_joint, "median frozen": med_frozen,
               "median frozen / median joint (paper: ~2)": ratio,
               "instances where joint is sooner": int(np.sum(inf[0] < inf[1])),
               "instances where frozen is sooner": int(np.sum(inf[1] < inf[0])),
               "joint reached": reached, "frozen reached": int(np.isfinite(inf[1]).sum())}
    if not sooner:
        numbers["status"] = common.NOT_REPRODUCED_AT_QUICK_STATUS
    return [
        (NOT_REPRODUCED_AT_QUICK[0], sooner, numbers),
        ("at least 8 of the 10 joint runs reach m >= 0.9", reached >= 8, {"reached": reached}),
        ("frozen runs follow the same S-shaped course: at least 8 of 10 reach m >= 1/2",
         int(np.sum([math.isfinite(common.first_hit(*common.select(table, "b", n, "m"), common.WEAK))
                     for n in common.series_names(table, "b", "m")])) >= 8, {}),
    ]


SPEC = FigureSpec(NAME, PAPER, FIGSIZE, PARAMS, CHOICES, compute, plot, claims,
                  paper_setup=PAPER_SETUP, paper_choices=PAPER_CHOICES, paper_axes=PAPER_AXES,
                  setup_rows=setup_rows, setup_plot=setup_plot,
                  not_reproduced_at_quick=NOT_REPRODUCED_AT_QUICK)
