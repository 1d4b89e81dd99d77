r"""Quantifiers of a claim: ``--for`` ranges and bindings, ``--prob`` and the instance seeds.

``--for`` takes one of

- ``NAME in [a, b]``   a real variable, every value in the closed interval (a = b is one point);
- ``NAME in a..b``     an integer variable, every integer from a to b;
- ``NAME in {v, w}``   the listed values;
- ``NAME in R``        a real variable over the whole line (also ``(-oo, oo)``), or a half-line
  ``[a, oo)`` / ``(-oo, b]``: decided by the methods of :mod:`verify.claims.unbounded`;
- ``NAME = expr``      a binding: NAME is the value of ``expr`` (in the variables declared before
  it, e.g. ``xi = sqrt(k)/2``, ``d = 8*k``, or a pinned point ``m = 0.25``).

Bounds and values are parsed by the same whitelist parser as claims.  ``k`` and ``d`` are
positive integers (≤ the suite's size limits), ``xi`` a real in (0, 10⁶]; the domain of every
other variable comes from the quantities it is the argument of (m in h(m) lies in [−1, 1]),
checked in :mod:`verify.claims.model`.  ``--prob '>= q over c, c_hat'`` says the relation holds
with probability at least q (an expression in k, xi, d) over the named random parts of the
instance: ``c``, ``c_hat`` and ``W`` (the base rows, with u and û, which must stay ⊥ span W).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import sympy

from verify.base.errors import InvalidParameterError
from verify.base.expressions import parse_expression
from verify.base.validation import MAX_SCALE, SizeLimitError, within_limit
from verify.claims.language import (
    ASYMPTOTIC,
    QUANTITIES,
    SCALARS,
    claim_functions,
    exact_number,
    variable_symbol,
)


class QuantifierError(InvalidParameterError):
    """A ``--for``, ``--prob``, ``--seeds`` or ``--growth`` text that cannot be read, or out of its domain."""


class UnusedActivationError(QuantifierError):
    """``--activation`` given for a claim that uses no quantity of an activation."""


class UnusedQuantifierError(QuantifierError):
    """A ``--for`` whose variable does not occur in the claim (``text``: that quantifier)."""

    def __init__(self, message: str, text: str = ""):
        super().__init__(message)
        self.text = text


_NAME = r"[A-Za-z][A-Za-z0-9_]*"
_RANGE = re.compile(rf"^\s*({_NAME})\s+in\s+(.+?)\s*$", re.S)
_BINDING = re.compile(rf"^\s*({_NAME})\s*=\s*(.+?)\s*$", re.S)
_PROB = re.compile(r"^\s*(>=|<=|>|<)\s*(.+?)\s+over\s+(.+?)\s*$", re.S)
#: The random parts a probability may range over (W carries u and û, which stay ⊥ span W).
RANDOM_PARTS = ("c", "c_hat", "W")
#: Integer ranges are enumerated; beyond this many values only a spread subset is checked
#: (the ends, log-spaced and random values), and the outcome says so.
MAX_ENUMERATED = 64
#: Most values a set ``{v, w, ...}`` or ``--seeds`` may list or span; counted before anything is built.
MAX_VALUES = 1000
#: Longest ``--for``/``--prob``/``--seeds`` text: each expression in it is bounded by the parser anyway.
MAX_QUANTIFIER_TEXT = 4000
_UNBOUNDED = re.compile(r"\b(oo|inf|infinity)\b", re.I)


@dataclass(frozen=True)
class Quantifier:
    """One ``--for``: ``kind`` is real, integer, values or binding; ``text`` is what was typed."""

    name: str
    kind: str
    text: str
    # SymPy numbers and expressions (SymPy is untyped): the ends of a range, a binding's expression
    low: Any = None
    high: Any = None
    values: tuple = ()
    expression: Any = None
    symbol: Any = None
    #: (below, above): which ends of a real range are infinite; ``low``/``high`` then hold the
    #: ends of the finite window the engine's steps search (verify.claims.unbounded)
    unbounded: tuple[bool, bool] = (False, False)

    @property
    def integer(self) -> bool:
        return self.kind == "integer" or (self.kind == "values" and all(v.is_integer for v in self.values))

    @property
    def continuous(self) -> bool:
        return self.kind == "real" and self.low != self.high

    def points(self) -> list:
        """The values of a discrete quantifier (integer ranges beyond MAX_ENUMERATED: a spread subset)."""
        if self.kind == "values":
            return list(self.values)
        if self.kind == "real":
            return [self.low] if self.low == self.high else [self.low, self.high]
        low, high = int(self.low), int(self.high)
        if high - low + 1 <= MAX_ENUMERATED:
            return [sympy.Integer(v) for v in range(low, high + 1)]
        return [sympy.Integer(v) for v in spread(low, high, MAX_ENUMERATED)]

    def exhaustive(self) -> bool:
        return self.kind != "integer" or int(self.high) - int(self.low) + 1 <= MAX_ENUMERATED


def spread(low: int, high: int, count: int) -> list[int]:
    """About ``count`` integers of [low, high]: both ends and log-spaced values (deterministic)."""

    # Floats, not the ints: ends beyond int64 (n in 1..10**20) are fine as sample points.
    if low >= 1:
        grid = np.geomspace(float(low), float(high), count)
    else:
        grid = np.linspace(float(low), float(high), count)
    return sorted({int(round(v)) for v in grid} | {low, high})


def _number(text: str, what: str, integer: bool = False) -> sympy.Expr:
    if _UNBOUNDED.search(text):
        raise QuantifierError(f"{what}: {text.strip()!r} is unbounded; a range needs finite ends")
    value = parse_expression(text, variables={}, functions=_bound_functions(), what=what)
    value = exact_number(value)
    if not value.is_number or not value.is_real or not math.isfinite(float(value)):
        raise QuantifierError(f"{what}: {text.strip()!r} is not a finite real number")
    if integer and not value.is_integer:
        raise QuantifierError(f"{what}: {text.strip()!r} is not an integer")
    return value


def _bound_functions():

    table = claim_functions()
    for name in (*QUANTITIES, *ASYMPTOTIC, "Sum"):
        table.pop(name)
    return table


def parse_quantifier(text: str) -> Quantifier:
    """One ``--for`` text (see the module docstring); bindings keep their expression as text here
    and are parsed by :func:`bind` once every name is known."""
    if not isinstance(text, str) or not text.strip():
        raise QuantifierError(
            f"--for: expected 'NAME in [a, b]', 'NAME in a..b', 'NAME in {{v, w}}' or "
            f"'NAME = expr', got {text!r}"
        )
    if len(text) > MAX_QUANTIFIER_TEXT:
        raise QuantifierError(f"--for: a text of {len(text)} characters is longer than the limit of "
                              f"{MAX_QUANTIFIER_TEXT}")
    what = f"--for {text.strip()!r}"
    match = _RANGE.match(text)
    if match:
        name, spec = match.groups()
        _check_name(name, what)
        return _range(name, spec, text.strip(), what)
    match = _BINDING.match(text)
    if match and "==" not in text:
        name, spec = match.groups()
        _check_name(name, what)
        integer = name in ("k", "d") or re.fullmatch(r"-?\d+", spec.strip()) is not None
        return Quantifier(
            name,
            "binding",
            text.strip(),
            expression=sympy.Symbol("unparsed"),
            values=(spec,),
            symbol=variable_symbol(name, integer),
        )
    raise QuantifierError(
        f"{what}: cannot read it; expected 'NAME in [a, b]' (reals), 'NAME in a..b' "
        "(integers), 'NAME in {v, w}' (values) or 'NAME = expr' (a binding)"
    )


def _check_name(name: str, what: str) -> None:
    if name in SCALARS and name not in ("k", "xi", "d"):
        raise QuantifierError(f"{what}: {name!r} is a quantity of the instance or activation, not a variable")
    if name in QUANTITIES or name in ASYMPTOTIC or name in ("Sum", "pi", "E", "oo"):
        raise QuantifierError(
            f"{what}: {name!r} names a quantity or function of the claim language; pick another variable name"
        )


#: Half-width of the finite window in which an unbounded range is searched for a counterexample.
LINE_WINDOW = 10
_WHOLE_LINE = re.compile(r"^(R|reals|\(\s*-\s*(oo|inf|infinity)\s*,\s*\+?\s*(oo|inf|infinity)\s*\))$", re.I)
_HALF_ABOVE = re.compile(r"^\[(.+),\s*\+?\s*(oo|inf|infinity)\s*\)$", re.I | re.S)
_HALF_BELOW = re.compile(r"^\(\s*-\s*(oo|inf|infinity)\s*,(.+)\]$", re.I | re.S)


def _line(name: str, spec: str, text: str, what: str) -> Quantifier | None:
    """``NAME in R``, ``(-oo, oo)``, ``[a, oo)`` or ``(-oo, b]``: a real variable over an unbounded
    range, with the finite window its counterexample search covers; None for any other range."""
    whole, above, below = _WHOLE_LINE.match(spec), _HALF_ABOVE.match(spec), _HALF_BELOW.match(spec)
    if not (whole or above or below):
        return None
    if name in ("k", "d", "xi"):
        raise QuantifierError(f"{what}: {name} is a parameter of the instance; an unbounded range of it is "
                              "an asymptotic statement (write the order with O/Theta and --growth)")
    if whole:
        low, high, unbounded = sympy.Integer(-LINE_WINDOW), sympy.Integer(LINE_WINDOW), (True, True)
    elif above:
        low = _number(above.group(1), what)
        high, unbounded = low + 2 * LINE_WINDOW, (False, True)
    else:
        high = _number(below.group(2), what)
        low, unbounded = high - 2 * LINE_WINDOW, (True, False)
    return Quantifier(name, "real", text, low=low, high=high, symbol=variable_symbol(name, False),
                      unbounded=unbounded)


def _range(name: str, spec: str, text: str, what: str) -> Quantifier:
    integer_name = name in ("k", "d")
    line = _line(name, spec, text, what)
    if line is not None:
        return line
    if spec.startswith("[") and spec.endswith("]") and "," in spec:
        low_text, high_text = spec[1:-1].split(",", 1)
        if integer_name:
            raise QuantifierError(f"{what}: {name} is an integer; write '{name} in a..b'")
        low, high = _number(low_text, what), _number(high_text, what)
        if low > high:
            raise QuantifierError(f"{what}: the range is empty ({low} > {high})")
        q = Quantifier(name, "real", text, low=low, high=high, symbol=variable_symbol(name, False))
    elif spec.startswith("{") and spec.endswith("}"):
        # Counted before any value is parsed: a set of 10^6 values is refused in one line.
        listed = spec.count(",") + 1
        if listed > MAX_VALUES:
            raise QuantifierError(f"{what}: {listed} values is more than the limit of {MAX_VALUES}")
        parts = [p for p in spec[1:-1].split(",") if p.strip()]
        if not parts:
            raise QuantifierError(f"{what}: the set of values is empty")
        values = tuple(dict.fromkeys(_number(p, what, integer_name) for p in parts))
        q = Quantifier(
            name,
            "values",
            text,
            values=values,
            symbol=variable_symbol(name, all(v.is_integer for v in values)),
        )
    elif ".." in spec and not spec.startswith(("[", "(")):
        low_text, high_text = spec.split("..", 1)
        low, high = _number(low_text, what, True), _number(high_text, what, True)
        if low > high:
            raise QuantifierError(f"{what}: the range is empty ({low} > {high})")
        q = Quantifier(name, "integer", text, low=low, high=high, symbol=variable_symbol(name, True))
    else:
        raise QuantifierError(
            f"{what}: the range {spec!r} is not '[a, b]', 'a..b' or '{{v, w}}' "
            "(open ends like (a, b) are not supported: use a closed interval)"
        )
    check_parameter(q.name, list(q.values) if q.kind == "values" else [q.low, q.high], what)
    return q


def check_parameter(name: str, values, what: str) -> None:
    """k and d are positive integers within the size limits; xi lies in (0, 10⁶]."""
    for value in values:
        if value.is_number and value.is_real is not True:
            raise QuantifierError(f"{what}: {name} = {value} is not a real number")
        if name in ("k", "d"):
            if not value.is_integer or value < 1:
                raise QuantifierError(f"{what}: {name} must be a positive integer, got {value}")
            try:
                within_limit(name, int(value))  # --force (allow_large_sizes) lifts it
            except SizeLimitError as exc:
                raise QuantifierError(f"{what}: {exc}") from None
        elif name == "xi" and not (0 < value <= MAX_SCALE):
            raise QuantifierError(
                f"{what}: xi must lie in (0, {MAX_SCALE:g}] (the scale of eq. (3)), got {value}"
            )


def bind(quantifier: Quantifier, names: dict[str, sympy.Symbol]) -> Quantifier:
    """Parse a binding's expression with the names declared before it."""
    (spec,) = quantifier.values
    what = f"--for {quantifier.text!r}"
    expression = parse_expression(spec, variables=names, functions=_bound_functions(), what=what)
    expression = exact_number(expression)
    if expression.is_number and expression.is_real is not True:
        raise QuantifierError(f"{what}: {quantifier.name} = {expression} is not a real number (complex "
                              "values have no place in the model)")
    if expression.is_number:
        check_parameter(quantifier.name, [expression], what)
    return Quantifier(
        quantifier.name, "binding", quantifier.text, expression=expression, symbol=quantifier.symbol
    )


