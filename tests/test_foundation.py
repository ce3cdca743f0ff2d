"""The shared pieces: input validation, label conversion, finite differences, data loaders."""

from __future__ import annotations

import dataclasses
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import mlnotes
from mlnotes import _validation as V
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


# -- tests that kill the surviving mutants of `make mutants MODULE=_validation` ------------------
# (tests/mutation_triage/_validation.md lists each mutant with the test that kills it, or why it
# is equivalent). The oracles are the module's contract: a message names the argument and what
# was received; NaN and inf are rejected; booleans, strings and None are not numbers; a label
# set is checked as a set; X is read at most once per check; a result owns read-only copies.
def _error(exc, f, *args, **kwargs):
    """The message of the ``exc`` that ``f(*args, **kwargs)`` raises."""
    with pytest.raises(exc) as info:
        f(*args, **kwargs)
    assert type(info.value) is exc
    return str(info.value)


@pytest.mark.parametrize("where", [0, 1, V._BLOCK - 1, V._BLOCK, 2 * V._BLOCK + 2])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_max_abs_is_the_largest_magnitude_in_any_block(where, sign):
    a = np.random.default_rng(where).uniform(-0.5, 0.5, 2 * V._BLOCK + 3)
    a[where] = sign * 0.75
    top = V.max_abs(a)
    assert type(top) is float and top == 0.75
    assert V.max_abs(a[::3]) == np.abs(a[::3]).max()  # a strided view
    assert V.max_abs(-np.abs(a).reshape(-1, 1)) == 0.75  # every entry negative
    b = a.copy()
    b[V._BLOCK + 1] = np.nan  # NaN in the second block wins over an inf in the first
    b[0] = np.inf
    assert np.isnan(V.max_abs(b))
    b[V._BLOCK + 1] = 0.0
    assert V.max_abs(b) == np.inf and V.max_abs(-b) == np.inf


def test_max_abs_of_empty_single_and_small_arrays():
    assert V.max_abs(np.empty((0, 3))) == 0.0
    assert V.max_abs(np.array([-2.0])) == 2.0
    assert V.max_abs(np.array(-0.25)) == 0.25
    assert V.max_abs(np.array([[1e-300, -3e-300]])) == 3e-300


def test_max_abs_reads_an_array_in_any_memory_order_without_a_copy():
    a = np.asfortranarray(np.random.default_rng(1).standard_normal((500, 400)))
    tracemalloc.start()
    try:
        top = V.max_abs(a)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert top == np.abs(a).max()
    assert peak < a.nbytes / 8, f"max_abs allocated {peak} bytes for an array of {a.nbytes}"


def test_as_float_array_converts_and_names_what_it_rejects():
    out = V.as_float_array(np.array([1, -2], dtype=np.int8), "w")
    assert out.dtype == np.float64 and out.tolist() == [1.0, -2.0]
    assert V.as_float_array([[1]], "w").shape == (1, 1)  # no ndim: any shape
    hint = " (reshape a single feature with x.reshape(-1, 1))"
    assert _error(ValueError, V.as_float_array, np.ones(3), "w", ndim=2) == (
        f"w must be a 2-D array, got shape (3,){hint}")
    for shape, ndim in [((2, 2, 2), 2), ((2, 2), 1), ((), 1), ((3,), 3)]:  # the hint only for 1-D as 2-D
        assert _error(ValueError, V.as_float_array, np.ones(shape), "w", ndim=ndim) == (
            f"w must be a {ndim}-D array, got shape {shape}")
    for bad, word in [(np.nan, "NaN"), (np.inf, "inf"), (-np.inf, "inf")]:
        assert _error(ValueError, V.as_float_array, [[1.0, bad]], "w", ndim=2) == (
            f"w contains {word}; remove or impute those entries first")


