r"""One configuration's instance, in the three number systems the decision steps use.

A claim about a family (``--family orthonormal``) is checked on instances drawn by the
family's generator (:data:`verify.model.instance.GENERATORS`).  The quantities depend on an
instance only through k, ξ, λ, c, ĉ and the Gram matrix G = W Wᵀ (Appendix D.1), so a
:class:`Model` keeps exactly those, in the form the family defines them:

- c, ĉ ∈ {±1/√k}^k exactly (Assumption 3), their signs read from the drawn instance;
- λ = 1/k (the generators' default) or 1 exactly (``--lam 1``);
- G = I for ``orthonormal`` (Assumption 4; the drawn rows are orthonormal to ~1e-16),
  G = 0 for ``glm`` (no base model), G_ij = −sign(c_i c_j)/k for ``claim2`` (Appendix C.3,
  ⟨w_i, w_j⟩ = −c_i c_j), and the drawn Gram matrix (its doubles, exactly) for ``separated``,
  with G_ii = 1 exactly (Assumption 1).

``exact`` parts are SymPy numbers (the symbolic step), :meth:`Model.view` gives float64 arrays
(the search and sampling steps, through :mod:`verify.model.population`), :meth:`Model.ball_view`
Arb balls (the certified step, through :mod:`verify.certified.population`).  All three read the
same numbers: the exact ones, as SymPy numbers, as balls, and rounded once to double for the
float view (Claim 2's ±1/k is the one G whose doubles differ from it; its balls are exact).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np
import sympy
from flint import ctx

from verify.base.errors import InvalidParameterError
from verify.certified.compile import constant
from verify.model.instance import GENERATORS, Instance, Numbers


def default_dimension(family: str, k: int) -> int:
    """d when the claim does not quantify it: room for u (Assumption 2) and then some; Claim 2's
    construction needs d ≥ 1 + k(k+1)/2 (Appendix C.3)."""
    return 1 + k * (k + 1) // 2 if family == "claim2" else 2 * k + 2


@dataclass(frozen=True)
class Model:
    """The numbers of one instance (see the module docstring); ``seed`` says where it came from.

    ``gram_float`` is G in float64; the exact G (:attr:`gram`) is built from the family's rule
    only when the symbolic step asks for it (a separated instance's k² doubles as rationals)."""

    family: str
    activation: str
    k: int
    d: int
    seed: int
    lam: tuple
    c_signs: tuple[int, ...]
    c_hat_signs: tuple[int, ...]
    gram_float: np.ndarray = field(compare=False, repr=False)
    scratch: bool = False

    def __hash__(self) -> int:
        return hash(
            (
                self.family,
                self.activation,
                self.k,
                self.d,
                self.seed,
                self.c_signs,
                self.c_hat_signs,
                self.gram_float.tobytes(),
            )
        )

    def __eq__(self, other) -> bool:
        return isinstance(other, Model) and hash(self) == hash(other)

    @cached_property
    def c(self) -> tuple:
        root = sympy.sqrt(self.k)
        return tuple(sympy.Integer(s) / root for s in self.c_signs)

    @cached_property
    def c_hat(self) -> tuple:
        root = sympy.sqrt(self.k)
        return tuple(sympy.Integer(s) / root for s in self.c_hat_signs)

    @cached_property
    def gram(self) -> tuple:
        """G exactly: I, 0, Claim 2's −sign(c_i c_j)/k, or the stored doubles with G_ii = 1."""
        return _exact_gram(*self._gram_key)

    @cached_property
    def largest_overlap(self):
        """max over i ≠ j of |G_ij|, exactly (None when k = 1): the same number as the exact G's,
        read from the doubles where G is stored (the max of doubles is exact, and the exact G holds
        each double as its rational), so a drawn instance's γ does not build k² rationals."""
        if self.k == 1:
            return None
        if self.family not in ("claim2", "orthonormal", "glm"):
            off = np.abs(self.gram_float[~np.eye(self.k, dtype=bool)])
            return sympy.Rational(float(off.max()))
        return max(abs(self.gram[i][j]) for i in range(self.k) for j in range(self.k) if i != j)

    @property
    def _gram_key(self) -> tuple:
        # what G depends on: outside Claim 2 not the signs, so every redraw shares one G
        return (self.family, self.k, self.gram_float.tobytes(),
                self.c_signs if self.family == "claim2" else None)

    @cached_property
    def arrays(self) -> dict[str, np.ndarray]:
        level = 1.0 / np.sqrt(self.k)
        return {
            "lam": _floats(self.lam),
            "c": np.array(self.c_signs) * level,
            "c_hat": np.array(self.c_hat_signs) * level,
            "gram": self.gram_float,
        }

    def view(self, xi: float) -> Numbers:
        """The float64 instance at scale ξ, for :mod:`verify.model.population`."""
        a = self.arrays
        return Numbers(self.k, float(xi), self.activation, a["lam"], a["c"], a["c_hat"], a["gram"],
                       self.scratch, self.d)

    def exact_view(self, xi) -> Numbers:
        """The instance in SymPy numbers at scale ξ (a number or a symbol), for the symbolic step."""
        return Numbers(self.k, xi, self.activation, self.lam, self.c, self.c_hat, self.gram, self.scratch,
                       self.d)

    def instance(self, xi: float):
        """A validated :class:`~verify.model.instance.Instance` (without W, u, û, which no quantity needs:
        the reduced Monte-Carlo engine and the series work from the Gram matrix)."""

        a = self.arrays
        return Instance(
            k=self.k,
            d=self.d,
            xi=float(xi),
            activation=self.activation,
            lam=a["lam"],
            c=a["c"],
            c_hat=a["c_hat"],
            gram=a["gram"],
            kind=self.family,
            seed=self.seed,
            scratch=self.scratch,
        )

    def ball_view(self, xi):
        """The instance as Arb balls at the current working precision (c = ±1/√k and λ exact), for
        :class:`verify.certified.population.CertifiedPopulation`; G is the exact G as balls (Claim 2's
        ±1/k are not doubles: certifying their doubles certified another instance)."""

        level = constant(1 / sympy.sqrt(self.k))
        gram = _gram_balls(*self._gram_key, ctx.prec)
        signed = {1: level, -1: -level}  # one ball per sign and per λ: pooled pairs group by them
        lam: dict = {}
        return Numbers(self.k, xi, self.activation,
                       [lam[v] if v in lam else lam.setdefault(v, constant(v)) for v in self.lam],
                       [signed[s] for s in self.c_signs], [signed[s] for s in self.c_hat_signs], gram,
                       self.scratch, self.d)

    def with_signs(self, c_signs=None, c_hat_signs=None) -> Model:
        """The same instance with other c and/or ĉ (for Claim 2 the rows, and so G, follow c)."""
        c_signs = self.c_signs if c_signs is None else tuple(int(v) for v in c_signs)
        c_hat_signs = self.c_hat_signs if c_hat_signs is None else tuple(int(v) for v in c_hat_signs)
        gram = claim_2_gram(c_signs) if self.family == "claim2" else self.gram_float
        return Model(
            self.family,
            self.activation,
            self.k,
            self.d,
            self.seed,
            self.lam,
            c_signs,
            c_hat_signs,
            gram,
            self.scratch,
        )


def claim_2_gram(c_signs) -> np.ndarray:
    """⟨w_i, w_j⟩ = −c_i c_j = −sign(c_i c_j)/k for i ≠ j, 1 on the diagonal (Appendix C.3), in float64."""
    signs = np.asarray(c_signs, dtype=float)
    gram = -np.outer(signs, signs) / len(signs)
    np.fill_diagonal(gram, 1.0)
    return gram


@lru_cache(maxsize=8)
def _exact_gram(family: str, k: int, stored: bytes, c_signs) -> tuple:
    """G of :attr:`Model.gram`, cached: the key holds the signs only for Claim 2."""
    if family == "orthonormal":
        return tuple(tuple(sympy.Integer(int(i == j)) for j in range(k)) for i in range(k))
    if family == "glm":
        return tuple(tuple(sympy.Integer(0) for _ in range(k)) for _ in range(k))
    if family == "claim2":
        return tuple(tuple(sympy.Integer(1) if i == j else sympy.Rational(-c_signs[i] * c_signs[j], k)
                           for j in range(k))
                     for i in range(k))
    gram = np.frombuffer(stored, dtype=float).reshape(k, k)
    return tuple(tuple(sympy.Integer(1) if i == j else sympy.Rational(float(gram[i, j])) for j in range(k))
                 for i in range(k))


@lru_cache(maxsize=8)
def _gram_balls(family: str, k: int, stored: bytes, c_signs, prec: int) -> tuple:
    """G as balls at ``prec`` bits (Claim 2's ±1/k are not dyadic: the ball depends on it), one ball
    per distinct entry (0 and 1 for I)."""
    balls: dict = {}
    return tuple(tuple(balls[v] if v in balls else balls.setdefault(v, constant(v)) for v in row)
                 for row in _exact_gram(family, k, stored, c_signs))


@lru_cache(maxsize=64)
def _floats(values: tuple) -> np.ndarray:
    """The doubles of exact numbers (λ is shared by every redraw of a configuration)."""
    out = np.array([float(v) for v in values])
    out.setflags(write=False)
    return out


def _signs(values) -> tuple[int, ...]:
    return tuple(1 if v > 0 else -1 for v in values)


def _exact_lam(lam: np.ndarray, k: int) -> tuple:
    if np.all(lam == 1.0 / k):
        return (sympy.Rational(1, k),) * k
    if np.all(lam == 1.0):
        return (sympy.Integer(1),) * k
    return tuple(sympy.Rational(float(v)) for v in lam)


def model_of(instance, family: str) -> Model:
    """The :class:`Model` of a drawn instance of ``family`` (module docstring: which parts are idealised)."""
    k = instance.k
    if family == "orthonormal":
        gram = np.eye(k)
    elif family == "glm":
        gram = np.zeros((k, k))
    elif family == "claim2":
        gram = claim_2_gram(_signs(instance.c))
    else:
        gram = np.array(instance.gram, dtype=float)
        gram = (gram + gram.T) / 2
        np.fill_diagonal(gram, 1.0)
    return Model(
        family,
        instance.activation,
        k,
        instance.d,
        int(instance.seed),
        _exact_lam(instance.lam, k),
        _signs(instance.c),
        _signs(instance.c_hat),
        gram,
        bool(instance.scratch),
    )


def draw(family: str, activation: str, k: int, d: int, seed: int, lam: str) -> Model:
    """The model of ``GENERATORS[family](k, d, 1, activation, seed)`` (ξ does not change the draw:
    the generators draw W, c, ĉ and u from separate streams, and ξ only scales)."""

    if lam not in ("1/k", "1"):
        raise InvalidParameterError(f"--lam must be '1/k' or '1', got {lam!r}")
    weights = np.ones(k) if lam == "1" else None
    instance = GENERATORS[family](k, d, 1.0, activation, seed=seed, lam=weights)
    return model_of(instance, family)


def with_rows(base: Model, rows: np.ndarray) -> Model:
    """``base`` with the Gram matrix of other base rows (unit rows of a separated instance).

    ``einsum`` rather than ``@``: a k × d product per draw is small, and multithreaded BLAS waking
    its threads for each one ran 10× slower on a loaded 2-core machine (10 ms against 1 ms)."""
    gram = np.einsum("ik,jk->ij", rows, rows)
    gram = (gram + gram.T) / 2
    np.fill_diagonal(gram, 1.0)
    return Model(
        base.family,
        base.activation,
        base.k,
        base.d,
        base.seed,
        base.lam,
        base.c_signs,
        base.c_hat_signs,
        gram,
        base.scratch,
    )


def random_parts(family: str) -> tuple[str, ...]:
    """What a family draws at random: W (with u, û), c and ĉ; Claim 2's rows follow c; the GLM has none."""
    return {
        "orthonormal": ("W", "c", "c_hat"),
        "separated": ("W", "c", "c_hat"),
        "claim2": ("c", "c_hat"),
        "glm": (),
    }[family]
