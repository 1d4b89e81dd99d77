"""The paper's simulations (Appendix B, Figs. 1–6) and the dimension-scaling experiment.

:data:`FIGURES` maps a name to its module; each module has ``PARAMS`` (``quick``,
``full``), ``CHOICES`` (what Appendix B leaves out and what was chosen, with the
reason), ``run(quick, scheduler, out)`` writing NAME.png, NAME.csv (exactly the plotted
data) and NAME.json (every parameter and seed, the choices and the claims), and
``claims(table) -> [(description, holds, numbers)]``, the caption's qualitative claim as
a predicate on the CSV table (:func:`verify.figures.common.read_table`).  Every run goes
through :func:`verify.base.sweep.run_sweep`.

An Appendix B figure also has ``PAPER_SETUP`` and ``PAPER_CHOICES`` (the paper setup of
:mod:`verify.figures.paper_setup`; :mod:`verify.figures.runner` judges every claim under both
setups), and a figure whose claims are about times has ``setup_rows``/``setup_plot``
(:mod:`verify.figures.overlays`: both setups side by side).  :mod:`verify.figures.summary`
reduces a run directory to the verdicts that the README's figures table shows.
"""

from __future__ import annotations

from verify.figures import fig1a_4b as fig1a_4b
from verify.figures import fig1b_6 as fig1b_6
from verify.figures import fig2 as fig2
from verify.figures import fig3a as fig3a
from verify.figures import fig3b as fig3b
from verify.figures import fig4a as fig4a
from verify.figures import fig5 as fig5
from verify.figures import scaling as scaling

FIGURES = {m.NAME: m for m in (fig1a_4b, fig4a, fig1b_6, fig2, fig3a, fig3b, fig5, scaling)}

__all__ = ["FIGURES"]
