"""The `verify check` harness: registry, verdict records, reports, exit statuses, determinism.

These tests use the cheap exact checks (``d1-parity``, ``d1-h-display``) and
throwaway checks registered here, so they do not depend on the slow ones.
"""

from __future__ import annotations

import json

import pytest

from tests.cli_helpers import assert_one_line_usage_error, run_verify
from verify.checks import REGISTRY, load_all, resolve
from verify.checks.core import Context, UnknownCheckError, check, check_id
from verify.checks.report import errata_table, to_markdown
from verify.checks.runner import run_checks
from verify.verdict import Outcome, Verdict

load_all()


def test_ids_normalise_from_statement_numbers():
    assert check_id("Lemma 31") == check_id("lemma_31") == check_id("LEMMA-31") == "lemma-31"


def test_every_check_quotes_a_statement_and_names_a_method():
    for c in REGISTRY.values():
        assert len(c.quote) > 20, c.id
        assert c.statement and c.section and c.method, c.id


def test_unknown_id_is_a_specific_error():
    with pytest.raises(UnknownCheckError, match="lemma-999"):
        resolve(["lemma-999"])


def test_fails_needs_a_counterexample_and_evidence_is_one_line():
    with pytest.raises(ValueError, match="counterexample"):
        Outcome(Verdict.FAILS, "x")
    with pytest.raises(ValueError, match="one line"):
        Outcome(Verdict.HOLDS, "a\nb")


def test_streams_depend_on_seed_and_check_but_not_on_order():
    a = Context(seed=1, check_id="x").rng("k").random(3)
    assert (a == Context(seed=1, check_id="x").rng("k").random(3)).all()
    assert not (a == Context(seed=2, check_id="x").rng("k").random(3)).all()
    assert not (a == Context(seed=1, check_id="y").rng("k").random(3)).all()


def test_a_crashing_check_is_recorded_not_raised():
    @check("test-crash", "Test 0", "0", "exact", pack="dayi_chen")
    def crash(ctx):
        """Test statement: this check always crashes, to exercise the runner."""
        raise RuntimeError("boom")

    try:
        (result,) = run_checks(resolve(["test-crash"]))
        assert result.crashed and "boom" in result.error
        assert result.to_dict()["verdict"] == "crashed"
    finally:
        del REGISTRY["test-crash"]


def test_report_opens_with_failing_statements():
    results = run_checks(resolve(["d1-parity", "d1-h-display"]))
    md = to_markdown(results, seed=0, full=False)
    head = md.split("## All checks")[0]
    assert "d1-h-display" in head and "d1-parity" not in head
    assert "Correction" in head and "Rerun" in head
    table = errata_table([r.to_dict() for r in results])
    assert "d1-h-display" in table and "d1-parity" not in table


def test_cli_writes_reports_and_exits_0_when_statements_fail(tmp_path):
    out_json, out_md = tmp_path / "r.json", tmp_path / "r.md"
    res = run_verify("check", "--only", "d1-h-display", "d1-parity", "--json", str(out_json),
                     "--markdown", str(out_md), "--quiet")
    assert res.returncode == 0, res.stderr
    report = json.loads(out_json.read_text())
    verdicts = {c["id"]: c["verdict"] for c in report["checks"]}
    assert verdicts == {"d1-h-display": "fails", "d1-parity": "holds"}
    assert report["checks"][0]["reproduce"].startswith("verify check --only d1-h-display")
    assert out_md.read_text().startswith("# verify check report")
    # the HTML report goes beside the Markdown one, never into the working directory
    assert (tmp_path / "r.html").read_text().startswith("<!DOCTYPE html>")


@pytest.mark.extended
def test_same_seed_same_report(tmp_path):
    reports = []
    for i in range(2):
        path = tmp_path / f"r{i}.json"
        res = run_verify("check", "--only", "remark-20", "--seed", "7", "--json", str(path),
                         "--markdown", str(tmp_path / f"r{i}.md"), "--quiet")
        assert res.returncode == 0, res.stderr
        data = json.loads(path.read_text())
        for c in data["checks"]:
            c.pop("seconds")
            c.pop("cached_seconds")  # timing: the second run may read the first one's outcome
        reports.append(data)
    assert reports[0] == reports[1]


def test_list_names_every_check():
    res = run_verify("check", "--list")
    assert res.returncode == 0
    for key in REGISTRY:
        assert key in res.stdout


@pytest.mark.parametrize("args, fragment", [
    (("--only", "lemma-999"), "unknown check id 'lemma-999'"),
    (("--seed", "-3"), "seed"),
    (("--only",), "expected at least one argument"),
])
def test_bad_arguments_exit_2_with_one_line(args, fragment):
    assert_one_line_usage_error(run_verify("check", *args), fragment)


def test_unwritable_report_path_exits_2(tmp_path):
    res = run_verify("check", "--only", "d1-parity", "--json", str(tmp_path))
    assert_one_line_usage_error(res, "is a directory, not a file path")


def test_residual_text_says_what_was_decided_not_rounding_digits():
    """Evidence text goes into the README's errata block, which CI compares with a fresh run:
    a rounding-level residual must read the same on every machine (3.1e-11 on one CPU, 2.2e-11
    on another), while a residual above the tolerance keeps its value."""
    from verify.verdict import residual_text

    assert residual_text(3.1e-11, 1e-7) == residual_text(2.2e-11, 1e-7) == "within 1e-07"
    assert residual_text(1e-7, 1e-7) == "within 1e-07"
    assert residual_text(2.5e-6, 1e-7) == "2.5e-06 (above 1e-07)"


def test_a_holds_on_a_proxy_is_consistent_and_scopes_are_named():
    from verify.verdict import Outcome, Verdict, apply_scope_rule, scoped

    outcome = apply_scope_rule(scoped(Outcome(Verdict.HOLDS, "proved at one m"), "proxy: one m"))
    assert outcome.verdict is Verdict.CONSISTENT and "proxy" in outcome.notes[-1]
    kept = apply_scope_rule(scoped(Outcome(Verdict.HOLDS, "proved"), "statement: every m, symbolically"))
    assert kept.verdict is Verdict.HOLDS
    failed = scoped(Outcome(Verdict.FAILS, "no", counterexample={"m": 0}), "proxy: x")
    assert failed.scope is None  # a counterexample is its own scope
    with pytest.raises(ValueError):
        scoped(Outcome(Verdict.HOLDS, "x"), "somewhere")


def test_registry_is_in_the_papers_order_whatever_imports_what():
    """Rows of the reports and the README's errata table follow the pack's SECTIONS, then each
    module's own order, even when one check module imports another's helpers (which registers that
    one early); the checks made from the ledger (claims, then definitions) come after them."""
    from verify.checks import definitions, ledger_claims
    from verify.paper.packs.dayi_chen.checks import SECTIONS

    package = "verify.paper.packs.dayi_chen.checks"
    modules = [f"{package}.{name}" for name in SECTIONS] + [ledger_claims.__name__, definitions.__name__]
    rank = {module: i for i, module in enumerate(modules)}
    ranks = [rank[c.function.__module__] for c in load_all().values()]
    assert ranks == sorted(ranks)
