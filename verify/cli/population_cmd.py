"""``verify h INSTANCE --m M ...`` and ``verify loss INSTANCE --m M ...`` (closed form, float64)."""

from __future__ import annotations

import json
import sys

from verify.cli.arguments import overlap


def add_parser(sub) -> None:
    for name, what in (("h", "h(m), the population gradient's scale: grad = -h(m)(u - m u_hat)"),
                       ("loss", "the population loss Phi(m) = E[(f*(x) - f_hat(x))^2]")):
        p = sub.add_parser(name, help=what, description=f"Evaluate {what} on an instance file "
                           "(closed form through the dual kernel, Appendix D.1).")
        p.add_argument("instance", help="instance JSON file (see `verify instance`)")
        p.add_argument("--m", type=overlap, nargs="+", required=True, help="overlaps m in [-1, 1]")
        p.add_argument("--json", action="store_true")
        p.set_defaults(run=run, quantity=name)


def run(args) -> int:
    from verify import population
    from verify.instance import load

    inst = load(args.instance)
    evaluate = population.h if args.quantity == "h" else population.loss
    values = evaluate(inst, args.m)
    if args.json:
        json.dump({"instance": args.instance, "quantity": args.quantity, "method": "closed",
                   "m": list(args.m), "values": [float(v) for v in values]},
                  sys.stdout, indent=2, sort_keys=True)
        sys.stdout.write("\n")
    else:
        label = "h(m)" if args.quantity == "h" else "Phi(m)"
        print(f"{'m':>10}  {label}")
        for m, v in zip(args.m, values, strict=True):
            print(f"{m:>10.6g}  {v:.16e}")
    return 0
