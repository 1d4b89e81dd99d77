r"""Claims written in LaTeX, read into the claim language (issue #53).

A theorist writes ``\mathbb{E}_g[\sigma'(g)] = \tfrac12``; the claim language spells it
``Eg(dsigma(g)) == 1/2``.  :func:`to_claim_language` translates the first into the second by a
recursive descent over a whitelist of LaTeX tokens, and the result then goes through the claim
language's own whitelist parser (:func:`verify.claims.language.parse_claim`), so LaTeX adds no
second way in: what the ASCII language refuses, LaTeX cannot say.  Nothing is evaluated here; the
text is at most :data:`MAX_LENGTH` characters and groups nest at most :data:`MAX_DEPTH` deep, so
the work is linear in the input.

What is read (anything else is refused in one line naming the construct and, where there is
one, the claim language's spelling):

- relations ``=``, ``\le``/``\leq``/``\leqslant``, ``\ge``/``\geq``/``\geqslant``, ``<``, ``>``
  (one per claim; ``&`` of an ``align`` is dropped);
- ``+ - \cdot \times * /``, juxtaposition as a product, ``^`` (one character or a group, as TeX
  reads it: ``\tfrac12`` is 1/2), ``\frac``/``\tfrac``/``\dfrac``, ``\sqrt``, ``\sqrt[n]``,
  ``\binom``, ``n!``, ``|x|``, ``\lvert x\rvert``, ``\lfloor x\rfloor``, ``\lceil x\rceil``,
  brackets with or without ``\left``/``\right`` and the sizing commands;
- ``\exp \log \ln \sin \cos \tanh \sinh \cosh \arcsin \arccos \arctan \operatorname{erf} \max
  \min \Gamma``, ``e^{x}`` as exp(x), ``\pi``, ``\infty``;
- the model: ``h(m)``, ``\Phi(m)``, ``K(\rho)``, ``K'(\rho)``, ``T(l, s)``, ``\mu_p`` (also
  ``\mu_p(\sigma)``), ``\sigma(g)``, ``\sigma'(g)``, ``\sigma''(g)``, ``\sigma^{(n)}(g)``,
  ``\lambda_i``, ``c_i``, ``\hat c_i``, ``G_{ij}``, ``\lambda_{\min}``, ``\lambda_{\max}``,
  ``C_\sigma``, ``\ell^*``, ``\langle c, \hat c\rangle``, a prime on ``h``, ``\Phi`` or ``K'`` as
  a derivative, ``O``/``\mathcal{O}``, ``\Theta``, ``\Omega``;
- ``\mathbb{E}_g[\,\cdot\,]`` (also ``\mathbb{E}``, ``\operatorname{E}``, ``\E``, a subscript
  ``z \sim \mathcal{N}(0, 1)``: its variable is renamed g) as ``Eg(...)``;
- ``\sum_{i=1}^{k}`` (``\sum_{i \in [k]}``, ``\sum_{p \ge 0}``) over the product that follows;
- Greek letters by name (``\xi`` is xi, ``\lambda`` is lam, ``\ell`` is l).

A pack's own macros (its ``\newcommand``s) are expanded by the caller first
(:func:`verify.paper.macros.expand`; the ledger does so for its entries).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from verify.base.errors import MalformedExpressionError, clip
from verify.model.activations import builtin_names

#: Longest LaTeX claim read: a display of the paper is under 600 characters.
MAX_LENGTH = 4000
#: Deepest nesting of groups, brackets and commands' arguments.
MAX_DEPTH = 60
#: Highest order of a Hermite polynomial h_p(x) written out (its coefficients have ~ p digits).
MAX_HERMITE = 30


class LatexClaimError(MalformedExpressionError):
    """The LaTeX cannot be read as a claim (names the construct and what to write instead)."""


_TOKEN = re.compile(r"\\(?:[A-Za-z]+|.)|\d+(?:\.\d+)?|[A-Za-z]|\S", re.DOTALL)
#: Commands with no meaning in a formula: spacing, sizing, style.
_IGNORED = frozenset(
    {
        ",",
        ";",
        ":",
        "!",
        " ",
        "left",
        "right",
        "big",
        "Big",
        "bigg",
        "Bigg",
        "bigl",
        "bigr",
        "Bigl",
        "Bigr",
        "biggl",
        "biggr",
        "Biggl",
        "Biggr",
        "middle",
        "displaystyle",
        "textstyle",
        "limits",
        "nolimits",
        "nonumber",
        "notag",
        "mathstrut",
        "phantom",
        "allowbreak",
        "thinspace",
        "enspace",
    }
)
_SAME_AS = {
    "lvert": "|",
    "rvert": "|",
    "vert": "|",
    "lVert": "\\|",
    "rVert": "\\|",
    "Vert": "\\|",
    "lbrace": "\\{",
    "rbrace": "\\}",
    "lbrack": "[",
    "rbrack": "]",
    "lparen": "(",
    "rparen": ")",
    "mid": "|",
}
_RELATIONS = {
    "=": "==",
    "le": "<=",
    "leq": "<=",
    "leqslant": "<=",
    "ge": ">=",
    "geq": ">=",
    "geqslant": ">=",
    "<": "<",
    ">": ">",
    "lt": "<",
    "gt": ">",
}
#: Relations the claim language has no spelling for, and what to write instead.
_NO_RELATION = {
    "ne": "a claim cannot say !=; state the sign of the difference (> or <)",
    "neq": "a claim cannot say !=; state the sign of the difference (> or <)",
    "lesssim": "a <~ b hides a constant: write a == O(b)",
    "gtrsim": "a >~ b hides a constant: write a == Omega(b)",
    "asymp": "write a == Theta(b)",
    "approx": "~ is not a relation: give a bound with <= or >=",
    "sim": "~ is not a relation: give a bound, or a == Theta(b)",
    "propto": "write a == Theta(b)",
    "to": "a limit is not a claim: bound the expression",
    "in": "membership goes in a quantifier: --for 'm in [0, 1]'",
    "forall": "quantifiers go in --for: --for 'm in [0, 1]'",
    "exists": "a claim is universal over its --for ranges",
    "pm": "write the two claims, one with + and one with -",
    "mp": "write the two claims, one with - and one with +",
}
_FUNCTIONS = {
    "exp": "exp",
    "log": "log",
    "ln": "log",
    "sin": "sin",
    "cos": "cos",
    "tanh": "tanh",
    "sinh": "sinh",
    "cosh": "cosh",
    "arcsin": "asin",
    "arccos": "acos",
    "arctan": "atan",
    "arsinh": "asinh",
    "arcsinh": "asinh",
    "sech": "sech",
    "erf": "erf",
    "erfc": "erfc",
    "sgn": "sign",
    "sign": "sign",
    "max": "Max",
    "min": "Min",
    "Gamma": "Gamma",
}
#: The inverse a ``^{-1}`` on a function's name means (\sin^{-1} x is arcsin x).
_INVERSES = {"sin": "asin", "cos": "acos", "sinh": "asinh"}
#: Upright names (\operatorname{...}, \mathrm{...}) that are functions.
_NAMED = {
    "erf": "erf",
    "erfc": "erfc",
    "sign": "sign",
    "sgn": "sign",
    "sech": "sech",
    "asinh": "asinh",
    "arsinh": "asinh",
    "Var": None,
    "Cov": None,
}
_GREEK = {
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "zeta",
    "eta",
    "theta",
    "iota",
    "kappa",
    "nu",
    "xi",
    "rho",
    "tau",
    "upsilon",
    "phi",
    "chi",
    "psi",
    "omega",
    "mu",
    "sigma",
    "lambda",
}
_GREEK_SPELLING = {
    "varepsilon": "epsilon",
    "vartheta": "theta",
    "varrho": "rho",
    "varphi": "phi",
    "lambda": "lam",
    "ell": "l",
}
#: Single letters that are quantities of the language: a call when a bracket follows.
_CALLABLE = {"h": "h", "K": "K", "T": "T", "O": "O"}
_ORDERS = {"Theta": "Theta", "Omega": "Omega"}
_OPENING = {"(": ")", "[": "]", "\\{": "\\}"}
#: Words of the claim language that LaTeX would read letter by letter (xi is x times i there).
_WORDS = frozenset(
    {
        "xi",
        "rho",
        "lam",
        "chat",
        "sigma",
        "dsigma",
        "mu",
        "Eg",
        "Phi",
        "Kp",
        "exp",
        "log",
        "sqrt",
        "sin",
        "cos",
        "tanh",
        "erf",
        "erfc",
        "abs",
        "Abs",
        "Sum",
        "pi",
        "oo",
        "hcoef",
        "lstar",
        "gamma",
        "eta",
        "diff",
        "sign",
        "Max",
        "Min",
        "binomial",
        "factorial",
        "atan",
        "asin",
    }
)
#: Commands whose argument is an upright word (\\operatorname{erf}, \\mathrm{min}).
_STYLES = frozenset(
    {
        "operatorname",
        "mathrm",
        "text",
        "textrm",
        "mathit",
        "mathbb",
        "mathbf",
        "mathsf",
        "mathcal",
        "rm",
        "mathop",
    }
)
#: Variables a condition a \\le x \\le b with integer ends ranges over the integers.
_INTEGER_VARIABLES = frozenset({"k", "d", "p", "l", "s", "n", "i", "j"})
_ATOM = re.compile(r"^(?:[A-Za-z_]\w*|\d+(?:\.\d+)?)$")


def looks_like_latex(text: str) -> bool:
    """Whether ``text`` is LaTeX rather than the claim language, which never holds a backslash,
    ``^`` or a brace.  A single ``=`` is not taken as a sign of LaTeX: read as LaTeX,
    ``Eg(dsigma(g)) = 1/2`` would be the product E*g*(...), so it stays with the claim language,
    whose parser says to write ``==``."""
    return "\\" in text or "^" in text or "{" in text


_QUAD = "\\quad"


def _wide_spaces(tokens: list[str]) -> list[str]:
    """``\\quad`` and ``\\qquad`` kept only where they separate a claim from its conditions: outside
    every bracket, one for a run, and not before an operator (an align's ``&\\quad + c``)."""
    kept, depth = [], 0
    for i, token in enumerate(tokens):
        depth += {"(": 1, ")": -1, "[": 1, "]": -1, "{": 1, "}": -1, "\\{": 1, "\\}": -1}.get(token, 0)
        if token in (_QUAD, "\\qquad"):
            following = next((t for t in tokens[i + 1 :] if t not in (_QUAD, "\\qquad")), None)
            if (
                depth == 0
                and kept
                and kept[-1] not in (_QUAD, "\\\\")
                and following is not None
                and not _continues(following)
            ):
                kept.append(_QUAD)
            continue
        kept.append(token)
    return kept


#: Names of the claim language that are constants, not variables a condition could bound.
_CONSTANTS = frozenset({"pi", "E", "oo"})


def _bounds_one_variable(sides: list[str]) -> bool:
    r"""Whether the chain of ``sides`` (claim-language texts) is a condition on one variable: one of
    its sides is a bare variable that no other side holds (``m`` of ``0 \le m \le 1`` or ``m \ge
    0``; not ``K(0) = 1/4``, nor ``h(m) \le h(1)``)."""
    for i, side in enumerate(sides):
        if re.fullmatch(r"[A-Za-z_]\w*", side) and side not in _CONSTANTS and not any(
                side in re.findall(r"[A-Za-z_]\w*", other) for j, other in enumerate(sides) if j != i):
            return True
    return False


def _is_relation(token: str | None) -> bool:
    """Whether ``token`` is a relation the claim language spells (``=``, ``<``, ``>``, ``\\le``, …)."""
    return token in ("=", "<", ">") or bool(token and token.startswith("\\") and token[1:] in _RELATIONS)


def _continues(token: str) -> bool:
    """Whether a line that starts with ``token`` continues the line before it."""
    return (
        token in ("+", "-", "*", "/", "\\cdot", "\\times")
        or _is_relation(token)
        or (token.startswith("\\") and token[1:] in _NO_RELATION)
    )


def _atomic(text: str) -> bool:
    """Whether ``text`` needs no brackets as a factor, a base or a divisor: a name, a number, a
    call, or a bracket that closes at its end."""
    if _ATOM.match(text):
        return True
    head = re.match(r"^[A-Za-z_]\w*\(|^\(", text)
    if not head:
        return False
    depth = 0
    for i in range(head.end() - 1, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i == len(text) - 1
    return False


def _wrap(text: str) -> str:
    return text if _atomic(text) else f"({text})"


def _operators_outside_brackets(text: str) -> str:
    """The operator characters of ``text`` outside every bracket (``**`` counts as none)."""
    depth, found = 0, []
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and char in "+-*/" and not (char == "*" and "**" in text[max(i - 1, 0) : i + 2]):
            found.append(char)
    return "".join(found)


def _fraction(top: str, bottom: str) -> str:
    """top/bottom with only the brackets Python's precedence needs: a sum above, a product or a
    sum below (a*b/c is (a*b)/c, a/b**2 is a/(b**2))."""
    binary = _operators_outside_brackets(top.lstrip().removeprefix("-"))  # a leading minus is unary
    top = f"({top})" if set(binary) & set("+-") else top
    bottom = f"({bottom})" if _operators_outside_brackets(bottom) else bottom
    return f"{top}/{bottom}"


def _quoted(latex: str) -> str:
    """``latex`` clipped and quoted for an error message as typed: one backslash per backslash
    (``repr`` doubled them: '\\\\mu_1'), and any character that is not printable as an escape."""
    shown = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in clip(latex, 60))
    return f"'{shown}'"


#: The names a text may give an activation in \mu_p(…) (lower case): the suite's built-in ones.
_ACTIVATION_NAMES = frozenset(builtin_names())
#: The commands that set a word upright: \mathrm{relu}, \operatorname{erf}, \text{ReLU}.
_NAME_STYLES = frozenset({"mathrm", "operatorname", "text", "textrm", "mathsf", "rm"})


class _Reader:
    """The recursive descent: each method reads one construct and returns its claim-language text."""

    def __init__(self, latex: str):
        self.source = latex
        found = [
            m
            for m in _TOKEN.finditer(latex)
            if not (m.group().startswith("\\") and m.group()[1:] in _IGNORED)
        ]
        for i, match in enumerate(found):
            # a word of the claim language typed without its backslash: LaTeX reads xi as x*i
            if match.group().isalpha() and (
                i == 0 or found[i - 1].end() < match.start() or not found[i - 1].group().isalpha()
            ):
                run = re.match(r"[A-Za-z]+", latex[match.start() :]).group()
                word = next((w for w in sorted(_WORDS, key=len, reverse=True) if run.startswith(w)), None)
                before = [m.group() for m in found[max(i - 2, 0) : i]]
                styled = bool(before) and (
                    before[-1][1:] in _STYLES
                    or before[-2:]
                    and before[-1] == "{"
                    and len(before) == 2
                    and before[0][1:] in _STYLES
                )
                if word and len(run) >= 2 and not styled:
                    raise LatexClaimError(
                        f"latex claim {_quoted(latex)}: {run!r} reads in LaTeX as the product "
                        f"{'*'.join(run)}; write \\{word} (LaTeX) or the whole claim in the claim language"
                    )
        self.tokens = [m.group() for m in found]
        self.tokens = [_SAME_AS.get(t[1:], t) if t.startswith("\\") else t for t in self.tokens]
        self.tokens = [t for t in self.tokens if t not in ("&", "~")]
        while self.tokens and self.tokens[-1] in (".", ",", "\\\\"):
            self.tokens.pop()  # a display's closing punctuation or line break
        # a line's own punctuation before an align's line break (K(0) &= 1/2, \\\\ K'(1) &= ...)
        self.tokens = [t for i, t in enumerate(self.tokens)
                       if not (t in (",", ".", ";") and self.tokens[i + 1:i + 2] == ["\\\\"])]
        self.tokens = _wide_spaces(self.tokens)
        # a line break before an operator or a relation continues the line (an align's &= or + ...)
        self.tokens = [
            t
            for i, t in enumerate(self.tokens)
            if not (t == "\\\\" and i + 1 < len(self.tokens) and _continues(self.tokens[i + 1]))
        ]
        self.at = 0
        self.depth = 0
        self.renamed: dict[str, str] = {}
        self.in_abs = 0
        self.closers: list[str] = []
        #: the ranges that conditions after the relation give (\\quad \\text{for } 0 \\le m \\le 1)
        self.quantifiers: list[str] = []
        #: the activations that \\mu_p(\\tanh), \\mu_1(\\mathrm{relu}) name (the claim's activation)
        self.activations: list[str] = []

    # -- tokens -----------------------------------------------------------------------------------
    def peek(self, ahead: int = 0) -> str | None:
        i = self.at + ahead
        return self.tokens[i] if i < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            self.fail("the formula ends too early (an unclosed group or a missing operand)")
        self.at += 1
        return token

    def expect(self, token: str) -> None:
        found = self.peek()
        if found != token:
            self.fail(
                f"expected {token!r} but found {found!r}" if found else f"expected {token!r} at the end"
            )
        self.at += 1

    def fail(self, message: str, advice: str = ""):
        raise LatexClaimError(
            f"latex claim {_quoted(self.source)}: {message}" + (f"; {advice}" if advice else "")
        )

    def nested(self):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.fail(f"groups nest more than {MAX_DEPTH} deep")

    # -- grammar ----------------------------------------------------------------------------------
    def relations(self) -> list[str]:
        """Every relation of a display: a chain A = B <= C is A == B and B <= C; a line break
        that does not continue the line starts a new chain."""
        if _is_relation(self.peek()):
            self.fail(
                "the display starts with a relation: it continues the display before it",
                "write the whole chain, from its first side",
            )
        out = []
        left = self.expression()
        line_start = 0
        while self.peek() is not None:
            if out and self.peek() in (",", "(", "\\text", "\\textrm", "\\forall", _QUAD):
                found = self.another_relation()
                if found is None:
                    self.conditions()
                else:
                    out += found
                continue
            op = self.relation()
            if op is not None:
                right = self.expression()
                out.append(f"{left} {op} {right}")
                left = right
            elif self.peek() == "\\\\":
                if len(out) == line_start:  # its expression would be lost
                    self.fail("a line without a relation", "join it to the line it continues")
                self.at += 1
                line_start = len(out)
                left = self.expression()
            else:
                self.fail(f"{self.peek()!r} is not understood here")
        if line_start and len(out) == line_start:
            self.fail("a line without a relation", "join it to the line it continues")
        if not out:
            self.fail("no relation (=, \\le, \\ge, <, >)", "a claim relates two sides, e.g. h(0) \\ge 0")
        return out

    def another_relation(self) -> list[str] | None:
        r"""After a relation, the part that follows ``,``, ``\quad``/``\qquad`` or ``\text{and}``
        when it is itself a relation between expressions (``K(0) = \frac{1}{\pi}, \qquad K'(0) =
        \frac14``): its relations, a chain giving one each.  None, with nothing read, when it is a
        condition (:meth:`conditions`): ``\text{for …}``, ``\forall …``, a bracket, ``m \in …``, or a
        relation that bounds one variable (``0 \le m \le 1``, ``m \ge 0``: :func:`_bounds_one_variable`)."""
        saved = (self.at, self.depth, self.in_abs, list(self.closers), dict(self.renamed))

        def restore() -> None:
            self.at, self.depth, self.in_abs, self.closers, self.renamed = saved
            return None

        while self.peek() in (",", _QUAD, "\\text", "\\textrm"):
            if self.take() in ("\\text", "\\textrm") and (
                    self.peek() != "{" or self.raw_argument().strip(" ,.").lower() != "and"):
                return restore()
        if self.peek() in (None, "(", "\\forall"):
            return restore()
        try:
            sides, ops = [self.expression()], []
            while (op := self.relation()) is not None:
                ops.append(op)
                sides.append(self.expression())
        except LatexClaimError:
            return restore()
        ends = self.peek() in (None, ",", _QUAD, "\\text", "\\textrm", "\\forall", "(", "\\\\")
        if not ops or not ends or _bounds_one_variable(sides):
            return restore()
        return [f"{a} {op} {b}" for a, op, b in zip(sides[:-1], ops, sides[1:], strict=True)]

    def conditions(self) -> None:
        """The conditions written after a claim, as quantifiers: ``, \\quad m \\in [0, 1]``,
        ``\\text{for all } m \\in [0, 1]``, ``\\quad (-1 \\le m \\le 1)``, ``\\forall \\rho \\in [-1, 1]``."""
        while self.peek() is not None:
            token = self.take()
            if token in (",", "\\forall", _QUAD):
                continue
            if token in ("\\text", "\\textrm", "\\mathrm"):
                words = self.raw_argument() if self.peek() == "{" else ""
                if words.strip(" ,.").lower() not in (
                    "for",
                    "forall",
                    "foreach",
                    "where",
                    "and",
                    "if",
                    "with",
                    "on",
                    "all",
                    "every",
                    "any",
                    "whenever",
                    "",
                ):
                    self.fail(
                        f"text {words!r} after the claim",
                        "conditions are ranges: \\text{for } 0 \\le m \\le 1, or --for 'm in [0, 1]'",
                    )
                continue
            if token == "(":
                self.closers.append(")")
                self.condition()
                self.closers.pop()
                self.expect(")")
                continue
            self.at -= 1
            self.condition()

    def condition(self) -> None:
        """One range: ``a \\le x \\le b`` or ``x \\in [a, b]`` (closed; an open end is refused)."""
        self.closers.append(",")
        first = self.expression()
        if self.peek() == "\\in":
            self.at += 1
            if self.peek() == "\\mathbb":  # x \in \mathbb{R}: the whole line
                self.at += 1
                field = self.raw_argument()
                if field != "R":
                    self.fail(f"the range \\mathbb{{{field}}} of {first}",
                              "a variable ranges over \\mathbb{R}, [a, \\infty) or a closed interval [a, b]")
                self.closers.pop()
                self.quantifier(first, "-oo", "oo")
                return
            if self.peek() not in ("[",):
                self.fail(f"the range of {first} is not a closed interval [a, b]", "give it as --for")
            self.at += 1
            low = self.expression()
            self.expect(",")
            self.closers.append("]")
            self.closers.append(")")
            high = self.expression()
            self.closers.pop()
            self.closers.pop()
            if self.peek() != "]" and not (high == "oo" and self.peek() == ")"):  # [a, \infty) is a half-line
                self.fail(
                    f"the range of {first} has an open end", "give the closed range as --for 'x in [a, b]'"
                )
            self.at += 1
            self.closers.pop()
            self.quantifier(first, low, high)
            return
        ops, sides = [], [first]
        while (op := self.relation()) is not None:
            ops.append(op)
            sides.append(self.expression())
        self.closers.pop()
        if ops != ["<=", "<="] or len(sides) != 3:
            written = " ".join(s for pair in zip(sides, [*ops, ""], strict=True) for s in pair).strip()
            self.fail(
                f"the condition {written!r}",
                "a condition is a closed range a \\le x \\le b (or x \\in [a, b]); give others as --for",
            )
        self.quantifier(sides[1], sides[0], sides[2])

    def quantifier(self, name: str, low: str, high: str) -> None:
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            self.fail(f"a condition on {name!r}", "a range bounds one variable: a \\le m \\le b")
        if high == "oo":  # an unbounded range (verify.claims.unbounded)
            self.quantifiers.append(f"{name} in R" if low == "-oo" else f"{name} in [{low}, oo)")
            return
        integer = name in _INTEGER_VARIABLES and all(re.fullmatch(r"-?\d+", b) for b in (low, high))
        self.quantifiers.append(f"{name} in {low}..{high}" if integer else f"{name} in [{low}, {high}]")

    def relation(self) -> str | None:
        token = self.peek()
        name = token[1:] if token and token.startswith("\\") else token
        if token and token.startswith("\\") and name in _NO_RELATION:
            self.fail(f"{token} is not a relation of the claim language", _NO_RELATION[name])
        if _is_relation(token):
            self.at += 1
            op = _RELATIONS[name]
            if op in ("<", ">") and self.peek() == "=":  # <= typed as two characters
                self.at += 1
                op += "="
            elif op == "==" and self.peek() == "=":
                self.at += 1
            return op
        return None

    def expression(self) -> str:
        self.nested()
        parts = []
        if self.peek() in ("+", "-"):
            parts.append("-" if self.take() == "-" else "")
        parts.append(self.term())
        while self.peek() in ("+", "-"):
            parts.append(f" {self.take()} ")
            parts.append(self.term())
        self.depth -= 1
        return "".join(parts)

    def term(self) -> str:
        out = self.factor()
        while True:
            token = self.peek()
            if token in ("\\cdot", "\\times", "*", "\\ast"):
                self.at += 1
                out = f"{out}*{self.factor()}"
            elif token == "/":
                self.at += 1
                bottom = self.factor()
                out = f"{out}/{f'({bottom})' if _operators_outside_brackets(bottom) else bottom}"
            elif self.starts_factor(token):
                out = f"{out}*{self.factor()}"
            else:
                return out

    def starts_factor(self, token: str | None) -> bool:
        if token is None or token in self.closers or token in ("\\text", "\\textrm", "\\forall", _QUAD):
            return False  # text is a condition after the claim (conditions), never a factor
        if token == "(" and self.bracket_holds_relation():
            return False  # (-1 \\le m \\le 1) after a claim is its condition
        if token == "|":
            return not self.in_abs
        if token.startswith("\\"):
            name = token[1:]
            return not (
                name in _RELATIONS
                or name in _NO_RELATION
                or token
                in ("\\cdot", "\\times", "\\\\", "\\}", "\\rangle", "\\rfloor", "\\rceil", "\\choose")
            )
        return token[0].isalnum() or token in ("(", "[", "{")

    def bracket_holds_relation(self) -> bool:
        """Whether the bracket opening at the current token holds a relation outside inner brackets."""
        depth = 0
        for token in self.tokens[self.at :]:
            depth += {"(": 1, ")": -1, "{": 1, "}": -1, "[": 1, "]": -1}.get(token, 0)
            if depth == 0:
                return False
            if depth == 1 and _is_relation(token):
                return True
        return False

    def factor(self) -> str:
        if self.peek() == "-":
            self.at += 1
            return f"-{self.factor()}"
        if self.peek() == "+":
            self.at += 1
        base = self.primary()
        while True:
            token = self.peek()
            if token == "^":
                self.at += 1
                base = f"{_wrap(base)}**{_wrap(self.script())}"
            elif token == "!":
                self.at += 1
                base = f"factorial({base})"
            elif token == "_":
                self.fail(
                    f"a subscript on {base!r}",
                    "the claim language writes indices as calls: c_i is c(i), \\mu_p is mu(p)",
                )
            elif token == "'":
                self.fail(f"a prime on {base!r}", "write the derivative as diff(EXPR, VAR)")
            else:
                return base

    def script(self) -> str:
        """The argument of ^ or _: a group, or one character (TeX reads x^12 as x^1 2)."""
        token = self.peek()
        if token == "{":
            return self.group("{", "}", bare=True)
        if token is not None and re.fullmatch(r"\d+(?:\.\d+)?", token) and len(token) > 1:
            self.tokens[self.at] = token[1:]
            return token[0]
        if token in ("*", "\\ast", "\\star"):
            self.fail(
                "a starred symbol (x^*)",
                "the claim language has no starred names; \\ell^* (the information exponent) is lstar",
            )
        return self.primary()

    def argument(self) -> str:
        """A command's argument: a group, or one token."""
        return self.script()

    def group(self, opening: str, closing: str, bare: bool = False) -> str:
        self.expect(opening)
        self.closers.append(closing)
        saved, self.in_abs = self.in_abs, 0
        inner = self.expression()
        if self.peek() == "\\choose":  # {n \choose k}
            self.at += 1
            inner = f"binomial({inner}, {self.expression()})"
        self.in_abs = saved
        self.closers.pop()
        self.expect(closing)
        return inner if bare or _atomic(inner) else f"({inner})"

    def arguments(self) -> list[str]:
        """The bracketed, comma-separated arguments of a call."""
        opening = self.peek()
        closing = _OPENING.get(opening)
        if closing is None:
            self.fail(f"expected an argument list in brackets after a function, found {opening!r}")
        self.at += 1
        self.closers += [closing, ","]
        saved, self.in_abs = self.in_abs, 0
        args = [self.expression()]
        while self.peek() == ",":
            self.at += 1
            args.append(self.expression())
        self.in_abs = saved
        del self.closers[-2:]
        self.expect(closing)
        return args

    def call(self, name: str, *, single: bool = False) -> str:
        """``name`` applied to bracketed arguments, or (``single``: \\log k) to the next factor.

        Two readings follow the papers' convention rather than the grammar's: ``\\cos 2x`` is
        cos(2x) (a number-led argument runs on through the juxtaposed factors that are not
        functions: ``\\sin 2\\pi t`` is sin(2πt)), and ``\\sin^{-1}`` is arcsin (the inverse
        function; on a function without a named inverse the exponent -1 is refused as ambiguous).
        Both were read as cos(2)·x and 1/sin, and true identities *failed* (red team 5)."""
        power = None
        if self.peek() == "^":
            self.at += 1
            power = self.script()
            if power.replace(" ", "") in ("-1", "(-1)"):
                inverse = _INVERSES.get(name)
                if inverse is None:
                    self.fail(f"{name}^{{-1}} may mean the inverse function or 1/{name}",
                              f"write 1/{name}(...) or the inverse by its name")
                name, power = inverse, None
        if self.peek() in _OPENING:
            text = f"{name}({', '.join(self.arguments())})"
        elif single:
            argument = self.factor()
            if re.fullmatch(r"\d+(?:\.\d+)?", argument):
                while self.starts_factor(self.peek()) and not self.function_follows():
                    argument = f"{argument}*{self.factor()}"
            text = f"{name}({argument})"
        else:
            self.fail(f"{name} needs its arguments in brackets")
        return f"{text}**{_wrap(power)}" if power is not None else text

    def function_follows(self) -> bool:
        """Whether the next token names a function (\\cos, \\operatorname{erf}, ...)."""
        token = self.peek() or ""
        return token.startswith("\\") and (token[1:] in _FUNCTIONS or token in ("\\operatorname", "\\mathrm"))

    def primary(self) -> str:
        self.nested()
        try:
            return self._primary()
        finally:
            self.depth -= 1

    def _primary(self) -> str:
        token = self.take()
        if re.fullmatch(r"\d+(?:\.\d+)?", token):
            return token
        if token in ("(", "[", "\\{"):
            self.at -= 1
            return self.group(token, _OPENING[token])
        if token == "{":
            self.at -= 1
            return self.group("{", "}")
        if token == "|":
            self.closers.append("|")
            self.in_abs += 1
            inner = self.expression()
            self.in_abs -= 1
            self.closers.pop()
            self.expect("|")
            return f"Abs({inner})"
        if token.startswith("\\"):
            return self.command(token[1:])
        if token.isalpha():
            return self.letter(token)
        self.fail(f"{token!r} is not understood here")

    # -- names ------------------------------------------------------------------------------------
    def subscript(self) -> str | None:
        if self.peek() != "_":
            return None
        self.at += 1
        if self.peek() == "{":
            self.at += 1
            start = self.at
            depth = 1
            while depth:
                token = self.take()
                depth += {"{": 1, "}": -1}.get(token, 0)
            return "".join(self.tokens[start : self.at - 1])
        return self.take()

    def primes(self) -> int:
        count = 0
        while self.peek() == "'":
            self.at += 1
            count += 1
        if self.peek() == "^" and self.peek(1) == "{" and self.peek(2) == "(":
            # \sigma^{(n)}: the n-th derivative
            end = self.tokens.index("}", self.at) if "}" in self.tokens[self.at :] else -1
            inner = self.tokens[self.at + 3 : end - 1] if end > 0 else []
            if end > 0 and self.tokens[end - 1] == ")" and len(inner) == 1 and inner[0].isdigit():
                self.at = end + 1
                return int(inner[0])
        return count

    def activation_name(self) -> str | None:
        r"""After ``\mu_p``: the activation ``(\tanh)``, ``(\mathrm{relu})``, ``(\operatorname{erf})``,
        ``(\text{ReLU})`` names, with its tokens consumed, if it is one of the suite's; else None,
        nothing consumed (``\mu_p(x)`` stays a product, refused later)."""
        at = self.at
        self.at += 1  # (
        token = self.peek() or ""
        if token[1:] in _NAME_STYLES and self.peek(1) == "{":
            end = self.tokens.index("}", self.at) if "}" in self.tokens[self.at:] else -1
            word = "".join(self.tokens[self.at + 2:end]) if end > 0 else ""
            self.at = end + 1 if end > 0 else self.at
        else:
            word = token[1:] if token.startswith("\\") else ""
            self.at += 1
        if self.peek() == ")" and word.lower() in _ACTIVATION_NAMES:
            self.at += 1
            return word.lower()
        self.at = at
        return None

    def leibniz(self) -> tuple[str, int] | None:
        r"""After ``\frac``: (variable, order) of a derivative in Leibniz's notation,
        ``\frac{d}{dm}``, ``\frac{\mathrm{d}^{2}}{\mathrm{d}m^{2}}`` (what the reports print for
        ``diff``), with the tokens consumed; else None, nothing consumed."""
        at = self.at

        def d() -> bool:
            if self.tokens[self.at:self.at + 4] == ["\\mathrm", "{", "d", "}"]:
                self.at += 4
                return True
            if self.peek() == "d":
                self.at += 1
                return True
            return False

        def power() -> int:
            if self.peek() == "^" and self.peek(1) == "{" and (self.peek(2) or "").isdigit() \
                    and self.peek(3) == "}":
                self.at += 4
                return int(self.tokens[self.at - 2])
            if self.peek() == "^" and (self.peek(1) or "").isdigit() and len(self.peek(1)) == 1:
                self.at += 2
                return int(self.tokens[self.at - 1])
            return 1

        found = None
        if self.peek() == "{":
            self.at += 1
            top = power() if d() else 0
            if top and self.peek() == "}" and self.peek(1) == "{":
                self.at += 2
                token = (self.peek() or "") if d() else ""
                variable = token[1:] if token.startswith("\\") else token
                if re.fullmatch(r"[A-Za-z]+", variable):
                    self.at += 1
                    if power() == top and self.peek() == "}" and 1 <= top <= 8:
                        self.at += 1
                        found = self.renamed.get(variable, variable), top
        if found is None:
            self.at = at
        return found

    def derivative(self, call: str, argument: str, order: int) -> str:
        if order == 0:
            return call
        if not re.fullmatch(r"[A-Za-z_]\w*", argument):
            self.fail(
                f"a derivative of {call} at {argument!r}",
                "differentiate in a variable and bind it: diff(h(m), m) with --for 'm = ...'",
            )
        return f"diff({call}, {argument}{'' if order == 1 else f', {order}'})"

    def letter(self, name: str) -> str:
        name = self.renamed.get(name, name)
        if name == "E" and self.peek() in ("_", "[", "\\{"):
            return self.expectation()
        if name == "e" and self.peek() == "^":
            self.at += 1
            return f"exp({self.script()})"
        index = self.subscript()
        if index is not None:
            if name == "h" and self.peek() in _OPENING:
                return self.hermite(index)
            return self.indexed(name, index)
        if name in _CALLABLE:
            order = self.primes()
            if self.peek() in _OPENING:
                args = self.arguments()
                head = "Kp" if name == "K" and order == 1 else _CALLABLE[name]
                order -= 1 if name == "K" and order == 1 else 0
                return self.derivative(f"{head}({', '.join(args)})", args[0], order)
            if order:
                self.fail(f"{name}{chr(39) * order} needs its argument", f"write {name}'(m) with a bracket")
        if name == "e":
            return "E"
        return name

    def hermite(self, order: str) -> str:
        """h_p(x), the normalized probabilists' Hermite polynomial He_p(x)/sqrt(p!), written out
        for a number p (the claim language has no Hermite polynomial of a symbolic order)."""
        if not order.isdigit() or int(order) > MAX_HERMITE:
            self.fail(
                f"h_{{{order}}}(x)",
                f"a Hermite polynomial h_p of a number p in 0..{MAX_HERMITE} is "
                "written out; for a symbolic p use mu(p) or hcoef(p)",
            )
        args = self.arguments()
        if len(args) != 1:
            self.fail("h_p takes one argument")
        p, x = int(order), _wrap(args[0])
        # He_p(x) = sum_j (-1)^j p! / (j! (p - 2j)! 2^j) x^(p - 2j)
        terms = []
        for j in range(p // 2 + 1):
            coefficient = (
                (-1) ** j * math.factorial(p) // (math.factorial(j) * math.factorial(p - 2 * j) * 2**j)
            )
            power = p - 2 * j
            monomial = "" if power == 0 else x if power == 1 else f"{x}**{power}"
            size = abs(coefficient)
            text = str(size) if not monomial else monomial if size == 1 else f"{size}*{monomial}"
            terms.append(("- " if coefficient < 0 else "+ ") + text)
        polynomial = " ".join(terms).removeprefix("+ ")
        return f"({polynomial})/sqrt({math.factorial(p)})" if p > 1 else _wrap(polynomial)

    def indexed(self, name: str, index: str) -> str:
        if name == "C" and index == "\\sigma":
            return "C_sigma"
        if name == "c":
            return f"c({_Reader(index).expression_only()})"
        if name == "G":
            letters = re.fullmatch(r"([A-Za-z])([A-Za-z])", index.replace(",", ""))
            if letters:
                return f"G({letters.group(1)}, {letters.group(2)})"
            return f"G({_Reader(index).expression_only()})"
        self.fail(
            f"a subscript {name}_{{{index}}}",
            "the claim language writes indices as calls: c_i is c(i), "
            "\\lambda_i is lam(i); a variable's name has no subscript",
        )

    def expression_only(self) -> str:
        out = self.expression()
        if self.peek() is not None:
            self.fail(f"{self.peek()!r} is not understood in a subscript")
        return out

    def command(self, name: str) -> str:
        if name in ("frac", "tfrac", "dfrac", "cfrac"):
            leibniz = self.leibniz()
            if leibniz is not None:
                variable, order = leibniz
                return self.derivative(self.factor(), variable, order)
            top, bottom = self.argument(), self.argument()
            return _fraction(top, bottom)
        if name in ("binom", "tbinom", "dbinom"):
            return f"binomial({self.argument()}, {self.argument()})"
        if name == "sqrt":
            if self.peek() == "[":
                root = self.group("[", "]")
                return f"{_wrap(self.argument())}**(1/{_wrap(root)})"
            return f"sqrt({self.argument()})"
        if name in ("lfloor", "lceil"):
            closing = "\\rfloor" if name == "lfloor" else "\\rceil"
            self.closers.append(closing)
            inner = self.expression()
            self.closers.pop()
            self.expect(closing)
            return f"{'floor' if name == 'lfloor' else 'ceil'}({inner})"
        if name in _FUNCTIONS:
            return self.call(_FUNCTIONS[name], single=name not in ("max", "min", "Gamma"))
        if name in _STYLES:
            return self.styled(name)
        if name == "E":
            return self.expectation()
        if name in ("hat", "widehat"):
            base = self.raw_argument()
            if base != "c":
                self.fail(f"\\hat{{{base}}}", "the only hatted quantity is \\hat c_i, chat(i)")
            index = self.subscript()
            if index is None:
                self.fail(
                    "\\hat c without an index", "write \\hat c_i (chat(i)) or \\langle c, \\hat c\\rangle"
                )
            return f"chat({_Reader(index).expression_only()})"
        if name == "langle":
            return self.inner_product()
        if name == "sum":
            return self.sum()
        if name == "infty":
            return "oo"
        if name == "pi":
            return "pi"
        if name in ("lambda",):
            index = self.subscript()
            if index is None:
                return "lam"
            if index in (
                "\\min",
                "\\max",
                "{\\min}",
                "{\\max}",
                "min",
                "max",
                "\\rm min",
                "\\rm max",
                "\\mathrm{min}",
                "\\mathrm{max}",
            ):
                return "lam_" + index.replace("\\mathrm{", "").replace("\\rm ", "").strip("\\{}")
            return f"lam({_Reader(index).expression_only()})"
        if name == "mu":
            index = self.subscript()
            if index is None:
                self.fail("\\mu without an index", "the Hermite coefficient is \\mu_p, mu(p)")
            if self.peek() == "(" and self.peek(1) == "\\sigma" and self.peek(2) == ")":
                self.at += 3  # \mu_p(\sigma): the activation is the claim's --activation
            elif self.peek() == "(":
                named = self.activation_name()
                if named is not None:
                    self.activations.append(named)
            return f"mu({_Reader(index).expression_only()})"
        if name == "sigma":
            order = self.primes()
            if self.peek() not in _OPENING:
                self.fail("\\sigma without its argument", "the activation is \\sigma(g) inside \\mathbb{E}_g")
            args = self.arguments()
            if len(args) != 1:
                self.fail("\\sigma takes one argument")
            if order == 0:
                return f"sigma({args[0]})"
            if order == 1:
                return f"dsigma({args[0]})"
            return self.derivative(f"sigma({args[0]})", args[0], order)
        if name == "Phi":
            order = self.primes()
            if self.peek() not in _OPENING:
                self.fail("\\Phi without its argument", "the population loss is \\Phi(m)")
            args = self.arguments()
            return self.derivative(f"Phi({', '.join(args)})", args[0], order)
        if name in _ORDERS:
            return f"{_ORDERS[name]}({', '.join(self.arguments())})"
        if name == "ell":
            if self.peek() == "^" and self.peek(1) in ("*", "\\ast", "\\star"):
                self.at += 2
                return "lstar"
            if (
                self.peek() == "^"
                and self.peek(1) == "{"
                and self.peek(2) in ("*", "\\ast", "\\star")
                and self.peek(3) == "}"
            ):
                self.at += 4
                return "lstar"
            return "l"
        if name in _GREEK or name in _GREEK_SPELLING:
            spelt = _GREEK_SPELLING.get(name, name)
            if self.subscript_follows():
                self.fail(
                    f"a subscript on \\{name}", "a variable's name has no subscript in the claim language"
                )
            return self.renamed.get(spelt, spelt)
        if name in ("cdots", "ldots", "dots", "dotsb", "dotsc", "vdots"):
            self.fail(f"\\{name}", "an ellipsis cannot be read: write the sum as \\sum_{i=1}^{k}")
        if name == "Pr" or name == "mathbb{P}":
            self.fail(
                "a probability",
                "a probability over the instance's draws is --prob '>= 0.9 over c' beside the "
                "claim inside it",
            )
        if name == "begin":
            self.fail(
                "an environment (\\begin{...})", "a case split is one claim per case, each with its own --for"
            )
        if name == "prod":
            self.fail(
                "\\prod", "the claim language has no product over an index; take logarithms and a \\sum"
            )
        if name == "|":
            # the norm of a scalar is its absolute value; the language has no vectors, so a vector's
            # name inside (\\|u\\|) is refused by its parser as an unknown name
            self.closers.append("\\|")
            inner = self.expression()
            self.closers.pop()
            self.expect("\\|")
            return f"Abs({inner})"
        if name == "int":
            return self.integral()
        self.fail(f"\\{name} is not a construct of the claim language", "see docs/claims.md, LaTeX input")

    def raw_argument(self) -> str:
        """A command's argument as its tokens: \\hat c or \\hat{c}."""
        if self.peek() != "{":
            return self.take()
        self.at += 1
        start = self.at
        while self.peek() not in ("}", None):
            self.at += 1
        self.expect("}")
        return "".join(self.tokens[start : self.at - 1])

    def subscript_follows(self) -> bool:
        return self.peek() == "_"

    def styled(self, style: str) -> str:
        """\\operatorname{erf}, \\mathrm{e}, \\mathbb{E}, \\mathcal{O}: read the name inside."""
        if self.peek() != "{":
            word = self.take()
        else:
            self.at += 1
            start = self.at
            while self.peek() not in ("}", None):
                self.at += 1
            word = "".join(t.lstrip("\\") for t in self.tokens[start : self.at])
            self.expect("}")
        if word == "E" or (style == "mathbb" and word == "E"):
            return self.expectation()
        if word == "e":
            if self.peek() == "^":
                self.at += 1
                return f"exp({self.script()})"
            return "E"
        if style == "mathcal" and word == "O":
            return f"O({', '.join(self.arguments())})"
        if word in _NAMED and _NAMED[word]:
            return self.call(_NAMED[word], single=True)
        if word in _FUNCTIONS:
            return self.call(_FUNCTIONS[word], single=True)
        if style in ("text", "textrm"):
            self.fail(
                f"text {word!r} inside the formula",
                "conditions go in --for (e.g. --for 'm in [0, 1]'), not in the claim",
            )
        self.fail(
            f"\\{style}{{{word}}} is not a construct of the claim language", "see docs/claims.md, LaTeX input"
        )

    def expectation(self) -> str:
        """\\mathbb{E}_g[...] (or with a subscript z \\sim \\mathcal N(0, 1)) as Eg(...)."""
        variable = "g"
        index = self.subscript()
        if index is not None:
            found = re.fullmatch(
                r"\s*([A-Za-z])\s*(?:(?:\\sim|\\thicksim)\s*(?:\\mathcal\s*\{?N\}?|N|"
                r"\\mathcal\{N\})\s*\(\s*0\s*,\s*1\s*\))?\s*",
                index,
            )
            if not found:
                self.fail(
                    f"an expectation over {index!r}",
                    "only the standard Gaussian g ~ N(0, 1) is an "
                    "expectation of the claim language: \\mathbb{E}_g[f(g)]",
                )
            variable = found.group(1)
        opening = self.peek()
        closing = _OPENING.get(opening) if opening in ("[", "(", "\\{") else None
        if closing is None:
            self.fail("an expectation without brackets", "write \\mathbb{E}_g[f(g)]")
        self.at += 1
        saved = dict(self.renamed)
        self.renamed[variable] = "g"
        self.closers.append(closing)
        inner_saved, self.in_abs = self.in_abs, 0
        body = self.expression()
        self.in_abs = inner_saved
        self.closers.pop()
        self.renamed = saved
        self.expect(closing)
        return f"Eg({body})"

    def inner_product(self) -> str:
        """⟨c, ĉ⟩ as Σ c_i ĉ_i (the only inner product of the language's vectors)."""
        start = self.at
        while self.peek() not in ("\\rangle", None):
            self.at += 1
        inside = (
            "".join(self.tokens[start : self.at])
            .replace("{", "")
            .replace("}", "")
            .replace("\\widehat", "\\hat")
        )
        self.expect("\\rangle")
        rows = re.fullmatch(r"w_(\w),w_(\w)", inside)
        if rows:  # <w_i, w_j> is the Gram matrix's entry
            return f"G({rows.group(1)}, {rows.group(2)})"
        if inside not in ("c,\\hatc", "\\hatc,c"):
            self.fail(
                f"the inner product <{inside}>",
                "the claim language's inner products are \\langle c, "
                "\\hat c\\rangle and \\langle w_i, w_j\\rangle (G(i, j))",
            )
        used = set(self.tokens)
        index = next((n for n in "ijqruvw" if n not in used), None)
        if index is None:
            self.fail("no free letter for the index of the inner product's sum")
        return f"Sum(c({index})*chat({index}), {index}, 1, k)"

    def integral(self) -> str:
        """\\int_a^b f(t)\\,dt (also \\mathrm{d}t) as Integral(f(t), t, a, b): finite ends, and
        the differential d followed by one letter where the body ends (at a relation, a + or −, a
        closing bracket or the end of the text)."""
        low = self.script_after("_")
        high = self.script_after("^")
        if low is None or high is None:
            self.fail("an integral without both ends", "write \\int_a^b f(t)\\,dt (finite a and b); an "
                      "integral against the Gaussian density is \\mathbb{E}_g[f(g)]")
        found = self.differential()
        if found is None:
            self.fail("an integral without its differential", "end the integrand with dt: \\int_0^1 t^2\\,dt")
        start, end, variable = found
        body = _Reader(" ".join(self.tokens[self.at:start])).expression_only()
        self.at = end
        return f"Integral({body}, {variable}, {low}, {high})"

    def script_after(self, mark: str) -> str | None:
        if self.peek() != mark:
            return None
        self.at += 1
        return self.script()

    def differential(self) -> tuple[int, int, str] | None:
        """(start, end, variable) of the first d<letter> at this depth that ends a term."""
        depth, at = 0, self.at
        while at < len(self.tokens):
            token = self.tokens[at]
            if token in ("{", "(", "[", "\\left"):
                depth += 1
            elif token in ("}", ")", "]", "\\right"):
                if depth == 0:
                    return None
                depth -= 1
            elif depth == 0 and (_is_relation(token) or token in ("\\quad", "\\qquad", ",")):
                return None
            if depth == 0:
                width = 4 if self.tokens[at:at + 4] == ["\\mathrm", "{", "d", "}"] else 1
                if (width == 4 or token == "d") and at + width < len(self.tokens):
                    variable, after = self.tokens[at + width], at + width + 1
                    following = self.tokens[after] if after < len(self.tokens) else None
                    if re.fullmatch(r"[A-Za-z]", variable) and (
                            following is None or following in ("+", "-", ")", "]", "}", ",", "\\quad",
                                                               "\\qquad", "\\right") or _is_relation(following)):
                        return at, after, variable
            at += 1
        return None

    def sum(self) -> str:
        """\\sum_{i=1}^{k} over the product that follows."""
        bounds = self.subscript()
        if bounds is None:
            self.fail("a \\sum without its index", "write \\sum_{i=1}^{k}")
        bounds = bounds.replace(" ", "")
        low_high = re.fullmatch(r"([A-Za-z](?:,[A-Za-z])*)=(.+)", bounds)
        in_range = re.fullmatch(r"([A-Za-z])\\in\[(k|d)\]", bounds)
        from_low = re.fullmatch(r"([A-Za-z])(?:\\ge|\\geq|\\geqslant|>=)(\d+)", bounds)
        if low_high:
            index, low = low_high.group(1), _Reader(low_high.group(2)).expression_only()
            if self.peek() != "^":
                self.fail(f"\\sum_{{{bounds}}} without an upper bound", "write \\sum_{i=1}^{k}")
            self.at += 1
            high = self.script()
        elif in_range:
            index, low, high = in_range.group(1), "1", in_range.group(2)
        elif from_low:
            index, low, high = from_low.group(1), from_low.group(2), "oo"
        else:
            self.fail(f"\\sum_{{{bounds}}}", "write the index and its bounds: \\sum_{i=1}^{k}")
        body = self.term()
        for name in reversed(index.split(",")):  # \sum_{i,j=1}^k: a double sum
            body = f"Sum({body}, {name}, {low}, {high})"
        return body


@dataclass(frozen=True)
class Reading:
    r"""A LaTeX claim read: its relations in the claim language, the quantifiers (``--for``
    texts) that the conditions written after it give, and the activations its Hermite coefficients
    name (``\mu_1(\tanh)``: see :func:`named_activation`)."""

    relations: tuple[str, ...]
    quantifiers: tuple[str, ...]
    activations: tuple[str, ...] = ()


def read_claim(latex: str, single: bool = False) -> Reading:
    """Every relation of the LaTeX display ``latex`` in the claim language (a chain A = B = C and
    an ``align``'s lines give one each; ``single``: exactly one is allowed) and the ranges its
    trailing conditions state."""
    reader = _Reader(_prepared(latex))
    relations = reader.relations()
    return Reading(tuple(_single(latex, relations) if single else relations), tuple(reader.quantifiers),
                   tuple(dict.fromkeys(reader.activations)))


def named_activation(named: tuple[str, ...], given, what: str):
    r"""The activation option of a claim whose LaTeX names its activation (``\mu_1(\tanh)``):
    the named one where none is given, the given one where it is the named one; else a one-line
    :class:`LatexClaimError` naming both (``what``: the claim as typed)."""
    if not named:
        return given
    if len(named) > 1:
        raise LatexClaimError(f"latex claim {_quoted(what)} names the activations {', '.join(named)}: a "
                              "claim has one (write the others' coefficients out, e.g. as Eg(...))")
    if given is None or given == () or given == []:
        return named[0]
    listed = [given] if isinstance(given, str) else list(given)
    if [name.strip().lower() for name in listed] != [named[0]]:
        raise LatexClaimError(f"latex claim {_quoted(what)} names the activation {named[0]}, but the "
                              f"claim's activation is {', '.join(map(str, listed))}: give one")
    return given


def relations_of(latex: str) -> list[str]:
    """Every relation of the LaTeX display ``latex`` in the claim language (see :func:`read_claim`);
    a condition after them is refused: it would be lost."""
    reading = read_claim(latex)
    if reading.quantifiers:
        raise LatexClaimError(
            f"latex claim {_quoted(latex)}: conditions after the claim "
            f"({'; '.join(reading.quantifiers)}); read it with read_claim to keep them"
        )
    return list(reading.relations)


def _prepared(latex: str) -> str:
    if len(latex) > MAX_LENGTH:
        raise LatexClaimError(
            f"latex claim of {len(latex)} characters: longer than the limit of {MAX_LENGTH}"
        )
    latex = re.sub(r"\\label\s*\{[^}]{0,200}\}|\\tag\*?\s*\{[^}]{0,200}\}", " ", latex)
    return re.sub(r"\\\\\[[^\]\n]{0,100}\]", r"\\\\", latex).strip()


def to_claim_language(latex: str) -> str:
    """The claim language's spelling of the LaTeX claim ``latex`` (one relation; a pack's macros
    expanded by the caller, :func:`verify.paper.macros.expand`).  Raises :class:`LatexClaimError`,
    one line naming the construct and what to write instead.  Conditions after the relation are
    refused (they would be lost): :func:`read_claim` keeps them."""
    (relation,) = _single(latex, relations_of(latex))
    return relation


def _single(latex: str, relations: list[str] | tuple[str, ...]) -> list[str] | tuple[str, ...]:
    if len(relations) > 1:
        raise LatexClaimError(
            f"latex claim {_quoted(latex)}: {len(relations)} relations (a chain or "
            "several lines) in one claim; write each relation as its own claim (in a ledger "
            "entry: claims = [...])"
        )
    return relations
