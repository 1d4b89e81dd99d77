r"""Hermite coefficients μ_p(σ) = E_{g~N(0,1)}[σ(g) h_p(g)] at any precision.

Convention (paper §1.4): h_p = He_p/√p! are the normalised probabilists'
Hermite polynomials, so that E[σ(⟨v,x⟩)σ(⟨v',x⟩)] = Σ_p μ_p² ⟨v,v'⟩^p for
unit v, v'.

Method
------
One tanh-sinh quadrature serves every p at once.  The real line is split at
the activation's kinks (mpmath's maps handle the infinite end intervals); at
each node x with weight w the weighted value f = w σ(x) φ(x) is computed once,
and the whole sequence f·h_0(x), …, f·h_{N-1}(x) follows from the recurrence

    h_{p+1}(x) = (x h_p(x) − √p h_{p−1}(x)) / √(p+1).

The recurrence runs in fixed-point integer arithmetic (Python integers with
``prec + guard`` fractional bits), which is about ten times faster than mpf
arithmetic and loses nothing: f is kept in floating point (signed mantissa and
exponent) so tiny weights keep their relative precision.

Tanh-sinh refines by halving the step; the sums of level m reuse those of
level m−1.  The per-coefficient error estimate is mpmath's extrapolation
10^max(D1²/D2, 2·D1) from the last three levels (D1, D2 = log10 of the last
two level differences), floored by the accumulated rounding error.  The
integration stops when every estimate is below 10^-(dps+2).

Exact values are used instead wherever :mod:`verify.model.hermite_exact` has a
closed form (``method="auto"``).
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import mpmath
from mpmath.calculus.quadrature import TanhSinh
from tqdm import tqdm

from verify.base import cache
from verify.base.budget import guarded
from verify.base.errors import ConvergenceError, InvalidParameterError
from verify.base.expressions import parse_expression
from verify.base.validation import count
from verify.model.activations import Activation, get_activation
from verify.model.hermite_exact import exact_coefficients
from verify.model.quadrature import GUARD_DIGITS, extrapolated_error, integration_intervals

MIN_DPS = 15
TARGET_EXTRA_DIGITS = 2  # stop when every error estimate is below 10^-(dps+2)
MAX_DEGREE = 12  # tanh-sinh levels; 12 means ~80k nodes per interval
METHODS = ("auto", "exact", "quadrature")
# Exact μ_p are rationals times powers of √2 and √π; at p = 200 their integers have 56 digits.
EXACT_INTEGER_DIGITS = 400


@dataclass(frozen=True)
class HermiteCoefficients:
    """μ_0 … μ_{N-1} of one activation at one precision.

    ``values`` and ``errors`` are mpmath numbers accurate to ``dps`` digits;
    ``exact`` holds SymPy expressions when ``method == "exact"`` (errors are 0).
    """

    activation: str
    dps: int
    values: tuple
    errors: tuple
    method: str
    exact: tuple | None = None

    def __len__(self) -> int:
        return len(self.values)

    def as_floats(self) -> list[float]:
        return [float(v) for v in self.values]


def validate_terms(terms) -> int:
    """A number of coefficients: an integer >= 1 within the ``terms`` size limit."""

    return count("terms", terms, limit="terms")


def validate_dps(dps) -> int:
    """Decimal digits: an integer >= MIN_DPS (double precision is the floor), within the limit."""

    return count("dps", dps, minimum=MIN_DPS, limit="dps")


def hermite_coefficients(
    activation,
    terms: int,
    dps: int = 30,
    method: str = "auto",
    use_cache: bool = True,
    progress: bool | None = None,
) -> HermiteCoefficients:
    """Hermite coefficients μ_0(σ), …, μ_{terms-1}(σ) to ``dps`` digits.

    Parameters
    ----------
    activation:
        A registry name, ``expr:…`` string or :class:`~verify.model.activations.Activation`.
    method:
        ``"exact"`` (SymPy closed form; error if none exists), ``"quadrature"``,
        or ``"auto"`` (exact where available, quadrature otherwise).
    use_cache:
        Read and write the on-disk cache (:mod:`verify.base.cache`).
    progress:
        Show a progress bar; default: only when stderr is a terminal.
    """

    terms = validate_terms(terms)
    dps = validate_dps(dps)
    if method not in METHODS:
        raise InvalidParameterError(f"method must be one of {METHODS}, got {method!r}")
    name = activation.name if isinstance(activation, Activation) else str(activation)
    key = {"activation": name, "dps": dps, "terms": terms, "method": method}
    if use_cache:
        hit = cache.load("hermite", key, lambda p: _from_payload(p, name, dps, terms))
        if hit is not None:
            return hit
    act = activation if isinstance(activation, Activation) else get_activation(activation)
    result = None
    if method in ("auto", "exact"):

        if act.name.startswith("expr:"):

            # Untrusted text: SymPy's simplify and expand run under the time and memory guard.
            exact = guarded(f"activation {act.name!r}", exact_coefficients, act, terms)
        else:
            exact = exact_coefficients(act, terms)
        if exact is None and method == "exact":
            raise InvalidParameterError(
                f"activation {act.name!r} has no exact Hermite coefficients in the suite; "
                "use the quadrature method (method='quadrature', --method quadrature)"
            )
        if exact is not None:
            with mpmath.workdps(dps + GUARD_DIGITS):
                values = tuple(mpmath.mpf(e.evalf(dps + GUARD_DIGITS)) for e in exact)
            result = HermiteCoefficients(
                act.name, dps, values, tuple(mpmath.mpf(0) for _ in values), "exact", tuple(exact)
            )
    if result is None:
        values, errors = quadrature_coefficients(
            act.mpmath_function, act.kinks, terms, dps, progress=progress
        )
        result = HermiteCoefficients(act.name, dps, values, errors, "quadrature")
    if use_cache and all(mpmath.isfinite(x) for x in (*result.values, *result.errors)):
        cache.store("hermite", key, _to_payload(result))
    return result


def _to_payload(c: HermiteCoefficients) -> dict:
    digits = c.dps + GUARD_DIGITS
    with mpmath.workdps(digits):
        payload = {
            "activation": c.activation,
            "dps": c.dps,
            "method": c.method,
            "values": [_binary_text(v) for v in c.values],
            "errors": [_binary_text(e) for e in c.errors],
        }
    if c.exact is not None:
        payload["exact"] = [str(e) for e in c.exact]
    return payload


#: A cached number: its binary value exactly, mantissa * 2^exponent.  Decimal text read back gave a
#: number a few units in the last place away from the one computed, so a check's numbers differed
#: between a run with an empty cache and one with a warm cache.
_BINARY_TEXT = re.compile(r"^(-?[0-9]{1,400})\*2\^(-?[0-9]{1,7})$")


def _binary_text(value) -> str:
    if not mpmath.isfinite(value):  # inf and nan have no mantissa; such a result is not cached
        raise ValueError("only finite numbers are cached")
    sign, mantissa, exponent, _ = mpmath.mpf(value)._mpf_
    return f"{'-' if sign else ''}{mantissa}*2^{exponent}"


def _from_binary_text(text: str):
    match = _BINARY_TEXT.match(text)
    if match is None:
        raise ValueError("a cached Hermite number must read mantissa*2^exponent")
    return mpmath.mpf((int(match.group(1)), int(match.group(2))))


#: Largest |mu_p| a cache entry may hold: mu_p^2 <= E[sigma^2] <= verify.model.activations.MAX_SECOND_MOMENT.
MAX_COEFFICIENT = 1e50


def _from_payload(p: dict, activation: str, dps: int, terms: int) -> HermiteCoefficients:
    """The cached coefficients; ValueError if the payload is not what the key asked for."""
    if (p["activation"], p["dps"]) != (activation, dps) or not len(p["values"]) == len(p["errors"]) == terms:
        raise ValueError("cached Hermite payload does not match its key")
    if not all(isinstance(v, str) for v in (*p["values"], *p["errors"])):
        raise ValueError("cached Hermite values must be decimal strings")
    if p["method"] not in ("exact", "quadrature"):
        raise ValueError("cached Hermite method must be exact or quadrature")
    with mpmath.workdps(p["dps"] + GUARD_DIGITS):
        values = tuple(_from_binary_text(v) for v in p["values"])
        errors = tuple(_from_binary_text(e) for e in p["errors"])
    # Schema by value: |mu_p| <= sqrt(E[sigma^2]) <= 1e50 (Parseval and the activation scale limit),
    # errors finite and >= 0; a value altered with a recomputed checksum cannot bring NaN or inf.
    if not all(mpmath.isfinite(v) and abs(v) <= MAX_COEFFICIENT for v in values) \
            or not all(mpmath.isfinite(e) and e >= 0 for e in errors):
        raise ValueError("cached Hermite values must be finite, errors finite and non-negative")
    exact = None
    if "exact" in p:
        # Cache files are data, not code: exact values go through the whitelist parser.

        exact = tuple(parse_expression(e, variables={}, what="cached exact Hermite coefficient",
                                       max_integer_digits=EXACT_INTEGER_DIGITS) for e in p["exact"])
    return HermiteCoefficients(p["activation"], p["dps"], values, errors, p["method"], exact)


def quadrature_coefficients(
    sigma: Callable,
    kinks: Sequence,
    terms: int,
    dps: int,
    max_degree: int = MAX_DEGREE,
    progress: bool | None = None,
) -> tuple[tuple, tuple]:
    """(values, errors) of μ_0 … μ_{terms-1} by reused-node tanh-sinh quadrature.

    See the module docstring for the method and the error estimate.

    Raises
    ------
    ConvergenceError
        If the estimates have not reached 10^-(dps+2) at ``max_degree``.
    """

    target_exp10 = -(dps + TARGET_EXTRA_DIGITS)
    if progress is None:
        progress = sys.stderr.isatty()
    with mpmath.workdps(dps + GUARD_DIGITS):
        ctx = mpmath.mp
        bits = ctx.prec
        rule = TanhSinh(ctx)
        intervals = integration_intervals(kinks)
        recurrence = _FixedPointRecurrence(terms, bits)
        levels: list[list] = []  # total estimate of all μ_p after each degree
        per_interval: list[list | None] = [None] * len(intervals)
        bar = tqdm(total=max_degree, desc="Hermite quadrature", unit="level",
                   disable=not progress, leave=False)
        try:
            for degree in range(1, max_degree + 1):
                step = ctx.ldexp(1, -degree)
                total = [ctx.zero] * terms
                abs_mass = ctx.zero
                for j, (a, b) in enumerate(intervals):
                    nodes = rule.get_nodes(a, b, degree, bits)
                    sums, mass = recurrence.weighted_sums(sigma, nodes)
                    prev = per_interval[j]
                    level = [
                        (prev[p] / 2 if prev is not None else 0) + step * ctx.mpf((sums[p], -bits))
                        for p in range(terms)
                    ]
                    per_interval[j] = level
                    total = [t + s for t, s in zip(total, level, strict=True)]
                    abs_mass += step * mass
                levels.append(total)
                bar.update(1)
                if degree >= 3:
                    errors = _error_estimates(levels, abs_mass, bits, terms, dps)
                    if max(errors) < ctx.mpf(10) ** target_exp10:
                        return tuple(total), tuple(errors)
        finally:
            bar.close()
        worst = max(_error_estimates(levels, abs_mass, bits, terms, dps))
    raise ConvergenceError(
        f"Hermite quadrature did not converge: error estimate {mpmath.nstr(worst, 3)} "
        f"> 1e{target_exp10} after {max_degree} tanh-sinh levels"
    )


def _error_estimates(levels, abs_mass, bits, terms, dps) -> list:
    """Per-coefficient error: tanh-sinh extrapolation plus accumulated rounding."""
    s0, s1, s2 = levels[-1], levels[-2], levels[-3]
    return [
        extrapolated_error(
            s0[p], s1[p], s2[p], mpmath.ldexp(abs_mass * (p + 2), -bits + 8), dps + TARGET_EXTRA_DIGITS
        )
        for p in range(terms)
    ]


class _FixedPointRecurrence:
    """Σ_nodes w σ(x) φ(x) h_p(x) for all p, with h_p in fixed point."""

    def __init__(self, terms: int, bits: int):
        self.terms = terms
        self.bits = bits
        self.one = 1 << bits
        sqrt = mpmath.sqrt
        # h_{p+1} = (x h_p − √p h_{p−1}) · (1/√(p+1)); all constants scaled by 2^bits.
        self.sqrt_p = [int(mpmath.ldexp(sqrt(p), bits)) for p in range(terms + 1)]
        self.inv_sqrt_p1 = [int(mpmath.ldexp(1 / sqrt(p + 1), bits)) for p in range(terms + 1)]
        self.inv_sqrt_2pi = 1 / sqrt(2 * mpmath.pi)
        # log2 of a bound on |h_p(x)| growth: nodes with |f|·(|x|+2√N)^N below
        # 2^-(bits+16) cannot change any sum and are skipped.
        self.log2_cutoff = -(bits + 16)

    def weighted_sums(self, sigma, nodes):
        terms, bits, one = self.terms, self.bits, self.one
        sqrt_p, inv = self.sqrt_p, self.inv_sqrt_p1
        shift2 = 2 * bits
        sums = [0] * terms
        mass = mpmath.mpf(0)
        reach = 2 * math.sqrt(terms)
        for x, w in nodes:
            g = mpmath.exp(-x * x / 2)
            if g == 0:
                continue
            f = w * sigma(x) * g * self.inv_sqrt_2pi
            if f == 0:
                continue
            if mpmath.log(abs(f), 2) + (terms - 1) * math.log2(abs(float(x)) + reach) < self.log2_cutoff:
                continue
            mass += abs(f)
            sign, man, exp, _ = f._mpf_
            fm = -man if sign else man
            xi = mpmath.libmp.to_fixed(x._mpf_, bits)
            h_prev, h = 0, one
            # the value f·h_p is fm·h·2^(exp−bits); in units of 2^-bits that is fm·h·2^exp
            if exp >= 0:
                sums[0] += (fm * h) << exp
                for p in range(1, terms):
                    h_prev, h = h, ((xi * h - sqrt_p[p - 1] * h_prev) * inv[p - 1]) >> shift2
                    sums[p] += (fm * h) << exp
            else:
                down = -exp
                sums[0] += (fm * h) >> down
                for p in range(1, terms):
                    h_prev, h = h, ((xi * h - sqrt_p[p - 1] * h_prev) * inv[p - 1]) >> shift2
                    sums[p] += (fm * h) >> down
        return sums, mass
