"""optim: the line searches against scipy.optimize.minimize_scalar and their optimality
conditions; step sizes, gradient descent and the subgradient method against their formulas,
scipy.optimize.minimize and the subgradient method's bound; argument checks and warnings."""

import inspect
import re
import warnings

import numpy as np
import pytest
from scipy.optimize import brentq, minimize, minimize_scalar
from scipy.special import expit
from warning_site import points_at

from mlnotes import losses, optim
from mlnotes._validation import ConvergenceWarning


def _instance(rng, loss):
    n, d = int(rng.integers(1, 40)), int(rng.integers(1, 6))
    X = rng.standard_normal((n, d)) * rng.uniform(0.1, 3.0)
    y = rng.choice([-1.0, 1.0], n)
    w = rng.standard_normal(d) * rng.uniform(0.0, 2.0)
    direction = rng.standard_normal(d)
    lam = float(rng.choice([0.0, 10 ** rng.uniform(-3, 1)]))
    phi = losses.hinge if loss == "hinge" else losses.log_loss

    def g(t):
        v = w + t * direction
        return float(np.mean(phi(y * (X @ v))) + lam / 2 * v @ v)

    return X, y, w, direction, lam, g


@pytest.mark.parametrize("loss", ["hinge", "log"])
def test_line_search_matches_scipy_minimize_scalar(loss):
    rng = np.random.default_rng(7)
    n_finite = 0
    for _ in range(400):
        X, y, w, d, lam, g = _instance(rng, loss)
        t = optim.margin_line_search(X, y, w, d, loss=loss, lam=lam)
        assert t >= 0
        if not np.isfinite(t):
            continue
        n_finite += 1
        ref = minimize_scalar(g, bounds=(0.0, max(10.0, 4 * t)), method="bounded",
                              options={"xatol": 1e-12})
        best = min(ref.fun, g(0.0))
        assert g(t) <= best + 1e-12 * max(1.0, abs(best)), (g(t), best, t, ref.x)
        if loss == "log" and lam > 0:  # strictly convex: the minimiser itself agrees
            np.testing.assert_allclose(t, ref.x if ref.fun < g(0.0) else 0.0,
                                       atol=1e-5 * max(1.0, t))
    assert n_finite > 300


def test_hinge_step_satisfies_the_subgradient_condition():
    # 0 lies between the left and right derivatives of g at the returned t (t = 0: right >= 0)
    rng = np.random.default_rng(11)
    h = 1e-7
    for _ in range(300):
        X, y, w, d, lam, g = _instance(rng, "hinge")
        t = optim.margin_line_search(X, y, w, d, loss="hinge", lam=lam)
        right = (g(t + h) - g(t)) / h
        assert right >= -1e-6
        if t > h:
            assert (g(t) - g(t - h)) / h <= 1e-6


def test_log_step_is_a_root_of_the_derivative():
    rng = np.random.default_rng(12)
    for _ in range(200):
        X, y, w, d, lam, g = _instance(rng, "log")
        t = optim.margin_line_search(X, y, w, d, loss="log", lam=lam)
        if not np.isfinite(t) or t == 0:
            continue
        M, s = y * (X @ w), y * (X @ d)
        slope = np.mean(losses.log_loss_derivative(M + t * s) * s) + lam * (w + t * d) @ d
        assert abs(slope) <= 1e-9 * max(1.0, np.abs(s).max() + lam * d @ d)


def test_separable_direction_without_penalty_has_no_minimiser():
    X = np.array([[1.0, 0.5], [-1.0, 0.2]])
    y = np.array([1.0, -1.0])
    assert optim.margin_line_search(X, y, np.zeros(2), np.array([1.0, 0.0]), loss="log") == np.inf
    # the hinge stops where every margin reaches 1
    assert optim.margin_line_search(X, y, np.zeros(2), np.array([1.0, 0.0])) == 1.0


