"""Region studies: the per-instance outcomes, the cells' intervals, the region words, and a
tiny study run end to end against claims whose truth is known by construction."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from verify.cli import main as cli_main
from verify.regions.judge import LOSS_Z, best_time, cell, curve_times, loss_outcome, outcome
from verify.regions.runner import run_study
from verify.regions.spec import Claim, Curve, StudySpec, Tier
from verify.regions.summary import render, summarize

INF, NAN = math.inf, math.nan
RATIO = Claim("f", "within 3", "ratio", 3.0)
REACH = Claim("f", "all reach", "reach")
SOONER = Claim("f", "a before b", "sooner", first="a", second="b")
GROWS = Claim("f", "c at least 3x a", "grows", 3.0)
MONOTONE = Claim("f", "never shorter", "monotone")


@pytest.mark.parametrize(
    ("claim", "times", "expected"),
    [
        (RATIO, {"a": 1.0, "b": 3.0}, True),
        (RATIO, {"a": 1.0, "b": 3.0000001}, False),  # barely false
        (RATIO, {"a": 1.0, "b": INF}, False),  # a curve that never arrives fails the claim
        (RATIO, {"a": 1.0, "b": NAN}, None),  # an unknown time decides nothing
        (RATIO, {"a": INF, "b": NAN}, False),  # ... unless a known time already fails it
        (REACH, {"a": 1.0, "b": 1e12}, True),
        (REACH, {"a": NAN, "b": 1.0}, None),
        (SOONER, {"a": 1.0, "b": 1.0}, False),  # a tie is not sooner
        (SOONER, {"a": 1.0, "b": INF}, True),
        (SOONER, {"a": INF, "b": INF}, False),
        (SOONER, {"a": 1.0, "b": NAN}, None),
        (GROWS, {"a": 1.0, "b": 0.5, "c": 3.0}, True),
        (GROWS, {"a": 1.0, "b": 0.5, "c": 2.9999}, False),  # barely false
        (GROWS, {"a": 1.0, "b": 0.5, "c": INF}, True),  # never leaving the plateau is longest
        (GROWS, {"a": INF, "b": 0.5, "c": INF}, False),  # the smallest xi must reach
        (GROWS, {"a": NAN, "b": 0.5, "c": INF}, None),
        (MONOTONE, {"a": 1.0, "b": 1.0, "c": INF}, True),
        (MONOTONE, {"a": INF, "b": INF, "c": INF}, False),  # nothing reaches: not a lengthening plateau
        (MONOTONE, {"a": 1.0, "b": 0.999, "c": INF}, False),  # barely false
        (MONOTONE, {"a": 2.0, "b": NAN, "c": 1.0}, False),  # decided across the unknown: b cannot fit
        (MONOTONE, {"a": 1.0, "b": NAN, "c": 2.0}, None),  # b might lie outside [1, 2]
        (MONOTONE, {"a": 2.0, "b": 1.0, "c": NAN}, False),
    ],
)
def test_outcome(claim, times, expected):
    assert outcome(claim, times) is expected


def test_cell_counts_unknowns_both_ways():
    c = cell([True] * 15 + [None] * 5)
    assert (c["holds"], c["unknown"], c["fails"]) == (15, 5, 0)
    assert c["interval"][1] == 1.0  # with the unknowns read as holding
    assert c["interval"][0] < cell([True] * 20)["interval"][0]
    assert cell([True] * 20)["status"] == "holds"
    assert cell([False] * 20)["status"] == "fails"
    assert cell([True] * 10 + [False] * 10)["status"] == "undecided"
    assert cell([True] * 12 + [None] * 8)["status"] == "undecided"


def test_best_time_and_curve_times():
    assert best_time(np.array([INF, 5.0, 3.0, NAN])) == (3.0, 2)
    assert best_time(np.array([INF, INF])) == (INF, None)
    assert math.isnan(best_time(np.array([INF, NAN]))[0])  # an unknown step might reach
    curve = {"tau": [10.0], "levels": [0.5], "ran": [0, 1], "sgd": [None, 400.0, None]}
    grid = [100.0, 10.0, 1.0]
    assert list(curve_times(curve, grid, 0.5, 100, True)) == [INF, 400.0, 1000.0]
    assert math.isnan(curve_times(curve, grid, 0.5, 100, False)[2])  # flow not validated: unknown


SAME_RUN = Claim("f", "u before c", "sooner", first="a", second="a:c")
LOSS5 = Claim("f", "a's loss at least 5x b's", "loss_above", 5.0, first="a", second="b")


def test_a_tie_within_one_run_is_unknown():
    """Two series of one run passed within one record: their order was not observed."""
    assert outcome(SAME_RUN, {"a": 300.0, "a:c": 300.0}) is None
    assert outcome(SAME_RUN, {"a": 300.0, "a:c": 301.0}) is True
    assert outcome(SAME_RUN, {"a": 301.0, "a:c": 300.0}) is False


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        ((5.0, 0.0), (1.0, 0.0), True),  # exact losses: equality holds
        ((4.9999999, 0.0), (1.0, 0.0), False),  # barely false, exact
        ((5.0 + 1.001 * LOSS_Z * 0.01, 0.01), (1.0, 0.0), True),  # just past |z| = LOSS_Z
        ((5.0 + 0.99 * LOSS_Z * 0.01, 0.01), (1.0, 0.0), None),  # within the noise: unknown
        ((5.0 - 1.001 * LOSS_Z * 0.01, 0.0), (1.0, 0.002), False),  # the second's SE counts 5 times
        ((5.0 - 0.99 * LOSS_Z * 0.01, 0.0), (1.0, 0.002), None),
        ((NAN, NAN), (1.0, 0.0), None),  # SGD did not run: unknown
        ((INF, 0.0), (1.0, 0.0), True),  # the first diverged: no small loss at that step
        ((1.0, 0.0), (INF, 0.0), False),
        ((INF, 0.0), (INF, 0.0), None),
    ],
)
def test_loss_outcome(first, second, expected):
    assert loss_outcome(LOSS5, np.array(first), np.array(second)) is expected


def test_curve_times_of_a_curve_without_its_own_flow():
    """A yardstick curve (flow False) and a ĉ-overlap series are unknown below the SGD steps,
    never the flow's time."""
    grid = [100.0, 10.0, 1.0]
    curve = {"tau": [None], "levels": [0.5], "ran": [0, 1], "flow": False,
             "sgd_at": {"0.5": [None, 400.0, None]}, "sgd_c_at": {"0.5": [50.0, None, None]}}
    times = curve_times(curve, grid, 0.5, 100, True)
    assert list(times[:2]) == [INF, 400.0] and math.isnan(times[2])
    own = {**curve, "flow": True, "tau": [10.0]}
    assert curve_times(own, grid, 0.5, 100, True)[2] == 1000.0
    c_times = curve_times(own, grid, 0.5, 100, True, series="c")
    assert list(c_times[:2]) == [50.0, INF] and math.isnan(c_times[2])


