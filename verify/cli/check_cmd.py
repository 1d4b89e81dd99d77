"""``verify check [--paper DIR] [--full] [--only ID ...] [--json FILE] [--markdown FILE] [--html FILE]
[--list]``."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from pathlib import Path

from verify.base.files import distinct_paths, output_file, write_set
from verify.base.threads import one_blas_kernel_unless_chosen, one_blas_thread_unless_chosen
from verify.cli.arguments import file_path, positive_int, seed

#: Where a whole run writes its reports, and where a partial (``--only``) run writes them, so
#: that rerunning one check from the report never overwrites the report it came from.
FULL_REPORTS = (Path("report.json"), Path("report.md"), Path("report.html"))
PARTIAL_REPORTS = (Path("report.partial.json"), Path("report.partial.md"), Path("report.partial.html"))


def add_parser(sub) -> None:
    p = sub.add_parser("check", help="verdict on every numbered statement of the paper (the main job)",
                       description="Run one check per numbered statement of the paper (Dayı & Chen, "
                       "or the pack --paper names) and report, for each, holds / fails (with "
                       "counterexample and correction) / consistent / inconclusive / cited, and the kind "
                       "of evidence that decided it.  Exit 0 when every check ran, 1 if one crashed.")
    p.add_argument("--paper", type=file_path, default=None, metavar="DIR",
                   help="check the paper pack in DIR (`verify ledger init` writes one; reports go to "
                   "DIR/report.* unless --json/--markdown say otherwise); default: the Dayı–Chen pack")
    p.add_argument("--full", action="store_true", help="more samples and larger sizes (slower)")
    p.add_argument("--only", nargs="+", metavar="ID",
                   help="run only these checks (ids from --list); reports go to report.partial.* "
                   "unless --json/--markdown say otherwise")
    p.add_argument("--seed", type=seed, default=0, help="seed of every random stream (default 0)")
    p.add_argument("--json", type=file_path, default=None, metavar="FILE",
                   help="JSON report (default report.json; report.partial.json with --only)")
    p.add_argument("--markdown", type=file_path, default=None, metavar="FILE",
                   help="Markdown report (default report.md; report.partial.md with --only)")
    p.add_argument("--html", type=file_path, default=None, metavar="FILE",
                   help="self-contained HTML report, formulas as MathML, for any browser offline "
                   "(default: the Markdown report's path with .html, report.html)")
    p.add_argument("--list", action="store_true", help="list every check with its statement and exit")
    p.add_argument("--jobs", type=positive_int, default=None, metavar="N",
                   help="processes running checks side by side (default: every core, "
                   f"{os.cpu_count() or 1} here); the verdicts and evidence do not depend on it")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--coverage", action="store_true",
                   help="also print, per part of the paper, how many displayed equations and inline "
                   "relations of proofs are decided, not decidable (with the kind) or missing "
                   "(the pack's ledger.d/)")
    p.set_defaults(run=run)


def run(args) -> int:
    jobs = args.jobs or os.cpu_count() or 1
    # before NumPy loads: the forked workers inherit both; the kernel also with --jobs 1, so one
    # core's report equals two cores'
    one_blas_kernel_unless_chosen()
    if jobs > 1:
        one_blas_thread_unless_chosen()
    # lazy: `verify --help` builds this parser without loading the paper modules
    from verify.paper.pack import BUILTIN, load, using

    from verify.base.budget import trusted_work

    pack = load(args.paper if args.paper is not None else BUILTIN)
    # the built-in pack's text ships with the package: its guarded work runs without a fork (same
    # CPU limits); a pack read from a directory is untrusted and keeps the forked guard
    with using(pack), trusted_work() if pack.builtin else contextlib.nullcontext():
        return _run(args, pack, jobs)


def _run(args, pack, jobs: int) -> int:
    # lazy: the checks and their reports (SymPy, NumPy, the simulator) load only when checks are run
    from verify.checks import resolve
    from verify.checks.html_report import to_html
    from verify.checks.ledger_rows import entry_verdicts, ledger_rows
    from verify.checks.packs import pack_checks
    from verify.checks.report import line, summary, to_json_text, to_markdown
    from verify.checks.runner import run_checks
    from verify.paper.ledger import coverage_table

    listing = "verify check --list" if pack.builtin else f"{pack.check_command} --list"
    checks = resolve(args.only, {c.id: c for c in pack_checks(pack)}, listing)
    if args.list:
        for c in checks:
            print(f"{c.id:<28} {c.statement:<22} [{c.method}] {c.quote[:90]}")
        return 0
    default_json, default_md, default_html = PARTIAL_REPORTS if args.only else FULL_REPORTS
    if args.paper is not None:
        # under DIR as the user typed it (a relative DIR stays relative in what is printed)
        default_json, default_md, default_html = (Path(pack.given or pack.root) / path for path in
                                                   (default_json, default_md, default_html))
    json_path = output_file(args.json or default_json, "--json report")
    md_path = output_file(args.markdown or default_md, "--markdown report")
    # beside the Markdown report unless given: --markdown r.md writes r.html
    html_path = output_file(args.html or (md_path.with_suffix(".html") if args.markdown else default_html),
                            "--html report")
    distinct_paths({"--json": json_path, "--markdown": md_path, "--html": html_path})

    if not checks:
        print(f"no entry of {pack.shown(pack.ledger_dir)} has a claim or names a check yet: nothing to run "
              "(`verify ledger status` shows the entries)")
    width = max((len(c.id) for c in checks), default=0)

    # a terminal gets lines cut to its width; a file or a CI log gets the whole evidence
    columns = shutil.get_terminal_size().columns if sys.stdout.isatty() else None

    def show(result) -> None:
        print(line(result, width, columns), flush=True)

    results = run_checks(checks, seed=args.seed, full=args.full, progress=not args.quiet, on_result=show,
                         jobs=jobs)
    markdown = to_markdown(results, args.seed, args.full)
    # one generation: the three appear together or not at all (a reader never mixes two runs)
    write_set([(json_path, to_json_text(results, args.seed, args.full), "--json report"),
               (md_path, markdown, "--markdown report"), (html_path, to_html(markdown), "--html report")])
    print("\n" + summary(results))
    if args.coverage:
        print(f"\nCoverage of the paper's displayed equations and inline relations "
              f"({pack.shown(pack.ledger_dir)}):\n")
        print(coverage_table(entry_verdicts(ledger_rows(results))))
    partial = args.only and not (args.json or args.markdown or args.html)
    print(f"Reports: {json_path}, {md_path} and {html_path}"
          + ("  (partial run: the full reports are untouched)" if partial else ""))
    crashed = [r.check.id for r in results if r.crashed]
    if crashed:
        sys.stderr.write(f"verify check: {len(crashed)} check(s) crashed: {', '.join(crashed)}\n")
        return 1
    return 0