def test_ascent_direction_gives_zero():
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    y = np.array([1.0, 1.0])
    for loss in ("hinge", "log"):
        assert optim.margin_line_search(X, y, np.zeros(2), np.array([-1.0, -1.0]),
                                        loss=loss) == 0.0


@pytest.mark.parametrize(("kw", "match"), [({"loss": "exp"}, "loss"), ({"lam": -1.0}, "lam"),
                                           ({"tol": 0.0}, "tol")])
def test_line_search_checks_its_options(kw, match):
    X = np.eye(2)
    with pytest.raises(ValueError, match=match):
        optim.margin_line_search(X, np.ones(2), np.zeros(2), np.ones(2), **kw)


def test_line_search_checks_shapes():
    with pytest.raises(ValueError, match="direction"):
        optim.margin_line_search(np.eye(2), np.ones(2), np.zeros(2), np.ones(3))
    with pytest.raises(ValueError, match="w must"):
        optim.margin_line_search(np.eye(2), np.ones(2), np.zeros(3), np.ones(2))


# -- step sizes, gradient descent and the subgradient method ---------------------------------

METHODS = {
    "gradient_descent": lambda **kw: optim.gradient_descent(lambda w: 2 * w, **kw),
    "subgradient_method": lambda **kw: optim.subgradient_method(
        lambda w: float(np.abs(w).sum()), np.sign, **kw),
}


def _quadratic():
    """f(w) = w'Aw/2 - b'w, strongly convex (eigenvalues of A in [1.38, 3.62])."""
    A, b = np.array([[3.0, 1.0], [1.0, 2.0]]), np.array([1.0, -1.0])
    return (lambda w: float(0.5 * w @ A @ w - b @ w)), (lambda w: A @ w - b)


def _no_warning(call):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return call()


