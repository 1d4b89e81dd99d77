r"""Universal claims: the steps that decide the relation at every point of the box.

Each step is one function ``Relation -> Decision``; their order, budgets and which claims
they apply to are one list, :data:`verify.claims.steps.STEPS`.  The steps of this module:

1. **symbolic** — every quantity replaced by its closed form on the exact instance
   (:class:`~verify.claims.quantities.ExactQuantities`); lhs − rhs is then simplified
   (``expand`` + ``cancel``): identically 0 proves an identity; a rational nonzero value at a
   rational point refutes one; a rational function of one variable is decided on its interval
   exactly, from the isolated real roots of its numerator (signs between them at rational points).
2. **certified** — Arb balls (:mod:`verify.certified`): a point is decided when the ball of
   lhs − rhs excludes 0; one continuous variable goes to the branch-and-bound prover
   :func:`verify.certified.prover.prove_geq`, two by bisecting the second around it.  Equalities
   can only be refuted this way (a ball never proves two reals equal).
3. **search** — float64 counterexample search (:func:`verify.verdict.maximise`: corners and
   centre, random starts, Nelder–Mead) on the normalised violation
   (lhs − rhs)/(|lhs| + |rhs|); a violation larger than SEARCH_RTOL is re-checked with balls
   when they are available (their verdict is final), so rounding never makes a counterexample.
   A search can only refute: finding nothing is **inconclusive** ("no counterexample in N
   evaluations"), with the reason the symbolic and certified steps gave (e.g. the interval
   where the prover stalled), never holds.
4. **statistical** — for Monte-Carlo quantities (grad_var): the relation at the box's corners and
   centre, violated when the violation exceeds t·SE (:mod:`verify.claims.statistics`); no
   significant violation is **consistent**, never holds.

Only the symbolic and certified steps say **holds**, and only when exact arithmetic or balls
decide the relation with no tolerance at all (a ball that touches 0 decides nothing).

A counterexample is shortened to the fewest decimal digits that still violate (checked the way
it was found), so that its rerun command pins a readable point that reproduces exactly.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import sympy
from flint import arb
from sympy.core.function import AppliedUndef

from verify.base.budget import cpu_seconds, record_spent, remembered
from verify.base.errors import clip
from verify.certified import prover
from verify.certified.balls import BALLS, dyadic, interval, working_precision
from verify.certified.compile import constant
from verify.certified.errors import CertificationError
from verify.certified.pieces import SWITCHES, free_switches
from verify.certified.prover import Status, prove_geq
from verify.certified.windows import branches_between
from verify.claims import angles
from verify.claims.decision import Decision
from verify.claims.domains import inside_stand_in, range_stand_ins, sign_on_box
from verify.claims.evaluate import (
    ClaimEvaluationError,
    compile_ball,
    float_function,
    quantity_calls,
    scalars_of,
)
from verify.claims.language import DERIVED_SCALARS, InexactNumberError
from verify.claims.quantifiers import as_fraction, inside
from verify.claims.quantities import BALL_DPS, Quantities, Unavailable
from verify.claims.reduction import factored, reduces_to_zero
from verify.claims.reduction import reduced as _reduced
from verify.claims.relation import Relation, decide_ball, point_balls, signed_symbol
from verify.claims.signs import holds, one_variable
from verify.claims.statistics import gradient_energy, t_critical
from verify.claims.touching import exact_zero_in_stall, is_zero, prove_touching
from verify.model.arithmetic import FLOAT64
from verify.verdict import Basis, maximise

#: A float64 violation counts when it exceeds this fraction of |lhs| + |rhs| (plus SEARCH_ATOL): the
#: fast evaluators are accurate to ~1e-14 absolute (fast_kernels.DEFAULT_TOLERANCE) summed over k²
#: pairs, so 1e-9 leaves a wide margin; a violation is then re-checked with balls where possible.
SEARCH_RTOL = 1e-9
SEARCH_ATOL = 1e-12
#: Random starts and Nelder–Mead polishes per configuration (quick / --full); claims with hcoef, whose
#: float values come from a 30-digit series per point (~50 ms), get EXPENSIVE_SEARCH_SIZES.
SEARCH_SIZES = ((24, 3), (128, 8))
EXPENSIVE_SEARCH_SIZES = ((8, 0), (32, 1))
#: Bisection budget of one certified proof over an interval, and how deep a second variable is split.
PROVER_EVALUATIONS = (600, 3000)
OUTER_DEPTH = 5
#: Expressions beyond this many operations are not simplified (SymPy's time grows too fast).
MAX_SYMBOLIC_OPS = 5000
#: Ball evaluations one configuration's two-variable proof may spend in all (quick / --full; a
#: second variable split to OUTER_DEPTH costs about 26 000 on the corpus's tight claims).  A
#: count, not seconds, so that the verdict and its reason do not depend on the machine's load.
TWO_VARIABLE_EVALUATIONS = (30000, 300000)
#: CPU seconds after which a two-variable proof stops anyway: a safety cap for expressions whose balls
#: are unusually slow, far above what TWO_VARIABLE_EVALUATIONS costs on the claims of the corpus.
PROOF_SECONDS = (30.0, 300.0)


# --- 1. symbolic -------------------------------------------------------------------------------
def with_notes(decision: Decision, notes: list) -> Decision:
    """``decision`` with the notes on how its values were obtained (a Hermite sum's tail bound)."""
    if notes and decision.status in ("holds", "fails"):
        unique = list(dict.fromkeys(notes))
        decision.detail += "; " + "; ".join(unique)
        decision.numbers["notes"] = unique
    return decision


def _claim_text(lhs, op, rhs) -> str:
    try:
        return clip(f"{lhs} {op} {rhs}")
    except ValueError:  # an integer beyond Python's 4300-digit str() limit (under --force)
        return "an expression with a number too long to print"


def symbolic_step(rel: Relation) -> Decision:
    """lhs − rhs in closed form: an identity, exact roots of a rational function, a rational value."""
    notes: list = []
    try:
        left, right = rel.exact_sides(notes)
    except (Unavailable, InexactNumberError) as exc:
        return Decision("undecided", None, "symbolic", detail=str(exc))
    if rel.op != "==" and len(rel.box) > 1:
        # several variables: only SymPy's sign rules on the box, after the exact reduction
        difference = left - right
        if difference.atoms(AppliedUndef) or sympy.count_ops(difference) > MAX_SYMBOLIC_OPS:
            return Decision("undecided", None, "symbolic", detail="an inequality in several variables")
        text = f"claim {_claim_text(rel.lhs, rel.op, rel.rhs)!r}"
        difference = remembered(lambda: text, _reduced, difference)
        if _signs_on_the_box(rel.box, rel.op, difference):
            return with_notes(Decision(
                "holds", Basis.EXACT, "symbolic",
                detail=f"lhs - rhs = {clip(difference, 100)} has the claimed sign on the box by SymPy's "
                       "sign rules, each variable shifted from an end of its range"), notes)
        refuted = _exact_counterexample(rel.box, rel.op, difference)
        if refuted is not None:  # a strict inequality that touches on the diagonal, at the centre
            return with_notes(refuted, notes)
        return Decision("undecided", None, "symbolic",
                        detail=f"an inequality in several variables (lhs - rhs = {clip(difference, 60)})")
    if (left - right).has(sympy.Derivative):  # of an opaque kernel: no closed form to decide with
        return Decision("undecided", None, "symbolic", detail="a derivative without a closed form")
    return with_notes(symbolic_decision(rel.box, rel.lhs, rel.rhs, rel.op, left - right), notes)


def _constant_decision(box: dict, op: str, difference) -> Decision:
    """An exact irrational constant lhs − rhs (Γ(1/4), γ, log 2, ...) decided by one ball of it
    or, where no ball decides it, by SymPy's sign rules or the angle identities."""
    return _ball_decision(box, op, difference) or _by_sign_rules(box, op, difference) or \
        _by_angles(box, op, difference) or Decision(
            "undecided", None, "symbolic", detail=f"lhs - rhs = {clip(difference, 100)} (not rational)")


def _ball_decision(box: dict, op: str, difference) -> Decision | None:
    """A constant lhs − rhs decided by one ball of it, or None: certified, so an equality is never
    proved this way (a ball that excludes 0 refutes it)."""
    try:
        with working_precision(BALL_DPS):
            # decide_ball reads a gap signed to be >= 0 when the relation holds
            ball = (-1 if op in ("<=", "<") else 1) * constant(difference)
    except CertificationError:
        return None
    verdict = decide_ball(op, ball)
    if verdict == "undecided":
        return None
    signed = "-(lhs - rhs)" if op in ("<=", "<") else "lhs - rhs"
    point = _midpoint(box) if verdict == "fails" else None
    return Decision(verdict, Basis.CERTIFIED, "symbolic", point=point,
                    detail=f"lhs - rhs = {clip(difference, 80)}, whose ball {signed} = {ball.str(6)} "
                           "decides it (a ball of the exact constant)")


#: Which signs of lhs - rhs make each relation hold (the rest make it fail).
_HOLDS_FOR_SIGN = {">": {1}, ">=": {1, 0}, "<": {-1}, "<=": {-1, 0}, "==": {0}}


def _by_sign_rules(box: dict, op: str, difference) -> Decision | None:
    """The sign of an exact constant from SymPy's sign rules, where a ball cannot see it: exp of
    any real number is positive, however small (exp(-10**200/2) underflows every ball to [0 +/- r],
    so E[cos(10**100 g)] > 0 was undecided and a float quadrature even made it fail).  Only for a
    product, power or function of numbers: SymPy decides the sign of a sum of numbers by a
    numerical evaluation, which is not a proof."""
    if any(node.is_Add for node in sympy.preorder_traversal(difference)):
        return None
    if difference.is_positive:
        sign = 1
    elif difference.is_negative:
        sign = -1
    elif difference.is_zero:
        sign = 0
    else:
        return None
    verdict = "holds" if sign in _HOLDS_FOR_SIGN[op] else "fails"
    word = {1: "positive", -1: "negative", 0: "zero"}[sign]
    return Decision(verdict, Basis.EXACT, "symbolic", point=_midpoint(box) if verdict == "fails" else None,
                    detail=f"lhs - rhs = {clip(difference, 80)} is {word} (exact sign rules: a product, sum "
                           "or power of numbers of known sign; no ball can resolve it)")


def _angle_factor(difference):
    """The one factor of a product that holds atan or asin, when every other factor is a nonzero
    number free of them (whether the product is 0 is then whether that factor is); else itself."""
    if not difference.is_Mul:
        return difference
    inverse = (sympy.atan, sympy.asin)
    angular = [f for f in difference.args if f.has(*inverse)]
    others = [f for f in difference.args if not f.has(*inverse)]
    if len(angular) == 1 and all(f.is_number and f.is_zero is False for f in others):
        return angular[0]
    return difference


def _by_angles(box: dict, op: str, difference) -> Decision | None:
    """A sum of arctangents and arcsines of algebraic numbers (:mod:`verify.claims.angles`): 0 when
    e^{i L D} = 1 exactly and a ball has |L D| < 2π; not 0 when e^{i L D} != 1 exactly.  A nonzero
    constant factor (2/π in K(1) - 2/π atan(2/√5) for erf) changes neither, so it is set aside."""
    difference = _angle_factor(difference)
    found = angles.angle_sum(difference)
    if found is None:
        return None
    with working_precision(BALL_DPS):
        try:
            value, real = constant(difference), constant(found.real)
        except CertificationError:
            return None
        # e^{iLD} is a positive real number: LD is in 2πZ; a negative one: LD is π mod 2π
        zero = found.real_axis and (True if real > 0 else False if real < 0 else None)
        if zero is True and not abs(value) * found.scale < 2 * arb.pi():
            zero = None  # a multiple of 2π, but the ball does not say which
    if zero is None or (zero is False and op != "=="):
        return None  # a nonzero D of unknown sign stays with the ball that could not decide it
    turned = f"e^(i*{found.scale}*(lhs - rhs))"
    if zero is False:
        return Decision("fails", Basis.EXACT, "symbolic", point=_midpoint(box),
                        detail=f"lhs - rhs = {clip(difference, 80)} is not 0: {turned} is not 1 "
                               "(exact product of cos + i sin of each angle)")
    verdict = "holds" if op in ("==", "<=", ">=") else "fails"
    return Decision(verdict, Basis.CERTIFIED, "symbolic",
                    point=_midpoint(box) if verdict == "fails" else None,
                    detail=f"lhs - rhs = {clip(difference, 80)} = 0: {turned} = 1 exactly (product of "
                           f"cos + i sin of each angle) and |{found.scale}*(lhs - rhs)| < 2*pi by a ball")


#: The new variable of :func:`_square_root_substitution`: one Dummy, so that a repeated
#: substitution is the same expression and is remembered.
_SUBSTITUTED = sympy.Dummy("t", nonnegative=True)


def _square_root_substitution(box: dict, op: str, difference) -> Decision | None:
    """x = a + t² at the interval's low end a (or x = b − t² at its high end b), when that makes
    lhs − rhs a rational function of t: √(x − a) = t for t ≥ 0, so the exact sign analysis in t
    decides it (√x ≥ x on [0, 1] touches at 0 with an infinite slope, where no ball settles it).
    Only where the interval's width is a rational square, so that t's range has rational ends."""
    if len(box) != 1:
        return None
    ((x, (low, high)),) = box.items()
    root = sympy.sqrt(high - low) if low.is_Rational and high.is_Rational and high >= low else None
    if root is None or not root.is_Rational:
        return None
    t = _SUBSTITUTED
    for end, sign in ((low, 1), (high, -1)):
        substituted = remembered("a square-root substitution", sympy.cancel,
                              sympy.powdenest(difference.xreplace({x: end + sign * t**2}), force=False))
        if substituted.free_symbols != {t} or not substituted.is_rational_function(t):
            continue
        decision = one_variable(substituted, op, {t: (sympy.Integer(0), root)})
        if decision.status == "undecided":
            continue
        point = None if decision.point is None else {x: end + sign * decision.point[t] ** 2}
        written = "t^2" if end == 0 else (f"{end} + t^2" if sign == 1 else f"{end} - t^2")
        return Decision(decision.status, Basis.EXACT, "symbolic", point=point,
                        detail=f"with {x} = {written}, t in [0, {root}]: {decision.detail}")
    return None


def _rational_plus_transcendental(constant) -> bool:
    """Whether ``constant`` is r + c·e^k or r + c·π^k with r, c rational, c ≠ 0 and k a nonzero
    integer: irrational, since e^k (Hermite) and π^k (Lindemann) are transcendental.  Any other
    constant may simplify to a rational (log(4)/log(2), or an expectation's closed form that
    cancels the other side), whose exact verdict outranks a ball's."""
    if constant.free_symbols:
        return False
    rational, rest = constant.as_coeff_Add()
    coefficient, core = rest.as_coeff_Mul()
    if not (rational.is_Rational and coefficient.is_Rational and coefficient != 0):
        return False
    if isinstance(core, sympy.exp):
        return core.args[0].is_Integer and core.args[0] != 0
    base, exponent = core.as_base_exp()
    return base in (sympy.pi, sympy.E) and exponent.is_Integer and exponent != 0


def symbolic_decision(box: dict, lhs, rhs, op, difference) -> Decision:
    """The symbolic step's decision from an exact ``difference`` = lhs − rhs over ``box``."""
    if sympy.count_ops(difference) > MAX_SYMBOLIC_OPS:
        return Decision("undecided", None, "symbolic", detail="expression too large to simplify")
    if op != "==" and difference.free_symbols and not difference.is_rational_function():
        # an end or the centre where SymPy evaluates the sides exactly (cos(pi/2) = 0) can refute it
        return _square_root_substitution(box, op, difference) or _by_signs_on_the_box(box, op, difference) \
            or _exact_counterexample(box, op, difference) \
            or Decision("undecided", None, "symbolic", detail="not a rational function of its variable")
    if _rational_plus_transcendental(difference):
        # no simplifying can make it rational (the exact route would end at its ball too), and the
        # guarded simplifier costs a fork and about half a second: 19 of the 24 s of
        # binomial(n, j) <= (E*n/j)**j over 900 integer points
        decided = _ball_decision(box, op, difference)
        if decided is not None:
            return decided
    if not difference.is_Rational:  # a rational number is already as reduced as it gets: no fork
        difference = remembered(lambda: f"claim {_claim_text(lhs, op, rhs)!r}", _reduced, difference)
    if difference != 0 and _zero_for_the_signs(box, difference):
        difference = sympy.Integer(0)
    if difference != 0 and difference.atoms(AppliedUndef):
        # an opaque kernel or expectation (no closed form) that did not cancel: not a number
        return Decision("undecided", None, "symbolic",
                        detail=f"lhs - rhs = {clip(difference, 100)} (no closed form)")
    if not difference.free_symbols:
        if difference.is_Rational:
            verdict = "holds" if holds(op, difference) else "fails"
            return Decision(
                verdict,
                Basis.EXACT,
                "symbolic",
                point=_midpoint(box) if verdict == "fails" else None,
                detail=f"lhs - rhs = {clip(difference, 100)} exactly",
            )
        return _constant_decision(box, op, difference)
    if difference == 0:
        if op in ("==", "<=", ">="):
            return Decision(
                "holds", Basis.EXACT, "symbolic", detail="lhs - rhs simplifies to 0 (an identity)"
            )
        return Decision(
            "fails", Basis.EXACT, "symbolic", point=_midpoint(box), detail="lhs = rhs identically"
        )
    refuted = _exact_counterexample(box, op, difference)
    if refuted is not None:
        return refuted
    if op != "==" and len(difference.free_symbols) == 1:
        decided = one_variable(difference, op, box)
        if decided.status == "undecided":
            return _by_signs_on_the_box(box, op, difference) or decided
        return decided
    if op == "==" and len(box) == 1:
        decided = _by_vanishing_derivative(box, difference) or _by_continuous_branches(box, difference)
        if decided is not None:
            return decided
    return Decision("undecided", None, "symbolic", detail=f"lhs - rhs = {clip(difference, 100)}")


#: Functions with a jump, and sums, integrals or derivatives left unevaluated: D′ = 0 says nothing
#: across a jump, and SymPy's derivative of the others is not a reduced closed form.
_NOT_DIFFERENTIATED = (sympy.sign, sympy.Heaviside, sympy.floor, sympy.ceiling, sympy.frac, sympy.Piecewise,
                       sympy.Sum, sympy.Integral, sympy.Derivative)


def _by_vanishing_derivative(box: dict, difference) -> Decision | None:
    """An equality in one variable x on [a, b] whose D = lhs − rhs has a derivative SymPy reduces to 0
    (x's sign known from its range): atan(x) + atan(1/x) == pi/2 on [1/2, 2].  D is continuous on
    [a, b], because every operation of the claim is defined on the range (the hypothesis
    OPERATIONS_DEFINED every *holds* needs) and every function left is continuous on its domain;
    its derivative is 0 wherever the formula is defined, which is all but countably many points (the
    zeros of the analytic arguments of sqrt, Abs, acos, ...).  A continuous function whose derivative
    is 0 off a countable set is constant, so D = D(c) at one rational point c of the range decides it."""
    ((x, (low, high)),) = box.items()
    if (difference.free_symbols != {x} or not (low.is_number and high.is_number and low < high)
            or not (low.is_finite and high.is_finite) or difference.has(AppliedUndef, *_NOT_DIFFERENTIATED)):
        return None
    if not _slope_vanishes(sympy.diff(difference, x), x, low, high):
        return None
    point = {x: _rational_inside(low, high)}  # the midpoint, or a rational near it for an irrational end
    value = remembered("lhs - rhs at a point", _reduced, difference.xreplace(point))
    constant_text = f"lhs - rhs = {clip(difference, 80)} has derivative 0 on the range, so it is constant"
    if value == 0:
        return Decision("holds", Basis.EXACT, "symbolic",
                        detail=f"{constant_text}, and 0 at {x} = {point[x]}")
    if value.is_Rational:
        return Decision("fails", Basis.EXACT, "symbolic", point=point,
                        detail=f"{constant_text}, and {value} at {x} = {point[x]}")
    decided = _constant_decision({x: (point[x], point[x])}, "==", value)  # angles: atan(5/4) + atan(4/5)
    if decided.status == "undecided":
        return None
    decided.point = point if decided.status == "fails" else None
    decided.detail = f"{constant_text}; at {x} = {point[x]}, {decided.detail}"
    return decided


#: Continuous switches: a difference that is 0 on each closed piece between their switch points is 0.
_CONTINUOUS_SWITCHES = (sympy.Abs, sympy.Max, sympy.Min)


def _by_continuous_branches(box: dict, difference) -> Decision | None:
    """*holds* for an equality in one variable whose reduced lhs − rhs holds only continuous switches
    (Abs, Max, Min) and reduces to 0 on every piece between their exact switch points, each switch
    replaced by its branch there (:func:`verify.certified.windows.branches_between`, as the branches
    step): sqrt(1 - sin(x)**2) == cos(x) on [-3/2, 3/2], which SymPy reduces to |cos x| − cos x only
    after the claim is read, so the branches step never sees a switch."""
    ((x, (low, high)),) = box.items()
    switches = free_switches(difference, x)
    if not switches or not all(isinstance(s, _CONTINUOUS_SWITCHES) and not s.args[0].has(*SWITCHES)
                               for s in switches) or not (low.is_number and high.is_number and low < high):
        return None
    try:
        points, pieces = branches_between(switches, x, low, high, MAX_BRANCH_PIECES)
    except CertificationError:
        return None
    on_pieces = [[(_reduced, difference.xreplace(branch))] for branch, _, _ in pieces]
    if not pieces or not all(reduces_to_zero("lhs - rhs on a piece", attempts) for attempts in on_pieces):
        return None
    where = f"switching at {', '.join(map(str, points))}" if points else "with no switch on the range"
    return Decision("holds", Basis.EXACT, "symbolic",
                    detail=f"lhs - rhs = {clip(difference, 80)} reduces to 0 on each piece of the range "
                           f"({where}), its Abs/Max/Min replaced by their branch there")


MAX_BRANCH_PIECES = 8


def _rational_inside(low, high) -> sympy.Rational:
    """The midpoint of [low, high] when it is rational, else a rational strictly inside near it."""
    middle = (low + high) / 2
    if middle.is_Rational:
        return middle
    near = sympy.Rational(Fraction(float(middle)).limit_denominator(10**6))
    return near if low < near < high else sympy.Rational(as_fraction(middle, -1))


def _slope_vanishes(slope, x, low, high) -> bool:
    """Whether SymPy reduces ``slope`` to 0 with x signed by its range [low, high], run over
    [low, high) by w ≥ 0 (:func:`~verify.claims.domains.inside_stand_in`: the derivative may be
    nonzero at the end alone), or shifted from either end (x = low + s, s ≥ 0:
    sqrt((1 - x)/(1 + x))·(1 + x) is sqrt(1 - x²) only once 1 + x is known positive, as on
    [-1/2, 1]).  A float value at one of four interior points that is plainly not 0
    skips the reductions (each a forked simplification): it can only lose a proof."""
    if slope.has(sympy.Derivative):  # of a function SymPy cannot differentiate: never reduced to 0
        return False
    for numerator, denominator in ((3, 7), (1, 7), (5, 7), (13, 14)):
        try:
            probe = slope.xreplace({x: low + (high - low) * sympy.Rational(numerator, denominator)}).evalf(30)
        except (ValueError, TypeError, ArithmeticError):
            continue
        if probe.is_Number and probe.is_finite and abs(probe) > 1e-6:  # NaN, zoo: no evidence either way
            return False
    signed = slope.xreplace({x: signed_symbol(x, low, high)})
    # reduced() expands first, which can hide a product of square roots that meet only once the
    # polynomials under them are factored; on a substituted x it expands (a + bw)/(1 + w) into
    # seconds of rational functions, so the stand-ins are factored only
    attempts = [(_reduced, signed), (factored, signed)] + [
        (factored, slope.xreplace({x: stand_in}))
        for stand_in in (inside_stand_in(x, low, high), *range_stand_ins(x, sympy.Interval(low, high))[1:])]
    return reduces_to_zero("the derivative of lhs - rhs", attempts)


def _by_signs_on_the_box(box: dict, op: str, difference) -> Decision | None:
    """*holds* where SymPy's sign rules prove the claimed sign on the box (:func:`_signs_on_the_box`):
    √2 − x ≥ 0 on [0, √2], whose irrational end no rational root isolation or ball reaches."""
    if _signs_on_the_box(box, op, difference):
        return Decision("holds", Basis.EXACT, "symbolic",
                        detail=f"lhs - rhs = {clip(difference, 100)} has the claimed sign on the range by "
                               "SymPy's sign rules, the variable shifted from an end of its range")
    return None


def _exact_counterexample(box: dict, op: str, difference) -> Decision | None:
    """*fails* at a rational point of the box (centre, corners, thirds) where lhs − rhs is an exact
    rational that breaks the relation, or None."""
    for point in _rational_points(box):
        value = difference.xreplace(point)
        if value.is_Rational and not holds(op, value):
            return Decision("fails", Basis.EXACT, "symbolic", point=point,
                            detail=f"lhs - rhs = {clip(difference, 100)} is {value} at this point")
    return None


def _signs_on_the_box(box: dict, op: str, difference) -> bool:
    """lhs − rhs ≥ 0 (> 0; or ≤, < through −(lhs − rhs)) on the whole box by sign rules
    (:func:`verify.claims.domains.sign_on_box`)."""
    ranges = {s: sympy.Interval(*box[s]) for s in difference.free_symbols if s in box}
    signed = difference if op in (">", ">=") else -difference
    return sign_on_box("positive" if op in ("<", ">") else "nonnegative", signed, ranges)


def _zero_for_the_signs(box: dict, difference) -> bool:
    """Whether lhs − rhs simplifies to 0 once SymPy knows the sign of each variable whose range has
    one (-a - Abs(a) for a in [-1, 0]): an identity on the range, not on the whole line."""
    signed = {s: signed_symbol(s, *box[s]) for s in difference.free_symbols if s in box}
    if not signed or all(v.is_positive is None and v.is_negative is None and v.is_nonnegative is None
                         for v in signed.values()):
        return False
    return remembered("the difference with its variables' signs", _reduced, difference.xreplace(signed)) == 0


def _midpoint(box: dict) -> dict:
    return {s: (lo + hi) / 2 for s, (lo, hi) in box.items()}


def _rational_points(box: dict) -> list[dict]:
    """The centre, the corners and the 1/3-points of the box, at exact rationals."""
    axes = [[lo, hi, (lo + hi) / 2, lo + (hi - lo) / 3] for lo, hi in box.values()]
    points = [dict(zip(box, combo, strict=True)) for combo in itertools.product(*axes)]
    return sorted(points, key=lambda p: sum(1 for s in p if p[s] not in box[s]))[:64]


# --- 2. certified ------------------------------------------------------------------------------
def certified_step(rel: Relation) -> Decision:
    """Balls at points (refutes an equality, decides a closed relation), the branch-and-bound prover
    over one or two real variables, then a non-strict inequality in one variable through its
    touching points (a line of contact in two variables is the next step's,
    :mod:`verify.claims.contact`)."""
    with working_precision(BALL_DPS):
        try:
            gap = rel.gap()
            decision = with_notes(_prove(rel.box, rel.op, gap, rel.full), gap.notes)
        except Unavailable as exc:
            return Decision("undecided", None, "certified", detail=str(exc))
        if decision.status == "undecided" and rel.op != "==" and len(rel.box) == 1:
            return _through_touching_points(rel) or _by_monotone(rel) or decision
        return decision


def _by_monotone(rel: Relation) -> Decision | None:
    """An inequality in one variable x on [a, b] whose signed difference D (lhs − rhs for ≥ and >,
    rhs − lhs for ≤ and <) has a derivative the prover shows > 0 (or < 0) on the whole range: D is
    then strictly monotone, so it is smallest at a (or b), and D there decides the claim exactly or
    by its ball.  This settles a touch at an irrational end, where no rational subinterval reaches:
    sin(x) <= sqrt(2)/2 on [0, pi/4], exp(x - pi) >= 1 on [pi, 4].  D′ finite in balls on every
    piece of the range (with Abs, Max, Min a one-sided derivative off finitely many points) and D
    free of jump functions make D continuous, so the monotonicity holds on the closed range."""
    ((x, (low, high)),) = rel.box.items()
    try:
        left, right = rel.exact_sides()
    except (Unavailable, InexactNumberError):
        return None
    signed = (left - right) if rel.op in (">=", ">") else (right - left)
    if signed.free_symbols != {x} or signed.has(AppliedUndef, *_NOT_DIFFERENTIATED) or not low < high:
        return None
    with working_precision(BALL_DPS):
        try:
            slope = compile_ball(sympy.diff(signed, x), Quantities(None, None, BALLS))
        except (Unavailable, ValueError, TypeError):
            return None
        a, b = as_fraction(low, -1), as_fraction(high, +1)
        for sign in (1, -1):
            found = prove_geq(lambda t, sign=sign: sign * slope({x: t}), prover.constant(0), a, b,
                              max_evaluations=PROVER_EVALUATIONS[rel.full], strict=True)
            if found.status is Status.PROVED:
                break
        else:
            return None
    end = low if sign > 0 else high
    value = remembered("lhs - rhs at the end of the range", _reduced, signed.xreplace({x: end}))
    strict = ">" if rel.op in (">", "<") else ">="
    if value.is_Rational:
        verdict, basis, detail = ("holds" if holds(strict, value) else "fails"), Basis.CERTIFIED, f"= {value}"
    else:
        decided = _constant_decision({x: (end, end)}, strict, value)
        if decided.status == "undecided":
            return None
        verdict, basis, detail = decided.status, Basis.CERTIFIED, decided.detail
    direction = "increasing" if sign > 0 else "decreasing"
    return Decision(verdict, basis, "certified", point={x: end} if verdict == "fails" else None,
                    detail=f"the signed lhs - rhs is strictly {direction} on the range (the prover: its "
                           f"derivative's balls are {'> 0' if sign > 0 else '< 0'}), so smallest at "
                           f"{x} = {end}, where it is {detail}")


def _through_touching_points(rel: Relation) -> Decision | None:
    """A non-strict inequality attained at a point, proved by :mod:`verify.claims.touching` from
    the exact sides (None when they have no closed form in the box variable); a relation that
    fails only next to where its sides meet, refuted there (:func:`_witness_near`)."""

    ((variable, (low, high)),) = rel.box.items()
    if not (low.is_number and high.is_number and low.is_finite and high.is_finite):
        return None
    # an irrational end is rounded outward (within 2^-200): a proof over the wider range covers the
    # range asked for, and a witness is used only inside it (sin(x) >= 0 on [0, pi/2])
    a, b = as_fraction(low, -1), as_fraction(high, +1)
    try:
        left, right = rel.exact_sides()
    except (Unavailable, InexactNumberError):
        return None
    difference = (left - right) if rel.op in (">=", ">") else (right - left)
    if rel.op in ("<", ">"):
        # A strict relation fails where the sides are exactly equal: at an end (also with opaque
        # kernels: K(1) - K(1) is 0 exactly), or the simplest rational of the interval where the
        # prover stalled (where balls can never decide it).
        for end in (low, high):
            if is_zero(difference.xreplace({variable: end})):
                return Decision("fails", Basis.EXACT, "symbolic", point={variable: end},
                                detail=f"lhs = rhs exactly at {variable} = {end}")
    opaque = bool(difference.free_symbols - {variable} or difference.atoms(sympy.Float, AppliedUndef))
    if opaque or not _arcsines_defined(difference, variable, low, high):
        # an opaque kernel is not a function the touching rules can read, and SymPy would continue
        # asin/acos beyond [-1, 1] into complex values: only the balls near the ends remain
        return _witness_near(rel, variable, [low, high], low, high)
    if rel.op in ("<", ">"):
        point = exact_zero_in_stall(difference, variable, a, b)
        if point is not None and low <= point <= high:
            return Decision("fails", Basis.EXACT, "symbolic", point={variable: point},
                            detail=f"lhs = rhs exactly at {variable} = {point}")
        return None
    proof = prove_touching(difference, variable, a, b, exact_ends={a: low, b: high})
    if proof.proved:
        return Decision("holds", Basis.CERTIFIED, "certified", detail=proof.detail)
    for x in proof.refuted_at:  # the prover's witness, confirmed by the relation's own balls
        if not x.is_Rational and low <= x <= high:  # an exact irrational dip: read it exactly
            value = remembered("lhs - rhs at a point", _reduced, difference.xreplace({variable: x}))
            if value.is_Rational and value < 0:
                return Decision("fails", Basis.EXACT, "symbolic", point={variable: x},
                                detail=f"lhs - rhs = {-value if rel.op in ('<=', '<') else value} exactly "
                                       f"at {variable} = {x}, where its derivative is 0")
        if low <= x <= high and rel.certified_check({variable: x}) == "fails":
            return Decision("fails", Basis.CERTIFIED, "certified", point={variable: x},
                            detail=f"the ball of lhs - rhs at {variable} = {x} violates the relation "
                                   f"(the touching prover's witness)")
    return _witness_near(rel, variable, [low, high, *proof.touches], low, high)


#: Distances 2^-n from a point where the sides meet at which a violation is looked for, and the
#: CPU seconds the search may spend (it only refutes: stopping early loses power, never soundness).
WITNESS_DISTANCES = tuple(range(2, 62, 3))
WITNESS_CPU_SECONDS = 3.0


def _witness_near(rel: Relation, variable, points, low, high) -> Decision | None:
    """A certified counterexample next to a point where the sides meet (an end, a touching point):
    a claim off by 1e-6 of a tangent fails only within ~1e-6 of the touch (or of 0), where the prover's
    intervals stall and float64 cannot see the violation.  Each candidate p ± 2^-n is an exact
    rational of the box, decided by one ball evaluation of the gap (never by a tolerance)."""
    # 0 too, where a kernel's Taylor polynomial touches it (K(0) + K'(0) rho)
    start = cpu_seconds()
    for point in dict.fromkeys([*points, sympy.Integer(0)]):
        if not (low <= point <= high):
            continue
        for n in WITNESS_DISTANCES:
            if cpu_seconds() - start > WITNESS_CPU_SECONDS:
                record_spent()
                return None  # a gap that costs seconds per ball (hcoef, long sums): give up
            for side in (-1, 1):
                x = point + side * sympy.Rational(1, 2**n)
                if low <= x <= high and rel.certified_check({variable: x}) == "fails":
                    return Decision("fails", Basis.CERTIFIED, "certified", point={variable: x},
                                    detail=f"the ball of lhs - rhs at {variable} = {point} "
                                           f"{'+' if side > 0 else '-'} 2^-{n} violates the relation "
                                           f"(next to where the sides meet)")
    return None


def _arcsines_defined(difference, variable, low, high) -> bool:
    """Every asin/acos argument of ``difference`` provably in [-1, 1] for ``variable`` in [low, high]
    (ball prover; a variable declared inside [-1, 1] needs no proof)."""
    for call in difference.atoms(sympy.asin, sympy.acos):
        (argument,) = call.args
        if argument == variable and -1 <= low and high <= 1:
            continue
        if argument.free_symbols - {variable}:
            return False
        with working_precision(BALL_DPS):
            try:
                value = compile_ball(argument, Quantities(None, None, BALLS))
            except Unavailable:
                return False
            a, b = as_fraction(low, -1), as_fraction(high, +1)
            above = lambda t, f=value: f({variable: t}) + 1  # noqa: E731
            below = lambda t, f=value: 1 - f({variable: t})  # noqa: E731
            for bound in (above, below):
                if prove_geq(bound, prover.constant(0), a, b, max_evaluations=PROVER_EVALUATIONS[0],
                             strict=False).status is not Status.PROVED:
                    return False
    return True


def _width_text(value) -> str:
    """`` (its radius is 1.2e-16)`` for a ball, or '' when the radius cannot be read."""
    try:
        return f" (its radius is {float(value.rad()):.2g})"
    except (AttributeError, TypeError, ValueError):
        return ""


def _prove(box: dict, op: str, gap, full: bool) -> Decision:
    if op == "==" or not box:
        widest = None
        for point in [{}] if not box else _rational_points(box)[:9]:
            value = gap(point_balls(point))
            verdict = decide_ball(op, value)
            if verdict == "undecided":
                widest = _width_text(value)
            if verdict == "fails":
                return Decision(
                    "fails",
                    Basis.CERTIFIED,
                    "certified",
                    point=point,
                    detail="the ball of lhs - rhs excludes the claim here",
                )
            if not box and verdict == "holds":
                return Decision("holds", Basis.CERTIFIED, "certified", detail="ball of lhs - rhs decides it")
        if op == "==":
            return Decision("undecided", None, "certified",
                            detail="balls do not decide an equality (a ball of a nonzero width always "
                                   "contains values on both sides of 0)")
        # the margin, if any, is below what the balls resolve: that is the reason, stated with its size
        return Decision("undecided", None, "certified",
                        detail=f"the ball of lhs - rhs contains 0{widest}: a margin narrower than that "
                               f"is not resolved at {BALL_DPS} digits")
    if len(box) > 2:
        return Decision("undecided", None, "certified", detail="more than two continuous variables")
    names = sorted(box, key=lambda s: (s.name != "m", s.name))
    inner, outer = names[0], (names[1] if len(names) > 1 else None)
    a, b = as_fraction(box[inner][0], -1), as_fraction(box[inner][1], +1)  # outward: a proof covers the box
    budget = PROVER_EVALUATIONS[full]
    if outer is None:
        result = prove_geq(lambda t: gap({inner: t}), prover.constant(0), a, b, max_evaluations=budget,
                           strict=op in ("<", ">"))
        if result.status is Status.REFUTED:
            return _refuted(result, inner, {}, box)
        if result.status is Status.UNDECIDED:
            return Decision("undecided", None, "certified", detail=f"prover on {inner}: {result.describe()}")
        return Decision("holds", Basis.CERTIFIED, "certified", detail=f"prover: {result.describe()}")
    low, high = as_fraction(box[outer][0], -1), as_fraction(box[outer][1], +1)
    queue: list[tuple[Fraction, Fraction, int]] = [(low, high, 0)]
    proofs, spent, start = 0, 0, cpu_seconds()
    while queue:
        over_time = cpu_seconds() - start > PROOF_SECONDS[full]
        if spent >= TWO_VARIABLE_EVALUATIONS[full] or over_time:
            if over_time:
                record_spent()
            c, d, _ = queue[0]
            limit = (f"CPU-time budget ({PROOF_SECONDS[full]:g} s)" if over_time
                     else f"budget of {TWO_VARIABLE_EVALUATIONS[full]} ball evaluations")
            return Decision("undecided", None, "certified",
                            detail=f"{limit} spent after {proofs} proofs, {outer} in [{float(c):.6g}, "
                                   f"{float(d):.6g}] still open")
        c, d, depth = queue.pop(0)
        fixed = {outer: interval(c, d)}

        def slice_gap(t, fixed=fixed):
            return gap({inner: t} | fixed)

        result = prove_geq(slice_gap, prover.constant(0), a, b, max_evaluations=budget,
                           strict=op in ("<", ">"))
        proofs, spent = proofs + 1, spent + result.evaluations
        if result.status is Status.REFUTED:
            return _refuted(result, inner, {outer: sympy.Rational(*_pair((c + d) / 2))}, box)
        if result.status is Status.UNDECIDED:
            if depth >= OUTER_DEPTH:
                where = f"{outer} in [{float(c):.6g}, {float(d):.6g}]"
                return Decision("undecided", None, "certified",
                                detail=f"prover at {where}: {result.describe()}")
            middle = (c + d) / 2
            queue += [(c, middle, depth + 1), (middle, d, depth + 1)]
    return Decision(
        "holds",
        Basis.CERTIFIED,
        "certified",
        detail=f"branch and bound: {proofs} interval proof(s), every ball of the gap > 0",
    )


def _refuted(result, inner, outer_point: dict, box: dict) -> Decision:
    """The prover's witness (an exact dyadic point) with the second variable's point, as a Decision.

    The prover ran on the box rounded outward (irrational endpoints), so a witness outside the
    box asked for refutes nothing: undecided then."""

    assert result.witness is not None
    where = Fraction(result.endpoint) if result.endpoint is not None else dyadic(result.witness)
    point = {inner: sympy.Rational(*_pair(where))} | outer_point
    if not all(inside(v, *box[s]) for s, v in point.items()):
        return Decision("undecided", None, "certified", detail="the prover's witness lies outside the box "
                        "(its irrational endpoint was rounded outward)")
    return Decision("fails", Basis.CERTIFIED, "certified", point=point,
                    detail=f"prover: {result.describe(str(inner))}")


def _pair(value: Fraction) -> tuple[int, int]:
    return value.numerator, value.denominator


# --- 3. search ---------------------------------------------------------------------------------
def tolerance_text(backend=None) -> str:
    """The search's tolerance as printed in its verdicts: every tolerance is stated."""
    atol = SEARCH_ATOL + 2 * (backend.error_bound if backend is not None else 0.0)
    return f"rtol {SEARCH_RTOL:g} of |lhs| + |rhs| plus atol {atol:.2g}"


def violation(op: str, left, right, atol: float = SEARCH_ATOL):
    """How far (left, right) violate ``op`` relative to |left| + |right|, less SEARCH_RTOL, elementwise
    (> 0: violated beyond rounding and beyond ``atol``, the absolute error of the values; non-finite
    values count as no violation)."""
    left, right = np.asarray(left, float), np.asarray(right, float)
    gap = {
        "==": np.abs(left - right),
        "<=": left - right,
        "<": left - right,
        ">=": right - left,
        ">": right - left,
    }[op]
    with np.errstate(invalid="ignore", divide="ignore"):
        out = (gap - atol) / (np.abs(left) + np.abs(right) + SEARCH_ATOL) - SEARCH_RTOL
    return np.where(np.isfinite(out), out, -np.inf)


def search_step(rel: Relation) -> Decision:
    """A float64 counterexample search; a violation is re-checked in balls.  Only refutes."""
    symbols, (f_left, f_right), backend = rel.float_sides()
    op = rel.op

    def measure(z) -> float:
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            left, right = float(f_left(*z)), float(f_right(*z))
        if not (np.isfinite(left) and np.isfinite(right)):
            where = ", ".join(f"{s}={float(v):.6g}" for s, v in zip(symbols, z, strict=True))
            raise ClaimEvaluationError(
                f"claim: a side is not a finite real number at {where or 'this point'} (lhs = {left}, "
                f"rhs = {right}); the ranges leave the expression's domain")
        return float(violation(op, left, right, SEARCH_ATOL + 2 * backend.error_bound))

    bounds = [(float(lo), float(hi)) for lo, hi in rel.box.values()]
    corners = [
        np.array(c, float) for c in itertools.product(*[(lo, (lo + hi) / 2, hi) for lo, hi in bounds])
    ][:81]
    scores = [measure(c) for c in corners] or [measure(np.zeros(0))]
    best_point = corners[int(np.argmax(scores))] if corners else np.zeros(0)
    best = max(scores)
    evaluations = len(scores)
    if bounds and best <= 0:
        starts, polish = (EXPENSIVE_SEARCH_SIZES if rel.uses("hcoef") else SEARCH_SIZES)[rel.full]
        found = maximise(measure, bounds, rel.rng, starts=starts, polish=polish)
        evaluations += found.evaluations
        if found.worst > best:
            best, best_point = found.worst, found.argmax
    left, right = float(f_left(*best_point)), float(f_right(*best_point))
    numbers: dict = {"worst_violation": float(best + SEARCH_RTOL), "evaluations": evaluations, "lhs": left,
                     "rhs": right, "ratio": left / right if right else None}
    if best <= 0:
        # Not a proof: a float64 search sees neither a violation narrower than its samples nor
        # one below its tolerance (K(-1) >= -0.3942944903 for tanh, false by 1e-10, "held").
        return Decision(
            "inconclusive",
            Basis.NONE,
            "search",
            numbers=numbers,
            detail=f"no counterexample in {evaluations} float64 evaluations (violations below "
                   f"{tolerance_text(backend)} are not resolved), which proves nothing"
                   + "".join(f"; {note}" for note in dict.fromkeys(backend.notes)),
        )
    point = dict(zip(symbols, best_point, strict=True))
    return confirm(rel, point, lambda p: measure(np.array([float(p[s]) for s in symbols])) > 0, numbers)


def confirm(rel: Relation, point: dict, still_violates, numbers: dict) -> Decision:
    """A float counterexample, shortened, then re-checked with balls (whose verdict is final)."""
    exact_point = shorten(point, rel.box, still_violates)
    verdict = rel.certified_check(exact_point) if rel.act or rel.setting.model is None else "undecided"
    if verdict == "holds":
        return Decision(
            "inconclusive",
            Basis.NONE,
            "search",
            numbers=numbers,
            detail="the search's float64 violation vanishes in ball arithmetic (rounding), and no "
                   "step proved the claim elsewhere",
        )
    if verdict != "fails":
        # A float64 value has no error bound: cos(10**100*g) integrated by float quadrature gave
        # -0.107 for a positive number.  A true statement must never fail on rounding, so only a
        # violation the balls confirm refutes (issue #48, item 4).
        size = numbers.get("worst_violation")
        return Decision(
            "inconclusive",
            Basis.NONE,
            "search",
            numbers=numbers,
            detail="a float64 violation" + (f" of relative size {size:.2g}" if size is not None else "")
                   + " that no ball could confirm (float64 evidence has no error bound, so it refutes "
                     "nothing)",
        )
    return Decision(
        "fails",
        Basis.CERTIFIED,
        "search",
        point=exact_point,
        numbers=numbers,
        detail="counterexample search; confirmed in ball arithmetic",
    )


def shorten(point: dict, box: dict, still_violates) -> dict:
    """Each coordinate as the shortest decimal (1 to 17 significant digits) inside the box with which
    ``still_violates`` stays true; exact SymPy Rationals of those decimals."""
    current = {s: sympy.Rational(repr(float(v))) for s, v in point.items()}
    for s in current:
        low, high = box[s]
        for digits in range(1, 18):
            candidate = sympy.Rational(f"{float(current[s]):.{digits}g}")
            candidate = min(max(candidate, low), high)
            trial = current | {s: candidate}
            if still_violates(trial):
                current = trial
                break
    return current


# --- 4. statistical ----------------------------------------------------------------------------
def statistical_step(rel: Relation) -> Decision:
    """Monte-Carlo quantities: a violation beyond t·SE refutes; none is only *consistent*."""
    setting, lhs, rhs, op = rel.setting, rel.lhs, rel.rhs, rel.op
    backend = Quantities(setting.model, rel.act, FLOAT64, rel.seed, rel.full)
    difference = (lhs - rhs) if op not in ("<=", "<") else (rhs - lhs)
    calls = sorted((f for f in quantity_calls(difference) if type(f).__name__ == "grad_var"), key=str)
    stand_ins = sympy.symbols(f"G0:{len(calls)}", real=True)
    replaced = difference.xreplace(dict(zip(calls, stand_ins, strict=True)))
    replaced = replaced.xreplace(scalars_of(replaced, backend, DERIVED_SCALARS))
    symbols = list(setting.box)
    value_fn = float_function(replaced, [*symbols, *stand_ins], backend)
    slopes = [float_function(sympy.diff(replaced, g), [*symbols, *stand_ins], backend) for g in stand_ins]
    argument_fns = [[float_function(a, symbols, backend) for a in call.args] for call in calls]
    t = t_critical()
    grid = [
        dict(zip(symbols, c, strict=True))
        for c in itertools.product(*[(lo, (lo + hi) / 2, hi) for lo, hi in setting.box.values()])
    ][:27]
    worst = None
    for point in grid or [{}]:
        z = [float(point[s]) for s in symbols]
        estimates = []
        for fns in argument_fns:
            m, xi = (float(fn(*z)) for fn in fns)
            estimates.append(gradient_energy(setting.model, xi, m, rel.full, rel.seed))
        means = [e.mean for e in estimates]
        value = float(value_fn(*z, *means))
        se = sum(abs(float(fn(*z, *means))) * e.se for fn, e in zip(slopes, estimates, strict=True))
        score = (abs(value) if op == "==" else -value) / (t * se) if se > 0 else (np.inf if value else 0.0)
        if worst is None or score > worst[0]:
            worst = (score, point, value, se)
    assert worst is not None
    score, point, value, se = worst
    numbers = {"z_over_t": score, "difference": value, "standard_error": se, "t_critical": t}
    if score > 1:
        return Decision(  # a violation beyond t*SE: a false failure is rarer than 1e-7 per point
            "fails",
            Basis.STATISTICAL,
            "statistical",
            point=point,
            numbers=numbers,
            detail=f"violated by {abs(value):.4g} > t*SE = {t * se:.3g} (t = {t:.2f})",
        )
    if setting.box:
        # a grid is not a range (issue #48, item 4): between the corners and the centre of the box
        # the relation is not measured at all, so no verdict covers the range
        names = ", ".join(s.name for s in symbols)
        return Decision(
            "inconclusive",
            Basis.NONE,
            "statistical",
            numbers=numbers,
            detail=f"no significant violation at the {len(grid)} corner and centre point(s) of the range of "
                   f"{names} (worst |gap|/(t*SE) = {score:.3g}), but a grid is not a range: the points "
                   "between them are not measured",
        )
    # No significant violation is not a proof: a violation smaller than t*SE passes unseen.
    return Decision(
        "consistent",
        Basis.STATISTICAL,
        "statistical",
        numbers=numbers,
        detail=f"no significant violation at {len(grid) or 1} point(s): worst |gap|/(t*SE) = {score:.3g} "
               f"(a violation below t*SE = {t * se:.3g} would pass unseen)",
    )
