"""Which suite wrote a result: its version and a fingerprint of its code.

A report answers for the code that wrote it.  ``verify show`` reads the last report instead of
rerunning a check only when the report's fingerprint is this installation's: the version string
alone is not enough, since a checkout between releases changes checks without changing it.
"""

from __future__ import annotations

import functools
import hashlib
import subprocess
from pathlib import Path

from verify.base.cache import _package_version

_PACKAGE = Path(__file__).resolve().parent.parent
#: What decides a verdict: the code, and the data files shipped with it (ledgers, corpora, quotes).
_SUFFIXES = (".py", ".toml", ".txt", ".json")


@functools.cache
def code_fingerprint(suffixes: tuple[str, ...] = _SUFFIXES) -> str:
    """SHA-256 (first 16 hex digits) over the path and bytes of every source and data file of the
    installed package (those whose names end in ``suffixes``), in sorted order: equal exactly when
    the code is."""
    digest = hashlib.sha256()
    for path in sorted(p for p in _PACKAGE.rglob("*") if p.suffix in suffixes and p.is_file()
                       and "__pycache__" not in p.parts):
        digest.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def suite_identity() -> dict[str, str]:
    """``{"version": ..., "code": ...}`` as written into report.json."""
    return {"version": _package_version(), "code": code_fingerprint()}


def checkout_commit() -> str | None:
    """The commit of the git checkout the package runs from (``+dirty`` when its tracked files
    differ from it), or None for an installed copy, or where git is not available."""
    root = _PACKAGE.parent
    if not (root / ".git").exists():
        return None
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("+dirty" if dirty else "") if head else None


def version_line() -> str:
    """``verify --version``: the distribution's version, the checkout's commit (where it runs from
    one) and the code fingerprint that report.json records."""
    commit = checkout_commit()
    where = f"commit {commit}" if commit else "not run from a git checkout"
    return f"verify {_package_version()} (lowrank-verify; {where}; code {code_fingerprint()})"
