"""Online SGD (eq. (4), Appendix B) with R replicas in lockstep: the driver.

Each replica is one independent run on the same instance: its own start û_0 (uniform on
the unit sphere of span(W)⊥, or ⟨û_0, u⟩ = ``m0``, or the instance's û) and its own
samples, from child r of ``SeedSequence(seed)`` (:mod:`verify.simulate.streams`).  ĉ_0 is
the instance's ĉ (the paper's random initialisation, shared by the replicas).

Every ``record_every`` steps (and at the first and last) the driver records m_t = ⟨û_t, u⟩,
⟨ĉ_t, c⟩ and the population loss:

- the closed form Φ(m_t; ĉ_t) of :mod:`verify.model.population` (times 1/ξ² under the
  Appendix B scaling) where it describes the run: u ⊥ span W, û ⊥ span W, the
  network of Appendix D.1 (modes ``frozen``, ``joint``, ``scratch``);
- otherwise (``unconstrained``, ``nonorthogonal``, ``linearized``, or a tilted u) a
  Monte-Carlo mean of (f* − f̂)² over ``loss_samples`` fresh samples per replica and
  record, with its standard error (exact sampler of :mod:`verify.simulate.reduced`,
  from its own stream); ``loss_samples=0`` omits the loss and says why in the metadata.

Engines (``engine``): ``full`` draws x ∈ R^d; ``reduced`` is the exact chain on the overlaps
(:mod:`verify.simulate.reduced`, NumPy: the reference); ``compiled`` is that chain compiled
(:mod:`verify.simulate.compiled`: the same random numbers, the trajectory equal up to
rounding); ``auto``, the default, is ``compiled`` for online runs (batch 1) and ``reduced``
for minibatches.  Where ``compiled`` cannot run an instance (an ``expr:`` activation), the
NumPy engine runs and ``meta["engine_fallback"]`` says why; ``meta["engine"]`` is always the
engine that ran.

A NaN or infinite iterate (or a zero vector before renormalisation) stops the run with
:class:`~verify.base.errors.ConvergenceError` naming the step and the replica: no trajectory
with NaN is ever returned.  A tqdm bar is shown only when stderr is a terminal and
``quiet`` is false.
"""

from __future__ import annotations

import math
import sys

import numpy as np
from tqdm import tqdm

from verify.base.errors import ConvergenceError, InvalidParameterError
from verify.base.validation import SIZE_LIMITS, count, real, within_limit, within_memory
from verify.simulate.full import FullEngine
from verify.simulate.model import closed_form_loss, closed_form_reason, terms
from verify.simulate.modes import ENGINES, check_engine, check_instance, get_mode
from verify.simulate.problem import Problem, build_problem
from verify.simulate.reduced import ReducedEngine, projections
from verify.simulate.streams import generators, root
from verify.simulate.trajectory import Trajectory

DEFAULT_LOSS_SAMPLES = 200
INITS = ("random", "instance")
#: ``auto``: ``compiled`` for online runs (batch 1), ``reduced`` for minibatches; ``compiled``
#: is the reduced chain compiled (:mod:`verify.simulate.compiled`), ``reduced`` its NumPy
#: reference, ``full`` SGD in R^d.
SGD_ENGINES = ("auto", "compiled", *ENGINES)


def _count(name: str, value) -> int:
    return count(name, value, limit=name if name in SIZE_LIMITS else None)