def test_passage_loss_and_c_levels_leave_the_chain_unchanged():
    """Asking for the final loss and ĉ-overlap times draws the loss from a second stream: the
    chain's own times are bit for bit those of a run without them; a frozen ĉ's overlap is
    timed at sample 0 or never."""
    from verify.model.instance import separated
    from verify.simulate.passage import Passage, first_passage

    inst = separated(6, 60, 1.0, "relu", seed=3, quantized=False)
    plain = first_passage(Passage(inst, "joint", 0.05, 4000, (0.3, 0.6), 9, m0=0.1))
    more = first_passage(Passage(inst, "joint", 0.05, 4000, (0.3, 0.6), 9, m0=0.1, c_levels=(0.9,),
                                 loss_samples=500))
    assert plain["times"] == more["times"] and plain["m_end"] == more["m_end"]
    assert more["loss"] > 0 and more["loss_se"] == 0.0  # joint: the closed form
    lin = first_passage(Passage(inst, "linearized", 0.05, 2000, (0.6,), 9, m0=0.1, to_horizon=True,
                                loss_samples=2000))
    assert lin["samples"] == 2000 and lin["loss_se"] > 0  # Monte Carlo, with its SE
    frozen = first_passage(Passage(inst, "frozen", 0.05, 500, (0.99,), 9, m0=0.1, c_levels=(0.01, 0.999)))
    overlap = abs(float(inst.c @ inst.c_hat))
    assert frozen["c_times"] == [0.0 if overlap >= 0.01 else INF, INF]


