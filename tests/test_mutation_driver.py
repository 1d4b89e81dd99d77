"""The parts of scripts/mutation_verdicts.py that read the project's own files: the ``# kills:``
comments of the corpus files and the equivalence ledger (issue #48).  A comment the parser
misreads would replay a kill against the wrong mutant and count it, so its grammar is pinned here."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def driver():
    spec = importlib.util.spec_from_file_location("mutation_verdicts",
                                                  ROOT / "scripts" / "mutation_verdicts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("mutation_verdicts", None)


def test_kills_comment_grammar(driver, tmp_path):
    corpus = tmp_path / "c.toml"
    corpus.write_text(
        "# kills: x__classify__mutmut_10/12, _3 (crash)\n"
        "[[statement]]\nid = \"a-1\"\n\n"
        "# kills: verify.claims.signs.x_one_variable__mutmut_48/49, "
        "verify.certified.growth.x__short__mutmut_2 (false holds)\n"
        "[[statement]]\nid = \"b-2\"\n\n"
        "[[statement]]\nid = \"c-3\"\n", encoding="utf-8")
    pairs = driver.killer_pairs(corpus)
    assert pairs == {
        "verify.claims.existence.x__classify__mutmut_10": ["a-1"],
        "verify.claims.existence.x__classify__mutmut_12": ["a-1"],
        "verify.claims.existence.x__classify__mutmut_3": ["a-1"],
        "verify.claims.signs.x_one_variable__mutmut_48": ["b-2"],
        "verify.claims.signs.x_one_variable__mutmut_49": ["b-2"],
        "verify.certified.growth.x__short__mutmut_2": ["b-2"],
    }  # c-3 has no comment, so it kills nothing


def test_names_split_into_function_and_file(driver):
    name = "verify.claims.existence.x__classify__mutmut_10"
    assert driver._function_of(name) == "verify.claims.existence.x__classify"
    assert driver._module_path(name.rpartition(".")[0]) == "verify/claims/existence.py"


def test_every_kills_comment_names_a_mutated_module(driver):
    mutated = {path.removesuffix(".py").replace("/", ".") for path in driver.mutated_modules()}
    files = sorted((ROOT / "tests" / "calibration" / "corpus").glob("mutation_killers*.toml"))
    assert files
    for path in files:
        for name in driver.killer_pairs(path):
            assert name.rpartition(".")[0] in mutated, f"{path.name}: {name}"


def test_equivalence_ledger_entries_are_complete(driver):
    ledger = driver.equivalence_ledger()  # raises SystemExit on an entry without basis or reason
    assert ledger
    for (function, before, after), entry in ledger.items():
        assert function.startswith("verify.") and before != after
        assert entry["basis"] in ("argument", "trial") and len(entry["reason"]) > 20
