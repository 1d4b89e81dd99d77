"""Drawing a figure's PNG: curves, legends outside the data, titles with the verdict, metadata.

Every PNG :mod:`verify.figures.runner` writes goes through :func:`render` (NAME.png,
NAME.paper.png) or :func:`render_setups` (NAME.setups.png), then :func:`save`:

- each panel's title names the paper's figure and its caption claim (set by the figure's
  ``plot``), and :func:`render` adds the verdict of the figure's claims for this run;
- below the panels, every claim with its verdict; the same list, as JSON, in the PNG's text
  chunk :data:`CLAIMS_KEY` (:func:`read_claims` reads it back);
- legends sit outside the axes (constrained layout makes room for them), and a legend entry is
  always a drawn curve: the ODE entry exists only where an ODE curve was drawn.
"""

from __future__ import annotations

import io
import json

from verify.base.files import write_atomic
from verify.figures import labels
from verify.figures.common import select, series_names

#: The PNG text chunk with the figure's claims and verdicts (JSON, ASCII).
CLAIMS_KEY = "verify:claims"
DPI = 110
#: Curves that coincide stay apart: a marker shape per series, at a few points, staggered.
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "*")
MARKS_PER_CURVE = 6
LINESTYLES = ("-", (0, (5, 2)), "-.", (0, (1, 1.5)))
ODE_LABEL = "ODE, eq. (6) (dashed)"
#: Claim list below the panels: font size and the height a line takes (inches).
FOOTER_FONTSIZE = 7
FOOTER_LINE_IN = 0.14
#: Characters per title line (source characters: a math segment counts its markup).
TITLE_WIDTH = 64
#: Room for the title's extra lines (figure and claim, details, verdict).
TITLE_IN = 0.45


def pyplot():
    """matplotlib's pyplot on the Agg backend (files only, no display)."""
    # lazy: matplotlib costs 0.6 s at import and is needed only when a PNG is drawn
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


