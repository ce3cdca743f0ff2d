"""The judge on Gradescope and PrairieLearn: each entrypoint run in a simulated layout (a temporary
folder standing for /autograder or /grade) on the fixture chapter's assignment.

The reference notebook gets full marks, the blank one 0, and one that monkeypatches numpy's
comparisons 0; results.json is in the platform's format. The Gradescope run uses the zip's own
run_autograder and the sandbox; the PrairieLearn run uses its run.sh without bubblewrap on the
PATH, the fallback a container without user namespaces gets. ``MLNOTES_FRESH_VENV=1`` adds a run
of the zip's setup.sh (a new venv from PyPI) before run_autograder: by hand, not in make test.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import nbformat
import pytest

from tests.test_grading import FIXTURE, _with_answers, needs_sandbox
from tools import assignments
from tools.grading.engines import bundle, prairielearn

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:traitlets")
CHEAT = ("import numpy as np\nnp.allclose = lambda *a, **k: True\nnp.all = lambda *a, **k: True\n"
         "np.testing.assert_allclose = lambda *a, **k: None\nimport builtins\n"
         "builtins.AssertionError = type('Pass', (Exception,), {})\n")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return assignments.build_assignment(FIXTURE, tmp_path_factory.mktemp("dist"))


@pytest.fixture(scope="module")
def notebooks(built: Path) -> dict[str, nbformat.NotebookNode]:
    reference = nbformat.read(built / "autograder" / f"{FIXTURE.stem}.ipynb", as_version=4)
    blank = nbformat.read(built / "student" / f"{FIXTURE.stem}.ipynb", as_version=4)
    cheat = _with_answers(blank, {"hinge_loss": CHEAT + "def hinge_loss(M):\n    return np.zeros(3)",
                                  "rbf_gram": CHEAT + "def rbf_gram(X, gamma):\n    return np.zeros((2, 2))"})
    return {"reference": reference, "blank": blank, "monkeypatch": cheat}


def _submit(folder: Path, nb: nbformat.NotebookNode | None) -> None:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    if nb is not None:
        nbformat.write(nb, folder / f"{FIXTURE.stem}.ipynb")


def check_gradescope(out: dict) -> None:
    """Gradescope's autograder specification: a total and one entry per test, each with a name,
    a score within its max_score, text output and a known visibility."""
    assert set(out) >= {"score", "execution_time", "output", "tests"}
    assert isinstance(out["output"], str) and out["execution_time"] >= 0
    for test in out["tests"]:
        assert set(test) >= {"name", "score", "max_score", "output", "visibility"}
        assert isinstance(test["name"], str) and isinstance(test["output"], str)
        assert 0 <= test["score"] <= test["max_score"]
        assert test["visibility"] in ("visible", "after_published")
        assert test["visibility"] == ("after_published" if ": hidden test" in test["name"] else "visible")
    assert out["score"] == pytest.approx(sum(t["score"] for t in out["tests"]))


def check_prairielearn(out: dict) -> None:
    """PrairieLearn's external grader results: a score in [0, 1], tests with points and
    max_points, the whole under 1 MB."""
    assert len(json.dumps(out).encode()) < 2**20
    assert out["gradable"] is True and 0.0 <= out["score"] <= 1.0 and out["tests"]
    for test in out["tests"]:
        assert set(test) >= {"name", "points", "max_points", "output"}
        assert 0 <= test["points"] <= test["max_points"]
    earned, possible = sum(t["points"] for t in out["tests"]), sum(t["max_points"] for t in out["tests"])
    assert out["score"] == pytest.approx(earned / possible)


def test_bundle_is_self_contained(built: Path) -> None:
    """The zip carries the wheel, the grading package, pinned requirements and Gradescope's
    scripts, executable; otter's scripts (a git URL, tests in the student's process) are gone."""
    with zipfile.ZipFile(built / "autograder" / "autograder.zip") as z:
        names = set(z.namelist())
        setup, run = z.read("setup.sh").decode(), z.read("run_autograder").decode()
        modes = {i.filename: i.external_attr >> 16 for i in z.infolist()}
        reqs = z.read("requirements.txt").decode().split()
    assert {"mlnotes-0.1.0-py3-none-any.whl", "tools/grading/judge.py", "tools/grading/engines/gradescope.py",
            "mlnotes-assignment.json", "mlnotes-grading.json", "tests/fixture-rbf-gram.py"} <= names
    assert not names & {"run_otter.py", "environment.yml", "otter_config.json"}
    assert "git+" not in setup + run and "otter" not in setup + run
    assert all(modes[n] & stat.S_IXUSR for n in ("setup.sh", "run_autograder"))
    pins = dict(r.split("==") for r in reqs)
    assert bundle.pinned_versions()["numpy"] == pins["numpy"] and "nbformat" in pins
    assert not {"scikit-learn", "statsmodels", "otter-grader", "pandas"} & set(pins)  # not in the sandbox's view


@needs_sandbox
def test_gradescope_run_autograder(built: Path, notebooks: dict, tmp_path: Path) -> None:
    """The zip's run_autograder in a simulated /autograder: reference 5/5, blank 0, the
    monkeypatching notebook 0; hidden cases after_published, their code nowhere in the results."""
    root = tmp_path / "autograder"
    with zipfile.ZipFile(built / "autograder" / "autograder.zip") as z:
        z.extractall(root / "source")
    wheel = next((root / "source").glob("mlnotes-*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(root / "source" / "lib"),
                    str(wheel)], check=True)
    (root / "venv").symlink_to(Path(sys.prefix))  # what setup.sh makes, here the test's own venv
    scores = {}
    for name, nb in notebooks.items():
        _submit(root / "submission", nb)
        subprocess.run(["bash", str(root / "source" / "run_autograder")], check=True, capture_output=True,
                       env={**os.environ, "MLNOTES_AUTOGRADER_ROOT": str(root)}, timeout=600)
        text = (root / "results" / "results.json").read_text()
        out = json.loads(text)
        check_gradescope(out)
        scores[name] = out["score"]
        assert "in a sandbox (bubblewrap)" in out["output"]
        assert "rbf_gram(Xt, 2.0)" not in text and "linspace" not in text  # no hidden test's code
    assert scores == {"reference": 5.0, "blank": 0.0, "monkeypatch": 0.0}
    assert [t["visibility"] for t in out["tests"]].count("after_published") == 4


FORGER = """import json, os, time
if os.fork() == 0:  # a process outside the judge's process group, waiting to rewrite the results
    os.setsid()
    if os.fork() == 0:
        for group in ("/sys/fs/cgroup/memory", "/sys/fs/cgroup/pids", "/sys/fs/cgroup"):  # out of the
            try:  # submission's cgroup, as root can
                with open(group + "/cgroup.procs", "w") as f:
                    f.write(str(os.getpid()))
            except OSError:
                pass
        for _ in range(400):
            time.sleep(0.05)
            if os.path.exists({path!r}):
                with open({path!r}, "w") as f:
                    json.dump({{"gradable": True, "score": 1.0, "tests": []}}, f)
        os._exit(0)
    os._exit(0)
