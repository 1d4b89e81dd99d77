"""The one policy for HTML that the suite writes from text it does not control.

report.html is report.md rendered by cmark-gfm.  Every text field of report.md was escaped for
Markdown (:func:`verify.base.markdown.markdown_text`), but escaping is a property of every call
site, and one missed field (a heading, a venue) was enough for a hostile pack to run a script
in a colleague's browser (issue #51).  So the page is also *rebuilt* here from a whitelist,
whatever the Markdown layer did:

- :func:`sanitize_html` reads cmark's output token by token and writes back only the elements
  and attributes of :data:`ELEMENTS`, with every text and attribute value escaped anew.
  Comments, declarations, processing instructions, scripts, styles, images, frames and every
  unknown element are dropped (an unknown element's text stays, as text).
- A link survives only when it points at an anchor of the page itself (``#lemma-6``); any other
  ``href`` (``javascript:``, ``http:``, ``data:``) is dropped and its text kept.
- :func:`sanitize_mathml` parses latex2mathml's output as XML and *serializes the parsed tree*,
  so the string embedded in the page is the one that was checked.  Checking the raw string and
  embedding it was the comment trick: XML reads ``<!-->…-->`` as one comment, HTML ends the
  comment at ``<!-->`` and runs what follows.
- :data:`CONTENT_SECURITY_POLICY` forbids scripts and every remote load in the browser itself,
  should anything slip past both.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser

#: HTML elements cmark-gfm writes for report.md, with the attributes each may keep.
ELEMENTS: dict[str, frozenset[str]] = {
    **{tag: frozenset() for tag in (
        "p h1 h2 h3 h4 h5 h6 em strong del blockquote ul li table thead tbody tr br hr sup sub "
        "s b i").split()},
    # cmark-gfm writes a fenced block's info string as <pre lang="math"> (a display of report.md)
    "pre": frozenset({"lang"}),
    "a": frozenset({"href", "id", "name"}),
    "ol": frozenset({"start"}),
    "th": frozenset({"align"}),
    "td": frozenset({"align"}),
    "code": frozenset({"class"}),
}
_VOID = frozenset({"br", "hr"})
#: Elements whose whole content is dropped with them (their text is not page text).
_DROP_CONTENT = frozenset({"script", "style", "template", "iframe", "object", "embed", "noscript", "svg",
                           "math", "textarea", "title", "xmp", "noembed", "noframes", "select"})
#: Attribute values that stay as written; anything else is dropped with its attribute.
_VALUE = {
    "id": re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,200}"),
    "name": re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,200}"),
    "href": re.compile(r"#[A-Za-z0-9][A-Za-z0-9._:-]{0,200}"),
    "align": re.compile(r"left|right|center"),
    "start": re.compile(r"\d{1,9}"),
    "class": re.compile(r"language-[A-Za-z0-9_+-]{1,40}"),
    "lang": re.compile(r"[A-Za-z0-9_+-]{1,40}"),
}

#: The page's Content-Security-Policy: no script of any origin, no remote or local resource but
#: the page's own inline style, no form, no base URL, no framing.
CONTENT_SECURITY_POLICY = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'none'; "
                           "img-src 'none'; font-src 'none'; connect-src 'none'; media-src 'none'; "
                           "object-src 'none'; frame-src 'none'; form-action 'none'; base-uri 'none'")


class _Rebuilder(HTMLParser):
    """Writes back the whitelisted part of an HTML fragment (see the module)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.open: list[str] = []
        self.dropping: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.dropping or tag in _DROP_CONTENT:
            if tag in _DROP_CONTENT and tag not in _VOID:
                self.dropping.append(tag)
            return
        if tag not in ELEMENTS:
            return
        kept = [(name, value) for name, value in attrs
                if name in ELEMENTS[tag] and value is not None and _VALUE[name].fullmatch(value)]
        self.out.append(f"<{tag}" + "".join(f' {name}="{html.escape(value, quote=True)}"'
                                             for name, value in kept) + ">")
        if tag not in _VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in ELEMENTS and tag not in _VOID and not self.dropping:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.dropping:
            if tag == self.dropping[-1]:
                self.dropping.pop()
            return
        if tag in self.open:  # close what is open down to it; a stray end tag is ignored
            while self.open:
                top = self.open.pop()
                self.out.append(f"</{top}>")
                if top == tag:
                    break

    def handle_data(self, data: str) -> None:
        if not self.dropping:
            self.out.append(html.escape(data, quote=False))

    # comments, <!DOCTYPE ...>, <?...?> and <![CDATA[...]]> are never page content
    def handle_comment(self, data: str) -> None:
        pass

    def handle_decl(self, decl: str) -> None:
        pass

    def handle_pi(self, data: str) -> None:
        pass

    def unknown_decl(self, data: str) -> None:
        pass

    def result(self) -> str:
        self.close()
        return "".join(self.out) + "".join(f"</{tag}>" for tag in reversed(self.open))


