r"""Certified verdicts: Arb ball arithmetic turns numerical holds into proofs.

Beside the fast paths (float64, mpmath with error *estimates*), this package computes balls
``[mid ± rad]`` that provably contain the true value (python-flint's Arb), or raises
:class:`~verify.certified.errors.CertificationError`; it never returns an uncertified number.

Modules, one idea each:

- :mod:`~verify.certified.balls`: scoped precision, exact conversions, printing, cache strings;
- :mod:`~verify.certified.compile`: SymPy expressions to Arb evaluators (real, and complex with
  the holomorphy checks :func:`flint.acb.integral` needs);
- :mod:`~verify.certified.pieces`: an activation as smooth pieces between its kinks;
- :mod:`~verify.certified.growth`: growth majorants of σ on the tails, proven from its expression;
- :mod:`~verify.certified.tails`: Gaussian tail integrals of those majorants;
- :mod:`~verify.certified.gaussian`: certified ∫ F h_p φ (tails + acb.integral per piece);
- :mod:`~verify.certified.hermite`: certified Hermite coefficients μ_p(σ).
"""

from verify.certified.errors import CertificationError
from verify.certified.hermite import CertifiedCoefficients, certified_hermite_coefficients

__all__ = ["CertificationError", "CertifiedCoefficients", "certified_hermite_coefficients"]
