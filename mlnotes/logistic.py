r"""Logistic regression by gradient ascent and by Newton's method / IRLS (Chapter 2).

The model for labels :math:`y_i \in \{0, 1\}` is the Bernoulli likelihood with the sigmoid of a
linear score,

.. math:: P(y_i = 1 \mid x_i, w) = g(w^\top x_i), \qquad g(a) = \frac{1}{1 + e^{-a}},

and the fits below maximise the (optionally L2-penalised) log-likelihood

.. math:: \ell_\lambda(w) = \sum_{i=1}^n \bigl[y_i \log g(a_i) + (1 - y_i) \log(1 - g(a_i))\bigr]
          - \frac{\lambda}{2}\|w\|^2, \qquad a_i = w^\top x_i .

``X`` is the design matrix as the model uses it: put the constant column :math:`x_{i0} = 1`
first yourself when the model has an intercept (the penalty, when ``lam > 0``, then applies to
the intercept too, as in scikit-learn with ``fit_intercept=False``).

Everything is written so that large scores neither overflow nor lose precision: the sigmoid uses
:math:`e^{-|a|}` only, and :math:`\log g(a) = -\log(1 + e^{-a})` is evaluated with
``numpy.logaddexp``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from mlnotes._validation import (
    ConvergenceWarning,
    OwnsArrays,
    as_float_array,
    check_int,
    check_labels,
    check_n_features,
    check_positive,
    check_start,
    check_X_y,
)

__all__ = [
    "GLMFit",
    "LogisticFit",
    "ProbitFit",
    "SoftmaxFit",
    "glm",
    "gradient_ascent",
    "irls",
    "is_separable",
    "log_likelihood",
    "log_loss",
    "log_sigmoid",
    "newton",
    "probit",
    "sigmoid",
    "softmax",
    "softmax_regression",
]

# A sample with y_i a_i beyond this score has a fitted probability within 1e-13 of its label:
# numerically perfect prediction, the first sign of separation (checked exactly by an LP).
_SEPARATION_SCORE = 30.0


# -- the sigmoid and the losses -------------------------------------------------------------------

def sigmoid(a) -> np.ndarray:
    r"""The logistic sigmoid :math:`g(a) = 1 / (1 + e^{-a})`, elementwise (Chapter 2, {eq}`def-sigmoid`).

    Evaluated as :math:`1/(1 + e^{-|a|})` for :math:`a \ge 0` and :math:`e^{-|a|}/(1 + e^{-|a|})`
    for :math:`a < 0`, so the exponential never overflows and both tails keep full relative
    precision (:math:`g(-800)` underflows to 0, as it should, with no warning).

    Examples
    --------
    >>> # no overflow warning at either end
    >>> sigmoid(np.array([-1000.0, 0.0, 1000.0])).tolist()
    [0.0, 0.5, 1.0]
    """
    a = np.asarray(a, dtype=float)
    with np.errstate(under="ignore"):  # e^{-|a|} rounding to 0 is the correct answer
        e = np.exp(-np.abs(a))  # in (0, 1]: cannot overflow
        return np.where(a >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def log_sigmoid(a) -> np.ndarray:
    r""":math:`\log g(a) = -\log(1 + e^{-a})`, exact for large :math:`|a|`.

    Use :math:`\log(1 - g(a)) = \log g(-a)` ({eq}`eq-sigmoid-symmetry`) for the other class.

    Examples
    --------
    >>> # log(1 / (1 + e^1000)) = -1000, log(1/2)
    >>> log_sigmoid(np.array([-1000.0, 0.0])).round(6).tolist()
    [-1000.0, -0.693147]
    """
    with np.errstate(under="ignore"):  # log(1 + tiny) rounding to tiny or 0 is exact enough
        return -np.logaddexp(0.0, -np.asarray(a, dtype=float))


def log_loss(y, f) -> np.ndarray:
    r"""Log-loss :math:`\log(1 + e^{-y f})` of labels :math:`y \in \{-1, +1\}` and scores ``f``.

    Elementwise, in nats (Chapter 2, {eq}`eq-logloss-nll`); its sum is the Bernoulli negative
    log-likelihood of the labels :math:`(y + 1)/2 \in \{0, 1\}`. Exact for large :math:`|f|`.

    Parameters
    ----------
    y : array_like of shape (n,)
        Labels in {-1, +1} (convert {0, 1} labels with :func:`mlnotes.to_pm1`).
    f : array_like of shape (n,)
        Scores :math:`f(x_i) = w^\top x_i`.

    Examples
    --------
    >>> # log(1 + e^{-y f})
    >>> log_loss(np.array([1.0, -1.0]), np.array([0.0, 2.0])).round(6).tolist()
    [0.693147, 2.126928]
    """
    y = check_labels(y, (-1.0, 1.0))
    f = as_float_array(f, "f", ndim=1)
    if f.shape != y.shape:
        raise ValueError(f"y and f must have the same shape, got {y.shape} and {f.shape}")
    with np.errstate(under="ignore"):
        return np.logaddexp(0.0, -y * f)


def log_likelihood(w, X, y) -> float:
    r"""Bernoulli log-likelihood of labels :math:`y \in \{0, 1\}` (Chapter 2, {eq}`def-loglik`).

    .. math:: \ell(w) &= \sum_i \bigl[y_i \log g(a_i) + (1 - y_i)\log g(-a_i)\bigr] \\
              &= \sum_i \bigl[y_i a_i - \log(1 + e^{a_i})\bigr], \quad a = Xw .

    Examples
    --------
    >>> # 4 log(1/2)
    >>> ll = log_likelihood(np.zeros(2), np.ones((4, 2)), np.array([0.0, 1.0, 1.0, 0.0]))
    >>> round(ll, 6)
    -2.772589
    """
    X, y = check_X_y(X, y)
    y = check_labels(y, (0.0, 1.0))
    w = as_float_array(w, "w", ndim=1)
    if w.shape[0] != X.shape[1]:
        raise ValueError(f"w has {w.shape[0]} entries but X has {X.shape[1]} columns")
    return _loglik(X @ w, y)


def _loglik(a: np.ndarray, y: np.ndarray) -> float:
    with np.errstate(under="ignore"):
        return float(np.sum(y * a - np.logaddexp(0.0, a)))


# -- fits -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LogisticFit(OwnsArrays):
    """A fitted binary logistic regression and the trace of the iterations.

    Attributes
    ----------
    w : ndarray of shape (d,)
        Weights (the first one is the intercept when the first column of ``X`` is constant).
    se : ndarray of shape (d,)
        Standard errors :math:`\\sqrt{\\operatorname{diag}((X^\\top R X + \\lambda I)^{-1})}`, the
        inverse Fisher information (taken at the last Newton iterate, which agrees with the one at
        ``w`` to the relative order of ``tol``); ``inf`` when the data are separable (the information
        vanishes along the separating direction).
    log_likelihood : float
        :math:`\\ell(w)` without the penalty.
    objective : ndarray of shape (n_iter + 1,)
        Penalised log-likelihood :math:`\\ell_\\lambda` at every iterate, the start included.
    grad_norm : ndarray of shape (n_iter + 1,)
        Euclidean norm of the gradient of :math:`\\ell_\\lambda` at every iterate.
    step_sizes : ndarray of shape (n_iter,)
        Step length used at every iteration (1 for a full Newton step, halved on overshoot).
    path : ndarray of shape (n_iter + 1, d)
        The iterates themselves.
    n_iter : int
    converged : bool
    separable : bool
        True when the data were found (quasi-)separable, so that no maximiser exists.
    lam : float
    method : str
    """

    w: np.ndarray
    se: np.ndarray
    log_likelihood: float
    objective: np.ndarray
    grad_norm: np.ndarray
    step_sizes: np.ndarray
    path: np.ndarray
    n_iter: int
    converged: bool
    separable: bool
    lam: float
    method: str

    @property
    def z(self) -> np.ndarray:
        """Wald statistics ``w / se`` (the "Z score" column of ESL Table 4.2)."""
        return self.w / self.se

    def decision_function(self, X) -> np.ndarray:
        """Scores :math:`a = X w`."""
        return check_n_features(X, self.w.shape[0]) @ self.w

    def predict_proba(self, X) -> np.ndarray:
        """Fitted probabilities :math:`P(y = 1 \\mid x) = g(w^\\top x)`."""
        return sigmoid(self.decision_function(X))

    def predict(self, X) -> np.ndarray:
        """Labels in {0, 1}: 1 where :math:`w^\\top x \\ge 0` (probability at least 1/2; a tie goes to 1)."""
        return (self.decision_function(X) >= 0).astype(float)


def _check_problem(X, y, lam, tol, max_iter, w0):
    X, y = check_X_y(X, y, scale_for="logistic regression")
    y = check_labels(y, (0.0, 1.0))
    lam = check_positive(lam, "lam", allow_zero=True)
    tol = check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter")
    return X, y, lam, tol, int(max_iter), check_start(w0, X.shape[1])


def is_separable(X, y) -> bool:
    r"""Whether labels :math:`y \in \{0, 1\}` are (quasi-)separable by a hyperplane through the origin.

    The maximum likelihood estimate fails to exist exactly when some :math:`v` with :math:`Xv \neq 0`
    has :math:`s_i x_i^\top v \ge 0` for all :math:`i`, :math:`s_i = 2y_i - 1` (Albert and Anderson
    1984; Chapter 2, {ref}`sec-separation`). Decided by the linear program of Konis (2007):
    maximise :math:`\sum_i s_i x_i^\top v` subject to :math:`s_i x_i^\top v \ge 0` and
    :math:`-1 \le v_j \le 1`; a positive optimum exhibits such a :math:`v`.

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [1.0, 3.0]])  # intercept and x
    >>> apart, overlapping = np.array([0.0, 0.0, 1.0, 1.0]), np.array([0.0, 1.0, 0.0, 1.0])
    >>> is_separable(X, apart), is_separable(X, overlapping)
    (True, False)
    """
    from scipy.optimize import linprog  # an LP solver is the right tool; it is not what we teach

    X, y = check_X_y(X, y)
    s = 2.0 * check_labels(y, (0.0, 1.0)) - 1.0
    scale = np.max(np.abs(X), axis=0)
    scale[scale == 0] = 1.0
    A = (s[:, None] * X) / scale  # scale columns so the box constraint treats them alike
    res = linprog(-A.sum(axis=0), A_ub=-A, b_ub=np.zeros(len(s)), bounds=(-1.0, 1.0), method="highs")
    if res.status != 0:  # pragma: no cover - HiGHS solves this bounded, feasible LP
        raise RuntimeError(f"separation LP failed: {res.message}")
    # the optimum is a sum of n margins of a unit-box direction; below this it is rounding
    return bool(-res.fun > 1e-7 * max(1.0, np.abs(A).sum() / A.shape[1]))


def _singular_message(H_label: str, lam: float = 0.0) -> str:
    cure = ("regularise with lam > 0" if lam == 0 else
            f"lam = {lam:g} is too small to lift it (a lam below about 1e-16 of the Hessian's "
            "largest entry is lost in rounding): use a larger lam")
    return (
        f"the {H_label} is singular or numerically singular (the columns of X are linearly "
        f"dependent or nearly so, or the fitted probabilities are 0 or 1): remove redundant "
        f"columns or {cure}"
    )


def _newton_family(X, y, *, lam, tol, max_iter, w0, method) -> LogisticFit:
    """The loop of :func:`newton` and :func:`irls` (``method``): a direction, a step, the stop.

    Stops when a step changes no weight by more than ``tol`` relative to the largest, or when
    the data are found separable (no maximum exists without a penalty).
    """
    X, y, lam, tol, max_iter, w = _check_problem(X, y, lam, tol, max_iter, w0)
    a = X @ w
    obj = _penalised_loglik(a, y, w, lam)
    objective, grad_norms, steps, path = [obj], [], [], [w.copy()]
    converged = separable = separation_checked = False
    L = None

    def penalised(v):
        a_v = X @ v
        return _penalised_loglik(a_v, y, v, lam), a_v

    for it in range(max_iter):
        # the first Hessian is also checked for conditioning: a singular one there is a
        # property of X (dependent columns), later ones may lose rank only by separation
        grad, delta, L = _newton_direction(
            X, y, w, a, lam, method, check_conditioning=it == 0)
        grad_norms.append(float(np.linalg.norm(grad)))
        if L is None:  # the weights r underflowed along some direction
            if it == 0 or separation_checked or lam != 0 or not is_separable(X, y):
                plus = " + lam I" if lam and it == 0 else ""
                what = "weighted Hessian X^T R X" + plus
                raise np.linalg.LinAlgError(_singular_message(what, lam))
            separable = True
            grad_norms.pop()  # recorded again below, once per iterate
            break
        t, w, obj, a = _halving_step(penalised, w, delta, obj)
        objective.append(obj)
        steps.append(t)
        path.append(w.copy())
        converged = bool(t * np.max(np.abs(delta)) <= tol * max(1.0, np.max(np.abs(w))))
        if (lam == 0 and not separation_checked
                and np.max((2 * y - 1) * a) > _SEPARATION_SCORE):
            separation_checked = True
            separable = is_separable(X, y)
            if separable:
                break
        if converged:
            # the last Hessian, at the previous iterate, differs from the one at w by
            # O(tol) relatively: it serves for the standard errors (saves n d^2 flops)
            break
    grad_norms.append(float(np.linalg.norm(X.T @ (y - sigmoid(a)) - lam * w)))
    if not converged and not separable and lam == 0 and not separation_checked:
        separable = is_separable(X, y)
    converged = converged and not separable
    se = _standard_errors(L, separable, converged, method, tol, max_iter, X.shape[1])
    return LogisticFit(
        w=w, se=se, log_likelihood=_loglik(a, y), objective=np.array(objective),
        grad_norm=np.array(grad_norms), step_sizes=np.array(steps), path=np.array(path),
        n_iter=len(steps), converged=converged, separable=separable, lam=lam,
        method=method,
    )


def _penalised_loglik(a, y, w, lam) -> float:
    """The penalised log-likelihood ell_lam(w) = ell(w) - lam/2 ||w||^2, from the scores a = X w."""
    return _loglik(a, y) - 0.5 * lam * (w @ w)


def _newton_direction(X, y, w, a, lam, method, *, check_conditioning: bool):
    r"""The gradient, the Newton (or IRLS) step and the Cholesky factor of the negated Hessian.

    Returns ``(grad, delta, L)``; ``delta`` and ``L`` are None when :math:`X^\top R X + \lambda I`
    has no Cholesky factor (or, if ``check_conditioning``, is numerically singular).
    """
    p = sigmoid(a)
    r = p * (1.0 - p)  # the diagonal of R, never formed as an n x n matrix
    grad = X.T @ (y - p) - lam * w
    Xs = X * np.sqrt(r)[:, None]
    # X^T R X + lam I (a symmetric rank-k update)
    H = Xs.T @ Xs + lam * np.eye(X.shape[1])
    L = _cholesky(H)
    if L is not None and check_conditioning and _ill_conditioned(H):
        L = None
    if L is None:
        return grad, None, None
    if method == "irls":
        # weighted least squares with the adjusted response z = a + (y - p) / r; R z is
        # formed as r * a + (y - p) so that no division by a vanishing r_i ever happens
        return grad, _cho_solve(L, X.T @ (r * a + (y - p))) - w, L
    return grad, _cho_solve(L, grad), L


def _halving_step(objective, w, delta, current):
    """Newton's step on a concave objective, halved on the rare overshoot far from w*.

    ``objective(v)`` returns ``(value, terms)``: the value to maximise at ``v`` and what the
    caller reuses there. Returns ``(t, w_new, value, terms)``, the step length taken first.
    """
    t = 1.0
    for _ in range(60):
        w_new = w + t * delta
        value, terms = objective(w_new)
        # at the optimum rounding may lower the value by an ulp: not an overshoot
        if value >= current - 1e-12 * max(abs(current), 1.0):
            break
        t *= 0.5
    return t, w_new, value, terms


def _standard_errors(L, separable, converged, method, tol, max_iter, d) -> np.ndarray:
    """Standard errors from the last Hessian's factor, with the warning a failed fit deserves."""
    if separable:
        warnings.warn(
            "the data are separable (completely or quasi-completely): a direction v with "
            "(2 y_i - 1) x_i^T v >= 0 for every sample exists, so the maximum likelihood estimate "
            "does not exist and the weights grow without bound; regularise with lam > 0",
            ConvergenceWarning,
            stacklevel=4,
        )
        return np.full(d, np.inf)
    if not converged:
        warnings.warn(
            f"{method} stopped at max_iter={max_iter} before the step fell below tol={tol:g}",
            ConvergenceWarning,
            stacklevel=4,
        )
    return np.sqrt(np.diag(_cho_inverse(L)))


