"""The perturbed floating-point environment of make test's second nbval run (.ci/perturbed_env.py)
is one numpy accepts and that really switches its SIMD dispatch off."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / ".ci" / "perturbed_env.py"


def test_perturbed_env_is_accepted_by_numpy_and_takes_effect():
    env = runpy.run_path(str(SCRIPT))["perturbed_env"]()
    assert env["OPENBLAS_NUM_THREADS"] == env["OMP_NUM_THREADS"] == "1"
    features = [f for f in env.get("NPY_DISABLE_CPU_FEATURES", "").split(",") if f]
    probe = (
        "try:\n"
        "    from numpy._core._multiarray_umath import __cpu_features__ as f\n"
        "except ImportError:\n"
        "    from numpy.core._multiarray_umath import __cpu_features__ as f\n"
        f"print(sorted(k for k in {features!r} if f[k]))"
    )
    run = subprocess.run(
        [sys.executable, "-W", "error", "-c", probe],
        env={**os.environ, **env}, capture_output=True, text=True,
    )
    # numpy raises for a baseline feature and warns (an error under -W error) for one it does not
    # dispatch: neither may happen
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]", f"still enabled: {run.stdout}"
