"""Default-deny singular points, removable singularities and the hypotheses of the decision steps
(issue #48): each rule's hypothesis is proved, or the rule does not decide."""

from __future__ import annotations

import subprocess
import sys

import pytest
import sympy
from flint import arb

from verify.base.singular import ComplexValuedError, removable_quotient, singular_candidates
from verify.claims import claim
from verify.claims.gaussian import ball_expectation
from verify.claims.language import GAUSSIAN as g

#: 40-digit references from tests/calibration/truth/whitebox48_values.py (mpmath, 60 digits, and a
#: 90-digit rerun for the last three), none computed by the suite.
REFERENCES = {
    "tanh": (sympy.tanh(g) / g, "0.8219985643821087179001521136634044540078"),
    "log1p": (sympy.log(1 + g**2) / g**2, "0.7779059049934621118326242561146480802294"),
    "sigmoid": ((1 / (1 + sympy.exp(-g)) - sympy.Rational(1, 2)) / g,
                "0.2334831104388895666801568530597763133838"),
    "sine": ((g - sympy.sin(g)) / g**3, "0.1588897217484655149752043877756352879474"),
}


@pytest.mark.parametrize(("expr", "points"), [
    (sympy.cosh(sympy.log(sympy.Abs(g))), {0}),        # blows up at 0 with no negative power in sight
    (sympy.exp(1 / g**2), {0}),
    (sympy.atan(1 / g), {0}),
    (sympy.log(sympy.Abs(g - 1)) * sympy.exp(g), {1}),
    (sympy.sqrt(sympy.Abs(g)) + sympy.tanh(g), set()),
    (1 / (1 + sympy.exp(-g)), set()),
])
def test_singular_candidates_contain_every_blow_up(expr, points):
    assert singular_candidates(expr, g) == (points, True)


def test_an_unknown_function_proves_nothing():
    assert singular_candidates(sympy.gamma(g), g) is None           # default deny
    assert singular_candidates(sympy.Function("f")(g), g) is None
    assert singular_candidates(g ** g, g) is None                   # a base not proved positive
    found = singular_candidates(1 / sympy.cos(g), g)
    assert found is not None and found[1] is False                 # infinitely many: not complete


