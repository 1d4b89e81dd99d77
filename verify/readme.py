"""Generated blocks of the README and docs/: each sits between ``<!-- NAME:start -->`` and
``<!-- NAME:end -->`` in the document :data:`HOMES` names.

The documents state facts that code can compute (which derivations exist, which statements
fail); those facts live in marked blocks that :func:`replace_block` rewrites and the test
suite compares with a fresh rendering, so the prose around them cannot drift from the code.
"""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

from verify.base.files import write_atomic
from verify.base.markdown import code_span, in_table_cell, markdown_text
from verify.checks import load_all
from verify.checks.packs import code_modules
from verify.claims.hypotheses import RULE_HYPOTHESES
from verify.derive import DERIVATIONS
from verify.figures.summary import render
from verify.paper.pack import BUILTIN, load
from verify.regions.summary import render as render_regions

ROOT = Path(__file__).resolve().parent.parent

#: The document (relative to the repository root) that holds each generated block.
HOMES = {
    "errata": "README.md",
    "timings": "README.md",
    "coverage": "docs/checks.md",
    "coverage-summary": "README.md",
    "checks": "docs/checks.md",
    "calibration": "docs/soundness.md",
    "calibration-checks": "docs/soundness.md",
    "ledger-precision": "docs/soundness.md",
    "rule-hypotheses": "docs/soundness.md",
    "derivations": "docs/development.md",
    "figures": "docs/figures.md",
    "regions": "docs/figures.md",
}


def home(name: str) -> Path:
    """The document that holds block ``name``."""
    return ROOT / HOMES[name]


def read_block(name: str) -> str:
    """Block ``name``'s body in its document."""
    return block(home(name).read_text(encoding="utf-8"), name)


def write_blocks(bodies: dict[str, str]) -> None:
    """Replace each named block's body in its document (each document read and written once)."""
    by_home: dict[Path, dict[str, str]] = {}
    for name, body in bodies.items():
        by_home.setdefault(home(name), {})[name] = body
    for path, named in by_home.items():
        text = path.read_text(encoding="utf-8")
        for name, body in named.items():
            text = replace_block(text, name, body)
        write_atomic(path, text, "document")


def stale_blocks(bodies: dict[str, str]) -> list[str]:
    """The names of the blocks whose document differs from ``bodies`` (as ``NAME (DOCUMENT)``)."""
    return [f"{name} ({HOMES[name]})" for name, body in bodies.items() if read_block(name) != body]


def _pattern(name: str) -> re.Pattern[str]:
    start, end = re.escape(f"<!-- {name}:start -->"), re.escape(f"<!-- {name}:end -->")
    return re.compile(start + r"\n(.*?)" + end, re.S)


def block(text: str, name: str) -> str:
    """The body of block ``name`` in ``text``; ValueError when the markers are missing."""
    match = _pattern(name).search(text)
    if match is None:
        raise ValueError(f"no <!-- {name}:start --> ... <!-- {name}:end --> block "
                         f"(expected in {HOMES.get(name)})")
    return match.group(1)


def replace_block(text: str, name: str, body: str) -> str:
    """``text`` with block ``name``'s body replaced by ``body`` (which ends with a newline)."""
    block(text, name)  # raises when absent
    return _pattern(name).sub(lambda _: f"<!-- {name}:start -->\n{body}<!-- {name}:end -->", text)


def derivations_block() -> str:
    """One bullet per file ``verify derive`` writes: its name and its module's one-line summary."""

    lines = []
    for module in DERIVATIONS:
        doc = inspect.getdoc(module) or ""
        summary = " ".join(doc.split("\n\n")[0].split()).removeprefix("Derivation: ")
        lines.append(f"- `{module.FILENAME}`: {summary}")
    return "\n".join(lines) + "\n"


def checks_block() -> str:
    """Where each numbered statement is checked: a table from the check registry, in paper order
    of the modules (statement, check id, section, ``file:function``)."""


    sections = code_modules(load(BUILTIN))

    def paper_order(check) -> tuple[int, int]:
        # The registry's order depends on which module some earlier import loaded first;
        # the table follows the pack's SECTIONS and the source order instead, so it is the same always.
        return sections.index(check.function.__module__), inspect.getsourcelines(check.function)[1]

    rows = ["| statement | check | § | where |", "|---|---|---|---|"]
    # The ledger's own claims and the definitions checks come from data
    # (verify/paper/packs/dayi_chen/ledger.d/), one per entry: counted here, listed by the ledger.
    from_data = [c for c in load_all().values() if c.method == "claim"]
    for check in sorted((c for c in load_all().values() if c.method != "claim"), key=paper_order):
        path = Path(inspect.getsourcefile(check.function) or "").as_posix()
        where = path[path.rindex("verify/"):] + ":" + check.function.__name__
        rows.append(f"| {markdown_text(check.statement, table_cell=True)} | `{check.id}` | {check.section} "
                    f"| `{where}` |")
    displays = sum(c.id.startswith("display-") for c in from_data)
    relations = sum(c.id.startswith("relation-") for c in from_data)
    statements = sum(c.id.startswith("statement-") for c in from_data)
    prose = sum(c.id.startswith("prose-") for c in from_data)
    definitions = len(from_data) - displays - relations - statements - prose
    return ("\n".join(rows) + "\n\n"
            f"Besides these, {displays} displays, {relations} inline relations of the proofs, "
            f"{statements} of the statements and {prose} of the prose are checked by their ledger claims "
            f"(checks `display-<id>`, `relation-<id>`, `statement-<id>` and `prose-<id>`, "
            f"`verify/paper/packs/dayi_chen/ledger.d/`), and {definitions} objects the paper defines "
            f"twice by `definitions-<name>` (`verify/paper/packs/dayi_chen/ledger.d/definitions.toml`).\n")


