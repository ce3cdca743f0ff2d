"""Claims of Chapter 5 (kernels): feature maps, positive-definite
kernels, RKHS, kernel machines."""

from __future__ import annotations

import numpy as np

from mlnotes import kernels as kern
from mlnotes.check import numerical_gradient, rel_error
from mlnotes.claims import Erratum, claim

CH = "05_kernels"


def _min_eig_ratio(K) -> float:
    """Smallest eigenvalue of a symmetric matrix over its
    largest absolute eigenvalue."""
    e = np.linalg.eigvalsh((K + K.T) / 2)
    return float(e[0] / max(np.abs(e).max(), np.finfo(float).tiny))


def _psd_violation(K) -> float:
    # A PSD Gram matrix computed in floating point shows eigenvalues down to about -n
    # eps lambda_max; the claims below use n <= 30, so a violation beyond 1e-12 is real.
    return _psd_violation_of_ratio(_min_eig_ratio(K))


def _psd_violation_of_ratio(ratio: float) -> float:
    return max(0.0, -ratio)


def _random_base_gram(rng, X):
    """The Gram matrix of a randomly chosen PSD kernel on
    histogram-like points X >= 0."""
    which = rng.integers(4)
    if which == 0:
        return kern.linear_kernel(X)
    if which == 1:
        return kern.polynomial_kernel(X, degree=int(rng.integers(1, 4)),
                                      gamma=rng.uniform(0.1, 1),
                                      coef0=rng.uniform(0, 1))
    if which == 2:
        return kern.rbf_kernel(X, gamma=rng.uniform(0.1, 2))
    return kern.intersection_kernel(X)


# -- feature maps ----------------------------------------------------------------------

@claim(
    "eq-polar-map", per_instance=True, chapter=CH, tol=1e-14,
    statement=r"$\phi(x) = (r, \theta)$ with $\theta = \operatorname{atan2}(x_2, x_1)$ "
              r"is inverted by "
              r"$x = (r\cos\theta, r\sin\theta)$",
    errata=[Erratum(
        where="notes 004, example 'Polar coordinates'",
        says=r"$\phi(x, y) = (\sqrt{x^2 + y^2}, \arctan \frac{y}{x})$",
        correct=r"$\arctan\frac yx$ is the usual shorthand for the angle of $(x, y)$, "
                r"and the example needs only the radius (the classes are rings). Read "
                r"literally, it takes values in $(-\pi/2, \pi/2)$ only, gives $(x, y)$ "
                r"and $(-x, -y)$ the same angle and is undefined for $x = 0$; the "
                r"angle that makes the map invertible is $\operatorname{atan2}(y, x) "
                r"\in (-\pi, \pi]$, which the chapter uses.",
        kind="clarification",
    )],
    foil=r"the angle read literally, $\theta = \arctan(x_2 / x_1)$",
)
def eq_polar_map(rng, foil=False):
    X = rng.standard_normal((50, 2)) * rng.uniform(0.1, 10)
    r, theta = kern.polar_features(X).T
    if foil:
        theta = np.arctan(X[:, 1] / X[:, 0])
    return rel_error(np.column_stack([r * np.cos(theta), r * np.sin(theta)]), X)


@claim(
    "eq-kernel-trick", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"$w^\top\phi(x) + b = \sum_i \alpha_i y_i k(x_i, x) + b$ "
              r"for $w = \sum_i \alpha_i y_i \phi(x_i)$",
    foil=r"the same with $k(x_i, x) = (x_i^\top x)^2$ for the map of $(x_i^\top x + "
         r"c_0)^2$ (the "
    r"constant dropped)",
)
def eq_kernel_trick(rng, foil=False):
    d = int(rng.integers(1, 5))
    Xtr, Xte = rng.standard_normal((15, d)), rng.standard_normal((10, d))
    alpha, y = rng.uniform(0, 2, 15), rng.choice([-1.0, 1.0], 15)
    b = rng.standard_normal()
    c0 = rng.uniform(0, 2)
    k0 = 0.0 if foil else c0
    w = kern.poly2_features(Xtr, coef0=c0).T @ (alpha * y)
    primal = kern.poly2_features(Xte, coef0=c0) @ w + b
    K = kern.polynomial_kernel(Xte, Xtr, degree=2, gamma=1.0, coef0=k0)
    dual = K @ (alpha * y) + b
    return rel_error(primal, dual)


def _sym_pair():
    import sympy as sp

    x1, x2, y1, y2 = sp.symbols("x1 x2 y1 y2", real=True)
    return sp, (x1, x2), (y1, y2)


