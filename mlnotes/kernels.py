r"""Kernels as whole Gram matrices, kernel ridge regression and explicit feature maps.

Every kernel function takes ``X`` of shape (n, d) and optionally ``Y`` of shape (m, d) and
returns the Gram matrix :math:`K_{ij} = k(x_i, y_j)` of shape (n, m) (``Y=None`` means
``Y = X``). They are vectorised: one matrix product for the inner-product kernels, cache-sized
tiles of broadcast operations for the histogram kernels; no Python loop over pairs of points.

Chapter 5 ({doc}`/notebooks/05_kernels`) derives them and checks their properties; Chapter 4's
SMO solver takes any of them by name through :func:`gram` (or a callable of the same signature).
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from mlnotes._validation import (
    ClosedForm,
    OwnsArrays,
    as_float_array,
    check_int,
    check_n_features,
    check_positive,
    check_returned,
    check_scalar,
)

__all__ = [
    "KERNELS",
    "KernelRidgeFit",
    "NotPSDWarning",
    "additive_chi2_kernel",
    "check_psd",
    "may_be_indefinite",
    "chi2_kernel",
    "gram",
    "intersection_kernel",
    "kernel_ridge",
    "kernel_rows",
    "linear_kernel",
    "polar_features",
    "poly2_features",
    "polynomial_kernel",
    "rbf_kernel",
    "sigmoid_kernel",
]


class NotPSDWarning(UserWarning):
    """A Gram matrix that should be positive semidefinite has a clearly negative eigenvalue."""


# Tiles of at most this many (pair, feature) entries: 2**15 float64 = 256 KiB, which stays in a
# 1 MiB L2 cache together with the temporaries of the tile.
_TILE = 2**15


def _pair(X, Y):
    X = as_float_array(X, "X", ndim=2)
    Y = X if Y is None else as_float_array(Y, "Y", ndim=2)
    if X.shape[1] != Y.shape[1]:
        raise ValueError(
            f"X and Y have different numbers of features: X has {X.shape[1]} columns, "
            f"Y has {Y.shape[1]}"
        )
    return X, Y


def _check_histograms(X, Y, kernel: str) -> None:
    for name, A in (("X", X), ("Y", Y)):
        if A.size and A.min() < 0:
            raise ValueError(
                f"{kernel} is defined for histograms (non-negative entries), but {name} has a "
                f"negative entry {A.min():g}"
            )


def _tiled(X, Y, tile_fn, *, symmetric: bool = False) -> np.ndarray:
    """Fill K (n, m) tile by tile with ``tile_fn(Xb[:, None, :], Yb[None, :, :])`` of shape (bx, by).

    The broadcast (bx, by, d) temporaries are kept near ``_TILE`` entries so they stay in cache;
    the tiles are square-ish so both the X rows and the Y rows are reused. With ``symmetric``
    (Y is X and k(x, y) = k(y, x)) only the tiles on and above the diagonal are computed.
    """
    n, m, d = X.shape[0], Y.shape[0], max(X.shape[1], 1)
    side = max(1, int(np.sqrt(_TILE / d)))
    K = np.empty((n, m))
    if symmetric:
        for i in range(0, n, side):
            Xb = X[i : i + side, None, :]
            for j in range(i, n, side):
                K[i : i + side, j : j + side] = tile_fn(Xb, X[None, j : j + side, :])
                if j > i:
                    K[j : j + side, i : i + side] = K[i : i + side, j : j + side].T
        return K
    bx, by = min(n, side), min(m, max(side, _TILE // (d * min(n, side))))
    for i in range(0, n, bx):
        Xb = X[i : i + bx, None, :]
        for j in range(0, m, by):
            K[i : i + bx, j : j + by] = tile_fn(Xb, Y[None, j : j + by, :])
    return K


def _inner_products(X, Y, kernel: str, *, underflow_matters: bool = True) -> np.ndarray:
    """``X @ Y.T``, or a ValueError naming the scale of X where the products cannot be represented.

    Overflow (features near 1e200) gives inf or NaN; underflow (features near 1e-200) gives
    exact zeros for nonzero inputs, silently wrong wherever the kernel's value depends on them
    (``underflow_matters``: the linear kernel, and the polynomial and sigmoid kernels with
    :math:`c_0 = 0`; an offset :math:`c_0 \\ne 0` swamps them, so the kernel is right to rounding).
    """
    with np.errstate(over="ignore", invalid="ignore"):
        K = X @ Y.T
    top = max(float(np.max(np.abs(X), initial=0.0)), float(np.max(np.abs(Y), initial=0.0)))
    low = min(float(np.max(np.abs(X), initial=0.0)), float(np.max(np.abs(Y), initial=0.0)))
    if not np.all(np.isfinite(K)):
        problem = "overflow"
    elif underflow_matters and low > 0 and top * low < 2.0**-1000:
        problem = "underflow to 0"
    else:
        return K
    raise ValueError(
        f"the {kernel} kernel's inner products x^T y {problem} at the scale of X (max |x_ij| = "
        f"{top:.3g}): rescale X (e.g. standardise it)"
    )


def linear_kernel(X, Y=None) -> np.ndarray:
    r"""Linear kernel :math:`k(x, y) = x^\top y` (Chapter 5, {eq}`eq-kernel-trick`).

    Parameters
    ----------
    X : array_like of shape (n, d)
    Y : array_like of shape (m, d), optional
        Defaults to ``X``.

    Returns
    -------
    K : ndarray of shape (n, m)

    Examples
    --------
    >>> linear_kernel(np.array([[1.0, 2.0], [0.0, 1.0]])).tolist()
    [[5.0, 2.0], [2.0, 1.0]]
    """
    X, Y = _pair(X, Y)
    return _inner_products(X, Y, "linear")


def polynomial_kernel(X, Y=None, *, degree: int = 3, gamma: float = 1.0, coef0: float = 1.0) -> np.ndarray:
    r"""Polynomial kernel :math:`k(x, y) = (\gamma\, x^\top y + c_0)^p`.

    Positive definite for integer :math:`p \ge 1` and :math:`c_0 \ge 0` (sums and products of
    kernels, Chapter 5, {eq}`eq-rule-product`); :math:`(1 + x^\top y)^2` has the explicit feature
    map of {eq}`eq-feature-map-poly2`.

    Parameters
    ----------
    X, Y : array_like of shape (n, d) and (m, d)
    degree : int
        :math:`p \ge 1`.
    gamma : float
        Positive scale of the inner product.
    coef0 : float
        The constant :math:`c_0`.

    Examples
    --------
    >>> # (x.y + 1)^2
    >>> polynomial_kernel(np.array([[1.0, 2.0], [0.0, 1.0]]), degree=2).tolist()
    [[36.0, 9.0], [9.0, 4.0]]
    """
    X, Y = _pair(X, Y)
    gamma = check_positive(gamma, "gamma")
    degree = check_int(degree, "degree")
    coef0 = check_scalar(coef0, "coef0")
    K = _inner_products(X, Y, "polynomial", underflow_matters=coef0 == 0)
    with np.errstate(over="ignore", invalid="ignore"):
        K = _poly_from_inner(K, gamma=gamma, coef0=coef0, degree=degree)
    if not np.all(np.isfinite(K)):  # gamma x^T y + c_0 or its power overflowed
        raise ValueError(
            f"the polynomial kernel (gamma x^T y + c_0)^{degree} overflows at the scale of X (max "
            f"|x_ij| = {float(np.max(np.abs(X), initial=0.0)):.3g}): rescale X or lower gamma"
        )
    return K


def rbf_kernel(X, Y=None, *, gamma: float = 1.0) -> np.ndarray:
    r"""Gaussian (RBF) kernel :math:`k(x, y) = \exp(-\gamma \|x - y\|^2)`.

    Uses :math:`\|x - y\|^2 = \|x\|^2 + \|y\|^2 - 2 x^\top y`: one matrix product, then
    in-place element-wise work on row blocks that fit in cache. Distances are clipped at 0
    against rounding, and the diagonal of ``rbf_kernel(X)`` is exactly 1.

    Parameters
    ----------
    X, Y : array_like of shape (n, d) and (m, d)
    gamma : float
        Positive inverse squared length scale (:math:`\gamma = 1 / (2\sigma^2)`).

    Examples
    --------
    >>> # exp(-1) off the diagonal
    >>> rbf_kernel(np.array([[0.0, 0.0], [1.0, 1.0]]), gamma=0.5).round(4).tolist()
    [[1.0, 0.3679], [0.3679, 1.0]]
    """
    same = Y is None
    X, Y = _pair(X, Y)
    gamma = check_positive(gamma, "gamma")
    # exp(-gamma ||x - y||^2) is exact to rounding when the products underflow (it is
    # 1), but ||x||^2 + ||y||^2 - 2 x^T y is inf - inf when they overflow
    K = _inner_products(X, Y, "rbf", underflow_matters=False)
    # gamma ||x||^2 = inf gives exp(-inf) = 0 off the diagonal: right
    with np.errstate(over="ignore"):
        gx = gamma * np.einsum("ij,ij->i", X, X)
        gy = gamma * np.einsum("ij,ij->i", Y, Y)

    def finish(B, i, j):
        gx_rows = gx[i : i + B.shape[0], None]
        _rbf_from_inner(B, gx_rows, gy[None, j : j + B.shape[1]], gamma)

    with np.errstate(over="ignore", invalid="ignore"):
        _rbf_finish_all(K, finish, same)
    if np.isnan(K).any():  # 2 gamma x^T y and gamma ||x||^2 both overflowed: inf - inf
        raise ValueError(
            f"the rbf kernel's gamma ||x - y||^2 overflows at the scale of X "
            f"(max |x_ij| = {float(np.max(np.abs(X), initial=0.0)):.3g}) "
            f"with gamma={gamma!r}: rescale X or lower gamma"
        )
    return K


def _poly_from_inner(P, *, gamma, coef0, degree):
    """(gamma x^T y + c_0)^p from the inner products P = x^T y (P is overwritten)."""
    P *= gamma
    P += coef0
    return P ** degree


def _rbf_from_inner(B, gx, gy, gamma) -> None:
    """exp(-gamma ||x - y||^2) in place from B = x^T y and gx = gamma ||x||^2, gy = gamma ||y||^2.

    -gamma ||x - y||^2 = 2 gamma x^T y - (gamma ||x||^2 + gamma ||y||^2), clipped at 0 against
    rounding.
    """
    B *= 2.0 * gamma
    B -= gx + gy
    np.minimum(B, 0.0, out=B)
    np.exp(B, out=B)


def _rbf_finish_all(K, finish, same: bool) -> None:
    """Apply ``finish`` to K block by block (the upper block triangle only, mirrored, when symmetric)."""
    if same:  # K is symmetric: exponentiate the upper block triangle only and mirror it
        bs = int(np.sqrt(_TILE))
        for i in range(0, K.shape[0], bs):
            for j in range(i, K.shape[0], bs):
                finish(K[i : i + bs, j : j + bs], i, j)
                if j > i:
                    K[j : j + bs, i : i + bs] = K[i : i + bs, j : j + bs].T
        np.fill_diagonal(K, 1.0)
        return
    step = max(1, _TILE // max(K.shape[1], 1))
    for i in range(0, K.shape[0], step):
        finish(K[i : i + step], i, 0)


def sigmoid_kernel(X, Y=None, *, gamma: float = 1.0, coef0: float = 1.0) -> np.ndarray:
    r"""Sigmoid ("tanh") kernel :math:`k(x, y) = \tanh(\gamma\, x^\top y + c_0)`.

    Not positive definite in general (Chapter 5, {eq}`eq-sigmoid-indefinite`): its Gram matrix
    can have negative eigenvalues, so it is not an inner product in any feature space.

    Parameters
    ----------
    X, Y : array_like of shape (n, d) and (m, d)
    gamma : float
        Positive scale of the inner product.
    coef0 : float
        The offset :math:`c_0`.

    Examples
    --------
    >>> sigmoid_kernel(np.array([[1.0], [-1.0]]), gamma=1.0, coef0=0.0).round(4).tolist()
    [[0.7616, -0.7616], [-0.7616, 0.7616]]
    """
    X, Y = _pair(X, Y)
    gamma = check_positive(gamma, "gamma")
    coef0 = check_scalar(coef0, "coef0")
    K = _inner_products(X, Y, "sigmoid", underflow_matters=coef0 == 0)
    K *= gamma
    K += coef0
    return np.tanh(K, out=K)


def intersection_kernel(X, Y=None) -> np.ndarray:
    r"""Histogram intersection kernel :math:`k(x, y) = \sum_j \min(x_j, y_j)` for :math:`x, y \ge 0`.

    Positive definite on histograms: :math:`\min(a, b) = \int_0^\infty 1[t \le a] 1[t \le b]\,dt`
    is an inner product of indicator functions (Chapter 5, {eq}`eq-intersection-feature-map`).

    Raises
    ------
    ValueError
        If ``X`` or ``Y`` has a negative entry.

    Examples
    --------
    >>> intersection_kernel(np.array([[1.0, 2.0], [3.0, 0.5]])).tolist()
    [[3.0, 1.5], [1.5, 3.5]]
    """
    same = Y is None
    X, Y = _pair(X, Y)
    _check_histograms(X, Y, "the intersection kernel")
    return _tiled(X, Y, lambda A, B: np.minimum(A, B).sum(-1), symmetric=same)


def _chi2_tile(A, B):
    # sum_j (a_j - b_j)^2 / (a_j + b_j), with 0/0 := 0. Adding the smallest normal number to the
    # denominator changes nothing unless a_j + b_j < 1e-292, where the term itself is < a_j + b_j.
    num = A - B
    num *= num
    den = A + B
    den += np.finfo(float).tiny
    num /= den
    return num.sum(-1)


def _chi2_tile_scaled(A, B):
    # (a - b) * ((a - b) / (a + b)): the ratio lies in [-1, 1], so neither the square of a
    # difference near 1e200 overflows nor that of one near 1e-200 underflows to 0
    num = A - B
    den = A + B
    den += np.finfo(float).tiny
    ratio = num / den
    num *= ratio
    return num.sum(-1)


def _chi2_distances(X, Y):
    """:math:`D_{ij} = \\sum_l (x_{il} - y_{jl})^2 / (x_{il} + y_{jl})` after the histogram checks."""
    same = Y is None
    X, Y = _pair(X, Y)
    _check_histograms(X, Y, "the chi-squared kernel")
    top = max(float(np.max(X, initial=0.0)), float(np.max(Y, initial=0.0)))
    if top > 1e307:
        raise ValueError(
            f"the chi-squared kernel's x + y overflows at the scale of X (max x_ij = {top:.3g}): rescale X"
        )
    # the direct square in the ordinary range (as scikit-learn); the scaled form near 1e+-200
    tile = _chi2_tile if top == 0 or 1e-140 < top < 1e150 else _chi2_tile_scaled
    return _tiled(X, Y, tile, symmetric=same)


def additive_chi2_kernel(X, Y=None) -> np.ndarray:
    r"""Additive chi-squared kernel :math:`k(x, y) = -\sum_j \frac{(x_j - y_j)^2}{x_j + y_j}`.

    Defined as scikit-learn's ``additive_chi2_kernel`` (terms with :math:`x_j + y_j = 0` count
    0), for histograms :math:`x, y \ge 0`. It is only *conditionally* positive definite: its
    diagonal is 0 and its off-diagonal entries are negative, so its Gram matrix has negative
    eigenvalues; :math:`\exp` of it (:func:`chi2_kernel`) is positive definite (Chapter 5,
    {eq}`eq-chi2-cpd`).

    Raises
    ------
    ValueError
        If ``X`` or ``Y`` has a negative entry.

    Examples
    --------
    >>> # a zero diagonal
    >>> (additive_chi2_kernel(np.array([[1.0, 0.0], [0.0, 1.0]])) + 0.0).tolist()
    [[0.0, -2.0], [-2.0, 0.0]]
    """
    K = _chi2_distances(X, Y)
    return np.negative(K, out=K)


def chi2_kernel(X, Y=None, *, gamma: float = 1.0) -> np.ndarray:
    r"""Exponentiated chi-squared kernel.

    .. math:: k(x, y) = \exp\Bigl(-\gamma \sum_j \frac{(x_j - y_j)^2}{x_j + y_j}\Bigr)

    Defined as scikit-learn's ``chi2_kernel``, for histograms :math:`x, y \ge 0`.

    Raises
    ------
    ValueError
        If ``X`` or ``Y`` has a negative entry or ``gamma`` is not positive.

    Examples
    --------
    >>> # exp(-1)
    >>> chi2_kernel(np.array([[1.0, 0.0], [0.0, 1.0]]), gamma=0.5).round(4).tolist()
    [[1.0, 0.3679], [0.3679, 1.0]]
    """
    gamma = check_positive(gamma, "gamma")
    K = _chi2_distances(X, Y)
    K *= -gamma
    return np.exp(K, out=K)


KERNELS: dict[str, Callable[..., np.ndarray]] = {
    "linear": linear_kernel,
    "poly": polynomial_kernel,
    "rbf": rbf_kernel,
    "sigmoid": sigmoid_kernel,
    "intersection": intersection_kernel,
    "additive_chi2": additive_chi2_kernel,
    "chi2": chi2_kernel,
}


def check_psd(K, *, name: str = "K", rtol: float = 1e-10, on_indefinite: str = "warn",
              why: str = "the SVM dual is not concave") -> float:
    r"""Check that a square Gram matrix is symmetric and positive semidefinite.

    Returns the smallest eigenvalue :math:`\lambda_{\min}`. A symmetric PSD matrix computed in
    floating point can show eigenvalues down to about :math:`-n \epsilon \lambda_{\max}`, so
    only :math:`\lambda_{\min} < -\mathrm{rtol}\, |\lambda|_{\max}` counts as indefinite
    (Chapter 5, {eq}`eq-gram-psd`): relative to the matrix's own scale, so that a Gram matrix
    and the same matrix times :math:`10^{\pm 150}` get the same verdict. Beyond n = 3000 the
    eigenvalues are too costly: the diagonal and the 2 x 2 minors
    :math:`K_{ii} K_{kk} \ge K_{ik}^2` of 200 sampled rows are checked instead (the value
    returned is then the smallest such minor, or 0).

    Parameters
    ----------
    on_indefinite : {"warn", "raise", "ignore"}
        What a clearly indefinite ``K`` gets: a :class:`NotPSDWarning` (what a caller who
        asked for an indefinite kernel gets), a ``ValueError`` (the default of the fits: SMO's
        dual is then not concave, kernel ridge's norm penalty is not a norm), or nothing.
    why : str
        What the ``ValueError`` adds: the consequence for the caller, or how to go on.

    Raises
    ------
    ValueError
        If ``K`` is not square, or not symmetric (beyond rounding); if indefinite and
        ``on_indefinite="raise"``.

    Examples
    --------
    >>> check_psd(np.array([[2.0, 1.0], [1.0, 2.0]]))
    1.0
    """
    if on_indefinite not in ("warn", "raise", "ignore"):
        raise ValueError(f"on_indefinite must be 'warn', 'raise' or 'ignore', got {on_indefinite!r}")
    rtol = check_scalar(rtol, "rtol", low=0.0)
    K = as_float_array(K, name, ndim=2)
    n = K.shape[0]
    if n != K.shape[1]:
        raise ValueError(f"{name} must be a square Gram matrix, got shape {K.shape}")
    scale = float(np.abs(K).max(initial=0.0))
    if not np.isfinite(scale):
        raise ValueError(f"{name} has entries too large to represent (inf after the kernel)")
    unit = scale if scale > 0 else 1.0
    K = K / unit  # the verdict is the matrix's, not its unit's: 1e-150 K or 1e150 K alike
    asym = float(np.abs(K - K.T).max(initial=0.0))
    if asym > 1e-10:
        raise ValueError(
            f"{name} is not symmetric: max |K_ij - K_ji| = {asym * unit:.3g}; a kernel must "
            "satisfy k(x, y) = k(y, x)"
        )
    d = np.diag(K)
    if n and d.min() < -rtol:
        lam_min = float(d.min()) * unit
        problem = f"it has a negative diagonal entry {lam_min:.6g}"
    elif n <= 3000:
        eig = np.linalg.eigvalsh((K + K.T) / 2)
        lam_min = float(eig[0]) * unit if eig.size else 0.0
        problem = None
        if eig.size and eig[0] < -rtol * float(np.abs(eig).max()):
            problem = (f"its most negative eigenvalue is {lam_min:.6g} (largest "
                       f"eigenvalue {eig[-1] * unit:.6g})")
    else:
        rows = np.random.default_rng(0).choice(n, size=200, replace=False)
        minors = d[rows, None] * d[None, :] - K[rows] ** 2
        smallest = float(minors.min())
        lam_min = smallest * unit**2 if smallest < 0 else 0.0  # a minor, in the unit of K^2
        problem = "a 2 x 2 principal minor is negative" if smallest < -rtol else None
    if problem is not None and on_indefinite != "ignore":
        msg = (f"{name} is not positive semidefinite: {problem}; this kernel is not an inner product "
               "in any feature space")
        if on_indefinite == "raise":
            raise ValueError(f"{msg}; the matrix is indefinite, so {why}")
        warnings.warn(msg + ", and SVM or kernel ridge may fail or return a non-optimal fit",
                      NotPSDWarning, stacklevel=3)
    return lam_min
    return lam_min


def may_be_indefinite(kernel, **params) -> bool:
    """Whether ``kernel`` can give an indefinite Gram matrix, so that its Gram matrix needs checking.

    A callable, the sigmoid kernel, the additive chi-squared kernel (only conditionally
    definite) and the polynomial kernel with a negative ``coef0``.

    Examples
    --------
    >>> may_be_indefinite("rbf"), may_be_indefinite("poly", coef0=-5.0)
    (False, True)
    """
    if callable(kernel):
        return True
    function = _kernel_function(kernel)  # an unknown name is an error, not "definite"
    known = [p for p in inspect.signature(function).parameters if p not in ("X", "Y")]
    unknown = sorted(set(params) - set(known))
    if unknown:  # a misspelt coef0 would silently mean the default
        raise TypeError(f"the {kernel!r} kernel takes {known or 'no parameters'}, got {unknown}")
    coef0 = check_scalar(params["coef0"], "coef0") if "coef0" in params else 1.0
    return kernel in ("sigmoid", "additive_chi2") or (kernel == "poly" and coef0 < 0)


def gram(X, Y=None, *, kernel="rbf", allow_indefinite: bool = False,
         **params) -> np.ndarray:
    """Gram matrix for a kernel given by name or as a callable.

    Parameters
    ----------
    X, Y : array_like of shape (n, d) and (m, d)
        ``Y=None`` means ``Y = X``.
    kernel : str or callable
        One of ``"linear"``, ``"poly"``, ``"rbf"``, ``"sigmoid"``, ``"intersection"``,
        ``"additive_chi2"``, ``"chi2"``, or a callable ``kernel(X, Y, **params)`` returning the
        (n, m) Gram matrix. A callable's square Gram matrix (``Y=None``) is checked: not
        symmetric, or not positive semidefinite (the message gives the most negative
        eigenvalue), raises ``ValueError``: a function that is not a kernel.
    allow_indefinite : bool
        Accept a callable whose Gram matrix is indefinite (to look at one, as Chapter 5 does
        with the sigmoid "kernel"): a :class:`NotPSDWarning` instead of the error.
    **params
        Keyword parameters of the kernel (``gamma``, ``degree``, ``coef0``).

    Examples
    --------
    >>> X = np.array([[1.0, 2.0], [0.0, 1.0]])
    >>> gram(X, kernel="poly", degree=2).tolist() == polynomial_kernel(X, degree=2).tolist()
    True
    >>> gram(X, kernel=lambda A, B: A @ B.T).tolist()  # a callable kernel
    [[5.0, 2.0], [2.0, 1.0]]
    """
    if callable(kernel):
        Xa, Ya = _pair(X, Y)
        shape = (Xa.shape[0], Ya.shape[0])
        K = check_returned(kernel(Xa, Ya, **params), "the kernel callable", shape)
        if Y is None:
            name = f"the Gram matrix of {getattr(kernel, '__name__', 'the kernel')}"
            on = "warn" if allow_indefinite else "raise"
            check_psd(K, name=name, on_indefinite=on, why=_INDEFINITE)
        return K
    return _kernel_function(kernel)(X, Y, **params)


_INDEFINITE = ("it is not a kernel; pass allow_indefinite=True to use it anyway (an SVM will "
               "still refuse it)")


def _kernel_function(kernel) -> Callable[..., np.ndarray]:
    """The kernel function of a name of ``KERNELS``; anything else is a ValueError naming it."""
    try:
        return KERNELS[kernel]
    except (KeyError, TypeError):
        raise ValueError(f"kernel must be one of {sorted(KERNELS)} or a callable, got {kernel!r}") from None


def kernel_rows(X, *, kernel="rbf", **params) -> Callable[[int], np.ndarray]:
    r"""The rows :math:`K_{i\cdot} = (k(x_i, x_1), \dots, k(x_i, x_n))` of a Gram matrix, one at a time.

    Row i of ``gram(X, kernel=kernel, **params)``.
    For solvers that touch a few rows of a large Gram matrix (SMO, Chapter 4). The parameters
    and the scale of ``X`` are checked once, on the point of largest norm with itself (every
    inner product is bounded by that point's squared norm); ``X`` is read once and copied once.
    For the linear, polynomial and rbf kernels a row is then one matrix-vector product finished
    by the same formula as the whole matrix, with the squared norms computed once; any other
    kernel gets one row of :func:`gram`.

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]])
    >>> row = kernel_rows(X, kernel="rbf", gamma=0.5)
    >>> np.allclose(row(1), rbf_kernel(X, gamma=0.5)[1])
    True
    """
    X = as_float_array(X, "X", ndim=2).copy()  # its own copy: the caller may change X later
    n = X.shape[0]
    if n == 0:
        raise ValueError("X must have at least one row")
    top = int(np.argmax(np.einsum("ij,ij->i", X, X)))
    # a bad parameter or scale raises here: |k(x, y)| and its inner products are largest at the
    # point of largest norm with itself (no second pass over X)
    gram(X[top : top + 1], X[top : top + 1], kernel=kernel, **params)
    if callable(kernel) or kernel not in ("linear", "poly", "rbf"):
        return lambda i: gram(X[_row_index(i, n) : i + 1], X, kernel=kernel, **params)[0]
    p = _with_defaults(KERNELS[kernel], params)
    if kernel == "linear":
        return lambda i: X @ X[_row_index(i, n)]
    if kernel == "poly":
        return lambda i: _poly_from_inner(X @ X[_row_index(i, n)], **p)
    g = p["gamma"] * np.einsum("ij,ij->i", X, X)

    def rbf_row(i):
        row = X @ X[_row_index(i, n)]
        _rbf_from_inner(row, g, g[i], p["gamma"])
        row[i] = 1.0  # exp(0), exactly as on gram's diagonal
        return row

    return rbf_row


def _row_index(i, n: int) -> int:
    """A row number in [0, n): no negative index wrapping round to the last rows."""
    return check_int(i, "i (the row of kernel_rows)", low=0, high=n - 1)


def _with_defaults(fn, params) -> dict:
    """The keyword parameters of kernel function ``fn``, its own defaults filled in."""
    bound = inspect.signature(fn).bind_partial(**params)
    bound.apply_defaults()
    return {k: v for k, v in bound.arguments.items() if k not in ("X", "Y")}


@dataclass(frozen=True)
class KernelRidgeFit(ClosedForm, OwnsArrays):
    r"""Kernel ridge regression fit: :math:`f(x) = \sum_i \alpha_i k(x_i, x)`.

    Attributes
    ----------
    alpha : ndarray of shape (n,) or (n, k)
        Dual coefficients :math:`\alpha = (K + \lambda I)^{-1} y`.
    X : ndarray of shape (n, d)
        The training inputs (the expansion points of the representer theorem).
    lam : float
    kernel : str or callable
    kernel_params : dict
    objective : ndarray of shape (1,)
        :math:`\|y - K\alpha\|^2 + \lambda\, \alpha^\top K \alpha` at the solution (one
        entry: the solution is closed-form, so ``n_iter = 0`` and ``converged = True``).
    """

    alpha: np.ndarray
    X: np.ndarray
    lam: float
    kernel: str | Callable
    kernel_params: dict = field(default_factory=dict)
    objective: np.ndarray | None = None

    def predict(self, X) -> np.ndarray:
        """Predictions :math:`K(X, X_{train})\\,\\alpha` for new inputs of shape (m, d)."""
        X = check_n_features(X, self.X.shape[1])
        return gram(X, self.X, kernel=self.kernel, **self.kernel_params) @ self.alpha


def kernel_ridge(X, y, *, lam: float, kernel="rbf", allow_indefinite: bool = False,
                 **kernel_params) -> KernelRidgeFit:
    r"""Kernel ridge regression (Chapter 5, {eq}`eq-kernel-ridge`).

    Minimises :math:`\|y - f(X)\|^2 + \lambda \|f\|_{\mathcal H}^2` over the RKHS of the kernel.
    By the representer theorem :math:`f = \sum_i \alpha_i k(x_i, \cdot)`, which turns the
    problem into :math:`\min_\alpha \|y - K\alpha\|^2 + \lambda\, \alpha^\top K \alpha`, solved by

    .. math:: \alpha = (K + \lambda I)^{-1} y .

    For the linear kernel :math:`w = X^\top \alpha = (X^\top X + \lambda I)^{-1} X^\top y`, the
    ridge solution of Chapter 1 without intercept ({eq}`eq-kernel-ridge-linear`).

    Parameters
    ----------
    X : array_like of shape (n, d)
    y : array_like of shape (n,) or (n, k)
        Real targets (any values: this is regression; for classification pass :math:`\pm 1`
        columns and take the sign of the prediction); with k columns, k problems sharing one
        Gram matrix (e.g. one-vs-rest classification with :math:`\pm 1` columns).
    lam : float
        Positive regularisation :math:`\lambda`.
    kernel : str or callable
        As in :func:`gram`. A kernel whose Gram matrix on ``X`` is indefinite (a callable, the
        sigmoid, additive chi-squared or polynomial with ``coef0 < 0``) raises ``ValueError``:
        :math:`\alpha^\top K \alpha` is then no norm, and the penalty rewards large fits.
    allow_indefinite : bool
        Fit it anyway (the system :math:`K + \lambda I` may still be solvable), with a
        :class:`NotPSDWarning`.
    **kernel_params
        Parameters of the kernel.

    Examples
    --------
    >>> X = np.array([[0.0], [1.0], [2.0]])
    >>> fit = kernel_ridge(X, np.array([0.0, 1.0, 4.0]), lam=1e-8, kernel="poly", degree=2)
    >>> # x^2 lies in the span of (1 + xy)^2
    >>> fit.predict(np.array([[3.0]])).round(4).tolist()
    [9.0]
    """
    X = as_float_array(X, "X", ndim=2)
    y = as_float_array(y, "y")
    if y.ndim not in (1, 2) or y.shape[0] != X.shape[0]:
        raise ValueError(
            f"y must have shape (n,) or (n, k) with n = {X.shape[0]} rows of X, got shape {y.shape}"
        )
    if X.shape[0] == 0:
        raise ValueError("X has no rows: at least one sample is needed")
    lam = check_positive(lam, "lam")
    K = gram(X, kernel=kernel, allow_indefinite=allow_indefinite, **kernel_params)
    # gram checked them
    if may_be_indefinite(kernel, **kernel_params) and not callable(kernel):
        on = "warn" if allow_indefinite else "raise"
        check_psd(K, name=f"the Gram matrix of kernel={kernel!r}", on_indefinite=on,
                  why=_INDEFINITE)
    A = K.copy()
    A[np.diag_indices_from(A)] += lam
    # K + lam I is symmetric positive definite for a PSD kernel: Cholesky is the right
    # solver.
    try:
        L = np.linalg.cholesky(A)
        alpha = np.linalg.solve(L.T, np.linalg.solve(L, y))
    # an indefinite kernel (already warned about): plain LU
    except np.linalg.LinAlgError:
        alpha = _solve_or_explain(A, y, K, lam)
    r = y - K @ alpha
    objective = np.array([np.sum(r * r) + lam * np.sum(alpha * (K @ alpha))])
    return KernelRidgeFit(alpha, X, lam, kernel, dict(kernel_params), objective)


def _solve_or_explain(A, y, K, lam):
    """LU on ``A = K + lam I``; a singular one is a lam too small beside a singular K."""
    try:
        return np.linalg.solve(A, y)
    except np.linalg.LinAlgError:  # a singular K (repeated points) that lam does not lift
        scale = float(np.abs(K).max()) if K.size else 0.0
        floor = K.shape[0] * np.finfo(float).eps * scale
        raise ValueError(
            f"K + lam I is singular to working precision: lam = {lam:g} is lost beside "
            f"entries of K up to {scale:.3g} (repeated or dependent points make K "
            f"singular); use lam of at least {floor:.1g}"
        ) from None


def poly2_features(X, *, coef0: float = 0.0) -> np.ndarray:
    r"""Explicit feature map of :math:`k(x, y) = (x^\top y + c_0)^2` (Chapter 5, {eq}`eq-feature-map-poly2`).

    .. math:: \phi(x) = \bigl(c_0,\ \sqrt{2 c_0}\, x_1, \dots, \sqrt{2 c_0}\, x_d,\
              x_1^2, \dots, x_d^2,\ \sqrt 2\, x_j x_k\ (j < k)\bigr)

    so that :math:`\phi(x)^\top \phi(y) = c_0^2 + 2 c_0 x^\top y + (x^\top y)^2`. With
    :math:`c_0 = 0` the constant and linear blocks are dropped ({eq}`eq-feature-map-quadratic`):
    in two dimensions :math:`\phi(x) = (x_1^2, x_2^2, \sqrt 2 x_1 x_2)`.

    Parameters
    ----------
    X : array_like of shape (n, d)
    coef0 : float
        Non-negative :math:`c_0`.

    Returns
    -------
    Phi : ndarray of shape (n, D)
        :math:`D = d(d+1)/2` for :math:`c_0 = 0`, :math:`1 + d + d(d+1)/2` otherwise.

    Examples
    --------
    >>> Phi = poly2_features(np.array([[1.0, 2.0]]))
    >>> Phi.round(4).tolist()
    [[1.0, 4.0, 2.8284]]
    >>> float((Phi @ Phi.T)[0, 0]) == float(np.array([1.0, 2.0]) @ [1.0, 2.0]) ** 2
    True
    """
    X = as_float_array(X, "X", ndim=2)
    coef0 = check_positive(coef0, "coef0", allow_zero=True)
    j, k = np.triu_indices(X.shape[1], 1)
    blocks = [X**2, np.sqrt(2.0) * X[:, j] * X[:, k]]
    if coef0 > 0:
        blocks = [np.full((X.shape[0], 1), coef0), np.sqrt(2.0 * coef0) * X, *blocks]
    return np.hstack(blocks)


def polar_features(X) -> np.ndarray:
    r"""Polar coordinates :math:`\phi(x_1, x_2) = (r, \theta)` (Chapter 5, {eq}`eq-polar-map`).

    :math:`r = \sqrt{x_1^2 + x_2^2}` and :math:`\theta = \operatorname{atan2}(x_2, x_1) \in
    (-\pi, \pi]`, so that :math:`x = (r\cos\theta, r\sin\theta)`; ``arctan(x2 / x1)`` would lose
    the quadrant (and divide by zero on the vertical axis).

    Examples
    --------
    >>> polar_features(np.array([[0.0, 2.0], [-1.0, 0.0]])).round(4).tolist()
    [[2.0, 1.5708], [1.0, 3.1416]]
    """
    X = as_float_array(X, "X", ndim=2)
    if X.shape[1] != 2:
        raise ValueError(f"polar coordinates need 2 features, X has {X.shape[1]}")
    return np.column_stack([np.hypot(X[:, 0], X[:, 1]), np.arctan2(X[:, 1], X[:, 0])])
