"""The chapters as plain notebooks, for the viewers that do not read MyST.

The chapters are written in MyST Markdown: the book and JupyterLab (with jupyterlab-myst) render
it. Colab, nbviewer, GitHub and VS Code render CommonMark with maths and HTML only, so there a
chapter would show its labels ``(sec-x)=``, roles ``{eq}`eq-x` `` and directive fences raw, and
its exercise solutions in plain view. This module writes, from each committed chapter notebook
``notebooks/NN_slug.ipynb`` (inputs and outputs), a plain copy ``notebooks/plain/NN_slug.ipynb``
that reads as the book does:

- every reference carries the number the book prints: equations ``(1.4)`` (displays get
  ``\\tag{1.4}``), ``Fig. 1.2``, ``Exercise 1.3``, ``Theorem 5.1``, sections ``§1.2`` (headings
  are numbered), other chapters by title; citations are author-year, ``[Hastie et al., 2009]``;
- directives become paragraphs with a bold title (``**Exercise 1.3** (title)``); solutions are
  folded in an HTML ``<details>`` block that every one of those viewers renders closed;
- the book's maths macros (``\\R``, ``\\argmin``, ...) are expanded: no viewer has to know them;
- the coding exercises' solutions are folded the same way, as code in a ``<details>`` block
  (a code cell cannot be folded in nbviewer or on GitHub); their tests, which the book removes,
  are left out;
- the install cell and the plotting code the book folds are Colab forms (``# @title``,
  ``cellView: form``: Colab shows the title and the figure, not the code), folded there and,
  through ``jupyter.source_hidden``, in JupyterLab and VS Code;
- each figure is followed by its number and caption.

The book's Colab button and its download menu point at these copies (``book/_ext/mlnotes_plain.py``).
The numbers are computed here from the sources; ``tests/test_plain.py`` checks them against the
numbers of the built book, and that the committed copies are current::

    python -m tools.plain            # write notebooks/plain/ (make plain; make notebooks runs it)
    python -m tools.plain --check    # exit 1 if a copy is stale

The assignment pipeline (``tools/assignments``) uses the same conversion for the student
notebooks, with the conceptual solutions removed instead of folded.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
PLAIN = NOTEBOOKS / "plain"

__all__ = ["Target", "book_macros", "chapter_numbers", "chapter_renderer", "expand_macros", "myst_to_markdown",
           "plain_notebook", "references", "write_all"]

# -- MyST syntax ---------------------------------------------------------------------------------

_FENCE_OPEN = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|:{3,})\{(?P<name>[\w:.-]+)\}\s*(?P<args>.*)$")
_CODE_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_OPTION = re.compile(r"^\s*:(?P<key>[\w-]+):\s*(?P<value>.*)$")
_TARGET = re.compile(r"^\s*\((?P<label>[\w:.-]+)\)=\s*$")
_HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<title>.*?)\s*$")
_EQ_LABEL = re.compile(r"\$\$\s*\((?P<label>[\w:.-]+)\)\s*$")
_ROLE = re.compile(r"(?P<section>\b[Ss]ection\s+)?\{(?P<role>[\w:-]+)\}`(?P<text>[^`]*)`")
_ROLE_WITH_TITLE = re.compile(r"^(?P<title>.*?)\s*<(?P<target>[^>]+)>$")

# sphinx-proof's directives, each numbered on its own counter as the book numbers them (a proof is not)
_PROOF_KINDS = ("theorem", "lemma", "proposition", "corollary", "definition", "example", "remark")


class _Verbatim(str):
    """A line inside an ordinary code fence: no heading, label or role in it."""


@dataclass(frozen=True)
class Directive:
    name: str
    args: str
    options: dict
    body: list[str]


def _blocks(lines: list[str]):
    """The lines of MyST text, with each directive's fence folded into one :class:`Directive`.

    Lines of an ordinary code fence are passed through untouched (no heading or label in them).
    """
    i, code_fence = 0, None
    while i < len(lines):
        line = lines[i]
        if code_fence:
            if line.strip().startswith(code_fence) and not line.strip().strip(code_fence[0]):
                code_fence = None
            yield _Verbatim(line)
            i += 1
            continue
        opened = _FENCE_OPEN.match(line)
        if not opened:
            plain_fence = _CODE_FENCE.match(line)
            if plain_fence:
                code_fence = plain_fence.group(1)
                line = _Verbatim(line)
            yield line
            i += 1
            continue
        fence = opened["fence"]
        close = re.compile(rf"^\s*{re.escape(fence[0])}{{{len(fence)},}}\s*$")
        j = i + 1
        while j < len(lines) and not close.match(lines[j]):
            j += 1
        body, options = lines[i + 1 : j], {}
        while body and _OPTION.match(body[0]):
            option = _OPTION.match(body.pop(0))
            options[option["key"]] = option["value"].strip()
        yield Directive(opened["name"], opened["args"].strip(), options, body)
        i = j + 1


# -- what each label is, and its number in the book --------------------------------------------


@dataclass(frozen=True)
class Target:
    """What a label names: ``kind`` (section, equation, figure, exercise, theorem, ..., chapter),
    the number the book prints (``""`` where the book prints none) and the title, if any."""

    kind: str
    number: str
    title: str
    chapter: str  # the chapter's file stem


def chapter_numbers(root: Path = ROOT) -> dict[str, int | None]:
    """Chapter file stem -> its number in the book: the chapters of a ``numbered`` part of
    ``book/_toc.yml`` count from 0 (the preliminaries are Chapter 0; the book's extension
    ``book/_ext/mlnotes_numbering.py`` numbers them so); a chapter of another part has none."""
    toc, numbers, n = yaml.safe_load((root / "book" / "_toc.yml").read_text()), {}, -1
    for part in toc["parts"]:
        for chapter in part["chapters"]:
            if chapter["file"].startswith("notebooks/"):
                stem = chapter["file"].split("/")[-1]
                numbers[stem] = (n := n + 1) if part.get("numbered") else None
    return numbers


def _shown(cell) -> bool:
    return "remove-cell" not in cell.metadata.get("tags", [])


def _chapter_targets(nb, stem: str, number: int | None) -> tuple[dict[str, Target], list[str]]:
    """Every label of one chapter, numbered in document order as Sphinx numbers them, and the
    number of each heading in turn (``""`` for the chapter title and where the book prints none)."""
    prefix = f"{number}." if number is not None else ""
    counts: Counter = Counter()
    sections: list[int] = []
    targets: dict[str, Target] = {}
    pending: list[str] = []  # (label)= lines waiting for the heading they name
    headings: list[str] = []

    def count(kind: str) -> str:
        counts[kind] += 1
        return f"{prefix}{counts[kind]}"

    def scan(lines: list[str]) -> None:
        for block in _blocks(lines):
            if isinstance(block, Directive):
                kind = block.name.split(":")[-1]
                if block.name == "exercise" or (block.name.startswith("prf:") and kind in _PROOF_KINDS):
                    numbered = count(kind)
                    if "label" in block.options:
                        targets[block.options["label"]] = Target(kind, numbered, block.args, stem)
                if block.name == "math" and "label" in block.options:
                    targets[block.options["label"]] = Target("equation", count("equation"), "", stem)
                scan(block.body)
                continue
            if isinstance(block, _Verbatim):
                continue
            if _TARGET.match(block):
                pending.append(_TARGET.match(block)["label"])
            elif heading := _HEADING.match(block):
                depth = len(heading["hashes"])
                if depth == 1:
                    kind, numbered = "chapter", "" if number is None else str(number)
                    targets[stem] = Target("chapter", numbered, heading["title"], stem)
                else:
                    del sections[depth - 1 :]
                    sections.extend([0] * (depth - 1 - len(sections)))
                    sections[-1] += 1
                    kind = "section"
                    numbered = "" if number is None else ".".join(map(str, [number, *sections]))
                for label in pending:
                    targets[label] = Target(kind, numbered, heading["title"], stem)
                pending.clear()
                headings.append(numbered if kind == "section" else "")
            elif eq := _EQ_LABEL.search(block):
                targets[eq["label"]] = Target("equation", count("equation"), "", stem)

    for cell in nb.cells:
        if not _shown(cell):
            continue
        if cell.cell_type == "markdown":
            scan(cell.source.split("\n"))
        figure = cell.metadata.get("mystnb", {}).get("figure", {})
        if cell.cell_type == "code" and "name" in figure:
            targets[figure["name"]] = Target("figure", count("figure"), figure.get("caption", ""), stem)
    return targets, headings


def references(root: Path = ROOT) -> dict[str, Target]:
    """The labels of every chapter (references cross chapters), each with its book number."""
    targets: dict[str, Target] = {}
    for stem, number in chapter_numbers(root).items():
        nb = nbformat.read(root / "notebooks" / f"{stem}.ipynb", as_version=4)
        targets.update(_chapter_targets(nb, stem, number)[0])
    return targets


# -- citations, as the book's bibliography style labels them -----------------------------------


def _citation_labels(root: Path = ROOT) -> dict[str, str]:
    """Bib key -> "Hastie et al., 2009", from ``book/references.bib`` with the book's own style."""
    from pybtex.database import parse_file

    sys.path.insert(0, str(root / "book" / "_ext"))
    try:
        from mlnotes_bib import _who
    finally:
        sys.path.pop(0)
    entries = parse_file(str(root / "book" / "references.bib")).entries
    return {key: f"{_who(entry)}, {entry.fields.get('year', 'n.d.')}" for key, entry in entries.items()}


