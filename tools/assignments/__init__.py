"""Course assignments: student notebooks and autograders built from the chapters with otter-grader.

A chapter's coding exercise is an ``{exercise}``, its reference answer and one tests cell, which
names the question and holds its test cases (CONTRIBUTING.md, "Exercises")::

    # %% tags=["remove-cell"]
    # Tests of the exercise above (the autograder of its assignment runs them)
    # QUESTION {name: ridge-svd, points: 2}
    # TEST
    assert np.allclose(ridge_svd(X_test, y_test, 2.0), ...)     # visible to the student

    # HIDDEN TEST: the fit interpolates as lam -> 0
    rng_h = np.random.default_rng(list(b"development secret"))  # the build seeds it
    assert ...                                                  # run only by the grader

This module turns every chapter that has at least one such cell into an assignment; ``tools.grading``
grades folders of submitted notebooks, each in a sandbox, with the tests in a separate process (its
docstring says how)::

    python -m tools.assignments build [--out dist/assignments] [--secret-file F] [notebooks/NN_slug.py ...]
    python -m tools.assignments edition [--out dist/student-edition] [--no-html]
    python -m tools.assignments grade AUTOGRADER_ZIP SUBMISSIONS_DIR [--csv scores.csv]
                                        [--timeout 60] [--jobs N] [--memory MiB] [--unsafe]

``build`` writes, for each chapter ``NN_slug``::

    dist/assignments/NN_slug/student/NN_slug.ipynb     hand this out: no solutions, visible tests
    dist/assignments/NN_slug/autograder/NN_slug.ipynb  instructor copy with the reference answers
    dist/assignments/NN_slug/autograder/autograder.zip all tests (visible and hidden), for grading

``otter assign`` does the work. Before it runs, the chapter notebook is preprocessed so the book's
sources need no more assignment-specific markup than that (:func:`master_notebook`):

- each question goes into otter-grader's notebook format (:func:`_otter_format`): raw cells
  ``# BEGIN QUESTION`` (before the exercise), ``# BEGIN TESTS``, ``# END TESTS`` and
  ``# END QUESTION``, and one test cell per case. In the chapters they would be seven cells of
  markup after every exercise wherever a student opens one (JupyterLab can fold a cell, not hide
  it); there they are one folded cell.
- otter strips ``# BEGIN SOLUTION`` ... ``# END SOLUTION`` lines only inside a *solution block*
  (raw cells ``# BEGIN SOLUTION`` / ``# END SOLUTION``). The chapters mark the lines inside the
  answer cell only, so the code cells between a question's prompt and its ``# BEGIN TESTS`` are
  wrapped in a solution block here. Without this, ``otter assign`` leaves the reference solution
  in the student notebook (checked by ``tests/test_assignments.py``).
- MyST markup (directives such as ```` ```{exercise} ````, roles such as ``{eq}`eq-label` ``,
  targets ``(sec-label)=``) becomes plain Markdown with the book's numbers, as in the chapter's
  plain copy (``tools/plain.py``), so the notebook reads the same in every front end; the
  conceptual exercises' ```` ```{solution} ```` blocks are removed from the student notebook.
- The book's MathJax macros (``\\R``, ``\\argmin``, ... from ``book/_config.yml``) are expanded:
  not every front end knows them.
- An ``# ASSIGNMENT CONFIG`` cell is prepended (:data:`ASSIGNMENT_CONFIG`).
- A hidden case holds a generator and a property, not an instance: its development generator
  is replaced by one seeded from the teacher's secret (``hidden.py`` says how and why), so the
  autograder's hidden instances are in no public file.
- A question's ``withdraw:`` key (``mlnotes.module.function``, ``mlnotes.module`` or a
  third-party module such as ``scipy.special``: what the sandbox withdraws) is not otter's: it is
  removed here and written, with what else the grader needs (each case's hidden flag and
  property), to ``mlnotes-grading.json`` in the autograder zip (:func:`grading_spec`).

Course tooling, not part of the ``mlnotes`` package: run it from the repository root
(``python -m tools.assignments``). It needs the ``test`` extra (otter-grader, jupytext, nbformat,
PyYAML).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib
import inspect
import json
import re
import shutil
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import jupytext
import nbformat
import yaml

from ..grading import GRADING_FILE, SandboxUnavailable, answer_cells, grade_folder
from ..grading.engines.bundle import package_for_engines
from ..plain import book_macros, chapter_renderer, expand_macros, myst_to_markdown
from . import hidden

__all__ = [
    "ASSIGNMENT_CONFIG",
    "Case",
    "Question",
    "book_macros",
    "build_all",
    "build_assignment",
    "check_withdrawal",
    "chapters_with_questions",
    "context_source",
    "expand_macros",
    "grade_folder",
    "grading_spec",
    "master_notebook",
    "myst_to_markdown",
    "problem_set",
    "prompt_title",
    "questions",
    "summary",
    "test_cases",
    "test_properties",
    "test_specs",
]

ROOT = Path(__file__).resolve().parents[2]  # the repository: tools/assignments/__init__.py

# The `# ASSIGNMENT CONFIG` cell (otter-grader 7 keys). `name` is set per chapter: otter then
# refuses a submission made from another chapter's notebook.
ASSIGNMENT_CONFIG = {
    "init_cell": True,  # `import otter; grader = otter.Notebook(...)` for grader.check
    "check_all_cell": True,
    "export_cell": False,  # submissions are the .ipynb files themselves, graded locally
    "run_tests": False,  # tests/test_assignments.py proves the tests, much faster than otter
    "tests": {"files": False, "ok_format": True},  # visible tests travel in the notebook metadata
    "generate": {"pdf": False},
}

# A question's tests cell in a chapter (CONTRIBUTING.md, "Exercises"): a code cell the book removes,
# after the exercise and its answer, whose comment lines name the question and start each case.
# The `# QUESTION {...}` line may go on over comment lines (`#   withdraw: [...]}`): 88 characters.
_QUESTION_LINE = re.compile(r"^# QUESTION (\{(?:[^}\n]|\n#)*\})[ \t]*$", re.MULTILINE)
# A case starts at `# TEST`, `# TEST: <what it checks>` or `# HIDDEN TEST: <property>`.
_CASE_LINE = re.compile(r"^# (HIDDEN )?TEST(?:: *(.*?))?[ \t]*$", re.MULTILINE)
_HIDDEN_CONFIG = '""" # BEGIN TEST CONFIG\nhidden: true\n""" # END TEST CONFIG\n'  # otter's hidden case


