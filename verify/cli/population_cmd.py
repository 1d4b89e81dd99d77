"""``verify h INSTANCE --m M ... [--method closed|series] [--dps D]`` and
``verify loss INSTANCE --m M ... [--dps D]``.

With ``--dps`` the closed form is evaluated in mpmath (:func:`verify.model.population.h_precise`,
:func:`verify.model.population.loss_precise`) and printed to that many digits with its error bound.
"""

from __future__ import annotations

import json
import sys

from verify.cli.arguments import overlap, positive_int, precision

SERIES_DPS = 30


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
            p.add_argument("--terms", type=positive_int, default=30,
                           help="series terms L for --method series")
        p.add_argument("--dps", type=precision, default=None,
                       help="digits: mpmath closed form (default float64), or the series' precision "
                            f"(default {SERIES_DPS})")
        p.add_argument("--json", action="store_true")
        p.add_argument("--certified", action="store_true",
                       help="print balls [mid ± rad] that provably contain the value at each m "
                            "(Arb ball arithmetic; --dps digits, default 30)")
        p.set_defaults(run=run, quantity=name, method="closed")


def run(args) -> int:
    # lazy: the instance, the population formulas and the series (NumPy, SymPy, mpmath) load only
    # when h or Phi is evaluated
    from verify.model import population
    from verify.model.instance import load
    from verify.model.series import h_series

    inst = load(args.instance)
    if args.certified:
        return _run_certified(args, inst)
    bounds = None
    if args.method == "series":
        series = h_series(inst, args.terms, args.dps or SERIES_DPS)
        pairs = [series.evaluate(m) for m in args.m]
        values, bounds = [v for v, _ in pairs], [float(b) for _, b in pairs]
    elif args.dps is not None:
        precise = population.h_precise if args.quantity == "h" else population.loss_precise
        pairs = [precise(inst, getattr(m, "text", m), args.dps) for m in args.m]  # the decimal typed
        values, bounds = [v for v, _ in pairs], [float(b) for _, b in pairs]
        return _print_precise(args, values, bounds)
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


def _print_precise(args, values, bounds) -> int:
    """Values at ``args.dps`` digits: JSON strings (a float would round them) or a table."""
    # lazy: mpmath loads only when values are computed at a stated precision
    import mpmath

    if args.json:
        json.dump({"instance": args.instance, "quantity": args.quantity, "method": args.method,
                   "dps": args.dps, "m": list(args.m),
                   "values": [mpmath.nstr(v, args.dps, strip_zeros=False) for v in values],
                   "error_bounds": bounds},
                  sys.stdout, indent=2, sort_keys=True)
        sys.stdout.write("\n")
        return 0
    label = "h(m)" if args.quantity == "h" else "Phi(m)"
    print(f"{'m':>10}  {label} ({args.dps} digits)")
    for m, v, b in zip(args.m, values, bounds, strict=True):
        print(f"{m:>10.6g}  {mpmath.nstr(v, args.dps, strip_zeros=False)}   (error bound {b:.2e})")
    return 0


def _run_certified(args, inst) -> int:
    """``--certified``: balls that provably contain h(m) or Φ(m) (:mod:`verify.certified.population`)."""
    # lazy: Arb ball arithmetic loads only when values are certified
    from verify.certified.balls import format_ball, to_payload, working_precision
    from verify.certified.population import certified_population

    dps = args.dps or SERIES_DPS
    pop = certified_population(inst, dps)
    with working_precision(dps):
        evaluate = pop.h if args.quantity == "h" else pop.loss
        balls = [evaluate(getattr(m, "exact", m)) for m in args.m]  # m as the exact decimal typed
    label = "h(m)" if args.quantity == "h" else "Phi(m)"
    if args.json:
        json.dump({"instance": args.instance, "quantity": args.quantity, "certified": True, "dps": dps,
                   "kernel": pop.kernel.method, "m": list(args.m),
                   "balls": [format_ball(b, dps) for b in balls],
                   "enclosures": [to_payload(b, dps) for b in balls]},
                  sys.stdout, indent=2, sort_keys=True)
        sys.stdout.write("\n")
        return 0
    print(f"{'m':>10}  {label} (certified, {pop.kernel.method} kernel: a ball that contains it)")
    for m, ball in zip(args.m, balls, strict=True):
        print(f"{m:>10.6g}  {format_ball(ball, dps)}")
    return 0
