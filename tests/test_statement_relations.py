r"""Relations inside statements (a lemma's "$\mu_0 = \mu_2 = 0$", "$h = -\Phi'$") get ledger entries
of their own in a pack written by `ledger init`, the coverage counts them, and a claim on one runs
as a check (issue 50: they had no entry, and coverage reported "missing 0" all the same)."""

from __future__ import annotations

import subprocess
import sys

import pytest

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


CHOICES = r"""\documentclass{article}
\newtheorem{lemma}{Lemma}
\DeclareMathOperator{\erf}{erf}
\def\cdf{\Psi}
\begin{document}
\section{Facts}
\begin{lemma}\label{lem:erf}
For $\sigma = \erf$, $\mu_1(\erf) = \frac{2}{\sqrt{3\pi}}$, and for the ReLU $\mu_1 = \frac12$.
With $\lambda_i = 1/k$ and $\hat c_i = \tfrac12$, $\xi = 1$ and $F = \cdf$, $K(0) = 1/\pi$.
Also $K(\rho) \ge \frac{4}{3\pi}\rho$ for $-1 \le \rho \le 1$, and $a = b$.
Let $0 \le m \le 1$.
\end{lemma}
\begin{proof}
At $\rho = 0$, with $\sigma = \mathrm{relu}$ and $\gamma = \frac{\epsilon}{18}$, $h(0) = 2$.
\end{proof}
\end{document}
"""


def test_a_single_symbol_set_to_a_value_or_a_range_of_a_relation_gets_no_entry(tmp_path):
    r"""Only ASCII letters set to numbers were skipped: \sigma = \erf, \rho = 0, \xi = 1,
    \lambda_i = 1/k and F = \cdf got entries, and so did the range -1 \le \rho \le 1 of the relation
    before it.  A function's value (K(0) = 1/\pi; \mu_1 = \frac12 where the text writes \mu_1(\erf))
    and a relation between two names (a = b) keep theirs; a range on its own is a hypothesis."""
    import dataclasses
    import tomllib

    from verify.paper.source import relations

    tex = tmp_path / "note.tex"
    tex.write_text(CHOICES, encoding="utf-8")
    directory, _, inline = init_pack(tex, tmp_path / "pack")
    assert "parameter_choices = 'symbols'" in (directory / "pack.toml").read_text(encoding="utf-8")
    written = pack.load(directory)
    with pack.using(written):
        assert [r.latex for r in statement_relations()] == [
            r"\mu_1(\erf) = \frac{2}{\sqrt{3\pi}}", r"\mu_1 = \frac12", r"K(0) = 1/\pi",
            r"K(\rho) \ge \frac{4}{3\pi}\rho", "a = b", r"0 \le m \le 1"]
        assert [r.latex for r in relations()] == ["h(0) = 2"] and inline == 1
        assert [e.what for e in entries()].count("statement") == 6  # the ledger init wrote reads back
    kinds = {e["quote"]: e["kind"] for e in tomllib.loads(
        (directory / "ledger.d" / "statements.toml").read_text(encoding="utf-8"))["statement"]}
    assert kinds[r"0 \le m \le 1"] == "definition"  # a hypothesis, not an inequality to check
    # a pack written before (no parameter_choices: "digits") keeps the numbering its ledger has
    with pack.using(dataclasses.replace(written, parameter_choices="digits")):
        assert len(statement_relations()) == 12 and len(relations()) == 4
    # any other rule is refused in one line naming the field
    toml = directory / "pack.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("'symbols'", "'all'"), encoding="utf-8")
    pack.load.cache_clear()
    with pytest.raises(pack.PackError, match="parameter_choices must be one of 'digits', 'symbols'"):
        pack.load(directory)
