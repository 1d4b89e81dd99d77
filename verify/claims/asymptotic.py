r"""Asymptotic claims: ``lhs == O(g)``, ``Theta(g)`` or ``Omega(g)`` as the growth variable grows.

The claim is read as "the ratio |lhs|/|g| stays bounded" (O: above; Omega: away from 0 below;
Theta: both) as the growth variable (``--growth``, or the one ranging variable) tends to
infinity, uniformly over everything else that is quantified: the instance seeds and the inner
continuous variables (the ratio's maximum over them for O, its minimum for Omega).  With
``--prob '>= q over ...'`` the uniformity is in probability: the q-quantile of the per-draw
maximum (O), the (1 − q)-quantile of the per-draw minimum (Omega).

1. **symbolic**, when the ratio has a closed form in the growth variable (no instance whose size
   grows with it): the limit of the ratio at infinity where it is proved
   (:func:`verify.base.limits.limit_or_enclosure`: SymPy's in the Hardy class, else only its
   enclosure of the limit points); a finite positive limit proves all three orders, ∞ refutes O and Theta, 0 refutes Omega and Theta.
2. **statistical** otherwise: the ratio at the GROWTH_POINTS values of the growth variable
   (:mod:`verify.claims.configurations`: log-spaced
   over its range) and the least-squares slope of log ratio against log growth with a Student-t
   interval at 99.9 % (:func:`verify.verdict.fit_exponent`), for both the upper and the
   lower ratio; zero ratios are kept and reported, never dropped.  An interval wholly above
   +1/4 refutes O, one wholly below −1/4 refutes Omega (either ratio: lower ≤ upper); the
   measurements are ``consistent`` only when every interval the order constrains lies inside
   (−1/4, 1/4) on its side and none excludes 0 on the violating side, so an exponent off by 1/2
   is never consistent; otherwise the verdict is ``inconclusive``, saying which interval was too
   wide or leaned the wrong way (:func:`judge_exponents`).  Refuting at 0 itself would refute
   true orders whose ratio has curvature (k/(k + 1) has local slopes up to 0.2).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import sympy
from sympy.calculus.accumulationbounds import AccumBounds

from verify.base.budget import BudgetExceededError, guarded
from verify.base.limits import limit_or_enclosure
from verify.claims.configurations import with_bindings
from verify.claims.decision import Decision
from verify.claims.evaluate import ClaimEvaluationError, exact, prepare, scalars_of
from verify.claims.growing_sums import equivalent
from verify.claims.language import DERIVED_SCALARS, INSTANCE_PARAMETERS
from verify.claims.quantities import Quantities, Unavailable
from verify.claims.sampling import FloatRangeError, GridEvaluator, models
from verify.model.activations import get_activation
from verify.model.arithmetic import EXACT
from verify.verdict import Basis, fit_exponent

#: Exponent decisions sit at ± this value, halfway to an exponent off by 1/2 (:func:`judge_exponents`).
DECISION_EXPONENT = 0.25


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
            deterministic = result.detail != _NO_CLOSED_FORM
            result = _statistical(spec, group, symbol)
            if deterministic and result.status in ("consistent", "fails"):
                result = _fit_is_no_evidence(result, spec.growth)
        out.append((group[0], result))
    return out


#: Why the symbolic step does not apply: the ratio depends on drawn instances (a measurement).
_NO_CLOSED_FORM = "the ratio has no closed form in the growth variable"


def _fit_is_no_evidence(fitted: Decision, name: str) -> Decision:
    """A log-log fit of a ratio with no randomness in it decides nothing (issue #48, item 4): a
    slowly varying factor has a local log-slope below any decision edge on a finite range (log log k
    has 1/(log k log log k), 0.075 at k = 1000), so sum 1/(i log(i + 1)) ~ log log k looked O(1),
    and log(k)**10 looked bigger than k**(3/10), which it is not."""
    return Decision("inconclusive", Basis.NONE, "statistical", numbers=fitted.numbers,
                    detail=f"the ratio is a deterministic sequence in {name} that no limit decided; its "
                           f"log-log fit ({fitted.status}: {fitted.detail}) is no evidence of an order, "
                           "since a slowly varying factor (log log) cannot be told apart on a finite range")


def _not_binding(spec, symbol) -> bool:
    q = next((q for q in spec.quantifiers if q.symbol == symbol), None)
    return q is None or q.kind != "binding"


def _ratio_limit(sides, symbol, variable):
    """(|lhs|/|order argument|, its limit at oo, or None when not a closed form); runs guarded."""
    ratio = sympy.simplify(sympy.Abs(sides[0]) / sympy.Abs(sides[1])).subs(symbol, variable)
    if ratio.free_symbols - {variable} or sympy.count_ops(ratio) > 400:
        return ratio, None
    try:
        if ratio.has(sympy.Pow(-1, variable)) or any(
                e.is_Pow and e.base == -1 and (e.exp - variable).is_Integer for e in ratio.atoms(sympy.Pow)):
            return ratio, _limit_along_parities(ratio, variable)
        return ratio, limit_or_enclosure(ratio, variable, sympy.oo)
    except (NotImplementedError, ValueError, TypeError):  # "Result depends on the sign of I"
        return ratio, None


def _limit_along_parities(ratio, variable):
    """The limit of a ratio holding (−1)^(n + c) (the closed form of Σ (−1)^i i): along even and
    along odd n separately, where (−1)^n is 1 or −1; when both limits are ∞, both 0, or both
    finite and positive, the ratio is of that class (the smaller positive one is returned); else
    None (no limit, e.g. one parity tends to 0 and the other does not)."""
    limits = []
    for sign in (1, -1):
        fixed = ratio.replace(lambda e: e.is_Pow and e.base == -1 and (e.exp - variable).is_Integer,
                              lambda e, sign=sign: sign * (-1) ** (e.exp - variable))
        limits.append(limit_or_enclosure(fixed, variable, sympy.oo))
    if any(v is None or v.has(AccumBounds) for v in limits):
        return None  # no limit along a parity: the two are not one class
    if all(v == sympy.oo for v in limits):
        return sympy.oo
    if all(v == 0 for v in limits):
        return sympy.Integer(0)
    if all(v.is_finite and v.is_positive for v in limits):
        return min(limits, key=float)
    return None


def _absolute_bounds(limit):
    """Abs(AccumBounds(a, b)), which SymPy leaves as it is, as the AccumBounds of |x| for x in [a, b]."""
    if not (isinstance(limit, sympy.Abs) and isinstance(limit.args[0], AccumBounds)):
        return limit
    low, high = limit.args[0].min, limit.args[0].max
    if low.is_nonnegative:
        return AccumBounds(low, high)
    if high.is_nonpositive:
        return AccumBounds(-high, -low)
    return AccumBounds(0, sympy.Max(-low, high))


def _oscillating(bounds, order: str, ratio, symbol) -> Decision:
    """A ratio with no limit whose values SymPy encloses in ``bounds`` = AccumBounds(a, b) as the
    variable grows (|sin k|: [0, 1]): O holds when b is finite, Omega when a > 0, Theta when both;
    nothing else is decided (an enclosure of the limit points is not the set of them, so it refutes
    nothing).  Reading AccumBounds(0, 1) as a finite limit made sin(k) == Omega(1) hold."""
    upper = bounds.max.is_finite is True
    lower = bounds.min.is_positive is True
    proved = {"O": upper, "Omega": lower, "Theta": upper and lower}[order]
    detail = (f"|lhs|/|order| = {ratio} has no limit as {symbol.name} -> oo; its values lie in "
              f"{bounds} eventually")
    if proved:
        return Decision("holds", Basis.EXACT, "symbolic", detail=detail, numbers={"ratio": str(ratio)})
    return Decision("undecided", None, "symbolic", detail=detail + f", which does not decide {order}")


def _symbolic_values(spec, first, symbol) -> dict:
    """The group's values for the symbolic limit: the discrete ones of its first configuration, the
    growth variable left free, and each binding as its expression.  A binding's value in a
    configuration is taken at that configuration's growth value (a = k at k = 1 is 1), and
    substituting it would make a = k a constant: ``a == O(1)`` held."""
    bound = {q.symbol for q in spec.quantifiers if q.kind == "binding"}
    return with_bindings(spec, {s: v for s, v in first.values.items() if s != symbol and s not in bound})


def _order_argument(claim):
    return claim.rhs.args[0]


def _symbolic(spec, group, symbol) -> Decision:

    first = group[0]
    if first.box or spec.probability is not None or (first.model is not None and symbol.name != "xi"):
        return Decision("undecided", None, "symbolic", detail=_NO_CLOSED_FORM)
    claim = spec.claim
    values = _symbolic_values(spec, first, symbol)
    xi_binding = spec.quantifier("xi")
    if symbol.name == "xi":
        xi = symbol
    elif xi_binding is not None and xi_binding.kind == "binding":
        xi = values[xi_binding.symbol]  # ξ = sqrt(k): a function of the growth variable, not its first value
    else:
        xi = first.xi
    backend = Quantities(first.model, get_activation(first.activation) if first.activation else None, EXACT)
    variable = sympy.Symbol(symbol.name, positive=True)
    notes = []
    try:
        sides = []
        for side in (claim.lhs, _order_argument(claim)):
            value = exact(prepare(side, values, xi, growth=symbol), backend)
            value = value.xreplace(scalars_of(value, backend, DERIVED_SCALARS))
            if value.has(sympy.Sum):  # a growing sum with no closed form: its integral's order
                value, note = guarded(f"claim {claim.text.strip()!r}", equivalent, value, symbol)
                notes.append(note)
            sides.append(value)
        ratio, limit = guarded(f"claim {claim.text.strip()!r}", _ratio_limit, sides, symbol, variable)
    except (Unavailable, BudgetExceededError) as exc:  # a budget spent is no verdict, not a crash
        return Decision("undecided", None, "symbolic", detail=str(exc))

    if limit is None:
        return Decision(
            "undecided", None, "symbolic", detail="ratio not a closed form in the growth variable"
        )
    order = claim.order
    if limit.has(AccumBounds):
        limit = _absolute_bounds(limit)
        if isinstance(limit, AccumBounds):
            return _oscillating(limit, order, ratio, symbol)
        return Decision("undecided", None, "symbolic",
                        detail=f"|lhs|/|order| = {ratio} has no limit as {symbol.name} -> oo ({limit})")
    if limit.is_finite is not True and limit != sympy.oo:
        return Decision("undecided", None, "symbolic", detail=f"limit of the ratio: {limit}")
    too_big = limit == sympy.oo and order in ("O", "Theta")
    too_small = limit == 0 and order in ("Omega", "Theta")
    detail = f"|lhs|/|{_order_argument(claim)}| = {ratio} -> {limit} as {symbol.name} -> oo" + "".join(
        f"; {note}" for note in notes)
    numbers = {"ratio": str(ratio), "limit": str(limit)}
    if too_big or too_small:
        return Decision("fails", Basis.EXACT, "symbolic", point={}, detail=detail, numbers=numbers)
    return Decision("holds", Basis.EXACT, "symbolic", detail=detail, numbers=numbers)


def _sums_up_to(claim, symbol) -> bool:
    """A Sum of the claim whose upper bound holds the growth variable."""
    return any(s.limits[-1][2].has(symbol) for side in (claim.lhs, claim.rhs) for s in side.atoms(sympy.Sum))


def _statistical(spec, group, symbol) -> Decision:

    claim, prob = spec.claim, spec.probability
    quantile = float(prob.bound) if prob is not None else 1.0
    by_value: dict = defaultdict(lambda: ([], []))
    for setting in group:
        try:
            lhs = prepare(claim.lhs, setting.values, setting.xi)
            rhs = prepare(_order_argument(claim), setting.values, setting.xi)
        except ClaimEvaluationError as exc:
            if not _sums_up_to(claim, symbol):
                raise
            # a sum up to the growth variable that no closed form or integral comparison took, too
            # long to add up at the largest values: nothing to fit, so nothing is decided
            return Decision("inconclusive", Basis.NONE, "statistical",
                            detail=f"{str(exc).removeprefix('claim: ')}: the sum up to {symbol} has no "
                                   "closed form or integral comparison, and its values cannot be sampled")
        evaluator = GridEvaluator(setting, setting.activation, lhs, rhs, spec.full, spec.seed)
        draws = models(setting.model, prob.over, spec.draws, spec.seed)[0] if prob else [setting.model]
        uppers, lowers = by_value[setting.values[symbol]]
        for model in draws:
            try:
                left, right = evaluator.sides(model)
            except FloatRangeError as exc:
                return Decision("inconclusive", Basis.NONE, "statistical",
                                detail=f"{str(exc).removeprefix('claim: ')}: no limit decided the order, "
                                       "and a fit needs float64 values")
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
    return judge_exponents(claim.order, spec.growth, growth, upper, lower, _order_argument(claim),
                           "q-quantile over draws" if prob else "worst case over seeds and inner points")


def judge_exponents(order: str, name: str, growth: list, upper: list, lower: list, argument,
                    what: str) -> Decision:
    """The verdict on an order from the fits of both ratio series (module docstring, step 2).

    The lower ratio never exceeds the upper one, so each fit speaks for both bounds: a growing
    lower ratio makes the upper one grow too (refuting O), a decaying upper ratio makes the
    lower one decay (refuting Omega).  Decisions sit at ±DECISION_EXPONENT, halfway to an
    exponent off by 1/2: an interval wholly beyond it refutes; *consistent* needs every
    interval the order constrains wholly inside it; anything between is inconclusive.  So an
    exponent off by 1/2 or more is never called consistent (at 99.9 % per fit), and a ratio with
    curvature (k/(k + 1): local slope up to 0.2) is not refuted."""

    numbers: dict = {"growth": name, "points": growth, "decision_exponent": DECISION_EXPONENT}
    edge = DECISION_EXPONENT
    fits, parts, zero_note = {}, [], []
    for side, series in (("upper", upper), ("lower", lower)):
        zeros = [g for g, r in zip(growth, series, strict=True) if r == 0]
        numbers[f"{side}_ratios"] = list(series)
        if zeros:
            numbers[f"{side}_zero_at"] = zeros
            zero_note.append(f"{side} ratio is 0 at {name} = {', '.join(f'{z:g}' for z in zeros)}")
        keep = [(g, r) for g, r in zip(growth, series, strict=True) if r > 0]
        if len(keep) >= 3:
            fits[side] = fit_exponent([g for g, _ in keep], [r for _, r in keep])
            numbers[f"{side}_exponent"] = fits[side].describe()
    needs_upper, needs_lower = order in ("O", "Theta"), order in ("Omega", "Theta")
    top = growth[len(growth) // 2:]
    lower_zero_top = [g for g in numbers.get("lower_zero_at", []) if g in top]
    refutations, leaning = [], []
    if needs_lower and len(lower_zero_top) >= 2:
        refutations.append(f"the lower ratio is 0 at {name} = "
                           f"{', '.join(f'{g:g}' for g in lower_zero_top)} (not bounded away from 0)")
    for side, fit in fits.items():
        trend = "grows" if fit.low > edge else ("decays" if fit.high < -edge else "")
        parts.append(f"{side} ratio ~ {name}^{fit.describe()}" + (f": {trend}" if trend else ""))
        interval = f"interval [{fit.low:.3g}, {fit.high:.3g}] excludes 0"
        # Beyond the edge refutes; beyond 0 only is evidence that curvature (k/(k + 1)) could
        # also explain, so it decides nothing either way.
        if needs_upper and fit.low > edge:
            refutations.append(f"the {side} ratio grows (exponent interval above {edge:g})")
        elif needs_upper and fit.low > 0:
            leaning.append(f"the {side} ratio grows ({interval}), but by less than {edge:g}")
        if needs_lower and fit.high < -edge:
            refutations.append(f"the {side} ratio decays (exponent interval below -{edge:g})")
        elif needs_lower and fit.high < 0:
            leaning.append(f"the {side} ratio decays ({interval}), but by less than {edge:g}")
    detail = (f"|lhs|/|{argument}| ({what}) at {len(growth)} values of {name}: "
              + "; ".join(parts + zero_note)
              + f"; decisions at exponent ±{edge:g}, so an exponent off by 1/2 is never consistent")
    if refutations:
        return Decision("fails", Basis.STATISTICAL, "statistical", point={},
                        detail="; ".join(refutations) + " — " + detail, numbers=numbers)
    needed = (("upper", needs_upper), ("lower", needs_lower))
    missing = [s for s, need in needed if need and s not in fits]
    if missing or (needs_lower and numbers.get("lower_zero_at")):
        why = (f"fewer than three positive {' and '.join(missing)} ratios to fit" if missing
               else "the lower ratio is 0 at some points")
        return Decision("inconclusive", Basis.NONE, "statistical", numbers=numbers,
                        detail=f"{why} — {detail}")
    loose = []
    if needs_upper and fits["upper"].high >= edge:
        loose.append(f"the upper exponent interval reaches {fits['upper'].high:.3g} >= {edge:g}")
    if needs_lower and fits["lower"].low <= -edge:
        loose.append(f"the lower exponent interval reaches {fits['lower'].low:.3g} <= -{edge:g}")
    loose += leaning
    if loose:
        return Decision("inconclusive", Basis.NONE, "statistical", numbers=numbers,
                        detail="too little power: " + "; ".join(loose) + " — " + detail)
    return Decision("consistent", Basis.STATISTICAL, "statistical", detail=detail, numbers=numbers)
