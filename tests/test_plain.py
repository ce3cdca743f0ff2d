"""The chapters' plain copies (notebooks/plain/, written by tools/plain.py) for Colab, nbviewer,
GitHub and VS Code: current, free of MyST, solutions folded, and numbered as the book is."""

from __future__ import annotations

import html
import re
from pathlib import Path

import nbformat
import pytest

from tools import plain

ROOT = Path(__file__).resolve().parents[1]
STEMS = list(plain.chapter_numbers(ROOT))
HTML = ROOT / "book" / "_build" / "html" / "notebooks"


@pytest.fixture(scope="module")
def targets():
    return plain.references(ROOT)


def _plain(stem: str) -> nbformat.NotebookNode:
    return nbformat.read(plain.PLAIN / f"{stem}.ipynb", as_version=4)


def _markdown(nb) -> str:
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def _source(stem: str) -> str:
    return (ROOT / "notebooks" / f"{stem}.py").read_text()


def test_plain_copies_are_current() -> None:
    assert plain.write_all(check=True, root=ROOT) == [], "run `make plain` (make notebooks does)"


@pytest.mark.parametrize("stem", STEMS)
def test_no_myst_left(stem: str) -> None:
    """What a CommonMark viewer would print raw: roles, directive fences, targets, labelled
    displays, the book's macros, raw cells (Colab shows them as code)."""
    nb = _plain(stem)
    md = _markdown(nb)
    raw = {
        "roles": re.findall(r"\{[\w:-]+\}`[^`]*`", md),
        "directive fences": re.findall(r"^\s*(?:`{3,}|:{3,})\{[\w:.-]+\}.*$", md, flags=re.M),
        "targets": re.findall(r"^\s*\([\w:.-]+\)=\s*$", md, flags=re.M),
        "labelled displays": re.findall(r"\$\$\s*\([\w:.-]+\)\s*$", md, flags=re.M),
        "macros": [m for name in plain.book_macros(ROOT)
                   for m in re.findall(rf"\\{name}(?![A-Za-z])", md)],
        "raw cells": [c.source[:40] for c in nb.cells if c.cell_type == "raw"],
    }
    assert not any(raw.values()), {k: v[:3] for k, v in raw.items() if v}


@pytest.mark.parametrize("stem", STEMS)
def test_numbers_are_the_books(stem: str, targets) -> None:
    """Every labelled display is tagged with its number and every figure captioned with its."""
    md, source = _markdown(_plain(stem)), _source(stem)
    labelled = re.findall(r"^# \$\$\s*\(([\w:.-]+)\)\s*$", source, flags=re.M)
    tags = re.findall(r"\\tag\{([^}]*)\}", md)
    assert tags == [targets[label].number for label in labelled]
    figures = [t.number for t in targets.values() if t.kind == "figure" and t.chapter == stem]
    assert re.findall(r"^\*Fig\. ([\d.]+)\.\*", md, flags=re.M) == figures


@pytest.mark.parametrize("stem", STEMS)
def test_every_display_is_labelled(stem: str) -> None:
    """The book numbers the labelled displays only, jupyterlab-myst every display: with every
    display labelled (eq-... or def-...), the two number alike (tests/test_lab.py compares)."""
    lines, unlabelled, i = _source(stem).split("\n"), [], 0
    while i < len(lines):
        if re.fullmatch(r"# \$\$\s*", lines[i]):  # a display opens; its closing line holds the label
            j = next(k for k in range(i + 1, len(lines)) if lines[k].startswith("# $$"))
            if not re.fullmatch(r"# \$\$\s*\([\w:.-]+\)\s*", lines[j]):
                unlabelled.append(i + 1)
            i = j
        i += 1
    assert not unlabelled, f"displays without a label at lines {unlabelled}: label them, or write them inline"


@pytest.mark.parametrize("stem", STEMS)
def test_solutions_are_folded(stem: str) -> None:
    """Every solution, conceptual or coding, in a closed <details> (Colab, nbviewer, GitHub and
    VS Code render it folded) under "Solution to Exercise n.k"; the tests the book removes are
    gone; the install cell and each figure's plotting code are Colab forms, hidden in JupyterLab
    too, the plotting titled by its figure's number."""
    nb, source = _plain(stem), _source(stem)
    md = _markdown(nb)
    conceptual = len(re.findall(r"^# `{3,}\{solution\}", source, flags=re.M))
    coding = len(re.findall(r'"code_prompt_show": "Solution"', source))
    assert conceptual > 0 and coding > 0
    folded = re.findall(r"<details>\n<summary><b>Solution to Exercise [\d.]+</b></summary>\n\n(.+?)\n\n</details>",
                        md, flags=re.S)
    assert len(folded) == md.count("<details>") == conceptual + coding and all(s.strip() for s in folded)
    code = [s for s in folded if s.startswith("```python\n")]
    assert len(code) == coding and not any("BEGIN SOLUTION" in s for s in code)
    assert not any("remove-cell" in c.metadata.get("tags", []) for c in nb.cells if c.cell_type == "code"
                   and not c.source.startswith("# @title Install"))
    forms = [c for c in nb.cells if c.metadata.get("cellView") == "form"]
    figures = re.findall(r"^\*Fig\. ([\d.]+)\.\*", md, flags=re.M)  # the caption cells, in order
    assert figures and [c.source.split("\n")[0] for c in forms] == [
        "# @title Install the course package if it is missing (Colab, a downloaded notebook)"] + [
        f"# @title Code of Fig. {n}" for n in figures]
    assert all(c.metadata["jupyter"] == {"source_hidden": True} for c in forms)
    assert next(c for c in nb.cells if c.cell_type == "code") is forms[0]  # Colab installs before anything runs


