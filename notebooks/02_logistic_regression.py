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
#   enumerator: '2.%s'
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
# (chap-logistic)=
# # Logistic regression by Newton's method
#
# Least squares fits numbers. Classification has labels, and the natural model for a label is
# a coin whose bias depends on the features. This chapter builds that model, the **logistic
# regression**, writes its log-likelihood, and maximises it twice: by gradient ascent, which is
# simple and slow, and by Newton's method, which statisticians call **iteratively reweighted
# least squares** (IRLS) because every Newton step is a weighted least-squares fit. Every step
# of the derivation is checked numerically, and the fitted models are compared with numbers
# published by Stata (through Greene's textbook) and by *The Elements of Statistical Learning*.
#
# **What you will learn**
#
# - why least squares is maximum likelihood for Gaussian noise, and which likelihood suits
#   labels $y \in \{0, 1\}$;
# - the sigmoid, its derivative $g(1 - g)$, its symmetry, and why the log-odds are linear;
# - the gradient $X^\top (y - g)$ and Hessian $-X^\top R X$ of the log-likelihood, and why the
#   log-likelihood is concave;
# - Newton's method, its rewriting as IRLS, and its quadratic convergence next to gradient
#   ascent's linear one;
# - the log-loss of labels $\pm 1$ as the same objective, and as a smooth surrogate of the 0-1 loss;
# - what goes wrong when the classes are separable, and how $L_2$ regularisation fixes it;
# - misclassification costs, probit versus logit (the probit fitted by Newton's method and by
#   Fisher scoring, against Stata), and the multiclass (softmax) model;
# - exponential families and generalised linear models: least squares, the logit and the
#   probit as one IRLS (Fisher scoring).

# %%
import textwrap
import warnings

import matplotlib.pyplot as plt
import numpy as np

from mlnotes import claims, datasets, plots
from mlnotes import logistic as lg

plots.setup()
np.set_printoptions(precision=4, suppress=True)
rng = np.random.default_rng(2)

# %% [markdown]
# (sec-logistic-likelihood)=
# ## From least squares to a likelihood for labels
#
# Suppose the targets are a linear function of the features plus Gaussian noise,
# $y_i = w^\top x_i + \varepsilon_i$ with independent $\varepsilon_i \sim \mathcal N(0, \sigma^2)$.
# The likelihood of the data is the product of the $n$ normal densities, and its logarithm is
#
# $$
# \log \prod_{i=1}^n \frac{1}{\sqrt{2\pi\sigma^2}} e^{-(y_i - w^\top x_i)^2 / (2\sigma^2)}
# = -\frac n2 \log(2\pi\sigma^2) - \frac{1}{2\sigma^2}\, \|y - Xw\|^2 .
# $$ (eq-gaussian-loglik)
#
# The first term does not depend on $w$, so maximising the likelihood is minimising the residual
# sum of squares: least squares is maximum likelihood under Gaussian noise.

# %%
claims.verify("eq-gaussian-loglik")

# %% [markdown]
# For labels $y_i \in \{0, 1\}$ this model makes little sense: the noise would have to take
# exactly the two values that move $w^\top x_i$ onto 0 or 1, and the fitted value $w^\top x$ is
# not a probability (it leaves $[0, 1]$ as soon as $x$ is far enough out). The distribution of a
# two-valued outcome is a **Bernoulli** distribution with some probability $f(x) = P(y = 1 \mid x)$,
#
# $$
# P(y \mid x) = f(x)^{y}\, (1 - f(x))^{1 - y}, \qquad y \in \{0, 1\},
# $$ (def-bernoulli)
#
# and the log-likelihood of independent samples is
# $\sum_i y_i \log f(x_i) + (1 - y_i) \log (1 - f(x_i))$. It remains to tie $f$ to a linear score.
#
# (sec-sigmoid)=
# ## The sigmoid and the log-odds
#
# Logistic regression assumes that the **log-odds** of the event $y = 1$ are linear in the
# features, $\log \frac{f(x)}{1 - f(x)} = w^\top x$. Solving for $f$ gives the **sigmoid**
# (logistic function) of the score $a = w^\top x$:
#
# $$
# f(x) = g(w^\top x), \qquad g(a) = \frac{1}{1 + e^{-a}} .
# $$ (def-sigmoid)
#
# Conversely, the log-odds of the sigmoid are its argument,
#
# $$
# \log \frac{g(a)}{1 - g(a)} = a ,
# $$ (eq-log-odds)
#
# which sympy confirms:

# %%
claims.verify("eq-log-odds")

# %% [markdown]
# Two properties of $g$ carry the whole chapter. Its derivative is expressed through $g$ itself,
#
# $$
# g'(a) = \frac{e^{-a}}{(1 + e^{-a})^2} = g(a)\,\bigl(1 - g(a)\bigr),
# $$ (eq-sigmoid-derivative)

# %%
claims.verify("eq-sigmoid-derivative")

# %% [markdown]
# and it is symmetric about $(0, \tfrac12)$: the probability of the other class is the sigmoid
# of the negated score,
#
# $$
# 1 - g(a) = g(-a) .
# $$ (eq-sigmoid-symmetry)

# %%
claims.verify("eq-sigmoid-symmetry")

# %% [markdown]
# The symmetry is also what makes the computation safe. The textbook formula
# $1/(1 + e^{-a})$ overflows for $a < -709$, and $1 - g(a)$ computed by subtraction loses all
# its digits once $g(a)$ rounds to 1 (from $a \approx 37$ on). `mlnotes.logistic.sigmoid`
# evaluates $e^{-|a|}$ only, and the log-likelihood uses
# $\log g(a) = -\log(1 + e^{-a})$ through `numpy.logaddexp`, exact at any $a$:

# %%
a = np.array([-800.0, -40.0, 0.0, 40.0, 800.0])
with np.errstate(all="raise"):  # any overflow or underflow warning would raise here
    print("a        ", " ".join(f"{v:11.4g}" for v in a))
    print("g(a)     ", " ".join(f"{v:11.4g}" for v in lg.sigmoid(a)))
    print("log g(a) ", " ".join(f"{v:11.4g}" for v in lg.log_sigmoid(a)))
    print(
        f"1 - g(40) by subtraction: {1 - lg.sigmoid(40.0):.4g},  as g(-40): "
        f"{lg.sigmoid(-40.0):.4g}"
    )

# %% [markdown]
# The Bernoulli log-likelihood of the model, with $g_i = g(w^\top x_i)$ and $a_i = w^\top x_i$, is
#
# $$
# \begin{aligned}
# \ell(w) &= \sum_{i=1}^n \bigl[y_i \log g_i + (1 - y_i) \log (1 - g_i)\bigr] \\
#         &= \sum_{i=1}^n \bigl[y_i a_i - \log(1 + e^{a_i})\bigr] .
# \end{aligned}
# $$ (def-loglik)
#
# The second form follows from {eq}`eq-sigmoid-symmetry` and {eq}`eq-log-odds`:
# $\log(1 - g_i) = -\log(1 + e^{a_i})$ and $\log g_i - \log(1 - g_i) = a_i$ ({numref}`fig-sigmoid`).

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Left: the sigmoid $g(a)$ and its derivative $g(a)(1 - g(a))$. Right: the log-loss, in bits, lies above the 0-1 loss of the margin $M$.", "name": "fig-sigmoid"}, "image": {"alt": "Left panel an S-shaped curve and a bell-shaped derivative; right panel a smooth decreasing loss above a step function."}} tags=["hide-input"]
fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(9.0, 3.6))
s = np.linspace(-6, 6, 400)
ax0.plot(s, lg.sigmoid(s), label="$g(a)$")
ax0.plot(s, lg.sigmoid(s) * (1 - lg.sigmoid(s)), label="$g'(a) = g(a)(1 - g(a))$")
ax0.axhline(0.5, color="grey", lw=0.8, ls=":")
ax0.set_xlabel("score $a = w^\\top x$")
ax0.set_title("the sigmoid")
ax0.legend(loc="upper left")
M = np.linspace(-4, 4, 400)
ax1.plot(
    M,
    lg.log_loss(np.ones_like(M), M) / np.log(2),
    label="log-loss $\\log_2(1 + e^{-M})$",
)
ax1.plot(
    M, (M <= 0).astype(float), label="0-1 loss $[M \\leq 0]$", drawstyle="steps-post"
)
ax1.set_xlabel("margin $M = y^{\\pm} f(x)$")
ax1.set_title("log-loss and 0-1 loss")
ax1.legend()
fig.tight_layout()
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-sigmoid
# Left: the sigmoid $g(a)$ and its derivative $g(a)(1 - g(a))$. Right: the log-loss, in bits, lies above the 0-1 loss of the margin $M$.
# :::

# %% [markdown]
# (sec-logistic-gradient)=
# ## Gradient and gradient ascent
#
# Differentiate {eq}`def-loglik` with the chain rule and {eq}`eq-sigmoid-derivative`:
# $\partial_{w} \log g_i = (1 - g_i) x_i$ and $\partial_w \log(1 - g_i) = -g_i x_i$, so the
# terms combine into $\bigl[y_i (1 - g_i) - (1 - y_i) g_i\bigr] x_i = (y_i - g_i) x_i$. Stacking,
# with $g = (g_1, \dots, g_n)^\top$,
#
# $$
# \nabla_w \ell(w) = \sum_{i=1}^n (y_i - g_i)\, x_i = X^\top (y - g) .
# $$ (eq-loglik-gradient)
#
# The gradient is a sum of residuals $y_i - g_i$, label minus predicted probability, weighted
# by the features: the same shape as the least-squares gradient $X^\top(y - Xw)$.

# %%
claims.verify("eq-loglik-gradient")

# %% [markdown]
# ```{admonition} Erratum in the notes
# :class: warning
# Notes 000 (chapter 3) write the likelihood $C(w) = P(y \mid X, w)$ and then differentiate
# "$C$" to get $X^\top(y - g)$. That is the gradient of $\log C$; the gradient of $C$ is
# $C(w)\, X^\top (y - g)$. Both vanish at the same point, but gradient ascent should climb the
# concave $\log C$. The same notes later write the log-loss as $-C(w)$ where $-\log C(w)$ is
# meant ({ref}`sec-logloss`). All errata are collected in the appendix.
# ```
#
# **Gradient ascent** follows the gradient with a step size $\eta$:
#
# $$
# w^{t+1} = w^t + \eta\, X^\top (y - g^t) .
# $$ (def-gradient-ascent)
#
# Every step costs two matrix-vector products. How large may $\eta$ be? The next section shows
# that the curvature of $\ell$ is $X^\top R X$ with $R_{ii} = g_i(1 - g_i) \le \frac14$, so it never
# exceeds $\|X\|_2^2 / 4$, and $\eta = 4 / \|X\|_2^2$ makes every step an ascent step. That is
# `gradient_ascent`'s default.
#
# (sec-newton)=
# ## Newton's method
#
# In one dimension, Newton's method finds a root of a function $h$ by replacing $h$ with its
# tangent: $\theta' = \theta - h(\theta)/h'(\theta)$. To find a maximum we want a root of the
# derivative, $h = f'$:
#
# $$
# \theta' = \theta - \frac{f'(\theta)}{f''(\theta)} ,
# $$ (def-newton-1d)
#
# which is also the maximiser of the second-order Taylor model of $f$ at $\theta$. In $d$
# dimensions the model is $f(w) + \nabla f^\top h + \frac12 h^\top \nabla^2 f\, h$ and
#
# $$
# w' = w - \bigl(\nabla^2 \ell(w)\bigr)^{-1} \nabla \ell(w) .
# $$ (def-newton-step)
#
# We need the Hessian. Differentiating $\sum_i (y_i - g_i) x_{ij}$ once more with respect to
# $w_k$ gives $-\sum_i g_i(1 - g_i) x_{ij} x_{ik}$, that is
#
# $$
# \begin{gathered}
# \nabla^2_w \ell(w) = -\sum_{i=1}^n g_i (1 - g_i)\, x_i x_i^\top = -X^\top R X, \\
# R = \diag\bigl(g_1(1 - g_1), \dots, g_n(1 - g_n)\bigr) .
# \end{gathered}
# $$ (eq-loglik-hessian)

# %%
claims.verify("eq-loglik-hessian")

# %% [markdown]
# For any direction $v$,
#
# $$
# v^\top \nabla^2 \ell(w)\, v = -\sum_{i=1}^n g_i(1 - g_i)\,(x_i^\top v)^2 \le 0 ,
# $$ (eq-hessian-nsd)
#
# so $\ell$ is **concave** everywhere: a point where the gradient vanishes is a global maximum,
# and if $X$ has full column rank the inequality is strict ($g_i(1-g_i) > 0$), $\ell$ is strictly
# concave and the maximum, when it exists, is unique. (When it does not exist is the subject of
# {ref}`sec-separation`.)

# %%
claims.verify("eq-hessian-nsd")

