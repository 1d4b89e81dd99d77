"""How a theorist puts their own statements about the model into CI: one ``assert_claim`` per statement.

``assert_claim`` (:mod:`verify.testing`) runs ``verify claim`` from Python and fails the test with
the verdict, the evidence, the counterexample and a command that reproduces it.  The last test
shows that message for a false statement.
"""

from __future__ import annotations

import pytest

from verify.testing import assert_claim


@pytest.mark.extended
def test_population_gradient_keeps_half_its_initial_size_on_small_instances():
    # Condition 3 (App. C.1) with S_k = |h(0)|/2, proven by ball arithmetic on each instance.
    assert_claim("sign(h(0))*h(sign(h(0))*m) >= abs(h(0))/2", family="orthonormal", activation="relu",
                 for_=["k in 2..4", "xi = 1", "m in [0, 1]"])


def test_glm_limit_of_h_is_twice_the_kernel_derivative():
    # §1.2 / Remark 15: in the GLM h(m) = 2 sum_p p mu_p^2 m^(p-1) = 2 K'(m), an identity in m and xi.
    assert_claim("h(m) == 2*Kp(m)", family="glm", activation=["relu", "he3"],
                 for_=["xi in [1, 10]", "m in [-1, 1]"], seeds=0)


def test_gradient_energy_dominates_the_squared_mean():
    # Jensen: E|grad L|^2 >= |E grad L|^2 = h(m)^2 (1 - m^2), checked by Monte Carlo with standard errors
    # at the points named (a Monte-Carlo claim over a whole range of m is inconclusive: a grid is not
    # a range, issue #48)
    assert_claim("grad_var(m) >= h(m)**2*(1 - m**2)", family="orthonormal", activation="relu",
                 for_=["k in 2..3", "m in {-0.9, 0, 0.9}"], seeds=0)


def test_a_false_statement_fails_with_its_counterexample_in_the_message():
    with pytest.raises(AssertionError) as info:
        assert_claim("h(0) >= C_sigma*xi**2/(k + xi**2)", family="orthonormal", activation="relu",
                     for_=["k in 1..4"])
    message = str(info.value)
    assert "fails" in message and "counterexample:" in message
    assert "rerun: verify claim" in message and "--seeds" in message


def test_a_false_statement_is_a_claim_not_accepted_with_its_verdict():
    from verify.testing import ClaimInconclusive, ClaimNotAccepted

    with pytest.raises(ClaimNotAccepted) as info:
        assert_claim("mu(1) <= 1/2", activation="tanh")
    assert info.value.verdict == "fails" and not isinstance(info.value, ClaimInconclusive)


# A claim the engine cannot decide yet: a strict xfail on ClaimInconclusive keeps CI green while
# it stays undecided, still fails the test on a *fails*, and turns red the day it is decided.
@pytest.mark.xfail(raises=__import__("verify.testing", fromlist=["ClaimInconclusive"]).ClaimInconclusive,
                   strict=True)
def test_an_undecidable_claim_is_an_expected_failure():
    # true (1/sqrt|cos g| has integrable singularities of order -1/2 at pi/2 + n pi, and the
    # Gaussian weight sums them), but existence over infinitely many singular points is beyond the
    # engine today, and a holds needs it proved.  (Eg((1 - cos(g))/g**2) == ... was the example until
    # the Taylor rules for removable singularities decided it.)
    assert_claim("Eg(1/sqrt(Abs(cos(g)))) > 0")


def test_the_helpers_hide_their_own_frames_from_pytest():
    import verify.testing as testing

    for helper in (testing.assert_claim, testing.assert_mpmath_equal):
        assert "__tracebackhide__" in helper.__code__.co_varnames
