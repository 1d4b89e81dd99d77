"""``verify check [--full] [--only ID ...] [--json FILE] [--markdown FILE] [--list]``."""

from __future__ import annotations

import sys
from pathlib import Path

from verify.cli.arguments import seed


def add_parser(sub) -> None:
    p = sub.add_parser("check", help="verdict on every numbered statement of the paper (the main job)",
                       description="Run one check per numbered statement of Dayı & Chen and report, "
                       "for each, holds / fails (with counterexample and correction) / consistent / "
                       "inconclusive / cited.  Exit 0 when every check ran, 1 if one crashed.")
    p.add_argument("--full", action="store_true", help="more samples and larger sizes (slower)")
    p.add_argument("--only", nargs="+", metavar="ID", help="run only these checks (ids from --list)")
    p.add_argument("--seed", type=seed, default=0, help="seed of every random stream (default 0)")
    p.add_argument("--json", type=Path, default=Path("report.json"), metavar="FILE",
                   help="where to write the JSON report (default report.json)")
    p.add_argument("--markdown", type=Path, default=Path("report.md"), metavar="FILE",
                   help="where to write the Markdown report (default report.md)")
    p.add_argument("--list", action="store_true", help="list every check with its statement and exit")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def _writable(path: Path) -> None:
    from verify.errors import InvalidParameterError

    parent = path.resolve().parent
    if path.is_dir() or (parent.exists() and not parent.is_dir()):
        raise InvalidParameterError(f"report path {str(path)!r} is not a writable file path")


def run(args) -> int:
    from verify.checks import load_all, resolve
    from verify.checks.report import table, to_json, to_markdown, write_atomic

    load_all()
    checks = resolve(args.only)
    if args.list:
        for c in checks:
            print(f"{c.id:<28} {c.statement:<22} [{c.method}] {c.quote[:90]}")
        return 0
    for path in (args.json, args.markdown):
        _writable(path)
    from verify.checks.runner import run_checks

    results = run_checks(checks, seed=args.seed, full=args.full, progress=not args.quiet)
    import json

    write_atomic(args.json, json.dumps(to_json(results, args.seed, args.full), indent=2, sort_keys=True,
                                       default=str) + "\n")
    write_atomic(args.markdown, to_markdown(results, args.seed, args.full))
    print(table(results))
    failing = [r.check.id for r in results if r.verdict == "fails"]
    print(f"\n{len(results)} checks; {len(failing)} statements fail: {', '.join(failing) or 'none'}.")
    print(f"Reports: {args.json} and {args.markdown}")
    crashed = [r.check.id for r in results if r.crashed]
    if crashed:
        sys.stderr.write(f"verify check: {len(crashed)} check(s) crashed: {', '.join(crashed)}\n")
        return 1
    return 0
