r"""The first stage of ``verify claim``: the claim's text and options, parsed and validated
into a :class:`ClaimSpec` (else a one-line :class:`~verify.base.errors.VerifyInputError`).

The stages, each a module that hands one value to the next:

1. :mod:`~verify.claims.spec`            text and options → :class:`ClaimSpec`;
2. :mod:`~verify.claims.configurations`  spec → its configurations (instances drawn);
3. :mod:`~verify.claims.decide`          configurations → one decision each (symbolic, certified,
   search, statistical; or per probability / asymptotic group);
4. :mod:`~verify.claims.outcome`         decisions → the :class:`~verify.verdict.Outcome` and its
   rerun command.

Defaults, stated in every outcome and rerun command: k = 4, ξ = 1 and d as in
:func:`verify.claims.model.default_dimension` when a family is given and they are not
quantified; instance seeds 0..3 (0 for a probability claim, whose randomness is ``--draws``
draws of the parts it names); activation relu.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

import sympy

from verify.base.budget import guarded_if_forced
from verify.base.errors import VerifyInputError, clip
from verify.base.validation import count
from verify.base.validation import seed as validate_seed
from verify.claims.language import (
    INSTANCE_PARAMETERS,
    NEEDS_ACTIVATION,
    NEEDS_INSTANCE,
    QUANTITIES,
    ParsedClaim,
    parse_claim,
    scalar_symbol,
)
from verify.claims.latex_input import looks_like_latex, named_activation, read_claim
from verify.claims.model import random_parts
from verify.claims.quantifiers import (
    Probability,
    Quantifier,
    QuantifierError,
    UnusedActivationError,
    UnusedQuantifierError,
    bind,
    parse_probability,
    parse_quantifier,
    parse_seeds,
)
from verify.model.activations import get_activation

FAMILIES = ("orthonormal", "separated", "claim2", "glm")
DEFAULT_K, DEFAULT_XI = 4, 1
DEFAULT_SEEDS, DEFAULT_PROBABILITY_SEEDS = (0, 1, 2, 3), (0,)
#: Draws of the random parts for a probability claim (quick / --full): 400 all-hit draws give a
#: Clopper–Pearson lower bound of 0.964 at confidence 1 − 10⁻⁶.
DRAWS = (400, 4000)
#: Configurations beyond this are refused: each is at least one instance and one decision.
MAX_CONFIGURATIONS = 4096
#: Arguments' domains: the real ones by quantity, and the largest integer argument (mu, hcoef, T).
DOMAINS = {
    "h": (-1, 1, "m = <u, u_hat> is an overlap of unit vectors"),
    "Phi": (-1, 1, "m = <u, u_hat> is an overlap of unit vectors"),
    "grad_var": (-1, 1, "open: at m = ±1 the direction u - m u_hat vanishes"),
    "K": (-1, 1, "rho is a correlation"),
    "Kp": (-1, 1, "rho is a correlation"),
}
MAX_INTEGER_ARGUMENT = {"mu": 200, "hcoef": 40, "T": 200}
#: Relations that go with each order (O bounds from above, Omega from below).
ORDER_RELATIONS = {"O": ("==", "<=", "<"), "Omega": ("==", ">=", ">"), "Theta": ("==",)}


#: The second-layer weights a drawn instance may have: λ = (1/k)·1 (the paper's) or λ = 1.
LAM_CHOICES = ("1/k", "1")


@dataclass(frozen=True)
class ClaimSpec:
    """Everything the decision procedure needs, and the option texts to rebuild the command."""

    claim: ParsedClaim
    quantifiers: tuple[Quantifier, ...]
    families: tuple[str | None, ...]
    activations: tuple[str | None, ...]
    seeds: tuple[int, ...]
    lam: str
    probability: Probability | None
    growth: str | None
    draws: int
    seed: int
    full: bool
    options: dict = field(compare=False)

    @property
    def symbols(self) -> dict[str, sympy.Symbol]:
        return {q.name: q.symbol for q in self.quantifiers}

    def quantifier(self, name: str) -> Quantifier | None:
        return next((q for q in self.quantifiers if q.name == name), None)

    @property
    def mode(self) -> str:
        if self.claim.order is not None:
            return "asymptotic"
        return "probability" if self.probability is not None else "universal"


def _as_tuple(value) -> tuple:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


def build_spec(
    text: str,
    *,
    family=None,
    activation=None,
    for_=(),
    prob: str | None = None,
    growth: str | None = None,
    seeds=None,
    lam: str = "1/k",
    draws: int | None = None,
    seed: int = 0,
    full: bool = False,
    latex: bool | None = None,
) -> ClaimSpec:
    """Parse and validate every part of a claim (else a one-line
    :class:`~verify.base.errors.VerifyInputError`).

    ``text`` is in the claim language, or in LaTeX when ``latex`` is true or (``latex`` None) it
    looks like LaTeX (:func:`verify.claims.latex_input.looks_like_latex`); LaTeX is read into the
    claim language first, and the options keep the text as typed under ``latex``."""

    typed = None
    if latex or (latex is None and looks_like_latex(text)):
        # conditions written after the relation (\quad 0 \le m \le 1) are its quantifiers
        reading = read_claim(text, single=True)
        activation = named_activation(reading.activations, activation, text)
        typed, text, for_ = text, reading.relations[0], (*_as_tuple(for_), *reading.quantifiers)
    quantifiers: list[Quantifier] = []
    names: dict[str, sympy.Symbol] = {n: scalar_symbol(n) for n in INSTANCE_PARAMETERS}
    for raw in _as_tuple(for_):
        q = parse_quantifier(raw)
        if any(p.name == q.name for p in quantifiers):
            raise QuantifierError(f"--for {raw.strip()!r}: {q.name} is quantified twice")
        if q.kind == "binding":
            q = bind(q, names)
        names[q.name] = q.symbol
        quantifiers.append(q)
    variables = {q.name: q.symbol for q in quantifiers}

    try:
        claim = guarded_if_forced(f"claim {text.strip()[:50]!r}", parse_claim, text, variables)
    except VerifyInputError as exc:
        if typed is None:
            raise
        raise type(exc)(f"{exc} (the LaTeX reads as {clip(text, 80)!r})") from None
    used = claim.quantities()
    families = _as_tuple(family)
    for name in families:
        if name not in FAMILIES:
            close = difflib.get_close_matches(str(name), FAMILIES, n=1, cutoff=0.6)
            guess = f"; did you mean {close[0]!r}?" if close else ""
            raise QuantifierError(f"--family: unknown family {name!r}{guess} "
                                  f"(choose from {', '.join(FAMILIES)})")
    if used & NEEDS_INSTANCE and not families:
        needing = ", ".join(sorted(used & NEEDS_INSTANCE))
        raise QuantifierError(f"claim: {needing} needs an instance; give --family ({', '.join(FAMILIES)})")
    activations = _as_tuple(activation)
    if used & NEEDS_ACTIVATION or families:
        activations = tuple(dict.fromkeys(get_activation(a).name for a in (activations or ("relu",))))
    elif activations:
        raise UnusedActivationError(f"--activation {activations[0]!r}: the claim uses no quantity of an "
                                    "activation")
    else:
        activations = (None,)
    spec_seeds = parse_seeds(seeds) if seeds is not None else None
    validate_seed(seed, allow_none=False)
    probability = None
    if prob is not None:
        probability = parse_probability(prob, {n: scalar_symbol(n) for n in INSTANCE_PARAMETERS})
        if not families:
            raise QuantifierError(f"--prob {prob!r}: a probability over the instance needs --family")
        for name in families:
            missing = [p for p in probability.over if p not in random_parts(name)]
            if missing:
                raise QuantifierError(
                    f"--prob {prob!r}: family {name} does not draw {missing[0]} at random "
                    f"(its random parts: {', '.join(random_parts(name)) or 'none'})"
                )
        if "grad_var" in used:
            raise QuantifierError(
                "--prob: grad_var is a Monte-Carlo mean; a probability over instances of it "
                "would need a Monte-Carlo run per draw"
            )
    draws = count("draws", draws if draws is not None else DRAWS[full], minimum=10, limit="samples")
    if lam not in LAM_CHOICES:  # checked before any instance is drawn, used or not
        raise QuantifierError(f"--lam must be one of {', '.join(LAM_CHOICES)}, got {lam!r}")
    spec = ClaimSpec(
        claim,
        tuple(quantifiers),
        families or (None,),
        activations,
        spec_seeds or (DEFAULT_PROBABILITY_SEEDS if probability else DEFAULT_SEEDS),
        lam,
        probability,
        None,
        draws,
        seed,
        full,
        {
            "family": families,
            "activation": _as_tuple(activation),
            "for": _as_tuple(for_),
            "prob": prob,
            "growth": growth,
            "seeds": seeds,
            "lam": lam,
            "draws": draws,
            "seed": seed,
            "full": full,
            "latex": typed,
        },
    )
    _check_unbounded(spec, growth)
    _check_usage(spec)
    if claim.order is not None:
        check_relation(claim)
    growth = _growth(spec, growth)
    return ClaimSpec(**{**spec.__dict__, "growth": growth})


def relation_keywords(text: str, keywords: dict) -> dict:
    """The keywords of one relation of a list of claims (a ledger entry's ``claims``): the entry's,
    less ``activation`` where this relation uses no quantity of an activation (``Eg(g**2) == 1``
    beside ``mu(3) == ...``) and less each ``for`` whose variable it does not hold (``h(1) == ...``
    beside ``h(m) <= h(1)`` with m in [0, 1]): the entry's quantifiers quantify the relations that
    use them, and one unused is refused only in a claim that stands alone."""
    keywords = dict(keywords)
    ranges = keywords.get("for_", ())
    keywords["for_"] = [ranges] if isinstance(ranges, str) else list(ranges)
    for _ in range(len(keywords["for_"]) + 2):
        try:
            build_spec(text, **keywords)
            return keywords
        except UnusedActivationError:
            keywords.pop("activation", None)
        except UnusedQuantifierError as exc:
            if exc.text not in keywords["for_"]:
                raise
            keywords["for_"] = [q for q in keywords["for_"] if q != exc.text]
    return keywords


def _check_unbounded(spec: ClaimSpec, growth) -> None:
    """An unbounded range (``z in R``) only in a universal claim that names no quantity of the model
    (:mod:`verify.claims.unbounded`): a quantity's argument has a bounded domain or an instance."""
    unbounded = [q for q in spec.quantifiers if any(q.unbounded)]
    if not unbounded:
        return
    named = ", ".join(repr(q.text) for q in unbounded)
    if spec.mode != "universal" or growth is not None:
        raise QuantifierError(f"--for {named}: an unbounded range is for a universal claim (no --prob, no "
                              "order); give finite ends")
    quantities = spec.claim.quantities() - {q.name for q in spec.quantifiers}
    if quantities:
        raise QuantifierError(f"--for {named}: an unbounded range is for a claim that names no quantity of "
                              f"the model (this one names {', '.join(sorted(quantities))}); give finite ends")


def _check_usage(spec: ClaimSpec) -> None:
    """Every quantified variable occurs; k, xi, d have values; arguments lie in their quantities' domains."""
    claim = spec.claim
    free = claim.lhs.free_symbols | claim.rhs.free_symbols
    free |= {s for q in spec.quantifiers if q.kind == "binding" for s in q.expression.free_symbols}
    instance = spec.families != (None,)
    for q in spec.quantifiers:
        if q.symbol not in free and not (instance and q.name in INSTANCE_PARAMETERS):
            raise UnusedQuantifierError(f"--for {q.text!r}: {q.name} does not occur in the claim", q.text)
    for name in INSTANCE_PARAMETERS:
        if scalar_symbol(name) in free and spec.quantifier(name) is None and not instance:
            raise QuantifierError(
                f"claim: {name} has no value; quantify it (--for '{name} in ...') or give "
                "--family, whose instances fix it"
            )
    continuous = {q.symbol for q in spec.quantifiers if q.continuous}
    for call in claim.expressions_atoms(sympy.core.function.AppliedUndef):
        name = type(call).__name__
        if name == "Eg" and call.free_symbols & continuous and spec.mode != "universal":
            # a universal claim takes it as a function of the variable (verify.claims.parametric)
            variable = sorted(s.name for s in call.free_symbols & continuous)[0]
            raise QuantifierError(f"claim: {call} depends on the real variable {variable}; in a "
                                  f"{spec.mode} claim Eg(...) is one number per configuration (use a "
                                  f"value, --for '{variable} = ...')")
        if name not in QUANTITIES:
            continue
        for argument in call.args:
            quantified = next((q for q in spec.quantifiers if q.symbol == argument), None)
            if quantified is not None:
                _check_domain(name, quantified)
            elif argument.is_number:
                _check_value(name, argument, str(call))


def _check_domain(name: str, q: Quantifier) -> None:
    if q.kind == "binding":
        if q.expression.is_number:
            _check_value(name, q.expression, f"{name}({q.name}) with {q.text}")
        return
    values = [q.low, q.high] if q.kind in ("real", "integer") else list(q.values)
    for value in values:
        _check_value(name, value, f"{name}({q.name}) with --for {q.text!r}")


def _check_value(name: str, value, where: str) -> None:
    if name in DOMAINS:
        low, high, why = DOMAINS[name]
        open_ends = name == "grad_var"
        inside = (low < value < high) if open_ends else (low <= value <= high)
        if not inside:
            brackets = "(-1, 1)" if open_ends else "[-1, 1]"
            raise QuantifierError(f"{where}: {value} leaves the domain {brackets} of {name} ({why})")
    elif name in MAX_INTEGER_ARGUMENT and not 0 <= value <= MAX_INTEGER_ARGUMENT[name]:
        raise QuantifierError(
            f"{where}: {value} is outside 0..{MAX_INTEGER_ARGUMENT[name]} (the arguments of {name} "
            "are small non-negative integers)"
        )


def _growth(spec: ClaimSpec, growth: str | None) -> str | None:
    if spec.claim.order is None:
        if growth is not None:
            raise QuantifierError(
                f"--growth {growth}: only an O(...), Theta(...) or Omega(...) claim has a growth variable"
            )
        return None
    candidates = [
        q.name for q in spec.quantifiers if q.kind != "binding" and len(q.points()) > 1 or q.continuous
    ]
    if growth is None:
        if len(candidates) != 1:
            raise QuantifierError(
                f"claim: say which variable grows for {spec.claim.order}(...): --growth "
                f"{'|'.join(candidates) or 'NAME (a quantified variable)'}"
            )
        growth = candidates[0]
    q = spec.quantifier(growth)
    if q is None or q.kind == "binding":
        raise QuantifierError(
            f"--growth {growth}: quantify it with a range or values, e.g. --for '{growth} in {{16, 64, 256}}'"
        )
    values = [q.low, q.high] if q.kind in ("real", "integer") else list(q.values)
    if min(values) <= 0 or (q.kind == "values" and len(values) < 3) or max(values) <= min(values):
        raise QuantifierError(
            f"--growth {growth}: a log-log fit needs at least three positive values of {growth}, "
            f"got --for {q.text!r}"
        )
    return growth




def check_relation(claim) -> None:
    """An order goes with the relations that bound from its side (``h(0) <= O(k)``, not ``>=``)."""
    if claim.op not in ORDER_RELATIONS[claim.order]:
        raise QuantifierError(
            f"claim: {claim.order}(...) goes with {' or '.join(ORDER_RELATIONS[claim.order])}, not {claim.op}"
        )