@claim(
    "eq-feature-map-quadratic", chapter=CH, tol=0, symbolic=True,
    statement=r"$\phi(x) = (x_1^2, x_2^2, \sqrt2 x_1 x_2)$ gives $\phi(x)^\top\phi(y) "
              r"= (x^\top y)^2$",
    errata=[Erratum(
        where="notes 000, section 4.2.4 (the concrete example after eq. 4.34)",
        says=r"$\phi(x) = (x_1, x_2, \sqrt2 x_1 x_2)$ and $\langle\phi(x), "
             r"\phi(y)\rangle = x_1^2y_1^2 + "
             r"2x_1x_2y_1y_2 + x_2^2y_2^2 = (x^\top y)^2$",
        correct=r"With that map $\langle\phi(x), \phi(y)\rangle = x_1y_1 + x_2y_2 + "
                r"2x_1x_2y_1y_2$, which is "
                r"not $(x^\top y)^2$; the first two coordinates must be the squares: "
                r"$\phi(x) = (x_1^2, x_2^2, \sqrt2 x_1x_2)$.",
    )],
    foil=r"the notes' map $\phi(x) = (x_1, x_2, \sqrt2 x_1 x_2)$",
)
def eq_feature_map_quadratic(rng, n, foil=False):
    sp, x, y = _sym_pair()
    power = 1 if foil else 2

    def phi(v):
        return sp.Matrix([v[0] ** power, v[1] ** power, sp.sqrt(2) * v[0] * v[1]])

    lhs = (phi(x).T * phi(y))[0]
    rhs = (x[0] * y[0] + x[1] * y[1]) ** 2
    return [0.0 if sp.expand(lhs - rhs) == 0 else 1.0]


@claim(
    "eq-feature-map-poly2", chapter=CH, tol=0, symbolic=True,
    statement=r"$\phi(x) = (1, \sqrt2 x_1, \sqrt2 x_2, \sqrt2 x_1x_2, x_1^2, x_2^2)$ "
              r"gives "
              r"$\phi(x)^\top\phi(y) = (1 + x^\top y)^2$",
    errata=[
        Erratum(
            where="notes 002, 'Kernel properties' (example after Mercer's theorem)",
            says=r"$(1 + x^\top y)^2 = 1 + 2x_1y_1 + 2x_1y_2 + 2x_1x_2y_1y_2 + "
                 r"x_1^2y_1^2 + x_2^2y_2^2 = \phi^\top(x)\phi(x)$",
            correct=r"The line is corrupted in extraction (it repeats a garbled square "
                    r"and breaks off), so $2x_1y_2$ and $\phi^\top(x)\phi(x)$ may not "
                    r"be the slide's; the feature map on the next line is right. The "
                    r"sound reading: $(1 + x^\top y)^2 = 1 + 2x_1y_1 + 2x_2y_2 + "
                    r"2x_1x_2y_1y_2 + x_1^2y_1^2 + x_2^2y_2^2 = \phi(x)^\top\phi(y)$.",
            kind="as extracted",
            raw=r"$K(x, y) = (1 + x^T y)^2 = (1 + x_1 y_1 + x_2 y_2)^2 = (1 + x_1 y_1 "
                r"+ x_2 y_2 + x_1 y_2 + x_2 y_2)^2 = (1 + x_1 y_1 + x_2 y_2 + x_1 y_2 "
                r"+ x_2 y_2 + x_2 y_2 +$  $1 + 2x_1y_1 + 2x_1y_2 + 2x_1x_2y_1y_2 + "
                r"x_1^2y_1^2 + x_2^2y_2^2 = \phi^T(x)\phi(x)$",
        ),
        Erratum(
            where="notes 004, 'Other popular feature mappings' (d-th degree "
                  "polynomials)",
            says=r"$\phi(x) = (1, x_1, \dots, x_n, x_1^2, \dots, x_n^2, \dots, x_1^d, "
                 r"\dots, x_n^d)$ makes "
                 r"$f(x) = \sum_i w_i x_i + \sum_{ij} b_{ij} x_i x_j + \dots$",
            correct=r"That map holds powers of single coordinates only, so $\langle w, "
                    r"\phi(x)\rangle$ is a sum of univariate polynomials with no cross "
                    r"terms $x_i x_j$. All monomials of degree at most $d$ are needed. "
                    r"Weighted by the square roots of the multinomial coefficients, "
                    r"$\sqrt{d! / (k_0!\, k_1! \cdots k_n!)}$ for $x_1^{k_1} \cdots "
                    r"x_n^{k_n}$ with $k_0 = d - \sum_i k_i$, they give the kernel $(1 "
                    r"+ x^\top y)^d$: for $d = 2$ these are the weights $1$ and "
                    r"$\sqrt2$ of this claim, for $d = 3$ they are $1$, $\sqrt3$ and "
                    r"$\sqrt6$.",
        ),
    ],
    # the first erratum is as extracted; the second is an error the check can evaluate
    foil=r"the notes' degree-2 map $\phi(x) = (1, x_1, x_2, x_1^2, x_2^2)$ gives "
         r"$\phi(x)^\top\phi(y) = (1 + x^\top y)^2$",
)
def eq_feature_map_poly2(rng, n, foil=False):
    sp, x, y = _sym_pair()
    r2 = sp.sqrt(2)

    def phi(v):
        return sp.Matrix([1, r2 * v[0], r2 * v[1], r2 * v[0] * v[1], v[0] ** 2,
                          v[1] ** 2])

    def phi_notes(v):  # powers of single coordinates only, no cross term
        return sp.Matrix([1, v[0], v[1], v[0] ** 2, v[1] ** 2])

    lhs = ((phi_notes(x).T * phi_notes(y)) if foil else (phi(x).T * phi(y)))[0]
    rhs = (1 + x[0] * y[0] + x[1] * y[1]) ** 2
    return [0.0 if sp.expand(lhs - rhs) == 0 else 1.0]


