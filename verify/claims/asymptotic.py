r"""Asymptotic claims: ``lhs == O(g)``, ``Theta(g)`` or ``Omega(g)`` as the growth variable grows.

The claim is read as "the ratio |lhs|/|g| stays bounded" (O: above; Omega: away from 0 below;
Theta: both) as the growth variable (``--growth``, or the one ranging variable) tends to
infinity, uniformly over everything else that is quantified: the instance seeds and the inner
continuous variables (the ratio's maximum over them for O, its minimum for Omega).  With
``--prob '>= q over ...'`` the uniformity is in probability: the q-quantile of the per-draw
maximum (O), the (1 − q)-quantile of the per-draw minimum (Omega).

1. **symbolic**, when the ratio has a closed form in the growth variable (no instance whose size
   grows with it): ``sympy.limit`` of the ratio at infinity; a finite positive limit proves all
   three orders, ∞ refutes O and Theta, 0 refutes Omega and Theta.
2. **statistical** otherwise: the ratio at GROWTH_POINTS values of the growth variable (log-spaced
   over its range) and the least-squares slope of log ratio against log growth with a Student-t
   interval at 99.9 % (:func:`verify.checks.tools.fit_exponent`).  The upper ratio growing (the
   whole interval above 0) refutes O; the lower ratio decaying (the interval below 0) refutes
   Omega; otherwise the measurements are ``consistent`` with the order.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import sympy

from verify.checks.core import Basis
from verify.claims.evaluate import exact, prepare, scalars_of
from verify.claims.language import DERIVED_SCALARS, INSTANCE_PARAMETERS
from verify.claims.quantifiers import QuantifierError, spread
from verify.claims.quantities import ExactQuantities, Unavailable
from verify.claims.sampling import GridEvaluator, models
from verify.claims.universal import Decision

#: Values of the growth variable in a fit (quick / --full).
GROWTH_POINTS = (6, 10)
#: Relations that go with each order (O bounds from above, Omega from below).
ORDER_RELATIONS = {"O": ("==", "<=", "<"), "Omega": ("==", ">=", ">"), "Theta": ("==",)}


def growth_points(q, full: bool) -> list:
    """Log-spaced values of a real growth variable, as exact decimals with 3 significant digits."""
    count = GROWTH_POINTS[full]
    values = np.geomspace(float(q.low), float(q.high), count)
    return list(dict.fromkeys(sympy.Rational(f"{v:.3g}") for v in values))


def check_relation(claim) -> None:
    if claim.op not in ORDER_RELATIONS[claim.order]:
        raise QuantifierError(
            f"claim: {claim.order}(...) goes with {' or '.join(ORDER_RELATIONS[claim.order])}, not {claim.op}"
        )


def integer_growth_points(q, full: bool) -> list:
    return [sympy.Integer(v) for v in spread(int(q.low), int(q.high), GROWTH_POINTS[full])]


def decide(spec, settings) -> list[tuple]:
    """One decision per group of configurations that differ only in the growth variable and seed."""
    growth = spec.quantifier(spec.growth)
    symbol = growth.symbol
    groups: dict = defaultdict(list)
    for s in settings:
        key = (
            s.family,
            s.activation,
            tuple(
                sorted(
                    (k.name, str(v))
                    for k, v in s.values.items()
                    if k != symbol and k.name not in INSTANCE_PARAMETERS and _not_binding(spec, k)
                )
            ),
        )
        groups[key].append(s)
    out = []
    for group in groups.values():
        result = _symbolic(spec, group, symbol)
        if result.status == "undecided":
            result = _statistical(spec, group, symbol)
        out.append((group[0], result))
    return out


def _not_binding(spec, symbol) -> bool:
    q = next((q for q in spec.quantifiers if q.symbol == symbol), None)
    return q is None or q.kind != "binding"


def _order_argument(claim):
    return claim.rhs.args[0]


def _symbolic(spec, group, symbol) -> Decision:
    from verify.activations import get_activation

    first = group[0]
    if first.box or spec.probability is not None or (first.model is not None and symbol.name != "xi"):
        return Decision(
            "undecided", None, "symbolic", detail="the ratio has no closed form in the growth variable"
        )
    claim = spec.claim
    values = {s: v for s, v in first.values.items() if s != symbol}
    xi = symbol if symbol.name == "xi" else first.xi
    backend = ExactQuantities(first.model, get_activation(first.activation) if first.activation else None)
    variable = sympy.Symbol(symbol.name, positive=True)
    try:
        sides = []
        for side in (claim.lhs, _order_argument(claim)):
            value = exact(prepare(side, values, xi), backend)
            sides.append(value.xreplace(scalars_of(value, backend, DERIVED_SCALARS)))
    except Unavailable as exc:
        return Decision("undecided", None, "symbolic", detail=str(exc))
    ratio = sympy.simplify(sympy.Abs(sides[0]) / sympy.Abs(sides[1])).subs(symbol, variable)
    if ratio.free_symbols - {variable} or sympy.count_ops(ratio) > 400:
        return Decision(
            "undecided", None, "symbolic", detail="ratio not a closed form in the growth variable"
        )
    limit = sympy.limit(ratio, variable, sympy.oo)
    order = claim.order
    if limit.is_finite is not True and limit != sympy.oo:
        return Decision("undecided", None, "symbolic", detail=f"limit of the ratio: {limit}")
    too_big = limit == sympy.oo and order in ("O", "Theta")
    too_small = limit == 0 and order in ("Omega", "Theta")
    detail = f"|lhs|/|{_order_argument(claim)}| = {ratio} -> {limit} as {symbol.name} -> oo"
    numbers = {"ratio": str(ratio), "limit": str(limit)}
    if too_big or too_small:
        return Decision("fails", Basis.EXACT, "symbolic", point={}, detail=detail, numbers=numbers)
    return Decision("holds", Basis.EXACT, "symbolic", detail=detail, numbers=numbers)


def _statistical(spec, group, symbol) -> Decision:
    from verify.checks.tools import fit_exponent

    claim, prob = spec.claim, spec.probability
    quantile = float(prob.bound) if prob is not None else 1.0
    by_value: dict = defaultdict(lambda: ([], []))
    for setting in group:
        lhs = prepare(claim.lhs, setting.values, setting.xi)
        rhs = prepare(_order_argument(claim), setting.values, setting.xi)
        evaluator = GridEvaluator(setting, setting.activation, lhs, rhs, spec.full)
        draws = models(setting.model, prob.over, spec.draws, spec.seed)[0] if prob else [setting.model]
        uppers, lowers = by_value[setting.values[symbol]]
        for model in draws:
            left, right = evaluator.sides(model)
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = np.abs(left) / np.abs(right)
            ratio = ratio[np.isfinite(ratio)]
            if ratio.size:
                uppers.append(float(ratio.max()))
                lowers.append(float(ratio.min()))
    growth, upper, lower = [], [], []
    for value in sorted(by_value, key=float):
        ups, lows = by_value[value]
        if not ups:
            continue
        growth.append(float(value))
        upper.append(float(np.quantile(ups, quantile)) if prob else max(ups))
        lower.append(float(np.quantile(lows, 1 - quantile)) if prob else min(lows))
    order = claim.order
    numbers: dict = {"growth": spec.growth, "points": growth}
    fails, parts = False, []
    for side, series, bad in (
        ("upper", upper, order in ("O", "Theta")),
        ("lower", lower, order in ("Omega", "Theta")),
    ):
        if not bad:
            continue
        keep = [(g, r) for g, r in zip(growth, series, strict=True) if r > 0]
        if len(keep) < 3:
            return Decision(
                "inconclusive",
                Basis.NONE,
                "statistical",
                numbers=numbers,
                detail=f"fewer than three positive {side} ratios to fit",
            )
        fit = fit_exponent([g for g, _ in keep], [r for _, r in keep])
        numbers[f"{side}_ratios"] = [r for _, r in keep]
        numbers[f"{side}_exponent"] = fit.describe()
        grows, decays = fit.low > 0, fit.high < 0
        wrong = grows if side == "upper" else decays
        fails |= wrong
        trend = "grows" if grows else ("decays" if decays else "is flat within the interval")
        parts.append(f"{side} ratio ~ {spec.growth}^{fit.describe()}: {trend}")
    what = "q-quantile over draws" if prob else "worst case over seeds and inner points"
    detail = (
        f"|lhs|/|{_order_argument(claim)}| ({what}) at {len(growth)} values of {spec.growth}: "
        + "; ".join(parts)
    )
    if fails:
        return Decision("fails", Basis.STATISTICAL, "statistical", point={}, detail=detail, numbers=numbers)
    return Decision("consistent", Basis.STATISTICAL, "statistical", detail=detail, numbers=numbers)
