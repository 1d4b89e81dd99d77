"""Mutation testing of the decision modules by verdicts: a mutant is killed when it changes the
verdict of a statement of known truth.

mutmut's own runner tests a mutant with every pytest test that calls its function, which costs up
to 260 s a survivor for the existence step (every expectation reaches it), about five hours for the
5000 mutants of ``[tool.mutmut]``.  This driver asks a narrower and more useful question, the one
issue #48 asks: *can the mutant change a verdict?*  It uses mutmut only to write the mutants
(``mutants/``, each function a trampoline that picks the original or a mutant from
``MUTANT_UNDER_TEST`` at every call), then

1. **coverage**: decides every statement of the calibration corpora and the route corpus once, in
   mutmut's ``stats`` mode, and records which mutated functions it calls (guarded work inline, as
   tests/conftest.py does for mutmut, so that the forked workers' calls are seen);
2. **baseline**: decides each statement with no mutant active, exactly as the calibration does
   (forked guards, CPU budgets), and keeps its verdict and time;
3. **mutants**: for each mutant, in a fresh fork of a process that has only imported the package
   (so no cache carries a result from one mutant to the next), decides a selection of the
   statements that call its function, cheapest first, and stops at the first verdict that differs
   from the baseline.  A crash of the engine is a verdict ("error"), and so is a run past
   ``3 x`` the selection's baseline time + 20 s ("timeout", counted apart from the killed).

The selection of a function's statements is greedy: each pick maximises the number of new
(mutated function, truth, baseline verdict) combinations per second of baseline time, so the
statements reach the function along different paths and with each answer, up to 10 statements or
4 s of baseline time.  A survivor has therefore met at most 10 statements; ``--full NAME`` reruns
one against every statement that calls its function.  Mutants that change only the contents of
string literals (mutmut's "XX…XX" and case changes) run after all the others: they can change a
verdict only where a string is compared, and they are most of the survivors.

Results are kept in ``results/mutation/verdict-mutation.json.gz``, which is committed: a session
starts from a fresh checkout, where mutants/ is gone, and the run takes hours, so it is continued
from session to session.  The coverage and baseline of the statements are kept while mutants/verify
is unchanged (``--keep-baseline`` keeps them across an edit elsewhere in the package, except for
the statements that call a mutated function whose code changed); a mutant's result is kept while
its function's original code and its own are unchanged (its ``function_stamp``), so an edit to one
function reruns that function's mutants alone.  A run can be stopped and continued: it saves every 20
mutants, a statement added to a corpus is covered and run alone, and a survivor whose selection it
changes is run again.  ``--report`` prints the score per module and
every survivor, classed as *text* (only string contents change, on a line no decision reads) or
*logic* by scripts/mutation_report.classify.

Usage::

    python scripts/mutation_verdicts.py [--jobs 2] [--modules verify/claims/existence.py ...]
    python scripts/mutation_verdicts.py --report [--markdown FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import io
import json
import multiprocessing
import os
import re
import sys
import tempfile
import time
from collections import Counter
from multiprocessing.connection import wait
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))  # its sibling mutation_report classes the survivors
MUTANTS = ROOT / "mutants"
RESULTS = ROOT / "results" / "mutation" / "verdict-mutation.json.gz"
#: The statements the mutants meet: the calibration corpus, the decision routes, and the bad inputs
#: (baseline verdict "error": a mutant that turns a refusal into a verdict is killed).
CORPORA = tuple(ROOT / "tests" / "calibration" / name for name in ("corpus", "routes", "invalid"))
MAX_STATEMENTS = 10
MAX_BASELINE_SECONDS = 4.0
# a statement's coverage or baseline run past this is dropped from the selection: the mutants'
# runs must stay short, and a statement this slow is near its CPU budget, where a slower mutant
# would flip it to inconclusive without being wrong
STATEMENT_LIMIT = 60.0
_DICT_ENTRY = re.compile(r"\['(x[_ǁ]\w+?__mutmut_\d+)'\] = ")


# ---------------------------------------------------------------------------- generation


def generate() -> None:
    """Write mutants/ with mutmut's generator (only files whose source changed are rewritten)."""
    os.chdir(ROOT)
    from mutmut.__main__ import copy_also_copy_files, copy_src_dir, create_mutants, setup_source_paths
    from mutmut.mutation.trampoline import set_mutant_under_test

    set_mutant_under_test("mutant_generation")
    with contextlib.redirect_stdout(io.StringIO()):  # mutmut prints every file it copies
        copy_src_dir()
        copy_also_copy_files()
        setup_source_paths()
        create_mutants(2)
    os.environ.pop("MUTANT_UNDER_TEST", None)
    forget_snapshot()  # restamp read the old snapshot just before


def forget_snapshot() -> None:
    """Drop what was read of mutants/: the stamps and mutant names are read again from the files."""
    for memo in (_MODULE_STAMPS, _FUNCTION_TEXTS, _EXISTING):
        memo.clear()


