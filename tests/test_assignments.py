"""The assignments built from the chapters are sound (issue 10).

For every chapter with coding questions (and the fixture chapter tests/fixtures/99_fixture.py),
the assignment is built with ``otter assign`` and, for every question, the tests from its
autograder (visible and hidden cases) are run in-process with otter's own test runner:

1. the reference solution passes every test case;
2. the generated student version, run as it is, fails every test case;
3. no line of a reference solution appears in the student notebook;
4. the deliberately wrong answer of tests/assignments_wrong_answers.py fails at least one case;

and each question has at least one visible and two hidden tests. Where bubblewrap is installed, the
reference and the blank notebook are also graded by the real grader (sandbox, withdrawn library
functions, answers called across processes): full marks and zero. Each question runs in a fresh
namespace holding the notebook's imports and definitions, the other questions' reference answers
and the answer under test; test data are built inside the tests (CONTRIBUTING.md), so the chapter
itself is not executed here (nbval does that). The end-to-end grading of submitted notebooks,
with its time limit, is tested on the fixture chapter.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import keyword
import os
import re
import runpy
import shutil
import time
import warnings
from pathlib import Path

import nbformat
import pytest
import yaml

from tools import assignments

ROOT = Path(__file__).resolve().parent.parent
WRONG_ANSWERS = runpy.run_path(str(ROOT / "tests" / "assignments_wrong_answers.py"))["WRONG_ANSWERS"]
FIXTURE = ROOT / "tests" / "fixtures" / "99_fixture.py"
CHAPTERS = [*assignments.chapters_with_questions(ROOT), FIXTURE]
# otter's notebook machinery uses a traitlets idiom that traitlets deprecates: not our code
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:traitlets")


def _run(source: str, env: dict) -> None:
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an answer's warnings are the student's business
        exec(compile(source, "<answer>", "exec"), env)


def _case_results(question: assignments.Question, env: dict) -> list[tuple[bool, bool]]:
    """(hidden, passed) for each test case of ``question``, run in a copy of ``env``."""
    from otter.test_files import OKTestFile

    tests = OKTestFile.from_file(str(question.tests))
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tests.run(dict(env))
    return [(r.test_case.hidden, r.passed) for r in tests.test_case_results]


def _namespace(context: str, qs: list[assignments.Question], q: assignments.Question, answer: str) -> dict:
    """The notebook's context, the other questions' reference answers, then ``answer`` for ``q``."""
    env: dict = {"__name__": "__main__"}
    _run(context, env)
    for other in qs:
        if other is not q:
            _run(other.reference, env)
    try:
        _run(answer, env)
    except Exception:  # an answer cell that cannot even run fails its tests, as in a notebook
        pass
    return env


def _solution_lines(chapter: Path) -> set[str]:
    """The lines of the chapter's reference solutions that carry code (not blank, not a comment,
    not only keywords and punctuation such as ``else:`` or ``)``)."""
    lines, inside = set(), False
    for raw in chapter.read_text().splitlines():
        line = raw.strip()
        if line.endswith("# BEGIN SOLUTION") or line.endswith("# END SOLUTION"):
            inside = line.endswith("# BEGIN SOLUTION")
            continue
        if (inside or line.endswith("# SOLUTION")) and line and not line.startswith("#"):
            names = [w for w in re.findall(r"[A-Za-z_]\w*", line) if not keyword.iskeyword(w)]
            if names:
                lines.add(re.sub(r"\s+", " ", line))
    return lines


def _visible_lines(nb: nbformat.NotebookNode) -> set[str]:
    """Every line a student sees: cell sources and the visible tests in the notebook metadata."""
    texts = [cell.source for cell in nb.cells]
    for test in nb.metadata.get("otter", {}).get("tests", {}).values():
        texts += [case["code"] for suite in test["suites"] for case in suite["cases"]]
    return {re.sub(r"\s+", " ", line.strip().removeprefix(">>> ").removeprefix("... "))
            for text in texts for line in text.splitlines()}


@pytest.mark.parametrize("chapter", CHAPTERS, ids=[c.stem for c in CHAPTERS])
def test_assignment_is_sound(chapter: Path, tmp_path: Path) -> None:
    built = assignments.build_assignment(chapter, tmp_path / "dist")
    qs = assignments.questions(built, tmp_path / "autograder")
    student_nb = nbformat.read(built / "student" / f"{chapter.stem}.ipynb", as_version=4)
    context = assignments.context_source(student_nb)
    assert qs, f"{chapter.name}: no question was built"
    wrong_answers, problems = WRONG_ANSWERS.get(chapter.stem, {}), []
    for q in qs:
        reference = _case_results(q, _namespace(context, qs, q, q.reference))
        student = _case_results(q, _namespace(context, qs, q, q.student))
        if "..." not in q.student:
            problems.append(f"{q.name}: the student notebook has no answer cell to fill in")
        hidden = [h for h, _ in reference]
        if all(hidden) or sum(hidden) < 2:
            problems.append(f"{q.name}: needs a visible and two hidden tests, has {len(hidden)} tests, "
                            f"{sum(hidden)} hidden")
        if not all(passed for _, passed in reference):
            problems.append(f"{q.name}: the reference solution fails test cases "
                            f"{[k for k, (_, p) in enumerate(reference) if not p]}")
        if any(passed for _, passed in student):
            problems.append(f"{q.name}: the blank student version passes test cases "
                            f"{[k for k, (_, p) in enumerate(student) if p]}")
        if q.name not in wrong_answers:
            problems.append(f"{q.name}: no wrong answer in tests/assignments_wrong_answers.py")
        elif all(p for _, p in _case_results(q, _namespace(context, qs, q, wrong_answers[q.name]))):
            problems.append(f"{q.name}: its wrong answer in assignments_wrong_answers.py passes every test")
    unknown = set(wrong_answers) - {q.name for q in qs}
    if unknown:
        problems.append(f"wrong answers for questions the chapter does not have: {sorted(unknown)}")
    myst = re.compile(r"^\s*(`{3,}|:{3,})\{|\{[\w:-]+\}`|^\s*\([\w:.-]+\)=\s*$", re.MULTILINE)
    left = sorted({m.group(0).strip() for cell in student_nb.cells if cell.cell_type == "markdown"
                   for m in myst.finditer(cell.source)})
    if left:
        problems.append(f"MyST left in the student notebook's Markdown: {left}")
    leaked = _solution_lines(chapter) & _visible_lines(student_nb)
    if leaked:
        problems.append(f"solution lines in the student notebook: {sorted(leaked)}")
    if shutil.which("bwrap"):  # the same through the real grader: sandbox, withdrawn functions, data only
        subs = tmp_path / "submissions"
        subs.mkdir()
        nbformat.write(nbformat.read(built / "autograder" / f"{chapter.stem}.ipynb", as_version=4),
                       subs / "reference.ipynb")
        nbformat.write(student_nb, subs / "blank.ipynb")
        rows = {r["submission"]: r for r in assignments.grade_folder(
            built / "autograder" / "autograder.zip", subs, tmp_path / "scores.csv", jobs=1, timeout=120)}
        if rows["reference.ipynb"]["total"] != rows["reference.ipynb"]["possible"]:
            problems.append(f"the grader gives the reference {rows['reference.ipynb']}; feedback:\n"
                            + (tmp_path / "feedback" / "reference.md").read_text())
        if rows["blank.ipynb"]["total"] != 0:
            problems.append(f"the grader gives the blank notebook {rows['blank.ipynb']['total']} points")
    assert not problems, f"{chapter.name}:\n  " + "\n  ".join(problems)


def test_every_chapter_has_five_coding_questions() -> None:
    """CONTRIBUTING.md, "Exercises": at least five autograded coding questions per chapter."""
    counts = {p.stem: len(assignments.withdrawals(p)) for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))}
    assert all(n >= 5 for n in counts.values()), counts


def test_chapters_write_each_question_as_one_tests_cell() -> None:
    """CONTRIBUTING.md, "Exercises": no otter markup in a chapter (it would be seven cells after
    every exercise in JupyterLab); the pipeline writes it (tools/assignments._otter_format)."""
    import jupytext

    for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py")):
        cells = jupytext.read(p).cells
        assert not [c.source[:40] for c in cells if c.cell_type == "raw"], p.name
        assert not [c.source[:40] for c in cells if "# BEGIN TEST CONFIG" in c.source], p.name


def test_myst_to_markdown() -> None:
    md = assignments.myst_to_markdown(
        "(sec-a)=\n## A\n\n```{exercise}\n:label: ex-a\nShow {eq}`eq-b` from {cite}`hastie2009`.\n```\n\n"
        "```{solution} ex-a\n:class: dropdown\nsecret\n```\n\n$$\nx = 1\n$$ (eq-b)\n\n"
        "````{prf:theorem} Gauss\n:label: thm-g\nSee {ref}`the section <sec-a>`.\n````\n"
        "```{admonition} Why it works\nUse {func}`mlnotes.check.rel_error`.\n```\n"
    )
    assert "secret" not in md and "{" not in md.replace("\\tag{eq-b}", "") and "(sec-a)=" not in md
    assert "**Exercise.**\n\nShow (eq-b) from [hastie2009]." in md
    assert "x = 1\n\\tag{eq-b}$$" in md
    assert "**Theorem** (Gauss)\n\nSee the section." in md
    assert "**Why it works.**\n\nUse `mlnotes.check.rel_error`." in md


def test_student_notebook_reads_as_the_book() -> None:
    """A real chapter's master notebook: the book's numbers, numbered headings, no MyST, no macros
    cell (its macros are expanded, not redefined), no conceptual solution."""
    nb = assignments.master_notebook(ROOT / "notebooks" / "02_logistic_regression.py")
    md = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "\\def" not in md and "math:" not in md and not re.search(r"\{[\w:-]+\}`", md)
    assert "## 2.1 " in md and "\\tag{2.1}" in md and "**Exercise 2.1" in md and "<details>" not in md


def test_book_macros_are_expanded_for_jupyterlab() -> None:
    macros = assignments.book_macros(ROOT)
    assert macros["R"] == r"\mathbb{R}"
    assert assignments.expand_macros(r"$x \in \R^d \Rightarrow \argmin_w$", macros) == (
        r"$x \in \mathbb{R}^d \Rightarrow " + macros["argmin"] + "_w$")


def test_solution_cells_are_wrapped_for_otter() -> None:
    nb = assignments.master_notebook(FIXTURE)
    first = nb.cells[0]
    assert first.cell_type == "raw" and first.source.startswith("# ASSIGNMENT CONFIG")
    sources = [c.source.split("\n")[0] for c in nb.cells if c.cell_type == "raw"]
    assert sources[1:7] == ["# BEGIN QUESTION", "# BEGIN SOLUTION", "# END SOLUTION", "# BEGIN TESTS",
                            "# END TESTS", "# END QUESTION"]


def test_a_tests_cell_becomes_otters_question() -> None:
    """The chapter's one tests cell per question becomes otter's format: the question's config
    before its exercise, then a test cell per case, hidden ones with otter's TEST CONFIG."""
    nb = assignments.master_notebook(FIXTURE)
    begin = next(i for i, c in enumerate(nb.cells) if c.source.startswith("# BEGIN QUESTION"))
    assert yaml.safe_load(nb.cells[begin].source.split("\n", 1)[1]) == {"name": "fixture-hinge-loss", "points": 2}
    assert nb.cells[begin + 1].cell_type == "markdown" and "Exercise" in nb.cells[begin + 1].source
    tests = next(i for i, c in enumerate(nb.cells) if c.source == "# BEGIN TESTS")
    cases = [c.source for c in nb.cells[tests + 1: tests + 4]]
    assert cases[0].startswith("Mt = np.random.default_rng(1)") and nb.cells[tests + 4].source == "# END TESTS"
    assert all(c.startswith('""" # BEGIN TEST CONFIG\nhidden: true\n""" # END TEST CONFIG\n') for c in cases[1:])


