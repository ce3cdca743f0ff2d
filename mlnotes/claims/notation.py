"""Claims of Chapter 0, "Notation and matrix calculus": the gradient identities every
later derivation uses, each checked against central differences on random instances."""

from __future__ import annotations

import numpy as np

from mlnotes.check import numerical_gradient, numerical_hessian, rel_error
from mlnotes.claims import Erratum, claim

CH = "00_notation"
# Central differences with h ~ eps^(1/3) are accurate to about eps^(2/3) ~ 4e-11
# relative for smooth functions of unit scale; 1e-7 leaves room for the
# condition of random instances while any wrong factor (a missing 2, a
# transpose) gives a residual of order 1.
TOL_GRAD = 1e-7
# Second differences with h ~ eps^(1/4) are accurate to about eps^(1/2) ~ 1e-8.
TOL_HESS = 1e-5


def _dims(rng):
    return int(rng.integers(1, 8)), int(rng.integers(1, 8))


@claim("eq-grad-linear", per_instance=True, chapter=CH, tol=TOL_GRAD,
       statement=r"$\nabla_w\, a^\top w = a$",
       foil=r"$\nabla_w\, a^\top w = w$ (the variable for the coefficient)")
def eq_grad_linear(rng, foil=False):
    d = _dims(rng)[0]
    a, w = rng.standard_normal((2, d))
    return rel_error(numerical_gradient(lambda v: a @ v, w), w if foil else a)


@claim("eq-grad-quadratic", per_instance=True, chapter=CH, tol=TOL_GRAD,
       statement=r"$\nabla_w\, w^\top A w = (A + A^\top) w$ for any square $A$",
       foil=r"$\nabla_w\, w^\top A w = 2 A w$ for any square $A$ (the symmetric case)")
def eq_grad_quadratic(rng, foil=False):
    d = _dims(rng)[0]
    A = rng.standard_normal((d, d))  # not symmetric: the transpose matters
    w = rng.standard_normal(d)
    grad = 2 * A @ w if foil else (A + A.T) @ w
    return rel_error(numerical_gradient(lambda v: v @ A @ v, w), grad)


@claim("eq-grad-quadratic-sym", per_instance=True, chapter=CH, tol=TOL_GRAD,
       statement=r"$\nabla_w\, w^\top A w = 2 A w$ for symmetric $A$",
       foil=r"$\nabla_w\, w^\top A w = A w$ (the factor 2 lost)")
def eq_grad_quadratic_sym(rng, foil=False):
    d = _dims(rng)[0]
    B = rng.standard_normal((d, d))
    A = B + B.T
    w = rng.standard_normal(d)
    grad = A @ w if foil else 2 * A @ w
    return rel_error(numerical_gradient(lambda v: v @ A @ v, w), grad)


@claim("eq-grad-rss", per_instance=True, chapter=CH, tol=TOL_GRAD,
       statement=r"$\nabla_w \|y - Xw\|^2 = -2 X^\top (y - Xw)$",
       errata=[Erratum(
           where="notes 000, chapter 2, eq. (2.3), first line",
           says=r"$\partial L(w) / \partial w = 2X^\top(y - Xw)$",
           correct=r"$\partial L(w) / \partial w = -2X^\top(y - Xw)$: the inner "
                   r"derivative of $y - Xw$ is $-X$. The printed $2X^\top(y - Xw)$ is "
                   r"minus the gradient, so it points downhill: a step $w + \eta\, "
                   r"2X^\top(y - Xw)$ lowers the loss, and gradient descent with the "
                   r"printed formula as the gradient would climb. Setting either to "
                   r"zero gives the same normal equations, so (2.3)'s later lines "
                   r"stand.")],
       foil=r"the notes' $\nabla_w \|y - Xw\|^2 = 2 X^\top (y - Xw)$ (the inner "
            r"derivative's sign lost)")
