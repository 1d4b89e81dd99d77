"""The whitelist expression parser: untrusted text never executes, and good text parses as before.

Attack strings are tried three ways: through the API, through ``verify hermite "expr:..."``
and through the ``"activation"`` field of an instance file.  Each attack would create a
marker file if any of it ran; the tests assert exit status 2, one stderr line, and no
marker.  A property test feeds arbitrary ASCII text with ``eval``/``exec`` disabled.
"""

from __future__ import annotations

import builtins
import json
import subprocess
import sys

import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from verify.base.errors import MalformedExpressionError
from verify.base.expressions import MAX_DEPTH, MAX_EXPONENT, MAX_LENGTH, Relation, parse_expression

X = sympy.Symbol("x", real=True)
MARKER = "pwned.marker"

# One entry per attack class; each would create MARKER in the working directory if evaluated.
ATTACKS = {
    "import": f"__import__('os').system('touch {MARKER}')",
    "import-plus-x": f"__import__('os').system('touch {MARKER}')*0 + x",
    "attribute": "x.__class__.__mro__[1].__subclasses__()",
    "attribute-call": f"exp(x).__class__.__init__.__globals__['os'].system('touch {MARKER}')",
    "lambda": f"(lambda: __import__('os').system('touch {MARKER}'))()",
    "eval": f"eval(\"__import__('os').system('touch {MARKER}')\")",
    "exec": f"exec(\"open('{MARKER}', 'w')\")",
    "open": f"len(open('{MARKER}', 'w').name)*0 + x",
    "dunder-name": "__builtins__",
    "dunder-call": f"__builtins__['open']('{MARKER}', 'w')",
    "getattr": f"getattr(__import__('os'), 'system')('touch {MARKER}')",
    "comprehension": f"[__import__('os').system('touch {MARKER}') for _ in (1,)]",
    "subscript": "x[0]",
    "fstring": f"f\"{{__import__('os').system('touch {MARKER}')}}\"",
    "walrus": f"(y := __import__('os').system('touch {MARKER}'))",
    "keyword": f"exp(x, evaluate=__import__('os').system('touch {MARKER}'))",
    "unicode-fold": f"ｅｖａｌ(\"__import__('os').system('touch {MARKER}')\")",
    "sympy-name": f"Symbol('x').func.__globals__['os'].system('touch {MARKER}')",
    "long": "x+" * (MAX_LENGTH // 2) + "x",
    "deep": "(" * (MAX_DEPTH + 10) + "x" + ")" * (MAX_DEPTH + 10),
    "huge-power": "x**10**10**10",
    "huge-factorial": "factorial(10**9)*x",
    "string": f"'{MARKER}'",
}


def parse(text: str):
    return parse_expression(text, variables={"x": X}, what="test")


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_attack_is_refused_by_the_parser(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(MalformedExpressionError) as info:
        parse(ATTACKS[name])
    assert "\n" not in str(info.value)
    assert not (tmp_path / MARKER).exists()


def _assert_refused(result: subprocess.CompletedProcess, cwd) -> None:
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert not (cwd / MARKER).exists()


def _run(args: list[str], cwd) -> subprocess.CompletedProcess:
    # 30 s is a hang guard (a refused input returns in about a second), not a timing assertion.
    return subprocess.run([sys.executable, "-m", "verify", *args], capture_output=True, text=True,
                          timeout=30, cwd=cwd)


@pytest.mark.extended
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_attack_on_the_command_line_exits_2(name, tmp_path):
    _assert_refused(_run(["hermite", "expr:" + ATTACKS[name], "--terms", "3"], tmp_path), tmp_path)


@pytest.mark.extended
@pytest.mark.parametrize("name", ["import", "eval", "open", "lambda", "attribute-call", "unicode-fold"])
def test_attack_in_an_instance_file_exits_2(name, tmp_path):
    made = _run(["instance", "orthonormal", "--k", "2", "--d", "6", "--activation", "relu",
                 "-o", str(tmp_path / "ok.json")], tmp_path)
    assert made.returncode == 0, made.stderr
    data = json.loads((tmp_path / "ok.json").read_text())
    data["activation"] = "expr:" + ATTACKS[name]
    (tmp_path / "evil.json").write_text(json.dumps(data))
    _assert_refused(_run(["series", str(tmp_path / "evil.json"), "--terms", "3"], tmp_path), tmp_path)


# --- what must still parse ------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("Max(x, 0)", sympy.Max(X, 0)),
    ("1/(1 + exp(-x))", 1 / (1 + sympy.exp(-X))),
    ("x*(1 + erf(x/sqrt(2)))/2", X * (1 + sympy.erf(X / sympy.sqrt(2))) / 2),
    ("hermite_prob(3, x)/sqrt(factorial(3))", (X**3 - 3 * X) / sympy.sqrt(6)),
    ("abs(x) - Min(x, 0)", sympy.Abs(X) - sympy.Min(X, 0)),
    ("Max(0, x, 2*x)", sympy.Max(0, X, 2 * X)),
    ("x**(1/3)", X ** sympy.Rational(1, 3)),
    ("-x + +x", sympy.Integer(0)),
    ("pi*x + E", sympy.pi * X + sympy.E),
    ("2.5e-3*x", sympy.Float("2.5e-3") * X),
])
def test_good_text_parses_to_the_expected_expression(text, expected):
    assert sympy.simplify(parse(text) - expected) == 0


