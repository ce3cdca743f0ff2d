# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown] tags=["remove-cell"]
# ---
# numbering:
#   enumerator: '7.%s'
#   headings: true
#   figure:
#     template: Fig. %s
# math:
#   '\R': '\mathbb{R}'
#   '\E': '\mathbb{E}'
#   '\argmin': '\operatorname*{arg\,min}'
#   '\argmax': '\operatorname*{arg\,max}'
#   '\sign': '\operatorname{sign}'
#   '\tr': '\operatorname{tr}'
#   '\diag': '\operatorname{diag}'
#
# ---
# $\def\R{\mathbb{R}}\def\E{\mathbb{E}}\def\argmin{\operatorname*{arg\,min}}\def\argmax{\operatorname*{arg\,max}}\def\sign{\operatorname{sign}}\def\tr{\operatorname{tr}}\def\diag{\operatorname{diag}}$
# <!-- The book's maths macros, defined for notebook viewers (this cell is not in the book;
# book/preamble.py writes it). -->

# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Install the course package if it is missing (Colab, a downloaded notebook)
import importlib

try:
    importlib.import_module("mlnotes")
except ImportError:  # Colab or a fresh kernel: install this chapter's version
    import subprocess
    import sys

    requirement = "mlnotes @ git+https://github.com/mlnotes/mlnotes@v0.1.0"
    pip = [sys.executable, "-m", "pip", "install", "--quiet", requirement]
    subprocess.run(pip, check=True)
    importlib.invalidate_caches()

# %% [markdown]
# (chap-learning-theory)=
# # Learning theory: Hoeffding, the union bound and the VC dimension
#
# Every chapter so far has minimised an error on a training set. This chapter asks what that
# buys on data we have not seen: how far can the training error of a classifier be from its
# error on the distribution the data come from, and how much data makes the classifier chosen
# by minimising training error nearly as good as the best one available? For a finite class of
# hypotheses the answer takes one inequality about coin flips and one about unions of events.
# Each bound is checked twice: exactly, against the binomial distribution it bounds, and by
# simulation, on a distribution whose true errors we know.
#
# **What you will learn**
#
# - the difference between training error and generalisation error;
# - Hoeffding's inequality, how to check it against the exact binomial tail and against a
#   simulation without letting Monte Carlo noise hide an error, and how loose it is;
# - the union bound and the uniform deviation bound for a class of $k$ hypotheses, and the
#   sample size it asks for;
# - the guarantee of empirical risk minimisation, $e(\hat h) \le e(h^*) + 2\gamma$, and the
#   trade-off between a rich class and a small $\gamma$;
# - a proof of Hoeffding's inequality through Hoeffding's lemma and Chernoff's method;
# - PAC and agnostic PAC learnability, uniform convergence, and why the realisable case
#   needs only $\log(k/\delta)/\epsilon$ samples where the agnostic case needs order
#   $1/\epsilon^2$;
# - an interval for the error of a trained classifier from its test error, and what it
#   promises;
# - (beyond the notes) a tighter Chernoff bound; the growth function, the VC dimension,
#   Sauer's lemma and the VC bound for infinite classes.

# %%
import matplotlib.pyplot as plt
import numpy as np

from mlnotes import boosting, bounds, claims, plots

plots.setup()
np.set_printoptions(precision=4, suppress=True)
rng = np.random.default_rng(7)

# %% [markdown]
# (sec-train-vs-gen)=
# ## Training error and generalisation error
#
# A training set $\{(x_i, y_i)\}_{i=1}^m$ is drawn independently from a distribution
# $\mathcal D$ over inputs and labels $y \in \{-1, +1\}$. A hypothesis $h$ has a **training
# error** and a **generalisation error**:
#
# $$
# \hat e(h) = \frac{1}{m} \sum_{i=1}^m [h(x_i) \ne y_i],
# $$ (def-training-error)
#
# $$
# e(h) = P_{(x, y) \sim \mathcal D}\bigl(h(x) \ne y\bigr).
# $$ (def-generalisation-error)
#
# We only ever see $\hat e$; we care about $e$. To check the theory we need a distribution
# where $e$ is known exactly. Ours: $x$ uniform on $[0, 1]$, and $y = \sign(x - \theta)$ with
# $\theta = 0.3$, flipped with probability $\eta = 0.1$ (label noise). The hypotheses are
# **threshold stumps** $h_{t,s}(x) = s$ if $x > t$ and $-s$ otherwise, the one-feature weak
# learners of {doc}`Chapter 6 </notebooks/06_adaboost>`, with thresholds on a fixed grid
# $t_j = j/(n + 1)$ and both polarities $s = \pm 1$: a **finite class** of $k = 2n$
# hypotheses. A stump $h_{t,+1}$ disagrees with the noiseless label on an interval of length
# $|t - \theta|$, so
#
# $$
# e(h_{t,+1}) = \eta + (1 - 2\eta)\,|t - \theta|, \qquad e(h_{t,-1}) = 1 - e(h_{t,+1}).
# $$ (def-stump-error)
#
# No stump beats $e = \eta$, the error of the best classifier of all (the Bayes classifier
# $\sign(x - \theta)$). Here is one training set of $m = 40$ points and a few stumps:

# %%
H = bounds.stump_class(7, theta=0.3, eta=0.1)
X, y = H.sample(40, rng=rng)
e_hat, e = H.training_errors(X, y)[0], H.generalisation_error
print(f"k = {H.k} stumps, thresholds {H.thresholds.round(3)}")
print(" t      s   train error  gen. error")
for j in (0, 1, 2, 3, 9):
    print(
        f"{H.thresholds[j % 7]:.3f} {int(H.polarity[j]):+d}   {e_hat[j]:9.3f}   "
        f"{e[j]:9.3f}"
    )

# %% [markdown]
# The training errors scatter around the generalisation errors. How far they can stray is the
# subject of the rest of the chapter.
#
# (sec-hoeffding)=
# ## Hoeffding's inequality
#
# Fix one hypothesis $h$. The indicators $Z_i = [h(x_i) \ne y_i]$ are independent Bernoulli
# variables with mean $\phi = e(h)$, and $\hat e(h)$ is their average $\hat\phi$. The
# deviation of such an average from its mean is controlled by:
#
# ```{prf:theorem} Hoeffding's inequality for Bernoulli means
# :label: thm-hoeffding
# Let $Z_1, \dots, Z_m$ be independent Bernoulli($\phi$) variables and
# $\hat\phi = \frac1m \sum_i Z_i$. For every $\gamma > 0$,
#
# $$
# P(|\hat\phi - \phi| > \gamma) \le 2 \exp(-2 \gamma^2 m).
# $$ (eq-hoeffding)
# ```
#
# The proof is short enough to give in full {cite}`hoeffding1963probability`
# (see also {cite}`shalev2014understanding`, appendix B); we prove the upper tail
# $P(\hat\phi - \phi \ge \gamma)$, and the lower tail follows by applying it to the
# variables $1 - Z_i$.
#
# **Chernoff's method.** For any $\lambda > 0$ the map $t \mapsto e^{\lambda t}$ is increasing
# and positive, so Markov's inequality applied to $e^{\lambda m(\hat\phi - \phi)}$, and then
# independence (the expectation of a product of independent variables is the product of
# their expectations), give
#
# $$
# P(\hat\phi - \phi \ge \gamma) \le e^{-\lambda m\gamma}\,
# E\bigl[e^{\lambda m(\hat\phi - \phi)}\bigr]
# = e^{-\lambda m\gamma} \prod_{i=1}^m E\bigl[e^{\lambda(Z_i - \phi)}\bigr].
# $$ (eq-chernoff-method)
#
# The claim compares the exact one-sided binomial tail with the right side, the Bernoulli
# moment generating function $E[e^{\lambda(Z - \phi)}] = (1 - \phi)e^{-\lambda\phi} +
# \phi e^{\lambda(1 - \phi)}$ raised to the power $m$, at a random $\lambda$: the bound holds
# for every $\lambda > 0$, not only the best one.

# %%
claims.verify("eq-chernoff-method")

# %% [markdown]
# What remains is to bound one factor by something that does not depend on $\phi$.
#
# ```{prf:lemma} Hoeffding's lemma
# :label: thm-hoeffding-lemma
# Let $X$ take values in $[a, b]$ with $E[X] = 0$. For every real $\lambda$,
#
# $$
# E\bigl[e^{\lambda X}\bigr] \le e^{\lambda^2 (b - a)^2 / 8}.
# $$ (eq-hoeffding-lemma)
# ```
#
# ```{prf:proof}
# The exponential is convex, so on $[a, b]$ it lies below its chord:
# $e^{\lambda x} \le \frac{b - x}{b - a} e^{\lambda a} + \frac{x - a}{b - a} e^{\lambda b}$.
# Taking expectations, with $E[X] = 0$,
#
# $$
# E\bigl[e^{\lambda X}\bigr] \le \frac{b e^{\lambda a} - a e^{\lambda b}}{b - a}.
# $$ (eq-hoeffding-lemma-convexity)
#
# Write $p = -a/(b - a) \in (0, 1)$ and $h = \lambda(b - a)$. Dividing out
# $e^{\lambda a} = e^{-hp}$, the right side is $e^{L(h)}$ with
#
# $$
# L(h) = -hp + \log\bigl(1 - p + p e^h\bigr) \le \frac{h^2}{8}.
# $$ (eq-hoeffding-lemma-taylor)
#
# The inequality is Taylor's theorem: $L(0) = 0$; $L'(h) = -p + q$ with
# $q = pe^h / (1 - p + pe^h)$, so $L'(0) = 0$; and $L''(h) = q(1 - q) \le 1/4$ for every
# $h$. So $L(h) = \tfrac12 L''(\xi) h^2 \le h^2/8$ for some $\xi$ between 0 and $h$, and
# $h^2/8 = \lambda^2 (b - a)^2/8$.
# ```
#
# Each step has a claim: the chord bound on random distributions with mean 0 (its foil,
# $E[e^{\lambda X}] \le e^{\lambda E[X]}$, is Jensen's inequality the wrong way round);
# the identity and $L(h) \le h^2/8$ on a grid of $h$; and the lemma itself, tight to second
# order for a centred Bernoulli variable with $\phi = 1/2$, where $E[e^{\lambda X}] =
# \cosh(\lambda/2)$.

# %%
claims.verify("eq-hoeffding-lemma-convexity")

# %%
claims.verify("eq-hoeffding-lemma-taylor")

# %%
claims.verify("eq-hoeffding-lemma")

# %% [markdown]
# **Choosing $\lambda$.** Each $Z_i - \phi$ lies in $[-\phi, 1 - \phi]$, an interval of
# length 1, so by the lemma each factor of {eq}`eq-chernoff-method` is at most
# $e^{\lambda^2/8}$ and the bound is $e^{-\lambda m\gamma + m\lambda^2/8}$. The exponent is
# a parabola in $\lambda$, smallest where its derivative $-m\gamma + m\lambda/4$ vanishes,
# at $\lambda = 4\gamma$:
#
# $$
# P(\hat\phi - \phi \ge \gamma) \le \min_{\lambda > 0} e^{-\lambda m\gamma + m\lambda^2/8}
# = e^{-2\gamma^2 m}.
# $$ (eq-hoeffding-one-sided)
#
# The claim checks the value at $\lambda = 4\gamma$, that no $\lambda$ of a grid does
# better, and the exact one-sided tail against the result.

# %%
claims.verify("eq-hoeffding-one-sided")

# %% [markdown]
# The same bound for $1 - Z_i$ gives $P(\hat\phi - \phi \le -\gamma) \le e^{-2\gamma^2 m}$,
# and the union of the two events gives the factor 2 of {eq}`eq-hoeffding` (for the strict
# inequality $> \gamma$ as well, since it is the smaller event). Nothing in the proof used
# that $Z_i$ is Bernoulli beyond $Z_i \in [0, 1]$: the same inequality holds for means of
# any independent variables with values in $[0, 1]$.
#
# **Checking the theorem.** The left side of {eq}`eq-hoeffding` is known exactly:
# $m\hat\phi$ is Binomial($m$, $\phi$), so
#
# $$
# P(|\hat\phi - \phi| > \gamma) = \sum_{s = 0}^{m} \bigl[\,|s - m\phi| > m\gamma\,\bigr]
# \binom{m}{s} \phi^s (1 - \phi)^{m - s},
# $$ (def-binomial-tail)
#
# a finite sum (`bounds.binomial_tail`, equal to `scipy.stats.binom` in the tests). The claim
# compares the exact tail with the bound on a random grid of $(m, \phi, \gamma)$, with no
# randomness in the comparison. It then simulates: $R = 10\,000$ sample means at each grid
# point, and asks whether the frequency of deviations exceeds the bound. A frequency is
# random, so "exceeds" must mean "exceeds by more than Monte Carlo noise allows": if the true
# probability is at most the bound $B$, the count of deviations is at most a Binomial($R$, $B$)
# variable (stochastically), and the claim computes the frequency that such a count exceeds
# with probability at most $\alpha/n$ (`bounds.mc_interval`, exact binomial quantiles). With a union bound over
# the $n$ grid points, a true inequality is declared false with probability at most
# $\alpha = 10^{-6}$; a false one is caught once it is off by a few standard errors
# $\sqrt{B(1 - B)/R}$.

# %%
claims.verify("eq-hoeffding")

# %% [markdown]
# How loose is the bound? A few points of the grid, with the exact tail, a simulation, and the
# "MC limit": the frequency that a probability equal to the bound would exceed only with
# probability $10^{-6}/12$:

# %%
R = 20_000
grid = [(m, phi, g) for g in (0.05, 0.1) for phi in (0.5, 0.1) for m in (10, 100, 1000)]
m_g, phi_g, gam_g = (np.array(v) for v in zip(*grid, strict=True))
exact = bounds.binomial_tail(m_g, phi_g, gam_g)
freq = bounds.simulate_deviation(m_g, phi_g, gam_g, n_rep=R, rng=rng)
bound = bounds.hoeffding_bound(m_g, gam_g)
_, hi = bounds.mc_interval(bound, R, 1e-6 / len(grid))
print(
    "   m   phi  gamma    exact tail  simulated  MC limit of bound  Hoeffding  "
    "bound/exact"
)
for row in zip(m_g, phi_g, gam_g, exact, freq, hi, bound, strict=True):
    m, phi, g, ex, fr, lim, b = row
    print(
        f"{m:4d}  {phi:4.2f}  {g:5.2f}   {ex:11.3e}  {fr:9.5f}  {lim:17.5f}  {b:9.3e}  "
        f"{b / ex:11.3g}"
    )

