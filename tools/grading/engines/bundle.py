"""What a grading platform receives, built from this repository at ``make assignments`` time.

- :func:`gradescope_zip`: the autograder zip made self-contained: the ``mlnotes`` wheel, this
  grading package, ``requirements.txt`` pinned to ``constraints.txt`` (the closure of what the
  judge and the chapter's code import: :func:`requirements`), :data:`ASSIGNMENT_FILE` (the
  tests, read without otter), and Gradescope's ``setup.sh`` and ``run_autograder``
  (``engines/gradescope_setup.sh``, ``engines/gradescope_run.sh``). otter's own scripts go: they
  installed ``mlnotes`` from a git URL and ran the tests in the student's process.
- :func:`prairielearn_course`: the same for PrairieLearn: ``serverFilesCourse/mlnotes_grader``
  (the package, the ``mlnotes`` wheel unpacked, ``run.sh``, ``requirements.txt`` and a
  ``Dockerfile`` for the grading image) and the question's folder (``info.json``,
  ``question.html``, ``tests/``).

Threat: a grader that installs something else than what was tested (a newer numpy, a git
head): everything is pinned or carried. The course package is installed outside the Python
environment (``pip --target``, or unpacked), so the sandbox, which shows that environment, never shows the
withdrawn functions' source.
"""

from __future__ import annotations

import ast
import atexit
import functools
import importlib.metadata as metadata
import json
import re
import shutil
import subprocess
import sys
import tempfile
import uuid
import zipfile
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from ..judge import Assignment
from .common import ASSIGNMENT_FILE, save_assignment

ROOT = Path(__file__).resolve().parents[3]  # the repository: tools/grading/engines/bundle.py
HERE = Path(__file__).resolve().parent
GRADING = HERE.parent  # tools/grading, shipped whole
JUDGE_NEEDS = ("numpy", "nbformat")  # what tools.grading imports besides the standard library
OTTER_KEPT = ("tests/",)  # of otter's zip: its test files, which ``make grade`` reads
OTTER_DROPPED = ("run_autograder", "run_otter.py", "setup.sh", "environment.yml", "requirements.txt",
                 "requirements.r", "otter_config.json")


# -- the course wheel and the requirements -----------------------------------------------------


@functools.cache
def course_wheel() -> Path:
    """The ``mlnotes`` wheel, built once per process from a copy of the package's sources (the
    repository's working tree gets no ``build/`` folder), removed when the process ends."""
    out = Path(tempfile.mkdtemp(prefix="mlnotes-wheel-"))
    atexit.register(shutil.rmtree, out, ignore_errors=True)
    src = out / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "mlnotes", src / "mlnotes", ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "--disable-pip-version-check", "-w", str(out), str(src)], check=True, capture_output=True)
    shutil.rmtree(src)
    return next(out.glob("mlnotes-*.whl"))