@claim(
    "eq-rbf-series", per_instance=True, chapter=CH, tol=1e-13,
    statement=r"$e^{-\gamma(x - y)^2} = \sum_{k \ge 0} \phi_k(x)\phi_k(y)$ with "
              r"$\phi_k(x) = e^{-\gamma x^2}\sqrt{(2\gamma)^k / k!}\, x^k$",
    foil=r"the same with $\phi_k(x) = e^{-\gamma x^2}\sqrt{\gamma^k / k!}\, x^k$ (the "
         r"2 of the "
    r"cross term lost)",
)
def eq_rbf_series(rng, foil=False):
    from math import lgamma

    k = np.arange(60)
    log_fact = np.array([lgamma(j + 1) for j in k])
    gamma = rng.uniform(0.1, 2)
    x, y = rng.uniform(-1.5, 1.5, (2, 20))
    log_c = np.log(gamma if foil else 2 * gamma)

    # 60 terms: the tail is below 1e-16 for |x|, |y| <= 1.5, gamma <= 2
    def phi(v, gamma=gamma):
        v = v[:, None]
        sign = np.where(v < 0, (-1.0) ** k, 1.0)
        return sign * np.exp(-gamma * v**2 + 0.5 * (k * log_c - log_fact)
                             + k * np.log(np.abs(v) + 1e-300))

    lhs = np.exp(-gamma * (x - y) ** 2)
    rhs = (phi(x) * phi(y)).sum(1)
    return rel_error(lhs, rhs)


# -- positive-definite kernels ---------------------------------------------------------

@claim(
    "eq-gram-psd", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"$t^\top K t = \bigl\|\sum_i t_i \phi(x_i)\bigr\|^2 \ge 0$",
    foil=r"$t^\top K t = \sum_i t_i^2 \|\phi(x_i)\|^2$ (the cross terms lost)",
)
def eq_gram_psd(rng, foil=False):
    d = int(rng.integers(1, 6))
    X, t, c0 = rng.standard_normal((25, d)), rng.standard_normal(25), rng.uniform(0, 2)
    K = kern.polynomial_kernel(X, degree=2, gamma=1.0, coef0=c0)
    Phi = kern.poly2_features(X, coef0=c0)
    v = Phi.T @ t
    square = np.sum(t**2 * np.sum(Phi**2, axis=1)) if foil else v @ v
    return rel_error(t @ K @ t, square)


@claim(
    "eq-sigmoid-indefinite", chapter=CH, tol=0, measure="violation",
    statement=r"$\tanh(x^\top y + 1)$ is not a positive-definite kernel: "
              r"$\lambda_{\min}(K) \le -0.01\,|\lambda|_{\max}$ on every instance",
    errata=[Erratum(
        where="notes 002, 'Commonly used kernels'",
        says=r"the sigmoid $\tanh(\gamma\langle x, y\rangle + r)$ is listed among the "
             r"kernels, right after "
             r"Mercer's theorem",
        correct=r"The sigmoid is not positive definite (for any $\gamma > 0$ its Gram "
                r"matrices can have "
                r"negative eigenvalues; for $r < 0$ even $k(0, 0) = \tanh r < 0$), so "
                r"it is not an inner "
                r"product in any feature space and the SVM dual with it need not be "
                r"concave. The claim "
                r"finds a negative eigenvalue of at least 1% of the spectrum on every "
                r"random instance.",
    )],
    foil=r"the notes' listing: $\tanh(x^\top y + 1)$ is a positive-definite kernel, "
    r"$\lambda_{\min}(K) \ge 0$",
    exact="a violation max(0, .): 0 whenever the inequality holds",
)
def eq_sigmoid_indefinite(rng, n, foil=False):
    # The residual is how far lambda_min is from being clearly negative: 0 on
    # every instance means each Gram matrix has an eigenvalue <= -1% of its
    # spectral radius (rounding is ~1e-15).
    ratios = [_min_eig_ratio(kern.sigmoid_kernel(rng.standard_normal((20, 2))))
              for _ in range(n)]
    if foil:
        return [_psd_violation_of_ratio(r) for r in ratios]
    return [max(0.0, r + 0.01) for r in ratios]


