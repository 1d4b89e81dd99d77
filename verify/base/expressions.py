"""Untrusted text to SymPy expressions through a whitelist, never through ``eval``.

Every user string that becomes an expression (``expr:`` activations on the
command line and in instance files, exact values read back from the cache,
the claim language) goes through :func:`parse_expression`.  SymPy's own
``sympify`` and ``parse_expr`` run ``eval`` on their input, so a string such
as ``__import__('os').system(...)`` would execute; here the text is only
*parsed* by Python's :mod:`ast` (parsing executes nothing) and the tree is
walked node by node.  The walk admits

- number literals (int and decimal, each read as the exact rational it spells: 0.3 is 3/10;
  no complex, strings or bytes),
- the names the caller declares (variables, constants such as ``pi``),
- ``+ - * / **`` and unary ``+ -``,
- calls of the functions in the caller's whitelist, by plain name, with
  positional arguments only (and, where a function needs them, small
  non-negative integer literals, e.g. the degree of ``hermite_prob``),
- comparisons ``== <= >= < >`` only when the caller asks for relations,

and builds the SymPy expression itself from those nodes.  Anything else
(attribute access, subscripts, lambdas, comprehensions, keyword arguments,
underscore names, non-ASCII identifiers, which Python would NFKC-normalise)
is refused with :class:`~verify.base.errors.MalformedExpressionError` naming the
construct.  Sizes are bounded before SymPy sees anything, so no input can make
the parser hang: text length, nesting depth, node count, exponents and integer
literal sizes all have limits (constants below, each with its reason).
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NoReturn

import mpmath
import sympy

from verify.base.errors import ExpressionLimitError, MalformedExpressionError, VerifyInputError
from verify.base.errors import clip as _clip
from verify.base.validation import large_sizes_allowed

# A paper's formula fits in a few hundred characters; 2000 leaves room and keeps
# ast.parse and the walk below well under a millisecond per node.
MAX_LENGTH = 2000
# Python's own parser gives up near 200 nested parentheses with a MemoryError or
# RecursionError; 50 levels is far beyond any formula and far from that edge.
MAX_DEPTH = 50
MAX_NODES = 1000
# x**100 is already a degree-100 polynomial activation (its Hermite expansion has
# 101 terms); larger powers only make SymPy slow (x**10**9 would expand forever).
MAX_EXPONENT = 100
# An integer literal of 30 digits is exact beyond any float; longer ones are typos or attacks.
MAX_INTEGER_DIGITS = 30
# Float literals stay inside float64's normal range with room to multiply: every
# expression also runs in NumPy, where 1e-400 would silently be 0.0 and 1e400 inf.
MIN_FLOAT_LITERAL, MAX_FLOAT_LITERAL = 1e-200, 1e200
# Integer arguments such as factorial(n) or hermite_prob(n, x): n <= 100 keeps them instant.
MAX_INTEGER_ARGUMENT = 100

# Static limits on the *built* SymPy tree, checked node by node as the walk builds it, so that
# nothing SymPy later expands, integrates or simplifies can be large.  ``--force``
# (verify.base.validation.allow_large_sizes) lifts these four; the guard of verify.base.budget still applies.
#: SymPy nodes: hermite_prob(100, hermite_prob(100, x)) is a few hundred characters but would
#: be thousands of nodes; a paper's formula is a few hundred.
MAX_TREE_SIZE = 5000
#: A constant's fractional power p/q is taken exactly only for q up to this (x**0.5, 2**(1/3), 10**0.25 pass).
MAX_ROOT_ORDER = 10**6
#: Total degree after expansion, bounded without expanding (deg(a*b) = deg a + deg b, deg(a**n) =
#: n deg a): ((x+1)**100+1)**100 would expand to 10^4 terms; (x+1)**100*(x-1)**100 still passes.
MAX_DEGREE = 200
#: Nested exp/log/sinh/cosh or powers with a variable exponent: exp(exp(exp(x))) already
#: overflows float64 at x = 2; every activation of the paper needs two levels at most.
MAX_TOWER = 3
#: Under --force integer literals may be longer, up to Python's own int/str conversion limit.
FORCED_INTEGER_DIGITS = 4000
#: Largest |value| of a constant (a subexpression without variables), as a power of 10.  Not
#: lifted by --force: every expression also runs in float64, whose range ends near 1e308, and an
#: mpmath evaluation of exp(exp(exp(exp(10)))) needs an exponent with 10^9565 digits.
MAX_CONSTANT_LOG10 = 300


@dataclass(frozen=True)
class Function:
    """A whitelisted function: its SymPy builder, arity and which arguments are small integers."""

    build: Callable
    min_arity: int
    max_arity: float | None = None  # None: exactly min_arity; math.inf: any number above min_arity
    integer_arguments: tuple[int, ...] = ()
    #: args -> the conditions under which the value is defined, as (condition, expression) pairs
    #: (condition "nonzero", "nonnegative", "positive" or "unit": in [-1, 1]); the parser records
    #: them before SymPy rewrites the call (sqrt(x)**2 is x), :mod:`verify.claims.domains`
    domain: Callable[..., tuple] | None = None

    def accepts(self, count: int) -> bool:
        return self.min_arity <= count <= (self.min_arity if self.max_arity is None else self.max_arity)

    def arity_text(self) -> str:
        if self.max_arity is None:
            return str(self.min_arity)
        return f"at least {self.min_arity}" if self.max_arity == math.inf else \
            f"{self.min_arity} to {self.max_arity}"


def _real_power_modulus(x):
    """|x| with |b^p| written |b|^p for a real base b and a real number p, factor by factor of a
    product (|ab| = |a||b|).  The principal power of a negative b is |b|^p e^{iπp}, of modulus
    |b|^p, so both forms agree on the whole line (at b = 0 as well); the second is visibly real,
    which the existence step needs: Eg(Abs(g**(1/3))) is E|g|^{1/3} instead of a refusal of the
    complex g^{1/3}.  Abs and abs of the languages."""
    x = sympy.sympify(x)
    if isinstance(x, sympy.Mul):
        return sympy.Mul(*(_real_power_modulus(factor) for factor in x.args))
    if x.is_Pow and x.exp.is_number and x.exp.is_extended_real is True and x.base.is_extended_real is True:
        return sympy.Abs(x.base) ** x.exp
    return sympy.Abs(x)


_real_power_modulus.__name__ = "Abs"  # as SymPy's Abs was named in the parser's one-line errors


def _sympy_functions() -> dict[str, Function]:

    one = {name: Function(getattr(sympy, name), 1) for name in (
        "exp", "sin", "cos", "tanh", "sinh", "cosh", "atan", "asinh", "erf", "erfc", "sign", "Heaviside")}
    one |= {name: Function(getattr(sympy, name), 1, domain=domain) for name, domain in (
        ("log", positive_argument), ("sqrt", nonnegative_argument), ("cbrt", nonnegative_argument))}
    return one | {
        "Abs": Function(_real_power_modulus, 1),
        "abs": Function(_real_power_modulus, 1),
        # SymPy flattens Max(Max(a, b), c) to Max(a, b, c); its printed form must parse back.
        "Max": Function(sympy.Max, 2, math.inf),
        "Min": Function(sympy.Min, 2, math.inf),
        "hermite_prob": Function(sympy.hermite_prob, 2, integer_arguments=(0,)),
        "factorial": Function(sympy.factorial, 1, integer_arguments=(0,), domain=nonnegative_argument),
    }


def positive_argument(x) -> tuple:
    return (("positive", x),)


def nonnegative_argument(x) -> tuple:
    return (("nonnegative", x),)


def unit_argument(x) -> tuple:
    return (("unit", x),)


def activation_functions() -> dict[str, Function]:
    """The functions an ``expr:`` activation may call (all have mpmath and NumPy twins)."""
    return _sympy_functions()


def standard_constants() -> dict[str, object]:

    return {"pi": sympy.pi, "E": sympy.E}


_REFUSED_CONSTRUCTS = {
    ast.Attribute: "attribute access is", ast.Subscript: "subscripts are", ast.Lambda: "lambda is",
    ast.IfExp: "conditional expressions are", ast.ListComp: "comprehensions are",
    ast.SetComp: "comprehensions are", ast.DictComp: "comprehensions are", ast.GeneratorExp: "generators are",
    ast.Dict: "dicts are", ast.Set: "sets are", ast.List: "lists are", ast.Tuple: "tuples are",
    ast.NamedExpr: "assignment (:=) is", ast.Starred: "starred arguments are", ast.JoinedStr: "strings are",
    ast.FormattedValue: "strings are", ast.BoolOp: "and/or are", ast.Await: "await is", ast.Yield: "yield is",
    ast.YieldFrom: "yield is", ast.Slice: "slices are",
}

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.Div: operator.truediv, ast.Pow: operator.pow}
_RELATIONS = {ast.Eq: "==", ast.LtE: "<=", ast.GtE: ">=", ast.Lt: "<", ast.Gt: ">"}


@dataclass(frozen=True)
class Relation:
    """``lhs OP rhs`` as parsed from a claim; OP is one of ``== <= >= < >``."""

    lhs: object
    op: str
    rhs: object


def parse_expression(text: str, *, variables: Mapping[str, object],
                     functions: Mapping[str, Function] | None = None,
                     constants: Mapping[str, object] | None = None,
                     allow_relation: bool = False, what: str = "expression",
                     max_integer_digits: int = MAX_INTEGER_DIGITS, guards: list | None = None):
    """Parse untrusted ``text`` into a SymPy expression (or a :class:`Relation`).

    Parameters
    ----------
    variables:
        Names the text may use, mapped to the SymPy objects they stand for.
    functions:
        Whitelisted callables (default: :func:`activation_functions`).
    constants:
        Named constants (default: ``pi`` and ``E``).
    allow_relation:
        Admit one top-level comparison and return a :class:`Relation`.
    what:
        How error messages name the text (e.g. ``"activation 'expr:...'"``).
    max_integer_digits:
        Longest integer literal admitted (exact values read back from the cache carry
        rationals with denominators of a few hundred digits).
    guards:
        A list that receives the domain condition of each operation as written:
        (condition, expression, text) (:mod:`verify.claims.domains`).

    Raises
    ------
    MalformedExpressionError
        With one line naming the offending token or construct.
    """
    if not isinstance(text, str):
        raise MalformedExpressionError(f"{what}: expected text, got {type(text).__name__}")
    _check_text(text, what)
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise MalformedExpressionError(f"{what}: cannot parse {_clip(text)!r} ({exc.msg})") from None
    except (ValueError, MemoryError, RecursionError):
        raise MalformedExpressionError(f"{what}: cannot parse {_clip(text)!r}") from None
    functions = activation_functions() if functions is None else functions
    constants = standard_constants() if constants is None else constants
    walker = _Walker(text.strip(), dict(variables), dict(functions), dict(constants), what,
                     max_integer_digits)
    body = tree.body
    if isinstance(body, ast.Compare):
        if not allow_relation:
            raise MalformedExpressionError(f"{what}: comparisons are not allowed here, found {_clip(text)!r}")
        if len(body.ops) != 1:
            raise MalformedExpressionError(f"{what}: chained comparisons are not allowed ({_clip(text)!r})")
        op = _RELATIONS.get(type(body.ops[0]))
        if op is None:
            raise MalformedExpressionError(f"{what}: relation {type(body.ops[0]).__name__} is not one of "
                                           f"{', '.join(_RELATIONS.values())}")
        relation = Relation(walker.expression(body.left, 1), op, walker.expression(body.comparators[0], 1))
        _check_finite(relation.lhs, text, what)
        _check_finite(relation.rhs, text, what)
        if guards is not None:
            guards.extend(walker.guards)
        return relation
    if allow_relation:
        raise MalformedExpressionError(f"{what}: expected a relation (==, <=, >=, <, >), got {_clip(text)!r}")
    expr = walker.expression(body, 1)
    _check_finite(expr, text, what)
    if guards is not None:
        guards.extend(walker.guards)
    return expr


def _forced() -> bool:

    return large_sizes_allowed()


def _nonzero_digits(literal: str) -> bool:
    return any(ch in "123456789" for ch in literal.lower().split("e")[0])


def _text(value) -> str:
    """str(value), or a description when it holds an integer beyond Python's 4300-digit str() limit."""
    try:
        return str(value)
    except ValueError:
        return "a number of more than 4300 digits"


