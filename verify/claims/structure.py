r"""Decision steps from the structure of the model's quantities, exact where closed forms fail.

Each function is one step of :data:`verify.claims.steps.STEPS`; each reads the exact sides of the
relation (:meth:`~verify.claims.relation.Relation.exact_sides`), where an expectation or a kernel
without a closed form stands as an opaque SymPy function (:data:`verify.claims.gaussian.OPAQUE`,
:func:`verify.claims.parity.opaque_kernel`).

- :func:`expectations_step`: lhs − rhs = Σ c_j E[f_j] + r, linear in its opaque expectations with
  coefficients free of g, is one expectation E[Σ c_j f_j + r] (linearity, each E[f_j] existing);
  the exact Gaussian rules (:mod:`verify.claims.gaussian_rules`: parity, Stein's lemma, the
  activation's own differential equation through SymPy's simplification, reweighting) evaluate it.
  E[σ² + σ′ − 1/2] = E[σ − 1/2] = 0 for the sigmoid (σ′ = σ(1 − σ), σ − 1/2 odd), and
  E[g tanh(g)] = E[tanh′(g)] by Stein's lemma: identities no quadrature can prove.
- :func:`series_step`: inequalities that follow from the nonnegative coefficients of the dual
  kernel's series (K(ρ) ≥ 0 on [0, 1], |K(ρ)| ≤ K(1), K′ nondecreasing on [0, 1], ...), for any
  activation.
"""

from __future__ import annotations

import sympy

from verify.base.errors import clip
from verify.certified.balls import BALLS, working_precision
from verify.certified.errors import CertificationError
from verify.certified.pieces import derivative_pieces, smooth_pieces
from verify.claims.decision import Decision
from verify.claims.evaluate import compile_ball, exact, scalars_of
from verify.claims.existence import EXISTS, existence
from verify.claims.gaussian import OPAQUE, opaque_atoms
from verify.claims.gaussian_rules import rule_expectation
from verify.claims.language import DERIVED_SCALARS, GAUSSIAN, InexactNumberError
from verify.claims.parity import symmetry
from verify.claims.quantities import BALL_DPS, Quantities, Unavailable
from verify.claims.universal import symbolic_decision
from verify.model.arithmetic import EXACT
from verify.verdict import Basis


def _undecided(step: str, detail: str) -> Decision:
    return Decision("undecided", None, step, detail=detail)


def expectations_step(rel) -> Decision:
    """Combine the opaque expectations of lhs − rhs into one and evaluate it exactly."""
    try:
        left, right = rel.exact_sides()
    except (Unavailable, InexactNumberError) as exc:
        return _undecided("expectations", str(exc))
    difference = sympy.expand(left - right)
    if not opaque_atoms(difference):
        return _undecided("expectations", "no expectation without a closed form")
    combined, value = combined_expectation(difference)
    note = ""
    if combined is None:
        # a polynomial in its expectations (E[σ′]² − E[gσ]²): expectations that the rules show
        # equal (or opposite) are one symbol, after which lhs − rhs may cancel or be linear
        identified = identified_expectations(difference)
        if identified != difference:
            difference = identified
            combined, value = combined_expectation(difference)
            note = (f"with expectations equal by the exact rules identified (E[f] = E[f'] when "
                    f"E[f - f'] = 0), lhs - rhs = {clip(difference, 60)}; ")
    if combined is None:
        return _undecided("expectations", "lhs - rhs is not linear in its expectations")
    if value is None:
        return _undecided("expectations", f"no exact rule gives E[{clip(combined, 60)}], or its "
                                          "existence is not proved")
    # the exact value is decided like any other difference (an identity, a rational)
    decision = symbolic_decision(rel.box, rel.lhs, rel.rhs, rel.op, value)
    decision.step = "expectations"
    if decision.status != "undecided":
        decision.detail = (f"{note}lhs - rhs = E[{clip(combined, 80)}] = {clip(value, 60)} by the exact "
                           "Gaussian rules (linearity, parity, Stein's lemma, the activation's own ODE); "
                           + decision.detail)
    return decision


def combined_expectation(expr):
    """(Σ c_j f_j + r, its exact expectation or None) for expr = Σ c_j E[f_j] + r, linear in its
    opaque expectations; (None, None) when it is not."""
    atoms = sorted(opaque_atoms(expr), key=sympy.default_sort_key)
    combined = combined_body(expr, atoms)
    if combined is None or existence(combined).status != EXISTS:
        return combined, None
    value = rule_expectation(combined)
    if value is None:
        # terms without a rule kept as unknown expectations, which may cancel exactly
        value = rule_expectation(combined, residue=_unknown)
        if value is None or opaque_atoms(sympy.expand(value)):
            return combined, None
    return combined, value


