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
#   enumerator: '3.%s'
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
# (chap-online)=
# # Perceptron, winnow and stochastic gradient descent
#
# A linear classifier predicts $\hat y = \sign(w^\top x + b)$. This chapter learns $w$ one
# example at a time. The perceptron and winnow change $w$ only when they make a mistake, and on
# separable data the number of mistakes they can make is bounded by a quantity that depends on
# the margin, not on the number of examples. Stochastic gradient descent (SGD) replaces the
# count of mistakes by a smooth or convex **surrogate loss** of the margin and follows its
# gradient; the perceptron, the delta rule and logistic regression are all special cases. The
# last section handles losses with kinks (hinge, perceptron) through subgradients.
#
# **What you will learn**
#
# - the homogeneous form of a linear classifier, and the functional and geometric margin;
# - the perceptron, its convergence theorem (at most $(R/\gamma)^2$ mistakes) and its proof;
# - winnow (multiplicative weights) as a repeated game, its $O(\ln N / \rho^2)$ bound, and why
#   it beats the perceptron when the target is sparse;
# - the zoo of surrogate losses, which of them bound the zero-one loss, and which are
#   *classification calibrated*;
# - SGD for any loss of the margin, step-size rules, feature scaling, weight decay;
# - subgradients, why a subgradient step can go uphill, and why the subgradient method still
#   converges.

# %%
import textwrap
import warnings

import matplotlib.pyplot as plt
import numpy as np

from mlnotes import (
    ConvergenceWarning,
    claims,
    logistic,
    losses,
    online,
    optim,
    plots,
    to_01,
    to_pm1,
)
from mlnotes.datasets import (
    load_breast_cancer,
    load_digits,
    load_heart_scale,
    load_spam_tiny,
)

plots.setup()
np.set_printoptions(precision=4, suppress=True)
rng = np.random.default_rng(3)

# %% [markdown]
# (sec-online-homogeneous)=
# ## Linear classifiers in homogeneous form
#
# A linear classifier with weights $w \in \R^d$ and bias $b$ assigns
#
# $$
# \hat y(x) = \sign f(x), \qquad f(x) = w^\top x + b, \qquad M_i = y_i f(x_i),
# $$ (def-online-margin)
#
# and the **functional margin** $M_i$ of sample $i$ is positive exactly when the sample is
# classified correctly. The decision boundary $\{x : w^\top x + b = 0\}$ is a hyperplane with
# normal vector $w$: for two points $x, x'$ on it, $w^\top (x - x') = 0$. The signed distance of
# $x_i$ to the boundary is the **geometric margin** $M_i / \|w\|$, which, unlike $M_i$, does not
# change when $(w, b)$ is multiplied by a positive constant.
#
# Two bookkeeping tricks make the algorithms shorter. Append the constant feature 1 to absorb the
# bias, $\tilde w = (w, b)$, $\tilde x_i = (x_i, 1)$; and multiply each point by its label,
# $a_i = y_i \tilde x_i$. Then
#
# $$
# y_i (w^\top x_i + b) = \tilde w^\top a_i, \qquad a_i = y_i (x_i, 1),
# $$ (eq-homogeneous-form)
#
# and "classify every sample correctly" becomes the homogeneous system $\tilde w^\top a_i > 0$
# for all $i$: find a vector on the positive side of $n$ hyperplanes through the origin. The data
# are **linearly separable** when such a vector exists; its margin is
# $\gamma = \max_{\|u\| = 1} \min_i u^\top a_i$.

# %%
claims.verify("eq-homogeneous-form")

# %% [markdown]
# (sec-online-perceptron)=
# ## The perceptron
#
# Start from $w = 0$ and go through the points in any order. When a point is misclassified,
# $w^\top a_i \le 0$ (a point on the boundary counts as a mistake), add it: $w \leftarrow w + a_i$,
# that is $w \leftarrow w + y_i x_i$ and $b \leftarrow b + y_i$. The update raises the score of the
# mistaken point by its squared norm,
#
# $$
# (w + a_i)^\top a_i = w^\top a_i + \|a_i\|^2 > w^\top a_i ,
# $$ (eq-perceptron-score-increase)
#
# but it can spoil points that were already correct, so it is not obvious that the algorithm
# stops. The convergence theorem says it does, after a number of mistakes that does not depend
# on the number of points.

# %%
claims.verify("eq-perceptron-score-increase")

# %% [markdown]
# ```{prf:theorem} Perceptron convergence (Novikoff)
# :label: thm-perceptron-convergence
#
# Let $\|a_i\| \le R$ for all $i$, and let a unit vector $u$ separate the points with margin
# $\gamma > 0$: $u^\top a_i \ge \gamma$ for all $i$. Then the perceptron makes at most
# $(R / \gamma)^2$ mistakes, in any order of presentation, and stops with a separating $w$.
# ```
#
# ```{prf:proof}
# Let $w_k$ be the weight vector after $k$ mistakes, $w_0 = 0$, and let $a$ be the point of the
# $k$-th mistake, so $w_k = w_{k-1} + a$ with $w_{k-1}^\top a \le 0$.
#
# *The projection on $u$ grows linearly.* $u^\top w_k = u^\top w_{k-1} + u^\top a
# \ge u^\top w_{k-1} + \gamma$, hence by induction
#
# $$
# u^\top w_k \ge k \gamma .
# $$ (eq-perceptron-numerator)
#
# *The norm grows at most like $\sqrt k$.* $\|w_k\|^2 = \|w_{k-1}\|^2 + 2 w_{k-1}^\top a + \|a\|^2
# \le \|w_{k-1}\|^2 + R^2$ because the cross term is $\le 0$ at a mistake, hence
#
# $$
# \|w_k\|^2 \le k R^2 .
# $$ (eq-perceptron-denominator)
#
# *Cauchy-Schwarz closes the gap.* $k\gamma \le u^\top w_k \le \|w_k\| \le \sqrt k R$, so
#
# $$
# k \le \left( \frac{R}{\gamma} \right)^2 .
# $$ (eq-perceptron-bound)
#
# The quantity $u^\top w_k / \|w_k\|$ is the cosine of the angle between $w_k$ and $u$; the proof
# shows it is at least $\sqrt k\, \gamma / R$, and a cosine cannot exceed 1. Once mistakes stop,
# every point has $w^\top a_i > 0$.
# ```
#
# The first two steps of the proof are checked along perceptron runs on random separable data
# (the weight after each mistake is replayed from the mistakes the run recorded), and then the
# bound itself.

# %%
claims.verify("eq-perceptron-numerator")

# %%
claims.verify("eq-perceptron-denominator")

# %%
claims.verify("eq-perceptron-bound")

# %% [markdown]
# In the notes (notes 001) the points are normalised, $\|a_i\| = 1$, and the bound reads
# $1/\gamma^2$. Normalising changes the points' geometric margins, so the two forms give
# different numbers on the same data; both are valid.
#
# Here is the perceptron on a two-dimensional separable sample, with the bound computed from the
# separator that generated the data (any separator certifies a bound; the maximum-margin one,
# Chapter 4, gives the best) ({numref}`fig-perceptron-boundary`).

# %%
n_pts = 80
u_true = np.array([0.8, -0.6, 0.3])  # (w, b) of the generating separator
X2 = rng.uniform(-2, 2, size=(4 * n_pts, 2))
score = X2 @ u_true[:2] + u_true[2]
X2 = X2[np.abs(score) / np.linalg.norm(u_true) > 0.15][:n_pts]
y2 = np.sign(X2 @ u_true[:2] + u_true[2])
fit = online.perceptron(X2, y2, fit_intercept=True)
bound = online.perceptron_bound(X2, y2, u_true, fit_intercept=True)
print(
    f"converged: {fit.converged} after {fit.n_epochs} epochs, {fit.n_mistakes} "
    f"mistakes "
    f"(bound (R/gamma)^2 = {bound:.1f})"
)
print("mistakes per epoch:", fit.mistakes)

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "The perceptron's decision boundary (solid) on a separable sample, with the separator that generated the data (dashed).", "name": "fig-perceptron-boundary"}, "image": {"alt": "Two classes of points separated by a solid line close to a dashed one."}} tags=["hide-input"]
fig, ax = plt.subplots()
plots.decision_regions(ax, fit.decision_function, X2, y2)
xs = np.linspace(-2.5, 2.5, 2)
ax.plot(
    xs,
    -(u_true[0] * xs + u_true[2]) / u_true[1],
    "--",
    color="gray",
    label="generating separator",
)
ax.set_title("Perceptron decision boundary (solid) on separable data")
ax.legend(loc="lower right")
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-perceptron-boundary
# The perceptron's decision boundary (solid) on a separable sample, with the separator that generated the data (dashed).
# :::

# %% [markdown]
# How tight is the bound? Shrinking the margin of the sample (by keeping points closer to the
# generating hyperplane) raises the bound like $1/\gamma^2$; the actual number of mistakes grows
# too, but stays far below it ({numref}`fig-perceptron-bound`).

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Mistakes of the perceptron (mean of five samples) against the margin $\\gamma$ of the sample, with the bound $(R/\\gamma)^2$: both grow as the margin shrinks, the mistakes far below the bound.", "name": "fig-perceptron-bound"}, "image": {"alt": "Log-log plot with a steep bound line above a lower curve of mistakes."}} tags=["hide-input"]
gammas = np.array([0.4, 0.2, 0.1, 0.05, 0.025])
made, bounds, within = [], [], []
for g in gammas:
    runs, bs = [], []
    for rep in range(5):
        r = np.random.default_rng(100 + rep)
        u = r.standard_normal(5)
        u /= np.linalg.norm(u)
        Z = r.standard_normal((6000, 5))
        Z = Z[np.abs(Z @ u) >= g][:300]
        yz = np.sign(Z @ u)
        runs.append(online.perceptron(Z, yz, n_epochs=10_000).n_mistakes)
        bs.append(online.perceptron_bound(Z, yz, u))
        within.append(runs[-1] <= bs[-1])
    made.append(np.mean(runs))
    bounds.append(np.mean(bs))
fig, ax = plt.subplots()
ax.loglog(gammas, bounds, "o--", label=r"bound $(R/\gamma)^2$")
ax.loglog(gammas, made, "s-", label="mistakes made (mean of 5)")
ax.set(xlabel=r"margin $\gamma$ of the sample", ylabel="mistakes")
ax.set_xticks(gammas, [f"{g:g}" for g in gammas])
ax.minorticks_off()
ax.legend()
plt.show()
print(f"mistakes within the bound (R/gamma)^2 in all {len(within)} runs: {all(within)}")

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-perceptron-bound
# Mistakes of the perceptron (mean of five samples) against the margin $\gamma$ of the sample, with the bound $(R/\gamma)^2$: both grow as the margin shrinks, the mistakes far below the bound.
# :::

# %% [markdown]
# On data that are not linearly separable the perceptron never stops: some point is always
# misclassified. `perceptron` gives up after `n_epochs` passes, warns with the number of
# mistakes, and returns `converged=False`. The XOR problem is the classical example.

# %%
X_xor = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
y_xor = np.array([-1.0, -1.0, 1.0, 1.0])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    fit_xor = online.perceptron(X_xor, y_xor, fit_intercept=True, n_epochs=20)
print("converged:", fit_xor.converged)
warned = f"warning: {caught[0].category.__name__} - {caught[0].message}"
print(textwrap.fill(warned, 88))

# %% [markdown]
# (sec-online-winnow)=
# ## Winnow: multiplicative weights as a repeated game
#
# Winnow {cite}`littlestone1988learning` keeps a *probability vector* of weights and updates it
# multiplicatively. Notes 001 derive it from a repeated two-player game: the row player picks a
# coordinate $k$ of the points (a mixed strategy $w$), the column player picks a point $a_j$, and
# the row player pays $M(k, j) = -a_{jk}$. A weight vector with $w^\top a_j > 0$ for all $j$ is a
# mixed strategy that wins against every column, and the multiplicative-weights algorithm
# {cite}`arora2012multiplicative` finds one.
#
# **The doubled representation.** The weights of a mixed strategy are non-negative, but a
# separator may need negative weights. Write $w = w^+ - w^-$ with $w^\pm \ge 0$ and double the
# coordinates, $z_i = (x_i, -x_i)$: then $w^\top x_i = (w^+, w^-)^\top z_i$, and non-negative
# weights on $N = 2d$ coordinates represent every $w$. `online.winnow` does this by default
# (`doubled=True`). The analysis needs the payoffs bounded, $|a_{jk}| \le 1$, so `winnow`
# refuses features outside $[-1, 1]$.
#
# **The algorithm.** Start from $v_k = 1$ for every coordinate and play $w = v / \sum_k v_k$. On a
# mistake, $w^\top a_j \le 0$, update $v_k \leftarrow v_k\, e^{\eta a_{jk}}$: coordinates on which
# the mistaken point is positive gain weight. (The notes write the factor as
# $(1 - \epsilon)^{-a_{jk}}$, the same rule with $\eta = -\ln(1 - \epsilon)$.)
#
# **The analysis** follows the potential $\Phi = \sum_k v_k$. Suppose a probability vector $u$
# has margin $\rho = \min_j u^\top a_j > 0$ in the $\ell_1/\ell_\infty$ sense of notes 001. At a
# mistake the new potential is $\Phi \sum_k w_k e^{\eta a_{jk}}$, and since $a_{jk} \in [-1, 1]$,
# Hoeffding's lemma bounds that average by $e^{\eta w^\top a_j + \eta^2/2} \le e^{\eta^2/2}$. In
# the other direction, by Jensen's inequality with the weights $u$, $\ln \Phi \ge \sum_k u_k \ln
# (v_k / u_k) \ge \eta \sum_{\text{mistakes}} u^\top a_j \ge \eta k \rho$ (the middle step
# drops the entropy $-\sum_k u_k \ln u_k \ge 0$). After $k$ mistakes,
#
# $$
# \eta k \rho \;\le\; \ln \Phi_k \;\le\; \ln N + k \frac{\eta^2}{2} .
# $$ (eq-winnow-potential)

# %%
claims.verify("eq-winnow-potential")

# %% [markdown]
# Solving for $k$ gives the mistake bound, valid for $0 < \eta < 2\rho$ and best at $\eta = \rho$:
#
# $$
# k \le \frac{\ln N}{\eta\rho - \eta^2/2}, \qquad k \le \frac{2 \ln N}{\rho^2} \text{ for } \eta = \rho .
# $$ (eq-winnow-bound)

# %%
claims.verify("eq-winnow-bound")

# %% [markdown]
# ```{admonition} Erratum (notes 001)
# :class: warning
# The notes choose $\epsilon = 3 r_w / 4$, a valid choice: their inequalities give
# $T \le \ln n / (\epsilon (r_w - \epsilon))$ for $0 < \epsilon < r_w$, hence their constant
# $16/3$. But they then claim "$r_w \le \epsilon \le r_w/2$", which no positive $\epsilon$
# satisfies (every $\epsilon \in [r_w/4, 3r_w/4]$ gives the $16/3$). The "$\ln n$"
# of their bound is the logarithm of the number of *weights* ($N = 2(d+1)$ in the doubled
# homogeneous form), not of the number $n$ of samples, although the notes use $n$ for both.
# ```
#
# A bound in the number of samples cannot hold. The first weights are uniform, $w_1 = 1/N$,
# and a doubled point $a = (x, -x)$ sums to zero, so
#
# $$
# w_1^\top a = \frac1N \sum_{k=1}^N a_k = 0 :
# $$ (eq-winnow-first-round)
#
# the first example is always a mistake. With a single example, $\ln n = 0$ and the notes'
# bound allows none; $\ln N / \rho^2$ allows it.

# %%
claims.verify("eq-winnow-first-round")

# %% [markdown]
# **Sparse targets: winnow against the perceptron.** Take $x \in \{-1, +1\}^n$ and a target that
# depends on $k = 3$ of the $n$ coordinates, $y = \sign(x_{s_1} + x_{s_2} + x_{s_3})$. In the
# doubled form the probability vector with weight $1/3$ on the three relevant coordinates has
# $\ell_1/\ell_\infty$ margin $\rho = 1/3$, so winnow with $\eta = \rho$ makes at most
# $2 k^2 \ln(2n)$ mistakes: logarithmic in the dimension. For the perceptron $R = \sqrt n$ and the
# unit separator $(1, 1, 1)/\sqrt 3$ has margin $1/\sqrt 3$, so its bound is $3n$: linear in
# the dimension. The experiment is the online setting the bounds describe: a stream of 2000
# fresh examples, each predicted before its label is revealed, one pass, mistakes counted
# (averages over three streams; `n_epochs=1` makes both functions warn that they did not
# converge, which is expected here and silenced) ({numref}`fig-winnow-vs-perceptron`).

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Mistakes on a stream of examples against the dimension $n$, for a target that depends on $k = 3$ coordinates: winnow's mistakes grow like $\\log n$, the perceptron's like $n$.", "name": "fig-winnow-vs-perceptron"}, "image": {"alt": "Mistake counts against log dimension: a nearly flat winnow curve and a rising perceptron curve, with their bounds."}} tags=["hide-input"]
dims = np.array([10, 30, 100, 300, 1000])
k_rel, n_stream = 3, 2000
mist_w, mist_p = [], []
with warnings.catch_warnings():
    warnings.simplefilter("ignore", ConvergenceWarning)
    for n_dim in dims:
        mw, mp = [], []
        for rep in range(3):
            r = np.random.default_rng(1000 * rep + int(n_dim))
            Xs = r.choice([-1.0, 1.0], size=(n_stream, n_dim))
            S = r.choice(n_dim, size=k_rel, replace=False)
            ys = np.sign(Xs[:, S].sum(axis=1))
            mw.append(online.winnow(Xs, ys, eta=1 / k_rel, n_epochs=1).n_mistakes)
            mp.append(online.perceptron(Xs, ys, n_epochs=1).n_mistakes)
        mist_w.append(np.mean(mw))
        mist_p.append(np.mean(mp))
