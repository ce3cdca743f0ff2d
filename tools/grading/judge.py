"""Judging one submission: its answers run in the sandbox, the tests run here, one question at a time.

Threats, and what stops each:

- a submission that changes the comparison (monkeypatching ``np.isclose``, an ``__eq__`` that is
  always true): the tests never run in the student's process. Each name an answer defines is a
  :class:`~tools.grading.channel.Proxy` in a clean namespace of the grader's; arguments and
  results cross as data, and the comparisons, reference values and hidden test code stay here;
- a loop or a crash in one answer: each question has its own time budget. Cells run one at a
  time, so an answer cell that never ends is known by name and left out; a question whose tests
  run out of time, or whose process dies, scores what its finished cases earned, and the next
  question starts a fresh process;
- hidden tests leaking: a failing hidden case reports the property it checks (from the grading
  spec), never its inputs, code or the student's output on it.

Tests are otter-grader's OK-format files from the autograder zip; each case's doctest examples
are run here one by one, and a failing case keeps its full error message (an
``np.testing.assert_allclose`` report shows both values) for the feedback.
"""

from __future__ import annotations

import ast
import contextlib
import doctest
import io
import json
import re
import time
import traceback
import warnings
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from .channel import GradingTimeout, Proxy, StudentError, StudentGone, StudentProcess
from .limits import Confinement
from .sandbox import COURSE_PACKAGE, WITHDRAWN, course_copy, hidden_modules

GRADING_FILE = "mlnotes-grading.json"  # added to otter's autograder.zip by ``tools.assignments``
MESSAGE_CHARS = 2000  # of a failing visible case's error


@dataclass
class Case:
    """One test case of a question: its doctest source, points, and what it checks."""

    code: str
    points: float
    hidden: bool
    property: str = ""


@dataclass
class Question:
    name: str
    points: float
    cases: list[Case]
    functions: list[str]
    values: list[str]
    withdraw: list[str] = field(default_factory=list)


@dataclass
class Assignment:
    """What grading needs from an autograder zip: otter's tests and our grading file."""

    name: str
    context: str
    questions: list[Question]

    @classmethod
    def load(cls, autograder: Path) -> Assignment:
        from otter.test_files import OKTestFile

        with zipfile.ZipFile(autograder) as z:
            if GRADING_FILE not in z.namelist():
                raise ValueError(f"{autograder} has no {GRADING_FILE}: rebuild it with `make assignments`")
            spec = json.loads(z.read(GRADING_FILE))
            questions = []
            for q in spec["questions"]:
                env: dict = {}
                exec(z.read(f"tests/{q['name']}.py").decode(), env)  # the teacher's zip: trusted
                ok = OKTestFile.from_spec(env["test"])
                described = q.get("cases") or [{}] * len(ok.test_cases)
                cases = [Case(c.body, float(c.points), bool(c.hidden), d.get("property", ""))
                         for c, d in zip(ok.test_cases, described, strict=True)]
                questions.append(Question(q["name"], float(sum(c.points for c in cases)), cases,
                                          q["functions"], q["values"], list(q.get("withdraw", []))))
        return cls(spec["name"], spec["context"], questions)

    def points(self) -> dict[str, float]:
        return {q.name: q.points for q in self.questions}


def answer_cells(nb: nbformat.NotebookNode) -> dict[str, str]:
    """Question name -> source of its answer cells: the code cells otter tagged as answers (or
    solutions, in the instructor's copy) before the question's ``grader.check("name")`` cell."""
    answers, current = {}, []
    for cell in nb.cells:
        if cell.get("cell_type") != "code":
            continue
        tags = cell.get("metadata", {}).get("tags", [])
        source = str(cell.get("source", ""))
        check = re.match(r'grader\.check\("([^"]+)"\)', source.strip())
        if check:
            answers[check[1]], current = "\n\n".join(current), []
        elif isinstance(tags, list) and ("otter_answer_cell" in tags or "otter_assign_solution_cell" in tags):
            current.append(source)
    return answers


