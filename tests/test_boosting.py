"""Tests of mlnotes.boosting: exact stumps against brute force, AdaBoost against scikit-learn."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from mlnotes import boosting, datasets, to_pm1
from mlnotes.boosting import EPS_FLOOR, Stump, adaboost, best_stump, stump_errors


def brute_force_min_error(X, y, D):
    """Smallest weighted error over every stump, by trying every threshold one by one.

    Thresholds: below all values, and at every observed value (x > value); both polarities.
    Written independently of the library's cumulative-sum search.
    """
    D = np.asarray(D, dtype=float) / np.sum(D)
    best = np.inf
    for j in range(X.shape[1]):
        for theta in [-np.inf, *np.unique(X[:, j])]:
            for s in (1, -1):
                pred = np.where(X[:, j] > theta, s, -s)
                best = min(best, float(D[pred != y].sum()))
    return best


small_problems = st.integers(1, 12).flatmap(
    lambda n: st.tuples(
        # few distinct values, so ties between values (non-thresholds) are common
        arrays(np.float64, (n, 3), elements=st.sampled_from([-1.5, 0.0, 0.25, 2.0, 7.0])),
        arrays(np.float64, n, elements=st.sampled_from([-1.0, 1.0])),
        arrays(np.float64, n, elements=st.floats(0.0, 10.0).filter(lambda v: v == 0 or v > 1e-3)),
    )
).filter(lambda p: p[2].sum() > 0)


@settings(max_examples=100, deadline=None)
@given(small_problems)
def test_best_stump_is_the_brute_force_minimiser(problem):
    X, y, D = problem
    stump = best_stump(X, y, D)
    Dn = D / D.sum()
    assert stump.eps == pytest.approx(brute_force_min_error(X, y, D), abs=1e-12)
    # the reported error is the error of the stump it returns
    assert stump.eps == pytest.approx(Dn[stump.predict(X) != y].sum(), abs=1e-15)
    assert stump.eps <= 0.5 + 1e-12
    assert set(np.unique(stump.predict(X))) <= {-1.0, 1.0}


@settings(max_examples=50, deadline=None)
@given(small_problems)
def test_stump_errors_table_matches_brute_force(problem):
    X, y, D = problem
    assert stump_errors(X, y, D).min() == pytest.approx(brute_force_min_error(X, y, D), abs=1e-12)


def test_every_round_stump_is_the_brute_force_minimiser_under_D_t():
    rng = np.random.default_rng(1)
    X = np.round(rng.standard_normal((40, 4)), 1)  # rounding makes ties between values
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.standard_normal(40) > 0, 1.0, -1.0)
    fit = adaboost(X, y, n_rounds=25, keep_D=True)
    assert fit.n_rounds == 25
    for t in range(fit.n_rounds):
        assert fit.eps[t] == pytest.approx(brute_force_min_error(X, y, fit.D_history[t]), abs=1e-12)
        assert fit.stumps[t].eps == fit.eps[t]


def test_threshold_between_adjacent_floats_separates_them():
    a = 1.0
    b = np.nextafter(a, 2.0)
    X = np.array([[a], [b], [a], [b]])
    y = np.array([-1.0, 1.0, -1.0, 1.0])
    stump = best_stump(X, y)
    assert stump.eps == 0.0
    np.testing.assert_array_equal(stump.predict(X), y)


def test_scaling_the_weights_changes_nothing():
    rng = np.random.default_rng(2)
    X = rng.standard_normal((30, 3))
    y = np.where(X[:, 0] > 0.2, 1.0, -1.0)
    y[:5] *= -1
    D = rng.random(30)
    s1, s2 = best_stump(X, y, D), best_stump(X, y, 7.5 * D)
    assert (s1.feature, s1.threshold, s1.polarity) == (s2.feature, s2.threshold, s2.polarity)
    assert s1.eps == pytest.approx(s2.eps, rel=1e-14)
    f1 = adaboost(X, y, n_rounds=5, D=D)
    f2 = adaboost(X, y, n_rounds=5, D=1e-3 * D)
    np.testing.assert_allclose(f1.alpha, f2.alpha, rtol=1e-12)


@pytest.mark.parametrize(
    ("D", "match"),
    [
        (-np.ones(4), "D must be non-negative"),
        (np.zeros(4), "D must have a positive sum"),
        (np.ones(3), "one weight per sample"),
        (np.array([1.0, np.nan, 1.0, 1.0]), "D contains NaN"),
    ],
)
def test_bad_weights_are_rejected(D, match):
    X = np.arange(4.0).reshape(-1, 1)
    y = np.array([-1.0, -1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match=match):
        best_stump(X, y, D)
    with pytest.raises(ValueError, match=match):
        adaboost(X, y, n_rounds=3, D=D)


def test_bad_labels_and_arguments_are_rejected():
    X = np.arange(6.0).reshape(-1, 2)
    with pytest.raises(ValueError, match=r"y must take values in \{-1, \+1\}.*to_pm1"):
        adaboost(X, np.array([0.0, 1.0, 1.0]), n_rounds=2)
    with pytest.raises(ValueError, match=r"y must take values in \{-1, \+1\}"):
        best_stump(X, np.array([2.0, 1.0, -1.0]))
    y = np.array([-1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="n_rounds must be an integer >= 1, got 0"):
        adaboost(X, y, n_rounds=0)
    with pytest.raises(ValueError, match="n_rounds must be an integer >= 1, got 2.5"):
        adaboost(X, y, n_rounds=2.5)
    with pytest.raises(ValueError, match="X contains inf"):
        adaboost(np.array([[1.0], [np.inf], [0.0]]), y, n_rounds=2)
    with pytest.raises(ValueError, match="different numbers of samples"):
        best_stump(X, np.array([1.0, -1.0]))
    with pytest.raises(ValueError, match=r"more than 5 columns \(this stump looks at feature 5\), got shape \(3, 2\)"):
        Stump(5, 0.0, 1, 0.0).predict(X)


def test_perfect_weak_learner_stops_with_a_finite_vote():
    X = np.array([[0.0, 3.0], [1.0, 1.0], [2.0, 2.0], [3.0, 0.0]])
    y = np.array([-1.0, -1.0, 1.0, 1.0])
    with np.errstate(all="raise"):  # no division by zero, no overflow anywhere
        fit = adaboost(X, y, n_rounds=10)
    assert fit.stop_reason == "perfect"
    assert fit.n_rounds == 1
    assert fit.eps[0] == 0.0
    assert fit.alpha[0] == pytest.approx(0.5 * np.log((1 - EPS_FLOOR) / EPS_FLOOR))
    assert np.all(np.isfinite(fit.Z)) and np.all(np.isfinite(fit.D))
    assert fit.train_error[-1] == 0.0
    np.testing.assert_array_equal(fit.predict(X), y)


def test_single_class_is_a_perfect_constant_stump():
    fit = adaboost(np.ones((5, 2)), np.ones(5), n_rounds=4)
    assert fit.stop_reason == "perfect"
    assert fit.stumps[0].threshold == -np.inf
    np.testing.assert_array_equal(fit.predict(np.zeros((2, 2))), [1.0, 1.0])


def test_no_edge_stops_before_adding_the_learner():
    X = np.ones((6, 2))  # constant features: every stump has error exactly 1/2
    y = np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0])
    with np.errstate(all="raise"):
        fit = adaboost(X, y, n_rounds=5)
    assert fit.stop_reason == "no edge"
    assert fit.n_rounds == 0
    assert fit.alpha.shape == (0,)
    np.testing.assert_array_equal(fit.decision_function(X), np.zeros(6))
    np.testing.assert_array_equal(fit.predict(X), np.ones(6))


def test_a_custom_weak_learner_worse_than_chance_stops_the_loop():
    X = np.arange(6.0).reshape(-1, 1)
    y = np.array([-1.0, -1.0, -1.0, 1.0, 1.0, 1.0])

    class Flipped:  # always wrong: eps = 1
        def predict(self, X_):
            return -np.where(X_[:, 0] > 2.5, 1.0, -1.0)

    fit = adaboost(X, y, n_rounds=3, weak_learner=lambda X_, y_, D_: Flipped())
    assert fit.stop_reason == "no edge"
    assert fit.n_rounds == 0


def test_trace_is_consistent():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((80, 5))
    y = np.where(np.sin(2 * X[:, 0]) + X[:, 1] > 0, 1.0, -1.0)
    fit = adaboost(X, y, n_rounds=40)
    F = fit.staged_decision_function(X)
    assert F.shape == (40, 80)
    np.testing.assert_allclose(F[-1], fit.decision_function(X), atol=1e-12)
    np.testing.assert_allclose(fit.margins, y * F[-1], atol=1e-12)
    np.testing.assert_array_equal(fit.train_error, np.mean(y * F <= 0, axis=1))
    np.testing.assert_allclose(fit.gamma, 0.5 - fit.eps)
    assert np.all(fit.Z > 0) and np.all(fit.Z < 1)
    assert fit.D.sum() == pytest.approx(1.0)


# -- scikit-learn ---------------------------------------------------------------------------------
# AdaBoostClassifier (SAMME, the only algorithm in current scikit-learn) with depth-1 trees
# chooses each stump by weighted Gini impurity, not by weighted error, so the two runs agree only
# while both criteria pick the same stump. SAMME with two classes uses the vote
# log((1 - err) / err) = 2 alpha_t and the same re-weighting (up to normalisation).


def _sklearn_adaboost(X, y, T):
    from sklearn.ensemble import AdaBoostClassifier
    from sklearn.tree import DecisionTreeClassifier

    return AdaBoostClassifier(
        DecisionTreeClassifier(max_depth=1, random_state=0), n_estimators=T, random_state=0
    ).fit(X, y)


def test_agrees_with_sklearn_while_both_pick_the_same_stump():
    ds = datasets.load_breast_cancer()
    X, y = ds.X, to_pm1(ds.y)
    T = 30
    fit = adaboost(X, y, n_rounds=T, keep_D=True)
    sk = _sklearn_adaboost(X, y, T)
    same = 0
    while same < T and np.array_equal(fit.stumps[same].predict(X), sk.estimators_[same].predict(X)):
        same += 1
    assert same >= 5, "the comparison needs a few rounds where both choose the same stump"
    np.testing.assert_allclose(fit.eps[:same], sk.estimator_errors_[:same], rtol=1e-10)
    np.testing.assert_allclose(2 * fit.alpha[:same], sk.estimator_weights_[:same], rtol=1e-10)
    # scikit-learn's two-class score is f_t rescaled by a positive constant (its normalisation
    # by the sum of the votes), so it is proportional to ours round by round.
    staged = list(sk.staged_decision_function(X))
    F = fit.staged_decision_function(X)
    for t in range(same):
        c = staged[t] @ F[t] / (F[t] @ F[t])
        assert c > 0
        np.testing.assert_allclose(staged[t], c * F[t], atol=1e-10)
    # Wherever the stumps differ, scikit-learn's stump cannot have a lower weighted error
    # under our D_t: ours is the exact minimiser.
    for t in range(T):
        D_t = fit.D_history[t]
        sk_err = D_t[sk.estimators_[t].predict(X) != y].sum()
        assert fit.eps[t] <= sk_err + 1e-12


def test_nearly_perfect_learner_gets_the_capped_vote_and_boosting_goes_on():
    X = np.arange(5.0).reshape(-1, 1)
    y = np.array([-1.0, -1.0, 1.0, 1.0, -1.0])  # the last example defeats every stump ...
    D = np.array([1.0, 1.0, 1.0, 1.0, 1e-12])  # ... but carries almost no weight
    with np.errstate(all="raise"):
        fit = adaboost(X, y, n_rounds=4, D=D)
    assert 0 < fit.eps[0] < EPS_FLOOR
    assert fit.alpha[0] == pytest.approx(0.5 * np.log((1 - EPS_FLOOR) / EPS_FLOOR))
    assert fit.n_rounds > 1 and fit.stop_reason != "perfect"
    assert np.all(np.isfinite(fit.Z)) and np.all(np.isfinite(fit.alpha)) and np.all(np.isfinite(fit.D))
    # the bound of eq-train-bound, weighted by D_1, still holds with the actual Z_t
    D1 = D / D.sum()
    weighted_error = [D1[y * f <= 0].sum() for f in fit.staged_decision_function(X)]
    assert np.all(weighted_error <= np.cumprod(fit.Z))


def test_zero_weights_and_a_single_sample():
    X = np.array([[0.0], [1.0], [2.0]])
    y = np.array([1.0, -1.0, 1.0])
    stump = best_stump(X, y, np.array([1.0, 1.0, 0.0]))  # the third example does not count
    assert stump.eps == 0.0
    assert best_stump(np.array([[3.0]]), np.array([-1.0])).eps == 0.0


# -- ties are broken by rule, never by rounding (issue 13) ---------------------------------------


def test_exact_tie_picks_lowest_feature_then_lowest_threshold():
    # Features 0 and 1 are the same column: every stump on one has its twin on the other.
    # Within feature 0, the thresholds 0.5 and 2.5 both make one mistake (of weight 1/4).
    x = np.array([0.0, 1.0, 2.0, 3.0])
    X = np.column_stack([x, x])
    y = np.array([-1.0, 1.0, -1.0, 1.0])
    D = np.array([0.25, 0.25, 0.25, 0.25])
    h = boosting.best_stump(X, y, D)
    errors = boosting.stump_errors(X, y, D)
    assert h.eps == pytest.approx(errors.min())
    assert (h.feature, h.threshold, h.polarity) == (0, 0.5, 1)


def _tie_rule_by_brute_force(X, y, D):
    """best_stump's documented rule, from every stump's error: among the stumps of least error
    the lowest feature, then the lowest threshold, then polarity +1. A threshold lies midway
    between consecutive values; the one at a feature's largest value (every point below it)
    is the constant stump, reported as -inf with the opposite polarity (the same predictions)."""
    E = boosting.stump_errors(X, y, D)
    for j in range(X.shape[1]):
        values = np.unique(X[:, j])
        for k, v in enumerate(values, start=1):
            for p, s in ((0, 1), (1, -1)):
                if E[j, k, p] == E.min():
                    if v == values[-1]:
                        return (j, -np.inf, -s)
                    return (j, float((v + values[k]) / 2), s)  # midway to the next value
    raise AssertionError("no stump attains the least error")


def test_ties_between_stumps_follow_the_documented_rule():
    # Weights that are multiples of 1/64 make every partial sum exact, so ties are exact and
    # any other error is at least 1/64 away: the winner is decided by the rule alone. Few
    # levels per feature, a duplicated column, constant features and balanced labels make
    # ties within a feature, across features, between polarities and with the constant stump.
    rng = np.random.default_rng(42)
    kinds = set()
    for _ in range(300):
        n, d = int(rng.choice([8, 16, 32, 64])), int(rng.integers(1, 5))
        X = rng.integers(0, int(rng.integers(1, 5)), size=(n, d)).astype(float)
        if d > 1 and rng.random() < 0.5:
            X[:, -1] = X[:, 0]
        y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
        D = rng.integers(0, 3, size=n).astype(float)
        D = np.full(n, 1.0 / n) if rng.random() < 0.5 or D.sum() == 0 else D
        if D.sum() != 1.0:  # bring integer weights to a total of 64 / 64
            D[-1] += 64 - D.sum() if D.sum() < 64 else 0.0
            D = D / 64 if D.sum() == 64 else np.full(n, 1.0 / n)
        h = boosting.best_stump(X, y, D)
        expected = _tie_rule_by_brute_force(X, y, D)
        assert (h.feature, h.threshold, h.polarity) == expected, (X.tolist(), y.tolist(), D.tolist())
        kinds.add((h.feature > 0, h.threshold == -np.inf, h.polarity))
    assert len(kinds) >= 6, kinds  # the cases above reach most branches of the rule


def test_stumps_tied_up_to_rounding_follow_the_rule():
    # Two features split the points into the same perfect halves, but sort each half in a
    # different order, so the cumulative sums of one split add the same weights in another
    # order: the two edges are equal in exact arithmetic and differ in the last bits. They
    # are tied (within TIE_TOL), and the rule gives the lowest feature; comparing the edges
    # exactly would pick whichever rounded up (feature 1 for about one D in ten).
    rng = np.random.default_rng(7)
    x0 = np.arange(1.0, 9.0)
    y = np.array([-1.0] * 4 + [1.0] * 4)
    for _ in range(200):
        x1 = np.concatenate([x0[:4][rng.permutation(4)], x0[4:][rng.permutation(4)]])
        h = boosting.best_stump(np.column_stack([x0, x1]), y, rng.random(8) + 0.1)
        assert (h.feature, h.threshold, h.polarity) == (0, 4.5, 1), h


@pytest.mark.parametrize("data", ["breast_cancer", "random_ties"])
def test_adaboost_is_invariant_to_row_order_and_memory_layout(data):
    rng = np.random.default_rng(13)
    if data == "breast_cancer":
        ds = datasets.load_breast_cancer()
        X, y = ds.X[:200], to_pm1(ds.y[:200])
    else:  # few distinct values: many exactly tied stumps and tied votes
        X = np.round(rng.standard_normal((120, 5)), 0)
        y = np.where(rng.random(120) < 0.5, -1.0, 1.0)
    fit = boosting.adaboost(X, y, n_rounds=30)
    perm = rng.permutation(len(y))
    for X2, y2 in [(X[perm], y[perm]), (np.asfortranarray(X), y)]:
        fit2 = boosting.adaboost(X2, y2, n_rounds=30)
        assert fit2.stumps == fit.stumps  # feature, threshold, polarity and eps, bitwise
        np.testing.assert_array_equal(fit2.alpha, fit.alpha)
        np.testing.assert_array_equal(fit2.Z, fit.Z)
        np.testing.assert_array_equal(fit2.train_error, fit.train_error)
    np.testing.assert_array_equal(fit.predict(X[perm]), fit.predict(X)[perm])


def test_tied_vote_predicts_plus_one_up_to_rounding():
    h0 = boosting.Stump(0, 0.0, 1, 0.25)
    h1 = boosting.Stump(0, 0.0, -1, 0.25)
    a = 0.1 + 0.2  # 0.30000000000000004: a and 0.3 differ only by rounding
    fit = boosting.AdaBoostFit(
        stumps=(h0, h1), alpha=np.array([0.3, a]), eps=np.array([0.25, 0.25]), Z=np.ones(2),
        gamma=np.full(2, 0.25), train_error=np.zeros(2), D=np.ones(2) / 2,
        margins=np.zeros(2), n_rounds=2, stop_reason="n_rounds",
    )
    assert fit.decision_function(np.array([[1.0]]))[0] != 0  # a rounding-level score
    np.testing.assert_array_equal(fit.predict(np.array([[1.0], [-1.0]])), [1.0, 1.0])


# -- the named steps of adaboost -----------------------------------------------------------------
def test_steps_vote_reweight_and_error_are_the_books_formulas():
    rng = np.random.default_rng(3)
    D = rng.random(30)
    D /= D.sum()
    yh = np.where(rng.random(30) < 0.3, -1.0, 1.0)
    eps = boosting.weighted_error(D, yh)
    assert eps == pytest.approx(D[yh < 0].sum(), rel=1e-15)
    alpha = boosting.vote(eps)
    assert alpha == pytest.approx(0.5 * np.log((1 - eps) / eps), rel=1e-15)
    D_next, Z = boosting.reweight(D, alpha, yh)
    assert Z == pytest.approx(2 * np.sqrt(eps * (1 - eps)), rel=1e-12)  # eq-Z-closed-form
    assert D_next.sum() == pytest.approx(1.0, rel=1e-15)
    assert boosting.weighted_error(D_next, yh) == pytest.approx(0.5, rel=1e-12)  # h_t is a coin under D_{t+1}
    assert boosting.vote(0.0) == pytest.approx(0.5 * np.log((1 - 1e-10) / 1e-10))  # the floor
    with pytest.raises(ValueError, match="eps"):
        boosting.vote(1.0)
    with pytest.raises(ValueError, match="yh"):
        boosting.weighted_error(D, yh[:-1])


def test_objective_is_the_exponential_loss_after_each_round():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((50, 3))
    y = np.where(X[:, 0] + 0.5 * rng.standard_normal(50) > 0, 1.0, -1.0)
    fit = boosting.adaboost(X, y, n_rounds=10)
    F = np.cumsum(fit.alpha[:, None] * fit.weak_predictions(X), axis=0)
    np.testing.assert_allclose(fit.objective, np.mean(np.exp(-y * F), axis=1), rtol=1e-12)
    assert fit.converged and fit.n_iter == fit.n_rounds == 10


# -- tests that kill the surviving mutants of `make mutants MODULE=boosting` ---------------------
# (tests/mutation_triage/boosting.md lists each mutant with the test that kills it, or why it
# is equivalent)
def test_a_vote_tied_up_to_rounding_counts_as_a_training_error():
    """Two copies of one point with opposite labels: any vote errs on one of them. After three
    rounds their scores are 0 up to rounding (+-5.6e-17), a tie, which the training error
    counts as an error for both (predict's tie rule): 2 errors out of 7, not 1."""
    X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [2.0, 0.0], [3.0, 0.0], [3.0, 1.0],
                  [3.0, 0.0]])
    y = np.array([-1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0])
    fit = adaboost(X, y, n_rounds=4)
    F = fit.staged_decision_function(X)
    assert np.all(np.abs(F[2, :2]) <= 1e-12 * fit.alpha[:3].sum())  # the tie
    assert np.all(y[2:] * F[2, 2:] > 0.5)  # the other five are classified correctly
    assert fit.train_error[2] == pytest.approx(2 / 7, abs=1e-15)