def _boundary(cell, word: str, kind: str) -> bool:
    """Whether ``cell`` is the raw cell ``# BEGIN|END <kind>`` of otter's format."""
    return cell.cell_type == "raw" and bool(
        re.match(rf"#\s+{word}\s+{kind}\b", cell.source.lstrip(), flags=re.IGNORECASE)
    )


def chapters_with_questions(root: Path = ROOT) -> list[Path]:
    """Every ``notebooks/NN_*.py`` with at least one question's tests cell, in order."""
    scripts = sorted((root / "notebooks").glob("[0-9][0-9]_*.py"))
    return [p for p in scripts if _QUESTION_LINE.search(p.read_text())]


# -- the master notebook given to otter assign ---------------------------------------------------


def _wrap_solution_cells(cells: list) -> list:
    """Put the code cells of each question that come before its tests in a solution block."""
    out, in_question, seen_tests, pending = [], False, False, []

    def flush():
        if pending:
            out.append(nbformat.v4.new_raw_cell("# BEGIN SOLUTION"))
            out.extend(pending)
            out.append(nbformat.v4.new_raw_cell("# END SOLUTION"))
            pending.clear()

    native = False  # the question already has otter's own solution block: leave it alone
    for cell in cells:
        if _boundary(cell, "BEGIN", "QUESTION"):
            in_question, seen_tests, native = True, False, False
        elif in_question and _boundary(cell, "BEGIN", "SOLUTION"):
            native = True
        elif in_question and (_boundary(cell, "BEGIN", "TESTS") or _boundary(cell, "END", "QUESTION")):
            flush()
            seen_tests = True
            in_question = not _boundary(cell, "END", "QUESTION")
        elif in_question and not seen_tests and not native and cell.cell_type == "code":
            pending.append(cell)
            continue
        elif pending and cell.cell_type == "markdown":
            flush()  # prose between two answer cells stays prose
        out.append(cell)
    flush()
    return out


# A question's keys: otter's (name, points) and ours, which the build removes before otter reads
# them: what the sandbox withdraws, the problem set's tier and minutes (the prompt's title shows
# them: :func:`prompt_title`), and for an experiment the real data set it is computed from.
TIERS = ("warm-up", "core", "challenge")
OUR_KEYS = ("withdraw", "tier", "minutes", "data")