# -- MyST to Markdown ----------------------------------------------------------------------------


class _Renderer:
    """MyST text -> Markdown, with references resolved through ``targets`` (see :func:`myst_to_markdown`)."""

    def __init__(self, targets: dict[str, Target] | None, citations: dict[str, str] | None,
                 solutions: str, chapter: str | None, headings: list[str] | None = None):
        self.targets, self.citations, self.solutions, self.chapter = targets, citations, solutions, chapter
        self.headings = list(headings) if headings is not None else None  # consumed in document order
        self.last_exercise: Target | None = None  # the exercise a coding solution below answers

    def target(self, label: str) -> Target | None:
        if self.targets is None:
            return None
        if label not in self.targets:
            raise KeyError(f"{self.chapter}: no chapter defines the label {label!r}")
        return self.targets[label]

    def role(self, match: re.Match) -> str:
        """A role as text; "section {ref}`sec-x`" reads "section 2.3 (*title*)", not "section §2.3"."""
        said = match["section"] or ""
        text = self._role(match)
        numbered = re.fullmatch(r"§([\d.]+) (\*.*\*)", text)
        return f"{said}{numbered[1]} ({numbered[2]})" if said and numbered else said + text

    def _role(self, match: re.Match) -> str:
        role, text = match["role"], match["text"]
        titled = _ROLE_WITH_TITLE.match(text)
        if titled and role != "numref":  # {ref}`the normal equations <sec-normal-equations>`
            return titled["title"]
        if role == "math":
            return f"${text}$"
        if role in ("func", "class", "meth", "mod", "attr", "data") or role.startswith("py:"):
            return f"`{text.lstrip('~')}`"
        if role.startswith("cite"):
            keys = [k.strip() for k in text.split(",")]
            if self.citations is None:
                return f"[{', '.join(keys)}]"
            return "[" + ", ".join(sorted(self.citations[k] for k in keys)) + "]"
        if role == "doc":
            stem = text.rstrip("/").split("/")[-1]
            found = self.targets.get(stem) if self.targets is not None else None
            if found is None:
                return f"*{stem}*"
            return f"*{found.title}*" + (f" (Chapter {found.number})" if found.number else "")
        label = titled["target"] if titled else text
        found = self.target(label)
        if found is None:  # no numbers known: the label is the best plain name there is
            return f"({text})" if role in ("eq", "numref") else f"*{text}*"
        if role == "eq":
            return f"({found.number})"
        if role == "numref":
            name = f"Fig. {found.number}"
            return titled["title"].replace("%s", found.number) if titled else name
        return self.name(found)

    def name(self, found: Target) -> str:
        """How a {ref} or {prf:ref} reads: "Exercise 4.3", "Theorem 5.1", "§2.3 *title*"."""
        if found.kind in ("section", "chapter"):
            where = f"§{found.number} " if found.kind == "section" and found.number else ""
            if found.kind == "chapter" and found.number:
                where = f"Chapter {found.number}, "
            return f"{where}*{found.title}*"
        if found.kind == "figure":
            return f"Fig. {found.number}"
        return " ".join(part for part in (found.kind.capitalize(), found.number) if part)

    def heading(self, line: str) -> str:
        """The heading with the number the book gives it, when the chapter's numbers are known."""
        heading = _HEADING.match(line)
        number = self.headings.pop(0) if self.headings else ""
        return f"{heading['hashes']} {number} {heading['title']}" if number else line

    def render(self, text: str) -> str:
        out: list[str] = []
        for block in _blocks(text.split("\n")):
            if isinstance(block, Directive):
                out += self.directive(block)
            elif isinstance(block, _Verbatim):
                out.append(block)
            elif _HEADING.match(block):
                out.append(self.heading(block))
            elif not _TARGET.match(block):
                out.append(block)
        md = "\n".join(out)
        md = "\n".join(_EQ_LABEL.sub(self.tag, line) for line in md.split("\n"))
        return _ROLE.sub(self.role, md)

    def tag(self, match: re.Match) -> str:
        found = self.target(match["label"])
        return f"\\tag{{{found.number if found else match['label']}}}$$"

    def directive(self, block: Directive) -> list[str]:
        body = self.render("\n".join(block.body)).strip("\n")
        name, kind = block.name, block.name.split(":")[-1]
        if name == "math":
            label = block.options.get("label")
            found = self.target(label) if label else None
            tag = f"\\tag{{{found.number if found else label}}}" if label else ""
            return ["$$", body + tag, "$$"]
        if name == "solution":
            if self.solutions == "drop":
                return []
            of = self.target(block.args) if block.args else None
            summary = f"Solution to {self.name(of)}" if of else "Solution"
            return ["<details>", f"<summary><b>{summary}</b></summary>", "", body, "", "</details>"]
        found = self.target(block.options["label"]) if "label" in block.options else None
        if name == "exercise":
            self.last_exercise = found
        if name == "admonition":  # its argument is the whole title
            title = f"**{block.args or 'Note'}.**"
        elif name == "exercise" or kind in _PROOF_KINDS:
            number = f" {found.number}" if found and found.number else ""
            title = (f"**{kind.capitalize()}{number}** ({self.render(block.args)})" if block.args
                     else f"**{kind.capitalize()}{number}.**")
        else:  # note, warning, prf:proof, ...
            title = f"**{kind.replace('-', ' ').capitalize()}.**" + (f" ({block.args})" if block.args else "")
        if name == "prf:proof" and body:
            body += " $\\square$"
        return [title, "", body] if body else [title]


