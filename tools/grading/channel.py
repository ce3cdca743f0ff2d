"""The grader's end of the channel to one student process: requests out, checked answers in.

Threat: every byte that comes back was written by the student's code, which can find the channel
and write anything on it. So nothing it sends is trusted before it is checked: a line is at most
:data:`~tools.grading.student.MAX_LINE` bytes and nested at most
:data:`~tools.grading.student.MAX_DEPTH` deep (checked before it is parsed), it must be an
answer to the request just sent, with an ``id``, and either a ``value`` that :func:`decode`
accepts or an ``error`` of two strings. Anything else ends the process as :class:`StudentGone`;
every wait has the question's deadline (:class:`GradingTimeout`); neither escapes the
submission's row.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from . import student as wire
from .limits import Confinement
from .sandbox import sandbox_command

_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"')
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


class GradingTimeout(Exception):
    """The submission used up the question's time."""


class StudentGone(Exception):
    """The student's process ended or broke the protocol."""


class StudentError(Exception):
    """The student's code raised; ``kind`` and ``message`` are its (capped) words."""

    def __init__(self, kind: str, message: str):
        super().__init__(f"{kind} in the submitted code: {message}")
        self.kind, self.message = kind, message


def _depth(line: bytes) -> int:
    """The deepest nesting of ``[`` and ``{`` in a JSON line, strings left out (in C and numpy:
    a line may be 64 MiB)."""
    brackets = _STRINGS.sub(b'""', line).translate(None, _NOT_BRACKETS)
    if not brackets:
        return 0
    codes = np.frombuffer(brackets, dtype=np.uint8)
    return int(np.max(np.cumsum(np.where((codes == ord("[")) | (codes == ord("{")), 1, -1))))


def parse_answer(line: bytes, expected_id: int) -> dict:
    """The answer on one line, checked; :class:`StudentGone` if it is not a well-formed answer to
    request ``expected_id``."""
    # value -> {"__dict__": [[k, v]]} adds three levels per level of the student's data
    if _depth(line) > 3 * wire.MAX_DEPTH + 4:
        raise StudentGone("the submission's process sent a message nested too deep")
    try:
        answer = json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise StudentGone("the submission's process broke the protocol (not JSON)") from exc
    if not isinstance(answer, dict) or answer.get("id") != expected_id or type(answer["id"]) is not int:
        raise StudentGone("the submission's process broke the protocol (an answer to no request)")
    if set(answer) == {"id", "error"}:
        error = answer["error"]
        if not (isinstance(error, list) and len(error) == 2 and all(isinstance(e, str) for e in error)):
            raise StudentGone("the submission's process broke the protocol (a malformed error)")
        return {"error": (error[0][:100], error[1][:500])}
    if set(answer) == {"id", "value"}:
        try:
            return {"value": wire.decode(answer["value"])}
        except (ValueError, TypeError, KeyError, RecursionError, OSError) as exc:
            raise StudentGone(f"the submission's process sent a value that is not data: {str(exc)[:100]}") \
                from exc
    raise StudentGone("the submission's process broke the protocol (neither a value nor an error)")


class StudentProcess:
    """One student process, in the sandbox (or, with ``sandbox=False``, as the teacher's user in
    a scratch folder), spoken to as data and killed with everything it started."""

    def __init__(self, course: Path, *, confinement: Confinement, sandbox: bool, cpu_seconds: float,
                 hidden: tuple[str, ...] = ()):
        self.buffer, self.dead, self.next_id, self.deadline = b"", None, 0, time.monotonic()
        self._scratch = tempfile.TemporaryDirectory(prefix="mlnotes-student-")
        if sandbox:
            cmd = sandbox_command(course, hidden=hidden, stubs=Path(self._scratch.name) / "stubs")
            cwd = "/"
        else:  # --unsafe: the teacher's user, a scratch folder, the same protocol
            cmd, cwd = [sys.executable, "-I", "-B", str(course / "student.py"), str(course)], self._scratch.name
        env = {"PATH": "/usr/bin:/bin", "HOME": cwd, "MPLBACKEND": "Agg", "OPENBLAS_NUM_THREADS": "1",
               "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
        self.group = confinement.group()
        try:
            self.group.give(Path(self._scratch.name))
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, cwd=cwd, env=env, start_new_session=True,
                                         preexec_fn=self.group.preexec(cpu_seconds, [str(course), cwd], sandbox))
        except BaseException:
            self.group.close()
            self._scratch.cleanup()
            raise
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

    def _read_line(self) -> bytes:
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
                raise StudentGone(f"the submission sent more than {wire.MAX_LINE // 2**20} MiB at once")
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def ask(self, request: dict):
        """Send one request; return the decoded value, or raise :class:`StudentError` (the
        student's code raised), :class:`GradingTimeout` or :class:`StudentGone` (the process is
        then killed, and every later request raises the same)."""
        if self.dead:
            raise self.dead
        try:
            self.next_id += 1
            self._write({"id": self.next_id, **request})
            answer = parse_answer(self._read_line(), self.next_id)
        except (GradingTimeout, StudentGone) as exc:
            self.dead = exc
            self.kill()
            raise
        if "error" in answer:
            raise StudentError(*answer["error"])
        return answer["value"]

    def run_cell(self, label: str, source: str) -> None:
        self.ask({"exec": label, "source": source})

    def kill(self) -> None:
        """Kill the sandbox and everything in it (its session, its cgroup; the pid namespace does
        the rest)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(OSError):
                stream.close()
        self.group.close()
        self._scratch.cleanup()


class Proxy:
    """Stands, in the grader's test namespace, for a function the submission defines."""

    def __init__(self, student: StudentProcess, name: str):
        self.student, self.__name__ = student, name

    def __call__(self, *args, **kwargs):
        try:
            request = {"call": self.__name__, "args": wire.encode(list(args)), "kwargs": wire.encode(kwargs)}
        except TypeError as exc:  # a test that passes a function or an object: the test's fault
            raise TypeError(f"the grader cannot send this argument to {self.__name__}: {exc}") from exc
        try:
            return self.student.ask(request)
        except StudentError as exc:
            raise _as_builtin(exc) from None


def _as_builtin(exc: StudentError) -> Exception:
    """The student's error as the builtin exception of that name (a test may expect a
    ValueError), else a RuntimeError; its message says it came from the submission."""
    import builtins

    cls = getattr(builtins, exc.kind, None)
    if not (isinstance(cls, type) and issubclass(cls, Exception)):
        cls = RuntimeError
    try:
        return cls(str(exc))
    except Exception:  # an exception class with a signature of its own
        return RuntimeError(str(exc))
