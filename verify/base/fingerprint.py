"""Which suite wrote a result: its version and a fingerprint of its code.

A report answers for the code that wrote it.  ``verify show`` reads the last report instead of
rerunning a check only when the report's fingerprint is this installation's: the version string
alone is not enough, since a checkout between releases changes checks without changing it.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from verify.base.cache import _package_version

_PACKAGE = Path(__file__).resolve().parent.parent
#: What decides a verdict: the code, and the data files shipped with it (ledgers, corpora, quotes).
_SUFFIXES = (".py", ".toml", ".txt", ".json")


@functools.cache
def code_fingerprint() -> str:
    """SHA-256 (first 16 hex digits) over the path and bytes of every source and data file of the
    installed package, in sorted order: equal exactly when the code is."""
    digest = hashlib.sha256()
    for path in sorted(p for p in _PACKAGE.rglob("*") if p.suffix in _SUFFIXES and p.is_file()
                       and "__pycache__" not in p.parts):
        digest.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def suite_identity() -> dict[str, str]:
    """``{"version": ..., "code": ...}`` as written into report.json."""
    return {"version": _package_version(), "code": code_fingerprint()}
