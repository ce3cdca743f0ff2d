"""Gradescope: the autograder's ``run_autograder`` judges the submitted notebook and writes
``/autograder/results/results.json``.

Gradescope unpacks the autograder zip (:func:`~tools.grading.engines.bundle.gradescope_zip`)
into ``/autograder/source``, runs its ``setup.sh`` once per image and ``run_autograder`` once per
submission, with the student's files in ``/autograder/submission``. Results follow Gradescope's
autograder specification: ``score``, ``execution_time``, ``output`` (always shown: how the code
was confined, the status, the answer cells' own errors) and one test per case, visible cases
``"visible"``, hidden ones ``"after_published"`` (the student sees them, with the property they
check and no inputs, once the teacher publishes the grades).

Threat: a submission folder the student filled; see :mod:`.common`. A bug in the grader itself
writes no results, so that Gradescope reports a failed autograder instead of a score of 0.

Usage (``run_autograder`` does this)::

    python -m tools.grading.engines.gradescope [--root /autograder]

The root may also be given as ``MLNOTES_AUTOGRADER_ROOT`` (tests simulate ``/autograder`` in a
temporary folder); ``MLNOTES_TIMEOUT`` (seconds per question, default 60) and
``MLNOTES_MEMORY_MB`` (default 1536) set the limits.
"""

from __future__ import annotations

from pathlib import Path

from .common import case_rows, command_line, grade_into, load_assignment, notes

VISIBILITY = {False: "visible", True: "after_published"}


def results(assignment, result: dict, how: str, note: str = "") -> dict:
    """Gradescope's results for one judged notebook."""
    rows = case_rows(assignment, result)
    output = [how, *([note] if note else []), *notes(assignment, result)]
    return {
        "score": round(sum(r.score for r in rows), 6),
        "execution_time": round(float(result.get("seconds", 0.0)), 2),
        "output": "\n".join(output),
        "output_format": "text",
        "tests": [{"name": f"{r.question}: {r.label}", "score": r.score, "max_score": r.possible,
                   "output": r.output, "output_format": "text", "visibility": VISIBILITY[r.hidden]}
                  for r in rows],
    }


def grade(root: Path, *, timeout: float = 60.0, memory_mb: int = 1536) -> dict:
    """Judge the notebook in ``root/submission`` against the assignment in ``root/source``;
    write and return ``root/results/results.json``."""
    root = Path(root)
    return grade_into(load_assignment(root / "source"), root / "submission", root / "results", results,
                      timeout=timeout, memory_mb=memory_mb)


def main(argv: list[str] | None = None) -> None:
    out = grade(**command_line(argv, __doc__.split("\n")[0], "MLNOTES_AUTOGRADER_ROOT", "/autograder"))
    possible = sum(t["max_score"] for t in out["tests"])
    print(f"score {out['score']:g} / {possible:g} in {out['execution_time']:g} s")
    print(out["output"])


if __name__ == "__main__":
    main()
