r"""Appendix D.2: the sample gradient, Propositions 21–23.

References: finite differences of the per-sample loss L(û; x) = (f*(x) − f̂(x))² with
D.1's rows (the normalisation √(1+ξ²/k) held fixed, so L is defined for every û ∈ R^d);
the closed forms Φ(m) and h(m) of :mod:`verify.model.population`; Monte Carlo for moments
without a closed form.  The paper's displays and constants enter as claims.
"""

from __future__ import annotations

import math

import numpy as np

from verify.certified import certified_population
from verify.checks import certify
from verify.checks.certify import sqrt
from verify.checks.core import check
from verify.claims import claim
from verify.model.activations import get_activation
from verify.model.arithmetic import FLOAT64
from verify.model.geometry import row_norms
from verify.model.instance import Instance, orthonormal, separated
from verify.model.population import h, loss
from verify.verdict import Z_CRIT, FailureKind, Outcome, Verdict, fit_exponent, maximise, residual_text

FD_STEP = 1e-6  # central differences of a smooth (tanh) function of O(1) size: error ~ h² + eps/h ~ 1e-10
FD_TOL = 1e-7  # 1000× the finite-difference error above
RATIO_TOL = 1e-9  # closed-form Φ, h are differences of O(1) kernel values: rounding ~1e-15, kept far below


# --- the per-sample model --------------------------------------------------------------
def d1_rows(inst, coefficients, direction):
    """(w_i + ξ a_i d)/√(1 + ξ²/k): D.1's rows with the normalisation fixed (eq. (11)); floats or balls."""

    return (inst.W + inst.xi * np.outer(coefficients, direction)) / sqrt(1 + inst.xi**2 / inst.k)


def _sample_loss(inst, act, u_hat, x) -> float:
    teacher = inst.lam @ act(d1_rows(inst, inst.c, inst.u) @ x)
    student = inst.lam @ act(d1_rows(inst, inst.c_hat, u_hat) @ x)
    return float((teacher - student) ** 2)


def _student(inst, act, u_hat, x) -> float:
    return float(inst.lam @ act(d1_rows(inst, inst.c_hat, u_hat) @ x))


def _fd_gradient(fun, point: np.ndarray) -> np.ndarray:
    grad = np.zeros_like(point)
    for a in range(point.size):
        e = np.zeros_like(point)
        e[a] = FD_STEP
        grad[a] = (fun(point + e) - fun(point - e)) / (2 * FD_STEP)
    return grad


def _fd_instance(ctx):

    seed = int(ctx.rng("fd-instance").integers(2**31))
    inst = orthonormal(3, 7, 1.5, "tanh", seed=seed)
    x = np.round(ctx.rng("fd-x").standard_normal(inst.d), 3)
    return inst, x, seed


def claimed_sample_gradient(inst, act, x) -> np.ndarray:
    """D.2: (k/(ξ²+k)) ∇_û L(û;x) = 2(f*(x) − f̂(x)) Σ_i λ_i ĉ_i σ'((k/(ξ²+k))⟨w_i + c_i u, x⟩) x.

    Returned: the printed right side divided by k/(ξ²+k), i.e. the claimed ∇_û L."""
    k, xi = inst.k, inst.xi
    scale = k / (xi**2 + k)
    residual = inst.lam @ act(d1_rows(inst, inst.c, inst.u) @ x) - inst.lam @ act(d1_rows(inst, inst.c_hat, inst.u_hat) @ x)
    inner = inst.lam @ (inst.c_hat * act.derivative(scale * ((inst.W + np.outer(inst.c, inst.u)) @ x)))
    return 2 * residual * inner * x / scale


def corrected_sample_gradient(inst, act, x) -> np.ndarray:
    """∇_û L = −2(f* − f̂) (ξ/√(1+ξ²/k)) Σ_i λ_i ĉ_i σ'(⟨v̂_i, x⟩) x."""
    residual = inst.lam @ act(d1_rows(inst, inst.c, inst.u) @ x) - inst.lam @ act(d1_rows(inst, inst.c_hat, inst.u_hat) @ x)

    inner = inst.lam @ (inst.c_hat * act.derivative(d1_rows(inst, inst.c_hat, inst.u_hat) @ x))
    return -2 * residual * inst.xi / sqrt(1 + inst.xi**2 / inst.k) * inner * x


