"""The assignments built from the chapters are sound (issue 10).

For every chapter with coding questions (and the fixture chapter tests/fixtures/99_fixture.py),
the assignment is built with ``otter assign`` and, for every question, the tests from its
autograder (visible and hidden cases) are run in-process with otter's own test runner:

1. the reference solution passes every test case;
2. the generated student version, run as it is, fails every test case;
3. no line of a reference solution appears in the student notebook;
4. the deliberately wrong answer of tests/assignments_wrong_answers.py fails at least one case;

and each question has at least one visible and two hidden tests. Where bubblewrap is installed, the
reference and the blank notebook are also graded by the real grader (sandbox, withdrawn library
functions, answers called across processes): full marks and zero. Each question runs in a fresh
namespace holding the notebook's imports and definitions, the other questions' reference answers
and the answer under test; test data are built inside the tests (CONTRIBUTING.md), so the chapter
itself is not executed here (nbval does that). The end-to-end grading of submitted notebooks,
with its time limit, is tested on the fixture chapter.
"""

from __future__ import annotations

import contextlib
import io
import keyword
import re
import runpy
import shutil
import warnings
from pathlib import Path

import nbformat
import pytest
import yaml

from tools import assignments

ROOT = Path(__file__).resolve().parent.parent
WRONG_ANSWERS = runpy.run_path(str(ROOT / "tests" / "assignments_wrong_answers.py"))["WRONG_ANSWERS"]
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


@pytest.mark.parametrize("chapter", CHAPTERS, ids=[c.stem for c in CHAPTERS])
def test_assignment_is_sound(chapter: Path, tmp_path: Path) -> None:
    built = assignments.build_assignment(chapter, tmp_path / "dist")
    qs = assignments.questions(built, tmp_path / "autograder")
    student_nb = nbformat.read(built / "student" / f"{chapter.stem}.ipynb", as_version=4)
    context = assignments.context_source(student_nb)
    assert qs, f"{chapter.name}: no question was built"
    wrong_answers, problems = WRONG_ANSWERS.get(chapter.stem, {}), []
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
        if q.name not in wrong_answers:
            problems.append(f"{q.name}: no wrong answer in tests/assignments_wrong_answers.py")
        elif all(p for _, p in _case_results(q, _namespace(context, qs, q, wrong_answers[q.name]))):
            problems.append(f"{q.name}: its wrong answer in assignments_wrong_answers.py passes every test")
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
    if shutil.which("bwrap"):  # the same through the real grader: sandbox, withdrawn functions, data only
        subs = tmp_path / "submissions"
        subs.mkdir()
        nbformat.write(nbformat.read(built / "autograder" / f"{chapter.stem}.ipynb", as_version=4),
                       subs / "reference.ipynb")
        nbformat.write(student_nb, subs / "blank.ipynb")
        rows = {r["submission"]: r for r in assignments.grade_folder(
            built / "autograder" / "autograder.zip", subs, tmp_path / "scores.csv", jobs=1, timeout=120)}
        if rows["reference.ipynb"]["total"] != rows["reference.ipynb"]["possible"]:
            problems.append(f"the grader gives the reference {rows['reference.ipynb']}; feedback:\n"
                            + (tmp_path / "feedback" / "reference.md").read_text())
        if rows["blank.ipynb"]["total"] != 0:
            problems.append(f"the grader gives the blank notebook {rows['blank.ipynb']['total']} points")
    assert not problems, f"{chapter.name}:\n  " + "\n  ".join(problems)


def test_every_chapter_has_five_coding_questions() -> None:
    """CONTRIBUTING.md, "Exercises": at least five autograded coding questions per chapter."""
    counts = {p.stem: len(assignments.withdrawals(p)) for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))}
    assert all(n >= 5 for n in counts.values()), counts


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
