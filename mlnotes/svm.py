r"""Support vector machines: the dual solved by SMO, the primal by subgradient steps (Chapter 4).

The soft-margin dual ({eq}`eq-soft-dual` in Chapter 4) is

.. math::

    \max_{\alpha} \; D(\alpha) = \sum_i \alpha_i - \tfrac12 \sum_{i,k} \alpha_i \alpha_k y_i y_k K_{ik}
    \quad \text{s.t.} \quad \sum_i \alpha_i y_i = 0, \quad 0 \le \alpha_i \le C,

with labels :math:`y_i \in \{-1, +1\}`. :func:`smo` solves it two coordinates at a time with the
second-order working-set selection of Fan, Chen and Lin (2005), the method of libsvm, and stops
when the largest violation of the KKT conditions drops below ``tol``. :func:`pegasos` and
:func:`subgradient_svm` train the linear primal
:math:`J(w, b) = \sum_i \max(0, 1 - y_i (w^\top x_i + b)) + \lambda \|w\|^2` directly.
:func:`one_vs_rest` and :func:`one_vs_one` build multiclass classifiers from binary ones.
"""

from __future__ import annotations

import warnings
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from mlnotes import kernels
from mlnotes._validation import (
    ConvergenceWarning,
    OwnsArrays,
    as_float_array,
    check_int,
    check_labels,
    check_n_features,
    check_positive,
    check_rng,
    check_scalar,
    check_scale,
    check_X_y,
    read_only,
)

__all__ = [
    "LinearSVMFit",
    "MulticlassFit",
    "SVMFit",
    "CrammerSingerFit",
    "bias_from_gradient",
    "crammer_singer",
    "crammer_singer_dual",
    "crammer_singer_primal",
    "dual_objective",
    "hinge_objective",
    "is_kernel_separable",
    "kkt_violation",
    "multiclass_margins",
    "one_vs_one",
    "one_vs_rest",
    "pegasos",
    "sgd_svm",
    "primal_objective",
    "project_simplex",
    "smo",
    "smo_basic",
    "subgradient_svm",
    "two_variable_step",
]

_TAU = 1e-12  # libsvm's guard for a non-positive curvature a_ij (indefinite or repeated points)
_FULL_GRAM_MAX_N = 12_000  # n^2 doubles up to ~1.2 GB; beyond this rows are computed on demand


# -- kernels ----------------------------------------------------------------------------------


class _Rows:
    """Kernel rows :math:`K_{i\\cdot}` on demand, each computed once.

    SMO touches two rows per iteration and, in practice, mostly the rows of the eventual
    support vectors, so computing rows lazily costs far less than the whole Gram matrix. For
    n up to 12000 the rows are written into one (n, n) buffer that the operating system backs
    with memory only where rows are written; beyond, the last ``cache_rows`` rows used are kept.
    """

    def __init__(self, X, kernel, params, precomputed: bool, cache_rows: int):
        self.X, self.kernel, self.params = X, kernel, params
        n = X.shape[0]
        self.full = X if precomputed else None
        self.buffer = None
        if self.full is None and n <= _FULL_GRAM_MAX_N:
            self.buffer = np.empty((n, n))
            self.have = np.zeros(n, dtype=bool)
        self.cache: OrderedDict[int, np.ndarray] = OrderedDict()
        self.cache_rows = cache_rows
        if self.full is not None:
            self.diag = np.ascontiguousarray(np.diag(self.full))
            return
        # one row formula, the kernels module's: it checks the parameters and the scale of X
        # once and computes the squared norms once (kernels.gram per row would redo both)
        self._compute = kernels.kernel_rows(X, kernel=kernel, **params)
        if kernel == "rbf":
            self.diag = np.ones(n)  # exp(0)
        else:  # k(x_i, x_i) in blocks of 256 points
            self.diag = np.concatenate([
                np.diag(kernels.gram(X[s:s + 256], X[s:s + 256], kernel=kernel, **params))
                for s in range(0, n, 256)
            ])

    def __call__(self, i: int) -> np.ndarray:
        if self.full is not None:
            return self.full[i]
        if self.buffer is not None:
            if not self.have[i]:
                self.buffer[i] = self._compute(i)
                self.have[i] = True
            return self.buffer[i]
        row = self.cache.get(i)
        if row is None:
            row = self._compute(i)
            self.cache[i] = row
            if len(self.cache) > self.cache_rows:
                self.cache.popitem(last=False)
        else:
            self.cache.move_to_end(i)
        return row

    def gram(self) -> np.ndarray:
        """The whole Gram matrix (for the checks that need it)."""
        if self.full is None:
            # allowed here: the solver checks it next, with its own reason to refuse
            self.full = kernels.gram(self.X, kernel=self.kernel, allow_indefinite=True,
                                     **self.params)
            self.buffer = None
        return self.full


# -- the fit ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SVMFit(OwnsArrays):
    r"""A kernel SVM solved in the dual.

    The decision function is :math:`f(x) = \sum_{i \in S} \alpha_i y_i k(x_i, x) + b` over the
    support vectors :math:`S = \{i : \alpha_i > 0\}` (Chapter 4, {eq}`eq-kernel-decision`).

    Attributes
    ----------
    alpha : ndarray of shape (n,)
        Dual variables, :math:`0 \le \alpha_i \le C`.
    b : float
        Bias, from the free support vectors (:math:`0 < \alpha_i < C`) where there are any.
    support : ndarray of int
        Indices of the support vectors, :math:`\alpha_i > 0`.
    dual_objective : ndarray
        :math:`D(\alpha)` after each iteration (index 0 is the start, :math:`\alpha = 0`); it
        never decreases.
    violation : ndarray
        The maximal KKT violation :math:`m(\alpha) - M(\alpha)` after each iteration.
    n_iter : int
    converged : bool
        Whether the violation dropped below ``tol`` before ``max_iter``.
    C : float
    kernel : str or callable
    kernel_params : dict
    X_support : ndarray
        Training points (or, for ``kernel="precomputed"``, nothing) of the support vectors.
    y : ndarray
        Training labels.
    """

    alpha: np.ndarray
    b: float
    support: np.ndarray
    dual_objective: np.ndarray
    violation: np.ndarray
    n_iter: int
    converged: bool
    C: float
    kernel: str | Callable
    kernel_params: dict = field(default_factory=dict)
    X_support: np.ndarray | None = None
    y: np.ndarray | None = None

    @property
    def objective(self) -> np.ndarray:
        """The objective trace every fit carries: here ``dual_objective``, :math:`D(\\alpha)` per iteration."""
        return self.dual_objective

    @property
    def dual(self) -> float:
        """Final dual objective :math:`D(\\alpha)`."""
        return float(self.dual_objective[-1])

    @property
    def coef(self) -> np.ndarray:
        r"""Primal weights :math:`w = \sum_i \alpha_i y_i x_i` (linear kernel only)."""
        if self.kernel != "linear":
            raise ValueError(f"coef exists only for kernel='linear', this fit has kernel={self.kernel!r}")
        return (self.alpha[self.support] * self.y[self.support]) @ self.X_support

    @property
    def dual_coef(self) -> np.ndarray:
        r""":math:`\alpha_i y_i` for the support vectors (scikit-learn's ``dual_coef_``)."""
        return self.alpha[self.support] * self.y[self.support]

    def decision_function(self, X_new) -> np.ndarray:
        """Scores :math:`f(x)` for new points.

        For ``kernel="precomputed"`` pass the Gram matrix between the new points and all the
        training points, shape (m, n).
        """
        if self.kernel == "precomputed":
            Kn = as_float_array(X_new, "X_new", ndim=2)
            if Kn.shape[1] != self.alpha.shape[0]:
                raise ValueError(
                    f"with kernel='precomputed', X_new must be the (m, n) Gram matrix against the "
                    f"{self.alpha.shape[0]} training points, got shape {Kn.shape}"
                )
            return Kn[:, self.support] @ self.dual_coef + self.b
        X_new = check_n_features(X_new, self.X_support.shape[1], "X_new")
        if self.support.size == 0:
            return np.full(X_new.shape[0], self.b)
        Kn = kernels.gram(X_new, self.X_support, kernel=self.kernel, **self.kernel_params)
        return Kn @ self.dual_coef + self.b

    def predict(self, X_new) -> np.ndarray:
        """Labels in {-1, +1}: the sign of the decision function (0 goes to +1)."""
        return np.where(self.decision_function(X_new) >= 0, 1.0, -1.0)


# -- objectives and optimality -------------------------------------------------------------------


def _check_dual(alpha, y, K):
    """``alpha`` (n,), labels ``y`` in {-1, +1} (n,), Gram matrix ``K`` (n, n)."""
    y = check_labels(y, (-1.0, 1.0))
    alpha = as_float_array(alpha, "alpha", ndim=1)
    K = as_float_array(K, "K", ndim=2)
    if alpha.shape != y.shape or K.shape != (y.size, y.size):
        raise ValueError(
            f"alpha, y and K must have shapes (n,), (n,), (n, n); got {alpha.shape}, {y.shape}, {K.shape}"
        )
    return alpha, y, K


