"""The rules that make a false *holds* impossible by construction, one test per rule.

Each test fails when its rule is removed: it uses the issue's own counterexample (a statement
that is false, or a number that is not the one typed) and asserts the suite no longer certifies
it.  The calibration corpus (tests/test_calibration_corpus.py) measures the same rules at scale.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from verify.claims import claim, touching
from verify.verdict import Basis, Verdict


# --- decimals are the exact decimals typed ------------------------------------------------------
def test_a_decimal_literal_is_the_exact_decimal():
    from verify.base.expressions import parse_expression

    assert parse_expression("0.3", variables={}) == sympy.Rational(3, 10)
    assert parse_expression("1.5e-3", variables={}) == sympy.Rational(3, 2000)
    outcome = claim("mu(1) == 0.5000000000001", activation="relu")
    assert outcome.verdict is Verdict.FAILS and outcome.basis is Basis.EXACT
    assert claim("mu(1) == 0.5", activation="relu").verdict is Verdict.HOLDS


def test_an_expr_activation_with_a_decimal_is_exact():
    from verify.model.activations import get_activation

    act = get_activation("expr:erf(0.7*x)")
    assert not act.expr.atoms(sympy.Float)
    kinks = get_activation("expr:sign(x**2 - 0.3)").kinks
    assert set(kinks) == {-sympy.sqrt(30) / 10, sympy.sqrt(30) / 10}  # exact, not numerically found


def test_the_command_line_overlap_is_the_exact_decimal():
    from verify.cli.arguments import overlap

    m = overlap("0.1")
    assert m.exact == Fraction(1, 10) and float(m) == 0.1


def test_a_float_never_feeds_a_ball_or_an_exact_result():
    from verify.certified.compile import number_fraction
    from verify.certified.errors import CertificationError
    from verify.claims.language import InexactNumberError, exact_number

    with pytest.raises(CertificationError):
        number_fraction(sympy.Float("0.7"))
    with pytest.raises(InexactNumberError):
        exact_number(sympy.Float("0.5000000000001") + sympy.Symbol("x"))


# --- a search only refutes; tolerances are printed; a stall names its region --------------------
@pytest.mark.extended
def test_a_search_that_finds_nothing_is_inconclusive_and_prints_its_tolerance():
    outcome = claim("K(rho) >= -0.39429449040", activation="tanh", for_=["rho in [-1/2, 1/2]"])
    # true on [-1/2, 1/2], but the series kernel's balls decide it: holds, certified
    assert outcome.verdict is Verdict.HOLDS and outcome.basis is Basis.CERTIFIED
    # hcoef(1) = sqrt(3)/(6 pi) at k = 1 is now decided by a ball of its exact constant; a positive
    # integrand with a singularity at 0 has no certified quadrature; its sign decides >= 0 (the
    # positivity rule), but not a positive bound (true: E = 0.38646 by mpmath, 30 digits)
    assert claim("hcoef(1) >= 0", family="orthonormal", activation="relu", for_=["k = 1", "xi = 1"],
                 seeds=0).basis is Basis.CERTIFIED
    assert claim("Eg(tanh(g)**2/sqrt(Abs(g))) >= 0").verdict is Verdict.HOLDS
    unresolved = claim("Eg(tanh(g)**2/sqrt(Abs(g))) >= 1/100")
    assert unresolved.verdict is Verdict.INCONCLUSIVE and unresolved.basis is Basis.NONE
    assert "no counterexample in" in unresolved.evidence and "rtol 1e-09" in unresolved.evidence


def test_a_violation_below_the_old_hidden_tolerance_is_found():
    outcome = claim("K(rho) >= -0.3942944903", activation="tanh", for_=["rho in [-1, 1]"])
    assert outcome.verdict is Verdict.FAILS and outcome.basis is Basis.CERTIFIED
    assert outcome.counterexample["rho"] == "-1"


def test_a_root_of_a_strict_inequality_refutes_it_exactly():
    for text, root in (("(x - 0.3)**2 > 0", "3/10"), ("(x**2 - 2/9)**2 > 0", "sqrt(2)/3")):
        outcome = claim(text, for_=["x in [0, 1]"])
        assert outcome.verdict is Verdict.FAILS and outcome.basis is Basis.EXACT
        assert outcome.counterexample["x"] == root
    assert claim("exp(x) > 1 + x", for_=["x in [-1, 1]"]).verdict is Verdict.FAILS


def test_an_attained_non_strict_inequality_is_proved_through_its_touching_point():
    for text, quantifier, activation in (("exp(x) >= 1 + x", "x in [-1, 1]", None),
                                         ("sin(x) <= x", "x in [0, 1]", None),
                                         ("K(rho) <= K(1) - (1 - rho)/10", "rho in [0, 1]", "relu")):
        outcome = claim(text, for_=[quantifier], activation=activation)
        assert outcome.verdict is Verdict.HOLDS and outcome.basis is Basis.CERTIFIED, (text, outcome.evidence)
    # the same with a false constant still fails
    assert claim("cos(x) >= 1 - x**2/2 + x**4/23", for_=["x in [-1, 1]"]).verdict is Verdict.FAILS


# --- orders ----------------------------------------------------------------------------------------
def test_an_order_whose_own_fit_decays_is_refuted():
    outcome = claim("abs(h(0)) == Theta(k**3)", family="orthonormal", activation="relu", lam="1",
                    for_=["k in 4..64", "xi = sqrt(k)/2"])
    assert outcome.verdict is Verdict.FAILS


def test_an_exponent_off_by_a_half_is_never_consistent():
    from verify.claims.asymptotic import judge_exponents

    growth = [4.0, 9.0, 21.0, 49.0, 111.0, 256.0]
    off = [g**0.5 for g in growth]  # the ratio grows like g^(1/2): Theta(g^a) with a off by 1/2
    decision = judge_exponents("Theta", "k", growth, off, off, "k**a", "test")
    assert decision.status == "fails"
    noisy = [g**0.5 * (1.6 if i % 2 else 0.6) for i, g in enumerate(growth)]  # too noisy to refute
    assert judge_exponents("O", "k", growth, noisy, noisy, "k**a", "test").status == "inconclusive"
    flat = [1 + 1 / g for g in growth]
    assert judge_exponents("Theta", "k", growth, flat, flat, "1", "test").status == "consistent"
    zero_lower = [0.0 if g > 40 else 1.0 for g in growth]  # zero ratios count: not bounded below
    assert judge_exponents("Omega", "k", growth, flat, zero_lower, "1", "test").status == "fails"


# --- probabilities ----------------------------------------------------------------------------------
def test_a_probability_bracket_that_contains_the_bound_is_inconclusive():
    outcome = claim("h(0) > 0", family="orthonormal", activation="relu", for_=["k = 9"],
                    prob=">= 0.45 over c, c_hat", draws=400)
    assert outcome.verdict is Verdict.INCONCLUSIVE


def test_ties_of_the_sign_patterns_are_decided_exactly():
    # k = 4: 48 of the 256 patterns give h(0) = 0 exactly, so P(h(0) > 0) = 104/256, not 152/256.
    half = claim("h(0) > 0", family="orthonormal", activation="relu", for_=["k = 4"],
                 prob=">= 1/2 over c, c_hat")
    assert half.verdict is Verdict.FAILS
    assert half.counterexample["probability"] == "13/32"


# --- scope and one set of numbers ------------------------------------------------------------------
def test_every_holds_says_what_it_covers():
    outcome = claim("Phi(m) >= 0", family="orthonormal", activation="relu", for_=["k = 2", "m in [-1, 9/10]"],
                    seeds="0..1")
    assert outcome.verdict is Verdict.HOLDS
    assert outcome.scope.startswith("instances: 2 drawn instance configuration(s)")
    assert "every real point of m" in outcome.scope


def test_claim2_balls_read_the_exact_gram_matrix():
    from flint import arb

    from verify.certified.balls import working_precision
    from verify.claims.model import draw

    model = draw("claim2", "relu", 3, 7, 0, "1/k")
    with working_precision(30):
        entry = model.ball_view(arb(1)).gram[0][1]
        third = arb(1) / 3
        assert entry.overlaps(third) or entry.overlaps(-third)
        assert not entry.contains(arb(float(model.gram_float[0, 1])))  # not the double of ±1/3


def test_a_touch_at_rho_one_with_a_singular_derivative_is_proved_in_the_angle():
    # relu: K'(rho) = (pi - acos rho)/(2 pi) reaches 1/2 at rho = 1 where K'' is infinite; with
    # rho = cos(theta) the gap is analytic in theta and the monotonicity proof goes through.
    # (Kp(rho) <= 1/2 itself now follows from the series step: K' nondecreasing, K'(1) = 1/2)
    outcome = claim("Kp(rho) <= 1/2 - (1 - rho)/10", activation="relu", for_=["rho in [-1, 1]"])
    assert outcome.verdict is Verdict.HOLDS and outcome.basis is Basis.CERTIFIED
    assert claim("Kp(rho) <= 0.4999999999999", activation="relu", for_=["rho in [-1, 1]"]).verdict is \
        Verdict.FAILS


def test_symmetry_gives_exact_coefficients_and_kernel_identities():
    assert claim("mu(0) == 1/2", activation="sigmoid").basis is Basis.EXACT  # sigmoid - 1/2 is odd
    assert claim("mu(0) == 0.5000001", activation="sigmoid").verdict is Verdict.FAILS
    assert claim("mu(1) == 1/2", activation="gelu").verdict is Verdict.HOLDS  # gelu - x/2 is even
    odd = claim("K(-rho) == -K(rho)", activation="tanh", for_=["rho in [0, 1]"])
    assert odd.verdict is Verdict.HOLDS and odd.basis is Basis.EXACT
    assert claim("K(-rho) == K(rho)", activation="tanh", for_=["rho in [0, 1]"]).verdict is Verdict.FAILS


# --- the extended language: sums to oo and arcsines never hold without a proof ------------------
def test_a_hermite_sum_without_a_rigorous_tail_never_holds():
    # p**2*mu(p)**2 has no Parseval bound here (and for relu the sum diverges): a float partial sum
    outcome = claim("Sum(p**2*mu(p)**2, p, 0, oo) >= 0", activation="relu")
    assert outcome.verdict is Verdict.INCONCLUSIVE and "no rigorous tail bound" in outcome.evidence


def test_a_certified_tail_never_proves_an_equality():
    # sum mu_p^2 rho^p = K(rho) is true; it holds only by the exact argument (Mehler: the series is
    # the kernel), never from the ball of 65 terms plus a tail interval, which contains 0 with a
    # nonzero radius and so decides no equality
    from flint import arb

    from verify.claims.relation import decide_ball

    outcome = claim("Sum(mu(p)**2*rho**p, p, 0, oo) == K(rho)", activation="relu", for_=["rho in [-1, 1]"])
    assert outcome.verdict is Verdict.HOLDS and outcome.basis is Basis.EXACT
    assert "Mehler" in outcome.evidence
    assert decide_ball("==", arb(0, 1e-30)) == "undecided"


def test_an_arcsine_beyond_its_domain_is_an_error_not_a_proof():
    # SymPy continues acos past 1 into complex values; the touching proof must not run on them
    from verify.base.errors import VerifyInputError

    with pytest.raises(VerifyInputError, match="not a finite real number"):
        claim("acos(x) >= 0", for_=["x in [0, 2]"])


# --- exact constants, half-angle touches, witnesses next to a touch ---------------------------------
def test_an_irrational_constant_is_decided_by_its_ball_but_never_proved_equal():
    # E|g|^(-1/2) = 2^(-1/4) Gamma(1/4)/sqrt(pi) = 1.72008 and E log|g| = -(gamma + log 2)/2 = -0.635181
    assert claim("Eg(1/sqrt(Abs(g))) > 1.72").verdict is Verdict.HOLDS
    assert claim("Eg(1/sqrt(Abs(g))) > 1.7201").verdict is Verdict.FAILS
    assert claim("Eg(log(Abs(g))) < -0.6351").verdict is Verdict.HOLDS  # the sign of a '<' gap
    assert claim("Eg(log(Abs(g))) <= -0.6352").verdict is Verdict.FAILS
    assert claim("Eg(log(Abs(g))) == -0.635181").verdict is Verdict.FAILS
    outcome = claim("Eg(Abs(g)**3) == 2*sqrt(2/pi)")  # an equality holds by simplification only
    assert outcome.verdict is Verdict.HOLDS and outcome.basis is Basis.EXACT


@pytest.mark.parametrize("text, interval, verdict", [
    ("acos(rho) >= sqrt(2*(1 - rho))", "[-1, 1]", Verdict.HOLDS),          # theta >= 2 sin(theta/2)
    ("acos(rho) <= pi*sqrt(2*(1 - rho))/2", "[-1, 1]", Verdict.HOLDS),     # touches at both ends
    ("sqrt(1 - rho) >= 1 - rho", "[0, 1]", Verdict.HOLDS),
    ("sqrt(1 + rho) >= 1 + rho", "[-1, 0]", Verdict.HOLDS),                # the mirror, cos(theta/2)
    ("acos(rho) >= sqrt(2*(1 - rho))*(1 + 1/10**9)", "[-1, 1]", Verdict.FAILS),
    ("sqrt(1 + rho) >= (1 + rho)*(1 + 1/10**6)", "[-1, 0]", Verdict.FAILS),
])
@pytest.mark.extended
def test_half_angle_roots_settle_a_touch_with_an_infinite_slope(text, interval, verdict):
    outcome = claim(text, for_=[f"rho in {interval}"])
    assert outcome.verdict is verdict, outcome.evidence


def test_a_claim_off_a_tangent_by_a_millionth_is_refuted_next_to_the_touch():
    # |gap| ~ 1e-18 within 1e-5 of rho = 1, ~1e-12 within 1e-3 of 0: float64 sees neither
    moved = claim("K(rho) >= rho/2 + (1 - rho)/10**6", activation="relu", for_=["rho in [-1, 1]"])
    assert moved.verdict is Verdict.FAILS and moved.basis is Basis.CERTIFIED
    # next to the touch: one of the candidates 1 - 2^-n, or the touching prover's own witness
    assert "2^-" in moved.evidence or "touching prover's witness" in moved.evidence
    assert 1 - float(sympy.Rational(moved.counterexample["rho"])) < 1e-3
    quadratic = claim("K(rho) >= K(0) + rho**2*(1 + 1/10**6)/pi", activation="abs", for_=["rho in [-1, 1]"])
    assert quadratic.verdict is Verdict.FAILS
    strict = claim("K(rho) < K(1)", activation="tanh", for_=["rho in [-1, 1]"])
    assert strict.verdict is Verdict.FAILS and strict.counterexample["rho"] == "1"
    # and the true tangent still holds (not refuted by any of those balls)
    assert claim("K(rho) >= rho/2", activation="relu", for_=["rho in [-1, 1]"]).verdict is Verdict.HOLDS


@pytest.mark.parametrize("text, interval, activation, verdict", [
    # tangent at 1: rho^p >= 1 - p (1 - rho) for every p (induction in p), any activation
    ("K(rho) >= K(1) - Kp(1)*(1 - rho)", "[-1, 1]", "sigmoid", Verdict.HOLDS),
    ("K(rho) >= K(1) - Kp(1)*(1 - rho)*(1 - 1/10**6)", "[-1, 1]", "tanh", Verdict.FAILS),
    # chord on [0, 1] of an odd activation (mu_0 = 0): rho^p <= rho
    ("K(rho) <= K(1)*rho", "[0, 1]", "tanh", Verdict.HOLDS),
    ("K(rho) <= K(1)*rho", "[0, 1]", "sigmoid", Verdict.FAILS),        # mu_0 = 1/2: not for sigmoid
    # the Taylor remainder sum_{p >= 2} mu_p^2 rho^p has even p only when sigma - a x is even
    ("K(rho) >= K(0) + Kp(0)*rho", "[-1, 1]", "gelu", Verdict.HOLDS),
    ("K(rho) >= K(0) + Kp(0)*rho", "[-1, 1]", "tanh", Verdict.FAILS),
    ("K(rho) >= K(0) + Kp(0)*rho*(1 + 1/10**6)", "[-1, 1]", "gelu", Verdict.FAILS),  # next to 0
])
@pytest.mark.extended
def test_kernel_inequalities_term_by_term_of_the_series(text, interval, activation, verdict):
    outcome = claim(text, activation=activation, for_=[f"rho in {interval}"])
    assert outcome.verdict is verdict, outcome.evidence
    if verdict is Verdict.HOLDS:
        assert "termwise" in outcome.evidence


def test_a_term_monotone_only_past_its_turning_point_is_compared_from_there():
    # log(t)/t increases up to t = e: the integral comparison starts at i = 3
    assert claim("Sum(log(i)/i, i, 1, k) == Theta(log(k)**2)", growth="k",
                 for_=["k in 2..4096"]).verdict is Verdict.HOLDS
    assert claim("Sum(log(i)/i, i, 1, k) == Theta(log(k))", growth="k",
                 for_=["k in 2..4096"]).verdict is Verdict.FAILS
    # an antiderivative by parts where the definite integral comes back as Meijer G functions
    assert claim("Sum(sqrt(i)*log(i), i, 1, k) == Theta(k**(3/2)*log(k))", growth="k",
                 for_=["k in 2..4096"]).verdict is Verdict.HOLDS


def test_monotone_from_an_end_needs_the_right_end_for_each_direction():
    # g(a) >= 0 with g' >= 0, or g(b) >= 0 with g' <= 0; never g(b) >= 0 with g' >= 0 (x - 1 on
    # [0, 1] is increasing up to 0 and negative before): a mutant that paired them wrongly survived
    from fractions import Fraction

    from verify.claims.touching import _monotone_from_an_end

    x = sympy.Symbol("x", real=True)
    zero, one = Fraction(0), Fraction(1)
    assert not _monotone_from_an_end(x - 1, x, zero, one, 0)
    assert not _monotone_from_an_end(-x, x, zero, one, 0)
    assert _monotone_from_an_end(x, x, zero, one, 0)
    assert _monotone_from_an_end(1 - x, x, zero, one, 0)


def test_monotonicity_from_an_end_proves_nothing_beyond_its_depth():
    """At the depth limit the argument must give up, whatever the expression (a mutant returning
    True there survived every statement: it would prove any gap whose derivatives stall)."""
    x = sympy.Symbol("x", real=True)
    depth = touching.MAX_MONOTONE_DEPTH - 1
    assert not touching._monotone_from_an_end(x - 2, x, Fraction(0), Fraction(1), depth)
    assert not touching._monotone_from_an_end(x + 2, x, Fraction(0), Fraction(1), depth)
    # below the limit it proves what is true and refuses what is not
    assert touching._monotone_from_an_end(x**3 + x, x, Fraction(0), Fraction(1), 0)
    assert not touching._monotone_from_an_end(x**3 - x, x, Fraction(0), Fraction(1), 0)


def test_a_value_without_a_ball_is_not_nonnegative():
    x = sympy.Symbol("x", real=True)
    assert not touching._nonnegative_at(1 / x - 1, x, Fraction(0))  # a pole at the point
    assert not touching._nonnegative_at(sympy.Function("F")(x), x, Fraction(1, 2))  # no ball at all
    assert touching._nonnegative_at(sympy.sqrt(x) - x, x, Fraction(1, 4))
    assert not touching._nonnegative_at(x - sympy.sqrt(x), x, Fraction(1, 4))


@pytest.mark.parametrize("text, interval", [
    ("acos(x) >= (1 + 1/10**60)*sqrt(2*(1 - x))", "[0, 1]"),
    ("asin(x) <= pi/2 - (1 + 1/10**60)*sqrt(2*(1 - x))", "[0, 1]"),
    ("acos(x) <= pi - (1 + 1/10**60)*sqrt(2*(1 + x))", "[-1, 0]"),
])
@pytest.mark.extended
def test_a_claim_false_only_beyond_ball_resolution_at_an_infinite_slope_never_holds(text, interval):
    """False only within about 10^-60 of x = +-1 (t >= (1 + 10^-60) 2 sin(t/2) fails for t < 10^-30),
    where no ball resolves the gap: the prover stalls there and the angle substitution x = +-cos t
    must not prove it.  With sqrt(q(1 - cos t)) read as sqrt(2q) sin(t/3), or acos(u) read as t for
    every u, these held (mutants of touching._in_angle that survived every other statement)."""
    outcome = claim(text, for_=[f"x in {interval}"])
    assert outcome.verdict is not Verdict.HOLDS, outcome.evidence
