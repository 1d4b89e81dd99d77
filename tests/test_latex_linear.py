"""Reading LaTeX is linear in the text (issue #51, item 4): each construct below, unclosed and
repeated, made a regular expression rescan the rest of the file from every occurrence (a 1.6 MB
file ran for over 20 s).  Measured as the ratio of CPU times on inputs 4x apart: about 4 when
linear, 16 when quadratic (the old extractor: 14.0 to 16.4 on these eight); the bound 9 sits
between, and CPU time does not grow with the machine's load."""

from __future__ import annotations

import time

import pytest

from verify.paper.latex import LatexError, extract

CONSTRUCTS = {"iffalse": "\\iffalse x ", "newtheorem": "\\newtheorem{", "title": "\\title[", "ref": "\\ref{",
              "label": "\\label{", "begin": "\\begin{", "item": "\\item[", "break": "\\\\["}


def _tex(name: str, n: int) -> str:
    unit = CONSTRUCTS[name]
    in_preamble = name in ("newtheorem", "title")
    return ("\\documentclass{article}\n" + (unit * n if in_preamble else "") + "\\begin{document}\n"
            + ("" if in_preamble else unit * n) + "\n\\end{document}\n")


def _seconds(tex: str) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        try:
            extract(tex)
        except LatexError:
            pass
        best = min(best, time.process_time() - start)
    return best


@pytest.mark.parametrize("name", sorted(CONSTRUCTS))
def test_the_extractor_is_linear_on_unclosed_constructs(name):
    small, large = _seconds(_tex(name, 10_000)), _seconds(_tex(name, 40_000))
    assert large < 9 * max(small, 0.005), f"{name}: {small:.3f} s -> {large:.3f} s for 4x the input"
