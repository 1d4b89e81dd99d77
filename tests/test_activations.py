"""The activation registry: NumPy, SymPy and mpmath twins agree; bad input is rejected."""

from __future__ import annotations

import numpy as np
import pytest
import sympy
from hypothesis import given

from tests.strategies import kinked_expressions, polynomial_expressions, registry_activations
from verify.base.errors import (
    MalformedExpressionError,
    NotSquareIntegrableError,
    UnknownActivationError,
    VerifyInputError,
)
from verify.model.activations import builtin_names, get_activation
from verify.testing import assert_mpmath_equal

# Domain: |x| ≤ 8 covers all but 1e-15 of the Gaussian mass; the points avoid
# the kink at 0 for the derivative (σ'(0) is a convention on a null set).
DOMAIN = np.concatenate([np.linspace(-8, 8, 161), [-30.0, -1e-3, 1e-3, 30.0]])
DOMAIN = DOMAIN[DOMAIN != 0]

#: Hermite polynomials near |x| = 30 have values ~1e8 that cancel; compare
#: them with an absolute tolerance relative to that scale.
HERMITE_ATOL = 1e-6
#: The mpmath twins are accurate in absolute terms (what quadrature needs):
#: e.g. gelu = x(1 + erf(x/√2))/2 cancels to 0 at x = −30 in 40 digits.
REFERENCE_ATOL = 1e-30


@pytest.mark.parametrize("name", builtin_names())
def test_numpy_twin_matches_mpmath(name):
    act = get_activation(name)
    atol = HERMITE_ATOL if name.startswith("he") else REFERENCE_ATOL
    assert_mpmath_equal(act, act.mpmath_function, DOMAIN, atol=atol)


@pytest.mark.parametrize("name", builtin_names())
def test_numpy_derivative_matches_sympy_derivative(name):
    act = get_activation(name)
    atol = HERMITE_ATOL if name.startswith("he") else REFERENCE_ATOL
    assert_mpmath_equal(act.derivative, act.mpmath_derivative, DOMAIN, atol=atol)


def test_stable_where_the_naive_formula_overflows():
    x = np.array([-1000.0, 1000.0])
    with np.errstate(over="raise", invalid="raise"):
        np.testing.assert_allclose(get_activation("softplus")(x), [0.0, 1000.0])
        np.testing.assert_allclose(get_activation("sigmoid")(x), [0.0, 1.0])


@pytest.mark.parametrize("name, kinks", [("relu", [0]), ("abs", [0]), ("sigmoid", []),
                                         ("expr:Max(x - 1, 0) + Abs(x + 2)", [-2, 1])])
def test_kinks_are_located(name, kinks):
    assert list(get_activation(name).kinks) == kinks


@pytest.mark.extended
@given(polynomial_expressions)
def test_expression_activations_evaluate_like_sympy(name):
    act = get_activation(name)
    x = sympy.Symbol("x", real=True)
    expected = [float(act.expr.subs(x, t)) for t in (-1.5, 0.25, 2.0)]
    np.testing.assert_allclose(act(np.array([-1.5, 0.25, 2.0])), expected, rtol=1e-12, atol=1e-12)


@given(registry_activations)
def test_output_shape_follows_input(name):
    act = get_activation(name)
    x = np.zeros((3, 2))
    assert act(x).shape == (3, 2)
    assert act.derivative(x).shape == (3, 2)


@pytest.mark.extended
@given(kinked_expressions)
def test_kinked_expressions_have_a_kink_at_zero(name):
    assert list(get_activation(name).kinks) == [0]


@pytest.mark.parametrize(
    "name, error",
    [
        ("swish", UnknownActivationError),
        ("expr:", MalformedExpressionError),
        ("expr:x+", MalformedExpressionError),
        ("expr:x*y", MalformedExpressionError),
        ("expr:exp(x**2)", NotSquareIntegrableError),
        ("expr:exp(x**2/4)", NotSquareIntegrableError),
        ("expr:1/x", NotSquareIntegrableError),
        ("expr:sqrt(x)", VerifyInputError),
    ],
)
def test_bad_activations_raise_specific_errors(name, error):
    with pytest.raises(error) as info:
        get_activation(name)
    message = str(info.value)
    assert "\n" not in message
    assert isinstance(info.value, ValueError)


def test_square_integrable_growth_is_accepted():
    # e^{x²/8}: σ² φ ~ e^{-x²/4} is integrable.
    assert get_activation("expr:exp(x**2/8)").name == "expr:exp(x**2/8)"
