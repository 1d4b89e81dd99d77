"""``verify instance KIND --k K --d D --xi XI --activation ACT -o FILE``: draw a problem instance."""

from __future__ import annotations

from verify.base.errors import InvalidParameterError
from verify.base.files import output_file
from verify.cli.arguments import file_path, positive_int, positive_real, seed, unit_interval
from verify.cli.choices import GENERATOR_NAMES

#: ‖Π_W u‖ when --allow-nonorthogonal-u is given without --alpha: Fig. 5(b)'s value.
DEFAULT_ALPHA = 0.5


def add_parser(sub) -> None:
    p = sub.add_parser(
        "instance",
        help="draw a validated problem instance (base network, perturbation, student start) as JSON",
        description="Draw a problem instance of the given kind from a seed, validate it against "
        "the paper's assumptions, and write it as JSON.",
    )
    p.add_argument("kind", choices=sorted(GENERATOR_NAMES), metavar="KIND",
                   help="one of: " + ", ".join(sorted(GENERATOR_NAMES)))
    p.add_argument("--k", type=positive_int, required=True, help="number of neurons")
    p.add_argument("--d", type=positive_int, required=True, help="input dimension")
    p.add_argument("--xi", type=positive_real, default=1.0, help="perturbation scale ξ > 0 (default 1)")
    p.add_argument("--activation", required=True, help="registry name or expr:<SymPy in x>")
    p.add_argument("--seed", type=seed, default=None,
                   help="non-negative integer (default: fresh entropy, recorded in the file)")
    p.add_argument("-o", "--output", type=file_path, required=True, metavar="FILE", help="JSON file to write")
    p.add_argument("--continuous-c", action="store_true",
                   help="c, ĉ uniform on the unit sphere instead of {±1/√k}^k (Assumption 3 off)")
    p.add_argument("--allow-nonorthogonal-u", action="store_true",
                   help=f"draw u with ‖Π_W u‖ = --alpha (default {DEFAULT_ALPHA}) as in Fig. 5 "
                   "(Assumption 2 off for u)")
    p.add_argument("--alpha", type=unit_interval, default=None,
                   help="‖Π_W u‖ in [0, 1], with --allow-nonorthogonal-u")
    p.set_defaults(run=run)


def run(args) -> int:
    # lazy: the generators (NumPy) and the activation registry (SymPy) load only when an instance is drawn
    from verify.model.activations import get_activation
    from verify.model.instance import GENERATORS, save

    output_file(args.output, "--output")
    activation = get_activation(args.activation).name
    if args.alpha is not None and not args.allow_nonorthogonal_u:
        raise InvalidParameterError("--alpha needs --allow-nonorthogonal-u (Assumption 2 holds otherwise)")
    alpha = (DEFAULT_ALPHA if args.alpha is None else args.alpha) if args.allow_nonorthogonal_u else None
    instance = GENERATORS[args.kind](args.k, args.d, args.xi, activation, args.seed,
                                     quantized=not args.continuous_c, alpha=alpha)
    save(instance, args.output)
    c_kind = "c quantized" if instance.quantized else "c continuous"
    u_kind = f"‖Π_W u‖ = {alpha}" if alpha is not None else "u ⊥ span W"
    line = (f"wrote {args.output}: {instance.kind} instance, k={instance.k}, d={instance.d}, "
            f"xi={instance.xi:g}, activation={instance.activation}, seed={instance.seed}, "
            f"{c_kind}, {u_kind}")
    if args.kind == "separated":
        line += f", Assumption 5 {'holds' if instance.assumption_5 else 'FAILS'}"
    print(line)
    return 0
