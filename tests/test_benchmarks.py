"""The verdict of a benchmark row (benchmarks/__init__.py): only a settled miss fails `make bench`."""

from __future__ import annotations

import pytest

from benchmarks import Comparison


@pytest.mark.parametrize(("ours", "verdict"), [
    ((1.0, 1.5, 2.0), "ok"),         # median ratio 1.5 <= 2
    ((3.0, 2.5, 4.0), "MISSED"),     # every repetition above 2: settled
    ((1.0, 3.0, 2.5), "unsettled"),  # median 2.5 above 2, one repetition at 1: noise
])
def test_a_row_misses_its_target_only_when_every_repetition_does(ours, verdict):
    row = Comparison("f", ours, (1.0, 1.0, 1.0), "ref", 0.0, target=2.0)
    assert row.verdict == verdict
    assert row.row().endswith(f"target <= 2x {verdict}")


def test_a_row_without_a_target_has_no_verdict():
    assert Comparison("f", 1.0, 1.0, "ref", 0.0).verdict is None
