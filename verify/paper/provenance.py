"""Which paper, which version, and where each statement sits in it: the current pack's
provenance (:mod:`verify.paper.pack`).

For the built-in pack: the suite checks the COLT 2025 text (:mod:`verify.paper.source`); its
statements are numbered in one sequence across kinds (Assumption 1, Theorem 1, …, Proposition 4,
…, Lemma 31).  The arXiv version 2411.15385v1 ("Gradient dynamics for low-rank fine-tuning beyond
kernels") numbers each kind separately (Theorem 1–9, Lemma 1–9, …), so the same result carries
other numbers there.  The pack's ``[numbering]`` file (``arxiv_numbers.toml``) records, per COLT
label, the arXiv v1 label, as data with the words that matched (tests check each label against
both texts).  A pack without ``[numbering]`` has no other numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from verify.paper.pack import PackError, current, per_pack, read_toml


def paper() -> dict[str, str]:
    """The paper every report is about (printed at the top of report.md and in report.json): the
    current pack's ``[paper]`` and ``[numbering]``, and its text with its SHA-256."""
    pack = current()
    text = f"{pack.name} (sha256 {pack.sha256[:16]}…)"
    if pack.field("note"):
        text += f", {pack.field('note')}"
    out = {"title": pack.field("title", "(untitled)"), "authors": pack.field("authors", "(no authors given)"),
           "venue": pack.field("venue", "(no venue given)"), "text": text}
    if pack.source:
        out["source"] = f"{pack.source} (sha256 {(pack.source_sha256 or '')[:16]}…)"
    if pack.numbering:
        out.update({"arxiv_id": pack.number_field("id"), "arxiv_version": pack.number_field("version"),
                    "arxiv_title": pack.number_field("title"), "arxiv_note": pack.number_field("note")})
    return out

#: A statement label's number: "Proposition 4 (gradient)" -> "Proposition 4".
_KINDS = "Assumption|Theorem|Proposition|Lemma|Claim|Corollary|Remark|Definition|Fact|Condition|Example"
_LABEL = re.compile(rf"^({_KINDS}) (\d+)")
#: An equation label: "Eq. (12)", "Eqs. (7)–(9)".
_EQUATION = re.compile(r"^Eqs?\. \(\d+\)(?:–\(\d+\))?")


@dataclass(frozen=True)
class ArxivNumber:
    """One COLT statement's counterpart in arXiv v1: its label (or "none"/"unsure"), its section,
    and the words that matched."""

    colt: str
    colt_section: str
    arxiv: str
    arxiv_section: str
    evidence: str


@per_pack
def arxiv_numbers() -> dict[str, ArxivNumber]:
    """COLT label -> :class:`ArxivNumber`, from the current pack's ``[numbering]`` file (empty
    where it has none)."""
    name = current().number_field("file")
    if not name:
        return {}
    path = current().root / name
    data = read_toml(path, "numbering file")
    entries = data.get("statement", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise PackError(f"{path.name}: [[statement]] must be an array of tables")
    out = {}
    for index, entry in enumerate(entries):
        fields = ("colt", "colt_section", "arxiv", "arxiv_section", "evidence")
        wrong = [key for key in fields if key in entry and not isinstance(entry[key], str)]
        if "colt" not in entry or wrong:
            raise PackError(f"{path.name}, statement {index + 1}: needs colt, and {', '.join(fields)} must "
                            f"be text{f' (not: {wrong[0]})' if wrong else ''}")
        number = ArxivNumber(
            str(entry["colt"]),
            str(entry.get("colt_section", "")),
            str(entry.get("arxiv", "unsure")),
            str(entry.get("arxiv_section", "")),
            str(entry.get("evidence", "")),
        )
        if number.colt in out:
            raise PackError(f"{path.name}: {number.colt!r} is listed twice")
        out[number.colt] = number
    return out


def colt_label(statement: str) -> str | None:
    """The numbered statement or equation a check's label names ("Lemma 31 (tail)" -> "Lemma
    31", "Eq. (6) (and …)" -> "Eq. (6)"), or None for a display or a section."""
    match = _LABEL.match(statement)
    if match is not None:
        return f"{match.group(1)} {match.group(2)}"
    equation = _EQUATION.match(statement)
    return None if equation is None else equation.group(0)


def arxiv_label(statement: str) -> str | None:
    """The arXiv v1 label of a check's statement where it differs from the COLT one (None where
    they agree, where the statement is not numbered, or where no counterpart is recorded);
    "none in v1" where v1 has no such statement, "unsure" where the match is not clear."""
    label = colt_label(statement)
    if label is None:
        return None
    number = arxiv_numbers().get(label)
    if number is None:
        return None
    if number.arxiv == "none":
        return "none in v1"
    return None if number.arxiv == label else number.arxiv
