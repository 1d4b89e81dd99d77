r"""``verify claim``: a theorist's own statement about the model, checked from a line of text.

::

    from verify.claims import claim
    outcome = claim("h(0) >= C_sigma*xi**2/(k + xi**2)", family="orthonormal", activation="relu",
                    for_=["k in 1..32"])
    outcome.verdict, outcome.basis, outcome.counterexample

Modules, one idea each: :mod:`~verify.claims.language` (the claim text),
:mod:`~verify.claims.quantifiers` (``--for``, ``--prob``, seeds), :mod:`~verify.claims.model`
(an instance in exact, float and ball form), :mod:`~verify.claims.quantities` (the quantities in
each), :mod:`~verify.claims.evaluate` (substitution, lambdify, ball evaluation),
:mod:`~verify.claims.configs` (configurations), :mod:`~verify.claims.universal` (the escalating
steps), :mod:`~verify.claims.probability`, :mod:`~verify.claims.asymptotic`,
:mod:`~verify.claims.statistics` (Monte Carlo), :mod:`~verify.claims.sampling` (redraws and grids)
and :mod:`~verify.claims.decide` (the Outcome and the rerun command).
"""

from __future__ import annotations

from collections.abc import Sequence

from verify.claims.configs import build_spec
from verify.claims.decide import run
from verify.verdict import Outcome


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
) -> Outcome:
    """Decide the claim ``text`` and return the :class:`~verify.verdict.Outcome` ``verify check`` uses.

    ``for_`` takes the ``--for`` texts ('m in [0, 1]', 'k in 1..32', 'k in {4, 16}', 'xi = sqrt(k)/2');
    the other arguments are the command's options of the same names (``verify claim --help``).
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
    )
    return run(spec)


__all__ = ["claim"]
