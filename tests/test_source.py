"""show_source displays a library function's code from the code itself."""

from __future__ import annotations

import ast
import functools
import html
import inspect
import io
import pathlib
import re
import textwrap
import tokenize

import pytest

from mlnotes import _validation, boosting, logistic, show_source, svm
from mlnotes._source import _is_check
from mlnotes._validation import as_float_array, check_int, check_positive
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
    s = show_source(_checks_without_docstring)  # its first line checks the arguments
    assert s.dropped == ["argument checks"]
    assert s.lines[0].startswith("def _checks_without_docstring(")
    assert "_check_problem" not in s.text and "left out" in s._repr_html_()
    whole = show_source(logistic._halving_step)  # a docstring, no checks
    assert whole.dropped == ["docstring"] and whole.lines[1].strip() == "t = 1.0"


# -- the listing's rule, checked against each function's own source (issue 32's triage) ---------
# Fixtures: each is shown by show_source and compared with its source as read by ast and
# tokenize; ``checks`` is the number of statements after the docstring that open the function's
# argument-checking preamble, as the function was written.

def _plain(x):
    # a comment just above the first statement stays with it
    y = x + 1
    return y


def _comment_under_the_docstring(x):
    """A comment right under the docstring stays."""
    # it opens the code
    y = x + 1
    return y


def _comments_after_a_blank_line(x, lam):
    """Checks, a blank line, two comment lines, then the code."""
    x = as_float_array(x, "x")
    lam = _validation.check_positive(lam, "lam")

    # the comment block above the first statement shown
    # stays whole, the blank line above it does not
    y = lam * x
    return y


def _comment_under_the_checks(x, lam):
    """One check, a comment right under it."""
    lam = check_positive(lam, "lam")
    # the code starts here
    y = lam * x
    z = y + 1
    return z


def _if_that_raises(x, n):
    """An if whose branches only raise or check belongs to the checks; one that computes does not."""
    if x < 0:
        raise ValueError("x must be non-negative")
    if n is None:
        n = check_int(1, "n")
    elif n > 10:
        raise ValueError("n at most 10")
    else:
        n = check_int(n, "n")
    if x > 1:
        x = x / 2
    return x * n


def _annotated(x):
    X: float = as_float_array(x, "x")
    n: int
    n = len(X)
    return n


def _calls_through_a_subscript(fs, x):
    y = fs[0](x)
    return y


def _loop_of_checks(xs):
    """A loop is no check, even a loop of checks."""
    for x in xs:
        check_positive(x, "x")
    return len(xs)


def _outer_call_decides(x):
    y = float(check_positive(x, "x"))
    return y


def _only_a_docstring():
    """Nothing but a docstring."""


def _only_a_check():
    """The last statement is shown, even a check."""
    raise NotImplementedError


def _a_string_line_like_a_comment(x, lam):
    x = check_positive(x, "x")
    lam = check_positive(lam, """lam,
# a line of a string, not a comment""")
    return x + lam


def _docstring_ending_like_a_comment(x):
    """A docstring whose last line looks like a comment:
    # a line of the docstring"""
    # a comment
    return x


def _long_signature(
    x,
    lam,
):
    """A signature over four lines."""
    lam = _check_problem(x, lam, None, None, None, None)
    return x


def _logged(f):
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        return f(*args, **kwargs)
    return wrapper


@_logged
def _decorated(x):
    """Its decorator is shown with the def line."""
    x = check_positive(x, "x")
    return x


class _Estimator:
    def fit(self, X):
        """A method checking through self."""
        X = self._check_X(X)
        self.X = X
        return self

    def _check_X(self, X):
        return X


LISTINGS = [  # (function, statements of its checks)
    (_plain, 0), (_comment_under_the_docstring, 0), (_comments_after_a_blank_line, 2),
    (_comment_under_the_checks, 1), (_if_that_raises, 2), (_annotated, 1), (_calls_through_a_subscript, 0),
    (_loop_of_checks, 0), (_outer_call_decides, 0), (_only_a_docstring, 0), (_only_a_check, 0),
    (_a_string_line_like_a_comment, 2), (_docstring_ending_like_a_comment, 0), (_long_signature, 1),
    (_decorated, 1), (_Estimator.fit, 1), (_checks_without_docstring, 1),
]


def _expected_lines(func, checks: int) -> list[str]:
    """The listing by its rule, from ``func``'s source: the decorators and the def line(s), then
    everything from the first statement after the docstring and the ``checks`` statements, with
    the comment lines (tokenize's comments) just above it, below the last line left out."""
    text = textwrap.dedent(inspect.getsource(func))
    lines = text.splitlines()
    node = ast.parse(text).body[0]
    statements = node.body[1:] if ast.get_docstring(node) is not None else node.body
    head = node.body[0].lineno - 1
    left_out = node.body[:len(node.body) - len(statements) + checks]
    last = max([head] + [n.end_lineno for n in left_out])
    first = statements[checks].lineno if checks < len(statements) else len(lines) + 1
    comments = {t.start[0] for t in tokenize.generate_tokens(io.StringIO(text).readline)
                if t.type == tokenize.COMMENT and t.line.lstrip().startswith("#")}
    while first - 1 > last and first - 1 in comments:
        first -= 1
    return lines[:head] + lines[first - 1:]


