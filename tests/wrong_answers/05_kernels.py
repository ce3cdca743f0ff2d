"""Plausible wrong answers to the coding questions of notebooks/05_kernels.py (see README.md)."""

WRONG_ANSWERS: dict[str, list[str]] = {
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
    "poly-feature-map": [
        """
def poly_features(X, degree, c):
    # every ordered product of `degree` entries of (sqrt(c), x): right inner products, but
    # (d + 1)^p coordinates, each monomial repeated
    A = np.column_stack([np.full(len(X), np.sqrt(c)), X])
    F = np.ones((len(X), 1))
    for _ in range(degree):
        F = (F[:, :, None] * A[:, None, :]).reshape(len(X), -1)
    return F
""",
        """
def poly_features(X, degree, c):
    from itertools import combinations_with_replacement
    from math import factorial
    d, columns = X.shape[1], []
    for m in range(degree + 1):
        for idx in combinations_with_replacement(range(d), m):
            k = np.bincount(np.array(idx, dtype=int), minlength=d)
            w = factorial(degree) / factorial(degree - m) / np.prod([factorial(int(j)) for j in k])
            columns.append(w * c ** (degree - m) * np.prod(X[:, list(idx)], axis=1))  # no sqrt
    return np.column_stack(columns)
""",
        """
def poly_features(X, degree, c):
    from itertools import combinations_with_replacement
    from math import factorial
    d, columns = X.shape[1], []
    for m in range(degree + 1):
        for idx in combinations_with_replacement(range(d), m):
            k = np.bincount(np.array(idx, dtype=int), minlength=d)
            w = factorial(degree) / factorial(degree - m) / np.prod([factorial(int(j)) for j in k])
            columns.append(np.sqrt(w) * np.prod(X[:, list(idx)], axis=1))  # c's power forgotten
    return np.column_stack(columns)
""",
        """
def poly_features(X, degree, c):
    from itertools import combinations_with_replacement
    from math import factorial
    d, columns = X.shape[1], []
    for idx in combinations_with_replacement(range(d), degree):  # degree p only: c dropped
        k = np.bincount(np.array(idx, dtype=int), minlength=d)
        w = factorial(degree) / np.prod([factorial(int(j)) for j in k])
        columns.append(np.sqrt(w) * np.prod(X[:, list(idx)], axis=1))
    return np.column_stack(columns)
""",
        """
def poly_features(X, degree, c):
    if degree != 2:
        raise ValueError("only degree 2")
    return kernels.poly2_features(X, coef0=c)  # the forbidden method
""",
    ],
    "kernel-centroid-distances": [
        """
def centroid_distances(K, y, K_new, k_new):
    classes = np.unique(y)
    D = np.empty((K_new.shape[0], len(classes)))
    for col, label in enumerate(classes):
        m = y == label
        sq = k_new - K_new[:, m].mean(1) + K[np.ix_(m, m)].mean()  # the cross term needs a 2
        D[:, col] = np.sqrt(np.maximum(sq, 0.0))
    return D
""",
        """
def centroid_distances(K, y, K_new, k_new):
    classes = np.unique(y)
    D = np.empty((K_new.shape[0], len(classes)))
    for col, label in enumerate(classes):
        m = y == label
        sq = k_new - 2 * K_new[:, m].mean(1) + K[np.ix_(m, m)].sum() / m.sum()  # 1/n_c, not 1/n_c^2
        D[:, col] = np.sqrt(np.maximum(sq, 0.0))
    return D
""",
        """
def centroid_distances(K, y, K_new, k_new):
    classes = np.unique(y)
    D = np.empty((K_new.shape[0], len(classes)))
    for col, label in enumerate(classes):
        m = y == label
        D[:, col] = np.maximum(k_new - 2 * K_new[:, m].mean(1) + K[np.ix_(m, m)].mean(), 0.0)
    return D  # squared distances
""",
        """
def centroid_distances(K, y, K_new, k_new):
    classes = np.unique(y)
    D = np.empty((K_new.shape[0], len(classes)))
    for col, label in enumerate(classes):
        m = y == label
        sq = -2 * K_new[:, m].mean(1) + K[np.ix_(m, m)].mean()  # k(z, z) dropped: same argmin
        D[:, col] = np.sqrt(np.maximum(sq, 0.0))
    return D
""",
    ],
    "kernel-ridge-loo": [
        """
def krr_loo_errors(K, y, lams):
    s, V = np.linalg.eigh(K)
    out = []
    for lam in lams:
        fitted = V @ (s / (s + lam) * (V.T @ y))
        out.append(np.mean((y - fitted) ** 2))  # the training error, not leave-one-out
    return np.array(out)
""",
        """
def krr_loo_errors(K, y, lams):
    s, V = np.linalg.eigh(K)
    out = []
    for lam in lams:
        shrink = s / (s + lam)
        r, h = y - V @ (shrink * (V.T @ y)), (V**2) @ shrink
        out.append(np.mean((r / (1 + h)) ** 2))  # 1 + H_ii: the sign
    return np.array(out)
""",
        """
def krr_loo_errors(K, y, lams):
    s, V = np.linalg.eigh(K)
    out = []
    for lam in lams:
        shrink = s / (s + lam)
        r, h = y - V @ (shrink * (V.T @ y)), (V**2) @ shrink
        out.append(np.mean(r**2 / (1 - h)))  # 1 - H_ii not squared
    return np.array(out)
""",
        """
def krr_loo_errors(K, y, lams):
    s, V = np.linalg.eigh(K)
    n, out = len(y), []
    for lam in lams:
        shrink = s / (s + n * lam)  # the mean-loss convention, n lam
        r, h = y - V @ (shrink * (V.T @ y)), (V**2) @ shrink
        out.append(np.mean((r / (1 - h)) ** 2))
    return np.array(out)
""",
    ],
    "kernel-perceptron": [
        """
def kernel_perceptron(K, y, epochs):
    n = len(y)
    alpha = np.zeros(n, dtype=int)
    for _ in range(epochs):
        for i in range(n):
            if y[i] * ((alpha * y) @ K[:, i]) < 0:  # a score of 0 is not a mistake
                alpha[i] += 1
    return alpha
""",
        """
def kernel_perceptron(K, y, epochs):
    n = len(y)
    alpha = np.zeros(n, dtype=int)
    for _ in range(epochs):
        for i in range(n):
            if y[i] * (alpha @ K[:, i]) <= 0:  # the labels y_j left out of the score
                alpha[i] += 1
    return alpha
""",
        """
def kernel_perceptron(K, y, epochs):
    n = len(y)
    alpha = np.zeros(n, dtype=int)
    for _ in range(epochs):
        for i in range(n):
            if y[i] * ((alpha * y) @ K[:, i]) < 1:  # updates on correct points with a small margin
                alpha[i] += 1
    return alpha
""",
        """
def kernel_perceptron(K, y, epochs):
    n = len(y)
    alpha = np.zeros(n, dtype=int)
    for _ in range(epochs):
        for i in range(n):
            if y[i] * ((alpha * y) @ K[:, i]) >= 0:  # updates on the correct predictions
                alpha[i] += 1
    return alpha
""",
        """
def kernel_perceptron(K, y, epochs):
    from mlnotes import online
    s, V = np.linalg.eigh(K)
    fit = online.perceptron(V * np.sqrt(np.maximum(s, 0)), y, n_epochs=epochs)  # forbidden
    return np.bincount(fit.mistake_index, minlength=len(y))
""",
    ],
    "svm-model-selection": [
        """
def select_svm(X, y, train, val, test, Cs, gammas):
    X = np.asarray(X, dtype=float)
    mu, sd = X[train].mean(0), X[train].std(0)
    Z = (X - mu) / np.where(sd > 0, sd, 1.0)
    best = None
    for kernel, C, g in [("linear", C, None) for C in Cs] + [
            ("rbf", C, g) for C in Cs for g in gammas]:
        fit = svm.smo(Z[train], y[train], C=C, kernel=kernel, **({} if g is None else {"gamma": g}))
        err = float(np.mean(fit.predict(Z[test]) != y[test]))  # chosen on the test part
        if best is None or err < best[-1]:
            best = (kernel, C, g, err)
    return best
""",
        """
def select_svm(X, y, train, val, test, Cs, gammas):
    X = np.asarray(X, dtype=float)
    sd = X.std(0)
    Z = (X - X.mean(0)) / np.where(sd > 0, sd, 1.0)  # standardised with all the data
    best = None
    for kernel, C, g in [("linear", C, None) for C in Cs] + [
            ("rbf", C, g) for C in Cs for g in gammas]:
        fit = svm.smo(Z[train], y[train], C=C, kernel=kernel, **({} if g is None else {"gamma": g}))
        err = np.sum(fit.predict(Z[val]) != y[val])
        if best is None or err < best[0]:
            best = (err, (kernel, C, g), float(np.mean(fit.predict(Z[test]) != y[test])))
    return (*best[1], best[2])
""",
        """
def select_svm(X, y, train, val, test, Cs, gammas):
    X = np.asarray(X, dtype=float)
    mu, sd = X[train].mean(0), X[train].std(0)
    Z = (X - mu) / np.where(sd > 0, sd, 1.0)
    best = None
    for kernel, C, g in [("linear", C, None) for C in Cs] + [
            ("rbf", C, g) for C in Cs for g in gammas]:
        fit = svm.smo(Z[train], y[train], C=C, kernel=kernel, **({} if g is None else {"gamma": g}))
        err = np.sum(fit.predict(Z[val]) != y[val])
        if best is None or err < best[0]:
            best = (err, (kernel, C, g), float(np.mean(fit.predict(Z[train]) != y[train])))
    return (*best[1], best[2])  # the training error of the chosen fit
""",
    ],
}
