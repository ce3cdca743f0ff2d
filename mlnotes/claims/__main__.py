"""``python -m mlnotes.claims``: run every claim and its foil, and print the ledger.

A claim fails when its residual exceeds its tolerance, or when its foil (a wrong statement,
checked on the chapter's instances) is not rejected by the claim's margin.

Options: ``--instances N`` (default: each claim's test count), ``--markdown DIR`` (write the
book's generated appendix pages instead of running anything).
"""

from __future__ import annotations

import argparse
import sys
import time

from mlnotes.claims import all_claims, foil_margin, run
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
    print(f"{'label':32s} {'chapter':28s} {'instances':>9s} {'residual':>9s} {'tol':>7s} "
          f"{'foil':>9s}  result")
    start = time.perf_counter()
    for c in all_claims():
        n = args.instances if args.instances is not None else c.n_test_instances
        r = run(c.label, n_instances=n, seed=args.seed)
        f = run(c.label, seed=args.seed, foil=True)
        rejected = foil_margin(f) >= c.foil_margin
        failures += not (r.passed and rejected)
        result = "pass" if r.passed else "FAIL"
        print(
            f"{c.label:32s} {c.chapter:28s} {r.n_instances:9d} {r.max_residual:9.1e} "
            f"{c.tol:7.0e} {f.max_residual:9.1e}  {result}{'' if rejected else ', FOIL NOT REJECTED'}"
        )
    n = len(all_claims())
    print(f"{n - failures} passed, {failures} failed ({n} claims, {time.perf_counter() - start:.1f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
