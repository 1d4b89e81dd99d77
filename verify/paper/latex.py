r"""A LaTeX file in the suite's text format, so that one numbering serves every paper.

:mod:`verify.paper.source` numbers the displays and proof relations of a text in the format of the
vendored Dayı–Chen text: one paragraph per line, numbered headings opening their line (``2.``,
``2.1.``, ``Appendix A.``, ``A.1.``), ``$$ … $$`` displays, numbered statements opening their line
(``Lemma 3 (title) …``) and proofs opening theirs (``Proof [Proof of Lemma 3] …``).
:func:`extract` writes a LaTeX file in that format:

- comments are dropped, inside displays too (as LaTeX drops them: a display's quote is its
  content without them), and so are ``\iffalse … \fi`` and the ``comment`` environment; the body is
  what lies between ``\begin{document}`` and ``\end{document}``;
  ``\title`` and ``\author`` are read as the provenance;
- ``\section``, ``\subsection`` and ``\subsubsection`` (starred too) become numbered headings,
  lettered after ``\appendix``;
- ``$$ … $$``, ``\[ … \]`` and the display environments (:data:`DISPLAYS`) become ``$$ … $$``
  with their content **verbatim** (an ``align`` keeps its ``&`` and ``\\``); ``\( … \)`` becomes
  ``$ … $``;
- the theorem-like environments (declared by ``\newtheorem``, else the usual names, sharing one
  counter) become ``Kind N (title)`` opening a line, and ``\label``/``\ref`` (``\cref``,
  ``\Cref``, ``\autoref``) of them become ``Kind N``; ``\eqref`` of a numbered equation becomes
  ``(n)``, numbered as LaTeX numbers them (:meth:`_Writer.number_display`: each line of an
  ``align`` its own number unless ``\nonumber``/``\notag``, starred environments none, ``\tag``
  its own text, every ``\label`` of a line that line's number);
- ``proof`` becomes ``Proof [optional title]`` opening a line;
- a list's ``\item`` becomes ``(n)`` or ``•`` inside its paragraph (so that an item never reads
  as a heading), and every paragraph is joined onto one line.

The quotes of the ledger that ``verify ledger init`` writes are then the LaTeX between a display's
delimiters, character for character, and an inline relation's span between its dollars (with its
line breaks joined by spaces, as the paragraph is).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from verify.base.errors import VerifyInputError
from verify.base.tex import outside_braces
from verify.paper.source import STATEMENT_KINDS
from verify.paper.tex_groups import balanced_group

#: Display environments (their content is a display, kept verbatim).
DISPLAYS = ("equation", "equation*", "align", "align*", "gather", "gather*", "multline", "multline*",
            "eqnarray", "eqnarray*", "displaymath", "flalign", "flalign*", "alignat", "alignat*")
#: Environments numbered as statements when the preamble declares nothing: name -> printed kind.
DEFAULT_STATEMENTS = {name: name.capitalize() for name in
                      ("theorem", "lemma", "proposition", "corollary", "claim", "definition", "remark",
                       "assumption", "condition", "example")}
#: The display environments LaTeX numbers (their starred forms number nothing).
_NUMBERED_DISPLAYS = {"equation", "align", "gather", "multline", "eqnarray", "flalign", "alignat"}
#: The numbered environments of several lines, each line numbered on its own (a ``multline`` is one
#: equation written over several lines: one number).
_MULTILINE = {"align", "gather", "eqnarray", "flalign", "alignat"}


class LatexError(VerifyInputError):
    """The LaTeX cannot be read into the suite's text format (names the place and what is wrong)."""


@dataclass(frozen=True)
class Extracted:
    text: str
    title: str
    authors: str


#: The longest argument of \\label, \\ref, \\begin, \\newtheorem or \\title[...] read.  Every pattern
#: here is bounded so that reading is linear in the text: an unbounded [^}]+ after each of many
#: unclosed \\label{ scanned to the end of the file every time (1.6 MB took over 20 s).
_ARGUMENT = 200
_NEWTHEOREM = re.compile(rf"\\newtheorem\s*(\*?)\s*{{([^}}]{{1,{_ARGUMENT}}})}}\s*(?:\[([^\]]{{1,{_ARGUMENT}}})\])?"
                         rf"\s*{{([^}}]{{1,{_ARGUMENT}}})}}")
_LABEL_NAME = re.compile(rf"\\label\s*{{([^}}]{{1,{_ARGUMENT}}})}}")


