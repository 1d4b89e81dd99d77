"""README.md and docs/ say what the code does: generated blocks are fresh and named paths exist."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from verify.readme import BLOCKS, HOMES, read_block, replace_block

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCUMENTS = "\n".join(p.read_text(encoding="utf-8")
                      for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])


@pytest.mark.parametrize("name", sorted(BLOCKS))
def test_generated_block_is_fresh(name):
    assert read_block(name) == BLOCKS[name](), f"run `python -m verify.readme` to refresh {name}"


@pytest.mark.parametrize("name", sorted(HOMES))
def test_every_block_sits_in_its_document(name):
    assert read_block(name).strip(), f"block {name} is empty in {HOMES[name]}"


def test_replace_block_touches_only_the_block():
    text = "a\n<!-- x:start -->\nold\n<!-- x:end -->\nb\n"
    assert replace_block(text, "x", "new\n") == "a\n<!-- x:start -->\nnew\n<!-- x:end -->\nb\n"
    with pytest.raises(ValueError, match="no <!-- y:start -->"):
        replace_block(text, "y", "z\n")


def test_every_derivation_file_is_listed_and_exists():
    listed = re.findall(r"^- `([a-z0-9_]+\.md)`", read_block("derivations"), re.M)
    on_disk = sorted(p.name for p in (ROOT / "derivations").glob("*.md"))
    assert sorted(listed) == on_disk


def test_paths_named_in_the_readme_exist():
    """Every `verify/...`, `tests/...`, `scripts/...` or `docs/...` path the README or docs/ name is
    in the tree."""
    named = set(re.findall(r"(?<![\w/.-])((?:verify|tests|scripts|docs)/[\w./-]*[\w/])(?![<*\w])",
                           DOCUMENTS))
    missing = sorted(p for p in named if not p.endswith("_") and not (ROOT / p).exists())
    assert missing == []


def test_checks_block_does_not_depend_on_import_order():
    """Importing one check module first (as other tests do) must not reorder the index."""
    import importlib

    importlib.import_module("verify.paper.packs.dayi_chen.checks.app_f_global_optima")
    assert read_block("checks") == BLOCKS["checks"]()


def _rendered(cell_row: str) -> str:
    """A Markdown table row's text as GitHub shows it: links and code marks gone, escapes read."""
    text = re.sub(r"\[`?([^\]`]*)`?\]\([^)]*\)", r"\1", cell_row)
    text = text.replace("\\|", "\u0001")  # GitHub drops one backslash before a cell's escaped pipe
    text = re.sub(r"\\(.)", r"\1", text.replace("`", "")).replace("\u0001", "|")
    return " ".join(cell.strip() for cell in text.strip().strip("|").split(" | "))


def test_errata_rows_are_compact():
    """Issue #49: one line per erratum, at most 400 characters of text, no formula (a math span
    cannot wrap, so it widened the table past GitHub's page)."""
    rows = [line for line in read_block("errata").splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) > 10
    assert rows[0] == "| impact | statement | finding | details |"
    for row in rows[1:]:
        assert len(_rendered(row)) <= 400, row
        assert "$`" not in row, row
