"""Certified Hermite coefficients (verify.certified.hermite) and the layers under them.

The balls are checked against independent values: exact SymPy closed forms (converted at four
times the precision, so the reference is itself a ball far tighter than the one under test)
and the 50-digit reference quadrature of :mod:`verify.model.hermite`.
"""

from __future__ import annotations

import time
from fractions import Fraction

import mpmath
import pytest
import sympy
from flint import acb, arb, ctx

from tests.cli_helpers import assert_one_line_usage_error, run_verify
from verify.base.errors import VerifyInputError
from verify.certified.balls import (
    format_ball,
    from_payload,
    quantized,
    to_payload,
    working_precision,
)
from verify.certified.compile import ComplexBackend, RealBackend, compile_expression, constant
from verify.certified.errors import CertificationError
from verify.certified.growth import tail_majorant
from verify.certified.hermite import certified_hermite_coefficients
from verify.certified.pieces import smooth_pieces
from verify.certified.tails import TailMoments
from verify.model.activations import get_activation
from verify.model.hermite import hermite_coefficients
from verify.model.hermite_exact import exact_coefficients

TERMS = 40  # the range: every p < 40
DPS = 50
EXACT = ("relu", "abs", "erf", "linear", "quadratic", "he3", "he8")
QUADRATURE = ("sigmoid", "tanh", "gelu", "softplus")


def exact_ball(expr, dps: int) -> arb:
    """An exact SymPy number as a ball at four times ``dps``'s precision (radius ~1e-4dps)."""
    with working_precision(4 * dps):
        return constant(expr)


@pytest.mark.parametrize("name", EXACT)
def test_exact_route_contains_the_sympy_value(name):
    """Issue acceptance: every ball contains the exact value, radius < 10^-(dps-5)."""
    coeffs = certified_hermite_coefficients(name, TERMS, DPS)
    exact = exact_coefficients(get_activation(name), TERMS)
    assert coeffs.method == "exact" and len(coeffs) == TERMS
    for p, (ball, value) in enumerate(zip(coeffs.balls, exact, strict=True)):
        assert ball.contains(exact_ball(value, DPS)), (name, p)
        assert ball.rad() < arb(10) ** -(DPS - 5), (name, p)


@pytest.mark.parametrize("name", ("relu", "abs", "erf", "expr:Max(x,0)**2"))
def test_quadrature_route_contains_the_sympy_value(name):
    """The integrator itself (kinks, tails, acb.integral) against exact values."""
    coeffs = certified_hermite_coefficients(name, TERMS, 30, method="quadrature")
    exact = exact_coefficients(get_activation(name), TERMS)
    assert coeffs.method == "quadrature"
    for p, (ball, value) in enumerate(zip(coeffs.balls, exact, strict=True)):
        assert ball.contains(exact_ball(value, 30)), (name, p)
        assert ball.rad() <= 2 * arb(10) ** -33, (name, p)


@pytest.mark.extended
@pytest.mark.parametrize("name", QUADRATURE)
def test_quadrature_route_contains_the_reference_quadrature(name):
    """Issue acceptance: each ball contains the 50-digit value of verify.model.hermite, radius < 1e-30."""
    coeffs = certified_hermite_coefficients(name, TERMS, DPS)
    reference = hermite_coefficients(name, TERMS, DPS, method="quadrature")
    with working_precision(DPS):
        for p, ball in enumerate(coeffs.balls):
            # the reference's own digits as an exact decimal (70 > its dps + 15 stored digits)
            value = arb(mpmath.nstr(reference.values[p], 70))
            assert ball.contains(value), (name, p, format_ball(ball, 60), value)
            assert ball.rad() < arb("1e-30"), (name, p)


def test_time_per_coefficient_is_modest():
    """A smooth activation's 40 coefficients at 50 digits take seconds, not minutes (2-core bound)."""
    start = time.perf_counter()
    certified_hermite_coefficients("tanh", TERMS, DPS, use_cache=False)
    assert time.perf_counter() - start < 60


@pytest.mark.parametrize("name", ("expr:Abs(exp(x)-2)", "expr:sqrt(Abs(x))", "expr:Heaviside(x-1/3)",
                                  "expr:log(1+exp(2*x))", "expr:atan(x)*x", "expr:exp(x)"))
def test_expression_activations_agree_with_the_reference(name):
    """Kinks at non-dyadic points (log 2), branch points at a kink, jumps, exp growth: the ball
    contains the verify.model.hermite value to within that value's own error estimate."""
    coeffs = certified_hermite_coefficients(name, 8, 30)
    reference = hermite_coefficients(name, 8, 30, method="quadrature")
    with working_precision(30):
        for p, ball in enumerate(coeffs.balls):
            value = arb(mpmath.nstr(reference.values[p], 50), mpmath.nstr(reference.errors[p], 5))
            assert ball.overlaps(value), (name, p)


