"""Chapter 7's computations against what a reader would otherwise write or call.

- the exact two-sided binomial tail on a grid, against ``scipy.stats.binom`` (cdf + sf). Ours
  sums the pmf over the deviating counts, O(m) work per grid point, where scipy evaluates an
  incomplete beta function in a few dozen operations: we are expected to be slower (the target
  allows 100x), and the sum is kept because it is the definition the chapter teaches and keeps
  relative accuracy far in the tail; a reader who needs speed should call scipy;
- the Monte Carlo deviation frequencies, one binomial draw per repetition and grid point,
  against drawing the Bernoulli samples themselves, one grid point at a time;
- the training errors of every stump on every simulated training set (counting by cells and
  cumulative sums), against comparing every point with every threshold.
"""

from __future__ import annotations

import numpy as np

from benchmarks import Comparison, compare
from mlnotes import bounds


def _grid() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """2400 points: 30 sample sizes up to 2000, 20 frequencies, 4 deviations off any grid."""
    return np.meshgrid(
        np.unique(np.geomspace(1, 2000, 30).astype(int)), np.linspace(0.01, 0.99, 20),
        np.array([0.0123, 0.05 * np.sqrt(2), 0.1 * np.pi / 3, 0.2 * np.e / 3]), indexing="ij",
    )


def _scipy_tail(m, phi, gamma) -> np.ndarray:
    from scipy import stats

    lo, hi = np.ceil(m * (phi - gamma)) - 1, np.floor(m * (phi + gamma))
    return stats.binom.cdf(lo, m, phi) + stats.binom.sf(hi, m, phi)


def bench_binomial_tail_grid() -> Comparison:
    m, phi, gamma = _grid()
    t_o, t_r, a, b = compare(lambda: bounds.binomial_tail(m, phi, gamma), lambda: _scipy_tail(m, phi, gamma))
    big = b > 1e-300
    return Comparison("binomial_tail, 2400-point grid, m <= 2000", t_o, t_r, "scipy.stats.binom",
                      float(np.max(np.abs(a[big] / b[big] - 1))), "max rel diff", target=100.0)


def bench_simulate_deviation() -> Comparison:
    m = np.array([10, 50, 200, 1000])[:, None]
    phi = np.array([0.1, 0.5])[None, :]
    gamma, R = 0.0517, 20_000  # m (phi +- gamma) never an integer: no ties to round

    def ours():
        return bounds.simulate_deviation(m, phi, gamma, n_rep=R, rng=0)

    def reference():
        # the direct simulation: R samples of m Bernoulli variables per grid point
        rng = np.random.default_rng(0)
        out = np.empty((4, 2))
        for i, mi in enumerate(m.ravel()):
            for j, pj in enumerate(phi.ravel()):
                means = (rng.random((R, mi)) < pj).mean(axis=1)
                out[i, j] = np.mean(np.abs(means - pj) > gamma)
        return out

    t_o, t_r, a, b = compare(ours, reference, repeat=3)
    # different draws: the agreement is statistical, a few Monte Carlo standard errors
    return Comparison("simulate_deviation, 8 points x 20000 reps", t_o, t_r, "Bernoulli draws, loop",
                      float(np.max(np.abs(a - b))), "max abs diff (MC)", target=1.0)


def bench_stump_training_errors() -> Comparison:
    H = bounds.stump_class(255, theta=0.3, eta=0.1)
    X, y = H.sample(200, n_rep=2000, rng=0)

    def ours():
        return H.training_errors(X, y)

    def reference():
        pred = np.where(X[:, :, None] > H.thresholds[None, None, :], 1.0, -1.0)  # (R, m, n_t)
        e_plus = np.mean(pred != y[:, :, None], axis=1)
        return np.concatenate([e_plus, 1 - e_plus], axis=1)

    t_o, t_r, a, b = compare(ours, reference, repeat=3)
    return Comparison("training errors, 510 stumps x 2000 sets x 200", t_o, t_r, "numpy broadcasting",
                      float(np.max(np.abs(a - b))), target=1.0)
