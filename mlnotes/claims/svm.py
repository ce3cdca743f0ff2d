r"""Claims of Chapter 4, "Support vector machines": margins, Lagrange duality, KKT, the
SVM dual and its solvers, each checked on random instances (and, for the solvers,
against independent optimisers from scipy)."""

from __future__ import annotations

import numpy as np

from mlnotes import kernels, svm
from mlnotes.check import numerical_gradient, rel_error
from mlnotes.claims import Erratum, claim

CH = "04_support_vector_machines"


# -- random instances ------------------------------------------------------------------


def _separable(rng, n: int, d: int, gap: float = 0.3):
    """n points in d dimensions, labelled by a random
    hyperplane, none closer than ``gap``."""
    w, b = rng.standard_normal(d), rng.standard_normal() * 0.5
    X = np.empty((0, d))
    while X.shape[0] < n:
        Z = 2.0 * rng.standard_normal((2 * n, d))
        s = (Z @ w + b) / np.linalg.norm(w)
        X = np.vstack([X, Z[np.abs(s) > gap]])
    X = X[:n]
    y = np.where(X @ w + b > 0, 1.0, -1.0)
    if np.unique(y).size < 2:
        y[0] = -y[0]
        X[0] = X[0] - 2 * ((X[0] @ w + b) / (w @ w)) * w  # reflect it across the plane
    return X, y


def _overlapping(rng, n: int, d: int):
    """Two Gaussian clouds whose means are 1.5 apart: not
    separable, some points misclassified."""
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    y[:2] = (1.0, -1.0)
    mu = rng.standard_normal(d)
    mu *= 0.75 / np.linalg.norm(mu)
    X = rng.standard_normal((n, d)) + y[:, None] * mu
    return X, y


def _qp(rng):
    r"""A random strictly convex QP :math:`\min \tfrac12 x^\top P x + q^\top x` s.t.
    :math:`Ax \le c`, with a strictly feasible point (Slater's condition) and,
    typically, some active constraints."""
    d, m = int(rng.integers(2, 6)), int(rng.integers(2, 8))
    B = rng.standard_normal((d, d))
    P = B @ B.T + 0.5 * np.eye(d)
    q = 3.0 * rng.standard_normal(d)
    A = rng.standard_normal((m, d))
    x0 = rng.standard_normal(d)
    c = A @ x0 + rng.uniform(0.1, 1.0, m)  # x0 is strictly feasible
    return P, q, A, c, x0


def _qp_dual_function(P, q, A, c, mu):
    r""":math:`\theta(\mu) = \min_x L(x, \mu) = -\tfrac12 (q + A^\top\mu)^\top P^{-1} (q
    + A^\top\mu) - c^\top \mu`."""
    r = q + A.T @ mu
    return -0.5 * r @ np.linalg.solve(P, r) - c @ mu


def _qp_solve(P, q, A, c, x0):
    """Primal by SLSQP, dual by L-BFGS-B on the concave dual:
    two independent optimisers."""
    from scipy.optimize import minimize

    prim = minimize(lambda x: 0.5 * x @ P @ x + q @ x, x0, jac=lambda x: P @ x + q,
                    method="SLSQP",
                    constraints=[{"type": "ineq", "fun": lambda x: c - A @ x,
                                  "jac": lambda x: -A}],
                    options={"ftol": 1e-13, "maxiter": 300})
    Pinv = np.linalg.inv(P)

    def neg_dual(mu):
        r = q + A.T @ mu
        return 0.5 * r @ Pinv @ r + c @ mu, A @ (Pinv @ r) + c

    dual = minimize(neg_dual, np.zeros(A.shape[0]), jac=True, method="L-BFGS-B",
                    bounds=[(0, None)] * A.shape[0],
                    options={"ftol": 1e-15, "gtol": 1e-12, "maxiter": 5000})
    return prim.x, dual.x


def _degenerate_qp(rng):
    """A convex QP with a singular P, a box on every coordinate and an equality written
    as two inequalities (no strictly feasible point): min 1/2 x'Px + q'x s.t. Ax <= c,
    solved by SLSQP; returns the gradient at the solution, A and the slacks c - A x."""
    from scipy.optimize import minimize

    d = int(rng.integers(2, 6))
    B = rng.standard_normal((d, int(rng.integers(1, d))))  # rank < d: P singular
    P, q = B @ B.T, 3.0 * rng.standard_normal(d)
    a = rng.standard_normal(d)
    x0 = rng.uniform(-1, 1, d)
    A = np.vstack([np.eye(d), -np.eye(d), a, -a, rng.standard_normal((2, d))])
    c = np.concatenate([np.full(2 * d, 2.0), [a @ x0, -(a @ x0)], A[-2:] @ x0 + 0.5])
    x = minimize(lambda x: 0.5 * x @ P @ x + q @ x, x0, jac=lambda x: P @ x + q,
                 method="SLSQP", options={"ftol": 1e-15, "maxiter": 500},
                 constraints=[{"type": "ineq", "fun": lambda x: c - A @ x,
                               "jac": lambda x: -A}]).x
    return P @ x + q, A, c - A @ x


@claim("eq-affine-kkt", per_instance=True, chapter=CH, tol=1e-6, n_instances=5,
       n_test_instances=100,
       statement=r"At the minimiser of a convex QP with affine constraints (here with "
                 r"no strictly feasible point), $-\nabla f(x^*)$ is a non-negative "
                 r"combination of the active constraints' normals $a_i$",
       foil=r"$\nabla f(x^*) = \sum_{i \in I} \mu_i a_i$, $\mu \ge 0$ (the sign lost)")
def eq_affine_kkt(rng, foil=False):
    from scipy.optimize import nnls

    g, A, slack = _degenerate_qp(rng)
    active = slack <= 1e-8  # SLSQP leaves active constraints satisfied to ~1e-10
    target = g if foil else -g
    # SLSQP's solution is accurate to about 1e-8: the residual is relative to |grad f|
    _, res = nnls(A[active].T, target) if active.any() else (None, np.linalg.norm(g))
    return res / max(1.0, np.linalg.norm(g))


@claim("eq-svm-zero-gap", per_instance=True, chapter=CH, tol=1e-8, n_instances=5,
       n_test_instances=100,
       statement=r"At the SMO solution $\alpha$ of the soft-margin dual, the primal "
                 r"value of $w = \sum_i \alpha_i y_i x_i$, $b$, $\xi_i = [1 - y_i "
                 r"f(x_i)]_+$ equals $D(\alpha)$: zero duality gap, so both are "
                 r"optimal",
       foil=r"the dual maximum equals $\frac12\|w^*\|^2$ alone (the slack term "
            r"$C\sum_i \xi_i$ lost)")
def eq_svm_zero_gap(rng, foil=False):
    n, d = int(rng.integers(8, 40)), int(rng.integers(1, 5))
    X, y = _overlapping(rng, n, d)
    C = float(10 ** rng.uniform(-1, 1))
    fit = svm.smo(X, y, C=C, kernel="linear", tol=1e-11)
    w = (fit.alpha * y) @ X
    P = svm.hinge_objective(w, fit.b, X, y, C)  # the primal at the dual's (w, b)
    D = 0.5 * w @ w if foil else fit.dual
    # P >= p* >= d* >= D by weak duality: P = D makes all four equal
    return abs(P - D) / P


# -- margins ---------------------------------------------------------------------------


@claim("eq-geometric-margin", per_instance=True, chapter=CH, tol=1e-12,
       statement=r"The distance from $x$ to $\{z : w^\top z + b = 0\}$ is $|w^\top x + "
                 r"b| / \|w\|$",
       errata=[Erratum(
           where="notes 003, section 1.5, the distance of $x_i$ to $H$",
           says=r"the distance between $x_i$ and $H$ is $\frac{\langle x_i - x, "
                r"w\rangle}{\|w\|_2} = \frac{\langle x_i, w\rangle + b}{\|w\|_2} = "
                r"\frac{y_i \hat y_i}{\|w\|_2}$ with $\hat y_i = \langle x_i, w\rangle "
                r"+ b$",
           correct=r"$(\langle x_i, w\rangle + b) / \|w\|_2$ is the *signed* distance, "
                   r"negative on the side $w$ points away from; the distance is its "
                   r"absolute value $|\hat y_i| / \|w\|_2$. The last step, $\hat y_i = "
                   r"y_i \hat y_i$, fails for every $y_i = -1$; $y_i \hat y_i / "
                   r"\|w\|_2$ equals the distance exactly when $x_i$ is correctly "
                   r"classified, which is the case the margin definition that follows "
                   r"assumes.")],
       foil=r"the notes' distance $(w^\top x + b) / \|w\|$, without the absolute value "
            r"(negative on one side)")
def eq_geometric_margin(rng, foil=False):
    d = int(rng.integers(1, 8))
    w, x = rng.standard_normal((2, d))
    b = rng.standard_normal()
    # the shortest u with w.(x + u) + b = 0: minimum-norm
    # solution of a 1 x d system (SVD)
    u = np.linalg.lstsq(w[None, :], [-(w @ x + b)], rcond=None)[0]
    distance = (w @ x + b) if foil else abs(w @ x + b)
    return rel_error(np.linalg.norm(u), distance / np.linalg.norm(w))


