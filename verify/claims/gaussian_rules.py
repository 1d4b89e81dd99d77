r"""Exact Gaussian expectations by rules: E[f(g)], g ~ N(0, 1), where SymPy's integrator has none.

Every rule is an exact identity, valid when the expectations involved exist (the existence
step, :mod:`verify.claims.existence`, runs first):

- **linearity**: E[Σ c_j t_j] = Σ c_j E[t_j], constants c_j free of g;
- **parity**: E[t] = 0 when t(−g) = −t(g) (SymPy proves t(−g) + t(g) = 0);
- **Gaussian reweighting**: E[e^{−a g² + b g} F(g)] = s·e^{b²s²/2}·E[F(b s² + s g)] with
  s = (1 + 2a)^{−1/2}, a > −1/2 (complete the square in ∫ F e^{−(1+2a)x²/2 + bx} dx/√(2π));
- **Stein's lemma**: E[g·F(g)] = E[F′(g)] for F absolutely continuous (F free of the kinks of
  Abs, sign, Heaviside, Max, Min), so E[gⁿ R] = E[(gⁿ⁻¹ R)′];
- **closed forms**: E[gⁿ] = (n − 1)!! (n even); the half-normal moments E[|g|^b] =
  2^{b/2} Γ((b + 1)/2)/√π for real b > −1 (∫₀^∞ x^b e^{−x²/2} dx = 2^{(b−1)/2} Γ((b + 1)/2)), with
  gⁿ|g|^a = |g|^{a+n} for even n, and E[|g|^b log|g|] = E[|g|^b]·(log 2 + ψ((b + 1)/2))/2, their
  derivative in b (E[log|g|] = ½(log 2 + ψ(½)) = −(γ + log 2)/2); E[erf(a g + c)] = erf(c/√(1 + 2a²));
  E[erf(a g) erf(b g)] = (2/π) asin(2ab/√((1 + 2a²)(1 + 2b²))) (the arcsine law of two correlated
  Gaussians: erf(a g) = 2P(Z ≤ √2 a g) − 1, Z ~ N(0, 1) independent of g);
- anything else goes to SymPy's ``integrate`` (:func:`verify.claims.gaussian.exact_expectation`).

:func:`rule_expectation` returns the exact value or None; the recursion is bounded by
:data:`MAX_DEPTH`, :data:`MAX_TERMS` and a count of work units (:data:`MAX_WORK`: one per rule
application, more per simplification), never by a clock, so that an adversarial integrand
cannot make it explode and the answer does not depend on the machine's load.
"""

from __future__ import annotations

from functools import lru_cache

import mpmath
import sympy

from verify.base.budget import CPUDeadline
from verify.base.singular import rational_nonnegative, removable_quotient
from verify.claims.almost_everywhere import even_part
from verify.claims.existence import EXISTS, existence, singular_points
from verify.claims.language import GAUSSIAN

#: Nested applications of Stein's lemma and reweighting (each lowers the degree in g or removes
#: a Gaussian factor; the depth bounds what an adversarial integrand can cost).
MAX_DEPTH = 8
#: Additive terms of one expanded integrand (beyond: no rule is tried).
MAX_TERMS = 64
#: Expressions up to this many operations are simplified (SymPy's simplify grows fast beyond).
MAX_SIMPLIFY_OPS = 120
#: Work units one expectation may cost: a rule application costs 1, a simplification
#: SIMPLIFY_COST (E[gelu²] costs about 100; E[tanh(g) He_5(g)] would cost thousands).
MAX_WORK, SIMPLIFY_COST = 600, 25
_NONSMOOTH = (sympy.Abs, sympy.sign, sympy.Heaviside, sympy.Max, sympy.Min, sympy.Piecewise, sympy.floor,
              sympy.ceiling, sympy.frac)

g = GAUSSIAN


class _NoRule(Exception):
    """No rule gives this expectation exactly (or its work budget is spent)."""


