"""report.html: report.md as one self-contained page that reads offline in any browser.

The page is report.md rendered by GitHub's own Markdown parser (cmark-gfm), so the two say
the same thing in the same order; each formula (GitHub math: inline ``$`latex`$``, a display
```` ```math ```` block) becomes MathML (latex2mathml), which browsers draw natively, with no
script and no network.  What reaches the page passes :mod:`verify.base.safe_html`, the one
whitelist for HTML the suite writes.  A formula that latex2mathml cannot read stays visible as its
LaTeX source in a code span (never dropped).
"""

from __future__ import annotations

import html
import re

import cmarkgfm
from cmarkgfm.cmark import Options
from latex2mathml.converter import convert

from verify.base.safe_html import CONTENT_SECURITY_POLICY, sanitize_html, sanitize_mathml
from verify.paper.provenance import paper

#: GitHub's inline math in code form after cmark-gfm: $<code>LATEX</code>$.
_MATH = re.compile(r"\$<code>([^<]*)</code>\$")
#: GitHub's display math, a ```math block, after cmark-gfm: <pre lang="math"><code>LATEX</code></pre>.
_DISPLAY = re.compile(r'<pre lang="math"><code>([^<]*)</code></pre>')

_STYLE = """
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 72rem;
       margin: 2rem auto; padding: 0 1rem; color: #1f2328; }
h1, h2, h3 { line-height: 1.25; } h2 { border-bottom: 1px solid #d0d7de; padding-bottom: .3rem; }
table { border-collapse: collapse; display: block; overflow-x: auto; font-size: 13px; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; vertical-align: top; }
tr:nth-child(2n) { background: #f6f8fa; }
code { background: #eff1f3; padding: .1em .3em; border-radius: 4px; font-size: 90%; }
blockquote { margin: 0; padding: 0 1em; color: #59636e; border-left: .25em solid #d0d7de; }
math { font-size: 105%; } :target { background: #fff8c5; }
/* a long formula scrolls inside its own box instead of widening the page (C.3-7 made the page
   7423 px wide), and a nested fraction keeps display size (inline style shrank it to 5 px) */
.formula { display: inline-block; max-width: 100%; overflow-x: auto; overflow-y: hidden;
           vertical-align: middle; }
div.formula { display: block; margin: 1em 0; }
math, math * { math-style: normal; }
p, li, td, th, blockquote { overflow-wrap: anywhere; }
"""


#: \left and \right (and the invisible \left. \right.): delimiter sizing only.
_UNSIZED = re.compile(r"\\(?:left|right)\s*\.|\\(?:left|right)(?![A-Za-z])")


#: The environment report.md writes for an align's lines (GitHub draws it), as latex2mathml reads
#: the same columns: it knows ``align*`` (right- and left-aligned pairs), not ``aligned``.
_ALIGNED = re.compile(r"\\(begin|end)\{aligned\}")


def _formula(latex: str, display: bool) -> str:
    """The MathML of one formula of the page, whitelisted (:func:`sanitize_mathml`); or its LaTeX,
    escaped, where latex2mathml cannot read it or its output is refused."""
    read = _ALIGNED.sub(r"\\\1{align*}", latex)
    mode = "block" if display else "inline"
    try:
        mathml = convert(read, display=mode)
    except Exception:  # latex2mathml raises several bare kinds; the LaTeX stays readable
        try:
            # a display whose \left( closes on its next line as \right. (the paper's multi-line
            # sums) is more than latex2mathml pairs: drawn with plain brackets, the same symbols
            mathml = convert(_UNSIZED.sub("", read), display=mode)
        except Exception:
            mathml = ""
    safe = sanitize_mathml(mathml)
    if safe is None:
        shown = f"<code>{html.escape(latex)}</code>"
        return f"<pre>{shown}</pre>" if display else shown
    return f'<div class="formula">{safe}</div>' if display else f'<span class="formula">{safe}</span>'


def _mathml(match: re.Match[str]) -> str:
    return _formula(html.unescape(match.group(1)), display=False)


def _display_mathml(match: re.Match[str]) -> str:
    return _formula(html.unescape(match.group(1)).strip(), display=True)


def to_html(markdown: str) -> str:
    """The whole page for report.md's text ``markdown``."""
    # unsafe: report.md's own raw HTML is its anchors; the page is then rebuilt from the
    # whitelist of verify.base.safe_html, so no other markup of any text field survives
    body = cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)
    body = _DISPLAY.sub(_display_mathml, _MATH.sub(_mathml, sanitize_html(body)))
    title = html.escape(f"verify check report — {paper()['title']}")
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{CONTENT_SECURITY_POLICY}">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>{title}</title>\n'
            f"<style>{_STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n")
