"""Fig. 1(b) / 6: joint training with σ = He₃ as ξ grows, short and long time scales.

Appendix B: d = 1000, k = 20; the plateau before weak recovery lengthens as ξ → ∞
(the GLM end, Remark 15, where He₃'s information exponent 3 makes h(0) vanish).  One
step size for every ξ (D.1 normalisation, no 1/ξ output factor), so the plateau's
growth is the landscape's, not a step rescaling.
"""

from __future__ import annotations

import math

import numpy as np

from verify.base.sweep import Task
from verify.figures import common, full_tier, overlays, paper_setup, plotting
from verify.figures.spec import FigureSpec

NAME = "fig1b_6"
PAPER = "Fig. 1(b) = Fig. 6: the plateau before weak recovery lengthens as xi grows (He3, joint training)"
FIGSIZE = (10.0, 4.0)
SHORT_FRACTION = 0.2


def _params(k, d, steps, eta0, replicas):
    return {"kind": "separated", "k": k, "d": d, "activation": "he3", "quantized": False,
            "instance_seed": 3, "mode": "joint", "xi_over_sqrt_k": [0.25, 0.5, 1.0, 2.0],
            "steps": steps, "lr": eta0 / (3.0 * d), "eta0": eta0, "replicas": replicas, "sgd_seed": 3,
            "record_every": max(1, steps // 400), "short_fraction": SHORT_FRACTION}


FULL_CAP = full_tier.SAFETY_CAP
PARAMS = {"quick": _params(8, 100, 12000, 20.0, 4),
          "full": {**_params(20, 1000, FULL_CAP, 20.0, 1), "lr": None, "eta0": None, "lr_rule": "normalised",
                   "step_cap": FULL_CAP}}


def _resolve(p) -> list[dict]:
    """Per xi: ``lr``, ``steps``, ``batch``, ``record_every``.  Quick: one fixed step and horizon,
    online.  Full: one normalised step for every xi, measured at the smallest xi; one horizon for
    every xi, 2.5 x the slowest xi's frozen-c_hat ODE strong-recovery step; online SGD (or, with
    --batch-rule, minibatches of each xi's own size) (p["normalisation"])."""
    if p.get("lr_rule") != "normalised":
        return [full_tier.online_run(p, p["lr"]) for _ in p["xi_over_sqrt_k"]]
    if not p.get("normalisation"):
        specs = [common.instance_spec(p["kind"], p["k"], p["d"], r * math.sqrt(p["k"]), p["activation"],
                                      p["instance_seed"], quantized=p["quantized"])
                 for r in p["xi_over_sqrt_k"]]
        # One horizon for every xi, from the slowest ODE: the ODE (noise-free) gets *faster* as xi
        # grows at a fixed eta, so per-xi ODE horizons would cut exactly the runs whose plateau
        # (made by the gradient noise, V ~ xi^4) the figure is about.
        lr = full_tier.normalised_lr(specs[0])["lr"]
        odes = [full_tier.ode_strong_step(s, lr, 100 * p["step_cap"]) for s in specs]
        horizon = full_tier.ode_horizon(odes, p["step_cap"])
        plans = {_label(r): full_tier.plan_run(s, p["step_cap"], 400, lr_spec=specs[0],
                                               replicas=p["replicas"], horizon=horizon, trains_c=True,
                                               batch_rule=p.get("batch_rule", False))
                 for r, s in zip(p["xi_over_sqrt_k"], specs, strict=True)}
        p.update(lr=plans[_label(p["xi_over_sqrt_k"][0])]["lr"],
                 steps=max(v["steps"] for v in plans.values()),
                 normalisation={"rule": full_tier.NORMALISED_RULE, "per_xi": plans,
                                "yardstick": "the frozen-c_hat ODE per xi (joint training has no closed-form "
                                             "ODE); one eta for every xi: the plateau's growth is the "
                                             "landscape's"})
    return [p["normalisation"]["per_xi"][_label(r)] for r in p["xi_over_sqrt_k"]]


#: The paper setup's xi grid (Appendix B gives none): from the normalised grid's smallest value to
#: 10 sqrt(k), past the transition expected near xi = d^{1/4} sqrt(k); the claims are also judged on
#: the sub-grids ending at PAPER_GRID_ENDS x sqrt(k) (three values spanning a factor 10).
PAPER_GRID = [0.25, 0.5, 1.0, 10**0.5, 10.0]
PAPER_GRID_ENDS = (1.0, 10**0.5, 10.0)


def _paper(k, d, steps, eta0, replicas, full=False):
    """Unconstrained joint training (Appendix B: "we also do not necessarily enforce u_t to be
    orthogonal to the w_i"), a random start, one eta for every xi: the normalised step of the
    smallest xi converted by its s^2 (quick), or at full size the normalised rule's step there."""
    xi_min = PAPER_GRID[0] * math.sqrt(k)
    out = {"xi_over_sqrt_k": PAPER_GRID, "mode": "unconstrained", "steps": steps, "replicas": replicas,
           "lr": paper_setup.reference_lr(eta0 / (3.0 * d), k, xi_min), "points": 400}
    if full:
        out.update(lr=None, steps=None, reference=common.instance_spec("separated", k, d, xi_min, "he3", 3,
                                                                        quantized=False))
    return out


PAPER_SETUP = {"quick": _paper(8, 100, 12000, 20.0, 4), "full": _paper(20, 1000, None, 20.0, 1, full=True)}
PAPER_AXES = {"c_step": paper_setup.C_STEP_OPEN}  # xi's grid: paper_variants
PAPER_CHOICES = {
    "xi": "xi/sqrt(k) in {1/4, 1/2, 1, sqrt(10), 10}; the claims are also judged on the sub-grids ending "
          "at xi/sqrt(k) = 1, sqrt(10), 10 (sensitivity.grid)",
    "mode": "unconstrained joint training (Appendix B: 'we also do not necessarily enforce u_t to be "
            "orthogonal to the w_i')",
    "reference curve": "the smallest xi: its effective step equals the normalised setup's step there; every "
                       "larger xi gets the same eta, so its effective step eta s(xi)^2 falls like 1/xi^4 for "
                       "xi >> sqrt(k) (curve_scales)",
}


def paper_variants(table, judge) -> dict:
    """The claims on the sub-grids of PAPER_GRID ending at each of PAPER_GRID_ENDS x sqrt(k)."""
    out = {}
    for end in PAPER_GRID_ENDS:
        keep = [_label(r) for r in PAPER_GRID if r <= end * (1 + 1e-12)]
        mask = np.isin(table["series"], keep)
        out[f"xi up to {end:.3g} sqrt(k)"] = judge({name: col[mask] for name, col in table.items()})
    return {"grid": out}


CHOICES = {
    "xi": "xi/sqrt(k) in {1/4, 1/2, 1, 2}: Appendix B does not list its xi values; the transition is "
          "expected near xi = d^{1/4} k^{1/2} (Appendix B), i.e. xi/sqrt(k) ~ 3.8 (quick) to 5.6 (full)",
    "lr": "quick: one step eta = eta0/(3d) for every xi (E[He3'(g)^2] = 3); the paper gives none. full: "
          "the normalised rule of verify.figures.full_tier (Theorem 16: eta = delta/(d V_k), delta = "
          "|h(0)|/2) "
          "measured at the smallest xi, the same eta for every xi; one horizon for every xi, 2.5 x the "
          "slowest xi's frozen ODE strong-recovery step (FULL_CAP is a safety net that does not bind); "
          "online SGD, B = 1 (params.normalisation.per_xi)",
    "mode": "joint, u_hat projected onto span(W)-perp (see fig1a_4b's choice: unconstrained runs "
            "were erratic at the quick scale)",
    "overlap": "|<u_t,u>| (median over replicas): (c_hat, u_hat) -> (-c_hat, -u_hat) leaves the network "
               "unchanged",
    "short_time_scale": f"the first {SHORT_FRACTION:g} of the horizon (Fig. 6(a)); the paper's axes are "
                        "not given",
    "ode": "no overlay: c_hat is trained, the ODE of eq. (6) is for frozen c_hat",
}


def _label(ratio: float) -> str:
    return f"xi = {ratio:g} sqrt(k)"


def compute(p, scheduler, progress):
    tasks = [Task(common.sgd_task, dict(
        instance=common.instance_spec(p["kind"], p["k"], p["d"], r * math.sqrt(p["k"]), p["activation"],
                                      p["instance_seed"], quantized=p["quantized"]),
        mode=p["mode"], steps=run["steps"], lr=run["lr"], replicas=p["replicas"], seed=p["sgd_seed"],
        record_every=run["record_every"], **full_tier.batch_arg(run), **common.model_arg(p, p["mode"])))
        for r, run in zip(p["xi_over_sqrt_k"], _resolve(p), strict=True)]
    rows = []
    for r, res in zip(p["xi_over_sqrt_k"], common.sweep(p, tasks, scheduler, progress), strict=True):
        rows += common.curve_rows("m", _label(r), "m", res["steps"], common.median_curve(np.abs(res["m"])))
    return rows


def plot(table, fig, p):
    for i, (panel, scale, stop) in enumerate((("a", "short", p["short_fraction"] * p["steps"]),
                                              ("b", "long", p["steps"]))):
        ax = fig.add_subplot(1, 2, i + 1)
        plotting.plot_curves(ax, table, "m", ode=None, ylabel=r"$|\langle u_t, u\rangle|$")
        ax.set_xlim(0, stop)
        plotting.title(ax, f"Fig. 6({panel}) (cf. Fig. 1(b))", "the plateau lengthens as xi grows",
                       f"{scale} time scale; He3, k = {p['k']}, d = {p['d']}")
    plotting.figure_legend(fig, title=f"median of {p['replicas']} runs")


def _plateaus(table) -> tuple[list[str], list[float]]:
    """Series names and their first step with |m| >= 1/2 (inf when never)."""
    names = common.series_names(table, "m", "m")
    times = []
    for name in names:
        s, v = common.select(table, "m", name, "m")
        t = common.first_hit(s, v, common.WEAK)
        times.append(math.inf if math.isnan(t) else t)
    return names, times


def setup_rows(tables: dict) -> list[tuple]:
    """The plateau against xi, one panel per setup (NAME.setups.csv): ``step`` is the run's
    horizon T, ``value`` the first step with |m| >= 1/2 (NaN: not within T)."""
    return overlays.time_rows(tables, lambda table: dict(zip(*_plateaus(table), strict=True)),
                              "steps_to_weak_recovery")


def setup_plot(table, fig) -> None:
    """Plateau vs xi/sqrt(k) (log-log), one panel per setup."""
    overlays.against(table, fig, "plateau vs xi (He3, joint)", "xi / sqrt(k)",
                     lambda name: float(name.split(" = ")[1].split(" ")[0]), logx=True)


def _growth(table, names: list[str], times: list[float]) -> tuple[float, dict]:
    """Plateau at the largest xi over the smallest's.  A largest-xi run that never arrived has a
    plateau of at least its horizon T, so the ratio is then a lower bound (key ``ratio >=``); if
    the smallest xi never arrived the ratio is not measured (NaN)."""
    first, last = times[0], times[-1]
    if not math.isfinite(first):
        return math.nan, {"ratio": math.nan, common.NOT_REACHED: [names[0]]}
    if math.isfinite(last):
        return last / max(first, 1.0), {"ratio": last / max(first, 1.0)}
    bound = common.horizons(table, "m", names[-1:])[names[-1]] / max(first, 1.0)
    return bound, {"ratio >=": bound, common.NOT_REACHED: [names[-1]]}


def claims(table):
    names, times = _plateaus(table)
    monotone = all(a <= b for a, b in zip(times, times[1:], strict=False))
    growth, growth_numbers = _growth(table, names, times)
    return [
        ("the plateau before weak recovery (first |m| >= 1/2) does not shorten as xi grows",
         monotone, dict(zip(names, times, strict=True))),
        ("at the largest xi the plateau is at least 3x the smallest xi's (interpolation towards "
         "feature learning)", growth >= 3.0, growth_numbers),
        ("the smallest xi reaches weak recovery within the short time scale",
         times[0] <= SHORT_FRACTION * float(table["step"].max()), {"steps": times[0]}),
    ]


SPEC = FigureSpec(NAME, PAPER, FIGSIZE, PARAMS, CHOICES, compute, plot, claims,
                  paper_setup=PAPER_SETUP, paper_choices=PAPER_CHOICES, paper_axes=PAPER_AXES,
                  setup_rows=setup_rows, setup_plot=setup_plot, paper_variants=paper_variants)