def _command_at(tex: str, name: str, start: int) -> int:
    """The index of the next ``\\name`` not followed by a letter (``\\fi``, not ``\\fill``), or -1."""
    while True:
        i = tex.find(name, start)
        if i < 0:
            return -1
        after = i + len(name)
        if after >= len(tex) or not (tex[after].isalnum() or tex[after] == "_"):
            return i
        start = after


def _without_switched_off(tex: str) -> str:
    """``tex`` without each ``\\iffalse ... \\fi`` (not nested), in one pass: an unclosed
    ``\\iffalse`` and everything after it are kept, as LaTeX would not (the regular expression this
    replaces rescanned the rest of the file from every unclosed \\iffalse)."""
    out, i = [], 0
    while True:
        start = _command_at(tex, "\\iffalse", i)
        end = _command_at(tex, "\\fi", start + len("\\iffalse")) if start >= 0 else -1
        if end < 0:
            out.append(tex[i:])
            return "".join(out)
        out.append(tex[i:start])
        i = end + len("\\fi")


def _strip_comments(tex: str) -> str:
    """``tex`` without its comments.  As in LaTeX, a comment also takes its line's end when text
    follows on the next line (a comment line inside a paragraph or a formula splits neither), but
    a blank line after it still ends the paragraph."""
    return re.sub(r"(?<!\\)%[^\n]*(?:\n[ \t]*(?=\S))?", "", tex)


def _group(tex: str, start: int, open_: str = "{", close: str = "}") -> tuple[str, int]:
    """The balanced group opening at ``tex[start]`` (which is ``open_``): its content and the
    index after it."""
    if start >= len(tex) or tex[start] != open_:
        raise LatexError(f"expected {open_!r} at character {start}")
    found = balanced_group(tex, start, open_, close)
    if found is None:
        raise LatexError(f"unbalanced {open_!r} opened at character {start}")
    return found


def _command_argument(tex: str, name: str) -> str:
    match = re.search(rf"\\{name}\s*(?:\[[^\]]{{0,{_ARGUMENT}}}\])?\s*{{", tex)
    if not match:
        return ""
    content, _ = _group(tex, match.end() - 1)
    return " ".join(content.replace("\\\\", " ").split())


def _theorems(preamble: str) -> tuple[dict[str, str], dict[str, str]]:
    """(environment -> printed kind, environment -> the counter it uses) from ``\\newtheorem``."""
    kinds, counters = {}, {}
    for match in _NEWTHEOREM.finditer(preamble):
        star, env, shared, kind = match.groups()
        kinds[env] = kind.strip()
        counters[env] = "" if star else (shared or env)
    if not kinds:
        kinds = dict(DEFAULT_STATEMENTS)
        counters = {env: "theorem" for env in kinds}
    return kinds, counters


