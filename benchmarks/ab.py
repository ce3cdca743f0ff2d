"""A/B timing of this library against an earlier revision of it, in one interleaved run.

``python -m benchmarks.ab [REV] [substring] [repeat]`` (default ``ff7a4f5``, the library before the
contract work of issue 14): extracts ``mlnotes/`` of ``REV`` with ``git archive`` (nothing in the
repository changes), imports it next to the working tree's ``mlnotes`` in one process, and times
the two alternately, with the scikit-learn reference of the same benchmark, on the data of
``make bench``. Each row gives the median and the spread (lowest-highest) of the per-repetition
ratios, so load on a shared machine moves the spread, not the verdict.
"""

from __future__ import annotations

import importlib
import io
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

from benchmarks import REPEAT, single_thread
from benchmarks.bench_linear import _well_conditioned
from benchmarks.bench_online import EPOCHS, LAM
from benchmarks.bench_online import _data as _sgd_data

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_REV = "ff7a4f5"
AB_REPEAT = 2 * REPEAT + 1  # three-way rounds: more of them, so the median is settled


def import_revision(rev: str, modules: tuple[str, ...]) -> dict:
    """The modules ``mlnotes.<m>`` of revision ``rev``, imported beside the current ones."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "mlnotes"], check=True,
                             capture_output=True).stdout
    tmp = tempfile.mkdtemp(prefix=f"mlnotes-{rev}-")
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tmp, filter="data")
    current = {k: sys.modules.pop(k) for k in list(sys.modules) if k.split(".")[0] == "mlnotes"}
    sys.path.insert(0, tmp)
    try:
        old = {m: __import__(f"mlnotes.{m}", fromlist=[m]) for m in modules}
    finally:
        sys.path.remove(tmp)
        for k in [k for k in sys.modules if k.split(".")[0] == "mlnotes"]:
            del sys.modules[k]
        sys.modules.update(current)
    return old


def _interleaved(fns: dict, repeat: int) -> dict[str, list[float]]:
    """Times of every callable, ``repeat`` rounds, the order rotated each round (one BLAS thread)."""
    names, times = list(fns), {k: [] for k in fns}
    with single_thread():
        for r in range(repeat):
            for k in names[r % len(names):] + names[:r % len(names)]:
                t0 = time.perf_counter()
                fns[k]()
                times[k].append(time.perf_counter() - t0)
    return times


def _row(name: str, times: dict[str, list[float]]) -> str:
    def ratio(a, b):
        r = [x / y for x, y in zip(times[a], times[b], strict=True)]
        return f"{statistics.median(r):5.2f}x [{min(r):.2f}-{max(r):.2f}]"

    return (f"{name:34s} new/old {ratio('new', 'old')}  new/ref {ratio('new', 'ref')}  "
            f"old/ref {ratio('old', 'ref')}  (median s: new {statistics.median(times['new']):.3f}, "
            f"old {statistics.median(times['old']):.3f}, ref {statistics.median(times['ref']):.3f})")


def ab_ridge(new, old, repeat):
    from sklearn.linear_model import Ridge

    X, y = _well_conditioned(200_000, 100, seed=2)
    fns = {"new": lambda: new["linear"].ridge(X, y, lam=10.0, fit_intercept=True),
           "old": lambda: old["linear"].ridge(X, y, lam=10.0, fit_intercept=True),
           "ref": lambda: Ridge(alpha=10.0, fit_intercept=True).fit(X, y)}
    assert np.allclose(fns["new"]().w, fns["old"]().w, rtol=1e-10, atol=1e-12)
    return _row("ridge n=2e5 d=100 fit_intercept", _interleaved(fns, repeat))


def ab_least_squares(new, old, repeat):
    X, y = _well_conditioned(200_000, 100, seed=1)
    fns = {"new": lambda: new["linear"].least_squares(X, y),
           "old": lambda: old["linear"].least_squares(X, y),
           "ref": lambda: np.linalg.lstsq(X, y, rcond=None)}
    return _row("least_squares n=2e5 d=100", _interleaved(fns, repeat))


def ab_sgd(new, old, repeat):
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import SGDClassifier

    X, y, _, _ = _sgd_data()
    kw = dict(loss="hinge", eta=0.1, lam=LAM, batch_size=256)

    def ref():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            return SGDClassifier(loss="hinge", alpha=LAM, max_iter=EPOCHS, tol=None, average=True,
                                 random_state=0).fit(X, y)

    fns = {"new": lambda: new["online"].sgd(X, y, n_epochs=EPOCHS, rng=0, **kw),
           "old": lambda: old["online"].sgd(X, y, epochs=EPOCHS, seed=0, **kw), "ref": ref}
    np.testing.assert_array_equal(fns["new"]().w, fns["old"]().w)  # the same iterates
    return _row("sgd hinge n=1e5 d=100 batch 256", _interleaved(fns, repeat))


def ab_irls(new, old, repeat):
    from benchmarks.bench_logistic import _data, _sklearn

    X, y = _data()
    fns = {"new": lambda: new["logistic"].irls(X, y), "old": lambda: old["logistic"].irls(X, y),
           "ref": lambda: _sklearn(X, y)}
    return _row("irls n=1e5 d=50", _interleaved(fns, repeat))


def ab_binomial_tail(new, old, repeat):
    from benchmarks.bench_bounds import _grid, _scipy_tail

    m, phi, gamma = _grid()
    fns = {"new": lambda: new["bounds"].binomial_tail(m, phi, gamma),
           "old": lambda: old["bounds"].binomial_tail(m, phi, gamma),
           "ref": lambda: _scipy_tail(m, phi, gamma)}
    # The same sums: the old code is up to 1.2e-12 off on this grid (m = 911: a 50-digit
    # mpmath sum gives the new code 1e-15 to 3e-14), hence not 1e-12 between the two.
    np.testing.assert_allclose(fns["new"](), fns["old"](), rtol=1e-11, atol=0)
    return _row("binomial_tail 2400-point grid", _interleaved(fns, repeat))


def main(argv: list[str]) -> int:
    rev = argv[0] if argv else DEFAULT_REV
    pattern = argv[1] if len(argv) > 1 else ""
    modules = ("linear", "online", "logistic", "bounds")

    repeat = int(argv[2]) if len(argv) > 2 else AB_REPEAT
    new = {m: importlib.import_module(f"mlnotes.{m}") for m in modules}
    old = import_revision(rev, modules)
    print(f"# this tree (new) against {rev} (old) and the reference (ref); {repeat} interleaved reps")
    for name, fn in [("ridge", ab_ridge), ("sgd", ab_sgd), ("least_squares", ab_least_squares),
                     ("irls", ab_irls), ("binomial_tail", ab_binomial_tail)]:
        if pattern in name:
            print(fn(new, old, repeat), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