@pytest.mark.parametrize("source, problem", [
    ("x = 1\n# TEST\nassert x == 1", "only comments before the first"),
    ("# no case at all", "only comments before the first"),
])
def test_a_malformed_tests_cell_is_refused(tmp_path, source, problem) -> None:
    chapter = tmp_path / "99_bad.py"
    chapter.write_text('# %% [markdown]\n# ```{exercise}\n# Write f.\n# ```\n\n# %%\ndef f():\n    return 1\n\n'
                       '# %% tags=["remove-cell"]\n# QUESTION {name: bad, points: 1}\n' + source + "\n")
    with pytest.raises(ValueError, match=problem):
        assignments.master_notebook(chapter)


def test_tests_without_an_exercise_above_are_refused(tmp_path) -> None:
    chapter = tmp_path / "99_bad.py"
    chapter.write_text('# %%\ndef f():\n    return 1\n\n'
                       '# %% tags=["remove-cell"]\n# QUESTION {name: bad, points: 1}\n# TEST\nassert f() == 1\n')
    with pytest.raises(ValueError, match="no {exercise} above"):
        assignments.master_notebook(chapter)


def _descendants(pid: int) -> set[int]:
    """The processes started by ``pid``, their children, ... (Linux ``/proc``)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = set(), [pid]
    while todo:
        children = parents.get(todo.pop(), [])
        found.update(children)
        todo += children
    return found


needs_sandbox = pytest.mark.skipif(shutil.which("bwrap") is None,
                                   reason="bubblewrap is not installed (Debian package bubblewrap)")


def _with_answers(nb: nbformat.NotebookNode, answers: dict[str, str]) -> nbformat.NotebookNode:
    """A copy of a student notebook whose answer cell defining ``f`` is replaced by answers[f]."""
    nb = nbformat.from_dict(json.loads(json.dumps(nb)))
    for cell in nb.cells:
        if "otter_answer_cell" in cell.metadata.get("tags", []):
            for function, source in answers.items():
                if f"def {function}(" in cell.source:
                    cell.source = source
    return nb


@needs_sandbox
def test_grade_folder_scores_feedback_and_time_limit(tmp_path: Path) -> None:
    """Reference and blank copies get full and zero marks; an infinite loop is stopped by the
    time limit with everything it started, and scores zero while the others are graded; a broken
    file is reported; each submission gets its feedback file."""
    built = assignments.build_assignment(FIXTURE, tmp_path / "dist")
    subs = tmp_path / "submissions"
    (subs / "dan").mkdir(parents=True)
    reference = nbformat.read(built / "autograder" / f"{FIXTURE.stem}.ipynb", as_version=4)
    blank = nbformat.read(built / "student" / f"{FIXTURE.stem}.ipynb", as_version=4)
    nbformat.write(reference, subs / "reference.ipynb")
    nbformat.write(blank, subs / "blank.ipynb")
    loop = "import subprocess, sys\nsubprocess.Popen([sys.executable, '-c', 'while True: pass'])\n" \
           "def hinge_loss(M):\n    while True:\n        pass"
    nbformat.write(_with_answers(blank, {"hinge_loss": loop}), subs / "loop.ipynb")
    half = "def rbf_gram(X, gamma):\n    return np.exp(-gamma * np.sum((X[:, None] - X[None]) ** 2, axis=2))"
    hinge = "def hinge_loss(M):\n    return np.maximum(0.0, 1.0 - M)"
    nbformat.write(_with_answers(blank, {"hinge_loss": hinge, "rbf_gram": half.replace("-gamma", "-2 * gamma")}),
                   subs / "dan" / "wrong.ipynb")
    (subs / "broken.ipynb").write_text("not a notebook")

    before = _descendants(os.getpid())
    rows = assignments.grade_folder(built / "autograder" / "autograder.zip", subs, tmp_path / "scores.csv",
                                    timeout=20, jobs=2)
    assert not _descendants(os.getpid()) - before  # the looping sandbox was killed with its child
    by_name = {r["submission"]: r for r in rows}
    assert by_name["reference.ipynb"]["total"] == by_name["reference.ipynb"]["possible"] == 5
    assert by_name["reference.ipynb"]["status"] == by_name["blank.ipynb"]["status"] == "graded"
    assert by_name["blank.ipynb"]["total"] == 0
    assert by_name["loop.ipynb"]["status"] == "timeout after 20 s" and by_name["loop.ipynb"]["total"] == 0
    assert by_name["broken.ipynb"]["status"].startswith("error: NotJSONError")
    # partial credit per case: the wrong gamma passes the hidden properties (symmetric, unit
    # diagonal, PSD) but not the two comparisons with the library: 1 of 3 cases of 3 points
    assert by_name["dan/wrong.ipynb"]["fixture-rbf-gram"] == 1.0
    with open(tmp_path / "scores.csv") as f:
        table = list(csv.DictReader(f))
    assert [r["submission"] for r in table] == ["blank.ipynb", "broken.ipynb", "dan/wrong.ipynb", "loop.ipynb",
                                                "reference.ipynb"]
    assert {"fixture-hinge-loss", "fixture-rbf-gram", "total", "status", "seconds"} <= set(table[0])
    assert json.loads(json.dumps(rows))  # plain values, ready for a gradebook
    wrong = (tmp_path / "feedback" / "dan" / "wrong.md").read_text()
    assert "## fixture-rbf-gram: 1 / 3" in wrong and "- visible test 1: failed" in wrong
    assert "assert np.allclose(rbf_gram(Xt, 0.5), kernels.rbf_kernel(Xt, gamma=0.5))" in wrong
    assert "- hidden tests: 1 of 2 passed" in wrong
    assert "hidden: true" not in wrong and "rbf_gram(Xt, 2.0)" not in wrong  # no hidden test code


@needs_sandbox
def test_sandbox_denies(tmp_path: Path) -> None:
    """What a submission's code can see and do in the sandbox, asked of the sandbox itself: no
    repository, hidden tests or other submissions in view, nothing writable but a private /tmp,
    no network, a memory limit, and the withdrawn library functions raise."""
    from tools.assignments import grade

    secret = tmp_path / "hidden" / "tests.py"
    secret.parent.mkdir()
    secret.write_text("expected = 42")
    probe = f"""
