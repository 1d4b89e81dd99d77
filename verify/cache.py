"""The on-disk cache for expensive high-precision results.

Entries are JSON files named by the SHA-256 of their key, under
``$VERIFY_CACHE_DIR`` if set, else the user cache directory
(``platformdirs.user_cache_dir("verify")``, e.g. ``~/.cache/verify``).
Writes go to a temporary file that is renamed, so a crash never leaves a torn
entry; an unreadable or corrupt entry is treated as a miss.  Set
``VERIFY_CACHE_DIR`` to an empty temporary directory to run cold.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

CACHE_ENV = "VERIFY_CACHE_DIR"
FORMAT_VERSION = 1  # bump when the stored payload changes meaning


def cache_dir() -> Path:
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("verify"))


def _path(kind: str, key: dict) -> Path:
    blob = json.dumps({"v": FORMAT_VERSION, "kind": kind, **key}, sort_keys=True)
    digest = hashlib.sha256(blob.encode()).hexdigest()[:32]
    return cache_dir() / kind / f"{digest}.json"


def load(kind: str, key: dict) -> dict | None:
    """The stored payload for ``key``, or None on a miss or a corrupt entry."""
    try:
        with open(_path(kind, key), encoding="utf-8") as fh:
            entry = json.load(fh)
    except (OSError, ValueError):
        return None
    if entry.get("key") != key:  # hash collision or stale format
        return None
    return entry.get("payload")


def store(kind: str, key: dict, payload: dict) -> None:
    """Atomically write ``payload`` under ``key``; an unwritable cache is skipped."""
    path = _path(kind, key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"key": key, "payload": payload}, fh, sort_keys=True)
        os.replace(tmp, path)
    except OSError:
        # A read-only or full cache directory must not break a computation.
        return
