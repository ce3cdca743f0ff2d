"""The built book's numbering, solution widgets and download menu, in headless Chromium (issue 27).

Uses the DevTools client and the built book of ``tests/test_browser.py`` (``make book-check``
first); marked ``browser`` like it, so part of ``make browser``.
"""

from __future__ import annotations

import re
import shutil

import pytest
from test_browser import CHAPTERS, HTML, browser  # noqa: F401  (browser: the fixture)

pytestmark = pytest.mark.browser


def test_chapter_0_is_numbered_0_everywhere(browser):  # noqa: F811
    """Sidebar, contents, headings, equations, exercises and the ledger: one rule, Chapter 0."""
    browser.open(HTML / "notebooks" / "00_notation.html")
    got = browser.evaluate("""JSON.stringify({
      title: document.querySelector('article h1').innerText,
      sidebar: [...document.querySelectorAll('li.toctree-l1 > a')].map(a => a.textContent.trim())
        .filter(t => /^\\d+\\. /.test(t)),
      // textContent: an equation inside a closed solution has no innerText
      equations: [...document.querySelectorAll('article .eqno')]
        .map(e => e.textContent.replace(/#$/, '').trim()),
      exercises: [...document.querySelectorAll('article .exercise .caption-number')].map(e => e.innerText.trim()),
    })""")
    import json

    got = json.loads(got)
    assert got["title"].startswith("0. Notation"), got["title"]
    assert [t.split(".")[0] for t in got["sidebar"]] == [str(n) for n in range(len(CHAPTERS))], got["sidebar"]
    assert got["equations"][:2] == ["(0.1)", "(0.2)"] and all(e.startswith("(0.") for e in got["equations"])
    assert got["exercises"] and all(re.fullmatch(r"Exercise 0\.\d+", e) for e in got["exercises"])
    ledger = (HTML / "book" / "generated" / "claims.html").read_text()
    cited = re.findall(r'href="[^"]*00_notation\.html#equation-[^"]*">\((\S+?)\)', ledger)
    assert cited and all(c.startswith("0.") for c in cited), cited
    contents = (HTML / "book" / "intro.html").read_text()
    assert "0. Notation and matrix calculus" in contents and "Table of symbols" in contents
    assert (HTML / "book" / "symbols.html").exists() and not (HTML / "book" / "notation.html").exists()


PROBE = """JSON.stringify([...document.querySelectorAll('article details.mlnotes-solution')].map(d => {
  const before = d.open;
  const shown = () => [...d.querySelectorAll('summary > *')]
    .filter(e => getComputedStyle(e).display !== 'none').map(e => e.innerText.trim());
  const closed = shown();
  d.querySelector('summary').click();
  const style = getComputedStyle(d.querySelector('summary'));
  return {summary: d.querySelector('summary .collapsed').innerText.trim(), before, after: d.open,
          code: !!d.querySelector('.cell_input'), font: style.fontSize + ' ' + style.fontWeight,
          cls: d.className, closed, open: shown()};
}))"""


