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
#   enumerator: '4.%s'
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
# (chap-svm)=
# # Support vector machines
#
# A linear classifier that separates the training data usually separates it in infinitely many
# ways. The support vector machine picks the separating hyperplane that stays as far as possible
# from the nearest training points. Finding it is a convex quadratic program, and the route to
# solving it, Lagrange duality, gives the method its character: the solution depends only on a
# few training points, the *support vectors*, and only through inner products between points,
# which is what makes kernels possible (Chapter 5).
#
# **What you will learn**
#
# - functional and geometric margins, and how "maximise the smallest margin" becomes the convex
#   program $\min \frac12\|w\|^2$ subject to $y_i(w^\top x_i + b) \ge 1$;
# - Lagrange duality in general: the dual function as a lower bound, strong duality under
#   Slater's condition, complementary slackness and the Karush-Kuhn-Tucker conditions;
# - the dual of the hard-margin and soft-margin SVM, support vectors, and the three kinds of
#   training points;
# - the same problem as hinge loss plus a ridge penalty, with $\lambda = 1/(2C)$;
# - three solvers: the subgradient method and Pegasos in the primal, and SMO, the dual
#   coordinate method of libsvm, with its second-order working-set selection;
# - multiclass SVMs: one-vs-rest, one-vs-one, and the joint formulation.

# %%
import matplotlib.pyplot as plt
import numpy as np

from mlnotes import claims, kernels, plots, svm
from mlnotes.datasets import load_breast_cancer, load_heart_scale, load_iris
from mlnotes.losses import hinge, logistic

plots.setup()
np.set_printoptions(precision=4, suppress=True)
rng = np.random.default_rng(4)

# %% [markdown]
# (sec-svm-margins)=
# ## Margins
#
# A linear classifier predicts $\sign f(x)$ with the score $f(x) = w^\top x + b$ and labels
# $y_i \in \{-1, +1\}$. The **functional margin** of sample $i$ is
#
# $$
# \hat\gamma_i = y_i (w^\top x_i + b),
# $$ (def-functional-margin)
#
# positive when the sample is classified correctly. It is a poor measure of confidence on its
# own: doubling $w$ and $b$ doubles it without changing a single prediction. The **geometric
# margin** is the signed distance of $x_i$ to the hyperplane $\{z : w^\top z + b = 0\}$. Write
# $x = z + r\, w / \|w\|$ with $z$ on the hyperplane; then $w^\top x + b = r \|w\|$, so the
# distance of $x$ to the hyperplane is
#
# $$
# \frac{|w^\top x + b|}{\|w\|}, \qquad \text{and} \quad \gamma_i = \frac{y_i (w^\top x_i + b)}{\|w\|}
# $$ (eq-geometric-margin)
#
# is the geometric margin of sample $i$, invariant to rescaling $(w, b)$. The check compares the
# formula with the shortest displacement onto the hyperplane found by a least-squares solver.

# %%
claims.verify("eq-geometric-margin")

# %% [markdown]
# The margin of a classifier on a training set is its worst sample, $\gamma = \min_i \gamma_i$.
# The maximum-margin classifier solves
#
# $$
# \max_{w, b} \; \min_i \frac{y_i (w^\top x_i + b)}{\|w\|} .
# $$ (def-max-min-margin)
#
# This is not a convex problem as written, but the scale of $(w, b)$ is free: fix it so that
# the smallest functional margin is $1$. Then the margin is $1/\|w\|$, and maximising it is
# minimising $\|w\|$, or equivalently the smooth convex function $\frac12\|w\|^2$:
#
# $$
# \min_{w, b} \; \tfrac12 \|w\|^2 \quad \text{subject to} \quad y_i (w^\top x_i + b) \ge 1,
# \quad i = 1, \dots, n .
# $$ (eq-hard-primal)
#
# A convex quadratic objective with linear constraints: a quadratic program, with a unique
# $w$ when the data are separable. The check solves {eq}`eq-hard-primal` on random separable
# sets in the plane and compares its margin $1/\|w\|$ with a brute-force search for the largest
# margin over all directions of $w$, which never looks at the quadratic program.

# %%
claims.verify("eq-hard-primal")

# %% [markdown]
# The single constraint $y_i (w^\top x_i + b) \ge 1$ packs two one-sided ones: multiplying by
# $y_i = -1$ flips both the inequality and the sign of its right side, so for any level
# $\beta > 0$
#
# $$
# y_i (w^\top x_i + b) \ge \beta \iff
# \begin{cases} w^\top x_i + b \ge \beta, & y_i = +1, \\
# w^\top x_i + b \le -\beta, & y_i = -1 . \end{cases}
# $$ (eq-margin-split)
#
# (One of the source notes writes $\le \beta$ for the negative class, which would admit every
# negative point inside the margin or on the wrong side of the hyperplane.)

# %%
claims.verify("eq-margin-split")

# %% [markdown]
# (sec-svm-duality)=
# ## Lagrange duality
#
# Take a general problem with objective $f$, inequality constraints $g_i$ and equality
# constraints $h_l$,
#
# $$
# p^* = \min_x f(x) \quad \text{s.t.} \quad g_i(x) \le 0, \; i = 1..m, \qquad h_l(x) = 0, \; l = 1..p .
# $$ (def-general-problem)
#
# The **Lagrangian** adds the constraints with multipliers $\mu_i \ge 0$ and $\lambda_l \in \R$,
# and the **dual function** is its minimum over $x$:
#
# $$
# \begin{gathered}
# L(x, \mu, \lambda) = f(x) + \sum_i \mu_i g_i(x) + \sum_l \lambda_l h_l(x), \\
# \theta(\mu, \lambda) = \inf_x L(x, \mu, \lambda) .
# \end{gathered}
# $$ (def-lagrangian)
#
# For a feasible $x$ every added term is $\le 0$ ($\mu_i \ge 0$, $g_i(x) \le 0$, $h_l(x) = 0$),
# so $L(x, \mu, \lambda) \le f(x)$, and the infimum is smaller still:
#
# $$
# \begin{gathered}
# \theta(\mu, \lambda) \le f(x) \quad \text{for every feasible } x \text{ and every } \mu \ge 0, \\
# \text{hence} \quad d^* = \max_{\mu \ge 0, \lambda} \theta(\mu, \lambda) \le p^* .
# \end{gathered}
# $$ (eq-weak-duality)
#
# This is **weak duality**; it holds for any problem, convex or not. The dual function is a
# minimum of functions affine in $(\mu, \lambda)$, so it is concave: the dual problem is always
# a convex problem. The check samples random convex quadratic programs, random feasible points
# and random multipliers (some of them zero, see the erratum below).

# %%
claims.verify("eq-weak-duality")

# %% [markdown]
# **Strong duality.** If $f$ and the $g_i$ are convex, the $h_l$ are affine, and some point is
# *strictly* feasible, $g_i(x_0) < 0$ for all non-affine $g_i$ (**Slater's condition**), then
# the bound is tight and the dual optimum is attained {cite}`boyd2004convex`:
#
# $$
# d^* = \max_{\mu \ge 0, \lambda} \theta(\mu, \lambda) = \min_x \{ f(x) : g_i(x) \le 0, h_l(x) = 0 \} = p^* .
# $$ (eq-strong-duality)
#
# The check solves random strictly feasible convex QPs twice, the primal with one optimiser
# (SLSQP) and the dual with another (L-BFGS-B on $-\theta$), and compares the two optimal values.

# %%
claims.verify("eq-strong-duality")

# %% [markdown]
# ```{admonition} Erratum (notes 000, section 4.2)
# :class: warning
# The notes state strong duality for convex problems that are merely feasible. Feasibility is
# not enough. In $\min e^{-x}$ subject to $x^2 / y \le 0$ (over $y > 0$) every feasible point
# has $x = 0$, so $p^* = 1$, but no point is strictly feasible, and the dual function is
# $\theta(\mu) = \inf_{x, y > 0} e^{-x} + \mu x^2 / y = 0$ for every $\mu \ge 0$: along
# $x = t$, $y = t^3$ both terms vanish as $t \to \infty$.
# ```
#
# In that example, then,
#
# $$
# d^* = \sup_{\mu \ge 0} \theta(\mu) = 0 \;<\; 1 = p^* .
# $$ (eq-duality-gap)

# %%
claims.verify("eq-duality-gap")

# %%
t = np.array([1.0, 10.0, 100.0, 1000.0])
for mu in (0.1, 1.0, 10.0):
    vals = np.exp(-t) + mu * t**2 / t**3  # L(x=t, y=t^3, mu)
    print(
        f"mu = {mu:5.1f}:  L along x = t, y = t^3:", "  ".join(f"{v:.4f}" for v in vals)
    )

# %% [markdown]
# **Complementary slackness and KKT.** When $d^* = p^*$ and $x^*$, $(\mu^*, \lambda^*)$ attain
# them, the chain $f(x^*) = \theta(\mu^*, \lambda^*) \le L(x^*, \mu^*, \lambda^*) \le f(x^*)$ holds
# with equality throughout. The first equality says $x^*$ minimises $L(\cdot, \mu^*, \lambda^*)$;
# the second says $\sum_i \mu_i^* g_i(x^*) = 0$, and as every term is $\le 0$, each is zero.
#
# ```{prf:theorem} Karush-Kuhn-Tucker conditions
# :label: thm-kkt
#
# Let $f$ and the $g_i$ be convex and differentiable and the $h_l$ affine. If $x^*$ and
# $(\mu^*, \lambda^*)$ satisfy
#
# 1. primal feasibility: $g_i(x^*) \le 0$ and $h_l(x^*) = 0$;
# 2. dual feasibility: $\mu_i^* \ge 0$;
# 3. complementary slackness: $\mu_i^* g_i(x^*) = 0$ for every $i$;
# 4. stationarity: $\nabla f(x^*) + \sum_i \mu_i^* \nabla g_i(x^*) + \sum_l \lambda_l^* \nabla h_l(x^*) = 0$,
#
# then $x^*$ is optimal for the primal, $(\mu^*, \lambda^*)$ for the dual, and $d^* = p^*$.
# Conversely, under Slater's condition every optimal $x^*$ has multipliers satisfying 1-4.
# ```
#
# ```{prf:proof}
# Sufficiency: for fixed $(\mu^*, \lambda^*)$ the Lagrangian is convex in $x$ (a sum of convex
# functions with non-negative weights and affine ones), so by 4 its gradient vanishes at a
# minimum: $\theta(\mu^*, \lambda^*) = L(x^*, \mu^*, \lambda^*)$. By 1 and 3 the added terms
# vanish at $x^*$, so $L(x^*, \mu^*, \lambda^*) = f(x^*)$. Thus $\theta(\mu^*, \lambda^*) = f(x^*)$,
# and weak duality {eq}`eq-weak-duality` shows that no feasible point does better than $x^*$ and
# no multipliers do better than $(\mu^*, \lambda^*)$.
#
# Necessity: under Slater's condition strong duality holds and the dual optimum is attained.
# The argument before the theorem then gives complementary slackness and that $x^*$ minimises
# the differentiable convex function $L(\cdot, \mu^*, \lambda^*)$, whose gradient must vanish
# there: that is 4. Feasibility 1 and 2 hold by assumption.
# ```
#
# In symbols, at a primal-dual optimal pair,
#
# $$
# \begin{gathered}
# \nabla f(x^*) + \sum_i \mu_i^* \nabla g_i(x^*) + \sum_l \lambda_l^* \nabla h_l(x^*) = 0, \\
# g_i(x^*) \le 0, \quad \mu_i^* \ge 0, \quad \mu_i^* g_i(x^*) = 0 .
# \end{gathered}
# $$ (eq-kkt)
#
# The check takes $x^*$ from the primal solver and $\mu^*$ from the dual solver and measures
# how far the pair is from satisfying all four conditions.

# %%
claims.verify("eq-kkt")

# %% [markdown]
# ```{admonition} Errata (notes 000, section 4.2)
# :class: warning
# The notes require $\mu_i > 0$; the multipliers of inequality constraints are $\mu_i \ge 0$,
# and by complementary slackness every inactive constraint has $\mu_i^* = 0$. Their
# stationarity condition also drops the multipliers, $\sum_i \nabla f_i(w^*)$ instead of
# $\sum_i \mu_i^* \nabla f_i(w^*)$. Notes 001 state the theorem with the right conditions.
# ```
#
# (sec-svm-qp-duality)=
# ### Strong duality for quadratic programs
#
# Slater's condition was quoted above; for the
# problems of this chapter, quadratic objectives under affine constraints, there is a short
# proof that needs no strictly feasible point at all.
#
# ```{prf:theorem} Strong duality for convex quadratic programs
# :label: thm-qp-strong-duality
#
# Let $f(x) = \frac12 x^\top P x + q^\top x$ with $P$ positive semidefinite, and let the
# constraints be affine, $a_i^\top x \le c_i$ for $i = 1..m$ (an equality is two of them). If
# the problem has a minimiser $x^*$, there are multipliers $\mu^* \ge 0$ that satisfy the
# conditions of {prf:ref}`thm-kkt` with $x^*$; so $d^* = p^*$, and the dual optimum is
# attained at $\mu^*$.
# ```
#
# ```{prf:proof}
# Let $I = \{i : a_i^\top x^* = c_i\}$ be the active constraints.
#
# *No feasible descent direction.* Suppose $a_i^\top d \le 0$ for every $i \in I$ and
# $\nabla f(x^*)^\top d < 0$. For small $t > 0$ the point $x^* + td$ is feasible (the active
# constraints stay satisfied, the inactive ones have slack to spare) and
# $f(x^* + td) = f(x^*) + t\,\nabla f(x^*)^\top d + \frac{t^2}{2} d^\top P d < f(x^*)$,
# contradicting the optimality of $x^*$. So no such $d$ exists.
#
# *Farkas' lemma.* The cone $\mathcal K = \{\sum_{i \in I} \mu_i a_i : \mu \ge 0\}$ is
# convex and closed (it is generated by finitely many vectors). If $-\nabla f(x^*) \notin
# \mathcal K$, a hyperplane separates the point from the cone: some $d$ has
# $-\nabla f(x^*)^\top d > 0 \ge k^\top d$ for every $k \in \mathcal K$, in particular
# $a_i^\top d \le 0$ for $i \in I$: a feasible descent direction, which cannot exist. Hence
#
# $$
# \nabla f(x^*) + \sum_{i \in I} \mu_i^* a_i = 0, \qquad \mu_i^* \ge 0 .
# $$ (eq-affine-kkt)
#
# *Conclusion.* Set $\mu_i^* = 0$ for the inactive constraints. Then $x^*$ is feasible,
# $\mu^* \ge 0$, $\mu_i^*(a_i^\top x^* - c_i) = 0$ for every $i$, and {eq}`eq-affine-kkt` is the
# stationarity condition: the four conditions of {prf:ref}`thm-kkt`, whose sufficiency part
# gives $\theta(\mu^*) = f(x^*)$, so $d^* = p^*$.
# ```
#
# Where strictness was needed for a general convex $g_i$ (a curved constraint can be active
# with no direction along which it improves, as in the erratum's example), affine constraints
# make the linearisation exact, and Farkas' lemma does the rest. The check builds convex
# quadratic programs with a singular $P$, bounds on every coordinate, and an equality written
# as two inequalities (so no point is strictly feasible and Slater's condition fails), solves
# them, and finds non-negative multipliers on the active constraints by non-negative least
# squares.

# %%
claims.verify("eq-affine-kkt")

# %% [markdown]
# The soft-margin SVM (next sections) is such a problem, in the variables $(w, b, \xi)$: its
# objective is convex and quadratic, its constraints $y_i(w^\top x_i + b) \ge 1 - \xi_i$ and
# $\xi_i \ge 0$ are affine, it is feasible ($w = 0$, $b = 0$, $\xi_i = 1$) and bounded below by
# 0. A convex quadratic program bounded below on a non-empty polyhedron attains its minimum
# {cite}`frank1956algorithm`, so {prf:ref}`thm-qp-strong-duality` applies: with $D(\alpha)$ the
# dual of {eq}`eq-soft-dual`,
#
# $$
# \begin{gathered}
# \min_{w, b, \xi}\ \Big\{\frac12\|w\|^2 + C\sum_i \xi_i :\ y_i f(x_i) \ge 1 - \xi_i,\
# \xi_i \ge 0\Big\} \\
# = \max_\alpha\ \Big\{D(\alpha) :\ 0 \le \alpha_i \le C,\ \sum_i \alpha_i y_i = 0\Big\} .
# \end{gathered}
# $$ (eq-svm-zero-gap)
#
# The hard margin is the same with $\xi = 0$, when the data are separable. The check solves
# the dual with `smo`, builds the primal point $w = \sum_i \alpha_i y_i x_i$, $b$,
# $\xi_i = [1 - y_i f(x_i)]_+$ from it, and finds its primal value equal to the dual value: as
# that value bounds $p^* \ge d^*$ from both sides by weak duality, it is a certificate that both
# are optimal and that the gap is zero.

# %%
claims.verify("eq-svm-zero-gap")

# %% [markdown]
# (sec-svm-hard-dual)=
# ## The dual of the maximum-margin classifier
#
# Write the constraints of {eq}`eq-hard-primal` as $g_i = 1 - y_i(w^\top x_i + b) \le 0$. They
# are affine, and any separating hyperplane scaled up is strictly feasible, so Slater's
# condition holds for separable data. The Lagrangian is
#
# $$
# L(w, b, \alpha) = \tfrac12 \|w\|^2 - \sum_i \alpha_i \big( y_i (w^\top x_i + b) - 1 \big),
# \qquad \alpha_i \ge 0 .
# $$ (def-hard-lagrangian)
#
# It is a convex quadratic in $w$ and affine in $b$. Setting the derivatives to zero,
#
# $$
# \begin{gathered}
# \nabla_w L = w - \sum_i \alpha_i y_i x_i = 0 \;\Rightarrow\; w = \sum_i \alpha_i y_i x_i, \\
# \frac{\partial L}{\partial b} = -\sum_i \alpha_i y_i = 0 .
# \end{gathered}
# $$ (eq-hard-stationarity)
#
# The check differentiates $L$ numerically at $w = \sum_i \alpha_i y_i x_i$ for random
# $\alpha \ge 0$ with $\sum_i \alpha_i y_i = 0$.

# %%
claims.verify("eq-hard-stationarity")

# %% [markdown]
# If $\sum_i \alpha_i y_i \ne 0$, $L$ is unbounded below in $b$ and $\theta(\alpha) = -\infty$;
# otherwise substituting $w$ gives $\frac12\|w\|^2 - \|w\|^2 + \sum_i \alpha_i$, so the dual
# problem is
#
# $$
# \begin{gathered}
# \max_{\alpha} \; D(\alpha) = \sum_i \alpha_i - \frac12 \sum_{i,k} \alpha_i \alpha_k y_i y_k\, x_i^\top x_k \\
# \text{s.t.} \quad \alpha_i \ge 0, \quad \sum_i \alpha_i y_i = 0 .
# \end{gathered}
# $$ (eq-hard-dual)

# %%
claims.verify("eq-hard-dual")