@pytest.mark.parametrize("finite", [True, False])
def test_check_X_names_its_argument_and_needs_a_row_and_a_column(finite):
    assert _error(ValueError, V.check_X, np.ones((0, 2)), "Z", finite=finite) == (
        "Z has no rows: at least one sample is needed")
    assert _error(ValueError, V.check_X, np.ones((2, 0)), "Z", finite=finite) == (
        "Z has no columns (shape (2, 0)): at least one feature is needed")
    assert _error(ValueError, V.check_X, np.ones(3), "Z", finite=finite).startswith(
        "Z must be a 2-D array, got shape (3,)")
    assert _error(ValueError, V.check_X, np.ones((2, 2, 1)), finite=finite).startswith(
        "X must be a 2-D array, got shape (2, 2, 1)")
    X = V.check_X(np.array([[1, 2]], dtype=np.int16), finite=finite)
    assert X.dtype == np.float64 and X.tolist() == [[1.0, 2.0]]


def test_check_X_rejects_nan_and_checks_the_scale_unless_told_not_to():
    assert _error(ValueError, V.check_X, [[1.0, np.nan]]) == (
        "X contains NaN; remove or impute those entries first")
    assert np.isnan(V.check_X([[1.0, np.nan]], finite=False)).any()  # finite=False: shape only
    assert _error(ValueError, V.check_X, [[1e200, 1.0]], "Z", scale_for="ridge").startswith(
        "the scale of Z (max |x_ij| = 1e+200) is too large for ridge")
    seen = []
    X = V.check_X([[3.0, -4.0]], scale_for=lambda X, top: seen.append((X, top)))
    assert len(seen) == 1 and seen[0][0] is X and seen[0][1] == 4.0  # the fit's own rule gets max |x_ij|
    assert V.check_X([[1e200]], finite=False, scale_for="ridge").shape == (1, 1)  # no pass: no scale


def _count_passes(monkeypatch):
    """A list that gets the shape of every array max_abs reads (one pass over it each)."""
    seen, real = [], V.max_abs
    monkeypatch.setattr(V, "max_abs", lambda a: seen.append(a.shape) or real(a))
    return seen


def test_check_X_and_check_X_y_read_X_at_most_once(monkeypatch):
    X, y = np.random.default_rng(2).standard_normal((5, 3)), np.ones(5)
    seen = _count_passes(monkeypatch)
    V.check_X(X, scale_for="ridge")
    assert seen == [(5, 3)]
    seen.clear()
    V.check_X_y(X, y, scale_for="ridge")
    assert sorted(seen) == [(5,), (5, 3)]
    seen.clear()
    V.check_X(X, finite=False)
    V.check_X_y(X, y, finite=False)
    assert seen == [(5,)]  # y only


def test_check_X_y_names_both_arguments():
    assert _error(ValueError, V.check_X_y, np.ones((3, 2)), np.ones(4), y_name="t") == (
        "X and t have different numbers of samples: X has 3 rows, t has 4 entries")
    assert _error(ValueError, V.check_X_y, np.ones((2, 1)), [np.nan, 1.0], y_name="t").startswith("t contains NaN")
    assert _error(ValueError, V.check_X_y, np.ones((2, 1)), np.ones((2, 1)), y_name="t").startswith(
        "t must be a 1-D array, got shape (2, 1)")
    assert _error(ValueError, V.check_X_y, np.ones((2, 1)), [1.0, np.inf]).startswith("y contains inf")
    for finite in (True, False):
        assert _error(ValueError, V.check_X_y, np.ones((0, 2)), np.ones(0), finite=finite).startswith("X has no rows")
        assert _error(ValueError, V.check_X_y, np.ones(2), np.ones(2), finite=finite).startswith("X must be a 2-D")
    X, y = V.check_X_y(np.array([[np.nan]]), np.array([1], dtype=np.int8), finite=False)
    assert np.isnan(X[0, 0]) and y.dtype == np.float64 and y.tolist() == [1.0]
    assert _error(ValueError, V.check_X_y, [[1e-200]], [1.0], scale_for="lda").startswith(
        "the scale of X (max |x_ij| = 1e-200) is too small for lda")
    seen = []
    V.check_X_y([[0.5], [-2.0]], [1.0, 2.0], scale_for=lambda X, top: seen.append(top))
    assert seen == [2.0]


