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
#   enumerator: '0.%s'
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
# (chap-notation)=
# # Notation and matrix calculus
#
# Every chapter of this course derives an algorithm by writing a loss as a function of a weight
# vector, differentiating it, and setting the derivative to zero or following it downhill. This
# chapter fixes the notation once and collects the handful of derivative identities that all
# later derivations use. Each identity is followed by a cell that checks it numerically.
#
# **What you will learn**
#
# - how data, labels and parameters are written throughout the book;
# - the gradient of a linear form, of a quadratic form (symmetric or not), of the residual sum
#   of squares, of a sum of elementwise functions, and of log-sum-exp;
# - gradients with respect to a matrix: the trace and the Frobenius norm, for multi-output
#   models, and the log-determinant and the inverse, for covariances;
# - the Hessian of a quadratic;
# - how to check any gradient against finite differences, and how to choose the step.

# %%
import textwrap

import matplotlib.pyplot as plt
import numpy as np

from mlnotes import claims, plots
from mlnotes.check import numerical_gradient, rel_error

plots.setup()
np.set_printoptions(precision=4, suppress=True)
rng = np.random.default_rng(0)

# %% [markdown]
# (sec-notation-data)=
# ## Data, labels and parameters
#
# A data set has $n$ **samples** indexed by $i = 1, \dots, n$, each with $d$ **features**
# indexed by $j$. Sample $i$ is the column vector $x_i \in \R^d$; stacking the samples as rows
# gives the **design matrix**
#
# $$
# X = \begin{pmatrix} x_1^\top \\ \vdots \\ x_n^\top \end{pmatrix} \in \R^{n \times d},
# \qquad X_{ij} = \text{feature } j \text{ of sample } i .
# $$ (def-design-matrix)
#
# So a subscript $i$ always counts samples and a subscript $j$ always counts features. When a
# model has an intercept we add a constant feature $x_{i0} = 1$ as the first column of $X$; the
# linear score $w^\top x_i = w_0 + \sum_{j \ge 1} w_j x_{ij}$ then carries the intercept as
# $w_0$. Chapters that keep the bias apart write $f(x) = w^\top x + b$ instead.
#
# Targets are collected in $y \in \R^n$. For classification two label sets are used, each where
# it makes the algebra simplest:
#
# - $y_i \in \{0, 1\}$ for likelihood models (logistic regression, Chapter 2), where $y_i$ is
#   a Bernoulli outcome;
# - $y_i \in \{-1, +1\}$ for margin-based methods (perceptron, SVM, AdaBoost), where the
#   **margin** $M_i = y_i f(x_i)$ is positive exactly when sample $i$ is classified correctly.
#
# The two are related by $y^{\pm} = 2 y^{01} - 1$; `mlnotes.to_pm1` and `mlnotes.to_01`
# convert, and every function in `mlnotes` refuses labels from the wrong set.
#
# The inner product of two vectors is $a^\top b = \sum_j a_j b_j$, the Euclidean norm is
# $\|a\| = \sqrt{a^\top a}$, and the prediction for all samples at once is the matrix-vector
# product $Xw$. The full list is the {doc}`table of symbols </book/symbols>`.

# %%
from mlnotes import to_01, to_pm1

y01 = np.array([0, 1, 1, 0])
print(
    "{0,1} labels:", y01, " as {-1,+1}:", to_pm1(y01), " and back:", to_01(to_pm1(y01))
)
try:
    to_pm1(np.array([1, 2, 3]))
except ValueError as err:
    print(textwrap.fill(f"ValueError: {err}", 88))

# %% [markdown]
# (sec-gradients)=
# ## Gradients
#
# For a scalar function $J : \R^d \to \R$ the **gradient** $\nabla_w J(w) \in \R^d$ is the
# column vector of partial derivatives $\partial J / \partial w_j$. It is defined by the first
# order expansion
#
# $$
# J(w + h) = J(w) + \nabla_w J(w)^\top h + o(\|h\|),
# $$ (def-gradient)
#
# which is also the quickest way to compute it: expand $J(w + h)$, keep the terms linear in $h$
# and read off the vector they are paired with.
#
# ### Linear forms
#
# For $J(w) = a^\top w$ we have $J(w + h) = a^\top w + a^\top h$ exactly, so
#
# $$
# \nabla_w\, a^\top w = a .
# $$ (eq-grad-linear)
#
# The check cell below builds random instances, differentiates numerically and reports the
# worst relative difference from the formula (see {ref}`sec-checking-gradients`).

# %%
claims.verify("eq-grad-linear")

# %% [markdown]
# ### Quadratic forms
#
# For $J(w) = w^\top A w$ with a square matrix $A$,
# $J(w + h) = w^\top A w + h^\top A w + w^\top A h + h^\top A h$. The two middle terms are
# scalars, and $h^\top A w = w^\top A^\top h$, so the linear part is $w^\top (A + A^\top) h$:
#
# $$
# \nabla_w\, w^\top A w = (A + A^\top)\, w .
# $$ (eq-grad-quadratic)

# %%
claims.verify("eq-grad-quadratic")

# %% [markdown]
# When $A$ is symmetric the two terms coincide:
#
# $$
# \nabla_w\, w^\top A w = 2 A w \qquad (A = A^\top).
# $$ (eq-grad-quadratic-sym)
#
# The formula $2Aw$ is only right for symmetric $A$. With a non-symmetric $A$ it is off by
# $(A^\top - A)w$, which the numerical check sees at once:

# %%
claims.verify("eq-grad-quadratic-sym")

A = rng.standard_normal((3, 3))
w = rng.standard_normal(3)
numeric = numerical_gradient(lambda v: v @ A @ v, w)
# the first error is rounding-level (its digits depend on the machine): print it as a
# verdict
assert rel_error(numeric, (A + A.T) @ w) < 1e-9
print(
    f"non-symmetric A: error of (A + A^T) w < 1e-9, error of 2 A w = "
    f"{rel_error(numeric, 2 * A @ w):.2f}"
)

# %% [markdown]
# ### The residual sum of squares
#
# Least squares (Chapter 1) minimises
# $\mathrm{RSS}(w) = \|y - Xw\|^2 = y^\top y - 2 y^\top X w + w^\top X^\top X w$. The middle
# term is linear with $a = X^\top y$ and the last is quadratic with the symmetric matrix
# $X^\top X$, so by {eq}`eq-grad-linear` and {eq}`eq-grad-quadratic-sym`
#
# $$
# \nabla_w \|y - Xw\|^2 = -2 X^\top y + 2 X^\top X w = -2 X^\top (y - Xw) .
# $$ (eq-grad-rss)
#
# Setting it to zero gives the normal equations $X^\top X w = X^\top y$ of Chapter 1. The
# gradient is $-2X^\top r$ with the residual $r = y - Xw$: at the minimum the residual is
# orthogonal to every column of $X$.

# %%
claims.verify("eq-grad-rss")

