"""The verdict vocabulary and the statistics that decide sampled verdicts (:mod:`verify.verdict.outcome`)."""

from verify.verdict.outcome import (
    SCOPES,
    Basis,
    FailureKind,
    Impact,
    Outcome,
    Verdict,
    apply_scope_rule,
    default_failure_kind,
    default_impact,
    method_basis,
    residual_text,
    scoped,
    weakest_basis,
)
from verify.verdict.search import SearchResult, maximise
from verify.verdict.statistics import (
    CONFIDENCE,
    Z_CRIT,
    ExponentFit,
    ProbabilityComparison,
    clopper_pearson,
    compare_probability,
    fit_exponent,
    z_score,
)

__all__ = [
    "CONFIDENCE", "SCOPES", "Z_CRIT", "Basis", "ExponentFit", "FailureKind", "Impact", "Outcome",
    "ProbabilityComparison", "SearchResult", "Verdict", "apply_scope_rule", "clopper_pearson",
    "compare_probability", "default_failure_kind", "default_impact", "fit_exponent", "maximise",
    "method_basis",
    "residual_text", "scoped", "weakest_basis", "z_score",
]
