"""The shared pieces: input validation, label conversion, finite differences, data loaders."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import mlnotes
from mlnotes import datasets
from mlnotes._validation import check_labels, check_positive, check_X_y
from mlnotes.check import numerical_gradient, numerical_hessian, numerical_jacobian, rel_error


def test_check_X_y_errors_name_the_problem():
    with pytest.raises(ValueError, match="X must be a 2-D array, got shape \\(3,\\)"):
        check_X_y(np.ones(3), np.ones(3))
    with pytest.raises(ValueError, match="different numbers of samples"):
        check_X_y(np.ones((3, 2)), np.ones(4))
    with pytest.raises(ValueError, match="X contains NaN"):
        check_X_y(np.array([[1.0, np.nan]]), np.ones(1))
    with pytest.raises(ValueError, match="y contains inf"):
        check_X_y(np.ones((1, 2)), np.array([np.inf]))


def test_labels_and_hyperparameters():
    with pytest.raises(ValueError, match=r"\{-1, \+1\}.*to_pm1"):
        check_labels([0, 1], (-1, 1))
    with pytest.raises(ValueError, match="C must be positive, got -1"):
        check_positive(-1, "C")
    with pytest.raises(ValueError, match="lam must be non-negative"):
        check_positive(-0.5, "lam", allow_zero=True)
    assert check_positive(np.inf, "C", allow_inf=True) == np.inf  # a hard margin is C = inf
    with pytest.raises(ValueError, match="C must be a finite number, got inf"):
        check_positive(np.inf, "C")


@given(arrays(np.int8, st.integers(1, 20), elements=st.integers(0, 1)))
def test_label_conversions_are_inverse(y):
    pm = mlnotes.to_pm1(y)
    assert set(np.unique(pm)) <= {-1.0, 1.0}
    np.testing.assert_array_equal(mlnotes.to_01(pm), y)


@settings(max_examples=30)
@given(arrays(float, 4, elements=st.floats(-3, 3)))
def test_finite_differences_match_analytic_derivatives(x):
    # f(x) = sum(sin x) + (x0 x1)^2: gradient and Hessian known in closed form
    f = lambda v: np.sum(np.sin(v)) + (v[0] * v[1]) ** 2
    g = np.cos(x)
    g[:2] += 2 * x[0] * x[1] * x[[1, 0]]
    H = np.diag(-np.sin(x))
    H[0, 0] += 2 * x[1] ** 2
    H[1, 1] += 2 * x[0] ** 2
    H[0, 1] = H[1, 0] = 4 * x[0] * x[1]
    assert np.allclose(numerical_gradient(f, x), g, atol=1e-8)
    assert np.allclose(numerical_hessian(f, x), H, atol=1e-5)
    assert np.allclose(numerical_jacobian(np.sin, x), np.diag(np.cos(x)), atol=1e-8)


def test_rel_error_is_symmetric_and_zero_safe():
    assert rel_error(np.zeros(3), np.zeros(3)) == 0.0
    a, b = np.array([1.0, 2.0]), np.array([1.0, 2.1])
    assert rel_error(a, b) == rel_error(b, a)


@pytest.mark.parametrize("name", datasets.NIST_NAMES)
def test_nist_loader_matches_the_file_header(name):
    ds = datasets.load_nist(name)
    # the header states the number of observations and parameters of each file
    text = (datasets._path("nist", f"{name}.dat")).read_text()
    n_obs = int(next(ln.split()[0] for ln in text.splitlines() if "Observations" in ln))
    n_par = int(next(ln.split()[0] for ln in text.splitlines() if "Parameter" in ln and ln.strip()[0].isdigit()))
    assert ds.X.shape == (n_obs, n_par) and ds.y.shape == (n_obs,)
    assert ds.certified.shape == ds.certified_sd.shape == (n_par,)


def test_real_data_sets_have_their_published_shapes():
    p = datasets.load_prostate()
    assert p.X.shape == (97, 8) and p.extra["train"].sum() == 67  # ESL section 3.2
    assert p.feature_names == ("lcavol", "lweight", "age", "lbph", "svi", "lcp", "gleason", "pgg45")
    assert p.target_name == "lpsa"
    assert datasets.load_saheart().X.shape == (462, 9)
    assert datasets.load_spector().X.shape == (32, 3)
    h = datasets.load_heart_scale()
    assert h.X.shape == (270, 13) and set(np.unique(h.y)) == {-1.0, 1.0}
    assert np.abs(h.X).max() <= 1.0
    assert datasets.load_iris().X.shape == (150, 4)
    assert datasets.load_breast_cancer().X.shape == (569, 30)
    d = datasets.load_digits()
    assert d.X.shape == (1797, 64) and d.X.max() == 16


def test_loaders_agree_with_scikit_learn_copies():
    from sklearn import datasets as skd

    for ours, theirs in ((datasets.load_iris, skd.load_iris), (datasets.load_breast_cancer, skd.load_breast_cancer),
                         (datasets.load_digits, skd.load_digits)):
        a, b = ours(), theirs()
        np.testing.assert_array_equal(a.X, b.data)
        np.testing.assert_array_equal(a.y, b.target)


def test_rel_error_checks_shapes_and_tiny_scales():
    from mlnotes.check import rel_error

    with pytest.raises(ValueError, match="same shape"):
        rel_error(np.ones(3), np.ones((3, 1)))
    assert rel_error(np.array([1e-200]), np.array([2e-200])) == pytest.approx(0.5)
    assert rel_error(np.zeros(2), np.zeros(2)) == 0.0
    assert rel_error(np.array([1e200, 0.0]), np.array([1e200, 1e184])) == pytest.approx(1e-16)
