"""Paper packs (issue 40): `verify ledger init` on LaTeX the suite has never seen, `verify check
--paper` on the example pack (the planted errors, and only those), and a pack's errors as one line
naming the entry."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from verify.paper import latex, ledger, pack, source
from verify.paper.skeleton import guess_kind, init_pack, toml_string

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "rank1-note"

#: A LaTeX file written for this test: displays of every kind the extractor reads, statements with
#: titles and labels, proofs with and without a title, a list, an appendix, comments and \eqref.
UNSEEN = r"""\documentclass{article}
\newtheorem{thm}{Theorem}
\newtheorem{lem}[thm]{Lemma}
\newtheorem{rem}{Remark}
\title{A test note}
\author{B. Tester \and C. Tester}
\begin{document}
\section{Intro}
Let $a = 1$ and \(b \le 2\). % a comment with $x = y$ that must vanish
\begin{equation}\label{eq:one}
E[g^2] = 1
\end{equation}
\section{Main}
\subsection{Bounds}
\begin{lem}[Small]\label{lem:small}
For all $x$,
\[ x^2 \geq 0 \]
\end{lem}
\begin{proof}[Proof of \Cref{lem:small}]
We have $x^2 = |x|^2$ and $|x|^2 \ge 0$; see \eqref{eq:one}.
\begin{align}
x^2 &= x \cdot x \\
    &\geq 0
