r"""Claims typed in LaTeX (verify.claims.latex_input, issue #53): what each construct reads as, the
one-line hint for each refusal, the CLI's show-back in both notations, ledger entries that read
their claim from their quote, and hostile input (no exception but the refusal, bounded work)."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.base.errors import MalformedExpressionError
from verify.claims.latex_input import (
    MAX_DEPTH,
    MAX_LENGTH,
    LatexClaimError,
    looks_like_latex,
    read_claim,
    relations_of,
    to_claim_language,
)
from verify.claims.spec import build_spec

READINGS = [
    (r"\mathbb{E}_g[\sigma'(g)] = \tfrac12", "Eg(dsigma(g)) == 1/2"),
    (r"h(0) \ge \frac{C_\sigma \xi^2}{k+\xi^2}", "h(0) >= C_sigma*xi**2/(k + xi**2)"),
    (r"\sum_{i=1}^k \lambda_i c_i \hat c_i \le 1", "Sum(lam(i)*c(i)*chat(i), i, 1, k) <= 1"),
    (r"\sum_{i=1}^{k} \lambda_i \hat{c}_i \leq 1", "Sum(lam(i)*chat(i), i, 1, k) <= 1"),
    (r"\sum_{i,j=1}^k \lambda_i \lambda_j G_{ij} \ge 0", "Sum(Sum(lam(i)*lam(j)*G(i, j), j, 1, k), i, 1, k) >= 0"),
    (r"\mu_p(\sigma)^2 \le \mu_1^2", "mu(p)**2 <= mu(1)**2"),
    (r"K'(\rho) \geq 0", "Kp(rho) >= 0"),
    (r"K''(\rho) \geq 0", "diff(K(rho), rho, 2) >= 0"),
    (r"h'(m) \ge 0", "diff(h(m), m) >= 0"),
    (r"\Phi'(m) \le 0", "diff(Phi(m), m) <= 0"),
    (r"\sigma''(g) \le 1", "diff(sigma(g), g, 2) <= 1"),
    (r"\sigma^{(3)}(g) = 0", "diff(sigma(g), g, 3) == 0"),
    (r"\left| h(m) \right| \sqrt{1-m^2} \le C_\sigma \lambda_{\max}^2 k \xi^2",
     "Abs(h(m))*sqrt(1 - m**2) <= C_sigma*lam_max**2*k*xi**2"),
    (r"\lambda_{\min} > 0", "lam_min > 0"),
    (r"\mathbb{E}_{z\sim\mathcal{N}(0,1)}\left[\frac{1-\cos z}{z^2}\right] = \sqrt{\pi/2}"
     r"\operatorname{erf}(1/\sqrt2) - 1 + e^{-1/2}",
     "Eg((1 - cos(g))/g**2) == sqrt(pi/2)*erf(1/sqrt(2)) - 1 + exp(-1/2)"),
    (r"\langle c, \hat c\rangle \le 1", "Sum(c(i)*chat(i), i, 1, k) <= 1"),
    (r"\sum_{p\ge 0} \mu_p^2 = \mathbb{E}[\sigma(g)^2]", "Sum(mu(p)**2, p, 0, oo) == Eg(sigma(g)**2)"),
    (r"\sum_{p=1}^{\infty} p\,\mu_p^2 = C_\sigma", "Sum(p*mu(p)**2, p, 1, oo) == C_sigma"),
    (r"\binom{l+s}{l} \le 2^{l+s}", "binomial(l + s, l) <= 2**(l + s)"),
    (r"{n \choose k} \ge 1", "binomial(n, k) >= 1"),
    (r"\Phi(m) = 2(K(1) - K(m))", "Phi(m) == 2*(K(1) - K(m))"),
    (r"\max\{m, 0\} \ge m", "Max(m, 0) >= m"),
    (r"e^{x} \ge 1 + x", "exp(x) >= 1 + x"),
    (r"\log k \le k", "log(k) <= k"),
    (r"|x| |y| \ge 0", "Abs(x)*Abs(y) >= 0"),
    (r"\|x\| \le \lVert y \rVert", "Abs(x) <= Abs(y)"),
    (r"\mu_3 = \mathbb{E}_g[\sigma(g) h_3(g)]", "mu(3) == Eg(sigma(g)*(g**3 - 3*g)/sqrt(6))"),
    (r"\mu_1 = \mathbb{E}[\sigma(g)\, h_1(g)].", "mu(1) == Eg(sigma(g)*g)"),
    (r"h(0) = \Theta\!\left(\frac{\xi^2}{k}\right)", "h(0) == Theta(xi**2/k)"),
    (r"\sum_{s=0}^{\infty} \left(\frac{k}{k+1}\right)^{s+1} = \mathcal{O}(k)",
     "Sum((k/(k + 1))**(s + 1), s, 0, oo) == O(k)"),
    (r"\ell^* \ge 1", "lstar >= 1"),
    (r"p! \ge 2^{p-1}", "factorial(p) >= 2**(p - 1)"),
    (r"\lfloor x \rfloor \le x", "floor(x) <= x"),
    (r"\sqrt[3]{x} \ge 0", "x**(1/3) >= 0"),
    (r"h(m) &\le h(0) \label{eq:h}", "h(m) <= h(0)"),
    (r"\sin^2 x + \cos^2 x = 1", "sin(x)**2 + cos(x)**2 == 1"),
    (r"\frac{1}{l+1}\leq \frac{1}{2}", "1/(l + 1) <= 1/2"),
]


@pytest.mark.parametrize(("latex", "reading"), READINGS)
def test_each_construct_reads_as_the_claim_language_spells_it(latex, reading):
    assert to_claim_language(latex) == reading


REFUSALS = [  # (LaTeX, a part of the one-line hint that says what to write instead)
    (r"h(m) \ge 0 \quad \text{for all } m", "--for"),
    (r"a \le b \le c", "claims = [...]"),
    (r"\E[\sigma(g)] \ne 0", "state the sign of the difference"),
    (r"xi^2 \ge 0", r"write \xi"),
    (r"\mathbb{E}[tanh(g)] \ge 0", r"write \tanh"),
    (r"\le a + b", "whole chain"),
    (r"f^*(x) = 1", "no starred names"),
    (r"\Pr[x > 1] \le 1", "--prob"),
    (r"x_t \le 1", "indices as calls"),
    (r"\prod_{i=1}^k c_i \le 1", "\\sum"),
    (r"\int x\,dx = 1/2", r"\mathbb{E}_g"),
    (r"\int_0^1 x^2 = 1/3", "differential"),
    (r"\mathbb{E}_{x \sim \mathcal{N}(0, 2)}[x^2] = 2", "standard Gaussian"),
    (r"h(m) \lesssim 1", "O(b)"),
    (r"x + \cdots + y = 1", "ellipsis"),
    (r"\hat u = 1", r"\hat c_i"),
    (r"h_{p}(g) = 1", "number p"),
    (r"\sum_i c_i = 0", r"\sum_{i=1}^{k}"),
    (r"h(m) \ge 0 \\ a + b", "line without a relation"),
    (r"a + b \\ c = d", "join it"),
    (r"\begin{cases} 1 \end{cases} = 1", "one claim per case"),
    (r"1 + 1", "a claim relates two sides"),
]


@pytest.mark.parametrize(("latex", "advice"), REFUSALS)
def test_each_refusal_is_one_line_that_says_what_to_write(latex, advice):
    with pytest.raises(LatexClaimError) as caught:
        to_claim_language(latex)
    message = str(caught.value)
    assert "\n" not in message and advice in message, message


CONDITIONS = [
    (r"K''(\rho) \geq 0 \qquad \text{for } 0 \le \rho \le 1 .", ("rho in [0, 1]",)),
    (r"h'(m) \ge 0 \quad \text{for all } m \in [0,1]", ("m in [0, 1]",)),
    (r"h(m) \ge h(0) \qquad (-1 \le m \le 1).", ("m in [-1, 1]",)),
    (r"\left|K(\rho)\right| \le K(1), \quad \rho \in [-1, 1]", ("rho in [-1, 1]",)),
    (r"\xi^2 \le k, \quad 1 \le k \le 8,\ 0 \le \xi \le 1", ("k in 1..8", "xi in [0, 1]")),
    (r"h(m) \ge 0 \quad \forall m \in [0, 1/2]", ("m in [0, 1/2]",)),
]


@pytest.mark.parametrize(("latex", "quantifiers"), CONDITIONS)
def test_conditions_after_the_claim_become_its_quantifiers(latex, quantifiers):
    assert read_claim(latex, single=True).quantifiers == quantifiers


@pytest.mark.parametrize(("latex", "advice"), [
    (r"h(m) \ge 0, \quad 0 < m \le 1", "closed range"),
    (r"h(m) \ge 0 \quad m \in [0, 1)", "open end"),
    (r"h(m) \ge 0 \quad \text{unless } m = 0", "conditions are ranges"),
    (r"h(m) \ge 0, \quad m \ge 0", "closed range")])
def test_a_condition_that_is_not_a_closed_range_is_refused(latex, advice):
    with pytest.raises(LatexClaimError, match=re.escape(advice)):
        read_claim(latex)


SEVERAL = [  # (LaTeX, its relations, its quantifiers): a part after ", \quad" is a relation or a condition
    (r"K(0)=\frac{1}{\pi}, \qquad K'(0)=\frac14", ("K(0) == 1/pi", "Kp(0) == 1/4"), ()),
    (r"K(0) = \frac{1}{2\pi}, \qquad K'(0) = \frac{1}{4}, \qquad "
     r"K(1) = \mathbb{E}[\sigma(g)^2] = \frac{1}{2}.",
     ("K(0) == 1/(2*pi)", "Kp(0) == 1/4", "K(1) == Eg(sigma(g)**2)", "Eg(sigma(g)**2) == 1/2"), ()),
    (r"h(0) = 1 \quad \text{and} \quad h(1) \le h(0)", ("h(0) == 1", "h(1) <= h(0)"), ()),
    (r"h(0) = 1, \quad h(1) = \pi", ("h(0) == 1", "h(1) == pi"), ()),
    (r"h(0) = 1, \quad m \le h(m) \qquad \text{for all } m \in [0, 1]", ("h(0) == 1", "m <= h(m)"),
     ("m in [0, 1]",)),
    (r"h(0) = 1, \quad h(1) = 2 \\ h(2) = 3", ("h(0) == 1", "h(1) == 2", "h(2) == 3"), ()),
    # a condition on one variable stays a condition
    (r"h(m) = 1, \quad 0 \le m \le 1", ("h(m) == 1",), ("m in [0, 1]",)),
    (r"h(m) \ge 0 \text{ and } 0 \le m \le 1", ("h(m) >= 0",), ("m in [0, 1]",)),
]


@pytest.mark.parametrize(("latex", "relations", "quantifiers"), SEVERAL)
def test_a_relation_after_a_wide_space_is_another_relation_not_a_condition(latex, relations, quantifiers):
    """docs/claims.md lists "X, \\quad Y" as a display of several relations, but the part after
    \\qquad was read as a condition: "K(0) = 1/pi, \\qquad K'(0) = 1/4" was refused with "the
    condition 'Kp(0) == 1/4'; a condition is a closed range"."""
    reading = read_claim(latex)
    assert reading.relations == relations and reading.quantifiers == quantifiers
    if len(relations) > 1 and not quantifiers:  # one claim asked for: the count, not a condition
        with pytest.raises(LatexClaimError, match=f"{len(relations)} relations"):
            to_claim_language(latex)


