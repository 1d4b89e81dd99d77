r"""The SGD dynamics: §3.1 (Eqs. (5)–(6), Theorem 5) and Appendix C.1 (the drift recursion,
Conditions 1–3, Theorem 16).  Appendix E (Claims 5–9, Lemma 31, Proposition 32, Lemmas 33–34)
is in :mod:`verify.paper.packs.dayi_chen.checks.app_e_dynamics_proofs`, which shares the recorded runs defined here.

References are the suite's own: SymPy for the algebra, the closed-form h(m) of
:mod:`verify.model.population`, and online SGD from :mod:`verify.simulate` (the exact reduced
engine, whose cost per step does not depend on d).  The paper's constants and displays
enter only as claims (``claimed_*`` functions that the tests monkeypatch).

Scalings.  Theorem 16's literal δ = S_k ε³/(4μ_1 log²(dV_k)) makes T = ⌈α dV_k⌉ astronomically
large (≈10¹¹ steps at d = 1000 for the instance below), so the runs keep the paper's *scalings*
(η = δ/(dV_k), T ∝ dV_k/(δS_k)) with a constant δ stated in every record; the
asymptotic claims (time linear in d, probabilities → 1) are what is measured.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
import sympy

from verify.certified import certified_population
from verify.checks import certify
from verify.checks.certify import attempt
from verify.checks.core import Context, check
from verify.model.instance import orthonormal, separated
from verify.model.population import h
from verify.simulate import estimate_gradient
from verify.simulate.drift import drift_ode
from verify.simulate.model import terms
from verify.simulate.modes import MODES
from verify.simulate.problem import build_problem
from verify.simulate.reduced import ReducedEngine
from verify.simulate.streams import generators
from verify.verdict import Z_CRIT, Basis, FailureKind, Impact, Outcome, Verdict, fit_exponent, residual_text

# ---------------------------------------------------------------------------------------
# The instance every simulated check runs on (orthonormal rows, Theorem 11's setting).
RUN_K = 4
RUN_XI = 1.0
RUN_ACTIVATION = "relu"  # μ_1(relu) = 1/2 ≠ 0: Theorem 11's first case
RUN_LAM = 1.0  # λ_i = 1, so that h and the moments are O(1) and V_k ≥ 1 is not vacuous
RUN_EPS = 0.1  # strong recovery: m ≥ 1 − ε
WEAK_R = 0.5  # r of Theorem 16 / Lemma 34 ("choosing r = 1/2")
BETA = 0.5  # β of the initialisation condition |m_0| ≥ β/√d


def run_instance(d: int, seed: int = 4):
    """The orthonormal k = 4, ξ = 1, relu instance with λ = 1 used by the simulated checks.

    ``seed`` = 4 gives (c, ĉ) = ((1,1,1,1), (−1,−1,−1,1))/2, which satisfies Condition 3 with
    |h(0)| = 0.918 (seeds 0–7 give |h(0)| ∈ {0, 0.118, 0.236, 0.636, 0.918}; the largest keeps
    the runs short; the tests pin the condition)."""

    return orthonormal(RUN_K, d, RUN_XI, RUN_ACTIVATION, seed=seed, lam=np.full(RUN_K, RUN_LAM))


def h_values(instance, m) -> np.ndarray:

    return np.asarray(h(instance, np.clip(np.asarray(m, float), -1.0, 1.0)), float)


H_GRID = 40_001  # linear interpolation of h: error ≤ 1e-6 (h' has a √(1 − m²) cusp at ±1 for relu)


def h_interpolated(instance, m: np.ndarray) -> np.ndarray:
    """h(m) by linear interpolation on H_GRID points (the closed form costs ~4 µs a point)."""
    grid = np.linspace(-1.0, 1.0, H_GRID)
    return np.interp(np.asarray(m, float), grid, h_values(instance, grid))


# ---------------------------------------------------------------------------------------
# Per-sample projected gradient moments (Condition 2), from the simulator's per-sample terms.
def gradient_samples(instance, m: float, n: int, rng: np.random.Generator):
    """(‖L‖², ⟨L, u⟩) for n fresh samples at a student û ⊥ span W with ⟨û, u⟩ = m.

    L = κ_x(x) P x with P the projector onto span(W)⊥ ∩ û⊥ (frozen ĉ, :mod:`verify.simulate.model`).
    In the frame (w's, u, û's component e ⊥ u, the rest): ⟨u, x⟩ = z_u, ⟨û, x⟩ = m z_u + √(1−m²) b,
    ‖P x‖² = z_u² + b² + χ²_{d−k−2} − ⟨û, x⟩², ⟨L, u⟩ = κ_x (z_u − m ⟨û, x⟩); exact in law.
    """

    pb = build_problem(instance, MODES["frozen"])
    z = rng.standard_normal((n, pb.r))
    zu, b = rng.standard_normal(n), rng.standard_normal(n)
    rest = rng.chisquare(pb.d - pb.p - 1, n)
    zh = m * zu + math.sqrt(1 - m * m) * b
    t = terms(pb, z @ pb.L.T, zu, zh, None, pb.c_hat, need_c=False)
    px_sq = zu**2 + b**2 + rest - zh**2
    return t.kx**2 * px_sq, t.kx * (zu - m * zh)


@dataclass(frozen=True)
class Moments:
    """Condition 2's moments at one m, with standard errors."""

    m: float
    norm2: float  # d^{-1} E‖L‖²
    norm2_se: float
    along2: float  # E⟨L, u⟩²
    along2_se: float
    norm4: float  # d^{-2} E‖L‖⁴
    along4: float  # E⟨L, u⟩⁴


def moments(instance, m: float, n: int, rng) -> Moments:
    n2, lu = gradient_samples(instance, m, n, rng)
    d = instance.d
    a2 = lu**2
    return Moments(float(m), float(n2.mean() / d), float(n2.std(ddof=1) / d / math.sqrt(n)),
                   float(a2.mean()), float(a2.std(ddof=1) / math.sqrt(n)),
                   float((n2**2).mean() / d**2), float((a2**2).mean()))


#: The checks that read the SGD runs below (run_constants, paper_run, scaling_runs: process-wide
#: caches) run in one process under ``verify check --jobs N``, so each run is simulated once.
SGD_RUNS = "the SGD runs of App. C.1"


@functools.lru_cache(maxsize=8)
def run_constants(seed: int, full: bool) -> dict:
    """S_k = |h(0)|/2 and a measured V_k for the run instance (d = 1000; the moments
    d^{-1}E‖L‖² depend on d only through χ²_{d−k−2}/d).

    V_k = max(1, sup_m max(d^{-1}E‖L‖², E⟨L,u⟩², ‖∇̂Φ‖²)) over a grid of m, so μ_1 = 1 in
    Condition 2's notation (the upper 5.33-SE end of each estimate is used)."""
    rng = Context(seed=seed, full=full, check_id="dynamics-constants").rng("moments")
    inst = run_instance(1000)
    grid = np.linspace(-0.95, 0.95, 9)
    n = 40_000 if full else 10_000
    ms = [moments(inst, float(m), n, rng) for m in grid]
    h_grid = h_values(inst, np.linspace(-1, 1, 401))
    pop = float(np.max(h_grid**2 * (1 - np.linspace(-1, 1, 401) ** 2)))
    upper = max(max(x.norm2 + Z_CRIT * x.norm2_se, x.along2 + Z_CRIT * x.along2_se) for x in ms)
    v_k = max(1.0, upper, pop)
    h0 = float(h_values(inst, 0.0))
    return {"S_k": abs(h0) / 2, "V_k": v_k, "h0": h0, "sign": 1.0 if h0 > 0 else -1.0,
            "moment_max": upper, "population_gradient_sq_max": pop,
            "norm2_min": min(x.norm2 for x in ms)}


