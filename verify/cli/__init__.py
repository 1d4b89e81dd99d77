"""The ``verify`` command line.

Each subcommand lives in its own module with ``add_parser(subparsers)`` and
``run(args) -> int``.  Bad input (a :class:`~verify.base.errors.VerifyInputError`
or an argparse error) prints one line ``verify: error: ...`` and exits 2; a
numerical failure exits 1 with its message; anything else is a crash.  Every
subcommand takes ``--force``, which runs sizes beyond :data:`verify.base.validation.SIZE_LIMITS`
instead of refusing them.  Output piped into a program that stops reading (``| head``)
ends the command quietly, as for any Unix filter.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import os
import signal
import sys
import threading

from verify.base.errors import ConvergenceError, VerifyInputError, escape_controls

EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit status 2."""

    def error(self, message: str):
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        sys.exit(EXIT_USAGE)


class _VersionAction(argparse.Action):
    """``--version``, computed only when asked (it runs git)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        # lazy: `import verify.cli` stays light (the fingerprint hashes the package's files)
        from verify.base.fingerprint import version_line

        print(version_line())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    # lazy: the entry point loads its subcommands and options when the parser is built, and the
    # subcommands import the package they drive, so `import verify.cli` itself stays light
    from verify.cli import (
        bench_cmd,
        calibrate_cmd,
        check_cmd,
        claim_cmd,
        completion_cmd,
        derive_cmd,
        figures_cmd,
        grad_cmd,
        hermite_cmd,
        instance_cmd,
        kernel_cmd,
        ledger_cmd,
        population_cmd,
        regions_cmd,
        series_cmd,
        show_cmd,
        simulate_cmd,
    )
    from verify.cli.arguments import memory_limit, time_limit

    parser = OneLineParser(
        prog="verify",
        description="Symbolic-numeric verification suite for Dayı & Chen, "
        "'Low-rank fine-tuning lies between lazy training and feature learning'.",
    )
    parser.add_argument("--follow-symlinks", action="store_true",
                        help="an output path that is a symbolic link writes to the file it points at "
                             "(by default such a path is refused: never replaced, never written through); "
                             "a directory, device, FIFO or socket is refused either way")
    parser.add_argument("--version", action=_VersionAction,
                        help="print the version, the commit of the checkout it runs from, and exit")
    # `verify completion` writes its script from this parser, handed to it in the parsed arguments
    parser.set_defaults(root_parser=parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    sub.required = True
    for module in (
        check_cmd, show_cmd, claim_cmd, hermite_cmd, kernel_cmd, instance_cmd, population_cmd, series_cmd,
        derive_cmd, bench_cmd, grad_cmd, simulate_cmd, figures_cmd, regions_cmd, calibrate_cmd, ledger_cmd,
        completion_cmd,
    ):
        module.add_parser(sub)
    for command in sub.choices.values():
        command.add_argument("--force", action="store_true",
                             help="run sizes beyond the stated limits instead of refusing them")
        command.add_argument("--time-limit", type=time_limit, default=None, metavar="SECONDS",
                             help="CPU-time limit of each piece of symbolic work on untrusted text "
                                  "(default 8 CPU s; a wall-clock safety cap of 4x + 10 s stays; "
                                  "--force does not lift it)")
        command.add_argument("--memory-limit", type=memory_limit, default=None, metavar="MIB",
                             help="memory limit of each piece of symbolic work (default 1024 MiB)")
    return parser


def _stdout_closed() -> int:
    """The reader of stdout went away: point stdout at /dev/null so the interpreter's final
    flush cannot raise again, and exit like a filter killed by SIGPIPE would (128 + 13)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 141