def test_a_condition_is_not_dropped_where_only_the_relation_is_asked_for():
    with pytest.raises(LatexClaimError, match="conditions after the claim"):
        to_claim_language(r"h(m) \ge 0 \quad (0 \le m \le 1)")


CORPUS = tomllib.loads((Path(__file__).parent / "calibration" / "latex" / "corpus.toml").read_text("utf-8"))
#: The corpus's formulas the claim language refuses after the LaTeX is read (its own one-line error).
#: (none since the index-shifted sum, Σ (s+1) μ_{s+1}² r^(s+1), is read as the sum over q = s + 1)
LANGUAGE_REFUSES: set[str] = set()


@pytest.mark.parametrize("formula", CORPUS["formula"], ids=lambda f: f["latex"][:40])
def test_the_held_out_corpus_reads_as_its_writer_meant_or_gets_a_hint(formula):
    """30 formulas written by a helper who saw docs/claims.md and the paper but not this reader
    (2026-11-29): 24 expressible, each with its meaning in the claim language; 6 not expressible.
    Measured then: 23 of 24 read to their meaning (and its ranges), the last refused by the claim
    language in one line (an index-shifted infinite sum, read since); the 6 refused with a hint."""
    latex, meaning = formula["latex"], formula["meaning"]
    options = {key: formula[key] for key in ("family", "activation", "growth") if key in formula}
    if not meaning or any(latex.startswith(start) for start in LANGUAGE_REFUSES):
        with pytest.raises(MalformedExpressionError) as refused:
            build_spec(latex, for_=formula.get("for", []), **options)
        assert "\n" not in str(refused.value)
        return
    reading = read_claim(latex, single=True)
    named = {q.split()[0] for q in reading.quantifiers}
    read = build_spec(latex, for_=[q for q in formula.get("for", []) if q.split()[0] not in named], **options)
    meant = build_spec(meaning, for_=formula.get("for", []), **options)
    assert sorted(map(str, read.quantifiers)) == sorted(map(str, meant.quantifiers))
    a, b = read.claim, meant.claim
    difference = sympy.simplify((a.lhs - a.rhs) - (b.lhs - b.rhs))
    assert a.op == b.op and difference == 0, (a.text, b.text)


