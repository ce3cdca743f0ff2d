"""Tests of mlnotes.linear: NIST certified values, ESL Table 3.3, scikit-learn, and bad input."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlnotes import ConvergenceWarning, linear
from mlnotes.datasets import NIST_NAMES, load_nist, load_prostate

# -- NIST StRD: log relative error against the certified values -------------------------------


def lre(estimate, certified):
    """NIST's log relative error, digits agreeing (absolute error where the certified value is 0)."""
    estimate, certified = np.asarray(estimate), np.asarray(certified)
    err = np.abs(estimate - certified)
    rel = np.where(certified != 0, err / np.where(certified != 0, np.abs(certified), 1), err)
    with np.errstate(divide="ignore"):
        return float(np.min(np.minimum(-np.log10(rel), 15.0)))


NIST_TARGET = {name: 6.0 for name in NIST_NAMES} | {"Filip": 7.0, "Longley": 10.0}


@pytest.mark.parametrize("name", NIST_NAMES)
def test_nist_default_method_meets_target(name):
    data = load_nist(name)
    fit = linear.least_squares(data.X, data.y)
    assert lre(fit.w, data.certified) >= NIST_TARGET[name]
    # the certified residual standard deviation too: sqrt(RSS / (n - p))
    n, p = data.X.shape
    assert lre(np.sqrt(fit.rss / (n - p)), data.residual_sd) >= NIST_TARGET[name] - 1


@pytest.mark.parametrize("name", ["Longley", "Wampler4", "Wampler5"])
def test_nist_qr_is_accurate(name):
    data = load_nist(name)
    assert lre(linear.least_squares(data.X, data.y, method="qr").w, data.certified) >= 9


def test_nist_auto_takes_fast_path_only_when_safe():
    assert linear.least_squares(load_nist("Norris").X, load_nist("Norris").y).method == "cholesky"
    for name in ("Filip", "Longley", "Wampler1"):
        data = load_nist(name)
        assert linear.least_squares(data.X, data.y).method == "qr"


def test_filip_normal_equations_refuse():
    data = load_nist("Filip")
    with pytest.raises(ValueError, match="method='qr'"):
        linear.least_squares(data.X, data.y, method="cholesky")
    with pytest.raises(ValueError, match="method='svd'"):
        linear.least_squares(data.X, data.y, method="normal")


# -- ESL Table 3.3, least-squares column ------------------------------------------------------


def test_esl_table_3_3_least_squares():
    data = load_prostate()
    train = data.extra["train"]
    Z = (data.X - data.X.mean(axis=0)) / data.X.std(axis=0, ddof=1)  # over all 97 rows
    A = np.column_stack([np.ones(len(Z)), Z])
    fit = linear.least_squares(A[train], data.y[train])
    # intercept, lcavol, lweight, age, lbph, svi, lcp, gleason, pgg45 (Hastie et al. 2009)
    published = [2.465, 0.680, 0.263, -0.141, 0.210, 0.305, -0.288, -0.021, 0.267]
    np.testing.assert_allclose(fit.w, published, atol=5e-4)
    sq = (data.y[~train] - fit.predict(A[~train])) ** 2
    assert round(sq.mean(), 3) == 0.521
    assert round(sq.std(ddof=1) / np.sqrt(sq.size), 3) == 0.179  # the table's std error


# -- agreement with numpy, scikit-learn and statsmodels ----------------------------------------


def _problem(seed, n=60, d=6):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * rng.uniform(0.2, 5, size=d)
    return X, X @ rng.standard_normal(d) + 0.5 * rng.standard_normal(n) + 3.0


@pytest.mark.parametrize("method", ["auto", "cholesky", "qr", "svd", "normal"])
def test_least_squares_matches_statsmodels(method):
    sm = pytest.importorskip("statsmodels.api")
    X, y = _problem(1)
    A = np.column_stack([np.ones(len(y)), X])
    np.testing.assert_allclose(linear.least_squares(A, y, method=method).w,
                               sm.OLS(y, A).fit().params, rtol=1e-10)


