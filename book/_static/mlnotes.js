// mlnotes: a "Whole book (PDF)" entry in every page's download menu when make pdf has written the file,
// and the footer's mention of the claim ledger made a link (the footer is the same text on every
// page, so the link is made here, relative to each page).
document.addEventListener("DOMContentLoaded", () => {
  // Search results: a snippet is the page's raw HTML made text, where maths is still TeX
  // ("\\(\\max_{\\alpha > 0}\\)"): MathJax typesets pages, not snippets. Each formula becomes "…".
  if (typeof Search !== "undefined" && Search.htmlToText) {
    const toText = Search.htmlToText;
    Search.htmlToText = (html, anchor) => {
      const page = new DOMParser().parseFromString(html, "text/html");
      page.querySelectorAll(".math").forEach((m) => m.replaceWith("…"));
      return toText(page.documentElement.outerHTML, anchor);
    };
  }
  const root = document.documentElement.dataset.content_root || "";
  for (const footer of document.querySelectorAll(".extra_footer")) {
    const walker = document.createTreeWalker(footer, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const at = n.textContent.indexOf("the claim ledger");
      if (at >= 0 && !n.parentElement.closest("a")) {
        const link = document.createElement("a");
        link.href = `${root}book/generated/claims.html`;
        link.textContent = "the claim ledger";
        const rest = n.splitText(at);
        rest.textContent = rest.textContent.slice("the claim ledger".length);
        n.parentNode.insertBefore(link, rest);
        break;
      }
    }
  }
  // The entry only where the PDF was built: make pdf writes it and, beside it,
  // _static/mlnotes-pdf.js; make book and make book-check build none, and their pages link none.
  // (A script loads from disk and from a server alike, where fetch() of a file:// URL would not.)
  const marker = document.createElement("script");
  marker.src = `${root}_static/mlnotes-pdf.js`;
  marker.onload = () => {
    for (const menu of document.querySelectorAll(".dropdown-download-buttons .dropdown-menu")) {
      const li = document.createElement("li");
      li.innerHTML = `<a href="${root}mlnotes.pdf" class="btn btn-sm dropdown-item" title="The whole book as one PDF">`
        + '<span class="btn__icon-container"><i class="fas fa-book"></i></span>'
        + '<span class="btn__text-container">Whole book (PDF)</span></a>';
      menu.appendChild(li);
    }
  };
  marker.onerror = () => marker.remove();
  document.head.appendChild(marker);
});

// Phone width (issue 27). A table with a header row is stacked on a phone (mlnotes.css), each
// cell under its column's name, copied here into data-label. A block that scrolls sideways (a
// code listing, a wide display) is reachable from the keyboard: it takes the focus (tabindex),
// as WCAG asks of a scrolled region, and shows a shadow on each side where more of it is;
// looked at again whenever the block changes size or scrolls.
document.addEventListener("DOMContentLoaded", () => {
  for (const table of document.querySelectorAll("article table")) {
    const names = [...table.querySelectorAll(":scope > thead > tr:first-child > th")]
      .map(th => th.textContent.trim());
    if (names.length < 2) continue;
    table.classList.add("mlnotes-stack");
    for (const row of table.querySelectorAll(":scope > tbody > tr")) {
      [...row.children].forEach((cell, k) => { if (names[k]) cell.dataset.label = names[k]; });
    }
  }
});

function mlnotesMarkScroller(el) {
  // (any overflow counts: scrollWidth is rounded, so a display 1.4 px too wide reads as 1)
  const scrolls = el.scrollWidth > el.clientWidth;
  // the sides where more of the block is, for its shadows (mlnotes.css)
  el.classList.toggle("mlnotes-more-left", scrolls && el.scrollLeft > 0);
  el.classList.toggle("mlnotes-more-right", scrolls && el.scrollLeft + el.clientWidth < el.scrollWidth);
  // (the theme gives a scrolled <pre> its tab stop only 300 ms after a resize, and not when the
  // theme changes; MathJax gives every display one already)
  if (scrolls && el.getAttribute("tabindex") !== "0") {
    el.setAttribute("tabindex", "0");
    el.dataset.mlnotesScroller = "";
  } else if (!scrolls && el.dataset.mlnotesScroller !== undefined) {
    el.removeAttribute("tabindex");
    delete el.dataset.mlnotesScroller;
  }
}
const mlnotesResized = new ResizeObserver(entries => entries.forEach(e => mlnotesMarkScroller(e.target)));
function mlnotesWatchScrollers() {
  const blocks = 'article pre, article mjx-container[display="true"], article table.mlnotes-stack td';
  for (const el of document.querySelectorAll(blocks)) {
    if (el.dataset.mlnotesWatched !== undefined) continue;
    el.dataset.mlnotesWatched = "";
    mlnotesResized.observe(el);
    el.addEventListener("scroll", () => mlnotesMarkScroller(el), {passive: true});
  }
}
// (a block's size may stay when what it holds grows: the fonts arrive, the theme changes)
function mlnotesMarkScrollers() {
  document.querySelectorAll("[data-mlnotes-watched]").forEach(mlnotesMarkScroller);
}
document.addEventListener("DOMContentLoaded", mlnotesWatchScrollers);
window.addEventListener("load", () => {
  mlnotesMarkScrollers();
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    MathJax.startup.promise.then(mlnotesWatchScrollers);
  }
});
window.addEventListener("resize", mlnotesMarkScrollers);
new MutationObserver(mlnotesMarkScrollers)
  .observe(document.documentElement, {attributes: true, attributeFilter: ["data-theme"]});

// A bibliography entry is a list item for a screen reader (docutils gives it the deprecated
// role doc-biblioentry, which a list may not hold).
document.addEventListener("DOMContentLoaded", () => {
  for (const entry of document.querySelectorAll('[role="list"] > [role="doc-biblioentry"]')) {
    entry.setAttribute("role", "listitem");
  }
});

// The sidebar's buttons that fold a chapter's sections show only an arrow: they are named
// after the chapter for a screen reader.
document.addEventListener("DOMContentLoaded", () => {
  for (const summary of document.querySelectorAll("summary")) {
    if (summary.textContent.trim() || summary.getAttribute("aria-label")) continue;
    const item = summary.closest("li");
    const link = item && item.querySelector(":scope > a");
    summary.setAttribute("aria-label", link ? `Sections of ${link.textContent.trim()}` : "Show more");
  }
});