# ---------------------------------------------------------------------------------------
# Recorded frozen-mode SGD: per-step m_t, ‖L_t‖², ⟨L_t, u⟩, Π_t for R replicas.
@dataclass(frozen=True)
class Run:
    """R replicas × T steps.  ``m`` has T+1 columns; the others T (step j uses x_j)."""

    d: int
    eta: float
    steps: int
    m: np.ndarray  # (R, T+1), signed so that sign(h(0)) = +1 (the paper's WLOG)
    norm2: np.ndarray  # ‖L_j‖²
    along: np.ndarray  # ⟨L_j, u⟩ (signed as m)
    pi: np.ndarray  # Π_j = ‖u_j − η L_j‖
    h: np.ndarray  # h(m_j)(1 − m_j²) in the signed frame

    @property
    def error_along(self) -> np.ndarray:
        """⟨E_j, u⟩ = ⟨L_j, u⟩ − ⟨∇̂Φ(u_j), u⟩ = ⟨L_j, u⟩ + h(m_j)(1 − m_j²)."""
        return self.along + self.h


def record_run(instance, eta: float, steps: int, replicas: int, seed_sequence, m0: float,
               sign: float, stop_at: float | None = None) -> Run:
    """Frozen-mode online SGD (eq. (4)) on the exact reduced engine, every step recorded.

    The engine returns Π_j (the norm divided out); with L_j ⊥ u_j (Claim 5's first step,
    verified exactly in ``claim-5`` on the d-dimensional engine) ‖L_j‖² = (Π_j² − 1)/η² and
    m_{j+1} Π_j = m_j − η⟨L_j, u⟩ give the rest (relative rounding ≤ 1e-8 at these η).
    ``stop_at``: stop once every replica has m ≥ stop_at (the rest of the arrays is cut).
    """

    pb = build_problem(instance, MODES["frozen"])
    eng = ReducedEngine(pb, MODES["frozen"], generators(seed_sequence, replicas), m0=m0 * sign)
    m = np.empty((replicas, steps + 1))
    pi = np.empty((replicas, steps))
    m[:, 0] = eng.overlaps()[0]
    last = steps
    for t in range(steps):
        pi[:, t] = eng.step(eta)[0]
        m[:, t + 1] = eng.overlaps()[0]
        if stop_at is not None and (sign * m[:, t + 1] >= stop_at).all():
            last = t + 1
            break
    m, pi = sign * m[:, :last + 1], pi[:, :last]
    norm2 = np.maximum(pi**2 - 1, 0) / eta**2
    along = (m[:, :-1] - pi * m[:, 1:]) / eta
    hv = h_interpolated(instance, sign * m[:, :-1]) * sign * (1 - m[:, :-1] ** 2)
    return Run(instance.d, eta, last, m, norm2, along, pi, hv)


def first_hit(m: np.ndarray, level: float) -> np.ndarray:
    """Per replica, the first t with m_t ≥ level (−1 where never)."""
    hit = m >= level
    return np.where(hit.any(axis=1), hit.argmax(axis=1), -1)


def drift_time(instance, sign: float, m0: float, eta: float, level: float) -> float:
    """Steps for the population map m̄_{t+1} = m̄_t + ηh(m̄_t)(1 − m̄_t²) (its ODE limit,
    :func:`verify.simulate.drift_ode`) to go from m0 to ``level`` (both in the signed frame)."""

    horizon = int(50 / (eta * 0.01)) + 1  # h ≥ 0.01 on the path for every instance used here
    path = drift_ode(instance, sign * m0, eta, horizon, eps=0.49, points=20001)
    signed = sign * path.m
    hit = np.flatnonzero(signed >= level)
    if hit.size == 0:
        raise RuntimeError(f"the drift did not reach m = {level} within {horizon} steps")
    return float(path.steps[hit[0]])


@functools.lru_cache(maxsize=4)
def paper_run(seed: int, full: bool) -> tuple[Run, dict]:
    """The run the App. E checks share: d = 250 (1000 with --full), η = δ/(dV_k) with δ = 0.5
    (0.25), m_0 = β/√d·sign(h(0)) (event A), for twice the drift time to 1 − ε/6."""
    consts = run_constants(seed, full)
    d, delta = (1000, 0.25) if full else (250, 0.5)
    inst = run_instance(d)
    eta = delta / (d * consts["V_k"])
    m0 = BETA / math.sqrt(d)
    to_strong = drift_time(inst, consts["sign"], m0, eta, 1 - RUN_EPS / 6)
    steps = int(2 * to_strong)
    seq = Context(seed=seed, full=full, check_id="dynamics-paper-run").seed_sequence("sgd", d)
    run = record_run(inst, eta, steps, 128 if full else 48, seq, m0, consts["sign"])
    info = dict(consts, d=d, eta=eta, m0=m0, delta=delta, beta=BETA, eps=RUN_EPS, r=WEAK_R,
                drift_steps_to_1_minus_eps6=to_strong, horizon=steps, replicas=run.m.shape[0],
                alpha_of_horizon=steps / (d * consts["V_k"]))
    return run, info


# =======================================================================================
# §3.1 / C.1: exact algebra
def claimed_c1_ratio(m, eta, hm):
    """C.1: |1 − m̄_{t+1}|/|1 − m̄_t| = |1 − η h(m̄_t)(1 + m̄_t)|."""
    return sympy.Abs(1 - eta * hm * (1 + m))


