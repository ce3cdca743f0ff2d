"""Show a library function's source in a chapter: rendered from the code itself, never a copy."""

from __future__ import annotations

import inspect
from collections.abc import Callable


class Source:
    """The source of one function; Jupyter and the book display it as highlighted Python."""

    def __init__(self, func: Callable):
        self.name = f"{func.__module__}.{func.__qualname__}"
        self.text = inspect.getsource(func)

    def _repr_markdown_(self) -> str:
        return f"```python\n{self.text}```\n"

    def __repr__(self) -> str:
        return self.text


def show_source(func: Callable) -> Source:
    """The source code of ``func``, for display as a cell's result (``show_source(svm.smo_basic)``).

    Jupyter and the book render it as a highlighted Python block; its ``repr`` is the plain
    source.

    Examples
    --------
    >>> from mlnotes import svm
    >>> show_source(svm.two_variable_step).name
    'mlnotes.svm.two_variable_step'
    """
    if not callable(func):
        raise TypeError(f"func must be a function, got {type(func).__name__}")
    return Source(inspect.unwrap(func))
