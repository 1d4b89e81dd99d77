"""``verify kernel ACT --rho R [--derivative] [--dps D] [--json]``: K_σ(ρ) or K'_σ(ρ)."""

from __future__ import annotations

import json
import sys

from verify.cli.arguments import correlation, positive_int, precision


def add_parser(sub) -> None:
    p = sub.add_parser(
        "kernel",
        help="dual kernel K(rho) = E[s(g1)s(g2)] or its derivative K'(rho) = E[s'(g1)s'(g2)]",
        description="Evaluate the dual kernel of an activation at correlation rho: the closed "
        "form where one exists, otherwise a high-precision 2-D Gaussian integral.",
    )
    p.add_argument("activation", help="registry name or expr:<SymPy in x>")
    p.add_argument("--rho", type=correlation, required=True, help="correlation in [-1, 1]")
    p.add_argument("--derivative", action="store_true", help="K'(rho) instead of K(rho)")
    p.add_argument("--dps", type=precision, default=30, help="decimal digits (>= 15)")
    p.add_argument("--method", choices=("auto", "closed", "quadrature", "series"), default="auto")
    p.add_argument("--terms", type=positive_int, default=200,
                   help="Hermite terms for --method series")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run)


def run(args) -> int:
    # lazy: mpmath and the kernels (SymPy, quadrature) load only when a kernel is evaluated
    import mpmath

    from verify.model.kernels import kernel

    k = kernel(args.activation, args.rho, args.derivative, args.dps, args.method, args.terms)
    report = {
        "activation": k.activation,
        "rho": args.rho,
        "derivative": k.derivative,
        "dps": args.dps,
        "method": k.method,
        "value": mpmath.nstr(k.value, args.dps),
        "error": mpmath.nstr(k.error, 3),
    }
    if args.json:
        json.dump(report, sys.stdout, indent=2, sort_keys=True)
        sys.stdout.write("\n")
    else:
        name = "K'" if k.derivative else "K"
        print(f"{name}_{k.activation}({args.rho}) = {report['value']}   "
              f"(error <= {report['error']}, method: {k.method})")
    return 0
