r"""The last stage of ``verify claim``: the decisions → the :class:`~verify.verdict.Outcome`.

Universal claims consume their configurations' decisions simplest first and stop at the first
that fails: that configuration and the shortened point are the counterexample (the decisions
are produced lazily, so nothing after it is evaluated).  The Outcome is the one ``verify check``
uses: the verdict (holds, fails, consistent, inconclusive), one line of evidence, the basis (the
weakest evidence any configuration needed: a claim is only as strong as its weakest part), the
scope, and for a fail the counterexample with a ``rerun`` command that pins exactly that
configuration and point, so running it reproduces the same counterexample.
"""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Iterable

import numpy as np
import sympy

from verify.claims.configurations import Setting, discrete_points
from verify.claims.decide import Judged
from verify.claims.decision import Decision
from verify.claims.quantifiers import MAX_ENUMERATED
from verify.claims.spec import ClaimSpec
from verify.claims.steps import strength
from verify.verdict import Basis, Outcome, Verdict, weakest_basis

_NEGATION = {"==": "!=", "<=": ">", ">=": "<", "<": ">=", ">": "<="}


weakest = weakest_basis  # one rule for verify check and verify claim (verify.checks.core)


def build(spec: ClaimSpec, configurations: list[Setting], judged: Iterable[Judged]) -> Outcome:
    """The Outcome of the decisions ``judged`` (one per configuration, or per asymptotic group)."""
    if spec.mode == "asymptotic":
        outcome = _asymptotic(spec, configurations, judged)
    elif spec.mode == "probability":
        outcome = _probability(spec, configurations, judged)
    else:
        outcome = _universal(spec, configurations, judged)
    outcome.parameters.update(parameters(spec))
    return outcome


def _universal(spec: ClaimSpec, configurations: list[Setting], judged: Iterable[Judged]) -> Outcome:
    """Every configuration must hold for holds; one fail is a fail; otherwise the weakest wins:
    one inconclusive configuration makes the claim inconclusive (its reason is the evidence),
    one merely consistent (Monte-Carlo) configuration makes it consistent."""
    steps: Counter = Counter()
    bases = []
    closest: tuple[float, dict] = (-np.inf, {})
    undecided: list[tuple[Setting, Decision]] = []
    notes: dict = {}  # how values were obtained (a Hermite sum's tail bound), in order, once each
    for index, (setting, decision, sides) in enumerate(judged):
        steps[decision.step] += 1
        if decision.status == "fails":
            outcome = _universal_fail(spec, setting, decision, sides, steps)
            outcome.numbers["evaluated"] = index + 1
            return outcome
        if decision.status not in ("holds", "consistent"):  # default deny: only these are decided
            undecided.append((setting, decision))
            continue
        bases.append(decision.basis)
        notes.update(dict.fromkeys(decision.numbers.get("notes", ())))
        score = decision.numbers.get("z_over_t", decision.numbers.get("worst_violation", -np.inf))
        if score is not None and score > closest[0]:
            closest = (score, {"configuration": setting.describe(), **decision.numbers})
    numbers = {"steps": dict(steps), "evaluated": len(configurations), "closest": closest[1]}
    if undecided:
        setting, decision = undecided[0]
        proved = len(configurations) - len(undecided)
        evidence = (f"undecided at {_where(setting)}: {decision.detail}"
                    f" ({proved} of {len(configurations)} configuration(s) proved)")
        return Outcome(Verdict.INCONCLUSIVE, evidence, basis=Basis.NONE,
                       numbers={"decided_by": decision.step, **numbers, "undecided": len(undecided),
                                "search": decision.numbers})
    partial = _spread_ranges(spec)
    if partial:
        return Outcome(
            Verdict.INCONCLUSIVE,
            f"holds ({weakest(bases).value}) at all {len(configurations)} configuration(s) checked, but "
            + partial,
            basis=Basis.NONE,
            numbers={"decided_by": _main_step(steps), **numbers},
        )
    basis = weakest(bases)
    verdict = Verdict.CONSISTENT if basis is Basis.STATISTICAL else Verdict.HOLDS
    decided_by = _main_step(steps)
    evidence = (f"{verdict.value} on all {len(configurations)} configuration(s); decided by "
                f"{_describe_steps(steps)}" + "".join(f"; {note}" for note in list(notes)[:2]))
    return Outcome(verdict, evidence, numbers={"decided_by": decided_by, **numbers}, basis=basis,
                   scope=universal_scope(spec, configurations))


