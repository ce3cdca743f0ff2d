"""The contract of CONTRIBUTING.md, checked on every public function (in the spirit of
scikit-learn's ``check_estimator``).

``FITS`` describes every fitting function: how to call it on valid data, which label set it
takes, which hyperparameters to poison and with what kind of values. ``HELPERS`` gives one valid
call of every other public function. A public function in none of the registries (nor in
``EXEMPT``, with the reason) fails ``test_registry_is_complete``.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import warnings
from types import MappingProxyType

import numpy as np
import pytest

import mlnotes
import mlnotes.bounds
import mlnotes.check
import mlnotes.datasets
import mlnotes.losses
import mlnotes.optim
from mlnotes import ConvergenceWarning

MODULES = ["boosting", "bounds", "check", "kernels", "linear", "logistic", "losses", "online",
           "optim", "svm"]

# -- data --------------------------------------------------------------------------------------
_rng = np.random.default_rng(20261122)
X = _rng.standard_normal((40, 3))
_score = X @ np.array([1.0, -2.0, 0.5]) + 0.8 * _rng.standard_normal(40)  # not separable
Y_PM = np.where(_score > 0, 1.0, -1.0)
Y_01 = (Y_PM + 1) / 2
Y_REAL = _score.copy()
Y_MULTI = np.digitize(_score, [-1.0, 1.0]).astype(float)  # three classes 0, 1, 2
X_POS = np.abs(X)  # histogram kernels' features
X_W = X / np.abs(X).max()  # winnow's features lie in [-1, 1]


@dataclasses.dataclass
class Fit:
    fn: object
    labels: str  # "pm1", "01", "multi", "real"
    kwargs: dict = dataclasses.field(default_factory=dict)
    # hyperparameter -> kind: "pos" (> 0), "nonneg" (>= 0), "count" (integer >= 1)
    hyper: dict = dataclasses.field(default_factory=dict)
    cap: dict | None = None  # kwargs that hit the iteration cap
    random: bool = False  # takes rng=
    batch: bool = True  # row order must not matter
    budget: bool = False  # a fixed budget with no stopping test: converged is None
    X: np.ndarray = dataclasses.field(default_factory=lambda: X)

    @property
    def y(self):
        return {"pm1": Y_PM, "01": Y_01, "multi": Y_MULTI, "real": Y_REAL}[self.labels]

    def __call__(self, X_=None, y_=None, **kw):
        return self.fn(self.X if X_ is None else X_, self.y if y_ is None else y_,
                       **{**self.kwargs, **kw})


L, G, O, S, B, K = (importlib.import_module(f"mlnotes.{m}") for m in
                    ("linear", "logistic", "online", "svm", "boosting", "kernels"))
FITS = {
    "linear.least_squares": Fit(L.least_squares, "real"),
    "linear.ridge": Fit(L.ridge, "real", {"lam": 1.0}, {"lam": "nonneg"}),
    "linear.lasso": Fit(L.lasso, "real", {"lam": 0.1},
                        {"lam": "nonneg", "tol": "pos", "max_iter": "count"},
                        cap={"max_iter": 1, "tol": 1e-15}),
    "linear.elastic_net": Fit(L.elastic_net, "real", {"lam1": 0.1, "lam2": 0.5},
                              {"lam1": "nonneg", "lam2": "nonneg", "tol": "pos",
                               "max_iter": "count"},
                              cap={"max_iter": 1, "tol": 1e-15}),
    "linear.ard": Fit(L.ard, "real", {}, {"C_min": "pos", "tol": "pos", "max_iter": "count"},
                      cap={"max_iter": 1, "tol": 1e-15}),
    "logistic.newton": Fit(G.newton, "01", {"lam": 0.1},
                           {"lam": "nonneg", "tol": "pos", "max_iter": "count"},
                           cap={"max_iter": 1, "tol": 1e-15}),
    "logistic.irls": Fit(G.irls, "01", {"lam": 0.1},
                         {"lam": "nonneg", "tol": "pos", "max_iter": "count"},
                         cap={"max_iter": 1, "tol": 1e-15}),
    "logistic.gradient_ascent": Fit(G.gradient_ascent, "01", {"lam": 0.1, "eta": 0.01},
                                    {"eta": "pos", "lam": "nonneg", "tol": "pos", "max_iter": "count"},
                                    cap={"max_iter": 1, "tol": 1e-15}),
    "logistic.probit": Fit(G.probit, "01", {}, {"tol": "pos", "max_iter": "count"},
                           cap={"max_iter": 1, "tol": 1e-15}),
    "logistic.glm": Fit(G.glm, "01", {}, {"tol": "pos", "max_iter": "count"},
                        cap={"max_iter": 1, "tol": 1e-15}),
    "logistic.softmax_regression": Fit(G.softmax_regression, "multi", {"lam": 0.1},
                                       {"lam": "nonneg", "tol": "pos", "max_iter": "count"},
                                       cap={"max_iter": 1, "tol": 1e-15}),
    "online.perceptron": Fit(O.perceptron, "pm1", {}, {"n_epochs": "count"},
                             cap={"n_epochs": 1}, random=True, batch=False),
    "online.winnow": Fit(O.winnow, "pm1", {}, {"eta": "pos", "n_epochs": "count"},
                         cap={"n_epochs": 1}, random=True, batch=False, X=X_W),
    "online.sgd": Fit(O.sgd, "pm1", {"eta": 0.05, "shuffle": True},
                      {"eta": "pos", "lam": "nonneg", "n_epochs": "count", "batch_size": "count"},
                      cap={"n_epochs": 1, "tol": 1e-15}, random=True, batch=False),
    "svm.smo": Fit(S.smo, "pm1", {"C": 1.0, "kernel": "linear", "tol": 1e-10},
                   {"C": "pos", "tol": "pos", "max_iter": "count"},
                   cap={"max_iter": 1, "tol": 1e-15}),
    "svm.smo_basic": Fit(S.smo_basic, "pm1", {"C": 1.0, "kernel": "linear", "tol": 1e-10},
                         {"C": "pos", "tol": "pos", "max_iter": "count"},
                         cap={"max_iter": 1, "tol": 1e-15}),
    "svm.subgradient_svm": Fit(S.subgradient_svm, "pm1", {"max_iter": 50},
                               {"C": "pos", "max_iter": "count"}, budget=True),
    "svm.pegasos": Fit(S.pegasos, "pm1", {"n_epochs": 2},
                       {"C": "pos", "n_epochs": "count", "batch_size": "count"},
                       random=True, batch=False, budget=True),
    "svm.sgd_svm": Fit(S.sgd_svm, "pm1", {"n_epochs": 2, "t0": 100.0},
                       {"C": "pos", "n_epochs": "count", "eta": "pos", "t0": "nonneg"},
                       random=True, batch=False, budget=True),
    "svm.one_vs_rest": Fit(S.one_vs_rest, "multi", {"kernel": "linear", "tol": 1e-10}, {"C": "pos"}),
    "svm.one_vs_one": Fit(S.one_vs_one, "multi", {"kernel": "linear", "tol": 1e-10}, {"C": "pos"}),
    # takes rng= (the order of its passes) but has no w: W holds one row per class
    "svm.crammer_singer": Fit(S.crammer_singer, "multi", {"tol": 1e-13},
                              {"C": "pos", "tol": "pos", "max_iter": "count"},
                              cap={"max_iter": 1, "tol": 1e-15}),
    "boosting.adaboost": Fit(B.adaboost, "pm1", {"n_rounds": 5}, {"n_rounds": "count"}),
    "kernels.kernel_ridge": Fit(K.kernel_ridge, "real", {"lam": 1.0, "gamma": 0.5},
                                {"lam": "pos", "gamma": "pos"}),
}

# Bad values per kind; each must give a ValueError or TypeError that names the argument.
BAD = {
    "pos": [-1.0, 0.0, np.nan, np.inf, "1"],
    "nonneg": [-1.0, np.nan, np.inf, "1"],
    "count": [0, -1, 2.5, np.inf, np.nan, "3", True],
}
# inf is meaningful for smo's C (the hard margin); our data are not separable, so smo refuses.
ALLOWED = {("svm.smo", "C", np.inf), ("svm.one_vs_rest", "C", np.inf), ("svm.one_vs_one", "C", np.inf)}


def _quiet(fn, *a, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*a, **kw)


def _predict(fit, Xn):
    if hasattr(fit, "predict"):
        return fit.predict(Xn)
    return fit.decision_function(Xn)


# -- helpers: one valid call each ----------------------------------------------------------------
_K = X @ X.T
_alpha = np.full(40, 0.1)
HELPERS = {
    "boosting.best_stump": lambda: B.best_stump(X, Y_PM),
    "boosting.check_distribution": lambda: B.check_distribution(np.full(4, 0.25), 4),
    "boosting.reweight": lambda: B.reweight(np.full(4, 0.25), 0.5, np.array([1.0, 1.0, 1.0, -1.0])),
    "boosting.vote": lambda: B.vote(0.25),
    "boosting.weighted_error": lambda: B.weighted_error(np.full(4, 0.25), np.array([1.0, 1.0, 1.0, -1.0])),
    "boosting.stump_errors": lambda: B.stump_errors(X, Y_PM),
    "bounds.binomial_logpmf": lambda: mlnotes.bounds.binomial_logpmf(3, 10, 0.4),
    "bounds.binomial_tail": lambda: mlnotes.bounds.binomial_tail(50, 0.4, 0.1),
    "bounds.chernoff_bound": lambda: mlnotes.bounds.chernoff_bound(50, 0.4, 0.1),
    "bounds.erm_simulation": lambda: mlnotes.bounds.erm_simulation(
        mlnotes.bounds.stump_class(5), 20, n_rep=10, rng=0),
    "bounds.hoeffding_bound": lambda: mlnotes.bounds.hoeffding_bound(50, 0.1),
    "bounds.kl_bernoulli": lambda: mlnotes.bounds.kl_bernoulli(0.3, 0.5),
    "bounds.mc_interval": lambda: mlnotes.bounds.mc_interval(0.1, 100, 0.05),
    "bounds.sample_complexity": lambda: mlnotes.bounds.sample_complexity(10, 0.1, 0.05),
    "bounds.simulate_deviation": lambda: mlnotes.bounds.simulate_deviation(20, 0.4, 0.1, n_rep=50, rng=0),
    "bounds.stump_class": lambda: mlnotes.bounds.stump_class(5),
    "bounds.uniform_deviation": lambda: mlnotes.bounds.uniform_deviation(50, 10, 0.05),
    "bounds.union_bound": lambda: mlnotes.bounds.union_bound(np.array([0.1, 0.2])),
    "check.numerical_gradient": lambda: mlnotes.check.numerical_gradient(lambda w: w @ w, np.ones(2)),
    "check.numerical_hessian": lambda: mlnotes.check.numerical_hessian(lambda w: w @ w, np.ones(2)),
    "check.numerical_jacobian": lambda: mlnotes.check.numerical_jacobian(lambda w: 2 * w, np.ones(2)),
    "check.rel_error": lambda: mlnotes.check.rel_error(np.ones(3), np.ones(3)),
    "kernels.additive_chi2_kernel": lambda: K.additive_chi2_kernel(X_POS),
    "kernels.check_psd": lambda: K.check_psd(_K),
    "kernels.may_be_indefinite": lambda: K.may_be_indefinite("poly", coef0=-1.0),
    "kernels.chi2_kernel": lambda: K.chi2_kernel(X_POS),
    "kernels.gram": lambda: K.gram(X),
    "kernels.kernel_rows": lambda: K.kernel_rows(X, kernel="rbf", gamma=0.5)(3),
    "kernels.intersection_kernel": lambda: K.intersection_kernel(X_POS),
    "kernels.linear_kernel": lambda: K.linear_kernel(X),
    "kernels.polar_features": lambda: K.polar_features(X[:, :2]),
    "kernels.poly2_features": lambda: K.poly2_features(X),
    "kernels.polynomial_kernel": lambda: K.polynomial_kernel(X),
    "kernels.rbf_kernel": lambda: K.rbf_kernel(X),
    "kernels.sigmoid_kernel": lambda: K.sigmoid_kernel(X, gamma=0.1),
    "linear.cross_validate": lambda: L.cross_validate(X, Y_REAL, [0.1, 1.0], n_folds=4),
    "linear.elastic_net_path": lambda: L.elastic_net_path(X, Y_REAL, [1.0, 0.1], lam2=0.5),
    "linear.lasso_lambda_max": lambda: L.lasso_lambda_max(X, Y_REAL),
    "linear.lasso_path": lambda: L.lasso_path(X, Y_REAL, [1.0, 0.1]),
    "linear.ridge_dof": lambda: L.ridge_dof(X, 1.0),
    "linear.ridge_path": lambda: L.ridge_path(X, Y_REAL, [0.1, 1.0]),
    "linear.soft_threshold": lambda: L.soft_threshold(np.array([-2.0, 0.5]), 1.0),
    "logistic.is_separable": lambda: G.is_separable(X, Y_01),
    "logistic.log_likelihood": lambda: G.log_likelihood(np.zeros(3), X, Y_01),
    "logistic.log_loss": lambda: G.log_loss(Y_PM, X[:, 0]),
    "logistic.log_sigmoid": lambda: G.log_sigmoid(X[:, 0]),
    "logistic.sigmoid": lambda: G.sigmoid(X[:, 0]),
    "logistic.softmax": lambda: G.softmax(X),
    "online.perceptron_bound": lambda: O.perceptron_bound(X, np.sign(X @ [1.0, -2.0, 0.5]), np.array([1.0, -2.0, 0.5])),
    "online.winnow_bound": lambda: O.winnow_bound(0.1, 10, 0.1),
    "optim.gradient_descent": lambda: _quiet(mlnotes.optim.gradient_descent, lambda w: 2 * w,
                                             np.ones(2), eta=0.1),
    "optim.margin_line_search": lambda: mlnotes.optim.margin_line_search(
        X, Y_PM, np.zeros(3), np.ones(3), loss="log", lam=0.1),
    "optim.step_sizes": lambda: mlnotes.optim.step_sizes(0.1, 0.5, 10),
    "optim.subgradient_method": lambda: mlnotes.optim.subgradient_method(
        lambda w: np.abs(w).sum(), np.sign, np.ones(2), eta=0.1, max_iter=20),
    "svm.bias_from_gradient": lambda: S.bias_from_gradient(_alpha, Y_PM, _K @ (_alpha * Y_PM) * Y_PM - 1, 1.0),
    "svm.crammer_singer_dual": lambda: S.crammer_singer_dual(
        np.column_stack([_alpha, 1.0 - _alpha]), X, (Y_PM + 1) / 2, 1.0),
    "svm.crammer_singer_primal": lambda: S.crammer_singer_primal(
        np.ones((2, 3)), X, (Y_PM + 1) / 2, 1.0),
    "svm.multiclass_margins": lambda: S.multiclass_margins(
        np.ones((2, 3)), X, (Y_PM + 1) / 2),
    "svm.project_simplex": lambda: S.project_simplex(X[0], 1.0),
    "svm.dual_objective": lambda: S.dual_objective(_alpha, Y_PM, _K),
    "svm.hinge_objective": lambda: S.hinge_objective(np.zeros(3), 0.0, X, Y_PM, 1.0),
    "svm.is_kernel_separable": lambda: S.is_kernel_separable(_K, Y_PM),
    "svm.kkt_violation": lambda: S.kkt_violation(_alpha, Y_PM, _K, 1.0),
    "svm.primal_objective": lambda: S.primal_objective(_alpha, 0.0, Y_PM, _K, 1.0),
    "svm.two_variable_step": lambda: S.two_variable_step(0.1, 0.1, 1.0, -1.0, -1.0, -1.0, 2.0, 2.0, 0.5, 1.0),
    **{f"losses.{n}": (lambda n=n: getattr(mlnotes.losses, n)(np.linspace(-2, 2, 5)))
       for n in ["exponential", "exponential_derivative", "hinge", "hinge_derivative", "log_loss",
                 "log_loss_derivative", "logistic", "logistic_derivative", "perceptron",
                 "perceptron_derivative", "quadratic", "quadratic_derivative", "sigmoid_loss",
                 "sigmoid_loss_derivative", "zero_one"]},
    "losses.get": lambda: mlnotes.losses.get("hinge"),
}
EXEMPT: dict[str, str] = {}


def _public_functions():
    out = set()
    for m in MODULES:
        mod = importlib.import_module(f"mlnotes.{m}")
        names = getattr(mod, "__all__", None) or [n for n in dir(mod) if not n.startswith("_")]
        for n in names:
            obj = getattr(mod, n)
            if inspect.isfunction(obj) and obj.__module__ == mod.__name__:
                out.add(f"{m}.{n}")
    return out


def test_registry_is_complete():
    public = _public_functions()
    registered = set(FITS) | set(HELPERS) | set(EXEMPT)
    assert public - registered == set(), "add these public functions to tests/test_api.py"
    assert registered - public == set(), "registered but not public (renamed?)"


# -- the checks on every fit ---------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(FITS))
def test_fit_rejects_bad_data(name):
    spec = FITS[name]
    Xb = spec.X.copy()
    Xb[3, 1] = np.nan
    with pytest.raises(ValueError, match="X"):
        spec(Xb)
    with pytest.raises(ValueError, match="no rows|at least two classes"):
        spec(spec.X[:0], spec.y[:0])  # 0 rows
    with pytest.raises(ValueError):
        spec(spec.X, spec.y[:-1])  # rows of X and y differ
    yb = spec.y.copy()
    yb[0] = np.nan
    with pytest.raises(ValueError, match="y"):
        spec(spec.X, yb)


@pytest.mark.parametrize("name", sorted(n for n, s in FITS.items() if s.labels in ("pm1", "01")))
def test_fit_rejects_wrong_label_set(name):
    spec = FITS[name]
    wrong = Y_01 if spec.labels == "pm1" else Y_PM
    with pytest.raises(ValueError, match=r"y must take values in"):
        spec(spec.X, wrong)


_HYPER_CASES = [(n, h, v) for n, s in FITS.items() for h, kind in s.hyper.items() for v in BAD[kind]
                if (n, h, v) not in ALLOWED]


@pytest.mark.parametrize(("name", "param", "value"), _HYPER_CASES,
                         ids=[f"{n}-{h}={v!r}" for n, h, v in _HYPER_CASES])
def test_fit_rejects_bad_hyperparameter(name, param, value):
    with pytest.raises((ValueError, TypeError), match=param):
        _quiet(FITS[name], **{param: value})


@pytest.mark.parametrize("name", sorted(FITS))
def test_fit_result_contract(name):
    spec = FITS[name]
    Xc, yc = spec.X.copy(), spec.y.copy()
    fit = _quiet(spec)
    # inputs untouched
    np.testing.assert_array_equal(Xc, spec.X)
    np.testing.assert_array_equal(yc, spec.y)
    # frozen, owns read-only arrays, read-only mappings
    assert dataclasses.is_dataclass(fit) and type(fit).__dataclass_params__.frozen
    assert type(fit).__name__.endswith("Fit")
    for f in dataclasses.fields(fit):
        v = getattr(fit, f.name)
        if isinstance(v, np.ndarray):
            assert not v.flags.writeable, f"{f.name} is writeable"
            assert not np.shares_memory(v, spec.X) and not np.shares_memory(v, spec.y), f.name
        assert not isinstance(v, dict), f"{f.name} is a mutable dict"
        if isinstance(v, MappingProxyType):
            with pytest.raises(TypeError):
                v["gamma"] = 1.0
    # the fields every fit carries: n_iter, converged, objective as a finite 1-D array
    assert isinstance(fit.n_iter, (int, np.integer)) and fit.n_iter >= 0
    assert fit.converged is None if spec.budget else fit.converged in (True, False)
    assert isinstance(fit.objective, np.ndarray) and fit.objective.ndim == 1 and fit.objective.size >= 1
    assert np.all(np.isfinite(fit.objective)) and not fit.objective.flags.writeable
    before = _predict(fit, spec.X)
    spec.X.flags.writeable = False  # a fit that wrote into its input would fail here, too
    assert np.array_equal(_predict(fit, spec.X), before)
    spec.X.flags.writeable = True
    # a wrong column count at predict time
    with pytest.raises(ValueError, match="column"):
        _predict(fit, spec.X[:, :2])


@pytest.mark.parametrize("name", sorted(n for n, s in FITS.items() if s.random))
def test_same_rng_same_result(name):
    spec = FITS[name]
    a = _quiet(spec, rng=7)
    b = _quiet(spec, rng=np.random.default_rng(7))
    c = _quiet(spec, rng=7)
    np.testing.assert_array_equal(a.w, c.w)
    np.testing.assert_array_equal(a.w, b.w)
    with pytest.raises(TypeError, match="rng"):
        spec(rng="seven")


@pytest.mark.parametrize("name", sorted(n for n, s in FITS.items() if s.batch))
def test_row_permutation_leaves_batch_fit_unchanged(name):
    spec = FITS[name]
    perm = np.random.default_rng(1).permutation(spec.X.shape[0])
    a = _quiet(spec)
    b = _quiet(spec, spec.X[perm], spec.y[perm])
    grid = np.random.default_rng(2).standard_normal((25, spec.X.shape[1]))
    if hasattr(a, "decision_function"):
        np.testing.assert_allclose(a.decision_function(grid), b.decision_function(grid),
                                   rtol=1e-6, atol=1e-6)
    else:
        np.testing.assert_allclose(a.predict(grid), b.predict(grid), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name", sorted(n for n, s in FITS.items() if s.cap))
def test_iteration_cap_warns_and_reports(name):
    spec = FITS[name]
    with pytest.warns(ConvergenceWarning):
        fit = spec(**spec.cap)
    assert fit.converged is False


# -- helpers ------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(HELPERS))
def test_helper_runs_without_modifying_inputs(name):
    Xc, Kc = X.copy(), _K.copy()
    HELPERS[name]()
    np.testing.assert_array_equal(X, Xc)
    np.testing.assert_array_equal(_K, Kc)


# the module-level arrays a helper's registered call may use, and which a NaN must not get past
_POISONABLE = ("X", "X_POS", "X_W", "Y_PM", "Y_01", "Y_REAL", "_K", "_alpha")
# elementwise maps propagate NaN like numpy's own ufuncs (np.exp, np.tanh): NaN in, NaN out
_ELEMENTWISE = {"logistic.sigmoid", "logistic.log_sigmoid"}
_HELPER_ARRAYS = [(name, g) for name, call in sorted(HELPERS.items()) if name not in _ELEMENTWISE
                  for g in _POISONABLE if g in call.__code__.co_names]


@pytest.mark.parametrize(("name", "array"), _HELPER_ARRAYS)
def test_helper_rejects_nan_in_its_data(name, array, monkeypatch):
    bad = globals()[array].copy()
    bad[(0,) * bad.ndim] = np.nan
    monkeypatch.setitem(globals(), array, bad)
    with pytest.raises(ValueError, match="NaN"):
        HELPERS[name]()


@pytest.mark.parametrize("name", ["svm.dual_objective", "svm.primal_objective",
                                  "svm.kkt_violation", "svm.is_kernel_separable"])
def test_svm_helpers_reject_01_labels(name):
    fn = getattr(S, name.split(".")[1])
    args = {"svm.dual_objective": (_alpha, Y_01, _K), "svm.primal_objective": (_alpha, 0.0, Y_01, _K, 1.0),
            "svm.kkt_violation": (_alpha, Y_01, _K, 1.0), "svm.is_kernel_separable": (_K, Y_01)}[name]
    with pytest.raises(ValueError, match="y must take values in"):
        fn(*args)


def test_hinge_objective_rejects_01_labels_and_negative_C():
    with pytest.raises(ValueError, match="y must take values in"):
        S.hinge_objective(np.zeros(3), 0.0, X, Y_01, 1.0)
    with pytest.raises(ValueError, match="C must be positive"):
        S.hinge_objective(np.zeros(3), 0.0, X, Y_PM, -1.0)


def test_indefinite_builtin_kernels_are_checked():
    Xs = X[:30] * 3
    with pytest.raises(ValueError, match="indefinite"):
        S.smo(Xs, Y_PM[:30], kernel="poly", coef0=-5.0)
    with pytest.raises(ValueError, match="not positive semidefinite.*allow_indefinite"):
        K.kernel_ridge(Xs, Y_REAL[:30], lam=1.0, kernel="sigmoid", gamma=1.0, coef0=-1.0)
    with pytest.warns(K.NotPSDWarning, match="not positive semidefinite"):
        K.kernel_ridge(Xs, Y_REAL[:30], lam=1.0, kernel="sigmoid", gamma=1.0, coef0=-1.0,
                       allow_indefinite=True)
    with pytest.raises(ValueError, match="on_indefinite"):
        K.check_psd(_K, on_indefinite="shout")


def test_softmax_regression_detects_separation():
    Xs = np.vstack([np.zeros((5, 2)) + c for c in ([0, 0], [5, 0], [0, 5])]) + 0.1 * X[:15, :2]
    Xs = np.column_stack([Xs, np.ones(15)])
    ys = np.repeat([0.0, 1.0, 2.0], 5)
    with pytest.warns(ConvergenceWarning, match="separable"):
        fit = G.softmax_regression(Xs, ys)
    assert fit.separable and not fit.converged
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not G.softmax_regression(X, Y_MULTI).separable  # overlapping classes


def test_softmax_regression_separable_with_saturated_probabilities():
    # two classes far apart: the probabilities saturate and the Hessian turns singular after
    # a few steps; the fit must say "separable", not "linearly dependent columns"
    Xs = np.column_stack([np.ones(20), np.r_[np.linspace(-4, -3, 10), np.linspace(3, 4, 10)]])
    with pytest.warns(ConvergenceWarning, match="separable"):
        fit = G.softmax_regression(Xs, np.repeat([0.0, 1.0], 10))
    assert fit.separable and not fit.converged


# == what a function receives besides data (issue 31) ============================================
# Four kinds, each over a registry with its own completeness test: X with zero columns; the
# callables a function calls (their output is checked where it enters the algorithm); objects
# passed in; bounds and step-by-step helpers given values outside their domain. Every case must
# end in a ValueError or TypeError naming what was wrong, or in the answer the maths gives.

# -- zero columns ------------------------------------------------------------------------------
X0 = X[:, :0]
# Functions taking X whose answer on points of R^0 is defined: every x is the origin, so
# x.y = 0 and ||x - y|| = 0, and each kernel is its value there (from its definition, with its
# default parameters); the ridge hat matrix of no columns has trace 0; the degree-2 feature map
# of R^0 (coef0 = 0) is empty.
ZERO_COLUMN_ANSWERS = {
    "kernels.linear_kernel": (lambda: K.linear_kernel(X0), np.zeros((40, 40))),
    "kernels.polynomial_kernel": (lambda: K.polynomial_kernel(X0), np.ones((40, 40))),  # (0 + 1)^3
    "kernels.rbf_kernel": (lambda: K.rbf_kernel(X0), np.ones((40, 40))),  # exp(-gamma 0)
    "kernels.sigmoid_kernel": (lambda: K.sigmoid_kernel(X0), np.full((40, 40), np.tanh(1.0))),
    "kernels.intersection_kernel": (lambda: K.intersection_kernel(X0), np.zeros((40, 40))),  # empty sum
    "kernels.additive_chi2_kernel": (lambda: K.additive_chi2_kernel(X0), np.zeros((40, 40))),
    "kernels.chi2_kernel": (lambda: K.chi2_kernel(X0), np.ones((40, 40))),  # exp(-gamma 0)
    "kernels.gram": (lambda: K.gram(X0, kernel="linear"), np.zeros((40, 40))),
    "kernels.kernel_rows": (lambda: K.kernel_rows(X0, kernel="rbf")(3), np.ones(40)),
    "kernels.poly2_features": (lambda: K.poly2_features(X0), np.zeros((40, 0))),
    "linear.ridge_dof": (lambda: L.ridge_dof(X0, 1.0), 0.0),
    # K = 1 1^T (rbf): alpha = (1 1^T + lam I)^{-1} y, so f(x) = sum(y) / (n + lam) everywhere
    "kernels.kernel_ridge": (lambda: K.kernel_ridge(X0, Y_REAL, lam=1.0).predict(X0[:5]),
                             np.full(5, Y_REAL.sum() / 41.0)),
    # no features, W = 0: every score is 0, so the margins are the losses 1[k != y_i], the
    # primal is C n (each point pays max_k 1[k != y_i] = 1), and the dual at alpha_ik = C/3
    # is sum_ik alpha_ik 1[k != y_i] = n C 2/3
    "svm.multiclass_margins": (lambda: S.multiclass_margins(np.zeros((3, 0)), X0[:3], np.arange(3)),
                               1.0 - np.eye(3)),
    "svm.crammer_singer_primal": (lambda: S.crammer_singer_primal(np.zeros((3, 0)), X0[:6],
                                                                  np.arange(6) % 3, 2.0), 12.0),
    "svm.crammer_singer_dual": (lambda: S.crammer_singer_dual(np.full((6, 3), 2.0 / 3), X0[:6],
                                                              np.arange(6) % 3, 2.0), 8.0),
}
# Functions taking X where no features leaves nothing to fit or to compute: a ValueError.
ZERO_COLUMN_REFUSED = {
    **{name: (lambda spec=spec: _quiet(spec, spec.X[:, :0])) for name, spec in FITS.items()
       if name != "kernels.kernel_ridge"},
    "boosting.best_stump": lambda: B.best_stump(X0, Y_PM),
    "boosting.stump_errors": lambda: B.stump_errors(X0, Y_PM),
    "boosting.StumpSearch": lambda: B.StumpSearch(X0),
    "kernels.polar_features": lambda: K.polar_features(X0),
    "linear.cross_validate": lambda: L.cross_validate(X0, Y_REAL, [1.0]),
    "linear.lasso_lambda_max": lambda: L.lasso_lambda_max(X0, Y_REAL),
    "linear.lasso_path": lambda: L.lasso_path(X0, Y_REAL, [1.0]),
    "linear.elastic_net_path": lambda: L.elastic_net_path(X0, Y_REAL, [1.0], lam2=1.0),
    "linear.ridge_path": lambda: L.ridge_path(X0, Y_REAL, [1.0]),
    "logistic.is_separable": lambda: G.is_separable(X0, Y_01),
    "logistic.log_likelihood": lambda: G.log_likelihood(np.zeros(0), X0, Y_01),
    "logistic.softmax": lambda: G.softmax(X0),  # a softmax over no classes
    "online.perceptron_bound": lambda: O.perceptron_bound(X0, Y_PM, np.zeros(0)),
    "optim.margin_line_search": lambda: mlnotes.optim.margin_line_search(
        X0, Y_PM, np.zeros(0), np.zeros(0)),
    "svm.hinge_objective": lambda: S.hinge_objective(np.zeros(0), 0.0, X0, Y_PM, 1.0),
}


def test_zero_column_registry_is_complete():
    takes_X = {n for n in _public_functions()
               if {"X", "A"} & set(inspect.signature(_function(n)).parameters)}
    assert takes_X - set(ZERO_COLUMN_ANSWERS) - set(ZERO_COLUMN_REFUSED) == set()


def _function(name):
    module, attr = name.split(".")
    return getattr(importlib.import_module(f"mlnotes.{module}"), attr)


@pytest.mark.parametrize("name", sorted(ZERO_COLUMN_REFUSED))
def test_zero_columns_refused_naming_X(name):
    with pytest.raises(ValueError, match=r"\b(X|A) has no columns|need 2 features"):
        ZERO_COLUMN_REFUSED[name]()


@pytest.mark.parametrize("name", sorted(ZERO_COLUMN_ANSWERS))
def test_zero_columns_give_the_answer_of_R0(name):
    call, expected = ZERO_COLUMN_ANSWERS[name]
    np.testing.assert_allclose(call(), expected, rtol=1e-13, atol=0)


# -- callables: wrong shape, NaN, None -----------------------------------------------------------
def _output(kind: str, good):
    """A function whose output is ``good(w)`` spoilt by ``kind``."""
    def spoilt(*args, **kw):
        out = np.asarray(good(*args, **kw), dtype=float)
        if kind == "shape":
            return np.ones(out.size + 1) if out.ndim < 2 else out[:, :-1]
        return None if kind == "None" else out * np.nan
    return spoilt


class _Learner:
    def __init__(self, predict):
        self.predict = predict


_w2 = np.ones(2)
_quadratic, _grad = (lambda w: float(w @ w)), (lambda w: 2 * w)
_linear_gram = lambda A, B: A @ B.T  # noqa: E731
# (function, argument) -> a call with that argument replaced by the spoilt callable
CALLABLE_CALLS = {
    ("check.numerical_gradient", "f"): lambda g: mlnotes.check.numerical_gradient(g(_quadratic), _w2),
    ("check.numerical_hessian", "f"): lambda g: mlnotes.check.numerical_hessian(g(_quadratic), _w2),
    # a Jacobian may have any shape, but the same at every point: the spoilt one changes it
    ("check.numerical_jacobian", "F"): lambda g: mlnotes.check.numerical_jacobian(
        lambda w: (g(_grad) if w[0] < 1 else _grad)(w), _w2),
    ("optim.gradient_descent", "grad"): lambda g: mlnotes.optim.gradient_descent(g(_grad), _w2, eta=0.1),
    ("optim.gradient_descent", "f"): lambda g: _quiet(mlnotes.optim.gradient_descent, _grad, _w2,
                                                       eta=0.1, f=g(_quadratic)),
    ("optim.subgradient_method", "f"): lambda g: mlnotes.optim.subgradient_method(
        g(_quadratic), _grad, _w2, eta=0.1, max_iter=5),
    ("optim.subgradient_method", "subgrad"): lambda g: mlnotes.optim.subgradient_method(
        _quadratic, g(_grad), _w2, eta=0.1, max_iter=5),
    ("kernels.gram", "kernel"): lambda g: K.gram(X, kernel=g(_linear_gram)),
    ("kernels.kernel_rows", "kernel"): lambda g: K.kernel_rows(X, kernel=g(_linear_gram))(0),
    ("kernels.kernel_ridge", "kernel"): lambda g: K.kernel_ridge(X, Y_REAL, lam=1.0, kernel=g(_linear_gram)),
    ("svm.smo", "kernel"): lambda g: S.smo(X, Y_PM, kernel=g(_linear_gram)),
    ("svm.smo_basic", "kernel"): lambda g: S.smo_basic(X, Y_PM, kernel=g(_linear_gram)),  # names only
    ("svm.one_vs_rest", "kernel"): lambda g: S.one_vs_rest(X, Y_MULTI, kernel=g(_linear_gram)),
    ("svm.one_vs_one", "kernel"): lambda g: S.one_vs_one(X, Y_MULTI, kernel=g(_linear_gram)),
    ("boosting.adaboost", "weak_learner"): lambda g: B.adaboost(
        X, Y_PM, n_rounds=3, weak_learner=lambda X_, y_, D_: _Learner(g(lambda Z: np.sign(Z[:, 0]) + (Z[:, 0] == 0)))),
}
# takes a kernel name or a callable but never calls it: the callable only means "check the PSD-ness"
CALLABLE_EXEMPT = {("kernels.may_be_indefinite", "kernel"),
                   ("logistic.log_loss", "f")}  # f there is the array of scores, not a function
_CALLABLE_ARGS = {"f", "F", "grad", "subgrad", "kernel", "weak_learner"}
_CALLABLE_CASES = [(n, a, kind) for n, a in sorted(CALLABLE_CALLS) for kind in ("shape", "NaN", "None")]


def test_callable_registry_is_complete():
    taking = {(n, p) for n in _public_functions()
              for p in inspect.signature(_function(n)).parameters if p in _CALLABLE_ARGS}
    assert taking - set(CALLABLE_CALLS) - CALLABLE_EXEMPT == set()


@pytest.mark.parametrize(("name", "arg", "kind"), _CALLABLE_CASES,
                         ids=[f"{n}-{a}-{k}" for n, a, k in _CALLABLE_CASES])
def test_callable_output_is_checked(name, arg, kind):
    call = CALLABLE_CALLS[(name, arg)]
    named = {"f": r"\bf\b", "F": r"\bF\b", "grad": "grad", "subgrad": "subgrad",
             "kernel": "kernel", "weak_learner": "weak_learner"}[arg]
    with pytest.raises((ValueError, TypeError), match=named):
        call(lambda good: _output(kind, good))


# -- objects passed in ----------------------------------------------------------------------------
_H = mlnotes.bounds.stump_class(5)
_rows = K.kernel_rows(X, kernel="rbf", gamma=0.5)
OBJECT_CASES = {
    "adaboost: weak_learner not callable": (lambda: B.adaboost(X, Y_PM, n_rounds=3, weak_learner=5),
                                            TypeError, "weak_learner must be callable"),
    "adaboost: a result without predict": (
        lambda: B.adaboost(X, Y_PM, n_rounds=3, weak_learner=lambda X_, y_, D_: 3),
        TypeError, r"predict\(\) method"),
    "adaboost: predictions in {0, 1}": (
        lambda: B.adaboost(X, Y_PM, n_rounds=3,
                           weak_learner=lambda X_, y_, D_: _Learner(lambda Z: (Z[:, 0] > 0) * 1.0)),
        ValueError, r"weak_learner's h.predict\(X\) must take values in \{-1, \+1\}"),
    "Stump: feature -1": (lambda: B.Stump(-1, 0.0, 1, 0.1), ValueError, "feature must be"),
    "Stump: feature 1.5": (lambda: B.Stump(1.5, 0.0, 1, 0.1), ValueError, "feature must be"),
    "Stump: polarity 2": (lambda: B.Stump(0, 0.0, 2, 0.1), ValueError, "polarity must be"),
    "Stump: threshold NaN": (lambda: B.Stump(0, np.nan, 1, 0.1), ValueError, "threshold"),
    "Stump: eps 1.5": (lambda: B.Stump(0, 0.0, 1, 1.5), ValueError, "eps must lie in"),
    "StumpSearch: NaN in a list": (lambda: B.StumpSearch([[1.0], [np.nan]]), ValueError, "X contains NaN"),
    "StumpSearch: inf": (lambda: B.StumpSearch(np.array([[1.0], [-np.inf]])), ValueError, "X contains inf"),
    "StumpSearch: 1-D": (lambda: B.StumpSearch([1.0, 2.0]), ValueError, "X must be a 2-D"),
    "StumpClass: eta 0.5": (lambda: mlnotes.bounds.StumpClass(np.array([0.5]), 0.3, 0.5),
                            ValueError, r"eta must lie in \[0, 0.5\)"),
    "StumpClass: eta -0.1": (lambda: mlnotes.bounds.stump_class(3, eta=-0.1), ValueError, "eta must lie in"),
    "StumpClass: theta 1.5": (lambda: mlnotes.bounds.stump_class(3, theta=1.5), ValueError,
                              r"theta must lie in \[0, 1\]"),
    "StumpClass: theta NaN": (lambda: mlnotes.bounds.stump_class(3, theta=np.nan), ValueError, "theta"),
    "StumpClass: theta a string": (lambda: mlnotes.bounds.stump_class(3, theta="0.3"), TypeError, "theta"),
    "H.predict: j = -1": (lambda: _H.predict(-1, np.array([0.5])), ValueError, r"j must be indices"),
    "H.predict: j = k": (lambda: _H.predict(_H.k, np.array([0.5])), ValueError, r"j must be indices"),
    "H.predict: j = 1.5": (lambda: _H.predict(1.5, np.array([0.5])), ValueError, r"j must be indices"),
    "H.predict: x NaN": (lambda: _H.predict(0, np.array([np.nan])), ValueError, "x contains NaN"),
    "erm_simulation: H a string": (lambda: mlnotes.bounds.erm_simulation("bogus", 10), TypeError,
                                   "H must be a StumpClass"),
    "erm_simulation: H None": (lambda: mlnotes.bounds.erm_simulation(None, 10), TypeError,
                               "H must be a StumpClass"),
    "kernel_rows: i = -1": (lambda: _rows(-1), ValueError, r"i \(the row of kernel_rows\)"),
    "kernel_rows: i = n": (lambda: _rows(40), ValueError, r"i \(the row of kernel_rows\)"),
    "kernel_rows: i = 1.5": (lambda: _rows(1.5), ValueError, r"i \(the row of kernel_rows\)"),
    "kernel_rows: i = '0'": (lambda: _rows("0"), TypeError, r"i \(the row of kernel_rows\)"),
    "gram: kernel an unknown name": (lambda: K.gram(X, kernel="bogus"), ValueError, "kernel must be"),
    "gram: kernel a number": (lambda: K.gram(X, kernel=3), ValueError, "kernel must be"),
    "gram: kernel returning a string": (lambda: K.gram(X, kernel=lambda A, B: "K"), TypeError,
                                        "the kernel callable must return"),
}


@pytest.mark.parametrize("case", sorted(OBJECT_CASES))
def test_object_passed_in_is_checked(case):
    call, error, match = OBJECT_CASES[case]
    with pytest.raises(error, match=match):
        call()


def test_stump_search_takes_array_likes():
    lists = [[1.0, 0.0], [2.0, 1.0], [3.0, 0.0], [4.0, 1.0]]
    y, D = np.array([-1.0, 1.0, -1.0, 1.0]), np.full(4, 0.25)
    assert B.StumpSearch(lists).best(y, D) == B.best_stump(np.array(lists), y)


# -- bounds and step-by-step helpers outside their domain ---------------------------------------
_y2, _D2 = np.array([1.0, -1.0]), np.array([0.5, 0.5])
HELPER_DOMAIN_CASES = {
    "margin_line_search: w NaN": (lambda: mlnotes.optim.margin_line_search(
        X, Y_PM, np.array([np.nan, 0.0, 0.0]), np.ones(3)), "w contains NaN"),
    "margin_line_search: direction inf": (lambda: mlnotes.optim.margin_line_search(
        X, Y_PM, np.zeros(3), np.array([np.inf, 0.0, 0.0])), "direction contains inf"),
    "margin_line_search: labels 0/1": (lambda: mlnotes.optim.margin_line_search(
        X, (Y_PM + 1) / 2, np.zeros(3), np.ones(3)), "y"),
    "perceptron_bound: u = 0": (lambda: O.perceptron_bound(X, _Y_SEP, np.zeros(3)), "u must be a non-zero"),
    "perceptron_bound: u NaN": (lambda: O.perceptron_bound(X, _Y_SEP, np.array([np.nan, 1.0, 0.0])),
                                "u contains NaN"),
    "perceptron_bound: u inf": (lambda: O.perceptron_bound(X, _Y_SEP, np.array([np.inf, 1.0, 0.0])),
                                "u contains inf"),
    "winnow_bound: N = 0": (lambda: O.winnow_bound(0.1, 0, 0.1), "N must be an integer >= 1"),
    "winnow_bound: N = -3": (lambda: O.winnow_bound(0.1, -3, 0.1), "N must be an integer >= 1"),
    "winnow_bound: N NaN": (lambda: O.winnow_bound(0.1, np.nan, 0.1), "N must be an integer"),
    "winnow_bound: N = 2.5": (lambda: O.winnow_bound(0.1, 2.5, 0.1), "N must be an integer"),
    "sample_complexity: gamma = 1e-200": (lambda: mlnotes.bounds.sample_complexity(50, 1e-200, 0.05),
                                          "exceeds 2\\*\\*63"),
    "kkt_violation: alpha > C": (lambda: S.kkt_violation(np.full(40, 2.0), Y_PM, _K, 1.0),
                                 r"alpha must lie in the box \[0, C\]"),
    "kkt_violation: alpha < 0": (lambda: S.kkt_violation(np.full(40, -0.1), Y_PM, _K, 1.0),
                                 r"alpha must lie in the box \[0, C\]"),
    "bias_from_gradient: alpha > C": (lambda: S.bias_from_gradient(np.full(40, 2.0), Y_PM, np.zeros(40), 1.0),
                                      r"alpha must lie in the box"),
    "two_variable_step: yi = 0": (lambda: S.two_variable_step(0.1, 0.1, 0.0, -1.0, -1.0, -1.0, 2.0, 2.0, 0.5, 1.0),
                                  "yi and yj must be labels"),
    "two_variable_step: yj = 2": (lambda: S.two_variable_step(0.1, 0.1, 1.0, 2.0, -1.0, -1.0, 2.0, 2.0, 0.5, 1.0),
                                  "yi and yj must be labels"),
    "two_variable_step: yi = -2": (lambda: S.two_variable_step(0.1, 0.1, -2.0, 1.0, -1.0, -1.0, 2.0, 2.0, 0.5, 1.0),
                                   "yi and yj must be labels"),
    "two_variable_step: yi NaN": (lambda: S.two_variable_step(0.1, 0.1, np.nan, 1.0, -1.0, -1.0, 2.0, 2.0, 0.5, 1.0),
                                  "yi and yj must be labels"),
    "two_variable_step: C = -1": (lambda: S.two_variable_step(0.1, 0.1, 1.0, -1.0, -1.0, -1.0, 2.0, 2.0, 0.5, -1.0),
                                  r"C must be a positive number"),
    "two_variable_step: C NaN": (lambda: S.two_variable_step(0.1, 0.1, 1.0, -1.0, -1.0, -1.0, 2.0, 2.0, 0.5, np.nan),
                                 r"C must be a positive number"),
    "subgradient_method: f_star NaN": (
        lambda: mlnotes.optim.subgradient_method(lambda w: float(np.abs(w).sum()), np.sign, np.ones(2),
                                                 eta=0.5, f_star=np.nan),
        "f_star must be a finite number"),
    "smo_basic: one class": (lambda: S.smo_basic(X, np.ones(40)), "both classes"),
    "smo: one class": (lambda: S.smo(X, -np.ones(40)), "both classes"),
    "may_be_indefinite: unknown name": (lambda: K.may_be_indefinite("bogus"), "kernel must be one of"),
    "kernel_ridge: lam 1e-300 on repeated rows": (
        lambda: K.kernel_ridge(np.vstack([X, X]), np.arange(80.0), lam=1e-300),
        r"K \+ lam I is singular to working precision: lam = 1e-300"),
    "may_be_indefinite: coef0 NaN": (lambda: K.may_be_indefinite("poly", coef0=np.nan),
                                     "coef0 must be a finite number"),
    "may_be_indefinite: coeff0 misspelt": (lambda: K.may_be_indefinite("poly", coeff0=-5.0),
                                           r"the 'poly' kernel takes .*got \['coeff0'\]"),
    "weighted_error: negative D": (lambda: B.weighted_error(np.array([-0.5, 1.5]), _y2), "D must be non-negative"),
    "weighted_error: NaN D": (lambda: B.weighted_error(np.array([np.nan, 1.0]), _y2), "D contains NaN"),
    "weighted_error: yh 0": (lambda: B.weighted_error(_D2, np.array([0.0, -1.0])), r"yh must take values in"),
    "reweight: negative D": (lambda: B.reweight(np.array([-0.5, 1.5]), 0.5, _y2), "D must be non-negative"),
    "reweight: NaN D": (lambda: B.reweight(np.array([np.nan, 1.0]), 0.5, _y2), "D contains NaN"),
    "reweight: alpha inf": (lambda: B.reweight(_D2, np.inf, _y2), "alpha must be a finite"),
    "reweight: alpha NaN": (lambda: B.reweight(_D2, np.nan, _y2), "alpha must be a finite"),
    "reweight: yh 0": (lambda: B.reweight(_D2, 0.5, np.array([0.0, -1.0])), r"yh must take values in"),
    "reweight: yh 2": (lambda: B.reweight(_D2, 0.5, np.array([2.0, -1.0])), r"yh must take values in"),
    "reweight: D all zero": (lambda: B.reweight(np.zeros(2), 0.5, _y2), "D must have a positive total"),
    "reweight: alpha 1000 on a mistake": (lambda: B.reweight(_D2, 1000.0, np.array([1.0, -1.0])),
                                          "Z overflows at alpha = 1000"),
    "reweight: finite weights whose sum overflows": (
        lambda: B.reweight(np.ones(3), 709.0, -np.ones(3)), "Z overflows at alpha = 709"),
    "StumpClass: a threshold above 1": (lambda: mlnotes.bounds.StumpClass([0.5, 1.5], 0.3, 0.1),
                                        r"thresholds must lie in \[0, 1\]"),
    "StumpClass: a threshold below 0": (lambda: mlnotes.bounds.StumpClass([-0.5, 0.5], 0.3, 0.1),
                                        r"thresholds must lie in \[0, 1\]"),
    "subgradient_svm: eta0 = 1e6": (lambda: S.subgradient_svm(X, Y_PM, eta0=1e6), "diverged.*eta0"),
    "perceptron: 1e-200 beside the intercept": (
        lambda: O.perceptron(X * 1e-200, _Y_SEP, fit_intercept=True), "scale of X"),
    "perceptron: 1e200 beside the intercept": (
        lambda: O.perceptron(X * 1e200, _Y_SEP, fit_intercept=True), "scale of X"),
}


@pytest.mark.parametrize("case", sorted(HELPER_DOMAIN_CASES))
def test_helper_outside_its_domain_is_refused(case):
    call, match = HELPER_DOMAIN_CASES[case]
    with pytest.raises((ValueError, TypeError), match=match):
        call()


def test_check_distribution_of_huge_weights_is_uniform():
    # [1e308, 1e308] is two equal weights: the normalised distribution is [1/2, 1/2] (the sum
    # overflows; dividing by it gave [0, 0])
    np.testing.assert_array_equal(B.check_distribution([1e308, 1e308], 2), [0.5, 0.5])
    np.testing.assert_array_equal(B.check_distribution([1.5e308, 0.5e308], 2), [0.75, 0.25])


def test_kernel_rows_own_their_points():
    Xc = X.copy()
    rows = K.kernel_rows(Xc, kernel="linear")
    before = rows(2)
    Xc[:] = 0.0
    np.testing.assert_array_equal(rows(2), before)
    np.testing.assert_allclose(before, X @ X[2], rtol=1e-15)


@pytest.mark.parametrize("load", [lambda: mlnotes.datasets.load_iris(),
                                  lambda: mlnotes.datasets.load_nist("Longley"),
                                  lambda: mlnotes.datasets.load_spam_tiny()])
def test_loaded_data_are_read_only(load):
    data = load()
    for name in ("X", "y") if hasattr(data, "X") else ("y",):  # a TextDataset: texts, y
        with pytest.raises(ValueError, match="read-only"):
            getattr(data, name)[0] = 0.0


def test_indefinite_callable_kernel_is_refused_unless_allowed():
    # CONTRIBUTING's rule: a function whose Gram matrix is indefinite is not a kernel; gram and
    # kernel_ridge refuse it (naming its most negative eigenvalue) unless the caller says
    # allow_indefinite=True (then a warning); the SVM dual with it is not concave, so the SVM
    # solvers refuse it always. Callables and names alike.
    neg = lambda A, B: -(A @ B.T)  # noqa: E731  (minus a Gram matrix: negative semidefinite)
    for fit in (lambda **a: K.gram(X, kernel=neg, **a),
                lambda **a: K.kernel_ridge(X, Y_REAL, lam=1.0, kernel=neg, **a)):
        with pytest.raises(ValueError, match="not positive semidefinite.*allow_indefinite"):
            fit()
        with pytest.warns(K.NotPSDWarning, match="not positive semidefinite"):
            fit(allow_indefinite=True)
    with pytest.raises(ValueError, match="indefinite"), pytest.warns(K.NotPSDWarning):
        S.smo(X, Y_PM, kernel=neg)


@pytest.mark.parametrize("fn", ["numerical_gradient", "numerical_jacobian", "numerical_hessian"])
@pytest.mark.parametrize("h", [0.0, -1e-5, np.nan, np.inf])
def test_finite_difference_step_is_checked(fn, h):
    f = (lambda w: 2 * w) if fn == "numerical_jacobian" else (lambda w: w @ w)
    with pytest.raises(ValueError, match="h must"):
        getattr(mlnotes.check, fn)(f, np.ones(2), h=h)


def test_unrepresentable_default_steps_blame_the_scale_of_X():
    with pytest.raises(ValueError, match="scale of X"):
        G.gradient_ascent(X * 1e200, Y_01)
    with pytest.raises(ValueError, match="scale of X"):
        S.subgradient_svm(X * 1e200, Y_PM)


@pytest.mark.parametrize(("kw", "match"), [({"rcond": -1.0}, "rcond"), ({"rcond": np.nan}, "rcond"),
                                           ({"refine": 2.5}, "refine"), ({"method": "lu"}, "method")])
def test_least_squares_checks_its_options(kw, match):
    with pytest.raises(ValueError, match=match):
        L.least_squares(X, Y_REAL, **kw)


@pytest.mark.parametrize("module", [*MODULES, "_validation", "_source", "datasets", "plots"])
def test_examples_in_docstrings_run(module):
    """The ``Examples`` sections are doctests; they must print what they show."""
    import doctest

    mod = importlib.import_module(f"mlnotes.{module}")
    # Under `make mutants` each function has a few hundred copies (``x_ridge__mutmut_12``),
    # each with the docstring: their examples would run once a copy, 7 s a mutant for linear.
    examples = [t for t in doctest.DocTestFinder().find(mod) if "__mutmut_" not in t.name]
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for example in examples:
        runner.run(example)
    assert any(t.examples for t in examples), f"no examples found in mlnotes.{module}"
    assert runner.summarize(verbose=False).failed == 0


# == scale 1e+-200: online, boosting, kernels (helper `rest`) ====================================
# Each fit or kernel at features scaled by 1e200 or 1e-200 gives the answer of the unscaled
# problem, transformed (the perceptron's w scales with X; stumps' thresholds do; the kernels are
# homogeneous or reach their limit exactly), or a ValueError naming the scale of X; never NaN,
# inf or zeros that the mathematics does not give.
SCALES = [1e200, 1e-200]
_Y_SEP = np.where(X @ np.array([1.0, -2.0, 0.5]) > 0, 1.0, -1.0)


@pytest.mark.parametrize("scale", SCALES)
def test_scale_perceptron_is_the_scaled_fit(scale):
    base, fit = O.perceptron(X, _Y_SEP), O.perceptron(X * scale, _Y_SEP)
    assert fit.converged and fit.n_mistakes == base.n_mistakes
    np.testing.assert_array_equal(fit.mistake_index, base.mistake_index)
    np.testing.assert_allclose(fit.w, base.w * scale, rtol=1e-12)
    np.testing.assert_array_equal(fit.predict(X * scale), base.predict(X))


@pytest.mark.parametrize("scale", SCALES)
def test_scale_winnow_names_the_scale_of_X(scale):
    with pytest.raises(ValueError, match=r"scale.*X|scale X"):
        O.winnow(X_W * scale, _Y_SEP)


def test_scale_sgd_large_names_the_scale_of_X():
    with pytest.raises(ValueError, match="scale of X"):
        O.sgd(X * 1e200, Y_PM)


def test_scale_sgd_small_is_the_scaled_run():
    # w(sX, eta) = s w(X, eta s^2); eta s^2 underflows, but with margins far below 1 the hinge
    # subgradient is -1 at every step, so any tiny step gives the same direction: compare with
    # eta' = 1e-20 on X, scaled by s eta / eta'.
    s, eta = 1e-200, 0.05
    fit = O.sgd(X * s, Y_PM, eta=eta, fit_intercept=False, n_epochs=3)
    ref = O.sgd(X, Y_PM, eta=1e-20, fit_intercept=False, n_epochs=3)
    assert np.all(np.isfinite(fit.w)) and np.any(fit.w != 0)
    np.testing.assert_allclose(fit.w, ref.w * (s * eta / 1e-20), rtol=1e-12)
    np.testing.assert_array_equal(fit.predict(X * s), ref.predict(X))


@pytest.mark.parametrize("scale", SCALES)
def test_scale_adaboost_is_the_scaled_fit(scale):
    base, fit = B.adaboost(X, Y_PM, n_rounds=8), B.adaboost(X * scale, Y_PM, n_rounds=8)
    np.testing.assert_array_equal(fit.alpha, base.alpha)
    np.testing.assert_array_equal([h.feature for h in fit.stumps], [h.feature for h in base.stumps])
    np.testing.assert_allclose([h.threshold for h in fit.stumps], [h.threshold * scale for h in base.stumps],
                               rtol=1e-15)
    np.testing.assert_array_equal(fit.predict(X * scale), base.predict(X))


@pytest.mark.parametrize("kernel, params", [("linear", {}), ("poly", {}), ("rbf", {"gamma": 0.5}),
                                            ("sigmoid", {"gamma": 0.1})])
def test_scale_large_inner_product_kernels_name_the_scale_of_X(kernel, params):
    with pytest.raises(ValueError, match="scale of X"):
        K.gram(X * 1e200, kernel=kernel, **params)
    with pytest.raises(ValueError, match="scale of X"):
        K.kernel_ridge(X * 1e200, Y_REAL, lam=1.0, kernel=kernel, **params)


def test_scale_small_inner_product_kernels():
    Xs = X * 1e-200
    with pytest.raises(ValueError, match="underflow.*scale of X"):  # x^T y ~ 1e-400: not a double
        K.gram(Xs, kernel="linear")
    with pytest.raises(ValueError, match="underflow.*scale of X"):
        K.gram(Xs, kernel="poly", coef0=0.0)
    # with an offset the kernel is its limit at x = 0, exactly in double precision
    np.testing.assert_array_equal(K.gram(Xs, kernel="poly"), np.ones((40, 40)))
    np.testing.assert_array_equal(K.gram(Xs, kernel="rbf", gamma=0.5), np.ones((40, 40)))
    np.testing.assert_array_equal(K.gram(Xs, kernel="sigmoid", gamma=0.1), np.full((40, 40), np.tanh(1.0)))
    # kernel ridge with K = 1 1^T: alpha = (1 1^T + lam I)^{-1} y, so f(x) = sum(y) / (n + lam)
    fit = K.kernel_ridge(Xs, Y_REAL, lam=2.0, kernel="rbf", gamma=0.5)
    np.testing.assert_allclose(fit.predict(Xs[:5]), np.full(5, Y_REAL.sum() / 42.0), rtol=1e-12)


@pytest.mark.parametrize("scale", SCALES)
def test_scale_histogram_kernels_are_homogeneous(scale):
    Xp = X_POS * scale
    np.testing.assert_allclose(K.additive_chi2_kernel(Xp), K.additive_chi2_kernel(X_POS) * scale, rtol=1e-13)
    np.testing.assert_allclose(K.intersection_kernel(Xp), K.intersection_kernel(X_POS) * scale, rtol=1e-13)
    # chi2(sX, gamma) = chi2(X, gamma s): exp(-1e200 D) = 0 off the diagonal, exp(-1e-200 D) = 1
    np.testing.assert_allclose(K.chi2_kernel(Xp), K.chi2_kernel(X_POS, gamma=scale), rtol=1e-13, atol=0)
# == end of the scale block of `rest` =================================================================


# == scale 1e+-200: linear, logistic, svm ==========================================================
# least_squares rescales its columns by powers of two, so the scaled problem's answer is the
# unscaled one divided by the scale; every other fit of these modules forms X^T X, a Hessian or a
# Gram matrix, whose entries over- or underflow at these scales, and must say so by naming the
# scale of X (never NaN, a "singular matrix", or the silent w = 0 of an underflow).
_SCALE_NAMED = sorted(n for n in FITS if n.split(".")[0] in ("linear", "logistic", "svm")
                      and n != "linear.least_squares")


@pytest.mark.parametrize("scale", SCALES)
def test_scale_least_squares_is_the_scaled_fit(scale):
    base, fit = L.least_squares(X, Y_REAL), L.least_squares(X * scale, Y_REAL)
    np.testing.assert_allclose(fit.w * scale, base.w, rtol=1e-12)


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("name", _SCALE_NAMED)
def test_scale_fits_name_the_scale_of_X(name, scale):
    spec = FITS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no overflow noise before the error
        with pytest.raises(ValueError, match="scale of X"):
            spec(X_=spec.X * scale)


def test_scale_check_leaves_ordinary_scales_alone():
    for scale in (1e-100, 1e100):  # squares 1e+-200: representable, so the fits run
        L.ridge(X * scale, Y_REAL, lam=1.0)
        _quiet(G.newton, X * scale, Y_01, lam=0.1)
