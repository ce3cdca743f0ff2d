r"""Surrogate losses of the margin :math:`M = y\,f(x)` with labels :math:`y \in \{-1, +1\}`.

Each function takes the margin (any array shape) and returns the loss elementwise; written so
that large :math:`|M|` neither overflows nor loses precision. Chapter 3 compares them
(section "A zoo of surrogate losses") and proves which upper-bound the zero-one loss.
"""

from __future__ import annotations

import numpy as np

__all__ = ["exponential", "hinge", "logistic", "perceptron", "quadratic", "sigmoid", "zero_one"]


def zero_one(M) -> np.ndarray:
    r"""Zero-one loss :math:`[M \le 0]` (a tie, :math:`M = 0`, counts as a mistake)."""
    return (np.asarray(M, dtype=float) <= 0).astype(float)


def quadratic(M) -> np.ndarray:
    r"""Quadratic loss :math:`(1 - M)^2`, least squares on labels written in the margin."""
    return (1.0 - np.asarray(M, dtype=float)) ** 2


def hinge(M) -> np.ndarray:
    r"""Hinge loss :math:`\max(0, 1 - M)` of the soft-margin SVM."""
    return np.maximum(0.0, 1.0 - np.asarray(M, dtype=float))


def perceptron(M) -> np.ndarray:
    r"""Perceptron loss :math:`\max(0, -M)`."""
    return np.maximum(0.0, -np.asarray(M, dtype=float))


def logistic(M) -> np.ndarray:
    r"""Logistic loss :math:`\log_2(1 + e^{-M})`, in bits so that it equals 1 at :math:`M = 0`.

    Computed as ``logaddexp(0, -M) / log(2)``: exact for large :math:`|M|`.
    """
    return np.logaddexp(0.0, -np.asarray(M, dtype=float)) / np.log(2.0)


def exponential(M) -> np.ndarray:
    r"""Exponential loss :math:`e^{-M}` of AdaBoost."""
    return np.exp(-np.asarray(M, dtype=float))


def sigmoid(M) -> np.ndarray:
    r"""Sigmoid loss :math:`2 / (1 + e^{M})`, a smooth non-convex step equal to 1 at 0."""
    M = np.asarray(M, dtype=float)
    return 2.0 * np.exp(-np.logaddexp(0.0, M))