@claim("eq-hard-primal", per_instance=True, chapter=CH, n_instances=10, tol=1e-6,
       n_test_instances=50,
       statement=r"The solution of $\min \frac12\|w\|^2$ s.t. $y_i(w^\top x_i + b) \ge "
                 r"1$ has geometric "
                 r"margin $1/\|w\|$, the largest of all separating hyperplanes",
       foil=r"the solution has geometric margin $2/\|w\|$ (the width of the band)")
def eq_hard_primal(rng, foil=False):
    # 2-D data, so the largest margin can be found by brute force over the
    # direction of w: for a unit u at angle phi the best bias gives margin
    # (min_{y=+1} u.x - max_{y=-1} u.x) / 2.
    from scipy.optimize import minimize_scalar

    X, y = _separable(rng, 30, 2)

    def margin(phi, X=X, y=y):
        p = X @ np.array([np.cos(phi), np.sin(phi)])
        return 0.5 * (p[y > 0].min() - p[y < 0].max())

    grid = np.linspace(0, 2 * np.pi, 3601)
    U = np.stack([np.cos(grid), np.sin(grid)])
    P = X @ U
    vals = 0.5 * (P[y > 0].min(0) - P[y < 0].max(0))
    k = int(np.argmax(vals))
    best = minimize_scalar(lambda p: -margin(p),
                           bounds=(grid[k] - 0.002, grid[k] + 0.002),
                           method="bounded", options={"xatol": 1e-12})
    brute = max(vals[k], -best.fun)
    fit = svm.smo(X, y, C=np.inf, kernel="linear", tol=1e-10)
    return rel_error((2.0 if foil else 1.0) / np.linalg.norm(fit.coef), brute)


# -- Lagrange duality ------------------------------------------------------------------


@claim("eq-weak-duality", per_instance=True, chapter=CH, tol=0.0, measure="violation",
       statement=r"$\theta(\lambda, \mu) \le f(x)$ for every feasible $x$ and every "
                 r"$\mu \ge 0$",
       errata=[Erratum(
           where="notes 000, section 4.2, eqs. (4.5)-(4.10)",
           says=r"the multipliers of the inequality constraints satisfy $\mu_i > 0$, "
                r"and at a "
                r"feasible point $g_i(w^*) < 0$",
           correct=r"$\mu_i \ge 0$ and $g_i(w^*) \le 0$. The bound needs only $\mu_i "
                   r"g_i(x) \le 0$, which holds with the weak inequalities; and "
                   r"optimal multipliers are typically zero (every constraint that is "
                   r"not active has $\mu_i^* = 0$ by complementary slackness), so "
                   r"requiring $\mu_i > 0$ would exclude the optimum itself. The claim "
                   r"samples $\mu$ with zeros among its entries. At the optimum of the "
                   r"claim's problems some constraints are inactive, $g_i(x^*) < 0$: "
                   r"there $\mu_i^* = 0$, and with the notes' $\mu_i > 0$ "
                   r"complementary slackness would make every constraint active.",
           foil="strict"),
           Erratum(
               where="notes 001, Lagrange duality, 'Duality' (p. 111)",
               kind="clarification",
               says=r"$\Theta_d(\omega) = \min_\omega \mathcal L(\omega, \alpha, "
                    r"\beta)$ and $d^* = \max_{\alpha, \beta: \alpha_i \ge 0} "
                    r"\Theta_d(\omega)$",
               correct=r"The dual function is a function of the multipliers, "
                       r"$\Theta_d(\alpha, \beta) = \min_\omega \mathcal L(\omega, "
                       r"\alpha, \beta)$: $\omega$ is minimised out, so it cannot be "
                       r"the argument (this chapter writes $\theta(\mu, \lambda)$). "
                       r"The primal $\Theta_P(\omega)$ is the one that depends on "
                       r"$\omega$.")],
       # the bound itself holds with the notes' strict inequalities
       # (their error, checked with foil="strict", is the dual optimum):
       # the foil is the other inequality
       foil=r"$\theta(\lambda, \mu) \ge f(x)$ (the other inequality)",
       exact="a violation max(0, .): 0 whenever the inequality holds")
def eq_weak_duality(rng, foil=False):
    P, q, A, c, x0 = _qp(rng)
    # the notes' mu_i > 0 at the optimum: mu_i g_i = 0 makes g_i = 0
    if foil == "strict":
        x, _ = _qp_solve(P, q, A, c, x0)
        return float(np.abs(A @ x - c).max())
    mu = rng.exponential(1.0, A.shape[0]) * (rng.random(A.shape[0]) < 0.7)
    # a random feasible point: shrink a random direction from the strictly feasible x0
    x = x0 + rng.standard_normal(x0.size)
    while np.any(A @ x > c):
        x = x0 + 0.5 * (x - x0)
    f = 0.5 * x @ P @ x + q @ x
    gap = _qp_dual_function(P, q, A, c, mu) - f
    return max(0.0, -gap if foil else gap)


@claim("eq-strong-duality", per_instance=True, chapter=CH, n_instances=10, tol=1e-6,
       n_test_instances=50,
       statement=r"Convex objective, affine constraints and a strictly feasible point "
                 r"(Slater): "
                 r"$d^* = p^*$",
       foil=r"$d^* = \theta(0) = \min_x f(x)$: the dual optimum at $\mu = 0$ (the "
            r"constraints "
            r"ignored)")
def eq_strong_duality(rng, foil=False):
    P, q, A, c, x0 = _qp(rng)
    x, mu = _qp_solve(P, q, A, c, x0)
    if foil:
        mu = np.zeros_like(mu)
    p_star = 0.5 * x @ P @ x + q @ x
    d_star = _qp_dual_function(P, q, A, c, mu)
    # SLSQP and L-BFGS-B stop at ~1e-9 of the optimum; relative to the scale of f
    return abs(p_star - d_star) / max(1.0, abs(p_star))


@claim("eq-kkt", per_instance=True, chapter=CH, n_instances=10, tol=1e-5,
       n_test_instances=50,
       statement=r"At the optimum: $\nabla f + \sum_i \mu_i \nabla g_i = 0$, $g_i \le "
                 r"0$, $\mu_i \ge 0$, "
                 r"$\mu_i g_i = 0$",
       errata=[Erratum(
           where="notes 000, section 4.2.1, the KKT conditions",
           says=r"stationarity reads $\nabla f(w^*) + \sum_i \lambda_i \nabla h_i(w^*) "
                r"+ "
                r"\sum_i \nabla f_i(w^*) = 0$",
           correct=r"the inequality constraints enter weighted by their multipliers: "
                   r"$\nabla f(w^*) + \sum_i \lambda_i^* \nabla h_i(w^*) + \sum_i "
                   r"\mu_i^* \nabla "
                   r"f_i(w^*) = 0$. Without the weights every constraint, active or "
                   r"not, would "
                   r"pull on the solution; the claim checks the weighted form at the "
                   r"optimum of "
                   r"random QPs, where the unweighted sum is far from zero.")],
       foil=r"the notes' stationarity: $\nabla f + \sum_i \nabla g_i = 0$, the "
            r"multipliers "
            r"left out")
def eq_kkt(rng, foil=False):
    P, q, A, c, x0 = _qp(rng)
    x, mu = _qp_solve(P, q, A, c, x0)  # x from the primal solver, mu from the dual one
    g = A @ x - c
    scale = max(1.0, np.abs(P @ x).max(), np.abs(q).max())
    weights = np.ones_like(mu) if foil else mu
    stationarity = np.abs(P @ x + q + A.T @ weights).max() / scale
    return max(stationarity, max(0.0, g.max()), max(0.0, -mu.min()),
               np.abs(mu * g).max() / scale)


# -- the hard-margin dual --------------------------------------------------------------


def _dual_feasible(rng):
    """Random data and multipliers alpha >= 0 with sum_i alpha_i y_i = 0."""
    m, d = int(rng.integers(4, 15)), int(rng.integers(1, 6))
    X, y = rng.standard_normal((m, d)), np.where(rng.random(m) < 0.5, 1.0, -1.0)
    y[:2] = (1.0, -1.0)
    alpha = rng.exponential(1.0, m)
    alpha[y > 0] *= alpha[y < 0].sum() / alpha[y > 0].sum()
    return X, y, alpha


@claim("eq-hard-stationarity", per_instance=True, chapter=CH, tol=1e-7,
       statement=r"$\nabla_w L = 0$ and $\partial_b L = 0$ give $w = \sum_i \alpha_i "
                 r"y_i x_i$ and "
                 r"$\sum_i \alpha_i y_i = 0$",
       foil=r"$\nabla_w L = 0$ gives $w = \sum_i \alpha_i x_i$ (the labels lost)")
def eq_hard_stationarity(rng, foil=False):
    X, y, alpha = _dual_feasible(rng)
    w = alpha @ X if foil else (alpha * y) @ X

    def L(wb, X=X, y=y, alpha=alpha):
        return 0.5 * wb[:-1] @ wb[:-1] - alpha @ (y * (X @ wb[:-1] + wb[-1]) - 1)

    grad = numerical_gradient(L, np.append(w, rng.standard_normal()))
    return np.abs(grad).max() / max(1.0, np.abs(w).max())


