"""Tests of mlnotes.bounds: oracles from scipy.stats, properties of the bounds, bad input."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from mlnotes import bounds

# gammas chosen so that m (phi +- gamma) is never an integer on the grid below: the strict
# inequality then has no ties and scipy's cdf/sf give the same event without any rounding rule.
GRID_M = np.array([1, 2, 7, 30, 100, 333, 1000])
GRID_PHI = np.array([0.0, 0.013, 0.25, 0.5, 0.71, 0.999, 1.0])
GRID_GAMMA = np.array([0.0123, 0.05 * np.sqrt(2), 0.2 * np.pi / 3])


def _scipy_tail(m, phi, gamma):
    lo = np.ceil(m * (phi - gamma)) - 1  # largest count with s/m < phi - gamma
    hi = np.floor(m * (phi + gamma))  # largest count with s/m <= phi + gamma
    return stats.binom.cdf(lo, m, phi) + stats.binom.sf(hi, m, phi)


def _grid():
    return np.meshgrid(GRID_M, GRID_PHI, GRID_GAMMA, indexing="ij")


# -- oracles -----------------------------------------------------------------------------------
def test_binomial_logpmf_matches_scipy():
    m, phi = np.meshgrid([1, 5, 50, 700], [0.0, 1e-3, 0.3, 0.5, 0.97, 1.0], indexing="ij")
    s = np.arange(701)[:, None, None]
    ours = bounds.binomial_logpmf(s, m, phi)
    ref = stats.binom.logpmf(s, m, phi)
    finite = np.isfinite(ref)
    assert np.array_equal(finite, np.isfinite(ours))
    np.testing.assert_allclose(ours[finite], ref[finite], rtol=1e-10, atol=1e-10)


def test_binomial_logpmf_accurate_for_large_m():
    m, s = 100_000, np.arange(0, 100_001, 997)
    np.testing.assert_allclose(bounds.binomial_logpmf(s, m, 0.3), stats.binom.logpmf(s, m, 0.3),
                               rtol=1e-12, atol=1e-9)
    assert bounds.binomial_tail(m, 0.3, 0.004) == pytest.approx(_scipy_tail(m, 0.3, 0.004), rel=1e-8)


def test_binomial_tail_matches_scipy_on_grid():
    m, phi, gamma = _grid()
    ours = bounds.binomial_tail(m, phi, gamma)
    ref = _scipy_tail(m, phi, gamma)
    assert ours.shape == m.shape
    np.testing.assert_allclose(ours, ref, rtol=1e-9, atol=1e-15)


def test_binomial_tail_relative_accuracy_far_in_the_tail():
    # 1 - cdf would give 0 here; the sum over deviating counts keeps the digits
    m, phi, gamma = 2000, 0.5, 0.3
    ref = _scipy_tail(m, phi, gamma)
    assert 0 < ref < 1e-100
    assert bounds.binomial_tail(m, phi, gamma) == pytest.approx(ref, rel=1e-9)


def test_binomial_tail_ties_are_not_deviations():
    # m = 10, phi = 0.5, gamma = 0.2: s = 3 and s = 7 sit exactly at |s/m - phi| = gamma
    expected = stats.binom.cdf(2, 10, 0.5) + stats.binom.sf(7, 10, 0.5)
    assert bounds.binomial_tail(10, 0.5, 0.2) == pytest.approx(expected, rel=1e-12)


def test_mc_interval_matches_scipy_quantiles():
    p = np.array([0.0, 1e-4, 0.02, 0.3, 0.5, 0.93, 1.0])
    for n_rep, alpha in ((50, 0.05), (1000, 1e-3), (20_000, 1e-8)):
        lo, hi = bounds.mc_interval(p, n_rep, alpha)
        # hi: smallest s with P(S > s) <= alpha, which is scipy's isf
        np.testing.assert_array_equal(np.round(hi * n_rep), stats.binom.isf(alpha, n_rep, p))
        # lo: largest s with P(S < s) <= alpha
        s_lo = np.round(lo * n_rep)
        assert np.all(stats.binom.cdf(s_lo - 1, n_rep, p) <= alpha * (1 + 1e-9))
        assert np.all((s_lo == n_rep) | (stats.binom.cdf(s_lo, n_rep, p) > alpha))


def test_kl_bernoulli_matches_scipy_entropy():
    for p, q in ((0.1, 0.4), (0.0, 0.3), (1.0, 0.8), (0.5, 0.5), (0.999, 0.001)):
        ref = stats.entropy([p, 1 - p], [q, 1 - q])
        assert bounds.kl_bernoulli(p, q) == pytest.approx(ref, rel=1e-12, abs=1e-15)
    assert bounds.kl_bernoulli(0.2, 0.0) == np.inf


def test_simulate_deviation_agrees_with_scipy_tail():
    m, phi, gamma = _grid()
    n_rep = 20_000
    freq = bounds.simulate_deviation(m, phi, gamma, n_rep=n_rep, rng=1)
    lo, hi = bounds.mc_interval(_scipy_tail(m, phi, gamma), n_rep, 1e-6 / m.size)
    assert np.all((lo <= freq) & (freq <= hi))


def test_training_errors_match_a_direct_count():
    H = bounds.stump_class(7, theta=0.42, eta=0.2)
    X, y = H.sample(40, n_rep=6, rng=3)
    direct = np.array([[np.mean(H.predict(j, X[r]) != y[r]) for j in range(H.k)] for r in range(6)])
    np.testing.assert_allclose(H.training_errors(X, y), direct, atol=1e-15)


def test_generalisation_error_matches_a_large_sample():
    # e(h) is exact; a sample of 200 000 points estimates it to about 1e-3
    H = bounds.stump_class(3, theta=0.37, eta=0.15)
    X, y = H.sample(200_000, rng=4)
    est = H.training_errors(X, y)[0]
    lo, hi = bounds.mc_interval(H.generalisation_error, 200_000, 1e-7)
    assert np.all((lo <= est) & (est <= hi))


# -- properties --------------------------------------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(m=st.integers(1, 3000), phi=st.floats(0, 1), gamma=st.floats(1e-4, 1.0))
def test_exact_tail_below_chernoff_below_hoeffding(m, phi, gamma):
    exact = bounds.binomial_tail(m, phi, gamma)
    kl = bounds.chernoff_bound(m, phi, gamma)
    hoef = bounds.hoeffding_bound(m, gamma)
    assert 0 <= exact <= kl * (1 + 1e-9) + 1e-300
    assert kl <= hoef * (1 + 1e-12)


def test_hoeffding_is_loose_but_has_the_right_exponent():
    # The exact tail decays like exp(-m KL) (Chernoff is tight in the exponent); for phi = 1/2
    # KL(1/2 + gamma || 1/2) ~ 2 gamma^2, so the log-ratio of exact and bound grows slowly.
    m = np.array([100, 400, 1600])
    exact = bounds.binomial_tail(m, 0.5, 0.05)
    rate = -np.log(exact) / m
    kl_rate = bounds.kl_bernoulli(0.55, 0.5)
    assert np.all(np.diff(np.abs(rate - kl_rate)) < 0)


@settings(max_examples=200, deadline=None)
@given(m=st.integers(1, 10**6), k=st.integers(1, 10**6), delta=st.floats(1e-9, 0.999))
def test_uniform_deviation_inverts_union_bound(m, k, delta):
    gamma = bounds.uniform_deviation(m, k, delta)
    assert k * bounds.hoeffding_bound(m, gamma) == pytest.approx(delta, rel=1e-10)


@settings(max_examples=300, deadline=None)
@given(k=st.integers(1, 10**6), gamma=st.floats(1e-3, 0.9), delta=st.floats(1e-9, 0.999))
def test_sample_complexity_is_the_smallest_sufficient_m(k, gamma, delta):
    m = bounds.sample_complexity(k, gamma, delta)
    assert isinstance(m, int) and m >= 1
    assert bounds.uniform_deviation(m, k, delta) <= gamma * (1 + 1e-12)
    if m > 1:
        assert bounds.uniform_deviation(m - 1, k, delta) > gamma


def test_sample_complexity_on_exact_integers():
    # gamma = gamma(m, k, delta) exactly: the answer must be m, not m + 1
    m = np.arange(1, 2000)
    gamma = bounds.uniform_deviation(m, 10, 0.05)
    np.testing.assert_array_equal(bounds.sample_complexity(10, gamma, 0.05), m)


def test_sample_complexity_textbook_value():
    # k = 1, gamma = 0.1, delta = 0.05: log(40) / 0.02 = 184.4..., so 185 samples
    assert bounds.sample_complexity(1, 0.1, 0.05) == int(np.ceil(np.log(40) / 0.02)) == 185


def test_union_bound_sums():
    assert bounds.union_bound([0.1, 0.2, 0.3]) == pytest.approx(0.6)
    np.testing.assert_allclose(bounds.union_bound(np.full((2, 4), 0.3), axis=1), [1.2, 1.2])


def test_erm_simulation_guarantee_and_shapes():
    H = bounds.stump_class(15, theta=0.3, eta=0.1)
    r = bounds.erm_simulation(H, 100, delta=0.1, n_rep=500, rng=0)
    assert r.chosen.shape == r.gen_error.shape == r.sup_deviation.shape == (500,)
    assert r.best_error == pytest.approx(0.1 + 0.8 * abs(0.3125 - 0.3))
    assert np.all(r.gen_error <= r.best_error + 2 * r.sup_deviation + 1e-12)
    # the same seed reproduces the samples: ERM's choice minimises the training error
    E = H.training_errors(*H.sample(100, n_rep=500, rng=np.random.default_rng(0)))
    np.testing.assert_array_equal(r.train_error, E.min(axis=1))
    np.testing.assert_array_equal(r.gen_error, H.generalisation_error[r.chosen])
    assert 0 <= r.failure_rate <= r.uniform_failure_rate <= 1


def test_stump_classes_are_nested_for_powers_of_two():
    a, b = bounds.stump_class(7), bounds.stump_class(15)
    assert np.isin(a.thresholds, b.thresholds).all()
    assert b.generalisation_error.min() <= a.generalisation_error.min()


# -- bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: bounds.hoeffding_bound(0, 0.1), r"m must be an integer >= 1.*got 0"),
        (lambda: bounds.hoeffding_bound(2.5, 0.1), r"m must be an integer >= 1.*got 2\.5"),
        (lambda: bounds.hoeffding_bound([10, -3], 0.1), r"m must be .*got -3"),
        (lambda: bounds.hoeffding_bound(10, 0.0), r"gamma must be a positive.*got 0\.0"),
        (lambda: bounds.hoeffding_bound(10, -0.2), r"gamma must be .*got -0\.2"),
        (lambda: bounds.uniform_deviation(10, 5, 0.0), r"delta must lie in \(0, 1\).*got 0\.0"),
        (lambda: bounds.uniform_deviation(10, 5, 1.0), r"delta must lie in \(0, 1\).*got 1\.0"),
        (lambda: bounds.uniform_deviation(10, 0, 0.1), r"k must be an integer >= 1.*got 0"),
        (lambda: bounds.sample_complexity(0, 0.1, 0.1), r"k must be .*got 0"),
        (lambda: bounds.sample_complexity(3, 0.0, 0.1), r"gamma must be .*got 0\.0"),
        (lambda: bounds.sample_complexity(3, 0.1, 1.5), r"delta must lie .*got 1\.5"),
        (lambda: bounds.binomial_tail(0, 0.5, 0.1), r"m must be .*got 0"),
        (lambda: bounds.binomial_tail(10, 1.2, 0.1), r"phi must lie in \[0, 1\].*got 1\.2"),
        (lambda: bounds.chernoff_bound(10, 0.5, np.nan), r"gamma must be .*got nan"),
        (lambda: bounds.simulate_deviation(10, 0.5, 0.1, n_rep=0), r"n_rep must be .*got 0"),
        (lambda: bounds.union_bound([0.5, 1.5]), r"p must hold probabilities.*got 1\.5"),
        (lambda: bounds.stump_class(4, eta=0.5), r"eta must lie in \[0, 0\.5\).*got 0\.5"),
        (lambda: bounds.erm_simulation(bounds.stump_class(3), 10, delta=2.0), r"delta must .*got 2\.0"),
        (lambda: bounds.hoeffding_bound("ten", 0.1), r"m must be a positive integer"),
        (lambda: bounds.StumpClass(np.array([0.5, 0.2]), 0.3, 0.1), r"thresholds must be .*increasing"),
        (lambda: bounds.stump_class(3, theta=1.5), r"theta must lie in \[0, 1\].*got 1\.5"),
        (lambda: bounds.stump_class(3).training_errors(np.zeros((2, 3)), np.ones((2, 4))),
         r"same shape.*\(2, 3\) and \(2, 4\)"),
        (lambda: bounds.stump_class(3).training_errors(np.zeros((1, 3)), np.array([[0.0, 1, 1]])),
         r"y must take values in \{-1, \+1\}"),
    ],
)
def test_bad_input_names_argument_and_value(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_binomial_tail_is_a_probability():
    # gamma tiny: the tail is the whole mass minus one count, a sum that rounds near 1
    m = np.arange(1, 400)[:, None]
    phi = np.random.default_rng(6).uniform(0, 1, 30)[None, :]
    tail = bounds.binomial_tail(m, phi, 1e-9)
    assert np.all((tail >= 0) & (tail <= 1))


def test_grid_erm_matches_chapter_6_best_stump():
    # Oracle from Chapter 6: boosting.best_stump searches every split between sample points.
    # On a grid with a threshold in every gap between sorted points, the grid's ERM reaches the
    # same training error (the stumps themselves may differ where several reach it).
    from mlnotes import boosting

    H = bounds.stump_class(4095, theta=0.3, eta=0.2)
    X, y = H.sample(30, n_rep=40, rng=8)
    E = H.training_errors(X, y)
    compared = 0
    for r in range(40):
        gaps = np.diff(np.sort(X[r]))
        if gaps.min() < 2 / 4096:  # two points too close for the grid: skip this sample
            continue
        stump = boosting.best_stump(X[r].reshape(-1, 1), y[r])
        j = int(np.argmin(E[r]))
        assert E[r, j] == pytest.approx(stump.eps, abs=1e-12)
        compared += 1
    assert compared >= 10


# -- the claims can fail -------------------------------------------------------------------------
def test_hoeffding_claim_fails_for_a_wrong_exponent(monkeypatch):
    from mlnotes import claims

    right = bounds.hoeffding_bound
    monkeypatch.setattr(bounds, "hoeffding_bound", lambda m, gamma: right(m, gamma) ** 2 / 2)  # 2e^{-4 gamma^2 m}
    assert not claims.run("eq-hoeffding", n_instances=40).passed


def test_monte_carlo_limit_catches_a_bound_ten_percent_too_small():
    # m = 100, phi = 1/2, gamma = 0.05: the exact tail is 0.2713; a "bound" of 0.24 is false,
    # and 20 000 repetitions show it even at the claims' confidence level
    freq = bounds.simulate_deviation(100, 0.5, 0.05, n_rep=20_000, rng=2)
    _, hi = bounds.mc_interval(0.24, 20_000, 1e-6)
    assert freq > hi
    _, hi_true = bounds.mc_interval(bounds.binomial_tail(100, 0.5, 0.05), 20_000, 1e-6)
    assert freq <= hi_true


def test_sample_complexity_claim_fails_when_one_sample_too_many(monkeypatch):
    from mlnotes import claims

    right = bounds.sample_complexity
    monkeypatch.setattr(bounds, "sample_complexity", lambda k, g, d: right(k, g, d) + 1)
    assert not claims.run("eq-sample-complexity").passed


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_t=st.integers(1, 40), m=st.integers(1, 60))
def test_training_errors_random_thresholds(seed, n_t, m):
    rng = np.random.default_rng(seed)
    H = bounds.StumpClass(np.unique(rng.random(n_t)), theta=rng.random(), eta=0.3)
    X, y = H.sample(m, n_rep=3, rng=rng)
    j = np.arange(H.k)
    direct = np.mean(H.predict(j[None, :, None], X[:, None, :]) != y[:, None, :], axis=2)
    np.testing.assert_allclose(H.training_errors(X, y), direct, atol=1e-15)


def _scipy_tail_scalar(m, phi, gamma):
    """P(|S/m - phi| > gamma) from scipy.stats.binom's cdf and sf (boost), with our tie rule."""
    from scipy import stats

    lo, hi = np.floor(m * (phi - gamma)), np.ceil(m * (phi + gamma))
    if abs(lo - m * phi) <= m * gamma * (1 + 1e-9):
        lo -= 1
    if abs(hi - m * phi) <= m * gamma * (1 + 1e-9):
        hi += 1
    return (stats.binom.cdf(lo, m, phi) if lo >= 0 else 0.0) + (stats.binom.sf(hi - 1, m, phi) if hi <= m else 0.0)


