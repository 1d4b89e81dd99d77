"""The checks' claimed_* hooks perturbed: a known-false formula must not hold (verify/perturb.py)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy

from verify import perturb


def test_scaled_multiplies_every_number_and_shifts_integers():
    eps = sympy.Rational(1, 10**13)
    assert perturb.scaled(2.0, eps) == 2.0 * (1 + 1e-13)
    assert perturb.scaled(3, eps) == sympy.Rational(7, 2)  # an exponent changed by 1/2
    assert perturb.scaled(Fraction(1, 3), eps) == Fraction(1, 3) * (1 + Fraction(1, 10**13))
    assert perturb.scaled(sympy.Symbol("k"), eps) == sympy.Symbol("k") * (1 + eps)
    assert perturb.scaled({"a": (1.0, True)}, eps) == {"a": (1.0 * (1 + 1e-13), True)}
    assert np.allclose(perturb.scaled(np.ones(2), eps), 1 + 1e-13, rtol=0, atol=0)


@pytest.mark.parametrize("check_id", ["definition-24", "assumption-4", "d1-overlaps", "eq-14"])
def test_an_identity_off_by_1e_13_fails(check_id):
    results = perturb.run_all(levels=(13,), only=(check_id,))
    assert results and all(r.truth is False for r in results)
    assert all(r.verdict == "fails" for r in results), results


@pytest.mark.slow
def test_no_known_false_perturbation_holds_in_any_check():
    results = perturb.run_all(workers=2)
    bad = [r for r in results if r.truth is False and r.verdict in ("holds", "consistent", "error")]
    assert not bad
