"""``verify ledger init TEXT --out DIR``, ``verify ledger status DIR [--report FILE]`` and
``verify ledger quotes DIR [--all]``: paper packs."""

from __future__ import annotations

from pathlib import Path

from verify.cli.arguments import file_path


def add_parser(sub) -> None:
    p = sub.add_parser("ledger", help="start or inspect the ledger of your own paper (a pack)",
                       description="A pack is a directory holding a paper about this model, its "
                       "provenance and its ledger (one entry per display and per relation of a "
                       "proof).  `init` writes one from a LaTeX file; fill its entries with claims, "
                       "then `verify check --paper DIR`.")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    init = actions.add_parser(
        "init", help="a new pack from a LaTeX file (or a text in the suite's format)",
        description="Number the displays and the inline relations of the proofs, the statements and "
        "the prose of TEXT (.tex: extracted to the suite's text format first) and write DIR/pack.toml, "
        "DIR/paper.txt and a ledger skeleton DIR/ledger.d/{displays,relations,statements,prose}.toml: "
        "one entry per display and relation with its verbatim quote, a guessed kind and no decision "
        "(missing).  A "
        "directory that already holds a pack, or a file init would write that it did not write, is "
        "refused.")
    init.add_argument("text", type=file_path, metavar="TEXT",
                      help="the paper: a .tex file or a text in the suite's format")
    # no type=Path: Path("") is "." and an empty --out must be refused, not read as the current directory
    init.add_argument("--out", required=True, metavar="DIR", help="the new pack's directory")
    init.set_defaults(run=run_init)
    status = actions.add_parser(
        "status", help="the coverage table of a pack",
        description="Check a pack (its text against its SHA-256, each quote against the text) and "
        "print, per part of the paper, how many entries are decided, not decided, not decidable "
        "(with their kind) or missing.  Verdicts come from a report of `verify check --paper DIR` "
        "(default DIR/report.json, if there).  Then parse every claim and correction and list every "
        "entry to fix, all at once; exit 1 if there is one.")
    status.add_argument("pack", type=file_path, metavar="DIR", help="the pack's directory")
    status.add_argument("--report", type=file_path, default=None, metavar="FILE",
                        help="report.json of `verify check --paper DIR` (default: DIR/report.json "
                        "when present)")
    status.set_defaults(run=run_status)
    quotes = actions.add_parser(
        "quotes", help="which quotes read as claims (for claim_from_quote = true)",
        description="Read every entry's quote, with the pack's macros expanded, as a LaTeX claim "
        "(docs/claims.md, LaTeX input) and say which read, which state the same relation as their "
        "entry's claim, and why the others are refused.")
    quotes.add_argument("pack", type=file_path, metavar="DIR", help="the pack's directory")
    quotes.add_argument("--all", action="store_true", help="one line per entry, not only the summary")
    quotes.set_defaults(run=run_quotes)


def run_init(args) -> int:
    # lazy: `verify --help` builds this parser without loading the paper modules
    from verify.base.files import OutputPathError
    from verify.paper.pack import load, using
    from verify.paper.skeleton import init_pack
    from verify.paper.source import prose_relations, statement_relations

    if not args.out:
        raise OutputPathError("--out is empty; give the new pack's directory")

    directory, shown, inline = init_pack(args.text, Path(args.out))
    with using(load(directory)):
        stated, prose = len(statement_relations()), len(prose_relations())
    print(f"wrote {args.out}: {shown} display(s), {inline} inline relation(s) of proofs, {stated} of "
          f"statements and {prose} of the prose, every entry missing.\n"
          f"Give each a claim, a check or a reason in "
          f"{Path(args.out) / 'ledger.d'}, then run `verify check --paper {args.out}`.")
    return 0


def _untracked(pack) -> None:
    """Say how many inline relations a pack written before they were tracked leaves without an entry."""
    # lazy: `verify --help` builds this parser without loading the paper modules
    from verify.paper.source import prose_relations, statement_relations

    kinds = ((pack.statement_files, statement_relations, "of its Theorems, Lemmas, …", "statements"),
             (pack.prose_files, prose_relations, "outside every proof and statement", "prose"))
    for files, found, where, name in kinds:
        untracked = 0 if files else len(found())
        if untracked:
            print(f"This pack tracks no relations of its {name}: {untracked} inline relation(s) {where} "
                  f"have no entry (a pack written by `verify ledger init` now lists them in "
                  f"ledger.d/{name}.toml, [ledger] {name}).\n")


