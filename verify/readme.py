"""Generated blocks of README.md: each sits between ``<!-- NAME:start -->`` and ``<!-- NAME:end -->``.

The README states facts that code can compute (which derivations exist, which statements
fail); those facts live in marked blocks that :func:`replace_block` rewrites and the test
suite compares with a fresh rendering, so the prose around them cannot drift from the code.
"""

from __future__ import annotations

import inspect
import re


def _pattern(name: str) -> re.Pattern[str]:
    start, end = re.escape(f"<!-- {name}:start -->"), re.escape(f"<!-- {name}:end -->")
    return re.compile(start + r"\n(.*?)" + end, re.S)


def block(text: str, name: str) -> str:
    """The body of block ``name`` in ``text``; ValueError when the markers are missing."""
    match = _pattern(name).search(text)
    if match is None:
        raise ValueError(f"README has no <!-- {name}:start --> ... <!-- {name}:end --> block")
    return match.group(1)


def replace_block(text: str, name: str, body: str) -> str:
    """``text`` with block ``name``'s body replaced by ``body`` (which ends with a newline)."""
    block(text, name)  # raises when absent
    return _pattern(name).sub(lambda _: f"<!-- {name}:start -->\n{body}<!-- {name}:end -->", text)


def derivations_block() -> str:
    """One bullet per file ``verify derive`` writes: its name and its module's one-line summary."""
    from verify.derive import DERIVATIONS

    lines = []
    for module in DERIVATIONS:
        doc = inspect.getdoc(module) or ""
        summary = " ".join(doc.split("\n\n")[0].split()).removeprefix("Derivation: ")
        lines.append(f"- `{module.FILENAME}`: {summary}")
    return "\n".join(lines) + "\n"


def checks_block() -> str:
    """Where each numbered statement is checked: a table from the check registry, in paper order
    of the modules (statement, check id, section, ``file:function``)."""
    from pathlib import Path

    from verify.checks import SECTIONS, load_all

    def paper_order(check) -> tuple[int, int]:
        # The registry's order depends on which module some earlier import loaded first;
        # the table follows SECTIONS and the source order instead, so it is the same always.
        module = check.function.__module__.rsplit(".", 1)[-1]
        return SECTIONS.index(module), inspect.getsourcelines(check.function)[1]

    rows = ["| statement | check | § | where |", "|---|---|---|---|"]
    for check in sorted(load_all().values(), key=paper_order):
        path = Path(inspect.getsourcefile(check.function) or "").as_posix()
        where = path[path.rindex("verify/"):] + ":" + check.function.__name__
        rows.append(f"| {check.statement} | `{check.id}` | {check.section} | `{where}` |")
    return "\n".join(rows) + "\n"


BLOCKS = {"derivations": derivations_block, "checks": checks_block}


def main() -> int:
    """Rewrite README.md's generated blocks in place (``python -m verify.readme [README]``)."""
    import sys
    from pathlib import Path

    path = Path(sys.argv[1] if len(sys.argv) > 1 else "README.md")
    text = path.read_text(encoding="utf-8")
    for name, render in BLOCKS.items():
        text = replace_block(text, name, render())
    path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