def test_check_X_y_with_finite_false_leaves_the_scale_alone_like_check_X():
    # no pass over X, so no max |x_ij| to give a fit's own scale rule (it got 0.0, as if X were
    # all zeros) and no scale to check: check_from_gram does both from X^T X
    seen = []
    rule = lambda X, top: seen.append(top)
    for check in (lambda **kw: V.check_X([[1e200, 3.0]], **kw), lambda **kw: V.check_X_y([[1e200, 3.0]], [1.0], **kw)):
        check(finite=False, scale_for=rule)
        check(finite=False, scale_for="ridge")
        assert seen == []
        check(scale_for=rule)
        assert seen == [1e200]
        seen.clear()


def test_check_from_gram_makes_the_pass_over_X_only_when_G_is_not_conclusive():
    X = np.array([[np.nan, 1.0]])  # what a pass over X would reject
    tiny = 2.0 ** -1000
    V.check_from_gram(X, np.diag([1.0, 1.5 * tiny]), "ridge")  # G decides: no pass
    assert _error(ValueError, V.check_from_gram, X, np.diag([1.0, tiny]), "ridge").startswith("X contains NaN")
    V.check_from_gram(np.ones((2, 0)), np.empty((0, 0)), "ridge")  # no diagonal, nothing to check
    for G in (np.diag([1.0, tiny]), np.diag([0.0, 1.0]), np.array([[np.nan]]), np.array([[1.0, np.inf]])):
        assert _error(ValueError, V.check_from_gram, X, G, "ridge", "Z").startswith("Z contains NaN")
    small = np.array([[1e-200, -3e-200]])
    G = small.T @ small  # underflows to 0
    assert _error(ValueError, V.check_from_gram, small, G, "ridge", "Z").startswith(
        "the scale of Z (max |x_ij| = 3e-200) is too small for ridge")
    V.check_from_gram(small, G, None)  # what=None: the fit handles any scale


def test_check_scale_bounds_the_exponent_of_the_squared_entries():
    # accepted iff 2 log2(max|x|) + log2(X.size) <= 1000 (no overflow in X^T X) and
    # 2 log2(max|x|) >= -1000 (no underflow); an all-zero X has no scale to check
    for X, ok in [([[2.0**500]], True), ([[2.0**500, 0.0]], False), ([[2.0**499.5, 0.0]], True),
                  ([[-(2.0**-500)]], True), ([[2.0**-500.25]], False), ([[0.0, 0.0]], True), ([[1.0]], True)]:
        X = np.array(X)
        if ok:
            assert V.check_scale(X, "ridge") is X
            assert V.check_scale(X, "ridge", top=V.max_abs(X)) is X
        else:
            assert "the scale of X" in _error(ValueError, V.check_scale, X, "ridge")
    big, small = np.array([[1e200, 2.0]]), np.array([[-3e-200]])
    assert _error(ValueError, V.check_scale, big, "ridge", "Z") == (
        "the scale of Z (max |x_ij| = 1e+200) is too large for ridge: its squared entries (X^T X, the "
        "Hessian) overflow in floating point; standardise the columns of Z (e.g. divide each by its "
        "standard deviation) and scale the result back")
    assert _error(ValueError, V.check_scale, small, "lda") == (
        "the scale of X (max |x_ij| = 3e-200) is too small for lda: its squared entries (X^T X, the "
        "Hessian) underflow in floating point; standardise the columns of X (e.g. divide each by its "
        "standard deviation) and scale the result back")
    assert V.check_scale(big, "ridge", top=1.0) is big  # the caller's top is the one used


@settings(max_examples=100)
@given(st.lists(st.integers(-3, 3), min_size=1, max_size=4, unique=True),
       st.lists(st.integers(-3, 3), min_size=1, max_size=8), st.booleans(), st.booleans())
def test_check_labels_accepts_exactly_the_label_set(labels, y, as_float, all_present):
    given_labels = [float(v) for v in labels] if as_float else labels
    if set(y) <= set(labels) and (set(labels) <= set(y) or not all_present):
        out = check_labels(y, iter(given_labels), all_present=all_present)  # any iterable of labels
        assert out.dtype == np.float64 and out.tolist() == y
    else:
        assert _error(ValueError, check_labels, y, given_labels, all_present=all_present).startswith("y must")


