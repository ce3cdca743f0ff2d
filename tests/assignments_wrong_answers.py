"""One deliberately wrong answer per autograded question of the course.

``tests/test_assignments.py`` runs every question's tests (visible and hidden) on the answer below
and requires at least one to fail: a test suite that accepts these would accept a student's
mistake. Each answer is the plausible slip a student makes (a sign flip, a missing term, a wrong
axis), not nonsense. The answer is executed in the notebook's namespace (its imports and the
other questions' reference answers), so it may use ``np``, ``mlnotes`` modules and the chapter's
helpers.

Layout: chapter (the notebook's file stem) -> question (the ``name:`` of its ``# BEGIN QUESTION``
cell) -> source of the wrong function. When a chapter adds a coding question, add its wrong
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
}