@check("d2-sample-gradient", "App. D.2 (sample gradient)", "D.2", "finite differences")
def d2_sample_gradient(ctx) -> Outcome:
    """Appendix D.2: "Note that the sample gradient is (k/(ξ²+k)) ∇_û L(û; x) = 2(f*(x) − f̂(x)) Σ_{i=1}^k λ_i ĉ_i σ'((k/(ξ²+k)) ⟨w_i + c_i u, x⟩) x".

    Reference: central finite differences (step 1e-6) of L(û; x) = (f*(x) − f̂(x))² in û,
    with D.1's rows and σ = tanh, at one fixed Gaussian x; tolerance FD_TOL = 1e-7
    (1000× the finite-difference error).
    """

    inst, x, seed = _fd_instance(ctx)
    act = get_activation(inst.activation)
    assert inst.u_hat is not None
    reference = _fd_gradient(lambda v: _sample_loss(inst, act, v, x), inst.u_hat.copy())
    claimed = claimed_sample_gradient(inst, act, x)
    corrected = corrected_sample_gradient(inst, act, x)
    gap = float(np.linalg.norm(claimed - reference))
    corrected_gap = float(np.linalg.norm(corrected - reference))
    numbers = {"norm_reference": float(np.linalg.norm(reference)), "printed_minus_reference": gap,
               "corrected_minus_reference": corrected_gap, "tolerance": FD_TOL,
               "first_coordinate": {"reference": float(reference[0]), "printed": float(claimed[0])}}
    params = {"kind": "orthonormal", "k": inst.k, "d": inst.d, "xi": inst.xi, "activation": "tanh", "seed": seed}
    if gap <= FD_TOL:
        outcome = Outcome(Verdict.HOLDS, f"printed sample gradient matches finite differences within {FD_TOL}",
                          numbers=numbers, parameters=params)
        return _certify_display(outcome, inst, x, "sample")
    outcome = Outcome(
        Verdict.FAILS,
        f"printed gradient differs from finite differences by {gap:.3g} (|reference| = "
        f"{numbers['norm_reference']:.3g}); the corrected form agrees {residual_text(corrected_gap, FD_TOL)}",
        numbers=numbers, parameters=params,
        counterexample=params | {"x": x.tolist(), "u_hat": inst.u_hat.tolist(), "c": inst.c.tolist(),
                                 "c_hat": inst.c_hat.tolist()},
        correction="grad_u_hat L(u_hat; x) = -2 (f*(x) - f_hat(x)) (xi/sqrt(1+xi^2/k)) "
                   "sum_i lambda_i c_hat_i sigma'(<v_hat_i, x>) x, v_hat_i = (w_i + xi c_hat_i u_hat)/sqrt(1+xi^2/k)",
        correction_verified=corrected_gap <= FD_TOL,
        notes=["The printed display has the teacher's c_i u inside sigma' instead of the student's c_hat_i u_hat, "
               "the factor k/(k+xi^2) instead of 1/sqrt(1+xi^2/k) in the argument, no factor xi, and the sign "
               "of (f* - f_hat) flipped.  The moment bounds that follow (Props 21-22) are unaffected in order: "
               "<v_hat_i, x> is again a standard Gaussian."])
    return _certify_display(outcome, inst, x, "sample")


