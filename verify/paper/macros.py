r"""A note's own macros, read from its LaTeX source and expanded in the quotes a report prints, so
that ``\E``, ``\erf`` or ``\ip{v_i}{v_j}`` never print as identifiers.

Read: ``\newcommand``, ``\renewcommand``, ``\providecommand`` (with ``[n]`` arguments and an
optional ``[default]`` for the first), ``\def\name#1#2{...}`` and ``\DeclareMathOperator{\name}{text}``
(starred too; as ``\operatorname{text}``).  The source is untrusted text: it is only matched,
never run, and the reading and the expansion are bounded (:data:`MAX_MACROS` definitions,
:data:`MAX_BODY` characters each, :data:`MAX_PASSES` rounds, an output at most
:data:`MAX_GROWTH` times the input).  A quote whose expansion would pass a bound is printed as it
stands, unexpanded: a macro that expands to itself twice (``\def\a{\a\a}``) cannot blow up a report.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from verify.paper.tex_groups import balanced_group

MAX_MACROS = 500
MAX_BODY = 2000
MAX_PASSES = 20
MAX_GROWTH = 20

_NAME = r"\\([A-Za-z]+)"
_DEFINING = re.compile(
    r"\\(?P<command>newcommand|renewcommand|providecommand)\*?\s*"
    r"(?:\{\s*" + _NAME + r"\s*\}|" + _NAME.replace("(", "(?P<bare>", 1) + r")"
    r"\s*(?:\[\s*(?P<count>[1-9])\s*\])?\s*(?:\[(?P<default>[^\]]{0,200})\])?\s*\{")
_DEF = re.compile(r"\\def\s*" + _NAME + r"(?P<params>(?:#[1-9])*)\s*\{")
_OPERATOR = re.compile(r"\\DeclareMathOperator(?P<star>\*?)\s*\{\s*" + _NAME + r"\s*\}\s*\{")


@dataclass(frozen=True)
class Macro:
    arguments: int
    body: str
    default: str | None = None  # the first argument's default, when it is optional


def _group(text: str, start: int) -> tuple[str, int] | None:
    """The balanced ``{...}`` group whose opening brace is just before ``start``: (content, end)."""
    return balanced_group(text, start - 1)


def read_macros(source: str) -> dict[str, Macro]:
    """The macros the LaTeX ``source`` defines, by name (without the backslash); the last
    definition of a name wins, as in LaTeX.  At most :data:`MAX_MACROS`; a body longer than
    :data:`MAX_BODY` is skipped."""
    found: list[tuple[int, str, Macro]] = []
    for match in _DEFINING.finditer(source):
        name = match.group(2) or match.group("bare")
        body = _group(source, match.end())
        if body is not None and len(body[0]) <= MAX_BODY:
            count = int(match.group("count") or 0)
            found.append((match.start(), name, Macro(count, body[0], match.group("default"))))
    for match in _DEF.finditer(source):
        body = _group(source, match.end())
        if body is not None and len(body[0]) <= MAX_BODY:
            found.append((match.start(), match.group(1), Macro(len(match.group("params")) // 2, body[0])))
    for match in _OPERATOR.finditer(source):
        body = _group(source, match.end())
        if body is not None and len(body[0]) <= MAX_BODY:
            # starred or not, printed as \operatorname{...}: the MathML converter reads no star
            found.append((match.start(), match.group(2), Macro(0, f"\\operatorname{{{body[0]}}}")))
    macros: dict[str, Macro] = {}
    for _, name, macro in sorted(found, key=lambda item: item[0])[:MAX_MACROS]:
        macros[name] = macro
    return macros


def _argument(text: str, i: int) -> tuple[str, int] | None:
    """One argument at ``i`` (spaces skipped): a braced group's content, or one token."""
    while i < len(text) and text[i] == " ":
        i += 1
    if i >= len(text):
        return None
    if text[i] == "{":
        return _group(text, i + 1)
    if text[i] == "\\":
        name = re.match(_NAME, text[i:])
        end = i + (name.end() if name else 2)
        return text[i:end], end
    return text[i], i + 1


def _substituted(body: str, args: list[str]) -> str:
    """``body`` with #1 … #9 replaced by the arguments (a # beyond them stays)."""
    def argument(match: re.Match[str]) -> str:
        index = int(match.group(1))
        return args[index - 1] if index <= len(args) else match.group(0)

    return re.sub(r"#([1-9])", argument, body)


def _expand_once(text: str, macros: dict[str, Macro]) -> tuple[str, bool]:
    out, i, changed = [], 0, False
    for match in re.finditer(_NAME, text):
        if match.start() < i:
            continue
        macro = macros.get(match.group(1))
        if macro is None:
            continue
        args, end = [], match.end()
        if macro.default is not None:  # \newcommand\x[2][d]{...}: the first argument is [optional]
            optional = re.match(r"\s*\[([^\]]*)\]", text[end:])
            args.append(optional.group(1) if optional else macro.default)
            end += optional.end() if optional else 0
        while len(args) < macro.arguments:
            taken = _argument(text, end)
            if taken is None:
                break
            args.append(taken[0])
            end = taken[1]
        if len(args) < macro.arguments:
            continue  # too few arguments: left as written
        body = _substituted(macro.body, args)
        # a macro name followed by a letter would merge with it: keep them apart
        if end < len(text) and text[end].isalpha() and body[-1:].isalpha():
            body += " "
        out += [text[i:match.start()], body]
        i, changed = end, True
    out.append(text[i:])
    return "".join(out), changed


def expand(latex: str, macros: dict[str, Macro]) -> str:
    """``latex`` with every macro of ``macros`` expanded (nested ones too), or ``latex`` itself
    when an expansion would pass a bound (module docstring)."""
    if not macros:
        return latex
    text = latex
    for _ in range(MAX_PASSES):
        text, changed = _expand_once(text, macros)
        if not changed:
            return text
        if len(text) > MAX_GROWTH * max(len(latex), 50):
            return latex
    return latex
