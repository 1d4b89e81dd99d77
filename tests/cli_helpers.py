"""Shared helpers for command-line tests."""

from __future__ import annotations

import subprocess
import sys


def run_verify(*args: str) -> subprocess.CompletedProcess:
    """Run ``python -m verify ARGS`` in a subprocess (exit status and streams as a user sees them)."""
    return subprocess.run([sys.executable, "-m", "verify", *args], capture_output=True,
                          text=True, timeout=300)


def assert_one_line_usage_error(result: subprocess.CompletedProcess, fragment: str) -> None:
    """Bad input: exit status 2, nothing on stdout, exactly one stderr line, no traceback."""
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert fragment in lines[0]
    assert "Traceback" not in result.stderr


#: The fields of a report that may differ between two runs of the same checks: timings.
TIMING_FIELDS = ("seconds", "cached_seconds")


def untimed(value):
    """A report's record (or any JSON value) without its timing fields, at every depth."""
    if isinstance(value, dict):
        return {key: untimed(item) for key, item in value.items() if key not in TIMING_FIELDS}
    if isinstance(value, list):
        return [untimed(item) for item in value]
    return value
