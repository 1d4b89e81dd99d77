r"""Turning a parsed claim into numbers: substitution, exact closed forms, float64 functions, balls.

:func:`prepare` fixes one configuration: the discrete values and bindings are substituted,
the scale-dependent quantities get ξ as their last argument, and sums are carried out
(finite ones term by term, ``oo`` by SymPy's ``summation``).  What remains has only the
continuous variables free.  Then

- :func:`exact` replaces every quantity by its closed form (innermost calls first, so
  h(sign(h(0))·m) works), for the symbolic step;
- :func:`float_function` lambdifies (``modules=`` NumPy plus the float backend's methods) for
  the search and sampling steps;
- :func:`ball` walks the SymPy tree node by node in Arb arithmetic for the certified step:
  every node's ball contains its exact value for every point of the input balls.
"""

from __future__ import annotations

import mpmath
import numpy as np
import scipy.special
import sympy
from flint import arb
from sympy.core.function import AppliedUndef

from verify.base.budget import BudgetExceededError, guarded, remembered
from verify.base.errors import InvalidParameterError, VerifyInputError, clip
from verify.base.expressions import plain_number, substituted_unevaluated
from verify.certified.balls import clamped_endpoints, integer_power, interval, monotone_image
from verify.certified.compile import constant, number_fraction
from verify.claims.growing_sums import growing_sum
from verify.claims.integrals import ball_integral, exact_integral, float_integral, is_integral
from verify.claims.language import DERIVED_SCALARS, INFINITY, MAX_SUM_TERMS, QUANTITIES
from verify.claims.quantities import SCALE_DEPENDENT, Unavailable


class ClaimEvaluationError(InvalidParameterError):
    """A claim that parses but cannot be evaluated as stated (a sum without closed form, a bad argument)."""


class ExactValueTooLargeError(ClaimEvaluationError):
    """A configuration whose exact value has more than :data:`MAX_EXACT_DIGITS` digits: it is left
    undecided, with this message, rather than computed."""


#: The most decimal digits of an exact value that a configuration may make.  SymPy computes
#: factorial(n) exactly when n's value is put in: factorial(n)/factorial(n - 1) over n in 0..10**6
#: took 6 CPU minutes (2.4 s for each factorial of 5.6 million digits), outside every step's
#: budget.  The size is read from the unevaluated value's 15-digit magnitude, so the rule does not
#: depend on the machine or its load (a CPU budget here would).
MAX_EXACT_DIGITS = 100_000
#: The functions whose exact values outgrow their arguments' (a Pow with a variable exponent too).
_FAST_GROWING = (sympy.factorial, sympy.factorial2, sympy.gamma, sympy.subfactorial, sympy.binomial,
                 sympy.RisingFactorial, sympy.FallingFactorial)


def check_exact_size(expr, values: dict) -> None:
    """Raise :class:`ExactValueTooLargeError` when a fast-growing part of ``expr`` would have more
    than :data:`MAX_EXACT_DIGITS` digits at ``values`` (why: that constant's comment)."""
    given = {s for s, v in values.items() if getattr(v, "is_number", False)}
    if not given:
        return
    for node in sympy.preorder_traversal(expr):
        growing = isinstance(node, _FAST_GROWING) or (
            isinstance(node, sympy.Pow) and node.exp.free_symbols & given)
        if not growing or not node.free_symbols & given:
            continue
        magnitude = plain_number(substituted_unevaluated(node, {s: values[s] for s in given}))
        if magnitude is None or not mpmath.isfinite(magnitude) or magnitude == 0:
            continue
        digits = float(mpmath.log10(abs(magnitude)))
        if abs(digits) > MAX_EXACT_DIGITS:
            where = ", ".join(f"{s} = {values[s]}" for s in sorted(node.free_symbols & given, key=str))
            raise ExactValueTooLargeError(
                f"{clip(node, 40)} at {where} has about 10^{digits:.3g} as its exact value, more than "
                f"{MAX_EXACT_DIGITS} digits; not computed")


