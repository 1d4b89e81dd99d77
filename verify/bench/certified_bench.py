"""Certified Hermite coefficients against a direct, non-rigorous ``acb.integral`` per coefficient.

For sigmoid, tanh, erf and gelu, μ_0 … μ_{N−1} at D digits (N = 20, D = 40; --quick: 8 and 20),
three ways in one process, interleaved, each repeated and timed by its fastest run:

- ``certified``: :func:`verify.certified.certified_hermite_coefficients` with
  ``method="quadrature"`` and no cache, from the activation's pieces and growth majorants to the
  quantized balls (the default quadrature route: one Gauss–Legendre subdivision shared by every
  p, :mod:`verify.certified.shared_nodes`).  erf is timed through quadrature too; its default
  ``auto`` takes the exact closed forms, faster still;
- ``direct`` (the baseline of issue #52): one :func:`flint.acb.integral` of σ h_p φ on
  [−40, 40] per p, tolerance 10^-(D+3), σ compiled to a ball evaluator once, outside the timing.
  It is not rigorous: nothing bounds the integral beyond ±40;
- ``per_degree``: the previous certified route, one acb.integral per p with proven tails
  (:meth:`verify.certified.gaussian.GaussianIntegrator.integral`).

``ratio`` = certified/direct (target ≤ 1, the issue's acceptance), ``per_degree_ratio`` =
per_degree/direct.  Every run but the first finds the Gauss–Legendre nodes cached, as Arb's
own integrator finds its nodes for the direct route; ``cold_ratio`` is the first certified run
(its node caches emptied) against the fastest direct one.  ``max_difference`` is the largest
|certified − direct| over p (midpoints), a check that both computed the same numbers.
"""

from __future__ import annotations

import time

from flint import acb, arb

from verify.certified import shared_nodes
from verify.certified.balls import working_precision
from verify.certified.compile import ComplexBackend, compile_expression
from verify.certified.gaussian import EXTRA_DIGITS, GaussianIntegrator, PiecewiseIntegrand
from verify.certified.hermite import certified_hermite_coefficients
from verify.certified.pieces import smooth_pieces
from verify.model.activations import get_activation
from verify.model.polynomials import probabilists_hermite

ACTIVATIONS = ("sigmoid", "tanh", "erf", "gelu")
#: The direct baseline's interval [−DIRECT_CUTOFF, DIRECT_CUTOFF] (the issue's).
DIRECT_CUTOFF = 40


def direct_coefficients(activation, terms: int, dps: int) -> list[arb]:
    """μ_p by one acb.integral of σ h_p φ on [−40, 40] per p: fast, and not rigorous (no tail)."""
    with working_precision(dps):
        sigma = compile_expression(activation.expr, activation.x, ComplexBackend())
        tolerance = arb(10) ** -(dps + EXTRA_DIGITS)
        out = []
        for p in range(terms):
            scale = 1 / (arb.fac_ui(p) * 2 * arb.pi()).sqrt()

            def integrand(z, analytic, p=p, scale=scale):
                return sigma(z, analytic) * probabilists_hermite(p, z, acb(1)) * (-z * z / 2).exp() * scale

            out.append(acb.integral(integrand, -DIRECT_CUTOFF, DIRECT_CUTOFF, abs_tol=tolerance,
                                    rel_tol=tolerance).real)
        return out


def per_degree_coefficients(activation, terms: int, dps: int) -> list[arb]:
    """The previous certified route: proven tails, one acb.integral per p."""
    with working_precision(dps):
        integrator = GaussianIntegrator(PiecewiseIntegrand(smooth_pieces(activation), activation.x), dps,
                                        terms - 1)
        return [integrator.integral(p) for p in range(terms)]


def certified_coefficients(activation, terms: int, dps: int):
    """The certified coefficients, default quadrature route, computed afresh (no cache)."""
    return certified_hermite_coefficients(activation, terms, dps, method="quadrature", use_cache=False)


def _clear_node_caches() -> None:
    for cached in (shared_nodes.gauss_legendre, shared_nodes._powers, shared_nodes._grid,
                   shared_nodes._unit_lines, shared_nodes._inverse_root_factorials):
        cached.cache_clear()


def _timed(compute, *args):
    start = time.perf_counter()
    values = compute(*args)
    return time.perf_counter() - start, values


def run(quick: bool = False) -> dict:
    terms, dps, repeats = (8, 20, 1) if quick else (20, 40, 3)
    rows = []
    for name in ACTIVATIONS:
        act = get_activation(name)
        _clear_node_caches()
        times: dict[str, list[float]] = {"certified": [], "direct": [], "per_degree": []}
        for _ in range(repeats + 1):
            for method, compute in (("certified", certified_coefficients), ("direct", direct_coefficients),
                                    ("per_degree", per_degree_coefficients)):
                seconds, values = _timed(compute, act, terms, dps)
                times[method].append(seconds)
                if method == "certified":
                    certified = values
                elif method == "direct":
                    direct = values
        cold = times["certified"][0]
        best = {method: min(values[1:]) for method, values in times.items()}
        with working_precision(dps):
            difference = max(abs(a.mid() - b.mid()) for a, b in zip(certified.balls, direct, strict=True))
        rows.append({
            "activation": name,
            "terms": terms,
            "dps": dps,
            "benchmark": "certified / direct",
            "certified_s": round(best["certified"], 4),
            "direct_s": round(best["direct"], 4),
            "per_degree_s": round(best["per_degree"], 4),
            "ratio": round(best["certified"] / best["direct"], 3),
            "target": "<= 1",
            "per_degree_ratio": round(best["per_degree"] / best["direct"], 2),
            "cold_ratio": round(cold / best["direct"], 3),
            "max_difference": f"{float(difference):.1e}",
            "route": certified.route,
        })
    return {"name": "certified", "rows": rows}
