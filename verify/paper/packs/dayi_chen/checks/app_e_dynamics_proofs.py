r"""Appendix E: the finite-sample analysis — the E.1 update display, Claims 5–9, Lemma 31
(Freedman's inequality), Proposition 32, Lemmas 33–34.

Simulated checks read the recorded runs of :mod:`verify.paper.packs.dayi_chen.checks.app_c1_dynamics`
(``paper_run``: η = δ/(dV_k), m_0 = β/√d·sign(h(0)), every step's ‖L_j‖², ⟨L_j, u⟩, Π_j).
Each claim is evaluated on the prefix of length T = ⌈αdV_k⌉ with α at the edge of that
claim's own hypothesis (e.g. αδ² = ε for Claim 6), which the claims allow.  Bounds written
with ≲ (unspecified constants) cannot fail on a constant: they are reported as measured
frequencies against the explicit Markov/Doob bound of the proof, computed from measured
moments, and judged CONSISTENT or INCONCLUSIVE.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import sympy

from verify.checks import certify
from verify.checks.certify import attempt
from verify.checks.core import check
from verify.paper.packs.dayi_chen.checks.app_c1_dynamics import (
    BETA,
    RUN_EPS,
    SGD_RUNS,
    WEAK_R,
    drift_time,
    first_hit,
    h_values,
    paper_run,
    record_run,
    run_constants,
    run_instance,
)
from verify.simulate.model import terms
from verify.simulate.modes import MODES
from verify.simulate.problem import build_problem
from verify.verdict import (
    Z_CRIT,
    Basis,
    FailureKind,
    Impact,
    Outcome,
    Verdict,
    compare_probability,
    fit_exponent,
    residual_text,
)


# =======================================================================================
# Lemma 31: Freedman's inequality, against the exact law of the ±1 random walk
def claimed_freedman_log_bound(t, lam, v, k):
    """Lemma 31 as printed: log Pr[S_t ≤ −λ] ≤ −λ²/(tV + λK/3)."""
    return -(lam**2) / (t * v + lam * k / 3)


def corrected_freedman_log_bound(t, lam, v, k):
    """Freedman (1975) / Bernstein form: log Pr[S_t ≤ −λ] ≤ −λ²/(2(tV + λK/3))."""
    return -(lam**2) / (2 * (t * v + lam * k / 3))


def walk_log_tails(t: int) -> list[tuple[int, float]]:
    """(λ, log Pr[S_t ≤ −λ]) for the ±1 walk at every attainable λ > 0, from exact integers:
    S_t = 2B − t with B ~ Bin(t, 1/2), so Pr[S_t ≤ −λ] = 2^{−t} Σ_{b ≤ (t−λ)/2} C(t, b)."""
    out, cum, term, log2 = [], 0, 1, math.log(2)
    for b in range((t + 1) // 2):
        cum += term  # term = C(t, b), updated exactly: C(t, b+1) = C(t, b)(t − b)/(b + 1)
        term = term * (t - b) // (b + 1)
        lam = t - 2 * b
        if lam <= 0:
            break
        out.append((lam, math.log(cum) - t * log2))
    return out


@check("lemma-31", "Lemma 31", "E.1.1", "exact")
def lemma_31(ctx) -> Outcome:
    """Lemma 31 (Freedman's inequality): "Let M_t be a submartingale with E[(M_{t+1} − M_t)² | F_t] ≤ V and |M_{t+1} − M_t| ≤ K almost surely. Then, Pr[S_t ≤ −λ] ≤ exp{−λ²/(tV + (λ/3)K)}".

    Reference: the ±1 simple random walk M_t (a martingale, hence a submartingale, with V = K = 1),
    S_t read as M_t − M_0 (S_t is not defined in the statement).  Pr[S_t ≤ −λ] is computed
    EXACTLY (binomial sums in Python integers; logs compared in float64, relative error 1e-15,
    far below the margins found) at every attainable λ (where the tail's step is worst for a
    bound decreasing in λ) for t = 1 … 300 (2000 with --full) and at t = 10⁴.  The cited
    result (Freedman 1975, Bernstein form) carries a factor 2: exp{−λ²/(2(tV + λK/3))}; the
    correction is verified on the same family.
    """
    t_max = ctx.pick(300, 2000)
    worst_ratio, corrected_worst = -math.inf, -math.inf
    worst_at: tuple[int, int, float] = (0, 0, 0.0)
    smallest: tuple[int, int, float] | None = None
    tails = {t: walk_log_tails(t) for t in [*range(1, t_max + 1), 10_000]}
    for t, rows in tails.items():
        for lam, log_p in rows:
            excess = log_p - claimed_freedman_log_bound(t, lam, 1, 1)
            if excess > worst_ratio:
                worst_ratio, worst_at = excess, (t, lam, log_p)
            if excess > 0 and smallest is None:
                smallest = (t, lam, log_p)
            corrected_worst = max(corrected_worst, log_p - corrected_freedman_log_bound(t, lam, 1, 1))
    t4, lam4 = 10_000, 300  # λ = 3√t
    log_p4 = dict(tails[t4])[lam4]
    numbers = {"t_max_scanned": t_max, "worst_log_ratio": worst_ratio,
               "worst_ratio_log10": worst_ratio / math.log(10), "worst_at_t_lambda": worst_at[:2],
               "t1e4_lambda300_probability": math.exp(log_p4),
               "t1e4_lambda300_printed_bound": math.exp(claimed_freedman_log_bound(t4, lam4, 1, 1)),
               "t1e4_lambda300_corrected_bound": math.exp(corrected_freedman_log_bound(t4, lam4, 1, 1)),
               "corrected_worst_log_ratio": corrected_worst}
    correct_ok = corrected_worst < 0
    if smallest is None:
        return Outcome(Verdict.CITED, f"Freedman's inequality (cited); the printed bound holds on the ±1 walk "
                       f"for every t <= {t_max} and t = 1e4 (worst log ratio {worst_ratio:.3f})",
                       numbers=numbers)
    t0, lam0, lp0 = smallest
    outcome = Outcome(
        Verdict.FAILS,
        f"±1 random walk (V = K = 1): Pr[S_{t0} <= -{lam0}] = {math.exp(lp0):.4g} > printed bound "
        f"{math.exp(claimed_freedman_log_bound(t0, lam0, 1, 1)):.4g}; at t = 1e4, lambda = 300: "
        f"{math.exp(log_p4):.3g} vs {numbers['t1e4_lambda300_printed_bound']:.3g}; worst ratio "
        f"10^{worst_ratio / math.log(10):.1f} (t = {worst_at[0]}, lambda = {worst_at[1]})",
        numbers=numbers,
        counterexample={"martingale": "simple ±1 random walk, M_0 = 0", "V": 1, "K": 1, "t": t0,
                        "lambda": lam0, "exact_probability": math.exp(lp0),
                        "printed_bound": math.exp(claimed_freedman_log_bound(t0, lam0, 1, 1)),
                        "t=1e4,lambda=300": {"exact": math.exp(log_p4),
                                              "printed": numbers["t1e4_lambda300_printed_bound"]}},
        correction="Pr[M_t - M_0 <= -lambda] <= exp{-lambda^2 / (2(tV + lambda K/3))} (Freedman 1975, "
                   "Bernstein form)",
        correction_verified=correct_ok, basis=Basis.NUMERICAL,
        notes=["Decided by: exact tail probabilities (integer binomial sums) whose logs are compared with the "
               "bound in float64, without an error bound (the margins are far above rounding).",
               "S_t is undefined in the statement; read as M_t - M_0.",
               "Claim 7 uses the printed form; with the factor 2 its exponent halves, which the "
               "unspecified constant C absorbs, so Claim 7's conclusion is unaffected.",
               f"Corrected bound: worst log(probability/bound) over the family = {corrected_worst:.3f} < 0."])

    return attempt(outcome, lambda: _certify_lemma_31(t0, lam0), exact_parts="Pr[S_t <= -lambda] (integers)")


def walk_tail(t: int, lam: int) -> Fraction:
    """Pr[S_t ≤ −λ] for the ±1 walk, exactly: 2^{−t} Σ_{b ≤ (t−λ)/2} C(t, b)."""
    return Fraction(sum(math.comb(t, b) for b in range((t - lam) // 2 + 1)), 2**t)


def _certify_lemma_31(t: int, lam: int):
    """The first counterexample in balls: log of the exact tail probability against the printed
    log bound (claimed_freedman_log_bound with V = K = 1, evaluated on balls)."""

    log_p = certify.ball(walk_tail(t, lam)).log()
    bound = certify.as_ball(certify.call_hook(claimed_freedman_log_bound, certify.ball(t), certify.ball(lam),
                                              certify.ball(1), certify.ball(1)), "claimed_freedman_log_bound")
    return certify.compare(log_p, bound, f"log Pr[S_{t} <= -{lam}] <= -lambda^2/(tV + lambda K/3) (V = K = 1)")


# =======================================================================================
# E.1's update display
@check("e1-update-display", "App. E.1 (update of m_t)", "E.1", "exact + simulation", shares=SGD_RUNS)
def e1_update_display(ctx) -> Outcome:
    """Appendix E.1: "m_{t+1} = (m_t − η⟨∇̂_{u_t}L(u_t; x_t), u⟩)/Π_t = m_t − η∇̂_{u_t}Φ(u_t) − η⟨∇̂_{u_t}E(u_t; x_t), u⟩ − (1 − 1/Π_t)(m_t − η⟨∇̂_{u_t}L(u_t; x_t), u⟩)."

    Reference: the first equality is exact algebra (checked on recorded steps, 1e-12); in the
    second, the term η∇̂Φ(u_t) is a d-vector (Prop. 4: −h(m)(u − m û)) added to scalars, so the
    display is ill-typed as printed; the scalar meant is η⟨∇̂Φ(u_t), u⟩ = −ηh(m_t)(1 − m_t²).
    The corrected display is checked on recorded SGD steps with exact h (tolerance 1e-12).
    """
    run, info = paper_run(ctx.seed, ctx.full)
    j = slice(0, 200)
    m, mn, pi, a = run.m[:, :-1][:, j], run.m[:, 1:][:, j], run.pi[:, j], run.along[:, j]
    sign = info["sign"]
    grad_u = -sign * h_values(run_instance(run.d), sign * m) * (1 - m**2)  # ⟨∇̂Φ, u⟩
    first = float(np.abs((m - run.eta * a) / pi - mn).max())
    e = a - grad_u
    corrected = m - run.eta * grad_u - run.eta * e - (1 - 1 / pi) * (m - run.eta * a)
    corr = float(np.abs(corrected - mn).max())
    # the printed vector term at one recorded state, in d dimensions: -h(m)(u - m û)
    d = run.d
    m0 = float(m[0, 0])
    vec_norm = abs(float(h_values(run_instance(d), sign * m0))) * math.sqrt(1 - m0**2)
    update = Outcome(Verdict.CONSISTENT if first <= 1e-12 else Verdict.INCONCLUSIVE,
                     f"m_(t+1) = (m_t - eta<L_t, u>)/Pi_t on {m.size} recorded steps: max error "
                     f"{residual_text(first, 1e-12)} (float64)", basis=Basis.NUMERICAL,
                     scope="instances: recorded SGD steps")
    outcome = Outcome(
        Verdict.FAILS,
        failure_kind=FailureKind.AS_PRINTED,
        evidence=f"the display subtracts the d-vector eta*grad-hat Phi(u_t) (norm {run.eta * vec_norm:.3g} at "
        f"m = {m0:.3g}, d = {d}) from scalars; with eta<grad-hat Phi(u_t), u> = -eta h(m)(1 - m^2) "
        f"it is exact (max error {residual_text(corr, 1e-12)} over {m.size} recorded steps)",
        numbers={"first_equality_max_error": first, "corrected_max_error": corr},
        counterexample={"d": d, "m_t": m0, "printed_term": "eta * grad-hat Phi(u_t) in R^d",
                        "its_norm": run.eta * vec_norm,
                        "scalar_meant": run.eta * float(grad_u[0, 0])},
        correction="m_{t+1} = m_t - eta<grad-hat Phi(u_t), u> - eta<E_t, u> - (1 - 1/Pi_t)(m_t - eta<L_t, u>), "
                   "with <grad-hat Phi(u_t), u> = -h(m_t)(1 - m_t^2)",
        correction_verified=corr <= 1e-12 and first <= 1e-12, basis=Basis.NONE,
        notes=["Decided by: the type argument (a d-vector in a scalar identity), not by a computation; the "
               "recorded steps (float64, 1e-12) only verify the corrected display."])
    outcome.parts = {"E.1-2": update, "E.1-3": outcome.part()}
    return outcome


# =======================================================================================
# Claim 5: explicit d-dimensional loop with the simulator's per-sample gradient
def claimed_claim5_rhs(eta, norm2, along):
    """Claim 5's right side, cumulative: η³ Σ‖L_j‖²|⟨L_j,u⟩| + η² Σ‖L_j‖²."""
    return np.cumsum(eta**3 * norm2 * np.abs(along) + eta**2 * norm2, axis=-1)


def explicit_steps(instance, eta: float, steps: int, rng: np.random.Generator):
    """Online SGD (eq. (4)) with x ∈ R^d drawn explicitly and L_t formed as a d-vector:
    L = Π_{û⊥} Π_{span(W)⊥} ∇L(û; x) from :func:`verify.simulate.model.terms` (frozen ĉ).
    Returns per step m_t, ‖L_t‖², ⟨L_t, u⟩, ⟨L_t, u_t⟩, Π_t."""

    pb = build_problem(instance, MODES["frozen"])
    Q, u = pb.Q, pb.u
    assert Q is not None and u is not None  # generated instances carry W and u
    g = rng.standard_normal(pb.d)
    g -= Q @ (Q.T @ g)
    U = g / np.linalg.norm(g)
    rec = np.empty((steps, 5))
    for t in range(steps):
        x = rng.standard_normal(pb.d)
        y = Q.T @ x
        zh = np.array([x @ U])
        tm = terms(pb, (y @ pb.L.T)[None, :], np.array([x @ u]), zh, None, pb.c_hat, need_c=False)
        L = tm.kx[0] * (x - Q @ y)
        L -= (L @ U) * U
        v = U - eta * L
        pi = float(np.linalg.norm(v))
        rec[t] = (U @ u, L @ L, L @ u, L @ U, pi)
        U = v / pi
    return rec


PI_ROUNDING = 1e-14  # relative rounding of Π_t = ‖u_t − ηL_t‖ in float64 at d = 60 (60·eps ≈ 7e-15)


@check("claim-5", "Claim 5", "E.1.1", "simulation + search", shares=SGD_RUNS)
def claim_5(ctx) -> Outcome:
    """Claim 5 (Relating spherical projection error to L_t): "Σ_{j<t} |(1 − 1/Π_j)(m_j − η⟨∇̂_{u_j}L(u_j; x_j), u⟩)| ≤ η³ Σ_{j<t} ‖L_j‖²|⟨L_j, u⟩| + η² Σ_{j<t} ‖L_j‖²"; its proof: "because u_t is perpendicular to the spherical gradient … 1 ≤ Π_t ≤ √(1 + η²‖∇̂L‖²) ≤ 1 + η²‖∇̂L‖²".

    Reference: an explicit d-dimensional loop (d = 60, L_t formed as a vector from the
    simulator's per-sample gradient terms) for several step sizes from the paper's scale up to
    η = 0.5, 2000 steps each: Π_t² = 1 + η²‖L_t‖² (exact since L_t ⊥ u_t; relative tolerance 1e-12),
    and the claimed inequality at every t (the worst ratio LHS/RHS is reported; > 1 fails).
    """
    inst = run_instance(60)
    rng = ctx.rng("claim5")
    consts = run_constants(ctx.seed, ctx.full)
    worst_ratio, worst_pi, worst_perp, rows = 0.0, 0.0, 0.0, []
    for eta in (0.5 / (60 * consts["V_k"]), 0.01, 0.1, 0.5):
        rec = explicit_steps(inst, eta, ctx.pick(2000, 10000), rng)
        m, n2, a, perp, pi = rec.T
        worst_perp = max(worst_perp, float(np.max(np.abs(perp) / np.sqrt(n2 + 1e-300))))
        worst_pi = max(worst_pi, float(np.max(np.abs(pi**2 - (1 + eta**2 * n2)) / pi**2)))
        lhs = np.cumsum(np.abs((1 - 1 / pi) * (m - eta * a)))
        rhs = claimed_claim5_rhs(eta, n2, a)
        # Π_t is the norm of a rounded 60-vector: relative error ≤ 60·eps ≈ 7e-15.  A step
        # with L_t = 0 exactly (relu: every student unit inactive) has Π_t = 1 in exact
        # arithmetic but may round to 1 ± eps, which would make LHS > 0 = RHS; so each
        # term of the LHS carries that rounding allowance on the right.
        allowance = np.cumsum(PI_ROUNDING * np.abs(m - eta * a))
        ratio = float(np.max(lhs / (rhs + allowance)))
        worst_ratio = max(worst_ratio, ratio)
        rows.append({"eta": eta, "max_lhs_over_rhs": ratio})
    numbers = {"max_lhs_over_rhs": worst_ratio, "max_relative_|Pi^2 - 1 - eta^2|L|^2|": worst_pi,
               "max_|<L,u_t>|/|L|": worst_perp, "rows": rows}
    if worst_ratio > 1 or worst_pi > 1e-12:
        return Outcome(Verdict.FAILS, f"Claim 5 violated: LHS/RHS = {worst_ratio:.3g}", numbers=numbers,
                       counterexample=max(rows, key=lambda r: r["max_lhs_over_rhs"]), basis=Basis.NUMERICAL)
    return Outcome(Verdict.HOLDS, f"on explicit d = 60 trajectories (eta up to 0.5): LHS/RHS <= {worst_ratio:.3f}; "
                   f"Pi_t^2 = 1 + eta^2 |L_t|^2 to {worst_pi:.1e}",
                   numbers=numbers, basis=Basis.NUMERICAL,
                   notes=["Decided by: the deterministic inequality in float64 on every step of sampled "
                          "trajectories (a search that found no counterexample), not by a statistical test.",
                          "Deterministic inequality; it follows from 1 - 1/Pi <= Pi - 1 <= eta^2|L|^2/2 and "
                          "|m_t| <= 1 (loose by ~2x: the ratio stays near 1/2 or below)."])


# =======================================================================================
# Claims 6–9: probability bounds on the recorded run
def _prefix(alpha: float, info: dict) -> int:
    """T = ⌈α d V_k⌉, capped by the recorded horizon."""
    return min(int(math.ceil(alpha * info["d"] * info["V_k"])), info["horizon"])


def claimed_claim6_rate(d: int, beta: float) -> float:
    """Claim 6's first rate, 1/(β√d) (up to an unspecified constant)."""
    return 1 / (beta * math.sqrt(d))


@check("claim-6", "Claim 6", "E.1.1", "simulation", shares=SGD_RUNS)
def claim_6(ctx) -> Outcome:
    """Claim 6 (Bounding cubic terms): "Let α, δ be such that αδ² ≤ ε and δ ≤ 1. Then, we have Pr[sup_{0≤t≤T} η³ Σ_{j=0}^t ‖L_j‖²|⟨L_j, u⟩| > β/(10√d)] ≲ 1/(β√d). Similarly, we have Pr[sup_{0≤t≤T} η³ Σ_{j=0}^t ‖L_j‖²|⟨L_j, u⟩| > ε/18] ≲ 1/d".

    Measured on the shared run with α = ε/δ² (the hypothesis' edge): the two event frequencies
    over replicas (Clopper–Pearson), against the proof's explicit Markov bound η³T·E[‖L‖²|⟨L,u⟩|]/γ
    with E measured on the same steps.  A ≲ bound cannot fail on a constant: CONSISTENT when the
    events are rare and the Markov chain of the proof holds.
    """
    run, info = paper_run(ctx.seed, ctx.full)
    t_end = _prefix(RUN_EPS / info["delta"] ** 2, info)
    cubic = run.eta**3 * np.cumsum(run.norm2[:, :t_end] * np.abs(run.along[:, :t_end]), axis=1)
    total = cubic[:, -1]
    mean_term = float(np.mean(run.norm2[:, :t_end] * np.abs(run.along[:, :t_end])))
    rows: dict[str, dict[str, Any]] = {}
    ok, occurred = True, 0
    for name, gamma, rate in (("beta/(10 sqrt d)", BETA / (10 * math.sqrt(run.d)),
                               claimed_claim6_rate(run.d, BETA)), ("eps/18", RUN_EPS / 18, 1 / run.d)):
        events = int(np.sum(total > gamma))
        markov = run.eta**3 * t_end * mean_term / gamma
        cmp = compare_probability(events, len(total), min(1.0, markov))
        ok &= not cmp.exceeds
        occurred += events
        rows[name] = {"frequency": cmp.describe(), "markov_bound": markov, "claimed_rate": rate,
                      "max_sum_over_gamma": float(total.max() / gamma)}
    return Outcome(Verdict.CONSISTENT if ok else Verdict.INCONCLUSIVE,
                   f"T = {t_end} (alpha delta^2 = eps): the cubic sum reaches at most "
                   f"{rows['beta/(10 sqrt d)']['max_sum_over_gamma']:.2g} x beta/(10 sqrt d) and "
                   f"{rows['eps/18']['max_sum_over_gamma']:.2g} x eps/18; both events "
                   f"{'never occur' if occurred == 0 else 'are rare'} over {len(total)} replicas",
                   numbers={"T": t_end, "rows": rows, "E_norm2_abs_along": mean_term,
                            "dV_k^2": run.d * info["V_k"] ** 2},
                   parameters={k: info[k] for k in ("d", "eta", "delta", "V_k", "S_k", "beta", "eps")})


def claimed_claim7_event_slope(s_k: float) -> float:
    """Claim 7's event: inf_t η Σ_{j≤t}(S_k/4 − η‖L_j‖²) < −β/(5√d)."""
    return s_k / 4


@check("claim-7", "Claim 7", "E.1.1", "simulation", shares=SGD_RUNS)
def claim_7(ctx) -> Outcome:
    """Claim 7 (Bounding the quadratic terms): "Suppose α has at most polynomial growth in d, k. Furthermore suppose, αδ² ≤ 1, and that V_k has polynomial growth in k. Then, for some constant C, we have Pr[inf_{0≤t≤T} η Σ_{j=0}^t (S_k/4 − η‖L_t‖²) < β/(−5√d)] ≤ C/(β√d) + α(dV_k)^{−(β²/C)(log dV_k)+1}".

    Measured on the shared run with α = 1/δ² (T = dV_k/δ²): the event's frequency over replicas
    and the minimum of the walk in units of β/(5√d).  Always INCONCLUSIVE: the bound has an
    unspecified constant C, and the hypothesis that makes the walk's drift dominate (δ ≤
    S_k/(4C_δ log dV_k), T ~ 10¹¹ steps) cannot be simulated; at a simulable δ the event's
    frequency depends on how one step's η²‖L‖² compares with β/(5√d) (it ranged from 6/48 to
    48/48 across seeds), so it decides nothing.
    """
    run, info = paper_run(ctx.seed, ctx.full)
    t_end = _prefix(1 / info["delta"] ** 2, info)
    walk = run.eta * np.cumsum(claimed_claim7_event_slope(info["S_k"]) - run.eta * run.norm2[:, :t_end], axis=1)
    low = walk.min(axis=1)
    gamma = BETA / (5 * math.sqrt(run.d))
    events = int(np.sum(low < -gamma))
    cmp = compare_probability(events, len(low), 0.5)
    mean_step = float(np.mean(info["S_k"] / 4 - run.eta * run.norm2[:, :t_end]))
    return Outcome(Verdict.INCONCLUSIVE,
                   f"unspecified C and literal delta not simulable; at T = {t_end}: event frequency "
                   f"{cmp.describe()}; the walk's drift per step is "
                   f"S_k/4 - eta E|L|^2 = {mean_step:.3g} (delta mu_1 = {info['delta']:.2g} vs S_k/4 = "
                   f"{info['S_k'] / 4:.3g}); min over replicas {float(low.min()) / gamma:.2g} x beta/(5 sqrt d)",
                   numbers={"T": t_end, "events": events, "replicas": len(low), "mean_increment": mean_step,
                            "min_walk_over_gamma": float(low.min() / gamma)},
                   parameters={k: info[k] for k in ("d", "eta", "delta", "V_k", "S_k", "beta")},
                   notes=["The statement's event has S_k/4 but the proof decomposes S_k/2 and writes "
                          "||L_t|| for ||L_j||; the event of B (16) uses S_k/4, as here.",
                          "The proof needs delta <= S_k/(4 C_delta log(dV_k)) (so that eta|L|^2 is below "
                          "the drift); with this run's constant delta the increment's sign is reported.",
                          "The proof applies Lemma 31 as printed (missing factor 2, see lemma-31); the "
                          "unspecified C absorbs it."])


def claimed_claim8_markov(eta, t_end, mean_norm2, eps):
    """Claim 8's proof: Pr[η²Σ‖L‖² > ε/18] ≲ η²T E‖L‖²/ε² (printed ε², Markov gives 18/ε)."""
    return eta**2 * t_end * mean_norm2 / eps**2


def claimed_claim_7_moment_order() -> int:
    """Proof of Claim 7 as printed: "we can choose D=1"."""
    return 1


@check("claim-7-moment-order", "proof of Claim 7 (the choice D = 1)", "E.1.1", "symbolic")
def claim_7_moment_order(ctx) -> Outcome:
    """Proof of Claim 7: "Pr[η Σ_{j=0}^{T−1} Y_t 1{Y_t ≥ T^ν} > γ] ≤ ηTC_{ν,D}/(γT^{D/2}). Then, we can choose D=1 (and get rid of the D dependence on the constants), and γ = β/(10√d) such that Pr[…] ≲ √d ηC_ν/β".

    Reference: SymPy with γ = β/(10√d): ηTC/(γT^{D/2}) = 10√d ηC T^{1−D/2}/β, which is the
    printed √d ηC_ν/β (times the ≲'s 10) only when T^{1−D/2} is bounded in T, i.e. D ≥ 2;
    at the printed D = 1 a factor T^{1/2} remains.  The display after it (E.1.1-18) holds with D = 2.
    """
    eta, t, c, beta, d = sympy.symbols("eta T C beta d", positive=True)
    gamma = beta / (10 * sympy.sqrt(d))
    order = claimed_claim_7_moment_order()
    bound = eta * t * c / (gamma * t ** sympy.Rational(order, 2))
    target = 10 * sympy.sqrt(d) * eta * c / beta
    ratio = sympy.simplify(bound / target)
    corrected = sympy.simplify(eta * t * c / (gamma * t) / target)
    if sympy.limit(ratio, t, sympy.oo).is_finite:
        return Outcome(Verdict.HOLDS, f"with D = {order} the bound is {sympy.sstr(ratio)} x the printed one, bounded in T",
                       basis=Basis.EXACT, scope="statement")
    return Outcome(
        Verdict.FAILS,
        f"with the printed D = {order} the tail bound is {sympy.sstr(ratio)} x sqrt(d) eta C/beta (times 10), "
        "unbounded in T: it does not give the next display; D = 2 gives it exactly",
        basis=Basis.EXACT, failure_kind=FailureKind.AS_PRINTED,
        counterexample={"D": order, "bound_over_printed": sympy.sstr(ratio), "T": "-> infinity"},
        correction=f"choose D = 2 (any D >= 2): eta T C/(gamma T) = 10 sqrt(d) eta C/beta (ratio {sympy.sstr(corrected)})",
        correction_verified=corrected == 1,
        notes=["The display after the choice (E.1.1-18) is right with D = 2; only the prose's 'D=1' is misprinted."])


@check("claim-8", "Claim 8", "E.1.1", "simulation", shares=SGD_RUNS)
def claim_8(ctx) -> Outcome:
    """Claim 8: "Let αδ² ≤ ε²/log d. Then Pr[sup_{0≤t≤T} η² Σ_{j=0}^t ‖L_t‖² > ε/18] ≲ 1/log d"; proof: "≲ η²T E[‖L_t‖²]/ε² ≤ μ_1αδ²d²V_k²/(d²V_k²ε²) = μ_1αδ²/ε² ≤ 1/log d".

    Measured with α = ε²/(δ² log d) on the shared run (and, as a stress test, α = ε/δ², 10× the
    hypothesis): the event's frequency, and the Markov bound 18η²T E‖L‖²/ε from measured E‖L‖².
    CONSISTENT when the frequency respects the Markov bound and is small.
    """
    run, info = paper_run(ctx.seed, ctx.full)
    rows = {}
    ok = True
    for label, alpha in (("hypothesis edge", RUN_EPS**2 / (info["delta"] ** 2 * math.log(run.d))),
                         ("stress alpha = eps/delta^2", RUN_EPS / info["delta"] ** 2)):
        t_end = max(1, _prefix(alpha, info))
        total = run.eta**2 * run.norm2[:, :t_end].sum(axis=1)
        mean_n2 = float(run.norm2[:, :t_end].mean())
        markov = 18 * run.eta**2 * t_end * mean_n2 / RUN_EPS
        cmp = compare_probability(int(np.sum(total > RUN_EPS / 18)), len(total), min(1.0, markov))
        ok &= not cmp.exceeds
        rows[label] = {"T": t_end, "frequency": cmp.describe(), "markov_18_over_eps": markov,
                       "printed_markov_over_eps2": claimed_claim8_markov(run.eta, t_end, mean_n2, RUN_EPS),
                       "claimed_rate_1/log_d": 1 / math.log(run.d), "max_sum_over_eps18": float(total.max() * 18 / RUN_EPS)}
    edge = rows["hypothesis edge"]
    return Outcome(Verdict.CONSISTENT if ok else Verdict.INCONCLUSIVE,
                   f"at the hypothesis' edge (T = {edge['T']}) the sum reaches {edge['max_sum_over_eps18']:.2g} x eps/18; "
                   f"stress (T = {rows['stress alpha = eps/delta^2']['T']}): "
                   f"{rows['stress alpha = eps/delta^2']['frequency']}",
                   numbers={"rows": rows},
                   parameters={k: info[k] for k in ("d", "eta", "delta", "V_k", "eps")},
                   notes=["The proof's Markov step divides by eps^2; Markov gives 18/eps (larger for "
                          "eps > 1/18 only by the constant 18; eps/log d <= 1/log d, so the claim stands)."])


def claimed_claim9_doob(mean_mt2: float, gamma: float) -> float:
    """Doob's L² maximal inequality as used: Pr[sup_t |M_t| ≥ γ] ≤ E[M_T²]/γ²."""
    return mean_mt2 / gamma**2


@check("claim-9", "Claim 9", "E.2", "simulation", shares=SGD_RUNS)
def claim_9(ctx) -> Outcome:
    """Claim 9: "Let αδ² ≤ ε²(log d)^{−1}. Furthermore, let M_t = η Σ_{0≤j≤t−1}⟨E_j, u⟩. Then, M_t forms a F_t martingale and Pr[sup_{0≤t≤T}|M_t| ≥ β/(10√d)] ≲ ε²/(β² log d). Furthermore, we have Pr[sup_{0≤t≤T_1}|M_t| ≥ ε/18] ≲ 1/(d log d)"; proof: Doob, "Pr[sup|M_t| > γ] ≤ E M_T²/γ² ≤ 2μ_1η²TV_k/γ²".

    Measured on the shared run: M_t from ⟨E_j, u⟩ = ⟨L_j, u⟩ + h(m_j)(1 − m_j²); (i) martingale:
    the mean of ⟨E_j, u⟩ over all recorded steps is 0 within 5.33 SE; (ii) Doob's inequality with
    the measured E[M_T²], for T at the hypothesis' edge and for the whole run (Clopper–Pearson);
    (iii) E[M_T²] ≤ 2μ_1η²TV_k (μ_1 = 1 by the V_k used).  T_1 in the statement is undefined (T meant).
    """

    run, info = paper_run(ctx.seed, ctx.full)
    e = run.error_along
    mean, se = float(e.mean()), float(e.std(ddof=1) / math.sqrt(e.size))
    rows: dict[str, dict[str, Any]] = {}
    ok = abs(mean) <= Z_CRIT * se
    for label, t_end in (("hypothesis edge", max(1, _prefix(RUN_EPS**2 / (info["delta"] ** 2 * math.log(run.d)), info))),
                         ("whole run", info["horizon"])):
        M = run.eta * np.cumsum(e[:, :t_end], axis=1)
        mt2 = float(np.mean(M[:, -1] ** 2))
        for gname, gamma in (("beta/(10 sqrt d)", BETA / (10 * math.sqrt(run.d))), ("eps/18", RUN_EPS / 18)):
            events = int(np.sum(np.abs(M).max(axis=1) >= gamma))
            cmp = compare_probability(events, M.shape[0], min(1.0, claimed_claim9_doob(mt2, gamma)))
            ok &= not cmp.exceeds
            rows[f"{label}, gamma = {gname}"] = {"T": t_end, "frequency": cmp.describe(),
                                                 "E_MT2": mt2, "proof_bound_2eta2TV": 2 * run.eta**2 * t_end * info["V_k"]}
        ok &= mt2 <= 2 * run.eta**2 * t_end * info["V_k"]
    whole = rows["whole run, gamma = beta/(10 sqrt d)"]
    return Outcome(Verdict.CONSISTENT if ok else Verdict.INCONCLUSIVE,
                   f"mean <E_j,u> = {mean:.2g} +- {se:.1g} (martingale); Doob respected for both gammas and "
                   f"horizons (whole run, gamma = beta/(10 sqrt d): {whole['frequency']}); "
                   f"E[M_T^2] <= 2 eta^2 T V_k",
                   numbers={"mean_E_along": mean, "se": se, "rows": rows},
                   parameters={k: info[k] for k in ("d", "eta", "delta", "V_k", "beta", "eps", "horizon")},
                   notes=["Over the whole run (alpha delta^2 >> eps^2/log d) sup|M_t| exceeds "
                          "beta/(10 sqrt d) often: the hypothesis on alpha delta^2 is what makes the event rare.",
                          "T_1 in the second bound is not defined (T meant)."])


# =======================================================================================
# Proposition 32
@check("proposition-32", "Proposition 32", "E.3.1", "symbolic + simulation", shares=SGD_RUNS)
def proposition_32(ctx) -> Outcome:
    """Proposition 32: "Let δ = ε³S_k/(4C_δ log(dV_k)) where C_δ > max{1, μ_1}. Furthermore suppose that α = 4(log dV_k)/(εδS_k). Then, for T = ⌈αdV_k⌉, we have Pr(B(ε, d, β, k, T)) = 1 − O(max{1/(β√d), α(dV_k)^{−(β²/C)(log dV_k)+1}, ε²/(β² log d), 1/(d log dV_k)})"; proof: "Notice that the given δ, α satisfy αδ² ≤ ε²/(C_δ log(dV_k)). Hence, all of Claims 6 to 8 hold."

    Reference: SymPy for αδ² with the printed δ and with Theorem 16's δ (log squared); the event
    B's four parts measured on the shared run (constant δ, stated), which is far shorter than
    the literal T (~10¹¹ steps).  The probability statement itself cannot be simulated at the
    literal constants: INCONCLUSIVE, with the proof's algebraic step reported.
    """
    eps, s, c, dv = sympy.symbols("epsilon S_k C_delta dV_k", positive=True)
    delta_printed = eps**3 * s / (4 * c * sympy.log(dv))
    delta_t16 = eps**3 * s / (4 * c * sympy.log(dv) ** 2)
    alpha = lambda dl: 4 * sympy.log(dv) / (eps * dl * s)  # noqa: E731 - one-line SymPy helper
    printed = sympy.simplify(alpha(delta_printed) * delta_printed**2)
    fixed = sympy.simplify(alpha(delta_t16) * delta_t16**2)
    needed = eps**2 / (c * sympy.log(dv))
    printed_ok = sympy.simplify(printed - needed) == 0
    fixed_ok = sympy.simplify(fixed - needed) == 0
    run, info = paper_run(ctx.seed, ctx.full)
    d = run.d
    M = run.eta * np.cumsum(run.error_along, axis=1)
    cubic = run.eta**3 * np.cumsum(run.norm2 * np.abs(run.along), axis=1)
    quad = run.eta**2 * np.cumsum(run.norm2, axis=1)
    walk = run.eta * np.cumsum(info["S_k"] / 4 - run.eta * run.norm2, axis=1)
    parts = {"martingale": np.abs(M).max(axis=1) <= min(BETA / (10 * math.sqrt(d)), RUN_EPS / 36),
             "cubic": cubic[:, -1] <= min(BETA / (10 * math.sqrt(d)), RUN_EPS / 18),
             "quadratic": quad[:, -1] <= RUN_EPS / 18,
             "drift_walk": walk.min(axis=1) >= -BETA / (5 * math.sqrt(d))}
    freq = {k: float(v.mean()) for k, v in parts.items()}
    notes = [f"With the printed delta, alpha delta^2 = {sympy.sstr(printed)}, not <= eps^2/(C_delta log(dV_k)) "
             f"as the proof says, so Claims 8-9 (which need alpha delta^2 <= eps^2/log d) do not apply; with "
             f"Theorem 16's delta (log squared) alpha delta^2 = {sympy.sstr(fixed)} exactly "
             f"({'verified' if fixed_ok else 'NOT verified'}).  The statement's delta is most likely a typo "
             "for Theorem 16's.",
             "At this run's constant delta (not the literal one) B's martingale part fails on most replicas: "
             "its scale is sqrt(delta/d) vs beta/(10 sqrt d); the literal delta ~ 1/log^2 d is what makes "
             "B likely.",
             "Claim 6 is stated under alpha delta^2 <= eps and Claim 9 under eps^2/log d; Claim 9 is not "
             "named in the proof but its bound enters the max."]
    return Outcome(Verdict.INCONCLUSIVE,
                   f"not simulable at the literal constants (T ~ 1e11); proof step alpha delta^2 <= "
                   f"eps^2/(C_delta log dV_k) is {'true' if printed_ok else 'false'} for the printed delta "
                   f"(alpha delta^2 = {sympy.sstr(printed)}) and exact with Theorem 16's log^2 delta; "
                   f"B's parts at constant delta: " + ", ".join(f"{k} {v:.0%}" for k, v in freq.items()),
                   numbers={"alpha_delta2_printed": sympy.sstr(printed), "alpha_delta2_theorem16": sympy.sstr(fixed),
                            "B_part_frequencies": freq},
                   parameters={k: info[k] for k in ("d", "eta", "delta", "V_k", "S_k", "beta", "eps", "horizon")},
                   correction="delta = eps^3 S_k / (4 C_delta log^2(dV_k)) (Theorem 16's), giving "
                              "alpha delta^2 = eps^2/(C_delta log(dV_k))",
                   correction_verified=fixed_ok,
                   notes=notes)


# =======================================================================================
# Lemmas 33–34
def claimed_lemma33_slope(s_k: float) -> float:
    """Lemma 33: m_t ≥ β/(2√d) + tηS_k/2 (its proof derives tηS_k/4)."""
    return s_k / 2


@check("lemma-33", "Lemma 33", "E.3.3", "simulation", shares=SGD_RUNS)
def lemma_33(ctx) -> Outcome:
    """Lemma 33 (Characterizing dynamics before weak recovery): "Conditioning on A, B, for t ≤ T ∧ τ_r^+ ∧ τ_0^-, we have m_t ≥ β/(2√d) + tηS_k/2. Furthermore, we have τ_0 > T ∧ τ_r^+."

    Measured on the shared run (all replicas start in A: m_0 = β/√d in the sign(h(0)) frame):
    the worst margin m_t − β/(2√d) − tηS_k/2 over t ≤ τ_r^+ ∧ τ_0^- on every replica, and whether
    m goes negative before weak recovery (r = 1/2).  B fails on most replicas at this run's
    constant δ, so the lemma's conditional statement is checked on a superset of trajectories:
    CONSISTENT when it holds on all of them.  The proof derives only tηS_k/4 (noted).
    """
    run, info = paper_run(ctx.seed, ctx.full)
    d = run.d
    slope = claimed_lemma33_slope(info["S_k"])
    tau_r = first_hit(run.m, WEAK_R + 1e-15)
    below = run.m < 0
    tau_0 = np.where(below.any(axis=1), below.argmax(axis=1), run.m.shape[1])
    worst, where, negative = math.inf, None, 0
    for i in range(run.m.shape[0]):
        end = min(tau_r[i] if tau_r[i] >= 0 else run.m.shape[1] - 1, tau_0[i])
        t = np.arange(end + 1)
        margin = run.m[i, :end + 1] - BETA / (2 * math.sqrt(d)) - t * run.eta * slope
        j = int(np.argmin(margin))
        if margin[j] < worst:
            worst, where = float(margin[j]), {"replica": i, "t": j, "m_t": float(run.m[i, j])}
        negative += tau_0[i] <= (tau_r[i] if tau_r[i] >= 0 else run.m.shape[1])
    unit = BETA / (2 * math.sqrt(d))
    ok = worst >= 0 and negative == 0
    second = Outcome(Verdict.CONSISTENT if negative == 0 else Verdict.INCONCLUSIVE,
                     f"m_t >= 0 before weak recovery on all {run.m.shape[0]} replicas" if negative == 0 else
                     f"{negative} replicas went negative before weak recovery (B does not hold on these runs)",
                     basis=Basis.STATISTICAL, scope="instances: the shared run's replicas")
    outcome = Outcome(Verdict.CONSISTENT if ok else Verdict.INCONCLUSIVE,
                   f"m_t - beta/(2 sqrt d) - t eta S_k/2 >= {worst / unit:.2f} x beta/(2 sqrt d) on all "
                   f"{run.m.shape[0]} replicas before weak recovery; m never negative before tau_r"
                   if ok else f"bound violated by {-worst:.3g} at {where} (B does not hold on these runs; "
                   f"{negative} replicas went negative)",
                   numbers={"worst_margin": worst, "worst_margin_in_units_beta_over_2sqrtd": worst / unit,
                            "worst_at": where, "negative_before_weak": negative,
                            "median_tau_r": float(np.median(tau_r))},
                   parameters={k: info[k] for k in ("d", "eta", "delta", "V_k", "S_k", "beta", "r")},
                   notes=["The proof reaches only the slope S_k/4: its own fail, check lemma-33-proof.  The "
                          "observed drift h(m)(1 - m^2) ~ 2 S_k near m = 0 exceeds S_k/2 comfortably, which is "
                          "why the stated bound is measured to hold here.",
                          "The proof's eta Sum (S_k/4 - eta ||L_j||) (missing square) is ledger entry E.3.3-3."])
    bound = outcome.part()
    outcome.parts = {"E.3.3-1": bound, "E.3.3-15": bound.part(), "E.3.3-r14": second}
    return outcome


@check("lemma-33-proof", "proof of Lemma 33 (its conclusion)", "E.3.3", "symbolic")
def lemma_33_proof(ctx) -> Outcome:
    """Proof of Lemma 33: its last display "m_t ≥ β/(2√d) + ηtS_k/4" (E.3.3-4) is offered as the lemma's "m_t ≥ β/(2√d) + tηS_k/2" (E.3.3-1).

    Reference: SymPy.  The proof's conclusion implies the lemma's bound only if
    β/(2√d) + ηtS_k/4 ≥ β/(2√d) + tηS_k/2 for all t ≥ 1, η, S_k > 0; the difference is −tηS_k/4
    exactly, so the inference fails at every t ≥ 1.  The lemma itself is measured on the shared
    run (lemma-33, consistent): a gap in the proof, not a refutation.
    """
    t, eta, s, beta, d = sympy.symbols("t eta S_k beta d", positive=True)
    derived = beta / (2 * sympy.sqrt(d)) + eta * t * s / 4
    stated = beta / (2 * sympy.sqrt(d)) + t * eta * claimed_lemma33_slope(s)
    gap = sympy.simplify(derived - stated)
    point = {t: 1, eta: sympy.Rational(1, 100), s: sympy.Rational(1, 10), beta: 1, d: 100}
    if sympy.simplify(gap).is_nonnegative:
        return Outcome(Verdict.HOLDS, "the proof's conclusion implies the stated slope", basis=Basis.EXACT,
                       scope="statement")
    return Outcome(
        Verdict.FAILS,
        f"the proof's last display gives slope S_k/4, the lemma states S_k/2: derived - stated = "
        f"{sympy.sstr(gap)} < 0 for every t >= 1",
        basis=Basis.EXACT, failure_kind=FailureKind.STEP, impact=Impact.GAP,
        counterexample={"t": 1, "eta": "1/100", "S_k": "1/10", "beta": 1, "d": 100,
                        "proof_gives": sympy.sstr(derived.subs(point)), "lemma_states": sympy.sstr(stated.subs(point))},
        correction=None,
        notes=["No correction is verified: the lemma with slope S_k/4 follows from the proof as written, "
               "but Theorem 16's T_weak = ceil(4dV_k/(delta S_k)) was computed from it; a sharper proof of "
               "S_k/2 is not derived here.",
               "Affects Theorem 16 through T_weak (see theorem-16-constants)."])


def claimed_lemma34_tolerance(eps: float) -> float:
    """Lemma 34: |m_t − m_{τ_r} − η Σ_{j=τ_r}^{t−1} h(m_j)(1 − m_j²)| < ε/6."""
    return eps / 6


def drift_deviations(run) -> list[float]:
    """Per replica reaching r: max over t ≥ τ_r^+ of |m_t − m_{τ_r} − η Σ_{j=τ_r}^{t−1} h(m_j)(1 − m_j²)|."""
    tau_r = first_hit(run.m, WEAK_R + 1e-15)
    devs = []
    for i, start in enumerate(tau_r):
        if start < 0:
            continue
        drift = run.eta * np.concatenate([[0.0], np.cumsum(run.h[i, start:])])
        dev = run.m[i, start:] - run.m[i, start] - drift[:run.m.shape[1] - start]
        devs.append(float(np.abs(dev).max()))
    return devs


SCAN_REPLICAS = 64  # per δ in lemma-34's scan: replicas run in lockstep, so this costs little


@check("lemma-34", "Lemma 34", "E.3.3", "simulation + scaling", shares=SGD_RUNS)
def lemma_34(ctx) -> Outcome:
    """Lemma 34 (Dynamics after weak recovery is well approximated by drift term): "Conditioning on A, B, τ_r^+, the following holds: For t ≥ τ_r^+ with t ≤ T ∧ τ_0^-, we have |m_t − m_{τ_r^+} − η Σ_{j=τ_r^+}^{t−1} h(m_j)(1 − m_j²)| < ε/6. Furthermore, τ_0^- > T."

    Measured: the maximum over t ∈ [τ_r^+, horizon] of the deviation from the drift sum, per
    replica (r = 1/2, ε = 0.1, h in closed form interpolated to 1e-6), on the shared run and on
    runs at d = 100 for several δ (16 replicas each); and whether m stays positive.  At a constant
    δ the deviation is dominated by the normalisation term η²Σ‖L_j‖² ≈ δ·(ηt)·ℓ/V_k (independent
    of d) and B, which needs δ → 0, fails on most replicas; so the conditional statement is
    judged by the trend: CONSISTENT when the bound holds on every replica, or when the median
    deviation (SCAN_REPLICAS replicas per δ) falls with δ: the fitted exponent in δ is positive
    at 99.9 % confidence, so the deviation vanishes with the paper's δ ~ 1/log²(dV_k) → 0;
    INCONCLUSIVE otherwise.  (A strict decrease of four 16-replica medians, used at first, was
    decided by noise: it flipped between seeds.)
    """

    run, info = paper_run(ctx.seed, ctx.full)
    devs = drift_deviations(run)
    tol = claimed_lemma34_tolerance(RUN_EPS)
    worst = max(devs)
    tau_min = int(max(0, first_hit(run.m, WEAK_R + 1e-15).min()))
    positive = bool((run.m[:, tau_min:] > 0).all())
    # δ-scan at small d: the deviation is dominated by the normalisation term η²Σ‖L‖² ≈ δ·(ηt)·ℓ/V_k,
    # independent of d, so the trend that matters is in δ
    consts = run_constants(ctx.seed, ctx.full)
    d_scan = 100
    inst = run_instance(d_scan)
    m0 = BETA / math.sqrt(d_scan)
    deltas, med = list(ctx.pick((1.0, 0.5, 0.25, 0.125), (1.0, 0.5, 0.25, 0.125, 0.0625))), []
    all_deltas, all_devs = [], []
    for delta in deltas:
        eta = delta / (d_scan * consts["V_k"])
        steps = int(1.2 * drift_time(inst, consts["sign"], m0, eta, 1 - RUN_EPS / 6))
        scan = record_run(inst, eta, steps, SCAN_REPLICAS, ctx.seed_sequence("delta", delta), m0, consts["sign"])
        per_replica = drift_deviations(scan)
        med.append(float(np.median(per_replica)))
        all_deltas += [delta] * len(per_replica)
        all_devs += list(per_replica)
    # One regression on every replica's deviation (not on four medians: 2 degrees of freedom
    # give a useless interval).
    fit = fit_exponent(all_deltas, all_devs)
    holds_here = worst < tol and len(devs) == run.m.shape[0]
    # The trend, not one noisy median: the fitted exponent of the median deviation in δ is
    # positive with 99.9 % confidence, so the deviation → 0 with the paper's δ → 0.
    shrinking = fit.low > 0
    ok = positive and (holds_here or shrinking)
    return Outcome(Verdict.CONSISTENT if ok else Verdict.INCONCLUSIVE,
                   f"max |m_t - m_tau_r - drift sum| = {worst:.3g} (median {np.median(devs):.3g}) vs eps/6 = "
                   f"{tol:.3g} at d = {run.d}, delta = {info['delta']}; at d = {d_scan} the median deviation falls "
                   f"{' > '.join(f'{x:.3g}' for x in med)} for delta = {', '.join(f'{x:g}' for x in deltas)} "
                   f"(~delta^{fit.slope:.2f}); m stays > 0",
                   numbers={"max_deviation": worst, "median_deviation": float(np.median(devs)),
                            "tolerance": tol, "replicas_reaching_r": len(devs), "stays_positive": positive,
                            "scan_delta": deltas, "scan_median_deviation": med, "exponent": fit.describe()},
                   parameters={k: info[k] for k in ("d", "eta", "delta", "V_k", "S_k", "eps", "r", "horizon")},
                   notes=["At a constant delta the bound fails on individual replicas (B fails too); the "
                          "deviation is O(delta) (normalisation drift, the eta^2 Sum |L|^2 of Claim 8), below "
                          "eps/6 once delta is small, which the paper's delta ~ 1/log^2(dV_k) ensures.",
                          "The proof's first display bounds eta^3 Sum |<L_j,u>| (missing ||L_j||^2) and writes "
                          "r_j for Pi_j; the final bound is 3 x eps/18 = eps/6 as stated."])
