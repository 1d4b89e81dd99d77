r"""The decision steps of a universal claim, in order, and the loop that runs them.

:data:`STEPS` is the one list: each :class:`Step` is a function ``Relation -> Decision`` with its
name, the claims it applies to and its budget.  :func:`decide` runs them on one configuration
until one decides; adding a rule is one function and one entry here (the outcome reads the
order of strength from this list too: :func:`strength`).

Budgets that can change a verdict count work, never wall-clock time: each proof step has an
allowance of **CPU seconds** (:func:`verify.base.budget.cpu_seconds`, which does not run faster
when the machine is busy) on each configuration, and the provers inside them count ball
evaluations.  A claim's configurations share a pot of :data:`POT` allowances per step, which
only bounds the time of a claim with many configurations: a claim whose configurations shared
one allowance was decided or not depending on how fast its *earlier* configurations ran (Stein's
identity over tanh, sigmoid, erf, gelu and softplus spent 5.5 of its 6 symbolic CPU s on tanh
and sigmoid, which the next step decides, so erf, which only the symbolic step decides, was
skipped on a loaded machine and not on a quiet one).

Each step declares the hypotheses its conclusion needs (:mod:`verify.claims.hypotheses`): a
*holds* stands only when every one of them is proved; otherwise it is demoted to undecided with
the reason (an expectation whose existence is not proved: a principal value is not an
expectation).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sympy
from sympy.polys.polyerrors import BasePolynomialError

from verify.base.budget import BudgetExceededError, CPUDeadline, cpu_deadline, cpu_seconds, record_spent
from verify.base.errors import ConvergenceError, clip
from verify.claims import structure, universal
from verify.claims.branches import branches_step
from verify.claims.contact import applies as contact_applies
from verify.claims.contact import contact_step
from verify.claims.decision import Decision
from verify.claims.domains import interval, written_domain
from verify.claims.existence import existence_step
from verify.claims.gaussian import DivergentExpectationError
from verify.claims.hypotheses import EXPECTATIONS_EXIST, PROVED, REFUTED, UNKNOWN, Hypothesis, Proof, unmet
from verify.claims.positivity import positivity_step
from verify.claims.quantities import Unavailable
from verify.claims.relation import Relation
from verify.claims.termwise import termwise_step
from verify.verdict import Basis

#: Quantities whose argument must lie in a closed interval: (low, high) (verify.claims.spec.DOMAINS).
_CLOSED_DOMAINS = {"h": (-1, 1), "Phi": (-1, 1), "K": (-1, 1), "Kp": (-1, 1)}


def _arguments_in_domain(rel) -> Proof:
    """Every argument of h, Phi, K and Kp lies in [-1, 1] at every point of the box.  A number or
    a variable whose declared range is inside is checked already (spec); any other argument is
    proved ``-1 <= arg <= 1`` by the decision steps themselves (the balls of a kernel clamp an
    argument that sticks out by rounding, so ``K(6*m*(1-m)) <= 1`` on m in [0, 1], whose argument
    reaches 3/2, once *held*)."""
    for call in rel.calls:
        limits = _CLOSED_DOMAINS.get(type(call).__name__)
        if limits is None or not call.args:
            continue
        (argument,) = call.args[:1]
        if argument.is_number:
            # a value a quantifier put in (K(3*m) at m = 1/2): the spec checked only what was typed
            # as a number, and a Monte-Carlo step evaluated K(3/2) without a word (#48, session 17)
            inside = _number_within(argument, limits)
            if inside is not True:
                name = type(call).__name__
                return Proof(REFUTED if inside is False else UNKNOWN,
                             f"{call} is evaluated at {argument}, outside the domain [{limits[0]}, "
                             f"{limits[1]}] of {name}" if inside is False else
                             f"whether {argument} lies in [{limits[0]}, {limits[1]}] is not proved")
            continue
        if not (argument.free_symbols & set(rel.box)):
            continue
        if argument in rel.box and limits[0] <= rel.box[argument][0] and rel.box[argument][1] <= limits[1]:
            continue
        for side, op in ((limits[1], "<="), (limits[0], ">=")):
            bound = Relation(rel.setting, argument, sympy.Integer(side), op, rel.full, rel.seed, rel.rng)
            found = decide(bound, Budget(rel.full))
            if found.status != "holds":
                status = REFUTED if found.status == "fails" else UNKNOWN
                name = type(call).__name__
                return Proof(status, f"that {argument} {op} {side} on the whole range is not proved "
                                     f"({found.status}), so {call} may leave the domain of {name}")
    return Proof(PROVED)


def _number_within(number, limits) -> bool | None:
    """Whether an exact number lies in [low, high]: True, False, or None when SymPy cannot tell."""
    try:
        return bool(limits[0] <= number) and bool(number <= limits[1])
    except TypeError:  # a relational SymPy cannot decide (a complex value, an unevaluated form)
        return None


#: Every step's *holds* needs this.
ARGUMENTS_IN_DOMAIN = Hypothesis("every kernel argument lies in [-1, 1]", _arguments_in_domain)


def _operations_defined(rel) -> Proof:
    """Every operation written in the claim is defined on the box (:mod:`verify.claims.domains`)."""
    return written_domain(rel.guards, {s: interval(low, high) for s, (low, high) in rel.box.items()})


#: Every step's *holds* needs this too: SymPy rewrote sqrt(x)**2 to x before any step saw it.
OPERATIONS_DEFINED = Hypothesis("every operation written in the claim is defined on the range",
                                _operations_defined)


def _exact_only(rel: Relation) -> bool:
    return not rel.monte_carlo


@dataclass(frozen=True)
class Step:
    """One decision rule: ``run(relation)`` decides or returns status ``undecided`` with a reason."""

    name: str
    run: Callable[[Relation], Decision]
    #: CPU seconds (quick, --full) this step may spend on one configuration (and POT times that on
    #: all of a claim's configurations); None: no allowance (cheap, or bounded by its own work count)
    cpu_budget: tuple[float, float] | None = None
    applies: Callable[[Relation], bool] = _exact_only
    #: what its *holds* (or *consistent*) needs (default deny: each must be proved,
    #: :mod:`verify.claims.hypotheses`)
    hypotheses: tuple[Hypothesis, ...] = (EXPECTATIONS_EXIST, ARGUMENTS_IN_DOMAIN, OPERATIONS_DEFINED)


#: The steps, strongest evidence first: the first that decides reports itself (Decision.step).
STEPS: tuple[Step, ...] = (
    Step("existence", existence_step, applies=lambda rel: bool(rel.uses("Eg")), hypotheses=()),
    Step("symbolic", universal.symbolic_step, cpu_budget=(6.0, 120.0)),
    Step("expectations", structure.expectations_step, cpu_budget=(6.0, 120.0)),
    Step("series", structure.series_step, cpu_budget=(6.0, 120.0)),
    Step("termwise", termwise_step, cpu_budget=(6.0, 120.0)),
    Step("positivity", positivity_step, cpu_budget=(6.0, 120.0), applies=lambda rel: bool(rel.uses("Eg"))),
    Step("certified", universal.certified_step, cpu_budget=(5.0, 300.0)),
    Step("contact", contact_step, cpu_budget=(5.0, 300.0),
         applies=lambda rel: _exact_only(rel) and contact_applies(rel)),
    Step("branches", lambda rel: branches_step(rel, _decide_alone), cpu_budget=(8.0, 120.0),
         applies=lambda rel: _exact_only(rel) and len(rel.box) == 1),
    Step("search", universal.search_step),
    Step("statistical", universal.statistical_step, applies=lambda rel: rel.monte_carlo),
)


def _decide_alone(rel: Relation) -> Decision:
    """``rel`` decided by every step with allowances of its own (a piece of :mod:`.branches`)."""
    return decide(rel, Budget(rel.full))


#: How many configurations' allowances a claim's configurations share, per step: two keeps a
#: claim over many configurations that no step decides near its old cost (Proposition 21's claim
#: over 16 configurations takes 20 CPU s, 30 with four), and leaves Stein's identity over five
#: activations (7 symbolic CPU s in all, under 6 on any one) decided with its allowances halved.
POT = 2


def strength(step: str) -> int:
    """The position of ``step`` in STEPS (0 strongest); steps of other procedures rank last."""
    names = [s.name for s in STEPS]
    return names.index(step) if step in names else len(names)


class Budget:
    """The CPU seconds each budgeted step has spent on one claim (module docstring)."""

    def __init__(self, full: bool):
        self.full = full
        self.spent = {step.name: 0.0 for step in STEPS if step.cpu_budget}

    def limit(self, step: Step) -> float:
        return step.cpu_budget[self.full]

    def allows(self, step: Step) -> bool:
        return step.cpu_budget is None or self.spent[step.name] < POT * self.limit(step)

    def deadline(self, step: Step) -> float:
        """The CPU seconds one run of ``step`` (one configuration) may take: its allowance, or what
        the claim's pot has left if less, plus half an allowance, so that a run near its end may
        still finish a moderate piece of work; past that it is stopped (a single SymPy
        simplification used to run for minutes)."""
        left = min(self.limit(step), POT * self.limit(step) - self.spent[step.name])
        return left + self.limit(step) / 2

    def charge(self, step: Step, start: float) -> None:
        if step.cpu_budget:
            self.spent[step.name] += cpu_seconds() - start


#: The statuses a step may end the chain with; any other (undecided, or a value no step should
#: give) passes to the next step (default deny: an unknown status once counted as proved).
_VERDICTS = ("holds", "fails", "consistent", "inconclusive")


def decide(rel: Relation, budget: Budget) -> Decision:
    """Run STEPS on one configuration until one decides (module docstring)."""
    undecided: list[str] = []
    for step in STEPS:
        if not step.applies(rel):
            continue
        if not budget.allows(step):
            record_spent()
            undecided.append(f"{step.name}: skipped, the claim's {step.name} CPU-time budget "
                             f"({POT * budget.limit(step):g} CPU s over its configurations) is spent")
            continue
        start = cpu_seconds()
        try:
            if step.cpu_budget:
                with cpu_deadline(budget.deadline(step)):
                    result = step.run(rel)
            else:
                result = step.run(rel)
        except DivergentExpectationError as exc:
            # an integral SymPy evaluates to ±oo where the existence step could not decide (an
            # oscillating tail, exp(g²/2) sin(g)²): the expectation does not exist (was an error)
            result = Decision("fails", Basis.EXACT, "existence",
                              detail=f"{exc}; a relation about its value is false")
        except (Unavailable, ConvergenceError, BudgetExceededError) as exc:
            # a value this step's arithmetic cannot give, or not within its CPU-time limit
            result = Decision("undecided", None, step.name, detail=f"numerical failure: {exc}")
        except (BasePolynomialError, NotImplementedError) as exc:
            # SymPy giving up inside its own algebra on a well-formed expression (integrate's
            # heurisch, a Poly of a transcendental generator): this step knows nothing, the next
            # ones may decide; never a traceback (issue #48)
            result = Decision("undecided", None, step.name,
                              detail=f"SymPy could not work with it ({type(exc).__name__}: {clip(exc, 60)})")
        except CPUDeadline:
            result = Decision("undecided", None, step.name,
                              detail=f"stopped after {budget.deadline(step):g} CPU s (its allowance and "
                                     "half more)")
        budget.charge(step, start)
        # default deny: a Monte-Carlo *consistent* needs the hypotheses as much as a proof's *holds*
        reason = unmet(step.hypotheses, rel) if result.status in ("holds", "consistent") else ""
        if reason:
            found = "holds for the value computed" if result.status == "holds" else \
                "is consistent with the values sampled"
            undecided.append(f"{step.name}: {found}, but a hypothesis is not proved: "
                             f"{reason}")
            continue
        if result.status in _VERDICTS:
            if result.status == "inconclusive" and undecided:
                # why no step could prove it (e.g. the interval where the prover stalled)
                result.detail += "; " + "; ".join(undecided)
            if undecided or step.name == "search":
                result.numbers["undecided"] = undecided
            return result
        undecided.append(f"{step.name}: {result.detail}")
    return Decision("inconclusive", Basis.NONE, "search", detail="; ".join(undecided) or "no step applies",
                    numbers={"undecided": undecided})