@check("c1-drift-recursion", "App. C.1 (drift recursion)", "C.1", "symbolic")
def c1_drift_recursion(ctx) -> Outcome:
    """Appendix C.1: "Ignoring the error terms E_j and Q_j in the above, we get the recursion m̄_{t+1} = m̄_t + ηh(m̄_t)(1 − m̄_t²). Rearranging, we have |1 − m̄_{t+1}|/|1 − m̄_t| = |1 − ηh(m̄_t)(1 + m̄_t)|. So if h(m̄_t) is uniformly bounded from below by some quantity s, then the alignment m_t contracts towards 1 at a geometric rate of 1 − ηs in each step".

    Reference: SymPy, 1 − m̄_{t+1} = (1 − m̄_t)(1 − ηh(1 + m̄_t)) for symbols m, η, h; then a
    numeric check of the claimed ratio along the drift map of the run instance (relative 1e-9:
    1 − m̄ ≥ 1e-6 on the checked steps, float64 rounding ≤ 1e-16/1e-6).  The geometric-rate
    sentence is checked as stated: 1 − ηh(1+m) ≤ 1 − ηs needs m̄_t ≥ 0 (noted).
    """
    m, eta, hm = sympy.symbols("m eta h", real=True)
    m_next = m + eta * hm * (1 - m**2)
    derived = (1 - m_next) / (1 - m)
    diff = sympy.simplify(sympy.Abs(derived) - claimed_c1_ratio(m, eta, hm))
    exact = diff == 0
    witness = None
    if not exact:
        for point in ({m: sympy.Rational(1, 3), eta: sympy.Rational(1, 10), hm: 2},
                      {m: sympy.Rational(-1, 2), eta: 1, hm: 3}):
            value = sympy.nsimplify(diff.subs(point))
            if value != 0:
                witness = {str(s): str(v) for s, v in point.items()} | {"difference": str(value)}
                break
    proved = exact
    if not exact and witness is None:  # SymPy could not simplify Abs: fall back to points (not a proof)
        exact = True
    if not exact:
        return Outcome(Verdict.FAILS, f"the claimed ratio differs from the derived one at {witness}",
                       counterexample=witness,
                       correction="|1 - m_{t+1}|/|1 - m_t| = |1 - eta h(m_t)(1 + m_t)|",
                       correction_verified=True)
    # numeric: the drift map of the run instance
    inst = run_instance(50)
    h0 = float(h_values(inst, 0.0))
    sign = 1.0 if h0 > 0 else -1.0
    eta = 0.05
    mbar = [sign * 0.01]
    for _ in range(400):
        x = mbar[-1]
        mbar.append(x + eta * float(h_values(inst, x)) * (1 - x * x))
    arr = sign * np.array(mbar)
    keep = 1 - arr[:-1] > 1e-6
    lhs = np.abs(1 - arr[1:]) / np.abs(1 - arr[:-1])
    hv = sign * h_values(inst, sign * arr[:-1])
    rhs = np.array([float(claimed_c1_ratio(sympy.Float(a), eta, sympy.Float(b))) for a, b in
                    zip(arr[:-1][keep][:50], hv[keep][:50], strict=True)])
    worst = float(np.max(np.abs(lhs[keep][:50] - rhs) / rhs))
    if worst > 1e-9:
        return Outcome(Verdict.FAILS, f"numeric ratio off by {worst:.2e} along the drift map",
                       counterexample={"relative_error": worst}, basis=Basis.NUMERICAL)
    s = float(np.min(hv[keep]))
    if not proved:
        return Outcome(Verdict.HOLDS, "SymPy could not reduce |derived| - claimed to 0; it vanishes at two rational "
                       f"points and along the drift map to {worst:.1e} (float64): evidence, not a proof",
                       numbers={"numeric_relative_error": worst, "min_h_on_path": s,
                                "sympy_difference": sympy.sstr(diff)}, basis=Basis.NUMERICAL,
                       notes=["Decided by: the difference at two rational points (exact) and the float64 ratio "
                              "along the drift map (relative 1e-9); SymPy did not simplify the identity."])
    return Outcome(Verdict.HOLDS, "1 - m_{t+1} = (1 - m_t)(1 - eta h(m_t)(1 + m_t)) exactly (SymPy); "
                   f"numeric along the drift map to {worst:.1e}",
                   numbers={"numeric_relative_error": worst, "min_h_on_path": s},
                   notes=["Decided by: the SymPy identity (exact); the float64 check along the drift map only "
                          "corroborates it.",
                          "The 'geometric rate 1 - eta s' needs m_t >= 0 (then 1 + m_t >= 1) and "
                          "eta h (1 + m_t) <= 2 - eta s; for m_t < 0 the contraction factor is only "
                          "1 - eta s (1 + m_t)."])


def claimed_eq6_noise_sign() -> int:
    """§3.1/C.1: m_{t+1} = m_t + ηh(m_t)(1 − m_t²) + η⟨∇̂E_t, u⟩ + Q_t: the noise enters with +."""
    return +1


@check("eq-6", "Eq. (6) (and the m_{t+1} display before it)", "3.1 / C.1", "exact", shares=SGD_RUNS)
def eq_6(ctx) -> Outcome:
    """§3.1 and C.1: "decompose ∇̂L(u_t; x_t) = ∇̂Φ(u_t) + ∇̂E(u_t; x_t) … m_{t+1} = m_t + ηh(m_t)(1 − m_t²) + η⟨∇̂E_t(u_t; x_t), u⟩ + Q_t where Q_t = ⟨Q̂_t, u⟩ is the error from ignoring the normalization … m_t = m_0 + η Σ_{j<t} h(m_j)(1 − m_j²) + η Σ_{j<t} ⟨E_j, u⟩ + Σ_{j<t} Q_j (6)".

    Reference: with Eq. (5), u_{t+1} = u_t − η∇̂L + Q̂_t, so Q_t = m_{t+1} − m_t + η⟨L_t, u⟩ is
    defined by the step, and ⟨∇̂Φ, u⟩ = −h(m)(1 − m²) (Prop. 4).  On recorded SGD steps the
    printed right side is compared with m_{t+1}; tolerance 1e-12 (float64, |m| ≤ 1, η⟨L,u⟩ ≤ 1e-2).
    """
    run, info = paper_run(ctx.seed, ctx.full)
    j = slice(0, 200)
    m, mn = run.m[:, :-1][:, j], run.m[:, 1:][:, j]
    sign = info["sign"]
    drift = sign * h_values(run_instance(run.d), sign * m) * (1 - m**2)  # exact h, not interpolated
    q = mn - m + run.eta * run.along[:, j]  # Q_t by Eq. (5)
    e = run.along[:, j] + drift  # ⟨E_t, u⟩ = ⟨L_t, u⟩ − ⟨∇̂Φ, u⟩
    printed = m + run.eta * drift + claimed_eq6_noise_sign() * run.eta * e + q
    corrected = m + run.eta * drift - run.eta * e + q
    gap = np.abs(printed - mn)
    worst = float(gap.max())
    corr = float(np.abs(corrected - mn).max())
    # Eq. (6) on its own: the telescoped sum from m_0, printed (+eta sum <E_j, u>) and corrected
    m0 = m[:, :1]
    eq6_printed = m0 + np.cumsum(run.eta * drift + claimed_eq6_noise_sign() * run.eta * e + q, axis=1)
    eq6_corrected = m0 + np.cumsum(run.eta * drift - run.eta * e + q, axis=1)
    eq6_gap = float(np.abs(eq6_printed - mn).max())
    eq6_corr = float(np.abs(eq6_corrected - mn).max())
    if worst > 1e-12:
        r, t = np.unravel_index(int(np.argmax(gap)), gap.shape)
        outcome = Outcome(
            Verdict.FAILS,
            f"with ∇̂L = ∇̂Φ + ∇̂E the noise enters m_(t+1) with a minus sign: the printed '+eta<E_t,u>' "
            f"is off by 2 eta<E_t,u> (up to {worst:.2e} per step); corrected display exact {residual_text(corr, 1e-12)}",
            numbers={"max_printed_error": worst, "max_corrected_error": corr},
            parameters={k: info[k] for k in ("d", "eta", "delta", "V_k", "S_k")},
            counterexample={"replica": int(r), "step": int(t), "m_t": float(m[r, t]),
                            "m_t+1": float(mn[r, t]), "eta": run.eta, "<E_t,u>": float(e[r, t]),
                            "printed_rhs": float(printed[r, t]), "actual": float(mn[r, t])},
            correction="m_{t+1} = m_t + eta h(m_t)(1 - m_t^2) - eta<E_t, u> + Q_t, and in (6) "
                       "- eta sum <E_j, u> (as Appendix E and Lemma 33's proof write it)",
            correction_verified=corr <= 1e-12, basis=Basis.NUMERICAL,
            notes=["Harmless for the analysis: M_t enters only through |M_t| (Claim 9).",
                   "Decided by: float64 residuals on recorded SGD steps against 1e-12 (the sign error is "
                   "algebraic, but the check does not derive it symbolically)."])
        steps = [(int(r), int(t))]
    else:
        outcome = Outcome(Verdict.HOLDS, f"printed display matches recorded steps to {worst:.1e}",
                          numbers={"max_printed_error": worst}, basis=Basis.NUMERICAL)
        steps = [(r, t) for r in range(m.shape[0]) for t in range(m.shape[1])]

    outcome = attempt(outcome, lambda: _certify_eq_6(run, sign, steps))
    if outcome.verdict is Verdict.FAILS:
        step = outcome.part()
        summed = Outcome(
            Verdict.FAILS if eq6_gap > 1e-9 else Verdict.CONSISTENT,
            f"Eq. (6) summed from m_0 on the recorded steps: the printed '+eta sum <E_j, u>' misses m_t by up to "
            f"{eq6_gap:.2e}; with '-' it is exact {residual_text(eq6_corr, 1e-9)}",
            basis=Basis.NUMERICAL, failure_kind=FailureKind.STEP,
            counterexample={"max_printed_error": eq6_gap} if eq6_gap > 1e-9 else None,
            correction="m_t = m_0 + eta sum h(m_j)(1 - m_j^2) - eta sum <E_j, u> + sum Q_j",
            correction_verified=eq6_corr <= 1e-9)
        outcome.parts = {"3.1-5": step, "C.1-1": step.part(), "3.1-6": summed, "C.1-4": summed.part()}
    return outcome


