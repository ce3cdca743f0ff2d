"""Tests of mlnotes.svm: agreement with libsvm (scikit-learn's SVC), optimality, bad input."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from sklearn.svm import SVC
from warning_site import one_warning_at

from mlnotes import ConvergenceWarning, kernels, svm
from mlnotes.datasets import load_breast_cancer, load_heart_scale, load_iris


def _breast_cancer():
    ds = load_breast_cancer()
    X = (ds.X - ds.X.mean(0)) / ds.X.std(0)
    return X, 2.0 * ds.y - 1.0


def _iris_two_class():
    """Versicolor (-1) against virginica (+1): the two iris classes that overlap."""
    ds = load_iris()
    m = ds.y > 0
    return ds.X[m], np.where(ds.y[m] == 1, -1.0, 1.0)


def _heart_scale():
    ds = load_heart_scale()
    return ds.X, ds.y


DATASETS = {"breast_cancer": _breast_cancer, "iris": _iris_two_class, "heart_scale": _heart_scale}
KERNELS = {"linear": {}, "rbf": None}  # rbf: gamma = 1/d, scikit-learn's "auto"


def _libsvm_alpha(ref, n):
    a = np.zeros(n)
    a[ref.support_] = np.abs(ref.dual_coef_[0])
    return a


def _polished(ref, X, y, K, C):
    """libsvm's solution re-solved in double precision on libsvm's own active set.

    libsvm keeps kernel values in single precision (its Qfloat cache), so its alpha and rho
    carry errors of about 1e-7 times the size of K. Given its partition of the points into free
    (0 < alpha < C) and bounded (alpha = C) support vectors, the KKT conditions are a linear
    system: y_i f(x_i) = 1 on the free ones and sum_i alpha_i y_i = 0. Solving it in double is an
    independent reference for the exact optimum (least squares: duplicate points make it
    singular, but the decision values are unique).
    """
    a = _libsvm_alpha(ref, len(y))
    F = np.flatnonzero((a > 0) & (a < C))
    B = np.flatnonzero(a >= C)
    m = F.size
    M = np.zeros((m + 1, m + 1))
    M[:m, :m] = K[np.ix_(F, F)]
    M[:m, m] = 1.0
    M[m, :m] = 1.0
    rhs = np.concatenate([y[F] - C * K[np.ix_(F, B)] @ y[B], [-C * y[B].sum()]])
    sol = np.linalg.lstsq(M, rhs, rcond=None)[0]
    return K[:, F] @ sol[:m] + C * K[:, B] @ y[B] + sol[m]


def _distinct_support(alpha, X, y):
    """Support points as a set of distinct (x, y): iris repeats points, and a dual optimum may
    split alpha between copies of one point in any proportion."""
    keys = np.column_stack([X, y])
    _, group = np.unique(keys, axis=0, return_inverse=True)
    group = np.ravel(group)
    mass = np.bincount(group, weights=alpha)
    return set(np.flatnonzero(mass > 0))


@pytest.fixture(scope="module", params=[(d, k) for d in DATASETS for k in KERNELS],
                ids=lambda p: f"{p[0]}-{p[1]}")
def both(request):
    name, kern = request.param
    X, y = DATASETS[name]()
    params = {} if kern == "linear" else {"gamma": 1.0 / X.shape[1]}
    ours = svm.smo(X, y, C=1.0, kernel=kern, tol=1e-9, **params)
    ref = SVC(C=1.0, kernel=kern, tol=1e-9, shrinking=False, **params).fit(X, y)
    K = kernels.gram(X, kernel=kern, **params)
    return X, y, K, ours, ref


def test_dual_objective_matches_libsvm(both):
    X, y, K, ours, ref = both
    d_ref = svm.dual_objective(_libsvm_alpha(ref, len(y)), y, K)
    assert ours.converged
    assert abs(ours.dual - d_ref) <= 1e-6 * abs(d_ref)
    # the O(1) running value of the loop equals the objective recomputed from alpha
    assert abs(ours.dual - svm.dual_objective(ours.alpha, y, K)) <= 1e-9 * abs(d_ref)


def test_support_vectors_match_libsvm(both):
    X, y, K, ours, ref = both
    assert _distinct_support(ours.alpha, X, y) == _distinct_support(_libsvm_alpha(ref, len(y)), X, y)


def test_decision_values_match_libsvm(both):
    X, y, K, ours, ref = both
    f = ours.decision_function(X)
    # against libsvm's active set solved in double: the exact optimum (observed <= 1e-8)
    assert np.abs(f - _polished(ref, X, y, K, 1.0)).max() <= 1e-7
    # against libsvm's own numbers, whose single-precision kernel cache costs ~1e-7 * max|K|
    scale = max(1.0, np.abs(K).max())
    assert np.abs(f - ref.decision_function(X)).max() <= 1e-6 * scale
    assert np.array_equal(ours.predict(X), ref.predict(X))


def test_linear_weights_match_libsvm():
    X, y = _heart_scale()
    ours = svm.smo(X, y, C=1.0, kernel="linear", tol=1e-9)
    ref = SVC(C=1.0, kernel="linear", tol=1e-9, shrinking=False).fit(X, y)
    assert np.abs(ours.coef - ref.coef_[0]).max() <= 1e-4


def test_hard_margin_setosa_versicolor():
    ds = load_iris()
    m = ds.y < 2
    X, y = ds.X[m][:, :2], np.where(ds.y[m] == 0, -1.0, 1.0)  # sepal length and width
    ours = svm.smo(X, y, C=np.inf, kernel="linear", tol=1e-10)
    ref = SVC(C=1e10, kernel="linear", tol=1e-10, shrinking=False).fit(X, y)
    K = kernels.linear_kernel(X)
    d_ref = svm.dual_objective(_libsvm_alpha(ref, len(y)), y, K)
    assert ours.converged and abs(ours.dual - d_ref) <= 1e-6 * d_ref
    # The measurements lie on a 0.1 grid and four points sit exactly on the two margin lines,
    # so the optimal alpha is not unique (libsvm puts alpha = 0 on one of them): compare what is
    # unique, the hyperplane and the points on the margin (the support vectors of the
    # geometric definition).
    margins = y * ours.decision_function(X)
    on_margin = np.flatnonzero(np.abs(margins - 1) <= 1e-7)
    ref_margins = y * ref.decision_function(X)
    assert set(on_margin) == set(np.flatnonzero(np.abs(ref_margins - 1) <= 1e-4))
    assert set(ours.support) <= set(on_margin)
    assert margins.min() >= 1 - 1e-8  # nobody inside the margin
    # exact reference: the margin equations w.x_i + b = y_i on those points, solved directly
    A = np.column_stack([X[on_margin], np.ones(on_margin.size)])
    wb, *_ = np.linalg.lstsq(A, y[on_margin], rcond=None)
    assert np.abs(A @ wb - y[on_margin]).max() <= 1e-10  # the system is consistent
    assert np.abs(np.append(ours.coef, ours.b) - wb).max() <= 1e-8
    assert np.abs(ref.coef_[0] - ours.coef).max() <= 1e-4 * np.abs(ours.coef).max()
    w = ours.coef
    assert abs(0.5 * w @ w - ours.dual) <= 1e-9 * ours.dual  # zero duality gap


@pytest.mark.parametrize("kern", ["linear", "rbf", "poly"])
def test_precomputed_and_callable_agree(kern):
    X, y = _heart_scale()
    params = {} if kern == "linear" else {"gamma": 0.1}
    a = svm.smo(X, y, C=0.5, kernel=kern, tol=1e-8, **params)
    K = kernels.gram(X, kernel=kern, **params)
    b = svm.smo(K, y, C=0.5, kernel="precomputed", tol=1e-8)
    def k(U, V, **p):
        return kernels.gram(U, V, kernel=kern, **p)

    c = svm.smo(X, y, C=0.5, kernel=k, tol=1e-8, **params)
    Xn = X[:20] + 0.1
    Kn = kernels.gram(Xn, X, kernel=kern, **params)
    for other in (b, c):
        assert abs(a.dual - other.dual) <= 1e-10 * abs(a.dual)
    assert np.allclose(a.decision_function(Xn), b.decision_function(Kn), atol=1e-6)
    assert np.allclose(a.decision_function(Xn), c.decision_function(Xn), atol=1e-6)


@pytest.mark.parametrize("kern, params", [("linear", {}), ("rbf", {"gamma": 0.3}),
                                          ("poly", {"degree": 2, "gamma": 0.5, "coef0": 1.0})])
def test_kernel_rows_equal_mlnotes_kernels(kern, params):
    X = np.random.default_rng(1).standard_normal((30, 4))
    rows = svm._Rows(X, kern, params, False, 10)
    K = kernels.gram(X, kernel=kern, **params)
    assert np.allclose(np.array([rows(i) for i in range(30)]), K, rtol=1e-13, atol=1e-13)
    assert np.allclose(rows.diag, np.diag(K), rtol=1e-13)


def test_shrinking_gives_the_same_answer():
    X, y = _breast_cancer()
    a = svm.smo(X, y, C=1.0, kernel="rbf", gamma=0.05, tol=1e-8, shrinking=True)
    b = svm.smo(X, y, C=1.0, kernel="rbf", gamma=0.05, tol=1e-8, shrinking=False)
    assert abs(a.dual - b.dual) <= 1e-10 * a.dual
    assert set(a.support) == set(b.support)


@pytest.mark.parametrize("shrinking", [True, False])
def test_dual_objective_is_monotone_and_kkt_holds(shrinking):
    rng = np.random.default_rng(3)
    X = rng.standard_normal((200, 5))
    y = np.where(X[:, 0] + 0.8 * rng.standard_normal(200) > 0, 1.0, -1.0)
    fit = svm.smo(X, y, C=2.0, kernel="rbf", gamma=0.5, tol=1e-6, shrinking=shrinking)
    assert np.all(np.diff(fit.dual_objective) >= -1e-12)
    K = kernels.rbf_kernel(X, gamma=0.5)
    assert svm.kkt_violation(fit.alpha, y, K, 2.0) < 1e-6
    assert abs(fit.alpha @ y) <= 1e-10
    assert fit.alpha.min() >= 0 and fit.alpha.max() <= 2.0
    # weak duality with the primal at the computed (w, b); the gap is small at the optimum
    P = svm.primal_objective(fit.alpha, fit.b, y, K, 2.0)
    assert fit.dual <= P + 1e-9 and P - fit.dual <= 1e-4 * P


# -- bad input ----------------------------------------------------------------------------------


def test_rejects_bad_C_and_labels():
    X, y = _heart_scale()
    with pytest.raises(ValueError, match="C must be positive"):
        svm.smo(X, y, C=0.0)
    with pytest.raises(ValueError, match="C must be positive"):
        svm.smo(X, y, C=-1.0)
    with pytest.raises(ValueError, match=r"y must take values in \{-1, \+1\}"):
        svm.smo(X, (y + 1) / 2)
    with pytest.raises(ValueError, match="both classes"):
        svm.smo(X, np.ones(len(y)))
    with pytest.raises(ValueError, match="kernel must be"):
        svm.smo(X, y, kernel="laplacian")
    with pytest.raises(ValueError, match="contains NaN"):
        svm.smo(np.where(X == X[0, 0], np.nan, X), y)


def test_rejects_bad_gram():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 3))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    K = X @ X.T
    with pytest.raises(ValueError, match="not symmetric"):
        svm.smo(K + np.triu(np.ones_like(K), 1) * 1e-3, y, kernel="precomputed")
    v = np.linalg.svd(X)[0][:, -1]  # orthogonal to the columns of X: K v = 0
    with pytest.raises(ValueError, match=r"its most negative eigenvalue is -1 .*indefinite"):
        svm.smo(K - np.outer(v, v), y, kernel="precomputed")  # positive diagonal, eigenvalue -1
    with pytest.raises(ValueError, match="negative diagonal"):
        svm.smo(K - 100.0 * np.eye(40), y, kernel="precomputed")
    with pytest.raises(ValueError, match="square"):
        svm.smo(K[:, :30], y, kernel="precomputed")
    # the sigmoid "kernel" tanh(x.y - 1) is not positive semi-definite
    # (kernels.gram warns with the most negative eigenvalue first, then smo refuses)
    with pytest.raises(ValueError, match="indefinite"), \
            pytest.warns(kernels.NotPSDWarning, match="not positive semidefinite"):
        svm.smo(X, y, kernel=lambda U, V: np.tanh(U @ V.T - 1.0))


def test_hard_margin_on_non_separable_data_raises():
    X, y = _iris_two_class()  # versicolor and virginica overlap
    with pytest.raises(ValueError, match="not separable"):
        svm.smo(X, y, C=np.inf, kernel="linear")


def test_iteration_limit_warns_with_violation():
    X, y = _breast_cancer()
    with pytest.warns(ConvergenceWarning, match="maximal KKT violation"):
        fit = svm.smo(X, y, C=1.0, kernel="linear", max_iter=20)
    assert not fit.converged and fit.n_iter == 20 and fit.violation[-1] > 1e-3


def test_decision_function_shape_errors():
    X, y = _heart_scale()
    fit = svm.smo(X, y, kernel="linear")
    with pytest.raises(ValueError, match="X_new has 5 columns but the model was fitted on 13 features"):
        fit.decision_function(X[:, :5])
    K = kernels.linear_kernel(X)
    pfit = svm.smo(K, y, kernel="precomputed")
    with pytest.raises(ValueError, match="Gram matrix against the 270 training points"):
        pfit.decision_function(K[:, :10])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert fit.predict(X).shape == (270,)


# -- primal training and multiclass ----------------------------------------------------------------


def test_pegasos_reaches_liblinear_objective():
    from sklearn.svm import LinearSVC

    X, y = _heart_scale()
    ref = LinearSVC(C=1.0, loss="hinge", tol=1e-8, max_iter=100_000).fit(X, y)
    P_ref = svm.hinge_objective(ref.coef_[0], ref.intercept_[0], X, y, 1.0, regularise_bias=True)
    fit = svm.pegasos(X, y, C=1.0, n_epochs=50, batch_size=1, rng=0)
    P = svm.hinge_objective(fit.w, fit.b, X, y, 1.0, regularise_bias=True)
    assert P_ref <= P <= 1.01 * P_ref  # liblinear's optimum is a lower bound: within 1% of it
    assert fit.objective.shape == (50,) and abs(fit.objective[-1] - P) <= 1e-9 * P
    assert np.mean(fit.predict(X) == ref.predict(X)) >= 0.97


def test_pegasos_weighted_schedule_reaches_liblinear_objective():
    from sklearn.svm import LinearSVC

    X, y = _heart_scale()
    ref = LinearSVC(C=1.0, loss="hinge", tol=1e-8, max_iter=100_000).fit(X, y)
    P_ref = svm.hinge_objective(ref.coef_[0], ref.intercept_[0], X, y, 1.0, regularise_bias=True)
    fit = svm.pegasos(X, y, C=1.0, n_epochs=60, schedule="weighted", rng=0)
    P = svm.hinge_objective(fit.w, fit.b, X, y, 1.0, regularise_bias=True)
    # liblinear's optimum is a lower bound; the theorem's scheme is within 5% of it by 60 epochs
    assert P_ref <= P <= 1.05 * P_ref
    assert abs(fit.objective[-1] - P) <= 1e-9 * P
    # the t-weighted average: replaying the steps by hand gives the same point
    Xs, ys = X[:20], y[:20]
    lam, w, acc = 1 / 20, np.zeros(X.shape[1] + 1), np.zeros(X.shape[1] + 1)
    order = np.random.default_rng(3).permutation(20)
    Zy = np.column_stack([Xs, np.ones(20)]) * ys[:, None]
    for t, i in enumerate(order, start=1):
        eta = 2 / (lam * (t + 1))
        w = (1 - eta * lam) * w + (eta * Zy[i] if Zy[i] @ w < 1 else 0.0)
        w *= min(1.0, 1 / (np.sqrt(lam) * np.linalg.norm(w)))
        acc += t * w
    small = svm.pegasos(Xs, ys, C=1.0, n_epochs=1, schedule="weighted", rng=3)
    np.testing.assert_allclose(np.append(small.w, small.b), acc / (20 * 21 / 2), rtol=1e-12)
    with pytest.raises(ValueError, match="schedule"):
        svm.pegasos(X, y, schedule="harmonic")


def test_sgd_svm_reaches_the_free_bias_optimum_of_libsvm():
    X, y = _heart_scale()
    ref = SVC(C=1.0, kernel="linear", tol=1e-9, shrinking=False).fit(X, y)
    P_ref = svm.hinge_objective(ref.coef_[0], ref.intercept_[0], X, y, 1.0)
    fit = svm.sgd_svm(X, y, C=1.0, n_epochs=60, t0=10.0 * len(y), rng=0)
    P = svm.hinge_objective(fit.w, fit.b, X, y, 1.0)
    assert P_ref * (1 - 1e-6) <= P <= 1.01 * P_ref  # the free-bias optimum, not liblinear's
    assert abs(fit.objective[-1] - P) <= 1e-9 * P
    assert abs(fit.b - ref.intercept_[0]) <= 0.25  # the objective is flat along b near b*
    assert np.mean(fit.predict(X) == ref.predict(X)) >= 0.97


def test_squared_slack_svm_is_the_hard_margin_dual_on_k_plus_identity_over_2c():
    from sklearn.svm import LinearSVC

    X, y = _heart_scale()
    n, C = len(y), 1.0
    # the squared-slack dual (Chapter 4, eq-l2svm-dual): hard margin on K + I/(2C); the box
    # 1e6 is never reached (alpha_i = 2 C xi_i)
    fit = svm.smo(X @ X.T + np.eye(n) / (2 * C), y, C=1e6, kernel="precomputed", tol=1e-10)
    w = (fit.alpha * y) @ X
    P = 0.5 * w @ w + C * np.sum(np.maximum(0.0, 1 - y * (X @ w + fit.b)) ** 2)
    assert abs(P - fit.dual) <= 1e-9 * P  # zero duality gap
    # liblinear's squared hinge; intercept_scaling makes its regularised bias almost free
    ref = LinearSVC(C=C, loss="squared_hinge", tol=1e-12, max_iter=1_000_000,
                    intercept_scaling=1000).fit(X, y)
    w_ref, b_ref = ref.coef_[0], ref.intercept_[0]
    P_ref = 0.5 * w_ref @ w_ref + C * np.sum(np.maximum(0.0, 1 - y * (X @ w_ref + b_ref)) ** 2)
    assert abs(P - P_ref) <= 1e-9 * P_ref
    np.testing.assert_allclose(w, w_ref, atol=1e-5)
    # libsvm on the same modified kernel, with a box it never reaches
    K_mod = X @ X.T + np.eye(n) / (2 * C)
    lib = SVC(C=1e10, kernel="precomputed", tol=1e-10, shrinking=False).fit(K_mod, y)
    alpha_lib = np.zeros(n)
    alpha_lib[lib.support_] = np.abs(lib.dual_coef_[0])
    assert np.abs(alpha_lib - fit.alpha).max() <= 1e-3 * fit.alpha.max()
    assert abs(lib.intercept_[0] - fit.b) <= 1e-5


def test_subgradient_method_approaches_the_dual_optimum():
    X, y = _heart_scale()
    D = svm.smo(X, y, C=1.0, kernel="linear", tol=1e-9).dual  # = min of the primal
    fit = svm.subgradient_svm(X, y, C=1.0, max_iter=5000)
    P = svm.hinge_objective(fit.w, fit.b, X, y, 1.0)
    assert D <= P + 1e-9 and P <= 1.05 * D  # weak duality, and a slow O(1/sqrt(t)) approach
    assert abs(P - fit.objective.min()) <= 1e-9 * P  # the best iterate is returned


def test_one_vs_one_matches_libsvm_on_iris():
    ds = load_iris()
    ours = svm.one_vs_one(ds.X, ds.y, C=1.0, kernel="rbf", gamma=0.25, tol=1e-9)
    ref = SVC(C=1.0, kernel="rbf", gamma=0.25, tol=1e-9, shrinking=False,
              decision_function_shape="ovo").fit(ds.X, ds.y)
    assert [tuple(ours.classes[list(p)]) for p in ours.pairs] == [(0, 1), (0, 2), (1, 2)]
    assert np.abs(ours.decision_function(ds.X) - ref.decision_function(ds.X)).max() <= 1e-5
    assert np.array_equal(ours.predict(ds.X), ref.predict(ds.X))


def test_one_vs_one_on_a_precomputed_gram_matrix_matches_libsvm():
    """With kernel="precomputed" each pair trains on its two classes' block of the Gram matrix
    and scores new points on those columns: libsvm's answer on the same matrix (it passed
    whole rows of the Gram matrix to every pair, which raised)."""
    ds = load_iris()
    K = np.exp(-0.25 * ((ds.X[:, None, :] - ds.X[None, :, :]) ** 2).sum(-1))
    ours = svm.one_vs_one(K, ds.y, C=1.0, kernel="precomputed", tol=1e-9)
    ref = SVC(C=1.0, kernel="precomputed", tol=1e-9, shrinking=False,
              decision_function_shape="ovo").fit(K, ds.y)
    assert np.abs(ours.decision_function(K) - ref.decision_function(K)).max() <= 1e-5
    assert np.array_equal(ours.predict(K[::7]), ref.predict(K[::7]))
    rbf = svm.one_vs_one(ds.X, ds.y, C=1.0, kernel="rbf", gamma=0.25, tol=1e-9)
    assert np.array_equal(ours.predict(K), rbf.predict(ds.X))
    with pytest.raises(ValueError, match=r"must be a square Gram matrix, got shape \(150, 100\)"):
        svm.one_vs_one(K[:, :100], ds.y, kernel="precomputed")
    with pytest.raises(ValueError, match=r"X_new .* 150 columns"):
        ours.predict(K[:, :100])


def test_one_vs_rest_matches_scikit_learn_on_iris():
    from sklearn.multiclass import OneVsRestClassifier

    ds = load_iris()
    ours = svm.one_vs_rest(ds.X, ds.y, C=1.0, kernel="linear", tol=1e-9)
    ref = OneVsRestClassifier(SVC(C=1.0, kernel="linear", tol=1e-9, shrinking=False)).fit(ds.X, ds.y)
    scale = np.abs(ds.X @ ds.X.T).max()  # libsvm's single-precision kernel cache, see above
    assert np.abs(ours.decision_function(ds.X) - ref.decision_function(ds.X)).max() <= 1e-6 * scale
    assert np.array_equal(ours.predict(ds.X), ref.predict(ds.X))


def test_primal_trainers_reject_bad_input():
    X, y = _heart_scale()
    with pytest.raises(ValueError, match="C must be positive"):
        svm.pegasos(X, y, C=-1.0)
    with pytest.raises(ValueError, match="C must be a finite number"):
        svm.subgradient_svm(X, y, C=np.inf)
    with pytest.raises(ValueError, match=r"y must take values in \{-1, \+1\}"):
        svm.pegasos(X, (y + 1) / 2)
    with pytest.raises(ValueError, match="at least two classes"):
        svm.one_vs_rest(X, np.ones(len(y)))


def test_two_variable_step_is_the_exact_pair_minimum():
    rng = np.random.default_rng(5)
    for _ in range(200):
        n, C = 6, rng.uniform(0.5, 2.0)
        Z = rng.standard_normal((n, 3))
        K = Z @ Z.T
        y = rng.choice([-1.0, 1.0], n)
        alpha = rng.uniform(0, C, n)
        Q = y[:, None] * y[None, :] * K
        G = Q @ alpha - 1
        i, j = rng.choice(n, 2, replace=False)
        ai, aj = svm.two_variable_step(alpha[i], alpha[j], y[i], y[j], G[i], G[j], K[i, i], K[j, j],
                                       K[i, j], C)
        assert 0 <= ai <= C and 0 <= aj <= C
        assert abs(y[i] * ai + y[j] * aj - y[i] * alpha[i] - y[j] * alpha[j]) <= 1e-12

        d = np.zeros(n)
        d[i], d[j] = y[i], -y[j]  # the feasible direction: y.alpha stays fixed
        lin, quad = d @ Q @ alpha - d.sum(), d @ Q @ d  # the dual along alpha + s d, minus f(alpha)

        # the feasible segment of s, then brute force over it
        lo = max(-alpha[i] if y[i] > 0 else alpha[i] - C, -(C - alpha[j]) if y[j] > 0 else -alpha[j])
        hi = min(C - alpha[i] if y[i] > 0 else alpha[i], alpha[j] if y[j] > 0 else C - alpha[j])
        grid = np.linspace(lo, hi, 20001)
        s_ours = (ai - alpha[i]) * y[i]
        assert s_ours * lin + 0.5 * quad * s_ours**2 <= (grid * lin + 0.5 * quad * grid**2).min() + 1e-9


def test_lru_row_cache_gives_the_same_answer(monkeypatch):
    """Above _FULL_GRAM_MAX_N points smo keeps only cache_rows kernel rows; force that path."""
    X, y = _heart_scale()
    full = svm.smo(X, y, C=1.0, kernel="rbf", gamma=0.1, tol=1e-8)
    monkeypatch.setattr(svm, "_FULL_GRAM_MAX_N", 10)
    lru = svm.smo(X, y, C=1.0, kernel="rbf", gamma=0.1, tol=1e-8, cache_rows=20)
    assert abs(full.dual - lru.dual) <= 1e-10 * full.dual
    assert np.array_equal(full.support, lru.support)


def test_iteration_limit_while_shrunk_warns_and_returns_a_consistent_fit():
    # Regression: hitting max_iter while shrinking was active crashed (shape mismatch between
    # the shrunk gradient and alpha) instead of warning with converged=False.
    from mlnotes.datasets import load_digits

    d = load_digits()
    X = d.X[:1000]
    y = np.where(d.y[:1000] == 3, 1.0, -1.0)
    K = kernels.linear_kernel(X)
    with pytest.warns(ConvergenceWarning, match="max_iter=1000"):
        fit = svm.smo(K, y, C=1.0, kernel="precomputed", max_iter=1000)
    assert not fit.converged and fit.alpha.shape == (1000,)
    assert np.all((fit.alpha >= 0) & (fit.alpha <= 1.0)) and abs(fit.alpha @ y) < 1e-8
    # the reported violation is the whole problem's, as recomputed from alpha
    G = (y[:, None] * y[None, :] * K) @ fit.alpha - 1.0
    v = -y * G
    up = np.where(y > 0, fit.alpha < 1.0, fit.alpha > 0)
    low = np.where(y > 0, fit.alpha > 0, fit.alpha < 1.0)
    assert np.isclose(fit.violation[-1], v[up].max() - v[low].min(), rtol=1e-8, atol=1e-10)
    assert np.all(np.isfinite(fit.decision_function(K)))


def test_any_kernel_of_mlnotes_kernels_by_name():
    # chi-squared on the digits' pixel counts: by name equals the precomputed Gram matrix
    from mlnotes.datasets import load_digits

    d = load_digits()
    X, y = d.X[:300], np.where(d.y[:300] == 1, 1.0, -1.0)
    by_name = svm.smo(X, y, C=1.0, kernel="chi2", gamma=0.05, tol=1e-8)
    K = kernels.chi2_kernel(X, gamma=0.05)
    pre = svm.smo(K, y, C=1.0, kernel="precomputed", tol=1e-8)
    assert np.isclose(by_name.dual_objective[-1], pre.dual_objective[-1], rtol=1e-10)
    Xt = d.X[300:400]
    np.testing.assert_allclose(
        by_name.decision_function(Xt), pre.decision_function(kernels.chi2_kernel(Xt, X, gamma=0.05)), atol=1e-8
    )
    # the sigmoid "kernel" is accepted by name only where its Gram matrix is PSD: here it is not
    with pytest.raises(ValueError, match="kernel='sigmoid'.*indefinite"):
        svm.smo(X, y, kernel="sigmoid", gamma=0.001, coef0=-1.0)  # smallest eigenvalue -6


# -- smo_basic: the chapter's readable SMO, and the oracle of the fast one ----------------------


@pytest.mark.parametrize("params", [
    dict(kernel="linear", C=1.0),
    dict(kernel="rbf", gamma=0.1, C=2.0),
    dict(kernel="poly", degree=2, gamma=1.0, coef0=1.0, C=0.5),  # explicit: SVC's defaults differ
], ids=["linear", "rbf", "poly"])
def test_smo_basic_matches_libsvm_and_smo_matches_it(params):
    h = load_heart_scale()
    basic = svm.smo_basic(h.X, h.y, tol=1e-6, **params)
    assert basic.converged and np.all(np.diff(basic.dual_objective) >= -1e-10)
    # libsvm (scikit-learn's SVC) solves the same dual: same alpha_i y_i on the support vectors
    ref = SVC(C=params["C"], tol=1e-6, **{k: v for k, v in params.items() if k != "C"}).fit(h.X, h.y)
    ours = np.zeros(h.y.size)
    ours[ref.support_] = ref.dual_coef_[0]
    assert np.allclose(basic.alpha * h.y, ours, atol=1e-4 * params["C"])
    # the fast solver (shrinking, lazy rows, O(1) objective) reaches the same optimum
    for shrinking in (False, True):
        fast = svm.smo(h.X, h.y, tol=1e-6, shrinking=shrinking, **params)
        assert abs(fast.dual - basic.dual) <= 1e-9 * abs(basic.dual)
        assert np.allclose(fast.alpha, basic.alpha, atol=1e-4 * params["C"])
        assert abs(fast.b - basic.b) < 1e-4


def test_smo_basic_warns_at_max_iter():
    h = load_heart_scale()
    with pytest.warns(ConvergenceWarning, match="smo_basic stopped at max_iter=5"):
        fit = svm.smo_basic(h.X, h.y, kernel="rbf", gamma=0.1, max_iter=5)
    assert not fit.converged and fit.n_iter == 5


def _iris_standardised():
    ds = load_iris()
    return (ds.X - ds.X.mean(0)) / ds.X.std(0), ds.y


def test_crammer_singer_matches_liblinear_primal_and_certifies_its_gap():
    from sklearn.svm import LinearSVC

    X, y = _iris_standardised()
    fit = svm.crammer_singer(X, y, C=1.0, tol=1e-8)
    ref = LinearSVC(multi_class="crammer_singer", fit_intercept=False, C=1.0, tol=1e-12,
                    max_iter=1_000_000).fit(X, y)
    yi = np.searchsorted(fit.classes, y)
    P_ours = svm.crammer_singer_primal(fit.W, X, yi, 1.0)
    P_ref = svm.crammer_singer_primal(ref.coef_, X, yi, 1.0)
    assert fit.converged and 0.0 <= fit.gap <= 1e-8 * P_ours
    # liblinear's W is a primal point too: weak duality puts it above our dual value, so
    # our gap certifies P_ours - P* for an optimum computed by someone else
    assert P_ref >= fit.dual - 1e-12 * P_ours
    assert abs(P_ours - P_ref) / P_ref <= 2e-8
    assert np.mean(fit.predict(X) == ref.predict(X)) >= 0.99


def test_crammer_singer_rejects_bad_input_and_warns_at_max_iter():
    X, y = _iris_standardised()
    with pytest.raises(ValueError, match="C must be positive"):
        svm.crammer_singer(X, y, C=0.0)
    with pytest.raises(ValueError, match="at least two classes"):
        svm.crammer_singer(X, np.zeros(150))
    with pytest.raises(ValueError, match="NaN"):
        svm.crammer_singer(np.full((3, 2), np.nan), [0, 1, 2])
    with pytest.warns(ConvergenceWarning, match="relative duality gap"):
        fit = svm.crammer_singer(X, y, C=1.0, max_iter=2)
    assert not fit.converged and fit.n_iter == 2 and fit.gap > 0
    assert np.allclose(fit.alpha.sum(axis=1), 1.0) and fit.alpha.min() >= 0.0


# -- tests that kill the surviving mutants of `make mutants MODULE=svm` -------------------------
# (tests/mutation_triage/svm.md lists each mutant with the test that kills it, or why it is
# equivalent)
def _random_dual(seed, n=12, C=1.0):
    """A PSD Gram matrix, labels of both signs and a dual point with entries at 0, at C and free
    (not feasible for sum alpha y = 0: the helpers do not ask for it)."""
    rng = np.random.default_rng(seed)
    Z = rng.standard_normal((n, 3))
    K = Z @ Z.T
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    rng.shuffle(y)
    alpha = rng.choice([0.0, C, 0.3 * C, 0.7 * C], n)
    return alpha, y, K


def _kkt_violation_by_definition(alpha, y, K, C):
    """m - M written from the definition: every pair (s in I_up, t in I_low), one at a time."""
    n = len(y)
    g = np.array([sum(alpha[k] * y[k] * K[i, k] for k in range(n)) for i in range(n)])
    v = [y[i] - g[i] for i in range(n)]  # -y_i G_i with G_i = y_i g_i - 1
    can_up = [(y[t] == 1 and alpha[t] < C) or (y[t] == -1 and alpha[t] > 0) for t in range(n)]
    can_down = [(y[t] == -1 and alpha[t] < C) or (y[t] == 1 and alpha[t] > 0) for t in range(n)]
    gaps = [v[s] - v[t] for s in range(n) for t in range(n) if can_up[s] and can_down[t]]
    return max([0.0, *gaps])


@pytest.mark.parametrize("seed", range(6))
def test_kkt_violation_is_the_largest_violating_pair_gap(seed):
    alpha, y, K = _random_dual(seed, C=2.0)
    assert svm.kkt_violation(alpha, y, K, 2.0) == pytest.approx(
        _kkt_violation_by_definition(alpha, y, K, 2.0), rel=1e-12, abs=1e-12)
    # C = inf is the hard margin's box: no variable is at its upper bound
    assert svm.kkt_violation(alpha, y, K, np.inf) == pytest.approx(
        _kkt_violation_by_definition(alpha, y, K, np.inf), rel=1e-12, abs=1e-12)


def test_kkt_violation_small_values_and_empty_sets():
    # a violation below 1 is reported as such (not clipped up to 1)
    K, y = np.eye(2), np.array([1.0, -1.0])
    assert svm.kkt_violation(np.array([0.8, 0.8]), y, K, 1.0) == pytest.approx(0.4, abs=1e-15)
    # every label +1 at alpha = C: no y_t alpha_t may increase (I_up empty), nothing violates
    assert svm.kkt_violation(np.array([1.0, 1.0]), np.array([1.0, 1.0]), np.eye(2), 1.0) == 0.0
    assert svm.kkt_violation(np.zeros(0), np.zeros(0), np.zeros((0, 0)), 1.0) == 0.0
    # K = 0, so v = y: a point at alpha = C is in no set that would let it grow further
    Z2 = np.zeros((2, 2))
    assert svm.kkt_violation(np.array([1.0, 0.0]), np.array([1.0, -1.0]), Z2, 1.0) == 0.0
    assert svm.kkt_violation(np.array([1.0, 0.0]), np.array([-1.0, 1.0]), Z2, 1.0) == 0.0
    # K = I, C = 2, free values below 1 decide m (first case) and M (second): v = y (1 - alpha)
    assert svm.kkt_violation(np.array([0.5, 1.8]), np.array([-1.0, 1.0]), np.eye(2), 2.0) == \
        pytest.approx(0.3, abs=1e-15)
    assert svm.kkt_violation(np.array([0.5, 1.8]), np.array([1.0, -1.0]), np.eye(2), 2.0) == \
        pytest.approx(0.3, abs=1e-15)


def test_dual_helpers_check_their_arguments_by_name():
    alpha, y, K = _random_dual(0)
    for fn, args in ((svm.dual_objective, (alpha, y, K)), (svm.kkt_violation, (alpha, y, K, 1.0)),
                     (svm.primal_objective, (alpha, 0.0, y, K, 1.0))):
        pos = {"alpha": 0, "K": 2 if fn is not svm.primal_objective else 3}
        for name, i in pos.items():
            bad = list(args)
            bad[i] = np.where(np.ones_like(args[i]) > 0, np.nan, 0.0)
            with pytest.raises(ValueError, match=f"^{name} contains NaN"):
                fn(*bad)
        bad = list(args)
        bad[0] = alpha[:, None]
        with pytest.raises(ValueError, match=r"^alpha must be a 1-D array"):
            fn(*bad)
        bad = list(args)
        bad[pos["K"]] = K[0]
        with pytest.raises(ValueError, match=r"^K must be a 2-D array"):
            fn(*bad)
        for i, short in ((0, alpha[:-1]), (pos["K"], K[:-1])):
            bad = list(args)
            bad[i] = short
            with pytest.raises(ValueError, match=r"^alpha, y and K must have shapes \(n,\), \(n,\), \(n, n\)"):
                fn(*bad)
    with pytest.raises(ValueError, match=r"^C must be positive"):
        svm.kkt_violation(alpha, y, K, -1.0)
    with pytest.raises(ValueError, match=r"^C must be positive"):
        svm.primal_objective(alpha, 0.0, y, K, -1.0)
    with pytest.raises(ValueError, match=r"^b must be a finite number"):
        svm.primal_objective(alpha, np.nan, y, K, 1.0)
    # the box [0, C]: either end alone is refused, with the box in the message
    for a in (np.array([-0.1, 0.5]), np.array([0.5, 1.5])):
        with pytest.raises(ValueError, match=r"^alpha must lie in the box \[0, C\] = \[0, 1\]"):
            svm.kkt_violation(a, np.array([1.0, -1.0]), np.eye(2), 1.0)
        with pytest.raises(ValueError, match=r"^alpha must lie in the box"):
            svm.bias_from_gradient(a, np.array([1.0, -1.0]), np.zeros(2), 1.0)


def test_primal_objective_by_hand():
    # x = (2, 0, 1), linear kernel, labels (+1, -1, +1), alpha y = (0.5, -0.5, 0.25), b = -0.7
    X = np.array([[2.0], [0.0], [1.0]])
    K, y = X @ X.T, np.array([1.0, -1.0, 1.0])
    alpha = np.array([0.5, 0.5, 0.25])
    w = (alpha * y) @ X  # 1.25
    f = X @ w - 0.7  # 1.8, -0.7, 0.55: slacks 0, 0.3, 0.45
    slack = np.maximum(0.0, 1 - y * f)
    assert slack.tolist() == pytest.approx([0.0, 0.3, 0.45])
    assert svm.primal_objective(alpha, -0.7, y, K, 3.0) == pytest.approx(
        0.5 * w @ w + 3.0 * slack.sum(), rel=1e-14)
    # C = inf: the hard margin's primal, ||w||^2 / 2 (the hinge term must vanish there)
    assert svm.primal_objective(alpha, -0.7, y, K, np.inf) == pytest.approx(0.5 * w @ w, rel=1e-14)
    assert svm.dual_objective(alpha, y, K) == pytest.approx(alpha.sum() - 0.5 * w @ w, rel=1e-14)


def test_is_kernel_separable_needs_a_negative_bias_and_weights():
    # x = -2 (+1) and x = 0 (-1), linear kernel: separable, but only with b <= -1 and beta < 0
    K = np.array([[4.0, 0.0], [0.0, 0.0]])
    assert svm.is_kernel_separable(K, np.array([1.0, -1.0]))
    assert svm.is_kernel_separable(K, np.array([-1.0, 1.0]))  # b >= 1, beta > 0
    # three points on a line, the middle one of the other class: not separable
    x = np.array([-1.0, 0.0, 1.0])
    assert not svm.is_kernel_separable(np.outer(x, x), np.array([1.0, -1.0, 1.0]))
    with pytest.raises(ValueError, match=r"^K must be the 2 x 2 Gram matrix of the labelled points"):
        svm.is_kernel_separable(np.eye(3), np.array([1.0, -1.0]))
    with pytest.raises(ValueError, match=r"^K must be a 2-D array"):
        svm.is_kernel_separable(np.ones(2), np.array([1.0, -1.0]))
    with pytest.raises(ValueError, match=r"^K contains NaN"):
        svm.is_kernel_separable(np.full((2, 2), np.nan), np.array([1.0, -1.0]))


def _bias_interval(alpha, y, g):
    """The b allowed by the KKT conditions at bounded alphas: y_i f(x_i) >= 1 where alpha_i = 0,
    <= 1 where alpha_i = C; f = g + b with g = sum_k alpha_k y_k K_ik."""
    lo, hi = -np.inf, np.inf
    for a, yi, gi in zip(alpha, y, g, strict=True):
        if (a == 0) == (yi > 0):  # y_i (g_i + b) >= 1 (alpha = 0) or <= 1 (alpha = C) is b >= ...
            lo = max(lo, yi - gi)
        else:
            hi = min(hi, yi - gi)
    return lo, hi


@pytest.mark.parametrize("seed", range(5))
def test_bias_from_gradient_without_free_vectors_is_the_midpoint_of_the_kkt_interval(seed):
    rng = np.random.default_rng(seed)
    n, C = 10, 0.5  # C < 1: alpha = C is not alpha <= 1 nor alpha > 1
    Z = rng.standard_normal((n, 2))
    K, y = Z @ Z.T, rng.choice([-1.0, 1.0], n)
    alpha = rng.choice([0.0, C], n)
    g = K @ (alpha * y)
    G = y * g - 1.0
    lo, hi = _bias_interval(alpha, y, g)
    assert np.isfinite(lo) and np.isfinite(hi)
    assert svm.bias_from_gradient(alpha, y, G, C) == pytest.approx((lo + hi) / 2, rel=1e-12, abs=1e-12)
    # one side only: the finite end of the interval
    for keep in ((alpha == 0) & (y > 0), (alpha == 0) & (y < 0), (alpha == C) & (y > 0),
                 (alpha == C) & (y < 0)):
        if not keep.any():
            continue
        lo, hi = _bias_interval(alpha[keep], y[keep], g[keep])
        expected = lo if np.isfinite(lo) else hi
        assert svm.bias_from_gradient(alpha[keep], y[keep], G[keep], C) == pytest.approx(
            expected, rel=1e-12, abs=1e-12)


def test_bias_from_gradient_averages_over_the_free_vectors_only():
    y = np.array([1.0, -1.0, 1.0, -1.0, 1.0])
    alpha = np.array([0.25, 0.5, 0.0, 2.0, 2.0])  # free: the first two (free values below 1)
    G = np.array([0.1, -0.3, 5.0, 7.0, -11.0])
    # b = -y_i G_i averaged over the free ones: -(0.1 + 0.3) / 2
    assert svm.bias_from_gradient(alpha, y, G, 2.0) == pytest.approx(-0.2, abs=1e-15)
    # the hard margin (C = inf): every alpha > 0 is free
    assert svm.bias_from_gradient(alpha, y, G, np.inf) == pytest.approx(
        -(0.1 + 0.3 - 7.0 - 11.0) / 4, abs=1e-14)
    with pytest.raises(ValueError, match=r"^alpha contains NaN"):
        svm.bias_from_gradient(np.full(5, np.nan), y, G, 2.0)
    with pytest.raises(ValueError, match=r"^G contains NaN"):
        svm.bias_from_gradient(alpha, y, np.full(5, np.nan), 2.0)
    with pytest.raises(ValueError, match=r"^alpha must be a 1-D array"):
        svm.bias_from_gradient(alpha[:, None], y, G, 2.0)
    with pytest.raises(ValueError, match=r"^G must be a 1-D array"):
        svm.bias_from_gradient(alpha, y, G[:, None], 2.0)
    for a, g in ((alpha[:-1], G), (alpha, G[:-1])):
        with pytest.raises(ValueError, match=r"^alpha, y and G must have one entry per point"):
            svm.bias_from_gradient(a, y, g, 2.0)
    with pytest.raises(ValueError, match=r"^C must be positive"):
        svm.bias_from_gradient(alpha, y, G, -2.0)


# -- the primal trainers, step by step -----------------------------------------------------------
def _small_problem(seed=0, n=11):
    """Eleven points in 2-D (not a multiple of the batch sizes used), labels overlapping, the
    mean squared norm between 1 and 2 (the default step of subgradient_svm depends on it)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 2)) * 0.9 + np.array([0.3, -0.2])
    y = np.where(X[:, 0] - X[:, 1] + 0.8 * rng.standard_normal(n) > 0, 1.0, -1.0)
    return X, y