@claim("eq-hard-dual", per_instance=True, chapter=CH, tol=1e-10,
       statement=r"$\min_{w,b} L(w, b, \alpha) = \sum_i \alpha_i - \frac12 \sum_{i,k} "
                 r"\alpha_i \alpha_k "
                 r"y_i y_k x_i^\top x_k$ when $\sum_i \alpha_i y_i = 0$",
       foil=r"$\min_{w,b} L(w, b, \alpha) = \sum_i \alpha_i - \sum_{i,k} \alpha_i "
            r"\alpha_k "
            r"y_i y_k x_i^\top x_k$ (the $\frac12$ lost)")
def eq_hard_dual(rng, foil=False):
    X, y, alpha = _dual_feasible(rng)
    d = X.shape[1]

    def L(w, b, X=X, y=y, alpha=alpha):
        return 0.5 * w @ w - alpha @ (y * (X @ w + b) - 1)

    if foil:
        theta = alpha.sum() - (alpha * y) @ X @ X.T @ (alpha * y)
    else:
        theta = svm.dual_objective(alpha, y, X @ X.T)
    w = (alpha * y) @ X
    at_min = rel_error(L(w, rng.standard_normal()), theta)
    # and it is the minimum: no other (w, b) gives less (L is convex in w, flat in b)
    others = min(L(w + rng.standard_normal(d), rng.standard_normal())
                 for _ in range(20))
    return max(at_min, max(0.0, theta - others) / max(1.0, abs(theta)))


@claim("eq-hard-gap", per_instance=True, chapter=CH, n_instances=10, tol=1e-6,
       n_test_instances=50,
       statement=r"At the SMO solution of the hard-margin dual: $\frac12\|w\|^2 = "
                 r"D(\alpha)$, "
                 r"$y_i f(x_i) \ge 1$, $\alpha_i (y_i f(x_i) - 1) = 0$",
       errata=[Erratum(
           where=r"notes 000, section 4.2.2 (the dual of large-margin training), and "
                 r"notes 003, "
                 r"section 1.5 ($\max_{\alpha > 0}$)",
           says=r"the dual is maximised subject to $\mu_i > 0$ for all $i$",
           correct=r"the constraint is $\mu_i \ge 0$. With every $\mu_i > 0$, "
                   r"complementary "
                   r"slackness would put every training point on the margin; at the "
                   r"optimum "
                   r"most points have $\mu_i = 0$ and only the support vectors have "
                   r"$\mu_i > 0$ (the claim's instances have 30 to 60 points in 2 to 5 "
                   r"dimensions, and 3 to 6 support vectors).")],
       foil=r"the notes' $\mu_i > 0$ for all $i$: complementary slackness then puts "
            r"every point "
            r"on the margin, $y_i f(x_i) = 1$")
def eq_hard_gap(rng, foil=False):
    X, y = _separable(rng, int(rng.integers(30, 61)), int(rng.integers(2, 6)))
    fit = svm.smo(X, y, C=np.inf, kernel="linear", tol=1e-10)
    w = fit.coef
    M = y * fit.decision_function(X)
    gap = abs(0.5 * w @ w - fit.dual) / fit.dual
    if foil:
        slackness = np.abs(M - 1).max()
    else:
        slackness = np.abs(fit.alpha * (M - 1)).max() / fit.alpha.max()
    return max(gap, max(0.0, 1 - M.min()), slackness)


@claim("eq-bias", per_instance=True, chapter=CH, n_instances=10, tol=1e-7,
       n_test_instances=50,
       statement=r"Every support vector gives the same bias $b = y_i - w^\top x_i$",
       errata=[Erratum(
           where="notes 004, slide 'SVM Dual Optimization Problem' (recovering $b$)",
           says=r"$b = 1 - y^i\langle x^i, w\rangle$ for any $i$ with "
                r"$0 < \alpha_i < C$ "
                "(extracted as `b=1-y\"z', w) for any ¢ with 0 < a; < C`: the "
                r"superscripts and the bracket are garbled, the $1 -$ and the factor "
                r"$y$ are legible)",
           correct=r"$b = y^i - \langle w, x^i\rangle$. A margin support vector has "
                   r"$y^i(\langle w, x^i\rangle + b) = 1$; multiplying by $y^i$ "
                   r"($(y^i)^2 = 1$) gives $b = y^i - \langle w, x^i\rangle = y^i(1 - "
                   r"y^i\langle w, x^i\rangle)$. The slide's formula drops that factor "
                   r"$y^i$: it is right for $y^i = +1$, and for $y^i = -1$ it gives $1 "
                   r"+ \langle w, x^i\rangle = -b$, the bias with the wrong sign.",
           foil="notes 004")],
       foil=r"every support vector gives $b = 1 - w^\top x_i$ (the label dropped from "
            r"$y_i(w^\top x_i + b) = 1$)")
def eq_bias(rng, foil=False):
    # foil="notes 004": the slide's b = 1 - y_i w.x_i
    X, y = _separable(rng, 40, int(rng.integers(2, 6)))
    fit = svm.smo(X, y, C=np.inf, kernel="linear", tol=1e-10)
    if foil == "notes 004":
        bs = 1.0 - y[fit.support] * (X[fit.support] @ fit.coef)
        return np.abs(bs - fit.b).max() / max(1.0, abs(fit.b))
    bs = (1.0 if foil else y[fit.support]) - X[fit.support] @ fit.coef
    return np.abs(bs - fit.b).max() / max(1.0, abs(fit.b))


# -- the soft margin -------------------------------------------------------------------


@claim("eq-slack", per_instance=True, chapter=CH, tol=1e-9,
       statement=r"For fixed $(w, b)$ the optimal slacks are $\xi_i = \max(0, 1 - y_i "
                 r"f(x_i))$",
       foil=r"the optimal slacks are $\xi_i = \max(0, -y_i f(x_i))$ (the margin's 1 "
            r"lost)",
       exact="the LP's optimum is the vertex of its bounds, max(0, 1 - y_i f(x_i)), "
             "returned "
             "exactly")
def eq_slack(rng, foil=False):
    from scipy.optimize import linprog

    X, y = _overlapping(rng, int(rng.integers(5, 30)), 3)
    w, b = rng.standard_normal(3), rng.standard_normal()
    m = len(y)
    # min sum xi  s.t.  xi_i >= 1 - y_i f(x_i), xi_i >= 0: a linear program in xi
    lp = linprog(np.ones(m), A_ub=-np.eye(m), b_ub=-(1 - y * (X @ w + b)),
                 bounds=[(0, None)] * m,
                 method="highs")
    return rel_error(lp.x, np.maximum(0.0, (0 if foil else 1) - y * (X @ w + b)))


@claim("eq-soft-dual", per_instance=True, chapter=CH, n_instances=10, tol=1e-6,
       n_test_instances=50,
       statement=r"The soft-margin dual (box $0 \le \alpha_i \le C$) has the primal's "
                 r"optimal value: "
                 r"zero duality gap at the SMO solution",
       errata=[Erratum(
           where="notes 003, section 1.6, the boxed soft-margin dual",
           says=r"$\min_{0 \le \alpha \le C} \frac12 \sum_{i,j} \alpha_i \alpha_j y_i "
                r"y_j \langle x_i, "
                r"x_j \rangle$",
           correct=r"$\min_{0 \le \alpha \le C} \frac12 \sum_{i,j} \alpha_i \alpha_j "
                   r"y_i y_j \langle x_i, "
                   r"x_j\rangle - \sum_i \alpha_i$ subject to $\sum_i \alpha_i y_i = "
                   r"0$. The linear "
                   r"term and the equality constraint (from $\partial L / \partial b = "
                   r"0$) are "
                   r"lost in the boxed formula; as written its minimum is $\alpha = "
                   r"0$, i.e. "
                   r"$w = 0$, whatever the data. The line above the box in the notes "
                   r"has the "
                   r"right objective.")],
       foil=r"the notes' boxed dual, $\min_{0 \le \alpha \le C} \frac12 \sum_{i,j} "
            r"\alpha_i "
            r"\alpha_j y_i y_j \langle x_i, x_j \rangle$, has the primal's optimal "
            r"value")
def eq_soft_dual(rng, foil=False):
    X, y = _overlapping(rng, int(rng.integers(30, 61)), int(rng.integers(2, 5)))
    C = float(rng.choice([0.1, 1.0, 10.0]))
    fit = svm.smo(X, y, C=C, kernel="linear", tol=1e-10)
    P = svm.hinge_objective(fit.coef, fit.b, X, y, C)
    # the notes' dual is a PSD quadratic form alone: its minimum is 0, at alpha = 0
    D = 0.0 if foil else fit.dual
    return abs(P - D) / P


@claim("eq-three-kinds", per_instance=True, chapter=CH, n_instances=10, tol=1e-7,
       n_test_instances=50,
       statement=r"$\alpha_i = 0 \Rightarrow y_i f(x_i) \ge 1$; $0 < \alpha_i < C "
                 r"\Rightarrow y_i f(x_i) = 1$; "
                 r"$\alpha_i = C \Rightarrow y_i f(x_i) \le 1$",
       foil=r"the notes' converse: $y_i f(x_i) \ge 1 \Rightarrow \alpha_i = 0$, which "
            r"every "
            r"margin support vector breaks")
