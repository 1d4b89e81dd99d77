r"""A pack's text, its displayed equations and the inline relations of its proofs, statements and
prose, each with a stable id.

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
(``D.4-r3``), so display and relation ids never collide.  The relations inside statements
(:func:`statement_relations`) are numbered ``s``, those of the prose around them
(:func:`prose_relations`: the text outside every proof and statement) ``p``.
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
#: The rule of a pack whose ``[ledger] parameter_choices`` is ``"digits"`` (the default: the packs
#: written before the rule below), applied to the relations of its statements only.
_PARAMETER_CHOICE = re.compile(r"^\s*[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?\s*=\s*-?\d+(?:\.\d+)?\s*$")

_GREEK = ("alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|vartheta|iota|kappa|lambda|mu|nu|xi|pi|"
          "varpi|rho|varrho|sigma|varsigma|tau|upsilon|phi|varphi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|"
          "Pi|Sigma|Upsilon|Phi|Psi|Omega|ell")
#: One symbol: a Latin letter or a Greek letter's macro.
_SYMBOL = rf"(?:[A-Za-z]|\\(?:{_GREEK})(?![A-Za-z]))"
_SUBSCRIPT = r"(?:\s*_\s*(?:\{[^{}$]{1,20}\}|[A-Za-z0-9]|\\[A-Za-z]+))"
_HAT = r"\\(?:hat|widehat|tilde|widetilde|bar|overline)\s*"
#: The symbol a span sets or bounds: a symbol, with a hat (\hat u, \tilde{c}), a subscript
#: (\lambda_i), both or neither; its groups are ``symbol`` and ``sub``.
_SET = (rf"(?P<symbol>{_SYMBOL}|{_HAT}(?:\{{\s*{_SYMBOL}\s*\}}|{_SYMBOL}))"
        rf"(?P<sub>{_SUBSCRIPT})?")
_NUMBER = r"\d+(?:\.\d+)?"
_ATOM = rf"(?:{_NUMBER}|{_SYMBOL}{_SUBSCRIPT}?)"
#: What a parameter is set to: a number, a fraction of numbers and symbols (1/k, \frac{\epsilon}{18},
#: \tfrac12), or one macro or name (\erf, \cdf, \mathrm{relu}, \text{ReLU}); a bare Latin letter
#: (a = b) is a relation.
_VALUE = (rf"-?\s*(?:{_ATOM}\s*/\s*{_ATOM}"
          rf"|\\[dt]?frac\s*(?:\{{\s*{_ATOM}\s*\}}|\d)\s*(?:\{{\s*{_ATOM}\s*\}}|\d|{_SYMBOL})"
          rf"|{_NUMBER}|\\(?:mathrm|operatorname|text|textrm|mathsf)\s*\{{\s*[A-Za-z]+\s*\}}|\\[A-Za-z]+)")
_SYMBOL_CHOICE = re.compile(rf"^\s*{_SET}\s*=\s*{_VALUE}\s*$")
_BELOW = r"(?:<|\\le|\\leq|\\leqslant|\\lt)(?![A-Za-z])"
_ABOVE = r"(?:>|\\ge|\\geq|\\geqslant|\\gt)(?![A-Za-z])"
_BOUND = rf"(?:{_VALUE}|-?\s*{_ATOM}|-?\s*\\infty)"
#: A range of one symbol (its group ``symbol``), a \le x \le b or b \ge x \ge a: a hypothesis on a
#: variable.  Matched on :func:`_flat` text, as :data:`_SYMBOL_CHOICE` is.
_RANGE = re.compile(rf"^\s*{_BOUND}\s*(?=(?:{_BELOW}|{_ABOVE}))(?:(?P<below>{_BELOW})|{_ABOVE})\s*{_SET}\s*"
                   rf"(?(below){_BELOW}|{_ABOVE})\s*{_BOUND}\s*$")
#: What joins a relation to its range, from the relation's closing $ up to the range:
#: "$K(\rho) \ge 0$ for $-1 \le \rho \le 1$".
_RANGE_OF = re.compile(r"(?<!\\)\$\s*,?\s*(?:for(?:\s+(?:all|every|each|any))?|on|when|whenever|if|where|with"
                       r"|over)\s*$", re.I)
#: A symbol with a subscript applied to an argument (\mu_1(\erf), \mu_p(\sigma)): a function's value.
_APPLIED = re.compile(rf"(?P<symbol>{_SYMBOL}){_SUBSCRIPT}\s*(?:\\left\s*)?\(")


def _flat(latex: str) -> str:
    r"""``latex`` with each run of white space one space: the patterns above hold adjacent ``\s*``,
    which a long run of spaces would make take quadratic time."""
    return " ".join(latex.split())


def range_of_one_symbol(latex: str) -> re.Match | None:
    r"""The match of :data:`_RANGE` (group ``symbol``) when ``latex`` only bounds one symbol
    (``-1 \le \rho \le 1``), else None."""
    return _RANGE.match(_flat(latex))


def _parameter_choices() -> Callable[[str, int], bool] | None:
    r"""Which inline spans of the current pack only choose a parameter, and so get no entry, as
    ``(span, offset of its opening $) -> bool``; None for the rule of ``"digits"`` below.

    A pack's ``[ledger] parameter_choices`` (:mod:`verify.paper.pack`) names the rule.  ``"symbols"``
    (what ``ledger init`` writes), for the relations of the statements and of the proofs alike:

    - a single symbol, a Latin or Greek letter with a hat, a subscript, both or neither, set equal to
      a number, a fraction of numbers and symbols, or one macro or name (``\sigma = \erf``,
      ``\rho = 0``, ``\lambda_i = 1/k``, ``F = \cdf``); but not a subscripted symbol the text also
      applies to an argument (``\mu_1 = \frac12`` where it writes ``\mu_1(\erf)``: the value of a
      function, as ``K(0) = 1/\pi`` is);
    - a range of one symbol (``-1 \le \rho \le 1``, :func:`range_of_one_symbol`) right after a
      formula stating a relation that holds the symbol, joined by "for", "on", "when", "where", …:
      that relation's range, not a relation of its own.

    ``"digits"`` (the default: the rule of the packs written before, whose ledgers are numbered by
    it): a Latin letter, optionally subscripted, set equal to a number (``p = 3``), in the
    statements only."""
    if current().parameter_choices != "symbols":
        return None
    text = paper_text()
    applied = {m.group("symbol") for m in _APPLIED.finditer(text)}
    # every formula by the offset after its closing $ (a display's $$ or a span's $), for ranges
    formulas = {m.end(): m.group(1) for m in _DISPLAY.finditer(text)}
    blanked = _DISPLAY.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    formulas.update({m.end(): m.group(1) for m in _INLINE.finditer(blanked)})

    def skip(latex: str, start: int) -> bool:
        choice = _SYMBOL_CHOICE.match(_flat(latex))
        if choice:
            return not (choice.group("sub") and choice.group("symbol") in applied)
        bounded = range_of_one_symbol(latex)
        joined = _RANGE_OF.search(text, max(start - 40, 0), start) if bounded else None
        before = formulas.get(joined.start() + 1) if joined else None
        if bounded is None or before is None or not states_relation(before):
            return False
        symbol = re.escape(" ".join(bounded.group("symbol").split()))
        return bool(re.search(rf"(?<![A-Za-z\\]){symbol}(?![A-Za-z])", " ".join(before.split())))

    return skip


def _choices_outside_proofs() -> Callable[[str, int], bool]:
    """The pack's rule for the spans that only choose a parameter, outside the proofs: its own
    (:func:`_parameter_choices`), or the ``"digits"`` rule's letter set to a number."""
    return _parameter_choices() or (lambda latex, start: bool(_PARAMETER_CHOICE.match(latex)))


