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


# -- tests that kill the surviving mutants of `make mutants MODULE=check` ------------------------
# (tests/mutation_triage/check.md lists each mutant with the test that kills it, or why it is
# equivalent). The finite differences are checked at the points they evaluate: a recording f
# sees exactly x +- h_j e_j (and x +- h_j e_j +- h_k e_k), with the default steps of the
# module's docstring, eps^(1/3) max(1, |x_j|) and eps^(1/4) max(1, |x_j|).
EPS = np.finfo(float).eps


class Recorder:
    """A function that keeps every point it is called at; its value is ``value(z)``."""

    def __init__(self, value):
        self.value, self.points = value, []

    def __call__(self, z):
        self.points.append(np.array(z, dtype=float, copy=True))
        return self.value(z)


@pytest.mark.parametrize("x", [np.array([0.5, -3.0, 40.0]), np.array([[0.0, -2.0], [7.0, 1e-3]])])
def test_numerical_gradient_steps_and_evaluation_points(x):
    f = Recorder(lambda z: float(np.sum(np.sin(z))))
    g = numerical_gradient(f, x)
    assert g.shape == x.shape
    assert all(p.shape == x.shape for p in f.points)  # f sees arrays shaped like x
    flat = x.ravel()
    h = EPS ** (1 / 3) * np.maximum(1.0, np.abs(flat))
    assert len(f.points) == 2 * flat.size
    for j in range(flat.size):
        e = np.zeros(flat.size)
        e[j] = h[j]
        np.testing.assert_array_equal(f.points[2 * j].ravel(), flat + e)
        np.testing.assert_array_equal(f.points[2 * j + 1].ravel(), flat - e)
    values = [f.value(p) for p in f.points]
    expected = (np.array(values[::2]) - values[1::2]) / (2 * h)  # the central difference
    np.testing.assert_allclose(g.ravel(), expected, rtol=1e-15)
    np.testing.assert_allclose(g.ravel(), np.cos(flat), atol=1e-9)


def test_numerical_gradient_with_the_users_step():
    f = Recorder(lambda z: float(z @ z))
    g = numerical_gradient(f, np.array([1.0, 2.0]), h=0.25)
    np.testing.assert_array_equal(f.points[0], [1.25, 2.0])
    np.testing.assert_array_equal(f.points[3], [1.0, 1.75])
    np.testing.assert_allclose(g, [2.0, 4.0], rtol=1e-14)  # exact for a quadratic
    for bad in (0.0, -1e-3, np.nan):
        with pytest.raises(ValueError, match="^h must be"):
            numerical_gradient(f, np.array([1.0]), h=bad)


@pytest.mark.parametrize("func", [numerical_gradient, numerical_hessian])
def test_finite_differences_name_a_bad_function_and_a_bad_value(func):
    with pytest.raises(TypeError, match="^f must be callable"):
        func(3.0, np.ones(2))
    with pytest.raises(TypeError, match="^f returned None"):
        func(lambda z: None, np.ones(2))
    with pytest.raises(ValueError, match="^f must return a number, got shape"):
        func(lambda z: z, np.ones(2))
    with pytest.raises(ValueError, match="^f returned NaN"):
        func(lambda z: np.nan, np.ones(2))
    with pytest.raises(ValueError, match="^x contains NaN"):
        func(lambda z: 0.0, np.array([1.0, np.nan]))


def test_numerical_jacobian_shape_points_and_checks():
    F = Recorder(lambda z: np.array([z[0] * z[1], z[0] ** 2, np.exp(z[1])]))
    x = np.array([3.0, -0.5])
    J = numerical_jacobian(F, x)
    assert J.shape == (3, 2)  # (m, n): one row per output
    h = EPS ** (1 / 3) * np.maximum(1.0, np.abs(x))
    np.testing.assert_array_equal(F.points[0], x + [h[0], 0.0])
    np.testing.assert_array_equal(F.points[1], x - [h[0], 0.0])
    np.testing.assert_array_equal(F.points[3], x - [0.0, h[1]])
    np.testing.assert_allclose(J, [[-0.5, 3.0], [6.0, 0.0], [0.0, np.exp(-0.5)]], atol=1e-8)
    J = numerical_jacobian(lambda z: 2.0 * z, np.array([1.0, 5.0]), h=0.5)
    np.testing.assert_allclose(J, 2.0 * np.eye(2), rtol=1e-14)
    with pytest.raises(TypeError, match="^F must be callable"):
        numerical_jacobian(None, x)
    with pytest.raises(ValueError, match=r"^F must return an array of shape \(2,\), got shape"):
        numerical_jacobian(lambda z: np.ones(2 + int(z[0] < 3)), x)  # x - h_0 e_0 adds a row
    with pytest.raises(ValueError, match="^F returned NaN"):
        numerical_jacobian(lambda z: np.full(2, np.nan), x)
    with pytest.raises(ValueError, match="^x contains NaN"):
        numerical_jacobian(lambda z: z, [1.0, np.nan])
    # the first output fixes the shape: here the points of column 1 return 3 values, not 2
    with pytest.raises(ValueError, match=r"^F must return an array of shape \(2,\), got shape \(3,\)"):
        numerical_jacobian(lambda z: np.ones(2 if z[1] == x[1] else 3), x)