# %% [markdown]
# ### The chain rule through an elementwise function
#
# Logistic regression, SVMs and boosting all minimise objectives of the form
# $J(w) = \sum_i \phi(x_i^\top w)$ for a scalar function $\phi$. Perturbing $w$ by $h$ moves
# each score $a_i = x_i^\top w$ by $x_i^\top h$, so
# $J(w + h) = J(w) + \sum_i \phi'(a_i)\, x_i^\top h + o(\|h\|)$ and
#
# $$
# \nabla_w \sum_{i=1}^n \phi(x_i^\top w) = \sum_{i=1}^n \phi'(x_i^\top w)\, x_i = X^\top \phi'(Xw),
# $$ (eq-chain-elementwise)
#
# where $\phi'$ is applied elementwise. The right-hand side is one matrix-vector product: this
# is why the gradients in this course are vectorised, never a Python loop over samples. The
# check uses the softplus $\phi(a) = \log(1 + e^{a})$, whose derivative is the sigmoid.

# %%
claims.verify("eq-chain-elementwise")

# %% [markdown]
# (sec-matrix-gradients)=
# ## Gradients with respect to a matrix
#
# A model with several outputs has a matrix of weights $W \in \R^{d \times k}$, one column
# per output. The gradient of a scalar $J(W)$ is the $d \times k$ matrix of the partial
# derivatives $\partial J / \partial W_{jl}$, of the same shape as $W$. Matrices of one shape
# form a vector space with the inner product
# $\langle A, B \rangle = \sum_{j,l} A_{jl} B_{jl} = \tr(A^\top B)$, whose norm is the
# **Frobenius norm** $\|A\|_F = \sqrt{\tr(A^\top A)}$, and the first-order expansion
# {eq}`def-gradient` reads
#
# $$
# J(W + H) = J(W) + \tr\big(\nabla_W J(W)^\top H\big) + o(\|H\|_F) .
# $$ (def-matrix-gradient)
#
# The recipe is the same as for vectors: expand, keep the part linear in $H$, and write it as
# $\tr(G^\top H)$; then $G$ is the gradient. Two facts about the trace do most of the work:
# $\tr(AB) = \tr(BA)$ whenever both products are defined, and $\tr(A) = \tr(A^\top)$.
#
# ### A linear function of a matrix
#
# For $A \in \R^{k \times d}$, $J(W) = \tr(AW)$ is linear, and
# $\tr(AH) = \tr\big((A^\top)^\top H\big)$, so
#
# $$
# \nabla_W \tr(AW) = A^\top .
# $$ (eq-grad-trace)
#
# It is the matrix form of {eq}`eq-grad-linear` (with $k = 1$, $\tr(AW) = a^\top w$ for the
# row $A = a^\top$). The transpose is the classic slip: the check also runs square $A$, where
# the wrong answer $A$ has the right shape.

# %%
claims.verify("eq-grad-trace")

# %% [markdown]
# ### The residual sum of squares of several outputs
#
# With targets $Y \in \R^{n \times k}$ (one column per output) and predictions $XW$, the
# residual sum of squares is $\|XW - Y\|_F^2 = \tr\big((XW - Y)^\top (XW - Y)\big)$. With
# $E = XW - Y$, replacing $W$ by $W + H$ gives
# $\tr\big((E + XH)^\top (E + XH)\big) = \tr(E^\top E) + 2\tr(E^\top X H) + \tr(H^\top X^\top X H)$,
# and the linear part is $2\tr\big((X^\top E)^\top H\big)$. Lecture notes often store the
# samples as the **columns** of a $d \times n$ matrix, as the notes behind Chapter 1 do, and
# predict with $WX$ ($W$ of shape $k \times d$); transposing everything ($\|A\|_F =
# \|A^\top\|_F$) gives the second form:
#
# $$
# \begin{gathered}
# \nabla_W \|XW - Y\|_F^2 = 2 X^\top (XW - Y) \quad \text{(samples as rows)}, \\
# \nabla_W \|WX - Y\|_F^2 = 2 (WX - Y) X^\top \quad \text{(samples as columns)} .
# \end{gathered}
# $$ (eq-grad-frobenius-rss)
#
# With $k = 1$ the first line is {eq}`eq-grad-rss`, with the sign absorbed by writing
# $XW - Y$. Column $l$ of the gradient involves only column $l$ of $W$ and of $Y$: the
# outputs do not interact, which Chapter 1 uses to fit all of them at once.

# %%
claims.verify("eq-grad-frobenius-rss")

# %% [markdown]
# ### The log-determinant and the inverse
#
# Covariance matrices enter likelihoods through $\ln\det$ and the inverse (Chapter 1 fits
# prior variances by differentiating a Gaussian density in its covariance). For a square
# invertible $W$, $\det(W + H) = \det W \det(I + W^{-1}H)$, and
# $\det(I + E) = 1 + \tr(E) + O(\|E\|_F^2)$ (the product of the diagonal, all other terms
# having two off-diagonal factors). So
# $\ln|\det(W + H)| = \ln|\det W| + \tr(W^{-1}H) + o(\|H\|_F)$. For the inverse,
# $(W + H)^{-1} = W^{-1} - W^{-1}HW^{-1} + O(\|H\|_F^2)$, which one multiplication by
# $W + H$ confirms, so $\tr(A(W + H)^{-1})$ has the linear part $-\tr(W^{-1}AW^{-1}H)$.
# Written as $\tr(G^\top H)$:
#
# $$
# \nabla_W \ln|\det W| = W^{-\top}, \qquad
# \nabla_W \tr(AW^{-1}) = -W^{-\top}A^\top W^{-\top} .
# $$ (eq-grad-logdet)
#
# For a symmetric covariance $S$ depending on parameters these read
# $d\ln\det S = \tr(S^{-1}dS)$ and $dS^{-1} = -S^{-1}(dS)S^{-1}$. The check runs
# non-symmetric $W$, where forgetting the transposes gives the wrong answer.

# %%
claims.verify("eq-grad-logdet")

# %% [markdown]
# (sec-hessian)=
# ## Hessians
#
# The **Hessian** $\nabla^2_w J(w)$ is the $d \times d$ matrix of second derivatives
# $\partial^2 J / \partial w_j \partial w_k$: the Jacobian of the gradient. For the quadratic
# $J(w) = \tfrac12 w^\top A w - b^\top w$ the gradient is $\tfrac12 (A + A^\top) w - b$, which is
# linear in $w$, so
#
# $$
# \nabla^2_w \left( \tfrac12 w^\top A w - b^\top w \right) = \tfrac12 (A + A^\top) ,
# $$ (eq-hess-quadratic)
#
# which is just $A$ when $A$ is symmetric. A quadratic with a positive definite Hessian has a
# unique minimiser, where the gradient vanishes: $A w = b$. The figure shows such a quadratic:
# its contours are ellipses whose axes are the eigenvectors of $A$, and the negative gradient
# (arrows) points downhill, across the contours, but not at the minimum unless the contours
# are circles. This is why plain gradient descent zig-zags on ill-conditioned problems and why
# Newton's method (Chapter 2), which rescales by the Hessian, does not ({numref}`fig-gradient-contours`).

# %%
claims.verify("eq-hess-quadratic")

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Contours of a quadratic $f(w) = \\tfrac12 w^\\top A w - b^\\top w$ with an ill-conditioned $A$; the negative gradients (arrows) cross the contours at right angles and do not point at the minimiser $w^\\star = A^{-1}b$.", "name": "fig-gradient-contours"}, "image": {"alt": "Elliptic contour lines with arrows perpendicular to them, not aimed at the marked minimiser."}} tags=["hide-input"]
A = np.array([[3.0, 1.2], [1.2, 1.0]])
b = np.array([1.0, 0.5])
w_star = np.linalg.solve(A, b)
g0, g1 = np.meshgrid(np.linspace(-1.5, 2.0, 200), np.linspace(-2.0, 2.5, 200))
W = np.stack([g0.ravel(), g1.ravel()], axis=1)
J = 0.5 * np.einsum("ij,jk,ik->i", W, A, W) - W @ b