# %% [markdown]
# Put together, Newton's step for logistic regression is
# $w' = w + (X^\top R X)^{-1} X^\top (y - g)$. The implementation never forms the $n \times n$
# matrix $R$: it scales the rows of $X$ by $\sqrt{R_{ii}}$ and computes
# $(R^{1/2}X)^\top(R^{1/2}X)$, a $d \times d$ product, then solves with a Cholesky factor.
#
# (sec-irls)=
# ## Newton's step is a weighted least-squares fit (IRLS)
#
# Multiply out: $w' = (X^\top R X)^{-1}\bigl[X^\top R X w + X^\top (y - g)\bigr]$,
# that is, $w' = (X^\top R X)^{-1} X^\top R\, \bigl[X w + R^{-1} (y - g)\bigr]$. With the **adjusted response**
# $z = Xw + R^{-1}(y - g)$, that is $z_i = w^\top x_i + (y_i - g_i)/(g_i(1 - g_i))$, the new
# iterate is exactly the weighted least-squares solution with weights $R_{ii}$:
#
# $$
# \begin{aligned}
# w + (X^\top R X)^{-1} X^\top (y - g) &= (X^\top R X)^{-1} X^\top R z \\
# &= \argmin_v \sum_{i=1}^n R_{ii}\, (z_i - v^\top x_i)^2 .
# \end{aligned}
# $$ (eq-irls-step)
#
# Each iteration recomputes the weights $R$ and the response $z$ from the current $w$ and solves
# a least-squares problem: iteratively reweighted least squares. The claim computes the left
# side by Newton's formula and the right side with a least-squares solver on
# $(R^{1/2}X, R^{1/2}z)$.

# %%
claims.verify("eq-irls-step")

# %% [markdown]
# `mlnotes.logistic.irls` solves the weighted normal equations; it forms $Rz$ as
# $R X w + (y - g)$, so that a weight $g_i(1-g_i)$ rounding to 0 never divides anything.
# `mlnotes.logistic.newton` solves for the step instead; both halve a step that would decrease
# $\ell$, which only happens far from the optimum.
#
# (sec-convergence)=
# ### Linear versus quadratic convergence
#
# On the South African heart disease data of {ref}`sec-logistic-real-data` (features
# standardised, so that gradient ascent has a fair chance), the gap $\ell(w^\star) - \ell(w^t)$
# shrinks by a constant factor per gradient step, but squares at each Newton step: the number
# of correct digits doubles, and six iterations reach machine precision ({numref}`fig-newton-vs-gradient`).

# %%
heart = datasets.load_saheart()
esl_columns = ("sbp", "tobacco", "ldl", "famhist", "obesity", "alcohol", "age")
cols = [heart.feature_names.index(c) for c in esl_columns]
Z = heart.X[:, cols]
Zs = np.column_stack([np.ones(len(heart.y)), (Z - Z.mean(0)) / Z.std(0)])

nt = lg.newton(Zs, heart.y)
ga = lg.gradient_ascent(Zs, heart.y, tol=1e-10, max_iter=2000)
best = max(nt.objective.max(), ga.objective.max())  # the best value either method found
print(f"Newton: {nt.n_iter} iterations, converged={nt.converged}")


# a gap below 1e-9 is at the level where rounding (which differs between machines) sets
# its digits
def gap(o):
    return f"{best - o:.1e}" if best - o >= 1e-9 else "< 1e-9"


print(
    f"gradient ascent: {ga.n_iter} iterations, converged={ga.converged}, final gap "
    f"{gap(ga.objective[-1])}"
)
print("Newton gaps:", ", ".join(gap(o) for o in nt.objective[:-1]))

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "The gap $\\ell(w^\\star) - \\ell(w^t)$ on a log scale: gradient ascent shrinks it by a constant factor per step, Newton's method squares it.", "name": "fig-newton-vs-gradient"}, "image": {"alt": "Semilog plot: a straight slowly falling line for gradient ascent and a steeply plunging curve for Newton."}} tags=["hide-input"]
fig, ax = plt.subplots()
floor = 1e-16 * abs(best)
ax.semilogy(
    np.maximum(best - ga.objective, floor),
    label="gradient ascent, $\\eta = 4/\\|X\\|_2^2$",
)
ax.semilogy(np.maximum(best - nt.objective, floor), "o-", label="Newton / IRLS")
ax.set_xlabel("iteration $t$")
ax.set_ylabel("$\\ell(w^\\star) - \\ell(w^t)$")
ax.set_xlim(-3, ga.n_iter + 10)
ax.set_title("objective gap (clipped at machine precision)")
ax.legend()
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-newton-vs-gradient
# The gap $\ell(w^\star) - \ell(w^t)$ on a log scale: gradient ascent shrinks it by a constant factor per step, Newton's method squares it.
# :::

# %% [markdown]
# (sec-logloss)=
# ## The log-loss
#
# Write the labels as $y^\pm = 2y - 1 \in \{-1, +1\}$. By {eq}`eq-sigmoid-symmetry`,
# $P(y = 1 \mid x) = g(f(x))$ and $P(y = 0 \mid x) = g(-f(x))$ combine into
# $P(y \mid x) = g(y^\pm f(x))$, and the negative log-likelihood becomes a sum of a loss of the
# **margin** $M = y^\pm f(x)$:
#
# $$
# \sum_{i=1}^n \log\bigl(1 + e^{-y^\pm_i\, w^\top x_i}\bigr) = -\ell(w), \qquad y^\pm = 2y - 1 .
# $$ (eq-logloss-nll)

# %%
claims.verify("eq-logloss-nll")

# %% [markdown]
# Without the $\pm 1$ labels, the same quantity reads
#
# $$
# -\ell(w) = \sum_{i=1}^n \bigl[\log(1 + e^{-a_i}) + (1 - y_i)\, a_i\bigr], \qquad a_i = w^\top x_i ,
# $$ (eq-nll-simplified)
#
# because $-\log(1 - g_i) = \log(1 + e^{-a_i}) + a_i$.

# %%
claims.verify("eq-nll-simplified")

# %% [markdown]
# ```{admonition} Errata in the notes
# :class: warning
# Notes 003 (section 1.4) derive {eq}`eq-nll-simplified` with a logarithm missing in the
# intermediate line, and then "redefine $y' = (y + 1)/2$, i.e. $y' \in \{\pm 1\}$". The map from
# $\{0, 1\}$ to $\{-1, +1\}$ is $y' = 2y - 1$; $(y + 1)/2$ is its inverse. Notes 000 write
# the log-loss as $L(w) = -C(w)$ with $C$ the likelihood; it is $-\log C(w)$.
# ```
#
# Measured in bits, the log-loss equals 1 at $M = 0$ and lies above the 0-1 loss everywhere,
#
# $$
# \log_2\bigl(1 + e^{-M}\bigr) \ge [M \le 0] ,
# $$ (eq-logloss-surrogate)
#
# so the average training log-loss (in bits) bounds the training error. Unlike the 0-1 loss it
# is smooth and convex, and it keeps pushing correctly classified points with small margins
# further out (figure above, right). Chapter 3 compares it with the other surrogate losses.

# %%
claims.verify("eq-logloss-surrogate")

# %% [markdown]
# (sec-logistic-real-data)=
# ## Real data and published numbers
#
# ### Spector and Mazzeo: the Stata/Greene logit
#
# The grade data of {cite}`spector1980probit` (32 students: grade point average GPA, score on
# an economics test TUCE, participation in a new teaching method PSI; the outcome is whether the
# grade improved) are the logit example of {cite}`greene2003econometric`. Stata's published
# estimates are printed next to ours.

# %%
spector = datasets.load_spector()
Xsp = np.column_stack(
    [spector.X, np.ones(len(spector.y))]
)  # Stata's order: GPA, TUCE, PSI, const
fit = lg.irls(Xsp, spector.y)
stata_w = [2.82611297201, 0.0951576702557, 2.37868772835, -13.0213483201]
stata_se = [1.26294, 0.141554, 1.06456, 4.93132]
print(f"IRLS: {fit.n_iter} iterations, converged={fit.converged}")
print(
    f"{'':6s} {'coef (ours)':>13s} {'coef (Stata)':>13s} {'s.e. (ours)':>12s} "
    f"{'s.e. (Stata)':>12s}"
)
for name, w_, ws, se_, ss in zip(
    ("GPA", "TUCE", "PSI", "const"), fit.w, stata_w, fit.se, stata_se, strict=True
):
    print(f"{name:6s} {w_:13.6f} {ws:13.6f} {se_:12.6f} {ss:12.6f}")
print(f"log-likelihood: ours {fit.log_likelihood:.7f}, published -12.8896335")
rel_w = np.max(np.abs(fit.w / np.array(stata_w) - 1))
print(f"largest relative difference of the coefficients: {rel_w:.1e}")

# %% [markdown]
# Coefficients and standard errors agree to 6 significant digits, in 7 Newton iterations, and
# the log-likelihood to 7. The published coefficients differ from ours in the 7th digit. Ours
# are at the maximum on these data (the gradient of $\ell$ there is $10^{-13}$); the published
# ones are not quite, yet $\ell$ at them equals our maximum to 13 digits. That is what an
# optimiser stopping on the change of $\ell$ produces: the log-likelihood is flat at the top, so
# it is a poor stopping criterion when the coefficients are what we want. `irls` stops on the
# size of the step instead.
#
# ### South African heart disease: ESL Table 4.2
#
# {cite}`hastie2009elements` (section 4.4.2) fit coronary heart disease (`chd`) on seven risk
# factors of the data of {cite}`rousseauw1983coronary` and print coefficients, standard errors
# and Z scores (coefficient over standard error) in their Table 4.2:

# %%
esl_table_4_2 = [  # as printed in ESL, 2nd ed., Table 4.2
    ("(Intercept)", -4.130, 0.964, -4.285),
    ("sbp", 0.006, 0.006, 1.023),
    ("tobacco", 0.080, 0.026, 3.034),
    ("ldl", 0.185, 0.057, 3.219),
    ("famhist", 0.939, 0.225, 4.178),
    ("obesity", -0.035, 0.029, -1.187),
    ("alcohol", 0.001, 0.004, 0.136),
    ("age", 0.043, 0.010, 4.184),
]
Xh = np.column_stack([np.ones(len(heart.y)), Z])
fit_h = lg.irls(Xh, heart.y)
print(f"IRLS: {fit_h.n_iter} iterations, converged={fit_h.converged}")
print(
    f"{'':12s} {'coef':>7s} {'ESL':>7s} {'s.e.':>7s} {'ESL':>7s} {'Z':>7s} {'ESL':>7s}"
)
for (name, c, s_, z_), w_, se_, zz in zip(
    esl_table_4_2, fit_h.w, fit_h.se, fit_h.z, strict=True
):
    print(f"{name:12s} {w_:7.3f} {c:7.3f} {se_:7.3f} {s_:7.3f} {zz:7.3f} {z_:7.3f}")

# %% [markdown]
# Coefficients and standard errors agree to every printed digit. The Z scores of four rows
# differ from ours in the third decimal (4.283 against 4.285 for the intercept, 4.181 against
# 4.184 for age); statsmodels gives our values to 9 digits (the tests check this), so the
# difference lies in the book's rounding or software, not in the model. The table is also a
# lesson in interpretation: `sbp` and `obesity` are not significant and `obesity` even has a
# negative sign, because the risk factors are correlated with each other (ESL discusses this).
#
# (sec-separation)=
# ## Separable data: when the maximum does not exist
#
# Suppose a direction $v$ separates the classes: $y^\pm_i\, v^\top x_i > 0$ for every $i$. Along
# the ray $w = t v$ every term of {eq}`eq-logloss-nll` decreases to 0 as $t \to \infty$, so
#
# $$
# \begin{gathered}
# y^\pm_i\, x_i^\top v > 0 \ \ \forall i \quad\Longrightarrow \\
# \ell(tv) = -\sum_{i=1}^n \log\bigl(1 + e^{-t\, y^\pm_i x_i^\top v}\bigr) \nearrow 0 = \sup_w \ell(w),
# \end{gathered}
# $$ (eq-separable-sup)
#
# and the supremum 0 is never attained (every term is strictly positive at finite $w$). The
# maximum likelihood estimate does not exist; any maximiser of $\ell$ runs off to infinity, the
# fitted probabilities become 0 and 1, and the Fisher information $X^\top R X$ vanishes along
# $v$. The same happens with **quasi-complete** separation, where $y^\pm_i x_i^\top v \ge 0$ with
# some ties, and by {cite}`albert1984existence` these two cases are the only ones: the MLE exists
# exactly when no $v$ with $Xv \ne 0$ has $y^\pm_i x_i^\top v \ge 0$ for all $i$.

# %%
claims.verify("eq-separable-sup")

# %% [markdown]
# Newton's method cannot converge on such data, and what it does instead is treacherous: the
# steps do not shrink but the gradient and the change in $\ell$ do, so a stopping rule on either
# would declare convergence at an arbitrary point with huge weights and standard errors. `irls`
# watches for fitted probabilities within $10^{-13}$ of a label, decides separability exactly by
# the linear program of {cite}`konis2007linear` (is there a $v$ with $y^\pm_i x_i^\top v \ge 0$ for
# all $i$ and $\sum_i y^\pm_i x_i^\top v > 0$?), and if so stops with a warning,
# `converged=False`, `separable=True` and infinite standard errors:

