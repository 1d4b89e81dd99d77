"""The ledger's claims (verify/paper/packs/dayi_chen/ledger.d/): each one a check of `verify check`, each one parsed
by the claim language, and each one sensitive to the formula it states.

The perturbation test is the ledger's own test of power: 20 ledger claims drawn at random (fixed
seed) that the suite says hold or are consistent with; each must fail once one of its constants or
exponents is moved (verify/paper/mutants.py).  A claim that survives every perturbation did not
read its formula.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
import shlex

import pytest

from verify.checks import load_all, run_check
from verify.checks.ledger_claims import run_entry_claim
from verify.claims.spec import build_spec
from verify.paper import ledger
from verify.paper.mutants import killed, mutants, slack_claim
from verify.verdict import FailureKind, Verdict

CLAIMS = [e for e in ledger.entries() if e.claim is not None]


@functools.cache
def _outcome(check_id: str):
    """A ledger claim's outcome, computed once for the whole module."""
    return run_check(check_id)
#: How many ledger claims the perturbation test draws, and its seed.
PERTURBED, PERTURBATION_SEED = 20, 29


@pytest.mark.extended
def test_every_ledger_claim_is_valid_claim_language():
    # A claim the language refuses would crash its check inside `verify check`; here it fails fast,
    # naming the entry.
    for entry in CLAIMS:
        spec = entry.claim
        keywords = spec.keywords()
        for_ = keywords.pop("for_", ())
        build_spec(spec.text, for_=tuple(for_), **keywords)
        if spec.correction:
            correction = spec.correction_keywords()
            build_spec(spec.correction, for_=tuple(correction.pop("for_", ())), **correction)


def test_each_ledger_claim_is_a_check_quoting_its_display_or_relation():
    registry = load_all()
    for entry in CLAIMS:
        chk = registry[entry.decided_by]
        assert chk.section == entry.section and chk.method == "claim"
        assert " ".join(entry.quote.split()) in chk.quote
        # a statement's inline relation is named so, not "statement": the statement is the Lemma;
        # and the prose's is a "prose relation", not "prose" (the kind of entry given a reason)
        what = {"statement": "statement relation", "prose": "prose relation"}.get(entry.what, entry.what)
        assert chk.statement == f"{what} ({entry.id})"


def test_a_failing_claim_reports_counterexample_rerun_and_the_verified_correction():
    # mu_1(relu)^2 = 1/4: the printed 1/3 fails exactly; the correction holds exactly.
    spec = ledger.ClaimSpec("mu(1)**2 == 1/3", (("activation", "relu"),), correction="mu(1)**2 == 1/4",
                            fails_as="as-printed")
    outcome = run_entry_claim(spec)
    assert outcome.verdict is Verdict.FAILS and outcome.failure_kind is FailureKind.AS_PRINTED
    assert outcome.correction.startswith("mu(1)**2 == 1/4 (holds") and outcome.correction_verified
    assert outcome.counterexample["rerun"].startswith("verify claim")


def test_a_correction_that_is_not_proved_is_not_called_verified():
    spec = ledger.ClaimSpec("mu(1)**2 == 1/3", (("activation", "relu"),), correction="mu(1)**2 == 1/5")
    outcome = run_entry_claim(spec)
    assert outcome.verdict is Verdict.FAILS and outcome.correction_verified is False


def test_a_correction_may_narrow_the_range_with_its_own_for():
    # m**3 >= 0 is printed for m in [-1, 1]; it holds only on [0, 1].  The printed relation on the
    # narrower range is a correction (not "the printed claim again"), and it is verified there.
    item = {"claim": "m**3 >= 0", "for": "m in [-1, 1]", "correction": "m**3 >= 0",
            "correction_for": ["m in [0, 1]"]}
    spec = ledger._claim_spec(item, "test")
    assert spec.correction_for == ("m in [0, 1]",)
    outcome = run_entry_claim(spec)
    assert outcome.verdict is Verdict.FAILS
    assert outcome.correction.startswith("m**3 >= 0 (holds") and outcome.correction_verified
    # the same relation on the same range is still a restatement
    same = run_entry_claim(ledger._claim_spec({**item, "correction_for": "m in [-1, 1]"}, "test"))
    assert not same.correction_verified and "not a correction" in same.correction