def test_the_norm_of_a_vector_is_refused_by_the_claim_languages_parser():
    # \|u\| reads as Abs(u), and u is no name of the language: one line, exit 2 from the command
    with pytest.raises(MalformedExpressionError, match="unknown name 'u'"):
        build_spec(r"\| u \| = 1")


def test_a_display_of_several_relations_gives_one_claim_each():
    assert relations_of(r"\Phi(m) &= a + b \\ &\quad + c \\ &\le d.") == ["Phi(m) == a + b + c",
                                                                          "a + b + c <= d"]
    assert relations_of(r"a \le b \\[2pt] c \ge d") == ["a <= b", "c >= d"]
    assert relations_of("A = B = C") == ["A == B", "B == C"]


@pytest.mark.parametrize(("text", "latex"), [
    ("Eg(dsigma(g)) == 1/2", False), ("h(m) >= 0", False), ("Eg(dsigma(g)) = 1/2", False),
    (r"\xi \ge 0", True), ("x^2 >= 0", True), ("{x} >= 0", True)])
def test_latex_is_told_from_the_claim_language(text, latex):
    # a single = stays with the claim language, whose parser says to write == (a LaTeX reading of
    # Eg(...) would be the product E*g*(...))
    assert looks_like_latex(text) is latex


def test_hostile_latex_is_refused_in_bounded_work():
    with pytest.raises(LatexClaimError, match="limit"):
        to_claim_language("x" * (MAX_LENGTH + 1) + " = 1")
    with pytest.raises(LatexClaimError, match="nest more than"):
        to_claim_language("{" * (MAX_DEPTH + 5) + "x" + "}" * (MAX_DEPTH + 5) + " = 1")
    for command in (r"\input{/etc/passwd} = 1", r"\write18{rm -rf /} = 1", r"\csname x\endcsname = 1",
                    r"\def\a{1} \a = 1"):
        with pytest.raises(LatexClaimError, match="not a construct"):
            to_claim_language(command)


