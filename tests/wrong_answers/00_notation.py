"""Plausible wrong answers to the coding questions of notebooks/00_notation.py (see README.md)."""

WRONG_ANSWERS: dict[str, list[str]] = {
    "logsumexp": [
        """
def stable_logsumexp(z):
    z = np.asarray(z, dtype=float)
    m = np.max(z)
    return np.log(np.sum(np.exp(z - m)))  # the shift m is never added back
""",
        """
def stable_logsumexp(z):
    return np.log(np.sum(np.exp(np.asarray(z, dtype=float))))  # no shift: overflows
""",
        """
def stable_logsumexp(z):
    z = np.asarray(z, dtype=float)
    m = np.min(z)  # the minimum: exp(z - m) overflows once the entries are 710 apart
    return m + np.log(np.sum(np.exp(z - m)))
""",
        """
def stable_logsumexp(z):
    from scipy.special import logsumexp  # the forbidden method
    return logsumexp(z)
""",
    ],
    "softmax-rows": [
        """
def softmax_rows(A):
    E = np.exp(A - np.max(A))  # one maximum for the whole matrix: rows far below it underflow
    return E / np.sum(E, axis=1, keepdims=True)
""",
        """
def softmax_rows(A):
    E = np.exp(A)  # no shift: overflows
    return E / np.sum(E, axis=1, keepdims=True)
""",
        """
def softmax_rows(A):
    E = np.exp(A - np.max(A, axis=0, keepdims=True))  # normalised over columns
    return E / np.sum(E, axis=0, keepdims=True)
""",
        """
def softmax_rows(A):
    return logistic.softmax(A)  # the forbidden method
""",
    ],
    "log-sigmoid": [
        """
def log_sigmoid(a):
    a = np.asarray(a, dtype=float)
    return -np.log(1.0 + np.exp(-a))  # -inf for large negative a, 0 for large positive a
""",
        """
def log_sigmoid(a):
    a = np.asarray(a, dtype=float)
    return np.where(a < 0, a - np.log1p(np.exp(a)), -np.log(1.0 + np.exp(-a)))  # 0 for a >> 0
""",
        """
def log_sigmoid(a):
    return np.log(1.0 / (1.0 + np.exp(-np.asarray(a, dtype=float))))  # the naive formula
""",
        """
def log_sigmoid(a):
    from scipy.special import log_expit  # the forbidden method
    return log_expit(a)
""",
    ],
    "softmax-ce-gradient": [
        """
def softmax_ce(W, X, y, lam):
    n, A = len(X), X @ W
    P = softmax_rows(A)
    Y = np.eye(W.shape[1])[y]
    value = np.mean(stable_logsumexp_rows(A) - A[np.arange(n), y]) + 0.5 * lam * np.sum(W**2)
    return float(value), X.T @ (Y - P) / n + lam * W  # the data term's sign flipped


def stable_logsumexp_rows(A):
    m = np.max(A, axis=1)
    return m + np.log(np.sum(np.exp(A - m[:, None]), axis=1))
""",
        """
def softmax_ce(W, X, y, lam):
    n, A = len(X), X @ W
    m = np.max(A, axis=1, keepdims=True)
    lse = m[:, 0] + np.log(np.sum(np.exp(A - m), axis=1))
    Y = np.eye(W.shape[1])[y]
    value = np.mean(lse - A[np.arange(n), y]) + 0.5 * lam * np.sum(W**2)
    return float(value), X.T @ (softmax_rows(A) - Y) + lam * W  # the 1/n of the mean is lost
""",
        """
def softmax_ce(W, X, y, lam):
    n, A = len(X), X @ W
    E = np.exp(A - np.max(A, axis=0))  # softmax over the samples (columns), not the classes
    P = E / np.sum(E, axis=0)
    m = np.max(A, axis=1, keepdims=True)
    lse = m[:, 0] + np.log(np.sum(np.exp(A - m), axis=1))
    Y = np.eye(W.shape[1])[y]
    value = np.mean(lse - A[np.arange(n), y]) + 0.5 * lam * np.sum(W**2)
    return float(value), X.T @ (P - Y) / n + lam * W
""",
        """
def softmax_ce(W, X, y, lam):
    n, A = len(X), X @ W
    E = np.exp(A)  # no shift: overflows once a score passes 709
    P = E / np.sum(E, axis=1, keepdims=True)
    Y = np.eye(W.shape[1])[y]
    value = np.mean(np.log(np.sum(E, axis=1)) - A[np.arange(n), y]) + 0.5 * lam * np.sum(W**2)
    return float(value), X.T @ (P - Y) / n + lam * W
""",
        """
def softmax_ce(W, X, y, lam):
    n, A = len(X), X @ W
    m = np.max(A, axis=1, keepdims=True)
    lse = m[:, 0] + np.log(np.sum(np.exp(A - m), axis=1))
    Y = np.eye(W.shape[1])[y]
    value = np.mean(lse - A[np.arange(n), y]) + 0.5 * lam * np.sum(W**2)
    return float(value), X.T @ (softmax_rows(A) - Y) / n  # the penalty's gradient is lost
""",
        """
def softmax_ce(W, X, y, lam):
    from mlnotes.check import numerical_gradient  # the forbidden method

    def J(V):
        A = X @ V
        m = np.max(A, axis=1, keepdims=True)
        lse = m[:, 0] + np.log(np.sum(np.exp(A - m), axis=1))
        return np.mean(lse - A[np.arange(len(X)), y]) + 0.5 * lam * np.sum(V * V)

    return float(J(W)), numerical_gradient(J, W)
""",
    ],
    "lipschitz-power": [
        """
def lipschitz_power(X, v0, n_iter):
    M = X.T @ X / len(X)  # the raw data: not standardised
    v = v0 / np.sqrt(v0 @ v0)
    for _ in range(n_iter):
        v = M @ v / np.sqrt((M @ v) @ (M @ v))
    return float(v @ M @ v)
""",
        """
def lipschitz_power(X, v0, n_iter):
    Z = X - X.mean(axis=0)  # centred but not scaled
    M = Z.T @ Z / len(Z)
    v = v0 / np.sqrt(v0 @ v0)
    for _ in range(n_iter):
        v = M @ v / np.sqrt((M @ v) @ (M @ v))
    return float(v @ M @ v)
""",
        """
def lipschitz_power(X, v0, n_iter):
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    M = Z.T @ Z / Z.shape[1]  # divided by d, the number of features, not by n
    v = v0 / np.sqrt(v0 @ v0)
    for _ in range(n_iter):
        v = M @ v / np.sqrt((M @ v) @ (M @ v))
    return float(v @ M @ v)
""",
        """
def lipschitz_power(X, v0, n_iter):
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    M = 2 * Z.T @ Z / len(Z)  # the Hessian of (1/n) ||y - Z w||^2: the 1/2 is lost
    v = v0 / np.sqrt(v0 @ v0)
    for _ in range(n_iter):
        v = M @ v / np.sqrt((M @ v) @ (M @ v))
    return float(v @ M @ v)
""",
        """
def lipschitz_power(X, v0, n_iter):
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    return float(np.linalg.eigvalsh(Z.T @ Z / len(Z))[0])  # the smallest eigenvalue
""",
        """
def lipschitz_power(X, v0, n_iter):
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    return float(np.linalg.eigvalsh(Z.T @ Z / len(Z))[-1])  # no power iteration: n_iter ignored
""",
        """
def lipschitz_power(X, v0, n_iter):
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    M = Z.T @ Z / len(Z)
    v = v0 / np.sqrt(v0 @ v0)
    for _ in range(n_iter):
        v = M @ v / np.sqrt((M @ v) @ (M @ v))
    return float(np.sqrt((M @ v) @ (M @ v)))  # ||M v_T||, not the Rayleigh quotient
""",
    ],
    "gaussian-factor-gradient": [
        """
def gaussian_factor_gradient(X, L):
    n, d = X.shape
    S_inv = np.linalg.inv(L @ L.T)
    # grad_S J times L: the chain rule keeps H L^T but forgets L H^T
    return (n * S_inv - S_inv @ X.T @ X @ S_inv) @ L / 2
""",
        """
def gaussian_factor_gradient(X, L):
    n, d = X.shape
    S_inv = np.linalg.inv(L @ L.T)
    return n * S_inv @ L + S_inv @ X.T @ X @ S_inv @ L  # sign of the trace term flipped
""",
        """
def gaussian_factor_gradient(X, L):
    n, d = X.shape
    L_inv = np.linalg.inv(L)
    B = L_inv @ X.T
    return n * L_inv - L_inv.T @ B @ B.T  # grad ln|det L| taken as L^{-1}, not L^{-T}
""",
        """
def gaussian_factor_gradient(X, L):
    n, d = X.shape
    S_inv = np.linalg.inv(L @ L.T)
    return (n * S_inv - S_inv @ X.T @ X @ S_inv) / 2  # grad_S J: no chain rule through L L^T
""",
        """
def gaussian_factor_gradient(X, L):
    from mlnotes.check import numerical_gradient  # the forbidden method

    def J(V):
        return len(X) * np.linalg.slogdet(V)[1] + 0.5 * np.sum(np.linalg.solve(V, X.T) ** 2)

    return numerical_gradient(J, L)
""",
    ],
}
