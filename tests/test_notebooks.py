"""The chapters as files: each .ipynb is the executed twin of its .py.

The pairing check converts each .ipynb to py:percent and compares it with the .py, so it does
not depend on file timestamps (``jupytext --sync`` does, and can silently drop edits). nbval in
strict mode (``make nbval``) re-runs every cell and compares outputs, but it passes a cell that
was never executed: the check here closes that gap.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_there_are_chapters():
    assert SCRIPTS, "no chapter scripts in notebooks/"


@pytest.mark.parametrize("py", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_ipynb_converts_back_to_its_script(py):
    nb = py.with_suffix(".ipynb")
    assert nb.exists(), f"{py.name} has no paired {nb.name}: run make notebooks NB={py.relative_to(ROOT)}"
    converted = subprocess.run(
        [sys.executable, "-m", "jupytext", "--to", "py:percent", "-o", "-", str(nb)],
        capture_output=True, text=True, check=True, cwd=ROOT,
    ).stdout
    assert converted == py.read_text(), (
        f"{nb.name} is not the notebook of {py.name}: regenerate it with make notebooks NB={py.relative_to(ROOT)}"
    )


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_every_code_cell_was_executed_without_error(nb):
    cells = json.loads(nb.read_text())["cells"]
    code = [c for c in cells if c["cell_type"] == "code" and "".join(c["source"]).strip()]
    never = [i for i, c in enumerate(code) if c.get("execution_count") is None]
    assert not never, f"{nb.name}: code cells {never} were never executed (nbval would skip them)"
    counts = [c["execution_count"] for c in code]
    assert counts == list(range(1, len(code) + 1)), f"{nb.name}: cells were not run once, top to bottom"
    errors = [o for c in code for o in c.get("outputs", []) if o["output_type"] == "error"]
    assert not errors, f"{nb.name} has error outputs"
    # an exception while rendering a figure is printed to stderr, not raised: catch it too
    tracebacks = [
        i for i, c in enumerate(code) for o in c.get("outputs", [])
        if o.get("name") == "stderr" and "Traceback" in "".join(o.get("text", ""))
    ]
    assert not tracebacks, f"{nb.name}: code cells {tracebacks} printed a traceback"


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_outputs_are_deterministic_in_form(nb):
    """No timing metadata, no raster figures (figures are SVG, see mlnotes/plots.py), no memory
    addresses, no date in a figure (matplotlib stamps each SVG with the time it was drawn, so
    every regeneration rewrote every figure of the diff)."""
    text = nb.read_text()
    data = json.loads(text)
    for c in data["cells"]:
        assert "execution" not in c.get("metadata", {}), f"{nb.name} carries timing metadata"
        for o in c.get("outputs", []):
            assert "image/png" not in o.get("data", {}), f"{nb.name} has a PNG figure"
    assert " at 0x" not in text, f"{nb.name} prints a memory address"
    assert "<dc:date>" not in text, f"{nb.name} has a figure stamped with its date"


def test_every_notebook_has_its_script():
    orphans = [nb.name for nb in NOTEBOOKS if not nb.with_suffix(".py").exists()]
    assert not orphans


@pytest.mark.parametrize("py", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_reference_solutions_are_collapsed_in_the_book(py):
    """A coding exercise's answer cell is tagged hide-input: the book shows it folded."""
    cells = re.split(r"^(?=# %%)", py.read_text(), flags=re.M)
    open_solutions = [
        c.splitlines()[0] for c in cells
        if "# BEGIN SOLUTION" in c and "[raw]" not in c.splitlines()[0] and "hide-input" not in c.splitlines()[0]
    ]
    assert not open_solutions, f"{py.name}: answer cells without the hide-input tag: {open_solutions}"


@pytest.mark.parametrize("py", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_coding_solutions_fold_under_solution(py):
    """The book's fold over a coding exercise's answer reads "Solution", not "Show code cell"."""
    cells = py.read_text().split("\n# %%")
    answers = [c for c in cells if "# BEGIN SOLUTION" in c and "hide-input" in c.splitlines()[0]]
    unlabelled = [c.splitlines()[1] for c in answers if '"code_prompt_show": "Solution"' not in c.splitlines()[0]]
    assert not unlabelled, f"{py.name}: answer cells folded without the Solution label: {unlabelled}"


def _code_lines(py: Path):
    """(line number, line) of every line of the chapter's code cells (not its Markdown)."""
    prose = False
    for k, line in enumerate(py.read_text().split("\n"), 1):
        if line.startswith("# %%"):
            prose = "[markdown]" in line or "[raw]" in line
        elif not prose:
            yield k, line


@pytest.mark.parametrize("py", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_chapter_code_fits_88_columns(py):
    # a longer line wraps on screen and on paper, and its continuation reads as a new statement
    long = [f"{py.name}:{k} ({len(line)})" for k, line in _code_lines(py) if len(line) > 88]
    assert not long, f"code lines over 88 columns: {long}"


def _output_lines(py: Path):
    """(cell number, line) of every line of text the chapter prints (streams and plain-text
    results; not the HTML of a claim's folded code, nor images)."""
    import json

    nb = json.loads(py.with_suffix(".ipynb").read_text())
    for n, cell in enumerate(nb["cells"]):
        for out in cell.get("outputs", []):
            text = out.get("text") or (out.get("data", {}).get("text/plain")
                                        if "text/html" not in out.get("data", {}) else None)
            for line in "".join(text or []).split("\n"):
                yield n, line


@pytest.mark.parametrize("py", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_chapter_outputs_fit_88_columns(py):
    # printed like code (monospaced, never wrapped): a longer line scrolls on screen and is
    # set smaller on paper
    long = [f"cell {n}: {line[:40]}... ({len(line)})" for n, line in _output_lines(py)
            if len(line) > 88]
    assert not long, f"output lines over 88 columns: {long}"
