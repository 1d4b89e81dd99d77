r"""The model of Dayı & Chen, written once: the instance, activations, Hermite coefficients,
dual kernels, the population loss Φ(m) and h(m), and the power series of h.

Where each formula lives:

- :mod:`verify.model.instance`     the instance (W, λ, c, ĉ, u, û, ξ): assumption checks, generators, JSON
- :mod:`verify.model.activations`  the activation registry (SymPy source, NumPy and mpmath twins)
- :mod:`verify.model.hermite`      μ_p(σ) by reused-node quadrature (mpmath)
- :mod:`verify.model.hermite_exact` exact μ_p where a closed form exists (SymPy)
- :mod:`verify.model.kernels`      the dual kernel K_σ(ρ) and K'_σ(ρ): closed forms, quadrature, series
- :mod:`verify.model.fast_kernels` K and K' vectorised in float64
- :mod:`verify.model.arithmetic`   the number systems a formula is evaluated in (float64, mpmath,
  SymPy; Arb balls in :mod:`verify.certified.balls`)
- :mod:`verify.model.geometry`     the row norms n_i = √(D + ξ²c_i²) and the overlaps ρ_ij(m)
- :mod:`verify.model.population`   **Φ(m) and h(m)** (Appendix D.1), over any arithmetic
- :mod:`verify.model.series`       the coefficients h_l of h(m) = Σ_l h_l m^l (Proposition 4)

:mod:`verify.derive` derives the same objects independently (SymPy, from the network's
definition) and must not import these formulas: it is the reference they are checked against.
"""
