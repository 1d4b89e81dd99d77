"""Integral(term, t, a, b) in the claim language (verify.claims.integrals): exact only with its
hypotheses proved, certified by the midpoint rule with its remainder enclosed, and never a
traceback or a value for an integral that does not exist."""

from __future__ import annotations

import pytest
import sympy
from flint import arb

from verify.base.errors import VerifyInputError
from verify.claims import claim
from verify.claims.integrals import ball_integral
from verify.verdict import Basis, Verdict


def test_a_polynomial_integral_is_exact():
    assert claim("Integral(t**2, t, 0, 1) == 1/3").basis is Basis.EXACT
    wrong = claim("Integral(t**2, t, 0, 1) == 1/3 + 10**-12")
    assert wrong.verdict is Verdict.FAILS and wrong.basis is Basis.EXACT


def test_the_certified_enclosure_contains_the_integral_and_is_narrow():
    t = sympy.Symbol("t", real=True)
    node = sympy.Integral(sympy.sin(t) / t, (t, 1, 2))
    from verify.claims.evaluate import compile_ball

    value = ball_integral(node, lambda e: compile_ball(e, None))({})
    reference = arb("0.659329906435512")  # Si(2) - Si(1), mpmath at 30 digits: 0.6593299064355115...
    assert value.overlaps(reference) and value.rad() < 1e-6


@pytest.mark.parametrize(("text", "verdict"), [
    ("Integral(sin(t)/t, t, 1, 2) > 0.659", Verdict.HOLDS),
    ("Integral(sin(t)/t, t, 1, 2) > 0.66", Verdict.FAILS),
    ("Integral(exp(-t**2), t, 0, 1) > 0.7469", Verdict.FAILS),
])
def test_inequalities_are_decided_by_balls(text, verdict):
    outcome = claim(text)
    assert outcome.verdict is verdict and outcome.basis in (Basis.EXACT, Basis.CERTIFIED)


def test_an_integral_with_a_moving_end_is_proved_by_the_fundamental_theorem():
    # on glm h(m) = 2K'(m), so Phi(m) = 2(K(1) - K(m)) is the integral of h from m to 1
    outcome = claim("Phi(m) == Integral(h(t), t, m, 1)", family="glm", activation="erf",
                    for_="m in [-1, 1]", seeds="0")
    assert outcome.verdict is Verdict.HOLDS and outcome.basis is Basis.EXACT
    wrong = claim("Phi(m) == Integral(h(t), t, m, 1) + m/10**6", family="glm", activation="erf",
                  for_="m in [-1, 1]", seeds="0")
    assert wrong.verdict is Verdict.FAILS


def test_a_singular_integrand_gets_no_value():
    # 1/sqrt(t) is integrable on [0, 1] but unbounded: no hypothesis of the exact route holds,
    # and its balls are infinite; a principal value is not an integral
    assert claim("Integral(1/sqrt(t), t, 0, 1) == 2").verdict is Verdict.INCONCLUSIVE
    with pytest.raises(VerifyInputError, match="not a finite real number"):
        claim("Integral(1/t, t, -1, 1) == 0")


@pytest.mark.parametrize(("text", "message"), [
    ("Integral(t, t, 0, 1) + t == 1", "outside its Sum"),
    ("Integral(t, t, 0, oo) == 1", "ends must be finite"),
    ("Integral(Eg(g*t), t, 0, 1) == 0", "inside Integral"),
    ("Integral(Integral(t*s, s, 0, 1), t, 0, 1) == 1/4", "inside an Integral"),
    ("Integral(t, t, 0, t) == 1", "depends on t"),
])
def test_malformed_integrals_are_refused_in_one_line(text, message):
    with pytest.raises(VerifyInputError, match=message):
        claim(text)


def test_an_antiderivative_at_the_edge_of_its_domain_is_proved():
    # F = t acos(t) - sqrt(1 - t^2): its root's base is proved >= 0 on [0, 1], so rounding at t = 1
    # makes no NaN; and Phi = 2 int_m^1 K' on glm with relu, whose K' holds acos
    assert claim("Integral(acos(t), t, 0, 1) == 1").basis is Basis.EXACT
    outcome = claim("Phi(m) == 2*Integral(Kp(t), t, m, 1)", family="glm", activation="relu",
                    for_="m in [-1, 1]", seeds="0")
    assert outcome.verdict is Verdict.HOLDS and outcome.basis is Basis.EXACT


def test_a_branch_cut_antiderivative_is_not_trusted():
    # SymPy's 2/sqrt(3) atan(tan(t/2)/sqrt(3)) jumps at t = pi: no exact value across it
    outcome = claim("Integral(1/(2 + cos(t)), t, 0, 2*pi) == 0")
    assert outcome.verdict in (Verdict.FAILS, Verdict.INCONCLUSIVE)
    if outcome.verdict is Verdict.FAILS:
        assert outcome.basis is Basis.CERTIFIED  # from the enclosure, never SymPy's definite value
