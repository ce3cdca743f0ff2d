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
_MARGINS = """
def staged_margins(X, y, n_rounds):
    n = len(y)
    D = np.full(n, 1.0 / n)
    alphas, scores = np.zeros(n_rounds), np.zeros((n_rounds, n))
    for t in range(n_rounds):
        h = boosting.best_stump(X, y, D).predict(X)
        eps = np.sum(D[h != y])
        alphas[t] = 0.5 * np.log((1.0 - eps) / eps)
        D = D * np.exp(-alphas[t] * y * h)
        D /= D.sum()
        scores[t] = (scores[t - 1] if t else 0.0) + alphas[t] * h
    return {margins}
"""
_ROUNDS = """
def rounds_by_validation(X_train, y_train, X_val, y_val, X_test, y_test, T_max):
    fit = boosting.adaboost(X_train, y_train, n_rounds=T_max)
    T = int(np.argmin(np.mean({choose} <= 0, axis=1))) + 1
    return {T}, float(np.mean({report} <= 0))
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
    "confidence-vote": [
        """
def confidence_vote(D, y, h):
    r = np.sum(D * y * h)  # Schapire and Singer's approximation: exact for h in {-1, +1} only
    alpha = 0.5 * np.log((1 + r) / (1 - r))
    return alpha, float(np.sum(D * np.exp(-alpha * y * h)))
""",
        """
def confidence_vote(D, y, h):
    u = y * h
    alpha = np.sum(D * u) / np.sum(D * u**2)  # one Newton step from 0, not to convergence
    return alpha, float(np.sum(D * np.exp(-alpha * u)))
""",
        """
def confidence_vote(D, y, h):
    eps = np.sum(D[y * h < 0])  # the binary vote: abstentions count as correct
    alpha = 0.5 * np.log((1 - eps) / eps)
    return alpha, float(np.sum(D * np.exp(-alpha * y * h)))
""",
        """
def confidence_vote(D, y, h):
    from scipy.optimize import minimize_scalar  # the forbidden method
    best = minimize_scalar(lambda a: np.sum(D * np.exp(-a * y * h)))
    return float(best.x), float(best.fun)
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
    "staged-margins": [
        _MARGINS.format(margins="y * scores"),  # not normalised: y f_t, not y f_t / sum alpha
        _MARGINS.format(margins="y * scores / alphas.sum()"),  # every row by the final total
        _MARGINS.format(margins="y * scores / np.arange(1, n_rounds + 1)[:, None]"),  # by t
        _MARGINS.format(margins="scores / np.cumsum(alphas)[:, None]"),  # the labels y forgotten
        """
def staged_margins(X, y, n_rounds):
    fit = boosting.adaboost(X, y, n_rounds=n_rounds)  # the forbidden method
    return y * fit.staged_decision_function(X) / np.cumsum(fit.alpha)[:, None]
""",
    ],
    "rounds-by-validation": [
        _ROUNDS.format(  # T chosen on the test split: the test error is then optimistic
            choose="y_test * fit.staged_decision_function(X_test)",
            report="y_test * fit.staged_decision_function(X_test)[T - 1]", T="T"),
        _ROUNDS.format(  # the training error at the chosen T reported as the test error
            choose="y_val * fit.staged_decision_function(X_val)",
            report="y_train * fit.staged_decision_function(X_train)[T - 1]", T="T"),
        _ROUNDS.format(  # off by one: the index of the best row returned as T
            choose="y_val * fit.staged_decision_function(X_val)",
            report="y_test * fit.staged_decision_function(X_test)[T]", T="T - 1"),
        _ROUNDS.format(  # T chosen by the training error: its first zero, usually
            choose="y_train * fit.staged_decision_function(X_train)",
            report="y_test * fit.staged_decision_function(X_test)[T - 1]", T="T"),
    ],
}