@pytest.mark.parametrize("func, checks", LISTINGS, ids=[f.__name__ for f, _ in LISTINGS])
def test_a_listing_leaves_out_the_docstring_and_the_checks_only(func, checks):
    s = show_source(func)
    has_doc = ast.get_docstring(ast.parse(textwrap.dedent(inspect.getsource(func))).body[0]) is not None
    assert s.lines == _expected_lines(func, checks)
    assert s.dropped == ["docstring"] * has_doc + ["argument checks"] * (checks > 0)
    assert s.name == f"{func.__module__}.{func.__qualname__}"


def test_a_decorated_function_is_shown_with_its_decorator():
    s = show_source(_decorated)  # the wrapper functools.wraps made is unwrapped
    assert s.lines[:2] == ["@_logged", "def _decorated(x):"] and s.lines[-1].strip() == "return x"


@pytest.mark.parametrize("statement, check", [
    ("raise ValueError('x')", True),
    ("if x < 0:\n    raise ValueError('x')", True),
    ("if x:\n    x = check_positive(x, 'x')\nelse:\n    raise ValueError('x')", True),
    ("if x:\n    x = x + 1", False),
    ("if x:\n    raise ValueError('x')\nelse:\n    x = 1", False),
    ("lam = check_positive(lam, 'lam')", True),
    ("check_positive(lam, 'lam')", True),
    ("X, y = _check_problem(X, y)", True),
    ("X = as_float_array(X, 'X')", True),
    ("X: float = as_float_array(X, 'X')", True),
    ("X = _validation.check_int(X, 'X')", True),
    ("X = self._check_X(X)", True),
    ("n: int", False),
    ("t = 1.0", False),
    ("y = float(check_positive(x, 'x'))", False),
    ("y = np.asarray(x)", False),
    ("y = fs[0](x)", False),
    ("for x in xs:\n    check_positive(x, 'x')", False),
    ("return check_positive(x, 'x')", False),
])
def test_what_counts_as_a_check(statement, check):
    """A check: a raise, an if of checks and raises only, or an assignment or call whose outer
    call's name starts with check, _check or as_float_array."""
    assert _is_check(ast.parse(statement).body[0]) is check


def _forms(s):
    """(the HTML note as text, the HTML code as text less its line numbers, those numbers)."""
    page = s._repr_html_()
    note = re.search(r'<p class="mlnotes-listing-note">(.*?)</p>', page, flags=re.S)[1]
    code = re.search(r'<div class="highlight"><pre>(.*?)</pre></div>', page, flags=re.S)[1]
    numbers = [int(n) for n in re.findall(r'<span class="linenos">\s*(\d+)</span>', code)]
    code = re.sub(r'<span class="linenos">\s*\d+</span>', "", code)
    return (html.unescape(re.sub(r"<[^>]+>", "", note)), html.unescape(re.sub(r"<[^>]+>", "", code)), numbers)


@pytest.mark.parametrize("func", [f for f, _ in LISTINGS] + [svm.smo_basic, logistic._halving_step],
                         ids=[f.__name__ for f, _ in LISTINGS] + ["smo_basic", "_halving_step"])
def test_the_html_markdown_and_plain_forms_agree(func):
    """The text is the lines; the plain form numbers them from 1, right-aligned in 3 columns;
    Markdown holds the plain form in a Python fence under its head; the HTML's highlighted code
    is the text, numbered inline from 1, under the same head as Markdown's (or "as in the
    library" when nothing is left out)."""
    s = show_source(func)
    assert s.text.endswith("\n") and s.text.splitlines() == s.lines
    plain = repr(s)
    rows = plain.splitlines()
    assert plain.endswith("\n") and len(rows) == len(s.lines)
    for i, (row, line) in enumerate(zip(rows, s.lines, strict=True), 1):
        assert row[:3] == str(i).rjust(3) and row[4:] == line.rstrip() and row == row.rstrip()
    head, fence = s._repr_markdown_().split("\n\n", 1)
    assert fence == f"```python\n{plain}```\n"
    note, code, numbers = _forms(s)
    assert code == s.text and numbers == list(range(1, len(s.lines) + 1))
    assert "<table" not in s._repr_html_()  # numbers inline, in the code's own lines
    if s.dropped:
        assert head == f"`{s.name}`, {' and '.join(s.dropped)} left out: see its reference entry."
        assert note == head.replace("`", "")
    else:
        assert head == f"`{s.name}`" and note.startswith(f"{s.name}, ")
        assert "left out" not in note and "reference entry" not in note


@pytest.mark.parametrize("func", [svm.smo_basic, logistic._halving_step, boosting.AdaBoostFit.decision_function,
                                  boosting.StumpSearch.best])
def test_the_listing_links_its_reference_entry(func):
    """The link is the reference page of the function's module, at the function's full name
    (a method's too), and that page is in the book."""
    s = show_source(func)
    module = func.__module__.split(".")[1]
    link = re.search(r'<a href="([^"]+)">', s._repr_html_())[1]
    assert link == f"../book/api/{module}.html#{func.__module__}.{func.__qualname__}"
    assert (pathlib.Path(__file__).resolve().parent.parent / "book" / "api" / f"{module}.md").is_file()


@pytest.mark.parametrize("value", ["smo", 3, None])
def test_show_source_names_what_it_got(value):
    with pytest.raises(TypeError, match=f"func must be a function, got {type(value).__name__}$"):
        show_source(value)


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
