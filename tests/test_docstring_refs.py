"""Every equation or section a library docstring cites exists in the book.

The docstrings name the equation each function implements (``{eq}`eq-irls-step` ``); a renamed
or mistyped label would leave a reader with a dead reference, so each target must be a label of
some chapter or book page: a labelled display equation ``$$ ... $$ (label)``, a section target
``(label)=``, or a directive's ``:label:``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ROLE = re.compile(r"\{(eq|ref|numref|prf:ref)\}`(?:[^`<]*<)?([^`<>]+)>?`")
# an inline literal (``{eq}`x` ``, or ```` ```{exercise} ```` around backticks) shows syntax, cites nothing
LITERAL = re.compile(r"````.*?````|``.*?``", re.S)


def book_labels() -> set[str]:
    pages = sorted(ROOT.glob("notebooks/[0-9][0-9]_*.py")) + sorted(ROOT.glob("book/*.md"))
    text = "\n".join(p.read_text() for p in pages)
    return (set(re.findall(r"\$\$\s*\(([A-Za-z0-9_-]+)\)", text))
            | set(re.findall(r"^#?\s*\(([A-Za-z0-9_-]+)\)=\s*$", text, re.M))
            | set(re.findall(r":label:\s*([A-Za-z0-9_-]+)", text)))


def docstring_targets() -> list[tuple[str, str, str]]:
    found = []
    for path in sorted((ROOT / "mlnotes").rglob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                doc = ast.get_docstring(node) or ""
                for role, target in ROLE.findall(LITERAL.sub("", doc)):
                    found.append((f"{path.relative_to(ROOT)}:{getattr(node, 'name', '<module>')}", role, target))
    return found


TARGETS = docstring_targets()


def test_docstrings_cite_equations():
    assert len(TARGETS) > 50  # the docstrings name their equations; the scan must see them


@pytest.mark.parametrize("where,role,target", TARGETS, ids=[f"{w}:{t}" for w, _, t in TARGETS])
def test_docstring_reference_exists_in_the_book(where, role, target):
    assert target in book_labels(), f"{where} cites {{{role}}}`{target}`, which no chapter or book page defines"


# -- every docstring renders: no stray backtick, no raw role (issue 27) ---------------------------
# The library reference (book/api) is autodoc over these docstrings: napoleon turns the numpydoc
# sections into reST, book/_ext/mlnotes_api.py the MyST roles into reST roles, docutils parses.
# A role left open (":math:`1/2 - ` ``tol``": a closing backtick after a space ends nothing)
# renders as backticks and role names on the page. Here each docstring goes the same way, with
# docutils' own parser, and the text a reader would see (outside code and maths) must hold no
# backtick, no ":role:" and no "{role}", and the parser must not have complained.
RAW = re.compile(r"`|:(?:math|eq|ref|doc|numref|prf:ref|func|class|mod|meth|attr|data|obj):|"
                 r"\{(?:eq|ref|doc|numref|prf:ref|math)\}")


def _docstrings() -> list[tuple[str, str]]:
    """The docstrings the reference shows: each ``automodule`` of book/api, its own docstring and
    its public functions and classes, with their public methods."""
    found = []
    modules = re.findall(r"automodule:: (mlnotes[\w.]*)", "".join(
        p.read_text() for p in sorted((ROOT / "book" / "api").glob("*.md"))))
    for module in modules:
        path = ROOT / (module.replace(".", "/") + ".py")
        tree = ast.parse(path.read_text())
        nodes = [tree] + [n for n in tree.body if isinstance(n, ast.ClassDef | ast.FunctionDef)]
        nodes += [m for c in tree.body if isinstance(c, ast.ClassDef) and not c.name.startswith("_")
                  for m in c.body if isinstance(m, ast.FunctionDef)]
        for node in nodes:
            name = getattr(node, "name", "<module>")
            if (doc := ast.get_docstring(node)) and not (name.startswith("_") and name != "<module>"):
                found.append((f"{path.relative_to(ROOT)}:{name}", doc))
    return found


DOCSTRINGS = _docstrings()


def rendered_problems(doc: str) -> list[str]:
    """What a reader of the rendered docstring would see that is markup: the text outside code
    and maths holding a backtick or a role, and docutils' complaints."""
    import sys

    import docutils.core
    import docutils.nodes
    from docutils.parsers.rst import roles
    from sphinx.ext.napoleon import Config
    from sphinx.ext.napoleon.docstring import NumpyDocstring

    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    from mlnotes_api import myst_roles_to_rest

    def cite(name, rawtext, text, lineno, inliner, options=None, content=None):
        return [docutils.nodes.reference(rawtext, text, refuri="#")], []

    for role in ("eq", "ref", "doc", "numref", "prf:ref", "func", "class", "mod", "meth", "attr",
                 "data", "obj", "exc", "py:func", "py:class"):
        roles.register_local_role(role, cite)
    lines = str(NumpyDocstring(doc, Config(napoleon_use_ivar=True, napoleon_google_docstring=False))).split("\n")
    myst_roles_to_rest(None, "function", "", None, {}, lines)
    tree = docutils.core.publish_doctree(
        "\n".join(lines), settings_overrides={"report_level": 2, "halt_level": 5, "warning_stream": False})
    problems = [" ".join(m.astext().split())[:160] for m in tree.findall(docutils.nodes.system_message)]
    skip = (docutils.nodes.literal, docutils.nodes.literal_block, docutils.nodes.math,
            docutils.nodes.math_block, docutils.nodes.system_message, docutils.nodes.doctest_block)
    for text in tree.findall(docutils.nodes.Text):
        parent, inside, maths = text.parent, False, False
        while parent is not None:
            inside = inside or isinstance(parent, skip)
            maths = maths or isinstance(parent, docutils.nodes.math | docutils.nodes.math_block)
            parent = parent.parent
        # (a backtick is no TeX: in maths it is the rest of a role that ran on)
        if RAW.search(text.astext()) and not inside or maths and "`" in text.astext():
            problems.append(f"shows markup: {' '.join(text.astext().split())[:160]!r}")
    return problems


def test_the_render_check_catches_an_unclosed_role():
    assert rendered_problems(r"Stops at :math:`\epsilon \ge 1/2 - ` ``tol``.")
    assert rendered_problems("Cites {eq}`eq-x and more.")
    assert not rendered_problems(r"Stops at :math:`\epsilon \ge 1/2 - \mathrm{tol}` (``tol``), {eq}`eq-x`.")


@pytest.mark.parametrize("where,doc", DOCSTRINGS, ids=[w for w, _ in DOCSTRINGS])
def test_docstring_renders_without_markup(where, doc):
    problems = rendered_problems(doc)
    assert not problems, f"{where} renders with markup showing: {problems}"