fig, ax = plt.subplots(figsize=(5.5, 5.0))
ax.contour(g0, g1, J.reshape(g0.shape), levels=15, cmap="viridis", linewidths=1)
q0, q1 = np.meshgrid(np.linspace(-1.2, 1.8, 9), np.linspace(-1.7, 2.2, 9))
Q = np.stack([q0.ravel(), q1.ravel()], axis=1)
G = Q @ A.T - b  # gradient of the quadratic at each grid point
ax.quiver(
    Q[:, 0], Q[:, 1], -G[:, 0], -G[:, 1], color="#555555", angles="xy", width=0.004
)
ax.plot(*w_star, "r*", markersize=14, label=r"minimiser $w^\star = A^{-1} b$")
ax.set(
    xlabel="$w_1$",
    ylabel="$w_2$",
    title=r"$J(w) = \frac{1}{2} w^\top A w - b^\top w$ and $-\nabla J$",
)
ax.set_aspect("equal")
ax.legend(loc="upper right")
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-gradient-contours
# Contours of a quadratic $f(w) = \tfrac12 w^\top A w - b^\top w$ with an ill-conditioned $A$; the negative gradients (arrows) cross the contours at right angles and do not point at the minimiser $w^\star = A^{-1}b$.
# :::

# %% [markdown]
# (sec-logsumexp)=
# ## Log-sum-exp and the softmax
#
# Multiclass logistic regression (Chapter 2) uses the function
# $\operatorname{lse}(z) = \log \sum_{k=1}^K e^{z_k}$. Its partial derivatives are
# $e^{z_k} / \sum_l e^{z_l}$, which together form the **softmax**:
#
# $$
# \nabla_z \log \sum_{k=1}^K e^{z_k} = \mathrm{softmax}(z), \qquad
# \mathrm{softmax}(z)_k = \frac{e^{z_k}}{\sum_l e^{z_l}} .
# $$ (eq-grad-logsumexp)

# %%
claims.verify("eq-grad-logsumexp")

# %% [markdown]
# Computed as written, $e^{z_k}$ overflows for $z_k > 709$ in double precision. Since
# $\sum_k e^{z_k} = e^{m} \sum_k e^{z_k - m}$ for any constant $m$,
#
# $$
# \log \sum_{k} e^{z_k} = m + \log \sum_{k} e^{z_k - m},
# $$ (eq-logsumexp-shift)
#
# and choosing $m = \max_k z_k$ makes every exponent at most 0, so nothing overflows and the
# largest term is exactly 1. The check compares the two formulas where the naive one is safe;
# the cell after it shows where it is not.

# %%
claims.verify("eq-logsumexp-shift")

# %%
z = np.array([1000.0, 999.0, 990.0])
with np.errstate(over="ignore"):
    naive = np.log(np.sum(np.exp(z)))
shifted = z.max() + np.log(np.sum(np.exp(z - z.max())))
print(f"naive: {naive}, shifted: {shifted:.6f}")

# %% [markdown]
# (sec-checking-gradients)=
# ## Checking a gradient
#
# Every check cell above compares a formula with the **central difference**
# $\big(J(w + h e_j) - J(w - h e_j)\big) / 2h$ in each coordinate $j$ (`mlnotes.check`). Its
# truncation error is of order $h^2 J'''$, and rounding makes $J(w \pm h e_j)$ wrong by about
# $\epsilon |J|$ with $\epsilon \approx 2.2 \times 10^{-16}$, an error of order $\epsilon / h$
# after dividing by $2h$. The total $h^2 + \epsilon/h$ is smallest near
# $h \approx \epsilon^{1/3} \approx 6 \times 10^{-6}$, where the relative error is about
# $\epsilon^{2/3} \approx 4 \times 10^{-11}$; that is why the claims of this chapter use a
# tolerance of $10^{-7}$, loose enough for any instance and far below the error of order 1 that
# a wrong formula produces. The figure shows both regimes for the softplus sum above ({numref}`fig-finite-difference-error`).

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Relative error of the central-difference gradient against the step $h$: truncation error $\\propto h^2$ for large steps, rounding error $\\propto \\epsilon/h$ for small ones, smallest near $h = \\epsilon^{1/3}$.", "name": "fig-finite-difference-error"}, "image": {"alt": "Log-log plot of gradient error against step size, a V shape with its minimum near h = 1e-5."}} tags=["hide-input"]
X = rng.standard_normal((20, 4))
w = rng.standard_normal(4)
J_soft = lambda v: np.sum(np.logaddexp(0.0, X @ v))
exact = X.T @ (1 / (1 + np.exp(-(X @ w))))
hs = np.logspace(-13, -1, 49)
errors = [rel_error(numerical_gradient(J_soft, w, h=h), exact) for h in hs]
fig, ax = plt.subplots()
ax.loglog(hs, errors, "o-", ms=3, label="central difference")
ax.loglog(hs, hs**2, "--", color="gray", label="$h^2$ (truncation)")
ax.loglog(hs, 1e-16 / hs, ":", color="gray", label=r"$\epsilon / h$ (rounding)")
ax.axvline(
    np.finfo(float).eps ** (1 / 3), color="r", lw=1, label=r"$h = \epsilon^{1/3}$"
)
ax.set(xlabel="step $h$", ylabel="relative error of the gradient", ylim=(1e-13, 1e0))
ax.legend()
plt.show()
# which grid point wins is decided by rounding noise, so print only what the analysis
# predicts
h_best = hs[int(np.argmin(errors))]
print(
    f"best step on the grid within a factor 10 of eps^(1/3): "
    f"{abs(np.log10(h_best / np.finfo(float).eps ** (1 / 3))) < 1}; its error below "
    f"1e-9: {min(errors) < 1e-9}"
)

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-finite-difference-error
# Relative error of the central-difference gradient against the step $h$: truncation error $\propto h^2$ for large steps, rounding error $\propto \epsilon/h$ for small ones, smallest near $h = \epsilon^{1/3}$.
# :::

# %% [markdown]
# (sec-notation-implementation)=
# ## Implementation
#
# The check cells of this chapter, and most claims of the course, rest on two small functions of
# `mlnotes.check`; the cells below display their code from the library itself, without the
# docstrings and argument checks (they are in the {ref}`library reference <sec-api>`), and the
# text cites the listings' line numbers.

# %%
from mlnotes import show_source
from mlnotes.check import _steps

show_source(numerical_gradient)

# %% [markdown]
# The step `steps[j]`, line 5 (`_steps(flat, 1 / 3, h)`), is $h_j = \epsilon^{1/3} \max(1,
# |x_j|)$, the balance of truncation and rounding found in {ref}`sec-checking-gradients`, scaled
# so that a large coordinate gets a step it can feel (`_steps` below). The loop,
# lines 7-12, moves one coordinate at a time because `f` is a black box; line 12
# (`grad[j] = (f_plus - f_minus)`) is the central difference. A claim such as
# {eq}`eq-grad-rss` then compares this with the formula through `rel_error`, which divides by the
# larger of the two norms so that neither side is taken as the truth.

# %%
show_source(_steps)