def sanitize_html(fragment: str) -> str:
    """``fragment`` rebuilt from the whitelist :data:`ELEMENTS` (see the module)."""
    rebuilder = _Rebuilder()
    rebuilder.feed(fragment)
    return rebuilder.result()


#: The MathML elements and attributes latex2mathml writes; anything else refuses the formula.
MATHML_ELEMENTS = frozenset(
    "math mrow mi mo mn mtext ms mspace msub msup msubsup mfrac msqrt mroot mover munder munderover "
    "mtable mtr mtd mstyle menclose mpadded mphantom mfenced merror semantics annotation".split())
MATHML_ATTRIBUTES = frozenset(
    "xmlns display mathvariant stretchy fence separator lspace rspace width height depth linethickness "
    "displaystyle scriptlevel columnalign rowspacing columnspacing columnlines rowlines frame notation "
    "accent accentunder movablelimits minsize maxsize symmetric largeop form open close separators "
    "class encoding linebreak".split())
_MATHML_NAMESPACE = "http://www.w3.org/1998/Math/MathML"
#: An attribute value of MathML: short printable text (it is escaped again as it is written).
_MATHML_VALUE = re.compile(r"[^\x00-\x1f\x7f]{0,200}")


def sanitize_mathml(mathml: str) -> str | None:
    """The MathML of one formula serialized anew from its parsed tree, or None when it is not
    well-formed or holds anything outside :data:`MATHML_ELEMENTS` and :data:`MATHML_ATTRIBUTES`.
    A comment or processing instruction refuses the formula too (it shows as its LaTeX): dropped
    silently, it would hide part of what was typed.  Text is escaped as it is written."""
    parser = ElementTree.XMLParser(target=ElementTree.TreeBuilder(insert_comments=True, insert_pis=True))
    try:
        parser.feed(mathml)
        root = parser.close()
    except ElementTree.ParseError:
        return None
    out: list[str] = []
    if not _write_mathml(root, out, top=True):
        return None
    return "".join(out)


def _write_mathml(element: ElementTree.Element, out: list[str], top: bool = False) -> bool:
    if not isinstance(element.tag, str):  # a comment or processing instruction
        return False
    namespace, _, tag = element.tag.rpartition("}")
    if tag not in MATHML_ELEMENTS or namespace not in ("", "{" + _MATHML_NAMESPACE):
        return False
    attributes = []
    for name, value in element.attrib.items():
        if name not in MATHML_ATTRIBUTES or not _MATHML_VALUE.fullmatch(value):
            return False
        if name != "xmlns":
            attributes.append(f' {name}="{html.escape(value, quote=True)}"')
    if top:
        attributes.insert(0, f' xmlns="{_MATHML_NAMESPACE}"')
    out.append(f"<{tag}{''.join(attributes)}>")
    out.append(html.escape(element.text or "", quote=False))
    for child in element:
        if not _write_mathml(child, out):
            return False
        out.append(html.escape(child.tail or "", quote=False))
    out.append(f"</{tag}>")
    return True
