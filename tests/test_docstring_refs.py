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