def test_adaboost_defaults_and_edge_tol_range():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((30, 2))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1.0, -1.0)  # no stump is perfect
    fit = adaboost(X, y, n_rounds=3)
    assert fit.stop_reason == "n_rounds" and fit.n_rounds == 3
    assert fit.D_history is None  # keep_D defaults to False
    for bad in (-0.1, 0.5, 0.7):
        with pytest.raises(ValueError, match=r"^edge_tol must"):
            adaboost(X, y, n_rounds=2, edge_tol=bad)


def test_vote_refuses_a_negative_error():
    with pytest.raises(ValueError, match=r"^eps must"):
        boosting.vote(-0.1)


def test_stump_errors_polarities_are_complements():
    rng = np.random.default_rng(6)
    X = np.round(rng.standard_normal((12, 3)), 1)
    y = np.where(rng.random(12) < 0.5, -1.0, 1.0)
    D = rng.random(12)
    D /= D.sum()
    E = stump_errors(X, y, D)
    np.testing.assert_allclose(E[:, :, 0] + E[:, :, 1], 1.0, rtol=0, atol=1e-15)


def test_a_fit_without_rounds_predicts_zero_scores_of_the_right_shape():
    X = np.ones((6, 2))
    y = np.array([-1.0, 1.0, -1.0, 1.0, -1.0, 1.0])  # no stump beats a constant
    fit = adaboost(X, y, n_rounds=5)
    assert fit.n_rounds == 0
    X_new = np.ones((4, 2))
    assert fit.weak_predictions(X_new).shape == (0, 4)
    assert fit.staged_decision_function(X_new).shape == (0, 4)
    np.testing.assert_array_equal(fit.decision_function(X_new), np.zeros(4))