# %%
show_source(rel_error)

# %% [markdown]
# (sec-notation-exercises)=
# ## Exercises
#
# ```{exercise}
# :label: ex-grad-bilinear
# Let $A \in \R^{m \times d}$, $u \in \R^m$ and $J(w) = u^\top A w$. Compute $\nabla_w J$ by
# expanding $J(w + h)$, then compute $\nabla_u J$ for fixed $w$.
# ```
#
# ```{solution} ex-grad-bilinear
# :class: dropdown
# $J(w + h) = u^\top A w + u^\top A h$, so $\nabla_w J = A^\top u$ by {eq}`eq-grad-linear`
# with $a = A^\top u$. As a function of $u$, $J = (Aw)^\top u$, so $\nabla_u J = A w$.
# ```
#
# ```{exercise}
# :label: ex-weighted-rss
# For a diagonal matrix $R$ with positive entries, compute the gradient and Hessian of the
# weighted residual sum of squares $J(w) = (y - Xw)^\top R\, (y - Xw)$. When is the Hessian
# positive definite? (This is the objective of iteratively reweighted least squares in
# Chapter 2.)
# ```
#
# ```{solution} ex-weighted-rss
# :class: dropdown
# Expanding, $J(w) = y^\top R y - 2 (X^\top R y)^\top w + w^\top X^\top R X w$, so by
# {eq}`eq-grad-linear` and {eq}`eq-grad-quadratic-sym`, $\nabla J = -2 X^\top R (y - Xw)$ and
# $\nabla^2 J = 2 X^\top R X$. For $v \ne 0$, $v^\top X^\top R X v = \sum_i R_{ii} (x_i^\top v)^2$,
# which is positive unless $Xv = 0$: the Hessian is positive definite exactly when $X$ has full
# column rank.
# ```
#
# ```{exercise} Proof: log-sum-exp is convex
# :label: ex-softmax-jacobian
# Let $p = \mathrm{softmax}(z)$ for $z \in \R^K$. Prove that the Hessian of
# $\operatorname{lse}(z)$ is $\diag(p) - p p^\top$, that it is positive semidefinite, and
# that its null space is exactly the line spanned by the all-ones vector $\mathbf 1$. Then
# prove that a twice continuously differentiable function with a positive semidefinite
# Hessian everywhere is convex, and conclude that log-sum-exp is convex. Why does the null
# direction make sense?
# ```
#
# ```{solution} ex-softmax-jacobian
# :class: dropdown
# *The Hessian.* By {eq}`eq-grad-logsumexp` the gradient is $p$, so the Hessian is the
# Jacobian of $p$. With $s = \sum_l e^{z_l}$ and $p_k = e^{z_k} / s$, the quotient rule and
# $\partial s / \partial z_l = e^{z_l}$ give
# $\partial p_k / \partial z_l = [k = l]\, e^{z_k} / s - e^{z_k} e^{z_l} / s^2
# = [k = l]\, p_k - p_k p_l$, which is entry $(k, l)$ of $\diag(p) - pp^\top$.
#
# *Positive semidefinite.* For $v \in \R^K$ write $\bar v = \sum_k p_k v_k = p^\top v$. Since
# $p_k > 0$ and $\sum_k p_k = 1$,
#
# $$
# v^\top \big(\diag(p) - pp^\top\big) v = \sum_k p_k v_k^2 - \bar v^2
# = \sum_k p_k (v_k - \bar v)^2 \ge 0 ,
# $$ (pf-logsumexp-variance)
#
# where the middle step expands $\sum_k p_k (v_k - \bar v)^2 = \sum_k p_k v_k^2 -
# 2\bar v^2 + \bar v^2$. The quadratic form is the variance of $v$ under the distribution $p$.
#
# *The null space.* A positive semidefinite $H$ has $Hv = 0$ exactly when $v^\top H v = 0$
# (write $H = B^\top B$; then $v^\top H v = \|Bv\|^2$, and $Bv = 0$ gives $Hv = 0$). Every
# $p_k$ is positive, so the sum of squares above vanishes exactly when $v_k = \bar v$ for
# every $k$, that is when $v = c\mathbf 1$: the null space is the line spanned by
# $\mathbf 1$, and the Hessian has rank $K - 1$.
#
# *Convexity.* Let $f$ be twice continuously differentiable with $\nabla^2 f \succeq 0$
# everywhere. For two points $x, y$ put $g(t) = f(x + t(y - x))$; then
# $g''(t) = (y - x)^\top \nabla^2 f(x + t(y - x))\,(y - x) \ge 0$, so $g'$ is non-decreasing
# and $g(1) - g(0) = \int_0^1 g'(t)\, dt \ge g'(0)$, that is
# $f(y) \ge f(x) + \nabla f(x)^\top (y - x)$: $f$ lies above each of its tangent planes.
# Now take $x, y$, $\theta \in [0, 1]$ and $u = \theta x + (1 - \theta) y$. The tangent plane
# at $u$ gives $f(x) \ge f(u) + \nabla f(u)^\top (x - u)$ and
# $f(y) \ge f(u) + \nabla f(u)^\top (y - u)$; adding $\theta$ times the first to
# $1 - \theta$ times the second, the gradient terms cancel because
# $\theta (x - u) + (1 - \theta)(y - u) = 0$, and
# $\theta f(x) + (1 - \theta) f(y) \ge f(\theta x + (1 - \theta) y)$, which is convexity.
# Log-sum-exp is infinitely differentiable with the positive semidefinite Hessian above, so
# it is convex.
#
# *The null direction.* Moving along $\mathbf 1$ adds the same constant $c$ to every
# $z_k$; by {eq}`eq-logsumexp-shift` this changes lse by exactly $c$, a linear function of
# $c$, so the curvature in that direction is zero, and the softmax (the gradient) does not
# change at all. Log-sum-exp is therefore convex but not strictly convex; the same invariance
# makes one class's weights redundant in softmax regression (Chapter 2).
# ```
#
# ```{exercise}
# :label: ex-matrix-gradients
# Using {eq}`def-matrix-gradient`, show that for $W \in \R^{d \times k}$ and
# $A \in \R^{d \times d}$, (a) $\nabla_W \|W\|_F^2 = 2W$, (b)
# $\nabla_W \tr(W^\top A W) = (A + A^\top) W$, and (c) derive {eq}`eq-grad-frobenius-rss` again
# from (b) and {eq}`eq-grad-trace` by expanding $\|XW - Y\|_F^2$ into a constant, a linear and
# a quadratic term. Then set the gradient of $\frac1n\|XW - Y\|_F^2 + \lambda\|W\|_F^2$ to
# zero and solve for $W$.
# ```
#
# ```{solution} ex-matrix-gradients
# :class: dropdown
# (a) $\|W + H\|_F^2 = \|W\|_F^2 + 2\tr(W^\top H) + \|H\|_F^2$, so the gradient is $2W$. (b)
# $\tr\big((W + H)^\top A (W + H)\big)$ equals $\tr(W^\top A W) + \tr(H^\top A W)$ plus
# $\tr(W^\top A H) + O(\|H\|_F^2)$; $\tr(H^\top A W) = \tr\big((AW)^\top H\big)$ and $\tr(W^\top A H) =
# \tr\big((A^\top W)^\top H\big)$, so the gradient is $(A + A^\top)W$. (c)
# $\|XW - Y\|_F^2 = \tr(W^\top X^\top X W) - 2\tr(Y^\top X W) + \tr(Y^\top Y)$; by (b) with the
# symmetric $A = X^\top X$ and by {eq}`eq-grad-trace` with $A = Y^\top X$ the gradient is
# $2X^\top X W - 2X^\top Y = 2X^\top(XW - Y)$. The penalised gradient is
# $\frac2n X^\top(XW - Y) + 2\lambda W = 0$, i.e. $(X^\top X + n\lambda I)W = X^\top Y$ and
# $W = (X^\top X + n\lambda I)^{-1}X^\top Y$: Chapter 1's multi-output ridge.
# ```
#
# The remaining exercises are coding exercises; the course's assignments turn them into
# autograded questions (see the page on teaching with this course).