def test_the_flow_stands_in_only_for_runs_it_describes():
    """u_hat free to enter span W (Figs. 4, 5 and 6's modes): the projected population flow
    sets the start and horizon but never replaces SGD times, so the flow gap is not measured
    on such curves and their times below the SGD steps stay unknown."""
    from verify.regions.runs import instance_task

    tier = {**TINY.__dict__, "instances": 1, "sgd_cap": 2_000}
    curves = [{"label": "free", "activation": "relu", "mode": "nonorthogonal", "alpha": 0.0},
              {"label": "projected", "activation": "relu", "mode": "frozen"}]
    run = instance_task(curves, 0.5, tier, 0, "equal", 1.0)
    free, projected = run["curves"]["free"], run["curves"]["projected"]
    assert free["flow"] is False and projected["flow"] is True
    assert free["tau"] == projected["tau"]  # the same flow sets both horizons
    grid = run["grid"]
    assert np.isnan(curve_times(free, grid, 0.5, TINY.d, True)[-1])
    assert np.isfinite(curve_times(projected, grid, 0.5, TINY.d, True)[-1])


def test_records_set_the_resolution_of_a_passage_time():
    """A chain read at 3x the records of another with the same samples: the same path, its
    times at least as early and never more than one coarse record apart."""
    from verify.model.instance import separated
    from verify.simulate.passage import Passage, first_passage

    inst = separated(6, 60, 1.0, "relu", seed=3, quantized=False)
    coarse = first_passage(Passage(inst, "joint", 0.05, 6000, (0.3, 0.6), 9, m0=0.1, records=40))
    fine = first_passage(Passage(inst, "joint", 0.05, 6000, (0.3, 0.6), 9, m0=0.1, records=120))
    for c, f in zip(coarse["times"], fine["times"], strict=True):
        assert f <= c and (math.isinf(c) or c - f <= 6000 // 40)


def test_known_truth_yardstick_and_losses(tiny_run):
    """Known truth by construction: curve b is curve a (same instance, start, steps and
    samples) with no flow of its own, so 'within a factor 1' holds wherever SGD ran and is
    unknown below it; their final losses are equal closed forms, so 'b's loss >= 1 x a's'
    holds and 'b's >= 1.0001 x a's' (barely false) fails wherever both ran."""
    curves = (Curve("a", "relu", "joint"), Curve("b", "relu", "joint", yardstick="a"))
    claims = (
        Claim("f", "within 1", "ratio", 1.0),
        Claim("f", "loss b >= a", "loss_above", 1.0, first="b", second="a"),
        Claim("f", "loss b >= 1.0001 a", "loss_above", 1.0001, first="b", second="a"),
        Claim("f", "u before c", "sooner", first="a", second="a:c"),
        Claim("f", "c before u", "sooner", first="a:c", second="a"),
        Claim("f", "a reaches", "reach", curves=("a",)),
    )
    spec = StudySpec(
        name="tiny", paper="a test", curves=curves, level=0.5, xis={"1": ("f", lambda k: 1.0)},
        claims=claims, tiers={"quick": CAPPED}, choices={}, c_levels=(0.5,), to_horizon=True,
        loss_samples=100,
    )
    doc = tiny_run.spec(spec)
    within, equal, barely, u_first, c_first, reach = doc["claims"]
    key = "xi=1, lambda equal"
    ran = [i for i, c in enumerate(within["shared"][key]["cells"]) if c["unknown"] < TINY.instances]
    assert ran, "SGD ran at some grid step"
    for c, r in zip(within["shared"][key]["cells"], reach["shared"][key]["cells"], strict=True):
        if c["unknown"] == 0:  # equal times: within a factor 1 exactly where a reaches
            assert c["holds"] == r["holds"]
    below = within["shared"][key]["cells"][-1]
    assert below["unknown"] == TINY.instances  # b has no flow: never the flow's time
    assert equal["tuned"][key]["holds"] == TINY.instances
    assert all(c["holds"] + c["unknown"] == TINY.instances for c in equal["shared"][key]["cells"])
    assert all(c["holds"] == 0 for c in barely["shared"][key]["cells"])
    assert barely["tuned"][key]["fails"] == TINY.instances
    for a, b in zip(u_first["shared"][key]["cells"], c_first["shared"][key]["cells"], strict=True):
        assert a["holds"] + b["holds"] <= TINY.instances


TINY = Tier(k=4, d=100, instances=10, grid_top=4.0, grid_bottom=-1.0, grid_step=1.0, sgd_cap=200_000)
#: the smallest step's horizon (4 τ / η at η d = 10^-2) is past this cap on every instance
CAPPED = Tier(k=4, d=100, instances=10, grid_top=4.0, grid_bottom=-2.0, grid_step=1.0, sgd_cap=20_000)


def _tiny(curves, claims) -> StudySpec:
    return StudySpec(
        name="tiny",
        paper="a test",
        curves=curves,
        level=0.5,
        xis={"1": ("f", lambda k: 1.0)},
        claims=claims,
        tiers={"quick": TINY},
        choices={},
    )


@pytest.fixture
def tiny_run(tmp_path):
    def run(curves, claims):
        return run_study(_tiny(curves, claims), True, str(tmp_path), workers=1), tmp_path

    run.spec = lambda spec: run_study(spec, True, str(tmp_path), workers=1)
    return run


def test_known_truth_identical_curves(tiny_run):
    """Two identical curves (same instance, samples and steps): their times are equal, so
    'within a factor 1' holds on every instance, and 'a before b' (strictly) never does."""
    same = (Curve("a", "relu", "joint"), Curve("b", "relu", "joint"))
    claims = (Claim("f", "within 1", "ratio", 1.0), Claim("f", "a before b", "sooner", first="a", second="b"))
    doc, out = tiny_run(same, claims)
    within, sooner = doc["claims"]
    assert within["tuned"]["xi=1, lambda equal"]["holds"] == TINY.instances
    assert within["verdict"] == "holds in a region"
    assert sooner["verdict"].startswith("never")
    assert sooner["reproduced_by"] == ["neither"]
    assert (out / "f.regions.png").stat().st_size > 10_000
    summary = summarize(out)
    assert summary["tier"] == "quick" and summary["studies"]["tiny"]["claims"][1]["verdict"].startswith(
        "never"
    )
    table = render(summary, None)
    assert "never" in table and "within 1" in table


def test_a_faster_flow_is_found_faster_at_small_steps(tiny_run):
    """ReLU against He3 at λ = 1/k: He3's population flow reaches 1/2 several times sooner
    (τ about 8× smaller on these instances, checked here), so at the smallest shared step,
    where SGD follows the flow, 'He3 before ReLU' holds on most instances; the two opposite
    claims never both hold on one instance.  (With tuned steps the order reverses: ReLU's noise
    limit is far higher; that is the study's finding, not asserted here.)"""
    from verify.model.population import population
    from verify.regions.runs import make_instance
    from verify.simulate.drift import population_flow

    def tau(activation, seed):
        inst = make_instance(TINY.k, TINY.d, 1.0, activation, seed, "equal")
        m0 = math.copysign(1, float(population(inst).h(0.0))) / math.sqrt(TINY.d)
        return population_flow(inst, m0, 1.0, (0.5,), rtol=1e-6).tau[0]

    flow_he3_first = sum(tau("he3", s) < tau("relu", s) for s in range(TINY.instances))
    assert flow_he3_first >= 8
    curves = (Curve("relu", "relu", "joint"), Curve("he3", "he3", "joint"))
    claims = (
        Claim("f", "he3 first", "sooner", first="he3", second="relu"),
        Claim("f", "relu first", "sooner", first="relu", second="he3"),
    )
    doc, _ = tiny_run(curves, claims)
    he3_first, relu_first = doc["claims"]
    key = "xi=1, lambda equal"
    for a, b in zip(he3_first["shared"][key]["cells"], relu_first["shared"][key]["cells"], strict=True):
        assert a["holds"] + b["holds"] <= TINY.instances
    assert he3_first["shared"][key]["cells"][-1]["holds"] >= flow_he3_first - 1


def test_committed_quick_summary_renders_in_the_readme():
    from pathlib import Path

    from verify.readme import read_block, regions_block

    root = Path(__file__).resolve().parent.parent
    assert read_block("regions") == regions_block()
    quick = json.loads((root / "results/regions-quick.json").read_text(encoding="utf-8"))
    claims = [c for s in quick["studies"].values() for c in s["claims"]]
    assert {c["figure"] for c in claims} == {"fig4a", "fig1a_4b", "fig2", "fig1b_6", "fig3", "fig5"}
    assert all(c["verdict"] for c in claims)


@pytest.mark.parametrize(
    "argv", [["regions", "--workers", "0", "--out", "x"], ["regions", "--only", "nope", "--out", "x"]]
)
def test_cli_refuses_bad_arguments(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    try:
        status = cli_main(argv)
    except SystemExit as exc:  # argparse's own errors
        status = exc.code
    assert status == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and ("workers" in err[0] or "nope" in err[0])


def test_replica_seeds_extend_the_instances_first_run():
    """Replica 0 of a step is the instance's first run (SeedSequence children are indexed), and
    no two of the REPLICAS x grid chains share a seed."""
    from verify.regions.runs import _chain_seeds

    first, every = _chain_seeds(7, 15), _chain_seeds(7, 15, 5)
    assert list(every[:15]) == list(first)
    assert len(set(every.tolist())) == 75


def _replica(time):
    return {"sgd_at": {"0.5": time}, "sgd_c_at": {}, "loss": None, "loss_se": None, "samples": 0,
            "diverged": False}


def test_a_tuned_time_is_the_median_of_its_replicas():
    """A first run that was a fluke (a reached at 10 at step 1, where three of its four replicas
    never reach) no longer decides 'a before b' alone: a's tuned step moves to the neighbour with
    the best median (step 2, 50), b keeps step 1 (median 40), so the claim fails on this
    instance; the spread is read only where every replica reached."""
    from verify.regions.judge import _replica_tuned, _tuned

    spec = _tiny((Curve("a", "relu", "joint"), Curve("b", "relu", "joint")), (SOONER,))
    values = {"a": np.array([INF, 10.0, 50.0, 200.0]), "b": np.array([INF, 40.0, 45.0, 300.0])}
    replicas = {"a": {"0": [None] * 4, "1": [None, None, 30.0, None], "2": [48.0, 52.0, 55.0, 49.0]},
                "b": {"0": [None] * 4, "1": [41.0, 39.0, 42.0, 40.0], "2": [44.0, 46.0, 45.0, 47.0]}}
    run = {"replicas": {label: {g: [_replica(t) for t in times] for g, times in steps.items()}
                        for label, steps in replicas.items()}}
    best, chosen = _tuned(SOONER, values)
    assert chosen == {"a": 1, "b": 1} and outcome(SOONER, best) is True
    best, chosen, spreads = _replica_tuned(run, SOONER, spec, values, best, chosen)
    assert chosen == {"a": 2, "b": 1}
    assert best == {"a": 50.0, "b": 40.0}
    assert outcome(SOONER, best) is False
    assert spreads == [pytest.approx((55.0 - 48.0) / 50.0), pytest.approx((42.0 - 39.0) / 40.0)]


def test_a_study_judges_tuned_steps_over_replicas(tiny_run):
    """End to end: every tuned step where SGD ran gets REPLICAS runs, the cell records their
    spread, and the words say so beside the share of the grid where the shared step holds."""
    from verify.regions.spec import REPLICAS

    doc, _ = tiny_run((Curve("a", "relu", "joint"), Curve("b", "he3", "joint")), (REACH,))
    (reach,) = doc["claims"]
    key = "xi=1, lambda equal"
    assert doc["replicas_at_tuned_steps"] == REPLICAS >= 5
    spread = reach["tuned"][key]["replica_spread"]
    assert spread["series"] > 0 and 0 <= spread["median"] <= spread["p90"]
    held, steps = reach["shared"][key]["grid_steps_held"]
    assert steps == len(TINY.grid) and 0 <= held <= steps
    assert f"median of {REPLICAS} runs per tuned step, whose times spread by" in reach["words"][0]
    assert f"of {steps}" in reach["words"][0]