def eq_grad_rss(rng, foil=False):
    nn, d = _dims(rng)
    X = rng.standard_normal((nn, d))
    y, w = rng.standard_normal(nn), rng.standard_normal(d)
    rss = lambda v: np.sum((y - X @ v) ** 2)
    sign = 1 if foil else -1
    return rel_error(numerical_gradient(rss, w), sign * 2 * X.T @ (y - X @ w))


@claim("eq-chain-elementwise", per_instance=True, chapter=CH, tol=TOL_GRAD,
       statement=r"$\nabla_w \sum_i \phi(x_i^\top w) = X^\top \phi'(Xw)$, here with "
                 r"$\phi(a) = \log(1 + e^{a})$",
       foil=r"$\nabla_w \sum_i \phi(x_i^\top w) = X^\top \phi(Xw)$ (the function for "
            r"its "
            r"derivative)")
def eq_chain_elementwise(rng, foil=False):
    nn, d = _dims(rng)
    X = rng.standard_normal((nn, d))
    w = rng.standard_normal(d)
    J = lambda v: np.sum(np.logaddexp(0.0, X @ v))
    dphi = 1.0 / (1.0 + np.exp(-(X @ w)))  # softplus' = sigmoid
    if foil:
        dphi = np.logaddexp(0.0, X @ w)
    return rel_error(numerical_gradient(J, w), X.T @ dphi)


@claim("eq-hess-quadratic", per_instance=True, chapter=CH, tol=TOL_HESS,
       statement=r"$\nabla^2_w \left(\tfrac12 w^\top A w - b^\top w\right) = "
                 r"\tfrac12 (A + A^\top)$",
       foil=r"$\nabla^2_w \left(\tfrac12 w^\top A w - b^\top w\right) = A$ (true only "
            r"for "
            r"symmetric $A$)")
def eq_hess_quadratic(rng, foil=False):
    d = _dims(rng)[0]
    A = rng.standard_normal((d, d))
    b, w = rng.standard_normal((2, d))
    f = lambda v: 0.5 * v @ A @ v - b @ v
    return rel_error(numerical_hessian(f, w), A if foil else 0.5 * (A + A.T))


def logsumexp(z: np.ndarray) -> float:
    """log(sum(exp(z))) computed as m + log(sum(exp(z - m)))
    with m = max(z): no overflow."""
    m = np.max(z)
    return float(m + np.log(np.sum(np.exp(z - m))))


@claim("eq-grad-logsumexp", per_instance=True, chapter=CH, tol=TOL_GRAD,
       statement=r"$\nabla_z \log \sum_k e^{z_k} = \mathrm{softmax}(z)$",
       foil=r"$\nabla_z \log \sum_k e^{z_k} = e^{z}$ (the normalisation lost)")
def eq_grad_logsumexp(rng, foil=False):
    K = int(rng.integers(1, 8))
    z = 3 * rng.standard_normal(K)
    p = np.exp(z) if foil else np.exp(z - logsumexp(z))
    return rel_error(numerical_gradient(logsumexp, z), p)


@claim("eq-logsumexp-shift", per_instance=True, chapter=CH, tol=1e-12,
       statement=r"$\log \sum_k e^{z_k} = m + \log \sum_k e^{z_k - m}$ for any $m$, "
                 r"exact for the $z$ where the naive formula does not overflow",
       foil=r"$\log \sum_k e^{z_k} = \log \sum_k e^{z_k - m}$ (the shift not added "
            r"back)")
def eq_logsumexp_shift(rng, foil=False):
    z = 5 * rng.standard_normal(int(rng.integers(1, 8)))
    naive = np.log(np.sum(np.exp(z)))
    shifted = logsumexp(z) - np.max(z) if foil else logsumexp(z)
    return abs(naive - shifted) / max(1.0, abs(naive))


# -- gradients with respect to a matrix ------------------------------------------------


def _matrix_gradient(J, W):
    """Central differences of a scalar function of a matrix, entry by entry."""
    return numerical_gradient(lambda v: J(v.reshape(W.shape)),
                              W.ravel()).reshape(W.shape)


