"""The grader judges submissions safely: scores, feedback, limits, the sandbox, hostile input.

The assignments themselves (built from the chapters, tests sound against reference and wrong
answers) are tested in tests/test_assignments.py; this file grades notebooks end to end.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import shutil
import threading
import time
from pathlib import Path

import nbformat
import pytest
from markdown_it import MarkdownIt

from tools import assignments
from tools.grading import answer_cells, course_copy
from tools.grading.channel import Proxy, StudentProcess
from tools.grading.limits import SANDBOX_PROCESSES, Confinement
from tools.grading.sandbox import hidden_modules

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
    # the wrong gamma fails the comparisons and the exp(-gamma) property: 0 of 3 points
    assert by_name["dan/wrong.ipynb"]["fixture-rbf-gram"] == 0.0
    with open(tmp_path / "scores.csv") as f:
        table = list(csv.DictReader(f))
    assert [r["submission"] for r in table] == ["blank.ipynb", "broken.ipynb", "dan/wrong.ipynb", "loop.ipynb",
                                                "reference.ipynb"]
    assert {"fixture-hinge-loss", "fixture-rbf-gram", "total", "status", "seconds", "feedback"} <= set(table[0])
    assert json.loads(json.dumps(rows))  # plain values, ready for a gradebook
    wrong = (tmp_path / "feedback" / "dan__wrong.md").read_text()
    assert "## fixture-rbf-gram: 0 / 3" in wrong and "- visible test 1: failed" in wrong
    # the failing line, then what was expected and what came back
    assert "np.testing.assert_allclose(rbf_gram(Xt, 0.5), kernels.rbf_kernel(Xt, gamma=0.5)," in wrong
    assert "Not equal to tolerance" in wrong and "Max absolute difference" in wrong
    assert "- hidden test 1 (agrees with mlnotes.kernels.rbf_kernel for any size and gamma): failed" in wrong
    assert "rng_h" not in wrong and "uniform(0.1, 3.0)" not in wrong  # no hidden test code
    assert "hidden: true" not in wrong and "rbf_gram(Xt, 2.0)" not in wrong  # no hidden test code


# Inside a probe: attempt(name, action) records what the action gives in the sandbox.
RECORDER = """
import numpy as np
def recorder(seen):
    def attempt(name, action):
        try:
            action()
            seen[name] = "allowed"
        except BaseException as exc:
            seen[name] = type(exc).__name__
    return attempt