def myst_to_markdown(text: str, targets: dict[str, Target] | None = None, *,
                     citations: dict[str, str] | None = None, solutions: str = "drop",
                     chapter: str | None = None) -> str:
    """Rewrite MyST markup as plain Markdown.

    Directives become a bold title followed by their body (options such as ``:label:`` are
    dropped), ``{math}`` becomes a ``$$`` display, ``(label)=`` targets disappear and roles become
    text. With ``targets`` (from :func:`references`) and ``citations``, references print the
    book's numbers and citations their author-year labels; without, the labels themselves.
    ``solutions`` is ``"drop"`` (the student notebooks) or ``"fold"`` (an HTML ``<details>``).
    """
    return _Renderer(targets, citations, solutions, chapter).render(text)


def chapter_renderer(nb, stem: str, solutions: str, targets: dict[str, Target] | None = None,
                     citations: dict[str, str] | None = None, root: Path = ROOT):
    """A function MyST text -> Markdown for the cells of chapter ``stem`` (notebook ``nb``), in
    order: references with the book's numbers (every chapter's labels, and this chapter's own,
    so a chapter outside the book's table of contents works too), headings numbered as the
    book numbers them, citations author-year, solutions ``"fold"``-ed or ``"drop"``-ped."""
    own, headings = _chapter_targets(nb, stem, chapter_numbers(root).get(stem))
    targets = {**(references(root) if targets is None else targets), **own}
    citations = _citation_labels(root) if citations is None else citations
    return _Renderer(targets, citations, solutions, stem, headings)


