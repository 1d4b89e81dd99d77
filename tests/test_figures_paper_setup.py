"""The figures' paper setup (:mod:`verify.figures.paper_setup`, :mod:`verify.figures.runner`).

- *The model is Appendix B's as printed.*  The printed formulas enter through
  ``verify.paper.packs.dayi_chen.checks.app_b_simulations`` (``claimed_b_row_scale``,
  ``claimed_b_output_scale``: the same transcription the check ``appendix-b-model`` derives from);
  the setup's row and output scales equal them symbolically, and the simulator's teacher under the paper setup
  equals f(x) = (1/ξ) Σ λ_i σ(⟨v_i, x⟩), v_i = (k/(k+ξ²))(w_i + ξ c_i u), built in SymPy and
  evaluated on sampled x.
- *Its relation to D.1's model*: for ReLU with quantized c, f_B = s f_D1 with
  s = (1/ξ)(1 + ξ²/k)^{−1/2} (the check's derivation); for sigmoid no such factor exists
  (the ratio varies over x) and f_B(x) = (1/ξ) Σ λ_i σ(r n_i t_i) with D.1's pre-activations t_i
  and row norms n_i, for relu and sigmoid alike.
- *The gradient of the scaled-row student*: the simulator's per-sample gradient
  (:func:`verify.simulate.model.terms`) against central differences of the printed network.
- *The runner*: both setups' files, verdicts, sensitivity and per-curve quantities, on small
  figures.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import sympy

from verify.cli import main
from verify.figures import FIGURES, fig1b_6, paper_setup
from verify.figures.common import read_table
from verify.model.instance import orthonormal, separated
from verify.paper.packs.dayi_chen.checks.app_b_simulations import (
    claimed_b_output_scale,
    claimed_b_row_scale,
)
from verify.simulate import MODES
from verify.simulate.model import teacher_output, terms
from verify.simulate.problem import build_problem

#: Outputs of O(1): a k-term sum of activations of d-term dot products (d <= 60), each rounded
#: to a few ulp; 1e-12 leaves a margin of ~1000 over rounding.
OUTPUT_ATOL = 1e-12
#: Central differences with step FD_STEP: truncation error O(FD_STEP^2 |f'''|) ~ 1e-10 for the
#: smooth sigmoid, rounding O(eps/FD_STEP) ~ 1e-10; relative tolerance 1e-6 leaves a wide margin
#: while a missing or extra term (O(1) relative) fails.
FD_STEP = 1e-5
FD_RTOL = 1e-6


def _printed_teacher(inst, activation):
    """Appendix B's f(x) as printed, in SymPy, lambdified over the projections <w_i, x>, <u, x>."""
    k, xi = sympy.symbols("k xi", positive=True)
    zw = sympy.symbols(f"zw0:{inst.k}", real=True)
    zu = sympy.Symbol("zu", real=True)
    sigma = {"relu": lambda t: sympy.Max(t, 0), "sigmoid": lambda t: 1 / (1 + sympy.exp(-t))}[activation]
    expr = claimed_b_output_scale(xi) * sum(
        sympy.Rational(1, inst.k) * sigma(claimed_b_row_scale(k, xi) * (zw[i] + xi * float(inst.c[i]) * zu))
        for i in range(inst.k))
    expr = expr.subs({k: inst.k, xi: inst.xi})
    return sympy.lambdify([zw, zu], expr, modules="numpy")


def test_setup_scales_are_appendix_b_as_printed():
    k, xi = sympy.symbols("k xi", positive=True)
    assert sympy.simplify(paper_setup.row_scale(k, xi) - claimed_b_row_scale(k, xi)) == 0
    assert sympy.simplify(paper_setup.output_scale(xi) - claimed_b_output_scale(xi)) == 0
    # s = (1/xi) x the norm of B's rows for quantized c, r sqrt(1 + xi^2/k) (appendix-b-model)
    s = claimed_b_output_scale(xi) * claimed_b_row_scale(k, xi) * sympy.sqrt(1 + xi**2 / k)
    for kv, xv in ((50, 1.0), (50, math.sqrt(50) / 2), (8, 0.3), (20, 40.0)):
        assert math.isclose(paper_setup.relu_factor(kv, xv), float(s.subs({k: kv, xi: xv})), rel_tol=1e-14)


