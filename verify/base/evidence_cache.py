"""Numerical and statistical evidence kept between runs, so that a second ``verify check`` is faster.

Counterexample searches, high-precision series and the event counts of a sampled ``--prob``
configuration are numerical and statistical work that a second ``verify check`` need not repeat
(and so is the whole outcome of a check that such evidence decides,
:mod:`verify.checks.outcome_cache`); this module keeps them in the on-disk cache (:mod:`verify.base.cache`: signed
entries, validated on reading, a bad entry recomputed).  What it keeps, and why that is safe:

* Only evidence that :mod:`verify.base.cache` may hold: numbers behind *numerical*, *statistical*
  and *high-precision* verdicts, and search results, which only suggest a counterexample (a check
  confirms one afresh, exactly or in balls, before it refutes).  Nothing behind an *exact* or
  *certified* verdict.
* Keyed by everything the value depends on: the caller's arguments in canonical form
  (:func:`canonical`: arrays by their bytes, random streams by their state, instances by their
  fields) and the fingerprint of the package's code, so an edit anywhere recomputes rather than
  serve a result of other code.
* Returned exactly as computed: floats and arrays travel as their bytes, mpmath numbers as their
  mantissa and exponent, so a run from a warm cache gives the report, byte for byte, of a cold
  one (``tests/test_evidence_cache.py``).  A value the codec cannot write exactly (a non-finite
  float in an array) is not stored.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import functools
import hashlib
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import mpmath
import numpy as np

from verify.base import cache
from verify.base.fingerprint import code_fingerprint

T = TypeVar("T")

#: Zero, ±infinity and NaN as mpmath writes them (sign, mantissa, exponent, bit count).
_SPECIAL_MPF = {tuple(int(part) for part in v._mpf_)
                for v in (mpmath.mpf(0), mpmath.inf, -mpmath.inf, mpmath.nan)}
#: The array types a payload may hold (decoded as these and nothing else).
_DTYPES = {"float64": np.float64, "int64": np.int64, "bool": np.bool_}


class NotStorable(Exception):
    """A value the codecs cannot write exactly: it is computed and returned, not stored."""


#: While set (:func:`bypassed`), nothing is read from or written to the cache.
_BYPASS = {"on": False}


@contextlib.contextmanager
def bypassed() -> Iterator[None]:
    """Within the block, every value is computed: for runs that change the code without changing
    its files (``verify calibrate --checks`` replaces the checks' ``claimed_*`` hooks)."""
    old = _BYPASS["on"]
    _BYPASS["on"] = True
    try:
        yield
    finally:
        _BYPASS["on"] = old


@functools.cache
def _libraries() -> dict:
    """The versions of the libraries whose arithmetic the cached values come from."""
    # lazy: SciPy costs a third of a second at import, and only a stored value's key needs it
    import scipy

    return {"numpy": np.__version__, "scipy": scipy.__version__, "mpmath": mpmath.__version__,
            "mpmath_backend": mpmath.libmp.BACKEND}


def remembered(kind: str, key: dict, compute: Callable[[], T], encode: Callable[[T], dict],
               decode: Callable[[dict], T]) -> T:
    """``compute()``, or the value stored under ``key``, this code's fingerprint and the versions
    of NumPy, SciPy and mpmath.

    ``encode`` turns the value into a JSON payload (raising :class:`NotStorable` where it cannot
    write it exactly); ``decode`` reads it back and raises on anything malformed (a miss), and has
    no side effect."""
    if _BYPASS["on"]:
        return compute()
    full = {**key, "code": code_fingerprint(), "libraries": _libraries()}
    hit = cache.load(kind, full, decode)
    if hit is not None:
        return hit
    value = compute()
    try:
        payload = encode(value)
    except NotStorable:
        return value
    cache.store(kind, full, payload)
    return value


def canonical(value: Any) -> Any:
    """A JSON value (lists, string-keyed dicts, strings, ints) that is equal for two arguments
    exactly when they are; :class:`TypeError` for a type it does not know (the call is then not
    cached)."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float | mpmath.mpf):
        return encode_number(value)  # exact: a float by its hex digits, an mpf by its parts
    if isinstance(value, np.generic):
        item = value.item()
        if isinstance(item, np.generic):  # a longdouble: no Python number holds it exactly
            raise TypeError(f"no canonical form for {type(value).__name__}")
        return canonical(item)
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject:  # its bytes are pointers, not values
            raise TypeError("no canonical form for an object array")
        data = np.ascontiguousarray(value)
        return {"array": str(data.dtype), "shape": list(data.shape),
                "sha256": hashlib.sha256(data.tobytes()).hexdigest()}
    if isinstance(value, np.random.SeedSequence):
        return {"seed_sequence": canonical(value.entropy), "spawn_key": list(value.spawn_key),
                "pool_size": value.pool_size, "spawned": value.n_children_spawned}
    if isinstance(value, np.random.Generator):
        return {"generator": canonical(value.bit_generator.state)}
    # every container is tagged, so a list is not a tuple, nor a dict {"float": ...} a float
    if isinstance(value, list):
        return {"list": [canonical(item) for item in value]}
    if isinstance(value, tuple):
        return {"tuple": [canonical(item) for item in value]}
    if isinstance(value, dict):
        if not all(isinstance(name, str) for name in value):
            raise TypeError("no canonical form for a dict with keys other than strings")
        return {"dict": {name: canonical(item) for name, item in sorted(value.items())}}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"type": type(value).__qualname__,
                **{field.name: canonical(getattr(value, field.name)) for field in dataclasses.fields(value)}}
    raise TypeError(f"no canonical form for {type(value).__name__}")


# ---------------------------------------------------------------------------- codecs


def encode_array(array: np.ndarray) -> dict:
    """An array as its dtype, shape and bytes (base64); only finite values are stored."""
    name = str(array.dtype)
    if name not in _DTYPES:
        raise NotStorable(f"dtype {name}")
    if name == "float64" and not np.isfinite(array).all():
        raise NotStorable("a non-finite value")
    data = np.ascontiguousarray(array)
    return {"dtype": name, "shape": list(data.shape), "data": base64.b64encode(data.tobytes()).decode("ascii")}


def decode_array(payload: dict) -> np.ndarray:
    """The array :func:`encode_array` wrote; ValueError for anything else."""
    dtype = _DTYPES[payload["dtype"]]
    shape = tuple(payload["shape"])
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape):
        raise ValueError("shape")
    array = np.frombuffer(base64.b64decode(payload["data"], validate=True), dtype=dtype).reshape(shape).copy()
    if dtype is np.float64 and not np.isfinite(array).all():
        raise ValueError("non-finite")
    return array


def encode_number(value: Any) -> dict:
    """An int, float or mpmath number, exactly."""
    if isinstance(value, bool):
        raise NotStorable("bool")
    if isinstance(value, int):
        return {"int": value}
    if isinstance(value, float):
        return {"float": value.hex()}
    if isinstance(value, mpmath.mpf):
        return {"mpf": [int(part) for part in value._mpf_]}
    raise NotStorable(type(value).__name__)


def decode_number(payload: dict) -> Any:
    """The number :func:`encode_number` wrote; ValueError for anything else."""
    (kind, value), = payload.items()
    if kind == "int" and isinstance(value, int) and not isinstance(value, bool):
        return value
    if kind == "float" and isinstance(value, str):
        return float.fromhex(value)
    if kind == "mpf" and isinstance(value, list) and len(value) == 4 \
            and all(isinstance(part, int) and not isinstance(part, bool) for part in value):
        sign, mantissa, exponent, bits = value
        special = (mantissa == 0 and tuple(value) in _SPECIAL_MPF)
        if not special and (sign not in (0, 1) or mantissa <= 0 or mantissa % 2 == 0
                            or mantissa.bit_length() != bits):
            raise ValueError("not a normalised mpf")
        # make_mpf, not mpf(...): the number as stored, not rounded to the current precision
        return mpmath.mp.make_mpf((sign, mpmath.libmp.MPZ(mantissa), exponent, bits))
    raise ValueError(f"not a number: {kind}")
