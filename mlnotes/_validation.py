"""Input checks shared by every algorithm: clear errors instead of silent wrong answers.

Every message names the argument and what was received, so a reader who passes the wrong
thing learns what to fix without reading the source.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from types import MappingProxyType

import numpy as np


class ConvergenceWarning(UserWarning):
    """An iterative algorithm stopped at its iteration limit before meeting its tolerance."""


class OwnsArrays:
    """Mixin for the frozen result dataclasses: each owns read-only copies of its arrays.

    A fit that kept the caller's ``y`` would change its predictions when the caller later wrote
    ``y[:] = -y``; a writeable array in a frozen dataclass would let ``fit.w[0] = 5`` through.
    So every ndarray field is copied and made read-only, every dict field becomes a read-only
    mapping.
    """

    def __post_init__(self):
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if isinstance(v, np.ndarray):
                v = v.copy()
                v.flags.writeable = False
            elif isinstance(v, dict):
                v = MappingProxyType(dict(v))
            else:
                continue
            object.__setattr__(self, f.name, v)


def read_only(a: np.ndarray) -> np.ndarray:
    """``a`` made read-only (for arrays a result computes from its own fields)."""
    a.flags.writeable = False
    return a


class ClosedForm:
    """Mixin for fits computed in closed form: no iterations (``n_iter = 0``), nothing to
    converge (``converged = True``). The fit's ``objective`` is an array of one entry."""

    n_iter = 0
    converged = True


#: Elements per block of :func:`max_abs`: 256 KiB, so a block is read from memory once and its
#: two reductions run on cached data.
_BLOCK = 1 << 15


def max_abs(a: np.ndarray) -> float:
    """:math:`\\max_{ij} |a_{ij}|` in one pass over memory and without a copy of ``a``.

    NaN when ``a`` holds a NaN, inf when it holds an inf (and no NaN), 0 for an empty array. The
    one reading of ``X`` that validation allows per fit: finiteness and scale come from it
    together (``np.isfinite(X).all()`` then ``np.abs(X).max()`` would read X twice and write an
    array as large as X).

    Examples
    --------
    >>> max_abs(np.array([[1.0, -3.0], [2.0, 0.5]]))
    3.0
    >>> max_abs(np.array([1.0, np.nan, np.inf]))
    nan
    """
    if a.size == 0:
        return 0.0
    flat = a.ravel(order="K")  # a view unless a is a strided slice (then one copy, no more)
    top = 0.0
    for start in range(0, flat.size, _BLOCK):
        block = flat[start:start + _BLOCK]
        m = max(float(block.max()), -float(block.min()))
        if m != m:  # NaN: nothing more to learn
            return m
        top = max(top, m)
    return top


def _finite_array(a, name: str, ndim: int | None) -> tuple[np.ndarray, float]:
    """``a`` as a float64 array of ``ndim`` dimensions without NaN or inf, and its max |a_ij|."""
    arr = np.asarray(a, dtype=float)
    if ndim is not None and arr.ndim != ndim:
        hint = " (reshape a single feature with x.reshape(-1, 1))" if ndim == 2 and arr.ndim == 1 else ""
        raise ValueError(f"{name} must be a {ndim}-D array, got shape {arr.shape}{hint}")
    top = max_abs(arr)
    if not top < np.inf:
        bad = "NaN" if top != top else "inf"
        raise ValueError(f"{name} contains {bad}; remove or impute those entries first")
    return arr, top


def as_float_array(a, name: str, *, ndim: int | None = None) -> np.ndarray:
    """Return ``a`` as a float64 array, rejecting wrong dimensions, NaN and inf."""
    return _finite_array(a, name, ndim)[0]


def check_X(X, name: str = "X", *, scale_for=None, finite: bool = True) -> np.ndarray:
    """Check a design matrix: 2-D, finite, at least one row and one column.

    ``scale_for`` names a fit that forms X^T X, a Hessian or inner products: the scale of X is
    then checked too (:func:`check_scale`), from the same single pass over X. A callable
    ``scale_for(X, top)`` applies a fit's own rule to ``top`` = max |x_ij| instead.
    ``finite=False`` checks the shape only, for a caller that finds NaN and inf in work it does
    anyway (the stump search, in the extremes of each sorted feature): no pass over X at all.

    Examples
    --------
    >>> check_X(np.zeros((3, 0)))
    Traceback (most recent call last):
    ...
    ValueError: X has no columns (shape (3, 0)): at least one feature is needed
    """
    if not finite:
        X = np.asarray(X, dtype=float)
        if X.ndim != 2:
            raise ValueError(f"{name} must be a 2-D array, got shape {X.shape}")
        return _check_design(X, 0.0, name, None)
    X, top = _finite_array(X, name, 2)
    return _check_design(X, top, name, scale_for)


