"""The decision procedure step by step: which step decides, with which evidence, and that it is right.

Each test states a claim whose truth is known independently (a closed form, a textbook identity,
a planted error) and checks the verdict, the basis and the deciding step.  Monte-Carlo tests use
the module's own error model (t·SE with t the two-sided 10⁻⁷ Student quantile), so a false
failure is rarer than one in ten million.
"""

from __future__ import annotations

import dataclasses

import pytest
from sympy.polys.polyerrors import PolynomialError

from verify.claims import claim, steps
from verify.verdict import Basis, Verdict


def test_symbolic_identity_glm_h_is_twice_the_kernel_derivative():
    # GLM (W = 0, c = c_hat = 1/sqrt(k), lambda = 1/k): rho_ij(m) = m and h(m) = 2 K'(m) for every xi (§1.2).
    outcome = claim("h(m) == 2*Kp(m)", family="glm", activation=["relu", "he3", "erf"],
                    for_=["k in 1..3", "xi in [1/2, 4]", "m in [-1, 1]"], seeds=0)
    assert outcome.verdict is Verdict.HOLDS and outcome.basis is Basis.EXACT
    assert outcome.numbers["decided_by"] == "symbolic"


def test_symbolic_identity_fails_at_an_exact_rational_point():
    outcome = claim("h(m) == Kp(m)", family="glm", activation="he2", for_=["m in [-1, 1]"], seeds=0)
    assert outcome.verdict is Verdict.FAILS and outcome.basis is Basis.EXACT
    assert outcome.counterexample["lhs"] == pytest.approx(2 * outcome.counterexample["rhs"])


def test_symbolic_sign_analysis_of_one_variable_is_exact():
    # he2: K'(rho) = 2 mu_2^2 rho = 2 rho; >= -2 on [-1, 1] (tight at -1), >= 0 fails for rho < 0.
    holds = claim("Kp(rho) >= -2", activation="he2", for_=["rho in [-1, 1]"])
    assert holds.verdict is Verdict.HOLDS and holds.basis is Basis.EXACT
    fails = claim("Kp(rho) >= 0", activation="he2", for_=["rho in [-1, 1]"])
    assert fails.verdict is Verdict.FAILS and fails.basis is Basis.EXACT
    assert float(fails.counterexample["rho"]) < 0


@pytest.mark.extended
def test_certified_step_proves_condition_3_on_small_orthonormal_instances():
    # Condition 3 (App. C.1) with S_k = |h(0)|/2 on 12 relu instances: one interval of m each.
    outcome = claim("sign(h(0))*h(sign(h(0))*m) >= abs(h(0))/2", family="orthonormal", activation="relu",
                    for_=["k in 2..4", "xi = 1", "m in [0, 1]"])
    assert outcome.verdict is Verdict.HOLDS
    assert outcome.numbers["steps"].get("certified", 0) >= 8
    assert outcome.basis in (Basis.CERTIFIED, Basis.EXACT)


def test_certified_step_refutes_at_a_point_when_no_closed_form_is_rational():
    # h(0) of relu instances involves asin(.)/pi: not rational, so balls decide it.
    outcome = claim("abs(h(0)) >= 1", family="orthonormal", activation="relu", for_=["k = 2"], seeds=0)
    assert outcome.verdict is Verdict.FAILS
    assert outcome.numbers["decided_by"] in ("certified", "symbolic")
    assert outcome.basis in (Basis.CERTIFIED, Basis.EXACT)


def test_search_finds_a_planted_counterexample_and_balls_confirm_it():
    # Proposition 23 with the printed C_sigma (check proposition-23): ratio -> 2 as xi -> 0 at m = 0.
    outcome = claim("abs(h(m))*sqrt(1 - m**2) <= C_sigma*lam_max**2*k*xi**2/(1 + xi**2/k)",
                    family="orthonormal", activation="relu",
                    for_=["k = 1", "xi in [0.01, 3]", "m in [-1, 1]"], seeds=0)
    assert outcome.verdict is Verdict.FAILS
    assert outcome.counterexample["ratio"] > 1.5
    assert outcome.basis is Basis.CERTIFIED