def _certify_eq_6(run, sign: float, steps: list[tuple[int, int]]):
    """The printed display on recorded steps in balls: m_t, m_{t+1}, η and ⟨L_t, u⟩ as recorded
    (float64, taken exactly), h from the certified closed form of the run instance, Q_t by Eq. (5)
    and ⟨E_t, u⟩ = ⟨L_t, u⟩ + h(m_t)(1 − m_t²) as in the fast path; the claim is
    |printed − m_{t+1}| ≤ 1e-12 on every listed step (the fast path's worst step when it fails)."""

    pop = certified_population(run_instance(run.d), certify.DPS)
    eta = certify.ball(run.eta)
    noise = certify.as_ball(certify.call_hook(claimed_eq6_noise_sign), "claimed_eq6_noise_sign")
    s = certify.ball(sign)
    gaps = []
    for r, t in steps:
        m, m_next, along = (certify.ball(v) for v in (run.m[r, t], run.m[r, t + 1], run.along[r, t]))
        drift = s * pop.h(s * m) * (1 - m * m)
        q = m_next - m + eta * along
        printed = m + eta * drift + noise * eta * (along + drift) + q
        gaps.append(printed - m_next)
    where = f"replica {steps[0][0]}, step {steps[0][1]}" if len(steps) == 1 else f"all {len(steps)} recorded steps"
    return certify.compare(certify.largest_abs(gaps), 1e-12, f"|printed rhs - m_(t+1)| <= 1e-12 on {where}")


# =======================================================================================
# Conditions 1–3
CONDITION_1_MS = (-0.6, 0.0, 0.3, 0.8)


@check("condition-1", "Condition 1", "C.1", "monte-carlo")
def condition_1(ctx) -> Outcome:
    """Condition 1 (Unbiased gradient estimates): "For all û, the sample gradient is an unbiased estimate of the population gradient, i.e., ∇̂_û Φ(û) ≜ ∇̂_û E_x[L(û; x)] = E_x[∇̂_û L(û; x)]."

    Reference: :func:`verify.simulate.estimate_gradient` (exact reduced sampler) at several m on
    the run instance and on a separated relu instance: the Monte-Carlo mean of the per-sample
    projected gradient's component along u − mû against −h(m) from the closed form (|z| ≤ 5.33),
    and its residual orthogonal to u − mû against its own noise scale (ratio ≤ 5.33).
    """

    n = ctx.pick(100_000, 1_000_000)
    rows: list[dict[str, Any]] = []
    worst_z, worst_resid = 0.0, 0.0
    for name, inst in (("orthonormal k=4 relu", run_instance(200)),
                       ("separated k=6 erf", separated(6, 200, 1.0, "erf", seed=11))):
        for m in CONDITION_1_MS:
            seed = int(ctx.rng(name, m).integers(2**31))
            est = estimate_gradient(inst, m, n, engine="reduced", seed=seed)
            z = float(est.z_component or 0.0)  # never None: the closed form applies here
            ratio = est.residual_norm / est.residual_noise
            worst_z, worst_resid = max(worst_z, abs(z)), max(worst_resid, ratio)
            rows.append({"instance": name, "m": m, "mc": est.component, "se": est.component_se,
                         "closed_form": est.analytic_component, "z": z, "residual_ratio": ratio})
    numbers = {"worst_abs_z": worst_z, "worst_residual_ratio": worst_resid, "samples": n, "rows": rows}
    if worst_z > Z_CRIT or worst_resid > Z_CRIT:
        bad = max(rows, key=lambda r: max(abs(r["z"]), r["residual_ratio"]))
        return Outcome(Verdict.FAILS, f"sample-gradient mean differs from the population gradient "
                       f"(z = {bad['z']:.2f}, residual ratio {bad['residual_ratio']:.2f})",
                       numbers=numbers, counterexample=bad)
    return Outcome(Verdict.HOLDS, f"E[sample gradient] = -h(m)(u - m u_hat) within |z| <= {worst_z:.2f} "
                   f"at {len(rows)} (instance, m); off-direction residual <= {worst_resid:.2f} x noise",
                   numbers=numbers)


def lemma_17_shape(k: int, xi: float) -> float:
    """Lemma 17's variance bound shape (without C_{p,σ} λ⁴): k³ξ² min{k, 4ξ²}/(k + ξ²)."""
    return k**3 * xi**2 * min(k, 4 * xi**2) / (k + xi**2)


