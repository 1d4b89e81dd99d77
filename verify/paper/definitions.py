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

import re
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


#: An object's name: it becomes part of a check id, an anchor and a heading of the report.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,60}")


def _text_fields(item: dict, where: str, names: tuple[str, ...]) -> None:
    """Refuse (one line naming the field) any of ``names`` in ``item`` that is not text."""
    for name in names:
        if name in item and not isinstance(item[name], str):
            raise LedgerError(f"{where}: field {name!r} must be text, not {type(item[name]).__name__}")


def _definition(item: object, where: str, known: set[str]) -> Definition:
    if not isinstance(item, dict) or not {"entry", "printed"} <= set(item) <= {"entry", "printed", "note"}:
        raise LedgerError(f"{where}: a definition has the fields entry and printed (and optionally note)")
    _text_fields(item, where, ("entry", "printed", "note"))
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
    objects_table = data.get("object", [])
    if not isinstance(objects_table, list) or not all(isinstance(item, dict) for item in objects_table):
        raise LedgerError(f"{definitions.name}: 'object' must be an array of tables ([[object]])")
    for i, item in enumerate(objects_table):
        name = item.get("name")
        where = f"{definitions.name}, object {name if isinstance(name, str) else i!r}"
        _text_fields(item, where, ("name", "reference", "note", "fails_as"))
        if name is not None and not _NAME.fullmatch(name):
            raise LedgerError(f"{where}: name {name!r} must be letters, digits, '_', '.' or '-' "
                              "(it becomes a check id and an anchor)")
        unknown = set(item) - {"name", "reference", "definition", "note", "fails_as", *OPTIONS}
        if unknown or not {"name", "reference", "definition"} <= set(item):
            raise LedgerError(f"{where}: needs name, reference and definitions; unknown: "
                              f"{', '.join(sorted(unknown)) or 'none'}")
        if not isinstance(item["definition"], list):
            raise LedgerError(f"{where}: 'definition' must be an array of tables ([[object.definition]])")
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
