"""One set of numbers: the float64, mpmath, ball and SymPy evaluations of h(m) read the same
instance numbers and agree, each within the bound it reports (issue: `verify h --dps 50` claimed 1e-55
but differed from the certified ball by 1e-17, the two paths reading different Gram diagonals).

Twenty instances (orthonormal, claim2 and glm families, k = 1..7, relu and abs, whose kernels
have closed forms so that SymPy's value is exact) at m = 1/4 and ξ = 1/2.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy

from verify.certified.balls import BALLS, working_precision
from verify.claims.model import draw
from verify.claims.quantities import BALL_DPS, Quantities
from verify.model import population
from verify.model.activations import get_activation
from verify.model.arithmetic import EXACT

FAMILIES = (("orthonormal", "relu"), ("claim2", "abs"), ("glm", "relu"))
CASES = [(family, k, seed, act) for family, act in FAMILIES
         for k, seed in ((1, 0), (2, 1), (3, 2), (4, 3), (5, 4), (7, 5), (6, 6))][:20]
M, XI = sympy.Rational(1, 4), sympy.Rational(1, 2)
#: float64 closed form: k² terms of size <= 1 each rounded at 1e-16, with margin.
FLOAT_TOLERANCE = 1e-13


@pytest.mark.parametrize("family, k, seed, act", CASES)
def test_four_arithmetics_agree_within_their_bounds(family, k, seed, act):
    d = 1 + k * (k + 1) // 2 if family == "claim2" else 2 * k + 2
    model = draw(family, act, k, d, seed, "1/k")
    activation = get_activation(act)
    exact = Quantities(model, activation, EXACT).h(M, XI)
    assert not exact.atoms(sympy.Float), "the exact value must hold no float"
    with working_precision(BALL_DPS):
        from flint import arb

        ball = Quantities(model, activation, BALLS).h(arb(1) / 4, arb(1) / 2)
        mid_text, rad_text = ball.mid().str(40, radius=False), ball.rad().str(5, radius=False)
    with mpmath.workdps(60):
        reference = mpmath.mpf(str(sympy.N(exact, 60)))
        mid, rad = mpmath.mpf(mid_text), mpmath.mpf(rad_text)
        assert abs(reference - mid) <= rad + mpmath.mpf(10) ** -38, f"ball {ball} misses {reference}"
    # The float view of the same exact numbers (c = ±1/√k, λ = 1/k and Claim 2's G rounded once).
    instance = model.instance(0.5)
    assert abs(float(population.h(instance, [0.25])[0]) - float(reference)) <= FLOAT_TOLERANCE
    # `verify h --dps` and `verify h --certified` on that float instance read its doubles, both of
    # them with G_ii = 1 exactly: the mpmath value lies within its bound of the certified ball.
    from verify.certified.population import certified_population

    population_balls = certified_population(instance, 40)
    with working_precision(40):
        from flint import arb

        certified = population_balls.h(arb(1) / 4)
        mid_text, rad_text = certified.mid().str(45, radius=False), certified.rad().str(5, radius=False)
    with mpmath.workdps(60):
        precise, bound = population.h_precise(instance, "0.25", 40)
        gap = abs(precise - mpmath.mpf(mid_text))
        assert gap <= bound + mpmath.mpf(rad_text), f"mpmath {precise} +/- {bound} vs ball {certified}"
