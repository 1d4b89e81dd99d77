"""The figures' PNGs as a reader sees them (:mod:`verify.figures.plotting`, :mod:`verify.figures.labels`).

Each figure is drawn from a small synthetic table (S-shaped curves, no simulation) under both
setups, and the drawing is checked the way issue 30 found it wanting:

- every panel's title names the paper's figure and carries a verdict word;
- no text shows the plain notation (``xi``, ``sqrt``, ``c_hat``) where mathtext is meant;
- every legend lies outside every axes' data area and inside the figure;
- every legend entry is a drawn curve (Fig. 2's paper setup has no ODE, so no ODE entry);
- coinciding curves differ in marker and line style, with markers at different steps.

One shrunk real run (Fig. 4(a), both setups, seconds) checks that each PNG's metadata lists
the claims and verdicts its JSON holds.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import matplotlib
import numpy as np
import pytest
from matplotlib.text import Text

from verify.cli import main
from verify.figures import FIGURES, labels, plotting
from verify.figures.common import _columns, curve_rows
from verify.figures.runner import paper_params

matplotlib.use("Agg")

RESULTS = Path(__file__).resolve().parent.parent / "results" / "figures-full"
PLAIN = re.compile(r"\bxi\b|sqrt|_hat\b|\bTheta\b|\beta\b")
#: A panel of the paper, as titles name it ("Fig. 2(a)").
PANEL = re.compile(r"Fig\. \d\([ab]\)")
#: Pixels a legend may touch an axes' frame by (anti-aliasing of the bounding boxes).
TOUCH_PX = 1.0


def _s_curve(start: float, steps) -> np.ndarray:
    return 0.1 + 0.85 / (1.0 + np.exp(-(steps - start) / (0.05 * steps[-1])))


def _rows(panel: str, names, quantity: str = "m", ode: bool = False, same: bool = False) -> list:
    """S-curves, one per name, later names later (``same``: all at one place, coinciding)."""
    steps = np.arange(0, 2001, 20)
    rows = []
    for i, name in enumerate(names):
        m = _s_curve(500.0 if same else 300.0 * (i + 1), steps)
        rows += curve_rows(panel, name, quantity, steps, m)
        if ode:
            rows += curve_rows(panel, name, "ode_m", steps, _s_curve(250.0 * (i + 1), steps))
    return rows


def synthetic_table(name: str, setup: str) -> dict:
    """A table of the shape ``name``'s compute() writes (the ODE only in the normalised setup)."""
    ode = setup == "normalised"
    if name in ("fig1a_4b", "fig4a"):
        rows = _rows("m", ("relu", "sigmoid", "quadratic", "he3"))
    elif name == "fig1b_6":
        rows = _rows("m", [f"xi = {r:g} sqrt(k)" for r in (0.25, 0.5, 1.0)])
        rows += _rows("m", [f"xi = {r:g} sqrt(k)" for r in (3.16228, 10.0)], same=True)
    elif name == "fig2":
        seeds = [f"instance {i}" for i in range(10)]
        rows = _rows("a", seeds) + _rows("b", seeds, ode=ode)
    elif name == "fig3a":
        rows = _rows("loss", ("fine-tuned (joint)", "linearized"), quantity="loss")
    elif name == "fig3b":
        rows = _rows("overlaps", ("<u_t, u>", "<c_t, c>"))
    elif name == "fig5":
        rows = _rows("a", [f"alpha = {a:g}" for a in (0, 0.25, 0.5, 0.75)], ode=False)
        if ode:
            rows += curve_rows("a", "alpha = 0", "ode_m", np.arange(0, 2001, 20),
                               _s_curve(250.0, np.arange(0, 2001, 20)))
        rows += _rows("b", [f"instance {s}" for s in (11, 12, 13)])
    else:
        raise KeyError(name)
    return _columns(rows)


APPENDIX_B = [name for name, spec in FIGURES.items() if spec.appendix_b]
CASES = [(name, setup, tier) for name in APPENDIX_B for setup in ("normalised", "paper")
         for tier in ("quick", "full")]


def _params(spec, setup: str, tier: str = "quick") -> dict:
    """The run's params as plot() gets them (at full size the paper setup's step and horizon are
    planned from an ODE run; stand-ins here: the synthetic table's horizon and any step)."""
    if setup == "normalised":
        return dict(spec.params[tier])
    if tier == "quick":
        return paper_params(spec, tier)
    return {**spec.params[tier], **spec.paper_setup[tier], "setup": "paper", "lr": 0.01, "steps": 2000}


