"""Claims of Chapter 2, logistic regression: each checks one
labelled equation of the chapter."""

from __future__ import annotations

import numpy as np

from mlnotes import logistic as lg
from mlnotes.check import numerical_gradient, numerical_hessian, rel_error
from mlnotes.claims import Erratum, claim

CH = "02_logistic_regression"


def _problem(rng, n=None, d=None, scale=1.0):
    n = int(rng.integers(10, 60)) if n is None else n
    d = int(rng.integers(1, 6)) if d is None else d
    X = rng.normal(size=(n, d)) * scale
    y = (rng.uniform(size=n) < 0.5).astype(float)
    w = rng.normal(size=d)
    return X, y, w


@claim(
    "eq-gaussian-loglik", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"$\sum_i \log \mathcal N(y_i; w^\top x_i, \sigma^2) = -\frac n2 "
              r"\log(2\pi\sigma^2) "
    r"- \frac{1}{2\sigma^2}\|y - Xw\|^2$",
    foil=r"the same with $- \frac{1}{\sigma^2}\|y - Xw\|^2$ (the exponent's $\frac12$ "
         r"lost)",
)
def eq_gaussian_loglik(rng, foil=False):
    X, _, w = _problem(rng)
    sigma = rng.uniform(0.3, 3.0)
    y = X @ w + sigma * rng.normal(size=X.shape[0])
    # left: the log of the product of the n Gaussian densities, computed as a product
    dens = np.exp(-((y - X @ w) ** 2) / (2 * sigma**2)) / np.sqrt(2 * np.pi * sigma**2)
    lhs = np.log(np.prod(dens))
    half = 1.0 if foil else 0.5
    rss = np.sum((y - X @ w) ** 2)
    rhs = -0.5 * len(y) * np.log(2 * np.pi * sigma**2) - half * rss / sigma**2
    return rel_error(lhs, rhs)


@claim(
    "eq-sigmoid-derivative", chapter=CH, tol=0, symbolic=True,
    statement=r"$g'(a) = g(a)\,(1 - g(a))$",
    foil=r"$g'(a) = -g(a)\,(1 - g(a))$ (the inner derivative of $e^{-a}$ counted "
         r"twice)",
)
def eq_sigmoid_derivative(rng, n, foil=False):
    import sympy as sp

    a = sp.symbols("a", real=True)
    g = 1 / (1 + sp.exp(-a))
    stated = -g * (1 - g) if foil else g * (1 - g)
    return [0.0 if sp.simplify(sp.diff(g, a) - stated) == 0 else 1.0]


@claim(
    "eq-sigmoid-symmetry", chapter=CH, tol=0, symbolic=True,
    statement=r"$1 - g(a) = g(-a)$",
    foil=r"$1 - g(a) = 1/g(a)$ (the rule of $e^{-a}$ carried over)",
)
def eq_sigmoid_symmetry(rng, n, foil=False):
    import sympy as sp

    a = sp.symbols("a", real=True)
    g = sp.Lambda(a, 1 / (1 + sp.exp(-a)))
    stated = 1 / g(a) if foil else g(-a)
    return [0.0 if sp.simplify(1 - g(a) - stated) == 0 else 1.0]


@claim(
    "eq-log-odds", chapter=CH, tol=0, symbolic=True,
    statement=r"$\log\frac{g(a)}{1 - g(a)} = a$",
    foil=r"$\log\frac{g(a)}{1 - g(a)} = -a$ (a sign)",
)
def eq_log_odds(rng, n, foil=False):
    import sympy as sp

    a = sp.symbols("a", real=True)
    g = 1 / (1 + sp.exp(-a))
    stated = -a if foil else a
    # the odds are e^a, and log(e^a) = a for real a
    odds = sp.simplify(g / (1 - g))
    proved = sp.simplify(odds - sp.exp(stated)) == 0 and sp.log(odds) == stated
    return [0.0 if proved else 1.0]


