"""Tests of mlnotes.kernels: scikit-learn oracles, PSD properties, construction rules, bad input."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.kernel_ridge import KernelRidge
from sklearn.linear_model import Ridge
from sklearn.metrics import pairwise as skp

from mlnotes import kernels as kern

RNG = np.random.default_rng(20261121)


def _histograms(n, d, rng=RNG, sparsity=0.3):
    X = rng.uniform(0, 5, (n, d))
    X[rng.uniform(size=X.shape) < sparsity] = 0.0  # zeros exercise the 0/0 := 0 convention
    return X


# -- oracle: scikit-learn's pairwise kernels -----------------------------------------------------

@pytest.mark.parametrize("same", [True, False])
@pytest.mark.parametrize(
    "ours, theirs, params",
    [
        (kern.linear_kernel, skp.linear_kernel, {}),
        (kern.polynomial_kernel, skp.polynomial_kernel, {"degree": 3, "gamma": 0.3, "coef0": 1.5}),
        (kern.polynomial_kernel, skp.polynomial_kernel, {"degree": 2, "gamma": 1.0, "coef0": 0.0}),
        (kern.rbf_kernel, skp.rbf_kernel, {"gamma": 0.05}),
        (kern.rbf_kernel, skp.rbf_kernel, {"gamma": 2.0}),
        (kern.sigmoid_kernel, skp.sigmoid_kernel, {"gamma": 0.1, "coef0": -0.5}),
        (kern.sigmoid_kernel, skp.sigmoid_kernel, {"gamma": 0.02, "coef0": 1.0}),
        (kern.additive_chi2_kernel, skp.additive_chi2_kernel, {}),
        (kern.chi2_kernel, skp.chi2_kernel, {"gamma": 0.1}),
        (kern.chi2_kernel, skp.chi2_kernel, {"gamma": 1.0}),
    ],
)
def test_equals_sklearn(ours, theirs, params, same):
    X, Y = _histograms(70, 13), _histograms(45, 13)
    if same:
        np.testing.assert_allclose(ours(X, **params), theirs(X, **params), rtol=0, atol=1e-12)
    else:
        np.testing.assert_allclose(ours(X, Y, **params), theirs(X, Y, **params), rtol=0, atol=1e-12)


def test_gram_by_name_matches_functions():
    X, Y = _histograms(20, 4), _histograms(7, 4)
    for name, fn in kern.KERNELS.items():
        np.testing.assert_array_equal(kern.gram(X, Y, kernel=name), fn(X, Y))


def test_intersection_equals_loop_definition():
    # The definition, pair by pair (scikit-learn has no intersection kernel).
    X, Y = _histograms(17, 9), _histograms(11, 9)
    K = np.array([[np.minimum(x, y).sum() for y in Y] for x in X])
    np.testing.assert_allclose(kern.intersection_kernel(X, Y), K, rtol=1e-15, atol=0)


def test_tiles_cover_large_and_odd_shapes():
    # More pairs than one tile holds, with shapes that do not divide the tile size.
    X, Y = _histograms(301, 37), _histograms(259, 37)
    np.testing.assert_allclose(kern.chi2_kernel(X, Y, gamma=0.01), skp.chi2_kernel(X, Y, gamma=0.01),
                               rtol=0, atol=1e-12)
    np.testing.assert_allclose(kern.intersection_kernel(X, Y),
                               -0.5 * (np.abs(X[:, None] - Y[None]) - X[:, None] - Y[None]).sum(-1),
                               rtol=1e-13)
    np.testing.assert_allclose(kern.additive_chi2_kernel(X), skp.additive_chi2_kernel(X), rtol=0, atol=1e-12)
    np.testing.assert_allclose(kern.intersection_kernel(Y), kern.intersection_kernel(Y, Y.copy()), rtol=1e-15)
    Z = RNG.standard_normal((1500, 3))  # rbf works in row blocks of _TILE / m rows
    np.testing.assert_allclose(kern.rbf_kernel(Z, gamma=0.7), skp.rbf_kernel(Z, gamma=0.7), atol=1e-12)


def test_rbf_diagonal_is_exactly_one_and_large_distances_underflow():
    X = RNG.standard_normal((50, 5)) * 1e3
    K = kern.rbf_kernel(X, gamma=1.0)
    assert np.all(np.diag(K) == 1.0)
    assert np.all((K >= 0) & (K <= 1))


def test_sklearn_kernel_ridge_and_ridge():
    X, y = RNG.standard_normal((60, 4)), RNG.standard_normal(60)
    fit = kern.kernel_ridge(X, y, lam=0.7, kernel="rbf", gamma=0.4)
    ref = KernelRidge(alpha=0.7, kernel="rbf", gamma=0.4).fit(X, y)
    np.testing.assert_allclose(fit.alpha, ref.dual_coef_, rtol=1e-10, atol=1e-12)
    Xt = RNG.standard_normal((10, 4))
    np.testing.assert_allclose(fit.predict(Xt), ref.predict(Xt), rtol=1e-10, atol=1e-12)
    lin = kern.kernel_ridge(X, y, lam=2.0, kernel="linear")
    w = Ridge(alpha=2.0, fit_intercept=False, solver="cholesky").fit(X, y).coef_
    np.testing.assert_allclose(X.T @ lin.alpha, w, rtol=1e-10)


@pytest.mark.parametrize("n, d", [(60, 4), (15, 40)])
def test_linear_kernel_ridge_is_chapter_1_ridge(n, d):
    from mlnotes import linear

    # its own generator: with the module's RNG the data depended on which tests ran before
    rng = np.random.default_rng(100 * n + d)
    X, y = rng.standard_normal((n, d)), rng.standard_normal(n)
    for lam in (1e-2, 1.0, 30.0):
        fit, w = kern.kernel_ridge(X, y, lam=lam, kernel="linear"), linear.ridge(X, y, lam=lam).w
        # normwise: two solvers' rounding is relative to |w|, not to each entry (an entry near
        # 0 differed by 1.5e-9 of itself with another draw)
        assert np.linalg.norm(X.T @ fit.alpha - w) <= 1e-9 * np.linalg.norm(w)
        assert np.linalg.norm(fit.predict(X[:5]) - X[:5] @ w) <= 1e-9 * np.linalg.norm(X[:5] @ w)


def test_kernel_ridge_multi_output_and_bad_y():
    X, Y = RNG.standard_normal((30, 3)), RNG.standard_normal((30, 4))
    fit = kern.kernel_ridge(X, Y, lam=0.3, kernel="rbf", gamma=0.5)
    for k in range(4):
        np.testing.assert_allclose(fit.alpha[:, k],
                                   kern.kernel_ridge(X, Y[:, k], lam=0.3, kernel="rbf", gamma=0.5).alpha,
                                   rtol=1e-12)
    with pytest.raises(ValueError, match="y must have shape"):
        kern.kernel_ridge(X, np.ones(29), lam=1.0)


def test_poly2_features_reproduce_polynomial_kernel():
    X, Y = RNG.standard_normal((9, 5)), RNG.standard_normal((6, 5))
    for c0 in (0.0, 1.0, 2.5):
        P, Q = kern.poly2_features(X, coef0=c0), kern.poly2_features(Y, coef0=c0)
        assert P.shape[1] == (15 if c0 == 0 else 21)
        ref = skp.polynomial_kernel(X, Y, degree=2, gamma=1, coef0=c0)
        # entries near 0 come from cancellation: compare on the scale of the matrix
        np.testing.assert_allclose(P @ Q.T, ref, rtol=0, atol=1e-13 * np.abs(ref).max())


def test_polar_features_recover_points_in_every_quadrant():
    X = np.array([[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [0.0, 2.0], [0.0, 0.0]])
    r, t = kern.polar_features(X).T
    np.testing.assert_allclose(np.column_stack([r * np.cos(t), r * np.sin(t)]), X, atol=1e-15)
    # The notes' arctan(x2 / x1) cannot: it gives (-1, -1) the angle of (1, 1).
    with np.errstate(divide="ignore", invalid="ignore"):
        wrong = np.arctan(X[:, 1] / X[:, 0])
    assert wrong[0] == wrong[2]


# -- positive semidefiniteness -------------------------------------------------------------------

@pytest.mark.parametrize("name, params", [
    ("linear", {}), ("poly", {"degree": 3, "coef0": 1.0, "gamma": 0.5}), ("rbf", {"gamma": 3.0}),
    ("intersection", {}), ("chi2", {"gamma": 0.5}),
])
def test_pd_kernels_have_psd_grams(name, params):
    for _ in range(20):
        X = _histograms(int(RNG.integers(2, 40)), int(RNG.integers(1, 8)))
        K = kern.gram(X, kernel=name, **params)
        np.testing.assert_array_equal(K, K.T)
        eig = np.linalg.eigvalsh(K)
        assert eig[0] >= -1e-12 * max(1.0, eig[-1])


def test_additive_chi2_and_sigmoid_are_indefinite():
    X = _histograms(30, 6)
    eig = np.linalg.eigvalsh(kern.additive_chi2_kernel(X))
    assert eig[0] < -0.1 * abs(eig).max()  # zero diagonal, negative off-diagonal: trace 0
    eig = np.linalg.eigvalsh(kern.sigmoid_kernel(RNG.standard_normal((30, 2))))
    assert eig[0] < 0


@settings(max_examples=50, deadline=None)
@given(arrays(float, st.tuples(st.integers(2, 12), st.integers(1, 4)),
              elements=st.floats(0, 10, allow_nan=False)),
       st.floats(0.01, 10), st.floats(0.01, 10))
def test_construction_rules_keep_psd(X, c, gamma):
    K1, K2 = kern.rbf_kernel(X, gamma=gamma), kern.intersection_kernel(X)
    f = np.cos(X).sum(1)
    for K in (K1 + K2, c * K2, K1 * K2, np.outer(f, f), np.exp(K1), kern.chi2_kernel(X, gamma=gamma)):
        eig = np.linalg.eigvalsh(K)
        assert eig[0] >= -1e-11 * max(1.0, abs(eig).max())


# -- bad input -----------------------------------------------------------------------------------

@pytest.mark.parametrize("fn", [kern.intersection_kernel, kern.additive_chi2_kernel, kern.chi2_kernel])
def test_histogram_kernels_reject_negative_entries(fn):
    X = np.abs(RNG.standard_normal((5, 3)))
    Y = X.copy()
    Y[2, 1] = -0.5
    with pytest.raises(ValueError, match=r"Y has a negative entry -0\.5"):
        fn(X, Y)
    with pytest.raises(ValueError, match="X has a negative entry"):
        fn(-X)


@pytest.mark.parametrize("fn", [kern.rbf_kernel, kern.chi2_kernel, kern.polynomial_kernel,
                                kern.sigmoid_kernel])
@pytest.mark.parametrize("gamma", [0.0, -1.0, np.nan])
def test_non_positive_gamma_is_rejected(fn, gamma):
    with pytest.raises(ValueError, match="gamma"):
        fn(np.ones((3, 2)), gamma=gamma)


@pytest.mark.parametrize("name", sorted(kern.KERNELS))
def test_mismatched_feature_dimensions(name):
    with pytest.raises(ValueError, match="X has 3 columns, Y has 2"):
        kern.gram(np.ones((4, 3)), np.ones((5, 2)), kernel=name)


def test_other_bad_input():
    with pytest.raises(ValueError, match="degree must be an integer >= 1"):
        kern.polynomial_kernel(np.ones((2, 2)), degree=1.5)
    with pytest.raises(ValueError, match="kernel must be one of"):
        kern.gram(np.ones((2, 2)), kernel="gaussian")
    with pytest.raises(ValueError, match="X contains NaN"):
        kern.rbf_kernel(np.array([[np.nan, 1.0]]))
    with pytest.raises(ValueError, match="lam must be positive"):
        kern.kernel_ridge(np.ones((3, 2)), np.ones(3), lam=0.0)
    with pytest.raises(ValueError, match="polar coordinates need 2 features"):
        kern.polar_features(np.ones((3, 3)))


def test_callable_kernel_not_psd_is_refused_with_most_negative_eigenvalue():
    X = RNG.standard_normal((25, 2))
    expected = np.linalg.eigvalsh(skp.sigmoid_kernel(X, gamma=1.0, coef0=1.0))[0]

    def tanh_kernel(A, B):
        return np.tanh(A @ B.T + 1.0)

    message = f"most negative eigenvalue is {expected:.6g}.*allow_indefinite=True"
    with pytest.raises(ValueError, match=message):
        kern.gram(X, kernel=tanh_kernel)
    with pytest.raises(ValueError, match=message):
        kern.kernel_ridge(X, X[:, 0], lam=1.0, kernel=tanh_kernel)
    # asked for, it is computed, with the warning
    with pytest.warns(kern.NotPSDWarning, match=f"most negative eigenvalue is {expected:.6g}"):
        K = kern.gram(X, kernel=tanh_kernel, allow_indefinite=True)
    np.testing.assert_allclose(K, skp.sigmoid_kernel(X, gamma=1.0, coef0=1.0), atol=1e-15)
    with pytest.warns(kern.NotPSDWarning):
        kern.kernel_ridge(X, X[:, 0], lam=1.0, kernel=tanh_kernel, allow_indefinite=True)


@pytest.mark.parametrize("scale", [1e-150, 1e-20, 1.0, 1e20, 1e150])
def test_psd_verdict_does_not_depend_on_the_unit(scale):
    # Whether K is PSD is a property of K, not of its unit: a Gram matrix and an indefinite
    # matrix (one eigenvalue -1e-3 of the largest) get the same verdicts at every scale, and
    # the eigenvalue reported is in K's own unit.
    V = RNG.standard_normal((12, 3))
    G = V @ V.T  # rank 3: nine eigenvalues are rounding, of either sign
    Q = np.linalg.qr(RNG.standard_normal((12, 12)))[0]
    B = Q @ np.diag(np.r_[-1e-3, np.linspace(0.1, 1.0, 11)]) @ Q.T
    B = (B + B.T) / 2
    assert kern.check_psd(scale * G, on_indefinite="raise") == pytest.approx(
        scale * np.linalg.eigvalsh(G)[0], abs=1e-12 * scale * np.abs(G).max())
    with pytest.raises(ValueError, match="most negative eigenvalue is") as info:
        kern.check_psd(scale * B, on_indefinite="raise")
    reported = float(re.search(r"eigenvalue is (\S+) ", str(info.value)).group(1))
    assert reported == pytest.approx(-1e-3 * scale, rel=1e-5)
    lin = lambda A, C: scale * (A @ C.T)  # noqa: E731  a kernel in any unit
    np.testing.assert_allclose(kern.gram(V, kernel=lin), scale * G, rtol=1e-12)


def test_callable_kernel_psd_is_silent_and_nonsymmetric_raises():
    import warnings

    X = RNG.standard_normal((25, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kern.gram(X, kernel=lambda A, B, gamma: np.exp(-gamma * ((A[:, None] - B[None]) ** 2).sum(-1)),
                  gamma=0.5)
    with pytest.raises(ValueError, match="not symmetric"):
        kern.gram(X, kernel=lambda A, B: A @ B.T + A[:, :1])
    with pytest.raises(ValueError, match="must return an array of shape"):
        kern.gram(X, kernel=lambda A, B: A @ A.T[:, :3])


def test_errata_maps_fail_where_the_chapter_says():
    # notes 000, 4.2.4: phi(x) = (x1, x2, sqrt2 x1 x2) does not give (x.y)^2; the corrected map does.
    X, Y = RNG.standard_normal((8, 2)), RNG.standard_normal((6, 2))

    def wrong(A):
        return np.column_stack([A[:, 0], A[:, 1], np.sqrt(2) * A[:, 0] * A[:, 1]])

    target = skp.polynomial_kernel(X, Y, degree=2, gamma=1.0, coef0=0.0)
    assert np.abs(wrong(X) @ wrong(Y).T - target).max() > 0.1
    np.testing.assert_allclose(kern.poly2_features(X) @ kern.poly2_features(Y).T, target,
                               rtol=0, atol=1e-13 * np.abs(target).max())
    # notes 004: pure powers (1, x_j, x_j^2) miss the cross term of (1 + x.y)^2.
    def powers(A):
        return np.hstack([np.ones((A.shape[0], 1)), np.sqrt(2) * A, A**2])

    target = skp.polynomial_kernel(X, Y, degree=2, gamma=1.0, coef0=1.0)
    assert np.abs(powers(X) @ powers(Y).T - target).max() > 0.1


@pytest.mark.parametrize("name, params", [
    ("linear", {}), ("poly", {"degree": 2, "coef0": 0.5}), ("poly", {}), ("rbf", {"gamma": 0.3}),
    ("sigmoid", {"gamma": 0.1}), ("chi2", {}), ("intersection", {}),
])
def test_kernel_rows_are_the_rows_of_gram(name, params):
    X = np.abs(np.random.default_rng(3).standard_normal((40, 4)))
    row = kern.kernel_rows(X, kernel=name, **params)
    K = kern.gram(X, kernel=name, **params)
    np.testing.assert_allclose(np.array([row(i) for i in range(40)]), K, rtol=1e-13, atol=1e-14)


def test_kernel_rows_check_parameters_and_scale_once():
    X = np.random.default_rng(4).standard_normal((10, 3))
    with pytest.raises(ValueError, match="gamma"):
        kern.kernel_rows(X, kernel="rbf", gamma=-1.0)
    with pytest.raises(ValueError, match="scale of X"):
        kern.kernel_rows(X * 1e200, kernel="linear")
    with pytest.raises(TypeError):
        kern.kernel_rows(X, kernel="poly", sigma=2.0)  # not a parameter of the kernel


# -- tests that kill the surviving mutants of `make mutants MODULE=kernels` ---------------------
# (tests/mutation_triage/kernels.md lists each mutant with the test that kills it, or why it
# is equivalent)
def _unit_histograms(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.uniform(0, 1, (n, d))
    X[X < 0.3] = 0.0
    return X


def test_default_parameters_are_those_of_the_docstrings():
    X = np.random.default_rng(30).standard_normal((9, 3)) * 0.5
    Y = np.random.default_rng(31).standard_normal((4, 3)) * 0.5
    for ours, theirs, params in [
        (kern.polynomial_kernel, skp.polynomial_kernel, {"degree": 3, "gamma": 1.0, "coef0": 1.0}),
        (kern.rbf_kernel, skp.rbf_kernel, {"gamma": 1.0}),
        (kern.sigmoid_kernel, skp.sigmoid_kernel, {"gamma": 1.0, "coef0": 1.0}),
    ]:
        np.testing.assert_allclose(ours(X, Y), theirs(X, Y, **params), rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(ours(X), theirs(X, **params), rtol=1e-12, atol=1e-14)
    H = np.abs(X)
    np.testing.assert_allclose(kern.chi2_kernel(H), skp.chi2_kernel(H, gamma=1.0), rtol=1e-12)
    assert kern.poly2_features(X).shape == (9, 6)  # coef0 = 0: no constant and linear blocks


def test_chi2_kernels_equal_sklearns_formula_exactly_in_the_direct_range():
    """Entries in [0, 1) with d < 8: the same operations in the same order as scikit-learn's
    loop, (x - y)^2 / (x + y) summed over j, so equal to the last bit (no BLAS involved)."""
    X, Y = _unit_histograms(20, 5, 32), _unit_histograms(15, 5, 33)
    np.testing.assert_array_equal(kern.additive_chi2_kernel(X, Y), skp.additive_chi2_kernel(X, Y))
    np.testing.assert_array_equal(kern.additive_chi2_kernel(X), skp.additive_chi2_kernel(X))
    np.testing.assert_array_equal(kern.chi2_kernel(X, Y, gamma=0.7), skp.chi2_kernel(X, Y, gamma=0.7))


@pytest.mark.parametrize("e", [-660, -480, 500, 660])
def test_chi2_distance_scales_linearly_at_extreme_scales(e):
    """D(cX, cY) = c D(X, Y): at 1e+-200 (and 1e+-145) the squares of the differences would
    over- or underflow; the scaled form keeps every term."""
    X, Y = _unit_histograms(12, 4, 34), _unit_histograms(7, 4, 35)
    c = 2.0**e
    ref = skp.additive_chi2_kernel(X, Y)
    np.testing.assert_allclose(kern.additive_chi2_kernel(c * X, c * Y), c * ref, rtol=1e-13)
    np.testing.assert_allclose(kern.additive_chi2_kernel(c * X), c * skp.additive_chi2_kernel(X),
                               rtol=1e-13)


def test_chi2_kernel_refuses_only_entries_above_1e307():
    ok = kern.additive_chi2_kernel(np.array([[1e307, 0.0], [0.0, 1e307]]))
    np.testing.assert_allclose(ok, [[0.0, -2e307], [-2e307, 0.0]], rtol=1e-15)
    with pytest.raises(ValueError, match=r"^the chi-squared kernel's x \+ y overflows at the scale "
                                         r"of X \(max x_ij = 1\.5e\+307\): rescale X$"):
        kern.chi2_kernel(np.array([[1.5e307, 0.0]]), np.array([[1.0, 1.0]]))


def test_histogram_kernels_name_the_argument_and_accept_zeros():
    X = np.array([[0.0, 1.0], [2.0, 0.0]])
    np.testing.assert_array_equal(kern.intersection_kernel(X), [[1.0, 0.0], [0.0, 2.0]])
    for fn, what in [(kern.intersection_kernel, "the intersection kernel"),
                     (kern.additive_chi2_kernel, "the chi-squared kernel")]:
        with pytest.raises(ValueError, match=rf"^{what} is defined for histograms \(non-negative "
                                             rf"entries\), but X has a negative entry -2$"):
            fn(-X, X)
        with pytest.raises(ValueError, match=r"but Y has a negative entry -1$"):
            fn(X, -0.5 * X)


def test_tiles_with_few_rows_and_many_columns_of_Y():
    """3 x 37 against 700 x 37: one row tile, several column tiles of _TILE // (d n) columns;
    and a non-square rbf in row blocks of _TILE // m rows."""
    rng = np.random.default_rng(36)
    X, Y = rng.uniform(0, 2, (3, 37)), rng.uniform(0, 2, (700, 37))
    np.testing.assert_allclose(kern.intersection_kernel(X, Y), np.minimum(X[:, None], Y[None]).sum(-1),
                               rtol=1e-14)
    np.testing.assert_allclose(kern.chi2_kernel(X, Y, gamma=0.05), skp.chi2_kernel(X, Y, gamma=0.05),
                               rtol=1e-12)
    A, B = rng.standard_normal((50, 3)), rng.standard_normal((700, 3))
    np.testing.assert_allclose(kern.rbf_kernel(A, B, gamma=0.3), skp.rbf_kernel(A, B, gamma=0.3),
                               rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(kern.rbf_kernel(B, A, gamma=0.3), skp.rbf_kernel(B, A, gamma=0.3),
                               rtol=1e-12, atol=1e-300)


def test_rbf_values_stay_in_0_1_for_coinciding_points():
    """Y a copy of X: ||x||^2 + ||y||^2 - 2 x^T y rounds to either sign around 0 (two ways of
    summing); clipped at 0, exp gives at most 1."""
    X = np.random.default_rng(37).standard_normal((60, 7)) * 30
    K = kern.rbf_kernel(X, X.copy(), gamma=1e-3)
    assert K.max() <= 1.0
    np.testing.assert_allclose(np.diag(K), 1.0, rtol=1e-9)
    row = kern.kernel_rows(X, kernel="rbf", gamma=1e-3)
    assert max(row(i).max() for i in range(60)) <= 1.0
    assert all(row(i)[i] == 1.0 for i in range(60))  # exactly, as on the diagonal of gram


def test_inner_product_kernels_refuse_overflow_and_underflow_by_name():
    X = np.array([[1.0, 2.0], [3.0, -1.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning on the way to the error
        for fn, name in [(kern.linear_kernel, "linear"), (kern.polynomial_kernel, "polynomial"),
                         (kern.sigmoid_kernel, "sigmoid"), (kern.rbf_kernel, "rbf")]:
            with pytest.raises(ValueError, match=rf"^the {name} kernel's inner products x\^T y "
                                                 r"overflow at the scale of X \(max \|x_ij\| = 3e\+200\)"):
                fn(X * 1e200)
        for fn, name in [(kern.linear_kernel, "linear"),
                         (lambda A: kern.polynomial_kernel(A, coef0=0.0), "polynomial"),
                         (lambda A: kern.sigmoid_kernel(A, coef0=0.0), "sigmoid")]:
            with pytest.raises(ValueError, match=rf"^the {name} kernel's inner products x\^T y "
                                                 r"underflow to 0 at the scale of X \(max \|x_ij\| = 3e-160\)"):
                fn(X * 1e-160)
        # an offset c_0 != 0 (or the rbf kernel) does not depend on the vanished products
        np.testing.assert_allclose(kern.polynomial_kernel(X * 1e-160, coef0=2.0, degree=2), 4.0)
        np.testing.assert_allclose(kern.polynomial_kernel(X * 1e-160, coef0=1.0, degree=2), 1.0)
        np.testing.assert_allclose(kern.sigmoid_kernel(X * 1e-160), np.tanh(1.0))
        np.testing.assert_array_equal(kern.rbf_kernel(X * 1e-170, X * 1e-170), 1.0)
        # one tiny factor beside a normal one: the products 1e-160 are representable
        np.testing.assert_allclose(kern.linear_kernel(X * 1e-160, X), (X @ X.T) * 1e-160, rtol=1e-14)
        # the threshold: products of 2^-500 * 2^-500 = 2^-1000 are kept, 0.75 * 2^-1000 are not
        a = np.array([[2.0**-500]])
        assert kern.linear_kernel(a)[0, 0] == 2.0**-1000
        with pytest.raises(ValueError, match="underflow to 0"):
            kern.linear_kernel(a, 0.75 * a)


def test_polynomial_and_rbf_kernels_name_the_overflow_of_their_own_formula():
    X = np.array([[1.0, 2.0], [3.0, -1.0]]) * 1e100
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"^the polynomial kernel \(gamma x\^T y \+ c_0\)\^4 "
                                             r"overflows at the scale of X \(max \|x_ij\| = 3e\+100\): "
                                             r"rescale X or lower gamma$"):
            kern.polynomial_kernel(X, degree=4)
        Z = np.array([[1.0, 2.0], [3.0, -1.0]]) * 1e150
        with pytest.raises(ValueError, match=r"^the rbf kernel's gamma \|\|x - y\|\|\^2 overflows at "
                                             r"the scale of X \(max \|x_ij\| = 3e\+150\) with "
                                             r"gamma=10000000000\.0: rescale X or lower gamma$"):
            kern.rbf_kernel(Z, gamma=1e10)


def test_check_psd_thresholds_names_and_units():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # symmetric up to 1e-10 of the largest entry: accepted; 2e-10: refused, in K's unit
        assert kern.check_psd(np.array([[1.0, 0.0], [1e-10, 1.0]])) == pytest.approx(1.0, abs=1e-9)
        # a diagonal entry or eigenvalue of exactly -rtol (relative): still PSD, and returned
        assert kern.check_psd(np.array([[1.0, 0.0], [0.0, -1e-10]])) == pytest.approx(-1e-10, rel=1e-6)
        assert kern.check_psd(np.array([[1.0, 0.0], [0.0, 0.0]])) == 0.0
        # eigenvalue -1e-10 beside the largest 2: within rtol * 2
        assert kern.check_psd(np.array([[1.0, 1.0], [1.0, 1.0 - 2e-10]])) == pytest.approx(-1e-10, rel=1e-3)
        assert kern.check_psd(np.zeros((0, 0))) == 0.0
        assert kern.check_psd(np.zeros((3, 3))) == 0.0
        assert kern.check_psd(np.eye(3), rtol=0.0) == 1.0
    with pytest.raises(ValueError, match=r"^K is not symmetric: max \|K_ij - K_ji\| = 2e-30; a kernel "
                                         r"must satisfy k\(x, y\) = k\(y, x\)$"):
        kern.check_psd(1e-20 * np.array([[1.0, 0.0], [2e-10, 1.0]]))
    with pytest.raises(ValueError, match=r"^K must be a square Gram matrix, got shape \(2, 3\)$"):
        kern.check_psd(np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"^G must be a 2-D array"):
        kern.check_psd(np.ones(3), name="G")
    with pytest.raises(ValueError, match=r"^rtol must be"):
        kern.check_psd(np.eye(2), rtol=-1.0)
    with pytest.raises(ValueError, match=r"^on_indefinite must be 'warn', 'raise' or 'ignore', got 'x'$"):
        kern.check_psd(np.eye(2), on_indefinite="x")
    neg = 1e-20 * np.array([[1.0, 0.0], [0.0, -1.0]])
    with pytest.raises(ValueError, match=r"^K is not positive semidefinite: it has a negative diagonal "
                                         r"entry -1e-20; this kernel is not an inner product in any "
                                         r"feature space; the matrix is indefinite, so the SVM dual is "
                                         r"not concave$"):
        kern.check_psd(neg, on_indefinite="raise")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert kern.check_psd(neg, on_indefinite="ignore") == -1e-20
        assert kern.check_psd(np.array([[1.0, 2.0], [2.0, 1.0]]), on_indefinite="ignore") == pytest.approx(-1.0)
    # eigenvalues -1, 0.5, 3 (times 1e-20)
    ind = 1e-20 * np.array([[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 0.5]])
    with pytest.warns(kern.NotPSDWarning) as rec:
        lam = kern.check_psd(ind)
    assert lam == pytest.approx(-1e-20, rel=1e-12) and len(rec) == 1
    assert str(rec[0].message) == (
        "K is not positive semidefinite: its most negative eigenvalue is -1e-20 (largest eigenvalue "
        "3e-20); this kernel is not an inner product in any feature space, and SVM or kernel ridge "
        "may fail or return a non-optimal fit")


def test_check_psd_of_a_large_matrix_uses_2_by_2_minors():
    """n > 3000: 2 x 2 principal minors of 200 sampled rows instead of the eigenvalues. With
    k(x_0, x_0) = 1, k(x_j, x_j) = 4 and k(x_0, x_j) = 3, every minor with column 0 is
    1 * 4 - 3^2 = -5, whichever rows are sampled; a minor of exactly -rtol is no verdict;
    without those entries the matrix is PSD. (Few calls: transposing a 3001 x 3001 matrix is
    slow.)"""
    K = 4.0 * np.eye(3001)
    K[0, 0] = 1.0
    K[0, 1:] = K[1:, 0] = 3.0
    with pytest.warns(kern.NotPSDWarning, match=r"^K is not positive semidefinite: a 2 x 2 principal "
                                                r"minor is negative;") as rec:
        assert kern.check_psd(K) == pytest.approx(-5.0, rel=1e-12)
    assert len(rec) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # k(x_0, x_0) = 0.5, the others 1, k(x_0, x_j) = 0.75: minors 0.5 - 0.5625 = -rtol exactly
        K[0, 0], K[0, 1:], K[1:, 0] = 2.0, 3.0, 3.0
        assert kern.check_psd(K, rtol=0.0625) == -1.0  # in the unit of K^2: -0.0625 * 4^2
        K[0, 1:] = K[1:, 0] = 0.0
        assert kern.check_psd(K) == 0.0


def test_may_be_indefinite_table():
    expected = {"linear": False, "rbf": False, "intersection": False, "chi2": False, "poly": False,
                "sigmoid": True, "additive_chi2": True}
    for name, value in expected.items():
        assert kern.may_be_indefinite(name) is value, name
    for coef0, value in [(0.0, False), (0.5, False), (1.0, False), (-0.1, True)]:
        assert kern.may_be_indefinite("poly", coef0=coef0) is value
        with pytest.raises(TypeError, match=r"the 'rbf' kernel takes \['gamma'\], got \['coef0'\]"):
            kern.may_be_indefinite("rbf", coef0=coef0)  # as gram(kernel="rbf", coef0=...) would
    assert kern.may_be_indefinite(lambda A, B: A @ B.T) is True
    with pytest.raises(ValueError, match="kernel must be one of"):
        kern.may_be_indefinite("gaussian")


def test_gram_of_a_callable_passes_X_Y_and_params_and_names_it():
    import functools

    rng = np.random.default_rng(38)
    X, Y = rng.standard_normal((5, 3)), rng.standard_normal((7, 3))

    def scaled(A, B, c=1.0):
        return c * (A @ B.T)

    np.testing.assert_allclose(kern.gram(X, Y, kernel=scaled, c=2.0), 2.0 * X @ Y.T, rtol=1e-14)
    # K(X, Y) of a callable is not checked for symmetry (it need not be square)
    np.testing.assert_allclose(kern.gram(X, Y, kernel=lambda A, B: -(A @ B.T)), -X @ Y.T, rtol=1e-14)
    with pytest.raises(ValueError, match=r"^the kernel callable must return"):
        kern.gram(X, Y, kernel=lambda A, B: A @ A.T)
    with pytest.raises(ValueError, match=r"^the Gram matrix of scaled is not positive semidefinite"):
        kern.gram(X, kernel=scaled, c=-1.0)
    with pytest.raises(ValueError, match=r"^the Gram matrix of the kernel is not positive semidefinite"):
        kern.gram(X, kernel=functools.partial(scaled, c=-1.0))


def test_kernel_rows_of_callables_and_odd_inputs():
    rng = np.random.default_rng(39)
    X = rng.standard_normal((6, 2))
    neg = kern.kernel_rows(X, kernel=lambda A, B: -(A @ B.T))  # rows of K(x_i, X): not checked
    np.testing.assert_allclose(neg(4), -X @ X[4], rtol=1e-14)
    calls = []

    def recording(A, B):
        calls.append((A.copy(), B.copy()))
        return A @ B.T

    top = int(np.argmax((X * X).sum(1)))
    assert 0 < top < 5
    kern.kernel_rows(X, kernel=recording)  # checked once, on the point of largest norm with itself
    assert len(calls) == 1
    np.testing.assert_array_equal(calls[0][0], X[top:top + 1])
    np.testing.assert_array_equal(calls[0][1], X[top:top + 1])
    one = kern.kernel_rows(X[:1], kernel="rbf")
    np.testing.assert_array_equal(one(0), [1.0])
    with pytest.raises(ValueError, match=r"^X must have at least one row$"):
        kern.kernel_rows(np.zeros((0, 2)))
    row = kern.kernel_rows(X, kernel="linear")
    for bad in (6, -1):
        with pytest.raises(ValueError, match=r"^i \(the row of kernel_rows\) must be an integer >= 0 "
                                             r"and <= 5, got"):
            row(bad)
    np.testing.assert_allclose(row(5), X @ X[5], rtol=1e-14)
    np.testing.assert_allclose(kern.kernel_rows(X)(3), skp.rbf_kernel(X, gamma=1.0)[3], rtol=1e-13)
    with pytest.raises(ValueError, match=r"^X must be a 2-D array"):
        kern.kernel_rows(np.ones(3))
    huge = X.copy()
    huge[2] *= 1e200  # the point of largest norm is checked, wherever it is
    with pytest.raises(ValueError, match=r"^the linear kernel's inner products x\^T y overflow"):
        kern.kernel_rows(huge, kernel="linear")
    X2 = X.copy()
    rows = kern.kernel_rows(X2, kernel="poly", degree=2)
    X2[:] = 0.0  # kernel_rows keeps its own copy
    np.testing.assert_allclose(rows(2), (X @ X[2] + 1.0) ** 2, rtol=1e-13)


def test_kernel_ridge_edge_cases_and_objective():
    rng = np.random.default_rng(40)
    X, y = rng.standard_normal((12, 3)), rng.standard_normal(12)
    fit = kern.kernel_ridge(X, y, lam=0.3, kernel="rbf", gamma=0.5)
    K = skp.rbf_kernel(X, gamma=0.5)
    r = y - K @ fit.alpha
    assert fit.objective[0] == pytest.approx(r @ r + 0.3 * fit.alpha @ K @ fit.alpha, rel=1e-10)
    assert fit.lam == 0.3 and fit.kernel == "rbf" and fit.kernel_params == {"gamma": 0.5}
    np.testing.assert_array_equal(fit.X, X)
    # one sample: alpha = y / (k(x, x) + lam) = y / (1 + lam)
    one = kern.kernel_ridge(X[:1], y[:1], lam=0.5)
    np.testing.assert_allclose(one.alpha, y[:1] / 1.5, rtol=1e-14)
    with pytest.raises(ValueError, match=r"^X has no rows: at least one sample is needed$"):
        kern.kernel_ridge(np.zeros((0, 2)), np.zeros(0), lam=1.0)
    with pytest.raises(ValueError, match=r"^y must have shape \(n,\) or \(n, k\) with n = 12 rows of X, "
                                         r"got shape \(11,\)$"):
        kern.kernel_ridge(X, y[:-1], lam=1.0)
    with pytest.raises(ValueError, match=r"^X must be a 2-D array"):
        kern.kernel_ridge(X[:, 0], y, lam=1.0)
    with pytest.raises(ValueError, match=r"^y contains NaN"):
        kern.kernel_ridge(X, np.full(12, np.nan), lam=1.0)
    with pytest.raises(ValueError, match=r"^X has 2 columns but the model was fitted on 3 features$"):
        fit.predict(X[:, :2])


def test_kernel_ridge_refuses_indefinite_kernels_by_default():
    rng = np.random.default_rng(41)
    X, y = rng.standard_normal((25, 2)), rng.standard_normal(25)
    for kw in ({"kernel": "sigmoid"}, {"kernel": "poly", "coef0": -5.0, "gamma": 0.1}):
        with pytest.raises(ValueError, match=r"^the Gram matrix of kernel='(sigmoid|poly)' is not "
                                             r"positive semidefinite.*allow_indefinite=True"):
            kern.kernel_ridge(X, y, lam=0.1, **kw)
        with pytest.warns(kern.NotPSDWarning) as rec:
            fit = kern.kernel_ridge(X, y, lam=0.1, allow_indefinite=True, **kw)
        assert len(rec) == 1
        K = kern.gram(X, **kw)
        np.testing.assert_allclose((K + 0.1 * np.eye(25)) @ fit.alpha, y, atol=1e-8)

    def tanh(A, B):
        return np.tanh(A @ B.T + 1.0)

    with pytest.warns(kern.NotPSDWarning) as rec:  # the callable is checked once, in gram
        kern.kernel_ridge(X, y, lam=0.1, kernel=tanh, allow_indefinite=True)
    assert len(rec) == 1


def test_feature_maps_name_their_arguments():
    with pytest.raises(ValueError, match=r"^coef0 must be non-negative"):
        kern.poly2_features(np.ones((2, 2)), coef0=-1.0)
    for fn in (kern.poly2_features, kern.polar_features):
        with pytest.raises(ValueError, match=r"^X must be a 2-D array"):
            fn(np.ones(3))
    with pytest.raises(ValueError, match=r"^polar coordinates need 2 features, X has 3$"):
        kern.polar_features(np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"^coef0 must be a finite number"):
        kern.polynomial_kernel(np.ones((2, 2)), coef0=np.nan)
    with pytest.raises(ValueError, match=r"^coef0 must be a finite number"):
        kern.sigmoid_kernel(np.ones((2, 2)), coef0=np.inf)
    with pytest.raises(ValueError, match=r"^degree must be an integer >= 1"):
        kern.polynomial_kernel(np.ones((2, 2)), degree=0)
    for fn in (kern.rbf_kernel, kern.polynomial_kernel, kern.sigmoid_kernel, kern.chi2_kernel):
        with pytest.raises(ValueError, match=r"^gamma must be positive"):
            fn(np.ones((2, 2)), gamma=0.0)
    with pytest.raises(ValueError, match=r"^Y must be a 2-D array"):
        kern.linear_kernel(np.ones((2, 2)), np.ones(2))
    with pytest.raises(ValueError, match=r"^X and Y have different numbers of features: X has 2 "
                                         r"columns, Y has 3$"):
        kern.linear_kernel(np.ones((2, 2)), np.ones((4, 3)))


def test_scale_errors_report_the_scale_of_X_below_1_too():
    """Huge gamma with entries below 1: the message gives max |x_ij| of X itself (0.9, 0.5),
    and no RuntimeWarning comes first. A product 1e-200 * 1e-110 underflows though the larger
    factor alone would not."""
    X = np.array([[0.9, 0.5, 0.1], [0.2, 0.9, 0.4]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"overflows at the scale of X \(max \|x_ij\| = 0\.9\) with "
                                             r"gamma=1e\+308"):
            kern.rbf_kernel(np.tile(X, 4), gamma=1e308)
        with pytest.raises(ValueError, match=r"\^3 overflows at the scale of X \(max \|x_ij\| = 0\.9\)"):
            kern.polynomial_kernel(X, gamma=1e300)
        with pytest.raises(ValueError, match=r"^the linear kernel's inner products x\^T y overflow"):
            kern.linear_kernel(np.array([[1e200, 1e200]]), np.array([[1e200, -1e200]]))  # inf - inf
        with pytest.raises(ValueError, match=r"underflow to 0 at the scale of X \(max \|x_ij\| = 9e-111\)"):
            kern.linear_kernel(X * 1e-200, X * 1e-110)
    with pytest.raises(ValueError, match=r"^X must be a 2-D array"):
        kern.linear_kernel(np.ones(3))


def test_chi2_terms_stay_below_the_sums_near_the_smallest_normal_numbers():
    """(x - y)^2 / (x + y) <= x + y for every term, also at 1e-300 (the scaled form), where a
    denominator made larger by the smallest normal number keeps each term below its bound."""
    X, Y = np.array([[1e-300, 0.0], [3e-301, 2e-301]]), np.array([[0.0, 5e-301]])
    D = -kern.additive_chi2_kernel(X, Y)
    assert np.all(D <= (X[:, None] + Y[None]).sum(-1))
    np.testing.assert_allclose(D, [[1.5e-300], [3e-301 + 9e-301 / 7e-301 * 1e-301]], rtol=1e-6)


@pytest.mark.parametrize(("name", "params"), [("linear", {}), ("poly", {"coef0": 0.0, "degree": 1})])
def test_kernel_rows_are_the_rows_of_gram_at_mixed_scales(name, params):
    """One row at 1e-200 among rows at 1e-110: gram(X) is representable (its inner products are
    checked at the scale of X, 1e-220 > 2^-1000), and so is each row taken from it, the tiny
    row's included."""
    X = np.random.default_rng(42).uniform(1, 2, (5, 3)) * 1e-110
    X[3] *= 1e-90
    K = kern.gram(X, kernel=name, **params)
    row = kern.kernel_rows(X, kernel=name, **params)
    for i in range(5):
        np.testing.assert_allclose(row(i), K[i], rtol=1e-13, atol=0)
