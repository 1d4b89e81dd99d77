"""Writing results: one atomic write and one up-front check of every output path.

Every file the suite writes (reports, trajectories, instances, derivations, figures, cache
entries) goes through :func:`write_atomic`: a new regular file beside the target, renamed over
the target only when the target is absent or a regular file, and removed if anything fails
(an exception, a full disk, Ctrl-C), so a failed or interrupted write leaves the old file
intact and no partial file behind.  Every command checks its output paths with
:func:`output_file` or :func:`output_directory` *before* it computes anything, so a bad path
costs one line and no lost work.

What an output path may be (the same rule in the up-front check and in the write itself):

- absent, or a regular file (which is replaced; it keeps its permission bits);
- never a directory, a device (``/dev/null``), a FIFO or a socket: refused, because renaming a
  file over them would replace something that is not the suite's (run as root, that replaced a
  machine's ``/dev/null``);
- a symbolic link only when the user asks to write to the file it points at
  (``verify --follow-symlinks ...``, :func:`follow_symlinks`); by default a link is refused
  rather than replaced or written through.

A new file gets the mode the umask gives (``0o666 & ~umask``), as ``open()`` would give it.
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import os
import signal
import stat
import tempfile
import threading
import tomllib
from collections.abc import Iterator
from pathlib import Path

from verify.base.errors import InvalidParameterError


class OutputPathError(InvalidParameterError):
    """An output path cannot be written (missing or unwritable directory, a directory as file,
    a device, FIFO or socket, a symbolic link not asked for, a full disk)."""


class SamePathError(OutputPathError):
    """Two outputs are one file, or an output would overwrite an input."""


#: Whether an output path that is a symbolic link is followed (set by ``verify --follow-symlinks``).
_FOLLOW_SYMLINKS: contextvars.ContextVar[bool] = contextvars.ContextVar("follow_symlinks", default=False)
_UMASK_LOCK = threading.Lock()
#: Errors of a write that ran out of room: reported as one line, never as a traceback.
_NO_ROOM = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


@contextlib.contextmanager
def follow_symlinks(follow: bool = True) -> Iterator[None]:
    """Within the block, an output path that is a symbolic link writes to the file it points at
    (the link stays) instead of being refused."""
    token = _FOLLOW_SYMLINKS.set(follow)
    try:
        yield
    finally:
        _FOLLOW_SYMLINKS.reset(token)


def _same(a: Path, b: Path) -> bool:
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)  # hard links, bind mounts
    except OSError:
        return False


def distinct_paths(outputs: dict[str, str | os.PathLike[str] | None],
                   inputs: dict[str, str | os.PathLike[str] | None] | None = None) -> None:
    """Raise :class:`SamePathError` if two ``outputs`` are one file or an output is an input.

    Keys name the options (``"--json"``); None values are skipped.  Links are resolved, so
    ``--json r.out --markdown ./link-to-r.out`` is refused too.  Called before any work, so
    one report can never be written over the other, nor a result over the file it was read from.
    """
    named_out = [(k, Path(v)) for k, v in outputs.items() if v is not None]
    named_in = [(k, Path(v)) for k, v in (inputs or {}).items() if v is not None]
    for i, (name, path) in enumerate(named_out):
        for other, other_path in named_out[i + 1:]:
            if _same(path, other_path):
                raise SamePathError(f"{name} {str(path)!r} and {other} {str(other_path)!r} are the same "
                                    "file; each output needs its own path")
        for other, other_path in named_in:
            if _same(path, other_path):
                raise SamePathError(f"{name} {str(path)!r} is the input {other} {str(other_path)!r}; "
                                    "writing it would destroy the input")


def _kind(mode: int) -> str:
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _target(path: Path, what: str) -> tuple[Path, os.stat_result | None]:
    """The file to replace for the output ``path`` and its current status (None when absent):
    ``path`` itself, or with :func:`follow_symlinks` the file a link points at.  Anything that is
    not absent or a regular file is refused with :class:`OutputPathError`."""
    if not str(path):
        raise OutputPathError(f"{what} is empty; give a file name")
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return path, None
    except OSError as exc:
        raise OutputPathError(f"{what} {str(path)!r} cannot be examined ({exc.strerror})") from None
    if stat.S_ISLNK(info.st_mode):
        if not _FOLLOW_SYMLINKS.get():
            raise OutputPathError(f"{what} {str(path)!r} is a symbolic link; it is neither replaced nor "
                                  "written through unless asked (verify --follow-symlinks ...)")
        real = Path(os.path.realpath(path))
        if os.path.islink(real):
            raise OutputPathError(f"{what} {str(path)!r} is a loop of symbolic links")
        return _target(real, what)
    if stat.S_ISDIR(info.st_mode):
        raise OutputPathError(f"{what} {str(path)!r} is a directory, not a file path")
    if not stat.S_ISREG(info.st_mode):
        raise OutputPathError(f"{what} {str(path)!r} is {_kind(info.st_mode)}, not a regular file; "
                              "the suite writes only regular files and never replaces anything else")
    return path, info


def _umask() -> int:
    with _UMASK_LOCK:  # os.umask can only be read by setting it
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


def write_atomic(path: str | os.PathLike[str], data: str | bytes, what: str = "output file") -> None:
    """Write ``data`` to ``path`` through a new file beside it that is renamed into place (text as
    UTF-8, '\\n'); see the module docstring for what ``path`` may be.  A full disk or quota is an
    :class:`OutputPathError` (one line), and nothing partial is left behind."""
    write_set([(path, data, what)])


def write_set(files: list[tuple[str | os.PathLike[str], str | bytes, str]]) -> None:
    """Write several files as one generation: every (path, data, what) is first written in full
    to a new file beside its target (a full disk fails here, before any target changes), then all
    are renamed into place with SIGINT and SIGTERM held back, so that a Ctrl-C cannot leave a new
    report.json beside an old report.html.  (A SIGKILL between two renames still can: nothing
    in user space prevents that.)"""
    pending = _GENERATION.get()
    staged: list[tuple[str, Path, str, str | os.PathLike[str]]] = []
    try:
        for path, data, what in files:
            target, tmp = _stage(Path(path), data, what)
            staged.append((tmp, target, what, path))
        if pending is not None:  # inside one_generation(): renamed with the rest at its end
            pending.extend(staged)
            return
        _commit(staged)
    except OSError as exc:
        for tmp, *_ in staged:
            Path(tmp).unlink(missing_ok=True)
        if exc.errno in _NO_ROOM:
            raise OutputPathError(f"{staged[-1][2] if staged else 'output file'}: no room to write it "
                                  f"({exc.strerror}); the old files, if any, are unchanged") from None
        raise
    except BaseException:
        for tmp, *_ in staged:
            Path(tmp).unlink(missing_ok=True)
        raise


#: The files staged inside :func:`one_generation` (None outside it).
_GENERATION: contextvars.ContextVar[list | None] = contextvars.ContextVar("generation", default=None)


@contextlib.contextmanager
def one_generation():
    """Every :func:`write_atomic` and :func:`write_set` inside this block is staged, and all are
    renamed into place together when it ends without an error (SIGINT and SIGTERM held back), or
    none is: a figure's PNG, CSV and JSON, written at different moments of its run, appear as one
    generation."""
    pending: list = []
    token = _GENERATION.set(pending)
    try:
        yield
    except BaseException:
        for tmp, *_ in pending:
            Path(tmp).unlink(missing_ok=True)
        raise
    finally:
        _GENERATION.reset(token)
    try:
        _commit(pending)
    except BaseException:
        for tmp, *_ in pending:
            Path(tmp).unlink(missing_ok=True)
        raise


def _commit(staged: list) -> None:
    """Rename each staged file into place, with SIGINT and SIGTERM held back until all are."""
    with _held_signals():
        for tmp, target, what, _ in staged:
            _target(target, what)  # the target may have changed kind while the data was written
            os.replace(tmp, target)


@contextlib.contextmanager
def _held_signals():
    """SIGINT and SIGTERM recorded, not acted on, within the block, then delivered again to their
    own handlers.  A signal mask would not do: it is per thread, and a process with other threads
    (an executor's, a runner's) takes the signal on one of those, whose flag the main thread then
    acts on between two renames.  Only the main thread can set handlers; elsewhere nothing is held."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []

    def hold(signum, frame):
        received.append(signum)

    previous = {number: signal.signal(number, hold) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        for number in dict.fromkeys(received):
            signal.raise_signal(number)


def _stage(path: Path, data: str | bytes, what: str) -> tuple[Path, str]:
    """(the target, a new file beside it holding ``data`` with the target's mode)."""
    target, info = _target(path, what)
    mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        if exc.errno in _NO_ROOM:
            raise OutputPathError(f"{what} {str(path)!r}: no room to write it ({exc.strerror})") from None
        raise  # the caller's own error (e.g. an instance file's InstanceFileError) names the path
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        if exc.errno in _NO_ROOM:
            raise OutputPathError(f"{what} {str(path)!r}: no room to write it ({exc.strerror}); "
                                  "the old file, if any, is unchanged") from None
        raise
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target, tmp


class NotRegularFileError(OSError):
    """An input is a FIFO, a device, a socket or a directory, not a regular file."""


class TooLargeError(ValueError):
    """A file is larger than the limit its reader sets."""


def read_limited(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of ``path``, or :class:`TooLargeError` if it holds more than ``limit``.

    Read in chunks of at most 1 MiB: ``handle.read(limit + 1)`` reserves ``limit + 1`` bytes up
    front, so a 100-byte file under a 1 GB address-space limit (``ulimit -v``) failed with a
    MemoryError before a byte was read.  Memory grows with the file, never with the limit."""
    # O_NONBLOCK: opening a FIFO for reading waits for a writer, forever; fstat then tells a FIFO,
    # a device or a directory from a regular file on the descriptor itself (a link is followed)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        os.close(fd)
        raise
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", str(path))
        raise NotRegularFileError(errno.EINVAL, f"{_kind(mode)}, not a regular file", str(path))
    chunks, total = [], 0
    with os.fdopen(fd, "rb") as handle:
        while chunk := handle.read(min(1 << 20, limit + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise TooLargeError(f"larger than the limit of {limit} bytes")
    return b"".join(chunks)


def read_input(path: Path, limit: int, what: str, error: type[Exception]) -> bytes:
    """The bytes of the input file ``path`` (a regular file of at most ``limit`` bytes), or
    ``error`` naming it as ``what``."""
    try:
        return read_limited(path, limit)  # which checks the kind on the opened descriptor
    except (NotRegularFileError, IsADirectoryError, FileNotFoundError, NotADirectoryError):
        raise error(f"{what} {str(path)!r} is not a regular file") from None
    except TooLargeError:
        raise error(f"{what} {str(path)!r} is larger than {limit} bytes") from None
    except OSError as exc:
        raise error(f"{what} {str(path)!r} cannot be read ({exc.strerror})") from None


def read_toml(path: Path, limit: int, what: str, error: type[Exception]) -> dict:
    """The TOML input file ``path``, parsed (data only: tomllib builds no objects), or ``error``
    naming it: not a bounded regular file, not UTF-8, not TOML, or nested too deeply."""
    data = read_input(path, limit, what, error)
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise error(f"{what} {str(path)!r} is not valid TOML ({exc})") from None
    except RecursionError:  # tomllib parses nested arrays and inline tables recursively
        raise error(f"{what} {str(path)!r} is nested too deeply (arrays or inline tables inside each "
                    "other)") from None


def _probe(directory: Path) -> None:
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".verify-probe.")
    os.close(fd)
    os.remove(tmp)


def output_file(path: str | os.PathLike[str], what: str = "output file") -> Path:
    """``path`` as a :class:`Path` if a file can be written there; else :class:`OutputPathError`.

    The directory must exist already: a typo in a directory name is an error, not a new tree.
    The path itself must be absent or a regular file (see the module docstring).
    """
    if not str(path):
        raise OutputPathError(f"{what} is empty; give a file name")
    target, _ = _target(Path(path), what)
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise OutputPathError(f"{what} {str(path)!r}: directory {str(parent)!r} does not exist")
    try:
        _probe(parent)
    except OSError as exc:
        raise OutputPathError(f"{what} {str(path)!r}: directory {str(parent)!r} is not writable "
                              f"({exc.strerror or type(exc).__name__})") from None
    return Path(path)


def output_directory(path: str | os.PathLike[str], what: str = "output directory",
                     writes: tuple[str, ...] = ()) -> Path:
    """``path``, created if needed, if files can be written in it; else :class:`OutputPathError`.
    An empty path is refused (it would silently mean the current directory).  ``writes``: glob
    patterns of the files the command will write there; an entry already matching one must be
    a file :func:`output_file` accepts, so a link or a FIFO there is refused before any work (it
    was found only when the results were written, minutes later)."""
    if not str(path):
        raise OutputPathError(f"{what} is empty; give a directory (use '.' for the current one)")
    path = Path(path)
    if path.is_symlink() and not _FOLLOW_SYMLINKS.get():
        raise OutputPathError(f"{what} {str(path)!r} is a symbolic link; it is not written through unless "
                              "asked (verify --follow-symlinks ...)")
    try:
        path.mkdir(parents=True, exist_ok=True)
        _probe(path)
    except OSError as exc:
        raise OutputPathError(f"{what} {str(path)!r} is not writable as a directory "
                              f"({exc.strerror or type(exc).__name__})") from None
    for pattern in writes:
        for entry in sorted(path.glob(pattern)):
            output_file(entry, what)
    return path
