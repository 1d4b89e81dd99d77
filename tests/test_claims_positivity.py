"""E[f(g)] > 0 from the sign of f alone (verify/claims/positivity.py), and the statements that
reach the rule while breaking one of its hypotheses.

Truth: 1/sqrt|log|g|| and 1/(|g|(1 + log²|g|)) are positive and integrable (existence step), so
their expectations are positive; Max(0, sin(g) - 2) is 0 everywhere; g³ is odd (E = 0); the
expectation of 1/|g| does not exist."""

from __future__ import annotations

import pytest
import sympy

from verify.claims import claim
from verify.claims.language import GAUSSIAN as g
from verify.claims.positivity import nonnegative


@pytest.mark.parametrize(("text", "verdict"), [
    ("Eg(1/sqrt(Abs(log(Abs(g))))) > 0", "holds"),
    ("Eg(1/(Abs(g)*(1 + log(Abs(g))**2))) > 0", "holds"),
    ("0 < Eg(exp(-1/Abs(g)))", "holds"),
    ("Eg(1/sqrt(Abs(log(Abs(g))))) >= -1", "holds"),
    ("Eg(1/sqrt(Abs(log(Abs(g))))) < 0", "fails"),
    ("Eg(1/sqrt(Abs(log(Abs(g))))) <= -1/10", "fails"),
    # reaches the rule, breaks a hypothesis
    ("Eg(g**3) > 0", "fails"),                     # not nonnegative: E = 0
    ("Eg(1/Abs(g)) > 0", "fails"),                 # nonnegative, but E|f| = oo
])
@pytest.mark.extended
def test_positivity_verdicts(text, verdict):
    assert claim(text).verdict.value == verdict


def test_a_nonnegative_function_that_vanishes_everywhere_never_holds():
    # Max(0, sin(g) - 2) is 0 everywhere (SymPy does not see it): nonnegative by structure, but no
    # point where it is positive, so the rule does not apply (E = 0)
    assert claim("Eg(Max(0, sin(g) - 2)) > 0").verdict.value != "holds"


def test_nonnegative_reads_structure_not_numbers():
    assert nonnegative(sympy.Abs(g) + sympy.exp(g) * (g - 1) ** 2)
    assert nonnegative(1 / sympy.sqrt(sympy.Abs(sympy.log(sympy.Abs(g)))))
    assert not nonnegative(g**3)
    assert not nonnegative(-sympy.Abs(g))
    assert not nonnegative(sympy.log(1 + g**2) - 1)
    assert not nonnegative(sympy.sqrt(2) - 1 + sympy.cos(g))  # >= 0.41 - 1 < 0 somewhere
