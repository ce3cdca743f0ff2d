// mlnotes: a "Whole book (PDF)" entry in every page's download menu (make pdf writes the file),
// and the footer's mention of the claim ledger made a link (the footer is the same text on every
// page, so the link is made here, relative to each page).
document.addEventListener("DOMContentLoaded", () => {
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
  for (const menu of document.querySelectorAll(".dropdown-download-buttons .dropdown-menu")) {
    const li = document.createElement("li");
    li.innerHTML = `<a href="${root}mlnotes.pdf" class="btn btn-sm dropdown-item" title="The whole book as one PDF">`
      + '<span class="btn__icon-container"><i class="fas fa-book"></i></span>'
      + '<span class="btn__text-container">Whole book (PDF)</span></a>';
    menu.appendChild(li);
  }
});
