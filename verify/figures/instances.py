"""The figures' problem instances: built from a JSON-able spec, and the theorems' start m_0.

Kept apart from :mod:`verify.figures.common` so that :mod:`verify.figures.full_tier`
(whose notes ``common`` writes into each figure's JSON) can build instances without
importing ``common``.
"""

from __future__ import annotations

import math

from verify.model import instance as instances
from verify.simulate.model import closed_form_h
from verify.simulate.modes import MODES
from verify.simulate.problem import build_problem


def make_instance(spec: dict):
    """An instance from ``{"kind", "k", "d", "xi", "activation", "seed", ...}``; ``quantized``
    and ``alpha`` are passed to the generators that take them."""
    spec = dict(spec)
    kind = spec.pop("kind")
    args = (spec.pop("k"), spec.pop("d"), spec.pop("xi"), spec.pop("activation"))
    return instances.GENERATORS[kind](*args, **spec)


def theorem_start(inst, appendix_b_scaling: bool = False) -> float:
    """m_0 = sign(h(0))/√d: Theorems 11–13 start from ⟨u_0, u⟩ sign(h(0)) ≥ β/√d (β = 1)."""

    problem = build_problem(inst, MODES["frozen"], appendix_b_scaling)
    h0 = float(closed_form_h(problem, problem.c_hat, 0.0))
    return math.copysign(1.0, h0) / math.sqrt(inst.d)
