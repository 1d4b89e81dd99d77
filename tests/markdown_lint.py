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
