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
    "ridge-intercept": [
        """
def ridge_intercept(X, y, lam):
    A = np.column_stack([np.ones(len(X)), X])  # a column of ones: ridge penalises b too
    v = np.linalg.solve(A.T @ A + lam * np.eye(A.shape[1]), A.T @ y)
    return v[1:], float(v[0])
""",
        """
def ridge_intercept(X, y, lam):
    Xc = X - X.mean(axis=0)
    w = np.linalg.solve(Xc.T @ Xc + lam * np.eye(X.shape[1]), Xc.T @ (y - y.mean()))
    return w, float(y.mean())  # b = mean(y): the mean(X)^T w part is forgotten
""",
        """
def ridge_intercept(X, y, lam):
    w = np.linalg.solve(X.T @ X + lam * np.eye(X.shape[1]), X.T @ y)  # X not centred
    return w, float(y.mean() - X.mean(axis=0) @ w)
""",
        """
def ridge_intercept(X, y, lam):
    w = np.linalg.solve(X.T @ X + lam * np.eye(X.shape[1]), X.T @ (y - y.mean()))
    return w, float(y.mean())  # y centred, X not
""",
        """
def ridge_intercept(X, y, lam):
    fit = linear.ridge(X, y, lam=lam, fit_intercept=True)  # the forbidden method
    return fit.w, float(fit.b)
""",
    ],
    "ridge-lambda-for-dof": [
        """
def ridge_lambda_for_dof(X, target):
    s = np.linalg.svd(X, compute_uv=False)
    s = s[s > 1e-12 * s[0]]
    lam = 0.0
    for _ in range(500):  # Newton on sum s / (s + lam): singular values, not their squares
        step = (np.sum(s / (s + lam)) - target) / np.sum(s / (s + lam) ** 2)
        lam += step
        if abs(step) <= 1e-13 * lam:
            break
    return float(lam)
""",
        """
def ridge_lambda_for_dof(X, target):
    Xc = X - X.mean(axis=0)  # centred, as the chapter's figure does: not df of X itself
    d2 = np.linalg.svd(Xc, compute_uv=False) ** 2
    d2 = d2[d2 > 1e-24 * d2[0]]
    lo, hi = 1e-12 * d2[0], 1e12 * d2[0]
    for _ in range(200):
        mid = np.sqrt(lo * hi)
        lo, hi = (mid, hi) if np.sum(d2 / (d2 + mid)) > target else (lo, mid)
    return float(np.sqrt(lo * hi))
""",
        """
def ridge_lambda_for_dof(X, target):
    d2 = np.linalg.svd(X, compute_uv=False) ** 2
    lo, hi = 0.0, 1e4  # bisection on a fixed bracket, in lam itself, 40 halvings
    for _ in range(40):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if np.sum(d2 / (d2 + mid)) > target else (lo, mid)
    return float((lo + hi) / 2)
""",
        """
def ridge_lambda_for_dof(X, target):
    d2 = np.linalg.svd(X, compute_uv=False) ** 2
    d2 = d2[d2 > 1e-24 * d2[0]]
    lam = 1.0
    while abs(np.sum(d2 / (d2 + lam)) - target) > 1e-3:  # stops three digits short
        df = np.sum(d2 / (d2 + lam))
        lam -= (df - target) / -np.sum(d2 / (d2 + lam) ** 2)
        lam = max(lam, 1e-300)
    return float(lam)
""",
        """
def ridge_lambda_for_dof(X, target):
    lo, hi = 1e-12, 1e12
    for _ in range(200):  # bisection on the forbidden method
        mid = np.sqrt(lo * hi)
        lo, hi = (mid, hi) if linear.ridge_dof(X, mid) > target else (lo, mid)
    return float(mid)
""",
    ],
    "ridge-cv": [
        """
def ridge_cv(X, y, lams, folds):
    folds = np.asarray(folds)
    mu, sd = X.mean(axis=0), X.std(axis=0, ddof=1)  # standardised on all rows: a leak
    Z = (X - mu) / sd
    sq = np.zeros(len(lams))
    for k in np.unique(folds):
        tr, va = folds != k, folds == k
        for m, lam in enumerate(lams):
            fit = linear.ridge(Z[tr], y[tr], lam=lam, fit_intercept=True)
            sq[m] += np.sum((y[va] - fit.predict(Z[va])) ** 2)
    cv = sq / len(y)
    return cv, float(lams[int(np.argmin(cv))])
""",
        """
def ridge_cv(X, y, lams, folds):
    folds = np.asarray(folds)
    sq = np.zeros(len(lams))
    for k in np.unique(folds):
        va = folds == k
        mu, sd = X.mean(axis=0), X.std(axis=0, ddof=1)
        for m, lam in enumerate(lams):  # fitted on all rows: the validation fold leaks
            fit = linear.ridge((X - mu) / sd, y, lam=lam, fit_intercept=True)
            sq[m] += np.sum((y[va] - fit.predict((X[va] - mu) / sd)) ** 2)
    cv = sq / len(y)
    return cv, float(lams[int(np.argmin(cv))])
""",
        """
def ridge_cv(X, y, lams, folds):
    folds = np.asarray(folds)
    sq = np.zeros(len(lams))
    for k in np.unique(folds):
        tr = folds != k
        mu, sd = X[tr].mean(axis=0), X[tr].std(axis=0, ddof=1)
        for m, lam in enumerate(lams):  # validated on the training rows themselves
            fit = linear.ridge((X[tr] - mu) / sd, y[tr], lam=lam, fit_intercept=True)
            sq[m] += np.mean((y[tr] - fit.predict((X[tr] - mu) / sd)) ** 2)
    cv = sq / len(np.unique(folds))
    return cv, float(lams[int(np.argmin(cv))])
""",
        """
def ridge_cv(X, y, lams, folds):
    folds = np.asarray(folds)
    sq = np.zeros(len(lams))
    for k in np.unique(folds):
        tr, va = folds != k, folds == k
        mu, sd = X[tr].mean(axis=0), X[tr].std(axis=0, ddof=1)
        for m, lam in enumerate(lams):  # no intercept: y's mean is shrunk with w
            fit = linear.ridge((X[tr] - mu) / sd, y[tr], lam=lam)
            sq[m] += np.sum((y[va] - fit.predict((X[va] - mu) / sd)) ** 2)
    cv = sq / len(y)
    return cv, float(lams[int(np.argmin(cv))])
""",
        """
def ridge_cv(X, y, lams, folds):
    folds = np.asarray(folds)
    per_fold = []
    for k in np.unique(folds):
        tr, va = folds != k, folds == k
        mu, sd = X[tr].mean(axis=0), X[tr].std(axis=0, ddof=1)
        errs = []
        for lam in lams:
            fit = linear.ridge((X[tr] - mu) / sd, y[tr], lam=lam, fit_intercept=True)
            errs.append(np.mean((y[va] - fit.predict((X[va] - mu) / sd)) ** 2))
        per_fold.append(errs)
    cv = np.mean(per_fold, axis=0)  # the mean of the per-fold means: not pooled
    return cv, float(lams[int(np.argmin(cv))])
""",
        """
def ridge_cv(X, y, lams, folds):
    folds = np.asarray(folds)
    sq = np.zeros(len(lams))
    for k in np.unique(folds):
        tr, va = folds != k, folds == k
        for m, lam in enumerate(lams):  # not standardised: lam acts on the raw units
            fit = linear.ridge(X[tr], y[tr], lam=lam, fit_intercept=True)
            sq[m] += np.sum((y[va] - fit.predict(X[va])) ** 2)
    cv = sq / len(y)
    return cv, float(lams[int(np.argmin(cv))])
""",
        """
def ridge_cv(X, y, lams, folds):
    K = len(np.unique(folds))
    cv, _ = linear.cross_validate(X, y, lams, n_folds=K)  # the forbidden method
    return cv, float(lams[int(np.argmin(cv))])
""",
    ],
}
