r"""The third stage of ``verify claim``: each configuration (or asymptotic group) decided.

Universal claims go configuration by configuration (simplest first) through the escalating
steps of :mod:`verify.claims.universal` (symbolic, certified, search, statistical); probability
claims (:mod:`verify.claims.probability`) and asymptotic claims (:mod:`verify.claims.asymptotic`)
have their own procedures.  The decisions are yielded one at a time, so the outcome stage
(:mod:`verify.claims.outcome`) stops the universal procedure at the first fail.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

from verify.claims import asymptotic, probability, universal
from verify.claims.configurations import Setting
from verify.claims.decision import Decision
from verify.claims.evaluate import prepare
from verify.claims.spec import ClaimSpec
from verify.model.activations import get_activation


class Judged(NamedTuple):
    """One decision, with the claim's two sides in float64 at a universal counterexample."""

    setting: Setting
    decision: Decision
    sides: tuple = (None, None)


def decisions(spec: ClaimSpec, configurations: list[Setting]) -> Iterator[Judged]:
    """The decisions of ``spec``'s mode, lazily."""
    if spec.mode == "asymptotic":
        return _asymptotic(spec, configurations)
    if spec.mode == "probability":
        return _probability(spec, configurations)
    return _universal(spec, configurations)


def _universal(spec: ClaimSpec, configurations: list[Setting]) -> Iterator[Judged]:
    claim = spec.claim
    budget = universal.Budget(spec.full)
    for index, setting in enumerate(configurations):
        lhs = prepare(claim.lhs, setting.values, setting.xi)
        rhs = prepare(claim.rhs, setting.values, setting.xi)
        rng = np.random.default_rng(np.random.SeedSequence([spec.seed, index]))
        decision = universal.decide(setting, lhs, rhs, claim.op, budget, rng, spec.full, spec.seed)
        if decision.status == "fails":
            yield Judged(setting, decision, _float_sides_at(setting, lhs, rhs, decision.point or {}))
        else:
            yield Judged(setting, decision)


def _probability(spec: ClaimSpec, configurations: list[Setting]) -> Iterator[Judged]:
    for setting in configurations:
        yield Judged(setting, probability.decide(spec, setting))


def _asymptotic(spec: ClaimSpec, configurations: list[Setting]) -> Iterator[Judged]:
    for setting, decision in asymptotic.decide(spec, configurations):
        yield Judged(setting, decision)


def _float_sides_at(setting, lhs, rhs, point):
    """The two sides at the counterexample in float64, the point substituted exactly first, so that
    the rerun command (which pins the same point) reports the same doubles."""

    act = get_activation(setting.activation) if setting.activation else None
    fixed = {s: point.get(s, (low + high) / 2) for s, (low, high) in setting.box.items()}
    pinned = Setting(setting.family, setting.activation, setting.seed, setting.values, {}, setting.model,
                     setting.xi)
    try:
        _, (f_left, f_right), _ = universal.float_sides(pinned, act, lhs.xreplace(fixed), rhs.xreplace(fixed))
        return float(f_left()), float(f_right())
    except Exception:  # noqa: BLE001 - the report falls back to the step's own description
        return None, None
