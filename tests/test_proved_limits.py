"""verify.base.limits: SymPy's limit only where it is proved (no oscillating function of an
unbounded argument)."""

import sympy

from verify.base.limits import in_hardy_class, proved_limit

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
