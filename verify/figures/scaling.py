"""Iterations to strong recovery against d: fine-tuning vs learning from scratch.

Not a figure of the paper but its central claim (Theorems 1–3, Remark 15): fine-tuning
needs ~d online-SGD steps whatever σ is, while the GLM / learning from scratch with an
information exponent l* needs ~d^{l*−1} (Ben Arous et al. 2021) with a suitably scaled
step η ∝ d^{−l*/2}.  Families:

- fine-tuning, orthonormal rows, ReLU, ξ = 1 and ξ = √k/2, ĉ frozen, η = η₀/d;
- the Claim 2 / Theorem 19 instance with σ = He₃ (p = 3 > 2), ξ = 1, η = η₀/d;
- scratch (W = 0, the GLM σ(⟨u, x⟩)) with He₃ (l* = 3) and He₄ (l* = 4), η = η₀ d^{−l*/2}.

Every run uses the exact reduced engine (:mod:`verify.simulate.reduced`), whose cost
per step does not depend on d, and stops as soon as all its replicas have reached
m ≥ ``threshold``.  The exponent is the least-squares slope of log T on log d over
every replica that reached it, with a 99.9 % Student-t interval.  The population ODE
(eq. (6)) gives the dashed prediction T_ode(d).
"""

from __future__ import annotations

import math
import sys

import numpy as np

from verify.figures import common
from verify.figures.common import run_figure
from verify.sweep import Task, run_sweep

NAME = "scaling"
PAPER = "Theorems 1-3 / Remark 15: fine-tuning needs ~d steps, scratch GLM ~d^(l*-1)"
FIGSIZE = (7.0, 5.0)
CONFIDENCE = 0.999
CHECK_EVERY = 64


def recovery_task(instance: dict, mode: str, lr: float, max_steps: int, replicas: int, seed: int,
                  m0, threshold: float) -> dict:
    """First step with m ≥ threshold for each replica (NaN when not within max_steps)."""
    from verify.simulate.modes import get_mode
    from verify.simulate.problem import build_problem
    from verify.simulate.reduced import ReducedEngine
    from verify.simulate.streams import generators, root

    inst = common.make_instance(instance)
    the_mode = get_mode(mode)
    start = common._start(inst, m0)
    eng = ReducedEngine(build_problem(inst, the_mode), the_mode, generators(root(seed), replicas),
                        m0=start)
    hit = np.full(replicas, np.nan)
    t = 0
    while t < max_steps and np.isnan(hit).any():
        for _ in range(min(CHECK_EVERY, max_steps - t)):
            with np.errstate(all="ignore"):
                eng.step(lr)
            t += 1
            m, _ = eng.overlaps()
            new = np.isnan(hit) & (m >= threshold)
            hit[new] = t
    return {"steps": hit, "max_steps": max_steps}


def _family(label, kind, k, xi, activation, mode, eta0, lr_power, ds, cap, expected, m0):
    return {"label": label, "kind": kind, "k": k, "xi": xi, "activation": activation, "mode": mode,
            "eta0": eta0, "lr_power": lr_power, "ds": ds, "cap_factor": cap, "expected_exponent": expected,
            "m0": m0, "lr_rule": f"eta0 * d^-{lr_power}"}


def _params(ft_ds, c2_ds, he3_ds, he4_ds, replicas):
    return {
        "threshold": 0.9, "replicas": replicas, "seed": 7, "instance_seed": 7,
        "families": [
            _family("fine-tuning, xi = 1 (ReLU)", "orthonormal", 8, 1.0, "relu", "frozen", 4.0, 1,
                    ft_ds, 150.0, 1.0, "theorem"),
            _family("fine-tuning, xi = sqrt(k)/2 (ReLU)", "orthonormal", 8, math.sqrt(8) / 2, "relu",
                    "frozen", 3.0, 1, ft_ds, 150.0, 1.0, "theorem"),
            _family("Claim 2 / Thm 19 instance (He3)", "claim2", 3, 1.0, "he3", "frozen", 1.6e-3, 1,
                    c2_ds, 1500.0, 1.0, "theorem"),
            _family("scratch GLM, He3 (l* = 3)", "glm", 1, 1.0, "he3", "scratch", 0.02, 1.5,
                    he3_ds, 40.0, 2.0, "typical"),
            _family("scratch GLM, He4 (l* = 4)", "glm", 1, 1.0, "he4", "scratch", 0.006, 2,
                    he4_ds, 40.0, 3.0, "typical"),
        ],
    }


PARAMS = {
    "quick": _params([50, 100, 200, 400], [16, 32, 64], [8, 16, 32, 64], [6, 8, 11, 16], 6),
    "full": _params([1000, 3162, 10000, 31623, 100000], [64, 128, 256, 512, 1024],
                    [32, 64, 128, 256, 512], [8, 12, 16, 24, 32, 45], 8),
}
CHOICES = {
    "threshold": "strong recovery = first step with m >= 0.9 (any fixed level gives the same exponent; "
                 "0.9 keeps the runs short)",
    "lr": "fine-tuning: eta = eta0/d (Theorems 1-2: eta ~ eps^3/(d k^O(1))); scratch: eta = eta0 d^(-l*/2), "
          "the largest step for which the normalisation drift eta^2 d m stays below the signal eta m^(l*-1) "
          "at m ~ 1/sqrt(d); eta0 set from Monte-Carlo estimates of h and the gradient noise",
    "start": "fine-tuning: m_0 = sign(h(0))/sqrt(d) (Theorems 11-13); scratch: m_0 = +1/sqrt(d), the "
             "typical overlap of a random start, with its sign fixed",
    "k": "8 for fine-tuning (cost per step grows with k, the exponent in d does not), 3 for Claim 2 "
         "(needs d > 1 + k(k+1)/2), 1 for the GLM",
    "d_range": "scratch runs need ~d^(l*-1) steps, so their d stops far below 10^5 (He4 at d = 10^5 "
               "would need ~10^15 steps); fine-tuning reaches d = 10^5 in --full",
    "cap": "a run stops at cap_factor * d^(expected exponent) steps; a replica not recovered by then is "
           "left out of the fit and counted in the CSV as NaN",
}


