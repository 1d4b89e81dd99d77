"""Definitions checked against each other: one check per object the paper defines twice or more.

For an object of a pack's definitions file (the Dayı–Chen pack's
``verify/paper/packs/dayi_chen/ledger.d/definitions.toml``; :mod:`verify.paper.definitions`), the check
``definitions-<name>`` runs, with the object's quantifiers,

- each pair of consecutive definitions, ``printed_a == printed_b`` (do the paper's two texts agree?);
  two definitions written as the same text up to spaces (the paper prints one formula twice) are equal
  without a claim (exact: a formula equals itself);
- each definition against the suite's own value, ``printed == reference`` (which one is right?).

It holds when every pair is proved equal (with the weakest basis of the pair claims), is consistent
when some pair agrees only statistically; it fails when a pair
disagrees, naming the pair, the claim's counterexample and which of the two agrees with the suite's
value, and also when the pairs agree but a definition disagrees with the suite's value (the same
wrong formula printed twice); it is inconclusive when no pair disagrees but some pair could not be
decided.
"""

from __future__ import annotations

from verify.checks.core import Check, Context, check_id
from verify.claims import claim
from verify.claims.quantifiers import UnusedActivationError
from verify.paper.definitions import DefinedObject, Definition
from verify.paper.pack import current
from verify.verdict import Basis, FailureKind, Outcome, Verdict
from verify.verdict.outcome import weakest_basis


def _run(obj: DefinedObject, text: str, ctx: Context) -> Outcome:
    keywords = obj.keywords()
    try:
        return claim(text, **keywords, seed=ctx.seed, full=ctx.full)
    except UnusedActivationError:
        # Two printed formulas compared with each other may not depend on the activation (two
        # constants, say); the claim language refuses an --activation its claim cannot use.
        keywords.pop("activation")
        return claim(text, **keywords, seed=ctx.seed, full=ctx.full)


def _same_text(a: Definition, b: Definition) -> Outcome:
    """Two definitions printed as the same formula: equal, exactly, with no computation."""
    return Outcome(Verdict.HOLDS, f"{a.entry} and {b.entry} print the same formula", basis=Basis.EXACT,
                   scope="statement")


def _pair(obj: DefinedObject, a: Definition, b: Definition, ctx: Context) -> Outcome:
    if "".join(a.printed.split()) == "".join(b.printed.split()):  # spaces are not tokens
        return _same_text(a, b)
    return _run(obj, f"{a.printed} == {b.printed}", ctx)


def compare(obj: DefinedObject, ctx: Context) -> Outcome:
    """The outcome of ``definitions-<name>`` (module docstring)."""
    against_suite = {d.entry: _run(obj, f"{d.printed} == {obj.reference}", ctx) for d in obj.definitions}
    pairs = list(zip(obj.definitions, obj.definitions[1:], strict=False))
    judged = [(a, b, _pair(obj, a, b, ctx)) for a, b in pairs]
    suite = "; ".join(f"{entry} vs the suite's {obj.reference}: {o.verdict}"
                      for entry, o in against_suite.items())
    numbers = {"pairs": {f"{a.entry} vs {b.entry}": o.verdict.value for a, b, o in judged},
               "against_suite": {entry: o.verdict.value for entry, o in against_suite.items()}}
    for a, b, outcome in judged:
        if outcome.verdict is Verdict.FAILS:
            right = [e for e in (a.entry, b.entry) if against_suite[e].verdict is Verdict.HOLDS]
            wrong_side = [d for d in (a, b) if against_suite[d.entry].verdict is Verdict.FAILS]
            good = next((d for d in (a, b) if d.entry in right), None)
            # the correction is the other printed definition, where the suite proves it equal to
            # its own value and the wrong one differs from it: real content, never a restatement
            fix = (dict(correction=f"read {wrong_side[0].entry} as {good.entry}: {good.printed}",
                        correction_verified=True) if good is not None and wrong_side else
                   dict(notes=["No correction: neither printed definition is proved equal to the suite's "
                               f"{obj.reference}, so the suite cannot say which one the text intends."]))
            return Outcome(
                Verdict.FAILS,
                f"the definitions of {obj.name} in {a.entry} and {b.entry} disagree: {outcome.evidence}; "
                + (f"the suite agrees with {' and '.join(right)}" if right
                   else "neither is proved equal to the suite's value") + f" ({suite})",
                numbers=numbers, counterexample=outcome.counterexample, basis=outcome.basis,
                failure_kind=FailureKind(obj.fails_as), **fix)
    wrong = [e for e, o in against_suite.items() if o.verdict is Verdict.FAILS]
    if wrong:
        # every printed pair agrees, yet a definition disagrees with the suite's value (the paper
        # repeats one wrong formula, or the pairs are too weak to see it): not a holds
        outcome = against_suite[wrong[0]]
        return Outcome(
            Verdict.FAILS,
            f"no pair of definitions of {obj.name} disagrees, but {', '.join(wrong)} disagree(s) with the "
            f"suite's {obj.reference}: {outcome.evidence} ({suite})",
            numbers=numbers, counterexample=outcome.counterexample, basis=outcome.basis,
            failure_kind=FailureKind(obj.fails_as),
            notes=["No correction: every printed definition is the same formula, and the suite's own value "
                   f"({obj.reference}) is a reference, not the text's intended formula."])
    agreed = (Verdict.HOLDS, Verdict.CONSISTENT)
    undecided = [f"{a.entry} vs {b.entry}" for a, b, o in judged if o.verdict not in agreed]
    if undecided:
        return Outcome(Verdict.INCONCLUSIVE,
                       f"no pair of definitions of {obj.name} disagrees, but {', '.join(undecided)} "
                       f"could not be proved equal ({suite})", numbers=numbers, basis=Basis.NONE)
    scopes = {o.scope for _, _, o in judged}
    proved = all(o.verdict is Verdict.HOLDS for _, _, o in judged)
    return Outcome(Verdict.HOLDS if proved else Verdict.CONSISTENT,
                   f"the {len(obj.definitions)} definitions of {obj.name} "
                   f"({', '.join(d.entry for d in obj.definitions)}) agree pairwise ({suite})",
                   numbers=numbers, basis=weakest_basis(o.basis for _, _, o in judged),
                   scope=" | ".join(sorted(s for s in scopes if s)) or None)


def definitions_check(obj: DefinedObject) -> Check:
    """The check ``definitions-<name>`` of an object defined twice or more."""

    def run(ctx: Context) -> Outcome:
        return compare(obj, ctx)

    run.__doc__ = (f"The definitions of {obj.name} in displays "
                   f"{', '.join(d.entry for d in obj.definitions)} agree with each other.")
    run.__name__ = run.__qualname__ = f"definitions_{obj.name}"
    key = check_id(f"definitions-{obj.name}")
    where = obj.definitions[0].entry.rsplit("-", 1)[0]
    # the object is the current pack's (verify.paper.definitions.objects reads it): so is the check
    return Check(key, f"definitions of {obj.name}", where, "claim", run, FailureKind(obj.fails_as),
                 current().key)