def _check_text(text: str, what: str) -> None:
    if len(text) > MAX_LENGTH:
        raise MalformedExpressionError(f"{what}: text of {len(text)} characters is longer than the "
                                       f"limit of {MAX_LENGTH}")
    if not text.strip():
        raise MalformedExpressionError(f"{what}: empty expression")
    bad = next((ch for ch in text if not (ch.isascii() and (ch.isprintable() or ch in " \t"))), None)
    if bad is not None:
        # Python folds non-ASCII identifiers by NFKC, so 'ｅval' would reach the walk as 'eval':
        # refuse them outright rather than reason about normal forms.
        raise MalformedExpressionError(f"{what}: character {bad!r} is not allowed (printable ASCII only)")
    depth = deepest = 0
    for ch in text:
        depth += ch in "([{"
        depth -= ch in ")]}"
        deepest = max(deepest, depth)
    if deepest > MAX_DEPTH:
        raise MalformedExpressionError(f"{what}: brackets nested {deepest} deep, more than the limit of "
                                       f"{MAX_DEPTH}")


def _check_finite(expr, text: str, what: str) -> None:

    if isinstance(expr, sympy.Basic) and expr.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        raise MalformedExpressionError(f"{what}: {_clip(text)!r} is not finite (it simplifies to "
                                       f"{_clip(_text(expr))})")


