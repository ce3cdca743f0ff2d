"""The assignments built from the chapters are sound (issue 10).

For every chapter with coding questions (and the fixture chapter tests/fixtures/99_fixture.py),
the assignment is built with ``otter assign`` and, for every question, the tests from its
autograder (visible and hidden cases) are run in-process with otter's own test runner:

1. the reference solution passes every test case;
2. the generated student version, run as it is, fails every test case;
3. no line of a reference solution appears in the student notebook;
4. each of the (at least three) plausible wrong answers of tests/wrong_answers/
   scores at most half of the question's points;

and each question has at least one visible and two hidden tests. The autograder is built with a
test secret; :func:`test_tests_hold_for_any_secret` runs the chapter's tests cells directly under
several more (the reference passes, the wrong answers stay at or under half), and the hidden
cases are checked to hold no instance (:mod:`tools.assignments.hidden`). The real grader (sandbox,
withdrawal, answers called across processes) is tested in tests/test_grading.py. Each question runs in a fresh
namespace holding the notebook's imports and definitions, the other questions' reference answers
and the answer under test; test data are built inside the tests (CONTRIBUTING.md), so the chapter
itself is not executed here (nbval does that).
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import io
import json
import keyword
import re
import runpy
import sys
import types
import warnings
import zipfile
from pathlib import Path

import nbformat
import pytest
import yaml

from tools import assignments
from tools.assignments import hidden

ROOT = Path(__file__).resolve().parent.parent
# tests/wrong_answers/<chapter stem>.py: each chapter's plausible wrong answers (README.md there)
WRONG_ANSWERS = {p.stem: runpy.run_path(str(p))["WRONG_ANSWERS"]
                 for p in sorted((ROOT / "tests" / "wrong_answers").glob("*.py"))}
FIXTURE = ROOT / "tests" / "fixtures" / "99_fixture.py"
CHAPTERS = [*assignments.chapters_with_questions(ROOT), FIXTURE]
# otter's notebook machinery uses a traitlets idiom that traitlets deprecates: not our code
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:traitlets")


def _run(source: str, env: dict) -> None:
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an answer's warnings are the student's business
        exec(compile(source, "<answer>", "exec"), env)


def _case_results(question: assignments.Question, env: dict) -> list[tuple[bool, bool]]:
    """(hidden, passed) for each test case of ``question``, run in a copy of ``env``."""
    from otter.test_files import OKTestFile

    tests = OKTestFile.from_file(str(question.tests))
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tests.run(dict(env))
    return [(r.test_case.hidden, r.passed) for r in tests.test_case_results]


def _namespace(context: str, qs: list[assignments.Question], q: assignments.Question, answer: str) -> dict:
    """The notebook's context, the other questions' reference answers, then ``answer`` for ``q``."""
    env: dict = {"__name__": "__main__"}
    _run(context, env)
    for other in qs:
        if other is not q:
            _run(other.reference, env)
    try:
        _run(answer, env)
    except Exception:  # an answer cell that cannot even run fails its tests, as in a notebook
        pass
    return env


def _grading_spec(built: Path) -> dict:
    with zipfile.ZipFile(built / "autograder" / "autograder.zip") as z:
        return json.loads(z.read(assignments.GRADING_FILE))


def _solution_lines(chapter: Path) -> set[str]:
    """The lines of the chapter's reference solutions that carry code (not blank, not a comment,
    not only keywords and punctuation such as ``else:`` or ``)``)."""
    lines, inside = set(), False
    for raw in chapter.read_text().splitlines():
        line = raw.strip()
        if line.endswith("# BEGIN SOLUTION") or line.endswith("# END SOLUTION"):
            inside = line.endswith("# BEGIN SOLUTION")
            continue
        if (inside or line.endswith("# SOLUTION")) and line and not line.startswith("#"):
            names = [w for w in re.findall(r"[A-Za-z_]\w*", line) if not keyword.iskeyword(w)]
            if names:
                lines.add(re.sub(r"\s+", " ", line))
    return lines


def _visible_lines(nb: nbformat.NotebookNode) -> set[str]:
    """Every line a student sees: cell sources and the visible tests in the notebook metadata."""
    texts = [cell.source for cell in nb.cells]
    for test in nb.metadata.get("otter", {}).get("tests", {}).values():
        texts += [case["code"] for suite in test["suites"] for case in suite["cases"]]
    return {re.sub(r"\s+", " ", line.strip().removeprefix(">>> ").removeprefix("... "))
            for text in texts for line in text.splitlines()}


# -- withdrawal, as the grader's sandbox does it, for answers run in this process ------------------


class _Withdrawn(types.ModuleType):
    def __getattr__(self, name):
        raise AttributeError(f"{self.__name__} is withdrawn while this question is graded")


def _stub(dotted: str):
    def withdrawn(*args, **kwargs):
        raise RuntimeError(f"{dotted} is withdrawn while this question is graded")
    return withdrawn


def _is_module(dotted: str) -> bool:
    try:
        importlib.import_module(dotted)
    except ImportError:
        return False
    return True


@contextlib.contextmanager
def _withdrawal(dotted_names: list[str], env: dict):
    """While it lasts, each withdrawn function or module raises when used, through its module,
    ``sys.modules`` (a fresh import) or a name ``env`` bound to it before."""
    undo = []

    def patch(obj, name, value):  # a dict's item or an object's attribute
        if isinstance(obj, dict):
            undo.append((obj, name, obj[name]))
            obj[name] = value
        else:
            undo.append((obj, name, getattr(obj, name)))
            setattr(obj, name, value)

    for dotted in dotted_names:
        if _is_module(dotted):
            original, stub = importlib.import_module(dotted), _Withdrawn(dotted)
            parent, _, leaf = dotted.rpartition(".")
            patch(sys.modules, dotted, stub)
            if parent:
                patch(sys.modules[parent], leaf, stub)
        else:
            module, _, leaf = dotted.rpartition(".")
            original, stub = getattr(importlib.import_module(module), leaf), _stub(dotted)
            patch(importlib.import_module(module), leaf, stub)
        for key, value in list(env.items()):
            if value is original:
                patch(env, key, stub)
    try:
        yield
    finally:
        for obj, name, value in reversed(undo):
            if isinstance(obj, dict):
                obj[name] = value
            else:
                setattr(obj, name, value)


def _answer_under_withdrawal(answer: str, env: dict, dotted_names: list[str]) -> dict:
    """``env`` with ``answer`` run in it, each function it defines called under the question's
    withdrawal: the tests' own oracles (in ``env``, outside the answer's calls) keep working, as
    in the grader, where the answer runs in the sandbox and the tests do not."""
    env = dict(env)
    with contextlib.suppress(Exception):
        _run(answer, env)
    for key, value in list(env.items()):
        if isinstance(value, types.FunctionType) and value.__code__.co_filename == "<answer>":
            env[key] = _withdrawn_call(value, dotted_names)
    return env


def _withdrawn_call(function, dotted_names):
    def call(*args, **kwargs):
        with _withdrawal(dotted_names, function.__globals__):
            return function(*args, **kwargs)
    return call


# -- the tests cells read straight from the chapter, run with any secret (no otter needed) --------


def _chapter_questions(chapter: Path) -> list[tuple[dict, list[assignments.Case]]]:
    import jupytext

    cells = jupytext.read(chapter).cells
    return [(cfg, assignments.test_cases(cell, cfg["name"]))
            for cell in cells if (cfg := assignments.question_config(cell))]


def _chapter_context(chapter: Path) -> str:
    """The chapter's imports and top-level definitions, reference answers included: the namespace
    its tests cells may use (CONTRIBUTING.md, "Exercises")."""
    import jupytext

    keep, parts = (ast.Import, ast.ImportFrom, ast.FunctionDef), []
    for cell in jupytext.read(chapter).cells:
        if cell.cell_type != "code" or assignments.question_config(cell):
            continue
        source = "\n".join("" if ln.lstrip()[:1] in "%!" and ln.strip() else ln for ln in cell.source.split("\n"))
        with contextlib.suppress(SyntaxError):
            tree = ast.parse(source)
            parts += [ast.get_source_segment(source, n) for n in tree.body if isinstance(n, keep)]
    return "\n".join(parts)


def _scores(chapter: Path, question: str, cases: list, env: dict, secret: str) -> list[bool]:
    """Whether each case passes in a copy of ``env``, hidden ones drawn from ``secret``."""
    out = []
    for k, case in enumerate(cases):
        code = case.code
        if case.hidden:
            seed = hidden.case_seed(secret, chapter.stem, question, k)
            code = code.replace(hidden.HIDDEN_RNG_LINE, hidden.seeded_line(seed), 1)
        try:
            _run(code, dict(env))
        except Exception:
            out.append(False)
        else:
            out.append(True)
    return out


SECRETS = ["test secret 1", "test secret 2", "test secret 3"]


def _answer_functions(chapter: Path) -> dict[str, list[str]]:
    """Question name -> the functions its answer cell (the code cell before its tests) defines."""
    import jupytext

    out, previous = {}, None
    for cell in jupytext.read(chapter).cells:
        config = assignments.question_config(cell)
        if config and previous is not None:
            out[config["name"]] = [n.name for n in ast.parse(previous.source).body
                                   if isinstance(n, ast.FunctionDef)]
        if cell.cell_type == "code":
            previous = cell
    return out


@pytest.mark.parametrize("chapter", CHAPTERS, ids=[c.stem for c in CHAPTERS])
@pytest.mark.parametrize("empty", ["np.array([])", "[]", "np.zeros(1)", "None"])
def test_an_empty_answer_fails_every_case(chapter: Path, empty: str) -> None:
    """Every case checks the shape of what comes back: an answer returning an empty array, an
    empty list, a one-element array or None scores nothing."""
    context, problems = _chapter_context(chapter), []
    base: dict = {"__name__": "__main__"}
    _run(context, base)
    functions = _answer_functions(chapter)
    for cfg, cases in _chapter_questions(chapter):
        env = dict(base)
        for name in functions[cfg["name"]]:
            _run(f"def {name}(*args, **kwargs):\n    return {empty}\n", env)
        passed = [k for k, ok in enumerate(_scores(chapter, cfg["name"], cases, env, SECRETS[0])) if ok]
        if passed:
            problems.append(f"{cfg['name']}: returning {empty} passes cases {passed}")
    assert not problems, f"{chapter.name}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=[c.stem for c in CHAPTERS])
def test_tests_hold_for_any_secret(chapter: Path) -> None:
    """Under several secrets, the reference passes every case and each wrong answer of
    tests/wrong_answers/ scores at most half of its question's points (cases share
    them equally); a case that fails on the answer's shape fails whatever the secret."""
    context, wrong, problems = _chapter_context(chapter), WRONG_ANSWERS.get(chapter.stem, {}), []
    base: dict = {"__name__": "__main__"}
    _run(context, base)
    for cfg, cases in _chapter_questions(chapter):
        name = cfg["name"]
        for secret in SECRETS + [hidden.DEVELOPMENT_SECRET]:
            failed = [k for k, ok in enumerate(_scores(chapter, name, cases, base, secret)) if not ok]
            if failed:
                problems.append(f"{name}: the reference fails cases {failed} with secret {secret!r}")
        answers = wrong.get(name, [])
        if len(answers) < 3:
            problems.append(f"{name}: {len(answers)} wrong answers in tests/wrong_answers/, not 3")
        for j, source in enumerate(answers):
            env = _answer_under_withdrawal(source, base, cfg.get("withdraw", []))
            for secret in SECRETS[1:]:  # SECRETS[0]: test_assignment_is_sound, through otter
                passed = _scores(chapter, name, cases, env, secret)
                if sum(passed) > len(passed) / 2:
                    problems.append(f"{name}: wrong answer {j} passes {sum(passed)} of {len(passed)} "
                                    f"cases with secret {secret!r}")
    assert not problems, f"{chapter.name}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=[c.stem for c in CHAPTERS])
