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
same kind and key, an HMAC-SHA256 of all of these made with the user's cache key (see
below), no NaN or infinity and no control character anywhere in the payload, and a payload
the caller's ``decode`` accepts (each decoder checks types, ranges and finiteness).  The key's
digest includes the package version, so a fixed formula is never served from an entry an older
release wrote.  Anything else (a torn or
truncated file, JSON of the wrong type, an altered digit, an older schema, a payload the
caller cannot read) is a miss: the caller recomputes and :func:`store` rewrites the entry,
so a damaged cache heals itself and never changes a result.  Writes are atomic
(:func:`verify.base.files.write_atomic`).

What the cache trusts, and why.  A checksum anyone can recompute protects against accidents
only: an entry whose value was changed and whose SHA-256 was recomputed used to be served, and
a changed certified ball then made a false ``mu(1) <= 1/2`` hold (certified).  So every entry
is authenticated with a 256-bit key that lives *outside* the cache directory: the file named
by ``$VERIFY_CACHE_KEY`` if set, else ``cache.key`` in the user configuration directory
(``~/.config/verify/cache.key`` on Linux), created with mode 0600 on first use.  Whoever can
write the cache directory (a shared CI cache, a restored archive, another tool) but cannot
read the key cannot make an entry the suite will serve; an entry written under another key
(another machine, a deleted key) is a miss and is recomputed.  The key is used only if it is a
regular file (not a link) owned by the user, readable and writable by nobody else, holding 64
hexadecimal digits, and not inside the cache directory; otherwise the cache is off (every
load a miss, nothing stored) and results are computed afresh, never served unauthenticated.
The cache trusts the key file and the code; anyone who can read the key can forge entries,
which is why it is 0600.  That is also why no certified result is ever stored here: the balls
behind a *certified* verdict, and the numbers shown beside it, are computed by the process that
reports them (:func:`verify.certified.balls.computed_here`), so not even an entry signed with the
key can make or explain one.  The cache serves only what numerical and statistical evidence
uses (mpmath coefficients and series, counterexample searches, the counts of a sampled
``--prob`` configuration, the ``verify hermite`` report, and the whole outcome of a check that
statistical, numerical or high-precision evidence decided, :mod:`verify.checks.outcome_cache`;
:mod:`verify.base.evidence_cache` keys the searches and series by the code's fingerprint).  Strings in a
payload may hold no control character, so text that came from the cache cannot drive the
terminal when it is printed.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import re
import secrets
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from verify.base.files import OutputPathError, write_atomic

CACHE_ENV = "VERIFY_CACHE_DIR"
#: The file holding the key that authenticates entries (default: user config dir / cache.key).
KEY_ENV = "VERIFY_CACHE_KEY"
#: The installed distribution's name (pyproject.toml's [project] name; the package is ``verify``).
DISTRIBUTION = "lowrank-verify"
#: Bump when the stored payload changes meaning; entries of another version are misses.
SCHEMA_VERSION = 3
#: Largest entry read: a 1000-term, 2000-digit Hermite report is about 4 MB.
MAX_ENTRY_BYTES = 64 << 20
_NON_FINITE = re.compile(r"^\s*[+-]?(nan|inf|infinity)\s*$", re.I)
#: C0 and C1 control characters and DEL: never in a payload's text (they would reach a terminal).
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_KEY_TEXT = re.compile(rb"^[0-9a-f]{64}\n?$")

T = TypeVar("T")


def cache_dir() -> Path:
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    # lazy: only when no VERIFY_CACHE_DIR override is set
    import platformdirs

    return Path(platformdirs.user_cache_dir("verify"))


def key_path() -> Path:
    """Where the key that authenticates cache entries lives (see the module docstring)."""
    override = os.environ.get(KEY_ENV)
    if override:
        return Path(override)
    # lazy: only when no VERIFY_CACHE_KEY override is set
    import platformdirs

    return Path(platformdirs.user_config_dir("verify")) / "cache.key"


def _inside(path: Path | str, directory: Path, strictly: bool = False) -> bool:
    """Whether ``path`` resolves to ``directory`` (unless ``strictly``) or to a path below it."""
    real, root = os.path.realpath(path), os.path.realpath(directory)
    return (real == root and not strictly) or real.startswith(root.rstrip(os.sep) + os.sep)


def _open_regular(path: Path | str) -> tuple[int, os.stat_result] | None:
    """(a descriptor, its status) of ``path`` opened as a regular file, without following a
    link at its last component nor waiting on a FIFO (O_NONBLOCK; fstat then refuses it); else
    None.  The status is of the open file, so nothing can be swapped in between."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
    except OSError:
        os.close(fd)
        return None
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        return None
    return fd, info


def _read_key(path: Path) -> bytes | None:
    """The key in ``path`` if it is a private regular file of ours holding a key, else None."""
    opened = _open_regular(path)
    if opened is None:
        return None
    fd, info = opened
    try:
        if info.st_uid != os.geteuid() or stat.S_IMODE(info.st_mode) & 0o077 or info.st_size > 65:
            return None
        text = os.read(fd, 66)
    except OSError:
        return None
    finally:
        os.close(fd)
    return bytes.fromhex(text.strip().decode()) if _KEY_TEXT.match(text) else None


def _create_key(path: Path) -> None:
    """Write a fresh random key to ``path`` (0600) unless one is there: written to a new file and
    hard-linked into place, so concurrent first uses agree on one key and none reads a half key."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".cache.key.")  # mkstemp makes it 0600
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(secrets.token_hex(32).encode() + b"\n")
        with contextlib.suppress(FileExistsError):
            os.link(tmp, path)
    finally:
        os.unlink(tmp)


def _key() -> bytes | None:
    """The user's cache key, created on first use; None (the cache is off) if it cannot be had
    safely: unwritable, not private, a link, or inside the cache directory it would vouch for."""
    path = key_path()
    if _inside(path, cache_dir()):
        return None
    key = _read_key(path)
    if key is None and not os.path.lexists(path):
        try:
            _create_key(path)
        except OSError:
            return None
        key = _read_key(path)
    return key


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _package_version() -> str:
    """The installed package's version, from its metadata (importing ``verify`` itself from here
    would close an import cycle: the package's __init__ reaches the claims, which use the cache)."""
    # lazy: importlib.metadata reads the installed distribution's files; only a cache write needs it
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:  # run from a source tree without an install
        return "source"


def _path(kind: str, key: dict) -> Path:
    identity = {"v": SCHEMA_VERSION, "package": _package_version(), "kind": kind, **key}
    digest = hashlib.sha256(_canonical(identity).encode()).hexdigest()
    return cache_dir() / kind / f"{digest[:32]}.json"


def _read_entry(path: Path) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of bounded size inside the cache dir, else None."""
    if not _inside(path, cache_dir(), strictly=True):
        return None  # a link pointing out of the cache directory
    opened = _open_regular(os.path.realpath(path))
    if opened is None:
        return None
    fd, info = opened
    try:
        if info.st_size > MAX_ENTRY_BYTES:
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


def _clean(value: Any, depth: int = 0) -> bool:
    """No NaN or infinity (as a float or as a decimal string) and no control character anywhere,
    in keys or values, nested at most 64 deep."""
    if depth > 64:
        return False
    if isinstance(value, float):
        return value == value and abs(value) != float("inf")
    if isinstance(value, str):
        return _NON_FINITE.match(value) is None and _CONTROL.search(value) is None
    if isinstance(value, dict):
        return all(_clean(k, depth + 1) and _clean(v, depth + 1) for k, v in value.items())
    if isinstance(value, list):
        return all(_clean(v, depth + 1) for v in value)
    return True


def checksum(payload: dict) -> str:
    """SHA-256 of the payload's canonical JSON (sorted keys, no spaces): names an entry's
    contents for people; it authenticates nothing (anyone can recompute it)."""
    return hashlib.sha256(_canonical(payload).encode()).hexdigest()


def _signature(key: bytes, entry: dict) -> str:
    """HMAC-SHA256 of everything in ``entry`` but its signature, under the user's cache key."""
    signed = {name: value for name, value in entry.items() if name != "hmac"}
    return hmac.new(key, _canonical(signed).encode(), hashlib.sha256).hexdigest()


def _identity(payload: dict) -> Any:
    return payload


def load(kind: str, key: dict, decode: Callable[[dict], T] = _identity) -> T | None:
    """``decode(payload)`` of the entry stored under ``key``, or None on a miss or an invalid entry.

    ``decode`` turns the payload into the caller's object; any exception it raises marks the
    entry invalid (a miss), so a payload of the wrong shape is recomputed, never served.
    """
    secret = _key()
    if secret is None:
        return None
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
    payload, signature = entry.get("payload"), entry.get("hmac")
    if not (isinstance(payload, dict) and isinstance(signature, str)
            and hmac.compare_digest(signature, _signature(secret, entry)) and _clean(payload)):
        return None
    try:
        return decode(payload)
    except Exception:  # a payload the caller cannot read is a miss, by design
        return None


def store(kind: str, key: dict, payload: dict) -> None:
    """Atomically write ``payload`` under ``key``, signed with the user's cache key; an
    unwritable cache, a missing key or a payload :func:`load` would refuse is skipped."""
    secret = _key()
    if secret is None or not _clean(payload):
        return
    try:
        path = _path(kind, key)
        entry = {"schema": SCHEMA_VERSION, "package": _package_version(), "kind": kind, "key": key,
                 "sha256": checksum(payload), "payload": payload}
        entry["hmac"] = _signature(secret, entry)
        text = json.dumps(entry, sort_keys=True)
    except (TypeError, ValueError):  # a value JSON cannot write (a NumPy scalar): not stored
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text)
    except (OSError, OutputPathError):
        # A read-only or full cache directory (write_atomic says "no room" as an OutputPathError)
        # must not break a computation: the entry is simply not stored.
        return
