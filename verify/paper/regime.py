"""The main theorems and the regime they are stated in (``[regime]`` of pack.toml), and what a
failing entry does to them there.

A referee ranks errors by what they do to the main results *as stated*: Claim 1 is false for
ξ² > 2k, but Theorems 11–13 and 19 take ξ = 1, where it holds surely, while Theorem 19's rate is
wrong in its own regime.  The pack names the main theorems and the values their regime fixes::

    [regime]
    main = ["Theorem 11", "Theorem 12", "Theorem 13", "Theorem 19"]
    for = ["xi = 1"]
    says = "the main theorems take xi = 1"

A failing outcome says whether it holds in the regime through ``numbers["regime"]``
(``{"holds": bool, "why": str}``): a ledger claim is rerun with the regime's values
(:func:`regime_rerun`), a coded check computes it.  :func:`assess` turns that and the entry's
affected results into the errata's regime line and sort key.
"""

from __future__ import annotations

import re

from verify.paper.pack import BINDING, Regime, current


def regime() -> Regime | None:
    """The current pack's main theorems and their regime, or None."""
    return current().regime


def regime_rerun(for_: tuple[str, ...] | list[str]) -> list[str] | None:
    """The quantifiers with each regime variable the claim quantifies bound to its regime value, or
    None when the claim quantifies none of them (its fail does not depend on the regime)."""
    found = regime()
    if found is None:
        return None
    bound = found.variables()
    out, changed = [], False
    for q in for_:
        name = re.match(r"\s*(\w+)", q).group(1)
        if name in bound and BINDING.match(q) and not BINDING.match(q).group(2).strip().lstrip("-").replace(
                "/", "").isdigit():
            return None  # ξ bound to an expression of other variables (ξ = ξ̄√k): a regime of its own
        if name in bound:
            out.append(bound[name])
            changed = True
        else:
            out.append(q)
    return out if changed else None


def assess(affects: list[str], numbers: dict) -> dict:
    """The regime line of a failing row: the main theorems it puts in doubt and whether it holds
    in their regime.  ``rank`` 0 sorts first: a main theorem in doubt in its stated regime."""
    found = regime()
    if found is None:
        return {"main": [], "holds_in_regime": None, "text": "", "rank": 1}
    main = [label for label in affects if label in found.main]
    verdict = (numbers or {}).get("regime") or {}
    holds = verdict.get("holds")
    if holds is True:
        text = f"outside the main regime: {verdict.get('why', '')} ({found.says})"
    elif main:
        text = f"in the main regime ({found.says}): puts {', '.join(main)} in doubt"
    else:
        text = "affects no main theorem"
    return {"main": main, "holds_in_regime": holds, "text": text,
            "rank": 0 if main and holds is not True else 1}
