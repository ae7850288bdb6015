/* The experts' workbench: search, band filter, sort, and picks kept in this browser.
   Plain DOM, no network: the page's Content-Security-Policy allows this script by its hash and
   forbids every connection.  Every string from the page is handled as text (textContent,
   value), never as markup. */
(function () {
  "use strict";
  var root = document.documentElement;
  var venue = document.body.getAttribute("data-venue") || "";
  var storeKey = "paperrank-picks:" + venue;
  // one character a CSV cell or the page could misread is refused (the import refuses it too)
  var NAME_RE = /^[\p{L}\p{N}][\p{L}\p{N}\p{M} .'_()-]{0,79}$/u;
  var BAND_ORDER = { secure: 0, borderline: 1, outside: 2, none: 3 };
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr[data-paper-id]"));
  var search = document.getElementById("paper-search");
  var band = document.getElementById("band-filter");
  var nameBox = document.getElementById("expert-name");
  var nameError = document.getElementById("expert-name-error");
  var download = document.getElementById("download-picks");
  var status = document.getElementById("search-status");
  var total = document.getElementById("pick-total");

  root.classList.add("js");
  document.getElementById("tools").hidden = false;

  // -- search and band filter ---------------------------------------------------------------
  var haystack = rows.map(function (tr) {
    var parts = tr.querySelectorAll(".title, .authors, .abstract-text");
    var text = "";
    for (var i = 0; i < parts.length; i++) { text += " " + parts[i].textContent; }
    return text.toLowerCase();
  });
  var sections = Array.prototype.slice.call(document.querySelectorAll("section.category"));

  // -- the ranked papers no list shows, searched by title and authors ------------------------
  // Their index rides in a data attribute as base64 gzip JSON; the browser inflates it (no
  // request is made). Each entry: [paper_id, category, rank, title, authors, link, band]; a
  // link "" is the forum prefix + paper_id, null none.
  var more = document.getElementById("more-matches");
  var MORE_SHOWN = 50;
  var unlisted = [];
  var unlistedText = [];
  if (more && typeof DecompressionStream === "function") {
    var packed = atob(more.getAttribute("data-index"));
    var bytes = new Uint8Array(packed.length);
    for (var b = 0; b < packed.length; b++) { bytes[b] = packed.charCodeAt(b); }
    new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip")))
      .json().then(function (index) {
        unlisted = index;
        unlistedText = index.map(function (p) { return (p[3] + " " + p[4]).toLowerCase(); });
        if (search.value) { applyFilter(); }
      });
  }

  function showMore(terms, wanted) {
    if (!more) { return 0; }
    var found = [];
    for (var i = 0; terms.length && i < unlisted.length; i++) {
      var ok = wanted === "all" || unlisted[i][6] === wanted;
      for (var t = 0; ok && t < terms.length; t++) { ok = unlistedText[i].indexOf(terms[t]) !== -1; }
      if (ok) { found.push(unlisted[i]); }
    }
    var list = document.getElementById("more-matches-list");
    list.textContent = "";
    found.slice(0, MORE_SHOWN).forEach(function (p) {
      var item = document.createElement("li");
      item.setAttribute("data-paper-id", p[0]);
      var where = document.createElement("span");
      where.className = "where";
      where.textContent = p[1] + " \u00b7 #" + p[2] + (p[6] ? " \u00b7 " + p[6] : "") + " ";
      item.appendChild(where);
      var link = p[5] === "" ? more.getAttribute("data-forum-prefix") + p[0] : p[5];
      var title = document.createElement(/^https?:\/\//.test(link || "") ? "a" : "span");
      if (title.tagName === "A") { title.href = link; title.rel = "noopener noreferrer"; }
      title.className = "title";
      title.textContent = p[3];
      item.appendChild(title);
      if (p[4]) {
        var authors = document.createElement("span");
        authors.className = "authors";
        authors.textContent = " \u2014 " + p[4];
        item.appendChild(authors);
      }
      list.appendChild(item);
    });
    var rest = document.getElementById("more-matches-more");
    rest.hidden = found.length <= MORE_SHOWN;
    rest.textContent = (found.length - MORE_SHOWN) + " more: narrow the search to see them";
    more.hidden = found.length === 0;
    return found.length;
  }

  function applyFilter() {
    var terms = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    var wanted = band.value;
    var shown = 0;
    for (var i = 0; i < rows.length; i++) {
      var ok = wanted === "all" || rows[i].getAttribute("data-band") === wanted;
      for (var t = 0; ok && t < terms.length; t++) { ok = haystack[i].indexOf(terms[t]) !== -1; }
      if (rows[i].hidden === ok) { rows[i].hidden = !ok; }
      if (ok) { shown++; }
    }
    sections.forEach(function (section) {
      var visible = section.querySelector("tr[data-paper-id]:not([hidden])") !== null;
      section.querySelector(".no-match").hidden = visible;
    });
    var below = showMore(terms, wanted);
    status.textContent = (terms.length || wanted !== "all")
      ? shown + " of " + rows.length + " papers match" + (below ? ", and " + below + " below the lists" : "")
      : rows.length + " papers listed";
  }
  search.addEventListener("input", applyFilter);
  band.addEventListener("change", applyFilter);

  // -- sort: every column header of a category table is a button ------------------------------
  function sortValue(cell) {
    var v = cell.getAttribute("data-v");
    if (v === null) { v = cell.textContent.trim(); }
    if (v in BAND_ORDER) { return BAND_ORDER[v]; }
    var n = parseFloat(v);
    return isNaN(n) || !/^-?[\d.]/.test(v) ? v.toLowerCase() : n;
  }
  function compare(a, b) {
    if (typeof a === typeof b) { return a < b ? -1 : a > b ? 1 : 0; }
    return typeof a === "number" ? -1 : 1;
  }
  document.querySelectorAll("table.papers.sortable").forEach(function (table) {
    var headers = table.querySelectorAll("thead th");
    headers.forEach(function (th, column) {
      if (th.classList.contains("pick-cell")) { return; }
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      while (th.firstChild) { button.appendChild(th.firstChild); }
      th.appendChild(button);
      button.addEventListener("click", function () {
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        headers.forEach(function (other) { other.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var body = table.tBodies[0];
        var list = Array.prototype.slice.call(body.rows).map(function (tr, index) {
          return { tr: tr, key: sortValue(tr.cells[column]), index: index };
        });
        list.sort(function (a, b) {
          return (ascending ? 1 : -1) * compare(a.key, b.key) || a.index - b.index;
        });
        list.forEach(function (item) { body.appendChild(item.tr); });
        table.classList.add("resorted");
      });
    });
  });

  // -- picks, kept in localStorage ------------------------------------------------------------
  function load() {
    try {
      var saved = JSON.parse(window.localStorage.getItem(storeKey) || "{}");
      return { name: String(saved.name || ""), picks: saved.picks || {} };
    } catch (error) {
      return { name: "", picks: {} };
    }
  }
  var state = load();
  function save() {
    try { window.localStorage.setItem(storeKey, JSON.stringify(state)); } catch (error) { /* private mode */ }
  }
  function key(tr) { return tr.getAttribute("data-category") + "\u0000" + tr.getAttribute("data-paper-id"); }

  function countPicks() {
    var perCategory = {};
    var n = 0;
    Object.keys(state.picks).forEach(function (k) {
      var category = state.picks[k].category;
      perCategory[category] = (perCategory[category] || 0) + 1;
      n++;
    });
    document.querySelectorAll(".pick-count").forEach(function (span) {
      span.textContent = String(perCategory[span.getAttribute("data-category")] || 0);
    });
    total.textContent = n + (n === 1 ? " paper" : " papers") + " picked";
    checkName();
  }

  function checkName() {
    var name = nameBox.value.trim();
    var valid = NAME_RE.test(name);
    nameError.hidden = valid || name === "";
    nameBox.setAttribute("aria-invalid", valid || name === "" ? "false" : "true");
    download.disabled = !valid || Object.keys(state.picks).length === 0;
    return valid;
  }

  rows.forEach(function (tr) {
    var box = tr.querySelector("input.pick");
    var note = tr.querySelector("textarea.pick-note");
    var saved = state.picks[key(tr)];
    if (saved) {
      box.checked = true;
      note.value = saved.note || "";
    }
    note.hidden = !box.checked;
    tr.classList.toggle("picked", box.checked);
    box.addEventListener("change", function () {
      if (box.checked) {
        state.picks[key(tr)] = { paper_id: tr.getAttribute("data-paper-id"),
                                 category: tr.getAttribute("data-category"), note: note.value };
      } else {
        delete state.picks[key(tr)];
      }
      note.hidden = !box.checked;
      tr.classList.toggle("picked", box.checked);
      save();
      countPicks();
    });
    note.addEventListener("input", function () {
      if (state.picks[key(tr)]) { state.picks[key(tr)].note = note.value; save(); }
    });
  });
  nameBox.value = state.name;
  nameBox.addEventListener("input", function () {
    state.name = nameBox.value.trim();
    save();
    checkName();
  });

  // -- the download: exactly seeds/expert_selections.csv's columns ----------------------------
  function cell(value) {
    var text = String(value).replace(/\r\n?/g, "\n");
    // a spreadsheet would run a cell that starts like a formula: make it text
    if (/^[=+\-@\t\r]/.test(text)) { text = "'" + text; }
    return /[",\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
  }
  download.addEventListener("click", function () {
    if (!checkName()) { nameBox.focus(); return; }
    var name = nameBox.value.trim();
    var lines = ["paper_id,category,selected_by,note"];
    Object.keys(state.picks).sort().forEach(function (k) {
      var pick = state.picks[k];
      lines.push([pick.paper_id, pick.category, name, pick.note || ""].map(cell).join(","));
    });
    var blob = new Blob([lines.join("\n") + "\n"], { type: "text/csv;charset=utf-8" });
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "expert_selections-" + name.replace(/[^\p{L}\p{N}_-]+/gu, "_") + ".csv";
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 0);
  });

  applyFilter();
  countPicks();
})();
