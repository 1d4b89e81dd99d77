r"""Perturbed copies of a ledger claim: the suite's power to see a changed constant or exponent.

A ledger claim states a display's formula.  If the suite still says *holds* when a constant or an
exponent of that formula is changed, the claim did not read the formula, only its shape.
:func:`mutants` makes the perturbed texts: each numeric literal of the claim (a constant, an
exponent, an index such as the 1 of ``mu(1)``), one at a time, moved both ways:

- an integer ``n`` to ``n + 1`` and ``n - 1`` (an exponent off by one; never to a negative index);
- a decimal scaled by ``1 ± 1/10``;
- a power whose exponent is a name, ``x**D``, to ``x**(D + 1)`` and ``x**(D - 1)``;
- one side of the relation scaled by ``1 ± 1/10`` (a perturbed constant factor: the only move
  a claim without literals, ``eta*L2 == dl*Y``, has).

Both directions are tried because an inequality is only tight one way: ``x <= 2*y`` survives
``2 -> 3`` but not ``2 -> 1``.  :func:`killed` runs the mutants until one fails.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator

from verify.base.errors import VerifyInputError
from verify.claims.language import ASYMPTOTIC
from verify.paper.ledger import ClaimSpec

#: A numeric literal not glued to a name (``x2``), a power's ``**`` or another number's digits.
_NUMBER = re.compile(r"(?<![\w.])(\d+\.\d+|\d+)(?![\w.])")
#: A power whose exponent is a plain name.
_NAMED_EXPONENT = re.compile(r"\*\*([A-Za-z_]\w*)(?![\w(])")
#: The relation of a claim (the language has exactly one, at the top level).
_RELATION = re.compile(r"==|<=|>=|<|>")
#: An order claim (O, Theta, Omega as a side): it has no side to scale.
_ORDER = re.compile(rf"\b(?:{'|'.join(ASYMPTOTIC)})\(")
#: The relative change of a decimal constant and of a side.
RELATIVE_STEP = "1/10"


def _moved(literal: str) -> list[str]:
    if "." in literal:
        return [f"({literal}*(1 + {RELATIVE_STEP}))", f"({literal}*(1 - {RELATIVE_STEP}))"]
    n = int(literal)
    return [str(n + 1)] + ([str(n - 1)] if n > 0 else [])


def claim_sides(text: str) -> tuple[str, str, str] | None:
    """(lhs, relation, rhs) of a claim's text; None for an order claim."""
    relation = _RELATION.search(text)
    if relation is None or _ORDER.search(text):
        return None
    return text[: relation.start()].strip(), relation.group(0), text[relation.end():].strip()


def mutants(text: str) -> Iterator[tuple[str, str]]:
    """(description, perturbed text) for each literal, named exponent and side of ``text``, moved
    each way (module docstring)."""
    for match in _NUMBER.finditer(text):
        for replacement in _moved(match.group(0)):
            perturbed = text[: match.start()] + replacement + text[match.end():]
            yield f"{match.group(0)} -> {replacement} at column {match.start()}", perturbed
    for match in _NAMED_EXPONENT.finditer(text):
        for sign in "+-":
            replacement = f"**({match.group(1)} {sign} 1)"
            perturbed = text[: match.start()] + replacement + text[match.end():]
            yield f"{match.group(0)} -> {replacement} at column {match.start()}", perturbed
    sides = claim_sides(text)
    if sides is not None:
        left, op, right = sides
        for sign in "+-":
            factor = f"(1 {sign} {RELATIVE_STEP})"
            yield f"lhs * {factor}", f"({left})*{factor} {op} {right}"


def killed(spec: ClaimSpec, run) -> str | None:
    """The description of the first mutant of ``spec`` that ``run`` (a :class:`ClaimSpec` ->
    Outcome) says fails, or None when every mutant survives.  A mutant the language refuses (a
    literal moved into an invalid spot) is skipped."""
    for what, mutant in _mutated_specs(spec):
        try:
            # the mutant is the claim alone: no correction, and no printed reading to compare it with
            outcome = run(dataclasses.replace(mutant, correction=None, printed=None))
        except VerifyInputError:
            continue
        if outcome.verdict.value == "fails":
            return what
    return None


def _mutated_specs(spec: ClaimSpec):
    """(description, spec) for each mutant: of the claim, or, for an entry of several relations
    (``claims``, which the runner decides one by one), of each relation in turn."""
    if not spec.relations:
        for what, text in mutants(spec.text):
            yield what, dataclasses.replace(spec, text=text)
        return
    for index, relation in enumerate(spec.relations):
        for what, text in mutants(relation):
            relations = (*spec.relations[:index], text, *spec.relations[index + 1:])
            mutant = dataclasses.replace(spec, text=relations[0], relations=relations)
            yield f"relation {index + 1}: {what}", mutant


def slack_claim(text: str, factor: int = 10) -> str | None:
    """``text`` with its smaller side scaled by ``factor``: ``a <= b`` -> ``factor*(a) <= b``,
    ``a >= b`` -> ``a >= factor*(b)``; None for an equality (which has no slack) or an order."""
    sides = claim_sides(text)
    if sides is None or sides[1] == "==":
        return None
    left, op, right = sides
    if op in ("<=", "<"):
        return f"{factor}*({left}) {op} {right}"
    return f"{left} {op} {factor}*({right})"