@check("condition-2", "Condition 2", "C.1", "monte-carlo + scaling")
def condition_2(ctx) -> Outcome:
    """Condition 2 (Gradient variance upper bounds): "For each k, and p, there exists some constant V_k ≥ 1 that has at most polynomial growth in k such that 1. Variance bound: For all u, û, we have d^{−p} E_x‖∇̂_u L(û; x)‖_2^{2p} ∨ E_x⟨∇̂_û L(û; x), u⟩^{2p} ≤ (μ_p V_k)^p 2. Population gradient bound: For all û, we have ‖∇̂_û Φ(û)‖² ≤ V_k".

    Measured: M_p(k) = max over five m ∈ [−0.9, 0.9] of (d^{-p}E‖L‖^{2p} ∨ E⟨L,u⟩^{2p})^{1/p}, p = 1, 2,
    orthonormal rows, ξ = 1, relu, λ_i = 1/k (the instance generators' default) and d = 400, for
    k = 2 … 32 (3 draws of c, ĉ each, 5 with --full; the max taken); the growth exponent in k by a log–log fit,
    compared with Lemma 17's shape k³ξ²min{k,4ξ²}/(k+ξ²) times λ_max⁴ = k⁻⁴.  Condition 2 is
    "at most polynomial growth", so CONSISTENT when the fit is a finite power and M_2/M_1 stays
    bounded in k (μ_2 independent of k).
    """

    ks = ctx.pick((2, 4, 8, 16, 32), (2, 4, 8, 16, 32, 64))
    n = ctx.pick(10_000, 100_000)
    draws = ctx.pick(3, 5)
    grid = np.linspace(-0.9, 0.9, 5)
    m1, m2, pop = [], [], []
    for k in ks:
        best1 = best2 = bestpop = 0.0
        for draw in range(draws):
            inst = orthonormal(k, 400, 1.0, "relu", seed=1000 * k + draw)
            rng = ctx.rng(k, draw)
            for m in grid:
                x = moments(inst, float(m), n, rng)
                best1 = max(best1, x.norm2, x.along2)
                best2 = max(best2, math.sqrt(x.norm4), math.sqrt(x.along4))
            ms = np.linspace(-1, 1, 201)
            bestpop = max(bestpop, float(np.max(h_values(inst, ms) ** 2 * (1 - ms**2))))
        m1.append(best1)
        m2.append(best2)
        pop.append(bestpop)
    fit1, fit2 = fit_exponent(ks, m1), fit_exponent(ks, m2)
    shape = [lemma_17_shape(k, 1.0) * k**-4.0 for k in ks]
    fit_shape = fit_exponent(ks, shape)
    ratio = [b / a for a, b in zip(m1, m2, strict=True)]
    numbers = {"k": list(ks), "M1": m1, "M2": m2, "mu2_over_mu1": ratio,
               "sup_population_gradient_sq": pop, "exponent_p1": fit1.describe(),
               "exponent_p2": fit2.describe(), "lemma17_shape_exponent": fit_shape.slope}
    bounded = max(ratio) <= 10 * min(ratio)
    verdict = Verdict.CONSISTENT if bounded and np.isfinite(fit1.slope) else Verdict.INCONCLUSIVE
    return Outcome(verdict, f"max moments grow like k^{fit1.slope:.2f} (p=1) and k^{fit2.slope:.2f} (p=2); "
                   f"Lemma 17's bound shape with lambda=1/k: k^{fit_shape.slope:.2f}; mu_2/mu_1 in "
                   f"[{min(ratio):.2f}, {max(ratio):.2f}]",
                   numbers=numbers, parameters={"d": 400, "xi": 1.0, "activation": "relu", "samples": n,
                                                "draws_per_k": draws},
                   notes=["Measured growth at or below Lemma 17's shape is what the condition needs "
                          "(an upper bound); the population gradient is far below V_k >= 1.",
                          "With lambda = 1/k every moment is < 1, so V_k = 1 satisfies the bound: "
                          "V_k >= 1 makes the condition loose for normalised networks."])


def claimed_condition_3(h_signed_on_grid: np.ndarray, h0: float) -> bool:
    """Condition 3: h(sign(h(0)) m) sign(h(0)) ≥ |h(0)|/2 for all m ≥ 0 (and S_k := |h(0)|/2 > 0)."""
    return bool(h0 != 0 and np.all(h_signed_on_grid >= abs(h0) / 2))


#: S_k's k-exponent for λ_i = 1/k in Theorems 11–13's proofs: γλ²μ_1²/(1+ξ²/k) (orthonormal,
#: ξ = 1), γkλ²μ_1²/2 (orthonormal, ξ = ξ̄√k), γλ²/√k (separated, ξ = 1).
CLAIMED_S_EXPONENT = {"orthonormal xi=1": -2.0, "orthonormal xi=sqrt(k)/2": -1.0, "separated xi=1": -2.5}


H_ZERO_TOL = 1e-12  # h(0) is a sum of O(k²) O(1) terms: cancellation leaves ~1e-16·k²


@check("condition-3", "Condition 3", "C.1", "sampling + scaling")
def condition_3(ctx) -> Outcome:
    """Condition 3 (Population gradient lower bound): "There exists a constant max{S_k, S_k²} ≤ V_k that has at most polynomial decay, such that h satisfies h(sign(h(0))m) sign(h(0)) ≥ |h(0)|/2 ≥ S_k for all m ≥ 0."

    Measured over random draws of (c, ĉ) (quantized, λ_i = 1/k, relu): the fraction of draws for
    which the inequality holds on a 201-point grid of m ∈ [0, 1] (closed-form h), and the median
    of S_k = |h(0)|/2 against k, for orthonormal rows with ξ = 1 and ξ = √k/2 and separated rows
    with ξ = 1 (Theorems 11–13's settings).  The paper proves the condition with high probability
    with S_k ∝ k^{−2}, k^{−1}, k^{−5/2} respectively (λ = 1/k): CONSISTENT when the condition holds
    for most draws and the measured S_k decays no faster than claimed (the claims are lower bounds).
    """

    ks = ctx.pick((4, 8, 16, 32, 64), (4, 8, 16, 32, 64, 128))
    draws = ctx.pick(30, 100)
    grid = np.linspace(0, 1, 201)
    settings = {"orthonormal xi=1": (orthonormal, lambda k: 1.0),
                "orthonormal xi=sqrt(k)/2": (orthonormal, lambda k: math.sqrt(k) / 2),
                "separated xi=1": (separated, lambda k: 1.0)}
    table: dict[str, dict[str, Any]] = {}
    fits: dict[str, Any] = {}
    consistent = True
    for name, (gen, xi_of) in settings.items():
        fractions, medians = [], []
        for k in ks:
            ok, s_vals = 0, []
            seeds = ctx.rng(name, k).integers(2**31, size=draws)
            for seed in map(int, seeds):
                inst = gen(k, k + 4, xi_of(k), "relu", seed=seed)
                h0 = float(h_values(inst, 0.0))
                h0 = 0.0 if abs(h0) < H_ZERO_TOL else h0
                sign = 1.0 if h0 >= 0 else -1.0
                ok += claimed_condition_3(sign * h_values(inst, sign * grid), h0)
                s_vals.append(abs(h0) / 2)
            fractions.append(ok / draws)
            medians.append(float(np.median(s_vals)))
        fit = fit_exponent(ks, medians)
        fits[name] = fit
        table[name] = {"k": list(ks), "fraction_holding": fractions, "median_S_k": medians,
                       "S_k_exponent": fit.describe(), "claimed_exponent": CLAIMED_S_EXPONENT[name]}
        consistent &= min(fractions[1:]) >= 0.5 and fit.high >= CLAIMED_S_EXPONENT[name]
    worst = min(min(v["fraction_holding"]) for v in table.values())
    evidence = "; ".join(f"{n}: holds in {min(v['fraction_holding']):.0%}-{max(v['fraction_holding']):.0%} "
                         f"of draws, S_k ~ k^{fits[n].slope:.2f} (claimed >= k^{CLAIMED_S_EXPONENT[n]:g})"
                         for n, v in table.items())
    return Outcome(Verdict.CONSISTENT if consistent else Verdict.INCONCLUSIVE, evidence,
                   numbers={"settings": table, "worst_fraction": worst},
                   parameters={"draws": draws, "activation": "relu", "lambda": "1/k", "m_grid": 201},
                   notes=["Draws with h(0) = 0 exactly (e.g. sum of c_i c_hat_i cancelling at small k) "
                          "violate the condition: that is the probability the theorems exclude.",
                          "max{S_k, S_k^2} <= V_k holds trivially here: S_k < 1 <= V_k."])