@claim(
    # central differences: O(eps^(2/3)) error
    "eq-loglik-gradient", per_instance=True, chapter=CH, tol=1e-7,
    statement=r"$\nabla_w \ell(w) = X^\top (y - g)$",
    errata=[Erratum(
        where="notes 000, chapter 3, section 3.1, eqs. (3.7)-(3.8) and the Jacobian "
              "after them",
        says=r"$\partial C(w)/\partial w_k = \sum_i [y^i - g(w^\top x^i)]\, x^i_k$ "
             r"with "
             r"$C(w) = P(y \mid X, w)$ the likelihood",
        correct=r"$\sum_i [y^i - g(w^\top x^i)]\, x^i_k$ is the derivative of the "
                r"log-likelihood $\log C(w)$; the derivative of $C$ itself is $C(w)$ "
                r"times it. "
                "Gradient ascent must climb $\\log C$ (the same maximiser, a concave "
                "objective).",
    )],
    foil=r"the notes' version: $\nabla_w C(w) = X^\top (y - g)$ for the likelihood "
    r"$C = e^{\ell}$ itself",
)
def eq_loglik_gradient(rng, foil=False):
    X, y, w = _problem(rng)
    if foil:
        C = lambda v, X=X, y=y: np.exp(lg.log_likelihood(v, X, y))  # noqa: E731
    else:
        C = lambda v, X=X, y=y: lg.log_likelihood(v, X, y)  # noqa: E731
    num = numerical_gradient(C, w)
    return rel_error(num, X.T @ (y - lg.sigmoid(X @ w)))


@claim(
    # second differences: O(eps^(1/2))
    "eq-loglik-hessian", per_instance=True, chapter=CH, tol=1e-5, n_instances=8,
    statement=r"$\nabla^2_w \ell(w) = -X^\top R X,\ R = \operatorname{diag}(g_i(1 - "
              r"g_i))$",
    foil=r"$\nabla^2_w \ell(w) = X^\top R X$ (the sign of the log-loss's Hessian)",
)
def eq_loglik_hessian(rng, foil=False):
    X, y, w = _problem(rng)
    num = numerical_hessian(lambda v, X=X, y=y: lg.log_likelihood(v, X, y), w)
    p = lg.sigmoid(X @ w)
    sign = 1 if foil else -1
    return rel_error(num, sign * (X.T * (p * (1 - p))) @ X)


@claim(
    "eq-hessian-nsd", per_instance=True, chapter=CH, tol=0, measure="violation",
    statement=r"$v^\top \nabla^2 \ell(w)\, v = -\sum_i g_i(1 - g_i)(x_i^\top v)^2 \le "
              r"0$",
    foil=r"$v^\top \nabla^2 \ell(w)\, v \ge 0$ (the other inequality: convex, not "
         r"concave)",
    exact="a violation max(0, largest quadratic form): 0 whenever the Hessian is "
          "negative "
    "semidefinite",
)
def eq_hessian_nsd(rng, foil=False):
    X, y, w = _problem(rng, scale=rng.uniform(0.1, 5))
    p = lg.sigmoid(X @ w)
    H = -(X.T * (p * (1 - p))) @ X
    if foil:  # v^T H v >= 0 is -H <= 0
        H = -H
    V = rng.normal(size=(X.shape[1], 10))
    quad = np.einsum("jk,jl,lk->k", V, H, V)
    # the largest eigenvalue is the worst direction of all
    return max(0.0, float(quad.max()), float(np.linalg.eigvalsh(H)[-1])
                   - 1e-13 * np.abs(H).max())


@claim(
    "eq-irls-step", per_instance=True, chapter=CH, tol=1e-10,
    statement=r"$w + (X^\top R X)^{-1} X^\top (y - g) = \arg\min_v \sum_i R_{ii}(z_i - "
              r"x_i^\top v)^2,"
    r"\ z = Xw + R^{-1}(y - g)$",
    foil=r"the same with the working response $z = Xw + (y - g)$ ($R^{-1}$ lost)",
)
def eq_irls_step(rng, foil=False):
    X, y, w = _problem(rng, n=int(rng.integers(20, 80)))
    p = lg.sigmoid(X @ w)
    r = p * (1 - p)
    newton = w + np.linalg.solve((X.T * r) @ X, X.T @ (y - p))
    z = X @ w + (y - p if foil else (y - p) / r)
    sr = np.sqrt(r)
    # weighted least squares
    wls = np.linalg.lstsq(sr[:, None] * X, sr * z, rcond=None)[0]
    return rel_error(newton, wls)