def question_config(cell) -> dict | None:
    """The ``# QUESTION {name: ..., points: ...}`` of a question's tests cell; None for another cell."""
    match = _QUESTION_LINE.search(cell.source) if cell.cell_type == "code" else None
    return yaml.safe_load(match.group(1).replace("\n#", " ")) if match else None


def prompt_title(config: dict) -> str:
    """The title a question's ``{exercise}`` carries, from its ``QUESTION`` line: its tier,
    points and minutes (``Core · 3 points · about 40 min``), so the book, the student notebook and
    the PDF show what a teacher plans with. A missing or unknown tier or minutes is refused."""
    name, tier, minutes = config.get("name", "?"), config.get("tier"), config.get("minutes")
    if tier not in TIERS:
        raise ValueError(f"question {name!r}: tier must be one of {', '.join(TIERS)}, not {tier!r}")
    if not isinstance(minutes, int) or isinstance(minutes, bool) or not 1 <= minutes <= 600:
        raise ValueError(f"question {name!r}: minutes must be a whole number of minutes, not {minutes!r}")
    points = config.get("points")
    return f"{tier.capitalize()} · {points:g} point{'s' if points != 1 else ''} · about {minutes} min"


@dataclass(frozen=True)
class Case:
    """One test case of a question: hidden or visible, the property its marker line names
    (``# HIDDEN TEST: <property>``, ``# TEST: <what>``; empty for a bare ``# TEST``), its code."""

    hidden: bool
    property: str
    code: str


def test_cases(cell, name: str) -> list[Case]:
    """The cases of question ``name``'s tests cell, in order. A hidden case must name its property
    and draw its instance from the secret's generator (:func:`hidden.literal_instances`)."""
    header, *parts = _CASE_LINE.split(cell.source)  # header, then (hidden, property, code) triples
    if any(line.strip() and not line.lstrip().startswith("#") for line in header.split("\n")) or not parts:
        raise ValueError(f"question {name!r}: its tests cell must start its cases with '# TEST' or "
                         "'# HIDDEN TEST: <property>' lines, with only comments before the first")
    cases = [Case(bool(is_hidden), (prop or "").strip(), code.strip("\n"))
             for is_hidden, prop, code in zip(parts[::3], parts[1::3], parts[2::3], strict=True)]
    for k, case in enumerate(cases):
        if case.hidden and not case.property:
            raise ValueError(f"question {name!r}, case {k}: a hidden case names the property it "
                             "checks: '# HIDDEN TEST: <property>'")
        problems = hidden.literal_instances(case.code) if case.hidden else []
        if problems:
            raise ValueError(f"question {name!r}, case {k} ({case.property}): its instance would be "
                             "public: " + "; ".join(problems))
    return cases


def _otter_case(case: Case, seed: int) -> str:
    """A case as one of otter's test cells; a hidden one drawn from ``seed``, not the chapter's
    development generator."""
    if not case.hidden:
        return case.code
    return _HIDDEN_CONFIG + case.code.replace(hidden.HIDDEN_RNG_LINE, hidden.seeded_line(seed), 1)


def _otter_format(cells: list, chapter: str, secret: str) -> list:
    """The chapter's questions in otter-grader's notebook format. Each tests cell becomes
    ``# BEGIN TESTS``, a cell per case, ``# END TESTS`` and ``# END QUESTION``, and the question's
    ``# BEGIN QUESTION`` (its name and points) goes before the exercise above it, so the prompt,
    the answer cells and the tests are one question. Hidden cases draw from ``secret``."""
    out: list = []
    for cell in cells:
        config = question_config(cell)
        if config is None:
            out.append(cell)
            continue
        # the exercise the tests belong to: the last one since the previous question
        start = next((i for i in reversed(range(len(out))) if _boundary(out[i], "END", "QUESTION")
                      or (out[i].cell_type == "markdown" and "{exercise}" in out[i].source)), None)
        if start is None or out[start].cell_type != "markdown":
            raise ValueError(f"question {config['name']!r}: no {{exercise}} above its tests cell")
        otter = {k: v for k, v in config.items() if k not in OUR_KEYS}  # ours: grading_spec
        out.insert(start, nbformat.v4.new_raw_cell("# BEGIN QUESTION\n" + yaml.safe_dump(otter, sort_keys=False)))
        out.append(nbformat.v4.new_raw_cell("# BEGIN TESTS"))
        tags = cell.metadata.get("tags", [])  # and not jupytext's layout keys
        name = config["name"]
        out += [nbformat.v4.new_code_cell(_otter_case(case, hidden.case_seed(secret, chapter, name, k)),
                                          metadata={"tags": list(tags)})
                for k, case in enumerate(test_cases(cell, name))]
        out += [nbformat.v4.new_raw_cell("# END TESTS"), nbformat.v4.new_raw_cell("# END QUESTION")]
    return out


