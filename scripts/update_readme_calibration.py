#!/usr/bin/env python3
"""Replace the calibration blocks (docs/soundness.md) with the confusion matrix of a ``verify calibrate`` run.

    verify calibrate --checks --json c.json && python scripts/update_readme_calibration.py c.json
    python scripts/update_readme_calibration.py --check calibration.json   # exit 1 if the README is stale

The block sits between ``<!-- calibration:start -->`` and ``<!-- calibration:end -->``; it is
:func:`verify.calibration.readme_block` of the run's results (no timings, so it is the same on
every machine).  tests/test_calibration_corpus.py compares it with the run the tests make.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    from verify.calibration import readme_block_from_json
    from verify.readme import stale_blocks, write_blocks

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", nargs="?", default="calibration.json")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if the calibration blocks are stale")
    args = parser.parse_args()
    payload = json.loads(Path(args.results).read_text(encoding="utf-8"))
    blocks = {"calibration": readme_block_from_json(payload)}
    if "perturbations" in payload:  # written by `verify calibrate --checks`
        from verify.perturb import Perturbed, matrix_markdown

        blocks["calibration-checks"] = matrix_markdown([Perturbed(**r) for r in payload["perturbations"]])
    if args.check:
        stale = stale_blocks(blocks)
        if stale:
            sys.stderr.write(f"block(s) {', '.join(stale)} differ from the run: run "
                             f"`python scripts/update_readme_calibration.py {args.results}`\n")
            return 1
        print(f"the {', '.join(blocks)} block(s) (docs/soundness.md) match the run")
        return 0
    write_blocks(blocks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
