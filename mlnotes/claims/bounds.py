"""Claims of Chapter 7: Hoeffding, the union bound and finite-class generalisation.

The bounds are inequalities about probabilities, so most claims have two halves:

* an exact half, with no randomness: the exact binomial tail (a finite sum) against the bound;
* a Monte Carlo half, where a simulated frequency is compared with the bound. A frequency of
  ``R`` repetitions is itself random, so it is compared with the largest frequency that a
  probability equal to the bound produces with probability more than ``ALPHA / n``
  (:func:`mlnotes.bounds.mc_interval`, exact binomial quantiles; ``n`` the number of grid
  points, a union bound over them). A claim that holds then fails with probability at most
  ``ALPHA`` over the whole grid; a wrong bound is caught as soon as the true probability
  exceeds it by a few times its Monte Carlo standard error.

Residuals are violations ``max(0, lhs - rhs)``: 0 when the inequality holds.
"""

from __future__ import annotations

import numpy as np

from mlnotes import bounds
from mlnotes.claims import Erratum, claim

CHAPTER = "07_learning_theory"
# Probability that a correct bound is declared violated by Monte Carlo noise, whole grid.
ALPHA = 1e-6
N_REP = 10_000


def _rel_violation(lhs, rhs):
    """``max(0, lhs / rhs - 1)``; where ``rhs`` underflows to 0, 0 if ``lhs`` is 0 too, else inf."""
    lhs, rhs = np.asarray(lhs, dtype=float), np.asarray(rhs, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(rhs > 0, np.maximum(0, lhs / rhs - 1), np.where(lhs > 0, np.inf, 0.0))


def _random_grid(rng, n):
    """``n`` points (m, phi, gamma): m log-uniform on [1, 2000], phi on [0, 1], gamma on [0.005, 0.5]."""
    m = np.round(np.exp(rng.uniform(0, np.log(2000), n))).astype(int)
    phi = rng.uniform(0, 1, n)
    gamma = np.exp(rng.uniform(np.log(0.005), np.log(0.5), n))
    return m, phi, gamma


@claim("eq-hoeffding", chapter=CHAPTER, tol=0.0, measure="violation", n_instances=20,
       statement=r"$P(|\hat\phi - \phi| > \gamma) \le 2e^{-2\gamma^2 m}$ (exact tail "
                 r"and simulation)",
       foil=r"$P(|\hat\phi - \phi| > \gamma) \le 2e^{-2\gamma m}$ ($\gamma$ not "
            r"squared)",
       exact="a violation max(0, .): 0 whenever the inequality holds")
def eq_hoeffding(rng, n, foil=False):
    m, phi, gamma = _random_grid(rng, n)
    bound = 2 * np.exp(-2 * gamma * m) if foil else bounds.hoeffding_bound(m, gamma)
    exact = bounds.binomial_tail(m, phi, gamma)
    freq = bounds.simulate_deviation(m, phi, gamma, n_rep=N_REP, rng=rng)
    _, hi = bounds.mc_interval(bound, N_REP, ALPHA / n)
    # one residual per grid point: the worse of the exact half (relative, since tails reach
    # 1e-300) and the Monte Carlo half (in frequencies)
    return np.maximum(_rel_violation(exact, bound), np.maximum(0, freq - hi))


@claim("eq-hoeffding-training", chapter=CHAPTER, tol=0.0, measure="violation", n_instances=4,
       n_test_instances=40,
       statement=r"$\hat e(h)$ of a fixed stump is a Bernoulli mean with mean $e(h)$, "
                 r"so "
                 r"$P(|\hat e(h) - e(h)| > \gamma) \le 2e^{-2\gamma^2 m}$",
       foil=r"the same with $2e^{-2\gamma m}$ ($\gamma$ not squared)",
       exact="a violation max(0, .): 0 whenever the inequality holds")
def eq_hoeffding_training(rng, n, foil=False):
    # Simulating training sets from the distribution checks the model behind the bound: the
    # frequency of deviations must match the exact binomial tail at phi = e(h), both ways.
    res = []
    R = 2000
    for _ in range(n):
        H = bounds.stump_class(int(rng.integers(1, 16)), theta=rng.uniform(0, 1), eta=rng.uniform(0, 0.4))
        m, gamma = int(rng.integers(5, 200)), rng.uniform(0.02, 0.2)
        X, y = H.sample(m, n_rep=R, rng=rng)
        dev = np.abs(H.training_errors(X, y) - H.generalisation_error)
        freq = np.mean((dev > gamma) & ~np.isclose(dev, gamma, rtol=1e-9, atol=0), axis=0)
        exact = bounds.binomial_tail(m, H.generalisation_error, gamma)
        lo, hi = bounds.mc_interval(exact, R, ALPHA / (2 * n * H.k))
        bound = 2 * np.exp(-2 * gamma * m) if foil else bounds.hoeffding_bound(m, gamma)
        res.append(max(np.max(exact - bound), np.max(freq - hi), np.max(lo - freq), 0.0))
    return res


@claim("eq-union-bound", chapter=CHAPTER, tol=0.0, measure="violation", n_instances=4,
       n_test_instances=40,
       statement=r"$P(\exists h \in \mathcal H: |\hat e(h) - e(h)| > \gamma) \le "
                 r"\sum_h P(|\hat e(h) - e(h)| > \gamma) \le 2k e^{-2\gamma^2 m}$",
       foil=r"$P(\exists h \in \mathcal H: |\hat e(h) - e(h)| > \gamma) \le "
            r"\max_h P(|\hat e(h) - e(h)| > \gamma)$ (the largest term for the sum)",
       exact="a violation max(0, .): 0 whenever the inequality holds")
def eq_union_bound(rng, n, foil=False):
    res = []
    R = 2000
    for _ in range(n):
        H = bounds.stump_class(int(rng.integers(1, 32)), theta=rng.uniform(0, 1), eta=rng.uniform(0, 0.4))
        m, gamma = int(rng.integers(5, 300)), rng.uniform(0.02, 0.2)
        X, y = H.sample(m, n_rep=R, rng=rng)
        sup = np.abs(H.training_errors(X, y) - H.generalisation_error).max(axis=1)
        freq = np.mean((sup > gamma) & ~np.isclose(sup, gamma, rtol=1e-9, atol=0))
        tails = bounds.binomial_tail(m, H.generalisation_error, gamma)
        exact_sum = np.max(tails) if foil else bounds.union_bound(tails)
        bound = H.k * bounds.hoeffding_bound(m, gamma)
        _, hi = bounds.mc_interval(exact_sum, R, ALPHA / n)
        res.append(max(exact_sum - bound, float(freq - hi), 0.0))
    return res


@claim("eq-uniform-deviation", chapter=CHAPTER, tol=1e-12, measure="residual", n_instances=4,
       n_test_instances=40,
       statement=r"$\gamma = \sqrt{\log(2k/\delta)/(2m)}$ solves $2k e^{-2\gamma^2 m} "
                 r"= \delta$; "
                 r"then $P(\exists h: |\hat e(h) - e(h)| > \gamma) \le \delta$",
       foil=r"$\gamma = \sqrt{\log(2k/\delta)/m}$ (the 2 of the exponent lost) solves "
            r"$2k e^{-2\gamma^2 m} = \delta$")
def eq_uniform_deviation(rng, n, foil=False):
    res = []
    R = 2000
    for _ in range(n):
        k, m = int(rng.integers(1, 64)), int(rng.integers(5, 500))
        delta = float(np.exp(rng.uniform(np.log(0.01), np.log(0.5))))
        if foil:
            gamma = np.sqrt(np.log(2 * k / delta) / m)
        else:
            gamma = bounds.uniform_deviation(m, k, delta)
        identity = abs(k * bounds.hoeffding_bound(m, gamma) - delta) / delta  # rounding only
        # The simulation: a class of k stumps (k even, so k // 2 thresholds; k = 1 would need
        # a lone polarity and is covered by the exact half).
        H = bounds.stump_class(max(k // 2, 1), theta=rng.uniform(0, 1), eta=rng.uniform(0, 0.4))
        g = bounds.uniform_deviation(m, H.k, delta)
        X, y = H.sample(m, n_rep=R, rng=rng)
        sup = np.abs(H.training_errors(X, y) - H.generalisation_error).max(axis=1)
        _, hi = bounds.mc_interval(delta, R, ALPHA / n)
        # one residual: the identity's relative error (rounding, ~1e-15) or the Monte Carlo
        # violation, which is 0 or at least 1/R = 5e-4, far above tol whenever it occurs
        res.append(max(identity, float(np.mean(sup > g) - hi)))
    return res


@claim("eq-sample-complexity", chapter=CHAPTER, tol=1e-12, measure="rel. violation", n_instances=50,
       n_test_instances=2000,
       statement=r"$m = \lceil \log(2k/\delta) / (2\gamma^2) \rceil$ is the smallest "
                 r"$m$ with "
                 r"$\gamma(m, k, \delta) \le \gamma$",
       foil=r"$m = \lceil \log(2k/\delta) / \gamma^2 \rceil$ (the 2 lost) is the "
            r"smallest such $m$",
       exact="a violation max(0, .): 0 whenever the inequality holds")
def eq_sample_complexity(rng, n, foil=False):
    k = np.round(np.exp(rng.uniform(0, np.log(1e6), n))).astype(int)
    gamma = np.exp(rng.uniform(np.log(1e-3), np.log(0.5), n))
    delta = np.exp(rng.uniform(np.log(1e-6), np.log(0.5), n))
    # Half of the instances sit exactly on an integer m (gamma = gamma(m, k, delta)), where a
    # careless ceil of a rounded quotient asks for one sample too many.
    on = rng.random(n) < 0.5
    m0 = rng.integers(1, 10_000, n)
    gamma = np.where(on, bounds.uniform_deviation(m0, k, delta), gamma)
    if foil:
        m = np.ceil(np.log(2 * k / delta) / gamma**2).astype(int)
    else:
        m = bounds.sample_complexity(k, gamma, delta)
    enough = np.maximum(0, bounds.uniform_deviation(m, k, delta) - gamma) / gamma
    # tol 1e-12: sample_complexity forgives quotients within 1e-12 (relative) of an integer,
    # many ulps more than the rounding of log, division and square, and no more
    prev = np.where(m > 1, bounds.uniform_deviation(np.maximum(m - 1, 1), k, delta), np.inf)
    minimal = np.maximum(0, gamma - prev) / gamma
    return np.maximum(enough, minimal)


@claim("eq-erm-guarantee", chapter=CHAPTER, tol=1e-12, measure="violation", n_instances=4,
       n_test_instances=40,
       statement=r"$e(\hat h) \le \hat e(\hat h) + \gamma \le \hat e(h^*) + \gamma \le "
                 r"e(h^*) + 2\gamma$ "
                 r"with probability $\ge 1 - \delta$",
       errata=[Erratum(
           where="notes 000, section 5.2, eq. (5.17) and the sentence before it",
           says=r"Consider $h^*$ to be the best possible hypothesis, in terms of generalization error",
           kind="clarification",
           correct=r"Here \"best possible\" means best *in the class*, "
                   r"$h^* = \operatorname{argmin}_{h \in \mathcal H} e(h)$, as the notes' last "
                   r"paragraph (comparing small and large classes) makes it: the second step "
                   r"$\hat e(\hat h) \le \hat e(h^*)$ and the uniform bound for $h^*$ both need "
                   r"$h^* \in \mathcal H$. Against the best classifier of all (the Bayes "
                   r"classifier) the guarantee fails whenever the class cannot represent it: "
                   r"Chapter 7, {ref}`sec-erm`, shows a class where "
                   r"$e(\hat h) > e_{\mathrm{Bayes}} + 2\gamma$ on every training "
                   r"set.")],
       foil=r"$h^*$ read as the best classifier of all, the Bayes classifier: "
            r"$e(\hat h) \le e_{\mathrm{Bayes}} + 2\gamma$",
       exact="a violation max(0, .) of a chain that holds on every sample with the "
             "realised "
             "deviation, and a Monte Carlo frequency below its bound")
def eq_erm_guarantee(rng, n, foil=False):
    res = []
    R = 2000
    for _ in range(n):
        H = bounds.stump_class(int(rng.integers(1, 64)), theta=rng.uniform(0, 1), eta=rng.uniform(0, 0.4))
        m, delta = int(rng.integers(10, 400)), rng.uniform(0.01, 0.3)
        r = bounds.erm_simulation(H, m, delta=delta, n_rep=R, rng=rng)
        # The chain holds on every sample with the realised sup deviation in place of gamma:
        # exact, up to rounding of the errors (multiples of 1/m) and their differences.
        best = H.bayes_error if foil else r.best_error
        chain = np.max(r.gen_error - best - 2 * r.sup_deviation)
        _, hi = bounds.mc_interval(delta, R, ALPHA / n)
        failure_rate = np.mean(r.gen_error > best + 2 * r.gamma)
        res.append(max(chain, failure_rate - hi, 0.0))
    return res


@claim("eq-tradeoff", per_instance=True, chapter=CHAPTER, tol=0.0, measure="violation", n_instances=20,
       statement=r"for nested classes $\mathcal H_1 \subset \mathcal H_2 \subset "
                 r"\cdots$, "
                 r"$\min_{h \in \mathcal H_k} e(h)$ does not increase and $\gamma(m, "
                 r"k, \delta)$ "
                 r"increases with $k$",
       errata=[Erratum(
           where="notes 000, section 5.2, the last paragraph (bias/variance)",
           says=r"If we have large hypothesis set, $e(\hat h)$ becomes smaller, but "
                r"$\gamma$ increases.",
           correct=r"A larger (nested) class makes the *best* error $e(h^*)$ smaller "
                   r"or equal, "
                   r"not the error $e(\hat h)$ of the hypothesis ERM picks: with more "
                   r"hypotheses "
                   r"to choose from, ERM is fooled more often, and $e(\hat h)$ can "
                   r"grow with "
                   r"$k$ while $e(h^*)$ stays put. What trades off is the guarantee "
                   r"$e(h^*) + 2\gamma$. Chapter 7, {ref}`sec-tradeoff`, simulates a "
                   r"case where "
                   r"the mean of $e(\hat h)$ increases with $k$.",
           foil="notes")],
       # the notes' e(h-hat) is random: foil="notes" simulates it; the claim's foil turns gamma
       foil=r"the same, but $\gamma(m, k, \delta)$ decreases with $k$ (the other "
            r"direction)",
       exact="a violation max(0, .): 0 whenever the inequality holds")
def eq_tradeoff(rng, foil=False):
    if foil == "notes":
        # the notes' "e(h-hat) becomes smaller" for a larger class: with theta = 1/2 in every
        # class, e(h*) = eta for all k, and the mean of e(h-hat) over 300 training sets of
        # m = 50 grows from k = 2 to k = 254 (by about 0.02; the residual is the growth)
        eta = rng.uniform(0.05, 0.2)
        mean = [bounds.erm_simulation(bounds.stump_class(n, theta=0.5, eta=eta), 50,
                                      n_rep=300, rng=rng).gen_error.mean() for n in (1, 127)]
        return max(0.0, mean[1] - mean[0])
    theta, eta = rng.uniform(0, 1), rng.uniform(0, 0.4)
    m, delta = int(rng.integers(10, 10_000)), rng.uniform(0.001, 0.5)
    classes = [bounds.stump_class(2**L - 1, theta=theta, eta=eta) for L in range(1, 9)]
    # nested: each grid contains the previous one
    nested = all(np.isin(a.thresholds, b.thresholds).all()
                 for a, b in zip(classes, classes[1:], strict=False))
    best = np.array([H.generalisation_error.min() for H in classes])
    gam = bounds.uniform_deviation(m, np.array([H.k for H in classes]), delta)
    grows = np.diff(gam) * (-1 if foil else 1)
    return max(0.0 if nested else 1.0, np.max(np.diff(best), initial=0),
               np.max(-grows, initial=0))


@claim("eq-chernoff-kl", chapter=CHAPTER, tol=1e-9, measure="rel. violation", n_instances=40,
       statement=r"$P(|\hat\phi - \phi| > \gamma) \le "
                 r"e^{-m\,\mathrm{KL}(\phi+\gamma\|\phi)} + "
                 r"e^{-m\,\mathrm{KL}(\phi-\gamma\|\phi)} \le 2e^{-2\gamma^2 m}$",
       foil=r"the same with the last inequality reversed: Hoeffding's bound below "
            r"Chernoff's",
       exact="a violation max(0, .): 0 whenever the inequality holds")
def eq_chernoff_kl(rng, n, foil=False):
    m, phi, gamma = _random_grid(rng, n)
    exact = bounds.binomial_tail(m, phi, gamma)
    kl = bounds.chernoff_bound(m, phi, gamma)
    hoef = bounds.hoeffding_bound(m, gamma)
    # relative, because the tails run down to 1e-300; tol 1e-9 allows for rounding in the sums
    # of pmfs and in exp(-m KL) with m up to 2000
    second = _rel_violation(hoef, kl) if foil else _rel_violation(kl, hoef)
    return np.maximum(_rel_violation(exact, kl), second)


# -- checks that discriminate the notes' statements (errata) ----------------------------------


@claim("eq-hoeffding-exact", per_instance=True, chapter=CHAPTER, tol=0.0, measure="violation",
       statement=r"for one hypothesis, $\gamma$ with $2e^{-2\gamma^2 m} = \delta$ gives "
                 r"$P(|\hat e - e| > \gamma) \le \delta$, the probability computed exactly "
                 r"from the binomial distribution",
       errata=[Erratum(
           where="notes 000, section 5.2, the line before eq. (5.16)",
           says=r"find $\gamma$ such that $P(|\hat e - e| > \gamma) = \delta$ ... so with "
                r"probability $1 - \delta$ we have for all $h \in \mathcal H$ ...",
           correct=r"Set the *bound* equal to $\delta$, not the probability: "
                   r"$2k e^{-2\gamma^2 m} = \delta$ gives the notes' $\gamma$, and then "
                   r"$P(\exists h \in \mathcal H: |\hat e(h) - e(h)| > \gamma) \le \delta$, so "
                   r"(5.16) holds with probability *at least* $1 - \delta$. The probability "
                   r"itself is not $\delta$: Hoeffding's bound and the union bound are both "
                   r"loose, and the simulated probability is typically far below $\delta$ "
                   r"(Chapter 7, {ref}`sec-uniform-deviation`).")],
       foil=r"the notes' $P(|\hat e - e| > \gamma) = \delta$ (the residual is "
            r"$|P - \delta| / \delta$)",
       exact="a violation max(0, .): the exact tail probability is below delta")
def eq_hoeffding_exact(rng, foil=False):
    # m Bernoulli(e) errors: m e_hat is binomial, so the tail is a finite sum (scipy.stats).
    # foil: the notes' "P(|e_hat - e| > gamma) = delta"; the residual is then how far the
    # exact probability is from delta, relative to delta.
    from scipy.stats import binom

    m, e = int(rng.integers(5, 2000)), rng.uniform(0.01, 0.99)
    delta = float(np.exp(rng.uniform(np.log(0.01), np.log(0.5))))
    gamma = bounds.uniform_deviation(m, 1, delta)
    j = np.arange(m + 1)
    tail = binom.pmf(j, m, e)[np.abs(j / m - e) > gamma].sum()
    if foil:
        return abs(tail - delta) / delta
    return max(0.0, tail - delta)