def simulate(instance, mode: str = "frozen", steps: int = 1000, lr: float = 1e-3, replicas: int = 1,
             engine: str = "auto", record_every: int | None = None, seed: int | None = 0,
             quiet: bool = False, appendix_b_scaling: bool = False, init: str = "random",
             m0: float | None = None, loss_samples: int = DEFAULT_LOSS_SAMPLES,
             batch: int = 1, row_scale: float | None = None, c_lr: float | None = None) -> Trajectory:
    """Run ``replicas`` independent online-SGD runs of ``steps`` steps with step size ``lr``.

    ``c_lr``: the step size of ĉ in the modes that train it (default ``lr``; the paper gives
    neither, nor says whether they differ).

    ``batch`` B > 1 makes each update use B fresh samples, û ← proj(û −
    lr Σ_b g_b): the sample-equivalent minibatch of :mod:`verify.simulate.reduced`.  ``steps``
    and ``record_every`` still count samples and must be multiples of B.  ``row_scale`` r: the
    rows are scaled by r instead of normalised (Appendix B as printed, :mod:`verify.simulate.problem`).
    """
    the_mode = get_mode(mode)
    if engine not in SGD_ENGINES:
        raise InvalidParameterError(f"unknown engine {engine!r}; the engines are {', '.join(SGD_ENGINES)}")
    check_engine(the_mode, "full" if engine == "full" else "reduced")
    check_instance(the_mode, instance)
    steps, replicas = _count("steps", steps), _count("replicas", replicas)
    within_limit("replica_steps", steps * replicas)
    batch = _count("batch", batch)
    if steps % batch:
        raise InvalidParameterError(f"steps = {steps} must be a multiple of batch = {batch} "
                                    f"(steps count samples)")
    if record_every is None:
        record_every = batch * max(1, steps // batch // 500)
    record_every = _count("record_every", record_every)
    if record_every % batch:
        raise InvalidParameterError(f"record_every = {record_every} must be a multiple of batch = "
                                    f"{batch} (records fall between updates)")
    records = steps // record_every + 1 + (steps % record_every > 0)  # 0, each record_every, the end
    within_limit("recorded_values", records * replicas)
    # m, <c, c_hat> and the loss per record and replica, each collected in a list, then stacked
    within_memory(records * replicas * 8 * 3 * 2, f"the trajectory ({records} records x {replicas} replicas)")
    _step_size("lr", lr, "the step size eta of eq. (4)")
    if c_lr is not None:
        if not the_mode.train_c:
            raise InvalidParameterError(f"c_lr = {c_lr!r} is given, but mode {the_mode.name!r} keeps c_hat "
                                        "frozen (c_lr is the step size of c_hat)")
        _step_size("c_lr", c_lr, "the step size of c_hat")
    if init not in INITS:
        raise InvalidParameterError(f"init must be one of {', '.join(INITS)}, got {init!r}")
    if m0 is not None:
        real("m0", m0, -1, 1, why="it is the starting overlap <u_hat_0, u>")
        if init == "instance":
            raise InvalidParameterError(f"m0 = {m0!r} conflicts with init='instance' (the instance's "
                                        "u_hat fixes the start); give one or the other")
    count("loss_samples", loss_samples, minimum=0, limit="samples")
    problem = build_problem(instance, the_mode, appendix_b_scaling, row_scale)
    engine, fallback = _resolve_engine(engine, problem, batch)
    sequence = root(seed)
    rngs = generators(sequence, replicas + 1)
    reason = closed_form_reason(problem, the_mode.constrained, the_mode.linearized)
    recorder = LossRecorder(problem, the_mode, reason, loss_samples, rngs[replicas])
    record_at = sorted({0, *range(record_every, steps + 1, record_every), steps})
    counts = [0, *(int(n) // batch for n in np.diff(record_at))]  # updates before each record
    bar = _progress(steps, quiet, f"{the_mode.name}/{engine}")
    if engine == "compiled":
        # lazy: the compiled engine imports numba (0.2 s) and JIT-compiles; only --engine compiled needs it
        from verify.simulate.compiled import CompiledEngine

        compiled = CompiledEngine(problem, the_mode, rngs[:replicas], init=init, m0=m0, batch=batch)
        states = compiled.records(lr, counts, recorder.needs_state, _diverged,
                                  None if bar is None else bar.update, eta_c=c_lr)
    else:
        eng_class = FullEngine if engine == "full" else ReducedEngine
        eng = eng_class(problem, the_mode, rngs[:replicas], init=init, m0=m0, batch=batch)
        states = _stepped(eng, lr, c_lr, counts, batch, bar)
    ms, cs, losses, ses = [], [], [], []
    try:
        for state in states:
            m, c_overlap = state.overlaps()
            ms.append(m.copy())
            cs.append(c_overlap.copy())
            loss, se = recorder(state, m)
            if loss is not None:
                losses.append(loss)
                ses.append(se)
    finally:
        if bar is not None:
            bar.close()
    meta = {
        "mode": the_mode.name, "engine": engine, "steps": steps, "lr": lr,
        "c_lr": (lr if c_lr is None else c_lr) if the_mode.train_c else None, "replicas": replicas,
        "record_every": record_every, "seed": sequence.entropy, "k": problem.k, "d": problem.d,
        "xi": problem.xi, "activation": problem.activation, "kind": getattr(instance, "kind", None),
        "appendix_b_scaling": appendix_b_scaling, "row_scale": row_scale, "init": init, "m0": m0,
        "loss_method": recorder.method, "batch": batch, "engine_fallback": fallback,
    }
    return Trajectory(
        steps=np.array(record_at), m=np.array(ms), c_overlap=np.array(cs),
        loss=np.array(losses) if losses else None,
        loss_se=np.array(ses) if ses and ses[0] is not None else None, meta=meta,
    )


def _resolve_engine(engine: str, problem: Problem, batch: int) -> tuple[str, str | None]:
    """The engine that runs, and why it is not the compiled one that was asked for (or None)."""
    if engine == "auto":
        engine = "compiled" if batch == 1 else "reduced"
    if engine != "compiled":
        return engine, None
    # lazy: the compiled engine imports numba (0.2 s); only --engine compiled needs it
    from verify.simulate.compiled import unsupported_reason

    reason = unsupported_reason(problem)
    return ("reduced", reason) if reason else ("compiled", None)


def _step_size(name: str, value, meaning: str) -> None:
    real_number = isinstance(value, int | float) and not isinstance(value, bool)
    if not (real_number and math.isfinite(value) and value > 0):
        raise InvalidParameterError(f"{name} must be a finite number > 0 ({meaning}), got {value!r}")


def _stepped(eng, lr: float, c_lr: float | None, counts: list[int], batch: int, bar):
    """The NumPy engines, one ``step`` call per update: yields the engine at every record."""
    t = 0
    for n in counts:
        for _ in range(n):
            t += batch
            with np.errstate(all="ignore"):
                norm, c_norm = eng.step(lr, c_lr)
            _check_finite(norm, t, "u_hat")
            if c_norm is not None:
                _check_finite(c_norm, t, "c_hat")
            if bar is not None and t % (64 * batch) == 0:
                bar.update(64 * batch)
        yield eng


def _check_finite(norm: np.ndarray, step: int, what: str) -> None:
    bad = ~(np.isfinite(norm) & (norm > 0))
    if bad.any():
        r = int(np.flatnonzero(bad)[0])
        _diverged(step, r, what, float(norm[r]))


def _diverged(step: int, replica: int, what: str, norm: float) -> None:
    raise ConvergenceError(f"SGD diverged at step {step} in replica {replica}: the {what} iterate "
                           f"became {'zero' if norm == 0 else 'NaN or infinite'} before "
                           f"renormalisation (norm {norm!r}); lower the step size")


def _progress(steps: int, quiet: bool, label: str):
    if quiet or not sys.stderr.isatty():
        return None

    return tqdm(total=steps, desc=f"simulate {label}", unit="step", file=sys.stderr)


class LossRecorder:
    """Closed-form loss where valid, else a Monte-Carlo mean with SE, else nothing (with reason)."""

    def __init__(self, problem: Problem, mode, reason: str | None, samples: int, rng):
        self.problem, self.mode, self.reason, self.samples, self.rng = problem, mode, reason, samples, rng
        if reason is None:
            rows = ", scratch rows)" if problem.scratch else ")"
            self.method = "closed form (verify.model.population" + rows
        elif samples:
            self.method = f"monte carlo, {samples} samples per record (no closed form: {reason})"
        else:
            self.method = f"omitted (no closed form: {reason}; pass loss_samples > 0)"
        # the state (a, β, ĉ) beyond m: ĉ for the closed form when it is trained, all for Monte Carlo
        self.needs_state = mode.train_c if reason is None else bool(samples)

    def __call__(self, eng, m: np.ndarray):
        pb = self.problem
        if self.reason is None:
            m = np.clip(m, -1.0, 1.0)
            if not self.mode.train_c:
                return closed_form_loss(pb, pb.c_hat, m), None
            c_hat = eng.c_hat
            return np.array([float(closed_form_loss(pb, c_hat[i], m[i])) for i in range(len(m))]), None
        if not self.samples:
            return None, None
        a, beta, c_hat = eng.frame_state()
        n = self.samples
        mean, se = np.empty(len(beta)), np.empty(len(beta))
        for i in range(len(beta)):
            x = self.rng.standard_normal((n, pb.p + 1))
            x[:, pb.p] *= pb.d > pb.p  # no direction outside the frame when d = p
            zw, zu, zh, wh = projections(pb, x[:, :pb.p], x[:, pb.p], a[i], beta[i], self.mode.constrained)
            e = terms(pb, zw, zu, zh, wh, c_hat[i], self.mode.linearized, need_c=False).e
            mean[i], se[i] = np.mean(e**2), np.std(e**2, ddof=1) / math.sqrt(n)
        return mean, se
