"""Certified expectations of bodies that switch branch on an infinite set (verify.certified.windows).

Every reference value is computed here by mpmath at 30 digits from the exact switch points,
independently of the suite: E[c(g)] = Σ c_piece (Φ(b) − Φ(a)) for a piecewise-constant body."""

from __future__ import annotations

import mpmath
import pytest
import sympy

from verify.certified.balls import working_precision
from verify.certified.errors import CertificationError
from verify.certified.growth import tail_majorant
from verify.certified.windows import windowed_expectation
from verify.claims import claim

g = sympy.Symbol("g", real=True)


def _piecewise_constant_mean(points, value_at) -> mpmath.mpf:
    """Σ value(mid) (Φ(b) − Φ(a)) over consecutive points (made at 30 digits by ``points()``),
    with the two tails beyond."""
    with mpmath.workdps(30):
        ends = [-mpmath.inf, *points(), mpmath.inf]
        total = mpmath.mpf(0)
        for a, b in zip(ends[:-1], ends[1:], strict=True):
            if mpmath.isfinite(a) and mpmath.isfinite(b):
                middle = (a + b) / 2
            else:
                middle = b - 1 if mpmath.isfinite(b) else a + 1
            total += value_at(middle) * (mpmath.ncdf(b) - mpmath.ncdf(a))
        return total


def _ball(body, dps=20):
    with working_precision(dps):
        return windowed_expectation(body, g, dps)


@pytest.mark.parametrize(("body", "points", "value_at"), [
    (sympy.sign(sympy.cos(g)), lambda: [(2 * k + 1) * mpmath.pi / 2 for k in range(-30, 30)],
     lambda t: mpmath.sign(mpmath.cos(t))),
    (sympy.Heaviside(sympy.sin(3 * g) - sympy.Rational(1, 2)),
     lambda: sorted([(mpmath.pi / 6 + 2 * mpmath.pi * k) / 3 for k in range(-20, 20)]
                    + [(5 * mpmath.pi / 6 + 2 * mpmath.pi * k) / 3 for k in range(-20, 20)]),
     lambda t: 1 if mpmath.sin(3 * t) > 0.5 else 0),
    (sympy.floor(g), lambda: list(range(-40, 41)), mpmath.floor),
    (sympy.ceiling(g / 2) * sympy.sign(sympy.sin(g)),
     lambda: sorted([2 * k for k in range(-20, 21)] + [k * mpmath.pi for k in range(-13, 14)]),
     lambda t: mpmath.ceil(t / 2) * mpmath.sign(mpmath.sin(t))),
])
def test_window_ball_contains_the_sum_over_exact_pieces(body, points, value_at):
    reference = _piecewise_constant_mean(points, value_at)
    ball = _ball(body)
    # the ball is rigorous: its midpoint is within its radius of the 30-digit reference (plus that
    # reference's own 1e-28); and narrow: radius about 10^-(dps + 3)
    with mpmath.workdps(40):
        middle = mpmath.mpf(ball.mid().str(40, radius=False))
        radius = mpmath.mpf(ball.rad().str(10, radius=False))
        assert abs(middle - reference) <= radius + mpmath.mpf("1e-28")
    assert radius < 1e-20


def test_a_body_times_a_smooth_factor_matches_the_theta_sum():
    """E[g·floor(g)] = Σ_n φ(n) (summation by parts over the integers): 1 + 2e^{−2π²} + …"""
    with mpmath.workdps(30):
        reference = mpmath.nsum(mpmath.npdf, [-mpmath.inf, mpmath.inf])
    ball = _ball(g * sympy.floor(g))
    assert abs(float(ball.mid()) - float(reference)) < 1e-15 and float(ball.mid()) > 1


def test_switch_rules_bound_the_tails_whatever_the_branch():
    assert tail_majorant(sympy.sign(sympy.cos(g)), g, 1, 1).describe() == "1"
    assert tail_majorant(sympy.Heaviside(sympy.sin(g)) * g, g, -1, 1).describe() == "1*|x|^1"
    # |floor(u)| ≤ |u| + 1 and exp(floor(x)) ≤ e^x: on the left tail x ≤ −2 it is at most e^{-2}
    assert tail_majorant(sympy.floor(g), g, 1, 1).describe() == "1 + 1*|x|^1"
    assert tail_majorant(sympy.exp(sympy.floor(g)), g, -1, 2).describe() == "0.1353"


def test_switches_that_are_no_finite_set_on_the_window_are_refused():
    # sin(g**2) = 0 at ±sqrt(n pi): solveset answers an ImageSet, never a finite list
    with pytest.raises(CertificationError):
        _ball(sympy.sign(sympy.sin(g**2)))
    # exp(g) crosses about 160000 integers on the window
    with pytest.raises(CertificationError, match="crosses more than"):
        _ball(sympy.floor(sympy.exp(g)))


def test_claims_about_infinitely_many_jumps_are_decided_by_the_window():
    assert claim("Eg(sign(cos(g))) > 0.7675").verdict.value == "holds"
    assert claim("Eg(sign(cos(g))) > 0.7676").verdict.value == "fails"
    # red team 5: SymPy's integrate made this hold (the value is 0)
    assert claim("Eg(cos(pi*Heaviside(sin(g)))) < -0.9").verdict.value == "fails"
    assert claim("Eg(g*floor(g)) > 1").verdict.value == "holds"
