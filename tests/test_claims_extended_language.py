"""The claim language's asin/acos, indexed entries, Gaussian expectations and Hermite sums to oo.

Each true statement must be decided (holds where exact or ball arithmetic can prove it), and a
version off by a small constant must fail: the suite's power to find a mistake is what matters.
The indexed entries cross-check Proposition 4's T (a separate formula over the same numbers),
Eg cross-checks the Hermite coefficients and the kernel (Stein, Parseval), and the Hermite sums
cross-check K and C_sigma through a certified tail.
"""

from __future__ import annotations

import pytest
import sympy
from flint import arb

from verify.certified.balls import BALLS, working_precision
from verify.certified.compile import constant
from verify.claims import claim
from verify.claims.gaussian import exact_expectation, float_expectation, integrand
from verify.claims.language import GAUSSIAN, parse_claim, quantity_function
from verify.claims.model import draw
from verify.claims.quantities import BALL_DPS, Quantities
from verify.model.activations import get_activation
from verify.model.arithmetic import EXACT, FLOAT64
from verify.verdict import Basis, Verdict

FAMILIES = ["orthonormal", "separated", "claim2"]


def holds(outcome, *bases):
    assert outcome.verdict is Verdict.HOLDS, outcome.evidence
    assert outcome.basis in bases, outcome.basis
    return outcome


def fails(outcome, *bases):
    assert outcome.verdict is Verdict.FAILS, outcome.evidence
    assert outcome.basis in bases, outcome.basis
    return outcome


# --- asin / acos ----------------------------------------------------------------------------------
def test_arcsines_are_exact_at_points_and_certified_on_intervals():
    holds(claim("acos(1/2) == pi/3"), Basis.EXACT)
    holds(claim("asin(x) + acos(x) == pi/2", for_=["x in [-1, 1]"]), Basis.EXACT)
    holds(claim("acos(x) >= 0", for_=["x in [-1, 1]"]), Basis.CERTIFIED, Basis.EXACT)
    holds(claim("asin(x) <= pi/2", for_=["x in [-1, 1]"]), Basis.CERTIFIED, Basis.EXACT)


def test_arcsines_off_by_a_thousandth_fail():
    fails(claim("acos(1/2) == pi/3 + 1/1000"), Basis.EXACT, Basis.CERTIFIED)
    fails(claim("asin(x) <= pi/2 - 1/1000", for_=["x in [-1, 1]"]), Basis.CERTIFIED, Basis.EXACT)
    fails(claim("acos(x) >= 1/1000", for_=["x in [-1, 1]"]), Basis.CERTIFIED, Basis.EXACT)


def test_an_arcsine_ball_beyond_its_domain_is_nan_not_a_number():
    from verify.claims.evaluate import compile_ball

    x = sympy.Symbol("x", real=True)
    backend = Quantities(None, None, BALLS)
    backend.box = {x: (0, 2)}
    with working_precision(BALL_DPS):
        acos = compile_ball(sympy.acos(x), backend)
        assert not acos({x: arb(3) / 2}).is_finite()
        assert acos({x: arb(1)}) == 0  # the domain's edge is a valid point


# --- indexed entries ------------------------------------------------------------------------------
@pytest.mark.extended
def test_indexed_entries_agree_with_the_derived_scalars():
    holds(claim("lam_max == Max(lam(1), lam(2), lam(3))", family=FAMILIES, for_=["k = 3"]), Basis.EXACT)
    holds(claim("Sum(lam(i), i, 1, k) == k*lam_min", family=FAMILIES, for_=["k in 1..5"]), Basis.EXACT)
    holds(claim("Sum(lam(i)**2*G(i, i), i, 1, k) == Sum(lam(i)**2, i, 1, k)", family=FAMILIES,
                for_=["k in 1..4"]), Basis.EXACT)
    holds(claim("Sum(c(i)**2 + chat(i)**2, i, 1, k) == 2", family=FAMILIES, for_=["k in 1..4"]), Basis.EXACT)
    holds(claim("gamma == 1 - Abs(G(1, 2))", family=FAMILIES, for_=["k = 2"]), Basis.EXACT)


