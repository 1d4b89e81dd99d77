"""``verify figures [--quick | --full [--batch-rule]] [--setup paper|normalised|both] [--only NAME ...]
[--scheduler ADDRESS] --out DIR``.

Regenerates the paper's figures (Appendix B) and the scaling experiment: NAME.png,
NAME.csv and NAME.json per figure (NAME.paper.* under the paper setup, as
verify/figures/runner.py writes them), and prints each figure's claims with their verdicts.
Exit 0 when every claim holds or is reported as not reproduced at this size (with its
evidence in the JSON); 1 when any other claim fails (a regression); 2 for bad arguments.
"""

from __future__ import annotations

import sys

from verify.base.errors import InvalidParameterError
from verify.base.files import output_directory
from verify.base.threads import settle_blas
from verify.cli.arguments import add_scheduler_options


class UnknownFigureError(InvalidParameterError):
    """--only named a figure that does not exist."""


def add_parser(sub) -> None:
    p = sub.add_parser("figures", help="regenerate the paper's figures and the scaling experiment",
                       description=__doc__.split("\n\n")[1])
    tier = p.add_mutually_exclusive_group()
    tier.add_argument("--quick", dest="quick", action="store_true", default=True,
                      help="small d and k, minutes on 2 cores (default)")
    tier.add_argument("--full", dest="quick", action="store_false", help="the paper's d and k")
    p.add_argument("--batch-rule", action="store_true",
                   help="--full only: sample-equivalent minibatches (the earlier full tier) instead of "
                        "online SGD, for comparison")
    p.add_argument("--setup", choices=("paper", "normalised", "both"), default="both",
                   help="paper: Appendix B's model as printed (scaled rows, 1/xi, one eta), every claim "
                        "also judged with each value Appendix B leaves open (eta, c_hat's step, xi, the "
                        "horizon) moved over a factor 10; normalised: Appendix D.1's model; both "
                        "(default): each claim judged under both")
    p.add_argument("--only", nargs="+", metavar="NAME", default=None, help="only these figures")
    add_scheduler_options(p)
    p.add_argument("--out", required=True, help="output directory")
    p.set_defaults(run=run)


def run(args) -> int:
    # one BLAS thread in this process too, before NumPy loads: with --workers 1 the runs share it,
    # and a BLAS reduction split over threads differs in its last bits from an unsplit one
    settle_blas()
    # lazy: the figures' experiments (NumPy, SymPy, the simulator) load only when figures are made
    from verify.figures import FIGURES

    names = args.only or list(FIGURES)
    unknown = [n for n in names if n not in FIGURES]
    if unknown:
        raise UnknownFigureError(f"unknown figure {unknown[0]!r}; the figures are {', '.join(FIGURES)}")
    options: dict = {"batch_rule": True} if getattr(args, "batch_rule", False) else {}
    if options and args.quick:
        raise InvalidParameterError("--batch-rule applies to the full tier only (--full)")
    setup = getattr(args, "setup", "both")
    if setup != "both":
        options["setup"] = setup
    if setup == "paper" and args.only is None:  # the scaling experiment is not Appendix B's: no paper setup
        names = [n for n in names if FIGURES[n].appendix_b]
    output_directory(args.out, "--out", writes=tuple(f"{name}.*" for name in names))
    if args.scheduler is not None:
        _check_scheduler(args.scheduler, args.timeout)
    progress = sys.stderr.isatty()
    # A claim the data do not reproduce, and that the figure already reports as such (its
    # numbers carry a "not reproduced at … size" status, with the evidence), is a finding
    # written to the JSON, not an error.  Any other claim that fails is a regression: exit 1.
    regressions = 0
    for name in names:
        result = run_figure(FIGURES[name], args.quick, args.scheduler, args.out, progress=progress, **options)
        for desc, ok, numbers in result["claims"]:
            status = numbers.get("status", "") if isinstance(numbers, dict) else ""
            if ok:
                print(f"{name}: holds: {desc}")
            elif status.startswith("not reproduced"):
                print(f"{name}: NOT REPRODUCED ({status}): {desc}")
            else:
                regressions += 1
                print(f"{name}: FAILS: {desc}")
    return 1 if regressions else 0


def run_figure(spec, quick, scheduler, out, progress, **options) -> dict:
    """:func:`verify.figures.runner.run_figure`, loaded when the first figure is made."""
    # lazy: the runner loads NumPy, matplotlib and the simulator, which the parser must not wait for
    from verify.figures.runner import run_figure as run_one

    return run_one(spec, quick, scheduler, out, progress=progress, **options)


def _check_scheduler(address: str, timeout: float) -> None:
    """Fail fast, in one line, when no scheduler answers (before any work is done)."""
    # lazy: verify.base.sweep loads NumPy and tqdm, needed only with --scheduler
    from verify.base.sweep import SchedulerUnreachableError

    try:
        # lazy: dask is an optional extra, needed only with --scheduler
        from distributed import Client
    except ImportError:
        raise InvalidParameterError("--scheduler needs dask.distributed") from None
    try:
        Client(address, timeout=timeout).close()
    except (OSError, TimeoutError, ValueError) as exc:
        raise SchedulerUnreachableError(f"no dask scheduler answered at {address!r} within "
                                        f"{timeout:g} s ({type(exc).__name__})") from None