# =======================================================================================
# Theorem 5 / Theorem 16: SGD with the paper's scalings across d
@functools.lru_cache(maxsize=2)
def scaling_runs(seed: int, full: bool) -> dict:
    """Frozen SGD on the run instance for several d, η = δ/(dV_k), m_0 = β/√d·sign(h(0)),
    for 1.5 × the drift time to 1 − ε/6.  Returns per d: the run, the drift-predicted steps."""
    consts = run_constants(seed, full)
    ds, delta, replicas = ((250, 500, 1000, 2000, 4000), 0.5, 48) if full else ((100, 200, 400, 800), 1.0, 24)
    out: dict[str, Any] = {"delta": delta, "ds": ds, "consts": consts, "runs": {}}
    for d in ds:
        inst = run_instance(d)
        eta = delta / (d * consts["V_k"])
        m0 = BETA / math.sqrt(d)
        to_eps = drift_time(inst, consts["sign"], m0, eta, 1 - RUN_EPS)
        to_eps6 = drift_time(inst, consts["sign"], m0, eta, 1 - RUN_EPS / 6)
        to_weak = drift_time(inst, consts["sign"], m0, eta, WEAK_R)
        seq = Context(seed=seed, full=full, check_id="dynamics-scaling").seed_sequence("sgd", d)
        run = record_run(inst, eta, int(1.5 * to_eps6), replicas, seq, m0, consts["sign"])
        out["runs"][d] = {"run": run, "drift_to_eps": to_eps, "drift_to_eps6": to_eps6, "drift_to_weak": to_weak}
    return out


@check("theorem-5", "Theorem 5", "3.1", "simulation + scaling", shares=SGD_RUNS)
def theorem_5(ctx) -> Outcome:
    """Theorem 5 (Informal, see Theorem 16): "Suppose h(m) is "nice" and lower bounded by S_k, the variance of the gradients are upper bounded by V_k. Let m_t = ⟨u_t, u⟩. Then, online SGD run with step size η = δ/(dV_k) and scaling δ = min{S_kε³/(4μ_1(log dV_k)²), 1} for time T = ⌈αdV_k⌉ with time scaling α = 4(log dV_k)/(εδS_k) and initialization at |m_0| ≥ β/√d with m_0h(0) > 0, the correlation satisfies |m_t| ≥ 1 − ε at time T."

    Measured: frozen-mode online SGD (exact reduced engine) on an orthonormal k = 4, ξ = 1,
    relu instance satisfying Condition 3 (S_k = |h(0)|/2, V_k measured as in Condition 2, μ_1 = 1),
    η = δ/(dV_k) with a constant δ (1 quick, 0.5 full; the literal δ would need ~10⁸–10¹¹ steps),
    m_0 = β/√d·sign(h(0)), β = 1/2; the first time |m_t| ≥ 1 − ε (ε = 0.1), median over replicas,
    against d.  The claim is T = Θ̃(dV_k): CONSISTENT when the 99.9 % CI of the log–log slope
    contains 1 or lies within [0.9, 1.15] (the log(dV_k) in α moves the local slope by ≤ 1/log(dV_k)).
    The observed time is also compared with the drift map's (eq. (6) without noise).
    """
    data = scaling_runs(ctx.seed, ctx.full)
    ds, times, drift, reached = [], [], [], []
    for d, entry in data["runs"].items():
        hits = first_hit(entry["run"].m, 1 - RUN_EPS)
        reached.append(float(np.mean(hits >= 0)))
        ds.append(d)
        times.append(float(np.median(np.where(hits >= 0, hits, entry["run"].steps * 10))))
        drift.append(entry["drift_to_eps"])
    fit = fit_exponent(ds, times)
    ratio = [t / p for t, p in zip(times, drift, strict=True)]
    consts = data["consts"]
    ok = min(reached) == 1.0 and (fit.contains(1.0) or (fit.low >= 0.9 and fit.high <= 1.15))
    numbers = {"d": ds, "median_steps_to_1_minus_eps": times, "drift_predicted_steps": drift,
               "observed_over_drift": ratio, "fraction_reaching": reached, "exponent": fit.describe(),
               "S_k": consts["S_k"], "V_k": consts["V_k"]}
    return Outcome(Verdict.CONSISTENT if ok else Verdict.INCONCLUSIVE,
                   f"steps to |m| >= 1 - eps grow like d^{fit.slope:.3f} (CI [{fit.low:.3f}, {fit.high:.3f}]); "
                   f"observed/drift-predicted = {min(ratio):.2f}-{max(ratio):.2f}; all replicas recover",
                   numbers=numbers,
                   parameters={"k": RUN_K, "xi": RUN_XI, "activation": RUN_ACTIVATION, "lambda": RUN_LAM,
                               "instance_seed": 4, "delta": data["delta"], "beta": BETA, "eps": RUN_EPS,
                               "replicas": data["runs"][ds[0]]["run"].m.shape[0]},
                   notes=["delta is a constant, not the theorem's S_k eps^3/(4 mu_1 log^2(dV_k)): the "
                          "claim tested is the scaling eta = delta/(dV_k) => time linear in d."])


def claimed_t_weak(d, v_k, delta, s_k):
    """Theorem 16's statement: T_weak = ⌈4dV_k/(δS_k)⌉."""
    return sympy.ceiling(4 * d * v_k / (delta * s_k))


def claimed_alpha(d, v_k, delta, s_k, eps):
    """Theorem 16: α = 4 log(dV_k)/(εδS_k), T = ⌈αdV_k⌉."""
    return 4 * sympy.log(d * v_k) / (eps * delta * s_k)


MAX_UNFINISHED = 0.25  # replicas still below 1 − ε/6 at the window's end (the window ≪ T)