# --- what a figure's plot() calls ------------------------------------------------------------
def plot_curves(ax, table: dict, panel: str, quantity: str = "m", ode: str | None = "ode_m",
                ylabel: str = r"$m_t = \langle u_t, u\rangle$") -> None:
    """Every series of ``panel`` (solid, its own marker) and, where the table has one, its
    population ODE (dashed, same colour; one legend entry for all of them)."""
    names = series_names(table, panel, quantity)
    # where dashes mean "ODE" (in any panel: panels may share one legend) the curves stay solid;
    # elsewhere the line style varies too, so that a curve drawn over another shows in its gaps
    has_ode = ode is not None and bool(select(table, quantity=ode)[0].size)
    ode_label = ODE_LABEL
    for i, name in enumerate(names):
        s, v = select(table, panel, name, quantity)
        every = max(1, len(s) // MARKS_PER_CURVE)
        line, = ax.plot(s, v, label=labels.math(name), lw=1.4, marker=MARKERS[i % len(MARKERS)], ms=4,
                        markevery=(i * every // len(names), every),
                        ls="-" if has_ode else LINESTYLES[i % len(LINESTYLES)])
        if ode is not None:
            so, vo = select(table, panel, name, ode)
            if so.size:
                ax.plot(so, vo, ls="--", lw=1.0, color=line.get_color(), label=ode_label)
                ode_label = "_nolegend_"
    ax.set_xlabel("SGD step t (samples seen)")
    ax.set_ylabel(labels.math(ylabel))
    ax.grid(alpha=0.3)


def title(ax, figure: str, claim: str, detail: str = "") -> None:
    """The panel's title: the paper's figure number, its caption claim and the run's details."""
    lines = labels.wrap(labels.math(f"{figure}: {claim}"), TITLE_WIDTH)
    ax.set_title("\n".join(lines + labels.wrap(labels.math(detail), TITLE_WIDTH)), fontsize=9)


def legend_right(ax, title: str | None = None) -> None:
    """The axes' legend to the right of its data area."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize=7,
              title=None if title is None else labels.math(title), title_fontsize=7)


def figure_legend(fig, title: str | None = None) -> None:
    """One legend for panels that share their series (same names, colours and markers), right of
    every panel."""
    handles: dict = {}
    for ax in fig.axes:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(label, handle)
    fig.legend(list(handles.values()), list(handles), loc="outside right upper", fontsize=7,
               title=None if title is None else labels.math(title), title_fontsize=7)


# --- what the runner calls -----------------------------------------------------------------------
def _footer(claims, width_in: float, tag=lambda claim: "") -> list[str]:
    width = int(width_in * 72 / (FOOTER_FONTSIZE * 0.55))
    lines = []
    for claim in claims:
        lines += labels.wrap(labels.math(f"{tag(claim)}{labels.verdict(claim[1])}: {claim[0]}"), width)
    return lines


def _new_figure(figsize, footer: list[str]):
    width, height = figsize
    return pyplot().figure(figsize=(width, height + TITLE_IN + FOOTER_LINE_IN * len(footer)),
                           layout="constrained")


def _finish(fig, footer: list[str], verdict_of) -> None:
    """The verdict under each panel's title (``verdict_of(ax)``) and the claims below the panels."""
    for ax in fig.axes:
        if ax.get_title():
            ax.set_title(f"{ax.get_title()}\n{verdict_of(ax)}", fontsize=ax.title.get_fontsize())
    if footer:
        fig.supxlabel("\n".join(footer), x=0.01, ha="left", fontsize=FOOTER_FONTSIZE)


def render(spec, table: dict, params: dict, claims: list):
    """The figure ``spec`` drawn from ``table`` (``spec.plot``), with the verdict of ``claims``
    [(description, holds, numbers)]; returns the matplotlib figure."""
    footer = _footer(claims, spec.figsize[0])
    fig = _new_figure(spec.figsize, footer)
    spec.plot(table, fig, params)
    if params.get("setup") == "paper":
        fig.suptitle(r"paper setup (Appendix B as printed): scaled rows $k/(k+\xi^2)$, output $1/\xi$, "
                     rf"one $\eta$ = {params['lr']:.3g}", fontsize=8)
    summary = labels.summary(claims)
    _finish(fig, footer, lambda ax: summary)
    return fig


def render_setups(spec, table: dict, claims: dict):
    """NAME.setups.png: ``spec.setup_plot`` (one panel per setup, each axes labelled with its
    setup), each panel titled with the figure and the verdict of that setup's ``claims``."""
    every = [(d, ok, setup) for setup, results in claims.items() for d, ok, *_ in results]
    footer = _footer(every, 10.0, tag=lambda claim: f"[{claim[2]}] ")
    fig = _new_figure((10.0, 4.0), footer)
    spec.setup_plot(table, fig)
    figure_legend(fig)
    for ax in fig.axes:
        if ax.get_title():
            ax.set_title(f"{labels.math(spec.label)}, {ax.get_title()}", fontsize=ax.title.get_fontsize())
    _finish(fig, footer, lambda ax: labels.summary(claims[ax.get_label()]))
    return fig


def metadata(spec, tier: str, claims: dict) -> dict:
    """The PNG's text chunks: a title, and under :data:`CLAIMS_KEY` the figure, the tier and
    every claim of ``claims`` ({setup: [(description, holds, ...)]}) with its verdict."""
    listed = [{"claim": d, "holds": bool(ok), "setup": setup}
              for setup, results in claims.items() for d, ok, *_ in results]
    record = {"figure": spec.name, "paper": spec.paper, "tier": tier, "claims": listed}
    return {"Title": f"{spec.paper} ({', '.join(claims)} setup, {tier} tier)",
            CLAIMS_KEY: json.dumps(record, sort_keys=True)}


def save(fig, path, meta: dict) -> None:
    fig.savefig(buf := io.BytesIO(), format="png", dpi=DPI, metadata=meta)
    pyplot().close(fig)
    write_atomic(path, buf.getvalue())


def read_claims(path) -> dict:
    """The :data:`CLAIMS_KEY` record of a PNG :func:`save` wrote."""
    # lazy: Pillow (a matplotlib dependency) is needed only to read a PNG back
    from PIL import PngImagePlugin

    with PngImagePlugin.PngImageFile(path) as image:  # a PNG's text chunks are its .text
        return json.loads(image.text[CLAIMS_KEY])