def test_printed_form_parses_back():
    """Canonical names are ``expr:`` + str(expr); the printed form must parse to the same expression."""
    for text in ("x*erf(x)", "Max(x, 0) - Min(x, 0)/2", "exp(-x**2/2)*sign(x)", "Heaviside(x)*x**3",
                 "log(1 + exp(x))", "tanh(x)**2 + cbrt(x)", "atan(x) + asinh(x) + erfc(x)"):
        expr = parse(text)
        assert parse(str(expr)) == expr


def test_relation_only_when_asked():
    k = sympy.Symbol("k", positive=True)
    rel = parse_expression("k**2 >= 2*k - 1", variables={"k": k}, allow_relation=True)
    assert rel == Relation(k**2, ">=", 2 * k - 1)
    with pytest.raises(MalformedExpressionError, match="comparisons are not allowed"):
        parse("x >= 1")
    with pytest.raises(MalformedExpressionError, match="chained"):
        parse_expression("0 <= k <= 1", variables={"k": k}, allow_relation=True)
    with pytest.raises(MalformedExpressionError, match="expected a relation"):
        parse_expression("k", variables={"k": k}, allow_relation=True)


@pytest.mark.parametrize(("text", "fragment"), [
    ("x**(MAX+1)".replace("MAX", str(MAX_EXPONENT)), "exponent"),
    ("(x**60)*(x**60)", "exponent limit"),
    ("1/(x - x)", "division by zero"),
    ("log(0)*x", "not finite"),
    ("1e-400*x", "outside"),
    ("1e400*x", "outside"),
    ("1j*x", "not a real number"),
    ("y", "unknown name 'y'"),
    ("gamma(x)", "unknown function 'gamma'"),
    ("exp", "must be called"),
    ("Max(x)", "Max takes at least 2"),
    ("hermite_prob(x, x)", "must be an integer"),
    ("x // 2", "FloorDiv"),
    ("x\nx", "printable ASCII"),
    ("", "empty"),
])
def test_refusals_name_the_token(text, fragment):
    with pytest.raises(MalformedExpressionError, match=fragment):
        parse(text)


def test_no_eval_or_exec_while_parsing(monkeypatch):
    """Turning text into a SymPy tree uses neither eval/exec nor SymPy's string parser (which calls eval).

    (``lambdify`` later exec's code that SymPy's printer generates from the *built* tree, whose
    nodes are all whitelisted; no user text reaches it.)
    """
    from verify.model import activations, hermite

    def refuse(*args, **kwargs):
        raise AssertionError("eval/exec reached while parsing untrusted text")

    monkeypatch.setattr(builtins, "eval", refuse)
    monkeypatch.setattr(builtins, "exec", refuse)
    for text in ("x*erf(x) + 1", "Max(x, 0)**2", "exp(-x**2)*x", "hermite_prob(4, x)/sqrt(factorial(4))"):
        assert activations._parse(text, "expr:" + text).has(X)
    payload = {"activation": "relu", "dps": 20, "method": "exact", "values": ["1*2^-1"], "errors": ["0*2^0"],
               "exact": ["sqrt(2)*sqrt(pi)/(2*pi)"]}
    assert hermite._from_payload(payload, "relu", 20, 1).exact == (1 / sympy.sqrt(2 * sympy.pi),)


def test_cached_exact_value_cannot_execute(tmp_path, monkeypatch):
    """A poisoned cache entry is data: its exact values go through the whitelist, not sympify."""
    from verify.model import hermite

    monkeypatch.chdir(tmp_path)
    payload = {"activation": "relu", "dps": 20, "method": "exact", "values": ["1*2^-1"], "errors": ["0*2^0"],
               "exact": [ATTACKS["import"]]}
    with pytest.raises(MalformedExpressionError):
        hermite._from_payload(payload, "relu", 20, 1)
    assert not (tmp_path / MARKER).exists()


@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=80))
def test_arbitrary_text_parses_or_is_refused_in_one_line(text):
    """Any printable ASCII gives a SymPy expression or a one-line MalformedExpressionError, nothing else."""
    saved = builtins.eval, builtins.exec
    builtins.eval = builtins.exec = None  # type: ignore[assignment]
    try:
        try:
            result = parse(text)
        except MalformedExpressionError as exc:
            assert "\n" not in str(exc)
        else:
            assert isinstance(result, sympy.Expr)
            assert result.free_symbols <= {X}
    finally:
        builtins.eval, builtins.exec = saved


@given(st.lists(st.sampled_from(["x", "2", "0.5", "+", "-", "*", "/", "**", "(", ")", "exp(", "Max(x,",
                                 "erf(", "sqrt(", ","]), max_size=25))
def test_token_soup_parses_or_is_refused(tokens):
    """Near-valid inputs reach the walk (not just the syntax error) and never escape as another error."""
    try:
        result = parse("".join(tokens))
    except MalformedExpressionError:
        return
    assert isinstance(result, sympy.Expr)
