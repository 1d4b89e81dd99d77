"""Every decision route of the claim engine, reached by a true and a barely-false statement.

tests/calibration/routes/decision_routes.toml holds, for each step of
:data:`verify.claims.steps.STEPS` and for the touching, existence and probability rules, statements
of known truth chosen so that a broken rule changes a verdict: a true statement the rule alone
decides and a false one that only a broken rule would accept.  Every true statement must be decided
(holds or consistent) and every false one refuted: a verdict that stays *inconclusive* here means the
route is no longer reached.  This module is the test selection of the mutation run (``tox -e
mutation``, docs/soundness.md "Mutation testing"); it is marked slow (about two minutes on one
core), so .ci/run runs it on its own after the default tier.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from verify import calibration

ROUTES = Path(__file__).resolve().parent / "calibration" / "routes"
STATEMENTS = calibration.load_corpus(ROUTES)


def test_every_step_and_rule_has_a_true_and_a_false_statement():
    classes = {(s.cls, s.truth) for s in STATEMENTS}
    for route in ("touching", "existence", "symbolic", "expectations", "series", "certified", "probability",
                  "order", "termwise", "branches", "contact"):
        assert (f"route-{route}", False) in classes, route
    assert {truth for _, truth in classes} == {True, False}


# slow: about two minutes on one core; .ci/run runs it after the default tier, and it is the test
# selection of the mutation run (tox -e mutation)
@pytest.mark.slow
@pytest.mark.parametrize("statement", STATEMENTS, ids=[s.id for s in STATEMENTS])
def test_the_route_decides_its_statement(statement):
    result = calibration.decide(statement)
    wanted = ("holds", "consistent") if statement.truth else ("fails",)
    assert result.verdict in wanted, (statement.claim, result.verdict, result.evidence[:300])
