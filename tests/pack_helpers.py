"""Shared helpers for tests that need a user's pack made from the built-in one."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from verify.paper import pack


def copy_builtin_data(root: Path) -> Path:
    """The Dayı–Chen pack's data copied into ``root``, as a user's pack directory is: without its
    coded checks, and without pack.toml's ``coded_checks`` line (only the built-in pack may carry
    code; a pack directory that names code is refused)."""
    shutil.copytree(pack.BUILTIN, root, ignore=shutil.ignore_patterns("checks", "__init__.py", "__pycache__"))
    path = root / "pack.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"(?m)^coded_checks = .*\n", "", text), encoding="utf-8")
    return root