@pytest.mark.parametrize(("labels", "inside", "outside"), [
    ((-1, 1), [1, -1], [0, 2, -2]), ((-1.0, 1.0), [-1, 1], [0]), ((1, -1), [1, -1], [0]),
    ((-1, 2), [2, -1], [1, -2]), ((-2, 1), [-2, 1], [-1, 2]), ((0, 1), [0, 1], [-1, 2]),
    ((0, 1, 2), [1, 2, 0], [-1, 3]), ((5,), [5], [4]), ((3, -1, 1), [-1, 3, 1], [-3, 0]),
    ((1, 1), [1], [-1]), ((1.0, 1.0), [1], [-1])])  # a label given twice is still one label
def test_check_labels_on_common_and_uncommon_sets(labels, inside, outside):
    assert check_labels(inside, labels, all_present=True).tolist() == inside
    assert check_labels(inside[:1], labels).tolist() == inside[:1]  # all_present is off by default
    for v in outside:
        assert "must take values in" in _error(ValueError, check_labels, [*inside, v], labels)
        assert "must take values in" in _error(ValueError, check_labels, [v], labels)


def test_check_labels_messages_show_the_set_the_values_and_the_conversion():
    assert _error(ValueError, check_labels, [1.0, 0.5, 0.0, 1.0], (-1, 1), "t") == (
        "t must take values in {-1, +1}, got values {0, 0.5, 1}; convert with mlnotes.to_pm1")
    assert _error(ValueError, check_labels, [-1, 1], (0, 1)) == (
        "y must take values in {0, 1}, got values {-1, 1}; convert with mlnotes.to_01")
    assert _error(ValueError, check_labels, [3], (0, 1, 2)).startswith(
        "y must take values in {0, 1, 2}, got values {3}")
    assert "got values {10, 11, 12, 13, 14, 15};" in _error(ValueError, check_labels, np.arange(10.0, 16), (0, 1))
    assert "got values {10, 11, 12, 13, 14, 15, ...};" in _error(ValueError, check_labels, np.arange(10.0, 17), (0, 1))
    for bad, word in [(np.nan, "NaN"), (np.inf, "inf"), (-np.inf, "inf")]:  # NaN and inf: that message first
        assert _error(ValueError, check_labels, [1.0, bad], (-1, 1), "t") == (
            f"t contains {word}; remove or impute those entries first")
        assert _error(ValueError, check_labels, [bad], (0, 1)).startswith(f"y contains {word}")
    for y in (np.ones((2, 1)), np.ones(())):
        assert _error(ValueError, check_labels, y, (-1, 1), "t") == f"t must be a 1-D array, got shape {y.shape}"
    assert _error(ValueError, check_labels, [1, 1], (-1, 1), "t", all_present=True) == (
        "t must contain both classes -1 and +1, got only +1")
    assert _error(ValueError, check_labels, [0.0], (0, 1), all_present=True) == (
        "y must contain both classes 0 and 1, got only 0")
    assert _error(ValueError, check_labels, [2, 0], (0, 1, 2), all_present=True) == (
        "y must contain every class 0 and 1 and 2, got only 0, 2")
    assert _error(ValueError, check_labels, [1], (-1, 0, 1), all_present=True) == (
        "y must contain every class -1 and +0 and +1, got only +1")


def test_check_callable_and_check_method_name_the_argument_and_what_came():
    assert V.check_callable(len, "f") is len
    assert _error(TypeError, V.check_callable, "ab", "loss") == "loss must be callable, got str 'ab'"
    assert _error(TypeError, V.check_callable, None, "f") == "f must be callable, got NoneType None"

    class Model:
        predict = staticmethod(lambda X: X)
        fit = 3

    m = Model()
    assert V.check_method(m, "predict", "model") is m
    assert _error(TypeError, V.check_method, 3, "predict", "model") == "model must have a .predict() method, got int 3"
    assert _error(TypeError, V.check_method, m, "fit", "est").startswith("est must have a .fit() method, got Model ")