def _warned(call):
    """Run call; it must warn exactly once, a ConvergenceWarning that points at the line of
    the test calling the method (stacklevel 2: neither the library's line nor the line below,
    which calls `call`). Returns the result and the message."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        here = inspect.currentframe().f_lineno + 1
        res = call()
    assert [w.category for w in caught] == [ConvergenceWarning], [str(w.message) for w in caught]
    assert points_at(caught[0], __file__) and caught[0].lineno != here
    return res, str(caught[0].message)


def _one_warning(call, match):
    res, message = _warned(call)
    assert re.search(match, message), message
    return res


@pytest.mark.parametrize(("eta", "p", "T"), [(0.5, 1.0, 4), (0.3, 0.5, 7), (2.0, 0.0, 3), (1.5, 0.75, 5)])
def test_step_sizes_are_eta_times_t_to_the_minus_p(eta, p, T):
    got = optim.step_sizes(eta, p, T)
    assert got.dtype == np.float64 and got.shape == (T,)
    np.testing.assert_allclose(got, [eta * t ** -p for t in range(1, T + 1)], rtol=1e-15)


def test_step_sizes_of_the_docstring_and_an_empty_schedule():
    np.testing.assert_allclose(optim.step_sizes(0.5, 1.0, 4), [0.5, 0.25, 1 / 6, 0.125])
    empty = optim.step_sizes(0.1, 0.5, 0)
    assert empty.shape == (0,) and empty.dtype == np.float64


@pytest.mark.parametrize(("kw", "match"), [
    ({"eta": 0.0}, r"^eta must be positive"), ({"eta": -1.0}, r"^eta must be positive"),
    ({"power_t": -0.5}, r"^power_t must be non-negative"),
    ({"n_updates": -1}, r"^n_updates must be an integer >= 0"),
    ({"n_updates": 1.5}, r"^n_updates must be an integer >= 0"),
])
def test_step_sizes_checks_name_their_argument(kw, match):
    args = {"eta": 0.1, "power_t": 0.5, "n_updates": 3} | kw
    with pytest.raises(ValueError, match=match):
        optim.step_sizes(**args)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(("kw", "match"), [
    ({"eta": 0.0}, r"^eta must be positive"), ({"power_t": -1.0}, r"^power_t must be non-negative"),
    ({"tol": -1e-3}, r"^tol must be non-negative"), ({"max_iter": 0}, r"^max_iter must be an integer >= 1"),
    ({"w0": np.ones((2, 1))}, r"^w0 must be a 1-D array"),
])
def test_first_order_methods_check_arguments_by_name(method, kw, match):
    args = {"w0": np.ones(2), "eta": 0.1} | kw
    with pytest.raises(ValueError, match=match):
        METHODS[method](**args)


def test_first_order_methods_name_a_callable_that_is_not_one():
    w0 = np.ones(2)
    with pytest.raises(TypeError, match=r"^grad must be callable"):
        optim.gradient_descent(3.0, w0, eta=0.1)
    with pytest.raises(TypeError, match=r"^f must be callable"):
        optim.gradient_descent(lambda w: 2 * w, w0, eta=0.1, f="w @ w")
    with pytest.raises(TypeError, match=r"^f must be callable"):
        optim.subgradient_method(None, np.sign, w0, eta=0.1)
    with pytest.raises(TypeError, match=r"^subgrad must be callable"):
        optim.subgradient_method(np.sum, 1.0, w0, eta=0.1)


def test_gradient_descent_converges_to_scipys_minimiser_descending_all_the_way():
    f, grad = _quadratic()
    w0 = np.array([2.0, -3.0])
    res = _no_warning(lambda: optim.gradient_descent(grad, w0, eta=0.25, tol=1e-10, f=f))
    ref = minimize(f, w0, jac=grad, method="BFGS", options={"gtol": 1e-12})
    np.testing.assert_allclose(res.w, ref.x, atol=1e-9)
    assert res.converged is True
    assert np.linalg.norm(grad(res.w)) <= 1e-10 < np.linalg.norm(grad(res.path[-2]))  # the first such
    assert w0.tolist() == [2.0, -3.0]  # not modified
    assert res.n_iter == len(res.path) - 1 == len(res.objective) - 1 == len(res.eta) > 10
    np.testing.assert_array_equal(res.path[0], w0)
    np.testing.assert_array_equal(res.path[-1], res.w)
    np.testing.assert_array_equal(res.eta, np.full(res.n_iter, 0.25))  # power_t = 0: constant
    np.testing.assert_allclose(res.objective, [f(p) for p in res.path], rtol=1e-15)
    assert np.all(np.diff(res.objective) <= 1e-15)  # a descent method at eta < 2 / L
    assert np.all(np.diff(res.objective[:20]) < 0)
    np.testing.assert_array_equal(res.best, np.minimum.accumulate(res.objective))
    for k, p in enumerate(res.path[1:]):  # w_{t+1} = w_t - eta grad(w_t)
        np.testing.assert_allclose(p, res.path[k] - 0.25 * grad(res.path[k]), rtol=1e-14, atol=1e-15)


def test_gradient_descent_with_decaying_steps_and_no_f():
    f, grad = _quadratic()
    res = _no_warning(lambda: optim.gradient_descent(grad, np.zeros(2), eta=0.4, power_t=0.5, tol=1e-6))
    np.testing.assert_allclose(res.eta, 0.4 * np.arange(1, res.n_iter + 1) ** -0.5, rtol=1e-15)
    assert res.converged and np.isnan(res.objective).all() and res.objective.shape == (res.n_iter + 1,)
    np.testing.assert_allclose(res.w, np.linalg.solve([[3.0, 1.0], [1.0, 2.0]], [1.0, -1.0]), atol=1e-6)


def test_gradient_descent_default_tol_and_max_iter():
    # w_t = (1/2)^t w_0 and ||grad(w_t)|| = 2 sqrt(2) / 2^t: the first t with that <= 1e-8
    res = _no_warning(lambda: optim.gradient_descent(lambda w: 2 * w, np.array([1.0, -1.0]), eta=0.25))
    assert res.n_iter == next(t for t in range(100) if 2 * np.sqrt(2) / 2.0**t <= 1e-8) == 29
    # a linear f has no minimiser: the default max_iter = 1000 steps, then a warning
    res = _one_warning(lambda: optim.gradient_descent(lambda w: np.ones_like(w), np.zeros(2), eta=0.1),
                       r"^gradient descent did not reach \|\|grad\|\| <= tol=1e-08 in max_iter=1000$")
    assert res.n_iter == 1000 and res.converged is False
    np.testing.assert_allclose(res.w, [-100.0, -100.0])


def test_gradient_descent_at_exactly_tol():
    # eta = 1/2 on f = ||w||^2 lands on w = 0 in one step: ||grad|| = 0 <= tol = 0 (tol 0 allowed)
    res = _no_warning(lambda: optim.gradient_descent(lambda w: 2 * w, np.array([1.0, -2.0]), eta=0.5, tol=0.0))
    assert res.converged is True and res.n_iter == 1 and res.w.tolist() == [0.0, 0.0]
    # the same with max_iter = 1: the test after the last step sees ||grad|| = 0 <= 0 too
    res = _no_warning(lambda: optim.gradient_descent(lambda w: 2 * w, np.array([1.0, -2.0]), eta=0.5,
                                                     tol=0.0, max_iter=1))
    assert res.converged is True and res.n_iter == 1


def _grad_then(bad, calls):
    """grad = 2w for `calls` calls, then `bad` (what a broken or overflowing grad returns)."""
    n = [0]

    def grad(w):
        n[0] += 1
        return 2 * w if n[0] <= calls else bad
    return grad


def test_gradient_descent_checks_the_gradient_after_the_last_step():
    w0 = np.array([1.0, -2.0])
    with pytest.raises(ValueError, match=r"^grad returned NaN"):
        optim.gradient_descent(_grad_then(np.array([np.nan, 0.0]), 2), w0, eta=0.1, max_iter=2)
    with pytest.raises(ValueError, match=r"^grad must return an array of shape \(2,\)"):
        optim.gradient_descent(_grad_then(np.zeros(3), 2), w0, eta=0.1, max_iter=2)
    with pytest.raises(ValueError, match=r"^grad must return an array of shape \(2,\)"):
        optim.gradient_descent(_grad_then(np.zeros(3), 1), w0, eta=0.1, max_iter=5)
    # an inf there is an overflow of the iterates, not an error: not converged, warned
    res = _one_warning(lambda: optim.gradient_descent(_grad_then(np.array([np.inf, 1.0]), 2), w0,
                                                      eta=0.1, max_iter=2), r"did not reach")
    assert res.converged is False and res.n_iter == 2


def test_gradient_descent_divergence_is_warned_not_raised():
    # eta = 2 > 2 / L = 1 on ||w||^2: w_t = (-3)^t w_0, stopped at the first ||w_t|| > 1e150
    def f(w):
        with np.errstate(over="ignore"):
            return float(np.sum(w**4))  # overflows to inf: allowed in the trace

    res = _one_warning(lambda: optim.gradient_descent(lambda w: 2 * w, np.array([1.0]), eta=2.0, f=f),
                       r"^gradient descent diverged after 315 steps with eta=2.0$")
    assert res.n_iter == next(t for t in range(1000) if 3.0**t > 1e150) == 315
    assert res.converged is False and np.isfinite(res.path).all()
    assert res.objective[0] == 1.0 and res.objective[-1] == np.inf and res.best[-1] == 1.0
    # a gradient that overflows (w^3 at 1e120) stops the method with the same warning and no
    # numpy RuntimeWarning from inside grad
    res = _one_warning(lambda: optim.gradient_descent(lambda w: w**3, np.array([1e120, 0.0]), eta=0.1),
                       r"^gradient descent diverged after 0 steps")
    assert res.converged is False and res.n_iter == 0 and res.w.tolist() == [1e120, 0.0]


def test_gradient_descent_divergence_guard_at_exactly_1e150():
    # a constant gradient -1e150 from 0: ||w_1|| = 1e150 is not above the guard, ||w_2|| is
    res = _one_warning(lambda: optim.gradient_descent(lambda w: np.array([-1e150]), np.zeros(1), eta=1.0),
                       r"diverged after 2 steps")
    assert res.path[:, 0].tolist() == [0.0, 1e150, 2e150]


def test_gradient_descent_nan_from_grad_is_an_error_without_numpy_warnings():
    # grad of ||w||^3 at huge w: inf * 0 = NaN inside grad, reported as grad's NaN only
    def grad(w):
        return 3 * np.sqrt(w @ w) * w

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"^grad returned NaN"):
            optim.gradient_descent(grad, np.array([0.0, 1e200]), eta=0.1)


def _l1_offset(w):
    return float(abs(w[0] - 1.0) + 2 * abs(w[1] + 0.5) + 3.0)


def _l1_offset_subgrad(w):
    return np.array([np.sign(w[0] - 1.0), 2 * np.sign(w[1] + 0.5)])


def test_subgradient_method_reaches_f_star_and_returns_the_best_iterate():
    # min 3 at (1, -1/2); f_star = 3 is not 0, so min f - f_star is not min f + f_star
    res = _no_warning(lambda: optim.subgradient_method(_l1_offset, _l1_offset_subgrad, np.zeros(2),
                                                       eta=0.5, f_star=3.0, tol=1e-3, max_iter=20000))
    assert res.converged is True
    assert res.best[-1] - 3.0 <= 1e-3 < res.best[-2] - 3.0  # stopped at the first such
    k = int(np.argmin(res.objective))
    np.testing.assert_array_equal(res.w, res.path[k])
    assert _l1_offset(res.w) == res.objective.min() and k > 0
    assert res.n_iter == len(res.path) - 1 == len(res.objective) - 1 == len(res.eta)
    np.testing.assert_allclose(res.eta, 0.5 * np.arange(1, res.n_iter + 1) ** -0.5, rtol=1e-15)  # p = 1/2
    np.testing.assert_allclose(res.objective, [_l1_offset(p) for p in res.path], rtol=1e-15)
    np.testing.assert_array_equal(res.best, np.minimum.accumulate(res.objective))


def test_subgradient_method_meets_its_convergence_bound_and_default_max_iter():
    # without f_star: max_iter = 1000 steps, converged False, no warning; min f - f* within
    # (||w0 - w*||^2 + sum eta_t^2 ||v_t||^2) / (2 sum eta_t), ||v_t||^2 <= 5
    w0 = np.array([4.0, 2.0])
    res = _no_warning(lambda: optim.subgradient_method(_l1_offset, _l1_offset_subgrad, w0, eta=0.3,
                                                       power_t=0.75))
    assert res.n_iter == 1000 and res.converged is False
    eta = 0.3 * np.arange(1, 1001) ** -0.75
    bound = (np.sum((w0 - [1.0, -0.5]) ** 2) + 5 * np.sum(eta**2)) / (2 * np.sum(eta))
    assert 0 <= res.best[-1] - 3.0 <= bound


def test_subgradient_method_ties_at_exactly_tol():
    # f(w0) - f_star = 1.5 - 0.5 = tol: converged before any step
    res = _no_warning(lambda: optim.subgradient_method(lambda w: float(abs(w[0]) + 0.5), np.sign,
                                                       np.array([1.0]), eta=0.5, f_star=0.5, tol=1.0))
    assert res.converged is True and res.n_iter == 0 and res.w.tolist() == [1.0]
    # one step of 1/2 from 1: f = 2.5 = f_star + tol after the last step
    res = _no_warning(lambda: optim.subgradient_method(lambda w: float(abs(w[0]) + 2.0), np.sign,
                                                       np.array([1.0]), eta=0.5, power_t=0.0, max_iter=1,
                                                       f_star=2.0, tol=0.5))
    assert res.converged is True and res.n_iter == 1


def test_subgradient_method_stops_at_a_zero_subgradient():
    res = _no_warning(lambda: optim.subgradient_method(lambda w: float(np.abs(w).sum()), np.sign,
                                                       np.array([1.0, -1.0]), eta=1.0, power_t=0.0))
    assert res.converged is True and res.n_iter == 1 and res.w.tolist() == [0.0, 0.0]


def test_subgradient_method_warns_with_the_gap_when_f_star_is_not_reached():
    res, message = _warned(lambda: optim.subgradient_method(
        _l1_offset, _l1_offset_subgrad, np.zeros(2), eta=0.1, max_iter=5, f_star=3.0, tol=1e-6))
    gap = min(_l1_offset(p) for p in res.path) - 3.0
    assert gap > 0.5 and res.converged is False and res.n_iter == 5
    assert message == f"subgradient method: min f - f_star = {gap:.3g} > tol=1e-06 after max_iter=5 steps"


def test_subgradient_method_names_what_its_callables_returned():
    n = [0]

    def f(w):
        n[0] += 1
        return float(np.abs(w).sum()) if n[0] < 3 else np.nan

    with pytest.raises(ValueError, match=r"^f returned NaN"):
        optim.subgradient_method(f, np.sign, np.ones(2), eta=0.1)
    with pytest.raises(ValueError, match=r"^subgrad must return an array of shape \(2,\)"):
        optim.subgradient_method(np.sum, lambda w: np.ones(3), np.ones(2), eta=0.1)


# -- the line searches: ties, hostile scales, Newton's speed, argument names -----------------

def _g(X, y, w, d, lam, loss):
    phi = losses.hinge if loss == "hinge" else losses.log_loss
    return lambda t: float(np.mean(phi(y * (X @ (w + t * d)))) + lam / 2 * (w + t * d) @ (w + t * d))


def test_hinge_search_on_margins_of_exactly_one_and_zero_slopes():
    # entries on a grid of 1/2: margins of exactly 1, s_i = 0, s_i of 1/2, breakpoints at 0 and
    # flat stretches of g (lam = 0) all occur. The step is a minimiser (one-sided derivatives),
    # the smallest one (for lam = 0 the slope left of it is a negative multiple of 1/(4n)), and
    # no numpy warning is raised.
    rng = np.random.default_rng(3)
    grid = np.array([-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0])
    h = 1e-7
    n_ties = 0
    for _ in range(300):
        n, d = int(rng.integers(1, 6)), int(rng.integers(1, 3))
        X, w, direction = rng.choice(grid, (n, d)), rng.choice(grid[1:-1], d), rng.choice(grid[1:-1], d)
        y = rng.choice([-1.0, 1.0], n)
        lam = float(rng.choice([0.0, 0.0, 0.5, 2.0]))
        n_ties += int(np.any(y * (X @ w) == 1.0))
        g = _g(X, y, w, direction, lam, "hinge")
        t = _no_warning(lambda: optim.margin_line_search(X, y, w, direction, lam=lam))  # noqa: B023
        assert 0 <= t < np.inf
        assert (g(t + h) - g(t)) / h >= -1e-6, (X, y, w, direction, lam, t)
        if t > 0:
            left = (g(t) - g(t - h)) / h
            assert left <= (-0.2 / n if lam == 0 else 1e-6), (X, y, w, direction, lam, t)
    assert n_ties > 50


def test_hinge_search_with_a_tiny_direction_raises_no_numpy_warning():
    # |d|^2 = 1e-340 underflows to 0 while lam > 0
    X, y = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([1.0, -1.0])
    t = _no_warning(lambda: optim.margin_line_search(X, y, np.array([0.2, 0.1]), np.array([1e-170, 0.0]),
                                                     lam=1.0))
    assert t > 0


def test_log_search_without_descent_returns_exactly_zero():
    # g'(0) = -(1/2 - 1/2) / 2 = 0: not a descent direction, the step is 0 (the documented value)
    X, y = np.array([[1.0], [-1.0]]), np.ones(2)
    assert optim.margin_line_search(X, y, np.zeros(1), np.ones(1), loss="log") == 0.0
    assert optim.margin_line_search(X, y, np.zeros(1), np.ones(1), loss="log", lam=0.5) == 0.0


def _log_root(X, y, w, d, lam):
    """The root of g' by brentq, with the logistic function from scipy (an independent slope)."""
    M, s = y * (X @ w), y * (X @ d)

    def slope(t):
        return float(-np.mean(s * expit(-(M + t * s))) + lam * (w + t * d) @ d)

    if slope(0.0) >= 0:
        return 0.0
    hi = 1.0
    while slope(hi) < 0:
        hi *= 2
    return brentq(slope, 0.0, hi, xtol=1e-15, rtol=1e-15)


