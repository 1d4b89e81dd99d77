"""A CPU-time and memory budget for untrusted symbolic work.

Static limits (:mod:`verify.base.expressions`: text length, tree size, degree, towers, digits,
magnitudes) refuse most inputs that would make SymPy or mpmath run for hours, before either
sees them.  What they cannot foresee (a ``limit``, ``solveset``, ``simplify`` or quadrature
that stalls on a small but unlucky expression) runs under :func:`guarded`: in a forked worker
process with an address-space limit (``RLIMIT_AS``) and a **CPU-time** limit (a profiling
timer, ``ITIMER_PROF``, backed by ``RLIMIT_CPU``).  When either trips, the worker is killed
and the caller gets a :class:`BudgetExceededError` naming the expression and the limit; the
command line prints that line and exits 2.

CPU time, not wall-clock time, because some callers turn a tripped budget into a verdict
("no closed form within the budget": the next step decides): on a machine busy with other work
the wall clock runs faster than the work, and a verdict must not depend on the machine's load.
The wall clock stays only as a safety cap (:data:`WALL_FACTOR` times the CPU limit plus
:data:`WALL_SLACK`) for a worker that blocks without using CPU; hitting it says so.

``--force`` lifts the static limits, never this guard; ``--time-limit`` and
``--memory-limit`` (Python: :func:`limits`) raise it.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging  # noqa: F401  (imported first, so its fork hooks are registered before ours: _before_fork)
import os
import pickle
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from verify.base.errors import VerifyInputError
from verify.base.errors import clip as _clip
from verify.base.validation import large_sizes_allowed

T = TypeVar("T")

#: Seconds one guarded piece of symbolic work may take: a valid activation or claim needs well
#: under a second here; 8 s keeps a hostile one, start-up included, inside the 10 s the fuzz
#: suite allows any input (and the 20 s any bad input may cost).
TIME_LIMIT = 8.0
#: The wall-clock safety cap of a guarded call: WALL_FACTOR × its CPU seconds + WALL_SLACK.
WALL_FACTOR, WALL_SLACK = 4.0, 10.0
#: Extra address space (bytes) a guarded worker may map beyond what the parent already has.
MEMORY_LIMIT = 1 << 30
#: Largest limits the flags accept: an hour and 64 GiB.
MAX_TIME_LIMIT, MAX_MEMORY_LIMIT = 3600.0, 64 << 30


class BudgetExceededError(VerifyInputError):
    """Untrusted symbolic work ran past its CPU-time or memory budget (``--time-limit``)."""


class CPUDeadline(BaseException):
    """A :func:`cpu_deadline` passed.  A BaseException, like KeyboardInterrupt, so that the
    ``except Exception`` of the code it interrupts (a rule that treats any SymPy error as "no
    rule") cannot swallow it; only the caller that set the deadline catches it."""


@contextlib.contextmanager
def cpu_deadline(seconds: float) -> Iterator[None]:
    """Within the block, :class:`CPUDeadline` is raised once this process has used ``seconds``
    more CPU time (user + system), and every 0.25 CPU s after, until the block ends.

    In-process, for work that must stop but whose result, if it comes in time, is needed here (a
    decision step).  CPU time, so the deadline does not move with the machine's load.  Only in
    the main thread and where no one else uses the profiling timer (a nested deadline, the
    guarded worker); elsewhere the block runs without one."""
    if (seconds <= 0 or threading.current_thread() is not threading.main_thread()
            or signal.getitimer(signal.ITIMER_PROF) != (0.0, 0.0)
            or signal.getsignal(signal.SIGPROF) not in (signal.SIG_DFL, None)):
        if seconds <= 0:
            raise CPUDeadline
        yield
        return

    signal.signal(signal.SIGPROF, _deadline_passed)
    signal.setitimer(signal.ITIMER_PROF, seconds, 0.25)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, signal.SIG_DFL)