def test_assignment_is_sound(chapter: Path, tmp_path: Path) -> None:
    built = assignments.build_assignment(chapter, tmp_path / "dist", secret=SECRETS[0])
    qs = assignments.questions(built, tmp_path / "autograder")
    student_nb = nbformat.read(built / "student" / f"{chapter.stem}.ipynb", as_version=4)
    context = assignments.context_source(student_nb)
    assert qs, f"{chapter.name}: no question was built"
    wrong_answers, problems = WRONG_ANSWERS.get(chapter.stem, {}), []
    withdrawn = assignments.withdrawals(chapter)
    for q in qs:
        reference = _case_results(q, _namespace(context, qs, q, q.reference))
        student = _case_results(q, _namespace(context, qs, q, q.student))
        if "..." not in q.student:
            problems.append(f"{q.name}: the student notebook has no answer cell to fill in")
        hidden = [h for h, _ in reference]
        if all(hidden) or sum(hidden) < 2:
            problems.append(f"{q.name}: needs a visible and two hidden tests, has {len(hidden)} tests, "
                            f"{sum(hidden)} hidden")
        if not all(passed for _, passed in reference):
            problems.append(f"{q.name}: the reference solution fails test cases "
                            f"{[k for k, (_, p) in enumerate(reference) if not p]}")
        if any(passed for _, passed in student):
            problems.append(f"{q.name}: the blank student version passes test cases "
                            f"{[k for k, (_, p) in enumerate(student) if p]}")
        if len(wrong_answers.get(q.name, [])) < 3:
            problems.append(f"{q.name}: fewer than three wrong answers in tests/wrong_answers/")
        for j, wrong in enumerate(wrong_answers.get(q.name, [])):
            env = _answer_under_withdrawal(wrong, _namespace(context, qs, q, ""), withdrawn[q.name])
            passed = [p for _, p in _case_results(q, env)]
            if sum(passed) > len(passed) / 2:  # the question's points are shared equally by its cases
                problems.append(f"{q.name}: wrong answer {j} scores {sum(passed)} of {len(passed)} cases")
    spec_cases = {q["name"]: q["cases"] for q in _grading_spec(built)["questions"]}
    for name, spec in assignments.test_specs(built / "autograder" / "autograder.zip").items():
        otter_hidden = [c["hidden"] for suite in spec["suites"] for c in suite["cases"]]
        if [c["hidden"] for c in spec_cases[name]] != otter_hidden or not all(
                c["property"] for c in spec_cases[name] if c["hidden"]):
            problems.append(f"{name}: mlnotes-grading.json's cases {spec_cases[name]} are not otter's")
    if "rng_h" in json.dumps(student_nb):
        problems.append("a hidden case's generator is in the student notebook")
    unknown = set(wrong_answers) - {q.name for q in qs}
    if unknown:
        problems.append(f"wrong answers for questions the chapter does not have: {sorted(unknown)}")
    myst = re.compile(r"^\s*(`{3,}|:{3,})\{|\{[\w:-]+\}`|^\s*\([\w:.-]+\)=\s*$", re.MULTILINE)
    left = sorted({m.group(0).strip() for cell in student_nb.cells if cell.cell_type == "markdown"
                   for m in myst.finditer(cell.source)})
    if left:
        problems.append(f"MyST left in the student notebook's Markdown: {left}")
    leaked = _solution_lines(chapter) & _visible_lines(student_nb)
    if leaked:
        problems.append(f"solution lines in the student notebook: {sorted(leaked)}")
    assert not problems, f"{chapter.name}:\n  " + "\n  ".join(problems)


