"""Limits on everything one submission's code starts: memory, processes, CPU time, files.

Threat: a submission exhausting the host (memory, processes) or outliving the grader. The kind of
limit is chosen at run time, the strongest this machine allows, and reported to the teacher
(:meth:`Confinement.describe`):

- ``"cgroup v2"`` / ``"cgroup v1"``: a cgroup per student process bounds the memory and the
  process count of the submission *as a whole*;
- ``"uid"``: no cgroup can be made, but the grader is root. Each student process runs as an
  unprivileged uid of its own (:data:`UID_BASE` + the grader process's pid), so that
  ``RLIMIT_NPROC`` binds (the kernel never applies it to root), and the memory budget is split
  over the processes the student's code may have (:data:`UID_PROCESSES`, besides bubblewrap's
  two, which run none of it): ``RLIMIT_AS`` = budget / :data:`UID_PROCESSES` each, at most the
  budget in all. What that uid must read and cannot (a Python installed under ``/root``) is
  shown to it in a mount namespace of its own (:func:`_expose`);
- ``"rlimits"``: neither (a teacher's account without cgroups): each process's address space,
  and the account's process count; the total memory is bounded per process only, and the
  description says so.

In every case a CPU-time limit, a file-size limit and no core dumps; the judge's wall-clock
deadline kills the whole sandbox at the limit.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import resource
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

MAX_PROCESSES = 64  # per submission under a cgroup: the student's python and what it may start
UID_PROCESSES = 2  # under "uid": the student's python and one child (each half the memory)
SANDBOX_PROCESSES = 2  # bubblewrap's own: the one we start and the init of its pid namespace
UID_BASE = 1 << 30  # far above any account's uid; + the grader's pid: one uid per submission
FILE_MB = 64  # the largest file a student process may write (its /tmp is as large)

_GROUPS = itertools.count()


# -- cgroups -------------------------------------------------------------------------------------


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


def _cgroup_parents() -> tuple[str, dict[str, Path]] | None:
    """The cgroup kind this process can make groups of, and where, or None."""
    v2 = _own_cgroup("")
    if v2 is not None and (Path("/sys/fs/cgroup") / "cgroup.controllers").exists():
        parent = v2.parent if v2.name else v2
        if _writable_group(parent, ("memory.max", "pids.max")):
            return "cgroup v2", {"": parent}
    memory, pids = _own_cgroup("memory"), _own_cgroup("pids")
    if _writable_group(memory, ("memory.limit_in_bytes",)) and _writable_group(pids, ("pids.max",)):
        return "cgroup v1", {"memory": memory, "pids": pids}
    return None


# -- an unprivileged uid per submission ------------------------------------------------------------


def _blocked_below(path: str) -> str | None:
    """The outermost folder on the way to ``path`` that other users cannot enter, or None."""
    parts = Path(os.path.abspath(path)).parts
    for k in range(1, len(parts)):
        folder = os.path.join(*parts[:k])
        with contextlib.suppress(OSError):
            if not os.stat(folder).st_mode & stat.S_IXOTH:
                return folder
    return None


_libc = ctypes.CDLL(None, use_errno=True)
_CLONE_NEWNS, _MS_BIND, _MS_REC, _MS_PRIVATE = 0x20000, 0x1000, 0x4000, 0x40000


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def _expose(paths: list[str]) -> None:
    """In a new mount namespace of this (root) process, make each of ``paths`` reachable by any
    user: a folder on its way that others cannot enter is covered by an empty tmpfs holding just
    the path, bound from the original. Nothing else in that folder is shown."""
    plan: dict[str, list[str]] = {}
    for path in paths:
        if (blocked := _blocked_below(path)) is not None:
            plan.setdefault(blocked, []).append(path)
    if not plan:
        return
    _check(_libc.unshare(_CLONE_NEWNS), "unshare")
    _check(_libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None), "mount --make-rprivate /")
    # opened in the new namespace (a bind's source must be a mount of it), before the covering
    for folder, paths_below in plan.items():
        targets = [(path, os.open(path, os.O_PATH)) for path in paths_below]
        _check(_libc.mount(b"tmpfs", folder.encode(), b"tmpfs", 0, b"mode=755,size=1m"), "mount tmpfs")
        for path, fd in targets:
            if os.path.isdir(f"/proc/self/fd/{fd}"):
                os.makedirs(path, exist_ok=True)
            else:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                open(path, "w").close()
            _check(_libc.mount(f"/proc/self/fd/{fd}".encode(), path.encode(), None, _MS_BIND | _MS_REC, None),
                   f"bind {path}")
            os.close(fd)


def _become(uid: int) -> None:
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)


def kill_uid(uid: int) -> None:
    """Kill every process of ``uid`` (a child takes that uid and signals them all), and wait
    until they are gone: until reaped they still count against the uid's process limit."""
    for _ in range(100):
        if not _user_tasks(uid):
            return
        pid = os.fork()
        if pid == 0:
            try:
                _become(uid)
                os.kill(-1, signal.SIGKILL)  # every process of this uid but the caller
            finally:
                os._exit(0)
        os.waitpid(pid, 0)
        time.sleep(0.02)


def python_paths() -> list[str]:
    """What a student process needs to read of this Python: its installation and its venv."""
    return sorted({os.path.realpath(p) for p in (sys.prefix, sys.base_prefix)} | {sys.prefix})


