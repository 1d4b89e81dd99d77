r"""The checks' own power: every ``claimed_*`` hook perturbed, and ``verify check`` run again.

A check compares the paper's printed formula, its ``claimed_*`` hook, with the suite's reference.
Perturbing the hook makes a statement whose truth is known:

- a hook whose check **fails** prints a wrong formula; that formula times 1 + 10⁻ʲ is still wrong,
  so the perturbed statement is false;
- a hook in :data:`IDENTITIES` is a formula the check proves *equal* to the reference; times
  1 + 10⁻ʲ (j = 1..13) it is false by exactly that margin.

Either way the check must not answer holds or consistent.  Hooks of other checks (bounds with
slack: a perturbed bound may still hold) are run too and reported, but their truth is unknown,
so they count in no matrix cell.  Integer results (exponents, orders) are changed by +1/2 instead
("an exponent changed"); booleans and schedules are left alone.
"""

from __future__ import annotations

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

from verify.base.sweep import ordered_map
from verify.checks import REGISTRY, load_all, run_check

#: Hooks that state an identity the check verifies with equality (a perturbation makes it false).
IDENTITIES = {
    "assumption-1": ("claimed_row_norm",),
    "assumption-4": ("claimed_frobenius_norm",),
    "d1-overlaps": ("claimed_d1_overlap", "claimed_d1_row_norm2"),
    "d1-gradient-displays": ("claimed_d1_first_gradient_display", "claimed_d1_power_series_display",
                             "claimed_d1_second_gradient_display"),
    "s3.2.1-orthonormal-t": ("claimed_orthonormal_t",),
    "eq-7-9": ("claimed_eq_7",),
    "s3.2.2-h-xi-1": ("claimed_h_xi_1",),
    "d4-lemma-6-sum": ("claimed_lemma_6_sum_value",),
    "eq-14": ("claimed_eq_14_factor",),
    "eq-12": ("claimed_d32_h0",),
    "definition-24": ("claimed_variance",),
    "c1-drift-recursion": ("claimed_c1_ratio",),
    "definition-35": ("claimed_feature_norm",),
    "proposition-4": ("claimed_prop_4_series",),
    "claim-3-n-split": ("claimed_d31_n_split",),
}
LEVELS = (1, 4, 7, 10, 13)
#: Checks too slow to rerun at every level in the default tier (seconds each in `verify check`).
SLOW = {"lemma-6"}


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
    ids = [c for c in REGISTRY if not (c in SLOW and not include_slow) and not (only and c not in only)]


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
        truth = False if (failing or name in IDENTITIES.get(check_id, ())) else None
        for level in levels:
            setattr(module, name, perturbed(original, sympy.Rational(1, 10**level)))
            try:
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
