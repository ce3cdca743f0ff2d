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
    "union-sample-size": [
        """
import math
def union_sample_size(k, phi, gamma, delta):  # the first m where k P <= delta, not the last
    m_hoeffding = math.ceil(math.log(2 * k / delta) / (2 * gamma**2))
    for m in range(1, m_hoeffding + 1):
        s = np.arange(m + 1)
        log_pmf = np.array([math.lgamma(m + 1) - math.lgamma(i + 1) - math.lgamma(m - i + 1)
                            for i in s]) + s * np.log(phi) + (m - s) * np.log1p(-phi)
        if k * np.exp(log_pmf[np.abs(s - m * phi) > m * gamma]).sum() <= delta:
            return m_hoeffding, m
    return m_hoeffding, m_hoeffding
""",
        """
import math
def union_sample_size(k, phi, gamma, delta):  # the union over k is forgotten
    m_hoeffding = math.ceil(math.log(2 / delta) / (2 * gamma**2))
    m_exact = m_hoeffding
    for m in range(m_hoeffding - 1, 0, -1):
        s = np.arange(m + 1)
        log_pmf = np.array([math.lgamma(m + 1) - math.lgamma(i + 1) - math.lgamma(m - i + 1)
                            for i in s]) + s * np.log(phi) + (m - s) * np.log1p(-phi)
        if np.exp(log_pmf[np.abs(s - m * phi) > m * gamma]).sum() > delta:
            break
        m_exact = m
    return m_hoeffding, m_exact
""",
        """
import math
def union_sample_size(k, phi, gamma, delta):  # one tail of the exact deviation only
    m_hoeffding = math.ceil(math.log(2 * k / delta) / (2 * gamma**2))
    m_exact = m_hoeffding
    for m in range(m_hoeffding - 1, 0, -1):
        s = np.arange(m + 1)
        log_pmf = np.array([math.lgamma(m + 1) - math.lgamma(i + 1) - math.lgamma(m - i + 1)
                            for i in s]) + s * np.log(phi) + (m - s) * np.log1p(-phi)
        if k * np.exp(log_pmf[s - m * phi > m * gamma]).sum() > delta:
            break
        m_exact = m
    return m_hoeffding, m_exact
""",
        """
import math
def union_sample_size(k, phi, gamma, delta):  # Hoeffding one-sided: log(k / delta)
    m_hoeffding = math.ceil(math.log(k / delta) / (2 * gamma**2))
    m_exact = m_hoeffding
    for m in range(m_hoeffding - 1, 0, -1):
        s = np.arange(m + 1)
        log_pmf = np.array([math.lgamma(m + 1) - math.lgamma(i + 1) - math.lgamma(m - i + 1)
                            for i in s]) + s * np.log(phi) + (m - s) * np.log1p(-phi)
        if k * np.exp(log_pmf[np.abs(s - m * phi) > m * gamma]).sum() > delta:
            break
        m_exact = m
    return m_hoeffding, m_exact
""",
        """
def union_sample_size(k, phi, gamma, delta):  # the forbidden methods
    m_hoeffding = int(bounds.sample_complexity(k, gamma, delta))
    m_exact = m_hoeffding
    while m_exact > 1 and k * bounds.binomial_tail(m_exact - 1, phi, gamma) <= delta:
        m_exact -= 1
    return m_hoeffding, m_exact
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
    "growth-count": [
        """
def growth_count(x, cls):  # the formulas of eq-growth-functions: repeated points ignored
    m = len(x)
    count = {"thresholds": m + 1, "stumps": 2 * m, "intervals": m * (m + 1) // 2 + 1}[cls]
    return count, count == 2**m
""",
        """
def growth_count(x, cls):  # no threshold above every point: the all -1 labelling is lost
    x = np.asarray(x, dtype=float)
    u = np.unique(x)
    cuts = np.concatenate([[u[0] - 1.0], (u[:-1] + u[1:]) / 2])
    if cls == "intervals":
        a, b = np.triu_indices(len(cuts), 1)
        inside = (x[None, :] > cuts[a, None]) & (x[None, :] < cuts[b, None])
        labels = np.vstack([np.where(inside, 1, -1), -np.ones((1, x.size), int)])
    else:
        labels = np.where(x[None, :] > cuts[:, None], 1, -1)
        if cls == "stumps":
            labels = np.vstack([labels, -labels])
    count = len(np.unique(labels, axis=0))
    return int(count), bool(count == 2**x.size)
""",
        """
def growth_count(x, cls):  # double counting: the duplicate labellings are not removed
    x = np.asarray(x, dtype=float)
    u = np.unique(x)
    cuts = np.concatenate([[u[0] - 1.0], (u[:-1] + u[1:]) / 2, [u[-1] + 1.0]])
    if cls == "intervals":
        a, b = np.triu_indices(len(cuts), 1)
        labels = (x[None, :] > cuts[a, None]) & (x[None, :] < cuts[b, None])
    else:
        labels = np.where(x[None, :] > cuts[:, None], 1, -1)
        if cls == "stumps":
            labels = np.vstack([labels, -labels])
    count = len(labels)
    return int(count), bool(count == 2**x.size)
""",
        """
def growth_count(x, cls):  # stumps: only one orientation of the thresholds
    x = np.asarray(x, dtype=float)
    u = np.unique(x)
    cuts = np.concatenate([[u[0] - 1.0], (u[:-1] + u[1:]) / 2, [u[-1] + 1.0]])
    if cls == "intervals":
        a, b = np.triu_indices(len(cuts), 1)
        inside = (x[None, :] > cuts[a, None]) & (x[None, :] < cuts[b, None])
        labels = np.vstack([np.where(inside, 1, -1), -np.ones((1, x.size), int)])
    else:
        labels = np.where(x[None, :] > cuts[:, None], 1, -1)
    count = len(np.unique(labels, axis=0))
    return int(count), bool(count == 2**x.size)
""",
        """
def growth_count(x, cls):  # counted on the distinct points: a repeat seems shattered
    x = np.unique(np.asarray(x, dtype=float))
    cuts = np.concatenate([[x[0] - 1.0], (x[:-1] + x[1:]) / 2, [x[-1] + 1.0]])
    if cls == "intervals":
        a, b = np.triu_indices(len(cuts), 1)
        inside = (x[None, :] > cuts[a, None]) & (x[None, :] < cuts[b, None])
        labels = np.vstack([np.where(inside, 1, -1), -np.ones((1, x.size), int)])
    else:
        labels = np.where(x[None, :] > cuts[:, None], 1, -1)
        if cls == "stumps":
            labels = np.vstack([labels, -labels])
    count = len(np.unique(labels, axis=0))
    return int(count), bool(count == 2**x.size)
""",
    ],
    "halfspace-labelings": [
        """
def halfspace_labelings(X):  # one orientation of each line only
    X = np.asarray(X, dtype=float)
    n = len(X)
    rows = {(1,) * n, (-1,) * n}
    for i in range(n):
        for j in range(i + 1, n):
            d = X[j] - X[i]
            side = np.sign(d[0] * (X[:, 1] - X[i, 1]) - d[1] * (X[:, 0] - X[i, 0]))
            for y_i in (1, -1):
                for y_j in (1, -1):
                    y = side.astype(int)
                    y[i], y[j] = y_i, y_j
                    rows.add(tuple(y.tolist()))
    return np.array(sorted(rows), dtype=int)
""",
        """
def halfspace_labelings(X):  # the two points on the line are always labelled +1
    X = np.asarray(X, dtype=float)
    n = len(X)
    rows = {(1,) * n, (-1,) * n}
    for i in range(n):
        for j in range(i + 1, n):
            d = X[j] - X[i]
            side = np.sign(d[0] * (X[:, 1] - X[i, 1]) - d[1] * (X[:, 0] - X[i, 0]))
            for s in (1, -1):
                rows.add(tuple(np.where(s * side >= 0, 1, -1).tolist()))
    return np.array(sorted(rows), dtype=int)
""",
        """
def halfspace_labelings(X):  # double counting: a list, not a set, of labellings
    X = np.asarray(X, dtype=float)
    n = len(X)
    rows = [(1,) * n, (-1,) * n]
    for i in range(n):
        for j in range(i + 1, n):
            d = X[j] - X[i]
            side = np.sign(d[0] * (X[:, 1] - X[i, 1]) - d[1] * (X[:, 0] - X[i, 0]))
            for s in (1, -1):
                for y_i in (1, -1):
                    for y_j in (1, -1):
                        y = (s * side).astype(int)
                        y[i], y[j] = y_i, y_j
                        rows.append(tuple(y.tolist()))
    return np.array(rows, dtype=int)
""",
        """
def halfspace_labelings(X):  # no offset: lines through the origin only
    X = np.asarray(X, dtype=float)
    angles = np.sort(np.mod(np.arctan2(X[:, 1], X[:, 0])[:, None] + [np.pi / 2, -np.pi / 2],
                            2 * np.pi).ravel())
    mids = (angles + np.append(angles[1:], angles[0] + 2 * np.pi)) / 2
    rows = {tuple(np.where(X @ [np.cos(a), np.sin(a)] > 0, 1, -1).tolist()) for a in mids}
    return np.array(sorted(rows), dtype=int)
""",
        """
def halfspace_labelings(X):  # cuts only between points: the constant labellings are lost
    X = np.asarray(X, dtype=float)
    n = len(X)
    i, j = np.triu_indices(n, 1)
    d = X[j] - X[i]
    crit = np.sort(np.mod(np.arctan2(d[:, 1], d[:, 0])[:, None] + [np.pi / 2, -np.pi / 2],
                          2 * np.pi).ravel())
    rows = set()
    for a in (crit + np.append(crit[1:], crit[0] + 2 * np.pi)) / 2:
        p = np.sort(X @ [np.cos(a), np.sin(a)])
        for c in (p[:-1] + p[1:]) / 2:
            rows.add(tuple(np.where(X @ [np.cos(a), np.sin(a)] > c, 1, -1).tolist()))
    return np.array(sorted(rows), dtype=int)
""",
    ],
    "stump-bound-experiment": [
        """
def stump_bound_experiment(x, y, train, thresholds, delta):  # one polarity only
    labels = np.where(y == 1, 1, -1)
    wrong = np.where(x[None, :] > thresholds[:, None], 1, -1) != labels[None, :]
    err_train, err_test = wrong[:, train].mean(axis=1), wrong[:, ~train].mean(axis=1)
    best = int(np.argmin(err_train))
    m, k = int(train.sum()), 2 * len(thresholds)
    return float(err_train[best]), float(err_test[best]), float(
        np.sqrt(np.log(2 * k / delta) / (2 * m)))
""",
        """
def stump_bound_experiment(x, y, train, thresholds, delta):  # Hoeffding for one stump
    labels = np.where(y == 1, 1, -1)
    wrong = np.where(x[None, :] > thresholds[:, None], 1, -1) != labels[None, :]
    err_train = np.concatenate([wrong[:, train].mean(axis=1),
                                1 - wrong[:, train].mean(axis=1)])
    err_test = np.concatenate([wrong[:, ~train].mean(axis=1),
                               1 - wrong[:, ~train].mean(axis=1)])
    best = int(np.argmin(err_train))
    m = int(train.sum())
    return float(err_train[best]), float(err_test[best]), float(
        np.sqrt(np.log(2 / delta) / (2 * m)))
""",
        """
def stump_bound_experiment(x, y, train, thresholds, delta):  # k = len(thresholds)
    labels = np.where(y == 1, 1, -1)
    wrong = np.where(x[None, :] > thresholds[:, None], 1, -1) != labels[None, :]
    err_train = np.concatenate([wrong[:, train].mean(axis=1),
                                1 - wrong[:, train].mean(axis=1)])
    err_test = np.concatenate([wrong[:, ~train].mean(axis=1),
                               1 - wrong[:, ~train].mean(axis=1)])
    best = int(np.argmin(err_train))
    m, k = int(train.sum()), len(thresholds)
    return float(err_train[best]), float(err_test[best]), float(
        np.sqrt(np.log(2 * k / delta) / (2 * m)))
""",
        """
def stump_bound_experiment(x, y, train, thresholds, delta):  # the labels left in {0, 1}
    wrong = np.where(x[None, :] > thresholds[:, None], 1, -1) != y[None, :]
    err_train = np.concatenate([wrong[:, train].mean(axis=1),
                                1 - wrong[:, train].mean(axis=1)])
    err_test = np.concatenate([wrong[:, ~train].mean(axis=1),
                               1 - wrong[:, ~train].mean(axis=1)])
    best = int(np.argmin(err_train))
    m, k = int(train.sum()), 2 * len(thresholds)
    return float(err_train[best]), float(err_test[best]), float(
        np.sqrt(np.log(2 * k / delta) / (2 * m)))
""",
        """
def stump_bound_experiment(x, y, train, thresholds, delta):  # tested on every point
    labels = np.where(y == 1, 1, -1)
    wrong = np.where(x[None, :] > thresholds[:, None], 1, -1) != labels[None, :]
    err_train = np.concatenate([wrong[:, train].mean(axis=1),
                                1 - wrong[:, train].mean(axis=1)])
    err_test = np.concatenate([wrong.mean(axis=1), 1 - wrong.mean(axis=1)])
    best = int(np.argmin(err_train))
    m, k = int(train.sum()), 2 * len(thresholds)
    return float(err_train[best]), float(err_test[best]), float(
        np.sqrt(np.log(2 * k / delta) / (2 * m)))
""",
    ],
}