def quantity_calls(expr) -> list:
    """The quantity calls of ``expr``, not looking inside Eg(...) (whose argument is a function of g)
    nor inside an infinite Hermite sum (whose mu(p) has a bound p): those are evaluated whole."""
    found: set = set()

    def walk(node):
        if isinstance(node, sympy.Sum):
            return
        if isinstance(node, AppliedUndef) and type(node).__name__ in QUANTITIES:
            found.add(node)
            if type(node).__name__ == "Eg":
                return
        for argument in node.args:
            walk(argument)

    walk(sympy.sympify(expr))
    return list(found)


def is_hermite_sum(node) -> bool:
    """An infinite Sum left for the backends (its term holds mu(p); see verify.claims.hermite_sums)."""
    return isinstance(node, sympy.Sum) and node.limits[-1][2] == INFINITY


def prepare(expr, values: dict, xi, growth=None) -> sympy.Expr:
    """``expr`` with ``values`` substituted, ξ appended to the scale-dependent quantities, sums done;
    a sum whose upper bound is the symbol ``growth`` (an order claim's) in closed form or left whole
    (:mod:`verify.claims.growing_sums`)."""
    expr = sympy.sympify(expr)
    check_exact_size(expr, values)
    expr = _expand_sums(expr.xreplace(values), growth)
    if expr.has(sympy.zoo, sympy.nan):
        # a term 1/0 (Sum(1/(i - 10), ...) up to k >= 10): the claim is about an undefined value
        where = ", ".join(f"{s} = {v}" for s, v in values.items()) or "this point"
        raise ClaimEvaluationError(f"claim: {clip(expr, 60)} is not a finite real number at {where} "
                                   "(a division by zero); the ranges leave the expression's domain")
    if xi is not None:
        expr = expr.replace(
            lambda e: (
                isinstance(e, AppliedUndef) and type(e).__name__ in SCALE_DEPENDENT and len(e.args) == 1
            ),
            lambda e: e.func(*e.args, xi),
        )
    return expr


def _expand_sums(expr, growth=None):
    """Sums carried out outermost first, so an inner bound such as p − 1 is a number by then."""
    if isinstance(expr, sympy.Sum):
        ((_, _, high), *_) = reversed(expr.limits)
        if growth is not None and len(expr.limits) == 1 and high.has(growth) \
                and not expr.function.has(growth):
            return guarded(f"claim: {expr}", growing_sum, expr, growth)
        done = _do_sum(expr)
        return done if is_hermite_sum(done) else _expand_sums(done, growth)
    if not expr.args or not expr.has(sympy.Sum):
        return expr
    return expr.func(*[_expand_sums(a, growth) for a in expr.args])


def _closed_form(term, index, low):
    """SymPy's closed form of the sum of ``term`` from ``low`` to oo (run under the guard)."""
    result = sympy.summation(term, (index, low, sympy.oo))
    return sympy.simplify(result) if not result.has(sympy.Sum) else result


#: The symbolic upper bound of :func:`finite_closed_form` (one Dummy, so that a form is remembered).
_UPPER = sympy.Dummy("n", integer=True)


def finite_closed_form(s: sympy.Sum):
    """A Sum with numeric bounds, too long to expand, in closed form (SymPy's summation formulas,
    exact for every finite range, under the guard), or None when it has none: Sum(i, (i, 1, 1094))
    is 598965 without 1094 terms."""
    if len(s.limits) != 1 or s.function.atoms(AppliedUndef):
        return None
    ((index, low, high),) = s.limits
    n = _UPPER
    try:
        general = remembered(lambda: f"a closed form of {clip(s, 40)}", _finite_sum,
                             s.function, index, low, n)
    except (BudgetExceededError, VerifyInputError, ValueError, TypeError, NotImplementedError):
        return None
    if general.has(sympy.Sum, sympy.Piecewise, sympy.oo, sympy.zoo, sympy.nan):
        return None
    return general.xreplace({n: high})


