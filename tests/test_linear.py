"""Tests of mlnotes.linear: NIST certified values, ESL Table 3.3, scikit-learn, and bad input."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from warning_site import one_warning_at, points_at

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


# -- mutation triage, part 2: ard, elastic_net, cross_validate and helpers --
# (tests/mutation_triage/linear-part-2.md lists each mutant with the test that kills it)


def test_soft_threshold_names_t_and_converts_to_float_first():
    with pytest.raises(ValueError, match="^t must be non-negative"):
        linear.soft_threshold(1.0, -1.0)
    # |-128| overflows in int8 and a boolean array has no sign: S(z, t) is taken in floats
    np.testing.assert_array_equal(linear.soft_threshold(np.array([-128, 3], dtype=np.int8), 1.0),
                                  [-127.0, 2.0])
    np.testing.assert_array_equal(linear.soft_threshold(np.array([True, False]), 0.25),
                                  [0.75, 0.0])


def test_lasso_lambda_max_formula_intercept_and_scale_check():
    X, y = _problem(41, n=30, d=4)
    Xc, yc = X - X.mean(axis=0), y - y.mean()
    lmax = linear.lasso_lambda_max(X, y, fit_intercept=True)
    assert lmax == pytest.approx(2 * np.max(np.abs(Xc.T @ yc)), rel=1e-12)
    assert linear.lasso_lambda_max(X, y) == pytest.approx(2 * np.max(np.abs(X.T @ y)), rel=1e-12)
    assert np.all(linear.lasso(X, y, lam=lmax, fit_intercept=True).w == 0)
    assert np.any(linear.lasso(X, y, lam=0.99 * lmax, fit_intercept=True).w != 0)
    with pytest.raises(ValueError, match="too large for lasso_lambda_max:"):
        linear.lasso_lambda_max(X * 1e200, y)


def test_lasso_duality_gap_is_its_definition():
    # P(w) = |r|^2 + lam |w|_1; the dual point theta = s r with s = min(1, lam / (2 |X^T r|_inf))
    # has D(theta) = 2 theta^T y - |theta|^2, and the fit reports P(w) - D(theta)
    X, y = _problem(42, n=30, d=4)
    lmax = linear.lasso_lambda_max(X, y)

    def gap(w, lam):
        r = y - X @ w
        s = min(1.0, lam / (2 * np.max(np.abs(X.T @ r))))
        return r @ r + lam * np.abs(w).sum() - (2 * s * (r @ y) - s * s * (r @ r))

    for frac in (0.3, 0.7):
        lam = frac * lmax
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            fit = linear.lasso(X, y, lam=lam, max_iter=1)
        assert fit.n_iter == 1
        assert fit.gap[0] == pytest.approx(gap(np.zeros(4), lam), rel=1e-10)  # (1 - s)^2 |y|^2
        assert fit.gap[1] == pytest.approx(gap(fit.w, lam), rel=1e-8, abs=1e-10 * (y @ y))
    # from lambda_max on, w = 0 is optimal: s = 1 and the gap at the start is exactly 0
    for frac in (1.2, 2.0):
        fit = linear.lasso(X, y, lam=frac * lmax)
        assert fit.n_iter == 0 and fit.converged and fit.gap.tolist() == [0.0]
    # X^T y = 0 with the smallest lam: lam / 2 underflows to 0 = |X^T y|_inf, and s must be 1
    Xo = np.array([[1.0], [-1.0]])
    fit = linear.lasso(Xo, np.array([1.0, 1.0]), lam=5e-324)
    assert fit.converged and fit.n_iter == 0 and fit.w.tolist() == [0.0]


def _one_sweep(X, y, lam):
    """One cyclic coordinate-descent sweep of the lasso from w = 0, on the residual."""
    w = np.zeros(X.shape[1])
    for j in range(X.shape[1]):
        xj = X[:, j]
        if not xj.any():
            continue
        rho = xj @ (y - X @ w + xj * w[j])
        w[j] = np.sign(rho) * max(abs(rho) - lam / 2, 0.0) / (xj @ xj)
    return w


def test_lasso_sweep_is_cyclic_coordinate_descent_and_skips_zero_columns():
    X, y = _problem(43, n=30, d=4)
    X[:, 2] = X[:, 0] + 0.3 * X[:, 2]  # correlated: each update changes the next one's residual
    X[:, 1] = 0.0  # an all-zero column before the others
    lam = 0.1 * linear.lasso_lambda_max(X, y)
    with pytest.warns(ConvergenceWarning):
        fit = linear.lasso(X, y, lam=lam, max_iter=1)
    np.testing.assert_allclose(fit.w, _one_sweep(X, y, lam), rtol=1e-10)
    full = linear.lasso(X, y, lam=lam)
    assert full.converged and full.w[1] == 0
    np.testing.assert_allclose(np.delete(full.w, 1), linear.lasso(np.delete(X, 1, axis=1), y,
                                                                  lam=lam).w, rtol=1e-9)


def test_least_squares_cond_ignores_power_of_two_column_scales_and_zero_columns():
    # cond is that of X with unit-norm columns: scaling columns by powers of two (below and
    # above 1) changes neither it nor, up to the scale, w
    X, y = _problem(44, n=40, d=4)
    X = X / np.linalg.norm(X, axis=0) * 3.0  # column norms 3 (> 1)
    D = 2.0 ** np.array([-12, 0, 9, -30])
    for method in ("cholesky", "qr", "normal"):
        a, b = linear.least_squares(X, y, method=method), linear.least_squares(X * D, y, method=method)
        assert type(a.cond) is float and a.cond >= 1
        assert b.cond == pytest.approx(a.cond, rel=1e-12)
        np.testing.assert_allclose(b.w * D, a.w, rtol=1e-10)
    # the Cholesky path estimates the 1-norm cond(G) that method="normal" computes exactly:
    # LAPACK's estimate of |G^-1|_1 is a lower bound, and rarely off by a factor of 3
    est = linear.least_squares(X, y, method="cholesky").cond
    exact = linear.least_squares(X, y, method="normal").cond
    assert exact / 3 <= est <= exact * (1 + 1e-10)
    # an all-zero column: rank d - 1, the minimum-norm solution; QR and Cholesky refuse
    Z = X.copy()
    Z[:, 1] = 0.0
    fit = linear.least_squares(Z, y)
    assert fit.method == "svd" and fit.rank == 3
    np.testing.assert_allclose(fit.w, np.linalg.lstsq(Z, y, rcond=None)[0], rtol=1e-10, atol=1e-12)
    for method in ("qr", "cholesky"):
        with pytest.raises(ValueError, match="rank-deficient"):
            linear.least_squares(Z, y, method=method)


def test_cross_validate_defaults_folds_and_messages():
    X, y = _problem(45, n=12, d=2)
    lams = [0.1, 10.0]
    cv, se = linear.cross_validate(X, y, lams)
    cv5, se5 = linear.cross_validate(X, y, lams, n_folds=5, rng=0)
    np.testing.assert_array_equal(cv, cv5)
    np.testing.assert_array_equal(se, se5)
    assert not np.array_equal(cv, linear.cross_validate(X, y, lams, n_folds=6, rng=0)[0])
    assert not np.array_equal(cv, linear.cross_validate(X, y, lams, n_folds=5, rng=1)[0])
    # two folds are allowed (each half predicts the other); one or more than n are not
    folds = np.array_split(np.random.default_rng(3).permutation(12), 2)
    cv2, _ = linear.cross_validate(X, y, lams, n_folds=2, rng=3)
    sq = 0.0
    for k in range(2):
        model = linear.ridge(X[folds[1 - k]], y[folds[1 - k]], lam=lams[0], fit_intercept=True)
        sq += np.sum((y[folds[k]] - model.predict(X[folds[k]])) ** 2)
    assert cv2[0] == pytest.approx(sq / 12, rel=1e-12)
    for bad in (1, 13):
        with pytest.raises(ValueError, match=r"^n_folds must be an integer >= 2 and <= 12, got"):
            linear.cross_validate(X, y, lams, n_folds=bad)
    with pytest.raises(ValueError, match="^fit must be 'ridge' or 'lasso'; got 'ols'$"):
        linear.cross_validate(X, y, lams, fit="ols")


def test_elastic_net_arguments_fields_and_messages():
    X, y = _problem(46, n=30, d=3)
    fit = linear.elastic_net(X, y, lam1=2.0, lam2=3.0)
    assert fit.lam1 == 2.0 and fit.lam2 == 3.0 and fit.b == 0.0
    for kwargs, name in (({"tol": 0.0}, "tol"), ({"max_iter": 0}, "max_iter")):
        with pytest.raises(ValueError, match=f"^{name} must be"):
            linear.elastic_net(X, y, lam1=1.0, lam2=1.0, **kwargs)
    with pytest.raises(ValueError, match="too large for elastic_net:"):
        linear.elastic_net(X * 1e200, y, lam1=1.0, lam2=1.0)
    # tol is passed on: the fit stops at the first sweep whose gap is below tol |y|^2
    loose = linear.elastic_net(X, y, lam1=2.0, lam2=3.0, tol=1e-3)
    assert loose.gap[-1] <= 1e-3 * (y @ y) < loose.gap[-2]
    # and so is the warm start: from the solution, one sweep confirms it
    warm = linear.elastic_net(X, y, lam1=2.0, lam2=3.0, w0=fit.w)
    assert warm.n_iter <= 1 and warm.objective[0] == pytest.approx(fit.objective[-1], rel=1e-12)


def test_elastic_net_default_max_iter_and_warning():
    X, y = _problem(20)
    X[:, 1] = X[:, 0] + 1e-3 * X[:, 1]  # nearly collinear: more than 10 000 sweeps needed
    with pytest.warns(ConvergenceWarning) as record:
        fit = linear.elastic_net(X, y, lam1=1e-3, lam2=1e-9)
    assert fit.n_iter == 10_000 and not fit.converged
    assert one_warning_at(record, __file__)
    assert f"max_iter=10000 sweeps with duality gap {fit.gap[-1]:.2e} >" in str(record[0].message)
    with pytest.warns(ConvergenceWarning) as record:
        fit = linear.elastic_net(X, y, lam1=1e-3, lam2=1e-9, max_iter=2)
    assert f"{fit.gap[-1]:.2e}" != f"{fit.gap[-2]:.2e}"  # the gap of the last sweep is reported
    assert f"duality gap {fit.gap[-1]:.2e} >" in str(record[0].message)


def test_ard_arguments_fields_and_messages():
    X, y = _problem(47, n=40, d=3)
    for kwargs, name in (({"C_min": 0.0}, "C_min"), ({"tol": 0.0}, "tol"),
                         ({"max_iter": 0}, "max_iter")):
        with pytest.raises(ValueError, match=f"^{name} must be"):
            linear.ard(X, y, **kwargs)
    with pytest.raises(ValueError, match="too large for ard:"):
        linear.ard(X * 1e200, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a converged fit warns of nothing
        fit = linear.ard(X, y, tol=1e-8)
    assert fit.converged and fit.tol == 1e-8 and fit.b == 0.0
    with pytest.warns(ConvergenceWarning) as record:
        linear.ard(X, y, max_iter=3)
    assert one_warning_at(record, __file__)
    message = str(record[0].message)
    assert message.endswith("; increase max_iter or tol")
    # the relative change of the last update: the weights of update k are the posterior mean
    # at the hyperparameters after k - 1 updates, the final w of a fit with max_iter=k - 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        w1, w2 = (linear.ard(X, y, max_iter=k).w for k in (1, 2))
    reported = float(message.split("relative change ")[1].split(" ")[0])
    assert reported == pytest.approx(np.abs(w2 - w1).sum() / np.abs(w2).sum(), rel=1e-2)
    assert reported > 0


def test_ard_starts_from_unit_variances_and_var_y():
    # objective[0] is -ln p(y | C = 1, sigma^2 = Var(y)), computed here from the n x n covariance
    stats = pytest.importorskip("scipy.stats")
    X, y = _problem(48, n=30, d=3)
    y = 0.3 * y  # Var(y) far from 1
    fit = linear.ard(X, y)
    cov = np.var(y) * np.eye(len(y)) + X @ X.T
    assert fit.objective[0] == pytest.approx(
        -stats.multivariate_normal(np.zeros(len(y)), cov).logpdf(y), rel=1e-10)


def test_ard_prunes_everything_when_no_feature_explains_y():
    stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(1)
    x = rng.standard_normal(20)
    y = rng.standard_normal(20)
    y -= x * (x @ y) / (x @ x)  # orthogonal to the one feature: mu = 0, C -> 0
    fit = linear.ard(x[:, None], y)
    assert fit.converged and not fit.relevant.any()
    assert fit.w.tolist() == [0.0] and fit.C.tolist() == [0.0] and fit.b == 0.0
    # the objective at the end is -ln N(y; 0, sigma^2 I)
    assert fit.objective[-1] == pytest.approx(
        -stats.norm(0, np.sqrt(fit.sigma2)).logpdf(y).sum(), rel=1e-10)
    # y = 0 (Var(y) = 0) too: nothing to explain, no error, no warning; sigma^2 = 0 there and
    # the evidence is unbounded: the last objective entry is -inf (it was NaN)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit0 = linear.ard(x[:, None], np.zeros(20))
    assert not fit0.relevant.any() and fit0.w.tolist() == [0.0]
    assert fit0.objective[-1] == -np.inf and not np.isnan(fit0.objective).any(), fit0.objective


def test_ard_pruned_variances_are_zero_and_small_weights_reach_the_fixed_point():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((60, 6))
    y = 1e-4 * (X[:, :2] @ np.array([1.0, -2.0]) + 0.3 * rng.standard_normal(60))
    fit = linear.ard(X, y, C_min=1e-14)
    keep = fit.relevant
    assert fit.converged and 0 < keep.sum() < 6
    assert np.all(fit.C[~keep] == 0) and np.all(fit.w[~keep] == 0)
    # the fixed point C_d = mu_d^2 + Sigma_dd, reached although the weights are small
    np.testing.assert_allclose(fit.C[keep], fit.w[keep] ** 2 + np.diag(fit.Sigma)[keep], rtol=1e-7)


def test_ard_prunes_a_feature_whose_fitted_variance_is_below_C_min():
    # the fixed point C_2 of a weak feature (C_min tiny): with C_min above it the iteration
    # must cross C_min and prune the feature; with C_min below it the feature stays
    rng = np.random.default_rng(7)
    X = rng.standard_normal((60, 2))
    y = X @ np.array([1.0, 0.08]) + 0.3 * rng.standard_normal(60)
    c2 = linear.ard(X, y, C_min=1e-8).C[1]
    assert 0 < c2 < 0.05
    assert linear.ard(X, y, C_min=1.5 * c2).relevant.tolist() == [True, False]
    assert linear.ard(X, y, C_min=c2 / 1.5).relevant.tolist() == [True, True]


# -- tests that kill the surviving mutants of `make mutants MODULE=linear` -----------------------
# (tests/mutation_triage/linear.md lists each mutant with the test that kills it, or why it
# is equivalent)
def _exact_least_squares(X, y):
    """The exact least-squares solution of float data (normal equations in rationals), rounded."""
    from fractions import Fraction

    n, d = X.shape
    F = [[Fraction(v) for v in row] for row in X.tolist()]
    Y = [Fraction(v) for v in y.tolist()]
    A = [[sum(F[i][j] * F[i][k] for i in range(n)) for k in range(d)]
         + [sum(F[i][j] * Y[i] for i in range(n))] for j in range(d)]
    for j in range(d):  # Gauss-Jordan: exact, so no pivoting for size is needed
        p = next(i for i in range(j, d) if A[i][j] != 0)
        A[j], A[p] = A[p], A[j]
        for i in range(d):
            if i != j and A[i][j] != 0:
                f = A[i][j] / A[j][j]
                A[i] = [a - f * b for a, b in zip(A[i], A[j], strict=True)]
    return np.array([float(A[j][d] / A[j][j]) for j in range(d)])


def _unit_column_cond(X):
    return np.linalg.cond(X / np.linalg.norm(X, axis=0))


def test_one_qr_refinement_step_gains_digits_over_plain_qr():
    """cond(X) about 1e7 after scaling, large residuals: plain QR is off by about cond * eps
    (1e-9 relative); one refinement step with extended-precision residuals must come within
    3e-11 of the exact solution (a start from a wrong residual, or a correction with a sign
    error, stays near 1e-9)."""
    if np.finfo(np.longdouble).eps >= np.finfo(float).eps:
        pytest.skip("long double is double here: the refinement gains less")
    n = 40
    t = np.linspace(0, 1, n)
    X = np.column_stack([np.ones(n), t, t + 1e-5 * t**2, t**3])
    assert 1e6 < _unit_column_cond(X) < 1e8
    for seed in (0, 1):
        y = X @ np.array([1.0, -2.0, 3.0, 0.5]) + 1e3 * np.random.default_rng(seed).standard_normal(n)
        exact = _exact_least_squares(X, y)
        err = [np.max(np.abs(linear.least_squares(X, y, method="qr", refine=r).w - exact) / np.abs(exact))
               for r in (0, 1)]
        assert err[0] > 3e-10 and err[1] <= 3e-11, err


def test_qr_cond_is_that_of_unit_norm_columns():
    """`cond` is the 2-norm condition number of X with its columns scaled to unit norm; the
    power-of-two scaling is within a factor sqrt(2) of unit norm per column, so within a
    factor 2. Columns of norm 8 (max 1), a spike of norm about 1, and of norm 1e4: scaling by
    the largest entry or by the reciprocal norm gives a condition number 8 to 1e8 times off."""
    n = 64
    rng = np.random.default_rng(3)
    spike = np.zeros(n)
    spike[0] = 1.0
    X = np.column_stack([np.ones(n), spike + 1e-3 * rng.standard_normal(n),
                         1e3 * rng.standard_normal(n)])
    y = rng.standard_normal(n)
    target = _unit_column_cond(X)
    for method in ("qr", "svd"):
        fit = linear.least_squares(X, y, method=method)
        assert fit.method == method
        assert target / 2 <= fit.cond <= 2 * target
    assert linear.least_squares(X, y, method="svd").cond == pytest.approx(target, rel=1e-8)
    small = X / 64  # column norms below 1 are equilibrated too
    assert linear.least_squares(small, y, method="svd").cond == pytest.approx(target, rel=1e-8)
    assert target / 2 <= linear.least_squares(small, y, method="qr").cond <= 2 * target


def test_qr_on_zero_huge_square_and_single_columns():
    rng = np.random.default_rng(4)
    X = rng.standard_normal((12, 3))
    y = rng.standard_normal(12)
    # a zero column: QR refuses, auto falls back to the SVD (its coefficient 0)
    Z = np.column_stack([X, np.zeros(12)])
    with pytest.raises(ValueError, match="rank-deficient"):
        linear.least_squares(Z, y, method="qr")
    fit = linear.least_squares(Z, y)
    assert fit.method == "svd" and fit.rank == 3 and fit.cond == np.inf
    np.testing.assert_allclose(fit.w, np.append(np.linalg.lstsq(X, y, rcond=None)[0], 0.0),
                               rtol=1e-10, atol=1e-14)
    # an all-zero X: QR refuses, auto returns w = 0 of rank 0
    with pytest.raises(ValueError, match="rank-deficient"):
        linear.least_squares(np.zeros((5, 2)), y[:5], method="qr")
    fit = linear.least_squares(np.zeros((5, 2)), y[:5])
    assert fit.method == "svd" and fit.rank == 0 and np.all(fit.w == 0)
    # entries near 1e200: the column norms must not overflow (coefficients scale by 1e-200)
    big = linear.least_squares(X * 1e200, y, method="qr")
    np.testing.assert_allclose(big.w * 1e200, np.linalg.lstsq(X, y, rcond=None)[0], rtol=1e-10)
    # a square nonsingular X is solved by QR, not refused
    sq = linear.least_squares(X[:3], y[:3], method="qr")
    assert sq.method == "qr"
    np.testing.assert_allclose(X[:3] @ sq.w, y[:3], rtol=1e-10)
    # one column: w = x.y / x.x
    x = X[:, :1]
    np.testing.assert_allclose(linear.least_squares(x, y, method="qr").w, (x[:, 0] @ y) / (x[:, 0] @ x[:, 0]),
                               rtol=1e-12)


def test_qr_rank_threshold_is_relative_to_the_largest_diagonal_of_R():
    """R's diagonal is about (1.4, delta) for columns a and a + delta b (a of norm 1.4, b a unit
    vector orthogonal to a, columns scaled by 1). QR refuses when delta <= n eps max|R_ii|:
    delta = n eps is inside, 4 n eps outside (the threshold divided by max|R_ii| instead would
    accept n eps)."""
    n = 50
    a = np.zeros(n)
    a[:2] = 1.4 / np.sqrt(2)
    b = np.zeros(n)
    b[2] = 1.0
    y = np.arange(n, dtype=float)
    for delta, ok in ((n * np.finfo(float).eps, False), (4 * n * np.finfo(float).eps, True)):
        X = np.column_stack([a, a + delta * b])
        if ok:
            assert linear.least_squares(X, y, method="qr").method == "qr"
        else:
            with pytest.raises(ValueError, match="rank-deficient"):
                linear.least_squares(X, y, method="qr")


def test_svd_rcond_and_zero_singular_values_match_lstsq():
    rng = np.random.default_rng(5)
    U, _ = np.linalg.qr(rng.standard_normal((20, 4)))
    V, _ = np.linalg.qr(rng.standard_normal((4, 4)))
    X = U @ np.diag([100.0, 10.0, 2.0, 1e-3]) @ V.T
    y = rng.standard_normal(20)
    for rcond, rank in ((0.05, 2), (0.001, 3), (1e-6, 4)):  # cut-offs relative to 100, not 10
        fit = linear.least_squares(X, y, method="svd", rcond=rcond)
        assert fit.rank == rank
        np.testing.assert_allclose(fit.w, np.linalg.lstsq(X, y, rcond=rcond)[0], rtol=1e-8)
        assert (fit.cond == np.inf) == (rank < 4)
    # an exactly zero singular value with rcond=0: dropped, not divided by
    Z = np.column_stack([X[:, 0], np.zeros(20)])
    fit = linear.least_squares(Z, y, method="svd", rcond=0.0)
    assert fit.rank == 1 and np.all(np.isfinite(fit.w)) and fit.w[1] == 0.0
    # a zero column among others: cond is inf, without dividing by its zero norm (its singular
    # value may come out as 1e-17 rather than 0, and rcond=0 then keeps it)
    Z = rng.standard_normal((10, 4))
    Z[:, 1] = 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert linear.least_squares(Z, y[:10], method="svd", rcond=0.0).cond == np.inf


def test_ridge_dof_is_the_trace_of_the_hat_matrix():
    rng = np.random.default_rng(7)
    X = rng.standard_normal((15, 4)) * [1.0, 10.0, 0.1, 3.0]
    for lam in (0.01, 1.0, 50.0):
        H = X @ np.linalg.solve(X.T @ X + lam * np.eye(4), X.T)
        assert linear.ridge_dof(X, lam) == pytest.approx(np.trace(H), rel=1e-10)
    # at lam = 0 the rank: singular values 1e6, 1, 0 up to rounding (1e-10), with 1e-12 lam
    U, _ = np.linalg.qr(rng.standard_normal((10, 3)))
    V, _ = np.linalg.qr(rng.standard_normal((3, 3)))
    R = U @ np.diag([1e6, 1.0, 0.0]) @ V.T
    assert linear.ridge_dof(R, 0.0) == pytest.approx(2.0, rel=1e-12)
    assert linear.ridge_dof(np.zeros((3, 2)), 0.0) == 0.0
    assert linear.ridge_dof(np.zeros((3, 2)), 1.0) == 0.0
    with pytest.raises(ValueError, match=r"^X must be a 2-D array"):
        linear.ridge_dof(np.ones(3), 1.0)
    with pytest.raises(ValueError, match=r"^X contains NaN"):
        linear.ridge_dof(np.array([[np.nan, 1.0]]), 1.0)
    with pytest.raises(ValueError, match=r"^lam must be non-negative"):
        linear.ridge_dof(X, -1.0)


def test_ridge_path_at_zero_penalty_drops_a_zero_singular_value():
    """A zero column has a zero singular value: at lam = 0 its factor d / (d^2 + lam) is 0/0,
    taken as 0 (no warning), so the path is the least-squares fit with a 0 coefficient."""
    rng = np.random.default_rng(8)
    x = rng.standard_normal(12)
    y = rng.standard_normal(12)
    X = np.column_stack([x, np.zeros(12)])
    assert np.linalg.svd(X, compute_uv=False)[1] == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        path = linear.ridge_path(X, y, [0.0, 2.0])
    np.testing.assert_allclose(path[0], [x @ y / (x @ x), 0.0], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(path[1], [x @ y / (x @ x + 2.0), 0.0], rtol=1e-12, atol=1e-15)


def test_path_and_elastic_net_errors_name_their_argument():
    X, y = _problem(16, n=10, d=2)
    with pytest.raises(ValueError, match=r"^lams must be non-negative"):
        linear.ridge_path(X, y, [1.0, -1.0])
    with pytest.raises(ValueError, match=r"^lams must be non-negative"):
        linear.lasso_path(X, y, [1.0, -1.0])
    with pytest.raises(ValueError, match=r"^lam1s must be non-negative"):
        linear.elastic_net_path(X, y, [1.0, -1.0], lam2=1.0)
    with pytest.raises(ValueError, match=r"^t must be non-negative"):
        linear.soft_threshold(1.0, -1.0)
    with pytest.raises(ValueError, match=r"^tol must be positive"):
        linear.elastic_net(X, y, lam1=1.0, lam2=1.0, tol=0.0)
    with pytest.raises(ValueError, match=r"^max_iter must be an integer"):
        linear.elastic_net(X, y, lam1=1.0, lam2=1.0, max_iter=0)
    for fn, what in [(lambda Z: linear.ridge_path(Z, y, [1.0]), "ridge_path"),
                     (lambda Z: linear.lasso_path(Z, y, [1.0]), "lasso_path"),
                     (lambda Z: linear.elastic_net(Z, y, lam1=1.0, lam2=1.0), "elastic_net"),
                     (lambda Z: linear.elastic_net_path(Z, y, [1.0], lam2=1.0), "elastic_net_path")]:
        with pytest.raises(ValueError, match=f"too large for {what}:"):
            fn(X * 1e200)


def test_lasso_at_zero_penalty_is_a_complete_least_squares_fit():
    X, y = _problem(17, n=30, d=4)
    for fit_intercept in (False, True):
        fit = linear.lasso(X, y, lam=0.0, fit_intercept=fit_intercept)
        A = np.column_stack([np.ones(len(y)), X]) if fit_intercept else X
        ref = np.linalg.lstsq(A, y, rcond=None)[0]
        np.testing.assert_allclose(fit.w, ref[-4:], rtol=1e-9)
        assert isinstance(fit.b, float) and fit.b == pytest.approx(ref[0] if fit_intercept else 0.0, abs=1e-9)
        assert (fit.b == 0.0) == (not fit_intercept)
        r = y - X @ fit.w - fit.b
        assert fit.objective.shape == (1,) and fit.objective[0] == pytest.approx(r @ r, rel=1e-10)
        assert fit.gap.tolist() == [0.0]
        assert fit.lam == 0.0 and fit.n_iter == 0 and fit.converged is True


@pytest.mark.parametrize("path", ["lasso", "elastic_net"])
def test_paths_warm_start_in_decreasing_order_and_pass_their_options(path):
    """The documented algorithm, step by step: with max_iter=2 no fit converges, so the path
    depends on the order of the penalties and on each warm start."""
    X, y = _problem(10)
    X[:, 1] = X[:, 0] + 1e-3 * X[:, 1]  # nearly collinear: slow coordinate descent
    top = linear.lasso_lambda_max(X, y)
    lams = [0.01 * top, 0.3 * top, 0.05 * top]
    if path == "lasso":
        run = linear.lasso_path
        def one(lam, w0, **kw):
            return linear.lasso(X, y, lam=lam, w0=w0, **kw)
    else:
        def run(X, y, lams, **kw):
            return linear.elastic_net_path(X, y, lams, lam2=5.0, **kw)
        def one(lam, w0, **kw):
            return linear.elastic_net(X, y, lam1=lam, lam2=5.0, w0=w0, **kw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        got = run(X, y, lams, max_iter=2)
        w, want = None, {}
        for lam in sorted(lams, reverse=True):
            w = want[lam] = one(lam, w, max_iter=2).w
        cold = one(lams[0], None, max_iter=2).w
    np.testing.assert_allclose(got, [want[lam] for lam in lams], rtol=1e-12, atol=1e-14)
    assert np.max(np.abs(cold - want[lams[0]])) > 1e-6  # the warm start matters here
    # an intercept is passed on: y + 3 with fit_intercept gives the centred fit's w
    X, y = _problem(9)
    got = run(X, y + 3.0, lams, fit_intercept=True)
    for row, lam in zip(got, lams, strict=True):
        np.testing.assert_allclose(row, one(lam, None, fit_intercept=True).w, atol=1e-8)
        assert np.max(np.abs(row - one(lam, None).w)) > 1e-3


def test_soft_threshold_reads_any_numeric_dtype_as_float():
    # int8 -128 has no positive int8 (abs overflows), booleans have no sign: both as floats
    np.testing.assert_array_equal(linear.soft_threshold(np.array([-128, 100], dtype=np.int8), 1.0),
                                  [-127.0, 99.0])
    np.testing.assert_array_equal(linear.soft_threshold(np.array([True, False]), 0.25), [0.75, 0.0])


def test_elastic_net_stops_like_the_lasso_it_solves():
    """The elastic net is the lasso of augmented data: the same stopping defaults."""
    import inspect

    en = inspect.signature(linear.elastic_net).parameters
    la = inspect.signature(linear.lasso).parameters
    assert en["max_iter"].default == la["max_iter"].default == 10_000
    assert en["tol"].default == la["tol"].default


def test_least_squares_error_messages_in_full():
    X, y = _problem(18, n=12, d=3)
    with pytest.raises(ValueError, match=r"^method must be one of auto, cholesky, qr, svd, normal; got 'lu'$"):
        linear.least_squares(X, y, method="lu")
    with pytest.raises(ValueError, match=r"^method must be one of auto, cholesky, dual, svd; got 'qr'$"):
        linear.ridge(X, y, lam=1.0, method="qr")
    msg = ("^X is rank-deficient or too ill-conditioned for the normal equations \\(X\\^T X is singular to "
           "working precision\\); use method='qr' for an ill-conditioned full-rank X or method='svd' for "
           "the minimum-norm solution of a rank-deficient one")
    D = np.column_stack([X, X[:, 0]])
    for method in ("cholesky", "normal"):
        with pytest.raises(ValueError, match=msg + "$"):
            linear.least_squares(D, y, method=method)
    with pytest.raises(ValueError, match=msg + r" \(X has fewer rows, n=2, than columns, d=3\)$"):
        linear.least_squares(X[:2], y[:2], method="cholesky")
    with pytest.raises(ValueError, match=r"^X is rank-deficient \(a diagonal entry of R is zero to working "
                       r"precision\); use method='svd' for the minimum-norm solution$"):
        linear.least_squares(D, y, method="qr")
    for bad in (-1, 1.5):
        with pytest.raises(ValueError, match=r"^refine must be an integer >= 0, got"):
            linear.least_squares(X, y, refine=bad)
    assert linear.least_squares(X, y, method="qr", refine=0).method == "qr"
    for bad in (-0.1, 1.0, 2.5):
        with pytest.raises(ValueError, match=r"^rcond must lie in \[0, 1\), got"):
            linear.least_squares(X, y, method="svd", rcond=bad)
    assert linear.least_squares(X, y, method="svd", rcond=0.0).rank == 3


def test_least_squares_reports_the_method_it_used_and_checks_x_on_every_path():
    X, y = _problem(19, n=12, d=3)
    for method in ("cholesky", "qr", "svd", "normal"):
        assert linear.least_squares(X, y, method=method).method == method
        Xn = X.copy()
        Xn[2, 1] = np.nan
        with pytest.raises(ValueError, match="^X contains NaN"):
            linear.least_squares(Xn, y, method=method)
    assert linear.least_squares(X, y).method == "cholesky"
    assert linear.least_squares(X[:3], y[:3]).method == "cholesky"  # square and well-conditioned
    # entries near 1e200: X^T X overflows; auto goes on to QR without a floating-point warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = linear.least_squares(X * 1e200, y)
        Xi = X.copy()
        Xi[0, 0] = np.inf
        with pytest.raises(ValueError, match="^X contains inf"):
            linear.least_squares(Xi, y)
        Z = np.column_stack([X, np.zeros(12)])  # a zero column: no log2(0) warning either
        assert linear.least_squares(Z, y).method == "svd"
    assert fit.method == "qr"
    np.testing.assert_allclose(fit.w * 1e200, np.linalg.lstsq(X, y, rcond=None)[0], rtol=1e-10)


def test_normal_equations_equilibrate_and_report_the_1_norm_condition():
    """Columns of +-1 entries have norm 4 (16 rows), a power of two: the equilibrated Gram matrix is
    X^T X / 16 exactly. "normal" reports sqrt of its 1-norm condition number; Cholesky's LAPACK
    estimate of it is a lower bound, and never below a third of it here."""
    rng = np.random.default_rng(20)
    X = rng.choice([-1.0, 1.0], size=(16, 3))
    X[:, 2] = np.sign(X[:, 0] + X[:, 1] + 0.5)  # correlated with the first two columns
    y = rng.standard_normal(16)
    cond1 = np.linalg.cond(X.T @ X, 1)
    assert np.linalg.cond(X.T @ X, 2) < 0.9 * cond1
    assert linear.least_squares(X, y, method="normal").cond ** 2 == pytest.approx(cond1, rel=1e-10)
    est = linear.least_squares(X, y, method="cholesky").cond ** 2
    assert cond1 / 3 <= est <= cond1 * (1 + 1e-10)
    # columns x and x^5 on [0, 10]: scales 1e0 to 1e5, harmless once equilibrated
    x = np.linspace(0, 10, 30)
    P = np.column_stack([np.ones(30), x, x**5])
    yp = 1 + x - 1e-4 * x**5 + np.sin(x)
    fit = linear.least_squares(P, yp, method="normal")
    np.testing.assert_allclose(fit.w, np.linalg.lstsq(P, yp, rcond=None)[0], rtol=1e-8)


def test_qr_default_refinement_is_two_steps():
    n = 40
    t = np.linspace(0, 1, n)
    X = np.column_stack([np.ones(n), t, t + 1e-5 * t**2, t**3])
    y = X @ np.array([1.0, -2.0, 3.0, 0.5]) + 1e3 * np.random.default_rng(0).standard_normal(n)
    w = linear.least_squares(X, y, method="qr").w
    assert np.array_equal(w, linear.least_squares(X, y, method="qr", refine=2).w)
    assert not np.array_equal(w, linear.least_squares(X, y, method="qr", refine=3).w)


def test_ridge_objective_lambda_and_method_on_every_path():
    X, y = _problem(21, n=12, d=4)
    for n, fit_intercept in ((12, False), (12, True), (3, False), (4, False)):
        Xn, yn = X[:n], y[:n] + 2.0
        for lam in (0.0, 0.7, 1e4):  # 1e4: |w|^2 about 1e-8, far below the objective over lam
            for method in ("auto", "cholesky", "dual", "svd"):
                fit = linear.ridge(Xn, yn, lam=lam, fit_intercept=fit_intercept, method=method)
                want = method if method != "auto" else ("cholesky" if n >= 4 else "dual")
                assert fit.method == (want if lam > 0 else "least_squares")
                assert fit.lam == lam
                r = yn - Xn @ fit.w - fit.b
                assert fit.objective.shape == (1,)
                assert fit.objective[0] == pytest.approx(r @ r + lam * fit.w @ fit.w, rel=1e-9, abs=1e-12)
                if lam == 0 and n >= 4:
                    A = np.column_stack([np.ones(n), Xn]) if fit_intercept else Xn
                    ref = np.linalg.lstsq(A, yn, rcond=None)[0]
                    np.testing.assert_allclose(fit.w, ref[-4:], rtol=1e-8)


def test_ridge_checks_x_on_every_path_without_floating_point_warnings():
    X, y = _problem(22, n=12, d=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for method in ("cholesky", "dual", "svd"):
            for bad, what in ((np.nan, "NaN"), (np.inf, "inf")):
                Xb = X.copy()
                Xb[1, 1] = bad
                Xb[1, 0] = 0.0  # inf * 0 in X^T X
                for fit_intercept in (False, True):
                    with pytest.raises(ValueError, match=f"^X contains {what}"):
                        linear.ridge(Xb, y, lam=1.0, method=method, fit_intercept=fit_intercept)
            with pytest.raises(ValueError, match="too large for ridge:"):
                linear.ridge(X * 1e200, y, lam=1.0, method=method)


def test_lasso_counts_sweeps_starts_warm_and_stops_at_a_zero_gap():
    X, y = _problem(23, n=30, d=4)
    lam = 0.01 * linear.lasso_lambda_max(X, y)
    fit = linear.lasso(X, y, lam=lam)
    assert fit.converged and fit.lam == lam and fit.n_iter >= 2
    assert fit.objective.size == fit.gap.size == fit.n_iter + 1
    warm = linear.lasso(X, y, lam=lam, w0=fit.w)  # started at the solution: no sweep needed
    assert warm.n_iter == 0 and warm.converged and np.array_equal(warm.w, fit.w)
    en = linear.elastic_net(X, y, lam1=lam, lam2=1.0)
    assert en.lam1 == lam and en.lam2 == 1.0
    assert linear.elastic_net(X, y, lam1=lam, lam2=1.0, w0=en.w).n_iter == 0
    assert linear.elastic_net(X, y, lam1=lam, lam2=1.0, tol=10.0).n_iter == 0
    # from lambda_max on, w = 0 is optimal at the start: its dual point is feasible, gap exactly 0
    for f in (1.0, 1.2):
        top = linear.lasso(X, y, lam=f * linear.lasso_lambda_max(X, y), max_iter=3)
        assert top.n_iter == 0 and top.gap.tolist() == [0.0] and np.all(top.w == 0)
    # y = 0 with a tolerance so small that tol * tiny underflows to 0: a gap of exactly 0 stops
    zero = linear.lasso(np.eye(3), np.zeros(3), lam=1.0, tol=1e-20, max_iter=5)
    assert zero.converged and zero.n_iter == 0
    again = linear.lasso(np.eye(3), np.zeros(3), lam=1.0, w0=[1.0, 2.0, 3.0], tol=1e-20, max_iter=5)
    assert again.converged and again.n_iter == 1 and np.all(again.w == 0)
    with pytest.raises(ValueError, match=r"^tol must be positive"):
        linear.lasso(X, y, lam=1.0, tol=0.0)
    with pytest.raises(ValueError, match=r"^max_iter must be an integer"):
        linear.lasso(X, y, lam=1.0, max_iter=0)
    with pytest.raises(ValueError, match="too large for lasso:"):
        linear.lasso(X * 1e200, y, lam=1.0)
    with pytest.raises(ValueError, match="too large for lasso_lambda_max:"):
        linear.lasso_lambda_max(X * 1e200, y)


def test_lasso_gap_is_primal_minus_dual_at_the_scaled_residual():
    """gap = P(w) - D(theta), P(w) = |r|^2 + lam |w|_1, D(theta) = 2 theta.y - |theta|^2 at
    theta = s r, s = min(1, lam / (2 |X^T r|_inf)): recomputed from X and w after each of 3
    sweeps (not converged: s < 1)."""
    X, y = _problem(24, n=30, d=4)
    X[:, 1] = X[:, 0] + 1e-2 * X[:, 1]
    lam = 0.05 * linear.lasso_lambda_max(X, y)
    for k in (1, 2, 3):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            fit = linear.lasso(X, y, lam=lam, max_iter=k)
        r = y - X @ fit.w
        s = min(1.0, lam / (2 * np.max(np.abs(X.T @ r))))
        assert s < 1
        gap = r @ r + lam * np.abs(fit.w).sum() - (2 * s * (r @ y) - s * s * (r @ r))
        assert fit.gap[-1] == pytest.approx(gap, rel=1e-6)
        assert fit.objective[-1] == pytest.approx(r @ r + lam * np.abs(fit.w).sum(), rel=1e-10)


def test_one_lasso_sweep_is_exact_coordinate_minimisation():
    """One sweep from w = 0, written out on the residual: w_j <- S(x_j.r_(j), lam/2) / |x_j|^2,
    in column order, skipping an all-zero column (first here) rather than stopping there."""
    X, y = _problem(25, n=20, d=4)
    X[:, 2] = X[:, 1] + 0.1 * X[:, 2]
    X = np.column_stack([np.zeros(20), X])
    lam = 0.1 * linear.lasso_lambda_max(X, y)
    w = np.zeros(5)
    for j in range(1, 5):
        rho = X[:, j] @ (y - X @ w + X[:, j] * w[j])
        w[j] = np.sign(rho) * max(abs(rho) - lam / 2, 0.0) / (X[:, j] @ X[:, j])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        fit = linear.lasso(X, y, lam=lam, max_iter=1)
    np.testing.assert_allclose(fit.w, w, rtol=1e-10)
    assert np.count_nonzero(w) >= 3


@pytest.mark.parametrize("fn", ["lasso", "elastic_net"])
def test_iteration_limit_warning_points_at_the_caller_and_the_last_gap(fn):
    X, y = _problem(10)
    X[:, 1] = X[:, 0] + 1e-3 * X[:, 1]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if fn == "lasso":
            fit = linear.lasso(X, y, lam=1e-3, max_iter=2)
        else:
            fit = linear.elastic_net(X, y, lam1=1e-3, lam2=1e-3, max_iter=2)
    assert len(caught) == 1 and caught[0].category is ConvergenceWarning
    assert points_at(caught[0], __file__)
    message = str(caught[0].message)
    assert f"gap {fit.gap[-1]:.2e} >" in message and f"{fit.gap[1]:.2e}" != f"{fit.gap[-1]:.2e}"


def test_lasso_lambda_max_centres_for_an_intercept():
    X, y = _problem(26, n=20, d=3)
    Xc, yc = X - X.mean(axis=0), y - y.mean()
    assert linear.lasso_lambda_max(X, y, fit_intercept=True) == pytest.approx(2 * np.max(np.abs(Xc.T @ yc)),
                                                                              rel=1e-12)
    assert linear.lasso_lambda_max(X, y) == pytest.approx(2 * np.max(np.abs(X.T @ y)), rel=1e-12)


def test_cross_validate_arguments_and_defaults():
    X, y = _problem(27, n=20, d=3)
    with pytest.raises(ValueError, match=r"^fit must be 'ridge' or 'lasso'; got 'svm'$"):
        linear.cross_validate(X, y, [1.0], fit="svm")
    for bad in (1, 21):
        with pytest.raises(ValueError, match=r"^n_folds must be an integer >= 2 and <= 20, got"):
            linear.cross_validate(X, y, [1.0], n_folds=bad)
    assert linear.cross_validate(X, y, [1.0], n_folds=2)[0].shape == (1,)
    default = linear.cross_validate(X, y, [0.1, 10.0])
    explicit = linear.cross_validate(X, y, [0.1, 10.0], fit="ridge", n_folds=5, rng=0)
    assert np.array_equal(default[0], explicit[0]) and np.array_equal(default[1], explicit[1])


def test_ard_with_every_feature_pruned_is_the_noise_only_model():
    """y independent of X and C_min = 0.1: every feature is pruned after one update; w = 0,
    C = 0, the fit is converged without a warning, and the objective ends at
    -ln N(y; 0, sigma^2 I)."""
    rng = np.random.default_rng(30)
    X, y = rng.standard_normal((40, 3)), rng.standard_normal(40)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit = linear.ard(X, y, C_min=0.1)
    assert not fit.relevant.any() and fit.converged
    assert np.all(fit.w == 0) and np.all(fit.C == 0) and np.all(fit.Sigma == 0) and np.all(fit.gamma == 0)
    assert fit.b == 0.0 and fit.tol == 1e-10 and fit.C_min == 0.1
    nle = 0.5 * np.sum(np.log(2 * np.pi * fit.sigma2) + y**2 / fit.sigma2)
    assert fit.objective[-1] == pytest.approx(nle, rel=1e-12)
    # C_min = 1e-4 keeps feature 1 with C about 0.016; C_min at 1.5 times that prunes it
    kept = linear.ard(X, y)
    assert kept.relevant.tolist() == [False, True, False]
    assert np.all(kept.C[~kept.relevant] == 0) and np.all(kept.C[kept.relevant] > 1e-4)
    assert not linear.ard(X, y, C_min=1.5 * kept.C[1]).relevant.any()


def test_ard_arguments_defaults_and_iteration_limit_warning():
    import inspect

    X, y = _problem(31, n=30, d=3)
    for kw, name in (({"C_min": 0.0}, "C_min"), ({"tol": 0.0}, "tol"), ({"max_iter": 0}, "max_iter")):
        with pytest.raises(ValueError, match=f"^{name} must be"):
            linear.ard(X, y, **kw)
    with pytest.raises(ValueError, match="too large for ard:"):
        linear.ard(X * 1e200, y)
    assert inspect.signature(linear.ard).parameters["max_iter"].default == 1000
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        linear.ard(X, y, max_iter=2)
    assert one_warning_at(caught, __file__)
    assert str(caught[0].message).endswith("; increase max_iter or tol")


def test_ard_iteration_limit_warning_reports_the_last_change_of_w():
    """It reported 0.00e+00 (> tol): w_old was overwritten by the last w before the message."""
    X, y = _problem(31, n=30, d=3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        kept = linear.ard(X, y, max_iter=2).relevant
    message = str(caught[0].message)
    # the relative change of w between the two updates: the first posterior mean is ridge's at
    # lam = Var(y) (C = 1, sigma^2 = Var(y)), the second the one after one update (max_iter=1),
    # with the features pruned by the second update at 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        w1 = np.where(kept, linear.ard(X, y, max_iter=1).w, 0.0)  # pruned by the second update: 0
    w0 = linear.ridge(X, y, lam=np.var(y) + np.finfo(float).eps).w
    assert f"relative change {np.abs(w1 - w0).sum() / np.abs(w1).sum():.2e} > tol" in message


def test_ridge_dof_of_huge_and_tiny_features_stays_in_0_d():
    # df(lam) = sum_j d_j^2 / (d_j^2 + lam) for X scaled by 1e200: the d_j^2 (about 1e401)
    # overflow, and inf / inf gave NaN; df is then d = 4 for any representable lam
    X = np.random.default_rng(3).normal(size=(25, 4))
    for lam in (0.0, 1.0, 1e300):
        np.testing.assert_allclose(linear.ridge_dof(1e200 * X, lam), 4.0, rtol=1e-12)
    assert 0.0 <= linear.ridge_dof(1e-200 * X, 1.0) < 1e-300  # every d_j^2 far below lam
    # df is invariant under (X, lam) -> (cX, c^2 lam)
    np.testing.assert_allclose(linear.ridge_dof(1e150 * X, 1e300), linear.ridge_dof(X, 1.0),
                               rtol=1e-12)


def test_ard_takes_a_tiny_C_min():
    # C_min = 1e-30: a rounding-negative g_d made a negative precision and Cholesky failed
    ds = load_prostate()
    fit = linear.ard(ds.X, ds.y, C_min=1e-30)
    assert np.all(np.isfinite(fit.objective)) and np.all(fit.C >= 0), fit.C
