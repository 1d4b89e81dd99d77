"""``verify grad INSTANCE --m M --samples N [--engine full|reduced] [--seed S] [--json]``.

Monte-Carlo estimate of the projected spherical gradient at ⟨û, u⟩ = m (§2, Appendix D.1):
its component along u − m û with standard error, the norm of the orthogonal residual
(with its noise scale), the analytic value −h(m) and the z-score; the same for Φ(m).
"""

from __future__ import annotations

import json
import sys

from verify.cli.arguments import open_overlap, positive_int, seed


def add_parser(sub) -> None:
    p = sub.add_parser("grad", help="Monte-Carlo projected gradient and loss at overlap m, vs closed form",
                       description=__doc__.split("\n\n")[1])
    p.add_argument("instance", help="instance JSON file (see `verify instance`)")
    p.add_argument("--m", type=open_overlap, required=True, help="overlap m = <u, u_hat> in (-1, 1)")
    p.add_argument("--samples", type=positive_int, required=True, help="number of fresh samples")
    p.add_argument("--engine", choices=("full", "reduced"), default="full",
                   help="full: x in R^d; reduced: exact projections only (default full)")
    p.add_argument("--seed", type=seed, default=0, help="SeedSequence seed (default 0)")
    p.add_argument("--chunk-mb", type=positive_int, default=256, help="memory budget per chunk (MiB)")
    p.add_argument("--appendix-b-scaling", action="store_true",
                   help="multiply both networks by 1/xi (Appendix B); values scale by 1/xi^2")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run)


def run(args) -> int:
    # lazy: the instance and the Monte-Carlo engine (NumPy, SymPy) load only when a gradient is estimated
    from verify.model.instance import load
    from verify.simulate.montecarlo import estimate_gradient

    inst = load(args.instance)
    est = estimate_gradient(inst, args.m, args.samples, engine=args.engine, seed=args.seed,
                            chunk_bytes=args.chunk_mb * 2**20,
                            appendix_b_scaling=args.appendix_b_scaling)
    report = est.to_dict()
    report["instance"] = args.instance
    if args.json:
        json.dump(report, sys.stdout, indent=2, sort_keys=True)
        sys.stdout.write("\n")
        return 0

    def z(value):
        return "n/a" if value is None else f"{value:+.3f}"

    def analytic(value):
        return "n/a" if value is None else f"{value:.10e}"

    print(f"m = {est.m:g}, {est.samples} samples, engine {est.engine}")
    print(f"gradient component along u - m u_hat: {est.component:.10e} +- {est.component_se:.3e} "
          f"(analytic -h(m) = {analytic(est.analytic_component)}, z = {z(est.z_component)})")
    print(f"orthogonal residual norm:             {est.residual_norm:.3e} "
          f"(noise scale {est.residual_noise:.3e})")
    print(f"loss Phi(m):                          {est.loss:.10e} +- {est.loss_se:.3e} "
          f"(analytic = {analytic(est.analytic_loss)}, z = {z(est.z_loss)})")
    if est.note:
        print(est.note)
    return 0
