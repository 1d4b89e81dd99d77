"""Equalities of sums of arctangents and arcsines (verify/claims/angles.py).

The true statements are classical: Machin's, Euler's, Hutton's, Størmer's, Gauss's and Takano's
formulas for π/4 (each also checked here at 60 digits) and complementary angles of Pythagorean
and algebraic triangles.  Their barely-false twins change one argument or one coefficient.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy

from verify.claims import claim
from verify.claims.angles import angle_sum
from verify.claims.universal import _by_angles
from verify.verdict import Basis, Verdict

atan, asin, pi, Q = sympy.atan, sympy.asin, sympy.pi, sympy.Rational

TRUE = [
    "4*atan(1/5) - atan(1/239) == pi/4",  # Machin
    "atan(1/2) + atan(1/3) == pi/4",  # Euler
    "2*atan(1/3) + atan(1/7) == pi/4",  # Hutton
    "6*atan(1/8) + 2*atan(1/57) + atan(1/239) == pi/4",  # Stormer
    "12*atan(1/18) + 8*atan(1/57) - 5*atan(1/239) == pi/4",  # Gauss
    "12*atan(1/49) + 32*atan(1/57) - 5*atan(1/239) + 12*atan(1/110443) == pi/4",  # Takano
    "asin(5/13) + asin(12/13) == pi/2",
    "asin(sqrt(3)/3) + asin(sqrt(6)/3) == pi/2",
    "atan(1/sqrt(2)) + atan(sqrt(2)) == pi/2",
    "atan(1/2) + atan(1/3) <= pi/4",
]
FALSE = [
    "4*atan(1/5) - atan(1/238) == pi/4",
    "4*atan(1/5) - atan(1/239) == pi/4 + 1/10**30",
    "2*atan(1/3) + atan(1/8) == pi/4",
    "atan(1/2) + atan(1/3) == pi/4 + 2*pi",  # the same angle modulo 2*pi
    "8*atan(1/2) + 8*atan(1/3) == 0",  # 2*pi: e^(i D) = 1, but D is not 0
    "atan(1/2) + atan(1/3) < pi/4",
    "asin(5/13) + asin(12/13) > pi/2",
]


def _value(text: str) -> mpmath.mpf:
    lhs, rhs = text.partition(" ==")[0], text.partition("== ")[2]
    with mpmath.workdps(60):
        return mpmath.mpmathify(sympy.N(sympy.sympify(lhs) - sympy.sympify(rhs), 60))


@pytest.mark.parametrize("text", [t for t in TRUE if "==" in t])
def test_the_classical_formulas_are_true_at_60_digits(text):
    assert abs(_value(text)) < mpmath.mpf(10) ** -55


@pytest.mark.parametrize("text", TRUE)
def test_true_angle_identities_hold(text):
    outcome = claim(text)
    assert outcome.verdict is Verdict.HOLDS, outcome.evidence
    assert outcome.basis in (Basis.EXACT, Basis.CERTIFIED)


@pytest.mark.parametrize("text", FALSE)
def test_false_angle_identities_fail(text):
    assert claim(text).verdict is Verdict.FAILS


def test_the_product_is_exact_and_turns_negative_coefficients_back():
    machin = 4 * atan(Q(1, 5)) - atan(Q(1, 239)) - pi / 4
    found = angle_sum(machin)
    assert found.scale == 4 and found.real_axis and found.real > 0
    off = angle_sum(4 * atan(Q(1, 5)) - atan(Q(1, 238)) - pi / 4)
    assert not off.real_axis
    # atan(1/2) + atan(1/3) + atan(2) + atan(3) = pi: e^(iD) = -1, on the negative real axis
    half_turn = angle_sum(atan(Q(1, 2)) + atan(Q(1, 3)) + atan(2) + atan(3))
    assert half_turn.scale == 1 and half_turn.real_axis and half_turn.real < 0
    assert _by_angles({}, "==", atan(Q(1, 2)) + atan(Q(1, 3)) + atan(2) + atan(3)).status == "fails"


def test_a_whole_turn_is_not_taken_for_zero():
    # 8 (atan(1/2) + atan(1/3)) = 2 pi: e^(iD) = 1 exactly, and no ball has |D| < 2 pi
    assert _by_angles({}, "==", 8 * atan(Q(1, 2)) + 8 * atan(Q(1, 3))) is None


def test_sums_of_other_kinds_are_left_alone():
    assert angle_sum(atan(Q(1, 2)) + 1) is None  # a rational part
    assert angle_sum(sympy.log(2) + atan(Q(1, 3))) is None
    assert angle_sum(asin(Q(3, 2)) - pi) is None  # asin beyond [-1, 1]
    assert angle_sum(pi / 4) is None  # no angle at all
    assert angle_sum(5000 * atan(Q(1, 7)) - pi) is None  # beyond the size limit
