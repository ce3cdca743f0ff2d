"""Tests of mlnotes.online (perceptron, winnow, SGD) and mlnotes.optim."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning as SkConvergenceWarning
from sklearn.linear_model import Perceptron, SGDClassifier

from mlnotes import ConvergenceWarning, online, optim, to_pm1
from mlnotes.datasets import load_breast_cancer


def separable(seed, n=60, d=3, gamma=0.2):
    rng = np.random.default_rng(seed)
    u = rng.standard_normal(d)
    u /= np.linalg.norm(u)
    X = rng.standard_normal((20 * n, d))
    X = X[np.abs(X @ u) >= gamma][:n]
    return X, np.sign(X @ u), u


def xor():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    return X, np.array([-1.0, -1.0, 1.0, 1.0])


# -- perceptron ---------------------------------------------------------------------------------

def test_perceptron_separates_separable_data():
    X, y, _ = separable(0)
    fit = online.perceptron(X, y)
    assert fit.converged
    assert np.all(fit.predict(X) == y)
    assert fit.n_mistakes == fit.mistakes.sum() == fit.mistake_steps.size == fit.mistake_index.size
    assert fit.mistakes[-1] == 0


def test_perceptron_non_separable_warns_with_mistake_count():
    X, y = xor()
    with pytest.warns(ConvergenceWarning, match=r"n_epochs=7 epochs: \d+ mistakes"):
        fit = online.perceptron(X, y, n_epochs=7, fit_intercept=True)
    assert not fit.converged
    assert fit.n_epochs == 7


@pytest.mark.parametrize("seed", range(5))
def test_perceptron_within_bound(seed):
    X, y, u = separable(seed, n=200, d=5, gamma=0.05)
    fit = online.perceptron(X, y, shuffle=True, rng=seed, n_epochs=10_000)
    assert fit.converged
    assert fit.n_mistakes <= online.perceptron_bound(X, y, u)


def test_perceptron_bound_rejects_a_non_separator():
    X, y, u = separable(1)
    with pytest.raises(ValueError, match="does not separate"):
        online.perceptron_bound(X, y, -u)


@pytest.mark.parametrize("fit_intercept", [False, True])
def test_perceptron_matches_sklearn(fit_intercept):
    """sklearn's Perceptron (eta0=1, no penalty, in order) runs the same updates on y f(x) <= 0."""
    X, y, _ = separable(3, n=80, d=4, gamma=0.1)
    if fit_intercept:
        X = X + 0.7  # a separator with a bias is needed
        y = np.sign(X @ np.array([1.0, -1.0, 0.5, 0.0]) - 0.4)
    ours = online.perceptron(X, y, fit_intercept=fit_intercept, n_epochs=1000)
    sk = Perceptron(eta0=1.0, penalty=None, shuffle=False, tol=None, max_iter=ours.n_epochs + 3,
                    fit_intercept=fit_intercept)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SkConvergenceWarning)
        sk.fit(X, y)
    assert ours.converged
    np.testing.assert_allclose(ours.w, sk.coef_.ravel(), rtol=1e-12, atol=1e-12)
    assert ours.b == pytest.approx(float(sk.intercept_[0]) if fit_intercept else 0.0, abs=1e-12)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [({"n_epochs": 0}, "n_epochs must be an integer >= 1"),
     ({"n_epochs": 2.5}, "n_epochs must be an integer >= 1")],
)
def test_perceptron_bad_hyperparameters(kwargs, match):
    X, y, _ = separable(0)
    with pytest.raises(ValueError, match=match):
        online.perceptron(X, y, **kwargs)


@pytest.mark.parametrize("algo", [online.perceptron, online.winnow, online.sgd])
def test_labels_must_be_pm1(algo):
    X, y, _ = separable(0)
    with pytest.raises(ValueError, match=r"y must take values in \{-1, \+1\}.*to_pm1"):
        algo(X / 10, (y + 1) / 2)


@pytest.mark.parametrize("algo", [online.perceptron, online.winnow, online.sgd])
def test_bad_arrays(algo):
    X, y, _ = separable(0)
    X = X / 10
    with pytest.raises(ValueError, match="X must be a 2-D array"):
        algo(X[:, 0], y)
    with pytest.raises(ValueError, match="different numbers of samples"):
        algo(X, y[:-1])
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="X contains NaN"):
        algo(Xn, y)