def _rule(label, statement, make, foil, make_foil):
    def rule(rng, foil=False):
        X = rng.uniform(0, 1, (int(rng.integers(5, 30)), int(rng.integers(1, 5))))
        return _psd_violation((make_foil if foil else make)(rng, X))

    # named after the label, so a traceback says which rule failed
    name = label.replace("-", "_")
    rule.__name__ = rule.__qualname__ = name
    rule.__code__ = rule.__code__.replace(co_name=name, co_qualname=name)
    claim(label, chapter=CH, tol=1e-12, measure="PSD violation", statement=statement,
          per_instance=True, foil=foil)(rule)


_rule("eq-rule-sum", r"$k_1 + k_2$ is a positive-definite kernel",
      lambda rng, X: _random_base_gram(rng, X) + _random_base_gram(rng, X),
      r"$k_1 - k_2$ is a positive-definite kernel (a difference for a sum)",
      lambda rng, X: _random_base_gram(rng, X) - _random_base_gram(rng, X))
_rule("eq-rule-scale", r"$c\,k$ is a positive-definite kernel for $c > 0$",
      lambda rng, X: rng.uniform(0.01, 100) * _random_base_gram(rng, X),
      r"$c\,k$ is a positive-definite kernel for any $c$ (the sign condition dropped)",
      lambda rng, X: -rng.uniform(0.01, 100) * _random_base_gram(rng, X))
_rule("eq-rule-product", r"$k_1 k_2$ is a positive-definite kernel (Schur product)",
      lambda rng, X: _random_base_gram(rng, X) * _random_base_gram(rng, X),
      r"the matrix product $K_1 K_2$ of two Gram matrices is one (the Schur product's "
      r"claim "
      r"moved to the matrix product)",
      lambda rng, X: _random_base_gram(rng, X) @ _random_base_gram(rng, X))
_rule("eq-rule-outer", r"$f(x) f(y)$ is a positive-definite kernel for any $f: "
                       r"\mathcal X \to \mathbb R$",
      lambda rng, X: np.outer(*(2 * [np.sin(3 * X).sum(1) - rng.uniform(0, 1)])),
      r"$f(x) g(y)$ is a positive-definite kernel for any $f, g$",
      lambda rng, X: np.outer(np.sin(3 * X).sum(1) - rng.uniform(0, 1),
                              np.cos(2 * X).sum(1)))
_rule("eq-rule-composition", r"$k(\psi(x), \psi(y))$ is a positive-definite kernel for "
                             r"any map $\psi$",
      lambda rng, X: _random_base_gram(rng, np.column_stack([np.sin(5 * X) ** 2,
                                                             X**3])),
      r"$\psi(k(x, y))$ is a positive-definite kernel for any map $\psi$, here $\cos$ "
      r"(the "
      r"map applied to the value, not the arguments)",
      lambda rng, X: np.cos(_random_base_gram(rng, X)))
_rule("eq-rule-exp", r"$\exp(k)$ is a positive-definite kernel",
      lambda rng, X: np.exp(_random_base_gram(rng, X) / X.shape[1]),
      r"$\exp(-k)$ is a positive-definite kernel (the RBF's sign carried over)",
      lambda rng, X: np.exp(-_random_base_gram(rng, X) / X.shape[1]))


@claim(
    "eq-intersection-feature-map", per_instance=True, chapter=CH, tol=0,
       measure="abs. residual",
    statement=r"$\sum_j \min(x_j, y_j) = \phi(x)^\top\phi(y)$ with $\phi(x)_{j,s} = "
              r"1[s < x_j]$ "
              r"for integer histograms",
    foil=r"the same with $\phi(x)_{j,s} = 1[s \le x_j]$ (off by one)",
    exact="integer arithmetic: counts of ones, exact in floating point",
)
def eq_intersection_feature_map(rng, foil=False):
    X = rng.integers(0, 17, (20, int(rng.integers(1, 10)))).astype(float)
    s = np.arange(17 if foil else 16)
    S, Xj = s[None, None, :], X[:, :, None]
    below = S <= Xj if foil else S < Xj
    Phi = below.reshape(X.shape[0], -1).astype(float)
    return float(np.abs(kern.intersection_kernel(X) - Phi @ Phi.T).max())