# %%
x2 = rng.normal(size=(40, 2))
y2 = (x2[:, 0] - 0.7 * x2[:, 1] > 0).astype(float)  # separable by construction
X2 = np.column_stack([np.ones(40), x2])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    sep = lg.irls(X2, y2)
for w_ in caught:
    print(textwrap.fill(f"{w_.category.__name__}: {w_.message}", 88))
print(
    f"converged={sep.converged}  separable={sep.separable}  after {sep.n_iter} "
    f"iterations, "
    f"|w| = {np.linalg.norm(sep.w):.1f}, se = {sep.se}"
)

# %% [markdown]
# The remedy is to say how large we believe $w$ can be. Subtracting $\frac\lambda2\|w\|^2$
# (a Gaussian prior on $w$, see Chapter 1 for the same idea in ridge regression) adds $\lambda I$
# to the negative Hessian, which makes the objective strongly concave and its maximiser unique
# and finite for every data set; it is the solution of
#
# $$
# X^\top (y - g) = \lambda w \qquad (\lambda > 0) .
# $$ (eq-ridge-stationarity)
#
# The claim fits separable instances with `irls(..., lam=...)` and checks this stationarity
# equation; `newton` and `irls` use $X^\top R X + \lambda I$ and $X^\top(y - g) - \lambda w$.

# %%
claims.verify("eq-ridge-stationarity")

ridge = lg.irls(X2, y2, lam=1.0)
print(
    f"lam = 1: converged={ridge.converged} in {ridge.n_iter} iterations, w = {ridge.w}"
)

# %% [markdown]
# The figure compares a fit on overlapping real data (left: SAheart, `chd` against age and LDL
# cholesterol) with the separable toy data (right). The probability contours of the real fit
# are spread out: far from the boundary the model is still unsure. On separable data the
# unregularised iterate (dashed line) is a cliff, all its probabilities 0 or 1, while the
# regularised fit keeps a gradual transition ({numref}`fig-logistic-contours`).

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Left: contours of $P(\\mathrm{chd} = 1)$ for the South African heart data on age and LDL. Right: on separable data, the regularised fit ($\\lambda = 1$, solid) keeps a gradual transition, the unregularised iterate (dashed) becomes a cliff.", "name": "fig-logistic-contours"}, "image": {"alt": "Two scatter plots with probability contour lines; on the right the dashed contours are crowded into one line."}} tags=["hide-input"]
fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(10.0, 4.2))
age_ldl = heart.X[
    :, [heart.feature_names.index("age"), heart.feature_names.index("ldl")]
]
fit2 = lg.irls(np.column_stack([np.ones(len(heart.y)), age_ldl]), heart.y)


def score2(P, w):
    return w[0] + P @ w[1:]


G0, G1, S = plots.decision_regions(
    ax0, lambda P: score2(P, fit2.w), age_ldl, heart.y, pad=1.0
)
cs = ax0.contour(
    G0, G1, lg.sigmoid(S), levels=[0.1, 0.25, 0.75, 0.9], colors="grey", linewidths=0.8
)
ax0.clabel(cs, fmt="%.2f", fontsize=7)
ax0.set_xlabel("age")
ax0.set_ylabel("ldl")
ax0.set_title("SAheart: $P(\\mathrm{chd} = 1)$ contours")
G0, G1, S = plots.decision_regions(ax1, lambda P: score2(P, ridge.w), x2, y2)
cs = ax1.contour(
    G0, G1, lg.sigmoid(S), levels=[0.1, 0.25, 0.75, 0.9], colors="grey", linewidths=0.8
)
ax1.clabel(cs, fmt="%.2f", fontsize=7)
ax1.contour(
    G0,
    G1,
    score2(np.column_stack([G0.ravel(), G1.ravel()]), sep.w).reshape(G0.shape),
    levels=[0.0],
    colors="k",
    linestyles="--",
    linewidths=1,
)
ax1.set_title("separable: $\\lambda = 1$ (solid), unregularised (dashed)")
fig.tight_layout()
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-logistic-contours
# Left: contours of $P(\mathrm{chd} = 1)$ for the South African heart data on age and LDL. Right: on separable data, the regularised fit ($\lambda = 1$, solid) keeps a gradual transition, the unregularised iterate (dashed) becomes a cliff.
# :::

# %% [markdown]
# (sec-costs-links)=
# ## Misclassification costs, and probit versus logit
#
# If misclassifying a sample of class $\omega_1$ costs $\gamma_1$ and misclassifying one of class
# $\omega_2$ costs $\gamma_2$, deciding $\omega_1$ risks $\gamma_2\, p(\omega_2 \mid x)$ and deciding
# $\omega_2$ risks $\gamma_1\, p(\omega_1 \mid x)$. The minimum-risk (Bayes) rule decides $\omega_1$
# when the first is smaller. With the fitted posterior
# $p(\omega_1 \mid x) = g(\beta_0' + \beta^\top x)$, taking logarithms and using {eq}`eq-log-odds`,
#
# $$
# \gamma_1\, p(\omega_1 \mid x) > \gamma_2\, p(\omega_2 \mid x)
# \iff \beta_0' + \log\frac{\gamma_1}{\gamma_2} + \beta^\top x > 0 .
# $$ (eq-cost-intercept)
#
# Costs move only the intercept, by $\log(\gamma_1/\gamma_2)$: the boundary shifts parallel to
# itself, and the model is fitted once, whatever the costs.

# %%
claims.verify("eq-cost-intercept")

# %% [markdown]
# ```{admonition} Erratum in the notes
# :class: warning
# Notes 002 write the cost-sensitive model as $\log\frac{\gamma_1 p(\omega_1|x)}{\gamma_2 p(\omega_2|x)}
# = \beta_0 + \beta^\top x$, estimate the posterior with intercept
# $\beta_0' = \beta_0 - \ln(\gamma_1/\gamma_2)$, and then state the decision rule with $\beta_0'$.
# The minimum-risk rule thresholds $\beta_0 + \beta^\top x = \beta_0' + \ln(\gamma_1/\gamma_2) +
# \beta^\top x$; the rule with $\beta_0'$ is the equal-cost rule (the notes' multiclass version
# does use $\beta_0$).
# ```
#
# Nothing in the decision rule depends on the sigmoid beyond two facts: it increases, and
# $g(0) = \frac12$. For any increasing link $G$ with $G(0) = \frac12$, such as the normal
# distribution function $\Phi$ (the **probit** model) or the Cauchy one,
#
# $$
# G(a) > \tfrac12 \iff a > 0 ,
# $$ (eq-link-decision)
#
# so probit and logit classify alike for the same score; they differ in the probabilities
# they attach (the logistic has heavier tails) and hence in the fitted $w$.

# %%
claims.verify("eq-link-decision")

# %% [markdown]
# (sec-probit)=
# ### Fitting the probit model
#
# The probit model is $P(y = 1 \mid x) = \Phi(w^\top x)$. With $q_i = 2y_i - 1$ and
# $a_i = w^\top x_i$, both outcomes have probability $\Phi(q_i a_i)$ (since
# $\Phi(-a) = 1 - \Phi(a)$), so the log-likelihood is $\ell(w) = \sum_i \log\Phi(q_i a_i)$.
# Differentiating $\log\Phi(qa)$ in $a$ gives $\lambda = q\phi(a)/\Phi(qa)$ ($\phi$ is even);
# differentiating again, with $\phi'(u) = -u\phi(u)$, gives $-\lambda(\lambda + a)$. By the
# chain rule {eq}`eq-chain-elementwise`,
#
# $$
# \begin{aligned}
# \nabla \ell(w) &= X^\top \lambda, \qquad
# \lambda_i = \frac{q_i\,\phi(a_i)}{\Phi(q_i a_i)}, \\
# \nabla^2 \ell(w) &= -X^\top D X, \qquad D = \diag\big(\lambda_i(\lambda_i + a_i)\big) .
# \end{aligned}
# $$ (eq-probit-hessian)
#
# Each weight $\lambda_i(\lambda_i + a_i)$ is positive (for $q_i = 1$ because
# $\phi(a)/\Phi(a) > -a$, a property of the normal tail; symmetrically for $q_i = -1$), so
# $\ell$ is concave and Newton's step $w \leftarrow w + (X^\top D X)^{-1} X^\top \lambda$ is the
# weighted least-squares fit of the adjusted response $z = Xw + D^{-1}\lambda$: IRLS exactly as
# in {ref}`sec-irls`, with the logit's weights $g_i(1 - g_i)$ replaced by $D$. The check
# compares both derivatives with finite differences of a log-likelihood written with
# `scipy.stats.norm`.

# %%
claims.verify("eq-probit-hessian")

# %% [markdown]
# Unlike the logit's, these weights depend on the labels. Averaging them over
# $y_i \sim \mathrm{Bernoulli}(\Phi(a_i))$, the two outcomes give
# $\Phi(a)\big(\tfrac{\phi^2}{\Phi(a)^2} + \tfrac{a\phi}{\Phi(a)}\big) +
# \Phi(-a)\big(\tfrac{\phi^2}{\Phi(-a)^2} - \tfrac{a\phi}{\Phi(-a)}\big)$, in which the $a\phi$
# terms cancel:
#
# $$
# \E\big[\lambda_i(\lambda_i + a_i)\big] = \frac{\phi(a_i)^2}{\Phi(a_i)\,\Phi(-a_i)} .
# $$ (eq-probit-fisher-weights)
#
# Iterating with these expected weights is **Fisher scoring**, the IRLS of generalised linear
# models. For the logit the two weights coincide (its Hessian does not involve $y$: the logit
# is the canonical link of the Bernoulli distribution); for the probit they differ, and both
# iterations converge to the same maximiser, Newton's in fewer steps.

# %%
claims.verify("eq-probit-fisher-weights")

# %% [markdown]
# `lg.probit` implements both (`method="newton"` or `"irls"`). On the Spector and Mazzeo data
# its fit is compared with Stata's published probit estimates {cite}`greene2003econometric`
# (as recorded, to 12 digits, in statsmodels' test suite), and set beside the logit:

# %%
stata_probit_w = [1.62581025407, 0.051728948442, 1.42633236818, -7.45232041607]
stata_probit_se = [0.693882522754, 0.083890261293, 0.595037920474, 2.54247249731]
probit_fit = lg.probit(Xsp, spector.y)
probit_irls = lg.probit(Xsp, spector.y, method="irls")
logit_fit = lg.irls(Xsp, spector.y)
print(
    f"probit: Newton {probit_fit.n_iter} iterations, Fisher scoring "
    f"{probit_irls.n_iter}; "
    f"same maximiser: {bool(np.allclose(probit_fit.w, probit_irls.w, rtol=1e-8))}"
)
print(
    f"{'':6s} {'probit':>10s} {'Stata':>10s} {'s.e.':>8s} {'Stata':>8s} {'logit':>10s} "
    f"{'logit/probit':>12s}"
)
for k, name in enumerate(("GPA", "TUCE", "PSI", "const")):
    print(
        f"{name:6s} {probit_fit.w[k]:10.6f} {stata_probit_w[k]:10.6f} "
        f"{probit_fit.se[k]:8.5f} {stata_probit_se[k]:8.5f} {logit_fit.w[k]:10.6f} "
        f"{logit_fit.w[k] / probit_fit.w[k]:12.2f}"
    )
print(
    f"log-likelihood: probit {probit_fit.log_likelihood:.5f} (Stata -12.81880), "
    f"logit {logit_fit.log_likelihood:.5f}"
)
rel_probit = np.max(np.abs(probit_fit.w / np.array(stata_probit_w) - 1))
print(f"largest relative difference from Stata's coefficients: {rel_probit:.1e}")
gap_prob = np.max(np.abs(probit_fit.predict_proba(Xsp) - logit_fit.predict_proba(Xsp)))
print(
    f"largest difference of the fitted probabilities, probit vs logit: {gap_prob:.3f}"
)

# %% [markdown]
# The coefficients agree with Stata's to the same six or seven digits as the logit's did (Stata
# stops on the change of the log-likelihood), the standard errors, from the observed
# information $X^\top D X$ at the maximum, to the five decimals printed. The logit coefficients
# are about 1.7 to 1.8 times the probit ones: the logistic distribution has standard deviation
# $\pi/\sqrt3 \approx 1.81$, and near the centre it matches a normal of standard deviation
# about 1.6. The fitted probabilities of the two models differ by a few hundredths at most, and
# the logit's log-likelihood is slightly lower: on 32 students the data cannot tell the links
# apart.

