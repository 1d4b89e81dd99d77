"""``verify bench [--only NAME ...] [--quick] [--json FILE]``: side-by-side ratios."""

from __future__ import annotations

import json
import platform


def add_parser(sub) -> None:
    from verify.bench import BENCHMARKS

    p = sub.add_parser("bench", help="benchmarks reporting speed ratios measured in one run")
    p.add_argument("--only", nargs="+", choices=sorted(BENCHMARKS), help="benchmarks to run")
    p.add_argument("--quick", action="store_true", help="smaller sizes (for smoke tests)")
    p.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    p.set_defaults(run=run)


def run(args) -> int:
    from verify.bench import BENCHMARKS

    outcomes: list[dict] = []
    results = {"machine": _machine(), "benchmarks": outcomes}
    for name in args.only or sorted(BENCHMARKS):
        outcome = BENCHMARKS[name].run(quick=args.quick)
        outcomes.append(outcome)
        _print_table(outcome)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(results, fh, indent=2, sort_keys=True)
    return 0


def _machine() -> dict:
    import os

    return {"python": platform.python_version(), "processor": platform.processor() or
            platform.machine(), "cpus": os.cpu_count()}


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
