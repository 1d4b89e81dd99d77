r"""The exact reduced chain of :mod:`verify.simulate.reduced`, compiled with numba.

Same chain, same random numbers.  Each replica is the Markov chain (a_t, β_t, ĉ_t) of
that module, driven per update by B·(p + 1) standard normals and one χ²_{d−p−1} variable.
They are drawn, inside the compiled loop, from the replica's own ``numpy.random.Generator``
(child r of ``SeedSequence(seed)``, :mod:`verify.simulate.streams`) in exactly the order of
the NumPy engine's :class:`~verify.simulate.streams.BlockNormals`: per block of
:func:`~verify.simulate.reduced.block_updates` updates, first the block's normals, then its
χ² variables as 2·Gamma((d−p−1)/2).  numba's ``Generator`` runs NumPy's own algorithms on
the same bit generator, so a replica sees the same samples under both engines and the two
trajectories differ only by rounding (the tests check both that and the laws).  Same seed,
same trajectory, bit for bit: nothing depends on timing, threads or the number of replicas
beside it.

The step is :class:`~verify.simulate.reduced.ReducedEngine`'s, written out in loops per
replica (the formulas of :mod:`verify.simulate.model`; only the rounding differs: sums run
over four partial sums, and the row norms n_i, ρ_j enter by their reciprocals):

    ⟨w_j, x⟩ = (L z_Q)_j,  ⟨u, x⟩ = uc·z,  ⟨û, x⟩ = a·z + β b,
    g_F = Σ_b κ_{x,b} z_b (+ Lᵀ Σ_b κ_{w,b} + κ_h a),  g_e = Σ_b κ_{x,b} b_b (+ κ_h β),
    g_rest = √(Σ_b κ_{x,b}²) √χ²,  then the tangent projection, the step and
    a ← (a − η g_F)/N,  β ← √((β − η g_e)² + η² g_rest²)/N,  and ĉ's projected step.

Every mode of :mod:`verify.simulate.modes` is compiled, with any ``batch`` B ≥ 1, for
normalised rows (Appendix D.1) and for scaled rows (``Problem.row_scale``, Appendix B as
printed: ρ_j = 1/r_j fixed, no normalisation terms; the chain stays exact, see
:mod:`verify.simulate.problem`).  The
activation enters by an integer code (:data:`ACTIVATION_CODES`, and ``he1`` … ``he8`` by
degree); an activation without a compiled evaluator (an ``expr:`` one) is refused by
:func:`unsupported_reason`, and :func:`verify.simulate.simulate` then runs the NumPy engine
and records that reason in the trajectory's metadata.

Recording happens inside the compiled loop: m_t = ⟨û_t, u⟩ and ⟨ĉ_t, c⟩ at every record,
and, when the loss needs it, the state (a, β, ĉ) from which the driver evaluates the same
loss as for the NumPy engine.  Runs are cut into chunks of at most :data:`CHUNK_SAMPLES`
samples (one kernel call per replica and chunk), so a long run reports progress and a
diverging one stops within a chunk; the chunking does not change the trajectory.

Compilation: once per machine.  Kernels are compiled on first use with
``numba.njit(cache=True)`` and cached on disk: next to this file in a checkout, in numba's
user cache directory when the package directory is read-only, under ``$NUMBA_CACHE_DIR``
when that is set, and in :func:`tempfile.gettempdir` when nothing else is writable
(:func:`cached_jit`).
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numba
import numpy as np

from verify.model.activations import HERMITE_DEGREES
from verify.simulate.modes import Mode
from verify.simulate.problem import Problem, perpendicular_dimension
from verify.simulate.reduced import block_updates, chi2_df, start_state

# Integer codes of the registry's activations (:mod:`verify.model.activations`) in the kernels;
# HERMITE is h_p = He_p/√p! (``he1`` … ``he8``), with the degree p passed beside it.
RELU, ABS, SIGMOID, TANH, ERF, SOFTPLUS, GELU, QUADRATIC, LINEAR, HERMITE = range(10)
ACTIVATION_CODES = {"relu": RELU, "abs": ABS, "sigmoid": SIGMOID, "tanh": TANH, "erf": ERF,
                    "softplus": SOFTPLUS, "gelu": GELU, "quadratic": QUADRATIC, "linear": LINEAR}
#: Samples per kernel call and replica: progress and divergence are reported per chunk.
CHUNK_SAMPLES = 1 << 16
#: Bytes of recorded states (a, β, ĉ) held at once, when the loss needs them.
STATE_BYTES = 1 << 24

_SQRT1_2 = math.sqrt(0.5)
_SQRT_2PI = math.sqrt(2.0 * math.pi)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def cached_jit(function: Callable) -> Callable:
    """``numba.njit(cache=True, nogil=True)``, with a cache directory that works in any install
    (``nogil``: :mod:`verify.simulate.passage` runs many chains on threads at once), and NumPy's
    floating-point error model (x/0 gives ±inf or NaN, which the finiteness checks catch,
    instead of a branch per division that keeps the loops from being vectorised).

    numba caches next to the source (a checkout), else in its user cache directory (a
    read-only install), else raises at decoration time; in that last case (no writable home
    either) the cache goes to the temporary directory.
    """
    def compile_cached() -> Callable:
        return numba.njit(cache=True, error_model="numpy", nogil=True)(function)

    try:
        return compile_cached()
    except RuntimeError:  # "cannot cache function ...: no locator available"
        # after numba's import: its locators read config.CACHE_DIR each time a function is decorated
        setattr(numba.core.config, "CACHE_DIR",  # noqa: B010
                os.path.join(tempfile.gettempdir(), f"verify-numba-{os.getuid()}"))
        return compile_cached()


# --- activations ---------------------------------------------------------------------
# Twins of the registry's NumPy evaluators (verify/model/activations.py), in the same stable
# forms; the tests compare them over a grid that includes the overflow ranges.

@cached_jit
def _expit(x):
    if x >= 0.0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


@cached_jit
def _ndtr(x):
    """Φ(x) as scipy.special.ndtr (cephes): erf near 0, erfc in the tails (no cancellation)."""
    t = x * _SQRT1_2
    if abs(t) < _SQRT1_2:
        return 0.5 + 0.5 * math.erf(t)
    y = 0.5 * math.erfc(abs(t))
    return 1.0 - y if t > 0.0 else y


@cached_jit
def _hermite(degree, x):
    """h_p(x) = He_p(x)/√p! by the three-term recurrence of the registry."""
    h_prev, h = 0.0, 1.0
    for q in range(degree):
        h_prev, h = h, (x * h - math.sqrt(q) * h_prev) / math.sqrt(q + 1)
    return h


@cached_jit
def _sigma(code, degree, x):
    """σ(x) for the activation ``code`` (NaN stays NaN, so divergence is still detected)."""
    if code == RELU:
        return x if not x <= 0.0 else 0.0
    if code == ABS:
        return abs(x)
    if code == SIGMOID:
        return _expit(x)
    if code == TANH:
        return math.tanh(x)
    if code == ERF:
        return math.erf(x)
    if code == SOFTPLUS:  # log(1 + e^x) = max(x, 0) + log1p(e^{−|x|}), as np.logaddexp(0, x)
        return max(x, 0.0) + math.log1p(math.exp(-abs(x))) if x == x else x
    if code == GELU:
        return x * _ndtr(x)
    if code == QUADRATIC:
        return x * x
    if code == LINEAR:
        return x + 0.0
    return _hermite(degree, x)


@cached_jit
def _sigma_prime(code, degree, x):
    """σ'(x), with the registry's conventions at kinks (relu'(0) = 0, abs'(0) = 0)."""
    if code == RELU:
        return 1.0 if x > 0.0 else (0.0 if x <= 0.0 else x)
    if code == ABS:
        return 1.0 if x > 0.0 else (-1.0 if x < 0.0 else (0.0 if x == 0.0 else x))
    if code == SIGMOID:  # σ(x)σ(−x), not σ(1 − σ): no cancellation for large x
        return _expit(x) * _expit(-x)
    if code == TANH:  # sech²x = 4t/(1 + t)², t = e^{−2|x|}
        t = math.exp(-2.0 * abs(x))
        return 4.0 * t / (1.0 + t) ** 2
    if code == ERF:
        return _TWO_OVER_SQRT_PI * math.exp(-(x * x))
    if code == SOFTPLUS:
        return _expit(x)
    if code == GELU:
        return _ndtr(x) + x * math.exp(-(x * x) / 2.0) / _SQRT_2PI
    if code == QUADRATIC:
        return 2.0 * x
    if code == LINEAR:
        return 1.0
    return math.sqrt(degree) * _hermite(degree - 1, x)


def activation_code(name: str) -> tuple[int, int] | None:
    """(code, Hermite degree) of a registry activation, None where no compiled evaluator exists."""
    if name in ACTIVATION_CODES:
        return ACTIVATION_CODES[name], 0
    if name.startswith("he") and name[2:].isdigit() and int(name[2:]) in HERMITE_DEGREES:
        return HERMITE, int(name[2:])
    return None


def unsupported_reason(problem: Problem) -> str | None:
    """Why the compiled engine cannot run ``problem`` (None when it can)."""
    if activation_code(problem.activation) is None:
        return (f"activation {problem.activation!r} has no compiled evaluator (only the registry's "
                f"built-ins do); ran the NumPy reduced engine")
    return None


# --- the kernel ----------------------------------------------------------------------
# Sums are split over four accumulators in a fixed order: four times the throughput of one
# serial chain, and the same rounding on every CPU (no fastmath reassociation).

@cached_jit
def _dot(x, xo, y, yo, n):
    """Σ_{i<n} x[xo + i] y[yo + i], four partial sums combined as (s0 + s1) + (s2 + s3)."""
    s0 = s1 = s2 = s3 = 0.0
    m = n - n % 4
    for i in range(0, m, 4):
        s0 += x[xo + i] * y[yo + i]
        s1 += x[xo + i + 1] * y[yo + i + 1]
        s2 += x[xo + i + 2] * y[yo + i + 2]
        s3 += x[xo + i + 3] * y[yo + i + 3]
    for i in range(m, n):
        s0 += x[xo + i] * y[yo + i]
    return (s0 + s1) + (s2 + s3)


@cached_jit
def _sum(x):
    """Σ x[i], with the partial sums of :func:`_dot`."""
    s0 = s1 = s2 = s3 = 0.0
    n = x.size
    m = n - n % 4
    for i in range(0, m, 4):
        s0 += x[i]
        s1 += x[i + 1]
        s2 += x[i + 2]
        s3 += x[i + 3]
    for i in range(m, n):
        s0 += x[i]
    return (s0 + s1) + (s2 + s3)


@cached_jit
def _values(code, degree, x, out):
    """out = σ(x); relu (Appendix B's activation) by a loop the compiler vectorises."""
    if code == RELU:
        for q in range(x.size):
            out[q] = _sigma(RELU, 0, x[q])
        return
    for q in range(x.size):
        out[q] = _sigma(code, degree, x[q])


@cached_jit
def _slopes(code, degree, x, out):
    """out = σ'(x), with :func:`_values`' fast path."""
    if code == RELU:
        for q in range(x.size):
            out[q] = _sigma_prime(RELU, 0, x[q])
        return
    for q in range(x.size):
        out[q] = _sigma_prime(code, degree, x[q])


@cached_jit
def evaluate(code, degree, x):
    """(σ(x), σ'(x)) elementwise, by the kernels' own loops (for the tests)."""
    values, slopes = np.empty_like(x), np.empty_like(x)
    _values(code, degree, x, values)
    _slopes(code, degree, x, slopes)
    return values, slopes


@cached_jit
def _advance(rng, a, beta, c_hat, normals, chi2, index, counts, record,
             L, LT, uc, c, teacher_norm, lam, row_sq, row_scale, xi, scale, code, degree,
             train_c, constrained, linearized, batch, has_rest, df, eta, eta_c,
             out_m, out_c, out_a, out_beta, out_c_hat):
    """Advance one replica: ``counts[j]`` updates, then a record where ``record[j]``.

    ``a``, ``beta`` (length 1), ``c_hat``, ``normals`` (block × B(p+1)), ``chi2`` are the
    replica's state and buffers, changed in place; ``index`` is the next unused row of the
    buffers.  Returns (index, updates done, 0, 0.0) or, when an iterate stops being a
    finite nonzero vector before renormalisation, (index, the failing update counted
    from 1, 1 for û or 2 for ĉ, the norm).  ``eta``, ``eta_c``: the steps of û and ĉ.
    ``row_scale``: empty for normalised rows, else the k row scales r_j (ρ_j = 1/r_j, no normalisation terms).
    """
    k, r = L.shape
    p = uc.size
    block, width = normals.shape
    lo = r if constrained else 0  # the coordinates û moves in
    fused = constrained and not train_c and not linearized  # ⟨û, x⟩ over the active part only
    zh_lo = lo if fused else 0
    scaled = row_scale.size > 0  # Appendix B's scaled rows: ρ_j = 1/r_j whatever ĉ and û
    # ξĉ_j/ρ_j changes only with ĉ and (normalised rows) ⟨w_j, û⟩
    rho_fixed = not train_c and (constrained or scaled)
    keep = out_a.shape[0] > 0
    xi2 = xi * xi
    xc = xi * c  # the teacher's ξ c_i, as model.teacher_output rounds it
    inv_n = 1.0 / teacher_norm  # reciprocals: one division per row and call or update, not per sample
    zw, pre, val, slope = np.empty(k), np.empty(k), np.empty(k), np.empty(k)
    xch, inv_rho, ratio, wh = np.zeros(k), np.ones(k), np.zeros(k), np.zeros(k)
    base_scale, zb = np.ones(k), np.empty(k)  # the linearized student's r_j ⟨w_j, x⟩
    if scaled:
        base_scale[:] = row_scale
    kw_sum, gc_sum = np.zeros(k), np.zeros(k)
    g_f = np.zeros(p)
    b_state = beta[0]
    done = 0
    written = 0
    for j in range(counts.size):
        for _ in range(counts[j]):
            if index == block:  # refill: the block's normals, then its χ² (BlockNormals' order)
                for i in range(block):
                    for q in range(width):
                        normals[i, q] = rng.standard_normal()
                if df > 0:
                    for i in range(block):
                        chi2[i] = 2.0 * rng.standard_gamma(df / 2.0)
                index = 0
            # ξĉ_j, ρ_j, ξĉ_j/ρ_j and ⟨w_j, û⟩ at the state where the update starts
            if not constrained and not scaled:
                wh[:] = 0.0
                for i in range(r):
                    ai = a[i]
                    for q in range(k):
                        wh[q] += ai * LT[i, q]
            if done == 0 or not rho_fixed:  # ⟨w_j, û⟩ = 0 when constrained: one branch-free loop
                for q in range(k):
                    xch[q] = xi * c_hat[q]
                    if scaled:
                        inv_rho[q] = row_scale[q]
                    else:
                        inv_rho[q] = 1.0 / math.sqrt(row_sq[q] + 2.0 * xi * c_hat[q] * wh[q]
                                                     + xi2 * (c_hat[q] * c_hat[q]))
                    ratio[q] = xch[q] * inv_rho[q]
            g_f[:] = 0.0
            g_e = 0.0
            kx_sq = 0.0
            kh_sum = 0.0
            kw_sum[:] = 0.0
            gc_sum[:] = 0.0
            row = normals[index]
            for s in range(batch):
                off = s * (p + 1)
                b = row[off + p] if has_rest else 0.0  # no direction outside the frame when d = p
                zu = _dot(row, off, uc, 0, p)
                zh = _dot(row, off + zh_lo, a, zh_lo, p - zh_lo) + b_state * b
                zw[:] = 0.0
                for i in range(r):
                    zi = row[off + i]
                    for q in range(k):
                        zw[q] += zi * LT[i, q]
                for q in range(k):
                    pre[q] = (zw[q] + xc[q] * zu) * inv_n[q]
                _values(code, degree, pre, val)
                target = scale * _dot(val, 0, lam, 0, k)
                if linearized:  # e and κ_x of the first-order student (model.terms)
                    for q in range(k):
                        zb[q] = zw[q] * base_scale[q]
                    _slopes(code, degree, zb, slope)
                    _values(code, degree, zb, val)
                    for q in range(k):
                        slope[q] *= base_scale[q]
                        pre[q] = slope[q] * c_hat[q]
                    tilt = _dot(pre, 0, lam, 0, k)
                    e = target - scale * (_dot(val, 0, lam, 0, k) + xi * zh * tilt)
                    weight = -2.0 * scale * xi * e
                    kx = weight * tilt
                    for q in range(k):
                        gc_sum[q] += weight * zh * slope[q] * lam[q]
                else:
                    for q in range(k):
                        pre[q] = (zw[q] + xch[q] * zh) * inv_rho[q]
                    _values(code, degree, pre, val)
                    _slopes(code, degree, pre, slope)
                    e = target - scale * _dot(val, 0, lam, 0, k)
                    for q in range(k):  # δ_j = −2 s e λ_j σ'(z_j), then δ_j ξĉ_j/ρ_j
                        slope[q] = -2.0 * scale * e * lam[q] * slope[q]
                        val[q] = slope[q] * ratio[q]
                    kx = _sum(val)
                    if not constrained and not scaled:
                        for q in range(k):
                            kw = -val[q] * pre[q] * inv_rho[q]
                            kw_sum[q] += kw
                            val[q] = kw * xi * c_hat[q]
                        kh_sum -= _sum(val)
                    if train_c and scaled:
                        for q in range(k):
                            gc_sum[q] += slope[q] * xi * inv_rho[q] * zh
                    elif train_c:
                        for q in range(k):
                            gc_sum[q] += slope[q] * xi * inv_rho[q] * (zh - pre[q] * (wh[q] + xch[q])
                                                                       * inv_rho[q])
                for i in range(lo, p):
                    g_f[i] += kx * row[off + i]
                g_e += kx * b
                kx_sq += kx * kx
            chi = chi2[index]
            index += 1
            if not constrained and not scaled:
                for q in range(k):
                    kq = kw_sum[q]
                    for i in range(r):
                        g_f[i] += kq * L[q, i]
                for i in range(lo, p):
                    g_f[i] += kh_sum * a[i]
                g_e += kh_sum * b_state
            g_rest = math.sqrt(kx_sq) * math.sqrt(chi)
            along = _dot(g_f, lo, a, lo, p - lo) + g_e * b_state  # tangent projection
            for i in range(lo, p):
                a[i] -= eta * (g_f[i] - along * a[i])
            g_e -= along * b_state
            beta_new = math.hypot(b_state - eta * g_e, eta * g_rest)
            norm = math.sqrt(_dot(a, lo, a, lo, p - lo) + beta_new * beta_new)
            done += 1
            if not (math.isfinite(norm) and norm > 0.0):
                beta[0] = b_state
                return index, done, 1, norm
            for i in range(lo, p):
                a[i] /= norm
            b_state = beta_new / norm
            if train_c:  # ĉ ← proj(ĉ − η_c (I − ĉĉᵀ) ∇_ĉ L), as model.step_c
                along_c = _dot(gc_sum, 0, c_hat, 0, k)
                for q in range(k):
                    c_hat[q] -= eta_c * (gc_sum[q] - along_c * c_hat[q])
                c_norm = math.sqrt(_dot(c_hat, 0, c_hat, 0, k))
                if not (math.isfinite(c_norm) and c_norm > 0.0):
                    beta[0] = b_state
                    return index, done, 2, c_norm
                for q in range(k):
                    c_hat[q] /= c_norm
        if record[j]:
            out_m[written] = _dot(a, 0, uc, 0, p)
            out_c[written] = _dot(c_hat, 0, c, 0, k)
            if keep:
                out_a[written, :] = a
                out_beta[written] = b_state
                out_c_hat[written, :] = c_hat
            written += 1
    beta[0] = b_state
    return index, done, 0, 0.0


# --- the engine ----------------------------------------------------------------------
@dataclass
class Snapshot:
    """Every replica at one record: what :func:`verify.simulate.simulate` records and its loss
    reads (the state (a, β, ĉ) only when the loss needs it)."""

    m: np.ndarray
    c_overlap: np.ndarray
    a: np.ndarray | None = None
    beta: np.ndarray | None = None
    c_hat: np.ndarray | None = None

    def overlaps(self) -> tuple[np.ndarray, np.ndarray]:
        return self.m, self.c_overlap

    def frame_state(self):
        return self.a, self.beta, self.c_hat


#: Called as ``diverged(step, replica, what, norm)`` when an iterate stops being finite; raises.
Diverged = Callable[[int, int, str, float], None]


class CompiledEngine:
    """R replicas of the chain (a, β, ĉ); replica i draws from ``rngs[i]`` only, in the
    order of :class:`~verify.simulate.reduced.ReducedEngine` (same start, same samples)."""

    def __init__(self, problem: Problem, mode: Mode, rngs: list[np.random.Generator],
                 init: str = "random", m0: float | None = None, batch: int = 1):
        codes = activation_code(problem.activation)
        if codes is None:
            raise ValueError(unsupported_reason(problem))
        self.code, self.degree = codes
        self.problem, self.mode, self.rngs, self.batch = problem, mode, rngs, batch
        R, p = len(rngs), problem.p
        self.a, self.beta = start_state(problem, rngs, init, m0)
        self.c_hat = np.tile(problem.c_hat, (R, 1))
        block = block_updates(batch)
        self.normals = np.empty((R, block, batch * (p + 1)))
        self.chi2 = np.zeros((R, block))
        self.index = block  # empty buffers: the first update draws a block
        self.has_rest = perpendicular_dimension(problem) > 0
        self.df = chi2_df(problem)
        self.L = np.ascontiguousarray(problem.L, dtype=float)
        self.LT = np.ascontiguousarray(problem.L.T, dtype=float)
        self.row_scale = np.empty(0) if problem.row_scale is None else np.ascontiguousarray(problem.row_scale)

    def _chunks(self, counts: list[int], keep_state: bool) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """(updates, record?) per piece, grouped into kernel calls of at most CHUNK_SAMPLES
        samples and STATE_BYTES of records."""
        limit = max(1, CHUNK_SAMPLES // self.batch)
        per_record = 8 * len(self.rngs) * (2 + (self.problem.p + 1 + self.problem.k if keep_state else 0))
        max_records = max(1, STATE_BYTES // per_record)
        pieces: list[tuple[int, bool]] = []
        for n in counts:
            while n > limit:
                pieces.append((limit, False))
                n -= limit
            pieces.append((n, True))
        start = 0
        while start < len(pieces):
            stop, updates, records = start, 0, 0
            while stop < len(pieces) and (stop == start or (updates + pieces[stop][0] <= limit
                                                            and records < max_records)):
                updates += pieces[stop][0]
                records += pieces[stop][1]
                stop += 1
            chunk = pieces[start:stop]
            yield (np.array([n for n, _ in chunk], dtype=np.int64),
                   np.array([rec for _, rec in chunk], dtype=np.bool_))
            start = stop

    def records(self, eta: float, counts: list[int], keep_state: bool, diverged: Diverged,
                progress: Callable[[int], None] | None = None,
                eta_c: float | None = None) -> Iterator[Snapshot]:
        """Run ``counts[j]`` updates (of ``batch`` samples) before record j, yielding each record;
        ``eta`` is û's step, ``eta_c`` (default ``eta``) ĉ's.

        A divergence is reported through ``diverged`` at the earliest step, the iterate û
        before ĉ and the lowest replica first: the report of the NumPy engine's driver.
        """
        pb, mode, R = self.problem, self.mode, len(self.rngs)
        p, k, eta = pb.p, pb.k, float(eta)
        eta_c = eta if eta_c is None else float(eta_c)
        done_before = 0
        for counts_c, record_c in self._chunks(counts, keep_state):
            n_rec = int(record_c.sum())
            kept = n_rec if keep_state else 0
            out_m, out_c = np.empty((R, n_rec)), np.empty((R, n_rec))
            out_a, out_beta, out_c_hat = np.empty((R, kept, p)), np.empty((R, kept)), np.empty((R, kept, k))
            failures, index = [], self.index
            for r, rng in enumerate(self.rngs):
                index, done, what, norm = _advance(
                    rng, self.a[r], self.beta[r:r + 1], self.c_hat[r], self.normals[r], self.chi2[r],
                    self.index, counts_c, record_c, self.L, self.LT, pb.uc, pb.c, pb.teacher_norm,
                    pb.lam, pb.row_sq, self.row_scale, float(pb.xi), float(pb.scale), self.code, self.degree,
                    mode.train_c, mode.constrained, mode.linearized, self.batch, self.has_rest,
                    self.df, eta, eta_c, out_m[r], out_c[r], out_a[r], out_beta[r], out_c_hat[r])
                if what:
                    failures.append(((done_before + done) * self.batch, what, r, norm))
            if failures:
                step, what, r, norm = min(failures)
                diverged(step, r, "u_hat" if what == 1 else "c_hat", norm)
            self.index = index
            done_before += int(counts_c.sum())
            if progress is not None:
                progress(int(counts_c.sum()) * self.batch)
            for i in range(n_rec):
                state = (out_a[:, i], out_beta[:, i], out_c_hat[:, i]) if keep_state else (None, None, None)
                yield Snapshot(out_m[:, i], out_c[:, i], *state)