@claim(
    "eq-logloss-nll", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"$\sum_i \log(1 + e^{-y^\pm_i w^\top x_i}) = -\ell(w)$ with $y^\pm = 2y "
              r"- 1$",
    errata=[
        Erratum(
            where="notes 000, chapter 3, section 3.2, eq. (3.21)",
            says=r"$L(w) = -C(w) = \sum_i \log(1 + \exp(-y^i_\pm f(x^i)))$",
            correct=r"$L(w) = -\log C(w)$: the log-loss is the negative "
                    r"*log*-likelihood "
                    r"($C$ is the likelihood, a product of probabilities).",
        ),
        Erratum(
            where="notes 003, section 1.4 (logistic loss)",
            says=r"redefine $y_i' = \frac{y_i + 1}{2}$, i.e. $y' \in \{\pm 1\}$",
            correct=r"$y' = 2y - 1$ maps $\{0, 1\}$ to $\{-1, +1\}$; $(y + 1)/2$ maps "
                    r"it to "
                    r"$\{1/2, 1\}$ (it is the inverse map, from $\{-1, +1\}$ to $\{0, "
                    r"1\}$).",
            foil="relabel",
        ),
    ],
    foil=r"the notes' version: $\sum_i \log(1 + e^{-y^\pm_i w^\top x_i}) = -C(w) = "
    r"-e^{\ell(w)}$, the likelihood for its log",
)
def eq_logloss_nll(rng, foil=False):
    # foil="relabel": notes 003's labels y' = (y + 1)/2 in the log-loss
    X, y, w = _problem(rng, scale=rng.uniform(0.1, 20))
    ell = lg.log_likelihood(w, X, y)
    if foil == "relabel":
        return rel_error(np.sum(np.logaddexp(0.0, -(y + 1) / 2 * (X @ w))), -ell)
    lhs = np.sum(lg.log_loss(2 * y - 1, X @ w))
    return rel_error(lhs, -np.exp(ell) if foil else -ell)


@claim(
    "eq-nll-simplified", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"$-\ell(w) = \sum_i \bigl[\log(1 + e^{-a_i}) + (1 - y_i) a_i\bigr]$",
    errata=[Erratum(
        where="notes 003, section 1.4, second line of the simplification of the MLE",
        says=r"$\ldots - (1 - y_i)\,\frac{\exp(-\langle x, w\rangle)}{1 + "
             r"\exp(-\langle x, w\rangle)}$",
        correct=r"$\ldots - (1 - y_i)\log\frac{\exp(-\langle x_i, w\rangle)}"
                r"{1 + \exp(-\langle x_i, w\rangle)}$: "
                "the logarithm is missing (the next line, and the result, are right).",
    )],
    foil=r"the notes' second line: $-\ell(w) = \sum_i \bigl[y_i\log(1 + e^{-a_i}) - "
    r"(1 - y_i)\frac{e^{-a_i}}{1 + e^{-a_i}}\bigr]$",
)
def eq_nll_simplified(rng, foil=False):
    X, y, w = _problem(rng, scale=rng.uniform(0.1, 20))
    a = X @ w
    if foil:  # the notes drop the log of e^{-a} / (1 + e^{-a}) = g(-a)
        rhs = np.sum(y * np.logaddexp(0.0, -a) - (1 - y) * lg.sigmoid(-a))
    else:
        rhs = np.sum(np.logaddexp(0.0, -a) + (1 - y) * a)
    return rel_error(-lg.log_likelihood(w, X, y), rhs)


@claim(
    "eq-logloss-surrogate", per_instance=True, chapter=CH, tol=0, measure="violation",
    statement=r"$\log_2(1 + e^{-M}) \ge [M \le 0]$",
    foil=r"$\ln(1 + e^{-M}) \ge [M \le 0]$ (nats for bits)",
    exact="a violation max(0, [M <= 0] - loss): 0 whenever the bound holds",
)
def eq_logloss_surrogate(rng, foil=False):
    M = np.concatenate([rng.normal(scale=rng.uniform(0.1, 50), size=500), [0.0, -0.0]])
    bits = lg.log_loss(np.ones_like(M), M) / (1.0 if foil else np.log(2.0))
    return float(np.max(np.maximum(0.0, (M <= 0) - bits)))


