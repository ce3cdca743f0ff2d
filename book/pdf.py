"""Print the whole book to one PDF: ``python book/pdf.py SINGLEHTML_DIR OUT_PDF``.

The book is built once more as a single HTML page (``make pdf`` does it, from the committed,
already executed notebooks) and printed by the headless Chromium the browser test uses, after the
book's own MathJax has typeset every equation. Why this route and not Jupyter Book's LaTeX
builder: it needs nothing beyond what the tests already install (no TeX Live, about 1 GB on CI),
it builds offline, and the PDF is the HTML book itself, with the same maths rendering, numbering
and cross-references (as links inside the PDF). ``book/_static/mlnotes.css`` holds the print
style: the sidebars go, folded solutions and code open, code wraps, A4 pages.
"""

from __future__ import annotations

import base64
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from test_browser import Browser  # noqa: E402  (the DevTools client of the browser test)

# On paper, unfold what the screen folds for the reader to open (solutions, coding solutions)
# and drop the code the screen folds away (the plotting code above a figure), keeping its output.
UNFOLD = """
document.querySelectorAll('details').forEach(d => {
  const summary = d.querySelector('summary');
  if (d.closest('.cell') && summary && !/Solution/.test(summary.textContent)) d.remove();
  else d.open = true;
});
document.querySelectorAll('.toggle-hidden').forEach(e => e.classList.remove('toggle-hidden'));
// The front page's contents is the list the single page starts with; the front page's own
// "Contents" heading would head the whole book on paper, a second contents with no list under it
document.querySelector('section#contents > h2')?.remove();
document.querySelectorAll('.dropdown').forEach(e => e.classList.remove('dropdown'));
true
"""

FOOTER = ('<div style="font-size: 8px; width: 100%; text-align: center; color: #555;">'
          '<span class="pageNumber"></span></div>')


def print_pdf(html: Path, pdf: Path) -> int:
    browser = Browser()
    try:
        browser.ws.settimeout(900)  # typesetting a whole book takes a while on two cores
        browser.open(html.resolve(), timeout=900)
        browser.evaluate(UNFOLD)
        time.sleep(1)
        r = browser.call(
            "Page.printToPDF", printBackground=True, preferCSSPageSize=True,
            displayHeaderFooter=True, headerTemplate="<div></div>", footerTemplate=FOOTER,
            generateDocumentOutline=True, generateTaggedPDF=True,
        )
    finally:
        browser.close()
    pdf.write_bytes(base64.b64decode(r["data"]))
    return len(r["data"])


def single_page(outdir: Path) -> Path:
    """The single page, moved to the top of the build: Sphinx writes it at the root document's
    path (book/intro.html) but with links relative to the top, and leaves a redirect there."""
    target = re.search(r'url=([^"]+)"', (outdir / "index.html").read_text()).group(1)
    page = outdir / "book.html"
    page.write_text((outdir / target).read_text())
    return page


if __name__ == "__main__":
    t0 = time.time()
    print_pdf(single_page(Path(sys.argv[1])), Path(sys.argv[2]))
    print(f"{sys.argv[2]} written in {time.time() - t0:.0f} s")
