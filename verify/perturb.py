r"""The checks' own power: every ``claimed_*`` hook perturbed, and ``verify check`` run again.

A check compares the paper's printed formula, its ``claimed_*`` hook, with the suite's reference.
Perturbing the hook makes a statement whose truth is known:

- a hook whose check **fails** prints a wrong formula; that formula times 1 + 10⁻ʲ is still wrong,
  so the perturbed statement is false;
- a hook its pack declares an identity (``IDENTITY_HOOKS`` of the pack's checks package) is a
  formula the check proves *equal* to the reference; times
  1 + 10⁻ʲ (j = 1..13) it is false by exactly that margin.

Either way the check must not answer holds or consistent.  Hooks of other checks (bounds with
slack: a perturbed bound may still hold) are run too and reported, but their truth is unknown,
so they count in no matrix cell.  Integer results (exponents, orders) are changed by +1/2 instead
("an exponent changed"); booleans and schedules are left alone.
"""

from __future__ import annotations

import importlib
import inspect
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import partial

import numpy as np
import sympy
from flint import fmpq

from verify.base.evidence_cache import bypassed
from verify.base.sweep import ordered_map
from verify.checks import REGISTRY, load_all, run_check

LEVELS = (1, 4, 7, 10, 13)


def _declared(check_id: str, name: str, default):
    """What the package of a check's pack declares for the perturbation test (``IDENTITY_HOOKS``,
    ``SLOW_TO_PERTURB``; :mod:`verify.paper.packs.dayi_chen.checks`): the engine names no paper's
    checks."""
    package = REGISTRY[check_id].function.__module__.rpartition(".")[0]
    return getattr(importlib.import_module(package), name, default) if package else default


@dataclass(frozen=True)
class Perturbed:
    check: str
    hook: str
    level: int
    truth: bool | None  # False: known false; None: unknown (a bound with slack)
    verdict: str
    basis: str


def hooks(check) -> list[str]:
    """The module-level ``claimed_*`` functions a check's code refers to (through its own helpers)."""
    module = inspect.getmodule(check.function)
    names: set[str] = set()
    seen: set = set()

    def visit(function) -> None:
        source = inspect.getsource(function)
        names.update(re.findall(r"\b(claimed_\w+)", source))
        for name in re.findall(r"\b(_\w+)\(", source):
            helper = getattr(module, name, None)
            if inspect.isfunction(helper) and helper not in seen and inspect.getmodule(helper) is module:
                seen.add(helper)
                visit(helper)

    visit(check.function)
    return sorted(n for n in names if inspect.isfunction(getattr(module, n, None)))


def scaled(value, epsilon: sympy.Rational):
    """``value`` times 1 + ε, element by element; integers get +1/2; anything else unchanged."""
    factor = 1 + epsilon
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return sympy.Rational(2 * value + 1, 2)
    if isinstance(value, float):
        return value * float(factor)
    if isinstance(value, Fraction):
        return value * (1 + Fraction(int(epsilon.p), int(epsilon.q)))
    if isinstance(value, np.ndarray):
        return value * float(factor) if value.dtype != object else \
            np.array([scaled(v, epsilon) for v in value.ravel()], dtype=object).reshape(value.shape)
    if isinstance(value, sympy.Basic):
        return value * factor
    if isinstance(value, dict):
        return {k: scaled(v, epsilon) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return type(value)(scaled(v, epsilon) for v in value)
    if hasattr(value, "mid") and hasattr(value, "rad"):  # an Arb ball

        return value * (1 + fmpq(int(epsilon.p), int(epsilon.q)))
    return value


def perturbed(hook: Callable, epsilon: sympy.Rational) -> Callable:
    def wrapper(*args, **kwargs):
        return scaled(hook(*args, **kwargs), epsilon)

    wrapper.__wrapped__ = hook  # type: ignore[attr-defined]
    return wrapper


def run_all(levels=LEVELS, include_slow: bool = False, only: tuple[str, ...] = (),
            workers: int = 1) -> list[Perturbed]:
    """Every (check, hook, level), after the check's unperturbed run (which fixes the truth);
    checks are shared out over ``workers`` processes (each patches its own copy of the modules)."""

    load_all()
    ids = [c for c in REGISTRY if not (not include_slow and c in _declared(c, "SLOW_TO_PERTURB", ()))
           and not (only and c not in only)]


    parts = ordered_map(partial(_run_check, levels=tuple(levels)), ids, workers)
    return [r for part in parts for r in part]


def _run_check(check_id: str, levels: tuple[int, ...]) -> list[Perturbed]:

    load_all()
    check = REGISTRY[check_id]
    module = inspect.getmodule(check.function)
    names = hooks(check)
    if not names:
        return []
    failing = run_check(check_id).verdict.value == "fails"
    out = []
    for name in names:
        original = getattr(module, name)
        identity = name in _declared(check_id, "IDENTITY_HOOKS", {}).get(check_id, ())
        truth = False if (failing or identity) else None
        for level in levels:
            setattr(module, name, perturbed(original, sympy.Rational(1, 10**level)))
            try:
                # the code changed without its files: nothing may come from the evidence cache
                with bypassed():
                    outcome = run_check(check_id)
                verdict, basis = outcome.verdict.value, str(outcome.basis)
            except Exception:  # noqa: BLE001 - a hook that cannot take the perturbation
                verdict, basis = "error", "none"
            finally:
                setattr(module, name, original)
            out.append(Perturbed(check_id, name, level, truth, verdict, basis))
    return out


def matrix_markdown(results: list[Perturbed]) -> str:
    """Known-false perturbations × verdict, per level, and the count of unknown-truth runs."""

    verdicts = ("holds", "consistent", "inconclusive", "fails", "error")
    known = [r for r in results if r.truth is False]
    lines = ["| perturbation (known false) | " + " | ".join(verdicts) + " |",
             "|---|" + "---|" * len(verdicts)]
    for level in sorted({r.level for r in known}):
        counts = Counter(r.verdict for r in known if r.level == level)
        lines.append(f"| claimed x (1 + 1e-{level}), integers + 1/2 | "
                     + " | ".join(str(counts.get(v, 0)) for v in verdicts) + " |")
    total = Counter(r.verdict for r in known)
    lines.append("| all | " + " | ".join(str(total.get(v, 0)) for v in verdicts) + " |")
    unknown = [r for r in results if r.truth is None]
    checks = len({r.check for r in results})
    accepted = total.get("holds", 0) + total.get("consistent", 0)
    hooks_run = len({(r.check, r.hook) for r in results})
    return (f"{len(results)} perturbed runs of {hooks_run} claimed_* hooks in "
            f"{checks} checks: {len(known)} known false, {accepted} of them held or consistent; "
            f"{len(unknown)} runs of bounds with slack (truth unknown, not counted).\n\n"
            + "\n".join(lines) + "\n")