@pytest.mark.parametrize("m", [1, 7, 100, 12_345, 10**6, 10**8])
def test_binomial_tail_equals_scipy(m):
    for phi in (0.0, 0.01, 0.3, 0.5, 0.97, 1.0):
        for gamma in (1e-5, 0.003, 0.05, 0.2):
            ref = _scipy_tail_scalar(m, phi, gamma)
            ours = bounds.binomial_tail(m, phi, gamma)
            if ref < 1e-300:
                assert ours < 1e-300
            else:
                assert ours == pytest.approx(ref, rel=1e-12, abs=0), (m, phi, gamma)


def test_binomial_logpmf_equals_scipy_and_rejects_fractional_counts():
    from scipy import stats

    s = np.arange(0, 501)
    for phi in (0.001, 0.3, 0.9):
        np.testing.assert_allclose(np.exp(bounds.binomial_logpmf(s, 500, phi)),
                                   stats.binom.pmf(s, 500, phi), rtol=1e-12, atol=0)
    with pytest.raises(ValueError, match="s must hold integer counts"):
        bounds.binomial_logpmf(2.5, 10, 0.3)


def test_sample_complexity_does_not_overflow():
    with pytest.raises(ValueError, match="exceeds 2\\*\\*63"):
        bounds.sample_complexity(10, 1e-10, 0.05)


