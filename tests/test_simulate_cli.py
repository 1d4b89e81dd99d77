"""``verify grad`` and ``verify simulate``: outputs, files, and one-line errors with exit 2."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.cli_helpers import assert_one_line_usage_error, run_verify
from verify.cli import main
from verify.model.instance import glm, orthonormal, save
from verify.simulate import load_trajectory

Z = 5.3  # two-sided normal tail ≈ 1.2e-7 < 1e-6


@pytest.fixture(scope="module")
def instance_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("sim") / "inst.json"
    save(orthonormal(4, 30, 1.0, "relu", seed=3), path)
    return str(path)


@pytest.mark.parametrize("engine", ["full", "reduced"])
def test_grad_json_reports_component_residual_and_z(instance_file, capsys, engine):
    assert main(["grad", instance_file, "--m", "0.25", "--samples", "40000", "--engine", engine,
                 "--seed", "5", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    for key in ("component", "component_se", "residual_norm", "analytic_component", "z_component",
                "loss", "analytic_loss", "z_loss", "h"):
        assert key in report
    assert abs(report["z_component"]) <= Z and abs(report["z_loss"]) <= Z


def test_grad_table(instance_file, capsys):
    assert main(["grad", instance_file, "--m", "-0.5", "--samples", "1000"]) == 0
    out = capsys.readouterr().out
    assert "gradient component along u - m u_hat" in out and "z =" in out


@pytest.mark.parametrize("suffix", [".csv", ".npz"])
def test_simulate_writes_the_format_of_the_extension(instance_file, tmp_path, suffix):
    out = tmp_path / f"run{suffix}"
    assert main(["simulate", instance_file, "--mode", "joint", "--steps", "40", "--lr", "0.05",
                 "--replicas", "3", "--record-every", "20", "--quiet", "-o", str(out)]) == 0
    traj = load_trajectory(out)
    assert list(traj.steps) == [0, 20, 40] and traj.m.shape == (3, 3)
    assert np.isfinite(traj.m).all() and traj.meta["mode"] == "joint"


def test_simulate_batch_counts_samples(instance_file, tmp_path):
    out = tmp_path / "run.csv"
    assert main(["simulate", instance_file, "--mode", "joint", "--steps", "64", "--lr", "0.05",
                 "--batch", "8", "--record-every", "32", "--quiet", "-o", str(out)]) == 0
    traj = load_trajectory(out)
    assert list(traj.steps) == [0, 32, 64] and traj.meta["batch"] == 8


def test_simulate_is_deterministic_and_quiet_off_a_terminal(instance_file, tmp_path):
    paths = [tmp_path / "a.csv", tmp_path / "b.csv"]
    for path in paths:
        result = run_verify("simulate", instance_file, "--steps", "30", "--lr", "0.05", "--replicas",
                            "2", "--seed", "9", "--engine", "full", "-o", str(path))
        assert result.returncode == 0 and result.stderr == ""  # no progress bar when not a TTY
    assert paths[0].read_text() == paths[1].read_text()


@pytest.mark.parametrize("args,fragment", [
    (["--lr", "0"], "--lr"),
    (["--lr", "-1"], "--lr"),
    (["--steps", "0"], "--steps"),
    (["--steps", "2.5"], "--steps"),
    (["--replicas", "0"], "--replicas"),
    (["--replicas", "1.5"], "--replicas"),
    (["--mode", "adam"], "--mode"),
    (["--engine", "gpu"], "--engine"),
    (["-o", "out.txt"], "must end in .csv or .npz"),
    (["--mode", "nonorthogonal"], "needs an instance whose u has a component in span W"),
    (["--batch", "0"], "--batch"),
    (["--batch", "2"], "steps = 5 must be a multiple of batch = 2"),
])
@pytest.mark.extended
def test_simulate_bad_input_is_one_line_exit_2(instance_file, tmp_path, args, fragment):
    base = {"--steps": "5", "--lr": "0.1", "-o": str(tmp_path / "x.csv")}
    for flag, value in zip(args[::2], args[1::2], strict=True):
        base[flag] = value
    argv = ["simulate", instance_file, *(item for pair in base.items() for item in pair)]
    for flag, value in zip(args[::2], args[1::2], strict=True):
        if flag not in ("--steps", "--lr", "-o"):
            argv += [flag, value]
    assert_one_line_usage_error(run_verify(*argv), fragment)


def test_linearized_without_base_model_is_exit_2(tmp_path):
    path = tmp_path / "glm.json"
    save(glm(3, 10, 1.7, "relu", seed=0), path)
    result = run_verify("simulate", str(path), "--mode", "linearized", "--steps", "5", "--lr", "0.1",
                        "-o", str(tmp_path / "x.csv"))
    assert_one_line_usage_error(result, "expands around the base model")


@pytest.mark.parametrize("args,fragment", [
    (["--m", "1"], "--m"),
    (["--m", "0.1", "--samples", "0"], "--samples"),
    (["--m", "0.1", "--samples", "10", "--engine", "gpu"], "--engine"),
])
def test_grad_bad_input_is_one_line_exit_2(instance_file, args, fragment):
    argv = ["grad", instance_file, *args]
    if "--samples" not in args:
        argv += ["--samples", "10"]
    assert_one_line_usage_error(run_verify(*argv), fragment)


def test_simulator_benchmark_quick(tmp_path, capsys):
    out = tmp_path / "bench.json"
    assert main(["bench", "--only", "simulator", "--quick", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["benchmarks"][0]["rows"]
    assert [r["benchmark"].split(" ")[0] for r in rows] == [
        "full_vs_unavoidable", "full_vs_unavoidable", "reduced_vs_full", "reduced_d_scaling",
        "batched_vs_online", "compiled_vs_numpy", "compiled_vs_unavoidable"]
    assert all(r["ratio"] > 0 for r in rows)
