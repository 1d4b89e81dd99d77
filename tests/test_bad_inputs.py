"""Every bad input a user can type gets exit status 2 and one line naming the value, fast.

One parametrized table, run in-process through :func:`verify.cli.main` (a subprocess per case
would cost seconds each): each case must exit 2, write nothing to stdout, write exactly one
line to stderr containing the expected fragment, and return within :data:`HANG_SECONDS`
(enforced by SIGALRM, so a hang fails the test instead of stalling CI).  A size beyond the
stated limits (:data:`verify.base.validation.SIZE_LIMITS`) is refused before any work starts.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from verify.base.budget import TIME_LIMIT, WALL_FACTOR, WALL_SLACK
from verify.base.errors import VerifyInputError
from verify.calibration import load_corpus
from verify.claims import claim
from verify.cli import main
from verify.model.instance import orthonormal, save

#: A bad input is refused at once; 10 s is far above any refusal (imports included) and far
#: below the minutes a size beyond the limits would run.
#: within the guard's wall-clock safety cap (CPU-time limits stretch in wall time on a busy machine)
HANG_SECONDS = int(WALL_FACTOR * TIME_LIMIT + WALL_SLACK) + 5


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("bad-inputs")
    inst = root / "inst.json"
    save(orthonormal(4, 16, 1.0, "relu", 0), inst)
    (root / "list.json").write_text("[1, 2, 3]")
    (root / "null.json").write_text("null")
    data = json.loads(inst.read_text())
    data["activation"] = "expr:__import__('os').system('touch " + str(root / "pwned.marker") + "')"
    (root / "evil.json").write_text(json.dumps(data))
    (root / "a-directory").mkdir()
    (root / "a-file").write_text("x")
    data = json.loads(inst.read_text())
    data["activation"] = "expr:exp(400)*x"
    (root / "huge-scale.json").write_text(json.dumps(data))
    (root / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (root / "nan-report.json").write_text('{"checks": [{"id": "lemma-6", "verdict": "holds", '
                                          '"numbers": {"gap": NaN}}]}')
    data = json.loads(inst.read_text())
    (root / "digits.json").write_text(json.dumps(data).replace(str(data["seed"]), "9" * 5001))
    return root


CASES = [
    # (arguments, with {inst} {dir} {root} placeholders; fragment of the one error line)
    (["frobnicate"], "invalid choice"),
    (["hermite", "swish"], "unknown activation 'swish'"),
    # a value that makes a constant part of the claim complex (was a TypeError traceback)
    (["claim", "cbrt(a)*x**2 >= -2", "--for", "a = -2", "--for", "x in [0, 1]"],
     "a**(1/3) is not real at a = -2"),
    (["claim", "sqrt(a)*x**2 >= -2", "--for", "a in {{1, -2}}", "--for", "x in [0, 1]"],
     "sqrt(a) is not real at a = -2"),
    (["hermite", "relu", "--terms", "-3"], "--terms"),
    (["hermite", "relu", "--terms", "2.5"], "--terms"),
    (["hermite", "relu", "--terms", "3.0"], "--terms"),
    (["hermite", "relu", "--terms", "100000"], "terms = 100000 exceeds the limit"),
    (["hermite", "relu", "--terms", "9" * 80], "80-character"),
    # a decimal exponent is bounded before it becomes a Fraction (10^99999999999 never returns)
    (["h", "{inst}", "--m", "1e-99999999999"], "exponent within +-400"),
    (["loss", "{inst}", "--m", "1E-401"], "exponent within +-400"),
    (["hermite", "relu", "--dps", "14"], "--dps"),
    (["hermite", "relu", "--dps", "100000"], "dps = 100000 exceeds the limit"),
    (["hermite", "expr:x+*"], "cannot parse"),
    (["hermite", "expr:exp(x**2)"], "not square-integrable"),
    (["hermite", "expr:zoo*x"], "unknown name 'zoo'"),
    (["hermite", "expr:__import__('os').system('true')"], "expr:"),
    (["hermite", "expr:x.__class__"], "expr:"),
    (["kernel", "relu", "--rho", "1.5"], "--rho"),
    (["kernel", "relu", "--rho", "nan"], "--rho"),
    (["kernel", "relu", "--rho", "inf"], "--rho"),
    (["kernel", "relu", "--rho", "abc"], "--rho"),
    (["kernel", "expr:sign(x)", "--rho", "0.2", "--derivative"], "discontinuous"),
    (["grad", "{inst}", "--m", "1", "--samples", "100"], "--m"),
    (["grad", "{inst}", "--m", "0.5", "--samples", "1e12"], "--samples"),
    (["grad", "{inst}", "--m", "0.5", "--samples", "100000000000"], "samples = 100000000000 exceeds"),
    (["grad", "{root}/missing.json", "--m", "0.5", "--samples", "100"], "missing.json"),
    (["grad", "{root}/list.json", "--m", "0.5", "--samples", "100"], "list.json"),
    (["grad", "{root}/null.json", "--m", "0.5", "--samples", "100"], "null.json"),
    (["grad", "{root}/evil.json", "--m", "0.5", "--samples", "100"], "expr:"),
    (["h", "{inst}", "--m", "2"], "--m"),
    (["loss", "{inst}", "--m", "nan"], "--m"),
    (["h", "{inst}", "--m", "0.5", "--dps", "100000"], "dps = 100000 exceeds the limit"),
    (["series", "{inst}", "--terms", "100000"], "terms = 100000 exceeds the limit"),
    (["instance", "orthonormal", "--k", "50000", "--d", "100000", "--activation", "relu",
      "-o", "{root}/x.json"], "k = 50000 exceeds the limit"),
    (["instance", "orthonormal", "--k", "4000", "--d", "100000", "--activation", "relu",
      "-o", "{root}/x.json"], "k_times_d"),
    (["instance", "orthonormal", "--k", "8", "--d", "100", "--xi", "1e300", "--activation", "relu", "-o",
      "{root}/x.json"], "--xi"),
    (["instance", "orthonormal", "--k", "8", "--d", "100", "--xi", "-1", "--activation", "relu", "-o",
      "{root}/x.json"], "--xi"),
    (["instance", "orthonormal", "--k", "0", "--d", "100", "--activation", "relu", "-o", "{root}/x.json"],
     "--k"),
    (["instance", "orthonormal", "--k", "8", "--d", "4", "--activation", "relu", "-o", "{root}/x.json"],
     "d"),
    (["instance", "claim2", "--k", "8", "--d", "36", "--activation", "he3", "-o", "{root}/x.json"],
     "d >= 37"),
    (["instance", "orthonormal", "--k", "4", "--d", "16", "--activation", "relu", "-o", "{root}/no/x.json"],
     "does not exist"),
    (["instance", "orthonormal", "--k", "4", "--d", "16", "--activation", "relu", "--alpha", "2", "-o",
      "{root}/x.json"], "--alpha"),
    (["simulate", "{inst}", "--steps", "10", "--lr", "0", "-o", "{root}/t.csv"], "--lr"),
    (["simulate", "{inst}", "--steps", "10", "--lr", "nan", "-o", "{root}/t.csv"], "--lr"),
    (["simulate", "{inst}", "--steps", "10", "--lr", "0.1", "-o", "{root}/t.txt"], ".csv or .npz"),
    (["simulate", "{inst}", "--steps", "10", "--lr", "0.1", "-o", "{root}/no/t.csv"], "does not exist"),
    (["simulate", "{inst}", "--steps", "10", "--lr", "0.1", "--replicas", "1000000000", "-o", "{root}/t.csv"],
     "replicas = 1000000000 exceeds the limit"),
    (["simulate", "{inst}", "--steps", "10", "--lr", "0.1", "--init", "instance", "--m0", "0.5", "-o",
      "{root}/t.csv"], "conflicts with init='instance'"),
    (["simulate", "{inst}", "--steps", "10", "--lr", "0.1", "--m0", "2", "-o", "{root}/t.csv"], "--m0"),
    (["check", "--only", "lemma-999"], "unknown check id 'lemma-999'"),
    (["check", "--only", "d1-parity", "--json", "{root}/no/r.json"], "does not exist"),
    (["check", "--only", "d1-parity", "--markdown", "{root}/no/r.md"], "does not exist"),
    (["check", "--only", "d1-parity", "--json", "{root}/a-directory"], "is a directory"),
    (["check", "--seed", "-1"], "--seed"),
    (["derive", "--out", "{root}/a-file"], "not writable"),
    (["figures", "--timeout", "nan", "--out", "{root}/figs"], "--timeout"),
    (["figures", "--scheduler", "bogus", "--out", "{root}/figs"], "--scheduler"),
    (["figures", "--scheduler", "tcp://host:99999", "--out", "{root}/figs"], "--scheduler"),
    (["figures", "--only", "fig99", "--out", "{root}/figs"], "unknown figure 'fig99'"),
    (["figures", "--out", "{root}/a-file/sub"], "not writable"),
    (["bench", "--only", "nosuch"], "invalid choice"),
    (["bench", "--only", "hermite", "--json", "{root}/no/b.json"], "does not exist"),
    # issue #26: budgets for symbolic work, ranges never built, no NaN, no self-overwrite
    (["hermite", "expr:((x+1)**100+1)**100"], "degree 10000 after expansion"),
    (["hermite", "expr:exp(exp(exp(exp(exp(x)))))"], "nests exp/log 4 deep"),
    (["hermite", "expr:exp(-x**2)*exp(exp(exp(exp(10))))"], "beyond 1e300 in magnitude"),
    (["hermite", "expr:hermite_prob(100, hermite_prob(100, x))"], "SymPy nodes"),
    (["hermite", "expr:x*log(-1)"], "is not real"),
    # the CPU-time limit, or under heavy load the wall-clock safety cap (both say "did not finish within")
    (["hermite", "expr:sin(exp(exp(x)))", "--time-limit", "2"], "did not finish within the"),
    (["hermite", "expr:x", "--time-limit", "nan"], "--time-limit"),
    (["hermite", "expr:x", "--memory-limit", "1"], "--memory-limit"),
    (["hermite", "expr:exp(400)*x"], "E[sigma(g)^2]"),
    (["claim", "binomial(10**30, 10**15) >= 0"], "binomial"),
    (["claim", "Sum(Sum(Sum(i*j*l, l, 0, 10**3), j, 0, 10**3), i, 0, 1000) >= 0"], "nested Sums"),
    (["claim", "log(log(log(log(pi)))) >= 0"], "nests exp/log"),
    (["claim", "h(0) >= 0", "--family", "orthonormal", "--seeds", "0..999999999"], "spans 1000000000 seeds"),
    (["claim", "m >= -2", "--for", "m in [0, 1]", "--for", "xi = sqrt(-1)"], "is not real"),
    (["claim", "m >= 0", "--for", "m in {{" + ",".join(["1"] * 1500) + "}}"], "more than the limit of 1000"),
    (["h", "{root}/huge-scale.json", "--m", "0.5"], "expr:x*exp(400)"),
    (["loss", "{root}/huge-scale.json", "--m", "0.5"], "E[sigma(g)^2]"),
    (["grad", "{root}/huge-scale.json", "--m", "0.5", "--samples", "100"], "E[sigma(g)^2]"),
    (["h", "{root}/deep.json", "--m", "0.5"], "nested deeper than the limit"),
    (["h", "{root}/digits.json", "--m", "0.5"], "5001 digits"),
    (["check", "--only", "d1-parity", "--json", "{root}/same.out", "--markdown", "{root}/same.out"],
     "are the same file"),
    (["simulate", "{root}/t.csv", "--steps", "3", "--lr", "0.1", "-o", "{root}/t.csv"], "t.csv"),
    # SymPy merges the two into one Sum with (i, 1, 3) twice, then raised ValueError (issue #38)
    (["claim", "Sum(Sum(i, i, 1, 3), i, 1, 3) == 18"], "reused by a Sum inside it"),
    (["show", "lemma-6", "--from", "{root}/nan-report.json"], "NaN"),
    # refused before a k = 4096 instance is drawn (that took minutes)
    (["claim", "Sum(i, i, 1, k) >= 0", "--family", "orthonormal", "--for", "k = 4096"], "4096 terms here"),
]


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang(f"no answer within {HANG_SECONDS} s")


@pytest.mark.extended
@pytest.mark.parametrize("argv, fragment", CASES, ids=[" ".join(a)[:60] for a, _ in CASES])
def test_bad_input_is_one_line_exit_2_and_fast(argv, fragment, files, capsys, monkeypatch):
    monkeypatch.chdir(files)
    args = [a.format(inst=files / "inst.json", root=files) for a in argv]
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(HANG_SECONDS)
    try:
        try:
            status = main(args)
        except SystemExit as exc:  # argparse's own errors
            status = exc.code
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    out, err = capsys.readouterr()
    assert status == 2, err
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert fragment in lines[0], lines[0]
    assert "Traceback" not in err
    assert not (files / "pwned.marker").exists()


def test_there_are_at_least_forty_cases():
    assert len(CASES) >= 40


def test_force_lifts_a_size_limit_but_not_a_domain(files, capsys):
    """--force runs a size beyond the limit (here a cheap one: k·d just over it is not cheap, so
    the check is on the limit message disappearing for ``terms`` at the lowest precision)."""
    from verify.base.validation import SIZE_LIMITS

    terms = SIZE_LIMITS["terms"][0] + 1
    with pytest.raises(SystemExit) as exc:
        main(["hermite", "relu", "--terms", "-1", "--force"])
    assert exc.value.code == 2  # a domain error stays an error under --force
    capsys.readouterr()
    from verify.base.validation import SizeLimitError, allow_large_sizes
    from verify.model.hermite import validate_terms

    with pytest.raises(SizeLimitError):
        validate_terms(terms)
    with allow_large_sizes():
        assert validate_terms(terms) == terms


def test_output_into_a_closed_pipe_is_quiet():
    """``verify hermite relu | head -1``: the reader goes away; no traceback, SIGPIPE status."""
    proc = subprocess.run(f"{sys.executable} -m verify hermite relu --terms 60 | head -c 1",
                          shell=True, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in proc.stderr
    assert "BrokenPipe" not in proc.stderr


INVALID_CLAIMS = load_corpus(Path(__file__).parent / "calibration" / "invalid")


@pytest.mark.parametrize("statement", INVALID_CLAIMS, ids=[s.id for s in INVALID_CLAIMS])
def test_every_claim_of_the_invalid_corpus_is_refused_as_bad_input(statement):
    """tests/calibration/invalid: claims whose input breaks an assumption (a bound outside [0, 1],
    a side not finite on the event grid).  The API raises the input error (the command line's exit
    2); the mutation driver kills a mutant that turns the refusal into a verdict."""
    with pytest.raises(VerifyInputError):
        claim(statement.claim, **statement.keywords())