def test_svd_minimum_norm_matches_lstsq_when_rank_deficient():
    X, y = _problem(2)
    X = np.column_stack([X, X[:, 0] + X[:, 1]])  # exactly dependent column
    fit = linear.least_squares(X, y)
    assert fit.method == "svd" and fit.rank == X.shape[1] - 1
    np.testing.assert_allclose(fit.w, np.linalg.lstsq(X, y, rcond=None)[0], rtol=1e-10)


@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("method", ["auto", "cholesky", "dual", "svd"])
def test_ridge_matches_sklearn(fit_intercept, method):
    sk = pytest.importorskip("sklearn.linear_model")
    X, y = _problem(3)
    for alpha in (1e-3, 1.0, 100.0):
        ref = sk.Ridge(alpha=alpha, fit_intercept=fit_intercept, solver="svd").fit(X, y)
        ours = linear.ridge(X, y, lam=alpha, fit_intercept=fit_intercept, method=method)
        np.testing.assert_allclose(ours.w, ref.coef_, rtol=0, atol=1e-10)
        assert ours.b == pytest.approx(ref.intercept_, abs=1e-10)


def test_ridge_path_matches_ridge():
    X, y = _problem(4)
    lams = [0.1, 1.0, 10.0]
    path = linear.ridge_path(X, y, lams, fit_intercept=True)
    for row, lam in zip(path, lams, strict=True):
        np.testing.assert_allclose(row, linear.ridge(X, y, lam=lam, fit_intercept=True).w, rtol=1e-10)


def test_ridge_dof_limits():
    X, _ = _problem(5)
    assert linear.ridge_dof(X, 0.0) == pytest.approx(X.shape[1])
    assert linear.ridge_dof(X, 1e12) == pytest.approx(0.0, abs=1e-6)


@pytest.mark.parametrize("fit_intercept", [False, True])
def test_lasso_matches_sklearn(fit_intercept):
    sk = pytest.importorskip("sklearn.linear_model")
    X, y = _problem(6, n=200, d=10)
    n = len(y)
    for frac in (0.05, 0.3, 0.8):
        lam = frac * linear.lasso_lambda_max(X, y, fit_intercept=fit_intercept)
        ref = sk.Lasso(alpha=lam / (2 * n), fit_intercept=fit_intercept, tol=1e-14,
                       max_iter=100_000).fit(X, y)
        ours = linear.lasso(X, y, lam=lam, fit_intercept=fit_intercept)
        assert ours.converged
        np.testing.assert_allclose(ours.w, ref.coef_, atol=1e-7)
        assert ours.b == pytest.approx(ref.intercept_, abs=1e-7)
        # the same zeros
        np.testing.assert_array_equal(ours.w == 0, ref.coef_ == 0)


# -- cross-validation: the numbers behind the CV curves and error bars of Chapter 1 -----------


@pytest.mark.parametrize(("fit", "n"), [("ridge", 43), ("ridge", 40), ("lasso", 40)])
def test_cross_validate_matches_sklearn(fit, n):
    """CV error and its standard error against scikit-learn's cross_val_score on the same folds.

    The folds are those the docstring documents (rows permuted once by ``rng``, split by
    ``np.array_split``); n = 43 gives folds of unequal sizes, where the CV error (all squared
    errors over n) differs from the mean of the fold errors.
    """
    sk = pytest.importorskip("sklearn.linear_model")
    model_selection = pytest.importorskip("sklearn.model_selection")
    X, y = _problem(31, n=n, d=4)
    K, seed = 5, 11
    folds = np.array_split(np.random.default_rng(seed).permutation(n), K)
    splits = [(np.setdiff1d(np.arange(n), f), f) for f in folds]
    sizes = np.array([len(f) for f in folds])
    if fit == "lasso":  # J = ||y - Xw||^2 + lam ||w||_1 is 2 n_train times sklearn's
        lams = np.array([0.05, 0.3, 0.9]) * linear.lasso_lambda_max(X, y)
        assert len(set(n - sizes)) == 1
        models = [sk.Lasso(alpha=lam / (2 * (n - sizes[0])), tol=1e-14, max_iter=100_000)
                  for lam in lams]
    else:
        lams = [0.01, 1.0, 30.0]
        models = [sk.Ridge(alpha=lam, solver="svd") for lam in lams]
    cv, se = linear.cross_validate(X, y, lams, fit=fit, n_folds=K, rng=seed)
    for m, model in enumerate(models):
        mse = -model_selection.cross_val_score(
            model, X, y, cv=splits, scoring="neg_mean_squared_error")
        assert cv[m] == pytest.approx(sizes @ mse / n, rel=1e-7)
        assert se[m] == pytest.approx(np.std(mse, ddof=1) / np.sqrt(K), rel=1e-6)
    if n % K:  # unequal folds: the plain mean of the fold errors is another number
        assert not np.allclose(cv, [np.mean(-model_selection.cross_val_score(
            mod, X, y, cv=splits, scoring="neg_mean_squared_error")) for mod in models],
            rtol=1e-6)


