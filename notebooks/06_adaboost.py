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
#   enumerator: '6.%s'
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
# (ch-adaboost)=
# # AdaBoost
#
# A *weak learner* is a rule of thumb: a classifier that is right a little more often than a coin,
# such as "the tumour is malignant if its worst radius exceeds 16.8". Boosting turns many of
# them into one accurate classifier. AdaBoost {cite}`freund1997decision` does it with two simple
# ideas: each round reweights the training examples so that the next rule of thumb concentrates
# on the examples the previous ones got wrong, and the final classifier is a weighted vote.
#
# **What you will learn**
#
# - the algorithm: the distribution $D_t$ over examples, the weighted error $\epsilon_t$, the vote
#   $\alpha_t$, the normaliser $Z_t$, the final weighted vote;
# - how to find the best decision stump *exactly*, over every feature and threshold, in $O(nd)$
#   per round;
# - why the training error falls exponentially fast: the chain
#   $\text{error} \le \prod_t Z_t = \prod_t \sqrt{1 - 4\gamma_t^2} \le e^{-2\sum_t \gamma_t^2}$,
#   checked at every round of real runs;
# - three views of the same algorithm: coordinate descent on the exponential loss, forward
#   stagewise fitting of an additive model, and an estimate of half the log-odds of the posterior;
# - what happens on real data over many rounds: training and test error, the weights, the margins.
#
# The source notes for this chapter (notes 000, section 5.1) contain several mistakes; each is
# pointed out where it occurs and listed on the {ref}`errata page <errata>` with the check that
# exposes it.

# %%
import numpy as np
from matplotlib import pyplot as plt

from mlnotes import boosting, claims, datasets, plots, to_pm1

plots.setup()
np.set_printoptions(precision=4, suppress=True)
rng = np.random.default_rng(6)

# %% [markdown]
# (sec-adaboost-algorithm)=
# ## The algorithm
#
# We are given $n$ examples $(x_i, y_i)$ with labels $y_i \in \{-1, +1\}$, and a weak learner that,
# given weights on the examples, returns a classifier $h: \mathcal X \to \{-1, +1\}$ with a small
# weighted error. AdaBoost starts from the uniform distribution $D_1(i) = 1/n$ and, for
# $t = 1, \dots, T$,
#
# $$
# \begin{aligned}
# \epsilon_t &= \sum_{i=1}^n D_t(i)\,[y_i \ne h_t(x_i)], &
# \alpha_t &= \frac12 \log\frac{1 - \epsilon_t}{\epsilon_t}, \\
# D_{t+1}(i) &= \frac{D_t(i)\, e^{-\alpha_t y_i h_t(x_i)}}{Z_t}, &
# Z_t &= \sum_{i=1}^n D_t(i)\, e^{-\alpha_t y_i h_t(x_i)}, \\
# f(x) &= \sum_{t=1}^T \alpha_t h_t(x), & H(x) &= \sign f(x).
# \end{aligned}
# $$ (def-adaboost)
#
# Because $y_i h_t(x_i)$ is $+1$ on a correct example and $-1$ on a mistake, the update multiplies
# the weight of every mistake by $e^{\alpha_t}$ and of every correct example by $e^{-\alpha_t}$;
# $Z_t$ makes the new weights sum to one. With $\epsilon_t < 1/2$ the vote $\alpha_t$ is
# positive, and the better the learner, the larger its vote. The *edge* of round $t$ is
# $\gamma_t = \frac12 - \epsilon_t$: how much better than a coin the weak learner does on $D_t$.
#
# Here is one run on a small problem: two features, labels given by a circle, which no single
# axis-aligned rule can capture.

# %%
n_toy = 200
X_toy = rng.uniform(-1, 1, (n_toy, 2))
y_toy = np.where(X_toy[:, 0] ** 2 + X_toy[:, 1] ** 2 < 0.5, 1.0, -1.0)
fit_toy = boosting.adaboost(X_toy, y_toy, n_rounds=100, keep_D=True)
print(" t  feature  threshold  s   eps_t   alpha_t   Z_t    train error")
for t in range(5):
    h = fit_toy.stumps[t]
    print(
        f"{t + 1:2d}  {h.feature:7d}  {h.threshold:9.4f} {h.polarity:+d}  "
        f"{fit_toy.eps[t]:.4f}  "
        f"{fit_toy.alpha[t]:7.4f}  {fit_toy.Z[t]:.4f}  {fit_toy.train_error[t]:.4f}"
    )
print(f"after {fit_toy.n_rounds} rounds: training error {fit_toy.train_error[-1]:.4f}")

# %% [markdown]
# About a third of the points (34%) are inside the circle, so the best first "rule of thumb" is the constant
# stump (threshold $-\infty$) that predicts $-1$ everywhere; the training error of the vote does
# not fall at every round, but the bound of {ref}`sec-training-bound` does.
#
# The weak learner used throughout is the **decision stump** $h(x) = s \cdot \sign(x_j - \theta)$:
# one feature $j$, one threshold $\theta$, one polarity $s \in \{-1, +1\}$ (the label predicted
# above the threshold). The next section finds the best one exactly.
#
# (sec-stumps)=
# ## Weighted decision stumps, found exactly
#
# Sort feature $j$ once: $x_{(1)j} \le \dots \le x_{(n)j}$. A threshold between the $k$-th and the
# $(k+1)$-th value sends the $k$ smallest values to the left. Write $c = \sum_i D_i y_i h(x_i)$
# for the weighted correlation of the stump with the labels. The correct examples count $+1$ and
# the mistakes $-1$ in it, so $c = (1 - \epsilon) - \epsilon$, and with polarity $s$ the right
# side counts $+s\, D_i y_i$ and the left side $-s\, D_i y_i$:
#
# $$
# \epsilon(j, \theta, s) = \frac{1 - c}{2} = \frac12 - \frac{s}{2}\Big(\sum_{i} D_i y_i
#   - 2 \sum_{i:\, x_{ij} \le \theta} D_i y_i\Big).
# $$ (eq-stump-cumsum)
#
# The inner sum, over the examples left of the threshold, is a cumulative sum of $D_i y_i$ along
# the sorted feature. One cumulative sum per feature gives the error of every threshold and both
# polarities: $O(n)$ per feature and $O(nd)$ per round, once each feature has been sorted (the
# order does not change between rounds, only the weights do). Only thresholds between two
# *distinct* values count; the constant stumps ($\theta$ below every value) are included. The
# best polarity is the sign of the bracket, so the best stump maximises its absolute value,
# and its error is at most $1/2$.
#
# The check compares the formula with the direct count for every stump of small random problems
# with repeated values, and the search in `mlnotes.boosting.best_stump` with the minimum of that
# brute-force table (the tests do the same at every round of AdaBoost, under each $D_t$).

# %%
claims.verify("eq-stump-cumsum")

# %%
X_small = rng.integers(0, 4, (12, 2)).astype(float)
y_small = rng.choice([-1.0, 1.0], 12)
D_small = rng.random(12)
D_small /= D_small.sum()
stump = boosting.best_stump(X_small, y_small, D_small)
table = boosting.stump_errors(X_small, y_small, D_small)
print(f"best stump: feature {stump.feature}, threshold {stump.threshold:.2f}, "
      f"polarity {stump.polarity:+d}, weighted error {stump.eps:.4f}")
print(f"smallest error in the brute-force table of all stumps: {table.min():.4f}")

# %% [markdown]
# scikit-learn's `AdaBoostClassifier` with depth-1 trees also boosts stumps, but it chooses each
# stump by weighted Gini impurity, not by weighted error. The two criteria often pick the same
# stump and sometimes do not: on the breast cancer data they agree for the first six rounds (with
# the versions pinned here), and
# in those rounds the two implementations give the same $\epsilon_t$, the same votes
# (scikit-learn's SAMME vote is $\log\frac{1-\epsilon_t}{\epsilon_t} = 2\alpha_t$) and
# proportional scores. In round seven, under the same weights, our stump has weighted error 0.288
# and scikit-learn's 0.300; from then on the two runs reweight differently. The comparison in
# `tests/test_boosting.py` is restricted to the rounds where both pick the same stump, and checks
# at every round that scikit-learn's stump never has a lower weighted error than ours under our
# $D_t$.
#
# (sec-training-bound)=
# ## The training error falls exponentially
#
# **The normaliser.** Split the sum defining $Z_t$ into mistakes (weight $\epsilon_t$, factor
# $e^{\alpha_t}$) and correct examples (weight $1 - \epsilon_t$, factor $e^{-\alpha_t}$):
#
# $$
# Z_t = \sum_{i} D_t(i)\, e^{-\alpha_t y_i h_t(x_i)} = \epsilon_t e^{\alpha_t} + (1 - \epsilon_t) e^{-\alpha_t}.
# $$ (eq-Z-split)
#
# The notes define $Z_t$ with a division by the exponential instead of a multiplication; that sum
# is not the total of the updated weights. The check compares the normaliser AdaBoost actually
# computes with the right-hand side at every round of runs on real data.

# %%
claims.verify("eq-Z-split")

# %% [markdown]
# **Unrolling the update.** Apply the update $T$ times from $D_1(i) = 1/n$: the exponentials
# multiply into the exponential of a sum, and that sum is the score
# $f_T(x_i) = \sum_{t \le T} \alpha_t h_t(x_i)$:
#
# $$
# D_{T+1}(i) = \frac{1}{n} \prod_{t=1}^T \frac{e^{-\alpha_t y_i h_t(x_i)}}{Z_t}
#   = \frac{e^{-y_i f_T(x_i)}}{n \prod_{t=1}^T Z_t}.
# $$ (eq-unrolled-D)
#
# The weight of an example is a decreasing function of its margin $y_i f_T(x_i)$: the examples
# the vote gets wrong, or barely right, carry the weight.

# %%
claims.verify("eq-unrolled-D")

# %% [markdown]
# **The zero-one loss is below the exponential loss.** A mistake has $y f(x) \le 0$, so
# $e^{-y f(x)} \ge 1$; a correct example has $e^{-yf(x)} > 0$:
#
# $$
# [y f(x) \le 0] \le e^{-y f(x)}.
# $$ (eq-zero-one-exp)
#
# The notes write an equality here; it is an inequality, and it is strict at every example.

# %%
claims.verify("eq-zero-one-exp")

# %% [markdown]
# Summing {eq}`eq-unrolled-D` over $i$ and using $\sum_i D_{T+1}(i) = 1$ turns the average
# exponential loss into the product of the normalisers:
#
# $$
# \frac1n \sum_{i=1}^n e^{-y_i f_T(x_i)} = \prod_{t=1}^T Z_t \sum_{i=1}^n D_{T+1}(i) = \prod_{t=1}^T Z_t.
# $$ (eq-exp-loss-product)

# %%
claims.verify("eq-exp-loss-product")