def _check_box(alpha: np.ndarray, C) -> float:
    """``C`` > 0 (inf: the hard margin) and a dual point inside the box: 0 <= alpha_i <= C."""
    C = check_positive(C, "C", allow_inf=True)
    if alpha.size and (alpha.min() < 0 or alpha.max() > C):
        raise ValueError(f"alpha must lie in the box [0, C] = [0, {C:g}] of the dual, got values "
                         f"from {alpha.min():g} to {alpha.max():g}")
    return C


def dual_objective(alpha, y, K) -> float:
    r"""Dual objective :math:`D(\alpha) = \sum_i \alpha_i - \tfrac12 v^\top K v`, :math:`v = \alpha \circ y`.

    Chapter 4, {eq}`eq-soft-dual`. Labels ``y`` in {-1, +1}.

    Examples
    --------
    >>> K, y = np.eye(2), np.array([1.0, -1.0])
    >>> dual_objective(np.array([1.0, 1.0]), y, K)  # 2 - (1 + 1) / 2
    1.0
    """
    alpha, y, K = _check_dual(alpha, y, K)
    v = alpha * y
    return float(np.sum(alpha) - 0.5 * v @ (K @ v))


def primal_objective(alpha, b, y, K, C) -> float:
    r"""Primal objective at :math:`w = \sum_i \alpha_i y_i \phi(x_i)` and bias ``b``:

    :math:`P = \tfrac12 \|w\|^2 + C \sum_i \max(0, 1 - y_i f(x_i))`, the soft-margin primal
    {eq}`def-soft-primal` with the slacks at their optimum :math:`\xi_i = \max(0, 1 - y_i f(x_i))`.
    For ``C = inf`` the hinge term must vanish (hard margin) and the primal is :math:`\tfrac12 \|w\|^2`.
    Labels ``y`` in {-1, +1}.

    Examples
    --------
    >>> K, y = np.eye(2), np.array([1.0, -1.0])
    >>> # equals the dual: alpha is optimal
    >>> primal_objective(np.array([1.0, 1.0]), 0.0, y, K, C=1.0)
    1.0
    """
    alpha, y, K = _check_dual(alpha, y, K)
    C = check_positive(C, "C", allow_inf=True)
    b = check_scalar(b, "b")
    v = alpha * y
    Kv = K @ v
    xi = np.maximum(0.0, 1.0 - y * (Kv + b))
    slack = 0.0 if not np.isfinite(C) else C * float(xi.sum())
    return float(0.5 * v @ Kv + slack)


def kkt_violation(alpha, y, K, C) -> float:
    r"""Maximal violating-pair gap :math:`m(\alpha) - M(\alpha)` (0 at an optimum).

    With the gradient :math:`G = Q\alpha - e` of the minimised dual, :math:`Q_{ik} = y_i y_k K_{ik}`,
    :math:`m = \max_{t \in I_{up}} -y_t G_t` and :math:`M = \min_{t \in I_{low}} -y_t G_t`
    (Chapter 4, {eq}`eq-kkt-pair`). Clipped at 0. Labels ``y`` in {-1, +1}.

    Examples
    --------
    >>> K, y = np.eye(2), np.array([1.0, -1.0])
    >>> optimal, off = np.array([1.0, 1.0]), np.array([0.5, 0.5])
    >>> kkt_violation(optimal, y, K, C=1.0), kkt_violation(off, y, K, C=1.0)
    (0.0, 1.0)
    """
    alpha, y, K = _check_dual(alpha, y, K)
    C = _check_box(alpha, C)
    G = y * (K @ (alpha * y)) - 1.0
    v = -y * G
    up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
    low = ((y < 0) & (alpha < C)) | ((y > 0) & (alpha > 0))
    if not up.any() or not low.any():
        return 0.0
    return max(0.0, float(v[up].max() - v[low].min()))


def is_kernel_separable(K, y) -> bool:
    r"""Whether some :math:`(\beta, b)` has :math:`y_i ((K\beta)_i + b) \ge 1` for all i.

    This is separability in the feature space of the kernel: an optimal :math:`w` lies in the
    span of the :math:`\phi(x_k)`, so :math:`w^\top \phi(x_i) = (K\beta)_i`. Decided by a linear
    feasibility program (scipy's HiGHS): it is a pre-check of the input, not the algorithm taught.
    Labels ``y`` in {-1, +1}.

    Examples
    --------
    >>> K = np.array([[4.0, 0.0], [0.0, 0.0]])  # x = 2 and x = 0, linear kernel
    >>> is_kernel_separable(K, np.array([1.0, -1.0]))
    True
    """
    from scipy.optimize import linprog

    K = as_float_array(K, "K", ndim=2)
    y = check_labels(y, (-1.0, 1.0))
    if K.shape != (y.size, y.size):
        raise ValueError(f"K must be the {y.size} x {y.size} Gram matrix of the labelled points, got {K.shape}")

    n = K.shape[0]
    A = -(y[:, None] * np.column_stack([K, np.ones(n)]))
    res = linprog(np.zeros(n + 1), A_ub=A, b_ub=-np.ones(n), bounds=[(None, None)] * (n + 1),
                  method="highs")
    return bool(res.status == 0)


# -- SMO -------------------------------------------------------------------------------------


def two_variable_step(ai, aj, yi, yj, Gi, Gj, Kii, Kjj, Kij, C):
    r"""Exact minimiser of the dual over the pair :math:`(\alpha_i, \alpha_j)`, the rest fixed.

    Moving along the feasible line :math:`y_i \alpha_i + y_j \alpha_j = \text{const}` by
    :math:`\alpha_i \to \alpha_i + y_i s`, :math:`\alpha_j \to \alpha_j - y_j s` changes
    :math:`f(\alpha) = \tfrac12 \alpha^\top Q \alpha - e^\top \alpha` by
    :math:`-b s + \tfrac12 a s^2` with :math:`b = -y_i G_i + y_j G_j` and
    :math:`a = K_{ii} + K_{jj} - 2 K_{ij}`, so the unconstrained step is :math:`s = b/a`, then
    clipped to the box :math:`[0, C]^2` (Chapter 4, {eq}`eq-smo-step`). This is libsvm's update
    written for one C; ``a <= 0`` (an indefinite or repeated pair) is replaced by a tiny
    positive number, as libsvm does. Returns the new :math:`(\alpha_i, \alpha_j)`.

    Examples
    --------
    >>> # alpha = 0, so G = Q alpha - e = -1; K = I, labels +1 and -1
    >>> two_variable_step(0.0, 0.0, 1.0, -1.0, -1.0, -1.0, 1.0, 1.0, 0.0, C=1.0)
    (1.0, 1.0)
    """
    if yi * yi != 1.0 or yj * yj != 1.0:  # not labels in {-1, +1} (NaN too)
        raise ValueError(f"yi and yj must be labels in {{-1, +1}}, got {yi!r}, {yj!r}")
    if not C > 0.0:  # NaN too; a comparison, not check_positive: this runs every SMO step
        raise ValueError(f"C must be a positive number (the box [0, C]; inf: hard margin), got {C!r}")
    Qij = yi * yj * Kij
    if yi != yj:
        quad = Kii + Kjj + 2.0 * Qij
        quad = quad if quad > 0 else _TAU
        delta = (-Gi - Gj) / quad
        diff = ai - aj
        ai, aj = ai + delta, aj + delta
        if diff > 0:
            if aj < 0:
                aj, ai = 0.0, diff
        elif ai < 0:
            ai, aj = 0.0, -diff
        if diff > 0:  # one C for all, so libsvm's "diff > C_i - C_j" is "diff > 0"
            if ai > C:
                ai, aj = C, C - diff
        elif aj > C:
            aj, ai = C, C + diff
    else:
        quad = Kii + Kjj - 2.0 * Qij
        quad = quad if quad > 0 else _TAU
        delta = (Gi - Gj) / quad
        s = ai + aj
        ai, aj = ai - delta, aj + delta
        if s > C:
            if ai > C:
                ai, aj = C, s - C
            if aj > C:
                aj, ai = C, s - C
        else:
            if aj < 0:
                aj, ai = 0.0, s
            if ai < 0:
                ai, aj = 0.0, s
    return ai, aj


