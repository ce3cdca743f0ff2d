"""Plausible wrong answers to the coding questions of notebooks/01_linear_regression.py (see README.md)."""

WRONG_ANSWERS: dict[str, list[str]] = {
    "ridge-svd": [
        """
def ridge_svd(X, y, lam):
    U, d, Vt = np.linalg.svd(X, full_matrices=False)
    return Vt.T @ (d**2 / (d**2 + lam) * (U.T @ y))  # the shrinkage factor, not 1/d times it
""",
        """
def ridge_svd(X, y, lam):
    d = X.shape[1]
    return np.linalg.solve(X.T @ X + lam * np.eye(d), X.T @ y)  # solves a linear system
""",
        """
def ridge_svd(X, y, lam):
    U, d, Vt = np.linalg.svd(X, full_matrices=False)
    return Vt.T @ (d / (d**2 + lam**2) * (U.T @ y))  # lam squared
""",
        """
def ridge_svd(X, y, lam):
    return linear.ridge(X, y, lam=lam).w  # the forbidden method
""",
    ],
    "lasso-cd": [
        """
def lasso_cd(X, y, lam, n_sweeps=500):
    n, d = X.shape
    w = np.zeros(d)
    r = y.astype(float).copy()
    col_sq = np.sum(X**2, axis=0)
    for _ in range(n_sweeps):
        for j in range(d):
            rho = X[:, j] @ r + col_sq[j] * w[j]
            new = np.sign(rho) * max(abs(rho) - lam, 0.0) / col_sq[j]  # lam, not lam / 2
            r -= X[:, j] * (new - w[j])
            w[j] = new
    return w
""",
        """
def lasso_cd(X, y, lam, n_sweeps=500):
    n, d = X.shape
    w = np.zeros(d)
    r = y.astype(float).copy()
    col_sq = np.sum(X**2, axis=0)
    for _ in range(n_sweeps):
        for j in range(d):
            rho = X[:, j] @ r  # the partial residual: w_j's own part is not added back
            new = np.sign(rho) * max(abs(rho) - lam / 2, 0.0) / col_sq[j]
            r -= X[:, j] * (new - w[j])
            w[j] = new
    return w
""",
        """
def lasso_cd(X, y, lam, n_sweeps=500):
    n, d = X.shape
    w = np.zeros(d)
    r = y.astype(float).copy()
    col_sq = np.sum(X**2, axis=0)
    for _ in range(n_sweeps):
        for j in range(d):
            rho = X[:, j] @ r + col_sq[j] * w[j]
            new = np.sign(rho) * max(abs(rho) - lam / 2, 0.0) / col_sq[j]
            r -= X[:, j] * new  # the old w_j is not given back to the residual
            w[j] = new
    return w
""",
        """
def lasso_cd(X, y, lam, n_sweeps=500):
    return linear.lasso(X, y, lam=lam).w  # the forbidden method
""",
    ],
    "lstsq-qr": [
        """
def lstsq_qr(X, y):
    return np.linalg.solve(X.T @ X, X.T @ y)  # the normal equations: cond(X) squared
""",
        """
def lstsq_qr(X, y):
    Q, R = np.linalg.qr(X)
    return np.linalg.solve(R.T, Q.T @ y)  # R^T instead of R: the wrong triangle
""",
        """
def lstsq_qr(X, y):
    Q, R = np.linalg.qr(X.T @ X)  # QR of the Gram matrix: its condition number is squared
    return np.linalg.solve(R, Q.T @ (X.T @ y))
""",
        """
def lstsq_qr(X, y):
    return linear.least_squares(X, y).w  # the forbidden method
""",
    ],
    "ridge-augmented": [
        """
def ridge_augmented(X, y, lam):
    d = X.shape[1]
    Xa = np.vstack([X, lam * np.eye(d)])  # lam instead of sqrt(lam): penalises lam^2 ||w||^2
    ya = np.concatenate([y, np.zeros(d)])
    return np.linalg.lstsq(Xa, ya, rcond=None)[0]
""",
        """
def ridge_augmented(X, y, lam):
    d = X.shape[1]
    Xa = np.vstack([X, np.sqrt(lam / 2) * np.eye(d)])  # lam / 2: the penalty's factor halved
    ya = np.concatenate([y, np.zeros(d)])
    return np.linalg.lstsq(Xa, ya, rcond=None)[0]
""",
        """
def ridge_augmented(X, y, lam):
    return np.linalg.lstsq(X, y, rcond=None)[0]  # the augmentation is forgotten
""",
        """
def ridge_augmented(X, y, lam):
    return linear.ridge(X, y, lam=lam).w  # the forbidden method
""",
    ],
    "ridge-dof": [
        """
def ridge_dof(X, lam):
    d = np.linalg.svd(X, compute_uv=False)
    return float(np.sum(d / (d + lam)))  # singular values where their squares belong
""",
        """
def ridge_dof(X, lam):
    d2 = np.linalg.svd(X, compute_uv=False) ** 2
    return float(np.sum(lam / (d2 + lam)))  # the complement of each shrinkage factor
""",
        """
def ridge_dof(X, lam):
    d2 = np.linalg.svd(X, compute_uv=False) ** 2
    return float(np.sum(d2 / (d2 + lam)) / len(d2))  # the mean factor, not the sum
""",
        """
def ridge_dof(X, lam):
    return linear.ridge_dof(X, lam)  # the forbidden method
""",
    ],
}
