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
#   enumerator: '1.%s'
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
# (chap-linear)=
# # Least squares, ridge and lasso
#
# Linear regression is the simplest model in this course and the one whose numerics matter
# most: the formula every textbook prints, $\hat w = (X^\top X)^{-1} X^\top y$, is correct and
# can still return a vector with no correct digit. This chapter derives least squares, then the
# two penalised versions that dominate practice, ridge ($\ell_2$) and lasso ($\ell_1$), and
# checks every step on the computer.
#
# **What you will learn**
#
# - the residual sum of squares in matrix form, the normal equations, and the fit as an
#   orthogonal projection;
# - why fitting every point exactly is always possible with enough parameters and why it does
#   not generalise;
# - how ill-conditioning destroys digits, why forming $X^\top X$ squares the damage, and how QR
#   and the SVD avoid it (with the NIST certified problems as the referee);
# - ridge regression: closed form, SVD shrinkage, effective degrees of freedom, data
#   augmentation, the dual form;
# - several outputs at once: multi-output least squares and ridge in matrix form, on
#   Linnerud's fitness data;
# - the lasso: subgradients, soft-thresholding, coordinate descent, exact zeros, paths;
# - the elastic net: both penalties, its coordinate update, the grouping of correlated
#   predictors, and agreement with scikit-learn;
# - ridge and lasso as MAP estimates; why per-feature prior variances cannot be learned
#   jointly with the weights, and how the evidence learns them (automatic relevance
#   determination);
# - the bias-variance decomposition; cross-validation;
# - the least-squares column of Table 3.3 of {cite}`hastie2009elements` reproduced on the
#   prostate data, with ridge and lasso chosen by cross-validation.

# %%
import matplotlib.pyplot as plt
import numpy as np

from mlnotes import claims, linear, plots
from mlnotes.datasets import NIST_NAMES, load_nist, load_prostate

plots.setup()
np.set_printoptions(precision=4, suppress=True)
rng = np.random.default_rng(1)

# %% [markdown]
# (sec-linear-ls)=
# ## Least squares
#
# A linear model predicts $f(x) = \sum_{j} w_j x_j = w^\top x$, with the constant feature
# $x_{0} = 1$ in front when there is an intercept. Nothing in what follows needs the features
# to be the raw inputs: any fixed functions $B_j$ of an input $x$ (powers, splines, indicator
# functions) give the **basis-function form**
#
# $$
# f(x) = \sum_{j=1}^{d} w_j B_j(x),
# $$ (def-basis-expansion)
#
# which is still linear in $w$; the design matrix simply holds $X_{ij} = B_j(x_i)$. The NIST
# problems below are polynomials in one variable written this way.
#
# Least squares chooses $w$ to minimise the **residual sum of squares**
#
# $$
# \mathrm{RSS}(w) = \sum_{i=1}^n (y_i - x_i^\top w)^2 = \|y - Xw\|^2 = e^\top e,
# \qquad e = y - Xw .
# $$ (def-rss)
#
# Its gradient is $\nabla \mathrm{RSS}(w) = -2 X^\top (y - Xw)$ (Chapter 0,
# {eq}`eq-grad-rss`), and its Hessian $2X^\top X$ is positive semidefinite, so RSS is convex
# and every stationary point is a minimiser. Setting the gradient to zero gives the **normal
# equations**
#
# $$
# \begin{gathered}
# X^\top X \hat w = X^\top y, \\
# \hat w = (X^\top X)^{-1} X^\top y \quad \text{when } X \text{ has full column rank.}
# \end{gathered}
# $$ (eq-normal-equations)
#
# The check computes the minimiser with an independent solver (numpy's SVD-based `lstsq`) and
# measures how far it is from satisfying {eq}`eq-normal-equations`, relative to the sizes
# involved.

# %%
claims.verify("eq-normal-equations")

# %% [markdown]
# ```{note}
# The notes this chapter started from print the gradient as $+2X^\top(y - Xw)$. The sign
# is wrong (the {ref}`errata page <errata>` has the details); it does not move the stationary
# point, but a gradient-descent step along minus the printed gradient climbs.
# ```
#
# (sec-linear-projection)=
# ### The fit is an orthogonal projection
#
# The fitted values are $\hat y = X \hat w = H y$ with the **hat matrix**
# $H = X (X^\top X)^{-1} X^\top$. It is symmetric and idempotent, and the normal equations say
# exactly that the residual is orthogonal to every column of $X$:
#
# $$
# H^\top = H, \qquad H^2 = H, \qquad X^\top (y - Hy) = 0 .
# $$ (eq-hat-matrix)
#
# So $\hat y$ is the orthogonal projection of $y$ onto the column space of $X$: the closest
# point of that subspace to $y$ ({numref}`fig-projection`).

# %%
claims.verify("eq-hat-matrix")

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Least squares as projection: $\\hat y = Hy$ is the point of the plane spanned by the columns of $X$ closest to $y$, and the residual $y - \\hat y$ is orthogonal to that plane.", "name": "fig-projection"}, "image": {"alt": "Three-dimensional sketch of a vector y, its projection onto a shaded plane and the vertical residual."}} tags=["hide-input"]
# y in R^3, projected onto the plane spanned by two columns of X
Xg = np.array([[1.0, 0.2], [0.1, 1.0], [0.0, 0.0]])
yg = np.array([0.8, 0.9, 1.0])
wg = linear.least_squares(Xg, yg).w
yhat = Xg @ wg
fig = plt.figure(figsize=(6.4, 4.8))
ax = fig.add_subplot(projection="3d")
s, t = np.meshgrid(np.linspace(-0.2, 1.2, 2), np.linspace(-0.2, 1.2, 2))
plane = Xg[:, [0]] * s.ravel() + Xg[:, [1]] * t.ravel()
ax.plot_surface(*(plane[k].reshape(2, 2) for k in range(3)), alpha=0.2, color="C0")
for vec, name, colour in (
    (Xg[:, 0], "$x_{\\cdot 1}$", "C0"),
    (Xg[:, 1], "$x_{\\cdot 2}$", "C0"),
    (yg, "$y$", "k"),
    (yhat, "$\\hat y = Hy$", "C1"),
):
    ax.quiver(0, 0, 0, *vec, color=colour, arrow_length_ratio=0.08)
    ax.text(*(1.05 * vec), name)
ax.plot(
    *np.column_stack([yhat, yg]),
    "C3--",
    label="residual $y - \\hat y$ (orthogonal to the plane)",
)
ax.set(
    xlabel="$e_1$",
    ylabel="$e_2$",
    zlabel="$e_3$",
    title="Least squares projects $y$ onto the column space",
)
ax.view_init(elev=20, azim=-60)
ax.legend(loc="upper left")
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-projection
# Least squares as projection: $\hat y = Hy$ is the point of the plane spanned by the columns of $X$ closest to $y$, and the residual $y - \hat y$ is orthogonal to that plane.
# :::

# %% [markdown]
# (sec-linear-interpolation)=
# ### Exact interpolation, and why it does not generalise
#
# With as many parameters as points nothing is left to approximate. If $X$ has rank $n$ (which
# needs $d \ge n$; for the polynomial basis, distinct inputs and degree at least $n - 1$
# suffice), its columns span all of $\R^n$, the projection is the identity, and the fit
# reproduces every target:
#
# $$
# \operatorname{rank} X = n \le d \implies X \hat w = y, \quad \mathrm{RSS}(\hat w) = 0 .
# $$ (eq-interpolation)
#
# When $d > n$ there are infinitely many such $w$ (add any vector of the null space of $X$);
# `least_squares` returns the one of smallest norm, from the SVD.

# %%
claims.verify("eq-interpolation")

# %% [markdown]
# Zero training error says nothing about new inputs. Below, ten noisy samples of a smooth
# function are fitted by polynomials of degree 3 and 9 (ten coefficients: exact interpolation).
# The interpolant passes through every point and oscillates wildly between them; its error on
# fresh samples is far larger ({numref}`fig-overfitting`).

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Polynomials of degree 3 and 9 fitted to ten noisy samples of $\\sin 2\\pi x$: the degree-9 interpolant has zero training error and a far larger test error.", "name": "fig-overfitting"}, "image": {"alt": "Two panels of noisy points with a smooth cubic fit and a wildly oscillating degree-9 interpolant."}} tags=["hide-input"]
def g_true(x):
    return np.sin(2 * np.pi * x)


x_tr = np.sort(rng.uniform(0, 1, 10))
y_tr = g_true(x_tr) + 0.25 * rng.standard_normal(10)
x_te = rng.uniform(0, 1, 500)
y_te = g_true(x_te) + 0.25 * rng.standard_normal(500)
grid = np.linspace(0, 1, 400)
fig, ax = plt.subplots()
ax.plot(grid, g_true(grid), "k:", label="$g(x) = \\sin 2\\pi x$")
ax.plot(x_tr, y_tr, "ko", label="10 training points")
errors_poly = {}
for degree, colour in ((3, "C0"), (9, "C3")):
    B = np.vander(x_tr, degree + 1, increasing=True)  # basis functions B_j(x) = x^j
    fit = linear.least_squares(B, y_tr)
    test_mse = np.mean(
        (y_te - np.vander(x_te, degree + 1, increasing=True) @ fit.w) ** 2
    )
    errors_poly[degree] = fit.rss, test_mse
    ax.plot(
        grid,
        np.vander(grid, degree + 1, increasing=True) @ fit.w,
        colour,
        label=f"degree {degree}: train RSS {fit.rss:.3f}, test MSE {test_mse:.2f}",
    )
ax.set(xlabel="$x$", ylabel="$y$", ylim=(-2, 2))
ax.legend(fontsize=8)
plt.show()
print("degree 9 interpolates (training RSS < 1e-12):", bool(errors_poly[9][0] < 1e-12))
print(
    "its test error more than 100 times degree 3's:",
    bool(errors_poly[9][1] > 100 * errors_poly[3][1]),
)

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-overfitting
# Polynomials of degree 3 and 9 fitted to ten noisy samples of $\sin 2\pi x$: the degree-9 interpolant has zero training error and a far larger test error.
# :::

# %% [markdown]
# (sec-linear-conditioning)=
# ## Ill-conditioning
#
# The normal equations are exact mathematics; computing with them is another matter. Take two
# samples with inputs $x_1 = (0, 1)$ and $x_2 = (\epsilon, 1)$ (the second feature is an
# intercept) and targets $y = (1, -1)$:
#
# $$
# X = \begin{pmatrix} 0 & 1 \\ \epsilon & 1 \end{pmatrix},\quad
# y = \begin{pmatrix} 1 \\ -1 \end{pmatrix}
# \implies \hat w = \begin{pmatrix} -2/\epsilon \\ 1 \end{pmatrix}.
# $$ (eq-two-point)
#
# As $\epsilon \to 0$ two almost identical inputs demand targets 2 apart, and the slope
# explodes like $-2/\epsilon$. sympy solves the normal equations symbolically:

# %%
claims.verify("eq-two-point")

# %% [markdown]
# Duplicated columns are the limit case: if $x_{\cdot 1} = x_{\cdot 2}$ then $X^\top X$ is
# singular and only $w_1 + w_2$ is determined; a huge positive $w_1$ can be cancelled by a huge
# negative $w_2$. Nearly duplicated columns (correlated predictors) make $X^\top X$ nearly
# singular and the coefficients unstable.
#
# How many digits a solution keeps is governed by the **condition number**
# $\operatorname{cond}(X) = \sigma_{\max}(X) / \sigma_{\min}(X)$: a relative perturbation of the
# data of size $u$ (rounding, $u \approx 10^{-16}$) may move a least-squares solution by about
# $\operatorname{cond}(X)\, u$ when the residual is small. Forming the normal equations
# squares that number: with $X = U D V^\top$, $X^\top X = V D^2 V^\top$, so
#
# $$
# \operatorname{cond}(X^\top X) = \operatorname{cond}(X)^2 .
# $$ (eq-cond-squared)

# %%
claims.verify("eq-cond-squared")

# %% [markdown]
# An algorithm that never forms $X^\top X$ can do better. Householder **QR** writes
# $X = QR$ with orthonormal columns in $Q$ and upper-triangular $R$; then
# $\|y - Xw\|^2 = \|Q^\top y - Rw\|^2 + \text{const}$, so $\hat w$ solves the triangular system
# $R\hat w = Q^\top y$, whose condition number is that of $X$, not its square. The **SVD** is
# the most transparent form. With the thin SVD $X = U D V^\top$ ($U$ is $n \times d$ with
# orthonormal columns, $D = \diag(d_1, \dots, d_d)$),
#
# $$
# \hat w = V D^{-1} U^\top y, \qquad \hat y = X \hat w = U U^\top y :
# $$ (eq-svd-fit)
#
# $U^\top y$ are the coordinates of $y$ in an orthonormal basis of the column space of $X$ (a
# subspace of $\R^n$), and $UU^\top y$ is the projection of {eq}`eq-hat-matrix` written in that
# basis. Small singular values $d_j$ are where the digits go: the SVD can drop them (this is how
# `least_squares` handles rank-deficient $X$: the minimum-norm solution). The source notes
# place the columns of $U$ in $\R^M$ rather than $\R^n$ (see the {ref}`errata <errata>`).

# %%
claims.verify("eq-svd-fit")

# %% [markdown]
# Since $X^\top X = V D U^\top U D V^\top = V D^2 V^\top$,
#
# $$
# X^\top X\, V = V D^2 :
# $$ (eq-svd-eigen)
#
# the columns of $V$ are the eigenvectors of $X^\top X$ and the $d_j^2$ its eigenvalues (the
# source notes say that $V$ contains the eigenvalues).

# %%
claims.verify("eq-svd-eigen")

# %% [markdown]
# The thin SVD is the one to compute with. The full SVD completes $U$ to an orthogonal
# $n \times n$ matrix $U_n$; the extra columns meet only zeros, so for $n > d$
#
# $$
# X = U_n D_n V^\top, \qquad
# D_n = \begin{bmatrix} \diag(d_1, \dots, d_d) \\ 0_{(n - d) \times d} \end{bmatrix} ,
# $$ (eq-svd-full)
#
# an $n \times d$ matrix holding the same $d$ singular values.

# %%
claims.verify("eq-svd-full")

# %% [markdown]
# The figure measures the difference. Each point is a least-squares problem with $n = 50$,
# $d = 6$ and a prescribed condition number, whose exact solution is known ($y = Xw^\ast$, zero
# residual). The relative error of the textbook formula grows like
# $\operatorname{cond}(X)^2 u$ and reaches 100% (no correct digit) near
# $\operatorname{cond}(X) = 10^8$; Householder QR (without refinement) follows
# $\operatorname{cond}(X)\, u$ and keeps about nine digits there. In the two-point example,
# $\operatorname{cond}(X) \approx 2/\epsilon$, so $\epsilon = 10^{-8}$ is already beyond the
# normal equations ({numref}`fig-conditioning`).

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Relative error of $\\hat w$ against $\\operatorname{cond}(X)$: the normal equations lose digits like $\\operatorname{cond}(X)^2 u$, Householder QR like $\\operatorname{cond}(X)\\,u$.", "name": "fig-conditioning"}, "image": {"alt": "Log-log plot with two error curves, the normal-equation one rising twice as steeply as the QR one."}} tags=["hide-input"]
cond_grid = np.logspace(0, 12, 25)
err_ne, err_qr = [], []
for c in cond_grid:
    Uc = np.linalg.qr(rng.standard_normal((50, 6)))[0]
    Vc = np.linalg.qr(rng.standard_normal((6, 6)))[0]
    Xc = (Uc * np.logspace(0, -np.log10(c), 6)) @ Vc.T
    w_star = rng.standard_normal(6)
    yc = Xc @ w_star
    with np.errstate(all="ignore"):
        try:
            w_ne = np.linalg.solve(Xc.T @ Xc, Xc.T @ yc)
        except np.linalg.LinAlgError:  # exactly singular in floating point
            w_ne = np.full(6, np.nan)
    err_ne.append(np.linalg.norm(w_ne - w_star) / np.linalg.norm(w_star))
    w_qr = linear.least_squares(Xc, yc, method="qr", refine=0).w
    err_qr.append(np.linalg.norm(w_qr - w_star) / np.linalg.norm(w_star))
u = np.finfo(float).eps
fig, ax = plt.subplots()
ax.loglog(cond_grid, np.clip(np.nan_to_num(err_ne, nan=1e3), 1e-17, 1e3), "o-", ms=3,
          label="normal equations $(X^\\top X)^{-1}X^\\top y$")
ax.loglog(cond_grid, np.clip(err_qr, 1e-17, 1e3), "s-", ms=3, label="Householder QR")
ax.loglog(cond_grid, cond_grid**2 * u, "k:", label="$\\mathrm{cond}(X)^2 u$")
ax.loglog(cond_grid, cond_grid * u, "k--", label="$\\mathrm{cond}(X)\\, u$")
ax.axhline(1, color="gray", lw=0.8)
ax.set(xlabel="cond$(X)$", ylabel="relative error of $\\hat w$", ylim=(1e-17, 1e3))
ax.legend(fontsize=8)
plt.show()
err_ne, err_qr = np.nan_to_num(err_ne, nan=np.inf), np.array(err_qr)
digits_left = cond_grid**2 * u < 1  # where cond(X)^2 u still leaves a digit
print(
    "QR error within 10 cond(X) u at every cond(X):",
    bool(np.all(err_qr <= 10 * cond_grid * u)),
)
print(
    "normal equations within 10 cond(X)^2 u where that is below 1:",
    bool(np.all(err_ne[digits_left] <= 10 * cond_grid[digits_left] ** 2 * u)),
)
print(
    "normal equations more than 100 times less accurate than QR for cond(X) >= 1e4:",
    bool(np.all(err_ne[cond_grid >= 1e4] > 100 * err_qr[cond_grid >= 1e4])),
)

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-conditioning
# Relative error of $\hat w$ against $\operatorname{cond}(X)$: the normal equations lose digits like $\operatorname{cond}(X)^2 u$, Householder QR like $\operatorname{cond}(X)\,u$.
# :::

# %% [markdown]
# (sec-linear-nist)=
# ### The NIST certified problems
#
# The U.S. National Institute of Standards and Technology publishes linear least-squares
# problems with coefficients certified to 15 digits (the Statistical Reference Datasets,
# {cite}`nist_strd`), graded from "lower" to "higher" difficulty. The accuracy of a computed
# coefficient is measured by the **log relative error**,
# $\mathrm{LRE} = -\log_{10} |\hat w - w^\ast| / |w^\ast|$, roughly the number of correct
# digits; a method is scored by its worst coefficient. The table compares:
#
# - *textbook*: `np.linalg.solve(X.T @ X, X.T @ y)`, the formula as printed;
# - *cholesky*: the normal equations with columns scaled by powers of two, then Cholesky
#   (`least_squares(method="cholesky")`, which refuses when fewer than two digits could
#   survive);
# - *qr*: Householder QR on scaled columns with two steps of iterative refinement of the
#   augmented system {cite}`bjorck1967iterative`, the residuals accumulated in extended
#   precision;
# - *svd*: the SVD of the unscaled $X$, dropping singular values below $\max(n, d)\,u$ times the
#   largest;
# - *auto*: the default of `least_squares`, and the path it took;
# - *lstsq*: `numpy.linalg.lstsq` (LAPACK's `gelsd`).
#
# Which digits survive an ill-conditioned solve is decided by rounding, and rounding differs
# between CPUs, BLAS kernels and thread counts: on these problems the same method's LRE moves by
# up to a digit from one machine to another. So the table prints a bound that holds everywhere
# (at least 3, 8 or 12 digits, with more than half a digit to spare), and the tests check the
# exact targets.