# %% [markdown]
# The data enter only through the inner products $K_{ik} = x_i^\top x_k$, the **Gram matrix**.
# Complementary slackness, $\alpha_i (y_i f(x_i) - 1) = 0$, says that $\alpha_i > 0$ only for
# points exactly on the margin, $y_i f(x_i) = 1$: these are the **support vectors**, and by
# {eq}`eq-hard-stationarity` $w$ is a combination of them alone. Every support vector pins the
# bias, $y_i (w^\top x_i + b) = 1$ with $y_i^2 = 1$:
#
# $$
# b = y_i - w^\top x_i \quad \text{for every } i \text{ with } \alpha_i > 0 ,
# $$ (eq-bias)
#
# and averaging over the support vectors is the numerically safer choice.

# %%
claims.verify("eq-bias")

# %% [markdown]
# Solving the dual with `mlnotes.svm.smo` (section {ref}`sec-svm-smo` below) and
# rebuilding $w$ and $b$ from it must reproduce the primal: zero duality gap, every point
# outside or on the margin, and complementary slackness.
#
# $$
# \tfrac12 \|w\|^2 = D(\alpha), \qquad y_i f(x_i) \ge 1, \qquad \alpha_i \big( y_i f(x_i) - 1 \big) = 0 .
# $$ (eq-hard-gap)

# %%
claims.verify("eq-hard-gap")

# %% [markdown]
# On real data: setosa against versicolor in the iris data, with the two sepal measurements,
# are linearly separable. `C=np.inf` asks `smo` for the hard margin (it first checks that the
# data are separable and refuses otherwise) ({numref}`fig-hard-margin-iris`).

# %%
iris = load_iris()
m01 = iris.y < 2
X_sv = iris.X[m01][:, :2]  # sepal length, sepal width (cm)
y_sv = np.where(iris.y[m01] == 0, -1.0, 1.0)  # setosa -1, versicolor +1
hard = svm.smo(X_sv, y_sv, C=np.inf, kernel="linear", tol=1e-10)
w_hard = hard.coef
M_hard = y_sv * hard.decision_function(X_sv)
on_margin = np.flatnonzero(np.abs(M_hard - 1) < 1e-8)
primal_hard = 0.5 * w_hard @ w_hard
assert abs(primal_hard - hard.dual) < 1e-6 * primal_hard
print(
    f"w = {w_hard},  b = {hard.b:.4f},  margin 1/||w|| = "
    f"{1 / np.linalg.norm(w_hard):.4f} cm"
)
print(f"points on the margin: {on_margin.tolist()}")
print(f"primal 1/2 ||w||^2 = {primal_hard:.4f} = dual D(alpha) (relative gap < 1e-6)")

# The optimal alphas: alpha >= 0, zero off the margin, with sum_i alpha_i y_i x_i = w
# and
# sum_i alpha_i y_i = 0 (eq-hard-stationarity): 3 equations for 4 unknowns, a segment.
A = np.vstack([(y_sv[on_margin, None] * X_sv[on_margin]).T, y_sv[on_margin]])
rhs = np.append(w_hard, 0.0)
alpha_p = np.linalg.lstsq(A, rhs, rcond=None)[0]
null = np.linalg.svd(A)[2][-1]  # A has rank 3: its null space is one direction
t = -alpha_p / null
t_lo, t_hi = t[null > 0].max(), t[null < 0].min()  # alpha_p + t null >= 0
for name, end in (
    ("one end ", alpha_p + t_lo * null),
    ("other end", alpha_p + t_hi * null),
):
    print(f"optimal alpha on the margin points, {name}: {np.round(np.abs(end), 2)}")
a_smo = hard.alpha[on_margin]
assert np.abs(np.delete(hard.alpha, on_margin)).max() < 1e-9 and (a_smo >= 0).all()
assert np.abs(A @ a_smo - rhs).max() < 1e-6 * np.abs(rhs).max()
print("SMO's alpha lies on this segment; which point it returns depends on its path")

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "The hard-margin SVM on setosa against versicolor (sepal measurements): the decision boundary, the margin lines $f(x) = \\pm 1$ and the circled support vectors.", "name": "fig-hard-margin-iris"}, "image": {"alt": "Two classes of points with a separating line, two parallel dashed margin lines and circled points on them."}} tags=["hide-input"]
fig, ax = plt.subplots()
plots.decision_regions(ax, hard.decision_function, X_sv, y_sv, levels=(-1.0, 0.0, 1.0))
ax.scatter(
    *X_sv[hard.support].T,
    s=160,
    facecolors="none",
    edgecolors="k",
    linewidths=1.2,
    label="support vectors",
)
ax.set(
    xlabel="sepal length (cm)",
    ylabel="sepal width (cm)",
    title="Maximum-margin boundary: setosa (circles) vs versicolor (squares)",
)
ax.legend(loc="upper left")
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-hard-margin-iris
# The hard-margin SVM on setosa against versicolor (sepal measurements): the decision boundary, the margin lines $f(x) = \pm 1$ and the circled support vectors.
# :::

# %% [markdown]
# The measurements are recorded to 0.1 cm, and four points sit exactly on the two margin
# lines. The primal solution $(w, b)$ is unique (a strictly convex objective on $w$), and so are
# the margin and the set of points on it; the optimal $\alpha$ is not. The KKT conditions ask of
# $\alpha$ only that it vanish off the margin, be non-negative, and satisfy
# $\sum_i \alpha_i y_i x_i = w$ and $\sum_i \alpha_i y_i = 0$: three linear equations for the
# four unknowns on the margin. Every $\alpha$ on the segment printed above has the same $w$, the
# same $b$ and the same dual value $D(\alpha) = \tfrac12\|w\|^2$. SMO stops at one point of that
# segment, which one depending on the order and rounding of its updates, so its $\alpha$ is a
# property of the run, not of the problem: report $w$, $b$, the margin and the support set.
#
# ```{admonition} Erratum (notes 000 section 4.2.2, notes 003 section 1.5)
# :class: warning
# Both write the hard-margin dual with $\mu_i > 0$ (or $\alpha > 0$). The constraint is
# $\alpha_i \ge 0$: above, 96 of the 100 points have $\alpha_i = 0$.
# ```
#
# (sec-svm-soft)=
# ## The soft margin
#
# Real data are rarely separable, and even when they are, one outlier can tilt the maximum-margin
# hyperplane. Slack variables $\xi_i \ge 0$ let a point violate its margin at a price $C$ per
# unit:
#
# $$
# \min_{w, b, \xi} \; \tfrac12 \|w\|^2 + C \sum_i \xi_i \quad \text{s.t.} \quad
# y_i (w^\top x_i + b) \ge 1 - \xi_i, \quad \xi_i \ge 0 .
# $$ (def-soft-primal)
#
# For fixed $(w, b)$ each $\xi_i$ appears in one constraint pair only, and the smallest
# feasible value is optimal:
#
# $$
# \xi_i = \max\big(0, 1 - y_i f(x_i)\big) .
# $$ (eq-slack)
#
# The check solves the linear program in $\xi$ for random $(w, b)$.

# %%
claims.verify("eq-slack")

# %% [markdown]
# With multipliers $\alpha_i \ge 0$ for the margin constraints and $r_i \ge 0$ for
# $\xi_i \ge 0$, stationarity in $w$ and $b$ is as before, and in $\xi_i$ it gives
# $C - \alpha_i - r_i = 0$. As $r_i \ge 0$, this only caps $\alpha_i$; the $\xi_i$ drop out of
# the Lagrangian, and the dual is the hard-margin dual inside a box:
#
# $$
# \begin{gathered}
# \max_{\alpha} \; \sum_i \alpha_i - \frac12 \sum_{i,k} \alpha_i \alpha_k y_i y_k K_{ik} \\
# \text{s.t.} \quad 0 \le \alpha_i \le C, \quad \sum_i \alpha_i y_i = 0 .
# \end{gathered}
# $$ (eq-soft-dual)
#
# The check solves it with SMO for several $C$ and compares with the primal objective at the
# rebuilt $(w, b)$ and the slacks {eq}`eq-slack`: the duality gap is zero.

# %%
claims.verify("eq-soft-dual")

# %% [markdown]
# ```{admonition} Erratum (notes 003, section 1.6)
# :class: warning
# The boxed soft-margin dual in notes 003 lost the linear term $-\sum_i \alpha_i$ and the
# constraint $\sum_i \alpha_i y_i = 0$. As printed, its minimum is $\alpha = 0$ for any data.
# ```
#
# **The three kinds of points.** Complementary slackness now reads
# $\alpha_i (y_i f(x_i) - 1 + \xi_i) = 0$ and $r_i \xi_i = (C - \alpha_i) \xi_i = 0$. Hence
#
# $$
# \begin{aligned}
# \alpha_i = 0 &\;\Rightarrow\; y_i f(x_i) \ge 1, \\
# 0 < \alpha_i < C &\;\Rightarrow\; y_i f(x_i) = 1, \\
# \alpha_i = C &\;\Rightarrow\; y_i f(x_i) \le 1 .
# \end{aligned}
# $$ (eq-three-kinds)
#
# Points with $\alpha_i = 0$ are outside the margin (or on it) and do not affect the solution.
# **Margin support vectors**, $0 < \alpha_i < C$, lie exactly on the margin with $\xi_i = 0$;
# the bias is computed from them. **Violating support vectors**, $\alpha_i = C$, are inside the
# margin with $\xi_i = 1 - y_i f(x_i) \ge 0$; they are misclassified when $\xi_i > 1$.

# %%
claims.verify("eq-three-kinds")

# %% [markdown]
# Versicolor against virginica on the two petal measurements overlap: a soft margin with
# $C = 1$ ({numref}`fig-soft-margin-iris`).

# %%
m12 = iris.y > 0
X_pt = iris.X[m12][:, 2:]  # petal length, petal width (cm)
y_pt = np.where(iris.y[m12] == 1, -1.0, 1.0)  # versicolor -1, virginica +1
soft = svm.smo(X_pt, y_pt, C=1.0, kernel="linear", tol=1e-10)
M_soft = y_pt * soft.decision_function(X_pt)
xi = np.maximum(0.0, 1 - M_soft)
a = soft.alpha
kinds = {
    "alpha = 0 (not a support vector)": a == 0,
    "0 < alpha < C (margin support vector)": (a > 0) & (a < soft.C),
    "alpha = C, xi <= 1 (inside the margin)": (a == soft.C) & (xi <= 1),
    "alpha = C, xi > 1 (misclassified)": (a == soft.C) & (xi > 1),
}
for name, mask in kinds.items():
    print(f"{name:42s} {mask.sum():3d} points")
margin_sv = kinds["0 < alpha < C (margin support vector)"]
assert xi[margin_sv].max() < 1e-9
print(
    f"margin support vectors: xi < 1e-9 (zero up to rounding), alpha = {a[margin_sv]}"
)

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "The soft-margin SVM ($C = 1$) on versicolor against virginica (petal measurements), with the margin lines $f(x) = \\pm 1$; the legend gives each point's role in the solution.", "name": "fig-soft-margin-iris"}, "image": {"alt": "Overlapping classes with a separating line, margin lines and points styled by their role."}} tags=["hide-input"]
fig, ax = plt.subplots()
plots.decision_regions(ax, soft.decision_function, X_pt, y_pt, levels=(-1.0, 0.0, 1.0))
styles = [("#bbbbbb", "o"), ("#1b9e77", "o"), ("#d95f02", "o"), ("#7570b3", "X")]
for (name, mask), (colour, marker) in zip(kinds.items(), styles, strict=True):
    ax.scatter(
        *X_pt[mask].T,
        s=70,
        c=colour,
        marker=marker,
        edgecolor="k",
        linewidth=0.5,
        label=name,
    )
ax.set(
    xlabel="petal length (cm)",
    ylabel="petal width (cm)",
    title="Soft margin, C = 1: versicolor (-1) vs virginica (+1)",
)
ax.legend(loc="upper left", fontsize=8)
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-soft-margin-iris
# The soft-margin SVM ($C = 1$) on versicolor against virginica (petal measurements), with the margin lines $f(x) = \pm 1$; the legend gives each point's role in the solution.
# :::

# %% [markdown]
# Repeated measurements overlap in the plot: the data hold several identical points.
#
# ```{admonition} Erratum (notes 002, "Classification of training objects")
# :class: warning
# The slide writes $\alpha_i = 0 \Leftrightarrow \xi_i = 0 \Leftrightarrow y_i f(x_i) \ge 1$ and
# $\xi_i > 0 \Leftrightarrow \alpha_i = C$. Only one direction of each holds: the margin support
# vectors above have $\xi_i = 0$ and $y_i f(x_i) = 1$ but $\alpha_i > 0$.
# ```
#
# Nor does a point on the margin need $\alpha_i < C$. Take two points $x_\pm$ with labels
# $\pm 1$, $\Delta = x_+ - x_-$, and $C = 2/\|\Delta\|^2$, the value the hard margin gives their
# multipliers; add points farther out on either side. Then
#
# $$
# \begin{aligned}
# &w = \frac{2\Delta}{\|\Delta\|^2}, \quad \alpha_\pm = C, \quad \xi_\pm = 0, \quad
# y_\pm f(x_\pm) = 1, \\
# &\alpha_i = 0,\ \xi_i = 0,\ y_i f(x_i) > 1 \text{ elsewhere}
# \end{aligned}
# $$ (eq-margin-at-bound)
#
# satisfies every KKT condition, so it is the optimum (the unique one: the pair's multipliers
# are fixed by $w = \alpha(x_+ - x_-)$). The pair lies on the margin with $\alpha_i = C$, hence
# $r_i = C - \alpha_i = 0$. In the slide's "boundary support vectors have $\xi_i = 0$
# ($\Leftrightarrow r_i > 0 \Leftrightarrow \alpha_i \in (0, C) \Leftrightarrow y_i f(x_i) = 1$)",
# $\alpha_i \in (0, C)$ implies the others, but $\xi_i = 0$ and $y_i f(x_i) = 1$ do not imply it.

# %%
claims.verify("eq-margin-at-bound")

# %% [markdown]
# (sec-svm-hinge)=
# ### Hinge loss and ridge penalty
#
# Substituting the optimal slacks {eq}`eq-slack` into {eq}`def-soft-primal` and dividing by $C$
# removes the constraints:
#
# $$
# \min_{w, b} \; J(w, b) = \sum_i \max\big(0, 1 - y_i f(x_i)\big) + \lambda \|w\|^2,
# \qquad \lambda = \frac{1}{2C} .
# $$ (eq-hinge-form)
#
# The soft-margin SVM is $\ell_2$-regularised empirical risk minimisation with the hinge loss
# `mlnotes.losses.hinge` of Chapter 3. The check certifies that the SMO solution minimises
# {eq}`eq-hinge-form`: with $\beta_i = \alpha_i / C$, the subgradient
# $2\lambda w - \sum_i \beta_i y_i x_i$ vanishes and each $\beta_i$ is a valid derivative of
# the hinge at $M_i$ ($1$ inside the margin, $0$ outside, anything in $[0, 1]$ on it) ({numref}`fig-hinge-loss`).

# %%
claims.verify("eq-hinge-form")

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "The hinge loss $\\max(0, 1 - M)$ and the logistic loss in bits, both above the zero-one loss of the margin $M$.", "name": "fig-hinge-loss"}, "image": {"alt": "A piecewise-linear hinge, a smooth logistic curve and a step function against the margin."}} tags=["hide-input"]
M_grid = np.linspace(-2, 3, 501)
fig, ax = plt.subplots()
ax.plot(M_grid, (M_grid <= 0).astype(float), "k", lw=1, label="zero-one")
ax.plot(M_grid, hinge(M_grid), label=r"hinge $\max(0, 1 - M)$")
ax.plot(M_grid, logistic(M_grid), label=r"logistic $\log_2(1 + e^{-M})$")
ax.set(xlabel="margin $M = y f(x)$", ylabel="loss", ylim=(-0.1, 3.1),
       title="The hinge is exactly zero beyond the margin")
ax.legend()
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-hinge-loss
# The hinge loss $\max(0, 1 - M)$ and the logistic loss in bits, both above the zero-one loss of the margin $M$.
# :::

# %% [markdown]
# Against the logistic loss of Chapter 2, the hinge is zero for $M \ge 1$: points beyond the
# margin contribute nothing to the gradient, which is why the solution is sparse in $\alpha$.
# The logistic loss never vanishes, so every point keeps a (shrinking) say, and in return it
# estimates probabilities, which the hinge does not.
#
# **A probabilistic reading.** Minimising {eq}`eq-hinge-form` is maximising
# $\exp(-\sum_i [1 - y_i f(x_i)]_+) \cdot \exp(-\|w\|^2 / (2C))$: a Gaussian prior
# $w \sim \mathcal N(0, C I)$ times a "likelihood" $e^{-[1 - y f]_+}$. That second factor is not
# a probability of $y$: summed over $y = \pm 1$ it gives $Z(f) = e^{-[1 - f]_+} + e^{-[1 + f]_+}$,
# which depends on $f$ {cite}`sollich2002bayesian`. The reading is a useful analogy, not a model:
#
# $$
# \sum_{y = \pm 1} e^{-[1 - y f]_+} = e^{-[1 - f]_+} + e^{-[1 + f]_+}
# = \begin{cases} 2/e, & f = 0, \\ 1 + e^{-1 - |f|}, & |f| \ge 1 . \end{cases}
# $$ (eq-hinge-normaliser)

# %%
claims.verify("eq-hinge-normaliser")

# %%
for f_val in (0.0, 0.5, 1.0, 3.0):
    Z = np.exp(-hinge(f_val)) + np.exp(-hinge(-f_val))
    print(f"f = {f_val:3.1f}:  Z(f) = {Z:.4f}")

# %% [markdown]
# **Kernels.** The dual and the decision function use the data only through inner products.
# Replacing $x$ by features $\phi(x)$ replaces $K_{ik} = x_i^\top x_k$ by
# $k(x_i, x_k) = \phi(x_i)^\top \phi(x_k)$, and with $w = \sum_i \alpha_i y_i \phi(x_i)$,
#
# $$
# f(x) = w^\top \phi(x) + b = \sum_i \alpha_i y_i\, k(x_i, x) + b ,
# $$ (eq-kernel-decision)
#
# so $\phi$ never has to be computed (Chapter 5 is about which $k$ are allowed). The check uses
# the polynomial kernel $(\gamma x^\top z + c_0)^2$, whose feature map is small enough to write.

# %%
claims.verify("eq-kernel-decision")

# %% [markdown]
# **The effect of C.** Small $C$ (large $\lambda$) buys a wide margin with many violations;
# large $C$ approaches the hard margin and follows individual points. With an RBF kernel
# $k(x, x') = e^{-\gamma\|x - x'\|^2}$ the boundary bends ({numref}`fig-effect-of-C`):

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "The effect of $C$ with an RBF kernel on the petal data: small $C$ gives a wide margin with many support vectors and a smooth boundary, large $C$ follows individual points.", "name": "fig-effect-of-C"}, "image": {"alt": "Three panels of the same data with curved decision boundaries, smoother on the left, more contorted on the right."}} tags=["hide-input"]
X_pts = (X_pt - X_pt.mean(0)) / X_pt.std(0)
# three panels share the column (about 65 % of the figure's width): larger type keeps
# the labels legible
with plt.rc_context({"font.size": 13}):
    fig, axes = plt.subplots(1, 3, figsize=(10.5, 4.0), sharey=True)
    for ax, C in zip(axes, (0.05, 1.0, 100.0), strict=True):
        fit = svm.smo(X_pts, y_pt, C=C, kernel="rbf", gamma=1.0, tol=1e-6)
        plots.decision_regions(
            ax,
            fit.decision_function,
            X_pts,
            y_pt,
            levels=(-1.0, 0.0, 1.0),
            resolution=120,
        )
        ax.scatter(
            *X_pts[fit.support].T,
            s=60,
            facecolors="none",
            edgecolors="k",
            linewidths=0.7,
        )
        err = np.mean(fit.predict(X_pts) != y_pt)
        ax.set(
            title=f"C = {C:g}\n{fit.support.size} SVs, train error {err:.2f}",
            xlabel="petal length (std.)",
            ylabel="",
        )
    axes[0].set_ylabel("petal width (std.)")
    plt.tight_layout()
    plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-effect-of-C