"""


@contextlib.contextmanager
def _sandboxed(course: Path, source: str, *, withdrawn: list[str] | None = None,
               confinement: Confinement | None = None, seconds: float = 60):
    """A student process in the sandbox on ``course`` that has run ``source``, killed after."""
    student = StudentProcess(course, confinement=confinement or Confinement(2048), sandbox=True,
                             cpu_seconds=seconds, hidden=tuple(hidden_modules(withdrawn or [])))
    try:
        student.deadline = time.monotonic() + seconds
        student.run_cell("probe", RECORDER + source)
        yield student
    finally:
        student.kill()


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
    attempt = recorder(seen)
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
    with _sandboxed(course, probe) as student:
        seen = Proxy(student, "probe")()
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


# -- hostile input: no submission stops the batch (issue 25) -------------------------------------


def test_channel_refuses_what_is_not_an_answer() -> None:
    """The student's process can write anything on the channel: each malformed answer is the
    submission's failure (StudentGone), never the grader's exception."""
    from tools.grading.channel import StudentGone, parse_answer

    assert parse_answer(b'{"id": 3, "value": [1, 2.5, null]}', 3) == {"value": [1, 2.5, None]}
    assert parse_answer(b'{"id": 3, "error": ["ValueError", "bad"]}', 3) == {"error": ("ValueError", "bad")}
    forged = [b'{"ready": true}', b'{"id": 2, "value": 1}', b"[" * 200_000 + b"]" * 200_000,
              b'{"id": 3, "error": {"svm-bias": 5}}', b'{"id": 3, "error": [5, 6]}', b"not json",
              b'{"id": 3, "value": {"__npy__": "AAAA", "scalar": false}}', b'{"id": 3}',
              b'{"id": 3, "value": {"__dict__": [[[1], 2]]}}', b'{"id": true, "value": 1}']
    for line in forged:
        with pytest.raises(StudentGone):
            parse_answer(line, 3)


def test_feedback_quotes_the_submissions_text() -> None:
    """Text from the submission cannot forge a heading or a score line in its feedback, and is
    capped."""
    from tools.grading.feedback import feedback_text

    forged = "x\n```\n\n# Score: 12 / 12\n" + "y" * 10**6
    result = {"status": "graded", "questions": {"q": {
        "score": 0.0, "possible": 2.0, "status": "graded", "error": ("ValueError", forged),
        "cases": [{"hidden": False, "passed": False, "message": forged, "property": ""},
                  {"hidden": True, "passed": False, "message": "", "property": "w is a minimiser"}]}}}
    text = feedback_text("a`b\r\nScore: 12 / 12.ipynb", "ch", result, {"q": 2.0})
    assert len(text) < 5000
    tokens = MarkdownIt().parse(text)  # as a Markdown viewer reads it
    paragraphs = [t.content for k, t in enumerate(tokens) if t.type == "inline"
                  and tokens[k - 1].type == "paragraph_open"]
    assert [r for r in paragraphs if "Score" in r] == ["Score: 0 / 2"]
    assert tokens[1].content == "ch: feedback on `` a`b\\x0d\\x0aScore: 12 / 12.ipynb ``"
    assert [t.tag for t in tokens if t.type == "heading_open"] == ["h1", "h2"]
    assert sum(t.type == "fence" and "# Score: 12 / 12" in t.content for t in tokens) == 2
    assert "- hidden test 1 (w is a minimiser): failed" in text


def test_feedback_files_cannot_collide() -> None:
    from tools.grading.submissions import csv_safe, feedback_names, printable

    names = ["mallory/hw.ipynb", "mallory/hw.md/x.ipynb", "mallory__hw.ipynb", "MALLORY/HW.ipynb"]
    files = feedback_names(names)
    assert len({f.lower() for f in files.values()}) == 4 and all("/" not in f for f in files.values())
    assert printable("a\r\nb\x1b[2J") == "a\\x0d\\x0ab\\x1b[2J"
    assert csv_safe("=HYPERLINK(1)") == "'=HYPERLINK(1)"


@needs_sandbox
def test_hostile_class_is_graded(tmp_path: Path) -> None:
    """Issue 25's attacks in one class: each becomes its own row with a status naming the
    problem, and the honest student beside them is graded in full, with feedback for everyone."""
    built = assignments.build_assignment(FIXTURE, tmp_path / "dist")
    instructor = built / "autograder" / f"{FIXTURE.stem}.ipynb"
    reference = nbformat.read(instructor, as_version=4)
    blank = nbformat.read(built / "student" / f"{FIXTURE.stem}.ipynb", as_version=4)
    rbf = answer_cells(reference)["fixture-rbf-gram"]
    subs = tmp_path / "class"
    (subs / "mallory" / "hw.md").mkdir(parents=True)
    nbformat.write(reference, subs / "honest.ipynb")
    nbformat.write(reference, subs / "mallory" / "hw.ipynb")
    nbformat.write(blank, subs / "mallory" / "hw.md" / "x.ipynb")
    channel = ("import os\nfor fd in range(3, 40):\n    try:\n        os.write(fd, {line!r})\n"
               "    except OSError:\n        pass\ndef hinge_loss(M):\n    return np.maximum(0.0, 1.0 - M)")
    for name, line in [("ready", b'{"ready": true}\n'), ("deep", b"[" * 200_000 + b"]" * 200_000 + b"\n"),
                       ("errors", b'{"id": 2, "error": {"svm-bias": 5}}\n')]:
        nbformat.write(_with_answers(blank, {"hinge_loss": channel.format(line=line), "rbf_gram": rbf}),
                       subs / f"{name}.ipynb")
    os.mkfifo(subs / "fifo.ipynb")
    (subs / "zero.ipynb").symlink_to("/dev/zero")
    (subs / "passwd.ipynb").symlink_to("/etc/passwd")
    (subs / "teacher.ipynb").symlink_to(instructor)
    (subs / "folder.ipynb").mkdir()
    forged = "x\r\nhonest.ipynb   12 of 12  graded\r\n.ipynb"  # no slash: it is one file name
    nbformat.write(blank, subs / forged)

    lines: list[str] = []
    rows = assignments.grade_folder(built / "autograder" / "autograder.zip", subs, tmp_path / "out" / "scores.csv",
                                    timeout=20, jobs=2, echo=lines.append)
    by_name = {r["submission"]: r for r in rows}
    assert len(rows) == 12 and by_name["honest.ipynb"]["total"] == 5
    assert by_name["mallory/hw.ipynb"]["total"] == 5 and by_name["mallory/hw.md/x.ipynb"]["total"] == 0
    for name in ("ready", "deep", "errors"):  # a broken channel costs the question that broke it
        row = by_name[f"{name}.ipynb"]
        assert row["fixture-hinge-loss"] == 0 and row["fixture-rbf-gram"] == 3, row
        assert "fixture-hinge-loss: " in row["status"], row
    for name in ("fifo", "zero", "passwd", "teacher"):
        assert by_name[f"{name}.ipynb"]["total"] == 0
    assert by_name["fifo.ipynb"]["status"] == "refused: a FIFO, device or socket, not a notebook file"
    for name in ("zero", "passwd", "teacher"):
        assert by_name[f"{name}.ipynb"]["status"].startswith("refused: a symbolic link"), name
    assert by_name["folder.ipynb"]["status"] == "refused: a folder, not a notebook file"
    escaped = "x\\x0d\\x0ahonest.ipynb   12 of 12  graded\\x0d\\x0a.ipynb"
    assert by_name[escaped]["total"] == 0
    assert not any("\r" in line or "\n" in line for line in lines)
    table = (tmp_path / "out" / "scores.csv").read_text()
    assert "root:" not in table and "\r\nhonest" not in table
    feedback = sorted(p.name for p in (tmp_path / "out" / "feedback").iterdir())
    assert len(feedback) == 12
    assert all("root:" not in p.read_text() for p in (tmp_path / "out" / "feedback").iterdir())


class _HostWatch:
    """Samples, from outside, the processes below one pid and their memory (proportional set
    size): the figures the host sees, whatever mechanism set the limits."""

    def __init__(self, pid: int):
        self.pid, self.processes, self.memory_mb, self._stop = pid, 0, 0.0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            pids = _descendants(self.pid) | {self.pid}
            pss_kb = 0  # anonymous, proportional: what the code allocated, shared pages once
            for pid in pids:
                with contextlib.suppress(OSError, ValueError, IndexError):
                    rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
                    pss_kb += int(rollup.split("\nPss_Anon:", 1)[1].split()[0])
            self.processes, self.memory_mb = max(self.processes, len(pids)), max(self.memory_mb, pss_kb / 2**10)
            time.sleep(0.02)

    def stop(self) -> _HostWatch:
        self._stop.set()
        self._thread.join()
        return self


HOGS = """
import os, time
def fan_out():
    pids = []
    for _ in range(4):
        try:
            pid = os.fork()
        except OSError:  # the process limit
            break
        if pid == 0:
            try:
                block = bytearray(1536 * 2**20)
                for i in range(0, len(block), 4096):
                    block[i] = 1
                time.sleep(3)
                os._exit(0)
            except BaseException:
                os._exit(1)
        pids.append(pid)
    try:  # and the parent's own share
        block = bytearray(1536 * 2**20)
        for i in range(0, len(block), 4096):
            block[i] = 1
    except MemoryError:
        pass
    return sum(os.waitpid(p, 0)[1] == 0 for p in pids)