def _cholesky(H: np.ndarray):
    try:
        return np.linalg.cholesky(H)
    except np.linalg.LinAlgError:
        return None


def _ill_conditioned(H: np.ndarray) -> bool:
    ev = np.linalg.eigvalsh(H)  # d x d: cheap next to forming H
    return bool(ev[0] <= ev[-1] * H.shape[0] * np.finfo(float).eps * 10)


def _cho_solve(L: np.ndarray, b: np.ndarray) -> np.ndarray:
    # two triangular solves; numpy has no triangular solver, and d is small, so solve() on L
    # costs the same order as the Cholesky factorisation itself
    return np.linalg.solve(L.T, np.linalg.solve(L, b))


def _cho_inverse(L: np.ndarray) -> np.ndarray:
    Linv = np.linalg.solve(L, np.eye(L.shape[0]))
    return Linv.T @ Linv


def newton(X, y, *, lam: float = 0.0, tol: float = 1e-10, max_iter: int = 100, w0=None) -> LogisticFit:
    r"""Maximise the logistic log-likelihood by Newton-Raphson (Chapter 2, {eq}`def-newton-step`).

    .. math:: w^{t+1} &= w^t + (X^\top R X + \lambda I)^{-1}\bigl(X^\top (y - g) - \lambda w^t\bigr), \\
              R &= \operatorname{diag}\bigl(g_i (1 - g_i)\bigr),

    the step being halved only if it would decrease :math:`\ell_\lambda` (far from the optimum).
    :math:`X^\top R X` is formed as :math:`(R^{1/2}X)^\top (R^{1/2}X)`, never with an n x n matrix.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Design matrix (include the constant column for an intercept).
    y : array_like of shape (n,)
        Labels in {0, 1}.
    lam : float, default 0
        L2 penalty :math:`\lambda \ge 0` (on every coefficient).
    tol : float, default 1e-10
        Stop when :math:`\|w^{t+1} - w^t\|_\infty \le \mathrm{tol}\,\max(1, \|w^{t+1}\|_\infty)`.
    max_iter : int, default 100
    w0 : array_like of shape (d,), optional
        Starting point (default 0).

    Returns
    -------
    LogisticFit

    Raises
    ------
    ValueError
        Labels outside {0, 1}, wrong shapes, NaN/inf, negative ``lam``.
    numpy.linalg.LinAlgError
        The weighted Hessian is singular (collinear columns) and ``lam == 0``.

    Warns
    -----
    ConvergenceWarning
        The data are separable (``separable=True``, ``converged=False``, ``se = inf``), or
        ``max_iter`` was reached.

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [1.0, 3.0]])  # intercept and x
    >>> # overlapping classes: the MLE exists
    >>> fit = newton(X, np.array([0.0, 1.0, 0.0, 1.0]))
    >>> fit.converged, fit.w.round(4).tolist()
    (True, [-1.3623, 0.9082])
    """
    return _newton_family(X, y, lam=lam, tol=tol, max_iter=max_iter, w0=w0, method="newton")


