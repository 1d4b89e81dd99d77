r"""The instance's entries as claim quantities: ``lam(i)``, ``c(i)``, ``chat(i)``, ``G(i, j)``.

λ_i, c_i, ĉ_i and G_ij = ⟨w_i, w_j⟩ (Assumption 1, 1-based as in the paper) are read, not
computed: each backend of :mod:`verify.claims.quantities` hands :class:`IndexedEntries` the
same instance in its own arithmetic (exact SymPy numbers, float64 arrays, Arb balls), and the
four methods below are the one definition of what ``lam(i)`` and friends mean in all of them.
A ``Sum(..., i, 1, k)`` over them is expanded term by term on each configuration's instance
(:func:`verify.claims.evaluate.prepare`), so the sums stay exact.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from verify.base.errors import InvalidParameterError


class IndexOutOfRangeError(InvalidParameterError):
    """An index of lam, c, chat or G outside 1..k on some configuration's instance."""


class Entries(NamedTuple):
    """λ, c, ĉ (length k) and the Gram matrix G (k × k), in one arithmetic, 0-based."""

    lam: object
    c: object
    c_hat: object
    gram: object


class IndexedEntries:
    """λ_i, c_i, ĉ_i, G_ij for 1 ≤ i, j ≤ k; a backend supplies :meth:`entries`."""

    model: Any  # the instance model, set by the backend

    def entries(self) -> Entries:  # pragma: no cover - every backend overrides it
        raise NotImplementedError

    def _position(self, name: str, index) -> int:
        k = self.model.k
        if not (float(index) == int(index) and 1 <= int(index) <= k):
            raise IndexOutOfRangeError(f"claim: {name} index {index} is outside 1..k = 1..{k} on this "
                                       "instance (indices are 1-based)")
        return int(index) - 1

    def lam(self, i):
        return self.entries().lam[self._position("lam", i)]

    def c(self, i):
        return self.entries().c[self._position("c", i)]

    def chat(self, i):
        return self.entries().c_hat[self._position("chat", i)]

    def G(self, i, j):
        return self.entries().gram[self._position("G", i)][self._position("G", j)]