def test_exp_matches_its_closed_form():
    """μ_p(e^x) = e^{1/2}/√p! (Gaussian generating function)."""
    coeffs = certified_hermite_coefficients("expr:exp(x)", 12, 30)
    for p, ball in enumerate(coeffs.balls):
        assert ball.contains(exact_ball(sympy.exp(sympy.Rational(1, 2)) / sympy.sqrt(sympy.factorial(p)), 30))


@pytest.mark.parametrize("name, fragment", [
    ("expr:exp(x**2/5)", "no provable growth bound"),  # square-integrable, but exp of a quadratic
    ("expr:cos(x)*exp(x**2/5)", "no provable growth bound"),
])
def test_uncertifiable_activation_raises(name, fragment):
    with pytest.raises(CertificationError, match=fragment):
        certified_hermite_coefficients(name, 4, 20)
    assert issubclass(CertificationError, VerifyInputError)


def test_exact_method_without_closed_form_raises():
    with pytest.raises(CertificationError, match="no exact Hermite"):
        certified_hermite_coefficients("tanh", 4, 20, method="exact")


def test_cached_balls_contain_the_computed_ones():
    first = certified_hermite_coefficients("sigmoid", 6, 20, use_cache=False)
    certified_hermite_coefficients("sigmoid", 6, 20)  # writes the cache
    again = certified_hermite_coefficients("sigmoid", 6, 20)  # reads it
    assert all(b.contains(a) for a, b in zip(first.balls, again.balls, strict=True))


# --- the layers ----------------------------------------------------------------------


def test_payload_and_printed_balls_contain_the_ball():
    with working_precision(40):
        for x in (arb(2).sqrt(), -arb.pi() / 7 * arb("1e-30"), arb("0.5 +/- 1e-3"), arb(0)):
            assert from_payload(to_payload(x, 40)).contains(x)
            mid, rad = format_ball(x, 30).strip("[]").split(" ± ")
            assert arb(mid, rad).contains(x)
            assert quantized(x, 43).contains(x)


@pytest.mark.parametrize("text, side", [
    ("exp(x)", 1), ("log(1+exp(x))", 1), ("log(1+exp(x))", -1), ("1/(1+exp(-x))", -1),
    ("x*(1+erf(x/sqrt(2)))/2", -1), ("sqrt(1+x**2)*tanh(x)", 1), ("cosh(x/2) + asinh(x)**3", -1),
    ("2**x*atan(x)", 1), ("x**3 - 5*x + sin(x)*x**2", -1), ("exp(-x**2)*x**5 + 1/(2+cos(x))", 1),
])
def test_growth_majorant_bounds_the_function(text, side):
    """|σ(side·t)| ≤ M(t) at sample points t ≥ R: never certainly violated in ball arithmetic
    (equality, as for exp(x) ≤ e^t, leaves overlapping balls)."""
    x = sympy.Symbol("x", real=True)
    expr = sympy.sympify(text, locals={"x": x})  # test input, not user input
    cutoff = 2
    majorant = tail_majorant(expr, x, side, cutoff)
    with working_precision(30):
        f = compile_expression(expr, x, RealBackend())
        for t in (2, 2.5, 3, 5, 8, 13, 21, 34):
            bound = sum((arb(c.numerator) / c.denominator * arb(t) ** n * (arb(b.numerator) / b.denominator
                         * t).exp() for (n, b), c in majorant.terms.items()), arb(0))
            assert not abs(f(arb(side * t))) > bound, (text, t)


def test_tail_moments_match_mpmath():
    """I(m, b; R) = ∫_R^∞ t^m e^{bt} φ(t) dt from the closed recursion, against mpmath.quad."""
    moments = TailMoments(3)
    with working_precision(30):
        for m, b in ((0, Fraction(0)), (5, Fraction(0)), (3, Fraction(1)), (2, Fraction(1, 2))):
            value = moments.moment(m, b)
            with mpmath.workdps(40):
                rate = mpmath.mpf(b.numerator) / b.denominator
                ref = mpmath.quad(lambda t, m=m, rate=rate: t**m * mpmath.exp(rate * t) * mpmath.npdf(t),
                                  [3, mpmath.inf])
            assert value.overlaps(arb(mpmath.nstr(ref, 35), "1e-32")), (m, b)