@pytest.mark.parametrize("activation", ["relu", "sigmoid"])
def test_the_simulated_teacher_is_the_printed_formula(activation):
    inst = separated(6, 60, 1.7, activation, seed=4, quantized=False)  # c uniform on the sphere
    problem = build_problem(inst, MODES["frozen"], **paper_setup.simulate_kwargs(inst.k, inst.xi, "paper"))
    x = np.random.default_rng(1).standard_normal((50, inst.d))
    zw, zu = x @ np.asarray(inst.W).T, x @ np.asarray(inst.u)
    printed = _printed_teacher(inst, activation)(list(zw.T), zu)
    np.testing.assert_allclose(teacher_output(problem, zw, zu), printed, rtol=0, atol=OUTPUT_ATOL)


@pytest.mark.parametrize("activation", ["relu", "sigmoid"])
def test_relation_to_d1(activation):
    """f_B(x) = (1/xi) sum_i lambda_i sigma(r n_i t_i) with D.1's t_i and n_i; for relu with quantized c
    that is s f_D1, for sigmoid it is not a multiple of f_D1."""
    inst = orthonormal(8, 40, 2.0, activation, seed=3)  # quantized c: every n_i = sqrt(1 + xi^2/k)
    b = build_problem(inst, MODES["frozen"], **paper_setup.simulate_kwargs(inst.k, inst.xi, "paper"))
    d1 = build_problem(inst, MODES["frozen"])
    x = np.random.default_rng(2).standard_normal((400, inst.d))
    zw, zu = x @ np.asarray(inst.W).T, x @ np.asarray(inst.u)
    f_b, f_d1 = teacher_output(b, zw, zu), teacher_output(d1, zw, zu)
    t = (zw + inst.xi * np.asarray(inst.c) * zu[:, None]) / d1.teacher_norm
    r = paper_setup.row_scale(inst.k, inst.xi)
    via_d1 = (1 / inst.xi) * (d1.act(r * d1.teacher_norm * t) @ np.asarray(inst.lam))
    np.testing.assert_allclose(f_b, via_d1, rtol=0, atol=OUTPUT_ATOL)
    s = paper_setup.relu_factor(inst.k, inst.xi)
    if activation == "relu":
        np.testing.assert_allclose(f_b, s * f_d1, rtol=0, atol=OUTPUT_ATOL)
    else:  # sigmoid: the row scale moves the pre-activations, no common factor (f > 0 here)
        ratio = f_b / f_d1
        assert np.ptp(ratio) > 0.01 * abs(np.mean(ratio)) and not np.allclose(f_b, s * f_d1, atol=1e-3)


def _loss(problem, zw, zu, x, u_hat, c_hat, W, linearized):
    """(f* - f_hat)^2 of the printed student, directly from u_hat and c_hat in R^d."""
    r, xi, s, lam, act = problem.row_scale, problem.xi, problem.scale, problem.lam, problem.act
    if linearized:
        base = r * (W @ x)
        f_hat = s * (act(base) @ lam + xi * (x @ u_hat) * ((act.derivative(base) * r * c_hat) @ lam))
    else:
        f_hat = s * (act(r * (W @ x + xi * c_hat * (x @ u_hat))) @ lam)
    return float((teacher_output(problem, zw[None], np.array([zu]))[0] - f_hat) ** 2)


