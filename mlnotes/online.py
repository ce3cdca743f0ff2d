r"""Online linear classifiers: the perceptron, winnow, and stochastic gradient descent.

All three learn a linear classifier :math:`\hat y = \sign(w^\top x + b)` from labels
:math:`y \in \{-1, +1\}` (Chapter 3, {doc}`/notebooks/03_online_linear_classifiers`). The
perceptron and winnow are mistake-driven: they change :math:`w` only when the margin
:math:`M_i = y_i (w^\top x_i + b)` is :math:`\le 0` and stop after an epoch without a mistake.
:func:`sgd` minimises a regularised surrogate loss of the margin,

.. math:: J(w, b) = \frac{1}{n} \sum_{i=1}^n \varphi\big(y_i (w^\top x_i + b)\big)
          + \frac{\lambda}{2} \|w\|^2,

one (mini-)batch at a time; the perceptron rule, the delta rule and logistic SGD are the special
cases ``loss="perceptron"``, ``"quadratic"`` and ``"log"``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np

from mlnotes import losses, optim
from mlnotes._validation import (
    ConvergenceWarning,
    OwnsArrays,
    as_float_array,
    check_int,
    check_labels,
    check_n_features,
    check_positive,
    check_rng,
    check_X_y,
    read_only,
)

__all__ = [
    "OnlineFit", "SGDFit", "perceptron", "perceptron_bound", "sgd", "winnow", "winnow_bound",
]


class _LinearClassifier:
    """Score and labels of a fit with weights ``w`` and bias ``b`` (shared by the results here)."""

    def decision_function(self, X) -> np.ndarray:
        r"""Score :math:`f(x) = w^\top x + b` for each row of ``X``."""
        return check_n_features(X, self.w.shape[0]) @ self.w + self.b

    def predict(self, X) -> np.ndarray:
        """Labels in {-1, +1}; a score of exactly 0 is predicted as +1 (the library's tie rule).

        Training still counts :math:`y_i w^\top x_i \\le 0` as a mistake: that is the update rule,
        not the prediction. The sign is taken of the score with ``X`` and ``(w, b)`` rescaled by
        powers of two (exact), so it is right even where the score itself overflows or
        underflows (features at 1e200 or 1e-200).
        """
        X = check_n_features(X, self.w.shape[0])
        ex, ew = _binary_exponent(X), _binary_exponent(np.append(self.w, self.b))
        if abs(ex + ew) < 900:  # the products x_ij w_j neither overflow nor underflow: no copy of X
            f = X @ self.w + self.b
        else:
            with np.errstate(over="ignore", under="ignore"):
                f = np.ldexp(X, -ex) @ np.ldexp(self.w, -ew) + np.ldexp(self.b, -ex - ew)
        return np.where(f >= 0, 1.0, -1.0)


def _binary_exponent(A: np.ndarray) -> int:
    """The e with max |A| in [2^(e-1), 2^e) (0 for a zero A): dividing by 2^e is exact."""
    top = float(np.max(np.abs(A), initial=0.0))
    return int(np.frexp(top)[1]) if top > 0 else 0


@dataclass(frozen=True)
class OnlineFit(_LinearClassifier, OwnsArrays):
    """A mistake-driven fit (perceptron or winnow).

    Attributes
    ----------
    w : ndarray of shape (d,)
        Weights. For winnow with ``doubled=True`` this is :math:`v^+ - v^-`.
    b : float
        Bias (0 unless ``fit_intercept=True``).
    mistakes : ndarray of shape (n_epochs,)
        Mistakes (updates) made in each epoch.
    mistake_steps : ndarray of int
        Index ``t`` (0-based count of examples seen) of every mistake, for mistake curves.
    mistake_index : ndarray of int
        The sample index ``i`` of every mistake: the iterate after ``k`` mistakes is the sum of
        the first ``k`` updates, so the proofs can be replayed.
    n_mistakes : int
        Total number of mistakes, the quantity the mistake bounds control.
    n_epochs : int
        Passes over the data.
    converged : bool
        True when the last epoch made no mistake (every training point has margin > 0).
    v : ndarray or None
        Winnow only: the non-negative weights on the (doubled) coordinates, summing to 1.
    n_iter, objective
        ``n_epochs`` and the mistakes of each epoch as floats: what a mistake-driven method
        drives to zero, and what its mistake bound controls (CONTRIBUTING.md's contract).
    """

    w: np.ndarray
    b: float
    mistakes: np.ndarray
    mistake_steps: np.ndarray
    mistake_index: np.ndarray
    n_mistakes: int
    n_epochs: int
    converged: bool
    v: np.ndarray | None = None

    @property
    def n_iter(self) -> int:
        return self.n_epochs

    @property
    def objective(self) -> np.ndarray:
        return read_only(self.mistakes.astype(float))


@dataclass(frozen=True)
class SGDFit(_LinearClassifier, OwnsArrays):
    """A stochastic gradient descent fit.

    Attributes
    ----------
    w, b : the weights and the (unregularised) bias.
    objective : ndarray of shape (n_epochs + 1,)
        :math:`J(w, b)` on the whole training set at the start and after each epoch.
    running : ndarray of shape (n_updates,)
        The running estimate :math:`\\hat J \\leftarrow (1 - \\alpha) \\hat J + \\alpha\\,
        \\varepsilon_t` of the objective, where :math:`\\varepsilon_t` is the mean loss of the
        mini-batch plus the penalty, computed before the update; :math:`\\alpha` = ``running_alpha``.
    eta : ndarray of shape (n_updates,)
        Step size of each update.
    n_iter : int
        Number of updates (mini-batches).
    n_epochs : int
        Passes over the data.
    converged : bool
        True when the relative change of the objective over an epoch fell below ``tol``.
    loss : str
        The loss name.
    path : ndarray of shape (n_updates + 1, d + 1) or None
        With ``record_path=True``: :math:`(w, b)` at the start and after every update.
    """

    w: np.ndarray
    b: float
    objective: np.ndarray
    running: np.ndarray
    eta: np.ndarray
    n_iter: int
    n_epochs: int
    converged: bool
    loss: str = field(default="hinge")
    path: np.ndarray | None = None




def _prepare(X, y, fit_intercept: bool, scale_for=None):
    # Beside the constant feature 1, features whose squares over- or underflow (1e+-200) leave
    # either the bias or the features out of every score: no rescaling of the points helps
    if fit_intercept and scale_for is None:
        scale_for = "a linear classifier with an intercept (the constant feature 1 beside X)"
    X, y = check_X_y(X, y, scale_for=scale_for)
    y = check_labels(y, (-1.0, 1.0))
    if fit_intercept:  # the homogeneous form: append the constant feature 1 (eq-homogeneous-form)
        X = np.hstack([X, np.ones((X.shape[0], 1))])
    return X, y


def _order(n: int, shuffle: bool, rng: np.random.Generator) -> np.ndarray:
    return rng.permutation(n) if shuffle else np.arange(n)


def _warn_mistakes(name: str, n_epochs: int, n_mistakes: int, last: int) -> None:
    warnings.warn(
        f"{name} did not converge in n_epochs={n_epochs} epochs: {n_mistakes} mistakes in "
        f"total, {last} in the last epoch; the data may not be linearly separable"
        + (" (with a non-negative target: try doubled=True)" if name == "winnow(doubled=False)" else ""),
        ConvergenceWarning,
        stacklevel=4,
    )


#: Relative tolerance of the mistake test's tie rule (see ``_mistake_driven``).
TIE_TOL = 1e-12


def _mistake_driven(P, w, update, *, n_epochs, shuffle, rng, name):
    """Cycle through the signed points ``P`` (rows a_i = y_i x_i), calling ``w = update(w, a_i)``
    whenever ``w @ a_i <= 0`` (up to rounding: the tie rule below), until an epoch without a
    mistake or ``n_epochs`` epochs.

    Sequential by nature (each update changes the margins of all later points), so a Python
    loop over samples; returns the final ``w`` and the trace fields of :class:`OnlineFit`.
    """
    n = P.shape[0]
    rng = check_rng(rng)
    # The tie rule: a score within rounding of zero, |w^T a_i| <= TIE_TOL ||a_i||_inf
    # ||w||_1, is a tie and counts as a mistake, like an exact zero. Its computed sign
    # would otherwise depend on the order of the products in the dot product (SIMD
    # width, BLAS, CPU); with it, mathematically tied scores (common with +-1 features
    # and winnow's equal weights) are judged the same on every machine.
    a_max = np.abs(P).max(axis=1) * TIE_TOL
    w_l1 = float(np.abs(w).sum())
    per_epoch, steps, index = [], [], []
    t = 0
    converged = False
    for _ in range(n_epochs):
        count = 0
        for i in _order(n, shuffle, rng):
            if P[i] @ w <= a_max[i] * w_l1:
                w = update(w, P[i])
                w_l1 = float(np.abs(w).sum())
                count += 1
                steps.append(t)
                index.append(i)
            t += 1
        per_epoch.append(count)
        if count == 0:
            converged = True
            break
    n_mistakes = int(sum(per_epoch))
    if not converged:
        _warn_mistakes(name, n_epochs, n_mistakes, per_epoch[-1])
    return w, dict(
        mistakes=np.array(per_epoch, dtype=int),
        mistake_steps=np.array(steps, dtype=int),
        mistake_index=np.array(index, dtype=int),
        n_mistakes=n_mistakes, n_epochs=len(per_epoch),
        converged=converged,
    )


def perceptron(
    X,
    y,
    *,
    n_epochs: int = 100,
    fit_intercept: bool = False,
    shuffle: bool = False,
    rng=0,
) -> OnlineFit:
    r"""Rosenblatt's perceptron, cycling through the data until an epoch makes no mistake.

    On a mistake, :math:`y_i (w^\top x_i + b) \le 0`, the update is (Chapter 3,
    {eq}`eq-perceptron-score-increase`)

    .. math:: w \leftarrow w + y_i x_i, \qquad b \leftarrow b + y_i,

    starting from :math:`w = 0`. On data separable with margin :math:`\gamma` by a unit vector,
    with :math:`R = \max_i \|(x_i, 1)\|` (or :math:`\max_i \|x_i\|` without intercept), the number
    of mistakes is at most :math:`(R / \gamma)^2` ({eq}`eq-perceptron-bound`), whatever the order.

    Parameters
    ----------
    X : array_like of shape (n, d)
    y : array_like of shape (n,), labels in {-1, +1}
    n_epochs : int
        Passes over the data before giving up (non-separable data never converge).
    fit_intercept : bool
        Learn a bias :math:`b` (the perceptron on the homogeneous points :math:`(x_i, 1)`).
    shuffle : bool
        Visit the points in a new random order every epoch; default: in order.
    rng : None, int or numpy.random.Generator, optional
        Seed of the generator that shuffles.

    Returns
    -------
    OnlineFit
        ``converged=False`` with a :class:`~mlnotes.ConvergenceWarning` giving the number of
        mistakes when ``n_epochs`` passes still make mistakes.

    Examples
    --------
    >>> X = np.array([[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, 1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> fit = perceptron(X, y)
    >>> fit.converged, fit.n_mistakes, fit.w.tolist()
    (True, 1, [2.0, 1.0])
    >>> fit.predict(X).tolist()
    [1.0, 1.0, -1.0, -1.0]
    """
    n_epochs = check_int(n_epochs, "n_epochs")
    A, y = _prepare(X, y, fit_intercept)
    P = y[:, None] * A
    # The perceptron is scale invariant (w is a sum of points, the mistakes are the same
    # for c * a_i): run it on the points divided by a power of two near their largest
    # entry, exactly, so that scores neither overflow (x ~ 1e200) nor underflow (x ~
    # 1e-200), and scale back.
    e = _binary_exponent(P)
    w, run = _mistake_driven(
        np.ldexp(P, -e), np.zeros(A.shape[1]), lambda w, a: w + a,
        n_epochs=n_epochs, shuffle=shuffle, rng=rng, name="perceptron",
    )
    w = np.ldexp(w, e)
    if fit_intercept:
        return OnlineFit(w=w[:-1].copy(), b=float(w[-1]), **run)
    return OnlineFit(w=w, b=0.0, **run)


def perceptron_bound(X, y, u, *, fit_intercept: bool = False) -> float:
    r"""The perceptron's mistake bound :math:`(R/\gamma)^2` certified by a separator ``u``.

    :math:`R = \max_i \|a_i\|` and :math:`\gamma = \min_i y_i\, u^\top a_i / \|u\|` over the
    (homogeneous, if ``fit_intercept``) points :math:`a_i`; ``u`` includes the bias last when
    ``fit_intercept``. Any separator gives a valid bound; the max-margin one gives the best.
    Labels ``y`` in {-1, +1} (convert with :func:`mlnotes.to_pm1`); raises ValueError if ``u``
    does not separate the data (:math:`\gamma \le 0`).

    Examples
    --------
    >>> X = np.array([[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, 1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> # (R / gamma)^2 >= the 2 mistakes made
    >>> round(perceptron_bound(X, y, np.array([1.0, 0.5])), 4)
    5.5556
    """
    A, y = _prepare(X, y, fit_intercept)
    u = as_float_array(u, "u", ndim=1)
    if u.shape != (A.shape[1],):
        raise ValueError(f"u must have shape ({A.shape[1]},), got {u.shape}")
    if not u.any():
        raise ValueError("u must be a non-zero vector (a separator); got u = 0")
    gamma = float(np.min(y * (A @ u)) / np.linalg.norm(u))
    if gamma <= 0:
        raise ValueError(f"u does not separate the data: its margin is {gamma:.3g} <= 0")
    R = float(np.max(np.linalg.norm(A, axis=1)))
    return (R / gamma) ** 2


def _check_winnow_scale(top: float, eta: float) -> None:
    """Features in [-1, 1] whose multiplicative updates do not all round to nothing."""
    if top > 1.0:
        raise ValueError(
            "winnow needs features in [-1, 1] (they are the payoffs of its game, and its mistake "
            f"bound assumes |x_ij| <= 1); got max |x_ij| = {top:.4g}: scale X, e.g. X / {top:.4g}"
        )
    if top > 0 and eta * top < np.finfo(float).epsneg:
        raise ValueError(
            f"winnow: at the scale of X (max |x_ij| = {top:.3g}) a multiplicative update "
            f"e^(eta x_ij) rounds to 1 (eta * max |x_ij| = {eta * top:.3g} < 1.1e-16), so no mistake can "
            f"change the weights: scale X to [-1, 1], e.g. X / {top:.4g}, or increase eta"
        )


def winnow(
    X,
    y,
    *,
    eta: float = 0.1,
    n_epochs: int = 100,
    doubled: bool = True,
    fit_intercept: bool = False,
    shuffle: bool = False,
    rng=0,
) -> OnlineFit:
    r"""Winnow (multiplicative weights) for a linear separator with non-negative weights.

    The weights are a probability vector :math:`w = v / \sum_k v_k` over the coordinates of the
    points :math:`a_i = y_i z_i`; on a mistake, :math:`w^\top a_i \le 0`, every coordinate is
    multiplied by :math:`e^{\eta a_{ik}}` (Chapter 3, {eq}`eq-winnow-bound`): the row player of
    the repeated game with payoff :math:`-a_{ik}` moves weight towards coordinates on which the
    mistaken point is positive. If a probability vector :math:`u` has margin
    :math:`\rho = \min_i u^\top a_i > 0` and :math:`\eta < 2\rho`, the number of mistakes is at
    most :math:`\ln N / (\eta\rho - \eta^2/2)`, i.e. :math:`2 \ln N / \rho^2` for
    :math:`\eta = \rho`, with :math:`N` the number of weights.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Features in :math:`[-1, 1]` (the payoffs of the game must be bounded by 1): scale first.
    y : array_like of shape (n,), labels in {-1, +1}
    eta : float
        Learning rate :math:`\eta > 0`; the bound needs :math:`\eta < 2\rho`, best :math:`\eta = \rho`.
    n_epochs : int
        Passes over the data before giving up.
    doubled : bool
        Run on the doubled representation :math:`z_i = (x_i, -x_i)` (:math:`N = 2d`), so that
        :math:`w = v^+ - v^-` can have either sign. With ``False`` winnow runs on :math:`x_i`
        itself (:math:`N = d`) and can only learn targets with non-negative weights.
    fit_intercept : bool
        Append the constant feature 1 before doubling.
    shuffle, rng : bool, None, int or numpy.random.Generator
        As for :func:`perceptron`.

    Returns
    -------
    OnlineFit
        ``w`` (of shape (d,), :math:`v^+ - v^-` when doubled, scaled so that
        :math:`\|w\|_1 \le 1`), ``v`` (the N non-negative weights, summing to 1), the mistakes;
        ``converged=False`` with a ConvergenceWarning after ``n_epochs`` epochs with mistakes.

    Examples
    --------
    >>> X = np.array([[0.5, -0.2], [0.8, 0.1], [-0.6, 0.3], [-0.4, -0.5]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> fit = winnow(X, y, eta=0.5)
    >>> fit.converged, fit.predict(X).tolist()
    (True, [1.0, 1.0, -1.0, -1.0])
    >>> bool(np.isclose(fit.v.sum(), 1.0))
    True
    """
    eta = check_positive(eta, "eta")
    n_epochs = check_int(n_epochs, "n_epochs")
    A, y = _prepare(X, y, fit_intercept,
                    scale_for=lambda X, top: _check_winnow_scale(top, eta))
    if doubled:  # (a, -a): non-negative weights v+ and v- with w = v+ - v-
        A = np.hstack([A, -A])
    N = A.shape[1]
    # log-weights, v_k = 1 at the start: logs avoid overflow of e^{eta t}
    logv = np.zeros(N)

    def update(w, a):
        logv[:] += eta * a
        logv[:] -= logv.max()
        v = np.exp(logv)
        return v / v.sum()

    v, run = _mistake_driven(
        y[:, None] * A, np.full(N, 1.0 / N), update, n_epochs=n_epochs, shuffle=shuffle,
        rng=rng, name="winnow" if doubled else "winnow(doubled=False)",
    )
    full = v[: N // 2] - v[N // 2:] if doubled else v.copy()
    if fit_intercept:
        return OnlineFit(w=full[:-1].copy(), b=float(full[-1]), v=v, **run)
    return OnlineFit(w=full, b=0.0, v=v, **run)


def winnow_bound(rho: float, N: int, eta: float) -> float:
    r"""Winnow's mistake bound :math:`\ln N / (\eta\rho - \eta^2/2)` for :math:`0 < \eta < 2\rho`.

    ``rho`` is the margin :math:`\min_i u^\top a_i` of a probability vector :math:`u` over the
    :math:`N` coordinates the algorithm runs on (Chapter 3, {eq}`eq-winnow-bound`).

    Examples
    --------
    >>> round(winnow_bound(0.1, 10, 0.1), 2)  # 2 ln(10) / 0.1^2
    460.52
    """
    rho = check_positive(rho, "rho")
    eta = check_positive(eta, "eta")
    N = check_int(N, "N")  # the number of weights: a count >= 1
    if eta >= 2 * rho:
        raise ValueError(f"the bound needs eta < 2 * rho = {2 * rho:.4g}, got eta={eta!r}")
    return float(np.log(N) / (eta * rho - eta**2 / 2))


# -- SGD, step by step ---------------------------------------------------------------------------
@dataclass
class _SGDRun:
    """The state of an SGD run: the iterate, the number of updates so far and the traces."""

    w: np.ndarray
    b: float = 0.0
    t: int = 0
    est: float | None = None  # the running estimate of J
    running: list = field(default_factory=list)
    path: list | None = None


def _check_sgd_options(eta, lam, power_t, batch_size, n_epochs, tol, running_alpha):
    eta = check_positive(eta, "eta")
    lam = check_positive(lam, "lam", allow_zero=True)
    power_t = check_positive(power_t, "power_t", allow_zero=True)
    batch_size = check_int(batch_size, "batch_size")
    n_epochs = check_int(n_epochs, "n_epochs")
    if tol is not None:
        tol = check_positive(tol, "tol")
    if not 0.0 < float(running_alpha) <= 1.0:
        raise ValueError(f"running_alpha must lie in (0, 1], got {running_alpha!r}")
    return eta, lam, power_t, batch_size, n_epochs, tol


def _penalty(lam: float, w: np.ndarray) -> float:
    r""":math:`\frac{\lambda}{2}\|w\|^2`, and 0 for :math:`\lambda = 0` even when :math:`\|w\|^2`
    overflowed (0 * inf would make the objective NaN rather than the loss's +inf)."""
    return 0.5 * lam * float(w @ w) if lam > 0 else 0.0


def _sgd_objective(phi, X, y, w, b, lam) -> float:
    """:math:`J(w, b)` on the whole training set ({eq}`def-online-objective`)."""
    return float(np.mean(phi(y * (X @ w + b)))) + _penalty(lam, w)


def _running_average(est: float | None, value: float, alpha: float) -> float:
    r"""Averaging: :math:`\hat J \leftarrow (1 - \alpha) \hat J + \alpha\, \varepsilon_t`; the first value starts it."""
    return value if est is None else (1 - alpha) * est + alpha * value


def _surrogate_step(w, b, Xb, yb, g, eta_t, lam, fit_intercept) -> float:
    r"""The surrogate-loss (sub)gradient step on a mini-batch, in place on ``w``; returns the new ``b``.

    ``g`` holds :math:`\varphi'(M_i)\, y_i`, the derivative of the loss with respect to the
    score :math:`f(x_i)`, so that :math:`\nabla_w \varphi(M_i) = g_i x_i` ({eq}`eq-sgd-gradient`).
    Weight decay first, then the loss step, both at the old ``w`` ({eq}`eq-weight-decay`).
    """
    if lam > 0.0:
        w *= 1.0 - eta_t * lam
    w -= (eta_t / yb.size) * (g @ Xb)
    if fit_intercept:  # the bias is not penalised: no decay
        b -= eta_t * float(np.mean(g))
    return b


def _sgd_update(
    run: _SGDRun, Xb, yb, phi, dphi, eta_t, *, lam, fit_intercept, running_alpha
) -> None:
    """One update on the mini-batch ``(Xb, yb)``: the running estimate of J, then the step."""
    M = yb * (Xb @ run.w + run.b)  # the margins of the batch at the current iterate
    # the mini-batch's estimate of J: its mean loss plus the penalty at the current w
    batch_loss = float(np.mean(phi(M))) + _penalty(lam, run.w)
    run.est = _running_average(run.est, batch_loss, running_alpha)
    run.running.append(run.est)
    run.b = _surrogate_step(
        run.w, run.b, Xb, yb, dphi(M) * yb, eta_t, lam, fit_intercept)
    if run.path is not None:
        run.path.append(np.append(run.w, run.b))
    run.t += 1


#: Largest step :math:`\eta \max_i \|x_i\|^2` SGD accepts: beyond it one step moves the
#: margins by more than 1e150 and the quadratic loss of the next overflows.
MAX_STEP_SCALE = 1e150


def _check_sgd_scale(X, top: float, eta, fit_intercept) -> None:
    """Refuse a scale of X at which one step overflows (SGD is not scale invariant: its step is not).

    ``top`` = max |x_ij| comes from the validation's one pass over X; max ||x_i||^2 <= d top^2
    settles every ordinary X without another pass, the row norms only the borderline ones.
    """
    if top == 0.0:
        return
    with np.errstate(over="ignore"):
        if eta * (X.shape[1] * top * top + float(fit_intercept)) <= MAX_STEP_SCALE:
            return
        r2 = float(np.max(np.einsum("ij,ij->i", X / top, X / top))) * top * top + float(fit_intercept)
    if not eta * r2 <= MAX_STEP_SCALE:
        raise ValueError(
            f"sgd: the scale of X (max |x_ij| = {top:.3g}) makes one step eta * max ||x_i||^2 = "
            f"{eta * r2:.3g} overflow; standardise X (or take eta of order 1 / max ||x_i||^2)"
        )


def _warn_sgd(J, *, eta, n_epochs, tol, converged) -> None:
    if not np.isfinite(J[-1]):
        warnings.warn(
            # the losses are >= 0, so a J that is not finite overflowed (a NaN is inf - inf
            # in the margins of weights that overflowed): say that, not "objective nan"
            f"sgd diverged (the objective overflowed in epoch {len(J) - 1}) with eta={eta!r}: "
            "reduce the step size or standardise X",
            ConvergenceWarning, stacklevel=3,
        )
    elif tol is not None and not converged:
        warnings.warn(
            f"sgd did not converge in n_epochs={n_epochs}: the last epoch changed the objective by "
            f"{abs(J[-2] - J[-1]):.3g} > tol * max(1, |J|); increase n_epochs or tol",
            ConvergenceWarning, stacklevel=3,
        )


def sgd(
    X,
    y,
    *,
    loss: str = "hinge",
    eta: float = 0.01,
    batch_size: int = 1,
    n_epochs: int = 5,
    lam: float = 0.0,
    power_t: float = 0.0,
    fit_intercept: bool = True,
    shuffle: bool = True,
    tol: float | None = None,
    running_alpha: float = 0.01,
    record_path: bool = False,
    rng=0,
) -> SGDFit:
    r"""Mini-batch stochastic gradient descent on a regularised surrogate loss of the margin.

    With :math:`M_i = y_i (w^\top x_i + b)`, a batch :math:`B` and step
    :math:`\eta_t = \eta\, t^{-p}` (:math:`t = 1, 2, \ldots` counts updates, :math:`p` =
    ``power_t``), one update is (Chapter 3, {eq}`eq-sgd-gradient`, {eq}`eq-weight-decay`)

    .. math::
        w &\leftarrow (1 - \eta_t \lambda)\, w - \frac{\eta_t}{|B|} \sum_{i \in B}
             \varphi'(M_i)\, y_i x_i, \\
        b &\leftarrow b - \frac{\eta_t}{|B|} \sum_{i \in B} \varphi'(M_i)\, y_i ,

    a gradient step on :math:`\frac{1}{|B|}\sum_{i\in B}\varphi(M_i) + \frac{\lambda}{2}\|w\|^2`
    (a subgradient step for the hinge and perceptron losses). ``loss="perceptron"``, ``eta=1``,
    ``lam=0``, ``batch_size=1`` is the perceptron rule; ``"quadratic"`` the delta rule;
    ``"log"`` logistic regression. With ``batch_size=1`` and ``shuffle=False`` the iterates are
    those of scikit-learn's ``SGDClassifier(penalty="l2", alpha=lam, shuffle=False)`` with
    ``learning_rate="constant"`` (``power_t=0``) or ``"invscaling"``.

    Parameters
    ----------
    X : array_like of shape (n, d)
    y : array_like of shape (n,), labels in {-1, +1}
    loss : {"hinge", "log", "logistic", "perceptron", "quadratic", "exponential", "sigmoid"}
        The surrogate :math:`\varphi` (:mod:`mlnotes.losses`; ``"log"`` is in nats).
    eta : float
        Initial step size :math:`\eta > 0`.
    batch_size : int
        Points per update; the last batch of an epoch may be smaller.
    n_epochs : int
        Passes over the data (each in a new random order when ``shuffle``).
    lam : float
        L2 penalty :math:`\lambda \ge 0` on :math:`w` (not on :math:`b`): weight decay.
    power_t : float
        Decay exponent :math:`p \ge 0`; :math:`1/2 < p \le 1` meets the Robbins-Monro conditions
        :math:`\sum_t \eta_t = \infty`, :math:`\sum_t \eta_t^2 < \infty`.
    tol : float or None
        Stop when an epoch changes :math:`J` by at most ``tol * max(1, |J|)``; if ``n_epochs`` are
        used up first, warn (ConvergenceWarning). ``None``: run exactly ``n_epochs`` epochs,
        no test, ``converged=False``, no warning.
    fit_intercept : bool
        Learn an unpenalised bias :math:`b` (else :math:`b = 0`).
    shuffle : bool
        Visit the points in a new random order every epoch (else in the given order).
    running_alpha : float
        Smoothing weight of the running estimate of the objective, in (0, 1].
    record_path : bool
        Keep :math:`(w, b)` after every update in ``path`` (memory :math:`O(\text{updates} \times d)`).
    rng : None, int or numpy.random.Generator, optional
        Seed of the generator that shuffles.

    Returns
    -------
    SGDFit

    Examples
    --------
    >>> X = np.array([[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, 1.0]])
    >>> y = np.array([1.0, 1.0, -1.0, -1.0])
    >>> fit = sgd(X, y, loss="hinge", eta=0.1, n_epochs=20)
    >>> fit.n_iter, fit.predict(X).tolist()
    (80, [1.0, 1.0, -1.0, -1.0])
    >>> bool(fit.objective[-1] < fit.objective[0])  # J fell from phi(0) = 1
    True
    """
    phi, dphi = losses.get(loss)
    eta, lam, power_t, batch_size, n_epochs, tol = _check_sgd_options(
        eta, lam, power_t, batch_size, n_epochs, tol, running_alpha)
    X, y = check_X_y(X, y, scale_for=lambda X, top: _check_sgd_scale(X, top, eta, fit_intercept))
    y = check_labels(y, (-1.0, 1.0))
    n, d = X.shape
    rng = check_rng(rng)
    etas = optim.step_sizes(eta, power_t, -(-n // batch_size) * n_epochs)
    run = _SGDRun(w=np.zeros(d), path=[np.zeros(d + 1)] if record_path else None)
    J = [_sgd_objective(phi, X, y, run.w, run.b, lam)]
    converged = False
    with np.errstate(over="ignore", invalid="ignore"):  # a diverging run is reported, not hidden
        for _ in range(n_epochs):
            order = _order(n, shuffle, rng)
            for start in range(0, n, batch_size):
                # gather each batch on its own: a copy of all of X per epoch costs more (memory)
                idx = order[start:start + batch_size]
                _sgd_update(run, X[idx], y[idx], phi, dphi, etas[run.t], lam=lam,
                            fit_intercept=fit_intercept, running_alpha=running_alpha)
            J.append(_sgd_objective(phi, X, y, run.w, run.b, lam))
            if not np.isfinite(J[-1]):
                break
            if tol is not None and abs(J[-2] - J[-1]) <= tol * max(1.0, abs(J[-1])):
                converged = True
                break
    _warn_sgd(J, eta=eta, n_epochs=n_epochs, tol=tol, converged=converged)
    return SGDFit(
        w=run.w, b=float(run.b), objective=np.array(J), running=np.array(run.running, dtype=float),
        eta=etas[:run.t].copy(), n_iter=run.t, n_epochs=len(J) - 1, converged=converged, loss=loss,
        path=np.array(run.path) if record_path else None,
    )
