r"""One executor for parameter sweeps: a local process pool, or dask.distributed.

A sweep is a list of :class:`Task`: a module-level function and a JSON-able
parameter dict that includes its own seed.  Results depend only on (function,
params), so

- the same seeds give the same results whichever executor ran them;
- each finished task is stored in the on-disk cache (:mod:`verify.base.cache`, kind
  ``"sweep"``) the moment it completes, and a rerun skips it: an interrupted
  sweep resumes where it stopped.

``scheduler=None`` runs in a local :class:`~concurrent.futures.ProcessPoolExecutor`
(``workers=1`` runs in-process, which tests and small sweeps prefer);
``scheduler="tcp://host:port"`` submits to a dask.distributed scheduler, and an
unreachable one is reported in one line after ``timeout`` seconds.

Results are dicts of numbers, strings, lists and NumPy arrays; arrays round-trip
through the cache as float64/int64 lists (JSON floats round-trip exactly).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import InvalidStateError, ProcessPoolExecutor, as_completed
from concurrent.futures import TimeoutError as FuturesTimeoutError
from dataclasses import dataclass
from typing import Any

import numpy as np
from tqdm import tqdm

from verify.base import cache
from verify.base.budget import die_with_parent
from verify.base.errors import InvalidParameterError
from verify.base.fingerprint import code_fingerprint
from verify.base.threads import BLAS_THREAD_VARIABLES

CACHE_KIND = "sweep"
SWEEP_FORMAT = 1  # bump when a task function's output changes meaning


class SchedulerUnreachableError(InvalidParameterError):
    """``--scheduler`` named an address no dask scheduler answered on."""


@dataclass(frozen=True)
class Task:
    function: Callable[..., dict]
    params: dict

    @property
    def key(self) -> dict:
        """The cache key: the function, its parameters and the package's code.  The code's
        fingerprint is part of it because a result is the code's as much as the parameters': keyed
        by the version string alone, results of an older simulator were served after it changed,
        and a region study gave other numbers from a warm cache than from an empty one."""
        f = self.function
        return {"function": f"{f.__module__}.{f.__qualname__}", "format": SWEEP_FORMAT,
                "code": code_fingerprint((".py",)), "params": _jsonable(self.params)}


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return {"__array__": value.tolist(), "dtype": str(value.dtype)}
    if isinstance(value, np.generic):
        return value.item()
    return value


def _restore(value: Any) -> Any:
    if isinstance(value, dict):
        if "__array__" in value:
            return np.asarray(value["__array__"], dtype=value["dtype"])
        return {k: _restore(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_restore(v) for v in value]
    return value


def _call(function: Callable[..., dict], params: dict) -> dict:
    return _jsonable(function(**params))


def _cached_result(payload: dict) -> dict:
    result = payload["result"]
    if not isinstance(result, dict):
        raise TypeError("a cached sweep result is a JSON object")
    return result


def run_sweep(tasks: Sequence[Task], scheduler: str | None = None, workers: int | None = None,
              use_cache: bool = True, progress: bool = False, timeout: float = 10.0) -> list[dict]:
    """Results of ``tasks`` in order; cached tasks are not rerun."""
    results: list[Any] = [None] * len(tasks)
    todo = []
    for i, task in enumerate(tasks):
        hit = cache.load(CACHE_KIND, task.key, _cached_result) if use_cache else None
        if hit is not None:
            results[i] = hit
        else:
            todo.append(i)
    bar = _bar(len(todo), progress)

    def finish(i: int, value: dict) -> None:
        results[i] = value
        if use_cache:
            cache.store(CACHE_KIND, tasks[i].key, {"result": value})
        if bar is not None:
            bar.update()

    if scheduler is not None:
        _run_dask(tasks, todo, scheduler, timeout, finish)
    elif (workers or os.cpu_count() or 1) <= 1 or len(todo) <= 1:
        for i in todo:
            finish(i, _call(tasks[i].function, tasks[i].params))
    else:
        with _single_threaded_blas(), process_pool(min(workers or os.cpu_count() or 1, len(todo)),
                                                   multiprocessing.get_context("spawn")) as pool:
            futures = {pool.submit(_call, tasks[i].function, tasks[i].params): i for i in todo}
            for fut in as_completed(futures):
                finish(futures[fut], fut.result())
    if bar is not None:
        bar.close()
    return [_restore(r) for r in results]


def ordered_map(function: Callable[[Any], Any], items: Sequence[Any], workers: int = 1,
                name: Callable[[Any], str] = str) -> Iterator[Any]:
    """``function`` over ``items`` in order, in ``workers`` local processes (in-process for 1).

    The uncached sibling of :func:`run_sweep`, for work whose point is to run afresh each time
    (the calibration corpus, the perturbed checks); results come back as they are, unconverted.
    When no result has come for :data:`STALL_REPORT_SECONDS`, stderr names the items in flight
    (by ``name``), so that a run that stalls says where (a CI run once stopped for an hour in the
    perturbed checks without a word)."""
    if workers <= 1 or len(items) <= 1:
        yield from map(function, items)
        return
    with _single_threaded_blas(), process_pool(min(workers, len(items))) as pool:
        futures = [pool.submit(function, item) for item in items]
        for future in futures:
            waited = 0.0
            while True:
                try:
                    result = future.result(timeout=STALL_REPORT_SECONDS)
                    break
                except FuturesTimeoutError:
                    waited += STALL_REPORT_SECONDS
                    flying = [name(item) for item, other in zip(items, futures, strict=True)
                              if other.running()]
                    sys.stderr.write(f"verify: no result for {waited / 60:g} min; in flight: "
                                     f"{', '.join(flying) or 'none'}\n")
            yield result


#: Seconds without a result after which :func:`ordered_map` names the work in flight.
STALL_REPORT_SECONDS = 600.0


@contextlib.contextmanager
def process_pool(workers: int, context=None) -> Iterator[ProcessPoolExecutor]:
    """A process pool whose workers die with this process and stop at once on Ctrl-C.

    ``with ProcessPoolExecutor()`` waits on the way out for every queued task: Ctrl-C on
    ``verify regions`` went on computing for minutes, and SIGTERM left the workers running under
    PID 1.  Here each worker asks the kernel to kill it when its parent dies, and an exception
    (KeyboardInterrupt included) cancels the queued tasks and terminates the running ones."""
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_pool_worker,
                               initargs=(os.getpid(),))
    try:
        yield pool
    except BaseException:
        running = list((getattr(pool, "_processes", None) or {}).values())
        manager = getattr(pool, "_executor_manager_thread", None)  # shutdown() forgets it
        previous = threading.excepthook
        threading.excepthook = _quiet_about_cancelled(previous)
        try:
            pool.shutdown(wait=False, cancel_futures=True)
            for process in running:
                process.terminate()
            for process in running:
                # reaped before this process exits: on a loaded machine a worker outlived it
                process.join(timeout=5)
            if manager is not None:
                manager.join(timeout=5)
        finally:
            threading.excepthook = previous
        raise
    pool.shutdown(wait=True)


def _quiet_about_cancelled(previous):
    """An excepthook that drops the executor's InvalidStateError: its manager thread, finding the
    terminated workers, sets an exception on futures already cancelled and printed a traceback
    after ``verify: interrupted`` (a CPython race between cancel_futures and a broken pool)."""

    def hook(args):
        if not isinstance(args.exc_value, InvalidStateError):
            previous(args)

    return hook


def _pool_worker(parent: int) -> None:
    """A pool worker's start: it dies with ``parent``, and leaves Ctrl-C and SIGTERM to it.  Ctrl-C
    in a terminal reaches the whole process group, and each worker printed its KeyboardInterrupt
    traceback (about 300 lines under `verify calibrate`); a forked worker also inherited the
    parent's SIGTERM handler.  The parent stops its workers itself (:func:`process_pool`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent(parent)




