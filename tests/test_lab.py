"""Every chapter in JupyterLab, as a student runs it (``make lab``): a real browser opens the
chapter's ``.py`` through jupytext, runs all its cells, and the page must show what the book
shows.

JupyterLab starts headless on a free loopback port with a token, in a temporary folder holding
copies of the chapters (autosave never touches the repository, and no paired ``.ipynb`` brings
old outputs), with its own settings and workspace folders. Headless Chromium (the DevTools
client of ``test_browser.py``, every address but 127.0.0.1 closed) opens each chapter and runs
all cells. The DOM must then show every code cell executed with no error output, the maths
typeset (jupyterlab-myst) with no TeX error and the book's numbered equations, no raw MyST
syntax in the text, the exercises as blocks and every conceptual solution folded. The server is
stopped after. Part of ``make browser`` (so of ``make test``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest
from test_browser import Browser

from tools import plain

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))

# What `make lab` sets (a .py opens as a notebook through jupytext), plus what a test needs:
# every cell kept in the DOM (JupyterLab otherwise renders only the cells in view), no news.
SETTINGS = {
    "@jupyterlab/docmanager-extension/plugin": {"defaultViewers": {"python": "Jupytext Notebook"}},
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
}

# MyST syntax that must not survive as text once jupyterlab-myst has rendered a chapter.
RAW_MYST = ["{eq}`", "{ref}`", "{doc}`", "{numref}`", "{cite}`", "```{", ":label:", ":class:"]

PROBE = """JSON.stringify((root => {
  const prompts = [...root.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(e => e.textContent.trim());
  const text = [...root.querySelectorAll('.jp-MarkdownCell')].map(e => e.innerText).join('\\n');
  return {
    prompts,
    errors: root.querySelectorAll('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"]').length
      + [...root.querySelectorAll('[data-mime-type="application/vnd.jupyter.stderr"]')]
          .filter(e => e.innerText.includes('Traceback')).length,
    math: root.querySelectorAll('.katex, mjx-container').length,
    math_errors: root.querySelectorAll('.katex-error, mjx-merror').length,
    // the numbers jupyterlab-myst prints: each equation's "(2.1)", each exercise's title, each
    // section's number (the innermost unselectable span: the number, not the text around it)
    equations: [...root.querySelectorAll('.jp-MarkdownCell .select-none')]
      .filter(e => !e.querySelector('.select-none')).map(e => e.textContent.trim())
      .filter(t => /^\\([\\d.]+\\)$/.test(t)).map(t => t.slice(1, -1)),
    exercise_titles: [...root.querySelectorAll('aside.myst-exercise')].map(e => e.innerText.split('\\n')[0].trim()),
    headings: [...root.querySelectorAll('.jp-MarkdownCell h2, .jp-MarkdownCell h3')]
      .map(e => e.querySelector('span.mr-3.select-none')?.textContent.trim() ?? ''),
    raw: RAW.filter(t => text.includes(t)),
    // each figure's number, from its caption ("Figure 5.1: ..."), and what each {numref} to one reads
    figures: [...root.querySelectorAll('.jp-MarkdownCell figcaption')]
      .map(e => e.innerText.match(/^Figure\\s+([\\d.]+):/)?.[1] ?? e.innerText.slice(0, 40)),
    figure_refs: [...root.querySelectorAll('.jp-MarkdownCell a')].filter(e => !e.closest('figcaption'))
      .map(e => e.innerText.trim())
      .filter(t => /^(Fig|fig-)/.test(t)),
    // the first cell (the macros, book/preamble.py) shows the reader nothing of its maintenance
    first_cell: root.querySelector('.jp-MarkdownCell')?.innerText ?? '',
    exercises: root.querySelectorAll('aside.myst-exercise').length,
    solutions: root.querySelectorAll('.jp-MarkdownCell details').length,
    open_solutions: root.querySelectorAll('.jp-MarkdownCell details[open]').length,
    folded_inputs: root.querySelectorAll('.jp-Cell .jp-InputPlaceholder').length,
    visible_solutions: [...root.querySelectorAll('.jp-CodeCell')]
      .filter(c => !c.querySelector('.jp-InputPlaceholder') && c.innerText.includes('# BEGIN SOLUTION')).length,
  };
})(NOTEBOOK.node))"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab():
    """A JupyterLab server on copies of the chapters: yields the URL of a chapter's .py."""
    tmp = Path(tempfile.mkdtemp(prefix="mlnotes-lab-"))
    root = tmp / "notebooks"
    root.mkdir()
    for py in CHAPTERS:
        shutil.copy(py, root / py.name)
    for name, values in SETTINGS.items():
        path = tmp / "settings" / f"{name}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(tmp / "settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"), JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    with open(tmp / "server.log", "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", "--ip=127.0.0.1",
             f"--port={port}", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
             "--LabApp.expose_app_in_browser=True", "--LabApp.news_url=None",
             "--ServerApp.contents_manager_class=tools.lab.LabContentsManager"],  # as make lab
            env=env, stdout=log, stderr=subprocess.STDOUT, cwd=root,
        )
    try:
        deadline = time.time() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if proc.poll() is not None or time.time() > deadline:
                    pytest.fail(f"JupyterLab did not start: {(tmp / 'server.log').read_text()[-2000:]}")
                time.sleep(0.3)
        server = f"http://127.0.0.1:{port}"

        def chapter_url(py: Path) -> str:
            # One chapter at a time: the sessions (and kernels) of the chapters before are shut
            # down and the workspace reset, so a busy machine does not reopen every earlier one.
            for s in json.loads(urllib.request.urlopen(f"{server}/api/sessions?token={token}", timeout=30).read()):
                urllib.request.urlopen(urllib.request.Request(
                    f"{server}/api/sessions/{s['id']}?token={token}", method="DELETE"), timeout=30)
            return f"{server}/lab/tree/{py.name}?reset&token={token}"

        yield chapter_url
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    b = Browser(loopback=True)
    # JupyterLab's first load of a chapter can hold the page's main thread for tens of seconds
    # on a loaded two-core machine: give each DevTools call more than the default 30 s
    b.ws.settimeout(180)
    yield b
    b.close()


