r"""The claim language: one relation between quantities of the model, parsed without ``eval``.

A claim is the text a theorist would write under a lemma::

    h(0) >= C_sigma*xi**2/(k + xi**2)
    sign(m)*(h(m) - h(0)) >= 0
    Sum(binomial(l + s, l)*(k/(k + 1))**(s + 1), s, 0, oo) == Theta(k**l)

Grammar.  ``claim := side OP side`` with ``OP`` one of ``== <= >= < >``; one side may be
``O(e)``, ``Theta(e)`` or ``Omega(e)`` (an asymptotic order, read as "the ratio of the other
side to e stays bounded", see :mod:`verify.claims.asymptotic`).  A side is an expression:
numbers, ``+ - * / **``, names and calls of

- the quantities (:data:`QUANTITIES`): ``h(m)``, ``Phi(m)``, ``hcoef(l)`` (the coefficient of
  m^l in h), ``mu(p)``, ``K(rho)``, ``Kp(rho)``, ``T(l, s)`` (Proposition 4's T) and
  ``grad_var(m)`` (E‖∇̂L‖², Monte Carlo);
- the scalars (:data:`SCALARS`): the instance's ``k``, ``xi``, ``d``, ``lam_min``, ``lam_max``,
  ``gamma`` (Assumption 5's separation 1 − max_{i≠j}|⟨w_i, w_j⟩|), and the activation's
  ``C_sigma`` = Σ p μ_p² and ``lstar`` (the information exponent);
- the functions exp, log, sqrt, sin, cos, tanh, sinh, cosh, atan, asinh, erf, erfc, Abs/abs,
  sign, Max, Min, binomial, factorial and ``Sum(term, index, low, high)`` (``high`` may be
  ``oo`` when SymPy can sum the term in closed form), ``diff(expr, var[, n])``, the n-th
  derivative in a real variable (n ≤ MAX_DERIVATIVE_ORDER), ``Integral(term, t, a, b)``, the
  integral of ``term`` over t from a to b (finite ends, no Eg inside; see
  :mod:`verify.claims.integrals`), Gamma (capitalised: ``gamma`` is
  the separation scalar), floor, ceil, sech, and the
  standard normal cdf and density ``normal_cdf``, ``normal_pdf``; factorial of a natural number or
  of an integer variable;
- the constants ``pi`` and ``E``, and the variables that ``--for`` declares.

The text goes through :func:`verify.base.expressions.parse_expression` (an AST walk over a
whitelist; nothing is evaluated) with this module's function table; the quantities become
SymPy undefined functions, so a parsed claim is an ordinary SymPy relation that the decision
procedure substitutes into.  Everything else (attribute access, lambdas, strings, keyword
arguments, underscore names, subscripts) is refused by that parser with a one-line error
naming the construct.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from functools import cache

import sympy

from verify.base.errors import ExpressionLimitError, MalformedExpressionError, clip
from verify.base.expressions import (Function, Relation, activation_functions, nonnegative_argument,
                                     parse_expression, positive_argument, unit_argument)
from verify.claims.hints import hint

#: Quantities: name -> (arity, the domain of each argument as words for messages).
QUANTITIES = {
    "h": (1, "real"),
    "Phi": (1, "real"),
    "grad_var": (1, "real"),
    "K": (1, "real"),
    "Kp": (1, "real"),
    "hcoef": (1, "integer"),
    "mu": (1, "integer"),
    "T": (2, "integer"),
    # the instance's entries, 1-based: λ_i, c_i, ĉ_i and G_ij = ⟨w_i, w_j⟩ (Assumption 1)
    "lam": (1, "index"),
    "c": (1, "index"),
    "chat": (1, "index"),
    "G": (2, "index"),
    # E over g ~ N(0, 1) of an expression in g, sigma(g), dsigma(g) and scalars
    "Eg": (1, "expectation"),
}
#: Indexed entries of the instance (arguments run over 1..k).
INDEXED = ("lam", "c", "chat", "G")
#: The activation and its derivative, callable only inside Eg(...), and the Gaussian variable.
GAUSSIAN_FUNCTIONS = ("sigma", "dsigma")
GAUSSIAN = sympy.Symbol("g", real=True)
#: Scalars of the instance (k, xi, d, lam_min, lam_max, gamma) and of the activation (C_sigma, lstar).
INSTANCE_PARAMETERS = ("k", "xi", "d")
SCALARS = ("k", "xi", "d", "lam_min", "lam_max", "gamma", "C_sigma", "lstar")
#: The scalars a backend evaluates (k, xi, d are values of the configuration, or box variables).
DERIVED_SCALARS = ("lam_min", "lam_max", "gamma", "C_sigma", "lstar")
#: What each quantity or scalar needs: an instance (a family), an activation, or nothing.
NEEDS_INSTANCE = frozenset({"h", "Phi", "hcoef", "T", "grad_var", "lam_min", "lam_max", "gamma", *INDEXED})
NEEDS_ACTIVATION = frozenset({"h", "Phi", "hcoef", "grad_var", "mu", "K", "Kp", "C_sigma", "lstar",
                              *GAUSSIAN_FUNCTIONS})
ASYMPTOTIC = ("O", "Theta", "Omega")
#: Sum(term, index, low, high) with at most this many terms once the bounds are numbers: a
#: paper's sums are truncated far earlier, and a longer one only makes SymPy slow.
MAX_SUM_TERMS = 1000

#: The placeholder for ``oo``: a plain symbol, so the parser's finiteness check lets it through
#: as a Sum's upper limit; everywhere else it is refused after parsing.
INFINITY = sympy.Symbol("oo", positive=True)


@cache
def quantity_function(name: str):
    """The SymPy undefined function standing for quantity ``name`` (or an asymptotic marker)."""
    return sympy.Function(name)


def scalar_symbol(name: str) -> sympy.Symbol:
    """k and d are positive integers, xi and the rest positive or real numbers."""
    if name in ("k", "d"):
        return sympy.Symbol(name, integer=True, positive=True)
    if name in ("xi", "lam_max", "C_sigma"):
        return sympy.Symbol(name, positive=True)
    if name == "lstar":
        return sympy.Symbol(name, integer=True, positive=True)
    return sympy.Symbol(name, real=True)


def variable_symbol(name: str, integer: bool) -> sympy.Symbol:
    """The symbol of a variable that ``--for`` declares (instance parameters keep their own)."""
    if name in SCALARS:
        return scalar_symbol(name)
    return sympy.Symbol(name, integer=True) if integer else sympy.Symbol(name, real=True)


@dataclass(frozen=True)
class ParsedClaim:
    """A claim as SymPy objects: ``lhs OP rhs``; ``order`` is O/Theta/Omega when ``rhs`` is an order."""

    text: str
    lhs: sympy.Expr
    op: str
    rhs: sympy.Expr
    order: str | None
    indices: tuple[sympy.Symbol, ...]
    #: the Eg(...) calls of the text that SymPy's arithmetic cancelled (Eg(1/g**2) - Eg(1/g**2)):
    #: gone from the sides, yet the claim is about them, so their existence is still checked
    cancelled: tuple = ()
    #: the domain condition of each operation as written, (condition, expression, text), recorded
    #: before SymPy rewrote it (sqrt(x)**2 is x): :mod:`verify.claims.domains`
    guards: tuple = ()

    @property
    def difference(self) -> sympy.Expr:
        return self.lhs - self.rhs

    def quantities(self) -> set[str]:
        """Names of the quantities and scalars the claim uses (Sum indices and variables excluded)."""
        used = {type(f).__name__ for f in self.expressions_atoms(sympy.core.function.AppliedUndef)}
        used |= {s.name for s in (self.lhs.free_symbols | self.rhs.free_symbols) if s.name in SCALARS}
        return used - set(ASYMPTOTIC)

    def expressions_atoms(self, kind):
        return self.lhs.atoms(kind) | self.rhs.atoms(kind)


#: Largest number of digits of binomial(n, k) with both arguments given: SymPy computes it
#: exactly, and binomial(10**30, 10**15) would take forever; a float64 constant ends near 1e308.
MAX_BINOMIAL_DIGITS = 300
#: A numeric k in binomial(n, k) with n a variable: SymPy may expand it into a k-term product.
MAX_BINOMIAL_INDEX = 1000
#: binomial(n, k) with a non-integer argument is a ratio of Gamma values SymPy expands exactly.
MAX_BINOMIAL_FRACTIONAL = 100


def _brief(value, room: int = 30) -> str:
    big = value.is_Integer and abs(value) > 10**room
    text = f"~1e{len(str(abs(value))) - 1}" if big else str(value)
    return text if len(text) <= room else text[: room - 1] + "…"


def _binomial_domain(n, k) -> tuple:
    """binomial(n, k) = Γ(n + 1)/(Γ(k + 1)Γ(n − k + 1)): k ≥ 0, and n + 1 > 0 unless n and k are
    both integers (Γ(n + 1) has a pole at each integer n ≤ −1: binomial(x, 1/2) at x = −1, red
    team 7; for integers SymPy's binomial(−3, 2) = 6 is defined)."""
    if n.is_integer and k.is_integer:
        return (("nonnegative", k),)
    return (("nonnegative", k), ("positive", n + 1))


def _binomial(n, k):
    """binomial(n, k), refused *before* SymPy evaluates it when the result would be huge."""

    if k.is_number and k.is_integer and abs(k) > MAX_BINOMIAL_INDEX and not n.is_number:
        raise ExpressionLimitError(f"binomial({_brief(n)}, {_brief(k)}): the index is beyond "
                                   f"{MAX_BINOMIAL_INDEX}")
    if n.is_number and k.is_number and not (n.is_integer and k.is_integer) \
            and max(abs(n), abs(k)) > MAX_BINOMIAL_FRACTIONAL:
        # binomial(0.5, 7148) and binomial(202755, 0.5) are exact rationals of thousands of digits.
        raise ExpressionLimitError(f"binomial({_brief(n)}, {_brief(k)}): with a non-integer argument both "
                                   f"must lie in [-{MAX_BINOMIAL_FRACTIONAL}, {MAX_BINOMIAL_FRACTIONAL}]")
    if n.is_number and k.is_number and n.is_real and k.is_real:
        nf, kf = float(n), float(k)
        if 0 <= kf <= nf:
            # binomial(n, m) <= (e n / m)^m with m = min(k, n - k): an upper bound that stays accurate
            # where lgamma(n + 1) - lgamma(n - k + 1) cancels away (n = 10^200, k = 7805 gave 0 digits).
            m = min(kf, nf - kf)
            digits = m * math.log10(math.e * nf / m) if m >= 1 else 0.0
            if digits > MAX_BINOMIAL_DIGITS:
                raise ExpressionLimitError(
                    f"binomial({_brief(n)}, {_brief(k)}) has about {digits:.3g} digits, beyond the limit of "
                    f"{MAX_BINOMIAL_DIGITS} (constants stay within float64's range)")
        elif max(abs(nf), abs(kf)) > 10**6:
            raise ExpressionLimitError(f"binomial({_brief(n)}, {_brief(k)}): arguments beyond 10^6 outside "
                                       "0 <= k <= n")
    return sympy.binomial(n, k)


#: factorial(n) and gamma(x) of a number beyond this are refused: float64 ends at 170!.
MAX_FACTORIAL_ARGUMENT = 170


def _factorial(n):
    """factorial(n) of a natural number or of an integer-valued expression (a declared integer
    variable, ``k``); the number itself at most MAX_FACTORIAL_ARGUMENT."""
    if n.is_integer is not True:
        raise ValueError(f"factorial needs an integer argument, got {n} (use Gamma(x + 1) for a real x)")
    if n.is_number and not 0 <= n <= MAX_FACTORIAL_ARGUMENT:
        raise ValueError(f"factorial({n}): the argument must be in [0, {MAX_FACTORIAL_ARGUMENT}]")
    return sympy.factorial(n)


def _gamma(x):
    if x.is_number and not (x.is_real and abs(x) <= MAX_FACTORIAL_ARGUMENT):
        raise ValueError(f"Gamma({x}): a real argument in [-{MAX_FACTORIAL_ARGUMENT}, "
                         f"{MAX_FACTORIAL_ARGUMENT}] is required")
    return sympy.gamma(x)


#: Functions written through others, exact everywhere the others are: sech, and the standard
#: normal distribution's cdf and density (``normal_cdf``, ``normal_pdf``: the model's ``Phi`` is
#: the population loss).
_DEFINED = {
    "sech": lambda x: 1 / sympy.cosh(x),
    "normal_cdf": lambda x: (1 + sympy.erf(x / sympy.sqrt(2))) / 2,
    "normal_pdf": lambda x: sympy.exp(-x**2 / 2) / sympy.sqrt(2 * sympy.pi),
}


def _terms(s: sympy.Sum) -> int:
    """Terms a finite (possibly nested or multi-limit) Sum expands to; 1 for unknown bounds."""
    total = 1
    for _, low, high in s.limits:
        if (high - low).is_Integer:
            total *= max(int(high - low + 1), 0)
    inner = max((_terms(t) for t in s.function.atoms(sympy.Sum)), default=1)
    return total * inner


def _sum(term, index, low, high):
    inner = max((_terms(t) for t in term.atoms(sympy.Sum)), default=1) if isinstance(term, sympy.Basic) else 1
    count = int(high - low + 1) if (high - low).is_Integer else 1
    if count * inner > MAX_SUM_TERMS * 10:
        # Counted before anything is summed: three nested sums of 1001 terms are 10^9 terms.
        raise MalformedExpressionError(f"nested Sums of {count} x {inner} terms, more than the limit of "
                                       f"{MAX_SUM_TERMS * 10} in all")
    if not isinstance(index, sympy.Symbol) or not index.is_integer:
        raise ValueError(f"the second argument of Sum must be its index name, got {index}")
    for bound in (low, high):
        if not (bound.is_integer or bound == INFINITY):
            raise ValueError(f"Sum bounds must be integers (or oo above), got {bound}")
    if low == INFINITY:
        raise ValueError("a Sum cannot start at oo")
    if isinstance(term, sympy.Basic) and any(limit[0] == index for inner in term.atoms(sympy.Sum)
                                             for limit in inner.limits):
        # SymPy would merge Sum(Sum(i, i, 1, 3), i, 1, 3) into one Sum with the limit (i, 1, 3)
        # twice, which it then cannot evaluate (a ValueError traceback).
        raise MalformedExpressionError(f"the index {index} of a Sum is reused by a Sum inside "
                                       "it; give each sum its own index")
    return sympy.Sum(term, (index, low, high))


def _integral(term, variable, low, high):
    """``Integral(term, t, a, b)``: ∫_a^b term dt over a real variable t that only this integral
    binds, between finite ends (numbers or expressions in the claim's variables).  The term may hold
    the kernel quantities of t (``Integral(Kp(t), t, m, 1)``), but no Eg (an expectation per point
    of t is a parametric integral of its own) and no infinite Sum."""
    if not isinstance(variable, sympy.Symbol) or variable.is_integer or variable.is_real is not True:
        raise ValueError(f"the second argument of Integral must be its variable's name, got {variable}")
    for end in (low, high):
        if not isinstance(end, sympy.Basic) or end.has(INFINITY, sympy.zoo, sympy.nan, -INFINITY):
            raise ValueError(f"Integral ends must be finite, got {end} (an improper integral over an "
                             "unbounded range is not in the language; an expectation is Eg(...))")
        if variable in end.free_symbols:
            raise ValueError(f"an end of the Integral over {variable} depends on {variable}")
    if isinstance(term, sympy.Basic):
        calls = {type(f).__name__ for f in term.atoms(sympy.core.function.AppliedUndef)}
        if "Eg" in calls or "grad_var" in calls:
            raise MalformedExpressionError(f"an Eg or grad_var inside Integral(..., {variable}, ...): "
                                           "integrate a closed form or a kernel quantity (K, Kp, h, Phi)")
        if term.has(sympy.Integral):
            raise MalformedExpressionError("an Integral inside an Integral: write the double integral's "
                                           "inner one in closed form")
        if any(limit[2] == INFINITY for inner in term.atoms(sympy.Sum) for limit in inner.limits):
            raise MalformedExpressionError("an infinite Sum inside an Integral: integrate its terms")
    return sympy.Integral(term, (variable, low, high))


#: Highest order of ``diff(EXPR, VAR, n)``: every derivative the paper and its notes take is of order 3
#: or less, and each order multiplies the size of an expression SymPy differentiates.
MAX_DERIVATIVE_ORDER = 8


def _diff(expr, variable, order=1):
    """``diff(EXPR, VAR)`` and ``diff(EXPR, VAR, n)``, SymPy's spelling: the derivative of any
    expression of the language in a variable it declares (``m``, ``rho``, ``xi``, or ``g`` inside
    Eg).  Quantities (h, Phi, K, Kp) stay as derivatives of calls, evaluated through their closed
    forms (:func:`verify.claims.evaluate.resolve_derivatives`); sigma inside Eg through the
    activation's own formula."""
    order = sympy.sympify(order)
    if not isinstance(variable, sympy.Symbol):
        raise ValueError(f"the second argument of diff must be a variable name, got {variable}")
    if not (getattr(order, "is_Integer", False) and 1 <= order <= MAX_DERIVATIVE_ORDER):
        raise ValueError(f"the order of diff must be an integer in [1, {MAX_DERIVATIVE_ORDER}], got {order}")
    if variable.is_integer:
        raise ValueError(f"diff in {variable}: an integer variable has no derivative")
    return sympy.diff(expr, variable, int(order))


_diff.__name__ = "diff"  # as the user wrote it, in the parser's one-line errors


def _order(name: str):
    marker = quantity_function(name)
    return lambda argument: marker(argument)


def claim_functions() -> dict[str, Function]:
    """The parser's whitelist for claims: the activation functions plus quantities, Sum, binomial, orders."""
    table = dict(activation_functions())
    table.pop("hermite_prob")
    for name, (arity, _) in QUANTITIES.items():
        table[name] = Function(quantity_function(name), arity)
    for name in GAUSSIAN_FUNCTIONS:
        table[name] = Function(quantity_function(name), 1)
    for name in ("asin", "acos"):
        table[name] = Function(getattr(sympy, name), 1, domain=unit_argument)
    # binomial(n, k) with k < 0 is 0 in the language, while SymPy's binomial(n, n) is 1 everywhere
    table["binomial"] = Function(_binomial, 2, domain=_binomial_domain)
    table["diff"] = Function(_diff, 2, 3)
    table["factorial"] = Function(_factorial, 1, domain=nonnegative_argument)
    # Gamma, capitalised: `gamma` is the instance's separation (Assumption 5), a scalar of the
    # language; its poles are the integers <= 0, and the guard (x > 0) keeps away from all of them
    table["Gamma"] = Function(_gamma, 1, domain=positive_argument)
    table["floor"] = Function(sympy.floor, 1)
    table["ceil"] = Function(sympy.ceiling, 1)
    for name, build in _DEFINED.items():
        table[name] = Function(build, 1)
    # a Sum whose upper bound is below its lower one minus 1 is empty (0) in the language, while
    # SymPy's closed forms follow Karr's convention (Sum(1, i, 1, -5) = -5)
    table["Sum"] = Function(_sum, 4, domain=lambda term, index, low, high: (
        () if high == INFINITY else (("nonnegative", high - low + 1),)))
    table["Integral"] = Function(_integral, 4)
    for name in ASYMPTOTIC:
        table[name] = Function(_order(name), 1)
    return table


def sum_indices(text: str, binder: str = "Sum") -> list[str]:
    """Names used as the index (second argument) of a ``Sum(...)`` call in ``text`` (``binder``
    ``"Integral"``: the variables of the ``Integral(...)`` calls).

    Only reads the syntax tree (``ast.parse`` executes nothing); text that does not parse
    yields no names here and gets its one-line error from the parser proper."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return []
    names = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == binder
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Name)
        ):
            names.append(node.args[1].id)
    return names


def indexed_arguments(text: str) -> list[str]:
    """Names used as an argument of lam, c, chat or G in ``text`` (read from the syntax tree only)."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return []
    return [
        argument.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in INDEXED
        for argument in node.args
        if isinstance(argument, ast.Name)
    ]


def calls_function(text: str, name: str) -> bool:
    """Whether ``text`` calls ``name`` (``Eg``, ``diff``), read from the syntax tree only."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name
               for n in ast.walk(tree))


#: The calls that bind a name of their own: (call, what messages call the name, its assumptions, the
#: names it may not take besides the variables and quantities).
_BINDERS = (("Sum", "Sum index", {"integer": True}, ()),
            ("Integral", "Integral variable", {"real": True}, (GAUSSIAN.name,)))


def parse_claim(text: str, variables: dict[str, sympy.Symbol]) -> ParsedClaim:
    """Parse ``text`` with the scalars, the declared ``variables`` and the Sum indices as names.

    Raises
    ------
    MalformedExpressionError
        One line naming the offending token: unknown names and functions, a missing or
        malformed relation, orders in the wrong place, ``oo`` outside a Sum's upper limit,
        non-integer arguments of mu, hcoef or T, quantities inside an infinite Sum.
    """
    names = {name: scalar_symbol(name) for name in SCALARS} | dict(variables)
    indices = []
    for binder, called, assumptions, reserved in _BINDERS:
        for name in dict.fromkeys(sum_indices(text, binder)):
            if name in names or name in QUANTITIES or name in ASYMPTOTIC or name in reserved:
                raise MalformedExpressionError(
                    f"claim: {called} {name!r} is already the name of a variable or "
                    "quantity; pick another letter"
                )
            if not name.isidentifier() or name.startswith("_"):
                continue  # the parser refuses it with its own message
            indices.append(sympy.Symbol(name, **assumptions))
            names[name] = indices[-1]
    for name in indexed_arguments(text):
        if name not in names:
            raise MalformedExpressionError(
                f"claim: index {name!r} of lam, c, chat or G is free; sum over it, e.g. "
                f"Sum(lam({name}), {name}, 1, k), or give a number in 1..k"
            )
    if GAUSSIAN.name in names and calls_function(text, "Eg"):
        raise MalformedExpressionError(
            "claim: 'g' is the Gaussian variable of Eg(...); name the variable or Sum index otherwise")
    reserved = GAUSSIAN.name not in names
    names.setdefault(GAUSSIAN.name, GAUSSIAN)  # refused after parsing where it stands outside Eg
    constants = {"pi": sympy.pi, "E": sympy.E, "oo": INFINITY}
    guards: list = []
    try:
        relation = parse_expression(
            text,
            variables=names,
            functions=claim_functions(),
            constants=constants,
            allow_relation=True,
            what="claim",
            guards=guards,
        )
    except MalformedExpressionError as exc:
        advice = hint(text, str(exc), [*names, *constants], list(claim_functions()))
        if not advice:
            raise
        raise type(exc)(_with_hint(str(exc), advice)) from None
    assert isinstance(relation, Relation)
    lhs, op, rhs = relation.lhs, relation.op, relation.rhs
    order = _order_of(lhs, rhs, text)
    if order is not None and _is_order(lhs):
        lhs, rhs, op = rhs, lhs, MIRROR[op]
    lhs, rhs = (_index_shifted(sympy.sympify(side)) for side in (lhs, rhs))
    claim = ParsedClaim(text, lhs, op, rhs, order, tuple(indices),
                        _cancelled_expectations(text, lhs, rhs, names, constants),
                        tuple(dict.fromkeys((c, sympy.sympify(e), t) for c, e, t in guards)))
    _check_infinity(claim)
    _check_arguments(claim)
    _check_scopes(claim, reserved)
    return claim


def expectation_calls(*exprs) -> list:
    """The Eg(...) calls of ``exprs``, each once: pass a relation's two sides, never their
    difference, in which the same call on both sides cancels (``Eg(1/g) == Eg(1/g)`` held, exactly,
    about a number that does not exist)."""
    return sorted({node for expr in exprs for node in sympy.preorder_traversal(expr)
                   if isinstance(node, sympy.core.function.AppliedUndef) and type(node).__name__ == "Eg"},
                  key=sympy.default_sort_key)


def _cancelled_expectations(text: str, lhs, rhs, names: dict, constants: dict) -> tuple:
    """The Eg(...) calls written in ``text`` that are in neither side as parsed: SymPy cancelled
    them (``Eg(1/g**2) - Eg(1/g**2) == 0`` parsed as ``0 == 0``, which held about a number that does
    not exist).  Each is parsed alone with the claim's names; one that cannot be (a Sum index in
    it) is left out."""
    if text.count("Eg") < 2:
        return ()  # a cancellation takes two
    present = set(expectation_calls(lhs, rhs))
    source = text.strip()
    found = []
    for node in ast.walk(ast.parse(source, mode="eval")):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Eg":
            try:
                call = parse_expression(ast.get_source_segment(source, node) or "", variables=names,
                                        functions=claim_functions(), constants=constants, what="claim")
            except MalformedExpressionError:
                continue
            if call not in present and call not in found:
                found.append(call)
    return tuple(found)


def _with_hint(message: str, advice: str) -> str:
    """``message`` with ``advice`` put before its list of allowed names (which can be long)."""
    head, allowed, rest = message.partition(" (allowed:")
    return f"{head}: {advice}" + (f" {allowed.strip()}{rest}" if allowed else "")


#: A relation with its sides swapped, which is also the relation with both sides multiplied by −1.
MIRROR = {"==": "==", "<=": ">=", ">=": "<=", "<": ">", ">": "<"}


def _is_order(expr) -> bool:
    return isinstance(expr, sympy.core.function.AppliedUndef) and type(expr).__name__ in ASYMPTOTIC


def _order_of(lhs, rhs, text: str) -> str | None:
    """The order (O/Theta/Omega) standing as one whole side, or None; orders anywhere else are refused."""
    markers = [
        f
        for side in (lhs, rhs)
        for f in sympy.sympify(side).atoms(sympy.core.function.AppliedUndef)
        if type(f).__name__ in ASYMPTOTIC
    ]
    if not markers:
        return None
    whole = [side for side in (lhs, rhs) if _is_order(side)]
    if len(markers) > 1 or len(whole) != 1:
        raise MalformedExpressionError(
            f"claim: an order O(...), Theta(...) or Omega(...) must be one whole side "
            f"of the relation, e.g. 'h(0) == Theta(k)', got {text.strip()!r}"
        )
    return type(whole[0]).__name__


def _index_shifted(expr):
    """``expr`` with each infinite sum whose term holds its coefficients at one shifted index,
    ``Sum(f(p), (p, a, oo))`` with every ``mu`` of the term ``mu(p + s)`` for one integer s (h(m) =
    Σ (p+1) μ_{p+1}² m^p, as papers write it), summed over q = p + s instead: the same sum, whose
    term then holds ``mu(q)`` only, as :func:`_check_infinity` needs."""
    def shifted(node):
        index, low, high = node.limits[-1] if len(node.limits) == 1 else (None, None, None)
        if high != INFINITY:
            return node
        coefficients = [f for f in node.function.atoms(sympy.core.function.AppliedUndef)
                        if type(f).__name__ == "mu"]
        shifts = {sympy.expand(f.args[0] - index) for f in coefficients}
        if len(shifts) != 1 or any(len(f.args) != 1 for f in coefficients):
            return node
        shift = shifts.pop()
        if not (shift.is_Integer and shift != 0):
            return node
        return sympy.Sum(node.function.subs(index, index - shift), (index, low + shift, high))

    return expr.replace(lambda node: isinstance(node, sympy.Sum), shifted) if expr.has(sympy.Sum) else expr


def _check_infinity(claim: ParsedClaim) -> None:
    """``oo`` only as the upper limit of a Sum whose term has no quantity in it."""
    allowed = set()
    for s in claim.expressions_atoms(sympy.Sum):
        high = s.limits[-1][2]
        if any(limit[2] == INFINITY for limit in s.limits[:-1]):
            raise MalformedExpressionError(f"claim: in {s} only the outermost sum may run to oo")
        if high == INFINITY:
            index = s.limits[-1][0]
            others = [f for f in s.function.atoms(sympy.core.function.AppliedUndef)
                      if not (type(f).__name__ == "mu" and f.args == (index,))]
            if others:
                raise MalformedExpressionError(
                    f"claim: the infinite sum {clip(s, 60)} contains {clip(others[0], 30)}; to oo a term "
                    f"may hold only mu({index}) (Parseval bounds its tail) or no quantity at all"
                )
            allowed.add(s)
    rest = [claim.lhs, claim.rhs]
    for s in allowed:
        rest = [e.subs(s, sympy.Integer(0)) for e in rest]
    if any(INFINITY in e.free_symbols for e in rest):
        raise MalformedExpressionError(
            "claim: 'oo' may only stand as the upper limit of a Sum (a claim compares finite quantities)"
        )


def _outside(expr, inner):
    """``expr`` with every ``inner`` node replaced by a fresh symbol (not 0, which would cancel
    g*Eg(...)): what stands outside them."""
    return expr.xreplace({node: sympy.Dummy() for node in expr.atoms(inner)}) if expr.has(inner) else expr


def _check_scopes(claim: ParsedClaim, gaussian: bool) -> None:
    """Sum indices only inside their Sum; g, sigma and dsigma only inside Eg, and Eg's argument a
    function of g built from g, sigma(g), dsigma(g), numbers and scalars (so that it has a value
    per configuration)."""
    for side in (claim.lhs, claim.rhs):
        loose = sorted(s.name for s in side.free_symbols & set(claim.indices))
        if loose:
            raise MalformedExpressionError(f"claim: index {loose[0]!r} is used outside its Sum(...) "
                                           "or Integral(...)")
    expectation = quantity_function("Eg")
    for side in (claim.lhs, claim.rhs):
        rest = _outside(side, expectation)
        if gaussian and GAUSSIAN in rest.free_symbols:
            raise MalformedExpressionError(
                "claim: g is the Gaussian variable; it may only stand inside Eg(...)")
        stray = sorted(type(f).__name__ for f in rest.atoms(sympy.core.function.AppliedUndef)
                       if type(f).__name__ in GAUSSIAN_FUNCTIONS)
        if stray:
            raise MalformedExpressionError(f"claim: {stray[0]}(...) may only stand inside Eg(...), "
                                           f"e.g. Eg({stray[0]}(g)**2)")
    for call in claim.expressions_atoms(expectation):
        (integrand,) = call.args
        if GAUSSIAN not in integrand.free_symbols:
            raise MalformedExpressionError(f"claim: {call} does not depend on g; Eg(...) averages an "
                                           "expression in g ~ N(0, 1)")
        inner = sorted(type(f).__name__ for f in integrand.atoms(sympy.core.function.AppliedUndef)
                       if type(f).__name__ not in GAUSSIAN_FUNCTIONS)
        if inner:
            raise MalformedExpressionError(f"claim: {inner[0]}(...) inside {clip(call, 60)}; Eg(...) takes "
                                           "an "
                                           "expression in g, sigma(g), dsigma(g), numbers and scalars")
        if integrand.has(sympy.Sum):
            raise MalformedExpressionError(f"claim: a Sum inside {clip(call, 60)}; write the Sum of Eg's")


def _check_arguments(claim: ParsedClaim) -> None:
    """mu, hcoef and T take integer arguments; an argument that is not integer-valued is refused now."""
    for call in claim.expressions_atoms(sympy.core.function.AppliedUndef):
        name = type(call).__name__
        if name in QUANTITIES and QUANTITIES[name][1] == "integer":
            for argument in call.args:
                if argument.is_integer is not True:
                    raise MalformedExpressionError(
                        f"claim: {name}(...) takes integer arguments, got {argument} in {call} "
                        "(declare integer variables with --for 'NAME in a..b')"
                    )
                if argument.is_number and argument < 0:
                    raise MalformedExpressionError(
                        f"claim: {name}(...) takes non-negative integers, got {call}"
                    )
        if name in QUANTITIES and QUANTITIES[name][1] == "index":
            for argument in call.args:
                if argument.is_integer is not True or (argument.is_number and argument < 1):
                    raise MalformedExpressionError(
                        f"claim: {call}: the indices of {name} are integers in 1..k, got {argument}"
                    )


class InexactNumberError(ValueError):
    """An exact computation met a SymPy Float: a rounded value whose true value is unknown."""


def exact_number(value) -> sympy.Expr:
    """``value`` checked to hold no SymPy Float, so that exact arithmetic stays exact.

    The parser reads every decimal literal as the rational it spells (0.1 is 1/10), so a Float
    here is the rounded result of some float computation.  It used to be ``nsimplify``-ed, which
    replaced 0.5000000000001 by 1/2 and let ``mu(1) == 0.5000000000001`` hold *exactly*; now it
    raises :class:`InexactNumberError` and the caller decides without the exact step."""
    if not isinstance(value, sympy.Basic):
        if isinstance(value, int) and not isinstance(value, bool):
            return sympy.Integer(value)
        raise InexactNumberError(f"{value!r} is not an exact number")
    if isinstance(value, sympy.Float) or value.atoms(sympy.Float):
        raise InexactNumberError(f"{clip(value, 80)} holds an inexact (float) number")
    return value


def is_finite_real(value) -> bool:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return False
    return math.isfinite(number)
