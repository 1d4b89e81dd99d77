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
