r"""Sums of Hermite coefficients to infinity, ``Sum(c*p**a*r**p*mu(p)**2, p, p0, oo)``, with a rigorous tail.

By Parseval, Σ_p μ_p² = E σ(g)² =: N_0 and, for σ absolutely continuous with σ' ∈ L², Σ_p p μ_p²
= E σ'(g)² =: N_1 (both computed by :mod:`verify.claims.gaussian` from the activation itself, not
from the coefficients).  For a = 0 or 1 and |r| ≤ 1, every term beyond P has
|c p^a r^p μ_p²| ≤ |c| |r|^{P+1} p^a μ_p², so

    Σ_{p>P} c p^a r^p μ_p²  ∈  ± |c| |r|^{P+1} (N_a − Σ_{p≤P} p^a μ_p²)            (the tail bound),

and the sum lies in the ball of its first P = SERIES_TERMS terms plus that interval.  Exactly,
when r = 1 the sum *is* c (N_a − Σ_{p<p0} p^a μ_p²) (Parseval, no truncation), and for |r| ≤ 1
it is c (K(r) − head) or c (r K′(r) − head) (Mehler: the series is the dual kernel).  A term of any other
shape has no tail bound here: only its float partial sum exists, with a heuristic error (the
size of its last half), so such a sum can only refute, and only beyond that error.

The form is recognised once (:func:`recognise`) and evaluated in the three arithmetics from it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy
from flint import arb

from verify.certified.balls import integer_power, interval
from verify.claims.language import GAUSSIAN, quantity_function

#: Terms summed before the tail bound takes over: for relu the tail of Σ μ_p² beyond p = 64 is
#: below 1e-4 (it decays like P^{-3/2}), and 65 certified coefficients take about a second.
SERIES_TERMS = 64
#: The norms N_0 = E σ² and N_1 = E σ'² as Eg integrands (a = 0, 1).
NORMS = {0: quantity_function("sigma")(GAUSSIAN) ** 2, 1: quantity_function("dsigma")(GAUSSIAN) ** 2}


@dataclass(frozen=True)
class HermiteSum:
    """Σ_{p ≥ low} coefficient · p^power · ratio^(p + offset) · μ_p² (ratio 1 when absent).

    ``offset`` < 0 is a series written with its index shifted, h(m) = Σ_{p≥1} p μ_p² m^(p−1): kept
    apart from the coefficient so that ratio^(p + offset), p + offset ≥ 0, is evaluated as a power
    of the ratio and not as 1/ratio times the sum (0 · ∞ at m = 0)."""

    coefficient: sympy.Expr
    power: int
    ratio: sympy.Expr
    low: int
    offset: int = 0


def recognise(s: sympy.Sum) -> HermiteSum | None:
    """The :class:`HermiteSum` form of an infinite Sum, or None when its term has another shape."""
    ((index, low, _),) = s.limits
    mu = quantity_function("mu")(index)
    if not low.is_Integer or low < 0:
        return None
    factor = sympy.expand_power_exp(sympy.powsimp(s.function / mu**2))
    if factor.has(mu):
        return None
    coefficient, rest = factor.as_independent(index, as_Add=False)
    power, ratio, shifts = 0, sympy.Integer(1), []
    for part in sympy.Mul.make_args(rest):
        slope = part.exp.coeff(index) if isinstance(part, sympy.Pow) else None
        if part == index and power == 0:
            power = 1
        elif slope is not None and slope.is_Integer and slope != 0 and not part.base.has(index) \
                and (part.exp - slope * index).is_Integer:
            ratio *= part.base ** slope  # (1/2)**p arrives as 2**(-p)
            shifts.append((part.exp - slope * index) / slope)  # r**(p - 1): a shift of -1
        elif part != 1:
            return None
    if len(shifts) > 1 and any(shifts):
        return None  # r^(p-1) s^p: a shift of one base among several has no tail bound here
    offset = shifts[0] if len(shifts) == 1 else sympy.Integer(0)
    if not ratio.is_number:
        # r^(p-1) written r^p/r: the negative power of the ratio in the coefficient is a shift too
        free, bound = coefficient.as_independent(ratio, as_Add=False)
        exponent = _power_of(bound, ratio)
        if exponent is not None and offset == 0:
            coefficient, offset = free, exponent
    if offset.is_Integer and offset > 0:  # r^(p+1) = r · r^p: a factor of the coefficient, safe at r = 0
        coefficient, offset = coefficient * ratio**offset, sympy.Integer(0)
    if offset != 0 and not (offset.is_Integer and -low <= offset < 0):
        return None  # a shift the tail bound is not written for (beyond the sum's first index)
    return HermiteSum(coefficient, power, ratio, int(low), int(offset))


def _power_of(expression, base) -> sympy.Integer | None:
    """n where ``expression`` is ``base``**n for an integer n, else None."""
    if expression == base:
        return sympy.Integer(1)
    if isinstance(expression, sympy.Pow) and expression.base == base and expression.exp.is_Integer:
        return expression.exp
    return None


def exact_value(form: HermiteSum, mu, norm, kernel=None, inside=lambda r: False) -> sympy.Expr | None:
    """The sum exactly, or None; ``mu(p)``, ``norm(a)`` and ``kernel(derivative, r)`` exact.

    r = 1: c (N_a − Σ_{p<low} p^a μ_p²) (Parseval).  |r| ≤ 1 (a number, or a variable for which
    ``inside(r)`` says it is declared in [−1, 1]): the series *is* the dual kernel (Mehler),
    Σ_p μ_p² r^p = K(r) and Σ_p p μ_p² r^p = r K′(r), so the sum is c (K(r) − head) or
    c (r K′(r) − head) with head = Σ_{p<low} p^a μ_p² r^p."""
    r = form.ratio
    head = sum((sympy.Integer(p) ** form.power * mu(p) ** 2 * r**p for p in range(form.low)),
               sympy.Integer(0))
    if r == 1:
        return form.coefficient * (norm(form.power) - head)
    bounded = (r.is_number and (sympy.Abs(r) <= 1) is sympy.true) or inside(r)
    if kernel is None or not bounded:
        return None
    if form.offset == -1 and form.power and form.low <= 1:
        # Σ_{p≥1} p μ_p² r^(p−1) = K′(r): the r of r K′(r) cancels, with no 0/0 at r = 0
        return form.coefficient * kernel(True, r)
    if form.offset:
        return None  # (K(r) − head)/r^j: 0/0 at r = 0; the balls and float64 sum it term by term
    total = r * kernel(True, r) if form.power else kernel(False, r)
    return form.coefficient * (total - head)


class TailError(ValueError):
    """No rigorous tail for this sum in balls (the caller makes it Unavailable)."""


def ball_function(form: HermiteSum, coefficients: list, norm, compile_ball, ratio_in_unit_interval: bool):
    """env -> a ball containing the sum (partial sum of balls plus the tail interval), and the tail's
    description; ``coefficients`` are balls of μ_0..μ_P, ``norm`` the ball of N_a.  Where |r| may
    exceed 1 the ball is NaN (decides nothing), unless r is known to lie in [-1, 1] and its ball
    sticks out by rounding alone (``ratio_in_unit_interval``)."""
    terms = len(coefficients) - 1
    if form.low > terms:
        raise TailError(f"a Hermite sum from p = {form.low} starts beyond its {terms} ball terms")
    weights = [arb(p) ** form.power * mu * mu for p, mu in enumerate(coefficients)]
    remainder = norm - sum(weights, arb(0))
    if remainder < 0:
        raise TailError("Parseval's remainder is negative: the norm or the coefficients are wrong")
    remainder = interval(max(remainder.lower(), arb(0)), remainder.upper())
    coefficient, ratio = compile_ball(form.coefficient), compile_ball(form.ratio)

    def value(env):
        c, r = coefficient(env), ratio(env)
        size = abs(r).upper()
        if size > 1:
            if not ratio_in_unit_interval:
                return arb("nan")  # beyond the tail bound's reach: this ball decides nothing
            size = arb(1)
        partial, power = arb(0), integer_power(r, form.low + form.offset)
        for p in range(form.low, terms + 1):
            partial += weights[p] * power
            power *= r
        bound = (abs(c) * integer_power(size, terms + 1 + form.offset) * remainder).upper()
        return c * partial + interval(-bound, bound)

    norm_text = "E[dsigma(g)^2]" if form.power else "E[sigma(g)^2]"
    tail = (f"terms p <= {terms} in balls, tail within +-|c|*|r|^{terms + 1 + form.offset}*({norm_text} - "
            f"sum_(p<={terms}) p^{form.power} mu_p^2) <= |c|*|r|^{terms + 1 + form.offset}*"
            f"{float(remainder.upper()):.3g} "
            "(Parseval)")
    return value, tail


def float_function(form: HermiteSum | None, term, index, symbols, mu: list, norm: float, record):
    """A float function of ``symbols`` for the sum (its first len(mu) terms), reporting its error to
    ``record``: the Parseval tail bound when ``form`` is given, else the size of its last half
    (heuristic; such a sum has no rigorous tail)."""
    terms = len(mu) - 1
    low = form.low if form is not None else 0
    if form is not None:
        weights = np.array([float(p) ** form.power * m * m for p, m in enumerate(mu)])
        remainder = max(norm - float(np.sum(weights)), 0.0) + 1e-15 * norm
        coefficient = sympy.lambdify(symbols, form.coefficient, modules="numpy")
        ratio = sympy.lambdify(symbols, form.ratio, modules="numpy")

        def value(*args):
            c, r = float(coefficient(*args)), float(ratio(*args))
            if form.ratio == 1:  # Parseval's closed form, as in exact arithmetic (no truncation)
                return c * (norm - float(np.sum(weights[: form.low])))
            if abs(r) > 1:
                return float("nan")  # beyond the series' radius: outside the claim's domain
            powers = r ** np.arange(form.low + form.offset, terms + 1 + form.offset, dtype=float)
            record(abs(c) * abs(r) ** (terms + 1 + form.offset) * remainder)
            return c * float(np.dot(weights[form.low:], powers))

        return value
    body = sympy.lambdify([index, *symbols], term, modules=[{"mu": lambda p: mu[int(p)]}, "numpy"])

    def heuristic(*args):
        try:
            values = [float(body(p, *args)) for p in range(low, terms + 1)]
        except (ZeroDivisionError, OverflowError):  # 0.0**(p - 2) at p = 1: no value here
            return float("nan")
        record(2 * abs(sum(values[len(values) // 2:])))
        return float(sum(values))

    return heuristic
