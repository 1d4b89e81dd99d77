r"""Condition 3 of the paper (Appendix C.1), proven or refuted on one instance.

Condition 3 (Population gradient lower bound): "There exists a constant max{S_k, S_k²} ≤ V_k
that has at most polynomial decay, such that h satisfies
h(sign(h(0))m) sign(h(0)) ≥ |h(0)|/2 ≥ S_k for all m ≥ 0."

For one instance, with S_k := |h(0)|/2 as in the checks, the content is the inequality

    s·h(s·m) ≥ |h(0)|/2   for all m ∈ [0, 1],   s = sign h(0) ≠ 0

(m = ⟨u, û⟩ ≤ 1).  Here h is the certified h of :mod:`verify.certified.population`, the sign
of h(0) is certified (its ball excludes 0) and the inequality goes to the branch-and-bound
prover of :mod:`verify.certified.prover`.  ``factor`` replaces the 1/2 (the tests tighten it).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from flint import arb

from verify.certified.balls import exact, working_precision
from verify.certified.population import CertifiedPopulation
from verify.certified.prover import MAX_DEPTH, MAX_EVALUATIONS, ProofResult, Status, prove_geq


@dataclass(frozen=True)
class Condition3Certificate:
    """The verdict on Condition 3 for one instance.

    ``h0``: a ball containing h(0); ``sign``: sign h(0) when certified (else None);
    ``proof``: the prover's result on s·h(s·m) ≥ factor·|h(0)| over [0, 1] (None when the sign
    of h(0) is not certified, then ``status`` is UNDECIDED)."""

    status: Status
    h0: arb
    sign: int | None
    factor: Fraction
    proof: ProofResult | None

    def describe(self) -> str:
        if self.sign is None:
            return f"undecided: h(0) = {self.h0.str(6)} is not certified nonzero"
        assert self.proof is not None
        return (f"sign h(0) = {self.sign:+d}, |h(0)| in {abs(self.h0).str(8)}: "
                f"s*h(s*m) >= {self.factor}*|h(0)| on [0, 1] {self.proof.describe()}")


def condition_3_certified(instance, *, factor: Fraction | float = Fraction(1, 2), dps: int = 30,
                          max_depth: int = MAX_DEPTH, max_evaluations: int = MAX_EVALUATIONS,
                          gram=None, population: CertifiedPopulation | None = None) -> Condition3Certificate:
    """Prove or refute Condition 3, s·h(s·m) ≥ ``factor``·|h(0)| for m ∈ [0, 1], on ``instance``.

    ``gram`` replaces the stored Gram matrix (e.g. ``numpy.eye(k)`` for exactly orthonormal
    rows: the float64 one has ~1e-17 off the diagonal, enough to make an exactly vanishing h(0)
    certifiably nonzero); ``population`` reuses a :class:`CertifiedPopulation` built at the same
    ``dps``."""
    factor = Fraction(factor)
    with working_precision(dps):
        pop = population if population is not None else CertifiedPopulation(instance, dps, gram=gram)
        h0 = pop.h(arb(0))
        if not (h0 > 0 or h0 < 0):
            return Condition3Certificate(Status.UNDECIDED, h0, None, factor, None)
        sign = 1 if h0 > 0 else -1
        threshold = exact(factor) * abs(h0)
        proof = prove_geq(lambda m: sign * pop.h(sign * m), lambda m: threshold, 0, 1,
                          max_depth=max_depth, max_evaluations=max_evaluations)
    return Condition3Certificate(proof.status, h0, sign, factor, proof)
