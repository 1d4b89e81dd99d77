"""The ledger's claims as checks: each display or inline relation the ledger states as a claim is a
check of its own.

A ledger entry (``verify/paper/packs/dayi_chen/ledger.d/``) may decide its display, or its inline
relation of a proof, with a one-line claim of the claim language instead of naming a check.  Each
such entry is the check ``display-<id>`` or ``relation-<id>`` (:func:`claim_check`, which
:mod:`verify.checks.packs` calls for each entry of a pack): its docstring quotes the
display or relation as printed, and its run is
:func:`verify.claims.claim` on the entry's text and quantifiers, so it answers with the claim's
verdict, basis, scope, counterexample and rerun command.  Where the printed claim fails and the
entry gives a ``correction``, the correction is run with the same quantifiers and the outcome says
whether the suite verifies it.

The claim is the *claim*: the formula as printed, written in the claim language.  The
reference it is compared with is the suite's own (the quantities' closed forms, balls, Monte
Carlo), never a second copy of the paper's formula.
"""

from __future__ import annotations

import difflib
import random
import re
from dataclasses import replace

import sympy

from verify.base.errors import VerifyInputError, clip
from verify.checks.core import LEDGER_NAMES, LEDGER_READINGS, Check, Context, check_id
from verify.claims import claim
from verify.claims.language import calls_function
from verify.claims.spec import build_spec, relation_keywords
from verify.paper.latex import label_of, relation_labels
from verify.paper.ledger import ClaimSpec, Entry, claim_check_id
from verify.paper.mutants import claim_sides
from verify.paper.pack import current
from verify.paper.regime import regime_rerun
from verify.verdict import Basis, FailureKind, Impact, Outcome, Verdict
from verify.verdict.outcome import weakest_basis


def _statement(entry: Entry, label: str | None = None) -> str:
    """How reports name the entry: by its ``\\label`` (``label``, else its quote's first) where its
    quote has one (``display eq:kernel (1-1)``), the ledger id kept beside it; else by the id."""
    label = label or label_of(entry.quote)
    what = LEDGER_NAMES[entry.what]
    return f"{what} {label} ({entry.id})" if label else f"{what} ({entry.id})"


def _sides(text: str, spec: ClaimSpec, keywords: dict | None = None):
    """The claim ``text`` parsed with the entry's quantifiers (as :func:`verify.claims.claim` does)."""
    return build_spec(text, **_keywords_for(text, spec, keywords)).claim


def vacuous_correction(spec: ClaimSpec) -> str | None:
    """Why the entry's correction is not a correction (None when it is one).

    A correction is what the authors meant to print, so an intended equation that differs from
    the printed one is a correction even when it holds for any values of its symbols (the
    correction of an algebra typo, E.3.3-11's sign, is such an identity).  Refused are only the
    restatements:

    - the printed claim again (the same sides and relation, or the two sides swapped with the
      relation mirrored), or one side written twice;
    - a correction whose two sides both equal one printed side S (with every quantity it names
      taken as a free symbol) while neither of them edits the other printed side T: an edit
      differs from T but shares at least half of its subexpressions with it (E.1.1-24's right
      side is the printed one with the factor 2 restored; ``(a+b)**2 == a**2 + 2*a*b + b**2``
      for a printed ``(a+b)**2 <= c`` only rewrites S and says nothing about the relation)."""
    assert spec.correction is not None
    printed, fixed = _sides(spec.text, spec), _sides(spec.correction, spec, spec.correction_keywords())
    # structural equality: SymPy's simplify of a difference of series can take minutes
    p_lhs, p_rhs, f_lhs, f_rhs = (sympy.expand(e) for e in (printed.lhs, printed.rhs, fixed.lhs, fixed.rhs))
    same = p_lhs == f_lhs and p_rhs == f_rhs and printed.op == fixed.op
    swapped = p_lhs == f_rhs and p_rhs == f_lhs and _MIRRORED.get(printed.op) == fixed.op
    if (same or swapped) and not _narrows(spec):
        return "it is the printed claim again"
    if fixed.op != "==":
        return None
    written, shown = claim_sides(spec.correction), claim_sides(spec.text)
    if written is None or shown is None:
        # an order claim (lhs == Theta(...)): a different order or side is a correction; the same
        # one was refused above
        return None
    if written[0].replace(" ", "") == written[2].replace(" ", ""):
        return "it writes one side twice"
    for side, same_text, other in ((printed.lhs, shown[0], shown[2]), (printed.rhs, shown[2], shown[0])):
        if (_restates(fixed.lhs, side) and _restates(fixed.rhs, side)
                and not any(_edits(text, other, same_text) for text in (written[0], written[2]))):
            return "both of its sides restate one printed side, so it says nothing about the printed relation"
    return None