def eq_three_kinds(rng, foil=False):
    X, y = _overlapping(rng, int(rng.integers(30, 61)), int(rng.integers(2, 5)))
    C = float(rng.choice([0.1, 1.0, 10.0]))
    fit = svm.smo(X, y, C=C, kernel="rbf", gamma=0.5, tol=1e-10)
    M = y * fit.decision_function(X)
    a = fit.alpha
    zero, free, bound = a == 0, (a > 0) & (a < C), a == C
    v = [0.0]
    v += list(np.maximum(0.0, 1 - M[zero]))  # alpha = 0: outside or on the margin
    v += list(np.abs(M[free] - 1))  # 0 < alpha < C: on the margin
    v += list(np.maximum(0.0, M[bound] - 1))  # alpha = C: on or inside the margin
    if foil:  # y f >= 1 (up to SMO's tolerance) => alpha = 0
        v += list(a[M >= 1 - 1e-7] / C)
    return max(v)


@claim("eq-hinge-form", per_instance=True, chapter=CH, n_instances=10, tol=1e-7,
       n_test_instances=50,
       statement=r"The soft-margin SVM minimises $\sum_i \max(0, 1 - y_i f(x_i)) + "
                 r"\lambda\|w\|^2$ with "
                 r"$\lambda = 1/(2C)$: $\beta = \alpha / C$ certifies $0 \in \partial "
                 r"J(w, b)$",
       foil=r"the same with $\lambda = 1/C$ (the $\frac12$ of $\frac12\|w\|^2$ lost)")
def eq_hinge_form(rng, foil=False):
    X, y = _overlapping(rng, int(rng.integers(30, 61)), 3)
    C = float(rng.choice([0.1, 1.0, 10.0]))
    lam = 1.0 / C if foil else 1.0 / (2.0 * C)
    fit = svm.smo(X, y, C=C, kernel="linear", tol=1e-10)
    w, M = fit.coef, y * fit.decision_function(X)
    # the hinge subgradient multipliers: 1 if M < 1, 0 if M > 1, [0, 1] at 1
    beta = fit.alpha / C
    stat_w = np.abs(2 * lam * w - (beta * y) @ X).max() / max(1.0, np.abs(w).max())
    stat_b = abs(beta @ y)
    wrong = np.concatenate([np.abs(beta[M < 1 - 1e-6] - 1), beta[M > 1 + 1e-6]])
    return max(stat_w, stat_b, wrong.max(initial=0.0))


# -- solvers ---------------------------------------------------------------------------


@claim("eq-hinge-subgradient", per_instance=True, chapter=CH, tol=1e-12,
       measure="violation",
       statement=r"$g = (w - C\sum_{i \in V} y_i x_i,\ -C\sum_{i\in V} y_i)$ is a "
                 r"subgradient of "
                 r"$P(w, b)$: $P(w', b') \ge P(w, b) + g^\top (w' - w, b' - b)$",
       foil=r"the same with $V = \{i : y_i f(x_i) < 0\}$, the mistakes only (the "
            r"perceptron's set)",
       errata=[Erratum(
           where="notes 004, slide 'Stochastic Primal SVMs Training', line 8 of the "
                 "algorithm",
           says=r"on a margin violation, $w_{t+1} \leftarrow (1 - \eta_t) w_t + \eta_t "
                r"n C y x$ and $b_{t+1} \leftarrow \eta_t n C y$ (extracted as `bir1 < "
                r"nmnCy`)",
           correct=r"$b_{t+1} \leftarrow b_t + \eta_t n C y$. The step is $-\eta_t$ "
                   r"times $n$ times a subgradient of the sample's term "
                   r"$\frac{1}{2n}\|w\|^2 + C[1 - y f(x)]_+$, whose $b$-component is "
                   r"$-Cy$; averaged over the sample, $n$ times it is the "
                   r"$b$-component of {eq}`eq-hinge-subgradient`. The slide's $w$ line "
                   r"keeps $w_t$, its $b$ line drops $b_t$: $b$ is reset to the last "
                   r"violator's $\eta_t n C y$, and the mean step in $b$ gains $b_t / "
                   r"\eta_t$ times the fraction of violators, which is no subgradient "
                   r"of $P$. The claim checks that mean step, at $\eta_t = 1/2$, in "
                   r"the subgradient inequality.",
           foil="notes 004",
       ), Erratum(
           where="notes 004, slide 'Stochastic Primal SVMs Training', line 4 of the "
                 "algorithm",
           says=r"the step is taken without the hinge term when $y\langle x, w\rangle "
                r"+ b \ge 1$",
           correct=r"The OCR writes $\langle x, w\rangle$ as `(z,w)` and can lose a "
                   r"bracket, so the slide may read $y(\langle x, w\rangle + b) \ge "
                   r"1$, the sound condition: the hinge term contributes to the step "
                   r"exactly when $y_i f(x_i) < 1$, the set $V$ of "
                   r"{eq}`eq-hinge-subgradient`. Read as extracted, $y\langle x, "
                   r"w\rangle + b$ differs from $y f(x)$ whenever $y = -1$ and $b \ne "
                   r"0$.",
           kind="as extracted",
           raw="4 if y(z,w) + b>1 then",
       )],
       exact="a violation max(0, .): 0 whenever the inequality holds")
def eq_hinge_subgradient(rng, foil=False):
    X, y = _overlapping(rng, 30, 3)
    C = float(rng.choice([0.1, 1.0, 10.0]))
    w, b = rng.standard_normal(3), rng.standard_normal()
    V = y * (X @ w + b) < (0 if foil is True else 1)
    gw, gb = w - C * (y[V] @ X[V]), -C * y[V].sum()
    # the mean over samples i of the notes' step in b, over -eta:
    if foil == "notes 004":
        # (b - b_next_i) / eta with b_next_i = eta n C y_i on violation
        eta, n = 0.5, len(y)
        gb = np.mean(b - np.where(V, eta * n * C * y, b)) / eta
    P0 = svm.hinge_objective(w, b, X, y, C)
    worst = 0.0
    for _ in range(20):
        w2 = w + rng.standard_normal(3) * rng.exponential()
        b2 = b + rng.standard_normal()
        lower = P0 + gw @ (w2 - w) + gb * (b2 - b)
        worst = max(worst,
                    (lower - svm.hinge_objective(w2, b2, X, y, C)) / max(1.0, P0))
    return max(0.0, worst - 1e-14)


@claim("eq-pegasos-step", per_instance=True, chapter=CH, tol=1e-10,
       statement=r"With $\eta_t = 1/(\lambda t)$ and no projection, Pegasos' iterate "
                 r"is "
                 r"$w_{t+1} = \frac{1}{\lambda t} \sum_{s \le t} \frac{1}{|A_s|} "
                 r"\sum_{i \in A_s^+} y_i x_i$",
       foil=r"$w_{t+1} = \sum_{s \le t} \frac{1}{\lambda s} \frac{1}{|A_s|} \sum_{i "
            r"\in A_s^+} "
            r"y_i x_i$, the steps added up (the shrinking $(1 - 1/t)$ forgotten)")
def eq_pegasos_step(rng, foil=False):
    X, y = _overlapping(rng, 50, 4)
    lam, k, T = rng.uniform(0.01, 1.0), int(rng.integers(1, 6)), 40
    w = np.zeros(4)
    total = np.zeros(4)
    for t in range(1, T + 1):
        A = rng.choice(50, k, replace=False)
        viol = A[y[A] * (X[A] @ w) < 1]
        step = y[viol] @ X[viol] / k
        w = (1 - 1 / t) * w + step / (lam * t)  # eta_t * lam = 1/t
        if foil:
            total += step / (lam * t)
        else:
            total += step
        res_t = rel_error(w, total if foil else total / (lam * t))
    return res_t


def _squared_slack(rng, foil=False):
    """A squared-slack SVM solved as the hard-margin dual on K + I/(2C) (the
    foil: K + I/C); returns the data, C, alpha, the margins y_i f(x_i) with f =
    sum_j alpha_j y_j x_j^T x + b (the original kernel), the primal value P at
    (w, b) and the dual value D."""
    n, d = int(rng.integers(10, 25)), int(rng.integers(1, 5))
    X, y = _overlapping(rng, n, d)
    C = float(10 ** rng.uniform(-1, 1))
    K = X @ X.T
    ridge = 1 / C if foil else 1 / (2 * C)
    # alpha_i = 2 C xi_i is bounded, so a box of 1e6 is
    # never active: the hard-margin dual
    fit = svm.smo(K + ridge * np.eye(n), y, C=1e6, kernel="precomputed", tol=1e-11)
    w = (fit.alpha * y) @ X
    m = y * (X @ w + fit.b)
    P = 0.5 * w @ w + C * np.sum(np.maximum(0.0, 1.0 - m) ** 2)
    return C, fit.alpha, m, P, fit.dual


@claim("eq-l2svm-dual", per_instance=True, chapter=CH, tol=1e-10, n_instances=3,
       n_test_instances=50,
       statement=r"The dual of $\min \frac12\|w\|^2 + C\sum_i \xi_i^2$ s.t. $y_i "
                 r"f(x_i) \ge 1 - \xi_i$ is the hard-margin dual on $K + I/(2C)$: its "
                 r"maximum equals the primal minimum (zero gap, $w = \sum_i \alpha_i "
                 r"y_i x_i$, $\xi_i = [1 - y_i f(x_i)]_+$)",
       foil=r"the dual on $K + I/C$ (the 2 of $\partial(C\xi^2)/\partial\xi = 2C\xi$ "
            r"lost)")