import os, socket
def probe():
    seen = {{}}
    def attempt(name, action):
        try:
            action()
            seen[name] = "allowed"
        except BaseException as exc:
            seen[name] = type(exc).__name__
    attempt("read hidden tests", lambda: open({str(secret)!r}).read())
    try:  # the Python environment may live in the repository (.venv): only it is visible there
        seen["repository"] = sorted(os.listdir({str(ROOT)!r}))
    except OSError:
        seen["repository"] = []
    attempt("write beside submissions", lambda: open({str(tmp_path / "pwned")!r}, "w").write("x"))
    attempt("write course package", lambda: open("/course/mlnotes/pwned.py", "w").write("x"))
    attempt("write /tmp", lambda: open("/tmp/scratch", "w").write("x"))
    attempt("write /", lambda: open("/pwned", "w").write("x"))
    attempt("write /dev/shm", lambda: open("/dev/shm/pwned", "w").write("x"))
    attempt("connect", lambda: socket.create_connection(("1.1.1.1", 53), timeout=2))
    attempt("allocate 4 GiB", lambda: bytearray(4 * 2**30))
    from mlnotes import svm
    attempt("withdrawn function", lambda: svm.bias_from_gradient(None, None, None, 1.0))
    attempt("its source", lambda: "alpha" in open(svm.__file__).read().split("def bias_from_gradient")[1][:200]
            or 1 / 0)
    seen["processes"] = len([p for p in os.listdir("/proc") if p.isdigit()])
    seen["root"] = sorted(os.listdir("/"))
    return seen