def test_scores_of_a_1d_X_are_refused_naming_X():
    X = np.arange(6.0).reshape(-1, 1)
    y = np.array([-1.0, -1.0, 1.0, -1.0, 1.0, 1.0])
    fit = adaboost(X, y, n_rounds=2)
    with pytest.raises(ValueError, match=r"^X must be a 2-D array"):
        fit.decision_function(np.arange(3.0))

    class Threshold:
        def predict(self, X_):
            return np.where(X_[:, 0] > 2.5, 1.0, -1.0)

    custom = adaboost(X, y, n_rounds=2, weak_learner=lambda X_, y_, D_: Threshold())
    with pytest.raises(ValueError, match=r"^X must be a 2-D array"):
        custom.weak_predictions(np.arange(3.0))


def test_a_custom_weak_learner_is_checked_with_its_role_named():
    X = np.arange(6.0).reshape(-1, 1)
    y = np.array([-1.0, -1.0, 1.0, -1.0, 1.0, 1.0])
    with pytest.raises(TypeError, match=r"^the result of weak_learner\(X, y, D\) must have"):
        adaboost(X, y, n_rounds=2, weak_learner=lambda X_, y_, D_: object())

    class Short:
        def predict(self, X_):
            return np.ones(2)

    with pytest.raises(ValueError, match=r"^weak_learner's h\.predict\(X\) must return"):
        adaboost(X, y, n_rounds=2, weak_learner=lambda X_, y_, D_: Short())


