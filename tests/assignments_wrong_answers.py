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