def test_a_printed_relation_that_differs_only_in_its_operator_is_checked():
    # printed m**2 > 0 on [0, 1] fails at m = 0; the intended m**2 >= 0 holds: a typo, not "agrees"
    spec = ledger.ClaimSpec("m**2 >= 0", (("for", ["m in [0, 1]"]),), printed="m**2 > 0")
    outcome = run_entry_claim(spec)
    assert outcome.verdict is Verdict.FAILS and outcome.failure_kind is FailureKind.AS_PRINTED
    assert outcome.correction_verified and "relation reads >" in outcome.evidence
    both = run_entry_claim(ledger.ClaimSpec("m**2 + 1 >= 0", (("for", ["m in [0, 1]"]),),
                                            printed="m**2 + 1 > 0"))
    assert both.verdict is Verdict.HOLDS


def test_a_correction_of_an_order_claim_is_checked():
    # a correction of an order claim crashed (its sides are no two expressions)
    spec = ledger.ClaimSpec("k**3 + k == Theta(k**4)", (("for", ["k in 1..4096"]), ("growth", "k")),
                            correction="k**3 + k == Theta(k**3)", fails_as="as-printed")
    outcome = run_entry_claim(spec)
    assert outcome.verdict is Verdict.FAILS and outcome.correction_verified


@pytest.mark.parametrize("item, message", [
    ({"claim": "m >= 0", "for": "m in [0, 1]", "correction_for": "m in [0, 1]"}, "without a correction"),
    ({"claim": "m >= 0", "correction": "m >= 0", "correction_for": 3}, "correction_for must be"),
    ({"correction_for": "m in [0, 1]"}, "without a claim"),
])
def test_correction_for_needs_a_correction_and_text(item, message):
    with pytest.raises(ledger.LedgerError, match=message):
        ledger._claim_spec(item, "test")


def test_mutants_move_each_literal_both_ways_and_leave_names_alone():
    texts = dict(mutants("mu(1)**2 <= x2*0.5"))
    assert "mu(2)**2 <= x2*0.5" in texts.values() and "mu(0)**2 <= x2*0.5" in texts.values()
    assert "mu(1)**3 <= x2*0.5" in texts.values() and "mu(1)**1 <= x2*0.5" in texts.values()
    assert "mu(1)**2 <= x2*(0.5*(1 + 1/10))" in texts.values()
    assert not any("x3" in t or "x1" in t for t in texts.values())
    assert dict(mutants("0 < h(m)"))["0 -> 1 at column 0"] == "1 < h(m)"
    named = dict(mutants("eta*L2 == Tt**D"))
    assert named["**D -> **(D + 1) at column 12"] == "eta*L2 == Tt**(D + 1)"
    assert named["lhs * (1 - 1/10)"] == "(eta*L2)*(1 - 1/10) == Tt**D"
    assert slack_claim("a <= b + 1") == "10*(a) <= b + 1" and slack_claim("a >= b") == "a >= 10*(b)"
    assert slack_claim("a == b") is None


def test_a_claim_that_reads_its_formula_is_killed_by_a_perturbation():
    spec = ledger.ClaimSpec("mu(1)**2 == 1/4", (("activation", "relu"),))
    assert run_entry_claim(spec).verdict is Verdict.HOLDS
    assert killed(spec, run_entry_claim) is not None


@pytest.mark.extended
@pytest.mark.skipif(not CLAIMS, reason="no ledger claims yet")
def test_perturbed_ledger_claims_fail():
    """20 random ledger claims that hold (or are consistent): each fails once a constant or an
    exponent of its formula moves."""
    pool = list(CLAIMS)
    random.Random(PERTURBATION_SEED).shuffle(pool)
    tried, survivors = 0, []
    for entry in pool:
        if tried == PERTURBED:
            break
        verdict = _outcome(entry.decided_by).verdict
        if verdict not in (Verdict.HOLDS, Verdict.CONSISTENT):
            continue  # a claim that fails or is undecided certifies nothing a mutant could fake
        tried += 1
        if entry.claim.loose:
            # Excused only if the slack is real: the claim still holds with its small side x10.
            loose = dataclasses.replace(entry.claim, text=slack_claim(entry.claim.text), correction=None)
            if run_entry_claim(loose).verdict not in (Verdict.HOLDS, Verdict.CONSISTENT):
                survivors.append(f"{entry.id} (marked loose, but not loose by 10x)")
        elif killed(entry.claim, run_entry_claim) is None:
            survivors.append(entry.id)
    assert tried == PERTURBED, f"only {tried} ledger claims hold; the test needs {PERTURBED}"
    assert not survivors, f"ledger claims that survive every perturbation of their formula: {survivors}"


