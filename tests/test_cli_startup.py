"""`verify --help`, `verify COMMAND --help` and usage errors answer at once: building the parser
loads none of the heavy packages (SymPy, NumPy, numba, SciPy, mpmath, dask, matplotlib).

Each command module imports what its ``run`` needs inside ``run`` (``# lazy:``, see
tests/test_import_graph.py); the names its options offer come from :mod:`verify.cli.choices`,
checked here against the modules that define them.  A deterministic check, in a fresh
interpreter: no wall time is asserted.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("sympy", "numpy", "numba", "scipy", "mpmath", "dask", "matplotlib")
CLI = Path(__file__).resolve().parent.parent / "verify" / "cli"
COMMANDS = sorted(path.stem for path in CLI.glob("*_cmd.py"))


def _heavy_loaded(code: str) -> list[str]:
    """The heavy modules that ``code`` leaves loaded in a fresh interpreter."""
    probe = (f"import json, sys; {code}; "
             f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {set(HEAVY)!r})))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_adds_its_parser_without_heavy_packages(command):
    code = (f"import argparse; from verify.cli import {command}; "
            f"{command}.add_parser(argparse.ArgumentParser().add_subparsers())")
    assert _heavy_loaded(code) == []


def test_building_the_parser_loads_no_heavy_package():
    assert _heavy_loaded("from verify.cli import build_parser; build_parser()") == []


def test_the_choices_mirror_the_registries():
    from verify.bench import BENCHMARKS
    from verify.cli import choices
    from verify.model.hermite import METHODS, MIN_DPS
    from verify.model.instance import GENERATORS
    from verify.simulate.modes import MODES
    from verify.simulate.sgd import SGD_ENGINES

    assert choices.BENCHMARK_NAMES == tuple(BENCHMARKS)
    assert choices.GENERATOR_NAMES == tuple(GENERATORS)
    assert choices.MODE_NAMES == tuple(MODES)
    assert choices.SGD_ENGINES == SGD_ENGINES
    assert choices.HERMITE_METHODS == METHODS
    assert choices.MIN_DPS == MIN_DPS


def test_registry_names_follow_the_registry_once_it_is_loaded(monkeypatch):
    from verify import bench
    from verify.cli.choices import BENCHMARKS

    assert list(BENCHMARKS) == sorted(bench.BENCHMARKS)
    monkeypatch.setitem(bench.BENCHMARKS, "fake", object())
    assert "fake" in BENCHMARKS and list(BENCHMARKS) == sorted(bench.BENCHMARKS)