_MIRRORED = {"<=": ">=", ">=": "<=", "<": ">", ">": "<", "==": "=="}


#: How alike (difflib's ratio of the texts) a correction's side must be to a printed side to edit it.
EDIT_SIMILARITY = 0.6


def _edits(side: str, printed_side: str, restated: str) -> bool:
    """Whether the correction's side (as written) is an edit of ``printed_side``: a different text,
    at least EDIT_SIMILARITY alike, and more alike to it than to the printed side it restates.
    The text, not the expression: SymPy writes E.1.1-24's corrected right side, the printed one
    with its factor 2 restored, exactly as the printed left side, so only the text shows which
    printed side it corrects."""
    side, printed_side, restated = (t.replace(" ", "") for t in (side, printed_side, restated))
    likeness = difflib.SequenceMatcher(None, side, printed_side).ratio()
    return (side != printed_side and likeness >= EDIT_SIMILARITY
            and likeness > difflib.SequenceMatcher(None, side, restated).ratio())


def _restates(expr, side) -> bool:
    """Whether ``expr`` equals ``side`` for every value of the quantities both name (each taken as
    a free symbol)."""
    difference = expr - side
    return _vanishes_identically(difference.xreplace(_free_quantities(difference)))


def _free_quantities(expr) -> dict:
    """Each quantity call of ``expr`` (``h(m)``, ``mu(p)``, …) and each derivative of one
    (``diff(Phi(m), m)``) -> a fresh symbol: a derivative is a quantity of its own (replacing only
    the call inside it left the derivative of a symbol in m, which crashed once m took a value)."""
    derivatives = {node: sympy.Dummy() for node in expr.atoms(sympy.Derivative)
                   if node.has(sympy.core.function.AppliedUndef)}
    rest = expr.xreplace(derivatives)
    return {**derivatives, **{call: sympy.Dummy() for call in rest.atoms(sympy.core.function.AppliedUndef)}}


def _vanishes_identically(expr) -> bool:
    """Whether ``expr`` is 0 for every value of its symbols: the random-point screen, then SymPy's
    simplify (a series or an integral is never taken for an identity)."""
    if expr.has(sympy.Sum, sympy.Integral) or not _zero_at_random_points(expr):
        return False
    return sympy.simplify(expr) == 0


def _zero_at_random_points(expr: sympy.Expr, points: int = 3) -> bool:
    """Whether ``expr`` vanishes (to 1e-20 at 30 digits) at ``points`` seeded random positive
    rational points: a cheap screen before SymPy's simplify, which can take minutes on a
    correction that is not an identity."""
    rng = random.Random(36)
    symbols = sorted(expr.free_symbols, key=str)
    for _ in range(points):
        point = {s: sympy.Rational(rng.randint(2, 97), rng.randint(2, 97)) for s in symbols}
        value = expr.xreplace(point).evalf(30)
        if not value.is_number or not value.is_finite or abs(value) > 1e-20:
            return False
    return True