"""
    course = grade.course_copy(tmp_path / "course", ["mlnotes.svm.bias_from_gradient"])
    student = grade.Student(course, deadline=time.monotonic() + 60, memory_mb=2048, sandbox=True, timeout=60)
    try:
        assert student.start("/course", "import numpy as np", [["probe", probe]]) == {}
        seen = student.ask({"call": "probe", "args": [], "kwargs": {"__dict__": []}})
    finally:
        student.kill()
    assert not (tmp_path / "pwned").exists()
    assert seen["read hidden tests"] == "FileNotFoundError"
    assert set(seen["repository"]) <= {".venv"}
    assert seen["write beside submissions"] == "FileNotFoundError"
    assert seen["write course package"] == "OSError"  # read-only file system
    assert seen["write /tmp"] == "allowed"
    assert seen["write /"] == seen["write /dev/shm"] == "OSError"  # read-only: /tmp is the only scratch space
    assert seen["connect"] == "OSError"  # network unreachable
    assert seen["allocate 4 GiB"] == "MemoryError"
    assert seen["withdrawn function"] == "RuntimeError" and seen["its source"] == "ZeroDivisionError"
    assert seen["processes"] <= 3  # bwrap's init and the student's python, not the machine's


def test_grading_refuses_without_sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No bwrap: grading stops and says why, unless --unsafe; with it the tests still run in the
    grader's process, not the student's."""
    built = assignments.build_assignment(FIXTURE, tmp_path / "dist")
    subs = tmp_path / "submissions"
    subs.mkdir()
    blank = nbformat.read(built / "student" / f"{FIXTURE.stem}.ipynb", as_version=4)
    cheat = "import numpy as np\nnp.allclose = lambda *a, **k: True\ndef hinge_loss(M):\n    return 0.0"
    nbformat.write(_with_answers(blank, {"hinge_loss": cheat}), subs / "cheat.ipynb")
    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap on it
    zip_path = built / "autograder" / "autograder.zip"
    with pytest.raises(assignments.SandboxUnavailable, match="bubblewrap is not installed.*--unsafe"):
        assignments.grade_folder(zip_path, subs, tmp_path / "scores.csv")
    assert not (tmp_path / "scores.csv").exists()
    rows = assignments.grade_folder(zip_path, subs, tmp_path / "scores.csv", unsafe=True, jobs=1, timeout=60)
    assert rows[0]["total"] == 0 and rows[0]["status"] == "graded"


