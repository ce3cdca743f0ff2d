r"""Numerical checks used by the claims: finite differences and relative errors.

Central differences have truncation error :math:`O(h^2)` and rounding error
:math:`O(\epsilon / h)` (with :math:`\epsilon` the machine epsilon), so the total error is
smallest near :math:`h \approx \epsilon^{1/3}` times the scale of :math:`x`; for second
derivatives the balance moves to :math:`h \approx \epsilon^{1/4}`. These are the defaults here
(Chapter 0, section "Checking a gradient").
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from mlnotes._validation import as_float_array, check_callable, check_positive, check_returned

_EPS = np.finfo(float).eps


def _steps(x: np.ndarray, power: float, h) -> np.ndarray:
    r"""The default steps :math:`\epsilon^{p} \max(1, |x_j|)` (``power`` is :math:`p`), or the
    user's ``h``, which must be a positive number."""
    if h is None:
        return _EPS**power * np.maximum(1.0, np.abs(x))
    return np.full(x.size, check_positive(h, "h"))


def _value(f, z: np.ndarray) -> float:
    """``f(z)``, checked: a finite number (not None, not an array of another shape, not NaN)."""
    return check_returned(f(z), "f")


def numerical_gradient(
    f: Callable[[np.ndarray], float], x, h: float | None = None
) -> np.ndarray:
    r"""Central-difference gradient of a scalar function.

    .. math:: \frac{\partial f}{\partial x_j} \approx \frac{f(x + h_j e_j) - f(x - h_j e_j)}{2 h_j}

    Parameters
    ----------
    f : callable
        Maps an array shaped like ``x`` to a float.
    x : array_like
        Point of evaluation (any shape; the gradient has the same shape).
    h : float, optional
        Step; default :math:`\epsilon^{1/3} \max(1, |x_j|)` per coordinate.

    Examples
    --------
    >>> numerical_gradient(lambda w: w @ w, np.array([1.0, -2.0])).round(6).tolist()  # 2w
    [2.0, -4.0]
    """
    f, x = check_callable(f, "f"), as_float_array(x, "x")
    flat = x.ravel()
    steps = _steps(flat, 1 / 3, h)
    grad = np.empty(flat.size)
    for j in range(flat.size):  # one coordinate at a time: f is a black box
        e = np.zeros(flat.size)
        e[j] = steps[j]
        f_plus = _value(f, (flat + e).reshape(x.shape))
        f_minus = _value(f, (flat - e).reshape(x.shape))
        grad[j] = (f_plus - f_minus) / (2 * steps[j])
    return grad.reshape(x.shape)


def numerical_jacobian(F: Callable[[np.ndarray], np.ndarray], x, h: float | None = None) -> np.ndarray:
    r"""Central-difference Jacobian :math:`J_{ij} = \partial F_i / \partial x_j` of shape (m, n).

    Examples
    --------
    >>> def F(w):
    ...     return np.array([w[0] * w[1], w[0]])
    >>> J = numerical_jacobian(F, np.array([2.0, 3.0]))
    >>> J.round(6).tolist()
    [[3.0, 2.0], [1.0, 0.0]]
    """
    F, x = check_callable(F, "F"), as_float_array(x, "x").ravel()
    steps = _steps(x, 1 / 3, h)
    cols, shape = [], None
    for j in range(x.size):
        e = np.zeros(x.size)
        e[j] = steps[j]
        plus = F(x + e)
        shape = np.shape(plus) if shape is None else shape  # every output has the first's shape
        plus, minus = check_returned(plus, "F", shape), check_returned(F(x - e), "F", shape)
        cols.append((np.ravel(plus) - np.ravel(minus)) / (2 * steps[j]))
    return np.column_stack(cols)


def numerical_hessian(f: Callable[[np.ndarray], float], x, h: float | None = None) -> np.ndarray:
    r"""Central-difference Hessian of a scalar function, symmetrised.

    .. math:: 4 h_j h_k H_{jk} &\approx f(x + h_j e_j + h_k e_k) - f(x + h_j e_j - h_k e_k) \\
              &\quad - f(x - h_j e_j + h_k e_k) + f(x - h_j e_j - h_k e_k)

    Examples
    --------
    >>> H = numerical_hessian(lambda w: w[0] ** 2 * w[1], np.array([1.0, 2.0]))
    >>> H.round(4).tolist()
    [[4.0, 2.0], [2.0, 0.0]]
    """
    f, x = check_callable(f, "f"), as_float_array(x, "x").ravel()
    steps = _steps(x, 1 / 4, h)
    n = x.size
    H = np.empty((n, n))
    for j in range(n):
        for k in range(j, n):
            ej = np.zeros(n)
            ek = np.zeros(n)
            ej[j] = steps[j]
            ek[k] = steps[k]
            H[j, k] = H[k, j] = (
                _value(f, x + ej + ek) - _value(f, x + ej - ek) - _value(f, x - ej + ek)
                + _value(f, x - ej - ek)
            ) / (4 * steps[j] * steps[k])
    return H


def rel_error(a, b) -> float:
    r"""Relative error :math:`\|a - b\| / \max(\|a\|, \|b\|)` (0 when both are 0).

    Symmetric in its arguments, so neither side of a claim is privileged.

    Examples
    --------
    >>> rel_error([1.0, 2.0], [1.0, 2.0 + 1e-9]) < 1e-9
    True
    >>> rel_error(1e-200, 2e-200)
    0.5
    >>> rel_error(np.ones(3), np.ones((3, 1)))
    Traceback (most recent call last):
    ...
    ValueError: a and b must have the same shape, got (3,) and (3, 1)
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    # no broadcasting: (3,) against (3, 1) is a bug in the caller
    if a.shape != b.shape:
        raise ValueError(
            f"a and b must have the same shape, got {a.shape} and {b.shape}")
    # Divide by the largest entry first, so 1e-200 vs 2e-200 does not underflow to 0 /
    # 0.
    m = max(np.max(np.abs(a), initial=0.0), np.max(np.abs(b), initial=0.0))
    if m == 0:
        return 0.0
    if not np.isfinite(m):
        raise ValueError("a and b must be finite")
    a, b = a / m, b / m
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(a), np.linalg.norm(b)))