@pytest.mark.parametrize(("scale", "lam"), [(0.3, 1.0), (1.0, 0.1), (3.0, 0.01), (0.05, 0.003)])
def test_log_search_newton_needs_few_steps(scale, lam):
    # Newton's method, kept in the bracket, is within 1e-9 of the root after at most 6 steps on
    # these smooth strictly convex g (bisection alone: 2^-7 of the bracket), and within the
    # documented relative tol = 1e-12 with the defaults. (Once Newton has converged, a step
    # outside the bracket falls back to its midpoint: the error is not monotone in max_iter.)
    rng = np.random.default_rng(5)
    for _ in range(6):
        X = rng.standard_normal((20, 3))
        y = np.where(X @ [1.0, -1.0, 0.5] + 0.3 * rng.standard_normal(20) > 0, 1.0, -1.0)
        w, d = np.zeros(3), scale * rng.standard_normal(3)
        ref = _log_root(X, y, w, d, lam)
        errors = [abs(optim.margin_line_search(X, y, w, d, loss="log", lam=lam, max_iter=k) - ref)
                  for k in range(2, 7)]
        assert min(errors) <= 1e-9 * max(1.0, ref), (errors, ref)
        t = optim.margin_line_search(X, y, w, d, loss="log", lam=lam)
        assert abs(t - ref) <= 2e-12 * max(1.0, ref), (t, ref)


