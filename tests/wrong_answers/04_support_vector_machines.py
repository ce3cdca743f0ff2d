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