@claim(
    "eq-separable-sup", per_instance=True, chapter=CH, tol=0, measure="violation",
    statement=r"$y^\pm_i x_i^\top v > 0\ \forall i \Rightarrow \ell(tv)$ increases "
              r"strictly to "
    r"$0 = \sup_w \ell(w)$, never attained",
    foil=r"$y^\pm_i x_i^\top v > 0\ \forall i \Rightarrow \ell(tv)$ decreases in $t$ "
         r"(the "
    r"other direction)",
    exact="violations and indicators: 0 whenever each part of the statement holds",
)
def eq_separable_sup(rng, foil=False):
    X, _, v = _problem(rng, d=int(rng.integers(2, 6)))
    y = (X @ v > 0).astype(float)  # separable by v by construction
    ts = 2.0 ** np.arange(-3, 8)
    ll = np.array([lg.log_likelihood(t * v, X, y) for t in ts])
    m_min = np.min((2 * y - 1) * (X @ v))
    up = -1.0 if foil else 1.0  # the direction stated
    # must be strictly monotone
    increasing = max(0.0, float(np.max(up * (ll[:-1] - ll[1:]))))
    # never attained: ell(w) < 0 = sup for every finite w
    negative = float(ll.max() >= 0)
    # and the sup is 0: -ell(tv) = sum_i log(1 + e^{-t m_i}) <= n e^{-t min_i m_i}
    bound = max(0.0, -ll[-1] - X.shape[0] * np.exp(-ts[-1] * m_min) * (1 + 1e-12))
    viol = increasing + negative + bound + float(np.any(ll[1:] == ll[:-1]))
    return viol


@claim(
    "eq-ridge-stationarity", per_instance=True, chapter=CH, tol=1e-9,
    statement=r"$\lambda > 0$: the unique maximiser of $\ell(w) - "
              r"\frac\lambda2\|w\|^2$ solves "
    r"$X^\top(y - g) = \lambda w$, also on separable data",
    foil=r"the maximiser solves $X^\top(y - g) = 2\lambda w$ (the penalty's $\frac12$ "
         r"ignored)",
)
def eq_ridge_stationarity(rng, foil=False):
    X, _, v = _problem(rng)
    y = (X @ v > 0).astype(float)  # separable: the unpenalised MLE does not exist
    lam = float(10 ** rng.uniform(-3, 1))
    w = lg.irls(X, y, lam=lam).w
    return rel_error(X.T @ (y - lg.sigmoid(X @ w)), (2 if foil else 1) * lam * w)


@claim(
    "eq-cost-intercept", per_instance=True, chapter=CH, tol=0,
       measure="disagreement rate",
    statement=r"decide $\omega_1$ iff $\gamma_1 p(\omega_1|x) > \gamma_2 "
              r"p(\omega_2|x)$ iff "
    r"$\beta_0' + \log(\gamma_1/\gamma_2) + \beta^\top x > 0$",
    errata=[Erratum(
        where="notes 002, slides 'Logistic regression' (misclassification costs)",
        says=r"decision rule: $\omega_1$ if $\beta_0' + \beta^\top x > 0$, where "
             r"$\beta_0' = \beta_0 - \ln(\gamma_1/\gamma_2)$ is the intercept of the "
             r"posterior "
             "estimated by maximum likelihood",
        correct=r"the minimum-risk rule thresholds $\beta_0 + \beta^\top x = \beta_0' "
                r"+ "
                r"\ln(\gamma_1/\gamma_2) + \beta^\top x$ at 0; thresholding with "
                r"$\beta_0'$ ignores "
                "the costs (it is the equal-cost rule). Costs shift only the "
                "intercept.",
    )],
    foil=r"the notes' rule: decide $\omega_1$ iff $\beta_0' + \beta^\top x > 0$",
    exact="a disagreement rate: 0 when the two rules agree on every point",
)
def eq_cost_intercept(rng, foil=False):
    d = int(rng.integers(1, 5))
    beta0p, beta = rng.normal(), rng.normal(size=d)
    # costs of misclassifying class 1, class 2
    g1, g2 = np.exp(rng.uniform(-3, 3, size=2))
    x = rng.normal(scale=3, size=(2000, d))
    p1 = lg.sigmoid(beta0p + x @ beta)  # the fitted posterior of class 1
    risk_decide_2, risk_decide_1 = g1 * p1, g2 * (1 - p1)
    bayes = risk_decide_1 < risk_decide_2
    rule = beta0p + (0.0 if foil else np.log(g1 / g2)) + x @ beta > 0
    gap = np.abs(risk_decide_1 - risk_decide_2)
    decided = gap > 1e-12 * (risk_decide_1 + risk_decide_2)
    return float(np.mean(bayes[decided] != rule[decided]))


