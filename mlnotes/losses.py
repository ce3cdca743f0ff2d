r"""Surrogate losses of the margin :math:`M = y\,f(x)` with labels :math:`y \in \{-1, +1\}`.

Each function takes the margin (any array shape) and returns the loss elementwise; written so
that large :math:`|M|` neither overflows nor loses precision. Chapter 3 compares them
(section "A zoo of surrogate losses") and proves which upper-bound the zero-one loss.

Each loss :math:`\varphi` also has its derivative ``<name>_derivative`` with respect to the margin:
stochastic gradient descent (:func:`mlnotes.online.sgd`) needs only :math:`\varphi'(M)`, since
:math:`\nabla_w \varphi(y\, w^\top x) = \varphi'(y\, w^\top x)\, y\, x` (Chapter 3,
{eq}`eq-sgd-gradient`). At a kink the derivative functions return the left derivative, which is a
subgradient: ``hinge_derivative(1) = -1`` (as scikit-learn's ``SGDClassifier``) and
``perceptron_derivative(0) = -1``, so that a point on the boundary counts as a mistake and the
perceptron moves away from :math:`w = 0`.

:func:`get` maps the names accepted by ``sgd(loss=...)`` to ``(loss, derivative)`` pairs.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "LOSSES", "exponential", "exponential_derivative", "get", "hinge", "hinge_derivative",
    "log_loss", "log_loss_derivative", "logistic", "logistic_derivative", "perceptron",
    "perceptron_derivative", "quadratic", "quadratic_derivative", "sigmoid_loss", "sigmoid_loss_derivative",
    "zero_one",
]


def zero_one(M) -> np.ndarray:
    r"""Zero-one loss :math:`[M \le 0]` (a tie, :math:`M = 0`, counts as a mistake).

    Examples
    --------
    >>> zero_one(np.array([-1.0, 0.0, 2.0])).round(4).tolist()
    [1.0, 1.0, 0.0]
    """
    return (np.asarray(M, dtype=float) <= 0).astype(float)


def quadratic(M) -> np.ndarray:
    r"""Quadratic loss :math:`(1 - M)^2`, least squares on labels written in the margin.

    Examples
    --------
    >>> quadratic(np.array([-1.0, 0.0, 2.0])).round(4).tolist()
    [4.0, 1.0, 1.0]
    """
    return (1.0 - np.asarray(M, dtype=float)) ** 2


def hinge(M) -> np.ndarray:
    r"""Hinge loss :math:`\max(0, 1 - M)` of the soft-margin SVM.

    Examples
    --------
    >>> hinge(np.array([-1.0, 0.0, 2.0])).round(4).tolist()
    [2.0, 1.0, 0.0]
    """
    return np.maximum(0.0, 1.0 - np.asarray(M, dtype=float))


def perceptron(M) -> np.ndarray:
    r"""Perceptron loss :math:`\max(0, -M)`.

    Examples
    --------
    >>> (perceptron(np.array([-1.0, 0.0, 2.0])) + 0.0).tolist()
    [1.0, 0.0, 0.0]
    """
    return np.maximum(0.0, -np.asarray(M, dtype=float))


def logistic(M) -> np.ndarray:
    r"""Logistic loss :math:`\log_2(1 + e^{-M})`, in bits so that it equals 1 at :math:`M = 0`.

    Computed as ``logaddexp(0, -M) / log(2)``: exact for large :math:`|M|`.

    Examples
    --------
    >>> logistic(np.array([-1.0, 0.0, 2.0])).round(4).tolist()
    [1.8946, 1.0, 0.1831]
    """
    return np.logaddexp(0.0, -np.asarray(M, dtype=float)) / np.log(2.0)


def exponential(M) -> np.ndarray:
    r"""Exponential loss :math:`e^{-M}` of AdaBoost.

    Examples
    --------
    >>> exponential(np.array([-1.0, 0.0, 2.0])).round(4).tolist()
    [2.7183, 1.0, 0.1353]
    """
    return np.exp(-np.asarray(M, dtype=float))


def sigmoid_loss(M) -> np.ndarray:
    r"""Sigmoid loss :math:`2 / (1 + e^{M})`, a smooth non-convex step equal to 1 at 0.

    Examples
    --------
    >>> sigmoid_loss(np.array([-1.0, 0.0, 2.0])).round(4).tolist()
    [1.4621, 1.0, 0.2384]
    """
    M = np.asarray(M, dtype=float)
    return 2.0 * np.exp(-np.logaddexp(0.0, M))


def log_loss(M) -> np.ndarray:
    r"""Logistic loss in nats, :math:`\ln(1 + e^{-M})`: the negative log-likelihood of logistic
    regression with :math:`p(y \mid x) = g(y f(x))` (the loss of ``sgd(loss="log")``).

    Equals ``logistic(M) * ln 2``; it is *not* an upper bound of the zero-one loss
    (:math:`\ln 2 < 1` at :math:`M = 0`), which is why the zoo plots the version in bits.

    Examples
    --------
    >>> log_loss(np.array([-1.0, 0.0, 2.0])).round(4).tolist()
    [1.3133, 0.6931, 0.1269]
    """
    return np.logaddexp(0.0, -np.asarray(M, dtype=float))


def _sigmoid_neg(M: np.ndarray) -> np.ndarray:
    # g(-M) = 1 / (1 + e^M), evaluated as exp(-log(1 + e^M)): no overflow for large |M|
    return np.exp(-np.logaddexp(0.0, M))


def quadratic_derivative(M) -> np.ndarray:
    r"""Derivative of the quadratic loss, :math:`-2(1 - M)`.

    Examples
    --------
    >>> quadratic_derivative(np.array([-1.0, 0.0, 2.0])).round(4).tolist()
    [-4.0, -2.0, 2.0]
    """
    return -2.0 * (1.0 - np.asarray(M, dtype=float))


def hinge_derivative(M) -> np.ndarray:
    r"""Subgradient of the hinge loss: :math:`-[M \le 1]` (the left derivative at the kink).

    Examples
    --------
    >>> (hinge_derivative(np.array([-1.0, 0.0, 2.0])) + 0.0).tolist()  # -1 at the kink
    [-1.0, -1.0, 0.0]
    """
    return -(np.asarray(M, dtype=float) <= 1.0).astype(float)


def perceptron_derivative(M) -> np.ndarray:
    r"""Subgradient of the perceptron loss: :math:`-[M \le 0]` (the left derivative at 0).

    Examples
    --------
    >>> (perceptron_derivative(np.array([-1.0, 0.0, 2.0])) + 0.0).tolist()
    [-1.0, -1.0, 0.0]
    """
    return -(np.asarray(M, dtype=float) <= 0.0).astype(float)


def log_loss_derivative(M) -> np.ndarray:
    r"""Derivative of :math:`\ln(1 + e^{-M})`: :math:`-g(-M) = -1/(1 + e^{M})`.

    Examples
    --------
    >>> log_loss_derivative(np.array([-1.0, 0.0, 2.0])).round(4).tolist()
    [-0.7311, -0.5, -0.1192]
    """
    return -_sigmoid_neg(np.asarray(M, dtype=float))


def logistic_derivative(M) -> np.ndarray:
    r"""Derivative of :math:`\log_2(1 + e^{-M})`: :math:`-g(-M) / \ln 2`.

    Examples
    --------
    >>> logistic_derivative(np.array([-1.0, 0.0, 2.0])).round(4).tolist()
    [-1.0547, -0.7213, -0.172]
    """
    return log_loss_derivative(M) / np.log(2.0)


def exponential_derivative(M) -> np.ndarray:
    r"""Derivative of :math:`e^{-M}`: :math:`-e^{-M}`.

    Examples
    --------
    >>> exponential_derivative(np.array([-1.0, 0.0, 2.0])).round(4).tolist()
    [-2.7183, -1.0, -0.1353]
    """
    return -np.exp(-np.asarray(M, dtype=float))


def sigmoid_loss_derivative(M) -> np.ndarray:
    r"""Derivative of :math:`2/(1 + e^{M})`: :math:`-2\, g(M)\, g(-M)`.

    Examples
    --------
    >>> sigmoid_loss_derivative(np.array([-1.0, 0.0, 2.0])).round(4).tolist()
    [-0.3932, -0.5, -0.21]
    """
    M = np.asarray(M, dtype=float)
    return -2.0 * _sigmoid_neg(M) * _sigmoid_neg(-M)


#: Names accepted by ``mlnotes.online.sgd(loss=...)``: ``(loss, derivative)`` of the margin.
LOSSES = {
    "hinge": (hinge, hinge_derivative),
    "log": (log_loss, log_loss_derivative),
    "logistic": (logistic, logistic_derivative),
    "perceptron": (perceptron, perceptron_derivative),
    "quadratic": (quadratic, quadratic_derivative),
    "exponential": (exponential, exponential_derivative),
    "sigmoid": (sigmoid_loss, sigmoid_loss_derivative),
}


def get(name: str):
    """Return ``(loss, derivative)`` for a loss name; ValueError naming the choices otherwise.

    Examples
    --------
    >>> phi, dphi = get("hinge")
    >>> phi(np.array([0.5])).tolist(), dphi(np.array([0.5])).tolist()
    ([0.5], [-1.0])
    """
    try:
        return LOSSES[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"loss must be one of {sorted(LOSSES)}, got {name!r}"
        ) from None