@pytest.mark.parametrize("mode", ["unconstrained", "linearized"])
def test_scaled_row_gradients_are_the_printed_networks(mode):
    inst = separated(4, 12, 1.5, "sigmoid", seed=5, quantized=False)
    problem = build_problem(inst, MODES[mode], **paper_setup.simulate_kwargs(inst.k, inst.xi, "paper"))
    rng = np.random.default_rng(3)
    W, u = np.asarray(inst.W), np.asarray(inst.u)
    x, u_hat = rng.standard_normal(inst.d), rng.standard_normal(inst.d)
    u_hat /= np.linalg.norm(u_hat)
    c_hat = np.asarray(inst.c_hat)
    zw, zu = W @ x, float(x @ u)
    t = terms(problem, zw[None], np.array([zu]), np.array([x @ u_hat]), (W @ u_hat)[None], c_hat[None],
              linearized=mode == "linearized")
    assert t.kw is None and t.kh is None  # scaled rows: no normalisation terms
    grad_u, grad_c = t.kx[0] * x, t.gc[0]

    def loss(uh, ch):
        return _loss(problem, zw, zu, x, uh, ch, W, mode == "linearized")

    eye_d, eye_k = np.eye(inst.d), np.eye(inst.k)
    fd_u = [(loss(u_hat + FD_STEP * e, c_hat) - loss(u_hat - FD_STEP * e, c_hat)) / (2 * FD_STEP)
            for e in eye_d]
    fd_c = [(loss(u_hat, c_hat + FD_STEP * e) - loss(u_hat, c_hat - FD_STEP * e)) / (2 * FD_STEP)
            for e in eye_k]
    np.testing.assert_allclose(grad_u, fd_u, rtol=FD_RTOL, atol=FD_RTOL * np.abs(fd_u).max())
    np.testing.assert_allclose(grad_c, fd_c, rtol=FD_RTOL, atol=FD_RTOL * np.abs(fd_c).max())


# --- the runner -----------------------------------------------------------------------------
def _shrink(monkeypatch, name, **changes):
    """Smaller quick params for ``name`` in both setups (same code paths, seconds to run)."""
    module = FIGURES[name]
    monkeypatch.setitem(module.params, "quick", dict(module.params["quick"], **changes))
    paper = dict(module.paper_setup["quick"],
                 **{k: v for k, v in changes.items() if k in ("steps", "replicas")})
    monkeypatch.setitem(module.paper_setup, "quick", paper)


