r"""Exact Hermite coefficients, derived (not transcribed) in SymPy.

Two families have closed forms here; tests compare both with the quadrature
of :mod:`verify.model.hermite` at 30 and 60 digits.

1. **Piecewise polynomials with a single break at 0** — polynomials, relu,
   abs, Max(x,0)^k, Heaviside(x)·q(x), ….  Write σ(t) = q₊(t) and
   σ(−t) = q₋(t) for t > 0, with q± polynomials.  Then

       μ_p √p! = E[1{g>0} q₊(g) He_p(g)] + (−1)^p E[1{g>0} q₋(g) He_p(g)],

   and E[1{g>0} q(g)] is a combination of half-normal moments
   M_k = E[g^k 1{g>0}] = (k−1)!!/2 (k even), (k−1)!!/√(2π) (k odd).
   This reproduces the relu formula quoted in the Hermite issue (μ_0 = 1/√(2π),
   μ_1 = 1/2, odd p ≥ 3 zero, even p ≥ 2: (−1)^{p/2−1}(p−3)!!/√(2π p!)),
   which is therefore a test, not an input.

2. **erf(c x)**, c > 0.  By Gaussian integration by parts (Stein),
   μ_p(σ) = E[σ'(g) h_{p−1}(g)]/√p, with σ'(t) = (2c/√π) e^{−c²t²}.  From the
   generating function E[e^{−a g²} e^{sg − s²/2}] = (1+2a)^{−1/2} e^{−s² a/(1+2a)},

       E[e^{−a g²} He_{2j}(g)] = (2j)!/j! · (−a/(1+2a))^j / √(1+2a),

   and the odd-index coefficients vanish, so with a = c²:

       μ_{2j+1} = (2c/√π) (2j)!/(j! √((2j+1)!)) (−c²/(1+2c²))^j / √(1+2c²).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import sympy


def exact_coefficients(activation, terms: int) -> list | None:
    """[μ_0, …, μ_{terms−1}] as SymPy numbers, or None when no closed form is known.

    The longest list computed for an activation in this process is kept, and a shorter request is
    its prefix: relu's 241 coefficients (the series of h(m) at 40 terms) cost about 13 s, and the
    float path and the certified path of one check each asked for them."""
    key = (activation.name, str(activation.expr))
    known = _COMPUTED.get(key)
    if known is not None and (known[0] is None or len(known[0]) >= terms):
        return None if known[0] is None else list(known[0][:terms])
    for family in (_piecewise_polynomial_coefficients, _erf_coefficients):
        result = family(activation, terms)
        if result is not None:
            break
    if len(_COMPUTED) >= _COMPUTED_LIMIT:
        _COMPUTED.pop(next(iter(_COMPUTED)))
    _COMPUTED[key] = (None if result is None else tuple(result),)
    return result


#: Exact coefficients computed in this process, by activation: (the longest list, or None when the
#: activation has no closed form).  At most _COMPUTED_LIMIT activations, the oldest dropped first.
_COMPUTED: dict[tuple[str, str], tuple[tuple | None]] = {}
_COMPUTED_LIMIT = 64


def forget_computed() -> None:
    """Empty the exact coefficients kept in this process (calibration decides each statement alone)."""
    _COMPUTED.clear()


def is_finite_expansion(activation) -> bool:
    """True when σ is a polynomial, so μ_p = 0 beyond its degree."""
    return activation.expr.is_polynomial(activation.x)


def polynomial_degree(activation) -> int:
    """Degree of a polynomial σ; −1 for σ = 0 (SymPy says −∞)."""

    degree = sympy.Poly(activation.expr, activation.x).degree()
    return -1 if degree == -sympy.oo else int(degree)


def _half_line_pieces(activation):
    """(q₊, q₋) as Polys in t > 0 with σ(t) = q₊(t), σ(−t) = q₋(t), or None."""

    if any(k != 0 for k in activation.kinks):
        return None
    t = sympy.Symbol("t", positive=True)
    pieces = []
    for sign in (1, -1):
        branch = sympy.simplify(activation.expr.subs(activation.x, sign * t))
        if branch.has(sympy.Heaviside, sympy.sign, sympy.Abs, sympy.Max, sympy.Min):
            return None
        if not branch.is_polynomial(t):
            return None
        pieces.append(sympy.Poly(branch, t))
    return tuple(pieces)


@lru_cache(maxsize=256)
def _half_normal_moment(k: int):
    """M_k = E[g^k 1{g>0}] for g ~ N(0,1)."""

    dfact = sympy.factorial2(k - 1)
    return dfact / 2 if k % 2 == 0 else dfact / sympy.sqrt(2 * sympy.pi)


def half_line_expectation(poly) -> object:
    """E[1{g>0} poly(g)] for a Poly in one variable (also the claims' Eg of piecewise polynomials)."""
    return _half_line_expectation(poly)


def _half_line_expectation(poly) -> object:
    """E[1{g>0} poly(g)] for a Poly in one variable."""

    total = sympy.Integer(0)
    for (k,), coeff in poly.terms():
        total += coeff * _half_normal_moment(k)
    return total


def _piecewise_polynomial_coefficients(activation, terms: int) -> list | None:

    pieces = _half_line_pieces(activation)
    if pieces is None:
        return None
    q_pos, q_neg = (list(reversed(piece.all_coeffs())) for piece in pieces)
    # A polynomial σ has μ_p = 0 beyond its degree (He_p is orthogonal to lower degrees).
    degree = polynomial_degree(activation) if is_finite_expansion(activation) else None
    out = []
    for p in range(terms):
        if degree is not None and p > degree:
            out.append(sympy.Integer(0))
            continue
        even = odd = sympy.Integer(0)
        for q, sign in ((q_pos, 1), (q_neg, (-1) ** p)):
            for i, coeff in enumerate(q):
                if coeff != 0:
                    rational, over_root_two_pi = _shifted_half_line_parts(i, p)
                    even += sign * coeff * rational
                    odd += sign * coeff * over_root_two_pi
        # μ_p = (even + odd/√(2π)) / √p!, with √p! = s√r (r squarefree) and the denominator made
        # rational as radsimp would, but without it: radsimp on the expanded value cost 11 s of
        # relu's 241 coefficients, this form 0.3 s
        s, r = _sqrt_factorial(p)
        out.append(
            even * sympy.sqrt(r) / (s * r) + odd * sympy.sqrt(2 * r) / (2 * s * r * sympy.sqrt(sympy.pi))
        )
    return out


#: Integer coefficients of the probabilists' He_p, lowest degree first, from the recurrence
#: He_{n+1}(x) = x He_n(x) − n He_{n−1}(x) (SymPy's hermite_prob builds an expression of degree p,
#: which cost most of a relu series' time).
_HERMITE_PROB: list[list[int]] = [[1], [0, 1]]


def _hermite_prob_coefficients(p: int) -> list[int]:
    while len(_HERMITE_PROB) <= p:
        n = len(_HERMITE_PROB) - 1
        following = [0, *_HERMITE_PROB[n]]
        for i, c in enumerate(_HERMITE_PROB[n - 1]):
            following[i] -= n * c
        _HERMITE_PROB.append(following)
    return _HERMITE_PROB[p]


@lru_cache(maxsize=4096)
def _shifted_half_line_parts(shift: int, p: int) -> tuple:
    """(A, B) with E[1{g>0} g^shift He_p(g)] = A + B/√(2π), A and B rational: the half-normal
    moments M_k are (k−1)!!/2 for even k and (k−1)!!/√(2π) for odd k."""
    even, odd = Fraction(0), 0
    for j, c in enumerate(_hermite_prob_coefficients(p)):
        if c:
            k = shift + j
            if k % 2 == 0:
                even += Fraction(c * _double_factorial(k - 1), 2)
            else:
                odd += c * _double_factorial(k - 1)
    return sympy.Rational(even.numerator, even.denominator), sympy.Integer(odd)


@lru_cache(maxsize=1024)
def _double_factorial(n: int) -> int:
    """n!! for n >= −1 ((−1)!! = 0!! = 1)."""
    return 1 if n <= 0 else n * _double_factorial(n - 2)


def _sqrt_factorial(p: int) -> tuple[int, int]:
    """(s, r) with p! = s² r and r squarefree, from Legendre's formula for each prime's exponent."""
    s = r = 1
    for prime in sympy.primerange(2, p + 1):
        exponent, rest = 0, p
        while rest:
            rest //= prime
            exponent += rest
        s *= prime ** (exponent // 2)
        if exponent % 2:
            r *= prime
    return s, r


def erf_scale(activation):
    """c when σ(x) = erf(c x) with a positive constant c, else None."""

    expr, x = activation.expr, activation.x
    if not isinstance(expr, sympy.erf):
        return None
    c = sympy.simplify(expr.args[0] / x)
    if c.has(x) or not c.is_positive:
        return None
    return c


def _erf_coefficients(activation, terms: int) -> list | None:

    c = erf_scale(activation)
    if c is None:
        return None
    a = c**2
    out = []
    for p in range(terms):
        if p % 2 == 0:
            out.append(sympy.Integer(0))
            continue
        j = (p - 1) // 2
        gaussian_moment = (
            sympy.factorial(2 * j) / sympy.factorial(j) * (-a / (1 + 2 * a)) ** j
            / sympy.sqrt(1 + 2 * a)
        )
        out.append(
            sympy.simplify(
                2 * c / sympy.sqrt(sympy.pi) * gaussian_moment / sympy.sqrt(sympy.factorial(p))
            )
        )
    return out