def _deadline_passed(signum, frame) -> None:
    """The SIGPROF handler of :func:`cpu_deadline`."""
    _raise_or_defer(CPUDeadline)


def _guard_limit_passed(signum, frame) -> None:
    """The SIGPROF handler of the trusted inline guard (:func:`_inline`)."""
    _raise_or_defer(_GuardLimit)


#: How many time limits have passed in this process since :func:`forget_spent_budgets`.
_SPENT = {"count": 0}


def spent_budgets() -> int:
    """How many CPU-time limits (a step's deadline, a guarded call's limit or wall-clock cap) have
    passed in this process since :func:`forget_spent_budgets`.  A verdict reached after one passed
    may differ on a faster or a busier machine: the calibration check reads this to tell such a
    change from a change of the rules (:func:`verify.calibration.reconcile`)."""
    return _SPENT["count"]


def forget_spent_budgets() -> None:
    _SPENT["count"] = 0


def record_spent() -> None:
    """Count a CPU-time limit that code checks itself instead of raising (a claim's share of CPU
    seconds for one step, a prover's time budget): it moves with the machine as the others do."""
    _SPENT["count"] += 1


def _raise_or_defer(kind: type[BaseException]) -> None:
    _SPENT["count"] += 1
    if _DEFERRED["depth"]:
        _DEFERRED["pending"] = kind  # inside C code that calls back into Python: raised later
        return
    raise kind


class _GuardLimit(BaseException):
    """The CPU limit of an inline guarded call passed (:func:`_inline`).  Not a
    :class:`CPUDeadline`: code that reacts to a *step's* deadline (``gaussian_rules`` remembers the
    body it stopped) must not see it, as it never sees a forked worker's limit."""


#: Deadlines that passed while C code that calls Python back was running (see :func:`deferred_deadlines`).
_DEFERRED: dict = {"depth": 0, "pending": None}


@contextlib.contextmanager
def deferred_deadlines() -> Iterator[None]:
    """Within the block, a passing :func:`cpu_deadline` does not raise where it lands, only at
    :func:`deadline_point` or when the block ends.  For C code that calls Python back (Arb's
    integrator): an exception raised by the signal handler inside such a callback, where the C
    code does not expect one, made python-flint return "a result with an exception set" and the
    process crash with a segmentation fault."""
    _DEFERRED["depth"] += 1
    try:
        yield
    finally:
        _DEFERRED["depth"] -= 1
    if not _DEFERRED["depth"] and _DEFERRED["pending"]:
        kind, _DEFERRED["pending"] = _DEFERRED["pending"], None
        raise kind


#: The deferral state saved across a fork (:func:`_before_fork`).
_AT_FORK: dict = {"pending": None}


def _before_fork() -> None:
    """A deadline that passes during ``os.fork`` is deferred: the fork runs Python callbacks
    (logging's lock hooks), where an exception is only printed ("Exception ignored in
    _releaseLock") and lost, on stderr even of a --quiet run."""
    _DEFERRED["depth"] += 1
    _AT_FORK["pending"] = _DEFERRED["pending"]


def _after_fork() -> None:
    """The state before the fork again: a deadline that passed during it is dropped, since every
    in-process deadline timer fires again 0.25 CPU s later (the fork's child has no timer)."""
    _DEFERRED["depth"] -= 1
    _DEFERRED["pending"] = _AT_FORK["pending"]


if hasattr(os, "register_at_fork"):
    # registered after logging's hooks, so ours run before them at the fork and after them once it
    # returns (POSIX order: before-hooks in reverse registration order, after-hooks in order)
    os.register_at_fork(before=_before_fork, after_in_parent=_after_fork, after_in_child=_after_fork)


def deadline_point() -> None:
    """Raise the deadline (:class:`CPUDeadline`, or an inline guard's limit) that passed inside
    :func:`deferred_deadlines`, once: a pending one left set would be raised again, spuriously, at
    the end of a later block."""
    if _DEFERRED["pending"]:
        kind, _DEFERRED["pending"] = _DEFERRED["pending"], None
        raise kind