# %% [markdown]
# **The best vote.** $Z_t(\alpha) = \epsilon_t e^{\alpha} + (1 - \epsilon_t) e^{-\alpha}$ is
# convex in $\alpha$ (its second derivative is $Z_t(\alpha) > 0$); its derivative
# $\epsilon_t e^\alpha - (1 - \epsilon_t) e^{-\alpha}$ vanishes when
# $e^{2\alpha} = (1 - \epsilon_t)/\epsilon_t$. Substituting $e^{\alpha_t} =
# \sqrt{(1 - \epsilon_t)/\epsilon_t}$ back,
#
# $$
# \begin{aligned}
# \alpha_t &= \operatorname*{argmin}_\alpha\, Z_t(\alpha) = \frac12 \log\frac{1 - \epsilon_t}{\epsilon_t}, \\
# Z_t(\alpha_t) &= \epsilon_t\sqrt{\tfrac{1 - \epsilon_t}{\epsilon_t}} +
# (1 - \epsilon_t)\sqrt{\tfrac{\epsilon_t}{1 - \epsilon_t}} = 2\sqrt{\epsilon_t (1 - \epsilon_t)}.
# \end{aligned}
# $$ (eq-optimal-alpha)
#
# sympy checks that the derivative vanishes there, that this is the only stationary point, that
# the second derivative equals $Z_t > 0$, and the value. Two errata: the notes' eq. (5.7) states
# $\alpha = \log\frac{\epsilon}{1 - \epsilon}$, which is negative for a good learner and gives
# $Z > 1$; and their eq. (5.14) writes an argmax where the vote is an argmin.

# %%
claims.verify("eq-optimal-alpha")

# %% [markdown]
# So at every round of AdaBoost
#
# $$
# Z_t = 2\sqrt{\epsilon_t (1 - \epsilon_t)},
# $$ (eq-Z-closed-form)
#
# which the check confirms with the normalisers computed by the algorithm on real runs.

# %%
claims.verify("eq-Z-closed-form")

# %% [markdown]
# **In terms of the edge.** With $\epsilon_t = \frac12 - \gamma_t$,
# $4\epsilon_t(1 - \epsilon_t) = (1 - 2\gamma_t)(1 + 2\gamma_t) = 1 - 4\gamma_t^2$:
#
# $$
# 2\sqrt{\epsilon_t(1 - \epsilon_t)} = \sqrt{1 - 4\gamma_t^2}.
# $$ (eq-Z-gamma)

# %%
claims.verify("eq-Z-gamma")

# %% [markdown]
# **Below an exponential.** From $1 - u \le e^{-u}$ with $u = 4\gamma^2 \in [0, 1]$ and taking
# square roots,
#
# $$
# \sqrt{1 - 4\gamma^2} \le e^{-2\gamma^2}, \qquad 0 \le \gamma \le \tfrac12.
# $$ (eq-sqrt-exp)

# %%
claims.verify("eq-sqrt-exp")

# %% [markdown]
# Putting the pieces together:
#
# ```{prf:theorem} Training error of AdaBoost
# :label: thm-adaboost-train
#
# After $T$ rounds of AdaBoost with edges $\gamma_t = \frac12 - \epsilon_t$, the training error of
# $H = \sign f_T$ (counting a zero score as a mistake) satisfies
# $\frac1n \sum_i [y_i f_T(x_i) \le 0] \le \prod_t Z_t = \prod_t \sqrt{1 - 4\gamma_t^2} \le
# e^{-2\sum_t \gamma_t^2}$. If every edge is at least $\gamma > 0$, the training error is at most
# $e^{-2T\gamma^2}$, and it is zero once $T > \ln n / (2\gamma^2)$.
# ```
#
# ```{prf:proof}
# Average {eq}`eq-zero-one-exp` over the examples and use {eq}`eq-exp-loss-product`; then
# {eq}`eq-Z-closed-form`, {eq}`eq-Z-gamma` and {eq}`eq-sqrt-exp` round by round. A training
# error below $1/n$ is zero.
# ```
#
# $$
# \frac1n \sum_{i=1}^n [y_i f_T(x_i) \le 0] \le \prod_{t=1}^T Z_t = \prod_{t=1}^T \sqrt{1 - 4\gamma_t^2}
#   \le \exp\Big(-2 \sum_{t=1}^T \gamma_t^2\Big).
# $$ (eq-train-bound)
#
# The check runs AdaBoost on random subsamples of the breast cancer and heart data and on
# synthetic problems, and tests the whole chain after every round of every run.

# %%
claims.verify("eq-train-bound")

# %% [markdown]
# The same chain on the run of this chapter: AdaBoost on two thirds of the breast cancer data
# (Breast Cancer Wisconsin, Diagnostic, from the UCI repository: 569 tumours, 30 features, label $+1$ for benign), 400 rounds. The
# training error reaches zero long before the bound says it must, and the bound keeps falling ({numref}`fig-adaboost-bound`).

# %%
bc = datasets.load_breast_cancer()
X_bc, y_bc = bc.X, to_pm1(bc.y)
perm = rng.permutation(len(y_bc))
train, test = perm[:380], perm[380:]
fit_bc = boosting.adaboost(X_bc[train], y_bc[train], n_rounds=400)
prod_Z = np.cumprod(fit_bc.Z)
exp_bound = np.exp(-2 * np.cumsum(fit_bc.gamma**2))
chain = (fit_bc.train_error <= prod_Z) & (prod_Z <= exp_bound)
print(f"chain holds at {chain.sum()} of {fit_bc.n_rounds} rounds")
print(f"training error first zero after round {np.argmax(fit_bc.train_error == 0) + 1}")
print(
    f"after 400 rounds: prod Z = {prod_Z[-1]:.2e}, exp(-2 sum gamma^2) = "
    f"{exp_bound[-1]:.2e}"
)

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "AdaBoost's training error on the breast cancer data against the round $t$, below the bound $\\prod_s Z_s$, itself below $\\exp(-2\\sum_s \\gamma_s^2)$.", "name": "fig-adaboost-bound"}, "image": {"alt": "Log-scale plot of a training error that drops to zero below two falling bound curves."}} tags=["hide-input"]
rounds = np.arange(1, fit_bc.n_rounds + 1)
fig, ax = plt.subplots()
nonzero = fit_bc.train_error > 0  # a log scale cannot show zero
ax.semilogy(
    rounds[nonzero], fit_bc.train_error[nonzero], "o", ms=3, label="training error"
)
ax.semilogy(rounds, prod_Z, label=r"$\prod_{s \leq t} Z_s$")
ax.semilogy(rounds, exp_bound, "--", label=r"$\exp(-2\sum_{s \leq t} \gamma_s^2)$")
ax.axhline(1 / len(train), color="grey", lw=0.8, ls=":")
ax.text(
    rounds[-1],
    1.3 / len(train),
    "1/n: below this the error is zero",
    ha="right",
    fontsize=8,
)
ax.set_xlabel("round $t$")
ax.set_ylabel("training error and its bounds")
ax.set_title("Breast cancer, 380 training examples")
ax.legend(loc="upper right")
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-adaboost-bound
# AdaBoost's training error on the breast cancer data against the round $t$, below the bound $\prod_s Z_s$, itself below $\exp(-2\sum_s \gamma_s^2)$.
# :::

# %% [markdown]
# (sec-degenerate-rounds)=
# ## When the weak learner is perfect, or has no edge
#
# Two rounds break the formulas, and `mlnotes.boosting.adaboost` handles both explicitly:
#
# - $\epsilon_t = 0$: the weak learner classifies every example correctly, $\alpha_t = \infty$
#   and $Z_t = 0$. The vote is computed with $\epsilon_t$ replaced by $10^{-10}$
#   ($\alpha_t \approx 11.5$, finite), the learner is added, and boosting stops
#   (`stop_reason="perfect"`): the vote already classifies every training example correctly.
# - $\epsilon_t \ge 1/2$: no edge, $\alpha_t \le 0$ and $Z_t \ge 1$, the round cannot help. The
#   learner is not added and boosting stops (`stop_reason="no edge"`). With exact stumps
#   $\epsilon_t \le 1/2$ always (the two constant stumps have errors summing to one, and the
#   search includes them), so this happens only when no stump beats a constant.
#
# Neither case divides by zero or produces a NaN:

# %%
X_sep = np.array([[0.0], [1.0], [2.0], [3.0]])
fit_sep = boosting.adaboost(X_sep, np.array([-1.0, -1.0, 1.0, 1.0]), n_rounds=50)
print(
    f"separable: {fit_sep.stop_reason}, {fit_sep.n_rounds} round, alpha = "
    f"{fit_sep.alpha[0]:.2f}, "
    f"training error {fit_sep.train_error[-1]:.1f}"
)
fit_flat = boosting.adaboost(
    np.ones((4, 1)), np.array([-1.0, 1.0, -1.0, 1.0]), n_rounds=50
)
print(f"constant feature: {fit_flat.stop_reason}, {fit_flat.n_rounds} rounds")

# %% [markdown]
# (sec-coordinate-descent)=
# ## AdaBoost is coordinate descent on the exponential loss
#
# By {eq}`eq-exp-loss-product`, what AdaBoost drives down is the exponential loss
# $L(f) = \frac1n \sum_i e^{-y_i f(x_i)}$, an upper bound on the training error. Think of $f$ as a
# linear combination of *all* possible stumps, with one coefficient per stump, all zero at the
# start. Changing only the coefficient of $h$ by $\alpha$ multiplies the loss by
# $\sum_i D_t(i) e^{-\alpha y_i h(x_i)} = Z(\alpha)$, whose minimum over $\alpha$ is
# $2\sqrt{\epsilon(h)(1 - \epsilon(h))}$, an increasing function of $\epsilon(h)$ on $[0, 1/2]$.
# So the coordinate with the steepest possible decrease is the stump of lowest weighted error,
# and the exact line search along it is $\alpha_t$:
#
# $$
# \begin{gathered}
# \frac{d}{d\alpha} \sum_{i} e^{-y_i (f_{t-1}(x_i) + \alpha h_t(x_i))} \Big|_{\alpha = \alpha_t} = 0, \\
# h_t \in \operatorname*{argmin}_h \min_\alpha \sum_{i} e^{-y_i (f_{t-1}(x_i) + \alpha h(x_i))}.
# \end{gathered}
# $$ (eq-coordinate-descent)
#
# The check tests both at every round of real runs, the second against every stump.

# %%
claims.verify("eq-coordinate-descent")

# %% [markdown]
# {numref}`fig-adaboost-coordinate` draws the descent on the breast cancer run. The curve of
# round $t$ is the loss along that round's coordinate, $\alpha \mapsto L(f_{t-1} + \alpha h_t)$,
# drawn against the total vote spent so far, $\sum_{s<t} \alpha_s + \alpha$: it starts at the
# point where the previous line search stopped, and its minimum (the dot) is at
# $\alpha = \alpha_t$. The loss never rises from one dot to the next.

# %%
F_bc_tr = np.vstack(
    [np.zeros(train.size), fit_bc.staged_decision_function(X_bc[train])]
)
H_bc_tr = fit_bc.weak_predictions(X_bc[train])
exp_loss = np.mean(np.exp(-y_bc[train] * F_bc_tr), axis=1)
print("round t   alpha_t   L(f_t)")
for t in range(1, 7):
    print(f"{t:7d}   {fit_bc.alpha[t - 1]:7.3f}   {exp_loss[t]:.4f}")
print(f"L(f_t) falls at every one of the {fit_bc.n_rounds} rounds: "
      f"{bool(np.all(np.diff(exp_loss) < 0))}")

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Coordinate descent on the breast cancer run: the exponential loss along the coordinate of each of the first six rounds, against the total vote spent; each line search starts where the previous one stopped, and its minimum (dot) is at $\\alpha_t$.", "name": "fig-adaboost-coordinate"}, "image": {"alt": "A chain of six convex curves on a log scale, each starting at the previous curve's minimum and falling to a lower one."}} tags=["hide-input"]
fig, ax = plt.subplots()
spent = np.concatenate([[0.0], np.cumsum(fit_bc.alpha)])
dots_lowest = []
for t in range(6):
    a = np.linspace(-0.3, fit_bc.alpha[t] + 0.3, 200)
    margins_a = y_bc[train][:, None] * (F_bc_tr[t][:, None] + a * H_bc_tr[t][:, None])
    curve = np.mean(np.exp(-margins_a), axis=0)
    dots_lowest.append(bool(exp_loss[t + 1] <= curve.min() * (1 + 1e-12)))
    line = ax.semilogy(spent[t] + a, curve, lw=1.2)
    ax.plot(spent[t + 1], exp_loss[t + 1], "o", color=line[0].get_color())
