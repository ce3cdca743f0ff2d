"""Grading a folder of submissions: the student's code in a sandbox, the tests in the grader.

Every grader in common use (otter-grader with or without Docker, nbgrader) runs the tests in the
student's own Python process, so a submission can monkeypatch ``np.isclose`` and pass. Here the
two never share a process:

- **The student's side** (``student.py``) runs in its own process, inside a bubblewrap sandbox
  (:func:`sandbox_command`): no network, the system and the Python installation read-only, no view
  of the course repository, the hidden tests, the other submissions or the scores, a private
  writable ``/tmp`` of limited size, a memory limit (``RLIMIT_AS``) and a time limit (the whole
  sandbox, and everything started in it, is killed at the limit). It executes the chapter's
  imports and definitions and the submission's answer cells, nothing else (no figures, no claims),
  then answers calls.
- **The grader's side** runs otter's OK-format tests, unchanged, in a clean process: each name an
  answer defines is a :class:`Proxy` that sends its arguments to the student's process as data and
  receives the result as data (``student.encode``/``decode``: numbers and arrays, never pickles).
  The comparisons, the reference values and the hidden test code stay in the grader's process.
- **The library cannot answer for the student**: a question may declare, in the ``QUESTION``
  line of its tests cell, ``withdraw: [mlnotes.module.function, ...]``; the sandbox then gets a
  copy of the ``mlnotes`` package in which those functions' source is replaced by a stub that
  raises (:func:`course_copy`). A submission that calls one scores zero on the tests that need it.

Without a working sandbox (no ``bwrap``, or namespaces refused) grading stops with the reason,
unless the teacher passes ``unsafe=True`` (``--unsafe``): the student's code then runs as the
teacher's user, still in a separate process.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import csv
import io
import json
import os
import re
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings
import zipfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

import nbformat

from . import student as wire

STUDENT = Path(wire.__file__).resolve()
GRADING_FILE = "mlnotes-grading.json"  # added to otter's autograder.zip by ``build``
COURSE_PACKAGE = Path(__file__).resolve().parents[2] / "mlnotes"


class SandboxUnavailable(RuntimeError):
    """The sandbox cannot run here; the message says why and what to do."""


class GradingTimeout(Exception):
    """The submission used up its time."""


class StudentGone(Exception):
    """The student's process ended or broke the protocol."""


# -- the sandbox ------------------------------------------------------------------------------------


def sandbox_command(course: Path, python: str = sys.executable) -> list[str]:
    """The ``bwrap`` command line that runs ``student.py`` on the course copy ``course``.

    Visible inside: ``/usr`` (and the ``/lib``, ``/bin`` links), the Python installation
    (``sys.prefix``, ``sys.base_prefix``: read-only), ``/grader/student.py`` and ``/course``
    (the course package with the withdrawn functions: read-only), a fresh ``/proc`` and ``/dev``,
    and a private 64 MiB ``/tmp``, the only writable place (bwrap's root and ``/dev`` are
    remounted read-only). Every namespace is unshared (user,
    pid, network, ipc, uts, cgroup): no network, no other process, and the sandbox runs as
    ``nobody``. ``--die-with-parent`` and the pid namespace end everything started inside when
    the grader kills bwrap.
    """
    cmd = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session", "--uid", "65534", "--gid", "65534",
           "--ro-bind", "/usr", "/usr",
           # The private /tmp comes before the Python binds: a course (and its .venv) cloned under
           # /tmp must stay visible inside it, as a read-only bind on top of the empty tmpfs.
           "--proc", "/proc", "--dev", "/dev", "--size", str(64 * 2**20), "--tmpfs", "/tmp"]
    for link in ("lib", "lib64", "bin", "sbin"):
        if os.path.islink(f"/{link}"):
            cmd += ["--symlink", os.readlink(f"/{link}"), f"/{link}"]
    for prefix in sorted({os.path.realpath(p) for p in (sys.prefix, sys.base_prefix)}):
        if not prefix.startswith("/usr"):
            cmd += ["--ro-bind", prefix, prefix]
    if os.path.realpath(sys.prefix) != sys.prefix:  # a venv reached through a symlink
        cmd += ["--ro-bind", sys.prefix, sys.prefix]
    cmd += ["--ro-bind", str(STUDENT), "/grader/student.py", "--ro-bind", str(course), "/course",
            "--remount-ro", "/dev", "--remount-ro", "/",  # bwrap's own tmpfs root: /tmp alone is writable
            "--chdir", "/tmp", "--clearenv", "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", "/tmp",
            "--setenv", "MPLBACKEND", "Agg", "--setenv", "MPLCONFIGDIR", "/tmp",
            "--setenv", "OPENBLAS_NUM_THREADS", "1", "--setenv", "OMP_NUM_THREADS", "1",
            "--setenv", "MKL_NUM_THREADS", "1",
            python, "-I", "-B", "/grader/student.py"]
    return cmd


