"""The two cells every chapter starts with, so that it renders and runs wherever a student opens it.

1. The book's maths macros (``\\R``, ``\\E``, ``\\argmin``, ...). The one source is the book
   configuration, ``book/_config.yml`` (``sphinx.config.mathjax3_config.tex.macros``); this cell
   repeats them for every other place a notebook is read, in the two forms those places read:
   YAML front matter (``math:``), which jupyterlab-myst takes from a notebook's first cell, and
   ``\\def`` in inline maths, which MathJax (JupyterLab without MyST, nbviewer) and KaTeX
   (Colab) keep for the cells below. ``\\def`` rather than ``\\newcommand``: KaTeX already
   defines ``\\R`` and refuses to ``\\newcommand`` it again.
   The same front matter gives jupyterlab-myst the chapter's number (``numbering:`` with the
   enumerator ``2.%s`` and numbered headings), so JupyterLab prints the book's numbers: section
   2.1, equation (2.1), Exercise 2.5. The number comes from ``book/_toc.yml``
   (``tools.plain.chapter_numbers``); the preliminaries are Chapter 0 there and here.
2. A code cell that installs the course package when ``import mlnotes`` fails (Colab, a
   downloaded notebook), from the repository of ``book/_config.yml`` at the tag of the version
   in ``pyproject.toml``, and does nothing, silently, where the package imports (``make lab``,
   Binder, nbval, the book build).

Both are tagged ``remove-cell``: the book defines the macros itself and has the package.

After each figure it writes a cell, removed from the book, that gives jupyterlab-myst the
figure's label and caption (``:::{figure}`` with ``:label:``; the caption lives in myst-nb cell
metadata, which JupyterLab does not read), so JupyterLab numbers and captions the figures and
resolves ``{numref}`` to them as the book does (Fig. 5.2; the front matter sets the "Fig." form).

It also folds, for JupyterLab and Binder (cell metadata ``jupyter.source_hidden``), what the book
folds or hides: the code it folds (``hide-input``: the coding exercises' solutions, shown under
"Solution", and the plotting code that is not the point), the coding exercises' tests cells,
which the book removes, and the install cell.
The assignment pipeline drops this metadata: a student's answer cell is never folded.

    python book/preamble.py notebooks/*.py          # write the cells (make preamble)
    python book/preamble.py --check notebooks/*.py  # exit 1 if a chapter's cells are stale

``tests/test_preamble.py`` checks every chapter against this file.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "book" / "_config.yml"
sys.path.insert(0, str(ROOT))  # run as a script from anywhere: the course tooling is in tools/

from tools.plain import chapter_numbers, is_install_cell  # noqa: E402

# Only tags: jupytext.toml keeps no other cell metadata, so a round trip through .ipynb keeps the text.
MACROS_HEADER = '# %% [markdown] tags=["remove-cell"]'
INSTALL_HEADER = '# %% jupyter={"source_hidden": true} tags=["remove-cell"]'  # folded: see is_folded
INSTALL_TITLE = "# Install the course package if it is missing (Colab, a downloaded notebook)"


def book_config() -> dict:
    return yaml.safe_load(CONFIG.read_text())


def macros() -> dict[str, str]:
    """The book's maths macros, name (without backslash) -> TeX body."""
    return book_config()["sphinx"]["config"]["mathjax3_config"]["tex"]["macros"]


def version() -> str:
    """The package version of ``pyproject.toml`` (a regex: tomllib is not in Python 3.10)."""
    return re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), flags=re.M).group(1)


def install_requirement() -> str:
    """What the install cell asks pip for: the book's repository at the tag of this version."""
    url = book_config()["repository"]["url"].rstrip("/")
    return f"mlnotes @ git+{url}@v{version()}"


def macros_cell(stem: str) -> str:
    """The first cell of chapter ``stem`` (a file stem such as ``02_logistic_regression``)."""
    defs, number = macros(), chapter_numbers(ROOT).get(stem)
    lines = [MACROS_HEADER, "# ---", "# numbering:"]
    if number is not None:
        lines += [f"#   enumerator: '{number}.%s'", "#   headings: true"]
    lines += ["#   figure:", "#     template: Fig. %s", "# math:"]
    lines += [f"#   '\\{name}': '{body}'" for name, body in defs.items()]
    lines += ["#", "# ---"]  # a blank line first: a viewer without front matter draws a rule, not a heading
    lines += ["# $" + "".join("\\def\\" + name + "{" + body + "}" for name, body in defs.items()) + "$"]
    # the maintenance note as an HTML comment: a reader in JupyterLab sees an empty cell
    lines += ["# <!-- The book's maths macros, defined for notebook viewers (this cell is not in the book;",
              "# book/preamble.py writes it). -->"]
    return "\n".join(lines) + "\n"


