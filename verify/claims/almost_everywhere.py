r"""E[f(g)] of a body with jumps, exactly, from its even part almost everywhere.

A Gaussian expectation does not see a null set, so identities that hold off one may be used:
for an argument u of g whose level sets are null,

    Heaviside(−u) = 1 − Heaviside(u),   floor(−u) = −floor(u) − 1,   ceiling(−u) = 1 − ceiling(u)

(off u = 0, or off the integers u crosses), and on the rest of the line Heaviside(u) ∈ {0, 1},
sign(u) ∈ {−1, 1}.  So when f(g) + f(−g), rewritten by the reflections, takes one constant value
2c for every assignment of those values to its jump nodes, f(g) + f(−g) = 2c almost everywhere
and E f = c (g and −g have one law).  This decides E[floor g] = −1/2, E[Heaviside(sin g)] = 1/2,
E[sign(cos g)²] = 1, E[cos(π Heaviside(sin g))] = 0, E[exp(−Heaviside(sin g))] = (1 + e⁻¹)/2
and E[Heaviside(sin g) e^{−g²}] = 1/(2√3) after the existing rules take the even remainder.

Hypothesis, proved here (default deny): every jump argument u is free of switches, finite on
the whole line (:func:`verify.base.singular.singular_candidates` lists no point) and not
constant (two balls of u differ).  A switch-free expression finite on the line is real-analytic
off the zeros of the radicands it holds, where it stays continuous; a non-constant one has no
level set of positive measure (an analytic function constant on an interval is constant).
"""

from __future__ import annotations

import itertools

import sympy

from verify.base.singular import singular_candidates
from verify.certified.balls import working_precision
from verify.certified.compile import constant
from verify.certified.errors import CertificationError
from verify.certified.pieces import is_switch
from verify.claims.language import GAUSSIAN

g = GAUSSIAN
#: Most jump nodes whose values are enumerated (2^n assignments).
MAX_JUMPS = 3
_JUMPS = (sympy.Heaviside, sympy.sign, sympy.floor, sympy.ceiling)
_PROBES = (sympy.Rational(1, 3), sympy.Rational(-5, 7))


def _null_level_sets(u) -> bool:
    """u switch-free, finite on the whole line and not constant (module docstring)."""
    if not u.has(g) or any(is_switch(node) for node in sympy.preorder_traversal(u)):
        return False
    found = singular_candidates(u, g)
    if found is None or found[0] or not found[1]:
        return False
    try:
        with working_precision(30):
            first, second = (constant(u.xreplace({g: p})) for p in _PROBES)
    except CertificationError:
        return False
    return bool(first < second or first > second)


def _reflected(total):
    """``total`` with Heaviside(−u), floor(−u), ceiling(−u) rewritten through Heaviside(u),
    floor(u), ceiling(u) (valid off a null set when u's level sets are null)."""
    def reflect(node):
        (argument, *rest) = node.args
        if not argument.could_extract_minus_sign():
            return node
        u = -argument
        if isinstance(node, sympy.Heaviside):
            return 1 - sympy.Heaviside(u, *rest)
        if isinstance(node, sympy.floor):
            return -sympy.floor(u) - 1
        return 1 - sympy.ceiling(u)

    return total.replace(lambda node: isinstance(node, sympy.Heaviside | sympy.floor | sympy.ceiling),
                         reflect)


def even_part(f):
    """e, free of jumps, with f(g) + f(−g) = 2e almost everywhere (module docstring), or None:
    then E f = E e."""
    jumps = [node for node in sympy.preorder_traversal(f) if isinstance(node, _JUMPS)]
    if not jumps or f.has(sympy.Max, sympy.Min, sympy.Piecewise, sympy.Abs):
        return None
    if not all(_null_level_sets(node.args[0]) for node in jumps):
        return None
    total = sympy.expand(_reflected(f + f.xreplace({g: -g})))
    if total.has(sympy.floor, sympy.ceiling):
        return None  # integer parts that do not cancel take infinitely many values
    nodes = sorted({n for n in sympy.preorder_traversal(total)
                    if isinstance(n, sympy.Heaviside | sympy.sign)}, key=sympy.default_sort_key)
    if len(nodes) > MAX_JUMPS:
        return None
    choices = [(0, 1) if isinstance(n, sympy.Heaviside) else (-1, 1) for n in nodes]
    branches = [total.xreplace(dict(zip(nodes, values, strict=True)))
                for values in itertools.product(*choices)]
    first = branches[0]
    if any(sympy.simplify(other - first) != 0 for other in branches[1:]):
        return None
    return sympy.simplify(first) / 2 if sympy.count_ops(first) <= 120 else first / 2
