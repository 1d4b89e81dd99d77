"""Which paper, which version, and where each statement sits in it.

The suite checks the COLT 2025 text (:mod:`verify.paper.source`); its statements are numbered
in one sequence across kinds (Assumption 1, Theorem 1, …, Proposition 4, …, Lemma 31).  The
arXiv version 2411.15385v1 ("Gradient dynamics for low-rank fine-tuning beyond kernels")
numbers each kind separately (Theorem 1–9, Lemma 1–9, …), so the same result carries other
numbers there.  ``arxiv_numbers.toml`` beside this module records, per COLT label, the arXiv v1
label, as data with the words that matched (tests check each label against both texts).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from verify.paper.source import SOURCE, SOURCE_SHA256

NUMBERS = Path(__file__).with_name("arxiv_numbers.toml")

#: The paper every report is about (printed at the top of report.md and in report.json).
PAPER = {
    "title": "Low-rank fine-tuning lies between lazy training and feature learning",
    "authors": "Arif Kerem Dayı, Sitan Chen",
    "venue": "Proceedings of the Thirty Eighth Conference on Learning Theory (COLT 2025), "
    "PMLR 291:1415–1471",
    "text": f"verify/paper/{SOURCE.name} (sha256 {SOURCE_SHA256[:16]}…), the COLT version with its "
    "formulas in LaTeX: every statement number in the reports is this text's",
    "arxiv_id": "2411.15385",
    "arxiv_version": "v1",
    "arxiv_title": "Gradient dynamics for low-rank fine-tuning beyond kernels",
    "arxiv_note": "an earlier version of the same work; its statements are numbered per kind, so the "
    "reports give its number beside the COLT one where they differ",
}

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


@cache
def arxiv_numbers() -> dict[str, ArxivNumber]:
    """COLT label -> :class:`ArxivNumber`, from ``arxiv_numbers.toml``."""
    with NUMBERS.open("rb") as f:
        data = tomllib.load(f)
    out = {}
    for entry in data.get("statement", []):
        number = ArxivNumber(
            str(entry["colt"]),
            str(entry.get("colt_section", "")),
            str(entry.get("arxiv", "unsure")),
            str(entry.get("arxiv_section", "")),
            str(entry.get("evidence", "")),
        )
        if number.colt in out:
            raise ValueError(f"{NUMBERS.name}: {number.colt!r} is listed twice")
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