\end{align}
\begin{enumerate}
\item First $y \neq 0$.
\item Then $z > 1$.
\end{enumerate}
\end{proof}
\begin{rem}
A remark: $c < d$.
\end{rem}
\appendix
\section{Extra}
\begin{thm}
$$ \mu_1 = \tfrac12 $$
\end{thm}
\begin{proof}
Direct: $\mu_1 = E[g \sigma(g)]$.
\end{proof}
\end{document}
"""


def test_extract_numbers_headings_statements_and_references():
    extracted = latex.extract(UNSEEN)
    assert extracted.title == "A test note" and "B. Tester" in extracted.authors
    text = extracted.text
    for line in ("1. Intro", "2. Main", "2.1. Bounds", "Lemma 1 (Small)", "Remark 1",
                 "Proof [Proof of Lemma 1]", "Appendix A. Extra", "Theorem 2"):
        assert f"\n{line}\n" in f"\n{text}" or f"\n{line} " in f"\n{text}", line
    assert "a comment" not in text and "see (1)" in text and "(1) First" in text and "(2) Then" in text
    assert "$b \\le 2$." in text  # \( \) becomes $ $, the text around it untouched


def _table(path: Path, name: str) -> list[dict]:
    return tomllib.loads(path.read_text(encoding="utf-8"))[name]


def test_ledger_init_on_unseen_latex_quotes_every_display_and_proof_relation_verbatim(tmp_path):
    tex = tmp_path / "unseen.tex"
    tex.write_text(UNSEEN, encoding="utf-8")
    directory, shown, inline = init_pack(tex, tmp_path / "pack")
    assert (shown, inline) == (4, 5)
    displays = _table(directory / "ledger.d" / "displays.toml", "display")
    relations = _table(directory / "ledger.d" / "relations.toml", "relation")
    assert [d["id"] for d in displays] == ["1-1", "2.1-1", "2.1-2", "A-1"]
    # every quote is the LaTeX between the delimiters, character for character
    assert displays[0]["quote"] == "\\label{eq:one}\nE[g^2] = 1\n"
    assert displays[1]["quote"] == " x^2 \\geq 0 "
    assert displays[2]["quote"] == "\nx^2 &= x \\cdot x \\\\\n    &\\geq 0\n"
    assert displays[3]["quote"] == " \\mu_1 = \\tfrac12 "
    for display in displays:
        assert display["quote"] in UNSEEN
    assert [r["quote"] for r in relations] == ["x^2 = |x|^2", "|x|^2 \\ge 0", "y \\neq 0", "z > 1",
                                               "\\mu_1 = E[g \\sigma(g)]"]
    assert all("claim" not in r and "reason" not in r and "check" not in r for r in displays + relations)
    with pack.using(pack.load(directory)):
        assert all(e.status == "missing" for e in ledger.entries())
    # a second init never overwrites a ledger
    with pytest.raises(pack.PackError, match="already holds a pack"):
        init_pack(tex, directory)


def test_a_statement_after_a_proof_ends_it(tmp_path):
    """The proof-end rule of verify.paper.source: a proof runs to the next numbered statement, so
    Remark 1 (its head on a line of its own) ends Lemma 1's proof and its "c < d" is no proof's."""
    tex = tmp_path / "unseen.tex"
    tex.write_text(UNSEEN, encoding="utf-8")
    directory, _, _ = init_pack(tex, tmp_path / "pack")
    with pack.using(pack.load(directory)):
        assert "\nRemark 1\n" in source.paper_text()
        assert "c < d" not in [r.latex for r in source.relations()]


@pytest.mark.parametrize(("latex_text", "kind"), [
    ("K(\\rho) = \\sum_{p \\geq 0} \\mu_p^2 \\rho^p", "identity"),
    ("x \\leq 1", "inequality"),
    ("f \\triangleq g", "definition"),
    ("\\Pr[X > 1] \\le 0.1", "probability"),
    ("h(0) = \\Theta(k)", "asymptotic"),
    ("h(m) \\asymp m", "asymptotic"),
    # a two-sided bound on a Gaussian quantity: "\\sim N(0, 1)" names its law, it is no asymptotic
    ("\\tfrac12 \\le \\mathbb{E}_{g \\sim \\mathcal{N}(0,1)}[\\sigma'(g)^2] \\le 1", "inequality"),
    ("\\mathbb{E}_{x \\sim N(0, I_d)}[f(x)] = 0", "identity"),
    ("\\text{see above}", "prose"),
    # a range of one variable on its own is a hypothesis on it, not an inequality to check
    ("-1 \\le \\rho \\le 1", "definition"),
    ("0 < \\lambda_i \\leq \\tfrac12", "definition"),
    ("0 \\le h(m) \\le 1", "inequality"),
])
def test_kinds_are_guessed_from_the_relation_outside_groups(latex_text, kind):
    assert guess_kind(latex_text) == kind


@pytest.mark.parametrize("value", ["plain", "it's", "a\nb", "ends'", "'''", "tab\there", "\\frac{1}{2}"])
def test_toml_strings_read_back_exactly(value):
    assert tomllib.loads(f"x = {toml_string(value)}")["x"] == value


def _verify(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "verify", *args], capture_output=True, text=True,
                          timeout=600, cwd=cwd)


@pytest.mark.extended
def test_the_example_pack_finds_the_planted_errors_and_only_those(tmp_path):
    """examples/rank1-note: Lemma 2 is false (display 2-2), the last step of its proof is wrong
    (relation 2-r6), and Lemma 3's proof states K'(0) = mu_2^2 (relation 3-r2; K'(0) = mu_1^2).
    Every other entry with a claim holds; the two definitions are not decidable."""
    copy = tmp_path / "rank1-note"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("report.*"))
    done = _verify("check", "--paper", str(copy), "--quiet")
    assert done.returncode == 0, done.stderr
    report = json.loads((copy / "report.json").read_text(encoding="utf-8"))
    verdicts = {c["id"]: (c["verdict"], c.get("failure_kind")) for c in report["checks"]}
    failing = {key: kind for key, (verdict, kind) in verdicts.items() if verdict == "fails"}
    assert failing == {"display-2-2": "statement", "relation-2-r6": "step", "relation-3-r2": "step"}
    assert all(verdict == "holds" for key, (verdict, _) in verdicts.items() if key not in failing)
    assert len(verdicts) == 13
    assert report["paper"]["title"].startswith("Hermite coefficients")
    rows = {row["id"]: row for row in report["ledger"]}
    assert rows["2-2"]["impact"] == "false statement" and rows["3-r2"]["impact"] == "repaired"
    markdown = (copy / "report.md").read_text(encoding="utf-8")
    assert f"verify check --paper {copy} --only relation-3-r2" in markdown
    assert "dayi_chen" not in markdown and "Dayı" not in markdown
    status = _verify("ledger", "status", str(copy))
    assert status.returncode == 0 and "| **all** | every kind | 15 | 13 " in status.stdout


@pytest.mark.extended
def test_the_second_example_pack_finds_its_three_planted_errors_and_only_those(tmp_path):
    """examples/hermite-kernel-note (examples/hermite-kernel-note/PLANTED.md): K'(1) in Proposition
    2's align, mu_2(gelu) in Lemma 4 and Remark 3's range are wrong; every other entry with a claim
    holds, and no macro of the note prints as an identifier in the reports."""
    copy = tmp_path / "hermite-kernel-note"
    shutil.copytree(EXAMPLE.with_name("hermite-kernel-note"), copy, ignore=shutil.ignore_patterns("report.*"))
    done = _verify("check", "--paper", str(copy), "--quiet")
    assert done.returncode == 0, done.stderr
    report = json.loads((copy / "report.json").read_text(encoding="utf-8"))
    verdicts = {c["id"]: c["verdict"] for c in report["checks"]}
    assert {key for key, verdict in verdicts.items() if verdict == "fails"} == {
        "display-2-2", "statement-2-s9", "statement-3-s3"}
    assert all(verdict == "holds" for verdict in verdicts.values() if verdict != "fails")
    html = (copy / "report.html").read_text(encoding="utf-8")
    # the ledger's own notes may name a macro in words; the quotes must not print one
    for macro in ("\\E{", "\\E[", "\\ip{", "\\gelu", "\\He"):
        assert macro not in html, macro


@pytest.mark.parametrize(("old", "new", "message"), [
    ("\\mu_1(\\sigma) = \\frac{1}{2}.", "\\mu_1(\\sigma) = \\frac{1}{3}.",
     "ledger entry 2-1: its quote is not"),
    ("claim = 'mu(1) == 1/2'", "claim = 'mu(1) === 1/2'", "ledger entry 2-1: its claim"),
    ("claim = 'mu(1) == 1/2'\nactivation = 'relu'\nfails_as = 'statement'", "check = 'no-such-check'",
     "ledger entry 2-1: check 'no-such-check'"),
    ("claim = 'mu(1) == 1/2'", "claim = 'mu(1) == 1/2'\nhue = 1", "ledger entry 2-1: unknown field"),
])
@pytest.mark.extended
def test_an_error_in_a_pack_is_one_line_naming_the_entry(tmp_path, old, new, message):
    copy = tmp_path / "rank1-note"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("report.*"))
    path = copy / "ledger.d" / "displays.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    done = _verify("check", "--paper", str(copy), "--quiet")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and message in done.stderr and "Traceback" not in done.stderr
    assert not (copy / "report.json").exists()


def test_a_changed_text_and_a_missing_pack_are_refused(tmp_path):
    copy = tmp_path / "rank1-note"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("report.*"))
    (copy / "paper.txt").write_text((copy / "paper.txt").read_text(encoding="utf-8") + "\n", encoding="utf-8")
    done = _verify("check", "--paper", str(copy), "--quiet")
    assert done.returncode == 2 and "SHA-256" in done.stderr and done.stderr.count("\n") == 1
    done = _verify("check", "--paper", str(tmp_path / "nothing"), "--quiet")
    assert done.returncode == 2 and "not a directory holding a pack.toml" in done.stderr


def test_the_builtin_pack_is_the_default_and_names_the_paper():
    assert pack.current().builtin
    assert pack.current().field("title").startswith("Low-rank fine-tuning")
    assert len(source.displays()) == 229 and len(source.relations()) == 198
    with pack.using(pack.load(EXAMPLE)):
        assert len(source.displays()) == 5 and len(source.relations()) == 10
        assert not pack.current().builtin
    assert len(source.displays()) == 229


@pytest.mark.extended
def test_the_dayi_chen_pack_named_by_path_is_the_default(tmp_path):
    """`verify check --paper verify/paper/packs/dayi_chen` is `verify check`: the same checks and the
    same report, byte for byte (the checks are two fast ones; the run order and fields are all)."""
    ids = ["display-d.1-2", "relation-e.3.3-r5"]
    default = _verify("check", "--only", *ids, "--quiet", "--json", str(tmp_path / "a.json"),
                      "--markdown", str(tmp_path / "a.md"))
    named = _verify("check", "--paper", str(pack.BUILTIN), "--only", *ids, "--quiet", "--json",
                    str(tmp_path / "b.json"), "--markdown", str(tmp_path / "b.md"))
    assert default.returncode == named.returncode == 0, default.stderr + named.stderr
    first, second = (json.loads((tmp_path / f"{x}.json").read_text(encoding="utf-8")) for x in "ab")
    for report in (first, second):
        for record in report["checks"]:
            record.pop("seconds")
            record.pop("cached_seconds")
            record["numbers"].pop("seconds", None)
    assert first == second
    # Named by path, the pack lists exactly the default run's checks (not a transcribed count,
    # which goes stale whenever a statement entry is added).
    listed = _verify("check", "--paper", str(pack.BUILTIN), "--list")
    listed_default = _verify("check", "--list")
    assert listed.returncode == listed_default.returncode == 0
    assert listed.stdout.splitlines() == listed_default.stdout.splitlines()
    assert len(listed.stdout.splitlines()) >= 200


def _pack_of(tmp_path, body: str, preamble: str = ""):
    tex = tmp_path / "note.tex"
    tex.write_text(f"\\documentclass{{article}}{preamble}\n\\begin{{document}}\n{body}\n\\end{{document}}\n",
                   encoding="utf-8")
    directory, _, _ = init_pack(tex, tmp_path / "pack")
    with pack.using(pack.load(directory)):
        return [d.latex for d in source.displays()], [r.latex for r in source.relations()], [
            d.id for d in source.displays()]


# The red-team findings on LaTeX the suite had not seen (each case: the body, the displays' quotes,
# the proof relations' quotes).
_READ_RIGHT = [
    ("escaped dollars", "\\section{A}\\begin{proof} costs \\$5, so $C_T = 5T$ and \\$$B$.\\end{proof}",
     [], ["C_T = 5T"]),
    ("line breaks with a skip", "\\section{A}\\begin{align} a &= b \\\\[2pt] c &\\le d \\end{align}\n"
     "first \\\\(a) second", [" a &= b \\\\[2pt] c &\\le d "], []),
    ("a comment line inside inline math",
     "\\section{A}\\begin{proof}So $R_T\n% note\n\\le \\sqrt T$.\\end{proof}",
     [], ["R_T \\le \\sqrt T"]),
    ("a paragraph opening with a reference", "\\section{A}\\begin{lemma}\\label{l}X\\end{lemma}"
     "\\begin{proof}First $a = b$.\n\n\\Cref{l} gives $c \\le d$.\\end{proof}", [], ["a = b", "c \\le d"]),
    ("no space after proof", "\\section{A}\\begin{proof}Let $a=b$.\\end{proof}", [], ["a=b"]),
    ("alignat's argument", "\\section{A}\\begin{alignat}{2} a&=b \\end{alignat}", [" a&=b "], []),
    ("an empty display", "\\section{A}\\[\\]\\[ x = 1 \\]", [" x = 1 "], []),
    ("switched-off text", "\\section{A}\\iffalse\\[ y = 2 \\]\\fi\\begin{comment}\\[ z = 3 \\]\\end{comment}"
     "\\[ x = 1 \\]", [" x = 1 "], []),
]


@pytest.mark.parametrize(("case", "body", "shown", "inline"), _READ_RIGHT, ids=[c[0] for c in _READ_RIGHT])
def test_latex_the_suite_had_not_seen_is_read_by_the_contract(tmp_path, case, body, shown, inline):
    displays, relations, _ = _pack_of(tmp_path, body)
    assert displays == shown and relations == inline


def test_declared_kinds_and_late_appendices_are_numbered(tmp_path):
    body = ("\\section{A}\\begin{proof}$a = b$\\end{proof}\\begin{fact}In a fact, $c = d$.\\end{fact}"
            "\\appendix"
            + "".join(f"\\section{{S{i}}}" for i in range(7)) + "\\subsection{T}\\[ x = 1 \\]")
    displays, relations, ids = _pack_of(tmp_path, body, "\\newtheorem{fact}{Fact}")
    assert relations == ["a = b"]  # the Fact ends the proof
    assert ids == ["G.1-1"]


def test_crlf_and_cr_line_endings_read_alike(tmp_path):
    body = "\\section{A}\r\n% comment\r\n\\[ x = 1 \\]\r\n"
    for name, text in (("crlf", body), ("cr", body.replace("\r\n", "\r"))):
        (tmp_path / name).mkdir()
        assert _pack_of(tmp_path / name, text)[0] == [" x = 1 "]


def test_a_part_with_relations_and_no_display_and_a_pack_with_nothing_to_run(tmp_path):
    tex = tmp_path / "note.tex"
    tex.write_text("\\begin{document}\\section{A}\\begin{proof}$a=b$\\end{proof}\\end{document}",
                   encoding="utf-8")
    directory, shown, inline = init_pack(tex, tmp_path / "pack")
    assert (shown, inline) == (0, 1)
    status = _verify("ledger", "status", str(directory))
    assert status.returncode == 0 and "| §1 | relations | 1 |" in status.stdout, status.stderr
    done = _verify("check", "--paper", str(directory), "--quiet")
    assert done.returncode == 0 and "nothing to run" in done.stdout, done.stderr


def test_hostile_latex_is_one_line(tmp_path):
    tex = tmp_path / "deep.tex"
    tex.write_text("\\begin{document}" + "\\begin{center}" * 600 + "x" + "\\end{center}" * 600
                   + "\\end{document}", encoding="utf-8")
    done = _verify("ledger", "init", str(tex), "--out", str(tmp_path / "p"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "nested too deeply" in done.stderr
    tex.write_text("\\begin{document}\\begin{equation x=1\n\\end{document}", encoding="utf-8")
    done = _verify("ledger", "init", str(tex), "--out", str(tmp_path / "q"))  # read as text, or refused
    assert done.returncode in (0, 2) and done.stderr.count("\n") <= 1 and "Traceback" not in done.stderr


def test_kind_guess_is_linear_in_nested_braces():
    """guess_kind stripped the innermost {...} group until none was left: 10^5 nested braces took
    minutes (``verify ledger init`` on such a file).  The one-pass stripping removes the same text."""
    import re

    from verify.paper.skeleton import _without_braced_groups, guess_kind

    def stripped_by_repetition(text):
        while re.search(r"\{[^{}]*\}", text):
            text = re.sub(r"\{[^{}]*\}", "", text)
        return text

    for text in ["a_{i} \\le b", "{ a {b} c", "} x {y}", "\\frac{1}{2} = {{x}}", "{{}", "a}{b"]:
        assert _without_braced_groups(text) == stripped_by_repetition(text), text
    depth = 100_000
    assert guess_kind("{" * depth + "x" + "}" * depth + " \\le 1") == "inequality"


def test_ledger_init_refuses_an_empty_out(tmp_path):
    """``--out ''`` was read as the current directory (Path("") is "."): it wrote a pack there, exit 0."""
    done = _verify("ledger", "init", str(EXAMPLE / "note.tex"), "--out", "", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--out is empty" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_hostile_pack_directory_name_stays_text_in_every_report(tmp_path):
    """The coverage paragraph named the ledger's directory raw: a pack directory called
    ``x`<img src=x onerror=alert(1)>`` put a live <img> element into report.html."""
    copy = tmp_path / "p`<script>alert(9)<\\script>|x`<img src=x onerror=alert(1)>"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("report.*"))
    done = _verify("check", "--paper", str(copy), "--quiet", "--only", "display-2-2")
    assert done.returncode == 0, done.stderr
    page = (copy / "report.partial.html").read_text(encoding="utf-8")  # a partial run (--only)
    assert "<img" not in page and "<script" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page  # shown, as text


def test_ledger_init_with_control_characters_in_the_title_writes_a_pack_it_can_read(tmp_path):
    """A title holding ESC and BEL went raw into the ledger files' first comment line, which TOML
    forbids: `ledger status` then refused the pack `ledger init` had just written (exit 0)."""
    tex = tmp_path / "esc.tex"
    tex.write_text("\\title{Evil \x1b]0;pwned\x07 \x1b[2J \x01 \x7f}\n\\begin{document}\n\\section{A}\n"
                   "\\[ x \\le 1 \\]\n\\end{document}\n", encoding="utf-8")
    assert _verify("ledger", "init", str(tex), "--out", str(tmp_path / "P")).returncode == 0
    status = _verify("ledger", "status", str(tmp_path / "P"))
    assert status.returncode == 0, status.stderr
    assert b"\x1b" not in (tmp_path / "P" / "ledger.d" / "displays.toml").read_bytes()


def test_a_pack_named_by_a_relative_path_is_rerun_by_that_path(monkeypatch):
    """Rerun commands carry the directory as the user typed it, so a report names no machine path
    unless the user typed one (issue 50)."""
    root = Path(__file__).resolve().parent.parent
    monkeypatch.chdir(root)
    relative = pack.load("examples/rank1-note")
    assert relative.check_command == "verify check --paper examples/rank1-note"
    assert relative.name == "examples/rank1-note/paper.txt"  # "Checked text:" in the reports
    assert relative.shown(relative.ledger_dir) == "examples/rank1-note/ledger.d"
    assert pack.load(str(root / "examples" / "rank1-note")).check_command.endswith(
        str(root / "examples" / "rank1-note"))


def test_ledger_status_lists_every_entry_to_fix_at_once(tmp_path):
    """Three bad entries (two claims and a correction that do not parse): `ledger status` lists all
    three with their entries and exits 1; `check` refuses in one line naming the first and counting
    the rest (issue 50: errors arrived one per run)."""
    copy = tmp_path / "rank1-note"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("report.*"))
    path = copy / "ledger.d" / "displays.toml"
    text = path.read_text(encoding="utf-8")
    for old, new in (("claim = 'mu(1) == 1/2'", "claim = 'mu(1) = 1/2'"),
                     ("claim = 'mu(2) == 1/sqrt(2*pi)'", "claim = 'mu(2) == 1/sqrt(2*pi) + nosuchname'"),
                     ("claim = 'Kp(rho) >= 0'", "claim = 'Kp(rho) >= 0'\ncorrection = 'Kp(rho) >='")):
        assert old in text
        text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    status = _verify("ledger", "status", str(copy))
    assert status.returncode == 1 and "Traceback" not in status.stderr
    listed = [line for line in status.stdout.splitlines() if line.startswith("- ledger entry ")]
    assert [line.split(":")[0] for line in listed] == ["- ledger entry 2-1", "- ledger entry 2-2",
                                                       "- ledger entry 3-1"]
    assert "nosuchname" in listed[1] and "its correction" in listed[2]
    done = _verify("check", "--paper", str(copy), "--quiet")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "ledger entry 2-1" in done.stderr and "(and 2 more: `verify ledger status" in done.stderr


@pytest.mark.parametrize("value", ["checks", "all"])
def test_a_pack_directory_that_names_code_is_refused_and_none_of_it_runs(tmp_path, value):
    """Only a built-in pack may carry code (issue #50): a user's pack.toml that names coded checks
    is one line naming the field, exit 2, and no Python file of the directory is imported, even with
    the directory as the working directory (which `python -m` puts on the import path)."""
    copy = tmp_path / "rank1-note"
    shutil.copytree(EXAMPLE, copy, ignore=shutil.ignore_patterns("report.*"))
    marker = tmp_path / "ran"
    planted = f"open({str(marker)!r}, 'w').close()\nSECTIONS = ('sec',)\n"
    for name in ("checks/__init__.py", "checks/sec.py", "all.py", "checks.py"):
        (copy / name).parent.mkdir(exist_ok=True)
        (copy / name).write_text(planted, encoding="utf-8")
    path = copy / "pack.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("coded_checks = 'named'", f"coded_checks = '{value}'"), encoding="utf-8")
    with pytest.raises(pack.PackError, match="only the built-in pack may carry code"):
        pack.load(copy)
    for args in (("--list",), ("--quiet", "--only", "display-2-2")):
        done = _verify("check", "--paper", str(copy), *args, cwd=copy)
        assert done.returncode == 2 and done.stdout == "", done.stderr
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
        assert f"coded_checks = '{value}' names Python code" in done.stderr
        assert "only the built-in pack may carry code" in done.stderr
    assert not marker.exists()
    assert not (copy / "report.json").exists()


def test_only_the_builtin_pack_has_a_code_package():
    """The old `coded_checks = "all"` still reads, for the built-in pack, as its checks package; a
    Pack that says it carries code but is not built in has no package to import, whatever it says."""
    from verify.checks.packs import code_modules

    builtin = pack.load(pack.BUILTIN)
    assert builtin.coded_checks == "checks" and builtin.key == "dayi_chen"
    assert builtin.code_package == "verify.paper.packs.dayi_chen.checks"
    assert pack._coded_checks("all", pack.BUILTIN.resolve(), "pack.toml") == "checks"
    assert pack._coded_checks("named", pack.BUILTIN.resolve(), "pack.toml") is None
    with pytest.raises(pack.PackError, match="is not 'named' or a package beside pack.toml"):
        pack._coded_checks("nothing_here", pack.BUILTIN.resolve(), "pack.toml")
    with pytest.raises(pack.PackError, match="must be text"):
        pack._coded_checks(["checks"], pack.BUILTIN.resolve(), "pack.toml")
    example = pack.load(EXAMPLE)
    assert example.coded_checks is None and not example.builtin
    forged = dataclasses.replace(example, coded_checks="checks")
    assert forged.code_package is None and code_modules(forged) == []


def test_every_check_declares_its_pack():
    """A coded check belongs to the built-in pack whose package defines it; the checks made from the
    ledger belong to the pack whose ledger they came from; a check defined outside a pack's package
    must say which pack it belongs to."""
    from verify.checks import load_all
    from verify.checks.core import check
    from verify.checks.packs import pack_checks

    assert {c.pack for c in load_all().values()} == {"dayi_chen"}
    assert [c.id for c in pack_checks(pack.load(pack.BUILTIN))] == list(load_all())
    example = pack.load(EXAMPLE)
    made = [c for c in pack_checks(example) if c.method == "claim"]
    assert made and {c.pack for c in made} == {example.key} and example.key != "dayi_chen"

    def homeless(ctx):
        """Test statement: a check defined in a test module, outside every pack."""

    with pytest.raises(ValueError, match="outside a built-in pack's package"):
        check("test-no-pack", "Test 0", "0", "exact")(homeless)


def _references(body: str) -> str:
    """The prose line of ``body``'s extraction that holds "By …" (its resolved references)."""
    text = latex.extract(f"\\documentclass{{article}}\n\\begin{{document}}\n{body}\n\\end{{document}}\n").text
    return next(line for line in text.splitlines() if line.startswith("By "))


@pytest.mark.parametrize(("case", "body", "printed"), [
    # the report: an align* numbered, the second label of an align lost, \nonumber ignored
    ("align*, a two-label align, an equation",
     "\\begin{align*} a &= b \\end{align*}\n\\begin{align} x &= 1 \\label{a}\\\\ y &= 2 \\label{b}\n"
     "\\end{align}\n\\begin{equation} z = 3 \\label{c} \\end{equation}\nBy \\eqref{a}, \\eqref{b} and "
     "\\eqref{c}.", "By (1), (2) and (3)."),
    ("\\nonumber and \\notag lines",
     "\\begin{align} a &= b \\nonumber\\\\ &= c \\label{a}\\\\ d &= e \\notag \\\\ f &= g \\label{b}"
     "\\end{align}\nBy \\eqref{a} and \\eqref{b}.", "By (1) and (2)."),
    ("gather lines, a trailing \\\\ and a starred gather",
     "\\begin{gather*} u = v \\end{gather*}\\begin{gather} a = b \\label{a}\\\\ c = d \\label{b}\\\\"
     "\\end{gather}\\begin{equation} e = f \\label{c}\\end{equation}\nBy \\eqref{a}, \\eqref{b}, \\eqref{c}.",
     "By (1), (2), (3)."),
    ("a multline is one equation",
     "\\begin{multline} a = b \\\\ + c \\label{a} \\end{multline}\\begin{equation} d = e \\label{b}"
     "\\end{equation}\nBy \\eqref{a} and \\eqref{b}.", "By (1) and (2)."),
    ("eqnarray lines",
     "\\begin{eqnarray} a &=& b \\label{a}\\\\ c &=& d \\nonumber\\\\ e &=& f \\label{b}\\end{eqnarray}\n"
     "By \\eqref{a} and \\eqref{b}.", "By (1) and (2)."),
    ("\\tag gives its own text and steps no counter",
     "\\begin{align} a &= b \\tag{$\\star$} \\label{a}\\\\ c &= d \\label{b}\\end{align}"
     "\\[ e = f \\tag{A} \\label{c} \\]\\begin{equation*} g = h \\tag*{B} \\label{d} \\end{equation*}\n"
     "By \\eqref{a}, \\eqref{b}, \\eqref{c} and \\ref{d}.", "By ($\\star$), (1), (A) and B."),
    ("an inner aligned, cases or substack has lines of its own",
     "\\begin{align} a &= \\begin{cases} 1 \\\\ 2 \\end{cases} \\label{a}\\\\ "
     "b &= \\sum_{\\substack{i \\\\ j}} c"
     " \\label{b}\\end{align}\\begin{equation}\\begin{aligned} d &= e \\\\ f &= g \\end{aligned}\\label{c}"
     "\\end{equation}\nBy \\eqref{a}, \\eqref{b} and \\eqref{c}.", "By (1), (2) and (3)."),
    ("two labels on one line", "\\begin{equation} a = b \\label{a}\\label{b} \\end{equation}\n"
     "By \\eqref{a} and \\eqref{b}.", "By (1) and (1)."),
])
def test_equations_are_numbered_as_latex_numbers_them(case, body, printed):
    assert _references(body) == printed


def test_the_hermite_note_resolves_every_equation_reference():
    r"""The note's \eqref{eq:mu3} (second line of an align), \eqref{eq:kp0} and \eqref{eq:hseries}
    (after a \nonumber line) printed "(??)"."""
    note = r"""\begin{equation} h(m) = -\Phi'(m). \label{eq:h} \end{equation}
\begin{align}
\mu_1 &= a, \label{eq:mu1}\\
\mu_3 &= b, \label{eq:mu3}
\end{align}
\begin{align} K(0) &= 0, \label{eq:k0}\\ K'(0) &= c, \label{eq:kp0} \end{align}
\begin{align*} x &= y \end{align*}
\begin{align}
\Phi(m) &= d \nonumber\\
  &= e, \label{eq:phiglm}\\
h(m) &= f, \label{eq:hseries}
\end{align}
By \eqref{eq:mu3}, \eqref{eq:kp0}, \eqref{eq:phiglm} and \eqref{eq:hseries}."""
    assert _references(note) == "By (3), (5), (6) and (7)."


_COUNTED = r"""\documentclass{article}
\newtheorem{lemma}{Lemma}
\begin{document}
\section{A}
\[ 1 + 1 = 2, \qquad 2 + 2 = 4 \]
\[ 3 = 3 \]
\begin{lemma}
For all $x$, $x^2 \ge 0$.
\end{lemma}
\begin{proof}
Indeed $x^2 = |x|^2$.
\end{proof}
\end{document}
"""


def _checked_pack(tmp_path) -> subprocess.CompletedProcess:
    """A pack "p" in ``tmp_path`` (from :data:`_COUNTED`) with a claim of partial scope, checked
    with `verify check --paper p` run from ``tmp_path``; that run."""
    (tmp_path / "note.tex").write_text(_COUNTED, encoding="utf-8")
    assert _verify("ledger", "init", "note.tex", "--out", "p", cwd=tmp_path).returncode == 0
    ledger_d = tmp_path / "p" / "ledger.d"
    for name, old, new in (
            ("displays.toml", "id = '1-1'", "id = '1-1'\nclaim = '1 + 1 == 2'\nscope = 'part: the first'"),
            ("displays.toml", "id = '1-2'", "id = '1-2'\nclaim = '3 == 3'"),
            ("relations.toml", "id = '1-r1'",
             "id = '1-r1'\nclaim = 'x**2 == Abs(x)**2'\nfor = 'x in [-2, 2]'"),
            ("statements.toml", "id = '1-s1'", "id = '1-s1'\nreason = 'x is any real'")):
        path = ledger_d / name
        path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    done = _verify("check", "--paper", "p", "--quiet", "--jobs", "1", "--coverage", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return done


def test_check_and_status_print_the_pack_directory_as_typed(tmp_path):
    """`check --paper DIR` printed "Reports: /abs/…/DIR/report.json", `ledger status DIR`
    "verdicts from /abs/…/DIR/report.json", for a relative DIR."""
    done = _checked_pack(tmp_path)
    assert "Reports: p/report.json, p/report.md and p/report.html" in done.stdout
    assert "inline relations (p/ledger.d)" in done.stdout and str(tmp_path) not in done.stdout
    status = _verify("ledger", "status", "p", cwd=tmp_path)
    assert status.returncode == 0, status.stderr
    assert "verdicts from p/report.json" in status.stdout and str(tmp_path) not in status.stdout


def test_ledger_status_counts_as_the_report_names_the_statements_and_says_stale(tmp_path):
    """`ledger status` counted a holds of a partial scope (scope = 'part: …') as decided where the
    report's coverage counts it apart, left the relations of the statements out of its headline,
    and never said that the report it read was older than the ledger."""
    _checked_pack(tmp_path)
    status = _verify("ledger", "status", "p", cwd=tmp_path)
    assert status.returncode == 0, status.stderr
    assert status.stdout.splitlines()[0] == (
        "note: 4 entries (2 displays, 1 relations of proofs, 1 relations of statements, 0 relations of "
        "the prose); "
        "verdicts from p/report.json")

    def rows(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.startswith(("| §1 |", "| **all** |"))]

    assert rows(status.stdout) == rows((tmp_path / "p" / "report.md").read_text(encoding="utf-8"))
    assert rows(status.stdout)[0].startswith("| §1 | displays | 2 | 1 (exact 1) | 1 (partial 1) |")
    # a ledger file edited after the run: the report is stale, and status says so
    later = (tmp_path / "p" / "report.json").stat().st_mtime + 10
    os.utime(tmp_path / "p" / "ledger.d" / "statements.toml", (later, later))
    status = _verify("ledger", "status", "p", cwd=tmp_path)
    assert "verdicts from p/report.json (stale: p/ledger.d/statements.toml changed after the report" \
        in status.stdout.splitlines()[0]