# %% [markdown]
# (sec-glm)=
# ## One algorithm for three models: generalised linear models
#
# Least squares, the logit and the probit are three cases of one model, the **generalised
# linear model** (GLM) {cite}`nelder1972generalized`, and Newton's IRLS is one case of one
# algorithm. The Gaussian, Bernoulli and Poisson distributions are **exponential families**:
#
# $$
# p(y \mid \theta, \phi) = h(y, \phi) \exp\Big(\frac{y\theta - A(\theta)}{\phi}\Big),
# $$ (def-exp-family)
#
# with natural parameter $\theta$, dispersion $\phi$ and log-partition function $A$. For
# $N(\mu, \sigma^2)$: $\theta = \mu$, $A(\theta) = \theta^2/2$, $\phi = \sigma^2$. For a
# Bernoulli of mean $p$: $\theta = \ln\frac{p}{1 - p}$, $A(\theta) = \ln(1 + e^\theta)$,
# $\phi = 1$. For a Poisson of mean $\mu$: $\theta = \ln\mu$, $A(\theta) = e^\theta$, $\phi = 1$.
# The density integrates to 1 for every $\theta$; differentiating
# $\int h\, e^{(y\theta - A)/\phi} dy = 1$ in $\theta$ gives $\E[y - A'(\theta)] = 0$, and
# differentiating once more gives $\E[(y - A')^2]/\phi = A''(\theta)$:
#
# $$
# \E y = A'(\theta), \qquad \operatorname{Var} y = \phi A''(\theta) .
# $$ (eq-glm-mean-variance)
#
# The variance is a function of the mean, $\phi V(\mu)$ with $V(\mu) = A''(\theta)$: 1 for
# the Gaussian, $\mu(1 - \mu)$ for the Bernoulli, $\mu$ for the Poisson. The check computes
# both moments from the densities and $A'$, $A''$ by finite differences.

# %%
claims.verify("eq-glm-mean-variance")

# %% [markdown]
# A GLM takes the linear predictor $\eta_i = w^\top x_i$ and a **link** $g$ with
# $\mu_i = g^{-1}(\eta_i)$; write $\mu_i' = d\mu_i/d\eta_i$. The logit ($\mu = 1/(1 + e^{-\eta})$),
# the identity and the log are the **canonical** links, those with $\theta_i = \eta_i$; the
# probit, $\mu = \Phi(\eta)$, is not. The log-likelihood is
# $\ell(w) = \sum_i (y_i\theta_i - A(\theta_i))/\phi$ plus terms free of $w$, and
# $\partial\theta_i/\partial\eta_i = \mu_i'/V(\mu_i)$ (since $d\mu/d\theta = A'' = V$). The
# chain rule gives the score; differentiating it again gives one term with the factor
# $y_i - \mu_i$, which vanishes in expectation, and one without. The Fisher information
# (expected negative Hessian) keeps the second:
#
# $$
# \begin{gathered}
# \nabla\ell(w) = \sum_{i=1}^n \frac{\mu_i'\,(y_i - \mu_i)}{\phi V(\mu_i)}\, x_i, \\
# I(w) = \E\big[-\nabla^2\ell(w)\big] = X^\top W X, \qquad
# W_{ii} = \frac{\mu_i'^2}{\phi V(\mu_i)} .
# \end{gathered}
# $$ (eq-glm-score-fisher)
#
# For a canonical link $\mu_i' = V(\mu_i)$: the score is $X^\top(y - \mu)/\phi$, the Hessian
# contains no $y$ and equals $-I(w)$, so Fisher scoring is Newton's method. This is why the
# logit's Newton weights $g(1 - g)$ came without labels, and the probit's did not
# ({eq}`eq-probit-fisher-weights`). The check differentiates a log-likelihood written from the
# densities, for the identity, logit, probit and log links, and takes the expectation exactly.

# %%
claims.verify("eq-glm-score-fisher")

# %% [markdown]
# Fisher scoring, $w \leftarrow w + I(w)^{-1}\nabla\ell(w)$, is the same rearrangement as
# {eq}`eq-irls-step`: multiplying out, the dispersion cancels and
#
# $$
# w + I(w)^{-1}\nabla\ell(w) = (X^\top W X)^{-1} X^\top W z, \qquad
# z_i = \eta_i + \frac{y_i - \mu_i}{\mu_i'} ,
# $$ (eq-glm-irls-step)
#
# a weighted least-squares fit of the **working response** $z$. The three models of this
# chapter and the last are its cases:
#
# - Gaussian, identity link: $W = I/\phi$ and $z = y$, so one step from anywhere solves the
#   normal equations: least squares;
# - Bernoulli, logit: $W_{ii} = g_i(1 - g_i)$ and $z$ as in {eq}`eq-irls-step`: Newton's IRLS;
# - Bernoulli, probit: $W_{ii} = \phi(\eta_i)^2/(\Phi(\eta_i)\Phi(-\eta_i))$ ($\phi$ here the
#   normal density), the weights of {eq}`eq-probit-fisher-weights`: `lg.probit(method="irls")`.
#
# The check compares the Fisher step with a least-squares solver on $(W^{1/2}X, W^{1/2}z)$.

# %%
claims.verify("eq-glm-irls-step")

# %% [markdown]
# `lg.glm(X, y, family=..., link=...)` is this one algorithm (the tests check it against
# statsmodels' `GLM` for the four pairs, coefficients, standard errors and deviances). On the
# Spector and Mazzeo data it retraces the chapter's fits step by step; with the Gaussian family
# on the same 0/1 labels it is least squares (the "linear probability model") after one step:

# %%
glm_logit = lg.glm(Xsp, spector.y, family="binomial", link="logit")
glm_probit = lg.glm(Xsp, spector.y, family="binomial", link="probit")
glm_gauss = lg.glm(Xsp, spector.y, family="gaussian")
lpm = np.linalg.lstsq(Xsp, spector.y, rcond=None)[0]
rss_one_step = glm_gauss.objective[1]  # the deviance after the first step
same_logit = bool(np.allclose(glm_logit.w, logit_fit.w, rtol=1e-8))
print(f"logit:  same as lg.irls: {same_logit}, {glm_logit.n_iter} iterations")
print(f"probit: same as Fisher scoring of lg.probit: "
      f"{bool(np.allclose(glm_probit.w, probit_irls.w, rtol=1e-8))}, "
      f"{glm_probit.n_iter} iterations (Newton: {probit_fit.n_iter})")
one_step = bool(np.isclose(rss_one_step, glm_gauss.deviance))
print(f"gaussian: least squares: {bool(np.allclose(glm_gauss.w, lpm, rtol=1e-9))}, "
      f"reached by the first step: {one_step}")
print(f"deviances: logit {glm_logit.deviance:.4f}, probit {glm_probit.deviance:.4f}")

# %% [markdown]
# (sec-softmax)=
# ## More than two classes: softmax regression
#
# With $K$ classes, give each class a weight vector $w_k$ (the columns of $W \in \R^{d \times K}$)
# and turn the $K$ scores into probabilities with the **softmax**:
#
# $$
# p_{ik} = P(y_i = k \mid x_i) = \frac{e^{w_k^\top x_i}}{\sum_{l=1}^K e^{w_l^\top x_i}} .
# $$ (def-softmax)
#
# With the one-hot labels $Y_{ik} = [y_i = k]$ the log-likelihood is
# $\sum_i \bigl[\sum_k Y_{ik} w_k^\top x_i - \log \sum_l e^{w_l^\top x_i}\bigr]$, and by the
# gradient of log-sum-exp (Chapter 0) its gradient has the same residual form as before:
#
# $$
# \nabla_{w_k} \sum_{i=1}^n \log p_{i y_i} = \sum_{i=1}^n (Y_{ik} - p_{ik})\, x_i ,
# \qquad \text{i.e. } \nabla_W = X^\top (Y - P) .
# $$ (eq-softmax-gradient)

# %%
claims.verify("eq-softmax-gradient")

# %% [markdown]
# Adding the same vector $c$ to every $w_k$ multiplies numerator and denominator by
# $e^{c^\top x}$, so
#
# $$
# \operatorname{softmax}\bigl(x^\top (W + c \mathbf 1^\top)\bigr) = \operatorname{softmax}(x^\top W) :
# $$ (eq-softmax-redundancy)
#
# one class's weights are redundant. The likelihood is flat along these directions and its
# Hessian singular, so `softmax_regression` fixes the last class's weights at 0 and fits the other
# $K - 1$ by Newton's method. (The notes 002 use exactly this parametrisation; notes 003 keep
# all $K$ vectors, which needs a penalty or a constraint to pin them down.)

# %%
claims.verify("eq-softmax-redundancy")

# %% [markdown]
# With $K = 2$ and $w_0$ fixed, the softmax is the sigmoid of the difference of the scores,
#
# $$
# p_{i1} = \frac{e^{w_1^\top x_i}}{e^{w_0^\top x_i} + e^{w_1^\top x_i}} = g\bigl(x_i^\top (w_1 - w_0)\bigr),
# $$ (eq-softmax-two-classes)
#
# and softmax regression is logistic regression.

# %%
claims.verify("eq-softmax-two-classes")

# %% [markdown]
# ### Costs with several classes
#
# Notes 002 extend the costs of {eq}`eq-cost-intercept` to $C$ classes: misclassifying a
# sample of class $\omega_s$ costs $\gamma_s$, whichever wrong class it is given. Deciding
# class $c$ then risks $\sum_{s \ne c} \gamma_s\, p(\omega_s \mid x) = \sum_s \gamma_s
# p(\omega_s \mid x) - \gamma_c\, p(\omega_c \mid x)$, so the minimum-risk rule picks the
# largest $\gamma_c\, p(\omega_c \mid x)$. With the softmax posterior fitted with class $C$ as
# reference, $\log\big(p(\omega_s \mid x)/p(\omega_C \mid x)\big) = \beta_{s0}' +
# \beta_s^\top x$ ($\beta_{C0}' = 0$, $\beta_C = 0$), dividing every $\gamma_c p(\omega_c
# \mid x)$ by $\gamma_C\, p(\omega_C \mid x)$ and taking logarithms gives
#
# $$
# \arg\min_c \mathrm{risk}(c \mid x)
# = \arg\max_c \Big(\beta_{c0}' + \ln\frac{\gamma_c}{\gamma_C} + \beta_c^\top x\Big),
# $$ (eq-multiclass-cost-shift)
#
# the notes' $\beta_{c0} = \beta_{c0}' + \ln(\gamma_c/\gamma_C)$. As with two classes, the
# costs move the intercepts only, each by the log of its cost relative to the reference
# class, and the model is fitted once. (The notes' rule "the argmax if its score is positive,
# otherwise class $C$" is the same rule: class $C$ scores 0.) The check computes the risks
# from softmax posteriors with random costs and compares the two decisions.

# %%
claims.verify("eq-multiclass-cost-shift")

# %% [markdown]
# On Fisher's iris data with the two petal measurements, setosa is separable from the other
# species, so we use a small penalty $\lambda = 0.1$. The class regions meet along straight lines,
# where two scores $w_k^\top x$ tie ({numref}`fig-softmax-regions`).

# %%
iris = datasets.load_iris()
P2 = iris.X[:, 2:]
Xi = np.column_stack([np.ones(len(iris.y)), P2])
soft = lg.softmax_regression(Xi, iris.y, lam=0.1)
acc = np.mean(soft.predict(Xi) == iris.y)
print(
    f"softmax regression: {soft.n_iter} Newton iterations, converged={soft.converged}, "
    f"training accuracy {acc:.3f}"
)
print(
    "W (columns: setosa, versicolor, virginica; rows: intercept, petal length, petal "
    "width)"
)
print(soft.W)

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Softmax regression on the iris petal measurements: the three class regions meet along straight lines; grey contours mark largest class probability 0.6 and 0.9.", "name": "fig-softmax-regions"}, "image": {"alt": "Scatter of three species in three coloured regions separated by straight boundaries, with grey probability contours."}} tags=["hide-input"]
fig, ax = plt.subplots(figsize=(6.4, 4.4))
g0, g1 = np.meshgrid(np.linspace(0.5, 7.5, 300), np.linspace(-0.3, 3.0, 300))
grid = np.column_stack([np.ones(g0.size), g0.ravel(), g1.ravel()])
cls = soft.predict(grid).reshape(g0.shape)
pmax = soft.predict_proba(grid).max(axis=1).reshape(g0.shape)
colours = ["#fbb4ae", "#b3cde3", "#ccebc5"]
ax.contourf(g0, g1, cls, levels=[-0.5, 0.5, 1.5, 2.5], colors=colours, alpha=0.8)
cs = ax.contour(g0, g1, pmax, levels=[0.6, 0.9], colors="grey", linewidths=0.8)
ax.clabel(cs, fmt="%.1f", fontsize=7)
for k, (marker, c) in enumerate(
    zip("o^s", ["#b2182b", "#2166ac", "#1b7837"], strict=True)
):
    m = iris.y == k
    ax.scatter(
        P2[m, 0],
        P2[m, 1],
        marker=marker,
        c=c,
        s=16,
        edgecolor="k",
        linewidth=0.3,
        label=iris.extra["class_names"][k],
    )
ax.set_xlabel("petal length (cm)")
ax.set_ylabel("petal width (cm)")
ax.set_title("softmax regions; grey: largest probability 0.6, 0.9")
ax.legend(loc="upper left")
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-softmax-regions
# Softmax regression on the iris petal measurements: the three class regions meet along straight lines; grey contours mark largest class probability 0.6 and 0.9.
# :::