# %%
def lre(estimate, certified):
    """Worst-coefficient log relative error, clipped to [0, 15] as NIST reports it
    (absolute error where the certified value is 0)."""
    err = np.abs(np.asarray(estimate) - certified)
    rel = np.where(
        certified != 0, err / np.where(certified != 0, np.abs(certified), 1), err
    )
    with np.errstate(divide="ignore"):
        return (
            float(np.clip(np.min(-np.log10(rel)), 0.0, 15.0)) + 0.0
        )  # + 0.0: no "-0.0"


def digits(lre_value):
    """The digits kept, as a lower bound on the ladder 3, 8, 12 with 0.6 of a digit
    to spare.

    Which digits survive an ill-conditioned solve depends on rounding: on other CPUs,
    BLAS kernels and thread counts the same LRE moves by up to a digit, so the table
    prints only a bound that holds there too (the tests check the targets exactly)."""
    for floor in (12, 8, 3):
        if lre_value >= floor + 0.6:
            return f">= {floor}"
    return "< 4"


def cholesky_digits(X, y, cert):
    """The digits of the Cholesky solution, or "refused" where the method declines X."""
    try:
        return digits(lre(linear.least_squares(X, y, method="cholesky").w, cert))
    except ValueError:
        return "refused"


print(
    f"{'data set':9s} {'level':7s} {'textbook':>8s} {'cholesky':>8s} {'qr':>7s} "
    f"{'svd':>7s} "
    f"{'auto':>7s} {'path':>9s} {'lstsq':>7s}"
)
for name in NIST_NAMES:
    data = load_nist(name)
    X, y, cert = data.X, data.y, data.certified
    with np.errstate(all="ignore"):
        textbook = lre(np.linalg.solve(X.T @ X, X.T @ y), cert)
    auto = linear.least_squares(X, y)
    print(
        f"{name:9s} {data.difficulty:7s} {digits(textbook):>8s} "
        f"{cholesky_digits(X, y, cert):>8s} "
        f"{digits(lre(linear.least_squares(X, y, method='qr').w, cert)):>7s} "
        f"{digits(lre(linear.least_squares(X, y, method='svd').w, cert)):>7s} "
        f"{digits(lre(auto.w, cert)):>7s} {auto.method:>9s} "
        f"{digits(lre(np.linalg.lstsq(X, y, rcond=None)[0], cert)):>7s}"
    )

# %% [markdown]
# The textbook formula loses every digit on Filip, a degree-10 polynomial whose scaled design
# has $\operatorname{cond}(X) \approx 5 \times 10^9$, so $\operatorname{cond}(X^\top X)$ is
# beyond $1/u$; `lstsq` on the unscaled $X$ fares no better: the columns $x^0, \dots, x^{10}$ differ in
# norm by almost nine orders of magnitude, so the unscaled $\operatorname{cond}(X) \approx 2
# \times 10^{15}$, and the rank cut-off of `lstsq` ($\max(n, d)\, u$ times the largest singular
# value) declares $X$ of rank 10 and drops a direction that the certified solution needs.
# Scaling the columns and refining the QR solution recover at least 7 digits on Filip and 10 on
# Longley, the targets the tests enforce ({cite}`mccullough1999assessing` reports that several
# statistical packages of the time failed them). The default `auto` method costs no more than
# Cholesky when the condition estimate is small (first four rows) and switches to QR otherwise:
# the benchmark in `benchmarks/bench_linear.py` measures it within 1.5x of Cholesky on a
# well-conditioned $10^6 \times 100$ problem.

# %% [markdown]
# (sec-linear-ridge)=
# ## Ridge regression
#
# Ridge regression {cite}`hoerl1970ridge` trades a little bias for stability by penalising the
# squared norm of the weights:
#
# $$
# J_\lambda(w) = \|y - Xw\|^2 + \lambda \|w\|^2, \qquad \lambda \ge 0 .
# $$ (def-ridge-objective)
#
# Its gradient adds $2\lambda w$ to that of RSS (the factor 2 matters: the source notes drop
# it),
#
# $$
# \nabla J_\lambda(w) = -2X^\top(y - Xw) + 2\lambda w ,
# $$ (eq-ridge-gradient)

# %%
claims.verify("eq-ridge-gradient")

# %% [markdown]
# and setting it to zero gives the closed form
#
# $$
# w_\lambda = (X^\top X + \lambda I)^{-1} X^\top y .
# $$ (eq-ridge-solution)

# %%
claims.verify("eq-ridge-solution")

# %% [markdown]
# The inverse always exists for $\lambda > 0$, however bad $X$ is: for any unit vector $v$,
# $v^\top (X^\top X + \lambda I) v = \|Xv\|^2 + \lambda \ge \lambda$, so
#
# $$
# \lambda_{\min}(X^\top X + \lambda I) \ge \lambda .
# $$ (eq-ridge-eigenvalues)
#
# The check uses design matrices with duplicated columns, where $X^\top X$ itself is singular.
# No "sufficiently large" $\lambda$ is needed for invertibility, as one of the source notes
# suggests; a larger $\lambda$ only improves the condition number
# $(d_1^2 + \lambda)/(d_d^2 + \lambda)$.

# %%
claims.verify("eq-ridge-eigenvalues")

# %% [markdown]
# (sec-linear-shrinkage)=
# ### Shrinkage in the SVD basis
#
# Substituting $X = UDV^\top$ into {eq}`eq-ridge-solution` gives
# $w_\lambda = V (D^2 + \lambda I)^{-1} D U^\top y$ and fitted values
#
# $$
# X w_\lambda = \sum_{j=1}^{d} u_j \, \frac{d_j^2}{d_j^2 + \lambda} \, u_j^\top y .
# $$ (eq-ridge-shrinkage)
#
# Least squares keeps each coordinate $u_j^\top y$ of $y$ in the basis $u_1, \dots, u_d$
# ({eq}`eq-svd-fit`); ridge multiplies it by the **shrinkage factor**
# $d_j^2 / (d_j^2 + \lambda) \in (0, 1)$, which is close to 1 for directions of large variance
# and close to 0 for the small singular values that made least squares unstable.

# %%
claims.verify("eq-ridge-shrinkage")

# %% [markdown]
# The sum of the shrinkage factors is the trace of the ridge hat matrix, the **effective
# degrees of freedom**:
#
# $$
# \mathrm{df}(\lambda) = \operatorname{tr}\big[X (X^\top X + \lambda I)^{-1} X^\top\big]
# = \sum_{j=1}^{d} \frac{d_j^2}{d_j^2 + \lambda},
# $$ (eq-ridge-dof)
#
# equal to $d$ at $\lambda = 0$ (least squares fits $d$ free parameters) and falling to 0 as
# $\lambda \to \infty$ ({numref}`fig-ridge-shrinkage`).

# %%
claims.verify("eq-ridge-dof")

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Ridge shrinkage factors $d_j^2/(d_j^2 + \\lambda)$ of the principal directions of the prostate data against $\\lambda$: directions of small variance are shrunk first.", "name": "fig-ridge-shrinkage"}, "image": {"alt": "Decreasing sigmoid-like curves from 1 to 0, one per singular value, shifted along a log lambda axis."}} tags=["hide-input"]
prostate = load_prostate()
# the loader's feature_names are shifted by one column, so the names are spelled out
# here
pnames = ("lcavol", "lweight", "age", "lbph", "svi", "lcp", "gleason", "pgg45")
train = prostate.extra["train"]
Zp = (prostate.X - prostate.X.mean(axis=0)) / prostate.X.std(axis=0, ddof=1)
Ztr, ytr = Zp[train], prostate.y[train]
Zte, yte = Zp[~train], prostate.y[~train]
sv = np.linalg.svd(Ztr - Ztr.mean(axis=0), compute_uv=False)
lam_grid = np.logspace(-2, 4, 200)
fig, ax = plt.subplots()
for j, dj in enumerate(sv):
    ax.semilogx(
        lam_grid,
        dj**2 / (dj**2 + lam_grid),
        color=plt.cm.viridis(j / len(sv)),
        label=f"$d_{j + 1}^2 = {dj**2:.0f}$",
    )
ax.set(
    xlabel="$\\lambda$",
    ylabel="shrinkage factor $d_j^2/(d_j^2 + \\lambda)$",
    title="Prostate training data: small singular values are shrunk first",
)
ax.legend(fontsize=7, ncol=2)
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-ridge-shrinkage
# Ridge shrinkage factors $d_j^2/(d_j^2 + \lambda)$ of the principal directions of the prostate data against $\lambda$: directions of small variance are shrunk first.
# :::

# %% [markdown]
# ### Ridge as least squares on augmented data
#
# Appending $d$ artificial samples $\sqrt{\lambda}\, e_j$ with target 0 turns the penalty into
# residuals:
#
# $$
# \|y - Xw\|^2 + \lambda \|w\|^2 = \left\| \begin{pmatrix} y \\ 0 \end{pmatrix} -
# \begin{pmatrix} X \\ \sqrt{\lambda} I \end{pmatrix} w \right\|^2 ,
# $$ (eq-ridge-augmented)
#
# so any least-squares solver (QR included) computes ridge without forming $X^\top X$. The
# check compares both objectives at random $w$, and the augmented least-squares solution with
# `linear.ridge`.

# %%
claims.verify("eq-ridge-augmented")

# %% [markdown]
# ### The dual form
#
# Multiplying $X^\top (X X^\top + \lambda I) = (X^\top X + \lambda I) X^\top$ by the two inverses
# gives the push-through identity
#
# $$
# (X^\top X + \lambda I_d)^{-1} X^\top y = X^\top (X X^\top + \lambda I_n)^{-1} y ,
# $$ (eq-ridge-dual)
#
# an $n \times n$ system instead of a $d \times d$ one. `ridge` uses it when $d > n$; written
# with the Gram matrix $K = XX^\top$ it is the starting point of kernel ridge regression in the
# chapter on kernels.

# %%
claims.verify("eq-ridge-dual")

# %% [markdown]
# (sec-linear-multi-output)=
# ### Several outputs at once
#
# With $k$ responses per sample, collected as the columns of $Y \in \R^{n \times k}$, a linear
# model has one weight vector per output, the columns of $W \in \R^{d \times k}$, and predicts
# $XW$. The notes behind this chapter average the squared error over the samples:
#
# $$
# L(W) = \frac1n \|XW - Y\|_F^2 + \lambda \|W\|_F^2 .
# $$ (def-multi-ridge-objective)
#
# By {eq}`eq-grad-frobenius-rss`, and $\nabla_W \|W\|_F^2 = 2W$, the gradient is
# $\frac2n X^\top (XW - Y) + 2\lambda W$. Setting it to zero and multiplying by $n/2$:
#
# $$
# (X^\top X + n\lambda I)\, \hat W = X^\top Y, \qquad
# \hat W = (X^\top X + n\lambda I)^{-1} X^\top Y .
# $$ (eq-multi-ridge)
#
# Three remarks. The factor $n$ appears because the loss is averaged: this $\lambda$ is the
# chapter's $\lambda$ of {eq}`def-ridge-objective` divided by $n$, so the same data and penalty
# need $n\lambda$ in `linear.ridge`. The notes store samples as columns (a $d \times n$ data
# matrix $\mathbf X = X^\top$, weights $\mathbf W = W^\top$ predicting $\mathbf W \mathbf X$)
# and write the solution as $\mathbf W = \mathbf Y \mathbf X^\top (\mathbf X \mathbf X^\top +
# n\lambda I)^{-1}$, which is {eq}`eq-multi-ridge` transposed. And column $l$ of $\hat W$ solves
# $(X^\top X + n\lambda I)\hat w_l = X^\top Y_{\cdot l}$, the single-output ridge problem of
# output $l$: the outputs do not share anything, except that one factorisation of
# $X^\top X + n\lambda I$ serves all of them. With $\lambda = 0$ this is multi-output least
# squares. The check verifies that the gradient vanishes at $\hat W$ and compares each column
# with `linear.ridge` at penalty $n\lambda$.

# %%
claims.verify("eq-multi-ridge")

# %% [markdown]
# Linnerud's data {cite}`tenenhaus1998regression` (as shipped with scikit-learn) have three
# outputs: the weight, waist and pulse of 20 middle-aged men, to be predicted from their chins,
# sit-ups and jumps. With standardised inputs and an unpenalised intercept (centred $X$ and
# $Y$), one solve of {eq}`eq-multi-ridge` gives all three columns:

# %%
from mlnotes.datasets import load_linnerud

linnerud = load_linnerud()
Zl = (linnerud.X - linnerud.X.mean(axis=0)) / linnerud.X.std(axis=0)
Yl = linnerud.y - linnerud.y.mean(axis=0)
n_l = len(Yl)
lam_l = 0.1  # lambda of the averaged loss (def-multi-ridge-objective)
W_ls = np.linalg.solve(Zl.T @ Zl, Zl.T @ Yl)
W_ridge = np.linalg.solve(Zl.T @ Zl + n_l * lam_l * np.eye(3), Zl.T @ Yl)
separate = np.column_stack(
    [linear.ridge(Zl, Yl[:, col], lam=n_l * lam_l).w for col in range(3)]
)
print(
    "one solve for all outputs = three single-output ridge fits:",
    bool(np.allclose(W_ridge, separate, rtol=1e-10, atol=0)),
)
print(f"{'output':8s} {'fit':6s}" + "".join(f"{f:>8s}" for f in linnerud.feature_names))
for col, target in enumerate(linnerud.extra["target_names"]):
    for fit_name, W_fit in (("LS", W_ls), ("ridge", W_ridge)):
        print(
            f"{target:8s} {fit_name:6s}" + "".join(f"{v:8.3f}" for v in W_fit[:, col])
        )

# %% [markdown]
# Each output has its own column of coefficients, the same as three separate regressions
# would give: more sit-ups go with a lower weight and waist, and the ridge penalty
# ($n\lambda = 2$ on standardised inputs) shrinks the large `Situps` and `Jumps` coefficients
# of the small, collinear sample (the three exercises are correlated, 0.5 to 0.7). That the
# outputs are fitted independently is a limitation as much as a convenience: weight and
# waist are strongly correlated (0.87), and methods that share structure
# between outputs (reduced-rank regression, the partial least squares that
# {cite}`tenenhaus1998regression` applies to these data) exploit what
# {eq}`eq-multi-ridge` ignores.

# %% [markdown]
# (sec-linear-lasso)=
# ## The lasso
#
# The lasso {cite}`tibshirani1996regression` penalises the $\ell_1$ norm instead:
#
# $$
# J_\lambda(w) = \|y - Xw\|^2 + \lambda \|w\|_1 = \|y - Xw\|^2 + \lambda \sum_{j} |w_j| .
# $$ (def-lasso-objective)
#
# (scikit-learn's `Lasso(alpha)` minimises $\frac{1}{2n}\|y - Xw\|^2 + \alpha\|w\|_1$, which is
# $J_\lambda / 2n$ with $\lambda = 2n\alpha$.) $J_\lambda$ is convex but not differentiable where
# a coefficient is 0. Its **subdifferential** in $w_j$ is
# $-2x_{\cdot j}^\top (y - Xw) + \lambda \partial|w_j|$, where $\partial|w_j|$ is
# $\{\operatorname{sign} w_j\}$ for $w_j \ne 0$ and the whole interval $[-1, 1]$ at 0. A point
# minimises $J_\lambda$ iff 0 is in every subdifferential:
#
# $$
# \begin{aligned}
# 2x_{\cdot j}^\top (y - Xw) &= \lambda \operatorname{sign}(w_j) && \text{if } w_j \ne 0, \\
# \big|2x_{\cdot j}^\top (y - Xw)\big| &\le \lambda && \text{if } w_j = 0 .
# \end{aligned}
# $$ (eq-lasso-subgradient)
#
# The inequality is why the lasso produces exact zeros: a coefficient stays at 0 for a whole
# range of data, as long as its correlation with the residual is below $\lambda/2$. A
# gradient step, which the notes use to argue the same point, is not defined there. The check
# measures the violation of {eq}`eq-lasso-subgradient` by the solutions of `linear.lasso`.

# %%
claims.verify("eq-lasso-subgradient")

# %% [markdown]
# ### Soft-thresholding and coordinate descent
#
# In one variable, $\min_w \tfrac12 (w - z)^2 + t|w|$ has the solution
#
# $$
# S(z, t) = \operatorname{sign}(z) \max(|z| - t, 0),
# $$ (eq-soft-threshold)
#
# the **soft-threshold**: move $z$ towards 0 by $t$, and stop at 0. (For $w > 0$ the derivative
# $w - z + t$ vanishes at $z - t$, admissible iff $z > t$; symmetrically for $w < 0$; otherwise
# 0 satisfies $|z| \le t$.) The check compares with Brent's method on the scalar objective.

# %%
claims.verify("eq-soft-threshold")

# %% [markdown]
# Holding every coordinate but $w_j$ fixed, the lasso objective is such a one-variable problem.
# With the partial residual $r_{(j)} = y - \sum_{k \ne j} x_{\cdot k} w_k$,
# $J = \|r_{(j)} - x_{\cdot j} w_j\|^2 + \lambda |w_j| + \text{const}
# = \|x_{\cdot j}\|^2 \big[(w_j - z)^2 + \tfrac{\lambda}{\|x_{\cdot j}\|^2}|w_j|\big] + \text{const}$
# with $z = x_{\cdot j}^\top r_{(j)} / \|x_{\cdot j}\|^2$, so
#
# $$
# \arg\min_{w_j} J_\lambda = \frac{S\big(x_{\cdot j}^\top r_{(j)},\ \lambda/2\big)}{\|x_{\cdot j}\|^2} .
# $$ (eq-lasso-coordinate)
#
# **Coordinate descent** cycles through $j = 1, \dots, d$ applying this update
# {cite}`friedman2010regularization`. Each step minimises $J_\lambda$ exactly along one
# coordinate, so the objective never increases, and for this objective (smooth plus separable)
# the iteration converges to a minimiser. `linear.lasso` runs it on $G = X^\top X$ and
# $c = X^\top y$ (then $x_{\cdot j}^\top r_{(j)} = c_j - (Gw)_j + G_{jj} w_j$, which costs
# $O(d)$ per update, independent of $n$) and stops when the duality gap, an upper bound on
# $J_\lambda(w) - \min J_\lambda$, is below $10^{-12}\|y\|^2$.

# %%
claims.verify("eq-lasso-coordinate")

