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
    check_positive,
    check_returned,
)

__all__ = ["OptimResult", "gradient_descent", "step_sizes", "subgradient_method"]


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
    >>> res = subgradient_method(lambda w: float(np.abs(w).sum()), np.sign, np.array([1.0, -2.0]),
    ...                          eta=0.5, max_iter=2000, f_star=0.0, tol=0.05)
    >>> res.converged, bool(res.best[-1] <= 0.05)
    (True, True)
    """
    w, etas, tol, max_iter = _check_common(w0, eta, power_t, tol, max_iter)
    f, subgrad = check_callable(f, "f"), check_callable(subgrad, "subgrad")
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
