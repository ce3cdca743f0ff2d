"""The whole-book PDF (``make pdf``): every chapter in it, its figures, and nothing printed
beyond the text area of a page (a clipped equation, code line or table leaves its words there).

Needs poppler's ``pdftotext``, ``pdfinfo`` and ``pdfimages`` (Debian's ``poppler-utils``;
``.ci/run`` installs it) and the PDF (``make pdf`` runs before this test in ``make test``).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
PDF = ROOT / "book" / "_build" / "html" / "mlnotes.pdf"
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
MARGIN_MM = 15  # left and right margins of book/_static/mlnotes.css's @page
SLACK_PT = 3  # an equation number set flush right may end a point or two past the margin


def _run(*cmd: str) -> str:
    if not shutil.which(cmd[0]):
        pytest.fail(f"{cmd[0]} is needed: install Debian's package 'poppler-utils'")
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def pdf() -> Path:
    if not PDF.exists():
        pytest.fail("the PDF is not built: run make pdf first")
    return PDF


def _title(nb: Path) -> str:
    """The chapter's title: the first level-1 heading of a markdown cell the book shows."""
    cells = json.loads(nb.read_text())["cells"]
    shown = [c for c in cells if c["cell_type"] == "markdown" and "remove-cell" not in c["metadata"].get("tags", [])]
    return next(line[2:].strip() for c in shown for line in "".join(c["source"]).splitlines()
                if line.startswith("# "))


def test_every_chapter_and_appendix_is_in_the_pdf(pdf):
    pages = int(re.search(r"Pages:\s+(\d+)", _run("pdfinfo", str(pdf))).group(1))
    text = " ".join(_run("pdftotext", str(pdf), "-").replace("\u2019", "'").split())
    titles = [_title(nb) for nb in CHAPTERS] + [
        "Appendix: the claim ledger", "Errata to the source notes", "Bibliography"]
    missing = [t for t in titles if " ".join(t.split()) not in text]
    assert not missing, f"not in the PDF: {missing}"
    assert pages >= 20 * len(CHAPTERS) // 2, f"only {pages} pages for {len(CHAPTERS)} chapters"
    assert "\\frac" not in re.sub(r"r?\"[^\"]*\"", "", text), "untypeset TeX in the PDF"


def test_every_figure_is_in_the_pdf(pdf):
    n_figures = sum(
        "image/png" in out.get("data", {})
        for nb in CHAPTERS for cell in json.loads(nb.read_text())["cells"]
        for out in cell.get("outputs", [])
    )
    images = _run("pdfimages", "-list", str(pdf)).splitlines()[2:]
    assert len(images) >= n_figures, f"{len(images)} images in the PDF, the chapters draw {n_figures}"


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