@needs_sandbox
def test_adversarial_submissions_score_zero(tmp_path: Path) -> None:
    """Issue 18's submissions to Chapter 4: monkeypatching np.isclose, hunting for the tests,
    writing outside the folder, calling the library's own function. Each scores 0."""
    chapter = ROOT / "notebooks" / "04_support_vector_machines.py"
    built = assignments.build_assignment(chapter, tmp_path / "dist")
    blank = nbformat.read(built / "student" / f"{chapter.stem}.ipynb", as_version=4)
    subs = tmp_path / "submissions"
    subs.mkdir()
    zero = "def hinge_subgradient(w, b, X, y, C):\n    return 0.0, 0.0"
    attacks = {
        "isclose": "import numpy as np\nnp.isclose = lambda *a, **k: True\nnp.allclose = lambda *a, **k: True\n"
                   "import builtins\nbuiltins.AssertionError = type('Pass', (Exception,), {})\n"
                   "def svm_bias(alpha, y, K, C):\n    return 0.0",
        "hunt": "import os, glob\nfound = []\nfor d, subdirs, files in os.walk('/'):\n"
                "    subdirs[:] = [s for s in subdirs if s not in ('proc', 'usr', 'sys', 'dev', 'site-packages')]\n"
                "    found += [os.path.join(d, f) for f in files if 'test' in f or f.endswith(('.zip', '.csv'))]\n"
                "found += glob.glob('tests/*') + glob.glob('../*/tests/*.py')\n"
                "expected = [open(f).read() for f in found if f.endswith('.py') and 'svm-bias' in f]\n"
                "def svm_bias(alpha, y, K, C):\n    return float(expected[0].split('fit_test.b')[0][-5:]) "
                "if expected else 0.0",
        "escape": f"for p in [{str(subs / 'scores.csv')!r}, {str(subs / 'pwned.ipynb')!r}, '../pwned', "
                  f"{str(tmp_path / 'pwned')!r}]:\n    try:\n        open(p, 'w').write('x')\n"
                  "    except OSError:\n        pass\ndef svm_bias(alpha, y, K, C):\n    return 0.0",
        "library": "from mlnotes import svm\ndef svm_bias(alpha, y, K, C):\n"
                   "    return svm.bias_from_gradient(alpha, y, y * (K @ (alpha * y)) - 1.0, C)",
    }
    for name, attack in attacks.items():
        nbformat.write(_with_answers(blank, {"svm_bias": attack, "hinge_subgradient": zero}), subs / f"{name}.ipynb")
    rows = assignments.grade_folder(built / "autograder" / "autograder.zip", subs, subs / "scores.csv", timeout=60)
    assert {r["submission"]: r["total"] for r in rows} == {f"{name}.ipynb": 0.0 for name in attacks}
    assert all(r["status"] == "graded" for r in rows)
    assert not (subs / "pwned.ipynb").exists() and not (tmp_path / "pwned").exists()
    assert "withdrawn while this assignment is graded" in (subs / "feedback" / "library.md").read_text()
