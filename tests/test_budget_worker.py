"""The guarded SymPy worker (verify/base/budget.py) dies with the process that forked it.

SIGTERM to ``verify`` used to leave its forked worker running, re-parented to PID 1, until its
own CPU limit (issue 38).  The worker asks the kernel (prctl PR_SET_PDEATHSIG) to be killed when
its parent dies; afterwards it is gone or a zombie awaiting its new parent, never running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

SPIN = """
from verify.base.budget import guarded
def spin():
    while True:
        pass
print("start", flush=True)
guarded("spin", spin)
"""


def _children(pid: int) -> list[str]:
    """The processes whose parent is ``pid`` (from /proc/*/stat: the field after the state)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(entry)
    return found


def _state(pid: str) -> str | None:
    try:
        with open(f"/proc/{pid}/status") as status:
            return next(line.split()[1] for line in status if line.startswith("State:"))
    except (FileNotFoundError, ProcessLookupError, StopIteration):
        return None


@pytest.mark.skipif(not os.path.isdir("/proc/self") or sys.platform != "linux", reason="Linux /proc only")
def test_the_worker_dies_with_its_parent():
    parent = subprocess.Popen([sys.executable, "-c", SPIN], stdout=subprocess.PIPE, text=True)
    assert parent.stdout.readline().strip() == "start"
    workers: list[str] = []
    for _ in range(50):  # the fork follows the print within a moment
        workers = _children(parent.pid)
        if workers:
            break
        time.sleep(0.1)
    assert workers, "no guarded worker was forked"
    parent.send_signal(signal.SIGTERM)
    parent.wait(timeout=30)
    for _ in range(50):
        states = [_state(w) for w in workers]
        if all(s in (None, "Z", "X") for s in states):
            break
        time.sleep(0.1)
    assert all(s in (None, "Z", "X") for s in states), states