def _check_design(X: np.ndarray, top: float, name: str, scale_for) -> np.ndarray:
    if X.shape[0] == 0:
        raise ValueError(f"{name} has no rows: at least one sample is needed")
    if X.shape[1] == 0:
        raise ValueError(f"{name} has no columns (shape {X.shape}): at least one feature is needed")
    if callable(scale_for):  # a fit's own scale rule, given max |x_ij| from the same pass
        scale_for(X, top)
    elif scale_for is not None:
        check_scale(X, scale_for, name, top=top)
    return X


def check_from_gram(X: np.ndarray, G: np.ndarray, what: str | None, name: str = "X") -> None:
    """Validation folded into a fit's own work: its :math:`X^\\top X` (or Hessian) ``G``.

    For a fit that forms ``G`` from every entry of ``X`` anyway (ridge): NaN or inf in X make
    G non-finite, a scale at which the squares overflow makes it inf, one at which they underflow
    leaves a diagonal entry below 2^-1000. When G is finite with every diagonal entry above that,
    X passed every check that the one pass of :func:`check_X` would make, and no pass is made;
    otherwise (or with an all-zero column) that pass decides, and raises its usual error.
    Call it on ``X`` checked with ``check_X_y(..., finite=False)``, before G is factorised;
    ``what=None`` for a fit that handles any scale itself (least squares: QR takes over).
    """
    diag = np.diagonal(G)
    if np.isfinite(G).all() and (diag.size == 0 or diag.min() > 2.0**-1000):
        return
    check_X(X, name, scale_for=what)


