"""``verify calibrate [--corpus DIR] [--workers N] [--json FILE] [--slow]``: the suite's own test of power.

Runs every statement of the calibration corpus (:mod:`verify.calibration`) through ``verify
claim`` and prints the confusion matrix truth × verdict, per class and per basis.  Exit status
0 when no false statement held or was consistent, no true one failed, nothing crashed and at
least 90 % of the true statements were decided; 1 otherwise (each unsound result is listed);
2 for a bad corpus or bad arguments.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from verify.base.errors import InvalidParameterError
from verify.base.files import output_file, write_atomic
from verify.cli.arguments import file_path, positive_int
from verify.paper.precision import confusion, load, matrix_markdown


def add_parser(sub) -> None:
    p = sub.add_parser("calibrate", help="run the calibration corpus (statements of known truth) and print "
                                         "the confusion matrix truth x verdict",
                       description="Decide every statement of the calibration corpus (tests/calibration/"
                       "corpus/*.toml: true and barely-false statements of known truth) with verify claim "
                       "and print the confusion matrix truth x verdict; --checks also perturbs every "
                       "check's claimed_* hook by factors 1 + 10^-j and reruns it.  Exit 1 when a false "
                       "statement (or a perturbed hook) holds or is consistent, a true one fails, or "
                       "fewer than 90 % of the true statements are decided (the mutation killers, class "
                       "whitebox-mutation, and red team 5's statements, class redteam-48b, counted for "
                       "soundness only, their share decided reported apart).")
    p.add_argument("--corpus", type=file_path, default=None, metavar="DIR",
                   help="directory of corpus .toml files "
                        "(default: tests/calibration/corpus of this checkout)")
    p.add_argument("--workers", type=positive_int, default=2, metavar="N",
                   help="processes deciding statements in parallel (default 2)")
    p.add_argument("--json", type=file_path, default=None, metavar="FILE",
                   help="write every result and the matrix as JSON")
    p.add_argument("--ledger", type=file_path, default=None, metavar="REPORT",
                   help="instead of the statement corpus: the confusion matrix of a verify check "
                        "report.json's per-entry verdicts and impacts against the ledger's precision corpus "
                        "(tests/calibration/ledger/); exit 1 when a correct entry fails or a false statement "
                        "is labelled below gap")
    p.add_argument("--slow", action="store_true", help="include the statements marked slow")
    p.add_argument("--quiet", action="store_true", help="print only the matrix and the summary")
    p.add_argument("--checks", action="store_true",
                   help="also perturb every check's claimed_* hook (x (1 + 10^-j), j = 1, 4, 7, 10, 13) and "
                        "rerun verify check: a known-false perturbation must not hold (about 3 min)")
    p.set_defaults(run=run)


#: The fields of a report.json ledger row that --ledger reads, and their types.
_ROW_FIELDS = {"id": str, "verdict": str}


def _check_rows(rows, report_path) -> None:
    """Refuse, in one line naming the row and the field, a ledger array whose rows are not tables
    with a text id and verdict (and a text impact where there is one)."""
    if not isinstance(rows, list):
        raise InvalidParameterError(f"--ledger {str(report_path)!r}: 'ledger' must be an array of rows")
    for index, row in enumerate(rows):
        where = f"--ledger {str(report_path)!r}, ledger row {index + 1}"
        if not isinstance(row, dict):
            raise InvalidParameterError(f"{where}: not a table")
        for field, kind in _ROW_FIELDS.items():
            if not isinstance(row.get(field), kind):
                raise InvalidParameterError(f"{where}: {field} must be text")
        if row.get("impact") is not None and not isinstance(row["impact"], str):
            raise InvalidParameterError(f"{where}: impact must be text or null")


def _ledger(report_path: str) -> int:
    # lazy: the report reader loads the checks' core (NumPy), which `verify --help` does not need
    from verify.checks.show import ReportError, read_report_data

    try:
        report = read_report_data(report_path)
        rows = report["ledger"]
    except ReportError as exc:
        raise InvalidParameterError(f"--ledger: {exc}") from None
    except (KeyError, TypeError) as exc:
        raise InvalidParameterError(f"--ledger {report_path!r} is not a verify check report.json with a "
                                    f"ledger array ({type(exc).__name__})") from None
    _check_rows(rows, report_path)
    summary = confusion(rows, load())
    print(matrix_markdown(summary))
    return 1 if summary["false_alarms"] or summary["understated"] else 0


def run(args) -> int:
    if args.ledger:
        return _ledger(args.ledger)
    # lazy: the corpus runs through the claim engine (SymPy, mpmath), loaded only when it is decided
    from verify import calibration, perturb

    corpus = Path(args.corpus) if args.corpus else calibration.default_corpus()
    json_path = output_file(args.json, "--json") if args.json else None
    statements = calibration.load_corpus(corpus, include_slow=args.slow)
    bar = _progress(len(statements), args.quiet)

    def show(result) -> None:
        if bar is not None:
            bar.update(1)
        elif not args.quiet and result.unsound:
            print(f"UNSOUND {result.statement.id}: truth {result.statement.truth}, verdict {result.verdict}")

    results = calibration.run_corpus(statements, workers=args.workers, on_result=show)
    if bar is not None:
        bar.close()
    summary = calibration.confusion(results)
    print(calibration.matrix_markdown(summary))
    print()
    unsound = [r for r in results if r.unsound]
    for r in unsound:
        print(f"unsound: {r.statement.id} ({r.statement.cls}, truth {r.statement.truth}): {r.verdict} "
              f"({r.basis}) — {r.evidence[:300]}")
    print(calibration.headline(summary, len(results)))
    perturbations = None
    if args.checks:

        perturbations = perturb.run_all(workers=args.workers)
        print()
        print(perturb.matrix_markdown(perturbations))
        for p in perturbations:
            if p.truth is False and p.verdict in ("holds", "consistent"):
                print(f"unsound: {p.check} with {p.hook} x (1 + 1e-{p.level}): {p.verdict} ({p.basis})")
    if json_path is not None:
        payload = {"summary": {"matrix": summary.matrix, "by_class": summary.by_class,
                               "by_basis": summary.by_basis,
                               "false_accepted": summary.false_accepted, "true_failed": summary.true_failed,
                               "errors": summary.errors, "true_total": summary.true_total,
                               "true_decided": summary.true_decided, "power": summary.power,
                               "passed": summary.passed},
                   "results": [r.to_dict() for r in results]}
        if perturbations is not None:
            payload["perturbations"] = [vars(r) for r in perturbations]
        write_atomic(json_path, json.dumps(payload, indent=1, default=str) + "\n", "--json")
    checks_sound = perturbations is None or not any(
        p.truth is False and p.verdict in ("holds", "consistent") for p in perturbations)
    return 0 if summary.passed and checks_sound else 1


def _progress(total: int, quiet: bool):
    if quiet or not sys.stderr.isatty():
        return None
    # lazy: tqdm loads only when a progress bar is shown
    from tqdm import tqdm

    return tqdm(total=total, unit="statement", file=sys.stderr, leave=False)
