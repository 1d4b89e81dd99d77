"""The claim language: parsing, quantifiers, and bad input refused in one line (exit 2).

Every bad input goes through the command line in-process (``verify.cli.main``), where the user
meets it: exit status 2, nothing on stdout, one stderr line that names the offending token.
Strings that try to reach Python are refused by the whitelist parser before anything runs; a
marker file proves it (through the API, the command line in-process and a real subprocess).
"""

from __future__ import annotations

import subprocess
import sys

import pytest
import sympy

from verify.base.errors import VerifyInputError
from verify.claims.language import ParsedClaim, parse_claim
from verify.claims.quantifiers import parse_probability, parse_quantifier, parse_seeds
from verify.cli import main

MARKER = "claim-pwned.marker"
FAMILY = ["--family", "orthonormal"]

# (argv after `verify claim`, a fragment of the one-line error naming the token)
BAD_INPUTS = {
    "unknown-quantity": (["hh(0) >= 0", *FAMILY], "unknown function 'hh'"),
    "unknown-name": (["h(0) >= foo", *FAMILY], "unknown name 'foo'"),
    "malformed-relation": (["h(0) >=", *FAMILY], "cannot parse 'h(0) >='"),
    "no-relation": (["h(0)", *FAMILY], "expected a relation"),
    "chained-relation": (["0 <= h(0) <= 1", *FAMILY], "chained comparisons"),
    "not-equal": (["h(0) != 0", *FAMILY], "NotEq"),
    "unbounded-range": (["h(m) >= 0", *FAMILY, "--for", "m in [0, oo]"], "unbounded"),
    "empty-real-range": (["h(m) >= 0", *FAMILY, "--for", "m in [1, 0]"], "range is empty"),
    "empty-integer-range": (["h(0) >= 0", *FAMILY, "--for", "k in 5..2"], "range is empty"),
    "m-outside-domain": (["h(m) >= 0", *FAMILY, "--for", "m in [0, 2]"], "leaves the domain [-1, 1] of h"),
    "rho-outside-domain": (["K(rho) >= 0", "--for", "rho in [-2, 0]"], "leaves the domain [-1, 1] of K"),
    "grad-var-at-the-pole": (["grad_var(m) >= 0", *FAMILY, "--for", "m in [-1, 1]"],
                             "domain (-1, 1) of grad_var"),
    "integer-as-real": (["h(0) >= 0", *FAMILY, "--for", "k in [1, 2]"], "k is an integer"),
    "k-zero": (["h(0) >= 0", *FAMILY, "--for", "k in 0..3"], "k must be a positive integer, got 0"),
    "k-too-large": (["h(0) >= 0", *FAMILY, "--for", "k in 1..100000"], "exceeds the limit 4096"),
    "xi-negative": (["h(0) >= 0", *FAMILY, "--for", "xi in [-1, 1]"], "xi must lie in (0, 1e+06]"),
    "not-square-integrable": (["h(0) >= 0", *FAMILY, "--activation", "expr:exp(x**2)"],
                              "not square-integrable"),
    "unknown-activation": (["h(0) >= 0", *FAMILY, "--activation", "foo"], "unknown activation 'foo'"),
    "unknown-family": (["h(0) >= 0", "--family", "foo"], "unknown family 'foo'"),
    "import": ([f"__import__('os').system('touch {MARKER}') >= 0"], "attribute access"),
    "attribute": (["h.__class__ >= 0", *FAMILY], "attribute access"),
    "lambda": ([f"(lambda: __import__('os').system('touch {MARKER}'))() >= 0"], "calling an expression"),
    "dunder-name": (["__builtins__ >= 0"], "'__builtins__'"),
    "string": (["h('0') >= 0", *FAMILY], "string '0'"),
    "keyword": (["h(m=0) >= 0", *FAMILY], "keyword arguments"),
    "subscript": (["h(0)[0] >= 0", *FAMILY], "subscripts"),
    "malformed-quantifier": (["h(m) >= 0", *FAMILY, "--for", "m from 0 to 1"], "cannot read it"),
    "quantified-twice": (["h(m) >= 0", *FAMILY, "--for", "m in [0, 1]", "--for", "m in [0, 0.5]"],
                         "m is quantified twice"),
    "unused-variable": (["h(m) >= 0", *FAMILY, "--for", "z in [0, 1]", "--for", "m in [0, 1]"],
                        "z does not occur"),
    "quantity-as-variable": (["C_sigma >= 0", "--for", "C_sigma in [0, 1]"], "'C_sigma' is a quantity"),
    "wrong-arity": (["h(0, 1) >= 0", *FAMILY], "h takes 1 argument(s), got 2"),
    "fractional-degree": (["mu(0.5) >= 0"], "mu(...) takes integer arguments"),
    "real-variable-as-degree": (["mu(m) >= 0", "--for", "m in [0, 1]"], "got m in mu(m)"),
    "negative-degree": (["mu(-1) >= 0"], "non-negative integers"),
    "infinity-outside-sum": (["h(0) <= oo", *FAMILY], "'oo' may only stand"),
    "quantity-in-infinite-sum": (["Sum(K(1/(s + 1)), s, 0, oo) >= 0"], "may hold only mu(s)"),
    "free-index": (["lam(i) >= 0", *FAMILY], "index 'i' of lam, c, chat or G is free"),
    "index-outside-its-sum": (["Sum(lam(i), i, 1, k) + c(i) >= 0", *FAMILY], "'i' is used outside its Sum"),
    "index-out-of-range": (["G(1, 5) >= 0", *FAMILY], "G index 5 is outside 1..k = 1..4"),
    "sum-beyond-k": (["Sum(lam(i), i, 1, k + 1) >= 0", *FAMILY], "lam index 5 is outside 1..k"),
    "index-zero": (["chat(0) >= 0", *FAMILY], "indices of chat are integers in 1..k, got 0"),
    "index-not-integer": (["lam(1/2) >= 0", *FAMILY], "indices of lam are integers in 1..k"),
    "double-sum-too-long": (["Sum(Sum(G(i, j), j, 1, k), i, 1, k) >= 0", *FAMILY, "--for", "k = 200"],
                            "more than the limit of 10000"),
    "eg-without-g": (["Eg(sigma(1)) >= 0"], "does not depend on g"),
    "g-outside-eg": (["g*Eg(sigma(g)) >= 0"], "g is the Gaussian variable"),
    "sigma-outside-eg": (["sigma(1) >= 0"], "sigma(...) may only stand inside Eg"),
    "quantity-inside-eg": (["Eg(g*mu(1)) >= 0"], "mu(...) inside Eg"),
    # a universal claim takes Eg of a real variable as a function of it (tests/test_claims_parametric.py)
    "eg-of-a-real-variable-in-a-probability": (["Eg(m*g**2) + c(1) >= 0", *FAMILY, "--for", "m in [0, 1]",
                                                "--prob", ">= 0.5 over c"], "in a probability claim Eg"),
    "g-declared-with-eg": (["Eg(sigma(g)) >= 0", "--for", "g in [0, 1]"], "'g' is the Gaussian variable"),
    "eg-of-a-jump": (["Eg(dsigma(g)) >= 0", "--activation", "expr:sign(x)"], "Dirac delta"),
    "acos-outside-its-domain": (["acos(x) >= 0", "--for", "x in [0, 2]"], "not a finite real number"),
    # a sum with a closed form (Sum(s, s, 0, 10**6)) is evaluated by it; one without is refused
    "sum-too-long": (["Sum(sin(s), s, 0, 10**6) >= 0"], "more than the limit of 1000"),
    "order-not-a-side": (["h(0) + O(k) >= 0", *FAMILY], "must be one whole side"),
    "order-relation": (["h(0) >= Theta(k)", *FAMILY, "--for", "k in 1..10"], "Theta(...) goes with =="),
    "growth-ambiguous": (["h(0) == O(k)", *FAMILY, "--for", "k in 1..10", "--for", "xi in [1, 2]"],
                         "say which variable grows"),
    "growth-not-quantified": (["h(0) == O(k)", *FAMILY, "--for", "k in 1..10", "--growth", "xi"],
                              "--growth xi"),
    "missing-family": (["h(0) >= 0"], "h needs an instance"),
    "prob-malformed": (["h(0) >= 0", *FAMILY, "--prob", "0.9"], "expected 'OP BOUND over PARTS'"),
    "prob-unknown-part": (["h(0) >= 0", *FAMILY, "--prob", ">= 0.9 over z"], "cannot randomise over 'z'"),
    "prob-not-a-probability": (["h(0) >= 0", *FAMILY, "--prob", ">= 1.5 over c"], "not a probability"),
    "prob-part-not-random": (["h(0) >= 0", "--family", "glm", "--prob", ">= 0.5 over c"],
                             "does not draw c at random"),
    "bad-seeds": (["h(0) >= 0", *FAMILY, "--seeds", "x"], "--seeds"),
    "zero-draws": (["h(0) >= 0", *FAMILY, "--draws", "0"], "--draws"),
    "family-constraint": (["h(0) >= 0", *FAMILY, "--for", "d = 2"], "needs d >= k + 1"),
    "non-ascii": (["h(0) ≥ 0", *FAMILY], "printable ASCII only"),
    "undefined-on-the-range": (["sqrt(m - 1/2) >= 0", "--for", "m in [0, 1]"], "not a finite real number"),
    "undefined-in-an-event": (["sqrt(m) >= 0", *FAMILY, "--for", "m in [-1, 1]", "--for", "k = 1",
                               "--prob", ">= 0.5 over c"], "not a finite real number"),
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_is_one_line_naming_the_token_exit_2(name, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv, fragment = BAD_INPUTS[name]
    code = run_cli(["claim", *argv])
    out, err = capsys.readouterr()
    assert code == 2, err
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert fragment in lines[0]
    assert "Traceback" not in err
    assert not (tmp_path / MARKER).exists()


def run_cli(argv: list[str]) -> int:
    """``verify ARGV`` in-process: its exit status, whether returned or raised by argparse."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


ATTACKS = [
    f"__import__('os').system('touch {MARKER}') >= 0",
    f"eval(\"open('{MARKER}', 'w')\") >= 0",
    f"(lambda: open('{MARKER}', 'w'))() >= 0",
    f"h(0).__class__.__init__.__globals__['os'].system('touch {MARKER}') >= 0",
    f"getattr(__import__('os'), 'system')('touch {MARKER}') >= 0",
    f"[open('{MARKER}', 'w') for _ in (1,)] >= 0",
]


@pytest.mark.parametrize("text", ATTACKS)
def test_no_claim_text_executes_code_through_the_api(text, tmp_path, monkeypatch):
    from verify.claims import claim

    monkeypatch.chdir(tmp_path)
    with pytest.raises(VerifyInputError) as info:
        claim(text, family="orthonormal")
    assert "\n" not in str(info.value)
    assert not (tmp_path / MARKER).exists()


@pytest.mark.parametrize("where", ["for", "prob", "seeds"])
def test_no_option_text_executes_code(where, tmp_path, monkeypatch):
    from verify.claims import claim

    monkeypatch.chdir(tmp_path)
    attack = f"__import__('os').system('touch {MARKER}')"
    options = {"for": {"for_": [f"m in [0, {attack}]"]}, "prob": {"prob": f">= {attack} over c"},
               "seeds": {"seeds": attack}}[where]
    with pytest.raises(VerifyInputError):
        claim("h(m) >= 0", family="orthonormal", **options)
    assert not (tmp_path / MARKER).exists()


def test_no_input_executes_code_in_a_real_subprocess(tmp_path):
    # 60 s is a hang guard (a refusal takes about a second), not a timing assertion.
    for text in ATTACKS[:2]:
        result = subprocess.run([sys.executable, "-m", "verify", "claim", text, "--family", "orthonormal"],
                                capture_output=True, text=True, timeout=60, cwd=tmp_path)
        assert result.returncode == 2, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / MARKER).exists()


# --- the grammar ------------------------------------------------------------------------------
def test_a_claim_parses_to_sympy_with_quantities_as_functions():
    m = sympy.Symbol("m", real=True)
    claim = parse_claim("sign(m)*(h(m) - h(0)) >= 0", {"m": m})
    assert isinstance(claim, ParsedClaim)
    assert claim.op == ">=" and claim.order is None
    assert claim.quantities() == {"h"}
    h = sympy.Function("h")
    assert sympy.simplify(claim.lhs - sympy.sign(m) * (h(m) - h(0))) == 0


def test_an_order_on_the_left_is_moved_to_the_right():
    claim = parse_claim("Omega(k) <= h(0)", {})
    assert claim.order == "Omega" and claim.op == ">="
    assert str(claim.rhs) == "Omega(k)"


def test_sum_indices_are_integer_symbols_and_infinite_sums_need_closed_forms():
    claim = parse_claim("Sum(binomial(l + s, l)*(k/(k + 1))**(s + 1), s, 0, oo) == Theta(k**l)",
                        {"l": sympy.Symbol("l", integer=True)})
    (index,) = claim.indices
    assert index.name == "s" and index.is_integer
    assert claim.order == "Theta"


def test_quantifiers_read_ranges_values_and_bindings():
    real = parse_quantifier("m in [0, 1/2]")
    assert (real.kind, real.low, real.high) == ("real", 0, sympy.Rational(1, 2)) and real.continuous
    integer = parse_quantifier("k in 1..3")
    assert integer.kind == "integer" and [int(v) for v in integer.points()] == [1, 2, 3]
    values = parse_quantifier("k in {4, 16, 64}")
    assert values.kind == "values" and values.integer
    binding = parse_quantifier("xi = sqrt(k)/2")
    assert binding.kind == "binding"
    point = parse_quantifier("m in [0.25, 0.25]")
    assert not point.continuous and point.points() == [sympy.Rational(1, 4)]


def test_decimals_are_read_exactly():
    assert parse_quantifier("m in [0.1, 0.2]").low == sympy.Rational(1, 10)


def test_long_integer_ranges_are_spread_not_enumerated():
    q = parse_quantifier("k in 1..1000")
    points = [int(v) for v in q.points()]
    assert points[0] == 1 and points[-1] == 1000 and len(points) <= 70 and not q.exhaustive()


def test_probability_and_seeds():
    k = sympy.Symbol("k", integer=True, positive=True)
    prob = parse_probability(">= 1 - exp(-k) over c, c_hat", {"k": k})
    assert prob.op == ">=" and prob.over == ("c", "c_hat")
    assert parse_seeds("0..3") == (0, 1, 2, 3) and parse_seeds("{5, 2}") == (5, 2) and parse_seeds(7) == (7,)
