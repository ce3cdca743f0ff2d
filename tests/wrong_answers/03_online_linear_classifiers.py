"""Plausible wrong answers to the coding questions of notebooks/03_online_linear_classifiers.py (see README.md)."""

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
WRONG_ANSWERS: dict[str, list[str]] = {
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
