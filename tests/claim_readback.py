r"""Read the LaTeX of a printed claim back, as a reader of the paper would (issue #39).

A reader written for this test, not the printer run backwards: it reads the LaTeX that
:func:`verify.claims.printing.claim_latex` writes with the conventions of mathematical writing,
and :func:`agree` compares what it reads with the claim the whitelist parser builds from the
source text (structurally, after naming both sides' symbols alike).  The conventions:

* ``\sum_{i=a}^{b}`` takes as its body everything up to the next ``+``, ``-``, relation or
  closing bracket (``\sum_i a_i \cdot x`` is Σ(a_i x)); a printed sum that means less must be
  bracketed;
* a subscript of μ, λ, c, ĉ, G or h is the quantity's index (``\mu_{p}`` is mu(p)); a subscript
  of any other name belongs to the name (``L_{2}`` is L2, ``\lambda_{\mathrm{max}}`` lam_max);
* ``h(m)``, ``K(ρ)``, ``K'(ρ)``, ``Φ(m)``, ``T(l, s)``, ``σ(g)``, ``σ'(g)`` and the named
  functions are calls; :math:`\mathbb{E}_g[\cdot]` is Eg.
"""

from __future__ import annotations

import re

import sympy

from verify.claims.printing import parsed_claim

#: What a reader takes each printed symbol for (the claim language's names).
SYMBOLS = {r"\pi": "pi", r"\infty": "oo", r"\delta": "delta", r"\varepsilon": "epsilon",
           r"\ell_{*}": "lstar"}
#: Quantities whose subscript is an index.
INDEXED = {r"\mu": "mu", r"\lambda": "lam", "c": "c", r"\hat{c}": "chat", "G": "G", "h": "hcoef"}
#: Heads read as calls.
CALLS = {"h": "h", "K": "K", "K'": "Kp", r"\Phi": "Phi", "T": "T", r"\sigma": "sigma", r"\sigma'": "dsigma",
         "O": "O", r"\Theta": "Theta", r"\Omega": "Omega", r"\exp": "exp", r"\log": "log", r"\sin": "sin",
         r"\cos": "cos", r"\tanh": "tanh", r"\sinh": "sinh", r"\cosh": "cosh", r"\arcsin": "asin",
         r"\arccos": "acos", r"\min": "Min", r"\max": "Max", r"\mathrm{Var}_{\nabla}": "grad_var"}
#: The claim language's names for the same symbols (aliases of the ledger and Greek spellings).
SAME = {"dl": "delta", "eps": "epsilon", "lam_min": "lambda_min", "lam_max": "lambda_max"}
_RELATIONS = {"=": sympy.Eq, r"\leq": sympy.Le, r"\geq": sympy.Ge, "<": sympy.Lt, ">": sympy.Gt}
_TOKEN = re.compile(r"\\left[(|\[]|\\right[)|\]]|\\mathrm\{[A-Za-z0-9]+\}(?:_\{\\nabla\})?"
                    r"|\\hat\{c\}|\\ell_\{\*\}"
                    r"|\\mathbb\{E\}_\{g\}|\\[A-Za-z]+'?|[A-Za-z]'?|\d+(?:\.\d+)?|[{}^_=<>+\-,]|\S")


