"""Print the whole book as a textbook PDF: ``python book/pdf.py SINGLEHTML_DIR OUT_PDF``.

The route. The book is built once more as a single HTML page (``make pdf`` does it, from the
committed, already executed notebooks) and printed by the headless Chromium the browser test
uses, after the book's own MathJax has typeset every equation, with CSS paged media
(``book/_static/mlnotes-print.css``). Why not Jupyter Book's LaTeX builder: it needs TeX Live
(about 1 GB on CI), the chapters' HTML outputs (claim verdicts, folded code, tables) would need a
second rendering, and the PDF would no longer be the book the tests check, with its MathJax
numbering; this route prints exactly the HTML book, equations, figures, theorems and exercises
numbered as on screen, in a few minutes.

What Chromium's paged media lacks, this script adds, in two passes over one typeset page:

1. The page is rearranged as a book (``LAYOUT``): a title page; the contents; the front matter
   (the front page's text and its reading guide, then how to use, notation, teaching); a page
   for each part; the library reference as the last appendix; an index made from Sphinx's index
   of the HTML book (``pdf_index.json``, written by ``book/_ext/mlnotes_pdf.py``) with the
   definitions, theorems and proofs after it. Headings are re-levelled (part, chapter, section)
   so the PDF's bookmarks follow the book. The single page keeps Sphinx's cross-document links
   (``book/intro.html#eq-...``, ``genindex.html``): each is pointed at its target in the page.
2. The first print gives the page of every destination (pypdf reads the PDF's named
   destinations); a blank page goes before every part and chapter that would open on a left-hand
   page; the contents and index get their page numbers; the second print is the book, checked
   against a read of its own destinations. Each print starts from a new layout tree
   (``FRESH_LAYOUT``): two prints of one page then give the same pages.
3. Running heads (the chapter on left-hand pages, the section on right-hand pages) and page
   numbers are stamped on every page but the title, part, blank and opening pages (Chromium's
   @page margin boxes cannot leave out a chapter's first page): a page of them per book page,
   printed by the same browser and laid over the book with qpdf (Debian's ``qpdf``).

Solutions are printed under their exercises, opened: an exercise and its solution are read
together, as in the HTML book, and moving them to an appendix would renumber nothing but part
the two for the reader on paper only.
"""

from __future__ import annotations

import base64
import html
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from test_browser import Browser  # noqa: E402  (the DevTools client of the browser test)

REPOSITORY = "https://github.com/mlnotes/mlnotes"
CODE_COLUMNS = 88  # the widest code line printed at the listing's own size
GUTTER = 4  # the columns of a listing's line numbers (" 12 "), beside its 88 of code;
# mlnotes-print.css sets listings at 8.2 pt * 88 / (88 + GUTTER)
LONG_LINES = 15  # a code block or table longer than this may break across pages (about a fifth)

