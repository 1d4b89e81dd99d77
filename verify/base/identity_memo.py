"""Answers about an immutable object remembered by its identity, for the redraws of one instance.

A ``--prob`` claim reads hundreds of redraws of c and ĉ on one instance, and they share its Gram
matrix (:meth:`verify.claims.model.Model.ball_view`): checking its k² entries again for each draw
cost as much as the pooled population itself.  Hashing a matrix of balls is not possible (an
inexact ``arb`` has no hash) and comparing it entry by entry is the work to be saved, so the
answer is kept by ``id``.  Each entry holds its object, so the id cannot be reused while the entry
lives, and only tuples of tuples are kept: a list or an array may be changed in place.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any


def _immutable(value: Any) -> bool:
    return isinstance(value, tuple) and all(isinstance(row, tuple) for row in value)


class IdentityMemo:
    """``memo(obj, extra, compute)``: ``compute()``, or its answer for the same object (by
    identity) and the same ``extra`` key; at most ``size`` answers, all dropped when full."""

    def __init__(self, size: int = 16):
        self.size = size
        self._answers: dict = {}

    def __call__(self, obj: Any, extra: Hashable, compute: Callable[[], Any]) -> Any:
        key = (id(obj), extra)
        known = self._answers.get(key)
        if known is not None and known[0] is obj:
            return known[1]
        answer = compute()
        if _immutable(obj):
            if len(self._answers) >= self.size:
                self._answers.clear()
            self._answers[key] = (obj, answer)
        return answer
