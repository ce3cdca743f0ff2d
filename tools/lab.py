"""JupyterLab opens a chapter's ``.py`` without marking it modified.

A chapter script carries only its kernelspec in its header (``jupytext.toml``: the round trip
``.ipynb`` -> ``.py`` stays exact and free of version noise). When its kernel starts, JupyterLab
writes the kernel's ``language_info`` into the notebook's metadata; the notebook read from the
``.py`` has none, so that write is a change and the tab shows the chapter as modified before the
reader has typed anything (issue 27). This contents manager, jupytext's, gives a notebook read
from a ``.py`` the ``language_info`` the course's kernel (ipykernel, this Python) announces, so
the kernel's write changes nothing; saving drops it again (the header keeps only the kernelspec).

``make lab`` and ``tests/test_lab.py`` start JupyterLab with
``--ServerApp.contents_manager_class=tools.lab.LabContentsManager`` (the repository on
``PYTHONPATH``); jupytext's server extension sees a jupytext manager already and leaves it.
"""

from __future__ import annotations

import copy

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager
from jupytext.async_contentsmanager import build_async_jupytext_contents_manager_class

__all__ = ["LabContentsManager", "language_info"]


def language_info() -> dict:
    """What ipykernel's kernel_info reply says of the language, in this Python."""
    from ipykernel.ipkernel import IPythonKernel

    return copy.deepcopy(IPythonKernel.language_info)


class LabContentsManager(build_async_jupytext_contents_manager_class(AsyncLargeFileManager)):
    async def get(self, path, content=True, type=None, format=None, **kwargs):
        model = await super().get(path, content=content, type=type, format=format, **kwargs)
        if content and model.get("type") == "notebook" and str(path).endswith(".py"):
            metadata = model["content"]["metadata"]
            if metadata.get("kernelspec", {}).get("language", "python") == "python":
                metadata.setdefault("language_info", language_info())
        return model
