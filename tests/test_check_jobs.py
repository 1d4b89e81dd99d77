"""``verify check --jobs N``: checks run in N processes give the serial run's verdicts and evidence,
in the serial run's order, and a check that crashes in a worker is recorded like one that crashes
in-process."""

from __future__ import annotations

import pytest

from tests.cli_helpers import untimed
from verify.checks import load_all
from verify.checks.core import Check
from verify.checks.runner import run_checks
from verify.verdict import Outcome, Verdict

#: One check of each kind of evidence: exact, certified, high-precision, a ledger claim, a
#: Monte-Carlo check (its random streams are keyed by its id, so its evidence must not depend on
#: the process it ran in) and a search.
SAMPLE = ("assumption-1", "proposition-4", "remark-10-display", "display-e.3.3-11", "claim-1",
          "proposition-22", "d2-sample-gradient")


def _fields(results) -> list[dict]:
    return [untimed(result.to_dict()) for result in results]


@pytest.fixture(scope="module")
def sample() -> list[Check]:
    registry = load_all()
    return [registry[i] for i in SAMPLE]


@pytest.mark.extended
def test_two_processes_give_the_serial_verdicts_and_evidence_in_order(sample):
    seen = []
    serial = run_checks(sample, seed=3)
    pooled = run_checks(sample, seed=3, jobs=2, on_result=lambda r: seen.append(r.check.id))
    assert seen == list(SAMPLE)
    assert [r.check.id for r in pooled] == list(SAMPLE)
    assert _fields(pooled) == _fields(serial)
    assert not any(r.crashed for r in pooled)


def _crashes(ctx):
    raise ZeroDivisionError("planted")


def _unpicklable(ctx):
    outcome = Outcome(Verdict.HOLDS, "a lambda in the numbers")
    outcome.numbers["f"] = lambda x: x
    return outcome


def _holds(ctx):
    return Outcome(Verdict.HOLDS, f"ran for {ctx.check_id}")


def test_a_crash_in_a_worker_is_recorded_with_its_traceback():
    checks = [Check("planted-crash", "Lemma 0", "0", "exact", _crashes),
              Check("planted-lambda", "Lemma 0", "0", "exact", _unpicklable),
              Check("planted-holds", "Lemma 0", "0", "exact", _holds)]
    results = run_checks(checks, jobs=2)
    assert [r.check.id for r in results] == ["planted-crash", "planted-lambda", "planted-holds"]
    assert results[0].crashed and "ZeroDivisionError: planted" in results[0].error
    # an outcome that cannot travel back from the worker is a bug of its check, named as such
    assert results[1].crashed and "pickle" in results[1].error.lower()
    assert results[2].verdict == "holds" and results[2].outcome.evidence == "ran for planted-holds"


def test_a_line_is_cut_to_a_terminals_width_and_whole_in_a_file():
    from verify.checks.report import line

    evidence = "e" * 300
    result = run_checks([Check("planted-long", "Lemma 0", "0", "exact",
                               lambda ctx: Outcome(Verdict.HOLDS, evidence))])[0]
    assert line(result, 12, None).endswith(evidence)  # stdout is a file or a CI log
    cut = line(result, 12, 100)
    assert len(cut) <= 100 and cut.endswith("…")
