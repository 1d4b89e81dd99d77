"""Writing results: one atomic write and one up-front check of every output path.

Every file the suite writes (reports, trajectories, instances, derivations, figures, cache
entries) goes through :func:`write_atomic`: a temporary file in the target's directory,
renamed over the target, and removed if anything fails, so a crash never leaves a torn or
stray file.  Every command checks its output paths with :func:`output_file` or
:func:`output_directory` *before* it computes anything, so a bad path costs one line and
no lost work.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from verify.base.errors import InvalidParameterError


class OutputPathError(InvalidParameterError):
    """An output path cannot be written (missing or unwritable directory, a directory as file)."""


class SamePathError(OutputPathError):
    """Two outputs are one file, or an output would overwrite an input."""


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


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file that is renamed (text as UTF-8, '\\n')."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".", prefix=f".{path.name}.",
                               suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _probe(directory: Path) -> None:
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".verify-probe.")
    os.close(fd)
    os.remove(tmp)


def output_file(path: str | os.PathLike[str], what: str = "output file") -> Path:
    """``path`` as a :class:`Path` if a file can be written there; else :class:`OutputPathError`.

    The directory must exist already: a typo in a directory name is an error, not a new tree.
    """
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise OutputPathError(f"{what} {str(path)!r} is a directory, not a file path")
    if not parent.is_dir():
        raise OutputPathError(f"{what} {str(path)!r}: directory {str(parent)!r} does not exist")
    try:
        _probe(parent)
    except OSError as exc:
        raise OutputPathError(f"{what} {str(path)!r}: directory {str(parent)!r} is not writable "
                              f"({exc.strerror or type(exc).__name__})") from None
    return path


def output_directory(path: str | os.PathLike[str], what: str = "output directory") -> Path:
    """``path``, created if needed, if files can be written in it; else :class:`OutputPathError`."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
        _probe(path)
    except OSError as exc:
        raise OutputPathError(f"{what} {str(path)!r} is not writable "
                              f"({exc.strerror or type(exc).__name__})") from None
    return path
