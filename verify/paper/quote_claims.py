r"""Which quotes of a pack read as claims (``verify ledger quotes DIR``, issue #53).

Each entry's quote, with the pack's macros expanded, goes through the LaTeX reader
(:func:`verify.claims.latex_input.read_claim`) and the claim language's whitelist parser.  A quote
that reads can take ``claim_from_quote = true`` in place of a typed claim; where the entry has a
claim already, the reading is compared with it (the same relation, or the same with its sides
swapped, by exact simplification of the difference under the symbolic budget), so that the
report says whether the quote states what the entry checks.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from verify.base.budget import guarded_if_forced
from verify.base.errors import VerifyInputError
from verify.claims.language import MIRROR
from verify.claims.latex_input import LatexClaimError, read_claim
from verify.claims.spec import build_spec
from verify.paper.ledger import Entry, entries
from verify.paper.macros import expand
from verify.paper.pack import current


@dataclass(frozen=True)
class QuoteReading:
    entry: str
    #: read (and the claim language parses it), or refused
    outcome: str
    #: the relations read, or the refusal
    detail: str
    #: for an entry with a claim: "same" or "differs"; None otherwise
    versus_claim: str | None = None


def _same_relation(reading: str, quantifiers: tuple[str, ...], entry: Entry) -> bool:
    spec = entry.claim
    options = spec.keywords()
    stated = tuple(options.pop("for_", ()) or ())
    stated = (stated,) if isinstance(stated, str) else stated
    named = {q.split()[0] for q in quantifiers}
    read = build_spec(
        reading, for_=(*[q for q in stated if q.split()[0] not in named], *quantifiers), **options
    )
    meant = build_spec(spec.text, **spec.keywords())
    a, b = read.claim, meant.claim
    if a.op == b.op:
        difference = (a.lhs - a.rhs) - (b.lhs - b.rhs)
    elif a.op == MIRROR[b.op]:
        difference = (a.lhs - a.rhs) + (b.lhs - b.rhs)
    else:
        return False
    # lazy: SymPy's simplify, only for the quotes that read
    import sympy

    return guarded_if_forced("compare a quote with its claim", sympy.simplify, difference) == 0


def reading_of(entry: Entry, macros: dict) -> QuoteReading:
    """How the quote of ``entry`` reads as a claim."""
    quote = expand(entry.quote, macros) if macros else entry.quote
    try:
        reading = read_claim(quote)
        for relation in reading.relations:
            # every free name declared, so that only the syntax is judged here
            build_spec(relation, latex=False, for_=())
    except LatexClaimError as exc:
        return QuoteReading(entry.id, "refused", str(exc).split(": ", 1)[-1])
    except VerifyInputError as exc:
        message = str(exc)
        if "unknown name" not in message and "has no value" not in message and "needs" not in message:
            return QuoteReading(entry.id, "refused", message)
    shown = " ; ".join(reading.relations) + (
        f"  (for {', '.join(reading.quantifiers)})" if reading.quantifiers else ""
    )
    versus = None
    if entry.claim is not None and len(reading.relations) == 1:
        try:
            versus = "same" if _same_relation(reading.relations[0], reading.quantifiers, entry) else "differs"
        except VerifyInputError:
            versus = "differs"
    return QuoteReading(entry.id, "read", shown, versus)


def quote_readings() -> list[QuoteReading]:
    """The reading of every entry's quote in the current pack, in ledger order."""
    macros = current().macros()
    return [reading_of(entry, macros) for entry in entries()]


def summary(readings: list[QuoteReading]) -> str:
    """One paragraph: how many quotes read, how many match their entry's claim, the commonest refusals."""
    read = [r for r in readings if r.outcome == "read"]
    versus = Counter(r.versus_claim for r in read if r.versus_claim)
    reasons = Counter(r.detail.split(";")[0][:70] for r in readings if r.outcome == "refused")
    lines = [
        f"{len(read)} of {len(readings)} quotes read as claims: {versus['same']} the same relation as "
        f"their entry's claim, {versus['differs']} another form of it (a renamed variable, a squared side, a "
        f"quantity spelt out), {len(read) - sum(versus.values())} of entries without a claim or with several "
        "relations."
    ]
    if reasons:
        lines.append(
            "Commonest refusals: "
            + "; ".join(f"{reason} ({count})" for reason, count in reasons.most_common(5))
            + "."
        )
    return "\n".join(lines)