def test_readme_opens_every_chapter_in_colab() -> None:
    """The README's chapter table links each chapter's plain copy on Colab, at the book's repository."""
    import yaml

    repository = yaml.safe_load((ROOT / "book" / "_config.yml").read_text())["repository"]
    colab = repository["url"].rstrip("/").replace("https://github.com/", "https://colab.research.google.com/github/")
    links = re.findall(r"\[Colab\]\(([^)]+)\)", (ROOT / "README.md").read_text())
    assert links == [f"{colab}/blob/{repository['branch']}/notebooks/plain/{stem}.ipynb" for stem in STEMS]


def test_conversion() -> None:
    """The conversion on a small text, with made-up targets and citations."""
    targets = {
        "sec-a": plain.Target("section", "2.3", "The normal equations", "02_x"),
        "eq-b": plain.Target("equation", "2.4", "", "02_x"),
        "ex-a": plain.Target("exercise", "2.1", "", "02_x"),
        "thm-g": plain.Target("theorem", "2.1", "Gauss", "02_x"),
        "fig-c": plain.Target("figure", "2.2", "A figure", "02_x"),
    }
    text = ("(sec-a)=\n## A\n\n```{exercise}\n:label: ex-a\nShow {eq}`eq-b`, as in {numref}`fig-c`, "
            "{cite}`k2,k1`.\n```\n\n```{solution} ex-a\n:class: dropdown\nIt is {prf:ref}`thm-g`.\n```\n\n"
            "$$\nx = 1\n$$ (eq-b)\n\nSee {ref}`sec-a` and {ref}`the section <sec-a>`.")
    md = plain.myst_to_markdown(text, targets, citations={"k1": "Zed, 1999", "k2": "Abel, 2001"},
                                solutions="fold")
    assert md == (
        "## A\n\n**Exercise 2.1.**\n\nShow (2.4), as in Fig. 2.2, [Abel, 2001, Zed, 1999].\n\n"
        "<details>\n<summary><b>Solution to Exercise 2.1</b></summary>\n\nIt is Theorem 2.1.\n\n</details>\n\n"
        "$$\nx = 1\n\\tag{2.4}$$\n\nSee §2.3 *The normal equations* and the section.")
    assert plain.myst_to_markdown("as section {ref}`sec-a` says", targets) == (
        "as section 2.3 (*The normal equations*) says")
    with pytest.raises(KeyError, match="eq-missing"):
        plain.myst_to_markdown("{eq}`eq-missing`", targets)


# -- against the built book (make test builds it before the browser tests) ----------------------


def _book_numbers(page: str, label: str, kind: str) -> str | None:
    """The number the built page prints for ``label``, or None if the page does not have it."""
    patterns = {
        "equation": rf'id="equation-{label}">\s*<span class="eqno">\(([^)<]+)\)',
        "figure": rf'<figure[^>]*id="{label}">.{{0,2000}}?<span class="caption-number">Fig\. ([\d.]+) </span>',
        "section": rf'<span id="{label}"></span><h\d>(?:<span class="section-number">([\d.]+)\. </span>)?',
    }
    pattern = patterns.get(kind, rf'id="{label}"\s*>\s*<p class="admonition-title">'
                                 rf'<span class="caption-number">\w+ ([\d.]+) </span>')
    found = re.search(pattern, page, flags=re.S | re.I)  # Sphinx lower-cases ids
    return None if found is None else (found.group(1) or "")


@pytest.mark.browser
@pytest.mark.parametrize("stem", STEMS)
def test_numbers_match_the_built_book(stem: str, targets) -> None:
    page_file = HTML / f"{stem}.html"
    if not page_file.exists():
        pytest.fail(f"no built book at {page_file}: run make book-check first")
    page = page_file.read_text()
    mine = {label: t for label, t in targets.items() if t.chapter == stem and t.kind != "chapter"}
    assert len(mine) > 10
    wrong = {label: (t.number, _book_numbers(page, label, t.kind)) for label, t in mine.items()
             if _book_numbers(page, label, t.kind) != t.number}
    assert not wrong, f"label: (plain copy, book) {wrong}"
    citations = {html.unescape(re.sub(r"<[^>]+>", "", c))
                 for c in re.findall(r'<span class="bibtex-citation"[^>]*>(.*?)</span>', page, flags=re.S)}
    md = _markdown(_plain(stem))
    assert all(c in md for c in citations), sorted(c for c in citations if c not in md)
