"""The exact reduction of lhs − rhs that the symbolic steps share: expand, cancel, simplify when
small, and a few rewrites that are exact (acos as π/2 − asin, hyperbolic functions as exponentials).
Every rewrite is an identity, so a 0 from it is a proof; callers run it under the CPU budget
(:func:`verify.base.budget.remembered`)."""

from __future__ import annotations

import sympy
from sympy.core.function import AppliedUndef, BadSignatureError

from verify.base.budget import BudgetExceededError, remembered

#: Identities up to this many operations also get sympy.simplify (cheap at this size, slow beyond).
MAX_SIMPLIFY_OPS = 150


def reduced(difference):
    """lhs − rhs expanded, cancelled and, when small, simplified (every rewrite exact); runs guarded."""
    # acos(x) = pi/2 - asin(x) exactly; asin is odd, so SymPy then cancels acos(-x) + acos(x) - pi.
    difference = difference.replace(sympy.acos, lambda a: sympy.pi / 2 - sympy.asin(a))
    # sinh and cosh as exponentials (exactly), so that e^{-1} cosh(rho) meets the kernels of sums of
    # exponentials, which SymPy writes with exp
    difference = difference.replace(sympy.sinh, lambda a: (sympy.exp(a) - sympy.exp(-a)) / 2)
    difference = difference.replace(sympy.cosh, lambda a: (sympy.exp(a) + sympy.exp(-a)) / 2)
    difference = difference.replace(sympy.erfc, lambda a: 1 - sympy.erf(a))  # SymPy keeps both
    difference = sympy.cancel(sympy.expand(difference))
    if difference.free_symbols:
        if difference != 0 and sympy.count_ops(difference) < MAX_SIMPLIFY_OPS:
            difference = simplified(difference)  # cos² + sin² = 1: a 0 from it is an identity
    elif not difference.is_Rational and sympy.count_ops(difference) < 200:
        difference = simplified(difference)
    if difference != 0 and difference.has(sympy.tanh, sympy.asinh, sympy.exp) \
            and sympy.count_ops(difference) < MAX_SIMPLIFY_OPS:
        # every hyperbolic function as exponentials and asinh(x) as log(x + sqrt(x^2 + 1)), exactly:
        # sech^2 + tanh^2 = 1 and asinh(sqrt(2)) = log(sqrt(2) + sqrt(3)) cancel only then
        rewritten = sympy.cancel(sympy.expand(difference.rewrite(sympy.exp).rewrite(sympy.log)))
        if rewritten == 0:
            return rewritten
    return difference


def factored(expression):
    """``expression`` with every polynomial inside it factored too (exact): 4 − (2x − 1)² under a
    square root becomes (3 − 2x)(2x + 1), so that SymPy splits the root over a factor it knows is
    positive and sqrt(3 − 2x)·sqrt(2x + 1) meets it, which simplify() alone leaves apart; then
    simplified, which joins sqrt(p)/p and 1/sqrt(p)."""
    return simplified(sympy.factor(expression, deep=True))


def reduces_to_zero(what: str, attempts) -> bool:
    """Whether one of ``attempts`` ((reduce, expression) pairs, each run guarded and remembered)
    gives exactly 0: a proof that the expression is 0.  An attempt out of its budget proves
    nothing and the next is tried."""
    for reduce, expression in attempts:
        try:
            if remembered(what, reduce, expression) == 0:
                return True
        except BudgetExceededError:
            continue
    return False


#: An integer beyond this many digits in a simplified form: keep the form before simplifying.
MAX_SIMPLIFIED_DIGITS = 300


def simplified(expression):
    """``sympy.simplify(expression)``, unless it makes a huge integer: simplify combines logarithms,
    and 1680000*log(2) becomes log(2**1680000), a number no one can print or use.

    An expectation kept whole, E(Lambda(g, body)), binds g, and simplify works inside its body too
    (E[(σ(g) − 1/2)/g] − E[tanh(g/2)/(2g)] becomes 0 only so).  But its Piecewise pass can
    substitute g = 0 into every g it meets, the bound one too (BadSignatureError, a traceback on
    Eg(g*sign(g)*tanh(g)**2 + cos(g)) == exp(-1/2)); then each kept expectation is a fresh real
    symbol while simplify runs again."""
    try:
        simpler = sympy.simplify(expression)
    except BadSignatureError:
        bound = {atom: sympy.Dummy(real=True) for atom in expression.atoms(AppliedUndef)
                 if atom.has(sympy.Lambda)}
        simpler = sympy.simplify(expression.xreplace(bound)).xreplace({v: k for k, v in bound.items()})
    limit = 10 ** MAX_SIMPLIFIED_DIGITS
    if any(abs(n.p) > limit or abs(n.q) > limit for n in simpler.atoms(sympy.Rational)):
        return expression
    # a kept expectation whose body simplified to a constant (Heaviside(sin² + cos² − 1) is 1/2)
    # is that constant
    constant = {atom: atom.args[0].expr for atom in simpler.atoms(AppliedUndef)
                if len(atom.args) == 1 and isinstance(atom.args[0], sympy.Lambda)
                and not atom.args[0].expr.has(*atom.args[0].variables)}
    return simpler.xreplace(constant) if constant else simpler