@contextlib.contextmanager
def _single_threaded_blas():
    """Workers start (``spawn``: a fresh interpreter, so NumPy reads these variables anew) with
    one BLAS thread each: the pool already uses every core, and on the 2-core machine two
    workers with OpenBLAS's default threads ran a figure's runs 2.5x slower (8.2 vs 3.3 us per
    sample, measured side by side).  The parent's environment is restored afterwards; a
    variable the user set is left as it is."""
    saved = {name: os.environ.get(name) for name in BLAS_THREAD_VARIABLES}
    for name, value in saved.items():
        if value is None:
            os.environ[name] = "1"
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)


def _run_dask(tasks, todo, scheduler, timeout, finish) -> None:
    try:
        # lazy: dask is an optional extra, needed only with --scheduler
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError:
        raise InvalidParameterError("--scheduler needs dask.distributed: pip install "
                                    "'verify[dask]'") from None
    try:
        client = Client(scheduler, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        raise SchedulerUnreachableError(
            f"no dask scheduler answered at {scheduler!r} within {timeout:g} s ({type(exc).__name__})"
        ) from None
    try:
        futures = {client.submit(_call, tasks[i].function, tasks[i].params, pure=False): i for i in todo}
        for fut in dask_completed(list(futures)):
            finish(futures[fut], fut.result())
    finally:
        client.close()


def _bar(total: int, progress: bool):
    if not progress or total == 0 or not sys.stderr.isatty():
        return None

    return tqdm(total=total, unit="run", file=sys.stderr, leave=False)
