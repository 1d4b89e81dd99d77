"""Generated derivations: deterministic, up to date, and able to say "differs"."""

from __future__ import annotations

from pathlib import Path

import sympy

from verify.derive import DERIVATIONS, HEADER, hermite_relu, render, stale, write_all

REPO_DERIVATIONS = Path(__file__).resolve().parent.parent / "derivations"


def test_committed_derivations_are_up_to_date():
    assert stale(REPO_DERIVATIONS) == []


def test_rendering_is_deterministic():
    for module in DERIVATIONS:
        assert render(module) == render(module)
        assert render(module).startswith(HEADER)


def test_check_detects_an_edit(tmp_path):
    write_all(tmp_path)
    assert stale(tmp_path) == []
    target = tmp_path / DERIVATIONS[0].FILENAME
    target.write_text(target.read_text() + "edited\n")
    assert stale(tmp_path) == [DERIVATIONS[0].FILENAME]


def test_a_wrong_claim_is_reported_as_differs(monkeypatch):
    """Inject a typo into the claimed relu formula: the derivation must say 'differs'."""
    original = hermite_relu.claimed_relu

    def typo(p):
        return original(p) * (2 if p == 4 else 1)

    monkeypatch.setattr(hermite_relu, "claimed_relu", typo)
    text = hermite_relu.build()
    row = next(line for line in text.splitlines() if line.startswith("| 4 |"))
    assert "differs" in row
    assert sympy.latex(original(4)) not in row.split("|")[3]


def test_prop_4_series_equals_the_derivation_and_d1_display_differs():
    from verify.derive import prop_4

    derived = prop_4.derived_pair_h()
    assert prop_4.compare(derived, prop_4.claimed_pair_h_series())[0] == "equal"
    verdict, witness = prop_4.compare(derived, prop_4.claimed_d1_display())
    assert verdict == "differs"
    k = prop_4.symbols()[1]
    assert sympy.simplify(witness.subs(k, 1)) == 0  # the two agree only when k = 1


def test_injected_errors_in_prop_4_are_reported(monkeypatch):
    """A dropped factor 2, 1 + ξ² for 1 + ξ²/k, or an off-by-one in the series index must differ."""
    from verify.derive import prop_4

    derived = prop_4.derived_pair_h()
    claim = prop_4.claimed_pair_h_series()
    _, k, m = prop_4.symbols()[:3]
    mutants = [
        claim / 2,
        sympy.expand(claim.subs(k, 1)),  # every /k dropped, e.g. 1 + ξ² for 1 + ξ²/k
        sympy.expand(claim * m),  # every power of m shifted by one
    ]
    for mutant in mutants:
        assert prop_4.compare(derived, mutant)[0] == "differs"
