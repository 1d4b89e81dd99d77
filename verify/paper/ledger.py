r"""The ledger: one entry per displayed equation of the paper, and one per inline relation of its
proofs, saying what decides it.

The ledger is data, read with :mod:`tomllib`, never executed: the TOML files of the current
pack's ``ledger.d/`` (:mod:`verify.paper.pack`; for the Dayı–Chen pack one per part of the
paper, in the paper's order, as its ``pack.toml`` lists them).  Each ``[[display]]`` entry holds

- ``id``: the display's id (:mod:`verify.paper.source`: section and ordinal);
- ``quote``: its LaTeX exactly as printed (checked against the vendored text);
- ``kind``: one of :data:`KINDS`;
- ``check``: the id of the ``verify check`` check that decides it, or
- ``claim``: the display as one relation of the claim language (``docs/claims.md``), with its
  quantifiers in ``for``, ``family``, ``activation``, ``seeds``, ``prob``, ``growth`` and ``lam``
  (the options of :func:`verify.claims.claim`); optionally a ``correction`` (a claim with the same
  quantifiers that the suite verifies where the printed one fails), ``loose`` (why an inequality
  that holds has more slack than moving one constant removes: checked by the perturbation test,
  which then asks that it hold with its small side scaled by 10), ``fails_as`` (what a fail
  means: ``step``, the default for a display, ``statement`` or ``as-printed``), ``boundary``
  (why a fail is only at a degenerate or excluded point: its impact is then ``boundary``) and
  ``printed`` (the display read literally, where ``claim`` encodes the intended reading and the
  two differ: both are run, and a printed side whose value differs from the intended one is a
  *typo*, :mod:`verify.checks.ledger_claims`) and ``scope`` (``proxy: …`` or ``part: …``: what
  the claim covers when it is less than the display, printed beside the verdict and counted
  apart in the coverage).  Each such entry is
  a check of ``verify check`` with the id ``display-<id>`` (:mod:`verify.checks.ledger_claims`);
- ``claims``: instead of ``claim``, a display of several relations (``A = B = C``, an ``align``):
  a list of relations under the same quantifiers, each decided on its own
  (:func:`verify.checks.ledger_claims.run_entry_claim`);
- ``reason``: why computation does not decide it (a definition, a citation, a restatement, prose);
- ``note`` (optional): what a future claim should state.

The inline relations of the proofs (:func:`verify.paper.source.relations`: a single-dollar span
inside a proof that states ``=``, ``≤``, ``<``, ``≠``, ``≍``, …) have files of their own
(``[ledger] relations`` of pack.toml), of ``[[relation]]`` entries with the same
fields: ``id`` is ``<section>-r<ordinal>``, ``quote`` the text between the single dollars, and an
entry's claim runs as the check ``relation-<id>``.  :func:`entries` gives the displays' entries,
then the relations', each with ``what`` (``display`` or ``relation``).

An entry with neither ``check``, ``claim`` nor ``reason`` is **missing**: a computable relation
the suite has not yet checked.  :func:`coverage` turns the ledger and a report's verdicts into the
per-part table of ``verify check --coverage``, displays and relations in rows of their own:
decided (holds, fails or consistent, with their basis), not decided (its check was inconclusive or
cited), not decidable (with the reason's kind), missing.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass

from verify.claims.latex_input import LatexClaimError, looks_like_latex, named_activation, read_claim
from verify.paper.macros import expand
from verify.paper.pack import PackError, current, per_pack, read_toml
from verify.paper.source import displays, prose_relations, relations, statement_relations

KINDS = ("definition", "identity", "inequality", "asymptotic", "probability", "cited", "restatement", "prose")
#: The kinds that state a relation computation can decide.
COMPUTABLE = ("identity", "inequality", "asymptotic", "probability")
DECIDED = ("holds", "fails", "consistent")


#: The fields of an entry's claim: the options of :func:`verify.claims.claim`, as TOML keys.
CLAIM_OPTIONS = ("for", "family", "activation", "seeds", "prob", "growth", "lam")
FIELDS = frozenset({"id", "quote", "kind", "check", "claim", "claims", "claim_from_quote", "reason", "note",
                    "correction", "correction_for", "fails_as", "loose", "boundary", "printed", "scope",
                    *CLAIM_OPTIONS})
#: The most relations one entry's ``claims`` may list.
MAX_RELATIONS = 20


#: The fields whose value is text (the claim's quantifiers may be lists).
TEXT_FIELDS = ("id", "quote", "kind", "check", "claim", "reason", "note", "correction", "fails_as", "loose",
               "boundary", "printed", "scope")


class LedgerError(PackError):
    """The ledger does not match the paper or the checks (names the entry and what is wrong)."""


@dataclass(frozen=True)
class ClaimSpec:
    """A ledger entry's claim: its text, the options of :func:`verify.claims.claim`, and an optional
    correction (same options) with what a fail means."""

    text: str
    options: tuple[tuple[str, object], ...]  # (TOML key, value), in CLAIM_OPTIONS order
    correction: str | None = None
    fails_as: str = "step"
    #: why the printed inequality has more slack than any one moved constant can take away (a
    #: claim that says so is excused from the perturbation test, which checks the slack instead)
    loose: str | None = None
    #: why a fail of this claim is only at a degenerate or excluded point (its impact is then
    #: ``boundary``, not computed from the correction)
    boundary: str | None = None
    #: the display read literally, where ``text`` is the intended reading (module docstring)
    printed: str | None = None
    #: what the claim covers when it is less than the display: "proxy: ..." (a finite-degree
    #: stand-in) or "part: ..." (one inequality of a chain, one point); printed beside the verdict
    #: and counted apart in the coverage
    scope: str | None = None
    #: a display of several relations (``A = B = C``, an ``align``): each relation in the claim
    #: language, decided one by one (``claims = [...]``); empty for a single ``claim``
    relations: tuple[str, ...] = ()
    #: the correction's own ``for`` where it narrows the claim's range (a relation printed for
    #: m in [−1, 1] that holds only on [0, 1]); None: the claim's quantifiers
    correction_for: tuple[str, ...] | None = None

    def keywords(self) -> dict:
        """The options as keyword arguments of :func:`verify.claims.claim` (``for`` is ``for_``)."""
        return {("for_" if key == "for" else key): value for key, value in self.options}

    def correction_keywords(self) -> dict:
        """The correction's options: the claim's, with ``for`` replaced by ``correction_for`` if given."""
        keywords = self.keywords()
        if self.correction_for is not None:
            keywords["for_"] = self.correction_for
        return keywords


@dataclass(frozen=True)
class Entry:
    id: str  # section-ordinal, as verify.paper.source numbers the displays
    section: str
    quote: str  # the LaTeX as printed
    kind: str  # one of KINDS
    #: the check that decides it, or the reason computation does not; neither: missing
    check: str | None = None
    reason: str | None = None
    note: str | None = None
    claim: ClaimSpec | None = None
    #: display ($$ block), relation (inline relation of a proof), statement (inline relation of a
    #: Theorem, Lemma, …, Remark) or prose (inline relation outside every proof and statement); the
    #: last two in packs that track them
    what: str = "display"

    @property
    def decided_by(self) -> str | None:
        """The id of the check whose verdict is this entry's: the named check, or the entry's own
        claim check (``display-<id>``)."""
        if self.check:
            return self.check
        return claim_check_id(self.id, self.what) if self.claim else None

    @property
    def status(self) -> str:
        """``check``, ``not decidable`` (a reason) or ``missing``."""
        return "check" if self.decided_by else ("not decidable" if self.reason else "missing")


def claim_check_id(entry_id: str, what: str = "display") -> str:
    """The ``verify check`` id of a ledger entry's own claim: ``display-<id>`` or ``relation-<id>``."""
    return f"{what}-{entry_id.lower()}"


