"""verify: a symbolic-numeric verification suite for Dayı & Chen,
"Low-rank fine-tuning lies between lazy training and feature learning".

The package is organised one module per idea:

- :mod:`verify.model.activations`    the activation registry (NumPy, SymPy and mpmath twins)
- :mod:`verify.model.hermite`        Hermite coefficients μ_p(σ) by reused-node quadrature
- :mod:`verify.model.hermite_exact`  exact (SymPy) Hermite coefficients where a closed form exists
- :mod:`verify.model.kernels`        dual kernels K_σ(ρ), K'_σ(ρ): closed forms, 2-D quadrature, series
- :mod:`verify.model.diagnostics`    Assumption 6 diagnostics: decay exponent, E[σ'^2], information exponent
- :mod:`verify.base.cache`          the on-disk coefficient cache
- :mod:`verify.claims`         ``verify claim``: a statement about the model, decided from one line of text
- :mod:`verify.cli`            the ``verify`` command line

:func:`claim` (below) is :func:`verify.claims.claim`, imported when first called so that
``import verify`` stays free of SymPy.
"""

__version__ = "0.1.0"


def claim(text: str, **options):
    """Decide a claim about the model; see :func:`verify.claims.claim` (returns the Outcome)."""
    # lazy: `import verify` stays free of SymPy and the claim engine (0.5 s) until a claim is decided
    from verify.claims import claim as decide

    return decide(text, **options)