def _chi2_pd(X):
    """sum_j 2 x_j y_j / (x_j + y_j) (0 when x_j + y_j = 0), computed pair by pair."""
    S = X[:, None, :] + X[None, :, :]
    P = 2 * X[:, None, :] * X[None, :, :]
    return np.divide(P, S, out=np.zeros_like(P), where=S > 0).sum(-1)


@claim(
    "eq-chi2-cpd", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"$c^\top K^{\chi^2} c = 2\,c^\top S c \ge 0$ for $\sum_i c_i = 0$, with "
              r"$S_{ik} = \sum_j \frac{2 x_{ij} x_{kj}}{x_{ij} + x_{kj}}$ positive "
              r"semidefinite",
    foil=r"$c^\top K^{\chi^2} c = c^\top S c$ (the 2 lost)",
)
def eq_chi2_cpd(rng, foil=False):
    X = rng.uniform(0, 1, (20, 6)) * (rng.uniform(size=(20, 6)) < 0.7)
    c = rng.standard_normal(20)
    c -= c.mean()
    S = _chi2_pd(X)
    lhs, rhs = c @ kern.additive_chi2_kernel(X) @ c, (1 if foil else 2) * c @ S @ c
    return max(rel_error(lhs, rhs), _psd_violation(S))


@claim(
    "eq-chi2-exp-psd", per_instance=True, chapter=CH, tol=1e-12,
       measure="PSD violation",
    statement=r"$\exp\bigl(-\gamma \sum_j \frac{(x_j - y_j)^2}{x_j + y_j}\bigr)$ is "
              r"positive definite "
              r"although $-\sum_j \frac{(x_j - y_j)^2}{x_j + y_j}$ is not",
    foil=r"$-\sum_j \frac{(x_j - y_j)^2}{x_j + y_j}$ is positive definite itself (the "
         r"exponential "
    r"dropped)",
    exact="a violation max(0, -lambda_min / |lambda|_max): these Gram matrices are "
          "strictly "
    "positive definite, their smallest eigenvalue far above rounding",
)
def eq_chi2_exp_psd(rng, foil=False):
    X = rng.uniform(0, 1, (25, 8))
    gamma = rng.uniform(0.1, 5)
    K = kern.chi2_kernel(X, gamma=gamma)
    return _psd_violation(np.log(K) / gamma if foil else K)


# -- RKHS ------------------------------------------------------------------------------

def _rkhs_function(rng, m):
    """f = sum_i a_i k(., x_i) for k = (x.y + c0)^2, and the same f
    as w^T phi with phi explicit."""
    d, c0 = int(rng.integers(1, 4)), rng.uniform(0, 2)
    Xf, a = rng.standard_normal((m, d)), rng.standard_normal(m)
    return Xf, a, c0, kern.poly2_features(Xf, coef0=c0).T @ a


@claim(
    "eq-reproducing", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"$\langle f, k(\cdot, x)\rangle_{\mathcal H} = \sum_i a_i k(x_i, x) = "
              r"f(x)$, "
              r"checked against $f = w^\top\phi$ with an explicit feature map",
    foil=r"$\langle f, k(\cdot, x)\rangle_{\mathcal H} = \sum_i a_i k(x_i, x_i)$ (the "
         r"kernel "
    r"at the centres, not at $x$)",
)
def eq_reproducing(rng, foil=False):
    Xf, a, c0, w = _rkhs_function(rng, 8)
    x = rng.standard_normal((30, Xf.shape[1]))
    K = kern.polynomial_kernel(x, Xf, degree=2, gamma=1.0, coef0=c0)
    if foil:  # every row k(x_i, x_i), whatever x
        centres = np.diag(kern.polynomial_kernel(Xf, degree=2, gamma=1.0, coef0=c0))
        K = np.tile(centres, (len(x), 1))
    inner = K @ a
    return rel_error(inner, kern.poly2_features(x, coef0=c0) @ w)


@claim(
    "eq-rkhs-norm", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"$\|f\|_{\mathcal H}^2 = a^\top K a = \|w\|^2$ "
              r"for $f = \sum_i a_i k(\cdot, x_i) = w^\top\phi$",
    foil=r"$\|f\|_{\mathcal H}^2 = a^\top a$ (the coefficients' norm for the "
         r"function's)",
)
def eq_rkhs_norm(rng, foil=False):
    Xf, a, c0, w = _rkhs_function(rng, 12)
    K = kern.polynomial_kernel(Xf, degree=2, gamma=1.0, coef0=c0)
    if foil:
        K = np.eye(len(a))
    return rel_error(a @ K @ a, w @ w)


