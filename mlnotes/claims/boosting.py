r"""Claims of Chapter 6, "AdaBoost": the stump search, the training-error bound and its
chain of inequalities at every round of real runs, the optimal vote, coordinate descent
on the exponential loss, and the population minimiser of that loss.

"Real runs": each instance is AdaBoost on a random subsample of the breast cancer or
heart_scale data (or a synthetic problem), for a random number of rounds; a claim about
rounds is checked at every round of every run.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from mlnotes import datasets, to_pm1
from mlnotes.boosting import EPS_FLOOR, adaboost, best_stump, stump_errors
from mlnotes.claims import Erratum, claim

CH = "06_adaboost"
WHERE = "notes 000, chapter 5, section 5.1"
# The per-round quantities are sums of n <= 569 products of weights and
# exponentials, and products of up to 60 normalisers: rounding gives relative errors
# of order 60 * n * 1e-16 < 1e-11.
TOL_RUN = 1e-10
# Claims over whole AdaBoost runs are the slow ones: the
# chapter runs a few, the tests 200.
RUNS_IN_CHAPTER = 4


@cache
def _real_data():
    bc = datasets.load_breast_cancer()
    hs = datasets.load_heart_scale()
    return ((bc.X, to_pm1(bc.y)), (hs.X, hs.y))


def _problem(rng, m_max=None):
    """A random training set: a subsample of a real data
    set, or a noisy synthetic one."""
    kind = int(rng.integers(3))
    if kind < 2:
        X, y = _real_data()[kind]
        m = int(rng.integers(40, min(X.shape[0], m_max or X.shape[0]) + 1))
        rows = rng.choice(X.shape[0], m, replace=False)
        return X[rows], y[rows]
    m, d = int(rng.integers(20, m_max or 200)), int(rng.integers(1, 6))
    X = rng.standard_normal((m, d))
    y = np.where(np.sin(3 * X[:, 0]) + 0.5 * rng.standard_normal(m) > 0, 1.0, -1.0)
    return X, y


def _runs(rng, n, *, keep_D=False, m_max=None, max_rounds=60):
    """``n`` AdaBoost runs on random problems: yields (X, y, fit)."""
    for _ in range(n):
        X, y = _problem(rng, m_max)
        fit = adaboost(X, y, n_rounds=int(rng.integers(5, max_rounds + 1)),
                       keep_D=keep_D)
        yield X, y, fit


def _clean_rounds(fit):
    """Rounds whose vote used the exact eps_t (not the floor for a perfect learner)."""
    return fit.eps > EPS_FLOOR


@claim("eq-stump-cumsum", per_instance=True, chapter=CH, tol=1e-12,
       measure="abs. error",
       statement=r"$\epsilon(j, \theta, s) = \tfrac12 - \tfrac{s}{2}\big(\sum_i D_i "
                 r"y_i - "
                 r"2\sum_{i:\, x_{ij} \le \theta} D_i y_i\big)$, and the search "
                 r"returns the "
                 r"minimum over all stumps",
       foil=r"$\epsilon(j, \theta, s) = \tfrac12 + \tfrac{s}{2}\big(\sum_i D_i y_i - "
            r"2\sum_{i:\, x_{ij} \le \theta} D_i y_i\big)$ (the polarity reversed)")
def eq_stump_cumsum(rng, foil=False):
    m, d = int(rng.integers(1, 30)), int(rng.integers(1, 4))
    # repeated values: not every split is a threshold
    X = rng.integers(0, 5, (m, d)).astype(float)
    y = rng.choice([-1.0, 1.0], m)
    D = rng.random(m)
    D /= D.sum()
    worst = 0.0
    for j in range(d):
        for theta in [-np.inf, *np.unique(X[:, j])]:
            left = X[:, j] <= theta
            corr = (D * y).sum() - 2 * (D * y)[left].sum()
            for s in (1, -1):
                direct = D[np.where(X[:, j] > theta, s, -s) != y].sum()
                stated = 0.5 + 0.5 * s * corr if foil else 0.5 - 0.5 * s * corr
                worst = max(worst, abs(stated - direct))
    # and the O(nd) search finds the smallest of all those errors
    worst = max(worst, abs(best_stump(X, y, D).eps - stump_errors(X, y, D).min()))
    return worst


@claim("eq-Z-split", chapter=CH, n_instances=RUNS_IN_CHAPTER, tol=TOL_RUN,
       statement=r"$Z_t = \sum_i D_t(i) e^{-\alpha_t y_i h_t(x_i)} = \epsilon_t "
                 r"e^{\alpha_t} + "
                 r"(1 - \epsilon_t) e^{-\alpha_t}$, at every round of real runs",
       errata=[Erratum(
           where=f"{WHERE}, the algorithm (definition of $Z_t$)",
           says=r"$Z_t = \sum_i D_t^i / \exp(-\alpha_t y^i h_t(x^i))$",
           correct=r"$Z_t = \sum_i D_t^i \exp(-\alpha_t y^i h_t(x^i))$: the normaliser "
                   r"multiplies "
                   r"by the exponential. Dividing gives $\epsilon_t e^{-\alpha_t} + (1 "
                   r"- "
                   r"\epsilon_t) e^{\alpha_t}$, which is not the sum of the updated "
                   r"weights, so "
                   r"$D_{t+1}$ would not sum to one.")],
       foil=r"the notes' $Z_t = \sum_i D_t(i) / e^{-\alpha_t y_i h_t(x_i)} = "
            r"\epsilon_t "
            r"e^{-\alpha_t} + (1 - \epsilon_t) e^{\alpha_t}$")
def eq_Z_split(rng, n, foil=False):
    res = []
    sign = -1 if foil else 1
    for _, _, fit in _runs(rng, n):
        a = sign * fit.alpha
        split = fit.eps * np.exp(a) + (1 - fit.eps) * np.exp(-a)
        res.append(float(np.max(np.abs(fit.Z - split) / fit.Z)))
    return res


@claim("eq-unrolled-D", chapter=CH, n_instances=RUNS_IN_CHAPTER, tol=TOL_RUN,
       statement=r"$D_{t+1}(i) = \dfrac{e^{-y_i f_t(x_i)}}{n \prod_{s \le t} Z_s}$, at "
                 r"every "
                 r"round of real runs",
       foil=r"$D_{t+1}(i) = e^{-y_i f_t(x_i)} / \prod_{s \le t} Z_s$ (the initial "
            r"weight "
            r"$\frac1n$ forgotten)")
def eq_unrolled_D(rng, n, foil=False):
    res = []
    for X, y, fit in _runs(rng, n, keep_D=True):
        F = fit.staged_decision_function(X)  # (T, n)
        logprodZ = np.cumsum(np.log(fit.Z))
        closed = np.exp(-y * F - logprodZ[:, None]) / (1 if foil else X.shape[0])
        D = fit.D_history[1:]
        res.append(float(np.max(np.abs(D - closed)) / np.max(D)))
    return res


@claim("eq-zero-one-exp", per_instance=True, chapter=CH, tol=0.0, measure="violation",
       statement=r"$[y f(x) \le 0] \le e^{-y f(x)}$",
       errata=[Erratum(
           where=f"{WHERE}.1, the chain after (5.5)",
           says=r"$\frac1N \sum_i [y^i \ne H(x^i)] = \sum_i \frac1N \exp(-y^i f(x^i))$",
           correct=r"$\le$, not $=$: the zero-one loss is below the exponential loss, "
                   r"strictly wherever $y f(x) \ne 0$ (on a correct example $0 < "
                   r"e^{-yf}$, on a mistake with $yf < 0$, $1 < e^{-yf}$), with "
                   r"equality only at $yf = 0$. The training error is bounded by, not "
                   r"equal to, $\prod_t Z_t$.")],
       foil=r"the notes' equality: $[y f(x) \le 0] = e^{-y f(x)}$",
       exact="a violation max(0, .): 0 whenever the inequality holds")
def eq_zero_one_exp(rng, foil=False):
    margins = np.concatenate([rng.standard_normal(100) * 3,
                              [0.0, -0.0, 1e-300, -1e-300]])
    gap = (margins <= 0) - np.exp(-margins)
    return float(np.max(np.abs(gap) if foil else np.maximum(0.0, gap)))


@claim("eq-exp-loss-product", chapter=CH, n_instances=RUNS_IN_CHAPTER, tol=TOL_RUN,
       statement=r"$\frac1n \sum_i e^{-y_i f_t(x_i)} = \prod_{s \le t} Z_s$, at every "
                 r"round of "
                 r"real runs",
       errata=[Erratum(
           where=f"{WHERE}.2, eq. (5.8)",
           says=r"$\sum_{i=1}^N \frac1N [y^i \ne H(x^i)] \le \frac1m \exp(-y_i "
                r"f(x^i))$",
           correct=r"The right-hand side is the average $\frac1N \sum_{i=1}^N "
                   r"\exp(-y^i f(x^i))$ over all examples (a sum, over the same $N$), "
                   r"and it "
                   r"equals $\prod_t Z_t$ exactly.")],
       foil=r"the notes' right side, one example's term: $\frac1n e^{-y_1 f_t(x_1)} = "
            r"\prod_{s \le t} Z_s$")
def eq_exp_loss_product(rng, n, foil=False):
    res = []
    for X, y, fit in _runs(rng, n):
        terms = np.exp(-y * fit.staged_decision_function(X))
        loss = terms[:, 0] / len(y) if foil else np.mean(terms, axis=1)
        res.append(float(np.max(np.abs(loss - np.cumprod(fit.Z)) / loss)))
    return res


@claim("eq-train-bound", chapter=CH, n_instances=RUNS_IN_CHAPTER, tol=0.0,
       measure="violation",
       statement=r"$\frac1n \sum_i [y_i f_t(x_i) \le 0] \le \prod_{s \le t} Z_s = "
                 r"\prod_{s \le t}"
                 r"\sqrt{1 - 4\gamma_s^2} \le e^{-2\sum_{s \le t} \gamma_s^2}$, at "
                 r"every round of "
                 r"real runs (the equality is {eq}`eq-Z-gamma`)",
       foil=r"the same ending in $\le e^{-2\sum_{s \le t} \gamma_s}$ ($\gamma_s$ not "
            r"squared)",
       exact="a violation max(0, .): 0 whenever the inequality holds")
def eq_train_bound(rng, n, foil=False):
    res = []
    for _, _, fit in _runs(rng, n):
        first = np.max(np.maximum(0.0, fit.train_error - np.cumprod(fit.Z)))
        # The last inequality term by term in log space, where it is
        # log(1 - 4 g^2) / 2 <= -2 g^2 and rounding cannot create a false violation.
        g = fit.gamma[_clean_rounds(fit)]
        exponent = 2 * g if foil else 2 * g**2
        last = np.max(np.maximum(0.0, 0.5 * np.log1p(-4 * g**2) + exponent),
                      initial=0.0)
        res.append(float(max(first, last)))
    return res


@claim("eq-optimal-alpha", chapter=CH, tol=0.0, symbolic=True, measure="sympy residual",
       statement=r"$\alpha_t = \tfrac12 \log\frac{1 - \epsilon_t}{\epsilon_t}$ is the "
                 r"minimiser "
                 r"of $Z(\alpha) = \epsilon_t e^{\alpha} + (1 - \epsilon_t) "
                 r"e^{-\alpha}$, and "
                 r"$Z(\alpha_t) = 2\sqrt{\epsilon_t (1 - \epsilon_t)}$",
       errata=[
           Erratum(
               where=f"{WHERE}.1, eq. (5.7)",
               says=r"$\alpha = \log\left(\frac{\epsilon}{1 - \epsilon}\right)$",
               correct=r"$\alpha = \frac12 \log\frac{1 - \epsilon}{\epsilon}$ (as in "
                       r"the "
                       r"algorithm). The stated value is negative for $\epsilon < "
                       r"1/2$, turns "
                       r"the vote of a good learner against it and gives $Z = "
                       r"\epsilon^2/(1 - \epsilon) + (1 - \epsilon)^2/\epsilon$, which "
                       r"exceeds "
                       r"1 instead of equalling $2\sqrt{\epsilon(1 - \epsilon)}$."),
           Erratum(
               where=f"{WHERE}.3, eq. (5.14)",
               says=r"$\alpha = \operatorname{argmax}_\alpha \sum_i D^i \exp(-\alpha "
                    r"y^i h(x^i))$",
               correct=r"$\operatorname{argmin}$: the weighted exponential loss is "
                       r"convex in "
                       r"$\alpha$ (second derivative $Z(\alpha) > 0$) and unbounded "
                       r"above, so it "
                       r"has a minimum, at $\alpha_t$, and no maximum.",
               foil="argmax"),
       ],
       foil=r"the notes' $\alpha_t = \log\frac{\epsilon_t}{1 - \epsilon_t}$")
def eq_optimal_alpha(rng, n, foil=False):
    import sympy as sp
    eps, a = sp.symbols("epsilon alpha", positive=True)
    Z = eps * sp.exp(a) + (1 - eps) * sp.exp(-a)
    if foil == "argmax":  # the notes' (5.14): alpha_t maximises Z, so Z'' <= 0 there
        curvature = sp.diff(Z, a, 2).subs(a, sp.log((1 - eps) / eps) / 2)
        concave = all(float(curvature.subs(eps, sp.Rational(k, 17))) <= 0
                      for k in range(1, 9))
        return [0.0 if concave else 1.0]
    alpha_t = sp.log(eps / (1 - eps)) if foil else sp.log((1 - eps) / eps) / 2
    stationary = sp.simplify(sp.diff(Z, a).subs(a, alpha_t))
    # the stationary point is the only one and a minimum: Z'' = Z > 0
    (solution,) = sp.solve(sp.Eq(sp.diff(Z, a), 0), a)
    unique = sp.simplify(sp.expand_log(solution - alpha_t, force=True))
    convex = sp.simplify(sp.diff(Z, a, 2) - Z)
    Z_at_alpha = sp.powsimp(Z.subs(a, alpha_t), force=True)
    value = sp.simplify(Z_at_alpha - 2 * sp.sqrt(eps * (1 - eps)))
    # check the value on rationals too (sympy may leave sqrt products unsimplified)
    value_num = max(abs(float(value.subs(eps, sp.Rational(k, 17))))
                    for k in range(1, 9))
    exact = stationary == 0 and unique == 0 and convex == 0
    return [0.0 if (exact and value_num < 1e-15) else 1.0]


@claim("eq-Z-closed-form", chapter=CH, n_instances=RUNS_IN_CHAPTER, tol=TOL_RUN,
       statement=r"$Z_t = 2\sqrt{\epsilon_t (1 - \epsilon_t)}$, at every round of real "
                 r"runs",
       foil=r"$Z_t = \sqrt{\epsilon_t (1 - \epsilon_t)}$ (the 2 lost)")
def eq_Z_closed_form(rng, n, foil=False):
    res = []
    for _, _, fit in _runs(rng, n):
        ok = _clean_rounds(fit)
        closed = (1 if foil else 2) * np.sqrt(fit.eps[ok] * (1 - fit.eps[ok]))
        res.append(float(np.max(np.abs(fit.Z[ok] - closed) / fit.Z[ok], initial=0.0)))
    return res


@claim("eq-Z-gamma", chapter=CH, tol=0.0, symbolic=True, measure="sympy residual",
       statement=r"$2\sqrt{\epsilon(1 - \epsilon)} = \sqrt{1 - 4\gamma^2}$ for "
                 r"$\epsilon = "
                 r"\tfrac12 - \gamma$",
       foil=r"$2\sqrt{\epsilon(1 - \epsilon)} = \sqrt{1 - 2\gamma^2}$ (the square of "
            r"$2\gamma$ taken as $2\gamma^2$)")
def eq_Z_gamma(rng, n, foil=False):
    import sympy as sp
    g = sp.symbols("gamma", real=True)
    eps = sp.Rational(1, 2) - g
    stated = 1 - 2 * g**2 if foil else 1 - 4 * g**2
    # both sides are non-negative square roots: compare the squares
    left = (2 * sp.sqrt(eps * (1 - eps))) ** 2
    return [0.0 if sp.simplify(left - stated) == 0 else 1.0]


@claim("eq-sqrt-exp", per_instance=True, chapter=CH, tol=0.0, measure="violation",
       statement=r"$\sqrt{1 - 4\gamma^2} \le e^{-2\gamma^2}$ for $0 \le \gamma \le "
                 r"\tfrac12$ "
                 r"(from $1 - u \le e^{-u}$ with $u = 4\gamma^2$)",
       foil=r"$\sqrt{1 - 4\gamma^2} \le e^{-4\gamma^2}$ (the square root forgotten on "
            r"the right)",
       exact="a violation max(0, .): 0 whenever the inequality holds")
def eq_sqrt_exp(rng, foil=False):
    g = np.concatenate([rng.uniform(0, 0.5, 1000), [0.0, 0.5, 0.25]])
    u = 4 * g**2
    bound = np.exp(-u) if foil else np.exp(-u / 2)
    return float(np.max(np.maximum(0.0, np.sqrt(1 - u) - bound)))


@claim("eq-coordinate-descent", chapter=CH, n_instances=RUNS_IN_CHAPTER, tol=TOL_RUN,
       statement=r"$\alpha_t$ zeroes $\frac{d}{d\alpha} \sum_i e^{-y_i (f_{t-1}(x_i) + "
                 r"\alpha "
                 r"h_t(x_i))}$, and $h_t$ gives the largest decrease of the "
                 r"exponential loss "
                 r"among all stumps",
       foil=r"$\alpha_t = \log\frac{1 - \epsilon_t}{\epsilon_t}$ (the $\frac12$ lost) "
            r"zeroes "
            r"the derivative")
def eq_coordinate_descent(rng, n, foil=False):
    res = []
    # the brute-force table of every stump costs O(n^2 d) per round: small problems only
    for X, y, fit in _runs(rng, n, keep_D=True, m_max=80, max_rounds=15):
        F = np.vstack([np.zeros(X.shape[0]), fit.staged_decision_function(X)])
        H = fit.weak_predictions(X)
        worst = 0.0
        alpha = 2 * fit.alpha if foil else fit.alpha
        for t in np.flatnonzero(_clean_rounds(fit)):
            w = np.exp(-y * F[t])
            slope = -np.sum(w * y * H[t] * np.exp(-alpha[t] * y * H[t]))
            worst = max(worst, abs(slope) / w.sum())
            # each stump h, with its best vote, leaves loss sum(w) * 2 sqrt(e_h (1 -
            # e_h)), e_h its error under D_t = w / sum(w)
            e = np.clip(stump_errors(X, y, fit.D_history[t]), 0.0, 1.0)
            best_loss = 2 * np.sqrt(e * (1 - e)).min()
            chosen = np.sum(fit.D_history[t] * np.exp(-alpha[t] * y * H[t]))
            worst = max(worst, max(0.0, chosen - best_loss) / chosen)
        res.append(worst)
    return res


@claim("eq-edge-correlation", chapter=CH, n_instances=RUNS_IN_CHAPTER, tol=TOL_RUN,
       measure="abs. error",
       statement=r"$\sum_i D_t(i)\, y_i h_t(x_i) = 1 - 2\epsilon_t = 2\gamma_t$, at "
                 r"every round "
                 r"of real runs",
       errata=[Erratum(
           where=f"{WHERE}.3, eq. (5.13)",
           says=r"$h = \operatorname{argmax}_h \sum_i D^i y^i h(x^i) = 1 - \epsilon$",
           correct=r"$\sum_i D^i y^i h(x^i) = (1 - \epsilon) - \epsilon = 1 - "
                   r"2\epsilon$: the "
                   r"correct examples count $+1$ and the mistakes $-1$. The conclusion "
                   r"(maximise "
                   r"it by minimising $\epsilon$) is unchanged.")],
       foil=r"the notes' $\sum_i D_t(i)\, y_i h_t(x_i) = 1 - \epsilon_t$")
def eq_edge_correlation(rng, n, foil=False):
    res = []
    for X, y, fit in _runs(rng, n, keep_D=True):
        corr = np.sum(fit.D_history[:-1] * y * fit.weak_predictions(X), axis=1)
        edge = 1 - fit.eps if foil else 1 - 2 * fit.eps
        res.append(float(np.max(np.abs(corr - edge), initial=0.0)))
    return res


@claim("eq-taylor-stagewise", per_instance=True, chapter=CH, tol=0.0,
       measure="violation",
       statement=r"$\big|\sum_i D_i e^{-\alpha y_i h(x_i)} - \sum_i D_i (1 - \alpha "
                 r"y_i h(x_i) "
                 r"+ \alpha^2/2)\big| \le \frac{|\alpha|^3}{6} e^{|\alpha|}$ (the "
                 r"second-order "
                 r"expansion)",
       foil=r"the same bound without its factor $e^{|\alpha|}$: $\frac{|\alpha|^3}{6}$",
       exact="a violation max(0, .): 0 whenever the inequality holds")
def eq_taylor_stagewise(rng, foil=False):
    m = int(rng.integers(1, 50))
    D = rng.random(m)
    D /= D.sum()
    yh = rng.choice([-1.0, 1.0], m)
    worst = 0.0
    for a in rng.uniform(-2, 2, 20):
        exact = np.sum(D * np.exp(-a * yh))
        quad = np.sum(D * (1 - a * yh + a**2 / 2))
        # Lagrange remainder, plus the rounding of the two
        # sums (a few ulps of their size)
        factor = 1.0 if foil else np.exp(abs(a))
        bound = abs(a) ** 3 / 6 * factor + 8 * np.finfo(float).eps * max(exact, quad)
        worst = max(worst, abs(exact - quad) - bound)
    return max(0.0, worst)


@claim("eq-additive-vote", chapter=CH, n_instances=RUNS_IN_CHAPTER, tol=1e-12,
       measure="abs. error / sum alpha",
       statement=r"$f_T(x) = \sum_t \alpha_t h_t(x) = A_+(x) - A_-(x) = 2A_+(x) - "
                 r"\sum_t \alpha_t$, with $A_\pm(x)$ the total vote of the stumps that "
                 r"say $\pm 1$ at $x$: the sign of the sum is the weighted majority "
                 r"vote, at every round of real runs",
       foil=r"the unweighted majority: $f_T(x) = \bar\alpha\,(N_+(x) - N_-(x))$, "
            r"$N_\pm$ the number of stumps saying $\pm 1$ and $\bar\alpha$ the mean "
            r"vote")
def eq_additive_vote(rng, n, foil=False):
    res = []
    for X, _y, fit in _runs(rng, n):
        # the model's score, evaluated by the fitted classifier on the training points
        # and on fresh points between them
        Xq = np.vstack([X, X + rng.standard_normal(X.shape) * X.std(axis=0)])
        f = fit.staged_decision_function(Xq)
        worst = 0.0
        for t in range(fit.n_rounds):
            # the vote, counted stump by stump from each stump's
            # own rule s [x_j > theta]
            says_plus = np.array([
                (h.polarity > 0) == (Xq[:, h.feature] > h.threshold) for h in
                fit.stumps[: t + 1]
            ])
            a = fit.alpha[: t + 1]
            if foil:
                vote = a.mean() * (2 * says_plus.sum(axis=0) - (t + 1))
            else:
                vote = 2 * (a @ says_plus) - a.sum()
            worst = max(worst, float(np.max(np.abs(f[t] - vote))) / a.sum())
        res.append(worst)
    return res


@claim("eq-population-minimiser", chapter=CH, tol=1e-7, measure="abs. error",
       statement=r"$\operatorname{argmin}_g\, p\, e^{-g} + (1 - p)\, e^{g} = \tfrac12 "
                 r"\log\frac{p}{1 - p}$, minimised pointwise by golden-section search",
       errata=[Erratum(
           where=f"{WHERE}.4",
           says=r"$f(x) = \operatorname{argmax}_g [P(y = 1|x) \exp(-g) + P(y = -1|x) "
                r"\exp(g)]$"
                r" and $f(x) = \log \frac{P(y = 1|x)}{P(y = -1|x)}$",
           correct=r"$\operatorname{argmin}$ (the expected exponential loss is convex "
                   r"in $g$ "
                   r"and has no maximum), and the minimiser is half the log-odds, "
                   r"$f(x) = \frac12 \log\frac{P(y = 1|x)}{P(y = -1|x)}$: setting the "
                   r"derivative $-p e^{-g} + (1 - p) e^{g}$ to zero gives $e^{2g} = "
                   r"p/(1 - p)$.")],
       foil=r"the notes' minimiser $\log\frac{p}{1 - p}$, the whole log-odds")
def eq_population_minimiser(rng, n, foil=False):
    res = []
    for p in rng.uniform(0.02, 0.98, n):
        loss = lambda g, p=p: p * np.exp(-g) + (1 - p) * np.exp(g)
        lo, hi = -5.0, 5.0  # the minimiser |log(p/(1-p))|/2 < 2 for p in [0.02, 0.98]
        r = (np.sqrt(5) - 1) / 2
        # golden section: the bracket shrinks to ~ 1e-16 * 10 / r^200
        for _ in range(200):
            a, b = hi - r * (hi - lo), lo + r * (hi - lo)
            if loss(a) < loss(b):
                hi = b
            else:
                lo = a
        # Near its minimum the loss is flat to second order: a relative difference of
        # 1e-16 in the loss leaves the minimiser uncertain by about sqrt(1e-16) ~ 1e-8.
        stated = np.log(p / (1 - p)) * (1.0 if foil else 0.5)
        res.append(abs(0.5 * (lo + hi) - stated))
    return res


@claim("eq-posterior", chapter=CH, tol=0.0, symbolic=True, measure="sympy residual",
       statement=r"$f^*(x) = \tfrac12 \log\frac{p}{1 - p} \iff p = P(y = 1|x) = "
                 r"\dfrac{1}{1 + e^{-2 f^*(x)}}$",
       errata=[Erratum(
           where=f"{WHERE}.4",
           says=r"$P(y = 1|x) = \frac{1}{1 + \exp(-2 y f(x))}$",
           correct=r"$P(y = 1|x) = \frac{1}{1 + \exp(-2 f(x))}$, with no $y$ "
                   r"(equivalently "
                   r"$P(y\,|\,x) = 1/(1 + e^{-2 y f(x)})$ for $y \in \{-1, +1\}$); the "
                   r"factor 2 "
                   r"is there because $f$ is half the log-odds.")],
       foil=r"the notes' $P(y = 1|x) = \frac{1}{1 + e^{-2 y f(x)}}$, with the label "
            r"inside")
def eq_posterior(rng, n, foil=False):
    import sympy as sp
    p, y = sp.symbols("p y", positive=True)
    f = sp.log(p / (1 - p)) / 2
    exponent = -2 * y * f if foil else -2 * f
    return [0.0 if sp.simplify(1 / (1 + sp.exp(exponent)) - p) == 0 else 1.0]