def test_lasso_objective_non_increasing_and_gap_bounds_it():
    X, y = _problem(7)
    fit = linear.lasso(X, y, lam=0.1 * linear.lasso_lambda_max(X, y))
    obj = fit.objective
    assert np.all(np.diff(obj) <= 1e-12 * obj[0])
    assert fit.gap[-1] <= 1e-12 * (y @ y)


def test_lasso_zero_penalty_is_least_squares():
    X, y = _problem(8)
    fit = linear.lasso(X, y, lam=0.0, tol=1e-14)
    np.testing.assert_allclose(fit.w, np.linalg.lstsq(X, y, rcond=None)[0], rtol=1e-6)


def test_lasso_path_warm_starts_agree_with_cold():
    X, y = _problem(9)
    lams = np.array([0.5, 0.05, 0.2]) * linear.lasso_lambda_max(X, y)
    path = linear.lasso_path(X, y, lams)
    for row, lam in zip(path, lams, strict=True):
        np.testing.assert_allclose(row, linear.lasso(X, y, lam=lam).w, atol=1e-8)


def test_lasso_iteration_limit_warns():
    X, y = _problem(10)
    X[:, 1] = X[:, 0] + 1e-3 * X[:, 1]  # nearly collinear: slow coordinate descent
    with pytest.warns(ConvergenceWarning, match="max_iter=2"):
        fit = linear.lasso(X, y, lam=1e-3, max_iter=2)
    assert not fit.converged and fit.n_iter == 2


def test_cross_validate_shapes_and_minimum():
    X, y = _problem(11)
    lams = np.logspace(-3, 4, 8)
    cv, se = linear.cross_validate(X, y, lams, fit="ridge", n_folds=5)
    assert cv.shape == se.shape == (8,)
    assert np.argmin(cv) < 7  # the data have signal: a huge penalty is not best


# -- properties ---------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(3, 40), d=st.integers(1, 8))
def test_least_squares_residual_orthogonal_to_columns(seed, n, d):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = rng.standard_normal(n)
    fit = linear.least_squares(X, y)
    r = y - X @ fit.w
    assert np.linalg.norm(X.T @ r) <= 1e-10 * (np.linalg.norm(X) ** 2 * np.linalg.norm(fit.w)
                                                + np.linalg.norm(X) * np.linalg.norm(y) + 1e-300)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), lam=st.floats(1e-3, 1e3))
def test_ridge_norm_decreases_with_lambda(seed, lam):
    X, y = _problem(seed % 1000)
    assert np.linalg.norm(linear.ridge(X, y, lam=2 * lam).w) <= np.linalg.norm(
        linear.ridge(X, y, lam=lam).w) * (1 + 1e-12)


@settings(max_examples=40, deadline=None)
@given(z=st.floats(-1e6, 1e6), t=st.floats(0, 1e6))
def test_soft_threshold_properties(z, t):
    s = float(linear.soft_threshold(z, t))
    assert abs(s) <= abs(z) and (s == 0 or np.sign(s) == np.sign(z))
    assert s == 0 if abs(z) <= t else s == pytest.approx(z - np.sign(z) * t)


