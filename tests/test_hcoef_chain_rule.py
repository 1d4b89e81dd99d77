"""The exact hcoef(l) (the coefficient of m^l in h) by the chain rule through K^(l+1), against the
definition: the l-th derivative of the exact h(m) at m = 0, divided by l!."""

from __future__ import annotations

import pytest
import sympy

from verify.claims.configurations import settings
from verify.claims.quantities import Quantities
from verify.claims.spec import build_spec
from verify.model.activations import get_activation
from verify.model.arithmetic import EXACT


@pytest.mark.parametrize("family", ["orthonormal", "separated"])
@pytest.mark.parametrize("activation", ["relu", "erf", "expr:x**3 + x**2"])
def test_hcoef_is_the_taylor_coefficient_of_h(family, activation):
    spec = build_spec("hcoef(1) >= 0", family=family, activation=activation,
                      for_=["k = 3", "xi = 2"], seeds="0")
    t = sympy.Dummy("t", real=True)
    for setting in settings(spec):
        quantities = Quantities(setting.model, get_activation(setting.activation), EXACT)
        h = quantities.h(t, setting.xi)
        for order in (1, 2, 3):
            by_definition = sympy.diff(h, t, order).subs(t, 0) / sympy.factorial(order)
            assert sympy.simplify(quantities.hcoef(order, setting.xi) - by_definition) == 0
