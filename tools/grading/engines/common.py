"""What every engine does: load the assignment, find and judge the one notebook, list its cases.

Threats: a folder the student filled (no notebook, several, a link, a FIFO: read as in ``make
grade``, by :func:`~tools.grading.submissions.collect` and :func:`~tools.grading.judge_file`), and
text from the submission shown by the platform (escaped, capped: :func:`shown`); and, where the
container forbids the sandbox, a process the student's code leaves behind (``setsid`` and a double
fork escape the judge's process group) to rewrite ``results.json`` once it is written: the grader
adopts every orphan of its subtree (``PR_SET_CHILD_SUBREAPER``) and kills them all before it
writes (:func:`no_strays`).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import dataclasses
import importlib.util
import json
import os
import signal
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

from ..batch import judge_file
from ..judge import Assignment, Case, Judge, Question
from ..sandbox import confine
from ..submissions import Submission, collect, output_folder, printable, write_atomically

ASSIGNMENT_FILE = "mlnotes-assignment.json"  # the loaded assignment: engines need no otter
OUTPUT_CHARS = 4000  # of one case's output on the platform


def save_assignment(assignment: Assignment) -> str:
    """The assignment (questions, cases with points and properties, context) as JSON."""
    return json.dumps(dataclasses.asdict(assignment), indent=1)


def load_assignment(path: Path) -> Assignment:
    """The assignment from :data:`ASSIGNMENT_FILE`, a folder holding it, or an autograder zip
    (its :data:`ASSIGNMENT_FILE`, else otter's tests, which need otter-grader)."""
    path = Path(path)
    if path.is_dir():
        path = path / ASSIGNMENT_FILE
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            if ASSIGNMENT_FILE not in z.namelist():
                return Assignment.load(path)
            data = json.loads(z.read(ASSIGNMENT_FILE))
    else:
        data = json.loads(path.read_text())
    questions = [Question(**{**q, "cases": [Case(**c) for c in q["cases"]]}) for q in data["questions"]]
    return Assignment(**{**data, "questions": questions})


def course_package() -> Path:
    """The ``mlnotes`` package this grader imports (the bundle's copy, outside the Python
    environment the sandbox shows), from which the course copy is made."""
    spec = importlib.util.find_spec("mlnotes")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the mlnotes package is not importable: run the platform's setup first")
    return Path(next(iter(spec.submodule_search_locations)))


def pick_notebook(folder: Path, assignment: Assignment) -> tuple[Submission | None, str]:
    """The notebook to grade in the student's folder, and a note when there was a choice: the one
    named for the assignment, else the first by name."""
    found = collect(Path(folder))
    if not found:
        return None, "no notebook (.ipynb) was submitted"
    named = [s for s in found if s.name.rsplit("/", 1)[-1] == f"{assignment.name}.ipynb"]
    chosen = (named or found)[0]
    note = "" if len(found) == 1 else \
        f"{len(found)} notebooks were submitted; graded {printable(chosen.name)[:100]}"
    return chosen, note


def judge_notebook(assignment: Assignment, path: Path, *, timeout: float, memory_mb: int) -> tuple[dict, str]:
    """Judge one notebook as ``make grade`` does; return its result (see
    :func:`~tools.grading.judge_file`) and a line saying how its code was confined. The sandbox
    is used when it works here; otherwise the student's code still runs in a process of its own."""
    confinement, problem = confine(memory_mb, sandbox=True)
    if problem is None:
        how = f"Your code ran in a sandbox (bubblewrap), in a process apart from the tests; {confinement.describe()}."
    else:
        how = (f"Your code ran in a process apart from the tests, without the sandbox ({problem}); "
               f"{confinement.describe()}.")
    with tempfile.TemporaryDirectory(prefix="mlnotes-engine-") as tmp:
        confinement.admit(Path(tmp))
        judge = Judge(assignment, Path(tmp), question_timeout=timeout, memory_mb=memory_mb, sandbox=problem is None,
                      confinement=confinement, package=course_package())
        return judge_file(judge, path), how


def judge_folder(assignment: Assignment, folder: Path, *, timeout: float, memory_mb: int) -> tuple[dict, str, str]:
    """Judge the notebook the student put in ``folder``: its result (with the time it all took),
    how its code was confined, and a note on the choice of notebook (see :func:`pick_notebook`).
    With no notebook, the result's status says so and it has no questions."""
    start = time.monotonic()
    chosen, note = pick_notebook(folder, assignment)
    if chosen is None:
        result, how, note = {"status": note, "questions": {}, "seconds": 0.0}, "Nothing was graded.", ""
    else:
        result, how = judge_notebook(assignment, chosen.path, timeout=timeout, memory_mb=memory_mb)
        how = how if result["questions"] else "Nothing was graded."  # the notebook was refused
    result["seconds"] = time.monotonic() - start
    return result, how, note


PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h


def _descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (Linux ``/proc``)."""
    children: dict[int, list[int]] = {}
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            ppid = int(stat_file.read_text().rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(stat_file.parent.name))
    found, todo = set(), [pid]
    while todo:
        kids = children.get(todo.pop(), [])
        found.update(kids)
        todo += kids
    return found


@contextlib.contextmanager
def no_strays():
    """Within the block, orphans of this process's subtree become its children; at its end every
    process still below this one is killed and reaped."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    try:
        yield
    finally:
        for _ in range(50):
            strays = _descendants(os.getpid())
            if not strays:
                break
            for pid in strays:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                while os.waitpid(-1, os.WNOHANG)[0]:
                    pass
            time.sleep(0.02)


def grade_into(assignment: Assignment, submission: Path, results: Path, to_results, *, timeout: float,
               memory_mb: int) -> dict:
    """Judge the notebook in the folder ``submission`` (:func:`judge_folder`), turn the result
    into the platform's form (``to_results(assignment, result, how, note)``) and write it to
    ``results/results.json`` (never through a link planted there); return it."""
    with no_strays():
        result, how, note = judge_folder(assignment, submission, timeout=timeout, memory_mb=memory_mb)
    out = to_results(assignment, result, how, note)
    write_atomically(output_folder(Path(results)) / "results.json", json.dumps(out, indent=1))
    return out


def command_line(argv: list[str] | None, description: str, variable: str, default: str) -> dict:
    """An engine's arguments: its root folder (``--root``, else the environment ``variable``,
    else ``default``) and the limits (``MLNOTES_TIMEOUT`` seconds per question, default 60;
    ``MLNOTES_MEMORY_MB``, default 1536) as keyword arguments of its ``grade``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--root", type=Path, default=Path(os.environ.get(variable, default)))
    args = parser.parse_args(argv)
    return {"root": args.root, "timeout": float(os.environ.get("MLNOTES_TIMEOUT", 60)),
            "memory_mb": int(os.environ.get("MLNOTES_MEMORY_MB", 1536))}


def shown(text: str, limit: int = OUTPUT_CHARS) -> str:
    """Text from the submission as the platform may show it: control characters escaped (line
    breaks kept), at most ``limit`` characters."""
    text = "\n".join(printable(line) for line in str(text).split("\n"))
    return text if len(text) <= limit else text[: limit - 9] + "\n[... cut]"


@dataclass
class CaseRow:
    """One test case of one question, as a platform lists it."""

    question: str
    label: str  # "visible test 1", "hidden test 2 (symmetric)"
    hidden: bool
    score: float
    possible: float
    output: str  # for the student: passed, or what failed (a hidden case: only that it failed)


def case_rows(assignment: Assignment, result: dict) -> list[CaseRow]:
    """Every case of every question, in order, with its points: those the submission earned, or
    none with the reason (not graded, the question's status, the visible case's failure)."""
    rows = []
    for q in assignment.questions:
        got = result.get("questions", {}).get(q.name)
        counts = {True: 0, False: 0}
        for k, case in enumerate(q.cases):
            counts[case.hidden] += 1
            what = f" ({case.property})" if case.hidden and case.property else ""
            label = f"{'hidden' if case.hidden else 'visible'} test {counts[case.hidden]}{what}"
            outcome = got["cases"][k] if got and k < len(got.get("cases", [])) else None
            if outcome is None:
                why = got["status"] if got else result.get("status", "not graded")
                rows.append(CaseRow(q.name, label, case.hidden, 0.0, case.points, shown(f"not graded: {why}")))
                continue
            passed = bool(outcome["passed"])
            if passed:
                output = "passed"
            elif case.hidden:
                output = "failed" + (f": {case.property} does not hold" if case.property else "")
            else:
                output = "failed:\n" + shown(outcome.get("message", ""))
            rows.append(CaseRow(q.name, label, case.hidden, case.points if passed else 0.0, case.points, output))
    return rows


def notes(assignment: Assignment, result: dict) -> list[str]:
    """What the student should read besides the cases: the overall status, and per question a
    status other than graded or the error its answer cell raised (their own code's words)."""
    lines = [f"Status: {shown(result.get('status', ''), 500)}"]
    if result.get("chapter_error"):
        kind, message = result["chapter_error"]
        lines.append(f"The chapter's imports failed in the grader: {shown(f'{kind}: {message}', 500)}")
    for q in assignment.questions:
        got = result.get("questions", {}).get(q.name)
        if got and got.get("status") != "graded":
            lines.append(f"{q.name}: {shown(got['status'], 500)}")
        if got and got.get("error"):
            kind, message = got["error"]
            lines.append(f"{q.name}: your answer cell raised {shown(f'{kind}: {message}', 1000)}")
    return lines