@pytest.mark.parametrize(("text", "expr"), [
    ("Eg(sqrt(g)) >= 0", sympy.sqrt(g)),
    ("Eg(log(g)) == Eg(log(Abs(g)))", sympy.log(g)),
    ("Eg(Abs(g)*log(g - 1)) >= 0", sympy.Abs(g) * sympy.log(g - 1)),
])
def test_a_complex_integrand_is_one_line_exit_2(text, expr):
    with pytest.raises(ComplexValuedError, match="not real at g = "):
        singular_candidates(expr, g)
    done = subprocess.run([sys.executable, "-m", "verify", "claim", text], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr and "not real" in done.stderr


@pytest.mark.parametrize(("expr", "written"), [
    (sympy.tanh(g) / g, (1, sympy.tanh(g))),
    ((1 - sympy.cos(g)) / g**2, (2, 1 - sympy.cos(g))),
    ((1 - sympy.cos(g)) / g**3, None),           # N''(0) != 0: a pole of order 1, not removable
    (1 / g, None),
    (sympy.exp(g) / g, None),
])
def test_removable_quotients_are_proved_exactly(expr, written):
    found = removable_quotient(expr, g, 0)
    if written is None:
        assert found is None
    else:
        assert found[0] == written[0] and sympy.simplify(found[1] - written[1]) == 0


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_taylor_models_enclose_removable_singularities(name):
    """The certified quadrature's ball contains the independent 40-digit value and is far tighter
    than it (radius <= 1e-33): a Taylor model that dropped its remainder would miss it."""
    expr, reference = REFERENCES[name]
    ball = ball_expectation(expr, 30)
    assert ball.rad() < arb("1e-33")
    assert ball.overlaps(arb(reference, "1e-39")), (ball, reference)


@pytest.mark.parametrize(("text", "verdict", "basis"), [
    ("Eg((1 - cos(g))/g**2) == sqrt(pi/2)*erf(1/sqrt(2)) - 1 + exp(-1/2)", "holds", "exact"),
    ("Eg((1 - cos(g))/g**2) == sqrt(pi/2)*erf(1/sqrt(2)) - 1 + exp(-1/2) + 10**-30", "fails", "exact"),
    ("Eg(tanh(g)/g) > 0.8219", "holds", "certified"),
    ("Eg(tanh(g)/g) > 0.822", "fails", "certified"),
    ("Eg(cos(10**100*g)) > 0", "holds", "exact"),        # a float quadrature said -0.107
    ("Eg(cos(10**100*g)) == 0", "fails", "exact"),
    ("Eg(g*sin(10**100*g)) >= 0", "holds", "exact"),
    ("Eg(sign(g)*cosh(log(Abs(g)))) == 0", "fails", "exact"),   # held exact by parity
    ("Eg(sign(g)*cosh(log(Abs(g)))) <= 0", "fails", "exact"),
    ("Eg(1/sqrt(Abs(cos(g)))) > 0", "inconclusive", "none"),     # existence not proved: no holds
])
@pytest.mark.extended
def test_issue_48_statements(text, verdict, basis):
    outcome = claim(text)
    assert (outcome.verdict.value, str(outcome.basis)) == (verdict, basis), outcome.evidence


def test_a_holds_without_its_hypotheses_names_them():
    outcome = claim("Eg(1/sqrt(Abs(cos(g)))) > 0")
    assert "exists is not proved" in outcome.evidence


def test_a_grid_of_a_continuous_range_decides_no_probability():
    outcome = claim("(xi - 61/100)**2 + c(1)/10**4 >= 0", family="orthonormal", for_=["xi in [1/2, 2]"],
                    prob=">= 3/4 over c")
    assert outcome.verdict.value == "inconclusive" and "grid points" in outcome.scope


def test_a_deterministic_fit_is_no_order():
    outcome = claim("Sum((1 + exp(-i))/(i*log(i + 1)), i, 1, k) == O(1)", for_=["k in 1..4096"])
    assert outcome.verdict.value == "inconclusive", outcome.evidence


def test_the_taylor_model_is_used_only_well_inside_its_disc():
    """Cauchy's estimate bounds the remainder only inside the disc where f is proved holomorphic;
    a ball reaching beyond half its radius goes to f's own formula (here a ball around 0: no value)."""
    from flint import acb

    from verify.certified.balls import working_precision
    from verify.certified.compile import ComplexBackend
    from verify.certified.removable import compile_with_removable

    with working_precision(30):
        evaluator = compile_with_removable(sympy.tanh(g) / g, g, ComplexBackend())
        near = evaluator(acb(arb("0.05", "0.1")))           # holds 0, within rho/2 of it: the model
        assert near.is_finite() and near.real.contains(arb(1))  # f(0) = 1
        far = evaluator(acb(arb("0.3", "0.35")))           # holds 0, reaches 0.65 > rho/2 = 0.25
        assert not far.is_finite(), far


def test_exact_sign_rules_decide_products_only_and_strictly():
    """White box (two hand-made mutants survived every statement): SymPy decides the sign of a
    sum of numbers by evaluating it, which is not a proof, so a sum is left to the balls; and an
    exact 0 does not satisfy a strict inequality."""
    from verify.claims.universal import _by_sign_rules

    tiny = sympy.exp(-sympy.Integer(10) ** 200 / 2)
    assert _by_sign_rules({}, ">", tiny).status == "holds"
    assert _by_sign_rules({}, ">", tiny - sympy.exp(-sympy.Integer(10) ** 201)) is None
    zero = sympy.Mul(0, tiny, evaluate=False)
    assert _by_sign_rules({}, ">", zero).status == "fails"
    assert _by_sign_rules({}, ">=", zero).status == "holds"


def test_the_taylor_models_disc_avoids_complex_singularities():
    """Cauchy's estimate needs f holomorphic on the whole disc: sqrt(1 + (10 g/3)^2) has branch
    points at +-0.3i, inside the disc of radius 1/2 around 0, so the model's disc must shrink to
    1/4 (a mutant that evaluated the square without Arb's analytic check kept 1/2 and bounded the
    remainder by a maximum that is not one)."""
    from verify.certified.balls import working_precision
    from verify.certified.compile import ComplexBackend
    from verify.certified.removable import _model

    numerator = sympy.sqrt(1 + g**2 * sympy.Rational(100, 9)) - 1
    with working_precision(30):
        _, _, radius, _ = _model(sympy.Integer(0), 2, numerator, g, ComplexBackend())
    assert radius <= arb(1) / 4  # 1/8 here: Arb overestimates z^2 on the square
