"""The built book in a real browser: headless Chromium opens chapter pages from disk with the
network closed, and the rendered DOM must show equations typeset by the local MathJax and every
figure loaded.

Needs Debian's ``chromium`` (``apt-get install chromium``; ``.ci/run`` installs it) and a built
book (``make book-check`` runs before this test in ``make test``). The browser is driven over
the Chrome DevTools Protocol with ``websocket-client`` (already a dependency of Jupyter).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "book" / "_build" / "html"
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))

# Raw TeX is any text outside typeset maths and code that holds a "$" or a backslash command,
# or a list item that opens with a TeX operator: what a "$...$" broken across lines leaves when a
# line of it starts with "- " or "+ " and Markdown reads it as a list item. An element is too
# wide when its box ends right of the article's column (scrolled or clipped, either way the
# reader cannot see it whole); only the outermost such element is reported.
PROBE = r"""
(() => {
  const article = document.querySelector('article') || document.body;
  const imgs = [...article.querySelectorAll('img')];
  const skip = 'mjx-container, script, style, pre, code, kbd, samp, textarea, .highlight';
  const raw = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement && !n.parentElement.closest(skip) && /\$|\\[A-Za-z]+/.test(n.textContent))
      raw.push(n.textContent.trim().slice(0, 100));
  }
  for (const li of article.querySelectorAll('li')) {
    let first = li.firstChild;
    if (first && first.nodeName === 'P') first = first.firstChild;
    if (first && first.nodeType === Node.TEXT_NODE && /^\s*([=+^_<>]|\\[A-Za-z])/.test(first.textContent))
      raw.push('list item: ' + li.textContent.trim().slice(0, 100));
  }
  const box = article.getBoundingClientRect();  // the text column is the article's content box
  const column = {right: box.right - parseFloat(getComputedStyle(article).paddingRight),
                  width: box.width - parseFloat(getComputedStyle(article).paddingLeft)
                         - parseFloat(getComputedStyle(article).paddingRight)};
  const wide = [], over = new Set(), seen = new Set();
  for (const el of article.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    // (a permalink "#" is invisible until hovered, and may sit just past the end of a caption's line)
    if (r.width > 0 && r.height > 0 && r.right > column.right + 1 && !el.closest('mjx-assistive-mml, .headerlink')) {
      over.add(el);
      // report the box that holds the overflow once (a scrolled <pre>, an equation, a table)
      const holder = over.has(el.parentElement) ? null : (el.parentElement || el);
      if (holder && !seen.has(holder)) {
        seen.add(holder);
        const near = holder.closest('[id]');
        wide.push({
          what: `${Math.round(holder.scrollWidth)} px ${holder.tagName.toLowerCase()} in `
                + `#${near ? near.id : ''}: ${holder.textContent.replace(/\s+/g, " ").trim().slice(0, 60)}`,
          maths_or_table: !!el.closest('mjx-container, table'),
          // a code or output line longer than its block scrolls inside it (never wraps)
          scrolled_code: !!el.closest('pre') && getComputedStyle(el.closest('pre')).overflowX === 'auto',
          output: !!el.closest('.cell_output'),
        });
      }
    }
  }
  return JSON.stringify({
    typeset: document.querySelectorAll('mjx-container').length,
    display: document.querySelectorAll('mjx-container[display="true"]').length,
    errors: document.querySelectorAll('mjx-merror, .MathJax_Error').length,
    raw, wide, column: Math.round(column.width),
    images: imgs.length,
    broken: imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src),
    mathjax_src: [...document.scripts].map(s => s.src).filter(s => s.includes('mathjax')),
  });
})()
"""


def _chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        pytest.fail(
            "headless chromium is needed for the browser test: install Debian's package "
            "'chromium' (apt-get install chromium); .ci/run does this on CI"
        )
    return path


class Browser:
    """Just enough of the DevTools protocol: open a page, wait for MathJax, evaluate JS."""

    def __init__(self, loopback: bool = False):
        """``loopback=True`` lets pages reach servers on 127.0.0.1 (the JupyterLab test's);
        every other address stays closed."""
        import websocket

        self.profile = tempfile.mkdtemp(prefix="mlnotes-chromium-")
        self.proc = subprocess.Popen(
            [
                _chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-quic", f"--user-data-dir={self.profile}",
                # the network is closed: any request off the local disk fails
                "--proxy-server=127.0.0.1:9",
                "--host-resolver-rules=MAP * ~NOTFOUND" + (", EXCLUDE 127.0.0.1" if loopback else ""),
                "--allow-file-access-from-files", "--remote-debugging-port=0", "about:blank",
            ],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        url = None
        deadline = time.time() + 30
        while time.time() < deadline and url is None:
            line = self.proc.stderr.readline()
            m = re.search(r"DevTools listening on (ws://\S+)", line)
            url = m.group(1) if m else None
        assert url, "chromium did not start its DevTools endpoint"
        port = re.search(r":(\d+)/", url).group(1)
        import urllib.request

        targets = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/json").read())
        page = next(t for t in targets if t["type"] == "page")
        # no Origin header: recent Chromium rejects a DevTools client whose origin it was not told of
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30, suppress_origin=True)
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.next_id:
                return msg.get("result", {})

    def evaluate(self, expr, await_promise: bool = False):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True, awaitPromise=await_promise)
        return r.get("result", {}).get("value")

    def open(self, path: Path, timeout: float = 30) -> dict:
        self.call("Page.navigate", url=path.as_uri())
        deadline = time.time() + timeout
        while time.time() < deadline and self.evaluate("document.readyState") != "complete":
            time.sleep(0.1)
        has_mathjax = self.evaluate("!![...document.scripts].find(s => s.src.includes('mathjax'))")
        while has_mathjax and time.time() < deadline:  # MathJax typesets asynchronously after load
            ready = self.evaluate(
                "!!window.MathJax && !!MathJax.startup && !!MathJax.startup.promise"
            )
            if ready:
                self.call("Runtime.evaluate", expression="MathJax.startup.promise.then(() => true)",
                          awaitPromise=True)
                break
            time.sleep(0.2)
        time.sleep(0.3)
        return json.loads(self.evaluate(PROBE))

    def set_width(self, width: int):
        """Lay the page out as a window ``width`` CSS pixels wide (a phone below 600)."""
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=900,
                  deviceScaleFactor=1, mobile=width < 600)

    def close(self):
        self.ws.close()
        self.proc.terminate()
        self.proc.wait(10)
        shutil.rmtree(self.profile, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    if not (HTML / "index.html").exists():
        pytest.fail("the book is not built: run make book-check first")
    b = Browser()
    yield b
    b.close()


@pytest.mark.parametrize("py", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_chapter_equations_typeset_and_figures_loaded(browser, py):
    page = HTML / "notebooks" / f"{py.stem}.html"
    assert page.exists(), f"{page} was not built"
    r = browser.open(page)
    assert r["mathjax_src"] and all(s.startswith("file://") for s in r["mathjax_src"]), (
        f"MathJax is not loaded from the book's own files: {r['mathjax_src']}"
    )
    source = py.read_text()
    n_display = len(re.findall(r"^# \$\$\s*$", source, flags=re.M)) // 2
    assert r["display"] >= n_display, f"{r['display']} display equations typeset, source has {n_display}"
    assert r["typeset"] > r["display"], "inline math was not typeset"
    assert r["errors"] == 0, "MathJax reported errors"
    assert r["broken"] == [], f"figures that did not load: {r['broken']}"
    if "plt.show()" in source:
        assert r["images"] > 0, "the chapter draws figures but the page shows none"


def test_solutions_show_without_otter_markers():
    """The book folds each coding exercise's reference solution under "Solution", without the
    "# BEGIN SOLUTION" lines that only otter reads (book/_ext/mlnotes_solutions.py)."""
    for py in CHAPTERS:
        page = (HTML / "notebooks" / f"{py.stem}.html").read_text()
        assert page.count("Hide solution") >= 5 and "BEGIN SOLUTION" not in page, py.stem


def test_front_page_and_ledger_render(browser):
    r = browser.open(HTML / "book" / "generated" / "claims.html")
    assert r["typeset"] > 0 and r["errors"] == 0


def _pages() -> list[Path]:
    """Every page of the built book: front matter, chapters, appendices, index, search."""
    return sorted(p for p in HTML.rglob("*.html") if not p.relative_to(HTML).parts[0].startswith("_"))


def test_no_raw_tex_on_any_page(browser):
    found = {}
    for page in _pages():
        raw = browser.open(page)["raw"]
        if raw:
            found[str(page.relative_to(HTML))] = raw
    assert not found, f"raw TeX or a broken list outside typeset maths and code: {found}"


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("py", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_chapter_fits_its_column(browser, py, width):
    """Display equations, code (88 columns) and figures fit the text column of a 1280 px window,
    where only an output line longer than its block scrolls inside it; on a 390 px phone, display
    maths, tables and code may scroll inside their own box, nothing else may."""
    browser.set_width(width)
    try:
        wide = browser.open(HTML / "notebooks" / f"{py.stem}.html")["wide"]
    finally:
        browser.call("Emulation.clearDeviceMetricsOverride")
    if width < 600:
        wide = [w for w in wide if not (w["maths_or_table"] or w["scrolled_code"])]
    else:
        wide = [w for w in wide if not (w["scrolled_code"] and w["output"])]
    assert not wide, f"wider than the text column at {width} px: {[w['what'] for w in wide]}"


def test_listings_fit_at_1280(browser):
    """Every Implementation listing, its line numbers included, is as wide as its block at
    1280 px: a line of 88 columns is read whole, without scrolling (the walk-through cites it)."""
    browser.set_width(1280)
    found = {}
    try:
        for py in CHAPTERS:
            browser.open(HTML / "notebooks" / f"{py.stem}.html")
            over = json.loads(browser.evaluate(
                "JSON.stringify([...document.querySelectorAll('article div.mlnotes-listing pre')]"
                ".filter(p => p.scrollWidth > p.clientWidth)"
                ".map(p => `${p.scrollWidth - p.clientWidth} px too wide: ${p.textContent.slice(0, 40)}`))"))
            if over:
                found[py.stem] = over
    finally:
        browser.call("Emulation.clearDeviceMetricsOverride")
    assert not found, f"listings that scroll sideways at 1280 px: {found}"


def test_every_other_page_fits_at_1280(browser):
    """Front matter and appendices (the claim ledger's table included) fit the column too; a
    code line longer than its block (a docstring's example, a shell command) scrolls inside it."""
    browser.set_width(1280)
    try:
        found = {}
        for page in _pages():
            if page.parent.name != "notebooks":
                wide = [w for w in browser.open(page)["wide"] if not w["scrolled_code"]]
                if wide:
                    found[str(page.relative_to(HTML))] = [w["what"] for w in wide]
    finally:
        browser.call("Emulation.clearDeviceMetricsOverride")
    assert not found, f"wider than the text column at 1280 px: {found}"


# Every search entry on the page (a field, or a button that opens the search dialog) that a
# reader can see now: inside the viewport and the topmost thing at its centre (not scrolled out
# of the sidebar, not under the header, not off-canvas).
SEARCH_ENTRIES = r"""
JSON.stringify([...document.querySelectorAll(
    'input[type=search], input[name=q], button.search-button__button, [aria-label^="Search" i]')]
  .filter(e => e.closest('dialog') === null)
  .filter(e => {
    const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (r.width < 1 || r.height < 1 || x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
    const top = document.elementFromPoint(x, y);
    return !!top && (e === top || e.contains(top));
  })
  .map(e => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} in `
            + `${(e.parentElement.closest('[class]') || e).className.split(' ')[0]}`))
"""


@pytest.mark.parametrize("width", [1280, 390])
def test_one_search_box(browser, width):
    """Every page shows one way to search, at a desk and on a phone (where it is a button in the
    article's header): not a second box in a header bar of its own beside the sidebar's. The
    pages: the front page, a chapter near the top and one near the foot of the sidebar (the
    sidebar scrolls to it), the ledger and the reference."""
    pages = ["index.html", f"notebooks/{CHAPTERS[1].stem}.html",
             f"notebooks/{CHAPTERS[-1].stem}.html", "book/generated/claims.html",
             "book/api/index.html"]
    browser.set_width(width)
    found = {}
    try:
        for page in pages:
            browser.open(HTML / page)
            time.sleep(0.3)  # the sidebar scrolls to the page's entry after load
            entries = json.loads(browser.evaluate(SEARCH_ENTRIES))
            # and with the sidebar scrolled to its foot, the page to its middle
            browser.evaluate("document.querySelector('.bd-sidebar-primary').scrollTop = 1e6;"
                             "window.scrollTo(0, document.body.scrollHeight / 2)")
            time.sleep(0.2)
            scrolled = json.loads(browser.evaluate(SEARCH_ENTRIES))
            if len(entries) != 1 or len(scrolled) != 1:
                found[page] = {"at rest": entries, "scrolled": scrolled}
    finally:
        browser.call("Emulation.clearDeviceMetricsOverride")
    assert not found, f"pages without exactly one search entry in view at {width} px: {found}"


def test_footer_links_the_claim_ledger(browser):
    browser.open(HTML / "notebooks" / f"{CHAPTERS[-1].stem}.html")
    href = browser.evaluate("(document.querySelector('.extra_footer a') || {}).href || ''")
    assert Path(href.removeprefix("file://")) == HTML / "book" / "generated" / "claims.html"


# -- the plain copies (notebooks/plain/) as a notebook viewer shows them -----------------------

# (without the noundefined package, an undefined macro such as the book's \R is an error, not red text)
VIEWER_MATHJAX = r"""<script>window.MathJax = {tex: {inlineMath: [['$', '$'], ['\\(', '\\)']],
  displayMath: [['$$', '$$'], ['\\[', '\\]']], processEscapes: true, packages: {'[-]': ['noundefined']}}};</script>"""

VIEWER_PROBE = r"""
(() => {
  const cells = [...document.querySelectorAll('.jp-MarkdownCell')];
  const text = cells.map(c => c.innerText).join('\n');
  const details = cells.flatMap(c => [...c.querySelectorAll('details')]);
  return JSON.stringify({
    myst: text.match(/\{(eq|ref|numref|cite|doc|prf:ref|math)\}|^\s*\([\w:.-]+\)=\s*$|^\s*(```|:::)\{/gm) || [],
    details: details.length,
    open: details.filter(d => d.open).length,
    // a folded block is as tall as its summary line: its body takes no room on the page
    hidden_in_details: details.every(d => d.getBoundingClientRect().height
                                          <= d.querySelector('summary').getBoundingClientRect().height + 1),
  });
})()
"""


@pytest.mark.parametrize("py", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_plain_copy_in_a_notebook_viewer(browser, py, tmp_path):
    """A chapter's plain copy as nbviewer renders it (nbviewer is nbconvert's HTML; GitHub and
    VS Code render Markdown and MathJax/KaTeX the same way), with the book's own MathJax 3 in
    place of the CDN: every equation typesets without an error, no MyST and no TeX shows raw,
    and every solution is folded, its body invisible until opened."""
    from nbconvert import HTMLExporter

    body, _ = HTMLExporter(mathjax_url="MATHJAX").from_filename(str(ROOT / "notebooks" / "plain" / f"{py.stem}.ipynb"))
    mathjax = (HTML / "_static" / "mathjax" / "tex-chtml.js").as_uri()
    body, n = re.subn(r'<script src="MATHJAX[^"]*">\s*</script>',
                      lambda _: VIEWER_MATHJAX + f'<script src="{mathjax}"></script>', body)
    assert n == 1, "nbconvert's template no longer loads MathJax from mathjax_url"
    page = tmp_path / f"{py.stem}.html"
    page.write_text(body)
    r = browser.open(page, timeout=60)
    assert r["typeset"] > r["display"] > 0 and r["errors"] == 0, r
    assert not r["raw"], f"raw TeX in the plain copy: {r['raw'][:5]}"
    v = json.loads(browser.evaluate(VIEWER_PROBE))
    solutions = len(re.findall(r"^# `{3,}\{solution\}|\"code_prompt_show\": \"Solution\"", py.read_text(), flags=re.M))
    assert v["myst"] == [] and v["details"] == solutions > 0 and v["open"] == 0 and v["hidden_in_details"], v


# -- every page at a desk and on a phone, light and dark, for a screen reader (issue 27) ---------

AXE = ROOT / ".axe" / "node_modules" / "axe-core" / "axe.min.js"  # make axe (make browser) installs it
WIDTHS, THEMES = (1280, 390), ("light", "dark")
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]  # WCAG 2.0 and 2.1, levels A and AA

# One look at the page as laid out now. wide: the outermost boxes that reach past the viewport
# (an element inside a box that scrolls or clips is held by it); sideways: the page itself scrolls
# sideways. wrapped: a code block or output with more lines on screen than in its text (a soft
# wrap). clipped: a display equation wider than what shows of it that does not scroll in its own
# box with a cue (a shadow or a visible scrollbar), or whose number is off screen or over
# the equation. axe: axe-core's violations of WCAG 2 A/AA.
SURVEY = r"""
(async () => {
  // the page at rest: its own resize handlers have run, and nothing slides (the sidebar)
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50))));
  const vw = document.documentElement.clientWidth;
  const name = el => {
    const near = el.closest('[id]');
    return `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string'
      ? '.' + el.className.trim().split(/\s+/).join('.') : ''} in #${near ? near.id : ''}: `
      + el.textContent.replace(/\s+/g, ' ').trim().slice(0, 50);
  };
  const wide = [];
  const walk = el => {
    const s = getComputedStyle(el);
    if (s.display === 'none' || s.visibility === 'hidden') return;
    const r = el.getBoundingClientRect();
    // (a box wholly off screen is put away, as the phone's sidebar is, not too wide)
    if (r.width > 1 && r.height > 1 && r.right > 0 && r.left < vw && (r.right > vw + 1 || r.left < -1)) {
      wide.push(`${Math.round(r.left)}..${Math.round(r.right)} px ${name(el)}`);
      return;
    }
    if (s.overflowX !== 'visible' || el.tagName === 'MJX-CONTAINER') return;
    for (const c of el.children) walk(c);
  };
  walk(document.body);
  const wrapped = [];
  for (const pre of document.querySelectorAll('article pre')) {
    const lines = pre.textContent.replace(/\n$/, '').split('\n').length;
    const range = document.createRange();
    range.selectNodeContents(pre);
    const tops = [...range.getClientRects()].filter(q => q.height > 0).map(q => q.top).sort((a, b) => a - b);
    const gap = 0.5 * parseFloat(getComputedStyle(pre).fontSize);
    let shown = 0, last = -Infinity;
    for (const t of tops) if (t - last > gap) { shown++; last = t; }
    if (shown > lines) wrapped.push(`${shown} lines on screen for ${lines}: ${name(pre)}`);
  }
  const clipped = [];
  for (const m of document.querySelectorAll('article mjx-container[display="true"]')) {
    const maths = m.querySelector('mjx-math') || m;
    const width = maths.getBoundingClientRect().width;
    let box = null;
    for (let e = m; e && e.tagName !== 'ARTICLE'; e = e.parentElement)
      if (getComputedStyle(e).overflowX !== 'visible') { box = e; break; }
    const what = (m.closest('[id]') || {}).id || m.textContent.slice(0, 40);
    if (!box) {
      if (maths.getBoundingClientRect().right > vw + 1) clipped.push(`runs off the page: #${what}`);
      continue;
    }
    const s = getComputedStyle(box);
    if (width > box.clientWidth + 1) {
      if (!['auto', 'scroll'].includes(s.overflowX)) clipped.push(`cut off (overflow ${s.overflowX}): #${what}`);
      else if (s.boxShadow === 'none' && s.backgroundImage === 'none' && box.offsetHeight - box.clientHeight < 2)
        clipped.push(`scrolls without a cue: #${what}`);
    }
    const no = m.closest('div.math') && m.closest('div.math').querySelector('.eqno');
    if (no) {
      const n = no.getBoundingClientRect(), b = box.getBoundingClientRect();
      if (n.left < -1 || n.right > vw + 1) clipped.push(`number off screen: #${what}`);
      else if (n.left < b.right - 1 && n.right > b.left + 1 && n.top < b.bottom - 1 && n.bottom > b.top + 1)
        clipped.push(`number over the equation: #${what}`);
    }
  }
  // Code in colour: every colour of highlighted code against its block's background, each pair
  // once (axe leaves the code out: it weighed every token of every listing, a minute a chapter)
  const rgb = c => (c.match(/[\d.]+/g) || []).map(Number);
  const lum = c => {
    const v = rgb(c).slice(0, 3).map(x => (x /= 255) <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
  };
  const ground = el => { for (let e = el; e; e = e.parentElement) { const b = getComputedStyle(e).backgroundColor;
                           if (rgb(b).length === 3 || rgb(b)[3] > 0) return b; } return 'rgb(255, 255, 255)'; };
  const faint = new Map();
  for (const pre of document.querySelectorAll('article div.highlight pre')) {
    if (!pre.getClientRects().length) continue;
    const back = ground(pre);
    for (const el of [pre, ...pre.querySelectorAll('span')]) {
      if (![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
      const fore = getComputedStyle(el).color, key = fore + ' on ' + back;
      if (faint.has(key)) continue;
      const [a, b] = [lum(fore), lum(back)], ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      const where = `${el.textContent.trim().slice(0, 30)} in #${(el.closest('[id]') || {}).id}`;
      faint.set(key, ratio < 4.5 ? `${ratio.toFixed(2)}:1 ${key}: ${where}` : '');
    }
  }
  const code_contrast = [...faint.values()].filter(Boolean);
  const sideways = document.scrollingElement.scrollWidth > vw + 1;
  return JSON.stringify({sideways, wide, wrapped, clipped, code_contrast});
})()
"""

# axe-core over the page as it is laid out now. The typeset maths is taken out of the page first
# (survey() does this once the layout is looked at): thousands of glyph boxes that a screen
# reader reads from the MathML MathJax puts beside them, and axe took half a minute a chapter
# over them.
AXE_RUN = r"""
(async () => {
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50))));
  const found = await axe.run({exclude: [['div.highlight pre']]}, {runOnly: {type: 'tag', values: AXE_TAGS},
                                         resultTypes: ['violations']});
  return JSON.stringify(found.violations.map(v => ({
    id: v.id, impact: v.impact, n: v.nodes.length,
    where: v.nodes.slice(0, 10).map(x => x.target.join(' ')),
    why: v.nodes[0] ? v.nodes[0].failureSummary.slice(0, 200) : ''})));
})()
""".replace("AXE_TAGS", json.dumps(AXE_TAGS))


def set_theme(browser, theme: str):
    """The theme's own switch: pydata-sphinx-theme reads data-theme on <html>."""
    browser.evaluate(f"document.documentElement.dataset.theme = '{theme}';"
                     f"document.documentElement.dataset.mode = '{theme}'")


def survey(browser, plant: str = "") -> dict:
    """The open page looked at at each width and in each theme: {"1280 light": {...}, ...}.
    ``plant`` is JavaScript run first (the planted-defect test's defects)."""
    if not AXE.exists():
        pytest.fail("axe-core is not installed: run make axe (make browser does)")
    if not browser.evaluate("!!window.axe"):
        browser.evaluate(AXE.read_text())
    # the page at rest: no transition (the sidebar slides when the width changes)
    browser.evaluate("document.head.insertAdjacentHTML('beforeend', '<style>*, *::before, *::after "
                     "{transition: none !important; animation: none !important}</style>')")
    if plant:
        browser.evaluate(plant)
    browser.ws.settimeout(180)  # axe takes seconds over a chapter, more on a busy machine
    looks = {}
    try:
        for width in WIDTHS:
            browser.set_width(width)
            for theme in THEMES:
                set_theme(browser, theme)
                looks[f"{width} {theme}"] = json.loads(browser.evaluate(SURVEY, await_promise=True))
        browser.evaluate("document.querySelectorAll('mjx-container').forEach(m => m.remove())")
        for width in WIDTHS:
            browser.set_width(width)
            for theme in THEMES:
                set_theme(browser, theme)
                looks[f"{width} {theme}"]["axe"] = json.loads(browser.evaluate(AXE_RUN, await_promise=True))
    finally:
        browser.call("Emulation.clearDeviceMetricsOverride")
        set_theme(browser, "light")
        browser.ws.settimeout(30)
    return looks


@pytest.fixture(scope="module")
def surveys(browser) -> dict:
    """Every page of the book opened once and surveyed at both widths in both themes."""
    found = {}
    for page in _pages():
        browser.open(page)
        found[str(page.relative_to(HTML))] = survey(browser)
    return found


def _report(surveys, key, widths=WIDTHS) -> dict:
    return {f"{page} at {look}": s[key] for page, looks in surveys.items()
            for look, s in looks.items() if s[key] and int(look.split()[0]) in widths}


def test_no_page_is_wider_than_a_phone(surveys):
    """At 390 px (and 1280 px) no element reaches past the viewport and no page scrolls sideways:
    what is wider than the column scrolls inside its own box."""
    assert not _report(surveys, "wide"), _report(surveys, "wide")
    assert not _report(surveys, "sideways"), _report(surveys, "sideways")


def test_code_never_wraps(surveys):
    """A code line or an output line stays one line on screen (it scrolls inside its block)."""
    assert not _report(surveys, "wrapped"), _report(surveys, "wrapped")


def test_displays_scroll_in_their_box_with_their_number_in_view(surveys):
    assert not _report(surveys, "clipped"), _report(surveys, "clipped")


def test_code_colours_are_legible(surveys):
    """Every colour of highlighted code has a contrast of 4.5:1 at least on its block, light and dark."""
    assert not _report(surveys, "code_contrast"), _report(surveys, "code_contrast")


def test_no_serious_accessibility_violations(surveys):
    """axe-core, light and dark, at 1280 and 390 px: no violation of impact serious or critical."""
    bad = {k: [f"{v['impact']} {v['id']} x{v['n']}: {v['where']} {v['why']}" for v in axe
               if v["impact"] in ("serious", "critical")]
           for k, axe in _report(surveys, "axe").items()}
    bad = {k: v for k, v in bad.items() if v}
    assert not bad, bad


# One of each defect the survey guards against, planted in a chapter: a code line that wraps, a
# display cut off at the column, a verdict in grey on grey, a button with only an icon.
PLANT = r"""
(() => {
  const pre = document.querySelector('article div.cell_input div.highlight pre');
  pre.id = 'planted-code';
  pre.style.whiteSpace = 'pre-wrap';
  pre.textContent += '\nx = 1  # ' + 'a comment that runs on '.repeat(12);
  const m = document.querySelector('article div.math mjx-container[display="true"]');
  m.id = 'planted-display';
  m.style.overflow = 'hidden';
  m.querySelector('mjx-math').style.paddingRight = '1600px';
  const verdict = document.querySelector('.mlnotes-claim-line');
  verdict.id = 'planted-verdict';
  verdict.style.cssText = 'color: #a0a4a8 !important; background: #d0d4d8 !important';
  document.querySelector('article').insertAdjacentHTML(
    'afterbegin', '<button id="planted-button" class="btn"><i class="fas fa-bars"></i></button>');
})()
"""


def test_survey_reports_planted_defects(browser):
    """The survey is shown to see what it guards against: each planted defect is reported at
    both widths in both themes."""
    chapter = next(p for p in CHAPTERS if p.stem.startswith("04_"))
    browser.open(HTML / "notebooks" / f"{chapter.stem}.html")
    for look, s in survey(browser, plant=PLANT).items():
        axe = {(v["id"], t) for v in s["axe"] for t in v["where"] if v["impact"] in ("serious", "critical")}
        assert any("#planted-code" in w for w in s["wrapped"]), (look, s["wrapped"])
        assert any("#planted-display" in c for c in s["clipped"]), (look, s["clipped"])
        assert ("color-contrast", "#planted-verdict") in axe, (look, axe)
        assert ("button-name", "#planted-button") in axe, (look, axe)
