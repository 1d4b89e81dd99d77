"""Run checks, one :class:`Result` each; a crashing check is recorded, never propagated."""

from __future__ import annotations

import multiprocessing
import pickle
import sys
import time
import traceback
from collections.abc import Callable
from concurrent.futures import as_completed
from dataclasses import dataclass, replace
from typing import Any

from tqdm import tqdm

from verify.base import cache
from verify.base.sweep import process_pool
from verify.checks.core import Check, Context
from verify.checks.outcome_cache import remembered_outcome
from verify.checks.quotes import paper_quote, reading
from verify.paper.pack import current
from verify.verdict import Basis, FailureKind, Outcome, Verdict


@dataclass
class Result:
    check: Check
    seed: int
    full: bool
    seconds: float
    outcome: Outcome | None  # None when the check crashed
    error: str | None = None
    #: the seconds its outcome took to compute when it was read from the last run
    #: (:mod:`verify.checks.outcome_cache`); None when it was computed in this one
    cached_cost: float | None = None

    @property
    def crashed(self) -> bool:
        return self.outcome is None

    @property
    def verdict(self) -> str:
        return "crashed" if self.outcome is None else self.outcome.verdict.value

    @property
    def statement(self) -> str:
        """How the reports name the check's row: its statement, or the part of it that fails where
        the outcome names one (:attr:`Outcome.statement`: an align's failing line by its label)."""
        return (self.outcome.statement if self.outcome is not None and self.outcome.statement
                else self.check.statement)

    def to_dict(self) -> dict[str, Any]:
        c, o = self.check, self.outcome
        record: dict[str, Any] = {
            "id": c.id, "statement": self.statement, "section": c.section, **_quote_fields(c),
            "method": c.method, "seed": self.seed, "full": self.full,
            "seconds": round(self.seconds, 3),
            # a timing field too: the outcome was read back from the last run of this code, which
            # computed it in this many seconds (None: computed in this run; outcome_cache)
            "cached_seconds": None if self.cached_cost is None else round(self.cached_cost, 3),
            "verdict": self.verdict,
            "reproduce": (f"{current().check_command} --only {c.id} --seed {self.seed}"
                          + (" --full" if self.full else "")),
        }
        if o is None:
            record["error"] = self.error
            return record
        record.update(outcome_fields(o))
        record["parts"] = [{"entry": entry, "verdict": part.verdict.value, **outcome_fields(part)}
                           for entry, part in o.parts.items()]
        return record


def _quote_fields(check: Check) -> dict[str, Any]:
    """``quote``: the paper's passage (or the check's reading where none is located), with where it
    comes from, and the check's own ``reading``."""
    quote = paper_quote(check)
    return {"quote": quote if quote is not None else reading(check),
            "quote_source": "paper" if quote is not None else "the check's reading",
            "reading": reading(check)}


def outcome_fields(o: Outcome) -> dict[str, Any]:
    """The report.json fields of an outcome (a check's, or one of its per-entry parts)."""
    return {"basis": str(o.basis), "certified": o.certified, "scope": o.scope,
            "failure_kind": None if o.failure_kind is None else str(o.failure_kind),
            "impact": None if o.impact is None else str(o.impact),
            "evidence": o.evidence, "parameters": o.parameters, "numbers": o.numbers,
            "counterexample": o.counterexample, "correction": o.correction,
            "correction_verified": o.correction_verified, "notes": o.notes}


def run_checks(checks: list[Check], seed: int = 0, full: bool = False, progress: bool = False,
               on_result: Callable[[Result], None] | None = None, jobs: int = 1) -> list[Result]:
    """Run ``checks``; the results, and every call of ``on_result``, come in the order of ``checks``
    (``verify check`` prints each line as soon as it and all before it exist, so a long run is
    never silent).

    With ``jobs`` > 1 the checks run in that many processes.  A check's random streams are keyed
    by its id (:meth:`Context.rng`), never by the process or the order it ran in, so the verdicts
    and evidence are those of a serial run; ``tests/test_check_jobs.py`` asserts it."""
    bar = None
    if progress and sys.stderr.isatty():
        bar = tqdm(total=len(checks), unit="check", file=sys.stderr, leave=False)
    results: list[Result] = []

    def emit(result: Result) -> None:
        results.append(result)
        if on_result is not None:
            if bar is not None:
                bar.clear()
            on_result(result)

    try:
        if jobs > 1 and len(checks) > 1:
            _run_in_pool(checks, seed, full, jobs, emit, bar)
        else:
            for chk in checks:
                if bar is not None:
                    bar.set_description(chk.id)
                emit(_run_one(chk, seed, full))
                if bar is not None:
                    bar.update()
    finally:
        if bar is not None:
            bar.close()
    return results