def eq_l2svm_dual(rng, foil=False):
    _, _, _, P, D = _squared_slack(rng, foil)
    return abs(P - D) / P


@claim("eq-l2svm-kkt", per_instance=True, chapter=CH, tol=1e-9, measure="abs. error",
       n_test_instances=50,
       n_instances=3,
       statement=r"At the optimum of the squared-slack SVM, $y_i f(x_i) = 1 - "
                 r"\alpha_i/(2C)$ where $\alpha_i > 0$ and $y_i f(x_i) \ge 1$ where "
                 r"$\alpha_i = 0$",
       foil=r"$y_i f(x_i) = 1 - \alpha_i / C$ where $\alpha_i > 0$")
def eq_l2svm_kkt(rng, foil=False):
    C, alpha, m, _, _ = _squared_slack(rng)
    sv = alpha > 0
    target = 1 - alpha[sv] / (C if foil else 2 * C)
    return float(max(np.max(np.abs(m[sv] - target), initial=0.0),
                     np.max(np.maximum(0.0, 1 - m[~sv]), initial=0.0)))


def _pegasos_problem(rng, certify: bool = True):
    """A no-bias soft-margin problem (a constant feature plays the regularised bias)
    with its optimum certified by the duality gap (relative gap < 1e-6): rows B_i = y_i
    z_i, lam = 1/(nC), the optimum w* of f(w) = lam/2 |w|^2 + mean_i hinge(B_i w), a
    lower bound f_lo <= f(w*) and G = sqrt(lam) + R."""
    from scipy.optimize import minimize

    n, d = int(rng.integers(20, 60)), int(rng.integers(1, 5))
    X, y = _overlapping(rng, n, d)
    B = y[:, None] * np.column_stack([X, np.ones(n)])
    C = float(10 ** rng.uniform(-1, 0.5))
    lam = 1.0 / (n * C)
    G = np.sqrt(lam) + np.sqrt((B * B).sum(1).max())
    if not certify:  # a point u of the ball |u| <= 1/sqrt(lam), where w* lies
        u = rng.standard_normal(B.shape[1])
        return B, lam, u * rng.uniform() / (np.sqrt(lam) * np.linalg.norm(u)), None, G
    a = np.zeros(n)
    for _ in range(5):  # L-BFGS-B on the box dual, restarted until the gap certifies it
        a = minimize(lambda a: (0.5 * (B.T @ a) @ (B.T @ a) - a.sum(),
                                B @ (B.T @ a) - 1.0),
                     a, jac=True, method="L-BFGS-B", bounds=[(0.0, C)] * n,
                     options={"ftol": 1e-14, "gtol": 1e-10}).x
        w = B.T @ a
        P = 0.5 * w @ w + C * np.maximum(0.0, 1.0 - B @ w).sum()
        D = a.sum() - 0.5 * w @ w  # <= P* by weak duality, whatever a in the box
        if P - D <= 1e-6 * P:
            break
    else:
        raise RuntimeError(f"no certified optimum: relative gap {(P - D) / P:.1e}")
    # in the ball (rounding only)
    w *= min(1.0, 1.0 / (np.sqrt(lam) * np.linalg.norm(w)))
    return B, lam, w, D / (n * C), G


def _pegasos_trace(rng, B, lam, u, T, k):
    """The guarantee's Pegasos (eta_t = 2/(lam (t+1)), projection on |w| <=
    1/sqrt(lam)), run for T steps of batch k: per step f_A(w_t) - f_A(u),
    |w_t - u|^2, eta_t and |g_t|^2."""
    n = B.shape[0]
    w = np.zeros(B.shape[1])
    rows = []
    for t in range(1, T + 1):
        A = rng.choice(n, k, replace=False)
        f_A = lambda v, A=A: 0.5 * lam * v @ v + np.maximum(0.0, 1.0 - B[A] @ v).mean()
        g = lam * w - ((B[A] @ w < 1.0) @ B[A]) / k
        eta = 2.0 / (lam * (t + 1))
        rows.append((f_A(w) - f_A(u), (w - u) @ (w - u), eta, g @ g))
        w = w - eta * g
        w *= min(1.0, 1.0 / (np.sqrt(lam) * np.sqrt(w @ w) + 1e-300))
    rows.append((0.0, (w - u) @ (w - u), 0.0, 0.0))
    return np.array(rows)


@claim("eq-pegasos-one-step", per_instance=True, chapter=CH, tol=1e-9, n_instances=5,
       measure="violation",
       statement=r"At every step of Pegasos with $\eta_t = 2/(\lambda(t+1))$, for any "
                 r"$u$ in the ball $\|u\| \le 1/\sqrt\lambda$ (which holds $w^*$): "
                 r"$f_{A_t}(w_t) - f_{A_t}(u) \le (\frac{1}{2\eta_t} - "
                 r"\frac{\lambda}{2}) \|w_t - u\|^2 - \frac{1}{2\eta_t} \|w_{t+1} - "
                 r"u\|^2 + \frac{\eta_t}{2} \|g_t\|^2$",
       foil=r"the same without $\frac{\eta_t}{2}\|g_t\|^2$, as if each step were a "
            r"descent step",
       exact="a violation max(0, .), relative to the size of the terms: 0 whenever the "
             "inequality holds")
def eq_pegasos_one_step(rng, foil=False):
    B, lam, u, _, _ = _pegasos_problem(rng, certify=False)
    r = _pegasos_trace(rng, B, lam, u, 200, int(rng.integers(1, 4)))
    gap, dist, eta, g2 = r[:-1].T
    right = (1 / (2 * eta) - lam / 2) * dist - r[1:, 1] / (2 * eta)
    if not foil:
        right = right + eta * g2 / 2
    scale = np.abs(gap) + np.abs(dist + r[1:, 1]) / (2 * eta) + eta * g2
    return float(np.max(np.maximum(0.0, (gap - right) / scale)))


@claim("eq-pegasos-telescoped", per_instance=True, chapter=CH, tol=1e-9, n_instances=5,
       measure="violation",
       statement=r"Summed with weights $t$ the steps telescope, for any $u$ in the "
                 r"ball: $\sum_{t \le T} t\,(f_{A_t}(w_t) - f_{A_t}(u)) \le \sum_{t "
                 r"\le T} \frac{t\eta_t}{2}\|g_t\|^2 \le \frac{T G^2}{\lambda}$, $G = "
                 r"\sqrt\lambda + \max_i \|x_i\|$",
       foil=r"$\sum_t \frac{t \eta_t}{2} \|g_t\|^2 \le \frac{G^2}{\lambda}$ (the sum "
            r"of $T$ terms bounded as one)",
       exact="a violation max(0, .), relative to the right side: 0 whenever both "
             "inequalities hold")
def eq_pegasos_telescoped(rng, foil=False):
    B, lam, u, _, G = _pegasos_problem(rng, certify=False)
    T = 200
    r = _pegasos_trace(rng, B, lam, u, T, int(rng.integers(1, 4)))
    t = np.arange(1, T + 1)
    gap, _, eta, g2 = r[:-1].T
    left, middle = np.sum(t * gap), np.sum(t * eta * g2 / 2)
    right = (1 if foil else T) * G**2 / lam
    return float(max(0.0, (left - middle) / middle, (middle - right) / right))


@claim("eq-pegasos-rate", chapter=CH, n_instances=2, n_test_instances=20, tol=0.0,
       measure="violation",
       statement=r"$\E f(\bar w_T) - f^* \le \frac{2G^2}{\lambda (T + 1)}$ for the "
                 r"$t$-weighted average $\bar w_T$ of "
                 r"`pegasos(schedule=\"weighted\")`, the expectation estimated by the "
                 r"mean over 5 runs, $f^*$ bounded below by a certified dual value",
       foil=r"$\E f(\bar w_T) - f^* \le \frac{2G^2}{\lambda (T + 1)^2}$, a $1/T^2$ "
            r"rate",
       exact="a violation max(0, .): 0 whenever the mean suboptimality is below the "
             "bound (it is a mean of 5 runs standing for an expectation; on these "
             "instances the bound exceeds it more than tenfold, and the foil shows the "
             "check can fail)")
def eq_pegasos_rate(rng, n, foil=False):
    res = []
    for _ in range(n):
        B, lam, _, f_lo, G = _pegasos_problem(rng)
        m = B.shape[0]
        epochs = int(rng.integers(2, 6))
        T = m * epochs
        C = 1.0 / (m * lam)
        # pegasos on the rows y_i z_i with labels +1: margins B w, no intercept
        subopt = np.mean([
            svm.pegasos(B, np.ones(m), C=C, n_epochs=epochs, fit_intercept=False,
                        schedule="weighted", rng=int(rng.integers(2**31))).objective[-1]
            / (m * C) - f_lo
            for _ in range(5)
        ])
        bound = 2 * G**2 / (lam * (T + 1) ** (2 if foil else 1))
        res.append(max(0.0, subopt - bound))
    return res


@claim("eq-smo-step", per_instance=True, chapter=CH, tol=1e-12, measure="violation",
       statement=r"The clipped step $s = b/a$ minimises the dual exactly over the "
                 r"feasible segment of "
                 r"the pair $(\alpha_i, \alpha_j)$",
       foil=r"the step $s = b/a$ unclipped minimises the dual over the feasible "
            r"segment")
