"""Plausible wrong answers to the coding questions of notebooks/02_logistic_regression.py (see README.md)."""

WRONG_ANSWERS: dict[str, list[str]] = {
    "logistic-gradient": [
        """
def loglik_gradient(X, y, w):
    return X.T @ (lg.sigmoid(X @ w) - y)  # sign flipped: the gradient of the negative
""",
        """
def loglik_gradient(X, y, w):
    return X.T @ (y - lg.sigmoid(X @ w)) / len(y)  # the mean log-likelihood's gradient
""",
        """
def loglik_gradient(X, y, w):
    return X.T @ (y - lg.sigmoid(-X @ w))  # g(-a) where g(a) belongs
""",
        """
def loglik_gradient(X, y, w):
    return numerical_gradient(lambda v: lg.log_likelihood(v, X, y), w)  # forbidden
""",
    ],
    "irls-step": [
        """
def irls_step(X, y, w):
    g = lg.sigmoid(X @ w)
    r = g * (1 - g)
    z = X @ w + (y - g) / r
    s = np.sqrt(r)
    return np.linalg.lstsq(s[:, None] * X, z, rcond=None)[0]  # z is not scaled by sqrt(R_ii)
""",
        """
def irls_step(X, y, w):
    g = lg.sigmoid(X @ w)
    r = g * (1 - g)
    z = X @ w + (y - g) / r
    return np.linalg.lstsq(r[:, None] * X, r * z, rcond=None)[0]  # rows scaled by R_ii
""",
        """
def irls_step(X, y, w):
    g = lg.sigmoid(X @ w)
    r = g * (1 - g)
    z = (y - g) / r  # the adjusted response without Xw: the step, not the next iterate
    s = np.sqrt(r)
    return np.linalg.lstsq(s[:, None] * X, s * z, rcond=None)[0]
""",
        """
def irls_step(X, y, w):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return lg.newton(X, y, max_iter=1, w0=w).w  # the forbidden method
""",
    ],
    "logistic-loglik": [
        """
def log_likelihood(w, X, y):
    a = X @ w
    return float(np.sum(y * a - np.log(1.0 + np.exp(a))))  # overflows for large scores
""",
        """
def log_likelihood(w, X, y):
    a = X @ w
    return float(np.mean(y * a - np.logaddexp(0.0, a)))  # the mean, not the sum
""",
        """
def log_likelihood(w, X, y):
    a = X @ w
    return float(-np.sum(np.logaddexp(0.0, -y * a)))  # the {-1, +1} formula on {0, 1} labels
""",
        """
def log_likelihood(w, X, y):
    return lg.log_likelihood(w, X, y)  # the forbidden method
""",
    ],
    "logistic-hessian": [
        """
def loglik_hessian(X, w):
    g = lg.sigmoid(X @ w)
    return -(X.T * g) @ X  # g instead of g (1 - g)
""",
        """
def loglik_hessian(X, w):
    g = lg.sigmoid(X @ w)
    return (X.T * (g * (1.0 - g))) @ X  # the sign: the Hessian of the negative
""",
        """
def loglik_hessian(X, w):
    g = lg.sigmoid(X @ w)
    return -np.mean(g * (1.0 - g)) * X.T @ X  # one average weight for every sample
""",
        """
def loglik_hessian(X, w):
    y = np.zeros(len(X))  # the Hessian does not depend on y
    return numerical_jacobian(lambda u: X.T @ (y - lg.sigmoid(X @ u)), w)  # forbidden
""",
    ],
    "irls-full": [
        """
def irls(X, y, n_iter):
    w = np.zeros(X.shape[1])
    for _ in range(n_iter):
        g = lg.sigmoid(X @ w)
        r = g * (1.0 - g)
        z = X @ w + (y - g) / r
        w = np.linalg.lstsq(X * r[:, None], z * r, rcond=None)[0]  # rows scaled by R
    return w
""",
        """
def irls(X, y, n_iter):
    w = np.zeros(X.shape[1])
    for _ in range(n_iter - 1):  # one step short
        g = lg.sigmoid(X @ w)
        r = g * (1.0 - g)
        z = X @ w + (y - g) / r
        s = np.sqrt(r)
        w = np.linalg.lstsq(X * s[:, None], z * s, rcond=None)[0]
    return w
""",
        """
def irls(X, y, n_iter):
    w = np.zeros(X.shape[1])
    for _ in range(n_iter):
        g = lg.sigmoid(X @ w)
        s = np.sqrt(g * (1.0 - g))
        w = w + np.linalg.lstsq(X * s[:, None], (y - g) * s, rcond=None)[0]  # R^{-1} lost
    return w
""",
        """
def irls(X, y, n_iter):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return lg.irls(X, y, max_iter=n_iter).w  # the forbidden method
""",
    ],
}
