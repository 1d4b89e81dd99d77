"""``verify h INSTANCE --m M ... [--method closed|series]`` and ``verify loss INSTANCE --m M ...``."""

from __future__ import annotations

import json
import sys

from verify.cli.arguments import overlap, positive_int, precision


def add_parser(sub) -> None:
    for name, what in (("h", "h(m), the population gradient's scale: grad = -h(m)(u - m u_hat)"),
                       ("loss", "the population loss Phi(m) = E[(f*(x) - f_hat(x))^2]")):
        p = sub.add_parser(name, help=what, description=f"Evaluate {what} on an instance file "
                           "(closed form through the dual kernel, Appendix D.1).")
        p.add_argument("instance", help="instance JSON file (see `verify instance`)")
        p.add_argument("--m", type=overlap, nargs="+", required=True, help="overlaps m in [-1, 1]")
        if name == "h":
            p.add_argument("--method", choices=("closed", "series"), default="closed",
                           help="closed form (float64) or the power series (mpmath, with bound)")
            p.add_argument("--dps", type=precision, default=30, help="digits for --method series")
            p.add_argument("--terms", type=positive_int, default=30,
                           help="series terms L for --method series")
        p.add_argument("--json", action="store_true")
        p.set_defaults(run=run, quantity=name, method="closed")


def run(args) -> int:
    from verify import population
    from verify.instance import load

    inst = load(args.instance)
    bounds = None
    if args.method == "series":
        from verify.series import h_series

        series = h_series(inst, args.terms, args.dps)
        pairs = [series.evaluate(m) for m in args.m]
        values, bounds = [v for v, _ in pairs], [float(b) for _, b in pairs]
    else:
        evaluate = population.h if args.quantity == "h" else population.loss
        values = list(evaluate(inst, args.m))
    if args.json:
        json.dump({"instance": args.instance, "quantity": args.quantity, "method": args.method,
                   "m": list(args.m), "values": [float(v) for v in values],
                   "truncation_bounds": bounds},
                  sys.stdout, indent=2, sort_keys=True)
        sys.stdout.write("\n")
    else:
        label = "h(m)" if args.quantity == "h" else "Phi(m)"
        print(f"{'m':>10}  {label}")
        for i, (m, v) in enumerate(zip(args.m, values, strict=True)):
            extra = "" if bounds is None else f"   (truncation bound {bounds[i]:.2e})"
            print(f"{m:>10.6g}  {float(v):.16e}{extra}")
    return 0
