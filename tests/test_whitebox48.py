"""The white-box statements of issue #48 (tests/calibration/corpus/engine_whitebox48.toml), each
written against one rule's hypothesis: no false one may hold or be consistent, no true one may
fail, and the decided ones must stay decided (their verdict is pinned here)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from verify.calibration import _statement
from verify.claims import claim

CORPUS = Path(__file__).resolve().parent / "calibration" / "corpus" / "engine_whitebox48.toml"
STATEMENTS = [_statement(entry, f"entry {i}", CORPUS.name)
              for i, entry in enumerate(tomllib.loads(CORPUS.read_text(encoding="utf-8"))["statement"])]
#: Statements the engine does not decide today (sound, not yet powerful enough): expected inconclusive.
UNDECIDED = {"wb48-grid-probability-between-points", "wb48-fit-log-log-sum",
             "wb48-prob-cancellation-inner-variable", "wb48-exist-oscillating-denominator-positive",
             "wb48-exist-oscillating-denominator-odd", "wb48-exist-oscillating-denominator-self",
             "wb48-order-oscillating-denominator-O", "wb48-order-oscillating-denominator-Theta",
             "wb48-order-negative-power-base", "wb48-log-rational-half-line",
             "wb48-probability-spread-subset", "wb48-float-quadrature-huge-argument",
             # an operation without a value on part of the range: never holds, not refused either
             "wb48-domain-sqrt-square-negative", "wb48-domain-exp-log-left-half-line",
             "wb48-domain-removable-quotient-integers",
             # 63 switch points: more pieces than the branches step cuts (MAX_PIECES)
             "wb48-branches-many-switches",
             # contact along a cross of two lines (u = 0 and v = 0), which the contact step does not take
             "wb48-contact-axis-cross-product",
             # false only within 10^-30 beyond the irrational touch: no witness found, none held
             "wb48-touch-irrational-end-beyond",
             # x**(x - 1) undefined at x = 0: the operations guard refutes the hypothesis of *holds*
             "wb48-domain-variable-exponent",
             # x**y <= 1 touches along x = 1 and has no ball at x = 0: the guard lets it through, the
             # prover does not decide it
             "wb48-domain-variable-exponent-positive",
             # K(3/2) put in by a quantifier: the statistical step's *consistent* lacks a hypothesis
             "wb48-mc-kernel-argument-out",
             # factorial(10**6) is not computed (5.6 million digits): that configuration is undecided
             "wb48-factorial-huge-true"}
#: True statements only Monte Carlo measures (grad_var): expected consistent.
CONSISTENT = {"wb48-mc-kernel-argument-in"}


@pytest.mark.parametrize("statement", STATEMENTS, ids=[s.id for s in STATEMENTS])
def test_whitebox_statement(statement):
    outcome = claim(statement.claim, **statement.keywords())
    verdict = outcome.verdict.value
    if statement.id in UNDECIDED:
        assert verdict == "inconclusive", outcome.evidence
    elif statement.id in CONSISTENT:
        assert verdict == "consistent", outcome.evidence
    elif statement.truth:
        assert verdict == "holds", outcome.evidence
    else:
        assert verdict == "fails", outcome.evidence


def test_a_float_violation_no_ball_confirms_refutes_nothing():
    """White box (a hand-made mutant survived every statement, since the exact and certified steps
    decide them first): the search's confirm() turns a float64 violation into *fails* only when the
    balls confirm it."""
    from types import SimpleNamespace

    import sympy

    from verify.claims.universal import confirm

    x = sympy.Symbol("x", real=True)
    for ball_verdict, expected in (("undecided", "inconclusive"), ("holds", "inconclusive"), ("fails", "fails")):
        rel = SimpleNamespace(act=object(), setting=SimpleNamespace(model=None),
                              box={x: (sympy.Integer(0), sympy.Integer(1))},
                              certified_check=lambda point, v=ball_verdict: v)
        decision = confirm(rel, {x: 0.5}, lambda point: True, {"worst_violation": 0.3})
        assert decision.status == expected, (ball_verdict, decision.detail)
        assert decision.status != "fails" or str(decision.basis) == "certified"
