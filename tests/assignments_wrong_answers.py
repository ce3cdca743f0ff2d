"""One deliberately wrong answer per autograded question of the course.

``tests/test_assignments.py`` runs every question's tests (visible and hidden) on the answer below
and requires at least one to fail: a test suite that accepts these would accept a student's
mistake. Each answer is the plausible slip a student makes (a sign flip, a missing term, a wrong
axis), not nonsense. The answer is executed in the notebook's namespace (its imports and the
other questions' reference answers), so it may use ``np``, ``mlnotes`` modules and the chapter's
helpers.

Layout: chapter (the notebook's file stem) -> question (the ``name`` in the ``# QUESTION`` line
of its tests cell) -> source of the wrong function. When a chapter adds a coding question, add its wrong
answer in the chapter's entry.
"""

WRONG_ANSWERS: dict[str, dict[str, str]] = {}

# tests/fixtures/99_fixture.py, the pipeline's own fixture chapter
WRONG_ANSWERS["99_fixture"] = {
    "fixture-hinge-loss": '''
def hinge_loss(M):
    return np.maximum(0.0, 1.0 + np.asarray(M, dtype=float))  # sign of the margin flipped
''',
    "fixture-rbf-gram": '''
def rbf_gram(X, gamma):
    sq = np.sum(X**2, axis=1)
    return np.exp(-gamma * (sq[:, None] + sq[None, :]))  # the cross term -2 x_i^T x_i' is missing
''',
}

# notebooks/00_notation.py
WRONG_ANSWERS["00_notation"] = {
    "logsumexp": '''
def stable_logsumexp(z):
    z = np.asarray(z, dtype=float)
    m = np.max(z)
    return np.log(np.sum(np.exp(z - m)))  # the shift m is never added back
''',
    "rss-gradient": '''
def rss_gradient(X, y, w):
    return 2 * X.T @ (y - X @ w)  # sign flipped: the ascent direction of the residual
''',
    "softmax-rows": '''
def softmax_rows(A):
    E = np.exp(A - np.max(A))  # one maximum for the whole matrix: rows far below it underflow
    return E / np.sum(E, axis=1, keepdims=True)
''',
    "log-sigmoid": '''
def log_sigmoid(a):
    a = np.asarray(a, dtype=float)
    return -np.log(1.0 + np.exp(-a))  # -inf for large negative a, 0 for large positive a
''',
    "quadratic-gradient": '''
def quadratic_gradient(A, b, x):
    return A @ x - b  # right for symmetric A only
''',
}

# notebooks/01_linear_regression.py
WRONG_ANSWERS["01_linear_regression"] = {
    "ridge-svd": '''
def ridge_svd(X, y, lam):
    U, d, Vt = np.linalg.svd(X, full_matrices=False)
    return Vt.T @ (d**2 / (d**2 + lam) * (U.T @ y))  # the shrinkage factor of the fit, not 1/d times it
''',
    "lasso-cd": '''
def lasso_cd(X, y, lam, n_sweeps=500):
    n, d = X.shape
    w = np.zeros(d)
    r = y.astype(float).copy()
    col_sq = np.sum(X**2, axis=0)
    for _ in range(n_sweeps):
        for j in range(d):
            rho = X[:, j] @ r + col_sq[j] * w[j]
            new = np.sign(rho) * max(abs(rho) - lam, 0.0) / col_sq[j]  # threshold lam instead of lam/2
            r -= X[:, j] * (new - w[j])
            w[j] = new
    return w
''',
    "lstsq-qr": '''
def lstsq_qr(X, y):
    Q, R = np.linalg.qr(X)
    return np.linalg.solve(R.T, Q.T @ y)  # R^T instead of R: the wrong triangle
''',
    "ridge-augmented": '''
def ridge_augmented(X, y, lam):
    d = X.shape[1]
    Xa = np.vstack([X, lam * np.eye(d)])  # lam instead of sqrt(lam): penalises lam^2 ||w||^2
    ya = np.concatenate([y, np.zeros(d)])
    return np.linalg.lstsq(Xa, ya, rcond=None)[0]
''',
    "ridge-dof": '''
def ridge_dof(X, lam):
    d = np.linalg.svd(X, compute_uv=False)
    return float(np.sum(d / (d + lam)))  # singular values where their squares belong
''',
}

