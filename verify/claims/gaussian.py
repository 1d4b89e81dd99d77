r"""Gaussian expectations ``Eg(expr)``: E over g ~ N(0, 1) of an expression in g, σ(g) and σ'(g).

One integrand (:func:`integrand`: ``sigma`` and ``dsigma`` replaced by the configuration's σ
and its derivative, as SymPy expressions in g), three arithmetics:

- exact (:func:`exact_expectation`): SymPy's integral of integrand · e^{−g²/2}/√(2π) over the
  line, piecewise-folded (relu's Max, Heaviside), under the budget of
  :mod:`verify.base.budget`; None when SymPy finds no closed form within EXACT_SECONDS;
- balls: that exact value enclosed by :func:`verify.certified.compile.constant`; without a
  closed form, :func:`ball_expectation`: certified quadrature (:class:`~verify.certified.gaussian.
  GaussianIntegrator`: the tails bounded by proven growth majorants, the pieces between the kinks
  by :func:`flint.acb.integral` with rigorous error bounds), a ball that contains E[body(g)];
- float (:func:`float_expectation`): mpmath quadrature at FLOAT_DPS digits split at σ's kinks,
  returned with mpmath's error estimate, which the search adds to its tolerance.  A quadrature
  can only refute (after the search's own margin), never prove.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import mpmath
import sympy
from sympy.polys.polyerrors import BasePolynomialError

from verify.base.budget import BudgetExceededError, guarded, limits
from verify.base.errors import ConvergenceError, InvalidParameterError, VerifyInputError, clip
from verify.base.singular import singular_candidates
from verify.certified.balls import working_precision
from verify.certified.errors import CertificationError
from verify.certified.gaussian import GaussianIntegrator, PiecewiseIntegrand
from verify.certified.pieces import smooth_pieces
from verify.certified.windows import windowed_expectation
from verify.claims.gaussian_rules import rule_expectation
from verify.claims.language import GAUSSIAN, GAUSSIAN_FUNCTIONS
from verify.model.activations import kinks_of
from verify.model.hermite_exact import half_line_expectation

#: CPU seconds SymPy may spend on one exact Gaussian integral (relu's and polynomials' take < 1 s).
EXACT_SECONDS = 4.0
#: Digits of the float quadrature (then rounded to double).
FLOAT_DPS = 30
#: The standard Gaussian density.
DENSITY = sympy.exp(-(GAUSSIAN**2) / 2) / sympy.sqrt(2 * sympy.pi)


class GaussianExpectationError(InvalidParameterError):
    """Eg(...) of an expression that has no finite expectation (a Dirac delta, a divergence)."""


class DivergentExpectationError(GaussianExpectationError):
    """Eg(...) whose integral SymPy evaluates to ±oo: the expectation does not exist, so a claim
    about its value is false (the decision steps refute it; elsewhere it is bad input)."""


def integrand(expr, activation) -> sympy.Expr:
    """``expr`` with sigma(a) → σ(a) and dsigma(a) → σ'(a) (Heaviside at kinks)."""
    if activation is None:
        if expr.atoms(sympy.core.function.AppliedUndef):
            raise GaussianExpectationError("claim: sigma and dsigma need an activation (--activation)")
        return expr.replace(lambda e: isinstance(e, sympy.Derivative), lambda e: e.doit())

    def substitute(call):
        name = type(call).__name__
        if name not in GAUSSIAN_FUNCTIONS:
            return call
        body = activation.expr if name == "sigma" else activation.derivative_expr
        return body.xreplace({activation.x: call.args[0]})

    result = expr.replace(lambda e: isinstance(e, sympy.core.function.AppliedUndef), substitute)
    # diff(sigma(g), g, 2) is sigma'' of this activation's formula
    result = result.replace(lambda e: isinstance(e, sympy.Derivative), lambda e: e.doit())
    if result.has(sympy.DiracDelta):
        raise GaussianExpectationError(
            f"claim: Eg({clip(expr, 40)}): a derivative of {activation.name} has a Dirac delta at its "
            "kinks or jumps, so this expectation is not an integral of a function")
    return result


def _half_line_branches(body):
    """E[body(g)] = E[1{g>0} q₊(g)] + E[1{g>0} q₋(g)] with q±(t) = body(±t), when both branches are
    polynomials in t > 0 (relu, abs, Heaviside, polynomials: kinks only at 0); else None."""
    t = sympy.Symbol("t", positive=True)
    total = sympy.Integer(0)
    for sign in (1, -1):
        branch = sympy.expand(body.xreplace({GAUSSIAN: sign * t}))
        if not branch.is_polynomial(t):
            return None
        total += half_line_expectation(sympy.Poly(branch, t))
    return sympy.radsimp(sympy.expand(total))


