"""The command line: output formats, exit statuses, one-line errors."""

from __future__ import annotations

import json

import pytest

from tests.cli_helpers import assert_one_line_usage_error, run_verify
from verify.cli import main

run_cli = run_verify


def test_hermite_json_fields(capsys):
    assert main(["hermite", "relu", "--terms", "6", "--dps", "20", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    for field in ("activation", "dps", "coefficients", "errors", "information_exponent",
                  "decay_exponent"):
        assert field in report
    assert report["activation"] == "relu"
    assert report["dps"] == 20
    assert len(report["coefficients"]) == 6
    assert report["coefficients"][1] == "0.50000000000000000000"
    assert report["information_exponent"] == 1


def test_hermite_coefficients_have_requested_significant_digits(capsys):
    assert main(["hermite", "sigmoid", "--terms", "4", "--dps", "25", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    mantissa = report["coefficients"][1].split("e")[0].lstrip("-0.").replace(".", "")
    assert len(mantissa) == 25


def test_hermite_table(capsys):
    assert main(["hermite", "expr:x**3-3*x", "--terms", "5", "--dps", "20"]) == 0
    out = capsys.readouterr().out
    assert "information exponent: 3" in out
    assert "finite Hermite expansion" in out


def test_kernel_json(capsys):
    assert main(["kernel", "relu", "--rho", "0", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["value"].startswith("0.15915494309189533576888376337")  # 1/(2π)


def test_python_dash_m_matches_console_script():
    result = run_cli("kernel", "he3", "--rho", "0.5")
    assert result.returncode == 0
    assert "0.125" in result.stdout


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["hermite", "swish"], "unknown activation 'swish'"),
        (["hermite", "relu", "--terms", "-3"], "--terms"),
        (["hermite", "relu", "--terms", "2.5"], "--terms"),
        (["hermite", "relu", "--dps", "14"], "--dps"),
        (["kernel", "relu", "--rho", "1.5"], "--rho"),
        (["kernel", "relu", "--rho", "nan"], "--rho"),
        (["hermite", "expr:x+*"], "cannot parse"),
        (["hermite", "expr:exp(x**2)"], "not square-integrable"),
        (["kernel", "expr:sign(x)", "--rho", "0.2", "--derivative"], "discontinuous"),
        (["frobnicate"], "invalid choice"),
    ],
)
@pytest.mark.extended
def test_bad_input_is_one_line_and_exit_2(args, fragment):
    assert_one_line_usage_error(run_cli(*args), fragment)


@pytest.mark.extended
def test_bench_quick_reports_ratios(tmp_path, monkeypatch):
    from verify.bench import hermite_bench

    monkeypatch.setattr(hermite_bench, "ACTIVATIONS", ("tanh",))
    out = tmp_path / "bench.json"
    assert main(["bench", "--only", "hermite", "--quick", "--json", str(out)]) == 0
    results = json.loads(out.read_text())
    rows = results["benchmarks"][0]["rows"]
    # the BLAS facts that a BLAS-bound ratio depends on travel with the ratios
    assert set(results["machine"]["env"]) >= {"OPENBLAS_NUM_THREADS", "OPENBLAS_CORETYPE"}
    assert results["machine"]["blas"]
    assert rows[0]["activation"] == "tanh"
    assert rows[0]["speedup"] > 0
    assert float(rows[0]["max_abs_difference"]) < 1e-25


def test_certified_bench_quick_reports_ratios(tmp_path, monkeypatch):
    """Certified against direct acb.integral (issue 52): a row with its ratio, target and route."""
    from verify.bench import certified_bench

    monkeypatch.setattr(certified_bench, "ACTIVATIONS", ("tanh",))
    out = tmp_path / "bench.json"
    assert main(["bench", "--only", "certified", "--quick", "--json", str(out)]) == 0
    row, = json.loads(out.read_text())["benchmarks"][0]["rows"]
    assert row["activation"] == "tanh" and row["target"] == "<= 1" and row["ratio"] > 0
    assert row["route"] == "shared nodes"
    assert float(row["max_difference"]) < 1e-20  # 20 digits: both computed the same numbers


@pytest.mark.parametrize("ratio, status", [(1.5, 0), (2.5, 1)])
def test_bench_exits_1_when_a_target_is_missed(monkeypatch, capsys, ratio, status):
    """A missed target is a failure the exit status carries, named on stderr (it used to print
    the miss and exit 0).  --quick prints ratios at smoke-test sizes without judging them."""
    import types

    from verify import bench

    fake = types.SimpleNamespace(run=lambda quick: {"name": "fake", "rows": [
        {"benchmark": "step / unavoidable work", "ratio": ratio, "target": "<= 2"},
        {"benchmark": "speed-up", "ratio": 40.0, "target": ">= 30"},
        {"benchmark": "untargeted", "ratio": 7.0, "target": ""}]})
    monkeypatch.setitem(bench.BENCHMARKS, "fake", fake)
    assert main(["bench", "--only", "fake"]) == status
    err = capsys.readouterr().err
    assert ("target missed: fake: step / unavoidable work = 2.5 (target <= 2)" in err) == bool(status)
    assert main(["bench", "--only", "fake", "--quick"]) == 0


def test_every_command_has_a_description_and_no_sphinx_markup():
    """`verify COMMAND --help` reads as text: a description, and no :mod:/:func: roles or
    ``literals`` leaking from the docstrings it is built from."""
    import argparse

    from verify.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for name, parser in sub.choices.items():
        assert parser.description, name
        text = parser.format_help()
        assert not any(role in text for role in (":mod:", ":func:", ":class:", ":data:", "``")), name
