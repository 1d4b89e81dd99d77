"""The README's figures table is what the runs' JSONs say (verify.figures.summary)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from verify.base.errors import InvalidParameterError
from verify.figures.summary import render, summarize

ROOT = Path(__file__).resolve().parent.parent
RATIO = "steps to weak recovery agree across activations within a factor 5 (|m| >= 1/2)"
REACH = "every activation reaches weak recovery"


def _both(tier: str, paper_ratio_holds: bool) -> dict:
    """A fig1a_4b.json as `verify figures --setup both` writes it (the fields the summary reads)."""
    return {"tier": tier, "setups": {"comparison": [
        {"claim": REACH, "paper": True, "normalised": True, "numbers": {"paper": None, "normalised": None},
         "paper sensitivity": {"eta": {"x0.316": True, "x1": True, "x3.16": False}}},
        {"claim": RATIO, "paper": paper_ratio_holds, "normalised": False,
         "numbers": {"paper": {"ratio max/min": 27.5, "status": "not reproduced"},
                     "normalised": {"ratio max/min": 358.0}},
         "paper sensitivity": {"eta": {"x0.316": False, "x1": False, "x3.16": False},
                               "horizon": {"T x0.1": False, "T x1": None}}},
    ]}}


def _write(directory: Path, name: str, meta: dict) -> Path:
    directory.mkdir(exist_ok=True)
    (directory / name).write_text(json.dumps(meta))
    return directory


def test_both_setups_give_verdicts_numbers_and_sensitivity(tmp_path):
    summary = summarize(_write(tmp_path / "q", "fig1a_4b.json", _both("quick", False)))
    assert summary["tier"] == "quick"
    figure = summary["figures"]["fig1a_4b"]
    assert figure["figure"] == "Fig. 1(a) = Fig. 4(b)" and figure["setups"] == ["paper", "normalised"]
    ratio = figure["claims"][1]
    assert (ratio["paper"], ratio["normalised"]) == (False, False)
    assert ratio["headline"] == {"paper": "ratio max/min 27.5", "normalised": "ratio max/min 358"}
    assert ratio["paper_sensitivity"] == {"eta": "0/3", "horizon": "0/1"}  # None: not judged, not counted
    assert figure["claims"][0]["paper_sensitivity"] == {"eta": "2/3"}


def test_render_rows_escape_pipes_and_list_claims_reproduced_under_neither_setup(tmp_path):
    quick = summarize(_write(tmp_path / "q", "fig1a_4b.json", _both("quick", True)))
    full = summarize(_write(tmp_path / "f", "fig1a_4b.json", _both("full", False)))
    text = render(quick, full)
    row = next(line for line in text.splitlines() if "factor 5" in line)
    # every | of a cell is escaped; a prose |m| is escaped twice, since GitHub removes one
    # backslash before a cell's pipes and then reads \\| as a plain |
    assert "\\\\|m\\\\|" in row
    from tests.markdown_lint import render as github
    from tests.markdown_lint import table_problems

    assert not table_problems(text)
    assert "|m| &gt;= 1/2" in github(text)
    cells = [c.strip() for c in row.replace("\\\\|", "¦").replace("\\|", "¦").split("|")[1:-1]]
    assert cells[2:6] == ["yes (ratio max/min 27.5)", "**no** (ratio max/min 358)",
                          "**no** (ratio max/min 27.5)", "**no** (ratio max/min 358)"]
    assert cells[6] == "η 0/3, T 0/1; η 0/3, T 0/1"
    neither = text.split("Not reproduced under either setup at full size")[1]
    assert "factor 5" in neither and REACH not in neither
    # each finding shows its numbers and how to rerun it
    assert "(paper: ratio max/min 27.5; normalised: ratio max/min 358)" in neither
    assert "rerun: `verify figures --full --only fig1a_4b --out figures-full/`" in neither


def test_one_setup_runs_say_not_run_and_are_not_findings(tmp_path):
    """A `--setup normalised` run judged nothing under the paper setup: its cells say so, and
    a claim failing there is not called reproduced under neither setup."""
    normalised = {"tier": "full",
                  "claims": [{"claim": RATIO, "holds": False, "numbers": {"ratio max/min": 358.0}}]}
    full = summarize(_write(tmp_path / "f", "fig1a_4b.json", normalised))
    text = render(None, full)
    row = next(line for line in text.splitlines() if "factor 5" in line)
    assert row.count("not run") == 3  # paper and normalised quick, paper full
    assert "Not reproduced under either setup" not in text


def test_the_scaling_experiment_has_no_paper_cells(tmp_path):
    scaling = {"tier": "quick", "claims": [{"claim": "fine-tuning exponents lie within 0.25 of 1",
                                            "holds": True,
                                            "numbers": {"exponent": 1.01}}]}
    row = render(summarize(_write(tmp_path / "q", "scaling.json", scaling)), None).splitlines()[-1]
    assert "| n/a | yes (exponent 1.01) | not run | not run |" in row


def test_bad_directories_are_refused(tmp_path):
    with pytest.raises(InvalidParameterError, match="no figure JSONs"):
        summarize(tmp_path)
    _write(tmp_path, "fig1a_4b.json", _both("quick", True))
    _write(tmp_path, "fig4a.json", _both("full", True))
    with pytest.raises(InvalidParameterError, match="mixes tiers"):
        summarize(tmp_path)


def test_committed_summaries_match_the_readme_and_the_check_finds_a_stale_run(tmp_path):
    """The script's --check passes on the repository as committed, and fails for a run whose
    verdicts differ from the committed quick summary."""
    script = [sys.executable, str(ROOT / "scripts" / "update_readme_figures.py"), "--check"]
    ok = subprocess.run(script, capture_output=True, text=True, cwd=ROOT)
    assert ok.returncode == 0, ok.stderr
    run = _write(tmp_path / "q", "fig1a_4b.json", _both("quick", True))
    stale = subprocess.run([*script, "--quick", str(run)], capture_output=True, text=True, cwd=ROOT)
    assert stale.returncode == 1 and "results/figures-quick.json differs" in stale.stderr


def test_headline_is_the_one_number_or_the_one_ratio():
    from verify.figures.summary import _headline

    assert _headline({"ratio": 1.28, "status": "x", "horizon capped": False}) == "ratio 1.28"
    assert _headline({"median joint": 9e5, "median frozen": 7.6e5,
                      "median frozen / median joint (paper: ~2)": 0.8326}) == \
        "median frozen / median joint (paper: ~2) 0.833"
    assert _headline({"a": 1.0, "b": 2.0}) is None  # no single ratio: no headline
    assert _headline({"final m": [0.8, 0.9]}) is None
    assert _headline({"relu": float("nan")}) is None


def test_committed_full_summary_is_the_committed_full_run():
    """results/figures-full.json (the README's full columns) is what the kept JSONs of that run
    say, so the table's numbers can be checked without the hour-long run."""
    evidence = ROOT / "results" / "figures-full"
    committed = json.loads((ROOT / "results" / "figures-full.json").read_text(encoding="utf-8"))
    assert summarize(evidence) == committed
    assert committed["tier"] == "full" and len(committed["figures"]) == 8


def test_every_claim_a_setup_does_not_reproduce_is_explained_and_no_explanation_is_stale():
    from verify.figures.explanations import EXPLANATIONS

    not_everywhere = set()
    claims = set()
    for tier in ("quick", "full"):
        summary = json.loads((ROOT / "results" / f"figures-{tier}.json").read_text(encoding="utf-8"))
        for name, figure in summary["figures"].items():
            for row in figure["claims"]:
                claims.add((name, row["claim"]))
                if False in (row["paper"], row["normalised"]):
                    not_everywhere.add((name, row["claim"]))
    missing = not_everywhere - set(EXPLANATIONS)
    assert not missing, f"explain in verify/figures/explanations.py: {sorted(missing)}"
    stale = set(EXPLANATIONS) - not_everywhere
    assert not stale, f"reproduced everywhere or gone, remove: {sorted(stale)}"
    assert not_everywhere <= claims


def test_every_table_row_has_the_header_count_of_cells():
    """No unescaped | in a claim or an explanation (|h(0)|, |m|) splits a cell."""
    from verify.readme import figures_block

    rows = [line for line in figures_block().splitlines() if line.startswith("|")]
    widths = {len(line.replace("\\|", "").split("|")) for line in rows}
    assert len(widths) == 1, widths
