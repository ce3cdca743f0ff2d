"""The mutation score of each library module, from the results ``make mutants`` leaves.

mutmut writes one ``mutants/<module path>.meta`` (JSON) per mutated file, with an exit code per
mutant: 1 or 3 killed, 0 survived, 5 or 33 no test ran it, 36 and the SIGXCPU codes a timeout
(counted as killed: the mutant made the tests hang), None not yet run. Equivalent mutants, those
no test can kill because they do not change behaviour, are listed in
``tests/mutation_triage/<module>.md`` as lines ``- `mutant name`: equivalent: why``; they leave
the denominator.

Run from the repository root after ``mutmut run``: ``python -m tools.mutation_score``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

KILLED = {1, 3, 36, 24, -24, 152, 255}
SURVIVED = {0}
NO_TESTS = {5, 33}
TRIAGE = Path("tests/mutation_triage")


def equivalent_mutants(triage: Path = TRIAGE) -> set[str]:
    names = set()
    for page in sorted(triage.glob("*.md")):
        text = page.read_text()
        names |= set(re.findall(r"^- `([\w.]+__mutmut_\d+)`: equivalent", text, re.M))
    return names


def scores(root: Path = Path("mutants")) -> dict[str, dict[str, int]]:
    equivalent = equivalent_mutants()
    table = {}
    for meta in sorted(root.rglob("*.py.meta")):
        module = str(meta.relative_to(root)).removesuffix(".meta")
        codes = json.loads(meta.read_text()).get("exit_code_by_key", {})
        row = {"mutants": len(codes), "killed": 0, "survived": 0, "no tests": 0,
               "not run": 0, "equivalent": 0}
        for name, code in codes.items():
            if name in equivalent:
                row["equivalent"] += 1
            elif code in KILLED:
                row["killed"] += 1
            elif code in SURVIVED:
                row["survived"] += 1
            elif code in NO_TESTS:
                row["no tests"] += 1
            else:
                row["not run"] += 1
        if row["mutants"]:
            table[module] = row
    return table


def main() -> int:
    table = scores()
    if not table:
        print("no mutation results: run make mutants first")
        return 1
    print(f"{'module':28s} {'mutants':>7s} {'killed':>6s} {'survived':>8s} {'no tests':>8s} "
          f"{'equiv.':>6s} {'not run':>7s} {'score':>6s}")
    for module, r in table.items():
        judged = r["killed"] + r["survived"] + r["no tests"]
        score = f"{100 * r['killed'] / judged:5.1f}%" if judged else "   -  "
        print(f"{module:28s} {r['mutants']:7d} {r['killed']:6d} {r['survived']:8d} "
              f"{r['no tests']:8d} {r['equivalent']:6d} {r['not run']:7d} {score:>6s}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
