"""The ``verify`` command line.

Each subcommand lives in its own module with ``add_parser(subparsers)`` and
``run(args) -> int``.  Bad input (a :class:`~verify.errors.VerifyInputError`
or an argparse error) prints one line ``verify: error: ...`` and exits 2; a
numerical failure exits 1 with its message; anything else is a crash.
"""

from __future__ import annotations

import argparse
import sys

from verify.errors import ConvergenceError, VerifyInputError

EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit status 2."""

    def error(self, message: str):
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        sys.exit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    from verify.cli import (
        bench_cmd,
        check_cmd,
        derive_cmd,
        figures_cmd,
        grad_cmd,
        hermite_cmd,
        instance_cmd,
        kernel_cmd,
        population_cmd,
        series_cmd,
        simulate_cmd,
    )

    parser = OneLineParser(
        prog="verify",
        description="Symbolic-numeric verification suite for Dayı & Chen, "
        "'Low-rank fine-tuning lies between lazy training and feature learning'.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    sub.required = True
    for module in (
        check_cmd, hermite_cmd, kernel_cmd, instance_cmd, population_cmd, series_cmd, derive_cmd,
        bench_cmd, grad_cmd, simulate_cmd, figures_cmd,
    ):
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or EXIT_OK)
    except VerifyInputError as exc:
        sys.stderr.write(f"verify {args.command}: error: {exc}\n")
        return EXIT_USAGE
    except ConvergenceError as exc:
        sys.stderr.write(f"verify {args.command}: numerical failure: {exc}\n")
        return EXIT_FAILURE
    except KeyboardInterrupt:
        sys.stderr.write("verify: interrupted\n")
        return 130