# -- winnow ---------------------------------------------------------------------------------------

def sparse_target(seed, m=300, n=100, k=3):
    rng = np.random.default_rng(seed)
    X = rng.choice([-1.0, 1.0], size=(m, n))
    S = rng.choice(n, size=k, replace=False)
    return X, np.sign(X[:, S].sum(axis=1)), S


@pytest.mark.parametrize("seed", range(4))
def test_winnow_learns_sparse_target_within_bound(seed):
    k = 3
    X, y, S = sparse_target(seed, k=k)
    rho = 1.0 / k
    fit = online.winnow(X, y, eta=rho)
    assert fit.converged
    assert np.all(fit.predict(X) == y)
    assert fit.n_mistakes <= online.winnow_bound(rho, 2 * X.shape[1], rho) == pytest.approx(
        2 * np.log(2 * X.shape[1]) / rho**2)
    assert np.all(fit.v >= 0) and fit.v.sum() == pytest.approx(1.0)
    # the weight concentrates on the relevant coordinates
    assert set(np.argsort(np.abs(fit.w))[-k:]) == set(S)


def test_winnow_rejects_features_outside_unit_box():
    X, y, _ = sparse_target(0)
    with pytest.raises(ValueError, match=r"winnow needs features in \[-1, 1\].*got max \|x_ij\| = 2"):
        online.winnow(2 * X, y)


def test_winnow_without_doubling_cannot_learn_negative_weights():
    X, y, S = sparse_target(1, k=1)
    y = -y  # the target -x_s needs a negative weight
    with pytest.warns(ConvergenceWarning, match="doubled=True"):
        fit = online.winnow(X, y, doubled=False, n_epochs=5, eta=0.5)
    assert not fit.converged
    assert online.winnow(X, y, doubled=True, eta=0.5).converged


def test_winnow_bound_needs_small_eta():
    with pytest.raises(ValueError, match="eta < 2 \\* rho"):
        online.winnow_bound(0.1, 10, 0.3)
    with pytest.raises(ValueError, match="eta must be positive"):
        online.winnow(*sparse_target(0)[:2], eta=0.0)


# -- SGD -----------------------------------------------------------------------------------------

def blobs(seed, n=300, d=4):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X @ rng.standard_normal(d) + 0.3 * rng.standard_normal(n) + 0.2 > 0, 1.0, -1.0)
    return X, y


@pytest.mark.parametrize(("loss", "sk_loss"), [("hinge", "hinge"), ("log", "log_loss"),
                                               ("perceptron", "perceptron")])
@pytest.mark.parametrize("power_t", [0.0, 0.5])
def test_sgd_matches_sklearn_sgdclassifier(loss, sk_loss, power_t):
    """batch_size=1, in order: both run w <- (1 - eta_t lam) w - eta_t phi'(M) y x."""
    X, y = blobs(0)
    eta, lam, epochs = 0.05, 1e-3, 4
    ours = online.sgd(X, y, loss=loss, eta=eta, lam=lam, n_epochs=epochs, shuffle=False, power_t=power_t)
    sk = SGDClassifier(loss=sk_loss, penalty="l2", alpha=lam, eta0=eta, shuffle=False, tol=None,
                       max_iter=epochs, power_t=power_t,
                       learning_rate="constant" if power_t == 0 else "invscaling")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SkConvergenceWarning)
        sk.fit(X, y)
    np.testing.assert_allclose(ours.w, sk.coef_.ravel(), rtol=1e-7, atol=1e-9)
    assert ours.b == pytest.approx(float(sk.intercept_[0]), rel=1e-7, abs=1e-9)


@pytest.mark.parametrize(("batch_size", "power_t", "epochs", "atol"), [(400, 0.0, 2000, 1e-7),
                                                                       (20, 1.0, 200, 2e-2)])
def test_sgd_log_loss_reaches_logistic_regression(batch_size, power_t, epochs, atol):
    """Full-batch steps reach sklearn's L2 logistic regression optimum to 1e-7, i.e. both minimise
    the same objective; mini-batches with eta_t ~ 1/t get close (SGD noise)."""
    from sklearn.linear_model import LogisticRegression

    X, y = blobs(1, n=400, d=3)
    lam = 0.05
    fit = online.sgd(X, y, loss="log", eta=1.0 if power_t == 0 else 1 / lam, power_t=power_t,
                     lam=lam, n_epochs=epochs, batch_size=batch_size, rng=0)
    # LogisticRegression minimises 1/2 ||w||^2 + C sum log-loss (bias unpenalised): C = 1/(n lam)
    lr = LogisticRegression(C=1 / (len(y) * lam), tol=1e-12, max_iter=10_000).fit(X, y)
    np.testing.assert_allclose(fit.w, lr.coef_.ravel(), atol=atol)
    assert fit.b == pytest.approx(float(lr.intercept_[0]), abs=atol)