def hinge_loss(M):
    return 0.0
"""


def test_prairielearn_run_without_sandbox(built: Path, notebooks: dict, tmp_path: Path) -> None:
    """run.sh in a simulated /grade, in a container without bubblewrap: still out of process
    (the monkeypatching notebook scores 0) and it says so; a process the submission leaves behind
    cannot rewrite the results; no notebook is not gradable."""
    grade = tmp_path / "grade"
    results = grade / "results" / "results.json"
    forger = _with_answers(notebooks["blank"], {"hinge_loss": FORGER.format(path=str(results))})
    shutil.copytree(built / "prairielearn" / "serverFilesCourse", grade / "serverFilesCourse")
    shutil.copytree(built / "prairielearn" / "questions" / FIXTURE.stem / "tests", grade / "tests")
    bin_dir = tmp_path / "bin"  # the PATH of a container without bwrap
    bin_dir.mkdir()
    (bin_dir / "dirname").symlink_to(shutil.which("dirname"))
    env = {"PATH": str(bin_dir), "MLNOTES_GRADE_ROOT": str(grade), "MLNOTES_PYTHON": sys.executable}
    run = grade / "serverFilesCourse" / "mlnotes_grader" / "run.sh"
    scores = {}
    for name, nb in [*notebooks.items(), ("forger", forger), ("nothing", None)]:
        _submit(grade / "student", nb)
        subprocess.run(["/bin/bash", str(run)], check=True, capture_output=True, env=env, timeout=600)
        time.sleep(1.0 if name == "forger" else 0.0)  # the forger's daemon, if alive, writes within 0.05 s
        out = json.loads(results.read_text())
        if nb is None:
            assert out["gradable"] is False and "no notebook" in out["format_errors"][0]
            continue
        check_prairielearn(out)
        scores[name] = out["score"]
        assert "without the sandbox (bubblewrap is not installed" in out["message"]
    assert scores == {"reference": 1.0, "blank": 0.0, "monkeypatch": 0.0, "forger": 0.0}


READER = """def hinge_loss(M):
    return np.zeros(3)
