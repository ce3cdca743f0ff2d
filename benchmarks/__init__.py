"""Side-by-side timings of mlnotes against the library a reader would otherwise use.

Each ``benchmarks/bench_<topic>.py`` defines functions named ``bench_*`` that take no argument
and return a :class:`Comparison`. Both sides are timed in one run, alternately, several times;
the machines are shared and noisy, so only the ratio means anything, and one ratio means little:
a row reports the median of the per-repetition ratios ours/reference and their spread (the
lowest and highest). A load that hits one repetition moves its ratio, not the median; a spread
that straddles the target says the run cannot settle the comparison. BLAS runs on one thread for
both sides: on a shared, oversubscribed machine a multithreaded BLAS measures the scheduler.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: Interleaved repetitions per comparison (``compare``'s default): enough for a median.
REPEAT = 5


def _times(t) -> tuple[float, ...]:
    return tuple(float(v) for v in t) if isinstance(t, Sequence) else (float(t),)


@dataclass(frozen=True)
class Comparison:
    """One benchmark: our times, the reference's times (one per repetition, paired), and how far
    the answers agree. ``ours`` and ``reference`` are a number or a sequence of paired times."""

    name: str
    ours: float | Sequence[float]
    reference: float | Sequence[float]
    reference_name: str
    agreement: float  # e.g. max abs difference of the coefficients
    agreement_what: str = "max abs diff"
    target: float | None = None  # the median ratio ours/reference we promise not to exceed

    @property
    def ratios(self) -> list[float]:
        """ours / reference of each repetition (the two ran next to each other)."""
        return [o / r for o, r in zip(_times(self.ours), _times(self.reference), strict=True)]

    @property
    def ratio(self) -> float:
        """The median ratio over the repetitions."""
        return statistics.median(self.ratios)

    @property
    def spread(self) -> tuple[float, float]:
        """The lowest and the highest ratio of the repetitions."""
        return min(self.ratios), max(self.ratios)

    @property
    def verdict(self) -> str | None:
        """Against the target: ``"ok"`` (the median meets it), ``"MISSED"`` (every repetition
        missed it: the run settles that we are slower), or ``"unsettled"`` (the median missed
        but some repetition met it: on this machine's noise the run cannot tell). None without
        a target. Only a MISSED row makes ``make bench`` fail."""
        if self.target is None:
            return None
        if self.ratio <= self.target:
            return "ok"
        return "MISSED" if self.spread[0] > self.target else "unsettled"

    def row(self) -> str:
        target = "" if self.target is None else f"  target <= {self.target:g}x {self.verdict}"
        lo, hi = self.spread
        return (
            f"{self.name:44s} ours {statistics.median(_times(self.ours)):8.3f} s  "
            f"{self.reference_name:24s} {statistics.median(_times(self.reference)):8.3f} s  "
            f"ratio {self.ratio:5.2f}x [{lo:.2f}-{hi:.2f}, {len(self.ratios)} reps]  "
            f"{self.agreement_what} {self.agreement:.1e}{target}"
        )


def _timed(fn: Callable[[], object]) -> tuple[float, object]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def compare(ours: Callable[[], object], reference: Callable[[], object], repeat: int = REPEAT):
    """Time two callables alternately, ``repeat`` times each (load on the machine hits both alike).

    The order alternates too (ours first, then the reference first, ...), so neither side always
    runs on the caches the other warmed. Returns ``(times_ours, times_reference, result_ours,
    result_reference)``, the times as paired tuples for :class:`Comparison`.
    """
    with single_thread():
        return _alternate(ours, reference, repeat)


def single_thread():
    """BLAS limited to one thread (threadpoolctl) for the ``with`` block."""
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="blas")


def _alternate(ours, reference, repeat):
    t_o, t_r = [], []
    r_o = r_r = None
    for k in range(repeat):
        if k % 2 == 0:
            t, r_o = _timed(ours)
            t_o.append(t)
            t, r_r = _timed(reference)
            t_r.append(t)
        else:
            t, r_r = _timed(reference)
            t_r.append(t)
            t, r_o = _timed(ours)
            t_o.append(t)
    return tuple(t_o), tuple(t_r), r_o, r_r
