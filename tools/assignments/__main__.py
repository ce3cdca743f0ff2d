"""``python -m tools.assignments build|grade ...`` (see the package docstring)."""

from tools.assignments import _main

_main()