class _Writer:
    """Turns the body into the text format (module docstring), one pass, numbering as it goes."""

    def __init__(self, kinds: dict[str, str], counters: dict[str, str]):
        self.kinds, self.counters = kinds, counters
        self.counts: dict[str, int] = {}
        self.sections = [0, 0, 0]
        self.appendix = False
        self.equations = 0
        #: label -> (kind, number): a statement's ("Lemma", "3"), a display's ("Eq.", "2")
        self.labels: dict[str, tuple[str, str]] = {}
        #: (what, text): "display", "structure" (a heading, a statement's head, a proof's first
        #: paragraph) or "prose"
        self.paragraphs: list[tuple[str, str]] = []
        self.current: list[str] = []
        self.list_counters: list[int | None] = []
        #: the next paragraph opens a proof (its "Proof" is the structure, not prose to mark)
        self.proof_opens = False

    # paragraphs -------------------------------------------------------------------------------
    def words(self, text: str) -> None:
        parts = re.split(r"\n\s*\n", text)
        for i, part in enumerate(parts):
            if i:
                self.flush()
            if part.strip():
                self.current.append(part)

    def flush(self) -> None:
        joined = " ".join("".join(self.current).split())
        if joined:
            self.paragraphs.append(("structure" if self.proof_opens else "prose", joined))
            self.proof_opens = False
        self.current = []

    def display(self, body: str, where: str) -> None:
        """One display, its content verbatim; an empty one is none (nothing to quote)."""
        if "$$" in body:
            raise LatexError(f"{where} holds $$")
        if body.strip():
            self.flush()
            self.paragraphs.append(("display", f"$${body}$$"))

    def block(self, text: str) -> None:
        self.flush()
        self.paragraphs.append(("structure", text))

    # numbering --------------------------------------------------------------------------------
    def heading(self, level: int, title: str) -> None:
        self.sections[level] += 1
        for deeper in range(level + 1, 3):
            self.sections[deeper] = 0
        numbers = [str(n) for n in self.sections[:level + 1]]
        if self.appendix:
            letter = chr(ord("A") + self.sections[0] - 1)
            if level == 0:
                self.block(f"Appendix {letter}. {title}")
                return
            numbers[0] = letter
        self.block(f"{'.'.join(numbers)}. {title}")

    def number_display(self, env: str, body: str) -> None:
        r"""Number the display environment ``env`` as LaTeX does, and map each ``\label`` to the
        number of its line: each line of an ``align``, ``gather``, ``flalign``, ``alignat`` or
        ``eqnarray`` (split at ``\\`` outside groups and inner environments) takes the next number
        unless it says ``\nonumber`` or ``\notag``; an ``equation`` or a ``multline`` takes one; a
        starred environment, ``\[ … \]`` and ``$$ … $$`` take none; ``\tag{t}`` gives its line the
        text ``t`` instead (the counter is not stepped).  A label on a line without a number stays
        unresolved, ``(??)`` (LaTeX would print the number of another equation)."""
        numbered = env in _NUMBERED_DISPLAYS
        lines = _display_lines(body) if env.rstrip("*") in _MULTILINE else [body]
        if len(lines) > 1 and not lines[-1].strip() and env != "eqnarray":
            lines.pop()  # amsmath ignores a \\ ending the last line (eqnarray numbers the empty line)
        for line in lines:
            number = _tag(line)
            if number is None and numbered and not _NO_NUMBER.search(line):
                self.equations += 1
                number = str(self.equations)
            if number is not None:
                for label in _LABEL_NAME.findall(line):
                    self.labels[label] = ("Eq.", number)

    def statement_number(self, env: str) -> str:
        counter = self.counters.get(env, "")
        if not counter:
            return ""
        self.counts[counter] = self.counts.get(counter, 0) + 1
        return str(self.counts[counter])


#: What splits a display into lines (``\\``), and the groups and inner environments that hide one
#: (the lines of an ``aligned``, a ``cases`` or a ``\substack`` are not the display's).
_LINE_TOKEN = re.compile(rf"\\begin\s*{{[^{{}}\n]{{1,{_ARGUMENT}}}}}|\\end\s*{{[^{{}}\n]{{1,{_ARGUMENT}}}}}"
                         r"|\\\\|\\[{}]|[{}]")
_NO_NUMBER = re.compile(r"\\(?:nonumber|notag)(?![A-Za-z])")
_TAG = re.compile(r"\\tag\*?\s*(?=\{)")


def _display_lines(body: str) -> list[str]:
    r"""The lines of a display of several lines: ``body`` split at each ``\\`` outside every
    ``{ … }`` group and inner environment."""
    lines, depth, start = [], 0, 0
    for match in _LINE_TOKEN.finditer(body):
        token = match.group(0)
        if token == "{" or token.startswith("\\begin"):
            depth += 1
        elif token == "}" or token.startswith("\\end"):
            depth = max(depth - 1, 0)
        elif token == "\\\\" and depth == 0:
            lines.append(body[start:match.start()])
            start = match.end()
    lines.append(body[start:])
    return lines


def _tag(line: str) -> str | None:
    r"""The text of the line's ``\tag{…}`` (or ``\tag*{…}``), or None."""
    match = _TAG.search(line)
    found = balanced_group(line, match.end()) if match else None
    return " ".join(found[0].split()) if found else None


def _label_in(body: str) -> str | None:
    match = _LABEL_NAME.search(body)
    return match.group(1) if match else None


def label_of(latex: str) -> str | None:
    """The name a display's ``\\label`` gives it (``eq:kernel``), or None: the name reports show."""
    name = _label_in(latex)
    return " ".join(name.split()) if name else None


#: A relation of a display's line as the claim language spells it (``=``, ``<``, ``>``, ``\le``, ``\geq``, …).
_RELATION = re.compile(r"\\(?:le|leq|leqslant|ge|geq|geqslant)(?![A-Za-z])|(?<!\\)[=<>]")
#: A line break of a display, with its optional spacing (``\\[2pt]``).
_LINE_BREAK = re.compile(r"\\\\(?:\s*\[[^\]\n]{0,100}\])?")