@claim(
    "eq-link-decision", per_instance=True, chapter=CH, tol=0,
       measure="disagreement rate",
    statement=r"$G$ increasing with $G(0) = \frac12$: $G(a) > \frac12 \iff a > 0$ "
              r"(logit, probit, "
    "cauchit decide alike)",
    foil=r"$G(a) > 0 \iff a > 0$ (a probability thresholded like a score)",
    exact="a disagreement rate: 0 when the two rules agree on every point",
)
def eq_link_decision(rng, foil=False):
    from scipy.special import ndtr

    links = (lg.sigmoid, ndtr, lambda a: 0.5 + np.arctan(a) / np.pi)
    a = rng.normal(scale=rng.uniform(0.1, 10), size=1000)
    threshold = 0.0 if foil else 0.5
    return max(float(np.mean((G(a) > threshold) != (a > 0))) for G in links)


@claim(
    # central differences
    "eq-softmax-gradient", per_instance=True, chapter=CH, tol=1e-7,
    statement=r"$\nabla_{w_k} \sum_i \log p_{iy_i} = \sum_i (Y_{ik} - p_{ik})\,x_i$",
    foil=r"$\nabla_{w_k} \sum_i \log p_{iy_i} = \sum_i (p_{ik} - Y_{ik})\,x_i$ (the "
         r"loss's "
    r"gradient for the likelihood's)",
)
def eq_softmax_gradient(rng, foil=False):
    X, _, _ = _problem(rng)
    K = int(rng.integers(2, 5))
    y = rng.integers(0, K, size=X.shape[0])
    Y = (y[:, None] == np.arange(K)).astype(float)
    W = rng.normal(size=(X.shape[1], K))

    def ll(Wflat, X=X, Y=Y, K=K):
        A = X @ Wflat.reshape(-1, K)
        return float(np.sum(A * Y) - np.sum(np.logaddexp.reduce(A, axis=1)))

    num = numerical_gradient(ll, W.ravel()).reshape(W.shape)
    sign = -1 if foil else 1
    return rel_error(num, sign * X.T @ (Y - lg.softmax(X @ W)))


@claim(
    "eq-softmax-redundancy", per_instance=True, chapter=CH, tol=1e-14,
    statement=r"$\operatorname{softmax}(x^\top(W + c\mathbf 1^\top)) = "
              r"\operatorname{softmax}(x^\top W)$",
    foil=r"$\operatorname{softmax}(x^\top(2W)) = \operatorname{softmax}(x^\top W)$ (a "
         r"scale "
    r"for a shift)",
)
def eq_softmax_redundancy(rng, foil=False):
    X, _, c = _problem(rng)
    W = rng.normal(size=(X.shape[1], int(rng.integers(2, 6))))
    changed = 2 * W if foil else W + c[:, None]
    return rel_error(lg.softmax(X @ changed), lg.softmax(X @ W))


@claim(
    # probabilities in [0, 1]: a few ulps
    "eq-softmax-two-classes", per_instance=True, chapter=CH, tol=1e-14,
    measure="abs. difference", statement=r"$K = 2$: $p_{i1} = g(x_i^\top (w_1 - w_0))$",
    foil=r"$K = 2$: $p_{i1} = g(x_i^\top (w_0 - w_1))$ (the classes swapped)",
)
def eq_softmax_two_classes(rng, foil=False):
    X, _, _ = _problem(rng)
    W = rng.normal(size=(X.shape[1], 2))
    w = W[:, 0] - W[:, 1] if foil else W[:, 1] - W[:, 0]
    diff = lg.softmax(X @ W)[:, 1] - lg.sigmoid(X @ w)
    return float(np.max(np.abs(diff)))


# -- probit ----------------------------------------------------------------------------


def _probit_loglik(w, X, y):
    # written with scipy.stats.norm, independently of logistic._probit_terms
    from scipy.stats import norm

    a = X @ w
    return float(np.sum(y * norm.logcdf(a) + (1 - y) * norm.logcdf(-a)))


