"""Judge one module's mutmut mutants outside mutmut, for tests that cannot run under mutmut.

mutmut runs the tests on its copy of the library, ``mutants/mlnotes/``, in which every function is
a trampoline dispatching to the original or to one of its mutants. A test that reads the
library's source cannot pass there: ``tests/test_source.py`` checks that ``show_source`` shows a
function's own code, and under mutmut that code is the trampoline. So ``_source``'s mutants are
judged here instead, with the mutants mutmut wrote:

- each mutant is a function of ``mutants/<module>`` named ``x_<name>__mutmut_<N>`` (a function)
  or ``xǁ<Class>ǁ<method>__mutmut_<N>`` (a method);
- for each one this writes the mutant, renamed, over the original function in a temporary copy
  of the repository (the package and ``tests/`` copied, the rest linked), and runs the given
  test files there with pytest in a fresh process (``-x``: the first failure kills);
- the exit codes go into ``exit_code_by_key`` of ``mutants/<module>.meta``, the JSON mutmut
  writes, so ``python -m tools.mutation_score`` reports the module with the others: pytest's
  own code (0 survived, 1 killed; 2, errors while collecting, is written as 1), 36 for a run
  over the per-mutant timeout (counted as killed: the mutant made the tests hang).

The tests are first run on an unmutated copy, which must pass. Run from the repository root
after mutmut has written the mutants (``make mutants`` does both)::

    python -m tools.mutants_outside mlnotes/_source.py tests/test_source.py
    python -m tools.mutants_outside mlnotes/_source.py tests/test_source.py \\
        --only x__is_check__mutmut_7 'xǁSourceǁ__init____mutmut_20'    # a few, by name
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

MUTANTS = Path("mutants")
TIMEOUT = 36  # mutmut's exit code for a timeout (tools/mutation_score.py counts it as killed)
NAME = re.compile(r"^x(?:ǁ(?P<cls>\w+)ǁ|_)(?P<func>\w+?)__mutmut_(?P<n>\d+)$")


def mutants(mutated: str) -> dict[str, tuple[str | None, str, str]]:
    """{mutant name: (class or None, function, the mutant's source)} of a file mutmut wrote."""
    tree = ast.parse(mutated)
    lines = mutated.splitlines()
    found = {}
    for scope in [tree, *(n for n in tree.body if isinstance(n, ast.ClassDef))]:
        for node in scope.body:
            match = NAME.match(node.name) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else None
            if match:
                code = textwrap.dedent("\n".join(lines[node.lineno - 1:node.end_lineno]))
                found[node.name] = (match["cls"], match["func"], code)
    return found


def apply(original: str, cls: str | None, func: str, code: str, mutant: str) -> str:
    """``original`` with the function ``func`` (a method of ``cls``) replaced by ``code``, the
    source of the function ``mutant``, renamed ``func``; the decorators stay."""
    tree = ast.parse(original)
    scope = tree.body if cls is None else next(n for n in tree.body if isinstance(n, ast.ClassDef)
                                               and n.name == cls).body
    node = next(n for n in scope if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == func)
    code = re.sub(rf"\bdef\s+{re.escape(mutant)}\b", f"def {func}", code, count=1)
    lines = original.splitlines()
    body = textwrap.indent(code, " " * node.col_offset).splitlines()
    return "\n".join(lines[:node.lineno - 1] + body + lines[node.end_lineno:]) + "\n"


def _copy(root: Path, package: str, into: Path) -> None:
    """The repository under ``into``: ``package`` and ``tests`` copied, the rest linked."""
    skip = shutil.ignore_patterns("__pycache__")
    for entry in root.iterdir():
        if entry.name in (package, "tests"):
            shutil.copytree(entry, into / entry.name, ignore=skip)
        elif not entry.name.startswith(".") and entry.name != MUTANTS.name:
            (into / entry.name).symlink_to(entry.resolve())


def run_tests(root: Path, module: Path, text: str, tests: list[str], timeout: float) -> tuple[int, float]:
    """(exit code, seconds) of the tests run on a copy of the repository whose ``module`` reads
    ``text``; 36 if they take longer than ``timeout``."""
    with tempfile.TemporaryDirectory(prefix="mutant-") as tmp:
        _copy(root, module.parts[0], Path(tmp))
        (Path(tmp) / module).write_text(text)
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        start = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests],
                                cwd=tmp, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        try:
            code = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            code = TIMEOUT
        return (1 if code == 2 else code), time.monotonic() - start


def _write_meta(meta: Path, codes: dict[str, int], durations: dict[str, float]) -> None:
    data = json.loads(meta.read_text()) if meta.exists() else {}
    data.setdefault("exit_code_by_key", {}).update(codes)
    data.setdefault("durations_by_key", {}).update(durations)
    part = meta.with_suffix(".meta.part")
    part.write_text(json.dumps(data, indent=4, ensure_ascii=False))
    part.replace(meta)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", type=Path, help="the module's path, e.g. mlnotes/_source.py")
    parser.add_argument("tests", nargs="+", help="the test files to run on each mutant")
    parser.add_argument("--only", nargs="+", default=None, help="judge these mutants only")
    parser.add_argument("--jobs", type=int, default=2, help="processes at a time (default 2)")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds per mutant (default: 5 times the unmutated run, at least 60)")
    args = parser.parse_args(argv)
    root = Path.cwd()
    if not (MUTANTS / args.module).is_file():
        parser.error(f"no {MUTANTS / args.module}: run mutmut first (make mutants MODULE=...)")
    original = args.module.read_text()
    found = mutants((MUTANTS / args.module).read_text())
    if args.only:
        unknown = set(args.only) - set(found)
        if unknown:
            parser.error(f"no such mutants in {MUTANTS / args.module}: {', '.join(sorted(unknown))}")
        found = {name: found[name] for name in args.only}
    code, seconds = run_tests(root, args.module, original, args.tests, timeout=600)
    if code != 0:
        print(f"the tests fail (exit code {code}) on the unmutated {args.module}: nothing judged")
        return 1
    timeout = args.timeout or max(60.0, 5 * seconds)
    prefix = ".".join(args.module.with_suffix("").parts) + "."
    meta = MUTANTS / f"{args.module}.meta"
    print(f"{len(found)} mutants of {args.module}, {args.jobs} at a time, {timeout:.0f} s each at most "
          f"(the unmutated run took {seconds:.0f} s)", flush=True)
    lock = threading.Lock()
    survived = []

    def judge(name: str) -> None:
        cls, func, mutant = found[name]
        code, seconds = run_tests(root, args.module, apply(original, cls, func, mutant, name), args.tests, timeout)
        with lock:
            _write_meta(meta, {prefix + name: code}, {prefix + name: seconds})
            if code == 0:
                survived.append(name)
            print(f"{code:3d} {seconds:6.1f} s  {name}", flush=True)

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(judge, found))
    print(f"{len(found) - len(survived)} of {len(found)} killed; survived: {' '.join(sorted(survived)) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