def run_entry_claim(spec: ClaimSpec, seed: int = 0, full: bool = False) -> Outcome:
    """The outcome of a ledger claim, with its correction checked where the claim fails, and its
    printed reading compared with the intended one where the entry gives both; an entry of several
    relations (``claims``) relation by relation (:func:`_several_relations`)."""
    if spec.relations:
        return _several_relations(spec, seed, full)
    if spec.printed:
        return _as_printed_and_intended(spec, seed, full)
    outcome = claim(spec.text, **spec.keywords(), seed=seed, full=full)
    if outcome.verdict is Verdict.HOLDS:
        empty = restatement(spec)
        if empty:
            outcome.numbers["restatement"] = empty
            outcome.scope = f"restatement: {outcome.scope}"
            outcome.notes.append(f"A restatement, not a fact about the paper: {empty}.")
    if spec.scope:
        # shown beside the verdict; a proxy's holds becomes consistent (Check.finish's scope rule)
        outcome.scope = f"{spec.scope} (the claim covers: {outcome.scope})"
    if outcome.verdict is Verdict.FAILS:
        outcome.failure_kind = FailureKind(spec.fails_as)
        _in_the_main_regime(outcome, spec, seed, full)
        if spec.boundary:
            outcome.impact = Impact.BOUNDARY
            outcome.notes.append(f"Boundary: {spec.boundary}")
        if spec.correction:
            try:
                fixed = claim(spec.correction, **spec.correction_keywords(), seed=seed, full=full)
            except VerifyInputError as exc:
                # e.g. a quantified variable the correction simplifies away (|(-1)^i/2| is 1/2 for
                # every integer i): the correction says nothing checkable; the fail stands, unrepaired
                outcome.correction = f"{spec.correction} (not checked: {clip(str(exc), 160)})"
                outcome.correction_verified = False
                return outcome
            outcome.correction = (f"{spec.correction} ({fixed.verdict}, {fixed.basis}; scope: "
                                  f"{fixed.scope or 'none'})")
            # Only a proof or a statistical agreement verifies a correction; a search that found
            # nothing (inconclusive) does not, and neither does a correction without content.
            empty = vacuous_correction(spec)
            outcome.correction_verified = fixed.verdict in (Verdict.HOLDS, Verdict.CONSISTENT) and not empty
            if empty:
                outcome.correction += f"; not a correction: {empty}"
    return outcome


def _one_relation(spec: ClaimSpec, text: str) -> ClaimSpec:
    """One relation of an entry of several as a claim of its own, with the entry's quantifiers (its
    activation and each range only where the relation uses them:
    :func:`verify.claims.spec.relation_keywords`)."""
    kept = relation_keywords(text, spec.keywords())
    options = []
    for key, value in spec.options:
        if key == "for":
            options.append((key, tuple(kept["for_"])))
        elif key in kept:
            options.append((key, value))
    return replace(spec, text=text, relations=(), options=tuple(options))


def _several_relations(spec: ClaimSpec, seed: int, full: bool) -> Outcome:
    """A display of several relations (``A = B = C``, an ``align``), each decided on its own with the
    entry's quantifiers: it fails when one fails, and says which (the first failing relation's
    outcome, its evidence and counterexample with both sides' values, named by its place); it is
    inconclusive when one is undecided and none fails; else it holds (or is consistent) on the
    weakest basis of its relations.  Every relation's own verdict is in ``numbers["relations"]``."""
    count = len(spec.relations)
    parts = [run_entry_claim(_one_relation(spec, text), seed, full) for text in spec.relations]
    rows = [{"relation": f"{i} of {count}", "claim": text, "verdict": part.verdict.value,
             "basis": str(part.basis), "evidence": part.evidence}
            for i, (text, part) in enumerate(zip(spec.relations, parts, strict=True), 1)]
    failing = [i for i, part in enumerate(parts) if part.verdict is Verdict.FAILS]
    if failing:
        first = parts[failing[0]]
        others = [f"{i + 1}" for i in failing[1:]]
        first.evidence = (f"relation {failing[0] + 1} of {count} ({spec.relations[failing[0]]}) fails: "
                          f"{first.evidence}"
                          + (f"; relation(s) {', '.join(others)} fail too" if others else ""))
        first.numbers["relations"] = rows
        return first
    undecided = [i for i, part in enumerate(parts) if part.verdict not in (Verdict.HOLDS, Verdict.CONSISTENT)]
    if undecided:
        named = ", ".join(f"{i + 1} ({parts[i].verdict.value}: {parts[i].evidence})" for i in undecided)
        return Outcome(Verdict.INCONCLUSIVE, f"relation(s) {named} of {count} not decided; the others hold",
                       numbers={"relations": rows}, basis=Basis.NONE)
    verdict = (Verdict.CONSISTENT if any(part.verdict is Verdict.CONSISTENT for part in parts)
               else Verdict.HOLDS)
    scopes = list(dict.fromkeys(part.scope for part in parts if part.scope))
    return Outcome(verdict, f"each of its {count} relations {verdict.value} "
                   + "; ".join(f"{i}: {part.basis}" for i, part in enumerate(parts, 1)),
                   numbers={"relations": rows}, basis=weakest_basis(part.basis for part in parts),
                   scope="; ".join(scopes) or None)