# -- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("fn", [
    lambda X, y: linear.least_squares(X, y),
    lambda X, y: linear.ridge(X, y, lam=1.0),
    lambda X, y: linear.lasso(X, y, lam=1.0),
])
def test_bad_input(fn):
    X, y = _problem(12, n=10, d=3)
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match="X contains NaN"):
        fn(Xn, y)
    yi = y.copy()
    yi[3] = np.inf
    with pytest.raises(ValueError, match="y contains inf"):
        fn(X, yi)
    with pytest.raises(ValueError, match="different numbers of samples"):
        fn(X, y[:-1])
    with pytest.raises(ValueError, match="X must be a 2-D array"):
        fn(X[:, 0], y)


def test_negative_lambda_and_unknown_method():
    X, y = _problem(13)
    with pytest.raises(ValueError, match="lam must be non-negative, got -1"):
        linear.ridge(X, y, lam=-1)
    with pytest.raises(ValueError, match="lam must be non-negative, got -0.5"):
        linear.lasso(X, y, lam=-0.5)
    with pytest.raises(ValueError, match="method must be one of"):
        linear.least_squares(X, y, method="lu")
    with pytest.raises(ValueError, match="max_iter"):
        linear.lasso(X, y, lam=1.0, max_iter=0)


def test_rank_deficient_normal_equations_error_suggests_qr_or_svd():
    X, y = _problem(14)
    X = np.column_stack([X, 2 * X[:, 0]])
    for method in ("cholesky", "normal"):
        with pytest.raises(ValueError, match="rank-deficient.*method='svd'"):
            linear.least_squares(X, y, method=method)
    with pytest.raises(ValueError, match="rank-deficient.*method='svd'"):
        linear.least_squares(X, y, method="qr")


def test_predict_checks_columns():
    X, y = _problem(15)
    with pytest.raises(ValueError, match="X has 3 columns but the model was fitted on 6 features"):
        linear.ridge(X, y, lam=1.0).predict(X[:, :3])


def test_no_warning_on_well_posed_problems():
    X, y = _problem(16)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        linear.least_squares(X, y)
        linear.ridge(X, y, lam=1.0)
        linear.lasso(X, y, lam=1.0)


# -- elastic net ----------------------------------------------------------------------------------


def _sklearn_elastic_net_penalties(alpha, l1_ratio, n):
    # scikit-learn minimises |y - Xw - b|^2 / (2n) + alpha rho |w|_1 + alpha (1 - rho) |w|^2 / 2;
    # 2n times that is |y - Xw - b|^2 + lam1 |w|_1 + lam2 |w|^2 with:
    return 2 * n * alpha * l1_ratio, n * alpha * (1 - l1_ratio)


@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("l1_ratio", [0.1, 0.5, 0.9])
def test_elastic_net_matches_sklearn(fit_intercept, l1_ratio):
    sk = pytest.importorskip("sklearn.linear_model")
    X, y = _problem(17, n=200, d=10)
    X[:, 1] = X[:, 0] + 0.05 * X[:, 1]  # a correlated pair, where the ridge part matters
    n = len(y)
    # alpha as a fraction of the one where scikit-learn's solution becomes 0
    alpha_max = linear.lasso_lambda_max(X, y, fit_intercept=fit_intercept) / (2 * n * l1_ratio)
    for frac in (0.01, 0.1, 0.5):
        alpha = frac * alpha_max
        ref = sk.ElasticNet(alpha=alpha, l1_ratio=l1_ratio, fit_intercept=fit_intercept,
                            tol=1e-14, max_iter=200_000).fit(X, y)
        lam1, lam2 = _sklearn_elastic_net_penalties(alpha, l1_ratio, n)
        ours = linear.elastic_net(X, y, lam1=lam1, lam2=lam2, fit_intercept=fit_intercept)
        assert ours.converged
        np.testing.assert_allclose(ours.w, ref.coef_, rtol=1e-7, atol=1e-9)
        assert ours.b == pytest.approx(ref.intercept_, rel=1e-7, abs=1e-9)
        np.testing.assert_array_equal(ours.w == 0, ref.coef_ == 0)  # the same zeros


