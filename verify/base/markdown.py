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
from verify.base.formula_latex import GREEK, node_latex
from verify.base.tex import outside_braces

#: An operand of a printed formula: names, numbers, calls, powers and products, no spaces.
_OPERAND = r"[A-Za-z0-9_.()\[\]*/^]+"
#: A formula span: operands joined by `` + `` or `` - `` (SymPy prints spaces around those).
_SPAN = re.compile(rf"{_OPERAND}(?: [-+] {_OPERAND})*")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
#: Functions a formula span of prose may call (any other call keeps its span as text).
_FUNCTIONS = {"sqrt", "exp", "log", "sin", "cos", "tanh", "sinh", "cosh"}
#: Characters that start emphasis, math, HTML, a link or image (``[x](javascript:...)``,
#: ``![x](http://...)``) or a table cell in GitHub's Markdown.
_SPECIAL = re.compile(r"([*_$<|`\[\]!])")


def markdown_text(text: str, table_cell: bool = False) -> str:
    """``text`` with its formula spans as GitHub math and the rest escaped (see the module);
    code spans (between backticks) are kept as they are.  ``table_cell``: also keep it on one
    line (a table row ends at a newline) and escape every pipe, inside code and math spans too:
    GitHub splits a row at any unescaped ``|`` (``||Q||`` and ``\\left|`` cut rows off), and
    removes one backslash before each ``|`` of a cell before it reads the cell, so ``\\|``
    in LaTeX arrives as ``\\|`` and a prose ``\\|`` as ``|``."""
    parts = re.split(r"(`[^`\n]*`)", str(text))
    result = "".join(part if i % 2 else _prose(part) for i, part in enumerate(parts))
    return in_table_cell(result) if table_cell else result


def plain_text(text: str, table_cell: bool = False) -> str:
    """``text`` escaped as it stands: no formula becomes math (a README cell must wrap, and a
    math span does not)."""
    result = _escape(str(text))
    return in_table_cell(result) if table_cell else result


#: TeX that only math mode can draw: a braced sub- or superscript, a control word, a caret power.
_TEX_IN_PROSE = re.compile(r"[\^_]\{|\\[A-Za-z]+|\^[A-Za-z0-9(]")


def in_table_cell(markdown: str) -> str:
    """Markdown for one table cell: on one line, every pipe escaped (see :func:`markdown_text`)."""
    return markdown.replace("\n", " ").replace("|", "\\|")


#: A formula of a quote: a display ``$$...$$`` (group 1) or inline ``$...$`` (group 2).
_QUOTE_MATH = re.compile(r"(?<!\\)\$\$(.+?)(?<!\\)\$\$|(?<!\\)\$([^$]+)(?<!\\)\$")


def paper_text(text: str) -> str:
    """A quote of the paper as Markdown: its ``$...$`` TeX as GitHub math exactly as printed
    (never rewritten: the reader compares it with the paper), the prose between escaped and left
    alone (no formula pass: it would rewrite inside the paper's own notation).  TeX that a converted
    text left in its prose (``Let s^* be``, ``\\hat{c}``) is drawn as math too, run by run, exactly as
    printed; a quote whose prose holds TeX that no run covers would read half converted, so it is
    shown verbatim in one code span instead."""
    flat = " ".join(str(text).split())
    drawn = _quote_inline(flat)
    return code_span(flat) if drawn is None else drawn


def _quote_inline(flat: str) -> str | None:
    """:func:`paper_text` of a quote on one line; None where it is to be shown verbatim."""
    # a display $$...$$ is drawn inline, as one math span: a quote is one line of a block quote
    parts = _QUOTE_MATH.split(flat)
    pieces = [(p, "math" if i % 3 else "prose") for i, p in enumerate(parts) if p is not None]
    out = []
    for part, kind in pieces:
        if kind == "math":
            if "`" in part:
                return None
            out.append(math_span(" ".join(part.split())))
            continue
        drawn = _tex_runs_as_math(part)
        if drawn is None:
            return None
        out.append(drawn)
    return "".join(out)


