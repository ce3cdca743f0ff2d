"""show_source displays a library function's code from the code itself."""

from __future__ import annotations

import inspect

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