# %% [markdown]
# ```{exercise} Warm-up · 1 point · about 10 min
# :label: ex-code-logsumexp
# Write `stable_logsumexp(z)` that returns $\log \sum_k e^{z_k}$ for a 1-D array `z`
# without overflow or underflow, using {eq}`eq-logsumexp-shift`. It must be exact for `z
# = [1000, 1000]` (the answer is $1000 + \log 2$) and for `z = [-1000, -1000]`. While
# this is graded, `scipy.special` is unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def stable_logsumexp(z):
    z = np.asarray(z, dtype=float)
    # BEGIN SOLUTION
    m = np.max(z)
    return m + np.log(np.sum(np.exp(z - m)))
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: logsumexp, points: 1, tier: warm-up, minutes: 10,
#   withdraw: [scipy.special]}
# TEST: z = [1000, 1000] and z = [-1000, -1000], where exp overflows or underflows
np.testing.assert_allclose(stable_logsumexp(np.array([1000.0, 1000.0])),
                           1000 + np.log(2.0), rtol=1e-12, strict=True)
np.testing.assert_allclose(stable_logsumexp(np.array([-1000.0, -1000.0])),
                           -1000 + np.log(2.0), rtol=1e-12, strict=True)

# HIDDEN TEST: agrees with np.logaddexp.reduce on huge or tiny entries hundreds apart
rng_h = np.random.default_rng(list(b"development secret"))
c_h, s_h = rng_h.uniform(2000, 5000), rng_h.uniform(400, 1000)
z_h = np.append(rng_h.uniform(-s_h, s_h, size=rng_h.integers(1, 30)), (-s_h, s_h))
for zc_h in (c_h + z_h, z_h - c_h):
    np.testing.assert_allclose(stable_logsumexp(zc_h), np.logaddexp.reduce(zc_h),
                               rtol=1e-12, strict=True)

# HIDDEN TEST: adding c to every entry adds c to the result, for |c| up to 1e4
rng_h = np.random.default_rng(list(b"development secret"))
s_h = rng_h.uniform(400, 1000)
z_h = np.append(rng_h.normal(scale=s_h / 3, size=rng_h.integers(0, 30)), (-s_h, s_h))
lse_h = np.logaddexp.reduce(z_h)
c_h = rng_h.uniform(800, 1e4)
for shift_h in (c_h, -c_h):
    np.testing.assert_allclose(
        stable_logsumexp(z_h + shift_h), lse_h + shift_h, rtol=1e-12, strict=True
    )

# %% [markdown]
# ```{exercise} Core · 2 points · about 15 min
# :label: ex-code-softmax-rows
# Write `softmax_rows(A)`: the row-wise softmax $p_{ik} = e^{A_{ik}} / \sum_l
# e^{A_{il}}$ of a matrix, computed without overflow (subtract each row's maximum first,
# as for the log-sum-exp) and without a Python loop. While this is graded,
# `mlnotes.logistic.softmax` and `scipy.special` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def softmax_rows(A):
    # BEGIN SOLUTION
    E = np.exp(A - np.max(A, axis=1, keepdims=True))
    return E / np.sum(E, axis=1, keepdims=True)
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: softmax-rows, points: 2, tier: core, minutes: 15,
#   withdraw: [mlnotes.logistic.softmax, scipy.special]}
# TEST: a 6 x 4 matrix, against the chapter's softmax
from mlnotes import logistic

A_test = np.random.default_rng(130).normal(size=(6, 4))
np.testing.assert_allclose(softmax_rows(A_test), logistic.softmax(A_test), rtol=1e-12,
                           strict=True)

# HIDDEN TEST: each row is the softmax of that row, even when rows sit 1000s apart
from mlnotes import logistic

rng_h = np.random.default_rng(list(b"development secret"))
n_h, k_h = rng_h.integers(2, 12), rng_h.integers(2, 8)
A_h = rng_h.normal(size=(n_h, k_h)) + rng_h.uniform(-3000, 3000, size=(n_h, 1))
P_h = softmax_rows(A_h)
np.testing.assert_allclose(P_h, logistic.softmax(A_h), rtol=1e-12, atol=1e-300,
                           strict=True)

# HIDDEN TEST: rows sum to 1, and adding a constant to a row changes nothing
rng_h = np.random.default_rng(list(b"development secret"))
n_h, k_h = rng_h.integers(2, 12), rng_h.integers(1, 8)
A_h = rng_h.normal(scale=rng_h.uniform(1, 50), size=(n_h, k_h))
offsets_h = rng_h.uniform(-3000, 3000, size=(n_h, 1))
# the first two rows far apart
offsets_h[:2, 0] = rng_h.uniform(1000, 3000), -rng_h.uniform(1000, 3000)
A_h += offsets_h
P_h = softmax_rows(A_h)
np.testing.assert_allclose(P_h.sum(axis=1), np.ones(n_h), rtol=1e-12, strict=True)
np.testing.assert_allclose(softmax_rows(A_h + rng_h.normal(size=(n_h, 1))), P_h,
                           rtol=1e-10, atol=1e-300, strict=True)

# %% [markdown]
# ```{exercise} Core · 2 points · about 20 min
# :label: ex-code-log-sigmoid
# Write `log_sigmoid(a)`: $\log g(a) = -\log(1 + e^{-a})$ for an array `a`, accurate for
# every $a$: neither $-\infty$ for large negative $a$ nor $0$ for large positive $a$
# (where the answer is about $-e^{-a}$). `np.logaddexp` and `np.log1p` help. While this
# is graded, `mlnotes.logistic.log_sigmoid`, `mlnotes.logistic.log_loss`,
# `mlnotes.losses` and `scipy.special` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def log_sigmoid(a):
    # BEGIN SOLUTION
    a = np.asarray(a, dtype=float)
    return -np.logaddexp(0.0, -a)
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: log-sigmoid, points: 2, tier: core, minutes: 20,
#   withdraw: [mlnotes.logistic.log_sigmoid, mlnotes.logistic.log_loss, mlnotes.losses,
#              scipy.special]}
# TEST: a grid of [-10, 10], and both tails, a = -1000 and a = 40
a_test = np.linspace(-10, 10, 41)
np.testing.assert_allclose(
    log_sigmoid(a_test), np.log(1.0 / (1.0 + np.exp(-a_test))), rtol=1e-10, strict=True
)
np.testing.assert_allclose(  # log(1 + x) ~ x
    log_sigmoid(np.array([-1000.0, 40.0])),
    [-1000.0, -np.exp(-40.0)],
    rtol=1e-12,
    strict=True,
)

