"""Grading submitted notebooks for credit: safely, one student's failure never another's.

Every grader in common use (otter-grader with or without Docker, nbgrader) runs the tests in the
student's own Python process, so a submission can monkeypatch ``np.isclose`` and pass, and one
loop costs the whole notebook. Here the rooms are separate, each with the threat it defends
against stated at its top:

- :mod:`~tools.grading.sandbox`: where the student's code runs (bubblewrap) and what it can see
  (no tests, no other submissions, no library that answers the question);
- :mod:`~tools.grading.limits`: the memory and process limits on the submission as a whole (a
  cgroup where the machine allows it, else an unprivileged uid per submission);
- :mod:`~tools.grading.student`: the student's side, inside the sandbox: runs cells, answers calls;
- :mod:`~tools.grading.channel`: the grader's end of that process: data in and out, every
  message checked, every wait with a deadline;
- :mod:`~tools.grading.judge`: one submission: the tests run in the grader's process, a question
  at a time, each with its own time budget;
- :mod:`~tools.grading.submissions`: reading the teacher's folder, which students filled (no
  links followed, no FIFOs read, names escaped, feedback files that cannot collide);
- :mod:`~tools.grading.feedback`: what the student reads, with their own text quoted and capped;
- :mod:`~tools.grading.batch`: a class, each submission in a grader process of its own, results
  written as they arrive.

``python -m tools.assignments grade`` (``make grade``) is the teacher's entry point.
"""

from .batch import grade_folder, judge_file
from .judge import GRADING_FILE, Assignment, answer_cells
from .sandbox import SandboxUnavailable, course_copy, sandbox_problem

__all__ = ["GRADING_FILE", "Assignment", "SandboxUnavailable", "answer_cells", "course_copy", "grade_folder",
           "judge_file", "sandbox_problem"]
