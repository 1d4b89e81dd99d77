"""What a figure of the paper is, as data: :class:`FigureSpec`.

Each figure is one spec, listed in :data:`verify.figures.FIGURES`; the runner
(:func:`verify.figures.runner.run_figure`) reads nothing else.  The science lives in the
modules the spec's functions come from (``compute``, ``plot``, ``claims``); a spec says which
runs to make, what Appendix B leaves open and what was chosen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class FigureSpec:
    """One figure: its runs, its choices and the caption's claims as a predicate on its table.

    - ``params``: the run parameters per tier (``quick``, ``full``);
    - ``choices``: what Appendix B leaves out and what was chosen, with the reason;
    - ``compute(params, scheduler, progress) -> rows``, ``plot(table, fig, params)``,
      ``claims(table) -> [(description, holds, numbers)]``;
    - Appendix B figures also have ``paper_setup`` (the paper setup's parameters per tier),
      ``paper_choices`` and ``paper_axes`` (the values the paper leaves open, each varied by 10);
    - figures whose claims are about times draw both setups side by side
      (``setup_rows``, ``setup_plot``); Fig. 6 adds its ξ grid (``paper_variants``).
    """

    name: str
    paper: str
    figsize: tuple[float, float]
    params: Mapping[str, dict]
    choices: Mapping[str, str]
    compute: Callable[..., list]
    plot: Callable[..., None]
    claims: Callable[[Any], list]
    paper_setup: Mapping[str, dict] | None = None
    paper_choices: Mapping[str, str] | None = None
    paper_axes: Mapping[str, str] | None = None
    setup_rows: Callable[[dict], list] | None = None
    setup_plot: Callable[..., None] | None = None
    paper_variants: Callable[..., dict] | None = None
    #: caption claims known not to reproduce at the quick size: still judged and reported, marked
    not_reproduced_at_quick: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The paper's name for the figure, as ``paper`` starts (e.g. "Fig. 3(a)")."""
        return self.paper.split(":")[0]

    @property
    def appendix_b(self) -> bool:
        """Whether the figure is one of Appendix B's (it then has a paper setup)."""
        return self.paper_setup is not None
