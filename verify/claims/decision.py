"""What one decision step found about one configuration (shared by every step of ``verify claim``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from verify.verdict import Basis


@dataclass
class Decision:
    """What one configuration's steps found: ``status`` holds, fails or undecided."""

    status: str
    basis: Basis | None
    step: str
    point: dict | None = None
    detail: str = ""
    numbers: dict = field(default_factory=dict)