def test_check_returned_accepts_its_shape_and_names_the_function():
    for value in (2.5, np.float32(2.5), np.array([2.5]), np.array([[2.5]]), [2.5]):  # one entry is a number
        out = V.check_returned(value, "f")
        assert type(out) is float and out == 2.5
    out = V.check_returned([1, 2], "g", (2,))
    assert out.dtype == np.float64 and out.tolist() == [1.0, 2.0]
    assert V.check_returned(np.ones((1, 2)), "g", (1, 2)).shape == (1, 2)
    assert _error(TypeError, V.check_returned, None, "f") == "f returned None; it must return a number"
    assert _error(TypeError, V.check_returned, None, "g", (2,)) == (
        "g returned None; it must return an array of shape (2,)")
    assert _error(TypeError, V.check_returned, "x", "f") == "f must return a number, got str 'x'"
    assert _error(TypeError, V.check_returned, {1: 2}, "g", (2,)) == (
        "g must return an array of shape (2,), got dict {1: 2}")
    assert _error(ValueError, V.check_returned, np.ones(2), "f") == "f must return a number, got shape (2,)"
    assert _error(ValueError, V.check_returned, np.ones((1, 1)), "g", (1,)) == (
        "g must return an array of shape (1,), got shape (1, 1)")
    for allow_inf in (False, True):
        assert _error(ValueError, V.check_returned, np.nan, "f", allow_inf=allow_inf) == (
            "f returned NaN; it must return a finite number")
        assert _error(ValueError, V.check_returned, [np.inf, np.nan], "g", (2,), allow_inf=allow_inf) == (
            "g returned NaN; it must return finite values")
    assert _error(ValueError, V.check_returned, -np.inf, "f") == "f returned inf; it must return a finite number"
    assert _error(ValueError, V.check_returned, [1.0, np.inf], "g", (2,)) == (
        "g returned inf; it must return finite values")
    assert V.check_returned(-np.inf, "f", allow_inf=True) == -np.inf
    assert V.check_returned([np.inf, 1.0], "g", (2,), allow_inf=True).tolist() == [np.inf, 1.0]


def _inside(v, low, high, low_open, high_open):
    """The oracle of check_scalar's range: is ``v`` in the interval the bounds describe."""
    above = low is None or v > low or (v == low and not low_open)
    below = high is None or v < high or (v == high and not high_open)
    return above and below


def test_check_scalar_accepts_exactly_its_interval_and_says_which_bound_failed():
    values = [-2, -1, -0.5, 0, 0.5, 1, 2.0, np.int64(1), np.float32(0.5)]
    for low in (None, -1, 0, 0.5):
        for high in (None, 0, 1):
            if low is not None and high is not None and low > high:
                continue
            for low_open in (False, True):
                for high_open in (False, True):
                    kw = dict(low=low, high=high, low_open=low_open, high_open=high_open)
                    for v in values:
                        if _inside(float(v), low, high, low_open, high_open):
                            out = V.check_scalar(v, "c", **kw)
                            assert type(out) is float and out == float(v)
                            continue
                        msg = _error(ValueError, V.check_scalar, v, "c", **kw)
                        if low is not None and high is not None:
                            interval = f"{'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"
                            assert msg == f"c must lie in {interval}, got {v!r}"
                        elif low == 0:
                            assert msg == f"c must be {'positive' if low_open else 'non-negative'}, got {v!r}"
                        elif low is not None:
                            assert msg == f"c must be {'>' if low_open else '>='} {low:g}, got {v!r}"
                        else:
                            assert msg == f"c must be {'<' if high_open else '<='} {high:g}, got {v!r}"


