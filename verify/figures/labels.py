"""Plotted text: the suite's plain notation as matplotlib mathtext, verdict words, wrapping.

Claims, series names and choices are written in plain ASCII (``xi``, ``sqrt(k)``, ``c_hat``,
``<u_t, u>``), because they are also CSV fields, JSON keys and terminal lines.  A figure shows
them as a reader of the paper writes them (ξ, √k, ĉ, ⟨u_t, u⟩): :func:`math` rewrites the plain
notation into ``$...$`` segments, leaving text already inside ``$...$`` alone.
"""

from __future__ import annotations

import re

#: (plain pattern, mathtext), longest first: a later pattern never sees what an earlier one wrote
#: (it runs on the text outside ``$...$`` only), so ``Theta(sqrt k)`` is not taken apart by ``sqrt``.
NOTATION = (
    (r"Theta\(sqrt[ (](\w)\)?\)", r"$\\Theta(\\sqrt{\1})$"),
    (r"\|\|Pi_W u\|\|", r"$\\|\\Pi_W u\\|$"),
    (r"<(\w)_t, ?(\w)>", r"$\\langle \1_t, \2\\rangle$"),
    (r"\bd\^\(l\*-1\)", r"$d^{\\ell^*-1}$"),
    (r"\bl\* - 1\b", r"$\\ell^* - 1$"),
    (r"\bl\*", r"$\\ell^*$"),
    (r"\bsqrt\((\w)\)", r"$\\sqrt{\1}$"),
    (r"\bsqrt (\w)\b", r"$\\sqrt{\1}$"),
    (r"\b(\w)_hat\b", r"$\\hat{\1}$"),
    (r"\bPi_W\b", r"$\\Pi_W$"),
    (r"\b[Hh]e([34])\b", r"He$_\1$"),
    (r"\b(xi|eta|mu|lambda|alpha|sigma|Theta)\b", r"$\\\1$"),
    (r">=", r"$\\geq$"),
    (r"<=", r"$\\leq$"),
)

#: The verdict words of a figure's claims, as the terminal and the README tables say them.
HOLDS, NOT_REPRODUCED = "holds", "not reproduced"


def _outside_math(text: str, pattern: str, repl: str) -> str:
    parts = text.split("$")  # even indices lie outside $...$
    return "$".join(re.sub(pattern, repl, part) if i % 2 == 0 else part for i, part in enumerate(parts))


def math(text: str) -> str:
    """``text`` with the suite's plain notation (:data:`NOTATION`) as mathtext; adjacent math
    segments are joined (``$a$$b$`` reads as ``$ab$``)."""
    for pattern, repl in NOTATION:
        text = _outside_math(text, pattern, repl)
    return text.replace("$$", "")


def plain_words(text: str) -> str:
    """The part of ``text`` that is not mathtext (what a test checks for leftover ``xi``)."""
    return " ".join(text.split("$")[::2])


def verdict(holds: bool) -> str:
    return HOLDS if holds else NOT_REPRODUCED


def summary(claims) -> str:
    """The figure's verdict over ``claims`` [(description, holds, ...)]: "holds" when every claim
    holds, else "not reproduced", with the count."""
    failing = sum(not ok for _, ok, *_ in claims)
    if not failing:
        return f"verdict: {HOLDS} (all {len(claims)} claims)"
    return f"verdict: {NOT_REPRODUCED} ({failing} of {len(claims)} claims fail)"


def wrap(text: str, width: int) -> list[str]:
    """Greedy line breaks at spaces, never inside a ``$...$`` segment (a broken one would not
    render); ``width`` counts source characters, which overestimates a math segment's width."""
    tokens = re.findall(r"(?:\$[^$]*\$|[^\s$])+", text)
    lines: list[str] = []
    for token in tokens:
        if lines and len(lines[-1]) + 1 + len(token) <= width:
            lines[-1] += " " + token
        else:
            lines.append(token)
    return lines
