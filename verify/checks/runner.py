"""Run checks, one :class:`Result` each; a crashing check is recorded, never propagated."""

from __future__ import annotations

import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from tqdm import tqdm

from verify.checks.core import Check, Context
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

    @property
    def crashed(self) -> bool:
        return self.outcome is None

    @property
    def verdict(self) -> str:
        return "crashed" if self.outcome is None else self.outcome.verdict.value

    def to_dict(self) -> dict[str, Any]:
        c, o = self.check, self.outcome
        record: dict[str, Any] = {
            "id": c.id, "statement": c.statement, "section": c.section, "quote": c.quote,
            "method": c.method, "seed": self.seed, "full": self.full,
            "seconds": round(self.seconds, 3), "verdict": self.verdict,
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


def outcome_fields(o: Outcome) -> dict[str, Any]:
    """The report.json fields of an outcome (a check's, or one of its per-entry parts)."""
    return {"basis": str(o.basis), "certified": o.certified, "scope": o.scope,
            "failure_kind": None if o.failure_kind is None else str(o.failure_kind),
            "impact": None if o.impact is None else str(o.impact),
            "evidence": o.evidence, "parameters": o.parameters, "numbers": o.numbers,
            "counterexample": o.counterexample, "correction": o.correction,
            "correction_verified": o.correction_verified, "notes": o.notes}


def run_checks(checks: list[Check], seed: int = 0, full: bool = False, progress: bool = False,
               on_result: Callable[[Result], None] | None = None) -> list[Result]:
    """Run ``checks`` in order; ``on_result`` sees each :class:`Result` as soon as it exists
    (``verify check`` prints its line then, so a long run is never silent)."""
    results = []
    bar = None
    if progress and sys.stderr.isatty():

        bar = tqdm(total=len(checks), unit="check", file=sys.stderr, leave=False)
    for chk in checks:
        if bar is not None:
            bar.set_description(chk.id)
        ctx = replace(Context(seed=seed, full=full), check_id=chk.id)
        start = time.perf_counter()
        try:
            outcome: Outcome | None = chk.function(ctx)
            if not isinstance(outcome, Outcome):
                raise TypeError(f"check {chk.id} returned {type(outcome).__name__}, not Outcome")
            outcome = chk.finish(outcome)
            error = None
        except Exception:  # a crash is a finding about the suite, recorded and reported
            outcome, error = None, traceback.format_exc(limit=6)
        results.append(Result(chk, seed, full, time.perf_counter() - start, outcome, error))
        if on_result is not None:
            if bar is not None:
                bar.clear()
            on_result(results[-1])
        if bar is not None:
            bar.update()
    if bar is not None:
        bar.close()
    return results


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
