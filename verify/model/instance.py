"""Problem instances: the base network, the rank-1 perturbation and the student start.

An :class:`Instance` holds everything that fixes one fine-tuning problem of the paper
(§1.1, eqs. (2)–(3)): the base network f(x) = Σ_i λ_i σ(⟨w_i, x⟩), the teacher
W* = W + ξ c uᵀ and the student parameters (ĉ, û).  Constructing one validates it:
every violated assumption raises an :class:`InstanceError` subclass whose one-line
message names the value and the assumption (rows are counted from 0).

The paper's assumptions (§1.2.1, §1.2.2):

- Assumption 1 (normalization): ‖w_i‖ = 1, i.e. diag(W Wᵀ) = 1;
- Assumption 2 (orthogonality of perturbation): u ⊥ span(w_1, …, w_k);
- Assumption 3 (random quantized c): c ∈ {±1/√k}^k;
- Assumption 4 (orthogonal features): ⟨w_i, w_j⟩ = 0 for i ≠ j;
- Assumption 5 (angular separation): |⟨w_i, w_j⟩| ≤ 1 − log k/√k for i ≠ j.

Generators (:data:`GENERATORS`) draw instances from ``numpy.random.default_rng``
streams spawned from one ``SeedSequence``, never from global state; a ``seed`` of
``None`` draws fresh entropy and records it, so every instance can be regenerated.

Default λ (when ``lam=None``): λ_i = 1/k.  The paper leaves λ free; Theorems 11–13
depend on it only through λ_min and λ_max, and 1/k is the choice under which the GLM
special case of §1.2 becomes exactly σ(⟨u, x⟩).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from verify.base.errors import VerifyInputError
from verify.base.files import TooLargeError, read_limited, write_atomic
from verify.base.validation import MAX_SCALE, count, real, within_limit
from verify.base.validation import seed as validate_seed
from verify.model.arithmetic import Arithmetic, array

# --- tolerances -------------------------------------------------------------------
#: ‖·‖ = 1 checks (rows of W, c, ĉ, u, û): a norm from d float64 terms errs by ~d·eps,
#: so 1e-10 absorbs rounding for any d up to ~10^5 yet catches every real violation.
NORM_TOL = 1e-10
#: Gram entries (symmetry, diag = 1, W Wᵀ = gram): same reasoning as NORM_TOL.
GRAM_TOL = 1e-10
#: PSD: eigvalsh of a singular Gram matrix returns eigenvalues of size ~k·eps below 0.
PSD_TOL = 1e-10
#: ‖W u‖ (Assumption 2): a projection out of span W leaves a residue of ~k·eps.
ORTHOGONALITY_TOL = 1e-10
#: |c_i| = 1/√k (Assumption 3): quantized entries are stored as ±(1/√k) itself, so only
#: the rounding of 1/√k to float64 (one ulp, ~1e-16) has to be absorbed.
QUANTIZATION_TOL = 1e-12


# --- errors -----------------------------------------------------------------------
class InstanceError(VerifyInputError):
    """A problem instance (or an instance file) is not valid."""


class ParameterError(InstanceError):
    """A scalar parameter (k, d, ξ, a flag) or a generator argument is out of its domain."""


class ShapeError(InstanceError):
    """An array does not have the shape that k and d require."""


class NonFiniteError(InstanceError):
    """An array holds NaN or ±inf."""


class GramError(InstanceError):
    """The Gram matrix is not symmetric, not PSD, or disagrees with W Wᵀ."""


class NotUnitError(InstanceError):
    """c, ĉ, u or û is not a unit vector, as eq. (3) requires."""


class AssumptionViolation(InstanceError):
    """One of the paper's numbered assumptions fails; ``number`` says which."""

    def __init__(self, number: int, message: str):
        super().__init__(f"Assumption {number} {message}")
        self.number = number


class InstanceFileError(InstanceError):
    """An instance file cannot be read, parsed or written."""


def _fmt(x: float) -> str:
    return f"{x:.12g}"


def _shape(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(n) for n in shape) + (",)" if len(shape) == 1 else ")")


def assumption_5_holds(gram: np.ndarray, k: int) -> bool:
    """Assumption 5: |⟨w_i, w_j⟩| ≤ 1 − log k/√k for all i ≠ j (natural log; vacuous for k = 1)."""
    gram = np.asarray(gram, dtype=np.float64)
    if k < 2:
        return True
    off = np.abs(gram[~np.eye(k, dtype=bool)])
    return bool(off.max() <= 1.0 - math.log(k) / math.sqrt(k) + GRAM_TOL)