def test_rng_accepts_seed_or_generator_only():
    with pytest.raises(TypeError, match="rng"):
        bounds.simulate_deviation(10, 0.5, 0.1, n_rep=5, rng="one")
    a = bounds.simulate_deviation(10, 0.5, 0.1, n_rep=50, rng=3)
    b = bounds.simulate_deviation(10, 0.5, 0.1, n_rep=50, rng=np.random.default_rng(3))
    assert a == b


# -- m = 1e8: log-gamma speed, scipy agreement, and an exact oracle where scipy itself errs ---------
def _mp_pmf(s, m, phi):
    """The binomial pmf in 40-digit arithmetic (mpmath), at the float phi itself."""
    import mpmath as mp

    with mp.workdps(40):
        p = mp.mpf(phi)
        return mp.exp(mp.loggamma(m + 1) - mp.loggamma(s + 1) - mp.loggamma(m - s + 1)
                      + s * mp.log(p) + (m - s) * mp.log1p(-p))


def test_binomial_logpmf_at_m_1e8_matches_a_40_digit_oracle():
    # Far from the mean the pmf is ill-conditioned in the float phi (rounding m phi or 1 - phi
    # moves it by |s - m phi| * 1e-16 relative); scipy's boost pmf errs by up to 1e-11 there.
    m = 10**8
    for phi in (0.3, 0.01, 0.97, 0.123456789):
        for ds in (-50_000, -10_000, 0, 3_217, 40_000):
            s = int(m * phi) + ds
            ref = _mp_pmf(s, m, phi)
            if ref > 1e-300:
                ours = float(np.exp(bounds.binomial_logpmf(s, m, phi)))
                assert abs(ours - float(ref)) <= 1e-12 * float(ref), (phi, ds)


