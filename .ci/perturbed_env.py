"""Print the environment (``NAME=value`` words) of the second, perturbed nbval run of ``make test``.

The committed notebooks must show only what the mathematics determines, so that a reader's
machine, with another CPU, BLAS build or thread count, reproduces them exactly. One nbval run
on one machine cannot show that: it only proves repeatability. The second run changes the
floating-point environment in the two ways the project can set itself, on any machine:

- one BLAS/OpenMP thread: a threaded BLAS splits its sums across threads, so the thread count
  changes the order of additions and hence the rounding of every matrix product;
- numpy's run-time SIMD dispatch off: ``NPY_DISABLE_CPU_FEATURES`` lists the dispatchable
  extensions (e.g. AVX2, AVX-512) numpy found on this CPU, so its loops (sums, exp, log, ...)
  fall back to the baseline kernels with other rounding. The list is computed here, at run time,
  because it depends on the machine and on the numpy build: numpy refuses to disable a feature of
  its compile-time baseline (an error at import) and ignores, with a warning, one it does not
  dispatch, so only the intersection of "dispatched" and "found" is listed.

The BLAS kernel itself (``OPENBLAS_CORETYPE``) is deliberately not changed: that would test a
CPU this machine may not have and hide what the reader's machine really does.
"""

from __future__ import annotations

try:  # numpy >= 2
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
except ImportError:  # numpy 1.x
    from numpy.core._multiarray_umath import __cpu_dispatch__, __cpu_features__

THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "VECLIB_MAXIMUM_THREADS")


def perturbed_env() -> dict[str, str]:
    env = dict.fromkeys(THREADS, "1")
    found = [f for f in __cpu_dispatch__ if __cpu_features__.get(f)]
    if found:
        env["NPY_DISABLE_CPU_FEATURES"] = ",".join(found)
    return env


if __name__ == "__main__":
    print(" ".join(f"{k}={v}" for k, v in perturbed_env().items()))