def pinned_versions(constraints: Path = ROOT / "constraints.txt") -> dict[str, str]:
    """Normalised distribution name -> the version ``constraints.txt`` pins."""
    pins = {}
    for line in constraints.read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_.-]+)==([^\s;#]+)", line.strip())
        if match:
            pins[canonicalize_name(match[1])] = match[2]
    return pins


@functools.cache
def _module_owners() -> dict[str, list[str]]:
    return metadata.packages_distributions()  # reads every installed distribution's file list


def imported_distributions(source: str) -> set[str]:
    """The installed distributions that the top-level imports of ``source`` come from (the
    standard library and ``mlnotes`` left out)."""
    modules = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module.split(".")[0])
    owners = _module_owners()
    dists = set()
    for module in modules - set(sys.stdlib_module_names) - {"mlnotes", "__future__"}:
        if module not in owners:
            raise ValueError(f"the chapter imports {module!r}, which no installed distribution provides")
        dists |= set(owners[module])
    return dists


@functools.cache
def requirements(context: str) -> list[str]:
    """``name==version`` for every distribution the grader needs for this chapter: the judge's
    own (:data:`JUDGE_NEEDS`), ``mlnotes``'s dependencies and what the chapter's code imports,
    with all their dependencies, each at its ``constraints.txt`` version."""
    pins = pinned_versions()
    mlnotes = [Requirement(r) for r in metadata.requires("mlnotes") or []]
    todo = [(r.name, set(r.extras)) for r in mlnotes if not r.marker or r.marker.evaluate({"extra": ""})]
    todo += [(name, set()) for name in (*JUDGE_NEEDS, *imported_distributions(context))]
    seen: dict[str, set[str]] = {}
    while todo:
        name, extras = todo.pop()
        key = canonicalize_name(name)
        if key in seen and extras <= seen[key]:
            continue
        seen[key] = seen.get(key, set()) | extras
        for text in metadata.requires(name) or []:
            req = Requirement(text)
            if not req.marker or any(req.marker.evaluate({"extra": e}) for e in {"", *extras}):
                todo.append((req.name, set(req.extras)))
    missing = sorted(set(seen) - set(pins))
    if missing:
        raise ValueError(f"constraints.txt pins no version of {missing}: run make lock")
    return [f"{name}=={pins[name]}" for name in sorted(seen)]


def grading_files() -> list[tuple[str, Path]]:
    """(path in the bundle, file) for the grading package: ``tools/grading/**/*.py`` and the
    engines' scripts."""
    files = sorted(p for p in GRADING.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    return [(p.relative_to(GRADING.parent.parent).as_posix(), p) for p in files]


def _script(name: str) -> str:
    return (HERE / name).read_text()


# -- Gradescope --------------------------------------------------------------------------------


def gradescope_zip(autograder: Path, assignment: Assignment | None = None) -> Path:
    """Make the autograder zip built by otter self-contained for Gradescope (module docstring);
    rewrite it in place and return its path. ``assignment``: the zip's, if already loaded."""
    autograder = Path(autograder)
    assignment = assignment or Assignment.load(autograder)
    wheel = course_wheel()
    tmp = autograder.with_name(autograder.name + ".tmp")
    with zipfile.ZipFile(autograder) as old, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            if info.filename in OTTER_DROPPED:
                continue
            new.writestr(info, old.read(info))
        new.writestr(ASSIGNMENT_FILE, save_assignment(assignment))
        new.writestr("requirements.txt", "\n".join(requirements(assignment.context)) + "\n")
        new.write(wheel, wheel.name)
        for arcname, path in grading_files():
            new.write(path, arcname)
        for arcname, script in (("setup.sh", "gradescope_setup.sh"), ("run_autograder", "gradescope_run.sh")):
            info = zipfile.ZipInfo(arcname, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = 0o100755 << 16  # executable, as Gradescope needs
            info.compress_type = zipfile.ZIP_DEFLATED
            new.writestr(info, _script(script))
    tmp.replace(autograder)
    return autograder


# -- PrairieLearn ------------------------------------------------------------------------------


def prairielearn_course(autograder: Path, dest: Path, assignment: Assignment | None = None) -> Path:
    """The files a PrairieLearn course needs to grade this assignment, under ``dest``:
    ``serverFilesCourse/mlnotes_grader/`` (shared by every chapter) and
    ``questions/<chapter>/`` (its ``info.json``, ``question.html`` and ``tests/``)."""
    assignment = assignment or Assignment.load(autograder)
    grader = Path(dest) / "serverFilesCourse" / "mlnotes_grader"
    shutil.rmtree(grader, ignore_errors=True)
    grader.mkdir(parents=True)
    for arcname, path in grading_files():
        (grader / arcname).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, grader / arcname)
    with zipfile.ZipFile(course_wheel()) as wheel:  # pure Python: unpacking it installs it
        wheel.extractall(grader / "lib")
    (grader / "requirements.txt").write_text("\n".join(requirements(assignment.context)) + "\n")
    for name, script in (("run.sh", "prairielearn_run.sh"), ("Dockerfile", "prairielearn.Dockerfile")):
        (grader / name).write_text(_script(script))
    (grader / "run.sh").chmod(0o755)
    question = Path(dest) / "questions" / assignment.name
    (question / "tests").mkdir(parents=True, exist_ok=True)
    (question / "tests" / ASSIGNMENT_FILE).write_text(save_assignment(assignment))
    info = {"uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"mlnotes/{assignment.name}")),
            "title": f"mlnotes {assignment.name}", "topic": "mlnotes", "type": "v3",
            "singleVariant": True, "gradingMethod": "External",
            "externalGradingOptions": {"enabled": True, "image": "REPLACE/mlnotes-grader:latest",
                                       "serverFilesCourse": ["mlnotes_grader/"],
                                       "entrypoint": "/grade/serverFilesCourse/mlnotes_grader/run.sh",
                                       "timeout": 600, "environment": {"MLNOTES_TIMEOUT": "30"}}}
    (question / "info.json").write_text(json.dumps(info, indent=2) + "\n")
    (question / "question.html").write_text(
        f'<pl-question-panel>\n  <p>Upload your notebook <code>{assignment.name}.ipynb</code>.</p>\n'
        f'</pl-question-panel>\n<pl-file-upload file-names="{assignment.name}.ipynb"></pl-file-upload>\n'
        "<pl-submission-panel>\n  <pl-external-grader-results></pl-external-grader-results>\n"
        "  <pl-file-preview></pl-file-preview>\n</pl-submission-panel>\n")
    return Path(dest)


def package_for_engines(built: Path) -> None:
    """After ``otter assign`` built ``built`` (``dist/assignments/NN_slug``): make its autograder
    zip self-contained for Gradescope and write its PrairieLearn files in ``built/prairielearn``."""
    autograder = Path(built) / "autograder" / "autograder.zip"
    assignment = Assignment.load(autograder)
    prairielearn_course(autograder, Path(built) / "prairielearn", assignment)
    gradescope_zip(autograder, assignment)
