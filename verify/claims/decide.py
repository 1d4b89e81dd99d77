r"""The third stage of ``verify claim``: each configuration (or asymptotic group) decided.

Universal claims go configuration by configuration (simplest first): each becomes one
:class:`~verify.claims.relation.Relation`, decided by the ordered steps of
:data:`verify.claims.steps.STEPS` (existence, symbolic, expectations, certified,
search, statistical); probability
claims (:mod:`verify.claims.probability`) and asymptotic claims (:mod:`verify.claims.asymptotic`)
have their own procedures.  The decisions are yielded one at a time, so the outcome stage
(:mod:`verify.claims.outcome`) stops the universal procedure at the first fail.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import NamedTuple

import numpy as np
import sympy

from verify.claims import asymptotic, parametric, probability, steps
from verify.claims.configurations import Setting
from verify.claims.decision import Decision
from verify.claims.evaluate import ExactValueTooLargeError, prepare, resolve_derivatives
from verify.claims.quantities import Quantities
from verify.claims.relation import Relation
from verify.claims.spec import ClaimSpec
from verify.model.activations import get_activation
from verify.model.arithmetic import EXACT
from verify.verdict import Basis


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
    budget = steps.Budget(spec.full)
    for index, setting in enumerate(configurations):
        try:
            sides = [prepare(side, setting.values, setting.xi) for side in (claim.lhs, claim.rhs)]
        except ExactValueTooLargeError as exc:
            yield Judged(setting, Decision("inconclusive", Basis.NONE, "values", detail=str(exc)))
            continue
        if any(side.has(sympy.Derivative) for side in sides):
            exact_quantities = Quantities(setting.model, get_activation(setting.activation)
                                          if setting.activation else None, EXACT)
            sides = [resolve_derivatives(side, exact_quantities) for side in sides]
        rel = Relation(setting, *sides, claim.op, spec.full, spec.seed,
                       np.random.default_rng(np.random.SeedSequence([spec.seed, index])),
                       cancelled=tuple(prepare(c, setting.values, setting.xi) for c in claim.cancelled),
                       guards=tuple((c, e.xreplace(setting.values), t) for c, e, t in claim.guards))
        if parametric.parametric_calls(rel):
            decision = parametric.decide_parametric(rel, lambda r: steps.decide(r, budget))
        else:
            decision = steps.decide(rel, budget)
        if decision.status == "fails" and decision.step != "existence":  # no value to show there
            yield Judged(setting, decision, _sides_at(rel, decision))
        else:
            yield Judged(setting, decision)


def _probability(spec: ClaimSpec, configurations: list[Setting]) -> Iterator[Judged]:
    for setting in configurations:
        yield Judged(setting, probability.decide(spec, setting))


def _asymptotic(spec: ClaimSpec, configurations: list[Setting]) -> Iterator[Judged]:
    for setting, decision in asymptotic.decide(spec, configurations):
        yield Judged(setting, decision)


def _sides_at(rel: Relation, decision):
    """The two sides shown beside a fail, at the counterexample (the box's midpoint in a variable
    the point leaves free): the balls' midpoints where a certified or exact step decided (nothing
    read from the disk cache may speak for such a verdict), else float64 with the point substituted
    exactly first, so that the rerun command (which pins the same point) reports the same doubles."""
    point = decision.point or {}
    fixed = {s: point.get(s, (low + high) / 2) for s, (low, high) in rel.box.items()}
    if decision.basis in (Basis.CERTIFIED, Basis.EXACT):
        with contextlib.suppress(Exception):  # e.g. no ball form of a side: the float64 values then
            return rel.ball_sides(fixed)
    try:
        _, (f_left, f_right), _ = rel.at(fixed).float_sides()
        return float(f_left()), float(f_right())
    except Exception:  # noqa: BLE001 - the report falls back to the step's own description
        return None, None
