r"""The calibration corpus: statements whose truth is known, run through ``verify claim``.

A verification suite is worth its power to find mistakes, so that power is measured, not
assumed.  The corpus (``tests/calibration/corpus/*.toml``) holds statements with their truth
established independently of the suite (a derivation or a reference, one line each), in
classes that probe the ways a decision can go wrong: identities and inequalities that hold,
statements false by a relative margin 10^-j (j = 1..13), false at one point only, for one
activation of several, only near ρ = ±1, orders with the exponent off by 1/2 or 1,
probabilities off by 0.05, decimal literals, and every instance family.

:func:`run_corpus` decides every statement and :func:`confusion` tabulates truth × verdict,
per class and per basis.  The suite is **sound** on the corpus when no false statement gets
*holds* or *consistent* and no true one gets *fails*; its **power** is the fraction of true
statements it decides (holds or consistent).  ``verify calibrate`` prints both and exits 1
when soundness fails or the power is below :data:`REQUIRED_POWER`.

A corpus file is untrusted text: it is read with :mod:`tomllib` (data only), each entry is
checked against the schema below, and its claim goes through the claim language's whitelist
parser like any other.

Schema of one ``[[statement]]`` table::

    id = "mu1-relu-half"      # unique: letters, digits, . _ -
    class = "true-identity"   # the statement's class (free text, grouped in the matrix)
    truth = true              # as derived independently
    claim = "mu(1) == 1/2"
    reason = "..."            # one line
    # optional, as the API's keyword arguments: activation, family (lists of strings), for (list),
    # seeds, prob, growth, lam (strings), seed (integer >= 0, the claim's draws and grids), full
    # (bool, the larger grids and draws of --full); margin (number, for the margin classes), slow (bool)
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from sympy.core.cache import clear_cache

from verify.base import budget
from verify.base.errors import VerifyInputError
from verify.base.files import read_toml
from verify.base.sweep import ordered_map
from verify.claims import claim, existence, gaussian, gaussian_rules, parity
from verify.model import diagnostics, hermite_exact

#: The class of the statements written to kill mutants (tests/calibration/corpus/mutation_killers*):
#: a killer of a mutant that makes the engine decide too much is a true statement the engine, by
#: design, leaves undecided, so these count for soundness and not for power (counting them made
#: every such killer lower the power figure; they are reported apart).
KILLER_CLASS = "whitebox-mutation"
#: The classes of the red teams' statements (engine_redteam48b/c.toml): written, by reading the rules, to
#: break a hypothesis each, so its true statements sit at the edges where default deny leaves a
#: claim undecided.  Issue #48 judges such white-box sets by soundness and by their own power bar
#: (:data:`ADVERSARIAL_POWER`), not by the 90 % of statements written from outside; they are
#: counted for soundness here and their power is reported apart.
#: Red teams 5, 6 and 7 (engine_redteam48b/c/d.toml).
REDTEAM_CLASSES = ("redteam-48b", "redteam-48c", "redteam-48d")
#: The share of an adversarial white-box set's true statements issue #48 asks to be decided.
ADVERSARIAL_POWER = 0.8
#: The share of true statements that must be decided (holds or consistent).
REQUIRED_POWER = 0.9
VERDICTS = ("holds", "consistent", "inconclusive", "fails", "error")
#: A corpus file beyond this size, or a corpus beyond this many statements, is refused.
MAX_FILE_BYTES = 1_000_000
MAX_STATEMENTS = 5000
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,79}")
_LIST_OPTIONS = ("activation", "family", "for")
_TEXT_OPTIONS = ("seeds", "prob", "growth", "lam")


class CorpusError(VerifyInputError):
    """A corpus file or entry that does not follow the schema (module docstring)."""


@dataclass(frozen=True)
class Statement:
    id: str
    cls: str
    truth: bool
    claim: str
    reason: str
    options: dict = field(default_factory=dict)
    margin: float | None = None
    slow: bool = False
    source: str = ""

    def keywords(self) -> dict:
        """The keyword arguments of :func:`verify.claims.claim`."""
        out = {k: v for k, v in self.options.items() if k != "for"}
        if "for" in self.options:
            out["for_"] = self.options["for"]
        return out


@dataclass
class Result:
    statement: Statement
    verdict: str
    basis: str
    evidence: str
    seconds: float
    #: Whether a CPU-time limit passed while it was decided (:func:`verify.base.budget.spent_budgets`):
    #: then the verdict may differ on a faster or a busier machine.
    budget_spent: bool = False

    @property
    def unsound(self) -> bool:
        """A false statement held or consistent, or a true one failed (or a crash)."""
        accepted = self.verdict in ("holds", "consistent")
        return self.verdict == "error" or (accepted and not self.statement.truth) or \
            (self.verdict == "fails" and self.statement.truth)

    def to_dict(self) -> dict:
        s = self.statement
        return {"id": s.id, "class": s.cls, "truth": s.truth, "claim": s.claim, "options": s.options,
                "reason": s.reason, "verdict": self.verdict, "basis": self.basis,
                "evidence": self.evidence, "seconds": round(self.seconds, 3), "source": s.source,
                "budget_spent": self.budget_spent}


def default_corpus() -> Path:
    """``tests/calibration/corpus`` of the checkout this package sits in."""
    return Path(__file__).resolve().parent.parent / "tests" / "calibration" / "corpus"


def load_corpus(directory: Path | str, include_slow: bool = False) -> list[Statement]:
    """Every statement of the corpus files in ``directory`` (sorted by file, then order)."""
    directory = Path(directory)
    if not directory.is_dir():
        raise CorpusError(f"--corpus: {str(directory)!r} is not a directory of corpus .toml files")
    statements: list[Statement] = []
    seen: dict[str, str] = {}
    for path in sorted(directory.glob("*.toml")):
        data = read_toml(path, MAX_FILE_BYTES, "corpus file", CorpusError)
        entries = data.get("statement", [])
        if not isinstance(entries, list):
            raise CorpusError(f"corpus file {path.name!r}: [[statement]] must be an array of tables")
        for index, entry in enumerate(entries):
            statement = _statement(entry, f"{path.name} entry {index + 1}", path.name)
            if statement.id in seen:
                raise CorpusError(f"corpus id {statement.id!r} appears in {seen[statement.id]} "
                                  f"and {path.name}")
            seen[statement.id] = path.name
            if include_slow or not statement.slow:
                statements.append(statement)
        if len(statements) > MAX_STATEMENTS:
            raise CorpusError(f"the corpus has more than {MAX_STATEMENTS} statements")
    if not statements:
        raise CorpusError(f"no statements in {str(directory)!r}")
    return statements


def _statement(entry, where: str, source: str) -> Statement:
    if not isinstance(entry, dict):
        raise CorpusError(f"{where}: not a table")
    known = {"id", "class", "truth", "claim", "reason", "margin", "slow", "seed", "full", *_LIST_OPTIONS,
             *_TEXT_OPTIONS}
    unknown = sorted(set(entry) - known)
    if unknown:
        raise CorpusError(f"{where}: unknown field(s) {', '.join(unknown)}")
    for name, kind in (("id", str), ("class", str), ("truth", bool), ("claim", str), ("reason", str)):
        if not isinstance(entry.get(name), kind):
            raise CorpusError(f"{where}: field {name!r} must be a {kind.__name__}")
    if not _ID.fullmatch(entry["id"]):
        raise CorpusError(f"{where}: id {entry['id']!r} must match {_ID.pattern}")
    options: dict = {}
    for name in _LIST_OPTIONS:
        if name in entry:
            value = entry[name]
            if isinstance(value, str):
                value = [value]
            if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
                raise CorpusError(f"{where}: {name!r} must be a string or a list of strings")
            options[name] = list(value)
    for name in _TEXT_OPTIONS:
        if name in entry:
            if not isinstance(entry[name], str):
                raise CorpusError(f"{where}: {name!r} must be a string")
            options[name] = entry[name]
    if "seed" in entry:
        seed = entry["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32:
            raise CorpusError(f"{where}: seed must be an integer in [0, 2**32)")
        options["seed"] = seed
    if "full" in entry:
        if not isinstance(entry["full"], bool):
            raise CorpusError(f"{where}: full must be true or false")
        options["full"] = entry["full"]
    margin = entry.get("margin")
    if margin is not None and (isinstance(margin, bool) or not isinstance(margin, int | float)):
        raise CorpusError(f"{where}: margin must be a number")
    slow = entry.get("slow", False)
    if not isinstance(slow, bool):
        raise CorpusError(f"{where}: slow must be true or false")
    return Statement(entry["id"], entry["class"], entry["truth"], entry["claim"], entry["reason"], options,
                     None if margin is None else float(margin), slow, source)


def forget_derived_results() -> None:
    """Empty the in-memory caches of derived results (the claim engine's and SymPy's), so that each
    statement is decided as if alone.  The decision steps' budgets count CPU seconds, and a cache
    warmed by the statements a worker happened to decide before (which worker takes which
    statement depends on timing) made a statement near its budget decided in one run and not in
    the next: the calibration block of docs/soundness.md must be the same on every machine."""
    for cached in (existence.existence, gaussian.exact_expectation, gaussian.ball_expectation,
                   gaussian_rules.rule_expectation, parity.symmetry, parity.opaque_kernel):
        cached.cache_clear()
    gaussian_rules.forget_stopped()
    hermite_exact.forget_computed()
    diagnostics.forget_square_moments()
    budget.forget_remembered()
    clear_cache()


def decide(statement: Statement) -> Result:
    """The suite's verdict on one statement; bad input or a crash is recorded as ``error``."""

    start = time.perf_counter()
    forget_derived_results()
    budget.forget_spent_budgets()
    try:
        outcome = claim(statement.claim, **statement.keywords())
        verdict, basis, evidence = outcome.verdict.value, str(outcome.basis), outcome.evidence
    except Exception as exc:  # noqa: BLE001 - every failure is recorded and counted as unsound
        first = str(exc).splitlines()[0] if str(exc) else ""
        verdict, basis, evidence = "error", "none", f"{type(exc).__name__}: {first}"
    spent = budget.spent_budgets() > 0
    return Result(statement, verdict, basis, evidence, time.perf_counter() - start, spent)