CHAPTER_SCRIPTS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
# The transcriptions and duplicates of issue 40, retired: each became part of a larger question.
RETIRED = {"rss-gradient", "quadratic-gradient", "ridge-dof", "logistic-gradient", "perceptron-bound",
           "winnow-bound", "svm-dual-value", "poly-kernel", "adaboost-alpha", "adaboost-error-bound",
           "hoeffding-sample-size", "uniform-sample-size", "hinge-subgradient", "logistic-loglik"}


@pytest.mark.parametrize("chapter", CHAPTER_SCRIPTS, ids=[c.stem for c in CHAPTER_SCRIPTS])
def test_each_chapter_has_a_weekly_problem_set(chapter: Path) -> None:
    """CONTRIBUTING.md, "Exercises": at least six graded questions a chapter, at most one of them
    a warm-up, none of the retired transcriptions, and at least one an experiment on a data set
    the course ships whose every case loads it (its ``data:`` key names ``load_<data>``)."""
    import jupytext

    from mlnotes import datasets

    qs, problems = assignments.problem_set(chapter), []
    tiers = [q.get("tier") for q in qs]
    if len(qs) < 6:
        problems.append(f"{len(qs)} graded questions, fewer than 6")
    if tiers.count("warm-up") > 1:
        problems.append(f"{tiers.count('warm-up')} warm-ups, more than 1")
    if not any(q.get("data") for q in qs):
        problems.append("no experiment question (a `data:` key)")
    problems += [f"{q['name']}: retired" for q in qs if q["name"] in RETIRED]
    for cell in jupytext.read(chapter).cells:
        config = assignments.question_config(cell)
        if not (config and config.get("data")):
            continue
        if not callable(getattr(datasets, f"load_{config['data']}", None)):
            problems.append(f"{config['name']}: data {config['data']!r} is no mlnotes.datasets.load_*")
        for case in assignments.test_cases(cell, config["name"]):
            if f"load_{config['data']}(" not in case.code:
                problems.append(f"{config['name']}: a case that does not call load_{config['data']}()")
    assert not problems, f"{chapter.stem}: {problems}"


