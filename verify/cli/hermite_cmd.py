"""``verify hermite ACT --terms N --dps D [--json]``: μ_0 … μ_{N−1} and diagnostics."""

from __future__ import annotations

import json
import sys

from verify.cli.arguments import positive_int, precision
from verify.cli.choices import HERMITE_METHODS

REPORT_CACHE_KIND = "hermite-report"


def add_parser(sub) -> None:
    p = sub.add_parser(
        "hermite",
        help="Hermite coefficients mu_p(sigma) with error estimates and Assumption 6 diagnostics",
        description="Print mu_0 ... mu_{N-1} of an activation (h_p = He_p/sqrt(p!)), their "
        "error estimates, the information exponent, the fitted decay exponent rho in "
        "|mu_p| <= C p^(-1-rho), and Parseval checks against E[sigma^2] and E[sigma'^2].",
    )
    p.add_argument("activation", help="registry name (relu, sigmoid, he3, ...) or expr:<SymPy in x>")
    p.add_argument("--terms", type=positive_int, default=20, help="number of coefficients N")
    p.add_argument("--dps", type=precision, default=30, help="decimal digits (>= 15)")
    p.add_argument("--method", choices=HERMITE_METHODS, default="auto",
                   help="exact closed form, quadrature, or auto (exact where available)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    p.add_argument("--certified", action="store_true",
                   help="print balls [mid ± rad] that provably contain each mu_p (Arb ball "
                        "arithmetic); exit 2 when the activation cannot be certified")
    p.set_defaults(run=run)


#: The fields of a ``verify hermite`` report; a cached report missing one is recomputed.
REPORT_FIELDS = ("activation", "dps", "method", "coefficients", "errors", "exact", "information_exponent",
                 "finite_expansion", "decay_exponent", "decay_constant", "decay_fit_range", "second_moment",
                 "sum_mu_squared", "parseval_tail_bound", "parseval_holds", "derivative_second_moment",
                 "sum_p_mu_squared")


def _checked_report(report: dict) -> dict:
    # lazy: mpmath and the Hermite module (SymPy) load only when coefficients are computed or read
    import mpmath

    from verify.model.hermite import MAX_COEFFICIENT

    missing = [f for f in REPORT_FIELDS if f not in report]
    if missing or not isinstance(report["coefficients"], list):
        raise ValueError(f"cached hermite report lacks {missing}")
    for value in report["coefficients"]:
        number = mpmath.mpf(value) if isinstance(value, str | int | float) else None
        if number is None or not mpmath.isfinite(number) or abs(number) > MAX_COEFFICIENT:
            raise ValueError(f"cached hermite coefficient {value!r} is not a finite number in range")
    return report


def build_report(activation: str, terms: int, dps: int, method: str, use_cache: bool = True,
                 progress: bool | None = None) -> dict:
    """The JSON report of ``verify hermite`` (cached as a whole, so a repeat is instant)."""
    # lazy: mpmath, SymPy and the quadrature load only when coefficients are computed or read
    import mpmath

    from verify.base import cache
    from verify.model.activations import get_activation
    from verify.model.diagnostics import decay_fit, information_exponent, parseval_check
    from verify.model.hermite import hermite_coefficients
    from verify.model.hermite_exact import is_finite_expansion

    key = {"activation": activation, "terms": terms, "dps": dps, "method": method}
    if use_cache:
        hit = cache.load(REPORT_CACHE_KIND, key, _checked_report)
        if hit is not None:
            return hit

    act = get_activation(activation)
    coeffs = hermite_coefficients(act, terms, dps, method=method, use_cache=use_cache,
                                  progress=progress)
    finite = is_finite_expansion(act)
    fit = decay_fit(coeffs, finite_expansion=finite)
    parseval = parseval_check(act, coeffs)

    def num(x, digits=dps):
        return None if x is None else mpmath.nstr(x, digits)

    report = {
        "activation": act.name,
        "dps": dps,
        "method": coeffs.method,
        "coefficients": [_significant(v, dps) for v in coeffs.values],
        "errors": [mpmath.nstr(e, 3) for e in coeffs.errors],
        "exact": [str(e) for e in coeffs.exact] if coeffs.exact is not None else None,
        "information_exponent": information_exponent(coeffs),
        "finite_expansion": finite,
        "decay_exponent": None if fit is None or finite else fit.rho,
        "decay_constant": None if fit is None else fit.constant,
        "decay_fit_range": None if fit is None or finite else [fit.p_min, fit.p_max],
        "second_moment": num(parseval.second_moment),
        "sum_mu_squared": num(parseval.partial_sum),
        "parseval_tail_bound": num(parseval.tail_bound, 5),
        "parseval_holds": parseval.holds,
        "derivative_second_moment": num(parseval.derivative_moment),
        "sum_p_mu_squared": num(parseval.derivative_partial_sum),
    }
    if use_cache:
        cache.store(REPORT_CACHE_KIND, key, report)
    return report


