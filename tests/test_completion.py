"""``verify completion bash|zsh`` (issue #53): the script is generated from the parser itself, and
bash completes subcommands, nested subcommands, options and the values of options with a fixed set."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


@pytest.fixture(scope="module")
def script(tmp_path_factory) -> str:
    done = subprocess.run([sys.executable, "-m", "verify", "completion", "bash"], capture_output=True, text=True,
                          check=True)
    path = tmp_path_factory.mktemp("completion") / "verify.bash"
    path.write_text(done.stdout, encoding="utf-8")
    return str(path)


def _complete(script: str, *words: str) -> list[str]:
    line = " ".join(f"'{w}'" for w in words)
    program = (f'source "{script}"; COMP_WORDS=({line}); COMP_CWORD=$((${{#COMP_WORDS[@]}}-1)); '
               '_verify_complete; printf "%s\\n" "${COMPREPLY[@]}"')
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, check=True)
    return [w for w in done.stdout.splitlines() if w]


@pytest.mark.parametrize(("words", "expected"), [
    (("verify", "cl"), ["claim"]),
    (("verify", "claim", "--fam"), ["--family"]),
    (("verify", "claim", "--family", ""), ["orthonormal", "separated", "claim2", "glm"]),
    (("verify", "claim", "--activation", "gel"), ["gelu"]),
    (("verify", "ledger", "q"), ["quotes"]),
    (("verify", "ledger", "init", "--o"), ["--out"]),
    (("verify", "simulate", "--mode", "fr"), ["frozen"]),
    (("verify", "check", "--jo"), ["--jobs"]),
])
def test_bash_completes_commands_options_and_their_values(script, words, expected):
    assert _complete(script, *words) == expected


def test_every_subcommand_is_offered(script):
    from verify.cli import build_parser
    from verify.cli.completion_cmd import _subparsers

    assert set(_subparsers(build_parser())) <= set(_complete(script, "verify", ""))


def test_zsh_loads_the_same_script_through_bashcompinit():
    done = subprocess.run([sys.executable, "-m", "verify", "completion", "zsh"], capture_output=True, text=True,
                          check=True)
    first, _, rest = done.stdout.partition("\n")
    assert first == "autoload -U +X bashcompinit && bashcompinit"
    assert "complete -o default -F _verify_complete verify" in rest