# The effect of $C$ with an RBF kernel on the petal data: small $C$ gives a wide margin with many support vectors and a smooth boundary, large $C$ follows individual points.
# :::

# %% [markdown]
# (sec-svm-squared-slack)=
# ### Squared slacks
#
# The hinge charges $C\xi_i$ for a slack, and the notes remark that other penalties are
# possible, such as $C\sum_i \xi_i^2$. The *squared-slack* (L2) SVM is
#
# $$
# \begin{gathered}
# \min_{w, b, \xi}\ \frac12\|w\|^2 + C\sum_i \xi_i^2 \\
# \text{subject to } y_i(w^\top x_i + b) \ge 1 - \xi_i \text{ for all } i,
# \end{gathered}
# $$ (def-l2svm-primal)
#
# with no constraint $\xi_i \ge 0$: a negative slack only adds to the penalty, so at the
# optimum $\xi_i = [1 - y_i f(x_i)]_+$ and the problem is the squared hinge,
# $\frac12\|w\|^2 + C\sum_i [1 - y_i f(x_i)]_+^2$, differentiable in $(w, b)$. With
# multipliers $\alpha_i \ge 0$ the Lagrangian is
# $\frac12\|w\|^2 + C\sum_i\xi_i^2 - \sum_i \alpha_i (y_i f(x_i) - 1 + \xi_i)$. Its
# derivatives give $w = \sum_i \alpha_i y_i x_i$ and $\sum_i \alpha_i y_i = 0$ as for the hinge,
# and now $2C\xi_i = \alpha_i$. Substituting, the slack terms leave
# $C\sum_i\xi_i^2 - \sum_i \alpha_i\xi_i = -\sum_i \alpha_i^2/(4C)$, and the dual is
#
# $$
# \begin{gathered}
# \max_\alpha\ \sum_i \alpha_i - \frac12 \sum_{i,k} \alpha_i \alpha_k y_i y_k
# \Big(K_{ik} + \frac{\delta_{ik}}{2C}\Big) \\
# \text{subject to } \alpha_i \ge 0,\ \sum_i \alpha_i y_i = 0 :
# \end{gathered}
# $$ (eq-l2svm-dual)
#
# the hard-margin dual {eq}`eq-hard-dual` on the kernel $K + I/(2C)$, with no upper bound on
# $\alpha$ (the hinge's box $\alpha_i \le C$ came from the multiplier of $\xi_i \ge 0$, which
# is gone). $K + I/(2C)$ is positive definite, so in its feature space every labelling is
# separable and the dual has exactly one solution. Complementary slackness,
# $\alpha_i (y_i f(x_i) - 1 + \xi_i) = 0$ with $\xi_i = \alpha_i / (2C)$, gives the KKT
# conditions (with $f$ on the original kernel, $f(x) = \sum_i \alpha_i y_i k(x_i, x) + b$):
#
# $$
# \alpha_i > 0 \Rightarrow y_i f(x_i) = 1 - \frac{\alpha_i}{2C}, \qquad
# \alpha_i = 0 \Rightarrow y_i f(x_i) \ge 1 .
# $$ (eq-l2svm-kkt)
#
# Every support vector violates the margin, by $\alpha_i/(2C)$: there are no support vectors
# exactly on it. The checks solve {eq}`eq-l2svm-dual` with `smo` on the precomputed
# $K + I/(2C)$ (with a box $C = 10^6$ that is never reached) on random problems, compare its
# maximum with the primal value at $w = \sum_i \alpha_i y_i x_i$ (zero gap), and test
# {eq}`eq-l2svm-kkt` at every sample. The tests of `mlnotes.svm` solve the same problem on
# `heart_scale` and find liblinear's squared-hinge optimum (scikit-learn's
# `LinearSVC(loss="squared_hinge")`) to $10^{-9}$.

# %%
claims.verify("eq-l2svm-dual")

# %%
claims.verify("eq-l2svm-kkt")

# %% [markdown]
# Hinge against squared slack on `heart_scale` (180 patients to train, 90 to test, a linear
# kernel): the squared penalty spreads the weight over more violators, so it keeps more
# support vectors, and its test accuracy is about the same.

# %%
hs_l2 = load_heart_scale()
perm_l2 = np.random.default_rng(4).permutation(len(hs_l2.y))
tr_l2, te_l2 = perm_l2[:180], perm_l2[180:]
X_tr, y_tr = hs_l2.X[tr_l2], hs_l2.y[tr_l2]
print("    C   penalty       support vectors   test accuracy")
for C in (0.1, 1.0):
    fit_h = svm.smo(X_tr, y_tr, C=C, kernel="linear", tol=1e-6)
    K_l2 = X_tr @ X_tr.T + np.eye(len(y_tr)) / (2 * C)
    fit_sq = svm.smo(K_l2, y_tr, C=1e6, kernel="precomputed", tol=1e-6)
    w_sq = (fit_sq.alpha * y_tr) @ X_tr
    f_sq = hs_l2.X[te_l2] @ w_sq + fit_sq.b
    acc_h = np.mean(fit_h.predict(hs_l2.X[te_l2]) == hs_l2.y[te_l2])
    acc_sq = np.mean(np.where(f_sq >= 0, 1.0, -1.0) == hs_l2.y[te_l2])
    print(f"{C:5.1f}   hinge         {fit_h.support.size:15d}   {acc_h:13.3f}")
    print(f"{C:5.1f}   squared       {fit_sq.support.size:15d}   {acc_sq:13.3f}")

# %% [markdown]
# (sec-svm-editing)=
# ### Editing the training set
#
# The notes suggest another remedy for noise: solve, remove the
# objects with the lowest margins $y_i f(x_i)$ (the ones the machine finds most wrong), and
# solve again. A short measured experiment on the same split, with the hinge SVM ($C = 1$):
# remove the 5% or 10% of training points of lowest margin and retrain.

# %%
fit_all = svm.smo(X_tr, y_tr, C=1.0, kernel="linear", tol=1e-6)
margins_tr = y_tr * fit_all.decision_function(X_tr)
print(" removed   training points   test accuracy")
for share in (0.0, 0.05, 0.10):
    keep = np.argsort(margins_tr)[int(round(share * len(y_tr))):]
    fit_e = svm.smo(X_tr[keep], y_tr[keep], C=1.0, kernel="linear", tol=1e-6)
    acc_e = np.mean(fit_e.predict(hs_l2.X[te_l2]) == hs_l2.y[te_l2])
    print(f"{share:8.0%}   {keep.size:15d}   {acc_e:13.3f}")

# %% [markdown]
# It does not help here: removing the 9 lowest-margin points (5%) leaves the test accuracy
# where it was, removing 18 (10%) costs one more test error out of 90. The points removed are
# not necessarily mislabelled, and the hinge already caps each one's influence at
# $\alpha_i \le C$; a single split of 90 test points cannot resolve differences of one or two
# errors anyway (Chapter 7 puts an interval around such a number).

# %% [markdown]
# (sec-svm-solvers)=
# ## Solvers
#
# ### Subgradient methods in the primal
#
# The hinge form {eq}`eq-hinge-form` is convex but not differentiable where $M_i = 1$. A
# **subgradient** of a convex $P$ at $u$ is any $g$ with $P(u') \ge P(u) + g^\top (u' - u)$ for
# all $u'$. For $P(w, b) = \frac12\|w\|^2 + C\sum_i [1 - y_i f(x_i)]_+$, with
# $V = \{i : y_i f(x_i) < 1\}$,
#
# $$
# g = \Big(w - C \sum_{i \in V} y_i x_i, \; -C \sum_{i \in V} y_i \Big) \in \partial P(w, b) .
# $$ (eq-hinge-subgradient)

# %%
claims.verify("eq-hinge-subgradient")

# %% [markdown]
# The subgradient method steps $u \leftarrow u - \eta_t g_t$ with $\eta_t \propto 1/\sqrt t$
# (`mlnotes.svm.subgradient_svm`). A subgradient need not be a descent direction, so it
# keeps the best iterate; its error decreases like $1/\sqrt t$. Each step touches all $n$ samples.
#
# **Pegasos** {cite}`shalevshwartz2011pegasos` samples a batch $A_t$ and uses the strong
# convexity of $\frac\lambda2\|w\|^2 + \frac1n\sum_i [1 - y_i w^\top x_i]_+$ (with
# $\lambda = 1/(nC)$, the same minimiser as $P$) to take steps $\eta_t = 1/(\lambda t)$. With
# $A_t^+$ the samples of the batch inside the margin, the step is
# $w_{t+1} = (1 - \frac1t) w_t + \frac{1}{\lambda t |A_t|} \sum_{i \in A_t^+} y_i x_i$, and
# unrolling it (the factors $(1 - 1/s)$ telescope) gives
#
# $$
# w_{t+1} = \frac{1}{\lambda t} \sum_{s=1}^{t} \frac{1}{|A_s|} \sum_{i \in A_s^+} y_i x_i :
# $$ (eq-pegasos-step)
#
# the iterate is an average of the data terms so far, which is why the last iterates are so
# noisy and why averaging the second half of them helps. Pegasos also projects onto the ball
# $\|w\| \le 1/\sqrt\lambda$, which contains the optimum.

# %%
claims.verify("eq-pegasos-step")

# %% [markdown]
# (sec-svm-pegasos-rate)=
# ### Pegasos' guarantee
#
# Write $f(w) = \frac\lambda2\|w\|^2 + \frac1n\sum_i [1 - y_i w^\top x_i]_+$ (a constant
# feature in $x$ plays the bias, as in Pegasos) and $f_A$ for the same with the mean over a
# batch $A$ only. The assumptions:
#
# - each batch $A_t$ is drawn uniformly at random, independently of the past, so
#   $\E_{A} f_A(w) = f(w)$;
# - $g_t = \lambda w_t - \frac{1}{|A_t|}\sum_{i \in A_t^+} y_i x_i$ is a subgradient of
#   $f_{A_t}$ at $w_t$, and $f_{A_t}$ is $\lambda$-strongly convex (a hinge plus
#   $\frac\lambda2\|w\|^2$);
# - every iterate is projected onto the ball $\|w\| \le 1/\sqrt\lambda$, which contains the
#   minimiser $w^*$ {cite}`shalevshwartz2011pegasos`; so $\|g_t\| \le G = \sqrt\lambda + R$,
#   $R = \max_i \|x_i\|$;
# - the steps are $\eta_t = 2/(\lambda(t+1))$ and the output is the average weighted by $t$,
#   $\bar w_T = \frac{2}{T(T+1)}\sum_{t \le T} t\, w_t$ {cite}`lacostejulien2012simpler`
#   (`svm.pegasos(..., schedule="weighted")`).
#
# ```{prf:theorem}
# :label: thm-pegasos-rate
# Under these assumptions, after $T$ steps $\E f(\bar w_T) - f(w^*) \le 2G^2/(\lambda(T+1))$.
# ```
#
# ```{prf:proof}
# *One step.* Projecting onto a convex set that contains $u$ brings a point no farther from
# $u$, so $\|w_{t+1} - u\|^2 \le \|w_t - \eta_t g_t - u\|^2 = \|w_t - u\|^2 - 2\eta_t
# g_t^\top(w_t - u) + \eta_t^2\|g_t\|^2$ for every $u$ in the ball. Strong convexity gives
# $f_{A_t}(u) \ge f_{A_t}(w_t) + g_t^\top(u - w_t) + \frac\lambda2\|u - w_t\|^2$. Eliminating
# $g_t^\top(w_t - u)$ between the two,
#
# $$
# \begin{aligned}
# f_{A_t}(w_t) - f_{A_t}(u) \le{}& \Big(\frac{1}{2\eta_t} - \frac\lambda2\Big)\|w_t - u\|^2 \\
# &- \frac{1}{2\eta_t}\|w_{t+1} - u\|^2 + \frac{\eta_t}{2}\|g_t\|^2.
# \end{aligned}
# $$ (eq-pegasos-one-step)
#
# *Telescoping.* Multiply by $t$. With $\eta_t = 2/(\lambda(t+1))$ the two distance terms
# become $a_t - a_{t+1}$ with $a_t = \frac{\lambda}{4}t(t-1)\|w_t - u\|^2$, which sum to
# $a_1 - a_{T+1} \le 0$ since $a_1 = 0$; and $t\eta_t/2 = t/(\lambda(t+1)) < 1/\lambda$:
#
# $$
# \sum_{t \le T} t\,\big(f_{A_t}(w_t) - f_{A_t}(u)\big) \le \sum_{t \le T} \frac{t\eta_t}{2}
# \|g_t\|^2 \le \frac{T G^2}{\lambda}.
# $$ (eq-pegasos-telescoped)
#
# *Expectation.* $w_t$ depends on $A_1, \dots, A_{t-1}$ only, so
# $\E f_{A_t}(w_t) = \E f(w_t)$, and the same for $u = w^*$. Divide by
# $\sum_t t = T(T+1)/2$ and use the convexity of $f$ (Jensen) on the weighted average:
#
# $$
# \begin{aligned}
# \E f(\bar w_T) - f(w^*)
# &\le \frac{2}{T(T+1)} \sum_{t \le T} t\,\E\big(f(w_t) - f(w^*)\big) \\
# &\le \frac{2G^2}{\lambda(T+1)}.
# \end{aligned}
# $$ (eq-pegasos-rate)
# ```
#
# The first two steps hold on every path, for every $u$ in the ball, and are checked at every
# step of random runs; the last is checked against a certified optimum: the mean of five runs
# of `pegasos(schedule="weighted")` against the bound, with $f(w^*)$ replaced by a dual value
# whose duality gap is below $10^{-6}$ (by weak duality a lower bound, so the check can only
# be stricter).

# %%
claims.verify("eq-pegasos-one-step")

# %%
claims.verify("eq-pegasos-telescoped")

# %%
claims.verify("eq-pegasos-rate")

# %% [markdown]
# The bound is in expectation and for the average, and it is loose: on `heart_scale`
# ({ref}`sec-svm-real-data`) after 60 epochs it allows a suboptimality of more than $P^*$
# itself, where the run is within 2% of it. What it gives is the rate: the number of steps
# for accuracy $\epsilon$ is $O(G^2/(\lambda\epsilon))$, independent of $n$. The library's default, steps $1/(\lambda t)$ with the second half of the iterates
# averaged, has a rate of the same order with a longer proof; the plain average of all iterates
# loses a factor $\log T$ ({ref}`ex-pegasos-uniform-average`).

# %% [markdown]
# (sec-svm-smo)=
# ### SMO: the dual, two coordinates at a time
#
# Write the dual {eq}`eq-soft-dual` as a minimisation, $f(\alpha) = \frac12 \alpha^\top Q \alpha -
# \sum_i \alpha_i$ with $Q_{ik} = y_i y_k K_{ik}$, and let $G = Q\alpha - 1$ be its gradient.
# The equality constraint forbids moving one coordinate alone, but a pair can move along
# $\alpha_i \to \alpha_i + y_i s$, $\alpha_j \to \alpha_j - y_j s$, which keeps
# $\sum_i \alpha_i y_i$ fixed {cite}`platt1998sequential`. Along that line
# $f$ changes by $-b_{ij} s + \frac12 a_{ij} s^2$ with
# $b_{ij} = -y_i G_i + y_j G_j$ and $a_{ij} = K_{ii} + K_{jj} - 2K_{ij} \ge 0$, so the best step
# is $s = b_{ij} / a_{ij}$, clipped to keep both coordinates in $[0, C]$:
#
# $$
# \begin{gathered}
# s^* = \operatorname{clip}\big(b_{ij} / a_{ij}\big) \quad \text{minimises} \\
# f(\alpha + s\,(y_i e_i - y_j e_j)) \text{ over the feasible segment.}
# \end{gathered}
# $$ (eq-smo-step)

# %%
claims.verify("eq-smo-step")

# %% [markdown]
# **Which pair?** Write $v_t = -y_t G_t$ and split the indices by the direction in which
# $y_t\alpha_t$ may still move: $I_{up} = \{t : y_t\alpha_t \text{ can increase}\}$ and
# $I_{low} = \{t : y_t \alpha_t \text{ can decrease}\}$. The KKT conditions of the dual are
# equivalent to
#
# $$
# m(\alpha) = \max_{t \in I_{up}} v_t \;\le\; M(\alpha) = \min_{t \in I_{low}} v_t ,
# $$ (eq-kkt-pair)
#
# (the bias is any number between them), and $m(\alpha) - M(\alpha)$ measures the remaining
# violation: SMO stops when it is below `tol`. The check compares SMO stopped this way with an
# independent QP solver.

# %%
claims.verify("eq-kkt-pair")

# %% [markdown]
# libsvm's rule {cite}`fan2005working` picks $i = \argmax_{I_{up}} v_t$ and then, among the
# $t \in I_{low}$ with $v_t < v_i$, the one with the largest guaranteed decrease of the
# unclipped step:
#
# $$
# f(\alpha) - f(\alpha^{\text{new}}) = \frac{b_{it}^2}{2 a_{it}}, \qquad
# j = \argmax_{t \in I_{low},\, v_t < v_i} \frac{b_{it}^2}{a_{it}} .
# $$ (eq-wss2)
#
# This second-order choice needs only row $i$ of $K$, which the step needs anyway.

# %%
claims.verify("eq-wss2")

# %% [markdown]
# Every step lowers $f$, so the dual objective $D = -f$ increases monotonically. To watch the
# duality gap we rebuild, after every step, the bias from the KKT conditions and the primal
# objective $P$ at the current $(w, b)$: by weak duality $P \ge D$, and both meet at the optimum.
# The data: breast cancer (standardised), RBF kernel, $C = 1$ ({numref}`fig-smo-duality-gap`).

# %%
bc = load_breast_cancer()
X_bc = (bc.X - bc.X.mean(0)) / bc.X.std(0)
y_bc = 2.0 * bc.y - 1.0
gamma_bc = 1.0 / X_bc.shape[1]
K_bc = kernels.rbf_kernel(X_bc, gamma=gamma_bc)
primal_trace = []


def record_primal(t, alpha):
    v = alpha * y_bc
    G = y_bc * (K_bc @ v) - 1.0
    b = svm.bias_from_gradient(alpha, y_bc, G, 1.0)
    primal_trace.append(svm.primal_objective(alpha, b, y_bc, K_bc, 1.0))


