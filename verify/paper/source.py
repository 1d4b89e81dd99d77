r"""The paper's text and its displayed equations, each with a stable id.

The text is the COLT version of Dayı & Chen, "Low-rank fine-tuning lies between lazy training and
feature learning", with formulas in LaTeX, vendored beside this module (``dayi_chen_colt.txt``,
:data:`SOURCE_SHA256`) so that a fresh clone can check every quote against it.

A display is a ``$$ … $$`` block.  Its id is its section and its ordinal within the section:
``3.1-2`` is the second display of §3.1, ``D.3.2-4`` the fourth of Appendix D.3.2; displays
before §1 belong to section ``0``.  Sections are the numbered headings (``3.2.1.``, ``D.5.2.``,
``Appendix B.``); inside the appendices a numbered list item (``2. Population gradient upper
bound:``) is not a heading.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

SOURCE = Path(__file__).with_name("dayi_chen_colt.txt")
#: The vendored text's SHA-256 (../shared/seeds/001_fbdd4a671a69d349.txt of the project's seeds).
SOURCE_SHA256 = "b024c85bd004a1bdac5e0c291e89d5a3476b2991e6557df706fe2022be431940"

_MAIN = re.compile(r"^(\d+(?:\.\d+)*)\. \S")
_APPENDIX = re.compile(r"^Appendix ([A-F])\. \S")
_APPENDIX_SUB = re.compile(r"^([A-F](?:\.\d+)+)\.? \S")


@dataclass(frozen=True)
class Display:
    """One ``$$ … $$`` block: its id, section, 1-based line in the text, and its LaTeX as printed."""

    id: str
    section: str
    line: int
    latex: str


@cache
def paper_text() -> str:
    """The vendored text, after checking it is the one the ledger was written against."""
    data = SOURCE.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != SOURCE_SHA256:
        raise RuntimeError(f"{SOURCE} has SHA-256 {digest}, not the vendored paper's {SOURCE_SHA256}")
    return data.decode("utf-8")


def section_of_lines(lines: list[str]) -> list[str]:
    """The section each line belongs to (the last heading above it)."""
    section, in_appendix, out = "0", False, []
    for line in lines:
        appendix, sub, main = _APPENDIX.match(line), _APPENDIX_SUB.match(line), _MAIN.match(line)
        if appendix:
            section, in_appendix = appendix.group(1), True
        elif in_appendix and sub:
            section = sub.group(1)
        elif not in_appendix and main and len(line) < 120:
            section = main.group(1)
        out.append(section)
    return out


@cache
def displays() -> tuple[Display, ...]:
    """Every ``$$ … $$`` block of the text, in order."""
    text = paper_text()
    lines = text.split("\n")
    sections = section_of_lines(lines)
    out: list[Display] = []
    counts: dict[str, int] = {}
    for match in re.finditer(r"\$\$(.+?)\$\$", text, re.S):
        line = text.count("\n", 0, match.start())
        section = sections[line]
        counts[section] = counts.get(section, 0) + 1
        out.append(Display(f"{section}-{counts[section]}", section, line + 1, match.group(1)))
    return tuple(out)
