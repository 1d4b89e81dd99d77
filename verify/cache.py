"""The on-disk cache for expensive high-precision results.

Entries are JSON files named by the SHA-256 of their key, under
``$VERIFY_CACHE_DIR`` if set, else the user cache directory
(``platformdirs.user_cache_dir("verify")``, e.g. ``~/.cache/verify``).  Set
``VERIFY_CACHE_DIR`` to an empty temporary directory to run cold.

An entry is trusted only if it validates completely: a JSON object with the current
:data:`SCHEMA_VERSION`, the same kind and key, a payload object whose SHA-256 matches the
stored checksum, and a payload the caller's ``decode`` accepts.  Anything else (a torn or
truncated file, JSON of the wrong type, an altered digit, an older schema, a payload the
caller cannot read) is a miss: the caller recomputes and :func:`store` rewrites the entry,
so a damaged cache heals itself and never changes a result.  Writes are atomic
(:func:`verify.files.write_atomic`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

CACHE_ENV = "VERIFY_CACHE_DIR"
#: Bump when the stored payload changes meaning; entries of another version are misses.
SCHEMA_VERSION = 2

T = TypeVar("T")


def cache_dir() -> Path:
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("verify"))


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _path(kind: str, key: dict) -> Path:
    digest = hashlib.sha256(_canonical({"v": SCHEMA_VERSION, "kind": kind, **key}).encode()).hexdigest()
    return cache_dir() / kind / f"{digest[:32]}.json"


def checksum(payload: dict) -> str:
    """SHA-256 of the payload's canonical JSON (sorted keys, no spaces)."""
    return hashlib.sha256(_canonical(payload).encode()).hexdigest()


def _identity(payload: dict) -> Any:
    return payload


def load(kind: str, key: dict, decode: Callable[[dict], T] = _identity) -> T | None:
    """``decode(payload)`` of the entry stored under ``key``, or None on a miss or an invalid entry.

    ``decode`` turns the payload into the caller's object; any exception it raises marks the
    entry invalid (a miss), so a payload of the wrong shape is recomputed, never served.
    """
    try:
        with open(_path(kind, key), encoding="utf-8") as fh:
            entry = json.load(fh)
    except (OSError, ValueError, RecursionError):
        return None
    if not (isinstance(entry, dict) and entry.get("schema") == SCHEMA_VERSION
            and entry.get("kind") == kind and entry.get("key") == key):
        return None
    payload = entry.get("payload")
    if not isinstance(payload, dict) or entry.get("sha256") != checksum(payload):
        return None
    try:
        return decode(payload)
    except Exception:  # a payload the caller cannot read is a miss, by design
        return None


def store(kind: str, key: dict, payload: dict) -> None:
    """Atomically write ``payload`` under ``key``; an unwritable cache is skipped."""
    from verify.files import write_atomic

    path = _path(kind, key)
    entry = {"schema": SCHEMA_VERSION, "kind": kind, "key": key, "sha256": checksum(payload),
             "payload": payload}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps(entry, sort_keys=True))
    except OSError:
        # A read-only or full cache directory must not break a computation.
        return