def _certify_display(outcome: Outcome, inst, x, which: str) -> Outcome:
    """Re-decide a gradient display in balls: the reference is the exact gradient (Taylor
    arithmetic, :func:`verify.checks.certify.gradient`) of L(û; x) (``which`` = "sample") or the
    projected gradient of f̂(x) ("student"), at the fast path's instance and x; the display is
    its claim hook evaluated on balls; the claim is ‖display − reference‖ ≤ FD_TOL."""

    def decide():
        ball_inst, point = certify.instance_balls(inst), certify.balls(x)
        act = certify.BallActivation(inst.activation)
        u_hat = ball_inst.u_hat

        def student(direction):
            return ball_inst.lam @ act(d1_rows(ball_inst, ball_inst.c_hat, direction) @ point)

        if which == "sample":
            teacher = ball_inst.lam @ act(d1_rows(ball_inst, ball_inst.c, ball_inst.u) @ point)
            reference = certify.gradient(lambda v: (teacher - student(v)) * (teacher - student(v)), u_hat)
            claimed = certify.call_hook(claimed_sample_gradient, ball_inst, act, point)
            label = "the exact gradient of L(u_hat; x)"
        else:
            grad = certify.gradient(student, u_hat)
            reference = grad - u_hat * (u_hat @ grad)
            claimed = certify.call_hook(claimed_prop_22_display, ball_inst, act, u_hat, point)
            label = "(I - u_hat u_hat^T) x the exact gradient of f_hat(x)"
        gap = certify.norm(certify.as_ball(v, "the display") for v in np.asarray(claimed) - reference)
        return certify.compare(gap, FD_TOL, f"||display - {label}|| <= {FD_TOL:g} (tanh, k = {inst.k}, d = {inst.d})")

    return certify.attempt(outcome, decide)


# --- Proposition 21 ------------------------------------------------------------------------
def claimed_prop_21_bound(lam_max, k, xi, constant=1.0):
    """Prop. 21 (p = 1): E[(f* − f̂)²] ≤ C λ_max² min{k², 4kξ²}; C = Lip(σ)² = 1 for relu."""
    return constant * lam_max**2 * min(k**2, 4 * k * xi**2)