@dataclass(frozen=True)
class Numbers:
    """What the population formulas read of an instance: k, ξ, σ, λ, c, ĉ, G and D = ‖w_i‖².

    The one interface every arithmetic shares (:mod:`verify.model.geometry`): the fields hold
    float64 arrays (:meth:`Instance.numbers`), SymPy numbers or Arb balls (the exact and ball
    views of :class:`verify.claims.model.Model`).  An :class:`Instance` has the same fields, so
    either may be handed to the model's formulas."""

    k: int
    xi: Any
    activation: Any
    lam: Any
    c: Any
    c_hat: Any
    gram: Any
    scratch: bool = False
    d: int | None = None
    W: Any = None
    u: Any = None
    u_hat: Any = None

    @property
    def row_norm2(self) -> int:
        """D = ‖w_i‖²: 1 (Assumption 1), or 0 for the scratch / GLM case."""
        return 0 if self.scratch else 1


def as_numbers(instance) -> Numbers:
    """The numbers of an :class:`Instance` (:meth:`Instance.numbers`), or ``instance`` itself when it
    already is a :class:`Numbers` view."""
    return instance.numbers() if isinstance(instance, Instance) else instance


@dataclass(frozen=True)
class Instance:
    """One fine-tuning problem: base network (λ, W), teacher (c, u), student (ĉ, û), scale ξ.

    ``gram`` is W Wᵀ (given even when W is not, since the population quantities depend on
    W only through it).  ``scratch`` marks the GLM case of §1.2 (W = 0, gram = 0), which
    skips Assumption 1.  ``quantized`` demands Assumption 3; ``allow_nonorthogonal_u``
    relaxes Assumption 2 for u only (Fig. 5), never for û.
    """

    k: int
    d: int
    xi: float
    activation: str
    lam: np.ndarray
    c: np.ndarray
    c_hat: np.ndarray
    gram: np.ndarray
    W: np.ndarray | None = None
    u: np.ndarray | None = None
    u_hat: np.ndarray | None = None
    kind: str = "custom"
    seed: int | None = None
    quantized: bool = True
    allow_nonorthogonal_u: bool = False
    scratch: bool = False

    def __post_init__(self) -> None:
        self._check_scalars()
        k, d = self.k, self.d
        expected: dict[str, tuple[int, ...]] = {
            "lam": (k,), "c": (k,), "c_hat": (k,), "gram": (k, k), "W": (k, d), "u": (d,), "u_hat": (d,),
        }
        for name, shape in expected.items():
            value = getattr(self, name)
            if value is None and name in ("W", "u", "u_hat"):
                continue
            object.__setattr__(self, name, _as_array(name, value, shape, k, d))
        worst = float(np.max(np.abs(self.lam)))
        if worst > MAX_SCALE:
            raise ParameterError(f"lambda has an entry of size {worst:g} > {MAX_SCALE:g}: the loss carries "
                                 "lambda^2 xi^4 in float64; rescale lambda (Phi scales by lambda^2)")
        self._check_gram()
        self._check_unit_and_quantized()
        self._check_perturbation_orthogonal()

    # --- validation ---------------------------------------------------------------
    def _check_scalars(self) -> None:
        k, d = _dimensions(self.k, self.d)
        object.__setattr__(self, "k", k)
        object.__setattr__(self, "d", d)
        object.__setattr__(self, "xi", real("xi", self.xi, 0, MAX_SCALE, low_open=True,
                                            why="the scale in eq. (3); larger is the GLM limit",
                                            error=ParameterError))
        for name in ("activation", "kind"):
            if not isinstance(getattr(self, name), str):
                raise ParameterError(f"{name} must be a string, got {getattr(self, name)!r}")
        for name in ("quantized", "allow_nonorthogonal_u", "scratch"):
            if not isinstance(getattr(self, name), bool):
                raise ParameterError(f"{name} must be True or False, got {getattr(self, name)!r}")
        object.__setattr__(self, "seed", validate_seed(self.seed, error=ParameterError))

    def _check_gram(self) -> None:
        gram = self.gram
        asym = np.abs(gram - gram.T)
        if asym.max() > GRAM_TOL:
            i, j = np.unravel_index(int(asym.argmax()), asym.shape)
            raise GramError(f"gram is not symmetric: gram[{i},{j}] = {_fmt(gram[i, j])} but "
                            f"gram[{j},{i}] = {_fmt(gram[j, i])} (a Gram matrix W Wᵀ is symmetric)")
        # orthonormal rows (G = I, most instances) are PSD: eigvalsh of a 256 x 256 G costs 2.6 ms,
        # 5 of lemma 6's 9 s over its 2000 instances
        identity = np.array_equal(gram, np.eye(len(gram)))
        smallest = 1.0 if identity else float(np.linalg.eigvalsh(gram).min())
        if smallest < -PSD_TOL:
            raise GramError(f"gram is not positive semidefinite: its smallest eigenvalue is "
                            f"{_fmt(smallest)} (a Gram matrix W Wᵀ is PSD)")
        if self.scratch:
            for name, value in (("gram", gram), ("W", self.W)):
                if value is not None and np.abs(value).max() > GRAM_TOL:
                    raise GramError(f"scratch instance (no base model, §1.2) needs {name} = 0, but "
                                    f"max |{name}| = {_fmt(float(np.abs(value).max()))}")
            return
        diag = np.diag(gram)
        bad = int(np.abs(diag - 1.0).argmax())
        if abs(diag[bad] - 1.0) > GRAM_TOL:
            raise AssumptionViolation(1, f"(unit rows): gram[{bad},{bad}] = ‖w_{bad}‖² = "
                                         f"{_fmt(diag[bad])}, must be 1")
        if self.W is None:
            return
        norms = np.linalg.norm(self.W, axis=1)
        bad = int(np.abs(norms - 1.0).argmax())
        if abs(norms[bad] - 1.0) > NORM_TOL:
            raise AssumptionViolation(1, f"(unit rows): row {bad} of W has norm {_fmt(norms[bad])}")
        diff = np.abs(self.W @ self.W.T - gram)
        if diff.max() > GRAM_TOL:
            i, j = np.unravel_index(int(diff.argmax()), diff.shape)
            raise GramError(f"gram disagrees with W Wᵀ: gram[{i},{j}] = {_fmt(gram[i, j])} but "
                            f"<w_{i}, w_{j}> = {_fmt(float(self.W[i] @ self.W[j]))}")

    def _check_unit_and_quantized(self) -> None:
        for name in ("c", "c_hat", "u", "u_hat"):
            value = getattr(self, name)
            if value is None:
                continue
            norm = float(np.linalg.norm(value))
            if abs(norm - 1.0) > NORM_TOL:
                raise NotUnitError(f"{name} has norm {_fmt(norm)}; eq. (3) needs a unit vector")
        if not self.quantized:
            return
        level = 1.0 / math.sqrt(self.k)
        for name in ("c", "c_hat"):
            value = getattr(self, name)
            bad = int(np.abs(np.abs(value) - level).argmax())
            if abs(abs(value[bad]) - level) > QUANTIZATION_TOL:
                raise AssumptionViolation(3, f"(quantized c): {name}[{bad}] = {_fmt(value[bad])} is not "
                                             f"±1/√k = ±{_fmt(level)} (pass quantized=False for "
                                             f"continuous c)")

    def _check_perturbation_orthogonal(self) -> None:
        if self.W is None:
            return
        for name in ("u", "u_hat"):
            value = getattr(self, name)
            if value is None or (name == "u" and self.allow_nonorthogonal_u):
                continue
            residue = float(np.linalg.norm(self.W @ value))
            if residue > ORTHOGONALITY_TOL:
                raise AssumptionViolation(2, f"({name} ⊥ span W): ‖W {name}‖ = {_fmt(residue)}"
                                             + ("" if name == "u_hat" else
                                                " (allow_nonorthogonal_u=True relaxes this, Fig. 5)"))

    # --- derived quantities -------------------------------------------------------
    @property
    def row_norm2(self) -> int:
        """‖w_i‖² = D: 1 by Assumption 1, 0 for the scratch / GLM case (W = 0), exact in any arithmetic."""
        return 0 if self.scratch else 1

    def numbers(self, xi=None, arith: Arithmetic | None = None) -> Numbers:
        """The instance's numbers with G_ii = D exactly (:func:`nominal_gram`), at its ξ or at ``xi``:
        as stored (float64 arrays), or every number converted into ``arith`` (e.g. exact balls,
        :data:`verify.certified.balls.BALLS`, for claim hooks evaluated in ball arithmetic)."""
        xi = self.xi if xi is None else xi
        arrays = [self.lam, self.c, self.c_hat, nominal_gram(self), self.W, self.u, self.u_hat]
        if arith is not None:
            xi = arith.number(xi)
            arrays = [None if a is None else array(arith, a) for a in arrays]
        lam, c, c_hat, gram, W, u, u_hat = arrays
        return Numbers(self.k, xi, self.activation, lam, c, c_hat, gram, self.scratch, self.d, W, u, u_hat)

    @property
    def assumption_5(self) -> bool:
        """Whether Assumption 5 (angular separation) holds for this base network."""
        return assumption_5_holds(self.gram, self.k)

    def teacher_rows(self) -> np.ndarray:
        """Normalized teacher rows v_i = (w_i + ξ c_i u)/‖w_i + ξ c_i u‖ (Appendix D.1)."""
        if self.u is None or (self.W is None and not self.scratch):
            raise ParameterError("teacher_rows needs W (or scratch=True) and u")
        W = np.zeros((self.k, self.d)) if self.W is None else self.W
        rows = W + self.xi * np.outer(self.c, self.u)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Instance):
            return NotImplemented
        return to_json(self) == to_json(other)

    __hash__ = None  # type: ignore[assignment]  # numpy fields are mutable containers