@check("theorem-16", "Theorem 16", "C.1", "simulation", shares=SGD_RUNS)
def theorem_16(ctx) -> Outcome:
    """Theorem 16: "Let Conditions 1 to 3 hold. Let 0 < ε < 1. Let m_t = ⟨u_t, u⟩ and set the learning rate η = δ/(dV_k) with scaling δ = min{S_kε³/(4μ_1(log dV_k)²), 1}, for total time T = ⌈αdV_k⌉ with time scaling α = 4(log dV_k)/(εδS_k) and initialization at |m_0| ≥ β/√d with m_0h(0) > 0. With probability at least 1 − o(1) the following holds for T = ⌈αdV_k⌉ and T_weak = ⌈4dV_k/(δS_k)⌉ = o(T): (Weak recovery): sup_{t≤T_weak}|m_t| ≥ r (Strong recovery): |m_T| ≥ 1 − ε".

    Measured on the runs of ``theorem-5`` (constant δ, stated): per d, the fraction of replicas
    with sup_{t ≤ T_weak}|m_t| ≥ r (r = 1/2, Lemma 34's choice) and the fraction that reach
    1 − ε/6 and then stay ≥ 1 − ε for the rest of the simulated window (the proof's route to
    |m_T| ≥ 1 − ε); T itself (∝ d log d/ε) is 10–100× the window, reported.  Observed recovery
    times are compared with T_weak and T.  "1 − o(1)" cannot fail at finite d: CONSISTENT when
    every replica recovers weakly by T_weak, none drops below 1 − ε after reaching 1 − ε/6, and
    at most MAX_UNFINISHED of them are still short of 1 − ε/6 when the window (≪ T) ends;
    INCONCLUSIVE otherwise.  The constants are checked in theorem-16-constants.
    """
    data = scaling_runs(ctx.seed, ctx.full)
    consts = data["consts"]
    s_k, v_k, delta = consts["S_k"], consts["V_k"], data["delta"]
    rows, all_ok = [], True
    for d, entry in data["runs"].items():
        run = entry["run"]
        t_weak = int(claimed_t_weak(d, v_k, delta, s_k))
        big_t = int(sympy.ceiling(claimed_alpha(d, v_k, delta, s_k, RUN_EPS) * d * v_k))
        weak_ok = (np.abs(run.m[:, :t_weak + 1]).max(axis=1) >= WEAK_R)
        hit6 = first_hit(run.m, 1 - RUN_EPS / 6)
        stay = np.array([h >= 0 and run.m[i, h:].min() >= 1 - RUN_EPS for i, h in enumerate(hit6)])
        # A replica that has not reached 1 − ε/6 by the end of the window has not had the
        # theorem's T (10–100× longer): it is "not yet", not a counterexample.  A violation is
        # missing weak recovery by T_weak, or dropping below 1 − ε after reaching 1 − ε/6.
        dropped = np.array([h >= 0 and run.m[i, h:].min() < 1 - RUN_EPS for i, h in enumerate(hit6)])
        unfinished = hit6 < 0
        all_ok &= bool(weak_ok.all() and not dropped.any() and unfinished.mean() <= MAX_UNFINISHED)
        rows.append({"d": d, "T_weak": t_weak, "T": big_t, "simulated_window": run.steps,
                     "median_weak_time": float(np.median(first_hit(run.m, WEAK_R))),
                     "median_time_to_1_minus_eps6": float(np.median(hit6)),
                     "weak_fraction": float(weak_ok.mean()), "strong_and_stay_fraction": float(stay.mean()),
                     "dropped_below_1_minus_eps": int(dropped.sum()),
                     "not_yet_at_1_minus_eps6_in_window": int(unfinished.sum()),
                     "min_m_after_1_minus_eps6": float(min(run.m[i, h:].min() for i, h in enumerate(hit6)
                                                           if h >= 0))})
    literal_delta = s_k * RUN_EPS**3 / (4 * math.log(1000 * v_k) ** 2)
    literal_t = 4 * math.log(1000 * v_k) / (RUN_EPS * literal_delta * s_k) * 1000 * v_k
    return Outcome(Verdict.CONSISTENT if all_ok else Verdict.INCONCLUSIVE,
                   f"every replica: weak recovery by T_weak (observed median {rows[-1]['median_weak_time']:.0f} "
                   f"<< T_weak = {rows[-1]['T_weak']} at d = {rows[-1]['d']}) and m >= 1 - eps after first "
                   f"reaching 1 - eps/6, over windows of {rows[0]['simulated_window']}-{rows[-1]['simulated_window']} steps "
                   f"({sum(r['not_yet_at_1_minus_eps6_in_window'] for r in rows)} replicas still short of 1 - eps/6 "
                   "at the window's end, which is << T)"
                   if all_ok else "a replica missed weak recovery by T_weak, dropped below 1 - eps after reaching "
                   f"1 - eps/6, or more than {MAX_UNFINISHED:.0%} were unfinished (see rows)",
                   numbers={"rows": rows, "literal_delta_at_d1000": literal_delta,
                            "literal_T_at_d1000": literal_t},
                   parameters={"delta": delta, "eps": RUN_EPS, "r": WEAK_R, "beta": BETA, "S_k": s_k, "V_k": v_k},
                   notes=["r is not defined in the statement; the proof takes r < 1/sqrt(2), then r = 1/2.",
                          "The bounds are loose: observed weak recovery is ~10x earlier than T_weak, "
                          "strong recovery far earlier than T.",
                          f"With the literal delta the run would need T ~ {literal_t:.1e} steps at d = 1000."])


def _t16_margin(dv, eps, t_weak_factor):
    """(T − T_weak − ⌈6/(ηS_kε)⌉)/X in units X = dV_k/(δS_k), ceilings dropped."""
    return 4 * math.log(dv) / eps - t_weak_factor - 6 / eps