@claim(
    "eq-probit-hessian", per_instance=True, chapter=CH, tol=1e-5,  # second differences
    statement=r"$\nabla \ell = X^\top\lambda$, $\nabla^2 \ell = -X^\top "
              r"\operatorname{diag}(\lambda_i(\lambda_i + a_i)) X$ with "
              r"$\lambda_i = q_i\phi(a_i)/\Phi(q_i a_i)$, $q_i = 2y_i - 1$",
    foil=r"$\nabla^2 \ell = -X^\top \operatorname{diag}(\lambda_i^2) X$ (the $a_i$ "
         r"term of $\phi' = -a\phi$ lost)",
)
def eq_probit_hessian(rng, foil=False):
    # finite differences of the log-likelihood against the formulas; second differences
    # are accurate to about 1e-8 relative, first to 1e-10
    from scipy.stats import norm

    X, y, w = _problem(rng)
    a = X @ w
    q = 2 * y - 1
    lam = q * norm.pdf(a) / norm.cdf(q * a)
    weights = lam**2 if foil else lam * (lam + a)
    grad = rel_error(numerical_gradient(lambda v: _probit_loglik(v, X, y), w),
                     X.T @ lam)
    hess = rel_error(numerical_hessian(lambda v: _probit_loglik(v, X, y), w),
                     -(X * weights[:, None]).T @ X)
    return max(grad, hess)


@claim(
    "eq-probit-fisher-weights", per_instance=True, chapter=CH, tol=1e-12,
    statement=r"$\mathbb{E}_{y_i}[\lambda_i(\lambda_i + a_i)] = \phi(a_i)^2 / "
              r"(\Phi(a_i)\Phi(-a_i))$ for $y_i \sim$ Bernoulli$(\Phi(a_i))$",
    foil=r"$\mathbb{E}_{y_i}[\lambda_i(\lambda_i + a_i)] = \Phi(a_i)\Phi(-a_i)$ (the "
         r"logit's weights $g(1 - g)$ with $\Phi$ for $g$)",
)
def eq_probit_fisher_weights(rng, foil=False):
    # the expectation is a two-term sum over y in {0, 1}, evaluated
    # exactly; the scores have standard deviation 2, so Phi(+-a) stays far
    # enough from 0 that no digit is lost
    from scipy.stats import norm

    a = rng.normal(scale=2.0, size=200)
    expected = 0.0
    for y, prob in ((1.0, norm.cdf(a)), (0.0, norm.cdf(-a))):
        q = 2 * y - 1
        lam = q * norm.pdf(a) / norm.cdf(q * a)
        expected = expected + prob * lam * (lam + a)
    claimed = (norm.cdf(a) * norm.cdf(-a) if foil
               else norm.pdf(a) ** 2 / (norm.cdf(a) * norm.cdf(-a)))
    return rel_error(expected, claimed)


@claim(
    "eq-multiclass-cost-shift", per_instance=True, chapter=CH, tol=0,
    measure="disagreement rate",
    statement=r"with misclassification costs $\gamma_s$, the minimum-risk class is "
              r"$\arg\max_s (\beta_{s0}' + \ln(\gamma_s/\gamma_C) + \beta_s^\top x)$, "
              r"class $C$ scoring 0",
    foil=r"$\arg\max_s (\beta_{s0}' - \ln(\gamma_s/\gamma_C) + \beta_s^\top x)$ (the "
         r"shift's sign reversed, as if $\beta_0'$ were $\beta_0$)",
    exact="a disagreement rate between two argmax rules: 0 when they pick the same "
          "class at every point",
)
def eq_multiclass_cost_shift(rng, foil=False):
    # the risk of deciding c is sum_{s != c} gamma_s p_s = const - gamma_c p_c,
    # computed from the softmax posteriors with class C (the last) as
    # reference; against the shifted scores
    C = int(rng.integers(3, 6))
    X = rng.normal(size=(500, 3))
    # beta_s, beta_C = 0
    B = np.column_stack([rng.normal(size=(3, C - 1)), np.zeros(3)])
    # beta'_s0 of the fitted posterior, beta'_C0 = 0
    b0 = np.r_[rng.normal(size=C - 1), 0.0]
    gamma = np.exp(rng.uniform(-2, 2, size=C))
    scores = X @ B + b0
    p = lg.softmax(scores)
    risk = (p * gamma).sum(axis=1, keepdims=True) - p * gamma
    sign = -1 if foil else 1
    shifted = scores + sign * np.log(gamma / gamma[-1])
    return float(np.mean(np.argmin(risk, axis=1) != np.argmax(shifted, axis=1)))