#: What each claim option of a ledger entry may be: (check, words for the message).
_OPTION_TYPES = {
    "for": (lambda v: isinstance(v, str) or _strings(v), "text or a list of texts"),
    "family": (lambda v: isinstance(v, str) or _strings(v), "a family name or a list of them"),
    "activation": (lambda v: isinstance(v, str) or _strings(v), "an activation name or a list of them"),
    "seeds": (lambda v: isinstance(v, str) or (isinstance(v, int) and not isinstance(v, bool))
              or (isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in v)),
              "a range such as '0..3', an integer or a list of integers"),
    "prob": (lambda v: isinstance(v, str), "text such as '>= 0.9 over c'"),
    "growth": (lambda v: isinstance(v, str), "a variable name"),
    "lam": (lambda v: isinstance(v, str), "'1/k' or '1'"),
}


def _strings(value) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) for v in value)


def _option_type_ok(key: str, value) -> bool:
    return _OPTION_TYPES[key][0](value)


def _claim_spec(item: dict, where: str) -> ClaimSpec | None:
    if "claims" in item:
        relations = item["claims"]
        if "claim" in item:
            raise LedgerError(f"ledger entry {where}: claim and claims together (give one relation as "
                              "claim, or several as claims)")
        if not (_strings(relations) and all(r.strip() for r in relations)) or len(relations) > MAX_RELATIONS:
            raise LedgerError(f"ledger entry {where}: claims must be a list of 1 to {MAX_RELATIONS} "
                              "non-empty strings, one relation each")
        for key in ("correction", "printed"):
            if key in item:
                raise LedgerError(f"ledger entry {where}: {key} with claims (a correction or printed "
                                  "reading belongs to one relation: give that relation an entry of its own)")
        item = {**item, "claim": relations[0]}
        spec = _claim_spec({key: value for key, value in item.items() if key != "claims"}, where)
        return dataclasses.replace(spec, relations=tuple(relations))
    if "claim" not in item:
        extras = (*CLAIM_OPTIONS, "correction", "correction_for", "fails_as", "loose", "boundary", "printed",
                  "scope")
        stray = [key for key in extras if key in item]
        if stray:
            raise LedgerError(f"ledger entry {where}: {', '.join(stray)} without a claim")
        return None
    if not isinstance(item["claim"], str) or not item["claim"].strip():
        raise LedgerError(f"ledger entry {where}: claim must be a non-empty string")
    fails_as = item.get("fails_as", "step")
    if fails_as not in ("step", "statement", "as-printed"):
        raise LedgerError(f"ledger entry {where}: fails_as {fails_as!r} is not step, statement or as-printed")
    for key in CLAIM_OPTIONS:
        if key in item and not _option_type_ok(key, item[key]):
            raise LedgerError(f"ledger entry {where}: {key} must be {_OPTION_TYPES[key][1]}, got "
                              f"{type(item[key]).__name__} {item[key]!r}"[:200])
    # one quantifier may be given as a text: every reader of the options takes ``for`` as a list
    # (iterating a text went character by character, and the regime rerun of a failing claim crashed)
    options = tuple((key, [item[key]] if key == "for" and isinstance(item[key], str) else item[key])
                    for key in CLAIM_OPTIONS if key in item)
    for key in ("correction", "printed"):
        if key in item and (not isinstance(item[key], str) or not item[key].strip()):
            raise LedgerError(f"ledger entry {where}: {key} must be a non-empty string")
    if "printed" in item and "correction" in item:
        raise LedgerError(f"ledger entry {where}: printed and correction together (with printed, the claim "
                          "itself is the intended reading, so the correction)")
    correction_for = item.get("correction_for")
    if correction_for is not None:
        if "correction" not in item:
            raise LedgerError(f"ledger entry {where}: correction_for without a correction (it gives the "
                              "correction's own quantifiers)")
        if not _option_type_ok("for", correction_for):
            raise LedgerError(f"ledger entry {where}: correction_for must be {_OPTION_TYPES['for'][1]}, got "
                              f"{type(correction_for).__name__} {correction_for!r}"[:200])
        correction_for = (correction_for,) if isinstance(correction_for, str) else tuple(correction_for)
    scope = item.get("scope")
    if scope is not None and not re.match(r"^(proxy|part): \S", scope):
        raise LedgerError(f"ledger entry {where}: scope must start with 'proxy: ' or 'part: ' and say "
                          "what the "
                          f"claim covers, got {scope!r}"[:200])
    return ClaimSpec(item["claim"], options, item.get("correction"), fails_as, item.get("loose"),
                     item.get("boundary"), item.get("printed"), scope, correction_for=correction_for)


