"""SVM solvers of mlnotes.svm against scikit-learn's wrappers of libsvm and liblinear.

Each benchmark times both sides alternately in one run and reports the ratio, with how far the
answers agree (relative difference of the dual or primal objective).
"""

from __future__ import annotations

import numpy as np

from benchmarks import Comparison, compare
from mlnotes import kernels, svm


def _data(n: int, d: int, seed: int):
    """A non-linear, noisy two-class problem: a linear score plus a sine of one feature."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(d) / np.sqrt(d)
    score = X @ w + 0.5 * np.sin(2 * X[:, 0]) + 0.3 * rng.standard_normal(n)
    return X, np.where(score > 0, 1.0, -1.0)


def bench_smo_rbf_5000() -> Comparison:
    """smo against SVC (libsvm), RBF kernel, n = 5000, d = 20, C = 1, both at tol = 1e-3."""
    from sklearn.svm import SVC

    X, y = _data(5000, 20, 0)
    gamma = 1.0 / X.shape[1]
    t_o, t_r, ours, ref = compare(
        lambda: svm.smo(X, y, C=1.0, kernel="rbf", gamma=gamma, tol=1e-3),
        lambda: SVC(C=1.0, kernel="rbf", gamma=gamma, tol=1e-3).fit(X, y),
    )
    # libsvm's dual objective, recomputed in double from its alpha on its support vectors
    S = ref.support_
    v = ref.dual_coef_[0]
    D_ref = np.abs(v).sum() - 0.5 * v @ kernels.rbf_kernel(X[S], gamma=gamma) @ v
    return Comparison("smo rbf n=5000 d=20 C=1 (dual objective)", t_o, t_r, "sklearn SVC (libsvm)",
                      abs(ours.dual - D_ref) / abs(D_ref), "rel. diff of dual", target=2.0)


def bench_pegasos_linear_1e5() -> Comparison:
    """Pegasos against LinearSVC (liblinear, hinge loss), n = 1e5, d = 100, C = 0.01.

    Both minimise 1/2 (||w||^2 + b^2) + C sum_i hinge (liblinear regularises the bias, and so
    does pegasos(fit_intercept=True)). Pegasos runs the number of epochs that brings it within
    1% of liblinear's objective (checked in the agreement column).
    """
    from sklearn.svm import LinearSVC

    X, y = _data(100_000, 100, 1)
    C = 0.01
    t_o, t_r, ours, ref = compare(
        lambda: svm.pegasos(X, y, C=C, n_epochs=8, batch_size=100, rng=0),
        lambda: LinearSVC(C=C, loss="hinge", tol=1e-4, max_iter=20_000).fit(X, y),
        repeat=3,
    )
    P_ours = svm.hinge_objective(ours.w, ours.b, X, y, C, regularise_bias=True)
    P_ref = svm.hinge_objective(ref.coef_[0], ref.intercept_[0], X, y, C, regularise_bias=True)
    return Comparison("pegasos n=1e5 d=100 C=0.01 (primal objective)", t_o, t_r, "sklearn LinearSVC",
                      (P_ours - P_ref) / P_ref, "rel. primal excess")