@pytest.mark.extended
def test_a_bound_attained_with_equality_is_inconclusive_not_failed_and_not_held():
    # Phi(m) = 0 exactly at m = 1 when c = c_hat: a tight bound must not fail on rounding, and a
    # search that finds nothing must not make it hold: the prover's stalled interval is named.
    outcome = claim("Phi(m) >= 0", family="orthonormal", activation=["relu", "tanh"],
                    for_=["k in 1..2", "xi in [0.5, 2]", "m in [-1, 1]"], seeds="0..1")
    assert outcome.verdict is Verdict.INCONCLUSIVE and outcome.basis is Basis.NONE
    assert "no counterexample in" in outcome.evidence and "stalled on [" in outcome.evidence
    # Away from the touching point the prover proves it, and says what it proved.
    away = claim("Phi(m) >= 0", family="orthonormal", activation="relu", for_=["k = 2", "xi = 1",
                 "m in [-1, 9/10]"], seeds="0..1")
    assert away.verdict is Verdict.HOLDS and away.basis is Basis.CERTIFIED
    assert away.scope.startswith("instances: 2 drawn instance configuration(s) of orthonormal")


def test_search_with_series_coefficients_uses_their_truncation_bound():
    # D.4: "for all odd l, the power series coefficients are always non-negative".
    # The coefficient is an exact irrational constant at each drawn instance (sqrt(3)/(6 pi) at
    # k = 1): one ball of it decides the sign (before, the search's silence was inconclusive);
    # a wrong sign still fails.
    outcome = claim("hcoef(1) >= 0", family="orthonormal", activation="relu", for_=["k in 1..2", "xi = 1"],
                    seeds="0..1")
    assert outcome.verdict is Verdict.HOLDS and outcome.basis is Basis.CERTIFIED
    wrong = claim("hcoef(1) <= 0", family="orthonormal", activation="relu", for_=["k = 1", "xi = 1"], seeds=0)
    assert wrong.verdict is Verdict.FAILS


def test_monte_carlo_second_moment_matches_its_closed_form():
    # GLM, linear sigma: g = -2<u - u_hat, x>(I - u_hat u_hat^T) x, so for Gaussian x
    # E|g|^2 = 4[(2 - 2m)(d - 1) + 2(1 - m^2)] (Isserlis); a factor or a d off must fail.
    right = claim("grad_var(m) == 4*((2 - 2*m)*(d - 1) + 2*(1 - m**2))", family="glm", activation="linear",
                  for_=["d in {8, 40}", "m in {-0.6, 0.3}", "k = 2"], seeds=0)
    assert right.verdict is Verdict.CONSISTENT and right.basis is Basis.STATISTICAL
    wrong = claim("grad_var(m) == 4*(2 - 2*m)*(d - 1)", family="glm", activation="linear",
                  for_=["d = 8", "m = 0.3", "k = 2"], seeds=0)
    assert wrong.verdict is Verdict.FAILS and wrong.basis is Basis.STATISTICAL


def test_probability_by_exact_enumeration():
    # k = 1: h(0) = 2 xi^2 c c_hat K'(rho)/(1 + xi^2) > 0 exactly when c c_hat > 0, probability 1/2.
    half = claim("h(0) > 0", family="orthonormal", activation="relu", for_=["k = 1"],
                 prob=">= 1/2 over c, c_hat")
    # the count is exact and each pattern's event is read in balls (or exactly): holds, certified
    assert half.verdict is Verdict.HOLDS and half.basis is Basis.CERTIFIED
    assert half.numbers["least"]["probability"] == "1/2"
    more = claim("h(0) > 0", family="orthonormal", activation="relu", for_=["k = 1"],
                 prob="> 1/2 over c, c_hat")
    assert more.verdict is Verdict.FAILS


