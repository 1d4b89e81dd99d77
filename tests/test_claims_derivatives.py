"""``diff(EXPR, VAR[, n])`` in the claim language (issue #48, item 3): derivatives of the model's
quantities through their closed forms, sigma's derivatives inside Eg through the activation's own
formula, and refusals in one line for what has no derivative."""

from __future__ import annotations

import pytest

from verify.base.errors import VerifyInputError
from verify.claims import claim


@pytest.mark.parametrize(("text", "options", "verdict"), [
    # E[tanh''] = 0 (tanh'' is odd); softplus'' = sigmoid' > 0 everywhere, E = 0.2066
    ("Eg(diff(sigma(g), g, 2)) == 0", {"activation": "tanh"}, "holds"),
    ("Eg(diff(sigma(g), g, 2)) == 0", {"activation": "softplus"}, "fails"),
    ("Eg(diff(sigma(g), g)) == Eg(dsigma(g))", {"activation": "gelu"}, "holds"),
    # on glm, h = 2K'(m) (times the instance's scale): K' of erf is even and increasing on [0, 1]
    ("diff(h(m), m) >= 0", {"family": "glm", "activation": "erf", "for_": ["m in [0, 1]"]}, "holds"),
    ("diff(h(m), m) >= 0", {"family": "glm", "activation": "erf", "for_": ["m in [-1, 0]"]}, "fails"),
    ("diff(K(rho), rho) == Kp(rho)", {"activation": "erf", "for_": ["rho in [-1, 1]"]}, "holds"),
    ("diff(K(rho), rho) == Kp(rho) + rho/10**9", {"activation": "erf", "for_": ["rho in [0, 1]"]}, "fails"),
    # a series kernel has no closed-form derivative yet: nothing is decided, nothing crashes
    ("diff(h(m), m) >= 0", {"family": "glm", "activation": "tanh", "for_": ["m in [0, 1]"]}, "inconclusive"),
])
def test_derivatives_are_decided_through_closed_forms(text, options, verdict):
    outcome = claim(text, **options)
    assert outcome.verdict.value == verdict, outcome.evidence


@pytest.mark.parametrize(("text", "message"), [
    ("diff(K(rho), 2) >= 0", "must be a variable name"),
    ("diff(K(rho), rho, 0) >= 0", "order of diff must be an integer"),
    ("diff(K(rho), rho, 99) >= 0", "order of diff must be an integer"),
    ("Eg(diff(sigma(g), g, 2)) == 0", "Dirac delta"),    # relu'' is a Dirac delta at 0
])
def test_a_derivative_that_does_not_exist_is_refused_in_one_line(text, message):
    with pytest.raises(VerifyInputError, match=message):
        claim(text, activation="relu", for_=["rho in [0, 1]"] if "rho" in text else ())
