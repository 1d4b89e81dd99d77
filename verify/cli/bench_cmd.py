"""``verify bench [--only NAME ...] [--quick] [--json FILE]``: side-by-side ratios.

Each row with a ``target`` (``<= 2``, ``>= 30``) is judged: the command exits 1 and names the
rows whose ratio misses its target.  The targets are stated for the full sizes; ``--quick``
(smoke-test sizes) prints the ratios without judging them."""

from __future__ import annotations

import json
import operator
import os
import platform
import sys

from verify.base.files import output_file, write_atomic
from verify.cli.arguments import file_path
from verify.cli.choices import BENCHMARKS as BENCHMARK_NAMES


def add_parser(sub) -> None:

    p = sub.add_parser("bench", help="benchmarks reporting speed ratios measured in one run",
                       description="Time the suite's engines against their baselines side by side in one "
                       "process (hermite: reused-node quadrature against one mpmath.quad per "
                       "coefficient; certified: certified Hermite coefficients against one direct, "
                       "non-rigorous acb.integral per coefficient; simulator: each engine against the "
                       "unavoidable work and the other engines) and print the ratios.  Exit 1, naming "
                       "the row, when a ratio misses its target (judged at full size, not with --quick).")
    p.add_argument("--only", nargs="+", choices=BENCHMARK_NAMES, help="benchmarks to run")
    p.add_argument("--quick", action="store_true", help="smaller sizes (for smoke tests)")
    p.add_argument("--json", type=file_path, metavar="FILE", help="also write the results as JSON")
    p.set_defaults(run=run)


def run(args) -> int:
    # lazy: the benchmarks load SymPy, mpmath and numba, which `verify bench --help` must not wait for
    from verify.bench import BENCHMARKS

    json_path = output_file(args.json, "--json") if args.json else None
    outcomes: list[dict] = []
    results = {"machine": _machine(), "benchmarks": outcomes}
    for name in args.only or sorted(BENCHMARKS):
        outcome = BENCHMARKS[name].run(quick=args.quick)
        outcomes.append(outcome)
        _print_table(outcome)
    if json_path is not None:
        write_atomic(json_path, json.dumps(results, indent=2, sort_keys=True) + "\n")
    if args.quick:
        print("(--quick: smoke-test sizes; the targets are judged at full size only)")
        return 0
    missed = [f"{outcome['name']}: {row.get('benchmark', '?')} = {row['ratio']} (target {row['target']})"
              for outcome in outcomes for row in outcome["rows"] if not meets_target(row)]
    for text in missed:
        sys.stderr.write(f"verify bench: target missed: {text}\n")
    return 1 if missed else 0


_COMPARE = {"<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt}


def meets_target(row: dict) -> bool:
    """Whether a row's ratio meets its target (``"<= 2"``, ``">= 30"``); rows without one pass."""
    target = row.get("target")
    if not target:
        return True
    op, _, bound = str(target).strip().partition(" ")
    if op not in _COMPARE:
        raise ValueError(f"benchmark target {target!r} is not '<= x' or '>= x'")
    return _COMPARE[op](float(row["ratio"]), float(bound))


def _machine() -> dict:
    """What a ratio's reader needs to compare runs: BLAS-bound timings depend on the OpenBLAS
    kernel chosen at run time (printed in its configuration string, e.g. ``Haswell``; forced by
    OPENBLAS_CORETYPE) and on its thread count."""
    return {"python": platform.python_version(), "processor": platform.processor() or
            platform.machine(), "cpus": os.cpu_count(), "blas": _blas(),
            "env": {name: os.environ.get(name) for name in
                    ("OPENBLAS_NUM_THREADS", "OPENBLAS_CORETYPE", "OMP_NUM_THREADS", "NUMBA_NUM_THREADS")}}


def _blas() -> str:
    # lazy: NumPy loads only when a benchmark is run
    import numpy as np

    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    except (KeyError, TypeError, ValueError):  # numpy builds differ in what they report
        return "unknown"
    return str(blas.get("openblas configuration") or blas.get("name", "unknown"))


def _print_table(outcome: dict) -> None:
    rows = outcome["rows"]
    print(f"== {outcome['name']}")
    if not rows:
        return
    keys = list(rows[0])
    widths = [max(len(k), *(len(str(r[k])) for r in rows)) for k in keys]
    print("  ".join(k.ljust(w) for k, w in zip(keys, widths, strict=True)))
    for r in rows:
        print("  ".join(str(r[k]).ljust(w) for k, w in zip(keys, widths, strict=True)))