def test_log_search_with_huge_margins_raises_no_numpy_warning():
    # g'(t) = -(expit(4000 - t) - 1/2) / 2: the root is 4000, found where |M + t s| > 745
    # (the curvature underflows to 0 there) without overflow or division warnings
    X, y = np.eye(2), np.ones(2)
    w, d = np.array([-4000.0, -10000.0]), np.array([1.0, -0.5])
    t = _no_warning(lambda: optim.margin_line_search(X, y, w, d, loss="log"))
    assert abs(t - 4000.0) <= 1e-8


@pytest.mark.parametrize(("kw", "match"), [
    ({"lam": -1.0}, r"^lam must be non-negative"), ({"tol": 0.0}, r"^tol must be positive"),
    ({"max_iter": 0}, r"^max_iter must be an integer >= 1"), ({"loss": "exp"}, r"^loss must be"),
    ({"w": np.zeros((2, 1))}, r"^w must be a 1-D array"), ({"w": np.float64(0.0)}, r"^w must be a 1-D array"),
    ({"direction": np.ones((1, 2))}, r"^direction must be a 1-D array"),
    ({"direction": np.ones(3)}, r"^direction must have shape \(2,\)"),
    ({"w": np.ones(1)}, r"^w must have shape \(2,\)"),
])
def test_line_search_names_the_argument_it_refuses(kw, match):
    args = {"w": np.zeros(2), "direction": np.ones(2), "loss": "log"} | kw
    with pytest.raises(ValueError, match=match):
        optim.margin_line_search(np.eye(2), np.ones(2), **args)
