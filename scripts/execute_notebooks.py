"""Execute every notebook of examples/ from top to bottom and save it with its outputs.

The notebooks are committed executed, so that they read on GitHub as a worked example with the
suite's own answers; tests/test_examples.py executes each afresh and checks that the verdicts it
shows are the committed ones.  Run after changing a notebook or a verdict it shows.

Usage: python scripts/execute_notebooks.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbclient
import nbformat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def execute(path: Path, timeout: int = 120) -> nbformat.NotebookNode:
    """The notebook at ``path``, executed in a fresh python3 kernel started in the repository root."""
    notebook = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(notebook, kernel_name="python3", timeout=timeout,
                            resources={"metadata": {"path": str(ROOT)}}).execute()
    return notebook


def main() -> int:
    from verify.base.files import write_atomic

    for path in sorted((ROOT / "examples").glob("*.ipynb")):
        write_atomic(path, nbformat.writes(execute(path)) + "\n")
        print(f"executed {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
