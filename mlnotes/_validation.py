"""Input checks shared by every algorithm: clear errors instead of silent wrong answers.

Every message names the argument and what was received, so a reader who passes the wrong
thing learns what to fix without reading the source.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np


class ConvergenceWarning(UserWarning):
    """An iterative algorithm stopped at its iteration limit before meeting its tolerance."""


def as_float_array(a, name: str, *, ndim: int | None = None) -> np.ndarray:
    """Return ``a`` as a float64 array, rejecting wrong dimensions, NaN and inf."""
    arr = np.asarray(a, dtype=float)
    if ndim is not None and arr.ndim != ndim:
        hint = " (reshape a single feature with x.reshape(-1, 1))" if ndim == 2 and arr.ndim == 1 else ""
        raise ValueError(f"{name} must be a {ndim}-D array, got shape {arr.shape}{hint}")
    if not np.all(np.isfinite(arr)):
        bad = "NaN" if np.isnan(arr).any() else "inf"
        raise ValueError(f"{name} contains {bad}; remove or impute those entries first")
    return arr


def check_X_y(X, y, *, y_name: str = "y") -> tuple[np.ndarray, np.ndarray]:
    """Check a design matrix ``X`` of shape (n, d) and targets ``y`` of shape (n,)."""
    X = as_float_array(X, "X", ndim=2)
    y = as_float_array(y, y_name, ndim=1)
    if X.shape[0] != y.shape[0]:
        raise ValueError(
            f"X and {y_name} have different numbers of samples: X has {X.shape[0]} rows, "
            f"{y_name} has {y.shape[0]} entries"
        )
    if X.shape[0] == 0:
        raise ValueError("X has no rows: at least one sample is needed")
    return X, y


def check_labels(y, labels: Iterable[float], name: str = "y") -> np.ndarray:
    """Check that every entry of ``y`` lies in the label set ``labels``; return ``y`` as float."""
    labels = tuple(labels)
    y = as_float_array(y, name, ndim=1)
    found = np.unique(y)
    if not np.isin(found, labels).all():
        shown = ", ".join(f"{v:g}" for v in found[:6]) + (", ..." if found.size > 6 else "")
        expected = "{" + ", ".join(f"{v:+g}" if min(labels) < 0 else f"{v:g}" for v in labels) + "}"
        conv = "to_pm1" if min(labels) < 0 else "to_01"
        raise ValueError(
            f"{name} must take values in {expected}, got values {{{shown}}}; "
            f"convert with mlnotes.{conv}"
        )
    return y


def check_positive(value: float, name: str, *, allow_zero: bool = False) -> float:
    """Check a scalar hyperparameter such as ``C``, ``lam``, ``eta`` or ``gamma``."""
    v = float(value)
    ok = v >= 0 if allow_zero else v > 0
    if not np.isfinite(v) and not (v == np.inf and ok):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    if not ok:
        bound = "non-negative" if allow_zero else "positive"
        raise ValueError(f"{name} must be {bound}, got {value!r}")
    return v


def check_in_open_interval(value: float, name: str, low: float, high: float) -> float:
    """Check ``low < value < high`` (for probabilities such as ``delta``)."""
    v = float(value)
    if not (low < v < high):
        raise ValueError(f"{name} must lie in ({low:g}, {high:g}), got {value!r}")
    return v


def to_pm1(y) -> np.ndarray:
    """Map labels in {0, 1} to {-1, +1} (0 -> -1, 1 -> +1)."""
    y = check_labels(y, (0.0, 1.0))
    return 2.0 * y - 1.0


def to_01(y) -> np.ndarray:
    """Map labels in {-1, +1} to {0, 1} (-1 -> 0, +1 -> 1)."""
    y = check_labels(y, (-1.0, 1.0))
    return (y + 1.0) / 2.0