@claim("eq-grad-trace", per_instance=True, chapter=CH, tol=TOL_GRAD,
       statement=r"$\nabla_W \operatorname{tr}(AW) = A^\top$ for $A \in \mathbb{R}^{k "
                 r"\times d}$, $W \in \mathbb{R}^{d \times k}$",
       foil=r"$\nabla_W \operatorname{tr}(AW) = A$ (the transpose forgotten; checked "
            r"on the square instances, where the shapes agree)")
def eq_grad_trace(rng, foil=False):
    # each instance is a rectangular pair (k != d in general) and a square one; A and
    # A^T have the same shape only on the square one, so the foil replaces A^T there
    d, k = _dims(rng)
    A, W = rng.standard_normal((k, d)), rng.standard_normal((d, k))
    rect = rel_error(_matrix_gradient(lambda V: np.trace(A @ V), W), A.T)
    m = int(rng.integers(2, 8))
    S, V0 = rng.standard_normal((m, m)), rng.standard_normal((m, m))
    square = rel_error(_matrix_gradient(lambda V: np.trace(S @ V), V0),
                       S if foil else S.T)
    return max(rect, square)


@claim("eq-grad-frobenius-rss", per_instance=True, chapter=CH, tol=TOL_GRAD,
       statement=r"$\nabla_W \|XW - Y\|_F^2 = 2X^\top(XW - Y)$ and "
                 r"$\nabla_W \|WX - Y\|_F^2 = 2(WX - Y)X^\top$",
       foil=r"$\nabla_W \|XW - Y\|_F^2 = X^\top(XW - Y)$ and "
            r"$\nabla_W \|WX - Y\|_F^2 = (WX - Y)X^\top$ (the factor 2 lost)")
def eq_grad_frobenius_rss(rng, foil=False):
    # both conventions: rows as samples (X n x d, W d x k) and columns as samples (X d x
    # n, W k x d, the notes'); the residual is the worse of the two
    n, d = _dims(rng)
    k = int(rng.integers(1, 5))
    c = 1 if foil else 2
    X, Y = rng.standard_normal((n, d)), rng.standard_normal((n, k))
    W = rng.standard_normal((d, k))
    rows = rel_error(_matrix_gradient(lambda V: np.sum((X @ V - Y) ** 2), W),
                     c * X.T @ (X @ W - Y))
    Xc, Yc, Wc = X.T, Y.T, W.T
    cols = rel_error(_matrix_gradient(lambda V: np.sum((V @ Xc - Yc) ** 2), Wc),
                     c * (Wc @ Xc - Yc) @ Xc.T)
    return max(rows, cols)


@claim("eq-grad-logdet", per_instance=True, chapter=CH, tol=TOL_GRAD,
       statement=r"$\nabla_W \ln|\det W| = W^{-\top}$ and "
                 r"$\nabla_W \operatorname{tr}(AW^{-1}) = -W^{-\top}A^\top W^{-\top}$",
       foil=r"$\nabla_W \ln|\det W| = W^{-1}$ and $\nabla_W \operatorname{tr}(AW^{-1}) "
            r"= -W^{-1}AW^{-1}$ (the transposes forgotten)")
def eq_grad_logdet(rng, foil=False):
    # square, non-symmetric W kept well conditioned (a Gaussian matrix, spectral radius
    # about sqrt(m) < 3, shifted by 5 I), so the central differences keep their
    # accuracy; a random sign of det W is allowed
    m = int(rng.integers(2, 8))
    W = rng.standard_normal((m, m)) + 5 * np.sign(rng.standard_normal()) * np.eye(m)
    A = rng.standard_normal((m, m))
    Wi = np.linalg.inv(W)
    g1 = Wi if foil else Wi.T
    g2 = -Wi @ A @ Wi if foil else -Wi.T @ A.T @ Wi.T
    r1 = rel_error(_matrix_gradient(lambda V: np.linalg.slogdet(V)[1], W), g1)
    r2 = rel_error(_matrix_gradient(lambda V: np.trace(A @ np.linalg.inv(V)), W), g2)
    return max(r1, r2)
