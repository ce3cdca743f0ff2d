"""The cost of input validation inside each fit, at the sizes of ``make bench``.

``python -m benchmarks.overhead [substring]``: every checking function of
``mlnotes._validation`` is wrapped, in each module that imported it, by a timer (outermost calls
only, so a check calling another counts once); each fit runs several times and the row gives
the median share of its time spent in validation, and the passes over X that validation made
(calls of ``max_abs`` on X). Issue 31's budget: at most one pass per fit, under 5 % of the fit.
"""

from __future__ import annotations

import importlib
import statistics
import sys
import time
import warnings

import numpy as np

from benchmarks import REPEAT, single_thread
from mlnotes import _validation

CHECKS = ("as_float_array", "check_X", "check_X_y", "check_from_gram", "check_labels", "check_scale",
          "check_scalar", "check_positive", "check_int", "check_rng", "check_returned", "max_abs")
MODULES = ("linear", "logistic", "online", "svm", "kernels", "boosting")


class _Meter:
    def __init__(self):
        self.seconds, self.depth, self.passes, self.X = 0.0, 0, 0, None

    def wrap(self, name, fn):
        def timed(*args, **kw):
            if name == "max_abs" and args and args[0] is not None and args[0].size == getattr(self.X, "size", -1):
                self.passes += 1
            if self.depth:
                return fn(*args, **kw)
            self.depth += 1
            t0 = time.perf_counter()
            try:
                return fn(*args, **kw)
            finally:
                self.seconds += time.perf_counter() - t0
                self.depth -= 1
        return timed


def _patched(meter):
    """Replace every check, wherever it was imported, by its timed version; return the undo."""
    undo = []
    targets = [_validation] + [importlib.import_module(f"mlnotes.{m}") for m in MODULES]
    originals = {n: getattr(_validation, n) for n in CHECKS}
    for mod in targets:
        for n, fn in originals.items():
            if getattr(mod, n, None) is fn:
                undo.append((mod, n, fn))
                setattr(mod, n, meter.wrap(n, fn))
    return lambda: [setattr(m, n, f) for m, n, f in undo]


def measure(name: str, X: np.ndarray, fit, repeat: int = REPEAT) -> str:
    shares, passes = [], set()
    with single_thread(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(repeat):
            meter = _Meter()
            meter.X = X
            undo = _patched(meter)
            try:
                t0 = time.perf_counter()
                fit()
                total = time.perf_counter() - t0
            finally:
                undo()
            shares.append(meter.seconds / total)
            passes.add(meter.passes)
    return (f"{name:40s} validation {100 * statistics.median(shares):5.2f} % of the fit "
            f"[{100 * min(shares):.2f}-{100 * max(shares):.2f}]  passes over X: {sorted(passes)}")


def main(argv: list[str]) -> int:
    from benchmarks.bench_linear import _well_conditioned
    from benchmarks.bench_logistic import _data as logistic_data
    from benchmarks.bench_online import EPOCHS, LAM
    from benchmarks.bench_online import _data as sgd_data
    from benchmarks.bench_svm import _data as svm_data
    from mlnotes import boosting, linear, logistic, online, svm

    pattern = argv[0] if argv else ""
    Xr, yr = _well_conditioned(200_000, 100, seed=2)
    Xs, ys, _, _ = sgd_data()
    Xl, yl = logistic_data()
    Xv, yv = svm_data(5000, 20, 0)
    rng = np.random.default_rng(0)
    Xa = rng.standard_normal((20000, 20))
    ya = np.where(Xa[:, 0] + Xa[:, 1] ** 2 - Xa[:, 2] * Xa[:, 3] > 1, 1.0, -1.0)
    runs = {
        "ridge n=2e5 d=100 fit_intercept": (Xr, lambda: linear.ridge(Xr, yr, lam=10.0, fit_intercept=True)),
        "least_squares n=2e5 d=100": (Xr, lambda: linear.least_squares(Xr, yr)),
        "sgd hinge n=1e5 d=100 batch 256": (Xs, lambda: online.sgd(Xs, ys, loss="hinge", eta=0.1, lam=LAM,
                                                                   batch_size=256, n_epochs=EPOCHS, rng=0)),
        "irls n=1e5 d=50": (Xl, lambda: logistic.irls(Xl, yl)),
        "smo rbf n=5000 d=20": (Xv, lambda: svm.smo(Xv, yv, C=1.0, kernel="rbf", gamma=0.05, tol=1e-3)),
        "adaboost n=20000 d=20, 100 rounds": (Xa, lambda: boosting.adaboost(Xa, ya, n_rounds=100)),
    }
    for name, (X, fit) in runs.items():
        if pattern in name:
            print(measure(name, X, fit), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