def _uid_works() -> str | None:
    """Why a student process cannot run as an unprivileged uid here, or None (tried for real)."""
    if os.geteuid() != 0:
        return "the grader is not root"
    uid = UID_BASE + os.getpid()

    def preexec() -> None:
        _expose(python_paths())
        _become(uid)

    try:
        run = subprocess.run([sys.executable, "-I", "-c", "import numpy"], preexec_fn=preexec,
                             capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"a process cannot start as uid {uid}: {exc}"
    finally:
        kill_uid(uid)
    if run.returncode != 0:
        return f"Python does not run as uid {uid}: {run.stderr.decode(errors='replace').strip()[-200:]}"
    return None


def _user_tasks(uid: int) -> int:
    """The tasks (threads) that ``uid`` runs now: what ``RLIMIT_NPROC`` counts."""
    count = 0
    for status in Path("/proc").glob("[0-9]*/status"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
            if int(fields["Uid"].split()[0]) == uid:
                count += int(fields["Threads"])
    return count


# -- the confinement of one grading run ------------------------------------------------------------


class Confinement:
    """How the memory and the processes of one submission are bounded on this machine (see the
    module's docstring for the kinds). ``kinds`` restricts the choice (tests force one)."""

    KINDS = ("cgroup", "uid", "rlimits")

    def __init__(self, memory_mb: int, processes: int = MAX_PROCESSES, kinds: tuple[str, ...] = KINDS,
                 why: str = ""):
        self.memory_mb, self.processes, self.parents, self.why = memory_mb, processes, {}, why
        found = _cgroup_parents() if "cgroup" in kinds else None
        if found is not None:
            self.kind, self.parents = found
            return
        problem = _uid_works() if "uid" in kinds else "not tried"
        if problem is None:
            self.kind, self.processes = "uid", UID_PROCESSES
            return
        if "rlimits" not in kinds:
            raise RuntimeError(f"none of {kinds} can confine a submission here: {problem}")
        self.kind, self.why = "rlimits", why or problem

    @property
    def process_memory_mb(self) -> int:
        """Each process's address space: the whole budget, or its share under ``"uid"``."""
        return self.memory_mb // self.processes if self.kind == "uid" else self.memory_mb

    def describe(self) -> str:
        if self.kind == "uid":
            return (f"limits per submission (an unprivileged uid each, no cgroup here): {self.memory_mb} "
                    f"MiB in all, {self.processes} processes of {self.process_memory_mb} MiB each "
                    "(besides the sandbox's own)")
        if self.kind == "rlimits":
            return (f"limits per process (no cgroup can be made here, and {self.why}): {self.memory_mb} "
                    f"MiB of address space each, {self.processes} processes; the total is not bounded")
        return f"limits per submission ({self.kind}): {self.memory_mb} MiB, {self.processes} processes"

    def group(self) -> Group:
        return Group(self)

    def admit(self, folder: Path) -> None:
        """Let the student processes' uid pass through ``folder``, one of the grader's own
        temporary folders (made 0700): enter, not list."""
        if self.kind == "uid":
            os.chmod(folder, 0o711)

    def release(self, pid: int) -> None:
        """Remove what a grader process ``pid`` left behind (it was killed before it could clean
        up itself): its groups and whatever still runs in them, or its uid's processes."""
        if self.kind == "uid":
            kill_uid(UID_BASE + pid)
        for parent in self.parents.values():
            for d in parent.glob(f"mlnotes-grade-{pid}-*"):
                Group.empty(d)


class Group:
    """The limits of one student process and of everything it starts."""

    def __init__(self, confinement: Confinement):
        self.c, self.dirs, self.uid = confinement, [], None
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
        elif confinement.kind == "uid":
            self.uid = UID_BASE + os.getpid()
            kill_uid(self.uid)  # nothing of an earlier student process may count against this one

    def give(self, folder: Path) -> None:
        """Make the student process's uid the owner of ``folder`` (its scratch folder)."""
        if self.uid is not None:
            os.chown(folder, self.uid, self.uid)

    def preexec(self, cpu_seconds: float, reach: list[str] = (), sandbox: bool = True):
        """What the child runs before ``exec``: join the group, set the per-process limits, and,
        under ``"uid"``, make ``reach`` readable to the uid and take it. ``sandbox``: the child
        is bubblewrap, whose two processes count against the uid's."""
        dirs, c, uid = self.dirs, self.c, self.uid
        nproc = None  # under a cgroup, pids.max counts instead
        if c.kind == "uid":
            nproc = c.processes + (SANDBOX_PROCESSES if sandbox else 0)
        elif c.kind == "rlimits":  # the account's processes count too
            nproc = _user_tasks(os.getuid()) + c.processes
        reach = [*python_paths(), *reach]

        def apply() -> None:
            for d in dirs:
                (d / "cgroup.procs").write_text(str(os.getpid()))
            # per process as well: one large allocation is a MemoryError the student can read,
            # not a process killed by the cgroup's OOM killer
            resource.setrlimit(resource.RLIMIT_AS, (c.process_memory_mb * 2**20,) * 2)
            if nproc is not None:
                resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
            cpu = int(cpu_seconds) + 2
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
            resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_MB * 2**20,) * 2)
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            if uid is not None:
                _expose(reach)
                _become(uid)

        return apply

    def peak_memory_mb(self) -> float | None:
        """The most memory the group held (cgroup kinds only)."""
        for name in ("memory.peak", "memory.max_usage_in_bytes"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                return int((self.dirs[0] / name).read_text()) / 2**20
        return None

    def close(self) -> None:
        """Kill whatever is left in the group (or of its uid) and remove it."""
        if self.uid is not None:
            kill_uid(self.uid)
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