class _Work:
    """The work units left to one expectation (MAX_WORK)."""

    left = MAX_WORK

    @classmethod
    def spend(cls, units: int) -> None:
        cls.left -= units
        if cls.left < 0:
            raise _NoRule


#: Bodies whose rules a step's CPU deadline stopped: the next step (or configuration) that asks
#: gets None at once instead of spending its own budget on the same fruitless work.
_STOPPED: set = set()


def forget_stopped() -> None:
    """Forget which bodies a deadline stopped (a run that decides each claim as if alone)."""
    _STOPPED.clear()


@lru_cache(maxsize=512)
def rule_expectation(body, residue=None) -> sympy.Expr | None:
    """E[body(g)] exactly by the rules of the module docstring, or None.

    With ``residue`` (a function of an integrand), a term no rule evaluates, whose expectation
    exists, is left as ``residue(term)`` instead of failing the whole: the value is then exact in
    those unknown numbers, which may cancel (E[e^g tanh g] − e^{1/2} E[tanh(g + 1)] = 0 by
    reweighting, with E[tanh(g + 1)] unknown)."""
    if body in _STOPPED:
        return None
    _Work.left = MAX_WORK
    _Residue.make = residue
    try:
        return sympy.radsimp(_expectation(sympy.sympify(body), 0))
    except (_NoRule, RecursionError):
        return None
    except CPUDeadline:
        _STOPPED.add(body)
        raise
    finally:
        _Residue.make = None


class _Residue:
    """What a term without a rule becomes (None: the rules fail; see :func:`rule_expectation`)."""

    make = None


def _expectation(f, depth: int):
    _Work.spend(1)
    if depth > MAX_DEPTH:
        raise _NoRule
    if not f.has(g):
        return f
    if _is_odd(f):
        return sympy.Integer(0)
    constant = _constant_even_part(f)
    if constant is not None:
        return constant
    even = even_part(f)  # f with jumps: its even part off a null set, free of them
    if even is not None:
        _Work.spend(SIMPLIFY_COST)
        return _expectation(even, depth + 1)
    removable = _taylor_remainder(f, depth)
    if removable is not None:
        return removable
    if depth == 0:
        # every polynomial factor moved onto derivatives at once (Hermite reduction): identities
        # between derivatives cancel (E[g³σ] = 2E[gσ] + E[g²σ′]) before the terms are split
        reduced = _hermite_reduced(f)
        if reduced is not None:
            terms = sympy.Add.make_args(sympy.expand(reduced))
            polynomial = sympy.Add(*[t for t in terms if t.is_polynomial(g)])
            if _vanishes(reduced - polynomial):
                return _closed_form(polynomial, depth)
            # what is left may be odd or have a constant even part (E[He₃ softplus] = E[σ″] = 0);
            # a failed attempt gives its work back to the term-by-term rules below (at most twice
            # MAX_WORK in all, at depth 0 only)
            saved = _Work.left
            try:
                return _closed_form(polynomial, depth) + _expectation(sympy.expand(reduced - polynomial),
                                                                      depth + 1)
            except _NoRule:
                _Work.left = saved
    for terms in (sympy.Add.make_args(f), sympy.Add.make_args(sympy.expand(f))):
        if len(terms) > 1:
            try:
                return _linear(terms, depth)
            except _NoRule:
                break
    else:
        try:
            return _term(f, depth)
        except _NoRule:
            pass
    # No rule for every term: Stein's lemma on the whole integrand, E[g·A + B] = E[A′ + B], and again
    # (E[g tanh(g) + tanh(g)² − 1] = E[1 − tanh² + tanh² − 1] = 0).
    reduced = _stein_reduced(f)
    if reduced is None:
        raise _NoRule
    return _expectation(reduced, depth + 1)


def _hermite_coefficient(n: int, k: int):
    """a with gⁿ = Σ_k a·He_k(g): n!/(k!·m!·2^m), m = (n − k)/2 (n − k even, else 0)."""
    if (n - k) % 2:
        return sympy.Integer(0)
    m = (n - k) // 2
    return sympy.factorial(n) / (sympy.factorial(k) * sympy.factorial(m) * 2**m)