LAYOUT = r"""
((cfg) => {
const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];
const el = (tag, cls, htmlText) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (htmlText !== undefined) e.innerHTML = htmlText;
  return e;
};
const report = {unresolved: [], chapters: [], missing_index: [], outline: [], too_wide: []};

// -- unfold what the screen folds: the plotting code above a figure goes; every solution is
// printed open under its exercise as a box "Solution to Exercise N", coding solutions (a folded
// cell) as the conceptual ones (sphinx-exercise's solution admonition) --
document.getElementById('jb-print-docs-body')?.remove();
let exercise = '';
for (const e of $$('div.exercise, .cell details, .mlnotes-solution-cell details')) {
  if (e.matches('div.exercise')) {
    const t = e.querySelector('.admonition-title');
    exercise = t ? (t.textContent.match(/Exercise\s+[\d.]+/) || [''])[0] : '';
    continue;
  }
  const summary = e.querySelector('summary');
  if (!summary || !/Solution/.test(summary.textContent)) { e.remove(); continue; }
  const box = el('div', 'admonition solution pdf-solution');
  box.appendChild(el('p', 'admonition-title', exercise ? `Solution to ${exercise}` : 'Solution'));
  summary.remove();
  while (e.firstChild) box.appendChild(e.firstChild);
  e.replaceWith(box);
}
$$('details').forEach(d => { d.open = true; });
$$('.toggle-hidden').forEach(e => e.classList.remove('toggle-hidden'));
$$('.dropdown').forEach(e => e.classList.remove('dropdown'));
$$('button.toggle-button, .toggle-button').forEach(e => e.remove());

// -- the documents of the single page, in the order of the table of contents --
const docSection = name => {
  const span = document.getElementById('document-' + name);
  if (!span) return null;
  let s = span.nextElementSibling;
  while (s && s.tagName !== 'SECTION') s = s.nextElementSibling;
  return s;
};
const intro = document.querySelector('article.bd-article > section');
const article = intro.parentElement;

// -- links: Sphinx's cross-document links, into the page --
const ids = new Set($$('[id]').map(e => e.id));
const docTarget = name => { const s = docSection(name); return s ? s.id : null; };
for (const a of $$('a[href]')) {
  const href = a.getAttribute('href');
  if (/^(https?:|mailto:)/.test(href)) continue;
  let target = null;
  if (href === '#') {  // the theme's links to nowhere
    const span = el('span', a.className); span.innerHTML = a.innerHTML; a.replaceWith(span); continue;
  }
  const m = href.match(/^(?:\.{1,2}\/)*([^#]*?)(?:\.html)?(?:#(.*))?$/);
  const doc = m ? m[1] : '', frag = m ? decodeURIComponent(m[2] || '') : '';
  if (frag.startsWith('document-')) target = docTarget(frag.slice(9));
  else if (frag && ids.has(frag)) target = frag;
  else if (doc === 'genindex') target = 'pdf-index';
  else if (doc === 'prf-prf') target = 'pdf-proofs';
  else if (doc && docSection(doc)) target = docTarget(doc);
  if (target) { a.setAttribute('href', '#' + target); continue; }
  report.unresolved.push(href);
  const span = el('span', a.className); span.innerHTML = a.innerHTML; a.replaceWith(span);
}

// -- headings re-levelled: part 1, chapter 2, section 3 (front matter chapters at level 1) --
const relevel = (section, level) => {
  const top = +section.querySelector('h1,h2,h3,h4,h5,h6').tagName[1];
  for (const h of $$('h1,h2,h3,h4,h5,h6', section)) {
    const n = Math.min(6, +h.tagName[1] - top + level);
    if (n === +h.tagName[1]) continue;
    const g = document.createElement('h' + n);
    for (const at of h.attributes) g.setAttribute(at.name, at.value);
    while (h.firstChild) g.appendChild(h.firstChild);
    h.replaceWith(g);
  }
};
const book = el('div', 'pdf-book');
book.id = 'pdf-book';
article.prepend(book);  // in the document from the start: getElementById finds what moves in

// title page
const title = el('div', 'pdf-title-page');
title.id = 'pdf-title';
title.innerHTML = `<div class="pdf-title">mlnotes</div>
  <div class="pdf-subtitle">Classical machine learning,<br>derived and verified</div>
  <div class="pdf-author">${cfg.author}</div>
  <div class="pdf-source">Built from the sources at <a href="${cfg.repository}">${cfg.repository}</a>,
  ${cfg.date}.<br>Every equation marked with a check is verified by the test suite.<br>
  <a href="#pdf-contents">Contents</a> · <a href="#pdf-index">Index</a></div>`;
book.appendChild(title);
const toc = el('section', 'pdf-toc pdf-new-page'); toc.id = 'pdf-contents';
toc.appendChild(el('h1', '', 'Contents'));
book.appendChild(toc);

// the front page: its text and its reading guide, without its own contents heading
const contents = intro.querySelector('section#contents');
const docs = contents.querySelectorAll(':scope > .toctree-wrapper');
const front = el('section', 'pdf-chapter pdf-new-page'); front.id = 'pdf-about';
const h = intro.querySelector('h1');
h.innerHTML = 'About this course';
for (const child of [...intro.children]) if (child !== contents) front.appendChild(child);
relevel(front, 1);
front.dataset.runhead = 'About this course';
book.appendChild(front);

const roman = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII'];
let partNo = 0;
for (const part of cfg.parts) {
  let level = 2;
  if (part.front) level = 1;
  else {
    const p = el('section', 'pdf-part'); p.id = 'pdf-part-' + (++partNo);
    p.innerHTML = `<div class="pdf-part-number">Part ${roman[partNo - 1]}</div><h1>${part.caption}</h1>`;
    book.appendChild(p);
  }
  for (const name of part.docs) {
    const s = docSection(name);
    if (!s) { report.unresolved.push('document ' + name); continue; }
    relevel(s, level);
    s.classList.add('pdf-chapter', 'pdf-new-page');
    const head = s.querySelector('h1,h2');
    const clone = head.cloneNode(true);
    clone.querySelectorAll('.headerlink').forEach(x => x.remove());
    s.dataset.runhead = clone.textContent.replace(/\s+/g, ' ').trim();
    book.appendChild(s);
  }
}
// -- the index: Sphinx's index of the HTML book, then the definitions, theorems and proofs --
const index = el('section', 'pdf-index pdf-chapter pdf-new-page'); index.id = 'pdf-index';
index.dataset.runhead = 'Index';
index.appendChild(el('h1', '', 'Index'));
const cols = el('div', 'pdf-index-columns');
const pages = ids_ => ids_.filter(i => {
  if (document.getElementById(i)) return true;
  report.missing_index.push(i); return false;
}).map(i => `<a class="pdf-pn" data-id="${i}" href="#${i}">000</a>`).join(', ');
for (const [letter, entries] of cfg.index) {
  cols.appendChild(el('div', 'pdf-index-letter', letter));
  for (const [term, tids, subs] of entries) {
    const e = el('div', 'pdf-index-entry');
    e.innerHTML = `<span class="pdf-index-term">${term}</span>` + (tids.length ? ', ' + pages(tids) : '');
    cols.appendChild(e);
    for (const [sub, sids] of subs) {
      cols.appendChild(el('div', 'pdf-index-entry pdf-index-sub',
        `<span class="pdf-index-term">${sub}</span>` + (sids.length ? ', ' + pages(sids) : '')));
    }
  }
}
index.appendChild(cols);
const proofs = el('section', ''); proofs.id = 'pdf-proofs';
proofs.appendChild(el('h2', '', 'Definitions, theorems and proofs'));
const plist = el('div', 'pdf-index-columns');
for (const p of $$('div.proof[id], div.admonition.definition[id], div.admonition.theorem[id]', book)) {
  const t = p.querySelector('.admonition-title');
  if (!t) continue;
  plist.appendChild(el('div', 'pdf-index-entry',
    `<span class="pdf-index-term">${t.textContent.replace(/\s+/g, ' ').trim()}</span>, `
    + `<a class="pdf-pn" data-id="${p.id}" href="#${p.id}">000</a>`));
}
proofs.appendChild(plist);
index.appendChild(proofs);
book.appendChild(index);

// Sphinx's section ids are unique per document only: each chapter has its "implementation" and
// "exercises". A repeated id gets a suffix here, so the contents and bookmarks reach its section.
const seen = new Set();
for (const sec of $$('section[id]', book)) {
  let id = sec.id, n = 1;
  while (seen.has(id)) id = `${sec.id}-${++n}`;
  sec.id = id;
  seen.add(id);
}
// -- the contents: parts, chapters and sections with their pages --
for (const head of $$('h1, h2, h3', book)) {
  if (head.closest('.pdf-title-page, .pdf-toc, .pdf-index .pdf-index-columns')) continue;
  const sec = head.closest('section');
  if (!sec || !sec.id) continue;
  const level = +head.tagName[1];
  const clone = head.cloneNode(true);
  clone.querySelectorAll('.headerlink').forEach(x => x.remove());
  const plain = clone.cloneNode(true);
  plain.querySelectorAll('mjx-container').forEach(m => m.replaceWith(
    (m.querySelector('mjx-assistive-mml') || m).textContent));
  report.outline.push({level, id: sec.id,
                       title: plain.textContent.replace(/\s+/g, ' ').replace(/^(\d+(?:\.\d+)*)\. /, '$1 ').trim()});
  const entry = el('div', `pdf-toc-entry pdf-toc-${level}`);
  entry.innerHTML = `<a class="pdf-toc-title" href="#${sec.id}">${clone.innerHTML}</a>`
    + `<span class="pdf-toc-dots"></span><a class="pdf-pn" data-id="${sec.id}" href="#${sec.id}">000</a>`;
  toc.appendChild(entry);
  if (sec.classList.contains('pdf-chapter') || sec.classList.contains('pdf-part'))
    report.chapters.push({id: sec.id, head: sec.dataset.runhead || '', part: sec.classList.contains('pdf-part')});
  else if (level === 3) report.chapters.push({id: sec.id, head: report.outline.at(-1).title, section: true});
}

// -- a long block may run over a page: kept whole (the theme keeps every code block and table
// whole), a listing, code cell or output longer than what was left of its page moved on and
// left that page near-empty, or an empty page with only the cell's border when it was longer
// than a page. A short one still moves on whole: it leaves at most a fifth of a page. --
for (const pre of $$('pre', book)) {
  if (pre.textContent.replace(/\n$/, '').split('\n').length <= cfg.long_lines) continue;
  for (let e = pre; e && e !== book && e.tagName !== 'SECTION'; e = e.parentElement)
    e.classList.add('pdf-breakable');
}
for (const t of $$('table', book)) {
  if (t.rows.length <= cfg.long_lines) continue;
  for (let e = t; e && e !== book && e.tagName !== 'SECTION'; e = e.parentElement)
    e.classList.add('pdf-breakable');
}

// -- code at most the measure, never wrapped: a block wider than 88 columns (a listing: 88 and
// the GUTTER of its line numbers, which mlnotes-print.css sets smaller to fit) is reported,
// and make pdf fails naming it --
for (const pre of $$('pre', book)) {
  const columns = cfg.columns + (pre.querySelector('.linenos') ? cfg.gutter : 0);
  const wide = pre.textContent.split('\n').find(l => l.length > columns);
  if (wide) report.too_wide.push(wide.slice(0, 60));
}

report.chapters.unshift({id: 'pdf-contents', head: 'Contents'});
report.outline.unshift({level: 1, id: 'pdf-contents', title: 'Contents'});
// the rearranged book replaces the page
article.replaceChildren(book);
document.title = 'mlnotes: classical machine learning, derived and verified';
return JSON.stringify(report);
})
"""