def eq_smo_step(rng, foil=False):
    m, C = 6, rng.uniform(0.5, 2.0)
    Z = rng.standard_normal((m, 3))
    K = Z @ Z.T
    y = np.where(rng.random(m) < 0.5, 1.0, -1.0)
    alpha = rng.uniform(0, C, m) * (rng.random(m) < 0.8)  # some at the bound 0
    Q = y[:, None] * y[None, :] * K
    G = Q @ alpha - 1
    i, j = rng.choice(m, 2, replace=False)
    ai, aj = svm.two_variable_step(alpha[i], alpha[j], y[i], y[j], G[i], G[j], K[i, i],
                                   K[j, j],
                                   K[i, j], C)
    d = np.zeros(m)
    d[i], d[j] = y[i], -y[j]  # alpha + s d keeps y.alpha fixed
    lin, quad = d @ G, d @ Q @ d  # f(alpha + s d) - f(alpha) = lin s + quad s^2 / 2
    lo = max(-alpha[i] if y[i] > 0 else alpha[i] - C,
             -(C - alpha[j]) if y[j] > 0 else -alpha[j])
    hi = min(C - alpha[i] if y[i] > 0 else alpha[i],
             alpha[j] if y[j] > 0 else C - alpha[j])
    grid = np.linspace(lo, hi, 4001)
    s = -lin / quad if foil else (ai - alpha[i]) * y[i]
    outside = max(0.0, lo - s, s - hi)
    ours = lin * s + 0.5 * quad * s * s
    best = (lin * grid + 0.5 * quad * grid**2).min()
    return max(outside, ours - best) / max(1.0, abs(G).max())


@claim("eq-wss2", chapter=CH, tol=1e-9,
       statement=r"An unclipped step on the pair $(i, t)$ lowers $f$ by $b_{it}^2 / (2 "
                 r"a_{it})$",
       foil=r"an unclipped step lowers $f$ by $b_{it}^2 / a_{it}$ (the $\frac12$ lost)")
def eq_wss2(rng, n, foil=False):
    res = []
    while len(res) < n:
        m = 8
        X = rng.standard_normal((m, 3))
        K = kernels.rbf_kernel(X, gamma=0.5)
        y = np.where(rng.random(m) < 0.5, 1.0, -1.0)
        alpha = rng.uniform(0.0, 2.0, m)
        i, t = rng.choice(m, 2, replace=False)
        alpha[[i, t]] = 30.0
        Q = y[:, None] * y[None, :] * K
        G = Q @ alpha - 1
        b_it = -y[i] * G[i] + y[t] * G[t]
        a_it = K[i, i] + K[t, t] - 2 * K[i, t]
        ai, at = svm.two_variable_step(alpha[i], alpha[t], y[i], y[t], G[i], G[t],
                                       K[i, i], K[t, t],
                                       K[i, t], 100.0)
        if not (0 < ai < 100 and 0 < at < 100):
            continue  # the step was clipped: the formula is for the unclipped step
        new = alpha.copy()
        new[i], new[t] = ai, at
        f_old = 0.5 * alpha @ Q @ alpha - alpha.sum()
        f_new = 0.5 * new @ Q @ new - new.sum()
        decrease = b_it**2 / (a_it if foil else 2 * a_it)
        res.append(abs((f_old - f_new) - decrease) / max(1.0, abs(f_old)))
    return res


@claim("eq-kkt-pair", per_instance=True, chapter=CH, tol=1e-6, n_instances=8,
       n_test_instances=40,
       statement=r"$\alpha$ is optimal iff $m(\alpha) \le M(\alpha)$: SMO stopped by "
                 r"this rule matches "
                 r"an independent QP solver",
       foil=r"SMO's $\alpha$ maximises the dual over the box alone (the constraint "
            r"$y^\top\alpha = 0$ of $\partial_b L = 0$ forgotten)")
def eq_kkt_pair(rng, foil=False):
    from scipy.optimize import minimize

    X, y = _overlapping(rng, 15, 2)
    C = float(rng.choice([0.1, 1.0, 10.0]))
    K = kernels.rbf_kernel(X, gamma=0.5)
    fit = svm.smo(X, y, C=C, kernel="rbf", gamma=0.5, tol=1e-9)
    Q = y[:, None] * y[None, :] * K
    balance = [{"type": "eq", "fun": lambda a: a @ y, "jac": lambda a: y}]
    if foil:
        balance = []
    qp = minimize(lambda a: 0.5 * a @ Q @ a - a.sum(), np.zeros(15),
                  jac=lambda a: Q @ a - 1, method="SLSQP", bounds=[(0, C)] * 15,
                  constraints=balance, options={"ftol": 1e-13, "maxiter": 300})
    D_qp = -qp.fun
    return max(abs(fit.dual - D_qp) / abs(D_qp), svm.kkt_violation(fit.alpha, y, K, C))


@claim("eq-kernel-decision", per_instance=True, chapter=CH, tol=1e-12,
       statement=r"$\sum_i \alpha_i y_i k(x_i, x) + b = w^\top \phi(x) + b$ with $w = "
                 r"\sum_i \alpha_i y_i \phi(x_i)$",
       foil=r"the same with $w = \sum_i \alpha_i \phi(x_i)$ (the labels lost)")
def eq_kernel_decision(rng, foil=False):
    m, d = 15, int(rng.integers(1, 5))
    X, Xn = rng.standard_normal((m, d)), rng.standard_normal((5, d))
    g, c0 = rng.uniform(0.2, 2.0), rng.uniform(0.0, 2.0)
    alpha, y = rng.uniform(0, 1, m), np.where(rng.random(m) < 0.5, 1.0, -1.0)
    b = rng.standard_normal()

    def phi(Z, g=g, c0=c0):  # (g x.z + c0)^2 = c0^2 + 2 g c0 x.z + g^2 (x.z)^2
        outer = (Z[:, :, None] * Z[:, None, :]).reshape(len(Z), -1)
        return np.column_stack([np.full(len(Z), c0), np.sqrt(2 * g * c0) * Z,
                                g * outer])

    w = (alpha if foil else alpha * y) @ phi(X)
    via_kernel = kernels.polynomial_kernel(Xn, X, degree=2, gamma=g,
                                           coef0=c0) @ (alpha * y) + b
    return rel_error(via_kernel, phi(Xn) @ w + b)


# -- checks that discriminate the notes' statements (errata) ---------------------------


@claim("eq-margin-split", per_instance=True, chapter=CH, tol=0.0,
       measure="fraction wrong",
       statement=r"$y_i(w^\top x_i + b) \ge \beta$ iff $w^\top x_i + b \ge \beta$ for "
                 r"$y_i = +1$ and $w^\top x_i + b \le -\beta$ for $y_i = -1$",
       errata=[Erratum(
           where="notes 002, slide \"Support vector machines\" (objects at distance "
                 "$b/|w|$)",
           says=r"$x_i^\top w + w_0 \ge b$ for $y_i = +1$ and $x_i^\top w + w_0 \le b$ "
                r"for $y_i = -1$, \"rewritten as\" $y_i(x_i^\top w + w_0) \ge b$",
           correct=r"for $y_i = -1$ the condition is $x_i^\top w + w_0 \le -b$: "
                   r"multiplying $y_i(x_i^\top w + w_0) \ge b$ by $y_i = -1$ flips the "
                   r"inequality and the sign of $b$. As printed, every negative object "
                   r"with $-b < x_i^\top w + w_0 \le b$ (inside the margin, or on the "
                   r"wrong side of the hyperplane) satisfies the first form and not "
                   r"the second.")],
       foil=r"the notes' split: $w^\top x_i + b \le \beta$ for $y_i = -1$",
       exact="the fraction of points where two sets of inequalities disagree: 0 when "
             "they are equivalent")
def eq_margin_split(rng, foil=False):
    # foil: the notes' "<= b" for the negative class
    m, d = 200, int(rng.integers(1, 6))
    X, y = rng.standard_normal((m, d)), rng.choice([-1.0, 1.0], m)
    w, w0 = rng.standard_normal(d), rng.standard_normal()
    f = X @ w + w0
    # a fifth to a half within the margin
    beta = np.quantile(np.abs(f), rng.uniform(0.2, 0.5))
    negative = f <= beta if foil else f <= -beta
    split = np.where(y > 0, f >= beta, negative)
    return float(np.mean(split != (y * f >= beta)))


def _margin_at_bound(rng):
    """Two points x_+, x_- with C = 2 / |x_+ - x_-|^2, and points beyond the margin: the
    optimum in closed form, w = 2 (x_+ - x_-) / |x_+ - x_-|^2, alpha = C on the pair."""
    d = int(rng.integers(1, 5))
    xp, xm = rng.standard_normal((2, d))
    delta = xp - xm
    C = 2 / (delta @ delta)
    k = int(rng.integers(1, 6))  # points beyond the margin on each side, shifted along
    t = rng.uniform(0.5, 2.0, (2, k, 1))  # delta and moved parallel to the hyperplane
    U = rng.standard_normal((2, k, d))
    U -= (U @ delta)[..., None] * delta / (delta @ delta)
    X = np.vstack([xp, xm, xp + t[0] * delta + U[0], xm - t[1] * delta + U[1]])
    y = np.r_[1.0, -1.0, np.ones(k), -np.ones(k)]
    alpha = np.r_[C, C, np.zeros(2 * k)]
    w = 2 * delta / (delta @ delta)
    b = -w @ (xp + xm) / 2
    return X, y, C, alpha, w, b


