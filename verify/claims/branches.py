r"""A relation in one variable whose sides switch branch, decided piece by piece.

``Max(x, 1 - x) >= 1/2``, ``acos(cos(x)) == Abs(x)`` or ``sqrt(x**2 - 2*x + 1) == 1 - x`` touch
or are identities only branch by branch: no ball proves them across the switch, and no
simplification sees the branch.  This step cuts the variable's range at every point where a
branch may switch and decides each piece as a relation of its own, with every switch replaced
by its branch there:

- the switches are the nodes of the sides, in the box variable x alone, that
  :func:`verify.certified.pieces.resolve` reads: Abs, sign, Heaviside, Max, Min, floor, ceiling,
  frac and the folds acos(cos u), asin(sin u), atan(tan u); first, a square root of a polynomial
  that is a positive constant times a square, √(c·q²), is written √c·|q| (exact for real x);
- the switch points in the open range are found exactly
  (:func:`verify.certified.windows.switch_points`: roots of the switch arguments by ``solveset``
  or a polynomial's real roots, and of u − n for each integer n an enclosure of a step
  argument reaches);
- on each closed piece [a, b] between consecutive points the branch of each switch is read at a
  sample point inside (ball arithmetic), and the relation with those branches is decided by
  every step (``decide_piece``).

Soundness: on the open piece the branch *is* the side, so a piece's failure at an inner point is
the claim's.  A failure at an end, and the claim at each switch point where a switch may jump
(anything but Abs, Max, Min, acos∘cos, asin∘sin, which are continuous) and at the range's ends,
are decided on the claim itself at that point.  *holds* needs every piece (and every such point)
to hold by exact or certified evidence.  Trusted as for the activations' kinks: ``solveset``'s
finite set holds every root in the range.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy

from verify.base.errors import clip
from verify.certified.compile import constant
from verify.certified.errors import CertificationError
from verify.certified.pieces import free_switches, is_switch
from verify.certified.windows import branches_between
from verify.claims.decision import Decision
from verify.claims.relation import Relation
from verify.verdict import Basis

#: Most pieces one claim is cut into: each is decided by every step (about a second apiece).
MAX_PIECES = 12

#: Switches that are continuous through their switch points (the two branches agree there).
_CONTINUOUS = (sympy.Abs, sympy.Max, sympy.Min, sympy.acos, sympy.asin)
_PROOF = (Basis.EXACT, Basis.CERTIFIED)


def unsquared(expr, x):
    """``expr`` with each √p, p a polynomial in ``x`` equal to c·q² with c > 0, written √c·|q|."""
    def unfold(power):
        base = power.base
        if base.free_symbols != {x} or not base.is_polynomial(x):
            return power
        coefficient, factors = sympy.factor_list(base)
        if not (coefficient.is_positive and factors and all(e % 2 == 0 for _, e in factors)):
            return power
        return sympy.sqrt(coefficient) * sympy.Mul(*(sympy.Abs(q) ** (e // 2) for q, e in factors))

    return expr.replace(lambda e: e.is_Pow and e.exp == sympy.S.Half, unfold)


def _continuous(switches) -> bool:
    return all(not is_switch(n) or isinstance(n, _CONTINUOUS)
               for s in switches for n in sympy.preorder_traversal(s))


def _strictly_inside(point, low, high) -> bool:
    return bool(constant(sympy.sympify(point - low)) > 0 and constant(sympy.sympify(high - point)) > 0)


def _innermost(expr, x) -> list:
    """The switch nodes in ``x`` alone with no switch inside their arguments."""
    return list(dict.fromkeys(
        node for node in sympy.preorder_traversal(expr)
        if is_switch(node) and node.free_symbols == {x}
        and not any(is_switch(inner) for arg in node.args for inner in sympy.preorder_traversal(arg))))


def branches_step(rel: Relation, decide_piece: Callable[[Relation], Decision]) -> Decision:
    """Decide ``rel`` (one box variable) piece by piece between its switch points (module docstring)."""
    if len(rel.box) != 1:
        return Decision("undecided", None, "branches", detail="not one variable")
    ((x, (low, high)),) = rel.box.items()
    lhs, rhs = unsquared(rel.lhs, x), unsquared(rel.rhs, x)
    switches = free_switches(sympy.Tuple(lhs, rhs), x)
    if not switches or low == high:
        return Decision("undecided", None, "branches", detail=f"no switch in {x} alone")
    try:
        try:
            points, pieces = branches_between(switches, x, low, high, MAX_PIECES)
        except CertificationError:
            # a switch inside another's argument (Abs(x - 2*pi*floor(x/(2*pi)))): cut at the
            # innermost ones alone; each piece, holding the outer ones with a smooth argument, is
            # cut again by this step when it is decided
            innermost = _innermost(sympy.Tuple(lhs, rhs), x)
            if set(innermost) == set(switches):
                raise
            points, pieces = branches_between(innermost, x, low, high, MAX_PIECES)
    except CertificationError as exc:
        return Decision("undecided", None, "branches", detail=f"switch points not located: {exc}")
    if len(points) + 1 > MAX_PIECES:
        return Decision("undecided", None, "branches",
                        detail=f"{len(points)} switch points in [{low}, {high}], more than {MAX_PIECES - 1}")
    ends = [low, *points, high]
    continuous = _continuous(switches)
    proved, exact = [], True
    for branches, a, b in pieces:
        piece = rel.with_sides(lhs.xreplace(branches), rhs.xreplace(branches)).within(x, a, b)
        where = f"on [{a}, {b}], where {clip(', '.join(f'{k} = {v}' for k, v in branches.items()), 120)}"
        found = decide_piece(piece)
        if found.status == "fails" and found.basis in _PROOF and found.point and x in found.point:
            p = found.point[x]
            if continuous or _strictly_inside(p, a, b):
                return Decision("fails", found.basis, "branches", point=found.point,
                                detail=f"{where}: {found.detail}")
            at = decide_piece(rel.at({x: p}))
            if at.status == "fails" and at.basis in _PROOF:
                return Decision("fails", at.basis, "branches", point={x: p},
                                detail=f"at {x} = {p}: {at.detail}")
        if found.status != "holds" or found.basis not in _PROOF:
            return Decision("undecided", None, "branches",
                            detail=f"{where}: {found.status} ({clip(found.detail, 120)})")
        exact = exact and found.basis is Basis.EXACT
        proved.append(f"[{a}, {b}]")
    if not continuous:  # a jump's value at its point is neither branch: the range's ends too
        for p in ends:
            at = decide_piece(rel.at({x: p}))
            where = f"at {x} = {p}"
            if at.status == "fails" and at.basis in _PROOF:
                return Decision("fails", at.basis, "branches", point={x: p}, detail=f"{where}: {at.detail}")
            if at.status != "holds" or at.basis not in _PROOF:
                return Decision("undecided", None, "branches",
                                detail=f"{where}: {at.status} ({clip(at.detail, 120)})")
            exact = exact and at.basis is Basis.EXACT
    return Decision("holds", Basis.EXACT if exact else Basis.CERTIFIED, "branches",
                    detail=f"piece by piece between the switch points {points or 'none'}: holds on "
                           f"{', '.join(proved)}" + ("" if continuous else ", and at each switch point"))
