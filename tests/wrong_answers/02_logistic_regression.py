"""Plausible wrong answers to the coding questions of notebooks/02_logistic_regression.py (see README.md)."""

WRONG_ANSWERS: dict[str, list[str]] = {
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
    "probit-scoring": [
        """
def probit_scoring(X, y, n_iter):
    from scipy.stats import norm
    w = np.zeros(X.shape[1])
    for _ in range(n_iter):  # Newton's observed weights lambda (lambda + a), not Fisher's
        a = X @ w
        q = 2 * y - 1
        lam = q * norm.pdf(a) / norm.cdf(q * a)
        s = np.sqrt(lam * (lam + a))
        w = np.linalg.lstsq(X * s[:, None], s * a + lam / s, rcond=None)[0]
    return w
""",
        """
def probit_scoring(X, y, n_iter):
    w = np.zeros(X.shape[1])
    for _ in range(n_iter):  # the logit's IRLS: weights g (1 - g), not the probit's
        g = lg.sigmoid(X @ w)
        s = np.sqrt(g * (1 - g))
        w = np.linalg.lstsq(X * s[:, None], s * (X @ w) + (y - g) / s, rcond=None)[0]
    return w
""",
        """
def probit_scoring(X, y, n_iter):
    from scipy.stats import norm
    w = np.zeros(X.shape[1])
    for _ in range(n_iter):
        eta = X @ w
        dens, cdf, sf = norm.pdf(eta), norm.cdf(eta), norm.sf(eta)
        s = dens / np.sqrt(cdf * sf)
        sz = (y - cdf) / np.sqrt(cdf * sf)  # the working response without eta: the step
        w = np.linalg.lstsq(X * s[:, None], sz, rcond=None)[0]
    return w
""",
        """
def probit_scoring(X, y, n_iter):
    from scipy.stats import norm
    w = np.zeros(X.shape[1])
    for _ in range(n_iter):
        eta = X @ w
        dens, cdf, sf = norm.pdf(eta), norm.cdf(eta), norm.sf(eta)
        s = dens / np.sqrt(cdf * sf)
        sz = s * eta + (y - cdf) / dens  # (y - mu) / phi not scaled by sqrt(W_ii)
        w = np.linalg.lstsq(X * s[:, None], sz, rcond=None)[0]
    return w
""",
        """
def probit_scoring(X, y, n_iter):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return lg.probit(X, y, method="irls", max_iter=max(n_iter, 1)).w  # forbidden
""",
    ],
    "softmax-hessian": [
        """
def softmax_hessian(X, W):
    d, K = W.shape
    P = lg.softmax(X @ W)
    H = np.einsum("ij,ih,ik,il->jkhl", X, X, P, P)
    H -= np.einsum("ij,ih,ik,kl->jkhl", X, X, P, np.eye(K))
    return -H.reshape(d * K, d * K)  # the sign: the Hessian of the negative log-likelihood
""",
        """
def softmax_hessian(X, W):
    d, K = W.shape
    P = lg.softmax(X @ W)
    H = np.einsum("ij,ih,ik,il->kjlh", X, X, P, P)  # class-major: the order of W.T.ravel()
    H -= np.einsum("ij,ih,ik,kl->kjlh", X, X, P, np.eye(K))
    return H.reshape(d * K, d * K)
""",
        """
def softmax_hessian(X, W):
    d, K = W.shape
    P = lg.softmax(X @ W)  # each class its own logistic regression: no cross-class terms
    H = -np.einsum("ij,ih,ik,kl->jkhl", X, X, P * (1 - P), np.eye(K))
    return H.reshape(d * K, d * K)
""",
        """
def softmax_hessian(X, W):
    d, K = W.shape
    A = X @ W
    P = np.exp(A - A.max(axis=0)) / np.exp(A - A.max(axis=0)).sum(axis=0)  # wrong axis
    H = np.einsum("ij,ih,ik,il->jkhl", X, X, P, P)
    H -= np.einsum("ij,ih,ik,kl->jkhl", X, X, P, np.eye(K))
    return H.reshape(d * K, d * K)
""",
        """
def softmax_hessian(X, W):
    d, K = W.shape
    Y = np.zeros((len(X), K))  # the Hessian does not depend on the labels
    return numerical_jacobian(
        lambda u: (X.T @ (Y - lg.softmax(X @ u.reshape(d, K)))).ravel(), W.ravel()
    )  # forbidden
""",
    ],
    "softmax-fit": [
        """
def softmax_fit(X, y, K, lam):
    n, d = X.shape
    Y = np.eye(K)[np.asarray(y, dtype=int)]
    W = np.zeros((d, K))
    eta = 1.0 / (np.linalg.norm(X, 2) ** 2 / 2 + lam)
    for _ in range(3000):
        G = X.T @ (Y - lg.softmax(X @ W)) - lam * W
        G[:, -1] = 0.0
        W = W - eta * G  # the sign: a descent step on the log-likelihood
        if np.max(np.abs(G)) <= 1e-8 * n:
            break
    return W
""",
        """
def softmax_fit(X, y, K, lam):
    n, d = X.shape
    Y = np.eye(K)[np.asarray(y, dtype=int)]
    W = np.zeros((d, K))
    eta = 1.0 / (np.linalg.norm(X, 2) ** 2 / 2 + lam)
    for _ in range(20000):
        A = X @ W
        E = np.exp(A - A.max(axis=0))
        P = E / E.sum(axis=0)  # the softmax over the samples, not over the classes
        G = X.T @ (Y - P) - lam * W
        G[:, -1] = 0.0
        if np.max(np.abs(G)) <= 1e-8 * n:
            break
        W = W + eta * G
    return W
""",
        """
def softmax_fit(X, y, K, lam):
    n, d = X.shape
    Y = np.eye(K)[np.asarray(y, dtype=int)]
    W = np.zeros((d, K))
    eta = 1.0 / (np.linalg.norm(X, 2) ** 2 / (2 * n) + lam)
    for _ in range(20000):
        G = X.T @ (Y - lg.softmax(X @ W)) / n - lam * W  # mean log-likelihood, summed penalty
        G[:, -1] = 0.0
        if np.max(np.abs(G)) <= 1e-10:
            break
        W = W + eta * G
    return W
""",
        """
def softmax_fit(X, y, K, lam):
    n, d = X.shape
    Y = np.eye(K)[np.asarray(y, dtype=int)]
    W = np.zeros((d, K))
    eta = 1.0 / (np.linalg.norm(X, 2) ** 2 / 2 + lam)
    for _ in range(20000):  # all K columns free: no reference class
        G = X.T @ (Y - lg.softmax(X @ W)) - lam * W
        if np.max(np.abs(G)) <= 1e-8 * n:
            break
        W = W + eta * G
    return W
""",
        """
def softmax_fit(X, y, K, lam):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return lg.softmax_regression(X, y, lam=lam).W  # the forbidden method
""",
    ],
    "softmax-cv": [
        """
def cv_log_loss(X, y, lams, folds):
    out = []
    for lam in lams:  # fitted on every sample, held-out ones included: the folds leak
        P = lg.softmax_regression(X, y, lam=lam).predict_proba(X)
        out.append(-np.mean(np.log(P[np.arange(len(y)), np.asarray(y, dtype=int)])))
    return np.array(out)
""",
        """
def cv_log_loss(X, y, lams, folds):
    y, folds, out = np.asarray(y), np.asarray(folds), []
    for lam in lams:
        total = 0.0
        for f in np.unique(folds):
            test = folds == f
            P = lg.softmax_regression(X[~test], y[~test], lam=lam).predict_proba(X[test])
            total -= np.sum(np.log2(P[np.arange(len(P)), y[test].astype(int)]))  # in bits
        out.append(total / len(y))
    return np.array(out)
""",
        """
def cv_log_loss(X, y, lams, folds):
    y, folds, out = np.asarray(y), np.asarray(folds), []
    for lam in lams:
        total = 0.0
        for f in np.unique(folds):
            test = folds == f
            P = lg.softmax_regression(X[~test], y[~test], lam=lam).predict_proba(X[test])
            total -= np.sum(np.log(P.max(axis=1)))  # the predicted class, not the true one
        out.append(total / len(y))
    return np.array(out)
""",
        """
def cv_log_loss(X, y, lams, folds):
    y, folds, out = np.asarray(y), np.asarray(folds), []
    for lam in lams:
        means = []
        for f in np.unique(folds):
            test = folds == f
            P = lg.softmax_regression(X[~test], y[~test], lam=lam).predict_proba(X[test])
            means.append(-np.mean(np.log(P[np.arange(len(P)), y[test].astype(int)])))
        out.append(np.mean(means))  # the mean of the fold means, not of the n scores
    return np.array(out)
""",
        """
def cv_log_loss(X, y, lams, folds):
    y, folds, out = np.asarray(y), np.asarray(folds), []
    for lam in lams:
        total = 0.0
        for f in np.unique(folds):
            train = folds != f
            P = lg.softmax_regression(X[train], y[train], lam=lam).predict_proba(X[train])
            total -= np.mean(np.log(P[np.arange(len(P)), y[train].astype(int)]))
        out.append(total / len(np.unique(folds)))  # scored on the training folds
    return np.array(out)
""",
    ],
}
