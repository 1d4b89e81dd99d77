"""A display of several relations (``A = B = C``, an ``align``) as one ledger entry with ``claims``:
each relation decided on its own, the display failing when one fails and naming which, with both
sides' values (issue 50: such displays were merged by hand into Abs(a - b) + Abs(c - d) == 0, whose
evidence was a residual that said neither which relation failed nor its values)."""

from __future__ import annotations

import pytest

from verify.checks.ledger_claims import run_entry_claim
from verify.paper.ledger import LedgerError, _claim_spec
from verify.verdict import Verdict


def _spec(**item):
    return _claim_spec({"activation": "relu", **item}, "T-1")


def test_every_relation_holds_so_the_display_holds_and_each_verdict_is_kept():
    outcome = run_entry_claim(_spec(claims=["mu(1) == 1/2", "mu(0) == 1/sqrt(2*pi)"]))
    assert outcome.verdict is Verdict.HOLDS
    assert [row["verdict"] for row in outcome.numbers["relations"]] == ["holds", "holds"]
    assert outcome.evidence.startswith("each of its 2 relations holds")


def test_one_false_relation_fails_the_display_and_is_named_with_both_sides():
    # relu: mu_2 = 1/(2 sqrt(pi)), so the second relation (Lemma 2 of the example note) is false
    outcome = run_entry_claim(_spec(claims=["mu(1) == 1/2", "mu(2) == 1/sqrt(2*pi)", "mu(0) == 1/sqrt(2*pi)"]))
    assert outcome.verdict is Verdict.FAILS
    assert outcome.evidence.startswith("relation 2 of 3 (mu(2) == 1/sqrt(2*pi)) fails")
    assert {"lhs", "rhs"} <= set(outcome.counterexample)
    assert [row["verdict"] for row in outcome.numbers["relations"]] == ["holds", "fails", "holds"]


def test_a_relation_without_an_activation_quantity_runs_beside_those_with_one():
    """The entry's activation quantifies the relations that use one: ``Eg(g**2) == 1`` beside
    ``mu(1) == 1/2`` was refused ("the claim uses no quantity of an activation"), so a display
    stating a fact of the Gaussian and one of the activation had to be split or merged by hand."""
    outcome = run_entry_claim(_spec(claims=["Eg(g**2) == 1", "mu(1) == 1/2"]))
    assert outcome.verdict is Verdict.HOLDS
    assert [row["verdict"] for row in outcome.numbers["relations"]] == ["holds", "holds"]
    false = run_entry_claim(_spec(claims=["Eg(g**4) == 2", "mu(1) == 1/2"]))
    assert false.verdict is Verdict.FAILS and false.evidence.startswith("relation 1 of 2")


def test_a_relation_without_the_entrys_range_variable_runs_beside_those_with_it():
    """Remark 5 of a new user's note: ``h(m) <= h(1)`` beside ``h(1) == 2*Kp(1)`` with m in [0, 1] was
    refused ("m does not occur in the claim"); the entry's ranges quantify the relations that hold
    their variable."""
    outcome = run_entry_claim(_claim_spec({"claims": ["h(m) <= h(1)", "h(1) == 2*Kp(1)"], "family": "glm",
                                           "activation": "erf", "for": ["m in [0, 1]"]}, "T-1"))
    assert outcome.verdict is Verdict.HOLDS, outcome.evidence
    false = run_entry_claim(_claim_spec({"claims": ["h(m) <= h(1)", "h(1) == Kp(1)"], "family": "glm",
                                         "activation": "erf", "for": ["m in [0, 1]"]}, "T-1"))
    assert false.verdict is Verdict.FAILS and false.evidence.startswith("relation 2 of 2")


def test_a_calculus_identity_is_no_restatement():
    """tanh' = 1 - tanh^2 holds for every z, as any identity does; it is a fact of calculus, not the
    display's own algebra, so its holds counts as decided."""
    from verify.checks.ledger_claims import restatement

    spec = _claim_spec({"claim": "diff(tanh(z), z) == 1 - tanh(z)**2", "for": ["z in [-20, 20]"]}, "T-1")
    assert restatement(spec) is None
    assert run_entry_claim(spec).verdict is Verdict.HOLDS
    # SymPy carries out these derivatives as it parses: the typed diff is what makes them calculus
    for text in ("diff(1/(1 + exp(-z)), z) == 1/(1 + exp(-z))*(1 - 1/(1 + exp(-z)))",
                 "diff(log(1 + exp(z)), z) == 1/(1 + exp(-z))"):
        assert restatement(_claim_spec({"claim": text, "for": ["z in R"]}, "T-1")) is None


@pytest.mark.parametrize(("item", "message"), [
    ({"claim": "mu(1) == 1/2", "claims": ["mu(1) == 1/2"]}, "claim and claims together"),
    ({"claims": []}, "claims must be a list"),
    ({"claims": ["mu(1) == 1/2", " "]}, "claims must be a list"),
    ({"claims": "mu(1) == 1/2"}, "claims must be a list"),
    ({"claims": ["mu(1) == 1/2"] * 21}, "claims must be a list of 1 to 20"),
    ({"claims": ["mu(1) == 1/2"], "correction": "mu(1) == 1/3"}, "correction with claims"),
])
def test_a_malformed_claims_list_is_refused_naming_the_entry(item, message):
    with pytest.raises(LedgerError, match=message):
        _spec(**item)
