"""Real variables over unbounded ranges (verify.claims.unbounded): proofs on the whole range, a
counterexample from the window, and never a window's proof reported as a proof on the range."""

from __future__ import annotations

import pytest

from verify.claims import claim
from verify.claims.quantifiers import LINE_WINDOW, QuantifierError, parse_quantifier
from verify.verdict import Basis, Verdict


@pytest.mark.parametrize(("text", "low", "high", "unbounded"), [
    ("z in R", -LINE_WINDOW, LINE_WINDOW, (True, True)),
    ("z in (-oo, oo)", -LINE_WINDOW, LINE_WINDOW, (True, True)),
    ("z in [1/2, oo)", 0.5, 0.5 + 2 * LINE_WINDOW, (False, True)),
    ("z in (-oo, 3]", 3 - 2 * LINE_WINDOW, 3, (True, False)),
])
def test_an_unbounded_range_reads_with_its_window(text, low, high, unbounded):
    q = parse_quantifier(text)
    assert (float(q.low), float(q.high), q.unbounded) == (low, high, unbounded)


def test_an_identity_holds_on_the_whole_line():
    outcome = claim("cosh(z)**2 - sinh(z)**2 == 1", for_="z in R")
    assert outcome.verdict is Verdict.HOLDS and outcome.basis is Basis.EXACT
    assert "every real point of z in (-oo, oo)" in outcome.scope


def test_a_rational_inequality_is_proved_by_its_real_roots():
    assert claim("z/(z**2 + 1) <= 1/2", for_="z in R").verdict is Verdict.HOLDS
    assert claim("z**2 >= 0", for_="z in (-oo, 0]").verdict is Verdict.HOLDS


def test_a_counterexample_inside_the_window_fails_the_claim():
    outcome = claim("exp(z) >= 1 + z + z**2/2", for_="z in R")
    assert outcome.verdict is Verdict.FAILS
    assert "window z in [-10, 10]" in outcome.evidence


@pytest.mark.parametrize("text", [
    "z**3 >= -1000",  # fails at z = -11, holds on [-10, 10] (touching at -10)
    "1/(z**2 - 400) >= -1",  # fails near the pole z = 20, holds on [-10, 10]
])
def test_a_proof_on_the_window_is_not_a_proof_on_the_line(text):
    outcome = claim(text, for_="z in R")
    assert outcome.verdict is Verdict.INCONCLUSIVE
    assert "no proof covers the range beyond it" in outcome.evidence


def test_a_true_transcendental_inequality_stays_inconclusive():
    # exp(z) >= 1 + z holds everywhere, but only the window [-10, 10] is proved
    assert claim("exp(z) >= 1 + z", for_="z in R").verdict is Verdict.INCONCLUSIVE


def test_a_side_complex_on_the_line_is_no_proof():
    # log(z) is complex for z < 0: the identity method needs both sides real on the whole line
    assert claim("log(z) <= z - 1", for_="z in [1, oo)").verdict is Verdict.INCONCLUSIVE


@pytest.mark.parametrize(("text", "ranges", "message"), [
    ("h(m) >= 0", "m in R", "names no quantity of the model"),
    ("xi >= 0", "xi in [1, oo)", "parameter of the instance"),
])
def test_unbounded_ranges_are_refused_where_they_cannot_be_decided(text, ranges, message):
    with pytest.raises(QuantifierError, match=message):
        claim(text, family="glm", for_=ranges)


def test_latex_reads_the_real_line_and_a_half_line():
    whole = claim(r"\operatorname{erf}(-z) = -\operatorname{erf}(z) \quad \forall z \in \mathbb{R}")
    assert whole.verdict is Verdict.HOLDS and whole.parameters["claim"] == "erf(-z) == -erf(z)"
    half = claim(r"z \ge 0 \quad z \in [0, \infty)")
    assert half.verdict is Verdict.HOLDS