def _dimensions(k: Any, d: Any) -> tuple[int, int]:
    """(k, d) as integers >= 1 within the size limits, k·d included (W is stored dense)."""
    k, d = (count(name, value, limit=name, error=ParameterError) for name, value in (("k", k), ("d", d)))
    within_limit("k_times_d", k * d)
    return k, d


def _as_array(name: str, value: Any, shape: tuple[int, ...], k: int, d: int) -> np.ndarray:
    try:
        array = np.array(value, dtype=np.float64, copy=True)
    except (TypeError, ValueError):
        raise ShapeError(f"{name} is not a numeric array of shape {_shape(shape)}") from None
    if array.shape != shape:
        raise ShapeError(f"{name} has shape {_shape(array.shape)} but k={k}, d={d} need "
                         f"{_shape(shape)}")
    if not np.isfinite(array).all():
        raise NonFiniteError(f"{name} has a non-finite entry (NaN or inf)")
    array.setflags(write=False)
    return array


# --- generators -------------------------------------------------------------------
def _resolve_seed(seed: int | None) -> int:
    """The seed itself, or fresh entropy from ``SeedSequence()`` when it is None (recorded)."""
    entropy = np.random.SeedSequence(validate_seed(seed, error=ParameterError)).entropy
    assert isinstance(entropy, int)
    return entropy


