"""Corrections written in the claim language, shown as formulas (issue #39).

A ledger correction is either prose, which the reports show as text, or a claim the suite has
checked: ``CLAIM (holds, exact; scope: ...)``, or ``read X as Y: EXPRESSION`` where a display is
read as another one.  :func:`correction_parts` finds the claim of such a text and prints it with
:mod:`verify.base.formula_latex` from its syntax tree, after the claim language's whitelist parser
has accepted it, so the formula is the one the suite checked, never a rewrite of it.  Names the
printer's table does not hold (the ledger's ``lg``, ``Cc``) stay upright and are listed for the key.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

import sympy

from verify.base.errors import VerifyInputError
from verify.base.expressions import parse_expression
from verify.base.formula_latex import abbreviations, node_latex
from verify.claims.language import INFINITY, claim_functions, variable_symbol

#: ``read D.2-18 as D.1-6: `` before a formula the display is read as.
_READ_AS = re.compile(r"read \S+ as \S+: ")
#: `` (holds, exact; scope: ...)`` after a checked claim: its verdict and what follows, as text.
_VERDICT = re.compile(r" \((?:holds|consistent|fails|inconclusive), .*$", re.DOTALL)
#: Longest claim printed as a formula: beyond it the whitelist parser's work is not worth it.
MAX_LENGTH = 2000


@dataclass(frozen=True)
class PrintedCorrection:
    """A correction as text before the formula, the formula's LaTeX, text after it, and the names
    printed upright (the key)."""

    before: str
    latex: str
    after: str
    upright: tuple[str, ...]
    source: str


class _EulerAsExp(ast.NodeTransformer):
    """Euler's number ``E`` as exp(1) and ``E**x`` as exp(x): printed as e it would read as a
    variable e (MathML draws an upright e in italics), and entries do name variables e."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        if isinstance(node.op, ast.Pow) and isinstance(node.left, ast.Name) and node.left.id == "E":
            return ast.Call(ast.Name("exp", ast.Load()), [self.visit(node.right)], [])
        return self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id == "E":
            return ast.Call(ast.Name("exp", ast.Load()), [ast.Constant(1)], [])
        return node


def parsed_claim(text: str, what: str = "correction"):
    """(syntax tree, what the whitelist parser builds) of ``text`` in the claim language, a relation
    or an expression.  Only the syntax is checked (what it means was checked with the entry's own
    declarations): every free name is an integer, so that it may bound a Sum or index a quantity.
    Raises the parser's error, or SyntaxError."""
    tree = ast.parse(text.strip(), mode="eval").body
    functions = claim_functions()
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - set(functions)
    # a variable of a derivative or an integral is real (an integer one has none); every other name
    # an integer
    real = {call.args[1].id for call in ast.walk(tree)
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
            and call.func.id in ("diff", "Integral")
            and len(call.args) > 1 and isinstance(call.args[1], ast.Name)}
    variables = {n: variable_symbol(n, integer=n not in real) for n in names - {"pi", "E", "oo"}}
    built = parse_expression(text, variables=variables, functions=functions,
                             constants={"pi": sympy.pi, "E": sympy.E, "oo": INFINITY},
                             allow_relation=isinstance(tree, ast.Compare), what=what)
    return tree, built


def claim_latex(text: str) -> tuple[str, tuple[str, ...]] | None:
    """(LaTeX, upright names) of ``text`` written in the claim language (a relation or an
    expression), or None when the claim language's whitelist parser refuses it."""
    if len(text) > MAX_LENGTH:
        return None
    try:
        tree, _ = parsed_claim(text)
        tree = _EulerAsExp().visit(tree)
        return node_latex(tree), tuple(abbreviations(tree))
    except (VerifyInputError, SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        return None


def correction_parts(text: str) -> PrintedCorrection | None:
    """The claim of a checked correction printed as a formula (see the module), or None for prose."""
    read_as = _READ_AS.match(text)
    before = read_as.group(0) if read_as else ""
    verdict = _VERDICT.search(text, len(before))
    after = verdict.group(0) if verdict else ""
    source = text[len(before): len(text) - len(after)]
    if not (read_as or verdict):
        return None
    printed = claim_latex(source)
    if printed is None:
        return None
    return PrintedCorrection(before, printed[0], after, printed[1], source)