@pytest.fixture
def drawn(request):
    """``render`` of a figure on its synthetic table, its claims, drawn; closed afterwards."""
    name, setup, *tier = request.param
    spec = FIGURES[name]
    table = synthetic_table(name, setup)
    claims = spec.claims(table)
    fig = plotting.render(spec, table, _params(spec, setup, *tier), claims)
    fig.canvas.draw()
    yield spec, fig, claims, setup
    plotting.pyplot().close(fig)


def _legends(fig) -> list:
    return [*fig.legends, *(ax.get_legend() for ax in fig.axes if ax.get_legend() is not None)]


def _drawn_labels(fig) -> set[str]:
    """Labels of the artists that carry data (a line with points, a scatter with offsets)."""
    out = set()
    for ax in fig.axes:
        for line in ax.lines:
            if len(line.get_xdata()):
                out.add(line.get_label())
        for coll in ax.collections:
            if len(coll.get_offsets()):
                out.add(coll.get_label())
    return out


def assert_readable(spec, fig, claims) -> None:
    """The issue's checks on a drawn figure (see the module docstring)."""
    word = labels.verdict(all(ok for _, ok, *_ in claims))
    titled = [ax for ax in fig.axes if ax.get_title()]
    assert titled
    for ax in titled:
        assert PANEL.search(ax.get_title()) and spec.label.split("(")[0] in ax.get_title(), ax.get_title()
        assert f"verdict: {word}" in ax.get_title(), ax.get_title()
    for text in fig.findobj(Text):
        assert not PLAIN.search(labels.plain_words(text.get_text())), text.get_text()
    renderer = fig.canvas.get_renderer()
    whole = fig.bbox
    legends = _legends(fig)
    assert legends
    for legend in legends:
        box = legend.get_window_extent(renderer).padded(-TOUCH_PX)
        for ax in fig.axes:
            assert not box.overlaps(ax.get_window_extent(renderer)), (legend, ax.get_title())
        assert whole.contains(box.x0, box.y0) and whole.contains(box.x1, box.y1), "legend clipped"
        shown = {t.get_text() for t in legend.get_texts()}
        assert shown <= _drawn_labels(fig), shown - _drawn_labels(fig)


@pytest.mark.extended
@pytest.mark.parametrize("drawn", CASES, indirect=True, ids=["-".join(case) for case in CASES])
def test_every_figure_reads_as_the_paper_writes_it(drawn):
    spec, fig, claims, _ = drawn
    assert_readable(spec, fig, claims)


@pytest.mark.parametrize("drawn", [("fig2", "paper"), ("fig2", "normalised"), ("fig5", "normalised")],
                         indirect=True, ids=["fig2-paper", "fig2-normalised", "fig5-normalised"])
def test_the_ode_is_announced_exactly_where_it_is_drawn(drawn):
    """Fig. 2's paper setup has no ODE (its rows are not D.1's): no ODE entry, no ODE curve (the
    unmarked dashed lines; an SGD curve carries markers)."""
    _, fig, _, setup = drawn
    odes = [line for ax in fig.axes for line in ax.lines if line.get_marker() in ("None", None, "")]
    assert all(line.get_linestyle() == "--" for line in odes)
    entries = {t.get_text() for legend in _legends(fig) for t in legend.get_texts()}
    assert (plotting.ODE_LABEL in entries) == (setup == "normalised") == bool(odes)


@pytest.mark.parametrize("drawn", [("fig2", "normalised"), ("fig2", "paper")], indirect=True,
                         ids=["fig2-normalised", "fig2-paper"])
def test_a_shared_legend_shows_each_curve_as_every_panel_draws_it(drawn):
    """Fig. 2's panels share one legend: instance i has one colour, marker and line style in both."""
    _, fig, _, _ = drawn
    styles = [{line.get_label(): (line.get_color(), line.get_marker(), line.get_linestyle())
               for line in ax.lines if not line.get_label().startswith("_")} for ax in fig.axes]
    shared = styles[0].keys() & styles[1].keys()
    assert len(shared) == 10
    assert all(styles[0][name] == styles[1][name] for name in shared)


