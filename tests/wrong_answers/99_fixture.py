"""Plausible wrong answers to the coding questions of tests/fixtures/99_fixture.py (see README.md)."""

WRONG_ANSWERS: dict[str, list[str]] = {
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
