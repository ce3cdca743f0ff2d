"""Plausible wrong answers to the coding questions of notebooks/03_online_linear_classifiers.py (see README.md)."""

_PERCEPTRON = """
def my_perceptron(X, y, max_epochs=100):
    w = np.zeros(X.shape[1])
    n_mistakes = 0
    for _ in range({epochs}):
        clean = True
        for x_i, y_i in zip(X, y, strict=True):
            if {mistake}:
                w = w + {update}
                n_mistakes += 1
                clean = False
        if clean:
            break
    return w, n_mistakes
"""
_WINNOW = """
def my_winnow(X, y, eta, max_epochs):
    w = np.full(X.shape[1], 1.0 / X.shape[1])
    mistakes = 0
    for _ in range(max_epochs):
        clean = True
        for x, label in zip(X, y, strict=True):
            if label * (w @ x) <= 0:
                w = w * np.exp({exponent})
                {normalise}
                mistakes += 1
                clean = False
        if clean:
            break
    return w, mistakes
"""
_SGD = """
def sgd_logistic(X, y, lam, eta0, order):
    w = np.zeros(X.shape[1])
    w_sum = np.zeros_like(w)
    for t, i in enumerate(order):
        eta_t = {eta}
        M_i = y[i] * (X[i] @ w)
        grad = {decay} - y[i] * X[i] / (1.0 + np.exp(M_i))
        w = w {sign} eta_t * grad
        w_sum += w
    return w, {average}
"""
_LINE_SEARCH = """
def hinge_line_search(X, y, w, d, lam):
    n = len(y)
    M, s = y * (X @ w), {s}
    on = {on}
    slope = -np.sum(s[on]) / n
    moving = s != 0
    knots = (1 - M[moving]) / s[moving]
    ahead = knots > 0
    order = np.argsort(knots[ahead])
    knots, jumps = knots[ahead][order], np.abs(s[moving][ahead][order]) / n
    wd, dd = w @ d, d @ d
    lo = 0.0
    for k in range(len(knots) + 1):
        hi = knots[k] if k < len(knots) else np.inf
        if slope + {lam} * (wd + lo * dd) >= 0:
            return float(lo)
        if {interior} and lam * dd > 0:
            t = -(slope + lam * wd) / (lam * dd)
            if t < hi:
                return float(t)
        elif k == len(knots):
            return float(lo)
        if k < len(knots):
            slope += jumps[k]
            lo = hi
    return float(lo)
"""
_MARGIN = """
def perceptron_margin(rows):
    from scipy.optimize import minimize

    data = load_breast_cancer()
    X, y = data.X[rows], to_pm1(data.y[rows])
    X = (X - {mean}) / {std}
    A = y[:, None] * np.hstack([X, np.ones((len(y), 1))])
    w, k, clean = np.zeros(A.shape[1]), 0, False
    while not clean:
        clean = True
        for a in A:
            if w @ a <= 0:
                w, k, clean = w + a, k + 1, False
    R = float(np.max(np.linalg.norm({R_of}, axis=1)))
    {gamma}
    return k, R, gamma
"""
_BEST_MARGIN = (
    "res = minimize(lambda u: u @ u, w / np.min(A @ w), jac=lambda u: 2 * u, "
    "method='SLSQP', constraints=[{'type': 'ineq', 'fun': lambda u: A @ u - 1.0, "
    "'jac': lambda u: A}], options={'ftol': 1e-12, 'maxiter': 1000})\n"
    "    gamma = float(1.0 / np.linalg.norm(res.x))"
)
WRONG_ANSWERS: dict[str, list[str]] = {
    "perceptron-epochs": [
        # a zero margin is not a mistake: from w = 0 nothing ever moves
        _PERCEPTRON.format(epochs="max_epochs", mistake="y_i * (w @ x_i) < 0", update="y_i * x_i"),
        # one epoch too many
        _PERCEPTRON.format(epochs="max_epochs + 1", mistake="y_i * (w @ x_i) <= 0",
                           update="y_i * x_i"),
        # the label is left out of the update
        _PERCEPTRON.format(epochs="max_epochs", mistake="y_i * (w @ x_i) <= 0", update="x_i"),
        """
def my_perceptron(X, y, max_epochs=100):
    fit = online.perceptron(X, y, n_epochs=max_epochs)  # the forbidden method
    return fit.w, fit.n_mistakes
""",
    ],
    "svm-subgradient": [
        """
def svm_subgradient(X, y, w, lam):
    M = y * (X @ w)
    return -(X.T @ (y * (M <= 1))) + lam * w  # the 1/n of the average hinge loss is missing
""",
        """
def svm_subgradient(X, y, w, lam):
    M = y * (X @ w)
    return (X.T @ (y * (M <= 1))) / len(y) + lam * w  # sign of the hinge part flipped
""",
        """
def svm_subgradient(X, y, w, lam):
    M = y * (X @ w)
    return -(X.T @ (y * (M <= 0))) / len(y) + lam * w  # the perceptron's active set: no margin
""",
        """
def svm_subgradient(X, y, w, lam):
    def J(v):
        return np.mean(np.maximum(0.0, 1.0 - y * (X @ v))) + 0.5 * lam * v @ v
    return numerical_gradient(J, w)  # the forbidden method
""",
    ],
    "winnow-run": [
        # the label is missing from the exponent
        _WINNOW.format(exponent="eta * x", normalise="w /= w.sum()"),
        # never renormalised: the weights are no longer a probability vector
        _WINNOW.format(exponent="eta * label * x", normalise="pass"),
        # the sign of the exponent: demotes the coordinates that agree with the label
        _WINNOW.format(exponent="-eta * label * x", normalise="w /= w.sum()"),
        """
def my_winnow(X, y, eta, max_epochs):
    fit = online.winnow(X, y, eta=eta, n_epochs=max_epochs, doubled=False)  # forbidden
    return fit.v, fit.n_mistakes
""",
    ],
    "sgd-logistic-schedule": [
        # a constant step: from eta0 lam > 2 on the iterates diverge
        _SGD.format(eta="eta0", decay="lam * w", sign="-", average="w_sum / len(order)"),
        # the regulariser left out of the update
        _SGD.format(eta="eta0 / (1.0 + eta0 * lam * t)", decay="0.0 * w", sign="-",
                    average="w_sum / len(order)"),
        # no averaging: the last iterate twice
        _SGD.format(eta="eta0 / (1.0 + eta0 * lam * t)", decay="lam * w", sign="-",
                    average="w.copy()"),
        # the sign of the step: ascent
        _SGD.format(eta="eta0 / (1.0 + eta0 * lam * t)", decay="lam * w", sign="+",
                    average="w_sum / len(order)"),
        # the average over T + 1 iterates, w_0 = 0 included
        _SGD.format(eta="eta0 / (1.0 + eta0 * lam * t)", decay="lam * w", sign="-",
                    average="w_sum / (len(order) + 1)"),
        """
def sgd_logistic(X, y, lam, eta0, order):
    fit = online.sgd(X[order], y[order], loss="log", eta=eta0, lam=lam, n_epochs=1,
                     fit_intercept=False, shuffle=False, power_t=1.0)  # the forbidden method
    return fit.w, fit.w
""",
    ],
    "hinge-line-search": [
        # the penalty forgotten in the slope: the breakpoint walk of lam = 0
        _LINE_SEARCH.format(s="y * (X @ d)", on="(M < 1) | ((M == 1) & (s < 0))", lam="0.0",
                            interior="False"),
        # only breakpoints: no root of g' inside a piece
        _LINE_SEARCH.format(s="y * (X @ d)", on="(M < 1) | ((M == 1) & (s < 0))", lam="lam",
                            interior="False"),
        # the label left out of s
        _LINE_SEARCH.format(s="X @ d", on="(M < 1) | ((M == 1) & (s < 0))", lam="lam",
                            interior="True"),
        # a point on the kink counted as inactive whatever the sign of s
        _LINE_SEARCH.format(s="y * (X @ d)", on="M < 1", lam="lam", interior="True"),
        """
def hinge_line_search(X, y, w, d, lam):
    def g(t):
        v = w + t * d
        return np.mean(np.maximum(0.0, 1.0 - y * (X @ v))) + lam / 2 * v @ v
    grid = np.linspace(0.0, 10.0, 4001)  # a grid, not the exact search
    return float(grid[np.argmin([g(t) for t in grid])])
""",
        """
def hinge_line_search(X, y, w, d, lam):
    return float(optim.margin_line_search(X, y, w, d, lam=lam))  # the forbidden method
""",
    ],
    "perceptron-margin-experiment": [
        # standardised with the whole data set's mean and standard deviation: a leak
        _MARGIN.format(mean="data.X.mean(axis=0)", std="data.X.std(axis=0)", R_of="A",
                       gamma=_BEST_MARGIN),
        # R of the features alone, without the constant feature of the bias
        _MARGIN.format(mean="X.mean(axis=0)", std="X.std(axis=0)", R_of="X",
                       gamma=_BEST_MARGIN),
        # the margin of the perceptron's own separator, not of the best one
        _MARGIN.format(mean="X.mean(axis=0)", std="X.std(axis=0)", R_of="A",
                       gamma="gamma = float(np.min(A @ w) / np.linalg.norm(w))"),
        # the sample standard deviation (ddof = 1): the constant feature is not rescaled
        _MARGIN.format(mean="X.mean(axis=0)", std="X.std(axis=0, ddof=1)", R_of="A",
                       gamma=_BEST_MARGIN),
        """
def perceptron_margin(rows):
    data = load_breast_cancer()
    X = (data.X[rows] - data.X[rows].mean(axis=0)) / data.X[rows].std(axis=0)
    y = to_pm1(data.y[rows])
    fit = online.perceptron(X, y, fit_intercept=True, n_epochs=10_000)  # forbidden
    u = np.append(fit.w, fit.b)
    A = y[:, None] * np.hstack([X, np.ones((len(y), 1))])
    R = float(np.max(np.linalg.norm(A, axis=1)))
    bound = online.perceptron_bound(X, y, u, fit_intercept=True)
    return fit.n_mistakes, R, float(R / np.sqrt(bound))
""",
    ],
}