def fork_bomb():
    import subprocess, sys
    started = 0
    for _ in range(300):
        try:
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(20)"])
            started += 1
        except OSError:
            break
    time.sleep(1)
    return started
"""


@needs_sandbox
@pytest.mark.parametrize("kind", ["cgroup", "uid"])
def test_limits_hold_for_the_submission_as_a_whole(tmp_path: Path, kind: str) -> None:
    """Four children of 1.5 GiB and a parent of 1.5 GiB under a 2 GiB budget, and a fork bomb of
    300: the host sees at most 2 GiB and the process limit for the submission as a whole, under a cgroup and, where
    none can be made, under an unprivileged uid per submission (as root)."""
    try:
        confinement = Confinement(2048, kinds=(kind,))
    except RuntimeError as exc:
        pytest.skip(str(exc))
    course = course_copy(tmp_path / "course", [])
    with _sandboxed(course, HOGS, confinement=confinement, seconds=120) as student:
        watch = _HostWatch(student.proc.pid)
        try:
            finished = Proxy(student, "fan_out")()
        except Exception:  # the OOM killer may take the parent too, or a fork fail  # noqa: BLE001
            finished = 0
        fan_out = watch.stop().memory_mb
        assert finished <= 1  # one 1.5 GiB child fits in 2 GiB, two do not
        # The host's sum is taken process by process, not at one instant: a child dying while
        # the next one allocates is counted twice for a moment (2066 MiB seen once at load 15,
        # with the cgroup's own peak below). Without the limit the fan-out reaches 3086 MiB.
        assert fan_out <= 2048 * 1.02
        peak = student.group.peak_memory_mb()
        assert peak is None or peak <= 2048 + 1
    with _sandboxed(course, HOGS, confinement=confinement, seconds=120) as student:
        watch = _HostWatch(student.proc.pid)
        started = Proxy(student, "fork_bomb")()
        processes = watch.stop().processes
        assert started < confinement.processes  # the student's python included
        assert processes <= confinement.processes + SANDBOX_PROCESSES
    print(f"{confinement.describe()}: fan-out peak {fan_out:.0f} MiB; fork bomb "
          f"{started} started, {processes} processes at most")


def _imports_in_sandbox(tmp_path: Path, withdrawn: list[str]) -> dict[str, str]:
    """What importing each module (or calling a private helper) gives inside the sandbox."""
    probe = """