@pytest.mark.extended
def test_both_setups_are_judged_and_compared(tmp_path, monkeypatch):
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path / "cache"))
    _shrink(monkeypatch, "fig4a", steps=2000, replicas=2)
    # the shrunk runs need not reproduce the claims (exit 1 then): this test is about the files
    assert main(["figures", "--quick", "--only", "fig4a", "--out", str(tmp_path)]) in (0, 1)
    for stem in ("fig4a", "fig4a.paper"):
        for ext in ("png", "csv", "json"):
            assert (tmp_path / f"{stem}.{ext}").stat().st_size > 0
    meta = json.loads((tmp_path / "fig4a.json").read_text())
    paper = json.loads((tmp_path / "fig4a.paper.json").read_text())
    comparison = meta["setups"]["comparison"]
    assert [row["claim"] for row in comparison] == [c["claim"] for c in meta["claims"]]
    for row, n_claim, p_claim in zip(comparison, meta["claims"], paper["claims"], strict=True):
        assert row["normalised"] == n_claim["holds"] and row["paper"] == p_claim["holds"]
        assert row["holds under"] == [s for s, ok in (("normalised", row["normalised"]),
                                                      ("paper", row["paper"])) if ok]
        # fig4a leaves open eta, T and c_hat's step (xi = 1 is printed): three values each
        assert set(row["paper sensitivity"]) == {"eta", "c_step", "horizon"}
        assert all(len(values) == 3 for values in row["paper sensitivity"].values())
        assert ("explanation" in row) == (row["normalised"] != row["paper"])
        if not p_claim["holds"]:
            assert p_claim["numbers"]["status"] == paper_setup.NOT_REPRODUCED_PAPER_STATUS
    # every variant's numbers beside its verdicts; the main run's are the claims' own
    numbers = paper["sensitivity_numbers"]
    assert {axis: set(by) for axis, by in numbers.items()} == \
        {axis: set(by) for axis, by in paper["sensitivity"].items()}
    for axis in ("eta", "c_step"):
        assert numbers[axis]["x1"] == {c["claim"]: c["numbers"] for c in paper["claims"]}
    # the three step sizes span a factor 10 around the chosen one, shared by every activation; the
    # c_hat step runs keep eta and move c_hat's step alone, over a factor 10
    runs = paper["sensitivity_runs"]
    assert set(runs) == {"eta x0.316", "eta x3.16", "c_step x0.316", "c_step x3.16"}
    lrs = [run["lr"] for label, run in runs.items() if label.startswith("eta")] + [paper["params"]["lr"]]
    assert math.isclose(max(lrs) / min(lrs), 10.0)
    ratios = [run["c_lr_ratio"] for label, run in runs.items() if label.startswith("c_step")]
    assert math.isclose(max(ratios) / min(ratios), 10.0) and min(ratios) < 1 < max(ratios)
    for label, run in runs.items():
        if label.startswith("c_step"):
            assert run["lr"] == paper["params"]["lr"] and run["xi"] == paper["params"]["xi"]
            assert {c["lr"] for c in run["runs"]["curves"]} == {paper["params"]["lr"]}
    assert {c["lr"] for c in paper["params"]["runs"]["curves"]} == {paper["params"]["lr"]}
    assert {c["model"] for c in paper["params"]["runs"]["curves"]} == {"paper"}
    assert paper["params"]["mode"] == "unconstrained"
    # the per-curve quantities under both setups: the reference curve (relu) has the same effective step
    relu = [lab for lab in paper["curve_scales"] if lab.startswith("relu")][0]
    assert math.isclose(paper["curve_scales"][relu]["effective_step"], meta["curve_scales"][relu.replace(
        "unconstrained", "joint")]["effective_step"], rel_tol=1e-12)
    # the sensitivity CSV holds every step size's rows; the plotted CSV only the chosen one's
    main_rows = (tmp_path / "fig4a.paper.csv").read_text().splitlines()
    all_rows = (tmp_path / "fig4a.paper.sensitivity.csv").read_text().splitlines()
    assert len(all_rows) - 1 == 5 * (len(main_rows) - 1)
    # the c_hat step changes the runs (the sensitivity has something to judge)
    table = read_table(tmp_path / "fig4a.paper.sensitivity.csv")
    main_m = table["value"][np.char.startswith(table["panel"].astype(str), "eta x1:")]
    fast_m = table["value"][np.char.startswith(table["panel"].astype(str), "c_step x3.16:")]
    assert main_m.shape == fast_m.shape and np.max(np.abs(main_m - fast_m)) > 1e-3


#: The values each Appendix B figure leaves open beside eta and T (Appendix B as printed):
#: c_hat's step wherever c_hat is trained, xi wherever only its order (or nothing) is printed.
OPEN_VALUES = {
    "fig1a_4b": {"c_step", "xi"},  # "xi = Theta(sqrt(k))"
    "fig4a": {"c_step"},  # "xi = 1"
    "fig1b_6": {"c_step"},  # its xi grid is judged on sub-grids
    "fig2": {"c_step", "xi"},  # "xi = Theta(1)"
    "fig3a": {"c_step", "xi"},  # "xi = Theta(sqrt(k))"
    "fig3b": {"c_step", "xi"},
    "fig5": {"xi"},  # c_hat frozen, xi not given
}


def test_every_open_value_is_varied_over_a_factor_10():
    assert [name for name, module in FIGURES.items() if module.appendix_b] == list(OPEN_VALUES)
    for name, axes in OPEN_VALUES.items():
        assert set(FIGURES[name].paper_axes) == axes, name
        # each open axis is explained in the paper setup's JSON choices (a spec's axes were once
        # read as a module attribute, found nothing, and the choices lost them silently)
        assert set(paper_setup.axis_choices(FIGURES[name])) == {f"{a} (sensitivity.{a})" for a in axes}, name
    factors = paper_setup.FACTORS
    assert len(factors) == 3 and 1.0 in factors and math.isclose(max(factors) / min(factors), 10.0)
    base = {"lr": 0.5, "xi": 2.0}
    for axis, (key, _) in paper_setup.AXES.items():
        varied = paper_setup.vary(base, axis, 10**0.5)
        assert math.isclose(varied[key], base.get(key, 1.0) * 10**0.5) and varied["varied"] == {axis: 10**0.5}
        assert {k: v for k, v in varied.items() if k not in (key, "varied")} == \
            {k: v for k, v in base.items() if k != key}
    with pytest.raises(ValueError, match="unknown sensitivity axis 'lambda'"):
        paper_setup.vary(base, "lambda", 2.0)