@claim(
    "eq-rkhs-well-defined", per_instance=True, chapter=CH, tol=1e-9,
    statement=r"$\sum_{ij} a_i b_j k(x_i, z_j) = \sum_j b_j f(z_j)$ takes the same "
              r"value for two representations of the same $f$ (one with a zero "
              r"combination added)",
    foil=r"the same with $\sum_{ij} a_i b_j |x_i - z_j|$ (a distance for the kernel): "
         r"it depends on the representation",
)
def eq_rkhs_well_defined(rng, foil=False):
    # k = (x y + c0)^2 on R has a 3-dimensional feature map, so any 4 functions k(.,
    # u_l) are linearly dependent: a null vector c of their feature matrix gives a
    # nonzero combination sum_l c_l k(., u_l) that is the zero function
    c0 = rng.uniform(0.5, 2)
    Xf, a = rng.standard_normal((5, 1)), rng.standard_normal(5)
    Z, b = rng.standard_normal((6, 1)), rng.standard_normal(6)
    U = rng.standard_normal((4, 1))
    c = np.linalg.svd(kern.poly2_features(U, coef0=c0).T)[2][-1]
    X2, a2 = np.vstack([Xf, U]), np.concatenate([a, c])  # the same f, written otherwise
    if foil:  # (sum_i a_i sum_j b_j would not do: the constant feature makes sum c = 0)
        def dist(X, coef):
            return coef @ np.abs(X - Z.T) @ b

        return rel_error(dist(Xf, a), dist(X2, a2))

    def inner(X, coef):
        return coef @ kern.polynomial_kernel(X, Z, degree=2, gamma=1.0, coef0=c0) @ b

    f_at_z = kern.polynomial_kernel(Z, Xf, degree=2, gamma=1.0, coef0=c0) @ a
    return max(rel_error(inner(Xf, a), inner(X2, a2)),
               rel_error(inner(Xf, a), b @ f_at_z))


@claim(
    "eq-rkhs-cauchy-schwarz", per_instance=True, chapter=CH, tol=0, measure="violation",
    statement=r"$|f(x)| \le \|f\|_{\mathcal H} \sqrt{k(x, x)}$ for finite sums $f = "
              r"\sum_i a_i k(\cdot, x_i)$ of the kernel $s\exp(-\gamma\|x - y\|^2)$",
    foil=r"$|f(x)| \le \|f\|_{\mathcal H}\, k(x, x)$ (the square root dropped)",
    exact="a violation max(0, .): 0 whenever the inequality holds",
)
def eq_rkhs_cauchy_schwarz(rng, foil=False):
    # a scaled RBF kernel, k(x, x) = s < 1, so that dropping the root changes the bound;
    # f is evaluated at its own centres too, where the bound is nearly attained
    gamma, s, m = rng.uniform(0.5, 5), rng.uniform(0.05, 0.5), int(rng.integers(1, 6))
    Xf, a = rng.standard_normal((m, 2)), rng.standard_normal(m)
    x = np.vstack([Xf, rng.standard_normal((100, 2))])
    f = s * kern.rbf_kernel(x, Xf, gamma=gamma) @ a
    norm = np.sqrt(s * a @ kern.rbf_kernel(Xf, gamma=gamma) @ a)
    bound = norm * (s if foil else np.sqrt(s))
    # 1e-12 relative slack for rounding in both sides
    return float(np.max(np.maximum(0.0, np.abs(f) - bound * (1 + 1e-12))))


# -- kernel machines -------------------------------------------------------------------

@claim(
    "eq-representer", per_instance=True, chapter=CH, tol=1e-9,
    statement=r"the ridge solution in feature space $w = (\Phi^\top\Phi + \lambda "
              r"I)^{-1}\Phi^\top y$ "
              r"equals $\Phi^\top\alpha$ with $\alpha = (K + \lambda I)^{-1} y$",
    foil=r"the same with $\alpha = K^{+} y$ (the regularisation left out of the dual)",
)
def eq_representer(rng, foil=False):
    d, c0, lam = int(rng.integers(1, 5)), rng.uniform(0, 2), 10 ** rng.uniform(-2, 1)
    X, y = rng.standard_normal((30, d)), rng.standard_normal(30)
    Phi = kern.poly2_features(X, coef0=c0)
    w = np.linalg.solve(Phi.T @ Phi + lam * np.eye(Phi.shape[1]), Phi.T @ y)
    if foil:
        alpha = np.linalg.lstsq(Phi @ Phi.T, y, rcond=None)[0]
    else:
        alpha = kern.kernel_ridge(X, y, lam=lam, kernel="poly", degree=2, gamma=1.0,
                                  coef0=c0).alpha
    # tolerance: both sides solve systems with condition
    # numbers up to ~1e5 (lam >= 0.01)
    return rel_error(w, Phi.T @ alpha)


