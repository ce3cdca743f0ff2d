"""The student edition: the book and the chapter notebooks without solutions.

Threat: the open book publishes every solution (the conceptual exercises' dropdowns, the
reference answers of the coding questions), so a course that grades the exercises for credit
hands its students the answers. A teacher who does publishes this edition instead: the same
chapters, derivations, figures and outputs, with

- each coding answer cell's lines between ``# BEGIN SOLUTION`` and ``# END SOLUTION`` replaced by
  ``...`` (the ``def`` line stays, as in the student notebook of an assignment), shown unfolded:
  a template, not a "Solution" to reveal;
- every ``{solution}`` block of the conceptual exercises removed;
- each question's tests cell cut down to its visible cases (the hidden ones, generators and
  properties, go: the autograder has them).

:func:`strip_notebook` does this to one notebook; :func:`build_edition` writes the stripped
notebooks (and their plain copies, ``tools/plain.py``) beside a copy of ``book/`` and renders that book from the
committed outputs, without executing anything (an answer reduced to ``...`` would fail the
cells that test it). ``make student-edition`` runs it; ``book/teaching.md`` says what stays
public.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import yaml

from ..plain import write_all as write_plain_copies

ROOT = Path(__file__).resolve().parents[2]
_SOLUTION_LINES = re.compile(r"^([ \t]*)# BEGIN SOLUTION[^\n]*\n.*?^[ \t]*# END SOLUTION[^\n]*(\n|$)",
                             re.MULTILINE | re.DOTALL)
# a {solution} directive with its fence (``` or ::: of any length) and everything up to the
# matching closing fence
_SOLUTION_BLOCK = re.compile(r"^(?P<fence>`{3,}|:{3,})\{solution\}.*?^(?P=fence)[ \t]*\n?",
                             re.MULTILINE | re.DOTALL)
_QUESTION = re.compile(r"^# QUESTION \{", re.MULTILINE)
_CASE = re.compile(r"^# (HIDDEN )?TEST\b", re.MULTILINE)


def strip_source(source: str) -> str:
    """A code cell without its solution lines: each marked block becomes one ``...``."""
    return _SOLUTION_LINES.sub(lambda m: f"{m.group(1)}...\n", source)


def visible_cases(source: str) -> str:
    """A tests cell without its hidden cases (the header and the visible cases stay)."""
    starts = [m.start() for m in _CASE.finditer(source)] + [len(source)]
    kept = [source[: starts[0]]]
    for begin, end in zip(starts, starts[1:], strict=False):
        if not source.startswith("# HIDDEN TEST", begin):
            kept.append(source[begin:end])
    return "".join(kept).rstrip("\n")


def strip_notebook(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """``nb`` (a chapter, executed) with its solutions removed: see the module docstring."""
    nb = nbformat.from_dict(nb)  # a copy
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = _SOLUTION_BLOCK.sub("", cell.source)
        elif cell.cell_type == "code" and _QUESTION.search(cell.source):
            cell.source = visible_cases(cell.source)
        elif cell.cell_type == "code" and "# BEGIN SOLUTION" in cell.source:
            cell.source = strip_source(cell.source)
            cell.outputs = []  # an answer cell's output (rare) would show its result
            _unfold(cell)  # what is left is the template to fill in, not a solution to reveal
    return nb


def _unfold(cell: nbformat.NotebookNode) -> None:
    """Show a code cell's source in place: no "Solution" toggle around a template."""
    tags = cell.metadata.get("tags", [])
    cell.metadata["tags"] = [t for t in tags if t != "hide-input"]
    if not cell.metadata["tags"]:
        del cell.metadata["tags"]
    cell.metadata.pop("mystnb", None)
    cell.metadata.get("jupyter", {}).pop("source_hidden", None)


def build_edition(out: Path, root: Path = ROOT, html: bool = True) -> Path:
    """Write ``out/src`` (``book/`` and the stripped notebooks) and, with ``html``, render it to
    ``out/html``; return ``out``."""
    out = Path(out).resolve()
    src = out / "src"
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(root / "book", src / "book", ignore=shutil.ignore_patterns("_build"))
    (src / "notebooks").mkdir(parents=True, exist_ok=True)
    for path in sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        nbformat.write(strip_notebook(nbformat.read(path, as_version=4)), src / "notebooks" / path.name)
    write_plain_copies(root=src)  # the Colab and download copies, from the stripped chapters
    config = yaml.safe_load((root / "book" / "_config.yml").read_text())
    config["execute"]["execute_notebooks"] = "off"  # render the committed outputs
    config["title"] = f"{config.get('title', 'mlnotes')} (student edition)"
    (src / "book" / "_config_edition.yml").write_text(yaml.safe_dump(config, sort_keys=False))
    if html:
        shutil.rmtree(out / "html", ignore_errors=True)
        subprocess.run([str(Path(sys.executable).with_name("jupyter-book")), "build", str(src),
                        "--config", str(src / "book" / "_config_edition.yml"),
                        "--toc", str(src / "book" / "_toc.yml"), "--path-output", str(out / "html"),
                        "--all"], check=True, cwd=src)
    return out