found = []
for path in {paths!r}:
    try:
        found.append(open(path).read()[:20])
    except OSError as exc:
        found.append(type(exc).__name__)
raise RuntimeError("read: " + ", ".join(found))
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="the uid fallback is root's (containers grade as root)")
def test_prairielearn_without_sandbox_as_an_unprivileged_uid(built: Path, notebooks: dict) -> None:
    """run.sh as root in a container without bubblewrap or cgroups: the student's code runs as an
    unprivileged uid that cannot read the tests or the library (the script makes them root's
    alone), and the scores stay right."""
    with tempfile.TemporaryDirectory(dir="/tmp") as tmp:
        os.chmod(tmp, 0o755)  # a root others may enter, as /grade is
        grade = Path(tmp) / "grade"
        shutil.copytree(built / "prairielearn" / "serverFilesCourse", grade / "serverFilesCourse")
        shutil.copytree(built / "prairielearn" / "questions" / FIXTURE.stem / "tests", grade / "tests")
        here = grade / "serverFilesCourse" / "mlnotes_grader"
        secrets = [str(next((grade / "tests").iterdir())), str(here / "lib" / "mlnotes" / "svm.py")]
        reader = _with_answers(notebooks["blank"], {"hinge_loss": READER.format(paths=secrets)})
        bin_dir = Path(tmp) / "bin"  # the PATH of a container without bwrap
        bin_dir.mkdir()
        for tool in ("dirname", "id", "chmod"):
            (bin_dir / tool).symlink_to(shutil.which(tool))
        env = {"PATH": str(bin_dir), "MLNOTES_GRADE_ROOT": str(grade), "MLNOTES_PYTHON": sys.executable,
               "MLNOTES_LIMITS": "uid"}
        scores = {}
        for name, nb in [("reference", notebooks["reference"]), ("reader", reader)]:
            _submit(grade / "student", nb)
            subprocess.run(["/bin/bash", str(here / "run.sh")], check=True, capture_output=True, env=env,
                           timeout=600)
            out = json.loads((grade / "results" / "results.json").read_text())
            scores[name] = out["score"]
            assert "an unprivileged uid each" in out["message"]
        assert "read: PermissionError, PermissionError" in json.dumps(out)
        assert scores == {"reference": 1.0, "reader": 0.0}


def test_prairielearn_results_fit_in_a_megabyte() -> None:
    """Outputs are cut until the file is under PrairieLearn's limit, whatever the submission wrote."""
    out = {"gradable": True, "score": 0.0, "output": "x" * 3_000_000,
           "tests": [{"name": f"q{k}", "points": 0, "max_points": 1, "output": "y\n" * 200_000} for k in range(20)]}
    fitted = prairielearn._fit(out)
    assert len(json.dumps(fitted).encode()) < prairielearn.MAX_BYTES
    assert fitted["tests"][0]["output"].endswith("[... cut]")


@pytest.mark.skipif(os.environ.get("MLNOTES_FRESH_VENV") != "1", reason="by hand: MLNOTES_FRESH_VENV=1 (PyPI)")
def test_gradescope_setup_in_fresh_venv(built: Path, notebooks: dict, tmp_path: Path) -> None:
    """The zip's setup.sh builds a venv from PyPI with the pinned requirements and the wheel;
    run_autograder in it gives the reference full marks. Prints the time of each step."""
    root = tmp_path / "autograder"
    with zipfile.ZipFile(built / "autograder" / "autograder.zip") as z:
        z.extractall(root / "source")
    for script in ("setup.sh", "run_autograder"):
        (root / "source" / script).chmod(0o755)
    env = {**os.environ, "MLNOTES_AUTOGRADER_ROOT": str(root)}
    env.pop("VIRTUAL_ENV", None)
    start = time.monotonic()
    subprocess.run(["bash", str(root / "source" / "setup.sh")], check=True, env=env, timeout=1800)
    setup = time.monotonic() - start
    _submit(root / "submission", notebooks["reference"])
    start = time.monotonic()
    subprocess.run([str(root / "source" / "run_autograder")], check=True, env=env, timeout=600)
    run = time.monotonic() - start
    out = json.loads((root / "results" / "results.json").read_text())
    check_gradescope(out)
    print(f"setup.sh {setup:.1f} s, run_autograder {run:.1f} s (judging {out['execution_time']} s)")
    assert out["score"] == 5.0
    assert not list((root / "venv").glob("lib/python*/site-packages/mlnotes"))  # outside the sandbox's view