def _hermite_reduced(f):
    """f with every term c·gⁿ·F(g) (F smooth, not a polynomial) replaced by Σ_k a_{n,k} c·F⁽ᵏ⁾(g):
    E[He_k(g) F(g)] = E[F⁽ᵏ⁾(g)] (Stein's lemma k times), valid when F, ..., F⁽ⁿ⁻¹⁾ are continuous
    with no real singular point (so absolutely continuous) and every F⁽ʲ⁾, j ≤ n, has an
    expectation (both checked); None when no term has a polynomial factor."""
    terms = sympy.Add.make_args(sympy.expand(f))
    if len(terms) > MAX_TERMS:
        return None
    total, moved = sympy.Integer(0), False
    for term in terms:
        c, rest = term.as_independent(g, as_Add=False)
        n, others = 0, []
        for factor in sympy.Mul.make_args(rest):
            base, exponent = factor.as_base_exp()
            if base == g and exponent.is_Integer and exponent > 0:
                n += int(exponent)
            else:
                others.append(factor)
        smooth = sympy.Mul(*others)
        if n == 0 or not smooth.has(g) or not _continuous(smooth):
            total += term
            continue
        derivatives = [smooth]
        for _ in range(n):
            _Work.spend(1)
            derivatives.append(sympy.diff(derivatives[-1], g))
        # Stein's lemma k times needs F, F', ..., F^(k-1) absolutely continuous, not F alone:
        # |g|·sqrt(1 + g^2) = sqrt(g^2 + g^4) is continuous, but its F' jumps by 2 at 0, and then
        # E[He_2 F] = E[F''] + 2 phi(0) (a red team's false identity held exact)
        if not all(_continuous(d) for d in derivatives[1:n]):
            total += term
            continue
        if any(existence(d).status != EXISTS for d in derivatives):
            raise _NoRule
        total += c * sympy.Add(*[_hermite_coefficient(n, k) * derivatives[k] for k in range(n + 1)])
        moved = True
    return total if moved else None


#: Points where :func:`_visibly_nonzero` evaluates (irrational-looking, so no accidental root).
_PROBES = ("0.3719", "-1.1303", "0.7071", "-2.2361")


def _visibly_nonzero(f) -> bool:
    """Whether f(g) is far from 0 (above 1e-12, at 30 digits) at one of :data:`_PROBES`: then f
    is not identically 0.  A wrong False only costs the exact attempt that follows; True is
    asserted only on a value a thousand times above the evaluation's rounding."""
    try:
        function = sympy.lambdify(g, f, modules="mpmath")
        with mpmath.workdps(30):
            return any(abs(mpmath.mpmathify(function(mpmath.mpf(p)))) > mpmath.mpf("1e-12") for p in _PROBES)
    except Exception:  # a value mpmath cannot give (a pole, an overflow): decide exactly instead
        return False


def _vanishes(f, simplify_ops: int = 4 * MAX_SIMPLIFY_OPS) -> bool:
    """f = 0 identically, proved exactly: cancel, or cancel as a rational function of e^g (the
    derivatives of sigmoid, tanh and softplus are), or simplify when at most ``simplify_ops``."""
    _Work.spend(SIMPLIFY_COST)
    if _visibly_nonzero(f):
        return False  # one value away from 0 settles it; cancel took minutes on tanh³·erf(g²)
    if sympy.cancel(sympy.expand(f)) == 0:
        return True
    if f.has(sympy.log) and sympy.expand(_split_rational_logs(f)) == 0:
        return True
    y = sympy.Symbol("y", positive=True)
    rational = sympy.powsimp(sympy.expand(f.rewrite(sympy.exp))).subs(sympy.exp(g), y)
    if not rational.has(g):
        # a rational function of y = e^g in lowest terms: 0, or zero at finitely many y only
        return sympy.cancel(sympy.together(rational)) == 0
    return sympy.count_ops(f) <= simplify_ops and sympy.simplify(f) == 0


