"""argparse types that reject bad values with a one-line message naming them.

Each type parses the text and hands the value to :mod:`verify.base.validation`, the one home of
the suite's domains, so the command line and the Python API accept exactly the same values.
Size *limits* are not enforced here but by the API, where ``--force`` can lift them.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TypeVar

from verify.base.errors import VerifyInputError
from verify.cli.choices import MIN_DPS

T = TypeVar("T")

#: Longest number text accepted: a count or a real longer than this is a typo or an attack.
MAX_NUMBER_TEXT = 64
#: Longest wait for a dask scheduler: an hour is already far beyond any real start-up.
MAX_TIMEOUT = 3600.0


def _parsed(text: str, convert: Callable[[str], T], requirement: str) -> T:
    if len(text) > MAX_NUMBER_TEXT:
        raise argparse.ArgumentTypeError(f"must be {requirement}, got a {len(text)}-character string")
    try:
        return convert(text)
    except (ValueError, OverflowError):
        raise argparse.ArgumentTypeError(f"must be {requirement}, got {text!r}") from None


def _validated(check: Callable[[], T]) -> T:
    try:
        return check()
    except VerifyInputError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def file_path(text: str) -> Path:
    """A file or directory argument: an empty string names none (``Path("")`` would be the current
    directory, so ``ledger status ''`` read the working directory as a pack)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path names no file or directory")
    if "\x00" in text:
        raise argparse.ArgumentTypeError("a path cannot hold a NUL character")
    return Path(text)


def _integer(text: str, name: str, minimum: int) -> int:
    # lazy: verify.base.validation imports NumPy, which the parser (--help, usage errors) must not load
    from verify.base import validation

    value = _parsed(text, int, f"an integer >= {minimum}")
    return _validated(lambda: validation.count(name, value, minimum=minimum))


def _real(text: str, name: str, **domain) -> float:
    # lazy: verify.base.validation imports NumPy, which the parser (--help, usage errors) must not load
    from verify.base import validation

    value = _parsed(text, float, "a finite real number")
    return _validated(lambda: validation.real(name, value, **domain))


def positive_int(text: str) -> int:
    """A count: terms, steps, k, d."""
    return _integer(text, "count", 1)


def non_negative_int(text: str) -> int:
    """A count that may be zero (e.g. Monte-Carlo samples per record, 0 = none)."""
    return _integer(text, "count", 0)


def seed(text: str) -> int:
    """A non-negative integer, as ``numpy.random.SeedSequence`` accepts."""
    return _integer(text, "seed", 0)


def precision(text: str) -> int:
    """Decimal digits; double precision is the floor."""
    return _integer(text, "dps", MIN_DPS)


def positive_real(text: str) -> float:
    """A finite real > 0 up to :data:`verify.base.validation.MAX_SCALE`, such as the scale ξ of eq. (3)."""
    # lazy: verify.base.validation imports NumPy, which the parser (--help, usage errors) must not load
    from verify.base.validation import MAX_SCALE

    return _real(text, "scale", low=0, high=MAX_SCALE, low_open=True)


def unit_interval(text: str) -> float:
    """A real in [0, 1], such as α = ‖Π_W u‖ of Fig. 5."""
    return _real(text, "fraction", low=0, high=1)


def correlation(text: str) -> str:
    """A correlation in [−1, 1], kept as text so that '0.37' is parsed at full precision later."""
    _real(text, "rho", low=-1, high=1, why="it is a correlation")
    return text


#: A decimal exponent beyond this is refused before it becomes a Fraction: Fraction('1e-99999999999')
#: builds 10^99999999999 and never returns.
MAX_DECIMAL_EXPONENT = 400
_EXPONENT = re.compile(r"[eE]\s*([+-]?\d+)\s*$")


def exact_decimal(text: str) -> Fraction:
    """The exact rational a decimal spells ('0.1' is 1/10), its exponent bounded first."""
    cleaned = text.strip().replace("_", "")
    found = _EXPONENT.search(cleaned)
    if found and abs(int(found.group(1))) > MAX_DECIMAL_EXPONENT:
        raise ValueError(f"exponent beyond +-{MAX_DECIMAL_EXPONENT}")
    return Fraction(cleaned)