#: The committed summaries of the last figures runs (:mod:`verify.figures.summary`), one per tier.
FIGURE_SUMMARIES = {tier: f"results/figures-{tier}.json" for tier in ("quick", "full")}


def figures_block() -> str:
    """The figures table: every caption claim's verdict per setup and tier, from the committed
    summaries of the last runs (``scripts/update_readme_figures.py`` rewrites them)."""


    summaries = {tier: json.loads((ROOT / path).read_text(encoding="utf-8"))
                 if (ROOT / path).exists() else None for tier, path in FIGURE_SUMMARIES.items()}
    sources = ", ".join(f"`{path}`" for path in FIGURE_SUMMARIES.values())
    return (f"Generated by `scripts/update_readme_figures.py` from {sources}.\n\n"
            + render(summaries["quick"], summaries["full"]))


#: The committed summaries of the last region runs (:mod:`verify.regions.summary`), one per tier.
REGION_SUMMARIES = {tier: f"results/regions-{tier}.json" for tier in ("quick", "full")}


def regions_block() -> str:
    """The regions table: each region-study claim's verdict, protocol and region per tier."""
    summaries = {tier: json.loads((ROOT / path).read_text(encoding="utf-8"))
                 if (ROOT / path).exists() else None for tier, path in REGION_SUMMARIES.items()}
    sources = ", ".join(f"`{path}`" for path in REGION_SUMMARIES.values())
    return (f"Generated by `scripts/update_readme_figures.py` from {sources}.\n\n"
            + render_regions(summaries["quick"], summaries["full"]))


#: The measured wall times and counts of the README's commands (``scripts/measure.py``).
TIMINGS = "results/timings.json"


def _duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


def timings_block() -> str:
    """The front page's numbers: each command's wall and CPU time and what it counted, as measured."""
    path = ROOT / TIMINGS
    if not path.exists():
        return "Not measured yet: run `python scripts/measure.py`.\n"
    doc = json.loads(path.read_text(encoding="utf-8"))
    rows = ["| run | command | wall time | CPU time | result | measured |", "|---|---|---|---|---|---|"]
    for run in doc["runs"].values():
        counted = ", ".join(f"{run[key]} {key}" for key in ("checks", "passed", "skipped", "failed",
                                                               "deselected") if run.get(key))
        result = counted or f"exit {run['exit']}"
        cpu = _duration(run["cpu_s"]) if "cpu_s" in run else "not recorded"
        load = f", load {run['load']}" if "load" in run else ""
        rows.append(f"| {run['what']} | `{run['command']}` | {_duration(run['wall_s'])} | {cpu} | "
                    f"{result} | {run['date']}{load} |")
    machine = doc["machine"]
    return (f"Generated from `{TIMINGS}` ({machine['cores']} cores, Python {machine['python']}). "
            "Wall time is what you wait; it grows with whatever else the machine runs. CPU time "
            "(the command and every process it starts) is what the work costs, and load changes it "
            "little; divided by the cores a command uses, it is about the least wall time the run can "
            "take. The measured column gives the date and the 1-minute load average when the run started.\n\n"
            + "\n".join(rows) + "\n")


def rule_hypotheses_block() -> str:
    """The table of hypotheses each rule proves before it applies (``hypotheses.RULE_HYPOTHESES``)."""
    lines = ["| rule | hypothesis it proves before it applies | where |", "|---|---|---|"]
    lines += [f"| {in_table_cell(rule)} | {in_table_cell(hypothesis)} | {', '.join(map(code_span, where))} |"
              for rule, hypothesis, where in RULE_HYPOTHESES]
    return "\n".join(lines) + "\n"


BLOCKS = {"derivations": derivations_block, "timings": timings_block, "checks": checks_block,
          "figures": figures_block, "regions": regions_block, "rule-hypotheses": rule_hypotheses_block}


def main() -> int:
    """Rewrite the code-generated blocks in their documents (``python -m verify.readme``); the
    blocks generated from runs (errata, calibration, figures' runs) have their own scripts."""
    write_blocks({name: render_block() for name, render_block in BLOCKS.items()})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