def problem_set(chapter: Path) -> list[dict]:
    """The chapter's graded questions in order, each its ``QUESTION`` keys plus ``title``: the
    argument of the ``{exercise}`` above its tests cell (None where it has none)."""
    out, title = [], None
    for cell in jupytext.read(chapter).cells:
        if cell.cell_type == "markdown" and "{exercise}" in cell.source:
            # the last exercise of the cell: the one right above the question's answer
            line = cell.source[cell.source.rindex("{exercise}"):].split("\n", 1)[0]
            title = line.removeprefix("{exercise}").strip() or None
        config = question_config(cell)
        if config:
            out.append({**config, "title": title})
    return out


def withdrawals(chapter: Path) -> dict[str, list[str]]:
    """Question name -> what it withdraws while it is graded: the question's ``withdraw:`` key
    (ours, not otter's: :func:`master_notebook` leaves it out), each entry checked by
    :func:`check_withdrawal`."""
    configs = [question_config(c) for c in jupytext.read(chapter).cells]
    out = {cfg["name"]: list(cfg.get("withdraw", [])) for cfg in configs if cfg}
    for name, dotted in out.items():
        for entry in dotted:
            check_withdrawal(entry, name)
    return out


def check_withdrawal(dotted: str, question: str = "?") -> str:
    """Return ``dotted`` if it is one of the three forms the sandbox withdraws, else raise
    ValueError naming the question: ``mlnotes.module.function`` (a public or private function of
    an ``mlnotes`` module), ``mlnotes.module`` (the whole module) or an importable third-party
    module (``scipy.special``)."""
    if not isinstance(dotted, str) or not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", dotted):
        raise ValueError(f"question {question!r}: withdraw entry {dotted!r} is not a dotted name")
    with contextlib.suppress(ImportError):
        importlib.import_module(dotted)
        if dotted.startswith("mlnotes.") or not dotted.startswith("mlnotes"):
            return dotted  # a module: mlnotes.boosting, scipy.special
    module, _, name = dotted.rpartition(".")
    if module.startswith("mlnotes.") and module.count(".") == 1:
        with contextlib.suppress(ImportError):
            if inspect.isfunction(getattr(importlib.import_module(module), name, None)):
                return dotted
    raise ValueError(f"question {question!r}: withdraw entry {dotted!r} is neither a function of an "
                     "mlnotes module, an mlnotes module, nor an importable module")


def test_properties(chapter: Path) -> dict[str, list[dict]]:
    """Question name -> its cases in otter's order, ``{"hidden": bool, "property": str}`` each:
    what the grader's feedback may say about a case (a hidden case: only its property)."""
    out = {}
    for cell in jupytext.read(chapter).cells:
        config = question_config(cell)
        if config:
            out[config["name"]] = [{"hidden": c.hidden, "property": c.property}
                                   for c in test_cases(cell, config["name"])]
    return out


def master_notebook(chapter: Path, secret: str = hidden.DEVELOPMENT_SECRET) -> nbformat.NotebookNode:
    """The chapter notebook prepared for ``otter assign`` (see the module docstring); its hidden
    cases draw their instances from ``secret``."""
    nb, macros = jupytext.read(chapter), book_macros()
    # references print the book's numbers, as in the chapter's plain copy (tools/plain.py)
    render = chapter_renderer(nb, chapter.stem, "drop")
    # the macros cell (book/preamble.py) goes: its macros are expanded below, and expanding its
    # own definitions would turn \def\R{...} into a TeX error
    nb.cells = [c for c in nb.cells if not (c.cell_type == "markdown" and "remove-cell" in c.metadata.get("tags", []))]
    # before the MyST goes: _otter_format finds each question's {exercise}
    nb.cells = _otter_format(nb.cells, chapter.stem, secret)
    for cell in nb.cells:
        cell.metadata.pop("jupyter", None)  # the chapter folds its solutions; a student's answer cell is open
        if cell.cell_type == "markdown":
            cell.source = expand_macros(render.render(cell.source), macros)
    nb.cells = _wrap_solution_cells(nb.cells)
    config = dict(ASSIGNMENT_CONFIG, name=chapter.stem)
    config_cell = "# ASSIGNMENT CONFIG\n" + yaml.safe_dump(config, sort_keys=False)
    nb.cells.insert(0, nbformat.v4.new_raw_cell(config_cell))
    nb.metadata.pop("jupytext", None)
    return nb