def _finite_sum(term, index, low, n):
    """Σ_{index=low}^{n} term for a symbolic integer n (run under the guard)."""
    return sympy.simplify(sympy.summation(term, (index, low, n)))


def check_sum_sizes(expressions, values: dict) -> None:
    """Refuse, before anything is built for them, the values at which a Sum of ``expressions``
    would have more terms than evaluating it allows (:func:`_do_sum`'s limits): with
    ``--family`` and ``k = 4096`` the instance was drawn (minutes) before the Sum was refused."""
    for expr in expressions:
        for s in sympy.sympify(expr).atoms(sympy.Sum):
            total = 1
            for _, low, high in s.limits:
                low, high = low.xreplace(values), high.xreplace(values)
                if not (low.is_Integer and high.is_Integer):
                    break  # an infinite or still symbolic bound: decided when it is evaluated
                total *= max(int(high - low + 1), 0)
            else:
                limit = MAX_SUM_TERMS if len(s.limits) == 1 else MAX_SUM_TERMS * 10
                # no closed form is looked for here: the check runs before an instance of size k
                # is drawn, which takes minutes at k = 4096 however cheap the sum itself would be
                if total > limit:
                    raise ClaimEvaluationError(f"claim: {s} has {total} terms here, more than the limit "
                                               f"of {limit}")


def _count(limits) -> int:
    total = 1
    for _, low, high in limits:
        total *= int(high - low + 1) if (high - low).is_Integer else 1
    return total


def _do_sum(s: sympy.Sum):
    if len(s.limits) > 1:  # SymPy merged Sum(Sum(f, a), b): sum the outer index, then the inner
        *inner, (index, low, high) = s.limits
        if not low.is_number or not high.is_number or high == INFINITY:
            raise ClaimEvaluationError(f"claim: the bounds of {s} are not finite numbers once the variables "
                                       "are fixed")
        if (high - low + 1) * max(1, _count(inner)) > MAX_SUM_TERMS * 10:
            raise ClaimEvaluationError(f"claim: {s} has more than {MAX_SUM_TERMS * 10} terms in all")
        body = sympy.Sum(s.function, *inner)
        return sympy.Add(*[_expand_sums(body.xreplace({index: sympy.Integer(v)}))
                           for v in range(int(low), int(high) + 1)])
    ((index, low, high),) = s.limits
    if not low.is_number or not (high.is_number or high == INFINITY):
        raise ClaimEvaluationError(f"claim: the bounds of {s} are not numbers once the variables are fixed")
    if high != INFINITY and high - low + 1 > MAX_SUM_TERMS:
        closed = finite_closed_form(s)
        if closed is not None:
            return closed
        raise ClaimEvaluationError(
            f"claim: {s} has {high - low + 1} terms, more than the limit of {MAX_SUM_TERMS}"
        )
    if high == INFINITY and s.function.atoms(AppliedUndef):
        if not low.is_Integer or low < 0:
            raise ClaimEvaluationError(f"claim: {s} must start at a non-negative integer, got {low}")
        return s  # a Hermite sum: each backend evaluates it whole (verify.claims.hermite_sums)
    if high == INFINITY:

        result = guarded(f"claim: {s}", _closed_form, s.function, index, low)
        if (
            result.has(sympy.Sum)
            or result.has(sympy.oo, sympy.zoo, sympy.nan)
            or isinstance(result, sympy.Piecewise)
        ):
            raise ClaimEvaluationError(
                f"claim: SymPy finds no finite closed form for {s} (give a finite upper limit)"
            )
        return result
    return sympy.Add(
        *[s.function.xreplace({index: sympy.Integer(v)}) for v in range(int(low), int(high) + 1)]
    )


def _innermost(expr) -> list:
    return [f for f in quantity_calls(expr) if not any(quantity_calls(a) for a in f.args)]


