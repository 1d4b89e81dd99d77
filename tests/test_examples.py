"""The notebooks in examples/ run from top to bottom, and are committed with the outputs they show.

Each notebook is executed with nbclient in a fresh python3 kernel (ipykernel from this
interpreter's environment, started in the repository root, so it imports this checkout's
``verify``); any cell that raises fails the test with the cell's error.
"""

from __future__ import annotations

from pathlib import Path

import nbclient  # the test extra installs nbclient, nbformat and ipykernel: CI never skips this
import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "examples").glob("*.ipynb"))
#: Wall-clock limit of one cell: the notebooks are meant to run in under 30 s in all.
CELL_TIMEOUT_S = 120


def test_there_is_a_notebook():
    assert [p.name for p in NOTEBOOKS] == ["check_a_lemma.ipynb"]


def _verdicts(notebook) -> list[str]:
    """The verdict cells of every outcome table the notebook shows, in order."""
    import re

    return [verdict for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs
            if output.output_type == "execute_result"
            for verdict in re.findall(r">((?:holds|fails|consistent|inconclusive)[^<]*)<",
                                      output.get("data", {}).get("text/html", ""))]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_is_committed_executed_in_order(path):
    """Read on GitHub, the notebook shows the suite's answers (scripts/execute_notebooks.py)."""
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert [cell.execution_count for cell in code] == list(range(1, len(code) + 1))
    assert all(cell.outputs for cell in code), "run python scripts/execute_notebooks.py"
    assert not [o for cell in code for o in cell.outputs if o.output_type == "error"]


@pytest.mark.extended
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_and_outcomes_display_as_html(path, tmp_path):
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(notebook, kernel_name="python3", timeout=CELL_TIMEOUT_S,
                                     resources={"metadata": {"path": str(ROOT)}})
    committed = _verdicts(nbformat.read(path, as_version=4))
    client.execute()  # raises CellExecutionError, naming the cell, if any cell fails
    assert _verdicts(notebook) == committed, "the committed outputs are stale: run scripts/execute_notebooks.py"
    shown = [output.get("data", {}) for cell in notebook.cells if cell.cell_type == "code"
             for output in cell.outputs if output.output_type == "execute_result"]
    tables = [data["text/html"] for data in shown if "verify-outcome" in data.get("text/html", "")]
    assert len(tables) == 3  # the lemma's outcome and the two claims'
    assert any(">fails (certified), statement<" in t for t in tables)  # Lemma 31
    assert any(">holds (certified)<" in t for t in tables)
    assert any(">counterexample<" in t and ">rerun<" in t for t in tables)