# %% [markdown]
# (sec-logistic-implementation)=
# ## Implementation
#
# `logistic.newton` and `logistic.irls` check their input and call one loop,
# `logistic._newton_family`, which differs between the two only in the right-hand side of the
# linear system. The cells below display the library's code itself: the loop, then its two
# steps, the direction and the step length.

# %%
from mlnotes import show_source

show_source(lg._newton_family)

# %%
show_source(lg._newton_direction)

# %%
show_source(lg._halving_step)

# %% [markdown]
# Read them against the equations:
#
# - In `_newton_direction`, `p = sigmoid(a)` with `a = X @ w`, and
#   `grad = X.T @ (y - p) - lam * w` is the gradient {eq}`eq-loglik-gradient` (minus the
#   derivative of the penalty).
# - `r = p * (1.0 - p)` is the diagonal of $R$, never formed as an $n \times n$ matrix, and
#   `H = Xs.T @ Xs + lam * np.eye(...)` is $X^\top R X + \lambda I$, the negated Hessian
#   {eq}`eq-loglik-hessian`, formed from the rows of $X$ scaled by $\sqrt{r_i}$. `_cholesky`
#   factors it once per iteration; both methods solve with that factor.
# - Newton solves $H\,\delta = \nabla\ell$ for the step, {eq}`def-newton-step`:
#   `_cho_solve(L, grad)`. IRLS solves the weighted least-squares problem of {eq}`eq-irls-step`
#   for the new $w$ directly, with the right-hand side $X^\top R z$ written as
#   `X.T @ (r * a + (y - p))` so that no $r_i$ is ever divided by; subtracting `w` gives the same
#   step in exact arithmetic.
# - `_halving_step` takes the full step, line 2 (`t = 1.0`), unless it would lower the
#   objective it is given, here the penalised log-likelihood (it does not near the optimum,
#   where Newton converges quadratically), and halves it, line 9 (`t *= 0.5`), until it does
#   not. The probit and GLM fits of this chapter pass their own objectives to the same
#   function. The loop stops when the step changes no weight by more than `tol` relative to the
#   largest weight: a rule on $w$, the quantity reported.
# - Without a penalty the maximum-likelihood estimate exists only if the classes overlap: a
#   score beyond `_SEPARATION_SCORE`, or a Hessian that stops being positive definite, triggers
#   the linear-programming test `is_separable`, and a separable problem ends with a warning
#   (`_standard_errors` issues it) instead of weights growing without bound.

# %% [markdown]
# (sec-logistic-exercises)=
# ## Exercises
#
# ```{exercise}
# :label: ex-logistic-newton-1d
# Take one feature, no intercept, and a single sample $x = 1$ with label $y = 1$ (separable
# data). Write $\ell(w)$, and show that Newton's iteration {eq}`def-newton-1d` is
# $w' = w + 1 + e^{-w}$. What happens to $w$, to $\ell(w)$ and to $\ell'(w)$ as the iterations
# proceed? Which stopping rules would be fooled?
# ```
#
# ```{solution} ex-logistic-newton-1d
# :class: dropdown
# $\ell(w) = -\log(1 + e^{-w})$, $\ell'(w) = 1 - g(w) = g(-w)$ and
# $\ell''(w) = -g(w) g(-w)$, so the step is $g(-w)/(g(w)g(-w)) = 1/g(w) = 1 + e^{-w}$. The
# iterates increase by more than 1 each time, $w \to \infty$, while $\ell(w) \approx -e^{-w}$ and
# $\ell'(w) \approx e^{-w}$ go to 0 geometrically. Rules on the gradient or on the change of
# $\ell$ stop after a few dozen iterations at an arbitrary large $w$; a rule on the step never
# stops. Only a check of separability says what is going on ({ref}`sec-separation`).
# ```
#
# ```{exercise}
# :label: ex-logistic-ridge-unique
# Show that for $\lambda > 0$ the penalised log-likelihood $\ell(w) - \frac\lambda2\|w\|^2$ has a
# unique maximiser for every data set, separable or not, even when $X$ does not have full column
# rank. What does Newton's step become?
# ```
#
# ```{solution} ex-logistic-ridge-unique
# :class: dropdown
# Its Hessian is $-(X^\top R X + \lambda I)$, whose eigenvalues are at most $-\lambda$: the
# function is strongly concave. It is also coercive, since $\ell \le 0$ and
# $-\frac\lambda2\|w\|^2 \to -\infty$, so a maximiser exists, and strong concavity makes it unique.
# Newton's step is $w' = w + (X^\top R X + \lambda I)^{-1}(X^\top(y - g) - \lambda w)$,
# equivalently $w' = (X^\top R X + \lambda I)^{-1} X^\top R z$: IRLS with ridge regression in
# place of least squares.
# ```
#
# ```{exercise}
# :label: ex-logistic-balance
# Let the first column of $X$ be constant (an intercept). Show that at the maximum likelihood
# estimate the fitted probabilities sum to the number of positive labels,
# $\sum_i g_i = \sum_i y_i$. Check it on the Spector data.
# ```
#
# ```{solution} ex-logistic-balance
# :class: dropdown
# The first component of {eq}`eq-loglik-gradient` is $\sum_i (y_i - g_i) \cdot 1$, and it
# vanishes at the maximum. On the Spector data (constant in the last column there),
# `lg.sigmoid(Xsp @ fit.w).sum()` and `spector.y.sum()` are both 11.
# ```
#
# ```{exercise}
# :label: ex-logistic-case-control
# (Case-control sampling.) The South African heart disease data of
# {ref}`sec-logistic-real-data` are a retrospective (case-control) sample, with roughly two
# controls per case of coronary heart disease {cite}`hastie2009elements`: the cases are far
# more frequent in the sample than in the population. Suppose that in the population
# $P(y = 1 \mid x) = g(\beta_0 + \beta^\top x)$, and that the sample keeps each case ($y = 1$)
# with probability $\pi_1$ and each control ($y = 0$) with probability $\pi_0$, whatever its $x$.
# (a) Show that in the sample
# $P(y = 1 \mid x, \text{kept}) = g\bigl(\beta_0 + \log(\pi_1/\pi_0) + \beta^\top x\bigr)$: a
# logistic regression on the sample estimates the population's slopes $\beta$, and only its
# intercept is off. (b) The disease has prevalence $\rho$ in the population and the expected
# fraction $\rho_s$ of cases in the sample. Express $\log(\pi_1/\pi_0)$ through $\rho$ and $\rho_s$,
# and say how to correct the fitted intercept. (c) Compare with {eq}`eq-cost-intercept`: the
# uncorrected model, thresholded at $\frac12$, is the minimum-risk rule in the population for
# which costs? (d) Why does the argument of (a) not carry over to the probit model?
# ```
#
# ```{solution} ex-logistic-case-control
# :class: dropdown
# (a) Whether a person is kept depends on $y$ only, so by Bayes' rule the odds in the sample
# are the population's odds times $P(\text{kept} \mid y = 1)/P(\text{kept} \mid y = 0)$:
# $P(y = 1 \mid x, \text{kept}) / P(y = 0 \mid x, \text{kept}) = \pi_1 g(a) / \bigl(\pi_0
# (1 - g(a))\bigr) = (\pi_1/\pi_0)\, e^{a}$ with $a = \beta_0 + \beta^\top x$, by
# {eq}`eq-log-odds`. The sample's log-odds are $\beta_0 + \log(\pi_1/\pi_0) + \beta^\top x$,
# still linear in $x$ with the same slopes, so the sample follows a logistic model with
# intercept $\beta_0 + \log(\pi_1/\pi_0)$, which is what maximum likelihood on the sample
# estimates. (b) The same computation without $x$ gives
# $\rho_s/(1 - \rho_s) = (\pi_1/\pi_0)\, \rho/(1 - \rho)$, so
# $\log(\pi_1/\pi_0) = \log\frac{\rho_s}{1 - \rho_s} - \log\frac{\rho}{1 - \rho}$, and the
# population intercept is estimated by
# $\hat\beta_0^{\,s} - \log\frac{\rho_s}{1 - \rho_s} + \log\frac{\rho}{1 - \rho}$, with
# $\rho_s$ the observed fraction of cases in the sample and $\rho$ known from elsewhere (the
# sample cannot tell it). (c) The uncorrected model decides $y = 1$ when
# $\beta_0 + \log(\pi_1/\pi_0) + \beta^\top x > 0$, which is {eq}`eq-cost-intercept` with
# $\gamma_1/\gamma_2 = \pi_1/\pi_0$: over-sampling the cases by a factor $\pi_1/\pi_0$ acts
# like making a missed case $\pi_1/\pi_0$ times as costly as a false alarm. (d) The odds
# are still multiplied by $\pi_1/\pi_0$, but only the logit turns a multiplication of the odds
# into a shift of the linear predictor: $\Phi^{-1}$ of the sample's probability is no longer
# affine in $x$, so the probit model does not even hold on the sample, and its slopes change.
# ```
#
# ```{exercise}
# :label: ex-softmax-penalised
# (Softmax.) Keep all $K$ weight vectors of softmax regression and maximise the penalised
# log-likelihood $\ell(W) - \frac{\lambda}{2}\|W\|_F^2$, $\lambda > 0$. (a) Using
# {eq}`eq-softmax-gradient`, show that the maximiser satisfies $\sum_k w_k = 0$, so the
# penalty picks one point on each line of {eq}`eq-softmax-redundancy`. (b) Show that for one
# sample the Hessian of $\log p_{iy_i}$ with respect to the scores $a_i = W^\top x_i$ is
# $-(\diag(p_i) - p_i p_i^\top)$, and that $\mathbf 1$ is in its null space. (c) With $K = 2$,
# how does the penalised fit relate to penalised logistic regression
# ({eq}`eq-softmax-two-classes`)?
# ```
#
# ```{solution} ex-softmax-penalised
# :class: dropdown
# (a) The gradient in $w_k$ is $\sum_i (Y_{ik} - p_{ik}) x_i - \lambda w_k$; at the maximiser it
# vanishes for every $k$. Summing over $k$, $\sum_k Y_{ik} = \sum_k p_{ik} = 1$ cancels the data
# term, leaving $\lambda \sum_k w_k = 0$. (b) $\log p_{iy} = a_{iy} - \log\sum_l e^{a_{il}}$;
# the first term is linear, and the Hessian of log-sum-exp is $\diag(p) - pp^\top$ (Chapter 0,
# {ref}`ex-softmax-jacobian`). $(\diag(p) - pp^\top)\mathbf 1 = p - p(p^\top\mathbf 1) = 0$:
# adding the same constant to every score changes nothing, the redundancy again. (c) By (a)
# $w_0 = -w_1$, and the model is $g\big(x^\top(w_1 - w_0)\big) = g(2x^\top w_1)$. With
# $v = 2w_1$ the penalty $\frac\lambda2(\|w_0\|^2 + \|w_1\|^2) = \lambda\|w_1\|^2 =
# \frac{\lambda}{4}\|v\|^2$: penalised logistic regression in $v$ with penalty $\lambda/2$
# in the $\frac{\lambda}{2}\|v\|^2$ convention of `lg.newton`.
# ```
#
# ```{exercise}
# :label: ex-glm-poisson
# (Poisson regression.) Let the counts be $y_i \sim \mathrm{Poisson}(\mu_i)$ with
# $\ln\mu_i = w^\top x_i$. (a) Write the log-likelihood and show that its gradient is
# $X^\top(y - \mu)$ and its Hessian $-X^\top \diag(\mu) X$; why do Newton's method and
# Fisher scoring coincide? (b) Write the IRLS step {eq}`eq-glm-irls-step`: its weights and its
# working response. (c) With an intercept only ($x_i = 1$), show that the maximiser is
# $w = \ln\bar y$ and that IRLS iterates $w \leftarrow w + \bar y e^{-w} - 1$. What happens
# when every count is 0?
# ```
#
# ```{solution} ex-glm-poisson
# :class: dropdown
# (a) $\ell(w) = \sum_i \big(y_i \eta_i - e^{\eta_i} - \ln y_i!\big)$ with
# $\eta_i = w^\top x_i$, so $\nabla\ell = \sum_i (y_i - e^{\eta_i}) x_i = X^\top(y - \mu)$
# and $\nabla^2\ell = -\sum_i \mu_i x_i x_i^\top$, negative semidefinite: $\ell$ is concave.
# The Hessian contains no $y$, so it equals its expectation: the log is the Poisson's canonical
# link ($\theta = \ln\mu = \eta$, $\mu' = \mu = V(\mu)$). (b) $W = \diag(\mu)$ and
# $z_i = \eta_i + (y_i - \mu_i)/\mu_i$; the step is the weighted least-squares fit
# $(X^\top \diag(\mu) X)^{-1} X^\top \diag(\mu) z$. (c) The score is
# $n(\bar y - e^w) = 0$, so $w = \ln\bar y$, and the step is
# $w + n(\bar y - e^w)/(n e^w) = w + \bar y e^{-w} - 1$. If every count is 0, then
# $\ell(w) = -n e^w$ increases as $w \to -\infty$: no maximiser exists (the mean estimate 0
# is on the boundary, $\ln 0 = -\infty$), and IRLS steps $w \leftarrow w - 1$ forever: the
# Poisson analogue of separation in {ref}`sec-separation`.
# ```