class _Reader:
    def __init__(self, latex: str):
        self.tokens = _TOKEN.findall(latex)
        self.at = 0

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise ValueError(f"expected {expected!r} at token {self.at}, got {token!r}")
        self.at += 1
        return token

    def relation(self):
        left = self.sum()
        if self.peek() in _RELATIONS:
            op = _RELATIONS[self.take()]
            left = op(left, self.sum(), evaluate=False)
        if self.peek() is not None:
            raise ValueError(f"unread tail from token {self.at}: {self.tokens[self.at:]}")
        return left

    def sum(self):
        value = self.product()
        while self.peek() in ("+", "-"):
            value = value + self.product() if self.take() == "+" else value - self.product()
        return value

    def product(self):
        value = self.signed()
        while self.peek() == r"\cdot":
            self.take()
            value = value * self.signed()
        return value

    def signed(self):
        if self.peek() == "-":
            self.take()
            return -self.signed()
        if self.peek() == "+":
            self.take()
        return self.power()

    def power(self):
        base = self.primary()
        if self.peek() == "^":
            self.take()
            return base ** self.group()
        return base

    def group(self):
        self.take("{")
        value = self.sum()
        self.take("}")
        return value

    def subscript(self) -> str:
        """The raw tokens of a subscript group, joined."""
        self.take("_")
        self.take("{")
        start = self.at
        depth = 1
        while depth:
            token = self.take()
            depth += (token == "{") - (token == "}")
        return "".join(self.tokens[start:self.at - 1])

    def arguments(self, closing: str) -> list:
        values = [self.sum()]
        while self.peek() == ",":
            self.take()
            values.append(self.sum())
        self.take(closing)
        return values

    def primary(self):
        token = self.take()
        if re.fullmatch(r"\d+(?:\.\d+)?", token):
            return sympy.Rational(token) if "." in token else sympy.Integer(token)
        if token == r"\left(":
            return self.bracketed(r"\right)")
        if token == r"\left|":
            return sympy.Abs(self.bracketed(r"\right|"))
        if token == r"\frac":
            if self.tokens[self.at:self.at + 2] == ["{", r"\mathrm{d}"]:
                return self.derivative()
            return self.group() / self.group()
        if token == r"\sqrt":
            return sympy.sqrt(self.group())
        if token == r"\binom":
            return sympy.binomial(self.group(), self.group())
        if token == r"\sum":
            return self.sum_sign()
        if token == r"\mathbb{E}_{g}":
            self.take(r"\left[")
            return sympy.Function("Eg")(*self.arguments(r"\right]"))
        word_index = self.tokens[self.at + 2:self.at + 3] and self.tokens[self.at + 2].startswith(r"\mathrm")
        if token in INDEXED and self.peek() == "_" and not word_index:  # λ_min is a name
            index = self.subscript()
            return sympy.Function(INDEXED[token])(*[_Reader(part).sum() for part in index.split(",")])
        if token in CALLS and self.peek() == r"\left(":
            self.take()
            return _call(CALLS[token], self.arguments(r"\right)"))
        return self.name(token)

    def derivative(self):
        r"""``\frac{\mathrm{d}^{n}}{\mathrm{d}x^{n}} F`` (after ``\frac``), the printer's diff."""
        self.take("{")
        self.take(r"\mathrm{d}")
        order = self.order()
        self.take("}")
        self.take("{")
        self.take(r"\mathrm{d}")
        variable = self.name(self.take())
        if self.order() != order:
            raise ValueError("the orders of a derivative's top and bottom differ")
        self.take("}")
        return sympy.Derivative(self.power(), (variable, order))

    def order(self) -> int:
        if self.peek() != "^":
            return 1
        self.take("^")
        self.take("{")
        order = int(self.take())
        self.take("}")
        return order

    def bracketed(self, closing: str):
        value = self.sum()
        self.take(closing)
        return value

    def sum_sign(self):
        self.take("_")
        self.take("{")
        index = sympy.Symbol(self.take())
        self.take("=")
        low = self.sum()
        self.take("}")
        self.take("^")
        high = self.group()
        return sympy.Sum(self.product(), (index, low, high))

    def name(self, token: str):
        if token in SYMBOLS:
            return sympy.pi if token == r"\pi" else sympy.Symbol(SYMBOLS[token])
        word = re.fullmatch(r"\\mathrm\{([A-Za-z0-9]+)\}", token)
        base = word.group(1) if word else token.lstrip("\\")
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*", base):
            raise ValueError(f"no reading of {token!r}")
        if self.peek() == "_":
            sub = self.subscript()
            sub = re.sub(r"\\mathrm\{([A-Za-z]+)\}", r"\1", sub).lstrip("\\")
            base = f"{base}{sub}" if sub.isdigit() and len(base) == 1 else f"{base}_{sub}"
        return sympy.Symbol(base)


def _call(name: str, args: list):
    table = {"exp": sympy.exp, "log": sympy.log, "sin": sympy.sin, "cos": sympy.cos, "tanh": sympy.tanh,
             "sinh": sympy.sinh, "cosh": sympy.cosh, "asin": sympy.asin, "acos": sympy.acos,
             "Min": sympy.Min, "Max": sympy.Max}
    return table[name](*args) if name in table else sympy.Function(name)(*args)


def _as_written(read, expected):
    """``read`` with each symbol replaced by the source's symbol of the same name (its
    assumptions too), so that SymPy's automatic evaluation treats both sides alike."""
    by_name = {SAME.get(s.name, s.name): s for s in expected.free_symbols}
    for sub in sympy.preorder_traversal(expected):
        if isinstance(sub, sympy.Sum):
            by_name.update({limit[0].name: limit[0] for limit in sub.limits})
    swap = {}
    for sub in sympy.preorder_traversal(read):
        if isinstance(sub, sympy.Symbol) and sub.name in by_name:
            swap[sub] = by_name[sub.name]
    return read.xreplace(swap)


def written(source: str):
    """The claim as the whitelist parser reads ``source`` (relations unevaluated)."""
    _, parsed = parsed_claim(source, what="claim")
    if hasattr(parsed, "op"):
        op = {"==": sympy.Eq, "<=": sympy.Le, ">=": sympy.Ge, "<": sympy.Lt, ">": sympy.Gt}[parsed.op]
        return op(sympy.sympify(parsed.lhs), sympy.sympify(parsed.rhs), evaluate=False)
    return sympy.sympify(parsed)


def agree(source: str, latex: str) -> None:
    """Raise AssertionError when ``latex`` does not read back as the claim ``source``."""
    expected, read = written(source), _Reader(latex).relation()
    failure = AssertionError(f"{source!r} printed as {latex!r} reads back as {read}, not {expected}")
    if isinstance(expected, sympy.Rel):
        if type(read) is not type(expected):
            raise failure
        pairs = list(zip(expected.args, read.args, strict=True))
    else:
        pairs = [(expected, read)]
    for want, got in pairs:
        got = _as_written(got, expected)
        if want != got and sympy.simplify(want - got) != 0:
            raise failure
