"""`verify show ID`: one check's whole outcome, run live or read from a report.

Remark 9's check is cheap (about 3 s), fails with a counterexample and a verified correction,
and names a tolerance (``SEARCH_TOL``) in its code, so its output has every field.
"""

from __future__ import annotations

import json

import pytest

from tests.cli_helpers import assert_one_line_usage_error, run_verify
from verify.checks.show import MAX_DEPTH, MAX_INTEGER_DIGITS, render
from verify.cli import main

WIDTH = 80
CHECK = "remark-9"


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """report.json of `verify check --only remark-9` (run once for the module)."""
    root = tmp_path_factory.mktemp("show")
    path = root / "r.json"
    assert main(["check", "--only", CHECK, "--quiet", "--json", str(path), "--markdown",
                 str(root / "r.md")]) == 0
    return path


def _show(args, capsys, monkeypatch) -> tuple[int, str, str]:
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    status = main(["show", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_show_from_a_report_prints_every_field_in_full(report, capsys, monkeypatch):
    record = next(r for r in json.loads(report.read_text())["checks"] if r["id"] == CHECK)
    status, out, err = _show([CHECK, "--from", str(report)], capsys, monkeypatch)
    assert status == 0 and err == ""
    flat = _flat(out)
    assert out.startswith("remark-9: Remark 9 (§A.1; arXiv v1: Remark 2)")
    assert _flat(record["quote"]) in flat
    for label in ("verdict", "failure kind", "basis", "scope", "method", "evidence", "counterexample",
                  "correction", "tolerances", "numbers", "notes", "run", "rerun"):
        assert any(line.startswith(f"{label:<16}") for line in out.splitlines()), label
    assert "verdict fails" in flat and "failure kind step: " in flat and "impact repaired" in flat
    assert "basis exact: " in flat
    assert _flat(record["evidence"]) in flat  # not truncated
    assert _flat(record["correction"]) + " (verified by the check)" in flat
    assert "g1 = 1/10" in flat and "rhs = 1/25" in flat
    assert "SEARCH_TOL = 1e-09 (named in the check's code)" in flat
    assert "rerun verify check --only remark-9 --seed 0" in flat
    assert max(len(line) for line in out.splitlines()) <= WIDTH


def _without_timing(text):
    return [line for line in text.splitlines() if not line.startswith("run ")]


def test_show_runs_the_check_and_prints_what_the_report_holds(report, capsys, monkeypatch):
    status, live, _ = _show([CHECK, "--rerun"], capsys, monkeypatch)
    assert status == 0
    _, stored, _ = _show([CHECK, "--from", str(report)], capsys, monkeypatch)
    assert _without_timing(live) == _without_timing(stored)


def test_show_answers_from_the_last_report_of_this_code_and_says_so(report, tmp_path, capsys, monkeypatch):
    """After `verify check`, `verify show ID` reads report.json instead of rerunning (issue #39);
    the answer is the report's, and no check module is loaded for it."""
    import shutil
    import sys

    monkeypatch.chdir(tmp_path)
    shutil.copy(report, tmp_path / "report.json")
    monkeypatch.setattr(sys, "modules", dict(sys.modules))  # restored afterwards
    coded = "verify.paper.packs.dayi_chen.checks.app_"
    for name in [m for m in sys.modules if m.startswith(coded)]:
        del sys.modules[name]
    status, out, _ = _show([CHECK], capsys, monkeypatch)
    assert status == 0
    first, *rest = out.splitlines()
    assert first.startswith("from report.json (written ") and "--rerun" in first
    assert not [m for m in sys.modules if m.startswith(coded)]  # nothing was run
    _, stored, _ = _show([CHECK, "--from", str(report)], capsys, monkeypatch)
    assert rest == stored.splitlines()


@pytest.mark.parametrize("change, reason", [
    (lambda data: data.update(seed=7), "of another run"),
    (lambda data: data["suite"].update(code="0" * 16), "written by other code"),
    (lambda data: data.update(checks=[r for r in data["checks"] if r["id"] != CHECK]), "does not hold"),
])
@pytest.mark.extended
def test_show_reruns_when_the_last_report_does_not_answer_and_says_why(report, tmp_path, capsys,
                                                                        monkeypatch, change, reason):
    monkeypatch.chdir(tmp_path)
    data = json.loads(report.read_text())
    change(data)
    (tmp_path / "report.json").write_text(json.dumps(data))
    status, out, _ = _show([CHECK], capsys, monkeypatch)
    first = out.splitlines()[0]
    assert status == 0 and first.startswith("running the check: report.json") and reason in first


def test_unknown_id_is_one_line_with_close_matches():
    result = run_verify("show", "lema-31")
    assert_one_line_usage_error(result, "unknown check id 'lema-31'")
    assert "did you mean lemma-31" in result.stderr


def test_id_missing_from_a_report_names_the_reports_close_ids(report, capsys, monkeypatch):
    status, out, err = _show(["remark-90", "--from", str(report)], capsys, monkeypatch)
    assert status == 2 and out == ""
    assert err.strip().splitlines() == [f"verify show: error: report {str(report)!r} has no check "
                                        "'remark-90'; did you mean remark-9?"]


def _record(**fields):
    return {"checks": [{"id": "x", "verdict": "fails", "evidence": "e", **fields}]}


MALFORMED = {
    "not JSON": ('{"checks": [', "is not valid JSON"),
    # were shown with the field silently dropped (issue #38's red team)
    "seconds not a number": ('{"checks": [{"id": "remark-9", "verdict": "holds", "seconds": "fast"}]}',
                             "field 'seconds' is 'fast', not a number"),
    "seed not a number": ('{"checks": [{"id": "remark-9", "verdict": "holds", "seed": "zero"}]}',
                          "field 'seed' is 'zero', not a whole number"),
    "not an object": ("[1, 2]", "is not a verify check report"),
    "checks not a list": ('{"checks": {"id": "x"}}', "is not a verify check report"),
    "record not an object": ('{"checks": [3]}', "check 1 is not a JSON object"),
    "no id": ('{"checks": [{"verdict": "holds"}]}', "has no text 'id'"),
    "evidence not text": (json.dumps(_record(evidence=5)), "field 'evidence' is not text"),
    "counterexample not an object": (json.dumps(_record(counterexample=[1])),
                                     "field 'counterexample' is not a JSON object"),
    "notes not text": (json.dumps(_record(notes=[{}])), "field 'notes' is not a list of text"),
    "unknown verdict": (json.dumps(_record(verdict="maybe")), "verdict 'maybe' is not one of"),
    "deep": ("[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5), "nested deeper than the limit"),
    "very deep": ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    "long integer": ('{"checks": [{"id": "x", "seed": ' + "9" * 5000 + "}]}",
                     f"longer than the limit of {MAX_INTEGER_DIGITS}"),
    "empty": ("", "is not valid JSON"),
    # valid JSON that float() makes infinite: shown as Infinity with exit 0 before
    "overflowing number": (json.dumps(_record(seconds=1.0)).replace("1.0", "1e999"), "beyond the range"),
    "overflowing negative": (json.dumps(_record(seconds=1.0)).replace("1.0", "-1e999"), "beyond the range"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_report_is_one_line_and_exit_2(name, tmp_path, capsys, monkeypatch):
    text, fragment = MALFORMED[name]
    path = tmp_path / "r.json"
    path.write_text(text)
    status, out, err = _show(["x", "--from", str(path)], capsys, monkeypatch)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert fragment in err and str(path) in err


def test_unreadable_reports_are_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00")
    for path, fragment in ((tmp_path / "missing.json", "No such file"), (tmp_path, "Is a directory"),
                           (tmp_path / "binary.json", "is not UTF-8 text")):
        status, _, err = _show(["x", "--from", str(path)], capsys, monkeypatch)
        assert status == 2 and len(err.strip().splitlines()) == 1 and fragment in err, err


def test_a_reports_control_characters_are_shown_escaped():
    record = _record(evidence="red \x1b[31mtext\x07", statement="S\x9b")["checks"][0]
    text = render(record, [])
    assert "\x1b" not in text and "\x07" not in text and "\x9b" not in text
    assert "red \\x1b[31mtext\\x07" in text


def test_seed_with_from_is_refused(report, capsys, monkeypatch):
    status, _, err = _show([CHECK, "--from", str(report), "--seed", "3"], capsys, monkeypatch)
    assert status == 2 and "--seed, --full and --rerun" in err


@pytest.fixture(scope="module")
def note_report(tmp_path_factory):
    """report.json of a pack made from a LaTeX note with its own macros (\\E, \\erf), in the pack's
    directory as `verify check --paper DIR` writes it."""
    from tests.pack_helpers import align_note_pack, run_pack
    from verify.checks.report import to_json_text
    from verify.paper import pack

    directory = align_note_pack(tmp_path_factory.mktemp("note"))
    found, results = run_pack(directory, ["display-1-1"])
    with pack.using(found):
        (directory / "report.json").write_text(to_json_text(results, 0, False), encoding="utf-8")
    return directory


def test_show_prints_a_quote_with_its_packs_macros_as_the_reports_do(note_report, tmp_path, capsys,
                                                                     monkeypatch):
    path = note_report / "report.json"
    assert json.loads(path.read_text())["pack"] == str(note_report)
    assert r"\E[\erf(g)^2]" in path.read_text().replace("\\\\", "\\")  # report.json keeps the raw quote
    for args in (["--from", str(path)], ["--paper", str(note_report)]):
        status, out, err = _show(["display-1-1", *args], capsys, monkeypatch)
        assert status == 0 and err == ""
        assert r"\mathbb{E}[\operatorname{erf}(g)^2]" in _flat(out) and r"\E[" not in out, args
    # the report's own directory, where the name it gives does not lead from here
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, "pack": "elsewhere/pack"}), encoding="utf-8")
    try:
        assert r"\mathbb{E}" in _show(["display-1-1", "--from", str(path)], capsys, monkeypatch)[1]
        # a copy away from its pack, or a report of another source than its pack's: printed as recorded
        away = {**data, "pack": "elsewhere/pack"}
        (tmp_path / "report.json").write_text(json.dumps(away), encoding="utf-8")
        copied = {**data, "paper": {**data["paper"], "source": "note.tex (sha256 0000000000000000…)"}}
        (tmp_path / "other.json").write_text(json.dumps(copied), encoding="utf-8")
        for name in ("report.json", "other.json"):
            status, out, _ = _show(["display-1-1", "--from", str(tmp_path / name)], capsys, monkeypatch)
            assert status == 0 and r"\E[" in out and r"\mathbb{E}" not in out
    finally:
        path.write_text(json.dumps(data), encoding="utf-8")


def test_a_ledger_checks_reading_is_not_printed_again_beside_its_quote():
    # a ledger claim check's reading opens "Display (C.2-3), as printed: $…$", the quote once more
    record = {"id": "display-c.2-3", "statement": "display (C.2-3)", "section": "C.2", "verdict": "holds",
              "quote": "$$S_k = 1$$", "reading": "Display (C.2-3), as printed: $S_k = 1$",
              "evidence": "holds", "method": "claim"}
    text = render(record, [])
    assert text.count("S_k = 1") == 1 and "own reading" not in text