def test_elastic_net_limits_are_lasso_and_ridge():
    X, y = _problem(18)
    lam = 0.2 * linear.lasso_lambda_max(X, y, fit_intercept=True)
    np.testing.assert_allclose(
        linear.elastic_net(X, y, lam1=lam, lam2=0.0, fit_intercept=True).w,
        linear.lasso(X, y, lam=lam, fit_intercept=True).w, rtol=1e-9)
    np.testing.assert_allclose(
        linear.elastic_net(X, y, lam1=0.0, lam2=5.0, fit_intercept=True).w,
        linear.ridge(X, y, lam=5.0, fit_intercept=True).w, rtol=1e-9)


def test_elastic_net_objective_gap_and_path():
    X, y = _problem(19)
    lam1, lam2 = 0.1 * linear.lasso_lambda_max(X, y), 3.0
    fit = linear.elastic_net(X, y, lam1=lam1, lam2=lam2)
    w = fit.w
    assert fit.objective[-1] == pytest.approx(
        np.sum((y - X @ w) ** 2) + lam1 * np.abs(w).sum() + lam2 * w @ w, rel=1e-12)
    assert np.all(np.diff(fit.objective) <= 1e-12 * fit.objective[0])
    assert fit.gap[-1] <= 1e-12 * (y @ y)
    lam1s = np.array([0.5, 0.05, 0.2]) * linear.lasso_lambda_max(X, y)
    path = linear.elastic_net_path(X, y, lam1s, lam2=lam2)
    for row, lam in zip(path, lam1s, strict=True):
        np.testing.assert_allclose(row, linear.elastic_net(X, y, lam1=lam, lam2=lam2).w, atol=1e-8)


def test_elastic_net_bad_input_and_iteration_limit():
    X, y = _problem(20)
    with pytest.raises(ValueError, match="lam1 must be non-negative"):
        linear.elastic_net(X, y, lam1=-1.0, lam2=1.0)
    with pytest.raises(ValueError, match="lam2 must be non-negative"):
        linear.elastic_net(X, y, lam1=1.0, lam2=-1.0)
    X[:, 1] = X[:, 0] + 1e-3 * X[:, 1]
    with pytest.warns(ConvergenceWarning, match="elastic_net stopped after max_iter=2"):
        fit = linear.elastic_net(X, y, lam1=1e-3, lam2=1e-6, max_iter=2)
    assert not fit.converged and fit.n_iter == 2


# -- several outputs (Linnerud) ------------------------------------------------------------------


def test_linnerud_copy_is_scikit_learns():
    skd = pytest.importorskip("sklearn.datasets")
    from mlnotes.datasets import load_linnerud

    ref, ours = skd.load_linnerud(), load_linnerud()
    np.testing.assert_array_equal(ours.X, ref.data)
    np.testing.assert_array_equal(ours.y, ref.target)
    assert ours.feature_names == tuple(ref.feature_names)
    assert ours.extra["target_names"] == tuple(ref.target_names)


def test_multi_output_ridge_columns_match_sklearn():
    # the chapter's eq-multi-ridge: minimising |XW - Y|_F^2 / n + lam |W|_F^2 fits each
    # column by ridge with penalty n * lam; scikit-learn fits all outputs at once
    sk = pytest.importorskip("sklearn.linear_model")
    from mlnotes.datasets import load_linnerud

    D = load_linnerud()
    n = len(D.y)
    for lam in (0.01, 0.1, 1.0):
        ref = sk.Ridge(alpha=n * lam, solver="svd").fit(D.X, D.y)
        for col in range(D.y.shape[1]):
            ours = linear.ridge(D.X, D.y[:, col], lam=n * lam, fit_intercept=True)
            np.testing.assert_allclose(ours.w, ref.coef_[col], rtol=1e-9)
            assert ours.b == pytest.approx(ref.intercept_[col], rel=1e-9)


# -- automatic relevance determination ---------------------------------------------------------


