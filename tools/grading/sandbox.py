"""The sandbox a submission's code runs in, and the limits on everything it starts.

Threats, and what stops each:

- reading the tests, the other submissions, the scores or the teacher's files: bubblewrap shows
  the sandbox only ``/usr``, the Python installation (read-only), ``student.py`` and the course
  copy (read-only), fresh ``/proc`` and ``/dev``, and a private 64 MiB ``/tmp``;
- writing anywhere that lasts, or reaching the network: everything but that ``/tmp`` is
  read-only, and every namespace is unshared (no network, no other process; uid ``nobody``);
- letting the library, or a library, answer the question: :func:`course_copy` replaces each
  withdrawn ``mlnotes`` function (public or private) or module by a stub that raises, and
  :func:`sandbox_command` hides withdrawn third-party modules and, always, scikit-learn and
  statsmodels (:data:`HIDDEN_ALWAYS`) and the installed ``mlnotes`` outside the course copy;
- exhausting the host: :class:`Confinement` bounds the memory and the process count of the
  submission *as a whole* (a cgroup per student process, v2 or v1, chosen at run time), or, where
  no cgroup can be made, each process (``RLIMIT_AS``, ``RLIMIT_NPROC``) and says so; a CPU-time
  limit, a file-size limit and no core dumps in every case; the judge's wall-clock deadline kills
  the whole sandbox (its session and pid namespace) at the limit.
"""

from __future__ import annotations

import ast
import contextlib
import importlib.util
import itertools
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STUDENT = Path(__file__).resolve().with_name("student.py")
COURSE_PACKAGE = Path(__file__).resolve().parents[2] / "mlnotes"
HIDDEN_ALWAYS = ("sklearn", "statsmodels", "mlnotes.claims")  # they answer questions, no answer needs them
MAX_PROCESSES = 64  # per submission: the student's python and what it may start
TMP_MB = 64


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
    (``sys.prefix``, ``sys.base_prefix``: read-only), ``/grader/student.py`` and ``/course``
    (read-only), a fresh ``/proc`` and ``/dev``, and a private ``/tmp``, the only writable place.
    Each module in ``hidden`` that is installed in a visible place is replaced by a folder whose
    ``__init__.py`` raises ImportError (written into ``stubs``).
    """
    cmd = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session", "--uid", "65534", "--gid", "65534",
           "--ro-bind", "/usr", "/usr",
           # The private /tmp comes before the Python binds: a course (and its .venv) cloned under
           # /tmp must stay visible inside it, as a read-only bind on top of the empty tmpfs.
           "--proc", "/proc", "--dev", "/dev", "--size", str(TMP_MB * 2**20), "--tmpfs", "/tmp"]
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
    cmd += ["--ro-bind", str(STUDENT), "/grader/student.py", "--ro-bind", str(course), "/course",
            "--remount-ro", "/dev", "--remount-ro", "/",  # bwrap's own tmpfs root: /tmp alone is writable
            "--chdir", "/tmp", "--clearenv", "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", "/tmp",
            "--setenv", "MPLBACKEND", "Agg", "--setenv", "MPLCONFIGDIR", "/tmp",
            "--setenv", "OPENBLAS_NUM_THREADS", "1", "--setenv", "OMP_NUM_THREADS", "1",
            "--setenv", "MKL_NUM_THREADS", "1",
            python, "-I", "-B", "/grader/student.py", "/course"]
    return cmd


def sandbox_problem() -> str | None:
    """Why the sandbox cannot run here, or ``None`` if it works (tried for real)."""
    if shutil.which("bwrap") is None:
        return "bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)"
    with tempfile.TemporaryDirectory() as course:
        cmd = sandbox_command(Path(course), hidden=())
        cmd[-4:] = ["-I", "-c", "import numpy"]
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
    (``"mlnotes.svm.bias_from_gradient"``, private helpers too) replaced by a stub that raises,
    and each withdrawn module (``"mlnotes.boosting"``) by one that raises on import; the withdrawn
    source is not in the copy either. Entries outside ``mlnotes`` (``"scipy.special"``) are
    hidden by :func:`sandbox_command` instead. Return ``dest``."""
    target = dest / "mlnotes"
    shutil.copytree(package, target, ignore=shutil.ignore_patterns("__pycache__"))
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


# -- limits on the submission as a whole ---------------------------------------------------------------

_GROUPS = itertools.count()


