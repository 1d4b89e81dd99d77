r"""A pack's text, its displayed equations and the inline relations of its proofs, each with a
stable id.

The text is the current pack's (:mod:`verify.paper.pack`): by default the COLT version of
Dayı & Chen, "Low-rank fine-tuning lies between lazy training and feature learning", with formulas
in LaTeX, vendored in ``packs/dayi_chen/`` with its SHA-256 so that a fresh clone can check every
quote against it; ``verify ledger init`` writes a LaTeX file in the same format.

A display is a ``$$ … $$`` block.  Its id is its section and its ordinal within the section:
``3.1-2`` is the second display of §3.1, ``D.3.2-4`` the fourth of Appendix D.3.2; displays
before §1 belong to section ``0``.  Sections are the numbered headings (``3.2.1.``, ``D.5.2.``,
``Appendix B.``); inside the appendices a numbered list item (``2. Population gradient upper
bound:``) is not a heading.

An *inline relation* (:func:`relations`) is a single-dollar span ``$ … $`` inside a proof that
states a relation.  Precisely:

- a **proof** starts at the word ``Proof`` opening a line (``Proof [Proof of Theorem 4] …``,
  ``Proof Initially, …``) or at ``**Proof**`` inside one (the proof of Theorem 13), and runs up to
  the next proof, the next numbered statement opening a line (``Theorem``, ``Lemma``, ``Claim``,
  ``Proposition``, ``Corollary``, ``Definition``, ``Remark``, ``Assumption``, ``Condition`` or
  ``Example`` followed by its number), the next section heading, or the end of the text.  The text
  has no end-of-proof mark, so a proof's last paragraph runs on to that boundary (e.g. the
  remark after the proof of Proposition 18, up to Theorem 19).  §1–3 hold no proof.
- a span **states a relation** when, outside every ``{ … }`` group and every ``\{ … \}`` set
  (so not the ``=`` of ``\sum_{i=1}^k``, a condition in a subscript, nor the condition of an
  indicator ``\mathbb{1}\{Y_t \leq T^\nu\}`` or of a set-builder), it holds one of :data:`RELATION_SYMBOLS`:
  ``=``, ``<``, ``>``, ``≤``, ``≥``, ``≠``, ``≈`` or the commands ``\le``, ``\ge``, ``\leq``,
  ``\geq``, ``\leqslant``, ``\geqslant``, ``\lt``, ``\gt``, ``\ne``, ``\neq``, ``\lesssim``,
  ``\gtrsim``, ``\approx``, ``\asymp``, ``\sim``, ``\simeq``, ``\equiv``, ``\triangleq``,
  ``\coloneqq``, ``\ll``, ``\gg``, ``\propto``.  Membership and incidence (``\in``,
  ``\subset``, ``\perp``) and limits (``\to``) are not relations here.  Definitions
  (``$Q = \frac{1}{k}\lambda\lambda^\top$``) and assumptions (``$\gamma>0$``) count: the ledger
  gives them a kind and a reason.

A relation's id is its section and ``r`` with its ordinal among the section's relations
(``D.4-r3``), so display and relation ids never collide.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass

from verify.paper.pack import current, per_pack

_MAIN = re.compile(r"^(\d+(?:\.\d+)*)\. \S")
_APPENDIX = re.compile(r"^Appendix ([A-Z])\. \S")
_APPENDIX_SUB = re.compile(r"^([A-Z](?:\.\d+)+)\.? \S")
#: The kinds of numbered statement: the Dayı–Chen text's, and the other usual ones of a LaTeX paper.
STATEMENT_KINDS = ("Theorem", "Lemma", "Claim", "Proposition", "Corollary", "Definition", "Remark",
                   "Assumption", "Condition", "Example", "Fact", "Observation", "Conjecture", "Hypothesis",
                   "Property", "Problem", "Question", "Notation", "Axiom", "Exercise")


@dataclass(frozen=True)
class Display:
    """One ``$$ … $$`` block: its id, section, 1-based line in the text, and its LaTeX as printed."""

    id: str
    section: str
    line: int
    latex: str


@dataclass(frozen=True)
class Relation:
    """One inline relation in a proof: its id, section, 1-based line, its LaTeX as printed (the text
    between the single dollars), and the line where its proof starts."""

    id: str
    section: str
    line: int
    latex: str
    proof_line: int


def paper_text() -> str:
    """The current pack's text, after checking it is the one the ledger was written against."""
    return current().text()


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


@per_pack
def displays() -> tuple[Display, ...]:
    """Every ``$$ … $$`` block of the text, in order."""
    text = paper_text()
    lines = text.split("\n")
    sections = section_of_lines(lines)
    out: list[Display] = []
    counts: dict[str, int] = {}
    line_of = line_index(text)
    for match in _DISPLAY.finditer(text):
        line = line_of(match.start())
        section = sections[line]
        counts[section] = counts.get(section, 0) + 1
        out.append(Display(f"{section}-{counts[section]}", section, line + 1, match.group(1)))
    return tuple(out)