def smo(
    X,
    y,
    *,
    C: float = 1.0,
    kernel: str | Callable = "linear",
    tol: float = 1e-3,
    max_iter: int = 100_000,
    shrinking: bool = True,
    cache_rows: int = 2000,
    callback: Callable[[int, np.ndarray], None] | None = None,
    **kernel_params,
) -> SVMFit:
    r"""Sequential minimal optimisation for the SVM dual, with libsvm's working-set selection.

    Solves :math:`\min_\alpha f(\alpha) = \tfrac12 \alpha^\top Q \alpha - e^\top \alpha` with
    :math:`Q_{ik} = y_i y_k K_{ik}`, subject to :math:`y^\top \alpha = 0`, :math:`0 \le \alpha \le C`
    (the negated dual, Chapter 4, {eq}`eq-soft-dual`). Each iteration picks

    .. math::

        i \in \argmax_{t \in I_{up}(\alpha)} -y_t G_t, \qquad
        j \in \argmin_{t \in I_{low}(\alpha),\, -y_t G_t < -y_i G_i} -\frac{b_{it}^2}{a_{it}},

    with :math:`G = Q\alpha - e`, :math:`b_{it} = -y_i G_i + y_t G_t > 0` and
    :math:`a_{it} = K_{ii} + K_{tt} - 2K_{it}` (the second-order rule WSS2 of Fan, Chen and Lin,
    2005), minimises :math:`f` exactly over :math:`(\alpha_i, \alpha_j)` inside the box, and
    updates :math:`G` with two kernel rows. It stops when the maximal violation
    :math:`m(\alpha) - M(\alpha) < \mathrm{tol}` ({eq}`eq-kkt-pair`). Every step decreases
    :math:`f`, so the dual objective :math:`D = -f` is monotone.

    Parameters
    ----------
    X : array_like of shape (n, d), or (n, n) for ``kernel="precomputed"``
    y : array_like of shape (n,)
        Labels in {-1, +1}, both present.
    C : float, default 1.0
        Box constraint, > 0; ``np.inf`` for the hard margin (the data must then be separable in
        the kernel's feature space, else ValueError).
    kernel : str or callable
        A name from ``mlnotes.kernels.KERNELS`` ("linear", "poly", "rbf", "sigmoid",
        "intersection", "additive_chi2", "chi2"), a callable ``k(X, Y, **kernel_params)`` returning the
        Gram matrix, or ``"precomputed"`` when ``X`` is the Gram matrix itself.
    tol : float, default 1e-3
        Stopping tolerance on the maximal KKT violation (libsvm's ``eps``).
    max_iter : int, default 100000
        Iteration limit; reaching it warns with :class:`mlnotes.ConvergenceWarning`.
    shrinking : bool, default True
        Drop variables stuck at a bound from the active set for a while (libsvm's shrinking);
        the answer is the same, the iterations cheaper. The ``violation`` trace is then the
        violation on the active set.
    cache_rows : int, default 2000
        For n above 12000, the number of kernel rows kept (least recently used evicted).
    callback : callable, optional
        ``callback(t, alpha)`` after every iteration (alpha is the live array: copy it).
    **kernel_params
        Passed to the kernel (``gamma``, ``degree``, ``coef0``).

    Returns
    -------
    SVMFit

    Examples
    --------
    >>> X, y = np.array([[2.0], [0.0], [3.0], [-1.0]]), np.array([1.0, -1.0, 1.0, -1.0])
    >>> fit = smo(X, y, C=10.0, tol=1e-8)
    >>> # w = 1, b = -1
    >>> fit.converged, fit.support.tolist(), round(fit.b, 6), fit.coef.round(6).tolist()
    (True, [0, 1], -1.0, [1.0])
    """
    X, y, precomputed = _check_smo_data(X, y, kernel)
    C = check_positive(C, "C", allow_inf=True)  # inf: the hard margin
    tol = check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter")
    cache_rows = check_int(cache_rows, "cache_rows", low=0)
    # kernel rows computed when first asked for; a convex problem, for C = inf feasible
    rows = _Rows(X, kernel, kernel_params, precomputed, int(cache_rows))
    _check_smo_problem(rows, y, C, kernel, kernel_params)

    state = _SMOState(y, C, rows)
    trace, viol = [0.0], []
    converged, t = False, 0
    while True:
        i, m, M = state.maximal_violating_pair()
        gap = float(m - M)
        if shrinking and state.unshrink_due(gap, tol):  # libsvm's unshrinking
            state.unshrink()
            continue
        viol.append(gap)
        if gap < tol:  # the stopping rule: no pair violates the KKT conditions by tol
            converged = True
            break
        if t >= max_iter:
            if not state.full:  # stopped while shrunk: finish on the whole problem
                state.unshrink()
                viol[-1] = state.violation()
            break
        if shrinking and state.shrink_due() and state.shrink(m, M):
            continue
        Ki = state.row(i)
        j = state.second_order_j(i, m, Ki)
        state.pair_step(i, j, Ki)
        t += 1
        trace.append(-state.f)
        if callback is not None:
            callback(t, state.alpha)

    if not converged:
        warnings.warn(
            f"smo stopped at max_iter={max_iter} with maximal KKT violation "
            f"{viol[-1]:.3g} > tol={tol:g}; raise max_iter or tol",
            ConvergenceWarning, stacklevel=2,
        )
    alpha = state.alpha
    b = bias_from_gradient(alpha, y, state.gradient(), C)
    support = np.flatnonzero(alpha > 0)
    return SVMFit(
        alpha=alpha, b=b, support=support, dual_objective=np.asarray(trace),
        violation=np.asarray(viol), n_iter=t, converged=converged, C=C, kernel=kernel,
        kernel_params=dict(kernel_params),
        X_support=None if precomputed else X[support].copy(), y=y,
    )


_GRAM = "X (the precomputed Gram matrix)"


def _check_gram_and_labels(K, y) -> tuple[np.ndarray, np.ndarray]:
    """A precomputed Gram matrix ``X`` (square) and one label per row of it, as float arrays."""
    K = as_float_array(K, _GRAM, ndim=2)
    if K.shape[0] != K.shape[1]:
        raise ValueError(f"{_GRAM} must be a square Gram matrix, got shape {K.shape}")
    y = as_float_array(y, "y", ndim=1)
    if y.shape[0] != K.shape[0]:
        raise ValueError(f"X is a {K.shape[0]} x {K.shape[0]} Gram matrix but y has {y.shape[0]} entries")
    return K, y


def _check_smo_data(X, y, kernel):
    """The data of :func:`smo`: X (or the Gram matrix) and labels in {-1, +1}, both present,
    and whether X is the Gram matrix."""
    precomputed = isinstance(kernel, str) and kernel == "precomputed"
    if precomputed:
        X, y = _check_gram_and_labels(X, y)
        kernels.check_psd(X, name=_GRAM, rtol=1e-8, on_indefinite="raise")
    else:  # NaN and inf: in the one pass of kernels.kernel_rows, which _Rows calls next
        X, y = check_X_y(X, y, finite=False)
        if isinstance(kernel, str) and kernel not in kernels.KERNELS:
            raise ValueError(
                f"kernel must be one of {sorted(kernels.KERNELS)}, 'precomputed' or a callable, "
                f"got {kernel!r}"
            )
    return X, check_labels(y, (-1.0, 1.0), all_present=True), precomputed


def _check_smo_problem(rows, y, C, kernel, kernel_params) -> None:
    """A convex dual (a PSD Gram matrix) and, for the hard margin, a feasible one."""
    # A user's kernel, and the named ones that are not positive semidefinite in general
    # (sigmoid; additive chi-squared; poly with coef0 < 0): check the Gram matrix.
    if kernel != "precomputed" and kernels.may_be_indefinite(kernel, **kernel_params):
        what = "the callable kernel" if callable(kernel) else f"kernel={kernel!r}"
        kernels.check_psd(rows.gram(), name=f"the Gram matrix of {what}", rtol=1e-8, on_indefinite="raise")
    if np.isinf(C) and not is_kernel_separable(rows.gram(), y):
        raise ValueError(
            "C=inf asks for the hard margin, but the data are not separable in the feature "
            "space of this kernel (no w, b with y_i f(x_i) >= 1 for all i); use a finite C"
        )