def test_branch_cut_functions_refuse_non_analytic_balls():
    """acb.integral's contract: with analytic=True a ball meeting a branch cut gives a
    non-finite value (python-flint's atan would return a finite, wrong-branch enclosure)."""
    x = sympy.Symbol("x", real=True)
    with ctx.workprec(64):
        crossing = acb(arb(0, 0.5), arb(0, 2))  # meets the cut i·[1, ∞) of atan and asinh
        for expr in (sympy.atan(x), sympy.asinh(x), sympy.log(x), sympy.sqrt(x), x ** sympy.Rational(1, 3)):
            f = compile_expression(expr, x, ComplexBackend())
            assert not f(crossing, True).is_finite(), expr
            assert f(acb(arb(2)), True).is_finite(), expr
    with pytest.raises(CertificationError, match="asin"):  # cut on the real axis: real balls only
        compile_expression(sympy.asin(x), x, ComplexBackend())


def test_pieces_resolve_nested_switches():
    act = get_activation("expr:Abs(Abs(x)-1)")
    with working_precision(20):
        pieces = smooth_pieces(act)
    x = act.x
    assert [p.expr for p in pieces] == [-x - 1, x + 1, 1 - x, x - 1]


def test_precision_is_scoped():
    before = ctx.prec
    certified_hermite_coefficients("relu", 3, 40, use_cache=False)
    assert ctx.prec == before


# --- command line -------------------------------------------------------------------


def test_cli_prints_balls():
    result = run_verify("hermite", "relu", "--terms", "3", "--dps", "20", "--certified")
    assert result.returncode == 0, result.stderr
    assert "[0.3989422804014326779399" in result.stdout and "±" in result.stdout


def test_cli_refuses_in_one_line():
    result = run_verify("hermite", "expr:exp(x**2/5)", "--terms", "3", "--certified")
    assert_one_line_usage_error(result, "no provable growth bound")


@pytest.mark.slow
@pytest.mark.parametrize("name", QUADRATURE)
def test_quadrature_contains_an_80_digit_reference(name):
    """Raw certified integrals (not rounded to dps + 3 places), per degree and from the shared nodes,
    against verify.model.hermite at 80 digits."""
    from verify.certified.gaussian import GaussianIntegrator, PiecewiseIntegrand

    act = get_activation(name)
    reference = hermite_coefficients(name, TERMS, 80, method="quadrature")
    with working_precision(DPS):
        integrator = GaussianIntegrator(PiecewiseIntegrand(smooth_pieces(act), act.x), DPS, TERMS - 1)
        shared = integrator.integrals()  # the shared Gauss–Legendre nodes, as the default route
        assert integrator.route == "shared nodes"
        for p in range(TERMS):
            value = arb(mpmath.nstr(reference.values[p], 95))
            assert integrator.integral(p).contains(value), (name, p)
            assert shared[p].contains(value), (name, p)


@pytest.mark.slow
@pytest.mark.parametrize("name", [f"he{p}" for p in range(1, 9)] + ["expr:Max(x,0)**3", "expr:x*Abs(x)"])
def test_exact_route_at_100_digits(name):
    coeffs = certified_hermite_coefficients(name, 60, 100)
    exact = exact_coefficients(get_activation(name), 60)
    for ball, value in zip(coeffs.balls, exact, strict=True):
        assert ball.contains(exact_ball(value, 100))


@pytest.mark.extended
@pytest.mark.parametrize("p", (105, 110, 120))
def test_high_degrees_reach_their_radius_and_contain_the_exact_value(p):
    """Degrees above 100 at 30 digits (proposition-4 under --full needs p up to ~110 for sigmoid):
    the He_p recurrence has integer constants, so the retry at higher precision can shrink every
    radius; the normalised recurrence's √q balls had left sigmoid at 1.4e-33 > 1e-33 for p = 110.
    relu's exact μ_p checks the quadrature route itself at these degrees; sigmoid must reach
    the radius target."""
    from verify.certified.gaussian import GaussianIntegrator, PiecewiseIntegrand

    with working_precision(30):
        for name in ("relu", "sigmoid"):
            act = get_activation(name)
            integrator = GaussianIntegrator(PiecewiseIntegrand(smooth_pieces(act), act.x), 30, p)
            ball = integrator.integral(p)
            assert ball.rad() <= arb(10) ** -33, (name, p)
            if name == "relu":
                assert ball.contains(exact_ball(exact_coefficients(act, p + 1)[p], 30)), p


def test_a_growth_bound_past_the_float_range_is_described_not_raised():
    # e^{2000 tanh x} <= e^{2000}: describing that bound for the "tails too large" message called
    # float() on it and raised OverflowError (a traceback from `verify claim`)
    from verify.certified.growth import Majorant

    huge, tiny = Fraction(10**900), Fraction(1, 10**700)
    text = Majorant({(0, Fraction(0)): huge, (2, Fraction(3, 2)): tiny}).describe()
    assert "1.0e+900" in text and "1.0e-700*|x|^2*exp(1.5|x|)" in text
    result = run_verify("claim", "Eg(exp(2000*tanh(g))) < 10**99")
    assert result.returncode == 3 and "Traceback" not in result.stderr  # 3: inconclusive
    assert "inconclusive" in result.stdout
