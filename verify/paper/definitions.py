r"""Objects the paper defines more than once, linked across the ledger.

The paper writes some objects twice or more: h in Proposition 4 and again in App. D.1, the
population gradient in §3.1 and in D.1/D.2, the loss in §2 and in D.1.  ``ledger.d/definitions.toml``
(data, read with :mod:`tomllib`) links the ledger entries that define the same object:

.. code-block:: toml

    [[object]]
    name = 'h'                      # a short name: the check is definitions-h
    reference = 'h(m)'              # the suite's own value of the object (claim language)
    for = ['k in 1..3', 'm in [-1, 1]']
    activation = ['relu', 'tanh']   # and family, seeds, lam: the options of verify claim

    [[object.definition]]
    entry = '3.1-3'                 # a ledger entry (display id)
    printed = '...'                 # that display's formula for the object, in the claim language
    note = '...'                    # optional: how the display was read into the claim language

An object may carry a ``note`` too (why these quantifiers, what the comparison shows), and
``fails_as = 'as-printed'`` where a disagreement is a misprint whose intended reading is plain.

:mod:`verify.checks.definitions` turns each object into the check ``definitions-<name>``, which
compares consecutive definitions with each other and each with the reference.
"""

from __future__ import annotations

from dataclasses import dataclass

from verify.paper.ledger import LedgerError, entries
from verify.paper.pack import current, per_pack, read_toml

#: Options of :func:`verify.claims.claim` an object may set, as TOML keys.
OPTIONS = ("for", "family", "activation", "seeds", "lam")


@dataclass(frozen=True)
class Definition:
    entry: str  # the ledger entry (display id) that prints it
    printed: str  # its formula, in the claim language
    note: str = ""  # how the display was read (optional)


@dataclass(frozen=True)
class DefinedObject:
    name: str
    reference: str  # the suite's value of the object, in the claim language
    options: tuple[tuple[str, object], ...]  # (TOML key, value)
    definitions: tuple[Definition, ...]
    note: str = ""  # why these quantifiers, what the comparison shows (optional)
    #: what a disagreement means: step (the default) or as-printed (the intended reading is plain)
    fails_as: str = "step"

    def keywords(self) -> dict:
        """The options as keyword arguments of :func:`verify.claims.claim`."""
        return {("for_" if key == "for" else key): value for key, value in self.options}


def _definition(item: dict, where: str, known: set[str]) -> Definition:
    if not {"entry", "printed"} <= set(item) <= {"entry", "printed", "note"}:
        raise LedgerError(f"{where}: a definition has the fields entry and printed (and optionally note)")
    if item["entry"] not in known:
        raise LedgerError(f"{where}: entry {item['entry']!r} is not a ledger entry")
    return Definition(item["entry"], item["printed"], item.get("note", ""))


@per_pack
def objects() -> tuple[DefinedObject, ...]:
    """Every object the current pack defines twice or more (its ``[ledger] definitions`` file),
    validated against the ledger; none where the pack names no such file."""
    name = current().definitions_file
    if name is None:
        return ()
    definitions = current().ledger_dir / name
    data = read_toml(definitions, "definitions file")
    known = {e.id for e in entries()}
    out = []
    for i, item in enumerate(data.get("object", [])):
        where = f"{definitions.name}, object {item.get('name', i)!r}"
        unknown = set(item) - {"name", "reference", "definition", "note", "fails_as", *OPTIONS}
        if unknown or not {"name", "reference", "definition"} <= set(item):
            raise LedgerError(f"{where}: needs name, reference and definitions; unknown: "
                              f"{', '.join(sorted(unknown)) or 'none'}")
        defs = tuple(_definition(d, where, known) for d in item["definition"])
        if len(defs) < 2:
            raise LedgerError(f"{where}: an object defined once links nothing")
        options = tuple((key, item[key]) for key in OPTIONS if key in item)
        fails_as = item.get("fails_as", "step")
        if fails_as not in ("step", "as-printed"):
            raise LedgerError(f"{where}: fails_as {fails_as!r} is not step or as-printed")
        out.append(DefinedObject(item["name"], item["reference"], options, defs, item.get("note", ""),
                                 fails_as))
    if len({o.name for o in out}) != len(out):
        raise LedgerError(f"{definitions.name}: two objects share a name")
    return tuple(out)


def linked(entry_id: str) -> list[str]:
    """The names of the objects the ledger entry ``entry_id`` defines (its links)."""
    return [o.name for o in objects() if any(d.entry == entry_id for d in o.definitions)]
