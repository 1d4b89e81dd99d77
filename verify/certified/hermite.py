r"""Certified Hermite coefficients: balls that provably contain μ_p(σ) = E[σ(g) h_p(g)].

Convention as in :mod:`verify.model.hermite` (paper §1.4): h_p = He_p/√p!, g ~ N(0, 1).

Two routes, as for the fast path:

``exact``
    The SymPy closed forms of :mod:`verify.model.hermite_exact` (piecewise polynomials with a break
    at 0, erf(cx)), evaluated node by node in ball arithmetic (:func:`~verify.certified.compile.constant`):
    rationals, √ and π become balls of radius ~2^-prec.
``quadrature``
    ∫ σ h_p φ over σ's smooth pieces by :class:`~verify.certified.gaussian.GaussianIntegrator`:
    tails |x| > R bounded through a growth majorant of σ proven from its expression
    (:mod:`verify.certified.growth`), the interior [−R, R] by one Gauss–Legendre subdivision
    shared by every p (:mod:`verify.certified.shared_nodes`: F is evaluated once per node for
    all p, and the quadrature error is bounded from |σ| on ellipses where σ is proved
    holomorphic), or, where no such subdivision is certified (a pole or branch point near the
    real line) and for any degree whose ball is too wide, by one :func:`flint.acb.integral`
    per p.  ``route`` says which: ``shared nodes``, ``per degree``, or ``shared nodes (per degree
    for p = …)``.

``auto`` takes ``exact`` where a closed form exists.  Both routes certify μ_p to within
10^-(dps+3) or better; the balls are reported as decimals with dps + 3 places and their
rounding interval (:func:`~verify.certified.balls.quantized`), so every radius lies between
10^-(dps+3) and 2·10^-(dps+3).  An activation that cannot be certified raises
:class:`~verify.certified.errors.CertificationError` with one line saying why.

Results are kept for the life of the process only (:func:`verify.certified.balls.computed_here`),
never read from the disk cache: a certified verdict rests on balls this process computed, not on
a file (an authenticated entry is forged by whoever can read the cache key).
"""

from __future__ import annotations

from dataclasses import dataclass

from flint import arb

from verify.base.errors import InvalidParameterError
from verify.certified.balls import computed_here, format_ball, quantized, working_precision
from verify.certified.compile import constant
from verify.certified.errors import CertificationError
from verify.certified.gaussian import EXTRA_DIGITS, GaussianIntegrator, PiecewiseIntegrand
from verify.certified.pieces import smooth_pieces
from verify.model.activations import Activation, get_activation
from verify.model.hermite import validate_dps, validate_terms
from verify.model.hermite_exact import exact_coefficients

METHODS = ("auto", "exact", "quadrature")


@dataclass(frozen=True)
class CertifiedCoefficients:
    """Balls containing μ_0(σ) … μ_{N−1}(σ), certified at ``dps`` digits.

    ``cutoff`` is the tail cutoff R, ``growth`` the proven majorants of |σ| on the tails and
    ``route`` the interior's quadrature (quadrature only; see the module docstring)."""

    activation: str
    dps: int
    balls: tuple[arb, ...]
    method: str
    cutoff: int | None = None
    growth: str | None = None
    route: str | None = None

    def __len__(self) -> int:
        return len(self.balls)

    def formatted(self) -> list[str]:
        """Each ball as ``[mid ± rad]`` with dps + 5 significant digits."""
        return [format_ball(b, self.dps + 5) for b in self.balls]


def certified_hermite_coefficients(activation, terms: int, dps: int = 50, method: str = "auto",
                                   use_cache: bool = True) -> CertifiedCoefficients:
    """Balls containing μ_p(σ) for p < ``terms`` (see the module docstring).

    Raises
    ------
    CertificationError
        When σ has no provable growth bound, uses a function outside the certified set, or
        the radius target is not reached.
    """

    terms, dps = validate_terms(terms), validate_dps(dps)
    if method not in METHODS:
        raise InvalidParameterError(f"method must be one of {METHODS}, got {method!r}")
    act = activation if isinstance(activation, Activation) else get_activation(activation)
    if not use_cache:
        return _compute(act, terms, dps, method)
    return computed_here(("hermite", act.name, terms, dps, method), lambda: _compute(act, terms, dps, method))


def _compute(act, terms: int, dps: int, method: str) -> CertifiedCoefficients:

    with working_precision(dps):
        if method in ("auto", "exact"):
            exact = exact_coefficients(act, terms)
            if exact is None and method == "exact":
                raise CertificationError(f"activation {act.name!r} has no exact Hermite coefficients in the "
                                         "suite; use method='quadrature'")
            if exact is not None:
                balls = tuple(quantized(constant(e), dps + EXTRA_DIGITS) for e in exact)
                return CertifiedCoefficients(act.name, dps, balls, "exact")
        integrator = GaussianIntegrator(PiecewiseIntegrand(smooth_pieces(act), act.x), dps, terms - 1)
        balls = tuple(quantized(value, dps + EXTRA_DIGITS) for value in integrator.integrals())
        return CertifiedCoefficients(act.name, dps, balls, "quadrature", integrator.cutoff,
                                     integrator.describe_growth(), integrator.route)
