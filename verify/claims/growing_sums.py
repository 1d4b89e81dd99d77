r"""Sums whose upper bound is the growth variable, for order claims: Σ_{i=a}^{k} f(i) as k → ∞.

SymPy sums some in closed form (Σ 1/i = harmonic(k), Σ i² = k(k+1)(2k+1)/6); the rest are
compared with their integral.  For f monotone on [a, ∞) and positive on (a, ∞) (SymPy proves
that f′ has no zero there, and f(a) ≥ 0 when f increases, f(a) > 0 and lim f ≥ 0 when it
decreases) and I(k) = ∫_a^k f(t) dt,

    min(f(a), f(k)) ≤ Σ_{i=a}^{k} f(i) − I(k) ≤ max(f(a), f(k)),

so Σ/I → 1 when I(k) → ∞ and f(k)/I(k) → 0, and then lim Σ/g = lim I/g for any g: the order
claim is decided on I (Σ log i ~ k log k, Σ √i ~ (2/3) k^{3/2}).  When ∫_a^∞ f < ∞ the sum
converges to a constant in [f(a), f(a) + ∫_a^∞ f], positive, so it is Θ(1) and decided as the
constant 1 (the class of the limit, 0, finite or ∞, is what an order claim reads).

An alternating sum Σ (−1)^{i+c} a(i) with a positive and decreasing to 0 (the same proofs on a)
has every partial sum between a(low) − a(low + 1) > 0 and a(low) in absolute value (Leibniz: the
partial sums alternate around the limit, each nearer than the last), so it is Θ(1) and decided
as the constant 1 too (Σ (−1)^i/i → −log 2).

When the integral has no closed form (1/(i log(i + 1))), the sum is compared with the same sum
with every t + c read as t (1/(i log i), from the first index where it is positive), provided the
ratio of the terms tends to a positive constant L: by limit comparison both converge or both
diverge, and when they diverge the first is ~ L times the second.

Only a whole side (or a positive constant times it) is replaced: Σ 1/i − log k → γ is not
decided by Σ ~ log k, so any other place of a growing sum leaves the claim to the other steps.
"""

from __future__ import annotations

import sympy
from sympy.integrals.manualintegrate import manualintegrate

from verify.base.limits import proved_limit
from verify.claims.quantities import Unavailable

#: A term monotone only from this many indices on is not compared with its integral.
MAX_SHIFT = 64


def _past_turning_points(f, t, low):
    """The first integer past every real zero of f′ on [low, ∞) (low itself when there is none);
    the term is monotone from there (Σ log(i)/i: f′ = 0 at i = e, so from i = 3)."""
    turning = sympy.solveset(sympy.diff(f, t), t, sympy.Interval(low, sympy.oo))
    if not isinstance(turning, sympy.FiniteSet) or not turning:
        return low
    last = max(turning, key=lambda z: float(z))
    if not (last.is_real and last < low + MAX_SHIFT):
        return low
    return sympy.floor(last) + 1


def _integral(f, t, low, variable):
    """∫_low^variable f(t) dt in closed form (through an antiderivative, which SymPy finds where
    the definite integral comes back as Meijer G functions), or Unavailable."""
    antiderivative = manualintegrate(f, t)  # integration by parts and substitution, no Meijer G
    if not antiderivative.has(sympy.Integral, sympy.Piecewise):
        return sympy.simplify(antiderivative.xreplace({t: variable}) - antiderivative.xreplace({t: low}))
    integral = sympy.integrate(f, (t, low, variable))
    if integral.has(sympy.Integral):
        raise Unavailable(f"no closed form of the comparison integral of {f}")
    return integral


def _monotone(s, f, t, low):
    """f′ (SymPy proves it has no zero on [low, ∞), so f is monotone there), else Unavailable."""
    slope = sympy.diff(f, t)
    turning = sympy.solveset(slope, t, sympy.Interval(low, sympy.oo))
    if turning is not sympy.S.EmptySet:
        raise Unavailable(f"{s}: the term is not provably monotone on [{low}, oo)")
    return slope


def _alternating_part(f, t):
    """a(t) with f = (−1)^{t + c}·a(t), c an integer and a free of (−1)^t; None otherwise."""
    signs = [x for x in sympy.Mul.make_args(f) if x.is_Pow and x.base == -1 and (x.exp - t).is_Integer]
    if len(signs) != 1:
        return None
    a = sympy.Mul(*[x for x in sympy.Mul.make_args(f) if x is not signs[0]])
    if a.has(sympy.Pow(-1, t)) or not a.has(t):
        return None
    return a


def growing_sum(s: sympy.Sum, variable):
    """SymPy's closed form of ``s`` (a Sum whose upper bound holds ``variable``), else ``s``."""
    try:
        closed = sympy.summation(s.function, *s.limits)
    except (NotImplementedError, ValueError, TypeError):  # e.g. "Result depends on the sign of I"
        return s
    return s if closed.has(sympy.Sum) or closed.has(sympy.I) else closed


def equivalent(side, variable):
    """(a function of ``variable`` with the same limit ratio against any g, a note) for a side that
    is c·Σ_{i=a}^{variable} f(i), c > 0 a number; Unavailable when the integral comparison does not
    apply (or SymPy cannot carry one of its steps out)."""
    try:
        return _equivalent(side, variable)
    except (NotImplementedError, ValueError, TypeError, AttributeError) as exc:
        raise Unavailable(f"{side}: the integral comparison could not be carried out ({exc})") from None


