"""Exceptions for bad input.

Every error the suite raises for bad input is a :class:`VerifyInputError`, a
``ValueError`` subclass whose message is one line naming the offending value
and the assumption it breaks.  The command line prints that line and exits 2.
"""

import unicodedata


class VerifyInputError(ValueError):
    """Base class: an input value breaks an assumption of the suite or the paper."""


class UnknownActivationError(VerifyInputError):
    """The activation name is neither registered nor an ``expr:`` expression."""


class MalformedExpressionError(VerifyInputError):
    """An ``expr:`` activation does not parse as a real SymPy expression in ``x``."""


class NotSquareIntegrableError(VerifyInputError):
    """σ is not in L²(N(0,1)), so it has no Hermite expansion (paper §1.4)."""


class InvalidParameterError(VerifyInputError):
    """A numeric parameter is out of its domain (a count, a precision, a correlation...)."""


class ConvergenceError(RuntimeError):
    """A quadrature or series did not reach its error budget.

    Not an input error: the input was valid but the numerics failed, so the
    command line reports it as a crash (exit 1), never as a silent number.
    """


class ExpressionLimitError(MalformedExpressionError):
    """A parsed expression beyond a static limit for symbolic work (size, degree, tower, digits,
    magnitude); ``--force`` lifts the cost limits, never the float64 range of constants."""


class ActivationScaleError(NotSquareIntegrableError):
    """σ is square-integrable, but E[σ²] is too large for the float64 evaluators (overflow)."""


def clip(text, room: int = 60) -> str:
    """``str(text)`` cut to ``room`` characters with an ellipsis: the one rule every one-line
    error and evidence text uses to quote an untrusted or long expression."""
    try:
        text = str(text)
    except ValueError:
        # an exact number past Python's 4300-digit limit on int -> str ((1 + 1/n)**n at n = 10**6)
        text = _huge_number_text(text)
    return text if len(text) <= room else text[: room - 1] + "…"


def _huge_number_text(number) -> str:
    """A number too long to print, as its approximate value and its size."""
    try:
        approximate = f"{float(number):.6g}"
    except (TypeError, ValueError, OverflowError):
        approximate = "?"
    bits = max(int(getattr(part, "bit_length", lambda: 0)()) for part in
               (getattr(number, "p", 0), getattr(number, "q", 0)))
    return f"{approximate} (an exact number of about {int(bits * 0.30103) + 1} digits)"


def escape_controls(text: str, keep: str = "") -> str:
    """``text`` with its control characters (Unicode category Cc: C0, DEL and C1) shown as
    ``\\xNN`` escapes, except those in ``keep``: printed raw, ESC[2J clears a terminal."""
    return "".join(f"\\x{ord(ch):02x}" if unicodedata.category(ch) == "Cc" and ch not in keep else ch
                   for ch in text)
