r"""Probability claims: P[the relation holds at every inner point] OP q, over named random parts.

``--prob '>= q over c, c_hat'`` reads: for each configuration (family, activation, k, d, the base
seed, and ξ on a grid of GRID_OUTER points when it ranges), with the parts after ``over``
random (:mod:`verify.claims.sampling`), the event "the relation holds for every value of the
remaining (inner) variables" has probability OP q, where q may depend on k, ξ and d.

- Exact enumeration (only c and/or ĉ random, at most ENUMERATION_LIMIT sign patterns): the
  probability is a count over equally likely patterns (Assumption 3).
- Otherwise ``--draws`` draws and a Clopper–Pearson interval at confidence 1 − 10⁻⁶
  (:func:`verify.verdict.clopper_pearson`).

One draw's event is read on a grid of the inner variables (EVENT_GRID points per dimension,
both ends included) in float64: a relative gap beyond NEAR either way is clear, anything
closer is *near* and counts on neither side, and with inner variables no draw's event is
proven (a grid is not a continuum).  A clear reading counts only once balls confirm it at its
point (the hypothesis "float64 is far from the relation" is proved, not assumed: cancellation
makes ``(10**8 + c)**2 - 10**16 - 2*10**8*c`` 0.0 at c = 1/2, where it is 1/4); a draw balls
do not confirm is near, and a tie is settled exactly.  So P is bracketed, and ``holds`` /
``fails`` need the whole bracket (or interval) on one side of q; one that contains q is
``inconclusive``, never ``consistent``.  The basis is ``certified`` for an enumeration that
settles every pattern (P known exactly), ``numerical`` for one that brackets P, and
``statistical`` for sampling.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import sympy

from verify.base.evidence_cache import canonical, decode_number, encode_number, remembered
from verify.claims.decision import Decision
from verify.claims.evaluate import ClaimEvaluationError, prepare
from verify.claims.quantifiers import QuantifierError
from verify.claims.relation import DrawnGaps, Relation
from verify.claims.sampling import GridEvaluator, models
from verify.claims.universal import symbolic_step
from verify.verdict import Basis, clopper_pearson

#: A draw's relation counts as clearly violated or clearly satisfied beyond this relative gap,
#: far above the float64 evaluators' rounding (~1e-14); between, the draw is "near" and undecided.
NEAR = 1e-6
#: The float64 evaluators' absolute accuracy (~1e-14) with room: sides closer than this are near.
ABSOLUTE_FLOOR = 1e-12


def bound_at(spec, setting) -> sympy.Expr:
    """q at this configuration, exactly (k, ξ, d substituted); a value outside [0, 1] is bad input."""
    q = sympy.sympify(spec.probability.bound, strict=True).xreplace(setting.values)
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

    claim, prob = spec.claim, spec.probability
    lhs = prepare(claim.lhs, setting.values, setting.xi)
    rhs = prepare(claim.rhs, setting.values, setting.xi)
    q = bound_at(spec, setting)
    evaluator = GridEvaluator(setting, setting.activation, lhs, rhs, spec.full, spec.seed)
    draws, exact = models(setting.model, prob.over, spec.draws, spec.seed)

    def read() -> tuple[int, int, dict | None]:
        return _read_draws(claim.op, setting, lhs, rhs, evaluator, draws)

    # a sampled configuration's counts are statistical evidence, which the signed evidence cache
    # may keep (a warm verify check reads them back); an enumeration's count is a certified P
    # and is always read afresh (verify.base.cache: nothing behind a certified verdict is kept)
    key = None if exact else _draws_key(spec, setting, lhs, rhs)
    if key is None:
        clear, near, example = read()
    else:
        clear, near, example = remembered("probability-draws", key, read, _encode_reading, _decode_reading)
    total = len(draws)
    # The event of a draw is read in float64 on a grid and confirmed in balls: a clear violation
    # is real where balls confirm it at its grid point, a clear margin at the grid's points only.  So the
    # events lie between `low` (clear margins, and none at all with inner variables, whose event
    # is a statement about a continuum) and `high` (every draw without a clear violation).
    low_count = 0 if setting.box else clear
    high_count = clear + near
    numbers = {
        "events": high_count,
        "events_proven": low_count,
        "draws": total,
        "bound": str(q),
        "bound_value": float(q),
        "near_draws": near,
        "method": "exact enumeration of the sign patterns" if exact else "sampling",
    }
    if exact:
        low, high = sympy.Rational(low_count, total), sympy.Rational(high_count, total)
        verdict = _interval_verdict(prob.op, low, high, q)
        # low == high: no draw was left near, so every event was read in balls or exactly and the
        # count over equally likely patterns is P itself
        basis = Basis.CERTIFIED if low == high else Basis.NUMERICAL
        if low == high:
            detail = f"P = {high_count}/{total} (all {total} sign patterns) vs claimed P {prob.op} {q}"
        else:
            detail = (f"P in [{low_count}/{total}, {high_count}/{total}] over all {total} sign patterns "
                      f"({near} pattern(s) within relative {NEAR:g} of the relation"
                      + (", events on a grid of the inner variables prove no event" if setting.box else "")
                      + f") vs claimed P {prob.op} {q}")
        numbers["probability"] = str(high) if low == high else [str(low), str(high)]
    else:
        low_ci, _ = clopper_pearson(low_count, total)
        _, high_ci = clopper_pearson(high_count, total)
        numbers["interval"] = [low_ci, high_ci]
        verdict = _interval_verdict(prob.op, low_ci, high_ci, float(q))
        basis = Basis.STATISTICAL
        detail = (
            f"{high_count}/{total} draws without a clear violation (99.9999% CI [{low_ci:.4g}, {high_ci:.4g}]"
            + (f", {near} near the relation" if near else "") + f") vs claimed P {prob.op} {float(q):.4g}"
        )
    if verdict == "inconclusive":
        detail += "; the interval contains the bound, so these draws cannot decide it"
        basis = Basis.NONE
    point: dict | None = None
    if verdict == "fails":
        numbers["failing_draw"] = example
        point = {}
    return Decision(
        verdict, basis, "enumeration" if exact else "statistical", point=point, detail=detail, numbers=numbers
    )


def _read_draws(op: str, setting, lhs, rhs, evaluator, draws) -> tuple[int, int, dict | None]:
    """(clear, near, the first failing draw) over ``draws``: each read in float64 on the grid and
    confirmed in balls or exactly (:func:`_reading`)."""
    shared = DrawnGaps(setting, lhs, rhs) if DrawnGaps.applies(lhs, rhs) else None
    clear, near, example = 0, 0, None
    for model in draws:
        left, right = (np.atleast_1d(v) for v in evaluator.sides(model))
        if not (np.isfinite(left).all() and np.isfinite(right).all()):
            raise ClaimEvaluationError(f"claim: a side is not a finite real number on the grid of "
                                       f"{', '.join(s.name for s in evaluator.inner) or 'this point'} at "
                                       f"{setting.describe()}; the ranges leave the expression's domain")
        gap = _signed_gap(op, left, right)  # > 0: violated, < 0: satisfied, relative
        at = int(np.argmax(gap)) if gap.size else 0  # the grid point that decides the draw
        rel = Relation(replace(setting, model=model), lhs, rhs, op)
        if shared is not None:
            rel.share_gap(shared)
        reading = _reading(gap, at, rel, evaluator.point)
        if reading == "fails":
            if example is None:
                example = {
                    "c_signs": [int(v) for v in model.c_signs],
                    "c_hat_signs": [int(v) for v in model.c_hat_signs],
                    "point": {s.name: str(v) for s, v in evaluator.point(at).items()},
                    "lhs": float(left.flat[at]),
                    "rhs": float(right.flat[at]),
                }
        elif reading == "holds":
            clear += 1
        else:
            near += 1
    return clear, near, example


def _draws_key(spec, setting, lhs, rhs) -> dict | None:
    """Everything the sampled readings depend on besides the code (which the cache adds): the
    prepared sides and relation, the configuration's instance and values, and what draws the
    instances (the parts, their number, the seed, the grid's size).  None where the instance is
    not the kind this describes (then nothing is kept)."""
    model = setting.model
    if model is None:
        return None
    return {
        "sides": [sympy.srepr(lhs), sympy.srepr(rhs), spec.claim.op],
        "instance": [model.family, model.activation, model.k, model.d, model.seed, model.scratch,
                     [sympy.srepr(v) for v in model.lam], list(model.c_signs), list(model.c_hat_signs),
                     canonical(np.asarray(model.gram_float, dtype=float))],
        "setting": [setting.family, setting.activation, setting.seed, sympy.srepr(setting.xi),
                    # lists, not tuples: the key is compared with its JSON round trip
                    sorted([sympy.srepr(s), sympy.srepr(v)] for s, v in setting.values.items()),
                    sorted([sympy.srepr(s), sympy.srepr(lo), sympy.srepr(hi)] for s, (lo, hi) in setting.box.items())],
        "draws": [sorted(spec.probability.over), spec.draws, spec.seed, bool(spec.full)],
    }


def _encode_reading(value) -> dict:
    clear, near, example = value
    if example is not None:
        example = {**example, "lhs": encode_number(example["lhs"]), "rhs": encode_number(example["rhs"])}
    return {"clear": clear, "near": near, "example": example}


def _decode_reading(payload: dict) -> tuple[int, int, dict | None]:
    """The counts and the failing draw, each field checked (ValueError: a miss)."""
    clear, near, example = payload["clear"], payload["near"], payload["example"]
    if not all(type(n) is int and n >= 0 for n in (clear, near)):
        raise ValueError("counts")
    if example is not None:
        signs = example["c_signs"] + example["c_hat_signs"]
        point = example["point"]
        if set(example) != {"c_signs", "c_hat_signs", "point", "lhs", "rhs"} or not all(
                type(v) is int and v in (-1, 1) for v in signs) or not (
                isinstance(point, dict) and all(isinstance(a, str) and isinstance(b, str) for a, b in point.items())):
            raise ValueError("failing draw")
        lhs, rhs = decode_number(example["lhs"]), decode_number(example["rhs"])
        if not (isinstance(lhs, float) and isinstance(rhs, float)):
            raise ValueError("failing draw's sides")
        example = {**example, "lhs": lhs, "rhs": rhs}
    return clear, near, example


def _signed_gap(op: str, left, right) -> np.ndarray:
    """How far each grid point violates ``op`` (> 0) or satisfies it (< 0), relative to |lhs| + |rhs|
    plus ABSOLUTE_FLOOR: two sides within rounding of each other (both ~1e-18 at a tie) are near,
    never clear either way.  An equality is never clearly satisfied in float64."""
    left, right = np.asarray(left, float), np.asarray(right, float)
    raw = {"<=": left - right, "<": left - right, ">=": right - left, ">": right - left,
           "==": np.abs(left - right)}[op]
    scale = np.abs(left) + np.abs(right) + ABSOLUTE_FLOOR / NEAR
    gap = raw / scale
    if op == "==":
        gap = np.where(gap > NEAR, gap, 0.0)  # equal in float64 proves nothing
    return np.atleast_1d(gap)


def _reading(gap, at: int, rel: Relation, grid_point) -> str:
    """A draw's event (``rel`` on its pattern): holds / fails, or undecided (near).  The float64
    ``gap`` is only a reading, which cancellation can fake ((10**8 + c)**2 - 10**16 - 2*10**8*c
    is 0.0 at c = 1/2).  Without inner variables a clear reading counts as balls read the
    pattern, and a tie, or a ball around 0 (h(0) = 0 exactly for balanced signs), as the symbolic
    step settles it (an exact zero, which no ball can prove).  With inner variables a violation
    counts only where balls confirm it at its grid point, and a margin (counted among the events
    that may hold, never as proved) is taken as read."""
    if not gap.size:
        return "undecided"
    if rel.box:
        if gap[at] > NEAR:
            return "fails" if rel.certified_check(grid_point(at)) == "fails" else "undecided"
        return "holds" if gap.max() < -NEAR else "undecided"
    if gap[at] > NEAR or gap.max() < -NEAR:
        reading = rel.certified_check({})
        return reading if reading != "undecided" else _exact_reading(rel) or "undecided"
    return _exact_reading(rel) or rel.certified_check({})


def _exact_reading(rel: Relation) -> str | None:
    """holds / fails from the symbolic step, else None."""
    status = symbolic_step(rel).status
    return status if status in ("holds", "fails") else None


def _interval_verdict(op: str, low, high, q) -> str:
    """holds / fails / inconclusive for P OP q when P is known to lie in [low, high] (exactly, or
    at the Clopper–Pearson confidence).  An interval that contains q decides nothing: it used to
    say *consistent*, which a bound off by 0.05 earned from 400 draws (half-width ~0.12)."""
    claimed = {
        ">=": (low >= q, high < q),
        ">": (low > q, high <= q),
        "<=": (high <= q, low > q),
        "<": (high < q, low >= q),
    }[op]
    if claimed[0]:
        return "holds"
    return "fails" if claimed[1] else "inconclusive"