# %% [markdown]
# At $m = 10$ the bound exceeds 1 and says nothing. Where it says something it is too large
# by a factor that grows with $m$ and is larger for $\phi$ far from $1/2$: Hoeffding's bound
# ignores $\phi$, and a Bernoulli variable with small $\phi$ has a small variance
# $\phi(1 - \phi)$. The figure shows the same story against $m$ on a log scale ({numref}`fig-hoeffding`).

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "The probability that a sample mean deviates by more than $\\gamma$ against $m$, for $\\phi = 1/2$ (left) and $\\phi = 0.1$ (right): Hoeffding's bound, the exact binomial tail and a simulation.", "name": "fig-hoeffding"}, "image": {"alt": "Two log-scale panels with a straight Hoeffding line above the exact tail and simulated points."}} tags=["hide-input"]
ms = np.unique(np.round(np.geomspace(1, 2000, 40)).astype(int))
fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), sharey=True)
tail_below_bound = []
for ax, phi in zip(axes, (0.5, 0.1), strict=True):
    g = 0.1
    ex = bounds.binomial_tail(ms, phi, g)
    tail_below_bound.append(bool(np.all(ex <= bounds.hoeffding_bound(ms, g))))
    fr = bounds.simulate_deviation(ms, phi, g, n_rep=R, rng=rng)
    ax.semilogy(
        ms,
        np.minimum(bounds.hoeffding_bound(ms, g), 1),
        "k-",
        label=r"Hoeffding $2e^{-2\gamma^2 m}$",
    )
    ax.semilogy(ms, ex, "C0-", label="exact binomial tail")
    shown = fr > 0
    ax.semilogy(ms[shown], fr[shown], "C1o", ms=3, label=f"simulated ({R} repetitions)")
    ax.axhline(1 / R, color="gray", ls=":", lw=1, label="one simulated deviation")
    ax.set_xscale("log")
    ax.set(
        xlabel="sample size $m$",
        title=rf"$\phi = {phi}$, $\gamma = {g}$",
        ylim=(1e-7, 2),
    )
axes[0].set_ylabel(r"$P(|\hat\phi - \phi| > \gamma)$")
axes[0].legend(loc="lower left", fontsize=8)
plt.show()
print(
    f"exact tail below Hoeffding's bound at all {ms.size} sample sizes of both panels:",
    all(tail_below_bound),
)

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-hoeffding
# The probability that a sample mean deviates by more than $\gamma$ against $m$, for $\phi = 1/2$ (left) and $\phi = 0.1$ (right): Hoeffding's bound, the exact binomial tail and a simulation.
# :::

# %% [markdown]
# The simulation follows the exact tail until the probabilities drop below $1/R$, where it can
# only report zero. The bound has the right *kind* of decay, exponential in $m\gamma^2$, but
# not the right rate; section {ref}`sec-beyond` gives a bound with the right rate.
#
# Applied to the indicators of one fixed hypothesis, the inequality reads
#
# $$
# P\bigl(|\hat e(h) - e(h)| > \gamma\bigr) \le 2 \exp(-2\gamma^2 m).
# $$ (eq-hoeffding-training)
#
# Its claim draws training sets from our distribution and checks two things for every stump:
# the simulated frequency of deviations agrees with the exact tail at $\phi = e(h)$ from
# {eq}`def-stump-error`, within Monte Carlo limits on *both* sides (so the model behind the
# bound, "training error is a binomial mean", and the formula for $e(h)$ are right), and the
# exact tail stays below the bound.

# %%
claims.verify("eq-hoeffding-training")

# %% [markdown]
# The word *fixed* matters: $h$ must be chosen before the data are seen. The hypothesis that
# minimises the training error is chosen *by* the data, and its training error is biased
# downwards; bounding it takes the next step.
#
# (sec-union-bound)=
# ## The union bound
#
# For any events, $P(A_1 \cup \dots \cup A_k) \le P(A_1) + \dots + P(A_k)$. Let $A_i$ be the
# event that hypothesis $h_i$ deviates by more than $\gamma$; with Hoeffding's inequality for
# each,
#
# $$
# \begin{aligned}
# P\bigl(\exists h \in \mathcal H : |\hat e(h) - e(h)| > \gamma\bigr)
# &\le \sum_{i=1}^{k} P\bigl(|\hat e(h_i) - e(h_i)| > \gamma\bigr) \\
# &\le 2k \exp(-2\gamma^2 m).
# \end{aligned}
# $$ (eq-union-bound)
#
# The claim checks the middle sum, computed exactly, against the right side, and the simulated
# frequency of "some stump deviates" against the middle sum.

# %%
claims.verify("eq-union-bound")

# %% [markdown]
# The union bound pays for every hypothesis as if its deviations were unrelated to the
# others'. Stumps with neighbouring thresholds err on almost the same points, so their
# deviations come together, and the bound counts the same bad samples many times over:

# %%
m, g = 100, 0.1
Xs, ys = H.sample(m, n_rep=R, rng=rng)
sup_dev = np.abs(H.training_errors(Xs, ys) - e).max(axis=1)
print(f"k = {H.k}, m = {m}, gamma = {g}")
print(f"P(some stump deviates), simulated     : {np.mean(sup_dev > g):.4f}")
print(
    f"sum of the k exact tails (union bound): "
    f"{bounds.union_bound(bounds.binomial_tail(m, e, g)):.4f}"
)
print(
    f"2k exp(-2 gamma^2 m)                  : {H.k * bounds.hoeffding_bound(m, g):.4f}"
)

# %% [markdown]
# (sec-uniform-deviation)=
# ## Uniform deviation and sample complexity
#
# Set the right side of {eq}`eq-union-bound` equal to a small probability $\delta$ and solve
# for $\gamma$:
#
# $$
# \gamma(m, k, \delta) = \sqrt{\frac{1}{2m} \log\frac{2k}{\delta}} .
# $$ (eq-uniform-deviation)
#
# With probability **at least** $1 - \delta$ over the training set, every hypothesis of the
# class satisfies $|\hat e(h) - e(h)| \le \gamma(m, k, \delta)$ at once. The claim checks that
# $\gamma$ solves $2k e^{-2\gamma^2 m} = \delta$ to rounding, and that the simulated probability
# of a larger deviation stays below $\delta$ within Monte Carlo limits.

# %%
claims.verify("eq-uniform-deviation")

# %% [markdown]
# ```{admonition} Erratum
# :class: warning
# The notes define $\gamma$ by "$P(|\hat e - e| > \gamma) = \delta$" and conclude that the
# bound holds "with probability $1 - \delta$". It is the *bound* on that probability that
# equals $\delta$; the probability itself is at most $\delta$, and the guarantee holds with
# probability at least $1 - \delta$.
# ```
#
# Already for one hypothesis ($k = 1$), where $m\,\hat e$ is binomial and the probability can
# be summed exactly,
#
# $$
# P\big(|\hat e - e| > \gamma\big) \le 2 e^{-2\gamma^2 m} = \delta ,
# $$ (eq-hoeffding-exact)
#
# where the first inequality is loose: the exact probability is well below $\delta$, not
# equal to it.

# %%
claims.verify("eq-hoeffding-exact")

# %% [markdown]
# With $k$ hypotheses the union bound loosens it further, so the real failure probability is
# far smaller still, as the simulation shows:

# %%
delta = 0.05
rows = [
    f"k = {H.k}, delta = {delta}",
    "    m   gamma(m,k,delta)  P(some |e_hat - e| > gamma), simulated",
]
for m in (20, 100, 500):
    g = bounds.uniform_deviation(m, H.k, delta)
    Xs, ys = H.sample(m, n_rep=R, rng=rng)
    freq = np.mean(np.abs(H.training_errors(Xs, ys) - e).max(axis=1) > g)
    rows.append(f"{m:5d}   {g:16.4f}   {freq:10.5f}")
print("\n".join(rows))

# %% [markdown]
# Read the other way round, {eq}`eq-uniform-deviation` says how many samples make the
# deviation at most a target $\gamma$: $\gamma(m, k, \delta) \le \gamma$ exactly when
#
# $$
# m \ge m(k, \gamma, \delta) = \left\lceil \frac{1}{2\gamma^2} \log\frac{2k}{\delta} \right\rceil .
# $$ (eq-sample-complexity)
#
# The claim checks that $m(k, \gamma, \delta)$ is enough and that $m - 1$ is not, including
# targets $\gamma$ that fall exactly on an integer $m$, where a careless ceiling of a rounded
# quotient asks for one sample too many.

# %%
claims.verify("eq-sample-complexity")

# %%
print("      k    gamma  delta   m(k, gamma, delta)")
for k in (2, 14, 1000, 10**6):
    for g in (0.05, 0.01):
        print(
            f"{k:7d}  {g:6.2f}  {0.05:5.2f}   "
            f"{bounds.sample_complexity(k, g, 0.05):10d}"
        )

# %% [markdown]
# The class size enters through $\log k$: a million hypotheses need about three times the
# data of fourteen. Halving $\gamma$ costs four times the data.
#
# (sec-erm)=
# ## Empirical risk minimisation
#
# **Empirical risk minimisation** (ERM) picks the hypothesis with the smallest training
# error; we compare it with the best hypothesis *of the class*:
#
# $$
# \hat h = \argmin_{h \in \mathcal H} \hat e(h), \qquad h^* = \argmin_{h \in \mathcal H} e(h).
# $$ (def-erm)
#
# ```{prf:theorem} ERM on a finite class
# :label: thm-erm
# With probability at least $1 - \delta$ over a training set of size $m$, with
# $\gamma = \gamma(m, k, \delta)$ from {eq}`eq-uniform-deviation`,
#
# $$
# e(\hat h) \le \hat e(\hat h) + \gamma \le \hat e(h^*) + \gamma \le e(h^*) + 2\gamma .
# $$ (eq-erm-guarantee)
# ```
#
# ```{prf:proof}
# On the event of {eq}`eq-uniform-deviation`, every hypothesis of the class has
# $|\hat e(h) - e(h)| \le \gamma$. The first and last steps apply this to $\hat h$ and to
# $h^*$, both in $\mathcal H$; the middle step holds because $\hat h$ minimises the training
# error over $\mathcal H$, which contains $h^*$.
# ```
#
# The proof shows more: on *every* training set, $e(\hat h) \le e(h^*) + 2D$ with
# $D = \max_{h} |\hat e(h) - e(h)|$ the realised uniform deviation. The claim checks this on
# every simulated training set (an exact check, up to rounding), and checks that the
# frequency of $e(\hat h) > e(h^*) + 2\gamma$ stays below $\delta$ within Monte Carlo limits.

# %%
claims.verify("eq-erm-guarantee")

# %% [markdown]
# The figure runs ERM over $k = 62$ stumps on 1000 training sets for each $m$, and compares the
# excess error $e(\hat h) - e(h^*)$ with the guarantee $2\gamma$ ({numref}`fig-erm-guarantee`).

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "ERM over 62 stumps: the mean and 95 % quantile of the excess error $e(\\hat h) - e(h^*)$ over 1000 training sets, below the guarantee $2\\gamma(m, k, \\delta)$.", "name": "fig-erm-guarantee"}, "image": {"alt": "Log-log plot of the guarantee line above two excess-error curves, all falling with sample size."}} tags=["hide-input"]
H62 = bounds.stump_class(31, theta=0.3, eta=0.1)
ms_erm = np.unique(np.round(np.geomspace(10, 2000, 12)).astype(int))
runs = [bounds.erm_simulation(H62, m, delta=0.05, n_rep=1000, rng=rng) for m in ms_erm]
excess = np.array([r.gen_error - r.best_error for r in runs])
fig, ax = plt.subplots()
ax.loglog(
    ms_erm,
    [2 * r.gamma for r in runs],
    "k-",
    label=r"guarantee $2\gamma(m, k, \delta)$, $\delta = 0.05$",
)
ax.loglog(
    ms_erm,
    np.quantile(excess, 0.95, axis=1) + 1e-4,
    "C1s-",
    ms=4,
    label=r"95% quantile of $e(\hat h) - e(h^*)$",
)
ax.loglog(
    ms_erm,
    excess.mean(axis=1) + 1e-4,
    "C0o-",
    ms=4,
    label=r"mean of $e(\hat h) - e(h^*)$",
)
ax.set(xlabel="sample size $m$", ylabel="excess error (+ $10^{-4}$ to show zeros)")
ax.legend(fontsize=8)
plt.show()
print(
    "max over m of the failure rate P(e(h_hat) > e(h*) + 2 gamma):",
    f"{max(r.failure_rate for r in runs):.4f}",
)

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-erm-guarantee
# ERM over 62 stumps: the mean and 95 % quantile of the excess error $e(\hat h) - e(h^*)$ over 1000 training sets, below the guarantee $2\gamma(m, k, \delta)$.
# :::

# %% [markdown]
# The guarantee holds with a wide margin at every $m$, and the true excess error falls faster
# than $1/\sqrt m$ here: the bound is a worst case over all distributions, and this one is
# easy (the best stump is separated from the next by a clear gap).
#
# ```{note}
# The notes call $h^*$ "the best possible hypothesis"; their last paragraph makes it the best
# hypothesis *in the class*, and it must be: the middle step of {eq}`eq-erm-guarantee` compares $\hat h$ with $h^*$ on the
# training set, which needs $h^* \in \mathcal H$. Against the best classifier of all the
# guarantee fails whenever the class cannot represent it. With the single threshold $t = 1/2$
# ($k = 2$) and plenty of data, ERM finds the best stump, whose error $0.26$ is far above
# the Bayes error $\eta = 0.1$ plus $2\gamma$:
# ```

# %%
H2 = bounds.stump_class(1, theta=0.3, eta=0.1)
r = bounds.erm_simulation(H2, 5000, delta=0.05, n_rep=200, rng=rng)
print(
    f"e(h*) = {r.best_error:.3f}, Bayes error = {H2.bayes_error:.3f}, 2 gamma = "
    f"{2 * r.gamma:.4f}"
)
print(
    f"fraction of training sets with e(h_hat) > Bayes error + 2 gamma: "
    f"{np.mean(r.gen_error > H2.bayes_error + 2 * r.gamma):.3f}"
)

# %% [markdown]
# **Chapter 6's stump.** `boosting.best_stump` searches every threshold between consecutive
# training points, a class that depends on the sample, rather than a grid fixed in advance.
# When the grid is fine enough to put a threshold in every gap between training points, the two
# searches realise the same labellings of the sample, so they reach the same training error
# (when several stumps tie, they may pick different ones; here they agree on every point):