@claim("eq-margin-at-bound", per_instance=True, chapter=CH, tol=1e-12,
       measure="KKT violation",
       statement=r"$x_\pm$ with $C = 2/\|x_+ - x_-\|^2$, and points beyond the margin: "
                 r"the optimum has $\alpha_\pm = C$ with $\xi_\pm = 0$ and $y_\pm "
                 r"f(x_\pm) = 1$, and $\alpha_i = 0$, $\xi_i = 0$, $y_i f(x_i) > 1$ "
                 r"elsewhere",
       errata=[
           Erratum(
               where="notes 002, slide \"Classification of training objects\" "
                     "(boundary support vectors)",
               says=r"boundary support vectors \"have $\xi_i = 0$ ($\Leftrightarrow "
                    r"r_i > 0 \Leftrightarrow \alpha_i \in (0, C) \Leftrightarrow "
                    r"y(w^\top x_i + w_0) = 1$)\"",
               correct=r"only $r_i > 0 \Leftrightarrow \alpha_i < C$ is an equivalence "
                       r"($r_i = C - \alpha_i$). The rest hold one way: $\alpha_i \in "
                       r"(0, C) \Rightarrow \xi_i = 0$ and $y_i f(x_i) = 1$, but a "
                       r"point on the margin ($\xi_i = 0$, $y_i f(x_i) = 1$) can have "
                       r"$\alpha_i = C$, hence $r_i = 0$ (or $\alpha_i = 0$). The "
                       r"claim's instances have two such points, with $\alpha_i = C$ "
                       r"the unique optimum, and, read over all objects, $\xi_i = 0$ "
                       r"also holds for every point beyond the margin, where $y_i "
                       r"f(x_i) > 1$."),
           Erratum(
               where="notes 002, slide \"Classification of training objects\"",
               says=r"non-informative objects have $\alpha_i = 0 \Leftrightarrow \xi_i "
                    r"= 0 \Leftrightarrow y_i f(x_i) \ge 1$, and violating support "
                    r"vectors have $\xi_i > 0 \Leftrightarrow \alpha_i = C$",
               correct=r"only one direction holds in each: $y_i f(x_i) > 1 \Rightarrow "
                       r"\alpha_i = 0 \Rightarrow y_i f(x_i) \ge 1$ and $\xi_i > 0 "
                       r"\Rightarrow \alpha_i = C$. A margin support vector has $\xi_i "
                       r"= 0$ and $y_i f(x_i) = 1$ but $\alpha_i > 0$, so \"$\xi_i = 0 "
                       r"\Rightarrow \alpha_i = 0$\" fails for every one of them (the "
                       r"chapter counts them on real data), and one with $\alpha_i = "
                       r"C$, as in the claim's instances, has $\xi_i = 0$.",
               foil="objects"),
       ],
       foil=r"the notes' chain $\xi_i = 0 \Leftrightarrow r_i > 0 \Leftrightarrow "
            r"\alpha_i \in (0, C) \Leftrightarrow y_i f(x_i) = 1$ (the fraction of "
            r"points where its members disagree)")
def eq_margin_at_bound(rng, foil=False):
    # The KKT conditions of the soft-margin problem at the closed-form optimum
    # (sufficient, the problem being convex). foil: the notes' chain of equivalences,
    # evaluated on the same optimum: the fraction of points where its members disagree.
    X, y, C, alpha, w, b = _margin_at_bound(rng)
    M = y * (X @ w + b)
    xi = np.maximum(0.0, 1 - M)
    r = C - alpha
    zero = 1e-9  # rounding of M on the margin is ~1e-15
    # the notes' alpha = 0 <=> xi = 0 <=> yf >= 1; xi > 0 <=> alpha = C
    if foil == "objects":
        chains = (np.stack([alpha <= zero, xi <= zero, M >= 1 - zero]),
                  np.stack([xi > zero, alpha >= C - zero]))
        return max(float(np.mean(np.any(ch != ch[0], axis=0))) for ch in chains)
    if foil:
        chain = np.stack([xi <= zero, r > 0, (alpha > 0) & (alpha < C),
                          np.abs(M - 1) <= zero])
        return float(np.mean(np.any(chain != chain[0], axis=0)))
    scale = max(1.0, np.abs(w).max())
    return max(np.abs(w - (alpha * y) @ X).max() / scale, abs(alpha @ y) / C,
               np.abs(alpha * (M - 1 + xi)).max() / C, np.abs(r * xi).max() / C,
               max(0.0, -alpha.min(), -r.min()) / C)


@claim("eq-hinge-normaliser", per_instance=True, chapter=CH, tol=1e-15,
       statement=r"$\sum_{y = \pm 1} e^{-\max(0, 1 - y f)} = e^{-\max(0, 1 - f)} + "
                 r"e^{-\max(0, 1 + f)}$, which depends on $f$: $2/e$ at $f = 0$, "
                 r"$1 + e^{-2}$ at $f = \pm 1$",
       errata=[Erratum(
           where="notes 002, slide 'Probabilistic interpretation'",
           says=r"the SVM objective is the MAP estimate for the likelihood $p(x_i, y_i "
                r"\mid w, w_0) = z_1 e^{-[1 - M_i]_+}$ with a constant $z_1$ and the "
                r"prior $p(w \mid C) = z_2 e^{-\|w\|^2 / (2C)}$",
           correct=r"$e^{-[1 - y f]_+}$ is not a likelihood with a constant "
                   r"normaliser: summed over $y = \pm 1$ it gives $Z(f) = e^{-[1 - "
                   r"f]_+} + e^{-[1 + f]_+}$, which is $2/e \approx 0.74$ at $f = 0$, "
                   r"$1 + e^{-2} \approx 1.14$ at $f = \pm 1$ and tends to 1 as $|f|$ "
                   r"grows. The objective is the negative log of an unnormalised "
                   r"pseudo-likelihood times the Gaussian prior; normalising changes "
                   r"the estimate (Sollich, 2002).")],
       foil=r"the notes' constant normaliser: $Z(f) = 2/e$ for every $f$",
       exact="losses.hinge is max(0, 1 - f): both sides are the same floating-point "
             "operations, and at f = 0, 1, -1 the sum rounds to 2/e and 1 + e^-2 "
             "exactly")
def eq_hinge_normaliser(rng, foil=False):
    # the sum over both labels from mlnotes.losses.hinge; foil: the notes' constant z_1,
    # i.e. the same normaliser for every f (its value at f = 0)
    from mlnotes import losses

    f = np.r_[rng.uniform(-3, 3, 200), 0.0, 1.0, -1.0]
    Z = np.exp(-losses.hinge(f)) + np.exp(-losses.hinge(-f))
    stated = np.full_like(f, 2 / np.e) if foil else (
        np.exp(-np.maximum(0, 1 - f)) + np.exp(-np.maximum(0, 1 + f)))
    ends = [Z[-3] - 2 / np.e, Z[-2] - (1 + np.exp(-2)), Z[-1] - (1 + np.exp(-2))]
    return max(rel_error(Z, stated), np.abs(ends).max())


@claim("eq-duality-gap", per_instance=True, chapter=CH, tol=0.0, measure="violation",
       statement=r"$\min e^{-x}$ s.t. $x^2 / y \le 0$, $y > 0$ is convex with $p^* = "
                 r"1$, but $\theta(\mu) = \inf_{x, y > 0} e^{-x} + \mu x^2 / y = 0$ "
                 r"for every $\mu \ge 0$: $d^* = 0 < p^*$ (the same gap in the example "
                 r"of notes 001's erratum)",
       errata=[Erratum(
           where="notes 000, section 4.2, after eq. (4.10)",
           says=r"if $f$, $h_i$, $f_i$ are convex and the primal and dual problems are "
                r"feasible, then $d^* = p^*$",
           correct=r"convexity and feasibility are not enough: a constraint "
                   r"qualification is needed, e.g. Slater's condition (affine $h_i$, "
                   r"convex $f_i$, and a point with $f_i(x) < 0$; affine $f_i$ need "
                   r"only be satisfied). Counterexample: $\min e^{-x}$ s.t. $x^2/y \le "
                   r"0$ over $y > 0$ is convex with $p^* = 1$, but $\theta(\mu) = "
                   r"\inf_{x, y > 0} e^{-x} + \mu x^2 / y = 0$ for every $\mu \ge 0$, "
                   r"so $d^* = 0$. The equality constraints $h_i$ must also be affine "
                   r"(convex $h_i = 0$ does not define a convex set)."),
           Erratum(
               where="notes 001, Lagrange duality, theorem (Karush-Kuhn-Tucker), p. "
                     "111",
               says=r"if $f$ and the $g_i$ are convex, the $h_i$ affine and the $g_i$ "
                    r"strictly feasible, $\exists \omega$ with $g_i(\omega) < 0$ for "
                    r"all $i$, then $d^* = p^* = \mathcal L(\omega^*, \alpha^*, "
                    r"\beta^*)$",
               correct=r"The strictly feasible point must also satisfy the equality "
                       r"constraints, $h_i(\omega) = 0$ (Slater's condition asks for a "
                       r"*feasible* point with $g_i < 0$). Counterexample: minimise "
                       r"$e^{-x}$ over $(x, y, z)$ subject to $g = \sqrt{x^2 + y^2} - "
                       r"y - z \le 0$ and $h = z = 0$. The point $(0, 0, 1)$ has $g = "
                       r"-1 < 0$, but on $z = 0$ the constraint $\sqrt{x^2 + y^2} \le "
                       r"y$ forces $x = 0$, so $p^* = 1$; the dual function is "
                       r"$-\infty$ unless $\beta = \alpha$, and then along $x = t$, $y "
                       r"= t^3$ the Lagrangian is $e^{-t} + \alpha(\sqrt{t^2 + t^6} - "
                       r"t^3) \to 0$: $d^* = 0$.",
               foil="notes 001")],
       foil=r"the notes' $d^* = p^*$ (convexity and feasibility suffice): "
            r"$\sup_\mu \theta(\mu) = 1$",
       exact="a violation max(0, .) of an upper bound on the dual function that holds "
             "by a margin of 1")