def test_binomial_tail_at_m_1e8_matches_scipy():
    # (no time limit here: a shared machine makes a timed test flaky; speed is benchmarks' job)
    m = 10**8
    for phi in (0.3, 0.01, 0.5, 0.97):
        for gamma in (1e-5, 1e-4):  # within 2.2 standard deviations, where scipy is exact to 1e-12
            ours = bounds.binomial_tail(m, phi, gamma)
            assert ours == pytest.approx(_scipy_tail_scalar(m, phi, gamma), rel=1e-12, abs=0), (phi, gamma)


def _ratio_series(s, m, phi, step):
    """sum_{j >= 0} P(S = s + step j) / P(S = s), the pmf's ratios P(s + 1)/P(s) = (m - s)/(s + 1)
    * phi/(1 - phi) multiplied out in exact integer arithmetic (the float phi is a ratio of
    integers; 2**256 stands for 1, each product floored), until a term falls below 1e-22 of the
    sum. Integers, not 40-digit floats: the same terms, 40 times faster."""
    num, den = phi.as_integer_ratio()
    one = 1 << 256
    term, total = one, 0
    while term * 10**22 > total:
        total += term
        if step == 1:
            term = term * (m - s) * num // ((s + 1) * (den - num))
        else:
            term = term * s * (den - num) // ((m - s + 1) * num)
        s += step
    return total, one


def _mp_tail(m, phi, gamma):
    """P(|S/m - phi| > gamma) in 40-digit arithmetic: the pmf at the first deviating count on each
    side (mpmath), times the sum of the ratio recursion outwards (_ratio_series)."""
    import mpmath as mp

    with mp.workdps(40):
        total = mp.mpf(0)
        lim, mu = mp.mpf(m) * mp.mpf(gamma) * (1 + mp.mpf("1e-9")), m * mp.mpf(phi)  # the tie rule
        for s, step in ((int(np.ceil(m * (phi + gamma))), 1), (int(np.floor(m * (phi - gamma))), -1)):
            while abs(s - mu) <= lim:
                s += step
            if 0 <= s <= m:
                num, den = _ratio_series(s, m, float(phi), step)
                total += _mp_pmf(s, m, phi) * mp.mpf(num) / den
        return float(total)


@pytest.mark.parametrize("phi", [0.3, 0.01, 0.5, 0.97])
def test_binomial_tail_at_m_1e8_far_out_matches_a_40_digit_oracle(phi):
    # Where scipy's cdf/sf err by up to 1e-11 (relative): ours must reach 1e-13.
    for gamma in (3e-4, 5e-4):  # 6.5 to 11 standard deviations out (at phi = 0.5)
        ref = _mp_tail(10**8, phi, gamma)
        if ref > 1e-300:
            assert bounds.binomial_tail(10**8, phi, gamma) == pytest.approx(ref, rel=1e-13, abs=0), gamma


