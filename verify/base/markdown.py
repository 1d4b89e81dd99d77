r"""Free text as Markdown that GitHub renders as written: formulas as math, nothing as emphasis.

The reports quote SymPy's printed formulas (``2*xi**2/(k + xi**2)``, ``lambda_max**8``).  In
Markdown each ``*`` may open or close emphasis, so such text turns into italics and loses its
stars.  :func:`markdown_text` rewrites every formula span of a text (operands joined by ``*``,
``**``, ``^`` or a root, with ``+`` and ``-`` between them) as GitHub math in its code-span form,
``$`\frac{2 \xi^{2}}{k + \xi^{2}}`$``, which no Markdown rule can touch, and escapes the
characters that would still start emphasis, math or HTML (``* _ $ < |``) in the rest.

A span becomes math only when the whitelist parser (:mod:`verify.base.expressions`) accepts it;
the LaTeX is printed from its syntax tree as written (no SymPy simplification: 0.30 stays 0.30
and ``x*x`` stays a product), so the math shows exactly the text it replaces.
"""

from __future__ import annotations

import ast
import re

import sympy

from verify.base.errors import VerifyInputError
from verify.base.expressions import activation_functions, parse_expression

#: An operand of a printed formula: names, numbers, calls, powers and products, no spaces.
_OPERAND = r"[A-Za-z0-9_.()\[\]*/^]+"
#: A formula span: operands joined by `` + `` or `` - `` (SymPy prints spaces around those).
_SPAN = re.compile(rf"{_OPERAND}(?: [-+] {_OPERAND})*")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_GREEK = {"alpha", "beta", "gamma", "delta", "epsilon", "eta", "theta", "kappa", "lambda", "mu", "nu",
          "xi", "pi", "rho", "sigma", "tau", "phi", "chi", "psi", "omega", "Gamma", "Delta", "Theta",
          "Lambda", "Xi", "Pi", "Sigma", "Phi", "Psi", "Omega"}
_FUNCTIONS = {"sqrt": None, "exp": r"\exp", "log": r"\log", "sin": r"\sin", "cos": r"\cos",
              "tanh": r"\tanh", "sinh": r"\sinh", "cosh": r"\cosh"}
#: Characters that start emphasis, math, HTML or a table cell in GitHub's Markdown.
_SPECIAL = re.compile(r"([*_$<|`])")


def markdown_text(text: str, table_cell: bool = False) -> str:
    """``text`` with its formula spans as GitHub math and the rest escaped (see the module);
    code spans (between backticks) are kept as they are.  ``table_cell``: also keep it on one
    line (a table row ends at a newline) and escape every pipe, inside code and math spans too:
    GitHub splits a row at any unescaped ``|`` (``||Q||`` and ``\\left|`` cut rows off), and
    removes one backslash before each ``|`` of a cell before it reads the cell, so ``\\|``
    in LaTeX arrives as ``\\|`` and a prose ``\\|`` as ``|``."""
    parts = re.split(r"(`[^`\n]*`)", str(text))
    result = "".join(part if i % 2 else _prose(part) for i, part in enumerate(parts))
    return result.replace("\n", " ").replace("|", "\\|") if table_cell else result


def _spans(text: str):
    """(span, start) of each candidate formula.  A span with ``*`` is SymPy's printing, whose
    ``+`` and ``-`` join its terms; without one it is the paper's notation written in prose
    (``g1^n - sum a_n g2^n``), where they may join words, so each term outside parentheses
    stands alone."""
    for match in _SPAN.finditer(text):
        span, start = _trim(match.group(0), match.start())
        if "*" in span:
            yield span, start
            continue
        for piece, offset in _top_level_terms(span):
            yield _trim(piece, start + offset)


def _top_level_terms(span: str):
    """(term, offset) of ``span`` split at the `` + `` and `` - `` outside every parenthesis:
    inside one, as in (1/(1 + xi^2/k))^p, they belong to the formula."""
    depth, begin = 0, 0
    for i, char in enumerate(span):
        depth += (char in "([") - (char in ")]")
        if depth == 0 and char in "+-" and span[i - 1:i] == " " and span[i + 1:i + 2] == " ":
            yield span[begin:i - 1], begin
            begin = i + 2
    yield span[begin:], begin


