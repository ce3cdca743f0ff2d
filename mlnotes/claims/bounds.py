"""Claims of Chapter 7: Hoeffding, the union bound and finite-class generalisation.

The bounds are inequalities about probabilities, so most claims have two halves:

* an exact half, with no randomness: the exact binomial tail (a finite sum) against the
  bound;
* a Monte Carlo half, where a simulated frequency is compared with the bound. A
  frequency of ``R`` repetitions is itself random, so it is compared with the largest
  frequency that a probability equal to the bound produces with probability more than
  ``ALPHA / n`` (:func:`mlnotes.bounds.mc_interval`, exact binomial quantiles; ``n`` the
  number of grid points, a union bound over them). A claim that holds then fails with
  probability at most ``ALPHA`` over the whole grid; a wrong bound is caught as soon as
  the true probability exceeds it by a few times its Monte Carlo standard error.

Residuals are violations ``max(0, lhs - rhs)``: 0 when the inequality holds.
"""

from __future__ import annotations

import numpy as np

from mlnotes import bounds
from mlnotes.claims import Erratum, claim

CHAPTER = "07_learning_theory"
# Probability that a correct bound is declared violated by
# Monte Carlo noise, whole grid.
ALPHA = 1e-6
N_REP = 10_000


def _rel_violation(lhs, rhs):
    """``max(0, lhs / rhs - 1)``; where ``rhs`` underflows to 0, 0 if
    ``lhs`` is 0 too, else inf."""
    lhs, rhs = np.asarray(lhs, dtype=float), np.asarray(rhs, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(rhs > 0, np.maximum(0, lhs / rhs - 1),
                        np.where(lhs > 0, np.inf, 0.0))


def _random_grid(rng, n):
    """``n`` points (m, phi, gamma): m log-uniform on [1, 2000], phi on
    [0, 1], gamma on [0.005, 0.5]."""
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
    # one residual per grid point: the worse of the exact half (relative, since tails
    # reach 1e-300) and the Monte Carlo half (in frequencies)
    return np.maximum(_rel_violation(exact, bound), np.maximum(0, freq - hi))


@claim("eq-hoeffding-training", chapter=CHAPTER, tol=0.0, measure="violation",
       n_instances=4,
       n_test_instances=40,
       statement=r"$\hat e(h)$ of a fixed stump is a Bernoulli mean with mean $e(h)$, "
                 r"so "
                 r"$P(|\hat e(h) - e(h)| > \gamma) \le 2e^{-2\gamma^2 m}$",
       foil=r"the same with $2e^{-2\gamma m}$ ($\gamma$ not squared)",
       exact="a violation max(0, .): 0 whenever the inequality holds")
def eq_hoeffding_training(rng, n, foil=False):
    # Simulating training sets from the distribution checks the model behind
    # the bound: the frequency of deviations must match the exact binomial
    # tail at phi = e(h), both ways.
    res = []
    R = 2000
    for _ in range(n):
        H = bounds.stump_class(int(rng.integers(1, 16)), theta=rng.uniform(0, 1),
                               eta=rng.uniform(0, 0.4))
        m, gamma = int(rng.integers(5, 200)), rng.uniform(0.02, 0.2)
        X, y = H.sample(m, n_rep=R, rng=rng)
        dev = np.abs(H.training_errors(X, y) - H.generalisation_error)
        freq = np.mean((dev > gamma) & ~np.isclose(dev, gamma, rtol=1e-9, atol=0),
                       axis=0)
        exact = bounds.binomial_tail(m, H.generalisation_error, gamma)
        lo, hi = bounds.mc_interval(exact, R, ALPHA / (2 * n * H.k))
        bound = 2 * np.exp(-2 * gamma * m) if foil else bounds.hoeffding_bound(m, gamma)
        res.append(max(np.max(exact - bound), np.max(freq - hi), np.max(lo - freq),
                       0.0))
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
        H = bounds.stump_class(int(rng.integers(1, 32)), theta=rng.uniform(0, 1),
                               eta=rng.uniform(0, 0.4))
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


@claim("eq-uniform-deviation", chapter=CHAPTER, tol=1e-12, measure="residual",
       n_instances=4,
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
        # rounding only
        identity = abs(k * bounds.hoeffding_bound(m, gamma) - delta) / delta
        # The simulation: a class of k stumps (k even, so k // 2 thresholds; k = 1 would
        # need a lone polarity and is covered by the exact half).
        H = bounds.stump_class(max(k // 2, 1), theta=rng.uniform(0, 1),
                               eta=rng.uniform(0, 0.4))
        g = bounds.uniform_deviation(m, H.k, delta)
        X, y = H.sample(m, n_rep=R, rng=rng)
        sup = np.abs(H.training_errors(X, y) - H.generalisation_error).max(axis=1)
        _, hi = bounds.mc_interval(delta, R, ALPHA / n)
        # one residual: the identity's relative error (rounding, ~1e-15)
        # or the Monte Carlo violation, which is 0 or at least 1/R = 5e-4,
        # far above tol whenever it occurs
        res.append(max(identity, float(np.mean(sup > g) - hi)))
    return res


@claim("eq-sample-complexity", chapter=CHAPTER, tol=1e-12, measure="rel. violation",
       n_instances=50,
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
    # Half of the instances sit exactly on an integer m (gamma = gamma(m, k, delta)),
    # where a careless ceil of a rounded quotient asks for one sample too many.
    on = rng.random(n) < 0.5
    m0 = rng.integers(1, 10_000, n)
    gamma = np.where(on, bounds.uniform_deviation(m0, k, delta), gamma)
    if foil:
        m = np.ceil(np.log(2 * k / delta) / gamma**2).astype(int)
    else:
        m = bounds.sample_complexity(k, gamma, delta)
    enough = np.maximum(0, bounds.uniform_deviation(m, k, delta) - gamma) / gamma
    # tol 1e-12: sample_complexity forgives quotients within 1e-12 (relative) of an
    # integer, many ulps more than the rounding of log, division and square, and no more
    prev = np.where(m > 1, bounds.uniform_deviation(np.maximum(m - 1, 1), k, delta),
                    np.inf)
    minimal = np.maximum(0, gamma - prev) / gamma
    return np.maximum(enough, minimal)


@claim("eq-erm-guarantee", chapter=CHAPTER, tol=1e-12, measure="violation",
       n_instances=4,
       n_test_instances=40,
       statement=r"$e(\hat h) \le \hat e(\hat h) + \gamma \le \hat e(h^*) + \gamma \le "
                 r"e(h^*) + 2\gamma$ "
                 r"with probability $\ge 1 - \delta$",
       errata=[Erratum(
           where="notes 000, section 5.2, eq. (5.17) and the sentence before it",
           says=r"Consider $h^*$ to be the best possible hypothesis, in terms of "
                r"generalization error",
           kind="clarification",
           correct=r"Here \"best possible\" means best *in the class*, $h^* = "
                   r"\operatorname{argmin}_{h \in \mathcal H} e(h)$, as the notes' "
                   r"last paragraph (comparing small and large classes) makes it: the "
                   r"second step $\hat e(\hat h) \le \hat e(h^*)$ and the uniform "
                   r"bound for $h^*$ both need $h^* \in \mathcal H$. Against the best "
                   r"classifier of all (the Bayes classifier) the guarantee fails "
                   r"whenever the class cannot represent it: Chapter 7, "
                   r"{ref}`sec-erm`, shows a class where $e(\hat h) > "
                   r"e_{\mathrm{Bayes}} + 2\gamma$ on every training set.")],
       foil=r"$h^*$ read as the best classifier of all, the Bayes classifier: "
            r"$e(\hat h) \le e_{\mathrm{Bayes}} + 2\gamma$",
       exact="a violation max(0, .) of a chain that holds on every sample with the "
             "realised "
             "deviation, and a Monte Carlo frequency below its bound")
def eq_erm_guarantee(rng, n, foil=False):
    res = []
    R = 2000
    for _ in range(n):
        H = bounds.stump_class(int(rng.integers(1, 64)), theta=rng.uniform(0, 1),
                               eta=rng.uniform(0, 0.4))
        m, delta = int(rng.integers(10, 400)), rng.uniform(0.01, 0.3)
        r = bounds.erm_simulation(H, m, delta=delta, n_rep=R, rng=rng)
        # The chain holds on every sample with the realised sup deviation
        # in place of gamma: exact, up to rounding of the errors (multiples
        # of 1/m) and their differences.
        best = H.bayes_error if foil else r.best_error
        chain = np.max(r.gen_error - best - 2 * r.sup_deviation)
        _, hi = bounds.mc_interval(delta, R, ALPHA / n)
        failure_rate = np.mean(r.gen_error > best + 2 * r.gamma)
        res.append(max(chain, failure_rate - hi, 0.0))
    return res


@claim("eq-tradeoff", per_instance=True, chapter=CHAPTER, tol=0.0, measure="violation",
       n_instances=20,
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
       # the notes' e(h-hat) is random: foil="notes" simulates
       # it; the claim's foil turns gamma
       foil=r"the same, but $\gamma(m, k, \delta)$ decreases with $k$ (the other "
            r"direction)",
       exact="a violation max(0, .): 0 whenever the inequality holds")
def eq_tradeoff(rng, foil=False):
    if foil == "notes":
        # the notes' "e(h-hat) becomes smaller" for a larger class: with theta =
        # 1/2 in every class, e(h*) = eta for all k, and the mean of e(h-hat)
        # over 300 training sets of m = 50 grows from k = 2 to k = 254 (by about
        # 0.02; the residual is the growth)
        eta = rng.uniform(0.05, 0.2)
        mean = [bounds.erm_simulation(bounds.stump_class(n, theta=0.5, eta=eta), 50,
                                      n_rep=300, rng=rng).gen_error.mean()
                for n in (1, 127)]
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


@claim("eq-chernoff-kl", chapter=CHAPTER, tol=1e-9, measure="rel. violation",
       n_instances=40,
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
    # relative, because the tails run down to 1e-300; tol 1e-9 allows for rounding in
    # the sums of pmfs and in exp(-m KL) with m up to 2000
    second = _rel_violation(hoef, kl) if foil else _rel_violation(kl, hoef)
    return np.maximum(_rel_violation(exact, kl), second)


# -- checks that discriminate the notes' statements (errata) ---------------------------


@claim("eq-hoeffding-exact", per_instance=True, chapter=CHAPTER, tol=0.0,
       measure="violation",
       statement=r"for one hypothesis, $\gamma$ with $2e^{-2\gamma^2 m} = \delta$ "
                 r"gives $P(|\hat e - e| > \gamma) \le \delta$, the probability "
                 r"computed exactly from the binomial distribution",
       errata=[Erratum(
           where="notes 000, section 5.2, the line before eq. (5.16)",
           says=r"find $\gamma$ such that $P(|\hat e - e| > \gamma) = \delta$ ... so "
                r"with probability $1 - \delta$ we have for all $h \in \mathcal H$ ...",
           correct=r"Set the *bound* equal to $\delta$, not the probability: $2k "
                   r"e^{-2\gamma^2 m} = \delta$ gives the notes' $\gamma$, and then "
                   r"$P(\exists h \in \mathcal H: |\hat e(h) - e(h)| > \gamma) \le "
                   r"\delta$, so (5.16) holds with probability *at least* $1 - "
                   r"\delta$. The probability itself is not $\delta$: Hoeffding's "
                   r"bound and the union bound are both loose, and the simulated "
                   r"probability is typically far below $\delta$ (Chapter 7, "
                   r"{ref}`sec-uniform-deviation`).")],
       foil=r"the notes' $P(|\hat e - e| > \gamma) = \delta$ (the residual is "
            r"$|P - \delta| / \delta$)",
       exact="a violation max(0, .): the exact tail probability is below delta")
def eq_hoeffding_exact(rng, foil=False):
    # m Bernoulli(e) errors: m e_hat is binomial, so the tail is a finite sum
    # (scipy.stats). foil: the notes' "P(|e_hat - e| > gamma) = delta"; the residual is
    # then how far the exact probability is from delta, relative to delta.
    from scipy.stats import binom

    m, e = int(rng.integers(5, 2000)), rng.uniform(0.01, 0.99)
    delta = float(np.exp(rng.uniform(np.log(0.01), np.log(0.5))))
    gamma = bounds.uniform_deviation(m, 1, delta)
    j = np.arange(m + 1)
    tail = binom.pmf(j, m, e)[np.abs(j / m - e) > gamma].sum()
    if foil:
        return abs(tail - delta) / delta
    return max(0.0, tail - delta)


# -- the proof of Hoeffding's inequality -----------------------------------------------


def _upper_tail(m, phi, gamma):
    """Exact ``P(phi_hat - phi >= gamma)`` for one ``m`` (a sum of binomial pmfs)."""
    from scipy.stats import binom

    s = np.arange(m + 1)
    return binom.pmf(s, m, phi)[s - m * phi >= m * gamma].sum()


def _bernoulli_mgf(lam, phi):
    """``E exp(lam (Z - phi))`` for ``Z`` Bernoulli(``phi``)."""
    return (1 - phi) * np.exp(-lam * phi) + phi * np.exp(lam * (1 - phi))


@claim("eq-chernoff-method", per_instance=True, chapter=CHAPTER, tol=1e-12,
       measure="rel. violation",
       statement=r"$P(\hat\phi - \phi \ge \gamma) \le e^{-\lambda m\gamma} \prod_i "
                 r"E[e^{\lambda(Z_i - \phi)}]$ for every $\lambda > 0$",
       foil=r"the same with one factor $E[e^{\lambda(Z_1 - \phi)}]$ for the product "
            r"(independence not used)",
       exact="a relative violation max(0, .): 0 whenever the inequality holds")
def eq_chernoff_method(rng, foil=False):
    # the exact one-sided binomial tail against the bound with the Bernoulli MGF, for a
    # lambda drawn at random (the bound holds for every lambda > 0, not only the best)
    m, phi = int(rng.integers(5, 400)), rng.uniform(0.05, 0.95)
    gamma = rng.uniform(0.01, 0.2)
    lam = rng.uniform(0.5, 3) * 4 * gamma
    power = 1 if foil else m
    bound = np.exp(-lam * m * gamma) * _bernoulli_mgf(lam, phi) ** power
    return float(_rel_violation(_upper_tail(m, phi, gamma), bound))


def _zero_mean_distribution(rng):
    """A random distribution on [a, b] with mean 0: support points, weights, a and b."""
    n = int(rng.integers(2, 8))
    a, b = -rng.uniform(0.1, 2), rng.uniform(0.1, 2)
    x = np.concatenate([[a, b], rng.uniform(a, b, n)])
    p = rng.dirichlet(np.ones(n + 2))
    # move the mass of the end points so that the mean is 0 (the interior stays put)
    mean_inner = p[2:] @ x[2:]
    mass = p[0] + p[1]
    # p_a a + p_b b = -mean_inner with p_a + p_b = mass
    p_b = (-mean_inner - mass * a) / (b - a)
    if not 0 <= p_b <= mass:  # not reachable: put all mass on the end points
        p = np.zeros(n + 2)
        p[1] = -a / (b - a)
        p[0] = 1 - p[1]
    else:
        p[0], p[1] = mass - p_b, p_b
    return x, p, a, b


@claim("eq-hoeffding-lemma-convexity", per_instance=True, chapter=CHAPTER, tol=1e-12,
       measure="rel. violation",
       statement=r"$E[e^{\lambda X}] \le \frac{b e^{\lambda a} - a e^{\lambda b}}{b - "
                 r"a}$ for $X \in [a, b]$ with $E[X] = 0$",
       foil=r"$E[e^{\lambda X}] \le e^{\lambda E[X]} = 1$ (Jensen's inequality the "
            r"wrong way round)",
       exact="a relative violation max(0, .): 0 whenever the inequality holds")
def eq_hoeffding_lemma_convexity(rng, foil=False):
    x, p, a, b = _zero_mean_distribution(rng)
    lam = rng.uniform(-4, 4)
    mgf = p @ np.exp(lam * x)
    chord = 1.0 if foil else (b * np.exp(lam * a) - a * np.exp(lam * b)) / (b - a)
    return float(_rel_violation(mgf, chord))


def _hoeffding_L(h, p):
    """``L(h) = -h p + log(1 - p + p e^h)``, the log of the
    chord of the convexity step."""
    return -h * p + np.log1p(p * np.expm1(h))


@claim("eq-hoeffding-lemma-taylor", per_instance=True, chapter=CHAPTER, tol=1e-12,
       measure="violation",
       statement=r"$\frac{b e^{\lambda a} - a e^{\lambda b}}{b - a} = e^{L(h)}$ with "
                 r"$L(h) = -hp + \log(1 - p + pe^h) \le h^2/8$, $h = \lambda(b - a)$, "
                 r"$p = -a/(b - a)$",
       foil=r"$L(h) \le h^2/16$ (the bound $L'' \le 1/4$ taken as $1/8$)",
       exact="a violation max(0, .) and an identity residual at rounding level")
def eq_hoeffding_lemma_taylor(rng, foil=False):
    a, b = -rng.uniform(0.1, 2), rng.uniform(0.1, 2)
    lam = rng.uniform(-4, 4)
    h, p = lam * (b - a), -a / (b - a)
    chord = (b * np.exp(lam * a) - a * np.exp(lam * b)) / (b - a)
    identity = abs(np.log(chord) - _hoeffding_L(h, p)) / max(1.0, abs(np.log(chord)))
    # L(0) = L'(0) = 0 and L'' = q(1 - q) <= 1/4, so L(h) <= h^2 / 8 (Taylor, Lagrange
    # remainder); checked on the drawn h and on a grid of h for the same p
    hs = np.concatenate([[h], np.linspace(-8, 8, 161)])
    quad = hs**2 / (16 if foil else 8)
    excess = np.max(np.maximum(0, _hoeffding_L(hs, p) - quad)
                    / np.maximum(quad, 1e-300))
    return float(max(identity, excess))


@claim("eq-hoeffding-lemma", per_instance=True, chapter=CHAPTER, tol=1e-12,
       measure="rel. violation",
       statement=r"$E[e^{\lambda X}] \le e^{\lambda^2 (b - a)^2 / 8}$ for $X \in [a, "
                 r"b]$ with $E[X] = 0$ (Hoeffding's lemma)",
       foil=r"$E[e^{\lambda X}] \le e^{\lambda^2 (b - a)^2 / 16}$",
       exact="a relative violation max(0, .): 0 whenever the inequality holds")
def eq_hoeffding_lemma(rng, foil=False):
    # half of the instances are centred Bernoulli variables with p near 1/2, where the
    # lemma is tight to second order; the others random distributions with mean 0
    if rng.random() < 0.5:
        phi = rng.uniform(0.3, 0.7)
        x, p, a, b = np.array([-phi, 1 - phi]), np.array([1 - phi, phi]), -phi, 1 - phi
    else:
        x, p, a, b = _zero_mean_distribution(rng)
    lam = rng.uniform(-6, 6) / (b - a)
    bound = np.exp(lam**2 * (b - a) ** 2 / (16 if foil else 8))
    return float(_rel_violation(p @ np.exp(lam * x), bound))


@claim("eq-hoeffding-one-sided", per_instance=True, chapter=CHAPTER, tol=1e-12,
       measure="rel. violation",
       statement=r"$\min_{\lambda > 0} e^{-\lambda m\gamma + m\lambda^2/8} = "
                 r"e^{-2\gamma^2 m}$ at $\lambda = 4\gamma$, so "
                 r"$P(\hat\phi - \phi \ge \gamma) \le e^{-2\gamma^2 m}$",
       foil=r"the minimum is at $\lambda = 2\gamma$ (a factor 2 lost in the "
            r"derivative)",
       exact="a relative violation max(0, .) and an identity residual at rounding "
             "level")
def eq_hoeffding_one_sided(rng, foil=False):
    m, phi = int(rng.integers(5, 400)), rng.uniform(0.05, 0.95)
    gamma = rng.uniform(0.01, 0.3)
    lam = (2 if foil else 4) * gamma
    exponent = -lam * m * gamma + m * lam**2 / 8
    # the exponent at the claimed minimiser equals -2 gamma^2 m, and no lambda on a grid
    # does better (the minimum); the exact tail is below the resulting bound
    identity = abs(exponent + 2 * gamma**2 * m) / (2 * gamma**2 * m)
    grid = np.linspace(1e-3, 10 * gamma, 400)
    lower = np.max(np.maximum(0, exponent - (-grid * m * gamma + m * grid**2 / 8)))
    tail = _rel_violation(_upper_tail(m, phi, gamma), np.exp(-2 * gamma**2 * m))
    return float(max(identity, lower / (2 * gamma**2 * m), tail))


# -- the realisable case ---------------------------------------------------------------


def _realisable_thresholds(n, j, eps, m):
    """One-sided thresholds ``sign(x - t_i)``, ``t_i = i / (n +
    1)``, target ``t_j``, no noise.

    Returns the errors ``e(h_i) = |t_i - t_j|`` (x uniform on [0, 1]), and the exact
    probability that some hypothesis with error above ``eps`` is consistent with ``m``
    samples: no sample in the gap from ``t_j`` to the nearest bad threshold on either
    side, ``(1 - a)^m + (1 - b)^m - (1 - a - b)^m`` (inclusion-exclusion; a side without
    a bad threshold contributes nothing).
    """
    t = np.arange(1, n + 1) / (n + 1)
    e = np.abs(t - t[j])
    bad = e > eps
    right, left = bad & (t > t[j]), bad & (t < t[j])
    a = e[right].min() if right.any() else np.inf
    b = e[left].min() if left.any() else np.inf
    pa = (1 - a) ** m if np.isfinite(a) else 0.0
    pb = (1 - b) ** m if np.isfinite(b) else 0.0
    both = (1 - a - b) ** m if np.isfinite(a) and np.isfinite(b) else 0.0
    return e, t, pa + pb - both, (a, b)


@claim("eq-realisable-bound", per_instance=True, chapter=CHAPTER, tol=1e-12,
       measure="violation",
       statement=r"realisable case: $P(\exists h: e(h) > \epsilon, \hat e(h) = 0) \le "
                 r"\sum_{e(h) > \epsilon} (1 - e(h))^m \le k e^{-\epsilon m}$ "
                 r"(exact and simulated)",
       foil=r"the same with $e^{-\epsilon m}$, no factor $k$ (the union over the bad "
            r"hypotheses forgotten)",
       exact="a violation max(0, .): 0 whenever the inequalities hold, and a Monte "
             "Carlo frequency inside its limits")
def eq_realisable_bound(rng, foil=False):
    n = int(rng.integers(2, 60))
    j, m = int(rng.integers(0, n)), int(rng.integers(2, 200))
    eps = rng.uniform(0.01, 0.4)
    e, t, exact, (a, b) = _realisable_thresholds(n, j, eps, m)
    terms = np.sum((1 - e[e > eps]) ** m)
    bound = (1 if foil else n) * np.exp(-eps * m)
    # simulation: some bad threshold is consistent iff a gap next to t_j holds no sample
    R = 2000
    x = rng.random((R, m)) - t[j]
    # (a side without a bad threshold, a or b infinite, has no such event)
    empty_right = np.isfinite(a) & ~np.any((x > 0) & (x <= a), axis=1)
    empty_left = np.isfinite(b) & ~np.any((x <= 0) & (x > -b), axis=1)
    freq = np.mean(empty_right | empty_left)
    lo, hi = bounds.mc_interval(exact, R, ALPHA / 20)
    chain = max(_rel_violation(exact, terms), _rel_violation(terms, bound))
    return float(max(chain, freq - hi, lo - freq))


# -- beyond finite classes -------------------------------------------------------------


def _labellings(x, kind):
    """The distinct labellings (rows of 0/1) of the points ``x`` by
    thresholds, stumps or intervals, by enumerating one representative of
    each gap between sorted points."""
    xs = np.sort(x)
    cuts = np.concatenate([[xs[0] - 1.0], xs])  # t below all points, then at each point
    rows = (x[None, :] > cuts[:, None]).astype(np.int8)
    if kind == "stumps":
        rows = np.vstack([rows, 1 - rows])
    elif kind == "intervals":  # [a, b] with a <= b points of x, and the empty interval
        i, j = np.triu_indices(len(xs))
        rows = (x[None, :] >= xs[i][:, None]) & (x[None, :] <= xs[j][:, None])
        rows = np.vstack([rows.astype(np.int8), np.zeros((1, len(x)), np.int8)])
    return np.unique(rows, axis=0)


GROWTH = {"thresholds": lambda m: m + 1, "stumps": lambda m: 2 * m,
          "intervals": lambda m: m * (m + 1) // 2 + 1}


@claim("eq-growth-functions", per_instance=True, chapter=CHAPTER, tol=0.0,
       measure="count error",
       statement=r"on $m$ distinct points, thresholds realise $m + 1$ labellings, "
                 r"stumps $2m$ and intervals $m(m + 1)/2 + 1$ (by enumeration)",
       foil=r"stumps realise $2(m + 1)$ labellings (all $+1$ and all $-1$ counted "
            r"twice)",
       exact="a count of labellings, an integer compared exactly")
def eq_growth_functions(rng, foil=False):
    m = int(rng.integers(1, 30))
    x = rng.uniform(0, 1, m)
    growth = dict(GROWTH, stumps=lambda m: 2 * m + 2) if foil else GROWTH
    return float(max(abs(len(_labellings(x, kind)) - growth[kind](m))
                     for kind in GROWTH))


def _sauer_sum(m, d):
    from math import comb

    return sum(comb(m, i) for i in range(d + 1))


def _growth_and_vc(H):
    """Growth function (for m = 0..n) and VC dimension of a class given as 0/1 rows over
    n points, by enumerating every subset of the points."""
    from itertools import combinations

    n = H.shape[1]
    growth, vc = [1], 0
    for size in range(1, n + 1):
        counts = [len(np.unique(H[:, list(S)], axis=0))
                  for S in combinations(range(n), size)]
        growth.append(max(counts))
        if growth[-1] == 2**size:
            vc = size
    return growth, vc


@claim("eq-sauer", per_instance=True, chapter=CHAPTER, tol=0.0, measure="violation",
       n_instances=6, n_test_instances=60,
       statement=r"$\Pi_{\mathcal H}(m) \le \sum_{i=0}^{d} \binom{m}{i}$ for a class "
                 r"of VC dimension $d$ (Sauer's lemma; random classes on 6 points, "
                 r"thresholds, stumps, intervals, by enumeration)",
       foil=r"$\Pi_{\mathcal H}(m) \le \sum_{i=0}^{d - 1} \binom{m}{i}$ (one term "
            r"short)",
       exact="counts compared exactly: a violation max(0, .) of integers")
def eq_sauer(rng, foil=False):
    top = -1 if foil else 0
    # a random class: random 0/1 rows over 6 points
    H = rng.integers(0, 2, (int(rng.integers(2, 30)), 6))
    growth, d = _growth_and_vc(H)
    worst = max(g - _sauer_sum(m, d + top) for m, g in enumerate(growth))
    # the three classes of the chapter on random points, with the VC dimensions 1, 2, 2
    x = rng.uniform(0, 1, 6)
    for kind, d_kind in (("thresholds", 1), ("stumps", 2), ("intervals", 2)):
        rows = _labellings(x, kind)
        growth, d = _growth_and_vc(rows)
        worst = max(worst, abs(d - d_kind),
                    *(g - _sauer_sum(m, d + top) for m, g in enumerate(growth)))
    return float(max(worst, 0))


def _vc_deviation(m, growth_2m, delta):
    """``sqrt(8 (log growth_2m + log(4 / delta)) / m)``: the
    uniform deviation of the VC bound."""
    return np.sqrt(8 * (np.log(growth_2m) + np.log(4 / delta)) / m)


@claim("eq-vc-bound", per_instance=True, chapter=CHAPTER, tol=1e-12, measure="residual",
       n_instances=4, n_test_instances=40,
       statement=r"$\gamma = \sqrt{8(\log \Pi(2m) + \log(4/\delta))/m}$ solves "
                 r"$4\Pi(2m)e^{-m\gamma^2/8} = \delta$, and then "
                 r"$P(\sup_h |\hat e(h) - e(h)| > \gamma) \le \delta$ (510 stumps, "
                 r"$\Pi(2m) \le 4m$)",
       foil=r"$\gamma = \sqrt{(\log \Pi(2m) + \log(4/\delta))/(8m)}$ (the 8 moved to "
            r"the denominator)")
def eq_vc_bound(rng, foil=False):
    R = 2000
    H = bounds.stump_class(255, theta=rng.uniform(0.1, 0.9), eta=rng.uniform(0, 0.3))
    m, delta = int(rng.integers(20, 200)), rng.uniform(0.1, 0.3)
    growth = 4 * m  # stumps: 2 (2m) labellings of 2m points
    if foil:
        gamma = np.sqrt((np.log(growth) + np.log(4 / delta)) / (8 * m))
    else:
        gamma = _vc_deviation(m, growth, delta)
    identity = abs(4 * growth * np.exp(-m * gamma**2 / 8) - delta) / delta
    X, y = H.sample(m, n_rep=R, rng=rng)
    sup = np.abs(H.training_errors(X, y) - H.generalisation_error).max(axis=1)
    _, hi = bounds.mc_interval(delta, R, ALPHA / 4)
    return float(max(identity, np.mean(sup > gamma) - hi, 0.0))


# -- a test error on real data ---------------------------------------------------------


@claim("eq-hoeffding-interval", per_instance=True, chapter=CHAPTER, tol=1e-12,
       measure="violation",
       statement=r"$P\bigl(|\hat e_{\text{test}} - e| \le "
                 r"\sqrt{\log(2/\delta)/(2n)}\bigr) \ge 1 - \delta$, the coverage "
                 r"summed exactly over the binomial distribution of the test errors",
       foil=r"the half-width $\log(2/\delta)/(2n)$ (the square root forgotten)",
       exact="a violation max(0, .) of an exact coverage probability")
def eq_hoeffding_interval(rng, foil=False):
    from scipy.stats import binom

    n, e = int(rng.integers(10, 2000)), rng.uniform(0, 1)
    delta = float(np.exp(rng.uniform(np.log(1e-3), np.log(0.3))))
    x = np.log(2 / delta) / (2 * n)
    half = x if foil else np.sqrt(x)
    s = np.arange(n + 1)
    coverage = binom.pmf(s, n, e)[np.abs(s / n - e) <= half].sum()
    return float(max(0.0, 1 - delta - coverage))