# -- tests that kill the surviving mutants of `make mutants MODULE=bounds` ----------------------
# (tests/mutation_triage/bounds.md lists each mutant with the test that kills it, or why it
# is equivalent)
FP_ERRORS = dict(divide="raise", over="raise", invalid="raise")  # underflow stays ignored


def test_bounds_emit_no_floating_point_warnings_at_the_ends():
    """log 0, inf - inf and overflow at the ends of the ranges are handled, not warned about."""
    with np.errstate(**FP_ERRORS):
        assert bounds.kl_bernoulli(1.0, 0.0) == np.inf
        assert bounds.kl_bernoulli(0.0, 1.0) == np.inf
        assert bounds.kl_bernoulli(0.0, 0.0) == 0.0 == bounds.kl_bernoulli(1.0, 1.0)
        np.testing.assert_allclose(bounds.kl_bernoulli(0.0, 0.5), np.log(2), rtol=1e-15)
        for phi in (0.0, 1.0):
            assert bounds.chernoff_bound(10, phi, 0.3) == 0.0
        assert bounds.sample_complexity(1, 1e200, 0.5) == 1  # gamma**2 overflows: x = 0
        with pytest.raises(ValueError, match="exceeds 2"):  # gamma**2 underflows: x = inf
            bounds.sample_complexity(1, 1e-200, 0.5)


def test_kl_bernoulli_reads_boolean_means_as_0_and_1():
    flags = np.array([True, False])
    np.testing.assert_array_equal(bounds.kl_bernoulli(flags, 0.25),
                                  bounds.kl_bernoulli([1.0, 0.0], 0.25))
    np.testing.assert_array_equal(bounds.kl_bernoulli(0.25, flags),
                                  bounds.kl_bernoulli(0.25, [1.0, 0.0]))


@pytest.mark.parametrize(("p", "q", "message"), [
    (1.5, 0.3, r"^p must lie in \[0, 1\], got 1\.5$"),
    (0.3, 2.0, r"^q must lie in \[0, 1\], got 2\.0$"),
    ([0.2, -0.5], 0.3, r"^p must lie in \[0, 1\], got -0\.5$"),
    (0.3, [0.5, 1.5], r"^q must lie in \[0, 1\], got 1\.5$"),
])
def test_kl_bernoulli_names_the_bad_mean(p, q, message):
    with pytest.raises(ValueError, match=message):
        bounds.kl_bernoulli(p, q)


def test_union_bound_accepts_0_and_1_and_returns_floats():
    assert bounds.union_bound([0.0, 1.0]) == 1.0
    assert bounds.union_bound([1.0]) == 1.0
    out = bounds.union_bound(np.array([[0, 1], [1, 1]]), axis=1)
    assert out.dtype == np.float64
    np.testing.assert_array_equal(out, [1.0, 2.0])


def test_chernoff_bound_end_points_on_the_boundary_count():
    """An end point phi - gamma = 0 or phi + gamma = 1 lies in [0, 1]: its side counts."""
    m = 7
    upper = np.exp(-m * bounds.kl_bernoulli(0.5, 0.25))
    assert bounds.chernoff_bound(m, 0.25, 0.25) == pytest.approx(upper + 0.75**m, rel=1e-12)
    lower = np.exp(-m * bounds.kl_bernoulli(0.5, 0.75))
    assert bounds.chernoff_bound(m, 0.75, 0.25) == pytest.approx(lower + 0.75**m, rel=1e-12)


def test_chernoff_bound_broadcasts_arrays():
    out = bounds.chernoff_bound(np.array([10, 100]), 0.1, 0.05)
    assert isinstance(out, np.ndarray) and out.shape == (2,)
    np.testing.assert_array_equal(out, [bounds.chernoff_bound(10, 0.1, 0.05),
                                        bounds.chernoff_bound(100, 0.1, 0.05)])


def test_sample_complexity_rounds_up_beyond_the_rounding_slack():
    """x = log(2k/delta) / (2 gamma^2) = 1 + 1.5e-12 needs m = 2, not 1 (the slack is 1e-12 x)."""
    delta = 0.05
    gamma = np.sqrt(np.log(2 / delta) / (2 * (1 + 1.5e-12)))
    assert bounds.sample_complexity(1, gamma, delta) == 2
    assert bounds.hoeffding_bound(1, gamma) > delta  # m = 1 is not enough: 2 e^(-2 gamma^2)
    assert bounds.hoeffding_bound(2, gamma) <= delta


def test_sample_complexity_is_an_int64_and_never_wraps_around():
    assert type(bounds.sample_complexity(10, 0.1, 0.05)) is int
    assert bounds.sample_complexity(10, [0.1, 0.2], 0.05).dtype == np.int64
    # gammas around the one whose answer is 2**63 (the floats there are 1024 apart): each
    # answer is refused or a positive int64 sample size, never a wrapped-around negative
    g0 = np.sqrt((1 - 1e-12) / 2.0**64)
    gammas = g0 * (1 + np.arange(-40, 41) * 2.0**-53)
    outcomes = []
    for g in gammas:
        try:
            m = bounds.sample_complexity(1, g, 2 / np.e)
        except ValueError:
            outcomes.append("refused")
        else:
            assert 0 < m < 2**63
            outcomes.append("ok")
    assert {"refused", "ok"} <= set(outcomes)


def test_sample_complexity_message_names_the_gamma_that_is_too_small():
    with pytest.raises(ValueError, match=r"m = 3e\+20 exceeds 2\*\*63 \(gamma=1e-10 .*"
                                         r"take a larger gamma$"):
        bounds.sample_complexity(10, [0.1, 1e-10], 0.05)


