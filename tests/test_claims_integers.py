"""Integer variables over ranges too long to enumerate, decided at every integer
(:mod:`verify.claims.integers`, issue #50 item 5)."""

from __future__ import annotations

import pytest

from verify.claims import claim, integers, run
from verify.claims.spec import build_spec
from verify.verdict import Basis, Verdict


@pytest.mark.parametrize("text, quantifier, how", [
    # identities: lhs - rhs simplifies to 0 with the variable an integer (sums in closed form)
    ("Sum(i, i, 1, n) == n*(n + 1)/2", "n in 1..1000000", "integer identity"),
    ("Sum(1/(i*(i + 1)), i, 1, n) == 1 - 1/(n + 1)", "n in 1..100000", "integer identity"),
    ("binomial(n, 2) == n*(n - 1)/2", "n in 2..100000", "integer identity"),
    # inequalities: the relation on the range's real hull
    ("n**2 >= n", "n in 1..1000", "integer relaxation"),
    ("(d - 1)/d < 1", "d in 1..1000", "integer relaxation"),
])
def test_a_true_claim_over_a_long_integer_range_holds_at_every_integer(text, quantifier, how):
    outcome = claim(text, for_=[quantifier])
    assert outcome.verdict is Verdict.HOLDS and outcome.basis is Basis.EXACT, outcome.evidence
    assert outcome.numbers["decided_by"] == how
    assert outcome.scope.startswith("statement: every integer of")


def test_an_integer_counterexample_the_spread_subset_misses_is_found_next_to_the_real_one():
    # false only at n = 537, which the 64 spread values of 1..1000 do not contain
    outcome = claim("(n - 537)**2 >= 1", for_=["n in 1..1000"])
    assert outcome.verdict is Verdict.FAILS and outcome.counterexample["n"] == "537"


def test_a_claim_true_at_the_integers_only_is_not_proved_by_the_relaxation():
    # (2n - 1075)**2 >= 1 holds at every integer (2n - 1075 is odd) but fails at n = 537.5: the
    # relaxation proves nothing, the integers beside 537.5 hold, and the enumeration's verdict (a
    # spread subset) stays
    outcome = claim("(2*n - 1075)**2 >= 1", for_=["n in 1..1000"])
    assert outcome.verdict is Verdict.INCONCLUSIVE


def test_a_quantity_of_the_model_is_never_relaxed():
    # mu(n) has no value at a real n, and a quantity depends on the instance: the integer rule does
    # not apply (the claim keeps the enumeration's verdict)
    spec = build_spec("mu(n)**2 <= 1", activation="relu", for_=["n in 0..200"])
    assert integers.long_ranges(spec) and not integers.applies(spec)
    assert integers.identity(spec) is None and integers.relaxation(spec, run) is None


def test_a_probability_claim_over_a_spread_subset_does_not_hold():
    # P = 1 > 11/20 at n = 40 only, which the 41 spread values of 1..100 do not contain: proving the
    # bound at the subset is no proof for the range (it held (certified); found by a mutation helper)
    outcome = claim("c(1)*chat(1)*(n - 40)**2 >= 0", family="orthonormal", activation="relu",
                    for_=["k = 1", "n in 1..100"], prob="<= 11/20 over c, c_hat")
    assert outcome.verdict is Verdict.INCONCLUSIVE and "spread subset: n in 1..100" in outcome.evidence
    at_the_point = claim("c(1)*chat(1)*(n - 40)**2 >= 0", family="orthonormal", activation="relu",
                         for_=["k = 1", "n in {40}"], prob="<= 11/20 over c, c_hat")
    assert at_the_point.verdict is Verdict.FAILS