@check("theorem-16-constants", "Theorem 16 (constants and proof steps)", "C.1 / E.3", "symbolic")
def theorem_16_constants(ctx) -> Outcome:
    """Theorem 16: "T_weak = ⌈4dV_k/(δS_k)⌉ = o(T)" with T = ⌈αdV_k⌉, α = 4(log dV_k)/(εδS_k); its proof: "at time T_weak = ⌈2/(ηS_k)⌉, the RHS is larger than 1 … T = ⌈dV_k(log dV_k)/(δS_kε)⌉ which is larger than T_weak + ⌈6/(ηS_kε)⌉".

    Reference: SymPy with η = δ/(dV_k): T/T_weak → log(dV_k)/ε (so T_weak = o(T) as d → ∞);
    the proof's ⌈2/(ηS_k)⌉ = ⌈2dV_k/(δS_k)⌉ against the statement's ⌈4dV_k/(δS_k)⌉; and the
    proof's inequality T ≥ T_weak + ⌈6/(ηS_kε)⌉ over a grid of (dV_k, ε), with exact ceilings
    at X = dV_k/(δS_k) ∈ {10, 10³, 10⁵}.
    """
    d, v, delta, s, eps = sympy.symbols("d V_k delta S_k epsilon", positive=True)
    eta = delta / (d * v)
    t_weak_statement = 4 * d * v / (delta * s)
    t_weak_proof = 2 / (eta * s)
    big_t = claimed_alpha(d, v, delta, s, eps) * d * v
    ratio = sympy.simplify(big_t / t_weak_statement)
    o_of_t = sympy.limit(ratio, d, sympy.oo) == sympy.oo
    proof_vs_statement = sympy.simplify(t_weak_statement / t_weak_proof)
    # the proof's inequality; ceilings exact on a grid
    worst, counter = math.inf, None
    for dv in (4.0, 5.0, 7.0, 8.0, 20.0, 1e3, 1e6):
        for e in (0.05, 0.3, 0.5, 0.9, 0.99):
            for x in (10.0, 1e3, 1e5):
                lhs = math.ceil(4 * math.log(dv) / e * x)
                rhs = math.ceil(2 * x) + math.ceil(6 * x / e)
                margin = (lhs - rhs) / x
                if margin < worst:
                    worst, counter = margin, {"dV_k": dv, "eps": e, "X=dV_k/(delta S_k)": x, "T": lhs,
                                              "T_weak + ceil(6/(eta S_k eps))": rhs}
    threshold = sympy.solve(sympy.Eq(4 * sympy.log(sympy.Symbol("y")) / eps - 2 - 6 / eps, 0), sympy.Symbol("y"))
    ok = o_of_t and proof_vs_statement == 2
    notes = [f"T/T_weak = {sympy.sstr(ratio)} -> oo: T_weak = o(T) holds.",
             "The proof's T_weak = ceil(2/(eta S_k)) = ceil(2dV_k/(delta S_k)) is half the statement's: "
             "the statement is weaker, hence implied.  But Lemma 33's proof yields m_t >= beta/(2 sqrt d) + "
             "t eta S_k/4, which gives exactly the statement's ceil(4dV_k/(delta S_k)).",
             f"The proof's 'T > T_weak + ceil(6/(eta S_k eps))' needs dV_k >= {sympy.sstr(threshold)}: "
             "its own fail, check theorem-16-proof-time.",
             "The proof restates T = ceil(dV_k log(dV_k)/(delta S_k eps)) without the factor 4 of alpha; "
             "with that T the inequality would need dV_k >= e^(6 + 2 eps).",
             "The proof concludes m_T >= 1 - eps/2 (stronger than the statement)."]
    outcome = Outcome(Verdict.HOLDS if ok else Verdict.FAILS,
                   "T_weak = o(T) (T/T_weak = log(dV_k)/eps); statement's T_weak = 2 x proof's (weaker, "
                   "implied)" if ok else "Theorem 16's constants are not consistent (see numbers)",
                   numbers={"T_over_T_weak": sympy.sstr(ratio), "statement_over_proof_T_weak":
                            sympy.sstr(proof_vs_statement), "worst_margin_over_grid": worst,
                            "worst_grid_point": counter},
                   counterexample=None if ok else {"T_over_T_weak": sympy.sstr(ratio)},
                   notes=notes)
    weak = Outcome(Verdict.HOLDS if proof_vs_statement == 2 else Verdict.FAILS,
                   "at T_weak = ceil(2/(eta S_k)) Lemma 33's right side t eta S_k/2 reaches 1; the statement's "
                   f"T_weak is {sympy.sstr(proof_vs_statement)} x the proof's (weaker, implied)", basis=Basis.EXACT,
                   scope="statement", counterexample=None if proof_vs_statement == 2 else {"ratio": str(proof_vs_statement)})
    later = Outcome(Verdict.HOLDS if o_of_t else Verdict.FAILS,
                    f"T/T_weak = {sympy.sstr(ratio)}: T_weak <= T once log(dV_k) >= eps (dV_k >= 3 > e), and "
                    "T_weak = o(T)", basis=Basis.EXACT, scope="statement: dV_k >= e",
                    counterexample=None if o_of_t else {"T_over_T_weak": sympy.sstr(ratio)})
    outcome.parts = {"E.3.3-r28": weak, "E.3.3-r30": later}
    return outcome


@check("theorem-16-proof-time", "proof of Theorem 16 (T against T_weak + ceil(6/(eta S_k eps)))", "E.3.3",
       "exact")
def theorem_16_proof_time(ctx) -> Outcome:
    """Proof of Theorem 16: "T = ⌈dV_k(log dV_k)/(δS_kε)⌉ which is larger than T_weak + ⌈6/(ηS_kε)⌉", with T = ⌈αdV_k⌉, α = 4(log dV_k)/(εδS_k) and T_weak = ⌈2/(ηS_k)⌉, η = δ/(dV_k).

    Reference: exact integer ceilings with X = dV_k/(δS_k): T = ⌈4X log(dV_k)/ε⌉ against
    ⌈2X⌉ + ⌈6X/ε⌉, on a grid of dV_k ∈ {4, …, 10⁶}, ε ∈ (0, 1), X ∈ {10, 10³, 10⁵}; the logarithm
    is compared in exact rationals bracketing it (mpmath at 30 digits, margins ≥ 1e-3).  Without
    ceilings the inequality reads 4 log(dV_k) ≥ 2ε + 6, i.e. dV_k ≥ e^(3/2 + ε/2) ≤ e² ≈ 7.4.
    """
    worst, counter = math.inf, None
    with mpmath.workdps(30):
        for dv in (4, 5, 7, 8, 20, 1000, 10**6):
            for e in (sympy.Rational(1, 20), sympy.Rational(3, 10), sympy.Rational(1, 2), sympy.Rational(9, 10)):
                for x in (10, 1000, 10**5):
                    value = 4 * x * mpmath.log(dv) / mpmath.mpf(e.p) * e.q
                    lhs = int(mpmath.ceil(value))
                    rhs = math.ceil(2 * x) + math.ceil(sympy.Rational(6 * x) / e)
                    margin = (lhs - rhs) / x
                    if margin < worst:
                        worst, counter = margin, {"dV_k": dv, "eps": str(e), "X=dV_k/(delta S_k)": x, "T": lhs,
                                                  "T_weak + ceil(6/(eta S_k eps))": rhs}
    if worst > 0:
        return Outcome(Verdict.HOLDS, "T > T_weak + ceil(6/(eta S_k eps)) on the whole grid", basis=Basis.EXACT,
                       scope="instances: the grid of the docstring")
    return Outcome(
        Verdict.FAILS,
        f"T > T_weak + ceil(6/(eta S_k eps)) fails for small dV_k: {counter}; it needs dV_k >= e^(3/2 + eps/2) "
        "(<= e^2 ~ 7.4)",
        basis=Basis.EXACT, failure_kind=FailureKind.STEP, impact=Impact.BOUNDARY, counterexample=counter,
        correction="T > T_weak + ceil(6/(eta S_k eps)) for dV_k >= e^2 (a hypothesis the proof's d -> oo regime "
                   "meets; Theorem 16's T_weak = o(T) is unaffected)",
        correction_verified=None,
        notes=["Boundary: the inequality fails only for dV_k < e^(3/2 + eps/2), outside the large-d regime of "
               "the statement; the correction's range is the exact solution of 4 log y = 2 eps + 6."])
