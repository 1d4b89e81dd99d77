r"""The current pack's structure as data (:mod:`verify.paper.pack`): which numbered statement each
display and proof relation serves, and which statements each proof cites, so that a failing
step's *impact* on the results above it is computed from the text rather than asserted.

- A **numbered statement** opens a line with its label (``Theorem 16``, ``Claim 3``, ``Lemma 31``,
  …) followed by the end of the line, ``(``, ``*`` or a capital letter (so ``Assumption 1 is
  without loss of generality`` is prose, not a statement).
- A **proof** (:func:`verify.paper.source.proofs`) proves the statement its header names
  (``Proof [Proof of Theorem 4]``), or else the last numbered statement above it.
- An entry **supports** the statement whose proof contains it, or, outside proofs, the statement
  it sits in (the last statement above it, up to the next section heading); an entry in running
  text supports its section (``§3.1``).
- A proof **cites** every numbered statement its text names, other than its own: by label
  (``Lemma 31``), in a range or list (``Claims 6 to 8``, ``Lemmas 3 and 4``), or by the name the
  statement carries on its opening line (``Lemma 31 (Freedman's inequality)``: a proof that uses
  "Freedman's inequality" cites Lemma 31).  A label inside a citation of another work is not the
  paper's own (``(Abbe et al., 2023, Proposition 6)``, ``(Mossel et al., 2005, Theorem 2.1)``): a
  label whose parenthesis or preceding words hold an author (``et al.``) or a year, or whose number
  has a dot, is skipped.
- The pack may correct the generated edges where the text is ambiguous (``[citations]`` of
  pack.toml: ``add`` and ``remove``, lists of ``["Claim 7", "Lemma 31"]`` pairs, citing first).

:func:`affected` closes this upwards: the statement an entry supports, then every statement whose
proof cites one already affected.  A gap in Claim 3's proof therefore names Claim 3, Corollary 27,
Lemma 28, … up to the theorems built on them.
"""

from __future__ import annotations

import re

from verify.paper.pack import current, per_pack
from verify.paper.source import (
    STATEMENT_KINDS,
    displays,
    line_index,
    paper_text,
    proofs,
    prose_relations,
    relations,
    section_of_lines,
    statement_relations,
)

_KINDS = "|".join(STATEMENT_KINDS)
_OPENS = re.compile(rf"^(?:\*\*)?({_KINDS}) (\d+)\**(?=$|[\s(*]*[(*A-Z])")
_NAMED = re.compile(rf"\b({_KINDS})s? (\d+)\b(?!\.\d)")
#: "Claims 6 to 8", "Lemmas 3 and 4", "Theorems 11, 12 and 13": every number of a plural label
_SEVERAL = re.compile(rf"\b({_KINDS})s (\d+)((?:\s*(?:,|and|to|through|–|-)\s*\d+\b)+)")
_NEXT_NUMBER = re.compile(r"\s*(,|and|to|through|–|-)\s*(\d+)")
#: what marks a citation of another work just before a label: an author list or a year
_OTHER_WORK = re.compile(r"et al\.?|\b(?:19|20)\d\d[a-z]?\b")
_AUTHORS_BEFORE = re.compile(r"et al\.?,?\s*(?:\(\d{4}[a-z]?\),?\s*)?$")
_AUTHORS_AFTER = re.compile(r"\s+(?:of|in)\s+\(?[A-Z][\w-]+ (?:et al|and [A-Z])")
#: a proper name in a statement's title: a possessive ("Freedman's inequality") or a capitalised
#: word after the first ("Linear Model Family From Learned Features")
_PROPER_NAME = re.compile(r"^[A-Z][\w-]*'s\b|\s[A-Z][a-z]")
#: the name a statement carries on its opening line: "Lemma 31 (Freedman's inequality) Let ..."
_TITLE = re.compile(r"^\s*\(([^(),]{6,60})[,)]")
_PROOF_OF = re.compile(rf"\[Proof of ({_KINDS}) (\d+)\]")


#: The kinds that share one counter in the paper (Theorem 16, Lemma 17, Proposition 18, ...); the
#: text sometimes names one by another kind of that counter ("Theorem 32" for Proposition 32).
_SHARED = ("Theorem", "Lemma", "Proposition", "Corollary", "Remark", "Definition")


def canonical(label: str) -> str:
    """``label`` as the paper numbers it: a kind of the shared counter is replaced by the kind of
    the statement that carries that number (``Theorem 32`` -> ``Proposition 32``)."""
    kind, number = label.split(" ")
    if kind in _SHARED:
        for known, _ in statements():
            known_kind, known_number = known.split(" ")
            if known_number == number and known_kind in _SHARED:
                return known
    return label


def first_numbered(text: str) -> str | None:
    """The first numbered statement ``text`` names ("proof of Lemma 33 (…)" -> "Lemma 33"), or None."""
    match = _NAMED.search(text)
    return f"{match.group(1)} {match.group(2)}" if match else None


def _line_offsets(text: str) -> list[int]:
    out, at = [], 0
    for line in text.split("\n"):
        out.append(at)
        at += len(line) + 1
    return out


@per_pack
def statements() -> tuple[tuple[str, int], ...]:
    """Each numbered statement as (label, 1-based line where it opens), in order."""
    out = []
    for number, line in enumerate(paper_text().split("\n"), start=1):
        match = _OPENS.match(line)
        if match:
            out.append((f"{match.group(1)} {match.group(2)}", number))
    return tuple(out)


def _statement_above(line: int) -> str | None:
    above = [label for label, at in statements() if at <= line]
    return above[-1] if above else None