_TOKENS = [r"\frac", r"\sqrt", "{", "}", "(", ")", "[", "]", "^", "_", "|", r"\left", r"\right", r"\mathbb{E}",
           r"\sum", "x", "g", "1", "2", "=", r"\le", "+", "-", r"\cdot", "'", r"\sigma", "h", "K", r"\\", "&",
           r"\langle", r"\rangle", r"\hat", "c", r"\mu", r"\lambda", "!", r"\{", r"\}", r"\lfloor", ",",
           r"\choose", "e", "E", r"\text{a}", r"\ell", "*", r"\infty", r"\binom", r"\max", "/", " ",
           r"\quad", r"\in", r"\forall", r"\text{for}", "w_1", "m"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS), min_size=1, max_size=16).map("".join))
def test_any_latex_is_read_or_refused_with_the_one_error(latex):
    # 200 000 random inputs raised nothing else when this was written; the claim language's
    # parser then refuses what the reading produced with its own one-line error
    from verify.claims.language import parse_claim

    for read in (to_claim_language, relations_of, lambda text: read_claim(text).relations):
        try:
            out = read(latex)
        except LatexClaimError:
            continue
        for relation in [out] if isinstance(out, str) else out:
            try:
                parse_claim(relation, {})
            except MalformedExpressionError:
                pass


def _verify(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "verify", *args], capture_output=True, text=True, check=False)


def test_the_command_shows_the_claim_as_typed_as_read_and_printed_back():
    done = _verify("claim", r"\mathbb{E}_g[\sigma'(g)] = \tfrac12", "--activation", "relu")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == r"latex:    \mathbb{E}_g[\sigma'(g)] = \tfrac12 (as typed)"
    assert lines[1] == "claim:    Eg(dsigma(g)) == 1/2 (as read)"
    assert lines[2] == r"as LaTeX: \mathbb{E}_{g}\left[\sigma'\left(g\right)\right] = \frac{1}{2}"
    assert "holds" in lines[3]


def test_a_refused_latex_claim_exits_2_with_one_line():
    done = _verify("claim", r"h(m) \ne 0", "--family", "glm")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "state the sign" in done.stderr


def test_a_latex_claim_that_the_language_refuses_names_its_reading():
    done = _verify("claim", r"h(m) \ge 0", "--family", "glm", "--activation", "tanh")
    assert done.returncode == 2
    assert "--for 'm in" in done.stderr and "the LaTeX reads as 'h(m) >= 0'" in done.stderr