def paper_lines(text: str) -> list[str]:
    r"""A quote of the paper as the lines of Markdown blocks: its prose and one-line displays as
    :func:`paper_text` draws them, and each display of several aligned lines (an ``align``) as a
    ```math block of ``\begin{aligned}`` (:func:`aligned_display`): GitHub's inline math draws
    neither an align's ``&`` nor its ``\\``.  A quote that :func:`paper_text` shows verbatim is one
    line, a code span, as there."""
    flat = " ".join(str(text).split())
    lines, at = [], 0
    for match in _QUOTE_MATH.finditer(flat):
        aligned = aligned_display(match.group(1)) if match.group(1) else None
        if aligned is None:
            continue
        prose = _quote_inline(flat[at:match.start()].strip())
        if prose is None or "`" in aligned:
            return [code_span(flat)]
        lines += [prose, ""] if prose else []
        lines += [*math_block(aligned), ""]
        at = match.end()
    rest = _quote_inline(flat[at:].strip())
    if rest is None:
        return [code_span(flat)]
    return lines + [rest] if rest or not lines else lines[:-1]


#: An environment inside a display (``cases``, a matrix): its ``&`` and ``\\`` are its own.
_INNER_ENVIRONMENT = re.compile(r"\\begin\s*\{([A-Za-z]+\*?)\}.*?\\end\s*\{\1\}")
#: A line break of a display, with its optional spacing (``\\[2pt]``).
_LINE_BREAK = re.compile(r"\\\\(?:\s*\[[^\]]{0,40}\])?")
#: What numbers or names a line of an ``align`` and prints nothing in it.
_LINE_MARKS = re.compile(r"\\(?:nonumber|notag)(?![A-Za-z])|\\label\s*\{[^{}]{0,200}\}")


def aligned_display(latex: str) -> str | None:
    r"""The body of a display of several aligned lines (an ``align``'s: lines ended by ``\\``,
    columns joined by ``&``) as ``\begin{aligned} … \end{aligned}``, one line of TeX a line of
    the display, without ``\nonumber``, ``\notag`` and ``\label{…}``; None for a display of one
    line (an ``&`` or ``\\`` inside an environment of its own, a ``cases``, or inside braces, a
    ``\substack{…}``, does not count)."""
    if not re.search(r"(?<!\\)&|\\\\", outside_braces(_INNER_ENVIRONMENT.sub(" ", latex))):
        return None
    rows = [" ".join(row.split()) for row in _LINE_BREAK.split(_LINE_MARKS.sub(" ", latex))]
    if len(rows) > 1 and not rows[-1]:
        rows.pop()  # the break after the last line ends no line
    return "\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}"


#: TeX left in the prose of a converted text (``Let s^* be``, ``c, \hat{c} and``): a control word
#: with its braced arguments and scripts, or a word with a sub- or superscript.
_TEX_RUN = re.compile(r"(?:\\[A-Za-z]+(?:\{[^{}$`]{0,80}\})*|[A-Za-z0-9]+(?=[_^]))"
                      r"(?:[_^](?:\{[^{}$`]{0,80}\}|\\[A-Za-z]+|[A-Za-z0-9*]))*(?:\{[^{}$`]{0,80}\})*")


def _tex_runs_as_math(prose: str) -> str | None:
    """The prose escaped, with each run of TeX it holds drawn as math exactly as printed; None when
    TeX remains that no run covers (it would read half converted)."""
    out, left, at = [], [], 0
    for match in _TEX_RUN.finditer(prose):
        run = match.group(0)
        if not re.search(r"[\^_\\]", run) or "`" in run:
            continue
        left.append(prose[at:match.start()])
        out += [_escape(prose[at:match.start()]), math_span(run)]
        at = match.end()
    left.append(prose[at:])
    out.append(_escape(prose[at:]))
    return None if _TEX_IN_PROSE.search("".join(left)) else "".join(out)


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


