"""The checks of a paper pack (:mod:`verify.paper.pack`): what ``verify check [--paper DIR]`` runs.

- a built-in pack's coded checks: the Python package its pack.toml names (``coded_checks =
  "checks"``, :attr:`~verify.paper.pack.Pack.code_package`), whose modules register them with
  :func:`verify.checks.core.check`; :func:`code_modules` is the one place that imports it, by
  that name, and only for a built-in pack (a pack directory is data: nothing in it is imported);
- every ledger entry with a claim is the check ``display-<id>`` or ``relation-<id>``
  (:func:`verify.checks.ledger_claims.claim_check`), its claim and correction parsed first, so a
  claim that does not parse is a one-line error naming the entry, before anything runs;
- an entry that names a coded check (``check = "lemma-31"``) runs that check of the suite's
  registry (``verify check --list``); an unknown id is a one-line error naming the entry;
- each object of the pack's definitions file is the check ``definitions-<name>``.

Each check declares its pack (:attr:`~verify.checks.core.Check.pack`), and a pack's checks are
the registry's checks that declare it.  The registry is loaded for the built-in pack whatever pack
is current, so that another pack's claims never enter it.
"""

from __future__ import annotations

import functools
import importlib

from verify.checks.core import REGISTRY, Check, check_id, close_ids
from verify.paper.ledger import LedgerError, entries
from verify.paper.pack import BUILTIN, Pack, load, using


def code_modules(pack: Pack) -> list[str]:
    """The full names of the modules of ``pack``'s coded checks, in the pack's order (the
    ``SECTIONS`` of the package its pack.toml names), each imported, which registers its checks;
    none for a pack that carries no code (every pack not built in: nothing of its directory is
    imported).  The one place the engine imports a pack's code."""
    package = pack.code_package
    if package is None:
        return []
    modules = [f"{package}.{name}" for name in importlib.import_module(package).SECTIONS]
    for module in modules:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
    return modules


def coded_checks(pack: Pack) -> dict[str, Check]:
    """The coded checks of ``pack``, by id, in its order: the registry's checks that declare the
    pack (:attr:`Check.pack`) once its modules are imported (:func:`code_modules`), by those modules'
    order and then as each module defines them (the order does not depend on which module imported
    which first).  None for a pack that carries no code."""
    rank = {module: i for i, module in enumerate(code_modules(pack))}
    if not rank:
        return {}
    generated = ledger_checks(pack)
    own = [c for c in REGISTRY.values() if c.pack == pack.key and generated.get(c.id) is not c]
    return {c.id: c for c in sorted(own, key=lambda c: rank.get(c.function.__module__, len(rank)))}


def _data_checks(pack: Pack, named: dict[str, Check] | None = None) -> dict[str, Check]:
    """The checks ``pack``'s data makes, by id, in ledger order: each entry's claim check (and, with
    ``named``, the check of ``named`` an entry names by its id), then each definitions check."""
    # lazy: these modules load the claim engine (SymPy), needed only when checks are made
    from verify.checks.definitions import definitions_check
    from verify.checks.ledger_claims import claim_check
    from verify.paper.definitions import objects

    out: dict[str, Check] = {}
    with using(pack):
        for entry in entries():
            if entry.claim is not None:
                check = claim_check(entry)
                out[check.id] = check
            elif entry.check and named is not None:
                key = check_id(entry.check)
                out[key] = named[key]
        for obj in objects():
            check = definitions_check(obj)
            out[check.id] = check
    return out


@functools.cache
def ledger_checks(pack: Pack) -> dict[str, Check]:
    """The checks made from ``pack``'s ledger claims and definitions (:func:`_data_checks`), each
    made once, so a check of the registry is the same object every time it is asked for."""
    return _data_checks(pack)


def builtin_registry() -> dict[str, Check]:
    """:data:`~verify.checks.core.REGISTRY`, holding every check of the built-in pack in its order:
    its coded checks (:func:`coded_checks`), then its ledger claims and definitions (a coded check
    keeps its id), then any other registered check (one that declares another pack)."""
    builtin = load(BUILTIN)
    with using(builtin):
        ordered = coded_checks(builtin)
        for key, check in ledger_checks(builtin).items():
            ordered.setdefault(key, check)
    rest = {key: check for key, check in REGISTRY.items() if key not in ordered}
    REGISTRY.clear()
    REGISTRY.update(ordered)
    REGISTRY.update(rest)
    return REGISTRY


def _parsed(entry) -> None:
    """Parse the entry's claim and correction with its quantifiers, or a one-line error naming it."""
    # lazy: the claim engine (SymPy) loads only when a pack is checked
    from verify.base.errors import VerifyInputError
    from verify.claims.spec import build_spec, relation_keywords

    spec = entry.claim
    relations = [(f"relation {i} of its claims", text) for i, text in enumerate(spec.relations, 1)]
    for what, text in relations or [("claim", spec.text), ("correction", spec.correction)]:
        if text is None:
            continue
        try:
            keywords = spec.correction_keywords() if what == "correction" else spec.keywords()
            build_spec(text, **(relation_keywords(text, keywords) if relations else keywords))
        except VerifyInputError as exc:
            raise LedgerError(f"ledger entry {entry.id}: its {what} {text!r} is not a claim: {exc}") from None
        except TypeError as exc:  # a quantifier of the wrong type (a number where a list is meant)
            raise LedgerError(f"ledger entry {entry.id}: its quantifiers are not options of a claim: {exc}") \
                from None


def entry_problems(pack: Pack) -> list[str]:
    """Every problem of the pack's entries, one line each, naming the entry (its claim or correction
    that does not parse, a check id the registry lacks), before any check runs: a new user fixing a
    ledger sees them all at once, not one per run of ``verify check``."""
    registry = builtin_registry()
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
    registry = builtin_registry()
    if pack.builtin:
        return [check for check in registry.values() if check.pack == pack.key]
    problems = entry_problems(pack)
    if problems:
        more = f" (and {len(problems) - 1} more: `verify ledger status {pack.given or pack.root}` lists them)"
        raise LedgerError(problems[0] + (more if len(problems) > 1 else ""))
    return list(_data_checks(pack, registry).values())