@dataclass(frozen=True)
class Probability:
    """``--prob 'OP bound over parts'``: P[the relation holds for all inner variables] OP bound."""

    op: str
    bound: sympy.Expr
    over: tuple[str, ...]
    text: str


def parse_probability(text: str, names: dict[str, sympy.Symbol]) -> Probability:
    match = _PROB.match(text or "")
    what = f"--prob {str(text).strip()!r}"
    if not match:
        raise QuantifierError(f"{what}: expected 'OP BOUND over PARTS', e.g. '>= 0.9 over c, c_hat'")
    op, bound_text, over_text = match.groups()
    bound = exact_number(
        parse_expression(bound_text, variables=names, functions=_bound_functions(), what=what)
    )
    if bound.is_number and not 0 <= bound <= 1:
        raise QuantifierError(f"{what}: the bound {bound} is not a probability in [0, 1]")
    over = tuple(dict.fromkeys(p.strip() for p in over_text.split(",")))
    for part in over:
        if part not in RANDOM_PARTS:
            raise QuantifierError(
                f"{what}: cannot randomise over {part!r}; the random parts are {', '.join(RANDOM_PARTS)}"
            )
    return Probability(op, bound, over, text.strip())


def parse_seeds(text: str | int | list | tuple | range) -> tuple[int, ...]:
    """Instance seeds: ``5``, ``0..3`` or ``{1, 4, 9}`` (or a Python int / sequence of ints)."""
    if isinstance(text, int) and not isinstance(text, bool):
        values = [text]
    elif isinstance(text, list | tuple | range):
        try:
            listed = len(text)
        except OverflowError:  # range(10**20): len() itself overflows
            listed = MAX_VALUES + 1
        if listed > MAX_VALUES:
            raise QuantifierError(f"--seeds: more than the limit of {MAX_VALUES} seeds")
        values = list(text)
    else:
        spec = str(text).strip()
        if len(spec) > MAX_QUANTIFIER_TEXT:
            raise QuantifierError(f"--seeds: a text of {len(spec)} characters is longer than the limit of "
                                  f"{MAX_QUANTIFIER_TEXT}")
        match = re.fullmatch(r"(\d{1,9})\s*\.\.\s*(\d{1,9})", spec)
        if match:
            low, high = int(match.group(1)), int(match.group(2))
            # Counted, never built: 0..999999999 used to make a list of 10^9 before any check.
            if high - low + 1 > MAX_VALUES:
                raise QuantifierError(f"--seeds: {spec!r} spans {high - low + 1} seeds, more than the limit "
                                      f"of {MAX_VALUES}")
            values = list(range(low, high + 1))
        elif re.fullmatch(r"\{\s*\d{1,9}(\s*,\s*\d{1,9})*\s*\}", spec):
            values = [int(v) for v in spec[1:-1].split(",")]
        elif re.fullmatch(r"\d{1,9}", spec):
            values = [int(spec)]
        else:
            raise QuantifierError(
                f"--seeds: expected N, A..B or {{N, M}} with non-negative integers, got {spec!r}"
            )
    if not values:
        raise QuantifierError(f"--seeds: the range {text!r} is empty")
    if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in values):
        raise QuantifierError(f"--seeds: seeds are non-negative integers, got {text!r}")
    if len(values) > MAX_VALUES:
        raise QuantifierError(f"--seeds: {len(values)} seeds is more than the limit of {MAX_VALUES}")
    return tuple(dict.fromkeys(values))


