// mlnotes: a "Whole book (PDF)" entry in every page's download menu (make pdf writes the file).
document.addEventListener("DOMContentLoaded", () => {
  const root = document.documentElement.dataset.content_root || "";
  for (const menu of document.querySelectorAll(".dropdown-download-buttons .dropdown-menu")) {
    const li = document.createElement("li");
    li.innerHTML = `<a href="${root}mlnotes.pdf" class="btn btn-sm dropdown-item" title="The whole book as one PDF">`
      + '<span class="btn__icon-container"><i class="fas fa-book"></i></span>'
      + '<span class="btn__text-container">Whole book (PDF)</span></a>';
    menu.appendChild(li);
  }
});