fig, ax = plt.subplots()
ax.semilogx(dims, mist_p, "s-", label="perceptron: mistakes")
ax.semilogx(dims, mist_w, "o-", label="winnow: mistakes")
ax.semilogx(
    dims,
    2 * k_rel**2 * np.log(2 * dims),
    "o:",
    color="C1",
    alpha=0.6,
    label=r"winnow bound $2k^2\ln(2n)$",
)
ax.semilogx(
    dims,
    np.minimum(k_rel * dims, n_stream),
    "s:",
    color="C0",
    alpha=0.6,
    label=r"perceptron bound $kn$ (capped at the stream length)",
)
ax.set(
    xlabel="dimension $n$ (log scale)",
    ylabel=f"mistakes on a stream of {n_stream} examples",
)
ax.legend()
plt.show()
for n_dim, p_, w_ in zip(dims, mist_p, mist_w, strict=True):
    print(f"n = {n_dim:5d}   perceptron {p_:6.1f}   winnow {w_:5.1f}")
print(
    "below their bounds at every n: winnow",
    bool(np.all(np.array(mist_w) <= 2 * k_rel**2 * np.log(2 * dims))),
    "| perceptron",
    bool(np.all(np.array(mist_p) <= k_rel * dims)),
)

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-winnow-vs-perceptron
# Mistakes on a stream of examples against the dimension $n$, for a target that depends on $k = 3$ coordinates: winnow's mistakes grow like $\log n$, the perceptron's like $n$.
# :::

# %% [markdown]
# The mistake curves of one stream in dimension $n = 300$ show the same thing as it happens:
# cumulative mistakes against examples seen, with each algorithm's bound as a horizontal line.
# Both curves flatten (mistakes become rare as the weights lock on to the target), winnow's after
# a few dozen mistakes ({numref}`fig-mistake-curves`).

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Cumulative mistakes against examples seen in dimension 300: both curves flatten, winnow's after a few dozen mistakes; the horizontal line is the perceptron's bound.", "name": "fig-mistake-curves"}, "image": {"alt": "Two increasing curves that flatten, the winnow curve much lower, below a horizontal bound line."}} tags=["hide-input"]
r = np.random.default_rng(2300)
Xs = r.choice([-1.0, 1.0], size=(n_stream, 300))
ys = np.sign(Xs[:, r.choice(300, size=k_rel, replace=False)].sum(axis=1))
with warnings.catch_warnings():
    warnings.simplefilter("ignore", ConvergenceWarning)
    curves = {
        "perceptron": online.perceptron(Xs, ys, n_epochs=1),
        "winnow": online.winnow(Xs, ys, eta=1 / k_rel, n_epochs=1),
    }
fig, ax = plt.subplots()
for (name, f_), colour in zip(curves.items(), ("C0", "C1"), strict=True):
    ax.step(
        np.r_[0, f_.mistake_steps + 1, n_stream],
        np.r_[0, np.arange(1, f_.n_mistakes + 1), f_.n_mistakes],
        where="post",
        color=colour,
        label=f"{name}: {f_.n_mistakes} mistakes",
    )
ax.axhline(k_rel * 300, color="C0", ls=":", label=r"perceptron bound $kn = 900$")
ax.axhline(
    2 * k_rel**2 * np.log(600),
    color="C1",
    ls=":",
    label=rf"winnow bound $2k^2\ln(2n) = {2 * k_rel**2 * np.log(600):.0f}$",
)
ax.set(
    xlabel="examples seen", ylabel="cumulative mistakes", yscale="log", ylim=(1, 2000)
)
ax.legend()
plt.show()
print(
    "final mistakes below their bounds: perceptron",
    curves["perceptron"].n_mistakes <= k_rel * 300,
    "| winnow",
    bool(curves["winnow"].n_mistakes <= 2 * k_rel**2 * np.log(600)),
)

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-mistake-curves
# Cumulative mistakes against examples seen in dimension 300: both curves flatten, winnow's after a few dozen mistakes; the horizontal line is the perceptron's bound.
# :::

# %% [markdown]
# The perceptron's mistakes grow roughly in proportion to $n$ until they approach the length of
# the stream, while winnow's grow like $\ln n$ (a straight line on this log axis) and stay below
# its bound. Winnow pays for this with a weaker guarantee when the target is dense: its margin is
# measured in $\ell_1$ for the weights and $\ell_\infty$ for the points, which is small when many
# coordinates matter.
#
# (sec-online-game)=
# ### The repeated game, its regret and the two margins
#
# The potential argument above is a statement about any repeated game, not only about
# mistakes. Let the row player hold weights $v_k = e^{-\eta L_k}$, where $L_k$ is the total
# that row $k$ would have paid so far, and play $w_t = v / \sum_k v_k$. Whatever columns
# $j_1, \dots, j_T$ the opponent picks (at random, or adversarially after seeing $w_t$), the
# same two bounds on $\ln \Phi_T$ apply: Hoeffding's lemma per round above, Jensen's inequality
# with any probability vector $u$ below. Dividing by $\eta$,
#
# $$
# \sum_{t=1}^T M(w_t, j_t) \;\le\; \sum_{t=1}^T M(u, j_t) + \frac{\ln N}{\eta} + \frac{\eta T}{2} .
# $$ (eq-mw-regret)
#
# The left side is what the algorithm paid; the right side is what the best fixed mixed
# strategy, chosen in hindsight, paid, plus the **regret**. With $\eta = \sqrt{2\ln N / T}$
# the regret is $\sqrt{2T\ln N}$, so the average payment per round approaches that of the best
# fixed strategy. The check plays random payoff matrices against random and adversarial
# columns.

# %%
claims.verify("eq-mw-regret")

# %% [markdown]
# Winnow is this game with a particular opponent: the column is a mistaken point, so
# $M(w_t, j_t) = -w_t^\top a_{j_t} \ge 0$ in every round, while a separator $u$ of margin
# $\rho$ pays $M(u, j_t) \le -\rho$. Then {eq}`eq-mw-regret` reads
# $0 \le -\rho T + \ln N / \eta + \eta T / 2$, which is the mistake bound {eq}`eq-winnow-bound`.
#
# ```{admonition} Erratum (notes 001, inequality (B))
# :class: warning
# The notes bound the algorithm's payment by $\frac{\ln n}{\epsilon} + (1 + \epsilon)$ times
# the comparator's. The factor $1 + \epsilon$ belongs to payoffs in $[0, 1]$, where it adds a
# penalty. Here the comparator's payoff is negative, $M(u, j) \le -\rho$, and
# $(1 + \epsilon)$ makes it more negative: a bonus, and the inequality fails (the check's foil
# rejects it on the same games). The correct penalty does not depend on the sign:
# $\eta T / 2$ above, or $\epsilon \sum_t |M(u, j_t)| \le \epsilon T$ for the linear update.
# The notes' next expression, $\frac{\ln n}{\epsilon} + \epsilon T - r_w T$, is the correct
# form, so their conclusion stands.
# ```
#
# **The two margins.** The perceptron's guarantee uses the $\ell_2$ geometry, winnow's the
# $\ell_1/\ell_\infty$ one. For points $a_i \in \R^D$,
#
# $$
# \gamma_P = \max_{w \ne 0} \min_i \frac{w^\top a_i}{\|w\|_2 \|a_i\|_2}, \qquad
# \gamma_W = \max_{w \ne 0} \min_i \frac{w^\top a_i}{\|w\|_1 \|a_i\|_\infty} .
# $$ (def-online-two-margins)
#
# The norms of $\R^D$ are within $\sqrt D$ of each other:
# $\|w\|_2 \le \|w\|_1 \le \sqrt D \|w\|_2$ and $\|a\|_\infty \le \|a\|_2 \le \sqrt D
# \|a\|_\infty$. So for the same $w$ the two ratios differ by a factor between $1/\sqrt D$ and
# $\sqrt D$, and have the same sign. Taking $w$ optimal for one margin and evaluating the other,
#
# $$
# \frac{\gamma_P}{\sqrt D} \;\le\; \gamma_W \;\le\; \sqrt D\, \gamma_P ,
# $$ (eq-margins-relation)
#
# and $\gamma_P > 0$ exactly when $\gamma_W > 0$: the data are separable for both algorithms
# or for neither. Both ends are attained: for the $D$ basis vectors $a_i = e_i$,
# $\gamma_P = 1/\sqrt D$ and $\gamma_W = 1/D$. What differs is the size of the margin, hence
# the bound: winnow wins when a few coordinates carry the target (large $\gamma_W$), the
# perceptron when the separator is dense. The check computes $\gamma_P$ by least-distance
# programming and $\gamma_W$ by a linear programme.

# %%
claims.verify("eq-margins-relation")

# %% [markdown]
# **Choosing $\eta$.** The best $\eta = \rho$ needs the margin, which is unknown. The notes
# suggest a search; a halving search needs no knowledge of $\rho$. Start from $\eta = 1$ (a
# margin is at most 1). Run winnow with a budget of $2\ln N / \eta^2$ mistakes; if the run
# exceeds it, halve $\eta$ and start again. A run with $\eta \le \rho$ makes at most
# $\ln N / (\eta\rho - \eta^2/2) \le 2 \ln N/\eta^2$ mistakes, so the search stops at the latest
# once $\eta \le \rho$, at some $\eta_f > \rho/2$. The budgets grow geometrically (by 4), so
# their sum is at most $\frac43$ of the last one, $\frac83 \ln N / \eta_f^2$. With
# $\eta_f > \rho/2$ and one extra mistake per failed run,
#
# $$
# k_{\text{search}} \;\le\; \frac{32}{3} \frac{\ln N}{\rho^2} + \log_2 \frac{2}{\rho} ,
# \qquad \eta_f > \frac{\rho}{2} :
# $$ (eq-winnow-search)
#
# not knowing $\rho$ costs a constant factor ($32/3$ against $2$), not a factor of $\ln N$.

# %%
claims.verify("eq-winnow-search")

# %% [markdown]
# **Real data with irrelevant features.** The digits 3 and 8 of the UCI handwritten digits
# ({cite}`alpaydin1998digits`, 357 images of 8 by 8 pixels) are separated by a few dozen
# pixels. Threshold each pixel to $\pm 1$ and append $m$ columns of random signs, features that
# carry no information, as a bag of many words would. One online pass in a random order counts
# each algorithm's mistakes (averaged over two orders and draws of the noise; winnow with
# $\eta = 1/2$) ({numref}`fig-winnow-digits`).

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Online mistakes on the digits 3 and 8 with m irrelevant random features appended: the perceptron's mistakes grow with m, winnow's much more slowly.", "name": "fig-winnow-digits"}, "image": {"alt": "Mistakes against the number of irrelevant features on a log axis: a steeply rising perceptron curve and a flatter winnow curve."}} tags=["hide-input"]
digits = load_digits()
keep = np.isin(digits.y, [3, 8])
X38 = np.where(digits.X[keep] > 7, 1.0, -1.0)
y38 = np.where(digits.y[keep] == 3, 1.0, -1.0)
n_noise = np.array([0, 30, 300, 3000])
digit_mistakes = []
with warnings.catch_warnings():
    warnings.simplefilter("ignore", ConvergenceWarning)
    for m_ in n_noise:
        runs = []
        for rep in range(2):
            r = np.random.default_rng(rep)
            order = r.permutation(len(y38))
            noise = r.choice([-1.0, 1.0], size=(len(y38), m_))
            Z, yz = np.hstack([X38, noise])[order], y38[order]
            runs.append(
                (
                    online.perceptron(Z, yz, n_epochs=1).n_mistakes,
                    online.winnow(Z, yz, eta=0.5, n_epochs=1).n_mistakes,
                )
            )
        digit_mistakes.append(np.mean(runs, axis=0))
digit_mistakes = np.array(digit_mistakes)
fig, ax = plt.subplots()
ax.semilogx(n_noise + 64, digit_mistakes[:, 0], "s-", label="perceptron")
ax.semilogx(n_noise + 64, digit_mistakes[:, 1], "o-", label=r"winnow, $\eta = 1/2$")
ax.set(
    xlabel="features: 64 pixels + m irrelevant (log scale)",
    ylabel=f"mistakes in one pass over {len(y38)} images",
)
ax.legend()
plt.show()
for m_, (p_, w_) in zip(n_noise, digit_mistakes, strict=True):
    print(f"m = {m_:4d}   perceptron {p_:5.1f}   winnow {w_:5.1f}")

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-winnow-digits
# Online mistakes on the digits 3 and 8 with m irrelevant random features appended: the perceptron's mistakes grow with m, winnow's much more slowly.
# :::

# %% [markdown]
# From 64 to 3064 features the perceptron's mistakes roughly triple, winnow's grow by about
# half: the perceptron's radius $R^2$ grows with every feature, winnow's $\ln N$ barely moves.
# Without the noise the two are close; the dense pixels alone do not favour winnow.
#
#
# (sec-online-losses)=
# ## A zoo of surrogate losses
#
# The training error $\frac1n \sum_i [M_i \le 0]$ is piecewise constant in $w$: its gradient is
# zero almost everywhere, and minimising it is NP-hard in general. Surrogate losses replace the
# step $[M \le 0]$ by a function $\varphi(M)$ of the margin that can be optimised (notes 002,
# with $\ln$ in base 2 for the logistic loss):
#
# $$
# \begin{aligned}
# &\text{quadratic } (1 - M)^2, && \text{hinge } \max(0, 1 - M), \\
# &\text{sigmoid } \frac{2}{1 + e^M}, && \text{logistic } \log_2(1 + e^{-M}), \\
# &\text{exponential } e^{-M}, && \text{perceptron } \max(0, -M).
# \end{aligned}
# $$ (def-online-losses)
#
# All but the last **upper-bound** the zero-one loss, so driving the average surrogate down
# drives the training error down with it:
#
# $$
# [M \le 0] \le \varphi(M) \quad \text{for all } M, \qquad \frac1n \sum_i [M_i \le 0] \le \frac1n \sum_i \varphi(M_i) .
# $$ (eq-loss-upper-bound)
#
# See {numref}`fig-surrogate-losses`.

# %%
claims.verify("eq-loss-upper-bound")

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Surrogate losses of the margin $M = yf(x)$: each lies above the zero-one loss {eq}`eq-loss-upper-bound`.", "name": "fig-surrogate-losses"}, "image": {"alt": "Several convex loss curves, all above a black step function at zero margin."}} tags=["hide-input"]
M = np.linspace(-2.5, 2.5, 1001)
fig, ax = plt.subplots()
ax.plot(M, losses.zero_one(M), color="k", lw=2.5, label="zero-one")
for name in ("quadratic", "hinge", "sigmoid", "logistic", "exponential", "perceptron"):
    ax.plot(
        M, losses.get(name)[0](M), label=name, ls=":" if name == "perceptron" else "-"
    )
ax.set(xlabel="margin $M = y f(x)$", ylabel=r"loss $\varphi(M)$", ylim=(-0.1, 4))
ax.legend(ncol=2)
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-surrogate-losses
# Surrogate losses of the margin $M = yf(x)$: each lies above the zero-one loss {eq}`eq-loss-upper-bound`.
# :::

# %% [markdown]
# Three remarks on the figure. The perceptron loss is 0 at $M = 0$ and below 1 on $(-1, 0)$, so it
# does not bound the zero-one loss: a perceptron can have loss 0 with every point on the
# boundary. The logistic loss in nats, $\ln(1 + e^{-M})$ (used by logistic regression and by
# `sgd(loss="log")`), equals $\ln 2 < 1$ at 0; only the version in bits is an upper bound. The
# quadratic loss also penalises margins larger than 1, which is why least squares on $\pm 1$
# labels is a poor classifier when some points are far on the correct side. The sigmoid loss is
# bounded and not convex: robust to outliers, but SGD can stall on its flat tails.
#
# **Calibration.** Minimising a surrogate on average is only useful if, with infinite data, it
# leads to the Bayes classifier. At a point $x$ with $\eta = P(y = 1 \mid x)$, the expected loss
# of the score $\alpha = f(x)$ is $C_\eta(\alpha) = \eta\varphi(\alpha) + (1 - \eta)\varphi(-\alpha)$.
# A loss is **classification calibrated** when every minimiser $\alpha^*(\eta)$ has the sign of
# $2\eta - 1$ whenever $\eta \ne 1/2$. Bartlett, Jordan and McAuliffe {cite}`bartlett2006convexity`
# proved that a convex $\varphi$ is calibrated iff it is differentiable at 0 with $\varphi'(0) < 0$
# (notes 003, Theorem 1.6.3). The minimisers can be computed by hand:
#
# $$
# \alpha^*(\eta) = \begin{cases}
# 2\eta - 1 & \text{quadratic}, \\
# \sign(2\eta - 1) & \text{hinge}, \\
# \ln \frac{\eta}{1 - \eta} & \text{logistic (nats)}, \\
# \tfrac12 \ln \frac{\eta}{1 - \eta} & \text{exponential}, \\
# 0 & \text{perceptron (for every } \eta).
# \end{cases}
# $$ (eq-calibration-minimisers)

# %%
claims.verify("eq-calibration-minimisers")

# %% [markdown]
# The check compares each closed form with a numerical minimisation of $C_\eta$ and checks its
# sign. Logistic and exponential losses recover a monotone transform of $\eta$ (so their scores
# can be turned into probabilities), the hinge loss only its sign, and the perceptron loss
# nothing: $C_\eta(\alpha) = \eta\max(0, -\alpha) + (1 - \eta)\max(0, \alpha)$ is minimised at
# $\alpha = 0$ whatever $\eta$. Notes 003 conclude from this that the perceptron "cannot
# generalize"; that goes too far (see the errata page): non-calibration is about minimising the
# expected perceptron loss, while the perceptron algorithm on separable data is controlled by its
# mistake bound.
#
# **Why the derivative at 0 decides ({cite}`bartlett2006convexity`, a sketch).** Suppose
# $\varphi$ is convex and differentiable at 0. The conditional risk $C_\eta$ is then convex and
# differentiable at 0, and by the chain rule
#
# $$
# C_\eta'(0) = \eta\, \varphi'(0) - (1 - \eta)\, \varphi'(0) = (2\eta - 1)\, \varphi'(0) .
# $$ (eq-calibration-derivative)
#
# *If $\varphi'(0) < 0$, the loss is calibrated.* Take $\eta > 1/2$, so $C_\eta'(0) < 0$. A
# convex function lies above its tangent: $C_\eta(\alpha) \ge C_\eta(0) + C_\eta'(0)\,\alpha$,
# and for $\alpha \le 0$ the last term is $\ge 0$, so no $\alpha \le 0$ does better than 0.
# And 0 itself is not a minimiser, since the slope there is negative. So every minimiser is
# positive, the sign of $2\eta - 1$; the case $\eta < 1/2$ is the mirror image.
#
# *If $\varphi'(0) \ge 0$, or $\varphi$ has a kink at 0, it is not.* With $\varphi'(0) = 0$
# the slope at 0 vanishes for every $\eta$, and a convex function is minimal where its slope
# vanishes: $\alpha = 0$ is a minimiser, with no sign. With $\varphi'(0) > 0$ the argument
# above runs backwards and the minimisers have the wrong sign. At a kink, with one-sided
# slopes $\varphi'_- < \varphi'_+$, the right slope of $C_\eta$ at 0 is
# $\eta\varphi'_+ - (1 - \eta)\varphi'_-$, which is positive for $\eta$ near $1/2$, and the
# left slope is negative there: 0 minimises $C_\eta$ for a whole interval of $\eta$ around
# $1/2$. The perceptron loss is the example ($\varphi'_- = -1$, $\varphi'_+ = 0$: 0 for
# every $\eta$). The check compares {eq}`eq-calibration-derivative` with a central difference
# and the tangent inequality with the risk itself, for the four convex losses of the chapter
# ({numref}`fig-conditional-risks`).

