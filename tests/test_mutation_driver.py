"""The parts of scripts/mutation_verdicts.py that read the project's own files: the ``# kills:``
comments of the corpus files and the equivalence ledger (issue #48).  A comment the parser
misreads would replay a kill against the wrong mutant and count it, so its grammar is pinned here."""

from __future__ import annotations

import importlib.util
import os
import sys
import types
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


_MUTATED_FILE = '''\
def x_f__mutmut_orig(a):
    return a + 1
def x_f__mutmut_1(a):
    return a - 1
def x_g__mutmut_orig(a):
    return {G}
def x_g__mutmut_1(a):
    return None
mutants_x_f__mutmut['x_f__mutmut_1'] = x_f__mutmut_1
mutants_x_g__mutmut['x_g__mutmut_1'] = x_g__mutmut_1
'''


@pytest.fixture()
def snapshot(driver, tmp_path, monkeypatch):
    """A mutants/ tree with one mutated module, pkg/m.py, whose function g can be edited."""
    monkeypatch.setattr(driver, "MUTANTS", tmp_path)
    (tmp_path / "pkg").mkdir()

    def write(g_body: str) -> None:
        (tmp_path / "pkg" / "m.py").write_text(_MUTATED_FILE.replace("{G}", g_body), encoding="utf-8")
        driver.forget_snapshot()  # a new generation, as generate() does

    write("a * 2")
    return write


def test_an_edit_to_one_function_keeps_the_results_of_the_others(driver, snapshot):
    f, g = "pkg.m.x_f__mutmut_1", "pkg.m.x_g__mutmut_1"
    results = {f: {"status": "killed", **driver.stamps(f)}, g: {"status": "survived", **driver.stamps(g)}}
    old_file_only = {f: {"status": "killed", "module_stamp": driver.module_stamp(f)}}
    assert driver.current(results).keys() == {f, g}
    snapshot("a * 3")  # g's original changes; f is the same code
    assert driver.current(results).keys() == {f}
    # a result with only a file stamp (before function stamps) lapses with any edit of its file
    assert driver.current(old_file_only) == {}


def test_restamp_carries_a_file_stamped_result_over_to_its_function(driver, snapshot):
    f = "pkg.m.x_f__mutmut_1"
    data = {"mutants": {f: {"status": "killed", "module_stamp": driver.module_stamp(f)}}}
    driver.restamp(data)
    assert data["mutants"][f]["function_stamp"] == driver.function_stamp(f)
    snapshot("a * 3")
    assert driver.current(data["mutants"]).keys() == {f}


def test_stale_statements_are_those_that_call_a_changed_function(driver):
    before = {"m.x_f": "1", "m.x_g": "2", "m.x_gone": "3"}
    now = {"m.x_f": "1", "m.x_g": "9", "m.x_new": "4"}
    coverage = {"a": {"hits": ["m.x_f"]}, "b": {"hits": ["m.x_g"]}, "c": {"hits": ["m.x_gone", "m.x_f"]},
                "d": {}}
    changed, stale = driver.stale_statements(before, now, coverage)
    assert changed == {"m.x_g", "m.x_gone", "m.x_new"} and stale == {"b", "c"}


def test_generation_forgets_the_snapshot_read_before_it(driver, snapshot, monkeypatch):
    """restamp reads mutants/ just before generate() rewrites it; a stamp remembered from the old
    files made the first run after an edit fail with KeyError on the new functions' mutants."""
    # mutmut is the mutation tox environment's tool, not a test dependency: stand in for the
    # generator's steps so that only the driver's own bookkeeping is under test
    mutmut_main = types.ModuleType("mutmut.__main__")
    for step in ("copy_src_dir", "copy_also_copy_files", "setup_source_paths", "create_mutants"):
        setattr(mutmut_main, step, lambda *args: None)
    trampoline = types.ModuleType("mutmut.mutation.trampoline")
    trampoline.set_mutant_under_test = lambda name: os.environ.__setitem__("MUTANT_UNDER_TEST", name)
    for name, module in (("mutmut", types.ModuleType("mutmut")), ("mutmut.__main__", mutmut_main),
                         ("mutmut.mutation", types.ModuleType("mutmut.mutation")),
                         ("mutmut.mutation.trampoline", trampoline)):
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.chdir(Path.cwd())  # generate() changes to the checkout
    f = "pkg.m.x_f__mutmut_1"
    before = driver.function_stamp(f)
    snapshot_text = (driver.MUTANTS / "pkg" / "m.py").read_text(encoding="utf-8")
    (driver.MUTANTS / "pkg" / "m.py").write_text(snapshot_text.replace("a + 1", "a + 2"), encoding="utf-8")
    driver.generate()
    assert driver.function_stamp(f) != before
