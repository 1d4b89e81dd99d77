"""What decided each verdict (:class:`~verify.checks.core.Basis`), pinned for fast checks.

Running all 86 checks takes minutes, so the pins cover a subset of checks that each
run in well under 3 s (seed 0, quick run) and together cover every basis except
``certified``.  The pins include the verdict, because the basis belongs to the branch
that produced it: a changed verdict means the basis must be audited again.
"""

from __future__ import annotations

import pytest

from verify.checks import REGISTRY, load_all, run_check
from verify.checks.core import Basis, Verdict, method_basis

load_all()

E, H, N, S, X = Basis.EXACT, Basis.HIGH_PRECISION, Basis.NUMERICAL, Basis.STATISTICAL, Basis.NONE

#: check id -> (verdict, basis) at seed 0, quick run; the comment says what decides it.
PINNED = {
    "d1-parity": (Verdict.HOLDS, E),  # SymPy rationals over every case
    "claim-2-example": (Verdict.FAILS, E),  # Fractions
    "claim-4-proof": (Verdict.FAILS, E),  # Fractions
    "remark-9": (Verdict.FAILS, E),  # the rational example decides, not the float search
    "remark-14": (Verdict.FAILS, E),  # SymPy decides; the Monte Carlo only corroborates
    "remark-15": (Verdict.FAILS, E),  # a SymPy limit; the float64 closed form supports the correction
    "theorem-13": (Verdict.FAILS, E),  # SymPy schedule ratios
    "remark-10-display": (Verdict.FAILS, H),  # mpmath at 30 digits
    "assumption-1": (Verdict.HOLDS, N),  # method says "exact", but float64 tolerances decide
    "definition-24": (Verdict.HOLDS, N),  # enumerates every input, but float64 against 1e-12
    "eq-12": (Verdict.HOLDS, N),  # SymPy identity, but Q PSD only by float64 eigenvalues
    "proposition-30": (Verdict.CONSISTENT, N),  # exact laws evaluated in float64
    "proposition-4-projection": (Verdict.FAILS, N),  # float64 finite differences
    "d4-claim-1-proof": (Verdict.FAILS, N),  # exact chain holds; the failing tail is compared in float64
    "lemma-31": (Verdict.FAILS, N),  # exact tail probabilities, logs compared in float64
    "theorem-12": (Verdict.HOLDS, N),  # SymPy schedule, probability term on a grid of xibar only
    "claim-5": (Verdict.HOLDS, N),  # a deterministic inequality on sampled trajectories: a search
    "appendix-b-threshold": (Verdict.CONSISTENT, S),  # exponent fits
    "proposition-22": (Verdict.CONSISTENT, S),  # Monte Carlo and fits
    "proposition-7": (Verdict.CONSISTENT, S),  # sampling and fits
    "lemma-25": (Verdict.CITED, X),
    "lemma-26": (Verdict.CITED, X),
    "e1-update-display": (Verdict.FAILS, X),  # a type argument; nothing computed decides it
}


def test_every_method_string_parses():
    for c in REGISTRY.values():
        assert isinstance(method_basis(c.method), Basis), c.id


def test_method_basis_is_the_weakest_part():
    assert method_basis("symbolic") is Basis.EXACT
    assert method_basis("symbolic + high-precision") is Basis.HIGH_PRECISION
    assert method_basis("exact enumeration + search") is Basis.NUMERICAL
    assert method_basis("exact + sampling") is Basis.STATISTICAL
    assert method_basis("sampling (exact law of c, ĉ)") is Basis.STATISTICAL  # a remark is not a method
    assert method_basis("cited + exact") is Basis.EXACT  # "cited" adds nothing
    assert method_basis("cited") is Basis.NONE


def test_pins_cover_every_basis_but_certified():
    assert {basis for _, basis in PINNED.values()} == set(Basis) - {Basis.CERTIFIED}
    assert set(PINNED) <= set(REGISTRY)


@pytest.mark.parametrize("check_id", sorted(PINNED))
def test_basis_is_pinned(check_id):
    outcome = run_check(check_id, seed=0)
    verdict, basis = PINNED[check_id]
    assert (outcome.verdict, outcome.basis) == (verdict, basis), (
        f"{check_id}: got {outcome.verdict.value}/{outcome.basis}; "
        "re-audit what decides it before updating the pin")