# -- generalised linear models ---------------------------------------------------------
# The four family/link pairs of sec-glm, written from scipy's inverse links
# and the densities (none from mlnotes.logistic): inverse link, its derivative
# and the variance function V(mu).
def _glm_pairs():
    from scipy.special import expit, ndtr
    from scipy.stats import norm

    return {
        ("gaussian", "identity"): (lambda e: e, lambda e: np.ones_like(e),
                                   lambda m: np.ones_like(m)),
        ("binomial", "logit"): (expit, lambda e: expit(e) * expit(-e),
                                lambda m: m * (1 - m)),
        ("binomial", "probit"): (ndtr, norm.pdf, lambda m: m * (1 - m)),
        ("poisson", "log"): (np.exp, np.exp, lambda m: m),
    }


def _glm_draw(rng, family, mu, phi):
    if family == "gaussian":
        return mu + np.sqrt(phi) * rng.standard_normal(mu.size)
    if family == "binomial":
        return (rng.uniform(size=mu.size) < mu).astype(float)
    return rng.poisson(mu).astype(float)


def _glm_logpdf(family, y, mu, phi):
    # the densities written out (broadcasting over a K x n grid of outcomes at once)
    from scipy.special import gammaln, xlogy

    if family == "gaussian":
        return -0.5 * np.log(2 * np.pi * phi) - (y - mu) ** 2 / (2 * phi)
    if family == "binomial":
        return xlogy(y, mu) + xlogy(1 - y, 1 - mu)
    return xlogy(y, mu) - mu - gammaln(y + 1)


@claim(
    "eq-glm-mean-variance", per_instance=True, chapter=CH, tol=1e-6,
    statement=r"for $p(y \mid \theta) = h(y, \phi)\exp\{(y\theta - A(\theta))/\phi\}$: "
    r"$\mathbb{E}y = A'(\theta)$ and $\operatorname{Var}y = \phi A''(\theta)$ "
    r"(Gaussian, Bernoulli, Poisson)",
    foil=r"$\operatorname{Var}y = A''(\theta)$ (the dispersion $\phi$ dropped)",
)
def eq_glm_mean_variance(rng, foil=False):
    # Moments from the densities themselves (a sum over {0, 1} and over 0..K for the
    # Poisson, Gauss-Hermite quadrature, exact for these polynomials, for the Gaussian),
    # against central differences of A: about 1e-8 relative; tol 1e-6.
    from scipy.special import gammaln

    theta, phi = rng.uniform(-2, 2), rng.uniform(2.0, 4.0)
    k = np.arange(200.0)
    nodes, weights = np.polynomial.hermite_e.hermegauss(10)
    families = {  # A, phi, the moments E y and E y^2 from the density
        "bernoulli": (lambda t: np.logaddexp(0, t), 1.0,
                      lambda: (lambda p: (p, p))(
                          np.exp(theta - np.logaddexp(0, theta)))),
        "poisson": (np.exp, 1.0,
                    lambda: (lambda p: (p @ k, p @ k**2))(
                        np.exp(k * theta - np.exp(theta) - gammaln(k + 1)))),
        "gaussian": (lambda t: t**2 / 2, phi,  # y = theta + sqrt(phi) u, u ~ N(0, 1)
                     lambda: (lambda y: (weights @ y / weights.sum(),
                                         weights @ y**2 / weights.sum()))(
                         theta + np.sqrt(phi) * nodes)),
    }
    worst = 0.0
    for A, ph, moments in families.values():
        mean, second = moments()
        t = np.array([theta])
        dA = numerical_gradient(lambda v, A=A: float(A(v[0])), t)[0]
        d2A = numerical_hessian(lambda v, A=A: float(A(v[0])), t)[0, 0]
        var_claim = d2A if foil else ph * d2A
        worst = max(worst, rel_error(mean, dA), rel_error(second - mean**2, var_claim))
    return worst


