"""Fig. 3(b): ⟨u_t, u⟩ and ⟨c_t, c⟩ under joint training at ξ = Θ(√k).

The same joint runs as Fig. 3(a) (the sweep cache shares them).  Claim (Appendix B):
there is an initial phase where ⟨u_t, u⟩ grows while ⟨c_t, c⟩ stays low; learning c
gets easier once u is partly learned.  Overlaps are sign-fixed per replica by the final
sign of ⟨ĉ, c⟩ ((ĉ, û) → (−ĉ, −û) leaves the network unchanged), then averaged.
"""

from __future__ import annotations

import numpy as np

from verify.figures import common, fig3a, plotting
from verify.figures.spec import FigureSpec

NAME = "fig3b"
PAPER = "Fig. 3(b): incremental learning, u before c, under joint training"
FIGSIZE = (6.0, 4.2)
PARAMS = fig3a.PARAMS
PAPER_SETUP = fig3a.PAPER_SETUP
PAPER_CHOICES = fig3a.PAPER_CHOICES
PAPER_AXES = fig3a.PAPER_AXES
CHOICES = {**fig3a.CHOICES,
           "sign": "each replica's overlaps are multiplied by sign(<c_hat_T, c>) at the last step"}


def compute(p, scheduler, progress):
    res = common.sweep(p, fig3a.tasks(p)[:1], scheduler, progress)[0]
    sign = np.sign(res["c_overlap"][-1])
    sign[sign == 0] = 1
    rows = common.curve_rows("overlaps", "<u_t, u>", "m", res["steps"], np.mean(res["m"] * sign, axis=1))
    rows += common.curve_rows("overlaps", "<c_t, c>", "m", res["steps"],
                              np.mean(res["c_overlap"] * sign, axis=1))
    return rows


def plot(table, fig, p):
    ax = fig.add_subplot(1, 1, 1)
    plotting.plot_curves(ax, table, "overlaps", ode=None, ylabel=f"overlap (mean of {p['replicas']} runs)")
    plotting.title(ax, "Fig. 3(b)", "<u_t, u> is learned before <c_t, c> (joint training)",
                   f"xi = sqrt(k), k = {p['k']}, d = {p['d']}")
    plotting.legend_right(ax)


def claims(table):
    s, mu = common.select(table, "overlaps", "<u_t, u>", "m")
    _, mc = common.select(table, "overlaps", "<c_t, c>", "m")
    t_u = common.first_hit(s, mu, common.WEAK)
    t_c = common.first_hit(s, mc, common.WEAK)
    at = int(np.flatnonzero(s == t_u)[0]) if np.isfinite(t_u) else -1
    return [
        ("<u_t,u> reaches 1/2 before <c_t,c> does", np.isfinite(t_u) and not t_c <= t_u,
         {"u": t_u, "c": t_c}),
        ("when <u_t,u> first reaches 1/2, <c_t,c> is still below it", at >= 0 and mc[at] < mu[at],
         {"c at that step": float(mc[at]) if at >= 0 else None}),
        ("<u_t,u> ends above 0.9 (u is learned)", mu[-1] > 0.9, {"u": float(mu[-1])}),
        ("<c_t,c> keeps growing once u is partly learned: it ends at least 0.1 above its value when "
         "<u_t,u> first reached 1/2", at >= 0 and mc[-1] >= mc[at] + 0.1,
         {"c at that step": float(mc[at]) if at >= 0 else None, "c at the end": float(mc[-1])}),
    ]


SPEC = FigureSpec(NAME, PAPER, FIGSIZE, PARAMS, CHOICES, compute, plot, claims,
                  paper_setup=PAPER_SETUP, paper_choices=PAPER_CHOICES, paper_axes=PAPER_AXES)
