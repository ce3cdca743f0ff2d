"""Show a coding exercise's reference solution in the book without otter's marker lines.

The answer cell of a coding exercise marks the lines a student must write with
``# BEGIN SOLUTION`` and ``# END SOLUTION`` (otter-grader replaces them by ``...`` in the student
notebook; CONTRIBUTING.md, "Exercises"). They mean nothing to a reader of the book, who sees the
cell folded under "Solution", so they are dropped from every code block of the chapters here; the
notebooks keep them, and the plain copies drop them too (``tools/plain.py``).
"""

from __future__ import annotations

import re

from docutils import nodes

MARKER = re.compile(r"^[ \t]*# (BEGIN|END) SOLUTION[ \t]*\n", flags=re.M)


def drop_otter_markers(app, doctree) -> None:
    for block in doctree.findall(nodes.literal_block):
        text = block.astext()
        if MARKER.search(text + "\n"):
            block.children = [nodes.Text(MARKER.sub("", text + "\n").rstrip("\n"))]
            block.rawsource = block.astext()


def setup(app):
    app.connect("doctree-read", drop_otter_markers)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