def build_assignment(chapter: Path, out: Path, secret: str = hidden.DEVELOPMENT_SECRET) -> Path:
    """Run ``otter assign`` on one chapter, its hidden cases drawn from ``secret``; return
    ``out/<chapter>`` (layout in the docstring)."""
    from otter.assign import main as otter_assign  # slow to import: only when building

    chapter, dest = Path(chapter).resolve(), Path(out).resolve() / Path(chapter).stem
    shutil.rmtree(dest, ignore_errors=True)
    with tempfile.TemporaryDirectory() as tmp:
        master = Path(tmp) / f"{chapter.stem}.ipynb"
        nbformat.write(master_notebook(chapter, secret), master)
        otter_assign(str(master), str(dest), no_pdfs=True)
    zips = sorted((dest / "autograder").glob("*-autograder_*.zip"))
    zips[-1].rename(dest / "autograder" / "autograder.zip")  # a name without a timestamp
    spec = grading_spec(chapter, dest)
    with zipfile.ZipFile(dest / "autograder" / "autograder.zip", "a") as z:
        z.writestr(GRADING_FILE, json.dumps(spec, indent=1))
    package_for_engines(dest)  # Gradescope's self-contained zip, PrairieLearn's files
    return dest


def _defined_names(source: str) -> tuple[list[str], list[str]]:
    """The functions and the other names an answer cell defines at top level."""
    functions, values = [], []
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef):
            functions.append(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            values += [t.id for t in targets if isinstance(t, ast.Name)]
    return functions, values


def grading_spec(chapter: Path, built: Path) -> dict:
    """What ``tools.grading`` needs besides otter's tests (``mlnotes-grading.json`` in the zip): the
    chapter's imports and definitions, run in both processes, and per question the names its
    answer defines (the grader's proxies), what it withdraws (dotted names:
    :func:`check_withdrawal`) and its ``cases`` in otter's order (:func:`test_properties`)."""
    autograder = nbformat.read(built / "autograder" / f"{chapter.stem}.ipynb", as_version=4)
    withdrawn, cases, questions = withdrawals(chapter), test_properties(chapter), []
    for name, source in answer_cells(autograder).items():
        functions, values = _defined_names(source)
        questions.append({"name": name, "functions": functions, "values": values,
                          "withdraw": withdrawn.get(name, []), "cases": cases[name]})
    return {"name": chapter.stem, "context": context_source(autograder), "questions": questions}


def build_all(out: Path, chapters: list[Path] | None = None,
              secret: str = hidden.DEVELOPMENT_SECRET) -> list[Path]:
    """Build the assignment of every chapter that has coding questions (one process for all:
    importing otter costs more than assigning a chapter)."""
    chapters = chapters_with_questions() if chapters is None else chapters
    return [build_assignment(ch, out, secret) for ch in chapters]


# -- reading a built assignment --------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    """One autograded question of a built assignment, as ``tests/test_assignments.py`` sees it.

    ``reference`` and ``student`` are the sources of the answer cells in the autograder notebook
    and in the student notebook; ``tests`` is the path of the question's test file (visible and
    hidden cases) extracted from the autograder zip.
    """

    name: str
    reference: str
    student: str
    tests: Path


def questions(assignment: Path, workdir: Path) -> list[Question]:
    """The questions of a built assignment; the autograder's test files go into ``workdir``."""
    assignment = Path(assignment)
    stem = assignment.name
    with zipfile.ZipFile(assignment / "autograder" / "autograder.zip") as z:
        z.extractall(workdir)
    reference = answer_cells(nbformat.read(assignment / "autograder" / f"{stem}.ipynb", as_version=4))
    student = answer_cells(nbformat.read(assignment / "student" / f"{stem}.ipynb", as_version=4))
    return [Question(name, reference[name], student.get(name, ""), Path(workdir) / "tests" / f"{name}.py")
            for name in reference]


