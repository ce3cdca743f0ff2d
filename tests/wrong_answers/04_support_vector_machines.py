"""Plausible wrong answers to the coding questions of notebooks/04_support_vector_machines.py (see README.md)."""

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
_PEGASOS = """
def pegasos_loop(X, y, lam, idx):
    T = len(idx)
    w, w_sum = np.zeros(X.shape[1]), np.zeros(X.shape[1])
    for t, i in enumerate(idx, start=1):
        eta = {eta}
        inside = y[i] * (X[i] @ w) < 1.0
        w = ({shrink}) * w
        if inside:
            w = w {sign} eta * y[i] * X[i]
        {avg}
    return w_sum / (T - T // 2) if w_sum is not w else w
"""
_HALF = "w_sum += w if 2 * t > T else 0.0"
_VALIDATION = """
def validate_c(X, y, train, val, test, Cs):
    # {note}
    val_errors, fits = [], []
    for C in Cs:
        fit = {fit}
        rows = val
        val_errors.append({err})
        fits.append(fit)
    best = int({pick}(val_errors))
    fit, rows = fits[best], test
    return np.array(val_errors, dtype=float), float(Cs[best]), float({err})
"""
WRONG_ANSWERS: dict[str, list[str]] = {
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
    "duality-gap": [
        """
def primal_dual_values(alpha, y, K, C):
    v = alpha * y
    f0 = K @ v
    G = y * f0 - 1.0
    b = svm.bias_from_gradient(alpha, y, G, C)  # the KKT bias: right only at the optimum
    P = 0.5 * v @ f0 + C * np.maximum(0.0, 1.0 - y * (f0 + b)).sum()
    return float(P), float(np.sum(alpha) - 0.5 * v @ f0)
""",
        """
def primal_dual_values(alpha, y, K, C):
    v = alpha * y
    half_w2 = 0.5 * v @ (K @ v)
    return float(half_w2), float(np.sum(alpha) - half_w2)  # the slacks are missing from P
""",
        """
def primal_dual_values(alpha, y, K, C):
    v = alpha * y
    f0 = K @ v
    P = 0.5 * v @ f0 + C * np.maximum(0.0, 1.0 - y * f0).sum()  # b = 0: no intercept
    return float(P), float(np.sum(alpha) - 0.5 * v @ f0)
""",
        """
def primal_dual_values(alpha, y, K, C):
    v = alpha * y
    f0 = K @ v
    bs = np.linspace(-5.0, 5.0, 201)  # a grid of b instead of the kinks
    slack = np.maximum(0.0, 1.0 - y[:, None] * (f0[:, None] + bs[None, :])).sum(axis=0)
    return float(0.5 * v @ f0 + C * slack.min()), float(np.sum(alpha) - 0.5 * v @ f0)
""",
        """
def primal_dual_values(alpha, y, K, C):
    fit = svm.smo(K, y, C=C, kernel="precomputed", tol=1e-10)  # the optimum's values
    D = float(svm.dual_objective(alpha, y, K))
    return float(svm.primal_objective(fit.alpha, fit.b, y, K, C)), D  # forbidden
""",
    ],
    "kkt-violation": [
        """
def max_violation(alpha, y, K, C):
    v = -y * (K @ alpha - 1.0)  # the labels are missing from G = Q alpha - 1
    up = np.where(y > 0, alpha < C, alpha > 0)
    low = np.where(y > 0, alpha > 0, alpha < C)
    if not (up.any() and low.any()):
        return 0.0
    return max(0.0, float(v[up].max() - v[low].min()))
""",
        """
def max_violation(alpha, y, K, C):
    v = y - K @ (alpha * y)
    return max(0.0, float(v.max() - v.min()))  # the box is ignored: every t in both sets
""",
        """
def max_violation(alpha, y, K, C):
    v = y - K @ (alpha * y)
    up = np.where(y > 0, alpha > 0, alpha < C)  # I_up and I_low swapped
    low = np.where(y > 0, alpha < C, alpha > 0)
    if not (up.any() and low.any()):
        return 0.0
    return max(0.0, float(v[up].max() - v[low].min()))
""",
        """
def max_violation(alpha, y, K, C):
    return svm.kkt_violation(alpha, y, K, C)  # the forbidden method
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
    "pegasos-loop": [
        # the step 1/t, without lam
        _PEGASOS.format(eta="1.0 / t", shrink="1.0 - eta * lam", sign="+", avg=_HALF),
        _PEGASOS.format(eta="1.0 / (lam * t)", shrink="1.0 - eta * lam", sign="+",
                        avg="w_sum = w  # no average: the last iterate"),
        # the regulariser is dropped from the update
        _PEGASOS.format(eta="1.0 / (lam * t)", shrink="1.0", sign="+", avg=_HALF),
        # the sign of the hinge's subgradient flipped
        _PEGASOS.format(eta="1.0 / (lam * t)", shrink="1.0 - eta * lam", sign="-", avg=_HALF),
        """
def pegasos_loop(X, y, lam, idx):
    fit = svm.pegasos(X, y, C=1 / (lam * len(y)), n_epochs=10, fit_intercept=False)
    return fit.w  # the forbidden method
""",
    ],
    "svm-validation-c": [
        _VALIDATION.format(
            fit="svm.smo(X[train], y[train], C=C, kernel='linear')",
            err="np.mean(np.where(X[rows] @ fit.coef > 0, 1.0, -1.0) != y[rows])",
            pick="np.argmin", note="the bias b is left out of the predictions"),
        _VALIDATION.format(
            fit="svm.smo(X[train], y[train], C=C, kernel='linear')",
            err="np.sum(fit.predict(X[rows]) != y[rows])",
            pick="np.argmin", note="numbers of errors, not error rates"),
        _VALIDATION.format(
            fit="svm.smo(X[train], y[train], C=C, kernel='linear')",
            err="np.mean(fit.predict(X[rows]) != y[rows])",
            pick="np.argmax", note="the C of the largest validation error"),
        _VALIDATION.format(
            fit="svm.smo(X[np.r_[train, val]], y[np.r_[train, val]], C=C, kernel='linear')",
            err="np.mean(fit.predict(X[rows]) != y[rows])",
            pick="np.argmin", note="the validation rows leak into the training set"),
    ],
}