# %%
H_fine = bounds.stump_class(1023, theta=0.3, eta=0.1)
x1, y1 = H_fine.sample(50, rng=rng)
E1 = H_fine.training_errors(x1, y1)[0]
j_hat = int(np.argmin(E1))
stump = boosting.best_stump(x1.reshape(-1, 1), y1[0])
same = np.array_equal(stump.predict(x1.reshape(-1, 1)), H_fine.predict(j_hat, x1[0]))
print(
    f"grid ERM     : t = {H_fine.thresholds[j_hat % 1023]:.4f}, s = "
    f"{int(H_fine.polarity[j_hat]):+d}, training error {E1[j_hat]:.3f}"
)
print(
    f"best_stump   : t = {stump.threshold:.4f}, s = {stump.polarity:+d}, training "
    f"error {stump.eps:.3f}"
)
print(f"same predictions on the sample: {same}")

# %% [markdown]
# The thresholds differ only inside a gap between two training points, where no training
# point can tell them apart. The bound of this chapter covers the grid class ($k = 2046$);
# for Chapter 6's data-dependent class, section {ref}`sec-beyond` says what replaces $\log k$.
#
# (sec-tradeoff)=
# ## The size of the class: a trade-off
#
# Take nested classes $\mathcal H_1 \subset \mathcal H_2 \subset \cdots$ of sizes $k_1 < k_2 <
# \dots$ (our stump grids with $n + 1 = 2, 4, 8, \dots$ are nested). By {eq}`eq-erm-guarantee`,
# with probability at least $1 - \delta$,
#
# $$
# e(\hat h_k) \le \underbrace{\min_{h \in \mathcal H_k} e(h)}_{\text{approximation}}
# + \underbrace{2\sqrt{\frac{1}{2m}\log\frac{2k}{\delta}}}_{\text{estimation}} ,
# $$ (eq-tradeoff)
#
# where the first term does not increase with $k$ (a larger class contains the smaller one's
# best hypothesis) and the second increases. The claim checks both monotonicities on random
# distributions and sample sizes ({numref}`fig-approximation-estimation`).

# %%
claims.verify("eq-tradeoff")

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "The trade-off in the class size $k$ for $m = 1000$: the approximation error $e(h^*)$ falls, the estimation term $2\\gamma$ rises, and the simulated error of ERM follows their sum.", "name": "fig-approximation-estimation"}, "image": {"alt": "Curves against class size: a falling approximation error, a rising estimation term and their U-shaped sum."}} tags=["hide-input"]
m_t, delta_t = 1000, 0.05
Ls = np.arange(1, 12)
classes = [bounds.stump_class(2**L - 1, theta=0.3, eta=0.1) for L in Ls]
ks = np.array([c.k for c in classes])
best = np.array([c.generalisation_error.min() for c in classes])
gam = bounds.uniform_deviation(m_t, ks, delta_t)
sims = [
    bounds.erm_simulation(c, m_t, delta=delta_t, n_rep=300, rng=rng) for c in classes
]
fig, ax = plt.subplots()
ax.semilogx(ks, best, "C0o-", ms=4, label=r"approximation $e(h^*)$")
ax.semilogx(ks, 2 * gam, "C3s-", ms=4, label=r"estimation $2\gamma(m, k, \delta)$")
ax.semilogx(ks, best + 2 * gam, "k-", lw=2, label="guarantee (sum)")
ax.semilogx(
    ks,
    [s.gen_error.mean() for s in sims],
    "C1^--",
    ms=4,
    label=r"simulated mean $e(\hat h)$",
)
ax.axhline(0.1, color="gray", ls=":", lw=1, label=r"Bayes error $\eta$")
ax.set(
    xlabel="class size $k$ (nested stump grids)",
    ylabel="error",
    title=rf"$m = {m_t}$, $\delta = {delta_t}$",
)
ax.legend(fontsize=8, loc="upper right", bbox_to_anchor=(1.0, 0.93))
plt.show()
k_best = ks[np.argmin(best + 2 * gam)]
print(f"the guarantee is smallest at k = {k_best}: {np.min(best + 2 * gam):.4f}")
sim_mean = np.array([s.gen_error.mean() for s in sims])
print(
    "approximation non-increasing in k:", bool(np.all(np.diff(best) <= 0)),
    "| estimation increasing:", bool(np.all(np.diff(gam) > 0)),
)
print(
    "simulated mean error below the guarantee at every k:",
    bool(np.all(sim_mean <= best + 2 * gam)),
)

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-approximation-estimation
# The trade-off in the class size $k$ for $m = 1000$: the approximation error $e(h^*)$ falls, the estimation term $2\gamma$ rises, and the simulated error of ERM follows their sum.
# :::

# %% [markdown]
# ```{admonition} Erratum
# :class: warning
# The notes say that with a large hypothesis set "$e(\hat h)$ becomes smaller, but $\gamma$
# increases". What becomes smaller (or stays equal) is the best achievable error $e(h^*)$; the
# error of the hypothesis ERM picks need not fall. With more hypotheses to choose from, ERM is
# fooled more often by one that fits the noise. When the boundary $\theta = 1/2$ is already in
# the smallest class, $e(h^*)$ is the same for every $k$, and the mean of $e(\hat h)$
# *grows* with $k$:
# ```

# %%
rows = ["    k   e(h*)   mean e(h_hat) over 2000 training sets of m = 50"]
for L in (1, 3, 5, 7, 9):
    c = bounds.stump_class(2**L - 1, theta=0.5, eta=0.1)
    s = bounds.erm_simulation(c, 50, delta=0.05, n_rep=2000, rng=rng)
    rows.append(f"{c.k:5d}  {s.best_error:.3f}   {s.gen_error.mean():.4f}")
print("\n".join(rows))

# %% [markdown]
# (sec-pac)=
# ## PAC learning: the realisable and the agnostic case
#
# The guarantees so far are statements of one shape: with probability at least $1 - \delta$
# over the sample, the error is within $\epsilon$ of the best in the class, once $m$ is large
# enough. Two definitions give the shape a name {cite}`shalev2014understanding`.
#
# ```{prf:definition} Agnostic PAC learnability
# :label: def-agnostic-pac
# A class $\mathcal H$ is *agnostic PAC learnable* if there are a function
# $m_{\mathcal H}: (0, 1)^2 \to \mathbb N$ and an algorithm $A$ such that for every
# $\epsilon, \delta \in (0, 1)$ and every distribution $\mathcal D$, on $m \ge
# m_{\mathcal H}(\epsilon, \delta)$ independent samples from $\mathcal D$, $A$ returns a
# hypothesis with $e(A(S)) \le \min_{h \in \mathcal H} e(h) + \epsilon$ with probability at
# least $1 - \delta$. *PAC learnable* (probably approximately correct) is the same under the
# extra assumption that some $h \in \mathcal H$ has $e(h) = 0$, the *realisable* case.
# ```
#
# ```{prf:definition} Uniform convergence
# :label: def-uniform-convergence
# $\mathcal H$ has the *uniform convergence property* if there is a function
# $m^{UC}_{\mathcal H}(\epsilon, \delta)$ such that for every distribution, on $m \ge
# m^{UC}_{\mathcal H}(\epsilon, \delta)$ samples, with probability at least $1 - \delta$,
# $|\hat e(h) - e(h)| \le \epsilon$ for *every* $h \in \mathcal H$ at once.
# ```
#
# In these words, {eq}`eq-sample-complexity` says that a finite class has the uniform
# convergence property with $m^{UC}(\epsilon, \delta) = m(k, \epsilon, \delta)$, and
# {prf:ref}`thm-erm` that uniform convergence makes ERM an agnostic PAC learner with
# $m_{\mathcal H}(\epsilon, \delta) \le m^{UC}(\epsilon/2, \delta) \approx
# 2\log(2k/\delta)/\epsilon^2$.
#
# **The realisable case learns faster.** If some hypothesis of the class makes no error, ERM
# returns a hypothesis with training error 0, and it can only fail if a *bad* hypothesis,
# one with $e(h) > \epsilon$, is consistent with the whole sample. A bad hypothesis is
# consistent with probability $(1 - e(h))^m < (1 - \epsilon)^m \le e^{-\epsilon m}$, and a
# union bound over the at most $k$ bad ones gives
#
# $$
# P\bigl(\exists h: e(h) > \epsilon,\ \hat e(h) = 0\bigr)
# \le \sum_{h:\, e(h) > \epsilon} (1 - e(h))^m \le k e^{-\epsilon m}.
# $$ (eq-realisable-bound)
#
# The right side is at most $\delta$ once $m \ge \log(k/\delta)/\epsilon$: a rate $1/\epsilon$
# where the agnostic bound has $1/\epsilon^2$. No Hoeffding is needed: an error of 0
# observed $m$ times is much stronger evidence than an error rate estimated to $\pm\gamma$.
# The claim takes one-sided thresholds $h_i(x) = \sign(x - t_i)$ on a grid, with a target
# $t_j$ of the grid and no label noise. A bad threshold is consistent exactly when no sample
# falls between it and $t_j$, so the left side is $(1 - a)^m + (1 - b)^m - (1 - a - b)^m$,
# with $a$ and $b$ the distances from $t_j$ to the nearest bad threshold on either side. The
# claim checks this exact value against a simulation (both ways, within Monte Carlo limits)
# and the two inequalities.

# %%
claims.verify("eq-realisable-bound")

# %% [markdown]
# At the sample sizes the bound asks for ($k = 1000$ thresholds, $\delta = 0.05$), the
# exact failure probability and a simulation of 20 000 training sets:

# %%
n_thr, j_thr, delta_r = 1000, 299, 0.05
t_thr = np.arange(1, n_thr + 1) / (n_thr + 1)


def realisable_failure(m, eps):
    """P(some threshold with error > eps is consistent with m samples), exactly."""
    a = np.min(np.abs(t_thr - t_thr[j_thr])[(t_thr > t_thr[j_thr] + eps)])
    b = np.min(np.abs(t_thr - t_thr[j_thr])[(t_thr < t_thr[j_thr] - eps)])
    return (1 - a) ** m + (1 - b) ** m - (1 - a - b) ** m, a, b


print("  eps   m = ceil(log(k/delta)/eps)   exact P(fail)   simulated")
for eps in (0.1, 0.05):
    m = int(np.ceil(np.log(n_thr / delta_r) / eps))
    p_fail, a, b = realisable_failure(m, eps)
    x = rng.random((20_000, m)) - t_thr[j_thr]
    empty = ~np.any((x > 0) & (x <= a), axis=1) | ~np.any((x <= 0) & (x > -b), axis=1)
    print(f"{eps:5.2f}   {m:26d}   {p_fail:13.5f}   {np.mean(empty):9.4f}")

# %% [markdown]
# At these sample sizes the failure probability is about a thousandth of $\delta$: the
# bound asks for far more than needed (the union bound again: neighbouring thresholds fail
# together), but its rate is right. The figure compares, against $\epsilon$, the
# sample sizes of the two bounds with the sample sizes that are exactly enough
# ({numref}`fig-realisable-rate`): in the realisable case, the smallest $m$ at which the
# failure probability above falls to $\delta$; in the agnostic case, the hardest problem of
# all for a two-hypothesis class, a coin with $P(y = +1) = (1 + \epsilon)/2$ and the
# constant classifiers $\pm 1$, where ERM picks the wrong one (excess error $\epsilon$) when
# fewer than half of the labels are $+1$, a binomial probability.

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Sample sizes against the target $\\epsilon$ for $\\delta = 0.05$: the realisable bound $\\log(k/\\delta)/\\epsilon$ and the agnostic bound $2\\log(2k/\\delta)/\\epsilon^2$ (lines), and the sample sizes exactly enough for thresholds without noise and for ERM on a biased coin (markers). Slopes $-1$ and $-2$ on these log-log axes.", "name": "fig-realisable-rate"}, "image": {"alt": "Log-log lines of sample size against epsilon, two with slope -1 and two with slope -2."}} tags=["hide-input"]
from scipy.stats import binom

eps_grid = np.geomspace(0.01, 0.25, 12)


def smallest_m(fails, hi=10**7):
    """The smallest m with fails(m) <= delta, by bisection (fails decreasing in m)."""
    lo = 1
    while lo < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if fails(mid) <= delta_r else (mid + 1, hi)
    return lo


m_real = [smallest_m(lambda m, e=e: realisable_failure(m, e)[0]) for e in eps_grid]
# the coin: odd m (no ties), ERM wrong when at most (m - 1) / 2 labels are +1
m_coin = [
    2 * smallest_m(lambda j, e=e: binom.cdf(j, 2 * j + 1, (1 + e) / 2), hi=10**6) + 1
    for e in eps_grid
]
fig, ax = plt.subplots()
ax.loglog(eps_grid, np.log(n_thr / delta_r) / eps_grid, "C0-", label="realisable bound")
ax.loglog(eps_grid, m_real, "C0o", ms=4, label="realisable, exactly enough")
ax.loglog(
    eps_grid,
    2 * np.log(2 * n_thr / delta_r) / eps_grid**2,
    "C3-",
    label=r"agnostic bound ($k = 1000$)",
)
ax.loglog(
    eps_grid,
    2 * np.log(4 / delta_r) / eps_grid**2,
    "C3--",
    label=r"agnostic bound ($k = 2$)",
)
ax.loglog(eps_grid, m_coin, "C3s", ms=4, label="biased coin, exactly enough")
ax.set(xlabel=r"target $\epsilon$", ylabel="sample size $m$")
ax.legend(fontsize=8)
plt.show()
slope_real = np.polyfit(np.log(eps_grid), np.log(m_real), 1)[0]
slope_coin = np.polyfit(np.log(eps_grid[:6]), np.log(m_coin[:6]), 1)[0]
print(f"fitted slopes: realisable {slope_real:.1f}, biased coin {slope_coin:.1f}")
print(
    "exactly enough <= its bound at every epsilon: realisable",
    bool(np.all(np.array(m_real) <= np.log(n_thr / delta_r) / eps_grid)),
    "| biased coin (k = 2)",
    bool(np.all(np.array(m_coin) <= 2 * np.log(4 / delta_r) / eps_grid**2)),
)

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-realisable-rate
# Sample sizes against the target $\epsilon$ for $\delta = 0.05$: the realisable bound $\log(k/\delta)/\epsilon$ and the agnostic bound $2\log(2k/\delta)/\epsilon^2$ (lines), and the sample sizes exactly enough for thresholds without noise and for ERM on a biased coin (markers). Slopes $-1$ and $-2$ on these log-log axes.
# :::