def install_cell() -> str:
    return "\n".join([
        INSTALL_HEADER,
        INSTALL_TITLE,
        "import importlib",
        "",
        "try:",
        '    importlib.import_module("mlnotes")',
        "except ImportError:  # Colab or a fresh kernel: install this chapter's version",
        "    import subprocess",
        "    import sys",
        "",
        f'    requirement = "{install_requirement()}"',
        '    pip = [sys.executable, "-m", "pip", "install", "--quiet", requirement]',
        "    subprocess.run(pip, check=True)",
        "    importlib.invalidate_caches()",
    ]) + "\n"


def preamble(stem: str) -> str:
    return macros_cell(stem) + "\n" + install_cell() + "\n"


def split_header(text: str) -> tuple[str, str]:
    """The jupytext header (up to the first cell marker) and the cells."""
    m = re.search(r"^# %%", text, flags=re.M)
    return text[: m.start()], text[m.start():]


# The first line of a preamble cell, whatever metadata an earlier version of this file gave it.
PREAMBLE_CELL = re.compile(r"# %%[^\n]*\n(# ---\n# numbering:|" + re.escape(INSTALL_TITLE) + ")")


def strip_preamble(cells: str) -> str:
    """The cells without a preamble written by an earlier version of this file."""
    while m := PREAMBLE_CELL.match(cells):
        nxt = re.search(r"^# %%", cells[m.end():], flags=re.M)
        cells = cells[m.end() + nxt.start():] if nxt else ""
    return cells


def with_preamble(text: str, stem: str) -> str:
    header, cells = split_header(text)
    return notebook_cells(header + preamble(stem) + strip_preamble(cells))


def is_solution(cell) -> bool:
    """A coding exercise's solution: a code cell the book folds under "Solution"."""
    return (cell.cell_type == "code" and "hide-input" in cell.metadata.get("tags", [])
            and cell.metadata.get("mystnb", {}).get("code_prompt_show") == "Solution")


def is_test_cell(cell) -> bool:
    """A coding exercise's tests cell: code the book removes (``remove-cell``), other than the install cell."""
    return (cell.cell_type == "code" and "remove-cell" in cell.metadata.get("tags", [])
            and not is_install_cell(cell))


def is_hidden_input(cell) -> bool:
    """Code the book folds (``hide-input``): a solution (:func:`is_solution`) or a figure's plotting."""
    return cell.cell_type == "code" and "hide-input" in cell.metadata.get("tags", [])


def is_folded(cell) -> bool:
    """Folded in notebook front ends: code the book folds, a tests cell, and the install cell
    (its first line, a comment, says what it does; its pip plumbing is not the chapter, and the
    plain copies fold it too, as a Colab form)."""
    return is_hidden_input(cell) or is_test_cell(cell) or is_install_cell(cell)


def is_lab_caption(cell) -> bool:
    """A figure's caption for jupyterlab-myst, written by :func:`notebook_cells`."""
    return (cell.cell_type == "markdown" and "remove-cell" in cell.metadata.get("tags", [])
            and cell.source.startswith(":::{figure}\n:label: "))


def lab_caption(figure: dict):
    """The cell after a figure that gives jupyterlab-myst its label and caption: JupyterLab reads
    no myst-nb metadata, so without it a figure has no number or caption there and
    ``{numref}`fig-x``` prints the bare label. The book removes the cell (it has the figure)."""
    import nbformat

    source = f":::{{figure}}\n:label: {figure['name']}\n{figure.get('caption', '')}\n:::"
    return nbformat.v4.new_markdown_cell(source, metadata={"tags": ["remove-cell"]})


def notebook_cells(text: str) -> str:
    """The chapter as notebook front ends need it: its solutions and tests folded
    (:func:`is_folded`), and each figure followed by its :func:`lab_caption`."""
    import jupytext
    from jupytext.config import load_jupytext_config

    nb = jupytext.reads(text, fmt="py:percent")
    cells = []
    for cell in nb.cells:
        if is_lab_caption(cell):
            continue  # written afresh below, from the figure's metadata
        meta = {k: v for k, v in cell.metadata.items() if k != "jupyter"}
        if is_folded(cell):
            meta["jupyter"] = {"source_hidden": True}
        cell.metadata = dict(sorted(meta.items()))  # the key order of the .ipynb's JSON
        cells.append(cell)
        figure = cell.metadata.get("mystnb", {}).get("figure", {}) if cell.cell_type == "code" else {}
        if "name" in figure:
            cells.append(lab_caption(figure))
    nb.cells = cells
    return jupytext.writes(nb, fmt="py:percent", config=load_jupytext_config(str(ROOT / "notebooks")))


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for name in [a for a in argv if a != "--check"]:
        path = Path(name)
        text = path.read_text()
        new = with_preamble(text, path.stem)
        if new != text:
            stale.append(name)
            if not check:
                path.write_text(new)
    if stale:
        print(("stale preamble: " if check else "wrote the preamble of: ") + " ".join(stale))
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