# %% [markdown]
# ```{exercise} Proof: the log-likelihood is concave, and a maximiser exists iff the classes do not separate
# :label: ex-logistic-existence
# Write the log-likelihood {eq}`eq-logloss-nll` as $\ell(w) = -\sum_{i=1}^n L(m_i(w))$ with
# the margins $m_i(w) = y^\pm_i\, x_i^\top w$ and $L(t) = \log(1 + e^{-t})$. Prove that
# (a) $\ell$ is concave on $\R^d$; (b) if some $v$ with $Xv \ne 0$ has
# $y^\pm_i\, x_i^\top v \ge 0$ for every $i$ (complete or quasi-complete separation), no $w$
# maximises $\ell$; (c) if there is no such $v$, some $w$ maximises $\ell$. This is the
# theorem of {cite}`albert1984existence` quoted in {ref}`sec-separation`.
# ```
#
# ```{solution} ex-logistic-existence
# :class: dropdown
# (a) $L'(t) = -e^{-t}/(1 + e^{-t}) = -g(-t) < 0$ and, by {eq}`eq-sigmoid-derivative`,
# $L''(t) = g(-t)\bigl(1 - g(-t)\bigr) > 0$: $L$ is strictly decreasing and convex. A convex
# function of an affine function, $w \mapsto L(m_i(w))$, is convex, a sum of convex functions
# is convex, so $-\ell$ is convex and $\ell$ concave (which is also {eq}`eq-hessian-nsd`).
#
# (b) Let $c_i = y^\pm_i\, x_i^\top v \ge 0$. Since $Xv \ne 0$, some $x_j^\top v \ne 0$, so
# $c_j > 0$. Suppose $w^\star$ maximised $\ell$. Then $m_i(w^\star + v) = m_i(w^\star) + c_i \ge
# m_i(w^\star)$ for every $i$ and $m_j(w^\star + v) > m_j(w^\star)$; as $L$ is strictly
# decreasing, every term $-L(m_i)$ is at least as large at $w^\star + v$ as at $w^\star$, and
# the $j$-th one is larger. So $\ell(w^\star + v) > \ell(w^\star)$, a contradiction: there is no
# maximiser.
#
# (c) If $X = 0$, $\ell$ is constant and every $w$ maximises it. Otherwise let
# $N = \{u : Xu = 0\}$ and $S$ the unit sphere of its orthogonal complement $N^\perp \ne \{0\}$.
# The margins depend on $w$ through $Xw$ only, so $\ell(u + w) = \ell(w)$ for $u \in N$, and it
# suffices to maximise over $N^\perp$. Every $v \in S$ has $Xv \ne 0$, so by the assumption
# some $i$ has $y^\pm_i\, x_i^\top v < 0$: the function
# $h(v) = \max_i\bigl(-y^\pm_i\, x_i^\top v\bigr)$ is positive on $S$. It is continuous (a
# maximum of finitely many linear functions) and $S$ is compact, so $h \ge \delta$ on $S$ for
# some $\delta > 0$. For $t \ge 0$ and $v \in S$, let $i$ attain $h(v)$; every term of $\ell$
# is negative, so
# $\ell(tv) \le -L\bigl(-t\, h(v)\bigr) = -\log\bigl(1 + e^{t h(v)}\bigr) \le -t\, h(v)
# \le -t\delta$. Hence the set $C = \{w \in N^\perp : \ell(w) \ge \ell(0)\}$, where $\ell(0) = -n \log 2$, lies
# in the ball $\|w\| \le n \log 2 / \delta$. It is closed ($\ell$ is continuous) and bounded, so
# compact, and not empty ($0 \in C$): $\ell$ attains its maximum over $C$ at some $w^\star$. Any
# $w \in \R^d$ is $u + w'$ with $u \in N$, $w' \in N^\perp$, and $\ell(w) = \ell(w') \le
# \ell(w^\star)$, whether $w' \in C$ or not (then $\ell(w') < \ell(0) \le \ell(w^\star)$). So
# $w^\star$ maximises $\ell$ on $\R^d$.
# ```
#
# The remaining exercises are coding exercises; the course's assignments turn them into
# autograded questions.

# %% [markdown]
# ```{exercise} Warm-up · 2 points · about 15 min
# :label: ex-code-irls-step
# Write `irls_step(X, y, w)` that returns the next IRLS iterate {eq}`eq-irls-step`:
# compute the weights $R_{ii} = g_i(1 - g_i)$ and the adjusted response $z$, then solve
# the weighted least-squares problem with `np.linalg.lstsq` on the rows of $X$ and $z$
# scaled by $\sqrt{R_{ii}}$. Do not form the $n \times n$ matrix $R$. While this is
# graded, `mlnotes.logistic.irls`, `mlnotes.logistic.newton`,
# `mlnotes.logistic._newton_family` and `mlnotes.logistic._newton_direction` are
# unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def irls_step(X, y, w):
    # BEGIN SOLUTION
    g = lg.sigmoid(X @ w)
    r = g * (1 - g)
    z = X @ w + (y - g) / r
    s = np.sqrt(r)
    return np.linalg.lstsq(s[:, None] * X, s * z, rcond=None)[0]
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: irls-step, points: 2, tier: warm-up, minutes: 15,
#   withdraw: [mlnotes.logistic.irls, mlnotes.logistic.newton,
#              mlnotes.logistic._newton_family, mlnotes.logistic._newton_direction]}
# TEST: from w = 0, one IRLS step is one full Newton step
import warnings

X_test = np.random.default_rng(20).normal(size=(30, 3))
y_test = (X_test[:, 1] + np.random.default_rng(21).normal(size=30) > 0).astype(float)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # one Newton step stops at max_iter on purpose
    one = lg.newton(X_test, y_test, max_iter=1)
assert one.step_sizes[0] == 1.0
np.testing.assert_allclose(
    irls_step(X_test, y_test, np.zeros(3)), one.w, rtol=1e-9, strict=True
)

# HIDDEN TEST: from a random w, the Newton step w + (X^T R X)^{-1} X^T (y - g)
rng_h = np.random.default_rng(list(b"development secret"))
X_h = rng_h.normal(size=(rng_h.integers(10, 80), rng_h.integers(1, 6)))
y_h = (rng_h.random(len(X_h)) < rng_h.uniform(0.2, 0.8)).astype(float)
w_h = rng_h.normal(scale=0.5, size=X_h.shape[1])
g_h = lg.sigmoid(X_h @ w_h)
H_h = (X_h.T * (g_h * (1 - g_h))) @ X_h
np.testing.assert_allclose(
    irls_step(X_h, y_h, w_h),
    w_h + np.linalg.solve(H_h, X_h.T @ (y_h - g_h)),
    rtol=1e-8,
    atol=1e-10,
    strict=True,
)

# HIDDEN TEST: the maximum-likelihood w is a fixed point
rng_h = np.random.default_rng(list(b"development secret"))
n_h = rng_h.integers(100, 200)
X_h = np.column_stack([np.ones(n_h), rng_h.normal(size=(n_h, rng_h.integers(1, 4)))])
y_h = (rng_h.random(n_h) < 0.4).astype(float)  # pure noise: not separable
w_h = lg.irls(X_h, y_h).w
np.testing.assert_allclose(irls_step(X_h, y_h, w_h), w_h, atol=1e-8, strict=True)

# %% [markdown]
# ```{exercise} Core · 3 points · about 25 min
# :label: ex-code-irls-full
# Write `irls(X, y, n_iter)`: logistic regression by IRLS, starting from $w = 0$ and
# making `n_iter` steps {eq}`eq-irls-step` (your `irls_step` does one). Return the final
# $w$. While this is graded, `mlnotes.logistic.irls`, `mlnotes.logistic.newton`,
# `mlnotes.logistic._newton_family`, `mlnotes.logistic._newton_direction`,
# `mlnotes.logistic.gradient_ascent` and `scipy.optimize` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def irls(X, y, n_iter):
    # BEGIN SOLUTION
    w = np.zeros(X.shape[1])
    for _ in range(n_iter):
        g = lg.sigmoid(X @ w)
        r = g * (1.0 - g)
        z = X @ w + (y - g) / r
        s = np.sqrt(r)
        w = np.linalg.lstsq(X * s[:, None], z * s, rcond=None)[0]
    return w
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: irls-full, points: 3, tier: core, minutes: 25,
#   withdraw: [mlnotes.logistic.irls, mlnotes.logistic.newton,
#              mlnotes.logistic._newton_family, mlnotes.logistic._newton_direction,
#              mlnotes.logistic.gradient_ascent, scipy.optimize]}
# TEST: 60 samples with an intercept: one step is one full Newton step from w = 0, and
# 25 steps reach the chapter's IRLS estimate
import warnings

X_test = np.column_stack([np.ones(60), np.random.default_rng(110).normal(size=(60, 2))])
y_test = X_test @ np.array([0.2, 1.0, -1.0])
y_test = (y_test + np.random.default_rng(111).logistic(size=60) > 0).astype(float)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # one Newton step stops at max_iter on purpose
    one = lg.newton(X_test, y_test, max_iter=1)
np.testing.assert_allclose(irls(X_test, y_test, 1), one.w, rtol=1e-9, strict=True)
np.testing.assert_allclose(
    irls(X_test, y_test, 25), lg.irls(X_test, y_test).w, atol=1e-6, strict=True
)

# HIDDEN TEST: exactly n_iter Newton steps from w = 0 (n_iter = 0 returns w = 0)
rng_h = np.random.default_rng(list(b"development secret"))
n_h = rng_h.integers(40, 150)
X_h = np.column_stack([np.ones(n_h), rng_h.normal(size=(n_h, rng_h.integers(1, 4)))])
y_h = (rng_h.random(n_h) < rng_h.uniform(0.2, 0.8)).astype(float)
w_h = np.zeros(X_h.shape[1])
for k_h in range(4):
    np.testing.assert_allclose(
        irls(X_h, y_h, k_h), w_h, rtol=1e-8, atol=1e-10, strict=True
    )
    g_h = lg.sigmoid(X_h @ w_h)
    w_h = w_h + np.linalg.solve((X_h.T * (g_h * (1 - g_h))) @ X_h, X_h.T @ (y_h - g_h))

# HIDDEN TEST: after 30 steps the score equations X^T (y - g) = 0 hold
rng_h = np.random.default_rng(list(b"development secret"))
n_h = rng_h.integers(100, 200)
X_h = np.column_stack([np.ones(n_h), rng_h.normal(size=(n_h, rng_h.integers(1, 5)))])
w_true_h = rng_h.normal(size=X_h.shape[1])
y_h = (X_h @ w_true_h + rng_h.logistic(size=n_h) > 0).astype(float)
w_h = irls(X_h, y_h, 30)
d_h = X_h.shape[1]
assert np.shape(w_h) == (d_h,), f"expected shape {(d_h,)}, received {np.shape(w_h)}"
np.testing.assert_allclose(X_h.T @ (y_h - lg.sigmoid(X_h @ w_h)), 0.0, atol=1e-8)

# %% [markdown]
# ```{exercise} Core · 3 points · about 40 min
# :label: ex-code-probit-scoring
# Write `probit_scoring(X, y, n_iter)`: the probit model $P(y = 1 \mid x) = \Phi(w^\top x)$
# of {ref}`sec-probit` fitted by Fisher scoring, starting from $w = 0$ and making `n_iter`
# full steps (no halving) of {eq}`eq-glm-irls-step`. Work out the probit's weights $W_{ii}$
# and working response $z_i$ from {eq}`eq-glm-score-fisher` with $\mu = \Phi(\eta)$,
# $V(\mu) = \mu(1 - \mu)$ and $\phi = 1$, and solve each weighted least-squares problem with
# `np.linalg.lstsq` on the rows of $X$ and $z$ scaled by $\sqrt{W_{ii}}$. Compute
# $1 - \Phi(\eta)$ as `scipy.stats.norm.sf(eta)`, not by a subtraction. Return the final $w$,
# of shape $(d,)$. Newton's method ({eq}`eq-probit-hessian`) reaches the same maximiser
# through other iterates, and the tests check the iterates. (At $w = 0$ every weight is the
# same, and Newton's first step is the same as Fisher's: work out what it is.) While this
# is graded, `mlnotes.logistic.probit`, `mlnotes.logistic._probit_terms`,
# `mlnotes.logistic.glm`, `mlnotes.logistic._glm_terms` and `scipy.optimize` are
# unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def probit_scoring(X, y, n_iter):
    # BEGIN SOLUTION
    from scipy.stats import norm

    w = np.zeros(X.shape[1])
    for _ in range(n_iter):
        eta = X @ w
        dens, cdf, sf = norm.pdf(eta), norm.cdf(eta), norm.sf(eta)
        s = dens / np.sqrt(cdf * sf)  # sqrt(W_ii), W_ii = phi^2 / (Phi(eta) Phi(-eta))
        # sqrt(W_ii) z_i, with z_i = eta_i + (y_i - mu_i) / phi(eta_i)
        sz = s * eta + (y - cdf) / np.sqrt(cdf * sf)
        w = np.linalg.lstsq(X * s[:, None], sz, rcond=None)[0]
    return w
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: probit-scoring, points: 3, tier: core, minutes: 40,
#   withdraw: [mlnotes.logistic.probit, mlnotes.logistic._probit_terms,
#              mlnotes.logistic.glm, mlnotes.logistic._glm_terms, scipy.optimize]}
# TEST: 80 samples with an intercept: one step from w = 0 is least squares on
# sqrt(2 pi) (y - 1/2), 3 steps are the chapter's first 3 Fisher-scoring iterates,
# and 30 steps reach its maximiser
import warnings