def test_probability_by_sampling_with_clopper_pearson():
    # k = 9 (4^9 patterns: sampled): the sign of h(0) is a fair coin by the symmetry c_hat -> -c_hat.
    outcome = claim("h(0) > 0", family="orthonormal", activation="relu", for_=["k = 9"],
                    prob=">= 0.45 over c, c_hat", draws=400)
    assert outcome.verdict is Verdict.INCONCLUSIVE  # the interval contains 0.45: no verdict
    lo, hi = outcome.numbers["interval"]
    assert lo < 0.5 < hi
    assert claim("h(0) > 0", family="orthonormal", activation="relu", for_=["k = 9"],
                 prob=">= 0.9 over c, c_hat", draws=400).verdict is Verdict.FAILS


def test_probability_events_are_confirmed_in_balls():
    # (10**8 + c)**2 - 10**16 - 2*10**8*c is c**2 exactly, and 0.0 in float64 at c = +-1/2: each
    # pattern's clear float64 reading was counted as its event (a false claim consistent, a true
    # one failed); now a reading counts only as balls confirm it
    lhs = "(10**8 + c(1))**2 - 10**16 - 2*10**8*c(1)"
    false = claim(f"{lhs} <= c(1)**2 - 1/8", family="orthonormal", prob=">= 1 over c")
    assert false.verdict is Verdict.FAILS
    true = claim(f"{lhs} >= c(1)**2", family="orthonormal", prob=">= 1 over c")
    assert true.verdict is Verdict.HOLDS and true.numbers["least"]["probability"] == "1"
    sampled = claim(f"{lhs} <= c(1)**2 - 1/32", family="orthonormal", for_=["k = 16"],
                    prob=">= 9/10 over c, c_hat")
    assert sampled.verdict is Verdict.FAILS
    # with an inner variable a violation counts only where balls confirm it at its grid point
    inner = claim("(10**8 + x)**2 - 10**16 - 2*10**8*x >= x**2 + c(1)**2 - 1/4", family="orthonormal",
                  for_=["x in [0, 1]"], prob=">= 1/2 over c")
    assert inner.verdict is Verdict.INCONCLUSIVE


def test_asymptotic_symbolic_limit():
    assert claim("k*(k + 1) == Theta(k**2)", for_=["k in 1..100"]).verdict is Verdict.HOLDS
    outcome = claim("k*(k + 1) == O(k)", for_=["k in 1..100"])
    assert outcome.verdict is Verdict.FAILS and outcome.basis is Basis.EXACT


def test_asymptotic_fit_of_a_monte_carlo_quantity():
    # E|grad L|^2 grows linearly in d (the x_rest part of the gradient has d - k - 1 coordinates).
    linear = claim("grad_var(0) == Theta(d)", family="orthonormal", activation="relu",
                   for_=["d in 16..4096", "k = 4"], seeds="0..1")
    assert linear.verdict is Verdict.CONSISTENT and linear.basis is Basis.STATISTICAL
    bounded = claim("grad_var(0) == O(1)", family="orthonormal", activation="relu",
                    for_=["d in 16..4096", "k = 4"], seeds=0)
    assert bounded.verdict is Verdict.FAILS
    assert "upper_exponent" in bounded.counterexample


def test_the_python_api_is_exported_from_the_package():
    import verify

    outcome = verify.claim("mu(1) == 1/2", activation="relu")
    assert outcome.verdict is Verdict.HOLDS and outcome.basis is Basis.EXACT


@pytest.mark.parametrize(
    ("constant", "irrational"),
    [
        ("10 - 125*exp(3)/27", True),  # binomial(5, 3) - (E*5/3)**3: decided by its ball, no fork
        ("3 - E", True),
        ("1 - pi/2", True),
        ("exp(-2)", True),
        ("log(4)/log(2)", False),  # simplifies to 2: the exact route must see it
        ("1 + sqrt(2)", False),  # irrational, but not by this rule: no shortcut
        ("E + pi", False),  # irrationality of e + pi is open
        ("exp(1/2)", False),
        ("2", False),
    ],
)
def test_only_a_provably_irrational_constant_skips_the_simplifier(constant, irrational):
    """The symbolic step decides r + c e^k and r + c pi^k by a ball before simplifying: no
    simplification can make them rational, so the verdict's basis cannot be stronger. Any other
    constant is simplified first, so that an exact rational difference keeps its exact verdict."""
    import sympy

    from verify.claims.universal import _rational_plus_transcendental

    assert _rational_plus_transcendental(sympy.sympify(constant)) is irrational


