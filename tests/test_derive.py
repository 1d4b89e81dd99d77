"""Generated derivations: deterministic, up to date, and able to say "differs"."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sympy

from verify.derive import DERIVATIONS, HEADER, hermite_relu, render, stale, write_all

REPO_DERIVATIONS = Path(__file__).resolve().parent.parent / "derivations"


@pytest.mark.slow  # CI runs `verify derive --check`, the same comparison, after the tests
def test_committed_derivations_are_up_to_date():
    assert stale(REPO_DERIVATIONS) == []


@pytest.mark.slow  # rebuilds every derivation in a second interpreter (about a minute)
def test_rendering_is_deterministic_across_processes():
    """A fresh interpreter with another hash seed (set and dict order of SymPy objects can
    follow string hashes) rebuilds every file byte for byte.  ``render`` caches per process,
    so comparing two calls here would compare a string with itself."""
    names = [m.__name__ for m in DERIVATIONS]
    program = ("import json, sys; from verify.derive import _build; "
               "json.dump({n: _build(n) for n in sys.argv[1:]}, sys.stdout)")
    env = dict(os.environ, PYTHONHASHSEED="12345")
    fresh = subprocess.run([sys.executable, "-c", program, *names], capture_output=True, text=True,
                           env=env, timeout=600, check=True)
    rebuilt = json.loads(fresh.stdout)
    for module in DERIVATIONS:
        assert render(module).startswith(HEADER)
        assert rebuilt[module.__name__] == render(module), module.FILENAME


@pytest.mark.extended
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


@pytest.mark.extended
def test_new_derivations_verdicts():
    """The verdicts reported in derivations/: which printed formulas differ."""
    from verify.derive import even_odd, glm_limit, orthonormal, xi_one

    st = orthonormal.setting()
    h = verify_h(st)
    verdicts = [r[0] for _, r in even_odd.comparisons(st, h)]
    assert verdicts == ["differs", "equal", "equal", "equal", "equal", "equal"]
    assert orthonormal.theorem_6_constant(st, h)[1][0] == "differs"
    assert all(r[0] == "equal" for _, r in orthonormal.t_comparisons(st, h))
    xi = [r[0] for _, r in xi_one.comparisons(xi_one.setting())]
    assert xi == ["equal", "differs", "differs", "differs", "differs", "equal", "equal", "differs",
                  "equal", "equal", "equal"]
    general, specific, _, _ = glm_limit.comparisons()
    assert [r[0] for _, r in general + specific] == ["equal"] * 3 + ["differs", "differs", "equal",
                                                                     "equal"]


def verify_h(st):
    from verify.derive import model

    return model.h(st)


@pytest.mark.extended
def test_injected_typos_in_the_new_claims_are_reported(monkeypatch):
    """A factor 2, a dropped μ-term or a wrong T in a claim must turn "equal" into "differs"."""
    from verify.derive import even_odd, lazy_limit, model, orthonormal, xi_one

    st = orthonormal.setting()
    h = model.h(st)
    original_7 = even_odd.eq_7
    monkeypatch.setattr(even_odd, "eq_7", lambda s: 2 * original_7(s))
    assert [r[0] for _, r in even_odd.comparisons(st, h)][2] == "differs"
    original_sums = orthonormal.sums

    def wrong_norm(s):
        out = dict(original_sums(s))
        out["norm2"] = out["sum_lam"] ** 2  # ‖λ‖² typed as (Σλ)²
        return out

    monkeypatch.setattr(orthonormal, "sums", wrong_norm)
    t = dict(orthonormal.t_comparisons(st, h))
    assert sum(r[0] == "differs" for r in t.values()) == 2
    xs = xi_one.setting()
    derived = xi_one.derived_h(xs)
    assert model.compare(derived, xi_one.printed_series(xs, 2), xs)[0] == "equal"
    assert model.compare(derived, xi_one.printed_series(xs, 3), xs)[0] == "differs"
    ls = model.Setting(neurons=2)
    original_lin = lazy_limit.linearised_loss
    monkeypatch.setattr(lazy_limit, "linearised_loss", lambda s: original_lin(s).subs(s.m, 0))
    assert [r[0] for _, r in lazy_limit.comparisons(ls, model.h(ls))][1:3] == ["differs", "differs"]


@pytest.mark.extended
def test_loss_whole_gram_verdicts(monkeypatch):
    """k = 2: every D.1 display is equal except the one with (1/(1+ξ²))^p; a typo in Prop. 4's
    T(l,s) (odd l with the even-l form) is caught at the whole-G level."""
    from verify.derive import claims, loss

    st = loss.setting(2)
    verdicts = [r[0] for _, r in loss.comparisons(st)]
    assert verdicts == ["equal"] * 4 + ["differs"] + ["equal"] * 2
    original = claims.prop_4_T
    monkeypatch.setattr(claims, "prop_4_T", lambda l, s, st_: original(l + 1 if l == 3 else l, s, st_))
    assert loss.comparisons(st)[-1][1][0] == "differs"