# %%
claims.verify("eq-calibration-derivative")

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Conditional risks at P(y = 1 | x) = 0.7, each shifted to 0 at its minimum (dots): the four calibrated losses have their minimum at a positive score, the perceptron loss at 0.", "name": "fig-conditional-risks"}, "image": {"alt": "Five convex curves of the score, four with their minimum to the right of zero and a V-shaped perceptron curve with its minimum at zero."}} tags=["hide-input"]
p_c = 0.7
alpha_c = np.linspace(-2, 2, 801)
minimiser_c = {  # argmin of C_eta, eta = 0.7, from the calibration derivative
    "quadratic": 2 * p_c - 1,
    "hinge": 1.0,
    "log": np.log(p_c / (1 - p_c)),
    "exponential": 0.5 * np.log(p_c / (1 - p_c)),
    "perceptron": 0.0,
}
on_formula = []
fig, ax = plt.subplots()
for name_c in ("quadratic", "hinge", "log", "exponential", "perceptron"):
    phi_c = losses.get(name_c)[0]
    risk_c = p_c * phi_c(alpha_c) + (1 - p_c) * phi_c(-alpha_c)
    k_c = int(np.argmin(risk_c))
    step_c = alpha_c[1] - alpha_c[0]
    on_formula.append(abs(alpha_c[k_c] - minimiser_c[name_c]) <= step_c)
    (line_c,) = ax.plot(alpha_c, risk_c - risk_c[k_c], label=name_c)
    ax.plot([alpha_c[k_c]], [0.0], "o", color=line_c.get_color())
ax.axvline(0, color="gray", lw=0.6)
ax.set(
    xlabel=r"score $\alpha$",
    ylabel=r"$C_\eta(\alpha) - \min C_\eta$, $\eta = 0.7$",
    ylim=(-0.05, 1.2),
)
ax.legend()
plt.show()
print(
    "each dot within one grid step of its minimiser\n"
    f"2p - 1, 1, log(p/(1-p)), log(p/(1-p))/2, 0: {all(on_formula)}"
)

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-conditional-risks
# Conditional risks at P(y = 1 | x) = 0.7, each shifted to 0 at its minimum (dots): the four calibrated losses have their minimum at a positive score, the perceptron loss at 0.
# :::

# %% [markdown]
# (sec-online-sgd)=
# ## Gradient descent and SGD for any loss of the margin
#
# With $L_2$ regularisation the training objective is
#
# $$
# J(w, b) = \frac1n \sum_{i=1}^n \varphi\big(y_i (w^\top x_i + b)\big) + \frac{\lambda}{2} \|w\|^2 .
# $$ (def-online-objective)
#
# By the chain rule, the gradient of one term is the derivative of the loss at the margin times
# $y_i x_i$:
#
# $$
# \nabla_w \varphi(y_i w^\top x_i) = \varphi'(M_i)\, y_i x_i .
# $$ (eq-sgd-gradient)

# %%
claims.verify("eq-sgd-gradient")

# %% [markdown]
# Gradient descent uses all $n$ terms per step; SGD uses one point, or a mini-batch $B$ of
# them, drawn at random: an unbiased but noisy estimate of the gradient at a cost of $O(|B| d)$
# instead of $O(nd)$. `online.sgd` goes through the data in epochs, each in a new random order,
# and applies
#
# $$
# w \leftarrow w - \eta_t \Big( \lambda w + \frac{1}{|B|} \sum_{i \in B} \varphi'(M_i)\, y_i x_i \Big) .
# $$ (def-sgd-minibatch)
#
# Three classical rules are this update with particular losses ($\lambda = 0$, $|B| = 1$):
#
# $$
# \varphi(M) = (1 - M)^2: \quad w \leftarrow w + 2\eta\, (y_i - w^\top x_i)\, x_i ,
# $$ (eq-delta-rule)
#
# the delta rule (Widrow-Hoff, least mean squares), because $-\varphi'(M) y_i = 2(1 - M) y_i =
# 2(y_i - f(x_i))$ when $y_i^2 = 1$;
#
# $$
# \varphi(M) = \max(0, -M), \ \eta = 1: \quad w \leftarrow w + [M_i \le 0]\, y_i x_i ,
# $$ (eq-perceptron-rule)
#
# the perceptron, taking the subgradient $-1$ at the kink $M = 0$ (any value in $[-1, 0]$ is
# one; 0 would leave $w = 0$ where it starts); and
#
# $$
# \varphi(M) = \ln(1 + e^{-M}): \quad w \leftarrow w + \eta\, g(-M_i)\, y_i x_i ,
# $$ (eq-logistic-sgd)
#
# logistic regression by SGD, with $g$ the sigmoid: a **smoothed perceptron** in which the
# indicator $[M_i \le 0]$ becomes the probability $g(-M_i)$ of the wrong label, so badly
# misclassified points move $w$ most and well-classified ones still a little.

# %%
claims.verify("eq-delta-rule")

# %%
claims.verify("eq-perceptron-rule")

# %%
claims.verify("eq-logistic-sgd")

# %% [markdown]
# ```{admonition} Errata (notes 002)
# :class: warning
# The delta rule of the notes, $w \leftarrow w - \eta(\langle w, x_i\rangle - y_i) x_i$, drops
# the factor 2 of the derivative of $(u - 1)^2$ (harmless, since it can be absorbed in $\eta$,
# but then it is SGD on $\frac12(1 - M)^2$). More seriously, their perceptron rule updates only
# when $M_i < 0$; from the usual start $w = 0$ every margin is 0 and that rule never moves:
# ```

# %%
Xb = np.hstack([X2, np.ones((len(y2), 1))])
w_strict = np.zeros(3)
for a, yi in zip(Xb, y2, strict=True):
    if yi * (a @ w_strict) < 0:  # the strict inequality of notes 002
        w_strict = w_strict + yi * a
print("strict rule after one pass:", w_strict, " perceptron:", np.append(fit.w, fit.b))

# %% [markdown]
# **Step sizes.** For SGD to converge to a minimiser of a convex objective the steps must
# shrink, but not too fast {cite}`robbins1951stochastic`:
#
# $$
# \sum_{t=1}^\infty \eta_t = \infty, \qquad \sum_{t=1}^\infty \eta_t^2 < \infty ,
# $$ (def-robbins-monro)
#
# the first so that the iterates can travel any distance, the second so that the accumulated
# gradient noise has finite variance. $\eta_t = \eta\, t^{-p}$ (the `power_t` argument) meets both
# iff $1/2 < p \le 1$. With a constant step SGD does not converge; it hovers in a region around
# the minimiser whose size grows with $\eta$.
#
# How large may the step be? Near a minimum the objective is close to a quadratic
# $\frac12 w^\top A w$, on which gradient descent is linear, $w_{t+1} = (I - \eta A) w_t$. In the
# eigenbasis of $A$ each coordinate is multiplied by $1 - \eta\lambda_j$ per step, so
#
# $$
# w_t = (I - \eta A)^t w_0 \to 0 \text{ for every } w_0 \iff 0 < \eta < \frac{2}{\lambda_{\max}(A)} .
# $$ (eq-gd-stability)

# %%
claims.verify("eq-gd-stability")

# %% [markdown]
# Below $1/\lambda_{\max}$ the iterates approach the minimum monotonically along every
# eigen-direction; between $1/\lambda_{\max}$ and $2/\lambda_{\max}$ they overshoot and oscillate
# across the valley while still converging; above $2/\lambda_{\max}$ they diverge. The ratio
# $\lambda_{\max} / \lambda_{\min}$ sets how slow the flat direction is at a stable step: long
# narrow valleys are slow. The left panel is gradient descent on a quadratic; the right one is
# mini-batch SGD on the quadratic loss of 200 points (`loss="quadratic"`, starting from 0), whose
# Hessian $\frac2n \sum_i x_i x_i^\top$ plays the role of $A$: the same three regimes, blurred by
# the noise of the mini-batch gradients ({numref}`fig-step-size-regimes`).

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Left: gradient descent on $\\tfrac12(w_1^2 + 8 w_2^2)$ converges with $\\eta = 0.1$, oscillates with $\\eta = 0.23$ and diverges with $\\eta = 0.255$, beyond $2/\\lambda_{\\max} = 0.25$. Right: mini-batch SGD on a least-squares loss shows the same three regimes, blurred by the noise of the gradients.", "name": "fig-step-size-regimes"}, "image": {"alt": "Two contour plots with iterate paths for three step sizes: one spiralling in, one zig-zagging, one flying out."}} tags=["hide-input"]
A_q = np.array([[1.0, 0.0], [0.0, 8.0]])
w_start = np.array([-2.0, 1.0])
G1, G2 = np.meshgrid(np.linspace(-2.5, 2.5, 200), np.linspace(-2.5, 2.5, 200))
fig, (ax, ax2) = plt.subplots(1, 2, figsize=(10, 4.2))
ax.contour(
    G1,
    G2,
    0.5 * (G1**2 + 8 * G2**2),
    levels=np.geomspace(0.05, 30, 12),
    colors="gray",
    linewidths=0.6,
)
regime_q = {}
for eta_q, style, label in [
    (0.1, "o-", "converging"),
    (0.23, "s-", "oscillating"),
    (0.255, "^-", "diverging"),
]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        path = optim.gradient_descent(
            lambda w: A_q @ w, w_start, eta=eta_q, max_iter=12
        ).path
    w2_q = path[:, 1]  # the steep coordinate, multiplied by 1 - 8 eta at each step
    regime_q[label] = (
        bool(np.abs(w2_q[-1]) < np.abs(w2_q[0])),
        bool(np.all(w2_q[1:] * w2_q[:-1] < 0)),
    )
    ax.plot(
        path[:, 0], path[:, 1], style, ms=3, lw=1, label=rf"$\eta = {eta_q}$ ({label})"
    )
ax.set(
    xlabel="$w_1$",
    ylabel="$w_2$",
    xlim=(-2.5, 2.5),
    ylim=(-2.5, 2.5),
    aspect="equal",
    title=r"GD on $\frac{1}{2}(w_1^2 + 8 w_2^2)$: $2/\lambda_{\max} = 0.25$",
)
ax.legend(loc="lower right", fontsize=8)

# SGD (batches of 20) on the quadratic loss of 200 points whose Hessian has eigenvalues
# ~0.9 and ~7.7
r = np.random.default_rng(5)
X_q = r.standard_normal((200, 2)) * np.sqrt([0.5, 4.0])
y_q = np.sign(X_q @ np.array([1.0, 0.3]) + 0.3 * r.standard_normal(200))
H_q = 2 * X_q.T @ X_q / 200
m_q = (
    X_q.T @ y_q / 200
)  # J(w) = mean (1 - y_i w.x_i)^2 = 1 - 2 m^T w + w^T (H/2) w, as y_i^2 = 1
J_q = (
    1
    - 2 * (m_q[0] * G1 + m_q[1] * G2)
    + 0.5 * (H_q[0, 0] * G1**2 + 2 * H_q[0, 1] * G1 * G2 + H_q[1, 1] * G2**2)
)
ax2.contour(
    G1, G2, J_q, levels=np.geomspace(0.45, 30, 12), colors="gray", linewidths=0.6
)
for eta_q, style, label in [
    (0.05, "o-", "converging"),
    (0.2, "s-", "oscillating"),
    (0.3, "^-", "diverging"),
]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sg = online.sgd(
            X_q,
            y_q,
            loss="quadratic",
            eta=eta_q,
            batch_size=20,
            n_epochs=3,
            fit_intercept=False,
            record_path=True,
            rng=0,
        )
    ax2.plot(
        sg.path[:, 0],
        sg.path[:, 1],
        style,
        ms=3,
        lw=1,
        label=rf"$\eta = {eta_q}$ ({label})",
    )
lam_max_q = np.linalg.eigvalsh(H_q).max()
ax2.set(
    xlabel="$w_1$",
    ylabel="$w_2$",
    xlim=(-1, 2),
    ylim=(-1.5, 1.5),
    aspect="equal",
    title=rf"SGD, batches of 20: $2/\lambda_{{\max}} = {2 / lam_max_q:.2f}$",
)
ax2.legend(loc="lower right", fontsize=8, frameon=True)
plt.show()
print("|w_2| after 12 steps (left panel) below its start, sign changed at each step:")
for k, (a, b) in regime_q.items():
    print(f"  {k:12s} {a}, {b}")

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-step-size-regimes
# Left: gradient descent on $\tfrac12(w_1^2 + 8 w_2^2)$ converges with $\eta = 0.1$, oscillates with $\eta = 0.23$ and diverges with $\eta = 0.255$, beyond $2/\lambda_{\max} = 0.25$. Right: mini-batch SGD on a least-squares loss shows the same three regimes, blurred by the noise of the gradients.
# :::

# %% [markdown]
# **SGD on real data.** The breast-cancer data (569 tumours, 30 features, labels benign $+1$ /
# malignant $-1$) are split into a training and a test half. The next figure shows the objective
# of logistic SGD ($\lambda = 10^{-3}$, batches of 8) after each epoch for three constant step
# sizes on standardised features, and for one step size on the raw features, whose scales range
# over four orders of magnitude. The notes' running estimate
# $\hat J \leftarrow (1 - \alpha)\hat J + \alpha\,\varepsilon_t$, with $\varepsilon_t$ the loss
# of the current mini-batch (plus the penalty), tracks the objective per update without another
# pass over the data (`fit.running`, printed below next to the exact $J$) ({numref}`fig-sgd-objective`).

# %%
bc = load_breast_cancer()
y_bc = to_pm1(bc.y)
perm = np.random.default_rng(0).permutation(len(y_bc))
tr, te = perm[: len(perm) // 2], perm[len(perm) // 2 :]
mu, sd = bc.X[tr].mean(axis=0), bc.X[tr].std(axis=0)
Xtr, Xte = (bc.X[tr] - mu) / sd, (bc.X[te] - mu) / sd
print(
    f"feature scales (std) from {bc.X.std(axis=0).min():.3g} to "
    f"{bc.X.std(axis=0).max():.3g}"
)

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "The objective $J(w, b)$ of SGD with the log loss on the breast cancer data after each epoch: three step sizes on standardised features, and two on the raw features, which stay far above.", "name": "fig-sgd-objective"}, "image": {"alt": "Semilog curves of the objective against epochs: three low decreasing curves and two dashed or dotted curves well above them."}} tags=["hide-input"]
fig, ax = plt.subplots()
runs = {}
for eta_s in (0.01, 0.1, 1.0):
    runs[eta_s] = online.sgd(
        Xtr, y_bc[tr], loss="log", eta=eta_s, lam=1e-3, batch_size=8, n_epochs=40, rng=1
    )
    ax.semilogy(runs[eta_s].objective, label=rf"standardised, $\eta = {eta_s}$")
raws = {}
for eta_s, style in ((1e-4, "k--"), (1e-6, "k:")):
    raws[eta_s] = online.sgd(
        bc.X[tr],
        y_bc[tr],
        loss="log",
        eta=eta_s,
        lam=1e-3,
        batch_size=8,
        n_epochs=40,
        rng=1,
    )
    ax.semilogy(
        raws[eta_s].objective, style, label=rf"raw features, $\eta = {eta_s:g}$"
    )
ax.set(xlabel="epoch", ylabel=r"objective $J(w, b)$")
ax.legend()
plt.show()
for eta_s, r in runs.items():
    print(
        f"eta = {eta_s:5}: J = {r.objective[-1]:.4f} (running estimate "
        f"{r.running[-1]:.4f}), "
        f"test accuracy {np.mean(r.predict(Xte) == y_bc[te]):.3f}"
    )
# The raw-feature runs are chaotic (see below): only bounds on them are facts.
worst_std = max(r.objective[-1] for r in runs.values())
for eta_s, r in raws.items():
    J, acc = r.objective[-1], np.mean(r.predict(bc.X[te]) == y_bc[te])
    assert J > 4 * worst_std and acc < 0.94
    print(
        f"raw features, eta = {eta_s:g}: J > 4 x the worst standardised run, test "
        f"accuracy < 0.94"
    )

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-sgd-objective
# The objective $J(w, b)$ of SGD with the log loss on the breast cancer data after each epoch: three step sizes on standardised features, and two on the raw features, which stay far above.
# :::

# %% [markdown]
# On standardised features every step size reaches a test accuracy between 95% and 98%; the
# larger steps lower the objective fastest at first, and the largest then stalls at a noisy level
# (a constant step does not converge). On raw features the scales of the features range from
# $10^{-3}$ to $10^3$: a step of $10^{-4}$ is already unstable along the large features (area,
# in the thousands), and a step small enough for them barely moves the small ones in forty epochs.
# The unstable run is also chaotic: its iterates bounce between steep walls, so a difference in
# the last bit of one product (another CPU, BLAS or thread count) grows until the final objective
# differs in the second digit. That is why the cell prints bounds for the raw runs, not digits.
# Standardising is the cheapest preconditioner there is.
#
# **Weight decay.** The gradient of $\frac\lambda2\|w\|^2$ is $\lambda w$, so a gradient step on
# the regularised objective first shrinks the weights by a constant factor and then takes the
# step of the unregularised loss:
#
# $$
# w \leftarrow (1 - \eta\lambda)\, w - \eta \nabla_w \frac1n \sum_i \varphi(M_i) .
# $$ (eq-weight-decay)

# %%
claims.verify("eq-weight-decay")

