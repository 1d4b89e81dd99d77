"""What GitHub would do to a Markdown document: formulas that turn into emphasis, math that
does not parse.  Used by the tests of the README, docs/ and the reports."""

from __future__ import annotations

import html
import re

import cmarkgfm
from cmarkgfm.cmark import Options
from latex2mathml.converter import convert

#: Inline code spans (any fence length) and GitHub math in its code form, $`...`$.
_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
_FENCE = re.compile(r"^```.*?^```", re.S | re.M)
#: A run of stars with a word character (or a closing bracket) on both sides: SymPy's a*b or
#: x**2, which GitHub reads as emphasis delimiters.
_INTRAWORD_STAR = re.compile(r"(?<=[\w)\]])(?<!\\)\*+(?=[\w(\[])")


def _without_code(text: str) -> str:
    return _CODE.sub(" ", _FENCE.sub(" ", text))


def render(text: str) -> str:
    """GitHub-flavoured HTML of ``text`` (GitHub's own parser, cmark-gfm, with its extensions)."""
    return cmarkgfm.github_flavored_markdown_to_html(text, options=Options.CMARK_OPT_UNSAFE)


def math_spans(text: str) -> list[str]:
    """The LaTeX of every $`...`$ span."""
    return re.findall(r"\$`([^`]+)`\$", text)


def problems(text: str) -> list[str]:
    """Every place where GitHub would not show ``text`` as written: a star run inside a word
    (outside code and math), a math span latex2mathml cannot read, or rendered emphasis that
    holds formula characters."""
    out = []
    prose = _without_code(text)
    for line_no, line in enumerate(prose.splitlines(), 1):
        for match in _INTRAWORD_STAR.finditer(line):
            context = line[max(0, match.start() - 30):match.end() + 30]
            out.append(f"line {line_no}: {match.group(0)!r} inside {context!r}")
    for latex in math_spans(text):
        try:
            convert(latex)
        except Exception as exc:  # latex2mathml raises bare exceptions of several kinds
            out.append(f"math {latex!r} does not parse: {type(exc).__name__}: {exc}")
    for tag, inner in re.findall(r"<(em|strong)>(.*?)</\1>", render(text), re.S):
        inner = html.unescape(re.sub(r"<[^>]+>", "", inner))
        if re.search(r"\w\s*[*/^=]\s*\w|\\|\$", inner):
            out.append(f"<{tag}> holds formula text: {inner[:80]!r}")
    return out


_DELIMITER_ROW = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
#: A cell boundary as GitHub reads a table row: a pipe not escaped by a backslash (a pipe inside
#: a code span splits the cell too unless it is escaped).
_CELL_PIPE = re.compile(r"(?<!\\)\|")
VERDICTS = ("holds", "fails", "consistent", "inconclusive", "cited", "crashed")


def _cells(row: str) -> list[str]:
    row = row.strip()
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") and not row.endswith("\\|") else row
    return [cell.strip() for cell in _CELL_PIPE.split(row)]


def tables(text: str) -> list[tuple[int, list[str], list[list[str]]]]:
    """Every GitHub table in ``text`` outside fenced code: (line number, header cells, rows' cells)."""
    lines = _FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text).splitlines()
    found, i = [], 0
    while i + 1 < len(lines):
        if "|" in lines[i] and _DELIMITER_ROW.match(lines[i + 1]) and "-" in lines[i + 1]:
            header, rows, j = _cells(lines[i]), [], i + 2
            while j < len(lines) and lines[j].strip() and "|" in lines[j]:
                rows.append(_cells(lines[j]))
                j += 1
            found.append((i + 1, header, rows))
            i = j
        else:
            i += 1
    return found


def _plain(cell: str) -> str:
    cell = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", cell)  # links: their text
    return re.sub(r"[*_`]", "", cell).strip()


def table_problems(text: str) -> list[str]:
    """Every table row whose cell count differs from its header's (a `|` in a cell that was not
    escaped: GitHub splits the row there and drops what spills over), and every cell of a
    "verdict" column that is not a verdict."""
    out = []
    for line_no, header, rows in tables(text):
        verdict_columns = [k for k, name in enumerate(header) if _plain(name).lower() == "verdict"]
        for offset, cells in enumerate(rows, 2):
            if len(cells) != len(header):
                out.append(f"table at line {line_no}, row {offset}: {len(cells)} cells for "
                           f"{len(header)} columns: {' | '.join(cells)[:100]!r}")
                continue
            for k in verdict_columns:
                if _plain(cells[k]).split(" ")[0] not in VERDICTS:
                    out.append(f"table at line {line_no}, row {offset}: verdict cell {cells[k]!r}")
    return out
