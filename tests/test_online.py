"""Tests of mlnotes.online (perceptron, winnow, SGD) and mlnotes.optim."""

from __future__ import annotations

import re
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


# -- tests that kill the surviving mutants of `make mutants MODULE=online` ----------------------
# (tests/mutation_triage/online.md lists each mutant with the test that kills it, or why it
# is equivalent)
def _replay(P, w, update, orders, tie_tol=1e-12):
    """The mistake-driven loop of the docstrings, written out: a mistake is y_i w^T x_i <= 0, a
    score within TIE_TOL ||a_i||_inf ||w||_1 of 0 counting as 0 (the tie rule)."""
    n, per_epoch, mistakes = len(P), [], []  # mistakes: (step t, sample i)
    for epoch, order in enumerate(orders):
        for k, i in enumerate(order):
            if P[i] @ w <= tie_tol * np.abs(P[i]).max() * np.abs(w).sum():
                w = update(w, P[i])
                mistakes.append((epoch * n + k, i))
        per_epoch.append(sum(t // n == epoch for t, _ in mistakes))
        if per_epoch[-1] == 0:
            break
    steps, index = [t for t, _ in mistakes], [i for _, i in mistakes]
    return w, per_epoch, steps, index


def _orders(n, n_epochs, shuffle, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.permutation(n) if shuffle else np.arange(n) for _ in range(n_epochs)]


def _assert_trace(fit, per_epoch, steps, index):
    np.testing.assert_array_equal(fit.mistakes, per_epoch)
    np.testing.assert_array_equal(fit.mistake_steps, steps)
    np.testing.assert_array_equal(fit.mistake_index, index)
    for a in (fit.mistakes, fit.mistake_steps, fit.mistake_index):
        assert a.dtype.kind == "i"
    assert fit.n_mistakes == sum(per_epoch) and type(fit.n_mistakes) is int
    assert fit.n_epochs == fit.n_iter == len(per_epoch)
    assert fit.converged is (per_epoch[-1] == 0)
    np.testing.assert_array_equal(fit.objective, np.array(per_epoch, dtype=float))


def _integer_data(seed, n=13, d=3, flip=0):
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(n, d)).astype(float)
    y = np.where(X @ np.array([2.0, -1.0, 1.0])[:d] + 1.0 > 0, 1.0, -1.0)
    y[:flip] *= -1  # label noise: not separable
    return X, y


@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize(("shuffle", "seed"), [(False, 0), (True, 0), (True, 7)])
@pytest.mark.parametrize("flip", [0, 2])
def test_perceptron_replays_its_update_rule(fit_intercept, shuffle, seed, flip):
    """w <- w + y_i x_i (b <- b + y_i) on every y_i (w^T x_i + b) <= 0, from w = 0; integer
    points, so every score is exact."""
    X, y = _integer_data(seed, flip=flip)
    A = np.hstack([X, np.ones((len(y), 1))]) if fit_intercept else X
    n_epochs = 6
    w, per_epoch, steps, index = _replay(y[:, None] * A, np.zeros(A.shape[1]), lambda w, a: w + a,
                                         _orders(len(y), n_epochs, shuffle, seed))
    kwargs = {"fit_intercept": fit_intercept, "shuffle": shuffle, "n_epochs": n_epochs}
    if seed:
        kwargs["rng"] = seed
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit = online.perceptron(X, y, **kwargs)
    _assert_trace(fit, per_epoch, steps, index)
    np.testing.assert_array_equal(fit.w, w[:-1] if fit_intercept else w)
    assert fit.b == (w[-1] if fit_intercept else 0.0) and type(fit.b) is float
    assert fit.w.shape == (X.shape[1],) and fit.v is None
    if fit.converged:
        assert not caught
    else:
        assert [str(c.message) for c in caught] == [
            f"perceptron did not converge in n_epochs={n_epochs} epochs: {sum(per_epoch)} mistakes "
            f"in total, {per_epoch[-1]} in the last epoch; the data may not be linearly separable"]
        assert caught[0].category is ConvergenceWarning


def test_perceptron_defaults():
    X, y = _integer_data(3, flip=2)  # not separable: every epoch makes mistakes
    with pytest.warns(ConvergenceWarning, match=r"n_epochs=100 epochs"):
        fit = online.perceptron(X, y)
    w, per_epoch, steps, index = _replay(y[:, None] * X, np.zeros(3), lambda w, a: w + a,
                                         _orders(len(y), 100, False))
    _assert_trace(fit, per_epoch, steps, index)  # 100 epochs, in order, no intercept
    np.testing.assert_array_equal(fit.w, w)
    assert fit.b == 0.0
    with pytest.warns(ConvergenceWarning):
        shuffled = online.perceptron(X, y, shuffle=True, n_epochs=4)  # rng=0
    _assert_trace(shuffled, *_replay(y[:, None] * X, np.zeros(3), lambda w, a: w + a,
                                     _orders(len(y), 4, True, 0))[1:])


def test_the_tie_rule_counts_a_score_within_rounding_of_zero_as_a_mistake():
    """After the first update w = a_1 (||w||_1 = 4), a_2 scores 2e-12: within TIE_TOL
    ||a_2||_inf ||w||_1 = 1e-12 * 1 * 4 of zero, so a tie and a mistake (though above
    TIE_TOL ||a_2||_inf / ||w||_1 = 2.5e-13); a_3 scores 1e-9, clearly not a tie."""
    delta = 2e-12
    X = np.array([[1.0, 1.0, 1.0, 1.0],
                  [1.0, -1.0, 1.0, -1.0 + delta],   # score 2e-12: a tie (up to 4e-12)
                  [1.0, -1.0, 1.0, -1.0 + 1e-9]])   # score 1e-9: no tie
    y = np.ones(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fit = online.perceptron(X, y, n_epochs=1)
    np.testing.assert_array_equal(fit.mistake_index, [0, 1])
    w, per_epoch, steps, index = _replay(X, np.zeros(4), lambda w, a: w + a, _orders(3, 1, False))
    assert index == [0, 1]


def test_perceptron_is_scale_invariant_at_extreme_scales():
    X, y = _integer_data(5)
    ref = online.perceptron(X, y, n_epochs=50)
    for s in (2.0**600, 2.0**-600):  # x_ij ~ 1e180, 1e-180: the scores over- or underflow
        fit = online.perceptron(X * s, y, n_epochs=50)
        np.testing.assert_array_equal(fit.mistake_index, ref.mistake_index)
        np.testing.assert_array_equal(fit.w, ref.w * s)
        np.testing.assert_array_equal(fit.predict(X * s), ref.predict(X))
        np.testing.assert_array_equal(fit.predict(X * s), y)
    with pytest.raises(ValueError, match=r"too large for a linear classifier with an intercept \(the "
                                         r"constant feature 1 beside X\): "):
        online.perceptron(X * 1e200, y, fit_intercept=True)


def _fit(w, b):
    w = np.asarray(w, dtype=float)
    z = np.zeros(0, dtype=int)
    return online.OnlineFit(w=w, b=b, mistakes=z, mistake_steps=z, mistake_index=z, n_mistakes=0,
                            n_epochs=0, converged=True)


def test_decision_function_and_predict_of_a_fit():
    fit = _fit([2.0, -1.0], 0.5)
    X = np.array([[1.0, 2.0], [0.0, 0.5], [-1.0, 0.0], [3.0, -1.0]])
    np.testing.assert_array_equal(fit.decision_function(X), [0.5, 0.0, -1.5, 7.5])
    np.testing.assert_array_equal(fit.predict(X), [1.0, 1.0, -1.0, 1.0])  # a score of 0 is +1
    for method in (fit.decision_function, fit.predict):
        with pytest.raises(ValueError, match=r"^X has 3 columns but the model was fitted on 2"):
            method(np.ones((2, 3)))
        assert method(np.zeros((0, 2))).shape == (0,)


def test_predict_takes_the_sign_exactly_where_the_score_overflows():
    """Features and weights at 1e200: the score x^T w + b (1e400) overflows; the sign comes from
    the rescaled score, with the bias scaled like the products (ties at exactly 0 give +1)."""
    fit = _fit([0.0, 1e200], -0.5e200)
    t = np.array([0.2, 0.4, 0.5, 0.6, 0.8, -0.3, 1e-300])  # 1e-300 * 2^-665 underflows
    X = np.column_stack([np.full(t.size, 1e200), t])
    with warnings.catch_warnings(), np.errstate(all="raise"):  # a caller's errstate: no effect
        warnings.simplefilter("error")
        np.testing.assert_array_equal(fit.predict(X), np.where(t >= 0.5, 1.0, -1.0))
        big = _fit([1e200, -1e200], 0.0)
        np.testing.assert_array_equal(big.predict(np.array([[1e200, 0.5e200], [1e199, 2e199]])),
                                      [1.0, -1.0])
        # tiny X, unit weights: X w underflows beside b, and b / 2^(ex + ew) would overflow
        tiny = _fit([1.0], 1.0)
        np.testing.assert_array_equal(tiny.predict(np.array([[1e-310], [-1e-310]])), [1.0, 1.0])
        np.testing.assert_array_equal(_fit([1.0], -1.0).predict(np.array([[1e-310]])), [-1.0])


def _winnow_replay(X, y, eta, n_epochs, doubled=True, fit_intercept=False, shuffle=False, seed=0):
    A = np.hstack([X, np.ones((len(y), 1))]) if fit_intercept else X
    if doubled:
        A = np.hstack([A, -A])
    N = A.shape[1]

    def update(w, a):  # multiply every weight by e^(eta a_k), renormalise
        v = w * np.exp(eta * a)
        return v / v.sum()

    return _replay(y[:, None] * A, np.full(N, 1.0 / N), update, _orders(len(y), n_epochs, shuffle, seed))


@pytest.mark.parametrize(("doubled", "fit_intercept", "shuffle"),
                         [(True, False, False), (False, False, False), (True, True, True),
                          (False, True, False)])
def test_winnow_replays_its_multiplicative_update(doubled, fit_intercept, shuffle):
    rng = np.random.default_rng(11)
    X = rng.uniform(-1, 1, (25, 3))
    y = np.where(X @ np.array([0.6, 0.3, -0.1]) + 0.05 > 0, 1.0, -1.0)
    eta, n_epochs = 0.7, 8
    v, per_epoch, steps, index = _winnow_replay(X, y, eta, n_epochs, doubled, fit_intercept, shuffle, 3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit = online.winnow(X, y, eta=eta, n_epochs=n_epochs, doubled=doubled,
                            fit_intercept=fit_intercept, shuffle=shuffle, rng=3)
    _assert_trace(fit, per_epoch, steps, index)
    np.testing.assert_allclose(fit.v, v, rtol=1e-9, atol=1e-15)
    full = v[: v.size // 2] - v[v.size // 2:] if doubled else v
    np.testing.assert_allclose(fit.w, full[:-1] if fit_intercept else full, rtol=1e-9, atol=1e-15)
    assert fit.b == (pytest.approx(full[-1], rel=1e-9, abs=1e-15) if fit_intercept else 0.0)
    assert type(fit.b) is float
    assert fit.w.shape == (3,)
    if not fit.converged:
        name = "winnow" if doubled else "winnow(doubled=False)"
        hint = "" if doubled else " (with a non-negative target: try doubled=True)"
        assert [str(c.message) for c in caught] == [
            f"{name} did not converge in n_epochs={n_epochs} epochs: {sum(per_epoch)} mistakes in "
            f"total, {per_epoch[-1]} in the last epoch; the data may not be linearly separable{hint}"]
    else:
        assert not caught


def test_winnow_defaults():
    rng = np.random.default_rng(12)
    X = rng.uniform(-1, 1, (30, 2))
    y = np.where(rng.random(30) < 0.5, 1.0, -1.0)  # noise: never converges
    with pytest.warns(ConvergenceWarning, match=r"^winnow did not converge in n_epochs=100 epochs"):
        fit = online.winnow(X, y)
    v, per_epoch, steps, index = _winnow_replay(X, y, 0.1, 100)  # eta 0.1, doubled, in order
    _assert_trace(fit, per_epoch, steps, index)
    np.testing.assert_allclose(fit.v, v, rtol=1e-9)
    assert fit.b == 0.0 and fit.v.size == 4
    with pytest.warns(ConvergenceWarning):
        shuffled = online.winnow(X, y, shuffle=True, n_epochs=3)  # rng=0
    _assert_trace(shuffled, *_winnow_replay(X, y, 0.1, 3, shuffle=True, seed=0)[1:])


def test_winnow_many_mistakes_keep_finite_weights():
    """Thousands of updates: the log-weights are shifted to a maximum of 0 each time, so the
    weights never overflow however large eta * (number of mistakes) gets."""
    rng = np.random.default_rng(13)
    X = rng.choice([-1.0, 1.0], (40, 3))
    y = np.where(rng.random(40) < 0.5, 1.0, -1.0)
    with pytest.warns(ConvergenceWarning):
        fit = online.winnow(X, y, eta=5.0, n_epochs=60)
    assert fit.n_mistakes > 1000
    assert np.all(np.isfinite(fit.v)) and fit.v.sum() == pytest.approx(1.0)


def test_winnow_scale_checks_at_their_boundaries():
    X, y, _ = sparse_target(0, m=40, n=5, k=1)
    online.winnow(X, y, eta=0.5)  # max |x_ij| = 1 exactly is allowed
    with pytest.raises(ValueError, match=r"^winnow needs features in \[-1, 1\] \(they are the payoffs "
                                         r"of its game, and its mistake bound assumes \|x_ij\| <= 1\); "
                                         r"got max \|x_ij\| = 1\.5: scale X, e\.g\. X / 1\.5$"):
        online.winnow(1.5 * X, y)
    eps = np.finfo(float).epsneg
    with pytest.raises(ValueError, match=r"^winnow: at the scale of X \(max \|x_ij\| = 1e-17\).*"
                                         r"eta \* max \|x_ij\| = 1e-18 < 1\.1e-16"):
        online.winnow(X * 1e-17, y, eta=0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        online.winnow(X, y, eta=eps, n_epochs=1)  # eta * max |x_ij| = epsneg exactly: allowed
        zero = online.winnow(np.zeros((4, 2)), np.array([1.0, -1.0, 1.0, -1.0]), n_epochs=2)
    assert not zero.converged  # all scores 0: every point a mistake, no error


def test_winnow_and_perceptron_name_their_arguments():
    X, y, _ = sparse_target(0, m=20, n=4)
    with pytest.raises(ValueError, match=r"^eta must be positive"):
        online.winnow(X, y, eta=-1.0)
    for fn in (online.winnow, online.perceptron):
        with pytest.raises(ValueError, match=r"^n_epochs must be an integer >= 1"):
            fn(X, y, n_epochs=0)
    with pytest.raises(ValueError, match=r"^y must take values in"):
        online.perceptron(X, y * 2)


def test_winnow_bound_formula_and_arguments():
    for rho, N, eta in [(0.1, 10, 0.1), (0.25, 7, 0.3), (0.5, 2, 0.05)]:
        assert online.winnow_bound(rho, N, eta) == pytest.approx(np.log(N) / (eta * rho - eta**2 / 2),
                                                                 rel=1e-14)
    assert online.winnow_bound(0.2, 1, 0.1) == 0.0  # one weight: no mistake
    with pytest.raises(ValueError, match=r"^the bound needs eta < 2 \* rho = 0\.5, got eta=0\.5$"):
        online.winnow_bound(0.25, 10, 0.5)  # eta = 2 rho exactly
    with pytest.raises(ValueError, match=r"^rho must be positive"):
        online.winnow_bound(0.0, 10, 0.1)
    with pytest.raises(ValueError, match=r"^eta must be positive"):
        online.winnow_bound(0.1, 10, 0.0)
    with pytest.raises(ValueError, match=r"^N must be an integer >= 1"):
        online.winnow_bound(0.1, 0, 0.1)


def test_perceptron_bound_formula_and_arguments():
    rng = np.random.default_rng(14)
    X = rng.standard_normal((30, 3)) * 3
    u = np.array([1.0, -2.0, 0.5, 0.7])  # the bias last
    y = np.where(X @ u[:3] + u[3] > 0, 1.0, -1.0)
    A = np.hstack([X, np.ones((30, 1))])
    R, gamma = np.linalg.norm(A, axis=1).max(), np.min(y * (A @ u)) / np.linalg.norm(u)
    assert gamma < 1 < R
    assert online.perceptron_bound(X, y, u, fit_intercept=True) == pytest.approx((R / gamma)**2, rel=1e-12)
    # a margin above 1 is fine too; without intercept, R and gamma of the points themselves
    Xs, us = np.array([[3.0, 0.0], [0.0, -4.0]]), np.array([1.0, -1.0])
    assert online.perceptron_bound(Xs, np.array([1.0, 1.0]), us) == pytest.approx(
        (4.0 / (3.0 / np.sqrt(2.0)))**2, rel=1e-14)
    with pytest.raises(ValueError, match=r"^u must have shape \(2,\), got \(3,\)$"):
        online.perceptron_bound(Xs, np.array([1.0, 1.0]), np.ones(3))
    with pytest.raises(ValueError, match=r"^u must be a 1-D array"):
        online.perceptron_bound(Xs, np.array([1.0, 1.0]), np.ones((1, 2)))
    with pytest.raises(ValueError, match=r"^u must be a non-zero vector \(a separator\); got u = 0$"):
        online.perceptron_bound(Xs, np.array([1.0, 1.0]), np.zeros(2))
    # a point on the hyperplane: margin exactly 0 is no separation
    with pytest.raises(ValueError, match=r"^u does not separate the data: its margin is 0 <= 0$"):
        online.perceptron_bound(np.array([[3.0, 0.0], [1.0, 1.0]]), np.array([1.0, 1.0]), us)


def _sgd_replay(X, y, loss, *, eta, batch_size, n_epochs, lam, power_t, fit_intercept, shuffle,
                seed, running_alpha):
    """SGD as its docstring states it: w <- (1 - eta_t lam) w - eta_t/|B| sum phi'(M_i) y_i x_i,
    b <- b - eta_t/|B| sum phi'(M_i) y_i, eta_t = eta t^-p; J after every epoch; the running
    estimate of the batch loss plus penalty before each update."""
    from mlnotes import losses

    phi, dphi = losses.get(loss)
    n, d = X.shape
    w, b, t, est = np.zeros(d), 0.0, 0, None
    J = [float(np.mean(phi(y * (X @ w + b))) + 0.5 * lam * w @ w)]
    running, etas, path = [], [], [np.zeros(d + 1)]
    for order in _orders(n, n_epochs, shuffle, seed):
        for start in range(0, n, batch_size):
            idx = order[start:start + batch_size]
            t += 1
            eta_t = eta * t**-power_t
            M = y[idx] * (X[idx] @ w + b)
            value = float(np.mean(phi(M))) + 0.5 * lam * w @ w
            est = value if est is None else (1 - running_alpha) * est + running_alpha * value
            running.append(est)
            g = dphi(M) * y[idx]
            w = (1 - eta_t * lam) * w - eta_t / len(idx) * (g @ X[idx])
            if fit_intercept:
                b = b - eta_t * np.mean(g)
            etas.append(eta_t)
            path.append(np.append(w, b))
        J.append(float(np.mean(phi(y * (X @ w + b))) + 0.5 * lam * w @ w))
    return w, b, J, running, etas, np.array(path)


@pytest.mark.parametrize(("loss", "batch_size", "power_t", "fit_intercept", "shuffle"),
                         [("hinge", 3, 0.5, True, True), ("log", 4, 0.0, False, False),
                          ("quadratic", 1, 1.0, True, False), ("exponential", 10, 0.75, True, True),
                          ("perceptron", 2, 0.0, True, True), ("sigmoid", 5, 0.5, False, True)])
def test_sgd_replays_its_update_rule(loss, batch_size, power_t, fit_intercept, shuffle):
    rng = np.random.default_rng(15)
    X = rng.standard_normal((10, 3))
    y = np.where(X[:, 0] - X[:, 1] + 0.3 * rng.standard_normal(10) > 0.2, 1.0, -1.0)
    kw = dict(eta=0.2, batch_size=batch_size, n_epochs=3, lam=0.3, power_t=power_t,
              fit_intercept=fit_intercept, shuffle=shuffle, running_alpha=0.4)
    w, b, J, running, etas, path = _sgd_replay(X, y, loss, seed=4, **kw)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = online.sgd(X, y, loss=loss, rng=4, record_path=True, **kw)
    np.testing.assert_allclose(fit.w, w, rtol=1e-10, atol=1e-12)
    assert fit.b == pytest.approx(b, rel=1e-10, abs=1e-12) and type(fit.b) is float
    np.testing.assert_allclose(fit.objective, J, rtol=1e-10)
    np.testing.assert_allclose(fit.running, running, rtol=1e-10)
    np.testing.assert_allclose(fit.eta, etas, rtol=1e-12)
    np.testing.assert_allclose(fit.path, path, rtol=1e-10, atol=1e-12)
    assert fit.n_iter == len(etas) == 3 * -(-10 // batch_size) and fit.n_epochs == 3
    assert fit.converged is False and fit.loss == loss
    assert fit.running.dtype == float


def test_sgd_defaults():
    X, y = blobs(6, n=12, d=2)
    explicit = online.sgd(X, y, loss="hinge", eta=0.01, batch_size=1, n_epochs=5, lam=0.0,
                          power_t=0.0, fit_intercept=True, shuffle=True, tol=None,
                          running_alpha=0.01, record_path=False, rng=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        default = online.sgd(X, y)
    for name in ("w", "objective", "running", "eta"):
        np.testing.assert_array_equal(getattr(default, name), getattr(explicit, name))
    assert default.b == explicit.b and default.n_iter == 60 and default.path is None
    assert default.loss == "hinge" and default.converged is False
    w, b, J, running, etas, _ = _sgd_replay(X, y, "hinge", eta=0.01, batch_size=1, n_epochs=5, lam=0.0,
                                            power_t=0.0, fit_intercept=True, shuffle=True, seed=0,
                                            running_alpha=0.01)
    np.testing.assert_allclose(default.w, w, rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(default.running, running, rtol=1e-10)


def test_sgd_tol_stops_at_the_first_small_change_and_warns_otherwise():
    """One point x = 1, y = 1, quadratic loss: w <- w + 2 eta (1 - w), so the error 1 - w is
    multiplied by 1 - 2 eta each epoch and J_k = (1 - 2 eta)^(2k) exactly in the ratios."""
    X, y = np.array([[1.0]]), np.array([1.0])

    def run(eta, tol, n_epochs, **kw):
        return online.sgd(X, y, loss="quadratic", eta=eta, tol=tol, n_epochs=n_epochs,
                          fit_intercept=False, shuffle=False, **kw)

    # eta = 0.25: w_1 = 0.5, J_1 = 0.25 exactly; |J_0 - J_1| = 0.75 = tol * max(1, 0.25)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = run(0.25, 0.75, 1)
    assert fit.converged is True and fit.n_epochs == 1
    # J grows by 1.21 per epoch (eta = 1.05): a relative change 0.21 / 1.21 < 0.2 stops at once
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        grow = run(1.05, 0.2, 5)
    assert grow.converged and grow.n_epochs == 1 and grow.objective[1] == pytest.approx(1.21)
    # J falls by 0.81 (eta = 0.05): |dJ| = 0.19 > 0.15 * max(1, 0.81): not converged in 2 epochs
    with pytest.warns(ConvergenceWarning) as rec:
        fall = run(0.05, 0.15, 2)
    J = fall.objective
    assert not fall.converged and fall.n_epochs == 2 and len(rec) == 1
    assert str(rec[0].message) == (f"sgd did not converge in n_epochs=2: the last epoch changed the "
                                   f"objective by {abs(J[1] - J[2]):.3g} > tol * max(1, |J|); "
                                   "increase n_epochs or tol")
    # decaying steps eta_t = 1.6 / t: J rises above 1 (t = 1, 2), then falls; the stop is the
    # first epoch whose change is within tol * max(1, |J|) of the one before
    free = run(1.6, None, 12, power_t=1.0)
    J = free.objective
    assert J.max() > 1.5
    for tol in (0.05, 0.2, 0.5, 0.9):
        stop = next(k for k in range(1, 13) if abs(J[k - 1] - J[k]) <= tol * max(1.0, abs(J[k])))
        fit = run(1.6, tol, 12, power_t=1.0)
        assert fit.converged and fit.n_epochs == stop, tol
        np.testing.assert_allclose(fit.objective, J[: stop + 1], rtol=1e-12)


def test_sgd_divergence_is_reported_with_the_objective_that_overflowed():
    """Quadratic loss, x = 1, eta = 3: the error is multiplied by -5 each update, J overflows
    after about 220 epochs: the run stops there and warns with that J (no RuntimeWarning)."""
    X, y = np.array([[1.0]]), np.array([1.0])
    with pytest.warns(ConvergenceWarning) as rec:
        fit = online.sgd(X, y, loss="quadratic", eta=3.0, n_epochs=1000, fit_intercept=False,
                         shuffle=False)
    assert len(rec) == 1  # w @ w overflows too: the message says so, never "objective nan"
    assert re.fullmatch(rf"sgd diverged \(the objective overflowed in epoch {fit.n_epochs}\) with "
                        r"eta=3\.0: reduce the step size or standardise X", str(rec[0].message))
    assert 100 < fit.n_epochs < 1000 and not np.isfinite(fit.objective[-1])
    assert np.all(np.isfinite(fit.objective[:-1])) and not fit.converged


def test_sgd_scale_check_at_its_boundaries():
    ones = np.array([[1.0], [-1.0]])
    y = np.array([1.0, -1.0])
    # eta (max ||x_i||^2 + 1) = 2e150 > 1e150 with the intercept's constant feature; 1e150 without
    with pytest.raises(ValueError, match=r"^sgd: the scale of X \(max \|x_ij\| = 1\) makes one step "
                                         r"eta \* max \|\|x_i\|\|\^2 = 2e\+150 overflow"):
        online.sgd(ones, y, eta=1e150, n_epochs=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        online.sgd(ones, y, eta=1e150, n_epochs=1, fit_intercept=False, loss="hinge")
    # d = 2, rows one-hot: the quick bound eta (d max|x|^2 + 1) = 1.5e150 fails, the row norms
    # eta (1 + 1) = 1e150 pass
    onehot = np.array([[1.0, 0.0], [0.0, -1.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        online.sgd(onehot, y, eta=5e149, n_epochs=1, loss="hinge")
    # the same in the range of 1e75: d max|x|^2 = 4e150, the rows 1e150
    big = np.eye(4) * 1e75
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        online.sgd(big, np.array([1.0, -1.0, 1.0, -1.0]), eta=1.0, n_epochs=1, loss="hinge")
        with pytest.raises(ValueError, match=r"max \|x_ij\| = 1e\+80\) makes one step eta \* max "
                                             r"\|\|x_i\|\|\^2 = 2e\+160 overflow"):
            online.sgd(np.full((2, 2), 1e80), y, eta=1.0)
        with pytest.raises(ValueError, match=r"= inf overflow"):
            online.sgd(np.full((2, 2), 1e200), y)


def test_sgd_names_its_arguments_and_bounds_running_alpha():
    X, y = blobs(7, n=10, d=2)
    for kwargs, match in [({"eta": -1.0}, "^eta must be positive"),
                          ({"lam": -1.0}, "^lam must be non-negative"),
                          ({"power_t": -0.5}, "^power_t must be non-negative"),
                          ({"batch_size": 0}, "^batch_size must be an integer >= 1"),
                          ({"n_epochs": 0}, "^n_epochs must be an integer >= 1"),
                          ({"tol": 0.0}, "^tol must be positive"),
                          ({"running_alpha": 1.5}, r"^running_alpha must lie in \(0, 1\], got 1\.5$"),
                          ({"running_alpha": -0.5}, "^running_alpha must lie in")]:
        with pytest.raises(ValueError, match=match):
            online.sgd(X, y, **kwargs)
    with pytest.raises(ValueError, match=r"^y must take values in"):
        online.sgd(X, 2 * y)
    fit = online.sgd(X, y, running_alpha=1.0, n_epochs=1, lam=0.0, power_t=0.0)  # the bounds
    assert fit.n_iter == 10


def test_winnow_without_a_mistake_keeps_its_uniform_start():
    """Points on which the uniform weights already score > 0: no update, v = 1/N, and the empty
    traces are integer arrays like the others."""
    X = np.array([[0.5, 0.2, 0.0], [0.1, 0.9, 0.3], [0.3, 0.3, 0.1]])
    fit = online.winnow(X, np.ones(3), doubled=False)
    assert fit.converged and fit.n_mistakes == 0 and fit.n_epochs == 1
    np.testing.assert_array_equal(fit.v, np.full(3, 1.0 / 3))
    np.testing.assert_array_equal(fit.w, np.full(3, 1.0 / 3))
    np.testing.assert_array_equal(fit.mistakes, [0])
    for a in (fit.mistake_steps, fit.mistake_index):
        assert a.shape == (0,) and a.dtype.kind == "i"
