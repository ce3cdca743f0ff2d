"""Grading time per submission (``tools/assignments``), with 1 job and with every core.

Builds a chapter's assignment (Chapter 4's, or the chapter script given as the first argument),
copies its reference notebook ``N`` times (a class of identical,
full-mark submissions: every test runs, none stops early), grades the folder with ``jobs=1`` and
with ``jobs=os.cpu_count()``, and reports the ratio. ``python -m benchmarks.bench_assignments``
also prints the seconds per submission and the projected time for a class of 300 (the goal:
under 10 minutes on a 2-core machine). Wall time on a busy machine says little, so it also
counts the CPU time of every process the grading starts (this process in a cgroup of its own,
v1 ``cpuacct`` or v2 ``cpu.stat``, as root): 300 times that over the cores is the time on idle
cores. Without bubblewrap it measures the unsandboxed grader (``--unsafe``), which starts a
little faster.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import nbformat

from benchmarks import Comparison

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = ROOT / "notebooks" / "04_support_vector_machines.py"
N = 40


def _cpu_meter() -> tuple | None:
    """Move this process into a cgroup of its own; return ``(used, leave)``: the CPU seconds
    this process and all its descendants used so far (the killed ones included), and a function
    that moves it back and removes the group. None where no cgroup can be made."""
    for folder, name in ((Path("/sys/fs/cgroup/cpuacct"), "cpuacct.usage"), (Path("/sys/fs/cgroup"), "cpu.stat")):
        group = folder / f"mlnotes-bench-{os.getpid()}"
        try:
            group.mkdir()
            (group / "cgroup.procs").write_text(str(os.getpid()))
        except OSError:
            continue

        def used(f=group / name) -> float:
            text = f.read_text()  # v1: nanoseconds; v2: "usage_usec N" first
            return int(text.split()[1]) * 1e-6 if text.startswith("usage_usec") else int(text) * 1e-9

        def leave(folder=folder, group=group) -> None:
            (folder / "cgroup.procs").write_text(str(os.getpid()))
            group.rmdir()

        return used, leave
    return None


def _grading_times(n: int = N, chapter: Path = CHAPTER) -> tuple[float, float, int]:
    from tools import assignments
    from tools.grading import sandbox_problem

    unsafe = sandbox_problem() is not None  # still measured, without the sandbox's start-up

    with tempfile.TemporaryDirectory() as tmp:
        built = assignments.build_assignment(chapter, Path(tmp) / "dist")
        reference = nbformat.read(built / "autograder" / f"{chapter.stem}.ipynb", as_version=4)
        subs = Path(tmp) / "submissions"
        subs.mkdir()
        for k in range(n):
            nbformat.write(reference, subs / f"student{k:03d}.ipynb")
        zip_path = built / "autograder" / "autograder.zip"
        times = {}
        for jobs in (1, os.cpu_count() or 1):
            start = time.perf_counter()
            rows = assignments.grade_folder(zip_path, subs, Path(tmp) / f"scores{jobs}.csv", jobs=jobs,
                                            unsafe=unsafe)
            times[jobs] = time.perf_counter() - start
            assert all(r["total"] == r["possible"] for r in rows), "the reference must get full marks"
    return times[1], times[os.cpu_count() or 1], os.cpu_count() or 1


def bench_grade_chapter4() -> Comparison:
    one, many, cores = _grading_times()
    return Comparison(f"grade {N} submissions, ch. 4, {cores} jobs", many, one, "the same, 1 job", 0.0,
                      "score diff")


if __name__ == "__main__":
    import sys

    chapter = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else CHAPTER
    load = os.getloadavg()[0]  # the wall times hold for an idle machine only
    meter = _cpu_meter()
    one, many, cores = _grading_times(chapter=chapter)
    cpu = None
    if meter:
        cpu = meter[0]() / (2 * N)  # both runs: 2N submissions
        meter[1]()
    print(f"load average {load:.1f} before the run")
    if cpu is not None:
        print(f"CPU time {cpu:.2f} s per submission, every process counted: 300 submissions on "
              f"{cores} idle cores take about {300 * cpu / cores / 60:.1f} min")
    print(f"{N} submissions of {chapter.stem}: {one:.1f} s with 1 job ({one / N:.2f} s each), "
          f"{many:.1f} s with {cores} jobs ({many / N:.2f} s each); 300 submissions: about "
          f"{300 * many / N / 60:.1f} min with {cores} jobs")