def run_corpus(statements: list[Statement], workers: int = 1,
               on_result: Callable[[Result], None] | None = None) -> list[Result]:
    """Decide every statement, in ``workers`` processes (results in corpus order)."""

    results = []
    for result in ordered_map(decide, statements, workers, name=lambda statement: statement.id):
        results.append(result)
        if on_result:
            on_result(result)
    return results


@dataclass(frozen=True)
class Summary:
    """Truth × verdict counts, overall, per class and per basis, with the soundness figures."""

    matrix: dict
    by_class: dict
    by_basis: dict
    false_accepted: int
    true_failed: int
    errors: int
    true_total: int
    true_decided: int
    killers_total: int = 0
    killers_decided: int = 0
    redteam_total: int = 0
    redteam_decided: int = 0

    @property
    def power(self) -> float:
        return self.true_decided / self.true_total if self.true_total else 1.0

    @property
    def sound(self) -> bool:
        return self.false_accepted == 0 and self.true_failed == 0 and self.errors == 0

    @property
    def passed(self) -> bool:
        return self.sound and self.power >= REQUIRED_POWER


def confusion(results: Iterable[Result]) -> Summary:
    results = list(results)
    matrix: dict = {truth: Counter() for truth in ("true", "false")}
    by_class: dict = defaultdict(lambda: {"true": Counter(), "false": Counter()})
    by_basis: dict = defaultdict(Counter)
    for r in results:
        truth = "true" if r.statement.truth else "false"
        matrix[truth][r.verdict] += 1
        by_class[r.statement.cls][truth][r.verdict] += 1
        by_basis[r.basis][f"{truth}/{r.verdict}"] += 1
    true_results = [r for r in results
                    if r.statement.truth and r.statement.cls not in (KILLER_CLASS, *REDTEAM_CLASSES)]
    killers = [r for r in results if r.statement.truth and r.statement.cls == KILLER_CLASS]
    redteam = [r for r in results if r.statement.truth and r.statement.cls in REDTEAM_CLASSES]
    return Summary(
        matrix={t: dict(c) for t, c in matrix.items()},
        by_class={k: {t: dict(c) for t, c in v.items()} for k, v in sorted(by_class.items())},
        by_basis={k: dict(v) for k, v in sorted(by_basis.items())},
        false_accepted=sum(1 for r in results
                           if not r.statement.truth and r.verdict in ("holds", "consistent")),
        true_failed=sum(1 for r in results if r.statement.truth and r.verdict == "fails"),
        errors=sum(1 for r in results if r.verdict == "error"),
        true_total=len(true_results),
        true_decided=sum(1 for r in true_results if r.verdict in ("holds", "consistent")),
        killers_total=len(killers),
        killers_decided=sum(1 for r in killers if r.verdict in ("holds", "consistent")),
        redteam_total=len(redteam),
        redteam_decided=sum(1 for r in redteam if r.verdict in ("holds", "consistent")),
    )


