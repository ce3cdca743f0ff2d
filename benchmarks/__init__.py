"""Side-by-side timings of mlnotes against the library a reader would otherwise use.

Each ``benchmarks/bench_<topic>.py`` defines functions named ``bench_*`` that take no argument
and return a :class:`Comparison`. Times are measured in one run, interleaved, and reported as a
ratio: these machines are shared and noisy, so only the ratio means anything.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Comparison:
    """One benchmark: our time, the reference's time, and how far the answers agree."""

    name: str
    ours: float
    reference: float
    reference_name: str
    agreement: float  # e.g. max abs difference of the coefficients
    agreement_what: str = "max abs diff"
    target: float | None = None  # the ratio ours/reference we promise not to exceed

    @property
    def ratio(self) -> float:
        return self.ours / self.reference

    def row(self) -> str:
        target = "" if self.target is None else f"  target <= {self.target:g}x " + (
            "ok" if self.ratio <= self.target else "MISSED"
        )
        return (
            f"{self.name:44s} ours {self.ours:8.3f} s  {self.reference_name:24s} "
            f"{self.reference:8.3f} s  ratio {self.ratio:5.2f}x  {self.agreement_what} "
            f"{self.agreement:.1e}{target}"
        )


def best_time(fn: Callable[[], object], repeat: int = 3) -> tuple[float, object]:
    """Minimum wall time over ``repeat`` calls (the least disturbed run) and the last result."""
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def compare(ours: Callable[[], object], reference: Callable[[], object], repeat: int = 3):
    """Time two callables alternately (so load on the machine hits both alike).

    Returns ``(t_ours, t_reference, result_ours, result_reference)`` with minimum times.
    """
    t_o, t_r = float("inf"), float("inf")
    r_o = r_r = None
    for _ in range(repeat):
        t, r_o = best_time(ours, 1)
        t_o = min(t_o, t)
        t, r_r = best_time(reference, 1)
        t_r = min(t_r, t)
    return t_o, t_r, r_o, r_r