def _read_latex(item: dict, where: str) -> dict:
    """The entry with its claims in the claim language: ``claim_from_quote = true`` reads them
    from the quote (one relation as ``claim``, a chain or an align's lines as ``claims``), and a
    claim or printed reading written in LaTeX is read too; the pack's macros are
    expanded first (:mod:`verify.claims.latex_input`)."""
    from_quote = item.get("claim_from_quote", False)
    if not isinstance(from_quote, bool):
        raise LedgerError(f"ledger entry {where}: claim_from_quote must be true or false")
    if from_quote and ("claim" in item or "claims" in item):
        raise LedgerError(f"ledger entry {where}: claim_from_quote with a claim (give one: the quote's "
                          "reading, or your own claim)")
    macros = current().macros()

    item = dict(item)

    def read(text: str, single: bool = True) -> tuple[str, ...]:
        expanded = expand(text, macros) if macros else text
        try:
            reading = read_claim(expanded, single=single)
        except LatexClaimError as exc:
            raise LedgerError(f"ledger entry {where}: {exc}") from None
        if reading.quantifiers:  # the conditions written after the relation join the entry's for
            stated = item.get("for", [])
            item["for"] = [*([stated] if isinstance(stated, str) else stated), *reading.quantifiers]
        try:  # \mu_1(\tanh) names the entry's activation
            named = named_activation(reading.activations, item.get("activation"), text)
        except LatexClaimError as exc:
            raise LedgerError(f"ledger entry {where}: {exc}") from None
        if named is not None:
            item["activation"] = named
        return reading.relations

    if from_quote:
        found = read(item["quote"], single=False)
        item["claim" if len(found) == 1 else "claims"] = found[0] if len(found) == 1 else list(found)
    for key in ("claim", "printed"):  # a correction may be prose, which can hold LaTeX
        if isinstance(item.get(key), str) and looks_like_latex(item[key]):
            item[key] = read(item[key])[0]
    if isinstance(item.get("claims"), list):
        item["claims"] = [read(t)[0] if isinstance(t, str) and looks_like_latex(t) else t
                          for t in item["claims"]]
    item.pop("claim_from_quote", None)
    return item


