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
- :mod:`~verify.certified.shared_nodes`: ∫ F h_p φ for every p at once, on one certified
  Gauss–Legendre subdivision (error bounds from ellipses where F is proved holomorphic);
- :mod:`~verify.certified.hermite`: certified Hermite coefficients μ_p(σ);
- :mod:`~verify.certified.kernels`: certified K_σ(ρ), K'_σ(ρ), E[σ²], E[σ'²];
- :mod:`~verify.certified.population`: certified h(m) and Φ(m) of an instance, on balls of m;
- :mod:`~verify.certified.prover`: branch and bound for f(m) ≥ g(m) on [a, b];
- :mod:`~verify.certified.conditions`: Condition 3 of the paper, proven or refuted.
"""

from verify.certified.conditions import Condition3Certificate, condition_3_certified
from verify.certified.errors import CertificationError
from verify.certified.hermite import CertifiedCoefficients, certified_hermite_coefficients
from verify.certified.kernels import certified_kernel, certified_second_moment
from verify.certified.population import CertifiedPopulation, certified_population, enclose_on_interval
from verify.certified.prover import ProofResult, Status, prove_geq

__all__ = [
    "CertificationError", "CertifiedCoefficients", "CertifiedPopulation", "Condition3Certificate",
    "ProofResult", "Status", "certified_hermite_coefficients", "certified_kernel", "certified_population",
    "certified_second_moment", "condition_3_certified", "enclose_on_interval", "prove_geq",
]