X_test = np.column_stack([np.ones(80), np.random.default_rng(120).normal(size=(80, 2))])
y_test = X_test @ np.array([0.3, 0.8, -0.6])
y_test = (y_test + np.random.default_rng(121).normal(size=80) > 0).astype(float)
np.testing.assert_allclose(
    probit_scoring(X_test, y_test, 1),
    np.linalg.lstsq(X_test, np.sqrt(2 * np.pi) * (y_test - 0.5), rcond=None)[0],
    rtol=1e-9,
    strict=True,
)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # three steps stop at max_iter on purpose
    three = lg.probit(X_test, y_test, method="irls", max_iter=3)
np.testing.assert_allclose(
    probit_scoring(X_test, y_test, 3), three.w, rtol=1e-9, strict=True
)
np.testing.assert_allclose(
    probit_scoring(X_test, y_test, 30),
    lg.probit(X_test, y_test, method="irls").w,
    atol=1e-7,
    strict=True,
)

# HIDDEN TEST: exactly n_iter Fisher-scoring steps from w = 0 (n_iter = 0 returns w = 0)
from scipy.stats import norm

rng_h = np.random.default_rng(list(b"development secret"))
n_h = rng_h.integers(40, 150)
X_h = np.column_stack([np.ones(n_h), rng_h.normal(size=(n_h, rng_h.integers(1, 4)))])
y_h = (X_h @ rng_h.normal(scale=0.7, size=X_h.shape[1]) + rng_h.normal(size=n_h) > 0)
y_h = y_h.astype(float)
w_h = np.zeros(X_h.shape[1])
for k_h in range(4):
    np.testing.assert_allclose(
        probit_scoring(X_h, y_h, k_h), w_h, rtol=1e-8, atol=1e-10, strict=True
    )
    e_h = X_h @ w_h
    W_h = norm.pdf(e_h) ** 2 / (norm.cdf(e_h) * norm.sf(e_h))
    w_h = w_h + np.linalg.solve(
        (X_h.T * W_h) @ X_h, X_h.T @ (W_h * (y_h - norm.cdf(e_h)) / norm.pdf(e_h))
    )

# HIDDEN TEST: after 40 steps the probit's score equations X^T lambda = 0 hold
from scipy.stats import norm

rng_h = np.random.default_rng(list(b"development secret"))
n_h = rng_h.integers(100, 250)
X_h = np.column_stack([np.ones(n_h), rng_h.normal(size=(n_h, rng_h.integers(1, 5)))])
y_h = (X_h @ rng_h.normal(size=X_h.shape[1]) + rng_h.normal(size=n_h) > 0).astype(float)
w_h = probit_scoring(X_h, y_h, 40)
d_h = X_h.shape[1]
assert np.shape(w_h) == (d_h,), f"expected shape {(d_h,)}, received {np.shape(w_h)}"
q_h = 2 * y_h - 1
lam_h = q_h * norm.pdf(X_h @ w_h) / norm.cdf(q_h * (X_h @ w_h))
np.testing.assert_allclose(X_h.T @ lam_h, 0.0, atol=1e-8 * n_h)
np.testing.assert_allclose(w_h, lg.probit(X_h, y_h).w, atol=1e-6)

# %% [markdown]
# ```{exercise} Core · 3 points · about 40 min
# :label: ex-code-softmax-hessian
# Derive the Hessian of the softmax log-likelihood
# $\ell(W) = \sum_i \bigl[\sum_k Y_{ik}\, w_k^\top x_i - \log \sum_l e^{w_l^\top x_i}\bigr]$ of
# {ref}`sec-softmax` with respect to all $dK$ entries of $W \in \R^{d \times K}$ (every column
# free, no reference class), starting from {eq}`eq-softmax-gradient` or from part (b) of
# {ref}`ex-softmax-penalised` and the chain rule. You should find that the labels drop out,
# as they did for two classes, and that the Hessian is a sum over the samples of Kronecker
# products. Write `softmax_hessian(X, W)` that returns it as a $dK \times dK$ array whose
# entry `[j * K + k, h * K + l]` is $\partial^2 \ell / \partial W_{jk}\, \partial W_{hl}$,
# the order of `W.ravel()`. Use `lg.softmax` for the probabilities and no loop over the
# samples (`np.einsum` or `np.kron` on stacked arrays helps). While this is graded,
# `mlnotes.check.numerical_jacobian`, `mlnotes.check.numerical_hessian`,
# `mlnotes.check.numerical_gradient` and `scipy.optimize` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def softmax_hessian(X, W):
    # BEGIN SOLUTION
    d, K = W.shape
    P = lg.softmax(X @ W)
    # d^2 l / dW_jk dW_hl = -sum_i x_ij x_ih (p_ik [k = l] - p_ik p_il)
    H = np.einsum("ij,ih,ik,il->jkhl", X, X, P, P, optimize=True)
    H -= np.einsum("ij,ih,ik,kl->jkhl", X, X, P, np.eye(K), optimize=True)
    return H.reshape(d * K, d * K)
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: softmax-hessian, points: 3, tier: core, minutes: 40,
#   withdraw: [mlnotes.check.numerical_jacobian, mlnotes.check.numerical_hessian,
#              mlnotes.check.numerical_gradient, scipy.optimize]}
# TEST: 30 samples, 3 features, 3 classes, against a numerical Jacobian of the gradient
from mlnotes.check import numerical_jacobian

X_test = np.random.default_rng(130).normal(size=(30, 3))
Y_test = np.eye(3)[np.random.default_rng(131).integers(0, 3, size=30)]
W_test = np.random.default_rng(132).normal(size=(3, 3))
H_num = numerical_jacobian(
    lambda u: (X_test.T @ (Y_test - lg.softmax(X_test @ u.reshape(3, 3)))).ravel(),
    W_test.ravel(),
)
np.testing.assert_allclose(
    softmax_hessian(X_test, W_test), H_num, atol=1e-6, strict=True
)

# HIDDEN TEST: matches a numerical Jacobian of the gradient X^T (Y - P), any d and K
from mlnotes.check import numerical_jacobian

rng_h = np.random.default_rng(list(b"development secret"))
n_h, d_h, K_h = rng_h.integers(5, 60), rng_h.integers(2, 5), rng_h.integers(2, 6)
X_h = rng_h.normal(size=(n_h, d_h))
Y_h = np.eye(K_h)[rng_h.integers(0, K_h, size=n_h)]
W_h = rng_h.normal(scale=rng_h.uniform(0.2, 2), size=(d_h, K_h))
H_h = numerical_jacobian(
    lambda u: (X_h.T @ (Y_h - lg.softmax(X_h @ u.reshape(d_h, K_h)))).ravel(),
    W_h.ravel(),
)
np.testing.assert_allclose(
    softmax_hessian(X_h, W_h), H_h, atol=1e-7 * n_h, strict=True
)

# HIDDEN TEST: symmetric, negative semidefinite, and zero along the shifts W + c 1^T
rng_h = np.random.default_rng(list(b"development secret"))
n_h, d_h, K_h = rng_h.integers(5, 60), rng_h.integers(2, 5), rng_h.integers(2, 6)
X_h = rng_h.normal(size=(n_h, d_h))
W_h = rng_h.normal(size=(d_h, K_h))
H_h = softmax_hessian(X_h, W_h)
assert np.shape(H_h) == (d_h * K_h, d_h * K_h), f"shape {np.shape(H_h)}"
np.testing.assert_allclose(H_h, H_h.T, atol=1e-12 * n_h, strict=True)
top_h = np.linalg.eigvalsh(H_h).max()
assert top_h <= 1e-10 * n_h, f"largest eigenvalue {top_h:.3g} > 0: not concave"
shift_h = np.outer(rng_h.normal(size=d_h), np.ones(K_h)).ravel()
np.testing.assert_allclose(H_h @ shift_h, 0.0, atol=1e-10 * n_h)
v_h = rng_h.normal(size=(d_h, K_h))  # a direction that changes the probabilities
P_h = lg.softmax(X_h @ W_h)
S_h = X_h @ v_h  # the change of the scores along v_h
quad_h = -np.sum(P_h * S_h**2) + np.sum(np.sum(P_h * S_h, axis=1) ** 2)
np.testing.assert_allclose(v_h.ravel() @ H_h @ v_h.ravel(), quad_h, rtol=1e-9)

# %% [markdown]
# ```{exercise} Challenge · 4 points · about 60 min
# :label: ex-code-softmax-fit
# Write `softmax_fit(X, y, K, lam)`: softmax regression on labels $y_i \in \{0, \dots, K - 1\}$
# in the chapter's parametrisation, the last class's weights fixed at 0 (the redundancy
# {eq}`eq-softmax-redundancy`), maximising
# $F(W) = \sum_i \log p_{iy_i} - \frac\lambda2 \|W\|_F^2$ over the $W \in \R^{d \times K}$
# whose last column is 0, for a $\lambda \ge 0$ (with $\lambda = 0$ the tests use classes
# that overlap, so the maximiser exists). Return $W$, of shape $(d, K)$ with its last column
# exactly 0. Use any method that converges, and run it until every entry of the gradient of
# $F$ in the $K - 1$ free columns is at most $10^{-8} n$ in absolute value, for instance
#
# - Newton's method on the $d(K - 1)$ free entries: the Hessian of the exercise above
#   restricted to them, minus $\lambda I$, with the step halved until $F$ does not decrease; or
# - gradient ascent with the fixed step $1/L$, where $L = \|X\|_2^2/2 + \lambda$ bounds the
#   curvature of $F$ (every $\diag(p_i) - p_i p_i^\top$ has eigenvalues at most $\frac12$).
#
# Keep the gradient consistent with $F$: both are sums over the samples (a gradient of the
# mean log-likelihood next to the penalty $\lambda W$ maximises another function). The tests
# compare $W$ and $F(W)$ with the chapter's `lg.softmax_regression` (relative tolerance
# $10^{-8}$ on $F$), check that with $\lambda = 0$ the fitted probabilities of each class sum
# over the samples to its count (the gradient's intercept row), and that with $K = 2$ the fit
# is logistic regression ({eq}`eq-softmax-two-classes`). While this is graded,
# `mlnotes.logistic.softmax_regression`, `mlnotes.logistic._softmax_loglik` and
# `scipy.optimize` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def softmax_fit(X, y, K, lam):
    # BEGIN SOLUTION
    n, d = X.shape
    m = K - 1  # the free classes: column K - 1 of W stays 0
    Y = np.eye(K)[np.asarray(y, dtype=int)]
    W = np.zeros((d, K))

    def objective(W):
        A = X @ W
        top = A.max(axis=1)
        lse = top + np.log(np.exp(A - top[:, None]).sum(axis=1))
        return np.sum(Y * A) - lse.sum() - 0.5 * lam * np.sum(W * W)

    F = objective(W)
    for _ in range(100):
        P = lg.softmax(X @ W)
        G = (X.T @ (Y - P) - lam * W)[:, :m]  # gradient in the free entries, (d, m)
        if np.max(np.abs(G)) <= 1e-9 * n:
            break
        Pm = P[:, :m]
        # minus the Hessian in the free entries, ordered as G.ravel()
        H = np.einsum("ij,ih,ik,kl->jkhl", X, X, Pm, np.eye(m), optimize=True)
        H -= np.einsum("ij,ih,ik,il->jkhl", X, X, Pm, Pm, optimize=True)
        H = H.reshape(d * m, d * m) + lam * np.eye(d * m)
        step = np.zeros((d, K))
        step[:, :m] = np.linalg.solve(H, G.ravel()).reshape(d, m)
        t = 1.0
        while objective(W + t * step) < F and t > 1e-10:
            t *= 0.5
        W = W + t * step
        F = objective(W)
    return W
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: softmax-fit, points: 4, tier: challenge, minutes: 60,
#   withdraw: [mlnotes.logistic.softmax_regression, mlnotes.logistic._softmax_loglik,
#              scipy.optimize]}
# TEST: 90 samples, an intercept and 2 features, 3 classes, lam = 0.5: the chapter's W
X_test = np.column_stack([np.ones(90), np.random.default_rng(140).normal(size=(90, 2))])
y_test = np.argmax(
    X_test @ np.array([[0.5, 0.0, 0.0], [1.5, -1.0, 0.0], [0.0, 1.5, 0.0]])
    + np.random.default_rng(141).gumbel(size=(90, 3)),
    axis=1,
).astype(float)
W_got = softmax_fit(X_test, y_test, 3, 0.5)
assert np.shape(W_got) == (3, 3), f"expected shape (3, 3), received {np.shape(W_got)}"
assert np.all(W_got[:, -1] == 0), f"the last column is {W_got[:, -1]}, not 0"
np.testing.assert_allclose(
    W_got, lg.softmax_regression(X_test, y_test, lam=0.5).W, atol=1e-6, strict=True
)

