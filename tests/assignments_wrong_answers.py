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

# notebooks/03_online_linear_classifiers.py
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
WRONG_ANSWERS["03_online_linear_classifiers"] = {
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
    "perceptron-bound": [
        """
def mistake_bound(X, y, u):
    R = np.max(np.linalg.norm(X, axis=1))
    gamma = np.min(y * (X @ u))  # the margin of u itself, not of u / ||u||
    return float((R / gamma) ** 2)
""",
        """
def mistake_bound(X, y, u):
    R = np.mean(np.linalg.norm(X, axis=1))  # the mean norm, not the largest
    gamma = np.min(y * (X @ u)) / np.linalg.norm(u)
    return float((R / gamma) ** 2)
""",
        """
def mistake_bound(X, y, u):
    R = np.max(np.linalg.norm(X, axis=1))
    gamma = np.min(y * (X @ u)) / np.linalg.norm(u)
    return float(R / gamma)  # not squared
""",
        """
def mistake_bound(X, y, u):
    return float(online.perceptron_bound(X, y, u))  # the forbidden method
""",
    ],
    "winnow-bound": [
        """
def winnow_mistake_bound(rho, N, eta):
    return float(np.log(N) / (eta * rho - eta**2))  # the 1/2 of the second-order term is lost
""",
        """
def winnow_mistake_bound(rho, N, eta):
    return float(np.log2(N) / (eta * rho - eta**2 / 2))  # log base 2
""",
        """
def winnow_mistake_bound(rho, N, eta):
    return float(np.log(N) / (eta * rho + eta**2 / 2))  # sign of the second-order term
""",
        """
def winnow_mistake_bound(rho, N, eta):
    return float(online.winnow_bound(rho, N, eta))  # the forbidden method
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
}

# notebooks/04_support_vector_machines.py
_SMO = """
def smo_small(K, y, C):
    n = len(y)
    alpha, G = np.zeros(n), -np.ones(n)
    for _ in range(100 * n * n):
        v = -y * G
        up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
        low = ((y < 0) & (alpha < C)) | ((y > 0) & (alpha > 0))
        i = np.flatnonzero(up)[np.argmax(v[up])]
        j = np.flatnonzero(low)[np.argmin(v[low])]
        if v[i] - v[j] < {tol}:
            break
        t = (v[i] - v[j]) / max(K[i, i] + K[j, j] - 2.0 * K[i, j], 1e-12)
        {clip}
        alpha[i] += y[i] * t
        alpha[j] -= y[j] * t
        G += {update}
    return alpha
"""
_CLIP = "t = min(t, C - alpha[i] if y[i] > 0 else alpha[i], alpha[j] if y[j] > 0 else C - alpha[j])"
WRONG_ANSWERS["04_support_vector_machines"] = {
    "svm-bias": [
        """
def svm_bias(alpha, y, K, C):
    free = alpha > 0  # every support vector, the bound ones (alpha = C) included
    return float(np.mean(y[free] - K[free] @ (alpha * y)))
""",
        """
def svm_bias(alpha, y, K, C):
    free = (alpha > 0) & (alpha < C)
    return float(np.mean(K[free] @ (alpha * y) - y[free]))  # sign flipped
""",
        """
def svm_bias(alpha, y, K, C):
    free = (alpha > 0) & (alpha < C)
    return float(np.mean(y[free] - K[free] @ alpha))  # the labels are left out of f
""",
        """
def svm_bias(alpha, y, K, C):
    return float(svm.smo(K, y, C=C, kernel="precomputed", tol=1e-10).b)  # forbidden
""",
    ],
    "hinge-subgradient": [
        """
def hinge_subgradient(w, b, X, y, C):
    V = y * (X @ w + b) < 1
    return -C * (y[V] @ X[V]), -C * float(np.sum(y[V]))  # the gradient w of ||w||^2 / 2 is lost
""",
        """
def hinge_subgradient(w, b, X, y, C):
    V = y * (X @ w + b) < 0  # the perceptron's active set: no margin
    return w - C * (y[V] @ X[V]), -C * float(np.sum(y[V]))
""",
        """
def hinge_subgradient(w, b, X, y, C):
    V = y * (X @ w + b) < 1
    return w - (y[V] @ X[V]), -float(np.sum(y[V]))  # C is lost
""",
        """
def hinge_subgradient(w, b, X, y, C):
    def P(u):
        return svm.hinge_objective(u[:-1], u[-1], X, y, C)
    g = numerical_gradient(P, np.append(w, b))  # the forbidden method
    return g[:-1], float(g[-1])
""",
    ],
    "svm-dual-value": [
        """
def dual_value(alpha, y, K):
    return float(np.sum(alpha) - 0.5 * alpha @ K @ alpha)  # the labels are left out
""",
        """
def dual_value(alpha, y, K):
    v = alpha * y
    return float(np.sum(alpha) - v @ K @ v)  # the 1/2 is lost
""",
        """
def dual_value(alpha, y, K):
    v = alpha * y
    return float(0.5 * v @ K @ v - np.sum(alpha))  # the minimised form, -D
""",
        """
def dual_value(alpha, y, K):
    return float(svm.dual_objective(alpha, y, K))  # the forbidden method
""",
    ],
    "smo-pair-step": [
        """
def pair_step(ai, aj, yi, yj, Gi, Gj, Kii, Kjj, Kij, C):
    t = (-yi * Gi + yj * Gj) / (Kii + Kjj - 2.0 * Kij)
    return min(max(ai + yi * t, 0.0), C), min(max(aj - yj * t, 0.0), C)  # each clipped alone
""",
        """
def pair_step(ai, aj, yi, yj, Gi, Gj, Kii, Kjj, Kij, C):
    t = -yi * Gi + yj * Gj  # the curvature Kii + Kjj - 2 Kij is lost
    lo_i, hi_i = (-ai, C - ai) if yi > 0 else (ai - C, ai)
    lo_j, hi_j = (aj - C, aj) if yj > 0 else (-aj, C - aj)
    t = min(max(t, lo_i, lo_j), hi_i, hi_j)
    return ai + yi * t, aj - yj * t
""",
        """
def pair_step(ai, aj, yi, yj, Gi, Gj, Kii, Kjj, Kij, C):
    t = (yi * Gi - yj * Gj) / (Kii + Kjj - 2.0 * Kij)  # uphill: the sign of t
    lo_i, hi_i = (-ai, C - ai) if yi > 0 else (ai - C, ai)
    lo_j, hi_j = (aj - C, aj) if yj > 0 else (-aj, C - aj)
    t = min(max(t, lo_i, lo_j), hi_i, hi_j)
    return ai + yi * t, aj - yj * t
""",
        """
def pair_step(ai, aj, yi, yj, Gi, Gj, Kii, Kjj, Kij, C):
    return svm.two_variable_step(ai, aj, yi, yj, Gi, Gj, Kii, Kjj, Kij, C)  # forbidden
""",
    ],
    "smo-small": [
        # the labels are missing from the gradient update: Q[:, i] y_i is y * K[:, i]
        _SMO.format(tol="1e-8", clip=_CLIP, update="t * (K[:, i] - K[:, j])"),
        # the step is not clipped to the box: alpha leaves [0, C]
        _SMO.format(tol="1e-8", clip="pass", update="t * y * (K[:, i] - K[:, j])"),
        # stopped far too early: a violation of 0.5 is accepted
        _SMO.format(tol="0.5", clip=_CLIP, update="t * y * (K[:, i] - K[:, j])"),
        """
def smo_small(K, y, C):
    return svm.smo(K, y, C=C, kernel="precomputed", tol=1e-10).alpha  # the forbidden method
""",
    ],
}

# notebooks/05_kernels.py
WRONG_ANSWERS["05_kernels"] = {
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

# notebooks/06_adaboost.py
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
WRONG_ANSWERS["06_adaboost"] = {
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
    "adaboost-alpha": [
        """
def alpha_from_error(eps):
    eps = np.asarray(eps, dtype=float)
    return np.log((1.0 - eps) / eps)  # the factor 1/2 is lost
""",
        """
def alpha_from_error(eps):
    eps = np.asarray(eps, dtype=float)
    return 0.5 * np.log(eps / (1.0 - eps))  # the ratio upside down
""",
        """
def alpha_from_error(eps):
    import math
    return 0.5 * math.log((1.0 - eps) / eps)  # math.log: numbers only, not arrays
""",
        """
def alpha_from_error(eps):
    return np.vectorize(boosting.vote)(eps)  # the forbidden method
""",
    ],
    "adaboost-error-bound": [
        """
def training_error_bound(eps):
    eps = np.asarray(eps, dtype=float)
    return float(np.prod(np.sqrt(eps * (1.0 - eps))))  # the factor 2 per round is lost
""",
        """
def training_error_bound(eps):
    eps = np.asarray(eps, dtype=float)
    return float(np.sum(2.0 * np.sqrt(eps * (1.0 - eps))))  # a sum, not a product
""",
        """
def training_error_bound(eps):
    eps = np.asarray(eps, dtype=float)
    return float(np.exp(-2.0 * np.sum((0.5 - eps) ** 2)))  # the looser bound e^{-2 sum gamma^2}
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
}

# notebooks/07_learning_theory.py
WRONG_ANSWERS["07_learning_theory"] = {
    "exact-binomial-tail": [
        """
import math
def exact_deviation_probability(m, phi, gamma):
    return sum(
        math.comb(m, s) * phi**s * (1 - phi) ** (m - s)
        for s in range(m + 1)
        if s - m * phi > m * gamma  # one tail only: the absolute value is missing
    )
""",
        """
import math
def exact_deviation_probability(m, phi, gamma):
    return sum(
        math.comb(m, s) * phi**s * (1 - phi) ** (m - s)
        for s in range(m)  # s = m is left out
        if abs(s - m * phi) > m * gamma
    )
""",
        """
def exact_deviation_probability(m, phi, gamma):
    return sum(
        phi**s * (1 - phi) ** (m - s)  # the binomial coefficient is missing
        for s in range(m + 1)
        if abs(s - m * phi) > m * gamma
    )
""",
        """
def exact_deviation_probability(m, phi, gamma):
    return float(bounds.binomial_tail(m, phi, gamma))  # the forbidden method
""",
    ],
    "erm-threshold": [
        """
def erm_stump(x, y, thresholds):
    pred = np.where(x[None, :] > thresholds[:, None], 1.0, -1.0)
    err_plus = np.mean(pred != y[None, :], axis=1)
    errors = np.concatenate([err_plus, 1 - err_plus])
    i = int(np.argmin(errors))
    return i % thresholds.size, -1 if i < thresholds.size else 1  # polarities swapped
""",
        """
def erm_stump(x, y, thresholds):
    pred = np.where(x[None, :] > thresholds[:, None], 1.0, -1.0)
    err_plus = np.mean(pred != y[None, :], axis=1)
    errors = np.concatenate([err_plus, 1 - err_plus])
    i = int(np.argmin(errors))
    return i, 1 if i < thresholds.size else -1  # the index into both polarities, not j
""",
        """
def erm_stump(x, y, thresholds):
    pred = np.where(x[None, :] > thresholds[:, None], 1.0, -1.0)
    acc_plus = np.mean(pred == y[None, :], axis=1)  # accuracy where the error belongs
    errors = np.concatenate([acc_plus, 1 - acc_plus])
    i = int(np.argmin(errors))
    return i % thresholds.size, 1 if i < thresholds.size else -1
""",
    ],
    "hoeffding-sample-size": [
        """
def hoeffding_sample_size(gamma, delta):
    return int(np.ceil(np.log(1.0 / delta) / (2.0 * gamma**2)))  # one-sided: the 2 is lost
""",
        """
def hoeffding_sample_size(gamma, delta):
    return int(np.floor(np.log(2.0 / delta) / (2.0 * gamma**2)))  # rounded down: one short
""",
        """
def hoeffding_sample_size(gamma, delta):
    return int(np.ceil(np.log(2.0 / delta) / gamma**2))  # the 2 of 2 gamma^2 is lost
""",
        """
def hoeffding_sample_size(gamma, delta):
    return int(bounds.sample_complexity(1, gamma, delta))  # the forbidden method
""",
    ],
    "uniform-sample-size": [
        """
def uniform_sample_size(k, gamma, delta):
    return int(np.ceil(np.log(2.0 / delta) / (2.0 * gamma**2)))  # the union over k is forgotten
""",
        """
def uniform_sample_size(k, gamma, delta):
    return int(np.floor(np.log(2.0 * k / delta) / (2.0 * gamma**2)))  # rounded down
""",
        """
def uniform_sample_size(k, gamma, delta):
    return int(np.ceil(np.log(k / delta) / (2.0 * gamma**2)))  # one-sided: the 2 is lost
""",
        """
def uniform_sample_size(k, gamma, delta):
    return int(bounds.sample_complexity(k, gamma, delta))  # the forbidden method
""",
    ],
    "monte-carlo-deviation": [
        """
def mc_deviation(m, phi, gamma, n_rep, seed):
    rng = np.random.default_rng(seed)
    phi_hat = rng.binomial(m, phi, size=n_rep) / m
    return float(np.mean(phi_hat - phi > gamma))  # one tail only
""",
        """
import math
def mc_deviation(m, phi, gamma, n_rep, seed):
    return sum(  # the exact tail: no simulation at all
        math.comb(m, s) * phi**s * (1 - phi) ** (m - s)
        for s in range(m + 1)
        if abs(s - m * phi) > m * gamma
    )
""",
        """
def mc_deviation(m, phi, gamma, n_rep, seed):
    rng = np.random.default_rng()  # the seed is ignored: not reproducible
    phi_hat = rng.binomial(m, phi, size=n_rep) / m
    return float(np.mean(np.abs(phi_hat - phi) > gamma))
""",
        """
def mc_deviation(m, phi, gamma, n_rep, seed):
    return float(bounds.binomial_tail(m, phi, gamma))  # the forbidden method
""",
    ],
}