def test_the_course_has_fifty_graded_questions() -> None:
    total = sum(len(assignments.problem_set(chapter)) for chapter in CHAPTER_SCRIPTS)
    assert total >= 50, f"{total} graded questions in the course, fewer than 50"


def test_the_term_plan_adds_up_the_problem_sets() -> None:
    """book/teaching.md, "A term with the course": one row per problem set, whose tiers, points
    and hours are what the chapter's QUESTION lines add up to and whose exam questions are
    questions of that set, so the plan a teacher adopts cannot drift from the chapters."""
    text = (ROOT / "book" / "teaching.md").read_text()
    rows = {int(m["chapter"]): m for m in re.finditer(
        r"^\| *(?P<week>\d+) *\| *Chapter (?P<chapter>\d) [^|]*\| *(?P<tiers>\d+ / \d+ / \d+) *"
        r"\| *(?P<points>\d+) *\| *(?P<hours>[\d.]+) *\| *(?P<exam>[^|]*)\|$", text, re.M)}
    assert sorted(rows) == list(range(len(CHAPTER_SCRIPTS))), f"term plan rows for chapters {sorted(rows)}"
    problems = []
    for chapter in CHAPTER_SCRIPTS:
        qs, row = assignments.problem_set(chapter), rows[int(chapter.stem[:2])]
        tiers = " / ".join(str([q["tier"] for q in qs].count(t)) for t in assignments.TIERS)
        points = sum(q["points"] for q in qs)
        hours = f"{sum(q['minutes'] for q in qs) / 60:.1f}"
        if (row["tiers"], int(row["points"]), row["hours"]) != (tiers, points, hours):
            problems.append(f"{chapter.stem}: plan says {row['tiers']}, {row['points']} points, "
                            f"{row['hours']} h; the chapter has {tiers}, {points} points, {hours} h")
        names = {q["name"] for q in qs}
        exam = re.findall(r"`([a-z0-9-]+)`", row["exam"])
        if not exam or not set(exam) <= names:
            problems.append(f"{chapter.stem}: exam questions {exam} not all among {sorted(names)}")
    weeks = [int(rows[k]["week"]) for k in sorted(rows)]
    if weeks != sorted(weeks) or max(weeks) > 10:
        problems.append(f"the sets are not in order within 10 weeks: weeks {weeks}")
    assert not problems, problems