# HIDDEN TEST: to 1e-12 relative in both tails, |a| from 40 to 700
rng_h = np.random.default_rng(list(b"development secret"))
a_h = rng_h.uniform(40, 700, size=rng_h.integers(1, 20))
a_h = np.append(a_h, -a_h)
expected_h = np.where(a_h < 0, a_h - np.exp(a_h), -np.exp(-a_h))  # log(1 + x) ~ x
np.testing.assert_allclose(
    log_sigmoid(a_h), expected_h, rtol=1e-12, atol=0, strict=True
)

# HIDDEN TEST: log g(a) - log g(-a) = a for moderate a (so g(a) / g(-a) = e^a)
rng_h = np.random.default_rng(list(b"development secret"))
a_h = rng_h.normal(scale=5, size=rng_h.integers(1, 200))
np.testing.assert_allclose(
    log_sigmoid(a_h) - log_sigmoid(-a_h), a_h, rtol=1e-10, atol=1e-12, strict=True
)

# %% [markdown]
# ```{exercise} Core · 3 points · about 40 min
# :label: ex-code-softmax-ce
# A linear classifier with $K$ classes scores sample $i$ by $a_i = W^\top x_i$, with one
# column $w_k$ of $W \in \R^{d \times K}$ per class (the rows of $A = XW$ are the $a_i^\top$),
# and is fitted by minimising the mean cross-entropy with a ridge penalty,
#
# $$
# J(W) = \frac1n \sum_{i=1}^n -\log \mathrm{softmax}(W^\top x_i)_{y_i}
# + \frac{\lambda}{2} \|W\|_F^2 ,
# $$ (def-softmax-ce-objective)
#
# for labels $y_i \in \{0, \dots, K - 1\}$ (Python indices; a class may have no sample).
# Derive $\nabla_W J$ by the recipe of {eq}`def-matrix-gradient`: write the loss of sample
# $i$ as $\operatorname{lse}(W^\top x_i) - w_{y_i}^\top x_i$, perturb $W$ by $H$ (which moves
# $a_i$ by $H^\top x_i$), use {eq}`eq-grad-logsumexp`, and collect the linear part as
# $\tr(G^\top H)$ with the softmax probabilities and the one-hot labels as $n \times K$
# matrices. Then write `softmax_ce(W, X, y, lam)` returning the pair `(J, G)`: the value
# $J(W)$ as a float and the gradient as a $d \times K$ array, without a loop over samples.
# Both must stay accurate when the scores are in the thousands, where $e^{a_{ik}}$
# overflows (shift as in {eq}`eq-logsumexp-shift`). The tests compare `G` with central
# differences of $J$ at a relative tolerance of $10^{-6}$. While this is graded,
# `mlnotes.check.numerical_gradient`, `mlnotes.check.numerical_jacobian`, `mlnotes.logistic`,
# `scipy.optimize` and `scipy.special` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def softmax_ce(W, X, y, lam):
    # BEGIN SOLUTION
    y = np.asarray(y, dtype=int)
    n, K = X.shape[0], W.shape[1]
    A = X @ W
    m = np.max(A, axis=1, keepdims=True)  # the shift of each row: every exponent <= 0
    E = np.exp(A - m)
    s = np.sum(E, axis=1, keepdims=True)
    rows = np.arange(n)
    lse = m[:, 0] + np.log(s[:, 0])
    value = np.mean(lse - A[rows, y]) + 0.5 * lam * np.sum(W * W)
    Y = np.zeros((n, K))
    Y[rows, y] = 1.0  # one-hot labels
    # the linear part of J(W + H) is
    # (1/n) sum_i (p_i - e_{y_i})^T H^T x_i + lam tr(W^T H)
    G = X.T @ (E / s - Y) / n + lam * W
    return float(value), G
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: softmax-ce-gradient, points: 3, tier: core, minutes: 40,
#   withdraw: [mlnotes.check.numerical_gradient, mlnotes.check.numerical_jacobian,
#              mlnotes.logistic, scipy.optimize, scipy.special]}
# TEST: 20 samples, 3 features, 4 classes, lam = 0.1: the value, and G by central
# differences
r_test = np.random.default_rng(140)
X_test, y_test = r_test.normal(size=(20, 3)), r_test.integers(0, 4, size=20)
W_test = r_test.normal(size=(3, 4))
J_test = lambda V: (
    np.mean(
        np.logaddexp.reduce(X_test @ V, axis=1) - (X_test @ V)[np.arange(20), y_test]
    )
    + 0.05 * np.sum(V * V)
)
value_test, G_test = softmax_ce(W_test, X_test, y_test, 0.1)
np.testing.assert_allclose(value_test, J_test(W_test), rtol=1e-10, strict=True)
np.testing.assert_allclose(
    G_test,
    numerical_gradient(J_test, W_test, h=1e-5),
    rtol=1e-6,
    atol=1e-8,
    strict=True,
)

# HIDDEN TEST: value and gradient stay accurate when every score is in the thousands
rng_h = np.random.default_rng(list(b"development secret"))
n_h, d_h, k_h = rng_h.integers(5, 40), rng_h.integers(2, 6), rng_h.integers(2, 7)
X_h = np.column_stack([np.ones(n_h), rng_h.normal(size=(n_h, d_h - 1))])
W_h = rng_h.normal(scale=rng_h.uniform(1, 5), size=(d_h, k_h))
W_h[0] += rng_h.uniform(800, 3000)  # adds the same offset to every score
y_h, lam_h = rng_h.integers(0, k_h, size=n_h), 10 ** rng_h.uniform(-3, 0)
A_h = X_h @ W_h
data_h = lambda V: np.mean(np.logaddexp.reduce(X_h @ V, axis=1)
                           - (X_h @ V)[np.arange(n_h), y_h])
value_h, G_h = softmax_ce(W_h, X_h, y_h, lam_h)
np.testing.assert_allclose(
    value_h, data_h(W_h) + lam_h / 2 * np.sum(W_h**2), rtol=1e-10, strict=True
)
np.testing.assert_allclose(G_h, numerical_gradient(data_h, W_h, h=1e-5) + lam_h * W_h,
                           rtol=1e-6, atol=1e-6, strict=True)

# HIDDEN TEST: the gradient is right for any sizes, also for a class no sample has
rng_h = np.random.default_rng(list(b"development secret"))
n_h, d_h, k_h = rng_h.integers(2, 12), rng_h.integers(2, 6), rng_h.integers(3, 7)
X_h = np.column_stack([np.ones(n_h), rng_h.normal(size=(n_h, d_h - 1))])
W_h = rng_h.normal(scale=rng_h.uniform(0.5, 3), size=(d_h, k_h))
W_h[0] += rng_h.uniform(800, 1500)
y_h, lam_h = rng_h.integers(0, k_h - 1, size=n_h), 10 ** rng_h.uniform(-3, 0)
data_h = lambda V: np.mean(np.logaddexp.reduce(X_h @ V, axis=1)
                           - (X_h @ V)[np.arange(n_h), y_h])
value_h, G_h = softmax_ce(W_h, X_h, y_h, lam_h)
np.testing.assert_allclose(
    value_h, data_h(W_h) + lam_h / 2 * np.sum(W_h**2), rtol=1e-10, strict=True
)
# the penalty's gradient is exact; differencing it at |W| ~ 1000 would only add rounding
np.testing.assert_allclose(G_h, numerical_gradient(data_h, W_h, h=1e-5) + lam_h * W_h,
                           rtol=1e-6, atol=1e-6, strict=True)