fit_bc = svm.smo(
    X_bc,
    y_bc,
    C=1.0,
    kernel="rbf",
    gamma=gamma_bc,
    tol=1e-6,
    shrinking=False,
    callback=record_primal,
)
D_bc = fit_bc.dual_objective[1:]
P_bc = np.array(primal_trace)
print(
    f"{fit_bc.n_iter} iterations, converged: {fit_bc.converged}, support vectors: "
    f"{fit_bc.support.size}"
)
print(
    f"final dual {fit_bc.dual:.6f}, primal {P_bc[-1]:.6f}, gap "
    f"{P_bc[-1] - fit_bc.dual:.1e}"
)
print(
    f"dual monotone: {bool(np.all(np.diff(fit_bc.dual_objective) >= 0))}, "
    f"primal >= dual throughout: {bool(np.all(P_bc >= D_bc - 1e-9))}"
)
print(f"training accuracy {np.mean(fit_bc.predict(X_bc) == y_bc):.4f}")

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "SMO on the breast cancer data (RBF kernel, $C = 1$). Left: the primal $P$ and the dual $D$ meet at the optimum. Right: the duality gap $P - D$ and the KKT violation $m - M$ fall together.", "name": "fig-smo-duality-gap"}, "image": {"alt": "Left panel two objective curves converging; right panel two decreasing curves on a log scale."}} tags=["hide-input"]
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
it = np.arange(1, fit_bc.n_iter + 1)
ax1.plot(it, P_bc, label="primal $P$")
ax1.plot(it, D_bc, label="dual $D$")
ax1.set(
    xlabel="SMO iteration",
    ylabel="objective",
    ylim=(0, 2 * fit_bc.dual),
    title="Weak duality: $P \\geq D$",
)
ax1.legend()
ax2.semilogy(it, P_bc - D_bc, label="duality gap $P - D$")
ax2.semilogy(
    np.arange(fit_bc.violation.size), fit_bc.violation, label="KKT violation $m - M$"
)
ax2.set(xlabel="SMO iteration", title="Both go to zero")
ax2.legend()
plt.tight_layout()
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-smo-duality-gap
# SMO on the breast cancer data (RBF kernel, $C = 1$). Left: the primal $P$ and the dual $D$ meet at the optimum. Right: the duality gap $P - D$ and the KKT violation $m - M$ fall together.
# :::

# %% [markdown]
# The primal curve is jagged (the bias and the hinge terms jump as points cross the margin), the
# dual rises smoothly: SMO is a descent method on the dual only.
#
# (sec-svm-real-data)=
# ### The solvers on real data
#
# LIBSVM's documentation prints the result of its default run on `heart_scale` (RBF kernel with
# $\gamma = 1/13$, $C = 1$, stopping tolerance $10^{-3}$): dual objective $-100.877288$ as a
# minimisation, $\rho = 0.424462$ (so $b = -\rho$), 132 support vectors of which 107 are bounded
# {cite}`chang2011libsvm`. Our SMO with the same stopping rule:

# %%
hs = load_heart_scale()
fit_hs = svm.smo(hs.X, hs.y, C=1.0, kernel="rbf", gamma=1 / 13, tol=1e-3)
fit_hs_exact = svm.smo(hs.X, hs.y, C=1.0, kernel="rbf", gamma=1 / 13, tol=1e-9)
n_bounded = int(np.sum(fit_hs.alpha == 1.0))
# At tol 1e-3 the last digits of the objective and of rho depend on the path the solver
# took
# (on another machine it may take another), so they are compared, not printed; the
# optimum
# (tol 1e-9) is printed to the digits it determines.
print(
    f"optimum (tol 1e-9): obj = {-fit_hs_exact.dual:.5f}, rho = {-fit_hs_exact.b:.5f}, "
    f"nSV = {fit_hs_exact.support.size}, nBSV = "
    f"{int(np.sum(fit_hs_exact.alpha == 1.0))}"
)
print(
    f"tol 1e-3: nSV = {fit_hs.support.size}, nBSV = {n_bounded}; objective within 1e-6 "
    f"of the optimum (relative): "
    f"{abs(fit_hs.dual - fit_hs_exact.dual) <= 1e-6 * abs(fit_hs_exact.dual)};\n"
    f"rho within 1e-4: {abs(fit_hs.b - fit_hs_exact.b) <= 1e-4}"
)
print(
    "LIBSVM (tol 1e-3, its documentation): obj = -100.877288, rho = 0.424462,\n"
    "nSV = 132, nBSV = 107"
)

# %% [markdown]
# The tests of `mlnotes.svm` go further and run scikit-learn's `SVC` (which is libsvm) side by
# side: same dual objective to $10^{-6}$, same support vectors, same decision values, on three
# data sets and two kernels.
#
# In the primal, the three solvers on the linear SVM of `heart_scale` with $C = 1$: the SMO
# optimum is the reference (its dual value equals the primal minimum), and we follow the
# suboptimality of the subgradient method (per full pass over the data) and of Pegasos (per
# epoch of single-sample steps; it averages the iterates of the second half of its run, so the
# first half of its curve is the noisy last iterate). Pegasos here uses a regularised bias, as liblinear does: the
# bias is the weight of a constant feature appended to $x$, and there is no separate $b$. Its
# curve is measured against the optimum of that slightly different problem, whose dual has the
# box constraints only (no $\sum_i \alpha_i y_i = 0$, see {ref}`ex-svm-no-bias`). scipy's
# bound-constrained L-BFGS-B solves that dual; a quasi-Newton method can stop early, so the
# reference certifies itself: it restarts until the primal value at its $w$ exceeds its dual value
# by less than $10^{-8}$ of the optimum, and raises otherwise. Since every dual value bounds the
# primal minimum from below (weak duality), $P^*$ is then known to that accuracy ({numref}`fig-primal-methods`).

# %%
from scipy.optimize import minimize


def box_dual_reference(Xa, y, C, gap_tol=1e-8, restarts=5):
    """The regularised-bias SVM's dual, min 1/2 |B^T a|^2 - sum(a) over 0 <= a <= C
    with rows B_i = y_i xa_i, by scipy's bound-constrained L-BFGS-B, restarted from its
    last point (a fresh curvature model) until the duality gap certifies it:
    P(w) - D(a) <= gap_tol P(w), with w = B^T a (the regularised bias is its last
    entry). Returns w and P(w)."""
    B = y[:, None] * Xa
    a = np.zeros(len(y))
    for _ in range(restarts):
        a = minimize(
            lambda a: (0.5 * (B.T @ a) @ (B.T @ a) - a.sum(), B @ (B.T @ a) - 1.0),
            a,
            jac=True,
            method="L-BFGS-B",
            bounds=[(0.0, C)] * len(y),
            options={"ftol": 1e-16, "gtol": 1e-12, "maxcor": 50, "maxiter": 10_000},
        ).x
        w = B.T @ a
        P = svm.hinge_objective(w[:-1], w[-1], Xa[:, :-1], y, C, regularise_bias=True)
        gap = P - (a.sum() - 0.5 * w @ w)  # >= 0 by weak duality
        if gap <= gap_tol * P:
            return w, P
    raise RuntimeError(
        f"no certified reference: relative duality gap {gap / P:.1e} > {gap_tol:g}"
    )


fit_lin = svm.smo(hs.X, hs.y, C=1.0, kernel="linear", tol=1e-9)
Xa = np.column_stack(
    [hs.X, np.ones(len(hs.y))]
)  # regularised bias = weight of a constant feature
_, P_reg = box_dual_reference(Xa, hs.y, 1.0)  # raises unless its duality gap is < 1e-8
sub = svm.subgradient_svm(hs.X, hs.y, C=1.0, max_iter=2000)
peg = svm.pegasos(hs.X, hs.y, C=1.0, n_epochs=60, batch_size=1, rng=0)
print(f"free bias:        SMO  P* = {fit_lin.dual:.4f}")
print(
    f"                  subgradient, 2000 steps  P = "
    f"{svm.hinge_objective(sub.w, sub.b, hs.X, hs.y, 1.0):.4f}"
)
print(f"regularised bias: reference P* = {P_reg:.4f} (relative duality gap < 1e-8)")
print(f"                  Pegasos, 60 epochs  P = {peg.objective[-1]:.4f}")

# %% [markdown]
# Two variants on the same data. The scheme of {prf:ref}`thm-pegasos-rate` (steps
# $2/(\lambda(t+1))$, the average weighted by $t$), measured against the same certified
# $P^*$, and beside it the bound of {eq}`eq-pegasos-rate` in the units of $P = nCf$. And the
# variant of the source notes (seed 004, `svm.sgd_svm`): one sample per step, a *free* bias, and
# steps $\eta_t = \eta/(t + t_0)$ on $n$ times the subgradient of the sample's term of
# $P(w, b) = \sum_i \big(\frac{1}{2n}\|w\|^2 + C[1 - y_i f(x_i)]_+\big)$:
# $w \leftarrow (1 - \eta_t) w + \eta_t n C y_i x_i$ and $b \leftarrow b + \eta_t n C y_i$ on a
# margin violation, $w \leftarrow (1 - \eta_t) w$ otherwise (the notes write the bias update as
# $b_{t+1} \leftarrow \eta_t n C y$, losing the $b_t$). Its minimiser is SMO's, so it is
# measured against SMO's $P^*$; $P$ is not strongly convex in $b$, and no rate is guaranteed.

# %%
peg_w = svm.pegasos(hs.X, hs.y, C=1.0, n_epochs=60, schedule="weighted", rng=0)
Z_hs = np.column_stack([hs.X, np.ones(len(hs.y))])
lam_hs = 1 / len(hs.y)  # 1/(nC) with C = 1
G_hs = np.sqrt(lam_hs) + np.sqrt((Z_hs**2).sum(axis=1).max())
T_hs = 60 * len(hs.y)
bound_P = len(hs.y) * 2 * G_hs**2 / (lam_hs * (T_hs + 1))  # n C times the bound on f
sgd_runs = {t0: svm.sgd_svm(hs.X, hs.y, C=1.0, n_epochs=60, eta=1.0, t0=t0, rng=0)
            for t0 in (1.0, 10.0 * len(hs.y))}
rel_w = peg_w.objective[-1] / P_reg - 1
print(f"weighted Pegasos, 60 epochs: P / P* - 1 = {rel_w:.1e}; "
      f"the bound allows {bound_P / P_reg:.1f}")
for t0, fit in sgd_runs.items():
    rel = fit.objective / fit_lin.dual - 1
    print(f"free-bias SGD (seed 004), t0 = {t0:6.0f}: P / P* - 1 after 5, 60 epochs = "
          f"{rel[4]:.2f}, {rel[-1]:.3f}")

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Relative suboptimality $P/P^* - 1$ of the subgradient method (best iterate, per pass), of Pegasos (suffix-averaged and $t$-weighted, per epoch) and of the free-bias stochastic subgradient method of the notes (per epoch) against passes over the data.", "name": "fig-primal-methods"}, "image": {"alt": "Log-log plot of four decreasing suboptimality curves."}} tags=["hide-input"]
fig, ax = plt.subplots()
ax.loglog(
    np.arange(1, sub.objective.size + 1),
    np.minimum.accumulate(sub.objective) / fit_lin.dual - 1,
    label="subgradient method (best so far), per pass",
)
ax.loglog(
    np.arange(1, peg.objective.size + 1),
    peg.objective / P_reg - 1,
    "o-",
    ms=3,
    label="Pegasos (averaged), per epoch",
)
ax.loglog(np.arange(1, 61), peg_w.objective / P_reg - 1, "s-", ms=2.5,
          label="Pegasos, weighted average (the theorem's scheme)")
sgd_10n = sgd_runs[10.0 * len(hs.y)]
ax.loglog(np.arange(1, 61), sgd_10n.objective / fit_lin.dual - 1, "^-", ms=2.5,
          label=r"free-bias SGD, $\eta/(t + t_0)$, $t_0 = 10n$ (seed 004)")
ax.set(
    xlabel="passes over the data",
    ylabel="relative suboptimality $P / P^* - 1$",
    title="Primal solvers on heart_scale, linear SVM, C = 1",
)
ax.set_ylim(3e-4, None)
ax.legend(fontsize=8, loc="lower left")
plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-primal-methods
# Relative suboptimality $P/P^* - 1$ of the subgradient method (best iterate, per pass), of Pegasos (suffix-averaged and $t$-weighted, per epoch) and of the free-bias stochastic subgradient method of the notes (per epoch) against passes over the data.
# :::

# %% [markdown]
# (sec-svm-multiclass)=
# ## Multiclass SVMs
#
# With $K$ classes, the simplest schemes combine binary SVMs {cite}`hsu2002comparison`:
#
# - **one-vs-rest**: $K$ machines, machine $k$ separating class $k$ from all others; predict
#   $\argmax_k f_k(x)$. The scores of separately trained machines are not calibrated against
#   each other, and each machine sees unbalanced classes.
# - **one-vs-one**: $K(K-1)/2$ machines, one per pair, each trained on its two classes only;
#   predict by majority vote. More machines, but each is small; this is what libsvm does.
#
# The **joint** formulation {cite}`crammer2001algorithmic` trains all $w_k$ at once, asking the
# true class to win by a margin of 1 over every other class:
#
# $$
# \begin{gathered}
# \min_{w_1..w_K, \xi} \; \frac12 \sum_k \|w_k\|^2 + C \sum_i \xi_i \quad \text{s.t.} \\
# w_{y_i}^\top x_i - w_k^\top x_i \ge 1 - \delta_{k y_i} - \xi_i \quad \text{for all } i, k,
# \end{gathered}
# $$ (def-crammer-singer)
#
# where the constraint for $k = y_i$ reads $\xi_i \ge 0$. With multipliers $\alpha_{ik} \ge 0$,
# stationarity in $\xi_i$ gives $\sum_k \alpha_{ik} = C$, and in $w_m$,
# $w_m = \sum_i (C \delta_{m y_i} - \alpha_{im})\, x_i$: again a combination of the training
# points, so the joint machine kernelises too. Its dual has $nK$ variables coupled in groups of
# $K$ per sample.

# %%
ovr = svm.one_vs_rest(iris.X, iris.y, C=1.0, kernel="linear", tol=1e-6)
ovo = svm.one_vs_one(iris.X, iris.y, C=1.0, kernel="linear", tol=1e-6)
perm = rng.permutation(150)
train, test = perm[:100], perm[100:]
ovr_s = svm.one_vs_rest(iris.X[train], iris.y[train], C=1.0, kernel="linear", tol=1e-6)
ovo_s = svm.one_vs_one(iris.X[train], iris.y[train], C=1.0, kernel="linear", tol=1e-6)
for name, full, split in (("one-vs-rest", ovr, ovr_s), ("one-vs-one", ovo, ovo_s)):
    print(
        f"{name:12s} machines {len(full.fits)}  training accuracy "
        f"{np.mean(full.predict(iris.X) == iris.y):.3f}"
        f"  held out (100/50 split) "
        f"{np.mean(split.predict(iris.X[test]) == iris.y[test]):.3f}"
    )
conf = np.zeros((3, 3), dtype=int)
np.add.at(conf, (iris.y.astype(int), ovr.predict(iris.X).astype(int)), 1)
print("one-vs-rest confusion matrix (rows: true class, columns: predicted):")
print(conf)

# %% [markdown]
# The linear one-vs-rest machine for versicolor has a hard job: versicolor lies *between* the
# other two classes along the petal measurements, and no single hyperplane separates the middle
# class from both sides. That is where its errors come from; one-vs-one never asks that question.

# %% [markdown]
# (sec-svm-crammer-singer)=
# ### The joint machine through its dual
#
# We solve {eq}`def-crammer-singer` as it is usually stated, **without a bias**: the scores are
# $w_k^\top x$. Where a bias is wanted we append a constant feature, whose weight is then
# regularised like the others (as in Pegasos). Eliminating $\xi_i$ gives the unconstrained primal
#
# $$
# \begin{aligned}
# P(W) &= \frac12 \sum_k \|w_k\|^2 + C \sum_i \max_k g_{ik}, \\
# g_{ik} &= 1[k \ne y_i] + w_k^\top x_i - w_{y_i}^\top x_i,
# \end{aligned}
# $$ (def-cs-primal)
#
# where $g_{i y_i} = 0$, so the maximum is the multiclass hinge loss: 0 exactly when the true
# class wins by 1. The Lagrangian of {eq}`def-crammer-singer` with multipliers
# $\alpha_{ik} \ge 0$ is linear in $\xi_i$ with coefficient $C - \sum_k \alpha_{ik}$, so its
# minimum over $\xi$ is $-\infty$ unless $\sum_k \alpha_{ik} = C$; it is a convex quadratic in
# $W$ with identity Hessian, minimised where its gradient vanishes:
#
# $$
# w_m(\alpha) = \sum_i \big(C\delta_{m y_i} - \alpha_{im}\big)\, x_i .
# $$ (eq-cs-stationarity)

# %%
claims.verify("eq-cs-stationarity")

# %% [markdown]
# Substituting $w_m(\alpha)$ back, the terms $\sum_{i,k} \alpha_{ik}(w_{y_i} - w_k)^\top x_i$
# add up to $\sum_m \|w_m\|^2$ and the dual problem is
#
# $$
# \begin{aligned}
# \max_{\alpha} \; D(\alpha) &= -\frac12 \sum_m \|w_m(\alpha)\|^2
#   + \sum_{i,k} \alpha_{ik} (1 - \delta_{k y_i}) \\
# \text{s.t.} \quad &\alpha_{ik} \ge 0, \;\; \sum_k \alpha_{ik} = C \;\; \text{for each } i .
# \end{aligned}
# $$ (eq-cs-dual)
#
# The constraints are not the binary SVM's box $0 \le \alpha_{ik} \le C$: each row
# $\alpha_i = (\alpha_{i1}, \dots, \alpha_{iK})$ lies on a **simplex** scaled to total $C$, and
# rows of different samples are not coupled at all (there is no bias, hence no
# $\sum_i \alpha_i y_i = 0$). The check below draws $\alpha$ from the simplex, and its foil from
# the box, where the slacks no longer drop out of the Lagrangian.

# %%
claims.verify("eq-cs-dual")

# %% [markdown]
# The same substitution gives the duality gap at the primal point $W(\alpha)$ a dual point
# defines, sample by sample:
#
# $$
# P(W(\alpha)) - D(\alpha) = \sum_i \Big( C \max_k g_{ik} - \sum_k \alpha_{ik}\, g_{ik} \Big)
#   \;\ge\; 0 .
# $$ (eq-cs-gap)
#
# Each term is non-negative because $\alpha_i / C$ is a probability vector, and an average of
# the $g_{ik}$ is at most their maximum. So {eq}`eq-cs-gap` is weak duality, and it says more:
# the gap is 0 exactly when every sample puts its weight $\alpha_{ik}$ only on classes that
# attain $\max_k g_{ik}$ (complementary slackness), and $P(W(\alpha)) - P^* \le P - D$ is a
# certificate that needs no knowledge of the optimum.

# %%
claims.verify("eq-cs-gap")

# %% [markdown]
# **A block coordinate dual method.** Hold every row but $\alpha_i$ fixed. By
# {eq}`eq-cs-stationarity` row $i$ moves each $w_m$ along $-x_i$, so $D$ restricted to the
# block is a concave quadratic with Hessian $-\|x_i\|^2 I$ and gradient
# $\partial D / \partial \alpha_{ik} = g_{ik}$ (up to a constant that is the same for every
# $k$ and does not change the maximiser on the simplex). Its exact maximiser is one Newton step
# followed by a Euclidean projection $\Pi_C$ onto the simplex of total $C$:
#
# $$
# \alpha_i \leftarrow \Pi_C\big(\alpha_i + g_i / \|x_i\|^2\big), \qquad
# w_m \leftarrow w_m + (\alpha^{\text{old}}_{im} - \alpha^{\text{new}}_{im})\, x_i .
# $$ (eq-cs-block)
#
# `svm.crammer_singer` starts at $\alpha_{ik} = C\delta_{k y_i}$ (so $W = 0$), sweeps the
# samples in a random order with {eq}`eq-cs-block`, computes {eq}`eq-cs-gap` after each sweep
# and stops when $(P - D)/P \le$ `tol`. A sample whose gap term is 0 is already optimal in its
# block, so the next sweep skips it. The check compares the update with a general-purpose
# optimiser (SLSQP) on the block.