#: What may stand right before and right after a formula span: a span glued to other characters
#: (``mu_{l+1}(sigma)^2``, ``int_g1^g1``) is part of notation the printer does not know, and
#: rewriting a piece of it changes its meaning (the parentheses of μ_{l+1}(σ)² were dropped).
_BEFORE = " \t\n([\"'=<>,"
_AFTER = " \t\n)]\"',.;:=<>"


def _bounded(text: str, start: int, end: int) -> bool:
    return ((start == 0 or text[start - 1] in _BEFORE) and (end == len(text) or text[end] in _AFTER))


def formulas(text: str) -> list[tuple[int, str, str]]:
    """(start, source span, LaTeX) of every formula span of prose ``text`` that
    :func:`markdown_text` shows as math (the round-trip test reads the LaTeX back and compares)."""
    found, last = [], 0
    for span, start in _spans(text):
        if start < last:
            continue
        # only products, powers and roots: a ratio such as 1/k reads as written, and a path
        # such as results/x is not one
        if not any(mark in span for mark in ("*", "^", "sqrt(")) or not _NAME.search(span):
            continue
        if not _bounded(text, start, start + len(span)):
            continue
        # SymPy prints a product with no space after its star: a star before a space or a sign
        # is notation (l* - 1 is l-star minus one, which Python reads as l*(-1))
        if re.search(r"\*(?![*A-Za-z0-9_(.])", span):
            continue
        latex = formula_latex(span)
        if latex is None:
            continue
        found.append((start, span, latex))
        last = start + len(span)
    # all or nothing: a text whose other formulas stay ASCII (an unbounded span, an unknown name)
    # would mix MathML islands into ASCII math, which reads as neither ("|sum a_n g1^n - ...|")
    rest = text
    for start, span, _ in reversed(found):
        rest = rest[:start] + " " + rest[start + len(span):]
    if found and any(mark in rest for mark in ("^", "**", "sqrt(")):
        return []
    return found


def _prose(text: str) -> str:
    out, last = [], 0
    for start, span, latex in formulas(text):
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
    fence = _fence(text)
    return [fence, text, fence]


def math_block(latex: str) -> list[str]:
    """GitHub's display math, a ```math block, as its lines (fenced as :func:`code_block` fences)."""
    fence = _fence(latex)
    return [f"{fence}math", *latex.split("\n"), fence]


def _fence(text: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


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


#: Multi-letter names printed as a word (upright): the model's own quantities and their parts.
#: Any other multi-letter name (the ledger's abbreviations dl, Cc, Tt, lg, eps; dk, psigma, chat)
#: is not a formula the printer can render faithfully, so its span stays text (no key needed).
_WORDS = {"max", "min", "sigma", "hat", "Kp", "grad", "var", "loss", "erf", "sign", "Abs", "abs"}


def _known_name(name: str) -> bool:
    """Whether :func:`~verify.base.formula_latex.name_latex` renders ``name`` as the symbol it
    means: one letter, a letter with digits (g1), a Greek letter, or such a base with ``_`` and an
    index (one letter, digits, or a word of :data:`_WORDS`), or ``_hat``."""
    if re.fullmatch(r"[A-Za-z]\d*", name) or name in GREEK or name in _WORDS or name in _FUNCTIONS:
        return True
    base, _, sub = name.partition("_")
    return bool(sub) and _known_name(base) and "_" not in sub and (
        sub.isdigit() or len(sub) == 1 or sub in _WORDS or sub in GREEK)


def formula_latex(text: str) -> str | None:
    """LaTeX of a printed formula as written, or None when it is not one the whitelist parser
    accepts (prose, a Python keyword such as ``lambda``, an unbalanced span) or it holds a name
    the printer does not know (:func:`_known_name`)."""
    names = {n for n in _NAME.findall(text) if n not in activation_functions()}
    if not all(_known_name(n) for n in names):
        return None
    # the paper's x^2 is a power (Python's ^, exclusive or, never appears in a report)
    python = text.replace("^", "**")
    try:
        parse_expression(python, variables={n: sympy.Symbol(n) for n in names}, what="formula")
        return node_latex(ast.parse(python, mode="eval").body)
    except (VerifyInputError, SyntaxError, ValueError):
        return None