# %% [markdown]
# The realisable sample sizes fall like $1/\epsilon$, the coin's like $1/\epsilon^2$: for the
# coin the $1/\epsilon^2$ is no artefact of the bound, as telling a bias of $\epsilon$ from
# no bias takes of order $1/\epsilon^2$ flips. In the agnostic case no bound can do better
# in the worst case; in the realisable case the finite-class bound is off only by the
# constant $\log k$ in place of $\log 2$.
#
# (sec-test-interval)=
# ## A guarantee for a test error
#
# Everything so far bounds a training error, where the hypothesis depends on the sample.
# A **test error** is easier: a classifier $\hat h$ trained on one sample and evaluated on
# $n$ *other* points, drawn independently of the training set, is a fixed hypothesis for the
# test set, and its test error $\hat e_{\text{test}}$ is a mean of $n$ independent
# Bernoulli($e(\hat h)$) variables. Hoeffding's inequality {eq}`eq-hoeffding` with $k = 1$
# then gives an interval for the error on the whole distribution:
#
# $$
# P\Bigl(e(\hat h) \in \bigl[\hat e_{\text{test}} - \epsilon_n,\
# \hat e_{\text{test}} + \epsilon_n\bigr]\Bigr) \ge 1 - \delta,
# \qquad \epsilon_n = \sqrt{\frac{\log(2/\delta)}{2n}} .
# $$ (eq-hoeffding-interval)
#
# The claim sums the binomial distribution of the test error exactly and checks that the
# interval covers $e$ with probability at least $1 - \delta$; its foil forgets the square
# root.

# %%
claims.verify("eq-hoeffding-interval")

# %% [markdown]
# The classifiers of {doc}`Chapter 3 </notebooks/03_online_linear_classifiers>`, trained on
# one half of the breast cancer data (standardised), leave $n = 285$ tumours for the test.
# Beside Hoeffding's interval we compute the exact (Clopper–Pearson) interval, which inverts
# the binomial distribution itself instead of bounding it {cite}`clopper1934use`: its ends
# are the error rates at which the observed count of errors would be in a tail of
# probability $\delta/2$, quantiles of beta distributions. We check them against
# `scipy.stats.binomtest`.

# %%
from scipy import stats

from mlnotes import online
from mlnotes.datasets import load_breast_cancer

bc = load_breast_cancer()
y_bc = np.where(bc.y == 1, 1.0, -1.0)
perm_bc = np.random.default_rng(0).permutation(len(y_bc))  # Chapter 3's split
tr, te = perm_bc[: len(perm_bc) // 2], perm_bc[len(perm_bc) // 2 :]
mu, sd = bc.X[tr].mean(axis=0), bc.X[tr].std(axis=0)
Xtr, Xte = (bc.X[tr] - mu) / sd, (bc.X[te] - mu) / sd
sgd_args = dict(lam=1e-3, batch_size=8, n_epochs=30, rng=2)
models = {
    "sgd hinge": online.sgd(Xtr, y_bc[tr], loss="hinge", eta=0.05, **sgd_args),
    "sgd log": online.sgd(Xtr, y_bc[tr], loss="log", eta=0.1, **sgd_args),
}
delta_t, n_te = 0.05, len(te)
eps_n = np.sqrt(np.log(2 / delta_t) / (2 * n_te))
intervals = {}
print(f"n = {n_te}, delta = {delta_t}, Hoeffding half-width {eps_n:.4f}")
print("model       errors  test error   Hoeffding          Clopper-Pearson")
for name, model in models.items():
    s_err = int(np.sum(model.predict(Xte) != y_bc[te]))
    e_hat = s_err / n_te
    hoeff = (max(e_hat - eps_n, 0.0), min(e_hat + eps_n, 1.0))
    cp = (
        stats.beta.ppf(delta_t / 2, s_err, n_te - s_err + 1) if s_err > 0 else 0.0,
        stats.beta.ppf(1 - delta_t / 2, s_err + 1, n_te - s_err),
    )
    ref = stats.binomtest(s_err, n_te).proportion_ci(1 - delta_t, method="exact")
    assert np.allclose(cp, (ref.low, ref.high), rtol=1e-9)
    intervals[name] = (e_hat, hoeff, cp)
    print(
        f"{name:10s}  {s_err:6d}  {e_hat:10.4f}   [{hoeff[0]:.4f}, {hoeff[1]:.4f}]"
        f"   [{cp[0]:.4f}, {cp[1]:.4f}]"
    )
print("Clopper-Pearson agrees with scipy.stats.binomtest to 1e-9: True")

# %% [markdown]
# The two intervals side by side ({numref}`fig-test-interval`):

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "95 % intervals for the error of two classifiers of Chapter 3 on the breast cancer data, from 285 test tumours: Hoeffding's interval (thin) and the exact Clopper-Pearson interval (thick), around the test error (dot).", "name": "fig-test-interval"}, "image": {"alt": "Two rows of horizontal intervals, a long thin one containing a short thick one around a dot."}} tags=["hide-input"]
fig, ax = plt.subplots(figsize=(7, 2.4))
for row, (e_hat, hoeff, cp) in enumerate(intervals.values()):
    ax.plot(hoeff, [row, row], "C0-", lw=1.5, label="Hoeffding" if row == 0 else None)
    cp_label = "Clopper-Pearson" if row == 0 else None
    ax.plot(cp, [row, row], "C3-", lw=6, alpha=0.6, label=cp_label)
    ax.plot(e_hat, row, "ko", ms=5, label="test error" if row == 0 else None)
ax.set_yticks(range(len(intervals)), list(intervals))
ax.set(xlabel=r"error $e(\hat h)$", ylim=(-0.6, len(intervals) - 0.4))
# Above the axes: inside, the legend covered the lower interval.
ax.legend(
    fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, frameon=False
)
plt.show()
for name, (_, hoeff, cp) in intervals.items():
    ratio = (hoeff[1] - hoeff[0]) / (cp[1] - cp[0])
    print(
        f"{name}: Hoeffding's interval {ratio:.1f} times as wide as Clopper-Pearson's, "
        f"cut at 0: {hoeff[0] == 0.0}"
    )

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-test-interval
# 95 % intervals for the error of two classifiers of Chapter 3 on the breast cancer data, from 285 test tumours: Hoeffding's interval (thin) and the exact Clopper-Pearson interval (thick), around the test error (dot).
# :::

# %% [markdown]
# Hoeffding's interval is two to four times as wide as the exact one and is cut at 0:
# it ignores that an error rate near 0 has a small variance, the looseness seen in
# {numref}`fig-hoeffding`. What either interval **promises**: over the random draw of the
# test set, an interval built this way contains the error $e(\hat h)$ of *this* trained
# classifier with probability at least $0.95$. What it does **not** promise:
#
# - nothing about this particular interval: $e(\hat h)$ is a fixed number, inside or not;
# - nothing once the test set has been used to choose: picking the better of the two models
#   by their test errors makes the winner's test error biased downwards, and a guarantee
#   for the pick needs the union bound over the candidates ($\delta/2$ each here), as for
#   ERM;
# - nothing about other training sets: it is the error of the classifier trained on this
#   half, not of the learning algorithm;
# - nothing about tumours drawn differently (another hospital, another scanner): the
#   test points must come from the distribution the classifier will meet.
#
# (sec-beyond)=
# ## Beyond the notes
#
# ```{note}
# This section goes beyond the lecture notes: a tighter tail bound, and pointers to what
# replaces $\log k$ for infinite classes. Nothing earlier depends on it.
# ```
#
# **A Chernoff bound.** Hoeffding's bound uses only that $Z_i \in [0, 1]$. Using the Bernoulli
# distribution itself, the exponential-moment argument gives, with the relative entropy
# $\mathrm{KL}(p\|q) = p\log\frac pq + (1-p)\log\frac{1-p}{1-q}$,
#
# $$
# P(|\hat\phi - \phi| > \gamma) \le e^{-m\,\mathrm{KL}(\phi + \gamma \,\|\, \phi)}
# + e^{-m\,\mathrm{KL}(\phi - \gamma \,\|\, \phi)} \le 2 e^{-2\gamma^2 m},
# $$ (eq-chernoff-kl)
#
# where a term whose end point $\phi \pm \gamma$ leaves $[0, 1]$ is 0. The second inequality
# is Pinsker's, $\mathrm{KL}(p\|q) \ge 2(p - q)^2$ {cite}`boucheron2013concentration`. The
# Chernoff exponent is the right one: $-\frac1m \log$ of the exact tail tends to
# $\min_\pm \mathrm{KL}(\phi \pm \gamma\|\phi)$. The price is that it needs $\phi$, which for a
# training error is the unknown $e(h)$. The claim checks exact $\le$ Chernoff $\le$ Hoeffding in
# relative terms, down to tails of $10^{-300}$.

# %%
claims.verify("eq-chernoff-kl")

# %%
print(
    " phi    m   exact tail   Chernoff-KL   Hoeffding   Hoeffding/exact  Chernoff/exact"
)
for phi in (0.5, 0.1, 0.01):
    for m in (100, 1000):
        ex = bounds.binomial_tail(m, phi, 0.05)
        ch = bounds.chernoff_bound(m, phi, 0.05)
        ho = bounds.hoeffding_bound(m, 0.05)
        print(
            f"{phi:4.2f} {m:5d}   {ex:10.3e}   {ch:11.3e}   {ho:9.3e}   "
            f"{ho / ex:15.3g}  {ch / ex:14.3g}"
        )

# %% [markdown]
# The ratio of each bound to the exact tail, against $m$ ({numref}`fig-bound-ratios`):

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Hoeffding's bound (solid) and the Chernoff-KL bound (dashed) divided by the exact binomial tail, against $m$, for $\\gamma = 0.05$ and $\\phi = 0.5, 0.1, 0.01$; both ratios are at least 1.", "name": "fig-bound-ratios"}, "image": {"alt": "Log-log ratio curves against sample size, solid and dashed pairs in three colours."}} tags=["hide-input"]
ms_kl = np.unique(np.round(np.geomspace(10, 2000, 40)).astype(int))
fig, ax = plt.subplots()
ratios_at_least_1 = []
for phi, colour in ((0.5, "C0"), (0.1, "C1"), (0.01, "C2")):
    ex = bounds.binomial_tail(ms_kl, phi, 0.05)
    ratios_at_least_1.append(
        bool(np.all(bounds.hoeffding_bound(ms_kl, 0.05) >= ex))
        and bool(np.all(bounds.chernoff_bound(ms_kl, phi, 0.05) >= ex))
    )
    ax.loglog(
        ms_kl,
        bounds.hoeffding_bound(ms_kl, 0.05) / ex,
        "-",
        color=colour,
        label=rf"Hoeffding, $\phi = {phi}$",
    )
    ax.loglog(
        ms_kl,
        bounds.chernoff_bound(ms_kl, phi, 0.05) / ex,
        "--",
        color=colour,
        label=rf"Chernoff-KL, $\phi = {phi}$",
    )
ax.set(xlabel="sample size $m$", ylabel="bound / exact tail", title=r"$\gamma = 0.05$")
ax.legend(fontsize=8, ncol=2)
plt.show()
print(
    f"both bounds at least the exact tail at all {ms_kl.size} m and three phi:",
    all(ratios_at_least_1),
)

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-bound-ratios
# Hoeffding's bound (solid) and the Chernoff-KL bound (dashed) divided by the exact binomial tail, against $m$, for $\gamma = 0.05$ and $\phi = 0.5, 0.1, 0.01$; both ratios are at least 1.
# :::

# %% [markdown]
# For $\phi = 0.5$ the two bounds nearly coincide. For $\phi = 0.01$ and $m = 1000$ the
# Chernoff bound is within a factor of about 100 of the exact tail, while Hoeffding's is off
# by 25 orders of magnitude: the remaining factor of Chernoff's bound grows only like
# $\sqrt m$, Hoeffding's exponentially. Bounds of this kind (Bernstein's, Bennett's,
# the relative-entropy "Occam" bounds) give faster rates for hypotheses with small error
# {cite}`boucheron2013concentration,shalev2014understanding`.
#
# **Infinite classes.** Chapter 6's `best_stump` may put its threshold anywhere, so its class is
# infinite and $\log k$ is infinite too. The next section shows what takes its place.
#
# (sec-vc)=
# ## Beyond finite classes: growth function and VC dimension
#
# On a sample of $m$ points an infinite class still produces only finitely many labellings,
# and only they matter for the training errors. The **growth function** counts them at
# worst,
#
# $$
# \Pi_{\mathcal H}(m) = \max_{x_1, \dots, x_m} \bigl|\{(h(x_1), \dots, h(x_m)) :
# h \in \mathcal H\}\bigr| \le 2^m .
# $$ (def-growth-function)
#
# For three classes on the line it can be counted by hand. A threshold
# $h_t(x) = \sign(x - t)$ labels $m$ distinct points according to which of the $m + 1$ gaps
# $t$ falls in; stumps add the $m + 1$ flipped labellings, two of which (all $+1$, all $-1$)
# thresholds already had; an interval $[a, b]$ labels $+1$ a run of consecutive points,
# fixed by its first and last point, or none:
#
# $$
# \begin{aligned}
# \Pi_{\text{thresholds}}(m) &= m + 1, \\
# \Pi_{\text{stumps}}(m) &= 2m, \\
# \Pi_{\text{intervals}}(m) &= \tfrac{m(m + 1)}{2} + 1 .
# \end{aligned}
# $$ (eq-growth-functions)
#
# The claim enumerates the labellings on random points (one representative threshold per
# gap, one interval per pair of points) and counts them:

# %%
claims.verify("eq-growth-functions")

# %% [markdown]
# A class **shatters** a set of $m$ points when it realises all $2^m$ labellings of it; the
# **VC dimension** $d$ is the size of the largest set it shatters (Vapnik and Chervonenkis
# {cite}`vapnik1998statistical`). From {eq}`eq-growth-functions`, thresholds have $d = 1$
# ($m + 1 = 2^m$ only for $m \le 1$), stumps and intervals $d = 2$ ($2m$ and
# $m(m+1)/2 + 1$ reach $2^m$ at $m = 2$, not at $m = 3$); linear classifiers in $\R^p$
# have $d = p + 1$. Past $d$ the growth function stops doubling and becomes a polynomial:
#
# ```{prf:lemma} Sauer's lemma
# :label: thm-sauer
# If $\mathcal H$ has VC dimension $d$, then for every $m$,
#
# $$
# \Pi_{\mathcal H}(m) \le \sum_{i=0}^{d} \binom{m}{i} \le \Bigl(\frac{em}{d}\Bigr)^d
# \quad (m \ge d).
# $$ (eq-sauer)
# ```
#
# The proof is an induction on $m$ {cite}`shalev2014understanding` (lemma 6.10). Our three
# classes meet the first inequality with equality. The claim checks it by enumeration on
# random classes of labellings of 6 points (each subset of the points tested for
# shattering) and on the three classes above, whose VC dimensions it also recomputes; its
# foil drops the last term of the sum.

