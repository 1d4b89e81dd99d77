"""Comparison helpers for the tests (SciPy's ``assert_mpmath_equal`` is the model).

One helper compares a fast NumPy evaluator with its mpmath twin over a
declared domain, so every fast function has a high-precision reference.
"""

from __future__ import annotations

from collections.abc import Callable

import mpmath
import numpy as np

from verify.claims import claim

#: float64 relative accuracy we expect of the hand-written evaluators: a few ulps,
#: 64 ulps for the composite ones (gelu, Hermite recurrences at |x| ~ 8).
FLOAT_RTOL = 64 * np.finfo(float).eps


def assert_mpmath_equal(
    fast: Callable[[np.ndarray], np.ndarray],
    reference: Callable,
    points: np.ndarray,
    rtol: float = FLOAT_RTOL,
    atol: float = 1e-300,
    dps: int = 40,
) -> None:
    """Assert |fast(x) − reference(x)| ≤ atol + rtol·|reference(x)| at every point.

    The reference is evaluated in mpmath at ``dps`` digits from the exact
    binary value of each point, so the comparison measures only the fast path.
    """
    points = np.asarray(points, dtype=float)
    got = np.asarray(fast(points), dtype=float)
    with mpmath.workdps(dps):
        want = np.array([float(mpmath.mpf(reference(mpmath.mpf(float(x))))) for x in points])
    __tracebackhide__ = True  # pytest shows the failing test's line, not this helper's source
    bad = ~(np.abs(got - want) <= atol + rtol * np.abs(want))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise AssertionError(
            f"{int(bad.sum())} of {points.size} points differ; first at x={points[i]!r}: "
            f"fast={got[i]!r}, mpmath={want[i]!r}, rtol={rtol}, atol={atol}"
        )


class ClaimNotAccepted(AssertionError):
    """:func:`assert_claim`'s failure: the verdict was not one of those accepted.  ``verdict``
    holds it (``"fails"``, ``"inconclusive"``, ...) and ``outcome`` the whole Outcome."""

    def __init__(self, message: str, outcome):
        super().__init__(message)
        self.outcome = outcome
        self.verdict = outcome.verdict.value


class ClaimInconclusive(ClaimNotAccepted):
    """The claim was neither proved nor refuted.  Mark a test whose claim the engine cannot decide
    yet with ``@pytest.mark.xfail(raises=ClaimInconclusive, strict=True)``: a *fails* still fails
    the test, and the day the engine decides the claim the strict xfail turns red as a reminder."""


def assert_claim(text: str, *, accept: tuple[str, ...] = ("holds", "consistent"), **options):
    """Assert that ``verify claim`` accepts the claim ``text``; return its Outcome.

    ``options`` are those of :func:`verify.claims.claim` (``family``, ``activation``, ``for_``,
    ``prob``, ``growth``, ``seeds``, ...).  The test fails unless the verdict is one of
    ``accept`` (by default holds or consistent); the message carries the verdict and the kind of
    evidence that decided it, the evidence line, the counterexample and the command that
    reproduces it, so a failing CI job says what is wrong and how to look at it::

        from verify.testing import assert_claim

        def test_condition_3_on_small_instances():
            assert_claim("sign(h(0))*h(sign(h(0))*m) >= abs(h(0))/2", family="orthonormal",
                         for_=["k in 2..4", "xi = 1", "m in [0, 1]"])

    The failure is a :class:`ClaimNotAccepted` (an AssertionError), or its subclass
    :class:`ClaimInconclusive` when the verdict is *inconclusive*; the helper's own frames are
    hidden from pytest's traceback (``__tracebackhide__``).
    """
    __tracebackhide__ = True
    outcome = claim(text, **options)
    if outcome.verdict.value not in accept:
        basis = outcome.basis.value if outcome.basis is not None else "none"
        lines = [f"claim {text!r} {outcome.verdict.value} ({basis}; accepted: {', '.join(accept)})",
                 f"  evidence: {outcome.evidence}"]
        if outcome.counterexample:
            shown = {k: v for k, v in outcome.counterexample.items() if k != "rerun"}
            lines.append("  counterexample: " + ", ".join(f"{k}={v}" for k, v in shown.items()))
            if "rerun" in outcome.counterexample:
                lines.append(f"  rerun: {outcome.counterexample['rerun']}")
        failure = ClaimInconclusive if outcome.verdict.value == "inconclusive" else ClaimNotAccepted
        raise failure("\n".join(lines), outcome)
    return outcome