@check("proposition-21", "Proposition 21", "D.2", "exact + search")
def proposition_21(ctx) -> Outcome:
    """Proposition 21: "Let p be given, and Assumption 6 hold. Then, there exists some constant C_{p,σ} that only depends on p and σ such that E_x[(f*(x) − f̂(x))^{2p}]^{1/p} ≤ C_{p,σ} λ_max² min{k², 4kξ²}".

    Checked for p = 1, σ = relu, where E(f* − f̂)² = Φ(m) is the closed form of
    :mod:`verify.model.population`, against the bound with C = Lip(relu)² = 1 (the constant of
    the proof's first steps).  Search: :func:`maximise` of Φ(m)/bound over (m, log ξ) on
    orthonormal and separated instances, k ∈ {1, 2, 4, 8, 16}, λ_i = 1 and λ_i = 1/k, and the
    adversarial ĉ = −c.  Also the measured exponent of max_m Φ in ξ at small ξ (claimed ξ²).
    """

    worst, where = 0.0, {}
    ks = ctx.pick((1, 2, 4, 8, 16), (1, 2, 4, 8, 16, 32, 64))
    for k in ks:
        for kind, gen in (("orthonormal", orthonormal), ("separated", separated)):
            for lam_name in ("one", "1/k"):
                lam = np.ones(k) if lam_name == "one" else np.full(k, 1.0 / k)
                seed = int(ctx.rng(k, kind, lam_name).integers(2**31))
                base = gen(k, k + 4, 1.0, "relu", seed=seed, lam=lam)
                for flip in (False, True):
                    c_hat = -base.c if flip else base.c_hat

                    def ratio(z, base=base, c_hat=c_hat, lam=lam, k=k):
                        xi = float(np.exp(z[1]))
                        inst = Instance(k=k, d=base.d, xi=xi, activation="relu", lam=lam, c=base.c,
                                        c_hat=c_hat, gram=base.gram)
                        return float(loss(inst, z[0])) / claimed_prop_21_bound(float(np.max(np.abs(lam))), k, xi)

                    found = maximise(ratio, [(-1.0, 1.0), (np.log(1e-3), np.log(1e3))], ctx.rng(k, kind, lam_name, flip),
                                     starts=ctx.pick(12, 40), polish=ctx.pick(2, 6),
                                     remember={"check": "proposition-21", "base": base, "c_hat": c_hat, "lam": lam})
                    if found.worst > worst:
                        worst = found.worst
                        where = {"k": k, "kind": kind, "lambda": lam_name, "c_hat": "-c" if flip else "random",
                                 "m": float(found.argmax[0]), "xi": float(np.exp(found.argmax[1])), "seed": seed}
    # Scaling in ξ at small ξ (the 4kξ² branch): Φ(1) with ĉ = −c (student rows anti-aligned) is the largest.
    base = orthonormal(4, 8, 1.0, "relu", seed=int(ctx.rng("scaling").integers(2**31)))
    xis = np.logspace(-3, -1, 7)
    values = [float(loss(Instance(k=4, d=8, xi=float(x), activation="relu", lam=base.lam, c=base.c, c_hat=-base.c,
                                  gram=base.gram), 1.0)) for x in xis]
    fit = fit_exponent(xis.tolist(), values)
    numbers = {"worst_ratio": worst, "slope_in_xi_small": fit.describe(), "constant": 1.0}
    if worst > 1 + RATIO_TOL:
        return Outcome(Verdict.FAILS, f"Phi(m)/bound reaches {worst:.4g} with C = Lip^2 = 1", numbers=numbers,
                       counterexample=where)
    return Outcome(Verdict.HOLDS, f"p = 1, relu: max Phi(m)/(lambda_max^2 min(k^2, 4k xi^2)) = {worst:.4g} <= 1 "
                   f"(C = Lip^2 = 1) over k in {list(ks)}; small-xi slope {fit.describe()} (bound: 2)",
                   numbers=numbers, parameters={"ks": list(ks), "activation": "relu", "p": 1},
                   notes=[f"worst point: {where}",
                          "Only p = 1 is checked exactly (Phi has a closed form); higher p rest on the same "
                          "Lipschitz step.  The proof's last line drops a factor 4 (k^2 min(4, 16 xi^2/k) = "
                          "min(4k^2, 16k xi^2)), absorbed by its 'constant that changes'; for relu C = 1 holds "
                          "anyway because E(relu(a) - relu(b))^2 <= 1 for unit a, b."])


# --- Proposition 22 ------------------------------------------------------------------------
def claimed_prop_22_display(inst, act, u_hat, x) -> np.ndarray:
    """D.2: ∇̂_û f̂(x) = (I − ûûᵀ) x [Σ_i λ_i ξ ĉ_i/√(1+ξ²ĉ_i²) σ'(⟨v_i, x⟩)], v_i the teacher's rows."""
    weights = inst.lam * inst.xi * inst.c_hat / np.sqrt(1 + inst.xi**2 * inst.c_hat**2)
    scalar = weights @ act.derivative(d1_rows(inst, inst.c, inst.u) @ x)
    return (x - u_hat * (u_hat @ x)) * scalar


def _student_weights(inst) -> np.ndarray:
    """λ_i ξ ĉ_i/n̂_i, the student rows' weights in ∇̂f̂ (n̂_i from :func:`verify.model.geometry.row_norms`)."""
    return inst.lam * inst.xi * inst.c_hat / row_norms(FLOAT64, inst.row_norm2, inst.xi**2, inst.c_hat)


def _corrected_prop_22_display(inst, act, u_hat, x) -> np.ndarray:
    scalar = _student_weights(inst) @ act.derivative(d1_rows(inst, inst.c_hat, u_hat) @ x)
    return (x - u_hat * (u_hat @ x)) * scalar