# %% [markdown]
# The regulariser keeps the weights from growing without bound when the data are separable
# (with the logistic loss the unregularised minimum is at infinity), and it keeps SGD away from
# the flat tails of losses like the sigmoid. **Early stopping** is the other classical brake:
# keep the iterate with the best error on a validation set, since SGD moves from small to large
# weights and stopping early acts like a stronger penalty. Without a penalty ($\lambda = 0$) the
# held-out accuracy of logistic SGD peaks after a few epochs and then drifts down as the weights
# grow (strictly, the epoch must be chosen on a validation set separate from the test set):

# %%
val_acc = []
for ep in range(1, 9):
    r = online.sgd(
        Xtr, y_bc[tr], loss="log", eta=0.1, lam=0.0, batch_size=8, n_epochs=ep, rng=1
    )
    val_acc.append(np.mean(r.predict(Xte) == y_bc[te]))
print("held-out accuracy after 1..8 epochs:", np.round(val_acc, 3))

# %% [markdown]
# **The data-dependent step.** Instead of a schedule, the step can be chosen at each iteration
# by minimising the objective along the descent direction, $\eta_t = \argmin_{\eta \ge 0}
# Q(w - \eta \nabla Q)$ (notes 002). For a loss of the margin this one-dimensional problem
# has structure. Along a direction $d$ the margins move linearly: with $M_i = y_i w^\top x_i$
# and $s_i = y_i d^\top x_i$, the objective along the line is
# $g(t) = \frac1n \sum_i \varphi(M_i + t s_i) + \frac\lambda2 \|w + td\|^2$.
# For the hinge each term is linear except at $t_i = (1 - M_i)/s_i$, where it switches on or
# off, and at each such breakpoint the slope of $g$ rises by $|s_i|/n$. Sorting them gives the
# slope on every piece, and the minimiser is the first $t \ge 0$ where
#
# $$
# g'(t^+) = -\frac1n \sum_{i:\, M_i + t s_i < 1} s_i + \lambda\, d^\top (w + t d) \;\ge\; 0 ,
# $$ (eq-line-search-hinge)
#
# a breakpoint when $\lambda = 0$ (then $g$ is piecewise linear), a root inside a piece
# otherwise: an exact search in $O(n \log n)$. The check compares
# `optim.margin_line_search` with scipy's bounded Brent search on random problems.

# %%
claims.verify("eq-line-search-hinge")

# %% [markdown]
# For the log loss $g$ is smooth, and with $\sigma$ the sigmoid and $m_i = M_i + t s_i$,
#
# $$
# g''(t) = \frac1n \sum_i s_i^2\, \sigma(m_i)\, \sigma(-m_i) + \lambda \|d\|^2 \;\ge\; 0 :
# $$ (eq-line-search-log)
#
# $g'$ is increasing, so a bracket found by doubling and Newton steps kept inside it (bisection
# when a step would leave it) find its root to machine precision in a few iterations. One
# Newton step from $t = 0$ alone would minimise the quadratic model, not the function: that is
# the check's foil. Without a penalty, on data the direction separates, $g$ falls for ever and
# the search says so (`inf`).

# %%
claims.verify("eq-line-search-log")

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "The objective along the negative gradient at w = 0 on the standardised breast-cancer data (lambda = 0.001): piecewise linear for the hinge, with its exact minimiser at a breakpoint or between two, and smooth for the log loss; the dots are the steps of the exact line search.", "name": "fig-line-search"}, "image": {"alt": "Two convex curves against the step t, a kinked one for the hinge and a smooth one for the log loss, each with a dot at its minimum."}} tags=["hide-input"]
w_ls = np.zeros(Xtr.shape[1])
fig, ax = plt.subplots()
for name_ls, colour in (("hinge", "C0"), ("log", "C1")):
    phi_ls, dphi_ls = losses.get(name_ls)
    y_ls = y_bc[tr]
    d_ls = -(Xtr.T @ (dphi_ls(y_ls * (Xtr @ w_ls)) * y_ls) / len(y_ls) + 1e-3 * w_ls)
    t_ls = optim.margin_line_search(Xtr, y_ls, w_ls, d_ls, loss=name_ls, lam=1e-3)
    grid_ls = np.linspace(0, 3 * t_ls, 300)
    g_ls = [
        np.mean(phi_ls(y_ls * (Xtr @ (w_ls + t * d_ls))))
        + 5e-4 * np.sum((w_ls + t * d_ls) ** 2)
        for t in grid_ls
    ]
    ax.plot(grid_ls, g_ls, color=colour, label=rf"{name_ls} loss along $-\nabla Q$")
    g_star = np.mean(phi_ls(y_ls * (Xtr @ (w_ls + t_ls * d_ls))))
    g_star += 5e-4 * np.sum((w_ls + t_ls * d_ls) ** 2)
    ax.plot([t_ls], [g_star], "o", color=colour)
    dot_lowest = bool(g_star <= min(g_ls) + 1e-12 * abs(g_star))
    print(
        f"{name_ls:5s}: exact step {t_ls:.3f}, objective {g_ls[0]:.3f} -> {g_star:.3f},"
        f" no point of the curve lower: {dot_lowest}"
    )
ax.set(xlabel="step $t$", ylabel="$g(t)$")
ax.legend()
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-line-search
# The objective along the negative gradient at w = 0 on the standardised breast-cancer data (lambda = 0.001): piecewise linear for the hinge, with its exact minimiser at a breakpoint or between two, and smooth for the log loss; the dots are the steps of the exact line search.
# :::

# %% [markdown]
# Each search costs a few passes over the data, as much as a few gradients: worth it for
# full-batch gradient descent, where it replaces the tuning of $\eta$, not per example in SGD,
# where the line search would fit the noise of one example ({numref}`fig-line-search`).

# %% [markdown]
# (sec-online-practice)=
# ### SGD in practice: the notes' recipes, measured
#
# Notes 002 list practical advice for SGD. Each item below is measured on the standardised
# breast-cancer training half, with plain SGD on the regularised log loss ($\lambda = 10^{-3}$,
# $\eta = 0.05$, one example per update), written out so that each recipe is one line:
#
# - **initialisation**: $w = 0$, uniform in $[-\frac{1}{2D}, \frac{1}{2D}]$ (small random
#   weights, which matter for non-convex models and do little for a convex one), or each
#   weight set to the slope of a one-feature least-squares fit, $\langle x^d, y\rangle /
#   \langle x^d, x^d\rangle$ with $x^d$ the column of feature $d$;
# - **sampling in proportion to the error**: draw example $i$ with probability proportional to
#   its current loss, so that badly classified examples are visited more;
# - **updating only on large enough mistakes**: skip the update when the margin exceeds a
#   threshold $\theta$ (the perceptron is $\theta = 0$; $\theta = 1$ is the hinge's rule);
# - **restarts**: for a non-convex loss (the sigmoid loss), run from several random starts and
#   keep the best; for a convex loss every start leads to the same minimum.

# %%
X_p, y_p = Xtr, y_bc[tr]
n_p, D_p = X_p.shape
lam_p, eta_p = 1e-3, 0.05


def J_p(w, loss="log"):
    return np.mean(losses.get(loss)[0](y_p * (X_p @ w))) + lam_p / 2 * w @ w


def sgd_p(w0, r, *, n_updates, loss="log", weights=None, threshold=None):
    """Plain SGD from w0: examples uniform, or with probabilities weights(w)."""
    w, dphi, skipped = w0.copy(), losses.get(loss)[1], 0
    for _ in range(n_updates):
        if weights is None:
            i = r.integers(n_p)
        else:
            p = weights(w)
            i = r.choice(n_p, p=p / p.sum())
        M = y_p[i] * (X_p[i] @ w)
        if threshold is not None and M > threshold:
            skipped += 1  # a large enough margin: no update
            continue
        w = w - eta_p * (dphi(M) * y_p[i] * X_p[i] + lam_p * w)
    return w, skipped


inits = {
    "w = 0": np.zeros(D_p),
    "uniform in [-1/2D, 1/2D]": np.random.default_rng(1).uniform(-0.5, 0.5, D_p) / D_p,
    "<x^d, y> / <x^d, x^d>": (X_p.T @ y_p) / np.sum(X_p**2, axis=0),
}
print("initialisation (J at the start, mean J after 50 updates over 5 runs)")
for name, w0 in inits.items():
    Js = [J_p(sgd_p(w0, np.random.default_rng(s), n_updates=50)[0]) for s in range(5)]
    print(f"  {name:26s} {J_p(w0):.2f} -> {np.mean(Js):.2f}")

print("sampling (mean J after 100 updates over 5 runs)")
by_loss = lambda w: losses.log_loss(y_p * (X_p @ w))
for name, wf in (("uniform", None), ("in proportion to the loss", by_loss)):
    Js = [
        J_p(sgd_p(np.zeros(D_p), np.random.default_rng(s), n_updates=100,
                  weights=wf)[0])
        for s in range(5)
    ]
    print(f"  {name:26s} {np.mean(Js):.2f}")

print(f"updating only if the margin is <= theta ({2 * n_p} draws, 5 runs)")
for th in (None, 2.0, 1.0, 0.0):
    res = [
        sgd_p(np.zeros(D_p), np.random.default_rng(s), n_updates=2 * n_p, threshold=th)
        for s in range(5)
    ]
    J_mean = np.mean([J_p(w) for w, _ in res])
    skip = np.mean([k for _, k in res]) / (2 * n_p)
    acc = np.mean([np.mean(np.where(Xte @ w >= 0, 1, -1) == y_bc[te]) for w, _ in res])
    label = "always" if th is None else f"theta = {th:g}"
    print(
        f"  {label:14s} J {J_mean:.2f}, updates skipped {skip:4.0%}, "
        f"test acc. {acc:.2f}"
    )

Js_restart = []
for s in range(8):
    r = np.random.default_rng(100 + s)
    w_r, _ = sgd_p(r.normal(scale=2.0, size=D_p), r, n_updates=2 * n_p, loss="sigmoid")
    Js_restart.append(J_p(w_r, "sigmoid"))
print(
    f"restarts, sigmoid loss: J after {2 * n_p} updates from 8 random starts: "
    f"from {min(Js_restart):.2f} to {max(Js_restart):.2f}"
)

# %% [markdown]
# What the numbers say. The one-feature initialisation starts at a third of the loss of
# $w = 0$ and is still ahead after 50 updates: a cheap warm start when the features are
# standardised. Small random weights change nothing for a convex loss. Sampling in proportion to
# the loss did not help here and costs a pass over the data per draw (it also makes the
# gradient estimate biased unless each step is divided by $n p_i$). Skipping examples whose
# margin is above $\theta = 2$ saves about two thirds of the updates for a small rise in $J$ and
# no loss of test accuracy; $\theta = 0$, the perceptron's rule, stops too early and the
# objective is several times larger. With the non-convex sigmoid loss, the final objective
# depends on the start by a factor of several, so restarts (and keeping the best) pay off.

# %% [markdown]
# (sec-online-sgd-guarantee)=
# ### A guarantee for SGD: regret and online-to-batch
#
# The step-size rules above say when SGD converges; a bound says how fast. Take any sequence
# of convex functions $f_1, f_2, \dots$ (the loss of the example drawn at step $t$, say) and
# the steps $w_{t+1} = w_t - \eta g_t$ with $g_t = \nabla f_t(w_t)$ (a subgradient at a kink).
# For any fixed $u$, expand the distance to it:
# $\|w_{t+1} - u\|^2 = \|w_t - u\|^2 - 2\eta\, g_t^\top (w_t - u) + \eta^2 \|g_t\|^2$.
# Convexity gives $f_t(w_t) - f_t(u) \le g_t^\top (w_t - u)$, and the distances telescope:
#
# $$
# \sum_{t=1}^T \big(f_t(w_t) - f_t(u)\big) \;\le\; \frac{\|w_1 - u\|^2}{2\eta}
# + \frac{\eta}{2} \sum_{t=1}^T \|g_t\|^2 .
# $$ (eq-ogd-regret)
#
# This is the regret of **online gradient descent** {cite}`zinkevich2003online`: no
# assumption on how the $f_t$ are chosen. With $\|w_1 - u\| \le B$ and $\|g_t\| \le G$ the
# right side is $B^2/(2\eta) + \eta T G^2/2$, smallest at $\eta = B/(G\sqrt T)$, where it
# equals $BG\sqrt T$: the regret per step falls like $1/\sqrt T$. The check runs streams of
# log losses against the best fixed $w$ in hindsight.

# %%
claims.verify("eq-ogd-regret")

# %% [markdown]
# **Online-to-batch conversion.** Now let the examples be drawn independently from a
# distribution, $f_t(w) = \varphi(y_t w^\top x_t)$, and let $F(w) = \E \varphi(y w^\top x)$ be
# the risk. Two facts turn the regret into a bound on $F$. The iterate $w_t$ depends only on
# the examples before $t$, so $\E f_t(w_t) = \E F(w_t)$. And $F$ is convex, so by Jensen's
# inequality the **average iterate** $\bar w_T = \frac1T \sum_t w_t$ has
# $F(\bar w_T) \le \frac1T \sum_t F(w_t)$. Taking expectations in {eq}`eq-ogd-regret` and
# dividing by $T$ {cite}`shalev2014understanding`,
#
# $$
# \E F(\bar w_T) - F(u) \;\le\; \frac{BG}{\sqrt T},
# \qquad \eta = \frac{B}{G\sqrt T},\ w_1 = 0,\ \|u\| \le B .
# $$ (eq-online-to-batch)
#
# One pass of SGD over $T$ fresh examples reaches, on average, risk within $BG/\sqrt T$ of any
# predictor of norm $B$: a statement about generalisation, obtained from an online argument
# with no uniform convergence. The check averages 200 runs and allows for their Monte Carlo
# error.

# %%
claims.verify("eq-online-to-batch")

# %% [markdown]
# On the heart data of LIBSVM (`heart_scale`, 270 patients, 13 features scaled to
# $[-1, 1]$, a constant feature appended) let the distribution be the data set itself: each
# step draws a row at random, and $F$ is the mean log loss, which Newton's method minimises
# ({doc}`/notebooks/02_logistic_regression`) at $u^\star$. With $B = \|u^\star\|$ and
# $G = \max_i \|x_i\|$, twenty runs of SGD with the step of {eq}`eq-online-to-batch` measure
# the gap of the average iterate ({numref}`fig-online-to-batch`).

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "SGD on the log loss of the heart data: the gap F(average iterate) - F(u*) (mean of 20 runs) against the number of steps T, 10 to 20 times below the bound BG/sqrt(T).", "name": "fig-online-to-batch"}, "image": {"alt": "Log-log plot of the measured gap and the bound against T: two falling lines, the measured one well below."}} tags=["hide-input"]
hs = load_heart_scale()
X_h = np.hstack([hs.X, np.ones((len(hs.y), 1))])
u_h = logistic.newton(X_h, to_01(hs.y)).w
F_h = lambda V: np.mean(losses.log_loss(hs.y * (V @ X_h.T)), axis=-1)
B_h, G_h = np.linalg.norm(u_h), np.max(np.linalg.norm(X_h, axis=1))
steps_h = np.array([30, 100, 300, 1000, 3000])
gap_h = []
for T_h in steps_h:
    r = np.random.default_rng(int(T_h))
    eta_h = B_h / (G_h * np.sqrt(T_h))
    W_h, S_h = np.zeros((20, X_h.shape[1])), np.zeros((20, X_h.shape[1]))
    for _ in range(T_h):
        i = r.integers(len(hs.y), size=20)
        S_h += W_h
        M_h = hs.y[i] * np.sum(W_h * X_h[i], axis=1)
        W_h -= eta_h * (losses.log_loss_derivative(M_h) * hs.y[i])[:, None] * X_h[i]
    gap_h.append(np.mean(F_h(S_h / T_h)) - F_h(u_h))
fig, ax = plt.subplots()
ax.loglog(steps_h, gap_h, "o-", label=r"measured $F(\bar w_T) - F(u^\star)$")
ax.loglog(steps_h, B_h * G_h / np.sqrt(steps_h), "k:", label=r"bound $BG/\sqrt{T}$")
ax.set(xlabel="steps $T$ (one example each)", ylabel="excess log loss")
ax.legend()
plt.show()
print(f"B = {B_h:.2f}, G = {G_h:.2f}")
for T_h, g_ in zip(steps_h, gap_h, strict=True):
    print(f"T = {T_h:4d}   gap {g_:.2g}   bound {B_h * G_h / np.sqrt(T_h):.2f}")

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-online-to-batch
# SGD on the log loss of the heart data: the gap F(average iterate) - F(u*) (mean of 20 runs) against the number of steps T, 10 to 20 times below the bound BG/sqrt(T).
# :::

# %% [markdown]
# The bound holds with room to spare, 10 to 20 times above the measured gap: it is a worst case
# over all distributions and all comparators of norm $B$, and $\|g_t\| \le G$ is far from
# tight once the margins are large. Here the gap falls a little more slowly than $1/\sqrt T$
# (from 30 to 3000 steps by a factor of about 6, against 10 for the bound), and the bound
# guarantees it will keep falling. It needs neither a decreasing step schedule nor
# smoothness: the same argument covers the hinge loss with subgradients.

# %% [markdown]
# (sec-online-subgradients)=
# ## Subgradients and the subgradient method
#
# The hinge and perceptron losses have a kink, and $\|w\|_1$ has one on every axis: no gradient
# there. For a convex $f$, a vector $v$ is a **subgradient** at $w_0$ when the affine function
# through $(w_0, f(w_0))$ with slope $v$ stays below $f$ everywhere:
#
# $$
# f(w) \ge f(w_0) + v^\top (w - w_0) \quad \text{for all } w ;
# $$ (def-subgradient)
#
# the set $\partial f(w_0)$ of them is the **subdifferential**, equal to $\{\nabla f(w_0)\}$ where
# $f$ is differentiable. For a pointwise maximum of convex differentiable functions, such as
# $\max(0, 1 - M)$ or $\max(0, -M)$, the gradient of any function that attains the maximum is
# one:
#
# $$
# f = \max_k f_k, \ f_k(w_0) = f(w_0) \implies \nabla f_k(w_0) \in \partial f(w_0) ,
# $$ (eq-subgradient-max)
#
# because $f(w) \ge f_k(w) \ge f_k(w_0) + \nabla f_k(w_0)^\top (w - w_0)$ by convexity of $f_k$.
# This is where `hinge_derivative` and `perceptron_derivative` come from.

# %%
claims.verify("eq-subgradient-max")

