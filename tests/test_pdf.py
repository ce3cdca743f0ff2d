"""The whole-book PDF (``make pdf``, book/pdf.py) read as a printed textbook: every chapter in
it, opening on a right-hand page under its title; links that work; a contents and an index
whose page numbers are right; vector figures only; no near-empty page; nothing printed beyond
the text area (a clipped equation, code line or table leaves its words there).

Needs poppler's ``pdftotext``, ``pdfinfo``, ``pdfimages`` and ``pdftoppm`` (Debian's
``poppler-utils``; ``.ci/run`` installs it), pypdf, and the PDF (``make pdf`` runs before this
test in ``make test``).
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
PDF = ROOT / "book" / "_build" / "html" / "mlnotes.pdf"
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
MARGIN_MM = 15  # left and right margins of book/_static/mlnotes-print.css's @page
TOP_MM, BOTTOM_MM = 22, 20  # its top and bottom margins (the running head and number are in them)
SLACK_PT = 3  # an equation number set flush right may end a point or two past the margin
# pdftotext's box of a word is about 0.73 of its font size: the text (10 pt) 7.3 pt, the smallest
# heading (a chapter's subsection, 11 pt) 8.0 pt
HEADING_BOX_PT = 7.7
MIN_FILL = 0.30  # a page but a chapter's last, the title, a part or a blank page is this full

# index terms (book/_ext/mlnotes_index.py and the library's functions) and what their page shows
INDEX_TERMS = {
    "Hessian": "hessian", "lasso": "lasso", "sigmoid": "sigmoid", "perceptron": "perceptron",
    "Pegasos": "pegasos", "kernel trick": "kernel trick", "decision stump": "stump",
    "union bound": "union bound", "Hoeffding's inequality": "hoeffding",
    "ridge() (in module mlnotes.linear)": "ridge(",
}


def _run(*cmd: str) -> str:
    if not shutil.which(cmd[0]):
        pytest.fail(f"{cmd[0]} is needed: install Debian's package 'poppler-utils'")
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def _norm(s: str) -> str:
    s = s.replace("\u2019", "'").replace("\u2018", "'").replace("\u2010", "-").replace("\ufb01", "fi")
    return " ".join(s.split()).lower()


@pytest.fixture(scope="module")
def pdf() -> Path:
    if not PDF.exists():
        pytest.fail("the PDF is not built: run make pdf first")
    return PDF


@pytest.fixture(scope="module")
def pages(pdf) -> list[str]:
    """The text of each page (form feeds separate pdftotext's pages)."""
    return _run("pdftotext", str(pdf), "-").split("\f")[:-1]


@pytest.fixture(scope="module")
def reader(pdf):
    from pypdf import PdfReader

    return PdfReader(str(pdf))


def _title(nb: Path) -> str:
    """The chapter's title: the first level-1 heading of a markdown cell the book shows."""
    cells = json.loads(nb.read_text())["cells"]
    shown = [c for c in cells if c["cell_type"] == "markdown" and "remove-cell" not in c["metadata"].get("tags", [])]
    return next(line[2:].strip() for c in shown for line in "".join(c["source"]).splitlines()
                if line.startswith("# "))


def _contents(pdf: Path) -> list[tuple[str, int]]:
    """The contents' entries (title, page), read off its pages: from "Contents" to the page
    before the front matter's first chapter."""
    pages = _run("pdftotext", "-layout", str(pdf), "-").split("\f")
    start = next(i for i, p in enumerate(pages) if p.lstrip().startswith("Contents"))
    entries = []
    for text in pages[start:]:
        if entries and text.lstrip().startswith("About this course"):
            break
        for line in text.splitlines():
            m = re.match(r"^\s*(\S.*?)\s{2,}(\d+)\s*$", line)
            if m:
                entries.append((m.group(1).strip(), int(m.group(2))))
    return entries


def test_every_chapter_and_appendix_is_in_the_pdf(pdf, pages):
    text = " ".join(" ".join(pages).replace("\u2019", "'").split())
    titles = [_title(nb) for nb in CHAPTERS] + [
        "Appendix: the claim ledger", "Errata to the source notes", "Bibliography", "Index"]
    missing = [t for t in titles if " ".join(t.split()) not in text]
    assert not missing, f"not in the PDF: {missing}"
    assert len(pages) >= 20 * len(CHAPTERS) // 2, f"only {len(pages)} pages for {len(CHAPTERS)} chapters"
    assert "Hide solution" not in text, "a folded solution's toggle is printed"
    assert "\\frac" not in re.sub(r"r?\"[^\"]*\"", "", text), "untypeset TeX in the PDF"


def _opens(page: str, title: str) -> bool:
    """The page starts with the title, or with a chapter number and then the title."""
    lines = [line.strip() for line in page.split("\n") if line.strip()][:5]
    if lines and re.fullmatch(r"\d+\.", lines[0]):
        lines = lines[1:]
    return _norm(" ".join(lines)).startswith(title)


def test_each_chapter_opens_a_right_hand_page_under_its_title(pages):
    """The title on the first lines of an odd page (past the contents), no running head above."""
    start = next(i for i, p in enumerate(pages) if p.lstrip().startswith("Contents"))
    end = next(i for i, p in enumerate(pages) if i > start and p.lstrip().startswith("About this"))
    wrong = []
    for nb in CHAPTERS:
        title = _norm(_title(nb))[:40]
        hits = [n for n, p in enumerate(pages, 1) if n > end and _opens(p, title)]
        if not hits or hits[0] % 2 == 0:
            wrong.append((nb.stem, hits[:3]))
    assert not wrong, f"chapters not opening a right-hand page under their title: {wrong}"


def test_links_point_into_the_pdf_or_to_the_web(reader):
    """No file:// link (the single page's cross-document links were once left so); every internal
    link's named destination exists; external links are http(s)."""
    dests = set(reader.named_destinations)
    internal = broken = 0
    bad_uri = []
    for page in reader.pages:
        for annot in page.get("/Annots") or []:
            a = annot.get_object()
            if a.get("/Subtype") != "/Link":
                continue
            action = a.get("/A")
            if action is not None and action.get("/S") == "/URI":
                uri = str(action["/URI"])
                if not uri.startswith(("https://", "http://", "mailto:")):
                    bad_uri.append(uri)
                continue
            dest = a.get("/Dest", action.get("/D") if action is not None else None)
            internal += 1
            if isinstance(dest, str) and str(dest) not in dests:
                broken += 1
    assert not bad_uri, f"{len(bad_uri)} links neither into the PDF nor to the web: {bad_uri[:5]}"
    assert internal > 500, f"only {internal} internal links"
    assert broken == 0, f"{broken} of {internal} internal links have no destination"


def _bookmarks(items):
    """Every bookmark of an outline (pypdf nests a level's children in a list), depth first."""
    for o in items:
        if isinstance(o, list):
            yield from _bookmarks(o)
        else:
            yield o


def test_bookmarks_follow_the_book(reader):
    """Parts, then chapters, then sections; each title once (not 'HessiansHessians')."""
    outline = reader.outline
    top = [o.title for o in outline if not isinstance(o, list)]
    assert "Contents" in top and "Index" in top
    assert any(t.startswith("Chapters") for t in top), top
    titles = [o.title.strip() for o in _bookmarks(outline)]
    doubled = [t for t in titles if len(t) > 3 and len(t) % 2 == 0 and t[:len(t) // 2] == t[len(t) // 2:]]
    assert not doubled, f"doubled bookmark titles: {doubled}"


def test_contents_page_numbers(pdf, pages):
    """Ten entries of the contents, spread over the book: each on the page it says."""
    entries = [(t, n) for t, n in _contents(pdf) if len(t) > 6]
    assert len(entries) > 80, f"only {len(entries)} contents entries"
    sample = entries[:: max(1, len(entries) // 10)][:10]
    wrong = [(t, n) for t, n in sample if _norm(t)[:30] not in _norm(pages[n - 1])]
    assert not wrong, f"contents entries not on their page: {wrong}"


def test_index_page_numbers(pdf, pages):
    """Ten index terms: the page each is given carries the term (the index's two columns read
    line by line in pdftotext's layout mode)."""
    start = min(n for n, p in enumerate(pages)
                if n > len(pages) // 2 and p.lstrip().startswith("Index"))
    index = _run("pdftotext", "-layout", "-f", str(start + 1), str(pdf), "-")
    wrong = []
    for term, shown in INDEX_TERMS.items():
        m = re.search(r"(?:^|\s)" + re.escape(term) + r",\s*(\d+)", index, re.MULTILINE)
        if not m:
            wrong.append((term, "not in the index"))
        elif shown not in _norm(pages[int(m.group(1)) - 1]):
            wrong.append((term, int(m.group(1))))
    assert not wrong, f"index entries not on their page: {wrong}"


def test_no_raster_image(pdf):
    """Figures are vector (SVG), and no shadow or filter was rasterised."""
    images = _run("pdfimages", "-list", str(pdf)).splitlines()[2:]
    assert not images, f"{len(images)} raster images in the PDF: {images[:3]}"


def test_every_figure_is_in_the_pdf(pdf):
    n_figures = sum(
        "image/svg+xml" in out.get("data", {})
        for nb in CHAPTERS for cell in json.loads(nb.read_text())["cells"]
        for out in cell.get("outputs", [])
    )
    from pypdf import PdfReader

    forms = 0
    for page in PdfReader(str(pdf)).pages:
        xobjects = (page.get("/Resources") or {}).get("/XObject") or {}
        forms += sum(x.get_object().get("/Subtype") == "/Form" for x in xobjects.values())
    assert forms >= n_figures, f"{forms} drawn figures in the PDF, the chapters draw {n_figures}"


def _ink(pdf: Path) -> list[np.ndarray]:
    """Each page at 20 dpi, grey: True where there is ink."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["pdftoppm", "-r", "20", "-gray", str(pdf), f"{tmp}/p"], check=True)
        out = []
        for f in sorted(Path(tmp).glob("p-*.pgm"), key=lambda p: int(p.stem.split("-")[1])):
            raw = f.read_bytes()
            m = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", raw)
            w, h = int(m.group(1)), int(m.group(2))
            out.append(np.frombuffer(raw[m.end():m.end() + w * h], np.uint8).reshape(h, w) < 200)
        return out


def _openings(reader) -> set[int]:
    """The pages (from 1) where a part, a chapter or a front matter or back matter item opens:
    the pages of the bookmarks of the first two levels."""
    pages = set()
    for item in reader.outline:
        for o in item if isinstance(item, list) else [item]:
            if not isinstance(o, list):
                pages.add(reader.get_destination_page_number(o) + 1)
    return pages


def test_no_page_nearly_empty(pdf, pages, reader):
    """Every page is at least 30 % full but the title page, the blank pages, the opening pages
    of parts and chapters, and the page before an opening (a chapter's last page)."""
    ink = _ink(pdf)
    openings = _openings(reader)
    assert len(openings) > 2 * len(CHAPTERS), f"only {len(openings)} openings"
    sparse = []
    for n, img in enumerate(ink, 1):
        h = img.shape[0]
        top, bottom = int(h * TOP_MM / 297), int(h * (297 - BOTTOM_MM) / 297)
        rows = np.nonzero(img[top:bottom].any(axis=1))[0]
        fill = (rows[-1] + 1) / (bottom - top) if len(rows) else 0.0
        exempt = n == 1 or n == len(ink) or not pages[n - 1].strip() or n in openings \
            or (n + 1) in openings or ((n + 2) in openings and not pages[n].strip())
        if fill < MIN_FILL and not exempt:
            sparse.append((n, round(fill, 2)))
    assert not sparse, f"{len(sparse)} pages under {MIN_FILL:.0%} full: {sparse[:20]}"


def _headings(reader) -> set[str]:
    """Every heading the book prints, numbers left off: the bookmarks (parts, chapters, sections)
    and the chapters' own headings of every level (subsections have no bookmark)."""
    titles = {o.title for o in _bookmarks(reader.outline)}
    for nb in CHAPTERS:
        for c in json.loads(nb.read_text())["cells"]:
            if c["cell_type"] == "markdown" and "remove-cell" not in c["metadata"].get("tags", []):
                titles.update(line.lstrip("#") for line in "".join(c["source"]).splitlines()
                              if re.match(r"#{1,6} ", line))
    out = {_bare(t) for t in titles}
    return {t for t in out if len(t) > 3}


def _bare(text: str) -> str:
    """A heading's words: no section number, no markup, no trailing full stop."""
    text = re.sub(r"[`*_]|\(\w+\)=|\{[^}]*\}", "", _norm(text))
    return re.sub(r"^(?:part [ivx]+\s*|[a-z]?\d+(?:\.\d+)*\.?\s+)", "", text).rstrip(" .:")


def _lines(bbox_page: str, height: float) -> list[tuple[str, float]]:
    """The lines of a page's text area (the running head and page number left out), top to
    bottom, each with the height of its smallest word's box: its words grouped by baseline
    (pdftotext's own lines split a line of text at inline maths)."""
    top, bottom = TOP_MM * 72 / 25.4, height - BOTTOM_MM * 72 / 25.4
    words = sorted((float(y1), float(x0), float(y1) - float(y0), html.unescape(w))
                   for x0, y0, y1, w in re.findall(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</word>',
        bbox_page) if float(y0) >= top - 2 and float(y1) <= bottom + 2)
    lines: list[list[tuple]] = []
    for w in words:
        if lines and w[0] - lines[-1][0][0] < 3:  # the same baseline, within 3 pt
            lines[-1].append(w)
        else:
            lines.append([w])
    return [(" ".join(w[3] for w in sorted(line, key=lambda w: w[1])), min(w[2] for w in line))
            for line in lines]


def test_no_heading_ends_a_page(pdf, reader):
    """The last line of a page is never a heading, nor its last two or three lines a heading set
    on several (break-after: avoid keeps a heading with what follows; a block that cannot break
    and does not fit below it defeats that). A heading is a line with a heading's words, set
    larger than the text (a paragraph's last line "errors:" is not the heading "Errors"). A part
    page, whose only text is its title, is no heading at the foot of a page."""
    headings = _headings(reader)
    assert len(headings) > 100, f"only {len(headings)} headings"
    bbox = _run("pdftotext", "-bbox", str(pdf), "-")
    ending = []
    for n, page in enumerate(bbox.split("<page ")[1:], 1):
        height = float(re.search(r'height="([\d.]+)"', page).group(1))
        lines = _lines(page, height)
        for k in (1, 2, 3):
            if len(lines) <= k:
                break
            text = " ".join(t for t, _ in lines[-k:])
            before = _bare(" ".join(t for t, _ in lines[:-k])).replace(" ", "")
            if _bare(text) in headings and min(h for _, h in lines[-k:]) >= HEADING_BOX_PT \
                    and not re.fullmatch(r"(part[ivx]+)?", before):
                ending.append((n, text))
                break
    assert not ending, f"{len(ending)} pages end with a heading: {ending[:10]}"


def test_nothing_beyond_the_text_area(pdf):
    bbox = _run("pdftotext", "-bbox", str(pdf), "-")
    outside = []
    for n, page in enumerate(bbox.split("<page ")[1:], 1):
        width = float(re.search(r'width="([\d.]+)"', page).group(1))
        left, right = MARGIN_MM * 72 / 25.4 - SLACK_PT, width - MARGIN_MM * 72 / 25.4 + SLACK_PT
        for x0, x1, word in re.findall(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" '
                                       r'yMax="[\d.]+">([^<]*)</word>', page):
            if float(x0) < left or float(x1) > right:
                outside.append(f"page {n}: {word}")
    assert not outside, f"{len(outside)} words beyond the text area: {outside[:20]}"
