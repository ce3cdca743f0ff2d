r"""Kernels as whole Gram matrices: :math:`K_{ij} = k(x_i, y_j)` for X of shape (n, d), Y (m, d).

Vectorised: no Python loop over pairs of points. Chapter 5 derives them and checks their
properties; Chapter 4's SMO solver takes any of them (or a callable of the same signature).
"""

from __future__ import annotations

import numpy as np

from mlnotes._validation import as_float_array, check_positive

__all__ = ["gram", "linear_kernel", "polynomial_kernel", "rbf_kernel"]


def _pair(X, Y):
    X = as_float_array(X, "X", ndim=2)
    Y = X if Y is None else as_float_array(Y, "Y", ndim=2)
    if X.shape[1] != Y.shape[1]:
        raise ValueError(f"X and Y have different numbers of features: {X.shape[1]} and {Y.shape[1]}")
    return X, Y


def linear_kernel(X, Y=None) -> np.ndarray:
    r"""Linear kernel :math:`k(x, y) = x^\top y`."""
    X, Y = _pair(X, Y)
    return X @ Y.T


def polynomial_kernel(X, Y=None, *, degree: int = 3, gamma: float = 1.0, coef0: float = 1.0) -> np.ndarray:
    r"""Polynomial kernel :math:`k(x, y) = (\gamma\, x^\top y + c_0)^p`."""
    X, Y = _pair(X, Y)
    check_positive(gamma, "gamma")
    return (gamma * (X @ Y.T) + coef0) ** degree


def rbf_kernel(X, Y=None, *, gamma: float = 1.0) -> np.ndarray:
    r"""Gaussian (RBF) kernel :math:`k(x, y) = \exp(-\gamma \|x - y\|^2)`.

    Uses :math:`\|x - y\|^2 = \|x\|^2 + \|y\|^2 - 2 x^\top y` (one matrix product), clipped at 0
    against rounding.
    """
    X, Y = _pair(X, Y)
    check_positive(gamma, "gamma")
    sq = (X**2).sum(1)[:, None] + (Y**2).sum(1)[None, :] - 2.0 * (X @ Y.T)
    return np.exp(-gamma * np.maximum(sq, 0.0))


_KERNELS = {"linear": linear_kernel, "poly": polynomial_kernel, "rbf": rbf_kernel}


def gram(X, Y=None, *, kernel="rbf", **params) -> np.ndarray:
    """Gram matrix for a kernel given by name (``"linear"``, ``"poly"``, ``"rbf"``) or callable."""
    if callable(kernel):
        return np.asarray(kernel(X, X if Y is None else Y, **params), dtype=float)
    try:
        return _KERNELS[kernel](X, Y, **params)
    except KeyError:
        raise ValueError(f"kernel must be one of {sorted(_KERNELS)} or a callable, got {kernel!r}") from None