def matrix_markdown(summary: Summary) -> str:
    """The confusion matrix as Markdown tables: overall and per class, then per basis."""

    def row(label: str, counts: dict) -> str:
        return f"| {label} | " + " | ".join(str(counts.get(v, 0)) for v in VERDICTS) + " |"

    header = "| truth \\ verdict | " + " | ".join(VERDICTS) + " |\n|---|" + "---|" * len(VERDICTS)
    lines = [header, row("true", summary.matrix["true"]), row("false", summary.matrix["false"]), ""]
    lines.append("| class | truth | " + " | ".join(VERDICTS) + " |")
    lines.append("|---|---|" + "---|" * len(VERDICTS))
    for cls, by_truth in summary.by_class.items():
        for truth in ("true", "false"):
            if by_truth.get(truth):
                cells = " | ".join(str(by_truth[truth].get(v, 0)) for v in VERDICTS)
                lines.append(f"| {cls} | {truth} | " + cells
                             + " |")
    lines.append("")
    columns = [f"{t}/{v}" for t in ("true", "false") for v in VERDICTS[:4]]
    lines.append("| basis | " + " | ".join(columns) + " |")
    lines.append("|---|" + "---|" * 8)
    for basis, counts in summary.by_basis.items():
        lines.append(f"| {basis} | " + " | ".join(str(counts.get(f"{t}/{v}", 0)) for t in ("true", "false")
                                                   for v in VERDICTS[:4]) + " |")
    return "\n".join(lines)


