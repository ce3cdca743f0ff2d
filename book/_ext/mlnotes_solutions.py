"""Every exercise's solution in one widget, and coding solutions without otter's marker lines.

**One widget.** A conceptual exercise's solution is a sphinx-exercise ``{solution}`` with
``:class: dropdown`` (sphinx-togglebutton's "Click to show" box); a coding exercise's solution is
a code cell that myst-nb folds under "Solution" (``hide-input``, a ``<details>``). The reader
would meet two widgets that look and open differently for the same thing, so the first is
rebuilt as the second: every solution of the HTML book is myst-nb's ``<details>``, its summary
"Solution to Exercise 1.3" (the coding ones name the exercise above them, as the plain copies do,
``tools/plain.py``) and "Hide solution" once open.

**No otter markers.** The answer cell of a coding exercise marks the lines a student must write
with ``# BEGIN SOLUTION`` and ``# END SOLUTION`` (otter-grader replaces them by ``...`` in the
student notebook; CONTRIBUTING.md, "Exercises"). They mean nothing to a reader of the book, so
they are dropped from every code block of the chapters here; the notebooks keep them, and the
plain copies drop them too.
"""

from __future__ import annotations

import re

from docutils import nodes
from myst_nb.sphinx_ import HideCodeCellNode
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx_exercise.nodes import exercise_enumerable_node, solution_node

MARKER = re.compile(r"^[ \t]*# (BEGIN|END) SOLUTION[ \t]*\n", flags=re.M)
CELL_CLASSES = ["cell", "mlnotes-solution-cell"]
SHOW, HIDE = "Solution", "Hide solution"  # myst-nb's prompts for a coding solution (the chapters' metadata)


def drop_otter_markers(app, doctree) -> None:
    for block in doctree.findall(nodes.literal_block):
        text = block.astext()
        if MARKER.search(text + "\n"):
            block.children = [nodes.Text(MARKER.sub("", text + "\n").rstrip("\n"))]
            block.rawsource = block.astext()


def _folded(prompt: str, children, ids=()) -> nodes.container:
    fold = HideCodeCellNode(prompt_show=prompt, prompt_hide=HIDE, classes=["above-input", "mlnotes-solution"])
    fold.extend(children)
    # "cell": myst-nb's rules for a fold (one label at a time, the marker beside it) are
    # scoped to div.cell, so without it both labels show and the marker sits on its own line
    return nodes.container("", fold, ids=list(ids), classes=CELL_CLASSES)


class OneSolutionWidget(SphinxPostTransform):
    """After sphinx-exercise has numbered the titles (priority 20-21) and myst-nb has folded the
    hidden cells (199)."""

    default_priority = 250
    formats = ("html",)

    def run(self, **kwargs) -> None:
        exercise = None
        for node in list(self.document.findall(lambda n: isinstance(
                n, (exercise_enumerable_node, solution_node, HideCodeCellNode)))):
            if isinstance(node, exercise_enumerable_node):
                numbers = self.env.toc_fignumbers.get(node.get("docname", ""), {}).get("exercise", {})
                number = numbers.get((node["ids"] or [""])[0])
                exercise = "Exercise " + ".".join(map(str, number)) if number else None
            elif isinstance(node, solution_node):
                titles = [c for c in node.children if isinstance(c, nodes.title)]
                prompt = " ".join(titles[0].astext().split()) if titles else SHOW
                body = [c for c in node.children if not isinstance(c, nodes.title)]
                folded = _folded(prompt, body, node["ids"])
                node.replace_self(folded)
                folded["classes"] = list(CELL_CLASSES)  # (replace_self copied "dropdown")
            elif node.get("prompt_show") == SHOW and "mlnotes-solution" not in node["classes"]:
                node["prompt_show"] = f"{SHOW} to {exercise}" if exercise else SHOW
                node["classes"].append("mlnotes-solution")


def setup(app):
    app.connect("doctree-read", drop_otter_markers)
    app.add_post_transform(OneSolutionWidget)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
