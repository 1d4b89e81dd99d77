r"""Relations of the prose, outside every proof and statement (an introduction's "$K(0) = 1/\pi$",
a remark paragraph between sections), get ledger entries of their own, ``[[prose]]`` with ids
``<section>-p<n>``; the coverage counts them, a claim on one runs as the check ``prose-<id>``, and a
pack written before they were tracked still loads and says how many it leaves without an entry
(issue 50, item 1: they had no entry while the coverage reported none missing)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

from verify.paper import pack
from verify.paper.ledger import coverage_table, entries
from verify.paper.skeleton import init_pack
from verify.paper.source import prose_relations, relations, statement_relations

NOTE = r"""\documentclass{article}
\newtheorem{lemma}{Lemma}
\begin{document}
\section{Setting}
For the ReLU we recall $K(0) = 1/\pi$ and take $p = 3$; also $\mu_1 = \mathbb{E}[g\sigma(g)]$.
\begin{lemma}\label{lem:relu}
For the ReLU, $\mu_1(\sigma) = 1/2$.
\end{lemma}
\begin{proof}
By Stein's lemma, $\mu_1 = \mathbb{E}[\sigma'(g)] = 1/2$.
\end{proof}
\section{Discussion}
Hence $K'(0) = 1/5$ for the ReLU.
\end{document}
"""


def _note_pack(tmp_path):
    tex = tmp_path / "note.tex"
    tex.write_text(NOTE, encoding="utf-8")
    directory, _, _ = init_pack(tex, tmp_path / "pack")
    return directory


def test_ledger_init_gives_each_relation_of_the_prose_an_entry_and_the_coverage_counts_it(tmp_path):
    directory = _note_pack(tmp_path)
    assert (directory / "ledger.d" / "prose.toml").is_file()
    assert "prose = ['prose.toml']" in (directory / "pack.toml").read_text(encoding="utf-8")
    with pack.using(pack.load(directory)):
        # "p = 3" chooses a parameter: no entry; the statement's and the proof's relations are not
        # the prose's, and each relation of the text is in exactly one of the three
        assert [(r.id, r.latex) for r in prose_relations()] == [
            ("1-p1", r"K(0) = 1/\pi"), ("1-p2", r"\mu_1 = \mathbb{E}[g\sigma(g)]"), ("2-p1", "K'(0) = 1/5")]
        assert [r.latex for r in statement_relations()] == [r"\mu_1(\sigma) = 1/2"]
        assert [r.latex for r in relations()] == [r"\mu_1 = \mathbb{E}[\sigma'(g)] = 1/2"]
        assert [e.what for e in entries()].count("prose") == 3
        table = coverage_table({})
    assert "| §1 | prose | 2 |" in table and "| **all** | prose | 3 |" in table
    assert "| **all** | every kind | 5 |" in table


def test_a_false_relation_of_the_prose_fails_as_its_own_check(tmp_path):
    """K'(0) = μ₁² = 1/4 for the ReLU, printed 1/5: the error sits in the prose, and is found."""
    directory = _note_pack(tmp_path)
    path = directory / "ledger.d" / "prose.toml"
    text = path.read_text(encoding="utf-8").replace(
        "id = '2-p1'", "id = '2-p1'\nclaim = 'Kp(0) == 1/5'\nactivation = 'relu'\nfails_as = 'statement'", 1)
    path.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "verify", "check", "--paper", str(directory), "--quiet"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "prose-2-p1" in done.stdout and "fails/statement" in done.stdout


def test_a_pack_written_before_prose_was_tracked_loads_and_says_what_it_leaves_out(tmp_path):
    directory = _note_pack(tmp_path)
    toml = directory / "pack.toml"
    older_text = toml.read_text(encoding="utf-8").replace("prose = ['prose.toml']\n", "")
    toml.write_text(older_text, encoding="utf-8")
    pack.load.cache_clear()
    older = pack.load(directory)
    assert older.prose_files == ()
    with pack.using(older):
        assert [e.what for e in entries()].count("prose") == 0
    status = subprocess.run([sys.executable, "-m", "verify", "ledger", "status", str(directory)],
                            capture_output=True, text=True, timeout=600)
    assert "tracks no relations of its prose: 3 inline relation(s)" in status.stdout


def test_the_dayi_chen_prose_relations_are_numbered_and_tracked():
    """The paper's 99 inline relations outside its proofs and statements, from the abstract to the
    appendices' connecting text, each with an entry of the built-in pack."""
    with pack.using(pack.load(pack.BUILTIN)):
        found = prose_relations()
        assert len(found) == 99 and found[0].id == "1.1-p1"
        assert [e.id for e in entries() if e.what == "prose"] == [r.id for r in found]
        # a relation is in one place only: no prose span inside a proof's or a statement's
        spans = {(r.line, r.latex) for r in (*relations(), *statement_relations())}
        assert not spans & {(r.line, r.latex) for r in found}
    # the rule of "digits" packs skips the same parameter choices in the prose as in the statements
    with pack.using(dataclasses.replace(pack.load(pack.BUILTIN), parameter_choices="digits")):
        assert all(r.latex.strip() not in ("p = 1", "k = 2") for r in prose_relations())