def plain_number(value) -> mpmath.mpf | mpmath.mpc | None:
    """A SymPy number to 15 digits as an mpmath number; None when it is not a plain number (a Sum,
    an unevaluated integral, a symbol).  An integral or sum is never evaluated here: SymPy's evalf
    integrates numerically, 14 CPU s for ∫₀⁴ acos(cos t) dt across its kink at parse time."""
    if isinstance(value, sympy.Basic) and value.has(sympy.Integral, sympy.Sum, sympy.Product):
        return None
    try:
        with mpmath.workdps(15):
            return mpmath.mpmathify(value.evalf(15))
    except (TypeError, ValueError, ArithmeticError, RecursionError, AttributeError):
        return None


def substituted_unevaluated(expr, values: dict):
    """``expr`` with ``values`` put in and nothing evaluated, for reading a value's 15 digits
    (:func:`plain_number`): SymPy computes factorial(10**6) exactly, 5.6 million digits, when a
    value is put in the usual way.  Not ``sympy.evaluate(False)``: setting that flag empties
    SymPy's cache each time."""
    if expr in values:
        return values[expr]
    if not expr.args or not expr.free_symbols & values.keys():
        return expr
    args = [substituted_unevaluated(a, values) for a in expr.args]
    try:
        return expr.func(*args, evaluate=False)
    except TypeError:  # a class without the keyword (a Tuple, an AppliedUndef): built as usual
        return expr.func(*args)


