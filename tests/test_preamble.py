"""Every chapter starts with the two cells of ``book/preamble.py``: the book's maths macros for
notebook viewers, and the install cell that makes a chapter run on Colab or from a download."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

import mlnotes

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
spec = importlib.util.spec_from_file_location("preamble", ROOT / "book" / "preamble.py")
preamble = importlib.util.module_from_spec(spec)
spec.loader.exec_module(preamble)


@pytest.mark.parametrize("py", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_every_chapter_starts_with_the_current_preamble(py):
    header, cells = preamble.split_header(py.read_text())
    assert cells.startswith(preamble.preamble(py.stem)), (
        f"{py.name}: the first cells are not book/preamble.py's; run python book/preamble.py {py}"
    )


def test_a_preamble_written_by_an_earlier_version_is_replaced_not_repeated():
    """make preamble on a chapter whose install cell has the metadata of an earlier version of
    book/preamble.py (it was not folded) replaces that cell instead of adding a second one."""
    py = SCRIPTS[2]
    current = py.read_text()
    earlier = current.replace(preamble.INSTALL_HEADER, '# %% tags=["remove-cell"]', 1)
    assert earlier != current
    assert preamble.with_preamble(earlier, py.stem) == current


def test_macros_come_from_the_book_config():
    cell = preamble.macros_cell("01_linear_regression")
    macros = preamble.macros()
    assert {"R", "E", "argmin", "sign", "diag"} <= set(macros)
    for name, body in macros.items():
        assert f"'\\{name}': '{body}'" in cell  # jupyterlab-myst's front matter
        assert f"\\def\\{name}{{{body}}}" in cell  # MathJax and KaTeX elsewhere


def test_jupyterlab_numbers_as_the_book_does():
    """jupyterlab-myst reads the chapter's number from the front matter: (2.1), Exercise 2.5, §2.1;
    the preliminaries are Chapter 0 in the book's table of contents, and in JupyterLab."""
    assert "#   enumerator: '2.%s'\n#   headings: true\n" in preamble.macros_cell("02_logistic_regression")
    assert "#   enumerator: '0.%s'\n" in preamble.macros_cell("00_notation")


@pytest.mark.parametrize("py", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_every_figure_has_its_caption_for_jupyterlab(py):
    """Right after each figure, the cell that gives jupyterlab-myst its label and caption."""
    import jupytext

    cells = jupytext.read(py).cells
    figures = [i for i, c in enumerate(cells) if "figure" in c.metadata.get("mystnb", {})]
    assert figures or "plt." not in py.read_text()
    for i in figures:
        figure = cells[i].metadata["mystnb"]["figure"]
        assert cells[i + 1].source == preamble.lab_caption(figure).source and preamble.is_lab_caption(cells[i + 1])
    assert sum(preamble.is_lab_caption(c) for c in cells) == len(figures)


def test_install_cell_pins_the_version_the_book_is_built_from():
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'^version = "(.+)"', pyproject, flags=re.M).group(1) == mlnotes.__version__
    assert preamble.install_requirement().endswith(f"@v{mlnotes.__version__}")
    assert preamble.install_requirement().startswith(f"mlnotes @ git+{preamble.book_config()['repository']['url']}")


def _install_code() -> str:
    return "\n".join(line for line in preamble.install_cell().splitlines() if not line.startswith("# %%"))


def test_install_cell_does_nothing_where_mlnotes_imports():
    # subprocess.run is replaced by a function that fails: the cell must not call it, nor print.
    probe = "import subprocess\nsubprocess.run = lambda *a, **k: (_ for _ in ()).throw(AssertionError('pip'))\n"
    out = subprocess.run([sys.executable, "-c", probe + _install_code()], capture_output=True, text=True,
                         cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "" and out.stderr == ""


def test_install_cell_installs_where_mlnotes_is_missing(tmp_path):
    # A kernel without mlnotes (its import blocked) calls pip with the pinned requirement.
    probe = (
        "import sys, subprocess\n"
        "sys.modules['mlnotes'] = None  # import mlnotes raises ImportError\n"
        "calls = []\n"
        "subprocess.run = lambda args, **k: calls.append(args)\n"
    )
    check = "\nprint(calls[0][-1])\n"
    out = subprocess.run([sys.executable, "-c", probe + _install_code() + check], capture_output=True,
                         text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == preamble.install_requirement()


@pytest.mark.parametrize("py", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_solutions_and_tests_are_folded_in_notebooks(py):
    """JupyterLab and Binder fold (jupyter.source_hidden) what the book folds or hides: the coding
    solutions, the plotting code, the tests and the install cell, in the .py (what make lab opens)
    and in the .ipynb."""
    import jupytext
    import nbformat

    assert preamble.notebook_cells(py.read_text()) == py.read_text(), f"run python book/preamble.py {py}"
    for nb in (jupytext.read(py), nbformat.read(py.with_suffix(".ipynb"), as_version=4)):
        hidden = [c for c in nb.cells if c.metadata.get("jupyter", {}).get("source_hidden")]
        folded = [c for c in nb.cells if preamble.is_folded(c)]
        assert hidden == folded and all(c.cell_type == "code" for c in hidden)
    if "QUESTION" in py.read_text():
        assert any(preamble.is_solution(c) for c in jupytext.read(py).cells)


def test_assignment_notebooks_do_not_fold_answer_cells():
    sys.path.insert(0, str(ROOT))
    from tools.assignments import master_notebook

    nb = master_notebook(ROOT / "notebooks" / "01_linear_regression.py")
    assert not any("jupyter" in c.metadata for c in nb.cells)
