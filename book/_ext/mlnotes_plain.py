"""Point the book's Colab button and download menu at the chapters' plain copies.

Colab (like nbviewer, GitHub and VS Code) renders no MyST: opened on the chapter notebook it would
show raw labels, roles and directive fences, and every solution unfolded. ``tools/plain.py``
writes a plain-Markdown copy of each chapter to ``notebooks/plain/``; on each chapter's page this
extension makes the "Launch on Colab" button open that copy and adds it to the download menu,
beside the MyST notebook (for JupyterLab with jupyterlab-myst, as ``make lab`` and Binder run it).
A chapter without a plain copy fails the build: the button would otherwise open the raw one.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from sphinx.errors import ExtensionError


def _plain_copy(app, pagename: str) -> Path | None:
    if not pagename.startswith("notebooks/"):
        return None
    source = Path(app.srcdir) / f"{pagename}.ipynb"
    plain = source.parent / "plain" / source.name
    if not plain.exists():
        raise ExtensionError(f"{pagename}: no plain copy {plain}; run `make plain`")
    return plain


def point_at_plain_copy(app, pagename, templatename, context, doctree) -> None:
    if app.builder.name != "html" or not pagename.startswith("notebooks/"):
        return
    plain = _plain_copy(app, pagename)
    stem = plain.stem
    target = Path(app.outdir) / "_plain" / plain.name
    target.parent.mkdir(exist_ok=True)
    shutil.copyfile(plain, target)
    colab = 0
    for group in context.get("header_buttons", []):
        for button in group.get("buttons", []):
            if group.get("label") == "launch-buttons" and button.get("text") == "Colab":
                url = button["url"].replace(f"/notebooks/{stem}.ipynb", f"/notebooks/plain/{stem}.ipynb")
                colab += url != button["url"]
                button["url"], button["tooltip"] = url, "Launch on Colab (the chapter in plain Markdown)"
        if group.get("label") == "download-buttons":
            for button in group["buttons"]:
                if button.get("text") == ".ipynb":  # the chapter itself, in MyST
                    button["tooltip"] = "Download the notebook (MyST: for JupyterLab with jupyterlab-myst)"
            group["buttons"].insert(1, {
                "type": "link",
                "url": f"{context['pathto']('_plain', 1)}/{plain.name}",
                "text": ".ipynb (plain)",
                "tooltip": "Download the notebook in plain Markdown (Colab, VS Code, Jupyter without MyST)",
                "icon": "fas fa-code",
                "label": "download-plain-notebook-button",
            })
    if colab != 1:
        raise ExtensionError(f"{pagename}: found no Colab button to point at {plain}")


def setup(app):
    # after sphinx-book-theme has made its buttons (priority 501)
    app.connect("html-page-context", point_at_plain_copy, priority=510)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