def exact(expr, backend) -> sympy.Expr:
    """Every quantity call replaced by the backend's closed form (raises Unavailable if one has none);
    a derivative of quantities is then carried out on those closed forms."""
    expr = expr.replace(is_hermite_sum, backend.hermite_sum)
    while True:
        calls = _innermost(expr)
        if not calls:
            break
        expr = expr.xreplace({f: getattr(backend, type(f).__name__)(*f.args) for f in calls})
    expr = expr.replace(lambda e: isinstance(e, sympy.Derivative), lambda e: e.doit())
    if not expr.has(sympy.Integral):
        return expr
    return expr.replace(is_integral, lambda node: exact_integral(
        node, backend, lambda inner: compile_ball(inner, backend)))


def resolve_derivatives(expr, backend) -> sympy.Expr:
    """``expr`` with each derivative of quantities (``diff(h(m), m)``) replaced by the derivative of
    their exact closed forms (``backend``: the configuration's exact quantities), so that every
    arithmetic evaluates it as an ordinary expression.  A derivative whose quantities have no
    closed form, or whose closed form holds an opaque function (a series kernel's), is left as it
    is: no arithmetic evaluates it (each says Unavailable), so it decides nothing."""
    if not expr.has(sympy.Derivative):
        return expr

    def closed(node):
        try:
            inner = exact(node.expr.xreplace(scalars_of(node.expr, backend, DERIVED_SCALARS)), backend)
            # an opaque kernel's argument may be a power (K(_t**2)), which SymPy cannot differentiate by
            value = sympy.diff(inner, *node.variable_count)
        except (Unavailable, ValueError, TypeError):
            return node
        if value.has(sympy.Derivative) or value.atoms(AppliedUndef) or value.has(sympy.Lambda):
            return node
        return value

    return expr.replace(lambda e: isinstance(e, sympy.Derivative), closed)


def scalars_of(expr, backend, names) -> dict:
    """{symbol: backend value} for the scalar quantities among ``names`` that occur in ``expr``."""
    return {s: backend.scalar(s.name) for s in expr.free_symbols if s.name in names}


#: Longest integer (in bits) lambdify may print: Python refuses int -> str past 4300 digits.
_PRINTABLE_BITS = 10_000


def _rounded(r: sympy.Rational) -> sympy.Float:
    """A long exact rational rounded to 30 digits in time linear in its length (SymPy's own
    Float(r, 30) takes minutes at twenty million bits)."""
    # ⌊r·2^e⌋ with about 120 significant bits, by one integer division (mpmath's mpf of the
    # denominator alone took minutes)
    e = r.q.bit_length() - abs(r.p).bit_length() + 120
    scaled = (r.p << e) // r.q if e >= 0 else r.p // (r.q << -e)
    with mpmath.workprec(120):
        return sympy.Float(mpmath.ldexp(mpmath.mpf(scaled), -e), 30)