def test_stump_class_checks_and_normalises_its_fields():
    H = bounds.StumpClass([0.25, 0.5], 0, 0)
    assert isinstance(H.thresholds, np.ndarray) and H.thresholds.dtype == np.float64
    assert type(H.theta) is float and type(H.eta) is float and H.k == 4
    for bad in (np.array([[0.2, 0.4]]), [0.2, np.nan]):
        with pytest.raises(ValueError, match=r"^thresholds "):
            bounds.StumpClass(bad, 0.3, 0.1)
    with pytest.raises(ValueError, match="strictly increasing"):
        bounds.StumpClass([0.2, 0.2], 0.3, 0.1)
    with pytest.raises(ValueError, match=r"^n_thresholds must"):
        bounds.stump_class(0)


def test_stump_predicts_minus_polarity_at_its_threshold():
    H = bounds.StumpClass([0.5], 0.3, 0.1)
    np.testing.assert_array_equal(H.predict(0, [0.5, 0.50001]), [-1.0, 1.0])
    np.testing.assert_array_equal(H.predict(1, [0.5, 0.50001]), [1.0, -1.0])


def test_stump_predict_summarises_a_long_list_of_bad_indices():
    H = bounds.stump_class(3)
    with pytest.raises(ValueError, match=r"got \[100 101 102 \.\.\. 104 105 106\]$"):
        H.predict(np.arange(100, 107), [0.5])


def test_sample_defaults_and_argument_names():
    H = bounds.stump_class(3)
    X, y = H.sample(5)
    assert X.shape == y.shape == (1, 5)
    np.testing.assert_array_equal(X, H.sample(5, rng=0)[0])
    with pytest.raises(ValueError, match=r"^n_rep must"):
        H.sample(5, n_rep=0)


@pytest.mark.parametrize("bad", [np.zeros((2, 2, 2)), np.array([[0.5, np.nan]])])
def test_training_errors_names_X(bad):
    with pytest.raises(ValueError, match=r"^X (must|contains)"):
        bounds.stump_class(3).training_errors(bad, np.ones(bad.shape))


def test_erm_simulation_defaults_seed_and_argument_names():
    H = bounds.stump_class(3)
    res = bounds.erm_simulation(H, 10)
    assert res.chosen.shape == (2000,)
    np.testing.assert_array_equal(res.train_error, bounds.erm_simulation(H, 10, rng=0).train_error)
    a = bounds.erm_simulation(H, 20, n_rep=50, rng=1).train_error
    b = bounds.erm_simulation(H, 20, n_rep=50, rng=2).train_error
    assert not np.array_equal(a, b)  # the seed reaches the draw of the training sets
    with pytest.raises(ValueError, match=r"^n_rep must"):
        bounds.erm_simulation(H, 10, n_rep=0)
    with pytest.raises(TypeError, match="got str$"):
        bounds.erm_simulation("H", 10)


def test_mc_interval_clips_vacuous_bounds_and_names_n_rep():
    for p, same in ((-0.1, 0.0), (1.7, 1.0), (10**30, 1.0), (np.array([True, False]), [1.0, 0.0])):
        for got, want in zip(bounds.mc_interval(p, 50, 0.01), bounds.mc_interval(same, 50, 0.01),
                             strict=True):
            np.testing.assert_array_equal(got, want)
    assert [float(v) for v in bounds.mc_interval(-0.1, 50, 0.01)] == [0.0, 0.0]
    with pytest.raises(ValueError, match=r"^n_rep must"):
        bounds.mc_interval(0.1, 0, 0.05)


def test_simulate_deviation_defaults_and_scalar_result():
    freq = bounds.simulate_deviation(10, 0.5, 0.1)
    assert type(freq) is float
    assert freq == bounds.simulate_deviation(10, 0.5, 0.1, n_rep=10_000, rng=0)
    assert freq * 10_000 == round(freq * 10_000)  # a count of 10 000 repetitions


@pytest.mark.parametrize(("n", "alpha"), [(1, 0.5), (2, 0.25), (3, 0.125), (4, 1 / 16)])
def test_mc_interval_at_exact_ties_against_scipy(n, alpha):
    """With p = 1/2 the binomial probabilities are dyadic: P(S < s) or P(S > s) equals alpha
    exactly, and the definitions' "<= alpha" must count the tie."""
    s = np.arange(n + 1)
    lo = s[stats.binom.cdf(s - 1, n, 0.5) <= alpha].max()  # largest s with P(S < s) <= alpha
    hi = s[stats.binom.sf(s, n, 0.5) <= alpha].min()  # smallest s with P(S > s) <= alpha
    got = bounds.mc_interval(0.5, n, alpha)
    assert (float(got[0]), float(got[1])) == (lo / n, hi / n)


def test_binomial_tail_no_floating_point_warnings():
    m, phi, gamma = np.meshgrid([1, 7, 100, 5000], [0.013, 0.5, 0.9, 0.999],
                                [0.001, 0.05 * np.sqrt(2), 0.9], indexing="ij")
    with np.errstate(**FP_ERRORS):
        out = bounds.binomial_tail(m, phi, gamma)
    assert np.all((out >= 0) & (out <= 1))


@pytest.mark.parametrize("m", [10_000, 100_000, 1_000_000])
def test_binomial_tail_wide_tails_against_scipy(m):
    """Large m and small gamma: the tail spans thousands of counts, all of which must be summed."""
    phi, gamma = np.meshgrid([0.5, 0.01, 0.9, 0.999], [0.0003 * np.sqrt(2), 0.002 * np.pi],
                             indexing="ij")
    ref = _scipy_tail(m, phi, gamma)
    np.testing.assert_allclose(bounds.binomial_tail(m, phi, gamma), ref, rtol=1e-9, atol=0)