# notebooks/02_logistic_regression.py
WRONG_ANSWERS["02_logistic_regression"] = {
    "logistic-gradient": '''
def loglik_gradient(X, y, w):
    return X.T @ (lg.sigmoid(X @ w) - y)  # sign flipped: the gradient of the negative log-likelihood
''',
    "irls-step": '''
def irls_step(X, y, w):
    g = lg.sigmoid(X @ w)
    r = g * (1 - g)
    z = X @ w + (y - g) / r
    s = np.sqrt(r)
    return np.linalg.lstsq(s[:, None] * X, z, rcond=None)[0]  # z is not scaled by sqrt(R_ii)
''',
    "logistic-loglik": '''
def log_likelihood(w, X, y):
    a = X @ w
    return float(np.sum(y * a - np.log(1.0 + np.exp(a))))  # overflows for large scores
''',
    "logistic-hessian": '''
def loglik_hessian(X, w):
    g = lg.sigmoid(X @ w)
    return -(X.T * g) @ X  # g instead of g (1 - g)
''',
    "irls-full": '''
def irls(X, y, n_iter):
    w = np.zeros(X.shape[1])
    for _ in range(n_iter):
        g = lg.sigmoid(X @ w)
        r = g * (1.0 - g)
        z = X @ w + (y - g) / r
        w = np.linalg.lstsq(X * r[:, None], z * r, rcond=None)[0]  # rows scaled by R, not sqrt(R)
    return w
''',
}

# notebooks/03_online_linear_classifiers.py
WRONG_ANSWERS["03_online_linear_classifiers"] = {
    "perceptron-epochs": '''
def my_perceptron(X, y, max_epochs=100):
    w = np.zeros(X.shape[1])
    n_mistakes = 0
    for _ in range(max_epochs):
        clean = True
        for x_i, y_i in zip(X, y, strict=True):
            if y_i * (w @ x_i) < 0:  # a zero margin is not counted as a mistake: w = 0 never moves
                w = w + y_i * x_i
                n_mistakes += 1
                clean = False
        if clean:
            break
    return w, n_mistakes
''',
    "svm-subgradient": '''
def svm_subgradient(X, y, w, lam):
    M = y * (X @ w)
    return -(X.T @ (y * (M <= 1))) + lam * w  # the 1/n of the average hinge loss is missing
''',
    "perceptron-bound": '''
def mistake_bound(X, y, u):
    R = np.max(np.linalg.norm(X, axis=1))
    gamma = np.min(y * (X @ u))  # the margin of u itself, not of u / ||u||
    return float((R / gamma) ** 2)
''',
    "winnow-bound": '''
def winnow_mistake_bound(rho, N, eta):
    return float(np.log(N) / (eta * rho - eta**2))  # the 1/2 of the second-order term is lost
''',
    "winnow-run": '''
def my_winnow(X, y, eta, max_epochs):
    w = np.full(X.shape[1], 1.0 / X.shape[1])
    mistakes = 0
    for _ in range(max_epochs):
        clean = True
        for x, label in zip(X, y):
            if label * (w @ x) <= 0:
                w = w * np.exp(eta * x)  # the label is missing from the exponent
                w /= w.sum()
                mistakes += 1
                clean = False
        if clean:
            break
    return w, mistakes
''',
}

# notebooks/04_support_vector_machines.py
WRONG_ANSWERS["04_support_vector_machines"] = {
    "svm-bias": '''
def svm_bias(alpha, y, K, C):
    free = alpha > 0  # every support vector, the bound ones (alpha = C) included
    return float(np.mean(y[free] - K[free] @ (alpha * y)))
''',
    "hinge-subgradient": '''
def hinge_subgradient(w, b, X, y, C):
    V = y * (X @ w + b) < 1
    return -C * (y[V] @ X[V]), -C * float(np.sum(y[V]))  # the gradient w of (1/2)||w||^2 is missing
''',
    "svm-dual-value": '''
def dual_value(alpha, y, K):
    return float(np.sum(alpha) - 0.5 * alpha @ K @ alpha)  # the labels are left out of the quadratic term
''',
    "smo-pair-step": '''
def pair_step(ai, aj, yi, yj, Gi, Gj, Kii, Kjj, Kij, C):
    t = (-yi * Gi + yj * Gj) / (Kii + Kjj - 2.0 * Kij)
    return min(max(ai + yi * t, 0.0), C), min(max(aj - yj * t, 0.0), C)  # each clipped alone: off the line
''',
    "smo-small": '''
def smo_small(K, y, C):
    n = len(y)
    alpha, G = np.zeros(n), -np.ones(n)
    for _ in range(100 * n * n):
        v = -y * G
        up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
        low = ((y < 0) & (alpha < C)) | ((y > 0) & (alpha > 0))
        i = np.flatnonzero(up)[np.argmax(v[up])]
        j = np.flatnonzero(low)[np.argmin(v[low])]
        if v[i] - v[j] < 1e-8:
            break
        t = (v[i] - v[j]) / max(K[i, i] + K[j, j] - 2.0 * K[i, j], 1e-12)
        t = min(t, C - alpha[i] if y[i] > 0 else alpha[i], alpha[j] if y[j] > 0 else C - alpha[j])
        alpha[i] += y[i] * t
        alpha[j] -= y[j] * t
        G += t * (K[:, i] - K[:, j])  # the labels are missing: Q[:, i] y_i is y * K[:, i]
    return alpha
''',
}