# %% [markdown]
# **A subgradient need not be a descent direction** (notes 004). Take $f(w) = |w_1| + 2|w_2|$ at
# $w = (1, 0)$, where $\partial f = \{1\} \times [-2, 2]$. The subgradient $v = (1, 2)$ gives
# $f(w - \eta v) = |1 - \eta| + 4\eta > 1 = f(w)$ for every $\eta > 0$: every step along $-v$
# goes uphill. Yet the step still brings $w$ closer to the minimiser $w^* = 0$, because
# $\|w - \eta v - w^*\|^2 = \|w - w^*\|^2 - 2\eta\, v^\top (w - w^*) + \eta^2 \|v\|^2$ and
# $v^\top(w - w^*) \ge f(w) - f(w^*) > 0$ by the subgradient inequality:
#
# $$
# \begin{gathered}
# f(w - \eta v) > f(w) \ \text{ for all } \eta > 0, \\
# \|w - \eta v - w^*\| < \|w - w^*\| \ \text{ for } 0 < \eta < \tfrac{2 v^\top (w - w^*)}{\|v\|^2} = \tfrac25 .
# \end{gathered}
# $$ (eq-not-descent)
#
# See {numref}`fig-not-descent`.

# %%
claims.verify("eq-not-descent")

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Level sets of $|w_1| + 2|w_2|$ and two negative subgradients at the kink $(1, 0)$: $-v$ for $v = (1, 2)$ points uphill, for $v = (1, 0)$ downhill. A subgradient need not give a descent direction {eq}`eq-not-descent`.", "name": "fig-not-descent"}, "image": {"alt": "Diamond-shaped contours with two arrows from the point (1, 0), one leaving the diamond and one pointing inside."}} tags=["hide-input"]
F1 = np.abs(G1) + 2 * np.abs(G2)
fig, ax = plt.subplots()
ax.contour(G1, G2, F1, levels=np.arange(0.25, 5, 0.25), colors="gray", linewidths=0.6)
w_pt, v_pt = np.array([1.0, 0.0]), np.array([1.0, 2.0])
ax.annotate(
    "",
    xy=w_pt - 0.5 * v_pt,
    xytext=w_pt,
    arrowprops=dict(arrowstyle="->", color="C3", lw=2),
)
ax.annotate(
    "",
    xy=w_pt - 0.5 * np.array([1.0, 0.0]),
    xytext=w_pt,
    arrowprops=dict(arrowstyle="->", color="C2", lw=2),
)
ax.plot(*w_pt, "ko")
ax.plot(0, 0, "k*", ms=12)
ax.text(0.55, -1.1, r"$-v$, $v = (1, 2)$: uphill", color="C3")
ax.text(0.1, 0.2, r"$-v$, $v = (1, 0)$: downhill", color="C2")
ax.set(
    xlabel="$w_1$",
    ylabel="$w_2$",
    xlim=(-1.5, 2),
    ylim=(-1.5, 1.5),
    aspect="equal",
    title=r"level sets of $|w_1| + 2|w_2|$ and two subgradients at $(1, 0)$",
)
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-not-descent
# Level sets of $|w_1| + 2|w_2|$ and two negative subgradients at the kink $(1, 0)$: $-v$ for $v = (1, 2)$ points uphill, for $v = (1, 0)$ downhill. A subgradient need not give a descent direction {eq}`eq-not-descent`.
# :::

# %% [markdown]
# **The subgradient method** {cite}`boyd2003subgradient` takes the step anyway,
# $w_{t+1} = w_t - \eta_t v_t$ with $v_t \in \partial f(w_t)$, and keeps the best iterate so far,
# since $f(w_t)$ need not decrease. Expanding $\|w_{t+1} - w^*\|^2$ as above, using the
# subgradient inequality and summing over $t$ gives, for any minimiser $w^*$,
#
# $$
# \min_{t \le T} f(w_t) - f(w^*) \le \frac{\|w_0 - w^*\|^2 + \sum_{t=1}^T \eta_t^2 \|v_t\|^2}{2 \sum_{t=1}^T \eta_t} .
# $$ (eq-subgradient-method)
#
# With bounded subgradients the right side tends to 0 under {eq}`def-robbins-monro` (and also for
# $\eta_t \propto 1/\sqrt t$); with a constant step it tends to $\eta G^2 / 2$: close to the
# optimum, not at it. The check runs `optim.subgradient_method` on $f(w) = \|Cw - c\|_1$, whose
# optimum is computed independently by scipy's linear-programming solver ({numref}`fig-subgradient-convergence`).

# %%
claims.verify("eq-subgradient-method")

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "The subgradient method on $f(w) = \\|Cw - c\\|_1$: the best value so far minus the optimum (from a linear program), for constant steps and for steps decaying like $1/\\sqrt t$ and $1/t$; a constant step stalls at a floor that shrinks with the step.", "name": "fig-subgradient-convergence"}, "image": {"alt": "Log-log plot of the best objective gap against iterations for four step-size rules, the constant ones levelling off."}} tags=["hide-input"]
from scipy.optimize import linprog  # the oracle for this figure

r_sg = np.random.default_rng(7)
C_sg, c_sg = r_sg.standard_normal((30, 5)), r_sg.standard_normal(30)
f_sg = lambda w: float(np.abs(C_sg @ w - c_sg).sum())
v_sg = lambda w: C_sg.T @ np.sign(C_sg @ w - c_sg)
lp = linprog(
    np.r_[np.zeros(5), np.ones(30)],
    A_ub=np.block([[C_sg, -np.eye(30)], [-C_sg, -np.eye(30)]]),
    b_ub=np.r_[c_sg, -c_sg],
    bounds=[(None, None)] * 5 + [(0, None)] * 30,
    method="highs",
)
final_sg, below_sg = {}, []
fig, ax = plt.subplots()
for eta_sg, p_sg, label in [
    (0.05, 0.0, r"constant $\eta_t = 0.05$"),
    (0.05, 0.5, r"$\eta_t = 0.05/\sqrt{t}$"),
    (0.05, 1.0, r"$\eta_t = 0.05/t$"),
    (0.01, 0.0, r"constant $\eta_t = 0.01$"),
]:
    res_sg = optim.subgradient_method(
        f_sg, v_sg, np.zeros(5), eta=eta_sg, power_t=p_sg, max_iter=3000
    )
    ax.loglog(np.arange(1, res_sg.n_iter + 2), res_sg.best - lp.fun, label=label)
    # the right side of eq-subgradient-method after each step, with w* from the LP
    v_norm2 = np.array([v_sg(w_) @ v_sg(w_) for w_ in res_sg.path[:-1]])
    rhs_sg = (np.sum(lp.x[:5] ** 2) + np.cumsum(res_sg.eta**2 * v_norm2)) / (
        2 * np.cumsum(res_sg.eta)
    )
    final_sg[label] = res_sg.best[-1] - lp.fun
    below_sg.append(bool(np.all(res_sg.best[1:] - lp.fun <= rhs_sg + 1e-9)))
ax.set(xlabel="iteration $t$", ylabel=r"$\min_{s \leq t}\, f(w_s) - f^*$")
ax.legend()
plt.show()
gaps_sg = list(final_sg.values())  # constant 0.05, 0.05/sqrt(t), 0.05/t, constant 0.01
print(
    "every curve below the bound eq-subgradient-method at every step:", all(below_sg)
)
print("after 3000 steps: constant 0.01 below constant 0.05:", gaps_sg[3] < gaps_sg[0])
print("0.05/t lowest of the four:", gaps_sg[2] == min(gaps_sg))

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-subgradient-convergence
# The subgradient method on $f(w) = \|Cw - c\|_1$: the best value so far minus the optimum (from a linear program), for constant steps and for steps decaying like $1/\sqrt t$ and $1/t$; a constant step stalls at a floor that shrinks with the step.
# :::

# %% [markdown]
# The constant steps level off at a gap that shrinks with $\eta$; the decreasing steps keep
# improving. Which decreasing rule wins depends on $\eta$ and on the problem: here
# $\eta_t = 0.05/t$ does best, but $\sum_{t \le T} \eta/t$ grows only like $\eta \ln T$, so a
# too-small $\eta$ makes that rule crawl. $\eta_t \propto 1/\sqrt t$ is the rule with the best
# worst-case guarantee, a gap of order $1/\sqrt T$ for bounded subgradients.
#
# (sec-online-real)=
# ## The algorithms on real data
#
# On the breast-cancer split above, the perceptron (which does not converge: the classes overlap),
# hinge-loss SGD and logistic SGD, all on the standardised features, are evaluated on the held-out
# half. The test suite (`tests/test_online.py`) compares these fits with scikit-learn: with one
# point per update and no shuffling, `sgd` and `SGDClassifier` produce the same iterates to
# $10^{-7}$, and full-batch logistic SGD reaches `LogisticRegression`'s optimum.

# %%
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always", ConvergenceWarning)
    perc = online.perceptron(Xtr, y_bc[tr], fit_intercept=True, n_epochs=50)
print(textwrap.fill(f"perceptron converged: {perc.converged} - "
                    f"{caught[0].message if caught else ''}", 88))
fits = {
    "perceptron (50 epochs)": perc,
    "sgd hinge, lam=1e-3": online.sgd(
        Xtr,
        y_bc[tr],
        loss="hinge",
        eta=0.05,
        lam=1e-3,
        batch_size=8,
        n_epochs=30,
        rng=2,
    ),
    "sgd log, lam=1e-3": online.sgd(
        Xtr, y_bc[tr], loss="log", eta=0.1, lam=1e-3, batch_size=8, n_epochs=30, rng=2
    ),
}
for name, model in fits.items():
    print(
        f"{name:24s} training accuracy {np.mean(model.predict(Xtr) == y_bc[tr]):.3f}   "
        f"test accuracy {np.mean(model.predict(Xte) == y_bc[te]):.3f}"
    )

# %% [markdown]
# (sec-online-bag-of-words)=
# ### Text: the bag of words
#
# A linear classifier needs vectors. The **bag-of-words** representation of a text forgets
# the order of its words and keeps, for each word $v$ of a vocabulary, whether it occurs:
# $x_v = 1$ if word $v$ is in the message, else 0 (counts or weighted counts are the common
# variants). The vectors are long and sparse: one coordinate per word of the vocabulary, a
# handful of them non-zero. The corpus here is tiny and written for the chapter
# (`datasets.load_spam_tiny`: 60 short messages, 24 spam and 36 ham), so that every mistake
# can be read. Train the perceptron (with a bias) on two thirds, test on the rest.

# %%
corpus = load_spam_tiny()
tokens = [text.lower().split() for text in corpus.texts]
vocab = sorted({t for words in tokens for t in words})
col = {word: j for j, word in enumerate(vocab)}
X_bow = np.zeros((len(tokens), len(vocab)))
for i, words in enumerate(tokens):
    X_bow[i, [col[t] for t in words]] = 1.0
y_bow = corpus.y
order_bow = np.random.default_rng(4).permutation(len(y_bow))
tr_bow, te_bow = order_bow[:40], order_bow[40:]
fit_bow = online.perceptron(
    X_bow[tr_bow], y_bow[tr_bow], fit_intercept=True, n_epochs=100
)
pred_bow = fit_bow.predict(X_bow[te_bow])
n_words = X_bow.sum(axis=1).mean()
print(f"{len(vocab)} words in the vocabulary, {n_words:.1f} per message")
print(
    f"training: {fit_bow.n_mistakes} mistakes until separated, "
    f"converged {fit_bow.converged}"
)
print(f"test: {np.sum(pred_bow != y_bow[te_bow])} mistakes out of {len(te_bow)}")
for i in te_bow[pred_bow != y_bow[te_bow]]:
    print(f"  {'spam' if y_bow[i] > 0 else 'ham'} read as the other: {corpus.texts[i]}")
# the weights are integers: ties go to the alphabetical order (a stable sort)
for side, sign in (("spam", -1), ("ham", 1)):
    top = np.argsort(sign * fit_bow.w, kind="stable")[:8]
    words = ", ".join(f"{vocab[j]} ({fit_bow.w[j]:+g})" for j in top)
    print(textwrap.fill(f"heaviest {side} words: {words}", 88, subsequent_indent="  "))

# %% [markdown]
# The perceptron separates the forty training messages after 15 mistakes. Its heaviest
# weights are words a reader would pick ("won", "claim", "now", "free") on the spam side, and
# first-person, everyday words on the other. The four test mistakes are all spam written in
# words the training spam did not use ("cash", "loan", "income"): a word outside the training
# vocabulary has weight 0, and twenty messages cannot cover a vocabulary. (Over six random
# splits the test mistakes range from 1 to 6 of 20.) With a real vocabulary of tens of
# thousands of words, of which few matter, this is the sparse setting of
# {ref}`sec-online-winnow`, where winnow's $\ln N$ pays.

# %% [markdown]
# (sec-online-implementation)=
# ## Implementation
#
# The perceptron and winnow are the same loop with different updates. `online._mistake_driven`
# is that loop; the cells below display the library's code itself.

# %%
from mlnotes import show_source

show_source(online._mistake_driven)

# %% [markdown]
# `P` holds the signed points $a_i = y_i x_i$ (with the constant feature appended when
# `fit_intercept`, the homogeneous form {eq}`eq-homogeneous-form`), so line 17, `P[i] @ w <= a_max[i] *
# w_l1` is the mistake test $w^\top a_i \le 0$, a point on the boundary included: a score within
# rounding of zero ($10^{-12} \|a_i\|_\infty \|w\|_1$) is a tie and counts as 0, so that the
# test does not depend on the order of the products in the dot product. The loop over samples
# is written in Python on purpose: each update changes the margins of all later points. An
# epoch without a mistake ends it, line 26 (`converged = True`); otherwise `n_epochs` does, with a warning.

# %%
show_source(online.perceptron)

# %% [markdown]
# The perceptron's update is the `lambda w, a: w + a` passed to the loop, line 18: $w \leftarrow w + a_i$,
# which raises the score of the mistaken point by $\|a_i\|^2$ {eq}`eq-perceptron-score-increase`;
# the start $w = 0$ is `np.zeros(A.shape[1])`, the start the mistake bound
# {eq}`eq-perceptron-bound` assumes. The points are first divided by the power of two `2**e`
# nearest their largest entry (`np.ldexp`, exact in floating point) and $w$ multiplied back at
# the end, line 21 (`w = np.ldexp(w, e)`): the perceptron makes the same mistakes on $c\,a_i$ for any $c > 0$ (its $w$ is a sum
# of points), and this keeps the scores representable when the features are near $10^{200}$ or
# $10^{-200}$.

# %%
show_source(online.winnow)

# %% [markdown]
# Winnow's `update` is the multiplicative rule $v_k \leftarrow v_k e^{\eta a_{jk}}$ written on
# the logarithms, line 21 (`+= eta * a`); subtracting `logv.max()`, line 22, rescales all $v_k$ by one factor,
# which leaves the played strategy $w = v / \sum_k v_k$ unchanged and keeps $e^{\eta t}$ from
# overflowing. The start `np.full(N, 1.0 / N)` is $v_k = 1$ normalised, the $\Phi_0 = N$ of
# the potential argument {eq}`eq-winnow-potential`, and the refusal of features outside
# $[-1, 1]$ is the assumption $|a_{jk}| \le 1$ of the bound {eq}`eq-winnow-bound`.

# %% [markdown]
# SGD ({ref}`sec-online-sgd`) is a loop over epochs and mini-batches in `online.sgd`; each update
# is one call of `_sgd_update`:

# %%
show_source(online._sgd_update)

# %% [markdown]
# `M` holds the margins $M_i = y_i (w^\top x_i + b)$ of the batch at the current iterate
# {eq}`def-online-margin`. Before the step, the batch's mean loss plus the penalty, an unbiased
# estimate of $J$ {eq}`def-online-objective`, enters the running average, line 7 (`_running_average`),
# $\hat J \leftarrow (1 - \alpha) \hat J + \alpha\, \varepsilon_t$ (`_running_average`, the
# trace `running` of the fit). Then `dphi(M) * yb`, line 10, is $\varphi'(M_i)\, y_i$, the derivative of
# the loss with respect to the score, which the surrogate-loss step turns into the gradient:

# %%
show_source(online._surrogate_step)

# %% [markdown]
# `g @ Xb` is $\sum_{i \in B} \varphi'(M_i)\, y_i x_i$, the sum of the gradients
# {eq}`eq-sgd-gradient` (a subgradient for the hinge and perceptron losses, whose derivative
# functions return the left derivative at the kink), line 4 (`g @ Xb`). Weight decay `w *= 1.0 - eta_t * lam`, line 3, comes
# first and the loss step second, both at the old $w$: that is the regularised step
# {eq}`eq-weight-decay`. The bias takes the loss step only, since it is not penalised. With the
# perceptron loss, `eta=1`, `lam=0` and one point per batch, `g` is $-y_i [M_i \le 0]$ and the
# step is the perceptron rule {eq}`eq-perceptron-rule`; with the log loss it is
# {eq}`eq-logistic-sgd`. The step sizes come from one schedule, shared with `optim`'s gradient
# methods:

# %%
show_source(optim.step_sizes)

# %% [markdown]
# $\eta_t = \eta\, t^{-p}$ with $p$ = `power_t`, computed for all updates at once: $p = 0$ is the
# constant step, $1/2 < p \le 1$ meets the Robbins-Monro conditions {eq}`def-robbins-monro`.

