"""The trusted inline guard (budget.trusted_work): the fork's CPU limit and error without a fork."""

import os

import pytest

from verify.base import budget
from verify.base.budget import BudgetExceededError, CPUDeadline, cpu_deadline, guarded, limits, trusted_work


def _spin() -> None:
    while True:  # pure Python: the profiling timer interrupts it
        pass


def _pid() -> int:
    return os.getpid()


def test_trusted_work_runs_here_and_untrusted_work_in_a_fork():
    assert guarded("pid", _pid) != os.getpid()
    with trusted_work():
        assert guarded("pid", _pid) == os.getpid()
    assert guarded("pid", _pid) != os.getpid()


def test_an_inline_call_past_its_cpu_limit_raises_the_forks_error():
    with limits(seconds=0.3):
        with pytest.raises(BudgetExceededError) as forked:
            guarded("spin", _spin)
        with trusted_work(), pytest.raises(BudgetExceededError) as inline:
            guarded("spin", _spin)
    assert str(inline.value) == str(forked.value)
    assert "time limit of 0.3 CPU s" in str(inline.value)
    assert not budget._IN_WORKER
    assert budget.signal.getitimer(budget.signal.ITIMER_PROF) == (0.0, 0.0)


def test_inside_a_step_deadline_the_call_gets_its_own_limit_and_the_step_keeps_the_rest():
    # the call's limit (0.3 s) is shorter than the step's (5 s): the call's error, and the step's
    # timer runs on with what is left of it
    with cpu_deadline(5.0), limits(seconds=0.3), trusted_work():
        with pytest.raises(BudgetExceededError):
            guarded("spin", _spin)
        left = budget.signal.getitimer(budget.signal.ITIMER_PROF)[0]
        assert 3.0 < left < 4.9


def test_a_step_deadline_that_passes_first_stops_the_step_not_the_call():
    with pytest.raises(CPUDeadline), cpu_deadline(0.3), limits(seconds=5.0), trusted_work():
        guarded("spin", _spin)
    assert budget.signal.getitimer(budget.signal.ITIMER_PROF) == (0.0, 0.0)


def test_an_exception_of_the_work_is_raised_as_in_the_fork():
    def fail():
        raise ValueError("no rule")

    with trusted_work(), pytest.raises(ValueError, match="no rule"):
        guarded("fail", fail)