def _pack(tmp_path, entry: str, macros: str = ""):
    """A one-display pack written from LaTeX by ledger init, with ``entry`` as its claim fields."""
    note = tmp_path / "note.tex"
    note.write_text(textwrap.dedent(rf"""
        \documentclass{{article}}
        {macros}
        \begin{{document}}
        \section{{One}}
        \begin{{equation}}
        \E[\sigma'(g)] = \half
        \end{{equation}}
        \end{{document}}
        """), encoding="utf-8")
    pack = tmp_path / "pack"
    init = _verify("ledger", "init", "--out", str(pack), str(note))
    assert init.returncode == 0, init.stderr
    ledger = next((pack / "ledger.d").glob("displays*.toml"))
    text = ledger.read_text(encoding="utf-8")
    ledger.write_text(re.sub(r"^kind = ", f"{entry}\nkind = ", text, count=1, flags=re.MULTILINE),
                      encoding="utf-8")
    return pack


def test_a_ledger_entry_reads_its_claim_from_its_quote_with_the_packs_macros(tmp_path):
    from verify.paper import ledger
    from verify.paper.pack import load, using

    pack = _pack(tmp_path, 'claim_from_quote = true\nactivation = ["relu"]',
                 r"\newcommand{\E}{\mathbb{E}_g}\newcommand{\half}{\tfrac12}")
    with using(load(pack)):
        (entry,) = [e for e in ledger.entries() if e.claim is not None]
    assert entry.claim.text == "Eg(dsigma(g)) == 1/2"


def test_a_quote_that_cannot_be_read_names_its_entry(tmp_path):
    from verify.paper import ledger
    from verify.paper.pack import PackError, load, using

    pack = _pack(tmp_path, "claim_from_quote = true")  # no macros: \half is unknown
    with using(load(pack)), pytest.raises(PackError, match=r"ledger entry .*\\half is not a construct"):
        ledger.entries()


def test_ledger_quotes_says_which_quotes_read_as_their_entrys_claim():
    done = _verify("ledger", "quotes", "examples/rank1-note", "--all")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "2-1: read: mu(1) == 1/2 [the entry's claim: the same relation]" in lines
    assert "3-1: read: Kp(rho) >= 0  (for rho in [0, 1]) [the entry's claim: the same relation]" in lines
    assert any(line.startswith("2-r2: refused: a probability") for line in lines)
    assert lines[-2].startswith("13 of 15 quotes read as claims: 11 the same relation")


@pytest.mark.parametrize(("latex", "activation", "verdict"), [
    (r"\mu_1(\operatorname{erf}) = \frac{2}{\sqrt{3\pi}}", None, "holds"),
    (r"\mu_1(\mathrm{relu}) = \frac{1}{2}", None, "holds"),
    (r"\mu_1(\text{ReLU}) = \frac{1}{2}", "relu", "holds"),
    (r"\mu_1(\tanh) = \frac{1}{2}", None, "fails"),
])
def test_a_coefficient_that_names_its_activation_is_that_activations(latex, activation, verdict):
    r"""``\mu_1(\erf)`` (a note's own macro for \operatorname{erf}) was "')' is not understood here":
    the coefficient names the claim's activation, which is the one given or, if none, that one."""
    from verify.claims import claim

    assert claim(latex, activation=activation).verdict.value == verdict


@pytest.mark.parametrize(("latex", "activation", "message"), [
    (r"\mu_1(\mathrm{relu}) = \frac{1}{2}", "erf",
     "names the activation relu, but the claim's activation is erf"),
    (r"\mu_1(\mathrm{relu}) = \mu_1(\tanh)", None, "names the activations relu, tanh: a claim has one"),
])
def test_a_coefficient_naming_another_activation_is_refused_in_one_line(latex, activation, message):
    with pytest.raises(MalformedExpressionError, match=message) as refused:
        build_spec(latex, activation=activation)
    # the LaTeX as typed, one backslash per backslash (repr doubled them)
    assert r"'\mu_1(\mathrm{relu})" in str(refused.value) and "\n" not in str(refused.value)


def test_an_align_line_may_end_with_its_punctuation():
    # a line's comma or full stop before the line break is punctuation, not part of the relation
    for display in (r"K(0) &= \frac{1}{2\pi}, \\ K'(1) &= \frac12",
                    r"K(0) &= \frac{1}{2\pi}. \\ K'(1) &= \frac12."):
        assert read_claim(display).relations == ("K(0) == 1/(2*pi)", "Kp(1) == 1/2")