@pytest.mark.parametrize("py", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_one_solution_widget(browser, py):  # noqa: F811
    """Conceptual and coding solutions are the same closed <details>, "Solution to Exercise N.M",
    and open the same way; no sphinx-togglebutton "Click to show" box is left."""
    import json

    source = py.read_text()
    conceptual = len(re.findall(r"^# `{3,}\{solution\}", source, flags=re.M))
    coding = len(re.findall(r'"code_prompt_show": "Solution"', source))
    browser.open(HTML / "notebooks" / f"{py.stem}.html")
    assert browser.evaluate("document.querySelectorAll('.solution.dropdown, .toggle-button').length") == 0
    found = json.loads(browser.evaluate(PROBE))
    assert len(found) == conceptual + coding, (len(found), conceptual, coding)
    assert sum(f["code"] for f in found) == coding
    number = "0" if py.stem.startswith("00") else str(int(py.stem[:2]))
    for f in found:
        # a titled exercise's solution carries the title: "... 4.5 (Proof: the soft-margin dual)"
        assert re.fullmatch(rf"Solution to Exercise {number}\.\d+( \(.+\))?", f["summary"]), f
        assert f["before"] is False and f["after"] is True, f  # closed, and a click opens it
        # one label at a time: the exercise's while closed, "Hide solution" once open
        assert f["closed"] == [f["summary"]] and f["open"] == ["Hide solution"], f
    assert len({(f["font"], f["cls"]) for f in found}) == 1, found  # one look


def test_download_menu_links_the_pdf_only_when_built(browser, tmp_path):  # noqa: F811
    """make book and make book-check build no PDF, so their pages offer none (issue 27: the
    entry was a 404); make pdf writes the PDF and _static/mlnotes-pdf.js, and then they do."""
    marker = HTML / "_static" / "mlnotes-pdf.js"
    kept = tmp_path / "mlnotes-pdf.js"
    if marker.exists():
        shutil.move(marker, kept)
    entry = ("[...document.querySelectorAll('.dropdown-download-buttons a')].map(a => a.href)"
             ".find(h => h.endsWith('/mlnotes.pdf')) || ''")
    page = HTML / "notebooks" / f"{CHAPTERS[0].stem}.html"
    try:
        browser.open(page)
        assert browser.evaluate(entry) == "", "the download menu links a PDF that was not built"
        marker.write_text("// as make pdf writes it\n")
        browser.open(page)
        href = browser.evaluate(entry)
        assert href and href.removeprefix("file://") == str(HTML / "mlnotes.pdf")
    finally:
        marker.unlink(missing_ok=True)
        if kept.exists():
            shutil.move(kept, marker)


def test_proof_index_lists_numbers_and_titles():
    """The proof index reads as the text does: "Theorem 6.1 (Training error of AdaBoost)", not
    the label and the file (book/_ext/mlnotes_index.py)."""
    page = (HTML / "prf-prf.html").read_text()
    entries = re.findall(r'<code class="xref">([^<]+)</code>', page)
    assert entries and not any("thm-" in e or "def-" in e or "notebooks/" in e for e in entries), entries[:5]
    assert all(re.match(r"(Theorem|Definition|Lemma|Corollary|Proposition|Algorithm|Proof|Example|Remark)"
                        r" \d+\.\d+", e) for e in entries), entries
    assert any(re.fullmatch(r"Theorem 6\.\d+ \(Training error of AdaBoost\)", e) for e in entries), entries


def test_index_has_the_main_terms_and_no_bare_module_entry():
    page = (HTML / "genindex.html").read_text()
    for term in ("softmax", "Slater&#39;s condition", "maximum likelihood", "cross-entropy"):
        assert term in page, term
    assert ">module</a>" not in page and "mlnotes.boosting (module)" in page
    # the private steps listed in the chapters have reference entries but are not terms
    assert not re.search(r">_\w+\(\) \(in module", page), re.findall(r">(_\w+\(\))", page)


def test_search_snippets_show_text_not_tex():
    """A search result's snippet is cut from the page's HTML before MathJax: without
    book/_static/mlnotes.js it read "\\(\\max_{\\alpha > 0}\\)". Served over loopback HTTP, as the
    search fetches the pages (a file:// page cannot)."""
    import socket
    import subprocess
    import sys
    import time

    from test_browser import Browser

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port),
                               "--directory", str(HTML)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    b = Browser(loopback=True)
    try:
        time.sleep(1)
        b.call("Page.navigate", url=f"http://127.0.0.1:{port}/search.html?q=margin")
        snippets, deadline = [], time.time() + 60
        while time.time() < deadline and len(snippets) < 5:
            time.sleep(1)
            snippets = b.evaluate("[...document.querySelectorAll('#search-results p.context')]"
                                  ".map(p => p.textContent)") or []
        assert len(snippets) >= 5, snippets
        tex = [s for s in snippets if re.search(r"\\[(\[]", s)]  # MathJax delimiters: TeX left raw
        assert not tex, tex[:3]
    finally:
        b.close()
        server.terminate()
        server.wait(10)


def test_every_listing_links_an_entry_of_the_reference():
    """The line above a listing says "docstring left out: see its reference entry" and links it:
    the entry must exist, private steps (``_halving_step``) included, or the link lands on the
    top of the module's page."""
    missing = []
    for py in CHAPTERS:
        page = HTML / "notebooks" / f"{py.stem}.html"
        for href in re.findall(r'<p class="mlnotes-listing-note"><a href="([^"]+)"', page.read_text()):
            target, _, anchor = href.partition("#")
            path = (page.parent / target).resolve()
            if not path.exists() or f'id="{anchor}"' not in path.read_text():
                missing.append(f"{py.stem}: {href}")
    assert not missing, missing
