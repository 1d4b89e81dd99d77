r"""Every operation written in a claim is defined at every point of its range: a hypothesis of
each *holds* (issue #48, found by red team 5).

SymPy rewrites as it builds: ``sqrt(x)**2`` is ``x`` and ``exp(log(x))`` is ``x`` before any step
sees the claim, and the symbolic steps cancel ``(x**2 - 1)/(x - 1)`` to ``x + 1``.  A proof about
the rewritten relation is then a proof about a claim that has no value on part of its range:
``sqrt(x)**2 < 0`` on [−2, −1] *held (exact)*, and so did ``acos(x) + asin(x) == pi/2`` on [2, 3]
and ``Sum(1, i, 1, n) == n`` over n in −5..10⁶ (SymPy sums a reversed range by Karr's convention;
the language reads it as empty).  So the parser records, for each operation as written, the
condition under which it is defined (a *guard*): a denominator ≠ 0, a non-integer power's base ≥ 0,
a log's argument > 0, an asin's argument in [−1, 1], a factorial's argument ≥ 0, a Sum's number of
terms ≥ 0 (:data:`verify.base.expressions.Function.domain`).  :func:`written_domain` proves each guard
on the range, default deny:

- one free variable: SymPy's ``solveset`` finds no point of the range (its integers, for an
  integer variable) where the guard fails; a point it finds refutes the guard, and anything else
  SymPy answers (a ConditionSet, running out of time) leaves it unknown;
- several free variables: SymPy's sign rules prove it from each variable's range, or unknown.

A guard of the Gaussian variable (inside ``Eg``) is the existence step's business; a guard of a
Sum's index or of a quantity of the model (``1/h(m)``) is not checked here (its own domain checks
and the evaluation at points refuse such values).
"""

from __future__ import annotations

import itertools

import sympy

from verify.base.budget import BudgetExceededError, CPUDeadline, guarded, limits
from verify.base.errors import VerifyInputError, clip
from verify.base.singular import within_unit
from verify.certified.balls import BALLS, working_precision
from verify.certified.balls import interval as ball_interval
from verify.claims.evaluate import compile_ball
from verify.claims.hypotheses import PROVED, REFUTED, UNKNOWN, Proof
from verify.claims.language import GAUSSIAN
from verify.claims.quantities import BALL_DPS, Quantities, Unavailable

#: CPU seconds for solving all of one claim's guards on one range.
GUARD_SECONDS = 4.0

#: What each condition means, and its violation as a relation of the guarded expression e.
_TEXT = {"nonzero": "!= 0", "nonnegative": ">= 0", "positive": "> 0", "unit": "in [-1, 1]"}


def _violations(condition: str, expr, symbol, domain):
    if condition == "nonzero":
        return sympy.solveset(expr, symbol, domain)
    if condition == "nonnegative":
        return sympy.solveset(expr < 0, symbol, domain)
    if condition == "positive":
        return sympy.solveset(expr <= 0, symbol, domain)
    return sympy.Union(sympy.solveset(expr > 1, symbol, domain), sympy.solveset(expr < -1, symbol, domain))


def _by_signs(condition: str, expr) -> bool:
    """The guard proved by SymPy's sign rules (the symbols carry their ranges' signs)."""
    if condition == "nonzero":
        return bool(expr.is_nonzero)
    if condition == "nonnegative":
        return bool(expr.is_nonnegative)
    if condition == "positive":
        return bool(expr.is_positive)
    return bool((1 - expr**2).is_nonnegative)


def _number_violates(condition: str, number) -> bool:
    """Whether a number visibly breaks the guard (to 30 digits; a tie at 0 is decided exactly)."""
    if number.is_zero:
        return condition in ("nonzero", "positive")
    value = number.evalf(30)
    if not value.is_real:
        return False  # complex constants are refused where the values are put in
    if condition in ("nonnegative", "positive"):  # 0 itself is decided above
        return bool(value < 0)
    if condition == "unit":
        return bool(abs(value) > 1)
    return False


def _a_point(found):
    """A point of a nonempty set ``solveset`` returned, or None."""
    if isinstance(found, sympy.FiniteSet):
        return min(found, key=lambda p: abs(sympy.N(p)))
    if isinstance(found, sympy.Interval):
        if found.left_open is False and found.start.is_finite:
            return found.start
        if found.end.is_finite and found.start.is_finite:
            return (found.start + found.end) / 2
        return None
    if isinstance(found, sympy.Range) and found.size:
        return found[0]
    if isinstance(found, sympy.Union):
        for part in found.args:
            point = _a_point(part)
            if point is not None:
                return point
    return None


#: Ball evaluations one guard may take over a box of several variables.
BALL_PIECES = 512


