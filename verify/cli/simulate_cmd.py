"""``verify simulate INSTANCE --mode MODE --steps T --lr ETA [...] -o FILE``: online SGD (eq. (4)).

Writes m_t, <c_hat_t, c> and the population loss of every replica every
``--record-every`` steps to FILE: CSV or NPZ, by FILE's extension.
"""

from __future__ import annotations

import sys

from verify.base.files import distinct_paths, output_file
from verify.cli.arguments import non_negative_int, overlap, positive_int, seed, step_size
from verify.cli.choices import MODE_NAMES, SGD_ENGINES


def add_parser(sub) -> None:

    p = sub.add_parser("simulate", help="online SGD in a mode of the paper, many replicas at once",
                       description=__doc__.split("\n\n")[0].split(": ", 1)[1])
    p.add_argument("instance", help="instance JSON file (see `verify instance`)")
    p.add_argument("--mode", choices=list(MODE_NAMES), default="frozen", help="training variant")
    p.add_argument("--steps", type=positive_int, required=True, help="number of SGD steps T")
    p.add_argument("--lr", type=step_size, required=True, help="step size eta")
    p.add_argument("--c-lr", type=step_size, default=None,
                   help="step size of c_hat in the modes that train it (default: --lr)")
    p.add_argument("--replicas", type=positive_int, default=1, help="independent runs (default 1)")
    p.add_argument("--engine", choices=SGD_ENGINES, default="auto",
                   help="compiled: the exact chain on the overlaps, compiled (numba), cost independent "
                        "of d; reduced: the same chain in NumPy (the reference); full: x in R^d; "
                        "auto (default): compiled for online runs, reduced for --batch > 1")
    p.add_argument("--record-every", type=positive_int, default=None,
                   help="steps between records (default: steps/500)")
    p.add_argument("--seed", type=seed, default=0, help="SeedSequence seed (default 0)")
    p.add_argument("--m0", type=overlap, default=None,
                   help="start at <u_hat, u> = m0 instead of uniformly on the sphere of span(W)-perp")
    p.add_argument("--init", choices=("random", "instance"), default="random",
                   help="random start (default) or the instance's u_hat")
    p.add_argument("--loss-samples", type=non_negative_int, default=200,
                   help="Monte-Carlo samples per record where no closed form applies (0: omit)")
    p.add_argument("--appendix-b-scaling", action="store_true",
                   help="multiply both networks by 1/xi (Appendix B)")
    p.add_argument("--batch", type=positive_int, default=1,
                   help="samples per update, each with step eta (default 1 = online SGD); steps and "
                        "--record-every count samples and must be multiples of it")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("-o", "--output", required=True, help="output file, .csv or .npz")
    p.set_defaults(run=run)


def run(args) -> int:
    # lazy: the simulator (NumPy, numba) and the instance load only when a run starts
    from verify.model.instance import load
    from verify.simulate import save_trajectory, simulate
    from verify.simulate.trajectory import output_format

    output_format(args.output)  # refuse a bad extension or path before the run
    output_file(args.output, "--output")
    distinct_paths({"--output": args.output}, {"instance": args.instance})
    inst = load(args.instance)
    traj = simulate(inst, mode=args.mode, steps=args.steps, lr=args.lr, replicas=args.replicas,
                    engine=args.engine, record_every=args.record_every, seed=args.seed,
                    quiet=args.quiet, appendix_b_scaling=args.appendix_b_scaling, init=args.init,
                    m0=args.m0, loss_samples=args.loss_samples, batch=args.batch, c_lr=args.c_lr)
    save_trajectory(traj, args.output)
    if traj.meta["engine_fallback"]:
        print(f"note: {traj.meta['engine_fallback']}", file=sys.stderr)
    return 0