def _run_one(chk: Check, seed: int, full: bool) -> Result:
    ctx = replace(Context(seed=seed, full=full), check_id=chk.id)

    def compute() -> Outcome:
        outcome = chk.function(ctx)
        if not isinstance(outcome, Outcome):
            raise TypeError(f"check {chk.id} returned {type(outcome).__name__}, not Outcome")
        return chk.finish(outcome)

    start = time.perf_counter()
    cost = None
    try:
        # an outcome decided by measurement alone may come from the last run (outcome_cache)
        outcome, cost = remembered_outcome(chk, ctx, compute)
        error = None
    except Exception:  # a crash is a finding about the suite, recorded and reported
        outcome, error = None, traceback.format_exc(limit=6)
    return Result(chk, seed, full, time.perf_counter() - start, outcome, error, cost)


#: The work of a forked pool: (checks, seed, full), set by the parent before it forks, so that a
#: worker finds each check by its index (a ledger claim's check is a closure, which cannot be
#: pickled, and rebuilding the pack in each worker would cost seconds).
_FORKED_WORK: tuple[list[Check], int, bool] | None = None


def _run_indices(indices: list[int]) -> list[tuple[int, float, float | None, Outcome | None, str | None]]:
    """The checks ``indices`` of the forked work, one after the other in this process."""
    checks, seed, full = _FORKED_WORK
    answers = []
    for index in indices:
        result = _run_one(checks[index], seed, full)
        outcome, error = result.outcome, result.error
        try:
            pickle.dumps(outcome)
        except Exception:  # an outcome that cannot travel back is a bug of its check, reported as one
            outcome, error = None, traceback.format_exc(limit=6)
        answers.append((index, result.seconds, result.cached_cost, outcome, error))
    return answers


def pool_tasks(checks: list[Check], last: dict[str, float]) -> list[list[int]]:
    """The tasks of a pool run: each check alone, except that the checks sharing work
    (:attr:`Check.shares`) form one task; longest first by the last run's times."""
    groups: dict[str, list[int]] = {}
    tasks: list[list[int]] = []
    for index, chk in enumerate(checks):
        if chk.shares:
            if chk.shares not in groups:
                groups[chk.shares] = []
                tasks.append(groups[chk.shares])
            groups[chk.shares].append(index)
        else:
            tasks.append([index])
    return sorted(tasks, key=lambda task: -sum(last.get(checks[i].id, 1.0) for i in task))


def _run_in_pool(checks: list[Check], seed: int, full: bool, jobs: int,
                 emit: Callable[[Result], None], bar) -> None:
    """Run every check in ``jobs`` forked processes, longest first by the last run's times (which
    only shortens the wall time), and emit the results in the order of ``checks``."""
    global _FORKED_WORK
    _FORKED_WORK = (checks, seed, full)
    done: dict[int, Result] = {}
    following = 0
    seconds: dict[str, float] = {}
    try:
        with process_pool(min(jobs, len(checks)), multiprocessing.get_context("fork")) as pool:
            futures = [pool.submit(_run_indices, task) for task in pool_tasks(checks, _last_seconds())]
            for future in as_completed(futures):
                for index, spent, cost, outcome, error in future.result():
                    done[index] = Result(checks[index], seed, full, spent, outcome, error, cost)
                    # what it costs when computed: the order of the next run after an edit
                    seconds[checks[index].id] = spent if cost is None else cost
                    if bar is not None:
                        bar.update()
                while following in done:
                    emit(done.pop(following))
                    following += 1
    finally:
        _FORKED_WORK = None
    _store_seconds(seconds)


def _timings_key() -> dict:
    return {"pack": str(current().root), "what": "seconds per check"}


def _last_seconds() -> dict[str, float]:
    """Each check's time in the last parallel run (cache; empty when there is none or it is bad)."""
    stored = cache.load("check-seconds", _timings_key())
    if not isinstance(stored, dict):
        return {}
    return {key: float(value) for key, value in stored.items()
            if isinstance(key, str) and isinstance(value, int | float) and not isinstance(value, bool)}


def _store_seconds(seconds: dict[str, float]) -> None:
    cache.store("check-seconds", _timings_key(), {key: round(value, 3) for key, value in seconds.items()})


def _tally(keys: list[str], values) -> dict[str, int]:
    out = dict.fromkeys(keys, 0)
    for value in values:
        out[value] += 1
    return out


def counts(results: list[Result]) -> dict[str, int]:
    """How many checks got each verdict (and how many crashed)."""
    return _tally([v.value for v in Verdict] + ["crashed"], (r.verdict for r in results))


def failure_counts(results: list[Result]) -> dict[str, int]:
    """How many ``fails`` are of each :class:`FailureKind`."""
    kinds = (r.outcome.failure_kind.value for r in results if r.outcome and r.outcome.failure_kind)
    return _tally([k.value for k in FailureKind], kinds)


def basis_counts(results: list[Result]) -> dict[str, int]:
    """How many verdicts each kind of evidence (:class:`Basis`) decided."""
    bases = (r.outcome.basis.value for r in results if r.outcome and r.outcome.basis)
    return _tally([b.value for b in Basis], bases)
