"""PrairieLearn: the external grader's entrypoint judges the submitted notebook and writes
``/grade/results/results.json``.

PrairieLearn starts one container per submission with the course's shared files in
``/grade/serverFilesCourse`` (here ``mlnotes_grader/``: this package, the ``mlnotes`` course
package and ``run.sh``, see :func:`~tools.grading.engines.bundle.prairielearn_course`), the
question's ``tests`` folder in ``/grade/tests`` (:data:`~.common.ASSIGNMENT_FILE`, or the
autograder zip) and the student's files in ``/grade/student``. Results follow its external
grader format: ``score`` in [0, 1], ``gradable``, ``message``, ``output`` (the feedback of
``make grade``) and one test per case with ``points`` and ``max_points``; a folder with no
readable notebook is ``gradable: false`` (the attempt is not counted) with ``format_errors``.

Threats: see :mod:`.common`; and a results file PrairieLearn refuses (over 1 MB): outputs are
cut until the file fits (:data:`MAX_BYTES`).

Usage (``run.sh`` does this)::

    python -m tools.grading.engines.prairielearn [--root /grade]

``MLNOTES_GRADE_ROOT`` may give the root instead; ``MLNOTES_TIMEOUT`` and ``MLNOTES_MEMORY_MB``
set the limits as for Gradescope.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..feedback import feedback_text
from .common import ASSIGNMENT_FILE, case_rows, command_line, grade_into, load_assignment, shown

MAX_BYTES = 900_000  # PrairieLearn's limit is 1 MB; leave room


def _fit(out: dict) -> dict:
    """``out`` with its outputs cut until its JSON is under :data:`MAX_BYTES`."""
    limit = 100_000
    while len(json.dumps(out).encode()) > MAX_BYTES and limit > 100:
        limit //= 4
        out["output"] = shown(out["output"], limit)
        for test in out["tests"]:
            test["output"] = shown(test["output"], limit // 10)
    return out


def results(assignment, result: dict, how: str, note: str = "") -> dict:
    """PrairieLearn's results for one judged notebook."""
    if not result.get("questions"):  # no notebook, or one that could not be read
        why = shown(result.get("status", "not graded"), 1000)
        return {"gradable": False, "format_errors": [why], "message": why}
    rows = case_rows(assignment, result)
    possible = sum(r.possible for r in rows)
    earned = sum(r.score for r in rows)
    feedback = feedback_text("the submitted notebook", assignment.name, result, assignment.points())
    out = {
        "gradable": True,
        "score": earned / possible if possible else 0.0,
        "message": f"{earned:g} / {possible:g} points. {how}",
        "output": "\n".join([how, *([note] if note else []), "", feedback]),  # feedback: status, errors too
        "tests": [{"name": f"{r.question}: {r.label}", "description": "hidden test" if r.hidden else "visible test",
                   "points": r.score, "max_points": r.possible, "output": r.output} for r in rows],
    }
    return _fit(out)


def grade(root: Path, *, timeout: float = 60.0, memory_mb: int = 1536) -> dict:
    """Judge the notebook in ``root/student`` against the assignment in ``root/tests``; write and
    return ``root/results/results.json``."""
    root, tests = Path(root), Path(root) / "tests"
    zips = sorted(tests.glob("*.zip"))
    assignment = load_assignment(zips[0] if zips and not (tests / ASSIGNMENT_FILE).exists() else tests)
    return grade_into(assignment, root / "student", root / "results", results, timeout=timeout, memory_mb=memory_mb)


def main(argv: list[str] | None = None) -> None:
    print(grade(**command_line(argv, __doc__.split("\n")[0], "MLNOTES_GRADE_ROOT", "/grade")).get("message", ""))


if __name__ == "__main__":
    main()
