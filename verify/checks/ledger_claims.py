"""The ledger's claims as checks: each display or inline relation the ledger states as a claim is a
check of its own.

A ledger entry (``verify/paper/packs/dayi_chen/ledger.d/``) may decide its display, or its inline
relation of a proof, with a one-line claim of the claim language instead of naming a check.  Each
such entry is registered here as the check ``display-<id>`` or ``relation-<id>``: its docstring quotes the
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

import random

import sympy

from verify.checks.core import REGISTRY, Check, Context, check_id
from verify.claims import claim
from verify.claims.spec import build_spec
from verify.paper.ledger import ClaimSpec, Entry, claim_check_id, entries
from verify.verdict import FailureKind, Impact, Outcome, Verdict


def _statement(entry: Entry) -> str:
    return f"{entry.what} ({entry.id})"


def _sides(text: str, spec: ClaimSpec):
    """The claim ``text`` parsed with the entry's quantifiers (as :func:`verify.claims.claim` does)."""
    return build_spec(text, **spec.keywords()).claim


def vacuous_correction(spec: ClaimSpec) -> str | None:
    """Why the entry's correction is not a correction (None when it is one):

    - it is the printed claim again (both sides equal the printed sides);
    - it is an identity in independent symbols: with every quantity it names (``mu(p)``, ``h(m)``,
      ``K(rho)``, ...) replaced by a fresh symbol it still holds for all values, so it says nothing
      about those quantities (a product reordered, a left side restated)."""
    assert spec.correction is not None
    printed, fixed = _sides(spec.text, spec), _sides(spec.correction, spec)
    # structural equality: SymPy's simplify of a difference of series can take minutes
    same_sides = (sympy.expand(printed.lhs) == sympy.expand(fixed.lhs)
                  and sympy.expand(printed.rhs) == sympy.expand(fixed.rhs))
    if same_sides and printed.op == fixed.op:
        return "it is the printed claim again"
    if fixed.op != "==":
        return None
    calls = {call: sympy.Dummy() for call in (fixed.lhs - fixed.rhs).atoms(sympy.core.function.AppliedUndef)}
    calls |= {call: sympy.Dummy() for call in (fixed.lhs - fixed.rhs).atoms(sympy.Function)
              if not call.is_number and call.func.__module__ != "sympy.functions.elementary.exponential"
              and type(call).__name__[0].islower()}
    free = (fixed.lhs - fixed.rhs).xreplace(calls)
    if free.has(sympy.Sum, sympy.Integral) or not _zero_at_random_points(free):
        return None  # a series of model quantities, or not an identity: it says something
    if sympy.simplify(free) == 0:
        return ("an identity in independent symbols (it holds whatever values its quantities take), so it "
                "restates a formula rather than correcting one")
    return None


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
    """The outcome of a ledger claim, with its correction checked where the claim fails."""
    outcome = claim(spec.text, **spec.keywords(), seed=seed, full=full)
    if outcome.verdict is Verdict.FAILS:
        outcome.failure_kind = FailureKind(spec.fails_as)
        if spec.boundary:
            outcome.impact = Impact.BOUNDARY
            outcome.notes.append(f"Boundary: {spec.boundary}")
        if spec.correction:
            fixed = claim(spec.correction, **spec.keywords(), seed=seed, full=full)
            outcome.correction = (f"{spec.correction} ({fixed.verdict}, {fixed.basis}; scope: "
                                  f"{fixed.scope or 'none'})")
            # Only a proof or a statistical agreement verifies a correction; a search that found
            # nothing (inconclusive) does not, and neither does a correction without content.
            empty = vacuous_correction(spec)
            outcome.correction_verified = fixed.verdict in (Verdict.HOLDS, Verdict.CONSISTENT) and not empty
            if empty:
                outcome.correction += f"; not a correction: {empty}"
    return outcome


def claim_check(entry: Entry) -> Check:
    """The check ``display-<id>`` (or ``relation-<id>``) that runs a ledger entry's claim."""
    spec = entry.claim
    assert spec is not None

    def run(ctx: Context) -> Outcome:
        return run_entry_claim(spec, seed=ctx.seed, full=ctx.full)

    # The docstring's first paragraph is the quote (Check.quote): the display or relation as printed.
    label = "Display" if entry.what == "display" else "Inline relation"
    run.__doc__ = f"{label} ({entry.id}), as printed: ${entry.quote}$\n\nLedger claim: {spec.text}"
    run.__name__ = run.__qualname__ = f"{entry.what}_{entry.id.replace('.', '_').replace('-', '_')}"
    key = check_id(claim_check_id(entry.id, entry.what))
    return Check(key, _statement(entry), entry.section, "claim", run, FailureKind(spec.fails_as))


# the built-in pack's claims are checks of the registry (verify.checks.packs builds another pack's)
for _entry in entries():
    if _entry.claim is not None and check_id(claim_check_id(_entry.id, _entry.what)) not in REGISTRY:
        REGISTRY[check_id(claim_check_id(_entry.id, _entry.what))] = claim_check(_entry)