def book_macros(root: Path = ROOT) -> dict[str, str]:
    """The MathJax macros without arguments that the book defines (``book/_config.yml``)."""
    config = yaml.safe_load((root / "book" / "_config.yml").read_text())
    tex = config.get("sphinx", {}).get("config", {}).get("mathjax3_config", {}).get("tex", {})
    return {name: value for name, value in tex.get("macros", {}).items() if isinstance(value, str)}


def expand_macros(text: str, macros: dict[str, str]) -> str:
    """Replace ``\\name`` by its definition for each macro (not ``\\Rightarrow`` for ``\\R``)."""
    for name, value in macros.items():
        text = re.sub(rf"\\{name}(?![A-Za-z])", lambda _, v=value: v, text)
    return text


# -- the plain notebook --------------------------------------------------------------------------


def _is_solution(cell) -> bool:
    """A coding exercise's solution, a code cell the book folds under "Solution"."""
    return cell.cell_type == "code" and cell.metadata.get("mystnb", {}).get("code_prompt_show") == "Solution"


def is_install_cell(cell) -> bool:
    """The cell that installs the course where it is missing (written by book/preamble.py)."""
    return cell.cell_type == "code" and cell.source.startswith("# Install the course package")


def _is_removed(cell) -> bool:
    """What the book removes (``remove-cell``) and this copy leaves out too: the macros cell (the
    macros are expanded here) and the exercises' tests. Not the install cell: Colab needs it."""
    return "remove-cell" in cell.metadata.get("tags", []) and not is_install_cell(cell)