@pytest.mark.parametrize("chapter", CHAPTER_SCRIPTS, ids=[c.stem for c in CHAPTER_SCRIPTS])
def test_prompts_carry_tier_points_and_minutes(chapter: Path) -> None:
    """Each graded exercise's title is its tier, points and minutes, as its QUESTION line says."""
    problems = []
    for q in assignments.problem_set(chapter):
        try:
            expected = assignments.prompt_title(q)
        except ValueError as e:
            problems.append(str(e))
            continue
        if q["title"] != expected:
            problems.append(f"{q['name']}: title {q['title']!r}, expected {expected!r}")
    assert not problems, f"{chapter.stem}: {problems}"


@pytest.mark.parametrize(("config", "problem"), [
    ({"name": "q", "points": 2, "minutes": 20}, "tier must be one of"),
    ({"name": "q", "points": 2, "tier": "hard", "minutes": 20}, "tier must be one of"),
    ({"name": "q", "points": 2, "tier": "core"}, "minutes must be"),
    ({"name": "q", "points": 2, "tier": "core", "minutes": 0}, "minutes must be"),
    ({"name": "q", "points": 2, "tier": "core", "minutes": "an hour"}, "minutes must be"),
])
def test_a_question_without_a_tier_or_minutes_is_refused(config, problem) -> None:
    with pytest.raises(ValueError, match=problem):
        assignments.prompt_title(config)


def test_prompt_title() -> None:
    assert assignments.prompt_title({"name": "q", "points": 3, "tier": "challenge", "minutes": 90}) == (
        "Challenge · 3 points · about 90 min")
    assert assignments.prompt_title({"name": "q", "points": 1, "tier": "warm-up", "minutes": 10}) == (
        "Warm-up · 1 point · about 10 min")