def sandbox_problem() -> str | None:
    """Why the sandbox cannot run here, or ``None`` if it works (tried for real)."""
    if shutil.which("bwrap") is None:
        return "bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    with tempfile.TemporaryDirectory() as course:
        cmd = sandbox_command(Path(course))
        cmd[-3:] = ["-I", "-c", "import numpy"]
        try:
            run = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"bubblewrap does not run: {exc}"
    if run.returncode != 0:
        return ("bubblewrap cannot create its sandbox here (user namespaces disabled? in a container, "
                f"allow them or grade on the host): {run.stderr.strip()[:300]}")
    return None


def course_copy(dest: Path, withdrawn: list[str], package: Path = COURSE_PACKAGE) -> Path:
    """Copy the ``mlnotes`` package into ``dest/mlnotes`` with each withdrawn function
    (``"mlnotes.svm.bias_from_gradient"``) replaced by a stub that raises: its source is not in
    the copy either. Return ``dest``."""
    target = dest / "mlnotes"
    shutil.copytree(package, target, ignore=shutil.ignore_patterns("__pycache__"))
    by_module: dict[Path, list[str]] = {}
    for dotted in withdrawn:
        *module, name = dotted.split(".")
        if module[:1] != ["mlnotes"] or len(module) < 2:
            raise ValueError(f"withdraw: {dotted!r} is not a function of an mlnotes module")
        path = target.joinpath(*module[1:]).with_suffix(".py")
        by_module.setdefault(path, []).append(name)
    for path, names in by_module.items():
        lines = path.read_text().split("\n")
        tree = ast.parse("\n".join(lines))
        found = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
        missing = set(names) - set(found)
        if missing:
            raise ValueError(f"withdraw: {path.stem} has no function {sorted(missing)}")
        for node in sorted((found[n] for n in names), key=lambda n: -n.lineno):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
            module_name = "mlnotes." + ".".join(path.relative_to(target).with_suffix("").parts)
            stub = [f"def {node.name}(*args, **kwargs):",
                    f'    raise RuntimeError("{module_name}.{node.name} is withdrawn while this assignment '
                    f'is graded: the question asks you to write it")']
            lines[first:node.end_lineno] = stub
        path.write_text("\n".join(lines))
    return dest


def _limits(memory_mb: int, timeout: float):
    """Resource limits set in the child before it runs bwrap (inherited by everything inside)."""

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_mb * 2**20,) * 2)
        cpu = int(timeout) + 2
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
        resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 2**20,) * 2)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        # Caps a fork bomb at 64 processes when the teacher grades as an ordinary user (counted per
        # user namespace since Linux 5.14); the kernel exempts root, whose sandbox is then bounded
        # by the time limit and the pid namespace (everything in it dies with it).
        resource.setrlimit(resource.RLIMIT_NPROC, (64, 64))

    return apply


