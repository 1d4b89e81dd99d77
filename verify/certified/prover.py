r"""A branch-and-bound prover for "f(m) ≥ g(m) for all m in [a, b]".

``f`` and ``g`` are ball functions: given a ball m they return balls containing f(m'), g(m')
for every m' in m (everything in :mod:`verify.certified` is such a function).  The prover
keeps a list of open subintervals, most doubtful first (smallest lower bound of f − g):

- if the ball f(I) − g(I) is > 0 on all of I, I joins the cover;
- else f − g is evaluated at the exact midpoint of I: a value < 0 with certainty is a
  counterexample (REFUTED, the point is the witness);
- else I is halved, unless it has reached the depth limit (it is then a stall) or the
  evaluation budget is spent.

The endpoints a and b are tried as points first (tight inequalities often fail there).

Outcomes: PROVED (the cover — finitely many intervals, each with f − g > 0 certified — spans
[a, b]), REFUTED (a point where f − g < 0 is certified), UNDECIDED (the smallest interval
where the budget ran out is reported).  PROVED and REFUTED are proofs; UNDECIDED is not a
verdict.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from flint import arb

from verify.certified.balls import exact, format_ball, interval

#: Bisection depth: 2^-40 of the interval is far below any feature of the smooth functions here,
#: and at this depth the exact dyadic midpoints still need only ~100 bits.
MAX_DEPTH = 40
#: Evaluations of f − g (on intervals and points) before giving up.
MAX_EVALUATIONS = 20_000

BallFunction = Callable[[arb], arb]


class Status(Enum):
    PROVED = "proved"
    REFUTED = "refuted"
    UNDECIDED = "undecided"


@dataclass(frozen=True)
class ProofResult:
    """The prover's verdict on f ≥ g over [a, b].

    ``cover_size``: intervals in the certified cover (for REFUTED/UNDECIDED, those certified so
    far); ``margin``: a lower bound of min (f − g) over the cover (PROVED only);
    ``witness``/``witness_gap``: the point and a ball for f − g there (< 0, REFUTED only);
    ``stall``: the smallest interval left undecided (UNDECIDED only)."""

    status: Status
    cover_size: int
    evaluations: int
    margin: arb | None = None
    witness: arb | None = None
    witness_gap: arb | None = None
    stall: tuple[arb, arb] | None = None
    #: the interval's end, as the caller gave it, where the refutation was found (else None)
    endpoint: object = None

    @property
    def proved(self) -> bool:
        return self.status is Status.PROVED

    @property
    def refuted(self) -> bool:
        return self.status is Status.REFUTED

    def describe(self, variable: str = "m") -> str:
        if self.status is Status.PROVED and self.margin is not None:
            return (f"proved: {self.cover_size} intervals, each with f - g >= "
                    f"{self.margin.str(3, radius=False)} > 0")
        if self.status is Status.REFUTED and self.witness is not None and self.witness_gap is not None:
            return (f"refuted at {variable} = {self.witness.str(17, radius=False)}: "
                    f"f - g = {format_ball(self.witness_gap, 6)} < 0")
        if self.stall is None:
            return self.status.value
        low, high = self.stall
        return (f"undecided after {self.evaluations} evaluations; stalled on "
                f"[{low.str(17, radius=False)}, {high.str(17, radius=False)}]")


def prove_geq(f: BallFunction, g: BallFunction, a, b, *, max_depth: int = MAX_DEPTH,
              max_evaluations: int = MAX_EVALUATIONS, strict: bool = True) -> ProofResult:
    """Prove f(m) ≥ g(m) for all m ∈ [a, b], or refute it.

    ``a`` and ``b`` are exact numbers (floats, ints, Fractions or exact balls).  With
    ``strict`` (the default) every cover interval needs f − g > 0 certainly; without it a ball
    whose lower end is ≥ 0 exactly suffices, which proves f ≥ g (not f > g) and lets an
    attained bound through where the ball's lower end is exact (acos(ρ) at ρ = 1 is 0)."""
    low, high = exact(a), exact(b)
    if not low <= high:
        raise ValueError(f"empty interval [{a}, {b}]")
    evaluations = 0

    def gap(m: arb) -> arb:
        nonlocal evaluations
        evaluations += 1
        return f(m) - g(m)

    for point, given in ((low, a), (high, b)):
        value = gap(point)
        if value < 0:
            # An endpoint like 1/1000 is not dyadic, so its ball is not a point: the refutation
            # holds at every point of that ball, the endpoint as given among them.
            return ProofResult(Status.REFUTED, 0, evaluations, witness=point, witness_gap=value,
                               endpoint=given)
    order = itertools.count()  # tie-breaker: heapq never compares balls
    first = gap(interval(low, high))
    queue = [(_priority(first), next(order), low, high, 0, first)]
    cover, margin, stalls = 0, None, []
    while queue:
        _, _, left, right, depth, value = heapq.heappop(queue)
        if value > 0 or (not strict and value >= 0):
            cover += 1
            bound = value.lower()
            margin = bound if margin is None or bound < margin else margin
            continue
        middle = ((left + right) / 2).mid()
        at_middle = gap(arb(middle))
        if at_middle < 0:
            return ProofResult(Status.REFUTED, cover, evaluations, witness=arb(middle), witness_gap=at_middle)
        if depth >= max_depth or evaluations >= max_evaluations:
            stalls.append((left, right))
            continue
        for child_low, child_high in ((left, arb(middle)), (arb(middle), right)):
            child = gap(interval(child_low, child_high))
            heapq.heappush(queue, (_priority(child), next(order), child_low, child_high, depth + 1, child))
    if stalls:
        smallest = min(stalls, key=lambda s: s[1] - s[0])
        return ProofResult(Status.UNDECIDED, cover, evaluations, stall=smallest)
    return ProofResult(Status.PROVED, cover, evaluations, margin=margin)


def _priority(value: arb) -> float:
    """Most doubtful first: the smallest lower bound of f − g (NaN balls first of all)."""
    if not value.is_finite():
        return float("-inf")
    return float(value.lower())


def constant(value) -> BallFunction:
    """The ball function m ↦ ``value`` (for g in bounds such as h(m) ≥ S_k)."""
    ball = exact(value)
    return lambda m: ball