@pytest.mark.parametrize("chapter", CHAPTER_SCRIPTS, ids=[c.stem for c in CHAPTER_SCRIPTS])
def test_each_chapter_has_a_proof_exercise(chapter: Path) -> None:
    """At least one conceptual exercise a chapter asks for a proof: its title starts "Proof"."""
    import jupytext

    titles = [t.strip() for c in jupytext.read(chapter).cells if c.cell_type == "markdown"
              for t in re.findall(r"\{exercise\}(.*)", c.source)]
    assert any(t.startswith("Proof") for t in titles), f"{chapter.stem}: no exercise titled Proof ...: {titles}"


def test_chapters_write_each_question_as_one_tests_cell() -> None:
    """CONTRIBUTING.md, "Exercises": no otter markup in a chapter (it would be seven cells after
    every exercise in JupyterLab); the pipeline writes it (tools/assignments._otter_format)."""
    import jupytext

    for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py")):
        cells = jupytext.read(p).cells
        assert not [c.source[:40] for c in cells if c.cell_type == "raw"], p.name
        assert not [c.source[:40] for c in cells if "# BEGIN TEST CONFIG" in c.source], p.name


def test_myst_to_markdown() -> None:
    md = assignments.myst_to_markdown(
        "(sec-a)=\n## A\n\n```{exercise}\n:label: ex-a\nShow {eq}`eq-b` from {cite}`hastie2009`.\n```\n\n"
        "```{solution} ex-a\n:class: dropdown\nsecret\n```\n\n$$\nx = 1\n$$ (eq-b)\n\n"
        "````{prf:theorem} Gauss\n:label: thm-g\nSee {ref}`the section <sec-a>`.\n````\n"
        "```{admonition} Why it works\nUse {func}`mlnotes.check.rel_error`.\n```\n"
    )
    assert "secret" not in md and "{" not in md.replace("\\tag{eq-b}", "") and "(sec-a)=" not in md
    assert "**Exercise.**\n\nShow (eq-b) from [hastie2009]." in md
    assert "x = 1\n\\tag{eq-b}$$" in md
    assert "**Theorem** (Gauss)\n\nSee the section." in md
    assert "**Why it works.**\n\nUse `mlnotes.check.rel_error`." in md


def test_student_notebook_reads_as_the_book() -> None:
    """A real chapter's master notebook: the book's numbers, numbered headings, no MyST, no macros
    cell (its macros are expanded, not redefined), no conceptual solution."""
    nb = assignments.master_notebook(ROOT / "notebooks" / "02_logistic_regression.py")
    md = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "\\def" not in md and "math:" not in md and not re.search(r"\{[\w:-]+\}`", md)
    assert "## 2.1 " in md and "\\tag{2.1}" in md and "**Exercise 2.1" in md and "<details>" not in md


def test_book_macros_are_expanded_for_jupyterlab() -> None:
    macros = assignments.book_macros(ROOT)
    assert macros["R"] == r"\mathbb{R}"
    assert assignments.expand_macros(r"$x \in \R^d \Rightarrow \argmin_w$", macros) == (
        r"$x \in \mathbb{R}^d \Rightarrow " + macros["argmin"] + "_w$")


def test_solution_cells_are_wrapped_for_otter() -> None:
    nb = assignments.master_notebook(FIXTURE)
    first = nb.cells[0]
    assert first.cell_type == "raw" and first.source.startswith("# ASSIGNMENT CONFIG")
    sources = [c.source.split("\n")[0] for c in nb.cells if c.cell_type == "raw"]
    assert sources[1:7] == ["# BEGIN QUESTION", "# BEGIN SOLUTION", "# END SOLUTION", "# BEGIN TESTS",
                            "# END TESTS", "# END QUESTION"]


