"""verify.base.limits: SymPy's limit only where it is proved (no oscillating function of an
unbounded argument)."""

import sympy

from sympy.calculus.accumulationbounds import AccumBounds

from verify.base.limits import in_hardy_class, limit_or_enclosure, proved_limit

g, t = sympy.symbols("g t", real=True)


def test_a_wrong_sympy_limit_is_refused():
    # SymPy says 0; the expression is g**2 exp(g**2/2) at every g = pi/2 + n pi
    expr = g**2 * sympy.exp(-g**2 / 2) / (sympy.exp(-g**2) + sympy.cos(g) ** 2)
    assert proved_limit(expr, g, sympy.oo) is None
    assert not in_hardy_class(expr, g, sympy.oo)


def test_hardy_field_limits_are_answered():
    assert proved_limit(g**2 * sympy.exp(-g**2 / 2), g, sympy.oo) == 0
    assert proved_limit(sympy.log(g) / g, g, sympy.oo) == 0
    assert proved_limit(sympy.sin(t) / t, t, 0, "+") == 1  # sin of a bounded argument


def test_bounded_arguments_are_allowed_and_unbounded_ones_denied():
    assert in_hardy_class(sympy.cos(1 / g) * g, g, sympy.oo)  # 1/g -> 0
    assert not in_hardy_class(sympy.sin(1 / t), t, 0, "+")  # 1/t -> oo
    assert not in_hardy_class(sympy.cos(sympy.cos(g)), g, sympy.oo)  # bounded, but no limit proved
    assert not in_hardy_class(sympy.floor(g) - g, g, sympy.oo)
    assert in_hardy_class(sympy.cos(2) * g, g, sympy.oo)  # a constant: not a function of g


def test_a_growing_power_of_a_negative_number_is_not_in_the_class():
    k = sympy.Symbol("k", positive=True)
    assert not in_hardy_class(k * (-1) ** (k**2), k, sympy.oo)
    assert not in_hardy_class((-2) ** k / 3**k, k, sympy.oo)
    assert in_hardy_class(2**k / 3**k, k, sympy.oo)


def test_outside_the_class_only_an_enclosure_is_read():
    k = sympy.Symbol("k", positive=True)
    # SymPy's 0 for this one is wrong (module docstring of verify.base.limits): no answer
    assert limit_or_enclosure(k**2 * sympy.exp(-k**2 / 2) / (sympy.exp(-k**2) + sympy.cos(k) ** 2),
                              k, sympy.oo) is None
    assert limit_or_enclosure(2 + sympy.sin(k), k, sympy.oo) == AccumBounds(1, 3)
    assert limit_or_enclosure(sympy.sin(k) / k, k, sympy.oo) is None  # a number, not an enclosure
    assert limit_or_enclosure(1 / k, k, sympy.oo) == 0  # in the class: the limit itself