@pytest.mark.extended
def test_the_xi_grid_sensitivity_of_fig6(tmp_path, monkeypatch):
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path / "cache"))
    _shrink(monkeypatch, "fig1b_6", steps=1200, replicas=1)
    assert main(["figures", "--quick", "--only", "fig1b_6", "--out", str(tmp_path)]) in (0, 1)
    paper = json.loads((tmp_path / "fig1b_6.paper.json").read_text())
    # the plateau against xi, one panel per setup: exactly the plotted data, from each setup's table
    assert (tmp_path / "fig1b_6.setups.png").stat().st_size > 0
    setups = read_table(tmp_path / "fig1b_6.setups.csv")
    for setup, stem in (("normalised", "fig1b_6"), ("paper", "fig1b_6.paper")):
        table = read_table(tmp_path / f"{stem}.csv")
        names, times = fig1b_6._plateaus(table)
        got = setups["value"][setups["panel"] == setup]
        assert list(setups["series"][setups["panel"] == setup]) == names
        np.testing.assert_array_equal(got, [t if math.isfinite(t) else np.nan for t in times])
    grid = paper["sensitivity"]["grid"]
    assert set(grid) == {"xi up to 1 sqrt(k)", "xi up to 3.16 sqrt(k)", "xi up to 10 sqrt(k)"}
    assert grid["xi up to 10 sqrt(k)"] == {c["claim"]: c["holds"] for c in paper["claims"]}
    # one eta for every xi, so the effective step eta s(xi)^2 falls with xi
    assert len({v["lr"] for v in paper["curve_scales"].values()}) == 1
    scales = sorted(paper["curve_scales"].items(),
                    key=lambda kv: float(kv[0].split("xi = ")[1].split(",")[0]))
    eff = [v["effective_step"] for _, v in scales]
    assert len(eff) == 5 and all(a > b for a, b in zip(eff, eff[1:], strict=False))


@pytest.mark.extended
def test_setup_paper_alone_writes_only_the_paper_files(tmp_path, monkeypatch):
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path / "cache"))
    _shrink(monkeypatch, "fig3a", steps=400, replicas=1)
    argv = ["figures", "--quick", "--setup", "paper", "--only", "fig3a", "--out", str(tmp_path)]
    assert main(argv) == 0  # a claim the paper setup does not reproduce is a finding, not a regression
    assert sorted(p.name for p in tmp_path.glob("fig3a*")) == [
        "fig3a.paper.csv", "fig3a.paper.json", "fig3a.paper.png", "fig3a.paper.sensitivity.csv"]


def test_the_scaling_experiment_has_no_paper_setup(tmp_path, capsys):
    assert main(["figures", "--quick", "--setup", "paper", "--only", "scaling", "--out", str(tmp_path)]) == 2
    assert "not an Appendix B figure" in capsys.readouterr().err


def test_curve_scales_estimate_once_per_instance_step_and_model(monkeypatch):
    """Fig. 2's joint and frozen curves share instance, η and model: one Monte-Carlo estimate
    serves both labels (the quantities are taken with ĉ frozen, the mode does not enter)."""
    from verify.figures import runner

    calls = []
    monkeypatch.setattr(paper_setup, "curve_scale",
                        lambda spec, lr, model: calls.append((spec["seed"], lr, model)) or {"lr": lr})
    spec = {"activation": "relu", "xi": 1.0, "seed": 3}
    curves = [{"instance": spec, "mode": mode, "lr": 0.1, "model": "paper"} for mode in ("joint", "frozen")]
    curves.append({"instance": dict(spec, seed=4), "mode": "joint", "lr": 0.1, "model": "paper"})
    scales = runner._curve_scales({"runs": {"curves": curves}})
    assert calls == [(3, 0.1, "paper"), (4, 0.1, "paper")]
    assert len(scales) == 3


