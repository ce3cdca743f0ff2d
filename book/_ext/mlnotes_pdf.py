"""Let the single-page HTML builder (the source of the book's PDF) render every node the HTML
builder renders, and hand book/pdf.py the book's index.

Extensions (myst-nb's folded cells, sphinx-jupyterbook-latex's table-of-contents marker) tell
Sphinx how to write their nodes for the builder named ``html`` only; ``singlehtml`` writes the
same HTML but would stop on them. This hands it the ``html`` builder's handlers.

The single-page build writes no ``genindex.html``; the PDF prints the same index with page
numbers. ``pdf_index.json`` beside the page holds Sphinx's own index (the one the HTML book's
``genindex.html`` shows: the main terms and the library's functions), each link reduced to the
id of its target in the single page: ``[[letter, [[term, [ids], [[subterm, [ids]], ...]], ...]]``.
"""

from __future__ import annotations

import json
from pathlib import Path


def _share_html_handlers(app):
    if app.builder.name == "singlehtml":
        handlers = app.registry.translation_handlers
        for node, visitors in handlers.get("html", {}).items():
            handlers.setdefault("singlehtml", {}).setdefault(node, visitors)


def _ids(links) -> list[str]:
    return [uri.rsplit("#", 1)[1] for _main, uri in links if uri and "#" in uri]


def _write_index(app, exception):
    if exception is not None or app.builder.name != "singlehtml":
        return
    from sphinx.environment.adapters.indexentries import IndexEntries

    index = [
        [letter, [[term, _ids(links), [[sub, _ids(sublinks)] for sub, sublinks in subitems]]
                  for term, (links, subitems, _key) in entries]]
        for letter, entries in IndexEntries(app.env).create_index(app.builder)
    ]
    Path(app.outdir, "pdf_index.json").write_text(json.dumps(index, indent=1))


def setup(app):
    app.connect("builder-inited", _share_html_handlers)
    app.connect("build-finished", _write_index)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
