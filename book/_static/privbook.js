/* privbook: loaded on every page (html_js_files in _config.yml). */
(function () {
  "use strict";

  // Opened from disk (file://) a page may not read other files, so Sphinx's search excerpts
  // (fetched from each page) would fail with errors. Search still lists the matching pages; the
  // excerpts come back when the book is served (python -m http.server -d _build/html).
  if (window.location.protocol === "file:" && typeof DOCUMENTATION_OPTIONS !== "undefined") {
    DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY = false;
  }

  function searchNote() {
    if (window.location.protocol !== "file:") return;
    const results = document.getElementById("search-results");
    if (!results || document.querySelector(".privbook-search-note")) return;
    const note = document.createElement("p");
    note.className = "privbook-search-note";
    note.textContent = "Opened from disk, search lists pages without excerpts. For excerpts, serve " +
      "the book: python -m http.server -d _build/html, then open http://localhost:8000.";
    results.parentNode.insertBefore(note, results);
  }

  // The ledger's status filters: a row shows when its status is checked; a chapter whose rows
  // are all hidden is hidden with its heading.
  function ledgerFilters() {
    const boxes = document.querySelectorAll(".ledger-filter input[data-status]");
    if (!boxes.length) return;
    const apply = function () {
      const shown = new Set([...boxes].filter((b) => b.checked).map((b) => b.dataset.status));
      document.querySelectorAll("tr.ledger-row").forEach(function (row) {
        row.classList.toggle("ledger-hidden", !shown.has(row.dataset.status));
        row.style.display = "";
      });
      document.querySelectorAll("table.ledger").forEach(function (table) {
        const empty = !table.querySelector("tr.ledger-row:not(.ledger-hidden)");
        table.classList.toggle("ledger-hidden", empty);
        let el = table.previousElementSibling;
        for (let k = 0; el && k < 2; k++, el = el.previousElementSibling) {
          el.classList.toggle("ledger-hidden", empty);
          if (el.matches("h3.ledger-chapter")) break;
        }
      });
    };
    boxes.forEach((box) => box.addEventListener("change", apply));
    apply();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { searchNote(); ledgerFilters(); });
  } else {
    searchNote();
    ledgerFilters();
  }
})();
