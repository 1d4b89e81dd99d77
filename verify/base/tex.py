"""TeX read as text, with nothing of the paper or the reports: what the quote printer
(:mod:`verify.base.markdown`) and the LaTeX reader (:mod:`verify.paper.latex`) both need."""

from __future__ import annotations


def outside_braces(latex: str) -> str:
    """``latex`` without the content of its braced groups, a sum's ``_{p=0}`` or a ``\\substack{…}``
    (an escaped ``\\{`` opens none)."""
    out, depth, escaped = [], 0, False
    for char in latex:
        if char in "{}" and not escaped:
            depth = max(0, depth + (1 if char == "{" else -1))
        elif depth == 0:
            out.append(char)
        escaped = char == "\\" and not escaped
    return "".join(out)
