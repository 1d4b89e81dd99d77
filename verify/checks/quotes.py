"""Each check's statement quoted from the vendored text, as its own TeX (issue #53).

A check's docstring opens with the statement in the check writer's words (plain text with
Unicode math, ``(ξ²/k)^{l+1} C(l+s,l)``): the *reading* the check tests.  The reports quote the
paper itself instead, found in the pack's text by the check's own coordinates:

1. a ledger claim check (``display-<id>``, ``relation-<id>``): its entry's quote;
2. a numbered statement (``Lemma 6``, ``Theorem 11 (…)``): the statement itself, from its heading
   to the first paragraph after it that opens a sentence of discussion ("The proof …", "Note …")
   rather than of the statement ("Then …", "Define …") (:func:`verify.paper.source.statement_spans`);
3. a check the ledger names for its displays (``check = "eq-7-9"``): those displays;
4. ``Eq. (N)``: the display tagged N.

Otherwise there is no passage to quote (a figure's setting, a definition compared across the
text), and the reports print the reading alone, labelled as the check's own.  The quote is at most
:data:`MAX_QUOTE` characters, cut at a sentence or a paragraph.
"""

from __future__ import annotations

import re

from verify.checks.core import Check
from verify.paper.ledger import claim_check_id, entries
from verify.paper.pack import per_pack
from verify.paper.source import displays, paper_text, statement_spans

#: The longest quote printed: a statement with its displays is under 1500 characters in the paper.
MAX_QUOTE = 1800
_HEAD = re.compile(r"(?:\*\*)?([A-Z][a-z]+) (\d+)\b")


@per_pack
def _statements() -> dict[str, str]:
    text = paper_text()
    found: dict[str, str] = {}
    for start, end in statement_spans():
        head = _HEAD.match(text[start : start + 60])
        if head:
            found.setdefault(f"{head.group(1)} {head.group(2)}", _statement_only(text[start:end]))
    return found


def _statement_only(span: str) -> str:
    """The statement without the discussion that follows it before the proof: its heading
    paragraph, then the displays and the paragraphs that continue its sentence (``where …``), up to
    the first paragraph that opens a new sentence."""
    paragraphs = [p.strip() for p in span.strip().split("\n") if p.strip()]
    kept = paragraphs[:1]
    for paragraph in paragraphs[1:]:
        continues = paragraph.startswith("$") or paragraph[:1].islower() or paragraph[:1] in ",.;:()+-=\\"
        if not (continues or paragraph.split(" ", 1)[0].rstrip(",") in _STATEMENT_WORDS):
            break
        kept.append(paragraph)
    return "\n".join(kept)


#: Words that open a further sentence of a statement (Proposition 4's "Define …", "Then …"), as
#: opposed to the discussion after it ("The proof of this …", "Note that …").
_STATEMENT_WORDS = frozenset(
    {
        "Define",
        "Then",
        "Let",
        "Suppose",
        "Assume",
        "If",
        "Moreover",
        "Furthermore",
        "Finally",
        "Also",
        "Consequently",
        "Hence",
        "Therefore",
        "In",
        "For",
        "Given",
    }
)


@per_pack
def _by_check() -> dict[str, tuple[str, ...]]:
    """Check id -> the quotes of the entries that name it (their ``check`` field) or that it runs."""
    out: dict[str, list[str]] = {}
    for entry in entries():
        if entry.check:
            out.setdefault(entry.check, []).append(entry.quote)
        if entry.claim is not None:
            out.setdefault(claim_check_id(entry.id, entry.what), []).append(entry.quote)
    return {key: tuple(quotes) for key, quotes in out.items()}


@per_pack
def _tagged() -> dict[str, str]:
    return {tag: d.latex for d in displays() for tag in re.findall(r"\\tag\{(\d+)\}", d.latex)}


def _shortened(text: str) -> str:
    text = text.strip()
    if len(text) <= MAX_QUOTE:
        return text
    cut = max(text.rfind("\n", 0, MAX_QUOTE), text.rfind(". ", 0, MAX_QUOTE))
    # never inside a formula: an odd count of dollars before the cut would open one
    while cut > 0 and text.count("$", 0, cut) % 2:
        cut = max(text.rfind("\n", 0, cut), text.rfind(". ", 0, cut))
    return (text[: cut + 1] if cut > 0 else text[:MAX_QUOTE].rsplit(" ", 1)[0].split("$")[0]).rstrip() + " …"


def _as_display(latex: str) -> str:
    return "$$" + " ".join(latex.split()) + "$$"


def is_ledger_check(check: Check) -> bool:
    """Whether ``check`` runs a ledger entry's claim (its reading is the entry's quote and claim)."""
    return check.id.startswith(LEDGER_PREFIXES)


#: The ids of the checks that run a ledger entry's claim begin so.
LEDGER_PREFIXES = ("display-", "relation-", "statement-", "prose-")


def _located(check_id: str, statement: str) -> str | None:
    quotes = _by_check().get(check_id)
    if quotes and (check_id.startswith(LEDGER_PREFIXES) or not _HEAD.match(statement)):
        return _shortened("\n".join(_as_display(q) for q in quotes))
    head = _HEAD.match(statement)
    if head and f"{head.group(1)} {head.group(2)}" in _statements():
        return _shortened(_statements()[f"{head.group(1)} {head.group(2)}"])
    if quotes:
        return _shortened("\n".join(_as_display(q) for q in quotes))
    tags = re.findall(r"\((\d+)\)", statement) if statement.startswith("Eq") else []
    if tags and all(t in _tagged() for t in tags):
        return _shortened("\n".join(_as_display(_tagged()[t]) for t in tags))
    return None


def paper_quote(check: Check) -> str | None:
    """The passage of the pack's text that ``check`` tests, as printed (prose with ``$…$`` math
    and ``$$…$$`` displays), or None where no passage is located."""
    return _located(check.id, check.statement)


def reading(check: Check) -> str:
    """The check's own statement of what it tests: its docstring's first paragraph."""
    return check.quote