# notebooks/05_kernels.py
WRONG_ANSWERS["05_kernels"] = {
    "rbf-gram": '''
def rbf_gram(X, Y, gamma):
    sq = (X**2).sum(1)[:, None] + (Y**2).sum(1)[None, :] - X @ Y.T  # the factor 2 of the cross term is missing
    return np.exp(-gamma * np.maximum(sq, 0.0))
''',
    "kernel-ridge-predict": '''
def krr_predict(K_train, y, K_test, lam):
    alpha = np.linalg.lstsq(K_train, y, rcond=None)[0]  # the regularisation lam * I is missing
    return K_test @ alpha
''',
    "centre-gram": '''
def centre_gram(K):
    row = K.mean(0)
    return K - row[None, :] - row[:, None] - K.mean()  # the grand mean is subtracted, not added back
''',
    "poly-kernel": '''
def poly_kernel(X, Y, degree, c):
    return (X @ Y.T) ** degree + c  # the constant is added outside the power
''',
    "psd-check": '''
def is_psd(K, tol):
    return bool(np.linalg.eigvals(K).real.min() >= -tol)  # symmetry never checked, absolute tolerance
''',
    "kernel-distance": '''
def feature_distances(K):
    d = np.diag(K)
    return np.sqrt(np.maximum(d[:, None] + d[None, :] - K, 0.0))  # the cross term needs a 2
''',
}

# notebooks/06_adaboost.py
WRONG_ANSWERS["06_adaboost"] = {
    "adaboost-round": '''
def adaboost_round(D, y, h):
    eps = D[h != y].sum()
    alpha = np.log((1 - eps) / eps)  # the factor 1/2 of alpha_t is missing
    w = D * np.exp(-alpha * y * h)
    return eps, alpha, w.sum(), w / w.sum()
''',
    "stump-one-feature": '''
def best_threshold(x, y, D):
    D = D / D.sum()
    order = np.argsort(x, kind="stable")
    yD = (y * D)[order]
    left = np.concatenate([[0.0], np.cumsum(yD)])
    corr = yD.sum() - 2 * left  # splits between repeated values of x are allowed
    return 0.5 - 0.5 * np.abs(corr).max()
''',
    "adaboost-alpha": '''
def alpha_from_error(eps):
    eps = np.asarray(eps, dtype=float)
    return np.log((1.0 - eps) / eps)  # the factor 1/2 is lost
''',
    "adaboost-error-bound": '''
def training_error_bound(eps):
    eps = np.asarray(eps, dtype=float)
    return float(np.prod(np.sqrt(eps * (1.0 - eps))))  # the factor 2 per round is lost
''',
    "adaboost-loop": '''
def adaboost_loop(X, y, n_rounds):
    D = np.full(len(y), 1.0 / len(y))
    alphas, F = [], np.zeros(len(y))
    for _ in range(n_rounds):
        h = boosting.best_stump(X, y, D).predict(X)
        eps = np.sum(D[h != y])
        alpha = 0.5 * np.log((1.0 - eps) / eps)
        D = D * np.exp(-alpha * y * h)  # never normalised: eps is no longer a weighted error
        alphas.append(alpha)
        F += alpha * h
    return np.array(alphas), F
''',
}

# notebooks/07_learning_theory.py
WRONG_ANSWERS["07_learning_theory"] = {
    "exact-binomial-tail": '''
import math
def exact_deviation_probability(m, phi, gamma):
    return sum(
        math.comb(m, s) * phi**s * (1 - phi) ** (m - s)
        for s in range(m + 1)
        if s - m * phi > m * gamma  # one tail only: the absolute value is missing
    )
''',
    "erm-threshold": '''
def erm_stump(x, y, thresholds):
    pred = np.where(x[None, :] > thresholds[:, None], 1.0, -1.0)
    err_plus = np.mean(pred != y[None, :], axis=1)
    errors = np.concatenate([err_plus, 1 - err_plus])
    i = int(np.argmin(errors))
    return i % thresholds.size, -1 if i < thresholds.size else 1  # polarities swapped
''',
    "hoeffding-sample-size": '''
def hoeffding_sample_size(gamma, delta):
    return int(np.ceil(np.log(1.0 / delta) / (2.0 * gamma**2)))  # one-sided: the factor 2 is lost
''',
    "uniform-sample-size": '''
def uniform_sample_size(k, gamma, delta):
    return int(np.ceil(np.log(2.0 / delta) / (2.0 * gamma**2)))  # the union over k hypotheses is forgotten
''',
    "monte-carlo-deviation": '''
def mc_deviation(m, phi, gamma, n_rep, seed):
    rng = np.random.default_rng(seed)
    phi_hat = rng.binomial(m, phi, size=n_rep) / m
    return float(np.mean(phi_hat - phi > gamma))  # one tail only
''',
}