def test_gamma_is_one_minus_the_largest_overlap_of_the_exact_gram():
    # gamma is read from the doubles' maximum (Model.largest_overlap), G(i, j) from the exact Gram
    # matrix: the two must agree exactly, on drawn (separated) and constructed (claim2) rows
    holds(claim("gamma == 1 - Max(Abs(G(1, 2)), Abs(G(1, 3)), Abs(G(2, 3)))", family=FAMILIES,
                for_=["k = 3"], seeds=[0, 1]), Basis.EXACT)
    fails(claim("gamma == 1 - Max(Abs(G(1, 2)), Abs(G(1, 3)), Abs(G(2, 3))) + 1/10**15",
                family="separated", for_=["k = 3"]), Basis.EXACT)


def test_indexed_double_sums_cross_check_proposition_4s_T():
    # T(l, s) = sum_ij lam_i lam_j G_ij^s (l odd), k sum_ij lam_i lam_j c_i chat_j G_ij^s (l even)
    holds(claim("Sum(Sum(lam(i)*lam(j)*G(i, j)**s, j, 1, k), i, 1, k) == T(1, s)", family=FAMILIES,
                for_=["k in 1..3", "s in {0, 1, 3}"], seeds=[0, 1]), Basis.EXACT)
    holds(claim("k*Sum(Sum(lam(i)*lam(j)*c(i)*chat(j)*G(i, j)**s, j, 1, k), i, 1, k) == T(0, s)",
                family=FAMILIES, for_=["k in 1..3", "s in {0, 1, 3}"], seeds=[0, 1]), Basis.EXACT)


def test_indexed_sums_off_by_a_thousandth_fail():
    fails(claim("Sum(Sum(lam(i)*lam(j)*G(i, j)**3, j, 1, k), i, 1, k) == T(1, 3) + 1/1000",
                family="separated", for_=["k in 2..4"]), Basis.EXACT)
    fails(claim("Sum(lam(i)*c(i)*chat(i), i, 1, k) <= -1/1000", family="orthonormal", for_=["k = 1"]),
          Basis.EXACT)


def test_the_three_arithmetics_read_the_same_entries():
    model = draw("separated", "relu", 3, 8, 1, "1/k")
    exact, floats = Quantities(model, None, EXACT), Quantities(model, None, FLOAT64)
    with working_precision(BALL_DPS):
        balls = Quantities(model, None, BALLS)
        for i in (1, 2, 3):
            for name in ("lam", "c", "chat"):
                value = getattr(exact, name)(i)
                assert abs(float(value) - getattr(floats, name)(i)) <= 2e-16  # c = ±1/√k rounded once
                assert getattr(balls, name)(i).contains(constant(value))
            for j in (1, 2, 3):
                assert float(exact.G(i, j)) == floats.G(i, j)
                assert balls.G(i, j).contains(constant(exact.G(i, j)))


# --- Gaussian expectations --------------------------------------------------------------------------
def test_stein_and_the_first_coefficient_hold_exactly():
    holds(claim("Eg(g*sigma(g)) == Eg(dsigma(g))", activation=["relu", "expr:x**3 - 3*x", "abs"]),
          Basis.EXACT)
    holds(claim("Eg(sigma(g)*g) == mu(1)", activation=["relu", "expr:x**3 - 3*x"]), Basis.EXACT)
    holds(claim("Eg(sigma(g)**2) == K(1)", activation="relu"), Basis.EXACT)
    holds(claim("Eg(sigma(g)**2) == Sum(mu(p)**2, p, 0, 3)", activation="expr:x**3 - 3*x"), Basis.EXACT)


def test_gaussian_identities_off_by_a_thousandth_fail():
    fails(claim("Eg(g*sigma(g)) == Eg(dsigma(g)) + 1/1000", activation="relu"), Basis.EXACT)
    fails(claim("Eg(sigma(g)*g) == mu(1) - 1/1000", activation="relu"), Basis.EXACT)
    fails(claim("Eg(sigma(g)**2) == Sum(mu(p)**2, p, 0, 2)", activation="expr:x**3 - 3*x"), Basis.EXACT)


