r"""AdaBoost with exact weighted decision stumps (Chapter 6).

Labels are in :math:`\{-1, +1\}` throughout (convert with :func:`mlnotes.to_pm1`).

Round :math:`t` of AdaBoost ({doc}`/notebooks/06_adaboost`) keeps a distribution :math:`D_t`
over the :math:`n` training examples, asks a weak learner for the classifier :math:`h_t` with
the smallest weighted error

.. math:: \epsilon_t = \sum_{i=1}^n D_t(i)\,[y_i \ne h_t(x_i)],

gives it the vote :math:`\alpha_t = \tfrac12 \log\frac{1 - \epsilon_t}{\epsilon_t}` and re-weights

.. math:: D_{t+1}(i) = \frac{D_t(i)\, e^{-\alpha_t y_i h_t(x_i)}}{Z_t}, \qquad
          Z_t = \sum_{i=1}^n D_t(i)\, e^{-\alpha_t y_i h_t(x_i)}.

The final classifier is the sign of :math:`f(x) = \sum_t \alpha_t h_t(x)`.

The weak learner here is the decision stump :math:`h(x) = s \cdot \sign(x_j - \theta)` found
exactly: the lowest weighted error over every feature :math:`j`, every threshold
:math:`\theta` (one between each pair of consecutive distinct values, and one below all of
them) and both polarities :math:`s`. After each feature has been sorted once, a round costs
:math:`O(nd)`: one cumulative sum of :math:`D_t(i) y_i` along every sorted feature at once.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from mlnotes._validation import (
    OwnsArrays,
    as_float_array,
    check_callable,
    check_int,
    check_labels,
    check_method,
    check_n_features,
    check_returned,
    check_scalar,
    check_X,
    check_X_y,
)

__all__ = [
    "AdaBoostFit", "Stump", "StumpSearch", "adaboost", "best_stump", "check_distribution", "reweight",
    "stump_errors", "vote", "weighted_error",
]

#: Weighted errors below this floor are treated as this floor when computing the vote, so a
#: (nearly) perfect weak learner gets a large but finite alpha (about 11.5) instead of inf.
EPS_FLOOR = 1e-10

#: Relative tolerance of the tie rules. Weighted errors are sums of up to n weights in an order
#: that depends on the row order, and scores are sums of votes whose last bits depend on the
#: machine's exp/log: both carry rounding errors of order n * 1e-16. Two stumps whose errors
#: differ by less than ``TIE_TOL`` (the weights sum to one) are tied, and a score within
#: ``TIE_TOL * sum(alpha)`` of zero is a tied vote; ties then follow fixed rules (see
#: :meth:`StumpSearch.best` and :meth:`AdaBoostFit.predict`), so neither a permutation of the
#: rows nor another CPU or BLAS can change the fit.
TIE_TOL = 1e-12


@dataclass(frozen=True)
class Stump(OwnsArrays):
    r"""A decision stump :math:`h(x) = s` if :math:`x_j > \theta`, :math:`-s` otherwise.

    Attributes
    ----------
    feature : int
        The feature :math:`j` it looks at.
    threshold : float
        :math:`\theta`; ``-inf`` for the constant stump :math:`h \equiv s`.
    polarity : int
        :math:`s \in \{-1, +1\}`, the label predicted above the threshold.
    eps : float
        Its weighted error :math:`\sum_i D(i) [y_i \ne h(x_i)]` under the (normalised)
        distribution it was fitted to.
    """

    feature: int
    threshold: float
    polarity: int
    eps: float

    def __post_init__(self):
        object.__setattr__(self, "feature", check_int(self.feature, "feature", low=0))
        object.__setattr__(self, "threshold", check_scalar(self.threshold, "threshold", allow_inf=True))
        if self.polarity not in (-1, 1) or isinstance(self.polarity, bool):
            raise ValueError(f"polarity must be -1 or +1, got {self.polarity!r}")
        object.__setattr__(self, "polarity", int(self.polarity))
        object.__setattr__(self, "eps", check_scalar(self.eps, "eps", low=0.0, high=1.0))
        super().__post_init__()

    def predict(self, X) -> np.ndarray:
        """Labels in {-1, +1} for the rows of ``X`` (shape (m, d)), as floats.

        A stump reads one feature, and checks that one: AdaBoost calls it every round on the
        training set, which it has checked once.
        """
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or self.feature >= X.shape[1]:
            raise ValueError(
                f"X must be a 2-D array with more than {self.feature} columns (this stump looks at "
                f"feature {self.feature}), got shape {X.shape}"
            )
        x = as_float_array(X[:, self.feature], f"X[:, {self.feature}]")
        return np.where(x > self.threshold, self.polarity, -self.polarity).astype(float)


def check_distribution(D, n: int, name: str = "D") -> np.ndarray:
    r"""Check sample weights and return them normalised to sum to one.

    Weights must be finite and non-negative with a positive sum. Weights that do not sum to one
    are divided by their sum: this is the normalisation :math:`\epsilon = \sum_i D_i [y_i \ne
    h(x_i)] / \sum_i D_i` of the weighted error, so scaling ``D`` changes nothing.

    Examples
    --------
    >>> check_distribution([1.0, 1.0, 2.0], 3).tolist()
    [0.25, 0.25, 0.5]
    """
    D = _check_weights(D, name)
    if D.shape[0] != n:
        raise ValueError(f"{name} must have one weight per sample ({n}), got {D.shape[0]}")
    with np.errstate(over="ignore"):
        total = D.sum()
    if total == np.inf:  # finite weights near 1e308: their sum overflows, D / max(D) does not
        D = D / D.max()
        total = D.sum()
    if not total > 0:
        raise ValueError(f"{name} must have a positive sum, got {total:g}")
    return D / total


def _check_weights(D, name: str = "D") -> np.ndarray:
    """Finite, non-negative sample weights as a 1-D float array (not normalised)."""
    D = as_float_array(D, name, ndim=1)
    if D.size and D.min() < 0:
        raise ValueError(f"{name} must be non-negative, got a minimum of {D.min():g}")
    return D


class StumpSearch:
    """The exact stump search with each feature of ``X`` sorted once, for repeated use.

    ``StumpSearch(X).best(y, D)`` equals ``best_stump(X, y, D)`` but costs O(nd) instead of
    O(nd log n): use it when the weights change and the data do not (boosting). ``X`` must be a
    finite float array of shape (n, d), ``y`` in {-1, +1} and ``D`` normalised; they are not
    checked again here (``best_stump`` and ``adaboost`` check them).
    """

    def __init__(self, X: np.ndarray):
        self.X = X = check_X(X, finite=False)  # NaN and inf: found after the sort
        n, d = X.shape
        # Features along rows (d, n) so that every per-round pass runs over contiguous
        # memory. order[j, k]: k-th smallest x_j
        self.order = np.argsort(X.T, axis=1, kind="stable")
        Xs = np.take_along_axis(X.T, self.order, axis=1)
        as_float_array(Xs[:, [0, -1]], "X")  # NaN or inf: at an end of a sorted row
        # Split k (k = 1..n) sends the k smallest values of feature j to the left
        # (predicted -s) and the rest to the right (predicted s); k = n is the constant
        # stump -s. A split between two equal values is not a threshold: valid = False
        # masks it out of the search.
        self.valid = np.ones((d, n), dtype=bool)
        self.valid[:, :-1] = Xs[:, 1:] > Xs[:, :-1]
        lo, hi = Xs[:, :-1], Xs[:, 1:]
        with np.errstate(over="ignore", invalid="ignore"):
            mid = 0.5 * lo + 0.5 * hi  # no overflow, unlike (lo + hi) / 2
        # theta must separate lo (<= theta) from hi (> theta); the rounded midpoint of
        # two adjacent floats may not, and theta = lo always does.
        ok = (mid >= lo) & (mid < hi)
        # (d, n - 1): split k has thresholds[:, k - 1]
        self.thresholds = np.where(ok, mid, lo)

    def best(self, y: np.ndarray, D: np.ndarray) -> Stump:
        yD = y * D
        # For polarity +1 at split k of feature j, sum_i D_i y_i h(x_i) = (sum of yD to
        # the right) - (sum to the left) = total - 2 * left_k, and the weighted error is
        # (1 - that) / 2; polarity -1 flips the sign. The best stump maximises
        # |total - 2 left|.
        score = yD[self.order]
        np.cumsum(score, axis=1, out=score)  # left_k for k = 1..n
        score *= -2.0
        score += yD.sum()
        corr = score
        # a masked split gets edge -1, below every real one (>= 0), so it never ties
        edge = np.where(self.valid, np.abs(corr), -1.0)
        # The tie rule: every stump within TIE_TOL of the best edge is tied with it (the
        # cumulative sums' rounding depends on the row order), and the first in
        # row-major order wins: the lowest feature index, then the lowest threshold. A
        # tied polarity (an edge of zero, every stump at error 1/2) is +1.
        tied = edge >= edge.max() - TIE_TOL
        j, k1 = np.unravel_index(int(np.argmax(tied)), corr.shape)
        n = corr.shape[1]
        s = -1 if corr[j, k1] < -TIE_TOL else 1
        if k1 == n - 1:  # everything to the left: the constant stump predicting -s
            theta, s = -np.inf, -s
        else:
            theta = float(self.thresholds[j, k1])
        pred = np.where(self.X[:, j] > theta, s, -s)
        # Recomputed directly (no cancellation in the cumsum), and summed exactly:
        # fsum's correctly rounded sum does not depend on the order of the rows.
        eps = math.fsum(D[pred != y])
        return Stump(int(j), theta, s, eps)


def best_stump(X, y, D=None) -> Stump:
    r"""The decision stump of lowest weighted error, found exactly.

    Minimises :math:`\epsilon(h) = \sum_{i} D(i)\,[y_i \ne h(x_i)]` over every stump
    :math:`h(x) = s \cdot \sign(x_j - \theta)`: every feature :math:`j`, a threshold
    :math:`\theta` between each pair of consecutive distinct values of feature :math:`j` (and
    one below all of them, the constant stump), both polarities :math:`s \in \{-1, +1\}`.
    Chapter 6, {eq}`eq-stump-cumsum`.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    D : array_like, shape (n,), optional
        Non-negative weights; normalised to sum to one (default uniform).

    Returns
    -------
    Stump
        Ties between stumps of equal error (within ``TIE_TOL``) go to the lowest feature
        index, then the lowest threshold; an edge of zero gives polarity +1. Its weighted
        error is at most 1/2 (the constant stumps have errors summing to one).

    Examples
    --------
    >>> X = np.array([[1.0], [2.0], [3.0], [4.0]])
    >>> y = np.array([-1.0, -1.0, 1.0, 1.0])
    >>> h = best_stump(X, y)
    >>> h.feature, h.threshold, h.polarity, h.eps
    (0, 2.5, 1, 0.0)
    >>> h.predict(X).tolist()
    [-1.0, -1.0, 1.0, 1.0]
    """
    X, y = check_X_y(X, y)
    y = check_labels(y, (-1.0, 1.0))
    n = X.shape[0]
    D = np.full(n, 1.0 / n) if D is None else check_distribution(D, n)
    return StumpSearch(X).best(y, D)


def stump_errors(X, y, D=None) -> np.ndarray:
    r"""Weighted error of every stump (brute force), for checks and figures.

    Returns an array of shape (d, n + 1, 2): feature, threshold index (``-inf`` then the
    sorted distinct values of the feature, as in the threshold "x > value"), polarity index
    (0 for s = +1, 1 for s = -1). Entries beyond a feature's number of distinct values repeat
    the last one. O(n^2 d): small data only. Labels ``y`` in {-1, +1}; ``D`` as in
    :func:`best_stump`.

    Examples
    --------
    >>> X = np.array([[1.0], [2.0], [3.0]])
    >>> y = np.array([-1.0, 1.0, 1.0])
    >>> stump_errors(X, y)[0, :, 0].round(4).tolist()  # s = +1, thresholds -inf, 1, 2, 3
    [0.3333, 0.0, 0.3333, 0.6667]
    """
    X, y = check_X_y(X, y)
    y = check_labels(y, (-1.0, 1.0))
    n, d = X.shape
    D = np.full(n, 1.0 / n) if D is None else check_distribution(D, n)
    out = np.empty((d, n + 1, 2))
    for j in range(d):
        values = np.unique(X[:, j])
        thetas = np.concatenate([[-np.inf], values, np.full(n - values.size, values[-1])])
        above = X[:, j][None, :] > thetas[:, None]  # (n + 1, n)
        wrong_pos = np.where(above, y < 0, y > 0)  # s = +1 predicts +1 above
        out[j, :, 0] = wrong_pos @ D
        out[j, :, 1] = (~wrong_pos) @ D
    return out


@dataclass(frozen=True)
class AdaBoostFit(OwnsArrays):
    r"""A fitted AdaBoost classifier and its per-round trace.

    Attributes
    ----------
    stumps : tuple
        The weak classifiers :math:`h_1, \dots, h_T` (``Stump`` unless a custom
        ``weak_learner`` was given).
    alpha, eps, Z, gamma : ndarray, shape (T,)
        Votes :math:`\alpha_t`, weighted errors :math:`\epsilon_t`, normalisers :math:`Z_t`
        (the actual sums, not the closed form) and edges :math:`\gamma_t = 1/2 - \epsilon_t`.
    train_error : ndarray, shape (T,)
        Training error of :math:`f_t = \sum_{s \le t} \alpha_s h_s` after each round, counting a
        zero score as an error: :math:`\frac1n \sum_i [y_i f_t(x_i) \le 0]` (the quantity the
        bound controls).
    D : ndarray, shape (n,)
        The distribution :math:`D_{T+1}` after the last round.
    D_history : ndarray, shape (T + 1, n), or None
        :math:`D_1, \dots, D_{T+1}` when fitted with ``keep_D=True``.
    margins : ndarray, shape (n,)
        :math:`y_i f(x_i)` on the training data.
    n_rounds : int
        :math:`T`, the number of rounds run (at most the ``n_rounds`` asked for).
    stop_reason : str
        ``"n_rounds"``, ``"perfect"`` (a weak learner with :math:`\epsilon_t = 0` was added and
        the loop stopped) or ``"no edge"`` (the best weak learner had :math:`\epsilon_t \ge
        1/2`; it was not added).
    """

    stumps: tuple
    alpha: np.ndarray
    eps: np.ndarray
    Z: np.ndarray
    gamma: np.ndarray
    train_error: np.ndarray
    D: np.ndarray
    margins: np.ndarray
    n_rounds: int
    stop_reason: str
    D_history: np.ndarray | None = field(default=None, repr=False)
    n_features: int | None = None

    @property
    def n_iter(self) -> int:
        """Rounds run, :math:`T` (the contract's name for ``n_rounds``)."""
        return self.n_rounds

    @property
    def objective(self) -> np.ndarray:
        r"""The exponential loss :math:`\sum_i D_1(i)\, e^{-y_i f_t(x_i)} = \prod_{s \le t} Z_s` after each round.

        The objective AdaBoost descends (Chapter 6, {eq}`eq-exp-loss-product`), one entry per
        round: the contract's ``objective`` trace.
        """
        out = np.cumprod(self.Z)
        out.flags.writeable = False
        return out

    @property
    def converged(self) -> bool:
        """Always True: AdaBoost has no tolerance; running all ``n_rounds`` rounds is the algorithm."""
        return True

    def weak_predictions(self, X) -> np.ndarray:
        """:math:`h_t(x)` for every round and row: shape (T, m)."""
        X = as_float_array(X, "X", ndim=2) if self.n_features is None else check_n_features(X, self.n_features)
        if not self.stumps:
            return np.zeros((0, X.shape[0]))
        return np.vstack([h.predict(X) for h in self.stumps])

    def staged_decision_function(self, X) -> np.ndarray:
        r""":math:`f_t(x) = \sum_{s \le t} \alpha_s h_s(x)` for t = 1..T: shape (T, m)."""
        return np.cumsum(self.alpha[:, None] * self.weak_predictions(X), axis=0)

    def decision_function(self, X) -> np.ndarray:
        r"""The score :math:`f(x) = \sum_t \alpha_t h_t(x)` (Chapter 6, {eq}`def-adaboost`)."""
        X = as_float_array(X, "X", ndim=2)
        return self.alpha @ self.weak_predictions(X) if self.stumps else np.zeros(X.shape[0])

    def predict(self, X) -> np.ndarray:
        """:math:`H(x) = \\sign f(x)` in {-1, +1}.

        A tied vote, a score within ``TIE_TOL * sum(alpha)`` of zero (zero up to the rounding
        of the sum), gives +1.
        """
        f = self.decision_function(X)
        return np.where(f >= -TIE_TOL * float(np.sum(self.alpha)), 1.0, -1.0)


# -- AdaBoost, step by step ----------------------------------------------------------------------
def weighted_error(D, yh) -> float:
    r"""The weighted error :math:`\epsilon_t = \sum_i D_t(i)\,[y_i \ne h_t(x_i)]` of a weak learner.

    ``yh`` holds :math:`y_i h_t(x_i)` (labels and predictions in {-1, +1}: -1 marks a
    mistake). Summed with ``math.fsum``, correctly rounded, so the error, and every tie it
    decides, does not depend on the order of the rows (Chapter 6, {eq}`def-adaboost`).

    Examples
    --------
    >>> weighted_error(np.array([0.5, 0.25, 0.25]), np.array([1.0, -1.0, 1.0]))
    0.25
    """
    D, yh = _check_weights_and_margins(D, yh)
    return math.fsum(D[yh < 0])


def _check_weights_and_margins(D, yh) -> tuple[np.ndarray, np.ndarray]:
    """Weights D_t(i) >= 0 and y_i h_t(x_i) in {-1, +1}, one per example."""
    D, yh = _check_weights(D), check_labels(yh, (-1.0, 1.0), "yh")
    if yh.shape != D.shape:
        raise ValueError(f"yh must have one entry per weight ({D.shape[0]}), got {yh.shape[0]}")
    return D, yh


def vote(eps: float) -> float:
    r"""The vote :math:`\alpha_t = \frac12 \log\frac{1 - \epsilon_t}{\epsilon_t}` of a weak learner.

    The :math:`\alpha` that minimises the normaliser :math:`Z_t(\alpha)` (Chapter 6,
    {eq}`eq-optimal-alpha`). An error below ``EPS_FLOOR`` (a perfect weak learner) is raised to
    it, so the vote is large (about 11.5) but finite; an error above 1/2 gets a negative vote.
    No labels: ``eps`` is a weighted error in [0, 1).

    Examples
    --------
    >>> round(vote(0.25), 4)  # log(3) / 2
    0.5493
    """
    eps = check_scalar(eps, "eps", low=0.0, high=1.0, high_open=True)
    e = max(eps, EPS_FLOOR)
    return float(0.5 * np.log((1.0 - e) / e))


def reweight(D, alpha: float, yh) -> tuple[np.ndarray, float]:
    r"""The reweighting :math:`D_{t+1}(i) = D_t(i)\, e^{-\alpha_t y_i h_t(x_i)} / Z_t` and the normaliser :math:`Z_t`.

    Returns ``(D_next, Z)`` with :math:`Z_t = \sum_i D_t(i)\, e^{-\alpha_t y_i h_t(x_i)}` the
    actual sum (Chapter 6, {eq}`def-adaboost`; the training error is at most
    :math:`\prod_t Z_t`, {eq}`eq-train-bound`). ``yh`` holds :math:`y_i h_t(x_i)` in {-1, +1}.
    With :math:`\epsilon_t < 1/2`, :math:`Z_t > 0`: the correctly classified examples (mass
    :math:`1 - \epsilon_t > 1/2`) keep weight.

    Examples
    --------
    >>> D, Z = reweight(np.full(4, 0.25), vote(0.25), np.array([1.0, 1.0, 1.0, -1.0]))
    >>> # the mistake now weighs 1/2: h_t has error 1/2 under D_{t+1}
    >>> D.round(4).tolist(), round(Z, 4)
    ([0.1667, 0.1667, 0.1667, 0.5], 0.866)
    """
    D, yh = _check_weights_and_margins(D, yh)
    alpha = check_scalar(alpha, "alpha")
    if not D.max(initial=0.0) > 0:  # D >= 0: a positive total, without summing (overflow)
        raise ValueError("D must have a positive total weight, got all zeros")
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        w = D * np.exp(-alpha * yh)
    Z = _fsum(w)  # correctly rounded: independent of the row order
    if not 0.0 < Z < math.inf:  # NaN too (0 * inf)
        return _reweight_shifted(D, alpha, yh)  # |alpha| beyond about 700
    return w / Z, Z


def _fsum(w: np.ndarray) -> float:
    """``math.fsum``, correctly rounded, and inf where the exact sum overflows (fsum raises)."""
    try:
        return math.fsum(w)
    except OverflowError:
        return math.inf


def _reweight_shifted(D, alpha, yh) -> tuple[np.ndarray, float]:
    """:func:`reweight` where :math:`e^{-\alpha y_i h(x_i)}` over- or underflows.

    :math:`D_{t+1}` is still defined: the exponents are shifted by their largest over the
    examples that carry weight. :math:`Z_t` underflows to 0 harmlessly; its overflow is an
    error."""
    e = -alpha * yh
    top = float(e[D > 0].max())
    w = D * np.exp(np.minimum(e - top, 0.0))
    scale = float(w.max())  # > 0, and w / scale <= 1: the sum below cannot overflow
    w = w / scale
    s = math.fsum(w)
    with np.errstate(over="ignore", under="ignore"):  # in logs: s * scale may overflow
        Z = float(np.exp(math.log(s) + math.log(scale) + top))
    if not math.isfinite(Z):
        raise ValueError(f"Z overflows at alpha = {alpha:g}: a mistake's weight grows by "
                         f"e^|alpha|. A vote this large means a weighted error of about 0; "
                         f"vote() caps it at {vote(0.0):.4g}")
    return w / s, Z


class _BoostingTrace:
    """The per-round record of an AdaBoost run: weak learners, votes, errors, normalisers, and
    the scores :math:`f_t(x_i)` from which the training error after each round is counted."""

    def __init__(self, y, D, keep_D: bool):
        self.y = y
        self.stumps, self.alpha, self.eps, self.Z, self.errors = [], [], [], [], []
        self.history = [D] if keep_D else None
        self.f = np.zeros(y.shape[0])
        self.alpha_sum = 0.0  # scales the tie tolerance of a vote
        self.stop_reason = "n_rounds"

    def add(self, h, alpha, eps, Z, yh, D) -> None:
        self.f = self.f + alpha * yh * self.y  # yh * y = h_t(x_i)
        self.stumps.append(h)
        self.alpha.append(alpha)
        self.alpha_sum += alpha
        self.eps.append(eps)
        self.Z.append(Z)
        # A margin within rounding of zero is a tied vote, counted as an error (see predict).
        self.errors.append(float(np.mean(self.y * self.f <= TIE_TOL * self.alpha_sum)))
        if self.history is not None:
            self.history.append(D)

    def fit(self, D, *, n_features: int) -> AdaBoostFit:
        eps = np.array(self.eps, dtype=float)
        return AdaBoostFit(
            stumps=tuple(self.stumps), alpha=np.array(self.alpha, dtype=float), eps=eps,
            Z=np.array(self.Z, dtype=float), gamma=0.5 - eps,
            train_error=np.array(self.errors, dtype=float), D=D, margins=self.y * self.f,
            n_rounds=len(self.stumps), stop_reason=self.stop_reason,
            D_history=np.vstack(self.history) if self.history is not None else None,
            n_features=n_features,
        )


def _weak_predictions(h, X: np.ndarray) -> np.ndarray:
    """``h.predict(X)`` of a weak learner's result, checked: one label in {-1, +1} per row.

    A :class:`Stump` (checked when made) predicts labels in {-1, +1} by construction.
    """
    if type(h) is Stump:
        return h.predict(X)
    h = check_method(h, "predict", "the result of weak_learner(X, y, D)")
    pred = check_returned(h.predict(X), "weak_learner's h.predict(X)", (X.shape[0],))
    return check_labels(pred, (-1.0, 1.0), "weak_learner's h.predict(X)")


def adaboost(
    X,
    y,
    *,
    n_rounds: int,
    D=None,
    weak_learner: Callable | None = None,
    edge_tol: float = 1e-12,
    keep_D: bool = False,
) -> AdaBoostFit:
    r"""AdaBoost (discrete, two classes) with exact decision stumps.

    For :math:`t = 1, \dots, T`: :math:`h_t` minimises the weighted error :math:`\epsilon_t`
    under :math:`D_t`;

    .. math:: \alpha_t = \frac12 \log\frac{1 - \epsilon_t}{\epsilon_t}, \qquad
              D_{t+1}(i) = \frac{D_t(i) \exp(-\alpha_t y_i h_t(x_i))}{Z_t},

    and :math:`f = \sum_t \alpha_t h_t`. Chapter 6, {eq}`def-adaboost`; :math:`\alpha_t`
    minimises :math:`Z_t` ({eq}`eq-optimal-alpha`), so the training error is at most
    :math:`\prod_t Z_t = \prod_t 2\sqrt{\epsilon_t (1 - \epsilon_t)}` ({eq}`eq-train-bound`).

    The two degenerate rounds are handled explicitly:

    * :math:`\epsilon_t = 0` (a perfect weak learner): :math:`\alpha_t` would be infinite. The
      vote is computed with :math:`\epsilon_t` replaced by ``EPS_FLOOR`` = 1e-10
      (:math:`\alpha_t \approx 11.5`), the learner is added, and boosting stops
      (``stop_reason="perfect"``): :math:`f` already classifies every training example
      correctly, and :math:`D_{t+1} = D_t` would give the same learner again. A positive
      :math:`\epsilon_t` below the floor also gets the capped vote, but boosting goes on; in
      such a round :math:`Z_t` (always the actual sum) exceeds :math:`2\sqrt{\epsilon_t(1 -
      \epsilon_t)}`, and the bound :math:`\text{error} \le \prod_t Z_t` still holds.
    * :math:`\epsilon_t \ge 1/2 - \tau`, :math:`\tau` being ``edge_tol`` (no edge):
      :math:`\alpha_t \le 0` and :math:`Z_t = 1`, so the round can teach nothing; it is not
      added and boosting stops
      (``stop_reason="no edge"``). With stumps this happens only when no stump beats the
      constant ones, e.g. when every feature is constant and :math:`D_t` puts mass 1/2 on each
      class.

    No division by zero, no inf or NaN can reach the trace.

    Parameters
    ----------
    X : array_like, shape (n, d)
    y : array_like, shape (n,)
        Labels in {-1, +1}.
    n_rounds : int
        :math:`T`, the largest number of rounds.
    D : array_like, shape (n,), optional
        :math:`D_1`: non-negative weights, normalised to sum to one (default uniform).
    weak_learner : callable, optional
        ``weak_learner(X, y, D)`` returning an object with ``.predict(X)`` in {-1, +1}
        (default: the exact stump search, with each feature sorted once for all rounds).
    edge_tol : float
        Smallest edge :math:`\gamma_t = 1/2 - \epsilon_t` worth a round.
    keep_D : bool
        Store every :math:`D_t` (memory :math:`T n`), for figures.

    Returns
    -------
    AdaBoostFit

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [2.0, 1.0], [3.0, 0.0], [4.0, 1.0]])
    >>> y = np.array([-1.0, 1.0, -1.0, 1.0])
    >>> fit = adaboost(X, y, n_rounds=5)
    >>> fit.n_rounds, fit.stop_reason, fit.predict(X).tolist()
    (1, 'perfect', [-1.0, 1.0, -1.0, 1.0])
    """
    X, y = check_X_y(X, y)
    y = check_labels(y, (-1.0, 1.0))
    T = check_int(n_rounds, "n_rounds")
    edge_tol = check_scalar(edge_tol, "edge_tol", low=0.0, high=0.5, high_open=True)
    if weak_learner is not None:
        check_callable(weak_learner, "weak_learner")
    n = X.shape[0]
    D = np.full(n, 1.0 / n) if D is None else check_distribution(D, n)
    if weak_learner is None:
        search = StumpSearch(X)  # each feature sorted once for all rounds
        weak_learner = lambda X_, y_, D_: search.best(y_, D_)  # noqa: E731
    trace = _BoostingTrace(y, D, keep_D)
    for _ in range(T):
        h = weak_learner(X, y, D)  # the weak learner call: h_t for D_t
        yh = y * _weak_predictions(h, X)  # y_i h_t(x_i), +1 right, -1 wrong
        eps = weighted_error(D, yh)
        if eps >= 0.5 - edge_tol:  # no edge: alpha_t <= 0, the round teaches nothing
            trace.stop_reason = "no edge"
            break
        alpha = vote(eps)
        D, Z = reweight(D, alpha, yh)
        trace.add(h, alpha, eps, Z, yh, D)
        if eps == 0.0:  # perfect: D_{t+1} = D_t would return h_t again
            trace.stop_reason = "perfect"
            break
    return trace.fit(D, n_features=X.shape[1])