def needed_context(context: str, answers: str) -> list[str]:
    """The chapter's imports and definitions that the answers may use: each imported name and
    each definition whose name occurs in the answers' text (or in a kept definition). A chapter
    imports plotting and symbolic libraries the answers never touch; importing them for every
    submission would cost more than the grading."""
    statements = []  # one import per name: ``from mlnotes import claims, svm`` -> two
    for node in ast.parse(context).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)) and len(node.names) > 1:
            for alias in node.names:
                one = ast.Import(names=[alias]) if isinstance(node, ast.Import) else \
                    ast.ImportFrom(module=node.module, names=[alias], level=node.level)
                statements.append(ast.unparse(one))
        else:
            statements.append(ast.get_source_segment(context, node))
    context = "\n".join(statements)
    tree = ast.parse(context)
    kept, text, changed = set(), answers, True
    while changed:  # definitions may use other definitions and imports
        changed = False
        for k, node in enumerate(tree.body):
            if k in kept:
                continue
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [(a.asname or a.name).split(".")[0] for a in node.names]
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names = [node.name]
            else:
                names = []
            if any(re.search(rf"\b{re.escape(n)}\b", text) for n in names) or not names:
                kept.add(k)
                text += "\n" + ast.get_source_segment(context, node)
                changed = True
    # one statement each: an import that fails (a module withdrawn for this question) costs
    # only itself, not the imports after it
    return [ast.get_source_segment(context, node) for k, node in enumerate(tree.body) if k in kept]


# -- running one case ----------------------------------------------------------------------------


def _error_text(exc: BaseException) -> str:
    """An exception as the student should read it: its type and whole message, no traceback."""
    return "".join(traceback.format_exception_only(type(exc), exc)).strip()


def run_case(code: str, env: dict) -> str | None:
    """Run one test case's doctest examples in ``env``; ``None`` if it passes, else what failed:
    the failing line and the error (or the expected and printed output)."""
    examples = doctest.DocTestParser().get_examples(code)
    for example in examples:
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()), \
                    warnings.catch_warnings():
                warnings.simplefilter("ignore")
                compiled = compile(example.source, "<test>", "single")
                exec(compiled, env)
        except (GradingTimeout, StudentGone):
            raise
        except BaseException as exc:  # noqa: BLE001 - any error is the case's failure
            return f"{example.source.strip()}\n-> {_error_text(exc)}"
        if example.want and out.getvalue().strip() != example.want.strip():
            return f"{example.source.strip()}\n-> expected {example.want.strip()!r}, got {out.getvalue().strip()!r}"
    return None


# -- one submission -------------------------------------------------------------------------------


@dataclass
class QuestionResult:
    score: float
    possible: float
    status: str = "graded"  # or "timeout after 60 s", "crashed: ...", "not answered"
    error: tuple[str, str] | None = None  # the answer cell's own error
    cases: list[dict] = field(default_factory=list)  # hidden, passed, message, property