#: Expectations beyond this many are not compared pairwise (each pair is one exact evaluation).
MAX_IDENTIFIED = 6


def identified_expectations(difference):
    """``difference`` with E[f_i] replaced by ±E[f_j] wherever the exact rules give E[f_i ∓ f_j] = 0
    (Stein's lemma makes E[g σ] and E[σ′] one number); every E[f] here exists (the existence step
    ran first), so E[f_i] − E[f_j] = E[f_i − f_j]."""
    atoms = sorted(opaque_atoms(difference), key=sympy.default_sort_key)
    if not 2 <= len(atoms) <= MAX_IDENTIFIED:
        return difference
    replaced: dict = {}
    for i, atom in enumerate(atoms):
        for other in atoms[i + 1:]:
            if other in replaced:
                continue
            (f,), (h,) = atom.args, other.args
            for sign in (1, -1):
                if existence(f.expr - sign * h.expr).status == EXISTS and \
                        rule_expectation(f.expr - sign * h.expr) == 0:
                    replaced[other] = sign * atom
                    break
    return sympy.expand(difference.xreplace(replaced)) if replaced else difference


def _unknown(integrand):
    """E[integrand] as an opaque number (one function, so that rule_expectation's cache holds)."""
    return OPAQUE(sympy.Lambda(GAUSSIAN, integrand))


def combined_body(difference, atoms):
    """Σ c_j f_j + r for difference = Σ c_j E(Lambda(g, f_j)) + r, or None when it is not linear in
    the atoms with coefficients free of them."""
    total = sympy.Integer(0)
    rest = difference
    for atom in atoms:
        coefficient = difference.coeff(atom)
        if coefficient.has(OPAQUE) or coefficient.has(GAUSSIAN):
            return None
        (function,) = atom.args
        total += coefficient * function.expr
        rest -= coefficient * atom
    rest = sympy.expand(rest)
    if rest.has(OPAQUE) or rest.has(GAUSSIAN):
        return None
    return total + rest


# --- the series of the dual kernel -----------------------------------------------------------------
def series_step(rel) -> Decision:
    r"""Inequalities that follow from K = Σ μ_p² ρ^p and K′ = Σ p μ_p² ρ^{p−1} having nonnegative
    coefficients, for any activation, with or without a closed-form kernel.

    For F = K or K′ and an interval [a, b] of its argument:

    - [a, b] ⊂ [0, 1]: F is nondecreasing there, so F(ρ) ∈ [F(a), F(b)];
    - [a, b] ⊂ [−1, 1] otherwise, m = max(|a|, |b|): |F(ρ)| ≤ Σ|coefficient|·|ρ|^p = F(|ρ|) ≤ F(m),
      so F(ρ) ∈ [−F(m), F(m)]; an even F lies in [F(0), F(m)], an odd one in [F(a), F(b)]
      (odd and nondecreasing on [0, 1], so nondecreasing on [−1, 1]).

    A claim whose gap lhs − rhs (signed to read ≥ 0) is c₀ + c₁·F(ρ) or c₀ + c₁·|F(ρ)|, with c₀ and
    c₁ constants, is linear in F (or |F| ∈ [0, F(m)]), so it holds on the box when it holds at both
    ends of that range: each end is a constant, proved ≥ 0 (> 0 for a strict claim) exactly or by
    balls (kernels at rational points, expectations by certified quadrature).  Proves only.
    """
    step = "series"
    if rel.op == "==" or len(rel.box) != 1 or rel.act is None:
        return _undecided(step, "not an inequality in one real variable")
    ((variable, (low, high)),) = rel.box.items()
    gap = (rel.lhs - rel.rhs) if rel.op in (">", ">=") else (rel.rhs - rel.lhs)
    calls = {c for c in rel.calls if type(c).__name__ in ("K", "Kp") and c.has(variable)}
    if len(calls) != 1 or any(c.has(variable) for c in rel.calls if c not in calls):
        return _undecided(step, "lhs - rhs is not a function of one kernel call K(rho) or Kp(rho)")
    (call,) = calls
    (argument,) = call.args
    if argument not in (variable, -variable):
        return _undecided(step, f"the kernel's argument {argument} is not ±{variable}")
    a, b = (low, high) if argument == variable else (-high, -low)
    derivative = type(call).__name__ == "Kp"
    span = _kernel_range(call.func, a, b, _kernel_parity(rel.act, derivative),
                         _nonnegative_activation(rel.act, derivative))
    if span is None:
        return _undecided(step, f"{argument} leaves [-1, 1]")
    y = sympy.Dummy("y", real=True)
    ends = _ends(gap.xreplace({call: y}), y, span)
    if ends is None:
        return _undecided(step, "lhs - rhs is not c0 + c1*F or c0 + c1*|F| in the kernel F")
    strict = rel.op in ("<", ">")
    bases = []
    for end in ends:
        basis = _nonnegative(rel, end, strict)
        if basis is None:
            return _undecided(step, f"the end {clip(end, 60)} of the kernel's range is not proved "
                                    f"{'> 0' if strict else '>= 0'}")
        bases.append(basis)
    basis = Basis.CERTIFIED if Basis.CERTIFIED in bases else Basis.EXACT
    where = f"[{span[0]}, {span[1]}], |{call.func}| <= {span[2]}"
    return Decision("holds", basis, step,
                    detail=f"{call} lies in {where} for {variable} in [{low}, {high}] (a series with "
                           f"nonnegative coefficients), and lhs - rhs is linear in it and "
                           f"{'>' if strict else '>='} 0 at both ends")