def test_check_scalar_takes_real_numbers_only_and_inf_only_when_allowed():
    for value in (2, 2.0, np.int8(2), np.uint16(2), np.float32(2.0), np.array(2.0), np.array(2, dtype=np.uint8)):
        out = V.check_scalar(value, "c")
        assert type(out) is float and out == 2.0
    for value, kind in [(True, "bool"), (np.bool_(False), "bool"), ("1", "str"), (None, "NoneType"),
                        (1 + 0j, "complex"), (np.array(True), "ndarray"), (np.array(1 + 0j), "ndarray"),
                        (np.array([1.0]), "ndarray"), ([1.0], "list")]:
        assert _error(TypeError, V.check_scalar, value, "c", low=0) == f"c must be a real number, got {kind} {value!r}"
    for kw in ({}, {"allow_inf": True}, {"low": 0, "allow_inf": True}):
        assert _error(ValueError, V.check_scalar, np.nan, "c", **kw) == "c must be a finite number, got nan"
    assert _error(ValueError, V.check_scalar, -np.inf, "c") == "c must be a finite number, got -inf"
    assert V.check_scalar(np.inf, "c", low=0, allow_inf=True) == np.inf
    assert V.check_scalar(-np.inf, "c", allow_inf=True) == -np.inf
    assert _error(ValueError, V.check_scalar, np.inf, "c", high=1, allow_inf=True) == "c must be <= 1, got inf"
    assert _error(ValueError, V.check_scalar, -np.inf, "c", low=0, allow_inf=True) == "c must be non-negative, got -inf"
    assert _error(ValueError, V.check_scalar, 1e-4, "c", low=1e-3) == "c must be >= 0.001, got 0.0001"


def test_check_positive_and_check_in_open_interval_are_check_scalar_with_their_bounds():
    assert V.check_positive(1e-300, "C") == 1e-300 and type(V.check_positive(3, "C")) is float
    assert V.check_positive(0.5, "C") == 0.5
    assert _error(ValueError, V.check_positive, 0, "C") == "C must be positive, got 0"
    assert V.check_positive(0, "lam", allow_zero=True) == 0.0
    assert _error(ValueError, V.check_positive, -1e-300, "lam", allow_zero=True) == (
        "lam must be non-negative, got -1e-300")
    assert _error(ValueError, V.check_positive, -np.inf, "C", allow_inf=True) == "C must be positive, got -inf"
    assert _error(TypeError, V.check_positive, True, "C").startswith("C must be a real number")
    assert V.check_in_open_interval(0.05, "delta", 0, 1) == 0.05
    assert V.check_in_open_interval(1.5, "q", -1, 2) == 1.5
    for v in (0, 1, -0.5, 1.5):
        assert _error(ValueError, V.check_in_open_interval, v, "delta", 0, 1) == f"delta must lie in (0, 1), got {v!r}"
    assert _error(ValueError, V.check_in_open_interval, np.nan, "delta", 0, 1).startswith("delta must be a finite")


def test_check_int_counts_and_ranges():
    for value in (3, 3.0, np.int64(3), np.float32(3.0), np.uint8(3)):
        out = V.check_int(value, "n")
        assert type(out) is int and out == 3
    assert V.check_int(1, "n") == 1 and V.check_int(0, "n", low=0) == 0 and V.check_int(-5, "n", low=None) == -5
    assert V.check_int(2, "k", low=2, high=5) == 2 and V.check_int(5, "k", low=2, high=5) == 5
    assert V.check_int(10**6, "n", high=None) == 10**6
    assert _error(ValueError, V.check_int, 0, "n") == "n must be an integer >= 1, got 0"
    assert _error(ValueError, V.check_int, -1, "n", low=0) == "n must be an integer >= 0, got -1"
    for v in (1, 6):
        assert _error(ValueError, V.check_int, v, "k", low=2, high=5) == f"k must be an integer >= 2 and <= 5, got {v}"
    assert _error(ValueError, V.check_int, 6, "k", low=None, high=5) == "k must be an integer and <= 5, got 6"
    for v in (2.5, np.inf, -np.inf, np.nan, np.float64(1.5)):
        assert _error(ValueError, V.check_int, v, "n") == f"n must be an integer >= 1, got {v!r}"
    assert _error(ValueError, V.check_int, 0.5, "n", low=None) == "n must be an integer, got 0.5"
    for v, kind in [(True, "bool"), (np.bool_(True), "bool"), ("3", "str"), (None, "NoneType"), (3j, "complex")]:
        assert _error(TypeError, V.check_int, v, "n") == f"n must be an integer >= 1, got {kind} {v!r}"


