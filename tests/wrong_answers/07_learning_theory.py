"""Plausible wrong answers to the coding questions of notebooks/07_learning_theory.py (see README.md)."""

WRONG_ANSWERS: dict[str, list[str]] = {
    "exact-binomial-tail": [
        """
import math
def exact_deviation_probability(m, phi, gamma):
    return sum(
        math.comb(m, s) * phi**s * (1 - phi) ** (m - s)
        for s in range(m + 1)
        if s - m * phi > m * gamma  # one tail only: the absolute value is missing
    )
""",
        """
import math
def exact_deviation_probability(m, phi, gamma):
    return sum(
        math.comb(m, s) * phi**s * (1 - phi) ** (m - s)
        for s in range(m)  # s = m is left out
        if abs(s - m * phi) > m * gamma
    )
""",
        """
def exact_deviation_probability(m, phi, gamma):
    return sum(
        phi**s * (1 - phi) ** (m - s)  # the binomial coefficient is missing
        for s in range(m + 1)
        if abs(s - m * phi) > m * gamma
    )
""",
        """
def exact_deviation_probability(m, phi, gamma):
    return float(bounds.binomial_tail(m, phi, gamma))  # the forbidden method
""",
    ],
    "erm-threshold": [
        """
def erm_stump(x, y, thresholds):
    pred = np.where(x[None, :] > thresholds[:, None], 1.0, -1.0)
    err_plus = np.mean(pred != y[None, :], axis=1)
    errors = np.concatenate([err_plus, 1 - err_plus])
    i = int(np.argmin(errors))
    return i % thresholds.size, -1 if i < thresholds.size else 1  # polarities swapped
""",
        """
def erm_stump(x, y, thresholds):
    pred = np.where(x[None, :] > thresholds[:, None], 1.0, -1.0)
    err_plus = np.mean(pred != y[None, :], axis=1)
    errors = np.concatenate([err_plus, 1 - err_plus])
    i = int(np.argmin(errors))
    return i, 1 if i < thresholds.size else -1  # the index into both polarities, not j
""",
        """
def erm_stump(x, y, thresholds):
    pred = np.where(x[None, :] > thresholds[:, None], 1.0, -1.0)
    acc_plus = np.mean(pred == y[None, :], axis=1)  # accuracy where the error belongs
    errors = np.concatenate([acc_plus, 1 - acc_plus])
    i = int(np.argmin(errors))
    return i % thresholds.size, 1 if i < thresholds.size else -1
""",
    ],
    "hoeffding-sample-size": [
        """
def hoeffding_sample_size(gamma, delta):
    return int(np.ceil(np.log(1.0 / delta) / (2.0 * gamma**2)))  # one-sided: the 2 is lost
""",
        """
def hoeffding_sample_size(gamma, delta):
    return int(np.floor(np.log(2.0 / delta) / (2.0 * gamma**2)))  # rounded down: one short
""",
        """
def hoeffding_sample_size(gamma, delta):
    return int(np.ceil(np.log(2.0 / delta) / gamma**2))  # the 2 of 2 gamma^2 is lost
""",
        """
def hoeffding_sample_size(gamma, delta):
    return int(bounds.sample_complexity(1, gamma, delta))  # the forbidden method
""",
    ],
    "uniform-sample-size": [
        """
def uniform_sample_size(k, gamma, delta):
    return int(np.ceil(np.log(2.0 / delta) / (2.0 * gamma**2)))  # the union over k is forgotten
""",
        """
def uniform_sample_size(k, gamma, delta):
    return int(np.floor(np.log(2.0 * k / delta) / (2.0 * gamma**2)))  # rounded down
""",
        """
def uniform_sample_size(k, gamma, delta):
    return int(np.ceil(np.log(k / delta) / (2.0 * gamma**2)))  # one-sided: the 2 is lost
""",
        """
def uniform_sample_size(k, gamma, delta):
    return int(bounds.sample_complexity(k, gamma, delta))  # the forbidden method
""",
    ],
    "monte-carlo-deviation": [
        """
def mc_deviation(m, phi, gamma, n_rep, seed):
    rng = np.random.default_rng(seed)
    phi_hat = rng.binomial(m, phi, size=n_rep) / m
    return float(np.mean(phi_hat - phi > gamma))  # one tail only
""",
        """
import math
def mc_deviation(m, phi, gamma, n_rep, seed):
    return sum(  # the exact tail: no simulation at all
        math.comb(m, s) * phi**s * (1 - phi) ** (m - s)
        for s in range(m + 1)
        if abs(s - m * phi) > m * gamma
    )
""",
        """
def mc_deviation(m, phi, gamma, n_rep, seed):
    rng = np.random.default_rng()  # the seed is ignored: not reproducible
    phi_hat = rng.binomial(m, phi, size=n_rep) / m
    return float(np.mean(np.abs(phi_hat - phi) > gamma))
""",
        """
def mc_deviation(m, phi, gamma, n_rep, seed):
    return float(bounds.binomial_tail(m, phi, gamma))  # the forbidden method
""",
    ],
}