def as_fraction(value: sympy.Expr, outward: int = 0) -> Fraction:
    """A real SymPy number as a Fraction, for the certified step's exact endpoints.

    A rational is returned exactly.  An irrational endpoint (``m in [0, pi/4]``) is rounded
    *outward* when ``outward`` says which way (-1: down, +1: up), to a dyadic within 2^-200 of
    it, so that a proof over the rounded interval covers the interval asked for (a refutation
    there must still be checked to lie inside it: :func:`inside`).  With ``outward = 0`` an
    irrational value raises ValueError: it used to be ``nsimplify``-ed to a nearby rational,
    which shrank the interval a proof covered."""
    if value.is_Rational:
        return Fraction(int(value.p), int(value.q))
    if outward == 0 or not value.is_number or not value.is_real:
        raise ValueError(f"{value} is not rational")
    scaled = value * sympy.Integer(2) ** 200
    rounded = sympy.floor(scaled) if outward < 0 else sympy.ceiling(scaled)
    if not rounded.is_Integer:
        raise ValueError(f"cannot round {value} to a rational")
    return Fraction(int(rounded), 2**200)


def inside(point: sympy.Expr, low: sympy.Expr, high: sympy.Expr) -> bool:
    """Whether the exact rational ``point`` lies in [low, high] (exact endpoints, decided by SymPy)."""
    return bool(sympy.Le(low, point)) and bool(sympy.Le(point, high))
