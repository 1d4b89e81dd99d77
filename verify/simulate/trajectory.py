"""A recorded SGD run and its files: CSV (long format) or NPZ, chosen by extension.

CSV: a first line ``# {json metadata}``, then a header ``step,replica,m,c_overlap`` (plus
``loss`` and ``loss_se`` when a loss was recorded) and one row per (record, replica),
numbers written with ``repr`` precision.  NPZ: arrays ``steps``, ``m``, ``c_overlap``
(records × replicas), optionally ``loss``, ``loss_se``, and ``meta`` (the JSON text).
Both are written to a temporary file and renamed.
"""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from verify.base.errors import InvalidParameterError
from verify.base.files import write_atomic

FORMATS = (".csv", ".npz")


@dataclass
class Trajectory:
    """m_t = ⟨û_t, u⟩, ⟨ĉ_t, c⟩ and the loss at the recorded steps, per replica."""

    steps: np.ndarray  # (records,)
    m: np.ndarray  # (records, replicas)
    c_overlap: np.ndarray
    loss: np.ndarray | None = None  # closed form or Monte Carlo, see meta["loss_method"]
    loss_se: np.ndarray | None = None  # Monte-Carlo standard error (None for the closed form)
    meta: dict = field(default_factory=dict)


def output_format(path: str | os.PathLike[str]) -> str:
    """'.csv' or '.npz' from the file name; anything else is an input error."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise InvalidParameterError(f"output file {str(path)!r} must end in .csv or .npz "
                                    f"(the format follows the extension), got {suffix or 'none'!r}")
    return suffix


def _columns(traj: Trajectory) -> list[tuple[str, np.ndarray]]:
    cols = [("m", traj.m), ("c_overlap", traj.c_overlap)]
    if traj.loss is not None:
        cols.append(("loss", traj.loss))
    if traj.loss_se is not None:
        cols.append(("loss_se", traj.loss_se))
    return cols


def save_trajectory(traj: Trajectory, path: str | os.PathLike[str]) -> None:
    fmt = output_format(path)
    path = Path(path)
    meta = json.dumps(traj.meta, sort_keys=True)
    if fmt == ".npz":
        buffer = io.BytesIO()
        arrays = {name: arr for name, arr in _columns(traj)}
        arrays.update(steps=traj.steps, meta=np.array(meta))
        np.savez(buffer, **arrays)  # type: ignore[arg-type]
        write_atomic(path, buffer.getvalue())
        return
    text = io.StringIO()
    text.write(f"# {meta}\n")
    cols = _columns(traj)
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["step", "replica", *(name for name, _ in cols)])
    for i, step in enumerate(traj.steps):
        for r in range(traj.m.shape[1]):
            writer.writerow([int(step), r, *(repr(float(arr[i, r])) for _, arr in cols)])
    write_atomic(path, text.getvalue())


def load_trajectory(path: str | os.PathLike[str]) -> Trajectory:
    """Read a file written by :func:`save_trajectory`."""
    fmt = output_format(path)
    if fmt == ".npz":
        with np.load(path) as data:
            return Trajectory(steps=data["steps"], m=data["m"], c_overlap=data["c_overlap"],
                              loss=data["loss"] if "loss" in data else None,
                              loss_se=data["loss_se"] if "loss_se" in data else None,
                              meta=json.loads(str(data["meta"])))
    with open(path, encoding="utf-8") as handle:
        meta = json.loads(handle.readline()[2:])
        rows = list(csv.reader(handle))
    header, body = rows[0], np.array(rows[1:], dtype=float)
    steps = np.unique(body[:, 0]).astype(int)
    replicas = int(body[:, 1].max()) + 1
    shaped = {name: body[:, j].reshape(len(steps), replicas) for j, name in enumerate(header)}
    return Trajectory(steps=steps, m=shaped["m"], c_overlap=shaped["c_overlap"],
                      loss=shaped.get("loss"), loss_se=shaped.get("loss_se"), meta=meta)