class Student:
    """The student's process: started in the sandbox, spoken to as data, killed at the deadline."""

    def __init__(self, course: Path, *, deadline: float, memory_mb: int, sandbox: bool, timeout: float):
        self.deadline, self.buffer, self.dead, self.next_id = deadline, b"", None, 0
        if sandbox:
            cmd, cwd = sandbox_command(course), "/"
        else:  # --unsafe: the teacher's user, a scratch folder, the same protocol
            self._scratch = tempfile.TemporaryDirectory()
            cmd, cwd = [sys.executable, "-I", "-B", str(STUDENT)], self._scratch.name
        env = {"PATH": "/usr/bin:/bin", "HOME": cwd, "MPLBACKEND": "Agg", "OPENBLAS_NUM_THREADS": "1",
               "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     cwd=cwd, env=env, start_new_session=True,
                                     preexec_fn=_limits(memory_mb, timeout))
        os.set_blocking(self.proc.stdin.fileno(), False)

    def _write(self, message: dict) -> None:
        data = memoryview((json.dumps(message) + "\n").encode())
        fd = self.proc.stdin.fileno()
        while data:
            left = self.deadline - time.monotonic()
            if left <= 0 or not select.select([], [fd], [], left)[1]:
                raise GradingTimeout
            try:
                data = data[os.write(fd, data):]
            except BrokenPipeError as exc:
                raise StudentGone("the submission's process ended") from exc

    def _read(self) -> dict:
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            left = self.deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise GradingTimeout
            chunk = os.read(fd, 2**20)
            if not chunk:
                raise StudentGone("the submission's process ended (memory limit, exit or crash)")
            self.buffer += chunk
            if len(self.buffer) > wire.MAX_LINE:
                raise StudentGone("the submission sent more than 256 MiB")
        line, self.buffer = self.buffer.split(b"\n", 1)
        try:
            return json.loads(line)
        except ValueError as exc:
            raise StudentGone("the submission's process broke the protocol") from exc

    def ask(self, request: dict):
        """Send one request, return the decoded value or raise the student's error."""
        if self.dead:
            raise self.dead
        try:
            self.next_id += 1
            self._write({"id": self.next_id, **request})
            answer = self._read()
            if answer.get("id") != self.next_id:
                raise StudentGone("the submission's process broke the protocol")
        except (GradingTimeout, StudentGone) as exc:
            self.dead = exc
            self.kill()
            raise
        if "error" in answer:
            kind, message = answer["error"]
            cls = getattr(builtins, str(kind), None)
            if not (isinstance(cls, type) and issubclass(cls, Exception)):
                cls = RuntimeError
            raise cls(f"{kind} in the submitted code: {message}")
        return wire.decode(answer["value"])

    def start(self, course_dir: str, context: str, answers: list[list[str]]) -> dict:
        """Send the setup (course folder, chapter context, answer cells); return their errors."""
        try:
            self._write({"course": course_dir, "context": context, "answers": answers})
            return self._read()["errors"]
        except (GradingTimeout, StudentGone) as exc:
            self.dead = exc
            self.kill()
            raise

    def kill(self) -> None:
        """Kill the sandbox and everything in it (its session; the pid namespace does the rest)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(OSError):
                stream.close()
        if hasattr(self, "_scratch"):
            self._scratch.cleanup()


class Proxy:
    """Stands, in the grader's test namespace, for a function the submission defines."""

    def __init__(self, student: Student, name: str):
        self.student, self.__name__ = student, name

    def __call__(self, *args, **kwargs):
        try:
            request = {"call": self.__name__, "args": wire.encode(list(args)), "kwargs": wire.encode(kwargs)}
        except TypeError as exc:  # a test that passes a function or an object: the test's fault
            raise TypeError(f"the grader cannot send this argument to {self.__name__}: {exc}") from exc
        return self.student.ask(request)


# -- the assignment, as the grader reads it ---------------------------------------------------------


@dataclass
class Assignment:
    """What grading needs from an autograder zip: otter's tests and our grading file."""

    name: str
    context: str
    questions: list[dict]  # name, points, functions, values, withdraw
    tests: dict[str, Path]  # question -> extracted OK-format test file

    @classmethod
    def load(cls, autograder: Path, workdir: Path) -> Assignment:
        with zipfile.ZipFile(autograder) as z:
            if GRADING_FILE not in z.namelist():
                raise ValueError(f"{autograder} has no {GRADING_FILE}: rebuild it with `make assignments`")
            spec = json.loads(z.read(GRADING_FILE))
            z.extractall(workdir)
        tests = {q["name"]: workdir / "tests" / f"{q['name']}.py" for q in spec["questions"]}
        return cls(spec["name"], spec["context"], spec["questions"], tests)

    @property
    def withdrawn(self) -> list[str]:
        return sorted({f for q in self.questions for f in q["withdraw"]})

    def points(self) -> dict[str, float]:
        from otter.test_files import OKTestFile

        return {q: float(OKTestFile.from_file(str(path)).possible) for q, path in self.tests.items()}