# %% [markdown]
# (sec-online-exercises)=
# ## Exercises
#
# ```{exercise}
# :label: ex-perceptron-scale
# Show that running the perceptron with update $w \leftarrow w + \eta\, y_i x_i$ from $w = 0$
# makes the same mistakes for every $\eta > 0$. Does this remain true from a non-zero start?
# ```
#
# ```{solution} ex-perceptron-scale
# :class: dropdown
# By induction, the iterate with step $\eta$ is $\eta$ times the iterate with step 1, so every
# margin is scaled by $\eta > 0$ and has the same sign: the same points trigger updates. From
# $w_0 \ne 0$ the iterates are $w_0 + \eta \sum y_i x_i$, which are not proportional to each
# other for different $\eta$: the step size matters (a large $\eta$ makes the start irrelevant).
# ```
#
# ```{exercise}
# :label: ex-winnow-eta
# Minimise the winnow bound $\ln N / (\eta\rho - \eta^2/2)$ over $\eta$. What happens to the
# bound if $\eta$ is set to $2\rho$ or larger? Compare $2\ln N/\rho^2$ with the notes'
# $\frac{16}{3}\ln N/\rho^2$.
# ```
#
# ```{solution} ex-winnow-eta
# :class: dropdown
# The denominator $\eta\rho - \eta^2/2$ is a concave parabola in $\eta$, maximal at $\eta = \rho$
# where it equals $\rho^2/2$: the bound is $2\ln N/\rho^2$. At $\eta \ge 2\rho$ the denominator
# is $\le 0$ and the argument gives no bound. The notes' constant $16/3 \approx 5.3$ comes from
# a cruder bound ($\epsilon T$ instead of $\epsilon^2 T/2$ for the second-order term) and
# $\epsilon = 3\rho/4$; both are $O(\ln N/\rho^2)$.
# ```
#
# ```{exercise}
# :label: ex-squared-hinge-calibrated
# Compute the minimiser $\alpha^*(\eta)$ of the conditional risk of the squared hinge loss
# $\varphi(M) = \max(0, 1 - M)^2$ and check the calibration criterion of
# {cite}`bartlett2006convexity`.
# ```
#
# ```{solution} ex-squared-hinge-calibrated
# :class: dropdown
# On $[-1, 1]$, $C_\eta(\alpha) = \eta(1 - \alpha)^2 + (1 - \eta)(1 + \alpha)^2$, minimised at
# $\alpha^* = 2\eta - 1 \in [-1, 1]$ (outside that interval $C_\eta$ only grows). Its sign is
# that of $2\eta - 1$: calibrated, as the criterion predicts since $\varphi$ is convex,
# differentiable at 0 and $\varphi'(0) = -2 < 0$.
# ```
#
# ```{exercise}
# :label: ex-step-size-quadratic
# Gradient descent on $f(w) = \frac a2 w^2$ ($a > 0$) with a constant step $\eta$. Give $w_t$,
# the steps for which it converges, the step that converges fastest, and what happens at
# $\eta = 1/a$ and between $1/a$ and $2/a$. With the schedule $\eta_t = \eta/t$, does SGD on
# the noisy gradients $a w + \xi_t$ (independent noise of variance $\sigma^2$) converge?
# ```
#
# ```{solution} ex-step-size-quadratic
# :class: dropdown
# $w_{t+1} = (1 - \eta a) w_t$, so $w_t = (1 - \eta a)^t w_0$: it converges iff
# $|1 - \eta a| < 1$, i.e. $0 < \eta < 2/a$ ({eq}`eq-gd-stability` in one dimension). At
# $\eta = 1/a$ it reaches the minimum in one step (Newton's step); between $1/a$ and $2/a$ the
# factor is negative and the iterates alternate in sign while shrinking. With $\eta_t = \eta/t$
# the steps meet the Robbins-Monro conditions: $\sum 1/t = \infty$ and $\sum 1/t^2 < \infty$.
# The noise injected at step $s$ is $\eta_s \xi_s$, then damped by the later factors
# $1 - \eta_r a$; the variance left at step $t$ is at most $\sigma^2 \sum_s \eta_s^2$ times
# these products, which go to 0 since $\sum_r \eta_r = \infty$. So $w_t \to 0$ in mean
# square (at the rate $1/t$ when $\eta a > 1/2$).
# ```
#
# ```{exercise}
# :label: ex-delta-rule-fixed-point
# The delta rule {eq}`eq-delta-rule` with examples drawn uniformly from a data set. Show that
# its expected update is zero exactly at the least-squares solution of $Xw \approx y$. Does a
# constant step make the iterates converge to it?
# ```
#
# ```{solution} ex-delta-rule-fixed-point
# :class: dropdown
# The expected update is $\frac{2\eta}{n}\sum_i (y_i - w^\top x_i) x_i = \frac{2\eta}{n}
# X^\top (y - Xw)$, zero iff $X^\top X w = X^\top y$: the normal equations of
# {doc}`/notebooks/01_linear_regression`. With a constant step the iterates do not converge
# unless every residual is zero at the solution: each update uses one example's residual, which
# is not zero, so $w$ keeps moving in a neighbourhood whose size grows with $\eta$. A decreasing
# step, or averaging the iterates, gives convergence.
# ```
#
# ```{exercise}
# :label: ex-weight-decay-ridge
# Gradient descent on $J(w) = \frac1n\|y - Xw\|^2 + \frac\lambda2\|w\|^2$ in the form of
# weight decay {eq}`eq-weight-decay`. Where does it converge, for small enough $\eta$? And if
# the data term contributes no gradient (a feature that never appears), what happens to its
# weight?
# ```
#
# ```{solution} ex-weight-decay-ridge
# :class: dropdown
# The fixed point has $(1 - \eta\lambda) w + \frac{2\eta}{n} X^\top (y - Xw) = w$, i.e.
# $(X^\top X + \frac{n\lambda}{2} I) w = X^\top y$: the ridge solution with penalty
# $n\lambda/2$. The iteration matrix $I - \eta(\frac2n X^\top X + \lambda I)$ has all its
# eigenvalues in $(-1, 1)$ when $\eta < 2/(\frac2n\lambda_{\max}(X^\top X) + \lambda)$, so it
# converges there. A weight with no data gradient is multiplied by $1 - \eta\lambda$ per step:
# it decays geometrically to 0, which is where the penalty alone puts it.
# ```
#
# ```{exercise} Proof: SGD on a strongly convex objective
# :label: ex-sgd-strongly-convex
# Let $F : \R^d \to \R$ be **$\lambda$-strongly convex**, $\lambda > 0$: for all $w, v$
# and every subgradient $g$ of $F$ at $w$, $F(v) \ge F(w) + g^\top (v - w) +
# \frac\lambda2 \|v - w\|^2$; let $w^\star$ be its minimiser. SGD takes the steps
# $w_{t+1} = w_t - \eta_t g_t$ ($t = 1, 2, \dots$, any $w_1$), where $g_t$ is random, its
# conditional mean given $w_1, \dots, w_t$ is a subgradient of $F$ at $w_t$, and
# $\E\|g_t\|^2 \le G^2$ for every $t$. Prove that the steps $\eta_t = 1/(\lambda t)$ give
# $\E\|w_t - w^\star\|^2 \le 4G^2/(\lambda^2 t)$ for every $t \ge 2$, whatever $w_1$.
# Why is the regularised objective {eq}`def-online-objective` of a convex loss (no bias)
# $\lambda$-strongly convex, and which $g_t$ does one-example SGD on it use? Compare
# $\eta_t$ with the schedule of the coding exercise `sgd_logistic` below.
# ```
#
# ```{solution} ex-sgd-strongly-convex
# :class: dropdown
# *A lower bound on the mean step.* Let $\bar g_t = \E[g_t \mid w_1, \dots, w_t]$, a
# subgradient of $F$ at $w_t$. Strong convexity at $w_t$, with $v = w^\star$, gives
# $F(w^\star) \ge F(w_t) + \bar g_t^\top (w^\star - w_t) + \frac\lambda2 \|w_t - w^\star\|^2$.
# Strong convexity at $w^\star$, with the subgradient $0$ (it is the minimiser) and
# $v = w_t$, gives $F(w_t) \ge F(w^\star) + \frac\lambda2 \|w_t - w^\star\|^2$. Adding the
# two inequalities, the values of $F$ cancel and
# $\bar g_t^\top (w_t - w^\star) \ge \lambda \|w_t - w^\star\|^2$.
#
# *One step.* Expanding the square,
# $\|w_{t+1} - w^\star\|^2 = \|w_t - w^\star\|^2 - 2\eta_t\, g_t^\top (w_t - w^\star) +
# \eta_t^2 \|g_t\|^2$. Take the conditional expectation given $w_1, \dots, w_t$: $w_t$ is
# fixed, $g_t$ is replaced by $\bar g_t$ in the middle term, and by the bound above
# $\E[\|w_{t+1} - w^\star\|^2 \mid w_1, \dots, w_t]$ is at most
# $(1 - 2\lambda\eta_t) \|w_t - w^\star\|^2 + \eta_t^2\, \E[\|g_t\|^2 \mid w_1, \dots, w_t]$.
# Taking the
# expectation of both sides (the steps are not random), $a_t = \E\|w_t - w^\star\|^2$
# obeys $a_{t+1} \le (1 - 2\lambda\eta_t)\, a_t + \eta_t^2 G^2$.
#
# *The recursion with $\eta_t = 1/(\lambda t)$.* Write $c = G^2/\lambda^2$; then
# $a_{t+1} \le (1 - 2/t)\, a_t + c/t^2$. At $t = 1$ the factor is $-1$ and $a_1 \ge 0$,
# so $a_2 \le c \le 4c/2$: the claim holds at $t = 2$, whatever $w_1$. Suppose
# $a_t \le 4c/t$ for some $t \ge 2$. Then $1 - 2/t \ge 0$, so
# $a_{t+1} \le (1 - 2/t)\, 4c/t + c/t^2 = 4c/t - 7c/t^2$. Since
# $4c/t - 4c/(t+1) = 4c/(t(t+1)) \le 4c/t^2 \le 7c/t^2$, this is at most $4c/(t+1)$,
# and the claim follows by induction: $\E\|w_t - w^\star\|^2 \le 4G^2/(\lambda^2 t)$.
# By Jensen's inequality $\E\|w_t - w^\star\| \le 2G/(\lambda\sqrt t)$.
#
# *The regularised objective.* $J(w) = \frac1n \sum_i \varphi(y_i w^\top x_i) +
# \frac\lambda2 \|w\|^2$ is a convex function plus $\frac\lambda2\|w\|^2$. For a convex
# $h$ with subgradient $s$ at $w$, $h(v) \ge h(w) + s^\top (v - w)$, and the identity
# $\frac\lambda2\|v\|^2 = \frac\lambda2\|w\|^2 + \lambda w^\top (v - w) +
# \frac\lambda2\|v - w\|^2$ adds the quadratic term: $J$ is $\lambda$-strongly convex,
# with subgradients $s + \lambda w$. One-example SGD draws $i$ uniformly and takes
# $g_t = \lambda w_t + \varphi'(M_i)\, y_i x_i$ ({eq}`eq-sgd-gradient`), whose conditional
# mean is the gradient of $J$ at $w_t$. The bound $G$ holds when the iterates stay in a
# ball, since then $\|g_t\| \le \lambda \|w_t\| + \max_i |\varphi'(M_i)|\,\|x_i\|$ is
# bounded. (Going through the data in epochs of a fixed order, as `order` does, is not an
# independent draw; the proof covers sampling with replacement.)
#
# *The schedule.* At its update $t = 0, 1, \dots$ the coding exercise takes
# $\eta_0/(1 + \eta_0 \lambda t) = 1/\big(\lambda (t + 1/(\eta_0\lambda))\big)$: the
# steps $1/(\lambda t)$ shifted in time by $1/(\eta_0 \lambda)$, never larger than
# $\eta_0$. For $\eta_0 = 1/\lambda$ it is $1/(\lambda(t + 1))$, exactly the steps above. A
# larger $\eta_0$ makes the factor $1 - 2\lambda\eta_t$ negative for the first steps; the
# recursion then drops $a_t$ and keeps $\eta_t^2 G^2$, so a large first step costs a large
# distance once, which the later steps, close to $1/(\lambda t)$, shrink again. A constant
# step $\eta > 2/\lambda$ instead breaks the stability condition {eq}`eq-gd-stability` at
# every step (every eigenvalue of the Hessian of $J$ is at least $\lambda$), and the
# iterates diverge.
# ```
#
# The remaining exercises are coding exercises; the course's assignments turn them into
# autograded questions.

# %% [markdown]
# ```{exercise} Core · 3 points · about 30 min
# :label: ex-code-perceptron
# Write `my_perceptron(X, y, max_epochs)` that runs the perceptron of
# {ref}`sec-online-perceptron` without bias: start from $w = 0$, go through the rows of
# `X` in order, update $w \leftarrow w + y_i x_i$ whenever $y_i w^\top x_i \le 0$, and
# stop after the first epoch without a mistake (or after `max_epochs` epochs). Return
# the pair `(w, n_mistakes)`. While this is graded, `mlnotes.online.perceptron` and
# `mlnotes.online._mistake_driven` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def my_perceptron(X, y, max_epochs=100):
    # BEGIN SOLUTION
    w = np.zeros(X.shape[1])
    n_mistakes = 0
    for _ in range(max_epochs):
        clean = True
        for x_i, y_i in zip(X, y, strict=True):
            if y_i * (w @ x_i) <= 0:
                w = w + y_i * x_i
                n_mistakes += 1
                clean = False
        if clean:
            break
    return w, n_mistakes
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: perceptron-epochs, points: 3, tier: core, minutes: 30,
#   withdraw: [mlnotes.online.perceptron, mlnotes.online._mistake_driven]}
# TEST: 60 separable points in 3-D, against the chapter's perceptron, run to the end and
# stopped after one epoch
r_test = np.random.default_rng(11)
X_test = r_test.standard_normal((60, 3))
y_test = np.sign(X_test @ np.array([1.0, -2.0, 0.5]))
for epochs_test in (100, 1):
    w_test, k_test = my_perceptron(X_test, y_test, max_epochs=epochs_test)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # one epoch is not enough
        ref_test = online.perceptron(X_test, y_test, n_epochs=epochs_test)
    np.testing.assert_allclose(w_test, ref_test.w, strict=True)
    assert k_test == ref_test.n_mistakes, (
        f"expected {ref_test.n_mistakes}, got {k_test}"
    )

# HIDDEN TEST: separable data with a margin: w separates, mistakes <= (R / gamma)^2
rng_h = np.random.default_rng(list(b"development secret"))
d_h = rng_h.integers(2, 8)
u_h = rng_h.standard_normal(d_h)
u_h /= np.linalg.norm(u_h)
X_h = rng_h.standard_normal((rng_h.integers(100, 500), d_h))
X_h = X_h[np.abs(X_h @ u_h) > rng_h.uniform(0.05, 0.3)]
y_h = np.sign(X_h @ u_h)
w_h, k_h = my_perceptron(X_h, y_h, max_epochs=10_000)
ref_h = online.perceptron(X_h, y_h, n_epochs=10_000)
np.testing.assert_allclose(w_h, ref_h.w, strict=True)
assert k_h == ref_h.n_mistakes, f"expected {ref_h.n_mistakes} mistakes, got {k_h}"
assert k_h <= online.perceptron_bound(X_h, y_h, u_h)

# HIDDEN TEST: on data it cannot separate, stops after exactly max_epochs epochs
rng_h = np.random.default_rng(list(b"development secret"))
X_h = rng_h.standard_normal((rng_h.integers(10, 60), rng_h.integers(1, 5)))
y_h = 2.0 * rng_h.integers(0, 2, size=len(X_h)) - 1
X_h[1], y_h[1] = X_h[0], -y_h[0]  # a point with both labels: never separable
epochs_h = rng_h.integers(1, 6)
w_h, k_h = my_perceptron(X_h, y_h, max_epochs=epochs_h)
with warnings.catch_warnings():
    warnings.simplefilter("ignore", ConvergenceWarning)  # it cannot converge
    ref_h = online.perceptron(X_h, y_h, n_epochs=epochs_h)
np.testing.assert_allclose(w_h, ref_h.w, strict=True)
assert k_h == ref_h.n_mistakes, f"expected {ref_h.n_mistakes} mistakes, got {k_h}"

# %% [markdown]
# ```{exercise} Warm-up · 2 points · about 15 min
# :label: ex-code-svm-subgradient
# Write `svm_subgradient(X, y, w, lam)` returning a subgradient of $J(w) = \frac1n
# \sum_i \max(0, 1 - y_i w^\top x_i) + \frac\lambda2 \|w\|^2$ (no bias), using
# {eq}`eq-sgd-gradient` and {eq}`eq-subgradient-max` and matrix products only. While
# this is graded, `mlnotes.check.numerical_gradient`,
# `mlnotes.check.numerical_jacobian`, `mlnotes.online._surrogate_step`,
# `mlnotes.online._sgd_update` and `scipy.optimize` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def svm_subgradient(X, y, w, lam):
    # BEGIN SOLUTION
    M = y * (X @ w)
    return -(X.T @ (y * (M <= 1))) / len(y) + lam * w
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: svm-subgradient, points: 2, tier: warm-up, minutes: 15,
#   withdraw: [mlnotes.check.numerical_gradient, mlnotes.check.numerical_jacobian,
#              mlnotes.online._surrogate_step, mlnotes.online._sgd_update,
#              scipy.optimize]}
# TEST: at a random w (no margin exactly 1), against a numerical gradient of J
from mlnotes.check import numerical_gradient

r_test = np.random.default_rng(13)
X_test, y_test = r_test.standard_normal((40, 3)), r_test.choice([-1.0, 1.0], 40)
w_test = r_test.standard_normal(3)


def J_test(v):
    return np.mean(losses.hinge(y_test * (X_test @ v))) + 0.05 * v @ v


np.testing.assert_allclose(
    svm_subgradient(X_test, y_test, w_test, 0.1),
    numerical_gradient(J_test, w_test),
    atol=1e-6,
    strict=True,
)

# HIDDEN TEST: at w = 0 all points are active: -(1/n) sum y_i x_i; J(v) >= J(0) + g.v
rng_h = np.random.default_rng(list(b"development secret"))
n_h, d_h = rng_h.integers(5, 60), rng_h.integers(1, 6)
X_h, y_h = rng_h.standard_normal((n_h, d_h)), 2.0 * rng_h.integers(0, 2, size=n_h) - 1
lam_h = rng_h.uniform(0.01, 3)
g_h = svm_subgradient(X_h, y_h, np.zeros(d_h), lam_h)
np.testing.assert_allclose(g_h, -(y_h @ X_h) / n_h, atol=1e-12, strict=True)


def J_h(v):
    return np.mean(losses.hinge(y_h * (X_h @ v))) + lam_h / 2 * v @ v


V_h = rng_h.standard_normal((100, d_h)) * 3
assert all(J_h(v) >= J_h(0 * v) + g_h @ v - 1e-12 for v in V_h), "not a subgradient"

# HIDDEN TEST: J(v) >= J(w) + g.(v - w) where margins straddle 1; lam w if all exceed 1
rng_h = np.random.default_rng(list(b"development secret"))
d_h = rng_h.integers(1, 6)
u_h = rng_h.standard_normal(d_h)
X_h = rng_h.standard_normal((rng_h.integers(20, 80), d_h))
X_h = X_h[np.abs(X_h @ u_h) > 0.5]
y_h, lam_h = np.sign(X_h @ u_h), rng_h.uniform(0.01, 3)


