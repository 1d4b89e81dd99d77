"""Read a rendered formula back and compare it with its source (issue #39): shared by
tests/test_formula_roundtrip.py and scripts/roundtrip_report.py, which runs it over every formula
of a whole report.json.

The LaTeX that :func:`verify.base.markdown.markdown_text` writes for a formula span is read back
by an independent parser (SymPy's LaTeX parser, Lark backend) and compared with the span as the
whitelist parser reads it, at random points.  Names are matched through placeholders, since the
printer's upright names (``\\mathrm{max}``) are not in the LaTeX parser's grammar.
"""

from __future__ import annotations

import random
import re

import sympy
from sympy.parsing.latex import parse_latex  # its Lark backend needs lark (a test dependency)

from verify.base.expressions import parse_expression
from verify.base.formula_latex import name_latex as _name
from verify.base.markdown import _NAME

#: Relative agreement required at each point: both sides are evaluated from the same float
#: inputs in double precision, so anything above rounding is a change of meaning.
RTOL = 1e-9


def read_back(source: str, latex: str) -> tuple[sympy.Expr, sympy.Expr, list[sympy.Symbol]]:
    names = sorted(set(_NAME.findall(source)) - {"sqrt", "exp", "log", "Abs", "abs"}, key=len)
    symbols = {n: sympy.Symbol(n) for n in names}
    written = parse_expression(source.replace("^", "**"), variables=symbols, what="formula")
    placeholders = {}
    # longest LaTeX first, so \lambda_{\mathrm{max}} is replaced before \lambda
    for i, name in enumerate(sorted(names, key=lambda n: -len(_name(n)))):
        placeholder = f"Z_{{{i}}}"
        # whole tokens only: the d of \cdot, the m of \mathrm or \max is no name
        latex = re.sub(rf"(?<![A-Za-z\\]){re.escape(_name(name))}(?![A-Za-z])", placeholder, latex)
        placeholders[sympy.Symbol(f"Z_{{{i}}}")] = symbols[name]
    read = parse_latex(latex, backend="lark")
    if isinstance(read, sympy.Basic) and not isinstance(read, sympy.Expr):
        raise AssertionError(f"{latex!r} reads as {read!r}, not an expression")
    return written, read.xreplace(placeholders), list(symbols.values())


def agree(source: str, latex: str) -> None:
    written, read, symbols = read_back(source, latex)
    rng = random.Random(source)
    for _ in range(5):
        point = {s: sympy.Float(rng.uniform(0.3, 2.0)) for s in symbols}
        a, b = complex(written.evalf(subs=point)), complex(read.evalf(subs=point))
        assert abs(a - b) <= RTOL * max(1.0, abs(a)), f"{source!r} -> {latex!r} reads back as {read}"