def test_the_quadrature_agrees_with_the_closed_form_within_its_error():
    act = get_activation("relu")
    g = GAUSSIAN
    for expr in (g * quantity_function("sigma")(g), quantity_function("sigma")(g) ** 2 * g**2):
        body = integrand(expr, act)
        exact = exact_expectation(body)
        value, error = float_expectation(body, act.kinks)
        assert abs(value - float(exact)) <= max(error, 1e-14)


# --- Hermite sums to oo ---------------------------------------------------------------------------------
def test_parseval_sums_hold_exactly_and_off_by_a_thousandth_fail():
    holds(claim("Sum(mu(p)**2, p, 0, oo) == Eg(sigma(g)**2)", activation="relu"), Basis.EXACT)
    outcome = holds(claim("Sum(p*mu(p)**2, p, 1, oo) == C_sigma", activation="relu"), Basis.EXACT)
    assert "Parseval" in outcome.evidence
    holds(claim("Sum(mu(p)**2, p, 2, oo) == K(1) - mu(0)**2 - mu(1)**2", activation="relu"), Basis.EXACT)
    fails(claim("Sum(mu(p)**2, p, 0, oo) == Eg(sigma(g)**2) + 1/1000", activation="relu"), Basis.EXACT)
    fails(claim("Sum(p*mu(p)**2, p, 1, oo) == C_sigma - 1/1000", activation="relu"), Basis.EXACT)


@pytest.mark.extended
def test_the_kernel_series_is_the_kernel_exactly_and_certified_with_its_tail_bound():
    # Mehler: sum_p mu_p^2 rho^p is K(rho) itself for |rho| <= 1, exactly
    outcome = holds(claim("Sum(mu(p)**2*rho**p, p, 0, oo) <= K(rho) + 1/100", activation="relu",
                          for_=["rho in [-1, 1]"]), Basis.EXACT)
    assert "Mehler" in outcome.evidence
    holds(claim("Sum(p*mu(p)**2*rho**p, p, 1, oo) <= rho*Kp(rho) + 1/100", activation="relu",
                for_=["rho in [-1/2, 1/2]"]), Basis.EXACT)
    # against another quantity, the sum is a ball: 65 certified terms plus the Parseval tail
    outcome = holds(claim("Sum(mu(p)**2*rho**p, p, 0, oo) <= Eg(sigma(g)**2) + 1/100", activation="tanh",
                          for_=["rho in [-1, 1]"]), Basis.CERTIFIED)
    assert "tail within" in outcome.evidence and "Parseval" in outcome.evidence
    holds(claim("Sum(mu(p)**2*(1/2)**p, p, 0, oo) >= K(1/2) - 1/10**9", activation="relu"), Basis.EXACT)


def test_the_kernel_series_off_by_a_thousandth_fails():
    fails(claim("Sum(mu(p)**2*rho**p, p, 0, oo) == K(rho) + 1/1000", activation="relu",
                for_=["rho in [-1, 1]"]), Basis.EXACT)
    fails(claim("Sum(mu(p)**2*rho**p, p, 0, oo) <= K(rho) - 1/1000", activation="relu",
                for_=["rho in [-1, 1]"]), Basis.EXACT)
    fails(claim("Sum(p*mu(p)**2*rho**p, p, 1, oo) >= rho*Kp(rho) + 1/1000", activation="relu",
                for_=["rho in [-1/2, 1/2]"]), Basis.EXACT)
    # at rho = 1 the sum is K(1) = E[sigma^2] exactly, so the end refutes it exactly (or its balls)
    fails(claim("Sum(mu(p)**2*rho**p, p, 0, oo) >= Eg(sigma(g)**2) + 1/1000", activation="tanh",
                for_=["rho in [-1, 1]"]), Basis.EXACT, Basis.CERTIFIED)


def test_an_infinite_sum_parses_only_with_mu_of_its_index():
    claim_ = parse_claim("Sum(mu(p)**2*rho**p, p, 0, oo) <= K(rho)", {"rho": sympy.Symbol("rho", real=True)})
    assert claim_.quantities() >= {"mu", "K"}
