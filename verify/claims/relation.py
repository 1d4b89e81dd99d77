r"""One claim on one configuration: the relation ``lhs OP rhs`` and the evaluators its steps share.

A :class:`Relation` is built once per configuration (:mod:`verify.claims.decide`) and handed to
every decision step of :data:`verify.claims.steps.STEPS`.  Each way of evaluating the two sides is
built on first use and kept, so the steps do not rebuild the same evaluator from the same values:

- :meth:`Relation.exact_sides`: both sides in closed form (SymPy) on the exact instance, or the
  reason there is none (:class:`~verify.claims.quantities.Unavailable`, raised again on every call);
- :meth:`Relation.gap`: env → a ball of ±(lhs − rhs) (Arb), signed so that the claim reads
  "gap ≥ 0" (unsigned for ``==``); call it inside ``working_precision(BALL_DPS)``;
- :meth:`Relation.float_sides`: the two sides as float64 functions of the box variables.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache

import numpy as np
import sympy
from flint import arb

from verify.base.errors import clip
from verify.certified.balls import BALLS, working_precision
from verify.certified.compile import constant as number_ball
from verify.claims.evaluate import compile_ball, exact, float_function, is_hermite_sum, quantity_calls, scalars_of

from verify.claims.gaussian import integrand
from verify.claims.language import DERIVED_SCALARS, InexactNumberError, exact_number
from verify.claims.quantities import BALL_DPS, Quantities, Unavailable
from verify.model.activations import get_activation
from verify.model.arithmetic import EXACT, FLOAT64


@dataclass
class Relation:
    """``lhs op rhs`` on the configuration ``setting`` (its model, activation, box of real variables)."""

    setting: object
    lhs: object
    rhs: object
    op: str
    full: bool = False
    seed: int = 0
    rng: np.random.Generator | None = None
    _cache: dict = field(default_factory=dict, repr=False)
    #: Eg(...) calls the claim's arithmetic cancelled (:attr:`ParsedClaim.cancelled`), prepared for
    #: this configuration: their existence is checked like the sides'
    cancelled: tuple = ()
    #: the domain conditions of the operations as written (:attr:`ParsedClaim.guards`), with this
    #: configuration's values put in
    guards: tuple = ()

    @cached_property
    def act(self):
        return get_activation(self.setting.activation) if self.setting.activation else None

    @property
    def box(self) -> dict:
        return self.setting.box

    @cached_property
    def calls(self) -> list:
        """The quantity calls of both sides (Eg(...) whole), and those the claim's arithmetic
        cancelled: of the sides, not of lhs − rhs, where Eg(1/g) == Eg(1/g) has none."""
        return quantity_calls(sympy.Tuple(self.lhs, self.rhs, *self.cancelled))

    def uses(self, name: str) -> bool:
        return any(type(f).__name__ == name for f in self.calls)

    def integrand(self, body):
        """An Eg(...) argument with σ and σ′ of this configuration substituted (a function of g)."""
        return integrand(body, self.act)

    @cached_property
    def monte_carlo(self) -> bool:
        return self.uses("grad_var")

    def with_sides(self, lhs, rhs) -> Relation:
        """The same configuration and relation with other sides (nothing cached carried over)."""
        return Relation(self.setting, lhs, rhs, self.op, self.full, self.seed, self.rng,
                        cancelled=self.cancelled, guards=self.guards)

    def within(self, symbol, low, high) -> Relation:
        """The same relation with one box variable restricted to [low, high] (ends as SymPy numbers:
        every step reads a box's ends as SymPy numbers, and a Python 0 from a split crashed one)."""
        setting = replace(self.setting, box={**self.box, symbol: (sympy.sympify(low), sympy.sympify(high))})
        return Relation(setting, self.lhs, self.rhs, self.op, self.full, self.seed, self.rng,
                        cancelled=self.cancelled, guards=self.guards)

    def at(self, point: dict) -> Relation:
        """The same relation with some box variables fixed at exact values."""
        box = {s: r for s, r in self.box.items() if s not in point}
        setting = replace(self.setting, box=box)
        return Relation(setting, self.lhs.xreplace(point), self.rhs.xreplace(point), self.op, self.full,
                        self.seed, self.rng, cancelled=tuple(c.xreplace(point) for c in self.cancelled),
                        guards=tuple((c, e.xreplace(point), t) for c, e, t in self.guards))

    # --- exact ---------------------------------------------------------------------------------
    def exact_sides(self, notes: list | None = None):
        """(lhs, rhs) in closed form; raises Unavailable or InexactNumberError (cached) when not."""
        if "exact" not in self._cache:
            backend = Quantities(self.setting.model, self.act, EXACT)
            backend.box = dict(self.box)  # a Hermite sum's ratio declared in [-1, 1] (Mehler)
            try:
                sides = []
                for side in (self.lhs, self.rhs):
                    # Scalars first: a quantity may take one as its argument (mu(lstar)).
                    value = exact(side.xreplace(scalars_of(side, backend, DERIVED_SCALARS)), backend)
                    value = value.xreplace(scalars_of(value, backend, DERIVED_SCALARS))
                    if value.has(sympy.Derivative):  # of an opaque kernel: not a closed form
                        raise Unavailable(f"no closed form for {clip(value, 60)}: a derivative of a "
                                          "function known only by its facts")
                    sides.append(exact_number(value))
                self._cache["exact"] = (tuple(sides), list(backend.notes))
            except (Unavailable, InexactNumberError) as exc:
                self._cache["exact"] = exc
        found = self._cache["exact"]
        if isinstance(found, Exception):
            raise found
        if notes is not None:
            notes += found[1]
        return found[0]

    # --- balls ---------------------------------------------------------------------------------
    def gap(self):
        """env -> ball of ±(lhs − rhs) with ``gap.notes`` (the tail bounds used); raises Unavailable."""
        if "gap" not in self._cache:
            try:
                self._cache["gap"] = self._compile_gap()
            except Unavailable as exc:
                self._cache["gap"] = exc
        found = self._cache["gap"]
        if isinstance(found, Exception):
            raise found
        return found

    def _compile_gap(self):
        backend = Quantities(self.setting.model, self.act, BALLS)
        backend.box = dict(self.box)
        left, right = compile_ball(self.lhs, backend), compile_ball(self.rhs, backend)
        return _signed_gap(self, backend, left, right)

    def share_gap(self, draws: DrawnGaps) -> None:
        """Read this relation in balls through ``draws``' compiled sides, rebound to its instance."""
        self._cache["gap"] = draws.gap_for(self)

    def ball_sides(self, point: dict) -> tuple[float, float]:
        """The two sides at an exact point of the box, as the midpoints of their balls: the values
        a certified or exact step saw (the float64 backend may read Hermite coefficients from the
        disk cache, which never decides a certified verdict nor speaks for one); raises Unavailable."""
        with working_precision(BALL_DPS):
            scalars, left, right = self.gap().sides
            env = scalars | point_balls(point)
            return float(arb(left(env)).mid()), float(arb(right(env)).mid())

    def certified_check(self, point: dict) -> str:
        """holds / fails / undecided at one exact point of the box, in ball arithmetic."""
        with working_precision(BALL_DPS):
            try:
                return decide_ball(self.op, self.gap()(point_balls(point)))
            except Unavailable:
                return "undecided"

    # --- float64 -------------------------------------------------------------------------------
    def float_sides(self):
        """(box symbols, (f_lhs, f_rhs), the float backend)."""
        if "float" not in self._cache:
            backend = Quantities(self.setting.model, self.act, FLOAT64, self.seed, self.full)
            symbols = list(self.box)
            functions = []
            for side in (self.lhs, self.rhs):
                values = scalars_of(side, backend, DERIVED_SCALARS)
                functions.append(float_function(side.xreplace(values), symbols, backend))
            self._cache["float"] = (symbols, tuple(functions), backend)
        return self._cache["float"]


def signed_symbol(symbol, low, high):
    """A stand-in for the box variable ``symbol`` whose sign SymPy knows from its range [low, high]
    (``Abs(a)`` is ``a`` for a in [0, 1]; ``1 + a*g**2`` has no real zero)."""
    if low > 0:
        return _signed_dummy(symbol.name, "positive")
    if low >= 0:
        return _signed_dummy(symbol.name, "nonnegative")
    if high < 0:
        return _signed_dummy(symbol.name, "negative")
    if high <= 0:
        return _signed_dummy(symbol.name, "nonpositive")
    return _signed_dummy(symbol.name, "real")


@lru_cache(maxsize=256)
def _signed_dummy(name: str, sign: str):
    # one Dummy per name and sign, so that the same difference with its signs is the same
    # expression each time (and the guarded simplification of it is remembered)
    return sympy.Dummy(name, **{sign: True})


def point_balls(point: dict) -> dict:
    """A configuration's exact values (ints, Fractions, SymPy numbers) as balls."""
    return {s: number_ball(EXACT.number(v)) for s, v in point.items()}


def decide_ball(op: str, value) -> str:
    """holds / fails / undecided for ``gap OP 0`` from one ball of the (signed) gap."""
    if op == "==":
        return "fails" if (value > 0 or value < 0) else ("holds" if value == 0 else "undecided")
    if value > 0 or (op in ("<=", ">=") and value >= 0):  # a lower end of exactly 0 proves >= 0
        return "holds"
    if value < 0:
        return "fails"
    if value == 0:  # an exact zero ball
        return "holds" if op in ("<=", ">=") else "fails"
    return "undecided"


def _signed_gap(rel: Relation, backend, left, right):
    """env -> sign · (left − right) with the instance's scalars, ``notes`` and ``sides`` attached."""
    scalars = scalars_of(rel.lhs - rel.rhs, backend, DERIVED_SCALARS)
    sign = -1 if rel.op in ("<=", "<") else 1

    def gap(env: dict):
        env = scalars | env
        return sign * (left(env) - right(env))

    gap.notes = backend.notes
    gap.sides = (scalars, left, right)
    return gap


class DrawnGaps:
    """The ball gap of one relation compiled once for all the drawn instances of a configuration
    (the sign patterns of a ``--prob`` claim), its backend rebound to each draw
    (:meth:`Quantities.rebind`) as the float64 reading's is.

    Compiling is most of a draw's ball reading where a side expands a sum into k² terms
    (display-d.5.2-2).  A compiled side reads the instance at call time wherever it calls a
    quantity (h, c(i), G(i, j), ...), and the scalars (lam_min, gamma) are read again per draw; it
    evaluates at compile time only numbers and the activation's Eg(...), Hermite sums and
    integrals.  So sides holding any of those three are compiled per draw (:meth:`applies`)."""

    def __init__(self, setting, lhs, rhs):
        self.lhs, self.rhs = lhs, rhs
        self.act = get_activation(setting.activation) if setting.activation else None
        self.backend = Quantities(setting.model, self.act, BALLS)
        self.backend.box = dict(setting.box)
        self._sides = None

    @staticmethod
    def applies(lhs, rhs) -> bool:
        """Whether the sides evaluate nothing of the instance at compile time (class docstring)."""
        both = sympy.Tuple(lhs, rhs)
        return not (both.has(sympy.Integral) or any(type(f).__name__ == "Eg" or is_hermite_sum(f)
                                                    for f in sympy.preorder_traversal(both)))

    def gap_for(self, rel: Relation):
        if rel.lhs != self.lhs or rel.rhs != self.rhs:
            raise ValueError("DrawnGaps serves the relation it was compiled for")
        self.backend.rebind(rel.setting.model)
        if self._sides is None:
            try:
                with working_precision(BALL_DPS):  # the constants at the precision gap() runs at
                    self._sides = (compile_ball(self.lhs, self.backend), compile_ball(self.rhs, self.backend))
            except Unavailable as exc:
                self._sides = exc
        if isinstance(self._sides, Exception):
            return self._sides
        return _signed_gap(rel, self.backend, *self._sides)
