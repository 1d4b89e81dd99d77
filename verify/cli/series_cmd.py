"""``verify series INSTANCE --terms L [--dps D] [--json]``: h_0 … h_{L−1} with truncation bounds."""

from __future__ import annotations

import json
import sys

from verify.cli.arguments import positive_int, precision


def add_parser(sub) -> None:
    p = sub.add_parser("series", help="power-series coefficients h_l of h(m) (Prop. 4)",
                       description="Coefficients h_0 ... h_{L-1} of h(m) = sum_l h_l m^l, each "
                       "with a rigorous bound on its truncation in s, and the bound on the "
                       "truncation in l at |m| = 1.")
    p.add_argument("instance", help="instance JSON file (see `verify instance`)")
    p.add_argument("--terms", type=positive_int, default=10, help="number of coefficients L")
    p.add_argument("--s-terms", type=positive_int, default=None,
                   help="terms of the inner sum over s (default 4L + 40)")
    p.add_argument("--dps", type=precision, default=30)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run)


def run(args) -> int:
    # lazy: mpmath, the instance (NumPy) and the series load only when coefficients are computed
    import mpmath

    from verify.model.instance import load
    from verify.model.series import h_series

    series = h_series(load(args.instance), args.terms, args.dps, args.s_terms)
    report = {
        "instance": args.instance,
        "dps": args.dps,
        "s_terms": series.s_terms,
        "coefficients": [mpmath.nstr(h, args.dps) for h in series.coefficients],
        "s_truncation_bounds": [mpmath.nstr(b, 3) for b in series.s_bounds],
        "l_truncation_bound_at_m_1": mpmath.nstr(series.l_bound(1), 3),
    }
    if args.json:
        json.dump(report, sys.stdout, indent=2, sort_keys=True)
        sys.stdout.write("\n")
        return 0
    print(f"{'l':>3}  {'h_l':<{args.dps + 10}}  s-truncation bound")
    for l, (h, b) in enumerate(zip(report["coefficients"], report["s_truncation_bounds"],
                                   strict=True)):
        print(f"{l:>3}  {h:<{args.dps + 10}}  {b}")
    print(f"bound on sum_(l>={args.terms}) |h_l| (|m| <= 1): {report['l_truncation_bound_at_m_1']}")
    return 0