# %%
claims.verify("eq-cs-block")

# %% [markdown]
# On iris, beside the two binary schemes above (the same 100/50 split, features standardised, a
# constant feature appended for the bias). The gap also certifies the predictions: $P$ is
# $\frac12\sum_k\|w_k\|^2$ plus a convex function, so $\frac12\|W - W^*\|_F^2 \le P(W) - P^*
# \le P - D$, and no score difference $(w_k - w_l)^\top x$ can differ from the optimum's by more
# than $2\sqrt{P - D}\,\|x\|$. The cell checks that every prediction it counts leads by more
# than that, so the accuracies printed are those of the exact optimum.

# %%
def with_bias(Z):
    """Standardised features (the full data's mean and spread), a constant column."""
    return np.column_stack([(Z - iris.X.mean(0)) / iris.X.std(0), np.ones(len(Z))])


cs_s = svm.crammer_singer(with_bias(iris.X[train]), iris.y[train], C=1.0, tol=1e-6)
assert cs_s.converged and cs_s.gap <= 1e-6 * cs_s.objective[-1]
accuracy = {}
for part, idx in (("training", train), ("held-out", test)):
    Z = with_bias(iris.X[idx])
    S = np.sort(cs_s.decision_function(Z), axis=1)
    shift = 2 * np.sqrt(cs_s.gap) * np.linalg.norm(Z, axis=1)  # most a lead can move
    assert np.all(S[:, -1] - S[:, -2] > shift)
    accuracy[part] = np.mean(cs_s.predict(Z) == iris.y[idx])
print(f"{'joint (C-S)':12s} machines 1  training accuracy (the 100) "
      f"{accuracy['training']:.3f}  held out (100/50) "
      f"{accuracy['held-out']:.3f}")
print("certified: relative duality gap (P - D)/P <= 1e-6,\n"
      "every counted prediction the optimum's")

# %% [markdown]
# One machine with all $K$ weight vectors, one convex problem and a certificate of its
# accuracy; the price is the coupling of the classes in every sample's block, which the
# one-vs-one machines avoid. {numref}`fig-multiclass-regions` draws the three schemes on the
# two petal measurements.

# %% jupyter={"source_hidden": true} mystnb={"figure": {"caption": "Decision regions of the three multiclass schemes on the iris petal measurements (standardised, linear, $C = 1$): one-vs-rest (argmax of three machines), one-vs-one (vote of three pairwise machines) and the joint Crammer-Singer machine (a constant feature for the bias).", "name": "fig-multiclass-regions"}, "image": {"alt": "Three panels of the iris petal data in three colours, each split into three regions by straight boundaries that differ slightly between panels."}} tags=["hide-input"]
Zp = iris.X[:, 2:]
Zp = (Zp - Zp.mean(0)) / Zp.std(0)
Zp1 = np.column_stack([Zp, np.ones(150)])
cs_petal = svm.crammer_singer(Zp1, iris.y, C=1.0, tol=1e-6)
schemes = (
    ("one-vs-rest", svm.one_vs_rest(Zp, iris.y, C=1.0, kernel="linear", tol=1e-6)),
    ("one-vs-one", svm.one_vs_one(Zp, iris.y, C=1.0, kernel="linear", tol=1e-6)),
    ("joint (Crammer-Singer)", cs_petal),
)
g0, g1 = np.meshgrid(np.linspace(-2.0, 2.2, 200), np.linspace(-2.0, 2.2, 200))
grid = np.column_stack([g0.ravel(), g1.ravel()])
colours = ["#f4c7c3", "#c7e9c0", "#c6dbef"]
with plt.rc_context({"font.size": 13}):
    fig, axes = plt.subplots(1, 3, figsize=(10.5, 4.0), sharey=True)
    for ax, (name, model) in zip(axes, schemes, strict=True):
        Z = np.column_stack([grid, np.ones(len(grid))]) if model is cs_petal else grid
        ax.contourf(g0, g1, model.predict(Z).reshape(g0.shape),
                    levels=[-0.5, 0.5, 1.5, 2.5], colors=colours)
        markers = zip("o^s", ("#b2182b", "#1b7837", "#2166ac"), strict=True)
        for k, (marker, c) in enumerate(markers):
            m = iris.y == k
            ax.scatter(*Zp[m].T, marker=marker, c=c, s=18, edgecolor="k", linewidth=0.3)
        ax.set(title=name, xlabel="petal length (std.)")
    axes[0].set_ylabel("petal width (std.)")
    plt.tight_layout()
    plt.show()

# %% [markdown] tags=["remove-cell"]
# :::{figure}
# :label: fig-multiclass-regions
# Decision regions of the three multiclass schemes on the iris petal measurements (standardised, linear, $C = 1$): one-vs-rest (argmax of three machines), one-vs-one (vote of three pairwise machines) and the joint Crammer-Singer machine (a constant feature for the bias).
# :::

# %% [markdown]
# (sec-svm-implementation)=
# ## Implementation
#
# `svm.smo_basic` is SMO as this chapter derives it, with nothing added for speed; the cell
# below displays its code from the library itself.

# %%
from mlnotes import show_source

show_source(svm.smo_basic)

# %% [markdown]
# Read it against the equations:
#
# - `G = -np.ones(n)`, line 10, is the gradient $G = Q\alpha - 1$ of $f$, the negated dual
#   {eq}`eq-soft-dual`, at the start $\alpha = 0$; `v = -y * G`, line 13, are the values $v_t$ the KKT
#   conditions compare.
# - `up` and `low` are $I_{up}$ and $I_{low}$; `i` attains $m(\alpha)$, and the loop stops when
#   `m - M < tol`, line 19, the violation of {eq}`eq-kkt-pair`.
# - `b_it` and `a_it` are $b_{it}$ and $a_{it}$ for every $t$ at once, and `j`, line 30 (`np.argmax(b_it**2 / a_it)`), maximises
#   $b_{it}^2 / a_{it}$ over the $t \in I_{low}$ with $b_{it} > 0$: the rule {eq}`eq-wss2`
#   (`a_it` is floored at a tiny positive number for repeated points, as in libsvm).
# - `two_variable_step`, line 31, is the clipped step {eq}`eq-smo-step`: $s = b_{ij}/a_{ij}$ along the
#   line that keeps $\sum_i \alpha_i y_i$ fixed, cut back to the box $[0, C]^2$ (its code is
#   below).
# - `G += y * (y[i] * di * K[i] + y[j] * dj * K[j])`, line 35, updates the gradient with two rows of
#   $K$: $G_t$ changes by $Q_{ti} d_i + Q_{tj} d_j$, where $d_i$, $d_j$ are the changes of the
#   two coordinates. Keeping $G$ instead of recomputing $Q\alpha$ makes an iteration $O(n)$.
# - The dual objective needs no extra work, line 37 (`D.append`): $f = \frac12 \alpha^\top(Q\alpha - 2 \cdot 1) =
#   \frac12 \alpha^\top (G - 1)$.
#
# `svm.smo`, used everywhere else in this chapter, runs the same iterations with libsvm's
# speed-ups: kernel rows computed only when first needed, the objective updated in $O(1)$, and
# *shrinking*, which drops from the loop the variables stuck at a bound and checks the whole
# problem again before it stops. The tests hold it to `smo_basic` (same optimum, with and without
# shrinking) and both to libsvm.

# %%
show_source(svm.two_variable_step)

# %%
show_source(svm.smo)

# %% [markdown]
# The loop of `svm.smo` reads as the same steps, each a method of a small state object
# `_SMOState` that keeps $\alpha$, the values $v_t$ on $I_{up}$ and $I_{low}$, and the active
# set. `maximal_violating_pair`, line 22, gives $i$, $m(\alpha)$ and $M(\alpha)$ of
# {eq}`eq-kkt-pair`; the stopping rule, line 28 (`if gap < tol`), compares their gap with
# `tol`; `second_order_j`, line 39, is the rule {eq}`eq-wss2`; and `pair_step`, line 40, takes
# the step {eq}`eq-smo-step` and updates the values with two kernel rows. The kernel rows,
# line 15 (`_Rows`), are computed when first asked for and kept. `shrink` and `unshrink` are
# the speed-up: every `min(n, 1000)` iterations, line 36 (`state.shrink_due()`), the
# variables at a bound that cannot join a violating pair soon leave the loop, and before the
# final test all come back, line 24 (`unshrink_due`), with their values rebuilt from the
# support vectors. The bias, line 53 (`bias_from_gradient`), is $-y_i G_i$ averaged over the
# free support vectors (with none, the midpoint of the interval that the bounded ones leave),
# as in `smo_basic`.

# %% [markdown]
# (sec-svm-exercises)=
# ## Exercises
#
# ```{exercise}
# :label: ex-svm-no-bias
# Drop the bias: classify with $f(x) = w^\top x$. Derive the dual of the hard-margin problem
# $\min \frac12\|w\|^2$ s.t. $y_i w^\top x_i \ge 1$. Which constraint of {eq}`eq-hard-dual`
# disappears, and how does that change SMO?
# ```
#
# ```{solution} ex-svm-no-bias
# :class: dropdown
# The Lagrangian is $\frac12\|w\|^2 - \sum_i \alpha_i (y_i w^\top x_i - 1)$; only
# $\nabla_w L = 0$ remains, giving $w = \sum_i \alpha_i y_i x_i$ and the dual
# $\max_{\alpha \ge 0} \sum_i \alpha_i - \frac12\sum_{i,k}\alpha_i\alpha_k y_i y_k x_i^\top x_k$
# without $\sum_i \alpha_i y_i = 0$ (that condition came from $\partial L/\partial b$). With
# only box constraints, one coordinate can move alone: coordinate descent with
# $\alpha_i \leftarrow \operatorname{clip}_{[0, C]}(\alpha_i - G_i / K_{ii})$ replaces the pair
# steps. This is the form of notes 001 (labels folded into $a_i = y_i x_i$) and of liblinear.
# ```
#
# ```{exercise}
# :label: ex-svm-bias-interval
# Suppose the soft-margin optimum has no margin support vector ($\alpha_i \in \{0, C\}$ for
# all $i$). Show from {eq}`eq-three-kinds` that every $b$ in an interval $[b_{lo}, b_{hi}]$
# satisfies the KKT conditions with the same $\alpha$, and express the interval in terms of
# $v_t = y_t - \sum_k \alpha_k y_k K_{kt}$ (the quantity of {eq}`eq-kkt-pair`).
# ```
#
# ```{solution} ex-svm-bias-interval
# :class: dropdown
# With $y_t f(x_t) = y_t (\sum_k \alpha_k y_k K_{kt} + b)$ and $y_t^2 = 1$, the condition
# $y_t f(x_t) \ge 1$ reads $b \ge v_t$ if $y_t = +1$ and $b \le v_t$ if $y_t = -1$, and
# $y_t f(x_t) \le 1$ the reverse. Points with $\alpha_t = 0$ need the first kind, points with
# $\alpha_t = C$ the second. So $b$ must be at least $v_t$ over $\{y_t = +1, \alpha_t = 0\}
# \cup \{y_t = -1, \alpha_t = C\}$, which is $I_{up}$, and at most $v_t$ over $I_{low}$:
# $b \in [m(\alpha), M(\alpha)]$, non-empty exactly when {eq}`eq-kkt-pair` holds. libsvm (and
# `mlnotes.svm`) takes the midpoint.
# ```
#
# ```{exercise}
# :label: ex-svm-large-c
# Let the data be separable with hard-margin dual solution $\alpha^{hard}$. Show that for every
# $C \ge \max_i \alpha_i^{hard}$ the hard-margin solution also solves the soft-margin problem
# {eq}`def-soft-primal`. Check it numerically with `svm.smo` on the setosa-versicolor data above.
# ```
#
# ```{solution} ex-svm-large-c
# :class: dropdown
# $\alpha^{hard}$ is feasible for the box-constrained dual {eq}`eq-soft-dual` when
# $C \ge \max_i \alpha_i^{hard}$. Together with $w^{hard}, b^{hard}$ and $\xi = 0$ it satisfies
# every KKT condition of the soft-margin problem: stationarity is the same, $\xi_i = 0$ makes
# $r_i \xi_i = 0$ hold with $r_i = C - \alpha_i \ge 0$, and complementary slackness of the margin
# constraints is that of the hard margin. By {prf:ref}`thm-kkt` it is optimal. Numerically,
# `svm.smo(X_sv, y_sv, C=hard.alpha.max(), kernel="linear", tol=1e-10).coef` equals `hard.coef`.
# ```
#
# ```{exercise}
# :label: ex-svm-weak-duality-soft
# Prove directly that $D(\alpha) \le P(w, b)$ for any $\alpha$ feasible for {eq}`eq-soft-dual`
# and any $(w, b)$, using $\xi_i = [1 - y_i f(x_i)]_+$ and $\alpha_i \le C$. Where does the
# proof use $\sum_i \alpha_i y_i = 0$?
# ```
#
# ```{solution} ex-svm-weak-duality-soft
# :class: dropdown
# Let $u = \sum_i \alpha_i y_i x_i$. Then
# $P - D = \tfrac12\|w\|^2 + C\sum_i \xi_i - \sum_i \alpha_i + \tfrac12\|u\|^2$, and since
# $\tfrac12\|w\|^2 + \tfrac12\|u\|^2 = \tfrac12\|w - u\|^2 + w^\top u$,
# $P - D = \tfrac12\|w - u\|^2 + w^\top u + C\sum_i\xi_i - \sum_i \alpha_i$. Now
# $w^\top u = \sum_i \alpha_i y_i w^\top x_i = \sum_i \alpha_i y_i f(x_i) - b\sum_i\alpha_i y_i$,
# and the last sum is zero (here). So $P - D = \frac12\|w - u\|^2 + \sum_i [C \xi_i - \alpha_i(1 -
# y_i f(x_i))]$, and each bracket is $\ge 0$: $C\xi_i \ge \alpha_i \xi_i \ge \alpha_i (1 - y_i f(x_i))$
# since $0 \le \alpha_i \le C$ and $\xi_i \ge 1 - y_i f(x_i)$, $\xi_i \ge 0$.
# ```
#
# ```{exercise} Proof: the soft-margin dual by the max trick
# :label: ex-svm-dual-max-trick
# This exercise derives the dual {eq}`eq-soft-dual` without slack variables and proves that
# its value is the primal minimum without {prf:ref}`thm-qp-strong-duality`. Write
# $P(w, b) = \frac12\|w\|^2 + C\sum_i [1 - y_i f(x_i)]_+$ (the primal after {eq}`eq-slack`),
# $B = [0, C]^n$ and $L(w, b, \alpha) = \frac12\|w\|^2 + \sum_i \alpha_i (1 - y_i f(x_i))$.
# Assume both classes occur.
# (a) Show that $C\max(0, t) = \max_{0 \le a \le C} a t$ for every real $t$, and deduce
# $P(w, b) = \max_{\alpha \in B} L(w, b, \alpha)$.
# (b) Show that $\inf_{w, b} \max_{\alpha \in B} L \ge \sup_{\alpha \in B} \inf_{w, b} L$, and
# compute $\inf_{w, b} L(w, b, \alpha)$: it is $D(\alpha)$ if $\sum_i \alpha_i y_i = 0$ and
# $-\infty$ otherwise. Conclude that the right side is the value of {eq}`eq-soft-dual`.
# (c) Let $\alpha^*$ maximise $D$ over the feasible set of {eq}`eq-soft-dual` (why does it
# exist?). With $v_t$, $I_{up}$, $I_{low}$, $m$ and $M$ as in {eq}`eq-kkt-pair`, show by a pair
# step as in {eq}`eq-smo-step` that $m(\alpha^*) \le M(\alpha^*)$. Then show that
# $w^* = \sum_i \alpha_i^* y_i x_i$ with any $b \in [m(\alpha^*), M(\alpha^*)]$ has
# $P(w^*, b) = D(\alpha^*)$, and conclude that the infimum and the supremum of (b) can be
# exchanged and that $(w^*, b)$ minimises $P$.
# ```
#
# ```{solution} ex-svm-dual-max-trick
# :class: dropdown
# (a) If $t \le 0$, then $a t \le 0$ for every $a \ge 0$, with equality at $a = 0$: the
# maximum is $0 = C\max(0, t)$. If $t > 0$, $a t$ increases with $a$ and the maximum is $Ct$.
# With $t_i = 1 - y_i f(x_i)$ the $n$ terms of $\sum_i \alpha_i t_i$ are maximised
# independently over the box, so $\max_{\alpha \in B} L(w, b, \alpha) = \frac12\|w\|^2 +
# \sum_i \max_{0 \le \alpha_i \le C} \alpha_i t_i = P(w, b)$.
#
# (b) For every $\alpha' \in B$ and every $(w, b)$,
# $\max_{\alpha \in B} L(w, b, \alpha) \ge L(w, b, \alpha') \ge \inf_{w', b'} L(w', b', \alpha')$;
# the infimum over $(w, b)$ of the left side and then the supremum over $\alpha'$ of the right
# side keep the inequality. For fixed $\alpha$ let $u = \sum_i \alpha_i y_i x_i$ and
# $s = \sum_i \alpha_i y_i$; then $L = \frac12\|w\|^2 - w^\top u + \sum_i \alpha_i - b s$. If
# $s \ne 0$, $b = t s$ with $t \to \infty$ sends $L$ to $-\infty$. If $s = 0$,
# $L = \frac12\|w - u\|^2 - \frac12\|u\|^2 + \sum_i \alpha_i$, smallest at $w = u$, with value
# $\sum_i \alpha_i - \frac12\sum_{i,k}\alpha_i\alpha_k y_i y_k x_i^\top x_k = D(\alpha)$. So the
# supremum over $B$ is the maximum of $D$ over $B \cap \{\sum_i \alpha_i y_i = 0\}$, the dual
# {eq}`eq-soft-dual`, and (b) is weak duality: $\inf P \ge \max D$.
#
# (c) The feasible set is closed, bounded and non-empty ($\alpha = 0$), and $D$ is continuous,
# so a maximiser $\alpha^*$ exists. Both $I_{up}$ and $I_{low}$ are non-empty at a feasible
# point: $I_{up} = \emptyset$ would put every $\alpha_t$ with $y_t = +1$ at $C$ and every other
# at 0, so $\sum_t \alpha_t y_t > 0$; likewise for $I_{low}$. Let $G = Q\alpha^* - 1$ and
# suppose $m > M$: take $i \in I_{up}$ with $v_i = m$ and $j \in I_{low}$ with $v_j = M$, so
# $i \ne j$. The segment $\alpha^* + s(y_i e_i - y_j e_j)$ keeps $\sum_t \alpha_t y_t$ and, for
# small $s > 0$, stays in the box (this is what $i \in I_{up}$, $j \in I_{low}$ mean). Along it
# $f = -D$ changes by $-b_{ij}s + \frac12 a_{ij}s^2$ with $b_{ij} = v_i - v_j = m - M > 0$
# ({ref}`sec-svm-smo`), which is negative for small $s > 0$: $D$ increases, a contradiction.
# So $m(\alpha^*) \le M(\alpha^*)$.
#
# Take $b \in [m, M]$ and $w = w^*$. As $y_t^2 = 1$, $v_t = y_t - \sum_k \alpha^*_k y_k
# x_k^\top x_t$, so $f(x_t) = y_t - v_t + b$ and $y_t f(x_t) = 1 + y_t (b - v_t)$. If
# $\alpha^*_t = 0$: for $y_t = 1$, $t \in I_{up}$ and $v_t \le m \le b$; for $y_t = -1$,
# $t \in I_{low}$ and $v_t \ge M \ge b$; either way $y_t f(x_t) \ge 1$. If
# $0 < \alpha^*_t < C$: $t$ is in both sets, $v_t \le m \le b \le M \le v_t$, so
# $y_t f(x_t) = 1$. If $\alpha^*_t = C$: the sets swap and $y_t f(x_t) \le 1$. In each case
# $C[1 - y_t f(x_t)]_+ = \alpha^*_t (1 - y_t f(x_t))$ (both are 0 in the first two cases, and
# $\alpha^*_t = C$ with $1 - y_t f(x_t) \ge 0$ in the third), so
# $P(w^*, b) = L(w^*, b, \alpha^*)$, which by (b) ($w^* = u$, $s = 0$) is $D(\alpha^*)$. Hence
# $D(\alpha^*) = P(w^*, b) \ge \inf P \ge \max D = D(\alpha^*)$: equality throughout, the
# infimum and the supremum of (b) exchange, and $(w^*, b)$ attains $\inf P$. With a kernel,
# replace $x$ by $\phi(x)$: nothing else changes.
# ```
#
# The remaining exercises are coding exercises; the course's assignments turn them into
# autograded questions.