def answer_cells(nb: nbformat.NotebookNode) -> dict[str, str]:
    """Question name -> source of its answer cells: the code cells otter tagged as answers (or
    solutions, in the instructor's copy) before the question's ``grader.check("name")`` cell."""
    answers, current = {}, []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        tags = cell.metadata.get("tags", [])
        check = re.match(r'grader\.check\("([^"]+)"\)', str(cell.source).strip())
        if check:
            answers[check[1]], current = "\n\n".join(current), []
        elif "otter_answer_cell" in tags or "otter_assign_solution_cell" in tags:
            current.append(str(cell.source))
    return answers


# -- grading one submission (in a grader process) ----------------------------------------------------

_GRADER: dict = {}  # per grader process: the assignment, its context namespace, the options


def _init_grader(assignment: Assignment, course: Path, options: dict) -> None:
    namespace: dict = {"__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(assignment.context, "<chapter>", "exec"), namespace)
    _GRADER.update(assignment=assignment, course=course, context=namespace, options=options)


def _case_message(result) -> str:
    """What a student needs from otter's doctest report of a failing visible case: each failing
    line and the last line of its error (not the runner's traceback)."""
    out = []
    for block in result.message.split("*" * 70)[1:]:
        lines = block.strip("\n").split("\n")
        if "Failed example:" not in lines:
            continue
        k = lines.index("Failed example:") + 1
        while k < len(lines) and lines[k].startswith("    ") and not lines[k].startswith("Exception raised"):
            out.append(lines[k].strip())
            k += 1
        detail = []  # the indented lines under "Exception raised:" or "Expected:" / "Got:"
        for line in lines[k:]:
            if line.startswith("Trying:"):
                break
            if line.startswith("    ") or line in ("Expected:", "Got:"):
                detail.append(line.strip())
        if lines[k:k + 1] == ["Exception raised:"]:
            detail = detail[-1:]
        out += ["  -> " + d for d in detail or ["failed"]]
    return "\n".join(out) or result.message.replace("❌ Test case failed\n", "").strip()


def grade_submission(submission: Path) -> dict:
    """Grade one notebook in a fresh sandbox; return its status, scores and per-case results."""
    from otter.test_files import OKTestFile

    a: Assignment = _GRADER["assignment"]
    options = _GRADER["options"]
    start = time.monotonic()
    out = {"status": "graded", "scores": {}, "cases": {}, "errors": {}, "seconds": 0.0}
    try:
        nb = nbformat.read(submission, as_version=4)
        name = nb.metadata.get("otter", {}).get("assignment_name")
        if name and name != a.name:
            raise ValueError(f"this notebook is the assignment {name!r}, not {a.name!r}")
        answers = answer_cells(nb)
    except Exception as exc:  # not JSON, not a notebook, another chapter
        out["status"] = f"error: {type(exc).__name__}: {str(exc)[:200]}"
        return out
    student = Student(_GRADER["course"], deadline=start + options["timeout"], memory_mb=options["memory_mb"],
                      sandbox=options["sandbox"], timeout=options["timeout"])
    try:
        course_dir = "/course" if options["sandbox"] else str(_GRADER["course"])
        with contextlib.suppress(GradingTimeout, StudentGone):
            out["errors"] = student.start(course_dir, a.context,
                                          [[q["name"], answers.get(q["name"], "")] for q in a.questions])
        functions = {f for q in a.questions for f in q["functions"]}
        values = {v for q in a.questions for v in q["values"]}
        for q in a.questions:
            env = dict(_GRADER["context"])
            env.update({f: Proxy(student, f) for f in functions})
            for v in values:
                with contextlib.suppress(Exception):
                    env[v] = student.ask({"get": v})
            tests = OKTestFile.from_file(str(a.tests[q["name"]]))
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), \
                    warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tests.run(env)
            out["scores"][q["name"]] = (float(tests.score), float(tests.possible))
            out["cases"][q["name"]] = [
                {"hidden": bool(r.test_case.hidden), "passed": bool(r.passed),
                 "message": "" if r.passed or r.test_case.hidden else _case_message(r)}
                for r in tests.test_case_results]
        if isinstance(student.dead, GradingTimeout):
            out["status"] = f"timeout after {options['timeout']:g} s"
        elif isinstance(student.dead, StudentGone):
            out["status"] = f"graded ({student.dead})"
    finally:
        student.kill()
    out["seconds"] = time.monotonic() - start
    return out


# -- feedback and the class's table ---------------------------------------------------------------