def test_no_edge_at_exactly_one_half_with_zero_edge_tol():
    X = np.ones((6, 2))  # every stump has error exactly 1/2
    y = np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0])
    fit = adaboost(X, y, n_rounds=5, edge_tol=0.0)
    assert fit.stop_reason == "no edge" and fit.n_rounds == 0


def test_a_custom_weak_learner_sees_the_training_data():
    rng = np.random.default_rng(8)
    X = rng.standard_normal((40, 3))
    y = np.where(X[:, 0] + X[:, 1] ** 2 > 0.5, 1.0, -1.0)
    default = adaboost(X, y, n_rounds=6)
    custom = adaboost(X, y, n_rounds=6, weak_learner=best_stump)
    np.testing.assert_array_equal(custom.alpha, default.alpha)
    np.testing.assert_array_equal(custom.train_error, default.train_error)


def test_stump_fields_are_checked_and_normalised():
    h = Stump(np.int64(1), np.float32(0.5), np.int64(-1), np.float32(0.25))
    assert type(h.feature) is int and type(h.threshold) is float
    assert type(h.polarity) is int and type(h.eps) is float
    with pytest.raises(ValueError, match=r"^threshold "):
        Stump(0, np.nan, 1, 0.1)
    with pytest.raises(ValueError, match=r"more than 2 columns"):
        Stump(2, 0.0, 1, 0.1).predict(np.zeros((3, 2)))
    with pytest.raises(ValueError, match=r"^X\[:, 0\] contains NaN"):
        Stump(0, 0.0, 1, 0.1).predict(np.array([[np.nan, 1.0]]))