class ExactReal(float):
    """A number typed on the command line: its double, plus the exact decimal it spells.

    Float paths use the double; the certified and high-precision paths read ``exact`` (a
    Fraction: '0.1' is 1/10) or ``text``, so ``verify h --m 0.1 --certified`` certifies h(1/10),
    the number printed, and not h of the double nearest it."""

    exact: Fraction
    text: str

    def __new__(cls, text: str, value: float):
        out = super().__new__(cls, value)
        out.exact, out.text = exact_decimal(text), text.strip()
        return out


def overlap(text: str) -> float:
    """m = ⟨u, û⟩ of unit vectors, in [−1, 1] (an :class:`ExactReal`)."""
    value = _real(text, "m", low=-1, high=1, why="it is the overlap <u, u_hat>")
    requirement = f"a finite decimal number (exponent within +-{MAX_DECIMAL_EXPONENT})"
    exact = _parsed(text, exact_decimal, requirement)
    if not -1 <= exact <= 1:
        raise argparse.ArgumentTypeError(
            f"m must lie in [-1, 1] (it is the overlap <u, u_hat>), got {text!r}")
    return ExactReal(text, value)


def open_overlap(text: str) -> float:
    """m = ⟨u, û⟩ strictly inside (−1, 1), where the direction u − m û is defined."""
    return _real(text, "m", low=-1, high=1, low_open=True, high_open=True,
                 why="at m = ±1 the direction u - m u_hat vanishes")


def step_size(text: str) -> float:
    """The SGD step size η of eq. (4): a finite real > 0."""
    return _real(text, "lr", low=0, low_open=True, why="the step size eta of eq. (4)")


def timeout_seconds(text: str) -> float:
    """Seconds to wait: finite, > 0 and at most :data:`MAX_TIMEOUT`."""
    return _real(text, "timeout", low=0, high=MAX_TIMEOUT, low_open=True, why="seconds")


def time_limit(text: str) -> float:
    """Seconds of symbolic work: finite, > 0, at most :data:`verify.base.budget.MAX_TIME_LIMIT`."""
    # lazy: verify.base.budget imports NumPy (through validation), which the parser must not load
    from verify.base.budget import MAX_TIME_LIMIT

    return _real(text, "time limit", low=0, high=MAX_TIME_LIMIT, low_open=True, why="seconds")


def memory_limit(text: str) -> float:
    """MiB of memory for symbolic work: at least 64, at most :data:`verify.base.budget.MAX_MEMORY_LIMIT`."""
    # lazy: verify.base.budget imports NumPy (through validation), which the parser must not load
    from verify.base.budget import MAX_MEMORY_LIMIT

    return _real(text, "memory limit", low=64, high=MAX_MEMORY_LIMIT / 2**20, why="MiB")


_ADDRESS = re.compile(r"^(?:(?:tcp|tls|ucx)://)?[A-Za-z0-9_.\-]+:(\d{1,5})$|^\[[0-9a-fA-F:]+\]:(\d{1,5})$")
#: dask's in-process transport (``LocalCluster(processes=False)``): inproc://host/pid/n.
_INPROC = re.compile(r"^inproc://[A-Za-z0-9_.\-]+/\d+/\d+$")


def add_scheduler_options(parser) -> None:
    """``--scheduler ADDRESS`` and ``--timeout SECONDS``, for the commands that sweep."""
    parser.add_argument("--scheduler", type=scheduler_address, default=None, metavar="ADDRESS",
                        help="dask.distributed scheduler (tcp://host:port); default: local processes")
    parser.add_argument("--timeout", type=timeout_seconds, default=10.0,
                        help="seconds to wait for the scheduler (default 10)")


def scheduler_address(text: str) -> str:
    """A dask scheduler address ``[tcp://]host:port`` with a port in 1..65535, or ``inproc://…``."""
    if len(text) <= 255 and _INPROC.match(text):
        return text
    match = _ADDRESS.match(text) if len(text) <= 255 else None
    port = int(next(g for g in match.groups() if g)) if match else 0
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"must be a scheduler address tcp://HOST:PORT, got {text!r}")
    return text


__all__ = ["correlation", "non_negative_int", "open_overlap", "overlap", "positive_int", "positive_real",
           "memory_limit", "precision", "scheduler_address", "seed", "step_size", "time_limit",
           "timeout_seconds", "unit_interval"]