# %%
claims.verify("eq-sauer")

# %% [markdown]
# The growth function takes the place of $k$. The argument (symmetrisation with a second,
# "ghost" sample, then a union bound over the at most $\Pi_{\mathcal H}(2m)$ labellings of the
# two samples together, each term bounded by Hoeffding's inequality) is in
# {cite}`vapnik1998statistical` and {cite}`mohri2018foundations` (chapter 3); with the
# constants of the original,
#
# $$
# \begin{gathered}
# P\Bigl(\sup_{h \in \mathcal H} |\hat e(h) - e(h)| > \gamma\Bigr)
# \le 4\,\Pi_{\mathcal H}(2m)\, e^{-m\gamma^2/8}, \\
# \text{so that } \gamma = \sqrt{\tfrac{8}{m}\Bigl(\log \Pi_{\mathcal H}(2m) +
# \log\tfrac{4}{\delta}\Bigr)}
# \end{gathered}
# $$ (eq-vc-bound)
#
# holds for all $h$ at once with probability at least $1 - \delta$. By Sauer's lemma
# $\log \Pi_{\mathcal H}(2m) \le d \log(2em/d)$, so the deviation is of order
# $\sqrt{d\log m/m}$: any class of finite VC dimension has the uniform convergence property
# ({prf:ref}`def-uniform-convergence`) and is agnostic PAC learnable by ERM (the converse also
# holds, the *fundamental theorem* of {cite}`shalev2014understanding`, chapter 6). We do not
# prove the bound; the claim checks that $\gamma$ solves $4\Pi(2m)e^{-m\gamma^2/8} = \delta$
# and that simulated uniform deviations of a stump class exceed it less often than $\delta$.

# %%
claims.verify("eq-vc-bound")

# %% [markdown]
# The VC bound does not care how many hypotheses the class has, only how many labellings
# they make: for stumps on a grid of $n$ thresholds the finite-class bound grows with
# $\log n$, and for Chapter 6's stumps with a free threshold it is infinite, while the VC
# bound with $\Pi(2m) = 4m$ covers them all. Its constants are worse, though
# ({numref}`fig-vc-vs-finite`): it beats the finite-class bound only for classes of more
# than about $2^{200}$ hypotheses at $m = 20$, $2^{350}$ at $m = 20\,000$.

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Uniform deviation bounds against $m$ for stumps, $\\delta = 0.05$: the finite-class bound for grids of $2^{10}$, $2^{64}$ and $2^{400}$ thresholds, the VC bound with the exact growth function $\\Pi(2m) = 4m$ and with Sauer's bound $(2em/d)^d$, $d = 2$, and the simulated 95 % quantile of $\\sup_h |\\hat e(h) - e(h)|$ over 1022 stumps.", "name": "fig-vc-vs-finite"}, "image": {"alt": "Log-log decreasing curves of deviation bounds against sample size, with the simulated quantile lowest."}} tags=["hide-input"]
ms_vc = np.unique(np.round(np.geomspace(20, 20_000, 16)).astype(int))
delta_vc = 0.05


def vc_gamma(m, growth_2m, delta):
    """The deviation of the VC bound, eq-vc-bound."""
    return np.sqrt(8 * (np.log(growth_2m) + np.log(4 / delta)) / m)


H_vc = bounds.stump_class(511, theta=0.3, eta=0.1)
ms_sim = ms_vc[ms_vc <= 1000]
q95 = []
for m in ms_sim:
    Xs, ys = H_vc.sample(int(m), n_rep=400, rng=rng)
    sup = np.abs(H_vc.training_errors(Xs, ys) - H_vc.generalisation_error).max(axis=1)
    q95.append(np.quantile(sup, 0.95))
fig, ax = plt.subplots()
for n_exp, style in ((10, "C0-"), (64, "C0--"), (400, "C0-.")):
    log_2k = (n_exp + 2) * np.log(2)  # log(2k) for k = 2 * 2^n_exp
    ax.loglog(
        ms_vc,
        np.sqrt((log_2k - np.log(delta_vc)) / (2 * ms_vc)),
        style,
        label=rf"finite class, $k = 2 \cdot 2^{{{n_exp}}}$",
    )
ax.loglog(
    ms_vc, vc_gamma(ms_vc, 4 * ms_vc, delta_vc), "C3-", label=r"VC, $\Pi(2m) = 4m$"
)
ax.loglog(
    ms_vc,
    vc_gamma(ms_vc, (np.e * ms_vc) ** 2, delta_vc),
    "C3:",
    label=r"VC, Sauer $(2em/d)^d$",
)
ax.loglog(ms_sim, q95, "ko", ms=4, label="simulated 95% quantile")
ax.set(xlabel="sample size $m$", ylabel=r"deviation $\gamma$")
ax.legend(fontsize=8)
plt.show()
finite_10 = np.sqrt(((10 + 2) * np.log(2) - np.log(delta_vc)) / (2 * ms_sim))
print(
    f"simulated 95% quantile (k = {H_vc.k}) below the finite-class bound for\n"
    f"k = 2 * 2^10 and the VC bound at every simulated m:",
    bool(np.all((q95 < finite_10) & (q95 < vc_gamma(ms_sim, 4 * ms_sim, delta_vc)))),
)
for m_x in (20, 20_000):  # log2 k at which the finite-class bound meets the VC bound
    log_2k = 2 * m_x * vc_gamma(m_x, 4 * m_x, delta_vc) ** 2 + np.log(delta_vc)
    print(
        f"m = {m_x}: the VC bound beats the finite-class bound for "
        f"k > 2^{log_2k / np.log(2) - 1:.0f}"
    )

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-vc-vs-finite
# Uniform deviation bounds against $m$ for stumps, $\delta = 0.05$: the finite-class bound for grids of $2^{10}$, $2^{64}$ and $2^{400}$ thresholds, the VC bound with the exact growth function $\Pi(2m) = 4m$ and with Sauer's bound $(2em/d)^d$, $d = 2$, and the simulated 95 % quantile of $\sup_h |\hat e(h) - e(h)|$ over 1022 stumps.
# :::

# %% [markdown]
# A threshold stored as a double is one of fewer than $2^{64}$ numbers, so for stumps in
# floating point the finite-class bound is in fact the better one; what the VC bound adds
# is that it needs no count of the hypotheses, only of the labellings, which is what makes
# it apply to the SVM's hyperplanes and every other class with a continuous parameter. The
# simulation lies far below every bound: all of them are worst cases over distributions, and the VC bound pays twice, for the ghost sample and for its constants.
# Sharper versions (Rademacher complexity, chaining) bring the constants down and remove
# the $\log m$ {cite}`mohri2018foundations,boucheron2013concentration`; the shape, a
# complexity term over $m$ under a square root, stays.
#
# (sec-learning-theory-implementation)=
# ## Implementation
#
# The bounds of this chapter are one line each in `mlnotes.bounds`, after the checks of their
# arguments; the cells below display the library's code itself, the docstrings and the checks
# left to the {ref}`library reference <sec-api>`.

# %%
from mlnotes import show_source

show_source(bounds.hoeffding_bound)

# %%
show_source(bounds.uniform_deviation)

# %%
show_source(bounds.sample_complexity)

# %% [markdown]
# `2.0 * np.exp(-2.0 * gamma**2 * m)` is {eq}`eq-hoeffding`, returned unclipped so that it can
# be inverted; `uniform_deviation` is that inversion after the union bound over $k$ hypotheses,
# {eq}`eq-uniform-deviation`, and `sample_complexity` solves the same equation for $m$,
# {eq}`eq-sample-complexity`, line 7 (`np.log(2.0 * k / delta)`). The ceiling, line 8 (`np.ceil`), needs care: a value that is an integer up to rounding
# must not ask for one sample more than the bound needs, and a sample size beyond what an int64
# can count ($\gamma = 10^{-10}$ asks for $3 \times 10^{20}$) is refused, lines 10-11 (`too_big = m >= 2.0**63`), rather than wrapped
# around to a small number.
#
# The ERM experiment draws many training sets at once and lets each pick its empirical risk
# minimiser:

# %%
show_source(bounds.erm_simulation)

# %% [markdown]
# `E_hat`, line 6, holds the training error of every hypothesis on every training set (one row per set),
# `chosen`, line 8 (`np.argmin(E_hat, axis=1)`), is ERM's pick in each row, and `e` the true errors the simulation knows. The result
# keeps what {eq}`eq-erm-guarantee` compares: the error of the pick against the best error in
# the class, and the largest deviation $\max_h |\hat e(h) - e(h)|$ against `gamma`, the
# uniform deviation of the class.
#
# (sec-learning-theory-exercises)=
# ## Exercises
#
# ```{exercise}
# :label: ex-lt-sample-complexity
# Derive {eq}`eq-sample-complexity` from {eq}`eq-uniform-deviation`. By what factor does the
# sample size grow when (a) $k$ is squared, (b) $\delta$ is divided by 10, (c) $\gamma$ is
# halved? Check your answers with `bounds.sample_complexity`.
# ```
#
# ```{solution} ex-lt-sample-complexity
# :class: dropdown
# $\gamma(m, k, \delta) \le \gamma$ iff $\frac{1}{2m}\log\frac{2k}{\delta} \le \gamma^2$ iff
# $m \ge \frac{1}{2\gamma^2}\log\frac{2k}{\delta}$; the smallest integer is the ceiling.
# (a) $\log(2k^2/\delta) = \log(2k/\delta) + \log k$: the sample size grows additively by
# $\log k / (2\gamma^2)$, so less than doubles. (b) It grows by $\log 10 / (2\gamma^2)$.
# (c) It is multiplied by 4 (up to the ceiling).
# ```
#
# ```{exercise}
# :label: ex-lt-one-sided
# The proof of {eq}`eq-erm-guarantee` uses only $e(\hat h) - \hat e(\hat h) \le \gamma$ and
# $\hat e(h^*) - e(h^*) \le \gamma$. Using the one-sided Hoeffding bound
# $P(\hat\phi - \phi > \gamma) \le e^{-2\gamma^2 m}$ (and its mirror image), show that the
# guarantee holds with probability at least $1 - \delta$ for
# $\gamma = \sqrt{\log((k + 1)/\delta)/(2m)}$, slightly smaller than {eq}`eq-uniform-deviation`.
# ```
#
# ```{solution} ex-lt-one-sided
# :class: dropdown
# $\hat h$ is random, so the first inequality needs $e(h) - \hat e(h) \le \gamma$ for all
# $k$ hypotheses: $k$ one-sided events of probability at most $e^{-2\gamma^2 m}$ each. The
# second concerns the fixed $h^*$ only: one more one-sided event. The union bound over these
# $k + 1$ events gives failure probability at most $(k + 1)e^{-2\gamma^2 m}$; setting it to
# $\delta$ gives the stated $\gamma$, and $k + 1 \le 2k$ for $k \ge 1$.
# ```
#
# ```{exercise}
# :label: ex-lt-union-loose
# Suppose all $k$ hypotheses of a class are the same function. What is
# $P(\exists h: |\hat e(h) - e(h)| > \gamma)$, and how far off is the union bound? Explain with
# this example why the union bound was loose for the stumps of section {ref}`sec-union-bound`.
# ```
#
# ```{solution} ex-lt-union-loose
# :class: dropdown
# All deviations are the same event, so the probability is that of one hypothesis, at most
# $2e^{-2\gamma^2 m}$, while the union bound charges $k$ times as much. Stumps with neighbouring
# thresholds differ only on a short interval, so their training errors move together; the
# union bound counts their (nearly identical) bad events separately.
# ```
#
# ```{exercise}
# :label: ex-lt-hstar
# Using the class of the erratum in section {ref}`sec-erm` (one threshold at $1/2$,
# $\theta = 0.3$, $\eta = 0.1$), compute $e(h^*)$ for the class and the Bayes error, and find
# the sample size beyond which $e(\hat h) > \eta + 2\gamma(m, 2, 0.05)$ on every training set
# on which ERM picks the right polarity. Which step of the proof of {prf:ref}`thm-erm` fails
# when $h^*$ is taken to be the Bayes classifier?
# ```
#
# ```{solution} ex-lt-hstar
# :class: dropdown
# $e(h_{1/2,+1}) = 0.1 + 0.8 \times 0.2 = 0.26$ and $e(h_{1/2,-1}) = 0.74$, so $e(h^*) = 0.26$
# against the Bayes error $0.1$. We need $2\gamma < 0.16$, i.e. $\gamma < 0.08$:
# $m \ge \log(80) / (2 \times 0.0064) = 342.3$, so $m \ge 343$. The middle step
# $\hat e(\hat h) \le \hat e(h^*)$ fails: ERM minimises over $\mathcal H$, and the Bayes
# classifier is not in it.
# ```

