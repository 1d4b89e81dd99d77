#!/usr/bin/env python3
"""Inject deliberate errors into the core formulas and check that the tests catch each.

Each mutation replaces one exact snippet (every occurrence) in one module (a wrong normalisation,
a dropped factor, a flipped sign, an off-by-one), runs the tests that guard
that module, and restores the file.  A mutation is *killed* when the tests
fail.  The kill rate is the suite's demonstrated power to find mistakes.

    python scripts/inject_errors.py            # all mutations
    python scripts/inject_errors.py --list     # show them
    python scripts/inject_errors.py --only kernel
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Mutation:
    name: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]


POPULATION_TESTS = ("tests/test_population.py", "tests/test_properties.py")
SERIES_TESTS = ("tests/test_series.py",)
SIMULATE_TESTS = ("tests/test_simulate_init.py", "tests/test_simulate_montecarlo.py",
                  "tests/test_simulate_sgd.py")

MUTATIONS = (
    Mutation("hermite recurrence: sqrt(p-1) -> sqrt(p)", "verify/model/hermite.py",
             "(xi * h - sqrt_p[p - 1] * h_prev)", "(xi * h - sqrt_p[p] * h_prev)",
             ("tests/test_hermite.py",)),
    Mutation("hermite normalisation: 1/sqrt(p) -> 1/sqrt(p+1)", "verify/model/hermite.py",
             "* inv[p - 1]) >> shift2", "* inv[p]) >> shift2", ("tests/test_hermite.py",)),
    Mutation("tanh-sinh step: 2^-L -> 2^-(L-1)", "verify/model/hermite.py",
             "step = ctx.ldexp(1, -degree)", "step = ctx.ldexp(1, 1 - degree)",
             ("tests/test_hermite.py",)),
    Mutation("Gaussian density: exp(-x^2/2) -> exp(-x^2)", "verify/model/hermite.py",
             "g = mpmath.exp(-x * x / 2)", "g = mpmath.exp(-x * x)", ("tests/test_hermite.py",)),
    Mutation("half-normal odd moment: /sqrt(2 pi) -> /sqrt(pi)", "verify/model/hermite_exact.py",
             "dfact / sympy.sqrt(2 * sympy.pi)", "dfact / sympy.sqrt(sympy.pi)",
             ("tests/test_hermite.py",)),
    Mutation("half-normal even moment: dropped factor 1/2", "verify/model/hermite_exact.py",
             "dfact / 2 if k % 2 == 0", "dfact if k % 2 == 0", ("tests/test_hermite.py",)),
    Mutation("negative half-line: sign (-1)^p dropped", "verify/model/hermite_exact.py",
             "+ (-1) ** p * _half_line_expectation(q_neg * he)",
             "+ _half_line_expectation(q_neg * he)", ("tests/test_hermite.py",)),
    Mutation("erf coefficients: flipped sign of the ratio", "verify/model/hermite_exact.py",
             "(-a / (1 + 2 * a)) ** j", "(a / (1 + 2 * a)) ** j", ("tests/test_hermite.py",)),
    Mutation("relu kernel: pi - acos -> acos", "verify/model/kernels.py",
             "return (sqrt(1 - rho**2) + (pi - sympy.acos(rho)) * rho) / (2 * pi)",
             "return (sqrt(1 - rho**2) + sympy.acos(rho) * rho) / (2 * pi)",
             ("tests/test_kernels.py",)),
    Mutation("erf kernel derivative: dropped factor 2", "verify/model/kernels.py",
             "return 4 * a / pi / sqrt((1 + 2 * a) ** 2 - 4 * a**2 * rho**2)",
             "return 2 * a / pi / sqrt((1 + 2 * a) ** 2 - 4 * a**2 * rho**2)",
             ("tests/test_kernels.py",)),
    Mutation("abs kernel: sqrt(1-rho^2) -> sqrt(1-rho)", "verify/model/kernels.py",
             "return 2 / pi * (sqrt(1 - rho**2) + rho * asin(rho))",
             "return 2 / pi * (sqrt(1 - rho) + rho * asin(rho))", ("tests/test_kernels.py",)),
    Mutation("2-D quadrature: g2 = rho g1 + sqrt(1-rho^2) z -> sqrt(1-rho) z", "verify/model/kernels.py",
             "scale = mpmath.sqrt(1 - r * r)", "scale = mpmath.sqrt(1 - r)",
             ("tests/test_kernels.py",)),
    Mutation("series tail bound: |rho|^N -> |rho|^(N+5)", "verify/model/kernels.py",
             "power = abs(r) ** terms\n", "power = abs(r) ** (terms + 5)\n",
             ("tests/test_kernels.py",)),
    Mutation("Parseval tail: /N -> /N^2", "verify/model/diagnostics.py",
             "tail = max(deriv - deriv_partial, 0) / n", "tail = max(deriv - deriv_partial, 0) / n**2",
             ("tests/test_hermite.py",)),
    Mutation("He_p recurrence: q He_{q-1} -> (q+1) He_{q-1}", "verify/model/polynomials.py",
             "x * current - q * previous", "x * current - (q + 1) * previous",
             ("tests/test_model_written_once.py",)),
    Mutation("h_p recurrence: sqrt(q) -> sqrt(q+1)", "verify/model/polynomials.py",
             "(x * current - sqrt(q) * previous)", "(x * current - sqrt(q + 1) * previous)",
             ("tests/test_activations.py", "tests/test_model_written_once.py")),
    Mutation("sigmoid derivative: s(x)s(-x) -> s(x)(1+s(-x))", "verify/model/activations.py",
             "return _sigmoid(x) * _sigmoid(-x)", "return _sigmoid(x) * (1 + _sigmoid(-x))",
             ("tests/test_activations.py",)),
    # --- the population loss, h(m) and its series (issue #3) ---------------------------------
    Mutation("row norm: 1 + xi^2/k -> 1 + xi^2 (c_i^2 -> 1)", "verify/model/geometry.py",
             "return row_norm2 + xi2 * c * c", "return row_norm2 + xi2 * (c * 0 + 1)", POPULATION_TESTS),
    Mutation("h(m): dropped factor 2", "verify/model/population.py",
             "return 2 * self._cross_sum(self.kernel.derivative",
             "return self._cross_sum(self.kernel.derivative",
             POPULATION_TESTS),
    Mutation("loss: cross term sign flipped", "verify/model/population.py",
             "return self.self_terms - 2 * self._cross_sum(",
             "return self.self_terms + 2 * self._cross_sum(",
             POPULATION_TESTS),
    Mutation("overlap: xi^2 c_i c_hat_j m -> xi c_i c_hat_j m", "verify/model/geometry.py",
             "scaled=xi2 * np.outer(c, c_hat),", "scaled=xi * np.outer(c, c_hat),",
             POPULATION_TESTS),
    Mutation("series: off-by-one mu_{l+s+1} -> mu_{l+s}", "verify/model/series.py",
             "* (l + s + 1) * mu2[l + s + 1] * sums[s][l]", "* (l + s + 1) * mu2[l + s] * sums[s][l]",
             SERIES_TESTS),
    Mutation("series: binomial C(l+s, l) -> C(l+s, s+1)", "verify/model/series.py",
             "math.comb(l + s, l) * (l + s + 1)", "math.comb(l + s, s + 1) * (l + s + 1)",
             SERIES_TESTS),
    Mutation("series: (xi^2)^(l+1) -> (xi^2)^l", "verify/model/series.py",
             "coefficients.append(2 * xi2 ** (l + 1) * total)", "coefficients.append(2 * xi2 ** l * total)",
             SERIES_TESTS),
    Mutation("series: s-truncation bound 10x too small", "verify/model/series.py",
             "s_bounds.append(up(2 * xi2 ** (l + 1) * weight_l",
             "s_bounds.append(up(0.1 * xi2 ** (l + 1) * weight_l",
             SERIES_TESTS),
    Mutation("fast kernel: K' coefficients p mu_p^2 -> (p+1) mu_p^2", "verify/model/fast_kernels.py",
             "_Polynomial((p * mu2)[1:])", "_Polynomial(((p + 1) * mu2)[1:])", POPULATION_TESTS),
    Mutation("derivation: row norm^2 1 + xi^2/k -> 1 + xi^2", "verify/derive/prop_4.py",
             "norm2 = 1 + xi**2 / k", "norm2 = 1 + xi**2", ("tests/test_derive.py",)),
    # --- instances (issue #3) ------------------------------------------------------------------
    Mutation("Claim 2 rows: sign of the pair coordinate flipped", "verify/model/instance.py",
             "W[j, col] = -signs[i] * signs[j] * level", "W[j, col] = signs[i] * signs[j] * level",
             ("tests/test_instance.py",)),
    Mutation("default lambda: 1/k -> 1", "verify/model/instance.py",
             "return np.full(k, 1.0 / k) if lam is None", "return np.full(k, 1.0) if lam is None",
             ("tests/test_instance.py",)),
    # --- the simulator (issue #4) ----------------------------------------------------------------
    Mutation("per-sample gradient: dropped factor 2", "verify/simulate/model.py",
             "delta = (-2 * s) * e[:, None] * lam * problem.act.derivative(z)",
             "delta = (-1 * s) * e[:, None] * lam * problem.act.derivative(z)", SIMULATE_TESTS),
    Mutation("per-sample gradient: sign flipped", "verify/simulate/model.py",
             "weight = -2 * s * xi * e", "weight = 2 * s * xi * e", SIMULATE_TESTS),
    Mutation("reduced engine: chi-square degrees of freedom off by one", "verify/simulate/reduced.py",
             "rest = chi_square(rng, dim_perp) if dim_perp else 0.0",
             "rest = chi_square(rng, dim_perp + 1) if dim_perp else 0.0", SIMULATE_TESTS),
    Mutation("student row norm: xi^2 c_hat^2 -> xi c_hat^2", "verify/simulate/model.py",
             "rho = np.sqrt(problem.row_sq + cross + xi**2 * c_hat**2)",
             "rho = np.sqrt(problem.row_sq + cross + xi * c_hat**2)", SIMULATE_TESTS),
)


def run_one(m: Mutation, timeout: int) -> tuple[bool, str]:
    path = ROOT / m.path
    original = path.read_text(encoding="utf-8")
    if m.old not in original:
        return False, f"snippet not found in {m.path}"
    path.write_text(original.replace(m.old, m.new), encoding="utf-8")
    try:
        result = subprocess.run(
            [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *m.tests],
            cwd=ROOT, capture_output=True, text=True, timeout=timeout,
        )
        killed = result.returncode != 0
        summary = (result.stdout.strip().splitlines() or [""])[-1]
    except subprocess.TimeoutExpired:
        killed, summary = True, f"timed out after {timeout}s (counted as killed)"
    finally:
        path.write_text(original, encoding="utf-8")
    return killed, summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--timeout", type=int, default=900)
    parser.add_argument("--only", default="", help="run the mutations whose name contains this")
    args = parser.parse_args()
    selected = [m for m in MUTATIONS if args.only in m.name]
    if args.list:
        for m in selected:
            print(f"{m.name}  [{m.path}]")
        return 0
    killed = 0
    for m in selected:
        ok, summary = run_one(m, args.timeout)
        killed += ok
        print(f"{'KILLED ' if ok else 'SURVIVED'}  {m.name}  -- {summary}", flush=True)
    print(f"kill rate: {killed}/{len(selected)}")
    return 0 if killed == len(selected) else 1


if __name__ == "__main__":
    sys.exit(main())