@claim(
    "eq-kernel-ridge", per_instance=True, chapter=CH, tol=1e-8,
    statement=r"$\alpha = (K + \lambda I)^{-1}y$ zeroes the gradient of "
              r"$\|y - K\alpha\|^2 + \lambda\,\alpha^\top K\alpha$",
    foil=r"the same for $\|y - K\alpha\|^2 + \lambda\|\alpha\|^2$ (the coefficients' "
         r"norm "
    r"for the RKHS norm)",
)
def eq_kernel_ridge(rng, foil=False):
    X, y = rng.standard_normal((20, 3)), rng.standard_normal(20)
    lam, gamma = 10 ** rng.uniform(-1, 1), rng.uniform(0.1, 2)
    fit = kern.kernel_ridge(X, y, lam=lam, kernel="rbf", gamma=gamma)
    K = kern.rbf_kernel(X, gamma=gamma)

    def J(a, K=K, y=y, lam=lam):
        r = y - K @ a
        return r @ r + lam * (a @ a if foil else a @ K @ a)

    g = numerical_gradient(J, fit.alpha)
    # central differences: error ~ eps^(2/3) relative to
    # the size of the gradient's terms
    scale = np.linalg.norm(K) * (np.linalg.norm(y) + np.linalg.norm(K @ fit.alpha))
    return float(np.linalg.norm(g) / scale)


@claim(
    "eq-kernel-ridge-linear", per_instance=True, chapter=CH, tol=1e-10,
    statement=r"kernel ridge with $k(x, y) = x^\top y$ is ridge regression: "
              r"$X^\top(XX^\top + \lambda I)^{-1} y = (X^\top X + \lambda I)^{-1} "
              r"X^\top y$",
    foil=r"kernel ridge with $k(x, y) = x^\top y$ is least squares, $X^{+} y$ (the "
    r"regularisation left out of the primal)",
)
def eq_kernel_ridge_linear(rng, foil=False):
    nn, d = int(rng.integers(5, 40)), int(rng.integers(1, 30))
    X, y = rng.standard_normal((nn, d)), rng.standard_normal(nn)
    lam = 10 ** rng.uniform(-1, 2)
    fit = kern.kernel_ridge(X, y, lam=lam, kernel="linear")
    if foil:
        w = np.linalg.lstsq(X, y, rcond=None)[0]
    else:
        w = np.linalg.solve(X.T @ X + lam * np.eye(d), X.T @ y)
    return rel_error(X.T @ fit.alpha, w)