def test_check_distribution_names_its_argument_and_survives_overflow():
    with pytest.raises(ValueError, match=r"^D_1 must be non-negative"):
        boosting.check_distribution([-1.0, 2.0], 2, name="D_1")
    with pytest.raises(ValueError, match=r"^D must be a 1-D array"):
        boosting.check_distribution(np.full((2, 2), 0.25), 4)
    with np.errstate(over="raise"):
        np.testing.assert_array_equal(boosting.check_distribution([1e308, 1e308], 2), [0.5, 0.5])


def test_stump_search_huge_values_and_adjacent_floats():
    X = np.array([[-1.7e308], [-1.6e308], [1.6e308], [1.7e308]])
    y = np.array([-1.0, -1.0, 1.0, 1.0])
    with np.errstate(over="raise", invalid="raise"):
        h = best_stump(X, y)
    np.testing.assert_array_equal(h.predict(X), y)
    with pytest.raises(ValueError, match=r"^X contains NaN"):
        best_stump(np.array([[0.0], [np.nan]]), np.array([-1.0, 1.0]))
    # two neighbouring doubles: the threshold between them must be the lower one (the midpoint
    # rounds to one of them), never the upper, which would misclassify it
    for lo in (1.0, 1.0 + 2**-52, 3.0, 0.1, 1e300):
        hi = np.nextafter(lo, np.inf)
        Xa = np.array([[lo], [hi]])
        h = best_stump(Xa, np.array([-1.0, 1.0]))
        np.testing.assert_array_equal(h.predict(Xa), [-1.0, 1.0])


def test_reweight_with_a_huge_vote_is_the_limit_distribution():
    # alpha = 1000 on examples all classified correctly: every e^{-alpha} underflows, yet
    # D_{t+1} = D_t (the same factor for all) and Z = e^{-1000} rounds to 0 (it gave NaN)
    D, Z = boosting.reweight(np.array([0.1, 0.3, 0.6]), 1000.0, np.ones(3))
    np.testing.assert_allclose(D, [0.1, 0.3, 0.6], rtol=1e-15)
    assert Z == 0.0
    # a weightless mistake keeps weight 0, the others share it as before
    D, _ = boosting.reweight(np.array([0.0, 0.5, 0.5]), 1000.0, np.array([-1.0, 1.0, 1.0]))
    np.testing.assert_array_equal(D, [0.0, 0.5, 0.5])
    # weights near 1e308 (their sum overflows) under a huge vote: Z = 2e308 e^{-1000}, in logs
    D, Z = boosting.reweight(np.array([1e308, 1e308, 0.0]), 1000.0, np.array([1.0, 1.0, -1.0]))
    np.testing.assert_array_equal(D, [0.5, 0.5, 0.0])
    assert Z == pytest.approx(2 * math.exp(math.log(1e308) - 1000.0), rel=1e-12)