def mutated_modules(in_snapshot: bool = True) -> list[str]:
    """The files of ``[tool.mutmut] only_mutate`` (paths relative to the checkout); with
    ``in_snapshot``, those the snapshot in mutants/ holds: a module added to the list since the
    snapshot was written (a run with --no-generate) has no mutants yet, and is reached at the next
    generation."""
    import tomllib

    with open(ROOT / "pyproject.toml", "rb") as handle:
        listed = list(tomllib.load(handle)["tool"]["mutmut"]["only_mutate"])
    if not in_snapshot or not (MUTANTS / "verify").is_dir():
        return listed
    return [path for path in listed if (MUTANTS / path).exists()]


def mutants_of(path: str) -> list[str]:
    """Every mutant of one module, as MUTANT_UNDER_TEST names it (``module.x_function__mutmut_n``)."""
    module = path.removesuffix(".py").replace("/", ".")
    text = (MUTANTS / path).read_text(encoding="utf-8")
    return [f"{module}.{name}" for name in dict.fromkeys(_DICT_ENTRY.findall(text))]


def text_only_mutants(path: str) -> set[str]:
    """The mutants of one module whose code differs from the original only inside string literals."""
    import ast

    from mutation_report import without_strings

    module = path.removesuffix(".py").replace("/", ".")
    source = (MUTANTS / path).read_text(encoding="utf-8")
    lines = source.splitlines(keepends=True)
    bodies = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and "__mutmut_" in node.name:
            # whole lines, so that a method's first line keeps its class indentation and the block
            # dedents whole (ast.get_source_segment splits the whole file on every call: minutes
            # for the thousands of mutants of one module)
            segment = "".join(lines[node.lineno - 1:node.end_lineno])
            bodies[node.name] = without_strings(segment.replace(node.name, "F", 1))
    out = set()
    for name, code in bodies.items():
        stem, _, number = name.rpartition("__mutmut_")
        if number.isdigit() and bodies.get(f"{stem}__mutmut_orig") == code:
            out.add(f"{module}.{name}")
    return out


