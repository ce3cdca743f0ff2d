"""The sandbox a submission's code runs in, and the limits on everything it starts.

Threats, and what stops each:

- reading the tests, the other submissions, the scores or the teacher's files: bubblewrap shows
  the sandbox only ``/usr``, the Python installation (read-only), and the course copy with
  ``student.py`` (read-only), fresh ``/proc`` and ``/dev``, and a private 64 MiB ``/tmp``;
- writing anywhere that lasts, or reaching the network: everything but that ``/tmp`` is
  read-only, and every namespace is unshared (no network, no other process; uid ``nobody``);
- letting the library, or a library, answer the question: :func:`course_copy` replaces each
  withdrawn ``mlnotes`` function (public or private) or module by a stub that raises, and
  :func:`sandbox_command` hides withdrawn third-party modules and, always, scikit-learn and
  statsmodels (:data:`HIDDEN_ALWAYS`) and the installed ``mlnotes`` outside the course copy;
- exhausting the host: :mod:`.limits` bounds the memory and the process count of the submission
  as a whole; the judge's wall-clock deadline kills the whole sandbox (its session and pid
  namespace) at the limit.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .limits import FILE_MB, Confinement

STUDENT = Path(__file__).resolve().with_name("student.py")
COURSE_PACKAGE = Path(__file__).resolve().parents[2] / "mlnotes"
HIDDEN_ALWAYS = ("sklearn", "statsmodels", "mlnotes.claims")  # they answer questions, no answer needs them


class SandboxUnavailable(RuntimeError):
    """The sandbox cannot run here; the message says why and what to do."""


# -- what the sandbox sees ---------------------------------------------------------------------


def _module_dir(dotted: str) -> Path | None:
    """The folder of an installed package (``scipy.special``), or None if there is none."""
    try:
        spec = importlib.util.find_spec(dotted)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def hidden_modules(withdrawn: list[str]) -> list[str]:
    """The modules the sandbox hides: the withdrawn ones outside ``mlnotes``, and
    :data:`HIDDEN_ALWAYS`."""
    third_party = [w for w in withdrawn if w.split(".")[0] != "mlnotes"]
    return sorted(set(HIDDEN_ALWAYS) | set(third_party))


# What a withdrawn function or module says when it is used; the judge recognises it, so that a
# chapter import a withdrawal breaks is not reported as the student's error.
WITHDRAWN = "is withdrawn while this assignment is graded: the question asks you to write it"


def _stub_source(dotted: str) -> str:
    return f"raise ImportError({f'{dotted} {WITHDRAWN}'!r})\n"


def sandbox_command(course: Path, python: str = sys.executable, hidden: tuple[str, ...] = HIDDEN_ALWAYS,
                    stubs: Path | None = None) -> list[str]:
    """The ``bwrap`` command line that runs ``student.py`` on the course copy ``course``.

    Visible inside: ``/usr`` (and the ``/lib``, ``/bin`` links), the Python installation
    (``sys.prefix``, ``sys.base_prefix``: read-only), ``/course`` (read-only: the course copy
    with ``student.py``), a fresh ``/proc`` and ``/dev``, and a private ``/tmp``, the only writable place.
    Each module in ``hidden`` that is installed in a visible place is replaced by a folder whose
    ``__init__.py`` raises ImportError (written into ``stubs``).
    """
    cmd = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session", "--uid", "65534", "--gid", "65534",
           "--ro-bind", "/usr", "/usr",
           # The private /tmp comes before the Python binds: a course (and its .venv) cloned under
           # /tmp must stay visible inside it, as a read-only bind on top of the empty tmpfs.
           "--proc", "/proc", "--dev", "/dev", "--size", str(FILE_MB * 2**20), "--tmpfs", "/tmp"]
    for link in ("lib", "lib64", "bin", "sbin"):
        if os.path.islink(f"/{link}"):
            cmd += ["--symlink", os.readlink(f"/{link}"), f"/{link}"]
    prefixes = sorted({os.path.realpath(p) for p in (sys.prefix, sys.base_prefix)})
    for prefix in prefixes:
        if not prefix.startswith("/usr"):
            cmd += ["--ro-bind", prefix, prefix]
    if os.path.realpath(sys.prefix) != sys.prefix:  # a venv reached through a symlink
        cmd += ["--ro-bind", sys.prefix, sys.prefix]
    visible = [*prefixes, "/usr"]
    for k, dotted in enumerate(hidden):
        folder = _module_dir(dotted)
        if folder is None or not any(str(folder).startswith(p.rstrip("/") + "/") for p in visible):
            continue  # not installed, or not in view (an editable mlnotes in the repository)
        if stubs is None:
            raise ValueError("hiding installed modules needs a folder for their stubs")
        stub = stubs / f"hidden{k}"
        stub.mkdir(parents=True, exist_ok=True)
        (stub / "__init__.py").write_text(_stub_source(dotted))
        cmd += ["--ro-bind", str(stub), str(folder)]
    cmd += ["--ro-bind", str(course), "/course",
            "--remount-ro", "/dev", "--remount-ro", "/",  # bwrap's own tmpfs root: /tmp alone is writable
            "--chdir", "/tmp", "--clearenv", "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", "/tmp",
            "--setenv", "MPLBACKEND", "Agg", "--setenv", "MPLCONFIGDIR", "/tmp",
            "--setenv", "OPENBLAS_NUM_THREADS", "1", "--setenv", "OMP_NUM_THREADS", "1",
            "--setenv", "MKL_NUM_THREADS", "1",
            python, "-I", "-B", "/course/student.py", "/course"]
    return cmd


def sandbox_problem(confinement: Confinement | None = None) -> str | None:
    """Why the sandbox cannot run here (under ``confinement``'s limits and uid, if given), or
    ``None`` if it works (tried for real)."""
    if shutil.which("bwrap") is None:
        return "bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    group = confinement.group() if confinement else None
    try:
        with tempfile.TemporaryDirectory() as course:
            cmd = sandbox_command(Path(course), hidden=())
            cmd[-4:] = ["-I", "-c", "import numpy"]
            run = subprocess.run(cmd, capture_output=True, text=True, timeout=60,
                                 preexec_fn=group.preexec(60, [course]) if group else None)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"bubblewrap does not run: {exc}"
    finally:
        if group:
            group.close()
    if run.returncode != 0:
        return ("bubblewrap cannot create its sandbox here (user namespaces disabled? in a container, "
                f"allow them or grade on the host): {run.stderr.strip()[:300]}")
    return None


def confine(memory_mb: int, sandbox: bool) -> tuple[Confinement, str | None]:
    """The strongest limits this machine allows (see :mod:`.limits`) under which the sandbox, if
    wanted, runs; and why the sandbox cannot run, or ``None``. Bubblewrap may need user
    namespaces that an unprivileged uid is refused: then the uid's limits give way to the
    sandbox. ``MLNOTES_LIMITS`` (``cgroup``, ``uid`` or ``rlimits``, comma-separated) restricts
    the choice, to try a fallback on a machine that has better."""
    kinds = tuple(os.environ.get("MLNOTES_LIMITS", "").replace(" ", "").split(",")) \
        if os.environ.get("MLNOTES_LIMITS") else Confinement.KINDS
    unknown = set(kinds) - set(Confinement.KINDS)
    if unknown:
        raise ValueError(f"MLNOTES_LIMITS: unknown {sorted(unknown)}; choose among {Confinement.KINDS}")
    confinement = Confinement(memory_mb, kinds=kinds)
    if not sandbox:
        return confinement, None
    problem = sandbox_problem(confinement)
    if problem and confinement.kind == "uid" and sandbox_problem() is None:  # works as root only
        confinement = Confinement(memory_mb, kinds=("rlimits",),
                                  why=f"the sandbox does not run as an unprivileged uid ({problem[:120]})")
        problem = sandbox_problem(confinement)
    return confinement, problem


def course_copy(dest: Path, withdrawn: list[str], package: Path = COURSE_PACKAGE) -> Path:
    """Copy the ``mlnotes`` package into ``dest/mlnotes`` with each withdrawn function
    (``"mlnotes.svm.bias_from_gradient"``, private helpers too) replaced by a stub that raises,
    and each withdrawn module (``"mlnotes.boosting"``) by one that raises on import; the withdrawn
    source is not in the copy either. Entries outside ``mlnotes`` (``"scipy.special"``) are
    hidden by :func:`sandbox_command` instead. ``student.py`` goes beside it: the student process
    needs nothing of the grader's own folders. Return ``dest``."""
    target = dest / "mlnotes"
    shutil.copytree(package, target, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(STUDENT, dest / "student.py")
    by_module: dict[Path, list[str]] = {}
    for dotted in withdrawn + list(HIDDEN_ALWAYS):
        parts = dotted.split(".")
        if parts[0] != "mlnotes":
            continue
        if len(parts) < 2:
            raise ValueError(f"withdraw: {dotted!r} is the whole library, not a module or function of it")
        module = target.joinpath(*parts[1:])
        if module.is_dir():  # a subpackage (mlnotes.claims)
            shutil.rmtree(module)
            module.mkdir()
            (module / "__init__.py").write_text(_stub_source(dotted))
        elif module.with_suffix(".py").is_file():  # a whole module
            module.with_suffix(".py").write_text(_stub_source(dotted))
        else:
            by_module.setdefault(target.joinpath(*parts[1:-1]).with_suffix(".py"), []).append(parts[-1])
    for path, names in by_module.items():
        if not path.is_file():
            raise ValueError(f"withdraw: mlnotes has no module {path.stem!r}")
        lines = path.read_text().split("\n")
        tree = ast.parse("\n".join(lines))
        found = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef | ast.ClassDef)}
        missing = set(names) - set(found)
        if missing:
            raise ValueError(f"withdraw: {path.stem} has no function {sorted(missing)}")
        module_name = "mlnotes." + ".".join(path.relative_to(target).with_suffix("").parts)
        for node in sorted((found[n] for n in names), key=lambda n: -n.lineno):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
            lines[first:node.end_lineno] = [
                f"def {node.name}(*args, **kwargs):",
                f"    raise RuntimeError({f'{module_name}.{node.name} {WITHDRAWN}'!r})"]
        path.write_text("\n".join(lines))
    return dest
