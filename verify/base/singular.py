r"""Where a real function of one variable may fail to be finite, proved from its syntax tree.

One helper for every rule that needs "f is locally bounded away from these points" (existence of
E|f(g)|, Stein's lemma, the Hermite reduction): :func:`singular_candidates` walks the tree and
answers with a finite set of points that contains every point where ``f`` may blow up, or None
when it cannot prove that.  **Default deny**: a node whose behaviour is not known here makes the
answer None, never "no singular point".  (The existence step used to look only at bases raised
to negative powers, so ``cosh(log|g|) = (|g| + 1/|g|)/2``, which blows up at 0 without a
negative power in sight, was declared integrable and ``Eg(sign(g)*cosh(log(Abs(g)))) == 0``
*held (exact)*.)

The rules, each a fact about the functions of the claim language on the real line:

- a constant, the variable, a sum, a product, and the functions of :data:`LOCALLY_BOUNDED`
  (continuous, or with bounded jumps: ``sign``, ``Heaviside``) are finite wherever their
  arguments are: the candidates are the union of the arguments' candidates;
- ``b**e`` with ``e`` a nonnegative integer likewise; with ``e`` negative it may blow up where
  ``b = 0`` too (the real zeros of ``b``, which must form a finite set);
- ``log(a)`` blows up where ``a = 0``;
- a non-integer power and ``log`` need a base that is nonnegative on the line (else the value
  is complex there): proved by SymPy's assumptions, or refused with a point where the base is
  negative (:class:`ComplexValuedError`), or unknown;
- ``b**e`` with the variable in ``e`` needs ``b > 0`` everywhere (then it is ``exp(e log b)``).

An infinite set of zeros (``1/cos(g)``) gives those in ``window`` with ``complete = False``:
one non-integrable point among them proves divergence, but they cannot prove existence.
"""

from __future__ import annotations

import sympy

from verify.base.errors import InvalidParameterError, clip

#: Functions finite wherever their arguments are (continuous, or bounded with jumps).
LOCALLY_BOUNDED = (sympy.exp, sympy.sin, sympy.cos, sympy.tanh, sympy.sinh, sympy.cosh, sympy.atan,
                   sympy.asinh, sympy.erf, sympy.erfc, sympy.Abs, sympy.sign, sympy.Heaviside, sympy.Max,
                   sympy.Min, sympy.sech, sympy.re, sympy.im, sympy.floor, sympy.ceiling)
#: Where the zeros of a base with infinitely many (cos) are looked for.
DEFAULT_WINDOW = sympy.Interval(-16, 16)
#: Points at which a base is probed for a negative value (to refuse a complex-valued integrand).
_PROBES = tuple(sympy.Rational(n, 4) for n in range(-40, 41))


class ComplexValuedError(InvalidParameterError):
    """The expression is not real on part of the real line (a root or log of a negative number)."""


class _Unknown(Exception):
    pass


def singular_candidates(expr, x, window=DEFAULT_WINDOW):
    """(points, complete): a finite set of real points outside which ``expr`` is finite on R,
    ``complete`` False when only the points in ``window`` of an infinite set are listed; None when
    that cannot be proved (module docstring).  Raises :class:`ComplexValuedError` for an
    expression that is complex somewhere on the line."""
    found: set = set()
    state = {"complete": True}
    try:
        _walk(sympy.sympify(expr), x, found, state, window)
    except _Unknown:
        return None
    return found, state["complete"]


def _walk(node, x, found: set, state: dict, window) -> None:
    if not node.has(x):
        if node.is_finite is False or node.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
            raise _Unknown
        return
    if node == x:
        return
    if isinstance(node, (sympy.Add, sympy.Mul)) or isinstance(node, LOCALLY_BOUNDED):
        for arg in node.args:
            _walk(arg, x, found, state, window)
        return
    if isinstance(node, sympy.Pow):
        base, exponent = node.args
        _walk(base, x, found, state, window)
        if exponent.has(x):
            if base.is_positive:
                _walk(exponent, x, found, state, window)
                return
            raise _Unknown
        if not exponent.is_real:
            raise _Unknown
        if not exponent.is_integer:
            _real_on_the_line(base, x, f"{clip(node, 40)}: a non-integer power of {clip(base, 30)}")
        if exponent.is_negative:
            _zeros(base, x, found, state, window)
        elif not exponent.is_nonnegative:  # a parameter's sign unknown (|g|**(-a)): default deny
            raise _Unknown
        return
    if isinstance(node, sympy.acos | sympy.asin):  # finite (and real) where |argument| <= 1
        (argument,) = node.args
        _walk(argument, x, found, state, window)
        if not within_unit(argument, {x: (-sympy.oo, sympy.oo)}):
            raise _Unknown
        return
    if isinstance(node, sympy.log):
        (argument,) = node.args
        _walk(argument, x, found, state, window)
        _real_on_the_line(argument, x, f"{clip(node, 40)}")
        _zeros(argument, x, found, state, window)
        return
    raise _Unknown  # default deny: a function not listed here


