"""``verify check``: the engine that runs a paper pack's checks and reports a verdict and evidence
for each.

This package knows no paper: it holds the check vocabulary and registry (:mod:`.core`), the pack
machinery (:mod:`.packs`: which checks a pack runs), the checks made from a pack's data
(:mod:`.ledger_claims`, :mod:`.definitions`), the runner, the reports and the certified
re-decisions the coded checks use (:mod:`.certify`).  The coded checks are a built-in pack's own:
the Dayı–Chen pack's live in :mod:`verify.paper.packs.dayi_chen.checks`, one module per part of
the paper, and register themselves (as checks of that pack) when :func:`load_all` imports them.
"""

from __future__ import annotations

from verify.checks.core import REGISTRY, Check, Context, check, resolve
from verify.verdict import Basis, FailureKind, Outcome, Verdict


def load_all() -> dict[str, Check]:
    """Every check of the built-in (Dayı–Chen) pack, in the paper's order: its coded checks by the
    modules of its checks package's ``SECTIONS``, then as each module defines them; then its
    ledger claims and definitions checks (:func:`verify.checks.packs.builtin_registry`).

    The order does not depend on which module imported which first (a check module may import
    another's helpers), so the reports and the README's tables keep their rows in place."""
    # lazy: the pack machinery reads the ledger (and the claim reader), which `verify --help` and
    # the light users of this package (core, the reports) never need
    from verify.checks.packs import builtin_registry

    return builtin_registry()


def run_check(check_id: str, seed: int = 0, full: bool = False) -> Outcome:
    """The :class:`Outcome` of one check, run directly: what ``verify check --only ID`` computes,
    but a crash propagates as an exception (the runner records it instead)."""
    load_all()
    (chk,) = resolve([check_id])
    return chk.finish(chk.function(Context(seed=seed, full=full, check_id=chk.id)))


__all__ = ["REGISTRY", "Basis", "Check", "Context", "FailureKind", "Outcome", "Verdict", "check", "load_all",
           "resolve", "run_check"]
