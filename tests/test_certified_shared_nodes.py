"""Certified Hermite coefficients through one Gauss–Legendre subdivision shared by every degree
(verify.certified.shared_nodes, the default quadrature route of verify.certified.hermite).

References: 50-digit mpmath values (verify.model.hermite's reused-node quadrature, and in the
extended tier one mpmath.quad of σ h_p φ per p), the previous certified route (one acb.integral
per p), and exact sums.  A reference enters a ball as the exact decimal of its printed digits, far
more of them than the ball's radius resolves.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy
from flint import acb, arb, ctx, fmpq
from hypothesis import example, given
from hypothesis import strategies as st

from tests.strategies import quadrature_only_activations
from verify.bench.hermite_bench import baseline_coefficients
from verify.certified.balls import working_precision
from verify.certified.compile import ComplexBackend, compile_expression, constant
from verify.certified.gaussian import GaussianIntegrator, PiecewiseIntegrand
from verify.certified.hermite import certified_hermite_coefficients
from verify.certified.pieces import smooth_pieces
from verify.certified.shared_nodes import ellipse_bound, gauss_legendre, shared_integrals
from verify.model.activations import get_activation
from verify.model.hermite import hermite_coefficients

SMOOTH = ("sigmoid", "tanh", "erf", "gelu", "softplus")
TERMS = 31  # p = 0 … 30
DPS = 40
REFERENCE_DPS = 50


def as_ball(value) -> arb:
    """An mpmath number as the exact decimal of its 70 printed digits (inside working_precision)."""
    return arb(mpmath.nstr(value, 70))


def certified(name, terms=TERMS, dps=DPS):
    return certified_hermite_coefficients(name, terms, dps, method="quadrature", use_cache=False)


@pytest.mark.parametrize("name", SMOOTH)
def test_balls_contain_the_50_digit_mpmath_values(name):
    """Every ball for p ≤ 30 at 40 digits contains the 50-digit value of verify.model.hermite
    (mpmath tanh-sinh; its error estimate ~1e-63 is far below the radius 1e-43)."""
    coefficients = certified(name)
    assert coefficients.route == "shared nodes"
    reference = hermite_coefficients(name, TERMS, REFERENCE_DPS, method="quadrature", progress=False)
    with working_precision(REFERENCE_DPS):
        for p, ball in enumerate(coefficients.balls):
            assert ball.contains(as_ball(reference.values[p])), (name, p, ball)
            assert ball.rad() <= 2 * arb(10) ** -(DPS + 3), (name, p)


@pytest.mark.extended
@pytest.mark.parametrize("name", SMOOTH)
def test_balls_contain_one_mpmath_quad_per_degree(name):
    """The same balls against an independent reference: one mpmath.quad of σ h_p φ per p at 50
    digits (hermite_bench's baseline, about 25 s an activation)."""
    coefficients = certified(name)
    reference = baseline_coefficients(get_activation(name), TERMS, REFERENCE_DPS)
    with working_precision(REFERENCE_DPS):
        for p, ball in enumerate(coefficients.balls):
            assert ball.contains(as_ball(reference[p])), (name, p, ball)


@pytest.mark.parametrize("name", SMOOTH)
def test_balls_overlap_the_per_degree_route(name):
    """Both routes certify the same numbers: every shared-node ball meets the per-degree one."""
    terms, dps = 20, 30
    coefficients = certified(name, terms, dps)
    act = get_activation(name)
    with working_precision(dps):
        integrator = GaussianIntegrator(PiecewiseIntegrand(smooth_pieces(act), act.x), dps, terms - 1)
        for p, ball in enumerate(coefficients.balls):
            assert ball.overlaps(integrator.integral(p)), (name, p)


def _evaluator(text):
    x = sympy.Symbol("x", real=True)
    return compile_expression(sympy.sympify(text, locals={"x": x}), x, ComplexBackend())


@pytest.mark.parametrize("text, pole", [("1/(1 + x**2)", 1), ("tanh(x)", sympy.pi / 2),
                                        ("1/(1 + exp(-x))", sympy.pi)])
def test_an_ellipse_around_a_pole_gives_no_bound(text, pole):
    """An ellipse about [−1, 1] whose half-height b = (ρ − 1/ρ)/2 passes the pole at i·pole gets
    no bound (None), whatever its size; one that stays below it gets a finite M that bounds
    |F h_p φ| at points of the ellipse."""
    f = _evaluator(text)
    with working_precision(20):
        for rho in (Fraction(16), Fraction(8), Fraction(5), Fraction(4)):
            if (rho - 1 / rho) / 2 > float(pole):
                assert ellipse_bound(f, Fraction(0), Fraction(1), rho, 12) is None, (text, rho)
        rho = Fraction(6, 5)  # b = 0.18
        bound = ellipse_bound(f, Fraction(0), Fraction(1), rho, 12)
        assert bound is not None and bound.is_finite()
        q = arb(fmpq(rho.numerator, rho.denominator))
        for k in range(16):
            theta = 2 * arb.pi() * k / 16
            w = acb(theta.cos(), theta.sin()) * q
            z = (w + 1 / w) / 2  # a point of the ellipse
            for p in range(12):
                scale = (arb.fac_ui(p) * 2 * arb.pi()).sqrt()
                value = abs(f(z) * _hermite(p, z) * (-z * z / 2).exp()) / scale
                assert not value > bound, (text, p, k)


def _hermite(p, z):
    previous, current = acb(0), acb(1)
    for q in range(p):
        previous, current = current, z * current - q * previous
    return current


def test_a_pole_next_to_the_real_line_falls_back_to_the_per_degree_route():
    """1/(1 + 10⁶x²) has poles at ±i/1000: no shared subdivision is certified (every ellipse
    about 0 meets them), the coefficients come from one acb.integral per p, and they still
    contain mpmath's values (split at the peak)."""
    name = "expr:1/(1+10**6*x**2)"
    coefficients = certified(name, 4, 15)
    assert coefficients.route == "per degree"
    act = get_activation(name)
    with working_precision(20):
        pieces = PiecewiseIntegrand(smooth_pieces(act), act.x)
        integrator = GaussianIntegrator(pieces, 15, 3)
        assert shared_integrals(integrator.evaluators, [(arb(-10), arb(10))], 4, arb("1e-18")) is None
    f = act.mpmath_function
    with mpmath.workdps(40):
        points = [-30, -1, -0.01, -0.001, 0, 0.001, 0.01, 1, 30]
        for p, ball in enumerate(coefficients.balls):
            scale = 2 ** (-mpmath.mpf(p) / 2) / mpmath.sqrt(mpmath.factorial(p))
            value = mpmath.quad(lambda x, p=p, scale=scale: f(x) * mpmath.hermite(p, x / mpmath.sqrt(2))
                                * scale * mpmath.npdf(x), points)
            with working_precision(20):
                assert ball.contains(as_ball(value)), (p, ball, value)


def test_a_branch_point_at_a_kink_falls_back():
    """sqrt(|x|): the piece √x has its branch point at the kink 0, no ellipse about a
    subinterval ending there is holomorphic, and the per-degree route takes over."""
    assert certified("expr:sqrt(Abs(x))", 4, 15).route == "per degree"


@pytest.mark.parametrize("nodes", (4, 7, 16, 128))
def test_gauss_legendre_rule_is_exact_to_degree_2n_minus_1(nodes):
    with ctx.workprec(200):
        points, weights = gauss_legendre(nodes, 200)
        assert len(points) == nodes
        for degree in (0, 2, 2 * nodes - 2, 2 * nodes - 1):
            total = sum((w * t ** degree for t, w in zip(points, weights, strict=True)), arb(0))
            assert total.overlaps(arb(2) / (degree + 1) if degree % 2 == 0 else arb(0)), (nodes, degree)
            assert total.rad() < arb("1e-50")


@given(name=st.one_of(quadrature_only_activations, st.just("erf")), p=st.integers(0, 30),
       dps=st.integers(15, 45))
@example(name="sigmoid", p=0, dps=15)
@example(name="tanh", p=30, dps=45)
def test_a_coefficient_contains_the_mpmath_value(name, p, dps):
    """μ_p at any precision: the ball contains the mpmath value at dps + 10 digits, with radius
    between 10^-(dps+3) and 2·10^-(dps+3) (the quantized report)."""
    ball = certified(name, p + 1, dps).balls[p]
    reference = hermite_coefficients(name, p + 1, dps + 10, method="quadrature", progress=False)
    with working_precision(dps + 10):
        assert ball.contains(as_ball(reference.values[p]))
        assert arb(10) ** -(dps + 3) <= ball.rad() <= 2 * arb(10) ** -(dps + 3)


@pytest.mark.extended
def test_high_degrees_share_the_nodes_and_reach_their_radius():
    """p up to 120 at 30 digits (proposition 4 under --full needs ~110 for sigmoid): every degree
    from the shared nodes (the Taylor shift's lost digits recovered by the node-wise recurrence
    where needed), radius within the target, relu's balls containing its exact coefficients
    (SymPy's closed forms to p = 120 take about 5 s)."""
    from verify.model.hermite_exact import exact_coefficients

    for name in ("sigmoid", "relu"):
        coefficients = certified(name, 121, 30)
        assert coefficients.route == "shared nodes", (name, coefficients.route)
        assert all(b.rad() <= 2 * arb(10) ** -33 for b in coefficients.balls), name
    exact = exact_coefficients(get_activation("relu"), 121)
    with working_precision(120):
        for p in (0, 1, 2, 50, 104, 110, 120):
            assert coefficients.balls[p].contains(constant(exact[p])), p
