r"""Probability claims: P[the relation holds at every inner point] OP q, over named random parts.

``--prob '>= q over c, c_hat'`` reads: for each configuration (family, activation, k, d, the base
seed, and ξ on a grid of GRID_OUTER points when it ranges), with the parts after ``over``
random (:mod:`verify.claims.sampling`), the event "the relation holds for every value of the
remaining (inner) variables" has probability OP q, where q may depend on k, ξ and d.

- Exact enumeration (only c and/or ĉ random, at most ENUMERATION_LIMIT sign patterns): the
  probability is a count over equally likely patterns (Assumption 3), compared with q exactly.
- Otherwise ``--draws`` draws and a Clopper–Pearson interval at confidence 1 − 10⁻⁶
  (:func:`verify.checks.tools.clopper_pearson`): ``fails`` when the interval lies on the wrong
  side of q, ``holds`` when it lies on the claimed side, ``consistent`` when it contains q — a
  false verdict either way is rarer than 10⁻⁶.

One draw's event is decided on a grid of the inner variables (EVENT_GRID points per dimension,
both ends included) in float64 with the search's tolerance; the verdict's basis is therefore
``numerical`` for an enumeration with inner variables (``exact`` without them) and
``statistical`` for sampling.
"""

from __future__ import annotations

import numpy as np
import sympy

from verify.checks.core import Basis
from verify.claims.evaluate import ClaimEvaluationError, prepare
from verify.claims.quantifiers import QuantifierError
from verify.claims.sampling import GridEvaluator, models
from verify.claims.universal import Decision, holds, violation

#: Grid points of a real instance parameter (ξ) in a probability claim, both ends included.
GRID_OUTER = 5


def bound_at(spec, setting) -> sympy.Expr:
    """q at this configuration, exactly (k, ξ, d substituted); a value outside [0, 1] is bad input."""
    q = sympy.sympify(spec.probability.bound).xreplace(setting.values)
    if not q.is_number or not q.is_real:
        raise QuantifierError(
            f"--prob {spec.probability.text!r}: the bound {q} is not a number at {setting.describe()}"
        )
    if not 0 <= q <= 1:
        raise QuantifierError(
            f"--prob {spec.probability.text!r}: the bound is {q} at {setting.describe()}, "
            "not a probability in [0, 1]"
        )
    return q


def decide(spec, setting) -> Decision:
    from verify.checks.tools import clopper_pearson

    claim, prob = spec.claim, spec.probability
    lhs = prepare(claim.lhs, setting.values, setting.xi)
    rhs = prepare(claim.rhs, setting.values, setting.xi)
    q = bound_at(spec, setting)
    evaluator = GridEvaluator(setting, setting.activation, lhs, rhs, spec.full)
    draws, exact = models(setting.model, prob.over, spec.draws, spec.seed)
    hits, example = 0, None
    for model in draws:
        left, right = (np.atleast_1d(v) for v in evaluator.sides(model))
        if not (np.isfinite(left).all() and np.isfinite(right).all()):
            raise ClaimEvaluationError(f"claim: a side is not a finite real number on the grid of "
                                       f"{', '.join(s.name for s in evaluator.inner) or 'this point'} at "
                                       f"{setting.describe()}; the ranges leave the expression's domain")
        excess = np.atleast_1d(violation(claim.op, left, right))
        worst = int(np.argmax(excess)) if excess.size else 0
        if excess.size and excess[worst] > 0:
            if example is None:
                example = {
                    "c_signs": list(model.c_signs),
                    "c_hat_signs": list(model.c_hat_signs),
                    "point": {s.name: str(v) for s, v in evaluator.point(worst).items()},
                    "lhs": float(left[worst]),
                    "rhs": float(right[worst]),
                }
        else:
            hits += 1
    total = len(draws)
    numbers = {
        "events": hits,
        "draws": total,
        "bound": str(q),
        "bound_value": float(q),
        "method": "exact enumeration of the sign patterns" if exact else "sampling",
    }
    if exact:
        probability = sympy.Rational(hits, total)
        verdict = "holds" if holds(prob.op, probability - q) else "fails"
        basis = Basis.NUMERICAL if setting.box else Basis.EXACT
        relation = prob.op if verdict == "holds" else f"not {prob.op}"
        detail = f"P = {hits}/{total} (all {total} sign patterns) {relation} {q}"
        numbers["probability"] = str(probability)
    else:
        low, high = clopper_pearson(hits, total)
        numbers["interval"] = [low, high]
        verdict = _sampled_verdict(prob.op, low, high, float(q))
        basis = Basis.STATISTICAL
        detail = (
            f"{hits}/{total} draws (99.9999% CI [{low:.4g}, {high:.4g}]) vs claimed P {prob.op} "
            f"{float(q):.4g}"
        )
    point: dict | None = None
    if verdict == "fails":
        numbers["failing_draw"] = example
        point = {}
    return Decision(
        verdict, basis, "enumeration" if exact else "statistical", point=point, detail=detail, numbers=numbers
    )


def _sampled_verdict(op: str, low: float, high: float, q: float) -> str:
    """fails / holds / consistent for P OP q from a Clopper–Pearson interval [low, high]."""
    claimed = {
        ">=": (low >= q, high < q),
        ">": (low > q, high <= q),
        "<=": (high <= q, low > q),
        "<": (high < q, low >= q),
    }[op]
    if claimed[0]:
        return "holds"
    return "fails" if claimed[1] else "consistent"