def _form(cell, title: str | None = None) -> None:
    """Fold a code cell in Colab, which ignores ``jupyter.source_hidden``, as a form (Colab shows
    the title, "Show code" and the outputs), and in JupyterLab and VS Code. Titled ``title``, or
    by default by its first line, a comment."""
    source = cell.source
    if title is None:
        first, _, source = cell.source.partition("\n")
        title = first.removeprefix("# ")
    cell.source = f"# @title {title}\n{source}"
    cell.metadata["cellView"] = "form"
    cell.metadata["jupyter"] = {"source_hidden": True}


def _folded_code(cell, exercise: Target | None):
    """A coding exercise's solution as the book shows it, folded under "Solution": a markdown
    cell with the code in a closed ``<details>`` (a code cell cannot be folded in nbviewer or on
    GitHub). Without its tests, which the book removes too, nothing later needs it to run."""
    code = "\n".join(line for line in cell.source.split("\n")
                     if not re.fullmatch(r"\s*# (BEGIN|END) SOLUTION\s*", line))  # otter's markers
    summary = f"Solution to Exercise {exercise.number}" if exercise else "Solution"
    markdown = nbformat.v4.new_markdown_cell(
        f"<details>\n<summary><b>{summary}</b></summary>\n\n```python\n{code.strip()}\n```\n\n</details>")
    markdown.id = cell.id
    return markdown


