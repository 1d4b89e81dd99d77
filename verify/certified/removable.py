r"""Ball enclosures of a function at a removable singularity: Taylor models with a proved remainder.

``(1 - cos g)/g**2``, ``tanh(g)/g``, ``(exp(g) - 1)/g`` are finite and holomorphic at 0, but their
formulas divide 0 by 0 there, so a ball containing 0 evaluates to ``nan`` and the certified
quadrature (:func:`flint.acb.integral`) could not integrate them (issue #48, item 2).

Near such a point p the function is written ``f = N/(x - p)**m`` with
``N(p) = N'(p) = … = N^(m-1)(p) = 0`` proved exactly (SymPy, to the symbol:
:func:`verify.base.singular.removable_quotient`), so f extends holomorphically to p.  Its Taylor
model at p is

    f(z) = Σ_{j<q} c_j (z - p)^j + R(z),   |R(z)| <= M (r/ρ)^q / (1 - r/ρ),  r = |z - p| < ρ,

with the exact Taylor coefficients c_j of f (SymPy's series of N, shifted by m, as balls) and
Cauchy's estimate for the remainder: f is holomorphic on the closed disc |z - p| <= ρ and
|f| <= M on its boundary.  Both hypotheses are proved in ball arithmetic: N's compiled evaluator
is finite under ``analytic=True`` on a square containing the disc (Arb's rules then guarantee N is
holomorphic there, and so is f), and M = max|N| over that square / ρ^m.  Every ball within ρ/2
of p is evaluated through the model, whose enclosure shrinks like (r/ρ)^q, intersected with f's
own formula (exact too, and tighter a little away from p); farther balls use the formula alone.
"""

from __future__ import annotations

from fractions import Fraction

import sympy
from flint import acb, arb

from verify.base.singular import ComplexValuedError, removable_quotient, singular_candidates
from verify.certified.balls import exact
from verify.certified.compile import compile_expression, constant
from verify.certified.errors import CertificationError

#: Terms q of the Taylor polynomial (the remainder shrinks like (|z - p|/rho)^q): where it meets
#: the cancellation of f's own formula, ~2^-prec/|z - p|^m, both are near 1e-33 for m <= 2 at the
#: ~120 bits of a 33-digit integral (whose retries add bits).
TERMS = 32
#: Radii rho of the disc on which the model is proved, tried largest first; balls within rho/2
#: of p use the model, farther ones f's own formula.
RADII = (Fraction(1, 2), Fraction(1, 4), Fraction(1, 8), Fraction(1, 16))


def removable_points(expr, x) -> list:
    """(p, m, N) for each real point p where ``expr`` is ``N/(x - p)**m`` with N holomorphic near p
    and vanishing to order m there (exact), in increasing order; other singular points are left
    to the caller (whose evaluator then gives non-finite balls there, and the integral is refused)."""
    try:
        found = singular_candidates(expr, x)
    except ComplexValuedError:  # a piece's formula, real on its own interval only
        return []
    if found is None:
        return []
    points, _ = found
    out = []
    for p in sorted(points, key=lambda z: float(z)):
        written = removable_quotient(expr, x, p)
        if written is not None:
            out.append((p, *written))
    return out


class RemovableEvaluator:
    """``f`` on complex balls, through its Taylor model within half the model's radius of each
    removable point (module docstring) and through ``plain`` elsewhere; build it at the working
    precision."""

    def __init__(self, plain, points, x, backend):
        self.plain = plain
        self.models = [_model(p, m, numerator, x, backend) for p, m, numerator in points]

    def __call__(self, z, analytic=False):
        for centre, coefficients, radius, bound in self.models:
            offset = z - centre
            distance = abs(offset).upper()
            if not distance < radius / 2:
                continue
            # Cauchy: |sum_{j >= q} c_j w^j| <= M (|w|/rho)^q / (1 - |w|/rho) on |w| < rho
            ratio = distance / radius
            error = (bound * ratio ** len(coefficients) / (1 - ratio)).upper()
            value = acb(0)
            for coefficient in reversed(coefficients):  # Horner
                value = coefficient + offset * value
            value += acb(arb(0, error), arb(0, error))
            # f's own formula encloses f(z) too, tighter a little away from p (where the model's
            # remainder is widest): their intersection does
            direct = self.plain(z, analytic)
            if not direct.is_finite():
                return value
            return acb(value.real.intersection(direct.real), value.imag.intersection(direct.imag))
        return self.plain(z, analytic)


def _model(p, m, numerator, x, backend):
    """(centre, the Taylor coefficients of f at p, rho, M) with f = N/(x - p)^m holomorphic on the
    closed disc |z - p| <= rho (N is: its compiled evaluator is finite under ``analytic=True`` on a
    square containing the disc) and |f| <= M on its boundary (|N| bounded on that square, over rho^m)."""
    centre = acb(constant(p))
    holomorphic = compile_expression(numerator, x, backend)
    for radius in map(exact, RADII):
        square = acb(arb(centre.real.mid(), radius.upper()), arb(centre.imag.mid(), radius.upper()))
        around = holomorphic(square, True)
        if around.is_finite():
            break
    else:
        raise CertificationError(f"{numerator} is not holomorphic on any disc of radius >= 1/16 around {p}")
    w = sympy.Dummy("w")
    series = sympy.expand(sympy.series(numerator.xreplace({x: p + w}), w, 0, m + TERMS).removeO())
    coefficients = [acb(constant(series.coeff(w, m + j))) for j in range(TERMS)]
    bound = abs(around).upper() / radius ** m
    return centre, coefficients, radius, bound


def compile_with_removable(expr, x, backend):
    """``compile_expression(expr, x, backend)``, with a Taylor model at each removable singular
    point of ``expr`` (none: the plain evaluator itself)."""
    plain = compile_expression(expr, x, backend)
    try:
        points = removable_points(expr, x)
    except (NotImplementedError, ValueError, TypeError):
        return plain
    if not points:
        return plain
    try:
        return RemovableEvaluator(plain, points, x, backend)
    except (CertificationError, ValueError):
        return plain