def _spread_ranges(spec: ClaimSpec) -> str:
    """Why a verdict cannot hold when the statement quantifies over values never evaluated (an
    integer range too long to enumerate, run at a spread subset: a proof about a proxy, not the
    statement), or "" when every value was run."""
    partial = [q.text for q in spec.quantifiers if not q.exhaustive()]
    if not partial:
        return ""
    return (f"integer ranges with more than {MAX_ENUMERATED} values were checked only at a spread "
            f"subset: {', '.join(partial)}")


def universal_scope(spec: ClaimSpec, configurations: list[Setting]) -> str:
    """What a universal verdict covers: the configurations run (instances when a family is named)
    and, in each, every point of the real ranges."""
    boxes = sorted({s.name for c in configurations for s in c.box})
    families = sorted({c.family for c in configurations if c.family})
    what = (f"instances: {len(configurations)} drawn instance configuration(s) of {', '.join(families)}"
            if families else f"statement: all {len(configurations)} configuration(s) the quantifiers name")
    where = f", at every real point of {', '.join(boxes)} in its range" if boxes else ""
    return what + where


def _main_step(steps: Counter) -> str:
    """The weakest step that decided a configuration (the order of verify.claims.steps.STEPS)."""
    return max(steps, key=strength)


def _describe_steps(steps: Counter) -> str:
    """The steps that decided some configuration, weakest last.  How many each decided is left to
    ``numbers["steps"]``: it depends on the CPU budget (a symbolic step that runs out of time hands
    its configuration to the next step), so it differs between machines and runs, and evidence
    must not."""
    return ", ".join(sorted(steps, key=strength))


def _universal_fail(spec, setting, decision, sides, steps) -> Outcome:
    point = decision.point or {}
    counterexample = setting.describe() | {s.name: str(v) for s, v in point.items()}
    left, right = sides
    counterexample.update(lhs=left, rhs=right)
    if right not in (0.0, None) and left is not None:
        counterexample["ratio"] = left / right
    counterexample["rerun"] = rerun_command(spec, setting, point)
    where = ", ".join(
        f"{k}={v}" for k, v in counterexample.items() if k not in ("lhs", "rhs", "ratio", "rerun")
    )
    fails = f"fails at {where}" if where else "fails"  # a claim without quantifiers has no point
    if left is not None:
        values = f"lhs = {_digits(left, right)} {_NEGATION[spec.claim.op]} rhs = {_digits(right, left)}"
        evidence = f"{fails}: {values} ({decision.step} step: {decision.detail})"
    else:
        evidence = f"{fails}: {decision.detail} ({decision.step} step)"
    return Outcome(
        Verdict.FAILS,
        evidence,
        numbers={"decided_by": decision.step, "steps": dict(steps), **decision.numbers},
        counterexample=counterexample,
        basis=decision.basis,
    )


def _digits(value: float, other: float | None) -> str:
    """``value`` with 6 significant digits, or as many as tell it from ``other`` (up to 17)."""
    for digits in (6, 10, 13, 17):
        if other is None or f"{value:.{digits}g}" != f"{other:.{digits}g}":
            return f"{value:.{digits}g}"
    return f"{value:.17g}"