def _ard_sets():
    datasets = pytest.importorskip("sklearn.datasets")
    p = load_prostate()
    train = p.extra["train"]
    Z = (p.X - p.X.mean(axis=0)) / p.X.std(axis=0, ddof=1)
    return {"prostate": (Z[train], p.y[train]),
            "diabetes": datasets.load_diabetes(return_X_y=True)}


@pytest.mark.parametrize("name", ["prostate", "diabetes"])
def test_ard_matches_sklearn(name):
    # scikit-learn's ARDRegression with its Gamma hyperpriors switched off makes MacKay's
    # updates from the same start; both run to their fixed point (sklearn's tol is absolute)
    sk = pytest.importorskip("sklearn.linear_model")
    X, y = _ard_sets()[name]
    ours = linear.ard(X, y, fit_intercept=True, tol=1e-14, max_iter=100_000)
    ref = sk.ARDRegression(alpha_1=0.0, alpha_2=0.0, lambda_1=0.0, lambda_2=0.0,
                           threshold_lambda=1 / ours.C_min, max_iter=100_000,
                           tol=1e-14 * np.abs(ours.w).sum()).fit(X, y)
    assert ours.converged
    np.testing.assert_array_equal(ours.relevant, ref.lambda_ < 1 / ours.C_min)
    assert 0 < ours.relevant.sum() < X.shape[1]  # some features pruned, some kept
    np.testing.assert_allclose(ours.w, ref.coef_, rtol=1e-8, atol=1e-10 * np.abs(ref.coef_).max())
    assert ours.b == pytest.approx(ref.intercept_, rel=1e-8)
    assert ours.sigma2 == pytest.approx(1 / ref.alpha_, rel=1e-8)
    np.testing.assert_allclose(1 / ours.C[ours.relevant], ref.lambda_[ours.relevant], rtol=1e-8)
    np.testing.assert_allclose(ours.Sigma[np.ix_(ours.relevant, ours.relevant)], ref.sigma_,
                               rtol=1e-8, atol=1e-12 * np.abs(ref.sigma_).max())


def test_ard_fixed_point_and_evidence():
    X, y = _problem(21, n=60, d=6)
    y = X[:, :3] @ np.array([1.5, -2.0, 0.7]) + 0.5 * np.random.default_rng(0).standard_normal(60)
    fit = linear.ard(X, y)
    assert fit.converged
    keep = fit.relevant
    # the evidence is stationary: C_d = mu_d^2 + Sigma_dd for the kept features (the EM form of
    # the fixed point), gamma_d = 1 - Sigma_dd / C_d, sigma^2 = RSS / (n - sum gamma)
    C, S, w = fit.C[keep], np.diag(fit.Sigma)[keep], fit.w[keep]
    np.testing.assert_allclose(C, w**2 + S, rtol=1e-7)
    np.testing.assert_allclose(fit.gamma[keep], 1 - S / C, rtol=1e-12)
    rss = np.sum((y - X @ fit.w) ** 2)
    assert fit.sigma2 == pytest.approx(rss / (len(y) - fit.gamma.sum()), rel=1e-7)
    # the objective is -ln N(y; 0, sigma^2 I + X diag(C) X^T), computed here from the n x n
    # covariance (scipy), and it falls
    stats = pytest.importorskip("scipy.stats")
    cov = fit.sigma2 * np.eye(len(y)) + (X * fit.C) @ X.T
    nle = -stats.multivariate_normal(np.zeros(len(y)), cov).logpdf(y)
    assert fit.objective[-1] == pytest.approx(nle, rel=1e-10)
    assert np.all(np.diff(fit.objective) <= 1e-10 * abs(fit.objective[0]))


def test_ard_bad_input_and_iteration_limit():
    X, y = _problem(22)
    with pytest.raises(ValueError, match="C_min"):
        linear.ard(X, y, C_min=0.0)
    with pytest.warns(ConvergenceWarning, match="ard stopped after max_iter=2"):
        fit = linear.ard(X, y, max_iter=2)
    assert not fit.converged and fit.n_iter == 2 and fit.objective.size == 3