class Judge:
    """Grades submissions of one assignment; set up once per grader process.

    Each question is judged in a student process whose library has *that question's* withdrawals
    (a copy of the course package per withdrawal set, made here once): a module withdrawn for one
    question stays available to the others, and to the chapter's imports they need.
    """

    def __init__(self, assignment: Assignment, workdir: Path, *, question_timeout: float, memory_mb: int,
                 sandbox: bool, confinement: Confinement | None = None, package: Path = COURSE_PACKAGE):
        self.assignment, self.sandbox = assignment, sandbox
        self.question_timeout = question_timeout
        self.confinement = confinement or Confinement(memory_mb)
        self.courses: dict[frozenset[str], Path] = {}
        for q in assignment.questions:
            key = frozenset(q.withdraw)
            if key not in self.courses:
                self.courses[key] = course_copy(Path(workdir) / f"course{len(self.courses)}", sorted(key),
                                                package=package)
        self.namespace: dict = {"__name__": "__main__"}
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(assignment.context, "<chapter>", "exec"), self.namespace)

    def _start(self, withdrawn: frozenset[str], cells: list[tuple[str, str]],
               skip: dict[str, str]) -> tuple[StudentProcess, dict]:
        """A fresh student process, with ``withdrawn`` withdrawn, that has run ``cells`` (label,
        source), each within the question's time; and the errors the cells raised. A cell that
        runs out of time, or ends the process, is recorded in ``skip`` and the process started
        again without it."""
        while True:
            errors: dict = {}
            student = StudentProcess(self.courses[withdrawn], confinement=self.confinement,
                                     sandbox=self.sandbox, cpu_seconds=self.question_timeout * (len(cells) + 4),
                                     hidden=tuple(hidden_modules(sorted(withdrawn))))
            try:
                for label, source in cells:
                    if label in skip:
                        continue
                    student.deadline = time.monotonic() + self.question_timeout
                    try:
                        student.run_cell(label, source)
                    except StudentError as exc:  # the cell's own error: its question loses its points
                        if WITHDRAWN not in exc.message:  # expected, not the student's
                            errors.setdefault(label, (exc.kind, exc.message))
                return student, errors
            except GradingTimeout:
                skip[label] = f"your answer cell ran out of time ({self.question_timeout:g} s) and was left out"
            except StudentGone as exc:
                skip[label] = f"your answer cell ended its process ({exc}) and was left out"
            student.kill()

    def grade(self, nb: nbformat.NotebookNode) -> dict:
        """Grade one notebook; return its status, per-question results and errors."""
        a, start = self.assignment, time.monotonic()
        answers = answer_cells(nb)
        context = needed_context(a.context, "\n".join(answers.values()))
        # the chapter's imports, then every answer cell in order: a later answer may use an
        # earlier one's function
        cells = [("chapter", s) for s in context] + [(q.name, answers.get(q.name, "")) for q in a.questions]
        skip: dict[str, str] = {}
        results: dict[str, QuestionResult] = {}
        chapter_error = None
        student, key = None, None
        try:
            for q in a.questions:
                if student is None or student.dead or key != frozenset(q.withdraw):
                    if student is not None:
                        student.kill()
                    key = frozenset(q.withdraw)
                    student, errors = self._start(key, cells, skip)
                    chapter_error = chapter_error or errors.get("chapter")
                results[q.name] = self._grade_question(q, student, skip, errors)
        finally:
            if student is not None:
                student.kill()
        problems = [f"{name}: {r.status}" for name, r in results.items() if r.status != "graded"]
        return {"status": "graded" if not problems else "graded; " + "; ".join(problems),
                "questions": results, "chapter_error": chapter_error, "seconds": time.monotonic() - start}

    def _grade_question(self, q: Question, student: StudentProcess, skip: dict, errors: dict) -> QuestionResult:
        result = QuestionResult(0.0, q.points, error=errors.get(q.name))
        if q.name in skip:
            result.status = skip[q.name]
        env = dict(self.namespace)
        env.update({f: Proxy(student, f) for f in q.functions})
        student.deadline = time.monotonic() + self.question_timeout
        with contextlib.suppress(StudentError, GradingTimeout, StudentGone):
            for v in q.values:
                env[v] = student.ask({"get": v})
        for case in q.cases:
            try:
                failure = run_case(case.code, env) if not student.dead else "not run: " + result.status
            except GradingTimeout:
                failure = f"ran out of time ({self.question_timeout:g} s)"
            except StudentGone as exc:
                failure = f"the submission's process ended: {exc}"
            if isinstance(student.dead, GradingTimeout) and result.status == "graded":
                result.status = f"timeout after {self.question_timeout:g} s"
            elif isinstance(student.dead, StudentGone) and result.status == "graded":
                result.status = f"crashed ({student.dead})"
            passed = failure is None
            result.score += case.points if passed else 0.0
            result.cases.append({"hidden": case.hidden, "passed": passed, "property": case.property,
                                 "message": "" if passed or case.hidden else failure[:MESSAGE_CHARS]})
        return result
