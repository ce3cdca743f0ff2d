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
    "rss-gradient": [
        """
def rss_gradient(X, y, w):
    return 2 * X.T @ (y - X @ w)  # sign flipped: the ascent direction of the residual
""",
        """
def rss_gradient(X, y, w):
    return -X.T @ (y - X @ w)  # the factor 2 of the square is lost
""",
        """
def rss_gradient(X, y, w):
    return -2 * (y - X @ w) @ X / len(y)  # the gradient of the mean, not of the sum
""",
        """
def rss_gradient(X, y, w):
    return numerical_gradient(lambda v: np.sum((y - X @ v) ** 2), w)  # the forbidden method
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
    "quadratic-gradient": [
        """
def quadratic_gradient(A, b, x):
    return A @ x - b  # right for symmetric A only
""",
        """
def quadratic_gradient(A, b, x):
    return (A + A.T) @ x - b  # the 1/2 of the quadratic is lost
""",
        """
def quadratic_gradient(A, b, x):
    return 0.5 * (A + A.T) @ x + b  # sign of the linear term flipped
""",
        """
def quadratic_gradient(A, b, x):
    return numerical_gradient(lambda u: 0.5 * u @ A @ u - b @ u, x)  # the forbidden method
""",
    ],
}