class _SMOState:
    r"""What SMO keeps between iterations: :math:`\alpha`, the values :math:`v = -y \odot G`
    (:math:`G = Q\alpha - e`) and the active set, with :math:`f(\alpha) = -D(\alpha)`.

    :math:`I_{up}` holds the t whose :math:`y_t \alpha_t` may increase, :math:`I_{low}` those
    whose :math:`y_t \alpha_t` may decrease (at :math:`\alpha = 0`: the y = +1 and the y = -1
    points); every t is in at least one. The state keeps ``vu`` = v on :math:`I_{up}`, -inf
    elsewhere, and ``vl`` = v on :math:`I_{low}`, +inf elsewhere: both move by the same O(n)
    step (inf - finite = inf), and :math:`m(\alpha)` = max vu, :math:`M(\alpha)` = min vl
    ({eq}`eq-kkt-pair`). Indices i, j are positions in the active set ``A``; ``A[i]`` is the
    variable.

    Shrinking (as in libsvm): every min(n, 1000) iterations, a variable at a bound whose v puts
    it on the wrong side of [M, m] cannot be in a violating pair soon; it leaves the active set
    and its v is no longer updated, until :meth:`unshrink` rebuilds v for everyone from the
    support vectors' kernel rows.
    """

    def __init__(self, y, C, rows):
        self.y, self.C, self.rows, self.n = y, C, rows, y.size
        self.alpha = np.zeros(self.n)
        self.f = 0.0  # f(alpha) = -D(alpha), updated in O(1) per step
        self.period = min(self.n, 1000)
        self.unshrunk = False  # whether the gap has been below 10 tol (unshrink_due)
        self._activate(np.arange(self.n), y.copy())  # v = y at alpha = 0

    def _activate(self, A, v) -> None:
        """Make A the active set, with values v on it."""
        self.A, self.full = A, A.size == self.n
        self.yA, self.QD = self.y[A], self.rows.diag[A]
        aA = self.alpha[A]
        self.up = np.where(self.yA > 0, aA < self.C, aA > 0)
        self.low = np.where(self.yA > 0, aA > 0, aA < self.C)
        self.vu, self.vl = np.where(self.up, v, -np.inf), np.where(self.low, v, np.inf)
        self.work, self.a_it = np.empty(A.size), np.empty(A.size)
        self.counter = self.period

    def maximal_violating_pair(self):
        """i = argmax of v over I_up, with m(alpha) = v_i and M(alpha) = min of v over I_low."""
        i = int(np.argmax(self.vu))
        return i, self.vu[i], float(self.vl.min())

    def violation(self) -> float:
        """m(alpha) - M(alpha), the maximal KKT violation on the active set."""
        return float(self.vu.max() - self.vl.min())

    def gradient(self) -> np.ndarray:
        """G = Q alpha - e (on the whole problem: call after unshrink)."""
        return -self.y * np.where(self.up, self.vu, self.vl)

    def unshrink(self) -> None:
        """All variables active again, v rebuilt from the support vectors' kernel rows."""
        Kv = np.zeros(self.n)
        for s in np.flatnonzero(self.alpha > 0):
            Kv += (self.alpha[s] * self.y[s]) * self.rows(s)
        self._activate(np.arange(self.n), self.y - Kv)

    def unshrink_due(self, gap, tol) -> bool:
        """libsvm's unshrinking, with the gap m - M on the active set: all variables come back
        once the active problem has converged, or when the gap first falls below 10 tol (the
        stopping rule is tested on them all)."""
        due = not self.full and (gap < tol or (gap < 10 * tol and not self.unshrunk))
        self.unshrunk = self.unshrunk or gap < 10 * tol
        return due

    def shrink_due(self) -> bool:
        """Every ``period`` iterations, time to look for variables to shrink."""
        self.counter -= 1
        if self.counter:
            return False
        self.counter = self.period
        return True

    def shrink(self, m, M) -> bool:
        """Drop the variables at a bound on the wrong side of [M, m]; whether any was dropped."""
        keep = (self.up & self.low) | (self.up & (self.vu >= M)) | (self.low & (self.vl <= m))
        if keep.all():
            return False
        self.A, self.full = self.A[keep], False
        self.yA, self.QD = self.y[self.A], self.rows.diag[self.A]
        self.up, self.low, self.vu, self.vl = self.up[keep], self.low[keep], self.vu[keep], self.vl[keep]
        self.work, self.a_it = np.empty(self.A.size), np.empty(self.A.size)
        return True

    def row(self, i) -> np.ndarray:
        """The kernel row of active position i, restricted to the active set."""
        return self.rows(self.A[i]) if self.full else self.rows(self.A[i])[self.A]

    def second_order_j(self, i, m, Ki) -> int:
        """j maximising b_it^2 / a_it over t in I_low with b_it = m - v_t > 0 (WSS2); Ki = row(i)."""
        work, a_it = self.work, self.a_it
        np.subtract(m, self.vl, out=work)  # b_it, -inf outside I_low
        np.maximum(work, 0.0, out=work)  # b_it <= 0 cannot be chosen
        np.square(work, out=work)
        np.multiply(Ki, -2.0, out=a_it)  # a_it = K_ii + K_tt - 2 K_it
        a_it += self.QD
        a_it += self.QD[i]
        np.maximum(a_it, _TAU, out=a_it)
        work /= a_it
        return int(np.argmax(work))

    def pair_step(self, i, j, Ki) -> None:
        """Minimise f over (alpha_i, alpha_j) ({eq}`eq-smo-step`) and update f, v, I_up, I_low."""
        Kj = self.row(j)
        yi, yj, QDi, QDj = self.yA[i], self.yA[j], self.QD[i], self.QD[j]
        vi = self.vu[i] if self.up[i] else self.vl[i]
        vj = self.vu[j] if self.up[j] else self.vl[j]
        Gi, Gj = -yi * vi, -yj * vj
        gi, gj = self.A[i], self.A[j]
        ai, aj = two_variable_step(self.alpha[gi], self.alpha[gj], yi, yj, Gi, Gj, QDi, QDj, Ki[j], self.C)
        di, dj = ai - self.alpha[gi], aj - self.alpha[gj]
        # f changes by G_i d_i + G_j d_j + (Q_ii d_i^2 + 2 Q_ij d_i d_j + Q_jj d_j^2) / 2
        self.f += Gi * di + Gj * dj + 0.5 * (QDi * di * di + QDj * dj * dj) + (yi * yj * Ki[j]) * di * dj
        self.alpha[gi], self.alpha[gj] = ai, aj
        # G_t += Q_ti d_i + Q_tj d_j, so v_t = -y_t G_t drops by y_i d_i K_ti + y_j d_j K_tj
        work = self.work
        np.multiply(Ki, yi * di, out=work)
        work += (yj * dj) * Kj
        self.vu -= work
        self.vl -= work
        for k, ak, vk, yk in ((i, ai, vi - work[i], yi), (j, aj, vj - work[j], yj)):
            self.up[k] = ak < self.C if yk > 0 else ak > 0
            self.low[k] = ak > 0 if yk > 0 else ak < self.C
            self.vu[k] = vk if self.up[k] else -np.inf
            self.vl[k] = vk if self.low[k] else np.inf


def bias_from_gradient(alpha, y, G, C) -> float:
    r"""Bias from the KKT conditions, given the dual gradient :math:`G = Q\alpha - e`; labels ``y`` in {-1, +1}.

    :math:`b = -\overline{y_i G_i}`, the mean over the free support vectors.

    For a free support vector :math:`y_i f(x_i) = 1` gives :math:`b = y_i - \sum_k \alpha_k y_k K_{ik}
    = -y_i G_i`; averaged over all of them against rounding. With no free SV, b lies anywhere in
    an interval fixed by the bounded ones; take its midpoint (as libsvm does).

    Examples
    --------
    >>> # x = 2 (label +1) and x = 0 (label -1), linear kernel:
    >>> # w = 1, b = -1, alpha = (1/2, 1/2)
    >>> alpha, y = np.array([0.5, 0.5]), np.array([1.0, -1.0])
    >>> K = np.array([[4.0, 0.0], [0.0, 0.0]])
    >>> G = (np.outer(y, y) * K) @ alpha - 1.0
    >>> bias_from_gradient(alpha, y, G, C=10.0)
    -1.0
    """
    y = check_labels(y, (-1.0, 1.0))
    alpha, G = as_float_array(alpha, "alpha", ndim=1), as_float_array(G, "G", ndim=1)
    if alpha.shape != y.shape or G.shape != y.shape:
        raise ValueError(f"alpha, y and G must have one entry per point; got {alpha.shape}, {y.shape}, {G.shape}")
    C = _check_box(alpha, C)
    yG = y * G
    free = (alpha > 0) & (alpha < C)
    if free.any():
        return float(-yG[free].mean())
    at_up = alpha >= C
    at_low = alpha <= 0
    # r = -b must satisfy: lb <= r <= ub
    ub_mask = (at_up & (y < 0)) | (at_low & (y > 0))
    lb_mask = (at_up & (y > 0)) | (at_low & (y < 0))
    ub = yG[ub_mask].min() if ub_mask.any() else np.inf
    lb = yG[lb_mask].max() if lb_mask.any() else -np.inf
    r = (ub + lb) / 2 if np.isfinite(ub) and np.isfinite(lb) else (ub if np.isfinite(ub) else lb)
    return float(-r)


# -- the primal: subgradient and stochastic training (linear kernel) -------------------------------