@pytest.mark.parametrize("text, options", [
    # a sum over the drawn signs (each draw its own value) and the exact separated G
    ("Abs(Sum(lam(i)*c(i)*chat(i)*G(i, i + 1)**2, i, 1, k - 1)) <= 3/100",
     dict(family="separated", for_=["k = 6"], prob=">= 1/2 over c, c_hat")),
    # h(0) of each drawn instance in balls, and an instance scalar
    ("abs(h(0)) >= lam_min**2/10", dict(family="orthonormal", activation="relu", for_=["k = 5", "xi = 1"],
                                         prob=">= 1/2 over c, c_hat")),
    # an enumeration that reads every pattern
    ("c(1)*chat(2) + c(2)*chat(1) >= 0", dict(family="orthonormal", for_=["k = 3"], prob=">= 1/2 over c, c_hat")),
])
def test_draws_share_one_compiled_ball_gap(monkeypatch, text, options):
    """verify.claims.relation.DrawnGaps compiles the ball sides once per configuration and rebinds
    them to each draw: the outcome (verdict, counts, the failing draw) is the one of a compile per
    draw, and it applies only where nothing of the instance is evaluated at compile time."""
    from verify.claims.relation import DrawnGaps

    shared = claim(text, **options)
    monkeypatch.setattr(DrawnGaps, "applies", staticmethod(lambda lhs, rhs: False))
    alone = claim(text, **options)
    assert shared.verdict is alone.verdict and shared.basis is alone.basis
    timeless = ({k: v for k, v in o.numbers.items() if k != "seconds"} for o in (shared, alone))
    assert next(timeless) == next(timeless) and shared.evidence == alone.evidence
    assert shared.verdict.value in ("holds", "fails")  # a decided claim: the ball readings counted


def test_drawn_gaps_apply_only_without_compile_time_values():
    import sympy

    from verify.claims.relation import DrawnGaps

    g, x = sympy.Symbol("g"), sympy.Symbol("x")
    eg = sympy.Function("Eg")(g**2)
    assert DrawnGaps.applies(x + 1, x)
    assert not DrawnGaps.applies(eg * x, x)
    assert not DrawnGaps.applies(sympy.Integral(x, (x, 0, 1)), x)


def test_sympy_giving_up_in_a_step_leaves_that_step_undecided(monkeypatch):
    """A SymPy failure inside its own algebra (PolynomialError, NotImplementedError) makes that step
    undecided, names it in the evidence, and lets the next steps decide: never a traceback."""
    def gives_up(rel):
        raise PolynomialError("a polynomial expected")

    patched = tuple(step if step.name == "search" else dataclasses.replace(step, run=gives_up)
                    for step in steps.STEPS)
    monkeypatch.setattr(steps, "STEPS", patched)
    outcome = claim("x >= 0", for_="x in [0, 1]")
    assert outcome.verdict is Verdict.INCONCLUSIVE
    assert "symbolic: SymPy could not work with it (PolynomialError: a polynomial expected)" \
        in outcome.evidence


def test_simplify_never_substitutes_into_a_kept_expectation():
    """E(Lambda(g, body)) binds g: SymPy's simplify substituted g = 0 into it (BadSignatureError,
    a traceback from the symbolic step; found by mutation helper ze).  Both claims are decided."""
    false_one = claim("Eg(g*sign(g)*tanh(g)**2 + cos(g)) == exp(-1/2)")  # E[|g| tanh² g] > 0
    assert false_one.verdict is Verdict.FAILS
    # reweighting: E[e^g F(g)] = e^{1/2} E[F(g + 1)] with F(u) = (u - 1) sign(u) tanh(u)
    true_one = claim("Eg(exp(g)*(g - 1)*sign(g)*tanh(g)) == "
                     "exp(1/2)*Eg(g*sign(g + 1)*tanh(g + 1))")
    assert true_one.verdict is Verdict.HOLDS