def _read(names: tuple[str, ...], table: str) -> list[dict]:
    """The ``[[table]]`` items of the ledger files ``names``, in order (no other table allowed)."""
    raw = []
    for name in names:
        path = current().ledger_dir / name
        data = read_toml(path, "ledger file")
        stray = set(data) - {table}
        if stray:
            raise LedgerError(f"{path}: holds {', '.join(sorted(stray))}; only [[{table}]] entries")
        items = data.get(table, [])
        if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
            raise LedgerError(f"{path}: [[{table}]] must be an array of tables")
        raw += items
    return raw


def _validated(raw: list[dict], shown: tuple, what: str) -> list[Entry]:
    """The entries ``raw`` checked against the paper's ``shown`` displays or relations: one entry
    each, in order, quoting it verbatim; ``what`` is ``display`` or ``relation``."""
    if [e.get("id") for e in raw] != [d.id for d in shown]:
        missing = [d.id for d in shown if d.id not in {e.get("id") for e in raw}]
        raise LedgerError(f"the ledger must have one entry per {what}, in order; missing or misplaced: "
                          f"{', '.join(missing[:5]) or 'order differs'}")
    out = []
    for item, shown_item in zip(raw, shown, strict=True):
        where = shown_item.id
        unknown = set(item) - FIELDS
        if unknown:
            raise LedgerError(f"ledger entry {where}: unknown field(s) {', '.join(sorted(unknown))}")
        wrong = sorted(key for key in TEXT_FIELDS if key in item and not isinstance(item[key], str))
        if wrong:
            raise LedgerError(f"ledger entry {where}: {', '.join(wrong)} must be text")
        # shown_item was read from the text itself, so equal to it is quoted verbatim (searching the
        # whole text once per entry made `ledger status` quadratic: 20 000 displays took 6 s here)
        if item.get("quote") != shown_item.latex:
            raise LedgerError(f"ledger entry {where}: its quote is not the {what} as printed")
        if item.get("kind") not in KINDS:
            raise LedgerError(f"ledger entry {where}: kind {item.get('kind')!r} is not one of "
                              f"{', '.join(KINDS)}")
        if sum(1 for key in ("check", "claim", "reason") if item.get(key)) > 1:
            raise LedgerError(f"ledger entry {where}: give one of check, claim or reason")
        item = _read_latex(item, where)
        out.append(Entry(where, shown_item.section, item["quote"], item["kind"], item.get("check"),
                         item.get("reason"), item.get("note"), _claim_spec(item, where), what))
    return out