# %% [markdown]
# ```{exercise} Warm-up · 2 points · about 15 min
# :label: ex-code-svm-bias
# Write `svm_bias(alpha, y, K, C)` that returns the bias $b$ of a soft-margin SVM from
# its optimal dual variables: the average of $y_i - \sum_k \alpha_k y_k K_{ik}$ over the
# margin support vectors $0 < \alpha_i < C$ (use {eq}`eq-three-kinds`; you may assume
# there is at least one). While this is graded, `mlnotes.svm.bias_from_gradient`,
# `mlnotes.svm.smo` and `mlnotes.svm.smo_basic` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def svm_bias(alpha, y, K, C):
    # BEGIN SOLUTION
    free = (alpha > 0) & (alpha < C)
    return float(np.mean(y[free] - K[free] @ (alpha * y)))
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: svm-bias, points: 2, tier: warm-up, minutes: 15,
#   withdraw: [mlnotes.svm.bias_from_gradient, mlnotes.svm.smo, mlnotes.svm.smo_basic]}
# TEST: a linear SVM on 40 points, C = 1, against the b of the chapter's SMO
X_test = np.random.default_rng(7).normal(size=(40, 2))
y_test = X_test[:, 0] + 0.5 * np.random.default_rng(8).normal(size=40)
y_test = np.where(y_test > 0, 1.0, -1.0)
fit_test = svm.smo(X_test, y_test, C=1.0, kernel="linear", tol=1e-10)
np.testing.assert_allclose(
    svm_bias(fit_test.alpha, y_test, X_test @ X_test.T, 1.0),
    fit_test.b,
    atol=1e-6,
    strict=True,
)

# HIDDEN TEST: the b of the chapter's SMO for an RBF kernel, any data and C
rng_h = np.random.default_rng(list(b"development secret"))
for _ in range(20):  # data with at least one margin support vector
    X_h = rng_h.normal(size=(rng_h.integers(20, 60), rng_h.integers(1, 4)))
    y_h = np.where(X_h[:, 0] + rng_h.normal(scale=0.7, size=len(X_h)) > 0, 1.0, -1.0)
    K_h, C_h = (
        kernels.rbf_kernel(X_h, gamma=rng_h.uniform(0.1, 2)),
        rng_h.uniform(0.2, 5),
    )
    fit_h = svm.smo(K_h, y_h, C=C_h, kernel="precomputed", tol=1e-10)
    if np.any((fit_h.alpha > 1e-6 * C_h) & (fit_h.alpha < C_h * (1 - 1e-6))):
        break
np.testing.assert_allclose(
    svm_bias(fit_h.alpha, y_h, K_h, C_h), fit_h.b, atol=1e-6, strict=True
)

# HIDDEN TEST: every margin support vector (0 < alpha_i < C) gets y_i f(x_i) = 1
rng_h = np.random.default_rng(list(b"development secret"))
for _ in range(20):  # data with at least one margin support vector
    X_h = rng_h.normal(size=(rng_h.integers(20, 60), rng_h.integers(2, 4)))
    y_h = np.where(X_h @ rng_h.normal(size=X_h.shape[1]) > 0, 1.0, -1.0)
    K_h, C_h = X_h @ X_h.T, rng_h.uniform(0.1, 2)
    fit_h = svm.smo(K_h, y_h, C=C_h, kernel="precomputed", tol=1e-10)
    free_h = (fit_h.alpha > 1e-6 * C_h) & (fit_h.alpha < C_h * (1 - 1e-6))
    if np.any(free_h):
        break
b_h = svm_bias(fit_h.alpha, y_h, K_h, C_h)
assert np.ndim(b_h) == 0, f"expected a number, got shape {np.shape(b_h)}"
f_h = K_h[free_h] @ (fit_h.alpha * y_h) + b_h
np.testing.assert_allclose(y_h[free_h] * f_h, np.ones(free_h.sum()), atol=1e-5)

# %% [markdown]
# ```{exercise} Core · 3 points · about 40 min
# :label: ex-code-duality-gap
# Every feasible point $\alpha$ of {eq}`eq-soft-dual`, not only the optimum, gives a primal
# point: $w(\alpha) = \sum_i \alpha_i y_i \phi(x_i)$, so that $f(x_t) = \sum_k \alpha_k y_k
# K_{kt} + b$, with $b$ still free. Write `primal_dual_values(alpha, y, K, C)` returning the
# pair `(P, D)` of numbers: $D = D(\alpha)$, and $P = \min_b P(w(\alpha), b)$, the smallest
# primal value $P(w, b) = \frac12\|w\|^2 + C \sum_i [1 - y_i f(x_i)]_+$ this $w$ allows. First
# show that $b \mapsto \sum_i [1 - y_i f(x_i)]_+$ is convex and piecewise linear, find its
# kinks, and explain why, when both classes occur, its minimum is attained at one of them;
# then compute $P$ exactly (no grid of $b$, no iterative solver). By weak duality
# ({ref}`ex-svm-weak-duality-soft`) $P - D \ge 0$, with equality at the optimum: the grader
# checks both, and compares your values with its own (a linear program in $b$ and the slacks)
# at random feasible $\alpha$, to a relative $10^{-6}$. The bias of the KKT conditions
# ({eq}`eq-three-kinds`) is the right one only at the optimum. While this is graded,
# `mlnotes.svm.primal_objective`, `mlnotes.svm.dual_objective`,
# `mlnotes.svm.hinge_objective` and `scipy.optimize` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def primal_dual_values(alpha, y, K, C):
    # BEGIN SOLUTION
    v = alpha * y
    f0 = K @ v  # f(x_t) - b
    half_w2 = 0.5 * v @ f0
    kinks = y - f0  # y_t f(x_t) = 1 exactly at b = y_t - f0_t
    margins = y[:, None] * (f0[:, None] + kinks[None, :])  # column k: b at kink k
    slack = np.maximum(0.0, 1.0 - margins).sum(axis=0)
    return float(half_w2 + C * slack.min()), float(np.sum(alpha) - half_w2)
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: duality-gap, points: 3, tier: core, minutes: 40,
#   withdraw: [mlnotes.svm.primal_objective, mlnotes.svm.dual_objective,
#              mlnotes.svm.hinge_objective, scipy.optimize]}
# TEST: 20 points, a linear kernel, C = 5, a random feasible alpha: P and D as the
# grader's
from scipy.optimize import linprog


def best_primal(alpha, y, K, C):
    """min over b of the primal at w(alpha): a linear program in (b, xi)."""
    n, f0 = len(y), K @ (alpha * y)
    lp = linprog(np.r_[0.0, np.ones(n)], A_ub=np.column_stack([-y, -np.eye(n)]),
                 b_ub=y * f0 - 1.0, bounds=[(None, None)] + [(0, None)] * n,
                 method="highs")
    return svm.primal_objective(alpha, lp.x[0], y, K, C)


r_test = np.random.default_rng(60)
X_test = r_test.normal(size=(20, 2))
y_test = np.where(X_test[:, 0] + r_test.normal(size=20) > 0.7, 1.0, -1.0)  # unbalanced
a_test = r_test.uniform(0, 5, 20)
s_test = a_test[y_test > 0].sum() / a_test[y_test < 0].sum()
a_test[y_test > 0 if s_test > 1 else y_test < 0] *= min(s_test, 1 / s_test)  # y^T a = 0
K_test = X_test @ X_test.T
pd_test = primal_dual_values(a_test, y_test, K_test, 5.0)
assert np.shape(pd_test) == (2,), f"expected the pair (P, D), got {pd_test!r}"
np.testing.assert_allclose(
    np.array(pd_test, dtype=float),
    [best_primal(a_test, y_test, K_test, 5.0),
     svm.dual_objective(a_test, y_test, K_test)],
    rtol=1e-6, strict=True,
)

# HIDDEN TEST: at random feasible alpha (RBF kernel), P is the least primal value over b
from scipy.optimize import linprog

rng_h = np.random.default_rng(list(b"development secret"))


def best_primal(alpha, y, K, C):
    """As in the visible test."""
    n, f0 = len(y), K @ (alpha * y)
    lp = linprog(np.r_[0.0, np.ones(n)], A_ub=np.column_stack([-y, -np.eye(n)]),
                 b_ub=y * f0 - 1.0, bounds=[(None, None)] + [(0, None)] * n,
                 method="highs")
    return svm.primal_objective(alpha, lp.x[0], y, K, C)


X_h = rng_h.normal(size=(rng_h.integers(30, 90), rng_h.integers(1, 4)))
shift_h = rng_h.uniform(0.5, 1) * np.sign(rng_h.normal())  # unbalanced classes
y_h = np.where(X_h[:, 0] + rng_h.normal(scale=0.7, size=len(X_h)) > shift_h, 1.0, -1.0)
y_h[1] = -y_h[0]  # both classes
K_h, C_h = kernels.rbf_kernel(X_h, gamma=rng_h.uniform(0.1, 2)), rng_h.uniform(1, 10)
for _ in range(3):
    a_h = np.clip(rng_h.uniform(-0.3, 1.3, len(y_h)) * C_h, 0.0, C_h)  # some at 0, C
    a_h[:2] = C_h / 2  # a positive sum in each class
    s_h = a_h[y_h > 0].sum() / a_h[y_h < 0].sum()
    a_h[y_h > 0 if s_h > 1 else y_h < 0] *= min(s_h, 1 / s_h)  # y^T alpha = 0
    pd_h = primal_dual_values(a_h, y_h, K_h, C_h)
    assert np.shape(pd_h) == (2,), f"expected the pair (P, D), got {pd_h!r}"
    np.testing.assert_allclose(
        np.array(pd_h, dtype=float),
        [best_primal(a_h, y_h, K_h, C_h), svm.dual_objective(a_h, y_h, K_h)],
        rtol=1e-6, strict=True,
    )

# HIDDEN TEST: at the optimum of the chapter's SMO the gap P - D vanishes
rng_h = np.random.default_rng(list(b"development secret"))
X_h = rng_h.normal(size=(rng_h.integers(20, 50), rng_h.integers(1, 4)))
y_h = np.where(X_h[:, 0] + rng_h.normal(scale=0.5, size=len(X_h)) > 0, 1.0, -1.0)
y_h[1] = -y_h[0]
K_h, C_h = kernels.rbf_kernel(X_h, gamma=rng_h.uniform(0.1, 2)), rng_h.uniform(0.2, 5)
fit_h = svm.smo(K_h, y_h, C=C_h, kernel="precomputed", tol=1e-10)
pd_h = primal_dual_values(fit_h.alpha, y_h, K_h, C_h)
assert np.shape(pd_h) == (2,), f"expected the pair (P, D), got {pd_h!r}"
P_h, D_h = pd_h
np.testing.assert_allclose(D_h, fit_h.dual, rtol=1e-9, err_msg="D at the optimum")
assert -1e-9 * D_h <= P_h - D_h <= 1e-6 * D_h, f"P - D = {P_h - D_h:.3g} at the optimum"

# HIDDEN TEST: P - D >= 0 at every feasible alpha, and no b gives a smaller primal value
rng_h = np.random.default_rng(list(b"development secret"))
X_h = rng_h.normal(size=(rng_h.integers(10, 40), rng_h.integers(2, 5)))
y_h = np.where(X_h @ rng_h.normal(size=X_h.shape[1]) > rng_h.uniform(-1, 1), 1.0, -1.0)
y_h[1] = -y_h[0]
K_h, C_h = X_h @ X_h.T, 10 ** rng_h.uniform(0, 1.5)
for _ in range(5):
    a_h = np.clip(rng_h.uniform(-0.3, 1.3, len(y_h)) * C_h, 0.0, C_h)
    a_h[:2] = C_h / 2
    s_h = a_h[y_h > 0].sum() / a_h[y_h < 0].sum()
    a_h[y_h > 0 if s_h > 1 else y_h < 0] *= min(s_h, 1 / s_h)
    pd_h = primal_dual_values(a_h, y_h, K_h, C_h)
    assert np.shape(pd_h) == (2,), f"expected the pair (P, D), got {pd_h!r}"
    P_h, D_h = pd_h
    assert P_h - D_h >= -1e-9 * abs(P_h), f"P - D = {P_h - D_h:.3g} < 0"
    f0_h = K_h @ (a_h * y_h)
    for b_h in np.r_[y_h - f0_h, rng_h.normal(scale=3, size=20)]:
        P_b = svm.primal_objective(a_h, b_h, y_h, K_h, C_h)
        assert P_h <= P_b * (1 + 1e-9), f"b = {b_h:.4g} gives {P_b:.6g} < P = {P_h:.6g}"

# %% [markdown]
# ```{exercise} Core · 2 points · about 25 min
# :label: ex-code-kkt-violation
# Write `max_violation(alpha, y, K, C)` returning SMO's certificate at a point $\alpha$ of
# the box $[0, C]^n$: the maximal violation $\max\big(0, m(\alpha) - M(\alpha)\big)$ of
# {eq}`eq-kkt-pair`, with $G = Q\alpha - 1$, $Q_{ik} = y_i y_k K_{ik}$, $v_t = -y_t G_t$, and 0
# when $I_{up}$ or $I_{low}$ is empty. The chapter defines $I_{up}$ and $I_{low}$ in words
# (the direction in which $y_t \alpha_t$ may still move inside the box): work out which
# labels and values of $\alpha_t$ put $t$ in each. Use array operations, no loop over the
# samples. The grader compares with its own computation at random points of the box
# (relative $10^{-9}$), and checks that the violation is 0 at SMO's optimum and positive once
# a pair leaves it. While this is graded, `mlnotes.svm.kkt_violation` is unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def max_violation(alpha, y, K, C):
    # BEGIN SOLUTION
    v = y - K @ (alpha * y)  # -y_t G_t, as y_t^2 = 1
    up = np.where(y > 0, alpha < C, alpha > 0)  # y_t alpha_t can increase
    low = np.where(y > 0, alpha > 0, alpha < C)  # y_t alpha_t can decrease
    if not (up.any() and low.any()):
        return 0.0
    return max(0.0, float(v[up].max() - v[low].min()))
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: kkt-violation, points: 2, tier: core, minutes: 25,
#   withdraw: [mlnotes.svm.kkt_violation]}
# TEST: 25 points, an RBF kernel, alpha in the box with some at 0 and at C
r_test = np.random.default_rng(61)
X_test = r_test.normal(size=(25, 2))
y_test = np.where(r_test.random(25) < 0.5, 1.0, -1.0)
K_test = kernels.rbf_kernel(X_test, gamma=0.5)
a_test = np.clip(r_test.uniform(-0.3, 1.3, 25) * 2.0, 0.0, 2.0)
np.testing.assert_allclose(
    max_violation(a_test, y_test, K_test, 2.0),
    svm.kkt_violation(a_test, y_test, K_test, 2.0),
    rtol=1e-9, strict=True,
)

# HIDDEN TEST: 0 at the optimum of the chapter's SMO, positive once a pair moves off it
rng_h = np.random.default_rng(list(b"development secret"))
for _ in range(20):  # data with a margin support vector
    X_h = rng_h.normal(size=(rng_h.integers(20, 50), rng_h.integers(1, 4)))
    y_h = np.where(X_h[:, 0] + rng_h.normal(scale=0.7, size=len(X_h)) > 0, 1.0, -1.0)
    K_h = kernels.rbf_kernel(X_h, gamma=rng_h.uniform(0.2, 2))
    C_h = rng_h.uniform(0.5, 5)
    fit_h = svm.smo(K_h, y_h, C=C_h, kernel="precomputed", tol=1e-10)
    free_h = np.flatnonzero((fit_h.alpha > 1e-3 * C_h) & (fit_h.alpha < 0.999 * C_h))
    if free_h.size >= 2:
        break
got_h = max_violation(fit_h.alpha, y_h, K_h, C_h)
assert np.ndim(got_h) == 0 and 0 <= got_h <= 1e-8, f"at the optimum: {got_h!r}"
i_h, j_h = free_h[:2]
s_h = rng_h.uniform(0.1, 1) * min(fit_h.alpha[[i_h, j_h]].min(), 1e-3 * C_h)
a_h = fit_h.alpha.copy()
a_h[i_h] += y_h[i_h] * s_h  # keeps y^T alpha, inside the box
a_h[j_h] -= y_h[j_h] * s_h
got_h = max_violation(a_h, y_h, K_h, C_h)
assert np.ndim(got_h) == 0 and got_h > 0, f"off the optimum: {got_h!r}"
np.testing.assert_allclose(got_h, svm.kkt_violation(a_h, y_h, K_h, C_h), rtol=1e-9)

# HIDDEN TEST: equals m - M (or 0) at random points of the box, any kernel and C
rng_h = np.random.default_rng(list(b"development secret"))
for _ in range(10):
    n_h = rng_h.integers(2, 40)
    X_h = rng_h.normal(size=(n_h, rng_h.integers(1, 5)))
    y_h = np.where(rng_h.random(n_h) < 0.5, 1.0, -1.0)
    K_h = X_h @ X_h.T if rng_h.random() < 0.5 else kernels.rbf_kernel(X_h, gamma=1.0)
    C_h = 10 ** rng_h.uniform(-2, 2)
    a_h = np.clip(rng_h.uniform(-0.5, 1.5, n_h) * C_h, 0.0, C_h)
    np.testing.assert_allclose(
        max_violation(a_h, y_h, K_h, C_h), svm.kkt_violation(a_h, y_h, K_h, C_h),
        rtol=1e-9, atol=1e-12, strict=True,
    )