def relation_labels(latex: str, count: int) -> list[str | None] | None:
    """For each of the ``count`` relations of a display of several lines (an ``align``), in order,
    the label of the line that holds it: the line's own ``\\label``, or, for a line that
    ``\\nonumber`` (``\\notag``) leaves without a number, the label of the line it continues into
    (the equation it is part of); None for a line with neither.  None in place of the list when the
    relations of the lines (outside braces: a sum's ``_{p=0}`` is none) do not add up to ``count``
    (a condition ``\\quad 0 \\le m``, a relation the claims leave out), so that no relation is
    named by another line's label."""
    lines = _LINE_BREAK.split(latex)
    if len(lines) > 1 and not lines[-1].strip():
        lines.pop()  # the break after the last line ends no line
    labels: list[str | None] = []
    for line in lines:
        labels.append(label_of(line) or ("" if re.search(r"\\no(?:number|tag)(?![A-Za-z])", line) else None))
    for i in reversed(range(len(labels) - 1)):  # an unnumbered line takes the number of the next
        if labels[i] == "":
            labels[i] = labels[i + 1]
    counts = [len(_RELATION.findall(outside_braces(without_labels(line)))) for line in lines]
    if sum(counts) != count:
        return None
    return [label or None for label, n in zip(labels, counts, strict=True) for _ in range(n)]


def without_labels(latex: str) -> str:
    """``latex`` without its ``\\label{...}`` commands, which print nothing in the paper (drawn as
    math, they read as an identifier "label")."""
    return _LABEL_NAME.sub("", latex)


def _environment(tex: str, start: int, env: str) -> tuple[str, int]:
    """The content of ``\\begin{env}`` whose ``\\begin`` ends at ``start``, and the index after
    its ``\\end``."""
    depth, i = 1, start
    pattern = re.compile(rf"\\(begin|end)\s*{{{re.escape(env)}}}")
    while True:
        match = pattern.search(tex, i)
        if not match:
            raise LatexError(f"\\begin{{{env}}} at character {start} has no \\end{{{env}}}")
        depth += 1 if match.group(1) == "begin" else -1
        if depth == 0:
            return tex[start:match.start()], match.end()
        i = match.end()


_TOKEN = re.compile(r"(?P<text>\\\\(?:\[[^\]\n]{0,100}\])?|\\\$)"  # a line break \\[2pt], an escaped \$: text
                    rf"|\\begin\s*{{([^}}\n]{{1,{_ARGUMENT}}})}}|\\end\s*{{([^}}\n]{{1,{_ARGUMENT}}})}}"
                    r"|\\(sub)?(sub)?section\*?\s*(?=[\[{])"
                    r"|\\appendix\b|\$\$|\\\[|\\\(|\\item\b\s*(?:\[[^\]]{0,100}\])?|\\maketitle\b")
#: Where a display opened by ``$$`` closes: the next ``$$`` that is no escaped dollar.
_CLOSE_DOLLARS = re.compile(r"(?<!\\)\$\$")


def _walk(tex: str, writer: _Writer) -> None:
    i = 0
    while True:
        match = _TOKEN.search(tex, i)
        if not match:
            writer.words(tex[i:])
            return
        writer.words(tex[i:match.start()])
        token = match.group(0)
        i = match.end()
        if match.group("text"):
            writer.words(token)
        elif token.startswith("\\begin"):
            env = match.group(2).strip()
            i = _begin(tex, i, env, writer)
        elif token.startswith("\\end"):
            continue  # the end of an environment walked as plain text (itemize, center, …)
        elif "section" in token:
            level = 2 if match.group(5) else 1 if match.group(4) else 0
            if tex[i] == "[":
                _, i = _group(tex, i, "[", "]")
            title, i = _group(tex, i)
            writer.heading(level, " ".join(title.split()))
        elif token == "\\appendix":
            writer.appendix, writer.sections = True, [0, 0, 0]
        elif token in ("$$", "\\["):
            closing = _CLOSE_DOLLARS.search(tex, i) if token == "$$" else re.compile(r"\\\]").search(tex, i)
            if closing is None:
                raise LatexError(f"display {token} at character {match.start()} is not closed")
            writer.number_display("displaymath", tex[i:closing.start()])  # no number; a \tag{…} tags it
            writer.display(tex[i:closing.start()], f"display {token} at character {match.start()}")
            i = closing.end()
        elif token == "\\(":
            end = tex.find("\\)", i)
            if end < 0:
                raise LatexError(f"inline math \\( at character {match.start()} is not closed")
            writer.words(f"${tex[i:end]}$")
            i = end + 2
        elif token.startswith("\\item"):
            counters = writer.list_counters
            if counters and counters[-1] is not None:
                counters[-1] += 1
                writer.words(f" ({counters[-1]}) ")
            else:
                writer.words(" • ")