@per_pack
def entries() -> tuple[Entry, ...]:
    """The ledger, validated against the paper: the displays' entries (one per display, in order,
    quoted verbatim), then the inline relations' entries (one per relation of a proof, likewise),
    then those of the statements' relations and of the prose's, where the pack tracks them."""
    pack = current()
    stated = (_validated(_read(pack.statement_files, "statement"), statement_relations(), "statement")
              if pack.statement_files else [])
    prose = (_validated(_read(pack.prose_files, "prose"), prose_relations(), "prose")
             if pack.prose_files else [])
    return (*_validated(_read(pack.display_files, "display"), displays(), "display"),
            *_validated(_read(pack.relation_files, "relation"), relations(), "relation"), *stated, *prose)


def part(section: str) -> str:
    """The part of the paper a section belongs to: §1 … §4, or Appendix A … F."""
    head = section.split(".")[0]
    return f"App. {head}" if head.isalpha() else f"§{head}"


#: Verdicts of :func:`verify.checks.ledger_rows.entry_verdicts` for a *holds* that says less than
#: the display: its claim declares a partial scope, or it holds for any values once its bindings
#: are substituted (a restatement).  Counted apart, never as decided.
APART = ("holds (partial)", "holds (restatement)")


def _tally(row: dict, entry: Entry, verdicts: dict[str, tuple[str, str | None]]) -> None:
    row["count"] += 1
    if entry.decided_by:
        verdict, basis = verdicts.get(entry.id, ("not run", None))
        if verdict in DECIDED:
            row["decided"][basis or "none"] += 1
        elif verdict in APART:
            row["apart"][verdict.removeprefix("holds (").removesuffix(")")] += 1
        else:
            row["undecided"] += 1
    elif entry.reason and entry.kind in COMPUTABLE:
        # a computable relation given a reason still counts in the denominator (issue #49)
        row["reasoned"][entry.kind] += 1
    elif entry.reason:
        row["not_decidable"][entry.kind] += 1
    else:
        row["missing"] += 1


#: The coverage table's name for each kind of entry (:attr:`Entry.what`), in the table's order.
ROWS = {"display": "displays", "relation": "relations", "statement": "statements", "prose": "prose"}


def coverage(verdicts: dict[str, tuple[str, str | None]]) -> list[dict]:
    """Per part of the paper and kind of entry (``what``: ``displays`` or ``relations``): how many
    entries (``count``), and how many are decided (by basis), not decided, not decidable (by kind)
    and missing, given ``verdicts`` (entry id -> (verdict, basis): each entry's own verdict, from
    report.json's ``ledger`` rows, :mod:`verify.checks.ledger_rows`).  Rows come in the paper's
    order, a part's displays before its relations; a part without relations has no relations row."""
    rows: dict[tuple[str, str], dict] = {}
    # the paper's order of parts: where each first appears, displays before relations (a part may
    # hold relations of proofs and no display)
    parts = list(dict.fromkeys([*(part(e.section) for e in entries() if e.what == "display"),
                                *(part(e.section) for e in entries())]))
    order = list(ROWS)
    ordered = sorted(entries(), key=lambda e: (parts.index(part(e.section)), order.index(e.what)))
    for entry in ordered:
        key = (part(entry.section), ROWS[entry.what])
        row = rows.setdefault(key, {"part": key[0], "what": key[1], "count": 0, "decided": Counter(),
                                    "apart": Counter(), "undecided": 0, "reasoned": Counter(),
                                    "not_decidable": Counter(), "missing": 0})
        _tally(row, entry, verdicts)
    return list(rows.values())