# %% [markdown]
# At $w = 0$ the condition {eq}`eq-lasso-subgradient` reads $|2x_{\cdot j}^\top y| \le \lambda$
# for all $j$. So the lasso solution is exactly zero from
#
# $$
# \lambda_{\max} = 2\|X^\top y\|_\infty
# $$ (eq-lasso-lambda-max)
#
# on, and not below it. The check solves at $\lambda_{\max}(1 + 10^{-9})$ (all zeros
# required) and at $0.99\lambda_{\max}$ (a nonzero required). One of the source notes states
# the zero condition with the supremum of the gradient over all $w$; for the squared loss that
# supremum is infinite, so the condition must be read at the solution, as here.

# %%
claims.verify("eq-lasso-lambda-max")

# %%
fit = linear.lasso(
    Ztr,
    ytr,
    lam=0.2 * linear.lasso_lambda_max(Ztr, ytr, fit_intercept=True),
    fit_intercept=True,
)
print(
    f"lasso on the prostate training data at lambda = 0.2 lambda_max: "
    f"converged={fit.converged},\n"
    f"duality gap below 1e-12 |y|^2: "
    f"{bool(fit.gap[-1] <= 1e-12 * np.sum((ytr - ytr.mean()) ** 2))}"
)
print(
    "objective non-increasing:",
    bool(np.all(np.diff(fit.objective) <= 1e-12 * fit.objective[0])),
)
coef_text = [f"{n} {v:.3f}" for n, v in zip(pnames, fit.w, strict=True)]
print("coefficients:", ", ".join(coef_text[:4]) + ",")
print("             ", ", ".join(coef_text[4:]))

# %% [markdown]
# (sec-linear-elastic-net)=
# ## The elastic net
#
# Correlated predictors are a weak point of the lasso: of a group of correlated predictors it
# tends to keep one and drop the others, and which one it keeps can change with a small change
# of the data ({ref}`ex-ridge-duplicate` shows the extreme case of two identical columns).
# The **elastic net** {cite}`zou2005regularization` uses both penalties,
#
# $$
# J_{\lambda_1, \lambda_2}(w) = \|y - Xw\|^2 + \lambda_1 \|w\|_1 + \lambda_2 \|w\|^2,
# \qquad \lambda_1, \lambda_2 \ge 0 .
# $$ (def-elastic-net-objective)
#
# For $\lambda_2 > 0$ the objective is strictly convex, so the solution is unique even when
# $d > n$ or two columns coincide; the $\ell_1$ part still produces exact zeros.
# $\lambda_2 = 0$ is the lasso and $\lambda_1 = 0$ is ridge.
#
# ### A lasso on augmented data
#
# As for ridge ({eq}`eq-ridge-augmented`), the squared penalty can be written as $d$ extra
# samples $\sqrt{\lambda_2}\, e_j$ with target 0:
#
# $$
# \|y - Xw\|^2 + \lambda_1 \|w\|_1 + \lambda_2 \|w\|^2
# = \left\| \begin{pmatrix} y \\ 0 \end{pmatrix} -
# \begin{pmatrix} X \\ \sqrt{\lambda_2} I \end{pmatrix} w \right\|^2 + \lambda_1 \|w\|_1 .
# $$ (eq-elastic-net-augmented)
#
# The right side is a lasso objective, so everything proved for the lasso holds for the
# elastic net with $\tilde X = (X; \sqrt{\lambda_2} I)$ and $\tilde y = (y; 0)$ in place of $X$
# and $y$: the subgradient conditions, the duality gap that stops coordinate descent, and
# $\lambda_{\max}$, which does not change since $\tilde X^\top \tilde y = X^\top y$.
# `linear.elastic_net` is `linear.lasso` called on the augmented data. The check compares both
# sides at random $w$.

# %%
claims.verify("eq-elastic-net-augmented")

# %% [markdown]
# ### The coordinate update
#
# Fix every coordinate but $w_j$ and write $r_{(j)} = y - \sum_{k \ne j} x_{\cdot k} w_k$ as
# for the lasso. Up to terms free of $w_j$,
# $J = \|r_{(j)} - x_{\cdot j} w_j\|^2 + \lambda_2 w_j^2 + \lambda_1 |w_j|
# = (\|x_{\cdot j}\|^2 + \lambda_2) w_j^2 - 2 w_j\, x_{\cdot j}^\top r_{(j)} + \lambda_1 |w_j|$.
# With $a = \|x_{\cdot j}\|^2 + \lambda_2$ this is
# $2a\big[\tfrac12 (w_j - z)^2 + \tfrac{\lambda_1}{2a} |w_j|\big] + \text{const}$ with
# $z = x_{\cdot j}^\top r_{(j)} / a$, minimised by the soft-threshold {eq}`eq-soft-threshold`
# $S(z, \lambda_1 / 2a)$. Since $S(cz, ct) = c\, S(z, t)$ for $c > 0$,
#
# $$
# \arg\min_{w_j} J_{\lambda_1, \lambda_2}
# = \frac{S\big(x_{\cdot j}^\top r_{(j)},\ \lambda_1/2\big)}{\|x_{\cdot j}\|^2 + \lambda_2} .
# $$ (eq-elastic-net-coordinate)
#
# The numerator is the lasso's ({eq}`eq-lasso-coordinate`); the ridge part only enlarges the
# denominator, so each step is a lasso step followed by a ridge-like shrinkage by
# $\|x_{\cdot j}\|^2 / (\|x_{\cdot j}\|^2 + \lambda_2)$. It is also the lasso update on the
# augmented data: there $\|\tilde x_{\cdot j}\|^2 = \|x_{\cdot j}\|^2 + \lambda_2$, and the
# extra rows add nothing to $\tilde x_{\cdot j}^\top \tilde r_{(j)}$ (row $j$ of
# $\sqrt{\lambda_2} I$ holds only $w_j$, which $\tilde r_{(j)}$ leaves out). The check compares the
# update with Brent's method along the coordinate.

# %%
claims.verify("eq-elastic-net-coordinate")

# %% [markdown]
# scikit-learn's `ElasticNet(alpha, l1_ratio)` minimises
# $\frac{1}{2n}\|y - Xw\|^2 + \alpha\rho \|w\|_1 + \frac{\alpha(1 - \rho)}{2}\|w\|^2$ with
# $\rho$ = `l1_ratio`. Multiplied by $2n$ this is {eq}`def-elastic-net-objective` with
# $\lambda_1 = 2n\alpha\rho$ and $\lambda_2 = n\alpha(1 - \rho)$; conversely
# $\alpha = (\lambda_1/2 + \lambda_2)/n$ and $\rho = (\lambda_1/2) / (\lambda_1/2 + \lambda_2)$.
# With this map `tests/test_linear.py` compares the two at $\rho = 0.1, 0.5, 0.9$, with and
# without intercept, on data with a correlated pair of columns: the coefficients agree to
# $10^{-7}$ relative and the zeros are the same.
#
# ### The grouping effect
#
# At the solution, with $r = y - Xw$, the subgradient condition of a nonzero coefficient is
# $2x_{\cdot j}^\top r = \lambda_1 \sign(w_j) + 2\lambda_2 w_j$. For two nonzero coefficients
# of the same sign the $\lambda_1$ terms cancel in the difference:
#
# $$
# w_i - w_j = \frac{(x_{\cdot i} - x_{\cdot j})^\top r}{\lambda_2}
# \qquad \text{if } w_i w_j > 0 .
# $$ (eq-elastic-net-grouping)
#
# For centred columns of unit norm, $\|x_{\cdot i} - x_{\cdot j}\|^2 = 2(1 - \rho_{ij})$ with
# $\rho_{ij}$ their correlation, and $\|r\| \le \|y\|$ (the solution does at least as well as
# $w = 0$), so by Cauchy-Schwarz
# $|w_i - w_j| \le \|y\| \sqrt{2(1 - \rho_{ij})} / \lambda_2$: strongly correlated predictors
# get nearly equal coefficients, the **grouping effect** of {cite}`zou2005regularization`
# (their Theorem 1). The lasso, $\lambda_2 = 0$, has no such bound. The check fits the
# elastic net to two groups of three correlated columns and compares both sides for every
# pair of same-sign coefficients.

# %%
claims.verify("eq-elastic-net-grouping")

# %% [markdown]
# On the prostate training data (standardised as in {numref}`fig-ridge-shrinkage`),
# `lcavol`, `svi`, `lcp`, `gleason` and `pgg45` form a correlated group (pairwise
# correlations 0.3 to 0.8). At $\lambda_1 = 0.1\lambda_{\max}$ the lasso keeps `lcavol` with a
# large coefficient and sets `lcp` and `gleason` to zero; adding $\lambda_2 = 50$ moves
# weight from `lcavol` to its correlated partners, which enter the model
# ({numref}`fig-elastic-net-path`).

# %%
lmax_en = linear.lasso_lambda_max(Ztr, ytr, fit_intercept=True)
lam1_en = 0.1 * lmax_en
fits_en = {
    lam2: linear.elastic_net(Ztr, ytr, lam1=lam1_en, lam2=lam2, fit_intercept=True)
    for lam2 in (0.0, 10.0, 50.0)
}
corr_lcavol = np.corrcoef(Ztr.T)[0]
print(
    f"{'term':8s} {'corr. with lcavol':>17s} {'lasso':>7s} {'EN l2=10':>8s} "
    f"{'EN l2=50':>8s}"
)
for k, term in enumerate(pnames):
    coefs = " ".join(f"{f.w[k]:{8 if lam2 else 7}.3f}" for lam2, f in fits_en.items())
    print(f"{term:8s} {corr_lcavol[k]:17.2f} {coefs}")
for lam2, f in fits_en.items():
    e = (yte - f.predict(Zte)) ** 2
    print(
        f"lambda_2 = {lam2:4.0f}: {int(np.sum(f.w != 0))} nonzero, test error "
        f"{e.mean():.3f}, "
        f"converged={f.converged}"
    )

# %% [markdown]
# At $\lambda_2 = 50$ the elastic net keeps seven predictors where the lasso keeps five, and
# cuts the weight of `lcavol` from 0.549 to 0.314, sharing it with `svi`, `lcp`, `gleason` and
# `pgg45`. Grouping is
# about which predictors share the weight, not a promise of lower test error: on these 30 test
# rows the lasso does better. The paths show one more difference. Towards $\lambda_1 = 0$ the
# lasso reaches least squares, where `lcp` has a negative coefficient (-0.288 in Table 3.3 of
# {cite}`hastie2009elements`) although it is positively correlated with `lcavol`, `svi` and the
# response; on the path drawn, the elastic net keeps it positive and small.

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Lasso (left) and elastic-net (right, $\\lambda_2 = 50$) coefficient paths on the prostate data against $\\lambda_1 / \\lambda_{\\max}$. The elastic net brings the correlated predictors `lcp`, `gleason` and `pgg45` in together with `lcavol` and `svi` and shrinks `lcavol`.", "name": "fig-elastic-net-path"}, "image": {"alt": "Two panels of eight coefficient curves against a log lambda axis; in the right panel more curves leave zero early and the largest is lower."}} tags=["hide-input"]
path_l1 = lmax_en * np.logspace(-3, 0, 40)
fig, axes = plt.subplots(1, 2, figsize=(9, 4), sharey=True)
for ax, lam2 in zip(axes, (0.0, 50.0), strict=True):
    path = linear.elastic_net_path(Ztr, ytr, path_l1, lam2=lam2, fit_intercept=True)
    for k, term in enumerate(pnames):
        ax.semilogx(path_l1 / lmax_en, path[:, k], color=f"C{k}", label=term)
    ax.axvline(lam1_en / lmax_en, color="k", ls=":", lw=1)
    ax.set(xlabel="$\\lambda_1 / \\lambda_{\\max}$",
           title="lasso" if lam2 == 0 else f"elastic net, $\\lambda_2 = {lam2:.0f}$")
axes[0].set_ylabel("coefficient")
axes[1].legend(fontsize=7, ncol=2)
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-elastic-net-path
# Lasso (left) and elastic-net (right, $\lambda_2 = 50$) coefficient paths on the prostate data against $\lambda_1 / \lambda_{\max}$. The elastic net brings the correlated predictors `lcp`, `gleason` and `pgg45` in together with `lcavol` and `svi` and shrinks `lcavol`.
# :::

# %% [markdown]
# (sec-linear-map)=
# ## Ridge and lasso as MAP estimates
#
# Suppose $y = Xw + \varepsilon$ with $\varepsilon \sim N(0, \sigma^2 I)$. Maximum likelihood
# is least squares: $-\log p(y \mid X, w) = \|y - Xw\|^2 / 2\sigma^2 + \text{const}$. With a
# prior $p(w)$ on the weights, the maximum a posteriori estimate maximises
# $\log p(y \mid X, w) + \log p(w)$. A Gaussian prior $w_j \sim N(0, \tau^2)$ adds
# $\|w\|^2 / 2\tau^2$; multiplying by $2\sigma^2$,
#
# $$
# \hat w_{\mathrm{MAP}} = \arg\min_w \|y - Xw\|^2 + \frac{\sigma^2}{\tau^2}\|w\|^2 :
# \quad \text{ridge with } \lambda = \sigma^2 / \tau^2 .
# $$ (eq-map-ridge)
#
# The penalty is the **squared** norm; the unsquared $\|w\|_2$ that one of the source notes
# writes for ridge is a different (non-differentiable) estimator. The check writes the log
# posterior with `scipy.stats` densities (none of the algebra above) and finds its gradient
# zero at the ridge solution.

# %%
claims.verify("eq-map-ridge")

# %% [markdown]
# How different is the unsquared penalty? Away from $w = 0$ the gradient of $\tau\|w\|_2$ is
# $\tau w / \|w\|_2$, so a minimiser $w \ne 0$ of $\|y - Xw\|^2 + \tau\|w\|_2$ satisfies ridge's
# stationarity condition with $\lambda = \tau / (2\|w\|_2)$; at $w = 0$ the subdifferential is
# $-2X^\top y$ plus the ball of radius $\tau$. Hence
#
# $$
# \begin{aligned}
# &\arg\min_w \|y - Xw\|^2 + \tau\|w\|_2 \\
# &\quad = \begin{cases} 0, & \tau \ge 2\|X^\top y\|_2, \\
# w_\lambda \text{ with } \lambda = \tau / (2\|w_\lambda\|_2), & \text{otherwise:}
# \end{cases}
# \end{aligned}
# $$ (eq-ridge-unsquared)
#
# the same path of solutions as ridge, reached with a data-dependent $\lambda$, and an exact
# zero for large $\tau$. ($\lambda\|w_\lambda\|_2$ grows from 0 to $\|X^\top y\|_2$ with
# $\lambda$, so the equation for $\lambda$ has one root, found by bisection; the check compares
# the objective there with BFGS from several starts and with $w = 0$.)

# %%
claims.verify("eq-ridge-unsquared")

# %% [markdown]
# A Laplace prior, $p(w_j) = e^{-|w_j|/\beta} / 2\beta$, adds $\|w\|_1 / \beta$, and the same
# rescaling gives
#
# $$
# \hat w_{\mathrm{MAP}} = \arg\min_w \|y - Xw\|^2 + \frac{2\sigma^2}{\beta}\|w\|_1 :
# \quad \text{lasso with } \lambda = 2\sigma^2/\beta .
# $$ (eq-map-lasso)
#
# The Laplace density has a sharp peak at 0, which is where the exact zeros come from; the
# Gaussian is flat there. (The check compares the negative log posterior at the lasso solution
# with 200 random nearby points.)

# %%
claims.verify("eq-map-lasso")

# %% [markdown]
# One of the source notes goes further and gives each weight its own prior variance,
# $w_d \sim N(0, C_d)$, to learn which features matter ("adaptive feature importances"). With
# any likelihood, written through the losses $\mathcal L_i(w) = -\ln p(y_i \mid x_i, w)$, the
# negative log posterior is, up to the evidence,
#
# $$
# \begin{aligned}
# -\ln\Big(\prod_{i=1}^n p(y_i \mid x_i, w)\; p(w)\Big)
# &= \sum_{i=1}^n \mathcal L_i(w) \\
# &\quad + \frac12 \sum_{d=1}^D \Big(\ln C_d + \frac{w_d^2}{C_d}\Big) + \frac D2 \ln 2\pi ,
# \end{aligned}
# $$ (eq-map-objective)
#
# and a Laplace prior of scale $C$ contributes $\|w\|_1 / C + D \ln 2C$. The constants count
# the $D$ weights, not the $n$ data points as in the notes; the check builds both sides from
# `scipy.stats` densities for the logistic likelihood.

# %%
claims.verify("eq-map-objective")

# %% [markdown]
# The notes then minimise this over $w$ and $C$ together. That has no solution. For fixed
# $w_d \ne 0$ the best variance is $C_d = w_d^2$, and
#
# $$
# \min_{C_d > 0} \tfrac12\big(\ln C_d + w_d^2 / C_d\big) = \ln|w_d| + \tfrac12 ,
# $$ (eq-ard-profile)
#
# so the joint objective is $\sum_i \mathcal L_i(w) + \sum_d \ln|w_d| + D/2$, which tends to
# $-\infty$ as any $w_d \to 0$: every feature can be "removed", whatever the data. Learning
# the $C_d$ needs another principle, such as maximising the marginal likelihood with $w$
# integrated out (automatic relevance determination). The check minimises over $C_d$
# numerically and follows the joint objective along $w_d = e^{-k}$, $C_d = w_d^2$ down 190
# units from $k = 10$ to $k = 200$.

# %%
claims.verify("eq-ard-profile")

