r"""The second stage of ``verify claim``: a :class:`~verify.claims.spec.ClaimSpec` → its configurations.

A *configuration* fixes everything discrete: the family, the activation, the instance seed,
the integer variables (k, d, …), listed values and bindings.  What stays free are the real
ranges (the *box*): a universal claim must hold at every point of it.  Configurations are
ordered simplest first (small k, then the others in the order declared, then the seed), so the
first one that fails is the smallest counterexample the ranges contain.  The growth variable of
an asymptotic claim takes GROWTH_POINTS values (log-spaced); an instance parameter of a
probability claim that ranges continuously takes GRID_OUTER grid points.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import mpmath
import numpy as np
import sympy

from verify.base.expressions import plain_number, substituted_unevaluated, visibly_complex
from verify.claims.evaluate import check_sum_sizes
from verify.claims.language import INSTANCE_PARAMETERS, scalar_symbol
from verify.claims.model import Model, default_dimension, draw
from verify.claims.quantifiers import Quantifier, QuantifierError, check_parameter, spread
from verify.claims.spec import DEFAULT_K, DEFAULT_XI, MAX_CONFIGURATIONS, ClaimSpec

#: Values of the growth variable in a fit (quick / --full).
GROWTH_POINTS = (6, 10)
#: Grid points of an instance parameter that ranges continuously in a probability claim.
GRID_OUTER = 5


def growth_points(q, full: bool) -> list:
    """Log-spaced values of a real growth variable, as exact decimals with 3 significant digits."""
    values = np.geomspace(float(q.low), float(q.high), GROWTH_POINTS[full])
    return list(dict.fromkeys(sympy.Rational(f"{v:.3g}") for v in values))


def integer_growth_points(q, full: bool) -> list:
    """Spread integer values of an integer growth variable, both ends included."""
    return [sympy.Integer(v) for v in spread(int(q.low), int(q.high), GROWTH_POINTS[full])]


@dataclass(frozen=True)
class Setting:
    """One configuration: discrete ``values`` (symbol -> exact number, bindings included), the box of
    continuous variables, and the instance it fixes (``model`` is None for claims without one)."""

    family: str | None
    activation: str | None
    seed: int | None
    values: dict
    box: dict
    model: Model | None
    xi: object  # the exact ξ, or its symbol when ξ ranges over the box

    def describe(self) -> dict:
        out: dict = {}
        if self.family is not None:
            out["family"] = self.family
        if self.activation is not None:
            out["activation"] = self.activation
        if self.model is not None:
            out.update(k=self.model.k, d=self.model.d, seed=self.seed)
            if not isinstance(self.xi, sympy.Symbol):
                out["xi"] = str(self.xi)
        for symbol, value in self.values.items():
            if symbol.name not in out and value.is_number:
                out[symbol.name] = str(value)
        return out


def discrete_points(q: Quantifier, spec: ClaimSpec) -> list | None:
    """The values a quantifier takes as a configuration, or None when it stays a continuous box variable."""

    if q.kind == "binding":
        return None
    if q.name == spec.growth and q.kind != "values":
        return integer_growth_points(q, spec.full) if q.kind == "integer" else growth_points(q, spec.full)
    if q.kind != "real" or not q.continuous:
        return q.points()
    if spec.mode == "universal" or q.name not in INSTANCE_PARAMETERS:
        return None
    return [q.low + (q.high - q.low) * sympy.Rational(i, GRID_OUTER - 1) for i in range(GRID_OUTER)]


def settings(spec: ClaimSpec) -> list[Setting]:
    """All configurations of ``spec``, simplest first, their instances drawn."""
    discrete = [(q, discrete_points(q, spec)) for q in spec.quantifiers]
    axes = [(q, pts) for q, pts in discrete if pts is not None]
    box_quantifiers = [q for q, pts in discrete if pts is None and q.kind == "real"]
    total = len(spec.families) * len(spec.activations) * len(spec.seeds)
    for _, pts in axes:
        total *= len(pts)
    if total > MAX_CONFIGURATIONS:
        raise QuantifierError(
            f"the ranges give {total} configurations, more than the limit of {MAX_CONFIGURATIONS}; "
            "narrow them (or list values with --for 'k in {4, 16, 64}')"
        )
    models: dict = {}
    out = []
    for family, activation, combo, seed in itertools.product(
        spec.families, spec.activations, itertools.product(*[pts for _, pts in axes]), spec.seeds
    ):
        values = {q.symbol: v for (q, _), v in zip(axes, combo, strict=True)}
        values = with_bindings(spec, values)
        _real_where_given(spec, values)
        box = {q.symbol: (q.low, q.high) for q in box_quantifiers}
        out.append(_setting(spec, family, activation, seed if family else None, values, box, models))
        if family is None and seed != spec.seeds[0]:
            out.pop()  # without an instance the seed changes nothing
    out.sort(key=lambda s: _simplicity(spec, s))
    return out


def _simplicity(spec: ClaimSpec, s: Setting) -> tuple:
    """Small k first, then the other discrete values in the order declared, then activation, family, seed."""
    numbers = [
        float(s.values[q.symbol]) if q.symbol in s.values and s.values[q.symbol].is_number else 0.0
        for q in spec.quantifiers
        if q.name != "k"
    ]
    return (
        s.model.k if s.model else 0,
        *numbers,
        spec.families.index(s.family),
        spec.activations.index(s.activation),
        s.seed or 0,
    )


def with_bindings(spec: ClaimSpec, values: dict) -> dict:
    """``values`` with each binding's value, in the order the bindings were given (one may use
    another); a variable ``values`` leaves free stays free in a binding's expression."""
    values = dict(values)
    for q in spec.quantifiers:
        if q.kind == "binding":
            value = q.expression.xreplace(values)
            values[q.symbol] = value  # exact: the binding's text was parsed to rationals
    return values


