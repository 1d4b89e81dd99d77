#!/usr/bin/env python3
"""Replace the calibration blocks (docs/soundness.md) with the confusion matrix of a ``verify calibrate`` run.

    verify calibrate --checks --json c.json && python scripts/update_readme_calibration.py c.json
    python scripts/update_readme_calibration.py --check calibration.json   # exit 1 if the README is stale

The block sits between ``<!-- calibration:start -->`` and ``<!-- calibration:end -->``; it is
:func:`verify.calibration.readme_block` of the run's results (no timings).  Each statement's
verdict is recorded beside it, in results/calibration-verdicts.json, so that ``--check`` can say
which statements changed: a change where a CPU-time limit passed in one of the two runs is
tolerated and listed (:func:`verify.calibration.reconcile`); any other fails the check.
tests/test_calibration_corpus.py compares the block with the run the tests make.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    from verify.calibration import (
        RECORDED_VERDICTS,
        readme_block,
        reconcile,
        results_from_json,
        write_recorded_verdicts,
    )
    from verify.readme import stale_blocks, write_blocks

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="?", default="calibration.json")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if the calibration blocks are stale")
    args = parser.parse_args()
    payload = json.loads(Path(args.results).read_text(encoding="utf-8"))
    results = results_from_json(payload)
    changed = []
    if args.check:
        recorded = json.loads(RECORDED_VERDICTS.read_text(encoding="utf-8"))
        reconciled = reconcile(results, recorded)
        for name, kind in (("tolerated", "a CPU-time limit passed in one of the runs"),
                           ("changed", "a change of the rules, or a statement without a record")):
            listed = getattr(reconciled, name)
            if listed:
                print(f"{len(listed)} verdict(s) differ from the record, {kind}:")
                for sid, before, now in listed:
                    print(f"  {sid}: {before} -> {now}")
        results, changed = reconciled.results, reconciled.changed
    blocks = {"calibration": readme_block(results)}
    if "perturbations" in payload:  # written by `verify calibrate --checks`
        from verify.perturb import Perturbed, matrix_markdown

        blocks["calibration-checks"] = matrix_markdown([Perturbed(**r) for r in payload["perturbations"]])
    if args.check:
        stale = stale_blocks(blocks) + (["the recorded verdicts"] if changed else [])
        if stale:
            sys.stderr.write(f"block(s) {', '.join(stale)} differ from the run: run "
                             f"`python scripts/update_readme_calibration.py {args.results}`\n")
            return 1
        print(f"the {', '.join(blocks)} block(s) (docs/soundness.md) match the run")
        return 0
    write_blocks(blocks)
    write_recorded_verdicts(results)
    print(f"wrote the block(s) {', '.join(blocks)} (docs/soundness.md) and {RECORDED_VERDICTS.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