@check("proposition-22-display", "Proposition 22 (proof display)", "D.2", "finite differences")
def proposition_22_display(ctx) -> Outcome:
    """Proposition 22, proof: "∇̂_û f̂(x) = (I − ûûᵀ) x [Σ_{i=1}^k λ_i (ξ ĉ_i/√(1 + ξ² ĉ_i²)) σ'(⟨v_i, x⟩)]".

    Reference: (I − ûûᵀ) times the central finite-difference gradient of f̂(x) in û
    (D.1 rows, σ = tanh), at one Gaussian x; tolerance FD_TOL = 1e-7.
    """

    inst, x, seed = _fd_instance(ctx)
    act = get_activation(inst.activation)
    assert inst.u_hat is not None
    u_hat = inst.u_hat.copy()
    grad = _fd_gradient(lambda v: _student(inst, act, v, x), u_hat)
    reference = grad - u_hat * (u_hat @ grad)
    claimed = claimed_prop_22_display(inst, act, u_hat, x)
    corrected = _corrected_prop_22_display(inst, act, u_hat, x)
    gap, corrected_gap = float(np.linalg.norm(claimed - reference)), float(np.linalg.norm(corrected - reference))
    numbers = {"norm_reference": float(np.linalg.norm(reference)), "printed_minus_reference": gap,
               "corrected_minus_reference": corrected_gap, "tolerance": FD_TOL}
    params = {"kind": "orthonormal", "k": inst.k, "d": inst.d, "xi": inst.xi, "activation": "tanh", "seed": seed}
    if gap <= FD_TOL:
        outcome = Outcome(Verdict.HOLDS, "display matches finite differences", numbers=numbers, parameters=params)
        return _certify_display(outcome, inst, x, "student")
    outcome = Outcome(
        Verdict.FAILS,
        f"display (sigma' at the teacher's <v_i, x>) differs from the finite-difference gradient by {gap:.3g} "
        f"(|reference| = {numbers['norm_reference']:.3g}); with sigma'(<v_hat_i, x>) the gap is {residual_text(corrected_gap, FD_TOL)}",
        numbers=numbers, parameters=params,
        counterexample=params | {"x": x.tolist(), "u_hat": u_hat.tolist(), "c": inst.c.tolist(),
                                 "c_hat": inst.c_hat.tolist()},
        correction="grad-hat f_hat(x) = (I - u_hat u_hat^T) x [sum_i lambda_i xi c_hat_i/sqrt(1+xi^2 c_hat_i^2) "
                   "sigma'(<v_hat_i, x>)]",
        correction_verified=corrected_gap <= FD_TOL,
        notes=["The proof's next line already uses sigma'(<v_hat_i, x>); the bound is unaffected."])
    return _certify_display(outcome, inst, x, "student")


def _prop_22_moments(inst, act, n: int, rng) -> tuple[float, float, float, float]:
    """Monte Carlo of E‖∇̂f̂/√d‖² and E⟨∇̂f̂, u⟩² (p = 1) with their standard errors."""
    assert inst.u_hat is not None and inst.u is not None
    x = rng.standard_normal((n, inst.d))
    scalar = act.derivative(x @ d1_rows(inst, inst.c_hat, inst.u_hat).T) @ _student_weights(inst)
    projected = x - np.outer(x @ inst.u_hat, inst.u_hat)
    norm2 = scalar**2 * np.sum(projected**2, axis=1) / inst.d
    along_u = (scalar * (projected @ inst.u)) ** 2
    return (float(norm2.mean()), float(norm2.std(ddof=1) / math.sqrt(n)),
            float(along_u.mean()), float(along_u.std(ddof=1) / math.sqrt(n)))


def claimed_prop_22_rate(lam_max, k, xi):
    """Prop. 22 (p = 1), without its unspecified constant: λ_max² k²ξ²/(k + ξ²)."""
    return lam_max**2 * k**2 * xi**2 / (k + xi**2)


