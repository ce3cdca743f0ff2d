"""The grader judges submissions safely: scores, feedback, limits, the sandbox, hostile input.

The assignments themselves (built from the chapters, tests sound against reference and wrong
answers) are tested in tests/test_assignments.py; this file grades notebooks end to end.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import time
from pathlib import Path

import nbformat
import pytest

from tools import assignments
from tools.grading import answer_cells, course_copy
from tools.grading.channel import Proxy, StudentProcess
from tools.grading.sandbox import Confinement, hidden_modules

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "99_fixture.py"
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:traitlets")

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
    rbf = answer_cells(reference)["fixture-rbf-gram"]
    nbformat.write(_with_answers(blank, {"hinge_loss": loop, "rbf_gram": rbf}), subs / "loop.ipynb")
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
    # the loop costs its own question; the next question is graded in a fresh process
    assert by_name["loop.ipynb"]["status"] == "graded; fixture-hinge-loss: timeout after 20 s"
    assert by_name["loop.ipynb"]["fixture-hinge-loss"] == 0 and by_name["loop.ipynb"]["fixture-rbf-gram"] == 3
    assert by_name["broken.ipynb"]["status"].startswith("refused: not a notebook (NotJSONError")
    # partial credit per case: the wrong gamma passes the hidden properties (symmetric, unit
    # diagonal, PSD) but not the two comparisons with the library: 1 of 3 cases of 3 points
    assert by_name["dan/wrong.ipynb"]["fixture-rbf-gram"] == 1.0
    with open(tmp_path / "scores.csv") as f:
        table = list(csv.DictReader(f))
    assert [r["submission"] for r in table] == ["blank.ipynb", "broken.ipynb", "dan/wrong.ipynb", "loop.ipynb",
                                                "reference.ipynb"]
    assert {"fixture-hinge-loss", "fixture-rbf-gram", "total", "status", "seconds", "feedback"} <= set(table[0])
    assert json.loads(json.dumps(rows))  # plain values, ready for a gradebook
    wrong = (tmp_path / "feedback" / "dan__wrong.md").read_text()
    assert "## fixture-rbf-gram: 1 / 3" in wrong and "- visible test 1: failed" in wrong
    assert "assert np.allclose(rbf_gram(Xt, 0.5), kernels.rbf_kernel(Xt, gamma=0.5))" in wrong
    assert "- hidden test 1" in wrong and "- hidden test 2" in wrong
    assert [line.endswith("passed") for line in wrong.splitlines() if line.startswith("- hidden test")
            ][-2:].count(True) == 1
    assert "hidden: true" not in wrong and "rbf_gram(Xt, 2.0)" not in wrong  # no hidden test code


@needs_sandbox
def test_sandbox_denies(tmp_path: Path) -> None:
    """What a submission's code can see and do in the sandbox, asked of the sandbox itself: no
    repository, hidden tests or other submissions in view, nothing writable but a private /tmp,
    no network, a memory limit, and the withdrawn library functions raise."""
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
    course = course_copy(tmp_path / "course", ["mlnotes.svm.bias_from_gradient"])
    student = StudentProcess(course, confinement=Confinement(2048), sandbox=True, cpu_seconds=60,
                             hidden=tuple(hidden_modules([])))
    try:
        student.deadline = time.monotonic() + 60
        student.run_cell("chapter", "import numpy as np")
        student.run_cell("probe", probe)
        seen = Proxy(student, "probe")()
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