FILL = r"""
((pages, blanks) => {
  for (const a of document.querySelectorAll('.pdf-pn[data-id]')) a.textContent = pages[a.dataset.id] ?? '?';
  document.querySelectorAll('.pdf-blank').forEach(b => b.remove());
  for (const id of blanks) {
    const b = document.createElement('div'); b.className = 'pdf-blank';
    document.getElementById(id).before(b);
  }
  return true;
})
"""


def toc_parts() -> list[dict]:
    """The parts of book/_toc.yml, each with its documents (a chapter's sections follow it in
    the page); the library reference goes into the appendices."""
    toc = yaml.safe_load((ROOT / "book" / "_toc.yml").read_text())
    parts = []
    for part in toc["parts"]:
        docs = [c["file"] for c in part["chapters"]]
        if part["caption"] == "Library reference" and parts:
            parts[-1]["docs"] += docs
            continue
        parts.append({"caption": part["caption"], "docs": docs,
                      "front": part["caption"] == "Front matter"})
    return parts


def destinations(pdf: Path, outline: list[dict] = ()) -> dict[str, int]:
    """Each named destination of the PDF (an element id) and its page, from 1.

    A section's destination is the top of its box, which Chromium can leave at the foot of a
    page while the heading moves on to the next (a heading never ends a page): a section whose
    title (from ``outline``) is printed on the next page and not on its own is on the next."""
    from pypdf import PdfReader

    reader = PdfReader(str(pdf))
    found = {name.lstrip("/"): reader.get_destination_page_number(dest) + 1
             for name, dest in reader.named_destinations.items()}
    text: dict[int, str] = {}

    def words(n: int) -> str:
        if n not in text:
            raw = reader.pages[n - 1].extract_text().replace("\ufb01", "fi")
            text[n] = " ".join(raw.split()).lower()
        return text[n]

    for item in outline:
        n = found.get(item["id"])
        title = " ".join(re.sub(r"^[\d.]+\s+", "", item["title"]).split()).lower()[:30]
        if n and len(title) > 8 and n < len(reader.pages) and title not in words(n) \
                and title in words(n + 1):
            found[item["id"]] = n + 1
    return found