@pytest.mark.parametrize(("m", "phi", "gamma"), [
    (10_000, 0.016926988509119584, 0.024472204356991472),  # one-sided tail near 1e-58
    (100_000, 0.011117704616486071, 0.008053661438436093),  # one-sided tail near 1e-108
    (1000, 0.7640923412097118, 0.190659663261823),
])
def test_binomial_tail_one_sided_far_tails_match_a_40_digit_oracle(m, phi, gamma):
    """Summing too few counts past the boundary (a too narrow window) loses 1e-12 to 1e-6."""
    assert bounds.binomial_tail(m, phi, gamma) == pytest.approx(_mp_tail(m, phi, gamma),
                                                                rel=1e-12, abs=0)


# -- the exact tail's helpers against oracles of their own (mutation triage, second run) ----------
def _mp_stirlerr(n):
    """log n! - (n + 1/2) log n + n - log(2 pi)/2 in 60-digit arithmetic."""
    import mpmath as mp

    with mp.workdps(60):
        n = mp.mpf(n)
        return float(mp.loggamma(n + 1) - (n + mp.mpf(1) / 2) * mp.log(n) + n - mp.log(2 * mp.pi) / 2)


def test_stirlerr_matches_a_60_digit_oracle():
    """The asymptotic series (n > 15) to a few ulps; log-gamma (n <= 15) to 1e-14 absolute,
    the rounding of log n! itself."""
    n = np.concatenate([np.arange(1.0, 61.0), [99.5, 1e3, 12_345.0, 1e6, 1e8, 1e9, 1e12, 1e15]])
    ours, ref = bounds._stirlerr(n), np.array([_mp_stirlerr(v) for v in n])
    series = n > 15
    np.testing.assert_allclose(ours[series], ref[series], rtol=3e-14, atol=0)
    np.testing.assert_allclose(ours[~series], ref[~series], rtol=0, atol=1e-14)
    assert bounds._stirlerr(np.array([[20.0, 3.0]])).shape == (1, 2)


def test_two_product_is_exact():
    """Dekker's product: a * b = p + e exactly (checked in rational arithmetic), p = fl(a * b)."""
    from fractions import Fraction

    rng = np.random.default_rng(21)
    def wide():  # signed, 1e-60 to 1e60
        return rng.uniform(-1, 1, 300) * 10.0 ** rng.integers(-60, 60, 300)

    a = np.concatenate([np.floor(10.0 ** rng.uniform(0, 9.5, 300)), wide()])  # a sample size m,
    b = np.concatenate([rng.uniform(0, 1, 300), wide()])  # times a mean phi; then any doubles
    p, e = bounds._two_product(a, b)
    np.testing.assert_array_equal(p, a * b)
    exact = [Fraction(x) * Fraction(y) == Fraction(pp) + Fraction(ee) for x, y, pp, ee in zip(a, b, p, e, strict=True)]
    assert all(exact)


def _mp_bd0(x, m, phi, complement):
    """x log(x / mu) + mu - x at mu = m phi or m (1 - phi) of the float phi, in 50 digits."""
    import mpmath as mp

    with mp.workdps(50):
        mu, x = m * (1 - mp.mpf(phi) if complement else mp.mpf(phi)), mp.mpf(x)
        return float(x * mp.log(x / mu) + mu - x)


def test_bd0_exact_mean_matches_a_50_digit_oracle():
    """Within 8 standard deviations of the mean, m up to 3e9, on both branches of _bd0 (the
    series where |x - mu| < 0.1 (x + mu), the closed form beyond): relative accuracy 1e-12, and
    2e-14 of max(bd0, 1), the mean's rounding in m phi or 1 - phi recovered (without it 2e-12)."""
    rng = np.random.default_rng(22)
    m = np.floor(10.0 ** rng.uniform(0, 9.5, 400))
    phi = rng.uniform(0, 1, 400)
    comp = rng.random(400) < 0.5
    mu = np.where(comp, m * (1 - phi), m * phi)
    dev = np.where(rng.random(400) < 0.5, rng.uniform(-8, 8, 400) * np.sqrt(mu), rng.uniform(-3, 3, 400))
    x = np.clip(np.round(mu + dev), 1, m)
    for c in (False, True):
        ours = bounds._bd0_exact_mean(x[comp == c], m[comp == c], phi[comp == c], complement=c)
        ref = np.array([_mp_bd0(*args, c) for args in zip(x[comp == c], m[comp == c], phi[comp == c], strict=True)])
        assert np.all(np.abs(ours - ref) <= 1e-12 * ref), c
        assert np.all(np.abs(ours - ref) <= 2e-14 * np.maximum(ref, 1)), c


def test_binomial_logpmf_no_floating_point_warnings_at_extreme_means():
    """Subnormal and near-1 means: m phi underflows to a subnormal, x / mu overflows."""
    s = np.arange(0, 31)[:, None]
    phi = np.array([5e-324, 1e-320, 1e-300, 0.5, 1 - 2**-53])
    with np.errstate(**FP_ERRORS):
        ours = bounds.binomial_logpmf(s, 30, phi)
    ref = stats.binom.logpmf(s, 30, phi)
    np.testing.assert_allclose(ours[0], ref[0], rtol=1e-12)
    np.testing.assert_allclose(ours[:, 2:], ref[:, 2:], rtol=1e-12)


