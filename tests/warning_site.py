"""Where a warning points, for the tests that check a ``stacklevel``.

Under ``make mutants`` mutmut calls every library function through a trampoline of its own,
one frame more between the caller and the function, so a warning's ``stacklevel`` points into
mutmut: there the check is off (a ``stacklevel`` mutant then survives mutmut's run; the triage
files say which test kills it outside mutmut).
"""

from __future__ import annotations

import os
import warnings

UNDER_MUTMUT = "MUTANT_UNDER_TEST" in os.environ


def points_at(warning: warnings.WarningMessage, filename: str, lineno: int | None = None) -> bool:
    """The warning names ``filename`` (and ``lineno``, if given) as where it was raised."""
    if UNDER_MUTMUT:
        return True
    return warning.filename == filename and (lineno is None or warning.lineno == lineno)


def one_warning_at(record: list[warnings.WarningMessage], filename: str) -> bool:
    """``record`` holds exactly one warning, and it names ``filename``."""
    return len(record) == 1 and points_at(record[0], filename)
