"""Issue #51's careless and hostile inputs: each refused before any work in one line naming the
file, the entry and the field (exit 2), never a traceback, never accepted silently."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "rank1-note"


def _verify(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "verify", *args], capture_output=True, text=True, timeout=600,
                          cwd=cwd)


def _one_line(done: subprocess.CompletedProcess, message: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr[-500:])
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert message in done.stderr, done.stderr


@pytest.mark.parametrize("args", [("ledger", "status", ""), ("calibrate", "--ledger", ""), ("check", "--paper", ""),
                                  ("show", "--from", "", "lemma-6"), ("ledger", "init", "", "--out", "x")])
def test_an_empty_path_is_refused(args, tmp_path):
    _one_line(_verify(*args, cwd=tmp_path), "an empty path names no file or directory")


def _pack(tmp_path) -> Path:
    copy = tmp_path / "pack"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("report.*"))
    return copy


@pytest.mark.parametrize(("old", "new", "message"), [
    ("source = 'note.tex'", "source = 5", "[text] source must be text"),
    ("source = 'note.tex'", "source = '../../etc/passwd'", "[text] source must name a file beside"),
    ("source_sha256 = '", "source_sha256 = 'zz", "source_sha256 must be a SHA-256"),
    ("[ledger]", "[numbering]\nfile = '../outside.toml'\n\n[ledger]", "[numbering] file must name a file beside"),
])
def test_pack_toml_fields_are_type_checked(tmp_path, old, new, message):
    copy = _pack(tmp_path)
    manifest = copy / "pack.toml"
    text = manifest.read_text(encoding="utf-8")
    assert old in text
    manifest.write_text(text.replace(old, new, 1), encoding="utf-8")
    _one_line(_verify("check", "--paper", str(copy), "--quiet"), message)
    assert not (copy / "report.json").exists()


@pytest.mark.parametrize(("new", "message"), [
    ("activation = 5", "activation must be an activation name or a list of them, got int 5"),
    ("activation = 'relu'\nlam = 'k**'", "--lam must be one of 1/k, 1, got 'k**'"),
    ("activation = 'relu'\nlam = 3", "lam must be '1/k' or '1', got int 3"),
    ("activation = 'relu'\nseeds = true", "seeds must be a range"),
    ("activation = ['relu', 2]", "activation must be"),
])
@pytest.mark.extended
def test_ledger_entry_options_are_type_checked(tmp_path, new, message):
    copy = _pack(tmp_path)
    displays = copy / "ledger.d" / "displays.toml"
    text = displays.read_text(encoding="utf-8")
    displays.write_text(text.replace("activation = 'relu'", new, 1), encoding="utf-8")
    _one_line(_verify("check", "--paper", str(copy), "--quiet"), message)


@pytest.mark.parametrize(("ledger", "message"), [
    ([{"id": 5, "verdict": "fails"}], "ledger row 1: id must be text"),
    ([1], "ledger row 1: not a table"),
    ([{"id": "2-1", "verdict": "fails", "impact": 7}], "impact must be text or null"),
])
def test_calibrate_ledger_rows_are_type_checked(tmp_path, ledger, message):
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"checks": [], "ledger": ledger}), encoding="utf-8")
    _one_line(_verify("calibrate", "--ledger", str(report)), message)


def test_a_side_beyond_float64_is_inconclusive_not_a_traceback():
    from verify.claims import claim

    outcome = claim("Sum(i**i, i, 1, k) == O(k**k)", for_=["k in 1..200"])
    assert outcome.verdict.value == "inconclusive"
    assert re.search(r"exceeds float64's range", outcome.evidence)


@pytest.mark.parametrize(("args", "message"), [
    (("sin(10**1000) > 0",), "exceeds the limit"),
    (("exp(-10**200)*sin(10**50) > 0",), "exceeds the limit"),
    (("Sum(p*mu(p)**2, p, 1, oo) <= 1", "--activation", "expr:sign(x)"), "Dirac delta"),
    (("C_sigma <= 1", "--activation", "expr:sign(x)"), "is not bounded at |rho| = 1"),
])
@pytest.mark.extended
def test_red_team_inputs_beyond_the_language_are_refused_in_one_line(args, message):
    """From the white-box red team of issue #48: statements the language refuses by design (an
    exponent beyond its limit of 100, E of a Dirac delta, C_sigma of a jump), each in one line."""
    _one_line(_verify("claim", *args), message)