# HIDDEN TEST: at bound-only points (every alpha at 0 or C), as at the start of SMO
rng_h = np.random.default_rng(list(b"development secret"))
n_h = rng_h.integers(5, 40)
X_h = rng_h.normal(size=(n_h, rng_h.integers(1, 4)))
y_h = np.where(rng_h.random(n_h) < 0.5, 1.0, -1.0)
y_h[1] = -y_h[0]
K_h, C_h = kernels.rbf_kernel(X_h, gamma=rng_h.uniform(0.1, 2)), rng_h.uniform(0.1, 3)
for p_h in rng_h.uniform(0, 1, size=5):
    a_h = np.where(rng_h.random(n_h) < p_h, C_h, 0.0)
    np.testing.assert_allclose(
        max_violation(a_h, y_h, K_h, C_h), svm.kkt_violation(a_h, y_h, K_h, C_h),
        rtol=1e-9, atol=1e-12, strict=True,
    )

# %% [markdown]
# ```{exercise} Core · 3 points · about 40 min
# :label: ex-code-smo-pair-step
# Write `pair_step(ai, aj, yi, yj, Gi, Gj, Kii, Kjj, Kij, C)`, SMO's two-variable step:
# the exact minimiser of the (minimised) dual $f(\alpha) = \frac12\alpha^\top Q\alpha -
# \sum_i\alpha_i$, $Q_{ik} = y_i y_k K_{ik}$, over the pair $(\alpha_i, \alpha_j)$ with
# the others fixed, where $G = Q\alpha - 1$ is the gradient at the current point. Move
# along the line that keeps $y_i\alpha_i + y_j\alpha_j$ fixed, $\alpha_i \to \alpha_i +
# y_i t$, $\alpha_j \to \alpha_j - y_j t$, take the unconstrained minimiser in $t$ and
# clip it so both stay in $[0, C]$. Return the new pair `(ai, aj)`. You may assume
# $K_{ii} + K_{jj} - 2K_{ij} > 0$. While this is graded,
# `mlnotes.svm.two_variable_step`, `mlnotes.svm.smo` and `mlnotes.svm.smo_basic` are
# unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def pair_step(ai, aj, yi, yj, Gi, Gj, Kii, Kjj, Kij, C):
    # BEGIN SOLUTION
    t = (-yi * Gi + yj * Gj) / (Kii + Kjj - 2.0 * Kij)
    lo_i, hi_i = (-ai, C - ai) if yi > 0 else (ai - C, ai)  # alpha_i + y_i t in [0, C]
    lo_j, hi_j = (aj - C, aj) if yj > 0 else (-aj, C - aj)  # alpha_j - y_j t in [0, C]
    t = min(max(t, lo_i, lo_j), hi_i, hi_j)
    return ai + yi * t, aj - yj * t
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: smo-pair-step, points: 3, tier: core, minutes: 40,
#   withdraw: [mlnotes.svm.two_variable_step, mlnotes.svm.smo, mlnotes.svm.smo_basic]}
# TEST: 20 random steps with C = 1, against the chapter's two-variable step
def pair_cases(r, n_cases, C):
    """Random SMO steps: a pair (i, j) of a random feasible alpha on RBF data."""
    X = r.normal(size=(12, 2))
    y = np.where(r.random(12) < 0.5, 1.0, -1.0)
    K = kernels.rbf_kernel(X, gamma=0.5)
    cases = []
    for _ in range(n_cases):
        a = np.clip(r.uniform(-0.3, 1.3, 12) * C, 0, C)  # some at 0 and at C
        G = y * (K @ (a * y)) - 1.0
        i, j = r.choice(12, size=2, replace=False)
        cases.append((a[i], a[j], y[i], y[j], G[i], G[j], K[i, i], K[j, j], K[i, j], C))
    return cases


for c_test in pair_cases(np.random.default_rng(63), 20, 1.0):
    np.testing.assert_allclose(
        pair_step(*c_test), svm.two_variable_step(*c_test), err_msg=f"step {c_test}"
    )

# HIDDEN TEST: the chapter's two-variable step, for small and large C
rng_h = np.random.default_rng(list(b"development secret"))


def pair_cases(r, n_cases, C):
    """As in the visible test."""
    X = r.normal(size=(12, 2))
    y = np.where(r.random(12) < 0.5, 1.0, -1.0)
    K = kernels.rbf_kernel(X, gamma=0.5)
    cases = []
    for _ in range(n_cases):
        a = np.clip(r.uniform(-0.3, 1.3, 12) * C, 0, C)  # some at 0 and at C
        G = y * (K @ (a * y)) - 1.0
        i, j = r.choice(12, size=2, replace=False)
        cases.append((a[i], a[j], y[i], y[j], G[i], G[j], K[i, i], K[j, j], K[i, j], C))
    return cases


C_small_h, C_large_h = rng_h.uniform(0.01, 0.5), rng_h.uniform(2, 50)
for c_h in pair_cases(rng_h, 100, C_small_h) + pair_cases(rng_h, 100, C_large_h):
    np.testing.assert_allclose(
        pair_step(*c_h), svm.two_variable_step(*c_h), err_msg="a step"
    )

# HIDDEN TEST: the new pair stays in [0, C], on the line, and never increases the dual
rng_h = np.random.default_rng(list(b"development secret"))


def pair_cases(r, n_cases, C):
    """As in the visible test."""
    X = r.normal(size=(12, 2))
    y = np.where(r.random(12) < 0.5, 1.0, -1.0)
    K = kernels.rbf_kernel(X, gamma=0.5)
    cases = []
    for _ in range(n_cases):
        a = np.clip(r.uniform(-0.3, 1.3, 12) * C, 0, C)  # some at 0 and at C
        G = y * (K @ (a * y)) - 1.0
        i, j = r.choice(12, size=2, replace=False)
        cases.append((a[i], a[j], y[i], y[j], G[i], G[j], K[i, i], K[j, j], K[i, j], C))
    return cases


for ai, aj, yi, yj, Gi, Gj, Kii, Kjj, Kij, C in pair_cases(
    rng_h, 100, rng_h.uniform(0.1, 10)
):
    ni, nj = pair_step(ai, aj, yi, yj, Gi, Gj, Kii, Kjj, Kij, C)
    assert -1e-12 <= ni <= C + 1e-12 and -1e-12 <= nj <= C + 1e-12, (
        f"{(ni, nj)}, C = {C}"
    )
    np.testing.assert_allclose(yi * ni + yj * nj, yi * ai + yj * aj, atol=1e-12)
    di, dj = yi * (ni - ai), yj * (nj - aj)  # the change of f along the pair
    change = (
        Gi * yi * di
        + Gj * yj * dj
        + 0.5 * (Kii * di**2 + Kjj * dj**2 + 2 * Kij * di * dj)
    )
    assert change <= 1e-12, f"the dual increases by {change}"
    # and no point of the clipped segment is lower: the step is the exact minimiser
    for s in rng_h.uniform(0, 1, size=10):
        ei, ej = s * di, s * dj
        other = (
            Gi * yi * ei
            + Gj * yj * ej
            + 0.5 * (Kii * ei**2 + Kjj * ej**2 + 2 * Kij * ei * ej)
        )
        assert change <= other + 1e-12, (
            "a shorter step is lower: not the exact minimiser"
        )

# %% [markdown]
# ```{exercise} Challenge · 3 points · about 60 min
# :label: ex-code-smo-small
# Write `smo_small(K, y, C)`, a complete (small) SMO: start from $\alpha = 0$, and
# repeat: pick the maximal violating pair $i \in I_{up}$, $j \in I_{low}$ of
# {eq}`eq-kkt-pair`, stop when $m(\alpha) - M(\alpha) < 10^{-8}$, else make the
# two-variable step on $(i, j)$ (your `pair_step`, or the same computation) and update
# the gradient. Return the final $\alpha$. The grader checks that it is feasible and
# optimal, not the path it took. While this is graded, `mlnotes.svm.smo`,
# `mlnotes.svm.smo_basic`, `mlnotes.svm.two_variable_step`, `mlnotes.svm.one_vs_rest`,
# `mlnotes.svm.one_vs_one` and `scipy.optimize` are unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def smo_small(K, y, C):
    # BEGIN SOLUTION
    n = len(y)
    alpha, G = np.zeros(n), -np.ones(n)  # G = Q alpha - 1
    for _ in range(100 * n * n):
        v = -y * G
        up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
        low = ((y < 0) & (alpha < C)) | ((y > 0) & (alpha > 0))
        i = np.flatnonzero(up)[np.argmax(v[up])]
        j = np.flatnonzero(low)[np.argmin(v[low])]
        if v[i] - v[j] < 1e-8:
            break
        t = (v[i] - v[j]) / max(K[i, i] + K[j, j] - 2.0 * K[i, j], 1e-12)
        t = min(
            t,
            C - alpha[i] if y[i] > 0 else alpha[i],
            alpha[j] if y[j] > 0 else C - alpha[j],
        )
        alpha[i] += y[i] * t
        alpha[j] -= y[j] * t
        G += t * y * (K[:, i] - K[:, j])  # Q[:, i] y_i - Q[:, j] y_j
    return alpha
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: smo-small, points: 3, tier: challenge, minutes: 60,
#   withdraw: [mlnotes.svm.smo, mlnotes.svm.smo_basic, mlnotes.svm.two_variable_step,
#              mlnotes.svm.one_vs_rest, mlnotes.svm.one_vs_one, scipy.optimize]}
# TEST: a linear kernel on 20 points, C = 1: the optimal dual value of the chapter's SMO
X_test = np.random.default_rng(67).normal(size=(20, 2))
y_test = X_test[:, 0] + 0.3 * np.random.default_rng(68).normal(size=20)
y_test = np.where(y_test > 0, 1.0, -1.0)
K_test = X_test @ X_test.T
a_test = smo_small(K_test, y_test, 1.0)
best_test = svm.smo(K_test, y_test, C=1.0, kernel="precomputed", tol=1e-10)
np.testing.assert_allclose(np.shape(a_test), (20,), err_msg="the shape of alpha")
np.testing.assert_allclose(
    svm.dual_objective(a_test, y_test, K_test),
    svm.dual_objective(best_test.alpha, y_test, K_test),
    rtol=1e-6,
)

# HIDDEN TEST: feasible (0 <= alpha <= C, y^T alpha = 0) and optimal (KKT), RBF kernel
rng_h = np.random.default_rng(list(b"development secret"))
X_h = rng_h.normal(size=(rng_h.integers(15, 40), rng_h.integers(1, 4)))
y_h = np.where(np.sum(X_h**2, axis=1) > np.median(np.sum(X_h**2, axis=1)), 1.0, -1.0)
K_h, C_h = kernels.rbf_kernel(X_h, gamma=rng_h.uniform(0.2, 2)), rng_h.uniform(0.5, 10)
a_h = smo_small(K_h, y_h, C_h)
assert np.shape(a_h) == (len(y_h),), (
    f"expected shape {(len(y_h),)}, got {np.shape(a_h)}"
)
assert np.all(a_h >= -1e-12) and np.all(a_h <= C_h + 1e-12), "alpha leaves [0, C]"
assert abs(a_h @ y_h) < 1e-8, f"y^T alpha = {a_h @ y_h}"
assert svm.kkt_violation(a_h, y_h, K_h, C_h) < 1e-6, "not optimal"

# HIDDEN TEST: on pure noise with a small C (many alpha at C), the optimal dual value
rng_h = np.random.default_rng(list(b"development secret"))
X_h = rng_h.normal(size=(rng_h.integers(15, 40), rng_h.integers(1, 4)))
y_h = np.where(rng_h.random(len(X_h)) < 0.5, 1.0, -1.0)
y_h[1] = -y_h[0]  # both classes
K_h, C_h = (
    kernels.rbf_kernel(X_h, gamma=rng_h.uniform(0.5, 2)),
    rng_h.uniform(0.01, 0.3),
)
a_h = smo_small(K_h, y_h, C_h)
best_h = svm.smo(K_h, y_h, C=C_h, kernel="precomputed", tol=1e-10)
np.testing.assert_allclose(
    svm.dual_objective(a_h, y_h, K_h),
    svm.dual_objective(best_h.alpha, y_h, K_h),
    rtol=1e-6,
)
assert np.all(a_h >= -1e-12) and np.all(a_h <= C_h + 1e-12), "alpha leaves [0, C]"
assert abs(a_h @ y_h) < 1e-8, f"y^T alpha = {a_h @ y_h}"

