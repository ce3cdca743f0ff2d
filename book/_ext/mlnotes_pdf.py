"""Let the single-page HTML builder (the source of the book's PDF) render every node the HTML
builder renders.

Extensions (myst-nb's folded cells, sphinx-jupyterbook-latex's table-of-contents marker) tell
Sphinx how to write their nodes for the builder named ``html`` only; ``singlehtml`` writes the
same HTML but would stop on them. This hands it the ``html`` builder's handlers.
"""


def _share_html_handlers(app):
    if app.builder.name == "singlehtml":
        handlers = app.registry.translation_handlers
        for node, visitors in handlers.get("html", {}).items():
            handlers.setdefault("singlehtml", {}).setdefault(node, visitors)


def setup(app):
    app.connect("builder-inited", _share_html_handlers)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