def _tolerant_streams() -> None:
    """Text that the terminal's encoding cannot show is escaped, never a traceback: a file name
    that is not UTF-8 (its bytes arrive as surrogates) or a μ under ``PYTHONIOENCODING=ascii``
    used to end in a UnicodeEncodeError after the work was done and the files written."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, io.UnsupportedOperation):
                reconfigure(errors="backslashreplace")


class _EscapingStdout:
    """sys.stdout for the length of a command, with control characters other than newline and tab
    escaped (``wrote a<ESC>[2Jb.json`` reached the terminal raw), and a failed write (a full disk
    behind ``> file``) raised as :class:`StdoutWriteError`; everything else is the stream's own."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        with _stdout_failures():
            self._stream.write(escape_controls(text, keep="\n\t"))
        return len(text)

    def flush(self) -> None:
        with _stdout_failures():
            self._stream.flush()

    def __getattr__(self, name):
        return getattr(self._stream, name)


@contextlib.contextmanager
def _stdout_failures():
    """An OSError of stdout as :class:`StdoutWriteError` (a closed pipe stays BrokenPipeError)."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise StdoutWriteError(exc.errno, exc.strerror) from None


class StdoutWriteError(OSError):
    """Writing stdout failed (a full disk behind ``> file``, /dev/full)."""


@contextlib.contextmanager
def _escaped_stdout():
    saved = sys.stdout
    if saved is None:  # started with stdout closed (>&-): the printed lines go nowhere, files still do
        yield
        return
    sys.stdout = _EscapingStdout(saved)
    try:
        yield
    finally:
        sys.stdout = saved


#: Write errors that are the destination's, not the suite's: one line, exit 2.
_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}


class Terminated(BaseException):
    """SIGTERM arrived: unwinds like Ctrl-C, so pools stop their workers and writes roll back."""


@contextlib.contextmanager
def _terminate_cleanly():
    """While a command runs, SIGTERM raises :class:`Terminated` in the main thread instead of
    killing the process outright: an outright kill skipped every cleanup, and the process pool
    of ``verify regions`` kept computing under PID 1.  Only where SIGTERM has its default action
    (an application embedding :func:`main` keeps its own handler)."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL):
        yield
        return

    def terminate(signum, frame):
        raise Terminated

    signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _memory_limit_text() -> str:
    # lazy: resource (POSIX only) is needed only to word an out-of-memory error
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return ("no address-space limit" if soft == resource.RLIM_INFINITY
            else f"the address-space limit of {soft >> 20} MiB (ulimit -v {soft >> 10})")


def main(argv: list[str] | None = None) -> int:
    _tolerant_streams()
    parser = build_parser()
    args = parser.parse_args(argv)
    # lazy: the budget (NumPy, through validation) loads only when a command runs, not for --help
    # or a usage error
    from verify.base.budget import limits
    from verify.base.files import follow_symlinks
    from verify.base.validation import allow_large_sizes

    try:
        memory = None if args.memory_limit is None else int(args.memory_limit * 2**20)
        with allow_large_sizes(args.force), limits(args.time_limit, memory), \
                follow_symlinks(args.follow_symlinks), _terminate_cleanly(), _escaped_stdout():
            status = int(args.run(args) or EXIT_OK)
            if sys.stdout is not None:
                sys.stdout.flush()  # a full disk behind `> file` shows here, inside the handlers
            return status
    except Terminated:
        sys.stderr.write("verify: terminated\n")
        return 128 + signal.SIGTERM
    except BrokenPipeError:
        return _stdout_closed()
    except StdoutWriteError as exc:
        _stdout_closed()  # the interpreter's last flush at exit must not fail again
        sys.stderr.write(f"verify {args.command}: error: cannot write stdout: {exc.strerror}\n")
        return EXIT_USAGE
    except OSError as exc:
        if exc.errno not in _FULL:
            raise
        # no room (ENOSPC, EDQUOT, EFBIG) or EIO outside write_atomic, which reports its own
        sys.stderr.write(f"verify {args.command}: error: cannot write: {exc.strerror}\n")
        return EXIT_USAGE
    except VerifyInputError as exc:
        sys.stderr.write(f"verify {args.command}: error: {exc}\n")
        return EXIT_USAGE
    except ValueError as exc:
        if "integer string conversion" not in str(exc):
            raise
        # Only reachable under --force, which lets integers of thousands of digits through.
        sys.stderr.write(f"verify {args.command}: error: a number of more than 4300 digits arose, beyond "
                         "Python's integer-to-text limit (drop --force to have it refused earlier)\n")
        return EXIT_USAGE
    except ConvergenceError as exc:
        sys.stderr.write(f"verify {args.command}: numerical failure: {exc}\n")
        return EXIT_FAILURE
    except KeyboardInterrupt:
        sys.stderr.write("verify: interrupted\n")
        return 130
    except MemoryError:
        # The inputs' sizes are checked before anything is allocated; this is the net under an
        # address-space limit (ulimit -v) smaller than what a size within the limits needs.
        sys.stderr.write(f"verify {args.command}: error: out of memory under {_memory_limit_text()}; "
                         "give smaller sizes or allow more memory\n")
        return EXIT_USAGE
