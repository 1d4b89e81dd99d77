"""The error a certified computation raises when it cannot certify.

A certified routine either returns balls that provably contain the true values or raises
:class:`CertificationError` (a :class:`~verify.base.errors.VerifyInputError`, so the command line
prints its one-line message and exits 2).  It never returns an uncertified number.
"""

from __future__ import annotations

from verify.base.errors import VerifyInputError


class CertificationError(VerifyInputError):
    """The input is valid, but this activation or quantity is outside what can be certified
    (an unsupported function, no provable growth bound, a radius target not reached)."""
