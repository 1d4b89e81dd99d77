"""The functions issue #48 added to the claim language (Gamma, sech, floor, ceil, the normal cdf and
density, factorial of an integer variable), each evaluated exactly, in float64 and in balls, and the
exact identities of hyperbolic and inverse trigonometric functions."""

from __future__ import annotations

import pytest

from verify.base.errors import VerifyInputError
from verify.claims import claim


@pytest.mark.parametrize(("text", "for_", "verdict"), [
    # min of Gamma on [1, 3] is 0.8856 at x = 1.4616 (certified, so decided by balls of gamma)
    ("Gamma(x) >= 88/100", ["x in [1, 3]"], "holds"),
    ("Gamma(x) >= 89/100", ["x in [1, 3]"], "fails"),
    ("normal_pdf(x) <= 1/sqrt(2*pi)", ["x in [-3, 3]"], "holds"),
    ("normal_cdf(x) <= 1/2 + x/sqrt(2*pi)", ["x in [0, 3]"], "holds"),    # concave on x >= 0
    ("normal_cdf(x) <= 1/2 + x/(3*sqrt(2*pi))", ["x in [0, 3]"], "fails"),
    ("factorial(n) >= 2**(n - 1)", ["n in 1..20"], "holds"),
    ("factorial(n) >= 2**n", ["n in 1..20"], "fails"),                   # 1! = 1 < 2
    ("sech(x)**2 + tanh(x)**2 == 1", ["x in [-2, 2]"], "holds"),
    ("sech(x)**2 + tanh(x)**2 == 1 + x/10**12", ["x in [-2, 2]"], "fails"),
    ("floor(x) + ceil(x) >= 3", ["x in [3/2, 7/4]"], "holds"),
    ("floor(x) <= x - 1/2", ["x in [1, 2]"], "fails"),
])
def test_new_functions(text, for_, verdict):
    outcome = claim(text, for_=for_)
    assert outcome.verdict.value == verdict, outcome.evidence


@pytest.mark.parametrize(("text", "options", "verdict"), [
    ("asinh(sqrt(2)) == log(sqrt(2) + sqrt(3))", {}, "holds"),
    ("asinh(sqrt(2)) == log(sqrt(2) + sqrt(3)) + 10**-40", {}, "fails"),
    ("K(1) == 2/pi*atan(2/sqrt(5))", {"activation": "erf"}, "holds"),     # asin(2/3) = atan(2/sqrt(5))
    ("K(1) == 2/pi*atan(2/sqrt(5)) + 10**-30", {"activation": "erf"}, "fails"),
    ("Eg(normal_cdf(g)) == 1/2", {}, "holds"),
    ("Eg(g*normal_cdf(g)) == 1/(2*sqrt(pi))", {}, "holds"),               # Stein: E[phi(g)]
])
def test_exact_identities(text, options, verdict):
    outcome = claim(text, **options)
    assert outcome.verdict.value == verdict, outcome.evidence


@pytest.mark.parametrize(("text", "message"), [
    ("factorial(x) >= 1", "factorial needs an integer argument"),
    ("factorial(500) >= 1", "must be in"),
    ("Gamma(1000) >= 1", "real argument in"),
])
def test_out_of_domain_arguments_are_one_line(text, message):
    with pytest.raises(VerifyInputError, match=message):
        claim(text, for_=["x in [1, 2]"] if "x" in text else ())