def test_sgd_traces_and_convergence_flag():
    X, y = blobs(2)
    fit = online.sgd(X, y, loss="log", eta=0.5, n_epochs=500, batch_size=10, tol=1e-4, rng=1,
                     power_t=0.75, lam=0.01)
    assert fit.converged
    assert fit.objective.shape == (fit.n_epochs + 1,)
    assert fit.running.shape == fit.eta.shape == (fit.n_iter,)
    assert fit.n_iter == fit.n_epochs * 30
    assert fit.objective[-1] < fit.objective[0]


def test_sgd_warns_on_epoch_limit_and_divergence():
    X, y = blobs(3)
    with pytest.warns(ConvergenceWarning, match="did not converge in n_epochs=1"):
        online.sgd(X, y, loss="hinge", eta=0.1, n_epochs=1, tol=1e-12)
    with pytest.warns(ConvergenceWarning, match="diverged"):
        fit = online.sgd(X * 100, y, loss="quadratic", eta=10.0, n_epochs=3)
    assert not fit.converged


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [({"loss": "square"}, "loss must be one of"),
     ({"eta": 0.0}, "eta must be positive, got 0.0"),
     ({"eta": -1}, "eta must be positive"),
     ({"lam": -0.1}, "lam must be non-negative"),
     ({"batch_size": 0}, "batch_size must be an integer >= 1"),
     ({"n_epochs": 0}, "n_epochs must be an integer >= 1"),
     ({"power_t": -1}, "power_t must be non-negative"),
     ({"running_alpha": 0}, "running_alpha must lie in")],
)
def test_sgd_bad_hyperparameters(kwargs, match):
    X, y = blobs(0)
    with pytest.raises(ValueError, match=match):
        online.sgd(X, y, **kwargs)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), batch_size=st.integers(1, 64))
def test_sgd_property_batch_equals_full_gradient_step(seed, batch_size):
    """With a batch of the whole data, one epoch is one full gradient step from 0."""
    rng = np.random.default_rng(seed)
    n = batch_size
    X = rng.standard_normal((n, 3))
    y = rng.choice([-1.0, 1.0], n)
    fit = online.sgd(X, y, loss="log", eta=0.3, batch_size=n, n_epochs=1, shuffle=True, rng=seed)
    # from w = 0 every margin is 0 and phi'(0) = -1/2
    np.testing.assert_allclose(fit.w, 0.3 * 0.5 * (y @ X) / n, atol=1e-14)


def test_sgd_on_real_data_competitive_with_sklearn():
    data = load_breast_cancer()
    X, y = data.X, to_pm1(data.y)
    X = (X - X.mean(0)) / X.std(0)
    ours = online.sgd(X, y, loss="hinge", eta=0.01, lam=1e-3, n_epochs=30, batch_size=8, rng=0)
    sk = SGDClassifier(loss="hinge", alpha=1e-3, max_iter=30, tol=None, random_state=0).fit(X, y)
    acc_ours = np.mean(ours.predict(X) == y)
    acc_sk = np.mean(sk.predict(X) == y)
    assert acc_ours >= acc_sk - 0.02


# -- optim -----------------------------------------------------------------------------------------

def test_gradient_descent_quadratic_threshold():
    A = np.diag([1.0, 4.0])
    ok = optim.gradient_descent(lambda w: A @ w, [1.0, 1.0], eta=0.45, max_iter=2000)
    assert ok.converged
    with pytest.warns(ConvergenceWarning, match="diverged"):
        bad = optim.gradient_descent(lambda w: A @ w, [1.0, 1.0], eta=0.55, max_iter=5000)
    assert not bad.converged