@check("proposition-22", "Proposition 22", "D.2", "monte-carlo + scaling")
def proposition_22(ctx) -> Outcome:
    """Proposition 22: "Let p be given. Then, we have max{E_x|∇̂_û f̂(x)/√d|^{2p}, E_x⟨∇̂_û f̂(x), u⟩^{2p}}^{1/p} ≤ C_{σ,p} λ_max² k²ξ²/(k + ξ²)".

    The constant is unspecified, so the check measures (p = 1, relu, λ_i = 1, orthonormal
    rows, ĉ = c all of one sign: the worst case of |Σ λ_i ĉ_i|) the ratio of the Monte-Carlo
    moments to λ_max² k²ξ²/(k+ξ²) over k ∈ {2, 4, 8, 16} and ξ ∈ {0.1, 1, √k, 4√k}; CONSISTENT
    when the ratio (upper end, mean + Z_CRIT·se) stays bounded (no growth: the log–log slope
    in k at each ξ has an interval reaching ≤ 0.1).
    """

    act = get_activation("relu")
    n = ctx.pick(4000, 40000)
    ks = ctx.pick((2, 4, 8, 16), (2, 4, 8, 16, 32, 64))
    rows, slopes = [], {}
    for xi_name, xi_of in (("0.1", lambda k: 0.1), ("1", lambda k: 1.0), ("sqrt(k)", lambda k: math.sqrt(k)),
                           ("4sqrt(k)", lambda k: 4 * math.sqrt(k))):
        ratios = []
        for k in ks:
            xi = xi_of(k)
            seed = int(ctx.rng(k, xi_name).integers(2**31))
            base = orthonormal(k, k + 6, xi, "relu", seed=seed, lam=np.ones(k))
            inst = Instance(
                k=k, d=base.d, xi=xi, activation="relu", lam=base.lam, c=np.abs(base.c), c_hat=np.abs(base.c),
                gram=base.gram, W=base.W, u=base.u, u_hat=base.u_hat)
            m1, se1, m2, se2 = _prop_22_moments(inst, act, n, ctx.rng("mc", k, xi_name))
            rate = claimed_prop_22_rate(1.0, k, xi)
            upper = max(m1 + Z_CRIT * se1, m2 + Z_CRIT * se2) / rate
            ratios.append(max(m1, m2) / rate)
            rows.append({"k": k, "xi": xi, "norm_moment": m1, "u_moment": m2, "ratio_upper": upper})
        slopes[xi_name] = fit_exponent(ks, ratios)
    worst = max(r["ratio_upper"] for r in rows)
    growing = [name for name, fit in slopes.items() if fit.low > 0.1]
    numbers = {"worst_ratio_upper": worst, "slopes_in_k": {n_: f.describe() for n_, f in slopes.items()},
               "samples": n}
    if growing:
        return Outcome(Verdict.INCONCLUSIVE, f"ratio grows with k at xi = {growing}", numbers=numbers)
    return Outcome(Verdict.CONSISTENT, f"p = 1, relu, worst-case c_hat: moments / (k^2 xi^2/(k+xi^2)) <= "
                   f"{worst:.3g} (upper 5.33-se end) over k in {list(ks)}, 4 xi regimes; slopes in k: "
                   + ", ".join(f"{n_}: {f.slope:.2f}" for n_, f in slopes.items()),
                   numbers=numbers, parameters={"ks": list(ks), "activation": "relu", "p": 1},
                   notes=["The rate is attained: with c_hat of one sign, E[sigma'] = 1/2 for relu makes "
                          "|sum lambda_i c_hat_i sigma'| ~ sqrt(k)/2, so the ratio tends to a constant."])


# --- Proposition 23 ------------------------------------------------------------------------
def claimed_prop_23_constant(mu_sq_weighted: float) -> float:
    """Prop. 23's proof: C_σ with Σ_p p μ_p² ≤ C_σ; the check takes C_σ = Σ_p p μ_p²."""
    return mu_sq_weighted


def _prop_23_bound(constant, lam_max, k, xi):
    return constant * lam_max**2 * k * xi**2 / (1 + xi**2 / k)


