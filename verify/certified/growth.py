r"""Provable growth bounds of σ on the tails |x| ≥ R, by structural induction on its expression.

On a tail side x = s·t (s = ±1, t ≥ R ≥ 1) every subexpression f of the piece expression gets

- a *majorant* |f| ≤ M(t) = Σ c·tⁿ·e^{bt}, with rationals c ≥ 0, b ≥ 0 and integers n ≥ 0
  (polynomial growth A + B|x|^q is the case b = 0; exp(x) is allowed, being in L²(N(0,1)));
- optionally an affine *upper* bound f ≤ α + βt and an affine *lower* bound f ≥ α + βt.

The rules (each an elementary inequality for t ≥ R ≥ 1; rationals are rounded outward from
Arb balls, so every stored number is a valid bound):

- x = s·t: M = t, α + βt = s·t both ways; a number c ∈ [c⁻, c⁺]: M = max|c±|, bounds c⁻, c⁺;
- sums add majorants and affine bounds; products multiply majorants, and a constant factor
  scales affine bounds (swapping them when it is negative);
- fⁿ (n ≥ 1): Mⁿ, and ≥ 0 for even n; f⁻ⁿ and log f need |f| ≥ ℓ > 0, read off an affine
  bound that stays away from 0 for t ≥ R; f^r (r not an integer) needs f ≥ 0, and uses
  Σ c tⁿ e^{bt} ≤ (Σc) t^{max n} e^{(max b) t} for t ≥ 1;
- exp f ≤ e^{α+βt} from f ≤ α + βt (a constant e^{α+βR} when β ≤ 0), exp f ≥ e^{α'+β'R} > 0
  when f ≥ α' + β't with β' ≥ 0;
- log f ≤ log C + (n + b)t from f ≤ C tⁿ e^{bt} and log t ≤ t; log f ≥ log ℓ; the log of a
  product is the sum of its factors' logs when every factor is proved positive;
- sin, cos ∈ [−1, 1]; tanh, erf ∈ [−1, 1] and atan ∈ [−π/2, π/2], tightened by monotonicity;
  erfc ∈ [0, 2]; |sinh f|, cosh f ≤ e^{|f|}; |asinh f| ≤ |f|;
- the switches, whatever their branch: sign f ∈ [−1, 1], Heaviside f and frac f ∈ [0, 1],
  |Abs f| = |f| ≥ 0, f − 1 ≤ floor f ≤ f and f ≤ ceiling f ≤ f + 1.

A node no rule covers leaves the majorant unknown, and :func:`tail_majorant` refuses the
activation (CertificationError): the tails would be unbounded for all we can prove.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
import sympy
from flint import arb, ctx

from verify.certified.balls import exact, interval, lower_fraction, upper_fraction
from verify.certified.compile import RealBackend, compile_expression, constant, number_fraction
from verify.certified.errors import CertificationError

#: Bits used to round transcendental constants of the bounds (e^α, log C) outward to rationals.
BOUND_BITS = 128

Term = tuple[int, Fraction]  # (n, b) of c·tⁿ·e^{bt}


@dataclass(frozen=True)
class Majorant:
    """|f| ≤ Σ_{(n, b)} c·tⁿ·e^{bt} for t ≥ R (``terms`` maps (n, b) to c ≥ 0)."""

    terms: dict[Term, Fraction] = field(default_factory=dict)

    @staticmethod
    def constant(c: Fraction) -> Majorant:
        return Majorant({(0, Fraction(0)): c})

    def __add__(self, other: Majorant) -> Majorant:
        out = dict(self.terms)
        for key, c in other.terms.items():
            out[key] = out.get(key, Fraction(0)) + c
        return Majorant(out)

    def __mul__(self, other: Majorant) -> Majorant:
        out: dict[Term, Fraction] = {}
        for (n1, b1), c1 in self.terms.items():
            for (n2, b2), c2 in other.terms.items():
                key = (n1 + n2, b1 + b2)
                out[key] = out.get(key, Fraction(0)) + c1 * c2
        return Majorant(out)

    def power(self, n: int) -> Majorant:
        result = Majorant.constant(Fraction(1))
        for _ in range(n):
            result = result * self
        return result

    def collapsed(self) -> tuple[Fraction, int, Fraction]:
        """(C, n, b) with Σ c tⁿ e^{bt} ≤ C t^n e^{bt} for t ≥ 1."""
        if not self.terms:
            return Fraction(0), 0, Fraction(0)
        return (sum(self.terms.values(), Fraction(0)), max(n for n, _ in self.terms),
                max(b for _, b in self.terms))

    def affine(self) -> tuple[Fraction, Fraction] | None:
        """(c₀, c₁) when M = c₀ + c₁t (no exponentials, degree ≤ 1), else None."""
        if any(b != 0 or n > 1 for n, b in self.terms):
            return None
        return (self.terms.get((0, Fraction(0)), Fraction(0)), self.terms.get((1, Fraction(0)), Fraction(0)))

    def describe(self) -> str:
        parts = []
        for (n, b), c in sorted(self.terms.items()):
            if c == 0:
                continue
            factors = [_short(c)] + ([f"|x|^{n}"] if n else [])
            parts.append("*".join(factors + ([f"exp({_short(b)}|x|)"] if b else [])))
        return " + ".join(parts) or "0"


def _short(value: Fraction) -> str:
    """``value`` to 4 significant digits, at any size: a coefficient of e^{2000 tanh x}'s bound
    is past the float range, and float() of it raised OverflowError in an error message."""
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if math.isfinite(number) and (number != 0 or value == 0):
        return f"{number:.4g}"
    return mpmath.nstr(mpmath.mpf(value.numerator) / value.denominator, 4)  # past the float range


Affine = tuple[Fraction, Fraction]  # α + βt
ZERO, ONE = Fraction(0), Fraction(1)


def _flat(value: Fraction) -> Affine:
    """The constant bound α + 0·t."""
    return (value, ZERO)


@dataclass(frozen=True)
class Envelope:
    """What is proven about one subexpression on one tail side, for t ≥ R."""

    majorant: Majorant | None
    upper: Affine | None = None
    lower: Affine | None = None


def tail_majorant(expr, x, side: int, cutoff: int, parameters: dict | None = None) -> Majorant:
    """A majorant of |expr| on x = side·t, t ≥ ``cutoff`` (≥ 1); CertificationError if none.

    ``parameters`` maps other symbols of ``expr`` to the closed intervals (lo, hi) they range
    over: every subexpression free of x is then enclosed by interval arithmetic over them, so the
    majorant holds for every value of the parameters at once (``exp(-a*x**2)`` for a in [1/4, 1]:
    |f| ≤ 1)."""
    if cutoff < 1:
        raise ValueError("the tail rules assume t >= 1")
    with ctx.workprec(BOUND_BITS):
        envelope = _Rules(x, side, cutoff, parameters or {}).envelope(expr)
    if envelope.majorant is None:
        raise CertificationError(f"no provable growth bound for {expr} as x -> {'+' if side > 0 else '-'}oo "
                                 "(supported: polynomials, exp/log/sqrt/powers, bounded functions)")
    return envelope.majorant


def _up(x: arb) -> Fraction:
    if not x.is_finite():
        raise CertificationError(f"a bound evaluated to the non-finite ball {x}")
    return upper_fraction(x)


def _low(x: arb) -> Fraction:
    if not x.is_finite():
        raise CertificationError(f"a bound evaluated to the non-finite ball {x}")
    return lower_fraction(x)


def _at(bound: Affine, cutoff: int) -> Fraction:
    return bound[0] + bound[1] * cutoff


def _completed(env: Envelope) -> Envelope:
    """Fill in what follows from the rest: |f| from two affine bounds, affine bounds from an
    affine majorant."""
    majorant, upper, lower = env.majorant, env.upper, env.lower
    if majorant is None and upper is not None and lower is not None:
        # f ≤ α + βt ≤ |α| + |β|t and −f ≤ −α' − β't ≤ |α'| + |β'|t.
        majorant = Majorant({(0, Fraction(0)): abs(upper[0]) + abs(lower[0]),
                             (1, Fraction(0)): abs(upper[1]) + abs(lower[1])})
    line = majorant.affine() if majorant is not None else None
    if line is not None:
        upper = upper or line
        lower = lower or (-line[0], -line[1])
    return Envelope(majorant, upper, lower)


class _Rules:
    def __init__(self, x, side: int, cutoff: int, parameters: dict):
        self.x, self.side, self.cutoff = x, side, cutoff
        self.parameters = parameters

    def constant(self, expr) -> arb:
        """A ball containing ``expr`` (free of x) for every value of the parameters."""
        free = expr.free_symbols
        if not free:
            return constant(expr)
        if len(free) > 1 or not free <= set(self.parameters):
            raise CertificationError(f"no enclosure of {expr} over its parameters' ranges")
        (symbol,) = free
        low, high = self.parameters[symbol]
        value = compile_expression(expr, symbol, RealBackend())(interval(low, high))
        if not value.is_finite():
            raise CertificationError(f"{expr} is not finite for every {symbol} in [{low}, {high}]")
        return value

    def bounds(self, expr) -> tuple[Fraction, Fraction]:
        """Rationals lo ≤ expr ≤ hi (``expr`` free of x) for every value of the parameters.  A ball's
        radius is rounded up, so the ball of a over [0, 1] reaches −10⁻⁹; the sign SymPy proves
        from the parameters' assumptions (a symbol standing for a over [0, 1] is nonnegative)
        clamps that overshoot, so −a·x² is still ≤ 0."""
        value = self.constant(expr)
        lo, hi = _low(value), _up(value)
        if expr.free_symbols:
            if expr.is_nonnegative and lo < 0:
                lo = Fraction(0)
            if expr.is_nonpositive and hi > 0:
                hi = Fraction(0)
        return lo, hi

    def envelope(self, expr) -> Envelope:

        x = self.x
        if x not in expr.free_symbols:
            lo, hi = self.bounds(expr)
            return Envelope(Majorant.constant(max(abs(lo), abs(hi))), (hi, Fraction(0)), (lo, Fraction(0)))
        if expr == x:
            line = (Fraction(0), Fraction(self.side))
            return Envelope(Majorant({(1, Fraction(0)): Fraction(1)}), line, line)
        if isinstance(expr, sympy.Add):
            return _completed(self.add([self.envelope(a) for a in expr.args]))
        if isinstance(expr, sympy.Mul):
            return _completed(self.mul(expr))
        if isinstance(expr, sympy.Pow):
            return _completed(self.power(expr))
        if isinstance(expr, sympy.log) and isinstance(expr.args[0], sympy.Mul):
            whole = _completed(self.rule_log(self.envelope(expr.args[0])))
            return whole if whole.majorant is not None else _completed(self.log_of_product(expr.args[0]))
        name = type(expr).__name__
        if len(expr.args) == 1 or isinstance(expr, sympy.Heaviside):  # Heaviside(u, 1/2): its value at 0
            rule = getattr(self, "rule_" + name, None)
            if rule is not None:
                return _completed(rule(self.envelope(expr.args[0])))
        if isinstance(expr, sympy.Max | sympy.Min):
            parts = [self.envelope(a) for a in expr.args]
            return _completed(self.extreme(parts, isinstance(expr, sympy.Max)))
        return Envelope(None)

    @staticmethod
    def extreme(parts: list[Envelope], largest: bool) -> Envelope:
        """Max (``largest``) or Min of several: |max| ≤ Σ|fᵢ|; for t ≥ 0, max(αᵢ + βᵢt) ≤ max α +
        (max β)t and min(αᵢ + βᵢt) ≥ min α + (min β)t; and max ≥ any one lower bound, min ≤ any
        one upper bound (the steepest is kept)."""
        majorant = None if any(p.majorant is None for p in parts) else sum(
            (p.majorant for p in parts[1:]), parts[0].majorant)
        together = [p.upper if largest else p.lower for p in parts]
        pick = max if largest else min
        joint = None if any(b is None for b in together) else (pick(b[0] for b in together),
                                                               pick(b[1] for b in together))
        single = [b for b in (p.lower if largest else p.upper for p in parts) if b is not None]
        one = (max if largest else min)(single, key=lambda b: (b[1], b[0])) if single else None
        return Envelope(majorant, joint, one) if largest else Envelope(majorant, one, joint)

    def log_of_product(self, product) -> Envelope:
        """log(Π bᵢ^eᵢ) = Σ eᵢ·log bᵢ, which needs every base bᵢ > 0 on the tail: a constant base
        by its ball, another by a positive floor of its own.  The quotient (1 + x²)/(2 + x²) has no
        floor the product rule can see, but each log of its factors has bounds, so its log is
        bounded."""
        terms = []
        for factor in product.args:
            base, exponent = factor.as_base_exp()
            if self.x in base.free_symbols:
                if self.positive_floor(self.envelope(base)) is None:
                    return Envelope(None)
            elif self.bounds(base)[0] <= 0:
                return Envelope(None)
            terms.append(exponent * sympy.log(base))
        return self.add([self.envelope(term) for term in terms])

    # -- arithmetic
    @staticmethod
    def add(parts: list[Envelope]) -> Envelope:
        majorant: Majorant | None = Majorant()
        for p in parts:
            majorant = None if majorant is None or p.majorant is None else majorant + p.majorant

        def total(bounds):
            if any(b is None for b in bounds):
                return None
            return (sum((b[0] for b in bounds), Fraction(0)), sum((b[1] for b in bounds), Fraction(0)))

        return Envelope(majorant, total([p.upper for p in parts]), total([p.lower for p in parts]))

    def mul(self, expr) -> Envelope:
        x = self.x
        numbers = [a for a in expr.args if x not in a.free_symbols]
        others = [self.envelope(a) for a in expr.args if x in a.free_symbols]
        lo, hi = self.bounds(expr.func(*numbers)) if numbers else (ONE, ONE)
        if any(p.majorant is None for p in others):
            majorant = None
        else:
            majorant = Majorant.constant(max(abs(lo), abs(hi)))
            for p in others:
                majorant = majorant * p.majorant  # type: ignore[operator]
        if len(others) != 1:
            return Envelope(majorant)
        (only,) = others
        if lo >= 0:
            return Envelope(majorant, _scaled(only.upper, lo, hi, max), _scaled(only.lower, lo, hi, min))
        if hi <= 0:
            return Envelope(majorant, _scaled(only.lower, lo, hi, max), _scaled(only.upper, lo, hi, min))
        return Envelope(majorant)

    def positive_floor(self, env: Envelope) -> Fraction | None:
        """ℓ > 0 with f ≥ ℓ for all t ≥ R, when the lower bound proves one."""
        if env.lower is not None and env.lower[1] >= 0 and _at(env.lower, self.cutoff) > 0:
            return _at(env.lower, self.cutoff)
        return None

    def magnitude_floor(self, env: Envelope) -> tuple[Fraction, int] | None:
        """(ℓ, sign) with sign·f ≥ ℓ > 0 for all t ≥ R."""
        floor = self.positive_floor(env)
        if floor is not None:
            return floor, 1
        if env.upper is not None and env.upper[1] <= 0 and _at(env.upper, self.cutoff) < 0:
            return -_at(env.upper, self.cutoff), -1
        return None

    def power(self, expr) -> Envelope:

        base, exponent = expr.args
        if self.x in exponent.free_symbols:
            # a**f = exp(f·log a) for a number a > 0
            if self.x in base.free_symbols or not self.constant(base) > 0:
                return Envelope(None)
            return self.rule_exp(self.envelope(sympy.log(base) * exponent))
        env = self.envelope(base)
        r = number_fraction(exponent)
        if r is None:
            return Envelope(None)
        if r.denominator == 1 and r > 0:
            n = int(r)
            majorant = None if env.majorant is None else env.majorant.power(n)
            even_floor = (Fraction(0), Fraction(0)) if n % 2 == 0 else None
            return Envelope(majorant, None, even_floor)
        if r.denominator == 1:
            signed_floor = self.magnitude_floor(env)
            if signed_floor is None:
                return Envelope(None)
            ell, sign = signed_floor
            n = int(-r)
            majorant = Majorant.constant(1 / ell**n)
            if sign > 0 or n % 2 == 0:
                return Envelope(majorant, None, (Fraction(0), Fraction(0)))
            return Envelope(majorant, (Fraction(0), Fraction(0)), None)
        # non-integer exponent: real only for f ≥ 0
        if env.lower is None or env.lower[1] < 0 or _at(env.lower, self.cutoff) < 0:
            return Envelope(None)
        if r > 0:
            if env.majorant is None:
                return Envelope(None)
            c, n, b = env.majorant.collapsed()
            scaled = _up(exact(c) ** exact(r)) if c > 0 else Fraction(0)
            return Envelope(Majorant({(math.ceil(n * r), b * r): scaled}), None, (Fraction(0), Fraction(0)))
        floor = self.positive_floor(env)
        if floor is None:
            return Envelope(None)
        return Envelope(Majorant.constant(_up(exact(floor) ** exact(r))), None, (Fraction(0), Fraction(0)))

    # -- functions (rule_<SymPy class name>)
    def rule_exp(self, env: Envelope) -> Envelope:
        if env.upper is None:
            return Envelope(None)
        alpha, beta = env.upper
        if beta <= 0:
            top = _up(exact(_at(env.upper, self.cutoff)).exp())
            majorant, upper = Majorant.constant(top), (top, Fraction(0))
        else:
            majorant, upper = Majorant({(0, beta): _up(exact(alpha).exp())}), None
        lower = (Fraction(0), Fraction(0))
        if env.lower is not None and env.lower[1] >= 0:
            lower = (_low(exact(_at(env.lower, self.cutoff)).exp()), Fraction(0))
        return Envelope(majorant, upper, lower)

    def rule_log(self, env: Envelope) -> Envelope:
        ell = self.positive_floor(env)
        if ell is None or env.majorant is None:
            return Envelope(None)
        c, n, b = env.majorant.collapsed()
        return Envelope(None, (_up(exact(c).log()), n + b), (_low(exact(ell).log()), Fraction(0)))

    def rule_sin(self, env: Envelope) -> Envelope:
        return Envelope(Majorant.constant(ONE), _flat(ONE), _flat(-ONE))

    rule_cos = rule_sin

    def _bounded_increasing(self, env: Envelope, name: str, bound: Fraction) -> Envelope:
        low, high = -bound, bound
        if env.lower is not None and env.lower[1] >= 0:
            low = _low(getattr(exact(_at(env.lower, self.cutoff)), name)())
        if env.upper is not None and env.upper[1] <= 0:
            high = _up(getattr(exact(_at(env.upper, self.cutoff)), name)())
        return Envelope(Majorant.constant(bound), (high, Fraction(0)), (low, Fraction(0)))

    def rule_tanh(self, env: Envelope) -> Envelope:
        return self._bounded_increasing(env, "tanh", Fraction(1))

    def rule_erf(self, env: Envelope) -> Envelope:
        return self._bounded_increasing(env, "erf", Fraction(1))

    def rule_atan(self, env: Envelope) -> Envelope:
        return self._bounded_increasing(env, "atan", _up(arb.pi() / 2))

    def rule_erfc(self, env: Envelope) -> Envelope:
        return Envelope(Majorant.constant(2 * ONE), _flat(2 * ONE), _flat(ZERO))

    def rule_cosh(self, env: Envelope) -> Envelope:
        if env.upper is None or env.lower is None:
            return Envelope(None)
        a = max(abs(env.upper[0]), abs(env.lower[0]))
        b = max(abs(env.upper[1]), abs(env.lower[1]))
        return Envelope(Majorant({(0, b): _up(exact(a).exp())}), None, (Fraction(1), Fraction(0)))

    def rule_sinh(self, env: Envelope) -> Envelope:
        return Envelope(self.rule_cosh(env).majorant)

    # -- switches: bounded whatever branch they take, so no branch point is needed on a tail
    rule_sign = rule_sin  # sign u ∈ [−1, 1], as sin's values

    def rule_Heaviside(self, env: Envelope) -> Envelope:
        return Envelope(Majorant.constant(ONE), _flat(ONE), _flat(ZERO))

    def rule_frac(self, env: Envelope) -> Envelope:
        return self.rule_Heaviside(env)  # frac u ∈ [0, 1), as Heaviside's values

    def rule_Abs(self, env: Envelope) -> Envelope:
        return Envelope(env.majorant, None, _flat(ZERO))

    def rule_floor(self, env: Envelope) -> Envelope:
        """u − 1 < floor u ≤ u, so |floor u| ≤ |u| + 1."""
        return self._within_one(env, below=True)

    def rule_ceiling(self, env: Envelope) -> Envelope:
        """u ≤ ceiling u < u + 1."""
        return self._within_one(env, below=False)

    @staticmethod
    def _within_one(env: Envelope, below: bool) -> Envelope:
        """A value within 1 of u: below it (floor: the lower bound drops by 1) or above it
        (ceiling: the upper bound rises by 1); the other bound is u's."""
        majorant = None if env.majorant is None else env.majorant + Majorant.constant(ONE)
        upper, lower = env.upper, env.lower
        if below and lower is not None:
            lower = (lower[0] - ONE, lower[1])
        if not below and upper is not None:
            upper = (upper[0] + ONE, upper[1])
        return Envelope(majorant, upper, lower)

    def rule_acos(self, env: Envelope) -> Envelope:
        """acos u ∈ [0, π] where −1 ≤ u ≤ 1 is proved on the tail (acos(cos u)); else none."""
        if not self._within_unit(env):
            return Envelope(None)
        return Envelope(Majorant.constant(_up(arb.pi())), _flat(_up(arb.pi())), _flat(ZERO))

    def rule_asin(self, env: Envelope) -> Envelope:
        """asin u ∈ [−π/2, π/2] where −1 ≤ u ≤ 1 is proved on the tail; else none."""
        if not self._within_unit(env):
            return Envelope(None)
        half = _up(arb.pi() / 2)
        return Envelope(Majorant.constant(half), _flat(half), _flat(-half))

    def _within_unit(self, env: Envelope) -> bool:
        """Whether the bounds prove −1 ≤ u ≤ 1 for every t ≥ the cutoff (the slopes point inward)."""
        return (env.upper is not None and env.lower is not None and env.upper[1] <= 0 and env.lower[1] >= 0
                and _at(env.upper, self.cutoff) <= 1 and _at(env.lower, self.cutoff) >= -1)

    def rule_asinh(self, env: Envelope) -> Envelope:
        upper = None if env.upper is None else (max(env.upper[0], ZERO), max(env.upper[1], ZERO))
        lower = None if env.lower is None else (min(env.lower[0], ZERO), min(env.lower[1], ZERO))
        return Envelope(env.majorant, upper, lower)


def _scaled(bound: Affine | None, lo: Fraction, hi: Fraction, pick) -> Affine | None:
    """c·(α + βt) bounded coefficient-wise over c ∈ [lo, hi] (``pick`` = max for upper bounds)."""
    if bound is None:
        return None
    return (pick(lo * bound[0], hi * bound[0]), pick(lo * bound[1], hi * bound[1]))
