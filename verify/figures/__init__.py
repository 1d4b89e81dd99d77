"""The paper's simulations (Appendix B, Figs. 1–6) and the dimension-scaling experiment.

:data:`FIGURES` maps a name to its :class:`~verify.figures.spec.FigureSpec`: its run
parameters (``quick``, ``full``), its choices (what Appendix B leaves out and what was chosen,
with the reason), and its ``compute``/``plot``/``claims`` functions, ``claims(table) ->
[(description, holds, numbers)]`` being the caption's qualitative claim as a predicate on the
CSV table (:func:`verify.figures.common.read_table`).  :func:`verify.figures.runner.run_figure`
writes NAME.png, NAME.csv (exactly the plotted data) and NAME.json (every parameter and seed,
the choices and the claims); every run goes through :func:`verify.base.sweep.run_sweep`.

An Appendix B figure also has a paper setup and its choices (:mod:`verify.figures.paper_setup`;
the runner judges every claim under both setups), and a figure whose claims are about times
draws both setups side by side (:mod:`verify.figures.overlays`).  :mod:`verify.figures.summary`
reduces a run directory to the verdicts that the README's figures table shows.
"""

from __future__ import annotations

from verify.figures import fig1b_6, fig2, fig3a, fig3b, fig5, scaling
from verify.figures.activation_sweep import FIG1A_4B, FIG4A
from verify.figures.spec import FigureSpec

#: Every figure, as data (:class:`~verify.figures.spec.FigureSpec`), in the paper's order.
FIGURES: dict[str, FigureSpec] = {spec.name: spec for spec in (
    FIG1A_4B, FIG4A, fig1b_6.SPEC, fig2.SPEC, fig3a.SPEC, fig3b.SPEC, fig5.SPEC, scaling.SPEC)}

__all__ = ["FIGURES", "FigureSpec"]
