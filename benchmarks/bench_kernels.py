"""Gram matrices of mlnotes.kernels against scikit-learn's pairwise kernels (Chapter 5)."""

from __future__ import annotations

import numpy as np
from sklearn.metrics import pairwise as skp

from benchmarks import Comparison, compare
from mlnotes import kernels


def bench_rbf_gram():
    """RBF Gram matrix, n = 10^4 points in d = 50 (an 800 MB matrix; ours uses its symmetry)."""
    X = np.random.default_rng(0).standard_normal((10_000, 50))
    gamma = 1.0 / 50
    t_o, t_r, K_o, K_r = compare(lambda: kernels.rbf_kernel(X, gamma=gamma),
                                 lambda: skp.rbf_kernel(X, gamma=gamma))
    agreement = float(np.abs(K_o - K_r).max())
    del K_o, K_r
    return Comparison("rbf_kernel n=10000 d=50", t_o, t_r, "sklearn rbf_kernel", agreement,
                      target=1.2)


def bench_chi2_gram():
    """Exponentiated chi-squared Gram matrix, n = 3000 histograms with d = 64 bins (digits-like)."""
    rng = np.random.default_rng(1)
    X = rng.integers(0, 17, (3000, 64)) * (rng.uniform(size=(3000, 64)) < 0.6)
    X = X.astype(float)
    t_o, t_r, K_o, K_r = compare(lambda: kernels.chi2_kernel(X, gamma=0.05),
                                 lambda: skp.chi2_kernel(X, gamma=0.05))
    return Comparison("chi2_kernel n=3000 d=64", t_o, t_r, "sklearn chi2_kernel",
                      float(np.abs(K_o - K_r).max()), target=2.0)


def bench_intersection_gram():
    """Histogram intersection Gram matrix against scikit-learn's additive chi2 (same loop shape)."""
    rng = np.random.default_rng(2)
    X = (rng.integers(0, 17, (3000, 64)) * (rng.uniform(size=(3000, 64)) < 0.6)).astype(float)
    t_o, t_r, K_o, _ = compare(lambda: kernels.intersection_kernel(X),
                               lambda: skp.additive_chi2_kernel(X))
    # no reference intersection kernel in scikit-learn: agreement with min(a, b) = (a + b - |a - b|)/2
    S = X.sum(1)
    ref = 0.5 * (S[:, None] + S[None, :] - skp.manhattan_distances(X))
    return Comparison("intersection_kernel n=3000 d=64", t_o, t_r, "sklearn additive_chi2 (timing)",
                      float(np.abs(K_o - ref).max()))


def bench_rbf_gram_xy():
    """RBF between two sets (no symmetry to exploit): 10^4 x 5000 points in d = 50."""
    rng = np.random.default_rng(3)
    X, Y = rng.standard_normal((10_000, 50)), rng.standard_normal((5_000, 50))
    t_o, t_r, K_o, K_r = compare(lambda: kernels.rbf_kernel(X, Y, gamma=0.02),
                                 lambda: skp.rbf_kernel(X, Y, gamma=0.02))
    return Comparison("rbf_kernel X (10000x50) vs Y (5000x50)", t_o, t_r, "sklearn rbf_kernel",
                      float(np.abs(K_o - K_r).max()), target=1.2)


def bench_chi2_gram_xy():
    """Exponentiated chi-squared between two sets (no symmetry to exploit): 3000 x 2000, d = 64."""
    rng = np.random.default_rng(4)
    X = (rng.integers(0, 17, (3000, 64)) * (rng.uniform(size=(3000, 64)) < 0.6)).astype(float)
    Y = (rng.integers(0, 17, (2000, 64)) * (rng.uniform(size=(2000, 64)) < 0.6)).astype(float)
    t_o, t_r, K_o, K_r = compare(lambda: kernels.chi2_kernel(X, Y, gamma=0.05),
                                 lambda: skp.chi2_kernel(X, Y, gamma=0.05))
    return Comparison("chi2_kernel X (3000x64) vs Y (2000x64)", t_o, t_r, "sklearn chi2_kernel",
                      float(np.abs(K_o - K_r).max()), target=2.0)
