"""Fig. 5(a), 5(b): teacher u not orthogonal to span W, ReLU, k = 100, d = 1000.

u = α u₁ + √(1 − α²) u₂ with u₁ uniform in span W and u₂ uniform in its complement
(Appendix B), α = ‖Π_W u‖.  Mode ``nonorthogonal``: ĉ frozen, û not projected (with û
projected the overlap could never exceed √(1 − α²)).  (a) varies α; (b) repeats α = 1/2
on several random instances.  The population ODE is overlaid for α = 0, the one case
where the closed form applies.
"""

from __future__ import annotations

import math

import numpy as np

from verify.base.sweep import Task
from verify.figures import common, full_tier, overlays, paper_setup, plotting
from verify.figures.spec import FigureSpec

NAME = "fig5"
PAPER = "Fig. 5: violating Assumption 2 (||Pi_W u|| > 0) leaves the S-shaped curves qualitatively unchanged"
FIGSIZE = (10.0, 4.0)


def _params(k, d, steps, eta0):
    return {"kind": "separated", "k": k, "d": d, "xi": 1.0, "activation": "relu", "quantized": False,
            "alphas": [0.0, 0.25, 0.5, 0.75], "repeat_alpha": 0.5, "repeat_seeds": [11, 12, 13, 14, 15],
            "instance_seed": 10, "steps": steps, "lr": eta0 / d, "eta0": eta0, "replicas": 1,
            "sgd_seed": 5, "record_every": max(1, steps // 200), "m0": "theorem"}


#: quick horizon = 2 x the population ODE's weak-recovery step for alpha = 0 (eq. (6) from
#: m_0 = sign(h(0))/sqrt(d) at k = 8, d = 100, eta = 4/d: m >= 1/2 at step ~9000, 0.9 at ~17000).
QUICK_ODE_WEAK = 9000
HORIZON_OVER_ODE = 2.0
PARAMS = {"quick": _params(8, 100, int(HORIZON_OVER_ODE * QUICK_ODE_WEAK), 4.0),
          "full": {**_params(100, 1000, 10_000_000, 4.0), "lr": None, "eta0": None, "lr_rule": "normalised",
                   "step_cap": full_tier.SAFETY_CAP}}


def _resolve(p) -> None:
    """Full tier: one normalised step for every run, measured on the alpha = 0 instance (the one
    the closed forms apply to), horizon from its ODE (p["normalisation"])."""
    if p.get("lr_rule") != "normalised" or p.get("normalisation"):
        return
    spec = common.instance_spec(p["kind"], p["k"], p["d"], p["xi"], p["activation"], p["instance_seed"],
                                quantized=p["quantized"])
    full_tier.normalise_single(p, spec, 200, "alpha_0_instance",
                               "the alpha = 0 ODE (eq. (6) needs u orthogonal to span W); the same "
                               "eta for every alpha and every repeated instance", trains_c=False)
def _paper(k, d, steps, full=False):
    """Mode nonorthogonal as in the normalised setup, a random start, one eta for every alpha and
    instance: the normalised quick step 4/d converted by s(1)^2, or at full size the normalised
    rule's step for the alpha = 0 instance."""
    out = {"m0": None, "steps": steps, "lr": paper_setup.reference_lr(4.0 / d, k, 1.0)}
    if full:
        out.update(lr=None, steps=None, reference=common.instance_spec("separated", k, d, 1.0, "relu", 10,
                                                                        quantized=False))
    return out


PAPER_SETUP = {"quick": _paper(8, 100, int(HORIZON_OVER_ODE * QUICK_ODE_WEAK)),
               "full": _paper(100, 1000, None, full=True)}
PAPER_AXES = {"xi": "Appendix B gives no xi for Fig. 5; chosen 1"}  # c_hat is frozen here
PAPER_CHOICES = {
    "overlap": "with a random start each run is oriented by the sign of its last overlap (the fixed point it "
               "ran to: c_hat is frozen; no closed-form h(0) for these rows)",
    "reference curve": "alpha = 0; every alpha and repeated instance gets the same eta",
}

CHOICES = {
    "overlap": "sign(m_0) <u_t, u> with m_0 = sign(h(0))/sqrt(d): with c_hat frozen the dynamics run to "
               "sign(h(0)) u (eq. (6)), which is -u for about half of the random c_hat",
    "xi": "1 (Appendix B does not give xi for Fig. 5)",
    "alphas": "{0, 1/4, 1/2, 3/4} (the paper's levels are not listed)",
    "c_hat": "frozen (Appendix B does not say; the analysed algorithm freezes it)",
    "start": "m_0 = sign(h(0))/sqrt(d) with h from the orthogonal closed form, as Theorems 11-13",
    "lr": ("eta = eta0/d, eta0 = 4 (= 2/E[relu'(g)^2], the scaling experiment's rule); at eta0 = 40 the "
           "noise kept runs from completing the S-curve"),
    "ode": "dashed for alpha = 0 only: eq. (6) needs u orthogonal to span W",
    "steps": ("quick: 18000 = 2 x the alpha = 0 population ODE's weak-recovery step (~9000 at k = 8, "
              "d = 100, eta = 4/d); at 12000 steps the alpha = 0 run reached only m = 0.46 (its ODE 0.72), "
              "i.e. the horizon, not the dynamics, decided the claim. The claims check the ratio from the "
              "plotted ODE. full: the normalised rule of verify.figures.full_tier (Theorem 16: eta = "
              "delta/(d V_k), delta = |h(0)|/2 on the alpha = 0 instance, one eta for all runs), horizon "
              "2.5 x the alpha = 0 ODE's strong-recovery step (params.step_cap is a safety net that does not "
              "bind), online SGD, B = 1 (params.normalisation; the old eta = 4/d left the alpha = 0 ODE "
              "short of m = 1/2 within 2e6 steps)"),
    "quick evidence": ("at the quick size SGD at alpha = 0 is slower than its ODE: with 5 replicas (seeds of "
                       "sgd_seed's stream) at 18000 steps only replica 0, the plotted one, reaches m = 1/2 "
                       "(step 16470 vs the ODE's ~8300); alpha = 1/4, 1/2, 3/4 reach it at median steps "
                       "7920, 5220, 4050 (4-5 of 5 replicas). So 'every alpha reaches m >= 1/2' holds "
                       "on the plotted run but is marginal for alpha = 0, and the factor-3 agreement "
                       "across alpha is not reproduced at quick size (alpha = 0 / alpha = 3/4 ~ 4.6; at the "
                       "paper's size, --full, it holds: ratio 1.29); "
                       "that claim is kept and marked in the JSON"),
}

#: Claims the quick data is known not to reproduce (see CHOICES["quick evidence"]); they stay
#: in claims() and the JSON (holds: false, status below), and no other claim may fail.
NOT_REPRODUCED_AT_QUICK = (
    "the times to weak recovery agree within a factor 3 across alpha (qualitatively the same)",)


def _spec(p, alpha, seed):
    return common.instance_spec(p["kind"], p["k"], p["d"], p["xi"], p["activation"], seed,
                                quantized=p["quantized"], alpha=alpha)


def compute(p, scheduler, progress):
    _resolve(p)
    runs = [("a", f"alpha = {a:g}", _spec(p, a, p["instance_seed"])) for a in p["alphas"]]
    runs += [("b", f"instance {s}", _spec(p, p["repeat_alpha"], s)) for s in p["repeat_seeds"]]
    tasks = [Task(common.sgd_task, dict(instance=spec, mode="nonorthogonal", steps=p["steps"], lr=p["lr"],
                                        replicas=p["replicas"], seed=p["sgd_seed"],
                                        record_every=p["record_every"], m0=p["m0"],
                                        **full_tier.batch_arg(p), **common.model_arg(p, "nonorthogonal")))
             for _, _, spec in runs]
    paper = p.get("setup") == "paper"
    if not paper:  # the ODE is D.1's (unit rows, u orthogonal to span W)
        ode_spec = common.instance_spec(p["kind"], p["k"], p["d"], p["xi"], p["activation"],
                                        p["instance_seed"], quantized=p["quantized"])
        tasks.append(Task(common.drift_task, dict(instance=ode_spec, m0=p["m0"], lr=p["lr"],
                                                  steps=p["steps"])))
    results = common.sweep(p, tasks, scheduler, progress)
    rows = []
    for (panel, label, _), res in zip(runs, results, strict=False):
        # the start sign(h(0))/sqrt(d) sets the sign (paper setup: a random start, so the sign of the
        # run's last overlap, the fixed point it ran to)
        sign = math.copysign(1.0, res["m"][-1 if paper else 0, 0])
        rows += common.curve_rows(panel, label, "m", res["steps"], sign * res["m"][:, 0])
    if not paper:
        ode = results[-1]
        rows += common.curve_rows("a", "alpha = 0", "ode_m", ode["steps"],
                                  math.copysign(1.0, ode["m"][0]) * ode["m"])
    return rows


def plot(table, fig, p):
    for i, (panel, claim, detail) in enumerate((
            ("a", "varying ||Pi_W u||, the S-curves", "alpha = ||Pi_W u||; "),
            ("b", f"||Pi_W u|| = {p['repeat_alpha']:g}, S-curves on random instances", ""))):
        ax = fig.add_subplot(1, 2, i + 1)
        plotting.plot_curves(ax, table, panel)
        plotting.title(ax, f"Fig. 5({panel})", claim, f"{detail}ReLU, k = {p['k']}, d = {p['d']}")
        plotting.legend_right(ax)


def _weak(table, panel):
    return {n: common.first_hit(*common.select(table, panel, n, "m"), common.WEAK)
            for n in common.series_names(table, panel, "m")}


def setup_rows(tables: dict) -> list[tuple]:
    """Steps to weak recovery against alpha = ||Pi_W u|| under each setup (NAME.setups.csv)."""
    return overlays.time_rows(tables, lambda table: _weak(table, "a"), "steps_to_weak_recovery")


def setup_plot(table, fig) -> None:
    overlays.against(table, fig, "steps to m >= 1/2", "alpha = ||Pi_W u||",
                     lambda name: float(name.split(" = ")[1]))


def claims(table):
    a, b = _weak(table, "a"), _weak(table, "b")
    horizon = float(np.max(table["step"]))
    has_ode = bool(common.select(table, "a", "alpha = 0", "ode_m")[0].size)
    ode_weak = common.first_hit(*common.select(table, "a", "alpha = 0", "ode_m"), common.WEAK)
    ode_ratio = horizon / ode_weak if math.isfinite(ode_weak) and ode_weak > 0 else 0.0
    all_reach = all(math.isfinite(t) for t in a.values())
    ratio, spread = common.spread_ratio(a, common.horizons(table, "a", a), "ratio")
    agree = all_reach and ratio <= 3.0
    finals = [float(common.select(table, "b", n, "m")[1][-1]) for n in b]
    horizon_claim = [] if not has_ode else [  # no ODE in the paper setup (its rows are not D.1's)
        ("the horizon is at least twice the population ODE's weak-recovery time (alpha = 0), so "
         "'reaches m >= 1/2' tests the dynamics, not the horizon",
         ode_ratio >= HORIZON_OVER_ODE - 1e-9,
         {"horizon": horizon, "ode weak step (alpha = 0)": ode_weak, "horizon / ode": ode_ratio})]
    return [
        *horizon_claim,
        ("every alpha reaches weak recovery m >= 1/2", all_reach, a),
        (NOT_REPRODUCED_AT_QUICK[0], agree,
         {**spread, **({} if agree else {"status": common.NOT_REPRODUCED_AT_QUICK_STATUS})}),
        ("repeated runs at alpha = 1/2: most runs (>= 3 of 5) complete the S-curve (m ends >= 0.8)",
         int(np.sum(np.array(finals) >= 0.8)) >= 3, {"final m": finals}),
    ]


SPEC = FigureSpec(NAME, PAPER, FIGSIZE, PARAMS, CHOICES, compute, plot, claims,
                  paper_setup=PAPER_SETUP, paper_choices=PAPER_CHOICES, paper_axes=PAPER_AXES,
                  setup_rows=setup_rows, setup_plot=setup_plot,
                  not_reproduced_at_quick=NOT_REPRODUCED_AT_QUICK)
