"""``verify regions [--quick | --full] [--only STUDY ...] [--workers N] [--scheduler ADDRESS] --out DIR``.

Judges the caption claims of Figs. 1(a)/4, 1(b)/6, 2, 3 and 5 over many instances, two λ shapes, a step
grid spanning 10⁷ and both step protocols (one step shared by the compared curves, or tuned
per curve and judged by the median of 5 independent runs), and reports the region where each claim holds on most instances (99 %
Clopper–Pearson), with the flow-against-SGD gap and the quantity that best predicts the
failures.  Writes regions.STUDY.json and one heat map FIGURE.regions.png per figure; exit 0
(a region verdict is a finding, not an error), 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import sys

from verify.base.errors import InvalidParameterError
from verify.base.files import output_directory
from verify.base.threads import settle_blas
from verify.cli.arguments import add_scheduler_options
from verify.cli.figures_cmd import _check_scheduler
from verify.regions import STUDIES


def _workers(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1 (processes), got {text!r}")
    return value


def add_parser(sub) -> None:
    p = sub.add_parser(
        "regions",
        help="figure claims over many instances and step grids: where each holds",
        description=__doc__.split("\n\n")[1],
    )
    tier = p.add_mutually_exclusive_group()
    tier.add_argument(
        "--quick",
        dest="quick",
        action="store_true",
        default=True,
        help="k = 10, d = 100, 20 instances (default; a few minutes on 2 cores)",
    )
    tier.add_argument(
        "--full",
        dest="quick",
        action="store_false",
        help="k = 20, d = 400, 24 instances, a denser grid (about an hour on 2 cores for all five studies)",
    )
    p.add_argument(
        "--only", nargs="+", metavar="STUDY", default=None, help=f"only these studies ({', '.join(STUDIES)})"
    )
    p.add_argument(
        "--workers",
        type=_workers,
        default=None,
        help="local processes (default: every core; 1 runs in-process, the SGD chains then on threads)",
    )
    add_scheduler_options(p)
    p.add_argument("--out", required=True, help="output directory")
    p.set_defaults(run=run)


def run(args) -> int:
    # one BLAS thread in this process too, before NumPy loads: with --workers 1 the runs share it,
    # and a BLAS reduction split over threads differs in its last bits from an unsplit one
    settle_blas()
    # lazy: the studies' runner (NumPy, the simulator, matplotlib) loads only when a study is run
    from verify.regions.runner import run_study
    from verify.regions.summary import gap_words

    names = args.only or list(STUDIES)
    unknown = [n for n in names if n not in STUDIES]
    if unknown:
        raise InvalidParameterError(f"unknown study {unknown[0]!r}; the studies are {', '.join(STUDIES)}")
    output_directory(args.out, "--out", writes=tuple(f for n in names for f in STUDIES[n].output_files()))
    if args.scheduler is not None:
        _check_scheduler(args.scheduler, args.timeout)
    for name in names:
        doc = run_study(
            STUDIES[name], args.quick, args.out, args.scheduler, args.workers, progress=sys.stderr.isatty()
        )
        gaps = "; ".join(f"{fig}: {gap_words(g)}" for fig, g in doc["flow_gap"].items())
        print(
            f"{name} ({doc['tier']}, {doc['cost']['sgd_samples']:.3g} SGD samples, "
            f"{doc['cost']['wall_s']} s); "
            f"flow against SGD: {gaps}"
        )
        for claim in doc["claims"]:
            print(
                f"  {claim['figure']}: {claim['verdict']} [{', '.join(claim['reproduced_by'])}]: "
                f"{claim['claim']}"
            )
            for words in claim["words"]:
                print(f"    {words}")
            if claim["explanation"] and claim["explanation"]["best"]:
                best = claim["explanation"]["best"]
                rho = claim["explanation"]["correlations"][best]["spearman"]
                print(
                    f"    best predictor of its {claim['explanation']['statistic']}: {best} "
                    f"(Spearman {rho:+.2f})"
                )
    return 0