def _streams(seed: int) -> list[np.random.Generator]:
    """Independent generators for W, c, ĉ and (u, û): changing d does not change c."""
    return [np.random.default_rng(child) for child in np.random.SeedSequence(seed).spawn(4)]


def _default_lam(k: int, lam: np.ndarray | None) -> np.ndarray:
    return np.full(k, 1.0 / k) if lam is None else np.asarray(lam, dtype=np.float64)


def _random_c(rng: np.random.Generator, k: int, quantized: bool) -> np.ndarray:
    """Assumption 3 (uniform on {±1/√k}^k), or uniform on S^{k−1} as in the simulations (§4)."""
    if quantized:
        return rng.choice([-1.0, 1.0], size=k) / math.sqrt(k)
    g = rng.standard_normal(k)
    return g / np.linalg.norm(g)


def _unit_orthogonal_to(rng: np.random.Generator, W: np.ndarray) -> np.ndarray:
    """Uniform unit vector in span(W)^⊥ (Gram–Schmidt twice, for a residue ~eps)."""
    q = np.linalg.qr(W.T)[0]
    g: np.ndarray = rng.standard_normal((W.shape[1],))
    for _ in range(2):
        g = g - q @ (q.T @ g)
    return g / np.linalg.norm(g)


def _perturbation(rng: np.random.Generator, W: np.ndarray, alpha: float | None) -> np.ndarray:
    """u ⊥ span W (Assumption 2), or u = α u_1 + √(1−α²) u_2 with ‖Π_W u‖ = α (Fig. 5)."""
    u2 = _unit_orthogonal_to(rng, W)
    if alpha is None:
        return u2
    if not 0.0 <= alpha <= 1.0:
        raise ParameterError(f"alpha = ‖Π_W u‖ must lie in [0, 1] (Fig. 5), got {alpha!r}")
    q = np.linalg.qr(W.T)[0]
    g = rng.standard_normal(q.shape[1])
    u1 = q @ (g / np.linalg.norm(g))
    u = alpha * u1 + math.sqrt(1.0 - alpha**2) * u2
    return u / np.linalg.norm(u)