def eq_duality_gap(rng, foil=False):
    # The feasible set is x = 0 (any y > 0), so p* = 1. Along x = t, y = t^3 the
    # Lagrangian is e^{-t} + mu / t: the dual function is below its minimum over t up to
    # 1e9, at most about 1e-8 mu here. foil: the notes' d* = p* (convexity and
    # feasibility suffice), so theta(mu) would reach 1 for the best mu: the residual is
    # then how far below 1 it stays. Notes 001's example (g strictly feasible only off h
    # = 0): for beta = alpha the Lagrangian along x = t, y = t^3 is e^{-t} + alpha
    # (sqrt(t^2 + t^6) - t^3), the difference written t^2 / (sqrt(t^2 + t^6) + t^3) to
    # avoid cancellation; p* = 1 too.
    mu = float(np.exp(rng.uniform(np.log(1e-3), np.log(1e3))))
    t = np.logspace(0, 9, 2000)
    theta_upper = float(np.min(np.exp(-t) + mu * t**2 / t**3))
    theta_001 = float(np.min(np.exp(-t) + mu * t**2 / (np.sqrt(t**2 + t**6) + t**3)))
    if foil == "notes 001":
        return 1.0 - theta_001
    if foil:
        return 1.0 - theta_upper
    # d* <= theta_upper: the gap is at least 1 - 1e-5, in both examples
    return max(0.0, theta_upper - 1e-5, theta_001 - 1e-5)


# -- the joint (Crammer-Singer) multiclass machine ------------------------------------


def _cs_instance(rng, *, box: bool = False):
    """A multiclass instance and a dual point: each row of alpha on the simplex of
    total C (or, with ``box``, anywhere in [0, C]^K: the binary SVM's constraints)."""
    n, d, K = int(rng.integers(6, 15)), int(rng.integers(2, 5)), int(rng.integers(3, 6))
    X = rng.standard_normal((n, d))
    yi = rng.integers(0, K, n)
    C = float(rng.uniform(0.5, 2.0))
    alpha = rng.uniform(0, C, (n, K)) if box else C * rng.dirichlet(np.ones(K), n)
    return X, yi, K, C, alpha


def _cs_weights(alpha, X, yi, C, sign=1.0):
    """w_m = sum_i (C delta_{m y_i} - alpha_im) x_i, rows m (``sign=-1`` negates it)."""
    Beta = -alpha.copy()
    Beta[np.arange(X.shape[0]), yi] += C
    return sign * (Beta.T @ X)


def _cs_lagrangian(W, xi, alpha, X, yi, C):
    """L = 1/2 sum ||w_k||^2 + C sum xi
    - sum_ik alpha_ik (w_yi.x_i - w_k.x_i - 1 + delta_ik + xi_i)."""
    n = X.shape[0]
    S = X @ W.T
    delta = np.zeros_like(alpha)
    delta[np.arange(n), yi] = 1.0
    cons = S[np.arange(n), yi][:, None] - S - 1.0 + delta + xi[:, None]
    return 0.5 * np.sum(W * W) + C * xi.sum() - np.sum(alpha * cons)


@claim("eq-cs-stationarity", per_instance=True, chapter=CH, tol=1e-7,
       statement=r"$\nabla_{w_m} L = 0$ at $w_m = \sum_i (C\delta_{m y_i} - "
                 r"\alpha_{im})\, x_i$ when $\sum_k \alpha_{ik} = C$",
       foil=r"$w_m = \sum_i (\alpha_{im} - C\delta_{m y_i})\, x_i$ (the sign of the "
            r"multipliers' term turned)")
def eq_cs_stationarity(rng, foil=False):
    X, yi, K, C, alpha = _cs_instance(rng)
    W = _cs_weights(alpha, X, yi, C, -1.0 if foil else 1.0)
    xi = rng.standard_normal(X.shape[0])
    grad = numerical_gradient(
        lambda v: _cs_lagrangian(v.reshape(W.shape), xi, alpha, X, yi, C), W.ravel())
    return np.abs(grad).max() / max(1.0, np.abs(W).max())


@claim("eq-cs-dual", per_instance=True, chapter=CH, tol=1e-10,
       statement=r"$\min_{W, \xi} L = D(\alpha) = -\frac12 \sum_m \|w_m(\alpha)\|^2 + "
                 r"\sum_{i,k} \alpha_{ik} (1 - \delta_{k y_i})$ for every $\alpha$ "
                 r"with $\alpha_{ik} \ge 0$, $\sum_k \alpha_{ik} = C$",
       foil=r"the same for every $\alpha$ in the box $0 \le \alpha_{ik} \le C$ "
            r"(the binary SVM's constraints; but then $L$ still depends on $\xi$)")
def eq_cs_dual(rng, foil=False):
    X, yi, K, C, alpha = _cs_instance(rng, box=foil)
    W = _cs_weights(alpha, X, yi, C)
    D = svm.crammer_singer_dual(alpha, X, yi, C)
    # L at the stationary W, with slacks drawn at random: they must drop out
    xi = rng.standard_normal(X.shape[0])
    at_min = rel_error(_cs_lagrangian(W, xi, alpha, X, yi, C), D)
    # and it is the minimum over W: L is convex in W (its Hessian is the identity)
    others = min(_cs_lagrangian(W + rng.standard_normal(W.shape), np.zeros(X.shape[0]),
                                alpha, X, yi, C) for _ in range(10))
    return max(at_min, max(0.0, D - others) / max(1.0, abs(D)))


@claim("eq-cs-gap", per_instance=True, chapter=CH, tol=1e-12,
       statement=r"$P(W(\alpha)) - D(\alpha) = \sum_i \big(C \max_k g_{ik} - \sum_k "
                 r"\alpha_{ik} g_{ik}\big) \ge 0$, "
                 r"$g_{ik} = 1[k \ne y_i] + w_k^\top x_i - w_{y_i}^\top x_i$",
       foil=r"$P(W(\alpha)) - D(\alpha) = \sum_i \big(C \max_k g_{ik} - \sum_k "
            r"\alpha_{ik} 1[k \ne y_i]\big)$ (the weights' part of the gap, "
            r"$\sum_k \|w_k\|^2$, forgotten)")
def eq_cs_gap(rng, foil=False):
    X, yi, K, C, alpha = _cs_instance(rng)
    W = _cs_weights(alpha, X, yi, C)
    G = svm.multiclass_margins(W, X, yi)
    P = svm.crammer_singer_primal(W, X, yi, C)
    D = svm.crammer_singer_dual(alpha, X, yi, C)
    E = np.ones_like(alpha)
    E[np.arange(X.shape[0]), yi] = 0.0
    terms = C * G.max(axis=1) - np.sum(alpha * (E if foil else G), axis=1)
    scale = max(1.0, abs(P), abs(D))
    return max(abs(P - D - terms.sum()) / scale, max(0.0, -terms.min()) / scale)


@claim("eq-cs-block", per_instance=True, chapter=CH, tol=1e-8, measure="violation",
       statement=r"$\Pi_C(\alpha_i + g_i / \|x_i\|^2)$ maximises $D$ over sample $i$'s "
                 r"block, the others held fixed (compared with SLSQP on the block)",
       foil=r"$\Pi_C(\alpha_i + g_i)$ maximises it (the curvature $\|x_i\|^2$ of the "
            r"block left out of the step)")
def eq_cs_block(rng, foil=False):
    from scipy.optimize import minimize

    X, yi, K, C, alpha = _cs_instance(rng)
    X *= 2.0  # ||x_i||^2 away from 1, where the foil's step would happen to be right
    i = int(rng.integers(X.shape[0]))
    W = _cs_weights(alpha, X, yi, C)
    g = svm.multiclass_margins(W, X[i:i + 1], yi[i:i + 1])[0]
    step = 1.0 if foil else X[i] @ X[i]
    new = svm.project_simplex(alpha[i] + g / step, C)

    def D_block(a):
        A = alpha.copy()
        A[i] = a
        return svm.crammer_singer_dual(A, X, yi, C)

    best = minimize(lambda a: -D_block(a), np.full(K, C / K), method="SLSQP",
                    bounds=[(0, C)] * K,
                    constraints=[{"type": "eq", "fun": lambda a: a.sum() - C}],
                    options={"ftol": 1e-14, "maxiter": 500})
    return max(0.0, -best.fun - D_block(new)) / max(1.0, abs(best.fun))
