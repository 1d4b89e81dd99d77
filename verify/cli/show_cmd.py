"""``verify show ID [--seed S] [--full] | verify show ID --from report.json``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from verify.base.errors import InvalidParameterError
from verify.checks import REGISTRY, load_all, resolve
from verify.checks.report import to_json_text
from verify.checks.runner import run_checks
from verify.checks.show import record_from_report, render, tolerances
from verify.cli.arguments import seed


def add_parser(sub) -> None:
    p = sub.add_parser("show", help="one check's whole outcome: statement, verdict, evidence, "
                       "counterexample, correction, rerun command",
                       description="Run one check (as `verify check --only ID` does, without writing "
                       "reports) or read it from a report with --from, and print everything it found: "
                       "the statement's number, section and quote, the verdict, the kind of failure, "
                       "the basis, the scope, the full evidence, the counterexample, the correction "
                       "and whether it was verified, the tolerances, and the rerun command.  Exit 0 "
                       "when shown, 1 if the check crashed, 2 for an unknown id or a bad report.")
    p.add_argument("id", metavar="ID", help="the check's id, e.g. lemma-31 (`verify check --list`)")
    p.add_argument("--from", dest="report", type=Path, default=None, metavar="FILE",
                   help="read the outcome from this report.json instead of running the check")
    p.add_argument("--seed", type=seed, default=None, help="seed of the run (default 0)")
    p.add_argument("--full", action="store_true", help="more samples and larger sizes (slower)")
    p.set_defaults(run=run)


def run(args) -> int:
    load_all()
    width = shutil.get_terminal_size((100, 24)).columns
    if args.report is not None:
        if args.seed is not None or args.full:
            raise InvalidParameterError("--seed and --full choose a run; with --from the report's own "
                                        "run is shown")
        record = record_from_report(args.report, args.id)
        check = REGISTRY.get(record["id"])
    else:
        (check,) = resolve([args.id])
        (result,) = run_checks([check], seed=args.seed or 0, full=args.full)
        # as report.json holds it (keys sorted, values as JSON), so --from prints the same
        record = json.loads(to_json_text([result], result.seed, result.full))["checks"][0]
    print(render(record, tolerances(record, check), width))
    return 1 if record.get("verdict") == "crashed" else 0