def _probability(spec: ClaimSpec, configurations: list[Setting], judged: Iterable[Judged]) -> Outcome:
    results = []
    for setting, decision, _ in judged:
        if decision.status == "fails":
            counterexample = setting.describe() | decision.numbers
            counterexample["rerun"] = rerun_command(spec, setting, {})
            return _fails(f"fails at {_where(setting)}: {decision.detail}", decision, counterexample)
        results.append(decision)
    undecided = [(s, r) for s, r in zip(configurations, results, strict=True)
                 if r.status not in ("holds", "consistent")]  # default deny
    if undecided:
        setting, decision = undecided[0]
        return Outcome(Verdict.INCONCLUSIVE, f"undecided at {_where(setting)}: {decision.detail}",
                       numbers={"decided_by": decision.step, "undecided": len(undecided), **decision.numbers},
                       basis=Basis.NONE)
    basis = weakest(r.basis for r in results)
    verdict = Verdict.HOLDS
    worst = min(results, key=lambda r: r.numbers["events"] / r.numbers["draws"])
    gridded = gridded_parameters(spec)
    if gridded:
        # a grid is not a range: P at 61/100 may be 1/2 between grid points where it is 1 (#48)
        points = "; ".join(f"{name} = {', '.join(str(v) for v in values)}"
                           for name, values in gridded.items())
        return Outcome(Verdict.INCONCLUSIVE,
                       f"holds at the grid points only ({points}); least frequent: {worst.detail}; a "
                       "continuous range is not covered by a grid, so nothing is decided between them",
                       numbers={"decided_by": worst.step, "least": worst.numbers}, basis=Basis.NONE,
                       scope=f"instances: {len(results)} configuration(s) at the grid points {points}")
    partial = _spread_ranges(spec)
    if partial:
        # found by the helper writing probability killers: P <= 11/20 for every n in 1..100 held
        # (certified) from 41 spread values of n, although P = 1 at n = 40
        return Outcome(Verdict.INCONCLUSIVE, f"holds at all {len(results)} configuration(s) checked, but "
                       f"{partial}; least frequent: {worst.detail}",
                       numbers={"decided_by": worst.step, "least": worst.numbers}, basis=Basis.NONE)
    evidence = f"{verdict.value} on all {len(results)} configuration(s); least frequent: {worst.detail}"
    sampled = basis is Basis.STATISTICAL
    scope = (f"instances: {len(results)} configuration(s), " +
             ("P from sampled draws at confidence 1 - 1e-6" if sampled else "P over every sign pattern"))
    return Outcome(verdict, evidence, numbers={"decided_by": worst.step, "least": worst.numbers},
                   basis=basis, scope=scope)


def gridded_parameters(spec: ClaimSpec) -> dict:
    """name -> grid values of each continuous range a probability claim was run on a grid of."""
    return {q.name: discrete_points(q, spec) for q in spec.quantifiers
            if q.kind == "real" and q.continuous and q.name != spec.growth
            and discrete_points(q, spec) is not None}


def _fails(evidence: str, decision, counterexample: dict) -> Outcome:
    return Outcome(Verdict.FAILS, evidence, numbers={"decided_by": decision.step, **decision.numbers},
                   counterexample=counterexample, basis=decision.basis)


def _where(setting) -> str:
    """The configuration as k=v pairs, or "the one configuration" when the claim names none."""
    return ", ".join(f"{k}={v}" for k, v in setting.describe().items()) or "its one configuration"


def _asymptotic(spec: ClaimSpec, configurations: list[Setting], judged: Iterable[Judged]) -> Outcome:
    results = [(setting, decision) for setting, decision, _ in judged]
    for setting, decision in results:
        if decision.status == "fails":
            growth = spec.quantifier(str(spec.growth))
            assert growth is not None
            varying = {spec.growth, "seed", "k", "d", "xi"}
            counterexample = {k: v for k, v in setting.describe().items() if k not in varying}
            counterexample |= {q.name: q.text for q in spec.quantifiers
                               if q.kind == "binding" and not q.expression.is_number}
            counterexample |= decision.numbers
            counterexample["rerun"] = rerun_command(spec, setting, {}, keep=(growth.symbol,))
            evidence = f"fails for {_where_group(counterexample)}: {decision.detail}"
            return _fails(evidence, decision, counterexample)
    verdicts = [d.status for _, d in results]
    verdict = (
        Verdict.INCONCLUSIVE
        if any(v not in ("holds", "consistent") for v in verdicts)  # default deny
        else (Verdict.CONSISTENT if "consistent" in verdicts else Verdict.HOLDS)
    )
    setting, decision = next(((s, d) for s, d in results
                              if d.status == verdict.value or verdict is Verdict.INCONCLUSIVE
                              and d.status not in ("holds", "consistent")), results[0])
    if verdict is Verdict.INCONCLUSIVE:
        scope, basis = None, Basis.NONE
    elif verdict is Verdict.HOLDS:
        scope, basis = "statement: the limit of the ratio, exactly", weakest(d.basis for _, d in results)
    else:
        points = len(decision.numbers.get("points", []))
        scope = f"points: the ratio at {points} values of {spec.growth} per group, exponents fitted"
        basis = weakest(d.basis for _, d in results)
    prefix = "in all" if verdict is not Verdict.INCONCLUSIVE else "in at least one of"
    return Outcome(
        verdict,
        f"{verdict.value} {prefix} {len(results)} group(s); e.g. {decision.detail}",
        numbers={"decided_by": decision.step, **decision.numbers},
        basis=basis,
        scope=scope,
    )


