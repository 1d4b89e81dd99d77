"""``verify claim TEXT [--family F…] [--activation A…] [--for Q]… [--prob P] [--growth V] [--json]``.

Exit status: 0 when the claim holds or is consistent with the measurements, 1 when it fails
(the counterexample and its rerun command are printed), 3 when inconclusive, 2 for bad input.
"""

from __future__ import annotations

import argparse
import json
import sys

from verify.cli.arguments import positive_int, seed

EXIT_FAILS, EXIT_INCONCLUSIVE = 1, 3

DESCRIPTION = """Decide one relation between the model's quantities over the stated ranges: symbolically
where closed forms exist, then by ball arithmetic, a counterexample search or Monte Carlo; the
outcome names the step that decided.  Exit status: 0 holds or consistent, 1 fails (with the
counterexample and its rerun command), 3 inconclusive, 2 bad input."""

EPILOG = """examples:
  verify claim "h(0) >= C_sigma*xi**2/(k+xi**2)" --family orthonormal --for "k in 1..32" --activation relu
  verify claim "abs(h(m))*sqrt(1-m**2) <= C_sigma*lam_max**2*k*xi**2/(1+xi**2/k)" --family orthonormal \\
      --for "k in 1..4" --for "xi in [0.01, 3]" --for "m in [-1, 1]"
  verify claim "grad_var(0) == Theta(d)" --family orthonormal --for "d in 16..4096"
  verify claim "sign(m)*(h(m) - h(0)) >= 0" --family orthonormal --activation he3 --for "k = 1" \\
      --for "xi = sqrt(3)" --for "m in [-1, 1]" --prob ">= 1 - exp(-2*k/(E*xi**2)) over c, c_hat"

quantities: h(m) Phi(m) hcoef(l) mu(p) K(rho) Kp(rho) T(l, s) grad_var(m); scalars: k xi d lam_min
lam_max gamma C_sigma lstar; functions: exp log sqrt sin cos tanh atan erf Abs sign Max Min binomial
factorial Sum(term, index, low, high); orders: O(...) Theta(...) Omega(...) as one side."""


def add_parser(sub) -> None:

    p = sub.add_parser(
        "claim",
        help="check your own statement about the model (holds / fails with a counterexample)",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("text", metavar="CLAIM",
                   help="the relation, e.g. 'h(0) >= C_sigma*xi**2/(k+xi**2)', or in LaTeX: "
                        "'h(0) \\ge \\frac{C_\\sigma \\xi^2}{k+\\xi^2}'")
    p.add_argument("--latex", action="store_true", default=None,
                   help="read CLAIM as LaTeX (the default when it holds a backslash, ^ or a brace)")
    p.add_argument(
        "--family", nargs="+", metavar="F", help="instance families: orthonormal separated claim2 glm"
    )
    p.add_argument(
        "--activation", nargs="+", metavar="A", help="activations (default relu when one is needed)"
    )
    p.add_argument(
        "--for",
        dest="for_",
        action="append",
        default=[],
        metavar="Q",
        help="a quantifier: 'm in [0, 1]', 'k in 1..32', 'k in {4, 16}' or 'xi = sqrt(k)/2' (repeatable)",
    )
    p.add_argument(
        "--prob", metavar="P", help="probability claim: 'OP BOUND over PARTS', e.g. '>= 0.9 over c, c_hat'"
    )
    p.add_argument("--growth", metavar="VAR", help="the growth variable of an O/Theta/Omega claim")
    p.add_argument(
        "--seeds", metavar="S", help="instance seeds: N, A..B or {N, M} (default 0..3; 0 with --prob)"
    )
    p.add_argument("--lam", choices=("1/k", "1"), default="1/k", help="lambda_i = 1/k (default) or 1")
    p.add_argument("--draws", type=positive_int, help="draws for --prob (default 400, 4000 with --full)")
    p.add_argument(
        "--seed", type=seed, default=0, help="seed of the search, the draws and Monte Carlo (default 0)"
    )
    p.add_argument("--full", action="store_true", help="larger searches, grids, samples and budgets")
    p.add_argument("--json", action="store_true", help="the Outcome as JSON")
    p.set_defaults(run=run)


def run(args) -> int:
    # lazy: SymPy and the claim engine load only when a claim is decided
    from verify.claims import claim

    outcome = claim(
        args.text,
        family=args.family,
        activation=args.activation,
        for_=args.for_,
        prob=args.prob,
        growth=args.growth,
        seeds=args.seeds,
        lam=args.lam,
        draws=args.draws,
        seed=args.seed,
        full=args.full,
        latex=args.latex,
    )
    if args.json:
        json.dump(outcome_dict(outcome), sys.stdout, indent=2, sort_keys=True, default=str)
        sys.stdout.write("\n")
    else:
        print(report(outcome))
    return {"fails": EXIT_FAILS, "inconclusive": EXIT_INCONCLUSIVE}.get(outcome.verdict.value, 0)


def outcome_dict(outcome) -> dict:
    return {
        "verdict": outcome.verdict.value,
        "basis": outcome.basis.value if outcome.basis else None,
        "evidence": outcome.evidence,
        "scope": outcome.scope,
        "counterexample": outcome.counterexample,
        "numbers": outcome.numbers,
        "parameters": outcome.parameters,
        "notes": outcome.notes,
    }


def report(outcome) -> str:
    """The outcome as a few lines: the claim as typed, as read and printed back as LaTeX; verdict
    and basis, the deciding step, evidence, counterexample, rerun."""
    # lazy: the printer loads SymPy, which only a decided claim needs
    from verify.claims.printing import claim_latex

    numbers = outcome.numbers
    typed = outcome.parameters.get("latex")
    lines = [f"latex:    {typed} (as typed)"] if typed else []
    lines += [f"claim:    {outcome.parameters.get('claim')}" + (" (as read)" if typed else "")]
    printed = claim_latex(str(outcome.parameters.get("claim")))
    if printed is not None:
        lines.append(f"as LaTeX: {printed[0]}")
    lines += [
        f"verdict:  {outcome.verdict.value} ({outcome.basis.value if outcome.basis else 'none'}; "
        f"decided by the {numbers.get('decided_by')} step)",
        f"evidence: {outcome.evidence}",
    ]
    if outcome.scope:
        lines.append(f"scope:    {outcome.scope}")
    if outcome.counterexample:
        shown = {k: v for k, v in outcome.counterexample.items() if k != "rerun"}
        lines.append("counterexample: " + ", ".join(f"{k}={v}" for k, v in shown.items()))
        lines.append(f"rerun:    {outcome.counterexample['rerun']}")
    if "points" in numbers:
        lines.append(f"fit:      {numbers['growth']} = " + ", ".join(f"{p:g}" for p in numbers["points"]))
        for side in ("upper", "lower"):
            if f"{side}_exponent" in numbers:
                ratios = ", ".join(f"{r:.4g}" for r in numbers[f"{side}_ratios"])
                lines.append(f"          {side} ratio = {ratios}; exponent {numbers[f'{side}_exponent']}")
    lines.extend(f"note:     {note}" for note in outcome.notes)
    evaluated = numbers.get("evaluated", numbers.get("configurations"))
    if evaluated is None:  # decided for the whole range at once (an identity), no configuration run
        lines.append(f"checked:  the whole range at once in {numbers.get('seconds')} s")
    else:
        lines.append(
            f"checked:  {evaluated} of {numbers.get('configurations')} configuration(s) in "
            f"{numbers.get('seconds')} s"
            + (" (stopped at the first that fails)" if evaluated != numbers.get("configurations") else "")
        )
    return "\n".join(lines)