def _failing_line(entry: Entry, outcome: Outcome) -> str | None:
    """The label of the line of the entry's display that holds its first failing relation
    (:func:`~verify.paper.latex.relation_labels`), for an entry of several relations that fails;
    None where that line carries no label, or the lines' relations are not the entry's."""
    several = entry.claim is not None and entry.claim.relations and outcome.verdict is Verdict.FAILS
    rows = outcome.numbers.get("relations") if several else None
    if not rows:
        return None
    labels = relation_labels(entry.quote, len(rows))
    failing = next((i for i, row in enumerate(rows) if row["verdict"] == Verdict.FAILS.value), None)
    return None if labels is None or failing is None else labels[failing]


def restatement(spec: ClaimSpec) -> str | None:
    """Why a claim that holds proves nothing about the paper, or None: with its bindings
    substituted and every quantity it names (``h(m)``, ``mu(p)``, …) taken as a free symbol, its
    two sides are equal for any values of their symbols (E.1.1-16, ``mu2*sqrt(Cc/Tt**D) ==
    mu2*sqrt(Cc)/Tt**(D/2)``: the algebra of a display, not a fact about the model).  A symbol
    quantified over positive values only is taken positive."""
    parsed = build_spec(spec.text, **spec.keywords())
    bindings = {q.symbol: q.expression for q in parsed.quantifiers if q.kind == "binding"}
    difference = parsed.claim.lhs - parsed.claim.rhs
    for _ in range(len(bindings) + 1):  # a binding may name another
        difference = difference.xreplace(bindings)
    if difference.has(sympy.Derivative) or calls_function(parsed.claim.text, "diff"):
        # a fact of calculus (tanh' = 1 - tanh^2), not the display's own algebra; SymPy carries out
        # diff(1/(1 + exp(-z)), z) as it parses, so the typed text is what shows the derivative
        return None
    calls = _free_quantities(difference)
    positive = {q.name for q in parsed.quantifiers if q.kind != "binding" and _positive(q)}
    signed = {s: sympy.Dummy(s.name, positive=True) for s in difference.free_symbols if s.name in positive}
    if not (parsed.claim.lhs - parsed.claim.rhs).free_symbols and not calls:
        return None  # a fact about numbers, not about symbols
    if not _vanishes_identically(difference.xreplace(calls).xreplace(signed)):
        return None
    return ("it holds for any values of its symbols once its bindings are substituted (an identity of the "
            "display's own algebra), so it says nothing about the model")


def _positive(q) -> bool:
    """Whether every value the quantifier gives its variable is positive."""
    values = q.points() if q.kind in ("values", "integer") else [q.low]
    return all(sympy.sympify(v).is_positive for v in values)


def _in_the_main_regime(outcome: Outcome, spec: ClaimSpec, seed: int, full: bool) -> None:
    """Rerun a failing claim with the main theorems' regime values (pack.toml ``[regime]``) of the
    variables it quantifies, and record whether it holds there (verify.paper.regime)."""
    bindings = regime_rerun(spec.keywords().get("for_", ()))
    if bindings is None:
        return
    try:
        options = _keywords_for(spec.text, replace(spec, options=_with_for(spec, bindings)))
        there = claim(spec.text, **options, seed=seed, full=full)
    except VerifyInputError:  # the regime's values are outside what the claim allows: nothing to say
        return
    held = there.verdict in (Verdict.HOLDS, Verdict.CONSISTENT)
    changed = ", ".join(b for b in bindings if b not in spec.keywords()["for_"])
    why = f"with {changed} the claim {there.verdict} ({there.basis})"
    outcome.numbers["regime"] = {"holds": held, "why": why}


def _with_for(spec: ClaimSpec, quantifiers: list[str]) -> tuple:
    """The entry's options with ``for`` replaced."""
    return tuple((key, quantifiers if key == "for" else value) for key, value in spec.options)