def _by_balls(condition: str, expr, ranges: dict) -> bool:
    """The guard proved in ball arithmetic on every piece of a bounded real box: a ball is a
    rigorous enclosure of the expression on its piece, so one that keeps to the condition proves
    it there; a piece that does not decide is bisected along its widest side (a ball of eps**4 on
    [1/100, 1] reaches below 0 by its width alone), up to BALL_PIECES evaluations.  Anything else
    (an unbounded or integer range, a node without a ball, the evaluations spent) is not proved."""
    if any(not isinstance(domain, sympy.Interval) or not (domain.inf.is_finite and domain.sup.is_finite)
           for domain in ranges.values()):
        return False
    symbols = sorted(ranges, key=str)
    pending = [tuple((sympy.Rational(ranges[s].inf), sympy.Rational(ranges[s].sup)) for s in symbols)]
    with working_precision(BALL_DPS):
        try:
            function = compile_ball(expr, Quantities(None, None, BALLS))
        except (Unavailable, ValueError, TypeError):
            return False
        for _ in range(BALL_PIECES):
            if not pending:
                return True
            box = pending.pop()
            env = {s: ball_interval(lo, hi) for s, (lo, hi) in zip(symbols, box, strict=True)}
            try:
                value = function(env)
            except (Unavailable, ValueError, TypeError, ZeroDivisionError):
                return False
            if value.is_finite() and _ball_keeps(condition, value):
                continue
            widest = max(range(len(box)), key=lambda i: box[i][1] - box[i][0])
            lo, hi = box[widest]
            middle = (lo + hi) / 2
            pending += [box[:widest] + ((lo, middle),) + box[widest + 1:],
                        box[:widest] + ((middle, hi),) + box[widest + 1:]]
    return not pending


def _ball_keeps(condition: str, value) -> bool:
    if condition == "nonzero":
        return bool(value > 0 or value < 0)
    if condition == "nonnegative":
        return bool(value >= 0)
    if condition == "positive":
        return bool(value > 0)
    return bool(abs(value) <= 1)


def _from_below(symbol, domain):
    """x = low + t with t >= 0 (t <= high - low unused): log(8*x) on [1, 10] is log(8 + 8t) > 0,
    which SymPy's sign rules see and a bare positive x does not give them."""
    return _shifted(symbol, domain, domain.inf, 1)


def _from_above(symbol, domain):
    """x = high - t with t >= 0."""
    return _shifted(symbol, domain, domain.sup, -1)


def range_stand_ins(symbol, domain) -> list:
    """The stand-ins for ``symbol`` on ``domain`` that SymPy's sign rules and simplifier read best:
    signed by its range, then shifted from its lower and its upper end.  Each widens the range to a
    half-line at most, so what holds for the stand-in holds on the range."""
    return [shift(symbol, domain) for shift in (_signed, _from_below, _from_above)]


def inside_stand_in(symbol, low, high):
    """x = (low + high·w)/(1 + w) with w ≥ 0, which runs over [low, high) (a finite range): x − low
    and high − x are then visibly positive, so 1 − x² on [−1, 1] is 4w/(1 + w)², and |1 − x²|
    is 1 − x².  The upper end is missed, so what holds for the stand-in holds on [low, high) only:
    for a derivative, which may fail at a point anyway, not for a sign."""
    w = sympy.Dummy(symbol.name, nonnegative=True)
    return (low + high * w) / (1 + w)


def _shifted(symbol, domain, end, direction: int):
    """end + direction·t with t >= 0 (an integer for an integer range); the signed symbol where
    that end is infinite.  The range is widened to a half-line, so a proof on it is a proof here."""
    if not end.is_finite:
        return _signed(symbol, domain)
    integer = True if domain.is_subset(sympy.S.Integers) else None
    return end + direction * sympy.Dummy(symbol.name, nonnegative=True, integer=integer)


def _squared(symbol, domain):
    """x = w² with w > 0 (w ≥ 0 when the range reaches 0) for a range in [0, ∞): √x, √(xy) become
    w, w·v, and the factored form shows the square (√(ab) − 2ab/(a + b) = st(s − t)²/(s² + t²)).
    The range is widened to [0, ∞), so a proof there is one here; any other range: the signed
    symbol."""
    if not (domain.inf >= 0) or domain.is_subset(sympy.S.Integers):
        return _signed(symbol, domain)
    positive = bool(domain.inf > 0)
    return sympy.Dummy(symbol.name, nonnegative=True, positive=positive or None) ** 2


def _signed(symbol, domain):
    """A symbol with the sign assumptions its range gives, for SymPy's sign rules."""
    low, high = domain.inf, domain.sup
    assumptions = {"real": True}
    if low >= 0:
        assumptions["nonnegative"] = True
    if low > 0:
        assumptions["positive"] = True
    if high <= 0:
        assumptions["nonpositive"] = True
    if high < 0:
        assumptions["negative"] = True
    if domain.is_subset(sympy.S.Integers):
        assumptions["integer"] = True
    return sympy.Dummy(symbol.name, **assumptions)