def test_a_tests_cell_becomes_otters_question() -> None:
    """The chapter's one tests cell per question becomes otter's format: the question's config
    before its exercise, then a test cell per case, hidden ones with otter's TEST CONFIG."""
    nb = assignments.master_notebook(FIXTURE)
    begin = next(i for i, c in enumerate(nb.cells) if c.source.startswith("# BEGIN QUESTION"))
    assert yaml.safe_load(nb.cells[begin].source.split("\n", 1)[1]) == {"name": "fixture-hinge-loss", "points": 2}
    assert nb.cells[begin + 1].cell_type == "markdown" and "Exercise" in nb.cells[begin + 1].source
    tests = next(i for i, c in enumerate(nb.cells) if c.source == "# BEGIN TESTS")
    cases = [c.source for c in nb.cells[tests + 1: tests + 4]]
    assert cases[0].startswith("Mt = np.random.default_rng(1)") and nb.cells[tests + 4].source == "# END TESTS"
    assert all(c.startswith('""" # BEGIN TEST CONFIG\nhidden: true\n""" # END TEST CONFIG\n') for c in cases[1:])


@pytest.mark.parametrize("source, problem", [
    ("x = 1\n# TEST\nassert x == 1", "only comments before the first"),
    ("# no case at all", "only comments before the first"),
])
def test_a_malformed_tests_cell_is_refused(tmp_path, source, problem) -> None:
    chapter = tmp_path / "99_bad.py"
    chapter.write_text('# %% [markdown]\n# ```{exercise}\n# Write f.\n# ```\n\n# %%\ndef f():\n    return 1\n\n'
                       '# %% tags=["remove-cell"]\n# QUESTION {name: bad, points: 1}\n' + source + "\n")
    with pytest.raises(ValueError, match=problem):
        assignments.master_notebook(chapter)


def test_tests_without_an_exercise_above_are_refused(tmp_path) -> None:
    chapter = tmp_path / "99_bad.py"
    chapter.write_text('# %%\ndef f():\n    return 1\n\n'
                       '# %% tags=["remove-cell"]\n# QUESTION {name: bad, points: 1}\n# TEST\nassert f() == 1\n')
    with pytest.raises(ValueError, match="no {exercise} above"):
        assignments.master_notebook(chapter)


# -- hidden cases, secrets, withdrawal: the chapter side of issue 25 ----------------------------


def test_no_hidden_case_holds_an_instance() -> None:
    """Every hidden case of every chapter names its property and draws its inputs from the
    secret's generator only (the build refuses anything else: see the next test)."""
    counts = {}
    for chapter in CHAPTERS:
        cases = [c for _, qcases in _chapter_questions(chapter) for c in qcases if c.hidden]
        assert all(c.property and not hidden.literal_instances(c.code) for c in cases), chapter
        counts[chapter.stem] = len(cases)
    assert all(n >= 10 for stem, n in counts.items() if stem != "99_fixture"), counts


_HIDDEN = '# HIDDEN TEST: the loss is non-negative\nrng_h = np.random.default_rng(list(b"development secret"))\n'


@pytest.mark.parametrize("case, problem", [
    (_HIDDEN + "Mt = np.random.default_rng(3).normal(size=5)\nassert True", "a generator or seed of its own"),
    (_HIDDEN + "rng_h = np.random.RandomState(1)\nassert True", "a generator or seed of its own"),
    (_HIDDEN + "Mt = np.array([1.0, -2.0, 0.5])\nassert True", "a literal instance"),
    (_HIDDEN + "Mt = np.linspace(-3.0, 3.0, 61)\nassert True", "a fixed instance"),
    (_HIDDEN + "Mt = np.random.normal(size=4)\nassert True", "a generator or seed of its own"),
    ("# HIDDEN TEST: the loss is non-negative\nMt = np.ones(3)\nassert True", "first line after imports"),
    ("# HIDDEN TEST\nassert True", "names the property"),
])
def test_a_public_hidden_instance_is_refused(tmp_path, case, problem) -> None:
    """A planted literal seed or instance in a hidden case stops the build, naming the case."""
    chapter = tmp_path / "99_bad.py"
    chapter.write_text('# %% [markdown]\n# ```{exercise}\n# Write f.\n# ```\n\n# %%\ndef f():\n    return 1\n\n'
                       '# %% tags=["remove-cell"]\n# QUESTION {name: bad, points: 1}\n# TEST\nassert f() == 1\n\n'
                       + case + "\n")
    with pytest.raises(ValueError, match=problem):
        assignments.master_notebook(chapter)