def _split_rational_logs(f):
    """f with each log(r), r = N/D a rational function of g >= 0 wherever defined
    (:func:`verify.base.singular.rational_nonnegative`), written log|c| + Σ e_i log|p_i| over the
    factorization c Π p_i^{e_i} of N/D into primitive irreducible polynomials.  N and D then have
    one sign off their zeros, so log(N/D) = log|N| − log|D| there, and the factorization is
    canonical: log((1 + g + g²)/(1 − g + g²)) + its value at −g cancels term by term.  Equal to f
    except at the finitely many zeros and poles of the r, which no expectation sees."""
    def split(node):
        (r,) = node.args
        if not r.has(g) or not rational_nonnegative(r, g):
            return node
        numerator, denominator = sympy.fraction(sympy.together(r))
        (top, above), (bottom, below) = (sympy.factor_list(side, g) for side in (numerator, denominator))
        constant = top / bottom
        if not (constant.is_Rational and constant > 0):
            return node
        return sympy.log(constant) + sympy.Add(*(e * sympy.log(sympy.Abs(p)) for p, e in above)) \
            - sympy.Add(*(e * sympy.log(sympy.Abs(p)) for p, e in below))

    return f.replace(lambda node: isinstance(node, sympy.log), split)


@lru_cache(maxsize=512)
def _continuous(a) -> bool:
    """Whether ``a`` is free of kinks and of real singular points, so that Stein's lemma applies
    to it: atan(1/g) is bounded, yet it jumps by π at 0, and E[g atan(1/g)] = E[(atan(1/g))′] +
    π φ(0).  Conservative: a removable singularity (sin(g)/g) is refused too."""
    if a.has(*_NONSMOOTH):
        return False
    found = singular_points(a)
    return found is not None and not found[0]


def _stein_reduced(f):
    """A′ + B for f = g·A + B (A smooth, not a polynomial), simplified; None when f has no g·A."""
    with_g, without = [], []
    for term in sympy.Add.make_args(sympy.expand(f)):
        factors = sympy.Mul.make_args(term)
        if g in factors or any(x.is_Pow and x.base == g and x.exp.is_Integer and x.exp > 0 for x in factors):
            with_g.append(term / g)
        else:
            without.append(term)
    a = sympy.Add(*with_g)
    if not with_g or a.is_polynomial(g) or not _continuous(a):
        return None
    reduced = _simplified(sympy.diff(a, g) + sympy.Add(*without))
    return None if reduced == f else reduced


def _simplified(f):
    if sympy.count_ops(f) > MAX_SIMPLIFY_OPS:
        return sympy.expand(f)
    _Work.spend(SIMPLIFY_COST)
    return sympy.simplify(f)


def _linear(terms, depth: int):
    """Σ E[t_j]: each E[t_j] must exist on its own (a sum can exist while its terms do not)."""
    if len(terms) > MAX_TERMS:
        raise _NoRule
    if any(existence(t).status != EXISTS for t in terms if t.has(g)):
        raise _NoRule
    return sympy.Add(*[_expectation(t, depth) for t in terms])


def _term(t, depth: int):
    constant, rest = t.as_independent(g, as_Add=False)
    if constant != 1:
        return constant * _expectation(rest, depth)
    if _is_odd(rest):
        return sympy.Integer(0)
    for rule in (_closed_form, _reweighted, _stein, _hyperbolic):
        value = rule(rest, depth)
        if value is not None:
            return value
    if _Residue.make is not None and existence(rest).status == EXISTS:
        value = _Residue.make(rest)
        if value is not None:  # None: the residue has no value either
            return value
    raise _NoRule


