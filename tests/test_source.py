"""show_source displays a library function's code from the code itself."""

from __future__ import annotations

import ast
import inspect
import pathlib

import pytest

from mlnotes import show_source, svm


def test_show_source_is_the_functions_own_code():
    s = show_source(svm.smo_basic)
    text = inspect.getsource(svm.smo_basic)
    assert s.name == "mlnotes.svm.smo_basic" and repr(s) == text
    assert s._repr_markdown_() == f"```python\n{text}```\n"  # a fenced block: Jupyter and the book highlight it


def test_show_source_rejects_a_non_function():
    with pytest.raises(TypeError, match="func must be a function"):
        show_source("smo")


# -- no function longer than about 80 lines (issue 15: a student reads the library) -------------
MAX_CODE_LINES = 80


def _code_lines(node: ast.FunctionDef) -> int:
    """Lines of a function's body after its docstring (comments and blank lines inside count)."""
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        if len(body) == 1:
            return 0
        return node.end_lineno - body[0].end_lineno
    first = min([body[0], *getattr(body[0], "decorator_list", [])], key=lambda n: n.lineno)
    return node.end_lineno - first.lineno + 1


def _functions():
    """(name, lines of code) of every function and method in mlnotes/, nested ones included."""
    root = pathlib.Path(__file__).resolve().parent.parent / "mlnotes"
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield f"{path.relative_to(root.parent)}::{node.name} (line {node.lineno})", _code_lines(node)


def test_code_lines_skips_the_docstring_only():
    src = 'def f(x):\n    """Doc.\n\n    More doc.\n    """\n    # a comment\n\n    y = x + 1\n    return y\n'
    assert _code_lines(ast.parse(src).body[0]) == 4  # the comment, the blank line, two statements
    assert _code_lines(ast.parse('def g():\n    """Only a docstring."""\n').body[0]) == 0
    assert _code_lines(ast.parse("def h():\n    return 1\n").body[0]) == 1


def test_no_function_longer_than_80_lines_of_code():
    long = {name: n for name, n in _functions() if n > MAX_CODE_LINES}
    assert not long, f"split into named steps (at most {MAX_CODE_LINES} lines of code each): " + "; ".join(
        f"{name} has {n} lines of code" for name, n in sorted(long.items()))