def J_h(v):
    return np.mean(losses.hinge(y_h * (X_h @ v))) + lam_h / 2 * v @ v


w_h = u_h / np.median(y_h * (X_h @ u_h))  # half of the margins below 1
g_h = svm_subgradient(X_h, y_h, w_h, lam_h)
assert np.shape(g_h) == (d_h,), f"expected shape {(d_h,)}, got {np.shape(g_h)}"
V_h = w_h + rng_h.standard_normal((200, d_h)) * rng_h.uniform(0.01, 2, size=(200, 1))
assert all(J_h(v) >= J_h(w_h) + g_h @ (v - w_h) - 1e-12 for v in V_h), (
    "not a subgradient"
)
w_h = 10 * u_h / np.min(y_h * (X_h @ u_h))  # every margin is at least 10
np.testing.assert_allclose(
    svm_subgradient(X_h, y_h, w_h, lam_h), lam_h * w_h, strict=True
)

# %% [markdown]
# ```{exercise} Core · 3 points · about 30 min
# :label: ex-code-winnow-run
# Write `my_winnow(X, y, eta, max_epochs)`, winnow with non-negative weights on the
# coordinates of $x$ (no doubling, no bias; features in $[-1, 1]$): start from the
# uniform probability vector $w$; go through the rows in order; on a mistake, $y_i
# w^\top x_i \le 0$, multiply each $w_k$ by $e^{\eta y_i x_{ik}}$ and renormalise to sum
# 1; stop after the first epoch without a mistake (or after `max_epochs`). Return the
# pair `(w, n_mistakes)`. While this is graded, `mlnotes.online.winnow` and
# `mlnotes.online._mistake_driven` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def my_winnow(X, y, eta, max_epochs):
    # BEGIN SOLUTION
    w = np.full(X.shape[1], 1.0 / X.shape[1])
    mistakes = 0
    for _ in range(max_epochs):
        clean = True
        for x, label in zip(X, y, strict=True):
            if label * (w @ x) <= 0:
                w = w * np.exp(eta * label * x)
                w /= w.sum()
                mistakes += 1
                clean = False
        if clean:
            break
    return w, mistakes
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: winnow-run, points: 3, tier: core, minutes: 30,
#   withdraw: [mlnotes.online.winnow, mlnotes.online._mistake_driven]}
# TEST: 8 features, eta = 0.1, against the chapter's winnow
def winnow_data(seed, n, d):
    """Points of [-1, 1]^d labelled by the mean of three coordinates, margin 0.1."""
    X = np.random.default_rng(seed).uniform(-1, 1, size=(n, d))
    s = X[:, :3].mean(axis=1)
    return X[np.abs(s) > 0.1], np.sign(s[np.abs(s) > 0.1])


X_test, y_test = winnow_data(122, 200, 8)
w_test, k_test = my_winnow(X_test, y_test, 0.1, 50)
ref_test = online.winnow(X_test, y_test, eta=0.1, n_epochs=50, doubled=False)
np.testing.assert_allclose(w_test, ref_test.v, rtol=1e-10, strict=True)
assert k_test == ref_test.n_mistakes, (
    f"expected {ref_test.n_mistakes} mistakes, got {k_test}"
)

# HIDDEN TEST: the chapter's winnow for any number of features, relevant ones and eta
rng_h = np.random.default_rng(list(b"development secret"))
d_h, k_h = rng_h.integers(4, 40), rng_h.integers(1, 4)
X_h = rng_h.uniform(-1, 1, size=(rng_h.integers(100, 400), d_h))
s_h = X_h[:, rng_h.permutation(d_h)[:k_h]].mean(axis=1)
X_h, y_h = X_h[np.abs(s_h) > 0.1], np.sign(s_h[np.abs(s_h) > 0.1])
eta_h, epochs_h = rng_h.uniform(0.05, 0.5), rng_h.integers(1, 100)
w_h, m_h = my_winnow(X_h, y_h, eta_h, epochs_h)
ref_h = online.winnow(X_h, y_h, eta=eta_h, n_epochs=epochs_h, doubled=False)
np.testing.assert_allclose(w_h, ref_h.v, rtol=1e-10, strict=True)
assert m_h == ref_h.n_mistakes, f"expected {ref_h.n_mistakes} mistakes, got {m_h}"

# HIDDEN TEST: separable with margin: w is a positive probability vector that separates
rng_h = np.random.default_rng(list(b"development secret"))
d_h, k_h = rng_h.integers(4, 40), rng_h.integers(1, 4)
X_h = rng_h.uniform(-1, 1, size=(rng_h.integers(100, 400), d_h))
s_h = X_h[:, rng_h.permutation(d_h)[:k_h]].mean(axis=1)
X_h, y_h = X_h[np.abs(s_h) > 0.1], np.sign(s_h[np.abs(s_h) > 0.1])
w_h, m_h = my_winnow(X_h, y_h, 0.1, 1000)
assert np.shape(w_h) == (d_h,), f"expected shape {(d_h,)}, got {np.shape(w_h)}"
np.testing.assert_allclose(np.sum(w_h), 1.0, rtol=1e-12)
assert np.all(w_h > 0) and np.all(y_h * (X_h @ w_h) > 0), "w does not separate"
assert m_h <= online.winnow_bound(0.1, d_h, 0.1), f"{m_h} mistakes"

# %% [markdown]
# ```{exercise} Core · 4 points · about 45 min
# :label: ex-code-sgd-logistic
# Write `sgd_logistic(X, y, lam, eta0, order)`: SGD, one example per update, on the
# objective {eq}`def-online-objective` with the log loss and no bias,
# $J(w) = \frac1n \sum_i \ln(1 + e^{-y_i w^\top x_i}) + \frac\lambda2 \|w\|^2$. Start from
# $w_0 = 0$. Update $t = 0, 1, \dots, T - 1$, with $T$ = `len(order)`, uses the example
# $i$ = `order[t]` (so the caller fixes the order of the samples) and the step
# $\eta_t = \eta_0 / (1 + \eta_0 \lambda t)$, and moves $w_t$ against the gradient at $w_t$
# of that example's term $\ln(1 + e^{-y_i w^\top x_i}) + \frac\lambda2 \|w\|^2$ (see
# {eq}`eq-logistic-sgd` and {eq}`eq-weight-decay`). Return the pair $(w_T, \bar w_T)$: the
# last iterate and the average $\bar w_T = \frac1T \sum_{t=1}^T w_t$ of the iterates after
# each update ($w_0$ left out).
#
# The tests compute the minimum $J^\star$ of $J$ by Newton's method and require
# $J(w_T) \le 1.02\, J^\star$ and $J(\bar w_T) \le 1.02\, J^\star$ (a relative tolerance of
# 2 %) after 20 epochs or more with $\lambda \ge 0.1$; they check that $\bar w_T$ is the mean
# of your iterates (the last iterates of the prefixes of `order`) and that $J(\bar w_T)$
# falls as the epochs grow. Some take a large first step, $\eta_0 \lambda$ up to 4: the
# schedule recovers from it, where a constant step $\eta_0$ would diverge (the proof
# exercise above explains both). Which of $w_T$ and $\bar w_T$ ends closer to $J^\star$, and
# why? While this is graded, `mlnotes.online.sgd`, `mlnotes.online._sgd_update`,
# `mlnotes.online._surrogate_step`, `mlnotes.logistic.newton` and `scipy.optimize` are
# unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def sgd_logistic(X, y, lam, eta0, order):
    # BEGIN SOLUTION
    w = np.zeros(X.shape[1])
    w_sum = np.zeros_like(w)
    for t, i in enumerate(order):
        eta_t = eta0 / (1.0 + eta0 * lam * t)
        M_i = y[i] * (X[i] @ w)
        # phi'(M) = -1 / (1 + e^M): the gradient of the example's term at w
        grad = lam * w - y[i] * X[i] / (1.0 + np.exp(M_i))
        w = w - eta_t * grad
        w_sum += w
    return w, w_sum / len(order)
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: sgd-logistic-schedule, points: 4, tier: core, minutes: 45,
#   withdraw: [mlnotes.online.sgd, mlnotes.online._sgd_update,
#              mlnotes.online._surrogate_step, mlnotes.logistic.newton, scipy.optimize]}
# TEST: 80 points in 3-D, lam = 0.2, eta0 * lam = 3, 20 epochs: J(w_T) and J(average)
# within 2 % of the minimum; the average of the first 30 iterates is their mean
r_test = np.random.default_rng(31)
X_test = r_test.standard_normal((80, 3))
p_test = logistic.sigmoid(X_test @ np.array([2.0, -2.0, 1.0]))
y_test = np.where(r_test.random(80) < p_test, 1.0, -1.0)
lam_test = 0.2
order_test = np.concatenate([r_test.permutation(80) for _ in range(20)])


def J_test(v):
    return float(np.mean(losses.log_loss(y_test * (X_test @ v))) + lam_test / 2 * v @ v)


J_star_test = J_test(logistic.newton(X_test, to_01(y_test), lam=80 * lam_test).w)
w_last_test, w_avg_test = sgd_logistic(X_test, y_test, lam_test, 15.0, order_test)
for name_test, v_test in (("w_T", w_last_test), ("the average", w_avg_test)):
    assert np.shape(v_test) == (3,), (
        f"{name_test}: shape {np.shape(v_test)}, expected (3,)"
    )
    assert J_test(v_test) <= 1.02 * J_star_test, (
        f"J({name_test}) = {J_test(v_test):.6f}, the minimum is {J_star_test:.6f}"
    )
iterates_test = [sgd_logistic(X_test, y_test, lam_test, 15.0, order_test[:k])[0]
                 for k in range(1, 31)]
np.testing.assert_allclose(
    sgd_logistic(X_test, y_test, lam_test, 15.0, order_test[:30])[1],
    np.mean(iterates_test, axis=0), rtol=1e-9, atol=1e-12, strict=True,
)

# HIDDEN TEST: with an ordinary first step, w_T and the average are within 2 % of min J,
# and the average is the mean of the iterates
rng_h = np.random.default_rng(list(b"development secret"))
n_h, d_h = rng_h.integers(40, 120), rng_h.integers(2, 7)
X_h = rng_h.standard_normal((n_h, d_h)) * rng_h.uniform(0.5, 2)
p_h = logistic.sigmoid(2 * X_h @ rng_h.standard_normal(d_h))
y_h = np.where(rng_h.random(n_h) < p_h, 1.0, -1.0)
lam_h = 10 ** rng_h.uniform(-1, 0)
eta0_h = rng_h.uniform(0.3, 2) / lam_h
order_h = np.concatenate(
    [rng_h.permutation(n_h) for _ in range(rng_h.integers(20, 40))]
)


def J_h(v):
    return float(np.mean(losses.log_loss(y_h * (X_h @ v))) + lam_h / 2 * v @ v)


J_star_h = J_h(logistic.newton(X_h, to_01(y_h), lam=n_h * lam_h).w)
w_last_h, w_avg_h = sgd_logistic(X_h, y_h, lam_h, eta0_h, order_h)  # the pair, or fail
for v_h in (w_last_h, w_avg_h):
    assert np.shape(v_h) == (d_h,), f"shape {np.shape(v_h)}, expected {(d_h,)}"
    assert J_h(v_h) <= 1.02 * J_star_h, f"J = {J_h(v_h):.6f}, min J = {J_star_h:.6f}"
short_h = order_h[: rng_h.integers(5, 30)]
iterates_h = [sgd_logistic(X_h, y_h, lam_h, eta0_h, short_h[:k])[0]
              for k in range(1, len(short_h) + 1)]
np.testing.assert_allclose(
    sgd_logistic(X_h, y_h, lam_h, eta0_h, short_h)[1],
    np.mean(iterates_h, axis=0),
    rtol=1e-9,
    atol=1e-12,
    strict=True,
)

# HIDDEN TEST: after a large first step (eta0 lam > 2), J(average) falls as the epochs
# double and ends within 2 % of min J
rng_h = np.random.default_rng(list(b"development secret"))
n_h, d_h = rng_h.integers(40, 120), rng_h.integers(2, 7)
X_h = rng_h.standard_normal((n_h, d_h)) * rng_h.uniform(0.5, 2)
p_h = logistic.sigmoid(2 * X_h @ rng_h.standard_normal(d_h))
y_h = np.where(rng_h.random(n_h) < p_h, 1.0, -1.0)
lam_h = 10 ** rng_h.uniform(-1, 0)
eta0_h = rng_h.uniform(2.5, 4) / lam_h
epochs_h = rng_h.integers(5, 10)
perms_h = [rng_h.permutation(n_h) for _ in range(4 * epochs_h)]


def J_h(v):
    return float(np.mean(losses.log_loss(y_h * (X_h @ v))) + lam_h / 2 * v @ v)


J_avg_h = [J_h(sgd_logistic(X_h, y_h, lam_h, eta0_h, np.concatenate(perms_h[:m]))[1])
           for m in (epochs_h, 2 * epochs_h, 4 * epochs_h)]
J_star_h = J_h(logistic.newton(X_h, to_01(y_h), lam=n_h * lam_h).w)
assert J_avg_h[0] > J_avg_h[1] > J_avg_h[2], (
    f"J(average) after E, 2E, 4E epochs: {J_avg_h}"
)
assert J_avg_h[2] <= 1.02 * J_star_h, f"J = {J_avg_h[2]:.6f}, min J = {J_star_h:.6f}"

# HIDDEN TEST: one update from w = 0 is eta0 y_i x_i / 2 (the log loss has slope -1/2
# at 0);
# on any order, with repeats, the average is the mean of the iterates
rng_h = np.random.default_rng(list(b"development secret"))
n_h, d_h = rng_h.integers(5, 50), rng_h.integers(1, 7)
X_h = rng_h.standard_normal((n_h, d_h)) * rng_h.uniform(0.1, 3)
y_h = 2.0 * rng_h.integers(0, 2, size=n_h) - 1
lam_h, eta0_h = rng_h.uniform(0.01, 2), rng_h.uniform(0.1, 5)
i_h = rng_h.integers(n_h, size=1)
w1_h, a1_h = sgd_logistic(X_h, y_h, lam_h, eta0_h, i_h)
np.testing.assert_allclose(w1_h, eta0_h / 2 * y_h[i_h[0]] * X_h[i_h[0]], rtol=1e-12,
                           strict=True)
np.testing.assert_allclose(a1_h, w1_h, rtol=1e-12, strict=True)
order_h = rng_h.integers(n_h, size=rng_h.integers(10, 40))
iterates_h = [sgd_logistic(X_h, y_h, lam_h, eta0_h, order_h[:k])[0]
              for k in range(1, len(order_h) + 1)]
np.testing.assert_allclose(
    sgd_logistic(X_h, y_h, lam_h, eta0_h, order_h)[1],
    np.mean(iterates_h, axis=0),
    rtol=1e-9,
    atol=1e-12,
    strict=True,
)

# HIDDEN TEST: the schedule recovers from a first step up to eta0 lam = 4: w_T and the
# average are finite and within 2 % of min J
rng_h = np.random.default_rng(list(b"development secret"))
n_h, d_h = rng_h.integers(40, 120), rng_h.integers(2, 7)
X_h = rng_h.standard_normal((n_h, d_h)) * rng_h.uniform(0.5, 2)
p_h = logistic.sigmoid(2 * X_h @ rng_h.standard_normal(d_h))
y_h = np.where(rng_h.random(n_h) < p_h, 1.0, -1.0)
lam_h = 10 ** rng_h.uniform(-1, 0)
eta0_h = rng_h.uniform(2.5, 4) / lam_h
order_h = np.concatenate(
    [rng_h.permutation(n_h) for _ in range(rng_h.integers(20, 40))]
)


def J_h(v):
    return float(np.mean(losses.log_loss(y_h * (X_h @ v))) + lam_h / 2 * v @ v)


J_star_h = J_h(logistic.newton(X_h, to_01(y_h), lam=n_h * lam_h).w)
w_last_h, w_avg_h = sgd_logistic(X_h, y_h, lam_h, eta0_h, order_h)  # the pair, or fail
for v_h in (w_last_h, w_avg_h):
    assert np.shape(v_h) == (d_h,), f"shape {np.shape(v_h)}, expected {(d_h,)}"
    assert np.all(np.isfinite(v_h)), f"the iterates diverged: {v_h}"
    assert J_h(v_h) <= 1.02 * J_star_h, f"J = {J_h(v_h):.6f}, min J = {J_star_h:.6f}"

# %% [markdown]
# ```{exercise} Challenge · 4 points · about 60 min
# :label: ex-code-hinge-line-search
# Write `hinge_line_search(X, y, w, d, lam)`, the exact line search of
# {eq}`eq-line-search-hinge`: return (as a float) the smallest minimiser over $t \ge 0$ of
# $g(t) = \frac1n \sum_i \max(0, 1 - M_i - t s_i) + \frac\lambda2 \|w + t d\|^2$, with
# $M_i = y_i w^\top x_i$ and $s_i = y_i d^\top x_i$, in $O(n \log n)$ operations and
# without evaluating $g$ on a grid: sort the breakpoints, walk along the pieces from
# $t = 0$ keeping the slope of the hinge part up to date, and stop at the first $t$ where
# $g'(t^+) \ge 0$, a breakpoint or, when $\lambda > 0$, the root of $g'$ inside a piece. It
# returns 0 when $d$ is not a descent direction. Mind the terms with $M_i = 1$ (on the
# kink at $t = 0$: which side of it does $t > 0$ take them to?) and those with $s_i = 0$.
# The tests compare with the chapter's search to a relative $10^{-9}$ and check that no
# $t \ge 0$ gives a smaller $g$. While this is graded, `mlnotes.optim.margin_line_search`,
# `mlnotes.optim._hinge_line_search` and `scipy.optimize` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def hinge_line_search(X, y, w, d, lam):
    # BEGIN SOLUTION
    n = len(y)
    M, s = y * (X @ w), y * (X @ d)
    # the slope of the hinge part just right of t = 0: the terms with
    # 1 - M_i - t s_i > 0
    on = (M < 1) | ((M == 1) & (s < 0))
    slope = -np.sum(s[on]) / n
    moving = s != 0
    knots = (1 - M[moving]) / s[moving]
    ahead = knots > 0
    order = np.argsort(knots[ahead])
    knots, jumps = knots[ahead][order], np.abs(s[moving][ahead][order]) / n
    wd, dd = w @ d, d @ d
    lo = 0.0
    for k in range(len(knots) + 1):
        hi = knots[k] if k < len(knots) else np.inf
        if slope + lam * (wd + lo * dd) >= 0:  # g'(lo+) >= 0: the minimiser
            return float(lo)
        if lam * dd > 0:  # g' is affine on (lo, hi): its root, if it is in the piece
            t = -(slope + lam * wd) / (lam * dd)
            if t < hi:
                return float(t)
        elif k == len(knots):  # flat beyond the last breakpoint
            return float(lo)
        if k < len(knots):
            slope += jumps[k]  # each breakpoint raises the slope by |s_i| / n
            lo = hi
    return float(lo)
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: hinge-line-search, points: 4, tier: challenge, minutes: 60,
#   withdraw: [mlnotes.optim.margin_line_search, mlnotes.optim._hinge_line_search,
#              scipy.optimize]}
# TEST: 20 points with integer features (many margins exactly 1, on the kink), lam = 1,
# along the negative subgradient of J at w: against the chapter's line search
r_test = np.random.default_rng(41)
X_test = r_test.integers(-2, 3, size=(20, 3)).astype(float)
y_test = r_test.choice([-1.0, 1.0], 20)
w_test = np.array([1.0, -1.0, 0.0])
active_test = y_test * (X_test @ w_test) < 1
d_test = (
    X_test.T @ (y_test * active_test) / 20 - w_test + 0.3 * r_test.standard_normal(3)
)
t_test = hinge_line_search(X_test, y_test, w_test, d_test, 1.0)
assert isinstance(t_test, float), f"expected a float, got {type(t_test)}"
np.testing.assert_allclose(
    t_test, optim.margin_line_search(X_test, y_test, w_test, d_test, lam=1.0),
    rtol=1e-9, strict=True,
)