@per_pack
def statement_relations() -> tuple[Relation, ...]:
    """Every inline span of a statement (Theorem, Lemma, …, Remark) that states a relation, in order,
    with ids ``<section>-s<n>``; a span that only chooses a parameter (``p = 1``,
    :func:`_parameter_choices`) is skipped.  A pack tracks them when its ``[ledger] statements``
    names their files (:mod:`verify.paper.pack`)."""
    return _inline_relations(statement_spans(), "s", skip=_choices_outside_proofs())


def prose_spans() -> list[tuple[int, int]]:
    """The text outside every proof and statement, as (start, end) character offsets: the
    introduction, the discussion, the paragraphs between sections, the appendices' connecting text."""
    text = paper_text()
    out, at = [], 0
    for start, end in sorted([*proofs(), *statement_spans()]):
        if start > at:
            out.append((at, start))
        at = max(at, end)
    if at < len(text):
        out.append((at, len(text)))
    return out


@per_pack
def prose_relations() -> tuple[Relation, ...]:
    """Every inline span of the prose (:func:`prose_spans`) that states a relation, in order, with
    ids ``<section>-p<n>``; a span that only chooses a parameter is skipped by the pack's rule, as in
    the statements (:func:`statement_relations`).  A pack tracks them when its ``[ledger] prose``
    names their files (:mod:`verify.paper.pack`)."""
    return _inline_relations(prose_spans(), "p", skip=_choices_outside_proofs())


def line_index(text: str) -> Callable[[int], int]:
    """A function giving, for an offset of ``text``, how many line breaks precede it (0-based line)."""
    breaks = [m.start() for m in re.finditer("\n", text)]
    return lambda offset: bisect.bisect_left(breaks, offset)


@per_pack
def relations() -> tuple[Relation, ...]:
    """Every inline span of a proof that states a relation, in order; in a pack whose
    ``parameter_choices`` is ``"symbols"``, not one that only chooses a parameter
    (:func:`_parameter_choices`)."""
    return _inline_relations(proofs(), "r", skip=_parameter_choices())


def _inline_relations(blocks: list[tuple[int, int]], mark: str,
                      skip: Callable[[str, int], bool] | None = None) -> tuple[Relation, ...]:
    """The inline spans stating a relation inside ``blocks`` ((start, end) offsets), with ids
    ``<section>-<mark><n>``, but those ``skip(span, offset of its $)`` says to leave out;
    ``proof_line`` is the line where the block starts."""
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
            if not states_relation(match.group(1)) or (skip is not None and skip(match.group(1),
                                                                                   start + match.start())):
                continue
            line = line_of(start + match.start())
            section = sections[line]
            counts[section] = counts.get(section, 0) + 1
            out.append(Relation(f"{section}-{mark}{counts[section]}", section, line + 1, match.group(1),
                                block_line))
    return tuple(out)