# %% [markdown]
# ```{exercise} Proof: Sauer's lemma by induction
# :label: ex-lt-sauer-proof
# Let $C = \{x_1, \dots, x_m\}$ be a set of $m$ distinct points and $H$ a set of labellings
# $C \to \{-1, +1\}$ (the labellings a class realises on $C$). Prove by induction on $m$
# that $H$ has at most as many elements as there are subsets $B \subseteq C$ that $H$
# shatters (the empty set counts, and is shattered by any non-empty $H$). Hint: split $H$
# by its restrictions to $C' = \{x_2, \dots, x_m\}$, counting a restriction once if one
# label of $x_1$ extends it in $H$ and twice if both do. Deduce the first inequality of
# {eq}`eq-sauer`, then the second, $\sum_{i \le d} \binom{m}{i} \le (em/d)^d$ for
# $m \ge d \ge 1$. Finally check that intervals meet the first inequality with equality:
# $\binom{m}{2} + m + 1 = m(m + 1)/2 + 1$, as in {eq}`eq-growth-functions`.
# ```
#
# ```{solution} ex-lt-sauer-proof
# :class: dropdown
# Write $S(H)$ for the set of subsets of $C$ that $H$ shatters; we show $|H| \le |S(H)|$.
#
# *Base case*, $m = 0$: $C$ is empty, there is one labelling of it (the empty one), so
# $|H| \le 1$; if $H$ is non-empty it shatters $\emptyset$, so $|H| = |S(H)|$.
#
# *Induction step.* Let $m \ge 1$, assume the claim for sets of $m - 1$ points, and let
# $C' = \{x_2, \dots, x_m\}$. Define two sets of labellings of $C'$:
#
# $$
# \begin{aligned}
# Y_0 &= \{h|_{C'} : h \in H\}, \\
# Y_1 &= \{g : \text{both extensions of } g\text{, with } x_1 \mapsto +1
# \text{ and with } x_1 \mapsto -1\text{, are in } H\} .
# \end{aligned}
# $$ (def-sauer-split)
#
# Each $h \in H$ is determined by its restriction $h|_{C'}$ and its label at $x_1$. A
# restriction $g \in Y_0$ therefore comes from one element of $H$, or from two when
# $g \in Y_1$, so $|H| = |Y_0| + |Y_1|$. Now count shattered sets.
#
# - A subset $B \subseteq C'$ is shattered by $Y_0$ exactly when it is shattered by $H$
#   (the labels on $B$ do not involve $x_1$). By the induction hypothesis,
#   $|Y_0| \le |S(Y_0)| = |\{B \in S(H) : x_1 \notin B\}|$.
# - If $Y_1$ shatters $B \subseteq C'$, then $H$ shatters $B \cup \{x_1\}$: for a labelling
#   of $B \cup \{x_1\}$, take $g \in Y_1$ that agrees with it on $B$; both extensions of $g$
#   are in $H$, one of them with the wanted label at $x_1$. The map $B \mapsto B \cup
#   \{x_1\}$ is injective, so by the induction hypothesis
#   $|Y_1| \le |S(Y_1)| \le |\{B \in S(H) : x_1 \in B\}|$.
#
# Adding, $|H| = |Y_0| + |Y_1| \le |S(H)|$, which completes the induction.
#
# *The first inequality.* Take any $m$ points. If some coincide, a labelling realised by a
# class gives them the same label, so the class realises no more labellings of them than of
# the fewer distinct points among them, and $\sum_{i \le d}\binom{m'}{i}$ grows with $m'$;
# so let them be distinct, and let $H$ be the labellings of $C = \{x_1, \dots, x_m\}$ the
# class realises. A set $H$ shatters is shattered by the class, so it has at most $d$
# points: $|H| \le |S(H)| \le |\{B \subseteq C : |B| \le d\}| = \sum_{i=0}^{d}
# \binom{m}{i}$. Maximising over the points gives $\Pi_{\mathcal H}(m) \le \sum_{i=0}^{d}
# \binom{m}{i}$.
#
# *The second.* For $m \ge d$, $(m/d)^{d - i} \ge 1$ for $i \le d$, so
#
# $$
# \begin{aligned}
# \sum_{i=0}^{d} \binom{m}{i}
# &\le \Bigl(\frac{m}{d}\Bigr)^d \sum_{i=0}^{d} \binom{m}{i} \Bigl(\frac{d}{m}\Bigr)^i \\
# &\le \Bigl(\frac{m}{d}\Bigr)^d \sum_{i=0}^{m} \binom{m}{i} \Bigl(\frac{d}{m}\Bigr)^i \\
# &= \Bigl(\frac{m}{d}\Bigr)^d \Bigl(1 + \frac{d}{m}\Bigr)^m
# \le \Bigl(\frac{m}{d}\Bigr)^d e^d,
# \end{aligned}
# $$ (pf-sauer-binomial)
#
# by the binomial theorem and $1 + u \le e^u$.
#
# *Intervals* have $d = 2$, and $\binom{m}{0} + \binom{m}{1} + \binom{m}{2} = 1 + m +
# m(m - 1)/2 = m(m + 1)/2 + 1$, the count of {eq}`eq-growth-functions`: equality.
# ```
#
# The remaining exercises are coding exercises; the course's assignments turn them into
# autograded questions.

# %% [markdown]
# ```{exercise} Warm-up · 2 points · about 15 min
# :label: ex-code-exact-tail
# Write `exact_deviation_probability(m, phi, gamma)` that returns the exact
# $P(|\hat\phi - \phi| > \gamma)$ of {eq}`def-binomial-tail` for one sample size $m$, a Bernoulli
# mean $\phi$ and a deviation $\gamma > 0$, using `math.comb` and a sum over the counts
# $s$ (no scipy). While this is graded, `mlnotes.bounds.binomial_tail`,
# `mlnotes.bounds.binomial_logpmf`, `mlnotes.bounds._binomial_pmf_rows`, `scipy.stats`
# and `scipy.special` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
import math


def exact_deviation_probability(m, phi, gamma):
    # BEGIN SOLUTION
    return sum(
        math.comb(m, s) * phi**s * (1 - phi) ** (m - s)
        for s in range(m + 1)
        if abs(s - m * phi) > m * gamma
    )
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: exact-binomial-tail, points: 2, tier: warm-up, minutes: 15,
#   withdraw: [mlnotes.bounds.binomial_tail, mlnotes.bounds.binomial_logpmf,
#              mlnotes.bounds._binomial_pmf_rows, scipy.stats, scipy.special]}
# TEST: m = 20, phi = 0.3, gamma = 0.1 sqrt(2), against the chapter's binomial tail
np.testing.assert_allclose(
    exact_deviation_probability(20, 0.3, 0.1 * np.sqrt(2)),
    bounds.binomial_tail(20, 0.3, 0.1 * np.sqrt(2)),
    rtol=1e-12,
    strict=True,
)

# HIDDEN TEST: the chapter's two-sided tail, below Hoeffding's bound, any m, phi, gamma
rng_h = np.random.default_rng(list(b"development secret"))
for _ in range(4):
    m_h, phi_h = int(rng_h.integers(1, 150)), rng_h.uniform(0.3, 0.7)
    g_h = (np.floor(rng_h.uniform(0, 0.25) * m_h) + rng_h.uniform(0.2, 0.8)) / m_h
    p_h = exact_deviation_probability(m_h, phi_h, g_h)
    np.testing.assert_allclose(
        p_h,
        bounds.binomial_tail(m_h, phi_h, g_h),
        rtol=1e-9,
        atol=1e-300,
        err_msg=f"m = {m_h}",
    )
    assert p_h <= bounds.hoeffding_bound(m_h, g_h), "above Hoeffding's bound"

# HIDDEN TEST: small m: symmetric in phi and 1 - phi, and 0 beyond the largest deviation
rng_h = np.random.default_rng(list(b"development secret"))
m_h, phi_h = int(rng_h.integers(1, 9)), rng_h.uniform(0.05, 0.95)
g_h = (np.floor(rng_h.uniform(0, 0.4) * m_h) + rng_h.uniform(0.2, 0.8)) / m_h
np.testing.assert_allclose(
    exact_deviation_probability(m_h, phi_h, g_h),
    bounds.binomial_tail(m_h, phi_h, g_h),
    rtol=1e-12,
)
np.testing.assert_allclose(
    exact_deviation_probability(m_h, phi_h, g_h),
    exact_deviation_probability(m_h, 1 - phi_h, g_h),
    rtol=1e-12,
)
assert exact_deviation_probability(m_h, phi_h, max(phi_h, 1 - phi_h) + 1e-3) == 0

# %% [markdown]
# ```{exercise} Core · 2 points · about 25 min
# :label: ex-code-erm-threshold
# Write `erm_stump(x, y, thresholds)` that returns the pair `(j, s)` of the stump
# $h_{t_j, s}$ with the smallest training error {eq}`def-training-error` on the 1-D
# sample `x` with labels `y` in $\{-1, +1\}$, over every threshold of `thresholds` and
# both polarities $s \in \{+1, -1\}$ (break ties by the smallest `j`, then $s = +1$).
# Use array operations, no loop over samples. While this is graded,
# `mlnotes.bounds.stump_class`, `mlnotes.bounds.erm_simulation`,
# `mlnotes.boosting.best_stump` and `mlnotes.boosting.stump_errors` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def erm_stump(x, y, thresholds):
    # BEGIN SOLUTION
    pred = np.where(
        x[None, :] > thresholds[:, None], 1.0, -1.0
    )  # (n_thresholds, m), s = +1
    err_plus = np.mean(pred != y[None, :], axis=1)
    errors = np.concatenate([err_plus, 1 - err_plus])
    i = int(np.argmin(errors))
    return i % thresholds.size, 1 if i < thresholds.size else -1
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: erm-threshold, points: 2, tier: core, minutes: 25,
#   withdraw: [mlnotes.bounds.stump_class, mlnotes.bounds.erm_simulation,
#              mlnotes.boosting.best_stump, mlnotes.boosting.stump_errors]}
# TEST: 60 samples of the chapter's stump class with 15 thresholds
H_test = bounds.stump_class(15, theta=0.3, eta=0.1)
x_test, y_test = H_test.sample(60, rng=11)
E_test = H_test.training_errors(x_test, y_test)[0]
j_test, s_test = erm_stump(x_test[0], y_test[0], H_test.thresholds)
k_test = j_test if s_test == 1 else j_test + 15
np.testing.assert_allclose(
    E_test[k_test], E_test.min(), err_msg=f"(j, s) = {(j_test, s_test)}"
)

# HIDDEN TEST: the first minimiser of the training error, for any class and sample
rng_h = np.random.default_rng(list(b"development secret"))
for _ in range(3):
    n_h = int(rng_h.integers(3, 40))
    H_h = bounds.stump_class(
        n_h, theta=rng_h.uniform(0.05, 0.95), eta=rng_h.uniform(0, 0.3)
    )
    x_h, labels_h = H_h.sample(int(rng_h.integers(10, 100)), rng=rng_h)
    for y_h in (labels_h, -labels_h):  # both polarities
        E_h = H_h.training_errors(x_h, y_h)[0]
        j_h, s_h = erm_stump(x_h[0], y_h[0], H_h.thresholds)
        assert s_h in (1, -1), f"a polarity of +1 or -1, got {s_h}"
        got_h = j_h if s_h == 1 else j_h + n_h
        assert got_h == int(np.argmin(E_h)), f"(j, s) = {(j_h, s_h)}, errors {E_h}"

# HIDDEN TEST: labels + above a threshold: (j, +1); reversed: (j, -1); a tie: (0, +1)
rng_h = np.random.default_rng(list(b"development secret"))
x_h = np.sort(rng_h.uniform(0.1, 0.9, size=rng_h.integers(4, 30)))
t_h = np.sort(np.append(rng_h.uniform(0.1, 0.9, size=rng_h.integers(1, 8)), 0.05))
j_h = int(rng_h.integers(1, len(t_h)))
y_h = np.where(x_h > t_h[j_h], 1.0, -1.0)
if np.all(y_h < 0) or np.all(y_h > 0):  # make both classes appear
    x_h = np.append(x_h, (t_h[j_h] + 1e-3, t_h[j_h] - 1e-3))
    y_h = np.where(x_h > t_h[j_h], 1.0, -1.0)
best_h = tuple(erm_stump(x_h, y_h, t_h))
assert best_h[1] == 1 and np.all(np.where(x_h > t_h[best_h[0]], 1, -1) == y_h), (
    f"{best_h}"
)
best_h = tuple(erm_stump(x_h, -y_h, t_h))
assert best_h[1] == -1 and np.all(np.where(x_h > t_h[best_h[0]], -1, 1) == -y_h), (
    f"{best_h}"
)
assert tuple(erm_stump(x_h, np.ones(len(x_h)), t_h)) == (0, 1), "the tie: (0, +1)"

# %% [markdown]
# ```{exercise} Core · 3 points · about 45 min
# :label: ex-code-union-sample-size
# How many samples does the union bound really ask for, and how many would it ask for with
# the exact binomial tail in place of Hoeffding's bound? Take a class of $k$ hypotheses whose
# generalisation errors all equal $\phi$ (the worst case of the union bound), a target
# deviation $\gamma$ and a confidence $1 - \delta$. Write
# `union_sample_size(k, phi, gamma, delta)` that returns the pair of Python `int`s
# `(m_hoeffding, m_exact)`:
#
# - `m_hoeffding`, the smallest $m$ with $2k e^{-2\gamma^2 m} \le \delta$, so that every one
#   of the $k$ training errors is within $\gamma$ of its generalisation error with
#   probability at least $1 - \delta$ (beware a ceiling of a rounded quotient);
# - `m_exact`, the smallest $m$ such that $k\,P(|\hat\phi_{m'} - \phi| > \gamma) \le
#   \delta$ for **every** $m' \ge m$, with the exact tail {eq}`def-binomial-tail` of a mean
#   $\hat\phi_{m'}$ of $m'$ Bernoulli($\phi$) variables.
#
# The exact tail does not fall monotonically in $m$ (the lattice of counts $s$ shifts against
# the boundary $m\phi \pm m\gamma$), so the first $m$ at which it drops below $\delta/k$ is
# not the answer; but past `m_hoeffding` Hoeffding's inequality guarantees it, so a search
# downwards from there is finite. Compute the binomial probabilities through logarithms
# (`math.lgamma` or a cumulative sum of $\log i$): $\binom{m}{s}$ overflows a float from
# $m \approx 1030$. The grader checks both numbers with its own exact tail. While this is
# graded, `mlnotes.bounds.sample_complexity`, `mlnotes.bounds.uniform_deviation`,
# `mlnotes.bounds.binomial_tail`, `mlnotes.bounds.binomial_logpmf`,
# `mlnotes.bounds._binomial_pmf_rows`, `scipy.stats` and `scipy.special` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def union_sample_size(k, phi, gamma, delta):
    # BEGIN SOLUTION
    def fails(m):  # the union bound of Hoeffding's inequality exceeds delta at m
        return 2 * k * math.exp(-2 * gamma**2 * m) > delta

    m_hoeffding = max(math.ceil(math.log(2 * k / delta) / (2 * gamma**2)), 1)
    while m_hoeffding > 1 and not fails(m_hoeffding - 1):  # the quotient rounded up
        m_hoeffding -= 1
    while fails(m_hoeffding):  # or down
        m_hoeffding += 1
    log_fact = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, m_hoeffding + 1)))])
    m_exact = m_hoeffding
    for m in range(m_hoeffding - 1, 0, -1):  # down from m_hoeffding to a failure
        s = np.arange(m + 1)
        log_pmf = (log_fact[m] - log_fact[s] - log_fact[m - s]
                   + s * np.log(phi) + (m - s) * np.log1p(-phi))
        tail = np.exp(log_pmf[np.abs(s - m * phi) > m * gamma]).sum()
        if k * tail > delta:
            break
        m_exact = m
    return int(m_hoeffding), int(m_exact)
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: union-sample-size, points: 3, tier: core, minutes: 45,
#   withdraw: [mlnotes.bounds.sample_complexity, mlnotes.bounds.uniform_deviation,
#              mlnotes.bounds.binomial_tail, mlnotes.bounds.binomial_logpmf,
#              mlnotes.bounds._binomial_pmf_rows, scipy.stats, scipy.special]}
# TEST: k = 10, phi = 0.3, gamma = 0.1 sqrt(2), delta = 0.05, against the chapter's tail
g_test = 0.1 * np.sqrt(2)
got_test = union_sample_size(10, 0.3, g_test, 0.05)
assert len(got_test) == 2, f"expected (m_hoeffding, m_exact), got {got_test}"
mh_test, me_test = got_test
assert mh_test == bounds.sample_complexity(10, g_test, 0.05), f"m_hoeffding = {mh_test}"
assert 1 < me_test <= mh_test, f"m_exact = {me_test}, m_hoeffding = {mh_test}"
tails_test = 10 * bounds.binomial_tail(np.arange(me_test - 1, mh_test + 1), 0.3, g_test)
assert np.all(tails_test[1:] <= 0.05), f"k P > delta at m = {me_test} or later"
assert tails_test[0] > 0.05, f"k P <= delta from m = {me_test - 1} on already"