def _kernel_parity(act, derivative: bool) -> int:
    """+1 when F(−r) = F(r), −1 when F(−r) = −F(r), 0 when unknown (F = K, or K′ if derivative)."""
    parity, _, _ = symmetry(act)
    return -parity if derivative else parity


def _kernel_range(kernel, a, b, parity: int, nonnegative: bool):
    """(lower, upper, upper bound of |F|) of F(ρ) for ρ in [a, b] (series_step's docstring), or None.

    ``nonnegative``: the function inside F is ≥ 0 everywhere (σ for K, σ′ for K′), so that
    F(ρ) = E[f(X) f(Y)] ≥ 0 for every ρ in [−1, 1] (X, Y standard Gaussians with correlation ρ)."""
    if a < -1 or b > 1:
        return None
    m = max(-a, b)
    if a >= 0:
        return kernel(a), kernel(b), kernel(b)
    if parity == 1:
        return kernel(sympy.Integer(0)), kernel(m), kernel(m)
    if parity == -1:
        return kernel(a), kernel(b), kernel(m)
    return (sympy.Integer(0) if nonnegative else -kernel(m)), kernel(m), kernel(m)


def _nonnegative_activation(act, derivative: bool) -> bool:
    """σ ≥ 0 (σ′ ≥ 0 if ``derivative``) on every smooth piece, as SymPy proves it for real x."""
    x = sympy.Symbol("x", real=True)
    try:
        pieces = derivative_pieces(act) if derivative else smooth_pieces(act)
    except (CertificationError, ValueError):
        return False
    for piece in pieces:
        expr = sympy.simplify(piece.expr.xreplace({act.x: x}))
        if not expr.is_nonnegative:
            return False
    return True


def _ends(linear, y, span):
    """The values of ``linear`` at the ends of y's range, when it is c0 + c1*y or c0 + c1*|y|."""
    magnitude = sympy.Abs(y)
    if linear.has(magnitude):
        z = sympy.Dummy("z", nonnegative=True)
        form, ends = linear.xreplace({magnitude: z}), None
        if not form.has(y):  # |F| in [0, F(max |rho|)]
            ends = (form.xreplace({z: 0}), form.xreplace({z: span[2]}))
            y = z
            linear = form
    else:
        ends = (linear.xreplace({y: span[0]}), linear.xreplace({y: span[1]}))
    if ends is None or sympy.diff(linear, y, 2) != 0 or sympy.diff(linear, y).has(y):
        return None
    return tuple(sympy.expand(e) for e in ends)


def _nonnegative(rel, value, strict: bool):
    """Basis.EXACT or CERTIFIED when ``value`` (a constant of the claim language, with quantity calls
    at numbers) is proved >= 0 (> 0 if strict); else None."""
    ball = _ball(rel, value)  # the quantity calls, before the exact backend makes them opaque
    backend = Quantities(rel.setting.model, rel.act, EXACT)
    try:
        value = sympy.expand(exact(value.xreplace(scalars_of(value, backend, DERIVED_SCALARS)), backend))
    except Unavailable:
        value = None
    if value is None or value.atoms(sympy.Symbol):
        return _by_ball(ball, strict)
    if opaque_atoms(value):
        found = combined_expectation(value)[1]
        value = value if found is None else sympy.expand(found)
    if value == 0:
        return None if strict else Basis.EXACT
    if value.is_Rational:
        return Basis.EXACT if value > 0 else None
    return _by_ball(ball, strict)


def _by_ball(ball, strict: bool):
    if ball is not None and (ball > 0 or (not strict and ball >= 0)):
        return Basis.CERTIFIED
    return None


def _ball(rel, value):
    """A ball of a constant of the claim language (quantity calls at numbers), or None."""
    with working_precision(BALL_DPS):
        try:
            backend = Quantities(rel.setting.model, rel.act, BALLS)
            ball = compile_ball(value, backend)(scalars_of(value, backend, DERIVED_SCALARS))
        except (Unavailable, ValueError):
            return None
    return ball if ball.is_finite() else None