def _is_odd(f) -> bool:
    """f(−g) + f(g) = 0, proved by SymPy (expand, then simplify for small expressions: the
    sigmoid's σ(−g) + σ(g) − 1 = 0 needs it)."""
    try:
        total = sympy.expand(f.xreplace({g: -g}) + f)
        if total == 0:
            return True
        # expand settles polynomials and erf (odd by construction); exponentials need a rational
        # function of e^g (sigmoid(-g) + sigmoid(g) - 1) or, when small, simplify
        return total.has(sympy.exp, sympy.tanh, sympy.log) and sympy.count_ops(total) <= MAX_SIMPLIFY_OPS \
            and _vanishes(total, simplify_ops=MAX_SIMPLIFY_OPS // 3)
    except (TypeError, ValueError):
        return False


def _constant_even_part(f):
    """c when f(g) + f(−g) = 2c identically (then E[f] = c, g being symmetric), proved by exact
    cancellation as for :func:`_is_odd`; c = f(0).  E[σ] = 1/2 for the sigmoid and E[softplus′] =
    1/2 this way.  None when f has no exponential (polynomials and erf are settled elsewhere)."""
    if not f.has(sympy.exp, sympy.tanh, sympy.log):
        return None
    try:
        c = f.subs(g, 0)
        if not (c.is_finite and c.is_real) or c.has(sympy.nan, sympy.zoo):
            return None
        total = sympy.expand(f.xreplace({g: -g}) + f - 2 * c)
        # most integrands have no constant even part: one probe says so before any work is spent
        if sympy.count_ops(total) > MAX_SIMPLIFY_OPS or _visibly_nonzero(total):
            return None
        if not _vanishes(total, simplify_ops=MAX_SIMPLIFY_OPS // 3):
            return None
    except (TypeError, ValueError):
        return None
    return c


def _closed_form(t, depth: int):
    moment = _half_normal(t)
    if moment is not None:
        return moment
    if t.is_polynomial(g):
        poly = sympy.Poly(t, g)
        return sum((c * _moment(n) for (n,), c in poly.terms()), sympy.Integer(0))
    factors = sympy.Mul.make_args(t)
    erfs = [f for f in factors if isinstance(f, sympy.erf)]
    powers = [f for f in factors if f.is_Pow and isinstance(f.base, sympy.erf) and f.exp == 2]
    if len(factors) == 1 and len(erfs) == 1:
        a, c = _affine(erfs[0].args[0])
        if a is not None:
            return sympy.erf(c / sympy.sqrt(1 + 2 * a**2))
    pair = erfs if len(erfs) == 2 and len(factors) == 2 else (
        [powers[0].base] * 2 if len(powers) == 1 and len(factors) == 1 else None)
    if pair:
        (a, c), (b, d) = (_affine(e.args[0]) for e in pair)
        if a is not None and b is not None and c == 0 and d == 0:
            return 2 / sympy.pi * sympy.asin(2 * a * b / sympy.sqrt((1 + 2 * a**2) * (1 + 2 * b**2)))
    return _exponential_sum(t)


_LAMBDA = sympy.Dummy("lambda")


def _exponential_sum(t):
    """E[t] for t a sum of c·gⁿ·e^{λg} once sin and cos are complex exponentials (cos(g + 1),
    e^g cos g, sin²(2g)): E[gⁿ e^{λg}] = (d/dλ)ⁿ e^{λ²/2} for every complex λ (the moment generating
    function is entire), and E[t] is the real part of the sum for a real t.  None otherwise."""
    if not t.has(sympy.sin, sympy.cos) or t.has(*_NONSMOOTH):
        return None
    terms = sympy.Add.make_args(sympy.expand(sympy.powsimp(sympy.expand(t.rewrite(sympy.exp)))))
    if len(terms) > MAX_TERMS:
        return None
    total = sympy.Integer(0)
    for term in terms:
        c, rest = term.as_independent(g, as_Add=False)
        n, slope, shift = 0, sympy.Integer(0), sympy.Integer(0)
        for factor in sympy.Mul.make_args(rest):
            base, exponent = factor.as_base_exp()
            if factor == 1:  # the constant term
                continue
            if base == g and exponent.is_Integer and exponent > 0:
                n += int(exponent)
            elif isinstance(factor, sympy.exp) and factor.args[0].is_polynomial(g) \
                    and sympy.degree(factor.args[0], g) <= 1:
                poly = sympy.Poly(factor.args[0], g)
                slope, shift = slope + poly.coeff_monomial(g), shift + poly.coeff_monomial(1)
            else:
                return None
        _Work.spend(1)
        moment = sympy.diff(sympy.exp(_LAMBDA**2 / 2), _LAMBDA, n).xreplace({_LAMBDA: slope})
        total += c * sympy.exp(shift) * moment
    return sympy.simplify(sympy.re(sympy.expand_complex(total)))


_S = sympy.Dummy("s", positive=True)


def _taylor_remainder(f, depth: int):
    """E[N(g)/(g - p)^m] at a removable singularity p (N(p) = … = N^(m-1)(p) = 0, proved exactly by
    :func:`verify.base.singular.removable_quotient`) through Taylor's integral remainder,

        N(g)/(g - p)^m = 1/(m-1)! ∫_0^1 (1 - s)^(m-1) N^(m)(p + s(g - p)) ds,

    and Fubini: E[f] = 1/(m-1)! ∫_0^1 (1 - s)^(m-1) E[N^(m)(p + s(g - p))] ds.  Its hypothesis,
    checked here: N^(m) is of exponential type (a finite sum of c·gⁿ·e^{λg}, λ complex, once sin
    and cos are exponentials), so |N^(m)(p + s(g - p))| ≤ C(1 + |g|)ⁿ e^{|Re λ|(|p| + |g - p|)} for
    every s in [0, 1], integrable against φ: Fubini applies and N is entire.  E[(1 - cos g)/g²] =
    ∫_0^1 (1 - s) e^{-s²/2} ds this way.  None when the rule does not apply."""
    if not any(a.is_Pow and a.exp.is_negative for a in f.atoms(sympy.Pow)):
        return None
    found = singular_points(f)
    if found is None or not found[1] or len(found[0]) != 1:
        return None
    (p,) = found[0]
    written = removable_quotient(f, g, p)
    if written is None:
        return None
    m, numerator = written
    _Work.spend(SIMPLIFY_COST)
    derivative = sympy.diff(numerator, g, m)
    if not exponential_type(derivative):
        return None
    inner = _expectation(sympy.expand(derivative.xreplace({g: p + _S * (g - p)})), depth + 1)
    if inner.has(g) or inner.has(sympy.Integral):
        return None
    _Work.spend(SIMPLIFY_COST)
    value = sympy.integrate((1 - _S) ** (m - 1) * inner, (_S, 0, 1)) / sympy.factorial(m - 1)
    if value.has(sympy.Integral) or not value.is_finite:
        return None
    return sympy.simplify(value)


def exponential_type(expr) -> bool:
    """Whether ``expr`` is a finite sum of c·gⁿ·e^{λg} (c, λ free of g, n a natural number) once sin,
    cos, sinh and cosh are written as exponentials."""
    if expr.has(*_NONSMOOTH):
        return False
    terms = sympy.Add.make_args(sympy.expand(sympy.powsimp(sympy.expand(expr.rewrite(sympy.exp)))))
    if len(terms) > MAX_TERMS:
        return False
    for term in terms:
        for factor in sympy.Mul.make_args(term.as_independent(g, as_Add=False)[1]):
            base, exponent = factor.as_base_exp()
            if factor == 1 or (base == g and exponent.is_Integer and exponent > 0):
                continue
            if not (isinstance(factor, sympy.exp) and factor.args[0].is_polynomial(g)
                    and sympy.degree(factor.args[0], g) <= 1):
                return False
    return True


#: Highest power n of log|g| in E[|g|^b log^n |g|] (each is one more derivative in b).
MAX_LOG_POWER = 4
_B = sympy.Dummy("b")


def _half_normal(t):
    """E[|g|^b log^n|g|] (n derivatives in b of the half-normal moment, module docstring) when ``t``
    is gⁿ·|g|^a (n even) times a power of log|g|; else None.  |gᵃ| is |g|ᵃ for real a (also for
    g < 0, where gᵃ = e^{iπa}|g|ᵃ), which SymPy leaves as is."""
    t = t.replace(lambda e: isinstance(e, sympy.Abs) and e.args[0].is_Pow and e.args[0].base == g
                  and e.args[0].exp.is_real, lambda e: sympy.Abs(g) ** e.args[0].exp)
    b, logarithms = sympy.Integer(0), 0
    log_abs = sympy.log(sympy.Abs(g))
    for factor in sympy.Mul.make_args(sympy.powsimp(t)):
        base, exponent = factor.as_base_exp()
        if base == log_abs and exponent.is_Integer and exponent > 0:
            logarithms += int(exponent)
        elif base == sympy.Abs(g) and exponent.is_real:
            b += exponent
        elif base == g and exponent.is_Integer and exponent > 0 and exponent % 2 == 0:
            b += exponent
        else:
            return None
    if not t.has(sympy.Abs) or (b > -1) is not sympy.true or logarithms > MAX_LOG_POWER:
        return None  # polynomials go to the moments below; b <= -1 diverges (existence step)
    moment = 2 ** (_B / 2) * sympy.gamma((_B + 1) / 2) / sympy.sqrt(sympy.pi)
    # E[|g|^b log^n|g|] = (d/db)^n E[|g|^b]: the moment is analytic in b > -1, and differentiating
    # under the integral is dominated there (|x|^b |log|x||^n is integrable against phi)
    return sympy.expand_func(sympy.diff(moment, _B, logarithms).xreplace({_B: b}))


def _moment(n: int):
    return sympy.Integer(0) if n % 2 else sympy.factorial2(n - 1)


def _affine(argument):
    """(a, c) with argument = a·g + c, a and c free of g; (None, None) otherwise."""
    poly = sympy.Poly(argument, g) if argument.is_polynomial(g) else None
    if poly is None or poly.degree() > 1:
        return None, None
    a = poly.coeff_monomial(g)
    return a, poly.coeff_monomial(1)


def _reweighted(t, depth: int):
    """Gaussian factors exp(−a g² + b g) absorbed into the density (module docstring)."""
    exponent, rest = sympy.Integer(0), []
    for factor in sympy.Mul.make_args(t):
        if isinstance(factor, sympy.exp) and factor.args[0].is_polynomial(g) \
                and sympy.degree(factor.args[0], g) <= 2:
            exponent += factor.args[0]
        else:
            rest.append(factor)
    if exponent == 0:
        return None
    poly = sympy.Poly(sympy.expand(exponent), g)
    a, b, c = -poly.coeff_monomial(g**2), poly.coeff_monomial(g), poly.coeff_monomial(1)
    if not (1 + 2 * a).is_positive:
        return None
    s = 1 / sympy.sqrt(1 + 2 * a)
    inner = sympy.Mul(*rest).xreplace({g: b * s**2 + s * g})
    return s * sympy.exp(c + b**2 * s**2 / 2) * _expectation(inner, depth + 1)


def _hyperbolic(t, depth: int):
    """sinh and cosh as exponentials, an identity (cosh(log|g|/2) = (|g|^(1/2) + |g|^(-1/2))/2, whose
    half-normal moments are known); None when t has neither."""
    if not t.has(sympy.sinh, sympy.cosh):
        return None
    rewritten = sympy.expand(t.rewrite(sympy.exp))
    if rewritten == t:
        return None
    return _expectation(rewritten, depth + 1)


def _stein(t, depth: int):
    """E[g·F] = E[F′] for a smooth F (module docstring)."""
    factors = sympy.Mul.make_args(t)
    power = next((f for f in factors if f == g or (f.is_Pow and f.base == g and f.exp.is_Integer
                                                   and f.exp > 0)), None)
    if power is None:
        return None
    rest = sympy.Mul(*[f for f in factors if f is not power])
    if rest.is_polynomial(g) or not _continuous(rest):
        return None
    n = 1 if power == g else int(power.exp)
    inner = g ** (n - 1) * rest
    return _expectation(sympy.diff(inner, g), depth + 1)
