r"""Claims of Chapter 1: least squares, ridge and lasso.

Each function checks one labelled equation of ``notebooks/01_linear_regression.py`` on
random instances (or symbolically) and returns one residual per instance.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize_scalar
from scipy.stats import laplace, norm

from mlnotes import linear
from mlnotes.check import numerical_gradient, rel_error
from mlnotes.claims import Erratum, claim

CH = "01_linear_regression"


def _problem(rng, n=None, d=None):
    n = int(rng.integers(15, 40)) if n is None else n
    d = int(rng.integers(2, 8)) if d is None else d
    X = rng.standard_normal((n, d)) * rng.uniform(0.5, 3.0, size=d)
    y = X @ rng.standard_normal(d) + rng.standard_normal(n)
    return X, y


@claim(
    "eq-normal-equations", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"the minimiser of $\|y - Xw\|^2$ solves $X^\top X w = X^\top y$",
    foil=r"the minimiser solves $X^\top X w = 2X^\top y$ (the gradient's 2 kept on one "
         r"side)",
)
def eq_normal_equations(rng, foil=False):
    X, y = _problem(rng)
    w = np.linalg.lstsq(X, y, rcond=None)[0]
    rhs = 2 * X.T @ y if foil else X.T @ y
    s = np.linalg.norm(X, 2)
    scale = s**2 * np.linalg.norm(w) + s * np.linalg.norm(y)
    return np.linalg.norm(rhs - X.T @ X @ w) / scale


@claim(
    "eq-hat-matrix", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"$H = X(X^\top X)^{-1}X^\top$ is symmetric, $H^2 = H$, and $X^\top(y - "
              r"Hy) = 0$",
    foil=r"$H = XX^\top$ (the inverse left out) is symmetric, $H^2 = H$, and $X^\top(y "
         r"- Hy) = 0$",
)
def eq_hat_matrix(rng, foil=False):
    X, y = _problem(rng)
    H = X @ X.T if foil else X @ np.linalg.solve(X.T @ X, X.T)
    e = y - H @ y
    return max(
        np.linalg.norm(H - H.T), np.linalg.norm(H @ H - H),
        np.linalg.norm(X.T @ e) / (np.linalg.norm(X) * np.linalg.norm(y)),
    )


@claim(
    "eq-interpolation", per_instance=True, chapter=CH, tol=1e-10,
    statement=r"if $\operatorname{rank} X = n \le d$, the least-squares fit "
              r"interpolates: $Xw = y$",
    foil=r"if $\operatorname{rank} X = d \le n$, the least-squares fit interpolates: "
         r"$Xw = y$",
)
def eq_interpolation(rng, foil=False):
    m = int(rng.integers(3, 12))
    n, d = m, m + int(rng.integers(0, 6))
    X, y = _problem(rng, n=d, d=n) if foil else _problem(rng, n=n, d=d)
    fit = linear.least_squares(X, y)
    return np.linalg.norm(X @ fit.w - y) / np.linalg.norm(y)


@claim(
    "eq-two-point", chapter=CH, tol=0, symbolic=True,
    statement=r"$X = \begin{bmatrix}0 & 1\\ \epsilon & 1\end{bmatrix}$, $y = (1, -1)$ "
    r"give $w = (-2/\epsilon,\ 1)$",
    foil=r"the same $X$ and $y$ give $w = (2/\epsilon,\ 1)$ (a sign)",
)
def eq_two_point(rng, n, foil=False):
    import sympy as sp
    eps = sp.symbols("epsilon", positive=True)
    X = sp.Matrix([[0, 1], [eps, 1]])
    y = sp.Matrix([1, -1])
    w = (X.T * X).inv() * X.T * y
    stated = sp.Matrix([2 / eps, 1]) if foil else sp.Matrix([-2 / eps, 1])
    return float(sp.simplify((w - stated).norm()) != 0)


@claim(
    "eq-cond-squared", per_instance=True, chapter=CH, tol=1e-8,
    statement=r"$\operatorname{cond}(X^\top X) = \operatorname{cond}(X)^2$",
    foil=r"$\operatorname{cond}(X^\top X) = \operatorname{cond}(X)$ (the square lost)",
)
def eq_cond_squared(rng, foil=False):
    m, d = int(rng.integers(10, 30)), int(rng.integers(2, 8))
    U = np.linalg.qr(rng.standard_normal((m, d)))[0]
    V = np.linalg.qr(rng.standard_normal((d, d)))[0]
    sv = np.logspace(0, rng.uniform(0, 3), d)
    X = (U * sv) @ V.T
    stated = np.linalg.cond(X) ** (1 if foil else 2)
    return abs(np.linalg.cond(X.T @ X) - stated) / np.linalg.cond(X) ** 2


@claim(
    "eq-svd-fit", per_instance=True, chapter=CH, tol=1e-10,
    statement=r"$\hat w = V D^{-1} U^\top y$ and $\hat y = X \hat w = U U^\top y$",
    errata=[
        Erratum(
            where="notes 000, section 2.3, the interpretation of $\\hat y = UU^\\top "
                  "y$",
            says=r"\"$U$ forms an orthonormal basis for a subspace of $R^M$\"; and the "
            r"middle line ends in $V^\top D^\top U y$",
            correct=r"$U$ is $N \times M$: its columns are an orthonormal basis of the "
                    r"column space "
            r"of $X$, a subspace of $\mathbb{R}^N$ (the space of the targets). The "
            r"middle line "
            r"should end in $V D^\top U^\top y$ (the transpose of $X = UDV^\top$ is "
            r"$VD^\top U^\top$).",
        ),
    ],
    foil=r"the notes' transpose of $X = UDV^\top$, $V^\top D^\top U$: "
    r"$\hat w = V^\top D^{-1} U^\top y$",
)
def eq_svd_fit(rng, foil=False):
    X, y = _problem(rng)
    U, sv, Vt = np.linalg.svd(X, full_matrices=False)
    w = (Vt if foil else Vt.T) @ ((U.T @ y) / sv)
    # w_ref from the normal equations carries an error of about cond(X)^2 eps; cond(X)
    # is at most a few tens here, hence the tolerance 1e-10 rather than a few eps.
    w_ref = np.linalg.solve(X.T @ X, X.T @ y)
    return max(rel_error(w, w_ref), rel_error(X @ w, U @ (U.T @ y)))


# -- ridge -----------------------------------------------------------------------------


@claim(
    "eq-ridge-gradient", per_instance=True, chapter=CH, tol=1e-7,
    statement=r"$\nabla_w \big(\|y - Xw\|^2 + \lambda\|w\|^2\big) = -2X^\top(y - Xw) + "
              r"2\lambda w$",
    errata=[Erratum(
        where="notes 000, section 2.1.1, the derivative of $E_{Ridge}$",
        says=r"$\partial E_{Ridge} / \partial w_i = \lambda w_i + \sum_i -2(y^i - "
             r"Xw)^\top w_i$, "
        r"introduced as \"the logistic regression case\"",
        correct=r"$\partial E_{Ridge} / \partial w_i = 2\lambda w_i - 2 x_{\cdot "
                r"i}^\top (y - Xw)$, "
        r"with $x_{\cdot i}$ the $i$-th column of $X$: the derivative of $\lambda "
        r"w_i^2$ is "
        r"$2\lambda w_i$, and the data term pairs the residual with a column of $X$, "
        r"not with "
        r"$w_i$. The comparison is with ridge, not logistic, regression.",
    )],
    foil=r"the notes' penalty term: $\nabla_w \big(\|y - Xw\|^2 + \lambda\|w\|^2\big) "
         r"= "
    r"-2X^\top(y - Xw) + \lambda w$",
)
def eq_ridge_gradient(rng, foil=False):
    X, y = _problem(rng)
    lam = rng.uniform(0.1, 10)
    w = rng.standard_normal(X.shape[1])
    J = lambda v: np.sum((y - X @ v) ** 2) + lam * v @ v  # noqa: E731
    penalty = lam * w if foil else 2 * lam * w
    return rel_error(numerical_gradient(J, w), -2 * X.T @ (y - X @ w) + penalty)


@claim(
    "eq-ridge-solution", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"$w_\lambda = (X^\top X + \lambda I)^{-1} X^\top y$ zeroes the ridge "
              r"gradient",
    foil=r"$w_\lambda = (X^\top X + 2\lambda I)^{-1} X^\top y$ (the 2 of the penalty's "
    r"gradient kept) zeroes the ridge gradient",
)
def eq_ridge_solution(rng, foil=False):
    X, y = _problem(rng)
    lam = 10 ** rng.uniform(-3, 2)
    if foil:
        w = np.linalg.solve(X.T @ X + 2 * lam * np.eye(X.shape[1]), X.T @ y)
    else:
        w = linear.ridge(X, y, lam=lam).w
    g = -2 * X.T @ (y - X @ w) + 2 * lam * w
    return np.linalg.norm(g) / (2 * np.linalg.norm(X.T @ y))


@claim(
    "eq-ridge-eigenvalues", per_instance=True, chapter=CH, tol=0, measure="violation",
    statement=r"every eigenvalue of $X^\top X + \lambda I$ is at least $\lambda$",
    errata=[Erratum(
        where="notes 003, section 1.3, Proposition 1.3.5 and its proof",
        kind="clarification",
        says=r"$XX^\top + n\lambda I$ is far from rank-deficient \"for large "
             r"$\lambda$\"; $\Sigma^2 + n\lambda I$ has strictly positive entries "
             r"\"for sufficiently large $\lambda$\", so the matrix \"has full rank and "
             r"thus no singular values\"",
        correct=r"True as stated, but the qualifier misleads: for **every** $\lambda > "
                r"0$ the eigenvalues $\sigma_j^2 + n\lambda$ are at least $n\lambda > "
                r"0$, so the matrix is invertible however small $\lambda$ is. \"No "
                r"singular values\" means no **zero** singular values (every matrix "
                r"has singular values; here the smallest is $\ge n\lambda$). What "
                r"large $\lambda$ buys is a better condition number, $(\sigma_1^2 + "
                r"n\lambda)/(\sigma_d^2 + n\lambda)$.",
    )],
    # a clarification (the notes' "for large lambda" qualifies a true
    # statement): the foil doubles the bound
    foil=r"every eigenvalue of $X^\top X + \lambda I$ is at least $2\lambda$",
    exact="a violation max(0, lam - slack - min eigenvalue): 0 whenever the bound "
          "holds",
)
def eq_ridge_eigenvalues(rng, foil=False):
    # rank-deficient X (duplicated columns) is the case that matters
    X, _ = _problem(rng, d=int(rng.integers(2, 6)))
    X = np.column_stack([X, X[:, :2]])
    lam = 10 ** rng.uniform(-4, 2)
    ev = np.linalg.eigvalsh(X.T @ X + lam * np.eye(X.shape[1]))
    # eigvalsh is backward stable: allow its rounding, eps * |X^T X|, and nothing more
    slack = 10 * np.finfo(float).eps * np.linalg.norm(X, 2) ** 2
    bound = 2 * lam if foil else lam
    return max(0.0, bound - slack - ev.min())


@claim(
    "eq-ridge-shrinkage", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"$X w_\lambda = \sum_j u_j \frac{d_j^2}{d_j^2 + \lambda} u_j^\top y$",
    foil=r"$X w_\lambda = \sum_j u_j \frac{d_j}{d_j + \lambda} u_j^\top y$ (singular "
         r"values "
    r"for their squares)",
)
def eq_ridge_shrinkage(rng, foil=False):
    X, y = _problem(rng)
    lam = 10 ** rng.uniform(-2, 2)
    U, sv, _ = np.linalg.svd(X, full_matrices=False)
    d2 = sv if foil else sv**2
    fit = U @ (d2 / (d2 + lam) * (U.T @ y))
    w = np.linalg.solve(X.T @ X + lam * np.eye(X.shape[1]), X.T @ y)
    return rel_error(X @ w, fit)


@claim(
    "eq-ridge-dof", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"$\operatorname{tr} X(X^\top X + \lambda I)^{-1}X^\top = \sum_j "
              r"d_j^2/(d_j^2 + \lambda)$",
    foil=r"$\operatorname{tr} X(X^\top X + \lambda I)^{-1}X^\top = \sum_j d_j/(d_j + "
         r"\lambda)$ "
    r"(singular values for their squares)",
)
def eq_ridge_dof(rng, foil=False):
    X, _ = _problem(rng)
    lam = 10 ** rng.uniform(-2, 2)
    H = X @ np.linalg.solve(X.T @ X + lam * np.eye(X.shape[1]), X.T)
    if foil:
        sv = np.linalg.svd(X, compute_uv=False)
        dof = np.sum(sv / (sv + lam))
    else:
        dof = linear.ridge_dof(X, lam)
    return abs(np.trace(H) - dof) / X.shape[1]


@claim(
    "eq-ridge-augmented", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"$\|y - Xw\|^2 + \lambda\|w\|^2 = \|\tilde y - \tilde X w\|^2$ with "
    r"$\tilde X = [X; \sqrt\lambda I]$, $\tilde y = [y; 0]$",
    foil=r"the same with $\tilde X = [X; \lambda I]$ (the square root lost)",
)
def eq_ridge_augmented(rng, foil=False):
    X, y = _problem(rng)
    d = X.shape[1]
    lam = 10 ** rng.uniform(-2, 2)
    w = rng.standard_normal(d)
    Xa = np.vstack([X, (lam if foil else np.sqrt(lam)) * np.eye(d)])
    ya = np.concatenate([y, np.zeros(d)])
    lhs = np.sum((y - X @ w) ** 2) + lam * w @ w
    w_aug = np.linalg.lstsq(Xa, ya, rcond=None)[0]
    return max(abs(lhs - np.sum((ya - Xa @ w) ** 2)) / lhs,
                   rel_error(w_aug, linear.ridge(X, y, lam=lam).w))


@claim(
    "eq-ridge-dual", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"$(X^\top X + \lambda I_d)^{-1} X^\top y = X^\top (X X^\top + \lambda "
              r"I_n)^{-1} y$",
    foil=r"$(X^\top X + \lambda I_d)^{-1} X^\top y = X^\top (X X^\top + \lambda^2 "
         r"I_n)^{-1} y$ "
    r"(the kernel side regularised with $\lambda^2$)",
)
def eq_ridge_dual(rng, foil=False):
    X, y = _problem(rng, n=int(rng.integers(3, 15)), d=int(rng.integers(3, 15)))
    lam = 10 ** rng.uniform(-1, 2)
    primal = np.linalg.solve(X.T @ X + lam * np.eye(X.shape[1]), X.T @ y)
    lam_n = lam**2 if foil else lam
    dual = X.T @ np.linalg.solve(X @ X.T + lam_n * np.eye(X.shape[0]), y)
    return rel_error(primal, dual)


# -- lasso -----------------------------------------------------------------------------


@claim(
    "eq-soft-threshold", per_instance=True, chapter=CH, tol=1e-14, measure="violation",
    statement=r"$\arg\min_w \tfrac12 (w - z)^2 + t|w| = \operatorname{sign}(z)\max(|z| "
              r"- t, 0)$",
    foil=r"$\arg\min_w \tfrac12 (w - z)^2 + t|w| = \max(z - t, 0)$ (the sign lost)",
)
def eq_soft_threshold(rng, foil=False):
    # S(z, t) must do at least as well as Brent's method on the (non-smooth)
    # scalar objective and as the kink w = 0: the violation f(S) -
    # min(f(Brent), f(0)), relative, is rounding (~1e-16) when S is the
    # minimiser; a wrong formula loses by far more.
    z, t = rng.normal(0, 3), rng.uniform(0, 3)

    def f(w, z=z, t=t):
        return 0.5 * (w - z) ** 2 + t * abs(w)

    brent = minimize_scalar(f, bounds=(-10, 10), method="bounded",
                            options={"xatol": 1e-12}).x
    best = min(f(brent), f(0.0))
    S = max(z - t, 0.0) if foil else float(linear.soft_threshold(z, t))
    return max(0.0, f(S) - best) / max(best, 1e-300)


@claim(
    "eq-lasso-subgradient", per_instance=True, chapter=CH, tol=1e-6,
    statement=r"$w$ minimises $\|y - Xw\|^2 + \lambda\|w\|_1$ iff $2x_j^\top(y - Xw) = "
    r"\lambda\,\operatorname{sign}(w_j)$ for $w_j \ne 0$ and $|2x_j^\top(y - Xw)| \le "
    r"\lambda$ "
    r"for $w_j = 0$",
    errata=[Erratum(
        where="notes 000, section 2.1.1, eq. (2.9) and the derivative below it",
        says=r"$E_{Lasso} = \sum_{i=1}^N (y^i - Xw)^\top(y - Xw) + \lambda \sum_k "
             r"|w_k|$ and "
        r"$\partial E_{Lasso}/\partial w_i = \lambda\,\mathrm{sign}(w_i) + "
        r"\sum_{i=1}^N "
        r"-2(y^i - Xw)^\top w_i$",
        correct=r"$E_{Lasso} = (y - Xw)^\top(y - Xw) + \lambda\sum_k |w_k|$ (the sum "
                r"over $i$ "
        r"is already inside the inner product), and for $w_i \ne 0$, "
        r"$\partial E_{Lasso}/\partial w_i = \lambda\,\mathrm{sign}(w_i) - 2x_{\cdot "
        r"i}^\top(y - Xw)$. "
        r"At $w_i = 0$ the objective is not differentiable: the subdifferential is the "
        r"interval "
        r"$-2x_{\cdot i}^\top(y - Xw) + [-\lambda, \lambda]$, and $w_i = 0$ is optimal "
        r"exactly "
        r"when it contains 0. That interval, not the sign, is why the lasso gives "
        r"exact zeros.",
    )],
    foil=r"the notes' derivative, used at $w_j = 0$ too: $2x_j^\top(y - Xw) = "
    r"\lambda\,\operatorname{sign}(w_j)$ for every $j$, with $\operatorname{sign}(0) = "
    r"0$",
)
def eq_lasso_subgradient(rng, foil=False):
    X, y = _problem(rng)
    lam = rng.uniform(0.05, 0.8) * linear.lasso_lambda_max(X, y)
    w = linear.lasso(X, y, lam=lam).w
    g = 2 * X.T @ (y - X @ w)
    nz = np.ones_like(w, dtype=bool) if foil else w != 0
    viol = np.concatenate([np.abs(g[nz] - lam * np.sign(w[nz])),
                           np.maximum(np.abs(g[~nz]) - lam, 0)])
    return viol.max() / lam


@claim(
    "eq-lasso-coordinate", per_instance=True, chapter=CH, tol=1e-13,
       measure="violation",
    statement=r"$\arg\min_{w_j} J(w) = S(x_j^\top r_{(j)}, \lambda/2) / \|x_j\|^2$ "
              r"with the other "
    r"coordinates fixed",
    foil=r"$\arg\min_{w_j} J(w) = S(x_j^\top r_{(j)}, \lambda) / \|x_j\|^2$ (the "
         r"threshold "
    r"not halved)",
)
def eq_lasso_coordinate(rng, foil=False):
    X, y = _problem(rng)
    d = X.shape[1]
    lam = rng.uniform(0.05, 1.0) * linear.lasso_lambda_max(X, y)
    w = rng.standard_normal(d)
    j = int(rng.integers(d))
    xj = X[:, j]
    r_j = y - X @ w + xj * w[j]
    threshold = lam if foil else lam / 2
    update = float(linear.soft_threshold(xj @ r_j, threshold)) / (xj @ xj)

    def J(t, w=w, j=j, lam=lam, X=X, y=y):
        v = w.copy()
        v[j] = t
        return np.sum((y - X @ v) ** 2) + lam * np.abs(v).sum()

    # As for the soft-threshold: the update must do at least as well as Brent's method
    # on J along coordinate j and as w_j = 0; the violation is relative to J, whose
    # evaluation rounds at about n * eps ~ 1e-14.
    scale = 10 * (abs(update) + 1)
    brent = minimize_scalar(J, bounds=(-scale, scale), method="bounded",
                            options={"xatol": 1e-12}).x
    best = min(J(brent), J(0.0))
    return max(0.0, J(update) - best) / best


@claim(
    "eq-lasso-lambda-max", per_instance=True, chapter=CH, tol=0, measure="violation",
    statement=r"the lasso solution is $w = 0$ iff $\lambda \ge \lambda_{\max} = "
              r"2\|X^\top y\|_\infty$; with the logistic loss, $\frac1C > \sum_j "
              r"|x_{ji}|$ gives $w_i = 0$",
    errata=[Erratum(
        where="notes 002, slide \"$L_1$ norm\"",
        says=r"if $\frac1C > \sup_w \left|\frac{\partial \mathcal L(w)}{\partial "
             r"w_i}\right|$, "
        r"then it becomes optimal to set $w_i = 0$",
        correct=r"A correct sufficient condition, for any differentiable loss: if the "
        r"penalty's slope $\frac1C$ exceeds every slope the loss can have in $w_i$, "
        r"moving $w_i$ towards 0 always lowers $Q$, so the optimum has $w_i = 0$. How "
        r"much it says depends on the loss. For the squared loss the slope grows "
        r"without bound, the supremum is infinite and the condition never holds; the "
        r"test that decides looks at the optimum itself ($w = 0$ is optimal iff "
        r"$\frac1C \ge \|\nabla \mathcal L(0)\|_\infty$, here $\lambda \ge 2\|X^\top "
        r"y\|_\infty$). For the logistic loss $|\partial \mathcal L / \partial w_i| "
        r"\le \sum_j |x_{ji}|$, so $\frac1C > \sum_j |x_{ji}|$ does force $w_i = 0$: "
        r"the claim fits L1-penalised logistic regression with $\frac1C = 1.1\sum_j "
        r"|x_{j2}|$ from a random start (proximal gradient) and finds $w_2 = 0$ "
        r"exactly, at a point that meets the optimality conditions, while other "
        r"weights stay nonzero.",
        kind="clarification",
    )],
    # the notes' sup over all w is infinite, nothing to evaluate: the foil drops the 2
    foil=r"the lasso solution is $w = 0$ iff $\lambda \ge \|X^\top y\|_\infty$",
    exact="counts events: a nonzero lasso solution above lambda_max and a zero one "
          "below; an L1-logistic fit with w_2 != 0, all-zero, or not optimal",
)
def eq_lasso_lambda_max(rng, foil=False):
    X, y = _problem(rng)
    lam_max = (1 if foil else 2) * np.max(np.abs(X.T @ y))
    above = linear.lasso(X, y, lam=lam_max * (1 + 1e-9)).w
    below = linear.lasso(X, y, lam=lam_max * 0.99).w
    # notes 002's condition with the logistic loss: the third column, small
    # and informative, is penalised by 1/C = 1.1 sum_j |x_j2| > sup
    # |dL/dw_2|, so its weight must be 0
    m = int(rng.integers(20, 60))
    Z = rng.standard_normal((m, 3)) * np.array([1.0, 1.0, 0.1])
    t = np.where(rng.random(m) < 1 / (1 + np.exp(-Z @ np.array([2.0, -2.0, 20.0]))),
                 1.0, -1.0)
    w, kkt = _l1_logistic(Z, t, 1.1 * np.abs(Z[:, 2]).sum(), rng.standard_normal(3))
    logistic = float(w[2] != 0) + float(np.all(w == 0)) + float(kkt > 1e-9)
    return float(np.any(above != 0)) + float(np.all(below == 0)) + logistic


def _l1_logistic(X, y, lam, w0, n_iter=3000):
    """min sum_i ln(1 + exp(-y_i x_i.w)) + lam |w|_1 by proximal gradient from ``w0``;
    the fit and its violation of the optimality conditions (subgradient inclusion)."""
    L = np.linalg.norm(X, 2) ** 2 / 4  # Lipschitz constant of the loss's gradient
    w = w0.copy()
    for _ in range(n_iter):
        v = w + X.T @ (y / (1 + np.exp(y * (X @ w)))) / L
        w = np.sign(v) * np.maximum(np.abs(v) - lam / L, 0.0)
    g = -X.T @ (y / (1 + np.exp(y * (X @ w))))
    kkt = np.where(w != 0, np.abs(g + lam * np.sign(w)),
                   np.maximum(0.0, np.abs(g) - lam))
    return w, float(kkt.max())


# -- MAP -------------------------------------------------------------------------------


@claim(
    "eq-map-ridge", per_instance=True, chapter=CH, tol=1e-6,
    statement=r"with $y \sim N(Xw, \sigma^2 I)$ and $w \sim N(0, \tau^2 I)$ the MAP "
              r"estimate is "
    r"ridge with $\lambda = \sigma^2/\tau^2$",
    foil=r"the MAP estimate is ridge with $\lambda = \tau^2/\sigma^2$ (the ratio "
         r"inverted)",
)
def eq_map_ridge(rng, foil=False):
    # The gradient of the log posterior, written with scipy.stats densities
    # (not our algebra), vanishes at the ridge solution; finite differences
    # limit this to about 1e-8 relative.
    X, y = _problem(rng)
    sigma, tau = rng.uniform(0.5, 2), rng.uniform(0.3, 3)
    w = linear.ridge(X, y, lam=tau**2 / sigma**2 if foil else sigma**2 / tau**2).w

    def log_post(v, X=X, y=y, sigma=sigma, tau=tau):
        return norm.logpdf(y, X @ v, sigma).sum() + norm.logpdf(v, 0, tau).sum()

    g = numerical_gradient(log_post, w)
    scale = np.linalg.norm(X.T @ y) / sigma**2
    return np.linalg.norm(g) / scale


@claim(
    "eq-map-lasso", per_instance=True, chapter=CH, tol=1e-9, measure="violation",
    statement=r"with $y \sim N(Xw, \sigma^2 I)$ and Laplace($0, \beta$) weights the "
              r"MAP estimate is "
    r"the lasso with $\lambda = 2\sigma^2/\beta$",
    foil=r"the MAP estimate is the lasso with $\lambda = \sigma^2/\beta$ (the 2 of the "
    r"Gaussian's exponent lost)",
    exact="a violation max(0, base - best nearby): no nearby point beats the MAP "
          "estimate",
)
def eq_map_lasso(rng, foil=False):
    # The negative log posterior (scipy.stats densities) at the lasso solution is no
    # larger than at 200 random nearby points; the violation is relative to its
    # value. The lasso stops at a relative duality gap of 1e-12, so violations above
    # ~1e-10 would mean a wrong lambda.
    X, y = _problem(rng)
    sigma, beta = rng.uniform(0.5, 2), rng.uniform(0.05, 0.5)
    w = linear.lasso(X, y, lam=(1 if foil else 2) * sigma**2 / beta).w

    def nlp(V, X=X, y=y, sigma=sigma, beta=beta):  # one candidate w per row of V
        return -(norm.logpdf(y, V @ X.T, sigma).sum(axis=1)
                 + laplace.logpdf(V, 0, beta).sum(axis=1))

    base = nlp(w[None])[0]
    deltas = rng.standard_normal((200, w.size)) * 10.0 ** rng.uniform(-4, -1,
                                                                      size=(200, 1))
    worst = np.min(nlp(w + deltas)) - base
    return max(0.0, -worst) / abs(base)


# -- bias and variance -----------------------------------------------------------------


@claim(
    "eq-bias-variance", per_instance=True, chapter=CH, tol=5,
       measure="Monte Carlo std. errors",
    n_instances=5, n_test_instances=40,
    statement=r"$\mathbb{E}(y_0 - \hat g(x_0))^2 = \sigma^2 + (g(x_0) - \mathbb{E}\hat "
              r"g(x_0))^2 + "
    r"\operatorname{Var}\hat g(x_0)$",
    foil=r"$\mathbb{E}(y_0 - \hat g(x_0))^2 = (g(x_0) - \mathbb{E}\hat g(x_0))^2 + "
    r"\operatorname{Var}\hat g(x_0)$ (the noise left out)",
    tol_reason="a Monte Carlo mean: the residual is in standard errors, and 5 of them "
               "are "
    "exceeded with probability 6e-7; the foil misses by sigma^2, some 40 of them, so "
    "the "
    "margin is 5, not 100 (that would take 150 times the 4000 repetitions)",
    foil_margin=5,
)
def eq_bias_variance(rng, foil=False):
    # Monte Carlo estimate of the left side (fresh training sets and fresh y_0) against
    # the right side in closed form (ridge is linear in y for a fixed design: E g_hat =
    # a^T g(X), Var g_hat = sigma^2 |a|^2 with a = X (X^T X + lam I)^{-1} x_0).
    # Residual in standard errors of the Monte Carlo mean; 5 standard errors is
    # exceeded with probability 6e-7.
    reps = 4000
    m, d = 30, 5
    X = rng.standard_normal((m, d))
    beta = rng.standard_normal(d)
    g = lambda Z: Z @ beta + 0.5 * np.sin(3 * Z[:, 0])  # noqa: E731
    x0 = rng.standard_normal((1, d))
    sigma, lam = rng.uniform(0.5, 1.5), 10 ** rng.uniform(-1, 1.5)
    a = X @ np.linalg.solve(X.T @ X + lam * np.eye(d), x0[0])
    g0 = g(x0)[0]
    bias2 = (g0 - a @ g(X)) ** 2
    var = sigma**2 * a @ a
    Y = g(X) + sigma * rng.standard_normal((reps, m))
    # one column per training set
    W = np.linalg.solve(X.T @ X + lam * np.eye(d), X.T @ Y.T)
    y0 = g0 + sigma * rng.standard_normal(reps)
    sq = (y0 - x0 @ W) ** 2
    se = sq.std(ddof=1) / np.sqrt(reps)
    noise = 0.0 if foil else sigma**2
    return abs(sq.mean() - (noise + bias2 + var)) / se


# -- checks that discriminate the notes' statements (errata) ---------------------------


@claim(
    "eq-svd-eigen", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"$X^\top X\, V = V D^2$: the columns of $V$ are eigenvectors of $X^\top "
    r"X$, with eigenvalues $d_j^2$",
    errata=[Erratum(
        where="notes 000, section 2.3, after eq. (2.14)",
        says=r"\"so $V$ will contain the eigenvalues of the covariance matrix of the "
             r"data\"",
        correct=r"$X^\top X = V D^2 V^\top$ is an eigendecomposition: the columns of "
        r"$V$ are the **eigenvectors** of $X^\top X$ and its eigenvalues are $d_j^2$ "
        r"(divide by $N$ for the covariance of centred data).",
    )],
    foil=r"the notes' reading, $V$ holds the eigenvalues (here its diagonal): "
    r"$X^\top X\, V = V \operatorname{diag}(V)$",
)
def eq_svd_eigen(rng, foil=False):
    # foil: the notes' reading, V holds the eigenvalues (here its diagonal)
    X, _ = _problem(rng)
    _, sv, Vt = np.linalg.svd(X, full_matrices=False)
    V = Vt.T
    eigenvalues = np.diag(V) if foil else sv**2
    G = X.T @ X
    return np.linalg.norm(G @ V - V * eigenvalues) / np.linalg.norm(G)


@claim(
    "eq-svd-full", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"for $n > d$ the full SVD is $X = U_n D_n V^\top$ with $U_n$ orthogonal "
    r"$n \times n$ and $D_n$ $n \times d$: $\operatorname{diag}(d_1, \dots, d_d)$ "
    r"above $n - d$ rows of zeros",
    errata=[Erratum(
        where="notes 000, section 2.3, footnote 1, eq. (2.13)",
        says=r"for $N > M$, $D = [\mathrm{diag}(d_1, \dots, d_N) \mid (0)_{N \times "
             r"N-M}]$",
        correct=r"for $N > M$ the full $D$ is $N \times M$ (as the line above it "
        r"says): $\mathrm{diag}(d_1, \dots, d_M)$ on top of an $(N - M) \times M$ "
        r"block of zeros. There are only $M$ singular values, and the printed $D$, $N "
        r"\times (2N - M)$, cannot stand between $U$ ($N \times N$) and $V^\top$ ($M "
        r"\times M$).",
    ), Erratum(
        where="notes 000, section 2.3, the SVD $X = UDV^\top$ with $U$ $N \times M$ "
              "and $D$, $V$ $M \times M$",
        says=r"$D = \mathrm{diag}(d_1, \dots, d_{\min(M,N)}, 0, \dots, 0)$ with "
             r"$\max(M - N, 0)$ zeros, \"while the columns of $U$ and $V$ are "
             r"orthogonal and unit-norm\"",
        correct=r"For $M > N$ (more features than points, the case the $\max(M - N, "
                r"0)$ zeros are there for) no $N \times M$ matrix has orthonormal "
                r"columns: $M$ orthonormal vectors do not fit in $\mathbb{R}^N$, and "
                r"$\|U^\top U - I_M\|_F \ge \sqrt{M - N}$ for every $U$. The thin SVD "
                r"then keeps $\min(M, N) = N$ columns: $U$ $N \times N$, $D$ $N \times "
                r"N$, $V$ $M \times N$. The notes' shapes hold for $N \ge M$, the case "
                r"the section goes on to use.",
        foil="wide",
    )],
    foil=r"the notes' $D = [\operatorname{diag}(d_1, \dots, d_N) \mid 0_{N \times (N - "
    r"M)}]$, $N \times (2N - M)$: $U D V^\top$ is undefined",
)
def eq_svd_full(rng, foil=False):
    X, _ = _problem(rng)
    # the notes' thin SVD of the wide X^T (M > N): U is N x M, D M x M
    if foil == "wide":
        Xw = X.T
        n, d = Xw.shape
        U, sv, Vt = np.linalg.svd(Xw, full_matrices=True)
        # any further M - N columns: not orthonormal
        U = np.hstack([U, np.zeros((n, d - n))])
        D = np.diag(np.r_[sv, np.zeros(d - n)])
        return max(np.linalg.norm(Xw - U @ D @ Vt) / np.linalg.norm(Xw),
                   np.linalg.norm(U.T @ U - np.eye(d)))
    n, d = X.shape
    U, sv, Vt = np.linalg.svd(X, full_matrices=True)
    # the notes' D: diag of N values (only d exist; the rest 0), then N - M zero columns
    if foil:
        D = np.hstack([np.diag(np.r_[sv, np.zeros(n - d)]), np.zeros((n, n - d))])
    else:
        D = np.vstack([np.diag(sv), np.zeros((n - d, d))])
    if D.shape != (n, d):
        return np.inf  # U D V^T is not even defined
    return max(np.linalg.norm(X - U @ D @ Vt) / np.linalg.norm(X),
               np.linalg.norm(U.T @ U - np.eye(n)))


@claim(
    "eq-ridge-unsquared", per_instance=True, chapter=CH, tol=1e-10, measure="violation",
    n_instances=10, n_test_instances=100,
    statement=r"$\arg\min_w \|y - Xw\|^2 + \tau\|w\|_2$ is $0$ if "
    r"$\tau \ge 2\|X^\top y\|_2$, and otherwise the ridge solution $w_\lambda$ with "
    r"$\lambda = \tau / (2\|w_\lambda\|_2)$",
    errata=[Erratum(
        where="notes 002, slide \"Regularization\"",
        says=r"$Q^{regularized}(w) = Q(w) + \tau\|w\|_2$ with "
        r"$\|w\|_2 = \sqrt{\sum_d (w^d)^2}$; \"Ridge: least-squares regression, using "
        r"$\|w\|_2$\"",
        correct=r"Ridge penalises the **squared** norm, $\lambda\|w\|_2^2$. The "
        r"unsquared norm gives another estimator: for a given $\tau > 0$ the minimiser "
        r"of $\|y - Xw\|^2 + \tau\|w\|_2$ is $w = 0$ once $\tau \ge 2\|X^\top y\|_2$ "
        r"(the subdifferential of $\tau\|w\|_2$ at 0 is the ball of radius $\tau$), "
        r"and otherwise the ridge solution for $\lambda = \tau / (2\|w\|_2)$ (its "
        r"stationarity condition $-2X^\top(y - Xw) + \tau w / \|w\|_2 = 0$ is ridge's "
        r"with that $\lambda$). The same path of solutions, then, but a data-dependent "
        r"$\lambda$ and an exact zero for large $\tau$, which ridge never gives.",
    )],
    foil=r"the notes' ridge with the penalty $\tau\|w\|_2$: the minimiser is the ridge "
    r"solution with $\lambda = \tau$",
)
def eq_ridge_unsquared(rng, foil=False):
    # foil: the notes' "ridge uses ||w||_2", i.e. ridge with lambda = tau
    from scipy.optimize import brentq, minimize

    X, y = _problem(rng)
    tau = rng.uniform(0.05, 1.5) * 2 * np.linalg.norm(X.T @ y)

    def f(v):
        return np.sum((y - X @ v) ** 2) + tau * np.linalg.norm(v)

    def grad(v):  # away from v = 0
        return -2 * X.T @ (y - X @ v) + tau * v / np.linalg.norm(v)

    def w_of(lam):
        return linear.ridge(X, y, lam=lam).w

    if foil:
        w = w_of(tau)
    elif tau >= 2 * np.linalg.norm(X.T @ y):
        w = np.zeros(X.shape[1])
    else:  # 2 lam |w_lam| rises from 0 to 2|X^T y| as lam goes from 0 to infinity
        lam = brentq(lambda t: 2 * t * np.linalg.norm(w_of(t)) - tau, 1e-12, 1e12,
                     xtol=1e-300, rtol=4 * np.finfo(float).eps)
        w = w_of(lam)
    # the minimum, found without the formula: BFGS from least squares (f is convex, and
    # smooth away from 0), and the kink w = 0 itself
    start = np.linalg.lstsq(X, y, rcond=None)[0]
    found = minimize(f, start, jac=grad, method="BFGS", options={"gtol": 1e-10}).fun
    best = min(found, f(np.zeros(X.shape[1])))
    return max(0.0, f(w) - best) / best


@claim(
    "eq-map-objective", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"$-\ln\big(\prod_i p(y_i \mid x_i, w)\, p(w)\big) = \sum_i \mathcal "
    r"L_i(w) + \frac12 \sum_{d=1}^D \big(\ln C_d + w_d^2 / C_d\big) + \frac D2 \ln "
    r"2\pi$ for $w_d \sim N(0, C_d)$, and $-\ln p(w) = \|w\|_1 / C + D \ln 2C$ for "
    r"Laplace weights",
    errata=[
        Erratum(
            where="notes 002, slides \"Gaussian prior\" and \"Adaptive feature "
                  "importances\"",
            says=r"$p(w) = \frac{1}{(2\pi\sigma^2)^{n/2}} e^{-\|w\|_2^2 / 2\sigma^2}$, "
            r"$p(w) = \frac{1}{(2C)^n} e^{-\|w\|_1 / C}$ and "
            r"$p(w) = \frac{1}{(2\pi)^{n/2}\sqrt{C_1 \cdots C_D}} "
            r"e^{-\sum_d w_d^2 / 2C_d}$, with $n$ the number of training objects",
            correct=r"The priors are densities of the $D$ weights, so the exponents "
            r"are $D$: $(2\pi\sigma^2)^{-D/2}$, $(2C)^{-D}$ and $(2\pi)^{-D/2}$. They "
            r"are constants in $w$, so the MAP estimates are unaffected, but with $n$ "
            r"the densities do not integrate to 1.",
        ),
        Erratum(
            where="notes 002, slide on maximum likelihood (before \"Maximum a "
                  "posteriori\")",
            says=r"$\prod_{i=1}^n p(y_i \mid x_i, w) = \sum_{i=1}^n \ln p(y_i \mid "
            r"x_i, w) \to \max_w$",
            correct=r"it is the **logarithm** of the product that equals the sum of "
            r"logarithms: $\ln \prod_i p(y_i \mid x_i, w) = \sum_i \ln p(y_i \mid x_i, "
            r"w)$; both have the same maximiser.",
            foil="product",
        ),
    ],
    foil=r"the notes' normalisers with the number $n$ of points where $D$ belongs: "
    r"$\frac n2 \ln 2\pi$ and $n \ln 2C$",
)
def eq_map_objective(rng, foil=False):
    # Logistic likelihood (L_i = ln(1 + exp(-y_i w.x_i))) and the priors from
    # scipy.stats; few points, so the product of probabilities is computed as a
    # product. foil: the notes' normalisers, with n (the number of points) where
    # D belongs. foil="product": the notes' product of the likelihoods equated
    # with the sum of their logarithms.
    from scipy.stats import laplace, multivariate_normal

    d = int(rng.integers(1, 6))
    m = d + int(rng.integers(1, 8))  # n != D, so the two exponents differ
    X, w = rng.standard_normal((m, d)), rng.standard_normal(d)
    y = rng.choice([-1.0, 1.0], m)
    Cd, C = rng.uniform(0.2, 3.0, d), rng.uniform(0.2, 3.0)
    if foil == "product":
        p = 1 / (1 + np.exp(-y * (X @ w)))
        return rel_error(np.prod(p), np.sum(np.log(p)))
    foil = foil is True
    lhs = -np.log(np.prod(1 / (1 + np.exp(-y * (X @ w))))
                  * multivariate_normal(np.zeros(d), np.diag(Cd)).pdf(w))
    k = m if foil else d
    rhs = (np.sum(np.log1p(np.exp(-y * (X @ w)))) + 0.5 * np.sum(np.log(Cd) + w**2 / Cd)
           + k / 2 * np.log(2 * np.pi))
    lap = -laplace.logpdf(w, 0, C).sum()
    return max(rel_error(lhs, rhs),
               rel_error(lap, np.abs(w).sum() / C + k * np.log(2 * C)))


@claim(
    "eq-ard-profile", per_instance=True, chapter=CH, tol=1e-9,
    statement=r"$\min_{C_d > 0} \frac12\big(\ln C_d + w_d^2 / C_d\big) = \ln|w_d| + "
    r"\frac12$, at $C_d = w_d^2$: the joint objective in $(w, C)$ tends to $-\infty$ "
    r"as $w_d \to 0$",
    errata=[Erratum(
        where="notes 002, slide \"Adaptive feature importances\"",
        says=r"$Q_{approx}(w) = \sum_i \mathcal L_i(w) + \frac12 \sum_{d=1}^D \big(\ln "
        r"C_d + \frac{w_d^2}{C_d}\big) \to \min_{w, C}$; \"if $\hat C_d \to 0$, "
        r"feature $d$ is removed\"",
        correct=r"The joint minimum does not exist: minimising over $C_d$ first gives "
        r"$\ln|w_d| + \frac12$ (at $C_d = w_d^2$), so the objective is $\sum_i "
        r"\mathcal L_i(w) + \sum_d \ln|w_d| + \frac D2$, which tends to $-\infty$ as "
        r"any $w_d \to 0$ (equally, $w_d = 0$ and $C_d \to 0$ sends $\frac12 \ln C_d$ "
        r"to $-\infty$). Every feature can be \"removed\" this way, whatever the data. "
        r"The variances must be estimated otherwise: by maximising the marginal "
        r"likelihood with $w$ integrated out (automatic relevance determination, the "
        r"relevance vector machine of the next slides), or with a prior on $C_d$.",
    )],
    foil=r"the notes' $Q_{approx} \to \min_{w, C}$: a minimum exists, so the objective "
    r"cannot fall without bound as $w_d \to 0$ (the residual is how far it falls)",
)
def eq_ard_profile(rng, foil=False):
    # The inner minimum over t = ln C_d by Brent's method, against the closed
    # form; and the joint objective (logistic losses) along w_d = e^{-k}, C_d =
    # w_d^2, which falls by 1 per step once w_d is near 0 (the losses then change
    # by less than 1e-2 in all): from k = 10 to k = 200 by about 190. foil: the
    # notes' min over (w, C) exists, so the path cannot fall without bound: the
    # residual is then how far it falls.
    from scipy.optimize import minimize_scalar

    wd = rng.standard_normal() * 3
    inner = minimize_scalar(lambda t: 0.5 * (t + wd**2 * np.exp(-t)),
                            bounds=(np.log(wd**2) - 5, np.log(wd**2) + 5),
                            method="bounded",
                            options={"xatol": 1e-10})
    profile = abs(inner.fun - (np.log(abs(wd)) + 0.5)) / max(1.0, abs(inner.fun))
    m, D = 30, int(rng.integers(2, 6))
    X, y = rng.standard_normal((m, D)), rng.choice([-1.0, 1.0], m)
    w, C = rng.standard_normal(D), rng.uniform(0.5, 2.0, D)

    def Q(w, C):
        return (np.sum(np.logaddexp(0, -y * (X @ w)))
                + 0.5 * np.sum(np.log(C) + w**2 / C))

    path = []
    for k in (10, 200):
        w[0] = np.exp(-k)
        C[0] = w[0] ** 2
        path.append(Q(w, C))
    fall = path[0] - path[1]
    if foil:
        return fall
    return max(profile, max(0.0, 189.0 - fall))


@claim(
    "eq-ard-update", per_instance=True, chapter=CH, tol=1e-6,
    statement=r"the log evidence $\ln p(y \mid C, \sigma^2) = \ln N(y; 0, \sigma^2 I + "
    r"X \operatorname{diag}(C) X^\top)$ has $\partial/\partial \ln C_d = (\mu_d^2 + "
    r"\Sigma_{dd} - C_d) / 2C_d$ and $\partial/\partial \ln \sigma^2 = \|y - X\mu\|^2 "
    r"/ 2\sigma^2 - (n - \sum_d \gamma_d) / 2$, so its stationary points are the fixed "
    r"points $C_d = \mu_d^2 / \gamma_d$, $\sigma^2 = \|y - X\mu\|^2 / (n - \sum_d "
    r"\gamma_d)$",
    foil=r"$\partial/\partial \ln C_d = (\mu_d^2 - C_d) / 2C_d$, the posterior "
    r"variance $\Sigma_{dd}$ dropped: the stationarity condition $C_d = \mu_d^2$ of "
    r"the joint objective {eq}`eq-ard-profile`",
)
def eq_ard_update(rng, foil=False):
    # The log evidence from the n x n covariance S (the Gaussian density itself, none of
    # the d x d algebra), differentiated numerically in (ln C, ln sigma^2), against the
    # formulas built from the posterior N(mu, Sigma). Central differences of a smooth
    # function of size ~n: about 1e-8 relative; tol 1e-6.
    X, y = _problem(rng)
    n, d = X.shape
    C, s2 = np.exp(rng.uniform(-2, 1, d)), float(np.exp(rng.uniform(-1, 1)))

    def log_evidence(t):
        S = np.exp(t[-1]) * np.eye(n) + (X * np.exp(t[:-1])) @ X.T
        L = np.linalg.cholesky(S)
        z = np.linalg.solve(L, y)
        return -0.5 * (n * np.log(2 * np.pi) + z @ z) - np.sum(np.log(np.diag(L)))

    numeric = numerical_gradient(log_evidence, np.append(np.log(C), np.log(s2)))
    Sigma = np.linalg.inv(X.T @ X / s2 + np.diag(1 / C))
    mu = Sigma @ X.T @ y / s2
    S = 0.0 if foil else np.diag(Sigma)
    gamma = 1 - np.diag(Sigma) / C
    r = y - X @ mu
    formula = np.append((mu**2 + S - C) / (2 * C),
                        r @ r / (2 * s2) - (n - gamma.sum()) / 2)
    return rel_error(numeric, formula)


@claim(
    "eq-ols-unbiased", per_instance=True, chapter=CH, tol=5,
       measure="Monte Carlo std. errors",
    n_instances=5, n_test_instances=40,
    statement=r"for $g(x) = x^\top\beta$ least squares is unbiased, "
    r"$\mathbb{E}\hat g(x_0) = g(x_0)$: the bias term of the decomposition is 0, and "
    r"$\sigma^2$ is not part of it",
    errata=[Erratum(
        where="notes 000, section 2.2.1, eq. (2.11)",
        says=r"$\mathrm{Err}(x_0) = \underbrace{\sigma^2 + (g(x_0) - E[\hat "
        r"g(x_0)])^2}_{\text{Bias}} + \underbrace{E[(E[\hat g(x_0)] - \hat "
        r"g(x_0))^2]}_{\text{Variance}}$, and \"Bias is a decreasing function of model "
        r"complexity\"",
        correct=r"The total is right, but it has three terms, not two: the noise "
        r"$\sigma^2$, the squared bias $(g(x_0) - E\hat g(x_0))^2$ and the variance. "
        r"The bias is $E\hat g(x_0) - g(x_0)$, which is 0 for an unbiased fit (least "
        r"squares when $g$ is linear), while $\sigma^2$ stays whatever the model: the "
        r"bracket the notes call Bias never falls below $\sigma^2$, so it is not the "
        r"quantity that decreases with complexity. The cross terms vanish because the "
        r"noise of the new $y_0$ is independent of the training set and has mean 0, "
        r"and because $\hat g(x_0) - E\hat g(x_0)$ has mean 0.",
    )],
    foil=r"the notes' Bias bracket: the bias term is $\sigma^2 + (g(x_0) - "
    r"\mathbb{E}\hat g(x_0))^2 = \sigma^2$, not 0",
    tol_reason="a Monte Carlo mean: the residual is in standard errors, and 5 of them "
    "are exceeded with probability 6e-7; the foil misses by sigma, 80 to 250 of them, "
    "so the margin is 10, not 100 (that would take 100 times the 4000 repetitions)",
    foil_margin=10,
)
def eq_ols_unbiased(rng, foil=False):
    # 4000 training sets y = X beta + noise on a fixed design; the bias is what the mean
    # prediction misses, |mean g_hat(x0) - g(x0)|, and the bias term its square: 0 here,
    # or sigma^2 in the notes' bracket (foil). Residual in standard errors of the mean;
    # 5 is exceeded with probability 6e-7.
    reps, m, d = 4000, 30, int(rng.integers(2, 6))
    X = rng.standard_normal((m, d))
    beta, x0 = rng.standard_normal(d), rng.standard_normal(d)
    sigma = rng.uniform(0.5, 1.5)
    Y = X @ beta + sigma * rng.standard_normal((reps, m))
    g_hat = x0 @ np.linalg.lstsq(X, Y.T, rcond=None)[0]
    se = g_hat.std(ddof=1) / np.sqrt(reps)
    bias_term = sigma**2 if foil else 0.0
    return abs(abs(g_hat.mean() - x0 @ beta) - np.sqrt(bias_term)) / se


# -- elastic net -----------------------------------------------------------------------


@claim(
    "eq-elastic-net-coordinate", per_instance=True, chapter=CH, tol=1e-13,
       measure="violation",
    statement=r"$\arg\min_{w_j} J(w) = S(x_j^\top r_{(j)}, \lambda_1/2) / (\|x_j\|^2 + "
              r"\lambda_2)$ for the elastic net, the other coordinates fixed",
    foil=r"$\arg\min_{w_j} J(w) = S(x_j^\top r_{(j)}, \lambda_1/2) / \|x_j\|^2$ (the "
         r"lasso's update, $\lambda_2$ forgotten)",
    exact="a violation max(0, J(update) - best): the update is at least as good as "
          "Brent's minimiser along the coordinate and as 0",
)
def eq_elastic_net_coordinate(rng, foil=False):
    X, y = _problem(rng)
    d = X.shape[1]
    lam1 = rng.uniform(0.05, 1.0) * linear.lasso_lambda_max(X, y)
    lam2 = 10 ** rng.uniform(-1, 2)
    w = rng.standard_normal(d)
    j = int(rng.integers(d))
    xj = X[:, j]
    r_j = y - X @ w + xj * w[j]
    denominator = xj @ xj + (0.0 if foil else lam2)
    update = float(linear.soft_threshold(xj @ r_j, lam1 / 2)) / denominator

    def J(t, w=w, j=j, X=X, y=y):
        v = w.copy()
        v[j] = t
        return np.sum((y - X @ v) ** 2) + lam1 * np.abs(v).sum() + lam2 * v @ v

    # as for the lasso's update: relative to J, whose evaluation rounds at about n * eps
    scale = 10 * (abs(update) + 1)
    brent = minimize_scalar(J, bounds=(-scale, scale), method="bounded",
                            options={"xatol": 1e-12}).x
    best = min(J(brent), J(0.0))
    return max(0.0, J(update) - best) / best


@claim(
    "eq-elastic-net-augmented", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"$\|y - Xw\|^2 + \lambda_1\|w\|_1 + \lambda_2\|w\|^2 = \|\tilde y - "
              r"\tilde X w\|^2 + \lambda_1 \|w\|_1$ with $\tilde X = (X; "
              r"\sqrt{\lambda_2} I)$, $\tilde y = (y; 0)$",
    foil=r"the same with $\tilde X = (X; \lambda_2 I)$ (the square root forgotten)",
)
def eq_elastic_net_augmented(rng, foil=False):
    # both objectives at a random w, with lam2 away from 1 so that the foil differs
    X, y = _problem(rng)
    n, d = X.shape
    lam1, lam2 = rng.uniform(0.1, 10), 10 ** rng.uniform(0.5, 2)
    w = rng.standard_normal(d)
    Xa = np.vstack([X, (lam2 if foil else np.sqrt(lam2)) * np.eye(d)])
    ya = np.concatenate([y, np.zeros(d)])
    l1 = lam1 * np.abs(w).sum()
    elastic = np.sum((y - X @ w) ** 2) + l1 + lam2 * w @ w
    return abs(np.sum((ya - Xa @ w) ** 2) + l1 - elastic) / elastic


@claim(
    "eq-elastic-net-grouping", per_instance=True, chapter=CH, tol=1e-6,
    statement=r"at the elastic-net solution, $w_i, w_j \ne 0$ of the same sign: "
              r"$w_i - w_j = (x_i - x_j)^\top r / \lambda_2$, $r = y - Xw$",
    foil=r"$w_i - w_j = (x_i - x_j)^\top r / (2\lambda_2)$ (the 2 of "
         r"$\nabla \lambda_2 w^2$ counted twice)",
)
def eq_elastic_net_grouping(rng, foil=False):
    # Unit-norm columns in two correlated groups; the residual is relative to the
    # size of the two sides. The solver stops at a duality gap of 1e-14 |y|^2,
    # which leaves the coefficients accurate to about 1e-8 relative (strong
    # convexity 2 lam2), hence 1e-6.
    n, d = 60, 6
    Z = rng.standard_normal((n, 2))
    X = np.repeat(Z, 3, axis=1) + rng.uniform(0.2, 0.8) * rng.standard_normal((n, d))
    X /= np.linalg.norm(X, axis=0)
    y = X @ np.repeat(rng.choice([-1.0, 1.0], 2) * rng.uniform(1, 3, 2), 3)
    y += 0.3 * rng.standard_normal(n)
    lam2 = 10 ** rng.uniform(-0.5, 0.5)
    lam1 = rng.uniform(0.02, 0.2) * linear.lasso_lambda_max(X, y)
    w = linear.elastic_net(X, y, lam1=lam1, lam2=lam2, tol=1e-14).w
    r = y - X @ w
    worst = 0.0
    for i in range(d):
        for j in range(i + 1, d):
            if w[i] * w[j] > 0:
                lhs = w[i] - w[j]
                rhs = (X[:, i] - X[:, j]) @ r / (2 * lam2 if foil else lam2)
                worst = max(worst, abs(lhs - rhs) / (abs(w[i]) + abs(w[j])))
    return worst


# -- several outputs -------------------------------------------------------------------


@claim(
    "eq-multi-ridge", per_instance=True, chapter=CH, tol=1e-7,
    statement=r"the minimiser of $\frac1n\|XW - Y\|_F^2 + \lambda\|W\|_F^2$ is $W = "
              r"(X^\top X + n\lambda I)^{-1} X^\top Y$, column $l$ the ridge fit of "
              r"$Y_{\cdot l}$ with penalty $n\lambda$",
    foil=r"$W = (X^\top X + \lambda I)^{-1} X^\top Y$ (the $n$ of the averaged loss "
         r"lost)",
)
def eq_multi_ridge(rng, foil=False):
    # The gradient of the loss, by central differences of the loss written entry
    # by entry (accurate to about 1e-9 relative), must vanish at the formula; and
    # each column must be linear.ridge's single-output solution with lam = n *
    # lambda. Residual: the worse of the gradient (relative to the size of its two
    # terms) and the column mismatch.
    n, d = int(rng.integers(10, 30)), int(rng.integers(2, 6))
    k = int(rng.integers(1, 4))
    X = rng.standard_normal((n, d)) * rng.uniform(0.5, 2.0, size=d)
    Y = X @ rng.standard_normal((d, k)) + rng.standard_normal((n, k))
    lam = 10 ** rng.uniform(-1.5, 0.5)
    shift = lam if foil else n * lam
    W = np.linalg.solve(X.T @ X + shift * np.eye(d), X.T @ Y)

    def loss(v):
        V = v.reshape(d, k)
        return np.sum((X @ V - Y) ** 2) / n + lam * np.sum(V**2)

    grad = numerical_gradient(loss, W.ravel())
    scale = np.linalg.norm(2 * X.T @ Y / n)
    columns = max(rel_error(linear.ridge(X, Y[:, col], lam=n * lam).w, W[:, col])
                  for col in range(k))
    return max(np.linalg.norm(grad) / scale, columns)


# -- leave-one-out cross-validation ----------------------------------------------------


@claim(
    "eq-ridge-loocv", per_instance=True, chapter=CH, tol=1e-9,
    statement=r"for ridge (with or without an unpenalised intercept), "
              r"$y_i - \hat f^{(-i)}(x_i) = (y_i - \hat y_i) / (1 - H_{ii})$",
    foil=r"$y_i - \hat f^{(-i)}(x_i) = y_i - \hat y_i$ (the training residual taken "
         r"for the leave-one-out one)",
)
def eq_ridge_loocv(rng, foil=False):
    # n refits of linear.ridge with one row left out, against one fit and
    # the diagonal of its hat matrix; the residual is relative to the size
    # of the leave-one-out residuals
    X, y = _problem(rng)
    n, d = X.shape
    lam = 10 ** rng.uniform(-1, 2)
    intercept = bool(rng.integers(2))
    A = np.column_stack([np.ones(n), X]) if intercept else X
    P = np.diag(np.r_[0.0, np.full(d, lam)]) if intercept else lam * np.eye(d)
    H = A @ np.linalg.solve(A.T @ A + P, A.T)
    e = y - H @ y
    shortcut = e if foil else e / (1 - np.diag(H))
    keep = np.ones(n, dtype=bool)
    brute = np.empty(n)
    for i in range(n):
        keep[i] = False
        fit = linear.ridge(X[keep], y[keep], lam=lam, fit_intercept=intercept)
        brute[i] = y[i] - fit.predict(X[i:i + 1])[0]
        keep[i] = True
    return rel_error(brute, shortcut)