# HIDDEN TEST: reaches the chapter's penalised objective, with a vanishing gradient
rng_h = np.random.default_rng(list(b"development secret"))
n_h, d_h, K_h = rng_h.integers(40, 120), rng_h.integers(1, 4), rng_h.integers(2, 5)
X_h = np.column_stack([np.ones(n_h), rng_h.normal(size=(n_h, d_h))])
y_h = np.argmax(
    X_h @ rng_h.normal(size=(d_h + 1, K_h)) + rng_h.gumbel(size=(n_h, K_h)), axis=1
)
y_h = np.concatenate([np.arange(K_h), y_h[K_h:]]).astype(float)  # every class present
lam_h = 10 ** rng_h.uniform(-0.5, 1)
W_h = softmax_fit(X_h, y_h, int(K_h), lam_h)
assert np.shape(W_h) == (d_h + 1, K_h), f"shape {np.shape(W_h)}, not {(d_h + 1, K_h)}"
assert np.all(W_h[:, -1] == 0), f"the last column is {W_h[:, -1]}, not 0"
Y_h = np.eye(K_h)[y_h.astype(int)]


def F_h(W):
    A = X_h @ W
    return np.sum(Y_h * A) - np.sum(np.log(np.sum(np.exp(A), axis=1))) - (
        0.5 * lam_h * np.sum(W * W)
    )


np.testing.assert_allclose(
    F_h(W_h), F_h(lg.softmax_regression(X_h, y_h, lam=lam_h).W), rtol=1e-8
)
G_h = (X_h.T @ (Y_h - lg.softmax(X_h @ W_h)) - lam_h * W_h)[:, :-1]
assert np.max(np.abs(G_h)) <= 1e-6 * n_h, f"gradient {np.max(np.abs(G_h)):.3g}"

# HIDDEN TEST: with lam = 0 the class probabilities sum to the class counts
rng_h = np.random.default_rng(list(b"development secret"))
K_h = rng_h.integers(2, 5)
n_h = rng_h.integers(60, 80) * K_h
X_h = np.column_stack([np.ones(n_h), rng_h.normal(size=(n_h, rng_h.integers(1, 3)))])
y_h = rng_h.permutation(np.arange(n_h) % K_h).astype(float)  # labels that ignore x
W_h = softmax_fit(X_h, y_h, int(K_h), 0.0)
assert np.shape(W_h) == (X_h.shape[1], K_h), f"shape {np.shape(W_h)}"
assert np.all(W_h[:, -1] == 0), f"the last column is {W_h[:, -1]}, not 0"
np.testing.assert_allclose(
    lg.softmax(X_h @ W_h).sum(axis=0), np.bincount(y_h.astype(int)), atol=1e-6 * n_h
)
np.testing.assert_allclose(
    W_h, lg.softmax_regression(X_h, y_h).W, atol=1e-5, strict=True
)

# HIDDEN TEST: with K = 2 the first column is penalised logistic regression of [y = 0]
rng_h = np.random.default_rng(list(b"development secret"))
n_h = rng_h.integers(40, 120)
X_h = np.column_stack([np.ones(n_h), rng_h.normal(size=(n_h, rng_h.integers(1, 4)))])
p_h = lg.sigmoid(X_h @ rng_h.normal(size=X_h.shape[1]))
y_h = (rng_h.random(n_h) < p_h).astype(float)
lam_h = 10 ** rng_h.uniform(-1, 1)
W_h = softmax_fit(X_h, y_h, 2, lam_h)
assert np.shape(W_h) == (X_h.shape[1], 2), f"shape {np.shape(W_h)}"
np.testing.assert_allclose(
    W_h[:, 0], lg.newton(X_h, (y_h == 0).astype(float), lam=lam_h).w, atol=1e-6
)
np.testing.assert_allclose(W_h[:, 1], 0.0, atol=0.0)

# %% [markdown]
# ```{exercise} Core · 3 points · about 35 min
# :label: ex-code-softmax-cv
# (Experiment: choosing the penalty on iris.) With all four measurements of Fisher's iris data,
# setosa is separable from the other species, so unpenalised softmax regression has no
# maximiser and $\lambda$ has to be chosen. Write `cv_log_loss(X, y, lams, folds)` that
# returns, for each $\lambda$ in `lams`, the cross-validated log-loss of
# `lg.softmax_regression(..., lam=lam)`: for each fold label $f$ in `folds`, fit on the
# samples with `folds != f` and score each sample $i$ with `folds == f` by $-\log p_{iy_i}$
# (natural logarithm; $p_{iy_i}$ is the probability the fit gives its true class); return the
# average of the $n$ held-out scores (every sample is held out once), one number per
# $\lambda$, as an array of shape `(len(lams),)`. The tests pass `X` with an intercept
# column and the standardised measurements of `datasets.load_iris()` (all 150 flowers, or a
# random subsample and some of the features), `y` the species and fold labels `folds`, and
# compare with the same computation done with the library at a relative tolerance of
# $10^{-6}$.
# Then run it on the full data with the five folds `np.arange(150) % 5` and
# $\lambda \in \{10^{-6}, 10^{-5}, \dots, 10^{2}\}$: which $\lambda$ does cross-validation
# choose, what happens to the largest weight as $\lambda$ falls, and why does the log-loss
# grow at both ends of the grid?
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def cv_log_loss(X, y, lams, folds):
    # BEGIN SOLUTION
    y, folds = np.asarray(y), np.asarray(folds)
    rows = np.arange(len(y))
    out = np.zeros(len(lams))
    for j, lam in enumerate(lams):
        for f in np.unique(folds):
            test = folds == f
            fit = lg.softmax_regression(X[~test], y[~test], lam=lam)
            P = fit.predict_proba(X[test])
            out[j] -= np.sum(np.log(P[rows[: test.sum()], y[test].astype(int)]))
    return out / len(y)
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: softmax-cv, points: 3, tier: core, minutes: 35, data: iris}
# TEST: all 150 irises, 4 folds of unequal sizes, three penalties, against the library
iris_test = datasets.load_iris()
Z_test = (iris_test.X - iris_test.X.mean(0)) / iris_test.X.std(0)
X_test, y_test = np.column_stack([np.ones(150), Z_test]), iris_test.y
folds_test, lams_test = np.arange(150) % 4, [0.01, 0.3, 10.0]
expected = np.zeros(3)
for j, lam in enumerate(lams_test):
    for f in range(4):
        fit = lg.softmax_regression(
            X_test[folds_test != f], y_test[folds_test != f], lam=lam
        )
        P = fit.predict_proba(X_test[folds_test == f])
        true = y_test[folds_test == f].astype(int)
        expected[j] -= np.log(P[np.arange(len(P)), true]).sum()
np.testing.assert_allclose(
    cv_log_loss(X_test, y_test, lams_test, folds_test),
    expected / 150,
    rtol=1e-6,
    strict=True,
)

# HIDDEN TEST: agrees with the library on a random subsample, random folds and penalties
rng_h = np.random.default_rng(list(b"development secret"))
iris_h = datasets.load_iris()
keep_h = np.concatenate(
    [rng_h.choice(np.flatnonzero(iris_h.y == k), rng_h.integers(20, 51), replace=False)
     for k in range(3)]
)
cols_h = np.sort(rng_h.choice(4, rng_h.integers(2, 5), replace=False))
Z_h = iris_h.X[np.ix_(keep_h, cols_h)]
X_h = np.column_stack([np.ones(len(keep_h)), (Z_h - Z_h.mean(0)) / Z_h.std(0)])
y_h, F_h = iris_h.y[keep_h], rng_h.integers(3, 7)
folds_h = rng_h.permutation(len(y_h)) % F_h
lams_h = 10 ** rng_h.uniform(-2, 1.5, size=3)
expected_h = np.zeros(3)
for j, lam in enumerate(lams_h):
    for f in range(F_h):
        fit = lg.softmax_regression(X_h[folds_h != f], y_h[folds_h != f], lam=lam)
        P = fit.predict_proba(X_h[folds_h == f])
        true = y_h[folds_h == f].astype(int)
        expected_h[j] -= np.log(P[np.arange(len(P)), true]).sum()
np.testing.assert_allclose(
    cv_log_loss(X_h, y_h, list(lams_h), folds_h), expected_h / len(y_h), rtol=1e-6,
    strict=True,
)

# HIDDEN TEST: a huge penalty predicts 1/3 for each species (log-loss log 3), a moderate
# one does far better, and the held-out loss exceeds the training loss
rng_h = np.random.default_rng(list(b"development secret"))
iris_h = datasets.load_iris()
keep_h = rng_h.permutation(150)[: rng_h.integers(90, 151)]
Z_h = iris_h.X[keep_h]
X_h = np.column_stack([np.ones(len(keep_h)), (Z_h - Z_h.mean(0)) / Z_h.std(0)])
y_h = iris_h.y[keep_h]
folds_h = rng_h.permutation(len(y_h)) % rng_h.integers(3, 6)
lam_h = 10 ** rng_h.uniform(-1, 0.5)
got_h = cv_log_loss(X_h, y_h, [1e7, lam_h], folds_h)
assert np.shape(got_h) == (2,), f"expected shape (2,), received {np.shape(got_h)}"
np.testing.assert_allclose(got_h[0], np.log(3.0), rtol=1e-3)
fit_h = lg.softmax_regression(X_h, y_h, lam=lam_h)
P_h = fit_h.predict_proba(X_h)
train_h = -np.mean(np.log(P_h[np.arange(len(y_h)), y_h.astype(int)]))
assert train_h < got_h[1] < 0.6, f"held-out {got_h[1]:.4g}, training {train_h:.4g}"

# %% [markdown]
# ## Summary
#
# - Least squares is maximum likelihood for Gaussian noise; for labels $y \in \{0, 1\}$ the
#   likelihood is Bernoulli, with $P(y = 1 \mid x) = g(w^\top x)$: linear log-odds.
# - $g' = g(1 - g)$ and $1 - g(a) = g(-a)$ give the gradient $X^\top(y - g)$ and the Hessian
#   $-X^\top R X$; the log-likelihood is concave.
# - Newton's step $w + (X^\top R X)^{-1} X^\top (y - g)$ is a weighted least-squares fit of the
#   adjusted response $z = Xw + R^{-1}(y - g)$ (IRLS). It converges quadratically: 6 or 7 iterations
#   reproduce Stata's Spector estimates and ESL's Table 4.2; gradient ascent needs over a hundred
#   iterations even on standardised features, and far more on raw ones.
# - The negative log-likelihood is the log-loss $\sum_i \log(1 + e^{-y^\pm_i f(x_i)})$, a convex
#   upper bound (in bits) of the 0-1 loss.
# - On separable data the MLE does not exist; detect it (an LP decides exactly) and regularise
#   with $\lambda > 0$.
# - Costs shift the intercept by $\log(\gamma_1/\gamma_2)$; every increasing link with
#   $G(0) = \frac12$ gives the same decision rule; softmax regression extends the model to $K$
#   classes, with one class's weights redundant.
# - With $C$ classes, costs shift each intercept by $\ln(\gamma_c/\gamma_C)$
#   {eq}`eq-multiclass-cost-shift`.
# - The probit's Hessian has weights $\lambda_i(\lambda_i + a_i)$ {eq}`eq-probit-hessian`;
#   their expectation {eq}`eq-probit-fisher-weights` gives Fisher scoring. Both reproduce
#   Stata's probit of the Spector data.
# - In an exponential family $\E y = A'(\theta)$ and $\operatorname{Var} y = \phi A''(\theta)$;
#   a GLM's Fisher scoring step is the weighted least-squares fit {eq}`eq-glm-irls-step`,
#   which is least squares for the Gaussian, Newton's IRLS for the logit and Fisher scoring
#   for the probit.
#
# ## References
#
# {cite}`hastie2009elements` (section 4.4) treats logistic regression and IRLS, with the
# South African heart disease example; {cite}`greene2003econometric` the logit model and the
# Spector and Mazzeo data {cite}`spector1980probit`; {cite}`albert1984existence` the existence
# of the maximum likelihood estimate, and {cite}`konis2007linear` its detection by linear
# programming; {cite}`nocedal2006numerical` Newton's method and its convergence. Generalised
# linear models and their IRLS are due to {cite}`nelder1972generalized`;
# {cite}`mccullagh1989generalized` is the standard account.