def run_status(args) -> int:
    # lazy: `verify --help` builds this parser without loading the paper modules
    from verify.paper.ledger import coverage_table, entries
    from verify.paper.pack import load, using

    pack = load(args.pack)
    # the report's path as the user gave it (DIR/report.json under the DIR typed), never resolved
    report = args.report or (Path(args.pack) / "report.json")
    verdicts = _ledger_verdicts(report, pack) if (args.report or report.is_file()) else {}
    with using(pack):
        counted = entries()
        kinds = [f"{sum(e.what == 'display' for e in counted)} displays",
                 f"{sum(e.what == 'relation' for e in counted)} relations of proofs"]
        if pack.statement_files:
            kinds.append(f"{sum(e.what == 'statement' for e in counted)} relations of statements")
        if pack.prose_files:
            kinds.append(f"{sum(e.what == 'prose' for e in counted)} relations of the prose")
        print(f"{pack.field('title', pack.root.name)}: {len(counted)} entries ({', '.join(kinds)})"
              + (f"; verdicts from {report}{_staleness(report, pack)}" if verdicts else
                 f"; no report yet (run `verify check --paper {args.pack}`)") + "\n")
        print(coverage_table(verdicts))
        _untracked(pack)
    # lazy: parsing the claims loads the claim engine (SymPy) and the registry of coded checks
    from verify.checks.packs import entry_problems

    problems = entry_problems(pack)
    if problems:
        print(f"\n{len(problems)} entr{'y' if len(problems) == 1 else 'ies'} to fix before "
              f"`verify check --paper {args.pack}` runs (each says which and why):")
        for problem in problems:
            print(f"- {problem}")
        return 1
    return 0


def run_quotes(args) -> int:
    # lazy: reading claims loads the claim engine (SymPy)
    from verify.paper.pack import load, using
    from verify.paper.quote_claims import quote_readings, summary

    with using(load(args.pack)):
        readings = quote_readings()
    if args.all:
        for reading in readings:
            versus = {"same": " [the entry's claim: the same relation]",
                      "differs": " [the entry's claim: another form]"}.get(reading.versus_claim or "", "")
            print(f"{reading.entry}: {reading.outcome}: {reading.detail}{versus}")
        print()
    print(summary(readings))
    return 0


def _ledger_verdicts(path: Path, pack) -> dict[str, tuple[str, str | None]]:
    """entry id -> (verdict, basis) from the ``ledger`` rows of a report of this pack."""
    # lazy: reading a report loads the checks' core (NumPy), which `verify --help` does not need
    from verify.base.errors import InvalidParameterError
    from verify.checks.ledger_rows import entry_verdicts
    from verify.checks.show import read_report_data

    data = read_report_data(path)
    text = str((data.get("paper") or {}).get("text", "")) if isinstance(data.get("paper"), dict) else ""
    if f"sha256 {pack.sha256[:16]}" not in text:
        raise InvalidParameterError(f"--report {str(path)!r} is a report of another text, not of the pack in "
                                    f"{str(pack.given or pack.root)!r}")
    rows = data.get("ledger")
    if not isinstance(rows, list) or not all(
            isinstance(r, dict) and isinstance(r.get("id"), str) and isinstance(r.get("verdict"), str)
            for r in rows):
        raise InvalidParameterError(f"--report {str(path)!r} has no ledger rows of id and verdict")
    # the report's own count (a holds of a partial scope or a restatement apart): one function for both
    return entry_verdicts([{**r, "basis": r.get("basis") if isinstance(r.get("basis"), str) else None}
                           for r in rows])


#: How much later than the report a file of the pack must be written to make the report stale: a
#: copy or a checkout writes a pack's files in any order, microseconds apart.
STALE_AFTER_S = 2.0


def _staleness(report: Path, pack) -> str:
    """The words " (stale: …)" when a file of the pack (pack.toml, the text, a ledger file) changed
    after the report was written (:data:`STALE_AFTER_S`), naming the newest; "" otherwise."""
    names = [pack.root / "pack.toml", pack.text_path, *(pack.ledger_dir / name for name in (
        *pack.display_files, *pack.relation_files, *pack.statement_files,
        *((pack.definitions_file,) if pack.definitions_file else ())))]
    try:
        written = report.stat().st_mtime
    except OSError:
        return ""
    changed = [(path.stat().st_mtime, path) for path in names
               if path.is_file() and path.stat().st_mtime > written + STALE_AFTER_S]
    if not changed:
        return ""
    newest = max(changed)[1]
    return (f" (stale: {pack.shown(newest)} changed after the report was written, so its verdicts may not "
            f"be the ledger's: run `{pack.check_command}` again)")