def _counts(counter: Counter) -> str:
    return f"{sum(counter.values())}" + (f" ({', '.join(f'{k} {v}' for k, v in sorted(counter.items()))})"
                                          if counter else "")


def _line(part_name: str, what: str, rows: list[dict]) -> str:
    count = sum(r["count"] for r in rows)
    decided: Counter = sum((r["decided"] for r in rows), Counter())
    apart: Counter = sum((r["apart"] for r in rows), Counter())
    reasoned: Counter = sum((r["reasoned"] for r in rows), Counter())
    not_decidable: Counter = sum((r["not_decidable"] for r in rows), Counter())
    return (f"| {part_name} | {what} | {count} | {_counts(decided)} | {_counts(apart)} | "
            f"{sum(r['undecided'] for r in rows)} | {_counts(reasoned)} | {_counts(not_decidable)} | "
            f"{sum(r['missing'] for r in rows)} |")


def coverage_table(verdicts: dict[str, tuple[str, str | None]]) -> str:
    """The coverage as a Markdown table: a row per part and kind of entry (displays, the inline
    relations of the proofs), then the totals of each kind and of both."""
    rows = coverage(verdicts)
    lines = ["| part | entries | count | decided (basis) | holds, less than the display | not decided | "
             "computable, given a reason (kind) | not decidable (kind) | missing |",
             "|---|---|---|---|---|---|---|---|---|"]
    lines += [_line(row["part"], row["what"], [row]) for row in rows]
    for what in ROWS.values():
        if what in ("displays", "relations") or any(r["what"] == what for r in rows):
            lines.append(_line("**all**", what, [r for r in rows if r["what"] == what]))
    lines.append(_line("**all**", "every kind", rows))
    return "\n".join(lines) + "\n"


def _decided_share(rows: list[dict]) -> tuple[int, int]:
    """(decided, computable) over the rows of :func:`coverage`: of the entries that state a
    computable relation (a check or a claim decides them, or they are missing), how many the run
    decided (holds, fails or consistent)."""
    decided = sum(sum(r["decided"].values()) for r in rows)
    others = sum(r["undecided"] + r["missing"] + sum(r["apart"].values()) + sum(r["reasoned"].values())
                 for r in rows)
    return decided, decided + others


def proved_share(verdicts: dict[str, tuple[str, str | None]]) -> tuple[int, int]:
    """(proved, computable): of the computable entries, how many end *holds* or *fails* (a proof or
    a counterexample), not counting *consistent* (evidence that proves nothing)."""
    _, computable = _decided_share(coverage(verdicts))
    ids = {e.id for e in entries() if e.decided_by}
    return sum(1 for key, (verdict, _) in verdicts.items() if key in ids and verdict in ("holds", "fails")), \
        computable


def coverage_summary(verdicts: dict[str, tuple[str, str | None]]) -> str:
    """The README's short form: the total rows of :func:`coverage_table` and the decided share."""
    rows = coverage(verdicts)
    decided, computable = _decided_share(rows)
    lines = ["| entries | count | decided (basis) | holds, less than the display | not decided | "
             "computable, given a reason (kind) | not decidable (kind) | missing |",
             "|---|---|---|---|---|---|---|---|"]
    kinds = [what for what in ROWS.values()
             if what in ("displays", "relations") or any(r["what"] == what for r in rows)]
    chosen_rows = [*((what, [r for r in rows if r["what"] == what]) for what in kinds), ("every kind", rows)]
    for what, chosen in chosen_rows:
        lines.append(_line("", what, chosen).removeprefix("|  "))
    proved, _ = proved_share(verdicts)

    def share(n: int) -> str:
        return f"{100 * n / computable:.0f} %" if computable else "—"

    return (f"Of the {computable} entries that state a computable relation (a relation given a reason "
            f"instead of a check counts too), {proved} ({share(proved)}) "
            f"are proved or refuted (holds or fails, each from its own evidence) and {decided} "
            f"({share(decided)}) are decided counting *consistent* too; a *holds* on a proxy, a part of "
            f"the display or a restatement is counted apart.\n\n" + "\n".join(lines) + "\n")