# HIDDEN TEST: m_hoeffding is the chapter's sample complexity, k P <= delta from m_exact
rng_h = np.random.default_rng(list(b"development secret"))
for _ in range(2):
    k_h, phi_h = int(10 ** rng_h.uniform(0, 3)), rng_h.uniform(0.05, 0.95)
    g_h, d_h = rng_h.uniform(0.06, 0.2), 10 ** rng_h.uniform(-3, -1)
    got_h = union_sample_size(k_h, phi_h, g_h, d_h)
    assert len(got_h) == 2, f"expected (m_hoeffding, m_exact), got {got_h}"
    mh_h, me_h = got_h
    assert all(isinstance(v, (int, np.integer)) for v in got_h), (
        f"expected two ints, got {got_h}"
    )
    assert mh_h == bounds.sample_complexity(k_h, g_h, d_h), f"m_hoeffding = {mh_h}"
    assert 1 <= me_h <= mh_h, f"m_exact = {me_h}, m_hoeffding = {mh_h}"
    ms_h = np.arange(max(me_h - 1, 1), mh_h + 1)
    tails_h = k_h * bounds.binomial_tail(ms_h, phi_h, g_h)
    assert np.all(tails_h[ms_h >= me_h] <= d_h), f"k P > delta at some m >= {me_h}"
    assert me_h == 1 or tails_h[0] > d_h, f"k P <= delta from m = {me_h - 1} on already"

# HIDDEN TEST: symmetric in phi and 1 - phi, and m_exact grows with k
rng_h = np.random.default_rng(list(b"development secret"))
phi_h, g_h = rng_h.uniform(0.05, 0.95), rng_h.uniform(0.08, 0.2)
d_h = 10 ** rng_h.uniform(-3, -1)
k_h = np.sort(rng_h.integers(1, 1000, size=2))
a_h = union_sample_size(int(k_h[0]), phi_h, g_h, d_h)
b_h = union_sample_size(int(k_h[1]), phi_h, g_h, d_h)
c_h = union_sample_size(int(k_h[1]), 1 - phi_h, g_h, d_h)
assert tuple(b_h) == tuple(c_h), f"phi: {b_h}, 1 - phi: {c_h}"
assert a_h[1] <= b_h[1] and a_h[0] <= b_h[0], (
    f"k = {k_h[0]}: {a_h}, k = {k_h[1]}: {b_h}"
)
ms_h = np.arange(max(b_h[1] - 1, 1), b_h[0] + 1)
tails_h = k_h[1] * bounds.binomial_tail(ms_h, phi_h, g_h)
assert np.all(tails_h[ms_h >= b_h[1]] <= d_h) and (b_h[1] == 1 or tails_h[0] > d_h), (
    f"m_exact = {b_h[1]} for k = {k_h[1]}"
)

# %% [markdown]
# ```{exercise} Core · 3 points · about 25 min
# :label: ex-code-monte-carlo-deviation
# Write `mc_deviation(m, phi, gamma, n_rep, seed)`, a Monte Carlo estimate of
# $P(|\hat\phi - \phi| > \gamma)$: draw `n_rep` training sets of `m` Bernoulli($\phi$)
# samples with `np.random.default_rng(seed)`, and return the fraction of them whose mean
# deviates from $\phi$ by more than $\gamma$. The grader compares it with the exact
# binomial tail and with Hoeffding's bound, allowing for the Monte Carlo error (with
# values of $\gamma$ that no $|\hat\phi - \phi|$ can equal, so rounding never decides a
# tie). While this is graded, `mlnotes.bounds.simulate_deviation`,
# `mlnotes.bounds.binomial_tail`, `mlnotes.bounds.binomial_logpmf`,
# `mlnotes.bounds._binomial_pmf_rows`, `mlnotes.bounds.mc_interval` and `scipy.stats`
# are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def mc_deviation(m, phi, gamma, n_rep, seed):
    # BEGIN SOLUTION
    rng = np.random.default_rng(seed)
    phi_hat = rng.binomial(m, phi, size=n_rep) / m
    return float(np.mean(np.abs(phi_hat - phi) > gamma))
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: monte-carlo-deviation, points: 3, tier: core, minutes: 25,
#   withdraw: [mlnotes.bounds.simulate_deviation, mlnotes.bounds.binomial_tail,
#              mlnotes.bounds.binomial_logpmf, mlnotes.bounds._binomial_pmf_rows,
#              mlnotes.bounds.mc_interval, scipy.stats]}
# TEST: m = 50, phi = 0.3, gamma = 0.11: within 5 Monte Carlo standard errors
p_test = bounds.binomial_tail(50, 0.3, 0.11)
est_test = mc_deviation(50, 0.3, 0.11, 20000, 0)
assert np.ndim(est_test) == 0, f"expected a number, got shape {np.shape(est_test)}"
err_test = 5 * np.sqrt(p_test * (1 - p_test) / 20000)
assert abs(est_test - p_test) < err_test, (
    f"expected {p_test} +- {err_test}, got {est_test}"
)

# HIDDEN TEST: a frequency out of n_rep, within 5 standard errors, fixed by the seed
rng_h = np.random.default_rng(list(b"development secret"))
for _ in range(3):
    m_h, phi_h = int(rng_h.integers(5, 200)), rng_h.uniform(0.1, 0.9)
    g_h = (np.floor(rng_h.uniform(0, 0.15) * m_h) + rng_h.uniform(0.2, 0.8)) / m_h
    n_h, seed_h = int(rng_h.integers(2000, 20000)), int(rng_h.integers(2**31))
    p_h = bounds.binomial_tail(m_h, phi_h, g_h)
    est_h = mc_deviation(m_h, phi_h, g_h, n_h, seed_h)
    assert abs(est_h * n_h - round(est_h * n_h)) < 1e-6, "not a frequency out of n_rep"
    assert abs(est_h - p_h) < 5 * np.sqrt(p_h * (1 - p_h) / n_h) + 1e-3, "too far"
    assert est_h == mc_deviation(m_h, phi_h, g_h, n_h, seed_h), "the seed is not used"

# HIDDEN TEST: a reproducible frequency out of n_rep, below Hoeffding's bound
rng_h = np.random.default_rng(list(b"development secret"))
m_h, phi_h = int(rng_h.integers(100, 500)), rng_h.uniform(0.2, 0.8)
g_h = (np.floor(rng_h.uniform(0.05, 0.1) * m_h) + rng_h.uniform(0.2, 0.8)) / m_h
n_h, seed_h = int(rng_h.integers(2000, 8000)), int(rng_h.integers(2**31))
est_h = mc_deviation(m_h, phi_h, g_h, n_h, seed_h)
assert abs(est_h * n_h - round(est_h * n_h)) < 1e-6, "not a frequency out of n_rep"
hoeffding_h = bounds.hoeffding_bound(m_h, g_h)
assert 0 <= est_h <= hoeffding_h + 5 * np.sqrt(hoeffding_h / n_h), (
    "above Hoeffding's bound"
)
# The seed decides the sample. Here the tail is tiny, so two runs on fresh entropy often
# agree (both 0); near the median of |phi_hat - phi| the frequency is near 1/2, and two
# such runs agree with probability below 1/sqrt(pi n_rep) (under 2 %) at each gamma.
for q_h in rng_h.uniform(0.5, 0.9, size=3):
    g_q = q_h * np.sqrt(phi_h * (1 - phi_h) / m_h)
    runs_h = [mc_deviation(m_h, phi_h, g_q, n_h, seed_h) for _ in range(2)]
    assert runs_h[0] == runs_h[1], "the seed is not used"

# %% [markdown]
# ```{exercise} Core · 3 points · about 40 min
# :label: ex-code-growth-count
# Write `growth_count(x, cls)` that returns the pair `(count, shattered)`: the number of
# distinct labellings $(h(x_1), \dots, h(x_m)) \in \{-1, +1\}^m$ that the class `cls`
# realises on the points of the 1-D array `x`, as an `int`, and whether `cls` shatters
# them, as a `bool`. The classes are those of {eq}`eq-growth-functions`: `"thresholds"`,
# $h_t(x) = +1$ if $x > t$ and $-1$ otherwise, for every real $t$; `"stumps"`, the
# thresholds and their negations $-h_t$; `"intervals"`, $+1$ on $[a, b]$ and $-1$
# elsewhere, for every $a \le b$. The points come in any order and may repeat (a repeated
# point gets the same label from every hypothesis), so count the labellings themselves,
# not a formula in $m$: enumerate one representative hypothesis per distinct labelling
# and remove the duplicates. The grader counts the labellings by brute force. While this
# is graded, `mlnotes.claims.bounds` is unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def growth_count(x, cls):
    # BEGIN SOLUTION
    x = np.asarray(x, dtype=float)
    u = np.unique(x)
    # one threshold per gap between the sorted distinct values, one below, one above
    cuts = np.concatenate([[u[0] - 1.0], (u[:-1] + u[1:]) / 2, [u[-1] + 1.0]])
    if cls == "intervals":  # (cuts[a], cuts[b]) holds a run of values, then none
        a, b = np.triu_indices(len(cuts), 1)
        inside = (x[None, :] > cuts[a, None]) & (x[None, :] < cuts[b, None])
        labels = np.vstack([np.where(inside, 1, -1), -np.ones((1, x.size), int)])
    else:
        labels = np.where(x[None, :] > cuts[:, None], 1, -1)
        if cls == "stumps":
            labels = np.vstack([labels, -labels])
    count = len(np.unique(labels, axis=0))
    return int(count), bool(count == 2**x.size)
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: growth-count, points: 3, tier: core, minutes: 40,
#   withdraw: [mlnotes.claims.bounds]}
# TEST: 4 distinct points and one repeated, every class (values of eq-growth-functions)
x_test = np.array([0.7, 0.1, 0.4, 0.1, 0.9])  # four distinct values
for cls_test, count_test in (("thresholds", 5), ("stumps", 8), ("intervals", 11)):
    got_test = growth_count(x_test, cls_test)
    assert tuple(got_test) == (count_test, False), (
        f"{cls_test}: expected ({count_test}, False), got {got_test}"
    )
    got_test = growth_count(np.array([0.3, 0.3]), cls_test)  # one point, given twice
    assert tuple(got_test) == (2, False), f"{cls_test}, a point twice: got {got_test}"

# HIDDEN TEST: the number of labellings found by brute force, on points with repeats
rng_h = np.random.default_rng(list(b"development secret"))
for _ in range(3):
    m_h = int(rng_h.integers(4, 12))
    x_h = rng_h.integers(0, m_h, size=m_h) / m_h  # repeats are likely
    x_h[0] = x_h[-1]  # and certain
    t_h = np.concatenate([[x_h.min() - 1], x_h])  # t at each point: every gap
    thr_h = {tuple(np.where(x_h > t, 1, -1)) for t in t_h}
    stumps_h = thr_h | {tuple(-np.array(r)) for r in thr_h}
    runs_h = {tuple(np.where((x_h >= a) & (x_h <= b), 1, -1)) for a in x_h for b in x_h}
    runs_h.add(tuple(-np.ones(m_h, int)))  # the empty interval
    for cls_h, rows_h in (("thresholds", thr_h), ("stumps", stumps_h),
                          ("intervals", runs_h)):
        got_h = growth_count(x_h, cls_h)
        assert tuple(got_h) == (len(rows_h), False), (
            f"{cls_h} on {m_h} points: expected ({len(rows_h)}, False), got {got_h}"
        )
        got_h = growth_count(np.full(2, x_h[0]), cls_h)  # a point twice: 2 labellings
        assert tuple(got_h) == (2, False), f"{cls_h}, one point twice: got {got_h}"

# HIDDEN TEST: distinct points: shattered exactly when count = 2^m, intervals at d = 2
rng_h = np.random.default_rng(list(b"development secret"))
for m_h in range(1, int(rng_h.integers(4, 9)) + 1):
    x_h = rng_h.permutation(rng_h.uniform(-5, 5, size=m_h))
    t_h = np.concatenate([[x_h.min() - 1], x_h])
    thr_h = {tuple(np.where(x_h > t, 1, -1)) for t in t_h}
    stumps_h = thr_h | {tuple(-np.array(r)) for r in thr_h}
    runs_h = {tuple(np.where((x_h >= a) & (x_h <= b), 1, -1)) for a in x_h for b in x_h}
    runs_h.add(tuple(-np.ones(m_h, int)))
    for cls_h, rows_h in (("thresholds", thr_h), ("stumps", stumps_h),
                          ("intervals", runs_h)):
        want_h = (len(rows_h), len(rows_h) == 2**m_h)
        got_h = growth_count(x_h, cls_h)
        assert tuple(got_h) == want_h, (
            f"{cls_h}, m = {m_h}: expected {want_h}, got {got_h}"
        )
        assert isinstance(got_h[1], (bool, np.bool_)), f"not a bool: {got_h[1]}"
        got_h = growth_count(np.repeat(x_h, 2), cls_h)  # each point twice
        assert tuple(got_h) == (len(rows_h), False), f"{cls_h}, points twice: {got_h}"