def within_unit(expr, ranges: dict) -> bool:
    """Whether −1 ≤ expr ≤ 1 for every value of its symbols in ``ranges`` (symbol -> (low, high),
    ends ±oo allowed), by SymPy's interval arithmetic (AccumBounds): cos(g² − 1) and cos(g)/2 + 1/2
    are; anything it cannot bound (an unsupported function, a symbol without a range) is not."""
    if not expr.free_symbols <= set(ranges):
        return False
    try:
        bounds = expr.xreplace({s: sympy.AccumBounds(*ranges[s]) for s in expr.free_symbols})
    except (TypeError, ValueError, NotImplementedError, ArithmeticError):
        return False
    if not isinstance(bounds, sympy.AccumBounds) or not (bounds.min.is_number and bounds.max.is_number):
        return bool(bounds.is_number and bounds.is_real and sympy.Le(abs(bounds), 1) is sympy.true)
    return sympy.Ge(bounds.min, -1) is sympy.true and sympy.Le(bounds.max, 1) is sympy.true


def _real_on_the_line(base, x, what: str) -> None:
    """Return when ``base >= 0`` on R is proved; refuse when a probe finds it negative; else unknown."""
    if base.is_nonnegative or rational_nonnegative(base, x):
        return
    for point in _PROBES:
        try:
            value = base.xreplace({x: point}).evalf(20)
        except (TypeError, ValueError, ZeroDivisionError):
            continue
        if value.is_real and value.is_negative:
            raise ComplexValuedError(
                f"{what} is not real at {x} = {point} ({clip(base, 30)} = {sympy.N(value, 4)} < 0): an "
                f"expectation over the whole line needs a real integrand (use Abs(...) or Max(..., 0))")
    raise _Unknown


#: Highest degree of N·D for which :func:`rational_nonnegative` counts real roots.
MAX_SIGN_DEGREE = 40


def rational_nonnegative(base, x) -> bool:
    """Whether a rational function N/D of ``x`` with rational coefficients is >= 0 wherever it is
    defined, proved exactly: every squarefree factor of N·D with a real root has even multiplicity
    (Sturm's count), so N/D keeps one sign off its roots and poles, and that sign is read at one
    rational point where N·D ≠ 0.  ``(1 + x + x²)/(1 - x + x²)`` and ``x²/(1 + x²)`` are; anything
    else (another coefficient field, a transcendental function, a sign change) is not proved."""
    numerator, denominator = sympy.fraction(sympy.together(base))
    try:
        product = sympy.Poly(sympy.expand(numerator * denominator), x, domain=sympy.QQ)
    except (sympy.PolynomialError, sympy.CoercionFailed, sympy.GeneratorsNeeded):
        return False
    if product.is_zero or product.degree() > MAX_SIGN_DEGREE:
        return product.is_zero
    if any(multiplicity % 2 and factor.count_roots() for factor, multiplicity in product.sqf_list()[1]):
        return False
    point = next(t for t in range(product.degree() + 1) if product.eval(t) != 0)
    return bool(product.eval(point) > 0)


def _zeros(base, x, found: set, state: dict, window) -> None:
    if base.is_positive or base.is_negative:  # SymPy's sign rules (1 + a*g**2 with a >= 0)
        return
    try:
        zeros = sympy.solveset(base, x, sympy.S.Reals)
    except (NotImplementedError, ValueError, TypeError):
        raise _Unknown from None
    if zeros is sympy.S.EmptySet:
        return
    if not isinstance(zeros, sympy.FiniteSet):
        try:
            zeros = sympy.solveset(base, x, window)
        except (NotImplementedError, ValueError, TypeError):
            raise _Unknown from None
        if not isinstance(zeros, sympy.FiniteSet) or not zeros:
            raise _Unknown
        state["complete"] = False
    if not all(z.is_real for z in zeros):
        raise _Unknown
    found |= set(zeros)


#: Highest pole order m of (x - p) tried when writing f = N/(x - p)**m.
MAX_POLE_ORDER = 4


def removable_quotient(expr, x, p):
    """(m, N) with ``expr = N/(x - p)**m``, N's formula finite at p and N(p) = N'(p) = … =
    N^(m-1)(p) = 0 proved exactly (so the singularity at p is removable), or None: a pole, or a
    form this does not recognise (then nothing is claimed)."""
    for m in range(1, MAX_POLE_ORDER + 1):
        numerator = sympy.together(expr * (x - p) ** m)
        try:
            if sympy.fraction(numerator)[1].subs(x, p) == 0:
                continue  # still divided by something that vanishes at p
            if not all(sympy.simplify(sympy.diff(numerator, x, j).subs(x, p)) == 0 for j in range(m)):
                return None  # a pole of order m - j, not removable
        except (ValueError, TypeError):
            # SymPy cannot even form the value at p (Max(1, 1/g**2) at 0 is Max(1, zoo), which it
            # refuses as "not comparable"): not a form this recognises
            return None
        return m, numerator
    return None
