"""Both setups side by side: NAME.setups.csv (exactly the plotted data) and NAME.setups.png.

The caption claims that differ between the setups are claims about times (steps to weak or
strong recovery); each figure with such a claim gives ``setup_rows(tables)`` and
``setup_plot(table, fig)`` built from :func:`time_rows` and one of the drawings below, and
:func:`verify.figures.runner.run_figure` writes them when both setups ran.  A run that never
reached the level is recorded as NaN and drawn at its horizon T as an open triangle.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from verify.figures import labels
from verify.figures.common import NOT_REACHED, spread_ratio


def time_rows(tables: dict, times: Callable[[dict], dict], quantity: str) -> list[tuple]:
    """Rows (setup, series, quantity, horizon T, time or NaN) of ``times(table)`` per setup; T is
    the series' own last recorded step (full-tier curves have horizons of their own)."""
    rows = []
    for setup, table in tables.items():
        for name, t in times(table).items():
            own = table["step"][table["series"] == name]
            horizon = int(own.max() if own.size else table["step"].max())
            rows.append((setup, name, quantity, horizon, t if math.isfinite(t) else math.nan))
    return rows


def _panels(table: dict, fig):
    panels = list(dict.fromkeys(table["panel"]))
    for i, setup in enumerate(panels):
        # the axes' label names its setup: the runner titles each panel with that setup's verdict
        yield setup, table["panel"] == setup, fig.add_subplot(1, len(panels), i + 1, label=setup)


def _spread(names, times: np.ndarray, horizons: np.ndarray) -> str:
    """max/min of the times, a curve not within T counted at T (then a lower bound), as the
    claims judge it (:func:`verify.figures.common.spread_ratio`)."""
    ratio, numbers = spread_ratio(dict(zip(names, times, strict=True)),
                                  dict(zip(names, horizons, strict=True)), "max/min")
    missing = numbers.get(NOT_REACHED, [])
    if not missing:
        return f"max/min = {ratio:.3g}"
    bound = "none within T" if math.isnan(ratio) else f"max/min >= {ratio:.3g}"
    return f"{bound}; {len(missing)} of {len(times)} not within T"


def per_series(table: dict, fig, what: str) -> None:
    """Steps per series (log scale), one panel per setup, titled with the max/min ratio.  Points,
    not bars: on a log axis a bar's length depends on where the axis happens to start."""
    for setup, keep, ax in _panels(table, fig):
        names, t, horizon = table["series"][keep], table["value"][keep], table["step"][keep]
        x = np.arange(len(names))
        hit = np.isfinite(t)
        _points(ax, x, np.where(hit, t, horizon), hit, ms=8)
        ax.set_xticks(x, [labels.math(n) for n in names], fontsize=8)
        ax.set_xlim(-0.5, len(names) - 0.5)
        ax.set_yscale("log")
        ax.margins(y=0.15)  # in log space: no point sits on the frame
        ax.set_ylabel("SGD steps (samples)")
        ax.set_title(labels.math(f"{setup} setup: {what}\n({_spread(names, t, horizon)})"), fontsize=9)
        ax.grid(alpha=0.3, axis="y", which="both")


def against(table: dict, fig, what: str, xlabel: str, parse: Callable[[str], float],
            logx: bool = False) -> None:
    """Steps against a parameter read from each series name (``parse``), one panel per setup."""
    for setup, keep, ax in _panels(table, fig):
        x = np.array([parse(name) for name in table["series"][keep]])
        t, horizon = table["value"][keep], table["step"][keep]
        hit = np.isfinite(t)
        _points(ax, x, np.where(hit, t, horizon), hit, ls="-")
        ax.set_yscale("log")
        if logx:
            ax.set_xscale("log")
        ax.set_xlabel(labels.math(xlabel))
        ax.set_ylabel("SGD steps (samples)")
        ax.set_title(labels.math(f"{setup} setup: {what}\n({_spread(table['series'][keep], t, horizon)})"),
                     fontsize=9)
        ax.grid(alpha=0.3, which="both")


def pairs(table: dict, fig, x_quantity: str, y_quantity: str, what: str) -> None:
    """One point per series: its ``x_quantity`` time against its ``y_quantity`` time, with the
    lines y = x and y = x/2 (Fig. 2's caption: joint "roughly twice as efficient")."""
    for setup, keep, ax in _panels(table, fig):
        sub = {name: col[keep] for name, col in table.items()}
        x = _by_series(sub, x_quantity)
        y = _by_series(sub, y_quantity)
        names = [n for n in x if n in y]
        horizon = float(np.max(sub["step"]))
        xs = np.array([x[n] for n in names])
        ys = np.array([y[n] for n in names])
        both = np.isfinite(xs) & np.isfinite(ys)
        drawn_x, drawn_y = np.where(np.isfinite(xs), xs, horizon), np.where(np.isfinite(ys), ys, horizon)
        ax.set_xscale("log")
        ax.set_yscale("log")
        _points(ax, drawn_x, drawn_y, both, reached_label="both reach the level",
                missed_label="one not within T (drawn at T)")
        span = np.array([np.nanmin(np.r_[drawn_x, drawn_y]), horizon])
        ax.loglog(span, span, "k-", lw=0.8, label="equal")
        ax.loglog(span, span / 2, "k--", lw=0.8, label="twice as fast")
        ax.set_xlabel(_quantity(x_quantity))
        ax.set_ylabel(_quantity(y_quantity))
        ax.set_title(labels.math(f"{setup} setup: {what}"), fontsize=9)
        ax.grid(alpha=0.3, which="both")


def _points(ax, x, y, reached, ls: str = "none", ms: float = 6.0, reached_label: str = "steps to the level",
            missed_label: str = "not within T (drawn at T)") -> None:
    """Filled points where the level was reached (joined by ``ls``), open triangles at T where not;
    a legend entry only for a kind of point that is drawn."""
    if reached.any():
        ax.plot(x[reached], y[reached], marker="o", ls=ls, ms=ms, color="C0", label=reached_label)
    if (~reached).any():
        ax.plot(x[~reached], y[~reached], marker="^", ls="none", ms=ms, mfc="none", color="C3",
                label=missed_label)


def _quantity(name: str) -> str:
    """An axis label for a setups.csv quantity (``joint_steps_to_0.9``: joint, steps to m >= 0.9)."""
    mode, _, level = name.partition("_steps_to_")
    return labels.math(f"{mode}: steps to m >= {level}")


def _by_series(table: dict, quantity: str) -> dict:
    keep = table["quantity"] == quantity
    return dict(zip(table["series"][keep], table["value"][keep], strict=True))