def context_source(nb: nbformat.NotebookNode) -> str:
    """The imports and top-level function and class definitions of a notebook's code cells outside
    the answers: what a question's tests may use besides the data they build themselves."""
    keep = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)
    parts = []
    for cell in nb.cells:
        tags = cell.metadata.get("tags", [])
        if cell.cell_type != "code" or "otter_answer_cell" in tags or "otter_assign_solution_cell" in tags:
            continue
        # IPython magics and shell escapes are not Python, and the tests do not need them
        lines = cell.source.split("\n")
        source = "\n".join("" if line.lstrip()[:1] in ("%", "!") else line for line in lines)
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        parts += [ast.get_source_segment(source, node) for node in tree.body if isinstance(node, keep)]
    return "\n".join(p for p in parts if "otter" not in p)


def test_specs(autograder: Path) -> dict[str, dict]:
    """Question name -> otter's OK-format test spec (points, cases with ``hidden``) in a zip."""
    specs = {}
    with zipfile.ZipFile(autograder) as z:
        for name in sorted(n for n in z.namelist() if re.fullmatch(r"tests/[^/]+\.py", n)):
            env: dict = {}
            exec(z.read(name).decode(), env)  # an OK-format test file is a dict literal
            specs[Path(name).stem] = env["test"]
    return specs


def summary(assignment: Path) -> str:
    """One line on a built assignment: its questions, visible and hidden test cases, points."""
    specs = test_specs(Path(assignment) / "autograder" / "autograder.zip")
    cases = [c for spec in specs.values() for suite in spec["suites"] for c in suite["cases"]]
    hidden = sum(c["hidden"] for c in cases)
    points = sum(spec["points"] for spec in specs.values())
    return (f"{Path(assignment).name}: {len(specs)} questions, {len(cases) - hidden} visible and "
            f"{hidden} hidden tests, {points:g} points")


def _main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.assignments", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the assignments of the chapters with coding questions")
    b.add_argument("chapters", nargs="*", type=Path, help="chapter scripts (default: all with questions)")
    b.add_argument("--out", type=Path, default=ROOT / "dist" / "assignments")
    b.add_argument("--secret-file", type=Path, default=None,
                   help=f"file holding the secret the hidden tests draw from (default: ${hidden.SECRET_ENV})")
    e = sub.add_parser("edition", help="the book and notebooks without solutions (edition.py)")
    e.add_argument("--out", type=Path, default=ROOT / "dist" / "student-edition")
    e.add_argument("--no-html", action="store_true", help="write the stripped sources only")
    g = sub.add_parser("grade", help="grade every .ipynb in a folder, write a CSV of scores")
    g.add_argument("autograder", type=Path, help="dist/assignments/<chapter>/autograder/autograder.zip")
    g.add_argument("submissions", type=Path, help="folder of submitted notebooks")
    g.add_argument("--csv", type=Path, default=None, help="default: <submissions>/scores.csv")
    g.add_argument("--timeout", type=float, default=60.0, help="seconds per question (default 60)")
    g.add_argument("--jobs", type=int, default=None, help="submissions graded at once (default: every core)")
    g.add_argument("--memory", type=int, default=2048, help="MiB of memory per submission (default 2048)")
    g.add_argument("--feedback", type=Path, default=None, help="feedback folder (default: feedback/ beside the CSV)")
    g.add_argument("--unsafe", action="store_true",
                   help="grade without the sandbox if it cannot run (the students' code runs as you)")
    args = parser.parse_args(argv)
    if args.command == "build":
        if not (args.chapters or chapters_with_questions()):
            print("no chapter has a coding question (a '# QUESTION' tests cell) yet: nothing to build")
        secret, development = hidden.read_secret(args.secret_file)
        if development:
            print(hidden.DEVELOPMENT_WARNING, file=sys.stderr)
        for dest in build_all(args.out, args.chapters or None, secret):
            print(f"built {dest.relative_to(Path.cwd()) if dest.is_relative_to(Path.cwd()) else dest}  "
                  f"({summary(dest)})")
    elif args.command == "edition":
        from .edition import build_edition

        out = build_edition(args.out, html=not args.no_html)
        print(f"student edition: sources in {out / 'src'}"
              + ("" if args.no_html else f", book in {out / 'html' / '_build' / 'html'}"))
    else:
        csv_path = args.csv or args.submissions / "scores.csv"
        try:
            grade_folder(args.autograder, args.submissions, csv_path, timeout=args.timeout, jobs=args.jobs,
                         memory_mb=args.memory, unsafe=args.unsafe, feedback=args.feedback, echo=print)
        except (SandboxUnavailable, ValueError, OSError) as exc:
            raise SystemExit(f"error: {exc}") from None
        print(f"scores written to {csv_path}")

