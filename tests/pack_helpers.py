"""Shared helpers for tests that need a user's pack made from the built-in one."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from verify.paper import pack


def copy_builtin_data(root: Path) -> Path:
    """The Dayı–Chen pack's data copied into ``root``, as a user's pack directory is: without its
    coded checks, and without pack.toml's ``coded_checks`` line (only the built-in pack may carry
    code; a pack directory that names code is refused)."""
    shutil.copytree(pack.BUILTIN, root, ignore=shutil.ignore_patterns("checks", "__init__.py", "__pycache__"))
    path = root / "pack.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"(?m)^coded_checks = .*\n", "", text), encoding="utf-8")
    return root


#: A LaTeX note with its own macros and an align whose lines carry labels; its second equation,
#: eq:k1, is false (E[erf(g)^2] = (2/pi) arcsin(2/3), not 1).
ALIGN_NOTE = r"""\documentclass{article}
\usepackage{amsmath}
\DeclareMathOperator{\erf}{erf}
\newcommand{\E}{\mathbb{E}}
\begin{document}
\section{Kernel}
\begin{proposition}\label{prop:k}
For $\sigma = \erf$, the dual kernel has
\begin{align}
K(0) &= 0, \label{eq:k0}\\
K(1) &= \E[\erf(g)^2] \nonumber \\
  &= 1. \label{eq:k1}
\end{align}
\end{proposition}
\end{document}
"""
#: The align's three relations, relation by relation (the third, on line eq:k1, fails).
ALIGN_CLAIMS = ("claims = ['K(0) == 0', 'K(1) == Eg(sigma(g)**2)', 'Eg(sigma(g)**2) == 1']\n"
                "activation = 'erf'\nfails_as = 'statement'\n")


def align_note_pack(root: Path) -> Path:
    """A pack made by ``verify ledger init`` from :data:`ALIGN_NOTE` in ``root``, its align's entry
    (display 1-1) given :data:`ALIGN_CLAIMS`."""
    from verify.paper.skeleton import init_pack

    tex = root / "note.tex"
    tex.write_text(ALIGN_NOTE, encoding="utf-8")
    directory, _, _ = init_pack(tex, root / "pack")
    displays = directory / "ledger.d" / "displays.toml"
    text = displays.read_text(encoding="utf-8")
    assert text.count("[[display]]\nid = '1-1'\nkind = 'identity'\n") == 1
    displays.write_text(text.replace("kind = 'identity'\n", "kind = 'identity'\n" + ALIGN_CLAIMS, 1),
                        encoding="utf-8")
    return directory


def run_pack(directory: Path, only: list[str] | None = None):
    """The results of the checks of the pack in ``directory`` (``only`` these ids), run here, with
    the pack current while the caller's block runs: (pack, results)."""
    from verify.checks.packs import pack_checks
    from verify.checks.runner import run_checks

    found = pack.load(directory)
    with pack.using(found):
        checks = [c for c in pack_checks(found) if only is None or c.id in only]
        return found, run_checks(checks)