def smo_basic(X, y, *, C: float = 1.0, kernel: str = "linear", tol: float = 1e-3,
              max_iter: int = 100_000, **kernel_params) -> SVMFit:
    r"""SMO as Chapter 4 derives it, for reading: the whole Gram matrix, no shrinking, no cache.

    The iterations of :func:`smo` without its speed-ups: the gradient :math:`G = Q\alpha - e` of
    :math:`f(\alpha) = \tfrac12 \alpha^\top Q \alpha - e^\top \alpha` ({eq}`eq-soft-dual`,
    negated) is kept for every point, the pair :math:`(i, j)` is chosen by the second-order rule,
    :func:`two_variable_step` minimises :math:`f` over it ({eq}`eq-smo-step`), and the loop stops
    when the maximal violating pair violates by less than ``tol`` ({eq}`eq-kkt-pair`). It takes
    O(n^2) memory; use :func:`smo` for real problems (the tests hold it to this function).
    Parameters and result as for :func:`smo`.

    Examples
    --------
    >>> X, y = np.array([[2.0], [0.0], [3.0], [-1.0]]), np.array([1.0, -1.0, 1.0, -1.0])
    >>> fit = smo_basic(X, y, C=10.0, tol=1e-8)
    >>> fit.support.tolist(), np.allclose(fit.alpha, smo(X, y, C=10.0, tol=1e-8).alpha)
    ([0, 1], True)
    """
    X, y = check_X_y(X, y)
    y = check_labels(y, (-1.0, 1.0), all_present=True)
    if kernel not in kernels.KERNELS:
        raise ValueError(f"kernel must be one of {sorted(kernels.KERNELS)}, got {kernel!r}")
    C, tol = check_positive(C, "C"), check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter")
    K = kernels.gram(X, kernel=kernel, **kernel_params)
    # the dual is then not convex
    if kernels.may_be_indefinite(kernel, **kernel_params):
        kernels.check_psd(K, name=f"the Gram matrix of the {kernel} kernel",
                          on_indefinite="raise")
    n = y.size
    alpha = np.zeros(n)
    G = -np.ones(n)  # G = Q alpha - e at alpha = 0
    D, viol = [0.0], []
    for t in range(max_iter + 1):
        v = -y * G  # the KKT conditions compare the values -y_t G_t
        up = np.where(y > 0, alpha < C, alpha > 0)  # y_t alpha_t can still increase
        low = np.where(y > 0, alpha > 0, alpha < C)  # y_t alpha_t can still decrease
        i = int(np.argmax(np.where(up, v, -np.inf)))  # m(alpha) = v_i
        m, M = v[i], v[low].min()
        viol.append(float(m - M))
        if m - M < tol:  # no pair violates the KKT conditions by tol or more
            break
        if t == max_iter:
            warnings.warn(f"smo_basic stopped at max_iter={max_iter} with maximal KKT "
                          f"violation {m - M:.3g} > tol={tol:g}", ConvergenceWarning,
                          stacklevel=2)
            break
        # j: the largest decrease of f over the pair, b_it^2 / a_it, among t in I_low,
        # b_it > 0
        b_it = np.maximum(np.where(low, m - v, -np.inf), 0.0)
        a_it = np.maximum(K[i, i] + np.diag(K) - 2.0 * K[i], _TAU)
        j = int(np.argmax(b_it**2 / a_it))
        ai, aj = two_variable_step(alpha[i], alpha[j], y[i], y[j], G[i], G[j],
                                   K[i, i], K[j, j], K[i, j], C)
        di, dj = ai - alpha[i], aj - alpha[j]
        alpha[i], alpha[j] = ai, aj
        G += y * (y[i] * di * K[i] + y[j] * dj * K[j])  # Q_ti d_i + Q_tj d_j
        # f = alpha^T (Q alpha - 2e) / 2 = alpha^T (G - e) / 2
        D.append(-0.5 * float(alpha @ (G - 1.0)))
    support = np.flatnonzero(alpha > 0)
    return SVMFit(alpha=alpha, b=bias_from_gradient(alpha, y, G, C), support=support,
                  dual_objective=np.asarray(D), violation=np.asarray(viol),
                  n_iter=len(D) - 1, converged=viol[-1] < tol, C=C, kernel=kernel,
                  kernel_params=dict(kernel_params), X_support=X[support].copy(), y=y)


@dataclass(frozen=True)
class LinearSVMFit(OwnsArrays):
    r"""A linear SVM trained in the primal.

    Attributes
    ----------
    w : ndarray of shape (d,)
    b : float
    objective : ndarray
        Primal objective :math:`P(w, b)` ({eq}`eq-hinge-form` scaled by C) at the iterates
        recorded (every iteration for :func:`subgradient_svm`, every epoch for :func:`pegasos`).
    n_iter : int
        Number of (sub)gradient steps taken. Both methods run a fixed budget: a subgradient
        gives no stopping certificate.
    C : float
    converged : None
        Always None: with no stopping test, the fit claims neither convergence nor its
        failure, and no ConvergenceWarning is issued (CONTRIBUTING.md's contract).
    """

    w: np.ndarray
    b: float
    objective: np.ndarray
    n_iter: int
    C: float
    converged: None = None

    def decision_function(self, X_new) -> np.ndarray:
        r""":math:`f(x) = w^\top x + b`."""
        return check_n_features(X_new, self.w.shape[0], "X_new") @ self.w + self.b

    def predict(self, X_new) -> np.ndarray:
        """Labels in {-1, +1} (0 goes to +1)."""
        return np.where(self.decision_function(X_new) >= 0, 1.0, -1.0)


def hinge_objective(w, b, X, y, C, *, regularise_bias: bool = False) -> float:
    r"""Soft-margin primal :math:`P(w, b) = \tfrac12 \|w\|^2 + C \sum_i \max(0, 1 - y_i (w^\top x_i + b))`.

    Dividing by C gives the hinge form :math:`\sum_i \max(0, 1 - y_i f(x_i)) + \lambda \|w\|^2` with
    :math:`\lambda = 1/(2C)` (Chapter 4, {eq}`eq-hinge-form`). With ``regularise_bias=True`` the
    penalty is :math:`\tfrac12 (\|w\|^2 + b^2)`, liblinear's objective (the bias is the weight of a
    constant feature). Labels ``y`` in {-1, +1}.

    Examples
    --------
    >>> X, y = np.array([[2.0], [0.0]]), np.array([1.0, -1.0])
    >>> # margins exactly 1: only ||w||^2 / 2
    >>> hinge_objective(np.array([1.0]), -1.0, X, y, C=1.0)
    0.5
    """
    from mlnotes.losses import hinge

    X, y, C = _check_linear(X, y, C)
    w = as_float_array(w, "w", ndim=1)
    check_n_features(X, w.shape[0])
    b = check_scalar(b, "b")

    reg = w @ w + (b * b if regularise_bias else 0.0)
    return float(0.5 * reg + C * hinge(y * (X @ w + b)).sum())


def _check_linear(X, y, C):
    X, y = check_X_y(X, y, scale_for="a linear SVM in the primal")
    y = check_labels(y, (-1.0, 1.0))
    C = check_positive(C, "C")  # finite: the hinge form needs lambda = 1/(nC) > 0
    return X, y, C


def subgradient_svm(
    X, y, *, C: float = 1.0, max_iter: int = 1000, eta0: float | None = None
) -> LinearSVMFit:
    r"""The subgradient method on the soft-margin primal (Chapter 4, {eq}`eq-hinge-subgradient`).

    Steps :math:`(w, b) \leftarrow (w, b) - \eta_t g_t` with the subgradient

    .. math:: g_t = \Big(w - C \sum_{i \in V} y_i x_i,\; -C \sum_{i \in V} y_i\Big), \qquad
              V = \{i : y_i (w^\top x_i + b) < 1\},

    and :math:`\eta_t = \eta_0 / \sqrt{t}`. A subgradient step need not decrease :math:`P`, so the
    best iterate is returned. Vectorised over the samples: one matrix-vector product per step.
    Labels ``y`` in {-1, +1}.

    Examples
    --------
    >>> X, y = np.array([[2.0], [0.0], [3.0], [-1.0]]), np.array([1.0, -1.0, 1.0, -1.0])
    >>> fit = subgradient_svm(X, y, C=10.0, max_iter=2000)
    >>> # P* = ||w*||^2 / 2 = 1/2
    >>> fit.converged is None, fit.n_iter, bool(fit.objective.min() < 1.01 * 0.5)
    (True, 2000, True)
    """
    X, y, C = _check_linear(X, y, C)
    n, d = X.shape
    max_iter = check_int(max_iter, "max_iter")
    if eta0 is None:  # scale so the first step is of the size of the data term
        with np.errstate(over="ignore"):  # an overflow is caught just below, with its cause
            eta0 = 1.0 / (C * n * max(1.0, float(np.mean((X * X).sum(1)))))
        if not 0 < eta0 < np.inf:  # |x|^2 overflowed: the default step would be 0
            raise ValueError(
                f"the scale of X (max |x_ij| = {np.abs(X).max():.3g}) and C = {C:.3g} leave no "
                "representable default step eta0 = 1 / (C n max(1, mean |x_i|^2)): standardise the "
                "columns of X, change C or pass eta0"
            )
    eta0 = check_positive(eta0, "eta0")
    w, b = np.zeros(d), 0.0
    best = (np.inf, w, b)
    trace = []
    for t in range(1, max_iter + 1):
        with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported just below
            m = y * (X @ w + b)
            P = 0.5 * w @ w + C * np.maximum(0.0, 1.0 - m).sum()
        if not np.isfinite(P):  # never a silent w = 0 (the best iterate being the start)
            raise ValueError(
                f"subgradient_svm diverged: with eta0={eta0!r} the iterates overflow after {t - 1} "
                "steps; take a smaller eta0 (the default eta0=None scales the step to the data)"
            )
        trace.append(P)
        if P < best[0]:
            best = (P, w.copy(), b)
        V = m < 1
        gw = w - C * (y[V] @ X[V])
        gb = -C * y[V].sum()
        eta = eta0 / np.sqrt(t)
        w = w - eta * gw
        b = b - eta * gb
    return LinearSVMFit(best[1], float(best[2]), np.asarray(trace), max_iter, C)