# %% [markdown]
# ### Why the $\ell_1$ corner gives zeros
#
# {numref}`fig-map-priors` and {numref}`fig-constraint-regions` draw both views. First the two
# priors with the same variance: the Gaussian is smooth at 0, its negative log density
# $w^2/2\tau^2$ has zero slope there, so a small coefficient costs almost nothing more than a
# zero one and the posterior mode has no reason to sit exactly at 0. The Laplace density has a
# kink: its negative log $|w|/\beta$ has slope $\pm 1/\beta$ on either side of 0, and the mode
# stays at 0 as long as the data's pull on $w_j$ (the slope of the log-likelihood, $x_{\cdot
# j}^\top r/\sigma^2$) is below $1/\beta$, which is {eq}`eq-lasso-subgradient` again.
#
# Then the constrained form ({numref}`fig-constraint-regions`): minimise $\|y - Xw\|^2$ subject
# to a penalty at most $t$ (for each $\lambda$ some $t$ gives the same solution). The solution
# is where the smallest RSS ellipse around $\hat w_{\mathrm{LS}}$ that reaches the region
# touches it. The $\ell_2$ disk has no corners, so the touching point has both coordinates
# nonzero unless $\hat w_{\mathrm{LS}}$ lies on an axis. The $\ell_1$ diamond has corners on
# the axes, and an ellipse approaching from a whole cone of directions touches a corner first:
# a zero coefficient. The elastic-net region ($\lambda_1\|w\|_1 + \lambda_2\|w\|^2 \le t$)
# keeps the corners but bulges between them, which is why it still selects and yet shares
# weight between correlated coordinates. The touching points in the figure are the solutions of
# `linear.ridge`, `linear.lasso` and `linear.elastic_net` on a two-feature problem.

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Gaussian and Laplace priors of variance 1: the Laplace density has a kink at 0, where its negative log has slopes $\\pm 1/\\beta$; the Gaussian's is flat there.", "name": "fig-map-priors"}, "image": {"alt": "A smooth bell curve and a sharply peaked Laplace density on the same axes."}} tags=["hide-input"]
grid_w = np.linspace(-3, 3, 601)
b_lap = 1 / np.sqrt(2)  # Laplace(0, b) has variance 2 b^2 = 1
fig, ax = plt.subplots(figsize=(5, 3.5))
ax.plot(
    grid_w, np.exp(-(grid_w**2) / 2) / np.sqrt(2 * np.pi), label="Gaussian, $\\tau = 1$"
)
ax.plot(
    grid_w,
    np.exp(-np.abs(grid_w) / b_lap) / (2 * b_lap),
    label="Laplace, $\\beta = 1/\\sqrt{2}$",
)
ax.set(xlabel="$w_j$", ylabel="prior density", title="Priors of variance 1")
ax.legend(fontsize=8)
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-map-priors
# Gaussian and Laplace priors of variance 1: the Laplace density has a kink at 0, where its negative log has slopes $\pm 1/\beta$; the Gaussian's is flat there.
# :::

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Constraint regions of ridge ($\\ell_2$ disk), lasso ($\\ell_1$ diamond) and elastic net ($\\lambda_1 = 1$, $\\lambda_2 = 0.6$), each with the RSS contour around $\\hat w_{\\mathrm{LS}}$ that touches it at the penalised solution (dot). The lasso's contour touches a corner, where $w_2 = 0$.", "name": "fig-constraint-regions"}, "image": {"alt": "Three panels: a disk, a diamond and a rounded diamond around the origin, each touched by an ellipse centred at the least-squares point; the diamond is touched at its corner on the horizontal axis."}} tags=["hide-input"]
# a two-feature problem with X^T X = A_map and least-squares solution w_ls
A_map = np.array([[1.0, 0.45], [0.45, 0.7]])
X_map = np.linalg.cholesky(A_map).T
w_ls = np.array([1.6, 0.7])
y_map = X_map @ w_ls
g1, g2 = np.meshgrid(np.linspace(-1.5, 2.7, 200), np.linspace(-1.5, 2.7, 200))
V = np.stack([g1, g2])
D = V - w_ls[:, None, None]
rss = np.einsum("iab,ij,jab->ab", D, A_map, D)
panels = [  # title, penalised solution, penalty (of the columns of v)
    (
        "ridge, $\\|w\\|^2 \\leq t$",
        linear.ridge(X_map, y_map, lam=1.2).w,
        lambda v: np.sum(v**2, axis=0),
    ),
    (
        "lasso, $\\|w\\|_1 \\leq t$",
        linear.lasso(X_map, y_map, lam=1.6).w,
        lambda v: np.sum(np.abs(v), axis=0),
    ),
    (
        "elastic net",
        linear.elastic_net(X_map, y_map, lam1=1.0, lam2=0.6).w,
        lambda v: np.sum(np.abs(v), axis=0) + 0.6 * np.sum(v**2, axis=0),
    ),
]
fig, axes = plt.subplots(1, 3, figsize=(11, 3.8), sharey=True)
for k, (ax, (title, w_pen, penalty)) in enumerate(zip(axes, panels, strict=True)):
    # the region {penalty <= t} with t the penalty of the solution
    ax.contourf(
        g1, g2, penalty(V), levels=[0, penalty(w_pen)], colors=f"C{k}", alpha=0.3
    )
    dw = w_pen - w_ls
    ax.contour(g1, g2, rss, levels=[dw @ A_map @ dw], colors="k", linewidths=1)
    ax.plot(*w_pen, "o", color=f"C{k}", label=f"$w$ = ({w_pen[0]:.2f}, {w_pen[1]:.2f})")
    ax.plot(*w_ls, "k+", ms=10, label="$\\hat w_{\\mathrm{LS}}$")
    ax.axhline(0, color="gray", lw=0.5)
    ax.axvline(0, color="gray", lw=0.5)
    ax.set(xlabel="$w_1$", title=title, aspect="equal")
    ax.legend(fontsize=7, loc="lower right")
axes[0].set_ylabel("$w_2$")
plt.show()
(_, w_ridge, _), (_, w_lasso, _), (_, w_enet, _) = panels
print("lasso solution on the axis w_2 = 0:", bool(w_lasso[1] == 0.0))
print(
    "ridge and elastic net solutions off both axes:",
    bool(np.all(w_ridge != 0) and np.all(w_enet != 0)),
)

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-constraint-regions
# Constraint regions of ridge ($\ell_2$ disk), lasso ($\ell_1$ diamond) and elastic net ($\lambda_1 = 1$, $\lambda_2 = 0.6$), each with the RSS contour around $\hat w_{\mathrm{LS}}$ that touches it at the penalised solution (dot). The lasso's contour touches a corner, where $w_2 = 0$.
# :::

# %% [markdown]
# (sec-linear-ard)=
# ### Learning the variances: automatic relevance determination
#
# First what goes wrong when the joint objective is minimised anyway. On the standardised
# prostate training data, take the Gaussian losses
# $\mathcal L_i(w) = (y_i - x_i^\top w)^2 / 2\sigma^2$ with $\sigma^2$ fixed at the
# least-squares estimate, and alternate the two exact partial minimisations of
# {eq}`eq-map-objective`: given $C$, $w$ is a ridge fit with penalty $w_d^2 / 2C_d$ on each
# coordinate; given $w$, $C_d = w_d^2$ ({eq}`eq-ard-profile`). Each step lowers the objective,
# and it never stops lowering it: a small coefficient gets a small variance, hence a larger
# penalty, hence a smaller coefficient, so $C_d$ roughly cubes at every step for the weak
# features. Six steps take `gleason` from $10^{-3}$ to $10^{-299}$, at the edge of the floating
# point range, and the objective falls without bound ({numref}`fig-ard-variances`, left).

# %%
Xc_ard, yc_ard = Ztr - Ztr.mean(axis=0), ytr - ytr.mean()
n_ard, d_ard = Xc_ard.shape
w_joint = linear.least_squares(Xc_ard, yc_ard).w
s2_joint = np.sum((yc_ard - Xc_ard @ w_joint) ** 2) / (n_ard - d_ard - 1)


def joint_objective(w, C):
    """Eq. (eq-map-objective) with Gaussian losses, without the constant."""
    rss_w = np.sum((yc_ard - Xc_ard @ w) ** 2)
    return rss_w / (2 * s2_joint) + 0.5 * np.sum(np.log(C) + w**2 / C)


C_joint = [w_joint**2]  # C given w, then alternate
values = [joint_objective(w_joint, C_joint[-1])]
for _ in range(6):
    A_joint = Xc_ard.T @ Xc_ard / s2_joint + np.diag(1 / C_joint[-1])
    w_joint = np.linalg.solve(A_joint, Xc_ard.T @ yc_ard / s2_joint)  # w given C
    C_joint.append(w_joint**2)  # C given w
    values.append(joint_objective(w_joint, C_joint[-1]))
C_joint = np.array(C_joint)
print("joint objective by step:", " ".join(f"{v:.0f}" for v in values))
for name, c0, c6 in zip(prostate.feature_names, C_joint[0], C_joint[-1], strict=True):
    print(f"{name:8s} C_d: 10^{np.log10(c0):5.1f} -> 10^{np.log10(c6):6.1f}")

# %% [markdown]
# Integrating the weights out instead gives a criterion for $C$ that cannot collapse. With
# $w \sim N(0, \operatorname{diag}(C))$ and $y = Xw + \varepsilon$, $y$ is Gaussian, and its
# density at the observed $y$ is the **evidence** (marginal likelihood)
#
# $$
# \begin{aligned}
# p(y \mid C, \sigma^2) &= \int p(y \mid w, \sigma^2)\, p(w \mid C)\, dw \\
# &= N\big(y;\ 0,\ \sigma^2 I_n + X \operatorname{diag}(C) X^\top\big) .
# \end{aligned}
# $$ (def-ard-evidence)
#
# A vanishing $C_d$ now only removes column $d$ from the covariance: the evidence tends to
# that of the model without feature $d$, a finite number, and comparing the two is a
# legitimate question. Given $C$ and $\sigma^2$ the posterior of $w$ is $N(\mu, \Sigma)$ with
# $\Sigma = (X^\top X / \sigma^2 + \operatorname{diag}(C)^{-1})^{-1}$ and
# $\mu = \Sigma X^\top y / \sigma^2$. Differentiating the log of {eq}`def-ard-evidence`
# (with $d\ln|S| = \operatorname{tr}(S^{-1} dS)$ and $dS^{-1} = -S^{-1} (dS) S^{-1}$ for its
# covariance $S$, Chapter 0, {eq}`eq-grad-logdet`) and writing
# $\gamma_d = 1 - \Sigma_{dd} / C_d$ gives
#
# $$
# \begin{gathered}
# \frac{\partial \ln p(y \mid C, \sigma^2)}{\partial \ln C_d}
# = \frac{\mu_d^2 + \Sigma_{dd} - C_d}{2 C_d}, \\
# \frac{\partial \ln p(y \mid C, \sigma^2)}{\partial \ln \sigma^2}
# = \frac{\|y - X\mu\|^2}{2\sigma^2} - \frac{n - \sum_d \gamma_d}{2}, \\
# \text{zero at} \quad C_d = \frac{\mu_d^2}{\gamma_d}, \qquad
# \sigma^2 = \frac{\|y - X\mu\|^2}{n - \sum_d \gamma_d} .
# \end{gathered}
# $$ (eq-ard-update)
#
# Compare with the joint objective, whose stationarity condition is $C_d = w_d^2$: the
# evidence adds the posterior variance, $C_d = \mu_d^2 + \Sigma_{dd}$, the uncertainty that
# a point estimate of $w$ ignores. $\gamma_d \in [0, 1]$ measures how well the data determine
# $w_d$ (1: by the data alone, 0: by the prior alone), and $\sum_d \gamma_d$ is the effective
# number of parameters, as in the degrees of freedom of ridge. MacKay's fixed-point iteration
# {cite}`mackay1992bayesian` repeats the two updates on the right; a feature whose $C_d$ falls
# below a threshold is pruned. This is **automatic relevance determination** (ARD), the model
# behind the relevance vector machine {cite}`tipping2001sparse`. The check differentiates the
# log of the Gaussian density {eq}`def-ard-evidence` numerically, built from the $n \times n$
# covariance, and compares with the left-hand formulas.

# %%
claims.verify("eq-ard-update")

# %% [markdown]
# `linear.ard` runs the iteration (the tests check it against scikit-learn's `ARDRegression`
# with the same start and pruning threshold, and its hyperpriors switched off). On the prostate
# data it prunes `gleason`, gives `age` a variance of order $10^{-3}$ and keeps the other
# coefficients close to least squares, shrunk by how poorly they are determined. Its test error
# is below that of least squares (0.521), ridge (0.492) and the lasso (0.479) in ESL's
# Table 3.3 ({numref}`fig-ard-variances`, right).

# %%
ard_fit = linear.ard(Ztr, ytr, fit_intercept=True)
w_ls_ard = linear.least_squares(Xc_ard, yc_ard).w
print(f"converged: {ard_fit.converged}, sigma^2 = {ard_fit.sigma2:.3f}, "
      f"effective parameters sum(gamma) = {ard_fit.gamma.sum():.2f}")
print("feature        C_d   gamma_d    w_ARD     w_LS")
for j, name in enumerate(prostate.feature_names):
    print(f"{name:8s} {ard_fit.C[j]:9.2e} {ard_fit.gamma[j]:7.2f} {ard_fit.w[j]:8.3f} "
          f"{w_ls_ard[j]:8.3f}")
print(f"test error: ARD {np.mean((yte - ard_fit.predict(Zte)) ** 2):.3f}")

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Prior variances on the prostate data. Left: minimising the joint objective by alternation sends the variances of the weak features towards 0 without end (log scale; `gleason` reaches $10^{-299}$ in six steps). Right: the variances that maximise the evidence (ARD); `gleason` is pruned ($C_d \\to 0$), the others settle.", "name": "fig-ard-variances"}, "image": {"alt": "Left panel: eight lines of log variance against step, several plunging steeply downwards. Right panel: horizontal bars of the ARD variances per feature on a log scale, one feature marked pruned."}} tags=["hide-input"]
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 3.8))
for j, name in enumerate(prostate.feature_names):
    ax1.plot(np.log10(C_joint[:, j]), marker="o", ms=3, label=name)
ax1.set(xlabel="alternation step", ylabel="$\\log_{10} C_d$",
        title="Joint minimisation over $(w, C)$")
ax1.legend(fontsize=7, ncol=2)
kept = ard_fit.relevant
ypos = np.arange(d_ard)
ax2.barh(ypos[kept], ard_fit.C[kept], color="C0")
ax2.set_xscale("log")
for j in np.flatnonzero(~kept):
    ax2.text(1.5 * ard_fit.C[kept].min(), j, "pruned ($C_d \\to 0$)", va="center",
             fontsize=8)
ax2.set(yticks=ypos, yticklabels=prostate.feature_names, xlabel="$C_d$",
        title="Evidence maximisation (ARD)")
ax2.invert_yaxis()
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-ard-variances
# Prior variances on the prostate data. Left: minimising the joint objective by alternation sends the variances of the weak features towards 0 without end (log scale; `gleason` reaches $10^{-299}$ in six steps). Right: the variances that maximise the evidence (ARD); `gleason` is pruned ($C_d \to 0$), the others settle.
# :::

# %% [markdown]
# (sec-linear-bias-variance)=
# ## Bias, variance and the choice of $\lambda$
#
# Suppose the data come from $y = g(x) + \varepsilon$ with $\mathbb{E}\varepsilon = 0$,
# $\operatorname{Var}\varepsilon = \sigma^2$, and $\hat g$ is fitted on a random training set.
# At a fixed input $x_0$, with a new target $y_0 = g(x_0) + \varepsilon_0$ independent of the
# training set, expanding
# $y_0 - \hat g = \varepsilon_0 + (g(x_0) - \mathbb{E}\hat g(x_0)) + (\mathbb{E}\hat g(x_0) - \hat g(x_0))$
# and noting that the cross terms have mean zero gives
#
# $$
# \mathbb{E}\big(y_0 - \hat g(x_0)\big)^2 = \underbrace{\sigma^2}_{\text{noise}}
# + \underbrace{\big(g(x_0) - \mathbb{E}\hat g(x_0)\big)^2}_{\text{bias}^2}
# + \underbrace{\mathbb{E}\big(\hat g(x_0) - \mathbb{E}\hat g(x_0)\big)^2}_{\text{variance}} .
# $$ (eq-bias-variance)
#
# These are three terms: the source notes bracket the noise $\sigma^2$ together with the
# squared bias, but no choice of model or $\lambda$ reduces it. For ridge with a fixed design,
# $\hat g(x_0) = a^\top y$ with
# $a = X (X^\top X + \lambda I)^{-1} x_0$, so bias and variance have closed forms. The check
# draws 4000 training sets and new targets and compares the Monte Carlo mean of the left side
# with the right side, in units of its standard error.

# %%
claims.verify("eq-bias-variance")

# %% [markdown]
# The noise term belongs to neither bias nor variance. When the model contains $g$ the bias
# vanishes: for $g(x) = x^\top\beta$, least squares has $\mathbb{E}\hat w = \beta$, so
#
# $$
# \mathbb{E}\hat g(x_0) - g(x_0) = x_0^\top(\mathbb{E}\hat w - \beta) = 0 ,
# $$ (eq-ols-unbiased)
#
# and the expected error is $\sigma^2$ plus the variance alone. (The check estimates
# $\mathbb{E}\hat g(x_0)$ from 4000 training sets; a bias term that held $\sigma^2$, as the
# notes' bracket does, would be off by $\sigma$, nearly a hundred standard errors.)

# %%
claims.verify("eq-ols-unbiased")

# %% [markdown]
# Increasing $\lambda$ shrinks the fit towards 0: the variance falls, the squared bias rises,
# and the expected error, averaged over test inputs, is lowest in between. In practice $g$ is
# unknown, so $\lambda$ is chosen by **$K$-fold cross-validation**: split the rows into $K$
# folds $F_1, \dots, F_K$, fit on all folds but $F_k$, predict $F_k$, and average:
#
# $$
# \mathrm{CV}(\lambda) = \frac{1}{n} \sum_{k=1}^{K} \sum_{i \in F_k}
# \big(y_i - \hat f_\lambda^{(-k)}(x_i)\big)^2 .
# $$ (def-cv-error)
#
# The figure uses simulated data: $n = 30$ samples of 10 correlated Gaussian features and
# $g(x) = \beta^\top x$. The curves are Monte Carlo estimates over 300 training sets of the
# squared bias and the variance, averaged over 200 test inputs; the points are 10-fold
# cross-validation errors, averaged over 20 of those training sets (one training set gives a
# much noisier curve), with their spread across the 20 as bars ({numref}`fig-bias-variance`).

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Bias-variance decomposition of ridge regression against $\\lambda$: squared bias rises, variance falls, their sum plus the noise $\\sigma^2$ is the expected test error, which 10-fold cross-validation tracks.", "name": "fig-bias-variance"}, "image": {"alt": "Curves of bias squared rising and variance falling with lambda, their U-shaped sum, and cross-validation points with error bars."}} tags=["hide-input"]
n_bv, d_bv, sigma_bv, reps_bv = 30, 10, 1.0, 300
L = np.linalg.cholesky(0.7 * np.ones((d_bv, d_bv)) + 0.3 * np.eye(d_bv))
beta_bv = 0.5 * rng.standard_normal(d_bv)
X0 = rng.standard_normal((200, d_bv)) @ L.T
Xs = (
    rng.standard_normal((reps_bv, n_bv, d_bv)) @ L.T
)  # a fresh design for every training set
ys = Xs @ beta_bv + sigma_bv * rng.standard_normal((reps_bv, n_bv))
XtX = np.einsum("rni,rnj->rij", Xs, Xs)
Xty = np.einsum("rni,rn->ri", Xs, ys)
lams_bv = np.logspace(-2, 3, 40)
bias2, var = [], []
for lam in lams_bv:
    W = np.linalg.solve(XtX + lam * np.eye(d_bv), Xty[..., None])[..., 0]  # (reps, d)
    P = W @ X0.T  # predictions at the test inputs, one row per training set
    bias2.append(np.mean((X0 @ beta_bv - P.mean(axis=0)) ** 2))
    var.append(np.mean(P.var(axis=0)))
