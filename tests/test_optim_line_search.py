"""optim.margin_line_search against scipy.optimize.minimize_scalar and the optimality condition."""

import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from mlnotes import losses, optim


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