class _IterateAverage:
    r"""The point a stochastic method returns: the last iterate (``scheme=None``), the mean of
    the iterates of the second half of its ``T`` steps (``"suffix"``), or the mean of every
    iterate :math:`w_t` with weight :math:`t` (``"weighted"``, :math:`\bar w_T =
    \frac{2}{T(T+1)} \sum_t t\, w_t`). Shared by :func:`pegasos` and :func:`sgd_svm`."""

    def __init__(self, T: int, scheme: str | None):
        self.T, self.scheme, self.sum, self.weight = T, scheme, None, 0

    def add(self, t: int, v) -> None:
        """Take the iterate of step t (1-based) into the mean, if the scheme counts it."""
        if self.scheme == "weighted":
            c = t
        elif self.scheme == "suffix" and 2 * t > self.T:
            c = 1
        else:
            return
        self.sum = c * v if self.sum is None else self.sum + c * v  # a copy, then sums
        self.weight += c

    def of(self, last):
        """The mean so far, or ``last`` while the scheme has counted nothing."""
        return self.sum / self.weight if self.weight else last


def pegasos(
    X,
    y,
    *,
    C: float = 1.0,
    n_epochs: int = 10,
    batch_size: int = 1,
    fit_intercept: bool = True,
    average: bool = True,
    schedule: str = "suffix",
    rng=0,
) -> LinearSVMFit:
    r"""Pegasos: stochastic subgradient steps on the primal (Shalev-Shwartz et al., 2011); labels in {-1, +1}.

    Minimises :math:`\tfrac{\lambda}{2}\|w\|^2 + \tfrac1n \sum_i \max(0, 1 - y_i w^\top x_i)` with
    :math:`\lambda = 1/(nC)`, which is :math:`P(w)/(nC)`: the same minimiser as the soft-margin
    primal. Step :math:`t` draws a batch :math:`A_t` and, with :math:`\eta_t = 1/(\lambda t)`,

    .. math:: w \leftarrow (1 - \eta_t \lambda) w + \frac{\eta_t}{|A_t|} \sum_{i \in A_t,\,
              y_i w^\top x_i < 1} y_i x_i, \qquad
              w \leftarrow \min\Big(1, \frac{1/\sqrt{\lambda}}{\|w\|}\Big) w

    (Chapter 4, {eq}`eq-pegasos-step`); the projection keeps :math:`w` in a ball that contains
    the optimum. With ``average=True`` the returned weights are the mean of the iterates of the
    second half of the run (suffix averaging), which removes most of the noise of the last
    iterate. Each epoch visits the samples once in a random order.

    ``schedule="weighted"`` takes the steps :math:`\eta_t = 2/(\lambda (t + 1))` instead and
    averages every iterate with weight :math:`t`, :math:`\bar w_T = \frac{2}{T(T+1)} \sum_{t \le
    T} t\, w_t`: the scheme of Chapter 4's guarantee
    :math:`\mathbb{E} f(\bar w_T) - f^* \le 2G^2 / (\lambda (T + 1))` ({eq}`eq-pegasos-rate`).

    With ``fit_intercept=True`` a constant feature 1 is appended, so the bias is regularised
    like the weights (as in liblinear, scikit-learn's ``LinearSVC``): the objective is then
    :math:`\tfrac12 (\|w\|^2 + b^2) + C \sum_i \max(0, 1 - y_i f(x_i))`.

    Examples
    --------
    >>> X, y = np.array([[2.0], [0.0], [3.0], [-1.0]]), np.array([1.0, -1.0, 1.0, -1.0])
    >>> fit = pegasos(X, y, C=10.0, n_epochs=200, rng=0)
    >>> fit.predict(X).tolist()
    [1.0, -1.0, 1.0, -1.0]
    """
    X, y, C = _check_linear(X, y, C)
    n, d = X.shape
    n_epochs = check_int(n_epochs, "n_epochs")
    batch_size = check_int(batch_size, "batch_size")
    rng = check_rng(rng)
    if schedule not in ("suffix", "weighted"):
        raise ValueError(f"schedule must be 'suffix' or 'weighted', got {schedule!r}")
    weighted = schedule == "weighted"
    Z = np.column_stack([X, np.ones(n)]) if fit_intercept else X
    Zy = Z * y[:, None]  # rows y_i z_i: the margin is Zy @ w
    lam = 1.0 / (n * C)
    radius = 1.0 / np.sqrt(lam)
    k = int(batch_size)
    steps_per_epoch = -(-n // k)
    T = steps_per_epoch * int(n_epochs)
    w = np.zeros(Z.shape[1])
    mean = _IterateAverage(T, ("weighted" if weighted else "suffix") if average else None)
    trace = []
    t = 0
    for _ in range(int(n_epochs)):
        order = rng.permutation(n)
        for s in range(0, n, k):
            t += 1
            B = Zy[order[s:s + k]]
            eta = 2.0 / (lam * (t + 1)) if weighted else 1.0 / (lam * t)
            viol = B @ w < 1.0
            w *= 1.0 - eta * lam
            if viol.any():
                w += (eta / B.shape[0]) * viol @ B
            norm = np.sqrt(w @ w)
            if norm > radius:
                w *= radius / norm
            mean.add(t, w)
        wc = mean.of(w)
        trace.append(0.5 * wc @ wc + C * np.maximum(0.0, 1.0 - Zy @ wc).sum())
    w_out = mean.of(w)
    if fit_intercept:
        return LinearSVMFit(w_out[:-1].copy(), float(w_out[-1]), np.asarray(trace), t, C)
    return LinearSVMFit(w_out.copy(), 0.0, np.asarray(trace), t, C)


def sgd_svm(
    X,
    y,
    *,
    C: float = 1.0,
    n_epochs: int = 10,
    eta: float = 1.0,
    t0: float = 1.0,
    average: bool = True,
    rng=0,
) -> LinearSVMFit:
    r"""Stochastic subgradient descent on the soft-margin primal with a free bias; labels in {-1, +1}.

    The scheme of the source notes (seed 004): :math:`P(w, b) = \sum_i \big(\frac{1}{2n}
    \|w\|^2 + C \max(0, 1 - y_i (w^\top x_i + b))\big)`, one sample :math:`i` per step (epochs
    of a random order), :math:`n` times the subgradient of its term, and steps
    :math:`\eta_t = \eta / (t + t_0)`:

    .. math:: w \leftarrow (1 - \eta_t) w + \eta_t n C y_i x_i [y_i f(x_i) < 1], \qquad
              b \leftarrow b + \eta_t n C y_i [y_i f(x_i) < 1]

    (Chapter 4, {ref}`sec-svm-pegasos-rate`). Unlike :func:`pegasos` the bias is not
    regularised, so the minimiser is the SVM's of {eq}`eq-hinge-form`, :func:`smo`'s; the
    objective is not strongly convex in :math:`b`, and no rate is guaranteed. With
    ``average=True`` the iterates of the second half of the run are averaged. ``objective``
    holds :math:`P` at the returned point after each epoch.

    Examples
    --------
    >>> X, y = np.array([[2.0], [0.0], [3.0], [-1.0]]), np.array([1.0, -1.0, 1.0, -1.0])
    >>> fit = sgd_svm(X, y, C=10.0, n_epochs=200, t0=100.0, rng=0)
    >>> fit.predict(X).tolist(), fit.converged is None
    ([1.0, -1.0, 1.0, -1.0], True)
    """
    X, y, C = _check_linear(X, y, C)
    n, d = X.shape
    n_epochs = check_int(n_epochs, "n_epochs")
    eta = check_positive(eta, "eta")
    t0 = check_scalar(t0, "t0", low=0.0)
    rng = check_rng(rng)
    T = n * int(n_epochs)
    w, b = np.zeros(d), 0.0
    mean_w, mean_b = (_IterateAverage(T, "suffix" if average else None) for _ in range(2))
    trace = []
    t = 0
    for _ in range(int(n_epochs)):
        for i in rng.permutation(n):
            t += 1
            eta_t = eta / (t + t0)
            viol = y[i] * (X[i] @ w + b) < 1.0
            w *= 1.0 - eta_t
            if viol:
                w += (eta_t * n * C * y[i]) * X[i]
                b += eta_t * n * C * y[i]
            mean_w.add(t, w)
            mean_b.add(t, b)
        wc, bc = mean_w.of(w), mean_b.of(b)
        with np.errstate(over="ignore", invalid="ignore"):
            P = 0.5 * wc @ wc + C * np.maximum(0.0, 1.0 - y * (X @ wc + bc)).sum()
        if not np.isfinite(P):
            raise ValueError(
                f"sgd_svm diverged: with eta={eta!r}, t0={t0!r} the iterates overflow; take a "
                "smaller eta or a larger t0"
            )
        trace.append(P)
    return LinearSVMFit(mean_w.of(w).copy(), float(mean_b.of(b)), np.asarray(trace), t, C)


# -- multiclass ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MulticlassFit(OwnsArrays):
    """K classes from binary SVMs: one-vs-rest (K fits) or one-vs-one (K(K-1)/2 fits).

    Attributes
    ----------
    classes : ndarray
        The class labels, sorted.
    fits : tuple of SVMFit
    pairs : tuple of (int, int)
        For one-vs-one, the class indices (a, b) of each fit (+1 means class a); empty for
        one-vs-rest.
    scheme : str
        ``"ovr"`` or ``"ovo"``.
    columns : tuple of ndarray
        For one-vs-one on a precomputed Gram matrix, the training points of each fit (the
        columns of a new Gram matrix its scores read); empty otherwise.
    n_train : int
        The number of training points (the columns a new Gram matrix must have).
    """

    classes: np.ndarray
    fits: tuple
    pairs: tuple
    scheme: str
    columns: tuple = ()
    n_train: int = 0

    @property
    def n_iter(self) -> int:
        """SMO iterations over all the binary fits."""
        return sum(f.n_iter for f in self.fits)

    @property
    def converged(self) -> bool:
        """Whether every binary fit converged."""
        return all(f.converged for f in self.fits)

    @property
    def objective(self) -> np.ndarray:
        """The final dual objective :math:`D(\\alpha)` of each binary fit."""
        return read_only(np.array([f.dual for f in self.fits]))

    def decision_function(self, X_new) -> np.ndarray:
        """Scores of shape (m, K) for one-vs-rest; (m, K(K-1)/2) pairwise scores for one-vs-one.

        For ``kernel="precomputed"`` pass the Gram matrix between the new points and all the
        training points, shape (m, n)."""
        if not self.columns:
            return np.column_stack([f.decision_function(X_new) for f in self.fits])
        Kn = as_float_array(X_new, "X_new", ndim=2)
        n = self.n_train
        if Kn.shape[1] != n:
            raise ValueError(f"with kernel='precomputed', X_new must be the (m, n) Gram matrix "
                             f"against the {n} training points: {n} columns, got shape {Kn.shape}")
        return np.column_stack([f.decision_function(Kn[:, c])
                                for f, c in zip(self.fits, self.columns, strict=True)])

    def predict(self, X_new) -> np.ndarray:
        """One-vs-rest: the class with the largest score. One-vs-one: the class with most pairwise
        wins, ties to the smallest class index (libsvm's rule)."""
        S = self.decision_function(X_new)
        if self.scheme == "ovr":
            return self.classes[np.argmax(S, axis=1)]
        votes = np.zeros((S.shape[0], self.classes.size), dtype=int)
        for col, (a, b) in enumerate(self.pairs):
            win_a = S[:, col] > 0
            votes[win_a, a] += 1
            votes[~win_a, b] += 1
        return self.classes[np.argmax(votes, axis=1)]


def _classes(X, y, smo_params):
    if smo_params.get("kernel") == "precomputed":
        # smo's checks: a pair trains on a block of X, so a wrong X must fail here
        X, y = _check_gram_and_labels(X, y)
    else:
        X, y = check_X_y(X, y)
    classes = np.unique(y)
    if classes.size < 2:
        raise ValueError(f"y must contain at least two classes, got {classes.size}")
    return X, y, classes


def one_vs_rest(X, y, **smo_params) -> MulticlassFit:
    r"""One-vs-rest: for each class k an SVM of class k (+1) against all others (-1).

    Labels ``y``: any values, at least two distinct (the sorted distinct values are the classes).

    Predicts :math:`\argmax_k f_k(x)` (Chapter 4, section "Multiclass"). ``smo_params`` go to
    :func:`smo` (``C``, ``kernel``, ``tol``, ``gamma``, ...).

    Examples
    --------
    >>> X = np.array([[0.0], [1.0], [5.0], [6.0], [10.0], [11.0]])
    >>> fit = one_vs_rest(X, np.array([0, 0, 1, 1, 2, 2]), kernel="rbf", gamma=0.5, C=10.0)
    >>> fit.predict(X).tolist(), len(fit.fits)
    ([0.0, 0.0, 1.0, 1.0, 2.0, 2.0], 3)
    """
    X, y, classes = _classes(X, y, smo_params)
    fits = tuple(smo(X, np.where(y == c, 1.0, -1.0), **smo_params) for c in classes)
    return MulticlassFit(classes, fits, (), "ovr", n_train=y.size)


def one_vs_one(X, y, **smo_params) -> MulticlassFit:
    r"""One-vs-one: an SVM for every pair of classes, trained on those two classes only.

    Labels ``y``: any values, at least two distinct (the sorted distinct values are the classes).

    Predicts by majority vote over the :math:`K(K-1)/2` pairwise decisions, ties to the smallest
    class index, as libsvm does. ``smo_params`` go to :func:`smo`; with
    ``kernel="precomputed"``, ``X`` is the (n, n) Gram matrix and each pair trains on its block.

    Examples
    --------
    >>> X = np.array([[0.0], [1.0], [5.0], [6.0], [10.0], [11.0]])
    >>> fit = one_vs_one(X, np.array([0, 0, 1, 1, 2, 2]), kernel="linear", C=10.0)
    >>> fit.predict(X).tolist(), fit.pairs
    ([0.0, 0.0, 1.0, 1.0, 2.0, 2.0], ((0, 1), (0, 2), (1, 2)))
    """
    X, y, classes = _classes(X, y, smo_params)
    precomputed = smo_params.get("kernel") == "precomputed"
    fits, pairs, columns = [], [], []
    for a in range(classes.size):
        for b in range(a + 1, classes.size):
            m = (y == classes[a]) | (y == classes[b])
            # on a Gram matrix the pair's problem is its block: rows and columns of its points
            Xm = X[np.ix_(m, m)] if precomputed else X[m]
            fits.append(smo(Xm, np.where(y[m] == classes[a], 1.0, -1.0), **smo_params))
            pairs.append((a, b))
            columns.append(np.flatnonzero(m))
    return MulticlassFit(classes, tuple(fits), tuple(pairs), "ovo",
                         tuple(columns) if precomputed else (), n_train=y.size)


# -- the joint (Crammer-Singer) multiclass machine ------------------------------------


@dataclass(frozen=True)
class CrammerSingerFit(OwnsArrays):
    r"""The joint multiclass SVM of Crammer and Singer, linear and without a bias.

    Attributes
    ----------
    classes : ndarray of shape (K,)
        The class labels, sorted.
    W : ndarray of shape (K, d)
        Row k is :math:`w_k`.
    alpha : ndarray of shape (n, K)
        The dual variables: row i lies on the simplex :math:`\alpha_{ik} \ge 0`,
        :math:`\sum_k \alpha_{ik} = C`.
    objective : ndarray
        The primal objective :math:`P(W)` after each pass over the data.
    dual : float
        The final dual objective :math:`D(\alpha)`.
    gap : float
        The final duality gap :math:`P(W) - D(\alpha) \ge 0`; it bounds
        :math:`P(W) - P^*`.
    n_iter : int
        Passes over the data.
    converged : bool
        Whether the relative gap :math:`(P - D)/P` reached ``tol``.
    C : float
    """

    classes: np.ndarray
    W: np.ndarray
    alpha: np.ndarray
    objective: np.ndarray
    dual: float
    gap: float
    n_iter: int
    converged: bool
    C: float

    def decision_function(self, X_new) -> np.ndarray:
        r"""Scores :math:`w_k^\top x` of shape (m, K)."""
        return check_n_features(X_new, self.W.shape[1], "X_new") @ self.W.T

    def predict(self, X_new) -> np.ndarray:
        """The class with the largest score (ties to the first class)."""
        return self.classes[np.argmax(self.decision_function(X_new), axis=1)]


def _class_index(y, classes=None):
    classes = np.unique(y) if classes is None else classes
    if classes.size < 2:
        raise ValueError(f"y must contain at least two classes, got {classes.size}")
    return classes, np.searchsorted(classes, y)


def _check_cs_point(A, X, yi, name: str, ncols: int | None = None):
    """Validate a point (W or alpha), X and class indices yi for the joint machine."""
    X = as_float_array(X, "X", ndim=2)
    A = as_float_array(A, name, ndim=2)
    yi = as_float_array(yi, "yi", ndim=1)
    if yi.shape[0] != X.shape[0] or not np.all((yi == np.round(yi)) & (yi >= 0)):
        raise ValueError(f"yi must hold {X.shape[0]} class indices 0..K-1, got {yi!r}")
    if ncols is not None and A.shape[1] != ncols:
        raise ValueError(f"{name} has {A.shape[1]} columns, expected {ncols}")
    if yi.size and yi.max() >= (A.shape[0] if ncols == X.shape[1] else A.shape[1]):
        raise ValueError(f"yi has a class index {int(yi.max())} beyond the {name}'s classes")
    return A, X, yi.astype(int)


def multiclass_margins(W, X, yi) -> np.ndarray:
    r"""The margins :math:`g_{ik} = 1[k \ne y_i] + w_k^\top x_i - w_{y_i}^\top x_i`.

    An (n, K) array. Row i's maximum is sample i's multiclass hinge loss (0 when the true class wins by
    1); ``yi`` holds class indices 0..K-1 (Chapter 4, {eq}`eq-cs-gap`).

    Examples
    --------
    >>> W = np.array([[1.0, 0.0], [0.0, 1.0]])  # w_1 = e_1, w_2 = e_2
    >>> multiclass_margins(W, np.array([[2.0, 0.5]]), np.array([0])).tolist()
    [[0.0, -0.5]]
    """
    W, X, yi = _check_cs_point(W, X, yi, "W", np.shape(X)[1] if np.ndim(X) == 2 else None)
    S = X @ W.T
    n = S.shape[0]
    G = 1.0 + S - S[np.arange(n), yi][:, None]
    G[np.arange(n), yi] = 0.0
    return G


def crammer_singer_primal(W, X, yi, C) -> float:
    r""":math:`P(W) = \tfrac12 \sum_k \|w_k\|^2 + C \sum_i \max_k g_{ik}` (Chapter 4,
    {eq}`def-cs-primal`); ``yi`` holds class indices 0..K-1.

    Examples
    --------
    >>> W = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> crammer_singer_primal(W, np.array([[2.0, 1.5]]), np.array([0]), C=1.0)  # 1 + 0.5
    1.5
    """
    C = check_positive(C, "C")
    hinge = multiclass_margins(W, X, yi).max(axis=1)  # checks W, X and yi
    W = np.asarray(W, dtype=float)
    return float(0.5 * np.sum(W * W) + C * hinge.sum())


def crammer_singer_dual(alpha, X, yi, C) -> float:
    r""":math:`D(\alpha) = -\tfrac12 \sum_m \|w_m(\alpha)\|^2 + \sum_{i,k} \alpha_{ik}
    (1 - \delta_{k y_i})` with
    :math:`w_m(\alpha) = \sum_i (C\delta_{m y_i} - \alpha_{im}) x_i` (Chapter 4,
    {eq}`eq-cs-dual`); ``yi`` holds class indices 0..K-1.

    Examples
    --------
    >>> alpha = np.array([[1.0, 0.0]])  # all weight on the true class: W = 0, D = 0
    >>> crammer_singer_dual(alpha, np.array([[2.0, 1.5]]), np.array([0]), C=1.0)
    0.0
    """
    alpha, X, yi = _check_cs_point(alpha, X, yi, "alpha")
    C = check_positive(C, "C")
    n = X.shape[0]
    Beta = -alpha.copy()
    Beta[np.arange(n), yi] += C
    W = Beta.T @ X
    return float(-0.5 * np.sum(W * W) + alpha.sum() - alpha[np.arange(n), yi].sum())


def project_simplex(v, total: float) -> np.ndarray:
    r"""The Euclidean projection of ``v`` onto
    :math:`\{a : a \ge 0, \sum_k a_k = \text{total}\}`.

    Sort, find the largest :math:`\rho` with :math:`v_{(\rho)} > \theta_\rho`, where
    :math:`\theta_\rho = (\sum_{j \le \rho} v_{(j)} - \text{total})/\rho`, and return
    :math:`\max(v - \theta_\rho, 0)` (Held, Wolfe and Crowder's rule).

    Examples
    --------
    >>> project_simplex(np.array([2.0, 0.0, -1.0]), 1.0).tolist()
    [1.0, 0.0, 0.0]
    """
    v = as_float_array(v, "v", ndim=1)
    total = check_positive(total, "total")
    u = np.sort(v)[::-1]
    css = np.cumsum(u) - total
    rho = np.nonzero(u * np.arange(1, u.size + 1) > css)[0][-1]
    return np.maximum(v - css[rho] / (rho + 1), 0.0)


def crammer_singer(
    X, y, *, C: float = 1.0, tol: float = 1e-8, max_iter: int = 10_000, rng=0
) -> CrammerSingerFit:
    r"""The joint multiclass SVM, solved in the dual one sample's block at a time.

    Minimises (Chapter 4, {eq}`def-cs-primal`), without a bias (append a constant
    feature to get one, regularised like the other weights),

    .. math::

        P(W) = \tfrac12 \sum_k \|w_k\|^2
               + C \sum_i \max_k \big(1[k \ne y_i]
                                     + w_k^\top x_i - w_{y_i}^\top x_i\big).

    The dual {eq}`eq-cs-dual` couples the variables only within a sample: row i of
    :math:`\alpha` lies on the simplex
    :math:`\alpha_{ik} \ge 0, \sum_k \alpha_{ik} = C`. The dual in that block alone is a concave quadratic with Hessian
    :math:`-\|x_i\|^2 I`, so its exact maximiser is one projection onto the simplex
    ({eq}`eq-cs-block`): :math:`\alpha_i \leftarrow \Pi(\alpha_i + g_i / \|x_i\|^2)`,
    with :math:`g_{ik}` the margins of :func:`multiclass_margins`. Passes visit the
    samples in a random order; after each pass the duality gap {eq}`eq-cs-gap` is
    computed and the method stops when :math:`(P - D)/P \le` ``tol``: the returned W is
    then within that fraction of the optimum.

    Labels ``y``: any values, at least two distinct (the sorted distinct values are the
    classes).

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [2.0, 0.1], [0.0, 1.0], [0.1, 2.0], [-1.0, -1.0]])
    >>> fit = crammer_singer(X, np.array([0, 0, 1, 1, 2]), C=10.0)
    >>> certified = bool(fit.gap <= 1e-8 * fit.objective[-1])
    >>> fit.predict(X).tolist(), fit.converged, certified
    ([0.0, 0.0, 1.0, 1.0, 2.0], True, True)
    """
    X, y = check_X_y(X, y)
    check_scale(X, "crammer_singer")
    C = check_positive(C, "C")
    tol = check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter")
    rng = check_rng(rng)
    classes, yi = _class_index(y)
    n, K = X.shape[0], classes.size
    alpha = np.zeros((n, K))
    alpha[np.arange(n), yi] = C  # W = 0: a feasible start
    W = np.zeros((K, X.shape[1]))
    sq = np.einsum("ij,ij->i", X, X)
    trace, converged, dual = [], False, 0.0
    active = np.flatnonzero(sq > 0.0)  # a zero row moves no weight: its block is done
    for _ in range(max_iter):
        for i in rng.permutation(active):
            g = 1.0 + W @ X[i]  # the margins g_ik of eq-cs-gap, but for k = y_i ...
            g[yi[i]] -= 1.0  # ... where 1[k != y_i] = 0
            g -= g[yi[i]]
            new = project_simplex(alpha[i] + g / sq[i], C)
            W += np.outer(alpha[i] - new, X[i])  # w_m = sum_i (C delta - alpha_im) x_i
            alpha[i] = new
        G = multiclass_margins(W, X, yi)
        # the gap of eq-cs-gap, sample by sample
        terms = C * G.max(axis=1) - np.einsum("ik,ik->i", alpha, G)
        primal = 0.5 * np.sum(W * W) + C * G.max(axis=1).sum()
        dual = primal - terms.sum()
        trace.append(primal)
        if primal - dual <= tol * primal:
            converged = True
            break
        # a block whose gap term is 0 is optimal given the others: visit only the rest
        active = np.flatnonzero((terms > 1e-3 * tol * primal / n) & (sq > 0.0))
    if not converged:
        warnings.warn(
            f"crammer_singer stopped at max_iter={max_iter} passes with relative "
            f"duality gap {(trace[-1] - dual) / trace[-1]:.2e} > tol={tol:g}",
            ConvergenceWarning, stacklevel=2,
        )
    return CrammerSingerFit(classes, W, alpha, np.asarray(trace), dual,
                            trace[-1] - dual, len(trace), converged, C)