_LIMITS: contextvars.ContextVar[tuple[float, int]] = contextvars.ContextVar(
    "verify_budget", default=(TIME_LIMIT, MEMORY_LIMIT))
#: True inside a worker: nested guarded calls run inline (the worker is already limited).
_IN_WORKER = False
#: True while only trusted work runs (:func:`trusted_work`): guarded calls run in this process
#: under the same CPU-time limit, without a fork.
_TRUSTED = False


@contextlib.contextmanager
def trusted_work() -> Iterator[None]:
    """Within the block, :func:`guarded` runs its work in this process under its CPU-time limit
    (a profiling timer, nested inside a decision step's :func:`cpu_deadline`) instead of a forked
    worker.

    For work whose text ships with the package (``verify check`` on the built-in pack): the fork
    guards against *untrusted* text, and forking a large process costs its copy-on-write faults,
    14 of the 78 CPU s of a serial ``verify check``.  The CPU limit, its error and its effect on a
    verdict are those of the fork; what is given up is the address-space limit, which text the
    package ships does not need.  Untrusted text (``verify claim``, a pack from a directory, the
    calibration corpora) keeps the fork."""
    global _TRUSTED
    old = _TRUSTED
    _TRUSTED = True
    try:
        yield
    finally:
        _TRUSTED = old


@contextlib.contextmanager
def limits(seconds: float | None = None, memory: int | None = None) -> Iterator[None]:
    """Within this block, guarded work may take ``seconds`` CPU seconds and ``memory`` extra bytes."""
    old_seconds, old_memory = _LIMITS.get()
    token = _LIMITS.set((old_seconds if seconds is None else float(seconds),
                         old_memory if memory is None else int(memory)))
    try:
        yield
    finally:
        _LIMITS.reset(token)


