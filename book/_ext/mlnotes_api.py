"""The library reference appendix: autodoc on mlnotes, with the docstrings' MyST roles made reST.

The docstrings are written for two readers: ``help()`` in a notebook and this appendix. They
cite the book with MyST roles ({eq}`eq-irls-step`, {ref}`sec-separation`, {doc}`...`), which
autodoc, parsing reST, would print raw; this hook rewrites each to its reST twin, so every
function links to the equation and section it implements. napoleon reads the numpydoc sections.
"""

from __future__ import annotations

import re

_ROLE = re.compile(r"\{(eq|ref|doc|numref|prf:ref)\}`([^`]+)`")


def myst_roles_to_rest(app, what, name, obj, options, lines) -> None:
    for i, line in enumerate(lines):
        lines[i] = _ROLE.sub(r":\1:`\2`", line)


def setup(app):
    app.connect("autodoc-process-docstring", myst_roles_to_rest)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