def irls(X, y, *, lam: float = 0.0, tol: float = 1e-10, max_iter: int = 100, w0=None) -> LogisticFit:
    r"""Iteratively reweighted least squares (Chapter 2, {eq}`eq-irls-step`); labels ``y`` in {0, 1}.

    Each iterate is the weighted least-squares fit of the adjusted response :math:`z`:

    .. math:: w^{t+1} = (X^\top R X + \lambda I)^{-1} X^\top R z, \qquad
              z = X w^t + R^{-1}(y - g),

    which is algebraically Newton's step (see :func:`newton`; the chapter proves it and the claim
    checks it). :math:`Rz` is computed as :math:`R X w^t + (y - g)` so that vanishing weights
    :math:`g_i(1 - g_i)` never cause a division by zero. Parameters, return value, errors and
    warnings as in :func:`newton`.

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [1.0, 3.0]])
    >>> y = np.array([0.0, 1.0, 0.0, 1.0])
    >>> # the same iterates, another right-hand side
    >>> np.allclose(irls(X, y).w, newton(X, y).w)
    True
    """
    return _newton_family(X, y, lam=lam, tol=tol, max_iter=max_iter, w0=w0, method="irls")


def gradient_ascent(
    X, y, *, eta: float | None = None, lam: float = 0.0, tol: float = 1e-6, max_iter: int = 10_000,
    w0=None,
) -> LogisticFit:
    r"""Maximise the logistic log-likelihood by gradient ascent (Chapter 2, {eq}`def-gradient-ascent`).

    Labels ``y`` in {0, 1}.

    .. math:: w^{t+1} = w^t + \eta \bigl(X^\top (y - g) - \lambda w^t\bigr).

    Other parameters and the result as in :func:`newton`; ``se`` is computed at the final
    iterate. Gradient ascent converges only linearly, which is the point of the chapter's
    comparison with Newton's method.

    Parameters
    ----------
    eta : float, optional
        Step size. Default :math:`4 / (\|X\|_2^2 + 4\lambda)`, the inverse of the largest
        curvature :math:`\|X^\top R X + \lambda I\|_2 \le \|X\|_2^2 / 4 + \lambda`, which makes
        every step increase :math:`\ell_\lambda`.
    tol : float, default 1e-6
        Stop when the gradient norm is at most ``tol`` times its value at the start.
    max_iter : int, default 10000

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [1.0, 3.0]])
    >>> y = np.array([0.0, 1.0, 0.0, 1.0])
    >>> fit = gradient_ascent(X, y, tol=1e-10)
    >>> fit.n_iter > newton(X, y).n_iter, bool(np.abs(fit.w - newton(X, y).w).max() < 1e-6)
    (True, True)
    """
    X, y, lam, tol, max_iter, w = _check_problem(X, y, lam, tol, max_iter, w0)
    if eta is None:
        with np.errstate(over="ignore", divide="ignore"):  # caught just below, with the cause
            eta = 4.0 / (np.linalg.norm(X, 2) ** 2 + 4.0 * lam)
        if not 0 < eta < np.inf:  # the default step 4 / (|X|_2^2 + 4 lam) over- or underflowed
            raise ValueError(
                f"the scale of X (max |x_ij| = {np.abs(X).max():.3g}) and lam = {lam:.3g} leave no "
                "representable default step eta = 4 / (|X|_2^2 + 4 lam): standardise the columns "
                "of X, change lam or pass eta"
            )
    eta = check_positive(eta, "eta")
    a = X @ w
    objective = [_loglik(a, y) - 0.5 * lam * (w @ w)]
    path = [w.copy()]
    grad = X.T @ (y - sigmoid(a)) - lam * w
    grad_norms = [float(np.linalg.norm(grad))]
    target = tol * max(grad_norms[0], np.finfo(float).tiny)
    converged = grad_norms[0] <= target
    it = 0
    while not converged and it < max_iter:
        w = w + eta * grad
        a = X @ w
        grad = X.T @ (y - sigmoid(a)) - lam * w
        it += 1
        objective.append(_loglik(a, y) - 0.5 * lam * (w @ w))
        grad_norms.append(float(np.linalg.norm(grad)))
        path.append(w.copy())
        converged = grad_norms[-1] <= target
    p = sigmoid(a)
    Xs = X * np.sqrt(p * (1 - p))[:, None]
    L = _cholesky(Xs.T @ Xs + lam * np.eye(X.shape[1]))
    se = np.full(X.shape[1], np.inf) if L is None else np.sqrt(np.diag(_cho_inverse(L)))
    if not converged:
        warnings.warn(
            f"gradient_ascent stopped at max_iter={max_iter} with gradient norm "
            f"{grad_norms[-1]:.3g} > tol x initial norm = {target:.3g}",
            ConvergenceWarning,
            stacklevel=2,
        )
    return LogisticFit(
        w=w, se=se, log_likelihood=_loglik(a, y), objective=np.array(objective),
        grad_norm=np.array(grad_norms), step_sizes=np.full(it, eta), path=np.array(path),
        n_iter=it, converged=bool(converged), separable=False, lam=lam, method="gradient_ascent",
    )


