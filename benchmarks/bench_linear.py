"""Chapter 1 benchmarks: least squares, ridge and lasso against what a reader would use instead.

* ``least_squares`` (default method) against the normal equations solved by Cholesky, the
  fastest correct method on a well-conditioned problem (n = 10^6, d = 100, 800 MB); target 1.5x.
  numpy.linalg.lstsq is timed once alongside for scale.
* ``ridge`` against scikit-learn's ``Ridge`` (same penalty ``alpha = lam``); target: no slower.
* ``lasso`` against scikit-learn's ``Lasso`` on n = 10^5, d = 100 (``lam = 2 n alpha``), both
  run to tight tolerances so the answers agree within 1e-6; target 1.5x.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg as sla

from benchmarks import Comparison, compare
from mlnotes import linear


def _well_conditioned(n: int, d: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(d)
    return X, X @ w + rng.standard_normal(n)


def bench_least_squares_vs_cholesky() -> Comparison:
    X, y = _well_conditioned(1_000_000, 100)

    def cholesky_normal_equations():
        return sla.cho_solve(sla.cho_factor(X.T @ X), X.T @ y)

    t_o, t_r, ours, ref = compare(lambda: linear.least_squares(X, y).w, cholesky_normal_equations)
    return Comparison("least_squares n=1e6 d=100 (auto)", t_o, t_r, "Cholesky normal eqs",
                      float(np.max(np.abs(ours - ref))), target=1.5)


def bench_least_squares_vs_lstsq() -> Comparison:
    # For scale only (no target): LAPACK's SVD-based gelsd on the same kind of problem, smaller n.
    X, y = _well_conditioned(200_000, 100, seed=1)
    t_o, t_r, ours, ref = compare(lambda: linear.least_squares(X, y).w,
                                  lambda: np.linalg.lstsq(X, y, rcond=None)[0], repeat=3)
    return Comparison("least_squares n=2e5 d=100 (auto)", t_o, t_r, "numpy.linalg.lstsq",
                      float(np.max(np.abs(ours - ref))))


def bench_ridge_vs_sklearn() -> Comparison:
    from sklearn.linear_model import Ridge

    X, y = _well_conditioned(200_000, 100, seed=2)
    lam = 10.0
    t_o, t_r, ours, ref = compare(
        lambda: linear.ridge(X, y, lam=lam, fit_intercept=True),
        lambda: Ridge(alpha=lam, fit_intercept=True).fit(X, y),
    )
    return Comparison("ridge n=2e5 d=100 fit_intercept", t_o, t_r, "sklearn Ridge",
                      float(np.max(np.abs(ours.w - ref.coef_))), target=1.0)


def bench_lasso_vs_sklearn() -> Comparison:
    from sklearn.linear_model import Lasso

    rng = np.random.default_rng(3)
    n, d = 100_000, 100
    X = rng.standard_normal((n, d)) + 0.5 * rng.standard_normal((n, 1))  # correlated columns
    w_true = np.where(rng.random(d) < 0.2, rng.standard_normal(d), 0.0)
    y = X @ w_true + rng.standard_normal(n)
    alpha = 0.02
    t_o, t_r, ours, ref = compare(
        lambda: linear.lasso(X, y, lam=2 * n * alpha, fit_intercept=True),
        lambda: Lasso(alpha=alpha, fit_intercept=True, tol=1e-8, max_iter=100_000).fit(X, y),
    )
    return Comparison(f"lasso n=1e5 d=100 ({int(np.sum(ours.w != 0))} nonzero)", t_o, t_r,
                      "sklearn Lasso", float(np.max(np.abs(ours.w - ref.coef_))), target=1.5)
