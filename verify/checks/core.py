r"""The vocabulary of ``verify check``: verdicts, outcomes, the check registry, the run context.

A *check* is a function ``(ctx) -> Outcome`` registered with :func:`check`.  Its
docstring opens with the paper's statement, quoted, with its number; the
registry keeps that quote for ``verify check --list`` and the report.

Each check compares the paper's printed claim with the suite's own derivation
or measurement.  The verdict is

- ``holds``: verified exactly, or to a stated precision or confidence;
- ``fails``: with a counterexample a reader can rerun (``verify check --only ID``),
  the size of the discrepancy, and a correction where one can be derived;
- ``consistent``: a measured behaviour matches an asymptotic claim;
- ``inconclusive`` or ``cited``, with the reason.
"""

from __future__ import annotations

import enum
import hashlib
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from verify.errors import VerifyInputError


class Verdict(enum.StrEnum):
    HOLDS = "holds"
    FAILS = "fails"
    CONSISTENT = "consistent"
    INCONCLUSIVE = "inconclusive"
    CITED = "cited"


@dataclass
class Outcome:
    """What a check found.  ``evidence`` is one line; ``numbers`` are the values that decide it."""

    verdict: Verdict
    evidence: str
    numbers: dict[str, Any] = field(default_factory=dict)
    parameters: dict[str, Any] = field(default_factory=dict)
    counterexample: dict[str, Any] | None = None
    correction: str | None = None
    correction_verified: bool | None = None
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.verdict = Verdict(self.verdict)
        if self.verdict is Verdict.FAILS and self.counterexample is None:
            raise ValueError("a 'fails' outcome needs its counterexample")
        if "\n" in self.evidence:
            raise ValueError("evidence must be one line")


@dataclass(frozen=True)
class Check:
    id: str
    statement: str  # e.g. "Lemma 31", as numbered in the paper
    section: str  # e.g. "E.1.1"
    method: str  # exact | symbolic | high-precision | monte-carlo | search | sampling | scaling | cited
    function: Callable[[Context], Outcome]

    @property
    def quote(self) -> str:
        """The first paragraph of the docstring: the paper's statement, quoted."""
        doc = inspect.getdoc(self.function) or ""
        return " ".join(doc.split("\n\n")[0].split())


REGISTRY: dict[str, Check] = {}


class UnknownCheckError(VerifyInputError):
    """``--only`` named a check that does not exist."""


def check_id(text: str) -> str:
    """Normalise 'Lemma 31', 'lemma_31', 'LEMMA-31' to the registry key 'lemma-31'."""
    return re.sub(r"[^a-z0-9.]+", "-", text.strip().lower()).strip("-")


def check(id: str, statement: str, section: str, method: str):
    """Register a check; the decorated function's docstring must quote the statement."""

    def register(function: Callable[[Context], Outcome]) -> Callable[[Context], Outcome]:
        key = check_id(id)
        if key in REGISTRY:
            raise ValueError(f"duplicate check id {key!r}")
        if not inspect.getdoc(function):
            raise ValueError(f"check {key!r} must quote its statement in the docstring")
        REGISTRY[key] = Check(key, statement, section, method, function)
        return function

    return register


def resolve(ids: list[str] | None) -> list[Check]:
    """The checks named by ``ids`` (all, in registry order, when None)."""
    if not ids:
        return list(REGISTRY.values())
    out = []
    for raw in ids:
        key = check_id(raw)
        if key not in REGISTRY:
            close = [k for k in REGISTRY if k.startswith(key.split("-")[0])][:6]
            hint = f"; checks starting alike: {', '.join(close)}" if close else ""
            raise UnknownCheckError(f"unknown check id {raw!r} (see `verify check --list`){hint}")
        if REGISTRY[key] not in out:
            out.append(REGISTRY[key])
    return out


@dataclass(frozen=True)
class Context:
    """Run settings shared by every check.

    ``full`` asks for more samples and larger sizes.  Randomness comes only from
    :meth:`rng`, which derives an independent stream from (seed, check id, key),
    so a check's numbers do not depend on which other checks ran.
    """

    seed: int = 0
    full: bool = False
    check_id: str = ""

    def seed_sequence(self, *key: object) -> np.random.SeedSequence:
        words = [int.from_bytes(hashlib.sha256(str(part).encode()).digest()[:4], "little")
                 for part in (self.check_id, *key)]
        return np.random.SeedSequence([self.seed, *words])

    def rng(self, *key: object) -> np.random.Generator:
        return np.random.default_rng(self.seed_sequence(*key))

    def pick(self, quick, full):
        """``quick`` in the default run, ``full`` under ``--full``."""
        return full if self.full else quick