@claim(
    "eq-kernel-svm-duality", per_instance=True, chapter=CH, tol=1e-8,
    statement=r"SMO's $\alpha$ for $k = (1 + x^\top y)^2$ attains "
              r"$\max_\alpha \sum_i\alpha_i - "
              r"\frac12\sum_{ij}\alpha_i\alpha_jy_iy_jk(x_i, x_j)"
              r" = \min_{w, b} \frac12\|w\|^2 + C\sum_i\max(0, 1 - y_i(w^\top\phi(x_i) "
              r"+ b))$, "
              r"with $b = y_i - \sum_j \alpha_j y_j k(x_j, x_i)$ on margin support "
              r"vectors",
    errata=[
        Erratum(
            where="notes 004, 'Support Vector Machine in Kernelized Form'",
            says=r"$\min_{\alpha} -\frac12\sum_{ij}\alpha_i\alpha_jy_iy_jk(x_i, x_j) + "
                 r"\sum_i\alpha_i$ subject to $\sum_i\alpha_iy_i = 0$, $0 \le \alpha_i "
                 r"\le C$, in our reading of a garbled line",
            correct=r"The OCR keeps \"min\" and the constraints but loses the "
                    r"coefficient and sign of the quadratic term, so the slide may be "
                    r"right. The sound form is the notes' own earlier slide \"SVM Dual "
                    r"Optimization Problem\": *maximise* $\sum_i\alpha_i - "
                    r"\frac12\sum_{ij}\alpha_i\alpha_jy_iy_jk(x_i, x_j)$ "
                    r"(equivalently, minimise its negative) over the same constraints; "
                    r"its value equals the primal minimum. Read as a minimum, the "
                    r"objective is concave, and its minimum over the polytope $\{0 \le "
                    r"\alpha_i \le C, \sum_i\alpha_iy_i = 0\}$ lies at a vertex of "
                    r"that polytope, not at the SVM solution.",
            kind="as extracted",
            raw="for coefficients «q, ..., «, obtained by solving\n"
                "n\n"
                "min —— alal k(z!, 27) +\n"
                "al,...,a”eR ]Zl 4 ?ﬂ ( ) ;1\n\n"
                "subject to Zaiyizo and 0< ;< C,fori=1,...,n",
        ),
        Erratum(
            where="notes 002, 'Kernel SVM', discriminant function (and the same "
                  "formula with $\\langle x_i, x_j\\rangle$ on 'Linear SVM reminder')",
            says=r"$w_0 = \frac{1}{n_{\widetilde{SV}}}\bigl(\sum_{i \in "
                 r"\widetilde{SV}} y_i - "
                 r"\sum_{i \in \widetilde{SV}}\sum_{j \in SV}\alpha_iy_iK(x_i, "
                 r"x_j)\bigr)$",
            correct=r"The coefficients belong to the inner index: "
                    r"$w_0 = \frac{1}{n_{\widetilde{SV}}}\sum_{i \in "
                    r"\widetilde{SV}}\bigl(y_i - "
                    r"\sum_{j \in SV}\alpha_jy_jK(x_j, x_i)\bigr)$, the average over "
                    r"margin support "
                    r"vectors ($0 < \alpha_i < C$) of $y_i - f(x_i) + w_0$.",
        ),
    ],
    foil=r"the notes' bias, with the coefficients on the outer index: "
    r"$b = \frac{1}{n_{\widetilde{SV}}}\sum_{i \in \widetilde{SV}}\bigl(y_i - "
    r"\sum_{j \in SV}\alpha_iy_iK(x_i, x_j)\bigr)$",
)
def eq_kernel_svm_duality(rng, foil=False):
    from mlnotes import svm

    X = rng.standard_normal((40, 2))
    y = np.where(X[:, 0] ** 2 + 0.5 * X[:, 1] ** 2 + 0.3 * rng.standard_normal(40) > 1,
                 1.0, -1.0)
    C = 10 ** rng.uniform(-1, 1)
    fit = svm.smo(X, y, C=C, kernel="poly", degree=2, gamma=1.0, coef0=1.0, tol=1e-10)
    K = kern.polynomial_kernel(X, degree=2, gamma=1.0, coef0=1.0)
    Phi = kern.poly2_features(X, coef0=1.0)
    v = fit.alpha * y
    # the primal is evaluated in the explicit feature space, not through K
    w = Phi.T @ v
    primal = 0.5 * w @ w + C * np.maximum(0.0, 1.0 - y * (Phi @ w + fit.b)).sum()
    dual = fit.alpha.sum() - 0.5 * v @ K @ v
    free = (fit.alpha > 1e-8 * C) & (fit.alpha < (1 - 1e-8) * C)
    if foil:
        sv = fit.alpha > 0
        notes = y[free] - v[free] * K[np.ix_(free, sv)].sum(1)
        b = np.mean(notes) if free.any() else np.inf
    else:
        b = np.mean(y[free] - K[free] @ v) if free.any() else fit.b
    # SMO stops at a maximal KKT violation of 1e-10, which bounds the
    # duality gap by about n C 1e-10 relative to the objective: 1e-8
    # leaves room for that, nothing more.
    return max(abs(primal - dual) / abs(primal), abs(b - fit.b) / max(1.0, abs(fit.b)))


@claim(
    "eq-prototype-gram", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"the prototype map has Gram matrix $\Phi\Phi^\top = K_{XP}K_{XP}^\top$, "
              r"$\langle\phi(x), \phi(y)\rangle = \sum_j k(x, p_j)k(y, p_j)$; with the "
              r"training points as prototypes, $K^2$",
    foil=r"$\Phi\Phi^\top = K_{XX}$ (the kernel's own Gram matrix)",
)
def eq_prototype_gram(rng, foil=False):
    n, m, d = (int(v) for v in rng.integers(3, 30, 3))
    X, P = rng.standard_normal((n, d)), rng.standard_normal((m, d))
    gamma = rng.uniform(0.01, 1.0) / d
    # the features, one exponential per prototype, written out coordinate by coordinate
    Phi = np.exp(-gamma * ((X[:, None, :] - P[None, :, :]) ** 2).sum(axis=2))
    K_xp = kern.gram(X, P, kernel="rbf", gamma=gamma)
    K_xx = kern.gram(X, kernel="rbf", gamma=gamma)
    rhs = K_xx if foil else K_xp @ K_xp.T
    # the training points as prototypes: the features are the rows of K, their Gram K^2
    Phi_x = np.exp(-gamma * ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2))
    rhs_x = K_xx if foil else K_xx @ K_xx
    return max(rel_error(Phi @ Phi.T, rhs), rel_error(Phi_x @ Phi_x.T, rhs_x))