def test_binomial_tail_on_an_array_equals_it_point_by_point():
    """Groups of equal m, some holding only phi in {0, 1} (no deviation possible), others not,
    in any order: each entry is the scalar call's value."""
    m = np.array([[2, 40, 5, 3], [3, 40, 7, 5]])  # m = 2 (the first group): phi = 0 only
    phi = np.array([[0.0, 0.3, 1.0, 0.5], [1.0, 0.0, 0.25, 0.6]])
    gamma = np.array([[0.1, 0.05, 0.2, 0.1], [0.3, 0.1, 0.1, 0.15]])
    out = bounds.binomial_tail(m, phi, gamma)
    point = [bounds.binomial_tail(*args) for args in zip(m.ravel(), phi.ravel(), gamma.ravel(), strict=True)]
    np.testing.assert_array_equal(out, np.reshape(point, m.shape))
    assert np.count_nonzero(out) == 4
    assert all(type(v) is float for v in point)  # a scalar call gives a float, a 1-element array an array
    one = bounds.binomial_tail([10], 0.5, 0.1)
    assert isinstance(one, np.ndarray) and one.shape == (1,) and one[0] == bounds.binomial_tail(10, 0.5, 0.1)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: bounds.hoeffding_bound("ten", 0.1), "m must be a positive integer (a sample size), got 'ten'"),
    (lambda: bounds.hoeffding_bound([10, np.inf], 0.1),
     "m must be a positive integer (a sample size), got [10, inf]"),
    (lambda: bounds.hoeffding_bound([10, 2.5], 0.1), "m must be an integer >= 1 (a sample size), got 2.5"),
    (lambda: bounds.uniform_deviation(10, [3, 0], 0.1), "k must be an integer >= 1 (a sample size), got 0"),
    (lambda: bounds.hoeffding_bound(10, [0.1, -0.2]),
     "gamma must be a positive finite number (a deviation), got -0.2"),
    (lambda: bounds.uniform_deviation(10, 5, [0.5, 1.0]),
     "delta must lie in (0, 1) (a probability of failure), got 1.0"),
    (lambda: bounds.binomial_tail(10, [0.5, 1.2], 0.1), "phi must lie in [0, 1] (a Bernoulli mean), got 1.2"),
])
def test_input_checks_name_the_first_bad_entry_in_full(call, message):
    """The whole message (anchored), for an array whose other entries are valid."""
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        call()


@pytest.mark.parametrize(("m", "first_bad"), [
    (1e19, 1e19), (2.0**63, 2.0**63), (10**19, 10**19), (np.uint64(2**64 - 1), 2**64 - 1), ([10, 2.0**70], 2.0**70),
])
def test_sample_sizes_from_2_to_the_63_are_refused_not_wrapped(m, first_bad):
    """Bug fixed: an m at or above 2**63 wrapped around to a negative int64 (hoeffding_bound(1e19,
    0.1) was inf, with an overflow warning). The message names the first such m."""
    message = f"m must be below 2**63 (an int64 count), got {first_bad!r}"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        bounds.hoeffding_bound(m, 0.1)


def test_sample_sizes_just_below_2_to_the_63_are_exact():
    for m in (2**63 - 1, np.int64(2**63 - 1), np.uint64(2**63 - 1), 2.0**63 - 1024):
        assert bounds.hoeffding_bound(m, 1e-9) == 2 * np.exp(-2e-18 * float(m))


def test_binomial_logpmf_is_exactly_minus_inf_where_the_count_is_impossible():
    """Counts outside 0..m, and every count but m phi when phi is 0 or 1: -inf itself (not NaN,
    not +inf), as scipy's; the sure count has log-probability 0."""
    s = np.arange(-2, 13)[:, None]
    ours = bounds.binomial_logpmf(s, 10, np.array([0.0, 1.0, 0.3]))
    ref = stats.binom.logpmf(s, 10, np.array([0.0, 1.0, 0.3]))
    np.testing.assert_array_equal(ours[:, :2], ref[:, :2])
    assert np.array_equal(np.isneginf(ours), np.isneginf(ref)) and not np.isnan(ours).any()


@pytest.mark.parametrize("s", ["2", np.array([True, False]), [1, np.nan], 2.5])
def test_binomial_logpmf_refuses_counts_that_are_not_integers(s):
    with pytest.raises(ValueError, match=r"^s must hold integer counts, got "):
        bounds.binomial_logpmf(s, 10, 0.3)


@pytest.mark.parametrize(("m", "phi", "gamma"), [
    (10, 1e-300, 0.05), (10, 1e-320, 0.05), (10, 5e-324, 0.05), (7, 1e-17, 0.1),
    (10, 1 - 2**-53, 0.05), (1000, 1 - 1e-13, 0.01), (1000, 1e-300, 0.001),
])
def test_binomial_tail_at_extreme_means_without_floating_point_warnings(m, phi, gamma):
    """phi / (1 - phi) and its inverse near the largest double, subnormal means: the ratio
    recursion overflows in counts it then masks, and must neither warn nor leak inf or NaN."""
    with np.errstate(**FP_ERRORS):
        ours = bounds.binomial_tail(m, phi, gamma)
    assert ours == pytest.approx(_mp_tail(m, phi, gamma), rel=1e-12, abs=0)


def test_integer_deviations_are_read_as_the_same_floats():
    """gamma = 2**32 given as an int is 2.0**32: squared in int64 it would wrap around to 0
    (a bound of 2 instead of 0, an m of inf instead of 1)."""
    assert bounds.hoeffding_bound(3, 2**32) == bounds.hoeffding_bound(3, 2.0**32) == 0.0
    assert bounds.sample_complexity(1, 2**32, 0.5) == bounds.sample_complexity(1, 2.0**32, 0.5) == 1


def test_binomial_logpmf_at_a_subnormal_phi_matches_scipy():
    # phi = 5e-324 and 1e-310: m phi is subnormal and s / (m phi) overflowed, giving -inf for
    # every interior count (scipy.stats.binom.logpmf is the oracle)
    from scipy.stats import binom

    s = np.arange(11)
    for phi in (5e-324, 1e-310, 1e-300):
        np.testing.assert_allclose(bounds.binomial_logpmf(s, 10, phi), binom.logpmf(s, 10, phi),
                                   rtol=1e-13)