# HIDDEN TEST: with lam = 0 each row of G sums to 0 (probabilities and labels sum to 1)
rng_h = np.random.default_rng(list(b"development secret"))
n_h, d_h, k_h = rng_h.integers(5, 40), rng_h.integers(2, 6), rng_h.integers(2, 7)
X_h = rng_h.normal(scale=rng_h.uniform(0.5, 3), size=(n_h, d_h))
W_h = rng_h.normal(scale=rng_h.uniform(200, 500), size=(d_h, k_h))
y_h = rng_h.integers(0, k_h, size=n_h)
J_h = lambda V: np.mean(np.logaddexp.reduce(X_h @ V, axis=1)
                        - (X_h @ V)[np.arange(n_h), y_h])
value_h, G_h = softmax_ce(W_h, X_h, y_h, 0.0)
np.testing.assert_allclose(value_h, J_h(W_h), rtol=1e-10, strict=True)
np.testing.assert_allclose(G_h @ np.ones(k_h), np.zeros(d_h), atol=1e-9, strict=True)
np.testing.assert_allclose(
    G_h, numerical_gradient(J_h, W_h, h=1e-5), rtol=1e-6, atol=1e-6, strict=True
)

# %% [markdown]
# ```{exercise} Core · 3 points · about 40 min
# :label: ex-code-lipschitz
# Gradient descent on $J(w) = \frac1{2n}\|y - Zw\|^2$ converges for every step size below
# $2/L$, where $L$ is the Lipschitz constant of the gradient, the smallest $L$ with
# $\|\nabla J(u) - \nabla J(v)\| \le L\|u - v\|$ for all $u, v$. For a quadratic $J$ it is
# the largest eigenvalue of the constant Hessian $\nabla^2_w J$ (derive it from
# {eq}`eq-grad-rss`). Write `lipschitz_power(X, v0, n_iter)` that first standardises the
# columns of the raw data `X` into $Z$ (subtract each column's mean, divide by its standard
# deviation with the divisor $n$, `np.std`'s default), then runs `n_iter` steps of power
# iteration on that Hessian $M$: $v_0 = $ `v0` $/ \|$`v0`$\|$,
# $v_t = M v_{t-1} / \|M v_{t-1}\|$ for $t = 1, \dots, T$ with $T$ = `n_iter`, and returns the
# Rayleigh quotient $v_T^\top M v_T$ as a float. Then use it on the eight predictors of the
# prostate data, `datasets.load_prostate().X` (`from mlnotes import datasets`): how large a
# step does plain gradient descent tolerate on them? The tests judge a few hundred steps
# against `np.linalg.eigvalsh` at a relative tolerance of $10^{-6}$, a few steps against
# power iteration at $10^{-9}$, and run on random subsets of the rows. While this is graded,
# `mlnotes.check.numerical_hessian` is unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def lipschitz_power(X, v0, n_iter):
    # BEGIN SOLUTION
    X = np.asarray(X, dtype=float)
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    M = Z.T @ Z / len(Z)  # the Hessian of (1/2n) ||y - Z w||^2
    v = np.asarray(v0, dtype=float)
    v = v / np.sqrt(v @ v)
    for _ in range(n_iter):
        u = M @ v
        v = u / np.sqrt(u @ u)
    return float(v @ M @ v)
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: lipschitz-power, points: 3, tier: core, minutes: 40, data: prostate,
#   withdraw: [mlnotes.check.numerical_hessian]}
# TEST: 500 steps on the standardised prostate predictors, against numpy's eigenvalues
from mlnotes import datasets
from mlnotes.check import numerical_hessian

X_test = datasets.load_prostate().X
Z_test = (X_test - X_test.mean(axis=0)) / X_test.std(axis=0)
# the Hessian of (1/2n) ||y - Z w||^2, by finite differences (exact up to rounding)
H_test = numerical_hessian(lambda w: np.sum((Z_test @ w) ** 2) / (2 * 97), np.zeros(8))
np.testing.assert_allclose(lipschitz_power(X_test, np.ones(8), 500),
                           np.linalg.eigvalsh(H_test)[-1], rtol=1e-6, strict=True)

# HIDDEN TEST: a few steps from a random start are power iteration's, on a subset of
# the rows
from mlnotes import datasets

rng_h = np.random.default_rng(list(b"development secret"))
X_h = datasets.load_prostate().X
X_h = X_h[rng_h.choice(len(X_h), size=rng_h.integers(40, len(X_h)), replace=False)]
Z_h = (X_h - X_h.mean(axis=0)) / X_h.std(axis=0)
M_h, v0_h, t_h = Z_h.T @ Z_h / len(Z_h), rng_h.normal(size=8), rng_h.integers(1, 6)
v_h = v0_h / np.sqrt(v0_h @ v0_h)
for _ in range(t_h):
    v_h = M_h @ v_h / np.sqrt((M_h @ v_h) @ (M_h @ v_h))
np.testing.assert_allclose(lipschitz_power(X_h, v0_h, t_h), v_h @ M_h @ v_h, rtol=1e-9,
                           strict=True)

# HIDDEN TEST: shifting and rescaling the columns changes nothing: the data are
# standardised
from mlnotes import datasets

rng_h = np.random.default_rng(list(b"development secret"))
X_h = datasets.load_prostate().X
X_h = X_h[rng_h.choice(len(X_h), size=rng_h.integers(40, len(X_h)), replace=False)]
Z_h = (X_h - X_h.mean(axis=0)) / X_h.std(axis=0)
M_h, v0_h, t_h = Z_h.T @ Z_h / len(Z_h), rng_h.normal(size=8), rng_h.integers(0, 4)
v_h = v0_h / np.sqrt(v0_h @ v0_h)
for _ in range(t_h):
    v_h = M_h @ v_h / np.sqrt((M_h @ v_h) @ (M_h @ v_h))
X2_h = X_h * 10 ** rng_h.uniform(-2, 2, size=8) + rng_h.normal(scale=100, size=8)
np.testing.assert_allclose(lipschitz_power(X2_h, v0_h, t_h), v_h @ M_h @ v_h, rtol=1e-9,
                           strict=True)

# HIDDEN TEST: a few hundred steps reach the largest eigenvalue of the Hessian, any
# row subset
from mlnotes import datasets

rng_h = np.random.default_rng(list(b"development secret"))
X_h = datasets.load_prostate().X
X_h = X_h[rng_h.choice(len(X_h), size=rng_h.integers(40, len(X_h)), replace=False)]
Z_h = (X_h - X_h.mean(axis=0)) / X_h.std(axis=0)
L_h = np.linalg.eigvalsh(Z_h.T @ Z_h / len(Z_h))[-1]
np.testing.assert_allclose(
    lipschitz_power(X_h, rng_h.normal(size=8), rng_h.integers(300, 600)),
    L_h,
    rtol=1e-6,
    strict=True,
)

