"""A region study is evidence only if it does not depend on the machine's state: the same seed and
options give the same regions.STUDY.json, byte for byte apart from its timing field, from two
empty caches and with one worker (in-process, the SGD chains on threads) or two (processes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.extended  # two quick plateau studies: about two minutes on 2 cores


def _study(tmp_path, name: str, workers: int) -> dict:
    out, cache = tmp_path / name, tmp_path / f"{name}-cache"
    env = {**os.environ, "VERIFY_CACHE_DIR": str(cache)}
    result = subprocess.run([sys.executable, "-m", "verify", "regions", "--quick", "--only", "plateau",
                             "--workers", str(workers), "--out", str(out)],
                            capture_output=True, text=True, env=env, timeout=1800)
    assert result.returncode == 0, result.stderr
    doc = json.loads((out / "regions.plateau.json").read_text())
    del doc["cost"]["wall_s"]  # the one timing field
    return doc


def test_a_quick_study_is_the_same_from_two_empty_caches_with_one_and_two_workers(tmp_path):
    one = _study(tmp_path, "one", 1)
    two = _study(tmp_path, "two", 2)
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