def check_X_y(X, y, *, y_name: str = "y", scale_for=None, finite: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Check a design matrix ``X`` of shape (n, d), d >= 1, and targets ``y`` of shape (n,).

    ``scale_for``, ``finite``: as in :func:`check_X`. ``X`` is read once, whatever is checked,
    and not at all with ``finite=False``: neither finiteness nor scale is checked then (a callable
    ``scale_for`` would get no max |x_ij|), and :func:`check_from_gram` must follow.
    """
    if finite:
        X, top = _finite_array(X, "X", 2)
    else:
        X, top, scale_for = check_X(X, finite=False), 0.0, None
    y = as_float_array(y, y_name, ndim=1)
    if X.shape[0] != y.shape[0]:
        raise ValueError(
            f"X and {y_name} have different numbers of samples: X has {X.shape[0]} rows, "
            f"{y_name} has {y.shape[0]} entries"
        )
    return _check_design(X, top, "X", scale_for), y


def check_scale(X: np.ndarray, what: str, name: str = "X", *, top: float | None = None) -> np.ndarray:
    """Reject a scale of ``X`` at which the squared entries (X^T X, a Hessian) over- or underflow.

    For the fits that form such products: a ValueError naming the scale, instead of the NaN,
    the w = 0 or the "singular matrix" that the arithmetic would give. ``least_squares``
    rescales its columns by powers of two instead and needs no such check. ``top`` is
    max |x_ij| when the caller has it already (no second pass over X).

    Examples
    --------
    >>> check_scale(np.array([[1e200, 1.0]]), "ridge")
    Traceback (most recent call last):
    ...
    ValueError: the scale of X (max |x_ij| = 1e+200) is too large for ridge: ...
    """
    if top is None:
        top = max_abs(X)
    if top == 0.0:
        return X
    e = 2.0 * np.log2(top)  # the exponent of the largest squared entry
    if e + np.log2(X.size) > 1000 or e < -1000:
        big = e > 0
        raise ValueError(
            f"the scale of {name} (max |x_ij| = {top:.3g}) is too {'large' if big else 'small'} for "
            f"{what}: its squared entries (X^T X, the Hessian) {'overflow' if big else 'underflow'} "
            f"in floating point; standardise the columns of {name} (e.g. divide each by its "
            "standard deviation) and scale the result back"
        )
    return X


def check_labels(y, labels: Iterable[float], name: str = "y", *, all_present: bool = False) -> np.ndarray:
    """Check that every entry of ``y`` lies in the label set ``labels``; return ``y`` as float.

    One comparison per label (no sort of y, and no separate pass for NaN and inf, which are in
    no label set): the values found are computed only for the error message. ``all_present``:
    every label must occur too (a classifier needs both classes).

    Examples
    --------
    >>> check_labels([1.0, 1.0], (-1, 1), all_present=True)
    Traceback (most recent call last):
    ...
    ValueError: y must contain both classes -1 and +1, got only +1
    """
    labels = tuple(labels)
    y = np.asarray(y, dtype=float)
    if y.ndim != 1:
        as_float_array(y, name, ndim=1)  # raises its message for a wrong shape
    if labels in ((-1.0, 1.0), (-1, 1)):  # the common set: one comparison
        ok = np.abs(y) == 1.0
    else:
        ok = y == labels[0]
        for v in labels[1:]:
            ok |= y == v
    if not ok.all():
        as_float_array(y, name)  # NaN or inf: that message first
        found = np.unique(y)
        shown = ", ".join(f"{v:g}" for v in found[:6]) + (", ..." if found.size > 6 else "")
        expected = "{" + ", ".join(f"{v:+g}" if min(labels) < 0 else f"{v:g}" for v in labels) + "}"
        conv = "to_pm1" if min(labels) < 0 else "to_01"
        raise ValueError(
            f"{name} must take values in {expected}, got values {{{shown}}}; "
            f"convert with mlnotes.{conv}"
        )
    if all_present:
        missing = [v for v in labels if not (y == v).any()]
        if missing:
            shown = " and ".join(f"{v:+g}" if min(labels) < 0 else f"{v:g}" for v in labels)
            got = ", ".join(f"{v:+g}" if min(labels) < 0 else f"{v:g}" for v in labels if v not in missing)
            raise ValueError(f"{name} must contain {'both classes' if len(labels) == 2 else 'every class'} "
                             f"{shown}, got only {got}")
    return y


def check_callable(f, name: str):
    """Check that an argument meant to be a function is callable; return it.

    Examples
    --------
    >>> check_callable(3.0, "grad")
    Traceback (most recent call last):
    ...
    TypeError: grad must be callable, got float 3.0
    """
    if not callable(f):
        raise TypeError(f"{name} must be callable, got {type(f).__name__} {f!r}")
    return f


def check_method(obj, method: str, name: str):
    """Check that an object passed in has the method the algorithm will call; return it."""
    if not callable(getattr(obj, method, None)):
        raise TypeError(f"{name} must have a .{method}() method, got {type(obj).__name__} {obj!r}")
    return obj


def check_returned(value, name: str, shape: tuple[int, ...] = (), *, allow_inf: bool = False):
    """Check what a caller's function returned, where it enters the algorithm.

    ``shape`` is the shape it must have (``()``: a number; a one-entry array is accepted as
    one). None, a non-number, another shape, NaN (and inf unless ``allow_inf``) get a TypeError or
    ValueError naming the function. Returns a float for ``shape == ()``, else a float array.

    Examples
    --------
    >>> check_returned(np.ones(3), "grad", (2,))
    Traceback (most recent call last):
    ...
    ValueError: grad must return an array of shape (2,), got shape (3,)
    >>> check_returned(None, "f")
    Traceback (most recent call last):
    ...
    TypeError: f returned None; it must return a number
    """
    what = "a number" if shape == () else f"an array of shape {shape}"
    if value is None:
        raise TypeError(f"{name} returned None; it must return {what}")
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must return {what}, got {type(value).__name__} {value!r}") from None
    if arr.shape != shape and not (shape == () and arr.size == 1):
        raise ValueError(f"{name} must return {what}, got shape {arr.shape}")
    top = max_abs(arr)  # one pass: NaN if any NaN, inf if any inf
    if top != top or (top == np.inf and not allow_inf):
        raise ValueError(f"{name} returned {'NaN' if top != top else 'inf'}; it must return "
                         f"{'finite values' if shape else 'a finite number'}")
    return float(arr.reshape(())) if shape == () else arr


def check_scalar(
    value,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
    high_open: bool = False,
    allow_inf: bool = False,
) -> float:
    """Check a real hyperparameter and return it as a float.

    ``low``/``high`` bound the range (``None``: unbounded); ``low_open``/``high_open`` exclude
    the end. NaN is always rejected, +-inf unless ``allow_inf`` (and the range admits it).
    Booleans, strings and other non-numbers get a TypeError naming ``name``.

    Examples
    --------
    >>> check_scalar(0.5, "delta", low=0, high=1, low_open=True, high_open=True)
    0.5
    >>> check_scalar(float("nan"), "C", low=0)
    Traceback (most recent call last):
    ...
    ValueError: C must be a finite number, got nan
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        if not (isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf"):
            raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    v = float(value)
    if np.isnan(v) or (np.isinf(v) and not allow_inf):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    outside = ((low is not None and (v < low or (low_open and v == low)))
               or (high is not None and (v > high or (high_open and v == high))))
    if outside and low is not None and high is not None:
        interval = f"{'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"
        raise ValueError(f"{name} must lie in {interval}, got {value!r}")
    if low is not None and (v < low or (low_open and v == low)):
        if low == 0 and high is None:
            raise ValueError(f"{name} must be {'positive' if low_open else 'non-negative'}, got {value!r}")
        raise ValueError(f"{name} must be {'>' if low_open else '>='} {low:g}, got {value!r}")
    if high is not None and (v > high or (high_open and v == high)):
        raise ValueError(f"{name} must be {'<' if high_open else '<='} {high:g}, got {value!r}")
    return v


def check_int(value, name: str, *, low: int | None = 1, high: int | None = None) -> int:
    """Check an integer count (iterations, epochs, folds, repetitions) and return it as ``int``.

    ``2.0`` is accepted as 2; ``2.5``, ``inf``, NaN and booleans are not.

    Examples
    --------
    >>> check_int(3.0, "max_iter")
    3
    >>> check_int(2.5, "max_iter")
    Traceback (most recent call last):
    ...
    ValueError: max_iter must be an integer >= 1, got 2.5
    """
    what = "an integer" + (f" >= {low}" if low is not None else "") + (
        f" and <= {high}" if high is not None else "")
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__} {value!r}")
    if not np.isfinite(value) or not float(value).is_integer():
        raise ValueError(f"{name} must be {what}, got {value!r}")
    v = int(value)
    if (low is not None and v < low) or (high is not None and v > high):
        raise ValueError(f"{name} must be {what}, got {value!r}")
    return v


def check_rng(rng, name: str = "rng") -> np.random.Generator:
    """Return a ``numpy.random.Generator`` from None (fresh entropy), an int seed or a Generator.

    Examples
    --------
    >>> a = check_rng(0).standard_normal(); b = check_rng(0).standard_normal()
    >>> a == b
    True
    """
    if rng is None or isinstance(rng, np.random.Generator):
        return np.random.default_rng(rng)
    if isinstance(rng, (bool, np.bool_)) or not isinstance(rng, (int, np.integer)):
        raise TypeError(
            f"{name} must be None, an int seed or a numpy.random.Generator, got {type(rng).__name__}"
        )
    if rng < 0:
        raise ValueError(f"{name} must be a non-negative seed, got {rng!r}")
    return np.random.default_rng(int(rng))


def check_n_features(X, n_features: int, name: str = "X") -> np.ndarray:
    """Check a prediction input against the number of features the model was fitted on.

    Examples
    --------
    >>> check_n_features([[1.0, 2.0]], 2).shape
    (1, 2)
    """
    X = as_float_array(X, name, ndim=2)
    if X.shape[1] != n_features:
        raise ValueError(
            f"{name} has {X.shape[1]} columns but the model was fitted on {n_features} features"
        )
    return X


def check_start(w0, d: int, name: str = "w0") -> np.ndarray:
    """An iterative fit's starting point: zeros, or a float copy of ``w0`` with one entry per
    column of X (a copy: the fit updates it in place).

    Examples
    --------
    >>> check_start(None, 2).tolist(), check_start([1, 2], 2).tolist()
    ([0.0, 0.0], [1.0, 2.0])
    """
    if w0 is None:
        return np.zeros(d)
    w = as_float_array(w0, name, ndim=1).copy()
    if w.shape[0] != d:
        raise ValueError(f"{name} has {w.shape[0]} entries but X has {d} columns")
    return w


def check_positive(value: float, name: str, *, allow_zero: bool = False, allow_inf: bool = False) -> float:
    """Check a scalar hyperparameter such as ``C``, ``lam``, ``eta`` or ``gamma`` (> 0, or >= 0).

    Examples
    --------
    >>> check_positive(2, "C")
    2.0
    """
    return check_scalar(value, name, low=0.0, low_open=not allow_zero, allow_inf=allow_inf)


def check_in_open_interval(value: float, name: str, low: float, high: float) -> float:
    """Check ``low < value < high`` (for probabilities such as ``delta``).

    Examples
    --------
    >>> check_in_open_interval(0.05, "delta", 0, 1)
    0.05
    """
    return check_scalar(value, name, low=low, high=high, low_open=True, high_open=True)


def to_pm1(y) -> np.ndarray:
    """Map labels in {0, 1} to {-1, +1} (0 -> -1, 1 -> +1).

    Examples
    --------
    >>> to_pm1([0, 1, 1]).tolist()
    [-1.0, 1.0, 1.0]
    """
    y = check_labels(y, (0.0, 1.0))
    return 2.0 * y - 1.0


def to_01(y) -> np.ndarray:
    """Map labels in {-1, +1} to {0, 1} (-1 -> 0, +1 -> 1).

    Examples
    --------
    >>> to_01([-1, 1, 1]).tolist()
    [0.0, 1.0, 1.0]
    """
    y = check_labels(y, (-1.0, 1.0))
    return (y + 1.0) / 2.0