def _header(stem: str, found: Target, repository: str) -> str:
    chapter = f"Chapter {found.number}" if found.number else "Preliminaries"
    return (
        f"*mlnotes · {chapter}.* This is the chapter as plain Markdown, for Colab, nbviewer, GitHub "
        f"and VS Code: equations, figures and exercises carry the book's numbers, and each "
        f"solution is folded under **Solution**. It is generated from "
        f"[`notebooks/{stem}.ipynb`]({repository}/blob/main/notebooks/{stem}.ipynb) by "
        f"`tools/plain.py`; edit the chapter's `.py` source, not this file. The first code cell "
        f"installs the course package where it is missing."
    )


def plain_notebook(stem: str, targets: dict[str, Target], citations: dict[str, str],
                   root: Path = ROOT) -> nbformat.NotebookNode:
    """The plain copy of ``notebooks/<stem>.ipynb`` (see the module docstring)."""
    nb = nbformat.read(root / "notebooks" / f"{stem}.ipynb", as_version=4)
    macros = book_macros(root)
    repository = yaml.safe_load((root / "book" / "_config.yml").read_text())["repository"]["url"]
    render = chapter_renderer(nb, stem, "fold", targets, citations, root)
    header = nbformat.v4.new_markdown_cell(_header(stem, targets[stem], repository.rstrip("/")))
    header.id = "plain-header"
    cells = [header]
    for cell in nb.cells:
        if _is_removed(cell):
            continue
        caption = _caption_cell(cell, render, macros)
        if cell.cell_type == "markdown":
            cell.source = expand_macros(render.render(cell.source), macros)
        elif is_install_cell(cell):
            _form(cell)
        elif _is_solution(cell):
            cell = _folded_code(cell, render.last_exercise)
        elif "hide-input" in cell.metadata.get("tags", []):  # a figure's plotting code, which the book folds
            figure = cell.metadata.get("mystnb", {}).get("figure", {})
            _form(cell, f"Code of Fig. {render.target(figure['name']).number}" if "name" in figure else "Code")
        cell.metadata.pop("mystnb", None)
        cells += [cell, caption] if caption else [cell]
    nb.cells = cells
    nb.metadata.pop("jupytext", None)
    nb.metadata["colab"] = {"provenance": [], "toc_visible": True}
    return nb


def _caption_cell(cell, render: _Renderer, macros: dict[str, str]):
    """A markdown cell with the number and caption of the figure a code cell draws, or None."""
    figure = cell.metadata.get("mystnb", {}).get("figure", {}) if cell.cell_type == "code" else {}
    if "name" not in figure:
        return None
    found = render.target(figure["name"])
    caption = render.render(figure.get("caption", ""))
    markdown = nbformat.v4.new_markdown_cell(expand_macros(f"*Fig. {found.number}.* {caption}", macros))
    markdown.id = f"plain-{figure['name']}"[:64]
    return markdown


def write_all(check: bool = False, root: Path = ROOT) -> list[str]:
    """Write (or with ``check``, compare) every chapter's plain copy; return the stale ones."""
    targets, citations, stale = references(root), _citation_labels(root), []
    (root / "notebooks" / "plain").mkdir(exist_ok=True)
    for stem in chapter_numbers(root):
        text = nbformat.writes(plain_notebook(stem, targets, citations, root)) + "\n"
        path = root / "notebooks" / "plain" / f"{stem}.ipynb"
        if not path.exists() or path.read_text() != text:
            stale.append(str(path.relative_to(root)))
            if not check:
                path.write_text(text)
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.plain", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a plain copy is stale")
    check = parser.parse_args(argv).check
    stale = write_all(check=check)
    if stale:
        print(("stale, run `make plain`: " if check else "wrote ") + " ".join(stale))
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