def cpu_seconds() -> float:
    """CPU seconds this process and its finished workers have used (user + system).

    Budgets that decide *how far* a computation goes (a claim's symbolic and certified steps) count
    these, not wall-clock seconds: on a machine busy with other work the wall clock runs faster
    than the work, and a verdict must not depend on what else the machine is doing."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def current_limits() -> tuple[float, int]:
    """(seconds, bytes) that a guarded call gets now."""
    return _LIMITS.get()


def _address_space() -> int:
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def guarded(what: str | Callable[[], str], function: Callable[..., T], *args: Any) -> T:
    """``function(*args)`` in a forked worker under the current time and memory limits.

    ``what`` names the work for the error message (e.g. ``"activation 'expr:...'"``), or is a
    function that returns that name: printing a large expression for a message that is almost
    never shown cost verify check several CPU seconds.  The
    worker is a fork, so the function and its arguments are shared, not sent; its result must
    be picklable (SymPy objects, numbers) or it is computed again here, the worker having shown
    that it finishes within the limits; an exception it raises is raised here again.  Without
    ``fork`` (or inside a worker) the call runs inline.
    """
    if _IN_WORKER or not hasattr(os, "fork"):
        return function(*args)
    seconds, memory = _LIMITS.get()
    if _TRUSTED and threading.current_thread() is threading.main_thread() \
            and signal.getsignal(signal.SIGPROF) in (signal.SIG_DFL, None, _deadline_passed):
        return _inline(what, seconds, function, args)
    read_end, write_end = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    parent = os.getpid()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return function(*args)
    if pid == 0:  # the worker
        os.close(read_end)
        die_with_parent(parent)
        _worker(write_end, seconds, memory, function, args)
    os.close(write_end)
    kind, value = _collect(what, pid, read_end, seconds, memory)
    if kind == "unpicklable":
        return function(*args)  # it finished within the limits in the worker
    return value


def _inline(what: str | Callable[[], str], seconds: float, function: Callable[..., T], args: tuple) -> T:
    """``function(*args)`` here, stopped after ``seconds`` CPU s (:func:`trusted_work`).

    As in a forked worker, the call's CPU time is its own: a decision step's :func:`cpu_deadline`
    that is running is paused for the call (only the call's timer is armed) and set again
    afterwards to what was left of it, the call's time not counted; and the call's limit is not
    a :class:`CPUDeadline`, so code that reacts to a step's deadline never sees it."""
    global _IN_WORKER
    outer_left = signal.getitimer(signal.ITIMER_PROF)[0]
    outer_handler = signal.getsignal(signal.SIGPROF)
    signal.signal(signal.SIGPROF, _guard_limit_passed)
    signal.setitimer(signal.ITIMER_PROF, seconds, 0.25)
    _IN_WORKER = True  # nested guarded calls run inline, as in a worker
    limit_passed = out_of_memory = False
    try:
        return function(*args)
    except _GuardLimit:
        limit_passed = True
    except MemoryError:
        out_of_memory = True
    finally:
        # timers first: nothing below may be interrupted by this call's limit
        signal.setitimer(signal.ITIMER_PROF, 0)
        if _DEFERRED["pending"] is _GuardLimit:
            _DEFERRED["pending"] = None
        signal.signal(signal.SIGPROF, outer_handler)
        if outer_left:
            signal.setitimer(signal.ITIMER_PROF, outer_left, 0.25)
        _IN_WORKER = False
    if limit_passed:
        raise BudgetExceededError(_time_limit_message(what, seconds))
    assert out_of_memory
    raise BudgetExceededError(
        f"{_named(what)}: the symbolic work needs more than the memory it could get (raise it with "
        "--memory-limit MIB)")


def _time_limit_message(what: str | Callable[[], str], seconds: float) -> str:
    return (f"{_named(what)}: the symbolic work did not finish within the time limit of {seconds:g} "
            "CPU s (raise it with --time-limit SECONDS)")


#: Answers of :func:`remembered` calls: (function, arguments, limits) -> ("ok", value) or
#: ("raise", exception).  At most _REMEMBERED_LIMIT, the oldest dropped first.
_REMEMBERED: dict[tuple, tuple[str, Any]] = {}
_REMEMBERED_LIMIT = 512


def remembered(what: str | Callable[[], str], function: Callable[..., T], *args: Any) -> T:
    """:func:`guarded`, answered from memory when this process has made the same call under the
    same limits before.

    For deterministic work on hashable arguments (SymPy expressions) that the engine repeats: a
    claim's lhs − rhs recurs across the steps and configurations of one claim and across the checks
    of a pack, and ``verify check`` spent 20 of its 44 s of guarded simplification on repeats.  An
    exceeded budget is remembered too, keyed by the limits it was exceeded under."""
    key = (function, args, _LIMITS.get())
    try:
        known = _REMEMBERED.get(key)
    except TypeError:  # an unhashable argument: nothing to remember it by
        return guarded(what, function, *args)
    if known is None:
        try:
            known = ("ok", guarded(what, function, *args))
        except BudgetExceededError as exc:
            known = ("raise", exc)
        if len(_REMEMBERED) >= _REMEMBERED_LIMIT:
            _REMEMBERED.pop(next(iter(_REMEMBERED)))
        _REMEMBERED[key] = known
    kind, value = known
    if kind == "raise":
        raise value
    return value


def forget_remembered() -> None:
    """Forget every :func:`remembered` answer (a calibration statement is decided as if alone)."""
    _REMEMBERED.clear()


def guarded_if_forced(what: str, function: Callable[..., T], *args: Any) -> T:
    """:func:`guarded` under ``--force`` (static limits lifted), else a plain call.

    The parser's static limits make parsing cheap; once ``--force`` lifts them, the parse
    itself may build a huge tree, so it runs under the guard too."""

    return guarded(what, function, *args) if large_sizes_allowed() else function(*args)


#: prctl's PR_SET_PDEATHSIG (linux/prctl.h): a signal the kernel sends when the parent dies.
_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Make this process (a worker) die when ``parent``, the process that started it, dies
    (SIGTERM to ``verify`` used to leave its SymPy worker and its sweep's pool workers running,
    re-parented to PID 1).  Linux only; elsewhere the worker's own
    CPU limit still ends it."""
    try:
        # lazy: ctypes and libc only where prctl exists
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(5)


def _limit_cpu(seconds: float) -> None:
    """The worker dies of SIGPROF after ``seconds`` of its own CPU time (user + system).

    A fork starts with its CPU clock at 0, so the timer measures only the guarded work.
    RLIMIT_CPU (whole seconds, one more) backs it up should the work block SIGPROF."""
    signal.signal(signal.SIGPROF, signal.SIG_DFL)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        # lazy: POSIX only; the timer alone limits the work where it is missing
        import resource

        used = resource.getrusage(resource.RUSAGE_SELF)
        hard = int(used.ru_utime + used.ru_stime + seconds) + 2
        resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))
    except (ImportError, ValueError, OSError):
        pass


def _worker(fd: int, seconds: float, memory: int, function: Callable, args: tuple) -> None:
    global _IN_WORKER
    _IN_WORKER = True
    status = 0
    try:
        try:
            # lazy: POSIX only; the guard runs without a memory limit where it is missing
            import resource

            limit = _address_space() + memory
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        except (ImportError, ValueError, OSError):
            pass
        _limit_cpu(seconds)
        _SPENT["count"] = 0
        try:
            message = ("ok", function(*args))
        except MemoryError:
            message = ("memory", None)
        except BaseException as exc:  # carried back to the parent and raised there
            message = ("raise", exc)
        try:  # with the limits that passed inside (nested guarded calls run inline here)
            data = pickle.dumps((*message, _SPENT["count"]))
        except Exception:
            # e.g. a SymPy function class made on the fly: the work finished within the limits,
            # so the parent may redo it inline.
            data = pickle.dumps(("unpicklable", None, _SPENT["count"]))
        with os.fdopen(fd, "wb") as pipe:
            pipe.write(data)
    except MemoryError:
        status = 3
    except BaseException:
        status = 4
    finally:
        os._exit(status)


def _named(what: str | Callable[[], str]) -> str:
    return _clip(what() if callable(what) else what)


def _collect(what: str | Callable[[], str], pid: int, fd: int, seconds: float, memory: int):
    deadline = time.monotonic() + WALL_FACTOR * seconds + WALL_SLACK
    chunks = []
    timed_out = False
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                timed_out = True
                break
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(fd)
        # After EOF the worker is exiting anyway; on a timeout or an interrupt it must not linger.
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    if timed_out:
        _SPENT["count"] += 1
        raise BudgetExceededError(
            f"{_named(what)}: the symbolic work did not finish within the wall-clock safety cap of "
            f"{WALL_FACTOR * seconds + WALL_SLACK:g} s (its CPU-time limit is {seconds:g} s; the machine "
            "may be overloaded, or the work blocked)")
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGPROF, signal.SIGXCPU):
        _SPENT["count"] += 1
        raise BudgetExceededError(_time_limit_message(what, seconds))
    try:
        kind, value, spent = pickle.loads(b"".join(chunks))
    except Exception:
        kind, value, spent = "memory", None, 0  # killed before it could answer: the address-space limit
    _SPENT["count"] += spent
    if kind in ("ok", "unpicklable"):
        return kind, value
    if kind == "raise":
        raise value
    if kind == "memory":
        raise BudgetExceededError(
            f"{_named(what)}: the symbolic work needs more than the memory limit of "
            f"{memory / 2**20:.0f} MiB (raise it with --memory-limit MIB)")
    raise RuntimeError(f"{_named(what)}: the guarded worker failed ({value})")
