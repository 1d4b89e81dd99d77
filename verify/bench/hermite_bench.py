"""Reused-node Hermite quadrature against one ``mpmath.quad`` call per coefficient.

Both compute μ_0 … μ_{N−1} of the same activation at the same precision;
the baseline integrates σ(x) h_p(x) φ(x) separately for each p with
mpmath's adaptive tanh-sinh, split at the same kinks.  Equal accuracy is
checked, not assumed: the row reports the largest difference between the two.
The cached call goes through the on-disk cache in a fresh temporary directory.
"""

from __future__ import annotations

import os
import tempfile
import time

import mpmath

from verify.model.activations import get_activation
from verify.model.hermite import hermite_coefficients
from verify.model.quadrature import GUARD_DIGITS, breakpoints

ACTIVATIONS = ("sigmoid", "tanh", "gelu", "softplus")


def baseline_coefficients(activation, terms: int, dps: int) -> list:
    """μ_p by one mpmath.quad call per p (the naive reference engine)."""
    sigma = activation.mpmath_function
    out = []
    with mpmath.workdps(dps + GUARD_DIGITS):
        c = 1 / mpmath.sqrt(2 * mpmath.pi)
        points = breakpoints(activation.kinks)
        for p in range(terms):
            norm = 1 / mpmath.sqrt(mpmath.factorial(p))
            out.append(mpmath.quad(
                lambda x, p=p, norm=norm: sigma(x) * mpmath.hermite(p, x / mpmath.sqrt(2))
                * mpmath.power(2, -mpmath.mpf(p) / 2) * norm * mpmath.exp(-x * x / 2) * c,
                points,
            ))
    return out


def run(quick: bool = False) -> dict:
    terms, dps = (30, 30) if quick else (100, 50)
    rows = []
    for name in ACTIVATIONS:
        act = get_activation(name)
        act.mpmath_function  # build the evaluator outside the timed region  # noqa: B018
        t0 = time.perf_counter()
        ours = hermite_coefficients(act, terms, dps, method="quadrature", use_cache=False,
                                    progress=False)
        t1 = time.perf_counter()
        naive = baseline_coefficients(act, terms, dps)
        t2 = time.perf_counter()
        with tempfile.TemporaryDirectory() as tmp:
            old = os.environ.get("VERIFY_CACHE_DIR")
            os.environ["VERIFY_CACHE_DIR"] = tmp
            try:
                hermite_coefficients(name, terms, dps, method="quadrature", progress=False)
                t3 = time.perf_counter()
                hermite_coefficients(name, terms, dps, method="quadrature", progress=False)
                t4 = time.perf_counter()
            finally:
                if old is None:
                    os.environ.pop("VERIFY_CACHE_DIR")
                else:
                    os.environ["VERIFY_CACHE_DIR"] = old
        with mpmath.workdps(dps + GUARD_DIGITS):
            diff = max(abs(a - b) for a, b in zip(ours.values, naive, strict=True))
        rows.append({
            "activation": name,
            "terms": terms,
            "dps": dps,
            "reused_nodes_s": round(t1 - t0, 3),
            "one_quad_per_p_s": round(t2 - t1, 3),
            "speedup": round((t2 - t1) / (t1 - t0), 1),
            "cached_call_s": round(t4 - t3, 4),
            "max_abs_difference": mpmath.nstr(diff, 3),
        })
    return {"name": "hermite", "rows": rows}