ax.set_xlabel(r"vote spent $\sum_{s<t} \alpha_s + \alpha$")
ax.set_ylabel(r"exponential loss $L(f_{t-1} + \alpha h_t)$")
plt.show()
print(f"each dot (at alpha_t) is the lowest point of its curve: {all(dots_lowest)}")

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-adaboost-coordinate
# Coordinate descent on the breast cancer run: the exponential loss along the coordinate of each of the first six rounds, against the total vote spent; each line search starts where the previous one stopped, and its minimum (dot) is at $\alpha_t$.
# :::

# %% [markdown]
# (sec-stagewise)=
# ## AdaBoost fits an additive model, stage by stage
#
# *Forward stagewise additive modelling* {cite}`friedman2000additive` builds
# $f(x) = \sum_t \alpha_t h_t(x)$ one term at a time, never revisiting earlier terms: given
# $f_{t-1}$, choose $(\alpha, h)$ to minimise $\sum_i e^{-y_i(f_{t-1}(x_i) + \alpha h(x_i))}$. With
# $D(i) \propto e^{-y_i f_{t-1}(x_i)}$ (the AdaBoost weights, by {eq}`eq-unrolled-D`) this is
# $\sum_i D(i) e^{-\alpha y_i h(x_i)}$. Expanding the exponential to second order, and using
# $(y_i h(x_i))^2 = 1$,
#
# $$
# \begin{gathered}
# \sum_i D(i)\, e^{-\alpha y_i h(x_i)} = \sum_i D(i) \Big(1 - \alpha y_i h(x_i) + \frac{\alpha^2}{2}\Big) + R, \\
# |R| \le \frac{|\alpha|^3}{6} e^{|\alpha|}.
# \end{gathered}
# $$ (eq-taylor-stagewise)

# %%
claims.verify("eq-taylor-stagewise")

# %% [markdown]
# For a fixed $\alpha > 0$ the quadratic is smallest for the $h$ that maximises the weighted
# correlation $\sum_i D(i) y_i h(x_i)$, and the correct examples count $+1$ and the mistakes $-1$
# in it:
#
# $$
# \sum_{i} D_t(i)\, y_i h_t(x_i) = (1 - \epsilon_t) - \epsilon_t = 1 - 2\epsilon_t = 2\gamma_t.
# $$ (eq-edge-correlation)
#
# Maximising the correlation is minimising the weighted error, which is the weak learner's job;
# then the exact minimisation over $\alpha$ (not the quadratic's) gives $\alpha_t$ as in
# {eq}`eq-optimal-alpha`. Stage by stage, this is AdaBoost. The notes' eq. (5.13) gives the
# correlation as $1 - \epsilon$; it is $1 - 2\epsilon$.

# %%
claims.verify("eq-edge-correlation")

# %% [markdown]
# On one feature the additive model can be drawn. Take $x$ uniform on $[0, 1]$ and labels drawn
# with $P(y = 1 \mid x) = 1/(1 + e^{-4 \sin 2\pi x})$. Each weighted stump $\alpha_t h_t$ is a
# step of height $2\alpha_t$ at its threshold, and the model is their sum
# ({numref}`fig-adaboost-additive`):
#
# $$
# \begin{gathered}
# f_T(x) = \sum_{t=1}^T \alpha_t h_t(x) = A_+(x) - A_-(x) = 2A_+(x) - \sum_{t=1}^T \alpha_t, \\
# A_\pm(x) = \sum_{t:\, h_t(x) = \pm 1} \alpha_t,
# \end{gathered}
# $$ (eq-additive-vote)
#
# so $H(x) = \sign f_T(x)$ is $+1$ exactly when the stumps that say $+1$ at $x$ hold at least
# half of the total vote: the sum of the additive model is the weighted majority vote of the
# algorithm. The check counts the vote stump by stump, from each stump's own threshold rule, at
# every round of real runs, on the training points and on fresh points, and compares it with the
# fitted score.

# %%
claims.verify("eq-additive-vote")

# %%
rng_1d = np.random.default_rng(61)
n_1d = 300
x_1d = np.sort(rng_1d.uniform(0, 1, n_1d))
p_1d = 1 / (1 + np.exp(-4 * np.sin(2 * np.pi * x_1d)))
y_1d = np.where(rng_1d.uniform(size=n_1d) < p_1d, 1.0, -1.0)
fit_1d = boosting.adaboost(x_1d[:, None], y_1d, n_rounds=20)
grid_1d = np.linspace(0, 1, 1001)[:, None]
F_1d = fit_1d.staged_decision_function(grid_1d)
steps = [np.unique(np.round(F_1d[t - 1], 9)).size for t in (6, 20)]
print(f"f_6 takes {steps[0]} values on [0, 1] (at most T + 1 = 7), "
      f"f_20 takes {steps[1]} (at most 21)")
print(f"training error after 6 and 20 rounds: {fit_1d.train_error[5]:.3f}, "
      f"{fit_1d.train_error[19]:.3f}")

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "The additive model on a one-dimensional problem. Left: the first six weighted stumps $\\alpha_t h_t(x)$ (thin) and their sum $f_6$ (black), a step function whose sign is the weighted vote. Right: $f_6$ and $f_{20}$ beside half the true log-odds $\\frac12 \\log\\frac{p(x)}{1-p(x)} = 2 \\sin 2\\pi x$ (dashed); the ticks are the training labels.", "name": "fig-adaboost-additive"}, "image": {"alt": "Left, six thin step functions and their thick sum; right, two step functions following a dashed sine curve."}} tags=["hide-input"]
fig, axes = plt.subplots(1, 2, figsize=(9.6, 3.6), sharey=True)
x_g = grid_1d[:, 0]
for t, h in enumerate(fit_1d.stumps[:6]):
    axes[0].step(x_g, fit_1d.alpha[t] * h.predict(grid_1d), where="post", lw=0.9,
                 label=rf"$\alpha_{t + 1} h_{t + 1}$")
axes[0].step(x_g, F_1d[5], where="post", color="k", lw=2, label="$f_6$")
axes[0].set_title("six weighted stumps and their sum")
axes[0].legend(fontsize=7, ncol=2)
axes[1].plot(x_g, 2 * np.sin(2 * np.pi * x_g), "k--", lw=1,
             label=r"$\frac{1}{2} \log\frac{p}{1-p}$")
axes[1].step(x_g, F_1d[5], where="post", lw=1.5, label="$f_6$")
axes[1].step(x_g, F_1d[19], where="post", lw=1.5, label="$f_{20}$")
axes[1].plot(x_1d, 2.6 * y_1d, "|", color="grey", ms=6)
axes[1].set_title("the sum against half the log-odds")
axes[1].legend(fontsize=8)
for ax in axes:
    ax.set_xlabel("$x$")
    ax.axhline(0, color="grey", lw=0.6)
axes[0].set_ylabel("score")
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-adaboost-additive
# The additive model on a one-dimensional problem. Left: the first six weighted stumps $\alpha_t h_t(x)$ (thin) and their sum $f_6$ (black), a step function whose sign is the weighted vote. Right: $f_6$ and $f_{20}$ beside half the true log-odds $\frac12 \log\frac{p(x)}{1-p(x)} = 2 \sin 2\pi x$ (dashed); the ticks are the training labels.
# :::

# %% [markdown]
# (sec-posterior)=
# ## What the score estimates
#
# Over the population, the expected exponential loss is
# $\E\, e^{-yf(x)} = \E_x \big[p(x)\, e^{-f(x)} + (1 - p(x))\, e^{f(x)}\big]$ with
# $p(x) = P(y = 1 \mid x)$. A function free to take any value at each $x$ minimises it pointwise;
# setting the derivative $-p e^{-g} + (1 - p) e^{g}$ to zero gives $e^{2g} = p/(1-p)$:
#
# $$
# f^*(x) = \operatorname*{argmin}_g\, p(x) e^{-g} + (1 - p(x)) e^{g} = \frac12 \log\frac{p(x)}{1 - p(x)},
# $$ (eq-population-minimiser)
#
# half the log-odds. The check minimises the loss numerically by golden-section search at random
# $p$ and compares. The notes write an argmax, and drop the factor $\frac12$.

# %%
claims.verify("eq-population-minimiser")

# %% [markdown]
# Inverting, the score gives back the posterior through a logistic function with slope 2:
#
# $$
# P(y = 1 \mid x) = \frac{1}{1 + e^{-2 f^*(x)}}.
# $$ (eq-posterior)
#
# (The notes put a $y$ inside this exponential; $P(y \mid x) = 1/(1 + e^{-2 y f^*(x)})$ holds for
# both labels, but the probability of $y = 1$ has no $y$ in it.) AdaBoost's $f$ is restricted to
# sums of stumps and minimises the *empirical* loss, so $1/(1 + e^{-2f(x)})$ is only an
# approximation of the posterior, and after many rounds on separable training data it is pushed
# towards 0 and 1.

# %%
claims.verify("eq-posterior")

# %% [markdown]
# How good is the estimate on real data? The South African heart disease data (`SAheart`,
# {cite}`hastie2009elements` section 4.4.2: 462 men, 9 risk factors, label $+1$ for coronary
# heart disease, 35% of them) are noisy: no classifier separates them. Each man gets a held-out
# score from AdaBoost trained on the other four fifths of the data (five-fold cross-fitting),
# and the estimate $\hat p = 1/(1 + e^{-2f})$ is compared with what happened: in ten bins of
# $\hat p$ of width $0.1$, the mean $\bar p_b$ of the estimates against the frequency $\bar y_b$ of
# heart disease ({numref}`fig-adaboost-reliability`). A calibrated estimate lies on the
# diagonal; the expected calibration error
# $\mathrm{ECE} = \sum_b \frac{n_b}{n} |\bar y_b - \bar p_b|$ sums the gaps, weighted by the
# share $n_b / n$ of men in each bin.