bias2, var = np.array(bias2), np.array(var)
cv_lams = lams_bv[::4]
cv_runs = np.array(
    [
        linear.cross_validate(
            Xs[r], ys[r], cv_lams, fit="ridge", n_folds=10, rng=r, fit_intercept=False
        )[0]
        for r in range(20)
    ]
)
fig, ax = plt.subplots()
ax.semilogx(lams_bv, bias2, label="bias$^2$")
ax.semilogx(lams_bv, var, label="variance")
ax.semilogx(
    lams_bv,
    sigma_bv**2 + bias2 + var,
    "k",
    label="expected test error $\\sigma^2$ + bias$^2$ + var",
)
ax.axhline(sigma_bv**2, color="gray", ls=":", label="noise $\\sigma^2$")
ax.errorbar(
    cv_lams,
    cv_runs.mean(axis=0),
    yerr=cv_runs.std(axis=0),
    fmt="o",
    color="C3",
    ms=4,
    label="10-fold CV, mean of 20 training sets",
)
ax.set(xlabel="$\\lambda$", ylabel="squared error", ylim=(0, 3))
ax.legend(fontsize=8)
plt.show()
print(
    f"lambda minimising the expected error: {lams_bv[np.argmin(bias2 + var)]:.2f}; "
    f"minimising the mean CV error: {cv_lams[np.argmin(cv_runs.mean(axis=0))]:.2f}"
)
expected_cv = sigma_bv**2 + (bias2 + var)[::4]  # the expected error on the CV grid
print(
    f"variance falls at every step: {bool(np.all(np.diff(var) < 0))}; squared bias "
    f"rises from {bias2[0]:.3f} to {bias2[-1]:.3f}"
)
print(
    "mean CV error within one standard deviation (the bars) of the expected error\n"
    "at every lambda:",
    bool(np.all(np.abs(cv_runs.mean(axis=0) - expected_cv) <= cv_runs.std(axis=0))),
)

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-bias-variance
# Bias-variance decomposition of ridge regression against $\lambda$: squared bias rises, variance falls, their sum plus the noise $\sigma^2$ is the expected test error, which 10-fold cross-validation tracks.
# :::

# %% [markdown]
# (sec-linear-loocv)=
# ### Leave-one-out cross-validation in closed form
#
# With $K = n$ folds (**leave-one-out**, LOOCV) cross-validation seems to need $n$ fits. For
# ridge it needs one. Write the fit as $\hat y = Hy$ with
# $H = X(X^\top X + \lambda I)^{-1}X^\top$, let $A = X^\top X + \lambda I$ and
# $h_i = H_{ii} = x_i^\top A^{-1} x_i$. Leaving sample $i$ out removes $x_i x_i^\top$ from $A$
# and $x_i y_i$ from $X^\top y$; by the Sherman-Morrison formula
# $(A - x_i x_i^\top)^{-1} = A^{-1} + A^{-1}x_i x_i^\top A^{-1} / (1 - h_i)$, so the prediction
# at $x_i$ without sample $i$ is
# $x_i^\top (A - x_i x_i^\top)^{-1}(X^\top y - x_i y_i)
# = (\hat y_i - h_i y_i)\big(1 + \tfrac{h_i}{1 - h_i}\big) = \frac{\hat y_i - h_i y_i}{1 - h_i}$.
# Subtracting it from $y_i$:
#
# $$
# y_i - \hat f^{(-i)}(x_i) = \frac{y_i - \hat y_i}{1 - H_{ii}} .
# $$ (eq-ridge-loocv)
#
# The leave-one-out residual is the training residual inflated by $1/(1 - H_{ii})$: by a lot
# for points of high **leverage** $H_{ii}$, which pull the fit towards themselves. The same
# algebra holds with an unpenalised intercept (a column of ones in $X$ and a penalty matrix
# $\diag(0, \lambda, \dots, \lambda)$ in place of $\lambda I$), and for least squares
# ($\lambda = 0$). The check compares with $n$ refits of `linear.ridge`, with and without
# intercept. Replacing each $H_{ii}$ by their mean $\operatorname{tr}(H)/n =
# \mathrm{df}(\lambda)/n$ ({eq}`eq-ridge-dof`) gives generalised cross-validation (GCV).

# %%
claims.verify("eq-ridge-loocv")

# %% [markdown]
# On Linnerud's data (standardised inputs, intercept, $\lambda$ of {eq}`def-ridge-objective`),
# one fit per penalty gives the leave-one-out error of each output over a grid of penalties,
# and $n$ refits agree:

# %%
def loocv_ridge(Z, Y, lams):
    """Mean squared leave-one-out error of ridge with intercept, one row per lambda
    (eq-ridge-loocv); Y has one column per output."""
    A = np.column_stack([np.ones(len(Z)), Z])
    out = []
    for lam in lams:
        P = np.diag(np.r_[0.0, np.full(Z.shape[1], lam)])
        H = A @ np.linalg.solve(A.T @ A + P, A.T)
        E = (Y - H @ Y) / (1 - np.diag(H))[:, None]
        out.append(np.mean(E**2, axis=0))
    return np.array(out)


lams_loo = np.logspace(-2, 3, 41)
loo = loocv_ridge(Zl, linnerud.y, lams_loo)
brute_loo = np.array([[np.mean([(linnerud.y[i, col] - linear.ridge(
    np.delete(Zl, i, axis=0), np.delete(linnerud.y[:, col], i), lam=lam,
    fit_intercept=True).predict(Zl[i:i + 1])[0]) ** 2 for i in range(n_l)])
    for col in range(3)] for lam in lams_loo[::10]])
print("shortcut = 20 refits, at five of the penalties (relative error < 1e-9):",
      bool(np.all(np.abs(brute_loo - loo[::10]) <= 1e-9 * brute_loo)))
for col, target in enumerate(linnerud.extra["target_names"]):
    best = np.argmin(loo[:, col])
    print(f"{target:7s} LOOCV error at lambda = 0.01: {loo[0, col]:6.1f}, "
          f"at 1000: {loo[-1, col]:6.1f}, "
          f"least {loo[best, col]:6.1f} at {lams_loo[best]:.3g}")

# %% [markdown]
# For `Weight` and `Waist` a moderate penalty predicts better than (almost) least squares;
# for `Pulse` the exercises carry so little information that the best penalty is at the top
# of the grid, where the fit is nearly the mean pulse. Twenty men are few, and leave-one-out errors on them are
# noisy: the grid minimum is a rough guide, which is why the one-standard-error rule below
# prefers the simpler model.

# %% [markdown]
# (sec-linear-prostate)=
# ## Real data: the prostate cancer study
#
# The prostate data {cite}`stamey1989prostate` relate the log of prostate-specific antigen
# (`lpsa`) to eight clinical measures in 97 men. {cite}`hastie2009elements` (section 3.2 and
# Table 3.3) standardise the predictors, fit on 67 training rows and report the mean squared
# error on the remaining 30. We standardise over all 97 rows (sample standard deviation), as
# they did, and fit least squares with an intercept on the training rows:

# %%
A_tr = np.column_stack([np.ones(train.sum()), Ztr])
A_te = np.column_stack([np.ones((~train).sum()), Zte])
ls = linear.least_squares(A_tr, ytr)
esl_ls = [2.465, 0.680, 0.263, -0.141, 0.210, 0.305, -0.288, -0.021, 0.267]
print(f"{'term':10s} {'ours':>7s} {'ESL 3.3':>8s}")
for term, ours, theirs in zip(("intercept",) + pnames, ls.w, esl_ls, strict=True):
    print(f"{term:10s} {ours:7.3f} {theirs:8.3f}")
sq_err = (yte - ls.predict(A_te)) ** 2
print(f"{'test error':10s} {sq_err.mean():7.3f} {0.521:8.3f}")
print(
    f"{'std error':10s} {sq_err.std(ddof=1) / np.sqrt(sq_err.size):7.3f} {0.179:8.3f}"
)

# %% [markdown]
# Every coefficient and the test error agree to the three digits published. Ridge and lasso
# leave the intercept unpenalised (`fit_intercept=True` centres the columns). We choose
# $\lambda$ by 10-fold cross-validation with the **one-standard-error rule** that ESL uses: the
# largest $\lambda$ whose CV error is within one standard error of the minimum, i.e. the
# simplest model that cannot be told apart from the best. Our folds are random, not ESL's, so
# the chosen $\lambda$ and test errors are not expected to match theirs exactly (ESL report
# 0.492 for ridge and 0.479 for the lasso) ({numref}`fig-ridge-path`, {numref}`fig-lasso-path`, {numref}`fig-cv-curves`).

# %%
def one_se_choice(lams, cv, se):
    best = np.argmin(cv)
    return max(
        lam for lam, err in zip(lams, cv, strict=True) if err <= cv[best] + se[best]
    )


ridge_lams = np.logspace(-1, 3.5, 40)
cv_r, se_r = linear.cross_validate(Ztr, ytr, ridge_lams, fit="ridge", n_folds=10, rng=3)
lam_r = one_se_choice(ridge_lams, cv_r, se_r)
rfit = linear.ridge(Ztr, ytr, lam=lam_r, fit_intercept=True)

lmax = linear.lasso_lambda_max(Ztr, ytr, fit_intercept=True)
lasso_lams = lmax * np.logspace(-3, 0, 40)
cv_l, se_l = linear.cross_validate(Ztr, ytr, lasso_lams, fit="lasso", n_folds=10, rng=3)
lam_l = one_se_choice(lasso_lams, cv_l, se_l)
lfit = linear.lasso(Ztr, ytr, lam=lam_l, fit_intercept=True)

print(f"{'term':10s} {'LS':>7s} {'ridge':>7s} {'lasso':>7s}")
print(f"{'intercept':10s} {ls.w[0]:7.3f} {rfit.b:7.3f} {lfit.b:7.3f}")
for k, term in enumerate(pnames):
    print(f"{term:10s} {ls.w[k + 1]:7.3f} {rfit.w[k]:7.3f} {lfit.w[k]:7.3f}")
for name, model in (("ridge", rfit), ("lasso", lfit)):
    e = (yte - model.predict(Zte)) ** 2
    print(
        f"{name}: test error {e.mean():.3f} (std error "
        f"{e.std(ddof=1) / np.sqrt(e.size):.3f})"
    )
print(
    f"ridge: lambda = {lam_r:.1f}, df = "
    f"{linear.ridge_dof(Ztr - Ztr.mean(axis=0), lam_r):.2f}; "
    f"lasso: lambda / lambda_max = {lam_l / lmax:.3f}, {int(np.sum(lfit.w != 0))} "
    f"nonzero"
)

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Ridge coefficient paths on the prostate data against the effective degrees of freedom; the dashed line marks the $\\lambda$ chosen by cross-validation.", "name": "fig-ridge-path"}, "image": {"alt": "Eight coefficient curves shrinking smoothly towards zero as the degrees of freedom decrease."}} tags=["hide-input"]
dfs = np.array([linear.ridge_dof(Ztr - Ztr.mean(axis=0), lam) for lam in ridge_lams])
rpath = linear.ridge_path(Ztr, ytr, ridge_lams, fit_intercept=True)
fig, ax = plt.subplots()
for k, term in enumerate(pnames):
    ax.plot(dfs, rpath[:, k], color=f"C{k}", label=term)
ax.axvline(
    linear.ridge_dof(Ztr - Ztr.mean(axis=0), lam_r),
    color="k",
    ls="--",
    lw=1,
    label="chosen by CV",
)
ax.set(
    xlabel="effective degrees of freedom df($\\lambda$)",
    ylabel="coefficient",
    title="Ridge path on the prostate data",
)
ax.legend(fontsize=7, ncol=2)
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-ridge-path
# Ridge coefficient paths on the prostate data against the effective degrees of freedom; the dashed line marks the $\lambda$ chosen by cross-validation.
# :::

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Lasso coefficient paths on the prostate data against the shrinkage factor $s$: coefficients leave zero one at a time; the dashed line marks the $\\lambda$ chosen by cross-validation.", "name": "fig-lasso-path"}, "image": {"alt": "Eight piecewise-linear coefficient curves, most starting at exactly zero and entering one by one."}} tags=["hide-input"]
path_lams = lmax * np.logspace(-3, 0, 80)
lpath = linear.lasso_path(Ztr, ytr, path_lams, fit_intercept=True)
s_ratio = np.abs(lpath).sum(axis=1) / np.abs(ls.w[1:]).sum()
fig, ax = plt.subplots()
for k, term in enumerate(pnames):
    ax.plot(s_ratio, lpath[:, k], color=f"C{k}", label=term)
ax.axvline(
    np.abs(lfit.w).sum() / np.abs(ls.w[1:]).sum(),
    color="k",
    ls="--",
    lw=1,
    label="chosen by CV",
)
ax.set(
    xlabel="shrinkage factor $s = \\|w_\\lambda\\|_1 / \\|\\hat w_{LS}\\|_1$",
    ylabel="coefficient",
    title="Lasso path on the prostate data: coefficients enter one by one",
)
ax.legend(fontsize=7, ncol=2)
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-lasso-path
# Lasso coefficient paths on the prostate data against the shrinkage factor $s$: coefficients leave zero one at a time; the dashed line marks the $\lambda$ chosen by cross-validation.
# :::

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Ten-fold cross-validation error of ridge and the lasso on the prostate data, with one standard error bars, against $\\lambda$ relative to the largest on each grid.", "name": "fig-cv-curves"}, "image": {"alt": "Two cross-validation error curves with error bars, flat for small lambda and rising for large lambda."}} tags=["hide-input"]
fig, ax = plt.subplots()
ax.errorbar(
    ridge_lams / ridge_lams.max(), cv_r, yerr=se_r, fmt="o-", ms=3, label="ridge"
)
ax.errorbar(
    lasso_lams / lasso_lams.max(), cv_l, yerr=se_l, fmt="s-", ms=3, label="lasso"
)
ax.set_xscale("log")
ax.set(
    xlabel="$\\lambda$ / largest $\\lambda$ on the grid",
    ylabel="10-fold CV error",
    title="Cross-validation on the prostate training rows",
)
ax.legend()
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-cv-curves
# Ten-fold cross-validation error of ridge and the lasso on the prostate data, with one standard error bars, against $\lambda$ relative to the largest on each grid.
# :::

# %% [markdown]
# (sec-linear-implementation)=
# ## Implementation
#
# `linear.least_squares` with `method="auto"` chooses its solver from the data; the cell below
# displays the library's code itself.

# %%
from mlnotes import show_source

show_source(linear.least_squares)

# %% [markdown]
# The normal equations {eq}`eq-normal-equations` are solved first by Cholesky on $G = X^\top X$,
# line 32 (`_gram_cholesky(G, X.T @ y)`),
# the cheapest route (one pass over $X$), but only when $G$ is well enough conditioned:
# forming $X^\top X$ squares the condition number of $X$, so the digits Cholesky keeps fall
# twice as fast as those of QR. Above `CHOLESKY_COND_MAX`, line 37, or for a wide $X$, `auto` moves to
# QR with iterative refinement, and if $R$ has a zero diagonal ($X$ rank-deficient) to the SVD,
# which returns the minimum-norm solution among the many, line 53 (`_svd_min_norm`). The NIST table above shows the
# choice at work. The lasso's coordinate descent:

# %%
show_source(linear.lasso)

# %% [markdown]
# Before the sweeps, lines 15-19, it forms $G = X^\top X$ and $c = X^\top y$ once
# (`G = Xc.T @ Xc`), and `Gw`, the vector $Gw$; every sweep after that costs $O(d^2)$,
# whatever $n$. Each sweep, line 31 (`_coordinate_sweep`), updates every coordinate once
# (its code is below); `Gw` is then recomputed, line 33 (`Gw = G @ w`), so that rounding in
# the sweep's incremental updates cannot drift. The loop stops on the duality gap, line 37
# (`converged = gap <= threshold`), a certificate that the objective is within `tol`
# (relative to $\|y\|^2$) of its minimum, not on the size of a step; with $\lambda = 0$ there
# is no gap to stop on and the function solves least squares directly, line 12
# (`if lam == 0`).

# %%
show_source(linear._coordinate_sweep)

# %% [markdown]
# In the sweep over the coordinates, line 2 (`for j in range`), `rho`, line 6
# (`rho = cl[j] - Gw[j]`), is $x_{\cdot j}^\top r_{(j)} = c_j - (Gw)_j + G_{jj} w_j$ computed
# from $G$ and $c$, and `new`, lines 7-8 (`shrunk / dl[j]`), is the soft-threshold
# {eq}`eq-soft-threshold` of `rho` at $\lambda/2$ divided by $G_{jj}$: the coordinate update
# {eq}`eq-lasso-coordinate`. After a change only `Gw` needs updating, by one column of $G$,
# line 11 (`Gw += G[:, j]`).