def _where_group(counterexample: dict) -> str:
    keys = ("family", "activation")
    text = ", ".join(f"{k}={counterexample[k]}" for k in keys if k in counterexample)
    return text or "the ranges given"


def parameters(spec: ClaimSpec) -> dict:
    options = dict(spec.options)
    return {
        "claim": spec.claim.text,
        **{k: (list(v) if isinstance(v, tuple) else v) for k, v in options.items()},
    }


def rerun_command(spec: ClaimSpec, setting: Setting, point: dict, keep: tuple = ()) -> str:
    """``verify claim ...`` pinning this configuration (and point): it reproduces the counterexample."""
    args = ["verify", "claim", spec.claim.text]
    if setting.family is not None:
        args += ["--family", setting.family]
    if setting.activation is not None and (spec.options["activation"] or setting.family is not None):
        args += ["--activation", setting.activation]
    pinned = {s.name: v for s, v in setting.values.items()} | {s.name: v for s, v in point.items()}
    kept = {s.name for s in keep}
    for q in spec.quantifiers:  # a binding on a kept variable (xi = sqrt(k)/2 with k growing) stays as typed
        if q.kind == "binding" and {s.name for s in q.expression.free_symbols} & kept:
            kept.add(q.name)
    if "k" in kept:
        kept.add("d")  # the default d follows k
    # A variable that only fed a binding (xb in xi = xb*sqrt(k)) is not pinned again: the bound
    # variable is pinned to its value, and the claim language refuses a --for on a variable the
    # claim does not use.
    used = {s.name for s in spec.claim.lhs.free_symbols | spec.claim.rhs.free_symbols}
    if setting.model is not None:
        used |= {"k", "d", "xi"}
    while True:  # ... unless a value that is pinned still names it (err = q/60 with q in a range)
        named = {s.name for q in spec.quantifiers if q.name in used and q.name in pinned
                 for s in getattr(pinned[q.name], "free_symbols", ())}
        if named <= used:
            break
        used |= named
    for q in spec.quantifiers:
        if q.name in kept or (q.name not in pinned and q.kind == "real"):
            args += ["--for", q.text]
        elif q.name in pinned and q.name in used:
            args += ["--for", f"{q.name} = {_number_text(pinned[q.name])}"]
    if setting.model is not None:
        declared = {q.name for q in spec.quantifiers}
        for name in ("k", "d", "xi"):
            if (
                name not in declared
                and name in pinned
                and name not in kept
                and not (name == "d" and "k" in kept)
            ):
                args += ["--for", f"{name} = {_number_text(pinned[name])}"]
        if spec.probability is not None or not keep:
            args += ["--seeds", str(setting.seed)]
        elif spec.options["seeds"] is not None:
            args += ["--seeds", str(spec.options["seeds"])]
    if spec.lam != "1/k":
        args += ["--lam", spec.lam]
    if spec.probability is not None:
        args += ["--prob", spec.probability.text, "--draws", str(spec.draws)]
    if spec.growth is not None:
        args += ["--growth", spec.growth]
    if spec.seed:
        args += ["--seed", str(spec.seed)]
    if spec.full:
        args.append("--full")
    return " ".join(shlex.quote(a) for a in args)


def _number_text(value) -> str:
    value = sympy.sympify(value, strict=True)  # numbers only: text never reaches sympify
    return str(value) if not value.is_Float else repr(float(value))
