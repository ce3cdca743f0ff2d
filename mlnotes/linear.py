r"""Least squares, ridge and lasso (Chapter 1, {doc}`/notebooks/01_linear_regression`).

All three minimise the residual sum of squares :math:`\mathrm{RSS}(w) = \|y - Xw\|^2`, alone or
with a penalty:

* :func:`least_squares` -- :math:`\min_w \|y - Xw\|^2`, by Cholesky on the normal equations when
  a condition estimate says that is safe, by Householder QR with iterative refinement otherwise,
  and by the SVD (minimum-norm solution) when ``X`` is rank-deficient.
* :func:`ridge` -- :math:`\min_w \|y - Xw\|^2 + \lambda \|w\|^2`, closed form.
* :func:`lasso` -- :math:`\min_w \|y - Xw\|^2 + \lambda \|w\|_1`, by cyclic coordinate descent
  with soft-thresholding.
* :func:`elastic_net` -- :math:`\min_w \|y - Xw\|^2 + \lambda_1 \|w\|_1 + \lambda_2 \|w\|^2`, the
  lasso of data augmented by :math:`\sqrt{\lambda_2} I`.

The penalties use the same data term :math:`\|y - Xw\|^2` (no factor 1/2, no 1/n) as the chapter;
scikit-learn's ``Ridge(alpha)`` is ``ridge(lam=alpha)`` and its ``Lasso(alpha)`` is
``lasso(lam=2 * n * alpha)``.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg as sla
from scipy.linalg import lapack

from mlnotes._validation import (
    ClosedForm,
    ConvergenceWarning,
    OwnsArrays,
    as_float_array,
    check_from_gram,
    check_int,
    check_n_features,
    check_positive,
    check_rng,
    check_scalar,
    check_scale,
    check_start,
    check_X_y,
    read_only,
)

__all__ = [
    "ARDFit",
    "ElasticNetFit",
    "LassoFit",
    "LeastSquaresFit",
    "RidgeFit",
    "ard",
    "cross_validate",
    "elastic_net",
    "elastic_net_path",
    "lasso",
    "lasso_lambda_max",
    "lasso_path",
    "least_squares",
    "ridge",
    "ridge_dof",
    "ridge_path",
    "soft_threshold",
]

_EPS = np.finfo(float).eps
LEAST_SQUARES_METHODS = ("auto", "cholesky", "qr", "svd", "normal")

#: The fast path (Cholesky on the normal equations) is taken when the estimated 1-norm
#: condition number of the column-equilibrated Gram matrix is at most this. The forward error
#: of the normal equations is about cond(X)^2 * eps = cond(G) * eps, so 1e5 keeps about 10
#: correct digits; anything worse goes to QR, whose error grows like cond(X) * eps.
CHOLESKY_COND_MAX = 1e5
# Above this the normal equations keep fewer than about 2 digits (cond(G) * eps > 1e-2): the
# explicit "cholesky" and "normal" methods refuse rather than return noise.
_NE_COND_LIMIT = 1e-2 / _EPS


def _predict(X, w: np.ndarray, b: float) -> np.ndarray:
    return check_n_features(X, w.shape[0]) @ w + b


# -- least squares ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LeastSquaresFit(ClosedForm, OwnsArrays):
    """A least-squares fit.

    Attributes
    ----------
    w : ndarray of shape (d,)
        The coefficients (the minimum-norm solution when ``rank < d``).
    rank : int
        Numerical rank of ``X`` found by the method (``d`` unless the SVD path found less).
    cond : float
        Estimate of the 2-norm condition number of ``X`` after scaling its columns to unit
        norm (the quantity that governs the accuracy of QR; the normal equations square it).
    method : str
        The method that produced ``w`` (``"cholesky"``, ``"qr"``, ``"svd"`` or ``"normal"``);
        for ``method="auto"`` this says which path was taken.
    rss : float
        Residual sum of squares :math:`\\|y - Xw\\|^2`.
    objective, n_iter, converged
        ``[rss]``, 0 and True: a closed form (CONTRIBUTING.md's contract).
    """

    w: np.ndarray
    rank: int
    cond: float
    method: str
    rss: float

    @property
    def objective(self) -> np.ndarray:
        """``[rss]``, the minimised objective, as the one-entry array of a closed form."""
        return read_only(np.array([self.rss]))

    def predict(self, X) -> np.ndarray:
        """Fitted values :math:`Xw` for new rows ``X`` of shape (m, d)."""
        return _predict(X, self.w, 0.0)


def _pow2_scale(norms: np.ndarray) -> np.ndarray:
    # Powers of two scale without rounding, so the scaled problem has exactly the same
    # solution (up to the scaling) and no digit is lost before the solver starts.
    safe = np.where(norms > 0, norms, 1.0)
    return np.exp2(np.round(np.log2(safe)))


def _gram_cholesky(G: np.ndarray, c: np.ndarray):
    """Cholesky solve of the equilibrated normal equations; returns (w, cond(G) estimate) or None."""
    s = _pow2_scale(np.sqrt(np.diag(G)))
    Gs = G / np.outer(s, s)
    anorm = np.max(np.sum(np.abs(Gs), axis=0))
    L, info = lapack.dpotrf(Gs, lower=0, clean=1, overwrite_a=0)
    if info != 0:
        return None, np.inf
    rcond, info = lapack.dpocon(L, anorm, uplo="U")
    cond = np.inf if rcond == 0 else 1.0 / rcond
    z = sla.cho_solve((L, False), c / s, check_finite=False)
    return z / s, cond


def _qr_refined(X: np.ndarray, y: np.ndarray, refine: int):
    """Householder QR on power-of-two equilibrated columns, plus Bjorck's refinement.

    Returns (w, rank_ok, cond estimate).
    """
    m = np.max(np.abs(X), axis=0)
    m[m == 0] = 1.0
    s = _pow2_scale(m * np.linalg.norm(X / m, axis=0))  # the norms without overflow at 1e200
    Xs = X / s
    Q, R = np.linalg.qr(Xs)
    diag = np.abs(np.diag(R))
    d = X.shape[1]
    if X.shape[0] < d or diag.min() <= max(X.shape) * _EPS * diag.max():
        return None, False, np.inf
    w = sla.solve_triangular(R, Q.T @ y, check_finite=False)
    if refine:
        # Iterative refinement of the augmented system [I X; X^T 0][r; w] = [y; 0]
        # (Bjorck 1967): the residuals f, g are computed in extended precision, the
        # corrections with the QR factors already at hand. This removes the cond(X)^2 * |r|
        # term that limits plain QR when the residual is large (Wampler 4 and 5).
        ld = np.longdouble
        Xl, yl, wl = Xs.astype(ld), y.astype(ld), w.astype(ld)
        rl = yl - Xl @ wl
        for _ in range(refine):
            f = (yl - rl - Xl @ wl).astype(float)
            g = -(Xl.T @ rl).astype(float)
            a = sla.solve_triangular(R, g, trans="T", check_finite=False)
            qf = Q.T @ f
            dw = sla.solve_triangular(R, qf - a, check_finite=False)
            rl = rl + (Q @ a + f - Q @ qf)
            wl = wl + dw
        w = wl.astype(float)
    cond = float(np.linalg.cond(R))
    return w / s, True, cond


def _svd_min_norm(X: np.ndarray, y: np.ndarray, rcond: float | None):
    U, sv, Vt = np.linalg.svd(X, full_matrices=False)
    tol = (max(X.shape) * _EPS if rcond is None else rcond) * (sv[0] if sv.size else 0.0)
    keep = sv > tol
    w = Vt[keep].T @ ((U[:, keep].T @ y) / sv[keep])
    norms = np.linalg.norm(X, axis=0)
    if keep.all() and np.all(norms > 0):
        cond = float(np.linalg.cond(X / norms))
    else:
        cond = np.inf
    return w, int(keep.sum()), cond


def least_squares(
    X, y, *, method: str = "auto", refine: int = 2, rcond: float | None = None
) -> LeastSquaresFit:
    r"""Minimise the residual sum of squares :math:`\|y - Xw\|^2`.

    The minimiser solves the normal equations (Chapter 1, {eq}`eq-normal-equations`)

    .. math:: X^\top X w = X^\top y,

    but how they are solved decides how many digits survive: forming :math:`X^\top X` squares
    the condition number ({eq}`eq-cond-squared`).

    Parameters
    ----------
    X : array_like of shape (n, d)
        Design matrix; include a column of ones for an intercept.
    y : array_like of shape (n,)
        Real-valued responses (regression: no label set).
    method : {"auto", "cholesky", "qr", "svd", "normal"}
        ``"cholesky"``: normal equations, columns equilibrated by powers of two, Cholesky --
        fast (about :math:`nd^2` flops, one pass over ``X``) and accurate only when ``X`` is
        well conditioned. ``"normal"``: the textbook formula, :math:`X^\top X` solved by LU
        without any scaling -- shown in the chapter for how it fails. ``"qr"``: Householder QR
        with ``refine`` steps of iterative refinement -- accurate to about
        :math:`\mathrm{cond}(X)\,\epsilon`. ``"svd"``: the minimum-norm solution
        :math:`V_r D_r^{-1} U_r^\top y` over the singular values above ``rcond`` times the
        largest; the only method that accepts rank-deficient ``X``. ``"auto"`` (default):
        Cholesky when the condition estimate of the equilibrated Gram matrix is at most
        ``CHOLESKY_COND_MAX`` (1e5), else QR, else (rank-deficient ``X``) the SVD.
    refine : int
        Refinement steps for QR (residuals in ``numpy.longdouble``, 80-bit on x86-64 Linux;
        where long double is double the steps still help, less).
    rcond : float, optional
        Relative cut-off for small singular values (``"svd"``); default ``max(n, d) * eps``.

    Returns
    -------
    LeastSquaresFit
        ``w``, ``rank``, ``cond``, ``method`` (the path taken) and ``rss``.

    Raises
    ------
    ValueError
        Bad shapes, NaN or inf, an unknown method, or a rank-deficient ``X`` with a method that
        cannot handle it (``"cholesky"``, ``"normal"``, ``"qr"``).

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]])  # an intercept column and x
    >>> fit = least_squares(X, np.array([1.0, 3.0, 5.0]))  # y = 1 + 2x exactly
    >>> np.round(fit.w, 10).tolist(), fit.rank
    ([1.0, 2.0], 2)
    """
    if method not in LEAST_SQUARES_METHODS:
        raise ValueError(f"method must be one of {', '.join(LEAST_SQUARES_METHODS)}; got {method!r}")
    refine = check_int(refine, "refine", low=0)
    # a relative cut-off: 0 keeps every singular value, 1 drops all but the largest
    if rcond is not None:
        rcond = check_scalar(rcond, "rcond", low=0.0, high=1.0, high_open=True)
    n, d = np.shape(X) if np.ndim(X) == 2 else (0, 0)
    gram_first = method in ("auto", "cholesky") and n >= d
    # The normal equations check X from their own X^T X (check_from_gram): no extra pass
    X, y = check_X_y(X, y, finite=not gram_first)
    rank_msg = (
        "X is rank-deficient or too ill-conditioned for the normal equations (X^T X "
        "is singular to working precision); use method='qr' for an ill-conditioned "
        "full-rank X or method='svd' for the minimum-norm solution of a "
        "rank-deficient one"
    )

    if method == "normal":
        G = X.T @ X
        s = _pow2_scale(np.sqrt(np.diag(G)))
        # Judge singularity on the equilibrated matrix: column scaling alone (x next to
        # x^5) makes cond(G) huge without costing LU any digits.
        cond_G = np.linalg.cond(G / np.outer(s, s), 1)
        if not cond_G <= _NE_COND_LIMIT:  # also catches inf and NaN
            raise ValueError(rank_msg)
        w = np.linalg.solve(G, X.T @ y)
        return _ls_result(X, y, w, d, np.sqrt(cond_G), "normal")

    if method in ("auto", "cholesky") and n >= d:
        # numpy calls BLAS syrk for X.T @ X: one pass over X. Where its entries
        # overflow (1e200), the factorisation fails or cond_G is not finite: QR is used
        with np.errstate(over="ignore", invalid="ignore"):
            G = X.T @ X
            check_from_gram(X, G, None)
            w, cond_G = _gram_cholesky(G, X.T @ y)
        if method == "cholesky":
            if w is None or not cond_G <= _NE_COND_LIMIT:
                raise ValueError(rank_msg)
            return _ls_result(X, y, w, d, np.sqrt(cond_G), "cholesky")
        if w is not None and cond_G <= CHOLESKY_COND_MAX:
            return _ls_result(X, y, w, d, np.sqrt(cond_G), "cholesky")
    elif method == "cholesky":
        raise ValueError(f"{rank_msg} (X has fewer rows, n={n}, than columns, d={d})")

    if method in ("auto", "qr"):
        w, ok, cond = _qr_refined(X, y, int(refine))
        if ok:
            return _ls_result(X, y, w, d, cond, "qr")
        if method == "qr":
            raise ValueError(
                "X is rank-deficient (a diagonal entry of R is zero to working "
                "precision); use "
                "method='svd' for the minimum-norm solution"
            )

    w, rank, cond = _svd_min_norm(X, y, rcond)
    return _ls_result(X, y, w, rank, cond, "svd")


def _ls_result(X, y, w, rank, cond, method) -> LeastSquaresFit:
    r = y - X @ w
    return LeastSquaresFit(w=w, rank=int(rank), cond=float(cond), method=method, rss=float(r @ r))


# -- ridge -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RidgeFit(ClosedForm, OwnsArrays):
    """A ridge fit: ``w``, the unpenalised intercept ``b`` (0 unless ``fit_intercept``), ``lam``.

    ``objective`` is :math:`[\\|y - Xw - b\\|^2 + \\lambda \\|w\\|^2]` at the solution (one entry: a
    closed form, so ``n_iter = 0`` and ``converged = True``).
    """

    w: np.ndarray
    b: float
    lam: float
    method: str
    objective: np.ndarray | None = None

    def predict(self, X) -> np.ndarray:
        """Predictions :math:`Xw + b` for new rows ``X``."""
        return _predict(X, self.w, self.b)


def _center(X: np.ndarray, y: np.ndarray, fit_intercept: bool):
    if not fit_intercept:
        return X, y, np.zeros(X.shape[1]), 0.0
    x_mean, y_mean = X.mean(axis=0), float(y.mean())
    return X - x_mean, y - y_mean, x_mean, y_mean


def ridge(X, y, *, lam: float, fit_intercept: bool = False, method: str = "auto") -> RidgeFit:
    r"""Ridge regression: minimise :math:`\|y - Xw\|^2 + \lambda \|w\|^2`.

    The minimiser is (Chapter 1, {eq}`eq-ridge-solution`)

    .. math:: w_\lambda = (X^\top X + \lambda I)^{-1} X^\top y
              = X^\top (X X^\top + \lambda I)^{-1} y,

    the second (dual) form by the push-through identity ({eq}`eq-ridge-dual`). Every
    eigenvalue of :math:`X^\top X + \lambda I` is at least :math:`\lambda`
    ({eq}`eq-ridge-eigenvalues`), so for :math:`\lambda > 0` the system is always solvable.

    Parameters
    ----------
    X : array_like of shape (n, d)
    y : array_like of shape (n,)
        Real-valued responses (regression: no label set).
    lam : float
        Penalty :math:`\lambda \ge 0` (scikit-learn's ``Ridge(alpha=lam)``). ``lam=0`` is
        :func:`least_squares`.
    fit_intercept : bool
        Fit an unpenalised intercept ``b`` by centring ``X`` and ``y`` first.
    method : {"auto", "cholesky", "dual", "svd"}
        ``"cholesky"``: the primal :math:`d \times d` system; ``"dual"``: the :math:`n \times n`
        system; ``"svd"``: the shrinkage form {eq}`eq-ridge-shrinkage`; ``"auto"``: primal when
        ``n >= d``, dual otherwise.

    Returns
    -------
    RidgeFit

    Examples
    --------
    >>> # (I + 1 I)^-1 y
    >>> ridge(np.eye(2), np.array([2.0, 4.0]), lam=1.0).w.round(12).tolist()
    [1.0, 2.0]
    """
    methods = ("auto", "cholesky", "dual", "svd")
    if method not in methods:
        raise ValueError(f"method must be one of {', '.join(methods)}; got {method!r}")
    lam = check_positive(lam, "lam", allow_zero=True)
    n, d = np.shape(X) if np.ndim(X) == 2 else (0, 0)
    used = ("cholesky" if n >= d else "dual") if method == "auto" else method
    used = "least_squares" if lam == 0 else used
    # The primal form checks X from its own X^T X (check_from_gram): no pass over X to validate
    X, y = check_X_y(X, y, scale_for="ridge", finite=used != "cholesky")
    with np.errstate(invalid="ignore", over="ignore"):  # NaN or inf in X: refused below
        Xc, yc, x_mean, y_mean = _center(X, y, fit_intercept)
    if lam == 0:
        w = least_squares(Xc, yc).w
    else:
        if used == "cholesky":
            with np.errstate(invalid="ignore", over="ignore"):
                A = Xc.T @ Xc
            check_from_gram(X, A, "ridge")
            A[np.diag_indices_from(A)] += lam
            c = Xc.T @ yc
            w = sla.solve(A, c, assume_a="pos", check_finite=False)
            # |yc - Xc w|^2 + lam |w|^2 = yc.yc - 2 w.c + w^T A w from the d x d products at
            # hand: no second pass over X (exact to about eps |y|^2, and never below lam |w|^2)
            obj = max(float(yc @ yc - 2 * (w @ c) + w @ (A @ w)), lam * float(w @ w))
        elif used == "dual":
            K = Xc @ Xc.T
            K[np.diag_indices_from(K)] += lam
            alpha = sla.solve(K, yc, assume_a="pos", check_finite=False)
            w = Xc.T @ alpha
            obj = lam * lam * float(alpha @ alpha) + lam * float(w @ w)  # yc - Xc w = lam alpha
        else:
            U, sv, Vt = np.linalg.svd(Xc, full_matrices=False)
            w = Vt.T @ (sv / (sv**2 + lam) * (U.T @ yc))
    if lam == 0 or used == "svd":
        r = yc - Xc @ w  # = y - X w - b
        obj = float(r @ r) + lam * float(w @ w)
    b = y_mean - float(x_mean @ w) if fit_intercept else 0.0
    return RidgeFit(w=w, b=b, lam=lam, method=used, objective=np.array([obj]))


def ridge_path(X, y, lams: Sequence[float], *, fit_intercept: bool = False) -> np.ndarray:
    r"""Ridge coefficients for many penalties from one SVD ({eq}`eq-ridge-shrinkage`).

    .. math:: w_\lambda = \sum_j v_j \frac{d_j}{d_j^2 + \lambda} u_j^\top y

    Returns an array of shape (len(lams), d). ``y`` holds real-valued responses.

    Examples
    --------
    >>> # y / (1 + lam)
    >>> ridge_path(np.eye(2), np.array([2.0, 4.0]), [0.0, 1.0, 3.0]).round(12).tolist()
    [[2.0, 4.0], [1.0, 2.0], [0.5, 1.0]]
    """
    X, y = check_X_y(X, y, scale_for="ridge_path")
    lams = np.array([check_positive(v, "lams", allow_zero=True) for v in lams])
    Xc, yc, _, _ = _center(X, y, fit_intercept)
    U, sv, Vt = np.linalg.svd(Xc, full_matrices=False)
    uty = U.T @ yc
    with np.errstate(divide="ignore", invalid="ignore"):
        factors = np.where(sv > 0, sv / (sv**2 + lams[:, None]), 0.0)
    return (factors * uty) @ Vt


def ridge_dof(X, lam: float) -> float:
    r"""Effective degrees of freedom :math:`\mathrm{df}(\lambda) = \sum_j d_j^2 / (d_j^2 + \lambda)`.

    The trace of the ridge hat matrix :math:`X (X^\top X + \lambda I)^{-1} X^\top`
    (Chapter 1, {eq}`eq-ridge-dof`); equals the rank of ``X`` at :math:`\lambda = 0`.

    Examples
    --------
    >>> # three directions, each shrunk by 1 / (1 + 1)
    >>> round(ridge_dof(np.eye(3), lam=1.0), 12)
    1.5
    """
    X = as_float_array(X, "X", ndim=2)
    lam = check_positive(lam, "lam", allow_zero=True)
    sv = np.linalg.svd(X, compute_uv=False)
    keep = sv > max(X.shape) * _EPS * (sv[0] if sv.size else 0.0)
    # d^2 / (d^2 + lam) as 1 / (1 + (sqrt(lam) / d)^2): d^2 overflows for d beyond 1e154
    with np.errstate(over="ignore"):
        return float(np.sum(1.0 / (1.0 + (np.sqrt(lam) / sv[keep]) ** 2)))


# -- lasso -----------------------------------------------------------------------------------


def soft_threshold(z, t: float):
    r"""Soft-thresholding :math:`S(z, t) = \sign(z) \max(|z| - t, 0)` (Chapter 1,
    {eq}`eq-soft-threshold`), the minimiser of :math:`\frac12 (w - z)^2 + t|w|`.

    Examples
    --------
    >>> # + 0.0 prints -0.0 as 0.0
    >>> (soft_threshold(np.array([-3.0, -0.5, 0.5, 2.0]), 1.0) + 0.0).tolist()
    [-2.0, 0.0, 0.0, 1.0]
    """
    t = check_positive(t, "t", allow_zero=True)
    z = np.asarray(z, dtype=float)
    return np.sign(z) * np.maximum(np.abs(z) - t, 0.0)


@dataclass(frozen=True)
class LassoFit(OwnsArrays):
    """A lasso fit by coordinate descent.

    Attributes
    ----------
    w : ndarray of shape (d,)
    b : float
        Unpenalised intercept (0 unless ``fit_intercept``).
    lam : float
    n_iter : int
        Number of full sweeps over the coordinates.
    converged : bool
        Whether the duality gap fell below ``tol`` before ``max_iter`` sweeps.
    objective : ndarray of shape (n_iter + 1,)
        :math:`J(w) = \\|y - Xw - b\\|^2 + \\lambda \\|w\\|_1` at the start and after each sweep
        (non-increasing: each coordinate step minimises J exactly in that coordinate).
    gap : ndarray of shape (n_iter + 1,)
        Duality gap after each sweep, an upper bound on :math:`J(w) - \\min J`.
    """

    w: np.ndarray
    b: float
    lam: float
    n_iter: int
    converged: bool
    objective: np.ndarray = field(repr=False)
    gap: np.ndarray = field(repr=False)

    def predict(self, X) -> np.ndarray:
        """Predictions :math:`Xw + b` for new rows ``X``."""
        return _predict(X, self.w, self.b)


def lasso_lambda_max(X, y, *, fit_intercept: bool = False) -> float:
    r"""The smallest :math:`\lambda` for which the lasso solution is :math:`w = 0`:
    :math:`\lambda_{\max} = 2 \|X^\top y\|_\infty` (Chapter 1, {eq}`eq-lasso-lambda-max`). ``y`` holds
    real-valued responses.

    Examples
    --------
    >>> X, y = np.eye(3), np.array([3.0, -0.5, 1.5])
    >>> lam = lasso_lambda_max(X, y); lam
    6.0
    >>> bool(np.all(lasso(X, y, lam=lam).w == 0))  # from lambda_max on, w = 0
    True
    """
    X, y = check_X_y(X, y, scale_for="lasso_lambda_max")
    Xc, yc, _, _ = _center(X, y, fit_intercept)
    return float(2 * np.max(np.abs(Xc.T @ yc)))


def _duality_gap(yy, w, c, Gw, lam):
    # Primal P(w) = |r|^2 + lam |w|_1, in Gram form. Dual point theta = s r with s chosen so
    # that |X^T theta|_inf <= lam / 2; the gap P - D(theta) bounds P(w) - min P.
    rss = max(yy - 2 * c @ w + w @ Gw, 0.0)
    primal = rss + lam * np.abs(w).sum()
    xtr = np.max(np.abs(c - Gw)) if w.size else 0.0
    s = 1.0 if xtr <= lam / 2 else lam / (2 * xtr)
    ytr = yy - c @ w
    gap = rss * (1 + s * s) + lam * np.abs(w).sum() - 2 * s * ytr
    return primal, max(gap, 0.0)


def _lasso_at_zero(Xc, yc, x_mean, y_mean, fit_intercept: bool) -> LassoFit:
    """The lasso at lam = 0 is least squares. Its dual is degenerate (no duality gap to stop
    on), so it is solved directly; the fit reports no sweep and a gap of 0."""
    w = least_squares(Xc, yc).w
    rss = float(np.sum((yc - Xc @ w) ** 2))
    b = y_mean - float(x_mean @ w) if fit_intercept else 0.0
    return LassoFit(w=w, b=b, lam=0.0, n_iter=0, converged=True,
                    objective=np.array([rss]), gap=np.array([0.0]))


def _coordinate_sweep(wl, cl, dl, G, Gw, half) -> None:
    r"""One cyclic sweep of the lasso's coordinate update ({eq}`eq-lasso-coordinate`), in place.

    ``wl``, ``cl``, ``dl`` are w, :math:`c = X^\top y` and the diagonal of :math:`G = X^\top X`
    as lists of floats; ``Gw`` is the vector :math:`Gw`, kept in step with w; ``half`` is
    :math:`\lambda / 2`.
    """
    for j in range(len(wl)):
        if dl[j] == 0.0:  # an all-zero column: its coefficient stays 0
            continue
        old = wl[j]
        rho = cl[j] - Gw[j] + dl[j] * old  # x_j^T r_(j): the residual without x_j w_j
        shrunk = rho - half if rho > half else rho + half if rho < -half else 0.0
        new = shrunk / dl[j]
        if new != old:  # only a change moves Gw, by column j of G: O(d)
            wl[j] = new
            Gw += G[:, j] * (new - old)


def lasso(
    X,
    y,
    *,
    lam: float,
    fit_intercept: bool = False,
    w0=None,
    max_iter: int = 10_000,
    tol: float = 1e-12,
) -> LassoFit:
    r"""Lasso by cyclic coordinate descent: minimise :math:`J(w) = \|y - Xw\|^2 + \lambda \|w\|_1`.

    With the other coordinates fixed, the minimiser in :math:`w_j` is the soft-threshold
    (Chapter 1, {eq}`eq-lasso-coordinate`)

    .. math:: w_j \leftarrow \frac{S\big(x_j^\top r_{(j)},\ \lambda / 2\big)}{\|x_j\|^2},
              \qquad r_{(j)} = y - \sum_{k \ne j} x_k w_k .

    The sweep works on the Gram matrix :math:`G = X^\top X` and :math:`c = X^\top y`
    ("covariance updates"): :math:`x_j^\top r_{(j)} = c_j - (Gw)_j + G_{jj} w_j`, so after one
    :math:`O(nd^2)` product each coordinate step costs :math:`O(d)`, independent of n. It stops
    when the duality gap is at most ``tol`` times :math:`\|y\|^2`.

    Parameters
    ----------
    X : array_like of shape (n, d)
    y : array_like of shape (n,)
        Real-valued responses (regression: no label set).
    lam : float
        :math:`\lambda \ge 0` (``lam=0`` is solved by :func:`least_squares`). scikit-learn's
        ``Lasso(alpha)`` minimises :math:`\frac{1}{2n}\|y - Xw\|^2 + \alpha \|w\|_1`, which is
        :math:`J / (2n)` with :math:`\lambda = 2 n \alpha`.
    fit_intercept : bool
        Fit an unpenalised intercept by centring ``X`` and ``y``.
    w0 : array_like of shape (d,), optional
        Warm start (used by :func:`lasso_path`).
    max_iter : int
        Maximum number of sweeps; reaching it warns with :class:`mlnotes.ConvergenceWarning`
        and returns ``converged=False``.
    tol : float
        Relative duality-gap tolerance.

    Returns
    -------
    LassoFit

    Examples
    --------
    >>> # orthonormal X: soft-thresholding
    >>> fit = lasso(np.eye(3), np.array([3.0, -0.5, 1.5]), lam=1.0)
    >>> fit.w.round(10).tolist(), fit.converged
    ([2.5, 0.0, 1.0], True)
    """
    X, y = check_X_y(X, y, scale_for="lasso")
    lam = check_positive(lam, "lam", allow_zero=True)
    tol = check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter")
    w0 = check_start(w0, X.shape[1])
    Xc, yc, x_mean, y_mean = _center(X, y, fit_intercept)
    if lam == 0:  # a degenerate dual (no gap to stop on): solve least squares
        return _lasso_at_zero(Xc, yc, x_mean, y_mean, fit_intercept)
    w = w0  # 0, or the warm start (a copy: the sweeps update it)
    G = Xc.T @ Xc
    c = Xc.T @ yc
    yy = float(yc @ yc)
    diag = np.diag(G).copy()
    Gw = G @ w
    half = lam / 2
    primal, gap = _duality_gap(yy, w, c, Gw, lam)
    objective, gaps = [primal], [gap]
    threshold = tol * max(yy, np.finfo(float).tiny)
    converged = gap <= threshold
    it = 0
    # Plain Python floats in the inner loop: per-coordinate numpy scalar arithmetic
    # would cost more than the O(d) vector update it guards.
    wl, cl, dl = w.tolist(), c.tolist(), diag.tolist()
    while not converged and it < max_iter:
        it += 1
        _coordinate_sweep(wl, cl, dl, G, Gw, half)  # w_j <- S(rho_j, lam / 2) / G_jj
        w = np.array(wl)
        Gw = G @ w  # refresh to stop rounding drift in the incremental updates
        primal, gap = _duality_gap(yy, w, c, Gw, lam)
        objective.append(primal)
        gaps.append(gap)
        converged = gap <= threshold
    w = np.array(wl)
    if not converged:
        warnings.warn(
            f"lasso stopped after max_iter={max_iter} sweeps with duality gap "
            f"{gaps[-1]:.2e} > tol * |y|^2 = {threshold:.2e}; increase max_iter or tol",
            ConvergenceWarning,
            stacklevel=2,
        )
    b = y_mean - float(x_mean @ w) if fit_intercept else 0.0
    return LassoFit(
        w=w, b=b, lam=lam, n_iter=it, converged=bool(converged),
        objective=np.array(objective), gap=np.array(gaps),
    )


def lasso_path(X, y, lams: Sequence[float], *, fit_intercept: bool = False, **kwargs) -> np.ndarray:
    """Lasso coefficients for each ``lam`` (solved in decreasing order with warm starts).

    Returns an array of shape (len(lams), d) in the order of ``lams``. ``y`` holds real-valued
    responses.

    Examples
    --------
    >>> lasso_path(np.eye(2), np.array([3.0, -1.0]), [8.0, 2.0, 0.0]).round(10).tolist()
    [[0.0, 0.0], [2.0, 0.0], [3.0, -1.0]]
    """
    X, y = check_X_y(X, y, scale_for="lasso_path")
    lams = np.array([check_positive(v, "lams", allow_zero=True) for v in lams])
    order = np.argsort(-lams)
    out = np.empty((lams.size, X.shape[1]))
    w = None
    for k in order:
        w = lasso(X, y, lam=lams[k], fit_intercept=fit_intercept, w0=w, **kwargs).w
        out[k] = w
    return out


# -- cross-validation ------------------------------------------------------------------------


def cross_validate(
    X, y, lams: Sequence[float], *, fit: str = "ridge", n_folds: int = 5, rng=0,
    fit_intercept: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    r"""K-fold cross-validation error of ridge or lasso for each penalty.

    .. math:: \mathrm{CV}(\lambda) = \frac{1}{n} \sum_{k=1}^K
              \sum_{i \in F_k} \big(y_i - \hat f_\lambda^{(-k)}(x_i)\big)^2

    Parameters
    ----------
    y : array_like of shape (n,)
        Real-valued responses (regression: no label set).
    fit : {"ridge", "lasso"}
    n_folds : int
        Number of folds K (rows shuffled once with ``rng``: None, an int seed or a Generator).

    Returns
    -------
    (cv, se) : ndarrays of shape (len(lams),)
        Mean squared prediction error over all rows, and its standard error across folds.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((40, 3))
    >>> y = X @ np.array([1.0, 0.0, -1.0]) + 0.1 * rng.standard_normal(40)
    >>> mean, se = cross_validate(X, y, [0.1, 1.0, 10.0], n_folds=5)
    >>> mean.shape, se.shape  # one mean validation error and its standard error per lambda
    ((3,), (3,))
    """
    if fit not in ("ridge", "lasso"):
        raise ValueError(f"fit must be 'ridge' or 'lasso'; got {fit!r}")
    X, y = check_X_y(X, y)
    n = X.shape[0]
    n_folds = check_int(n_folds, "n_folds", low=2, high=n)
    folds = np.array_split(check_rng(rng).permutation(n), n_folds)
    errs = np.empty((len(folds), len(lams)))
    for k, test in enumerate(folds):
        train = np.setdiff1d(np.arange(n), test)
        for m, lam in enumerate(lams):
            if fit == "ridge":
                model = ridge(X[train], y[train], lam=lam, fit_intercept=fit_intercept)
            else:
                model = lasso(X[train], y[train], lam=lam, fit_intercept=fit_intercept)
            errs[k, m] = np.mean((y[test] - model.predict(X[test])) ** 2)
    sizes = np.array([len(f) for f in folds])
    cv = sizes @ errs / n
    se = errs.std(axis=0, ddof=1) / np.sqrt(len(folds))
    return cv, se


# -- elastic net -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ElasticNetFit(OwnsArrays):
    """An elastic-net fit by coordinate descent.

    Attributes
    ----------
    w : ndarray of shape (d,)
    b : float
        Unpenalised intercept (0 unless ``fit_intercept``).
    lam1, lam2 : float
        The :math:`\\ell_1` and squared :math:`\\ell_2` penalties.
    n_iter : int
        Number of full sweeps over the coordinates.
    converged : bool
        Whether the duality gap fell below ``tol`` before ``max_iter`` sweeps.
    objective : ndarray of shape (n_iter + 1,)
        :math:`\\|y - Xw - b\\|^2 + \\lambda_1 \\|w\\|_1 + \\lambda_2 \\|w\\|^2` at the start and
        after each sweep (non-increasing).
    gap : ndarray of shape (n_iter + 1,)
        Duality gap after each sweep, an upper bound on the objective minus its minimum.
    """

    w: np.ndarray
    b: float
    lam1: float
    lam2: float
    n_iter: int
    converged: bool
    objective: np.ndarray = field(repr=False)
    gap: np.ndarray = field(repr=False)

    def predict(self, X) -> np.ndarray:
        """Predictions :math:`Xw + b` for new rows ``X``."""
        return _predict(X, self.w, self.b)


def elastic_net(
    X,
    y,
    *,
    lam1: float,
    lam2: float,
    fit_intercept: bool = False,
    w0=None,
    max_iter: int = 10_000,
    tol: float = 1e-12,
) -> ElasticNetFit:
    r"""Elastic net: minimise :math:`\|y - Xw - b\|^2 + \lambda_1 \|w\|_1 + \lambda_2 \|w\|^2`.

    Appending the rows :math:`\sqrt{\lambda_2} I` to ``X`` and zeros to ``y`` turns the ridge
    part into residuals (Chapter 1, {eq}`eq-elastic-net-augmented`), so the elastic net is
    the lasso of the augmented data, solved by :func:`lasso`'s coordinate descent with its
    duality-gap stopping rule. On the augmented data the lasso update becomes
    ({eq}`eq-elastic-net-coordinate`)

    .. math:: w_j \leftarrow \frac{S\big(x_j^\top r_{(j)},\ \lambda_1 / 2\big)}
              {\|x_j\|^2 + \lambda_2}.

    Parameters
    ----------
    X : array_like of shape (n, d)
    y : array_like of shape (n,)
        Real-valued responses (regression: no label set).
    lam1, lam2 : float
        :math:`\lambda_1, \lambda_2 \ge 0`; ``lam2=0`` is :func:`lasso`, ``lam1=0`` is
        :func:`ridge`. scikit-learn's ``ElasticNet(alpha, l1_ratio)`` minimises
        :math:`\frac{1}{2n}\|y - Xw\|^2 + \alpha\rho\|w\|_1 + \frac{\alpha(1 - \rho)}{2}\|w\|^2`
        with :math:`\rho` = ``l1_ratio``: :math:`2n` times it is our objective with
        :math:`\lambda_1 = 2n\alpha\rho`, :math:`\lambda_2 = n\alpha(1 - \rho)`.
    fit_intercept : bool
        Fit an unpenalised intercept by centring ``X`` and ``y``.
    w0 : array_like of shape (d,), optional
        Warm start (used by :func:`elastic_net_path`).
    max_iter : int
        Maximum number of sweeps; reaching it warns with :class:`mlnotes.ConvergenceWarning`
        and returns ``converged=False``.
    tol : float
        Relative duality-gap tolerance (relative to :math:`\|y\|^2`, ``y`` centred when
        ``fit_intercept``).

    Returns
    -------
    ElasticNetFit

    Examples
    --------
    >>> X, y = np.eye(3), np.array([3.0, -0.5, 1.5])  # orthonormal X: S(y_j, 1/2) / (1 + 1)
    >>> fit = elastic_net(X, y, lam1=1.0, lam2=1.0)
    >>> fit.w.round(10).tolist(), fit.converged
    ([1.25, 0.0, 0.5], True)
    """
    X, y = check_X_y(X, y)
    check_scale(X, "elastic_net")
    lam1 = check_positive(lam1, "lam1", allow_zero=True)
    lam2 = check_positive(lam2, "lam2", allow_zero=True)
    tol = check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter")
    Xc, yc, x_mean, y_mean = _center(X, y, fit_intercept)
    d = Xc.shape[1]
    # the ridge part as d extra rows sqrt(lam2) e_j with target 0 ({eq}`eq-elastic-net-augmented`)
    Xa = np.vstack([Xc, np.sqrt(lam2) * np.eye(d)])
    ya = np.concatenate([yc, np.zeros(d)])
    with warnings.catch_warnings():  # re-issued below under this function's name
        warnings.simplefilter("ignore", ConvergenceWarning)
        fit = lasso(Xa, ya, lam=lam1, w0=w0, max_iter=max_iter, tol=tol)
    if not fit.converged:
        warnings.warn(
            f"elastic_net stopped after max_iter={max_iter} sweeps with duality gap "
            f"{fit.gap[-1]:.2e} > tol * |y|^2; increase max_iter or tol",
            ConvergenceWarning,
            stacklevel=2,
        )
    b = y_mean - float(x_mean @ fit.w) if fit_intercept else 0.0
    return ElasticNetFit(
        w=fit.w, b=b, lam1=lam1, lam2=lam2, n_iter=fit.n_iter, converged=fit.converged,
        objective=fit.objective, gap=fit.gap,
    )


def elastic_net_path(
    X, y, lam1s: Sequence[float], *, lam2: float, fit_intercept: bool = False, **kwargs
) -> np.ndarray:
    """Elastic-net coefficients for each ``lam1`` at a fixed ``lam2`` (solved in decreasing
    order of ``lam1`` with warm starts).

    Returns an array of shape (len(lam1s), d) in the order of ``lam1s``. ``y`` holds
    real-valued responses.

    Examples
    --------
    >>> W = elastic_net_path(np.eye(2), np.array([3.0, -1.0]), [8.0, 2.0, 0.0], lam2=1.0)
    >>> W.round(10).tolist()
    [[0.0, 0.0], [1.0, 0.0], [1.5, -0.5]]
    """
    X, y = check_X_y(X, y)
    check_scale(X, "elastic_net_path")
    lam1s = np.array([check_positive(v, "lam1s", allow_zero=True) for v in lam1s])
    out = np.empty((lam1s.size, X.shape[1]))
    w = None
    for k in np.argsort(-lam1s):
        w = elastic_net(X, y, lam1=lam1s[k], lam2=lam2, fit_intercept=fit_intercept, w0=w,
                        **kwargs).w
        out[k] = w
    return out


# -- automatic relevance determination ---------------------------------------------------------


@dataclass(frozen=True)
class ARDFit(OwnsArrays):
    """Automatic relevance determination: per-feature prior variances fitted by evidence
    maximisation.

    Attributes
    ----------
    w : ndarray of shape (d,)
        The posterior mean :math:`\\mu` of the weights (0 for pruned features).
    b : float
        Intercept (0 unless ``fit_intercept``).
    C : ndarray of shape (d,)
        The prior variances :math:`C_d` at the end (0 for pruned features: their limit).
    sigma2 : float
        The noise variance :math:`\\sigma^2`.
    Sigma : ndarray of shape (d, d)
        The posterior covariance of the weights (zero rows and columns for pruned features).
    gamma : ndarray of shape (d,)
        :math:`\\gamma_d = 1 - \\Sigma_{dd} / C_d`, how well the data determine :math:`w_d`
        (0 for pruned features).
    relevant : ndarray of shape (d,), bool
        The features kept (``C_d > C_min`` throughout).
    C_min, tol : float
    n_iter : int
        Number of updates.
    converged : bool
        Whether the relative change of ``w`` fell below ``tol`` before ``max_iter`` updates.
    objective : ndarray of shape (n_iter + 1,)
        The negative log evidence :math:`-\\ln p(y \\mid C, \\sigma^2)` at the hyperparameters
        of each update and at the end.
    """

    w: np.ndarray
    b: float
    C: np.ndarray
    sigma2: float
    Sigma: np.ndarray = field(repr=False)
    gamma: np.ndarray = field(repr=False)
    relevant: np.ndarray = field(repr=False)
    C_min: float
    tol: float
    n_iter: int
    converged: bool
    objective: np.ndarray = field(repr=False)

    def predict(self, X) -> np.ndarray:
        """Predictions :math:`Xw + b` (the posterior mean) for new rows ``X``."""
        return _predict(X, self.w, self.b)


def _ard_posterior(Xk, yc, G, c, prec, beta):
    # Sigma = (beta G + diag(prec))^{-1}, mu = beta Sigma c, and -ln p(y | C, sigma^2) from
    # the d x d factor: ln|S| = -n ln beta - sum ln prec + ln|beta G + diag(prec)|.
    n, d = Xk.shape
    A = beta * G
    A[np.diag_indices(d)] += prec
    L = np.linalg.cholesky(A)
    Linv = sla.solve_triangular(L, np.eye(d), lower=True)
    Sigma = Linv.T @ Linv
    mu = beta * (Sigma @ c)
    r = yc - Xk @ mu  # the residual from X, not from G: accurate when the fit is close
    sse = float(r @ r)
    logdet = 2 * np.sum(np.log(np.diag(L))) - n * np.log(beta) - np.sum(np.log(prec))
    nle = 0.5 * (n * np.log(2 * np.pi) + logdet + beta * sse + prec @ mu**2)
    return Sigma, mu, sse, nle


def ard(
    X,
    y,
    *,
    fit_intercept: bool = False,
    C_min: float = 1e-4,
    max_iter: int = 1000,
    tol: float = 1e-10,
) -> ARDFit:
    r"""Automatic relevance determination: the prior :math:`w_d \sim N(0, C_d)` with each
    variance :math:`C_d`, and the noise variance :math:`\sigma^2`, fitted by maximising the
    evidence :math:`p(y \mid C, \sigma^2)` (Chapter 1, {eq}`def-ard-evidence`).

    Given the hyperparameters, the posterior of ``w`` is :math:`N(\mu, \Sigma)` with
    :math:`\Sigma = (X^\top X/\sigma^2 + \operatorname{diag}(C)^{-1})^{-1}` and
    :math:`\mu = \Sigma X^\top y / \sigma^2`. MacKay's fixed-point updates
    ({eq}`eq-ard-update`)

    .. math:: \gamma_d = 1 - \frac{\Sigma_{dd}}{C_d}, \qquad
              C_d \leftarrow \frac{\mu_d^2}{\gamma_d}, \qquad
              \sigma^2 \leftarrow \frac{\|y - X\mu\|^2}{n - \sum_d \gamma_d}

    are repeated until the relative change of :math:`\mu` (in the 1-norm) is at most ``tol``.
    A feature whose variance falls to ``C_min`` or below is pruned (its :math:`C_d \to 0`:
    :math:`w_d = 0`). It starts, as scikit-learn's ``ARDRegression`` does, from
    :math:`C_d = 1` and :math:`\sigma^2 = \operatorname{Var}(y)`, and with
    ``alpha_1 = alpha_2 = lambda_1 = lambda_2 = 0`` and ``threshold_lambda = 1 / C_min``
    that estimator makes the same updates.

    Parameters
    ----------
    X : array_like of shape (n, d)
    y : array_like of shape (n,)
        Real-valued responses (regression: no label set).
    fit_intercept : bool
        Fit an unpenalised intercept by centring ``X`` and ``y``.
    C_min : float
        Prune a feature once its prior variance is at most this (> 0).
    max_iter : int
        Maximum number of updates; reaching it warns with
        :class:`mlnotes.ConvergenceWarning` and returns ``converged=False``.
    tol : float
        Relative tolerance on the change of ``w`` between updates.

    Returns
    -------
    ARDFit

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.standard_normal((200, 4))
    >>> y = X @ np.array([2.0, 0.0, -1.0, 0.0]) + 0.1 * rng.standard_normal(200)
    >>> fit = ard(X, y)
    >>> fit.relevant.tolist(), fit.w.round(1).tolist(), fit.converged
    ([True, False, True, False], [2.0, 0.0, -1.0, 0.0], True)
    """
    X, y = check_X_y(X, y, scale_for="ard")
    C_min = check_positive(C_min, "C_min")
    tol = check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter")
    Xc, yc, x_mean, y_mean = _center(X, y, fit_intercept)
    n, d = Xc.shape
    G_all, c_all, yy = Xc.T @ Xc, Xc.T @ yc, float(yc @ yc)
    prec = np.ones(d)  # 1 / C_d
    beta = 1.0 / (np.var(yc) + _EPS)  # 1 / sigma^2, as scikit-learn starts
    keep = np.ones(d, dtype=bool)
    w, w_old = np.zeros(d), None
    objective: list[float] = []
    converged, it = False, 0
    change = 1.0  # relative change of w in the last update (the first, from w = 0: 100 %)
    while it < max_iter and keep.any():
        it += 1
        Sigma, mu, sse, nle = _ard_posterior(Xc[:, keep], yc, G_all[np.ix_(keep, keep)],
                                             c_all[keep], prec[keep], beta)
        objective.append(nle)
        w[:] = 0.0
        w[keep] = mu
        # MacKay's updates ({eq}`eq-ard-update`), in precisions 1 / C_d and 1 / sigma^2
        # g_d = 1 - Sigma_dd / C_d lies in [0, 1]; rounding takes it below 0 when C_d is far
        # below the data's scale (a tiny C_min), and a negative precision breaks Cholesky
        g = np.clip(1.0 - prec[keep] * np.diag(Sigma), np.finfo(float).eps, 1.0)
        prec[keep] = g / np.maximum(mu**2, np.finfo(float).tiny)
        with np.errstate(over="ignore"):  # y = 0: sigma^2 = 0, beta = inf (handled below)
            beta = (n - g.sum()) / max(sse, np.finfo(float).tiny * max(yy, 1.0))
        keep = prec < 1.0 / C_min
        w[~keep] = 0.0
        if w_old is not None:
            delta = np.abs(w - w_old).sum()
            if delta <= tol * np.abs(w).sum():
                converged = True
                break
            change = delta / max(np.abs(w).sum(), _EPS)
        w_old = w.copy()
    if not converged and keep.any():
        warnings.warn(
            f"ard stopped after max_iter={max_iter} updates with relative change "
            f"{change:.2e} > tol={tol:.1e}; "
            "increase max_iter or tol",
            ConvergenceWarning,
            stacklevel=2,
        )
    converged = converged or not keep.any()
    Sigma_full, gamma = np.zeros((d, d)), np.zeros(d)
    if keep.any():  # the posterior at the final hyperparameters
        Sigma, mu, _, nle = _ard_posterior(Xc[:, keep], yc, G_all[np.ix_(keep, keep)],
                                           c_all[keep], prec[keep], beta)
        w[:] = 0.0
        w[keep] = mu
        Sigma_full[np.ix_(keep, keep)] = Sigma
        gamma[keep] = 1.0 - prec[keep] * np.diag(Sigma)
    else:
        w[:] = 0.0
        # y = 0 (after centring): sigma^2 -> 0 and the evidence grows without bound
        nle = 0.5 * (n * np.log(2 * np.pi / beta) + beta * yy) if yy > 0 else -np.inf
    objective.append(nle)
    C = np.where(keep, 1.0 / prec, 0.0)
    b = y_mean - float(x_mean @ w) if fit_intercept else 0.0
    return ARDFit(
        w=w, b=b, C=C, sigma2=1.0 / beta, Sigma=Sigma_full, gamma=gamma, relevant=keep,
        C_min=C_min, tol=tol, n_iter=it, converged=bool(converged),
        objective=np.array(objective),
    )