def compute(p, scheduler, progress):
    tasks, index = [], []
    for fam in p["families"]:
        for d in fam["ds"]:
            spec = common.instance_spec(fam["kind"], fam["k"], d, fam["xi"], fam["activation"],
                                        p["instance_seed"])
            lr = fam["eta0"] * d ** (-fam["lr_power"])
            cap = int(fam["cap_factor"] * d ** fam["expected_exponent"])
            tasks.append(Task(recovery_task, dict(instance=spec, mode=fam["mode"], lr=lr, max_steps=cap,
                                                  replicas=p["replicas"], seed=p["seed"], m0=fam["m0"],
                                                  threshold=p["threshold"])))
            tasks.append(Task(common.drift_task, dict(instance=spec, m0=fam["m0"], lr=lr, steps=cap,
                                                      points=2, eps=1 - p["threshold"])))
            index.append((fam["label"], d))
    results = run_sweep(tasks, scheduler=scheduler, progress=progress)
    rows = []
    for i, (label, d) in enumerate(index):
        sgd, ode = results[2 * i], results[2 * i + 1]
        rows += [("sgd", label, f"replica {r}", d, float(v)) for r, v in enumerate(sgd["steps"])]
        rows.append(("ode", label, "ode", d, float(ode["strong"])))
    return rows


def fit(ds, ts) -> dict:
    """Least-squares slope of log T on log d with its 99.9 % Student-t interval."""
    from scipy import stats

    x, y = np.log(np.asarray(ds, float)), np.log(np.asarray(ts, float))
    keep = np.isfinite(y)
    x, y = x[keep], y[keep]
    n = len(x)
    if n < 3 or np.ptp(x) == 0:
        return {"exponent": math.nan, "low": math.nan, "high": math.nan, "n": n}
    slope, intercept = np.polyfit(x, y, 1)
    resid = y - (slope * x + intercept)
    se = math.sqrt(resid @ resid / (n - 2) / np.sum((x - x.mean()) ** 2))
    half = stats.t.ppf(0.5 + CONFIDENCE / 2, n - 2) * se
    return {"exponent": float(slope), "low": float(slope - half), "high": float(slope + half),
            "intercept": float(intercept), "n": n}


def fits(table) -> dict:
    out = {}
    for label in common.series_names(table, "sgd", "replica 0"):
        keep = (table["panel"] == "sgd") & (table["series"] == label)
        out[label] = fit(table["step"][keep], table["value"][keep])
    return out


def plot(table, fig, p):
    ax = fig.add_subplot(1, 1, 1)
    fitted = fits(table)
    for fam in p["families"]:
        label = fam["label"]
        keep = (table["panel"] == "sgd") & (table["series"] == label)
        ds, ts = table["step"][keep], table["value"][keep]
        f = fitted[label]
        pts = ax.scatter(ds, ts, s=10, alpha=0.6)
        color = pts.get_facecolor()[0]
        grid = np.unique(ds)
        ax.plot(grid, np.exp(f["intercept"]) * grid ** f["exponent"], color=color,
                label=f"{label}: exponent {f['exponent']:.2f} [{f['low']:.2f}, {f['high']:.2f}] "
                      f"(expected {fam['expected_exponent']:g})")
        od, ot = common.select(table, "ode", label, "ode")
        ax.plot(od, ot, ls="--", color=color, lw=1)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("dimension d")
    ax.set_ylabel(f"SGD steps to m >= {p['threshold']:g}")
    ax.set_title("steps to strong recovery vs d (dots: replicas; dashed: population ODE; "
                 f"fits with {CONFIDENCE:.1%} CI)", fontsize=8)
    ax.legend(fontsize=6)
    ax.grid(alpha=0.3, which="both")


def claims(table):
    f = fits(table)
    by = {label.split(",")[0].split(" (")[0] + ("" if "fine" not in label else label.split(",")[1]): v
          for label, v in f.items()}
    ft = [v for k, v in f.items() if k.startswith("fine-tuning")]
    c2 = [v for k, v in f.items() if k.startswith("Claim 2")]
    he3 = [v for k, v in f.items() if "He3 (l* = 3)" in k]
    he4 = [v for k, v in f.items() if "He4" in k]
    worst_ft = max((v["high"] for v in ft + c2), default=math.nan)
    del by
    return [
        ("fine-tuning exponents (xi = 1, xi = sqrt(k)/2, Claim 2) lie within 0.3 of 1",
         all(abs(v["exponent"] - 1) <= 0.3 for v in ft + c2) and len(ft + c2) == 3,
         {k: v for k, v in f.items() if not k.startswith("scratch")}),
        ("scratch He3 exponent near l* - 1 = 2 (within 0.5)",
         len(he3) == 1 and abs(he3[0]["exponent"] - 2) <= 0.5, he3),
        ("scratch He4 exponent near l* - 1 = 3 (within 0.7)",
         len(he4) == 1 and abs(he4[0]["exponent"] - 3) <= 0.7, he4),
        ("every scratch exponent's CI lies above every fine-tuning exponent's CI",
         all(v["low"] > worst_ft for v in he3 + he4), {"highest fine-tuning upper bound": worst_ft}),
    ]


def run(quick, scheduler, out, progress=False):
    return run_figure(sys.modules[__name__], quick, scheduler, out, progress)
