#!/usr/bin/env python3
"""Record the verdicts of a figures run and rewrite README.md's figures table from them.

    verify figures --quick --out q/ && python scripts/update_readme_figures.py --quick q/
    verify figures --full --out f/  && python scripts/update_readme_figures.py --full f/
    python scripts/update_readme_figures.py --check --quick q/   # CI: exit 1 if stale
    verify regions --quick --out r/ && python scripts/update_readme_figures.py --regions-quick r/
    verify regions --full --out rf/ && python scripts/update_readme_figures.py --regions-full rf/

A run directory is reduced to its verdicts (:func:`verify.figures.summary.summarize`) and
written to ``results/figures-{quick,full}.json`` (a full run's JSONs themselves are kept in
``results/figures-full/``); the ``figures`` and ``regions`` blocks (docs/figures.md) are then
rendered from those committed files (:func:`verify.readme.figures_block`), so the table
says what the runs said.  With ``--check`` nothing is written: the given directories must
match the committed summaries, and the blocks must match them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    from verify.figures.summary import summarize
    from verify.readme import (
        FIGURE_SUMMARIES,
        REGION_SUMMARIES,
        figures_block,
        regions_block,
        stale_blocks,
        write_blocks,
    )
    from verify.regions.summary import summarize as summarize_regions

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for tier in ("quick", "full"):
        parser.add_argument(
            f"--{tier}", metavar="DIR", help=f"a `verify figures --{tier} --setup both` output directory"
        )
        parser.add_argument(
            f"--regions-{tier}", metavar="DIR", help=f"a `verify regions --{tier}` output directory"
        )
    parser.add_argument("--check", action="store_true", help="compare instead of writing; exit 1 if stale")
    args = parser.parse_args()
    stale = []
    runs = [
        (tier, getattr(args, tier), summarize, FIGURE_SUMMARIES[tier], FULL_EVIDENCE, "*.json")
        for tier in ("quick", "full")
    ]
    runs += [
        (
            tier,
            getattr(args, f"regions_{tier}"),
            summarize_regions,
            REGION_SUMMARIES[tier],
            REGION_EVIDENCE,
            "regions.*.json",
        )
        for tier in ("quick", "full")
    ]
    for tier, directory, reduce, target, evidence, pattern in runs:
        if directory is None:
            continue
        summary = reduce(directory)
        if summary["tier"] != tier:
            sys.stderr.write(f"{directory} holds a {summary['tier']} run, given as a {tier} run\n")
            return 2
        path = ROOT / target
        text = json.dumps(summary, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(f"{target} differs from the run in {directory}")
        else:
            path.parent.mkdir(exist_ok=True)
            path.write_text(text, encoding="utf-8")
            if tier == "full":
                _keep_evidence(Path(directory), evidence, pattern)
    fresh = {"figures": figures_block(), "regions": regions_block()}
    if args.check:
        stale += [f"block {name} differs from the committed summaries" for name in stale_blocks(fresh)]
        for line in stale:
            sys.stderr.write(line + ": run scripts/update_readme_figures.py with the same directories\n")
        if not stale:
            print("figures summaries and the figures and regions blocks (docs/figures.md) match")
        return 1 if stale else 0
    write_blocks(fresh)
    return 0


def _keep_evidence(directory: Path, evidence: str, pattern: str) -> None:
    """The full run's JSONs (parameters, choices, every claim's numbers, the per-curve quantities
    and the sensitivity runs: ~0.3 MB) go to results/figures-full/, so the README's numbers can
    be checked without the hour-long run; the CSVs and PNGs are not kept (tox -e figures-full)."""
    import shutil

    target = ROOT / evidence
    if directory.resolve() == target.resolve():
        return  # the run's directory is the evidence itself (it was deleted before being copied)
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for path in sorted(directory.glob(pattern)):
        shutil.copyfile(path, target / path.name)


FULL_EVIDENCE = "results/figures-full"
REGION_EVIDENCE = "results/regions-full"


if __name__ == "__main__":
    sys.exit(main())