@pytest.mark.parametrize("drawn", [("fig1b_6", "paper")], indirect=True)
def test_coinciding_curves_stay_distinguishable(drawn):
    _, fig, _, _ = drawn
    lines = {line.get_label(): line for line in fig.axes[0].lines}
    a, b = lines[labels.math("xi = 3.16228 sqrt(k)")], lines[labels.math("xi = 10 sqrt(k)")]
    np.testing.assert_array_equal(a.get_ydata(), b.get_ydata())  # the table makes them coincide
    assert a.get_marker() != b.get_marker()
    assert a.get_linestyle() != b.get_linestyle()
    assert a.get_markevery() != b.get_markevery()


def test_setups_figure_reads_too(tmp_path):
    """NAME.setups.png: each setup's panel titled with the figure and that setup's verdict."""
    from verify.figures import runner

    spec = FIGURES["fig2"]
    tables = {setup: synthetic_table("fig2", setup) for setup in ("normalised", "paper")}
    claims = {setup: spec.claims(table) for setup, table in tables.items()}
    rows = spec.setup_rows(tables)
    fig = plotting.render_setups(spec, _columns(rows), claims)
    fig.canvas.draw()
    for ax in fig.axes:
        want = labels.verdict(all(ok for _, ok, _ in claims[ax.get_label()]))
        assert spec.label in ax.get_title() and f"verdict: {want}" in ax.get_title()
    for legend in _legends(fig):
        box = legend.get_window_extent().padded(-TOUCH_PX)
        assert not any(box.overlaps(ax.get_window_extent()) for ax in fig.axes)
    plotting.pyplot().close(fig)
    runner._draw_setups(spec, tables, claims, "quick", tmp_path)
    listed = plotting.read_claims(tmp_path / "fig2.setups.png")["claims"]
    assert listed == [{"claim": d, "holds": bool(ok), "setup": s}
                      for s, judged in claims.items() for d, ok, _ in judged]


def _full_claims() -> list[str]:
    return sorted({c["claim"] for path in RESULTS.glob("*.json")
                   for c in json.loads(path.read_text(encoding="utf-8"))["claims"]})


@pytest.mark.parametrize("claim", _full_claims())
def test_every_committed_claim_renders_as_math(claim):
    """Each claim of the committed full run, as the PNGs show it: no plain notation left, and
    mathtext that matplotlib parses."""
    from matplotlib.mathtext import MathTextParser

    shown = labels.math(claim)
    assert shown.count("$") % 2 == 0
    assert not PLAIN.search(labels.plain_words(shown)), shown
    MathTextParser("path").parse(shown)


@pytest.mark.parametrize("plain, shown", [
    ("xi = Theta(sqrt k)", r"$\xi$ = $\Theta(\sqrt{k})$"),
    ("frozen c_hat, ||Pi_W u|| = 0.5", r"frozen $\hat{c}$, $\|\Pi_W u\|$ = 0.5"),
    ("<u_t,u> reaches 1/2", r"$\langle u_t, u\rangle$ reaches 1/2"),
    ("m >= 0.9 with beta", r"m $\geq$ 0.9 with beta"),
    (r"already $\xi$ math", r"already $\xi$ math"),
])
def test_plain_notation_becomes_mathtext(plain, shown):
    assert labels.math(plain) == shown


@pytest.mark.extended
def test_png_metadata_lists_the_claims_of_its_json(tmp_path, monkeypatch):
    """A real (shrunk) run of both setups: each PNG's ``verify:claims`` record equals the claims
    and verdicts of the JSON written beside it."""
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path / "cache"))
    spec = FIGURES["fig4a"]
    monkeypatch.setitem(spec.params, "quick", dict(spec.params["quick"], steps=1000, replicas=2))
    monkeypatch.setitem(spec.paper_setup, "quick", dict(spec.paper_setup["quick"], steps=1000, replicas=2))
    assert main(["figures", "--quick", "--only", "fig4a", "--out", str(tmp_path)]) in (0, 1)
    written = {}
    for stem, setup in (("fig4a", "normalised"), ("fig4a.paper", "paper")):
        meta = json.loads((tmp_path / f"{stem}.json").read_text(encoding="utf-8"))
        record = plotting.read_claims(tmp_path / f"{stem}.png")
        assert record["figure"] == "fig4a" and record["tier"] == meta["tier"] == "quick"
        written[setup] = [{"claim": c["claim"], "holds": c["holds"], "setup": setup} for c in meta["claims"]]
        assert record["claims"] == written[setup]
    both = plotting.read_claims(tmp_path / "fig4a.setups.png")["claims"]
    assert both == written["normalised"] + written["paper"]
