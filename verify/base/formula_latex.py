r"""LaTeX of the suite's formulas, printed from their syntax tree exactly as written.

One printer for every formula the reports show as math: the formula spans of free text
(:mod:`verify.base.markdown`) and the corrections written in the claim language
(:func:`claim_latex`).  It prints the tree :func:`ast.parse` gives, after the whitelist parser has
accepted the text, with no SymPy simplification, so the math shows the text it replaces, and with
as few brackets as keep one reading:

* a power whose base is a power, a call, a quotient or a negative is bracketed
  (``(-1)**l`` is :math:`(-1)^{l}`, not :math:`-1^{l}`);
* the body of a ``Sum`` is bracketed unless it is one factor, and a ``Sum`` followed by a factor is
  bracketed whole, so where a sum ends is never a matter of convention;
* names come from one fixed table (:data:`ALIASES`, the Greek letters, :data:`INDEXED`,
  :data:`CALLED`); any other name of several letters is printed upright and listed by
  :func:`abbreviations`, for the key the reports print beside it.
"""

from __future__ import annotations

import ast
import re

#: Greek letters, printed as themselves (``xi`` is \xi).
GREEK = frozenset({"alpha", "beta", "gamma", "delta", "epsilon", "eta", "theta", "kappa", "lambda", "mu",
                   "nu", "xi", "pi", "rho", "sigma", "tau", "phi", "chi", "psi", "omega", "Gamma", "Delta",
                   "Theta", "Lambda", "Xi", "Pi", "Sigma", "Phi", "Psi", "Omega"})
#: Names of the claim language and the ledger that stand for a symbol of the paper.
ALIASES = {"lam": r"\lambda", "chat": r"\hat{c}", "dl": r"\delta", "eps": r"\varepsilon",
           "lstar": r"\ell_{*}", "oo": r"\infty", "pi": r"\pi"}
#: Quantities of one index argument or two, printed as a subscript: mu(p) is \mu_{p}.
INDEXED = {"mu": r"\mu", "lam": r"\lambda", "c": "c", "chat": r"\hat{c}", "G": "G", "hcoef": "h"}
#: Functions printed as a call: head and the bracket pair around the arguments.
CALLED = {"h": "h", "Phi": r"\Phi", "K": "K", "Kp": "K'", "T": "T", "grad_var": r"\mathrm{Var}_{\nabla}",
          "sigma": r"\sigma", "dsigma": r"\sigma'", "O": "O", "Theta": r"\Theta", "Omega": r"\Omega",
          "exp": r"\exp", "log": r"\log", "sin": r"\sin", "cos": r"\cos", "tanh": r"\tanh",
          "sinh": r"\sinh", "cosh": r"\cosh", "asin": r"\arcsin", "acos": r"\arccos",
          "Min": r"\min", "Max": r"\max", "Eg": r"\mathbb{E}_{g}"}
_BRACKETS = {"Eg": (r"\left[", r"\right]")}
_RELATIONS = {ast.Eq: "=", ast.LtE: r"\leq", ast.GtE: r"\geq", ast.Lt: "<", ast.Gt: ">"}

# binding strength around a node: 0 a term of a sum, 1 a factor, 2 a power's base
_TERM, _FACTOR, _BASE = 0, 1, 2


def name_latex(name: str) -> str:
    """A name as the symbol it stands for: an alias, a Greek letter, a letter with digits (g1 is
    g_{1}), ``x_hat`` (\\hat{x}), a base with an index after ``_``; any other word upright."""
    if name in ALIASES:
        return ALIASES[name]
    indexed = re.fullmatch(r"([A-Za-z])(\d+)", name)
    if indexed:
        return f"{indexed.group(1)}_{{{indexed.group(2)}}}"
    base, _, sub = name.partition("_")
    if sub == "hat":
        return rf"\hat{{{name_latex(base)}}}"
    head = (ALIASES.get(base) or (f"\\{base}" if base in GREEK else None)
            or (base if len(base) == 1 else rf"\mathrm{{{base}}}"))
    if not sub:
        return head
    index = (sub if sub.isdigit() or len(sub) == 1 else f"\\{sub}" if sub in GREEK
             else rf"\mathrm{{{sub}}}")
    return f"{head}_{{{index}}}"


def abbreviations(node: ast.AST) -> list[str]:
    """The names of ``node`` that :func:`name_latex` prints upright (``lg``, ``Cc``): their meaning
    is the entry's own, so a report prints a key beside the formula."""
    called = {id(sub.func) for sub in ast.walk(node) if isinstance(sub, ast.Call)}
    found = []
    for sub in ast.walk(node):
        if (isinstance(sub, ast.Name) and id(sub) not in called and sub.id not in ALIASES
                and r"\mathrm" in name_latex(sub.id) and sub.id not in found):
            found.append(sub.id)
    return found