def test_the_secret_seeds_the_hidden_cases(tmp_path) -> None:
    """The autograder's hidden cases draw from the secret (HMAC per chapter, question and case),
    the development line is gone from them, and the student notebook holds no hidden case."""
    nb = assignments.master_notebook(FIXTURE, secret="teacher's secret")
    hidden_cells = [c.source for c in nb.cells if "# BEGIN TEST CONFIG\nhidden: true" in c.source]
    assert len(hidden_cells) == 4 and not any(hidden.HIDDEN_RNG_LINE in c for c in hidden_cells)
    seeds = {hidden.case_seed("teacher's secret", FIXTURE.stem, q, k)
             for q in ("fixture-hinge-loss", "fixture-rbf-gram") for k in (1, 2)}
    assert {int(re.search(r"default_rng\((0x[0-9a-f]+)\)", c).group(1), 16) for c in hidden_cells} == seeds
    assert hidden.case_seed("another secret", FIXTURE.stem, "fixture-hinge-loss", 1) not in seeds


def test_the_secret_comes_from_the_environment_or_a_file(tmp_path) -> None:
    assert hidden.read_secret(environ={}) == (hidden.DEVELOPMENT_SECRET, True)
    assert hidden.read_secret(environ={hidden.SECRET_ENV: "  s3cret\n"}) == ("s3cret", False)
    path = tmp_path / "secret.txt"
    path.write_text("from a file\n")
    assert hidden.read_secret(path, environ={hidden.SECRET_ENV: "s3cret"}) == ("from a file", False)
    path.write_text("\n")
    with pytest.raises(ValueError, match="empty"):
        hidden.read_secret(path)


def test_a_build_without_a_secret_says_its_hidden_instances_are_public(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setattr(assignments, "build_all", lambda out, chapters, secret: (
        [] if secret == hidden.DEVELOPMENT_SECRET else pytest.fail("not the development secret")))
    monkeypatch.delenv(hidden.SECRET_ENV, raising=False)
    assignments._main(["build", "--out", str(tmp_path), str(FIXTURE)])
    assert "public" in capsys.readouterr().err
    monkeypatch.setenv(hidden.SECRET_ENV, "s3cret")
    monkeypatch.setattr(assignments, "build_all", lambda out, chapters, secret: (
        [] if secret == "s3cret" else pytest.fail("not the teacher's secret")))
    assignments._main(["build", "--out", str(tmp_path), str(FIXTURE)])
    assert "public" not in capsys.readouterr().err


def test_withdraw_entries_take_three_forms() -> None:
    for dotted in ("mlnotes.logistic._newton_direction", "mlnotes.boosting", "scipy.special"):
        assert assignments.check_withdrawal(dotted) == dotted
    for dotted in ("mlnotes.logistic.no_such_function", "mlnotes", "scipy.no_such_module", "a b"):
        with pytest.raises(ValueError, match="withdraw entry"):
            assignments.check_withdrawal(dotted, "q")


def test_prompts_say_what_is_withdrawn() -> None:
    """Every coding exercise's prompt names each thing its question withdraws."""
    import jupytext

    missing = []
    for chapter in assignments.chapters_with_questions(ROOT):
        prompt = ""
        for cell in jupytext.read(chapter).cells:
            if cell.cell_type == "markdown" and "{exercise}" in cell.source:
                prompt = " ".join(cell.source.split())
            config = assignments.question_config(cell)
            for dotted in (config or {}).get("withdraw", []):
                if "While this is graded," not in prompt or f"`{dotted}`" not in prompt:
                    missing.append(f"{chapter.stem} {config['name']}: {dotted}")
    assert not missing, missing


def test_the_student_edition_has_no_solutions() -> None:
    """The student edition's notebook of a chapter: every solution line, conceptual solution and
    hidden case gone; the prose, the answer's def line and the visible tests kept."""
    import jupytext

    from tools.assignments.edition import strip_notebook

    nb = jupytext.read(FIXTURE)
    stripped = strip_notebook(nb)
    text = "\n".join(c.source for c in stripped.cells)
    assert not _solution_lines(FIXTURE) & {line.strip() for line in text.splitlines()}
    assert "{solution}" not in text and "It is the maximum of two affine" not in text
    assert "HIDDEN TEST" not in text and "rng_h" not in text
    assert "def hinge_loss(M):\n    ...\n" in text and "# TEST: 50 margins" in text
    assert "Why is the hinge loss convex?" in text
    answers = [c for c in stripped.cells if "def hinge_loss(M):\n    ...\n" in c.source]
    assert answers and all("hide-input" not in c.metadata.get("tags", []) and "mystnb" not in c.metadata
                           for c in answers)  # the template unfolded, no "Solution" toggle
