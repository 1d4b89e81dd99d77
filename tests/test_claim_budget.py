"""The decision steps' CPU allowances (verify/claims/steps.py), checked without timing anything:
each configuration has its own allowance per step, and a claim's configurations share a pot."""

from __future__ import annotations

from verify.claims import steps

SYMBOLIC = next(s for s in steps.STEPS if s.name == "symbolic")


def test_an_earlier_configuration_does_not_take_a_later_ones_allowance():
    budget = steps.Budget(full=False)
    limit = budget.limit(SYMBOLIC)
    # more than one allowance spent by earlier configurations (tanh and sigmoid spend 5.5 of 6 CPU s
    # on Stein's identity on a quiet machine, more on a loaded one); a shared allowance skipped the next
    budget.spent["symbolic"] = 1.1 * limit
    assert budget.allows(SYMBOLIC)
    assert budget.deadline(SYMBOLIC) >= limit  # the pot's rest, and half an allowance more
    budget.spent["symbolic"] = 0.0
    assert budget.deadline(SYMBOLIC) == limit + limit / 2  # its allowance and half more, never the pot


def test_the_pot_bounds_a_claim_with_many_configurations():
    budget = steps.Budget(full=False)
    limit = budget.limit(SYMBOLIC)
    budget.spent["symbolic"] = steps.POT * limit
    assert not budget.allows(SYMBOLIC)
    budget.spent["symbolic"] = steps.POT * limit - 1.0
    assert budget.allows(SYMBOLIC) and budget.deadline(SYMBOLIC) == 1.0 + limit / 2