def headline(summary: Summary, count: int) -> str:
    true = summary.true_total + summary.killers_total + summary.redteam_total
    text = (f"{count} statements ({true} true, {count - true} false): "
            f"{summary.false_accepted} false statement(s) held or consistent, {summary.true_failed} true "
            f"statement(s) failed, {summary.errors} error(s); {summary.true_decided} of {summary.true_total} "
            f"true statements decided ({summary.power:.1%}, required {REQUIRED_POWER:.0%})")
    if summary.killers_total:
        text += (f"; the {summary.killers_total} true mutation killers (class {KILLER_CLASS}) count for "
                 f"soundness only, {summary.killers_decided} of them decided")
    if summary.redteam_total:
        share = summary.redteam_decided / summary.redteam_total
        text += (f"; the {summary.redteam_total} true statements of the red teams (classes "
                 f"{', '.join(REDTEAM_CLASSES)}) "
                 f"count for soundness, and {summary.redteam_decided} of them are decided ({share:.1%}; "
                 f"issue #48 asks {ADVERSARIAL_POWER:.0%} of a white-box set)")
    return text


def readme_block(results: list[Result]) -> str:
    """The README's generated calibration block: the headline, then the matrices."""
    summary = confusion(results)
    return (f"Generated by `scripts/update_readme_calibration.py` from `verify calibrate` "
            f"({len(results)} statements in tests/calibration/corpus/).\n\n"
            f"{headline(summary, len(results))}.\n\n{matrix_markdown(summary)}\n")


def results_from_json(payload: dict) -> list[Result]:
    """The results of a ``verify calibrate --json`` file."""
    results = []
    for record in payload["results"]:
        statement = Statement(record["id"], record["class"], record["truth"], record["claim"],
                              record["reason"], record.get("options", {}))
        results.append(Result(statement, record["verdict"], record["basis"], record["evidence"], 0.0,
                              record.get("budget_spent", False)))
    return results


#: The verdict of every statement behind the calibration block (id -> [verdict, basis, budget
#: spent]), written with the block by scripts/update_readme_calibration.py.
RECORDED_VERDICTS = Path(__file__).resolve().parent.parent / "results" / "calibration-verdicts.json"


def write_recorded_verdicts(results: list[Result]) -> None:
    """Write :data:`RECORDED_VERDICTS` for ``results``: one statement a line, by id, so that a
    change of verdicts reads as a diff."""
    lines = [f"{json.dumps(r.statement.id)}: {json.dumps([r.verdict, r.basis, r.budget_spent])}"
             for r in sorted(results, key=lambda r: r.statement.id)]
    RECORDED_VERDICTS.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


@dataclass(frozen=True)
class Reconciled:
    """A fresh run read against the recorded verdicts (:func:`reconcile`)."""

    results: list  # the fresh results, a tolerated change put back to its recorded verdict
    tolerated: list  # (id, recorded verdict, fresh verdict): a CPU limit passed in one of the runs
    changed: list  # (id, recorded verdict, fresh verdict): a change of the rules, or a new statement


def reconcile(results: list[Result], recorded: dict) -> Reconciled:
    """Compare a fresh run with the recorded verdicts, statement by statement.

    A verdict may change between runs only where a CPU-time limit passed in one of them (the
    statement sat near its budget, and a faster or busier machine landed on the other side of
    it); such a change is tolerated, and reported, when the fresh verdict is sound.  Any other
    change (or an unsound fresh verdict, or a statement without a record) is a change of the
    rules: the block must be made again.  CPU budgets keep verdicts nearly independent of load;
    this makes the check say which statements were not."""
    kept, tolerated, changed = [], [], []
    for r in results:
        record = recorded.get(r.statement.id)
        if record is None:
            changed.append((r.statement.id, None, r.verdict))
            kept.append(r)
            continue
        verdict, basis, spent = record
        if r.verdict == verdict:
            kept.append(r)
        elif (spent or r.budget_spent) and not r.unsound:
            tolerated.append((r.statement.id, verdict, r.verdict))
            kept.append(Result(r.statement, verdict, basis, r.evidence, r.seconds, True))
        else:
            changed.append((r.statement.id, verdict, r.verdict))
            kept.append(r)
    return Reconciled(kept, tolerated, changed)