def _wait(browser, expr, timeout, what):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if browser.evaluate(expr):
            return
        time.sleep(0.5)
    state = browser.evaluate("JSON.stringify({title: document.title, widgets: [...window.jupyterapp.shell"
                             ".widgets('main')].map(w => w.title.label), dialog: "
                             "document.querySelector('.jp-Dialog')?.innerText ?? null})")
    pytest.fail(f"JupyterLab: {what} within {timeout} s ({state})")


@pytest.mark.parametrize("py", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_chapter_runs_and_renders_in_jupyterlab(lab, browser, py):
    notebook = f"[...window.jupyterapp.shell.widgets('main')].find(w => w.title.label === '{py.name}')"
    browser.call("Page.navigate", url=lab(py))
    _wait(browser, f"!!window.jupyterapp && {notebook}?.node.querySelectorAll('.jp-Cell').length > 10",
          60, f"{py.name} did not open as a notebook")
    _wait(browser, f"{notebook}?.sessionContext?.session?.kernel?.status === 'idle'",
          60, f"no idle kernel for {py.name}")
    # opened, its kernel started and nothing typed: the chapter is not modified (issue 27). The
    # kernel writes its language_info into the notebook's metadata; when the .py does not carry
    # the same, JupyterLab marks the chapter dirty (tools/lab.py gives it on opening)
    time.sleep(2)
    dirty = browser.evaluate(f"{notebook}.model.dirty || {notebook}.title.className.includes('jp-mod-dirty')")
    assert dirty is False, f"{py.name} is marked modified as soon as it opens"
    browser.evaluate(f"window.jupyterapp.shell.activateById({notebook}.id); "
                     "window.jupyterapp.commands.execute('notebook:run-all-cells'), true")
    # every code cell has run: its model has an execution count (a folded cell shows no prompt)
    _wait(browser, f"{notebook}.content.widgets.filter(c => c.model.type === 'code')"
                   ".every(c => c.model.executionCount !== null)",
          120, f"the cells of {py.name} did not all run")
    time.sleep(1)  # the last outputs and the maths of late markdown cells
    r = json.loads(browser.evaluate(f"const RAW = {json.dumps(RAW_MYST)}; "
                                    + PROBE.replace("NOTEBOOK", notebook)))
    assert r["errors"] == 0, f"{py.name}: {r['errors']} cells raised"
    assert r["math"] > 20 and r["math_errors"] == 0, r
    assert r["raw"] == [], f"{py.name}: raw MyST in JupyterLab: {r['raw']}"
    # the book's numbers, as tools/plain.py computes them (tests/test_plain.py checks those against the built book)
    book, sections = plain._chapter_targets(nbformat.read(py.with_suffix(".ipynb"), as_version=4), py.stem,
                                            plain.chapter_numbers(ROOT)[py.stem])
    mine = [t for t in book.values() if t.chapter == py.stem]
    assert r["equations"] == [t.number for t in mine if t.kind == "equation"], r["equations"]
    # a titled exercise shows its title after the number: "Exercise 0.3 (Proof: ...)"
    numbers = [re.sub(r" \(.+\)$", "", title) for title in r["exercise_titles"]]
    assert numbers == [f"Exercise {t.number}" for t in mine if t.kind == "exercise"], r
    assert r["headings"] == sections[1:], r["headings"]  # (the first is the chapter's title)
    # figures numbered and captioned (book/preamble.py's lab_caption cells), references to them resolved
    figures = [t.number for t in mine if t.kind == "figure"]
    assert r["figures"] == figures, r["figures"]
    assert all(ref in [f"Fig. {n}" for n in figures] for ref in r["figure_refs"]), r["figure_refs"]
    assert r["exercises"] >= 3, r
    assert "macros" not in r["first_cell"] and "book/preamble.py" not in r["first_cell"], r["first_cell"]
    assert r["solutions"] >= 1 and r["open_solutions"] == 0, r
    # the coding solutions and their tests are folded (book/preamble.py's jupyter.source_hidden)
    import jupytext

    spec = importlib.util.spec_from_file_location("preamble", ROOT / "book" / "preamble.py")
    preamble = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(preamble)
    folded = sum(preamble.is_folded(c) for c in jupytext.read(py).cells)
    assert r["folded_inputs"] == folded and r["visible_solutions"] == 0, r
    if os.environ.get("MLNOTES_LAB_SCREENSHOTS"):  # for a person to look at: the exercises as a student sees them
        import base64

        browser.call("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1,
                     mobile=False)
        views = {  # the first section (headings, numbered equations), the first figure with its caption,
            # then the first coding exercise (the exercise above the first solution)
            "section": "NB.node.querySelector('.jp-MarkdownCell h2')?.closest('.jp-Cell')",
            "figure": "NB.node.querySelector('.jp-MarkdownCell figcaption')?.closest('.jp-Cell')"
                      "?.previousElementSibling?.querySelector('.jp-OutputArea')",
            "exercises": "(ws => ws.slice(0, ws.findIndex(c => c.model.sharedModel.source"
                         ".includes('# BEGIN SOLUTION'))).reverse()"
                         ".find(c => c.node.querySelector('aside.myst-exercise'))?.node)(NB.content.widgets)",
        }
        for view, cell in views.items():
            browser.evaluate(f"({cell.replace('NB', notebook)})?.scrollIntoView(), true")
            time.sleep(1.0)
            shot = Path(os.environ["MLNOTES_LAB_SCREENSHOTS"]) / f"{py.stem}-{view}.png"
            shot.write_bytes(base64.b64decode(browser.call("Page.captureScreenshot", format="png")["data"]))
    print(f"{py.stem}: {r['math']} typeset, {r['math_errors']} maths errors, raw MyST {r['raw']}, "
          f"{len(r['figures'])} figures captioned, {r['exercises']} exercises, "
          f"{r['solutions']} conceptual solutions folded, "
          f"{r['folded_inputs']} cells folded (solutions, tests, plotting, install)")