def _as_printed_and_intended(spec: ClaimSpec, seed: int, full: bool) -> Outcome:
    """Run the intended reading (the entry's claim) and compare the printed reading's sides with
    its sides: where a printed side takes another value (F.2-4 prints σ(⟨v_i, x⟩) − σ(⟨v_i, x⟩),
    identically 0), the display is a *typo*: the fail shows the printed value against the
    intended one, and the intended claim is the correction (verified when it holds).  Where the
    two readings agree, the intended claim's verdict stands."""
    intended = claim(spec.text, **spec.keywords(), seed=seed, full=full)
    printed, meant = claim_sides(spec.printed), claim_sides(spec.text)
    if printed is None or meant is None:  # an order claim has no two sides to compare
        return intended
    for printed_side, meant_side, name in ((printed[0], meant[0], "left"), (printed[2], meant[2], "right")):
        if printed_side.replace(" ", "") == meant_side.replace(" ", ""):
            continue
        text = f"{printed_side} == {meant_side}"
        compared = claim(text, **_keywords_for(text, spec), seed=seed, full=full)
        if compared.verdict is not Verdict.FAILS:
            continue
        return _typo(compared, spec, intended, f"the {name} side reads {printed_side}, not the intended "
                                               f"{meant_side}")
    if printed[1] != meant[1]:
        # the same sides under another relation (a printed > for an intended >=): the printed
        # relation is a claim of its own, and it may fail where the intended one holds
        literal = claim(spec.printed, **_keywords_for(spec.printed, spec), seed=seed, full=full)
        if literal.verdict is Verdict.FAILS:
            return _typo(literal, spec, intended,
                         f"the relation reads {printed[1]}, not the intended {meant[1]}")
        intended.notes.append(f"The printed relation ({spec.printed}) is {literal.verdict.value} as well.")
        return intended
    intended.notes.append(f"The printed reading ({spec.printed}) agrees with the intended one in value.")
    return intended


def _typo(failed: Outcome, spec: ClaimSpec, intended: Outcome, how: str) -> Outcome:
    """The printed reading's fail as a typo, with the intended claim as its correction."""
    failed.evidence = f"as printed, {how}: {failed.evidence}"
    failed.failure_kind = FailureKind.AS_PRINTED
    failed.correction = (f"{spec.text} ({intended.verdict}, {intended.basis}; "
                         f"scope: {intended.scope or 'none'})")
    failed.correction_verified = intended.verdict in (Verdict.HOLDS, Verdict.CONSISTENT)
    failed.impact = Impact.TYPO if failed.correction_verified else None
    failed.notes.append(f"Printed reading: {spec.printed}; intended reading: {spec.text}.")
    return failed


def _narrows(spec: ClaimSpec) -> bool:
    """Whether the correction gives quantifiers of its own that differ from the claim's: the printed
    relation on a narrower range is a correction (the claim as printed holds only there)."""
    # both are lists of texts: ledger._claim_spec reads a single text as a list
    claimed = list(spec.keywords().get("for_", ()))
    return spec.correction_for is not None and list(spec.correction_for) != claimed


def _keywords_for(text: str, spec: ClaimSpec, keywords: dict | None = None) -> dict:
    """The entry's options for a claim about part of it: the quantifiers of the variables ``text``
    names (and of those their bindings name), no others (a quantifier must occur in its claim)."""
    keywords = spec.keywords() if keywords is None else keywords
    quantifiers = list(keywords.get("for_", ()))
    names = set(re.findall(r"[A-Za-z_]\w*", text))
    kept: list[str] = []
    while True:
        more = [q for q in quantifiers if q not in kept and re.match(r"\s*(\w+)", q).group(1) in names]
        if not more:
            break
        kept += more
        for q in more:
            names |= set(re.findall(r"[A-Za-z_]\w*", q.split("=", 1)[1] if " in " not in q else ""))
    return {**keywords, "for_": [q for q in quantifiers if q in kept]}


def claim_check(entry: Entry) -> Check:
    """The check ``display-<id>`` (or ``relation-<id>``) that runs a ledger entry's claim."""
    spec = entry.claim
    assert spec is not None

    def run(ctx: Context) -> Outcome:
        outcome = run_entry_claim(spec, seed=ctx.seed, full=ctx.full)
        failing = _failing_line(entry, outcome)
        if failing is not None and failing != label_of(entry.quote):
            outcome.statement = _statement(entry, failing)
        if entry.note:
            outcome.notes.append(f"Ledger note: {entry.note}")
        return outcome

    # The docstring's first paragraph is the quote (Check.quote): the display or relation as printed.
    label = LEDGER_READINGS[entry.what]
    stated = "; ".join(spec.relations) if spec.relations else spec.text
    run.__doc__ = f"{label} ({entry.id}), as printed: ${entry.quote}$\n\nLedger claim: {stated}"
    run.__name__ = run.__qualname__ = f"{entry.what}_{entry.id.replace('.', '_').replace('-', '_')}"
    key = check_id(claim_check_id(entry.id, entry.what))
    # the entry is the current pack's (verify.paper.ledger.entries reads it): the check is that pack's
    return Check(key, _statement(entry), entry.section, "claim", run, FailureKind(spec.fails_as),
                 current().key)