def test_numerical_hessian_steps_points_and_symmetry():
    f = Recorder(lambda z: float(np.exp(z[0]) * np.sin(z[1]) + z[0] * z[1] ** 3))
    x = np.array([0.3, 2.0])
    H = numerical_hessian(f, x)
    h = EPS ** 0.25 * np.maximum(1.0, np.abs(x))
    # the first entry (j = k = 0): f at x + 2h_0 e_0, x, x, x - 2h_0 e_0
    np.testing.assert_array_equal(f.points[0], x + [2 * h[0], 0.0])
    np.testing.assert_array_equal(f.points[1], x)
    np.testing.assert_array_equal(f.points[3], x - [2 * h[0], 0.0])
    # the off-diagonal entry (0, 1): x + h_0 e_0 + h_1 e_1, then + -, - +, - -
    for i, (s0, s1) in enumerate([(1, 1), (1, -1), (-1, 1), (-1, -1)]):
        np.testing.assert_array_equal(f.points[4 + i], x + [s0 * h[0], s1 * h[1]])
    assert len(f.points) == 4 * 3  # the upper triangle only, mirrored
    assert H[0, 1] == H[1, 0]
    a, b = x
    exact = [[np.exp(a) * np.sin(b), np.exp(a) * np.cos(b) + 3 * b**2],
             [np.exp(a) * np.cos(b) + 3 * b**2, -np.exp(a) * np.sin(b) + 6 * a * b]]
    np.testing.assert_allclose(H, exact, atol=1e-5)
    A = np.array([[2.0, -1.0, 0.5], [-1.0, 3.0, 0.0], [0.5, 0.0, 1.0]])
    H = numerical_hessian(lambda z: 0.5 * z @ A @ z, np.array([1.0, -2.0, 3.0]), h=0.5)
    np.testing.assert_allclose(H, A, atol=1e-13)  # exact for a quadratic with a dyadic step


@pytest.mark.parametrize("a, b, expected", [
    ([3.0, 4.0], [0.0, 0.0], 1.0),  # |a - b| / max(|a|, |b|) = 5 / 5
    ([1.0, 0.0], [0.0, 1.0], np.sqrt(2.0)),
    ([2.0], [1.0], 0.5),  # divided by the larger norm, not the first argument's
    ([-1e300, 1e300], [1e300, -1e300], 2.0),  # no overflow at the top of the range
    (5.0, 5.0, 0.0),
])
def test_rel_error_is_the_normwise_relative_difference(a, b, expected):
    assert rel_error(a, b) == pytest.approx(expected, rel=1e-15)
    assert rel_error(b, a) == pytest.approx(expected, rel=1e-15)
    assert type(rel_error(a, b)) is float


def test_rel_error_of_empty_and_integer_arrays():
    assert rel_error(np.array([]), np.array([])) == 0.0
    assert rel_error([], []) == 0.0
    # read as floats: |int64 min| overflows as an integer (np.abs(-2**63) is -2**63)
    big = np.array([np.iinfo(np.int64).min])
    assert rel_error(big, np.zeros(1, dtype=np.int64)) == 1.0
    assert rel_error(np.zeros(1, dtype=np.int64), big) == 1.0


def test_rel_error_refuses_nan_and_inf_and_names_the_shapes():
    for bad in (np.nan, np.inf, -np.inf):
        with pytest.raises(ValueError, match="^a and b must be finite$"):
            rel_error([1.0, bad], [1.0, 2.0])
    with pytest.raises(ValueError, match=r"^a and b must have the same shape, got \(2,\) and \(\)$"):
        rel_error([1.0, 2.0], 1.0)