def _integrate(body):
    folded = sympy.piecewise_fold(body.rewrite(sympy.Piecewise))
    return sympy.integrate(folded * DENSITY, (GAUSSIAN, -sympy.oo, sympy.oo))


@lru_cache(maxsize=256)
def exact_expectation(body, parameters: frozenset = frozenset()) -> sympy.Expr | None:
    """E[body(g)] in closed form, or None (no closed form within EXACT_SECONDS).

    ``parameters``: symbols other than g that the body and its closed form may hold (a quantified
    real variable, :mod:`verify.claims.parametric`, which checks the form over their range).

    Piecewise polynomials with their break at 0 are integrated by half-normal moments, smooth
    integrands by the exact rules of :mod:`verify.claims.gaussian_rules` (parity, Stein's lemma,
    Gaussian reweighting, the erf closed forms): both exact and fast, so the verdict does not depend
    on the machine's load; other integrands go to SymPy's integrate under the CPU-time budget."""
    value = _half_line_branches(body)
    if value is not None:
        return value
    value = rule_expectation(body)
    if value is not None:
        return value
    value = _integrated(body, parameters, EXACT_SECONDS)
    if value is None:
        # the rules again, each term they leave integrated on its own: Stein's lemma turns
        # E[g atan g], which SymPy does not integrate within the budget, into E[1/(1 + g²)], which it does
        left = [RESIDUE_INTEGRALS]

        def residue(term):
            left[0] -= 1
            # the term's existence is proved (the rules ask first): a SymPy ±oo is SymPy's error
            return _integrated(term, parameters, EXACT_SECONDS / 2, proved=True) if left[0] >= 0 else None

        value = rule_expectation(body, residue=residue)
    return value


#: SymPy integrations of the terms the rules leave, per expectation (each EXACT_SECONDS / 2 at most).
RESIDUE_INTEGRALS = 2


def _integrated(body, parameters: frozenset, seconds: float, proved: bool = False) -> sympy.Expr | None:
    """SymPy's closed form of E[body(g)] within ``seconds`` CPU, or None; ±oo raises
    DivergentExpectationError unless the expectation is ``proved`` to exist (then it is None)."""
    if _beyond_integrate(body) or not _jumps_located(body):
        return None
    try:
        with limits(seconds=seconds):
            value = guarded(f"Eg({clip(body, 40)})", _integrate, body)
    except BudgetExceededError:
        return None
    except (BasePolynomialError, NotImplementedError):
        # SymPy's integrate gives up inside its own algebra on some well-formed integrands (the
        # heurisch of log((1 + g + g^2)/(1 - g + g^2)) e^{-g^2/2} raises PolynomialError): no
        # closed form, and the certified steps decide (it was a traceback with exit 1)
        return None
    if value.has(sympy.oo, -sympy.oo, sympy.zoo) and not value.has(sympy.Integral) and not proved:
        raise DivergentExpectationError(f"claim: Eg of {clip(body, 40)} diverges (SymPy: {clip(value, 30)})")
    if value.has(sympy.Integral, sympy.nan, sympy.Piecewise) or value.free_symbols - parameters:
        return None
    return value


@dataclass(frozen=True)
class _PiecewiseBody:
    """An integrand as :func:`verify.certified.pieces.smooth_pieces` reads an activation."""

    expr: sympy.Expr
    x: sympy.Symbol
    kinks: tuple


@lru_cache(maxsize=256)
def ball_expectation(body, dps: int):
    """A ball (arb) that contains E[body(g)], by certified quadrature at ``dps`` digits.

    A body that switches branch on an infinite set (sign(cos g), floor g) is cut at a window
    (:mod:`verify.certified.windows`).  Raises CertificationError when the body has no proven
    growth bound on its tails, a switch that cannot be located, or a piece that is not holomorphic
    where it is integrated (a singularity)."""
    try:
        kinks = kinks_of(body, GAUSSIAN)
    except VerifyInputError:
        kinks = None  # switches on an infinite set (sign(cos g), floor g): located on a window only
    with working_precision(dps):
        if kinks is None:
            value = windowed_expectation(body, GAUSSIAN, dps)
        else:
            pieces = smooth_pieces(_PiecewiseBody(body, GAUSSIAN, kinks))
            integrator = GaussianIntegrator(PiecewiseIntegrand(pieces, GAUSSIAN), dps, 0, hermite=False)
            value = integrator.integral(0)
    if not value.is_finite():
        raise CertificationError(f"the certified quadrature of Eg({clip(body, 40)}) did not converge")
    return value


