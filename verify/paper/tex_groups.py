"""The balanced ``{...}`` group of LaTeX, read once for the extractor (:mod:`verify.paper.latex`) and
the macro reader (:mod:`verify.paper.macros`); a module of its own, importing nothing of the paper,
so that both can use it without an import cycle."""

from __future__ import annotations


def balanced_group(tex: str, start: int, open_: str = "{", close: str = "}") -> tuple[str, int] | None:
    """The group opening at ``tex[start]`` (which must be ``open_``): its content and the index after
    it, or None when ``tex[start]`` is not ``open_`` or the group is never closed.  A backslash
    escapes the next character."""
    if start >= len(tex) or tex[start] != open_:
        return None
    depth, i = 0, start
    while i < len(tex):
        char = tex[i]
        if char == "\\":
            i += 2
            continue
        if char == open_:
            depth += 1
        elif char == close:
            depth -= 1
            if depth == 0:
                return tex[start + 1:i], i + 1
        i += 1
    return None
