"""Grading a class: every submission in a folder, each in its own grader process, none able to stop
the others.

Threat: one submission (or a bug it triggers in the grader) ending the run, so that nobody gets a
score. Each submission is judged in a forked grader process of its own with a wall-clock cap;
whatever happens there (an exception, a crash, a hang) comes back as that student's row, with a
status naming the problem, and the next submission is graded. Rows are appended to the CSV and
feedback files written as results arrive, so a run that is killed keeps what it finished; at the
end the CSV is rewritten in name order.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import select
import signal
import tempfile
import time
import traceback
from dataclasses import asdict
from pathlib import Path

from .feedback import feedback_text
from .judge import Assignment, Judge
from .sandbox import SandboxUnavailable, confine
from .submissions import (
    Refused,
    Submission,
    collect,
    csv_safe,
    feedback_names,
    output_folder,
    printable,
    read_notebook,
    write_atomically,
)


def judge_file(judge: Judge, path: Path) -> dict:
    """The result of the notebook at ``path`` (plain data: status, questions, seconds), never an
    exception from the submission: a file that cannot be read is a ``refused: ...`` status."""
    try:
        nb = read_notebook(path)
        name = nb.metadata.get("otter", {}).get("assignment_name") if isinstance(nb.metadata, dict) else None
        if name and name != judge.assignment.name:
            raise Refused(f"this notebook is the assignment {printable(str(name))[:80]!r}, "
                          f"not {judge.assignment.name!r}")
    except Refused as exc:
        return {"status": f"refused: {exc}", "questions": {}, "seconds": 0.0}
    result = judge.grade(nb)
    result["questions"] = {k: asdict(v) for k, v in result["questions"].items()}
    return result


def _child(judge: Judge, sub: Submission, write_fd: int) -> None:
    """In the forked grader process: judge, send the result as JSON, exit."""
    try:
        data = json.dumps(judge_file(judge, sub.path))
    except BaseException as exc:  # noqa: BLE001 - a grader bug is this row's status, not the batch's end
        last = traceback.format_exception_only(type(exc), exc)[-1].strip()
        data = json.dumps({"status": f"grader error: {printable(last)[:300]}", "questions": {}, "seconds": 0.0})
    with os.fdopen(write_fd, "wb") as out:
        out.write(data.encode())
    os._exit(0)


class _Running:
    def __init__(self, sub: Submission, pid: int, fd: int, cap: float):
        self.sub, self.pid, self.fd, self.data = sub, pid, fd, b""
        self.start, self.cap = time.monotonic(), cap


def _judge_all(judge: Judge, subs: list[Submission], jobs: int, cap: float):
    """Yield (submission, result) as each grader process finishes, ``jobs`` at a time."""
    todo, running = list(subs), []
    try:
        yield from _schedule(judge, todo, running, jobs, cap)
    finally:  # a run stopped by the teacher (Ctrl-C) leaves no grader behind
        for p in running:
            with contextlib.suppress(ProcessLookupError):
                os.kill(p.pid, signal.SIGKILL)
            os.waitpid(p.pid, 0)
            os.close(p.fd)
            judge.confinement.release(p.pid)


def _schedule(judge: Judge, todo: list[Submission], running: list[_Running], jobs: int, cap: float):
    while todo or running:
        while todo and len(running) < jobs:
            sub = todo.pop(0)
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:  # the grader process of this submission
                os.close(r)
                _child(judge, sub, w)
            os.close(w)
            running.append(_Running(sub, pid, r, cap))
        ready = select.select([p.fd for p in running], [], [], 1.0)[0]
        for p in list(running):
            done, result = False, None
            if p.fd in ready:
                chunk = os.read(p.fd, 2**20)
                p.data += chunk
                done = not chunk
            if not done and time.monotonic() - p.start > p.cap:
                os.kill(p.pid, signal.SIGKILL)
                judge.confinement.release(p.pid)
                done = True
                result = {"status": f"grader stopped after {p.cap:g} s", "questions": {}, "seconds": p.cap}
            if not done:
                continue
            os.close(p.fd)
            _, code = os.waitpid(p.pid, 0)
            if result is None:
                try:
                    result = json.loads(p.data)
                except ValueError:
                    why = f"signal {-os.waitstatus_to_exitcode(code)}" if os.WIFSIGNALED(code) else "no result"
                    result = {"status": f"grader crashed ({why})", "questions": {}, "seconds": 0.0}
            result["seconds"] = result.get("seconds") or time.monotonic() - p.start
            running.remove(p)
            yield p.sub, result


def grader_cap(timeout: float, n_questions: int) -> float:
    """The wall-clock time a submission's grader process may take: every question's time, each
    answer cell's, and a margin; past it the process is killed and the row says so."""
    return timeout * (2 * n_questions + 2) + 60