def code_fingerprint() -> str:
    """Of the code the runs execute: mutants/verify (a snapshot, rewritten only by generation, so
    the checkout can be edited while a run goes on)."""
    digest = hashlib.sha256()
    for path in sorted((MUTANTS / "verify").rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _module_path(module: str) -> str:
    """The file of a dotted module, relative to the checkout (``verify.claims.existence`` ->
    ``verify/claims/existence.py``)."""
    return module.replace(".", "/") + ".py"


_MODULE_STAMPS: dict[str, str] = {}


def module_stamp(name: str) -> str:
    """Of the mutated file that holds the mutant ``name``: the stamp results carried before
    :func:`function_stamp`, read for a result until :func:`restamp` gives it a function stamp."""
    module = name.rpartition(".")[0]  # verify.claims.existence.x__classify__mutmut_10
    if module not in _MODULE_STAMPS:
        path = MUTANTS / _module_path(module)
        _MODULE_STAMPS[module] = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    return _MODULE_STAMPS[module]


_FUNCTION_TEXTS: dict[str, dict[str, str]] = {}


def _function_texts(module: str) -> dict[str, str]:
    """Every function of a mutated file in mutants/ (the original ``..__mutmut_orig`` and each
    mutant), by its mangled name, as source text."""
    if module not in _FUNCTION_TEXTS:
        import ast

        source = (MUTANTS / _module_path(module)).read_text(encoding="utf-8")
        lines = source.splitlines(keepends=True)
        _FUNCTION_TEXTS[module] = {
            node.name: "".join(lines[node.lineno - 1:node.end_lineno])
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and "__mutmut_" in node.name}
    return _FUNCTION_TEXTS[module]


def origin_stamp(function: str) -> str | None:
    """Of a mutated function's original code (``module.x_function``); None when mutants/ has no
    such function."""
    module, _, mangled = function.rpartition(".")
    text = _function_texts(module).get(f"{mangled}__mutmut_orig") if exists_module(module) else None
    return None if text is None else hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def function_stamp(name: str) -> str:
    """Of the mutant ``name``: its own code and its function's original.  A result is stale once
    either changes; regenerating a file after an edit to one of its functions keeps the results of
    the others (mutmut numbers the mutants of each function apart, so theirs are the same code).
    What it accepts: an edit elsewhere in the file, like one elsewhere in the package, may change
    how the statements reach the function; a kill recorded before is kept (``--killers`` replays
    the corpus's named kills against the current code)."""
    module, _, mangled = name.rpartition(".")
    texts = _function_texts(module)
    digest = hashlib.sha256(texts[mangled].encode("utf-8"))
    digest.update(texts[mangled.rpartition("__mutmut_")[0] + "__mutmut_orig"].encode("utf-8"))
    return digest.hexdigest()[:16]


def is_current(name: str, result: dict) -> bool:
    """Whether a stored result was computed on the code mutants/ now holds for ``name``."""
    if not exists(name):
        return False
    if "function_stamp" in result:
        return result["function_stamp"] == function_stamp(name)
    return result.get("module_stamp") == module_stamp(name)


def stamps(name: str) -> dict:
    """The stamps a result of ``name`` is stored with."""
    return {"function_stamp": function_stamp(name)}


def current(results: dict) -> dict:
    """The mutant results computed on the code mutants/ holds now, of mutants it still holds (a
    corpus file's ``# kills:`` may name a function since moved elsewhere)."""
    return {name: result for name, result in results.items() if is_current(name, result)}


def restamp(data: dict) -> None:
    """Give every current result that has only a file stamp its function stamp, and record each
    mutated function's original stamp (``origins``) if the coverage has none: after this, generating
    the mutants again keeps the results and the coverage of the functions that did not change."""
    for name, result in data.get("mutants", {}).items():
        if "function_stamp" not in result and is_current(name, result):
            result["function_stamp"] = function_stamp(name)
    if data.get("coverage") and "origins" not in data:
        data["origins"] = origins()


def origins() -> dict[str, str]:
    """Mutated function -> the stamp of its original code, over every file of ``only_mutate``."""
    out = {}
    for path in mutated_modules():
        module = path.removesuffix(".py").replace("/", ".")
        for mangled in _function_texts(module):
            stem, _, number = mangled.rpartition("__mutmut_")
            if number == "orig":
                out[f"{module}.{stem}"] = origin_stamp(f"{module}.{stem}")
    return out


_EXISTING: dict[str, set[str]] = {}


def exists_module(module: str) -> bool:
    return (MUTANTS / _module_path(module)).exists()


def exists(name: str) -> bool:
    """Whether mutants/ holds the mutant ``name`` (``module.x_function__mutmut_n``)."""
    module = name.rpartition(".")[0]
    if module not in _EXISTING:
        _EXISTING[module] = set(mutants_of(_module_path(module))) if exists_module(module) else set()
    return name in _EXISTING[module]


def statement_key(statement) -> str:
    text = json.dumps([statement.claim, statement.truth, statement.options], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# ---------------------------------------------------------------------------- the forked runs


def _import_engine():
    """Import the package from mutants/ (trampolines in the mutated modules), no mutant active."""
    sys.path.insert(0, str(MUTANTS))
    os.environ["MUTANT_UNDER_TEST"] = ""
    from verify import calibration

    assert calibration.__file__.startswith(str(MUTANTS)), calibration.__file__
    return calibration


def _statements(calibration) -> dict:
    statements = {}
    for directory in CORPORA:
        for statement in calibration.load_corpus(directory):
            statements[statement.id] = statement
    return statements


def _fresh_cache() -> None:
    # each child computes cold in its own cache directory: a mutant must never read a value that
    # another mutant wrote, nor write one a later run reads
    directory = tempfile.mkdtemp(prefix="verify-mutation-")
    os.environ["VERIFY_CACHE_DIR"] = directory
    os.environ["VERIFY_CACHE_KEY"] = os.path.join(tempfile.mkdtemp(prefix="verify-mutation-key-"), "key")


def verdict_of(result) -> str:
    """The verdict a mutant must keep: for an error, with the exception's type ("error:QuantifierError"),
    so that a refusal of bad input (tests/calibration/invalid) turned into a crash is a change."""
    if result.verdict != "error":
        return result.verdict
    return "error:" + result.evidence.partition(":")[0]


def _cover(connection, calibration, statement) -> None:
    """Child: the statement's verdict in stats mode and the mutated functions it calls."""
    from mutmut.mutation import trampoline

    from verify.base import budget
    from verify.claims import steps

    hits: set[str] = set()
    trampoline.record_trampoline_hit = lambda name, caller=None: hits.add(name)
    trampoline.set_mutant_under_test("stats")
    budget._IN_WORKER = True
    allowance = steps.Budget.limit
    steps.Budget.limit = lambda self, step: 20 * allowance(self, step)
    _fresh_cache()
    result = calibration.decide(statement)
    connection.send({"verdict": verdict_of(result), "hits": sorted(hits)})


def _baseline(connection, calibration, statement) -> None:
    """Child: the statement's verdict and time with no mutant active."""
    _fresh_cache()
    result = calibration.decide(statement)
    connection.send({"verdict": verdict_of(result), "seconds": round(result.seconds, 3)})


def _mutant(connection, calibration, name: str, selection: list, expected: dict) -> None:
    """Child: decide the selection under one mutant; stop at the first changed verdict."""
    from mutmut.mutation import trampoline

    trampoline.set_mutant_under_test(name)
    _fresh_cache()
    for statement in selection:
        result = calibration.decide(statement)
        if verdict_of(result) != expected[statement.id]:
            # "budget": a CPU-time limit passed on the way to the changed verdict, so the kill may be
            # the machine's load rather than the mutant (the report counts such kills apart)
            connection.send({"status": "killed", "by": statement.id, "got": verdict_of(result),
                             "evidence": result.evidence[:200], "tested": selection.index(statement) + 1,
                             "budget": result.budget_spent})
            return
    connection.send({"status": "survived", "tested": len(selection)})


#: A child past its CPU allowance is also stopped once its wall time reaches this many times the
#: allowance: a mutant that sleeps or waits on a pipe uses no CPU.
WALL_FACTOR = 10
_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """CPU time of a running process and of its children it has waited for (utime, stime, cutime,
    cstime of /proc/PID/stat); 0 when it has just gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return sum(int(value) for value in fields[11:15]) / _TICKS


def run_forked(tasks: list, jobs: int, on_done) -> None:
    """Run ``(key, target, args, allowance_seconds)`` tasks, each in its own fork, ``jobs`` at a
    time; ``on_done(key, payload)`` gets the child's message, or {"status": "timeout"} /
    {"status": "crash"}.

    The allowance is CPU time, not wall time: the run sits at a low priority beside other work, and
    a mutant slowed by a busy machine must not count as a kill ("timeout")."""
    context = multiprocessing.get_context("fork")
    pending = list(reversed(tasks))
    running: dict = {}
    while pending or running:
        while pending and len(running) < jobs:
            key, target, args, limit = pending.pop()
            receive, send = context.Pipe(duplex=False)
            process = context.Process(target=target, args=(send, *args))
            process.start()
            send.close()
            running[receive] = (key, process, limit, time.monotonic())
        ready = wait(list(running), timeout=1.0)
        now = time.monotonic()
        for connection in list(running):
            key, process, limit, started = running[connection]
            payload = None
            if connection in ready:
                try:
                    payload = connection.recv()
                except EOFError:
                    payload = {"status": "crash"}
            elif cpu_seconds(process.pid) > limit or now - started > WALL_FACTOR * limit:
                payload = {"status": "timeout"}
            else:
                continue
            process.kill()
            process.join()
            connection.close()
            del running[connection]
            on_done(key, payload)


# ---------------------------------------------------------------------------- the phases


def _load() -> dict:
    if RESULTS.exists():
        return json.loads(gzip.decompress(RESULTS.read_bytes()).decode("utf-8"))
    return {}


#: False under ``--dry-run``: nothing is written (a trial beside a run that owns the results).
_SAVING = {"on": True}


def _save(data: dict) -> None:
    if not _SAVING["on"]:
        return
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    temporary = RESULTS.with_suffix(".tmp")
    text = json.dumps(data, indent=0, sort_keys=True).encode("utf-8")
    temporary.write_bytes(gzip.compress(text, mtime=0))  # mtime 0: the same results, the same bytes
    temporary.replace(RESULTS)


def _progress(label: str, done: int, total: int, start: float) -> None:
    if not sys.stderr.isatty() and done % 50 and done != total:
        return
    elapsed = time.monotonic() - start
    left = elapsed / max(done, 1) * (total - done)
    print(f"\r{label}: {done}/{total}, about {left / 60:.0f} min left   ", end="" if sys.stderr.isatty()
          else "\n", file=sys.stderr, flush=True)


def stale_statements(before: dict, now: dict, coverage: dict) -> tuple[set, set]:
    """The mutated functions whose original code differs between two :func:`origins` (changed,
    new or gone), and the statements whose stored coverage calls one of them."""
    changed = {f for f in set(now) | set(before) if now.get(f) != before.get(f)}
    return changed, {sid for sid, cover in coverage.items() if changed & set(cover.get("hits", ()))}


def statement_phase(data: dict, calibration, statements: dict, jobs: int, only: set | None = None,
                    keep_baseline: bool = False) -> None:
    """Coverage and baseline of every statement (kept while the corpora and the package are
    unchanged, or with ``keep_baseline``); with ``only``, computed for those ids alone (a statement
    of the corpora outside ``only`` keeps its stored coverage: ``--statements`` wiped them)."""
    stamp = code_fingerprint()
    data.setdefault("mutants", {})
    now, stale = origins(), set()
    if data.get("code_stamp") != stamp and not keep_baseline:
        data.update(code_stamp=stamp, coverage={}, baseline={})
    elif data.get("origins") not in (None, now):
        # kept, but not for the statements that call a mutated function whose code changed: a
        # function new since then is called from one that changed (its caller had to be edited)
        changed, stale = stale_statements(data["origins"], now, data["coverage"])
        print(f"{len(changed)} mutated function(s) changed: coverage and baseline of the {len(stale)} "
              f"statement(s) that call them computed again", file=sys.stderr)
        for sid in stale:
            data["coverage"].pop(sid, None)
            data["baseline"].pop(sid, None)
    data["origins"] = now
    if keep_baseline:  # the caller says the rest of the change moves no verdict: adopt this code
        data["code_stamp"] = stamp
    for phase, target, store in (("coverage", _cover, data["coverage"]),
                                 ("baseline", _baseline, data["baseline"])):
        for sid in [sid for sid in store if sid not in statements]:
            del store[sid]
        todo = [s for s in statements.values()
                if store.get(s.id, {}).get("key") != statement_key(s)
                and (only is None or s.id in only or s.id in stale)]
        start, done = time.monotonic(), 0

        def record(key, payload, store=store, phase=phase, todo=todo, start=start):
            nonlocal done
            done += 1
            store[key] = {**payload, "key": statement_key(statements[key])}
            _progress(phase, done, len(todo), start)
            if done % 100 == 0:
                _save(data)

        run_forked([(s.id, target, (calibration, s), STATEMENT_LIMIT) for s in todo], jobs, record)
        _save(data)


_FEATURES: dict = {}


def _statement_features(data: dict, statements: dict) -> dict:
    """For each selectable statement, the functions it calls and its (function, truth, verdict)
    features; built once, since they do not depend on the mutant (building them per function was
    minutes of set work before the first mutant ran)."""
    if not _FEATURES:
        baseline = data["baseline"]
        for sid, cover in data["coverage"].items():
            base = baseline.get(sid, {})
            if "seconds" in base and sid in statements and base["seconds"] < STATEMENT_LIMIT / 4:
                truth, verdict = statements[sid].truth, base["verdict"]
                hits = frozenset(cover.get("hits", ()))
                features = {(hit, truth, verdict) for hit in hits} | {("verdict", truth, verdict)}
                _FEATURES[sid] = (hits, features)
    return _FEATURES


def selection_for(function: str, data: dict, statements: dict, full: bool = False,
                  exclude: frozenset = frozenset()) -> list:
    """The statements that call ``function``, chosen greedily for new (function, truth, verdict)
    combinations per second (module docstring); none of ``exclude`` (those a survivor was already
    run against: ``--deeper``)."""
    baseline = data["baseline"]
    candidates = [(sid, baseline[sid]["seconds"], features)
                  for sid, (hits, features) in _statement_features(data, statements).items()
                  if function in hits and sid not in exclude]
    if full:
        return sorted((c[0] for c in candidates), key=lambda sid: baseline[sid]["seconds"])
    chosen, seen, spent = [], set(), 0.0
    while candidates and len(chosen) < MAX_STATEMENTS and spent < MAX_BASELINE_SECONDS:
        best = max(candidates, key=lambda c: (len(c[2] - seen) / (c[1] + 0.05), -c[1], c[0]))
        if not best[2] - seen and len(chosen) >= 4:
            break
        candidates.remove(best)
        chosen.append(best[0])
        seen |= best[2]
        spent += best[1]
    chosen.sort(key=lambda sid: baseline[sid]["seconds"])
    return chosen


def _mutant_task(name: str, selection: list, data: dict, calibration, statements: dict) -> tuple:
    """A task of :func:`run_forked`: the mutant ``name`` against the statements ``selection`` (ids),
    each expected at its baseline verdict, within 3 times their baseline time plus 20 s."""
    limit = 3 * sum(data["baseline"][sid]["seconds"] for sid in selection) + 20
    expected = {sid: data["baseline"][sid]["verdict"] for sid in selection}
    return name, _mutant, (calibration, name, [statements[sid] for sid in selection], expected), limit


def mutant_phase(data: dict, calibration, statements: dict, jobs: int, modules: list[str],
                 full: list[str] = (), deeper: bool = False) -> None:
    """Run the mutants not yet decided; with ``deeper``, run each survivor again against the next
    statements of its function, none it was already run against (its ``tried``)."""
    results = data["mutants"]
    tasks = []
    tried: dict[str, list] = {}
    chosen: dict = {}  # one selection per function (and exclusion): its mutants share it
    for path in modules:
        for name in mutants_of(path):
            if full and name not in full:
                continue
            function = _function_of(name)
            previous = results.get(name, {})
            if not is_current(name, previous):
                previous = {}  # computed on another version of its function
            before = frozenset(previous.get("tried", previous.get("selection", ()))) \
                if deeper and previous.get("status") == "survived" else frozenset()
            if (function, before) not in chosen:
                chosen[function, before] = selection_for(function, data, statements, full=bool(full),
                                                         exclude=before)
            selection = chosen[function, before]
            tried[name] = sorted(before | set(selection))
            # a killed mutant stays killed (the code is the same snapshot); one that survived or was
            # not reached is run again when new statements change its selection
            if previous.get("status") in ("killed", "timeout", "crash") or \
                    (previous and previous.get("selection") == selection):
                continue
            if not selection:
                if not previous:  # a result already there (a survivor run against all it met) stays
                    results[name] = {"status": "uncovered", "selection": [], **stamps(name)}
                continue
            tasks.append(_mutant_task(name, selection, data, calibration, statements))
    text_only = set().union(*(text_only_mutants(path) for path in modules)) if modules else set()
    tasks.sort(key=lambda task: task[0] in text_only)  # stable: module order kept within each class
    selections = {task[0]: [s.id for s in task[2][2]] for task in tasks}

    def record(name, payload):
        results[name] = {**payload, "selection": selections[name], "tried": tried[name], **stamps(name)}

    _run_saving("mutants", tasks, jobs, data, record)


def _run_saving(label: str, tasks: list, jobs: int, data: dict, record) -> None:
    """Run ``tasks`` (:func:`run_forked`), ``record`` each result, show progress, and save the
    results every 20 mutants and at the end (a long run that is stopped keeps what it found)."""
    start, done = time.monotonic(), 0

    def counted(name, payload):
        nonlocal done
        done += 1
        record(name, payload)
        _progress(label, done, len(tasks), start)
        if done % 20 == 0:
            _save(data)

    run_forked(tasks, jobs, counted)
    _save(data)


_KILLS = re.compile(r"(?:(verify\.[\w.]+?)\.)?(x\w+?__mutmut_)(\d+(?:/_?\d+)*)|(?<!\w)_(\d+(?:/_?\d+)*)")


def killer_pairs(path: Path) -> dict[str, list[str]]:
    """Mutant name -> the statements of a corpus file that name it in the ``# kills:`` comment above
    them (``x__classify__mutmut_10/12, _3`` in ``verify.claims.existence`` unless a module is
    written before the function)."""
    out: dict[str, list[str]] = {}
    pending: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# kills:"):
            pending, module, function = [], "verify.claims.existence", None
            for match in _KILLS.finditer(line):
                if match.group(2):
                    module, function = match.group(1) or module, match.group(2)
                    numbers = match.group(3)
                elif function is not None:
                    numbers = match.group(4)
                else:
                    continue
                pending += [f"{module}.{function}{n.lstrip('_')}" for n in numbers.split("/")]
        identifier = re.match(r'id = "(.+)"', line)
        if identifier and pending:
            for name in pending:
                out.setdefault(name, []).append(identifier.group(1))
            pending = []
    return out


def _function_of(name: str) -> str:
    module, _, mangled = name.rpartition(".")
    return f"{module}.{mangled.split('__mutmut_')[0]}"


def by_function_pairs(paths: list[Path], data: dict, statements: dict) -> dict[str, list[str]]:
    """Each survivor of a function that a ``# kills:`` comment of ``paths`` names -> the statements
    below those comments that it has not met (``--killers ... --by-function``).

    The numbers in a ``# kills:`` comment name the mutants of the file the comment was written
    against; once the source changes and the mutants are generated again, the same number is
    another mutation.  The function survives the renumbering, and a statement written to reach a
    function's code is the likeliest killer of that function's other survivors."""
    targets: dict[str, set[str]] = {}
    for path in paths:
        for name, ids in killer_pairs(path).items():
            targets.setdefault(_function_of(name), set()).update(ids)
    valid = current(data["mutants"])
    seconds = {sid: data["baseline"].get(sid, {}).get("seconds", 1e9)
               for ids in targets.values() for sid in ids}
    out: dict[str, list[str]] = {}
    for function, ids in targets.items():
        path = _module_path(function.rpartition(".")[0])
        if not (MUTANTS / path).exists():
            continue
        for name in mutants_of(path):
            result = valid.get(name, {})
            if _function_of(name) != function or result.get("status") != "survived":
                continue
            fresh = sorted((sid for sid in ids - set(result.get("tried", ())) if sid in statements
                            and sid in data["baseline"]), key=lambda sid: (seconds[sid], sid))
            if fresh:
                out[name] = fresh
    return out


def killers_phase(data: dict, calibration, statements: dict, jobs: int, paths: list[Path],
                  by_function: bool = False) -> None:
    """Run each mutant a corpus file says it kills against those statements (``--killers``); with
    ``by_function``, every survivor of each function the comments name (:func:`by_function_pairs`)."""
    results, tasks = data["mutants"], []
    valid = current(results)  # once: the stamps are fixed for the run
    if by_function:
        pairs = by_function_pairs(paths, data, statements)
        print(f"--by-function: {len(pairs)} survivors against {sum(map(len, pairs.values()))} statement "
              "pairs", file=sys.stderr)
    else:
        pairs = {}
        for path in paths:
            for name, ids in killer_pairs(path).items():
                pairs.setdefault(name, []).extend(i for i in ids if i not in pairs.get(name, []))
    missing = sorted(name for name in pairs if not exists(name))
    if missing:
        print(f"{len(missing)} mutant(s) named in '# kills:' do not exist (their function "
              f"moved or was renamed), skipped: {', '.join(missing[:6])}", file=sys.stderr)
    for name, ids in pairs.items():
        # --statements narrows the statements a kill may be replayed on (a comment may name others)
        ids = [sid for sid in ids if sid in statements]
        if name in missing or not ids:
            continue
        if valid.get(name, {}).get("status") in ("killed", "timeout", "crash") or \
                any(sid not in data["baseline"] for sid in ids):
            continue
        tasks.append(_mutant_task(name, ids, data, calibration, statements))

    chosen = {task[0]: [statement.id for statement in task[2][2]] for task in tasks}

    def record(name, payload):
        previous = results.get(name, {})
        tried = sorted(set(previous.get("tried", previous.get("selection", ()))) | set(chosen[name]))
        results[name] = {**previous, **payload, "selection": chosen[name], "tried": tried, **stamps(name)}
        if not _SAVING["on"]:  # a trial: say what each statement did to its mutant
            print(f"{name}: {payload.get('status')}" + (f" by {payload['by']} (got {payload.get('got')})"
                                                         if payload.get("by") else ""), flush=True)

    _run_saving("killers", tasks, jobs, data, record)


# ---------------------------------------------------------------------------- the report


#: Survivors argued unable to change any verdict, each by its function and its diff (so an entry
#: outlives the renumbering of regenerated mutants and lapses when the code it argues about changes).
EQUIVALENT = ROOT / "docs" / "mutation" / "equivalent.toml"


def equivalence_ledger() -> dict[tuple[str, str, str], dict]:
    """(function, original line, mutated line) -> the entry of :data:`EQUIVALENT` that argues the
    mutant cannot change a verdict (``basis``: "argument", or "trial" where it rests on runs)."""
    import tomllib

    if not EQUIVALENT.exists():
        return {}
    out = {}
    for entry in tomllib.loads(EQUIVALENT.read_text(encoding="utf-8")).get("mutant", []):
        if entry.get("basis") not in ("argument", "trial") or not entry.get("reason"):
            raise SystemExit(f"{EQUIVALENT}: an entry needs basis 'argument' or 'trial' and a reason: "
                             f"{entry}")
        out[(entry["function"], entry["before"], entry["after"])] = entry
    return out


def _toml_text(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a TOML basic string


def argue(names: list[str], basis: str, reason: str) -> int:
    """Append to :data:`EQUIVALENT` one entry per mutant ``names``, with its current diff."""
    from mutation_report import classify_diff
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    os.chdir(ROOT)
    known = equivalence_ledger()
    entries = []
    for name in names:
        if not exists(name):
            print(f"--argue: no mutant {name} in mutants/", file=sys.stderr)
            return 2
        path = _module_path(name.rpartition(".")[0])
        _, before, after = classify_diff(get_diff_for_mutant(name.rpartition(".")[2], path=path))
        if (_function_of(name), before, after) in known:
            continue
        entries.append("\n".join(["[[mutant]]", f"function = {_toml_text(_function_of(name))}",
                                  f"before = {_toml_text(before)}", f"after = {_toml_text(after)}",
                                  f"basis = {_toml_text(basis)}", f"reason = {_toml_text(reason)}", ""]))
    if not EQUIVALENT.exists():
        EQUIVALENT.write_text("# Survivors of scripts/mutation_verdicts.py argued unable to change any "
                              "verdict (issue\n# #48), matched by function and diff; --argue appends, "
                              "--report sets them apart.\n", encoding="utf-8")
    with EQUIVALENT.open("a", encoding="utf-8") as handle:
        handle.write("".join("\n" + entry for entry in entries))
    print(f"{len(entries)} entries added to {EQUIVALENT.relative_to(ROOT)}")
    return 0


def report(data: dict, markdown: str | None) -> int:
    from mutation_report import classify_diff
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    os.chdir(ROOT)
    results = current(data.get("mutants", {}))
    if not results:
        print("no results: run scripts/mutation_verdicts.py first", file=sys.stderr)
        return 2
    lines = ["| module | mutants | killed | timeout | survived | uncovered | score |",
             "|---|---|---|---|---|---|---|"]
    survivors = []
    totals: Counter = Counter()
    for path in mutated_modules():
        module = path.removesuffix(".py").replace("/", ".")
        mine = {n: r for n, r in results.items() if n.rpartition(".")[0] == module}
        counts = Counter(r["status"] for r in mine.values())
        totals.update(counts)
        killed = counts["killed"] + counts["timeout"] + counts["crash"]
        tested = killed + counts["survived"]
        lines.append(f"| {path} | {len(mutants_of(path))} | {counts['killed'] + counts['crash']} | "
                     f"{counts['timeout']} | {counts['survived']} | {counts['uncovered']} | "
                     f"{killed / max(tested, 1):.1%} |")
        survivors += [(n, path) for n, r in sorted(mine.items()) if r["status"] == "survived"]
    killed = totals["killed"] + totals["timeout"] + totals["crash"]
    classes = {}
    for name, path in survivors:
        diff = get_diff_for_mutant(name.rpartition(".")[2], path=path)
        classes[name] = classify_diff(diff)
    logic = [n for n, c in classes.items() if c[0] == "logic"]
    ledger = equivalence_ledger()
    argued = {n: ledger[(_function_of(n), classes[n][1], classes[n][2])] for n in logic
              if (_function_of(n), classes[n][1], classes[n][2]) in ledger}
    open_ = [n for n in logic if n not in argued]
    by_trial = sum(1 for entry in argued.values() if entry["basis"] == "trial")
    head = (f"mutants tested: {killed + totals['survived']}; killed {killed} (timeouts {totals['timeout']}); "
            f"survived {totals['survived']} ({len(survivors) - len(logic)} text-only, {len(logic)} logic, of "
            f"which {len(argued)} argued unable to change a verdict in {EQUIVALENT.relative_to(ROOT)} "
            f"({len(argued) - by_trial} by argument, {by_trial} by trial) and {len(open_)} open); uncovered "
            f"{totals['uncovered']}; score {killed / max(killed + totals['survived'], 1):.1%}, "
            f"{killed / max(killed + len(logic), 1):.1%} of those that can change a decision, "
            f"{killed / max(killed + len(open_), 1):.1%} with the argued ones set aside")
    by_budget = sum(1 for r in results.values() if r["status"] == "killed" and r.get("budget"))
    head += (f"; {by_budget} of the kills came with a CPU-time limit passed on the way (recorded since "
             "session 17), so the load may have made them")
    open_counts = Counter(n.rpartition(".")[0] for n in open_)
    lines += ["", "| module | open survivors |", "|---|---|",
              *(f"| {module} | {count} |" for module, count in sorted(open_counts.items()))]
    text = "\n".join([head, "", *lines, "", "open logic survivors:",
                      *(f"- {n}: `{classes[n][1][:110]}` -> `{classes[n][2][:110]}`" for n in sorted(open_))])
    print(text)
    if markdown:
        Path(markdown).write_text(text + "\n", encoding="utf-8")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--modules", nargs="*", help="only these files of [tool.mutmut] only_mutate")
    parser.add_argument("--report", action="store_true", help="print the score and the survivors")
    parser.add_argument("--markdown", help="with --report: also write it to this file")
    parser.add_argument("--no-generate", action="store_true", help="use mutants/ as it is")
    parser.add_argument("--full", nargs="+", metavar="NAME",
                        help="run these mutants against every statement that calls their function")
    parser.add_argument("--killers", type=Path, nargs="+", metavar="FILE",
                        help="run each mutant corpus files' '# kills:' comments name against the "
                             "statements below them")
    parser.add_argument("--by-function", action="store_true",
                        help="with --killers: run every survivor of each function the comments name "
                             "against those statements (the numbers go stale when mutants are "
                             "generated again; the functions do not)")
    parser.add_argument("--deeper", action="store_true",
                        help="run each survivor against the next statements of its function (none it "
                             "was run against before)")
    parser.add_argument("--statements", metavar="REGEX",
                        help="only the statements whose id matches meet the mutants (their coverage and "
                             "baseline computed if missing, the others kept): a trial, or a new corpus "
                             "file against the survivors")
    parser.add_argument("--keep-baseline", action="store_true",
                        help="keep the stored coverage and baseline although the package changed "
                             "(an edit that changes no verdict); the mutants' results are kept while "
                             "their own files are unchanged either way")
    parser.add_argument("--argue", nargs="+", metavar="NAME",
                        help="record these survivors in docs/mutation/equivalent.toml as unable to change "
                             "a verdict (with --basis and --reason)")
    parser.add_argument("--basis", choices=("argument", "trial"), default="argument")
    parser.add_argument("--reason", help="with --argue: why no verdict can change")
    parser.add_argument("--dry-run", action="store_true",
                        help="write nothing (with --killers: try a corpus file's kills while another "
                             "run owns the results file)")
    args = parser.parse_args(argv)
    _SAVING["on"] = not args.dry_run
    data = _load()
    if args.report:
        return report(data, args.markdown)
    if args.argue:
        if not args.reason:
            parser.error("--argue needs --reason")
        return argue(args.argue, args.basis, args.reason)
    # checked against the list, not the snapshot: a module added to the list is generated below
    unknown = sorted(set(args.modules or ()) - set(mutated_modules(in_snapshot=args.no_generate)))
    if unknown:
        print(f"--modules: {', '.join(unknown)} not in [tool.mutmut] only_mutate"
              + (" (or not in mutants/ yet: run without --no-generate)" if args.no_generate else ""),
              file=sys.stderr)
        return 2
    if not args.no_generate:
        restamp(data)  # before the snapshot changes: the results of unchanged functions are kept
        generate()
    modules = args.modules or mutated_modules()
    calibration = _import_engine()
    statements = _statements(calibration)
    chosen = {k for k in statements if re.search(args.statements, k)} if args.statements else None
    statement_phase(data, calibration, statements, args.jobs, chosen, args.keep_baseline)
    if chosen is not None:  # the mutants meet these statements alone
        statements = {k: v for k, v in statements.items() if k in chosen}
    if args.killers:
        killers_phase(data, calibration, statements, args.jobs, args.killers, args.by_function)
        return report(data, None)
    if args.full:
        modules = sorted({path for path in modules for name in args.full
                          if name.rpartition(".")[0] == path.removesuffix(".py").replace("/", ".")})
    mutant_phase(data, calibration, statements, args.jobs, modules, args.full or (), args.deeper)
    return report(data, None)


if __name__ == "__main__":
    sys.exit(main())
