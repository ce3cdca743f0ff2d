"""Tests of mlnotes.losses: values, derivatives, numerical safety, the registry."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.special import expit, log_expit

from mlnotes import losses

SMOOTH = ["quadratic", "log", "logistic", "exponential", "sigmoid"]
margins = st.floats(-30, 30, allow_nan=False)


def test_known_values():
    M = np.array([-1.0, 0.0, 0.5, 1.0, 2.0])
    np.testing.assert_array_equal(losses.zero_one(M), [1, 1, 0, 0, 0])
    np.testing.assert_allclose(losses.hinge(M), [2, 1, 0.5, 0, 0])
    np.testing.assert_allclose(losses.perceptron(M), [1, 0, 0, 0, 0])
    np.testing.assert_allclose(losses.quadratic(M), [4, 1, 0.25, 0, 1])
    np.testing.assert_allclose(losses.exponential(M), np.exp(-M))
    np.testing.assert_allclose(losses.logistic(M), np.log2(1 + np.exp(-M)))
    np.testing.assert_allclose(losses.log_loss(M), np.log1p(np.exp(-M)))
    np.testing.assert_allclose(losses.sigmoid_loss(M), 2 / (1 + np.exp(M)))


def test_log_loss_against_scipy_for_extreme_margins():
    M = np.array([-800.0, -40.0, 0.0, 40.0, 800.0])
    np.testing.assert_allclose(losses.log_loss(M), -log_expit(M), rtol=1e-14)
    np.testing.assert_allclose(-losses.log_loss_derivative(M), expit(-M), rtol=1e-14)
    np.testing.assert_allclose(losses.sigmoid_loss_derivative(M), -2 * expit(M) * expit(-M), rtol=1e-12)


@pytest.mark.parametrize("name", SMOOTH)
@given(M=margins)
def test_derivatives_match_central_differences(name, M):
    phi, dphi = losses.get(name)
    h = 1e-6 * max(1.0, abs(M))
    num = (phi(M + h) - phi(M - h)) / (2 * h)
    assert float(dphi(M)) == pytest.approx(float(num), rel=1e-5, abs=1e-6 * max(1.0, abs(float(phi(M)))))


@given(M=margins)
def test_kinked_losses_subgradient_inequality(M):
    """The returned value v satisfies phi(z) >= phi(M) + v (z - M) for all z (convex losses)."""
    z = np.linspace(-40, 40, 2001)
    for name in ("hinge", "perceptron"):
        phi, dphi = losses.get(name)
        assert np.all(phi(z) >= phi(M) + dphi(M) * (z - M) - 1e-12)


def test_kink_conventions():
    assert losses.hinge_derivative(1.0) == -1.0
    assert losses.hinge_derivative(1.0 + 1e-12) == 0.0
    assert losses.perceptron_derivative(0.0) == -1.0


def test_get_unknown_loss():
    with pytest.raises(ValueError, match=r"loss must be one of .*got 'square'"):
        losses.get("square")