def _need_room_for_u(kind: str, k: int, d: int) -> None:
    k, d = _dimensions(k, d)
    if d < k + 1:
        raise ParameterError(f"{kind} needs d >= k + 1 so that a unit u ⊥ span W exists "
                             f"(Assumption 2), got k={k}, d={d}")


def _gram(W: np.ndarray) -> np.ndarray:
    gram = W @ W.T
    return (gram + gram.T) / 2


def _with_rows(kind: str, W: np.ndarray, xi: float, activation: str, seed: int, *,
               quantized: bool, lam: np.ndarray | None, alpha: float | None) -> Instance:
    """Shared tail of ``orthonormal`` and ``separated``: draw c, ĉ, u, û around given rows."""
    k, d = W.shape
    _, rng_c, rng_c_hat, rng_u = _streams(seed)
    return Instance(
        k=k, d=d, xi=xi, activation=activation, lam=_default_lam(k, lam),
        c=_random_c(rng_c, k, quantized), c_hat=_random_c(rng_c_hat, k, quantized),
        gram=_gram(W), W=W, u=_perturbation(rng_u, W, alpha), u_hat=_unit_orthogonal_to(rng_u, W),
        kind=kind, seed=seed, quantized=quantized, allow_nonorthogonal_u=alpha is not None,
    )


def orthonormal(k: int, d: int, xi: float, activation: str, seed: int | None = None, *,
                quantized: bool = True, lam: np.ndarray | None = None,
                alpha: float | None = None) -> Instance:
    """Orthonormal rows (Assumption 4, Theorems 11–12): W = Qᵀ for Q the QR factor of a
    d×k Gaussian matrix, so the rows are uniform on the Stiefel manifold; u, û uniform
    unit vectors in span(W)^⊥ (Assumption 2), or ‖Π_W u‖ = ``alpha`` as in Fig. 5.
    """
    _need_room_for_u("orthonormal", k, d)
    seed = _resolve_seed(seed)
    q = np.linalg.qr(_streams(seed)[0].standard_normal((d, k)))[0]
    return _with_rows("orthonormal", q.T.copy(), xi, activation, seed,
                      quantized=quantized, lam=lam, alpha=alpha)


def separated(k: int, d: int, xi: float, activation: str, seed: int | None = None, *,
              quantized: bool = True, lam: np.ndarray | None = None,
              alpha: float | None = None) -> Instance:
    """Independent uniform unit rows w_i ∈ S^{d−1} (Theorem 13's setting).

    Assumption 5 is *not* enforced: it holds with high probability when d ≫ log k, and
    ``instance.assumption_5`` (:func:`assumption_5_holds`) reports whether it does.
    """
    _need_room_for_u("separated", k, d)
    seed = _resolve_seed(seed)
    g = _streams(seed)[0].standard_normal((k, d))
    W = g / np.linalg.norm(g, axis=1, keepdims=True)
    return _with_rows("separated", W, xi, activation, seed, quantized=quantized, lam=lam, alpha=alpha)


def _reject_options(kind: str, reason: str, *, quantized: bool, lam: np.ndarray | None,
                    alpha: float | None) -> None:
    for given, option in ((not quantized, "continuous c"), (lam is not None, "lam"),
                          (alpha is not None, "alpha (non-orthogonal u)")):
        if given:
            raise ParameterError(f"{kind} does not take {option}: {reason}")


