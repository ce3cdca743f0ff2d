"""Every loss and derivative takes any real array-like as the margin: numpy booleans, integers,
Python integers beyond int64 (an object array to numpy). Each returns float64 values equal to
those of the same margins given as floats. Written for the surviving mutants of mutmut
(tests/mutation_triage/losses.md): without the conversion to float, ``-M`` fails on booleans and
Python integers leave an object array, or an error, behind."""

from __future__ import annotations

import numpy as np
import pytest

from mlnotes import losses

FUNCTIONS = [losses.zero_one] + [f for pair in losses.LOSSES.values() for f in pair]
MARGINS = {
    "booleans": np.array([True, False, True]),
    "integers": [-3, 0, 1, 2],
    "python integers beyond int64": [2**70, -(2**70), 1],
}


@pytest.mark.parametrize("kind", MARGINS)
@pytest.mark.parametrize("f", FUNCTIONS, ids=[f.__name__ for f in FUNCTIONS])
def test_any_real_margin_gives_the_float_margin_values(f, kind):
    M = MARGINS[kind]
    with np.errstate(over="ignore"):  # e^{2^70} is inf, for both
        expected = f(np.asarray(M, dtype=float))
        got = f(M)
    assert isinstance(got, np.ndarray) and got.dtype == np.float64, (f.__name__, type(got))
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)