def float_function(expr, symbols, backend):
    """A NumPy function of ``symbols`` evaluating ``expr`` with the float backend's quantities."""

    namespace = {name: getattr(backend, name) for name in QUANTITIES if name != "Eg"}
    # A side that is one scalar (C_sigma) arrives as its float value, not a SymPy expression.
    expr = sympy.sympify(expr)
    if expr.has(sympy.Derivative):
        raise Unavailable(f"no float64 evaluation of {clip(expr, 60)}: a derivative without a closed form")
    expr = expr.replace(lambda e: isinstance(e, AppliedUndef) and type(e).__name__ == "Eg",
                        lambda e: sympy.Float(backend.Eg(e.args[0]), 17))
    for number, s in enumerate(sorted(expr.atoms(sympy.Sum), key=str)):
        if is_hermite_sum(s):
            name = f"hermite_sum_{number}"
            namespace[name] = backend.hermite_sum_function(s, list(symbols))
            expr = expr.xreplace({s: sympy.Function(name)(*symbols)})
    namespace |= {
        "binomial": scipy.special.binom,
        "factorial": scipy.special.factorial,
        "gamma": scipy.special.gamma,
        "floor": np.floor,
        "ceiling": np.ceil,
        "sign": np.sign,
        "Heaviside": lambda x, h0=0.5: np.heaviside(x, h0),
    }
    # an exact rational too long to print ((1 + 1/n)**n at n = 10**6 has millions of digits) cannot
    # be written into the lambdified code; float64 evaluation loses nothing by rounding it first
    huge = {r: _rounded(r) for r in expr.atoms(sympy.Rational)
            if max(abs(r.p).bit_length(), r.q.bit_length()) > _PRINTABLE_BITS}
    def lambdify_with(inner, arguments):
        return sympy.lambdify(arguments, inner, modules=[namespace, "numpy"])

    # each integral a function of the claim's variables, innermost first (quadrature per point)
    for number, node in enumerate(sorted(expr.atoms(sympy.Integral), key=sympy.count_ops)):
        name = f"integral_{number}"
        namespace[name] = float_integral(node, list(symbols), lambdify_with)
        expr = expr.xreplace({node: sympy.Function(name)(*symbols)})
    compiled = sympy.lambdify(list(symbols), expr.xreplace(huge) if huge else expr,
                              modules=[namespace, "numpy"])

    def function(*args):
        try:
            # a 1/0 or an overflow gives inf or nan, which every caller reads as such; NumPy's
            # warning about it only reached the terminal (verify calibrate printed one)
            with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
                return compiled(*args)
        except NameError as exc:  # a SymPy function NumPy has no counterpart of (dirichlet_eta)
            raise Unavailable(f"no float64 evaluation of {clip(expr, 60)}: {exc}") from None

    return function


# --- balls ----------------------------------------------------------------------------------------
_ARB_METHODS = (
    "exp",
    "log",
    "sin",
    "cos",
    "tanh",
    "sinh",
    "cosh",
    "atan",
    "asinh",
    "erf",
    "erfc",
    "asin",
    "acos",
    "gamma",
    "floor",
)
#: SymPy's name -> Arb's, where they differ.
_ARB_NAMED = {"ceiling": "ceil"}


def ball(expr, env: dict, backend):
    """A ball containing ``expr`` for every value of its symbols in the balls of ``env``."""
    return compile_ball(expr, backend)(env)


