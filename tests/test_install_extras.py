"""What `pip install -e '.[dev]'` pulls in (issue #51, item 6).

The dev extra once named ``verify[test]``: the project's distribution is ``lowrank-verify``, so pip
resolved that line to an unrelated distribution called ``verify`` on the index, which then took
over ``import verify``.  The static test reads pyproject.toml; the slow one asks pip to resolve
every extra (``--dry-run --report``, nothing installed) and refuses any distribution that nothing
the project declares requires.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
#: Distributions that must never be resolved: they install a top-level ``verify`` of their own.
FOREIGN = {"verify"}


def _name(requirement: str) -> str:
    """The canonical (PEP 503) name of a requirement string."""
    name = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement).group(1)
    return re.sub(r"[-_.]+", "-", name).lower()


def _declared() -> set[str]:
    names = {_name(r) for r in PROJECT["dependencies"]}
    for requirements in PROJECT["optional-dependencies"].values():
        names |= {_name(r) for r in requirements}
    return names


def test_every_self_reference_names_the_projects_own_distribution():
    own = _name(PROJECT["name"])
    for extra, requirements in PROJECT["optional-dependencies"].items():
        for requirement in requirements:
            assert _name(requirement) not in FOREIGN, f"extra {extra!r} names the foreign {requirement!r}"
            if "[" in requirement and _name(requirement) not in {own}:
                pytest.fail(f"extra {extra!r}: {requirement!r} names extras of another distribution")


def test_version_names_the_version_and_the_checkout():
    done = subprocess.run([sys.executable, "-m", "verify", "--version"], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith(f"verify {PROJECT['version']} (lowrank-verify; ")
    if (ROOT / ".git").exists() and subprocess.run(["git", "--version"], capture_output=True).returncode == 0:
        assert re.search(r"commit [0-9a-f]{40}", done.stdout), done.stdout


@pytest.mark.slow
def test_pip_resolves_no_distribution_the_project_does_not_ask_for(tmp_path):
    """Resolve ``.[dev,test,dask]`` from the index (about 20 s; skipped where pip cannot reach it).
    Every resolved distribution must be the project, one of its declared requirements, or required
    by another resolved distribution; none may be a foreign ``verify``."""
    extras = ",".join(PROJECT["optional-dependencies"])
    report = tmp_path / "resolve.json"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed",
                           "--quiet", "--report", str(report), "-e", f"{ROOT}[{extras}]"],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path)
    if done.returncode != 0 and re.search(r"(?i)connection|network|resolve host|no matching distribution",
                                          done.stderr):
        pytest.skip(f"pip cannot reach the index here: {done.stderr.strip().splitlines()[-1]}")
    assert done.returncode == 0, done.stderr
    installs = json.loads(report.read_text())["install"]
    resolved = {_name(item["metadata"]["name"]): item["metadata"] for item in installs}
    assert not FOREIGN & set(resolved), f"pip resolved the foreign {FOREIGN & set(resolved)}"
    own = _name(PROJECT["name"])
    reachable, frontier = {own}, [own]
    while frontier:
        for requirement in resolved.get(frontier.pop(), {}).get("requires_dist", []) or []:
            name = _name(requirement)
            if name in resolved and name not in reachable:
                reachable.add(name)
                frontier.append(name)
    assert set(resolved) == reachable, f"resolved but never required: {set(resolved) - reachable}"
    direct = {_name(r) for r in resolved[own].get("requires_dist", [])}
    assert direct <= _declared() | {own}, f"requirements pyproject.toml lacks: {direct - _declared()}"