#: E(Lambda(g, body)): an expectation with no closed form, kept whole in exact arithmetic so that
#: the expectations steps can combine it with others (E[σ²] + E[σ′] − 1/2 = E[σ − 1/2] = 0 for the
#: sigmoid).  Its argument binds g, so it has no free symbol: never a variable, never a number.
OPAQUE = sympy.Function("E", real=True)


def opaque_expectation(body) -> sympy.Expr:
    return OPAQUE(sympy.Lambda(GAUSSIAN, body))


def opaque_atoms(expr) -> set:
    """The opaque expectations E(Lambda(g, body)) of ``expr``."""
    return {a for a in expr.atoms(sympy.core.function.AppliedUndef) if a.func == OPAQUE}


def _jumps_located(body) -> bool:
    """Whether every jump and kink of the body is at a point found exactly (a finite set).  SymPy's
    integrate keeps only a few of the intervals of sign(cos g) or Heaviside(sin g), and its wrong
    closed form decided both ways: Eg(Heaviside(sin(g))) == 1/2 failed (SymPy: 0.99916) and
    Eg(cos(pi*Heaviside(sin(g)))) < -0.9 held, though the value is 0 (found by red team 5)."""
    try:
        kinks_of(body, GAUSSIAN)
    except VerifyInputError:
        return False
    except TypeError:
        # a finite set of points that move with a parameter (relu(g + a) at g = -a), which
        # kinks_of cannot put in order: located all the same
        return True
    return True


def _beyond_integrate(body) -> bool:
    """Integrands against e^{−g²/2} that SymPy's integrate never finishes within its budget (tanh,
    the logistic 1/(1 + e^{−g}), softplus, inverse trigonometric functions): skipping it saves its budget,
    and the answer (no closed form) is the same."""
    if body.has(sympy.tanh, sympy.sinh, sympy.cosh, sympy.atan, sympy.asin, sympy.acos):
        return True
    if any(log.args[0].has(sympy.exp) for log in body.atoms(sympy.log)):  # softplus
        return True
    return any(p.exp.is_negative and p.base.has(sympy.exp) for p in body.atoms(sympy.Pow))


def float_expectation(body, kinks=()) -> tuple[float, float]:
    """(E[body(g)], the quadrature's error estimate) by mpmath at FLOAT_DPS digits."""
    function = sympy.lambdify(GAUSSIAN, body * DENSITY, modules=[_MPMATH_STEPS, "mpmath"])
    # split at the kinks and at every point where the integrand may blow up (tanh-sinh never
    # evaluates an end, so 1/sqrt|log|g|| is not divided by 0 at g = 1)
    found = singular_candidates(body, GAUSSIAN)
    singular = found[0] if found is not None and len(found[0]) <= 16 else ()
    points = sorted({0.0, *(float(k) for k in kinks), *(float(z) for z in singular)})
    try:
        with mpmath.workdps(FLOAT_DPS):
            value, error = mpmath.quad(function, [-mpmath.inf, *points, mpmath.inf], error=True)
        value, error = float(value), float(error)
    except (ZeroDivisionError, ValueError, OverflowError, TypeError, MemoryError) as exc:
        # MemoryError: mpmath's cosh/sinh/tanh of an argument near 10^800 (tanh((1 + g²)^(g/100))
        # at a far node) work at a precision that grows with it; the claim was refused as out of
        # memory although it is well-formed and true
        raise ConvergenceError(f"the float quadrature of Eg({clip(body, 40)}) met "
                               f"{type(exc).__name__} at a node") from None
    if not (mpmath.isfinite(value) and mpmath.isfinite(error)):
        # no float value, and no proof of divergence either: float rounding gives -inf too
        # (log(2g + 2 sqrt(g² + 1)) = log 2 + asinh g cancels to log 0 for large negative g); a
        # divergent expectation is refuted by the existence step, which proves it
        raise ConvergenceError(f"the float quadrature of Eg({clip(body, 40)}) is not finite ({value}): "
                               "no float value")
    return value, error


def _heaviside(t, h0=0.5):
    return mpmath.mpf(1) if t > 0 else (mpmath.mpf(0) if t < 0 else mpmath.mpf(h0))


def _sign(t):
    return mpmath.sign(t)


_MPMATH_STEPS = {"Heaviside": _heaviside, "sign": _sign}