def feedback_text(submission: str, assignment: str, result: dict, points: dict[str, float]) -> str:
    """The student's feedback: per question the score, each visible case (with the failing
    assertion's message) and how many hidden cases passed."""
    total = sum(s for s, _ in result["scores"].values())
    lines = [f"# {assignment}: {submission}", "",
             f"Score: {total:g} / {sum(points.values()):g} ({result['status']})", ""]
    if "(chapter)" in result["errors"]:
        kind, message = result["errors"]["(chapter)"]
        lines += [f"The chapter's imports failed in the grader's sandbox: {kind}: {message}", ""]
    for name, possible in points.items():
        score = result["scores"].get(name, (0.0, possible))[0]
        lines += [f"## {name}: {score:g} / {possible:g}", ""]
        if name in result["errors"]:
            kind, message = result["errors"][name]
            lines += [f"Your answer cell raised {kind}: {message}", ""]
        cases = result["cases"].get(name, [])
        visible = [c for c in cases if not c["hidden"]]
        hidden = [c for c in cases if c["hidden"]]
        for k, case in enumerate(visible, 1):
            lines.append(f"- visible test {k}: {'passed' if case['passed'] else 'failed'}")
            if not case["passed"]:
                lines += ["", "  ```", *("  " + m for m in case["message"].splitlines()), "  ```", ""]
        if hidden:
            lines.append(f"- hidden tests: {sum(c['passed'] for c in hidden)} of {len(hidden)} passed")
        if not cases:
            lines.append("- not graded (see the status above)")
        lines.append("")
    return "\n".join(lines)


def grade_folder(autograder: Path, folder: Path, csv_path: Path, *, timeout: float = 300.0,
                 jobs: int | None = None, memory_mb: int = 2048, unsafe: bool = False,
                 feedback: Path | None = None) -> list[dict]:
    """Grade every ``*.ipynb`` in ``folder`` (and its subfolders, e.g. one per student).

    Writes ``csv_path`` (one row per submission, one column per question, total, possible, status,
    seconds) and one feedback file per submission in ``feedback`` (default: ``feedback/`` beside
    the CSV), named after the submission. ``jobs`` submissions are graded at once (default: every
    core). Each has ``timeout`` seconds and ``memory_mb`` MiB; one that runs out scores what it
    had earned before, the others are graded as usual. Raises :class:`SandboxUnavailable` if the
    sandbox cannot run and ``unsafe`` is false.
    """
    if not unsafe:
        problem = sandbox_problem()
        if problem:
            raise SandboxUnavailable(
                f"cannot grade in a sandbox: {problem}. Grading runs the students' code; without the "
                "sandbox it could read the hidden tests and write to your files. Fix the sandbox, or "
                "pass --unsafe (make grade UNSAFE=1) to grade anyway, in a throw-away account or VM.")
    folder, jobs = Path(folder), jobs or os.cpu_count() or 1
    feedback = Path(feedback) if feedback else Path(csv_path).parent / "feedback"
    submissions = sorted(p for p in folder.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    with tempfile.TemporaryDirectory() as tmp:
        assignment = Assignment.load(Path(autograder), Path(tmp) / "autograder")
        points = assignment.points()
        course = course_copy(Path(tmp) / "course", assignment.withdrawn)
        options = {"timeout": timeout, "memory_mb": memory_mb, "sandbox": not unsafe}
        if jobs == 1:
            _init_grader(assignment, course, options)
            results = [grade_submission(s) for s in submissions]
        else:
            with ProcessPoolExecutor(jobs, mp_context=get_context("fork"), initializer=_init_grader,
                                     initargs=(assignment, course, options)) as pool:
                results = list(pool.map(grade_submission, submissions))
    names, rows = list(points), []
    for sub, res in zip(submissions, results, strict=True):
        rel = sub.relative_to(folder).as_posix()
        row = {"submission": rel}
        row.update({n: float(res["scores"].get(n, (0.0, 0.0))[0]) for n in names})
        row.update(total=sum(row[n] for n in names), possible=float(sum(points.values())),
                   status=res["status"], seconds=round(res["seconds"], 2))
        rows.append(row)
        path = feedback / (rel.removesuffix(".ipynb") + ".md")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(feedback_text(rel, assignment.name, res, points))
    Path(csv_path).parent.mkdir(parents=True, exist_ok=True)
    with open(csv_path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["submission", *names, "total", "possible", "status", "seconds"])
        writer.writeheader()
        writer.writerows(rows)
    return rows
