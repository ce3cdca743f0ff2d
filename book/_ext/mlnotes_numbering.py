"""Chapters numbered from 0: the preliminaries (``notebooks/00_notation``) are Chapter 0.

Sphinx numbers the chapters of a ``numbered`` toctree from 1 and has no option to start
elsewhere. The book's chapters are files ``NN_*`` with NN from 00, and the text cites
"Chapter 0", so once Sphinx has assigned the section and figure numbers (``env-get-updated``)
every number of a numbered chapter is shifted down by one: headings and the sidebar ("0.
Notation and matrix calculus"), the contents, equations "(0.6)", exercises "Exercise 0.3",
figures and every reference to them. ``tools/plain.py`` (``chapter_numbers``) numbers the plain
copies the same way.
"""

from __future__ import annotations

from docutils import nodes

FIRST = 0  # the number of the first chapter of the numbered part (Sphinx would give it 1)
SHIFT = 1 - FIRST


def _down(number):
    if not number:
        return number
    shifted = [number[0] - SHIFT, *number[1:]]
    return tuple(shifted) if isinstance(number, tuple) else shifted


def renumber(app, env) -> list[str]:
    if not SHIFT:
        return []
    numbered = [doc for doc, secnums in env.toc_secnumbers.items() if any(secnums.values())]
    for doc in numbered:
        env.toc_secnumbers[doc] = {k: _down(v) for k, v in env.toc_secnumbers[doc].items()}
        for reference in env.tocs[doc].findall(nodes.reference):
            if reference.get("secnumber"):
                reference["secnumber"] = _down(reference["secnumber"])
        title = env.titles.get(doc)
        if title is not None and title.get("secnumber"):
            title["secnumber"] = _down(title["secnumber"])
        for figtype, numbers in env.toc_fignumbers.get(doc, {}).items():
            env.toc_fignumbers[doc][figtype] = {
                k: _down(v) if len(v) > 1 else v for k, v in numbers.items()}
    return numbered


def setup(app):
    # after Sphinx's own toctree collector (priority 500) has assigned the numbers
    app.connect("env-get-updated", renumber, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
