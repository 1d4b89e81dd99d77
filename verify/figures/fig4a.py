"""Fig. 4(a): m_t for ReLU, sigmoid, quadratic and He₃ at ξ = 1."""

from __future__ import annotations

import sys

from verify.figures import activation_sweep as sweep
from verify.figures import full_tier, paper_setup
from verify.figures.runner import run_figure

NAME = "fig4a"
PAPER = "Fig. 4(a): fine-tuning at xi = 1 is not sensitive to the activation"
FIGSIZE = (6.0, 4.2)
PARAMS = {
    "quick": sweep.params(k=10, d=200, xi=1.0, steps=10000, eta0=20.0, replicas=4, seed=1),
    "full": sweep.params(k=50, d=2000, xi=1.0, steps=full_tier.SAFETY_CAP, eta0=20.0, replicas=1, seed=1,
                          normalised=True),
}
PAPER_SETUP = {
    "quick": sweep.paper_setup_params(k=10, d=200, xi=1.0, steps=10000, eta0=20.0, replicas=4, seed=1),
    "full": sweep.paper_setup_params(k=50, d=2000, xi=1.0, steps=0, eta0=20.0, replicas=1, seed=1, full=True),
}
PAPER_CHOICES = sweep.PAPER_CHOICES
PAPER_AXES = {"c_step": paper_setup.C_STEP_OPEN}  # xi = 1 is printed (Fig. 4(a)'s caption)
CHOICES = sweep.CHOICES
MAX_RATIO = 3.0


def compute(params, scheduler, progress):
    return sweep.compute(params, scheduler, progress)


def plot(table, fig, params):
    sweep.plot(table, fig, params)


def claims(table):
    return sweep.claims(table, MAX_RATIO)


setup_rows, setup_plot = sweep.setup_rows, sweep.setup_plot


def run(quick, scheduler, out, progress=False, **options):
    return run_figure(sys.modules[__name__], quick, scheduler, out, progress, **options)