def _hinge_primal(w, b, X, y, C):
    return 0.5 * w @ w + C * sum(max(0.0, 1.0 - yi * (xi @ w + b)) for xi, yi in zip(X, y, strict=True))


def _subgradient_by_hand(X, y, C, max_iter, eta0):
    """Chapter 4's subgradient method from its formula, one sample at a time: the iterates'
    objective values and the best iterate."""
    w, b = np.zeros(X.shape[1]), 0.0
    trace, best = [], None
    for t in range(1, max_iter + 1):
        P = _hinge_primal(w, b, X, y, C)
        trace.append(P)
        if best is None or P < best[0]:
            best = (P, w.copy(), b)
        gw, gb = w.copy(), 0.0
        for xi, yi in zip(X, y, strict=True):
            if yi * (xi @ w + b) < 1:
                gw -= C * yi * xi
                gb -= C * yi
        w, b = w - eta0 / np.sqrt(t) * gw, b - eta0 / np.sqrt(t) * gb
    return best[1], best[2], np.array(trace)


def test_subgradient_svm_takes_the_steps_of_its_formula():
    X, y = _small_problem()
    # the defaults: C = 1, max_iter = 1000, eta0 = 1 / (C n max(1, mean |x|^2))
    assert 1 < np.mean((X * X).sum(1)) < 2
    fit = svm.subgradient_svm(X, y)
    eta0 = 1.0 / (len(y) * np.mean((X * X).sum(1)))
    w, b, trace = _subgradient_by_hand(X, y, 1.0, 1000, eta0)
    assert fit.n_iter == 1000 and fit.C == 1.0 and fit.objective.shape == (1000,)
    np.testing.assert_allclose(fit.objective, trace, rtol=1e-9)
    np.testing.assert_allclose(np.append(fit.w, fit.b), np.append(w, b), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(fit.decision_function(X), X @ w + b, rtol=1e-9, atol=1e-12)
    # small data (mean |x|^2 < 1): the step is 1 / (C n); a given eta0 is used as it is
    for Xs, kw, eta0 in ((X / 4, {"C": 2.0, "max_iter": 30}, 1.0 / (2.0 * len(y))),
                         (X, {"C": 0.5, "max_iter": 30, "eta0": 0.05}, 0.05)):
        fit = svm.subgradient_svm(Xs, y, **kw)
        w, b, trace = _subgradient_by_hand(Xs, y, kw["C"], 30, eta0)
        np.testing.assert_allclose(fit.objective, trace, rtol=1e-9)
        np.testing.assert_allclose(np.append(fit.w, fit.b), np.append(w, b), rtol=1e-9, atol=1e-12)
    # a margin of exactly 1 is no violation: x = +-1, C = 2, eta0 = 1/4 puts w = 1 after a step
    Xt, yt = np.array([[1.0], [-1.0]]), np.array([1.0, -1.0])
    fit = svm.subgradient_svm(Xt, yt, C=2.0, max_iter=4, eta0=0.25)
    w, b, trace = _subgradient_by_hand(Xt, yt, 2.0, 4, 0.25)
    assert trace[1] == 0.5  # w = 1, b = 0: both margins exactly 1
    np.testing.assert_allclose(fit.objective, trace, rtol=1e-12)


def test_subgradient_svm_refuses_an_unrepresentable_step_and_reports_divergence():
    X, y = _small_problem()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow warning before the error
        for C in (1e308, 1e-320):  # eta0 = 1 / (C n |x|^2) is 0 or inf
            with pytest.raises(ValueError, match=rf"and C = {re.escape(f'{C:.3g}')} leave no representable default "
                                                 r"step eta0 = .*: standardise the columns of X, "
                                                 r"change C or pass eta0$"):
                svm.subgradient_svm(X, y, C=C, max_iter=5)
        # eta0 = 1e3 overflows: the first non-finite objective is the one after the steps taken
        with np.errstate(over="ignore", invalid="ignore"):
            w, b, t = np.zeros(2), 0.0, 0
            while np.isfinite(_hinge_primal(w, b, X, y, 1.0)):
                t += 1
                m = y * (X @ w + b)
                w = w - 1e3 / np.sqrt(t) * (w - (y[m < 1] @ X[m < 1]))
                b = b + 1e3 / np.sqrt(t) * y[m < 1].sum()
        with pytest.raises(ValueError, match=rf"^subgradient_svm diverged: with eta0=1000.0 the iterates "
                                             rf"overflow after {t} steps; take a smaller eta0 \(the "
                                             rf"default eta0=None scales the step to the data\)"):
            svm.subgradient_svm(X, y, eta0=1e3, max_iter=500)
    with pytest.raises(ValueError, match=r"^eta0 must be positive"):
        svm.subgradient_svm(X, y, eta0=-1.0)
    with pytest.raises(ValueError, match=r"^max_iter must be an integer"):
        svm.subgradient_svm(X, y, max_iter=0)
    with pytest.raises(ValueError, match=r"^C must be positive"):
        svm.subgradient_svm(X, y, C=-1.0)


def _pegasos_by_hand(X, y, C, n_epochs, k, fit_intercept, average, schedule, seed):
    """Pegasos from its description: batches of k in a random order per epoch, step
    1/(lam t) (or 2/(lam (t+1))), the hinge subgradient of the batch, the projection onto the
    ball of radius 1/sqrt(lam); returned: the suffix mean of the iterates of the second half
    (or the t-weighted mean), and P at that point after each epoch."""
    Z = np.column_stack([X, np.ones(len(y))]) if fit_intercept else X
    n = len(y)
    lam = 1.0 / (n * C)
    T = n_epochs * int(np.ceil(n / k))
    rng = np.random.default_rng(seed)
    w, t, iterates, trace = np.zeros(Z.shape[1]), 0, [], []

    def averaged():
        if not average:
            return w
        if schedule == "weighted":
            return sum(s * v for s, v in iterates) / sum(s for s, _ in iterates)
        late = [v for s, v in iterates if s > T / 2]
        return np.mean(late, axis=0) if late else w

    for _ in range(n_epochs):
        order = rng.permutation(n)
        for batch in (order[s:s + k] for s in range(0, n, k)):
            t += 1
            eta = 2.0 / (lam * (t + 1)) if schedule == "weighted" else 1.0 / (lam * t)
            step = sum((y[i] * Z[i] for i in batch if y[i] * (Z[i] @ w) < 1), np.zeros_like(w))
            w = (1 - eta * lam) * w + eta / len(batch) * step
            w = w * min(1.0, 1.0 / (np.sqrt(lam) * np.linalg.norm(w))) if w.any() else w
            iterates.append((t, w.copy()))
        wc = averaged()
        trace.append(0.5 * wc @ wc + C * sum(max(0.0, 1 - y[i] * (Z[i] @ wc)) for i in range(n)))
    wc = averaged()
    return (wc[:-1], wc[-1]) if fit_intercept else (wc, 0.0), np.array(trace), t


@pytest.mark.parametrize("kw", [
    {},  # the defaults: C = 1, 10 epochs, batches of 1, intercept, suffix averaging, rng = 0
    {"C": 3.0, "n_epochs": 3, "batch_size": 3, "fit_intercept": False, "average": False, "rng": 4},
    {"C": 0.2, "n_epochs": 4, "batch_size": 4, "rng": 1},  # T = 12: the suffix from t = 7
    {"C": 0.5, "n_epochs": 3, "batch_size": 2, "schedule": "weighted", "rng": 2},
    {"C": 2.0, "n_epochs": 1, "batch_size": 11, "average": False, "rng": 3},
], ids=["defaults", "no-intercept", "suffix", "weighted", "full-batch"])
def test_pegasos_takes_the_steps_of_its_description(kw):
    X, y = _small_problem()
    p = {"C": 1.0, "n_epochs": 10, "batch_size": 1, "fit_intercept": True, "average": True,
         "schedule": "suffix", "rng": 0, **kw}
    (w, b), trace, T = _pegasos_by_hand(X, y, p["C"], p["n_epochs"], p["batch_size"],
                                        p["fit_intercept"], p["average"], p["schedule"], p["rng"])
    fit = svm.pegasos(X, y, **kw)
    assert fit.n_iter == T == p["n_epochs"] * -(-len(y) // p["batch_size"]) and fit.C == p["C"]
    np.testing.assert_allclose(fit.w, w, rtol=1e-9, atol=1e-12)
    assert fit.b == pytest.approx(b, rel=1e-9, abs=1e-12)
    np.testing.assert_allclose(fit.objective, trace, rtol=1e-9)
    if not p["average"]:  # the last iterate lies in the ball of radius 1/sqrt(lam) = sqrt(nC)
        assert np.hypot(np.linalg.norm(fit.w), fit.b) <= np.sqrt(len(y) * p["C"]) * (1 + 1e-12)


def test_pegasos_margin_of_exactly_one_is_no_violation_and_the_projection_binds():
    # C = 1, n = 2: lam = 1/2, the first step (eta = 2) gives w = 2 x_f = (1, 0), inside the ball
    # of radius sqrt(2); the second point's margin x_s . w is then exactly 1: no violation, so the
    # second step (eta = 1) only halves w
    first, second = np.random.default_rng(0).permutation(2)
    X = np.zeros((2, 2))
    X[first], X[second] = [0.5, 0.0], [1.0, 5.0]
    y = np.array([1.0, 1.0])
    fit = svm.pegasos(X, y, C=1.0, n_epochs=1, fit_intercept=False, average=False)
    np.testing.assert_array_equal(fit.w, [0.5, 0.0])
    assert fit.b == 0.0
    # a point far out: the step would leave the ball, the projection brings it back to its edge
    fit = svm.pegasos(np.array([[10.0], [-10.0]]), [1.0, -1.0], C=1.0, n_epochs=1, fit_intercept=False,
                      average=False)
    assert abs(fit.w[0]) == pytest.approx(np.sqrt(2.0) / 2, rel=1e-12)  # radius, then halved


def test_pegasos_checks_its_arguments_by_name():
    X, y = _small_problem()
    with pytest.raises(ValueError, match=r"^n_epochs must be an integer"):
        svm.pegasos(X, y, n_epochs=0)
    with pytest.raises(ValueError, match=r"^batch_size must be an integer"):
        svm.pegasos(X, y, batch_size=0)
    with pytest.raises(ValueError, match=r"^schedule must be 'suffix' or 'weighted', got 'harmonic'"):
        svm.pegasos(X, y, schedule="harmonic")
    with pytest.raises(ValueError, match=r"^C must be positive"):
        svm.pegasos(X, y, C=0.0)
    with pytest.raises(ValueError, match=r"^the scale of X .* too large for a linear SVM in the primal"):
        svm.pegasos(X * 1e200, y)


def _sgd_by_hand(X, y, C, n_epochs, eta, t0, average, seed):
    n = len(y)
    T = n * n_epochs
    rng = np.random.default_rng(seed)
    w, b, t, late, trace = np.zeros(X.shape[1]), 0.0, 0, [], []
    for _ in range(n_epochs):
        for i in rng.permutation(n):
            t += 1
            eta_t = eta / (t + t0)
            hit = y[i] * (X[i] @ w + b) < 1
            w = (1 - eta_t) * w + (eta_t * n * C * y[i] * X[i] if hit else 0.0)
            b = b + (eta_t * n * C * y[i] if hit else 0.0)
            if average and t > T / 2:
                late.append(np.append(w, b))
        wb = np.mean(late, axis=0) if late else np.append(w, b)
        trace.append(_hinge_primal(wb[:-1], wb[-1], X, y, C))
    return wb[:-1], wb[-1], np.array(trace), t


@pytest.mark.parametrize("kw", [
    {},  # the defaults: C = 1, 10 epochs, eta = 1, t0 = 1, averaging, rng = 0
    {"C": 0.3, "n_epochs": 3, "eta": 0.5, "t0": 0.5, "average": False, "rng": 5},
    {"C": 2.0, "n_epochs": 4, "eta": 2.0, "t0": 0.0, "rng": 6},
], ids=["defaults", "last-iterate", "t0=0"])
def test_sgd_svm_takes_the_steps_of_its_formula(kw):
    X, y = _small_problem()
    p = {"C": 1.0, "n_epochs": 10, "eta": 1.0, "t0": 1.0, "average": True, "rng": 0, **kw}
    w, b, trace, T = _sgd_by_hand(X, y, p["C"], p["n_epochs"], p["eta"], p["t0"], p["average"], p["rng"])
    fit = svm.sgd_svm(X, y, **kw)
    assert fit.n_iter == T and fit.C == p["C"]
    np.testing.assert_allclose(np.append(fit.w, fit.b), np.append(w, b), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(fit.objective, trace, rtol=1e-9)


def test_sgd_svm_margin_of_exactly_one_divergence_and_argument_checks():
    # n = 2, C = 1, eta = t0 = 1: the first step (eta_1 = 1/2) gives w = y_f x_f, b = y_f, and
    # the second point's margin y_s y_f (x_s x_f + 1) = 1 exactly: it only shrinks w by 2/3
    X, y = np.array([[1.0], [-2.0]]), np.array([1.0, -1.0])
    f = np.random.default_rng(0).permutation(2)[0]
    fit = svm.sgd_svm(X, y, n_epochs=1, average=False)
    assert fit.w[0] == pytest.approx(2 / 3 * y[f] * X[f, 0], rel=1e-15) and fit.b == y[f]
    Xs, ys = _small_problem()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow warning before the error
        with pytest.raises(ValueError, match=r"^sgd_svm diverged: with eta=1000.0, t0=0.0 the iterates "
                                             r"overflow; take a smaller eta or a larger t0"):
            svm.sgd_svm(Xs, ys, eta=1e3, t0=0.0, n_epochs=50)
    for kw, match in (({"n_epochs": 0}, "n_epochs must be an integer"), ({"eta": 0.0}, "eta must be positive"),
                      ({"t0": -1.0}, "t0 must be non-negative"), ({"C": -1.0}, "C must be positive")):
        with pytest.raises(ValueError, match="^" + match):
            svm.sgd_svm(Xs, ys, **kw)


def test_hinge_objective_by_hand_and_its_argument_checks():
    X, y = _small_problem()
    w, b = np.array([0.7, -1.2]), 0.4
    for C in (1.0, 2.5):
        assert svm.hinge_objective(w, b, X, y, C) == pytest.approx(_hinge_primal(w, b, X, y, C), rel=1e-13)
        assert svm.hinge_objective(w, b, X, y, C, regularise_bias=True) == pytest.approx(
            _hinge_primal(w, b, X, y, C) + 0.5 * b * b, rel=1e-13)
    with pytest.raises(ValueError, match=r"^w contains NaN"):
        svm.hinge_objective(np.array([np.nan, 1.0]), b, X, y, 1.0)
    with pytest.raises(ValueError, match=r"^w must be a 1-D array"):
        svm.hinge_objective(w[:, None], b, X, y, 1.0)
    with pytest.raises(ValueError, match=r"^X has 2 columns but the model was fitted on 3 features"):
        svm.hinge_objective(np.ones(3), b, X, y, 1.0)
    with pytest.raises(ValueError, match=r"^b must be a finite number"):
        svm.hinge_objective(w, np.inf, X, y, 1.0)
    with pytest.raises(ValueError, match=r"^C must be positive"):
        svm.hinge_objective(w, b, X, y, 0.0)


def test_linear_svm_fit_predicts_ties_as_plus_one_and_names_X_new():
    fit = svm.LinearSVMFit(np.array([2.0, -1.0]), -0.5, np.array([1.0]), 1, 1.0)
    Xn = np.array([[0.25, 0.0], [0.5, 0.25], [0.0, 0.0], [1.0, 0.0]])  # f = 0, 0.25, -0.5, 1.5
    np.testing.assert_allclose(fit.decision_function(Xn), [0.0, 0.25, -0.5, 1.5], rtol=0, atol=1e-15)
    np.testing.assert_array_equal(fit.predict(Xn), [1.0, 1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match=r"^X_new has 3 columns but the model was fitted on 2 features"):
        fit.decision_function(np.ones((1, 3)))
    with pytest.raises(ValueError, match=r"^X_new must be a 2-D array"):
        fit.predict(np.ones(2))


# -- the joint multiclass machine -----------------------------------------------------------------
def _simplex_projection_by_bisection(v, total):
    """argmin |a - v| over {a >= 0, sum a = total}: a = max(v - theta, 0) with theta found by
    bisection on the sum (an oracle independent of the sort-based rule)."""
    lo, hi = np.min(v) - total, np.max(v)
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if np.maximum(v - mid, 0.0).sum() > total else (lo, mid)
    return np.maximum(v - (lo + hi) / 2, 0.0)


@pytest.mark.parametrize("v, total", [
    ([2.0, 0.0, -1.0], 1.0), ([0.3, 0.2, 0.1, 0.0], 1.0), ([5.0, 4.0, 3.0, -2.0, 4.5], 3.0),
    ([1.0, 1.0, 1.0], 0.6), ([-3.0, 7.0], 0.5), ([0.1, 0.4, 0.2, 0.3], 1.0),
])
def test_project_simplex_against_bisection(v, total):
    v = np.array(v)
    p = svm.project_simplex(v, total)
    np.testing.assert_allclose(p, _simplex_projection_by_bisection(v, total), rtol=0, atol=1e-12)
    assert p.min() >= 0 and p.sum() == pytest.approx(total, abs=1e-12)


def test_project_simplex_checks_its_arguments_by_name():
    with pytest.raises(ValueError, match=r"^v contains NaN"):
        svm.project_simplex(np.array([np.nan, 1.0]), 1.0)
    with pytest.raises(ValueError, match=r"^v must be a 1-D array"):
        svm.project_simplex(np.ones((2, 2)), 1.0)
    with pytest.raises(ValueError, match=r"^total must be positive"):
        svm.project_simplex(np.ones(2), 0.0)


def _cs_data():
    """Five points in 2-D (n != d != K), three classes with labels 3, 7, 9 (not 0..K-1), one
    row of zeros, norms above and below 1."""
    X = np.array([[1.5, 0.2], [0.3, 0.4], [0.0, 0.0], [-1.2, 0.9], [0.5, -2.0], [0.8, 0.9]])
    y = np.array([3, 3, 7, 7, 9, 9])
    return X, y


def _cs_weights(alpha, X, yi, C):
    onehot = np.eye(alpha.shape[1])[yi]
    return (C * onehot - alpha).T @ X  # w_m = sum_i (C delta_{m y_i} - alpha_im) x_i


def _cs_margins(W, X, yi):
    S = X @ W.T
    return np.array([[float(k != yi[i]) + S[i, k] - S[i, yi[i]] for k in range(W.shape[0])]
                     for i in range(len(yi))])


def test_crammer_singer_helpers_by_hand():
    X, y = _cs_data()
    yi = np.searchsorted([3, 7, 9], y)
    rng = np.random.default_rng(0)
    W = rng.standard_normal((3, 2))
    G = _cs_margins(W, X, yi)
    np.testing.assert_allclose(svm.multiclass_margins(W, X, yi), G, rtol=1e-14, atol=1e-14)
    assert svm.crammer_singer_primal(W, X, yi, 2.5) == pytest.approx(
        0.5 * np.sum(W * W) + 2.5 * G.max(axis=1).sum(), rel=1e-14)
    alpha = np.array([_simplex_projection_by_bisection(rng.standard_normal(3), 2.5) for _ in y])
    Wa = _cs_weights(alpha, X, yi, 2.5)
    lin = sum(alpha[i, k] for i in range(len(y)) for k in range(3) if k != yi[i])
    assert svm.crammer_singer_dual(alpha, X, yi, 2.5) == pytest.approx(-0.5 * np.sum(Wa * Wa) + lin, rel=1e-13)
    # weak duality: any W lies above any feasible alpha's dual
    assert svm.crammer_singer_primal(W, X, yi, 2.5) >= svm.crammer_singer_dual(alpha, X, yi, 2.5)
    # no rows: no margins
    assert svm.multiclass_margins(W, X[:0], yi[:0]).shape == (0, 3)
    # array-likes: nested lists as the arrays (this raised AttributeError: 'list' has no 'shape')
    np.testing.assert_array_equal(svm.multiclass_margins(W.tolist(), X.tolist(), yi.tolist()),
                                  svm.multiclass_margins(W, X, yi))
    assert svm.crammer_singer_primal(W.tolist(), X.tolist(), yi.tolist(), 2.5) == \
        svm.crammer_singer_primal(W, X, yi, 2.5)
    with pytest.raises(ValueError, match=r"^X must be a 2-D array"):
        svm.multiclass_margins(W, X[:, 0], yi)


def test_crammer_singer_helpers_check_their_arguments_by_name():
    X, y = _cs_data()
    yi = np.searchsorted([3, 7, 9], y)
    W, alpha = np.zeros((3, 2)), np.full((6, 3), 1.0 / 3)
    with pytest.raises(ValueError, match=r"^W contains NaN"):
        svm.multiclass_margins(np.full((3, 2), np.nan), X, yi)
    with pytest.raises(ValueError, match=r"^X contains NaN"):
        svm.multiclass_margins(W, np.full((6, 2), np.nan), yi)
    with pytest.raises(ValueError, match=r"^X must be a 2-D array"):
        svm.crammer_singer_dual(alpha, X[:, 0], yi, 1.0)
    with pytest.raises(ValueError, match=r"^alpha contains NaN"):
        svm.crammer_singer_dual(np.full((6, 3), np.nan), X, yi, 1.0)
    with pytest.raises(ValueError, match=r"^alpha must be a 2-D array"):
        svm.crammer_singer_dual(alpha[0], X, yi, 1.0)
    with pytest.raises(ValueError, match=r"^yi contains NaN"):
        svm.multiclass_margins(W, X, np.full(6, np.nan))
    with pytest.raises(ValueError, match=r"^yi must be a 1-D array"):
        svm.multiclass_margins(W, X, yi[:, None])
    for bad in (yi[:-1], np.array([0, 1, 2, 0, 1, 0.5]), np.array([0, 1, 2, 0, 1, -1])):
        with pytest.raises(ValueError, match=r"^yi must hold 6 class indices 0\.\.K-1"):
            svm.multiclass_margins(W, X, bad)
    with pytest.raises(ValueError, match=r"^W has 3 columns, expected 2"):
        svm.multiclass_margins(np.zeros((3, 3)), X, yi)
    with pytest.raises(ValueError, match=r"^yi has a class index 3 beyond the W's classes"):
        svm.multiclass_margins(W, X, np.array([0, 1, 2, 3, 1, 0]))
    with pytest.raises(ValueError, match=r"^yi has a class index 3 beyond the alpha's classes"):
        svm.crammer_singer_dual(alpha, X, np.array([0, 1, 2, 3, 1, 0]), 1.0)
    with pytest.raises(ValueError, match=r"^C must be positive"):
        svm.crammer_singer_primal(W, X, yi, 0.0)
    with pytest.raises(ValueError, match=r"^C must be positive"):
        svm.crammer_singer_dual(alpha, X, yi, -1.0)


def test_crammer_singer_takes_the_block_steps_of_its_description():
    """Three passes replayed from the description: each visited row's alpha_i becomes the
    projection onto the simplex of alpha_i + g_i / |x_i|^2, with W recomputed from alpha (no
    incremental update); the zero row is never visited; after each pass P is recorded and only
    rows with a positive gap term are visited next."""
    X, y = _cs_data()
    C, tol, seed = 0.7, 1e-8, 3
    yi = np.searchsorted([3, 7, 9], y)
    n, K = X.shape[0], 3
    alpha = np.zeros((n, K))
    alpha[np.arange(n), yi] = C
    sq = (X * X).sum(1)
    rng = np.random.default_rng(seed)
    active, trace = np.flatnonzero(sq > 0), []
    for _ in range(3):
        for i in rng.permutation(active):
            g = _cs_margins(_cs_weights(alpha, X, yi, C), X[i:i + 1], yi[i:i + 1])[0]
            alpha[i] = _simplex_projection_by_bisection(alpha[i] + g / sq[i], C)
        W = _cs_weights(alpha, X, yi, C)
        G = _cs_margins(W, X, yi)
        P = 0.5 * np.sum(W * W) + C * G.max(axis=1).sum()
        trace.append(P)
        terms = C * G.max(axis=1) - (alpha * G).sum(axis=1)
        active = np.flatnonzero((terms > 1e-3 * tol * P / n) & (sq > 0))
    D = -0.5 * np.sum(W * W) + sum(alpha[i, k] for i in range(n) for k in range(K) if k != yi[i])
    with pytest.warns(ConvergenceWarning) as rec:
        fit = svm.crammer_singer(X, y, C=C, tol=tol, max_iter=3, rng=seed)
    assert not fit.converged and fit.n_iter == 3 and fit.C == C
    np.testing.assert_array_equal(fit.classes, [3, 7, 9])
    np.testing.assert_allclose(fit.alpha, alpha, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(fit.W, W, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(fit.objective, trace, rtol=1e-10)
    assert fit.dual == pytest.approx(D, rel=1e-10)
    assert fit.gap == pytest.approx(trace[-1] - D, rel=1e-8)
    # the warning, raised at the caller's line
    assert one_warning_at(rec, __file__)
    assert str(rec[0].message) == (f"crammer_singer stopped at max_iter=3 passes with relative duality gap "
                                   f"{(trace[-1] - D) / trace[-1]:.2e} > tol=1e-08")
    np.testing.assert_array_equal(fit.predict(X), np.array([3, 7, 9])[np.argmax(X @ W.T, axis=1)])


def test_crammer_singer_defaults_and_stopping_rule():
    X, y = _iris_standardised()
    X, y = X[::5], y[::5]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # converged: no warning
        fit = svm.crammer_singer(X, y)  # C = 1, tol = 1e-8, rng = 0
        assert fit.converged and fit.C == 1.0
        ref = svm.crammer_singer(X, y, C=1.0, tol=1e-8, rng=0)
        np.testing.assert_array_equal(fit.W, ref.W)
        assert 0 <= fit.gap <= 1e-8 * fit.objective[-1]
        # it stops at the first pass whose relative gap is at most tol, here 1e-3
        loose = svm.crammer_singer(X, y, C=5.0, tol=1e-3)
    assert loose.converged and loose.gap <= 1e-3 * loose.objective[-1] and loose.n_iter >= 2
    with pytest.warns(ConvergenceWarning):
        early = svm.crammer_singer(X, y, C=5.0, tol=1e-3, max_iter=loose.n_iter - 1)
    assert early.gap > 1e-3 * early.objective[-1]
    with pytest.raises(ValueError, match=r"^C must be positive"):
        svm.crammer_singer(X, y, C=0.0)
    with pytest.raises(ValueError, match=r"^tol must be positive"):
        svm.crammer_singer(X, y, tol=0.0)
    with pytest.raises(ValueError, match=r"^max_iter must be an integer"):
        svm.crammer_singer(X, y, max_iter=0)
    with pytest.raises(ValueError, match=r"^y must contain at least two classes, got 1"):
        svm.crammer_singer(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match=r"^the scale of X .* too large for crammer_singer"):
        svm.crammer_singer(X * 1e200, y)
    # two classes are enough
    two = svm.crammer_singer(X[y < 2], y[y < 2], C=1.0)
    assert two.converged and two.W.shape == (2, 4)
    with pytest.raises(ValueError, match=r"^X_new has 2 columns but the model was fitted on 4 features"):
        fit.decision_function(X[:, :2])


# -- fits and multiclass votes ----------------------------------------------------------------------
def _constant_fit(score, d=1):
    """An SVMFit without support vectors: f(x) = score everywhere."""
    return svm.SVMFit(alpha=np.zeros(2), b=score, support=np.zeros(0, dtype=int),
                      dual_objective=np.zeros(1), violation=np.zeros(1), n_iter=0, converged=True,
                      C=1.0, kernel="linear", X_support=np.zeros((0, d)), y=np.array([1.0, -1.0]))


def test_one_vs_one_votes_ties_and_scores_of_exactly_zero():
    classes = np.array([2.0, 5.0, 8.0])
    pairs = ((0, 1), (0, 2), (1, 2))
    Xn = np.zeros((1, 1))

    def vote(s01, s02, s12):
        fits = tuple(_constant_fit(s) for s in (s01, s02, s12))
        return svm.MulticlassFit(classes, fits, pairs, "ovo").predict(Xn)[0]

    assert vote(0.5, 0.5, 0.5) == 2.0  # class 0 wins both of its pairs (scores below 1 count)
    assert vote(-0.5, 0.5, 0.5) == 5.0  # 1 beats 0 and 2: two votes against one each
    assert vote(-0.5, -0.5, -0.5) == 8.0  # 2 wins both
    assert vote(0.5, -0.5, 0.5) == 2.0  # a three-way tie (one vote each): the smallest index
    assert vote(0.0, 0.0, 0.0) == 8.0  # a score of exactly 0 is a win for b: 2 gets two votes
    assert vote(0.0, 0.5, 0.5) == 5.0  # 1 beats 0 at exactly 0, and 2: two votes
    assert vote(0.5, -0.5, -0.5) == 8.0  # 2 wins two pairs as b, 0 one pair as a: one vote each
    # one-vs-rest: the largest score, per row
    fits = (_constant_fit(-0.3), _constant_fit(0.2), _constant_fit(0.1))
    ovr = svm.MulticlassFit(classes, fits, (), "ovr")
    np.testing.assert_array_equal(ovr.predict(np.zeros((3, 1))), [5.0, 5.0, 5.0])
    np.testing.assert_allclose(ovr.decision_function(np.zeros((2, 1))), [[-0.3, 0.2, 0.1]] * 2)


def test_multiclass_on_labels_that_are_not_indices_and_with_a_precomputed_kernel():
    X = np.array([[0.0], [1.0], [5.0], [6.0], [10.0], [11.0]])
    y = np.array([3.0, 3.0, 7.0, 7.0, 9.0, 9.0])
    ovo = svm.one_vs_one(X, y, kernel="rbf", gamma=0.5, C=10.0)
    assert ovo.scheme == "ovo" and ovo.pairs == ((0, 1), (0, 2), (1, 2))
    np.testing.assert_array_equal(ovo.classes, [3.0, 7.0, 9.0])
    np.testing.assert_array_equal(ovo.predict(X), y)
    # each pairwise fit is the binary SVM of its two classes, class a as +1
    for fit, (a, b) in zip(ovo.fits, ovo.pairs, strict=True):
        m = (y == ovo.classes[a]) | (y == ovo.classes[b])
        ref = svm.smo(X[m], np.where(y[m] == ovo.classes[a], 1.0, -1.0), kernel="rbf", gamma=0.5, C=10.0)
        np.testing.assert_allclose(fit.decision_function(X), ref.decision_function(X), atol=1e-9)
    ovr = svm.one_vs_rest(X, y, kernel="rbf", gamma=0.5, C=10.0)
    assert ovr.scheme == "ovr" and ovr.pairs == ()
    np.testing.assert_array_equal(ovr.predict(X), y)
    for fit, c in zip(ovr.fits, ovr.classes, strict=True):
        ref = svm.smo(X, np.where(y == c, 1.0, -1.0), kernel="rbf", gamma=0.5, C=10.0)
        np.testing.assert_allclose(fit.decision_function(X), ref.decision_function(X), atol=1e-9)
    # one-vs-rest on the Gram matrix: the same scores as on X
    K = kernels.rbf_kernel(X, gamma=0.5)
    pre = svm.one_vs_rest(K, y, kernel="precomputed", C=10.0)
    np.testing.assert_allclose(pre.decision_function(K), ovr.decision_function(X), atol=1e-8)
    # smo's own messages for its precomputed X (one check, svm._check_gram_and_labels)
    with pytest.raises(ValueError, match=r"^X \(the precomputed Gram matrix\) contains NaN"):
        svm.one_vs_rest(np.full((6, 6), np.nan), y, kernel="precomputed")
    with pytest.raises(ValueError, match=r"^X \(the precomputed Gram matrix\) must be a 2-D array"):
        svm.one_vs_rest(K[0], y, kernel="precomputed")
    with pytest.raises(ValueError, match=r"^y contains NaN"):
        svm.one_vs_rest(K, np.full(6, np.nan), kernel="precomputed")
    with pytest.raises(ValueError, match=r"^y must be a 1-D array"):
        svm.one_vs_rest(K, y[:, None], kernel="precomputed")
    with pytest.raises(ValueError, match=r"^y must contain at least two classes, got 1"):
        svm.one_vs_one(X, np.ones(6))
    with pytest.raises(ValueError, match=r"^y must be a 1-D array"):
        svm.one_vs_one(K, y[:, None], kernel="precomputed")
    # a Gram matrix is checked against y by smo, which names it
    with pytest.raises(ValueError, match=r"^X is a 6 x 6 Gram matrix but y has 5 entries"):
        svm.one_vs_rest(K, y[:5], kernel="precomputed")
    # two classes are enough
    assert len(svm.one_vs_rest(X[:4], y[:4], kernel="linear").fits) == 2


def test_svm_fit_without_support_vectors_and_with_one():
    X, y = _small_problem()
    # tol = 3 > m - M = 2 at alpha = 0: converged at the start, no support vector, and b the
    # midpoint of the KKT interval [-1, 1] of alpha = 0, that is 0: every score is a tie, +1
    fit = svm.smo(X, y, tol=3.0)
    assert fit.converged and fit.n_iter == 0 and fit.support.size == 0 and fit.b == 0.0
    np.testing.assert_array_equal(fit.decision_function(X[:4]), np.zeros(4))
    np.testing.assert_array_equal(fit.predict(X[:4]), np.ones(4))
    # built by hand with one support vector: f(x) = alpha y k(x_s, x) + b
    one = svm.SVMFit(alpha=np.array([0.0, 0.5]), b=0.25, support=np.array([1]),
                     dual_objective=np.zeros(1), violation=np.zeros(1), n_iter=0, converged=True,
                     C=1.0, kernel="rbf", kernel_params={"gamma": 0.5}, X_support=np.array([[1.0, 2.0]]),
                     y=np.array([1.0, -1.0]))
    Xn = np.array([[1.0, 2.0], [0.0, 0.0]])
    np.testing.assert_allclose(one.decision_function(Xn), [0.25 - 0.5, 0.25 - 0.5 * np.exp(-2.5)], rtol=1e-14)
    # the precomputed fit names X_new
    K = kernels.linear_kernel(X)
    pfit = svm.smo(K, y, kernel="precomputed")
    assert pfit.X_support is None  # the training points are not known, only their Gram matrix
    with pytest.raises(ValueError, match=r"^X_new must be a 2-D array"):
        pfit.decision_function(K[0])
    with pytest.raises(ValueError, match=r"^X_new contains NaN"):
        pfit.decision_function(np.full((2, len(y)), np.nan))
    with pytest.raises(ValueError, match=r"^with kernel='precomputed', X_new must be the \(m, n\) Gram "
                                         r"matrix against the 11 training points, got shape \(2, 10\)"):
        pfit.decision_function(K[:2, :10])
    np.testing.assert_allclose(pfit.decision_function(K[:3]),
                               svm.smo(X, y).decision_function(X[:3]), atol=1e-9)
    lfit = svm.smo(X, y)
    f = lfit.decision_function(X)
    assert (f < 0).any() and (f > 0).any()
    np.testing.assert_array_equal(lfit.predict(X), np.where(f >= 0, 1.0, -1.0))
    with pytest.raises(ValueError, match=r"^X_new has 3 columns but the model was fitted on 2 features"):
        lfit.decision_function(np.ones((1, 3)))


# -- SMO: defaults, traces, KKT conditions of the result, warnings, argument checks -----------------
def _check_kkt_of_fit(fit, X, y, K, C, tol):
    """The KKT conditions of the returned dual: 0 <= alpha <= C, sum alpha y = 0, and the margins
    y_i f(x_i): >= 1 at alpha_i = 0, = 1 on the free vectors, <= 1 at alpha_i = C, each within
    the stopping tolerance."""
    a = fit.alpha
    assert a.min() >= 0 and a.max() <= C and abs(a @ y) <= 1e-10 * max(1.0, a.sum())
    margin = y * (K @ (a * y) + fit.b)
    free = (a > 0) & (a < C)
    assert free.any()
    assert np.abs(margin[free] - 1).max() <= tol
    assert np.all(margin[a == 0] >= 1 - tol) and np.all(margin[a == C] <= 1 + tol)
    np.testing.assert_allclose(fit.decision_function(X), K @ (a * y) + fit.b, rtol=1e-12, atol=1e-12)


def _overlapping_40():
    """40 points in 3-D, classes overlapping: SMO's violation falls gradually (about 150
    iterations with the defaults), so that the default tol shows."""
    rng = np.random.default_rng(1)
    X = rng.standard_normal((40, 3))
    return X, np.where(X[:, 0] + X[:, 1] + 0.7 * rng.standard_normal(40) > 0, 1.0, -1.0)


def test_smo_defaults_traces_and_the_kkt_conditions_of_its_result():
    X, y = _overlapping_40()
    K = X @ X.T
    seen = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # converged: no warning
        fit = svm.smo(X, y, callback=lambda t, a: seen.append((t, a.copy())))
        ref = svm.smo(X, y, C=1.0, kernel="linear", tol=1e-3, max_iter=100_000, shrinking=True,
                      cache_rows=2000)
    np.testing.assert_array_equal(fit.alpha, ref.alpha)
    assert fit.C == 1.0 and fit.kernel == "linear" and fit.n_iter == ref.n_iter >= 2 and fit.converged
    # tol = 1e-3: the first violation below it stops the loop
    assert fit.violation[-1] < 1e-3 and np.all(fit.violation[:-1] >= 1e-3)
    assert fit.violation[0] == 2.0  # m - M at alpha = 0 (one entry per pass, shrinking passes too)
    _check_kkt_of_fit(fit, X, y, K, 1.0, 1e-3)
    # the callback sees t = 1, 2, ... and alpha after each step; the objective trace is D(alpha_t)
    assert [t for t, _ in seen] == list(range(1, fit.n_iter + 1))
    assert fit.dual_objective.shape == (fit.n_iter + 1,) and fit.dual_objective[0] == 0.0
    for t, a in seen:
        assert fit.dual_objective[t] == pytest.approx(svm.dual_objective(a, y, K), rel=1e-12, abs=1e-12)
    np.testing.assert_array_equal(seen[-1][1], fit.alpha)
    np.testing.assert_array_equal(fit.support, np.flatnonzero(fit.alpha > 0))
    np.testing.assert_array_equal(fit.X_support, X[fit.support])
    np.testing.assert_allclose(fit.coef, (fit.alpha * y) @ X, rtol=1e-12, atol=1e-15)
    np.testing.assert_array_equal(fit.dual_coef, (fit.alpha * y)[fit.support])


@pytest.mark.parametrize("C", [0.3, np.inf])
def test_smo_without_shrinking_reports_the_violation_of_each_iterate(C):
    X, y = _small_problem()
    if np.isinf(C):
        y = np.where(X[:, 0] - X[:, 1] > 0, 1.0, -1.0)  # separable: the hard margin exists
    K = X @ X.T
    seen = [(0, np.zeros(len(y)))]
    fit = svm.smo(X, y, C=C, tol=1e-8, shrinking=False, callback=lambda t, a: seen.append((t, a.copy())))
    assert fit.converged and len(seen) == fit.n_iter + 1 and fit.violation.shape == (fit.n_iter + 1,)
    for t, a in seen:
        assert fit.violation[t] == pytest.approx(svm.kkt_violation(a, y, K, C), rel=1e-9, abs=1e-12)
    _check_kkt_of_fit(fit, X, y, K, C, 1e-8)
    # the same optimum as the chapter's solver
    if np.isfinite(C):
        basic = svm.smo_basic(X, y, C=C, tol=1e-8)
        np.testing.assert_allclose(fit.alpha, basic.alpha, atol=1e-7)
        assert fit.b == pytest.approx(basic.b, abs=1e-7)


def test_smo_stops_only_below_tol_and_warns_at_max_iter():
    X, y = _small_problem()
    # linear kernel: at alpha = 0 the violation is exactly 2; tol = 2 is not met by it
    for solver in (svm.smo, svm.smo_basic):
        fit = solver(X, y, tol=2.0)
        assert fit.violation[0] == 2.0 and fit.n_iter >= 1 and fit.violation[-1] < 2.0
    with pytest.warns(ConvergenceWarning) as rec:
        fit = svm.smo(X, y, tol=1e-12, max_iter=3)
    assert not fit.converged and fit.n_iter == 3 and len(fit.violation) == 4
    assert one_warning_at(rec, __file__)
    assert str(rec[0].message) == (f"smo stopped at max_iter=3 with maximal KKT violation "
                                   f"{fit.violation[-1]:.3g} > tol=1e-12; raise max_iter or tol")
    with pytest.warns(ConvergenceWarning) as rec:
        fit = svm.smo_basic(X, y, tol=1e-12, max_iter=3)
    assert not fit.converged and fit.n_iter == 3
    assert one_warning_at(rec, __file__)
    assert str(rec[0].message) == (f"smo_basic stopped at max_iter=3 with maximal KKT violation "
                                   f"{fit.violation[-1]:.3g} > tol=1e-12")


def test_smo_basic_defaults_and_trace():
    X, y = _overlapping_40()
    K = X @ X.T
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = svm.smo_basic(X, y)  # C = 1, linear, tol = 1e-3
    assert fit.C == 1.0 and fit.kernel == "linear" and fit.converged
    assert fit.violation[-1] < 1e-3 and np.all(fit.violation[:-1] >= 1e-3)
    _check_kkt_of_fit(fit, X, y, K, 1.0, 1e-3)
    assert fit.dual_objective[0] == 0.0 and fit.dual_objective.shape == (fit.n_iter + 1,)
    assert fit.dual_objective[-1] == pytest.approx(svm.dual_objective(fit.alpha, y, K), rel=1e-12)
    assert np.all(np.diff(fit.dual_objective) > 0)
    np.testing.assert_array_equal(fit.support, np.flatnonzero(fit.alpha > 0))
    # the fast solver reaches the same dual value (each within its tolerance of the optimum)
    assert svm.smo(X, y, tol=1e-9).dual == pytest.approx(fit.dual, rel=1e-4)
    # an rbf fit keeps its gamma for predictions
    rbf = svm.smo_basic(X, y, kernel="rbf", gamma=0.5)
    assert rbf.kernel_params == {"gamma": 0.5}
    Kr = kernels.rbf_kernel(X, gamma=0.5)
    np.testing.assert_allclose(rbf.decision_function(X[:5]), Kr[:5] @ (rbf.alpha * y) + rbf.b, rtol=1e-10,
                               atol=1e-12)


@pytest.mark.parametrize("name", ["smo", "smo_basic"])
def test_smo_checks_its_arguments_by_name(name):
    solver = getattr(svm, name)
    X, y = _small_problem()
    for kw, match in (({"C": 0.0}, "C must be positive"), ({"tol": 0.0}, "tol must be positive"),
                      ({"max_iter": 0}, "max_iter must be an integer >= 1")):
        with pytest.raises(ValueError, match="^" + match):
            solver(X, y, **kw)
    with pytest.raises(ValueError, match=r"^y must take values in"):
        solver(X, (y + 1) / 2)
    with pytest.raises(ValueError, match=r"^y must contain both classes"):
        solver(X, np.ones(len(y)))
    # poly with coef0 < 0 on small inputs: every entry near (-1)^3, a negative diagonal
    what = "kernel='poly'" if name == "smo" else "the poly kernel"
    with pytest.raises(ValueError, match=f"^the Gram matrix of {what} is not positive semidefinite: it "
                                         "has a negative diagonal entry"):
        solver(X * 0.01, y, kernel="poly", coef0=-1.0)
    with pytest.raises(ValueError, match=r"^the Gram matrix of (kernel='sigmoid'|the sigmoid kernel) .*indefinite"):
        solver(X, y, kernel="sigmoid", gamma=1.0, coef0=-1.0)


def test_smo_data_checks_name_what_they_refuse():
    X, y = _small_problem()
    K = X @ X.T
    with pytest.raises(ValueError, match=r"^cache_rows must be an integer >= 0"):
        svm.smo(X, y, cache_rows=-1)
    assert svm.smo(X, y, cache_rows=0).converged
    with pytest.raises(ValueError, match=r"^kernel must be one of \['additive_chi2', .*'precomputed' or a "
                                         r"callable, got 'laplacian'"):
        svm.smo(X, y, kernel="laplacian")
    with pytest.raises(ValueError, match=r"^kernel must be one of \['additive_chi2', .*, got 'laplacian'"):
        svm.smo_basic(X, y, kernel="laplacian")
    pre = "X \\(the precomputed Gram matrix\\)"
    with pytest.raises(ValueError, match=f"^{pre} contains NaN"):
        svm.smo(np.full_like(K, np.nan), y, kernel="precomputed")
    with pytest.raises(ValueError, match=f"^{pre} must be a 2-D array"):
        svm.smo(K[0], y, kernel="precomputed")
    with pytest.raises(ValueError, match=f"^{pre} is not symmetric"):
        svm.smo(K + np.triu(np.ones_like(K), 1), y, kernel="precomputed")
    with pytest.raises(ValueError, match=r"^y contains NaN"):
        svm.smo(K, np.full(len(y), np.nan), kernel="precomputed")
    with pytest.raises(ValueError, match=r"^y must be a 1-D array"):
        svm.smo(K, y[:, None], kernel="precomputed")
    with pytest.raises(ValueError, match=r"^X is a 11 x 11 Gram matrix but y has 10 entries$"):
        svm.smo(K, y[:-1], kernel="precomputed")
    with pytest.raises(ValueError, match=r"^y must contain both classes"):
        svm.smo(K, np.ones(len(y)), kernel="precomputed")
    # an eigenvalue of -5e-9 times the largest: rounding to smo (rtol 1e-8), not an indefinite kernel
    v = np.linalg.svd(X)[0][:, -1]  # K v = 0
    lam = np.linalg.eigvalsh(K)[-1]
    K_round = K - 5e-9 * lam * np.outer(v, v)
    assert svm.smo(K_round, y, kernel="precomputed").converged
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", kernels.NotPSDWarning)  # kernels.gram's note on it
        assert svm.smo(X, y, kernel=lambda U, V: K_round if U.shape[0] == len(y) else U @ V.T).converged
    with pytest.raises(ValueError, match=r"^the Gram matrix of the callable kernel is not positive"), \
            pytest.warns(kernels.NotPSDWarning, match="not positive semidefinite"):
        svm.smo(X, y, kernel=lambda U, V: -(U @ V.T))
    with pytest.raises(ValueError, match=r"^C=inf asks for the hard margin, but the data are not separable in "
                                         r"the feature space of this kernel \(no w, b with y_i f\(x_i\) >= 1 "
                                         r"for all i\); use a finite C$"):
        svm.smo(X, y, C=np.inf)


def test_two_variable_step_labels_and_zero_curvature():
    with pytest.raises(ValueError, match=r"^yi and yj must be labels in \{-1, \+1\}, got 2.0, 1.0"):
        svm.two_variable_step(0.0, 0.0, 2.0, 1.0, -1.0, -1.0, 1.0, 1.0, 0.0, 1.0)
    with pytest.raises(ValueError, match=r"^yi and yj must be labels in \{-1, \+1\}, got 1.0, 0.5"):
        svm.two_variable_step(0.0, 0.0, 1.0, 0.5, -1.0, -1.0, 1.0, 1.0, 0.0, 1.0)
    # a repeated point with opposite labels: a = 0, libsvm's tiny curvature, the step to the box
    assert svm.two_variable_step(0.0, 0.0, 1.0, -1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0) == (1.0, 1.0)
    # a repeated point with the same label: a = 0 and no gradient difference, no step
    assert svm.two_variable_step(0.3, 0.2, 1.0, 1.0, -0.5, -0.5, 1.0, 1.0, 1.0, 1.0) == (0.3, 0.2)


@pytest.mark.parametrize("n, C, gamma", [(150, 2.0, 0.5), (120, 5.0, 1.0)])
def test_smo_shrinking_drops_and_restores_variables_without_changing_the_answer(n, C, gamma):
    rng = np.random.default_rng(7)
    X = rng.standard_normal((n, 4))
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.standard_normal(n) > 0, 1.0, -1.0)
    K = kernels.rbf_kernel(X, gamma=gamma)
    shrunk = svm.smo(X, y, C=C, kernel="rbf", gamma=gamma, tol=1e-6)
    plain = svm.smo(X, y, C=C, kernel="rbf", gamma=gamma, tol=1e-6, shrinking=False)
    # shrinking happened: a pass that shrinks, and the one that restores, take no step
    assert len(shrunk.violation) > shrunk.n_iter + 1 and len(plain.violation) == plain.n_iter + 1
    assert shrunk.converged and plain.converged
    # the last violation is the whole problem's, recomputed from alpha, and below tol
    full = svm.kkt_violation(shrunk.alpha, y, K, C)
    assert full < 1e-6 and shrunk.violation[-1] == pytest.approx(full, rel=1e-6, abs=1e-12)
    assert shrunk.dual == pytest.approx(svm.dual_objective(shrunk.alpha, y, K), rel=1e-12)
    assert shrunk.dual == pytest.approx(plain.dual, rel=1e-10)
    np.testing.assert_allclose(shrunk.alpha, plain.alpha, atol=1e-6 * C)
    assert shrunk.b == pytest.approx(plain.b, abs=1e-6)
    np.testing.assert_array_equal(shrunk.support, np.flatnonzero(shrunk.alpha > 0))
    # the kernel's parameters are kept for predictions
    assert shrunk.kernel_params == {"gamma": gamma}
    np.testing.assert_allclose(shrunk.decision_function(X[:5]), K[:5] @ (shrunk.alpha * y) + shrunk.b,
                               rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_smo_picks_the_working_sets_of_the_chapters_solver(seed):
    """The same second-order rule (j maximises b_it^2 / a_it): without shrinking, smo's first
    steps are smo_basic's (later ones may part at a near-tie, by rounding)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((40, 3))
    y = np.where(X[:, 0] + X[:, 1] + 0.7 * rng.standard_normal(40) > 0, 1.0, -1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # six steps only
        basic = svm.smo_basic(X, y, tol=1e-6, max_iter=6)
        fast = svm.smo(X, y, tol=1e-6, max_iter=6, shrinking=False)
    assert fast.n_iter == basic.n_iter == 6
    np.testing.assert_allclose(fast.dual_objective, basic.dual_objective, rtol=1e-9)
    np.testing.assert_allclose(fast.alpha, basic.alpha, rtol=1e-9, atol=1e-12)


def test_smo_stopped_while_shrunk_keeps_its_trace_and_reports_the_whole_violation():
    rng = np.random.default_rng(7)
    X = rng.standard_normal((120, 4))
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.standard_normal(120) > 0, 1.0, -1.0)
    K = kernels.rbf_kernel(X, gamma=1.0)
    full = svm.smo(X, y, C=5.0, kernel="rbf", gamma=1.0, tol=1e-6)
    with pytest.warns(ConvergenceWarning, match="max_iter=300"):
        cut = svm.smo(X, y, C=5.0, kernel="rbf", gamma=1.0, tol=1e-6, max_iter=300)
    assert cut.n_iter == 300 and not cut.converged
    # the same steps up to there: the trace is the longer run's, but for its last entry, which
    # is the whole problem's violation at the returned alpha
    k = len(cut.violation) - 1
    np.testing.assert_array_equal(cut.violation[:k], full.violation[:k])
    assert cut.violation[-1] == pytest.approx(svm.kkt_violation(cut.alpha, y, K, 5.0), rel=1e-9)