# %%
sa = datasets.load_saheart()
X_sa, y_sa = sa.X, to_pm1(sa.y)
fold_sa = np.random.default_rng(462).permutation(y_sa.size) % 5
reliability = {}
print(" T   held-out error   ECE")
for T in (10, 200):
    f_sa = np.empty(y_sa.size)
    for k in range(5):
        out = fold_sa == k
        fit_k = boosting.adaboost(X_sa[~out], y_sa[~out], n_rounds=T)
        f_sa[out] = fit_k.decision_function(X_sa[out])
    p_hat = 1 / (1 + np.exp(-2 * f_sa))
    b = np.minimum((10 * p_hat).astype(int), 9)
    n_b = np.bincount(b, minlength=10)
    full = n_b > 0
    p_bar = np.bincount(b, p_hat, minlength=10)[full] / n_b[full]
    y_bar = np.bincount(b, y_sa > 0, minlength=10)[full] / n_b[full]
    ece = np.sum(n_b[full] / y_sa.size * np.abs(y_bar - p_bar))
    reliability[T] = p_bar, y_bar, n_b[full]
    print(f"{T:3d}        {np.mean(y_sa * f_sa <= 0):.2f}          {ece:.2f}")

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Reliability diagram of AdaBoost's posterior estimate $1/(1 + e^{-2f})$ on the SAheart data, held-out scores from five-fold cross-fitting, after 10 and 200 rounds: the frequency of heart disease in each bin of the estimate against the bin's mean estimate (marker area proportional to the bin's size). After 200 rounds the estimates are pushed towards 0 and 1, far beyond the frequencies.", "name": "fig-adaboost-reliability"}, "image": {"alt": "Two curves of observed frequency against predicted probability; the 10-round curve stays near the diagonal, the 200-round curve reaches the extreme bins, where the frequencies are far from the diagonal."}} tags=["hide-input"]
fig, ax = plt.subplots()
ax.plot([0, 1], [0, 1], color="grey", lw=0.8, ls="--", label="calibrated")
for T, (p_bar, y_bar, n_bin) in reliability.items():
    line = ax.plot(p_bar, y_bar, lw=1.2, label=f"$T = {T}$")
    ax.scatter(p_bar, y_bar, s=2 * n_bin, color=line[0].get_color(), alpha=0.7)
ax.set_xlabel(r"estimate $1/(1 + e^{-2f(x)})$, bin mean")
ax.set_ylabel("frequency of heart disease in the bin")
ax.set_aspect("equal")
ax.legend()
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-adaboost-reliability
# Reliability diagram of AdaBoost's posterior estimate $1/(1 + e^{-2f})$ on the SAheart data, held-out scores from five-fold cross-fitting, after 10 and 200 rounds: the frequency of heart disease in each bin of the estimate against the bin's mean estimate (marker area proportional to the bin's size). After 200 rounds the estimates are pushed towards 0 and 1, far beyond the frequencies.
# :::

# %% [markdown]
# After 10 rounds the estimate is roughly calibrated; after 200 rounds the held-out error has
# barely moved but the estimates are overconfident: the empirical loss keeps being driven down
# on the training data by growing $|f|$, so $1/(1 + e^{-2f})$ is pushed towards 0 and 1 where
# the frequencies are not. The score ranks the men about as well as before; its scale is what
# the extra rounds spoil ({ref}`ex-adaboost-rescale` shows how to repair it on held-out data).

# %% [markdown]
# (sec-adaboost-real-data)=
# ## On real data, over many rounds
#
# On the breast cancer data (left) the test error keeps decreasing for a while after the training
# error has reached zero, which the training-error bound cannot explain: the margins are still
# growing (below). On the Statlog heart data (`heart_scale`: 270 patients, 13 features; 180 for
# training), noisier, the training error reaches zero only after hundreds of rounds and the test
# error rises again as the vote fits the noise: the number of rounds is a regularisation
# parameter, to be chosen on held-out data ({numref}`fig-adaboost-test-error`).

# %%
hs = datasets.load_heart_scale()
perm_h = rng.permutation(len(hs.y))
train_h, test_h = perm_h[:180], perm_h[180:]
fit_h = boosting.adaboost(hs.X[train_h], hs.y[train_h], n_rounds=400)

test_error_bc = np.mean(
    y_bc[test] * fit_bc.staged_decision_function(X_bc[test]) <= 0, axis=1
)
test_error_h = np.mean(
    hs.y[test_h] * fit_h.staged_decision_function(hs.X[test_h]) <= 0, axis=1
)
print("round   breast cancer train/test   heart train/test")
for t in (1, 10, 50, 100, 200, 400):
    print(
        f"{t:5d}      {fit_bc.train_error[t - 1]:.3f} / {test_error_bc[t - 1]:.3f}"
        f"          {fit_h.train_error[t - 1]:.3f} / {test_error_h[t - 1]:.3f}"
    )

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Training and test error of AdaBoost against the round on breast cancer (left) and heart (right): on the noisier heart data the test error rises again as the vote fits the noise.", "name": "fig-adaboost-test-error"}, "image": {"alt": "Two panels each with a falling training-error curve and a test-error curve, the right one rising again."}} tags=["hide-input"]
fig, axes = plt.subplots(1, 2, figsize=(9.6, 3.6), sharey=True)
for ax, fit, test_err, title in ((axes[0], fit_bc, test_error_bc, "breast cancer"),
                                 (axes[1], fit_h, test_error_h, "heart")):
    r = np.arange(1, fit.n_rounds + 1)
    ax.semilogx(r, fit.train_error, label="training error")
    ax.semilogx(r, test_err, label="test error")
    ax.set_xlabel("round $t$")
    ax.set_title(title)
axes[0].set_ylabel("error")
axes[0].legend()
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-adaboost-test-error
# Training and test error of AdaBoost against the round on breast cancer (left) and heart (right): on the noisier heart data the test error rises again as the vote fits the noise.
# :::

# %% [markdown]
# **The weights concentrate on the hard examples.** On the circle problem of the first section,
# the marker area is proportional to $D_t(i)$: after a few rounds almost all the weight sits
# near the boundary, where the stumps disagree ({numref}`fig-adaboost-weights`).

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "The weights $D_t$ after 1, 10 and 100 rounds on the circle problem (marker area proportional to $D_t(i)$): the weight concentrates on the examples near the boundary.", "name": "fig-adaboost-weights"}, "image": {"alt": "Three scatter plots where the points near a circular boundary grow larger from left to right."}} tags=["hide-input"]
fig, axes = plt.subplots(1, 3, figsize=(9.6, 3.4), sharey=True)
for ax, t in zip(axes, (1, 10, 100), strict=True):
    D_t = fit_toy.D_history[t - 1]
    ax.scatter(
        X_toy[:, 0],
        X_toy[:, 1],
        s=3000 * D_t,
        c=np.where(y_toy > 0, "#2166ac", "#b2182b"),
        alpha=0.6,
        edgecolor="k",
        linewidth=0.3,
    )
    ax.add_patch(plt.Circle((0, 0), np.sqrt(0.5), fill=False, ls="--", color="grey"))
    ax.set_title(f"$D_{{{t}}}$")
    ax.set_xlabel("$x_1$")
    ax.set_aspect("equal")
axes[0].set_ylabel("$x_2$")
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-adaboost-weights
# The weights $D_t$ after 1, 10 and 100 rounds on the circle problem (marker area proportional to $D_t(i)$): the weight concentrates on the examples near the boundary.
# :::