@per_pack
def _proofs() -> tuple[tuple[int, int, str | None], ...]:
    """Each proof as (first line, last line, the statement it proves), 1-based lines."""
    text = paper_text()
    line_of = line_index(text)
    out = []
    for start, end in proofs():
        first, last = line_of(start) + 1, line_of(end) + 1
        named = _PROOF_OF.search(text, start, min(end, start + 200))
        proved = canonical(f"{named.group(1)} {named.group(2)}") if named else _statement_above(first)
        out.append((first, last, proved))
    return tuple(out)


@per_pack
def _boundaries() -> tuple[tuple[int, ...], tuple[str, ...]]:
    """The lines where a statement's own text stops (a proof or a heading starts), and each line's section."""
    lines = paper_text().split("\n")
    sections = section_of_lines(lines)
    stops = [first for first, _, _ in _proofs()]
    stops += [i + 1 for i in range(1, len(lines)) if sections[i] != sections[i - 1]]
    return tuple(sorted(stops)), tuple(sections)


def supports_at(line: int) -> str:
    """The numbered statement the text at ``line`` serves (see the module docstring)."""
    for first, last, proved in _proofs():
        if first <= line < last and proved:
            return proved
    stops, sections = _boundaries()
    candidates = [(label, at) for label, at in statements() if at <= line]
    if candidates:
        label, at = candidates[-1]
        if not any(at < stop <= line for stop in stops):
            return label
    return f"§{sections[line - 1]}"


@per_pack
def supports() -> dict[str, str]:
    """Ledger entry id -> the numbered statement (or section) it serves."""
    out = {d.id: supports_at(d.line) for d in displays()}
    out.update({r.id: supports_at(r.line) for r in relations()})
    if current().statement_files:
        out.update({r.id: supports_at(r.line) for r in statement_relations()})
    if current().prose_files:
        out.update({r.id: supports_at(r.line) for r in prose_relations()})
    return out


@per_pack
def titles() -> dict[str, str]:
    """Statement -> the name it carries on its opening line (``Lemma 31`` -> ``Freedman's inequality``)."""
    lines = paper_text().split("\n")
    found: dict[str, list[str]] = {}
    for label, at in statements():
        rest = _OPENS.sub("", lines[at - 1], count=1)
        match = _TITLE.match(rest)
        if match and not _OTHER_WORK.search(match.group(1)):
            found.setdefault(match.group(1).strip(), []).append(label)
    # a proper name that can only mean one statement: "Freedman's inequality", carried by one
    # statement, no formula.  A descriptive title ("Even l", "Angular separation") is also
    # ordinary prose, so it cites nothing: the pack's [citations] adds such an edge by hand.
    return {labels[0]: title for title, labels in found.items()
            if len(labels) == 1 and "$" not in title and _PROPER_NAME.search(title)}


def named_in(body: str) -> set[str]:
    """The paper's own numbered statements ``body`` names (module docstring), canonical labels."""
    found = set()
    for match in _NAMED.finditer(body):
        if not _of_other_work(body, match.start()):
            found.add(canonical(f"{match.group(1)} {match.group(2)}"))
    for match in _SEVERAL.finditer(body):
        if _of_other_work(body, match.start()):
            continue
        kind, previous = match.group(1), int(match.group(2))
        for joint, number in _NEXT_NUMBER.findall(match.group(3)):
            number = int(number)
            span = range(previous + 1, number + 1) if joint in ("to", "through", "–", "-") else [number]
            found |= {canonical(f"{kind} {n}") for n in span if n - previous <= 50}
            previous = number
    found |= {label for label, title in titles().items() if re.search(rf"\b{re.escape(title)}\b", body)}
    return found


def _of_other_work(body: str, at: int) -> bool:
    """Whether the label at ``at`` sits in a citation of another work: the text since the
    parenthesis it is in names an author list or a year (``(Abbe et al., 2023, Proposition 6)``),
    or an author list stands right before it (``Abbe et al. (2023) Proposition 6``) or right after
    it (``Proposition 6 of Abbe et al.``)."""
    opened, closed = body.rfind("(", 0, at), body.rfind(")", 0, at)
    if opened > closed and body.rfind("\n", 0, at) < opened and _OTHER_WORK.search(body[opened + 1:at]):
        return True
    if _AUTHORS_BEFORE.search(body[max(0, at - 40):at]):
        return True
    return bool(_AUTHORS_AFTER.match(body, _NAMED.match(body, at).end()))


@per_pack
def cites() -> dict[str, frozenset[str]]:
    """Statement -> the numbered statements its proof (all of its proofs) names, with the pack's
    corrections (module docstring)."""
    text = paper_text()
    offsets = _line_offsets(text)
    out: dict[str, set[str]] = {}
    for first, last, proved in _proofs():
        if not proved:
            continue
        body = text[offsets[first - 1]:offsets[last - 1] if last - 1 < len(offsets) else len(text)]
        out.setdefault(proved, set()).update(named_in(body) - {proved})
    corrections = dict(current().citations)
    for citing, cited in corrections.get("remove", ()):
        out.get(citing, set()).discard(cited)
    for citing, cited in corrections.get("add", ()):
        out.setdefault(citing, set()).add(cited)
    return {label: frozenset(named) for label, named in out.items()}


def affected(statement: str) -> list[str]:
    """``statement`` and every numbered statement whose proof cites an affected one, in the order
    they are reached (breadth first): what a gap or a false statement puts in doubt."""
    if statement.startswith("§"):
        return [statement]
    order, frontier = [statement], [statement]
    citers = cites()
    while frontier:
        reached = sorted(s for s, named in citers.items() if set(frontier) & named and s not in order)
        order += reached
        frontier = reached
    return order