def _real_where_given(spec: ClaimSpec, values: dict) -> None:
    """Refuse a configuration whose values make a constant part of the claim complex: cbrt(a) or
    sqrt(a) at a = -2 (the parser refuses such a constant typed in; through a value it reached the
    float64 search as a complex number, a TypeError traceback).  Only the parts that the values
    make constant are evaluated, to 15 digits; a quantity of the model (h, K, Eg, ...) is left to
    its own domain checks."""
    given = {s for s, v in values.items() if v.is_number}
    if not given:
        return
    for side in (spec.claim.lhs, spec.claim.rhs):
        for node in sympy.preorder_traversal(side):
            symbols = node.free_symbols
            if not symbols or not symbols <= given or not isinstance(node, sympy.Pow | sympy.Function) \
                    or node.has(sympy.core.function.AppliedUndef):
                continue
            # a value that is not a plain finite number is left to the later steps' own reasons;
            # unevaluated, as only 15 digits are read (factorial(n)/factorial(n - 1) over
            # n in 0..10**6 took 6 CPU minutes here, computing each factorial exactly)
            number = plain_number(substituted_unevaluated(node, values))
            if number is not None and visibly_complex(number):
                where = ", ".join(f"{s} = {values[s]}" for s in sorted(symbols, key=str))
                raise QuantifierError(f"claim: {node} is not real at {where} (about "
                                      f"{mpmath.nstr(number, 3)}); every value of the claim must be real")


def _instance_value(spec: ClaimSpec, name: str, values: dict, default):
    symbol = scalar_symbol(name)
    q = spec.quantifier(name)
    if q is None:
        return default
    value = values.get(q.symbol)
    if value is None:
        return symbol if q.kind == "real" else default
    if not value.is_number:
        raise QuantifierError(f"--for {q.text!r}: {name} must not depend on a continuous variable")

    check_parameter(name, [value], f"--for {q.text!r}")
    return value


def _setting(spec: ClaimSpec, family, activation, seed, values, box, models) -> Setting:
    xi = _instance_value(spec, "xi", values, sympy.Integer(DEFAULT_XI))
    if family is None:
        return Setting(None, activation, None, values, box, None, xi)
    k = int(_instance_value(spec, "k", values, sympy.Integer(DEFAULT_K)))
    d = int(_instance_value(spec, "d", values, sympy.Integer(default_dimension(family, k))))
    key = (family, activation, k, d, seed)
    if spec.claim.order is None:  # an order claim may sum to k symbolically (growing sums)
        check_sum_sizes((spec.claim.lhs, spec.claim.rhs), values | {scalar_symbol("k"): sympy.Integer(k),
                                                                    scalar_symbol("d"): sympy.Integer(d)})
    if key not in models:
        models[key] = draw(family, activation, k, d, seed, spec.lam)
    values = values | {scalar_symbol("k"): sympy.Integer(k), scalar_symbol("d"): sympy.Integer(d)}
    if not isinstance(xi, sympy.Symbol):
        values[scalar_symbol("xi")] = xi
    return Setting(family, activation, seed, values, box, models[key], xi)