def claim_2_rows(k: int, d: int, c: np.ndarray) -> np.ndarray:
    """Rows of the Claim 2 construction (Appendix C.3) for quantized c.

    Coordinate i < k carries (w_i)_i = 1/√k; each pair i < j gets its own coordinate l,
    with (w_i)_l = 1/√k and (w_j)_l = −sign(c_i c_j)/√k, so ⟨w_i, w_j⟩ = −c_i c_j and
    ‖w_i‖² = k · (1/k) = 1.  That uses k(k+1)/2 coordinates; this function needs
    d ≥ k(k+1)/2 + 1 so that coordinate k(k+1)/2 (0-based) stays free for u.
    """
    used = k * (k + 1) // 2
    if d < used + 1:
        raise ParameterError(f"the Claim 2 rows use k(k+1)/2 = {used} coordinates plus one for u, "
                             f"so d >= {used + 1}, got d={d}")
    level = 1.0 / math.sqrt(k)
    signs = np.sign(c)
    W = np.zeros((k, d))
    W[np.arange(k), np.arange(k)] = level
    for col, (i, j) in enumerate(combinations(range(k), 2), start=k):
        W[i, col] = level
        W[j, col] = -signs[i] * signs[j] * level
    return W


def claim2(k: int, d: int, xi: float = 1.0, activation: str = "he3", seed: int | None = None, *,
           quantized: bool = True, lam: np.ndarray | None = None,
           alpha: float | None = None) -> Instance:
    """The instance in the proof of Claim 2 (Appendix C.3), used by Theorem 19.

    λ_i = 1, c uniform on {±1/√k}^k, rows from :func:`claim_2_rows`, u = e_p with
    p = k(k+1)/2 the first coordinate W does not use, ĉ quantized and û uniform in
    span(W)^⊥.  Then ⟨w_i + c_i u, w_j + c_j u⟩ = −c_i c_j + c_i c_j = 0: for ξ = 1 the
    normalized teacher rows are orthonormal (for other ξ they are not).  Requires
    d >= 1 + k(k+1)/2, what the construction uses (the check ``claim-2-proof`` verifies that
    this suffices; the claim's hypothesis d > 1 + k(k+1)/2 is one stricter).  The default
    activation h_3 is Theorem 19's σ = h_p with p > 2.
    """
    _reject_options("claim2", "Claim 2 fixes λ_i = 1, c ∈ {±1/√k}^k and u ⊥ span W",
                    quantized=quantized, lam=lam, alpha=alpha)
    k, d = _dimensions(k, d)
    seed = _resolve_seed(seed)
    _, rng_c, rng_c_hat, rng_u = _streams(seed)
    c = _random_c(rng_c, k, True)
    W = claim_2_rows(k, d, c)
    u = np.zeros(d)
    u[k * (k + 1) // 2] = 1.0
    return Instance(
        k=k, d=d, xi=xi, activation=activation, lam=np.ones(k), c=c,
        c_hat=_random_c(rng_c_hat, k, True), gram=_gram(W), W=W, u=u,
        u_hat=_unit_orthogonal_to(rng_u, W), kind="claim2", seed=seed,
    )


def glm(k: int, d: int, xi: float, activation: str, seed: int | None = None, *,
        quantized: bool = True, lam: np.ndarray | None = None,
        alpha: float | None = None) -> Instance:
    """The GLM special case of §1.2: W = 0, λ = 1/k, c = ĉ = (1/√k, …, 1/√k).

    With ξ = √k the teacher is exactly σ(⟨u, x⟩).  u and û are uniform on S^{d−1};
    Assumption 1 is skipped (``scratch=True``: there is no base model).
    """
    _reject_options("glm", "§1.2 fixes λ = 1/k, c = ĉ = 1/√k and W = 0",
                    quantized=quantized, lam=lam, alpha=alpha)
    k, d = _dimensions(k, d)
    seed = _resolve_seed(seed)
    rng_u = _streams(seed)[3]
    g = rng_u.standard_normal((2, d))
    u, u_hat = g / np.linalg.norm(g, axis=1, keepdims=True)
    c = np.full(k, 1.0 / math.sqrt(k))
    return Instance(
        k=k, d=d, xi=xi, activation=activation, lam=np.full(k, 1.0 / k), c=c, c_hat=c.copy(),
        gram=np.zeros((k, k)), W=np.zeros((k, d)), u=u, u_hat=u_hat, kind="glm", seed=seed,
        scratch=True,
    )


Generator = Callable[..., Instance]

#: Instance kinds by name: the ``verify instance KIND`` choices.
GENERATORS: Mapping[str, Generator] = {
    "orthonormal": orthonormal,
    "separated": separated,
    "claim2": claim2,
    "glm": glm,
}


# --- JSON ---------------------------------------------------------------------------
_ARRAYS = {"lambda": "lam", "c": "c", "c_hat": "c_hat", "gram": "gram", "W": "W", "u": "u",
           "u_hat": "u_hat"}
_REQUIRED = ("k", "d", "xi", "activation", "lambda", "c", "c_hat", "gram")
_OPTIONAL_ARRAYS = ("W", "u", "u_hat")
_METADATA = ("kind", "seed", "quantized", "allow_nonorthogonal_u", "scratch")


def to_json(instance: Instance) -> dict[str, Any]:
    """A JSON-ready dict: plain lists of floats (their repr round-trips exactly)."""
    out: dict[str, Any] = {"k": instance.k, "d": instance.d, "xi": instance.xi,
                           "activation": instance.activation}
    for key, attribute in _ARRAYS.items():
        value = getattr(instance, attribute)
        if value is not None:
            out[key] = value.tolist()
    for key in _METADATA:
        out[key] = getattr(instance, key)
    return out


def _numbers(key: str, value: Any, ndim: int) -> Any:
    """Check that ``value`` is a (nested, rectangular) list of JSON numbers of depth ``ndim``."""
    def flat(v: Any, depth: int) -> list[Any]:
        if depth == 0:
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise InstanceError(f"'{key}' must hold numbers, found {v!r}")
            return [v]
        if not isinstance(v, list):
            raise InstanceError(f"'{key}' must be a {'list of lists' if ndim == 2 else 'list'} "
                                f"of numbers, found {type(v).__name__}")
        lengths = {len(x) for x in v if isinstance(x, list)}
        if depth == 2 and len(lengths) > 1:
            raise InstanceError(f"'{key}' has rows of different lengths {sorted(lengths)}")
        return [y for x in v for y in flat(x, depth - 1)]

    flat(value, ndim)
    return value


def from_json(data: Any) -> Instance:
    """Inverse of :func:`to_json`; raises :class:`InstanceError` on any malformed field."""
    if not isinstance(data, dict):
        raise InstanceError(f"an instance must be a JSON object, found {type(data).__name__}")
    missing = [key for key in _REQUIRED if data.get(key) is None]  # a null array is missing too
    if missing:
        raise InstanceError(f"missing key(s) {', '.join(repr(m) for m in missing)}")
    unknown = sorted(set(data) - set(_REQUIRED) - set(_OPTIONAL_ARRAYS) - set(_METADATA))
    if unknown:
        raise InstanceError(f"unknown key(s) {', '.join(repr(u) for u in unknown)}")
    for key, kinds in (("k", (int,)), ("d", (int,)), ("xi", (int, float)), ("activation", (str,)),
                       ("kind", (str,)), ("quantized", (bool,)), ("allow_nonorthogonal_u", (bool,)),
                       ("scratch", (bool,))):
        if key in data and (not isinstance(data[key], kinds)
                            or (bool not in kinds and isinstance(data[key], bool))):
            raise InstanceError(f"'{key}' must be of type {'/'.join(t.__name__ for t in kinds)}, "
                                f"found {data[key]!r}")
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InstanceError(f"'seed' must be an integer or null, found {seed!r}")
    arrays = {attribute: _numbers(key, data[key], 2 if key in ("gram", "W") else 1)
              for key, attribute in _ARRAYS.items() if data.get(key) is not None}
    metadata = {key: data[key] for key in _METADATA if key in data}
    return Instance(k=data["k"], d=data["d"], xi=data["xi"], activation=data["activation"],
                    **arrays, **metadata)


def save(instance: Instance, path: str | os.PathLike[str]) -> None:
    """Write ``instance`` as sorted, indented JSON: to a temporary file, then renamed."""
    path = Path(path)
    text = json.dumps(to_json(instance), sort_keys=True, indent=2) + "\n"

    try:
        write_atomic(path, text)
    except OSError as exc:
        raise InstanceFileError(f"cannot write instance file {str(path)!r}: "
                                f"{exc.strerror or exc}") from None


#: Largest instance file read: W at the k·d limit (5·10⁷ entries) in about 25 characters each.
MAX_FILE_BYTES = 25 * 5 * 10**7 + (1 << 20)
#: Longest integer in an instance file: seeds are 128-bit (39 digits); Python itself refuses
#: to read integers beyond 4300 digits, with a traceback.
MAX_INTEGER_DIGITS = 64
#: Deepest nesting: an instance is an object of lists of lists (3); JSON nested deeper is refused.
MAX_DEPTH = 8


def _integer(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INTEGER_DIGITS:
        raise InstanceError(f"an integer of {digits} digits is longer than the limit of "
                            f"{MAX_INTEGER_DIGITS} digits")
    return int(text)


def _no_constant(name: str):
    raise NonFiniteError(f"the JSON constant {name} is not a finite number")


def _depth(value: Any, limit: int = MAX_DEPTH, level: int = 1) -> int:
    """Nesting depth of parsed JSON, stopping one past ``limit``."""
    if level > limit or not isinstance(value, dict | list):
        return level - (not isinstance(value, dict | list))
    children = value.values() if isinstance(value, dict) else value
    return max((_depth(v, limit, level + 1) for v in children), default=level)


def load(path: str | os.PathLike[str]) -> Instance:
    """Read an instance file written by :func:`save` (or by hand); validates it fully.

    The file is read with limits: at most :data:`MAX_FILE_BYTES`, integers of at most
    :data:`MAX_INTEGER_DIGITS` digits, nesting at most :data:`MAX_DEPTH` deep (a deeper file
    used to end in a RecursionError traceback)."""
    try:
        text = read_limited(path, MAX_FILE_BYTES).decode("utf-8")
    except TooLargeError as exc:
        raise InstanceFileError(f"cannot read instance file {str(path)!r}: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InstanceFileError(f"cannot read instance file {str(path)!r}: {_one_line(reason)}") from None
    try:
        data = json.loads(text, parse_int=_integer, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise InstanceFileError(f"instance file {str(path)!r} is not valid JSON: {exc.msg} "
                                f"(line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise InstanceFileError(f"instance file {str(path)!r}: JSON nested deeper than the limit of "
                                f"{MAX_DEPTH}") from None
    except InstanceError as exc:
        raise _with_file(exc, path) from None
    except ValueError as exc:  # e.g. Python's own int-digit limit
        raise InstanceFileError(f"instance file {str(path)!r}: {_one_line(str(exc))}") from None
    if _depth(data) > MAX_DEPTH:
        raise InstanceFileError(f"instance file {str(path)!r}: JSON nested deeper than the limit of "
                                f"{MAX_DEPTH}")
    try:
        return from_json(data)
    except InstanceError as exc:
        raise _with_file(exc, path) from None


def _one_line(text: str, room: int = 120) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= room else text[: room - 1] + "…"


def _with_file(exc: InstanceError, path: str | os.PathLike[str]) -> InstanceError:
    """The same error class and attributes, its message prefixed with the file name."""
    renamed = exc.__class__.__new__(exc.__class__)
    renamed.__dict__.update(exc.__dict__)
    renamed.args = (f"instance file {str(path)!r}: {exc}",)
    return renamed


__all__ = [
    "GENERATORS", "AssumptionViolation", "GramError", "Instance", "InstanceError",
    "InstanceFileError", "NonFiniteError", "NotUnitError", "ParameterError", "ShapeError",
    "assumption_5_holds", "claim2", "claim_2_rows", "from_json", "glm", "load", "orthonormal",
    "save", "separated", "to_json",
]


def nominal_row_norm2(instance) -> float:
    """‖w_i‖² as a float: 1 by Assumption 1, 0 for the scratch / GLM case (W = 0)."""
    return float(instance.row_norm2)


def nominal_gram(instance) -> np.ndarray:
    """G with its diagonal set to :func:`nominal_row_norm2` exactly (read-only copy).

    Every arithmetic reads this one matrix: the float64 closed form, the mpmath evaluators and
    the balls (:mod:`verify.certified.population` uses G_ii = D too).  The stored float Gram
    diagonal is 1 − 5.6e-16 for some drawn rows, and when the mpmath path read it while the
    balls read 1, ``verify h --dps 50`` claimed an error bound of 1e-55 yet differed from the
    certified ball by 1e-17."""
    gram = np.array(instance.gram, dtype=float)
    np.fill_diagonal(gram, nominal_row_norm2(instance))
    gram.setflags(write=False)
    return gram
