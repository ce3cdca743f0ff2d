"""Plausible wrong answers to the coding questions of notebooks/06_adaboost.py (see README.md)."""

_ADABOOST = """
def adaboost_loop(X, y, n_rounds):
    D = np.full(len(y), 1.0 / len(y))
    alphas, F = [], np.zeros(len(y))
    for _ in range({rounds}):
        h = boosting.best_stump(X, y, D).predict(X)
        eps = np.sum(D[h != y])
        alpha = {alpha}
        D = D * np.exp(-alpha * y * h)
        {normalise}
        alphas.append(alpha)
        F += alpha * h
    return np.array(alphas), F
"""
WRONG_ANSWERS: dict[str, list[str]] = {
    "adaboost-round": [
        """
def adaboost_round(D, y, h):
    eps = D[h != y].sum()
    alpha = np.log((1 - eps) / eps)  # the factor 1/2 of alpha_t is missing
    w = D * np.exp(-alpha * y * h)
    return eps, alpha, w.sum(), w / w.sum()
""",
        """
def adaboost_round(D, y, h):
    eps = D[h != y].sum()
    alpha = 0.5 * np.log((1 - eps) / eps)
    w = D * np.exp(-alpha * y * h)
    return eps, alpha, w.sum(), w  # D_next is not normalised
""",
        """
def adaboost_round(D, y, h):
    eps = np.mean(h != y)  # the unweighted error: D is ignored
    alpha = 0.5 * np.log((1 - eps) / eps)
    w = D * np.exp(-alpha * y * h)
    return eps, alpha, w.sum(), w / w.sum()
""",
        """
def adaboost_round(D, y, h):
    eps = D[h != y].sum()
    alpha = 0.5 * np.log((1 - eps) / eps)
    w = D * np.exp(alpha * y * h)  # the sign: the mistakes lose weight
    return eps, alpha, w.sum(), w / w.sum()
""",
    ],
    "stump-one-feature": [
        """
def best_threshold(x, y, D):
    D = D / D.sum()
    order = np.argsort(x, kind="stable")
    yD = (y * D)[order]
    left = np.concatenate([[0.0], np.cumsum(yD)])
    corr = yD.sum() - 2 * left  # splits between repeated values of x are allowed
    return 0.5 - 0.5 * np.abs(corr).max()
""",
        """
def best_threshold(x, y, D):
    order = np.argsort(x, kind="stable")  # D is not normalised
    xs, yD = x[order], (y * D)[order]
    left = np.concatenate([[0.0], np.cumsum(yD)])
    distinct = np.concatenate([[True], xs[1:] > xs[:-1], [True]])
    corr = yD.sum() - 2 * left[distinct]
    return 0.5 - 0.5 * np.abs(corr).max()
""",
        """
def best_threshold(x, y, D):
    D = D / D.sum()
    order = np.argsort(x, kind="stable")
    xs, yD = x[order], (y * D)[order]
    left = np.concatenate([[0.0], np.cumsum(yD)])
    distinct = np.concatenate([[True], xs[1:] > xs[:-1], [True]])
    corr = yD.sum() - 2 * left[distinct]
    return 0.5 - 0.5 * corr.max()  # one polarity only
""",
        """
def best_threshold(x, y, D):
    return float(boosting.best_stump(x[:, None], y, D).eps)  # the forbidden method
""",
    ],
    "adaboost-alpha": [
        """
def alpha_from_error(eps):
    eps = np.asarray(eps, dtype=float)
    return np.log((1.0 - eps) / eps)  # the factor 1/2 is lost
""",
        """
def alpha_from_error(eps):
    eps = np.asarray(eps, dtype=float)
    return 0.5 * np.log(eps / (1.0 - eps))  # the ratio upside down
""",
        """
def alpha_from_error(eps):
    import math
    return 0.5 * math.log((1.0 - eps) / eps)  # math.log: numbers only, not arrays
""",
        """
def alpha_from_error(eps):
    return np.vectorize(boosting.vote)(eps)  # the forbidden method
""",
    ],
    "adaboost-error-bound": [
        """
def training_error_bound(eps):
    eps = np.asarray(eps, dtype=float)
    return float(np.prod(np.sqrt(eps * (1.0 - eps))))  # the factor 2 per round is lost
""",
        """
def training_error_bound(eps):
    eps = np.asarray(eps, dtype=float)
    return float(np.sum(2.0 * np.sqrt(eps * (1.0 - eps))))  # a sum, not a product
""",
        """
def training_error_bound(eps):
    eps = np.asarray(eps, dtype=float)
    return float(np.exp(-2.0 * np.sum((0.5 - eps) ** 2)))  # the looser bound e^{-2 sum gamma^2}
""",
    ],
    "adaboost-loop": [
        # never normalised: eps is no longer a weighted error
        _ADABOOST.format(rounds="n_rounds", alpha="0.5 * np.log((1.0 - eps) / eps)",
                         normalise="pass"),
        # one round short
        _ADABOOST.format(rounds="n_rounds - 1", alpha="0.5 * np.log((1.0 - eps) / eps)",
                         normalise="D /= D.sum()"),
        # the factor 1/2 of alpha is lost
        _ADABOOST.format(rounds="n_rounds", alpha="np.log((1.0 - eps) / eps)",
                         normalise="D /= D.sum()"),
        """
def adaboost_loop(X, y, n_rounds):
    fit = boosting.adaboost(X, y, n_rounds=n_rounds)  # the forbidden method
    return fit.alpha, fit.decision_function(X)
""",
    ],
}