def probe():
    seen = {}
    attempt = recorder(seen)
    import importlib
    for module in ("sklearn.svm", "statsmodels.api", "scipy.special", "mlnotes.boosting",
                   "mlnotes.claims", "scipy.linalg", "mlnotes.svm"):
        attempt(module, lambda: importlib.import_module(module))
    from mlnotes import logistic
    attempt("private helper", lambda: logistic._newton_direction(None, None, None))
    return seen
"""
    course = course_copy(tmp_path / f"course{len(withdrawn)}", withdrawn)
    with _sandboxed(course, probe, withdrawn=withdrawn) as student:
        return Proxy(student, "probe")()


@needs_sandbox
def test_withdrawal_holds_in_the_sandbox(tmp_path: Path) -> None:
    """Every route to a withdrawn answer is closed while the student's code runs: a private
    helper, a whole module, a scipy module; scikit-learn, statsmodels and the claims are hidden
    always; what is not withdrawn still works."""
    assert _imports_in_sandbox(tmp_path, []) == {
        "sklearn.svm": "ImportError", "statsmodels.api": "ImportError", "scipy.special": "allowed",
        "mlnotes.boosting": "allowed", "mlnotes.claims": "ImportError", "scipy.linalg": "allowed",
        "mlnotes.svm": "allowed", "private helper": "TypeError"}  # called with None: it ran
    withdrawn = ["mlnotes.logistic._newton_direction", "mlnotes.boosting", "scipy.special"]
    assert _imports_in_sandbox(tmp_path, withdrawn) == {
        "sklearn.svm": "ImportError", "statsmodels.api": "ImportError", "scipy.special": "ImportError",
        "mlnotes.boosting": "ImportError", "mlnotes.claims": "ImportError", "scipy.linalg": "allowed",
        "mlnotes.svm": "allowed", "private helper": "RuntimeError"}


@needs_sandbox
def test_a_stopped_run_keeps_what_it_graded(tmp_path: Path) -> None:
    """Rows are written as submissions finish: a run stopped after the first keeps its row."""
    built = assignments.build_assignment(FIXTURE, tmp_path / "dist")
    reference = nbformat.read(built / "autograder" / f"{FIXTURE.stem}.ipynb", as_version=4)
    subs = tmp_path / "class"
    subs.mkdir()
    for name in ("a", "b", "c"):
        nbformat.write(reference, subs / f"{name}.ipynb")

    def stop_after_first(line: str) -> None:
        if line.startswith(("a.ipynb", "b.ipynb", "c.ipynb")):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        assignments.grade_folder(built / "autograder" / "autograder.zip", subs, tmp_path / "scores.csv",
                                 timeout=20, jobs=1, echo=stop_after_first)
    with open(tmp_path / "scores.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 1 and rows[0]["total"] == "5.0"


@needs_sandbox
def test_a_broken_grader_costs_one_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A grader process that raises, dies or hangs on one submission (a bug of ours that a
    submission triggers) becomes that submission's row; the others are graded."""
    import signal

    from tools.grading import batch
    from tools.grading.judge import Judge

    built = assignments.build_assignment(FIXTURE, tmp_path / "dist")
    reference = nbformat.read(built / "autograder" / f"{FIXTURE.stem}.ipynb", as_version=4)
    subs = tmp_path / "class"
    subs.mkdir()
    for name in ("ok", "raise", "die", "hang"):
        reference.metadata["behaviour"] = name
        nbformat.write(reference, subs / f"{name}.ipynb")
    grade = Judge.grade

    def misbehaving(self, nb):
        behaviour = nb.metadata["behaviour"]
        if behaviour == "raise":
            raise RecursionError("maximum recursion depth exceeded")
        if behaviour == "die":
            os.kill(os.getpid(), signal.SIGKILL)  # as the OOM killer would
        if behaviour == "hang":
            time.sleep(600)
        return grade(self, nb)

    monkeypatch.setattr(Judge, "grade", misbehaving)
    monkeypatch.setattr(batch, "grader_cap", lambda timeout, n: 15.0)
    rows = assignments.grade_folder(built / "autograder" / "autograder.zip", subs, tmp_path / "scores.csv",
                                    timeout=10, jobs=2)
    status = {r["submission"]: (r["total"], r["status"]) for r in rows}
    assert status == {"ok.ipynb": (5.0, "graded"),
                      "raise.ipynb": (0.0, "grader error: RecursionError: maximum recursion depth exceeded"),
                      "die.ipynb": (0.0, "grader crashed (signal 9)"),
                      "hang.ipynb": (0.0, "grader stopped after 15 s")}