def _row(name: str, result: dict, points: dict[str, float], feedback: str) -> dict:
    row = {"submission": csv_safe(name)}
    row.update({q: float(result["questions"].get(q, {}).get("score", 0.0)) for q in points})
    row.update(total=sum(row[q] for q in points), possible=float(sum(points.values())),
               status=csv_safe(result["status"]), seconds=round(float(result["seconds"]), 2), feedback=feedback)
    return row


def grade_folder(autograder: Path, folder: Path, csv_path: Path, *, timeout: float = 60.0,
                 jobs: int | None = None, memory_mb: int = 2048, unsafe: bool = False,
                 feedback: Path | None = None, echo=None) -> list[dict]:
    """Grade every ``*.ipynb`` in ``folder`` (and its subfolders, e.g. one per student).

    Writes ``csv_path`` (one row per submission: one column per question, total, possible,
    status, seconds, feedback file) and one feedback file per submission in ``feedback``
    (default: ``feedback/`` beside the CSV). ``jobs`` submissions are graded at once (default:
    every core). Each question has ``timeout`` seconds; a question that runs out, or crashes its
    process, scores what its finished cases earned, and the next question starts afresh. Each
    submission has ``memory_mb`` MiB in all. ``echo`` (e.g. ``print``) receives one line per
    submission as it is graded, and first the limits in force. Raises
    :class:`SandboxUnavailable` if the sandbox cannot run and ``unsafe`` is false.
    """
    confinement, problem = confine(memory_mb, sandbox=not unsafe)
    if problem:
        raise SandboxUnavailable(
            f"cannot grade in a sandbox: {problem}. Grading runs the students' code; without the "
            "sandbox it could read the hidden tests and write to your files. Fix the sandbox, or "
            "pass --unsafe (make grade UNSAFE=1) to grade anyway, in a throw-away account or VM.")
    echo = echo or (lambda line: None)
    folder, jobs, csv_path = Path(folder), jobs or os.cpu_count() or 1, Path(csv_path)
    out_dir = output_folder(csv_path.parent)
    feedback = output_folder(Path(feedback) if feedback else out_dir / "feedback")
    subs = collect(folder, skip=(feedback,))
    names = feedback_names([s.name for s in subs])
    with tempfile.TemporaryDirectory(prefix="mlnotes-grading-") as tmp:
        confinement.admit(Path(tmp))
        assignment = Assignment.load(Path(autograder))
        points = assignment.points()
        echo(confinement.describe() + f"; {timeout:g} s per question")
        judge = Judge(assignment, Path(tmp), question_timeout=timeout, memory_mb=memory_mb, sandbox=not unsafe,
                      confinement=confinement)
        cap = grader_cap(timeout, len(points))
        fields = ["submission", *points, "total", "possible", "status", "seconds", "feedback"]
        rows = []
        with open(_fresh(csv_path), "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=fields)
            writer.writeheader()
            for sub, result in _judge_all(judge, subs, jobs, cap):
                write_atomically(feedback / names[sub.name], feedback_text(sub.name, assignment.name, result, points))
                row = _row(sub.name, result, points, names[sub.name])
                writer.writerow(row)
                f.flush()
                rows.append(row)
                echo(f"{printable(sub.name)[:60]:<60} {row['total']:>6g} / {row['possible']:g}  "
                     f"{printable(result['status'])[:120]}")
    rows.sort(key=lambda r: r["submission"])
    table = io.StringIO()
    writer = csv.DictWriter(table, fieldnames=fields)
    writer.writeheader()
    writer.writerows(rows)
    write_atomically(csv_path, table.getvalue())
    return rows


def _fresh(path: Path) -> Path:
    """Remove whatever is at ``path`` (a file, or a link planted there) so that the grader
    creates a new file and never writes through a link."""
    if path.is_symlink() or path.exists():
        if path.is_dir() and not path.is_symlink():
            raise ValueError(f"{path} is a folder, not a place for the CSV")
        path.unlink()
    return path