def test_subgradient_method_reaches_scipy_optimum():
    from scipy.optimize import minimize

    rng = np.random.default_rng(0)
    C, c = rng.standard_normal((15, 2)), rng.standard_normal(15)
    f = lambda w: float(np.abs(C @ w - c).sum())  # noqa: E731
    fit = optim.subgradient_method(f, lambda w: C.T @ np.sign(C @ w - c), np.zeros(2), eta=0.1,
                                   power_t=0.5, max_iter=5000)
    ref = minimize(f, np.zeros(2), method="Nelder-Mead", options={"xatol": 1e-10, "fatol": 1e-12})
    assert fit.best[-1] == pytest.approx(ref.fun, rel=1e-3)
    assert np.all(np.diff(fit.best) <= 0)
    with pytest.warns(ConvergenceWarning, match="f_star"):
        optim.subgradient_method(f, lambda w: C.T @ np.sign(C @ w - c), np.zeros(2), eta=0.1,
                                 max_iter=3, f_star=ref.fun)


def test_optim_bad_input():
    with pytest.raises(ValueError, match="eta must be positive"):
        optim.gradient_descent(lambda w: w, [1.0], eta=0)
    with pytest.raises(ValueError, match="max_iter must be an integer"):
        optim.subgradient_method(abs, np.sign, [1.0], eta=0.1, max_iter=0)
    with pytest.raises(ValueError, match="w0 contains NaN"):
        optim.gradient_descent(lambda w: w, [np.nan], eta=0.1)


@pytest.mark.parametrize("loss", ["hinge", "log", "quadratic"])
def test_sgd_running_estimate_is_the_objective_for_full_batches(loss):
    """With one batch per epoch and alpha = 1 the running estimate is J before each update."""
    X, y = blobs(4, n=50)
    fit = online.sgd(X, y, loss=loss, eta=0.05, lam=0.1, batch_size=50, n_epochs=6, running_alpha=1.0)
    np.testing.assert_allclose(fit.running, fit.objective[:-1], rtol=1e-12)


def test_online_fits_are_frozen_and_reproducible():
    X, y, _ = separable(5)
    a = online.perceptron(X, y, shuffle=True, rng=3)
    b = online.perceptron(X, y, shuffle=True, rng=3)
    np.testing.assert_array_equal(a.w, b.w)
    with pytest.raises(AttributeError):
        a.w = None


def test_winnow_with_intercept_learns_a_threshold():
    rng = np.random.default_rng(6)
    X = rng.choice([0.0, 1.0], size=(300, 20))
    y = np.where(X[:, 0] + X[:, 1] + X[:, 2] >= 2, 1.0, -1.0)  # 2-of-3 majority: needs a bias
    fit = online.winnow(X, y, eta=0.2, fit_intercept=True, n_epochs=2000)
    assert fit.converged and np.all(fit.predict(X) == y)
    assert fit.b < 0 and fit.v.size == 2 * 21


def test_sgd_record_path():
    X, y = blobs(5, n=40)
    fit = online.sgd(X, y, loss="hinge", eta=0.1, batch_size=8, n_epochs=2, record_path=True, rng=0)
    assert fit.path.shape == (fit.n_iter + 1, X.shape[1] + 1)
    np.testing.assert_array_equal(fit.path[0], 0.0)
    np.testing.assert_array_equal(fit.path[-1], np.append(fit.w, fit.b))
    assert online.sgd(X, y, n_epochs=1).path is None


def test_mistake_test_breaks_ties_by_rule_not_by_rounding():
    """Winnow on +-1 features meets scores that are exactly zero in exact arithmetic; reordering
    the features (which changes only the order of the products in each dot product) or the
    memory layout must not change which of them count as mistakes."""
    mistakes = []
    for rep in range(5):
        r = np.random.default_rng(rep)
        X = r.choice([-1.0, 1.0], size=(400, 60))
        y = np.sign(X[:, r.choice(60, 3, replace=False)].sum(axis=1))
        perm = r.permutation(60)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            fits = [online.winnow(X2, y, eta=1 / 3, n_epochs=1)
                    for X2 in (X, X[:, perm], np.asfortranarray(X))]
        assert fits[0].n_mistakes == fits[1].n_mistakes == fits[2].n_mistakes
        np.testing.assert_array_equal(fits[0].mistake_index, fits[1].mistake_index)
        np.testing.assert_allclose(fits[0].w[perm], fits[1].w, rtol=1e-12, atol=1e-15)
        mistakes.append(fits[0].n_mistakes)
    assert min(mistakes) > 0