# %% [markdown]
# ```{exercise} Core · 3 points · about 40 min
# :label: ex-code-pegasos-loop
# Write `pegasos_loop(X, y, lam, idx)`, Pegasos with one sample per step on
# $f(w) = \frac\lambda2\|w\|^2 + \frac1n\sum_i [1 - y_i w^\top x_i]_+$ ({ref}`sec-svm-pegasos-rate`;
# no separate bias: the tests append a constant feature to `X`). Start from $w_1 = 0$; at step
# $t = 1, \dots, T$, with $T$ = `len(idx)`, take the sample $i$ = `idx[t - 1]` and step from
# $w_t$ by $\eta_t = 1/(\lambda t)$ along minus a subgradient of
# $\frac\lambda2\|w\|^2 + [1 - y_i w^\top x_i]_+$, using the hinge's subgradient
# $-y_i x_i$ when $y_i w_t^\top x_i < 1$ and $0$ otherwise. Projecting the new iterate onto
# the ball $\|w\| \le 1/\sqrt\lambda$, as Pegasos does, is up to you. Return the average of
# the iterates $w_{t+1}$ of the second half of the run, $t > T/2$. The grader checks that $f$
# at your average is within 2% of the minimum $f(w^*)$ (which it computes with a dual solver
# certified by its duality gap), that your iterates are Pegasos' (to a relative $10^{-6}$,
# with or without the projection; within 1.5% of `svm.pegasos` in the visible test) and that
# scaling $X$ by $s$ and $\lambda$ by $s^2$ divides the result by $s$. While this is graded,
# `mlnotes.svm.pegasos`, `mlnotes.svm.sgd_svm` and `mlnotes.svm.subgradient_svm` are
# unavailable.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def pegasos_loop(X, y, lam, idx):
    # BEGIN SOLUTION
    T = len(idx)
    w, w_sum = np.zeros(X.shape[1]), np.zeros(X.shape[1])
    for t, i in enumerate(idx, start=1):
        eta = 1.0 / (lam * t)
        inside = y[i] * (X[i] @ w) < 1.0  # the hinge is active at w_t
        w = (1.0 - eta * lam) * w
        if inside:
            w = w + eta * y[i] * X[i]
        w = w * min(1.0, 1.0 / (np.sqrt(lam) * np.linalg.norm(w) + 1e-300))
        if 2 * t > T:
            w_sum += w
    return w_sum / (T - T // 2)
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: pegasos-loop, points: 3, tier: core, minutes: 40,
#   withdraw: [mlnotes.svm.pegasos, mlnotes.svm.sgd_svm, mlnotes.svm.subgradient_svm]}
# TEST: 60 points, lam = 0.05, 30 epochs: svm.pegasos' result, and f within 2% of f(w*)
from scipy.optimize import minimize


def f_star(X, y, lam):
    """min f by the dual of the bias-free SVM (C = 1/(lam n)), certified by its gap."""
    n, B = len(y), y[:, None] * X
    C = 1.0 / (lam * n)
    a = np.zeros(n)
    for _ in range(5):
        a = minimize(lambda a: (0.5 * (B.T @ a) @ (B.T @ a) - a.sum(),
                                B @ (B.T @ a) - 1.0),
                     a, jac=True, method="L-BFGS-B", bounds=[(0.0, C)] * n,
                     options={"ftol": 1e-16, "gtol": 1e-12, "maxiter": 10_000}).x
        P = svm.hinge_objective(B.T @ a, 0.0, X, y, C)  # the bias-free primal, n C f
        if P - (a.sum() - 0.5 * (B.T @ a) @ (B.T @ a)) <= 1e-8 * P:
            return lam * P
    raise RuntimeError("the reference did not certify itself")


r_test = np.random.default_rng(73)
X_test = np.column_stack([r_test.normal(size=(60, 3)), np.ones(60)])
y_test = np.where(X_test[:, 0] - X_test[:, 1] + r_test.normal(size=60) > 0, 1.0, -1.0)
g_test = np.random.default_rng(173)  # the order in which svm.pegasos(rng=173) visits
idx_test = np.concatenate([g_test.permutation(60) for _ in range(30)])
w_test = pegasos_loop(X_test, y_test, 0.05, idx_test)
ref_test = svm.pegasos(X_test, y_test, C=1 / 3, n_epochs=30, fit_intercept=False,
                       rng=173)
assert np.shape(w_test) == (4,), f"expected shape (4,), got {np.shape(w_test)}"
assert np.linalg.norm(w_test - ref_test.w) <= 0.015 * np.linalg.norm(ref_test.w), (
    f"got {w_test}, svm.pegasos gives {ref_test.w}"
)
f_test = 0.05 * svm.hinge_objective(w_test, 0.0, X_test, y_test, 1 / 3)
assert f_test <= 1.02 * f_star(X_test, y_test, 0.05), f"f = {f_test:.5f}"

# HIDDEN TEST: the iterates are Pegasos', with or without the projection
import copy

rng_h = np.random.default_rng(list(b"development secret"))


def pegasos_reference(X, y, lam, idx, project):
    T, w, w_sum = len(idx), np.zeros(X.shape[1]), np.zeros(X.shape[1])
    for t, i in enumerate(idx, start=1):
        viol = y[i] * (X[i] @ w) < 1.0
        w = (1.0 - 1.0 / t) * w + (viol / (lam * t)) * y[i] * X[i]
        if project and np.linalg.norm(w) > 1.0 / np.sqrt(lam):
            w = w / (np.sqrt(lam) * np.linalg.norm(w))
        w_sum += w if 2 * t > T else 0.0
    return w_sum / (T - T // 2)


n_h, d_h = rng_h.integers(20, 60), rng_h.integers(1, 5)
X_h = np.column_stack([rng_h.normal(size=(n_h, d_h)), np.ones(n_h)])
y_h = np.where(X_h[:, 0] + rng_h.normal(size=n_h) > 0, 1.0, -1.0)
lam_h = 10 ** rng_h.uniform(-2, 0)
g_h = copy.deepcopy(rng_h)  # svm.pegasos(rng=rng_h) draws the same permutations
idx_h = np.concatenate([g_h.permutation(n_h) for _ in range(10)])
w_h = pegasos_loop(X_h, y_h, lam_h, idx_h)
assert np.shape(w_h) == (d_h + 1,), f"expected shape {(d_h + 1,)}, got {np.shape(w_h)}"
refs_h = [svm.pegasos(X_h, y_h, C=1 / (lam_h * n_h), n_epochs=10, fit_intercept=False,
                      rng=rng_h).w, pegasos_reference(X_h, y_h, lam_h, idx_h, False)]
dist_h = min(np.linalg.norm(w_h - r) / np.linalg.norm(r) for r in refs_h)
assert dist_h <= 1e-6, f"relative distance {dist_h:.2g} to Pegasos' average"

# HIDDEN TEST: f at the average is within 2% of the certified minimum f(w*)
from scipy.optimize import minimize

rng_h = np.random.default_rng(list(b"development secret"))


def f_star(X, y, lam):
    """As in the visible test."""
    n, B = len(y), y[:, None] * X
    C = 1.0 / (lam * n)
    a = np.zeros(n)
    for _ in range(5):
        a = minimize(lambda a: (0.5 * (B.T @ a) @ (B.T @ a) - a.sum(),
                                B @ (B.T @ a) - 1.0),
                     a, jac=True, method="L-BFGS-B", bounds=[(0.0, C)] * n,
                     options={"ftol": 1e-16, "gtol": 1e-12, "maxiter": 10_000}).x
        P = svm.hinge_objective(B.T @ a, 0.0, X, y, C)
        if P - (a.sum() - 0.5 * (B.T @ a) @ (B.T @ a)) <= 1e-8 * P:
            return lam * P
    raise RuntimeError("the reference did not certify itself")


n_h, d_h = rng_h.integers(30, 80), rng_h.integers(2, 6)
X_h = np.column_stack([rng_h.normal(size=(n_h, d_h)), np.ones(n_h)])
y_h = X_h[:, :d_h] @ rng_h.normal(size=d_h) + rng_h.normal(size=n_h)
y_h = np.where(y_h > 0, 1.0, -1.0)
lam_h = 10 ** rng_h.uniform(-1.7, -0.7)
idx_h = rng_h.integers(0, n_h, size=100 * n_h)  # 100 epochs: 2% holds for every secret
w_h = pegasos_loop(X_h, y_h, lam_h, idx_h)
assert np.shape(w_h) == (d_h + 1,), f"expected shape {(d_h + 1,)}, got {np.shape(w_h)}"
f_h = lam_h * svm.hinge_objective(w_h, 0.0, X_h, y_h, 1 / (lam_h * n_h))
f_opt_h = f_star(X_h, y_h, lam_h)
assert f_h <= 1.02 * f_opt_h, f"f = {f_h:.5f}, f(w*) = {f_opt_h:.5f}"

# HIDDEN TEST: scaling X by s and lam by s^2 divides the average by s
rng_h = np.random.default_rng(list(b"development secret"))
n_h, d_h = rng_h.integers(10, 50), rng_h.integers(1, 5)
X_h = np.column_stack([rng_h.normal(size=(n_h, d_h)), np.ones(n_h)])
y_h = np.where(X_h[:, 0] + rng_h.normal(size=n_h) > 0, 1.0, -1.0)
lam_h, s_h = 10 ** rng_h.uniform(-2, 0), 10 ** rng_h.uniform(-1, 1)
idx_h = rng_h.integers(0, n_h, size=rng_h.integers(5, 20) * n_h)
w_h = pegasos_loop(X_h, y_h, lam_h, idx_h)
ws_h = pegasos_loop(s_h * X_h, y_h, s_h**2 * lam_h, idx_h)
assert np.shape(w_h) == np.shape(ws_h) == (d_h + 1,), f"shapes {np.shape(w_h)}"
np.testing.assert_allclose(s_h * ws_h, w_h, rtol=1e-8, atol=1e-10, strict=True)

# %% [markdown]
# ```{exercise} Core · 3 points · about 35 min
# :label: ex-code-svm-validation-c
# An experiment on `heart_scale` ({ref}`sec-svm-real-data`). Write
# `validate_c(X, y, train, val, test, Cs)`: `train`, `val` and `test` are disjoint arrays of
# row indices and `Cs` an increasing list of values of $C$. For each $C$, train a linear
# soft-margin SVM on the training rows with `svm.smo(..., kernel="linear")` (with a very
# small $C$ there may be no margin support vector: `smo` then takes $b$ in the middle of
# its interval, {ref}`ex-svm-bias-interval`) and compute its error rate on the validation
# rows (the fraction misclassified by the sign of $f(x) = w^\top x + b$). Choose `C_best`, the $C$ of
# smallest validation error (the smallest such $C$ on ties), and return the triple
# `(val_errors, C_best, test_error)`: the array of validation error rates, one per $C$,
# `C_best`, and the error rate on the test rows of the machine trained on the training rows
# with `C_best`. The grader repeats the experiment with `svm.smo` on its own splits (random
# in the hidden tests) and accepts error rates within two samples of its own ($2/n_{val}$,
# $2/n_{test}$) and a `C_best` whose validation error (by the grader) is within one sample
# of the smallest.
# ```

# %% jupyter={"source_hidden": true} mystnb={"code_prompt_hide": "Hide solution", "code_prompt_show": "Solution"} tags=["hide-input"]
def validate_c(X, y, train, val, test, Cs):
    # BEGIN SOLUTION
    fits = [svm.smo(X[train], y[train], C=C, kernel="linear") for C in Cs]
    val_errors = np.array([np.mean(fit.predict(X[val]) != y[val]) for fit in fits])
    best = int(np.argmin(val_errors))  # the first minimum: the smallest C on ties
    test_error = float(np.mean(fits[best].predict(X[test]) != y[test]))
    return val_errors, float(Cs[best]), test_error
    # END SOLUTION


# %% jupyter={"source_hidden": true} tags=["remove-cell"]
# Tests of the exercise above (the autograder of its assignment runs them)
# QUESTION {name: svm-validation-c, points: 3, tier: core, minutes: 35,
#   data: heart_scale}
# TEST: 90 training, 90 validation and 90 test rows, C in 0.001, 0.03, 0.3, 3
def check_validation(X, y, train, val, test, Cs, got):
    """The grader's own experiment with svm.smo, and the tolerances of the prompt."""
    assert len(got) == 3, f"expected (val_errors, C_best, test_error), got {got!r}"
    val_errors, C_best, test_error = got
    fits = [svm.smo(X[train], y[train], C=C, kernel="linear") for C in Cs]
    ref_val = np.array([np.mean(f.predict(X[val]) != y[val]) for f in fits])
    assert np.shape(val_errors) == (len(Cs),), f"{len(Cs)} validation errors expected"
    np.testing.assert_allclose(val_errors, ref_val, rtol=0, atol=2.01 / len(val),
                               err_msg="the validation error rates")
    k = int(np.argmin(np.abs(np.asarray(Cs) - C_best)))
    assert np.isclose(Cs[k], C_best, rtol=1e-12), f"C_best = {C_best!r} is not in Cs"
    assert ref_val[k] <= ref_val.min() + 1.01 / len(val), (
        f"C_best = {C_best:g} has validation error {ref_val[k]:.3f}, "
        f"the best {ref_val.min():.3f}"
    )
    ref_test = np.mean(fits[k].predict(X[test]) != y[test])
    close = abs(test_error - ref_test) <= 2.01 / len(test)
    assert np.ndim(test_error) == 0 and close, (
        f"test error {test_error!r}, the grader's {ref_test:.4f}"
    )


hs_test = load_heart_scale()
p_test = np.random.default_rng(5).permutation(270)
got_test = validate_c(hs_test.X, hs_test.y, p_test[:90], p_test[90:180], p_test[180:],
                      [0.001, 0.03, 0.3, 3.0])
check_validation(hs_test.X, hs_test.y, p_test[:90], p_test[90:180], p_test[180:],
                 [0.001, 0.03, 0.3, 3.0], got_test)

# HIDDEN TEST: the grader's validation and test errors on a random split and grid
rng_h = np.random.default_rng(list(b"development secret"))


def check_validation(X, y, train, val, test, Cs, got):
    """As in the visible test."""
    assert len(got) == 3, f"expected (val_errors, C_best, test_error), got {got!r}"
    val_errors, C_best, test_error = got
    fits = [svm.smo(X[train], y[train], C=C, kernel="linear") for C in Cs]
    ref_val = np.array([np.mean(f.predict(X[val]) != y[val]) for f in fits])
    assert np.shape(val_errors) == (len(Cs),), f"{len(Cs)} validation errors expected"
    np.testing.assert_allclose(val_errors, ref_val, rtol=0, atol=2.01 / len(val),
                               err_msg="the validation error rates")
    k = int(np.argmin(np.abs(np.asarray(Cs) - C_best)))
    assert np.isclose(Cs[k], C_best, rtol=1e-12), f"C_best = {C_best!r} is not in Cs"
    assert ref_val[k] <= ref_val.min() + 1.01 / len(val), (
        f"C_best = {C_best:g} has validation error {ref_val[k]:.3f}, "
        f"the best {ref_val.min():.3f}"
    )
    ref_test = np.mean(fits[k].predict(X[test]) != y[test])
    close = abs(test_error - ref_test) <= 2.01 / len(test)
    assert np.ndim(test_error) == 0 and close, (
        f"test error {test_error!r}, the grader's {ref_test:.4f}"
    )


hs_h = load_heart_scale()
p_h = rng_h.permutation(len(hs_h.y))
n_tr, n_va = rng_h.integers(60, 100), rng_h.integers(50, 80)
tr_h, va_h, te_h = p_h[:n_tr], p_h[n_tr:n_tr + n_va], p_h[n_tr + n_va:]
Cs_h = [float(10 ** rng_h.uniform(lo, lo + 0.8)) for lo in range(-3, 1)]
check_validation(hs_h.X, hs_h.y, tr_h, va_h, te_h, Cs_h,
                 validate_c(hs_h.X, hs_h.y, tr_h, va_h, te_h, Cs_h))

# HIDDEN TEST: the same on a random subsample, validation and test of equal size
rng_h = np.random.default_rng(list(b"development secret"))


def check_validation(X, y, train, val, test, Cs, got):
    """As in the visible test."""
    assert len(got) == 3, f"expected (val_errors, C_best, test_error), got {got!r}"
    val_errors, C_best, test_error = got
    fits = [svm.smo(X[train], y[train], C=C, kernel="linear") for C in Cs]
    ref_val = np.array([np.mean(f.predict(X[val]) != y[val]) for f in fits])
    assert np.shape(val_errors) == (len(Cs),), f"{len(Cs)} validation errors expected"
    np.testing.assert_allclose(val_errors, ref_val, rtol=0, atol=2.01 / len(val),
                               err_msg="the validation error rates")
    k = int(np.argmin(np.abs(np.asarray(Cs) - C_best)))
    assert np.isclose(Cs[k], C_best, rtol=1e-12), f"C_best = {C_best!r} is not in Cs"
    assert ref_val[k] <= ref_val.min() + 1.01 / len(val), (
        f"C_best = {C_best:g} has validation error {ref_val[k]:.3f}, "
        f"the best {ref_val.min():.3f}"
    )
    ref_test = np.mean(fits[k].predict(X[test]) != y[test])
    close = abs(test_error - ref_test) <= 2.01 / len(test)
    assert np.ndim(test_error) == 0 and close, (
        f"test error {test_error!r}, the grader's {ref_test:.4f}"
    )


hs_h = load_heart_scale()
p_h = rng_h.permutation(len(hs_h.y))[: rng_h.integers(180, 240)]
n_ho = len(p_h) // 3
tr_h, va_h, te_h = p_h[2 * n_ho:], p_h[:n_ho], p_h[n_ho:2 * n_ho]
Cs_h = [float(10 ** rng_h.uniform(-3.5, -2.5))] + sorted(
    float(10 ** rng_h.uniform(-2, 0.5)) for _ in range(3)
)
check_validation(hs_h.X, hs_h.y, tr_h, va_h, te_h, Cs_h,
                 validate_c(hs_h.X, hs_h.y, tr_h, va_h, te_h, Cs_h))

# %% [markdown]
# ```{exercise}
# :label: ex-pegasos-uniform-average
# Run the proof of {prf:ref}`thm-pegasos-rate` with Pegasos' original steps
# $\eta_t = 1/(\lambda t)$ and the plain average $\bar w_T = \frac1T \sum_{t \le T} w_t$.
# (a) Show that the distance terms of {eq}`eq-pegasos-one-step`, summed without weights,
# telescope to at most 0. (b) Conclude that
# $\E f(\bar w_T) - f(w^*) \le \frac{G^2 (1 + \ln T)}{2\lambda T}$. (c) Where does the
# proof use the projection, and what would $G$ be without it?
# ```
#
# ```{solution} ex-pegasos-uniform-average
# :class: dropdown
# (a) With $1/(2\eta_t) = \lambda t/2$ the right side of {eq}`eq-pegasos-one-step` is
# $\frac\lambda2 (t - 1)\|w_t - u\|^2 - \frac\lambda2 t\|w_{t+1} - u\|^2 + \eta_t\|g_t\|^2/2$:
# the distance terms are $b_t - b_{t+1}$ with $b_t = \frac\lambda2 (t-1)\|w_t - u\|^2$, and
# they sum to $b_1 - b_{T+1} \le 0$ since $b_1 = 0$.
# (b) The rest sums to $\sum_t \frac{G^2}{2\lambda t} \le \frac{G^2}{2\lambda}(1 + \ln T)$.
# Taking expectations as in the theorem, dividing by $T$ and using Jensen on the plain average
# gives the bound: a factor $\ln T$ worse than the weighted average.
# (c) In two places: $\|w_{t+1} - u\| \le \|w_t - \eta_t g_t - u\|$ (non-expansiveness, which
# needs $u = w^*$ in the ball), and $\|g_t\| \le \lambda\|w_t\| + R \le \sqrt\lambda + R$. Without
# the projection $\|w_t\|$ is still bounded (by induction $\|w_t\| \le R/\lambda$, the
# iterate being an average of data terms by {eq}`eq-pegasos-step`), so $G = 2R$ would do,
# a larger constant for small $\lambda$.
# ```
#
# ```{exercise}
# :label: ex-l2svm-limits
# For the squared-slack SVM {eq}`def-l2svm-primal`:
# (a) write its primal as $\frac12\|w\|^2 + C\sum_i [1 - y_i f(x_i)]_+^2$ and compute its
# gradient in $(w, b)$; why is the primal differentiable while the hinge's is not?
# (b) Show from {eq}`eq-l2svm-dual` that as $C \to \infty$ the problem becomes the hard-margin
# SVM when the data are separable, and that for any finite $C$ the dual has a unique solution
# even when $K$ is singular (for instance more samples than features, linear kernel).
# ```
#
# ```{solution} ex-l2svm-limits
# :class: dropdown
# (a) $u \mapsto [1 - u]_+^2$ has derivative $-2[1 - u]_+$, continuous at $u = 1$ (both sides
# give 0), so $\nabla_w = w - 2C\sum_i [1 - y_i f(x_i)]_+\, y_i x_i$ and
# $\partial_b = -2C\sum_i [1 - y_i f(x_i)]_+\, y_i$. The hinge $[1 - u]_+$ has a kink at
# $u = 1$ (slopes $-1$ and $0$), where only a subgradient exists. Note $2C[1 - y_i f(x_i)]_+ =
# 2C\xi_i = \alpha_i$: the gradient is $w - \sum_i \alpha_i y_i x_i$, zero at the optimum.
# (b) As $C \to \infty$ the term $\alpha^\top \alpha / (4C)$ vanishes and the dual becomes
# {eq}`eq-hard-dual`, whose optimum is finite when the data are separable. For finite $C$ the
# quadratic form has matrix $\diag(y)(K + I/(2C))\diag(y)$, positive definite because $K$ is
# positive semidefinite; a strictly concave function has at most one maximiser on a convex set.
# ```
#
# ```{exercise}
# :label: ex-qp-no-slater
# (a) Take $\min x^2 + x$ subject to $x \le 0$ and $-x \le 0$. Show that no point is strictly
# feasible, compute the dual function $\theta(\mu_1, \mu_2)$, and check that $d^* = p^*$ as
# {prf:ref}`thm-qp-strong-duality` says. Is the dual optimum unique?
# (b) Why does the proof of {prf:ref}`thm-qp-strong-duality` fail for the constraint
# $x^2 / y \le 0$ of the erratum above?
# ```
#
# ```{solution} ex-qp-no-slater
# :class: dropdown
# (a) The only feasible point is $x = 0$, with both constraints active, so $p^* = 0$ and no
# point has both $x < 0$ and $-x < 0$. $L = x^2 + x + (\mu_1 - \mu_2) x$ is minimised at
# $x = -(1 + \mu_1 - \mu_2)/2$, so $\theta(\mu) = -(1 + \mu_1 - \mu_2)^2/4 \le 0$, with
# maximum $0 = p^*$ at every $\mu \ge 0$ with $\mu_2 - \mu_1 = 1$: attained, and not unique
# (the two constraints are the same line).
# (b) The first step of the proof uses that an affine constraint active at $x^*$ stays
# satisfied along every $d$ with $a_i^\top d \le 0$: its linearisation is exact. For the
# curved constraint the linearisation at $x^* = (0, y)$ is $0 \le 0$ in every direction (its
# gradient vanishes there), so it admits directions that leave the feasible set, and the
# multiplier the proof would build does not exist.
# ```
#
# ```{exercise}
# :label: ex-cs-two-classes
# Take the joint machine {eq}`def-crammer-singer` with $K = 2$ and no bias.
# (a) Show from {eq}`eq-cs-stationarity` that $\sum_k w_k = 0$ at every dual point, so at the
# optimum $w_2 = -w_1$. (b) Show that $v = w_1 - w_2$ then minimises the binary soft-margin
# objective $\frac12\|v\|^2 + C' \sum_i \max(0, 1 - y_i v^\top x_i)$ (labels $+1$ for class 1,
# $-1$ for class 2) with $C' = 2C$. (c) Which of the two conclusions fails with $K = 3$?
# ```
#
# ```{solution} ex-cs-two-classes
# :class: dropdown
# (a) $\sum_m w_m = \sum_i \big(C \sum_m \delta_{m y_i} - \sum_m \alpha_{im}\big) x_i =
# \sum_i (C - C)\, x_i = 0$, using $\sum_k \alpha_{ik} = C$ from {eq}`eq-cs-dual`.
# (b) With $w_1 = v/2$, $w_2 = -v/2$ the only non-zero margin of sample $i$ is
# $g_{ik} = 1 - y_i v^\top x_i$ for the wrong class $k$, so
# $P = \frac14\|v\|^2 + C \sum_i \max(0, 1 - y_i v^\top x_i)$, which is half of the binary
# objective with $C' = 2C$: the two have the same minimiser. (c) (a) holds for every $K$;
# (b) does not: with $K = 3$ the hinge of a sample is a maximum over two wrong classes, and no
# single binary machine reproduces it.
# ```

# %% [markdown]
# ## Summary
#
# - The maximum-margin hyperplane solves the convex QP $\min\frac12\|w\|^2$ s.t.
#   $y_i(w^\top x_i + b) \ge 1$; its margin is $1/\|w\|$.
# - The dual function lower-bounds the primal (weak duality); under Slater's condition the
#   bound is tight, and the optimum is characterised by the KKT conditions.
# - The SVM dual depends on the data through $K_{ik} = x_i^\top x_k$ only; $w = \sum_i\alpha_i y_i
#   x_i$ is carried by the support vectors. The soft margin caps $\alpha_i \le C$; points are
#   outside the margin ($\alpha_i = 0$), on it ($0 < \alpha_i < C$) or inside it ($\alpha_i = C$).
# - The soft-margin SVM is hinge loss plus $\lambda\|w\|^2$ with $\lambda = 1/(2C)$.
# - Primal subgradient methods are simple and cheap per step but slow to converge; SMO with
#   second-order pair selection solves the dual to any tolerance, with a certificate: the KKT
#   violation $m(\alpha) - M(\alpha)$.
# - Multiclass: one-vs-rest, one-vs-one (libsvm), or the joint Crammer-Singer machine.
#
# ## References
#
# The SVM with soft margin is due to {cite}`cortes1995support`; duality and the KKT conditions
# are in {cite}`boyd2004convex` (chapter 5). SMO is {cite}`platt1998sequential`, its
# second-order working-set selection {cite}`fan2005working`, and libsvm is described in
# {cite}`chang2011libsvm`. Pegasos is {cite}`shalevshwartz2011pegasos`.
