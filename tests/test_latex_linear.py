"""Reading LaTeX is linear in the text (issue #51, item 4): each construct below, unclosed and
repeated, made a regular expression rescan the rest of the file from every occurrence (a 1.6 MB
file ran for over 20 s).  Measured as the ratio of CPU times on inputs 4x apart: about 4 when
linear, 16 when quadratic (the old extractor: 14.0 to 16.4 on these eight); the bound 9 sits
between, and CPU time does not grow with the machine's load."""

from __future__ import annotations

import gc
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


def _status_seconds(tmp_path, n: int) -> float:
    """CPU seconds of reading and validating the ledger of a pack ``ledger init`` wrote for ``n``
    displays (what `verify ledger status` does before it prints)."""
    from verify.paper import ledger, pack
    from verify.paper.skeleton import init_pack

    tex = tmp_path / f"big{n}.tex"
    tex.write_text("\\documentclass{article}\n\\begin{document}\n\\section{A}\n"
                   + "\n".join(f"\\[ x_{{{i}}} = {i} \\]" for i in range(n)) + "\n\\end{document}\n")
    directory, _, _ = init_pack(tex, tmp_path / f"pack{n}")
    loaded = pack.load(directory)
    gc.collect()
    gc.disable()  # the collector's passes over many young objects are not the reader's own work
    try:
        start = time.process_time()
        with pack.using(loaded):
            assert len(ledger.entries()) == n
        return time.process_time() - start
    finally:
        gc.enable()


@pytest.mark.extended
def test_ledger_status_is_linear_in_the_displays(tmp_path):
    """Each entry's quote was searched for in the whole text: 20 000 displays took 6 s, quadratic."""
    small, large = _status_seconds(tmp_path, 4_000), _status_seconds(tmp_path, 16_000)
    # linear: about 4 (2.4 to 4.5 measured); the quadratic search: 11 to 16
    assert large < 7 * max(small, 0.005), f"{small:.3f} s -> {large:.3f} s for 4x the displays"
