r"""Does E[f(g)] exist?  ``Eg(f)`` is defined only where E|f(g)| < ∞.

A principal value is not an expectation: SymPy integrates 1/g against the Gaussian density to 0
(the two halves cancel), yet E|1/g| = ∞, so "Eg(1/g) == 0" asserts a property of a number that
does not exist.  Every ``Eg`` integrand is therefore classified before its value is used:

- **tails** (|g| → ∞): integrable when :func:`verify.certified.growth.tail_majorant` proves
  |f| ≤ Σ c tⁿ e^{bt} on both tails (anything below e^{g²/2 − ε} is integrable against φ; these
  majorants are), or when g²·f(g)·φ(g) has a finite limit (then |f φ| = O(1/g²)); divergent
  when g·f(g)·φ(g) tends to a nonzero limit or to ±∞ (then |f φ| ≥ c/|g| on the tail, and the
  integral diverges like ∫ dg/g);
- **finite singular points**: every point where the integrand may blow up, proved to be a finite
  set from its syntax tree by :func:`verify.claims.singular.singular_candidates` (the zeros of the
  bases raised to negative powers and of the arguments of log; an unknown function makes
  existence unknown, never assumed); on each side
  g = g₀ ± t the order α = lim log|f| / log t decides: α > −1 integrable, α < −1 divergent,
  α = −1 divergent when t·|f| tends to a nonzero limit (∫ dt/t), else undecided.

The answer is one of :data:`EXISTS`, :data:`DIVERGES` (with the reason) or :data:`UNKNOWN` (with
the reason): a claim whose expectation diverges is false (the existence step refutes it), and
one whose existence is unknown never *holds* (:mod:`verify.claims.steps`).  The SymPy limits run
under the CPU-time guard of :mod:`verify.base.budget`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import sympy

from verify.base.budget import BudgetExceededError, guarded, limits
from verify.base.errors import clip
from verify.base.limits import proved_limit
from verify.base.singular import singular_candidates
from verify.certified.errors import CertificationError
from verify.certified.growth import tail_majorant
from verify.claims.decision import Decision
from verify.claims.language import GAUSSIAN, expectation_calls
from verify.verdict import Basis

EXISTS, DIVERGES, UNKNOWN = "exists", "diverges", "unknown"
#: CPU seconds for the limits of one integrand (each takes well under a second on the corpus).
LIMIT_SECONDS = 4.0
#: Singular points examined per integrand (more: undecided).
MAX_SINGULAR_POINTS = 8


@dataclass(frozen=True)
class Existence:
    status: str
    reason: str = ""


@lru_cache(maxsize=256)
def existence(body) -> Existence:
    """Whether E[body(g)] exists, g ~ N(0, 1) (module docstring)."""
    try:
        with limits(seconds=LIMIT_SECONDS):
            return guarded(f"existence of Eg({clip(body, 40)})", _classify, body)
    except BudgetExceededError:
        return Existence(UNKNOWN, f"the limits deciding whether E|{clip(body, 40)}| is finite ran out of "
                                  f"their {LIMIT_SECONDS:g} CPU s")


def _classify(body) -> Existence:
    if not body.has(GAUSSIAN):
        return Existence(EXISTS)
    unknown = []
    for found in (_finite_points(body), _tails(body)):
        if found.status == DIVERGES:
            return found
        if found.status == UNKNOWN:
            unknown.append(found.reason)
    return Existence(UNKNOWN, "; ".join(unknown)) if unknown else Existence(EXISTS)


def _tails(body) -> Existence:
    undecided = []
    for side in (1, -1):
        try:
            tail_majorant(body, GAUSSIAN, side, 1)
            continue
        except (CertificationError, ValueError, TypeError):
            pass
        edge = sympy.oo if side > 0 else -sympy.oo
        density = sympy.exp(-(GAUSSIAN**2) / 2)
        bounded = _limit(GAUSSIAN**2 * body * density, GAUSSIAN, edge)
        if bounded is not None and bounded.is_finite:
            continue  # g²·f·φ has a finite limit, so |f φ| = O(1/g²) on the tail
        decay = _limit(sympy.log(sympy.Abs(body * density)) / sympy.log(sympy.Abs(GAUSSIAN)), GAUSSIAN, edge)
        if decay is not None and decay.is_number and decay.is_comparable and decay < -1:
            # |f φ| = |g|^(decay + o(1)) with decay < -1: below |g|^(-1-δ) on the tail (δ = (-1 - decay)/2)
            continue
        rate = _limit(GAUSSIAN * body * density, GAUSSIAN, edge)
        if rate is not None and (rate in (sympy.oo, -sympy.oo) or (rate.is_number and rate.is_nonzero)):
            return Existence(DIVERGES, f"|{clip(body, 40)}|·φ(g) decays no faster than 1/|g| as "
                                       f"g -> {'+' if side > 0 else '-'}oo, so E|{clip(body, 40)}| = oo")
        undecided.append(f"no growth bound of {clip(body, 40)} as g -> {'+' if side > 0 else '-'}oo")
    return Existence(UNKNOWN, "; ".join(undecided)) if undecided else Existence(EXISTS)


#: Where the singular points of an integrand with infinitely many (1/cos(g)) are looked for: one
#: non-integrable point proves divergence, though the points found cannot prove existence.
SAMPLED_SINGULARITIES = sympy.Interval(-16, 16)


def singular_points(body):
    """(the real points where ``body`` may blow up, whether that is all of them), or None when they
    cannot be listed (:func:`verify.claims.singular.singular_candidates`, default deny)."""
    return singular_candidates(body, GAUSSIAN, SAMPLED_SINGULARITIES)


def _finite_points(body) -> Existence:
    found = singular_points(body)
    if found is None:
        return Existence(UNKNOWN, f"the points where {clip(body, 40)} may blow up are not a finite set")
    points, complete = found
    if len(points) > MAX_SINGULAR_POINTS:
        # the nearest to 0: one of them diverging is enough
        points = sorted(points, key=lambda z: abs(float(z)))[:MAX_SINGULAR_POINTS]
        complete = False
    t = sympy.Symbol("t", positive=True)
    unknown = []  # one divergent point settles it, so the others are examined after an unknown one
    for point in sorted(points, key=lambda z: (abs(float(z)), float(z))):  # the nearest to 0 first
        for side in (1, -1):
            local = body.xreplace({GAUSSIAN: point + side * t})
            if _bounded_beside(local, t):
                continue
            order = _order(local, t)
            where = f"g = {point}{'+' if side > 0 else '-'}"
            if order is None:
                unknown.append(f"the order of {clip(body, 40)} at {where} is not known")
            elif order < -1:
                return Existence(DIVERGES, f"|{clip(body, 40)}| ~ |{GAUSSIAN - point}|^({order}) at {where}, "
                                           f"not integrable, so E|{clip(body, 40)}| = oo")
            elif order == -1:
                rate = _limit(t * local, t, 0)
                if rate is not None and (rate in (sympy.oo, -sympy.oo) or rate.is_nonzero):
                    return Existence(DIVERGES, f"|{clip(body, 40)}| ~ c/|{GAUSSIAN - point}| at {where}, not "
                                               f"integrable (a principal value is not an expectation)")
                found = _condensed(local, t)
                if found == DIVERGES:
                    return Existence(DIVERGES, f"|{clip(body, 40)}| ~ |{GAUSSIAN - point}|^-1 times a factor "
                                               f"too slow to make it integrable at {where} (t = e^-u: the "
                                               f"integrand in u decays no faster than 1/u)")
                if found != EXISTS:
                    unknown.append(f"{clip(body, 40)} ~ |{GAUSSIAN - point}|^-1 times a slowly varying "
                                   f"factor at {where}")
    if unknown:
        return Existence(UNKNOWN, unknown[0])
    if not complete:
        return Existence(UNKNOWN, f"the points where {clip(body, 40)} may blow up are not a finite set "
                                  f"(those examined are integrable)")
    return Existence(EXISTS)


def _bounded_beside(local, t) -> bool:
    """local(t) has a proved finite limit as t -> 0+, so it is bounded on some (0, δ] and integrable
    there: a removable point (tanh(g)/g at 0) is settled without the order's limit of log|local|/log t,
    which took 3 of its 4 CPU s for ((1 + tanh g)²/(1 + tanh² g) − 1)·tanh(g)/g (a verdict then
    depended on the machine's load).  A bounded oscillation (AccumBounds) is not a limit."""
    value = _limit(local, t, 0)
    return value is not None and value.is_number and not isinstance(value, sympy.AccumBounds) \
        and value.is_finite is True


def _condensed(local, t) -> str:
    """Whether ∫_0 |local(t)| dt converges when |local| ~ 1/t times a slowly varying factor, by the
    substitution t = e^{-u}: ∫_0^ε |local(t)| dt = ∫_U^∞ |local(e^{-u})| e^{-u} du, and the
    integrand in u decides: O(1/u²) converges (u²·h has a finite limit), ≥ c/u diverges (u·h tends
    to a nonzero limit or ∞).  1/(t(1 + log² t)) becomes 1/(1 + u²): integrable; 1/(t(1 + |log t|))
    becomes 1/(1 + u): not."""
    u = sympy.Symbol("u", positive=True)
    condensed = sympy.Abs(local).xreplace({t: sympy.exp(-u)}) * sympy.exp(-u)
    squared = _limit(u**2 * condensed, u, sympy.oo)
    if squared is not None and squared.is_finite:
        return EXISTS
    rate = _limit(u * condensed, u, sympy.oo)
    if rate is not None and (rate in (sympy.oo, -sympy.oo) or (rate.is_number and rate.is_nonzero)):
        return DIVERGES
    return UNKNOWN


def _limit(expr, t, point):
    # only where SymPy's limit is proved (no oscillating function of an unbounded argument: it
    # read g**2*f*phi as -> 0 for f = 1/(exp(-g**2) + cos(g)**2), whose expectation diverges)
    return proved_limit(expr, t, point, "+")


def _order(local, t):
    """lim log|local| / log t as t -> 0+ (a rational or None)."""
    order = _limit(sympy.log(sympy.Abs(local)) / sympy.log(t), t, 0)
    if order is None or order in (sympy.oo, -sympy.oo):
        # |local| -> 0 faster than any power (or a pure log): integrable; a blow-up faster than any
        # power: not.
        return None if order is None else (sympy.Integer(0) if order == sympy.oo else sympy.Integer(-2))
    return order if order.is_Rational else (order if order.is_number else None)


def claim_expectations(rel) -> Existence:
    """Whether every Eg(f) of the claim, with σ substituted, exists: DIVERGES with the first one
    that does not, UNKNOWN with every one not proved, else EXISTS (the one loop behind both the
    existence step and the hypothesis :data:`verify.claims.hypotheses.EXPECTATIONS_EXIST`)."""
    unknown = []
    for call in expectation_calls(rel.lhs, rel.rhs, *rel.cancelled):
        (body,) = call.args
        found = existence(rel.integrand(body))  # a Dirac delta in it is refused (bad input)
        if found.status == DIVERGES:
            return Existence(DIVERGES, f"{call} does not exist: {found.reason}")
        if found.status == UNKNOWN:
            unknown.append(f"that {call} exists is not proved ({found.reason})")
    return Existence(UNKNOWN, "; ".join(unknown)) if unknown else Existence(EXISTS)


def existence_step(rel) -> Decision:
    """Refute a claim about an expectation that does not exist.

    Each Eg(f) of the claim, with σ substituted, is classified (module docstring).  A divergent one
    makes the claim false: it states a property of a number that does not exist.  An unknown one
    decides nothing here; every later step declares the hypothesis that the expectations exist
    (:data:`verify.claims.hypotheses.EXPECTATIONS_EXIST`), so none of their *holds* stands."""
    found = claim_expectations(rel)
    if found.status == DIVERGES:
        return Decision("fails", Basis.EXACT, "existence", point=_centre(rel.box),
                        detail=f"{found.reason}; a relation about its value is false")
    return Decision("undecided", None, "existence", detail=found.reason or "every Eg(...) exists")


def _centre(box: dict) -> dict:
    return {s: (low + high) / 2 for s, (low, high) in box.items()}