def _optional_title(body: str) -> tuple[str, str]:
    """(the ``[title]`` an environment's body opens with, or "", and the body after it)."""
    if not body.lstrip().startswith("["):
        return "", body
    title, end = _group(body, len(body) - len(body.lstrip()), "[", "]")
    return title, body[end:]


def _begin(tex: str, start: int, env: str, writer: _Writer) -> int:
    """Walk the environment ``env`` opening at ``start``; the index after its end."""
    body, after = _environment(tex, start, env)
    if env in DISPLAYS:
        if env.startswith("alignat") and body.startswith("{"):
            _, end = _group(body, 0)  # its number of columns, an argument and not the formula
            body = body[end:]
        writer.number_display(env, body)
        writer.display(body, f"\\begin{{{env}}} at character {start}")
    elif env in writer.kinds:
        title, body = _optional_title(body)
        number = writer.statement_number(env)
        head = f"{writer.kinds[env]} {number}".strip()
        label = _label_in(body)
        if label and number:
            writer.labels[label] = (writer.kinds[env], number)
        # the head on a line of its own, so that the structure reader sees a statement open there
        writer.block(head + (f" ({' '.join(title.split())})" if title else ""))
        _walk(body, writer)
        writer.flush()
    elif env == "proof":
        title, body = _optional_title(body)
        writer.flush()
        writer.current.append("Proof" + (f" [{' '.join(title.split())}]" if title else "") + " ")
        writer.proof_opens = True
        _walk(body, writer)
        writer.flush()
    elif env == "comment":
        pass  # the comment package's environment: not part of the paper
    elif env in ("abstract",):
        writer.flush()
        writer.current.append("Abstract")
        _walk(body, writer)
        writer.flush()
    elif env in ("enumerate", "itemize", "description"):
        writer.list_counters.append(0 if env == "enumerate" else None)
        _walk(body, writer)
        writer.list_counters.pop()
    else:
        _walk(body, writer)
    return after


#: What opens a line of structure in the text format (verify.paper.source, verify.paper.structure).
_STRUCTURE = re.compile(rf"(?:\*\*)?(?:{'|'.join(STATEMENT_KINDS)}) \d|Proof\b|\*\*Proof|\d+(?:\.\d+)*\. \S"
                        r"|Appendix [A-Z]\. \S|[A-Z](?:\.\d+)+\.? \S")

_REF = re.compile(rf"~?\\(ref|cref|Cref|autoref|eqref)\s*{{([^}}]{{1,{_ARGUMENT}}})}}")


_LABEL = re.compile(rf"\\label\s*{{[^}}]{{0,{_ARGUMENT}}}}}\s*")


def extract(tex: str) -> Extracted:
    """The LaTeX ``tex`` in the suite's text format (module docstring), with its title and authors."""
    tex = _strip_comments(tex.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n"))
    tex = _without_switched_off(tex)
    begin, end = tex.find("\\begin{document}"), tex.rfind("\\end{document}")
    preamble = tex[:begin] if begin >= 0 else ""
    body = tex[begin + len("\\begin{document}"):end if end > begin else len(tex)] if begin >= 0 else tex
    kinds, counters = _theorems(preamble)
    writer = _Writer(kinds, counters)
    try:
        _walk(body, writer)
    except RecursionError:  # environments nested hundreds deep
        raise LatexError("environments are nested too deeply to be read") from None
    writer.flush()

    def ref(match: re.Match) -> str:
        space = " " if match.group(0).startswith("~") else ""
        kind, number = writer.labels.get(match.group(2), ("", "??"))
        if match.group(1) == "eqref" or (kind == "Eq." and match.group(1) != "ref"):
            return f"{space}({number})"
        return space + (f"{kind} {number}" if match.group(1) in ("cref", "Cref", "autoref") else number)

    # references are resolved after the walk (a proof may cite a later statement); never inside a
    # display, whose quote stays verbatim
    paragraphs = []
    for what, paragraph in writer.paragraphs:
        if what != "display":
            paragraph = " ".join(_REF.sub(ref, _LABEL.sub("", paragraph)).split())
        if what == "prose" and _STRUCTURE.match(paragraph):
            # prose that would read as a heading, a statement or a proof opening its line
            # ("Lemma 3 gives …" after \Cref): marked, so that it stays prose
            paragraph = "¶ " + paragraph
        if paragraph:
            paragraphs.append(paragraph)
    text = "\n\n".join(paragraphs) + "\n"
    title = _command_argument(preamble + body, "title")
    authors = _command_argument(preamble + body, "author")
    return Extracted(text, title, authors)