# HIDDEN TEST: lam = 0: g is piecewise linear and the step is the chapter's breakpoint
rng_h = np.random.default_rng(list(b"development secret"))
n_h, d_h = rng_h.integers(5, 200), rng_h.integers(1, 6)
X_h = rng_h.standard_normal((n_h, d_h)) * rng_h.uniform(0.1, 10)
y_h = 2.0 * rng_h.integers(0, 2, size=n_h) - 1
w_h, d_h_dir = rng_h.standard_normal(d_h), rng_h.standard_normal(d_h)
t_h = hinge_line_search(X_h, y_h, w_h, d_h_dir, 0.0)
assert isinstance(t_h, float), f"expected a float, got {type(t_h)}"
np.testing.assert_allclose(
    t_h,
    optim.margin_line_search(X_h, y_h, w_h, d_h_dir, lam=0.0),
    rtol=1e-9,
    strict=True,
)

# HIDDEN TEST: lam > 0, margins on the kink, the minimiser inside a piece (the root of
# g'): the chapter's step
rng_h = np.random.default_rng(list(b"development secret"))
for _ in range(1000):  # draw until the minimiser is not a breakpoint
    n_h, d_h = rng_h.integers(5, 40), rng_h.integers(1, 6)
    X_h = rng_h.integers(-2, 3, size=(n_h, d_h)) * 1.0
    y_h = 2.0 * rng_h.integers(0, 2, size=n_h) - 1
    w_h = rng_h.integers(-1, 2, size=d_h) * 1.0
    lam_h, d_h_dir = 10 ** rng_h.uniform(-1, 1), rng_h.standard_normal(d_h)
    ref_h = optim.margin_line_search(X_h, y_h, w_h, d_h_dir, lam=lam_h)
    s_h = y_h * (X_h @ d_h_dir)
    knots_h = (1 - y_h * (X_h @ w_h))[s_h != 0] / s_h[s_h != 0]
    if ref_h > 0 and np.min(np.abs(knots_h - ref_h), initial=np.inf) > 1e-6 * ref_h:
        break
t_h = hinge_line_search(X_h, y_h, w_h, d_h_dir, lam_h)
assert isinstance(t_h, float), f"expected a float, got {type(t_h)}"
np.testing.assert_allclose(t_h, ref_h, rtol=1e-9, strict=True)

# HIDDEN TEST: no t >= 0 gives a smaller g (margins on the kink, the minimiser inside a
# piece)
rng_h = np.random.default_rng(list(b"development secret"))
for _ in range(1000):  # draw until the minimiser is not a breakpoint
    n_h, d_h = rng_h.integers(5, 40), rng_h.integers(1, 6)
    X_h = rng_h.integers(-2, 3, size=(n_h, d_h)) * 1.0
    y_h = 2.0 * rng_h.integers(0, 2, size=n_h) - 1
    w_h = rng_h.integers(-1, 2, size=d_h) * 1.0
    lam_h, d_h_dir = 10 ** rng_h.uniform(-1, 1), rng_h.standard_normal(d_h)
    ref_h = optim.margin_line_search(X_h, y_h, w_h, d_h_dir, lam=lam_h)
    s_h = y_h * (X_h @ d_h_dir)
    knots_h = (1 - y_h * (X_h @ w_h))[s_h != 0] / s_h[s_h != 0]
    if ref_h > 0 and np.min(np.abs(knots_h - ref_h), initial=np.inf) > 1e-6 * ref_h:
        break


def g_h(t):
    v = w_h + t * d_h_dir
    return float(np.mean(losses.hinge(y_h * (X_h @ v))) + lam_h / 2 * v @ v)


t_h = hinge_line_search(X_h, y_h, w_h, d_h_dir, lam_h)
assert isinstance(t_h, float) and t_h >= 0, f"expected a float >= 0, got {t_h!r}"
T_h = np.r_[ref_h, ref_h * (1 + rng_h.uniform(-1e-3, 1e-3, size=20)),
            rng_h.uniform(0, 3 * ref_h + 1, size=200)]
better_h = [t for t in T_h if g_h(t) < g_h(t_h) - 1e-13 * abs(g_h(t_h))]
assert not better_h, f"g({t_h}) = {g_h(t_h)} but g is smaller at t = {better_h[:3]}"

# HIDDEN TEST: 0 along a subgradient (an ascent direction) and for a zero direction; a
# point on the kink at t = 0 is on its active side for s_i < 0
rng_h = np.random.default_rng(list(b"development secret"))
n_h, d_h = rng_h.integers(5, 100), rng_h.integers(1, 6)
X_h = rng_h.standard_normal((n_h, d_h))
y_h = 2.0 * rng_h.integers(0, 2, size=n_h) - 1
lam_h, w_h = 10 ** rng_h.uniform(-2, 1), rng_h.standard_normal(d_h)
on_h = y_h * (X_h @ w_h) < 1
up_h = -(X_h.T @ (y_h * on_h)) / n_h + lam_h * w_h
for dir_h in (up_h, 0 * up_h):
    t_h = hinge_line_search(X_h, y_h, w_h, dir_h, lam_h)
    assert isinstance(t_h, float) and t_h == 0.0, f"expected the step 0.0, got {t_h!r}"
X_k, y_k, w_k = np.eye(2), np.ones(2), np.eye(2)[0]  # margins 1 and 0 at w_k; lam = 0
dir_k = np.array([-rng_h.uniform(1, 2), rng_h.uniform(0.2, 0.9)])  # the step 0
t_k = hinge_line_search(X_k, y_k, w_k, dir_k, 0.0)
np.testing.assert_allclose(
    t_k, optim.margin_line_search(X_k, y_k, w_k, dir_k, lam=0.0), rtol=1e-9, strict=True
)

# %% [markdown]
# ```{exercise} Core · 4 points · about 50 min
# :label: ex-code-perceptron-margin
# How loose is the perceptron's bound on real data? Write `perceptron_margin(rows)`. Take
# the rows `rows` (an array of row indices, in the order given) of the breast-cancer data
# (`load_breast_cancer()`, labels `to_pm1(...)` of its `y`), standardise each of the 30
# features with the mean and standard deviation of those rows only (`np.std`, ddof = 0), and
# form the points $a_i = y_i (x_i, 1)$ of {eq}`eq-homogeneous-form`. Return the triple
# `(k, R, gamma)`: the number $k$ of mistakes the perceptron with bias makes (from $w = 0$,
# in the order of `rows`, until an epoch without a mistake); $R = \max_i \|a_i\|$; and the
# margin of the points, $\gamma = \max_{\|u\| = 1} \min_i u^\top a_i$
# ({ref}`sec-online-homogeneous`): the margin of the best separator, not of the one the
# perceptron finds. Hint: $\gamma = 1/\|u^\star\|$, where $u^\star$ minimises $\|u\|^2$
# subject to $u^\top a_i \ge 1$ for every $i$ (why?); solve that problem by any method
# (`scipy.optimize.minimize` with `method="SLSQP"` will do). The tests draw subsamples of 30
# to 200 rows, on which the data are separable, and want $k$ exactly, $R$ to a relative
# $10^{-9}$ and $\gamma$ to a relative $10^{-3}$; they check $k \le (R/\gamma)^2$. By what
# factor is the bound {eq}`eq-perceptron-bound` above $k$ on a few subsamples? While this is
# graded, `mlnotes.online.perceptron`, `mlnotes.online._mistake_driven` and
# `mlnotes.online.perceptron_bound` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def perceptron_margin(rows):
    # BEGIN SOLUTION
    from scipy.optimize import minimize

    data = load_breast_cancer()
    X, y = data.X[rows], to_pm1(data.y[rows])
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    A = y[:, None] * np.hstack([X, np.ones((len(y), 1))])
    w, k, clean = np.zeros(A.shape[1]), 0, False
    while not clean:  # the data are separable: the perceptron stops
        clean = True
        for a in A:
            if w @ a <= 0:
                w, k, clean = w + a, k + 1, False
    R = float(np.max(np.linalg.norm(A, axis=1)))
    # min ||u||^2 subject to A u >= 1, from the perceptron's separator scaled to be
    # feasible
    res = minimize(
        lambda u: u @ u,
        w / np.min(A @ w),
        jac=lambda u: 2 * u,
        method="SLSQP",
        constraints=[
            {"type": "ineq", "fun": lambda u: A @ u - 1.0, "jac": lambda u: A}
        ],
        options={"ftol": 1e-12, "maxiter": 1000},
    )
    return k, R, float(1.0 / np.linalg.norm(res.x))
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: perceptron-margin-experiment, points: 4, tier: core, minutes: 50,
#   data: breast_cancer,
#   withdraw: [mlnotes.online.perceptron, mlnotes.online._mistake_driven,
#              mlnotes.online.perceptron_bound]}
# TEST: every fourth row: k and R against the chapter's perceptron; gamma at least the
# margin of the perceptron's own separator and at most min ||a_i||; k <= (R / gamma)^2
rows_test = np.arange(0, 569, 4)
k_test, R_test, gamma_test = perceptron_margin(rows_test)
bc_test = load_breast_cancer()
X_test = bc_test.X[rows_test]
X_test = (X_test - X_test.mean(axis=0)) / X_test.std(axis=0)
y_test = to_pm1(bc_test.y[rows_test])
A_test = y_test[:, None] * np.hstack([X_test, np.ones((len(y_test), 1))])
fit_test = online.perceptron(X_test, y_test, fit_intercept=True, n_epochs=10_000)
assert k_test == fit_test.n_mistakes, (
    f"expected {fit_test.n_mistakes} mistakes, got {k_test}"
)
np.testing.assert_allclose(R_test, np.max(np.linalg.norm(A_test, axis=1)), rtol=1e-9,
                           strict=True)
u_test = np.append(fit_test.w, fit_test.b)
assert isinstance(gamma_test, float), f"expected a float, got {type(gamma_test)}"
assert np.min(A_test @ u_test) / np.linalg.norm(u_test) <= gamma_test * (1 + 1e-9), (
    f"gamma = {gamma_test}, but the perceptron's separator has a larger margin"
)
assert gamma_test <= np.min(np.linalg.norm(A_test, axis=1)), f"gamma = {gamma_test}"
assert k_test <= (R_test / gamma_test) ** 2, f"k = {k_test} > (R / gamma)^2"

# HIDDEN TEST: a random subsample in a random order: k, R and gamma (by least-distance
# programming, Lawson and Hanson's NNLS), and k <= (R / gamma)^2
from scipy.optimize import nnls

rng_h = np.random.default_rng(list(b"development secret"))
rows_h = rng_h.choice(569, size=rng_h.integers(80, 200), replace=False)
k_h, R_h, gamma_h = perceptron_margin(rows_h)
bc_h = load_breast_cancer()
X_h = (bc_h.X[rows_h] - bc_h.X[rows_h].mean(axis=0)) / bc_h.X[rows_h].std(axis=0)
y_h = to_pm1(bc_h.y[rows_h])
A_h = y_h[:, None] * np.hstack([X_h, np.ones((len(y_h), 1))])
E_h = np.vstack([A_h.T, np.ones((1, len(y_h)))])
res_h = E_h @ nnls(E_h, np.eye(32)[31])[0] - np.eye(32)[31]
fit_h = online.perceptron(X_h, y_h, fit_intercept=True, n_epochs=10_000)
assert k_h == fit_h.n_mistakes, f"expected {fit_h.n_mistakes} mistakes, got {k_h}"
np.testing.assert_allclose(
    R_h, np.max(np.linalg.norm(A_h, axis=1)), rtol=1e-9, strict=True
)
np.testing.assert_allclose(gamma_h, abs(res_h[31]) / np.linalg.norm(res_h[:31]),
                           rtol=1e-3, strict=True)
assert k_h <= (R_h / gamma_h) ** 2, f"k = {k_h} > (R / gamma)^2"

# HIDDEN TEST: the same rows in two orders: R and gamma do not depend on the order, k
# does (each is the chapter's perceptron's), and gamma is the least-distance margin
from scipy.optimize import nnls

rng_h = np.random.default_rng(list(b"development secret"))
rows_h = rng_h.choice(569, size=rng_h.integers(80, 200), replace=False)
bc_h = load_breast_cancer()
X_h = (bc_h.X[rows_h] - bc_h.X[rows_h].mean(axis=0)) / bc_h.X[rows_h].std(axis=0)
y_h = to_pm1(bc_h.y[rows_h])
A_h = y_h[:, None] * np.hstack([X_h, np.ones((len(y_h), 1))])
E_h = np.vstack([A_h.T, np.ones((1, len(y_h)))])
res_h = E_h @ nnls(E_h, np.eye(32)[31])[0] - np.eye(32)[31]
perm_h = rng_h.permutation(len(rows_h))
out_h = [perceptron_margin(rows_h), perceptron_margin(rows_h[perm_h])]
for (k_h, R_h, gamma_h), p_h in zip(
    out_h, (np.arange(len(rows_h)), perm_h), strict=True
):
    fit_h = online.perceptron(X_h[p_h], y_h[p_h], fit_intercept=True, n_epochs=10_000)
    assert k_h == fit_h.n_mistakes, f"expected {fit_h.n_mistakes} mistakes, got {k_h}"
    np.testing.assert_allclose(R_h, np.max(np.linalg.norm(A_h, axis=1)), rtol=1e-9,
                               strict=True)
    np.testing.assert_allclose(gamma_h, abs(res_h[31]) / np.linalg.norm(res_h[:31]),
                               rtol=1e-3, strict=True)

# HIDDEN TEST: a small subsample (30 to 80 rows, wider margins): k, R and gamma, and
# k <= (R / gamma)^2
from scipy.optimize import nnls

rng_h = np.random.default_rng(list(b"development secret"))
rows_h = rng_h.choice(569, size=rng_h.integers(30, 80), replace=False)
k_h, R_h, gamma_h = perceptron_margin(rows_h)
bc_h = load_breast_cancer()
X_h = (bc_h.X[rows_h] - bc_h.X[rows_h].mean(axis=0)) / bc_h.X[rows_h].std(axis=0)
y_h = to_pm1(bc_h.y[rows_h])
A_h = y_h[:, None] * np.hstack([X_h, np.ones((len(y_h), 1))])
E_h = np.vstack([A_h.T, np.ones((1, len(y_h)))])
res_h = E_h @ nnls(E_h, np.eye(32)[31])[0] - np.eye(32)[31]
fit_h = online.perceptron(X_h, y_h, fit_intercept=True, n_epochs=10_000)
assert k_h == fit_h.n_mistakes, f"expected {fit_h.n_mistakes} mistakes, got {k_h}"
np.testing.assert_allclose(
    R_h, np.max(np.linalg.norm(A_h, axis=1)), rtol=1e-9, strict=True
)
np.testing.assert_allclose(gamma_h, abs(res_h[31]) / np.linalg.norm(res_h[:31]),
                           rtol=1e-3, strict=True)
assert k_h <= (R_h / gamma_h) ** 2, f"k = {k_h} > (R / gamma)^2"

# %% [markdown]
# (sec-online-summary)=
# ## Summary
#
# - In homogeneous form, $a_i = y_i(x_i, 1)$, classification is the system $\tilde w^\top a_i > 0$.
# - The perceptron adds mistaken points and makes at most $(R/\gamma)^2$ mistakes on separable
#   data {cite}`rosenblatt1958perceptron,novikoff1962convergence`; on non-separable data it
#   never stops.
# - Winnow multiplies weights and makes at most $2\ln N/\rho^2$ mistakes: logarithmic in the
#   dimension, the algorithm of choice for sparse targets.
# - Surrogate losses of the margin upper-bound the zero-one loss (except the perceptron loss);
#   convex ones are calibrated iff differentiable at 0 with negative slope.
# - SGD needs only $\varphi'(M)$; the delta rule, the perceptron and logistic regression are SGD
#   with particular losses. Steps: $\eta < 2/\lambda_{\max}$ for stability, Robbins-Monro for
#   convergence {cite}`bottou2010large`; standardise features.
# - Subgradients handle kinks; a subgradient step may go uphill but still approaches the optimum,
#   and the subgradient method converges with diminishing steps.
#
# ## References
#
# The perceptron is due to {cite}`rosenblatt1958perceptron` and its convergence proof to
# {cite}`novikoff1962convergence`; winnow to {cite}`littlestone1988learning`, and the
# multiplicative-weights view to {cite}`arora2012multiplicative`. Calibration of convex
# surrogates is {cite}`bartlett2006convexity`; the step-size conditions go back to
# {cite}`robbins1951stochastic`, and {cite}`bottou2010large` explains why SGD suits large data
# sets. {cite}`boyd2003subgradient` prove the subgradient-method bound.
