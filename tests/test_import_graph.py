"""The package's modules import each other without cycles, lazy (function-level) imports included;
imports sit at module level unless a comment gives the reason; the layers do not import upwards.

A cycle hidden inside a function still couples two modules both ways (population ↔ series
and figures.common ↔ figures.full_tier were such pairs); this test reads every import
statement with :mod:`ast` and fails on any strongly connected group of modules.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "verify"


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _owner(name: str, modules) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports anywhere in its source."""
    modules = _modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                targets = [f"{node.module}.{a.name}" for a in node.names]
            for target in targets:
                owner = _owner(target, modules)
                if owner is not None and owner != name:
                    graph[name].add(owner)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_cycle_finder_finds_a_planted_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_graph_sees_lazy_imports():
    graph = import_graph()
    # verify.simulate.sgd imports the numba engine inside a function body.
    assert "verify.simulate.compiled" in graph["verify.simulate.sgd"]


def test_no_import_cycles():
    assert cycles(import_graph()) == []


def _layer(module: str) -> str:
    """The layer (package) a module belongs to: verify.model.population -> verify.model.  A built-in
    pack's code (verify.paper.packs.dayi_chen.checks.*) is a layer of its own, above the engine it
    uses: the engine reaches it only by the name its pack.toml gives (verify.checks.packs imports it
    with importlib), never by an import statement."""
    parts = module.split(".")
    return ".".join(parts[:4] if parts[:3] == ["verify", "paper", "packs"] and len(parts) > 4 else parts[:2])


def test_no_cycles_between_packages():
    """model, base, verdict, certified, simulate, derive, checks/claims/figures, cli: a one-way
    street (a cycle between two packages hides inside their files even when no two files form one)."""
    graph: dict[str, set[str]] = {}
    for module, targets in import_graph().items():
        layer = _layer(module)
        graph.setdefault(layer, set()).update(_layer(t) for t in targets if _layer(t) != layer)
    for targets in list(graph.values()):
        for t in targets:
            graph.setdefault(t, set())
    assert cycles(graph) == []


def test_derive_stays_independent_of_the_models_formulas():
    """verify.derive is the reference the model is checked against: it derives h = −dΦ/dm itself
    and must not call the model's population, series, geometry or arithmetic."""
    formulas = {"verify.model.population", "verify.model.series", "verify.model.geometry",
                "verify.model.arithmetic", "verify.model.fast_kernels", "verify.certified.population",
                "verify.certified.series"}
    for module, targets in import_graph().items():
        if module.startswith("verify.derive"):
            assert not targets & formulas, (module, targets & formulas)


def _function_level_imports():
    """(path, line, is_own, has_reason) of every import inside a function body."""
    for path in PACKAGE.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        tree = ast.parse(source)
        covered = {line for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)
                   for line in range(node.lineno - 1, node.end_lineno or node.lineno)}
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if not isinstance(node, ast.Import | ast.ImportFrom):
                    continue
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                own = any(n == "verify" or n.startswith("verify.") for n in names)
                # the reason: a "# lazy: ..." comment above the import or above its group of imports
                # (other imports, blank lines, the comment's own continuation lines in between)
                above = node.lineno - 2
                while above >= 0 and (above in covered or not lines[above].strip()
                                      or lines[above].strip().startswith(("matplotlib.use", "#"))
                                      and not lines[above].strip().startswith("# lazy:")):
                    above -= 1
                reason = above >= 0 and lines[above].strip().startswith("# lazy:")
                yield path.relative_to(PACKAGE.parent), node.lineno, own, reason


@pytest.mark.extended
def test_imports_sit_at_module_level_unless_a_comment_says_why():
    """At most a quarter of the package's own imports sit inside functions, and every import that
    does (own or third-party: numba, matplotlib, dask, scipy.stats load slowly) says why."""
    imports = list(_function_level_imports())
    own_total = 0
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                own_total += sum(a.name == "verify" or a.name.startswith("verify.") for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                own_total += node.module == "verify" or node.module.startswith("verify.")
    own_inside = sum(own for _, _, own, _ in imports)
    assert own_inside <= own_total / 4, (own_inside, own_total)
    unexplained = [f"{path}:{line}" for path, line, _, reason in imports if not reason]
    assert not unexplained, unexplained


def test_no_package_imports_a_siblings_private_names():
    for path in PACKAGE.rglob("*.py"):
        layer = _layer(".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("verify."):
                private = [a.name for a in node.names if a.name.startswith("_")]
                assert not (private and _layer(node.module) != layer), (path, node.module, private)


def test_the_engine_imports_no_packs_code():
    """A built-in pack's coded checks import the engine, never the reverse: the engine reaches them
    only by the name the pack's pack.toml gives (verify.checks.packs.code_modules, with importlib)."""
    for module, targets in import_graph().items():
        if _layer(module).startswith("verify.paper.packs."):
            continue
        into = {t for t in targets if _layer(t).startswith("verify.paper.packs.")}
        assert not into, (module, into)
