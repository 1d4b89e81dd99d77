"""Corrections in the claim language are shown as formulas that mean what the claim means (#39).

:func:`verify.claims.printing.claim_latex` prints a claim from its syntax tree; the reader of
tests/claim_readback.py reads the LaTeX back with the conventions of mathematical writing and
compares it with the claim the whitelist parser builds.  Run over every claim and correction of
the packs, over random claims (Hypothesis), and over printings known to be wrong (the reader must
refuse each, or the test proves nothing).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.claim_readback import agree
from verify.checks.report import correction_markdown
from verify.claims.printing import claim_latex, correction_parts
from verify.paper.ledger import entries
from verify.paper.pack import load, using

_PACKS = [Path("verify/paper/packs/dayi_chen"), Path("examples/rank1-note")]


def _ledger_claims():
    texts = []
    for directory in _PACKS:
        with using(load(directory)):
            for entry in entries():
                if entry.claim is not None:
                    texts += [entry.claim.text] + ([entry.claim.correction] if entry.claim.correction else [])
    return texts


def test_every_claim_and_correction_of_the_packs_reads_back_as_itself():
    texts = _ledger_claims()
    assert len(texts) >= 120  # 128 claims and corrections today
    for text in texts:
        result = claim_latex(text)
        assert result is not None, text  # every one the whitelist parser accepts prints
        agree(text, result[0])


@pytest.mark.parametrize("source, latex", [
    ("(-1)**l*x", r"\left(-1\right)^{l} \cdot x"),  # was -1^{l}
    ("(-x)**2 + k", r"\left(-x\right)^{2} + k"),
    ("-b*x <= E + e", r"-b \cdot x \leq \exp\left(1\right) + e"),  # e is a variable of some entries
    ("E**(l + 1)", r"\exp\left(l + 1\right)"),
    ("mu(l + s + 1)**2", r"\mu_{l + s + 1}^{2}"),
    ("Sum(lam(i), i, 1, k)*x", r"\left(\sum_{i=1}^{k} \lambda_{i}\right) \cdot x"),
    ("Sum(lam(i)*c(i), i, 1, k) >= lam_min",
     r"\sum_{i=1}^{k} \left(\lambda_{i} \cdot c_{i}\right) \geq \lambda_{\mathrm{min}}"),
    ("Eg(sigma(g)*g) == mu(1)", r"\mathbb{E}_{g}\left[\sigma\left(g\right) \cdot g\right] = \mu_{1}"),
    ("Kp(rho)/binomial(l + s, l)", r"\frac{K'\left(\rho\right)}{\binom{l + s}{l}}"),
    # a derivative in Leibniz's notation, read back by the claim reader too (test below)
    ("diff(Phi(m), m)*(1 - m**2)",
     r"\left(\frac{\mathrm{d}}{\mathrm{d}m} \Phi\left(m\right)\right) \cdot \left(1 - m^{2}\right)"),
    ("diff(h(m), m, 2) >= 0", r"\frac{\mathrm{d}^{2}}{\mathrm{d}m^{2}} h\left(m\right) \geq 0"),
])
def test_the_hazards_print_one_reading(source, latex):
    assert claim_latex(source)[0] == latex
    agree(source, latex)


@pytest.mark.parametrize("latex, claim", [
    (r"\frac{\mathrm{d}}{\mathrm{d}m} \Phi\left(m\right) = -h(m)", "diff(Phi(m), m) == -h(m)"),
    (r"\frac{\mathrm{d}^{2}}{\mathrm{d}m^{2}} h(m) \ge 0", "diff(h(m), m, 2) >= 0"),
    (r"\frac{d}{d\rho} K(\rho) = 1", "diff(K(rho), rho) == 1"),
    (r"\frac{d^2}{dm^2} h(m) = 1", "diff(h(m), m, 2) == 1"),
    (r"\frac{1}{2} = \frac{d}{2}", "1/2 == d/2"),  # a fraction with d on top is still a fraction
])
def test_the_claim_reader_reads_leibniz_derivatives(latex, claim):
    """The reports print diff(F, x, n) as d^n/dx^n F, and a paper writes it so: both read back."""
    from verify.claims.latex_input import to_claim_language

    assert to_claim_language(latex) == claim


@pytest.mark.parametrize("source, wrong", [
    ("(-1)**l*x", r"-1^{l} \cdot x"),
    ("mu(l + 1)**2", r"\mu_{l} + 1^{2}"),
    ("E*x", r"e \cdot x"),  # e would be a variable
    ("a - (b - x)", r"a - b - x"),
    ("(x**2)**3", r"x^{2^{3}}"),
    ("Sum(lam(i), i, 1, k) + Sum(c(i), i, 1, k)*2", r"\sum_{i=1}^{k} \lambda_{i} + \sum_{i=1}^{k} c_{i}"),
])
def test_the_reader_refuses_a_wrong_printing(source, wrong):
    with pytest.raises(AssertionError):
        agree(source, wrong)


_LEAVES = st.sampled_from(["x", "k", "m", "xi", "eta", "lam_max", "dl", "eps", "L2", "lg", "E", "pi",
                           "mu(p)", "K(m)", "h(m)", "2", "3", "1/2"])


_OPERATORS = st.sampled_from([" + ", " - ", "*", "/"])


def _claim(depth: int):
    if depth == 0:
        return _LEAVES
    inner = _claim(depth - 1)
    return st.one_of(
        _LEAVES,
        st.tuples(inner, _OPERATORS, inner).map(lambda t: "({}{}{})".format(*t)),
        st.tuples(inner, st.integers(2, 3)).map(lambda t: f"({t[0]})**{t[1]}"),
        inner.map(lambda t: f"(-{t})"),
        st.tuples(st.sampled_from(["Abs", "sqrt", "exp"]), inner).map(lambda t: f"{t[0]}({t[1]})"),
        st.tuples(inner, inner).map(lambda t: f"Min({t[0]}, {t[1]})"),
        # each Sum its own index (a reused one is refused by the parser)
        inner.filter(lambda t: "i, 1" not in t).map(lambda t: f"Sum(lam(i)*{t}, i, 1, k)"),
        inner.filter(lambda t: "p, 0" not in t).map(lambda t: f"Sum(mu(p)**2*{t}, p, 0, 4)"),
    )


@given(_claim(2), st.sampled_from(["<=", "==", ">"]), _claim(1))
def test_random_claims_read_back_as_themselves(left, op, right):
    source = f"{left} {op} {right}"
    result = claim_latex(source)
    assert result is not None, source
    agree(source, result[0])


def test_a_checked_correction_is_one_formula_with_its_verdict_and_key():
    text = ("-b**2*Min(V*lg**2/(Cc*S**2), 1) <= -b**2/(2*Cc)*lg**2 (holds, certified; scope: "
            "statement: all 8 configuration(s) the quantifiers name)")
    parts = correction_parts(text)
    assert parts.upright == ("lg", "Cc") and parts.after.startswith(" (holds, certified")
    shown = correction_markdown(text)
    assert shown.count("$`") == 1 and "upright: lg, Cc" in shown and "Min(" not in shown
    cell = correction_markdown("Abs(x - 1) <= 2 (holds, exact; scope: statement)", table_cell=True)
    assert "|" not in cell.replace("\\|", "") and "\n" not in cell


def test_read_as_prefix_and_prose_corrections():
    parts = correction_parts("read D.2-18 as D.1-6: -2*Sum(lam(i)*c(i), i, 1, k)")
    assert parts.before == "read D.2-18 as D.1-6: " and parts.latex.startswith(r"-2 \cdot \sum_{i=1}^{k}")
    # prose, and a claim-like text without the verdict or read-as frame, stay text
    assert correction_parts("eta = delta/(lambda_max^4 d k^2) (then T = ceil(...))") is None
    assert correction_parts("x <= 1") is None
    assert correction_parts("read A as B: not a formula at all") is None
