"""``python -m mlnotes.claims``: run every claim and print the ledger.

Options: ``--instances N`` (default: each claim's test count), ``--markdown DIR`` (write the
book's generated appendix pages instead of running anything).
"""

from __future__ import annotations

import argparse
import sys
import time

from mlnotes.claims import all_claims, run
from mlnotes.claims._ledger import write_book_pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mlnotes.claims", description=__doc__)
    parser.add_argument("--instances", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--markdown", metavar="DIR", default=None)
    args = parser.parse_args(argv)
    if args.markdown:
        for path in write_book_pages(args.markdown):
            print(f"wrote {path}")
        return 0

    failures = 0
    print(f"{'label':32s} {'chapter':28s} {'instances':>9s} {'residual':>9s} {'tol':>7s}  result")
    start = time.perf_counter()
    for c in all_claims():
        n = args.instances if args.instances is not None else c.n_test_instances
        r = run(c.label, n_instances=n, seed=args.seed)
        failures += not r.passed
        print(
            f"{c.label:32s} {c.chapter:28s} {r.n_instances:9d} {r.max_residual:9.1e} "
            f"{c.tol:7.0e}  {'pass' if r.passed else 'FAIL'}"
        )
    n = len(all_claims())
    print(f"{n - failures} passed, {failures} failed ({n} claims, {time.perf_counter() - start:.1f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
