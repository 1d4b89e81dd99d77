r"""Certified Gaussian integrals ∫ F(x) h_p(x) φ(x) dx of a piecewise-smooth F.

The real line is cut into

- the tails |x| > R, bounded by :class:`~verify.certified.tails.TailMoments` from the growth
  majorants of F on the outer pieces (:mod:`verify.certified.growth`); R is the smallest
  integer ≥ R₀ = max(1, ⌈max |kink|⌉ + 1) at which every tail bound is below its budget;
- the pieces of [−R, R] between F's kinks, each integrated by :func:`flint.acb.integral`
  (adaptive Gauss–Legendre with error bounds from the integrand's maximum on ellipses around
  subintervals).  Its integrand must be holomorphic wherever it is evaluated with
  ``analytic=True``: each piece's expression is smooth and its evaluator returns a
  non-finite ball wherever it cannot prove holomorphy (:mod:`verify.certified.compile`), so
  the integrator refines or gives a wide ball instead of a wrong one.  h_p is entire (the
  recurrence h_{q+1} = (x h_q − √q h_{q−1})/√(q+1)), and so is φ.

A kink that is not a dyadic number is replaced by the midpoint k* of its ball; the two
neighbouring expressions then each cover the gap between k* and the true kink k, an error of
at most rad(k)·sup_{ball}|(F_left − F_right) h_p φ|, evaluated in ball arithmetic and added.

Error budget for a target radius τ: tails τ/4 in all, each piece's quadrature asked for
τ/(4096·#pieces) (acb.integral may overshoot its goal a few times).
The result is the real part of the acb.integral ball (the exact integral is real); a result
whose imaginary part excludes 0 means F is not real and is refused.

:meth:`GaussianIntegrator.integrals` computes every degree at once: the pieces of [−R, R]
through one Gauss–Legendre subdivision shared by all p (:mod:`verify.certified.shared_nodes`,
quadrature error τ/8 in all, proved from ellipse bounds), the same tails and kink gaps, and
:meth:`~GaussianIntegrator.integral` (acb.integral per p) for any degree it leaves wider than τ,
or for all of them where no shared subdivision is certified.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from flint import acb, arb, ctx

from verify.base.singular import ComplexValuedError, singular_candidates
from verify.certified.balls import safe_integral, working_precision
from verify.certified.compile import ComplexBackend
from verify.certified.errors import CertificationError
from verify.certified.growth import Majorant, tail_majorant
from verify.certified.pieces import Piece, piece_bounds
from verify.certified.removable import compile_with_removable
from verify.certified.shared_nodes import shared_integrals
from verify.certified.tails import TailMoments, hermite_weight
from verify.model.polynomials import probabilists_hermite

#: Largest tail cutoff tried: at R = 60 a tail of polynomial growth degree ≤ 200 is below
#: 1e-600, beyond any precision the suite allows; a majorant still too large there grows too fast.
MAX_CUTOFF = 60
#: Decimal digits beyond ``dps`` demanded of every certified integral: radius ≤ 10^-(dps+3).
EXTRA_DIGITS = 3
#: Extra working bits (plus p) of the retries of an integral whose radius missed its target.
RETRY_BITS = (32, 128)
#: Extra working bits (plus the largest degree) of the shared-node route of
#: :meth:`GaussianIntegrator.integrals`.
SHARED_BITS = 16


@dataclass(frozen=True)
class PiecewiseIntegrand:
    """F on the real line as smooth pieces of one variable ``x``."""

    pieces: tuple[Piece, ...]
    x: object

    def squared(self) -> PiecewiseIntegrand:
        return PiecewiseIntegrand(tuple(Piece(p.low, p.high, p.expr**2) for p in self.pieces), self.x)


class GaussianIntegrator:
    """∫ F h_p φ for p = 0 … ``max_degree`` (``hermite=False``: ∫ F φ) at ``dps`` digits.

    Construct and call inside :func:`~verify.certified.balls.working_precision` (``dps``).
    """

    def __init__(self, integrand: PiecewiseIntegrand, dps: int, max_degree: int = 0, hermite: bool = True,
                 outside: tuple[Majorant, Majorant] | None = None):
        """``outside``: majorants of |F| on x ≤ −W and x ≥ W, where the pieces cover the window
        [−W, W] alone (their outer ends are the integers ∓W): the tails start at W, the cutoff,
        for an F that no finite list of pieces covers (sign(cos x), floor(x))."""

        self.dps, self.max_degree, self.hermite = dps, max_degree, hermite
        self.target = arb(10) ** (-(dps + EXTRA_DIGITS))
        pieces = self.pieces = integrand.pieces
        #: how :meth:`integrals` computed the interior (None: not called yet)
        self.route: str | None = None
        if outside is not None:
            window = int(pieces[-1].high.mid().unique_fmpz())
            self.majorants, self.min_cutoff = outside, window
            self.cutoff, self.tails = self._choose_cutoff(last=window)
            self.evaluators = self._compiled(integrand)
            return
        kinks = [p.low for p in pieces[1:] if p.low is not None]
        reach = max((abs(float(k.mid())) for k in kinks), default=0.0)
        # the tails start beyond every point where a piece may blow up too (a removable one at
        # g = 1 in sin(g - 1)/(g - 1)): the growth bounds need its denominator away from 0 there
        for piece in pieces:
            try:
                found = singular_candidates(piece.expr, integrand.x)
            except ComplexValuedError:  # sqrt(-x) on the piece x < 0: real there, not elsewhere
                found = None
            if found is not None:
                reach = max([reach, *(abs(float(z)) for z in found[0])])
        self.min_cutoff = max(1, math.ceil(reach) + 1)
        self.majorants = (tail_majorant(pieces[0].expr, integrand.x, -1, self.min_cutoff),
                          tail_majorant(pieces[-1].expr, integrand.x, 1, self.min_cutoff))
        self.evaluators = self._compiled(integrand)
        self.cutoff, self.tails = self._choose_cutoff()

    @staticmethod
    def _compiled(integrand: PiecewiseIntegrand) -> list:
        """Each piece's evaluator on complex balls; a removable singularity (tanh(x)/x at 0)
        through its Taylor model (:mod:`verify.certified.removable`)."""
        backend = ComplexBackend()
        return [compile_with_removable(p.expr, integrand.x, backend) for p in integrand.pieces]

    def _tail_bounds(self, cutoff: int, degrees) -> list[arb]:
        moments = TailMoments(cutoff)
        out = []
        for p in degrees:
            weight = hermite_weight(p) if self.hermite else (1,)
            scale = 1 / arb.fac_ui(p).sqrt() if self.hermite else arb(1)
            out.append(scale * sum((moments.bound(m, weight) for m in self.majorants), arb(0)))
        return out

    def _choose_cutoff(self, last: int = MAX_CUTOFF) -> tuple[int, list[arb]]:
        """The smallest cutoff (≤ ``last``) at which every degree's tail bound is within τ/4, and
        those bounds.

        Each bound decreases as the cutoff grows, so the search first bisects on the highest
        degree's bound alone (the widest, as a rule: a necessary condition, one bound per step)
        and then walks up from there checking every degree."""
        budget = self.target / 4
        degrees = range(self.max_degree + 1) if self.hermite else range(1)

        def highest_fits(cutoff: int) -> bool:
            return bool(self._tail_bounds(cutoff, [degrees[-1]])[0].upper() <= budget)

        low, high = self.min_cutoff, last + 1  # the first fit lies in [low, high]
        while low < high:
            middle = (low + high) // 2
            if highest_fits(middle):
                high = middle
            else:
                low = middle + 1
        for cutoff in range(low, last + 1):
            tails = self._tail_bounds(cutoff, degrees)
            if all(t.upper() <= budget for t in tails):
                return cutoff, tails
        raise CertificationError(f"the growth bound ({self.describe_growth()}) does not make the Gaussian "
                                 f"tails smaller than 1e-{self.dps + EXTRA_DIGITS} for |x| <= {last}")

    def describe_growth(self) -> str:
        left, right = self.majorants
        return f"x -> -oo: |F| <= {left.describe()}; x -> +oo: |F| <= {right.describe()}"

    def _weight(self, z, p: int):
        """h_p(z)·φ(z) for a complex ball z, through He_{q+1} = z He_q − q He_{q−1}: its
        constants are integers, so every radius shrinks with the working precision (the
        normalised recurrence's √q balls, made once at the starting precision, had put a floor
        under the retries of :meth:`integral`)."""
        return probabilists_hermite(p, z, acb(1)) * (-z * z / 2).exp() / _normaliser(p, ctx.prec)

    def integrals(self) -> list[arb]:
        """:meth:`integral` for every p ≤ ``max_degree`` (p = 0 alone when ``hermite=False``).

        First through one Gauss–Legendre subdivision shared by every p
        (:mod:`verify.certified.shared_nodes`; quadrature error τ/8 in all, τ = 10^-(dps+3)),
        at :data:`SHARED_BITS` + max_degree more working bits, rounded up to a multiple of 64
        (the sums for high p lose bits), plus the same tails and kink gaps as :meth:`integral`.
        A degree whose ball still misses τ, or every degree when no shared subdivision is
        certified (a pole or branch point near the real segment), goes through :meth:`integral`:
        the result's contract is the same either way."""
        degrees = self.max_degree + 1 if self.hermite else 1
        bounds = [piece_bounds(piece, self.cutoff) for piece in self.pieces]
        # a multiple of 64 bits: the Gauss–Legendre nodes, cached per precision, are shared by
        # calls with nearby degrees and precisions
        with ctx.workprec(-(-(ctx.prec + SHARED_BITS + self.max_degree) // 64) * 64):
            shared = shared_integrals(self.evaluators, bounds, degrees, self.target / 8)
        if shared is None:
            self.route = "per degree"
            return [self.integral(p) for p in range(degrees)]
        out, again = [], []
        for p, interior in enumerate(shared):
            value = self._finish(acb(interior), p)
            if value is None or not self.precise_enough(value):
                again.append(p)
                value = self.integral(p)
            out.append(value)
        self.route = "shared nodes" + (f" (per degree for p = {', '.join(map(str, again))})" if again else "")
        return out

    def integral(self, p: int = 0) -> arb:
        """A ball containing ∫ F(x) h_p(x) φ(x) dx (h_0 = 1), with radius ≤ 10^-(dps+3)·max(1, |∫|)
        (:meth:`precise_enough`).

        For large p the recurrence for h_p on complex balls and the cancellation in the integral
        lose bits (sigmoid at 30 digits: radius 1.3e-33 at p = 105 against a target of 1e-33);
        a result above the target is recomputed with :data:`RETRY_BITS` more working precision
        (32 extra bits brought p = 105 down to the tail budget, 2.4e-34)."""
        if p > self.max_degree or (p and not self.hermite):
            raise ValueError(f"degree {p} beyond this integrator's {self.max_degree}")
        value = self._integral(p)
        for extra in RETRY_BITS:
            if self.precise_enough(value):
                break
            with ctx.workprec(ctx.prec + extra + p):
                value = self._integral(p)
        if not self.precise_enough(value):
            raise CertificationError(f"certified integral for p = {p} reached radius {value.rad()} only "
                                     f"(wanted <= 1e-{self.dps + EXTRA_DIGITS} times max(1, |value|))")
        return value

    def precise_enough(self, value: arb) -> bool:
        """Radius ≤ τ·max(1, |value|), τ = 10^-(dps+3): dps + 3 correct digits, or that many
        decimals for a value below 1.  An absolute τ alone asked 33 decimals of E[cosh(3g)] ≈ 90
        at 30 digits, which acb.integral's relative goal does not reach (radius 4.3e-33), and left
        a claim about cosh(3x) + x³/10 undecided; the radius only sets the precision of a
        rigorous ball, never whether it encloses the integral."""
        scale = arb(1).max(abs(arb(value.mid())))
        return bool(value.rad() <= self.target * scale)

    def _integral(self, p: int) -> arb:
        # acb.integral treats abs_tol as a goal per subinterval and can end a few times above it
        # (measured up to 3.5x); asking 2^10 times tighter keeps the total well inside τ/4.
        tolerance = self.target / (4 * 1024 * len(self.pieces))
        total = acb(0)
        for piece, evaluator in zip(self.pieces, self.evaluators, strict=True):
            low, high = piece_bounds(piece, self.cutoff)

            def integrand(z, analytic, evaluator=evaluator):
                return evaluator(z, analytic) * self._weight(z, p)

            total += safe_integral(integrand, low, high, abs_tol=tolerance, rel_tol=tolerance)
        value = self._finish(total, p)
        if value is None:
            raise CertificationError(f"the integral of {self.pieces[0].expr} (p = {p}) is not a finite real "
                                     f"number: {total}")
        return value

    def _finish(self, interior, p: int) -> arb | None:
        """The interior integral (a complex ball) plus the kink gaps and the tails, as a real
        ball; None when it is not finite or its imaginary part excludes 0."""
        total = interior + self._kink_gaps(p)
        if not total.is_finite() or not total.imag.contains(0):
            return None
        return total.real + arb(0, self.tails[p if self.hermite else 0].upper())

    def _kink_gaps(self, p: int):
        """Error from integrating up to the midpoint of a kink's ball instead of the kink."""
        total = acb(0)
        for i in range(1, len(self.pieces)):
            kink = self.pieces[i].low
            if kink is None or kink.rad() == 0:
                continue
            z = acb(kink)
            jump = (self.evaluators[i - 1](z) - self.evaluators[i](z)) * self._weight(z, p)
            size = abs(jump).upper() * kink.rad()
            total += acb(arb(0, size), arb(0, size))
        return total


@functools.lru_cache(maxsize=1024)
def _normaliser(p: int, prec: int) -> arb:
    """√(p!)·√(2π) at ``prec`` bits: h_p φ = He_p e^{−x²/2} / (√(p!) √(2π))."""
    with ctx.workprec(prec):
        return (arb.fac_ui(p) * 2 * arb.pi()).sqrt()


def gaussian_integrator(integrand: PiecewiseIntegrand, dps: int, max_degree: int = 0,
                        hermite: bool = True) -> GaussianIntegrator:
    """A :class:`GaussianIntegrator` built at ``dps``'s working precision."""
    with working_precision(dps):
        return GaussianIntegrator(integrand, dps, max_degree, hermite)


__all__ = ["EXTRA_DIGITS", "GaussianIntegrator", "Majorant", "PiecewiseIntegrand", "gaussian_integrator"]
