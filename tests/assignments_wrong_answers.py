"""Plausible wrong answers to every autograded question of the course.

``tests/test_assignments.py`` runs every question's tests (visible and hidden, under several
secrets) on each answer below and requires it to score at most half of the question's points: a
test suite that gives more to one of these would give it to a student's mistake. Each answer is a
slip a student makes (a sign flip, an off-by-one, a missing clamp, intercept or regulariser, a
wrong axis) or the method the question forbids (a withdrawn function, which the tests call under
the question's withdrawal, as the grader's sandbox does), not nonsense. An answer runs in the
notebook's namespace (its imports and the other questions' reference answers), so it may use
``np``, ``mlnotes`` modules and the chapter's helpers.

Layout: chapter (the notebook's file stem) -> question (the ``name`` in the ``# QUESTION`` line
of its tests cell) -> a list of at least three sources, each defining the wrong function. When a
chapter adds a coding question, add its wrong answers in the chapter's entry.
"""

WRONG_ANSWERS: dict[str, dict[str, list[str]]] = {}

# tests/fixtures/99_fixture.py, the pipeline's own fixture chapter
WRONG_ANSWERS["99_fixture"] = {
    "fixture-hinge-loss": [
        """
def hinge_loss(M):
    return np.maximum(0.0, 1.0 + np.asarray(M, dtype=float))  # sign of the margin flipped
""",
        """
def hinge_loss(M):
    return 1.0 - np.asarray(M, dtype=float)  # the clamp at 0 is missing
""",
        """
def hinge_loss(M):
    return np.maximum(0.0, -np.asarray(M, dtype=float))  # the perceptron loss: no margin of 1
""",
    ],
    "fixture-rbf-gram": [
        """
def rbf_gram(X, gamma):
    sq = np.sum(X**2, axis=1)
    return np.exp(-gamma * (sq[:, None] + sq[None, :]))  # the cross term -2 x_i^T x_i' is missing
""",
        """
def rbf_gram(X, gamma):
    sq = np.sum(X**2, axis=1)
    return np.exp(gamma * (sq[:, None] + sq[None, :] - 2.0 * X @ X.T))  # sign of gamma flipped
""",
        """
def rbf_gram(X, gamma):
    sq = np.sum(X**2, axis=1)
    D2 = np.maximum(sq[:, None] + sq[None, :] - 2.0 * X @ X.T, 0.0)
    return np.exp(-gamma * np.sqrt(D2))  # the distance where its square belongs
""",
    ],
}

# notebooks/00_notation.py
WRONG_ANSWERS["00_notation"] = {
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

# notebooks/01_linear_regression.py
WRONG_ANSWERS["01_linear_regression"] = {
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
            w[j] = np.sign(rho) * max(abs(rho) - lam / 2, 0.0) / col_sq[j]
        # the residual is brought up to date once per sweep: Jacobi, not coordinate descent
        r = y - X @ w
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

# notebooks/02_logistic_regression.py
WRONG_ANSWERS["02_logistic_regression"] = {
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