# %% [markdown]
# (sec-linear-exercises)=
# ## Exercises
#
# ```{exercise} Proof: the ridge solution is unique, and its norm falls as the penalty grows
# :label: ex-proof-ridge-monotone
# Let $J_\lambda$ be the ridge objective {eq}`def-ridge-objective` and $\lambda > 0$.
# (a) Prove that $J_\lambda$ has exactly one minimiser $w_\lambda$, the vector
# {eq}`eq-ridge-solution`, whatever the rank of $X$. (b) Prove, from the optimality of
# $w_\lambda$ and $w_\mu$ alone (no SVD), that $0 < \lambda < \mu$ implies
# $\|w_\mu\| \le \|w_\lambda\|$ and $\|y - Xw_\mu\| \ge \|y - Xw_\lambda\|$: more penalty buys a
# shorter vector with a worse fit. (c) Prove that both inequalities are strict when
# $X^\top y \ne 0$, and that $w_\lambda = 0$ for every $\lambda$ when $X^\top y = 0$.
# ```
#
# ```{solution} ex-proof-ridge-monotone
# :class: dropdown
# (a) Let $A = X^\top X + \lambda I$. For $v \ne 0$,
# $v^\top A v = \|Xv\|^2 + \lambda\|v\|^2 > 0$, so $A$ is symmetric positive definite, hence
# invertible; let
# $w_\lambda = A^{-1}X^\top y$. Expanding, $J_\lambda(w) = \|y\|^2 - 2w^\top X^\top y +
# w^\top A w$, and since $X^\top y = A w_\lambda$, completing the square gives
# $J_\lambda(w) = \|y\|^2 - w_\lambda^\top A w_\lambda + (w - w_\lambda)^\top A (w - w_\lambda)$,
# that is, $J_\lambda(w) = J_\lambda(w_\lambda) + (w - w_\lambda)^\top A (w - w_\lambda)$. The
# last term is
# positive for every $w \ne w_\lambda$, so $w_\lambda$ is a minimiser and the only one.
# Nothing here used the rank of $X$.
#
# (b) Write $R(w) = \|y - Xw\|^2$ and $N(w) = \|w\|^2$. Each of $w_\lambda$, $w_\mu$ is at least
# as good as the other for its own objective:
# $R(w_\lambda) + \lambda N(w_\lambda) \le R(w_\mu) + \lambda N(w_\mu)$ and
# $R(w_\mu) + \mu N(w_\mu) \le R(w_\lambda) + \mu N(w_\lambda)$. Adding the two and
# cancelling $R(w_\lambda) + R(w_\mu)$ leaves
# $(\mu - \lambda)\big(N(w_\lambda) - N(w_\mu)\big) \ge 0$, so $N(w_\mu) \le N(w_\lambda)$ since
# $\mu > \lambda$. The first inequality then gives
# $R(w_\lambda) \le R(w_\mu) + \lambda\big(N(w_\mu) - N(w_\lambda)\big) \le R(w_\mu)$.
#
# (c) If $w_\lambda \ne w_\mu$, uniqueness in (a) makes both optimality inequalities strict,
# so their sum gives $N(w_\mu) < N(w_\lambda)$, and the first one gives
# $R(w_\lambda) < R(w_\mu) + \lambda(N(w_\mu) - N(w_\lambda)) < R(w_\mu)$. It remains to see
# that $w_\lambda \ne w_\mu$. If they were equal, to $w$ say, subtracting
# $(X^\top X + \mu I)w = X^\top y$ from $(X^\top X + \lambda I)w = X^\top y$ would give
# $(\lambda - \mu)w = 0$, so $w = 0$ and $X^\top y = A \cdot 0 = 0$, against the assumption.
# Conversely, if $X^\top y = 0$ then $w_\lambda = A^{-1} 0 = 0$ for every $\lambda > 0$, and
# both inequalities hold with equality.
# ```
#
# ```{exercise}
# :label: ex-lasso-orthonormal
# Suppose the columns of $X$ are orthonormal, $X^\top X = I$. Show that the lasso solution is
# $w_j = S(\hat w_j, \lambda/2)$ with $\hat w = X^\top y$ the least-squares solution, and that
# ridge gives $w_j = \hat w_j / (1 + \lambda)$. Sketch both as functions of $\hat w_j$.
# ```
#
# ```{solution} ex-lasso-orthonormal
# :class: dropdown
# With $X^\top X = I$, $\|y - Xw\|^2 = \|y\|^2 - 2 w^\top \hat w + \|w\|^2
# = \|w - \hat w\|^2 + \text{const}$, so the lasso objective separates into
# $\sum_j (w_j - \hat w_j)^2 + \lambda |w_j|$; each term is twice
# $\frac12 (w_j - \hat w_j)^2 + \frac{\lambda}{2}|w_j|$, minimised by {eq}`eq-soft-threshold`
# at $S(\hat w_j, \lambda/2)$. Ridge separates into $(w_j - \hat w_j)^2 + \lambda w_j^2$, whose
# derivative vanishes at $\hat w_j / (1 + \lambda)$. The lasso is a shifted identity with a
# dead zone $|\hat w_j| \le \lambda/2$; ridge is a line through 0 of slope $1/(1 + \lambda)$,
# which never reaches 0.
# ```
#
# ```{exercise}
# :label: ex-ridge-duplicate
# Let the design matrix have two identical columns, $x_{\cdot 1} = x_{\cdot 2} = z$. Show that
# for $\lambda > 0$ the ridge solution has $w_1 = w_2$, and that the lasso objective is the
# same for every split $w_1 + w_2 = c$ with $w_1 w_2 \ge 0$. What does this say about
# interpreting lasso coefficients of correlated predictors?
# ```
#
# ```{solution} ex-ridge-duplicate
# :class: dropdown
# The data term depends on $w_1 + w_2$ only. For a fixed sum $c$, $w_1^2 + w_2^2$ is minimised
# at $w_1 = w_2 = c/2$ (it equals $c^2/2 + (w_1 - w_2)^2/2$), so the unique ridge solution
# splits equally. For the lasso, $|w_1| + |w_2| = |c|$ whenever $w_1$ and $w_2$ have the same
# sign, so all those splits tie: the lasso solution is not unique, and which of two correlated
# predictors gets the weight is arbitrary (coordinate descent picks one depending on the
# order). A zero lasso coefficient does not mean the predictor is irrelevant.
# ```
#
# ```{exercise}
# :label: ex-qr-condition
# Let $X = QR$ be a thin QR factorisation with $X$ of full column rank. Show that
# $\hat w = R^{-1} Q^\top y$ and that $\operatorname{cond}(R) = \operatorname{cond}(X)$, while
# $X^\top X = R^\top R$. Explain why solving with $R$ is more accurate than solving the normal
# equations by Cholesky, although the two factorisations produce the same triangular matrix in
# exact arithmetic.
# ```
#
# ```{solution} ex-qr-condition
# :class: dropdown
# $\|y - Xw\|^2 = \|Q^\top y - Rw\|^2 + \|(I - QQ^\top) y\|^2$, minimised by $Rw = Q^\top y$.
# Since $Q$ has orthonormal columns, $\|Xv\| = \|Rv\|$ for all $v$, so $X$ and $R$ have the
# same singular values. $X^\top X = R^\top Q^\top Q R = R^\top R$, so the Cholesky factor of
# $X^\top X$ is $R$ up to signs. The difference is in what is rounded: Cholesky starts from the
# computed $X^\top X$, which already carries errors of relative size $u$ in a matrix of
# condition number $\operatorname{cond}(X)^2$ ({eq}`eq-cond-squared`), so the information in
# the small singular values is lost before the factorisation begins. Householder QR applies
# orthogonal transformations to $X$ itself, which are backward stable, so its errors are
# governed by $\operatorname{cond}(X)$ (plus a $\operatorname{cond}(X)^2$ term multiplied by
# the relative size of the residual, which the refinement of `least_squares` removes).
# ```
#
# ```{exercise}
# :label: ex-ridge-dof-limits
# Using {eq}`eq-ridge-dof`, show that $\mathrm{df}(\lambda)$ decreases strictly from
# $\operatorname{rank} X$ at $\lambda = 0$ to 0 as $\lambda \to \infty$. For least squares
# ($\lambda = 0$) show directly that $\operatorname{tr} H = d$ when $X$ has full column rank.
# ```
#
# ```{solution} ex-ridge-dof-limits
# :class: dropdown
# Each term $d_j^2/(d_j^2 + \lambda)$ with $d_j > 0$ equals 1 at $\lambda = 0$, has derivative
# $-d_j^2/(d_j^2 + \lambda)^2 < 0$ and tends to 0; terms with $d_j = 0$ vanish. So df falls
# strictly from the number of positive singular values, the rank, to 0. Directly,
# $\operatorname{tr} X (X^\top X)^{-1} X^\top = \operatorname{tr} (X^\top X)^{-1} X^\top X =
# \operatorname{tr} I_d = d$ by the cyclic property of the trace.
# ```
#
# ```{exercise}
# :label: ex-map-elastic-net
# (MAP.) Suppose $y \sim N(Xw, \sigma^2 I)$ and the weights are independent with density
# $p(w_j) \propto \exp(-\alpha |w_j| - \gamma w_j^2)$, $\alpha, \gamma > 0$. (a) Show that the
# MAP estimate is the elastic net {eq}`def-elastic-net-objective` and give $\lambda_1$ and
# $\lambda_2$. (b) Show that the posterior mode has $w_j = 0$ exactly when
# $|x_{\cdot j}^\top r| \le \sigma^2 \alpha$ at the other coordinates' values, where $r$ is the
# residual with $w_j = 0$, and explain why no Gaussian prior ($\alpha = 0$) can produce such
# a zero. (c) The MAP estimate is the mode of the posterior; is the posterior mean also sparse?
# ```
#
# ```{solution} ex-map-elastic-net
# :class: dropdown
# (a) $-\log p(w \mid y) = \|y - Xw\|^2 / 2\sigma^2 + \alpha\|w\|_1 +
# \gamma\|w\|^2 + \text{const}$; multiplying by $2\sigma^2$ gives {eq}`def-elastic-net-objective` with
# $\lambda_1 = 2\sigma^2\alpha$ and $\lambda_2 = 2\sigma^2\gamma$. (b) Along coordinate $j$ the
# negative log posterior is $\big((\|x_{\cdot j}\|^2/\sigma^2 + 2\gamma) w_j^2 -
# 2 w_j x_{\cdot j}^\top r / \sigma^2\big)/2 + \alpha|w_j|$ plus a constant; its
# subdifferential at 0 is $-x_{\cdot j}^\top r / \sigma^2 + \alpha[-1, 1]$, which contains 0
# iff $|x_{\cdot j}^\top r| \le \sigma^2\alpha$ (this is {eq}`eq-elastic-net-coordinate`
# returning 0). With $\alpha = 0$ the objective is differentiable and its derivative at 0 is
# $-x_{\cdot j}^\top r / \sigma^2$, zero only when $x_{\cdot j}^\top r = 0$ exactly, an event
# of probability 0 for continuous data. (c) No: the posterior is a continuous density, so
# $P(w_j = 0 \mid y) = 0$ and its mean is almost surely nonzero in every coordinate. The
# zeros belong to the mode, i.e. to the optimisation, not to the Bayesian posterior.
# ```
#
# ```{exercise}
# :label: ex-elastic-net-duplicate
# (Elastic net.) Let two columns be identical, $x_{\cdot 1} = x_{\cdot 2} = z$, and
# $\lambda_2 > 0$. (a) Show that the elastic-net solution has $w_1 = w_2$ (compare with
# {ref}`ex-ridge-duplicate`). (b) Show that $(w_1, w_2) = (c/2, c/2)$, where $c$ is the
# elastic-net coefficient of $z$ when it appears once with penalties $\lambda_1$ and
# $\lambda_2/2$. (c) What happens to the grouping bound after {eq}`eq-elastic-net-grouping`
# as $\rho_{12} \to 1$, and why does it not apply to the lasso?
# ```
#
# ```{solution} ex-elastic-net-duplicate
# :class: dropdown
# (a) The data term and $\lambda_1(|w_1| + |w_2|)$ are unchanged by swapping $w_1$ and $w_2$,
# so if $w$ is a solution so is its swap; $J$ is strictly convex for $\lambda_2 > 0$, so the
# solution is unique and equals its swap: $w_1 = w_2$. (b) Put $w_1 = w_2 = c/2$: the data
# term is $\|y - zc - \dots\|^2$, $\lambda_1(|w_1| + |w_2|) = \lambda_1 |c|$ and
# $\lambda_2(w_1^2 + w_2^2) = (\lambda_2/2) c^2$: the elastic-net objective of the single
# column with penalties $\lambda_1$ and $\lambda_2/2$, minimised over $c$. (c) It tends to
# $0$: identical columns get identical coefficients, as (a) says. The bound divides by
# $\lambda_2$; with $\lambda_2 = 0$ the difference $w_1 - w_2$ is not determined at all (every
# same-sign split of $c$ is optimal, {ref}`ex-ridge-duplicate`).
# ```
#
# ```{exercise}
# :label: ex-multi-output
# (Several outputs.) (a) Show that $\|XW - Y\|_F^2 + \lambda\|W\|_F^2 = \sum_{l=1}^k
# \big(\|X w_l - Y_{\cdot l}\|^2 + \lambda \|w_l\|^2\big)$ with $w_l$ the columns of $W$, and
# conclude without derivatives that {eq}`eq-multi-ridge` fits each output by its own ridge
# regression. (b) Replace the penalty by $\lambda\tr(W^\top \Omega W)$ with a symmetric
# positive definite $\Omega \in \R^{d \times d}$ and give the minimiser. (c) Replace it instead
# by $\lambda\tr(W \Gamma W^\top)$ with $\Gamma \in \R^{k \times k}$ symmetric positive definite
# and not diagonal: do the outputs still decouple? Write the stationarity condition.
# ```
#
# ```{solution} ex-multi-output
# :class: dropdown
# (a) The squared Frobenius norm is the sum of the squared norms of the columns, and column $l$
# of $XW - Y$ is $Xw_l - Y_{\cdot l}$; the sum has one term per column, each depending on
# $w_l$ alone, so it is minimised column by column, each by {eq}`eq-ridge-solution`. (b) By
# {ref}`ex-matrix-gradients` the gradient is $2X^\top(XW - Y) + 2\lambda\Omega W$, so
# $W = (X^\top X + \lambda\Omega)^{-1}X^\top Y$: still one ridge-like solve per column, with the
# same matrix. (c) The gradient of $\tr(W\Gamma W^\top)$ is $2W\Gamma$, and stationarity is
# $X^\top X W + \lambda W \Gamma = X^\top Y$, a Sylvester equation: with $\Gamma$ not diagonal
# column $l$ of $W\Gamma$ mixes all columns of $W$, so the outputs no longer decouple (in the
# eigenbasis of $\Gamma$, $\Gamma = Q\diag(\gamma)Q^\top$, they do: $\tilde W = WQ$ has columns
# $(X^\top X + \lambda\gamma_l I)^{-1}X^\top Y q_l$).
# ```
#
# ```{exercise}
# :label: ex-bias-variance-orthonormal
# (Bias and variance.) Let $X^\top X = I_d$ and $y = X\beta + \varepsilon$ with
# $\varepsilon \sim N(0, \sigma^2 I)$, the design fixed. (a) Show that the ridge estimate is
# $\hat w_\lambda = X^\top y / (1 + \lambda)$ and compute its bias $\E\hat w_\lambda - \beta$ and
# its covariance. (b) Show that
# $\E\|\hat w_\lambda - \beta\|^2 = \big(\lambda^2\|\beta\|^2 + d\sigma^2\big) / (1 + \lambda)^2$
# and that it is minimised at $\lambda^\ast = d\sigma^2 / \|\beta\|^2$. (c) Compare with the MAP
# value $\lambda = \sigma^2/\tau^2$ of {eq}`eq-map-ridge` when $\beta$ is drawn from
# $N(0, \tau^2 I)$, for which $\E\|\beta\|^2 = d\tau^2$.
# ```
#
# ```{solution} ex-bias-variance-orthonormal
# :class: dropdown
# (a) $\hat w_\lambda = (I + \lambda I)^{-1}X^\top y = X^\top y/(1 + \lambda)$. Since
# $X^\top y = \beta + X^\top\varepsilon$, $\E\hat w_\lambda = \beta/(1 + \lambda)$, the bias is
# $-\lambda\beta/(1 + \lambda)$ and the covariance is
# $\sigma^2 X^\top X/(1 + \lambda)^2 = \sigma^2 I/(1 + \lambda)^2$. (b) The expected squared
# error is the squared norm of the bias plus the trace of the covariance:
# $\lambda^2\|\beta\|^2/(1 + \lambda)^2 + d\sigma^2/(1 + \lambda)^2$. Its derivative in
# $\lambda$ is $2(\lambda\|\beta\|^2 - d\sigma^2)/(1 + \lambda)^3$, negative below
# $d\sigma^2/\|\beta\|^2$ and positive above: that is the minimum. At $\lambda = 0$ the error is
# $d\sigma^2$, so some shrinkage always helps when $\beta$ is finite. (c) Replacing
# $\|\beta\|^2$ by its mean $d\tau^2$ gives $\lambda^\ast = \sigma^2/\tau^2$, the MAP value: the
# prior's variance is the squared size of coefficients it expects.
# ```
#
# ```{exercise}
# :label: ex-cv-selection-inside
# (Cross-validation.) With $n = 50$ samples, $d = 5000$ features and labels independent of
# the features, a student (1) keeps the 20 features most correlated with $y$ on all 50
# samples, then (2) estimates the error of least squares on those 20 features by 5-fold
# cross-validation. (a) Explain why the estimate is far too optimistic, although every model
# is evaluated on samples it was not fitted on. (b) How should the procedure be cross-validated
# instead? (c) Does the same concern apply to standardising the features with the mean and
# standard deviation of all 50 samples, or to choosing $\lambda$ by cross-validation and
# reporting the minimum CV error as the expected test error?
# ```
#
# ```{solution} ex-cv-selection-inside
# :class: dropdown
# (a) Step (1) has already used the labels of the samples that later serve as validation
# folds: among 5000 noise features, the 20 chosen are those that happen to correlate with
# these particular labels, including those of each fold. The validation samples are
# therefore not new data for the whole procedure, and the CV error measures how well the
# selected features fit noise they were selected on (ESL section 7.10.2 shows an error near 0
# where the truth is 50%). (b) Cross-validate the whole procedure: inside each fold, select
# the 20 features on the training part only, fit, and evaluate on the held-out part.
# (c) Standardising uses no labels, so it leaks much less (the fold's inputs shift the mean
# and scale slightly); doing it inside the folds is cleaner and costs nothing. Choosing
# $\lambda$ by minimising the CV error does use the validation labels: the minimum over a grid
# of noisy CV estimates is biased downwards, so the minimum CV error is optimistic. An honest
# estimate needs a separate test set (as in the prostate example) or nested cross-validation.
# ```
#
# ```{exercise}
# :label: ex-ard-one-feature
# (Automatic relevance determination.) Take one feature, $d = 1$, with $x \in \R^n$,
# $s = \|x\|^2$, and $\sigma^2$ known. Let $\hat w = x^\top y / s$ be the least-squares
# coefficient and $v = \sigma^2 / s$ its variance. (a) Show that, up to a constant,
# $\ln p(y \mid C) = -\frac12 \ln u - \frac{(x^\top y)^2}{2 s u}$ with $u = \sigma^2 + Cs$.
# (b) Deduce that the evidence is maximised at $C^\ast = \max(0, \hat w^2 - v)$: the feature
# is pruned exactly when $|\hat w| / \sqrt v \le 1$. (c) What does the joint objective
# {eq}`eq-map-objective` with the same Gaussian loss do on this problem?
# ```
#
# ```{solution} ex-ard-one-feature
# :class: dropdown
# (a) $S = \sigma^2 I + C x x^\top$ has the eigenvalue $\sigma^2 + Cs = u$ along $x$ and
# $\sigma^2$ on its orthogonal complement, so $\ln|S| = (n - 1)\ln\sigma^2 + \ln u$ and
# $y^\top S^{-1} y = \|y\|^2/\sigma^2 - (x^\top y)^2 / s \cdot (1/\sigma^2 - 1/u)$. Dropping
# the terms free of $C$ leaves the stated function. (b) Its derivative in $u$ is
# $-1/2u + (x^\top y)^2 / 2su^2$, positive for $u < (x^\top y)^2 / s$ and negative above: the
# maximum over $u$ is at $u = (x^\top y)^2 / s$, that is $C = (\hat w^2 s - \sigma^2) / s =
# \hat w^2 - v$. Since $u \ge \sigma^2$ ($C \ge 0$), when $\hat w^2 \le v$ the function
# decreases on the whole range and the maximum is at the boundary $C = 0$. So ARD keeps the
# feature when its $t$-statistic $\hat w / \sqrt v$ exceeds 1 in size, and its prior variance
# is the squared estimate minus the part of it that noise explains. (c) For fixed $w$ the
# best $C$ is $w^2$ and the profiled objective is $(\text{RSS}(w))/2\sigma^2 + \ln|w| + 1/2$,
# which tends to $-\infty$ as $w \to 0$ whatever the data, however large $|\hat w| / \sqrt v$:
# the joint minimum removes even a feature with $t = 100$.
# ```
#
# The remaining exercises are coding exercises; the course's assignments turn them into
# autograded questions.