@claim(
    "eq-glm-score-fisher", per_instance=True, chapter=CH, tol=1e-5,
    statement=r"$\nabla\ell(w) = X^\top s$ with $s_i = \mu_i'(y_i - \mu_i)/(\phi "
    r"V(\mu_i))$ and $I(w) = \mathbb{E}[-\nabla^2\ell(w)] = X^\top W X$ with $W_{ii} = "
    r"\mu_i'^2/(\phi V(\mu_i))$, for the identity, logit, probit and log links",
    foil=r"$s_i = (y_i - \mu_i)/\phi$ and $W_{ii} = \mu_i'/\phi$ for every link (the "
    r"canonical link's forms, wrong for the probit)",
)
def eq_glm_score_fisher(rng, foil=False):
    # The log-likelihood from the densities, differentiated numerically; the Fisher
    # information as the Hessian of E_y l(w) at w0 with y distributed as the model at
    # w0, the expectation taken exactly (two outcomes; Poisson counts far into the
    # tail; Gauss-Hermite, exact for the Gaussian's quadratic). Second differences:
    # about 1e-7 relative; tol 1e-5.
    n, d = int(rng.integers(10, 30)), int(rng.integers(1, 4))
    X = rng.standard_normal((n, d))
    w0 = rng.standard_normal(d) * 0.5
    worst = 0.0
    for (family, _link), (inv, dinv, V) in _glm_pairs().items():
        phi = rng.uniform(0.5, 3.0) if family == "gaussian" else 1.0
        eta = X @ w0
        mu, dmu = inv(eta), dinv(eta)
        y = _glm_draw(rng, family, mu, phi)

        def loglik(w, y=y, phi=phi, family=family, inv=inv):
            return float(np.sum(_glm_logpdf(family, y, inv(X @ w), phi)))

        # the outcomes (rows) and their probabilities under the model at w0
        if family == "binomial":
            Y, P = np.array([np.ones(n), np.zeros(n)]), np.array([mu, 1 - mu])
        elif family == "poisson":
            top = mu.max() + 15 * np.sqrt(mu.max()) + 20  # the tail beyond: < 1e-40
            Y = np.repeat(np.arange(np.ceil(top))[:, None], n, axis=1)
            P = np.exp(_glm_logpdf("poisson", Y, mu, 1.0))
        else:
            nodes, wts = np.polynomial.hermite_e.hermegauss(4)
            Y = mu + np.sqrt(phi) * nodes[:, None]
            P = np.repeat((wts / wts.sum())[:, None], n, axis=1)

        def expected_loglik(w, Y=Y, P=P, phi=phi, family=family, inv=inv):
            return float(np.sum(P * _glm_logpdf(family, Y, inv(X @ w), phi)))

        score = numerical_gradient(loglik, w0)
        fisher = -numerical_hessian(expected_loglik, w0)
        if foil:
            s, Wd = (y - mu) / phi, dmu / phi
        else:
            s, Wd = dmu * (y - mu) / (phi * V(mu)), dmu**2 / (phi * V(mu))
        worst = max(worst, rel_error(score, X.T @ s),
                    rel_error(fisher, (X * Wd[:, None]).T @ X))
    return worst


@claim(
    "eq-glm-irls-step", per_instance=True, chapter=CH, tol=1e-10,
    statement=r"the Fisher scoring step $w + I(w)^{-1}\nabla\ell(w)$ is the weighted "
    r"least-squares fit $(X^\top W X)^{-1} X^\top W z$ of the working response "
    r"$z_i = \eta_i + (y_i - \mu_i)/\mu_i'$",
    foil=r"$z_i = \eta_i + (y_i - \mu_i)$ (the division by $\mu_i' = d\mu_i/d\eta_i$ "
    r"forgotten; right for the identity link only)",
)
def eq_glm_irls_step(rng, foil=False):
    # left: the step from the score and information of eq-glm-score-fisher, solved with
    # numpy; right: a least-squares solver on (W^{1/2} X, W^{1/2} z). Well-conditioned
    # (n >= 3d, Gaussian X): rounding only.
    n, d = int(rng.integers(15, 50)), int(rng.integers(1, 5))
    X = rng.standard_normal((n, d))
    w = rng.standard_normal(d) * 0.5
    worst = 0.0
    for (family, _link), (inv, dinv, V) in _glm_pairs().items():
        phi = rng.uniform(0.5, 3.0) if family == "gaussian" else 1.0
        eta = X @ w
        mu, dmu = inv(eta), dinv(eta)
        y = _glm_draw(rng, family, mu, phi)
        Wd = dmu**2 / (phi * V(mu))
        step = w + np.linalg.solve((X * Wd[:, None]).T @ X,
                                   X.T @ (dmu * (y - mu) / (phi * V(mu))))
        z = eta + (y - mu) if foil else eta + (y - mu) / dmu
        r = np.sqrt(Wd)
        wls = np.linalg.lstsq(X * r[:, None], z * r, rcond=None)[0]
        worst = max(worst, rel_error(step, wls))
    return worst
