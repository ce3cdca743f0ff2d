"""Show a library function's source in a chapter: rendered from the code itself, never a copy."""

from __future__ import annotations

import ast
import html
import inspect
import textwrap
from collections.abc import Callable

# calls whose only business is to check (and convert) the arguments: a statement made of them
# opens a function's argument-checking preamble, which a listing leaves to the reference
_CHECKS = ("check", "_check", "as_float_array")


def _is_check(node: ast.AST) -> bool:
    """A statement of the argument-checking preamble: an assignment or call of check functions
    only (``lam = check_positive(lam, "lam")``), or an ``if`` whose branches only check or raise."""
    if isinstance(node, ast.Raise):
        return True
    if isinstance(node, ast.If):
        return all(_is_check(s) for s in node.body + node.orelse)
    if isinstance(node, ast.Assign | ast.AnnAssign | ast.Expr):
        calls = [c for c in ast.walk(node.value) if isinstance(c, ast.Call)] if node.value else []
        names = [c.func.id if isinstance(c.func, ast.Name) else getattr(c.func, "attr", "") for c in calls]
        return bool(names) and names[0].startswith(_CHECKS)
    return False


class Source:
    """The source of one function, as a listing: its signature and the lines after its docstring
    and argument checks, numbered from 1 (the signature's first line). Jupyter and the book show
    it as highlighted, numbered Python under a line that links the reference entry; ``lines``
    holds the listing's lines (``lines[0]`` is line 1), ``repr`` the listing as plain text."""

    def __init__(self, func: Callable):
        self.name = f"{func.__module__}.{func.__qualname__}"
        text = textwrap.dedent(inspect.getsource(func))
        lines = text.splitlines()
        node = ast.parse(text).body[0]
        has_doc = ast.get_docstring(node) is not None
        body = node.body[1:] if has_doc else node.body
        checks = 0
        while checks < len(body) - 1 and _is_check(body[checks]):
            checks += 1
        self.dropped = ["docstring"] * has_doc + ["argument checks"] * bool(checks)
        signature = node.body[0].lineno - 1  # the decorators and the def line(s)
        floor = body[checks - 1].end_lineno if checks else (node.body[0].end_lineno if has_doc else signature)
        start = body[checks].lineno if body else len(lines) + 1
        while start - 1 > floor and lines[start - 2].strip().startswith("#"):
            start -= 1  # the comments just above the first statement shown stay with it
        self.lines = lines[:signature] + lines[start - 1:]
        self.text = "\n".join(self.lines) + "\n"

    def _note(self) -> str:
        return f"{' and '.join(self.dropped)} left out" if self.dropped else ""

    def _reference(self) -> str:
        module, _, rest = self.name.partition(".")[2].partition(".")
        return f"../book/api/{module}.html#{self.name}"

    def _repr_html_(self) -> str:
        from pygments import highlight
        from pygments.formatters import HtmlFormatter
        from pygments.lexers import PythonLexer

        code = highlight(self.text, PythonLexer(), HtmlFormatter(linenos="inline", cssclass="highlight"))
        note = self._note()
        link = f'<a href="{self._reference()}"><code>{html.escape(self.name)}</code></a>'
        head = f"{link}, {note}: see its reference entry." if note else f"{link}, as in the library."
        return (f'<p class="mlnotes-listing-note">{head}</p>\n'
                f'<div class="highlight-python notranslate mlnotes-listing">{code}</div>\n')

    def _repr_markdown_(self) -> str:
        note = self._note()
        head = f"`{self.name}`, {note}: see its reference entry." if note else f"`{self.name}`"
        numbered = "\n".join(f"{i:>3} {line}".rstrip() for i, line in enumerate(self.lines, 1))
        return f"{head}\n\n```python\n{numbered}\n```\n"

    def __repr__(self) -> str:
        return "\n".join(f"{i:>3} {line}".rstrip() for i, line in enumerate(self.lines, 1)) + "\n"


def show_source(func: Callable) -> Source:
    """The source code of ``func``, for display as a cell's result (``show_source(svm.smo_basic)``).

    Jupyter and the book render it as a highlighted Python listing with numbered lines, without
    the docstring and the argument checks (a line above it says so and links the reference entry,
    where both are); its ``repr`` is the numbered listing as plain text.

    Examples
    --------
    >>> from mlnotes import svm
    >>> show_source(svm.two_variable_step).name
    'mlnotes.svm.two_variable_step'
    """
    if not callable(func):
        raise TypeError(f"func must be a function, got {type(func).__name__}")
    return Source(inspect.unwrap(func))