def _prop_23_parts(outcome: Outcome) -> dict[str, Outcome]:
    """D.2-17, the proposition's display, names a constant C_σ the statement leaves open: the
    minimal C_σ = Σ p μ_p² failing does not refute it (2 Σ p μ_p² is admissible), so its part is
    not a fail.  D.2-r8 is the proof's conclusion for every C_σ with Σ p μ_p² ≤ C_σ, which the
    counterexample refutes: the proof's step fails there."""
    statement = Outcome(Verdict.INCONCLUSIVE, "not refuted: C_sigma is any constant the statement leaves open; "
                        "the minimal Sum p mu_p^2 fails (see D.2-r8) but 2 Sum p mu_p^2 is admissible, and this "
                        "check only searches that bound")
    return {"D.2-17": statement, "D.2-r8": outcome.part()}


#: Proposition 23 with the factor 2 the proof drops, as a claim: C_sigma is Σ p μ_p² = E σ'(g)².
PROP_23_CORRECTION = "Abs(h(m))*sqrt(1 - m**2) <= 2*C_sigma*lam_max**2*k*xi**2/(1 + xi**2/k)"


@check("proposition-23", "Proposition 23", "D.2", "search", fails_as=FailureKind.STEP)
def proposition_23(ctx) -> Outcome:
    """Proposition 23: "We have ‖∇̂_û Φ(û)‖ ≤ C_σ λ_max² kξ²/(1 + ξ²/k)", with (proof) "Σ_{p=1}^∞ p μ_p(σ)² ≤ C_σ".

    Reference: ‖∇̂Φ‖ = |h(m)|√(1 − m²) with h from the closed form (Prop. 4, checked
    elsewhere).  Claim: the bound with C_σ = Σ_p p μ_p² = E[σ'(g)²] (= 1/2 for relu,
    exact).  Search: :func:`maximise` of the ratio over (m, log ξ) on k = 1 (c = ĉ = 1),
    orthonormal and separated instances, k ∈ {1, 2, 4, 8}; ratio > 1 is a counterexample.
    The correction C_σ = 2Σ_p p μ_p² is searched the same way.
    """

    activation = "relu"
    weighted = 0.5  # Σ p μ_p(relu)² = E[relu'(g)²] = P(g > 0) = 1/2, exact
    constant = claimed_prop_23_constant(weighted)
    cases = [("k=1, c=c_hat=1", Instance(k=1, d=3, xi=1.0, activation=activation, lam=np.ones(1), c=np.ones(1),
                                         c_hat=np.ones(1), gram=np.ones((1, 1))))]
    for k in ctx.pick((2, 4, 8), (2, 4, 8, 16, 32)):
        for kind, gen in (("orthonormal", orthonormal), ("separated", separated)):
            seed = int(ctx.rng(k, kind).integers(2**31))
            inst = gen(k, k + 4, 1.0, activation, seed=seed, lam=ctx.rng("lam", k, kind).uniform(0.2, 1.0, k))
            cases.append((f"{kind} k={k} seed={seed}", inst))

    def search(const):
        best, where = 0.0, None
        for name, base in cases:
            def ratio(z, base=base):
                xi = float(np.exp(z[1]))
                inst = Instance(k=base.k, d=base.d, xi=xi, activation=activation, lam=base.lam, c=base.c,
                                c_hat=base.c_hat, gram=base.gram)
                grad = abs(float(h(inst, z[0]))) * math.sqrt(max(0.0, 1 - z[0] ** 2))
                return grad / _prop_23_bound(const, float(np.max(np.abs(base.lam))), base.k, xi)

            found = maximise(ratio, [(-1.0, 1.0), (np.log(1e-3), np.log(1e3))], ctx.rng("search", name, const),
                             starts=ctx.pick(16, 64), polish=ctx.pick(3, 8),
                             remember={"check": "proposition-23", "base": base, "const": const,
                                       "activation": activation})
            if found.worst > best:
                best, where = found.worst, (name, float(found.argmax[0]), float(np.exp(found.argmax[1])))
        return best, where

    worst, where = search(constant)
    corrected_worst, _ = search(2 * weighted)
    corrected = claim(PROP_23_CORRECTION, family=["orthonormal", "separated"], activation=activation,
                      for_=["m in [-999/1000, 999/1000]", "xi in {1/100, 1, 10}"], seeds="0..5")
    point = Instance(k=1, d=3, xi=0.01, activation=activation, lam=np.ones(1), c=np.ones(1), c_hat=np.ones(1),
                     gram=np.ones((1, 1)))
    point_ratio = abs(float(h(point, 0.0))) / _prop_23_bound(constant, 1.0, 1, 0.01)
    numbers = {"C_sigma": constant, "worst_ratio": worst, "worst_at": where, "ratio_k1_xi0.01_m0": point_ratio,
               "corrected_worst_ratio": corrected_worst}
    if worst <= 1 + RATIO_TOL:
        return Outcome(Verdict.HOLDS, f"|h(m)|sqrt(1-m^2) <= C_sigma lambda_max^2 k xi^2/(1+xi^2/k) with C_sigma = "
                       f"{constant}: worst ratio {worst:.4f}", numbers=numbers)
    outcome = Outcome(
        Verdict.FAILS,
        f"with C_sigma = sum p mu_p^2 = 1/2 (relu) the ratio reaches {worst:.4f} at {where[0] if where else ''} "
        f"(k=1, c=c_hat=1, xi=0.01, m=0: ratio {point_ratio:.4f}); with 2 sum p mu_p^2 the worst is "
        f"{corrected_worst:.4f}",
        numbers=numbers,
        counterexample={"k": 1, "lambda": 1, "c": 1, "c_hat": 1, "G": 1, "activation": "relu", "xi": 0.01, "m": 0,
                        "grad_norm": abs(float(h(point, 0.0))), "bound": _prop_23_bound(constant, 1.0, 1, 0.01),
                        "ratio": point_ratio},
        correction="||grad-hat Phi|| <= 2 (sum_p p mu_p^2) lambda_max^2 k xi^2/(1+xi^2/k): the proof's 'non-expanded "
                   f"form' drops the factor 2 of D.1's gradient (-2 sum ...); {corrected.verdict} ({corrected.basis}) "
                   f"as the claim {PROP_23_CORRECTION!r} over m in [-999/1000, 999/1000], {corrected.scope}",
        # the search finds no violation of the corrected bound; the claim proves it (ball arithmetic)
        correction_verified=corrected.verdict is Verdict.HOLDS,
        notes=[f"The corrected constant's worst ratio in the same search is {corrected_worst:.4f}.",
               "Lemma 17 (2) leaves C_sigma unspecified and is unaffected in order.",
               "The ratio tends to 2 as xi -> 0 with G = 1: h(0) = 2 xi^2 K'(1/(1+xi^2))/(1+xi^2) and "
               "K'(1) = sum p mu_p^2."])
    # D.2-17 is the proposition's display and D.2-r8 the proof's conclusion: the same bound, twice
    if point_ratio <= 1 + RATIO_TOL:  # the search's worst point decided, not the fixed one
        outcome.parts = _prop_23_parts(outcome)
        return outcome

    def decide():
        """The fixed point k = 1, c = ĉ = G = λ = 1, ξ = 0.01, m = 0 in balls: ‖∇̂Φ‖ = |h(0)| from the
        certified h (relu, closed-form kernel) against the bound with C_σ = claimed_prop_23_constant(1/2),
        Σ p μ_p(relu)² = E[relu'(g)²] = P(g > 0) = 1/2 exactly."""

        pop = certified_population(point, certify.DPS)
        grad = abs(pop.h(certify.ball(0)))
        const = certify.as_ball(certify.call_hook(claimed_prop_23_constant, certify.ball(1) / 2),
                                "claimed_prop_23_constant")
        bound = _prop_23_bound(const, certify.ball(1), 1, certify.ball(0.01))
        return certify.compare(grad, bound, "||grad-hat Phi|| = |h(0)| <= C_sigma lambda_max^2 k xi^2/(1+xi^2/k) "
                               "at k = 1, c = c_hat = 1, xi = 0.01, m = 0")

    outcome = certify.attempt(outcome, decide)
    if outcome.verdict is Verdict.FAILS:
        outcome.parts = _prop_23_parts(outcome)
    return outcome