def compile_ball(expr, backend):
    """``expr`` as a function env -> ball (compiled once: the certified step evaluates it thousands of times).

    Number subtrees are evaluated at compile time, at the working precision then in force.
    Raises Unavailable for a node it cannot enclose (then the certified step escalates)."""


    if is_integral(expr):  # before the constants: an integral with number ends is a number
        return ball_integral(expr, lambda inner: compile_ball(inner, backend))
    if expr.is_number and not expr.atoms(AppliedUndef) and not expr.has(sympy.Integral):
        try:
            value = constant(expr)
        except ValueError as exc:  # CertificationError is a ValueError
            raise Unavailable(str(exc)) from None
        return lambda env: value
    if isinstance(expr, sympy.Derivative):
        raise Unavailable(f"no ball for {clip(expr, 60)}: a derivative without a closed form")
    if isinstance(expr, sympy.Symbol):

        def symbol(env, s=expr):
            if s not in env:
                raise Unavailable(f"no ball for {s}")
            return env[s]

        return symbol
    if isinstance(expr, sympy.Add | sympy.Mul):
        parts = [compile_ball(a, backend) for a in expr.args]
        add = isinstance(expr, sympy.Add)

        def fold(env):
            total = parts[0](env)
            for part in parts[1:]:
                total = total + part(env) if add else total * part(env)
            return total

        return fold
    if isinstance(expr, sympy.Pow):
        base = compile_ball(expr.base, backend)
        exponent = number_fraction(expr.exp) if expr.exp.is_number else None
        if exponent is not None and exponent.denominator == 1:
            return lambda env, n=exponent.numerator: integer_power(base(env), n)
        if exponent is not None and exponent.denominator == 2 and exponent > 0:
            if isinstance(expr.base, sympy.Max) and sympy.Integer(0) in expr.base.args:
                # Max(0, b) >= 0 whatever b: its root never NaN for a ball that rounding takes below 0
                return lambda env, n=exponent.numerator: integer_power(_root_of_nonnegative(base(env)), n)
            return lambda env, n=exponent.numerator: integer_power(base(env).sqrt(), n)
        power = compile_ball(expr.exp, backend)
        return lambda env: (power(env) * base(env).log()).exp()
    if is_hermite_sum(expr):
        return backend.hermite_sum_function(expr, lambda e: compile_ball(e, backend))
    name = type(expr).__name__
    if name == "Eg":
        value = backend.Eg(expr.args[0])
        return lambda env: value
    if isinstance(expr, AppliedUndef) and name in QUANTITIES:
        method = getattr(backend, name)
        arguments = [_compile_argument(a, backend) for a in expr.args]
        return lambda env: method(*[a(env) for a in arguments])
    args = [compile_ball(a, backend) for a in expr.args]
    if name == "Abs":
        return lambda env: abs(args[0](env))
    if name in ("sign", "Heaviside"):
        low = -1 if name == "sign" else 0

        def step(env):
            value = args[0](env)
            if value > 0:
                return arb(1)
            if value < 0:
                return arb(low)
            if value == 0 and name == "sign":
                return arb(0)
            return interval(low, 1)

        return step
    if name in ("Max", "Min"):
        return lambda env: interval(
            _extreme([a(env).lower() for a in args], name), _extreme([a(env).upper() for a in args], name)
        )
    if name in ("asin", "acos"):
        known = backend.within_unit_interval(expr.args[0])
        return lambda env: _arcsine(args[0](env), name, known)
    if name in _ARB_METHODS and len(args) == 1:
        return lambda env: getattr(args[0](env), name)()
    if name in _ARB_NAMED:  # a ball across a jump of floor or ceil encloses both values
        return lambda env: getattr(args[0](env), _ARB_NAMED[name])()
    if name == "factorial":
        return lambda env: (args[0](env) + 1).gamma()
    raise Unavailable(f"no ball arithmetic for {name}")


def _root_of_nonnegative(value):
    """The square root of a ball whose true value is known to be ≥ 0 (Max(0, b)): its part below 0
    is rounding, so the root is taken of [max(lower, 0), upper] (Arb's own sqrt gives NaN)."""
    zero = arb(0)
    low = value.lower() if value.lower() > zero else zero
    return monotone_image(lambda t: t.sqrt(), low, value.upper(), increasing=True)


def _arcsine(value, name: str, known_inside: bool):
    """asin or acos of a ball, as the monotone image of its endpoints (Arb alone gives NaN for a ball
    touching ±1).  A ball reaching beyond ±1 is clamped only when its argument is known to lie in
    [-1, 1] (a variable declared there, whose balls stick out by the radius's rounding alone);
    otherwise it encloses nothing: a NaN ball, which decides nothing (the prover splits it, and the
    search names the domain error if the argument really leaves [-1, 1])."""
    one = arb(1)
    if known_inside:
        low, high = clamped_endpoints(value, -one, one)
    elif value.lower() >= -1 and value.upper() <= 1:
        low, high = value.lower(), value.upper()
    else:
        return arb("nan")
    return monotone_image(lambda t: getattr(t, name)(), low, high, increasing=name == "asin")


def _extreme(points: list, name: str):
    """The largest (Max) or smallest (Min) of exact endpoints, compared exactly."""
    best = points[0]
    for point in points[1:]:
        if (point > best) if name == "Max" else (point < best):
            best = point
    return best


def _compile_argument(expr, backend):
    """An argument of a quantity: an integer stays an int (mu(3)), everything else becomes a ball."""
    if expr.is_Integer:
        return lambda env, n=int(expr): n
    return compile_ball(expr, backend)