def add_outline(src: Path, outline: list[dict], out: Path) -> None:
    """Bookmarks made from the book's headings (part, chapter, section), each at its heading.
    Chromium's own outline repeats a heading's text when the heading starts a page
    ("HessiansHessians") and follows the HTML's heading levels."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import Fit

    reader = PdfReader(str(src))
    dests = {name.lstrip("/"): d for name, d in reader.named_destinations.items()}
    writer = PdfWriter(clone_from=reader)
    parents: dict[int, object] = {}
    for item in outline:
        d = dests.get(item["id"])
        if d is None:
            continue
        page = reader.get_destination_page_number(d)
        top = d.top if d.get("/Top") is not None else None
        parent = parents.get(item["level"] - 1) if item["level"] > 1 else None
        node = writer.add_outline_item(title=item["title"], page_number=page, parent=parent,
                                       fit=Fit.xyz(top=top), is_open=item["level"] < 2)
        parents[item["level"]] = node
        for deeper in [k for k in parents if k > item["level"]]:
            del parents[deeper]
    writer.page_mode = "/UseOutlines"
    writer.write(str(out))


# Chromium keeps layout results from one print to the next: printed twice, the same page gave
# two layouts in turn (print 1 = print 3 != print 2), where a heading and the lines after it just
# fit at the foot of a page or moved on, and the sections after moved by a page (the RKHS, the
# union bound, eq-kernel-svm-duality). Each print starts from a new layout tree instead: the
# body's boxes are dropped (display: none, laid out) and built again.
FRESH_LAYOUT = """(() => {
  const s = document.body.style;
  s.display = 'none'; document.body.offsetHeight;
  s.display = ''; document.body.offsetHeight;
  return true;
})()"""


def print_page(browser: Browser, pdf: Path) -> None:
    browser.evaluate(FRESH_LAYOUT)
    r = browser.call("Page.printToPDF", printBackground=True, preferCSSPageSize=True,
                     displayHeaderFooter=False, generateDocumentOutline=False,
                     generateTaggedPDF=True, transferMode="ReturnAsBase64")
    pdf.write_bytes(base64.b64decode(r["data"]))


def place(chapters: list[dict], dests: dict[str, int]) -> tuple[list[str], dict[str, int]]:
    """The blank pages that put every part and chapter on a right-hand (odd) page, and the page
    of every destination once they are in."""
    blanks, shifts = [], []  # (page in this print where a blank goes before, running shift)
    shift = 0
    for c in chapters:
        if c.get("section") or c["id"] not in dests:
            continue
        page = dests[c["id"]]
        if (page + shift) % 2 == 0:
            blanks.append(c["id"])
            shift += 1
            shifts.append((page, shift))
    pages = {}
    for name, page in dests.items():
        pages[name] = page + max([s for p, s in shifts if p <= page], default=0)
    return blanks, pages


def overlay_html(n_pages: int, chapters: list[dict], pages: dict[str, int], blanks: int) -> str:
    """One page per book page with its running head and number; empty on the title, part, blank
    and opening pages."""
    opening, part_or_blank = {}, set()
    for c in chapters:
        if c.get("section") or c["id"] not in pages:
            continue
        opening[pages[c["id"]]] = c
        if c.get("part"):
            part_or_blank.add(pages[c["id"]])
    sections = sorted((pages[c["id"]], c["head"]) for c in chapters
                      if c.get("section") and c["id"] in pages)
    starts = sorted(opening)
    out = ['<html><head><meta charset="utf-8"><style>',
           '@page { size: A4; margin: 0 } body { margin: 0 }',
           '.pg { position: relative; height: 297mm; break-after: page; overflow: hidden;',
           '  font-family: "Latin Modern Roman", "LM Roman 10", "DejaVu Serif", serif; }',
           '.head { position: absolute; top: 11mm; left: 15mm; right: 15mm; font-size: 9pt;',
           '  font-style: italic; border-bottom: 0.4pt solid #000; padding-bottom: 1mm; }',
           '.head .n { font-style: normal; }',
           '.foot { position: absolute; bottom: 10mm; left: 15mm; right: 15mm; font-size: 9pt; }',
           '</style></head><body>']
    for n in range(1, n_pages + 1):
        chapter = max((p for p in starts if p <= n), default=None)
        if n == 1 or chapter is None or n == chapter or n in part_or_blank or n in blanks:
            out.append('<div class="pg"></div>')
            continue
        head = opening[chapter]["head"]
        section = max((s for s in sections if s[0] <= n and s[0] >= chapter), default=None)
        right = n % 2 == 1
        text = html.escape(section[1] if right and section else head)
        align = "right" if right else "left"
        out.append(f'<div class="pg"><div class="head" style="text-align: {align}">{text}</div>'
                   f'<div class="foot" style="text-align: {align}"><span class="n">{n}</span>'
                   '</div></div>')
    out.append("</body></html>")
    return "\n".join(out)


def build(outdir: Path, pdf: Path) -> dict:
    page = single_page(outdir)
    index = json.loads((outdir / "pdf_index.json").read_text())
    cfg = {"parts": toc_parts(), "index": index, "author": "The mlnotes authors",
           "repository": REPOSITORY, "date": time.strftime("%B %Y"), "columns": CODE_COLUMNS, "gutter": GUTTER,
           "long_lines": LONG_LINES}
    work = Path(tempfile.mkdtemp(prefix="mlnotes-pdf-"))
    browser = Browser()
    try:
        browser.ws.settimeout(900)  # typesetting a whole book takes a while on two cores
        browser.open(page.resolve(), timeout=900)
        report = json.loads(browser.evaluate(f"{LAYOUT}({json.dumps(cfg)})"))
        time.sleep(1)
        chapters = report["chapters"]
        first = work / "pass1.pdf"
        print_page(browser, first)
        dests = destinations(first, report["outline"])
        blanks, pages = place(chapters, dests)
        # numbers in boxes of fixed width move nothing, and a print from a fresh layout is the
        # same every time (FRESH_LAYOUT): the second print is the book. The loop only guards
        # against a change of Chromium: one correction at most, said on stderr.
        for attempt in range(2):
            browser.evaluate(f"{FILL}({json.dumps(pages)}, {json.dumps(blanks)})")
            book = work / f"pass{attempt + 2}.pdf"
            print_page(browser, book)
            got = destinations(book, report["outline"])
            wrong = {k for k, v in pages.items() if got.get(k) != v}
            if not wrong and all(got[c["id"]] % 2 == 1 for c in chapters
                                 if not c.get("section") and c["id"] in got):
                break
            print(f"pass {attempt + 2}: {len(wrong)} destinations moved; again", file=sys.stderr)
            blanks_more, pages = place(chapters, got)
            blanks = blanks + [b for b in blanks_more if b not in blanks]
        if wrong:
            print(f"{len(wrong)} destinations not on the page printed for them: {sorted(wrong)}",
                  file=sys.stderr)
        from pypdf import PdfReader

        n_pages = len(PdfReader(str(book)).pages)
        blank_pages = {pages[b] - 1 for b in blanks}
        heads = work / "heads.html"
        heads.write_text(overlay_html(n_pages, chapters, pages, blank_pages))
        browser.open(heads, timeout=60)
        print_page(browser, work / "heads.pdf")
    finally:
        browser.close()
    subprocess.run(["qpdf", str(book), "--overlay", str(work / "heads.pdf"), "--",
                    str(work / "stamped.pdf")], check=True)
    add_outline(work / "stamped.pdf", report["outline"], pdf)
    shutil.rmtree(work, ignore_errors=True)
    report.update(pages=n_pages, blanks=len(blanks))
    return report


def single_page(outdir: Path) -> Path:
    """The single page, moved to the top of the build: Sphinx writes it at the root document's
    path (book/intro.html) but with links relative to the top, and leaves a redirect there."""
    target = re.search(r'url=([^"]+)"', (outdir / "index.html").read_text()).group(1)
    page = outdir / "book.html"
    page.write_text((outdir / target).read_text())
    return page


if __name__ == "__main__":
    t0 = time.time()
    if not shutil.which("qpdf"):
        sys.exit("qpdf is needed: install Debian's package 'qpdf' (.ci/run does)")
    report = build(Path(sys.argv[1]), Path(sys.argv[2]))
    print(f"{sys.argv[2]} written in {time.time() - t0:.0f} s: {report['pages']} pages, "
          f"{report['blanks']} blank pages before right-hand openings")
    if report["unresolved"] or report["missing_index"]:
        print(f"unresolved links: {report['unresolved']}; index targets missing: "
              f"{report['missing_index']}", file=sys.stderr)
    if report["too_wide"]:  # code is reflowed at its source, never shrunk to fit the page
        sys.exit(f"{len(report['too_wide'])} code blocks wider than {CODE_COLUMNS} columns: "
                 f"reflow them at their source: {report['too_wide']}")
