r"""Certified re-decisions: Arb balls that settle what a check's fast path decided.

Every check keeps its fast path (float64, mpmath).  A check whose verdict is decided by a
finite computation may add a certified re-decision after it: the same claim on the same
witness or instances, evaluated in ball arithmetic (python-flint's Arb, through
:mod:`verify.certified` and :mod:`verify.certified.balls`).  A ball [mid ± rad] contains the
exact value of the computation on the check's inputs; float64 inputs are exact dyadic
rationals and are taken as they are.  For a claim "a ≤ b" on one instance:

- it **holds** there when the ball of a lies strictly below the ball of b;
- it **fails** there when the ball of a lies strictly above the ball of b (a counterexample);
- otherwise the balls **straddle**: nothing is decided, the verdict keeps the basis of its
  fast path and its notes say which ball straddled.

:func:`attempt` runs a re-decision at :data:`DPS` digits and :func:`settle` writes it into the
:class:`~verify.verdict.Outcome`: the balls (as ``"[mid +/- rad]"`` strings) into
``numbers["certified"]`` and, when the certificate agrees with the verdict, the basis
:attr:`~verify.verdict.Basis.CERTIFIED`.  A certificate never changes a verdict: one that
contradicts it is recorded as a conflict (``numbers["certification_conflict"]`` and a note)
for a person to look at.

Exact parts.  Some verdicts also need exact computations (SymPy identities, integer
enumeration, an exception that must be raised); those are proofs too, so a verdict whose
numerical parts are all certified is reported as certified, and its notes say which parts
are exact.

Claim hooks.  The certified path calls a check's ``claimed_*`` hooks with balls, so a
monkeypatched claim is re-decided as well.  Hooks meant for it use operators, NumPy ufuncs on
object arrays (which dispatch to Arb's methods) and, for scalars, :func:`lib` and :func:`sqrt`
(:mod:`math` on floats, bit for bit as before; Arb on balls), never :mod:`math` directly, which
would silently round a ball to a float (Arb balls define ``__float__``).  A hook that cannot
take balls (it raises, or returns something that is not a ball) leaves the verdict
uncertified, with a note.

What is certified, and what is not.  A certificate covers the instances, points and samples the
fast path used (a proof there: a fixed, finite set of cases is certified as that set), never the
statement for all instances.  An optimiser-driven counterexample search that found nothing
(:func:`verify.verdict.maximise`) stays a search, and a sampled or fitted verdict stays
statistical: their bases are not upgraded.  Where a claim is tight (attained with equality),
the balls straddle and the verdict keeps its fast-path basis.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
from flint import (
    acb,
    arb,  # re-exported for the checks: certify.arb(mid, rad)
    arb_mat,
    arb_series,
)

from verify.certified.balls import (
    BALLS,
    arithmetic_of,
    exact,
    format_ball,
    interval,
    safe_integral,
    working_precision,
)
from verify.certified.errors import CertificationError
from verify.certified.kernels import certified_kernel
from verify.verdict import Basis, Outcome, Verdict

#: Decimal digits of every certified re-decision: far beyond the margins the checks decide by
#: (the tightest certified margins are relative 1e-12 tolerances), and cheap.
DPS = 30
#: Significant digits of the balls recorded in an Outcome.
SHOWN_DIGITS = 12


class Status(enum.StrEnum):
    HOLDS = "holds"
    FAILS = "fails"
    STRADDLES = "straddles"


@dataclass(frozen=True)
class Certificate:
    """What the balls say about a claim on the checked instances.

    ``what`` says which inequality was decided, with its balls, in one line; ``balls`` are the
    decisive balls, already printed (:func:`show`)."""

    status: Status
    what: str
    balls: dict[str, str] = field(default_factory=dict)
    #: rhs − lhs of a :func:`compare` (how far inside the claim), for :func:`worst` to pick the tightest
    margin: arb | None = None


class NotCertifiable(Exception):
    """The certified path cannot evaluate this claim in ball arithmetic (e.g. a hook that
    does not take balls); the verdict keeps its fast-path basis."""


def ball(value) -> arb:
    """The exact ball of an int, float (NumPy scalars included), Fraction or ball."""

    if isinstance(value, np.integer):
        return arb(int(value))
    if isinstance(value, np.floating):
        return exact(float(value))
    return exact(value)


def balls(array) -> np.ndarray:
    """An object array of exact balls with the shape of ``array``."""
    values = np.asarray(array)
    out = np.empty(values.shape, dtype=object)
    for index, value in np.ndenumerate(values):
        out[index] = ball(value)
    return out


def show(x: arb) -> str:
    """``[mid +/- rad]``, a decimal ball that contains ``x``."""

    return format_ball(x, SHOWN_DIGITS).replace("±", "+/-")


def as_ball(value, what: str) -> arb:
    """``value`` as a ball when it is one (or a 0-d object array holding one) or an exact number
    (int, Fraction); anything else, a float above all (it may be a rounded result), raises
    :class:`NotCertifiable`."""

    if isinstance(value, np.ndarray) and value.shape == () and value.dtype == object:
        value = value.item()
    if isinstance(value, int | Fraction) and not isinstance(value, bool):
        return ball(value)
    if not isinstance(value, arb):
        raise NotCertifiable(f"{what} returned {type(value).__name__}, not a ball")
    if not value.is_finite():
        raise NotCertifiable(f"{what} is not a finite ball")
    return value


def call_hook(hook: Callable, *args, what: str | None = None):
    """``hook(*args)`` on balls; an exception from a hook that does not take balls becomes
    :class:`NotCertifiable` (the claim is then not certified, never mis-certified)."""
    name = what or getattr(hook, "__name__", "a claim hook")
    try:
        return hook(*args)
    except (TypeError, ValueError, AttributeError, OverflowError) as exc:
        raise NotCertifiable(f"{name} does not take balls ({type(exc).__name__}: {exc})") from exc


def compare(left: arb, right, claim: str) -> Certificate:
    """The claim ``left <= right`` on one instance: HOLDS when every point of ``left`` is
    strictly below every point of ``right``, FAILS when every point is strictly above, else
    STRADDLES.  Equality is never certified either way: a claim attained with equality
    straddles, as the balls of an exact equality always do."""
    right_ball = right if isinstance(right, arb) else ball(right)
    gap = right_ball - left
    shown = {"lhs": show(left), "rhs": show(right_ball)}
    if gap > 0:
        return Certificate(Status.HOLDS, f"{claim}: {show(left)} < {show(right_ball)}", shown, gap)
    if gap < 0:
        return Certificate(Status.FAILS, f"{claim} violated: {show(left)} > {show(right_ball)}", shown, gap)
    return Certificate(Status.STRADDLES, f"{claim}: ball {show(left)} straddles {show(right_ball)}", shown,
                       gap)


def nonzero(value: arb, claim: str) -> Certificate:
    """The claim ``value != 0``: HOLDS when the ball excludes 0, else STRADDLES (a ball
    cannot prove a value is exactly 0; an exact zero is a question for exact arithmetic)."""
    if value > 0 or value < 0:
        return Certificate(Status.HOLDS, f"{claim}: {show(value)} excludes 0", {"value": show(value)})
    return Certificate(Status.STRADDLES, f"{claim}: ball {show(value)} contains 0", {"value": show(value)})


def all_of(parts: dict[str, Certificate]) -> Certificate:
    """The conjunction of named claims: FAILS when one fails (its counterexample decides),
    HOLDS when all hold, else STRADDLES (naming the parts that straddle)."""
    failing = [name for name, c in parts.items() if c.status is Status.FAILS]
    straddling = [name for name, c in parts.items() if c.status is Status.STRADDLES]
    shown = {f"{name}: {key}": value for name, c in parts.items() for key, value in c.balls.items()}
    if failing:
        first = parts[failing[0]]
        return Certificate(Status.FAILS, f"{failing[0]}: {first.what}", shown)
    if straddling:
        return Certificate(Status.STRADDLES, "; ".join(f"{n}: {parts[n].what}" for n in straddling), shown)
    return Certificate(Status.HOLDS, "; ".join(f"{n}: {c.what}" for n, c in parts.items()), shown)


def worst(certificates: Iterable[tuple[str, Certificate]], claim: str) -> Certificate:
    """A claim over many instances: FAILS at the first failing instance, HOLDS when every
    instance holds (recording the instance with the smallest margin), else STRADDLES."""
    tightest = None
    straddle = None
    count = 0
    for name, cert in certificates:
        count += 1
        if cert.status is Status.FAILS:
            return Certificate(Status.FAILS, f"{claim}, {name}: {cert.what}", cert.balls, cert.margin)
        if cert.status is Status.STRADDLES and straddle is None:
            straddle = (name, cert)
        if tightest is None or (cert.margin is not None and tightest[1].margin is not None
                                and cert.margin.lower() < tightest[1].margin.lower()):
            tightest = (name, cert)
    if straddle is not None:
        name, cert = straddle
        return Certificate(Status.STRADDLES, f"{claim}, {name}: {cert.what}", cert.balls, cert.margin)
    assert tightest is not None, "worst() needs at least one instance"
    name, cert = tightest
    return Certificate(Status.HOLDS, f"{claim} on all {count} instances (tightest: {name}: {cert.what})",
                       {"tightest": name} | cert.balls, cert.margin)


#: The certificate status each verdict needs to become certified.
_NEEDED = {Verdict.HOLDS: Status.HOLDS, Verdict.CONSISTENT: Status.HOLDS, Verdict.FAILS: Status.FAILS}


def settle(outcome: Outcome, certificate: Certificate, *, exact_parts: str | None = None) -> Outcome:
    """Record ``certificate`` in ``outcome`` and certify the verdict when the two agree.

    ``exact_parts`` names the parts of the verdict decided exactly (SymPy, integers), for the
    note.  Existing "Decided by:" notes describe the fast path and are relabelled so."""
    outcome.numbers["certified"] = dict(certificate.balls) | {"status": certificate.status.value}
    needed = _NEEDED.get(outcome.verdict)
    if needed is None:
        return outcome
    if certificate.status is Status.STRADDLES:
        basis = outcome.basis or "the default of its method"
        outcome.notes.append(f"certification attempted: ball straddles ({certificate.what}); the verdict "
                             f"keeps the basis of its fast path ({basis}).")
        return outcome
    if certificate.status is not needed:
        outcome.numbers["certification_conflict"] = True
        outcome.notes.append(f"CERTIFICATION CONFLICT: the balls say the claim {certificate.status.value} "
                             f"({certificate.what}), against the verdict '{outcome.verdict.value}'; the "
                             "verdict and its basis are kept for a person to review.")
        return outcome
    outcome.notes[:] = [("Fast path (superseded by the certificate): " + note[len("Decided by: "):])
                        if note.startswith("Decided by: ") else note for note in outcome.notes]
    extra = f" Exact parts: {exact_parts}." if exact_parts else ""
    outcome.notes.append(f"Decided by: ball arithmetic (Arb, {DPS} digits; float64 inputs taken exactly): "
                         f"{certificate.what}.{extra}")
    outcome.basis = Basis.CERTIFIED
    return outcome


def attempt(outcome: Outcome, decide: Callable[[], Certificate], *,
            exact_parts: str | None = None) -> Outcome:
    """Run the certified re-decision ``decide`` at :data:`DPS` digits and :func:`settle` it;
    a claim that cannot be evaluated in balls leaves the outcome uncertified, with a note."""

    if _NEEDED.get(outcome.verdict) is None:
        return outcome
    try:
        with working_precision(DPS):
            certificate = decide()
    except (NotCertifiable, CertificationError) as exc:
        outcome.notes.append(f"certification not attempted: {exc}")
        return outcome
    return settle(outcome, certificate, exact_parts=exact_parts)


def norm(vector) -> arb:
    """The Euclidean norm of a sequence of balls (the sum of squares is intersected with [0, ∞)
    before the root: a ball around 0 squares to one that dips below 0 by its radius)."""
    total = arb(0)
    for v in vector:
        total += v * v
    return total.nonnegative_part().sqrt()


def relu(x: arb) -> arb:
    """max(x, 0) of a ball (the union of 0 and x's positive part when x straddles 0)."""
    if x >= 0:
        return x
    if x <= 0:
        return arb(0)
    return arb(0).union(x.upper())


def elementwise(function: Callable[[Any], Any]) -> Callable[[np.ndarray], np.ndarray]:
    """``function`` applied to each ball of an object array (NumPy's ufunc protocol for σ)."""
    vectorised = np.frompyfunc(function, 1, 1)
    return lambda values: vectorised(values)


def sqrt(x):
    """√x for a float (:func:`math.sqrt`'s value) or a ball."""
    return arithmetic_of(x).sqrt(x)


def matmul(a, b) -> np.ndarray:
    """The product of two object arrays of balls (2-d), through Arb's matrix product."""

    left, right = np.asarray(a, dtype=object), np.asarray(b, dtype=object)
    product = arb_mat(left.tolist()) * arb_mat(right.tolist())
    out = np.empty((left.shape[0], right.shape[1]), dtype=object)
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = product[i, j]
    return out


def largest_abs(values: Iterable[arb]) -> arb:
    """A ball containing max_i |v_i|: from the largest lower and the largest upper bound."""
    low, high = None, None
    for v in values:
        magnitude = abs(v)
        lo, hi = magnitude.lower(), magnitude.upper()
        low = lo if low is None or lo > low else low
        high = hi if high is None or hi > high else high
    if low is None or high is None:
        raise ValueError("largest_abs() of no values")

    return interval(low, high)


def cholesky_pivots(matrix) -> list[arb]:
    """The pivots d_j of Q = L D Lᵀ (unit lower-triangular L) for a symmetric object array of
    balls, stopping after the first pivot that is not > 0.

    All pivots > 0 proves Q positive definite (hence PSD); a pivot < 0 after positive ones
    proves it is not PSD (the leading minor d_1⋯d_j is then < 0)."""
    q = np.array(matrix, dtype=object)
    n = q.shape[0]
    low = np.empty((n, n), dtype=object)
    pivots: list[arb] = []
    for j in range(n):
        pivot = q[j, j] - sum((low[j, r] * low[j, r] * pivots[r] for r in range(j)), arb(0))
        pivots.append(pivot)
        if not pivot > 0:
            return pivots
        for i in range(j + 1, n):
            low[i, j] = (q[i, j] - sum((low[i, r] * low[j, r] * pivots[r] for r in range(j)), arb(0))) / pivot
    return pivots


def positive_definite(matrix, claim: str) -> Certificate:
    """The claim "``matrix`` is PSD", decided by :func:`cholesky_pivots`: HOLDS when every pivot is
    > 0 (positive definite), FAILS when a pivot is < 0, else STRADDLES."""
    pivots = cholesky_pivots(matrix)
    last = pivots[-1]
    smallest = min(pivots, key=lambda p: float(p.mid()))
    shown = {"smallest pivot": show(smallest), "pivots": str(len(pivots))}
    if all(p > 0 for p in pivots) and len(pivots) == len(matrix):
        return Certificate(Status.HOLDS, f"{claim}: all {len(pivots)} LDL^T pivots > 0 (smallest "
                           f"{show(smallest)})", shown, smallest)
    if last < 0:
        return Certificate(Status.FAILS, f"{claim} violated: LDL^T pivot {len(pivots)} is {show(last)} < 0",
                           shown, last)
    return Certificate(Status.STRADDLES, f"{claim}: LDL^T pivot {len(pivots)} is {show(last)}", shown, last)


def integral(function: Callable[[Any], Any], low: arb, high: arb) -> arb:
    """A ball containing ∫_low^high f for exact real endpoints, by Arb's certified integrator
    (:func:`flint.acb.integral`).  ``function`` receives complex balls and must be meromorphic
    near the segment with Arb's own operations (a pole in a ball gives a non-finite value, which
    the integrator respects); the imaginary part of the result must contain 0."""

    value = safe_integral(lambda z, analytic: function(z), acb(low), acb(high))
    if not (value.imag.contains(0) and value.real.is_finite()):
        raise NotCertifiable(f"the integral over [{low}, {high}] is not a real ball: {value}")
    return value.real


def instance_balls(instance) -> Any:
    """An instance's numbers as exact balls (:meth:`~verify.model.instance.Instance.numbers` in
    :data:`~verify.certified.balls.BALLS`), for claim hooks written against Instance fields."""
    return instance.numbers(arith=BALLS)


class BallActivation:
    """σ and σ' of a smooth activation on balls and on Arb power series (Taylor arithmetic for
    :func:`gradient`), elementwise over object arrays.  Only tanh is needed by the checks."""

    def __init__(self, name: str):
        if name != "tanh":
            raise NotCertifiable(f"no ball activation for {name!r}")
        self.name = name
        self._value = np.frompyfunc(self._tanh, 1, 1)
        self._derivative = np.frompyfunc(lambda v: 1 - self._tanh(v) ** 2, 1, 1)

    @staticmethod
    def _tanh(v):
        if isinstance(v, arb):
            return v.tanh()
        return 1 - 2 / ((2 * v).exp() + 1)  # an arb_series: tanh from exp

    def __call__(self, values):
        return self._value(values)

    def derivative(self, values):
        return self._derivative(values)


def gradient(function: Callable[[np.ndarray], Any], point: np.ndarray) -> np.ndarray:
    """∇f at ``point`` (an object array of balls), exactly up to ball rounding: forward-mode
    Taylor arithmetic, f(point + t e_a) as a degree-1 Arb power series in t, whose t-coefficient
    is ∂_a f.  No step size and no truncation error, unlike finite differences."""

    out = np.empty(point.size, dtype=object)
    for a in range(point.size):
        shifted = point.copy()
        shifted[a] = arb_series([point[a], 1], prec=2)
        value = function(shifted)
        coefficients = value.coeffs() if isinstance(value, arb_series) else [value]
        out[a] = coefficients[1] if len(coefficients) > 1 else arb(0)
    return out


def solve(matrix, rhs) -> np.ndarray:
    """``matrix⁻¹ rhs`` for object arrays of balls (Arb's certified linear solver); ``rhs`` a
    vector or a matrix."""

    left, right = np.asarray(matrix, dtype=object), np.asarray(rhs, dtype=object)
    column = right.ndim == 1
    solution = arb_mat(left.tolist()).solve(arb_mat((right[:, None] if column else right).tolist()))
    out = np.array([[solution[i, j] for j in range(solution.ncols())] for i in range(solution.nrows())],
                   dtype=object)
    return out[:, 0] if column else out


def relu_loss(teacher: np.ndarray, student: np.ndarray, lam) -> Any:
    """E[(Σ_i λ_i relu⟨t_i, x⟩ − Σ_i λ_i relu⟨s_i, x⟩)²] for rows given as object arrays of balls
    (or of Arb power series, for :func:`gradient`), by positive homogeneity:
    E[relu⟨a,x⟩ relu⟨b,x⟩] = ‖a‖‖b‖K(cos∠(a, b)), K(ρ) = (√(1−ρ²) + (π − arccos ρ)ρ)/(2π).

    Balls go through the certified arc-cosine kernel (:func:`verify.certified.certified_kernel`,
    which clamps ρ to [−1, 1]); power series through the formula itself.  A row paired with
    itself has ρ = 1 exactly and contributes ‖a‖²K(1) = ‖a‖²/2 (a ball 1 ± ε would cost √ε)."""

    kernel = certified_kernel("relu", DPS)
    pi = arb.pi()

    def norm_of(row):
        return sum((v * v for v in row[1:]), row[0] * row[0]).sqrt()

    def k_value(rho):
        if isinstance(rho, arb):
            return kernel.value(rho)
        return ((1 - rho * rho).sqrt() + (pi - rho.acos()) * rho) / (2 * pi)

    def pair(A, B, same: bool):
        total = arb(0)
        for i in range(A.shape[0]):
            for j in range(B.shape[0]):
                na, nb = norm_of(A[i]), norm_of(B[j])
                value = na * nb / 2 if same and i == j else na * nb * k_value((A[i] @ B[j]) / (na * nb))
                total = lam[i] * lam[j] * value + total
        return total

    return pair(teacher, teacher, True) + pair(student, student, True) - 2 * pair(teacher, student, False)