def node_latex(node: ast.expr, parent: int = _TERM, trailing: bool = False) -> str:
    """Print ``node``; ``parent`` is the binding strength around it, ``trailing`` whether a factor
    is printed right after it (a Sum there is bracketed whole)."""
    if isinstance(node, ast.Compare):
        parts = [node_latex(node.left)]
        for op, right in zip(node.ops, node.comparators, strict=True):
            parts += [_RELATIONS[type(op)], node_latex(right)]
        return " ".join(parts)
    if isinstance(node, ast.Constant):
        return str(node.value)
    if isinstance(node, ast.Name):
        return name_latex(node.id)
    if isinstance(node, ast.UnaryOp):
        text = ("-" if isinstance(node.op, ast.USub) else "+") + node_latex(node.operand, _FACTOR, trailing)
        return _bracket(text) if parent >= _FACTOR else text
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return _call(node.func.id, node.args, parent, trailing)
    if isinstance(node, ast.BinOp):
        return _binary(node, parent, trailing)
    raise ValueError(f"no LaTeX for {type(node).__name__}")  # the whitelist parser admits no other


def _bracket(text: str) -> str:
    return rf"\left({text}\right)"


def _call(name: str, args: list[ast.expr], parent: int, trailing: bool) -> str:
    printed = [node_latex(a) for a in args]
    if name == "Sum":
        term, index, low, high = args
        body = node_latex(term, _FACTOR)
        if not isinstance(term, ast.Name | ast.Constant | ast.Call) and not (
                isinstance(term, ast.BinOp) and isinstance(term.op, ast.Pow)):
            body = _bracket(body)
        text = rf"\sum_{{{printed[1]}={printed[2]}}}^{{{printed[3]}}} {body}"
        return _bracket(text) if trailing or parent >= _BASE else text
    if name == "Integral":  # \int_a^b term \, dt, read back by verify.claims.latex_input
        term, variable, low, high = args
        text = rf"\int_{{{printed[2]}}}^{{{printed[3]}}} {node_latex(term)} \, d{printed[1]}"
        return _bracket(text) if trailing or parent >= _BASE else text
    if name == "diff":
        order = printed[2] if len(args) == 3 else ""
        power = f"^{{{order}}}" if order else ""
        body = printed[0] if isinstance(args[0], ast.Name | ast.Call) else _bracket(printed[0])
        text = rf"\frac{{\mathrm{{d}}{power}}}{{\mathrm{{d}}{printed[1]}{power}}} {body}"
        return _bracket(text) if trailing or parent >= _BASE else text
    if name == "sqrt":
        return rf"\sqrt{{{printed[0]}}}"
    if name in ("Abs", "abs"):
        return rf"\left|{printed[0]}\right|"
    if name == "binomial":
        return rf"\binom{{{printed[0]}}}{{{printed[1]}}}"
    if name in INDEXED:  # \mu_{p}^{2} reads one way: no bracket as a power's base
        return f"{INDEXED[name]}_{{{', '.join(printed)}}}"
    opening, closing = _BRACKETS.get(name, (r"\left(", r"\right)"))
    head = CALLED.get(name) or rf"\operatorname{{{name}}}"
    text = f"{head}{opening}{', '.join(printed)}{closing}"
    # as a power's base, \log\left(x\right)^{2} could be log(x²): bracket the call
    return _bracket(text) if parent >= _BASE else text


def _without_leading_minus(node: ast.BinOp) -> ast.BinOp | None:
    """The product ``node`` with the minus of its first factor taken off, or None without one."""
    left = node.left
    if isinstance(left, ast.UnaryOp) and isinstance(left.op, ast.USub):
        return ast.BinOp(left.operand, node.op, node.right)
    if isinstance(left, ast.BinOp) and isinstance(left.op, ast.Mult):
        inner = _without_leading_minus(left)
        return None if inner is None else ast.BinOp(inner, node.op, node.right)
    return None


def _binary(node: ast.BinOp, parent: int, trailing: bool) -> str:
    if isinstance(node.op, ast.Div):
        text = rf"\frac{{{node_latex(node.left)}}}{{{node_latex(node.right)}}}"
        return _bracket(text) if parent >= _BASE else text
    if isinstance(node.op, ast.Pow):
        text = f"{node_latex(node.left, _BASE)}^{{{node_latex(node.right)}}}"
        # (x²)³ printed as x^{2}^{3} is a double superscript: bracket a power's power base
        return _bracket(text) if parent >= _BASE else text
    if isinstance(node.op, ast.Mult):
        positive = _without_leading_minus(node)
        if positive is not None and parent == _TERM:  # -b*x is -(b*x): no bracket around -b
            return "-" + node_latex(positive, _FACTOR, trailing)
        text = rf"{node_latex(node.left, _FACTOR, True)} \cdot {node_latex(node.right, _FACTOR, trailing)}"
        return _bracket(text) if parent >= _BASE else text
    sign = "+" if isinstance(node.op, ast.Add) else "-"
    text = f"{node_latex(node.left)} {sign} {node_latex(node.right, _FACTOR)}"
    return _bracket(text) if parent >= _FACTOR else text