@pytest.mark.extended
def test_failing_ledger_claims_reproduce_with_their_rerun_commands(capsys):
    """Six failing ledger claims (fixed draw): each printed rerun command, run as typed, fails again.
    (The rerun once pinned a variable that only fed a binding, and the command was refused.)"""
    from verify.cli import main

    pool = list(CLAIMS)
    random.Random(PERTURBATION_SEED + 1).shuffle(pool)
    failing = (e for e in pool if _outcome(e.decided_by).verdict is Verdict.FAILS)
    for entry in itertools.islice(failing, 6):
        rerun = _outcome(entry.decided_by).counterexample["rerun"]
        assert main(shlex.split(rerun)[1:]) == 1, (entry.id, rerun, capsys.readouterr().err)


def test_relation_labels_name_each_relation_by_the_line_that_holds_it():
    from verify.paper.latex import relation_labels

    quote = (r"K(0) &= \mu_0^2 = 0, \label{eq:k0}\\ K(1) &= \E[\sigma(g)^2] \nonumber \\[2pt]"
             r" &= 1 \label{eq:k1}\\ K'(1) &= \sum_{p=1}^{\infty} p \mu_p^2 \le 2 \\")
    assert relation_labels(quote, 6) == ["eq:k0", "eq:k0", "eq:k1", "eq:k1", None, None]
    assert relation_labels(quote, 5) is None  # the claims are not the lines' relations: no line named


def test_a_display_of_several_relations_is_named_by_the_label_of_its_failing_line(tmp_path):
    """An align with a label on each line, decided relation by relation, fails on its last line
    (eq:k1): its row, heading, report.json record and errata item name that line, not the first
    (eq:k0), with the ledger id beside it."""
    from tests.pack_helpers import align_note_pack, run_pack
    from verify.checks.report import to_markdown
    from verify.paper import pack

    found, (result,) = run_pack(align_note_pack(tmp_path), ["display-1-1"])
    assert result.verdict == "fails" and "relation 3 of 3" in result.outcome.evidence
    assert result.check.statement == "display eq:k0 (1-1)"
    with pack.using(found):
        record, md = result.to_dict(), to_markdown([result], 0, False)
    assert result.statement == record["statement"] == "display eq:k1 (1-1)"
    assert "| [`display-1-1`](#display-1-1) | display eq:k1 (1-1) |" in md
    assert "### `display-1-1` — display eq:k1 (1-1) (§1): fails" in md
    assert "- Proposition 1, display eq:k1 (1-1): [`display-1-1`](#display-1-1)" in md
    assert "eq:k0" not in md.split("## Details")[0]


def test_a_claim_on_a_derivative_of_a_model_quantity_runs_and_is_no_restatement():
    """``restatement`` took h(m) inside diff(h(m), m) for a symbol and then gave m a value: "Can't
    calculate derivative wrt 6", a crash of the entry's check in `verify check` (C.1-p1)."""
    from verify.checks.ledger_claims import restatement

    spec = ledger.ClaimSpec("diff(Phi(m), m)*(1 - m**2) == -h(m)*(1 - m**2)",
                            (("family", "orthonormal"), ("activation", "relu"),
                             ("for", ("k in {2}", "xi in {1}", "m in [-1, 1]"))))
    assert restatement(spec) is None
    outcome = run_entry_claim(spec)
    assert outcome.verdict is Verdict.HOLDS, outcome.evidence


def test_a_correction_the_claim_language_refuses_leaves_the_fail_unrepaired_not_crashed():
    """A correction that simplifies its quantified variable away (|(-1)^i/2| is 1/2 for every integer
    i) raised out of the entry's check: `verify check` reported the check *crashed*, hiding the fail."""
    spec = ledger.ClaimSpec("Abs((-1/2)**i) == 1/2", (("for", ("i in 1..4",)),),
                            correction="Abs((-1)**i/2) == 1/2", fails_as="as-printed")
    outcome = run_entry_claim(spec)
    assert outcome.verdict is Verdict.FAILS and not outcome.correction_verified
    assert "not checked" in outcome.correction and "does not occur" in outcome.correction