def test_check_rng_seeds_shares_and_refuses():
    g = np.random.default_rng(5)
    assert V.check_rng(g) is g  # the caller's stream, not a copy
    for seed in (0, 7, np.int64(7), np.uint8(7)):
        assert V.check_rng(seed).integers(1 << 62) == np.random.default_rng(int(seed)).integers(1 << 62)
    assert V.check_rng(3).integers(1 << 62) != V.check_rng(4).integers(1 << 62)
    assert isinstance(V.check_rng(None), np.random.Generator)
    assert V.check_rng(None).integers(1 << 62) != V.check_rng(None).integers(1 << 62)  # fresh entropy
    for value, kind in [(True, "bool"), (np.bool_(False), "bool"), (1.5, "float"), ("0", "str"),
                        (np.random.RandomState(0), "RandomState")]:
        assert _error(TypeError, V.check_rng, value, "seed") == (
            f"seed must be None, an int seed or a numpy.random.Generator, got {kind}")
    assert _error(TypeError, V.check_rng, 1.0).startswith("rng must be None")
    assert _error(ValueError, V.check_rng, -1, "seed") == "seed must be a non-negative seed, got -1"
    assert _error(ValueError, V.check_rng, np.int64(-3)) == f"rng must be a non-negative seed, got {np.int64(-3)!r}"


def test_check_n_features_and_check_start():
    X = V.check_n_features([[1, 2]], 2)
    assert X.dtype == np.float64 and X.tolist() == [[1.0, 2.0]]
    assert _error(ValueError, V.check_n_features, np.ones((2, 3)), 2, "Z") == (
        "Z has 3 columns but the model was fitted on 2 features")
    assert _error(ValueError, V.check_n_features, np.ones(3), 3).startswith("X must be a 2-D array, got shape (3,)")
    assert _error(ValueError, V.check_n_features, [[np.nan]], 1, "Z").startswith("Z contains NaN")
    w0 = V.check_start(None, 3)
    assert w0.dtype == np.float64 and w0.tolist() == [0.0, 0.0, 0.0]
    given_w = np.array([1.0, 2.0])
    w = V.check_start(given_w, 2)
    w[0] = 9.0  # the fit updates its copy in place
    assert given_w.tolist() == [1.0, 2.0] and w.dtype == np.float64
    assert V.check_start(np.array([1, 2], dtype=np.int8), 2).dtype == np.float64
    assert _error(ValueError, V.check_start, [1, 2, 3], 2, "v") == "v has 3 entries but X has 2 columns"
    assert _error(ValueError, V.check_start, [[1.0, 2.0]], 2, "v").startswith("v must be a 1-D array")
    assert _error(ValueError, V.check_start, [np.inf, 1.0], 2).startswith("w0 contains inf")


def test_label_conversions_map_each_label_and_name_the_other_conversion():
    assert mlnotes.to_pm1(np.array([0, 1, 1], dtype=np.uint8)).tolist() == [-1.0, 1.0, 1.0]
    assert mlnotes.to_01([-1, 1, -1.0]).tolist() == [0.0, 1.0, 0.0]
    assert mlnotes.to_pm1([1]).tolist() == [1.0] and mlnotes.to_01([1]).tolist() == [1.0]
    assert _error(ValueError, mlnotes.to_pm1, [-1, 1]).endswith("convert with mlnotes.to_01")
    assert _error(ValueError, mlnotes.to_01, [0, 1]).endswith("convert with mlnotes.to_pm1")


@dataclasses.dataclass(frozen=True)
class _Owned(V.OwnsArrays):
    note: str
    w: np.ndarray
    info: dict
    b: np.ndarray


def test_a_result_owns_read_only_copies_of_its_arrays_and_dicts():
    w, info, b = np.arange(3.0), {"k": 1}, np.ones(2)
    r = _Owned("n", w, info, b)
    w[0], info["k"], b[0] = 7.0, 2, 7.0  # the caller changes its own arrays afterwards
    assert r.w.tolist() == [0.0, 1.0, 2.0] and r.b.tolist() == [1.0, 1.0] and r.info == {"k": 1}
    assert w.flags.writeable and b.flags.writeable  # the caller's arrays stay writeable
    assert not r.w.flags.writeable and not r.b.flags.writeable
    with pytest.raises(TypeError):
        r.info["k"] = 3
    assert r.note == "n"
    a = np.ones(2)
    assert V.read_only(a) is a and not a.flags.writeable
