"""What decided each verdict (:class:`~verify.verdict.Basis`), pinned for fast checks.

Running all the checks takes minutes, so the pins cover a subset of checks that each
run in well under 3 s (seed 0, quick run) and together cover every basis a quick run
produces (``high-precision`` no longer decides any verdict: remark-10-display, the last
one, is certified).  The pins include the verdict, because the basis belongs to the branch
that produced it: a changed verdict means the basis must be audited again.
"""

from __future__ import annotations

import pytest

from verify.checks import REGISTRY, load_all, run_check
from verify.verdict import Basis, Verdict, method_basis

load_all()

C, E, N, S, X = Basis.CERTIFIED, Basis.EXACT, Basis.NUMERICAL, Basis.STATISTICAL, Basis.NONE

#: check id -> (verdict, basis) at seed 0, quick run; the comment says what decides it.
PINNED = {
    "d1-parity": (Verdict.HOLDS, E),  # SymPy rationals over every case
    "claim-2-example": (Verdict.FAILS, E),  # Fractions
    "claim-4-proof": (Verdict.FAILS, E),  # Fractions
    "remark-9": (Verdict.FAILS, E),  # the rational example decides, not the float search
    "remark-14": (Verdict.FAILS, E),  # SymPy decides; the Monte Carlo only corroborates
    "remark-15": (Verdict.FAILS, E),  # a SymPy limit; the float64 closed form supports the correction
    "theorem-13": (Verdict.FAILS, E),  # SymPy schedule ratios
    "remark-10-display": (Verdict.FAILS, C),  # |tanh 1|^2 = 0.58 as a ball against the printed integral 0
    "assumption-1": (Verdict.CONSISTENT, C),  # float64 tolerances re-decided in balls: a proxy, so consistent
    "definition-24": (Verdict.HOLDS, C),  # every input enumerated; Var(Q) - sum a_S^2 in balls
    "eq-12": (Verdict.HOLDS, C),  # SymPy identity; Q PSD by an LDL^T in balls (all pivots > 0)
    "proposition-30": (Verdict.CONSISTENT, C),  # exact laws in integers, excesses over gamma^(1/2) in balls
    "proposition-4-projection": (Verdict.FAILS, C),  # exact gradient by Taylor arithmetic in balls
    "d4-claim-1-proof": (Verdict.FAILS, C),  # exact chain holds; Pr = 1 > the tail bound's ball
    "lemma-31": (Verdict.FAILS, C),  # exact tail probability, its log against the bound in balls
    "theorem-12": (Verdict.HOLDS, E),  # SymPy schedule and a SymPy proof of the probability term on (0, 1]
    "claim-5": (Verdict.INCONCLUSIVE, N),  # a search on sampled trajectories: finding nothing proves nothing
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


def test_pins_cover_every_basis_a_quick_run_produces():
    assert {basis for _, basis in PINNED.values()} == set(Basis) - {Basis.HIGH_PRECISION}
    assert set(PINNED) <= set(REGISTRY)


@pytest.mark.parametrize("check_id", sorted(PINNED))
def test_basis_is_pinned(check_id):
    outcome = run_check(check_id, seed=0)
    verdict, basis = PINNED[check_id]
    assert (outcome.verdict, outcome.basis) == (verdict, basis), (
        f"{check_id}: got {outcome.verdict.value}/{outcome.basis}; "
        "re-audit what decides it before updating the pin")