def visibly_complex(number) -> bool:
    """Whether a 15-digit value is not real beyond its rounding: |Im| > 1e-12 (1 + |value|).  The
    one test of both the parser (a constant typed in) and the configurations (a constant made by
    a quantifier's value); a NaN or an infinity is not *visibly* complex (its own check refuses it)."""
    return (isinstance(number, mpmath.mpc) and mpmath.isfinite(number)
            and abs(number.imag) > 1e-12 * (1 + abs(number)))


class _Walker:
    """Builds SymPy objects from whitelisted AST nodes; every other node is refused."""

    def __init__(self, source, variables, functions, constants, what, max_integer_digits):
        self.source, self.max_integer_digits = source, max_integer_digits
        self.variables, self.functions, self.constants, self.what = variables, functions, constants, what
        self.nodes = 0
        self.measures: dict = {}  # SymPy node -> (tree size, degree bound, tower height)
        #: (condition, expression, the operation as written) for each operation defined only on
        #: part of the line (Function.domain), recorded before SymPy rewrites it
        self.guards: list[tuple[str, object, str]] = []

    def fail(self, message: str) -> NoReturn:
        raise MalformedExpressionError(f"{self.what}: {message}")

    def limit(self, message: str) -> NoReturn:
        raise ExpressionLimitError(f"{self.what}: {message}")

    def expression(self, node, depth: int):
        self.nodes += 1
        if self.nodes > MAX_NODES:
            self.fail(f"more than {MAX_NODES} terms and operators")
        if depth > MAX_DEPTH:
            self.fail(f"expression nested more than {MAX_DEPTH} levels deep")
        if isinstance(node, ast.Constant):
            return self.constant(node)
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.UnaryOp):
            if not isinstance(node.op, ast.UAdd | ast.USub):
                self.fail(f"operator {type(node.op).__name__} is not allowed (only + - * / **)")
            operand = self.expression(node.operand, depth + 1)
            return -operand if isinstance(node.op, ast.USub) else operand
        if isinstance(node, ast.BinOp):
            apply = _BINARY.get(type(node.op))
            if apply is None:
                self.fail(f"operator {type(node.op).__name__} is not allowed (only + - * / **)")
            left = self.expression(node.left, depth + 1)
            right = self.expression(node.right, depth + 1)
            if isinstance(node.op, ast.Pow):
                self.check_power(left, right)
            if isinstance(node.op, ast.Div) and right == 0:
                self.fail("division by zero")
            result = self.build(apply, left, right)
            self.guard_operation(node, left, right)
            return result
        if isinstance(node, ast.Call):
            return self.call(node, depth)
        if isinstance(node, ast.Compare):
            self.fail("a comparison may only stand at the top level")
        construct = _REFUSED_CONSTRUCTS.get(type(node), f"the construct {type(node).__name__} is")
        self.fail(f"{construct} not allowed")

    def constant(self, node: ast.Constant):

        value = node.value
        if isinstance(value, bool) or value is None or value is Ellipsis:
            self.fail(f"constant {value!r} is not a number")
        if isinstance(value, int):
            limit = self.max_integer_digits
            if _forced():
                limit = max(limit, FORCED_INTEGER_DIGITS)
            # Count digits without str(): Python refuses str() of an int beyond 4300 digits.
            digits = len(str(abs(value))) if value.bit_length() < 13000 else int(value.bit_length() * 0.30103)
            if digits > limit:
                self.limit(f"integer literal with {digits} digits is longer than {limit} digits")
            return sympy.Integer(value)
        if isinstance(value, float):
            # Read the literal's own digits: float('1e-400') would silently be 0.0.
            literal = ast.get_source_segment(self.source, node) or repr(value)
            if not math.isfinite(value) or (value == 0) != (not _nonzero_digits(literal)) \
                    or (value != 0 and not MIN_FLOAT_LITERAL <= abs(value) <= MAX_FLOAT_LITERAL):
                self.fail(f"number {literal} is outside [{MIN_FLOAT_LITERAL:g}, {MAX_FLOAT_LITERAL:g}] in "
                          "magnitude (the NumPy twins evaluate in float64)")
            # The literal is the exact decimal the user typed (0.3 is 3/10, not the double nearest
            # it): a Float would be compared at 53 bits or nsimplified to a nearby fraction, and a
            # verdict labelled exact or certified would then be about another number.
            return sympy.Rational(literal.replace("_", ""))
        if isinstance(value, str | bytes):
            self.fail(f"string {_clip(repr(value), 30)} is not allowed")
        self.fail(f"constant {value!r} is not a real number")

    def name(self, name: str):
        if name.startswith("_"):
            self.fail(f"name {name!r} is not allowed (underscore names are never admitted)")
        if name in self.variables:
            return self.variables[name]
        if name in self.constants:
            return self.constants[name]
        if name in self.functions:
            self.fail(f"function {name!r} must be called, e.g. {name}(x)")
        allowed = ", ".join(sorted([*self.variables, *self.constants]))
        self.fail(f"unknown name {name!r} (allowed: {allowed})")

    def call(self, node: ast.Call, depth: int):
        func = node.func
        if not isinstance(func, ast.Name):
            construct = "attribute access" if isinstance(func, ast.Attribute) else "calling an expression"
            self.fail(f"{construct} is not allowed; call a function by its name, e.g. exp(x)")
        name = func.id
        if name.startswith("_"):
            self.fail(f"name {name!r} is not allowed (underscore names are never admitted)")
        spec = self.functions.get(name)
        if spec is None:
            allowed = ", ".join(sorted(self.functions))
            self.fail(f"unknown function {name!r} (allowed: {allowed})")
        if node.keywords:
            self.fail(f"keyword arguments are not allowed in {name}(...)")
        if not spec.accepts(len(node.args)):
            self.fail(f"{name} takes {spec.arity_text()} argument(s), got {len(node.args)}")
        args = [self.expression(a, depth + 1) for a in node.args]
        for i in spec.integer_arguments:
            value = args[i]
            if not (getattr(value, "is_Integer", False) and 0 <= value <= MAX_INTEGER_ARGUMENT):
                self.fail(f"argument {i + 1} of {name} must be an integer in [0, {MAX_INTEGER_ARGUMENT}], "
                          f"got {_clip(_text(value), 30)}")
        result = self.build(spec.build, *args)
        if spec.domain is not None:
            shown = _clip(ast.get_source_segment(self.source, node) or name, 40)
            self.guards.extend((condition, expr, shown) for condition, expr in spec.domain(*args)
                               if getattr(expr, "free_symbols", None))
        return result

    def guard_operation(self, node: ast.BinOp, left, right) -> None:
        """The guards of a division (the divisor ≠ 0) and a power (a negative power's base ≠ 0; a
        non-integer power's base ≥ 0; a variable exponent that may be ≤ 0 needs its base ≠ 0
        where it is), recorded when they hold a variable."""
        shown = _clip(ast.get_source_segment(self.source, node) or "", 40)
        if isinstance(node.op, ast.Div) and getattr(right, "free_symbols", None):
            self.guards.append(("nonzero", right, shown))
        elif isinstance(node.op, ast.Pow) and getattr(left, "free_symbols", None):
            if right.is_integer is not True:
                self.guards.append(("nonnegative", left, shown))
            if right.is_number and right.is_negative:
                self.guards.append(("nonzero", left, shown))
        variable_exponent = isinstance(node.op, ast.Pow) and getattr(right, "free_symbols", None)
        if variable_exponent and right.is_positive is not True:
            # b**e with e a variable: 0**e is undefined for e <= 0 (x**(x - 1) at x = 0, red team 7).
            # "b != 0 or e > 0" as one guard that carries e's range: |b| + Max(e, 0) > 0, or, for an
            # integer e, |b| + Max(e + 1, 0) > 0 (0**0 = 1).  A Sum's index p in rho**p is not a
            # box variable, so the guard of rho**p is left to its own checks, as before.
            lowest = right + 1 if right.is_integer else right
            self.guards.append(("positive", sympy.Abs(left) + sympy.Max(lowest, 0), shown))

    def build(self, function, *args):
        try:
            result = function(*args)
        except VerifyInputError as exc:
            raise type(exc)(f"{self.what}: {exc}") from None
        except (TypeError, ValueError, ArithmeticError, RecursionError) as exc:
            # SymPy refuses some well-typed inputs (e.g. Heaviside of a relation); say so in one line.
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            self.fail(f"cannot build {getattr(function, '__name__', function)}"
                      f"({', '.join(_clip(_text(a), 20) for a in args)}): {_clip(reason)}")
        self.check_size(result)
        self.check_budget(result)
        return result

    def measure(self, expr) -> tuple[int, int, int]:
        """(SymPy nodes, a bound on the total degree after expansion, exp/log tower height)."""

        known = self.measures.get(expr)
        if known is not None:
            return known
        if not isinstance(expr, sympy.Basic) or not expr.args:
            free = isinstance(expr, sympy.Symbol)
            known = (1, int(free), 0)
        else:
            parts = [self.measure(a) for a in expr.args]
            size = 1 + sum(p[0] for p in parts)
            tower = max(p[2] for p in parts)
            degrees = [p[1] for p in parts]
            if isinstance(expr, sympy.Add):
                degree = max(degrees)
            elif isinstance(expr, sympy.Mul):
                degree = sum(degrees)
            elif isinstance(expr, sympy.Pow):
                base, exponent = expr.args
                if exponent.is_Number:
                    degree = math.ceil(abs(float(exponent)) * degrees[0]) if degrees[0] else 0
                else:
                    degree = degrees[0] + degrees[1]
                    tower = max(parts[0][2], parts[1][2] + 1) if degrees[1] else tower
            else:
                degree = max(degrees)
                # Constants count too: log(log(log(log(pi)))) turns complex and SymPy's evaluation
                # of deeper ones grows exponentially.
                if isinstance(expr, sympy.exp | sympy.log | sympy.sinh | sympy.cosh):
                    tower += 1
            known = (size, degree, tower)
        self.measures[expr] = known
        return known

    def check_budget(self, result) -> None:
        """The static limits on what SymPy will later expand, integrate or simplify."""

        if not isinstance(result, sympy.Basic):
            return
        size, degree, tower = self.measure(result)
        if not _forced() and (size > MAX_TREE_SIZE or degree > MAX_DEGREE or tower > MAX_TOWER):
            # printed only here: printing every node the parser builds cost verify check seconds
            shown = _clip(_text(result), 40) if size < 200 else f"a {size}-node subexpression"
            if size > MAX_TREE_SIZE:
                self.limit(f"{shown} has {size} SymPy nodes, more than the limit of {MAX_TREE_SIZE} "
                           "(pass --force to lift it)")
            if degree > MAX_DEGREE:
                self.limit(f"{shown} has degree {degree} after expansion, more than the limit of "
                           f"{MAX_DEGREE} (pass --force to lift it)")
            if tower > MAX_TOWER:
                self.limit(f"{shown} nests exp/log {tower} deep, more than the limit of {MAX_TOWER} "
                           "(pass --force to lift it)")
        if result.is_number and not result.is_Rational:
            self.check_magnitude(result)
        elif result.is_Rational and max(abs(result.p), result.q).bit_length() > 3.33 * self.rational_digits():
            # hermite_prob(8, 1e-200) is about 105 but its denominator has 1600 digits, and SymPy's
            # roots of such rationals factor them (seconds per sqrt): digits are a cost, too.
            self.limit(f"the constant {_clip(_text(result), 30)} has a numerator or denominator of more than "
                       f"{self.rational_digits()} digits")
        elif result.is_Rational and \
                abs(result.p).bit_length() - result.q.bit_length() > 3.33 * MAX_CONSTANT_LOG10:
            self.limit(f"the constant {_clip(_text(result), 30)} has more than {MAX_CONSTANT_LOG10} digits "
                       f"(constants stay within 1e{MAX_CONSTANT_LOG10} in magnitude: every expression also "
                       "runs in float64)")

    def rational_digits(self) -> int:
        """Longest numerator or denominator of a constant: 300 digits, or the caller's literal limit."""
        return max(MAX_CONSTANT_LOG10, self.max_integer_digits)

    def check_magnitude(self, value) -> None:
        """|value| <= 10**MAX_CONSTANT_LOG10; safe to evaluate because its parts already passed."""

        number = plain_number(value)
        if number is None:
            return  # not a plain number (e.g. a Sum): later steps decide
        size = abs(number)
        if visibly_complex(number):
            self.fail(f"the constant {_clip(_text(value), 40)} is not real (about {mpmath.nstr(number, 3)}); "
                      "every quantity of the model is real")
        if not mpmath.isfinite(size) or (size and mpmath.log10(size) > MAX_CONSTANT_LOG10):
            self.limit(f"the constant {_clip(_text(value), 40)} is about {mpmath.nstr(number, 3)}, beyond "
                       f"1e{MAX_CONSTANT_LOG10} in magnitude (every expression also runs in float64)")

    def check_power(self, base, exponent) -> None:
        if getattr(exponent, "is_Number", False):
            limit = 10 * MAX_EXPONENT if _forced() else MAX_EXPONENT
            if abs(exponent) > limit:
                self.limit(f"exponent {_clip(_text(exponent), 30)} exceeds the limit of {limit}")
            if getattr(base, "is_Number", False) and base != 0:
                # a constant to a fractional power: SymPy extracts exact roots, and a root of order
                # 10^163 (from a decimal exponent such as 3e-147, found by the fuzz suite) never ends
                if exponent.is_Rational and exponent.q > MAX_ROOT_ORDER:
                    self.limit(f"{_clip(_text(base), 30)}**{_clip(_text(exponent), 30)} takes a root of "
                               f"order {_clip(str(exponent.q), 20)} (constants take roots of order at "
                               f"most {MAX_ROOT_ORDER})")
                digits = abs(float(exponent)) * abs(math.log10(abs(float(base)) or 1.0))
                if digits > MAX_CONSTANT_LOG10:
                    self.limit(f"{base}**{exponent} has about {digits:.0f} digits (constants stay within "
                               f"1e{MAX_CONSTANT_LOG10} in magnitude)")

    def check_size(self, result) -> None:

        # Products and powers of powers merge exponents (x**60 * x**60 = x**120): check the result.
        if isinstance(result, sympy.Pow) and result.exp.is_Number and abs(result.exp) > MAX_EXPONENT \
                and not _forced():
            self.limit(f"power {_clip(_text(result), 30)} exceeds the exponent limit of {MAX_EXPONENT}")
        if isinstance(result, sympy.Mul):
            for factor in result.args:
                self.check_size(factor)