def _significant(value, digits: int) -> str:
    # lazy: mpmath loads only when coefficients are computed
    import mpmath

    if value == 0:
        return "0"
    with mpmath.workdps(digits + 10):
        return mpmath.nstr(value, digits, strip_zeros=False, min_fixed=-5, max_fixed=5)


def render_text(report: dict) -> str:
    lines = [
        f"activation: {report['activation']}    dps: {report['dps']}    "
        f"method: {report['method']}",
        f"{'p':>4}  {'mu_p':<{report['dps'] + 10}}  error",
    ]
    for p, (v, e) in enumerate(zip(report["coefficients"], report["errors"], strict=True)):
        lines.append(f"{p:>4}  {v:<{report['dps'] + 10}}  {e}")
    ie = report["information_exponent"]
    if ie is None:
        ie = f"> {len(report['coefficients']) - 1} (no nonzero mu_p with p >= 1 computed)"
    lines.append(f"information exponent: {ie}")
    if report["finite_expansion"]:
        lines.append("decay: finite Hermite expansion (polynomial), Assumption 6.2 holds for any rho")
    elif report["decay_exponent"] is not None:
        lo, hi = report["decay_fit_range"]
        lines.append(
            f"decay exponent: rho = {report['decay_exponent']:.4g}, C = {report['decay_constant']:.4g}"
            f"  (|mu_p| <= C p^(-1-rho), fitted on p in [{lo}, {hi}])"
        )
    else:
        lines.append("decay exponent: too few nonzero coefficients to fit")
    lines.append(f"E[sigma^2]  = {report['second_moment']}")
    lines.append(
        f"sum mu_p^2  = {report['sum_mu_squared']}   (tail bound {report['parseval_tail_bound']}, "
        f"Parseval {'ok' if report['parseval_holds'] else 'VIOLATED'})"
    )
    lines.append(f"E[sigma'^2] = {report['derivative_second_moment']}   (C_sigma of Prop. 23)")
    lines.append(f"sum p mu_p^2 = {report['sum_p_mu_squared']}   (partial sum, p < N)")
    return "\n".join(lines)


def run(args) -> int:
    if args.certified:
        return _run_certified(args)
    report = build_report(args.activation, args.terms, args.dps, args.method,
                          use_cache=not args.no_cache)
    if args.json:
        json.dump(report, sys.stdout, indent=2, sort_keys=True)
        sys.stdout.write("\n")
    else:
        print(render_text(report))
    return 0


def _run_certified(args) -> int:
    """``--certified``: balls that provably contain μ_p (:mod:`verify.certified.hermite`)."""
    # lazy: Arb ball arithmetic and SymPy load only when coefficients are certified
    from verify.certified.balls import to_payload
    from verify.certified.hermite import certified_hermite_coefficients

    coeffs = certified_hermite_coefficients(args.activation, args.terms, args.dps, method=args.method,
                                            use_cache=not args.no_cache)
    if args.json:
        json.dump({"activation": coeffs.activation, "dps": coeffs.dps, "method": coeffs.method,
                   "cutoff": coeffs.cutoff, "growth": coeffs.growth, "balls": coeffs.formatted(),
                   "enclosures": [to_payload(b, coeffs.dps) for b in coeffs.balls]},
                  sys.stdout, indent=2, sort_keys=True)
        sys.stdout.write("\n")
        return 0
    print(f"activation: {coeffs.activation}    dps: {coeffs.dps}    method: {coeffs.method} (certified)")
    if coeffs.growth is not None:
        print(f"tails |x| > {coeffs.cutoff} bounded by the proven growth {coeffs.growth}")
    print(f"{'p':>4}  mu_p (a ball that contains it)")
    for p, text in enumerate(coeffs.formatted()):
        print(f"{p:>4}  {text}")
    return 0