# %% [markdown]
# ```{exercise} Challenge · 3 points · about 50 min
# :label: ex-code-gaussian-factor
# A zero-mean Gaussian model of samples $x_1, \dots, x_n \in \R^d$ with covariance
# $S = LL^\top$, parametrised by an invertible factor $L \in \R^{d \times d}$ (so that $S$ is
# positive definite for every $L$ an optimiser tries), has the negative log-likelihood, up to
# a constant,
#
# $$
# J(L) = \frac n2 \ln\det(LL^\top) + \frac12 \sum_{i=1}^n x_i^\top (LL^\top)^{-1} x_i .
# $$ (def-gaussian-factor-objective)
#
# Derive $\nabla_L J$: write the sum as a trace, take the gradient with respect to $S$ with
# {eq}`eq-grad-logdet`, then carry it through $S = LL^\top$ by expanding $(L + H)(L + H)^\top$
# and reading off the part linear in $H$ as in {eq}`def-matrix-gradient`. Simplify until the
# only inverse left is $L^{-1}$. Write `gaussian_factor_gradient(X, L)` returning
# $\nabla_L J$ as a $d \times d$ array for the samples as the rows of `X`, for any invertible
# $L$ (not only a triangular one), without a loop over samples. Where does your gradient
# vanish? The tests compare with central differences of $J$ at a relative tolerance of
# $10^{-6}$. While this is graded, `mlnotes.check.numerical_gradient`,
# `mlnotes.check.numerical_jacobian` and `scipy.optimize` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def gaussian_factor_gradient(X, L):
    # BEGIN SOLUTION
    n, d = X.shape
    L_inv = np.linalg.inv(L)
    B = L_inv @ X.T  # column i is L^{-1} x_i, so B B^T = L^{-1} X^T X L^{-T}
    # grad_S J = (n S^{-1} - S^{-1} X^T X S^{-1}) / 2 is symmetric, and the linear
    # part of
    # S(L + H) is H L^T + L H^T, so grad_L J = 2 grad_S J L = L^{-T} (n I - B B^T)
    return L_inv.T @ (n * np.eye(d) - B @ B.T)
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: gaussian-factor-gradient, points: 3, tier: challenge, minutes: 50,
#   withdraw: [mlnotes.check.numerical_gradient, mlnotes.check.numerical_jacobian,
#              scipy.optimize]}
# TEST: 30 samples, d = 3, a lower-triangular L, against central differences of J
r_test = np.random.default_rng(141)
X_test = r_test.normal(size=(30, 3)) @ np.array(
    [[2.0, 0, 0], [0.5, 1, 0], [0, 0.3, 0.5]]
)
L_test = np.array([[1.5, 0, 0], [0.4, 0.8, 0], [-0.2, 0.1, 0.6]])
J_test = lambda V: (30 * np.linalg.slogdet(V)[1]
                    + 0.5 * np.sum(np.linalg.solve(V, X_test.T) ** 2))
np.testing.assert_allclose(gaussian_factor_gradient(X_test, L_test),
                           numerical_gradient(J_test, L_test), rtol=1e-6, atol=1e-6,
                           strict=True)

# HIDDEN TEST: the gradient is right for any invertible L, neither triangular nor
# symmetric
rng_h = np.random.default_rng(list(b"development secret"))
d_h = rng_h.integers(1, 7)
n_h = rng_h.integers(2 * d_h + 2, 60)
X_h = rng_h.normal(size=(n_h, d_h)) * rng_h.uniform(0.5, 3, size=d_h)
B_h = rng_h.normal(size=(d_h, d_h))
L_h = np.linalg.cholesky(B_h @ B_h.T / d_h + np.eye(d_h))
L_h = L_h @ np.linalg.qr(rng_h.normal(size=(d_h, d_h)))[0]
J_h = lambda V: (n_h * np.linalg.slogdet(V)[1]
                 + 0.5 * np.sum(np.linalg.solve(V, X_h.T) ** 2))
G_h = numerical_gradient(J_h, L_h)
np.testing.assert_allclose(gaussian_factor_gradient(X_h, L_h), G_h, rtol=1e-6,
                           atol=1e-6 * np.max(np.abs(G_h)), strict=True)

# HIDDEN TEST: it vanishes at every factor of X^T X / n, triangular or rotated (the MLE)
rng_h = np.random.default_rng(list(b"development secret"))
d_h = rng_h.integers(1, 7)
n_h = rng_h.integers(2 * d_h + 2, 60)
X_h = rng_h.normal(size=(n_h, d_h)) * rng_h.uniform(0.5, 3, size=d_h)
L_h = np.linalg.cholesky(X_h.T @ X_h / n_h)
Q_h = np.linalg.qr(rng_h.normal(size=(d_h, d_h)))[0]
scale_h = n_h * np.linalg.norm(np.linalg.inv(L_h))  # the size of either term
for F_h in (L_h, L_h @ Q_h):
    np.testing.assert_allclose(gaussian_factor_gradient(X_h, F_h), np.zeros((d_h, d_h)),
                               atol=1e-9 * scale_h, strict=True)

# HIDDEN TEST: right at any scale of the data, and grad J(LQ) = grad J(L) Q for
# orthogonal Q
rng_h = np.random.default_rng(list(b"development secret"))
d_h, s_h = rng_h.integers(2, 7), 10 ** rng_h.uniform(-2, 2)
n_h = rng_h.integers(2 * d_h + 2, 60)
X_h = s_h * rng_h.normal(size=(n_h, d_h))
B_h = rng_h.normal(size=(d_h, d_h))
L_h = s_h * np.linalg.cholesky(B_h @ B_h.T / d_h + np.eye(d_h))
Q_h = np.linalg.qr(rng_h.normal(size=(d_h, d_h)))[0]
J_h = lambda V: (n_h * np.linalg.slogdet(V)[1]
                 + 0.5 * np.sum(np.linalg.solve(V, X_h.T) ** 2))
G_h = numerical_gradient(J_h, L_h, h=1e-5 * s_h)
np.testing.assert_allclose(gaussian_factor_gradient(X_h, L_h), G_h, rtol=1e-6,
                           atol=1e-6 * np.max(np.abs(G_h)), strict=True)
np.testing.assert_allclose(gaussian_factor_gradient(X_h, L_h @ Q_h),
                           gaussian_factor_gradient(X_h, L_h) @ Q_h, rtol=1e-8,
                           atol=1e-9 * np.max(np.abs(G_h)), strict=True)


# %% [markdown]
# ## Summary
#
# - Samples are rows of $X$ (index $i$), features are columns (index $j$); an intercept is the
#   constant feature $x_{i0} = 1$. Labels are $\{0, 1\}$ for likelihoods and $\{-1, +1\}$ for
#   margins.
# - Expand $J(w + h)$ and read off the linear term: $\nabla a^\top w = a$,
#   $\nabla w^\top A w = (A + A^\top) w$, $\nabla \|y - Xw\|^2 = -2X^\top(y - Xw)$,
#   $\nabla \sum_i \phi(x_i^\top w) = X^\top \phi'(Xw)$, $\nabla \operatorname{lse} = \mathrm{softmax}$.
# - For a matrix argument the gradient has the shape of $W$ and is read off
#   $\tr(\nabla_W J^\top H)$: $\nabla_W \tr(AW) = A^\top$, $\nabla_W \|XW - Y\|_F^2 = 2X^\top(XW - Y)$.
# - Check every gradient with central differences at $h \approx \epsilon^{1/3}$; a wrong formula
#   shows up as an error of order one, a right one as $10^{-10}$ or so.
#
# ## References
#
# The identities are standard; {cite}`petersen2012matrix` collects many more, and
# {cite}`nocedal2006numerical` (section 8.1) discusses finite-difference step sizes.