# %%
share = [np.sort(D)[::-1][: n_toy // 10].sum() for D in fit_toy.D_history[[0, 9, 99]]]
print("weight on the heaviest 10% of examples at t = 1, 10, 100: "
      + ", ".join(f"{s:.2f}" for s in share))

# %% [markdown]
# **Margins.** The normalised margin $y_i f(x_i) / \sum_t \alpha_t \in [-1, 1]$ measures how
# clearly the vote classifies an example. Boosting keeps increasing the *smallest* margins after
# the training error is zero {cite}`schapire1998margin`: in the cumulative distribution of the
# training margins on the breast cancer data, the left tail moves to the right with the rounds,
# while the largest margins shrink, since the votes go to the stumps that fix the hard examples ({numref}`fig-adaboost-margins`).

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Cumulative distribution of the normalised training margins on the breast cancer data after 5, 20, 100 and 400 rounds: the left tail moves right.", "name": "fig-adaboost-margins"}, "image": {"alt": "Several step-like cumulative distribution curves shifting to the right."}} tags=["hide-input"]
F_bc = fit_bc.staged_decision_function(X_bc[train])
fig, ax = plt.subplots()
for t in (5, 20, 100, 400):
    m = np.sort(y_bc[train] * F_bc[t - 1] / fit_bc.alpha[:t].sum())
    ax.step(m, np.arange(1, m.size + 1) / m.size, where="post", label=f"$t = {t}$")
ax.axvline(0, color="grey", lw=0.8)
ax.set_xlabel(r"normalised margin $y f(x) / \sum_t \alpha_t$")
ax.set_ylabel("fraction of training examples")
ax.legend()
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-adaboost-margins
# Cumulative distribution of the normalised training margins on the breast cancer data after 5, 20, 100 and 400 rounds: the left tail moves right.
# :::

# %%
for t in (5, 20, 100, 400):
    m = y_bc[train] * F_bc[t - 1] / fit_bc.alpha[:t].sum()
    print(
        f"t = {t:3d}: smallest normalised margin {m.min():+.3f}, 5% quantile "
        f"{np.quantile(m, 0.05):+.3f}"
    )

# %% [markdown]
# (sec-adaboost-implementation)=
# ## Implementation
#
# `boosting.adaboost` is the algorithm {eq}`def-adaboost` step by step, one named function per
# step; the cells below display the library's code itself, without the docstrings and argument
# checks (they are in the {ref}`library reference <sec-api>`), and the text cites the listings'
# line numbers.

# %%
from mlnotes import show_source

show_source(boosting.adaboost)

# %% [markdown]
# Line 12 (`D = np.full`) starts from the uniform $D_1$; the loop runs `T` (`n_rounds`) rounds.
# Round $t$ calls the weak learner on $D_t$, line 18 (`h = weak_learner(X, y, D)`), and forms
# `yh`, line 19, which is $y_i h_t(x_i)$: $+1$ on a correct example and $-1$ on a mistake. Then
# come the three steps of {eq}`def-adaboost`: the weighted error, line 20 (`weighted_error`),
# the vote, line 24 (`alpha = vote(eps)`), the reweighting with its normaliser, line 25
# (`reweight`). Two guards keep it honest: a learner with no edge ($\epsilon_t \ge 1/2$) ends
# the loop instead of entering with a non-positive $\alpha_t$, lines 21-23, and a perfect one
# ($\epsilon_t = 0$) is added and ends it, lines 27-29, since $D_{t+1} = D_t$ would return it
# again. `_BoostingTrace` only records the rounds, line 26 (`trace.add`), and the scores
# $f_t(x_i)$ from which the training error after each round is counted.

# %%
show_source(boosting.weighted_error)

# %% [markdown]
# $\epsilon_t = \sum_i D_t(i) [y_i \ne h_t(x_i)]$ is the mass of the examples with `yh < 0`,
# line 2 (`D[yh < 0]`). It is summed with `math.fsum`, correctly rounded, so that $\epsilon_t$, and every tie between two
# weak learners it decides, is the same for any order of the rows.

# %%
show_source(boosting.vote)

# %% [markdown]
# The vote is the $\alpha_t$ that minimises $Z_t$ {eq}`eq-optimal-alpha`, line 3
# (`0.5 * np.log`). A perfect learner would get $\alpha_t = \infty$; its error is raised to
# `EPS_FLOOR` = $10^{-10}$ first, line 2 (`max(eps, EPS_FLOOR)`), which gives the large but
# finite vote $\alpha_t \approx 11.5$.

# %%
show_source(boosting.reweight)

# %% [markdown]
# Line 3 (`w = D * np.exp(`) is the numerator of $D_{t+1}$ in {eq}`def-adaboost`, which
# multiplies the weight of a mistake by $e^{\alpha_t}$ and that of a correct example by
# $e^{-\alpha_t}$; its sum `Z`, line 4, is the normaliser $Z_t$, computed as the actual sum
# rather than the closed form $2\sqrt{\epsilon_t (1 - \epsilon_t)}$ {eq}`eq-Z-closed-form`
# (the two differ when the floor was used), so that the bound $\prod_t Z_t$ on the training
# error {eq}`eq-train-bound` is checked against what the algorithm did. Lines 5-6 hand a vote
# $|\alpha_t|$ beyond about 700, where $e^{\pm\alpha_t}$ over- or underflows, to the same
# computation with the exponents shifted. The weak learner by default is
# the exact stump search, with every feature sorted once for all rounds:

# %%
show_source(boosting.StumpSearch)

# %% [markdown]
# `__init__` sorts every feature once, line 7 (`np.argsort`), and lines 14-23 prepare the splits
# and their thresholds. `best` is {eq}`eq-stump-cumsum`: `score` starts as $D_i y_i$ along each
# sorted feature, line 31 (`yD[self.order]`), the cumulative sum gives the left sums of every
# split at once, line 32 (`np.cumsum`), and `total - 2 * left`, lines 33-34, is the correlation
# $c$ of polarity $+1$, whose sign picks the polarity and whose size the best split. `valid`
# masks the splits between equal values, which are not thresholds, line 37 (`self.valid`): their
# edge $-1$ is below every real one, so they can neither win nor tie. The error of the winner is
# recomputed directly instead of read from the cumulative sums, which lose digits, line 53
# (`math.fsum(D[pred != y])`).

# %% [markdown]
# ## Exercises
#
# ```{exercise}
# :label: ex-adaboost-half
# Show that the learner chosen at round $t$ has weighted error exactly $1/2$ under the next
# distribution $D_{t+1}$. What does this say about choosing the same stump twice in a row?
# ```
#
# ```{solution} ex-adaboost-half
# :class: dropdown
# Under $D_{t+1}$ the mistakes of $h_t$ weigh $\epsilon_t e^{\alpha_t} / Z_t$ and the correct
# examples $(1 - \epsilon_t) e^{-\alpha_t} / Z_t$. With $e^{\alpha_t} = \sqrt{(1 - \epsilon_t)/
# \epsilon_t}$ both equal $\sqrt{\epsilon_t (1 - \epsilon_t)} / Z_t = 1/2$. So $h_t$ has no edge
# on $D_{t+1}$ and is never the choice of round $t + 1$ (unless no stump has an edge), though it
# can come back later. In code: `fit.D_history[t + 1][fit.stumps[t].predict(X) != y].sum()`.
# ```

# %% [markdown]
# ```{exercise} Proof: a bound on the training margins
# :label: ex-adaboost-margin-bound
# Run AdaBoost for $T$ rounds with $0 < \epsilon_t < \frac12$ at every round, and write
# $A = \sum_{t=1}^T \alpha_t$ and $m_i = y_i f_T(x_i) / A$ for the normalised margins of the
# training examples.
# (a) Show that for every $\theta \in [0, 1]$ the fraction of training examples with
# $m_i \le \theta$ satisfies
# $\frac1n \sum_{i=1}^n [m_i \le \theta] \le \prod_{t=1}^T
# 2\sqrt{\epsilon_t^{1 - \theta} (1 - \epsilon_t)^{1 + \theta}}$,
# and that $\theta = 0$ gives the bound of {prf:ref}`thm-adaboost-train`.
# (b) Every edge is at least $\gamma > 0$, and $0 \le \theta < \gamma$. Show that each factor
# of the product is at most $\sqrt{(1 - 2\gamma)^{1 - \theta} (1 + 2\gamma)^{1 + \theta}}$, and
# that this number is below 1. Conclude that after enough rounds every training example has a
# normalised margin above $\theta$.
# ```
#
# ```{solution} ex-adaboost-margin-bound
# :class: dropdown
# (a) Since $A > 0$, $m_i \le \theta$ is $\theta A - y_i f_T(x_i) \ge 0$, and then
# $e^{\theta A - y_i f_T(x_i)} \ge 1$; otherwise the exponential is still positive. So
# $[m_i \le \theta] \le e^{\theta A} e^{-y_i f_T(x_i)}$ for every $i$, and averaging over the
# examples with {eq}`eq-exp-loss-product`,
# $\frac1n \sum_i [m_i \le \theta] \le e^{\theta A} \prod_t Z_t = \prod_t e^{\theta \alpha_t}
# Z_t$. By {eq}`def-adaboost`, $e^{\theta \alpha_t} = ((1 - \epsilon_t)/\epsilon_t)^{\theta/2}$,
# and $Z_t = 2\sqrt{\epsilon_t (1 - \epsilon_t)}$ by {eq}`eq-Z-closed-form`, so
# $e^{\theta \alpha_t} Z_t = 2\, \epsilon_t^{(1 - \theta)/2} (1 - \epsilon_t)^{(1 + \theta)/2}$,
# which is the factor claimed. At $\theta = 0$ the factor is $Z_t$, and $m_i \le 0$ is
# $y_i f_T(x_i) \le 0$: the statement is {eq}`eq-train-bound`'s first inequality.
# (b) Write $\phi(\epsilon) = 2\, \epsilon^{(1 - \theta)/2} (1 - \epsilon)^{(1 + \theta)/2}$.
# Its logarithm has derivative $\frac{1 - \theta}{2\epsilon} - \frac{1 + \theta}{2(1 - \epsilon)}$,
# positive for $\epsilon < (1 - \theta)/2$; so $\phi$ increases on $(0, (1 - \theta)/2]$, which
# contains every $\epsilon_t \le \frac12 - \gamma$ because $\theta < \gamma < 2\gamma$. Hence
# $\phi(\epsilon_t) \le \phi(\frac12 - \gamma) = (1 - 2\gamma)^{(1 - \theta)/2}
# (1 + 2\gamma)^{(1 + \theta)/2}$, the number claimed ($\gamma < \frac12$ because
# $\epsilon_t > 0$). With $u = 2\gamma \in (0, 1)$, twice its logarithm is
# $\log(1 - u^2) + \theta \log\frac{1 + u}{1 - u}$. The series
# $\log(1 - u^2) = -\sum_{k \ge 1} u^{2k}/k$ and
# $\log\frac{1 + u}{1 - u} = 2\sum_{k \ge 0} u^{2k + 1}/(2k + 1) > 0$ with $\theta < u/2$ give
# $\theta \log\frac{1 + u}{1 - u} < \sum_{k \ge 0} \frac{u^{2k + 2}}{2k + 1}
# = \sum_{k \ge 1} \frac{u^{2k}}{2k - 1} \le \sum_{k \ge 1} \frac{u^{2k}}{k}$,
# since $2k - 1 \ge k$. So the logarithm is negative: the number, call it $c$, is below 1. The fraction
# of training margins at most $\theta$ is then at most $c^T$, which is below $1/n$ once
# $T > \ln n / \ln(1/c)$; a fraction below $1/n$ is zero, so every margin exceeds $\theta$.
# ```

# %% [markdown]
# ```{exercise}
# :label: ex-adaboost-flip
# A weak learner returns $h$ with $\epsilon > 1/2$. Show that AdaBoost's formulas applied to $h$
# (with a negative $\alpha$) give the same vote $\alpha h$, the same $Z$ and the same $D_{t+1}$ as
# applied to $-h$. Why does an exact stump search never return $\epsilon > 1/2$?
# ```
#
# ```{solution} ex-adaboost-flip
# :class: dropdown
# $-h$ has error $1 - \epsilon < 1/2$ and vote $\frac12\log\frac{\epsilon}{1 - \epsilon} = -\alpha$,
# so $(-\alpha)(-h) = \alpha h$; $Z$ and $D_{t+1}$ depend on $\alpha y h$ only. The stumps come in
# pairs $h, -h$ (both polarities) with errors summing to one, so the smaller is at most $1/2$.
# ```
#
# ```{exercise}
# :label: ex-adaboost-shrinking-edges
# The bound $e^{-2\sum_t \gamma_t^2}$ of {prf:ref}`thm-adaboost-train` tends to zero exactly when
# $\sum_t \gamma_t^2 = \infty$; a constant edge is one way, not the only one. Fix
# $0 < c < \frac12$.
# (a) The edges are $\gamma_t = c/\sqrt t$. Show that the training error after $T$ rounds is at
# most $(T + 1)^{-2c^2}$, and give a number of rounds after which it is zero on $n$ examples.
# How does it grow with $n$, compared with $\ln n / (2\gamma^2)$ for a constant edge?
# (b) The edges are $\gamma_t = c/t$. Show that $\prod_{t=1}^T \sqrt{1 - 4\gamma_t^2}$ stays
# above a positive constant that does not depend on $T$: for large $n$ no number of rounds is
# certified to reach a zero training error.
# (c) Why do the edges of a real run shrink? Use {ref}`ex-adaboost-half` and
# {numref}`fig-adaboost-weights`.
# ```
#
# ```{solution} ex-adaboost-shrinking-edges
# :class: dropdown
# (a) On $[t, t + 1]$, $1/t \ge 1/x$, so $\sum_{t=1}^T 1/t \ge \int_1^{T+1} dx/x = \ln(T + 1)$
# and $e^{-2\sum_t \gamma_t^2} = e^{-2c^2 \sum_t 1/t} \le (T + 1)^{-2c^2}$. The training error
# is zero once this is below $1/n$, that is once $T + 1 > n^{1/(2c^2)}$: a power of $n$ (with
# $c = 1/4$, $n^8$), where a constant edge needs a number of rounds logarithmic in $n$.
# (b) With $v = 4\gamma_t^2 = 4c^2/t^2 \le 4c^2 < 1$, $\log(1 - v) \ge 1 - \frac{1}{1 - v} =
# -\frac{v}{1 - v} \ge -\frac{v}{1 - 4c^2}$ (from $\log x \ge 1 - 1/x$). Summing, with
# $\sum_t 1/t^2 \le \pi^2/6$,
# $\log \prod_t \sqrt{1 - 4\gamma_t^2} = \frac12 \sum_t \log(1 - 4\gamma_t^2) \ge
# -\frac{2c^2}{1 - 4c^2} \cdot \frac{\pi^2}{6}$, so the product stays above
# $b = \exp\big(-\frac{\pi^2 c^2}{3(1 - 4c^2)}\big) > 0$ for every $T$. When $n > 1/b$ the bound
# never falls below $1/n$. (The bound says nothing either way: the training error may still
# reach zero.)
# (c) By {ref}`ex-adaboost-half` each round moves the weight until the stump just chosen is a
# coin under the new distribution, and by {eq}`eq-unrolled-D` the weight piles up on the
# examples of small margin, near the boundary ({numref}`fig-adaboost-weights`), which the
# stumps found so far disagree on and on which every single stump is close to a coin. The best
# edge under $D_t$ therefore tends to fall: on the breast cancer run, `fit_bc.gamma` goes from
# about $0.43$ in round 1 to under $0.2$ on average after round 50.
# ```

# %% [markdown]
# ```{exercise}
# :label: ex-adaboost-one-feature-sums
# The data have one feature with $n$ distinct values $x_{(1)} < \dots < x_{(n)}$, and the weak
# learners are the stumps of {ref}`sec-stumps` (thresholds midway between consecutive values,
# and the constant stump).
# (a) Show that $f_T = \sum_t \alpha_t h_t$ is a step function with at most $\min(T, n - 1)$
# jumps, all at those midpoints ({numref}`fig-adaboost-additive`).
# (b) Show that for any $g \in \R^n$ there are $n$ stumps and real coefficients with
# $\sum_t \alpha_t h_t(x_{(k)}) = g_k$ for every $k$. What does this say about the training
# error a long enough run can reach on such data, and about the right panel of the figure?
# ```
#
# ```{solution} ex-adaboost-one-feature-sums
# :class: dropdown
# (a) A stump $s \cdot \sign(x - \theta)$ jumps only at $\theta$ (the constant stump
# nowhere), so the sum jumps only at the thresholds of its stumps: at most $T$ of them, and at
# most $n - 1$ distinct midpoints exist. Between two jumps $f_T$ is constant.
# (b) Write $h_\theta(x) = 2[x > \theta] - 1$. The $n$ functions $1$ (the constant stump) and
# $h_{\theta_k}$, $\theta_k$ the midpoint between $x_{(k)}$ and $x_{(k+1)}$, $k < n$, span the
# same space as $1$ and the indicators $[x > \theta_k]$. On the sorted points these indicators
# form a triangular matrix with ones on its diagonal; with the column of ones added it is
# invertible, so any $g$ is reached (a negative coefficient is the other polarity). Any labelling
# of distinct points can therefore be fitted exactly: the training error can reach zero on noisy
# labels, and a run continued long enough on the problem of the figure moves $f_T$ away from half
# the log-odds towards a function that jumps at almost every change of label.
# ```
#
# ```{exercise}
# :label: ex-adaboost-rescale
# (a) Show that the population minimiser of the logistic loss $\log(1 + e^{-yf(x)})$ is the
# whole log-odds $\log\frac{p(x)}{1 - p(x)}$, so that the posterior estimate that goes with it
# is $1/(1 + e^{-f})$, and explain why $1/(1 + e^{-f})$ applied to AdaBoost's score would be
# wrong.
# (b) AdaBoost's score $f$ is replaced by $cf$ with $c > 0$. Show that the classifier
# $\sign(cf)$ does not change, but the estimate $1/(1 + e^{-2cf})$ does. Show that the held-out
# log-loss $\sum_i \log(1 + e^{-2c y_i f(x_i)})$ is convex in $c$, and say from
# {numref}`fig-adaboost-reliability` whether its minimiser after 200 rounds lies below or above 1.
# ```
#
# ```{solution} ex-adaboost-rescale
# :class: dropdown
# (a) Pointwise, $p \log(1 + e^{-g}) + (1 - p)\log(1 + e^{g})$ has derivative
# $-p/(1 + e^{g}) + (1 - p)/(1 + e^{-g}) = \sigma(g) - p$ with $\sigma(g) = 1/(1 + e^{-g})$, zero
# at $\sigma(g) = p$, that is $g = \log\frac{p}{1 - p}$; the second derivative
# $\sigma(g)(1 - \sigma(g)) > 0$ makes it the minimum. AdaBoost's $f$ estimates half the
# log-odds ({eq}`eq-population-minimiser`), so $1/(1 + e^{-f})$ would put every estimate half as
# far from $\frac12$ on the log-odds scale as it should be.
# (b) $\sign(cf) = \sign f$ for $c > 0$. Each term $\log(1 + e^{-c m_i})$, $m_i = 2 y_i f(x_i)$,
# is the convex function $u \mapsto \log(1 + e^{-u})$ of a linear function of $c$, so the sum is
# convex (its second derivative is $\sum_i m_i^2 \sigma(c m_i)(1 - \sigma(c m_i)) \ge 0$). After
# 200 rounds the estimates are too far from $\frac12$ for the frequencies they predict (the curve
# is flatter than the diagonal), so shrinking the scores helps: the minimiser lies below 1. This
# is the idea of Platt scaling, fitted on held-out scores.
# ```

# %% [markdown]
# ```{exercise} Warm-up · 2 points · about 15 min
# :label: ex-adaboost-round
# Write `adaboost_round(D, y, h)` that performs one round of {eq}`def-adaboost`: given
# the distribution `D`, the labels `y` and the weak learner's predictions `h` (all
# arrays of shape (n,), labels and predictions in {-1, +1}), return the tuple `(eps,
# alpha, Z, D_next)`. Assume $0 < \epsilon < 1/2$. While this is graded,
# `mlnotes.boosting.adaboost`, `mlnotes.boosting.weighted_error`,
# `mlnotes.boosting.vote` and `mlnotes.boosting.reweight` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def adaboost_round(D, y, h):
    # BEGIN SOLUTION
    eps = D[h != y].sum()
    alpha = 0.5 * np.log((1 - eps) / eps)
    w = D * np.exp(-alpha * y * h)
    return eps, alpha, w.sum(), w / w.sum()
    # END SOLUTION

# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: adaboost-round, points: 2, tier: warm-up, minutes: 15,
#   withdraw: [mlnotes.boosting.adaboost, mlnotes.boosting.weighted_error,
#              mlnotes.boosting.vote, mlnotes.boosting.reweight]}
# TEST: round 2 of the chapter's AdaBoost on 50 points
_X = np.random.default_rng(0).standard_normal((50, 3))
_y = np.where(_X[:, 0] + 0.5 * _X[:, 1] > 0, 1.0, -1.0)
_fit = boosting.adaboost(_X, _y, n_rounds=2, keep_D=True)
_out = adaboost_round(_fit.D_history[1], _y, _fit.stumps[1].predict(_X))
np.testing.assert_allclose(
    _out[:3],
    (_fit.eps[1], _fit.alpha[1], _fit.Z[1]),
    rtol=1e-10,
    err_msg="(eps, alpha, Z)",
)
np.testing.assert_allclose(_out[3], _fit.D_history[2], rtol=1e-10, strict=True)

# HIDDEN TEST: Z = 2 sqrt(eps (1 - eps)), and the learner has no edge on D_next
rng_h = np.random.default_rng(list(b"development secret"))
n_h = rng_h.integers(5, 60)
_D = rng_h.random(n_h) + 0.01
_D /= _D.sum()
_y = np.where(rng_h.random(n_h) < 0.5, 1.0, -1.0)
_h = _y.copy()
_wrong = rng_h.permutation(n_h)[: rng_h.integers(1, n_h)]
_h[_wrong] *= -1
if _D[_wrong].sum() > 0.5:  # eps < 1/2: flip the learner
    _h[_wrong] *= -1
    _h[np.setdiff1d(np.arange(n_h), _wrong)] *= -1
_eps_h = _D[_h != _y].sum()
_eps, _alpha, _Z, _Dn = adaboost_round(_D, _y, _h)
np.testing.assert_allclose(
    [_eps, _Z],
    [_eps_h, 2 * np.sqrt(_eps_h * (1 - _eps_h))],
    rtol=1e-10,
    err_msg="eps, Z",
)
np.testing.assert_allclose(
    np.exp(2 * _alpha), (1 - _eps_h) / _eps_h, rtol=1e-10, err_msg="alpha"
)
assert np.shape(_Dn) == (n_h,), f"expected shape {(n_h,)}, got {np.shape(_Dn)}"
np.testing.assert_allclose(_Dn.sum(), 1.0, rtol=1e-10, err_msg="sum of D_next")
np.testing.assert_allclose(
    _Dn[_h != _y].sum(), 0.5, rtol=1e-10, err_msg="D_next of mistakes"
)

# HIDDEN TEST: from uniform D with k < n/2 mistakes: D_next is 1/(2k) and 1/(2(n - k))
rng_h = np.random.default_rng(list(b"development secret"))
n_h = rng_h.integers(4, 60)
k_h = rng_h.integers(1, (n_h + 1) // 2)
_y = np.where(rng_h.random(n_h) < 0.5, 1.0, -1.0)
_h = _y.copy()
_wrong = rng_h.permutation(n_h)[:k_h]
_h[_wrong] *= -1
_eps, _alpha, _Z, _Dn = adaboost_round(np.full(n_h, 1 / n_h), _y, _h)
np.testing.assert_allclose(
    [_eps, _alpha],
    [k_h / n_h, 0.5 * np.log((n_h - k_h) / k_h)],
    rtol=1e-10,
    err_msg="eps, alpha",
)
expected_h = np.where(_h != _y, 1 / (2 * k_h), 1 / (2 * (n_h - k_h)))
np.testing.assert_allclose(_Dn, expected_h, rtol=1e-10, strict=True)

# %% [markdown]
# ```{exercise} Core · 3 points · about 40 min
# :label: ex-stump-one-feature
# Write `best_threshold(x, y, D)` that returns the smallest weighted error of a stump on
# a single feature `x` (shape (n,)), over every threshold and both polarities, in $O(n
# \log n)$ time using the cumulative sum of {eq}`eq-stump-cumsum`. Take care with
# repeated values of `x`: a threshold cannot separate two equal values. While this is
# graded, `mlnotes.boosting.best_stump`, `mlnotes.boosting.stump_errors` and
# `mlnotes.boosting.adaboost` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def best_threshold(x, y, D):
    # BEGIN SOLUTION
    D = D / D.sum()
    order = np.argsort(x, kind="stable")
    xs, yD = x[order], (y * D)[order]
    left = np.concatenate([[0.0], np.cumsum(yD)])  # left[k]: the k smallest go left
    distinct = np.concatenate([[True], xs[1:] > xs[:-1], [True]])
    corr = yD.sum() - 2 * left[distinct]
    return 0.5 - 0.5 * np.abs(corr).max()
    # END SOLUTION

# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: stump-one-feature, points: 3, tier: core, minutes: 40,
#   withdraw: [mlnotes.boosting.best_stump, mlnotes.boosting.stump_errors,
#              mlnotes.boosting.adaboost]}
# TEST: 60 values with ties (one decimal), random weights, against the chapter's stump
_r = np.random.default_rng(2)
_x = np.round(_r.standard_normal(60), 1)
_y = np.where(_x + 0.7 * _r.standard_normal(60) > 0, -1.0, 1.0)
_D = _r.random(60)
np.testing.assert_allclose(
    best_threshold(_x, _y, _D),
    boosting.best_stump(_x[:, None], _y, _D).eps,
    rtol=1e-10,
    atol=1e-12,
    strict=True,
)

# HIDDEN TEST: with many repeated values (and all equal), the brute-force best stump
rng_h = np.random.default_rng(list(b"development secret"))
n_h = rng_h.integers(5, 60)
_x = rng_h.integers(0, rng_h.integers(1, 5), n_h).astype(float)
_labels = np.where(rng_h.random(n_h) < 0.5, 1.0, -1.0)
_D = rng_h.random(n_h) + 0.01
for _y in (_labels, -_labels):  # both polarities
    np.testing.assert_allclose(
        best_threshold(_x, _y, _D),
        boosting.stump_errors(_x[:, None], _y, _D).min(),
        rtol=1e-10,
        atol=1e-12,
        strict=True,
    )
_p = _D[_y > 0].sum() / _D.sum()  # all equal: no threshold separates anything
np.testing.assert_allclose(
    best_threshold(np.ones(n_h), _y, _D),
    min(_p, 1 - _p),
    rtol=1e-10,
    atol=1e-12,
    strict=True,
)

# HIDDEN TEST: 0 on data a threshold separates, either polarity; D's scale is irrelevant
rng_h = np.random.default_rng(list(b"development secret"))
n_h = rng_h.integers(5, 60)
_x, _D = rng_h.standard_normal(n_h), rng_h.random(n_h) + 0.01
_t = np.median(_x) + 1e-3
for _y in (np.where(_x > _t, 1.0, -1.0), np.where(_x > _t, -1.0, 1.0)):
    np.testing.assert_allclose(best_threshold(_x, _y, _D), 0.0, atol=1e-12, strict=True)
_y = np.where(rng_h.random(n_h) < 0.5, 1.0, -1.0)
np.testing.assert_allclose(
    best_threshold(_x, _y, rng_h.uniform(2, 100) * _D),
    best_threshold(_x, _y, _D),
    rtol=1e-10,
    strict=True,
)

# %% [markdown]
# ```{exercise} Core · 3 points · about 30 min
# :label: ex-code-adaboost-loop
# Write `adaboost_loop(X, y, n_rounds)`, AdaBoost itself: start from the uniform
# distribution $D_1$; in each round take the best stump for $D_t$
# (`boosting.best_stump(X, y, D)`, whose `.predict(X)` gives its $\pm 1$ predictions),
# compute its weighted error $\epsilon_t$ and weight $\alpha_t$, and reweight and
# normalise the distribution. Return the pair `(alphas, F)`: the array of the $\alpha_t$
# and the values $F(x_i) = \sum_t \alpha_t h_t(x_i)$ on the training points. While this
# is graded, `mlnotes.boosting.adaboost`, `mlnotes.boosting.weighted_error`,
# `mlnotes.boosting.vote` and `mlnotes.boosting.reweight` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def adaboost_loop(X, y, n_rounds):
    # BEGIN SOLUTION
    D = np.full(len(y), 1.0 / len(y))
    alphas, F = [], np.zeros(len(y))
    for _ in range(n_rounds):
        h = boosting.best_stump(X, y, D).predict(X)
        eps = np.sum(D[h != y])
        alpha = 0.5 * np.log((1.0 - eps) / eps)
        D = D * np.exp(-alpha * y * h)
        D /= D.sum()
        alphas.append(alpha)
        F += alpha * h
    return np.array(alphas), F
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: adaboost-loop, points: 3, tier: core, minutes: 30,
#   withdraw: [mlnotes.boosting.adaboost, mlnotes.boosting.weighted_error,
#              mlnotes.boosting.vote, mlnotes.boosting.reweight]}
# TEST: 5 rounds on 60 points, against the chapter's AdaBoost
X_test = np.random.default_rng(35).normal(size=(60, 2))
y_test = np.where(X_test[:, 0] ** 2 + X_test[:, 1] > 0.5, 1.0, -1.0)
fit_test = boosting.adaboost(X_test, y_test, n_rounds=5)
a_test, F_test = adaboost_loop(X_test, y_test, 5)
np.testing.assert_allclose(a_test, fit_test.alpha, rtol=1e-9, strict=True)
np.testing.assert_allclose(
    F_test, fit_test.decision_function(X_test), rtol=1e-9, atol=1e-12, strict=True
)

# HIDDEN TEST: the chapter's AdaBoost on noisy data, any size and number of rounds
rng_h = np.random.default_rng(list(b"development secret"))
X_h = rng_h.normal(size=(rng_h.integers(40, 120), rng_h.integers(1, 5)))
y_h = X_h[:, 0] * X_h[:, -1] + 0.3 * rng_h.normal(size=len(X_h))
y_h = np.where(y_h > 0, 1.0, -1.0)
T_h = int(rng_h.integers(1, 20))
fit_h = boosting.adaboost(X_h, y_h, n_rounds=T_h)
a_h, F_h = adaboost_loop(X_h, y_h, T_h)
np.testing.assert_allclose(a_h, fit_h.alpha, rtol=1e-9, strict=True)
np.testing.assert_allclose(
    F_h, fit_h.decision_function(X_h), rtol=1e-9, atol=1e-12, strict=True
)

# HIDDEN TEST: positive votes, a training error under prod_t 2 sqrt(eps_t (1 - eps_t))
rng_h = np.random.default_rng(list(b"development secret"))
X_h = rng_h.normal(size=(rng_h.integers(50, 120), rng_h.integers(1, 4)))
y_h = np.where(np.abs(X_h[:, 0]) < rng_h.uniform(0.5, 1), 1.0, -1.0)
y_h[rng_h.random(len(y_h)) < 0.1] *= -1  # noise: no stump is perfect
T_h = int(rng_h.integers(2, 15))
a_h, F_h = adaboost_loop(X_h, y_h, T_h)
assert np.shape(a_h) == (T_h,), f"expected {T_h} votes, got shape {np.shape(a_h)}"
eps_h = 1 / (1 + np.exp(2 * a_h))  # eps from alpha: e^{-a} / (e^{a} + e^{-a})
assert np.all(a_h > 0), f"votes {a_h}"
err_h = np.mean(np.sign(F_h) != y_h)
bound_h = np.prod(2 * np.sqrt(eps_h * (1 - eps_h)))
assert err_h <= bound_h + 1e-12, f"training error {err_h} above the bound {bound_h}"


# %% [markdown]
# ```{exercise} Challenge · 4 points · about 60 min
# :label: ex-code-confidence-vote
# A *confidence-rated* weak learner returns real values $h(x_i) \in [-1, 1]$: the sign is
# its guess and $|h(x_i)|$ its confidence, $h(x_i) = 0$ meaning that it abstains. The
# update of {eq}`def-adaboost` still makes sense, but the vote must be derived again: it
# is the $\alpha$ that minimises $Z(\alpha) = \sum_i D(i)\, e^{-\alpha y_i h(x_i)}$, as
# in {eq}`eq-optimal-alpha`, and it has no closed form in general.
#
# (a) On paper: compute $Z'(\alpha)$ and $Z''(\alpha)$, show that $Z$ is convex, and that
# it has exactly one minimiser when some example with $D(i) > 0$ has $y_i h(x_i) > 0$ and
# another has $y_i h(x_i) < 0$. For a learner with values in {-1, 0, +1}, derive that
# minimiser and the minimum of $Z$ in closed form, in terms of the weights $W_+$, $W_-$
# and $W_0$ of the examples it gets right, gets wrong and abstains on.
#
# (b) Write `confidence_vote(D, y, h)` that returns the pair `(alpha, Z)`, the minimiser
# and the minimum, for weights `D` (shape (n,), positive, summing to one), labels `y` in
# {-1, +1} and predictions `h` in [-1, 1] with both signs of $y_i h(x_i)$ present. Find
# the root of $Z'$ by Newton's method kept inside a bracket that bisection shrinks
# (bracket the root first), to about machine precision. The tests compare your $Z$ with
# the minimum scipy's `minimize_scalar` finds (yours may not exceed it by more than a
# relative $10^{-12}$), check that $|Z'(\alpha)| \le 10^{-9} \sum_i D(i)\, |y_i h(x_i)|\,
# e^{-\alpha y_i h(x_i)}$, your closed form of (a), and what scaling $h$ by $c \in (0, 1]$
# does to `alpha`. While this is graded, `scipy.optimize` is unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def confidence_vote(D, y, h):
    # BEGIN SOLUTION
    u = y * h  # Z(a) = sum D e^{-a u}; Z'(a) = -g(a), with g decreasing

    def g(a):
        return np.sum(D * u * np.exp(-a * u))

    lo, hi = -1.0, 1.0
    while g(lo) <= 0:  # the root of g lies left of lo
        lo *= 2.0
    while g(hi) >= 0:  # the root of g lies right of hi
        hi *= 2.0
    a = new = 0.5 * (lo + hi)
    for _ in range(200):
        ga = g(a)
        lo, hi = (a, hi) if ga > 0 else (lo, a)
        newton = a + ga / np.sum(D * u**2 * np.exp(-a * u))  # a - g(a) / g'(a)
        new = newton if lo < newton < hi else 0.5 * (lo + hi)
        if abs(new - a) <= 1e-15 * (1.0 + abs(a)):
            break
        a = new
    return float(new), float(np.sum(D * np.exp(-new * u)))
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: confidence-vote, points: 4, tier: challenge, minutes: 60,
#   withdraw: [scipy.optimize]}
# TEST: 40 examples, confidences in [-1, 1]: the minimum of Z, as scipy finds it
from scipy.optimize import minimize_scalar

_r = np.random.default_rng(40)
_D = _r.random(40) + 0.05
_D /= _D.sum()
_y = np.where(_r.random(40) < 0.5, 1.0, -1.0)
_h = _y * np.clip(_r.normal(0.3, 0.5, 40), -1, 1)
_out = confidence_vote(_D, _y, _h)
_best = minimize_scalar(lambda a: np.sum(_D * np.exp(-a * _y * _h)))
assert len(_out) == 2, f"expected the pair (alpha, Z), got {_out}"
np.testing.assert_allclose(_out[0], _best.x, rtol=1e-6, atol=1e-6, err_msg="alpha")
np.testing.assert_allclose(
    _out[1], np.sum(_D * np.exp(-_out[0] * _y * _h)), rtol=1e-12, err_msg="Z(alpha)"
)
assert _out[1] <= _best.fun * (1 + 1e-12), f"Z = {_out[1]}, scipy: {_best.fun}"

# HIDDEN TEST: Z'(alpha) = 0 and no alpha gives a smaller Z, any weights and confidences
from scipy.optimize import minimize_scalar

rng_h = np.random.default_rng(list(b"development secret"))
for _ in range(3):
    n_h = int(rng_h.integers(5, 80))
    _D = rng_h.random(n_h) + 0.01
    _D /= _D.sum()
    _y = np.where(rng_h.random(n_h) < 0.5, 1.0, -1.0)
    _u = np.clip(rng_h.normal(rng_h.uniform(-0.3, 0.6), 0.5, n_h), -1, 1)
    _u[:2] = rng_h.uniform(0.05, 1), -rng_h.uniform(0.05, 1)  # both signs
    _a, _Z = confidence_vote(_D, _y, _y * _u)
    _w = _D * np.exp(-_a * _u)
    assert abs(np.sum(_w * _u)) <= 1e-9 * np.sum(_w * np.abs(_u)), f"Z'({_a}) != 0"
    _best = minimize_scalar(lambda a, D=_D, u=_u: np.sum(D * np.exp(-a * u)))
    np.testing.assert_allclose(_Z, np.sum(_w), rtol=1e-12, err_msg="Z(alpha)")
    assert _Z <= _best.fun * (1 + 1e-12), f"Z = {_Z}, scipy: {_best.fun}"

# HIDDEN TEST: a learner that abstains (values in {-1, 0, +1}): the closed form of (a)
rng_h = np.random.default_rng(list(b"development secret"))
n_h = int(rng_h.integers(6, 80))
_D = rng_h.random(n_h) + 0.01
_D /= _D.sum()
_y = np.where(rng_h.random(n_h) < 0.5, 1.0, -1.0)
_u = rng_h.integers(-1, 2, n_h).astype(float)
_u[:3] = rng_h.permutation(3) - 1.0  # a right, a wrong and an abstaining one at least
_Wp, _Wm, _W0 = _D[_u > 0].sum(), _D[_u < 0].sum(), _D[_u == 0].sum()
_a, _Z = confidence_vote(_D, _y, _y * _u)
np.testing.assert_allclose(
    [_a, _Z],
    [0.5 * np.log(_Wp / _Wm), _W0 + 2 * np.sqrt(_Wp * _Wm)],
    rtol=1e-9,
    atol=1e-12,
    strict=True,
)

# HIDDEN TEST: confidences scaled by c in (0, 1] divide alpha by c, keep Z; Z'(alpha)=0
rng_h = np.random.default_rng(list(b"development secret"))
n_h = int(rng_h.integers(5, 80))
_D = rng_h.random(n_h) + 0.01
_D /= _D.sum()
_y = np.where(rng_h.random(n_h) < 0.5, 1.0, -1.0)
_u = rng_h.uniform(-0.7, 1, n_h)
_u[:2] = rng_h.uniform(0.05, 1), -rng_h.uniform(0.05, 1)
_c = rng_h.uniform(0.2, 0.9)
_a, _Z = confidence_vote(_D, _y, _y * _u)
_ac, _Zc = confidence_vote(_D, _y, _c * _y * _u)
np.testing.assert_allclose([_ac, _Zc], [_a / _c, _Z], rtol=1e-9, strict=True)
_w = _D * np.exp(-_a * _u)
assert abs(np.sum(_w * _u)) <= 1e-9 * np.sum(_w * np.abs(_u)), f"Z'({_a}) != 0"

# %% [markdown]
# ```{exercise} Core · 3 points · about 35 min
# :label: ex-code-staged-margins
# Write `staged_margins(X, y, n_rounds)` that runs AdaBoost with the best stumps
# (`boosting.best_stump(X, y, D)`, whose `.predict(X)` gives its $\pm 1$ predictions)
# for `n_rounds` rounds and returns the array of shape `(n_rounds, n)` whose row $t$
# holds the normalised margins $y_i f_t(x_i) / \sum_{s \le t} \alpha_s$ of the training
# examples after round $t$ (row 0: after the first round). These are the curves of
# {numref}`fig-adaboost-margins`. Assume that every round has $0 < \epsilon_t < 1/2$.
# While this is graded, `mlnotes.boosting.adaboost`, `mlnotes.boosting.weighted_error`,
# `mlnotes.boosting.vote` and `mlnotes.boosting.reweight` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def staged_margins(X, y, n_rounds):
    # BEGIN SOLUTION
    n = len(y)
    D = np.full(n, 1.0 / n)
    alphas, scores = np.zeros(n_rounds), np.zeros((n_rounds, n))
    for t in range(n_rounds):
        h = boosting.best_stump(X, y, D).predict(X)
        eps = np.sum(D[h != y])
        alphas[t] = 0.5 * np.log((1.0 - eps) / eps)
        D = D * np.exp(-alphas[t] * y * h)
        D /= D.sum()
        scores[t] = (scores[t - 1] if t else 0.0) + alphas[t] * h
    return y * scores / np.cumsum(alphas)[:, None]
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: staged-margins, points: 3, tier: core, minutes: 35,
#   withdraw: [mlnotes.boosting.adaboost, mlnotes.boosting.weighted_error,
#              mlnotes.boosting.vote, mlnotes.boosting.reweight]}
# TEST: 8 rounds on 60 noisy points, against the chapter's AdaBoost
_X = np.random.default_rng(36).normal(size=(60, 3))
_y = _X[:, 0] - _X[:, 1] ** 2 + 0.5 + 0.5 * np.random.default_rng(37).normal(size=60)
_y = np.where(_y > 0, 1.0, -1.0)
_fit = boosting.adaboost(_X, _y, n_rounds=8)
_m = _y * _fit.staged_decision_function(_X) / np.cumsum(_fit.alpha)[:, None]
np.testing.assert_allclose(
    staged_margins(_X, _y, 8), _m, rtol=1e-9, atol=1e-12, strict=True
)

# HIDDEN TEST: the chapter's AdaBoost on noisy data, any size and number of rounds
rng_h = np.random.default_rng(list(b"development secret"))
X_h = rng_h.normal(size=(rng_h.integers(40, 120), rng_h.integers(1, 5)))
y_h = X_h[:, 0] * X_h[:, -1] + 0.3 * rng_h.normal(size=len(X_h))
y_h = np.where(y_h > 0, 1.0, -1.0)
T_h = int(rng_h.integers(1, 20))
fit_h = boosting.adaboost(X_h, y_h, n_rounds=T_h)
m_h = y_h * fit_h.staged_decision_function(X_h) / np.cumsum(fit_h.alpha)[:, None]
np.testing.assert_allclose(
    staged_margins(X_h, y_h, T_h), m_h, rtol=1e-9, atol=1e-12, strict=True
)

# HIDDEN TEST: D_{t+1}(i) is proportional to exp(-(alpha_1 + ... + alpha_t) m_i), row t
rng_h = np.random.default_rng(list(b"development secret"))
X_h = rng_h.normal(size=(rng_h.integers(50, 120), rng_h.integers(1, 4)))
y_h = np.where(np.abs(X_h[:, 0]) < rng_h.uniform(0.5, 1), 1.0, -1.0)
y_h[rng_h.random(len(y_h)) < 0.1] *= -1  # noise: no stump is perfect
T_h = int(rng_h.integers(2, 15))
fit_h = boosting.adaboost(X_h, y_h, n_rounds=T_h, keep_D=True)
m_h = staged_margins(X_h, y_h, T_h)
assert np.shape(m_h) == (T_h, len(y_h)), f"expected shape {(T_h, len(y_h))}"
w_h = fit_h.D_history[1:] * np.exp(np.cumsum(fit_h.alpha)[:, None] * m_h)
np.testing.assert_allclose(
    w_h / w_h.mean(axis=1, keepdims=True), np.ones_like(w_h), rtol=1e-8, strict=True
)
np.testing.assert_allclose(
    np.mean(m_h <= 0, axis=1), fit_h.train_error, atol=1e-12, strict=True
)

# %% [markdown]
# ```{exercise} Core · 3 points · about 35 min
# :label: ex-code-rounds-by-validation
# The number of rounds $T$ is a regularisation parameter ({ref}`sec-adaboost-real-data`):
# choose it on held-out data. Write `rounds_by_validation(X_train, y_train, X_val, y_val,
# X_test, y_test, T_max)` that runs `boosting.adaboost` for `T_max` rounds on the
# training split, takes the $T \le$ `T_max` whose vote $\sign f_T$ has the smallest error
# on the validation split (the smallest such $T$ if several tie), and returns the pair
# `(T, test_error)`: that $T$ and the error of $f_T$ on the test split, which was used
# for nothing else. Count a zero score as a mistake, as `fit.train_error` does (the
# error of $f_T$ on a split is the fraction of its examples with $y_i f_T(x_i) \le 0$).
# Labels are in {-1, +1}. The tests run the breast cancer data (a random subsample of
# about 200 tumours, split in three) through `boosting.adaboost` themselves; your `T` must
# equal theirs exactly and your test error must be theirs at that $T$ within $10^{-9}$
# (the same count of mistakes).
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def rounds_by_validation(X_train, y_train, X_val, y_val, X_test, y_test, T_max):
    # BEGIN SOLUTION
    fit = boosting.adaboost(X_train, y_train, n_rounds=T_max)
    val_error = np.mean(y_val * fit.staged_decision_function(X_val) <= 0, axis=1)
    T = int(np.argmin(val_error)) + 1  # the first of the ties; round T is row T - 1
    f_test = fit.staged_decision_function(X_test)[T - 1]
    return T, float(np.mean(y_test * f_test <= 0))
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: rounds-by-validation, points: 3, tier: core, minutes: 35,
#   data: breast_cancer}
# TEST: 200 tumours split 100 / 50 / 50, T_max = 60, against the chapter's AdaBoost
_bc = datasets.load_breast_cancer()
_rows = np.random.default_rng(17).permutation(len(_bc.y))[:200]
_X, _y = _bc.X[_rows], to_pm1(_bc.y[_rows])
_parts = _X[:100], _y[:100], _X[100:150], _y[100:150], _X[150:], _y[150:]
_fit = boosting.adaboost(_parts[0], _parts[1], n_rounds=60)
_val = np.mean(_parts[3] * _fit.staged_decision_function(_parts[2]) <= 0, axis=1)
_test = np.mean(_parts[5] * _fit.staged_decision_function(_parts[4]) <= 0, axis=1)
_T = int(np.argmin(_val)) + 1
_out = rounds_by_validation(*_parts, 60)
assert len(_out) == 2 and np.ndim(_out[0]) == 0, f"expected (T, test_error), got {_out}"
assert _out[0] == _T, f"expected T = {_T}, got {_out[0]}; validation errors {_val}"
np.testing.assert_allclose(_out[1], _test[_T - 1], atol=1e-9, err_msg="test error")

# HIDDEN TEST: T is the first round of least validation error, on random splits of ~200
rng_h = np.random.default_rng(list(b"development secret"))
_bc = datasets.load_breast_cancer()
for _ in range(3):
    n_h = int(rng_h.integers(180, 240))
    _rows = rng_h.permutation(len(_bc.y))[:n_h]
    _X, _y = _bc.X[_rows], to_pm1(_bc.y[_rows])
    _a = int(rng_h.integers(n_h // 3, n_h // 2))
    _b = _a + (n_h - _a) // 2
    _parts = _X[:_a], _y[:_a], _X[_a:_b], _y[_a:_b], _X[_b:], _y[_b:]
    T_max = int(rng_h.integers(30, 80))
    _fit = boosting.adaboost(_parts[0], _parts[1], n_rounds=T_max)
    _val = np.mean(_y[_a:_b] * _fit.staged_decision_function(_X[_a:_b]) <= 0, axis=1)
    _T = int(np.argmin(_val)) + 1
    _out = rounds_by_validation(*_parts, T_max)
    assert len(_out) == 2 and _out[0] == _T, f"expected T = {_T}, got {_out}"

# HIDDEN TEST: the error returned is f_T's on the test split, on random splits of ~200
rng_h = np.random.default_rng(list(b"development secret"))
_bc = datasets.load_breast_cancer()
for _ in range(3):
    n_h = int(rng_h.integers(180, 240))
    _rows = rng_h.permutation(len(_bc.y))[:n_h]
    _X, _y = _bc.X[_rows], to_pm1(_bc.y[_rows])
    _a = int(rng_h.integers(n_h // 3, n_h // 2))
    _b = _a + (n_h - _a) // 2
    _parts = _X[:_a], _y[:_a], _X[_a:_b], _y[_a:_b], _X[_b:], _y[_b:]
    T_max = int(rng_h.integers(30, 80))
    _fit = boosting.adaboost(_parts[0], _parts[1], n_rounds=T_max)
    _val = np.mean(_y[_a:_b] * _fit.staged_decision_function(_X[_a:_b]) <= 0, axis=1)
    _f = _fit.staged_decision_function(_X[_b:])[int(np.argmin(_val))]
    _out = rounds_by_validation(*_parts, T_max)
    assert len(_out) == 2, f"expected (T, test_error), got {_out}"
    np.testing.assert_allclose(
        _out[1], np.mean(_y[_b:] * _f <= 0), atol=1e-9, err_msg="test error"
    )

# %% [markdown]
# ## Summary
#
# - AdaBoost reweights the examples by $e^{-\alpha_t y_i h_t(x_i)} / Z_t$, with
#   $\alpha_t = \frac12\log\frac{1-\epsilon_t}{\epsilon_t}$, and predicts with the weighted vote.
# - The best decision stump is found exactly in $O(nd)$ per round, by cumulative sums of $D_i y_i$
#   along each feature sorted once.
# - The training error is at most $\prod_t Z_t = \prod_t \sqrt{1 - 4\gamma_t^2} \le
#   e^{-2\sum_t\gamma_t^2}$: a constant edge gives an exponentially falling training error.
# - AdaBoost is coordinate descent on the exponential loss, and forward stagewise fitting of an
#   additive model; the population minimiser of that loss is half the log-odds.
# - On real data the test error can keep falling after the training error is zero (margins grow),
#   or rise again on noisy data: the number of rounds must be chosen on held-out data.
#
# ## References
#
# AdaBoost and its training-error bound are due to Freund and Schapire {cite}`freund1997decision`;
# the margins explanation of the test error is in {cite}`schapire1998margin`, and the book by
# Schapire and Freund {cite}`schapire2012boosting` covers all of this chapter in depth. The views
# as stagewise additive modelling and as an estimate of half the log-odds are from Friedman,
# Hastie and Tibshirani {cite}`friedman2000additive`; scikit-learn's multi-class variant, SAMME,
# from {cite}`zhu2009multiclass`. The data sets and their sources are listed in
# `mlnotes/data/README.md`.
