"""IRLS against statsmodels' GLM Binomial and scikit-learn's unpenalised lbfgs (Chapter 2).

Synthetic data, n = 10^5 samples and d = 50 columns: an intercept and 49 independent Gaussian
features whose scales are log-uniform in [1/e, e] (raw features rarely share one scale), with
weights giving every feature a comparable effect, so the MLE exists and is well conditioned.
Every solver is asked for a tight answer, so that the coefficients agree to 1e-6 and the times
compare like with like.

Newton's method takes the same handful of iterations whatever the scales; lbfgs does not. On
perfectly isotropic features (all scales 1) lbfgs needs only about 7 iterations and beats IRLS,
whose every iteration costs an n d^2 Hessian: ``bench_irls_vs_sklearn_lbfgs_isotropic`` reports
that case too, without a target.

BLAS runs single-threaded for both sides (``benchmarks.compare`` does that for every benchmark):
the machines are shared, and multithreaded BLAS on an oversubscribed machine measures the
scheduler, not the algorithm.
"""

from __future__ import annotations

import warnings

import numpy as np

from benchmarks import Comparison, compare
from mlnotes import logistic

N, D = 100_000, 50


def _data(seed: int = 0, *, isotropic: bool = False):
    rng = np.random.default_rng(seed)
    scales = np.ones(D - 1) if isotropic else np.exp(rng.uniform(-1, 1, size=D - 1))
    X = np.column_stack([np.ones(N), rng.normal(size=(N, D - 1)) * scales])
    w = rng.normal(scale=1 / np.sqrt(D), size=D)
    w[1:] /= scales
    y = (rng.uniform(size=N) < logistic.sigmoid(X @ w)).astype(float)
    return X, y


def _sklearn(X, y):
    from sklearn.linear_model import LogisticRegression

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return LogisticRegression(C=np.inf, fit_intercept=False, solver="lbfgs", tol=1e-10,
                                  max_iter=10_000).fit(X, y)


def bench_irls_vs_statsmodels_glm() -> Comparison:
    import statsmodels.api as sm

    X, y = _data()
    t_o, t_r, ours, ref = compare(
        lambda: logistic.irls(X, y),
        lambda: sm.GLM(y, X, family=sm.families.Binomial()).fit(tol=1e-12),
        repeat=3,
    )
    return Comparison(
        "irls vs GLM Binomial (n=1e5, d=50)", t_o, t_r, "statsmodels GLM",
        float(np.max(np.abs(ours.w - ref.params))), "max |w diff|", target=0.25,
    )


def bench_irls_vs_sklearn_lbfgs() -> Comparison:
    X, y = _data()
    t_o, t_r, ours, ref = compare(lambda: logistic.irls(X, y), lambda: _sklearn(X, y))
    return Comparison(
        "irls vs LogisticRegression (n=1e5, d=50)", t_o, t_r, "sklearn lbfgs (no penalty)",
        float(np.max(np.abs(ours.w - ref.coef_[0]))), "max |w diff|", target=1.0,
    )


def bench_irls_vs_sklearn_lbfgs_isotropic() -> Comparison:
    X, y = _data(isotropic=True)
    t_o, t_r, ours, ref = compare(lambda: logistic.irls(X, y), lambda: _sklearn(X, y))
    return Comparison(
        "irls vs LogisticRegression, isotropic X", t_o, t_r, "sklearn lbfgs (no penalty)",
        float(np.max(np.abs(ours.w - ref.coef_[0]))), "max |w diff|", target=None,
    )
