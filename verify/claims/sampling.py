r"""Evaluating a claim on many instances at once: redraws of the random parts and grid evaluation.

Probability claims (:mod:`verify.claims.probability`) and asymptotic claims
(:mod:`verify.claims.asymptotic`) evaluate the same relation on many instances of one
configuration.  :class:`GridEvaluator` lambdifies the two sides once, with the scalars of the
instance (λ_min, γ, …) as arguments, and swaps the instance under the float backend per draw.

Redraws.  ``c`` and ``ĉ`` are redrawn uniformly from {±1/√k}^k (Assumption 3) by NumPy
generators seeded from ``SeedSequence([--seed, base seed, k]).spawn(draws)`` (cheap, and the same
draws for every claim with the same seeds).  ``W`` is redrawn from the separated generator's law
— independent uniform unit rows, normalised Gaussians in R^d — sampled directly: the quantities
see W only through G = W Wᵀ, and the generator's u, û (two QR factorisations of a d × k matrix per
draw) are what would cost the time.  For orthonormal rows G = I whatever W is.  When only c
and/or ĉ are random and their sign patterns number at most :data:`ENUMERATION_LIMIT`, every
pattern is taken once instead (exact probabilities).
"""

from __future__ import annotations

import itertools

import numpy as np
import sympy

from verify.claims.evaluate import ClaimEvaluationError, float_function
from verify.claims.language import DERIVED_SCALARS
from verify.claims.model import with_rows
from verify.claims.quantifiers import QuantifierError
from verify.claims.quantities import Quantities
from verify.model.activations import get_activation
from verify.model.arithmetic import FLOAT64

#: Sign patterns of (c, ĉ) enumerated exactly at most (4^6 = 4096 for both at k = 6).
ENUMERATION_LIMIT = 4096
#: Grid points per inner dimension for deciding one draw's event (1, 2, 3 dimensions).
EVENT_GRID = {0: 1, 1: 101, 2: 21, 3: 9}
MAX_INNER_DIMENSIONS = 3


def enumerable(model, over: tuple[str, ...]) -> bool:
    return set(over) <= {"c", "c_hat"} and 2 ** (model.k * len(over)) <= ENUMERATION_LIMIT


def models(base, over: tuple[str, ...], draws: int, seed: int):
    """(models, exact): every sign pattern when :func:`enumerable`, else ``draws`` redraws."""
    k = base.k
    if enumerable(base, over):
        patterns = list(itertools.product((-1, 1), repeat=k))
        out = []
        for combo in itertools.product(*[patterns] * len(over)):
            parts = dict(zip(over, combo, strict=True))
            out.append(base.with_signs(parts.get("c"), parts.get("c_hat")))
        return out, True
    sequence = np.random.SeedSequence([seed, base.seed, k])
    out = []
    for child in sequence.spawn(draws):
        rng = np.random.default_rng(child)
        model = base
        if "W" in over and base.family == "separated":
            rows = rng.standard_normal((k, base.d))
            model = with_rows(base, rows / np.linalg.norm(rows, axis=1, keepdims=True))
        c = rng.choice((-1, 1), size=k) if "c" in over else None
        c_hat = rng.choice((-1, 1), size=k) if "c_hat" in over else None
        out.append(model.with_signs(c, c_hat))
    return out, False


class FloatRangeError(ClaimEvaluationError):
    """A side whose exact value is beyond float64's range, where only float64 evaluates it."""


class GridEvaluator:
    """Both sides of a relation on a grid of the inner variables, for any instance of one configuration."""

    def __init__(self, setting, activation, lhs, rhs, full: bool, seed: int = 0):
        act = get_activation(activation) if activation else None
        self.setting = setting
        self.backend = Quantities(setting.model, act, FLOAT64, seed, full)
        self.inner = list(setting.box)
        if len(self.inner) > MAX_INNER_DIMENSIONS:
            raise QuantifierError(
                f"at most {MAX_INNER_DIMENSIONS} continuous variables inside a probability or order claim"
            )
        self.scalars = sorted(
            (s for s in (lhs - rhs).free_symbols if s.name in DERIVED_SCALARS and s not in self.inner),
            key=lambda s: s.name,
        )
        arguments = [*self.inner, *self.scalars]
        self.left = float_function(lhs, arguments, self.backend)
        self.right = float_function(rhs, arguments, self.backend)
        size = EVENT_GRID[len(self.inner)] * (4 if full else 1)
        axes = [np.linspace(float(lo), float(hi), size) for lo, hi in setting.box.values()]
        self.grid = [a.ravel() for a in np.meshgrid(*axes, indexing="ij")] if axes else []

    def sides(self, model) -> tuple[np.ndarray, np.ndarray]:
        """(lhs, rhs) on the grid for ``model`` (broadcast to the grid's shape)."""
        self.backend.rebind(model)
        scalars = [self.backend.scalar(s.name) for s in self.scalars]
        shape = self.grid[0].shape if self.grid else ()
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):  # non-finite values are reported
            try:
                left = np.broadcast_to(np.asarray(self.left(*self.grid, *scalars), float), shape)
                right = np.broadcast_to(np.asarray(self.right(*self.grid, *scalars), float), shape)
            except OverflowError:  # an exact integer side (Sum(i**i, ...)) beyond float64
                where = ", ".join(f"{k}={v}" for k, v in self.setting.describe().items())
                raise FloatRangeError(f"claim: a side exceeds float64's range (about 1.8e308) at {where}") from None
        return left, right

    def point(self, index: int) -> dict:
        if not self.grid:
            return {}
        return {
            s: sympy.Rational(repr(float(axis[index]))) for s, axis in zip(self.inner, self.grid, strict=True)
        }
