#!/usr/bin/env python3
"""Time the README's commands and record what they counted (results/timings.json).

    python scripts/measure.py            # all of them (about 25 minutes on 2 cores)
    python scripts/measure.py --only check tests

Each command runs in a fresh temporary directory with an empty cache (``VERIFY_CACHE_DIR``),
except ``check-warm``, which reruns the main job on the cache ``check`` filled.  The README's
``timings`` block is rendered from the file (:func:`verify.readme.timings_block`), so every
number on the front page comes from a measured run.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "results" / "timings.json"
BIN = Path(sys.executable).parent

#: name -> (what it is, the command as the README gives it, argv, how to count its result)
RUNS = {
    "check": ("the main job, empty cache", "verify check", ["verify", "check", "--quiet"], "checks"),
    "check-warm": ("the main job again, warm cache", "verify check", ["verify", "check", "--quiet"],
                   "checks"),
    # the same work on one core, beside the default (every core): the ratio is what --jobs buys
    "check-serial": ("the main job on one core, empty cache", "verify check --jobs 1",
                     ["verify", "check", "--quiet", "--jobs", "1"], "checks"),
    # from the repository root, as CI runs it (no .pytest_cache written)
    "tests": ("the fast test tier (CI runs -m extended next)", "python -m pytest",
              [sys.executable, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider"], "pytest"),
    "regions": ("the region studies, quick tier", "verify regions --quick --out DIR",
                ["verify", "regions", "--quick", "--out", "regions"], None),
    "figures": ("Appendix B's figures, quick tier", "verify figures --quick --out DIR",
                ["verify", "figures", "--quick", "--out", "figures"], None),
    "calibrate": ("the calibration corpus and every check's perturbations", "verify calibrate --checks",
                  ["verify", "calibrate", "--quiet", "--checks"], None),
}


def _count(kind: str | None, output: str) -> dict:
    if kind == "checks":
        match = re.search(r"^(\d+) checks\.", output, re.M)
        return {"checks": int(match.group(1))} if match else {}
    if kind == "pytest":
        tail = output.strip().splitlines()[-1] if output.strip() else ""
        counted = {name: int(n) for n, name in re.findall(r"(\d+) (passed|failed|skipped|deselected)", tail)}
        failed = re.findall(r"^FAILED (\S+)", output, re.M)  # -rf: which ones, so a failure can be traced
        return counted | ({"failed_tests": failed} if failed else {})
    return {}


def measure(name: str, cache: Path) -> dict:
    what, shown, argv, kind = RUNS[name]
    if argv[0] == "verify":
        argv = [str(BIN / "verify"), *argv[1:]]
    env = {**os.environ, "VERIFY_CACHE_DIR": str(cache)}
    with tempfile.TemporaryDirectory() as work:
        load = os.getloadavg()[0]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(argv, cwd=ROOT if name == "tests" else work, env=env, capture_output=True,
                              text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU seconds of the command and every process it started (pytest's workers included): what
    # the work costs; wall time adds whatever else the machine is doing.
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):  # 1: a finding (a figure claim not reproduced)
        raise SystemExit(f"{name}: exit {done.returncode}\n{done.stderr[-2000:]}")
    return {"what": what, "command": shown, "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
            "load": round(load, 2), "exit": done.returncode,
            **_count(kind, done.stdout)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=list(RUNS), default=list(RUNS))
    args = parser.parse_args()
    previous = json.loads(OUT.read_text(encoding="utf-8")) if OUT.exists() else {"runs": {}}
    runs = dict(previous.get("runs", {}))
    # one cache directory per run, except check-warm, which reuses the one check filled
    with tempfile.TemporaryDirectory() as caches:
        for name in args.only:
            cache = Path(caches) / ("check" if name == "check-warm" else name)
            cache.mkdir(exist_ok=True)
            runs[name] = measure(name, cache) | {"date": datetime.date.today().isoformat()}
            print(f"{name}: {runs[name]['wall_s']} s", flush=True)
    doc = {"machine": {"cores": len(os.sched_getaffinity(0)), "python": platform.python_version()},
           "runs": {name: runs[name] for name in RUNS if name in runs}}
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
