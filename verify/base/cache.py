"""The on-disk cache for expensive high-precision results.

Entries are JSON files named by the SHA-256 of their key, under
``$VERIFY_CACHE_DIR`` if set, else the user cache directory
(``platformdirs.user_cache_dir("verify")``, e.g. ``~/.cache/verify``).  Set
``VERIFY_CACHE_DIR`` to an empty temporary directory to run cold.

An entry is read only if it is a regular file of at most :data:`MAX_ENTRY_BYTES` that
resolves to a path inside the cache directory: a FIFO (which would block forever), a device,
or a link out of the directory (to ``/dev/zero``, say) is a miss, checked on the open file
descriptor so nothing can be swapped in between.  It is trusted only if it validates
completely: a JSON object with the current :data:`SCHEMA_VERSION` and package version, the
same kind and key, a payload object whose SHA-256 matches the stored checksum, no NaN or
infinity anywhere in it, and a payload the caller's ``decode`` accepts (each decoder checks
types, ranges and finiteness, so a value altered together with a recomputed checksum is a
miss too).  The key's digest includes the package version, so a fixed formula is never
served from an entry an older release wrote.  Anything else (a torn or
truncated file, JSON of the wrong type, an altered digit, an older schema, a payload the
caller cannot read) is a miss: the caller recomputes and :func:`store` rewrites the entry,
so a damaged cache heals itself and never changes a result.  Writes are atomic
(:func:`verify.base.files.write_atomic`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from verify.base.files import write_atomic

CACHE_ENV = "VERIFY_CACHE_DIR"
#: Bump when the stored payload changes meaning; entries of another version are misses.
SCHEMA_VERSION = 2
#: Largest entry read: a 1000-term, 2000-digit Hermite report is about 4 MB.
MAX_ENTRY_BYTES = 64 << 20
_NON_FINITE = re.compile(r"^\s*[+-]?(nan|inf|infinity)\s*$", re.I)

T = TypeVar("T")


def cache_dir() -> Path:
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    # lazy: only when no VERIFY_CACHE_DIR override is set
    import platformdirs

    return Path(platformdirs.user_cache_dir("verify"))


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _package_version() -> str:
    """The installed package's version, from its metadata (importing ``verify`` itself from here
    would close an import cycle: the package's __init__ reaches the claims, which use the cache)."""
    # lazy: importlib.metadata reads the installed distribution's files; only a cache write needs it
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("verify")
    except PackageNotFoundError:  # run from a source tree without an install
        return "source"


def _path(kind: str, key: dict) -> Path:
    identity = {"v": SCHEMA_VERSION, "package": _package_version(), "kind": kind, **key}
    digest = hashlib.sha256(_canonical(identity).encode()).hexdigest()
    return cache_dir() / kind / f"{digest[:32]}.json"


def _read_entry(path: Path) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of bounded size inside the cache dir, else None."""
    root = os.path.realpath(cache_dir())
    real = os.path.realpath(path)
    if not real.startswith(root.rstrip(os.sep) + os.sep):
        return None  # a link pointing out of the cache directory
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
        fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
            return None
        chunks, left = [], MAX_ENTRY_BYTES + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        return data if len(data) <= MAX_ENTRY_BYTES else None
    except OSError:
        return None
    finally:
        os.close(fd)


def _refuse_constant(name: str):
    raise ValueError(f"non-finite number {name} in a cache entry")


def _finite(value: Any, depth: int = 0) -> bool:
    """No NaN or infinity anywhere (as a float or as a decimal string), nested at most 64 deep."""
    if depth > 64:
        return False
    if isinstance(value, float):
        return value == value and abs(value) != float("inf")
    if isinstance(value, str):
        return _NON_FINITE.match(value) is None
    if isinstance(value, dict):
        return all(_finite(v, depth + 1) for v in value.values())
    if isinstance(value, list):
        return all(_finite(v, depth + 1) for v in value)
    return True


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
    data = _read_entry(_path(kind, key))
    if data is None:
        return None
    try:
        entry = json.loads(data.decode("utf-8"), parse_constant=_refuse_constant)
    except (ValueError, RecursionError):
        return None
    if not (isinstance(entry, dict) and entry.get("schema") == SCHEMA_VERSION
            and entry.get("package") == _package_version()
            and entry.get("kind") == kind and entry.get("key") == key):
        return None
    payload = entry.get("payload")
    if not isinstance(payload, dict) or entry.get("sha256") != checksum(payload) or not _finite(payload):
        return None
    try:
        return decode(payload)
    except Exception:  # a payload the caller cannot read is a miss, by design
        return None


def store(kind: str, key: dict, payload: dict) -> None:
    """Atomically write ``payload`` under ``key``; an unwritable cache is skipped."""

    path = _path(kind, key)
    entry = {"schema": SCHEMA_VERSION, "package": _package_version(), "kind": kind, "key": key,
             "sha256": checksum(payload),
             "payload": payload}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps(entry, sort_keys=True))
    except OSError:
        # A read-only or full cache directory must not break a computation.
        return
