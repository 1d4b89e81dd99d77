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


def test_inside_a_step_deadline_the_call_gets_its_own_limit_and_the_step_keeps_its_time():
    # as with a fork, the call's CPU time is not the step's: the step's timer is paused for it
    with cpu_deadline(5.0), limits(seconds=0.3), trusted_work():
        with pytest.raises(BudgetExceededError):
            guarded("spin", _spin)
        left = budget.signal.getitimer(budget.signal.ITIMER_PROF)[0]
        assert 4.8 < left < 5.1  # getitimer rounds to the clock's tick


def test_a_step_deadline_shorter_than_the_call_does_not_stop_the_call():
    # fork semantics: the worker's limit decides the call (0.6 s), not the step's 0.3 s
    with cpu_deadline(0.3), limits(seconds=0.6), trusted_work():
        with pytest.raises(BudgetExceededError, match="0.6 CPU s"):
            guarded("spin", _spin)
        with pytest.raises(CPUDeadline):
            _spin()  # the step's own work then meets the step's deadline
    assert budget.signal.getitimer(budget.signal.ITIMER_PROF) == (0.0, 0.0)


def test_code_that_reacts_to_a_step_deadline_does_not_see_the_calls_limit():
    seen = []

    def work():
        try:
            _spin()
        except CPUDeadline:  # as gaussian_rules does: remember the body a step's deadline stopped
            seen.append("step deadline")
            raise

    with limits(seconds=0.3), trusted_work(), pytest.raises(BudgetExceededError):
        guarded("work", work)
    assert seen == []


def test_a_slow_message_is_not_interrupted_by_the_calls_timer():
    def slow_name():
        total = 0
        for i in range(3 * 10**6):  # about half a CPU second: past the 0.3 s limit and its repeats
            total += i
        return "slow name"

    with limits(seconds=0.3), trusted_work(), pytest.raises(BudgetExceededError, match="slow name"):
        guarded(slow_name, _spin)


def test_an_exception_of_the_work_is_raised_as_in_the_fork():
    def fail():
        raise ValueError("no rule")

    with trusted_work(), pytest.raises(ValueError, match="no rule"):
        guarded("fail", fail)
