"""The sweep executor: same results in-process, in a process pool and on dask; cache resumes."""

from __future__ import annotations

import time

import numpy as np
import pytest

from verify.base import cache, sweep
from verify.base.sweep import CACHE_KIND, SchedulerUnreachableError, Task, run_sweep


def noisy_mean(seed: int, n: int) -> dict:
    """A seeded toy task: results depend only on (seed, n)."""
    x = np.random.default_rng(seed).standard_normal(n)
    return {"mean": float(x.mean()), "first": x[:3], "n": n}


CALLS = {"count": 0}


def counted(seed: int) -> dict:
    CALLS["count"] += 1
    return {"seed": seed}


def tasks():
    return [Task(noisy_mean, {"seed": s, "n": 1000}) for s in range(4)]


def test_results_keep_order_and_arrays(tmp_path):
    out = run_sweep(tasks(), workers=1, use_cache=False)
    assert [r["n"] for r in out] == [1000] * 4
    assert isinstance(out[0]["first"], np.ndarray) and out[0]["first"].dtype == np.float64
    assert out[1]["mean"] == noisy_mean(1, 1000)["mean"]


def test_process_pool_matches_in_process():
    serial = run_sweep(tasks(), workers=1, use_cache=False)
    pooled = run_sweep(tasks(), workers=2, use_cache=False)
    for a, b in zip(serial, pooled, strict=True):
        assert a["mean"] == b["mean"] and (a["first"] == b["first"]).all()


def test_cache_makes_a_rerun_resume():
    CALLS["count"] = 0
    first = [Task(counted, {"seed": s}) for s in range(3)]
    run_sweep(first[:2], workers=1)
    assert CALLS["count"] == 2
    run_sweep(first, workers=1)  # only the third is new
    assert CALLS["count"] == 3
    assert cache.load(CACHE_KIND, first[2].key) is not None


def test_unreachable_scheduler_is_a_one_line_error():
    pytest.importorskip("distributed")  # the scheduler address is only tried with dask installed
    with pytest.raises(SchedulerUnreachableError, match="no dask scheduler answered at 'tcp://127.0.0.1:9'"):
        run_sweep(tasks(), scheduler="tcp://127.0.0.1:9", use_cache=False, timeout=2)


def test_dask_local_cluster_gives_the_same_results():
    distributed = pytest.importorskip("distributed")
    serial = run_sweep(tasks(), workers=1, use_cache=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = run_sweep(tasks(), scheduler=cluster.scheduler_address, use_cache=False)
    for a, b in zip(serial, remote, strict=True):
        assert a["mean"] == b["mean"] and (a["first"] == b["first"]).all()


def blas_threads(tag: int) -> dict:
    import os

    return {"tag": tag, "threads": os.environ.get("OPENBLAS_NUM_THREADS", "unset")}


def test_pool_workers_run_single_threaded_blas_and_the_parent_env_is_restored(monkeypatch):
    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    out = run_sweep([Task(blas_threads, {"tag": i}) for i in range(2)], workers=2, use_cache=False)
    assert [r["threads"] for r in out] == ["1", "1"]
    import os

    assert "OPENBLAS_NUM_THREADS" not in os.environ
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")  # the user's own setting wins
    out = run_sweep([Task(blas_threads, {"tag": i}) for i in range(2)], workers=2, use_cache=False)
    assert [r["threads"] for r in out] == ["3", "3"]


def _slow_square(x: float) -> float:
    time.sleep(x)
    return x * x


def test_ordered_map_keeps_the_order_and_names_the_work_in_flight_when_it_stalls(monkeypatch, capsys):
    # items finish out of order (the first is the slowest); results still come in input order, and
    # while the first is awaited past the stall limit, stderr names what is in flight
    monkeypatch.setattr(sweep, "STALL_REPORT_SECONDS", 0.3)
    out = list(sweep.ordered_map(_slow_square, [1.2, 0.0, 0.1], workers=2, name=lambda x: f"item {x}"))
    assert out == [1.44, 0.0, 0.010000000000000002]
    err = capsys.readouterr().err
    assert "verify: no result for" in err and "in flight: item 1.2" in err
