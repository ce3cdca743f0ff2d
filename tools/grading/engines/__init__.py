"""The judge of ``make grade`` on the platforms that grade at scale: Gradescope and PrairieLearn.

Both run one container per submission, with the teacher's files and the student's notebook in
known folders, and read a ``results.json`` back. Each adapter here reads those folders, judges
the notebook with the same out-of-process judge as ``make grade`` (:mod:`tools.grading.batch`)
and writes the platform's results; nothing about judging is platform-specific.

Threats, and what stops each:

- a submission that changes the comparison (monkeypatching ``np.allclose``): the tests run in the
  grader's process, the student's code in another, exactly as in ``make grade``; with the
  bubblewrap sandbox when the container allows it (:func:`~tools.grading.sandbox_problem`),
  otherwise out of process still, and the results say so (the container is then the only
  wall: the student's code could read the tests inside it);
- a grader environment that drifts or cannot be built (otter's zip installed ``mlnotes`` from a
  git URL and scored the reference 1.33/12 without network): the bundle carries the ``mlnotes``
  wheel built from this repository, the grading package, and requirements pinned to
  ``constraints.txt``, installed from PyPI (:mod:`.bundle`); the course package is kept out of
  the Python environment the sandbox shows, so withdrawn functions stay withdrawn;
- feedback that leaks hidden tests or overflows the platform: hidden cases report the property
  they check and whether it held, never inputs or outputs; Gradescope shows them only once the
  teacher publishes; every text from the submission is escaped and capped, and PrairieLearn's
  file stays under its 1 MB.

Modules: :mod:`.common` (the assignment without otter, one notebook judged, its cases as rows),
:mod:`.bundle` (what the platform gets: wheel, requirements, scripts), :mod:`.gradescope`,
:mod:`.prairielearn`.
"""

from .common import case_rows, judge_notebook, load_assignment, save_assignment

__all__ = ["case_rows", "judge_notebook", "load_assignment", "save_assignment"]