def _equivalent(side, variable):
    coefficient, s = side.as_independent(sympy.Sum, as_Add=False)
    if not isinstance(s, sympy.Sum) or not (coefficient.is_number and coefficient.is_positive):
        raise Unavailable("a growing sum that is not a whole side of the order claim")
    ((index, low, high),) = s.limits
    if high != variable or not low.is_Integer:
        raise Unavailable(f"{s}: the upper bound is not the growth variable")
    t = sympy.Symbol("t", positive=True)
    f = s.function.xreplace({index: t})
    if f.free_symbols - {t}:
        raise Unavailable(f"{s}: the term depends on more than its index")
    alternating = _alternating_part(f, t)
    if alternating is not None:
        a = alternating
        _monotone(s, a, t, low)
        start, at_infinity = a.xreplace({t: low}), _limit_at_infinity(a, t)
        if not (start.is_positive and at_infinity == 0):
            raise Unavailable(f"{s}: the alternating terms are not provably positive and decreasing to 0")
        return coefficient, (f"{s} is alternating with terms decreasing to 0: every partial sum lies between "
                             f"{start} - {a.xreplace({t: low + 1})} and {start} in absolute value (Leibniz)")
    try:
        return _compared_with_integral(s, coefficient, f, t, low, variable)
    except Unavailable as exc:
        # no closed integral (1/(i log(i + 1))): the same sum with every t + c read as t, when the
        # terms' ratio tends to a positive constant L (limit comparison: both sums diverge or both
        # converge, and when they diverge Σ f ~ L Σ f̃)
        simpler = f.replace(lambda e: e.is_Add and e.has(t) and (e - t).is_number, lambda e: t)
        if simpler == f or not _positive_from(f, t, low):
            raise exc
        ratio = _limit_at_infinity(f / simpler, t)
        if not (ratio.is_positive and ratio.is_finite):
            raise exc
        start = next((low + j for j in range(4) if (v := simpler.xreplace({t: low + j})).is_finite
                      and v.is_positive), None)
        if start is None:
            raise exc
        compared = sympy.Sum(simpler.xreplace({t: index}), (index, start, variable))
        value, note = _equivalent(coefficient * ratio * compared, variable)
        return value, f"{s}: its terms / those of {compared} -> {ratio} (limit comparison); {note}"


def _limit_at_infinity(expr, variable):
    """The limit of ``expr`` as ``variable`` → ∞ where SymPy's algorithm is proved for it
    (:func:`verify.base.limits.proved_limit`); no limit known is no comparison."""
    value = proved_limit(expr, variable, sympy.oo)
    if value is None:
        raise Unavailable(f"{expr}: no limit as {variable} -> oo is proved (an oscillating term, or "
                          "one SymPy cannot take)")
    return value


def _positive_from(f, t, low) -> bool:
    """f(t) > 0 for every real t ≥ low, proved: f(low) > 0, and neither the numerator nor the
    denominator of f has a real zero on [low, ∞) (continuity does the rest).  Every term of the
    sum is then finite and positive, so a convergent sum has a positive limit (Θ(1)), and one with
    a pole (1/((i − 10) log(i + 1))) is never compared."""
    if not f.xreplace({t: low}).is_positive:
        return False
    numerator, denominator = sympy.fraction(sympy.together(f))
    on = sympy.Interval(low, sympy.oo)
    for part in (numerator, denominator):
        if not part.has(t):
            continue
        for factor in sympy.Mul.make_args(part):
            base = factor.as_base_exp()[0]
            if base.has(t) and sympy.solveset(base, t, on) is not sympy.S.EmptySet:
                return False
    return True


def _compared_with_integral(s, coefficient, f, t, low, variable):
    """The integral comparison of the module docstring for c·Σ_{i=low}^{variable} f(i)."""
    shifted = _past_turning_points(f, t, low)
    slope = _monotone(s, f, t, shifted)
    start = f.xreplace({t: shifted})
    at_infinity = _limit_at_infinity(f, t)
    increasing = slope.xreplace({t: shifted + 1}).is_positive
    # increasing from f(a) >= 0, or decreasing from f(a) > 0 towards a limit >= 0: f > 0 beyond a
    if not ((increasing and start.is_nonnegative) or (start.is_positive and at_infinity.is_nonnegative)):
        raise Unavailable(f"{s}: the term is not provably positive on ({shifted}, oo)")
    integral = _integral(f, t, shifted, variable)
    tail = _limit_at_infinity(integral, variable)
    if tail == sympy.oo:
        # the finitely many terms before the shifted start are a constant: negligible
        if _limit_at_infinity(f.xreplace({t: variable}) / integral, variable) != 0:
            raise Unavailable(f"{s}: the last term is not small against the integral")
        note = f" from i = {shifted} on, where the term is monotone" if shifted != low else ""
        return coefficient * integral, f"{s} ~ {integral} (integral comparison{note}, the term monotone)"
    if tail.is_finite and shifted == low:
        return coefficient, f"{s} converges to a positive constant (integral comparison)"
    raise Unavailable(f"{s}: the comparison integral has no limit")
