"""show_source displays a library function's code from the code itself."""

from __future__ import annotations

import ast
import inspect
import pathlib
import re

import pytest

from mlnotes import show_source, svm
from mlnotes.logistic import _check_problem


def test_show_source_is_the_functions_own_code():
    """The listing is the source itself, less the docstring and the argument checks, numbered."""
    s = show_source(svm.smo_basic)
    text = inspect.getsource(svm.smo_basic)
    assert s.name == "mlnotes.svm.smo_basic" and s.dropped == ["docstring", "argument checks"]
    assert s.lines[0].startswith("def smo_basic(") and all(line in text.splitlines() for line in s.lines)
    assert '"""' not in s.text and "check_X_y" not in s.text and "K = kernels.gram(" in s.text
    assert repr(s).startswith("  1 def smo_basic(")  # numbered from the signature
    html = s._repr_html_()  # the book and JupyterLab show this one: highlighted, numbered, linked
    assert 'class="linenos"' in html and 'href="../book/api/svm.html#mlnotes.svm.smo_basic"' in html
    assert "docstring and argument checks left out" in html


def _checks_without_docstring(X, y, lam, tol, max_iter, w0):
    X, y, lam, tol, max_iter, w = _check_problem(X, y, lam, tol, max_iter, w0)
    return X @ w


def test_a_listing_drops_only_what_is_there():
    from mlnotes import logistic

    s = show_source(_checks_without_docstring)  # its first line checks the arguments
    assert s.dropped == ["argument checks"]
    assert s.lines[0].startswith("def _checks_without_docstring(")
    assert "_check_problem" not in s.text and "left out" in s._repr_html_()
    whole = show_source(logistic._halving_step)  # a docstring, no checks
    assert whole.dropped == ["docstring"] and whole.lines[1].strip() == "t = 1.0"


# -- the Implementation sections cite the listings' line numbers (issue 27) ----------------------
CHAPTERS = sorted((pathlib.Path(__file__).resolve().parent.parent / "notebooks").glob("[0-9][0-9]_*.py"))
CITE = re.compile(r"\blines? (\d+)(?:[-\u2013](\d+))?(?: \(`([^`]+)`\))?")
MAX_LISTING = 60  # "about 60 lines" on screen: a longer function is shown as its named steps


def _listings(py: pathlib.Path):
    """(listing, the markdown that follows it) for every show_source cell of a chapter: each
    listing made now by show_source, from the chapter's own imports."""
    import jupytext

    cells = jupytext.read(py).cells
    namespace: dict = {}
    imports = []
    for c in cells:  # every top-level import of the chapter, a parenthesised one too
        if c.cell_type != "code":
            continue
        source = "\n".join(line for line in c.source.splitlines() if not line.startswith(("%", "!")))
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        imports += [ast.get_source_segment(source, node) for node in tree.body
                    if isinstance(node, (ast.Import, ast.ImportFrom))]
    exec("\n".join(imports), namespace)
    found = []
    for i, cell in enumerate(cells):
        call = re.search(r"^show_source\((.+)\)\s*$", cell.source, flags=re.M) if cell.cell_type == "code" else None
        if call:
            text = []
            for after in cells[i + 1:]:
                if after.cell_type != "markdown":
                    break
                text.append(after.source)
            found.append((eval(call[1], namespace), "\n".join(text)))
    return found


@pytest.mark.parametrize("py", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_cited_line_numbers_are_the_listings(py):
    """Every "line N" / "lines N-M" of the text after a listing is a line of that listing, and
    "line N (`code`)" names code that is on it."""
    for func, text in _listings(py):
        s = show_source(func)
        assert len(s.lines) <= MAX_LISTING, f"{s.name}: a listing of {len(s.lines)} lines"
        for first, last, code in CITE.findall(text):
            first, last = int(first), int(last or first)
            assert 1 <= first <= last <= len(s.lines), (
                f"{py.stem} cites line {first}-{last} of {s.name} ({len(s.lines)} lines)")
            if code:
                shown = "\n".join(s.lines[first - 1:last])
                assert code in shown, f"{py.stem}: line {first} of {s.name} is {shown!r}, not {code!r}"


def test_some_walkthrough_cites_line_numbers():
    cited = sum(len(CITE.findall(text)) for py in CHAPTERS for _, text in _listings(py))
    assert cited >= 10, cited


MAX_COLUMNS = 88  # a listing line wider than the book's column is cut or scrolled


def test_no_listing_line_longer_than_88_columns():
    """Every line of every listing a chapter shows fits in 88 columns (issue 27)."""
    long = [f"{py.stem}: {s.name} line {i} ({len(line)} columns)"
            for py in CHAPTERS for s in {show_source(f).name: show_source(f) for f, _ in _listings(py)}.values()
            for i, line in enumerate(s.lines, 1) if len(line) > MAX_COLUMNS]
    assert not long, f"{len(long)} listing lines over {MAX_COLUMNS} columns: " + "; ".join(long)


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