def _curves(panel_series: dict, hits: dict, horizon: int = 1000) -> dict:
    """A figure table whose curve (panel, series) first reaches 0.95 at ``hits[series]`` (None: never)."""
    from verify.figures.common import _columns, curve_rows

    steps = np.arange(0, horizon + 1, 10)
    rows = []
    for panel, names in panel_series.items():
        for name in names:
            hit = hits[panel, name]
            rows += curve_rows(panel, name, "m", steps, np.where(steps >= (hit if hit else 10**9), 0.95, 0.1))
    return _columns(rows)


@pytest.mark.parametrize("name, panels, quantities", [
    ("fig4a", {"m": ("relu", "sigmoid")}, ("steps_to_weak_recovery",)),
    ("fig5", {"a": ("alpha = 0", "alpha = 0.5")}, ("steps_to_weak_recovery",)),
    ("fig2", {"a": ("instance 1", "instance 2"), "b": ("instance 1", "instance 2")},
     ("joint_steps_to_0.9", "frozen_steps_to_0.9")),
])
def test_setup_overlays_plot_exactly_their_csv(tmp_path, name, panels, quantities):
    """NAME.setups.csv holds each setup's times as the figure's own claims read them (NaN: not
    within T), and the PNG is drawn from it."""
    from verify.figures import runner

    module = FIGURES[name]
    curves = [(p, s, i) for p, names in panels.items() for i, s in enumerate(names)]
    hits = {"normalised": {(p, s): 100 * (i + 1) for p, s, i in curves},
            "paper": {(p, s): (None if i else 500) for p, s, i in curves}}
    tables = {setup: _curves(panels, hit) for setup, hit in hits.items()}
    runner._draw_setups(module, tables, {setup: module.claims(t) for setup, t in tables.items()}, "quick",
                        tmp_path)
    assert (tmp_path / f"{name}.setups.png").stat().st_size > 0
    got = read_table(tmp_path / f"{name}.setups.csv")
    assert set(got["quantity"]) == set(quantities)
    for setup, hit in hits.items():
        keep = got["panel"] == setup
        for panel, names in panels.items():
            quantity = quantities[0] if panel in ("m", "a") else quantities[1]
            for series in names:
                row = keep & (got["series"] == series) & (got["quantity"] == quantity)
                expected = hit[panel, series]
                value = float(got["value"][row][0])
                assert (math.isnan(value) if expected is None else value == expected), (setup, series)
                assert got["step"][row][0] == 1000  # the horizon T, where an unreached run is drawn


def test_curve_scale_reports_bounds_not_points_when_h0_is_unresolved():
    """Fig. 3(a)'s paper-model curve at d = 2000: h(0) = -6e-6 ± 7e-6 from 2e4 samples. A point
    value of d V/h(0)^2 would be noise; the one-sided bounds through |h(0)| <= |h| + 5 se are not."""
    spec = {"kind": "separated", "k": 50, "d": 2000, "xi": math.sqrt(50), "activation": "relu", "seed": 4,
            "quantized": False}
    lr = 1.88e-4
    paper = paper_setup.curve_scale(spec, lr, "paper")
    assert paper["h0_method"] == "monte carlo" and not paper["h0_resolved"]
    assert "d_V_over_h0_sq" not in paper and "noise_to_drift" not in paper
    upper = abs(paper["h0"]) + paper_setup.RESOLVED_Z * paper["h0_se"]
    assert paper["h0_abs_upper"] == upper
    assert paper["d_V_over_h0_sq_lower"] == pytest.approx(2000 * paper["V_hat"] / upper**2, rel=1e-12)
    assert paper["drift_per_step_upper"] == pytest.approx(lr * upper, rel=1e-12)
    normalised = paper_setup.curve_scale(spec, lr, "normalised")  # closed form: exact, resolved
    assert normalised["h0_resolved"] and normalised["d_V_over_h0_sq"] > 0