#: Largest claim difference (operations) and number of variables :func:`sign_on_box` tries: 4^n
#: substitutions of the expression and of its factored form, each a walk of SymPy's sign rules.
SIGN_BOX_OPS, SIGN_BOX_VARIABLES = 60, 3


def sign_on_box(condition: str, expr, ranges: dict) -> bool:
    """Whether ``expr`` is ``condition`` ("nonnegative" or "positive") at every point of the box
    ``ranges`` (symbol -> SymPy set), by SymPy's sign rules with each variable shifted from either
    end of its range, signed by it, or (a range in [0, ∞)) a square w²: (m − 1)/(1 + ξ²) ≤ 0 for
    m ≤ 1 is −t/(1 + ξ²) with t ≥ 0.
    The factored form too: 2mt − m² − t² is −(m − t)².  Each shift widens the range to a
    half-line, so a proof there is a proof on the box; anything else is no proof."""
    free = sorted(expr.free_symbols, key=str)
    if not free or len(free) > SIGN_BOX_VARIABLES or not set(free) <= set(ranges) \
            or sympy.count_ops(expr) > SIGN_BOX_OPS:
        return False
    forms = {expr, sympy.factor(expr)}
    for shifts in itertools.product((_from_below, _from_above, _signed, _squared), repeat=len(free)):
        substitution = {s: shift(s, ranges[s]) for s, shift in zip(free, shifts, strict=True)}
        if any(_by_signs(condition, form.xreplace(substitution)) for form in forms):
            return True
        # a square root's square shows only once it is written in w: factor after substituting
        if _squared in shifts and _by_signs(condition, sympy.factor(expr.xreplace(substitution))):
            return True
    return False


def _prove(guards: tuple, ranges: dict) -> Proof:
    unknown = []
    for condition, expr, shown in guards:
        if expr.has(GAUSSIAN) or expr.atoms(sympy.core.function.AppliedUndef):
            continue
        free = expr.free_symbols
        if not free:  # a value of the configuration put in
            if _number_violates(condition, expr):
                return Proof(REFUTED, f"{shown} is not defined here ({clip(expr, 30)} is not "
                                      f"{_TEXT[condition]})")
            continue
        if not free <= set(ranges):
            continue  # a Sum's index
        if condition == "unit" and all(isinstance(ranges[s], sympy.Interval) for s in free) and within_unit(
                expr, {s: (ranges[s].inf, ranges[s].sup) for s in free}):
            continue  # cos(x**2 - 1) is in [-1, 1] whatever x: no solveset needed
        if any(_by_signs(condition, expr.xreplace({s: shift(s, ranges[s]) for s in free}))
               for shift in (_from_below, _from_above, _signed)):
            continue
        if len(free) > 1:
            if not _by_balls(condition, expr, {s: ranges[s] for s in free}):
                unknown.append(f"{shown} needs {clip(expr, 30)} {_TEXT[condition]}, not proved on the box")
            continue
        (symbol,) = free
        found = _violations(condition, expr, symbol, ranges[symbol])
        if found is sympy.S.EmptySet or found.is_empty is True:
            continue
        point = _a_point(found)
        if point is not None and found.is_empty is False:
            return Proof(REFUTED, f"{shown} is not defined at {symbol} = {clip(point, 30)} of the range "
                                  f"(it needs {clip(expr, 30)} {_TEXT[condition]})")
        unknown.append(f"that {shown} is defined on the whole range is not proved (SymPy: {clip(found, 40)})")
    if unknown:
        return Proof(UNKNOWN, "; ".join(unknown))
    return Proof(PROVED)


def written_domain(guards: tuple, ranges: dict) -> Proof:
    """Whether every guard holds at every point of ``ranges`` (symbol -> a SymPy set): the module
    docstring.  Under a CPU budget; running out of it, or SymPy giving up, leaves it unknown."""
    if not guards:
        return Proof(PROVED)
    try:
        with limits(seconds=GUARD_SECONDS):
            return guarded("the domains of the claim's operations", _prove, guards, ranges)
    except (BudgetExceededError, CPUDeadline, VerifyInputError, ValueError, TypeError, NotImplementedError,
            RecursionError) as exc:
        return Proof(UNKNOWN, f"the domains of the claim's operations were not settled ({clip(exc, 60)})")


def interval(low, high, integer: bool = False):
    """The range [low, high] (an end ±oo left open), its integers for an integer variable."""
    low, high = sympy.sympify(low), sympy.sympify(high)
    span = sympy.Interval(low, high, low.is_infinite, high.is_infinite)
    return span.intersect(sympy.S.Integers) if integer else span
