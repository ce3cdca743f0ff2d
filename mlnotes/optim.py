r"""First-order optimisation helpers: gradient descent and the subgradient method.

Both take the objective as plain callables, so the chapters can run them on a quadratic, a
nonsmooth :math:`\ell_1` function or a training objective alike (Chapter 3, sections on step
sizes and subgradients).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from mlnotes._validation import (
    ConvergenceWarning,
    OwnsArrays,
    as_float_array,
    check_callable,
    check_int,
    check_labels,
    check_positive,
    check_returned,
    check_scalar,
    check_X_y,
)

__all__ = [
    "OptimResult",
    "gradient_descent",
    "margin_line_search",
    "step_sizes",
    "subgradient_method",
]


@dataclass(frozen=True)
class OptimResult(OwnsArrays):
    """Iterates and trace of a first-order method.

    Attributes
    ----------
    w : ndarray
        The returned point (the last iterate for gradient descent, the best one for the
        subgradient method).
    path : ndarray of shape (n_iter + 1, d)
        Every iterate, starting with ``w0``.
    objective : ndarray of shape (n_iter + 1,)
        :math:`f` at every iterate (NaN when ``f`` was not given to gradient descent).
    best : ndarray of shape (n_iter + 1,)
        Running minimum of ``objective`` (what the subgradient method reports).
    eta : ndarray of shape (n_iter,)
        Step sizes used.
    n_iter : int
    converged : bool
    """

    w: np.ndarray
    path: np.ndarray
    objective: np.ndarray
    best: np.ndarray
    eta: np.ndarray
    n_iter: int
    converged: bool


def step_sizes(eta: float, power_t: float, n_updates: int) -> np.ndarray:
    r"""The step-size schedule :math:`\eta_t = \eta\, t^{-p}` for :math:`t = 1, \dots, T`.

    :math:`p = 0` is a constant step; :math:`1/2 < p \le 1` meets the Robbins-Monro conditions
    :math:`\sum_t \eta_t = \infty`, :math:`\sum_t \eta_t^2 < \infty` (Chapter 3,
    {eq}`def-robbins-monro`); shared by :func:`gradient_descent`,
    :func:`subgradient_method` and :func:`mlnotes.online.sgd`. No labels.

    Examples
    --------
    >>> step_sizes(0.5, 1.0, 4).round(4).tolist()
    [0.5, 0.25, 0.1667, 0.125]
    """
    eta = check_positive(eta, "eta")
    power_t = check_positive(power_t, "power_t", allow_zero=True)
    n_updates = check_int(n_updates, "n_updates", low=0)
    return eta * np.arange(1, n_updates + 1, dtype=float) ** (-power_t)


def _check_common(w0, eta, power_t, tol, max_iter):
    """Validate the arguments both methods share; return ``(w0 copy, step sizes, tol, max_iter)``."""
    eta = check_positive(eta, "eta")
    power_t = check_positive(power_t, "power_t", allow_zero=True)
    tol = check_positive(tol, "tol", allow_zero=True)
    max_iter = check_int(max_iter, "max_iter")
    w = as_float_array(w0, "w0", ndim=1).copy()
    return w, step_sizes(eta, power_t, max_iter), tol, max_iter


def gradient_descent(
    grad: Callable[[np.ndarray], np.ndarray],
    w0,
    *,
    eta: float,
    max_iter: int = 1000,
    tol: float = 1e-8,
    f: Callable[[np.ndarray], float] | None = None,
    power_t: float = 0.0,
) -> OptimResult:
    r"""Gradient descent :math:`w_{t+1} = w_t - \eta_t \nabla f(w_t)`, :math:`\eta_t = \eta t^{-p}`.

    On a quadratic :math:`f(w) = \tfrac12 w^\top A w` the iterates are
    :math:`w_{t} = (I - \eta A)^t w_0` and converge for every :math:`w_0` iff
    :math:`0 < \eta < 2/\lambda_{\max}(A)` (Chapter 3, {eq}`eq-gd-stability`).

    Stops when :math:`\|\nabla f(w_t)\| \le` ``tol``; warns (ConvergenceWarning) when
    ``max_iter`` is reached first or the iterates blow up (``converged=False``).

    Examples
    --------
    >>> res = gradient_descent(lambda w: 2 * w, np.array([1.0, -1.0]), eta=0.25, tol=1e-10)
    >>> res.converged, res.n_iter  # w_t = (1/2)^t w_0 until ||grad|| = 2^(1.5 - t) <= 1e-10
    (True, 35)
    """
    w, etas, tol, max_iter = _check_common(w0, eta, power_t, tol, max_iter)
    grad = check_callable(grad, "grad")
    f = None if f is None else check_callable(f, "f")
    path = [w.copy()]
    converged = False
    diverged = False
    with np.errstate(over="ignore", invalid="ignore"):
        for t in range(max_iter):
            # NaN, None or another shape is an error of grad; inf is an overflow of diverging iterates
            g = check_returned(grad(w), "grad", w.shape, allow_inf=True)
            if not np.all(np.isfinite(g)):
                diverged = True
                break
            if np.linalg.norm(g) <= tol:
                converged = True
                break
            w = w - etas[t] * g
            path.append(w.copy())
            if not np.all(np.isfinite(w)) or np.linalg.norm(w) > 1e150:
                diverged = True
                break
        else:
            converged = bool(np.linalg.norm(check_returned(grad(w), "grad", w.shape, allow_inf=True)) <= tol)
    path = np.array(path)
    n_iter = len(path) - 1
    if diverged:
        warnings.warn(f"gradient descent diverged after {n_iter} steps with eta={eta!r}",
                      ConvergenceWarning, stacklevel=2)
    elif not converged:
        warnings.warn(f"gradient descent did not reach ||grad|| <= tol={tol!r} in max_iter={max_iter}",
                      ConvergenceWarning, stacklevel=2)
    obj = (np.array([check_returned(f(p), "f", allow_inf=True) for p in path]) if f is not None
           else np.full(len(path), np.nan))
    return OptimResult(w=w, path=path, objective=obj, best=np.fmin.accumulate(obj), eta=etas[:n_iter],
                       n_iter=n_iter, converged=converged)


def subgradient_method(
    f: Callable[[np.ndarray], float],
    subgrad: Callable[[np.ndarray], np.ndarray],
    w0,
    *,
    eta: float,
    power_t: float = 0.5,
    max_iter: int = 1000,
    f_star: float | None = None,
    tol: float = 1e-6,
) -> OptimResult:
    r"""The subgradient method :math:`w_{t+1} = w_t - \eta_t v_t`, :math:`v_t \in \partial f(w_t)`.

    Not a descent method (a step along a subgradient can increase :math:`f`), so it returns the
    best iterate. For convex :math:`f` with minimiser :math:`w^*`, after :math:`T` steps
    (Chapter 3, {eq}`eq-subgradient-method`)

    .. math:: \min_{t \le T} f(w_t) - f(w^*) \le
              \frac{\|w_0 - w^*\|^2 + \sum_{t=1}^T \eta_t^2 \|v_t\|^2}{2 \sum_{t=1}^T \eta_t},

    which tends to 0 when :math:`\sum \eta_t = \infty` and :math:`\sum \eta_t^2 < \infty`
    (:math:`\eta_t = \eta t^{-p}`, :math:`1/2 < p \le 1`; with :math:`p = 1/2` it still tends to
    0 for bounded subgradients).

    Parameters
    ----------
    f, subgrad : callables
        The convex objective and a function returning one subgradient.
    w0 : array_like of shape (d,)
    eta, power_t : float
        Step sizes :math:`\eta_t = \eta\, t^{-p}`.
    max_iter : int
    f_star : float, optional
        The optimal value, if known: stop when :math:`\min_t f(w_t) - f^* \le` ``tol``, and warn
        (ConvergenceWarning) if ``max_iter`` is reached first. Without it there is no stopping
        test: the method runs ``max_iter`` steps and reports ``converged=False`` without warning
        (unless it meets a zero subgradient, which certifies optimality).

    Examples
    --------
    >>> res = subgradient_method(
    ...     lambda w: float(np.abs(w).sum()), np.sign, np.array([1.0, -2.0]),
    ...     eta=0.5, max_iter=2000, f_star=0.0, tol=0.05,
    ... )
    >>> res.converged, bool(res.best[-1] <= 0.05)
    (True, True)
    """
    w, etas, tol, max_iter = _check_common(w0, eta, power_t, tol, max_iter)
    f, subgrad = check_callable(f, "f"), check_callable(subgrad, "subgrad")
    if f_star is not None:  # NaN would never stop the method and only warn at the end
        f_star = check_scalar(f_star, "f_star")
    path, obj = [w.copy()], [check_returned(f(w), "f")]
    converged = False
    for t in range(max_iter):
        if f_star is not None and min(obj) - f_star <= tol:
            converged = True
            break
        v = check_returned(subgrad(w), "subgrad", w.shape)
        if not np.any(v):  # 0 is a subgradient: w is a minimiser
            converged = True
            break
        w = w - etas[t] * v
        path.append(w.copy())
        obj.append(check_returned(f(w), "f"))
    else:
        converged = f_star is not None and min(obj) - f_star <= tol
    obj = np.array(obj)
    path = np.array(path)
    n_iter = len(path) - 1
    if f_star is not None and not converged:
        warnings.warn(
            f"subgradient method: min f - f_star = {obj.min() - f_star:.3g} > tol={tol!r} after "
            f"max_iter={max_iter} steps", ConvergenceWarning, stacklevel=2,
        )
    return OptimResult(w=path[int(np.argmin(obj))].copy(), path=path, objective=obj,
                       best=np.minimum.accumulate(obj), eta=etas[:n_iter], n_iter=n_iter,
                       converged=bool(converged))


def _hinge_line_search(M, s, a, q, lam, n):
    """Smallest minimiser over t >= 0 of mean(max(0, 1 - M - t s)) + lam/2 (2 a t + q t^2)."""
    moving = s != 0
    b = (1 - M[moving]) / s[moving]  # where term i switches on or off
    sm = s[moving]
    keep = b > 0
    b, sm = b[keep], sm[keep]
    # at t = 0+ the active terms are those with 1 - M - 0+ s > 0
    active0 = (1 - M > 0) | ((1 - M == 0) & (s < 0))
    c0 = -np.sum(s[active0]) / n  # hinge slope just right of 0
    order = np.argsort(b, kind="stable")
    b, sm = b[order], sm[order]
    # crossing breakpoint b_k: a term with s > 0 switches off (slope + s/n), s < 0 switches on
    # (slope - s/n... its slope -s/n > 0 is added): both raise the slope by |s| / n
    slopes = c0 + np.concatenate([[0.0], np.cumsum(np.abs(sm)) / n])  # on [0,b1], [b1,b2], ...
    knots = np.concatenate([[0.0], b])
    for k in range(len(knots)):
        lo = knots[k]
        hi = knots[k + 1] if k + 1 < len(knots) else np.inf
        g_lo = slopes[k] + lam * (a + q * lo)  # right derivative at lo
        if g_lo >= 0:
            return float(lo)
        if lam * q > 0:
            t = -(slopes[k] + lam * a) / (lam * q)
            if t < hi:
                return float(t)
        elif hi == np.inf:
            # past the last breakpoint only terms with s < 0 are on: the slope is
            # -sum(s_i)/n >= 0, and a negative value here is rounding
            return float(lo)
    return float(knots[-1])


def _log_line_search(M, s, a, q, lam, n, tol, max_iter):
    """Root over t >= 0 of the derivative of mean(log(1 + e^{-(M + t s)})) + lam/2 (...)."""

    def slope(t):
        return -np.mean(s / (1 + np.exp(np.clip(M + t * s, -700, 700)))) + lam * (a + q * t)

    def curvature(t):
        e = np.exp(-np.abs(M + t * s))
        return np.mean(s**2 * e / (1 + e) ** 2) + lam * q

    if slope(0.0) >= 0:
        return 0.0
    lo, hi = 0.0, 1.0
    while slope(hi) < 0:  # bracket the root by doubling
        lo, hi = hi, 2 * hi
        if hi > 1e300:
            return np.inf  # the loss keeps falling along the direction (separable data)
    t = 0.5 * (lo + hi)
    for _ in range(max_iter):
        g = slope(t)
        if g < 0:
            lo = t
        else:
            hi = t
        h = curvature(t)
        newton = t - g / h if h > 0 else np.nan
        t = newton if lo < newton < hi else 0.5 * (lo + hi)  # Newton, kept in the bracket
        if hi - lo <= tol * max(1.0, hi):
            break
    return float(t)


def margin_line_search(X, y, w, direction, *, loss: str = "hinge", lam: float = 0.0,
                       tol: float = 1e-12, max_iter: int = 100) -> float:
    r"""The exact step along a direction for the hinge or log loss of the margin.

    Returns the smallest minimiser over :math:`t \ge 0` of (Chapter 3,
    {eq}`eq-line-search-hinge`, {eq}`eq-line-search-log`)

    .. math::
        g(t) = \frac1n \sum_{i=1}^n \varphi\big(y_i (w + t d)^\top x_i\big)
               + \frac\lambda2 \|w + t d\|^2 .

    With :math:`M_i = y_i w^\top x_i` and :math:`s_i = y_i d^\top x_i`, each term is
    :math:`\varphi(M_i + t s_i)`. The hinge makes :math:`g` piecewise quadratic (piecewise
    linear when :math:`\lambda = 0`) with breakpoints :math:`t_i = (1 - M_i)/s_i`: its slope
    rises by :math:`|s_i|/n` at each, so the minimiser is found exactly by sorting them. For the
    log loss :math:`g` is smooth and convex: Newton's method on :math:`g'`, kept inside a
    bracket that bisection shrinks. With ``direction`` the negative gradient this is the
    data-dependent step :math:`\eta_t = \operatorname{argmin}_\eta Q(w - \eta \nabla Q)`.

    Parameters
    ----------
    X : array_like of shape (n, d)
    y : array_like of shape (n,), labels in {-1, +1}
    w : array_like of shape (d,)
        The current point.
    direction : array_like of shape (d,)
        The direction :math:`d` of the search.
    loss : {"hinge", "log"}
        The hinge :math:`\max(0, 1 - M)` or the log loss :math:`\ln(1 + e^{-M})` (nats).
    lam : float
        L2 penalty :math:`\lambda \ge 0`.
    tol, max_iter : float, int
        Relative width of the final bracket and cap on Newton steps (log loss only).

    Returns
    -------
    float
        The step :math:`t \ge 0`; 0 when :math:`d` is not a descent direction, ``inf`` when
        the loss decreases without bound along :math:`d` (log loss, :math:`\lambda = 0`, every
        :math:`s_i \ge 0` and one positive).

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
    >>> y = np.array([1.0, 1.0, -1.0])
    >>> margin_line_search(X, y, np.zeros(2), np.array([1.0, 0.0]))  # two hinges hit 0 at 1
    1.0
    >>> t = margin_line_search(X, y, np.zeros(2), np.array([1.0, 0.0]), loss="log", lam=1.0)
    >>> round(t, 4)
    0.286
    """
    X, y = check_X_y(X, y)
    y = check_labels(y, (-1, 1))
    w = as_float_array(w, "w", ndim=1)
    direction = as_float_array(direction, "direction", ndim=1)
    for name, v in (("w", w), ("direction", direction)):
        if v.shape != (X.shape[1],):
            raise ValueError(f"{name} must have shape ({X.shape[1]},), got {v.shape}")
    if loss not in ("hinge", "log"):
        raise ValueError(f"loss must be 'hinge' or 'log', got {loss!r}")
    lam = check_scalar(lam, "lam", low=0.0)
    tol = check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter")
    M, s = y * (X @ w), y * (X @ direction)
    a, q, n = float(w @ direction), float(direction @ direction), len(y)
    if loss == "hinge":
        return _hinge_line_search(M, s, a, q, lam, n)
    return _log_line_search(M, s, a, q, lam, n, tol, max_iter)
