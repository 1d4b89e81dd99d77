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
"""

from __future__ import annotations

import sympy

from verify.base.errors import clip
from verify.claims.decision import Decision
from verify.claims.existence import EXISTS, existence
from verify.claims.gaussian import OPAQUE, opaque_atoms
from verify.claims.gaussian_rules import rule_expectation
from verify.claims.language import GAUSSIAN, InexactNumberError
from verify.claims.quantities import Unavailable
from verify.claims.universal import symbolic_decision


def _undecided(step: str, detail: str) -> Decision:
    return Decision("undecided", None, step, detail=detail)


def expectations_step(rel) -> Decision:
    """Combine the opaque expectations of lhs − rhs into one and evaluate it exactly."""
    try:
        left, right = rel.exact_sides()
    except (Unavailable, InexactNumberError) as exc:
        return _undecided("expectations", str(exc))
    difference = sympy.expand(left - right)
    atoms = sorted(opaque_atoms(difference), key=sympy.default_sort_key)
    if not atoms:
        return _undecided("expectations", "no expectation without a closed form")
    combined = combined_body(difference, atoms)
    if combined is None:
        return _undecided("expectations", "lhs - rhs is not linear in its expectations")
    if existence(combined).status != EXISTS:
        return _undecided("expectations", f"E[{clip(combined, 60)}] is not proved to exist")
    value = rule_expectation(combined)
    if value is None:
        return _undecided("expectations", f"no exact rule gives E[{clip(combined, 60)}]")
    # the exact value is decided like any other difference (an identity, a rational)
    decision = symbolic_decision(rel.box, rel.lhs, rel.rhs, rel.op, value)
    decision.step = "expectations"
    if decision.status != "undecided":
        decision.detail = (f"lhs - rhs = E[{clip(combined, 80)}] = {clip(value, 60)} by the exact Gaussian "
                           f"rules (linearity, parity, Stein's lemma, the activation's own ODE); "
                           + decision.detail)
    return decision


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
