"""Finding and reading the submissions in a teacher's folder, which students filled.

Threats, and what stops each: the grader runs with the teacher's rights, and a folder collected
by git, tar or unzip keeps what students put in it.

- a symbolic link to a file the student may not read (the instructor notebook, ``/etc/passwd``)
  or to ``/dev/zero``: files are opened with ``O_NOFOLLOW`` and must be regular files (a FIFO,
  device, socket or link is refused, with a row saying so); folders are walked without following
  links;
- a FIFO that blocks the reader forever: the open does not block (``O_NONBLOCK``), and the type
  is checked on the open file before any read;
- a huge file: at most :data:`MAX_BYTES` are read;
- a file name that forges lines in the teacher's terminal or a formula in a spreadsheet
  (``\\r\\n12 / 12 graded``, ``=HYPERLINK(...)``): :func:`printable` escapes control characters,
  :func:`csv_safe` neutralises a leading formula character;
- two submissions whose feedback files would collide (``a/hw.ipynb`` and ``a/hw.md/x.ipynb``):
  feedback files are flat and numbered apart (:func:`feedback_names`).
"""

from __future__ import annotations

import errno
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

import nbformat

MAX_BYTES = 20 * 2**20  # no notebook of the course comes near it with its outputs


class Refused(Exception):
    """The submission cannot be read as a notebook; the message says why, for the student."""


@dataclass(frozen=True)
class Submission:
    path: Path  # where it was found (never followed)
    name: str  # its path relative to the folder, as found


def printable(text: str) -> str:
    """``text`` with every non-printable character escaped (``\\r`` -> ``\\x0d``)."""
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}"
                   for c in text)


def csv_safe(text: str) -> str:
    """A printable cell that a spreadsheet shows as text, not as a formula."""
    text = printable(text)
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def collect(folder: Path, skip: tuple[Path, ...] = ()) -> list[Submission]:
    """Every entry named ``*.ipynb`` under ``folder``, links and odd files included (they get a
    row saying why they were refused), sorted; ``skip`` folders (the feedback) are left out."""
    folder = Path(folder)
    skipped = {os.path.realpath(s) for s in skip}
    found = []
    for root, dirs, files in os.walk(folder, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d != ".ipynb_checkpoints"
                         and os.path.realpath(os.path.join(root, d)) not in skipped)
        # a link to a folder is listed among dirs and not walked; a *.ipynb folder gets a row
        for name in sorted(files + [d for d in dirs if d.endswith(".ipynb")]):
            if name.endswith(".ipynb"):
                path = Path(root) / name
                found.append(Submission(path, path.relative_to(folder).as_posix()))
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(root, d))]
    return sorted(found, key=lambda s: s.name)


def read_notebook(path: Path) -> nbformat.NotebookNode:
    """The notebook at ``path``, read as a regular file only (see the module docstring);
    :class:`Refused` with the reason otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise Refused("a symbolic link, not a notebook: submit the notebook file itself") from None
        raise Refused(f"cannot be opened: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a FIFO, device or socket"
            raise Refused(f"{kind}, not a notebook file")
        if info.st_size > MAX_BYTES:
            raise Refused(f"larger than {MAX_BYTES // 2**20} MiB: clear the outputs and submit again")
        chunks, size = [], 0
        while size <= MAX_BYTES and (chunk := os.read(fd, 2**20)):
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_BYTES:
            raise Refused(f"larger than {MAX_BYTES // 2**20} MiB: clear the outputs and submit again")
    finally:
        os.close(fd)
    try:
        return nbformat.reads(b"".join(chunks).decode("utf-8"), as_version=4)
    except RecursionError:
        raise Refused("not a notebook: its JSON is nested too deep") from None
    except Exception as exc:  # noqa: BLE001 - not UTF-8, not JSON, not a notebook
        raise Refused(f"not a notebook ({type(exc).__name__}: {printable(str(exc))[:200]})") from None


def feedback_names(names: list[str]) -> dict[str, str]:
    """Submission name -> a feedback file name unique among them: the path with ``/`` as ``__``,
    characters outside ``[A-Za-z0-9._-]`` as ``_``, numbered apart if two still collide."""
    out, used = {}, set()
    for name in names:
        base = re.sub(r"[^A-Za-z0-9._-]", "_", name.removesuffix(".ipynb").replace("/", "__"))[:150] or "_"
        candidate, k = base, 1
        while candidate.lower() in used:
            k += 1
            candidate = f"{base}-{k}"
        used.add(candidate.lower())
        out[name] = candidate + ".md"
    return out


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a new file renamed over it: a link planted at ``path``
    is replaced, never followed."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    os.replace(tmp, path)


def output_folder(path: Path) -> Path:
    """Make ``path`` a folder for the grader's output; refuse a link planted in its place."""
    path = Path(path)
    if path.is_symlink():
        raise ValueError(f"{path} is a symbolic link: the grader writes only to a real folder")
    path.mkdir(parents=True, exist_ok=True)
    return path
