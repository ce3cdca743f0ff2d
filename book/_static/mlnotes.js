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
