"""The Dayı–Chen pack's coded checks: one module per part of the paper.

Each module is named by its location (``sec3_2_orthonormal`` for §3.2, ``app_d3_anticoncentration``
for App. D.3) and registers its checks with :func:`verify.checks.core.check`, found by the
statement's number: ``lemma-31`` is the function decorated ``@check("lemma-31", "Lemma 31", ...)``
in ``app_c1_dynamics.py``.  A check registered here belongs to this pack (its ``pack`` is
``dayi_chen``, read from the module's place).

The pack's pack.toml names this package (``coded_checks = "checks"``);
:func:`verify.checks.packs.code_modules` imports the modules of :data:`SECTIONS`, by name, and
:func:`verify.checks.packs.coded_checks` orders the pack's checks by it, then by each module's own
order; the checks made from the ledger (claims, then definitions) follow them.  Nothing else of the
engine imports these modules: they import the engine, never the reverse.  :mod:`verify.perturb`
reads this package's :data:`IDENTITY_HOOKS` and :data:`SLOW_TO_PERTURB` through a check's module.
"""

#: The modules, in the paper's order: the reports and the README's tables keep their rows in it.
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
)

#: For the perturbation test (:mod:`verify.perturb`): the ``claimed_*`` hooks that state an identity
#: the check verifies with equality, so that a perturbation makes them false.
IDENTITY_HOOKS = {
    "assumption-1": ("claimed_row_norm",),
    "assumption-4": ("claimed_frobenius_norm",),
    "d1-overlaps": ("claimed_d1_overlap", "claimed_d1_row_norm2"),
    "d1-gradient-displays": ("claimed_d1_first_gradient_display", "claimed_d1_power_series_display",
                             "claimed_d1_second_gradient_display"),
    "s3.2.1-orthonormal-t": ("claimed_orthonormal_t",),
    "eq-7-9": ("claimed_eq_7",),
    "s3.2.2-h-xi-1": ("claimed_h_xi_1",),
    "d4-lemma-6-sum": ("claimed_lemma_6_sum_value",),
    "eq-14": ("claimed_eq_14_factor",),
    "eq-12": ("claimed_d32_h0",),
    "definition-24": ("claimed_variance",),
    "c1-drift-recursion": ("claimed_c1_ratio",),
    "definition-35": ("claimed_feature_norm",),
    "proposition-4": ("claimed_prop_4_series",),
    "claim-3-n-split": ("claimed_d31_n_split",),
}
#: Checks too slow to rerun at every level of the perturbation test in the default tier.
SLOW_TO_PERTURB = {"lemma-6"}