# %% [markdown]
# ```{exercise} Core · 2 points · about 20 min
# :label: ex-code-ridge-svd
# Write `ridge_svd(X, y, lam)` returning the ridge coefficients {eq}`eq-ridge-solution`
# (no intercept) computed from the thin SVD of `X` as in {eq}`eq-ridge-shrinkage`,
# without solving any linear system. For $\lambda = 0$ and more features than samples it
# must return the minimum-norm least-squares solution, and for tiny $\lambda$ it must
# stay accurate. While this is graded, `mlnotes.linear.ridge`,
# `mlnotes.linear.ridge_path` and `mlnotes.linear._svd_min_norm` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def ridge_svd(X, y, lam):
    # BEGIN SOLUTION
    U, d, Vt = np.linalg.svd(X, full_matrices=False)
    return Vt.T @ (d / (d**2 + lam) * (U.T @ y))
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: ridge-svd, points: 2, tier: core, minutes: 20,
#   withdraw: [mlnotes.linear.ridge, mlnotes.linear.ridge_path,
#              mlnotes.linear._svd_min_norm]}
# TEST: 25 samples, 4 features, lam = 2, against the chapter's ridge
X_test = np.random.default_rng(10).normal(size=(25, 4))
y_test = np.random.default_rng(11).normal(size=25)
np.testing.assert_allclose(
    ridge_svd(X_test, y_test, 2.0),
    linear.ridge(X_test, y_test, lam=2.0).w,
    rtol=1e-9,
    strict=True,
)

# HIDDEN TEST: for d > n, lam = 0 gives pinv(X) y; for lam > 0 the gradient vanishes
rng_h = np.random.default_rng(list(b"development secret"))
n_h = rng_h.integers(3, 15)
X_h = rng_h.normal(size=(n_h, n_h + rng_h.integers(1, 10)))
y_h, lam_h = rng_h.normal(size=n_h), 10 ** rng_h.uniform(-2, 2)
np.testing.assert_allclose(
    ridge_svd(X_h, y_h, 0.0),
    np.linalg.pinv(X_h) @ y_h,
    rtol=1e-8,
    atol=1e-10,
    strict=True,
)
w_h = ridge_svd(X_h, y_h, lam_h)
np.testing.assert_allclose(
    -2 * X_h.T @ (y_h - X_h @ w_h) + 2 * lam_h * w_h,
    np.zeros(X_h.shape[1]),
    atol=1e-8,
    strict=True,
)

# HIDDEN TEST: accurate to 1e-8 for lam ~ 1e-12 ||X||^2 (X^T X + lam I is near singular)
rng_h = np.random.default_rng(list(b"development secret"))
n_h = rng_h.integers(4, 15)
X_h = rng_h.normal(size=(n_h, n_h + rng_h.integers(2, 10)))
y_h = rng_h.normal(size=n_h)
lam_h = 10 ** rng_h.uniform(-13, -11) * np.linalg.norm(X_h, 2) ** 2
d_h = X_h.shape[1]
Xa_h = np.vstack([X_h, np.sqrt(lam_h) * np.eye(d_h)])  # the augmented problem, by lstsq
w_h = np.linalg.lstsq(Xa_h, np.append(y_h, np.zeros(d_h)), rcond=None)[0]
np.testing.assert_allclose(
    ridge_svd(X_h, y_h, lam_h),
    w_h,
    rtol=1e-8,
    atol=1e-8 * np.linalg.norm(w_h),
    strict=True,
)

# %% [markdown]
# ```{exercise} Challenge · 3 points · about 50 min
# :label: ex-code-lasso-cd
# Write `lasso_cd(X, y, lam, n_sweeps)` that minimises {eq}`def-lasso-objective` (no
# intercept) by `n_sweeps` cycles of the coordinate update {eq}`eq-lasso-coordinate`,
# starting from $w = 0$ and keeping the residual $r = y - Xw$ up to date after every
# update (so each update costs $O(n)$). While this is graded, `mlnotes.linear.lasso`,
# `mlnotes.linear.lasso_path`, `mlnotes.linear.soft_threshold` and `scipy.optimize` are
# unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def lasso_cd(X, y, lam, n_sweeps=500):
    # BEGIN SOLUTION
    n, d = X.shape
    w = np.zeros(d)
    r = y.astype(float).copy()
    col_sq = np.sum(X**2, axis=0)
    for _ in range(n_sweeps):
        for j in range(d):
            rho = X[:, j] @ r + col_sq[j] * w[j]  # x_j^T r_(j)
            new = np.sign(rho) * max(abs(rho) - lam / 2, 0.0) / col_sq[j]
            r -= X[:, j] * (new - w[j])
            w[j] = new
    return w
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: lasso-cd, points: 3, tier: challenge, minutes: 50,
#   withdraw: [mlnotes.linear.lasso, mlnotes.linear.lasso_path,
#              mlnotes.linear.soft_threshold, scipy.optimize]}
# TEST: 40 samples, 5 features, lam = 20, against the chapter's lasso
X_test = np.random.default_rng(20).normal(size=(40, 5))
y_test = X_test @ np.array([2.0, 0.0, -1.0, 0.0, 0.5])
y_test += 0.3 * np.random.default_rng(21).normal(size=40)
np.testing.assert_allclose(
    lasso_cd(X_test, y_test, 20.0),
    linear.lasso(X_test, y_test, lam=20.0).w,
    atol=1e-6,
    strict=True,
)

# HIDDEN TEST: w = 0 exactly when lam >= 2 max |X^T y|, and the lasso's w below that
rng_h = np.random.default_rng(list(b"development secret"))
X_h = rng_h.normal(size=(rng_h.integers(20, 50), rng_h.integers(2, 8)))
y_h = rng_h.normal(size=len(X_h))
lam_max_h = 2 * np.max(np.abs(X_h.T @ y_h))
np.testing.assert_array_equal(
    lasso_cd(X_h, y_h, lam_max_h * rng_h.uniform(1, 3)),
    np.zeros(X_h.shape[1]),
    strict=True,
)
lam_h = lam_max_h * rng_h.uniform(0.1, 0.6)
np.testing.assert_allclose(
    lasso_cd(X_h, y_h, lam_h),
    linear.lasso(X_h, y_h, lam=lam_h).w,
    atol=1e-6,
    strict=True,
)

# HIDDEN TEST: the subgradient conditions hold, more features than samples
rng_h = np.random.default_rng(list(b"development secret"))
n_h = rng_h.integers(15, 30)
X_h = rng_h.normal(size=(n_h, n_h + rng_h.integers(5, 20)))
y_h = X_h[:, :3] @ rng_h.normal(scale=3, size=3) + 0.1 * rng_h.normal(size=n_h)
lam_h = 2 * np.max(np.abs(X_h.T @ y_h)) * rng_h.uniform(0.05, 0.3)
w_h = lasso_cd(X_h, y_h, lam_h, n_sweeps=2000)
d_h = X_h.shape[1]
assert np.shape(w_h) == (d_h,), f"expected shape {(d_h,)}, received {np.shape(w_h)}"
# |g_j| <= lam, and g_j = -lam sign(w_j) if w_j != 0
g_h = -2 * X_h.T @ (y_h - X_h @ w_h)
assert np.all(np.abs(g_h) <= lam_h * (1 + 1e-6)), "a coefficient at 0 with |g_j| > lam"
np.testing.assert_allclose(g_h[w_h != 0], -lam_h * np.sign(w_h[w_h != 0]), rtol=1e-6)

# %% [markdown]
# ```{exercise} Warm-up · 2 points · about 15 min
# :label: ex-code-lstsq-qr
# Write `lstsq_qr(X, y)`: the least-squares coefficients from the thin QR factorisation
# $X = QR$ (`np.linalg.qr`): solve $R w = Q^\top y$, which never forms $X^\top X$ (whose
# condition number is the square of $X$'s). Assume `X` has full column rank. While this
# is graded, `mlnotes.linear.least_squares`, `mlnotes.linear._qr_refined`,
# `mlnotes.linear._gram_cholesky` and `mlnotes.linear._svd_min_norm` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def lstsq_qr(X, y):
    # BEGIN SOLUTION
    Q, R = np.linalg.qr(X)
    return np.linalg.solve(R, Q.T @ y)
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: lstsq-qr, points: 2, tier: warm-up, minutes: 15,
#   withdraw: [mlnotes.linear.least_squares, mlnotes.linear._qr_refined,
#              mlnotes.linear._gram_cholesky, mlnotes.linear._svd_min_norm]}
# TEST: 50 samples, 4 features, against the chapter's least squares
X_test = np.random.default_rng(80).normal(size=(50, 4))
y_test = X_test @ np.array([1.0, -2.0, 0.5, 3.0])
y_test += 0.1 * np.random.default_rng(81).normal(size=50)
np.testing.assert_allclose(
    lstsq_qr(X_test, y_test),
    linear.least_squares(X_test, y_test).w,
    rtol=1e-10,
    strict=True,
)

# HIDDEN TEST: 5 digits of w when cond(X) is 1e7 to 1e8 (X^T X would lose them all)
rng_h = np.random.default_rng(list(b"development secret"))
n_h, d_h = rng_h.integers(30, 80), rng_h.integers(4, 9)
U_h = np.linalg.qr(rng_h.normal(size=(n_h, d_h)))[0]
V_h = np.linalg.qr(rng_h.normal(size=(d_h, d_h)))[0]
cond_h = 10 ** rng_h.uniform(7, 8)
X_h = U_h * np.geomspace(1.0, 1.0 / cond_h, d_h) @ V_h.T
w_h = rng_h.normal(size=d_h)
np.testing.assert_allclose(
    lstsq_qr(X_h, X_h @ w_h), w_h, rtol=0, atol=1e-5 * np.linalg.norm(w_h), strict=True
)

# HIDDEN TEST: 5 digits of w when y = Xw + r, r orthogonal to X's columns, cond(X) ~ 1e7
rng_h = np.random.default_rng(list(b"development secret"))
n_h, d_h = rng_h.integers(30, 80), rng_h.integers(2, 9)
U_h = np.linalg.qr(rng_h.normal(size=(n_h, d_h)))[0]
V_h = np.linalg.qr(rng_h.normal(size=(d_h, d_h)))[0]
X_h = U_h * np.geomspace(1.0, 10 ** -rng_h.uniform(6.5, 7.5), d_h) @ V_h.T
w_h = rng_h.normal(size=d_h)
r_h = rng_h.normal(size=n_h)
r_h -= U_h @ (U_h.T @ r_h)  # orthogonal to the columns: w_h is the least-squares fit
y_h = X_h @ w_h + 1e-5 * np.linalg.norm(X_h @ w_h) * r_h / np.linalg.norm(r_h)
np.testing.assert_allclose(
    lstsq_qr(X_h, y_h), w_h, rtol=0, atol=1e-5 * np.linalg.norm(w_h), strict=True
)

# %% [markdown]
# ```{exercise} Core · 2 points · about 20 min
# :label: ex-code-ridge-augmented
# Write `ridge_augmented(X, y, lam)` that computes the ridge coefficients (no intercept)
# as the ordinary least-squares solution on the augmented data of
# {eq}`eq-ridge-augmented`: $X$ stacked on $\sqrt\lambda I$, $y$ stacked on zeros (solve
# it with `np.linalg.lstsq` or your `lstsq_qr`). While this is graded,
# `mlnotes.linear.ridge`, `mlnotes.linear.ridge_path` and `mlnotes.linear._svd_min_norm`
# are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def ridge_augmented(X, y, lam):
    # BEGIN SOLUTION
    d = X.shape[1]
    Xa = np.vstack([X, np.sqrt(lam) * np.eye(d)])
    ya = np.concatenate([y, np.zeros(d)])
    return np.linalg.lstsq(Xa, ya, rcond=None)[0]
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: ridge-augmented, points: 2, tier: core, minutes: 20,
#   withdraw: [mlnotes.linear.ridge, mlnotes.linear.ridge_path,
#              mlnotes.linear._svd_min_norm]}
# TEST: 30 samples, 4 features, lam = 4, against the chapter's ridge
X_test = np.random.default_rng(84).normal(size=(30, 4))
y_test = X_test @ np.arange(4.0) + np.random.default_rng(85).normal(size=30)
np.testing.assert_allclose(
    ridge_augmented(X_test, y_test, 4.0),
    linear.ridge(X_test, y_test, lam=4.0).w,
    rtol=1e-9,
    strict=True,
)

# HIDDEN TEST: equals the ridge solution for more features than samples, any lam
rng_h = np.random.default_rng(list(b"development secret"))
n_h = rng_h.integers(3, 20)
X_h = rng_h.normal(size=(n_h, n_h + rng_h.integers(1, 10)))
y_h, lam_h = rng_h.normal(size=n_h), 10 ** rng_h.uniform(-2, 2)
np.testing.assert_allclose(
    ridge_augmented(X_h, y_h, lam_h),
    linear.ridge(X_h, y_h, lam=lam_h).w,
    rtol=1e-8,
    atol=1e-12,
    strict=True,
)

# HIDDEN TEST: ||w|| falls as lam grows, and lam = 0 gives least squares
rng_h = np.random.default_rng(list(b"development secret"))
X_h = rng_h.normal(size=(rng_h.integers(10, 40), rng_h.integers(2, 6)))
y_h = rng_h.normal(size=len(X_h))
np.testing.assert_allclose(
    ridge_augmented(X_h, y_h, 0.0),
    np.linalg.lstsq(X_h, y_h, rcond=None)[0],
    rtol=1e-9,
    strict=True,
)
lams_h = np.sort(10 ** rng_h.uniform(-1, 2, size=4))
norms_h = [np.linalg.norm(ridge_augmented(X_h, y_h, lam)) for lam in lams_h]
assert np.all(np.diff(norms_h) < 0), f"||w|| for increasing lam: {norms_h}"
ws_h = [ridge_augmented(X_h, y_h, lam) for lam in lams_h]
gs_h = [
    -2 * X_h.T @ (y_h - X_h @ w) + 2 * lam * w
    for w, lam in zip(ws_h, lams_h, strict=True)
]
np.testing.assert_allclose(gs_h, np.zeros((4, X_h.shape[1])), atol=1e-8)

# %% [markdown]
# ```{exercise} Core · 2 points · about 25 min
# :label: ex-code-ridge-intercept
# Write `ridge_intercept(X, y, lam)` returning `(w, b)`, the minimiser of
# $\|y - Xw - b\mathbf 1\|^2 + \lambda\|w\|^2$ over $w \in \R^d$ and an intercept $b \in \R$
# that is *not* penalised, with `w` an array of shape `(d,)` and `b` a float. Work it out
# first: set the derivative in $b$ to zero to find the best $b$ for a given $w$, substitute
# it back, and recognise the problem that is left for $w$ (it is a ridge regression on
# other data). A column of ones appended to `X` is not the answer: ridge would then
# penalise $b$. While this is graded, `mlnotes.linear.ridge`, `mlnotes.linear.ridge_path`,
# `mlnotes.linear._center` and `mlnotes.linear._svd_min_norm` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def ridge_intercept(X, y, lam):
    # BEGIN SOLUTION
    # d/db = 0 gives b = mean(y) - mean(X)^T w; substituted, w is ridge on centred data
    x_mean, y_mean = X.mean(axis=0), float(np.mean(y))
    Xc = X - x_mean
    A = Xc.T @ Xc + lam * np.eye(X.shape[1])
    w = np.linalg.solve(A, Xc.T @ (y - y_mean))
    return w, float(y_mean - x_mean @ w)
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: ridge-intercept, points: 2, tier: core, minutes: 25,
#   withdraw: [mlnotes.linear.ridge, mlnotes.linear.ridge_path,
#              mlnotes.linear._center, mlnotes.linear._svd_min_norm]}
# TEST: 30 samples, 4 features far from 0, lam = 3, against the chapter's ridge
X_test = 5 + np.random.default_rng(86).normal(size=(30, 4))
y_test = 10 + X_test @ np.arange(4.0) + np.random.default_rng(87).normal(size=30)
w_test, b_test = ridge_intercept(X_test, y_test, 3.0)
fit_test = linear.ridge(X_test, y_test, lam=3.0, fit_intercept=True)
assert isinstance(b_test, float), f"b should be a float, got {type(b_test)}"
np.testing.assert_allclose(w_test, fit_test.w, rtol=1e-9, strict=True)
np.testing.assert_allclose(b_test, fit_test.b, rtol=1e-9, strict=True)

# HIDDEN TEST: equals the chapter's ridge with an unpenalised intercept, any scales
rng_h = np.random.default_rng(list(b"development secret"))
n_h, d_h = rng_h.integers(10, 40), rng_h.integers(1, 6)
X_h = rng_h.normal(size=(n_h, d_h)) * 10 ** rng_h.uniform(-1, 1, d_h)
X_h += rng_h.normal(scale=5, size=d_h)  # columns far from 0
y_h = rng_h.normal(scale=10) + rng_h.normal(size=n_h)
lam_h = 10 ** rng_h.uniform(-2, 2)
w_h, b_h = ridge_intercept(X_h, y_h, lam_h)
fit_h = linear.ridge(X_h, y_h, lam=lam_h, fit_intercept=True)
assert isinstance(b_h, float), f"b should be a float, got {type(b_h)}"
np.testing.assert_allclose(w_h, fit_h.w, rtol=1e-8, atol=1e-12, strict=True)
np.testing.assert_allclose(b_h, fit_h.b, rtol=1e-8, atol=1e-12, strict=True)

# HIDDEN TEST: both gradients vanish (residuals sum to 0), also for d > n
rng_h = np.random.default_rng(list(b"development secret"))
n_h = rng_h.integers(4, 15)
X_h = rng_h.normal(size=(n_h, n_h + rng_h.integers(1, 10))) + rng_h.normal(scale=3)
y_h, lam_h = rng_h.normal(size=n_h) + rng_h.normal(scale=5), 10 ** rng_h.uniform(-1, 1)
w_h, b_h = ridge_intercept(X_h, y_h, lam_h)
r_h = y_h - X_h @ w_h - b_h
np.testing.assert_allclose(
    np.append(np.sum(r_h), -2 * X_h.T @ r_h + 2 * lam_h * w_h),
    np.zeros(X_h.shape[1] + 1),
    atol=1e-8 * (1 + np.abs(y_h).sum()),
    strict=True,
)

# HIDDEN TEST: shifting y and the columns of X moves b only: w is unchanged
rng_h = np.random.default_rng(list(b"development secret"))
X_h = rng_h.normal(size=(rng_h.integers(10, 30), rng_h.integers(2, 6)))
y_h, lam_h = rng_h.normal(size=len(X_h)), 10 ** rng_h.uniform(-1, 1.5)
s_h, c_h = rng_h.normal(scale=5, size=X_h.shape[1]), rng_h.normal(scale=5)
w_h, b_h = ridge_intercept(X_h, y_h, lam_h)
w2_h, b2_h = ridge_intercept(X_h + s_h, y_h + c_h, lam_h)
np.testing.assert_allclose(w2_h, w_h, rtol=1e-8, atol=1e-10, strict=True)
np.testing.assert_allclose(
    b2_h, b_h + c_h - s_h @ w_h, rtol=1e-8, atol=1e-8, strict=True
)