def _prose(text: str) -> str:
    out, last = [], 0
    for span, start in _spans(text):
        if start < last:
            continue
        # only products, powers and roots: a ratio such as 1/k reads as written, and a path
        # such as results/x is not one
        if not any(mark in span for mark in ("*", "^", "sqrt(")) or not _NAME.search(span):
            continue
        latex = formula_latex(span)
        if latex is None:
            continue
        out.append(_escape(text[last:start]))
        out.append(math_span(latex))
        last = start + len(span)
    out.append(_escape(text[last:]))
    return "".join(out)


def code_span(text: str) -> str:
    """``text`` as one inline code span, whatever backticks it holds (CommonMark: a longer fence)."""
    text = str(text).replace("\n", " ")
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def code_block(text: str) -> list[str]:
    """``text`` as a fenced code block's lines, fenced by more backticks than any run in it, so
    nothing in ``text`` (a traceback quoting Markdown, say) can close the block early."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence, text, fence]


def math_span(latex: str) -> str:
    """GitHub's inline math that Markdown leaves alone: ``$`latex`$``."""
    return f"$`{latex}`$"


def _trim(span: str, start: int) -> tuple[str, int]:
    """The span without trailing sentence punctuation and unmatched outer parentheses."""
    while span and span[-1] in ".,;:":
        span = span[:-1]
    while span.count("(") > span.count(")") and span.startswith("("):
        span, start = span[1:], start + 1
    while span.count(")") > span.count("(") and span.endswith(")"):
        span = span[:-1]
    return span, start


def _escape(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", text)


def formula_latex(text: str) -> str | None:
    """LaTeX of a printed formula as written, or None when it is not one the whitelist parser
    accepts (prose, a Python keyword such as ``lambda``, an unbalanced span)."""
    names = {n for n in _NAME.findall(text) if n not in activation_functions()}
    # the paper's x^2 is a power (Python's ^, exclusive or, never appears in a report)
    python = text.replace("^", "**")
    try:
        parse_expression(python, variables={n: sympy.Symbol(n) for n in names}, what="formula")
        return _latex(ast.parse(python, mode="eval").body)
    except (VerifyInputError, SyntaxError, ValueError):
        return None


def _name(name: str) -> str:
    indexed = re.fullmatch(r"([A-Za-z])(\d+)", name)
    if indexed:  # g1 is g with index 1
        return f"{indexed.group(1)}_{{{indexed.group(2)}}}"
    base, _, sub = name.partition("_")
    if sub == "hat":
        return rf"\hat{{{_name(base)}}}"
    head = f"\\{base}" if base in _GREEK else (base if len(base) == 1 else rf"\mathrm{{{base}}}")
    if not sub:
        return head
    index = sub if sub.isdigit() or len(sub) == 1 else rf"\mathrm{{{sub}}}"
    return f"{head}_{{{index}}}"


def _latex(node: ast.expr, parent: int = 0) -> str:
    """Print ``node`` with as few parentheses as its place needs (``parent``: the binding
    strength around it: 0 sum, 1 product, 2 power base)."""
    if isinstance(node, ast.Constant):
        return str(node.value)
    if isinstance(node, ast.Name):
        return _name(node.id)
    if isinstance(node, ast.UnaryOp):
        inner = _latex(node.operand, 1)
        return ("-" if isinstance(node.op, ast.USub) else "+") + inner
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        args = ", ".join(_latex(a) for a in node.args)
        name = node.func.id
        if name == "sqrt":
            return rf"\sqrt{{{args}}}"
        if name in ("Abs", "abs"):
            return rf"\left|{args}\right|"
        head = _FUNCTIONS.get(name) or rf"\operatorname{{{name}}}"
        return rf"{head}\left({args}\right)"
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Div):
            text = rf"\frac{{{_latex(node.left)}}}{{{_latex(node.right)}}}"
            return rf"\left({text}\right)" if parent >= 2 else text
        if isinstance(node.op, ast.Pow):
            return f"{_latex(node.left, 2)}^{{{_latex(node.right)}}}"
        if isinstance(node.op, ast.Mult):
            text = rf"{_latex(node.left, 1)} \cdot {_latex(node.right, 1)}"
            return rf"\left({text}\right)" if parent >= 2 else text
        sign = "+" if isinstance(node.op, ast.Add) else "-"
        text = f"{_latex(node.left)} {sign} {_latex(node.right, 1)}"
        return rf"\left({text}\right)" if parent >= 1 else text
    raise ValueError(f"no LaTeX for {type(node).__name__}")  # the whitelist parser admits no other
