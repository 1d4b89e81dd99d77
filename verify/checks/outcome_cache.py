"""The outcomes of checks decided by measurement, kept between runs of ``verify check``.

A check whose verdict rests on statistical, numerical or high-precision evidence (Monte Carlo,
SGD runs, fits, float64 searches, mpmath values; :class:`~verify.verdict.Basis`) computes nothing
that a proof depends on, so a second run may read its whole outcome back instead of simulating
again: the SGD runs of Theorem 5 and Lemma 34 alone are 5 CPU s.  What is kept, and why that is
safe:

* Only outcomes whose basis, and the basis of every per-entry part, is one of
  :data:`STORABLE`.  An *exact* or *certified* verdict is always computed by the process that
  reports it (:mod:`verify.base.cache` says why), and so is an undecided one (basis ``none``: a
  symbolic step that ran out of its budget is retried, not remembered).
* Keyed by everything an outcome depends on: the check, the seed and ``--full``, the code's
  fingerprint (which covers the built-in pack's ledgers), the fingerprint of a pack read from a
  directory, the symbolic budget (``--time-limit``, ``--memory-limit``), the BLAS settings that
  change float64 rounding, and the library versions (:func:`verify.base.evidence_cache.remembered`).
* Returned exactly as computed: every float travels as its hex digits, NumPy scalars and arrays
  keep their types, tuples stay tuples, so a warm run writes the report of a cold one byte for
  byte apart from the ``seconds`` fields (``tests/test_outcome_cache.py``).  A value of any other
  type (a SymPy expression, an enum inside ``numbers``) makes the outcome not storable: it is
  computed every time.
* Read through a whitelist: the decoder accepts the tags :func:`encode_value` writes and nothing
  else, and rebuilds the :class:`~verify.verdict.Outcome` through its own validation.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import time
from collections.abc import Callable
from typing import Any

import mpmath
import numpy as np

from verify.base.budget import current_limits
from verify.base.evidence_cache import (
    NotStorable,
    decode_array,
    decode_number,
    encode_array,
    encode_number,
    remembered,
)
from verify.paper.pack import current
from verify.verdict import Basis, Outcome

KIND = "check-outcome"
#: The bases whose outcomes may be read back (module docstring).
STORABLE = frozenset({Basis.STATISTICAL, Basis.NUMERICAL, Basis.HIGH_PRECISION})
#: The environment that changes float64 results (the BLAS kernel and its threads).
_BLAS_VARIABLES = ("OPENBLAS_CORETYPE", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
#: Deepest nesting of containers accepted on reading (the report's own values nest a few deep).
MAX_DEPTH = 24
_OUTCOME_FIELDS = tuple(f.name for f in dataclasses.fields(Outcome))


def remembered_outcome(check, ctx, compute: Callable[[], Outcome]) -> tuple[Outcome, float | None]:
    """``compute()`` (the check's finished outcome), or the one stored for this check and run;
    with the seconds the stored outcome took to compute (None when it was computed now)."""
    key = {"check": check.id, "method": check.method, "seed": ctx.seed, "full": ctx.full,
           "pack": pack_fingerprint(current()), "limits": [repr(limit) for limit in current_limits()],
           "blas": {name: os.environ.get(name) for name in _BLAS_VARIABLES}}
    computed: dict[str, Any] = {}

    def timed() -> tuple[Outcome, float]:
        start = time.perf_counter()
        outcome = compute()
        computed["seconds"] = time.perf_counter() - start
        return outcome, computed["seconds"]

    outcome, seconds = remembered(KIND, key, timed, _encode_entry, _decode_entry)
    return outcome, (None if computed else seconds)


def _pack_files_digest(root: str, names: tuple[str, ...]) -> str:
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode() + b"\0")
        with open(os.path.join(root, name), "rb") as handle:
            digest.update(handle.read() + b"\0")
    return digest.hexdigest()[:16]


#: id(pack) -> (pack, its fingerprint): a pack's files are read once per loaded pack, not once per
#: check.  Keyed by identity, not equality: a pack loaded again after its ledger was edited is
#: another object and is read again (equal settings say nothing about equal files).  The pack is
#: kept in the value so that its id cannot be reused while the entry lives.
_FINGERPRINTS: dict[int, tuple[Any, str]] = {}


def pack_fingerprint(pack) -> str:
    """The built-in pack's is the code's (its files are inside the package); a pack read from a
    directory: its settings and every file of its ledger and pack.toml, as they were when this
    pack object first asked."""
    if pack.builtin:
        return "builtin:" + pack.key
    known = _FINGERPRINTS.get(id(pack))
    if known is not None and known[0] is pack:
        return known[1]
    root = pack.root
    names = ["pack.toml"] if (root / "pack.toml").is_file() else []
    ledger = pack.ledger_dir
    if ledger.is_dir():
        names += sorted(p.relative_to(root).as_posix() for p in ledger.rglob("*") if p.is_file())
    settings = repr([(f.name, getattr(pack, f.name)) for f in dataclasses.fields(pack) if f.compare])
    files = _pack_files_digest(str(root), tuple(names))
    fingerprint = hashlib.sha256(settings.encode()).hexdigest()[:16] + ":" + files
    _FINGERPRINTS[id(pack)] = (pack, fingerprint)
    return fingerprint


def storable(outcome: Outcome) -> bool:
    """Whether ``outcome`` and every part of it rest on evidence the cache may hold."""
    return outcome.basis in STORABLE and all(storable(part) for part in outcome.parts.values())


# ---------------------------------------------------------------------------- the codec


def _encode_entry(value: tuple[Outcome, float]) -> dict:
    outcome, seconds = value
    if not storable(outcome):
        raise NotStorable(f"basis {outcome.basis}")
    return {"outcome": encode_outcome(outcome), "seconds": encode_number(float(seconds))}


def _decode_entry(payload: dict) -> tuple[Outcome, float]:
    if set(payload) != {"outcome", "seconds"}:
        raise ValueError("fields")
    outcome, seconds = decode_outcome(payload["outcome"]), decode_number(payload["seconds"])
    if not storable(outcome) or not isinstance(seconds, float):
        raise ValueError("not a stored outcome")
    return outcome, seconds


def encode_outcome(outcome: Outcome) -> dict:
    fields = {name: getattr(outcome, name) for name in _OUTCOME_FIELDS}
    fields["parts"] = [[entry, encode_outcome(part)] for entry, part in outcome.parts.items()]
    for name in ("verdict", "basis", "failure_kind", "impact"):
        fields[name] = None if fields[name] is None else fields[name].value
    for name in ("numbers", "parameters", "counterexample", "notes"):
        fields[name] = encode_value(fields[name])
    for name in ("evidence", "correction", "scope", "statement"):
        if fields[name] is not None and type(fields[name]) is not str:
            raise NotStorable(f"{name} is a {type(fields[name]).__name__}")
    if fields["correction_verified"] not in (None, True, False):
        raise NotStorable("correction_verified")
    return fields


def decode_outcome(payload: dict, depth: int = 0) -> Outcome:
    if not isinstance(payload, dict) or set(payload) != set(_OUTCOME_FIELDS) or depth > MAX_DEPTH:
        raise ValueError("not an outcome")
    fields = dict(payload)
    for name in ("verdict", "evidence", "basis", "failure_kind", "impact", "correction", "scope",
                 "statement"):
        if fields[name] is not None and not isinstance(fields[name], str):
            raise ValueError(name)
    if fields["correction_verified"] not in (None, True, False):
        raise ValueError("correction_verified")
    for name in ("numbers", "parameters", "counterexample", "notes"):
        fields[name] = decode_value(fields[name])
    if not isinstance(fields["numbers"], dict) or not isinstance(fields["parameters"], dict) \
            or not (fields["counterexample"] is None or isinstance(fields["counterexample"], dict)) \
            or not (isinstance(fields["notes"], list) and all(isinstance(n, str) for n in fields["notes"])):
        raise ValueError("field types")
    parts = fields["parts"]
    if not (isinstance(parts, list) and all(isinstance(p, list) and len(p) == 2 and isinstance(p[0], str)
                                            for p in parts)):
        raise ValueError("parts")
    fields["parts"] = {entry: decode_outcome(part, depth + 1) for entry, part in parts}
    return Outcome(**fields)  # its own checks: the enums, one-line evidence, a fail's counterexample


#: Tags of the values :func:`encode_value` writes besides JSON's null, booleans, ints and strings.
_SCALARS: dict[type, str] = {float: "float", np.float64: "float64", np.int64: "int64", np.bool_: "bool_"}


def encode_value(value: Any) -> Any:
    """``value`` as JSON that :func:`decode_value` turns back into an equal value of the same
    type; :class:`NotStorable` for a type it does not know."""
    kind = type(value)
    if value is None or kind in (bool, str):
        return value
    if kind is int:
        return value
    if kind is float or kind is np.float64:
        if not np.isfinite(value):
            raise NotStorable("a non-finite number")
        return {_SCALARS[kind]: float(value).hex()}
    if kind is np.int64:
        return {"int64": int(value)}
    if kind is np.bool_:
        return {"bool_": bool(value)}
    if kind is mpmath.mpf:
        return {"mpf": encode_number(value)}
    if kind is np.ndarray:
        return {"array": encode_array(value)}
    if kind in (list, tuple):
        return {kind.__name__: [encode_value(item) for item in value]}
    if kind is dict:
        return {"dict": [[encode_value(name), encode_value(item)] for name, item in value.items()]}
    raise NotStorable(f"a {kind.__name__}")


def decode_value(payload: Any, depth: int = 0) -> Any:
    """The value :func:`encode_value` wrote; ValueError for anything else."""
    if depth > MAX_DEPTH:
        raise ValueError("too deep")
    if payload is None or type(payload) in (bool, int, str):
        return payload
    if not (isinstance(payload, dict) and len(payload) == 1):
        raise ValueError("not a tagged value")
    (tag, body), = payload.items()
    if tag in ("float", "float64") and isinstance(body, str):
        number = float.fromhex(body)
        if not np.isfinite(number):
            raise ValueError("non-finite")
        return number if tag == "float" else np.float64(number)
    if tag == "int64" and type(body) is int:
        return np.int64(body)
    if tag == "bool_" and type(body) is bool:
        return np.bool_(body)
    if tag == "mpf" and isinstance(body, dict):
        number = decode_number(body)
        if not isinstance(number, mpmath.mpf):
            raise ValueError("mpf")
        return number
    if tag == "array" and isinstance(body, dict):
        return decode_array(body)
    if tag in ("list", "tuple") and isinstance(body, list):
        items = [decode_value(item, depth + 1) for item in body]
        return items if tag == "list" else tuple(items)
    if tag == "dict" and isinstance(body, list):
        out = {}
        for pair in body:
            if not (isinstance(pair, list) and len(pair) == 2):
                raise ValueError("dict item")
            name = decode_value(pair[0], depth + 1)
            if not isinstance(name, str | int | float | tuple):  # hashable keys only
                raise ValueError("dict key")
            out[name] = decode_value(pair[1], depth + 1)
        return out
    raise ValueError(f"unknown tag {tag!r}")