def _own_cgroup(controller: str) -> Path | None:
    """This process's cgroup folder for ``controller`` (v1), or its v2 folder for ``""``."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            if controller in controllers.split(",") if controller else controllers == "":
                root = Path("/sys/fs/cgroup") / (controller if controller else "")
                return root / path.lstrip("/")
    return None


def _writable_group(parent: Path | None, files: tuple[str, ...]) -> bool:
    """Whether a child cgroup with these control files can be made under ``parent``."""
    if parent is None or not parent.is_dir():
        return False
    probe = parent / f"mlnotes-probe-{os.getpid()}"
    try:
        probe.mkdir()
    except OSError:
        return False
    try:
        return all((probe / f).exists() for f in files)
    finally:
        with contextlib.suppress(OSError):
            probe.rmdir()


class Confinement:
    """How the memory and the processes of one submission are bounded on this machine.

    ``kind`` is ``"cgroup v2"`` or ``"cgroup v1"`` (the submission's memory and process count as
    a whole) or ``"rlimits"`` (each process's address space and the user's process count: the
    total is not bounded when the grader runs as root). :meth:`describe` says which, for the
    teacher's terminal.
    """

    def __init__(self, memory_mb: int, processes: int = MAX_PROCESSES):
        self.memory_mb, self.processes = memory_mb, processes
        v2 = _own_cgroup("")
        if v2 is not None and (Path("/sys/fs/cgroup") / "cgroup.controllers").exists() and \
                _writable_group(v2.parent if v2.name else v2, ("memory.max", "pids.max")):
            self.kind, self.parents = "cgroup v2", {"": v2.parent if v2.name else v2}
        elif _writable_group(_own_cgroup("memory"), ("memory.limit_in_bytes",)) and \
                _writable_group(_own_cgroup("pids"), ("pids.max",)):
            self.kind, self.parents = "cgroup v1", {c: _own_cgroup(c) for c in ("memory", "pids")}
        else:
            self.kind, self.parents = "rlimits", {}

    def describe(self) -> str:
        if self.kind == "rlimits":
            whole = "" if os.geteuid() != 0 else "; as root the total over processes is not bounded"
            return (f"limits per process (no cgroup can be made here): {self.memory_mb} MiB of address "
                    f"space each, {self.processes} processes{whole}")
        return f"limits per submission ({self.kind}): {self.memory_mb} MiB, {self.processes} processes"

    def group(self) -> Group:
        return Group(self)

    def release(self, pid: int) -> None:
        """Remove the groups a grader process ``pid`` left behind (it was killed before it could
        remove them itself), and whatever still runs in them."""
        for parent in self.parents.values():
            for d in parent.glob(f"mlnotes-grade-{pid}-*"):
                Group.empty(d)


class Group:
    """The cgroup (or the rlimits) of one student process and everything it starts."""

    def __init__(self, confinement: Confinement):
        self.c, self.dirs = confinement, []
        name = f"mlnotes-grade-{os.getpid()}-{next(_GROUPS)}"
        if confinement.kind == "cgroup v2":
            d = confinement.parents[""] / name
            d.mkdir()
            (d / "memory.max").write_text(str(confinement.memory_mb * 2**20))
            with contextlib.suppress(OSError):
                (d / "memory.swap.max").write_text("0")
            (d / "pids.max").write_text(str(confinement.processes))
            self.dirs = [d]
        elif confinement.kind == "cgroup v1":
            mem, pids = confinement.parents["memory"] / name, confinement.parents["pids"] / name
            mem.mkdir()
            pids.mkdir()
            (mem / "memory.limit_in_bytes").write_text(str(confinement.memory_mb * 2**20))
            (pids / "pids.max").write_text(str(confinement.processes))
            self.dirs = [mem, pids]

    def preexec(self, cpu_seconds: float):
        """What the child runs before ``exec``: join the group, set the per-process limits."""
        dirs, kind, c = self.dirs, self.c.kind, self.c

        def apply() -> None:
            for d in dirs:
                (d / "cgroup.procs").write_text(str(os.getpid()))
            # per process as well: one large allocation is a MemoryError the student can read,
            # not a process killed by the cgroup's OOM killer
            resource.setrlimit(resource.RLIMIT_AS, (c.memory_mb * 2**20,) * 2)
            if kind == "rlimits":
                resource.setrlimit(resource.RLIMIT_NPROC, (c.processes, c.processes))
            cpu = int(cpu_seconds) + 2
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
            resource.setrlimit(resource.RLIMIT_FSIZE, (TMP_MB * 2**20,) * 2)
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

        return apply

    def peak_memory_mb(self) -> float | None:
        """The most memory the group held (cgroup kinds only)."""
        for name in ("memory.peak", "memory.max_usage_in_bytes"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                return int((self.dirs[0] / name).read_text()) / 2**20
        return None

    def close(self) -> None:
        """Kill whatever is left in the group and remove it."""
        for d in self.dirs:
            Group.empty(d)

    @staticmethod
    def empty(d: Path) -> None:
        """Kill every process in the cgroup folder ``d``, then remove it."""
        for _ in range(50):
            try:
                pids = [int(p) for p in (d / "cgroup.procs").read_text().split()]
            except OSError:
                break
            if not pids:
                break
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.02)  # the killed processes leave the group as they exit
        with contextlib.suppress(OSError):
            d.rmdir()
