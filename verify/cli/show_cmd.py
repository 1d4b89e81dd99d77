"""``verify show ID [--seed S] [--full] [--rerun] | verify show ID --from report.json | --paper DIR``.

Without ``--from``, ``--paper`` or ``--rerun`` the answer comes from the last report in the current directory
(report.json, then report.partial.json) when that report was written by this very code (same
version and code fingerprint, :mod:`verify.base.fingerprint`), with the same seed and size and
holds the check: reading it takes a fraction of a second where rerunning takes seconds to
minutes.  One line says where the answer came from, or why the check is being run instead.
"""

from __future__ import annotations

import datetime
import json
import shutil
from pathlib import Path

from verify.base.errors import InvalidParameterError
from verify.cli.arguments import file_path, seed

#: Where ``verify check`` writes its reports (whole run, then an ``--only`` run).
LAST_REPORTS = (Path("report.json"), Path("report.partial.json"))


def add_parser(sub) -> None:
    p = sub.add_parser("show", help="one check's whole outcome: statement, verdict, evidence, "
                       "counterexample, correction, rerun command",
                       description="Print one check's whole outcome.  By default it is read from "
                       "./report.json (then ./report.partial.json), the report `verify check` writes "
                       "here, when that report is of this very code and seed; otherwise, or with "
                       "--rerun, the check runs (as `verify check --only ID` does, without writing "
                       "reports); --from FILE reads another report, --paper DIR the report of the pack "
                       "in DIR (DIR/report.json).  It prints everything found: "
                       "the statement's number, section and quote, the verdict, the kind of failure, "
                       "the basis, the scope, the full evidence, the counterexample, the correction "
                       "and whether it was verified, the tolerances, and the rerun command.  Exit 0 "
                       "when shown, 1 if the check crashed, 2 for an unknown id or a bad report.")
    p.add_argument("id", metavar="ID", help="the check's id, e.g. lemma-31 (`verify check --list`)")
    source = p.add_mutually_exclusive_group()
    source.add_argument("--from", dest="report", type=file_path, default=None, metavar="FILE",
                        help="read the outcome from this report.json instead of running the check")
    source.add_argument("--paper", type=file_path, default=None, metavar="DIR",
                        help="the report of the pack in DIR: --from DIR/report.json, its quotes "
                             "printed with the pack's own macros")
    p.add_argument("--seed", type=seed, default=None, help="seed of the run (default 0)")
    p.add_argument("--full", action="store_true", help="more samples and larger sizes (slower)")
    p.add_argument("--rerun", action="store_true",
                   help="run the check even when the last report (report.json or report.partial.json "
                        "here, written by this code with the same seed and size) already holds it")
    p.set_defaults(run=run)


def _last_report(args) -> tuple[dict | None, str]:
    """(the record of the last matching report, or None; the one line that says which, or why not)."""
    # lazy: reading a report needs NumPy (through the checks' core); `verify --help` does not
    from verify.base.fingerprint import suite_identity
    from verify.checks.show import ReportError, find_record, read_report_data, report_macros, with_macros

    run_seed, why = args.seed or 0, []
    for path in LAST_REPORTS:
        if not path.is_file():
            continue
        try:
            data = read_report_data(path)
        except ReportError as exc:
            why.append(f"{path} cannot be read ({str(exc)[:80]})")
            continue
        if data.get("suite") != suite_identity():
            why.append(f"{path} was written by other code (version or files changed)")
        elif data.get("seed") != run_seed or bool(data.get("full")) != args.full:
            why.append(f"{path} is of another run (seed {data.get('seed')}, full {bool(data.get('full'))})")
        elif (record := find_record(data["checks"], args.id)) is None:
            why.append(f"{path} does not hold {args.id}")
        else:
            written = datetime.datetime.fromtimestamp(path.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
            origin = (f"from {path} (written {written} by this code, seed {run_seed}); "
                      "--rerun runs the check again")
            return with_macros(record, report_macros(path, data)), origin
    reason = "; ".join(why) if why else "no report.json here"
    return None, f"running the check: {reason}"


def run(args) -> int:
    # lazy: reading a report needs NumPy (through the checks' core); `verify --help` does not
    from verify.checks.show import record_from_report, render, tolerances

    width = shutil.get_terminal_size((100, 24)).columns
    check = None
    if args.report is not None or args.paper is not None:
        if args.seed is not None or args.full or args.rerun:
            raise InvalidParameterError("--seed, --full and --rerun choose a run; with --from or --paper "
                                        "the report's own run is shown")
        path = args.report if args.paper is None else args.paper / "report.json"
        record = record_from_report(path, args.id, args.paper)
    else:
        record, origin = (None, "") if args.rerun else _last_report(args)
        if record is None:
            record, check = _run_one(args, origin)
        else:
            print(origin)
    print(render(record, tolerances(record, check), width))
    return 1 if record.get("verdict") == "crashed" else 0


def _run_one(args, origin: str):
    """(the check's record as report.json would hold it, the check), from a fresh run; ``origin``
    (why it runs) is printed once the id is known to name a check."""
    # lazy: the checks (SymPy, NumPy, the simulator) load only when a check is run
    from verify.checks import load_all, resolve
    from verify.checks.report import to_json_text
    from verify.checks.runner import run_checks

    load_all()
    (check,) = resolve([args.id])
    if origin:
        print(origin, flush=True)
    (result,) = run_checks([check], seed=args.seed or 0, full=args.full)
    # as report.json holds it (keys sorted, values as JSON), so --from prints the same
    return json.loads(to_json_text([result], result.seed, result.full))["checks"][0], check
