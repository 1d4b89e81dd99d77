r"""Relations inside statements (a lemma's "$\mu_0 = \mu_2 = 0$", "$h = -\Phi'$") get ledger entries
of their own in a pack written by `ledger init`, the coverage counts them, and a claim on one runs
as a check (issue 50: they had no entry, and coverage reported "missing 0" all the same)."""

from __future__ import annotations

import subprocess
import sys

from verify.checks.packs import pack_checks
from verify.paper import pack
from verify.paper.ledger import coverage_table, entries
from verify.paper.skeleton import init_pack
from verify.paper.source import statement_relations

NOTE = r"""\documentclass{article}
\newtheorem{lemma}{Lemma}
\begin{document}
\section{Facts}
\begin{lemma}\label{lem:relu}
For the ReLU, $\mu_1(\sigma) = 1/2$, and for $p = 3$ we have $\mu_p(\sigma) = 0$.
\end{lemma}
\begin{proof}
With $p = 1$, $\mu_1 = \mathbb{E}[\sigma'(g)] = 1/2$.
\end{proof}
\end{document}
"""


def test_ledger_init_gives_each_relation_of_a_statement_an_entry_and_skips_parameter_choices(tmp_path):
    tex = tmp_path / "note.tex"
    tex.write_text(NOTE, encoding="utf-8")
    directory, _, _ = init_pack(tex, tmp_path / "pack")
    assert (directory / "ledger.d" / "statements.toml").is_file()
    with pack.using(pack.load(directory)):
        stated = statement_relations()
        # "p = 3" chooses a parameter: no entry; the two relations of the statement each get one
        assert [(r.id, r.latex) for r in stated] == [("1-s1", r"\mu_1(\sigma) = 1/2"),
                                                     ("1-s2", r"\mu_p(\sigma) = 0")]
        assert [e.what for e in entries()].count("statement") == 2
        table = coverage_table({})
    assert "| §1 | statements | 2 |" in table and "| **all** | statements | 2 |" in table


def test_a_claim_on_a_statement_relation_runs_and_a_false_one_fails(tmp_path):
    tex = tmp_path / "note.tex"
    tex.write_text(NOTE, encoding="utf-8")
    directory, _, _ = init_pack(tex, tmp_path / "pack")
    path = directory / "ledger.d" / "statements.toml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("id = '1-s1'", "id = '1-s1'\nclaim = 'mu(1) == 1/3'\nactivation = 'relu'\n"
                        "fails_as = 'statement'", 1)
    path.write_text(text, encoding="utf-8")
    with pack.using(pack.load(directory)):
        assert [c.id for c in pack_checks(pack.load(directory))] == ["statement-1-s1"]
    done = subprocess.run([sys.executable, "-m", "verify", "check", "--paper", str(directory), "--quiet"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "statement-1-s1" in done.stdout and "fails/statement" in done.stdout