# -- multiclass -----------------------------------------------------------------------------------

def softmax(A) -> np.ndarray:
    r"""Row-wise softmax :math:`p_{ik} = e^{A_{ik}} / \sum_l e^{A_{il}}` (Chapter 2, {eq}`def-softmax`).

    The row maximum is subtracted first (the softmax is unchanged by adding a constant to a
    row, {eq}`eq-softmax-redundancy`), so no exponential overflows.

    Examples
    --------
    >>> softmax(np.array([[0.0, 0.0], [0.0, np.log(3.0)]])).round(6).tolist()
    [[0.5, 0.5], [0.25, 0.75]]
    """
    A = as_float_array(A, "A", ndim=2)
    if A.shape[1] == 0:
        raise ValueError(f"A has no columns (shape {A.shape}): a softmax needs at least one class")
    E = np.exp(A - A.max(axis=1, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)


@dataclass(frozen=True)
class SoftmaxFit(OwnsArrays):
    """A fitted multinomial (softmax) logistic regression.

    Attributes
    ----------
    W : ndarray of shape (d, K)
        One weight vector per class; the last class is the reference, its column is 0.
    classes : ndarray of shape (K,)
        The labels, ``0, 1, ..., K - 1``.
    log_likelihood : float
    objective : ndarray of shape (n_iter + 1,)
    n_iter : int
    converged : bool
    lam : float
    """

    W: np.ndarray
    classes: np.ndarray
    log_likelihood: float
    objective: np.ndarray
    n_iter: int
    converged: bool
    lam: float
    separable: bool = False

    def decision_function(self, X) -> np.ndarray:
        return check_n_features(X, self.W.shape[0]) @ self.W

    def predict_proba(self, X) -> np.ndarray:
        return softmax(self.decision_function(X))

    def predict(self, X) -> np.ndarray:
        return self.classes[np.argmax(self.decision_function(X), axis=1)]


def _softmax_separable(X: np.ndarray, y: np.ndarray, K: int) -> bool:
    r"""Whether the multinomial MLE fails to exist: some :math:`V \ne 0` (up to a common shift)
    has :math:`(v_{y_i} - v_k)^\top x_i \ge 0` for every i and k (Albert and Anderson, 1984).

    The multiclass form of :func:`is_separable`'s linear program: maximise the sum of those
    margins over the box :math:`-1 \le V \le 1`; a positive optimum exhibits such a direction.
    """
    from scipy.optimize import linprog  # an LP solver is the right tool; it is not what we teach

    n, d = X.shape
    scale = np.max(np.abs(X), axis=0)
    scale[scale == 0] = 1.0
    Xs = X / scale
    yi = y.astype(int)
    rows = []
    for k in range(K):  # margin (v_{y_i} - v_k) . x_i, for the rows with y_i != k
        other = yi != k
        R = np.zeros((other.sum(), d * K))
        for c in range(K):
            sel = other & (yi == c)
            R[sel[other], c * d:(c + 1) * d] = Xs[sel]
        R[:, k * d:(k + 1) * d] -= Xs[other]
        rows.append(R)
    A = np.vstack(rows)
    res = linprog(-A.sum(axis=0), A_ub=-A, b_ub=np.zeros(A.shape[0]), bounds=(-1.0, 1.0), method="highs")
    if res.status != 0:  # pragma: no cover - HiGHS solves this bounded, feasible LP
        raise RuntimeError(f"separation LP failed: {res.message}")
    return bool(-res.fun > 1e-7 * max(1.0, np.abs(A).sum() / A.shape[1]))


def _softmax_loglik(A: np.ndarray, Y: np.ndarray) -> float:
    m = A.max(axis=1, keepdims=True)
    lse = (m + np.log(np.exp(A - m).sum(axis=1, keepdims=True)))[:, 0]
    return float(np.sum(A * Y) - lse.sum())


def softmax_regression(
    X, y, *, lam: float = 0.0, tol: float = 1e-10, max_iter: int = 100
) -> SoftmaxFit:
    r"""Multinomial logistic regression by Newton's method (Chapter 2, {eq}`eq-softmax-gradient`).

    Maximises :math:`\sum_i \log p_{i y_i} - \frac{\lambda}{2}\sum_k \|w_k\|^2` with
    :math:`p_{ik} = \operatorname{softmax}(x_i^\top W)_k`. Adding one vector to every
    :math:`w_k` changes no probability ({eq}`eq-softmax-redundancy`), so the last class's weights
    are fixed at 0 and the other :math:`K - 1` columns are estimated. Gradient and Hessian blocks:

    .. math:: \nabla_{w_k} &= \sum_i (Y_{ik} - p_{ik}) x_i - \lambda w_k, \\
              \nabla^2_{w_k w_l} &= -\sum_i p_{ik}(\delta_{kl} - p_{il})\, x_i x_i^\top
              - \lambda\delta_{kl} I .

    Parameters
    ----------
    y : array_like of shape (n,)
        Class labels ``0, 1, ..., K - 1`` (integers stored as floats are fine), K >= 2.
    lam, tol, max_iter : as in :func:`newton`.

    Notes
    -----
    With ``lam = 0`` the fitted probabilities do not depend on the choice of reference class.
    With ``lam > 0`` they do, slightly: the penalty is not invariant under the shifts of
    {eq}`eq-softmax-redundancy` (scikit-learn penalises all K weight vectors instead).

    Examples
    --------
    >>> X = np.column_stack([np.ones(6), np.arange(6.0)])
    >>> fit = softmax_regression(X, np.array([0, 1, 0, 2, 1, 2]), lam=0.1)
    >>> fit.converged, fit.predict(X).shape
    (True, (6,))
    """
    X, y = check_X_y(X, y, scale_for="softmax regression")
    lam = check_positive(lam, "lam", allow_zero=True)
    tol = check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter")
    labels = np.unique(y)
    K = int(labels.max()) + 1 if labels.size else 0
    if labels[0] != 0 or np.any(labels != np.round(labels)) or labels.size != K or K < 2:
        shown = ", ".join(f"{v:g}" for v in labels[:6])
        raise ValueError(
            "y must take the values {0, 1, ..., K - 1} with K >= 2, each at least once; "
            f"got values {{{shown}}}"
        )
    n, d = X.shape
    Y = (y[:, None] == np.arange(K)).astype(float)
    m = K - 1  # free classes
    V = np.zeros((d, m))

    def objective_of(V):
        A = np.column_stack([X @ V, np.zeros(n)])
        return _softmax_loglik(A, Y) - 0.5 * lam * np.sum(V * V), A

    obj, A = objective_of(V)
    objective = [obj]
    converged = False
    it = 0
    while it < max_iter:
        P = softmax(A)[:, :m]
        G = X.T @ (Y[:, :m] - P) - lam * V  # (d, m)
        # Hessian of the negative objective, blocks (k, l): X^T diag(p_k (delta_kl - p_l)) X
        H = np.einsum("ik,il,ij,ih->kjlh", P, -P, X, X)
        for k in range(m):
            H[k, :, k, :] += (X * P[:, k : k + 1]).T @ X
        H = H.reshape(m * d, m * d) + lam * np.eye(m * d)
        try:
            step = np.linalg.solve(H, G.T.reshape(-1)).reshape(m, d).T
        except np.linalg.LinAlgError:
            # after a first step, a Hessian can turn singular because the probabilities
            # saturate on separable classes: then say that, not "dependent columns"
            if it > 0 and lam == 0 and _softmax_separable(X, y, K):
                break
            raise np.linalg.LinAlgError(_singular_message("softmax Hessian", lam)) from None
        t = 1.0
        for _ in range(60):
            V_new = V + t * step
            obj_new, A_new = objective_of(V_new)
            if obj_new >= obj - 1e-12 * abs(obj):
                break
            t *= 0.5
        V, A, obj = V_new, A_new, obj_new
        objective.append(obj)
        it += 1
        if t * np.max(np.abs(step)) <= tol * max(1.0, np.max(np.abs(V))):
            converged = True
            break
    separable = lam == 0 and _softmax_separable(X, y, K)
    if separable:
        converged = False
        warnings.warn(
            "softmax_regression: the classes are separable (completely or quasi-completely), so "
            "no maximum likelihood estimate exists and the weights grow without bound; "
            f"|W| reached {np.max(np.abs(V)):.3g}. Regularise with lam > 0",
            ConvergenceWarning,
            stacklevel=2,
        )
    elif not converged:
        warnings.warn(
            f"softmax_regression stopped at max_iter={max_iter} before the step fell below "
            f"tol={tol:g}; if the classes are separable the weights grow without bound: "
            "regularise with lam > 0",
            ConvergenceWarning,
            stacklevel=2,
        )
    W = np.column_stack([V, np.zeros(d)])
    return SoftmaxFit(
        W=W, classes=np.arange(K, dtype=float), log_likelihood=_softmax_loglik(X @ W, Y),
        objective=np.array(objective), n_iter=it, converged=converged, lam=lam, separable=separable,
    )


# -- probit -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class ProbitFit(OwnsArrays):
    """A fitted probit model :math:`P(y = 1 \\mid x) = \\Phi(w^\\top x)`.

    Attributes
    ----------
    w : ndarray of shape (d,)
    se : ndarray of shape (d,)
        Standard errors from the observed information
        :math:`X^\\top \\operatorname{diag}(\\lambda_i(\\lambda_i + a_i)) X` at ``w`` (as Greene
        and statsmodels report them); ``inf`` when the data are separable.
    log_likelihood : float
    objective : ndarray of shape (n_iter + 1,)
        The log-likelihood at every iterate, the start included (non-decreasing).
    grad_norm : ndarray of shape (n_iter + 1,)
        Euclidean norm of the gradient at every iterate.
    n_iter : int
    converged : bool
    separable : bool
        True when the data were found (quasi-)separable, so that no maximiser exists.
    method : str
        ``"newton"`` (observed Hessian) or ``"irls"`` (Fisher scoring).
    """

    w: np.ndarray
    se: np.ndarray
    log_likelihood: float
    objective: np.ndarray
    grad_norm: np.ndarray
    n_iter: int
    converged: bool
    separable: bool
    method: str

    @property
    def z(self) -> np.ndarray:
        """Wald statistics ``w / se``."""
        return self.w / self.se

    def decision_function(self, X) -> np.ndarray:
        """Scores :math:`a = X w`."""
        return check_n_features(X, self.w.shape[0]) @ self.w

    def predict_proba(self, X) -> np.ndarray:
        """Fitted probabilities :math:`\\Phi(w^\\top x)`."""
        from scipy.special import ndtr

        return ndtr(self.decision_function(X))

    def predict(self, X) -> np.ndarray:
        """Labels in {0, 1}: 1 where :math:`w^\\top x \\ge 0` (a tie goes to 1)."""
        return (self.decision_function(X) >= 0).astype(float)


def _probit_terms(a: np.ndarray, y: np.ndarray):
    r"""Log-likelihood, the scores :math:`\lambda_i` and the Newton and Fisher weights.

    With :math:`q_i = 2y_i - 1`, :math:`\ell = \sum_i \log\Phi(q_i a_i)`,
    :math:`\partial\ell/\partial a_i = \lambda_i = q_i\phi(a_i)/\Phi(q_i a_i)`,
    :math:`-\partial^2\ell/\partial a_i^2 = \lambda_i(\lambda_i + a_i)` and its expectation
    :math:`\phi(a_i)^2 / (\Phi(a_i)\Phi(-a_i))`. The ratios are formed from logarithms
    (``log_ndtr``), so they stay finite far in the tails.
    """
    from scipy.special import log_ndtr

    q = 2.0 * y - 1.0
    log_phi = -0.5 * a**2 - 0.5 * np.log(2 * np.pi)
    log_cdf = log_ndtr(q * a)
    lam_i = q * np.exp(log_phi - log_cdf)
    newton_w = lam_i * (lam_i + a)
    fisher_w = np.exp(2 * log_phi - log_ndtr(a) - log_ndtr(-a))
    return float(log_cdf.sum()), lam_i, newton_w, fisher_w


def probit(X, y, *, method: str = "newton", tol: float = 1e-10, max_iter: int = 100,
           w0=None) -> ProbitFit:
    r"""Maximum likelihood probit regression (Chapter 2, {eq}`eq-probit-hessian`); ``y`` in {0, 1}.

    The log-likelihood :math:`\ell(w) = \sum_i \log\Phi(q_i w^\top x_i)`, :math:`q_i = 2y_i - 1`,
    has gradient :math:`X^\top \lambda` and Hessian :math:`-X^\top D X` with
    :math:`\lambda_i = q_i\phi(a_i)/\Phi(q_i a_i)` and :math:`D = \operatorname{diag}(\lambda_i
    (\lambda_i + a_i))`. Each iteration solves the weighted least-squares problem

    .. math:: w^{t+1} = (X^\top D X)^{-1} X^\top D z, \qquad z = Xw^t + D^{-1}\lambda,

    with ``method="newton"`` the observed weights above (Newton's method) and with
    ``method="irls"`` their expectation :math:`\phi(a_i)^2/(\Phi(a_i)\Phi(-a_i))` (Fisher
    scoring, the IRLS of generalised linear models; Chapter 2, {eq}`eq-probit-fisher-weights`).
    Both weights are positive (the log-likelihood is concave), both methods reach the same
    maximiser; the step is halved if it would decrease :math:`\ell`.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Design matrix (include the constant column for an intercept).
    y : array_like of shape (n,)
        Labels in {0, 1}.
    method : {"newton", "irls"}
    tol : float, default 1e-10
        Stop when :math:`\|w^{t+1} - w^t\|_\infty \le \mathrm{tol}\,\max(1, \|w^{t+1}\|_\infty)`.
    max_iter : int, default 100
    w0 : array_like of shape (d,), optional
        Starting point (default 0).

    Returns
    -------
    ProbitFit

    Warns
    -----
    ConvergenceWarning
        The data are separable (no maximiser: ``separable=True``, ``se = inf``), or
        ``max_iter`` was reached.

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [1.0, 3.0]])  # intercept and x
    >>> # overlapping classes: the MLE exists
    >>> fit = probit(X, np.array([0.0, 1.0, 0.0, 1.0]))
    >>> fisher = probit(X, [0.0, 1.0, 0.0, 1.0], method="irls")
    >>> fit.converged, bool(np.allclose(fit.w, fisher.w))
    (True, True)
    """
    if method not in ("newton", "irls"):
        raise ValueError(f"method must be 'newton' or 'irls'; got {method!r}")
    X, y, _, tol, max_iter, w = _check_problem(X, y, 0.0, tol, max_iter, w0)
    a = X @ w
    ll, lam_i, newton_w, fisher_w = _probit_terms(a, y)
    objective, grad_norms = [ll], [float(np.linalg.norm(X.T @ lam_i))]
    converged = separable = False
    it = 0

    def loglik(v):
        a_v = X @ v
        terms = _probit_terms(a_v, y)
        return terms[0], (a_v, terms)

    while not converged and it < max_iter:
        D = newton_w if method == "newton" else fisher_w
        L = _cholesky((X * D[:, None]).T @ X)
        if L is None or (it == 0 and _ill_conditioned(L @ L.T)):
            if it > 0 and is_separable(X, y):
                separable = True
                break
            raise np.linalg.LinAlgError(_singular_message("weighted Hessian X^T D X"))
        delta = _cho_solve(L, X.T @ lam_i)  # = (X^T D X)^{-1} X^T D z - w
        t, w, ll, (a, (_, lam_i, newton_w, fisher_w)) = _halving_step(loglik, w, delta, ll)
        it += 1
        objective.append(ll)
        grad_norms.append(float(np.linalg.norm(X.T @ lam_i)))
        converged = bool(t * np.max(np.abs(delta)) <= tol * max(1.0, np.max(np.abs(w))))
        if not converged and np.max((2 * y - 1) * a) > 8.0 and is_separable(X, y):
            separable = True  # Phi(8) = 1 - 6e-16: the fit is driving scores to infinity
            break
    L = None if separable else _cholesky((X * newton_w[:, None]).T @ X)
    se = np.full(X.shape[1], np.inf) if L is None else np.sqrt(np.diag(_cho_inverse(L)))
    if separable:
        warnings.warn(
            "the data are separable (completely or quasi-completely): the probit maximum "
            "likelihood estimate does not exist and the weights grow without bound",
            ConvergenceWarning, stacklevel=2,
        )
    elif not converged:
        warnings.warn(
            f"probit stopped at max_iter={max_iter} before the step fell below tol={tol:g}",
            ConvergenceWarning, stacklevel=2,
        )
    return ProbitFit(
        w=w, se=se, log_likelihood=ll, objective=np.array(objective),
        grad_norm=np.array(grad_norms), n_iter=it, converged=converged and not separable,
        separable=separable, method=method,
    )


# -- generalised linear models ---------------------------------------------------------------

#: The families and links :func:`glm` fits (the first link of each is its default, the
#: canonical one).
GLM_LINKS = {"gaussian": ("identity",), "binomial": ("logit", "probit"), "poisson": ("log",)}


@dataclass(frozen=True)
class GLMFit(OwnsArrays):
    """A generalised linear model fitted by IRLS (Fisher scoring).

    Attributes
    ----------
    w : ndarray of shape (d,)
    se : ndarray of shape (d,)
        Standard errors from the Fisher information :math:`X^\\top W X / \\phi` at ``w``.
    family, link : str
    scale : float
        The dispersion :math:`\\phi`: 1 for the binomial and Poisson families, the residual
        variance :math:`\\|y - Xw\\|^2 / (n - d)` for the Gaussian.
    log_likelihood : float
        At ``w`` (the Gaussian's with the maximum-likelihood variance
        :math:`\\|y - Xw\\|^2 / n`).
    deviance : float
        :math:`2(\\ell_{\\text{saturated}} - \\ell)` with :math:`\\phi = 1`.
    objective : ndarray of shape (n_iter + 1,)
        The deviance at every iterate, the start included (non-increasing).
    n_iter : int
    converged : bool
    """

    w: np.ndarray
    se: np.ndarray
    family: str
    link: str
    scale: float
    log_likelihood: float
    deviance: float
    objective: np.ndarray
    n_iter: int
    converged: bool

    def decision_function(self, X) -> np.ndarray:
        """The linear predictor :math:`\\eta = Xw`."""
        return check_n_features(X, self.w.shape[0]) @ self.w

    def predict_mean(self, X) -> np.ndarray:
        """The fitted mean :math:`\\mu = g^{-1}(Xw)`."""
        return _glm_terms(self.decision_function(X), None, self.family, self.link)[0]

    def predict(self, X) -> np.ndarray:
        """The mean :math:`g^{-1}(Xw)`; for the binomial family the labels in {0, 1} (1 where
        :math:`w^\\top x \\ge 0`, probability at least 1/2; a tie goes to 1)."""
        if self.family == "binomial":
            return (self.decision_function(X) >= 0).astype(float)
        return self.predict_mean(X)


def _glm_terms(eta: np.ndarray, y, family: str, link: str):
    r"""The mean :math:`\mu`, and with ``y``: the IRLS weights
    :math:`W_i = \mu_i'^2 / V(\mu_i)`, the score terms :math:`s_i = \mu_i'(y_i - \mu_i)/V(\mu_i)`
    (so that :math:`\nabla\ell = X^\top s`), the deviance and the log-likelihood (:math:`\phi = 1`).
    """
    from scipy.special import gammaln, ndtr, xlogy

    if link == "identity":
        mu = eta
    elif link == "logit":
        mu = sigmoid(eta)
    elif link == "probit":
        mu = ndtr(eta)
    else:  # log
        mu = np.exp(np.minimum(eta, 700.0))
    if y is None:
        return (mu,)
    if link == "identity":
        W, s = np.ones_like(eta), y - mu
        ll = -0.5 * float(s @ s)
        dev = float(s @ s)
    elif link == "logit":  # canonical: W = mu (1 - mu), s = y - mu
        W, s = mu * (1 - mu), y - mu
        ll = float(np.sum(y * log_sigmoid(eta) + (1 - y) * log_sigmoid(-eta)))
        dev = -2 * ll
    elif link == "probit":  # s = phi (y - Phi) / (Phi (1 - Phi)), W its Fisher weight
        ll, s, _, W = _probit_terms(eta, y)
        dev = -2 * ll
    else:  # poisson, log link (canonical): W = mu, s = y - mu
        W, s = mu, y - mu
        ll = float(np.sum(y * eta - mu - gammaln(y + 1)))
        dev = float(2 * np.sum(xlogy(y, y) - y * eta - (y - mu)))
    return mu, W, s, dev, ll


def glm(X, y, *, family: str = "binomial", link: str | None = None, tol: float = 1e-10,
        max_iter: int = 100, w0=None) -> GLMFit:
    r"""A generalised linear model by IRLS (Chapter 2, {eq}`eq-glm-irls-step`).

    The response has an exponential-family distribution with mean :math:`\mu_i = g^{-1}(\eta_i)`,
    :math:`\eta_i = w^\top x_i`, and variance :math:`\phi V(\mu_i)`. Fisher scoring,
    :math:`w \leftarrow w + I(w)^{-1}\nabla\ell(w)`, is the weighted least-squares fit

    .. math:: w^{t+1} = (X^\top W X)^{-1} X^\top W z, \qquad
              W_{ii} = \frac{\mu_i'^2}{V(\mu_i)}, \qquad
              z_i = \eta_i + \frac{y_i - \mu_i}{\mu_i'},

    with :math:`\mu_i' = d\mu_i/d\eta_i` ({eq}`eq-glm-score-fisher`). The right-hand side is
    formed as :math:`X^\top W \eta + X^\top s` with :math:`s_i = \mu_i'(y_i - \mu_i)/V(\mu_i)`,
    so a vanishing :math:`\mu_i'` divides nothing. The step is halved if it would increase the
    deviance.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Design matrix (include the constant column for an intercept).
    y : array_like of shape (n,)
        ``"gaussian"``: real responses; ``"binomial"``: labels in {0, 1}; ``"poisson"``:
        counts (reals >= 0).
    family : {"binomial", "gaussian", "poisson"}
    link : str, optional
        ``"identity"`` (Gaussian), ``"logit"`` or ``"probit"`` (binomial), ``"log"``
        (Poisson); default the canonical link (the first).
    tol : float, default 1e-10
        Stop when :math:`\|w^{t+1} - w^t\|_\infty \le \mathrm{tol}\,\max(1, \|w^{t+1}\|_\infty)`.
    max_iter : int, default 100
        Reaching it warns with :class:`mlnotes.ConvergenceWarning` and returns
        ``converged=False`` (separable binomial data never converge: the MLE does not exist).
    w0 : array_like of shape (d,), optional
        Starting point (default 0).

    Returns
    -------
    GLMFit

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [1.0, 3.0]])
    >>> fit = glm(X, np.array([1.0, 2.0, 2.0, 6.0]), family="poisson")
    >>> fit.converged, fit.w.round(4).tolist()
    (True, [-0.1008, 0.5991])
    >>> ls = glm(X, np.array([1.0, 2.0, 2.0, 6.0]), family="gaussian")  # least squares
    >>> ls.n_iter, ls.w.round(4).tolist()
    (2, [0.5, 1.5])
    """
    if family not in GLM_LINKS:
        raise ValueError(f"family must be one of {sorted(GLM_LINKS)}; got {family!r}")
    link = GLM_LINKS[family][0] if link is None else link
    if link not in GLM_LINKS[family]:
        raise ValueError(f"link must be one of {GLM_LINKS[family]} for the {family} family; "
                         f"got {link!r}")
    X, y = check_X_y(X, y, scale_for="glm")
    if family == "binomial":
        y = check_labels(y, (0.0, 1.0))
    elif family == "poisson" and np.any(y < 0):
        raise ValueError(f"y must be counts (>= 0) for the poisson family; got min {y.min()}")
    tol = check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter")
    n, d = X.shape
    w = check_start(w0, d)
    _, W, s, dev, ll = _glm_terms(X @ w, y, family, link)
    objective = [dev]
    converged, it = False, 0

    def neg_deviance(v):
        terms = _glm_terms(X @ v, y, family, link)
        return -terms[3], terms

    while not converged and it < max_iter:
        L = _cholesky((X * W[:, None]).T @ X)
        if L is None:
            raise np.linalg.LinAlgError(_singular_message("weighted matrix X^T W X"))
        delta = _cho_solve(L, X.T @ s)  # = (X^T W X)^{-1} X^T W z - w
        # the deviance is minimised: its negative is the objective the step climbs
        t, w, _, (_, W, s, dev, ll) = _halving_step(neg_deviance, w, delta, -dev)
        it += 1
        objective.append(dev)
        converged = bool(t * np.max(np.abs(delta)) <= tol * max(1.0, np.max(np.abs(w))))
    if not converged:
        warnings.warn(
            f"glm stopped at max_iter={max_iter} before the step fell below tol={tol:g}"
            + (" (separable binomial data have no maximum)" if family == "binomial" else ""),
            ConvergenceWarning, stacklevel=2,
        )
    scale = 1.0
    if family == "gaussian":
        scale = dev / (n - d) if n > d else np.inf
        ll = -0.5 * n * (np.log(2 * np.pi * dev / n) + 1) if dev > 0 else np.inf
    L = _cholesky((X * W[:, None]).T @ X)
    se = np.full(d, np.inf) if L is None else np.sqrt(scale * np.diag(_cho_inverse(L)))
    return GLMFit(
        w=w, se=se, family=family, link=link, scale=float(scale), log_likelihood=float(ll),
        deviance=float(dev), objective=np.array(objective), n_iter=it, converged=converged,
    )
