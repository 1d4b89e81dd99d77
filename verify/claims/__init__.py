r"""``verify claim``: a theorist's own statement about the model, checked from a line of text.

::

    from verify.claims import claim
    outcome = claim("h(0) >= C_sigma*xi**2/(k + xi**2)", family="orthonormal", activation="relu",
                    for_=["k in 1..32"])
    outcome.verdict, outcome.basis, outcome.counterexample

A claim goes through four stages, each a module that hands one value to the next and is not
re-entered (:func:`claim` below is the whole pipeline):

1. :mod:`~verify.claims.spec`            the text and options → a validated ``ClaimSpec``
   (:mod:`~verify.claims.language` parses the text, :mod:`~verify.claims.quantifiers` ``--for``,
   ``--prob`` and seeds);
2. :mod:`~verify.claims.configurations`  the spec → its configurations, instances drawn
   (:mod:`~verify.claims.model`: an instance in exact, float and ball form);
3. :mod:`~verify.claims.decide`          each configuration → a decision: the escalating steps of
   :mod:`~verify.claims.universal` (symbolic, certified, search, statistical), or
   :mod:`~verify.claims.probability`, or :mod:`~verify.claims.asymptotic`; they evaluate through
   :mod:`~verify.claims.quantities` and :mod:`~verify.claims.evaluate`;
4. :mod:`~verify.claims.outcome`         the decisions → the Outcome and the rerun command.

An outcome left inconclusive because an integer range was too long to enumerate is then tried at
every integer by :mod:`~verify.claims.integers` (an identity with the variable an integer, or the
relation on the range's real hull).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from verify.claims import integers, unbounded
from verify.claims.configurations import settings
from verify.claims.decide import decisions
from verify.claims.outcome import build, parameters
from verify.claims.quantifiers import QuantifierError
from verify.claims.spec import ClaimSpec, build_spec
from verify.verdict import Outcome, Verdict
from verify.verdict.outcome import apply_evidence_rule


def claim(
    text: str,
    *,
    family: str | Sequence[str] | None = None,
    activation: str | Sequence[str] | None = None,
    for_: str | Sequence[str] = (),
    prob: str | None = None,
    growth: str | None = None,
    seeds: str | int | Sequence[int] | None = None,
    lam: str = "1/k",
    draws: int | None = None,
    seed: int = 0,
    full: bool = False,
    latex: bool | None = None,
) -> Outcome:
    """Decide the claim ``text`` and return the :class:`~verify.verdict.Outcome` ``verify check`` uses.

    ``for_`` takes the ``--for`` texts ('m in [0, 1]', 'k in 1..32', 'k in {4, 16}', 'xi = sqrt(k)/2');
    the other arguments are the command's options of the same names (``verify claim --help``).
    ``text`` may be LaTeX (``latex=True``, or detected when ``latex`` is None: a backslash, ``^`` or
    a brace), read into the claim language first (:mod:`verify.claims.latex_input`).
    Bad input raises a :class:`~verify.base.errors.VerifyInputError` with a one-line message.
    """

    quantifiers = (for_,) if isinstance(for_, str) else tuple(for_)
    spec = build_spec(
        text,
        family=family,
        activation=activation,
        for_=quantifiers,
        prob=prob,
        growth=growth,
        seeds=seeds,
        lam=lam,
        draws=draws,
        seed=seed,
        full=full,
        latex=latex,
    )
    return run(spec)


def run(spec: ClaimSpec) -> Outcome:
    """Stages 2 to 4 of the pipeline (module docstring) for a parsed claim."""
    start = time.perf_counter()
    # an integer range too long to enumerate: decided at every integer where a general method can
    outcome = integers.identity(spec) or unbounded.identity(spec)
    if outcome is None:
        try:
            configurations = settings(spec)
        except QuantifierError:
            # too many configurations to enumerate: a proof on the ranges' real hull needs none, and
            # an integer counterexample beside a real one needs two
            decided = integers.relaxation(spec, run)
            if decided is None or decided.verdict not in (Verdict.HOLDS, Verdict.FAILS):
                raise
            decided.numbers["seconds"] = round(time.perf_counter() - start, 3)
            return apply_evidence_rule(decided)
        outcome = apply_evidence_rule(build(spec, configurations, decisions(spec, configurations)))
        outcome.numbers["configurations"] = len(configurations)
        if outcome.verdict is Verdict.INCONCLUSIVE:
            outcome = integers.relaxation(spec, run) or outcome
        outcome = unbounded.widen(spec, outcome)
    # the claim and its options, whichever method decided (the identities skip build)
    outcome.parameters.update(parameters(spec))
    outcome.numbers["seconds"] = round(time.perf_counter() - start, 3)
    return outcome


__all__ = ["claim"]
