"""Every refusal of a claim names the problem and the fix (issue 53): a table of the mistakes a new
user makes, each with the hint its one-line error must carry."""

from __future__ import annotations

import pytest

from verify.base.errors import MalformedExpressionError
from verify.claims.spec import build_spec

CASES = [
    # a model variable without its quantifier: the --for to add
    ("h(m) >= 0", "--for 'm in [-1, 1]'"),
    ("Kp(rho) >= 0", "--for 'rho in [-1, 1]'"),
    # = for ==
    ("Eg(dsigma(g)) = 1/2", "write == for equality"),
    # LaTeX read as the claim language (--latex off), and what to write instead
    ("E[sigma'(g)] == 1/2", "sigma'(g) is dsigma(g)"),
    ("E[sigma'(g)] == 1/2", "E[f(g)] is Eg(f(g))"),
    (r"\mathbb{E}_g[\sigma(g)] = \tfrac12", r"\mathbb{E}_g[f(g)] is Eg(f(g))"),
    (r"\mathbb{E}_g[\sigma(g)] = \tfrac12", r"\frac{a}{b} is a/b"),
    (r"\mu_1 \le 1", r"\mu_p is mu(p)"),
    (r"\mu_1 \le 1", r"\le is <="),
    ("E[h(0)] == 1", "written Eg(f(g)), not E[...]"),
    # misspelt names and functions: the closest
    ("mu(1) == 1/2 + xii", "did you mean 'xi'?"),
    ("muu(1) == 1/2", "did you mean 'mu'?"),
    ("Eg(sigm(g)) == 0", "did you mean 'sigma'"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_a_refused_claim_says_what_to_write_instead(text, expected):
    with pytest.raises(MalformedExpressionError) as refused:
        build_spec(text, activation=["relu"], latex=False)
    message = str(refused.value)
    assert expected in message
    assert "\n" not in message  # still one line


def test_a_claim_with_no_mistake_gets_no_hint_and_a_bad_one_keeps_its_own_message():
    build_spec("mu(1) == 1/2", activation=["relu"])
    with pytest.raises(MalformedExpressionError, match=r"cannot parse 'mu\(1\) == 1/2 \+' \(invalid syntax\)$"):
        build_spec("mu(1) == 1/2 +", activation=["relu"])


def test_a_misspelt_activation_or_family_gets_the_closest_names():
    from verify.base.errors import VerifyInputError

    with pytest.raises(VerifyInputError, match=r"unknown activation 'rellu'; did you mean 'relu'"):
        build_spec("mu(1) == 1/2", activation=["rellu"])
    with pytest.raises(VerifyInputError, match=r"unknown family 'orthonormall'; did you mean 'orthonormal'\?"):
        build_spec("h(0) >= 0", family=["orthonormall"], activation=["relu"])


@pytest.mark.parametrize(("text", "reading"), [(r"\mathbb{E}_g[\sigma(g)] = \tfrac12", "Eg(sigma(g)) == 1/2"),
                                               (r"\mu_1 \le 1", "mu(1) <= 1")])
def test_latex_that_the_claim_language_refuses_is_read_as_latex_by_default(text, reading):
    assert build_spec(text, activation=["relu"]).claim.text == reading


def test_a_margin_below_the_balls_resolution_is_the_reason_given():
    """Eg(tanh(g)/g) = 0.82199856438210871790015211366340445400784745740877…: a bound 1e-45 above
    it is true, but the certified quadrature's ball is ~1e-37 wide.  The claim is inconclusive and
    says why with the ball's size, not "balls do not decide an equality" (it is an inequality)."""
    from verify.claims import claim

    outcome = claim("Eg(tanh(g)/g) <= 821998564382108717900152/10**24 + 113663404454007847457408/10**48"
                    " + 1/10**45")
    assert outcome.verdict.value == "inconclusive"
    assert "the ball of lhs - rhs contains 0 (its radius is" in outcome.evidence
    assert "a margin narrower than that is not resolved" in outcome.evidence
    assert "do not decide an equality" not in outcome.evidence
    assert "undecided at its one configuration" in outcome.evidence
