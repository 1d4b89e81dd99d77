"""The checks of a paper pack (:mod:`verify.paper.pack`): what ``verify check --paper DIR`` runs.

- every ledger entry with a claim is the check ``display-<id>`` or ``relation-<id>``
  (:func:`verify.checks.ledger_claims.claim_check`), its claim and correction parsed first, so a
  claim that does not parse is a one-line error naming the entry, before anything runs;
- an entry that names a coded check (``check = "lemma-31"``) runs that check of the suite's
  registry (``verify check --list``); an unknown id is a one-line error naming the entry;
- each object of the pack's definitions file is the check ``definitions-<name>``;
- a pack that says ``coded_checks = "all"`` (the Dayı–Chen pack) runs the whole registry too.

The registry itself is loaded for the built-in pack whatever pack is current, so that another
pack's claims never enter it.
"""

from __future__ import annotations

from verify.checks.core import Check, check_id, close_ids
from verify.paper.ledger import LedgerError, entries
from verify.paper.pack import BUILTIN, Pack, load, using


def _registry() -> dict[str, Check]:
    # lazy: loading the registry imports every check module, which registers the current pack's
    # ledger claims; it must happen here, under the built-in pack, never when this module loads
    from verify.checks import load_all

    with using(load(BUILTIN)):
        return load_all()


def _parsed(entry) -> None:
    """Parse the entry's claim and correction with its quantifiers, or a one-line error naming it."""
    # lazy: the claim engine (SymPy) loads only when a pack is checked
    from verify.base.errors import VerifyInputError
    from verify.claims.spec import build_spec

    spec = entry.claim
    relations = [(f"relation {i} of its claims", text) for i, text in enumerate(spec.relations, 1)]
    for what, text in relations or [("claim", spec.text), ("correction", spec.correction)]:
        if text is None:
            continue
        try:
            build_spec(text, **(spec.correction_keywords() if what == "correction" else spec.keywords()))
        except VerifyInputError as exc:
            raise LedgerError(f"ledger entry {entry.id}: its {what} {text!r} is not a claim: {exc}") from None
        except TypeError as exc:  # a quantifier of the wrong type (a number where a list is meant)
            raise LedgerError(f"ledger entry {entry.id}: its quantifiers are not options of a claim: {exc}") \
                from None


def entry_problems(pack: Pack) -> list[str]:
    """Every problem of the pack's entries, one line each, naming the entry (its claim or correction
    that does not parse, a check id the registry lacks), before any check runs: a new user fixing a
    ledger sees them all at once, not one per run of ``verify check``."""
    registry = _registry()
    problems = []
    with using(pack):
        for entry in entries():
            try:
                if entry.claim is not None:
                    _parsed(entry)
                elif entry.check and check_id(entry.check) not in registry:
                    raise LedgerError(f"ledger entry {entry.id}: check {entry.check!r} is not a check of "
                                      "`verify check --list`" + close_ids(entry.check, registry))
            except LedgerError as exc:
                problems.append(str(exc))
    return problems


def pack_checks(pack: Pack) -> list[Check]:
    """The checks ``verify check --paper`` runs for ``pack`` (module docstring), in ledger order;
    :class:`LedgerError` listing every problem of its entries (:func:`entry_problems`) if any."""
    registry = _registry()
    if pack.builtin:
        return list(registry.values())
    problems = entry_problems(pack)
    if problems:
        more = f" (and {len(problems) - 1} more: `verify ledger status {pack.given or pack.root}` lists them)"
        raise LedgerError(problems[0] + (more if len(problems) > 1 else ""))
    # lazy: these modules register the built-in pack's checks when they load (_registry above)
    from verify.checks.definitions import definitions_check
    from verify.checks.ledger_claims import claim_check
    from verify.paper.definitions import objects

    out: dict[str, Check] = {}
    with using(pack):
        for entry in entries():
            if entry.claim is not None:
                check = claim_check(entry)
                out[check.id] = check
            elif entry.check:
                key = check_id(entry.check)
                out[key] = registry[key]
        for obj in objects():
            check = definitions_check(obj)
            out[check.id] = check
    if pack.all_coded_checks:
        out = {**registry, **out}
    return list(out.values())
