"""Plausible wrong answers to the coding questions of notebooks/05_kernels.py (see README.md)."""

WRONG_ANSWERS: dict[str, list[str]] = {
    "rbf-gram": [
        """
def rbf_gram(X, Y, gamma):
    sq = (X**2).sum(1)[:, None] + (Y**2).sum(1)[None, :] - X @ Y.T  # the 2 of the cross term
    return np.exp(-gamma * np.maximum(sq, 0.0))
""",
        """
def rbf_gram(X, Y, gamma):
    sq = (X**2).sum(1)[:, None] + (Y**2).sum(1)[None, :] - 2 * X @ Y.T
    return np.exp(-gamma * np.sqrt(np.maximum(sq, 0.0)))  # the distance, not its square
""",
        """
def rbf_gram(X, Y, gamma):
    sq = (X**2).sum(1)[:, None] + (Y**2).sum(1)[None, :] - 2 * X @ Y.T
    return np.exp(-np.maximum(sq, 0.0) / gamma)  # gamma divides: a bandwidth, not a rate
""",
        """
def rbf_gram(X, Y, gamma):
    return kernels.rbf_kernel(X, Y, gamma=gamma)  # the forbidden method
""",
    ],
    "kernel-ridge-predict": [
        """
def krr_predict(K_train, y, K_test, lam):
    alpha = np.linalg.lstsq(K_train, y, rcond=None)[0]  # the regularisation lam * I is missing
    return K_test @ alpha
""",
        """
def krr_predict(K_train, y, K_test, lam):
    alpha = np.linalg.solve(K_train + lam, y)  # lam added to every entry, not to the diagonal
    return K_test @ alpha
""",
        """
def krr_predict(K_train, y, K_test, lam):
    n = K_train.shape[0]
    alpha = np.linalg.solve(K_train + lam * n * np.eye(n), y)  # the mean-loss convention
    return K_test @ alpha
""",
    ],
    "centre-gram": [
        """
def centre_gram(K):
    row = K.mean(0)
    return K - row[None, :] - row[:, None] - K.mean()  # the grand mean is subtracted
""",
        """
def centre_gram(K):
    return K - K.mean(0)[None, :]  # the columns are centred, the rows are not
""",
        """
def centre_gram(K):
    return K - K.mean()  # only the grand mean
""",
    ],
    "poly-kernel": [
        """
def poly_kernel(X, Y, degree, c):
    return (X @ Y.T) ** degree + c  # the constant is added outside the power
""",
        """
def poly_kernel(X, Y, degree, c):
    return (X @ Y.T + c) ** (degree - 1)  # one degree short
""",
        """
def poly_kernel(X, Y, degree, c):
    return degree * (X @ Y.T + c)  # times the degree, not to its power
""",
        """
def poly_kernel(X, Y, degree, c):
    return kernels.polynomial_kernel(X, Y, degree=degree, gamma=1.0, coef0=c)  # forbidden
""",
    ],
    "psd-check": [
        """
def is_psd(K, tol):
    return bool(np.linalg.eigvals(K).real.min() >= -tol)  # never checks symmetry; absolute tol
""",
        """
def is_psd(K, tol):
    K = np.asarray(K, dtype=float)
    if not np.allclose(K, K.T):
        return False
    return bool(np.linalg.eigvalsh(K).min() >= -tol)  # absolute: fails on large Gram matrices
""",
        """
def is_psd(K, tol):
    lam = np.linalg.eigvalsh(K)  # reads one triangle only: never sees the asymmetry
    return bool(lam.min() >= -tol * max(1.0, np.abs(lam).max()))
""",
        """
def is_psd(K, tol):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return bool(kernels.check_psd(K, rtol=tol) >= -tol)  # the forbidden method
        except ValueError:
            return False
""",
    ],
    "kernel-distance": [
        """
def feature_distances(K):
    d = np.diag(K)
    return np.sqrt(np.maximum(d[:, None] + d[None, :] - K, 0.0))  # the cross term needs a 2
""",
        """
def feature_distances(K):
    d = np.diag(K)
    return np.sqrt(d[:, None] + d[None, :] - 2.0 * K)  # no clamp: NaN from rounding
""",
        """
def feature_distances(K):
    d = np.diag(K)
    return np.maximum(d[:, None] + d[None, :] - 2.0 * K, 0.0)  # squared distances
""",
    ],
}