#: A display ``$$ … $$`` and an inline span ``$ … $``; an escaped dollar ``\$`` delimits neither.
_DISPLAY = re.compile(r"(?<!\\)\$\$(.+?)(?<!\\)\$\$", re.S)
_INLINE = re.compile(r"(?<!\\)\$((?:[^$\n\\]|\\.)+?)(?<!\\)\$")
#: The relation symbols of an inline span (see the module docstring): characters and commands.
RELATION_CHARS = frozenset("=<>≤≥≠≈")
RELATION_COMMANDS = frozenset({"le", "ge", "leq", "geq", "leqslant", "geqslant", "lt", "gt", "ne", "neq",
                               "lesssim", "gtrsim", "approx", "asymp", "sim", "simeq", "equiv",
                               "triangleq", "coloneqq", "ll", "gg", "propto"})
RELATION_SYMBOLS = tuple(sorted(RELATION_CHARS)) + tuple(f"\\{c}" for c in sorted(RELATION_COMMANDS))
_STATEMENT = re.compile(rf"^(?:\*\*)?(?:{'|'.join(STATEMENT_KINDS)}) \d")
_PROOF = re.compile(r"^Proof\b|\*\*Proof\*\*", re.M)
_TOKEN = re.compile(r"\\([A-Za-z]+)|\\.|.", re.S)


def states_relation(latex: str) -> bool:
    """Whether an inline span holds a relation symbol outside every ``{ … }`` group and ``\\{ … \\}`` set."""
    depth = 0
    for match in _TOKEN.finditer(latex):
        token, command = match.group(0), match.group(1)
        if token in ("{", "\\{"):
            depth += 1
        elif token in ("}", "\\}"):
            depth = max(depth - 1, 0)
        elif depth == 0 and (token in RELATION_CHARS or command in RELATION_COMMANDS):
            return True
    return False


def proofs() -> list[tuple[int, int]]:
    """Each proof as (start, end) character offsets of the text (see the module docstring)."""
    text = paper_text()
    lines = text.split("\n")
    sections = section_of_lines(lines)
    starts = [m.start() for m in _PROOF.finditer(text)]
    offsets, at = [], 0
    for line in lines:
        offsets.append(at)
        at += len(line) + 1
    ends = [offsets[i] for i, line in enumerate(lines)
            if _STATEMENT.match(line) or (i and sections[i] != sections[i - 1])]
    boundaries = sorted({*starts, *ends})
    out = []
    for start in starts:
        # the first boundary after the start (bisection: a long text has thousands of each)
        after = bisect.bisect_right(boundaries, start)
        out.append((start, boundaries[after] if after < len(boundaries) else len(text)))
    return out


def statement_spans() -> list[tuple[int, int]]:
    """Each statement (Theorem, Lemma, …, Remark, Condition) as (start, end) character offsets:
    from its heading line to the next proof, statement or section, whichever comes first."""
    text = paper_text()
    lines = text.split("\n")
    sections = section_of_lines(lines)
    offsets, at = [], 0
    for line in lines:
        offsets.append(at)
        at += len(line) + 1
    starts = [offsets[i] for i, line in enumerate(lines) if _STATEMENT.match(line)]
    ends = [offsets[i] for i, line in enumerate(lines) if i and sections[i] != sections[i - 1]]
    boundaries = sorted({*starts, *ends, *(m.start() for m in _PROOF.finditer(text))})
    out = []
    for start in starts:
        after = bisect.bisect_right(boundaries, start)
        out.append((start, boundaries[after] if after < len(boundaries) else len(text)))
    return out


#: An inline span that only chooses a parameter ("p = 1", "a = -2", "k = 4"): not a relation to check.
_PARAMETER_CHOICE = re.compile(r"^\s*[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?\s*=\s*-?\d+(?:\.\d+)?\s*$")


@per_pack
def statement_relations() -> tuple[Relation, ...]:
    """Every inline span of a statement (Theorem, Lemma, …, Remark) that states a relation, in order,
    with ids ``<section>-s<n>``; a span that only chooses a parameter (``p = 1``) is skipped.  A pack
    tracks them when its ``[ledger] statements`` names their files (:mod:`verify.paper.pack`)."""
    return _inline_relations(statement_spans(), "s", skip=_PARAMETER_CHOICE)


def line_index(text: str) -> Callable[[int], int]:
    """A function giving, for an offset of ``text``, how many line breaks precede it (0-based line)."""
    breaks = [m.start() for m in re.finditer("\n", text)]
    return lambda offset: bisect.bisect_left(breaks, offset)


@per_pack
def relations() -> tuple[Relation, ...]:
    """Every inline span of a proof that states a relation, in order."""
    return _inline_relations(proofs(), "r")


def _inline_relations(blocks: list[tuple[int, int]], mark: str, skip: re.Pattern | None = None
                      ) -> tuple[Relation, ...]:
    """The inline spans stating a relation inside ``blocks`` ((start, end) offsets), with ids
    ``<section>-<mark><n>``; ``proof_line`` is the line where the block starts."""
    text = paper_text()
    sections = section_of_lines(text.split("\n"))
    # Blank the $$ displays (keeping line breaks) so that only single-dollar spans remain.
    inline = _DISPLAY.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    line_of = line_index(text)
    out: list[Relation] = []
    counts: dict[str, int] = {}
    for start, end in blocks:
        block_line = line_of(start) + 1
        for match in _INLINE.finditer(inline[start:end]):
            if not states_relation(match.group(1)) or (skip is not None and skip.match(match.group(1))):
                continue
            line = line_of(start + match.start())
            section = sections[line]
            counts[section] = counts.get(section, 0) + 1
            out.append(Relation(f"{section}-{mark}{counts[section]}", section, line + 1, match.group(1),
                                block_line))
    return tuple(out)