@needs_sandbox
def test_withdrawal_is_per_question(tmp_path: Path) -> None:
    """A module withdrawn for one question (mlnotes.losses, which mlnotes.online imports) is
    available to the next question and to the chapter's imports it needs."""
    from tools.grading.judge import Assignment, Case, Judge, Question

    context = "import numpy as np\nfrom mlnotes import online"
    q1 = Question("q1", 1.0, [Case(">>> assert q1() == 'withdrawn'\n", 1.0, False)], ["q1"], [],
                  ["mlnotes.losses"])
    q2 = Question("q2", 1.0, [Case(">>> assert q2() == 'available'\n", 1.0, False)], ["q2"], [])
    answers = {
        "q1": "def q1():\n    try:\n        from mlnotes import losses\n    except ImportError:\n"
              "        return 'withdrawn'\n    return 'available'",
        "q2": "def q2():\n    from mlnotes import losses\n    return 'available' if online.perceptron else ''",
    }
    nb = nbformat.v4.new_notebook()
    for name, source in answers.items():
        nb.cells += [nbformat.v4.new_code_cell(source, metadata={"tags": ["otter_answer_cell"]}),
                     nbformat.v4.new_code_cell(f'grader.check("{name}")')]
    judge = Judge(Assignment("fixture", context, [q1, q2]), tmp_path, question_timeout=60, memory_mb=2048,
                  sandbox=True)
    result = judge.grade(nb)
    assert {name: r.score for name, r in result["questions"].items()} == {"q1": 1.0, "q2": 1.0}, result
    assert result["chapter_error"] is None  # online failing to import under q1's withdrawal is expected