# %% [markdown]
# ```{exercise} Core · 3 points · about 40 min
# :label: ex-code-ridge-lambda-for-dof
# The effective degrees of freedom {eq}`eq-ridge-dof` are a friendlier scale than
# $\lambda$ (the prostate figures plot against them), so one often asks the converse: which
# $\lambda$ gives $\mathrm{df}(\lambda) = t$? Write `ridge_lambda_for_dof(X, target)`
# returning that $\lambda$ as a float, for any $0 < t < \operatorname{rank} X$, with a
# relative error below $10^{-10}$. Use `X` as given (not centred), one SVD, and count
# singular values below $\max(n, d)\,\varepsilon\, d_1$ as zero ($\varepsilon$ the machine
# epsilon). By {ref}`ex-ridge-dof-limits` df falls continuously and strictly from the rank to
# 0, so the root exists and is unique; find it either by bisection on $\log\lambda$ (first
# find a bracket, multiplying or dividing by 10 until df crosses the target: the root can
# lie many orders of magnitude away from $d_1^2$ either way), or by Newton's method: work
# out $\mathrm{df}'(\lambda)$ and $\mathrm{df}''(\lambda)$, and show that from
# $\lambda_0 = 0$ the Newton iterates increase to the root without overshooting.
# While this is graded, `mlnotes.linear.ridge_dof` and `scipy.optimize` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def ridge_lambda_for_dof(X, target):
    # BEGIN SOLUTION
    s = np.linalg.svd(X, compute_uv=False)
    d2 = s[s > max(X.shape) * np.finfo(float).eps * s[0]] ** 2
    # df is decreasing and convex (df'' = 2 sum d2 / (d2 + lam)^3 > 0): from lam = 0,
    # left of the root, each tangent meets the level target before df does, so
    # Newton's iterates increase to the root
    lam = 0.0
    for _ in range(500):
        f = np.sum(d2 / (d2 + lam)) - target
        slope = -np.sum(d2 / (d2 + lam) ** 2)
        step = -f / slope
        lam += step
        if abs(step) <= 1e-13 * lam:
            break
    return float(lam)
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: ridge-lambda-for-dof, points: 3, tier: core, minutes: 40,
#   withdraw: [mlnotes.linear.ridge_dof, scipy.optimize]}
# TEST: 40 samples, 6 features, df = 3.5: df(lam) = 3.5 and lam is scipy's root
from scipy.optimize import brentq

X_test = 1 + np.random.default_rng(90).normal(size=(40, 6))
lam_test = ridge_lambda_for_dof(X_test, 3.5)
assert isinstance(lam_test, float), f"expected a float, got {type(lam_test)}"
np.testing.assert_allclose(
    linear.ridge_dof(X_test, lam_test), 3.5, rtol=1e-9, strict=True
)
root_test = brentq(lambda lam: linear.ridge_dof(X_test, lam) - 3.5, 1e-8, 1e8,
                   xtol=1e-14, rtol=1e-13)
np.testing.assert_allclose(lam_test, root_test, rtol=1e-8, strict=True)

# HIDDEN TEST: df(lam) = target and lam is the root, columns of very different scales
from scipy.optimize import brentq

rng_h = np.random.default_rng(list(b"development secret"))
n_h, d_h = rng_h.integers(10, 50), rng_h.integers(2, 8)
X_h = rng_h.normal(size=(n_h, d_h)) * 10 ** rng_h.uniform(-2, 2, d_h)
X_h += rng_h.normal(size=d_h)
t_h = d_h * rng_h.uniform(0.05, 0.95)
lam_h = ridge_lambda_for_dof(X_h, t_h)
assert isinstance(lam_h, float), f"expected a float, got {type(lam_h)}"
np.testing.assert_allclose(linear.ridge_dof(X_h, lam_h), t_h, rtol=1e-9, strict=True)
s2_h = np.linalg.svd(X_h, compute_uv=False) ** 2
root_h = brentq(lambda lam: linear.ridge_dof(X_h, lam) - t_h, 1e-9 * s2_h[-1],
                1e9 * s2_h[0], xtol=1e-300, rtol=1e-13)
np.testing.assert_allclose(lam_h, root_h, rtol=1e-8, strict=True)

# HIDDEN TEST: more features than rows (rank n): a target just below n gives a tiny lam
from scipy.optimize import brentq

rng_h = np.random.default_rng(list(b"development secret"))
n_h = rng_h.integers(4, 12)
X_h = rng_h.normal(size=(n_h, n_h + rng_h.integers(1, 8))) * 10 ** rng_h.uniform(-2, 0)
s2_h = np.linalg.svd(X_h, compute_uv=False) ** 2
for t_h in (n_h - 10 ** rng_h.uniform(-4, -2), n_h * rng_h.uniform(0.05, 0.95)):
    lam_h = ridge_lambda_for_dof(X_h, t_h)
    assert isinstance(lam_h, float), f"expected a float, got {type(lam_h)}"
    df_h = linear.ridge_dof(X_h, lam_h)
    np.testing.assert_allclose(df_h, t_h, rtol=1e-9, strict=True)
    root_h = brentq(lambda lam, t=t_h: linear.ridge_dof(X_h, lam) - t,
                    1e-12 * s2_h[-1], 1e9 * s2_h[0], xtol=1e-300, rtol=1e-13)
    np.testing.assert_allclose(lam_h, root_h, rtol=1e-8, strict=True)

# HIDDEN TEST: a smaller target gives a larger lam, down to df ~ 1e-3 (lam >> d_1^2)
rng_h = np.random.default_rng(list(b"development secret"))
X_h = rng_h.normal(size=(rng_h.integers(10, 40), rng_h.integers(2, 6)))
X_h *= 10 ** rng_h.uniform(1, 2)
t_h = X_h.shape[1] * 10 ** np.sort(np.append(rng_h.uniform(-3.5, -2.5),
                                             rng_h.uniform(-2.5, -0.05, size=3)))
lam_h = [ridge_lambda_for_dof(X_h, t) for t in t_h]
assert all(isinstance(v, float) for v in lam_h), f"expected floats, got {lam_h}"
assert np.all(np.diff(lam_h) < 0), f"lam for increasing targets {t_h}: {lam_h}"
np.testing.assert_allclose(
    [linear.ridge_dof(X_h, v) for v in lam_h], t_h, rtol=1e-9, strict=True
)

# %% [markdown]
# ```{exercise} Challenge · 4 points · about 60 min
# :label: ex-code-ridge-cv
# (Experiment: the prostate data.) Write `ridge_cv(X, y, lams, folds)` that chooses the
# penalty of ridge regression with an unpenalised intercept by $K$-fold cross-validation.
# `folds` gives each row its fold, an integer in $0, \dots, K-1$; the folds may have
# different sizes. For each fold $k$ and each $\lambda$ in `lams`:
#
# 1. standardise the columns of `X` with the mean and the sample standard deviation
#    (`ddof=1`) of the rows *outside* fold $k$ only (the validation rows must not leak into
#    any part of the fit);
# 2. on those rows, fit ridge with an unpenalised intercept
#    ({ref}`ex-code-ridge-intercept`) to the standardised columns;
# 3. predict the rows of fold $k$, standardised with the same mean and deviation.
#
# Return `(cv, lam)`: `cv`, a NumPy array with one entry per penalty, is the pooled error
# {eq}`def-cv-error`, the squared errors of all $n$ rows summed and divided by $n$ (not the
# mean of the $K$ per-fold means), and `lam` is the penalty of `lams` with the smallest
# `cv`, as a float. The tests run it on rows of the prostate data (`load_prostate()`):
# ESL's 67 training rows with fold $i \bmod 5$ for row $i$ (which $\lambda$ of
# `np.logspace(-1, 3, 8)` wins?) and random subsamples, fold assignments and grids; they
# compare `cv` with their own computation at a relative tolerance of $10^{-6}$ and `lam`
# exactly. While this is graded, `mlnotes.linear.cross_validate` is unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def ridge_cv(X, y, lams, folds):
    # BEGIN SOLUTION
    folds = np.asarray(folds)
    sq_err = np.zeros(len(lams))
    for k in np.unique(folds):
        tr, va = folds != k, folds == k
        mu, sd = X[tr].mean(axis=0), X[tr].std(axis=0, ddof=1)
        Z_tr, Z_va = (X[tr] - mu) / sd, (X[va] - mu) / sd
        z_mean, y_mean = Z_tr.mean(axis=0), y[tr].mean()
        U, s, Vt = np.linalg.svd(Z_tr - z_mean, full_matrices=False)
        uty = U.T @ (y[tr] - y_mean)
        for m, lam in enumerate(lams):
            w = Vt.T @ (s / (s**2 + lam) * uty)
            pred = y_mean + (Z_va - z_mean) @ w
            sq_err[m] += np.sum((y[va] - pred) ** 2)
    cv = sq_err / len(y)
    return cv, float(lams[int(np.argmin(cv))])
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: ridge-cv, points: 4, tier: challenge, minutes: 60, data: prostate,
#   withdraw: [mlnotes.linear.cross_validate]}
# TEST: ESL's 67 training rows of the prostate data, fold i mod 5, 8 penalties
D_test = load_prostate()
X_test, y_test = D_test.X[D_test.extra["train"]], D_test.y[D_test.extra["train"]]
folds_test, lams_test = np.arange(len(y_test)) % 5, np.logspace(-1, 3, 8)
cv_test, lam_test = ridge_cv(X_test, y_test, lams_test, folds_test)
ref_test = np.zeros(len(lams_test))  # the pooled error, with linear.ridge
for k in range(5):
    tr, va = folds_test != k, folds_test == k
    mu, sd = X_test[tr].mean(axis=0), X_test[tr].std(axis=0, ddof=1)
    for m, lam in enumerate(lams_test):
        Z_tr, Z_va = (X_test[tr] - mu) / sd, (X_test[va] - mu) / sd
        fit = linear.ridge(Z_tr, y_test[tr], lam=lam, fit_intercept=True)
        ref_test[m] += np.sum((y_test[va] - fit.predict(Z_va)) ** 2)
ref_test /= len(y_test)
np.testing.assert_allclose(cv_test, ref_test, rtol=1e-6, strict=True)
best_test = lams_test[np.argmin(ref_test)]
assert lam_test == best_test, f"expected lam = {best_test}, got {lam_test}"

# HIDDEN TEST: the pooled error and the best lam, folds of unequal sizes on a subsample
rng_h = np.random.default_rng(list(b"development secret"))
D_h = load_prostate()
K_h = rng_h.integers(3, 6)
sizes_h = rng_h.integers(5, 9) + 2 * rng_h.permutation(K_h)  # all different
ok_h = False
while not ok_h:  # every training part must have a spread in every column
    rows_h = rng_h.choice(len(D_h.y), size=sizes_h.sum(), replace=False)
    folds_h = rng_h.permutation(np.repeat(np.arange(K_h), sizes_h))
    X_h, y_h = D_h.X[rows_h], D_h.y[rows_h]
    ok_h = all(np.all(np.ptp(X_h[folds_h != k], axis=0) > 0) for k in range(K_h))
lams_h = np.sort(10 ** rng_h.uniform(-1, 2.5, size=6))
cv_h, lam_h = ridge_cv(X_h, y_h, lams_h, folds_h)
ref_h = np.zeros(len(lams_h))
for k in range(K_h):
    tr, va = folds_h != k, folds_h == k
    mu, sd = X_h[tr].mean(axis=0), X_h[tr].std(axis=0, ddof=1)
    for m, lam in enumerate(lams_h):
        fit = linear.ridge((X_h[tr] - mu) / sd, y_h[tr], lam=lam, fit_intercept=True)
        ref_h[m] += np.sum((y_h[va] - fit.predict((X_h[va] - mu) / sd)) ** 2)
ref_h /= len(y_h)
np.testing.assert_allclose(cv_h, ref_h, rtol=1e-6, strict=True)
best_h = lams_h[np.argmin(ref_h)]
assert lam_h == best_h, f"expected lam = {best_h}, got {lam_h}"

# HIDDEN TEST: rescaling and shifting the columns and shifting y change nothing
rng_h = np.random.default_rng(list(b"development secret"))
D_h = load_prostate()
K_h = rng_h.integers(3, 5)
ok_h = False
while not ok_h:  # every training part must have a spread in every column
    rows_h = rng_h.choice(len(D_h.y), size=rng_h.integers(25, 45), replace=False)
    folds_h = rng_h.integers(0, K_h, size=len(rows_h))
    X_h, y_h = D_h.X[rows_h], D_h.y[rows_h]
    ok_h = all(np.sum(folds_h == k) > 1 for k in range(K_h)) and all(
        np.all(np.ptp(X_h[folds_h != k], axis=0) > 0) for k in range(K_h))
lams_h = np.sort(10 ** rng_h.uniform(-1, 2.5, size=5))
cv_h, lam_h = ridge_cv(X_h, y_h, lams_h, folds_h)
scale_h = 10 ** rng_h.uniform(-2, 2, size=X_h.shape[1])
X2_h = X_h * scale_h + rng_h.normal(scale=10, size=X_h.shape[1])
cv2_h, lam2_h = ridge_cv(X2_h, y_h + rng_h.normal(scale=10), lams_h, folds_h)
np.testing.assert_allclose(cv2_h, cv_h, rtol=1e-7, strict=True)
assert lam2_h == lam_h, f"lam changed from {lam_h} to {lam2_h}"
ref_h = np.zeros(len(lams_h))
for k in range(K_h):
    tr, va = folds_h != k, folds_h == k
    mu, sd = X_h[tr].mean(axis=0), X_h[tr].std(axis=0, ddof=1)
    for m, lam in enumerate(lams_h):
        fit = linear.ridge((X_h[tr] - mu) / sd, y_h[tr], lam=lam, fit_intercept=True)
        ref_h[m] += np.sum((y_h[va] - fit.predict((X_h[va] - mu) / sd)) ** 2)
np.testing.assert_allclose(cv_h, ref_h / len(y_h), rtol=1e-6, strict=True)

# HIDDEN TEST: the returned lam is the grid's argmin, also for a grid in random order
rng_h = np.random.default_rng(list(b"development secret"))
D_h = load_prostate()
ok_h = False
while not ok_h:  # two folds, validation as large as training, each with a spread
    rows_h = rng_h.choice(len(D_h.y), size=rng_h.integers(60, 97), replace=False)
    X_h, y_h = D_h.X[rows_h], D_h.y[rows_h]
    folds_h = rng_h.permutation(len(y_h)) % 2
    ok_h = all(np.all(np.ptp(X_h[folds_h == k], axis=0) > 0) for k in range(2))
lams_h = 10 ** rng_h.uniform(-1, 2.5, size=7)
cv_h, lam_h = ridge_cv(X_h, y_h, lams_h, folds_h)
ref_h = np.zeros(len(lams_h))
for k in range(2):
    tr, va = folds_h != k, folds_h == k
    mu, sd = X_h[tr].mean(axis=0), X_h[tr].std(axis=0, ddof=1)
    for m, lam in enumerate(lams_h):
        fit = linear.ridge((X_h[tr] - mu) / sd, y_h[tr], lam=lam, fit_intercept=True)
        ref_h[m] += np.sum((y_h[va] - fit.predict((X_h[va] - mu) / sd)) ** 2)
np.testing.assert_allclose(cv_h, ref_h / len(y_h), rtol=1e-6, strict=True)
best_h = lams_h[np.argmin(ref_h)]
assert lam_h == best_h, f"expected lam = {best_h}, got {lam_h}"

# %% [markdown]
# ```{exercise}
# :label: ex-code-elastic-net-cd
# Write `elastic_net_cd(X, y, lam1, lam2, n_sweeps)` that minimises
# {eq}`def-elastic-net-objective` (no intercept) by `n_sweeps` cycles of the coordinate update
# {eq}`eq-elastic-net-coordinate` from $w = 0$, keeping the residual $r = y - Xw$ up to date.
# Check it against `linear.elastic_net`, and check that with `lam2 = 0` it gives the lasso and
# with `lam1 = 0` ridge.
# ```
#
# ````{solution} ex-code-elastic-net-cd
# :class: dropdown
# The lasso sweep of {ref}`ex-code-lasso-cd` with the larger denominator:
#
# ```python
# def elastic_net_cd(X, y, lam1, lam2, n_sweeps=500):
#     n, d = X.shape
#     w = np.zeros(d)
#     r = y.astype(float).copy()
#     col_sq = np.sum(X**2, axis=0)
#     for _ in range(n_sweeps):
#         for j in range(d):
#             rho = X[:, j] @ r + col_sq[j] * w[j]  # x_j^T r_(j)
#             new = np.sign(rho) * max(abs(rho) - lam1 / 2, 0.0) / (col_sq[j] + lam2)
#             r -= X[:, j] * (new - w[j])
#             w[j] = new
#     return w
# ```
# ````

# %% [markdown]
# (sec-linear-summary)=
# ## Summary
#
# - Least squares solves the normal equations {eq}`eq-normal-equations`; the fit is the
#   orthogonal projection of $y$ onto the column space of $X$ {eq}`eq-hat-matrix`.
# - Forming $X^\top X$ squares the condition number {eq}`eq-cond-squared`. Cholesky on the
#   normal equations is the fast choice for well-conditioned problems; QR (refined) and the SVD
#   are the accurate ones. `least_squares` picks by a condition estimate and meets the NIST
#   targets: at least 7 digits on Filip and 10 on Longley.
# - Ridge adds $\lambda\|w\|^2$: always solvable {eq}`eq-ridge-eigenvalues`, it shrinks the
#   directions of small singular value most {eq}`eq-ridge-shrinkage`.
# - The lasso adds $\lambda\|w\|_1$: its subgradient conditions {eq}`eq-lasso-subgradient` give
#   exact zeros, and coordinate descent with soft-thresholding solves it.
# - The elastic net adds both penalties: a lasso on augmented data
#   {eq}`eq-elastic-net-augmented` whose coordinate update divides by
#   $\|x_{\cdot j}\|^2 + \lambda_2$ {eq}`eq-elastic-net-coordinate`; correlated predictors
#   get similar coefficients {eq}`eq-elastic-net-grouping`.
# - Ridge and lasso are MAP estimates under Gaussian and Laplace priors; $\lambda$ trades bias
#   for variance {eq}`eq-bias-variance` and is chosen by cross-validation.
#
# ## References
#
# Least squares, ridge, the lasso, the bias-variance trade-off and the prostate example follow
# {cite}`hastie2009elements` (chapters 3 and 7). Ridge is due to {cite}`hoerl1970ridge`, the
# lasso to {cite}`tibshirani1996regression`, the elastic net to {cite}`zou2005regularization`,
# automatic relevance determination to {cite}`mackay1992bayesian` and
# {cite}`tipping2001sparse`, and coordinate descent for the elastic net is developed in
# {cite}`friedman2010regularization`. For the numerics of least squares (QR, the SVD, iterative
# refinement) see {cite}`bjorck1967iterative` and {cite}`higham2002accuracy`; the certified
# problems are {cite}`nist_strd`, and {cite}`mccullough1999assessing` uses them to test
# statistical software. All entries are in the {doc}`bibliography </book/references>`.