# %% [markdown]
# ```{exercise} Challenge · 4 points · about 60 min
# :label: ex-code-halfspace-labelings
# Write `halfspace_labelings(X)` that returns every labelling of the $n$ points of the plane
# in the rows of `X` (shape $n \times 2$, in general position: no three on a line) that a
# halfspace with offset realises, $y_i = \sign(w^\top x_i + b)$ with $w \in \R^2$,
# $b \in \R$ and no point on the line $w^\top x + b = 0$: an integer array of shape
# $N \times n$ with entries $\pm 1$, one row per labelling, each once, in any order.
# Its number of rows is $\Pi(n)$ for these points. Use this: a separating line of a
# labelling that is not constant can be moved, without crossing a point, until it passes
# through two points $x_i$ and $x_j$ (translate it until it meets one, then turn it about
# that one until it meets another). Then enumerate the lines through two points, both
# orientations, and the four ways of labelling the two points on the line. The grader
# compares your rows with a sweep over the directions of $w$ and with Cover's count for
# points in general position, and checks which sets are shattered.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def halfspace_labelings(X):
    # BEGIN SOLUTION
    X = np.asarray(X, dtype=float)
    n = len(X)
    rows = {(1,) * n, (-1,) * n}
    for i in range(n):
        for j in range(i + 1, n):
            d = X[j] - X[i]  # the side of each point of the line through x_i and x_j
            side = np.sign(d[0] * (X[:, 1] - X[i, 1]) - d[1] * (X[:, 0] - X[i, 0]))
            for s in (1, -1):
                for y_i in (1, -1):
                    for y_j in (1, -1):
                        y = (s * side).astype(int)
                        y[i], y[j] = y_i, y_j
                        rows.add(tuple(y.tolist()))
    return np.array(sorted(rows), dtype=int)
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: halfspace-labelings, points: 4, tier: challenge, minutes: 60}
# TEST: the corners of a square: 14 labellings, all but the two diagonal ones (XOR)
rows_test = np.asarray(halfspace_labelings(np.array([[0, 0], [1, 0], [1, 1], [0, 1]])))
assert rows_test.shape == (14, 4), f"expected 14 rows of 4, got {rows_test.shape}"
set_test = {tuple(int(v) for v in r) for r in rows_test}
assert len(set_test) == 14, f"{14 - len(set_test)} repeated rows"
assert not {(1, -1, 1, -1), (-1, 1, -1, 1)} & set_test, "a diagonal labelling"
assert np.all(np.abs(rows_test) == 1), f"labels must be +1 or -1: {rows_test}"

# HIDDEN TEST: the labellings of a sweep over the directions of w; n^2 - n + 2 of them
rng_h = np.random.default_rng(list(b"development secret"))
n_h = int(rng_h.integers(5, 10))
X_h = rng_h.normal(size=(n_h, 2)) * rng_h.uniform(0.1, 10, size=2)
i_h, j_h = np.triu_indices(n_h, 1)
d_h = X_h[j_h] - X_h[i_h]  # w orthogonal to x_j - x_i: the order of w'x changes there
normal_h = np.arctan2(d_h[:, 1], d_h[:, 0])[:, None] + [np.pi / 2, -np.pi / 2]
crit_h = np.sort(np.mod(normal_h, 2 * np.pi).ravel())
mids_h = (crit_h + np.append(crit_h[1:], crit_h[0] + 2 * np.pi)) / 2
sweep_h = set()
for a in mids_h:  # one direction between each two critical ones: every order of w'x
    p_h = X_h @ np.array([np.cos(a), np.sin(a)])
    for c in np.concatenate([[p_h.min() - 1], p_h]):  # b = -c: every cut of that order
        sweep_h.add(tuple(np.where(p_h > c, 1, -1).tolist()))
rows_h = np.asarray(halfspace_labelings(X_h))
assert rows_h.shape == (n_h**2 - n_h + 2, n_h), (
    f"{n_h} points: expected {n_h**2 - n_h + 2} rows, got shape {rows_h.shape}"
)
got_h = {tuple(int(v) for v in r) for r in rows_h}
assert got_h == sweep_h, (
    f"{len(got_h - sweep_h)} rows no halfspace realises, "
    f"{len(sweep_h - got_h)} labellings missing, {len(rows_h) - len(got_h)} repeated"
)

# HIDDEN TEST: 3 points in general position are shattered, 4 are not; Cover's count
rng_h = np.random.default_rng(list(b"development secret"))
for n_h in range(1, int(rng_h.integers(5, 9))):
    X_h = rng_h.uniform(-1, 1, size=(n_h, 2)) * 10 ** rng_h.uniform(-2, 2)
    rows_h = np.asarray(halfspace_labelings(X_h))
    cover_h = 2 * (1 + (n_h - 1) + (n_h - 1) * (n_h - 2) // 2)  # 2 sum_i<=2 C(n-1, i)
    assert rows_h.shape == (cover_h, n_h), f"n = {n_h}: expected {cover_h} rows"
    assert len(np.unique(rows_h, axis=0)) == cover_h, f"n = {n_h}: repeated rows"
    assert np.all(np.abs(rows_h) == 1), f"labels must be +1 or -1: {rows_h}"
    assert (len(rows_h) == 2**n_h) == (n_h <= 3), f"n = {n_h}: shattered is wrong"

# %% [markdown]
# ```{exercise} Core · 3 points · about 45 min
# :label: ex-code-stump-bound-experiment
# An experiment on the breast cancer data of section {ref}`sec-test-interval`. Write
# `stump_bound_experiment(x, y, train, thresholds, delta)`: `x` is one feature of all
# 569 tumours, `y` their labels in $\{0, 1\}$ (1 benign; read it as $+1$, 0 as $-1$),
# `train` a boolean mask of the training points and `thresholds` a grid fixed before the
# labels are seen. Run ERM over the $k = 2 \times$ `len(thresholds)` stumps $h_{t_j, s}$ of
# {eq}`def-stump-error` (both polarities) on the training points, and return the three
# floats `(train_error, test_error, bound)`: the training error of the chosen stump, its
# error on the points outside `train`, and the deviation $\gamma$ for which Hoeffding's
# inequality and the union bound over the $k$ stumps guarantee, with probability at least
# $1 - \delta$, that every stump's training error on the $m$ training points is within
# $\gamma$ of its generalisation error. The grader
# computes the three numbers itself and accepts yours within $10^{-9}$; when several stumps
# tie for the smallest training error, the test error of any of them is accepted. Compare
# `test_error - train_error` with `bound` on a few features: how loose is the bound? While
# this is graded, `mlnotes.bounds.uniform_deviation`, `mlnotes.bounds.sample_complexity`,
# `mlnotes.bounds.stump_class`, `mlnotes.bounds.erm_simulation`,
# `mlnotes.boosting.best_stump` and `mlnotes.boosting.stump_errors` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def stump_bound_experiment(x, y, train, thresholds, delta):
    # BEGIN SOLUTION
    train = np.asarray(train, dtype=bool)
    labels = np.where(y == 1, 1, -1)
    pred = np.where(x[None, :] > thresholds[:, None], 1, -1)  # s = +1, one row per t_j
    wrong = pred != labels[None, :]
    err_train = np.concatenate([wrong[:, train].mean(axis=1),  # s = +1, then s = -1
                                1 - wrong[:, train].mean(axis=1)])
    err_test = np.concatenate([wrong[:, ~train].mean(axis=1),
                               1 - wrong[:, ~train].mean(axis=1)])
    best = int(np.argmin(err_train))
    m, k = int(train.sum()), 2 * len(thresholds)
    bound = np.sqrt(np.log(2 * k / delta) / (2 * m))
    return float(err_train[best]), float(err_test[best]), float(bound)
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: stump-bound-experiment, points: 3, tier: core, minutes: 45,
#   data: breast_cancer,
#   withdraw: [mlnotes.bounds.uniform_deviation, mlnotes.bounds.sample_complexity,
#              mlnotes.bounds.stump_class, mlnotes.bounds.erm_simulation,
#              mlnotes.boosting.best_stump, mlnotes.boosting.stump_errors]}
# TEST: mean radius (feature 0), the first 100 tumours to train, 20 thresholds
D_test = load_breast_cancer()
x_test, y_test = D_test.X[:, 0], D_test.y
train_test = np.arange(len(y_test)) < 100
t_test = np.quantile(x_test, (np.arange(20) + 0.5) / 20)
got_test = stump_bound_experiment(x_test, y_test, train_test, t_test, 0.05)
assert len(got_test) == 3, f"expected (train_error, test_error, bound), got {got_test}"
lab_test = np.where(y_test == 1, 1, -1)
P_test = np.array([[s * np.where(x_test > t, 1, -1) for t in t_test] for s in (1, -1)])
E_test = (P_test != lab_test)[:, :, train_test].mean(axis=2)  # (polarity, threshold)
np.testing.assert_allclose(got_test[0], E_test.min(), atol=1e-9,
                           err_msg="the smallest training error")
T_test = (P_test != lab_test)[:, :, ~train_test].mean(axis=2)
ties_test = T_test[np.isclose(E_test, E_test.min(), rtol=0, atol=1e-12)]
assert np.min(np.abs(ties_test - got_test[1])) < 1e-9, (
    f"test error {got_test[1]}, expected one of {np.unique(ties_test)}"
)
np.testing.assert_allclose(got_test[2], bounds.uniform_deviation(100, 40, 0.05),
                           rtol=1e-9, err_msg="the uniform deviation of 40 stumps")

# HIDDEN TEST: the three numbers, on a random feature and training sample, both labels
rng_h = np.random.default_rng(list(b"development secret"))
D_h = load_breast_cancer()
x_h = D_h.X[:, rng_h.integers(D_h.X.shape[1])]
train_h = np.zeros(len(x_h), bool)
train_h[rng_h.choice(len(x_h), size=int(rng_h.integers(40, 200)), replace=False)] = True
t_h = np.sort(np.quantile(x_h, rng_h.uniform(0.02, 0.98, size=rng_h.integers(5, 60))))
d_h = 10 ** rng_h.uniform(-3, -1)
for y_h in (D_h.y, 1 - D_h.y):  # benign as +1, then malignant: both polarities win once
    lab_h = np.where(y_h == 1, 1, -1)
    P_h = np.array([[s * np.where(x_h > t, 1, -1) for t in t_h] for s in (1, -1)])
    W_h = P_h != lab_h  # (polarity, threshold, point)
    E_tr, E_te = W_h[:, :, train_h].mean(axis=2), W_h[:, :, ~train_h].mean(axis=2)
    got_h = stump_bound_experiment(x_h, y_h, train_h, t_h, d_h)
    assert len(got_h) == 3, f"expected (train_error, test_error, bound), got {got_h}"
    np.testing.assert_allclose(got_h[0], E_tr.min(), atol=1e-9,
                               err_msg="the smallest training error")
    ties_h = E_te[np.isclose(E_tr, E_tr.min(), rtol=0, atol=1e-12)]
    assert np.min(np.abs(ties_h - got_h[1])) < 1e-9, (
        f"test error {got_h[1]}, expected one of {np.unique(ties_h)}"
    )
    k_h = 2 * len(t_h)
    gamma_h = bounds.uniform_deviation(train_h.sum(), k_h, d_h)
    np.testing.assert_allclose(got_h[2], gamma_h, rtol=1e-9,
                               err_msg=f"the uniform deviation of {k_h} stumps")

# HIDDEN TEST: a larger training set: the ERM errors and a smaller deviation bound
rng_h = np.random.default_rng(list(b"development secret"))
D_h = load_breast_cancer()
x_h, y_h = D_h.X[:, rng_h.integers(D_h.X.shape[1])], D_h.y
order_h = rng_h.permutation(len(x_h))
m_h = np.sort(rng_h.integers(30, 400, size=2))
t_h = np.sort(rng_h.choice(x_h, size=int(rng_h.integers(5, 40)), replace=False))
d_h = 10 ** rng_h.uniform(-3, -1)
lab_h = np.where(y_h == 1, 1, -1)
W_h = np.array([[s * np.where(x_h > t, 1, -1) for t in t_h] for s in (1, -1)]) != lab_h
bound_h = []
for mm in m_h:
    train_h = np.isin(np.arange(len(x_h)), order_h[:mm])
    E_tr, E_te = W_h[:, :, train_h].mean(axis=2), W_h[:, :, ~train_h].mean(axis=2)
    got_h = stump_bound_experiment(x_h, y_h, train_h, t_h, d_h)
    assert len(got_h) == 3, f"expected (train_error, test_error, bound), got {got_h}"
    ties_h = E_te[np.isclose(E_tr, E_tr.min(), rtol=0, atol=1e-12)]
    ok_h = abs(got_h[0] - E_tr.min()) < 1e-9 and np.min(abs(ties_h - got_h[1])) < 1e-9
    assert ok_h, (
        f"m = {mm}: got {got_h[:2]}, training error {E_tr.min()}"
    )
    bound_h.append(got_h[2])
want_h = bounds.uniform_deviation(m_h, 2 * len(t_h), d_h)
np.testing.assert_allclose(np.array(bound_h), want_h, rtol=1e-9, err_msg="the bounds")
assert m_h[0] == m_h[1] or bound_h[1] < bound_h[0], f"the bound grows with m: {bound_h}"

# %% [markdown]
# ## Summary
#
# - A training error is a mean of Bernoulli variables with mean the generalisation error;
#   Hoeffding's inequality bounds its deviation by $2e^{-2\gamma^2 m}$ for one hypothesis fixed
#   in advance. The bound is checked exactly against the binomial tail and by simulation with
#   computed Monte Carlo limits; it is loose, most of all for error rates far from $1/2$.
# - The union bound extends it to all $k$ hypotheses at once: with probability at least
#   $1 - \delta$, every $|\hat e(h) - e(h)| \le \sqrt{\log(2k/\delta)/(2m)}$, and
#   $m \ge \log(2k/\delta)/(2\gamma^2)$ samples suffice for a target $\gamma$.
# - ERM then satisfies $e(\hat h) \le e(h^*) + 2\gamma$, with $h^*$ the best hypothesis of
#   the class. A richer class lowers $e(h^*)$ and raises $\gamma$; the error of the chosen
#   hypothesis need not fall.
# - Hoeffding's inequality follows from Markov's inequality applied to $e^{\lambda m(\hat\phi -
#   \phi)}$ (Chernoff's method), Hoeffding's lemma $E[e^{\lambda X}] \le e^{\lambda^2(b -
#   a)^2/8}$ for each factor, and the choice $\lambda = 4\gamma$.
# - Uniform convergence makes ERM an agnostic PAC learner with order $\log(k/\delta)/\epsilon^2$
#   samples; in the realisable case $\log(k/\delta)/\epsilon$ suffice, and both rates are
#   attained.
# - A test set independent of training makes the test error a binomial mean: Hoeffding
#   gives an interval $\hat e_{\text{test}} \pm \sqrt{\log(2/\delta)/(2n)}$ for one
#   classifier fixed before the test, and the exact Clopper-Pearson interval a narrower one.
# - Chernoff's relative-entropy bound has the right exponent.
# - For infinite classes the growth function replaces $k$: Sauer's lemma makes it a
#   polynomial of degree the VC dimension, and the VC bound a deviation of order
#   $\sqrt{d\log m/m}$, with constants that, for stumps stored as doubles, lose to the
#   finite-class bound.
#
# ## References
#
# Hoeffding's inequality is from {cite}`hoeffding1963probability`; the finite-class analysis
# follows {cite}`shalev2014understanding` (chapters 2-4), which with
# {cite}`mohri2018foundations` and {cite}`vapnik1998statistical` covers VC theory; concentration
# inequalities are surveyed in {cite}`boucheron2013concentration`.
