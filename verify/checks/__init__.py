"""``verify check``: one check per numbered statement of Dayı & Chen, with a verdict and evidence.

Checks live in one module per part of the paper, named by its location
(``sec3_2_orthonormal.py`` for §3.2, ``app_d3_anticoncentration.py`` for App. D.3) and are
found by the statement's number: ``lemma-31`` is registered by the function
decorated ``@check("lemma-31", "Lemma 31", ...)`` in ``app_c1_dynamics.py``.
Importing this package registers all of them in :data:`REGISTRY`.
"""

from __future__ import annotations

import importlib

from verify.checks.core import REGISTRY, Check, Context, check, resolve
from verify.verdict import Basis, FailureKind, Outcome, Verdict

SECTIONS = (
    "sec1_2_setting",  # §1.2: Assumptions 1–5; Theorems 1–3 (informal)
    "sec3_1_population",  # §3, App. D.1: Proposition 4 and the D.1 displays; Remark 20
    "sec3_2_orthonormal",  # §3.2, D.4–D.5: Claim 1, Lemmas 6, 8, Prop. 7, eqs. 7–9, 13, 14
    "app_d3_anticoncentration",  # D.3: Def. 24, Lemmas 25, 26, 28, Claims 3–4, Cor. 27, Props 29–30, eq. 12
    "app_d31_matrix_steps",  # D.3.1–D.3.2: matrix steps of the proofs of Claim 3, Cor. 27, Lemma 28, Prop. 29
    "app_a_activations",  # App. A: Assumption 6, Remarks 9, 10, 14, Theorems 11–13
    "app_b_simulations",  # App. B: the simulations' model and normalisation
    "app_c_scratch",  # App. C: Remark 15, Lemma 17, Claim 2 (+ example), Proposition 18, Theorem 19
    "app_d2_gradients",  # App. D.2: Propositions 21–23 and the sample-gradient display
    "app_c1_dynamics",  # §3.1, C.1, App. E: Thm 5/16, Conditions 1–3, Claims 5–9, Lemmas 31, 33, 34
    "app_e_dynamics_proofs",  # App. E: the E.1 display, Claims 5–9, Lemma 31, Prop. 32, Lemmas 33–34
    "app_d5_series_steps",  # App. D.5.2: series steps of Theorem 7's proof (D.5.2-11, -13, -17 … -21, -27)
    "app_f_global_optima",  # App. F: Example 1, Definition 35, Theorem 36
    "ledger_claims",  # every display the ledger (verify/paper/packs/dayi_chen/ledger.d/) states as a claim
    "definitions",  # objects the paper defines twice or more, compared (ledger.d/definitions.toml)
)


def load_all() -> dict[str, Check]:
    """Every check, in the paper's order: by :data:`SECTIONS`, then as each module defines them.

    The order does not depend on which module imported which first (a check module may import
    another's helpers), so the reports and the README's tables keep their rows in place."""
    for name in SECTIONS:
        try:
            importlib.import_module(f"verify.checks.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"verify.checks.{name}":
                raise
    rank = {f"verify.checks.{name}": i for i, name in enumerate(SECTIONS)}
    ordered = sorted(REGISTRY.items(), key=lambda item: rank.get(item[1].function.__module__, len(rank)))
    REGISTRY.clear()
    REGISTRY.update(ordered)
    return REGISTRY


def run_check(check_id: str, seed: int = 0, full: bool = False) -> Outcome:
    """The :class:`Outcome` of one check, run directly: what ``verify check --only ID`` computes,
    but a crash propagates as an exception (the runner records it instead)."""
    load_all()
    (chk,) = resolve([check_id])
    return chk.finish(chk.function(Context(seed=seed, full=full, check_id=chk.id)))


__all__ = ["REGISTRY", "Basis", "Check", "Context", "FailureKind", "Outcome", "Verdict", "check", "load_all",
           "resolve", "run_check"]
